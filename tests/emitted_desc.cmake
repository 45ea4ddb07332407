# The desc corral_emit_desc prints, pasted as a game would paste it:
# tests/emit_desc writes it for a small profiled game, and each compiler
# given compiles it under strict warnings as errors, the C compilers as
# C11 and the C++ ones as C++20 (designated initializers in the order the
# struct declares its fields; GCC's -Wextra also warns about the members a
# designated initializer leaves out, GCC bug 96868, so not that one).
# Run: cmake -DGEN=<emit_desc> -DDIR=<scratch dir> -DROOT=<source dir>
#            "-DC_COMPILERS=<list>" "-DCXX_COMPILERS=<list>" -P this file.
cmake_policy(SET CMP0054 NEW)
file(MAKE_DIRECTORY "${DIR}")
execute_process(COMMAND "${GEN}" "${DIR}/shipped_desc.inc" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${GEN} failed: ${rc}")
endif()
set(use "#include <corral/corral.h>\n#include \"shipped_desc.inc\"\n"
        "size_t shipped_desc_bytes(void)\;\n"
        "size_t shipped_desc_bytes(void) { return corral_sched_memory_size(&corral_shipped_desc)\; }\n")
file(WRITE "${DIR}/shipped_desc.c" ${use})
file(WRITE "${DIR}/shipped_desc.cpp" ${use})
set(strict -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror "-I${ROOT}/include" "-I${ROOT}/gen" "-I${DIR}")
set(checked 0)
foreach(lang C CXX)
    foreach(compiler IN LISTS ${lang}_COMPILERS)
        execute_process(COMMAND "${compiler}" --version OUTPUT_VARIABLE version ERROR_QUIET)
        if(lang STREQUAL "C")
            set(flags -std=c11 ${strict} -fsyntax-only "${DIR}/shipped_desc.c")
        else()
            set(flags -std=c++20 ${strict} -fsyntax-only "${DIR}/shipped_desc.cpp")
            if(NOT version MATCHES "clang")
                list(APPEND flags -Wno-missing-field-initializers)
            endif()
        endif()
        execute_process(COMMAND "${compiler}" ${flags} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
        if(NOT rc EQUAL 0 OR out MATCHES "warning:")
            file(READ "${DIR}/shipped_desc.inc" text)
            message(FATAL_ERROR "${compiler} ${flags}:\n${out}\nthe text:\n${text}")
        endif()
        if(lang STREQUAL "C")
            message(STATUS "${compiler}: the emitted desc compiles as C11")
        else()
            message(STATUS "${compiler}: the emitted desc compiles as C++20")
        endif()
        math(EXPR checked "${checked} + 1")
    endforeach()
endforeach()
if(checked EQUAL 0)
    message(FATAL_ERROR "no compiler given")
endif()
