# Runs PROGRAM (with ARGS, a ;-list) and fails unless its standard output
# equals EXPECTED exactly.
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
file(READ ${EXPECTED} want)
if(NOT out STREQUAL want)
    message(FATAL_ERROR "output differs from ${EXPECTED}:\n--- got ---\n${out}\n--- expected ---\n${want}")
endif()
