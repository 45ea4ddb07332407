#!/bin/sh
# MSVC cannot run here, so Clang plays it: --target=x86_64-pc-windows-msvc
# with MSVC's language extensions and __clang__ undefined, so that every
# `_MSC_VER && !__clang__` branch of the portability headers is the one
# compiled (__forceinline, __declspec(thread), _Interlocked*, __COUNTER__
# resume points). Syntax and types only: no MSVC headers or linker here, so
# the C library comes from MinGW's headers and tests/msvc/ stands in for
# the few that do not parse as MSVC. Checks every source file of the
# library as C11, and the public header with a coroutine in it as C11,
# under -Wall -Wextra -Werror. Not C++: with __clang__ undefined MinGW's
# headers do not parse as C++, and there is no MSVC standard library here.
set -eu
cd "$(dirname "$0")/.."
command -v clang >/dev/null 2>&1 || { echo "msvc_check: needs clang" >&2; exit 2; }
[ -d /usr/x86_64-w64-mingw32/include ] || { echo "msvc_check: needs gcc-mingw-w64-x86-64 (its headers)" >&2; exit 2; }
as_msvc="clang --target=x86_64-pc-windows-msvc -fms-compatibility -fms-extensions -U__clang__
  -Wno-builtin-macro-redefined -Wall -Wextra -Werror
  -Itests/msvc -isystem /usr/x86_64-w64-mingw32/include -Iinclude -Igen -Isrc"
for f in src/*/*.c; do
    $as_msvc -fsyntax-only -x c -std=c11 "$f"
done
$as_msvc -fsyntax-only -x c -std=c11 -Wno-unused-function tests/header_check.c
# the resume points are __COUNTER__ (constant under /ZI, Edit and Continue);
# the line-number macro, which /ZI makes a variable inside functions, is
# used by one macro of the headers (CORRAL__SITE: stored, never a case label
# or an initializer) and compiles where /ZI makes it a variable (below)
$as_msvc -x c -std=c11 -E -dM src/core/sched.c | grep -q 'define CORRAL__RESUME_ID (__COUNTER__ + CORRAL__AUTO_POINTS)'
if grep -n '__LINE__' include/corral/*.h gen/*.h | grep -v '^include/corral/corral_port.h:.*CORRAL__SITE\|^include/corral/corral_port.h:.*(uint32_t)__LINE__'; then
    echo "msvc_check: a header uses __LINE__ outside CORRAL__SITE (not a constant under /ZI)" >&2
    exit 1
fi
# /ZI: the line-number macro as the variable MSVC makes it
as_zi="$as_msvc -D__LINE__=(corral__zi_line+0) -include tests/msvc/zi_line.h"
for f in tests/header_check.c examples/boss.c examples/savegame.c; do
    $as_zi -fsyntax-only -x c -std=c11 -Wno-unused-function "$f"
done
# named and unnamed resume points, save games: the savegame example, both builds
$as_msvc -fsyntax-only -x c -std=c11 -Wno-unused-function examples/savegame.c
$as_msvc -fsyntax-only -x c -std=c11 -Wno-unused-function -DSAVEGAME_NEXT_BUILD examples/savegame.c
echo "msvc_check: src/*/*.c, the public header and examples/savegame.c compile as MSVC (Clang in MSVC mode, __clang__ undefined); the header, boss.c and savegame.c also with /ZI's line-number variable"
