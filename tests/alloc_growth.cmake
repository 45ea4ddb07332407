# Runs the demo under the malloc-counting interposer for two frame counts and
# fails unless the process makes the same number of allocator calls: the count
# does not grow with the number of frames.
foreach(frames 100 2000)
    execute_process(
        COMMAND ${CMAKE_COMMAND} -E env LD_PRELOAD=${PRELOAD} MALLOC_COUNT_OUT=${OUT}.${frames}
                ${DEMO} ${frames}
        OUTPUT_QUIET RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "demo ${frames} failed: ${rc}")
    endif()
    file(READ ${OUT}.${frames} count)
    string(STRIP "${count}" count)
    set(count_${frames} ${count})
endforeach()
message(STATUS "allocator calls: ${count_100} for 100 frames, ${count_2000} for 2000 frames")
if(count_100 LESS 1)
    message(FATAL_ERROR "the interposer saw no allocation at all: it is not active")
endif()
if(NOT count_100 EQUAL count_2000)
    message(FATAL_ERROR "allocator calls grow with frames: ${count_100} vs ${count_2000}")
endif()
