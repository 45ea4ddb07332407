# The savegame example in separate processes: the first runs frames 1-100
# and saves, the second loads and runs 101-200; together they print what
# one uninterrupted run prints (tests/expected/savegame.txt). The next
# build loads the same save and prints the same second half, and so does
# a load of the save committed from an x86-64 build (tests/expected/).
# Run: cmake -DPROGRAM=... -DNEXT=... -DSRC=<source dir> -DWORK=<dir> -P this file.
set(sav "${WORK}/savegame.sav")
execute_process(COMMAND ${PROGRAM} --save ${sav} OUTPUT_VARIABLE first RESULT_VARIABLE rc1)
execute_process(COMMAND ${PROGRAM} --load ${sav} OUTPUT_VARIABLE second RESULT_VARIABLE rc2)
execute_process(COMMAND ${NEXT} --load ${sav} OUTPUT_VARIABLE next RESULT_VARIABLE rc3)
execute_process(COMMAND ${PROGRAM} --load ${SRC}/tests/expected/savegame.sav OUTPUT_VARIABLE committed RESULT_VARIABLE rc4)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT rc3 EQUAL 0 OR NOT rc4 EQUAL 0)
    message(FATAL_ERROR "savegame: a process failed (${rc1} ${rc2} ${rc3} ${rc4})")
endif()
file(READ ${SRC}/tests/expected/savegame.txt whole)
file(READ ${SRC}/tests/expected/savegame.loaded.txt after)
if(NOT "${first}${second}" STREQUAL "${whole}")
    message(FATAL_ERROR "save then load in two processes differs from one run:\n${first}${second}")
endif()
if(NOT "${next}" STREQUAL "${after}")
    message(FATAL_ERROR "the next build's load differs:\n${next}")
endif()
if(NOT "${committed}" STREQUAL "${after}")
    message(FATAL_ERROR "the committed x86-64 save loads differently:\n${committed}")
endif()
