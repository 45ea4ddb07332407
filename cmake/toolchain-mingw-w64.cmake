# Cross-compile corral for 64-bit Windows with MinGW-w64 (Debian:
# gcc-mingw-w64-x86-64). Programs built with it run under wine, which CMake
# uses as the emulator for anything it runs (tests, try_run).
#   cmake -S . -B build/mingw -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw-w64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CORRAL_MINGW_PREFIX x86_64-w64-mingw32 CACHE STRING "the MinGW-w64 tool prefix")
set(CMAKE_C_COMPILER ${CORRAL_MINGW_PREFIX}-gcc)
set(CMAKE_CXX_COMPILER ${CORRAL_MINGW_PREFIX}-g++)
set(CMAKE_RC_COMPILER ${CORRAL_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${CORRAL_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR wine)
