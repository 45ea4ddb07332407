# Runs takes_golden and fails unless the digests it writes equal
# tests/expected/takes.txt (see tests/takes_golden.c).
# Run: cmake -DPROGRAM=... -DEXPECTED=... -DWORK=<dir> -P this file.
execute_process(COMMAND ${PROGRAM} ${WORK}/takes.txt OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
file(READ ${WORK}/takes.txt got)
file(READ ${EXPECTED} want)
if(NOT got STREQUAL want)
    message(FATAL_ERROR "the games' saves, snapshots or state hashes differ from ${EXPECTED}:\n--- got ---\n${got}\n--- expected ---\n${want}")
endif()
