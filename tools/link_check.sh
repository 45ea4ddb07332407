#!/bin/sh
# A program pays only for the modules it calls: tests/link/one_coroutine.c
# (create, one type started, frame, seconds and signal waits, destroy),
# linked statically against the Release library without --gc-sections,
# must take the core's objects only. Prints what it links and each
# object's text size; fails if a module's object comes along.
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build/link -DCMAKE_BUILD_TYPE=Release -DCORRAL_BUILD_TESTS=OFF -DCORRAL_BUILD_EXAMPLES=OFF \
    -DCORRAL_INSTALL=OFF >/dev/null
cmake --build build/link -j 2 >/dev/null
cc -O2 -Iinclude tests/link/one_coroutine.c build/link/libcorral.a -o build/link/one_coroutine \
    -Wl,-Map,build/link/one_coroutine.map
./build/link/one_coroutine
# the core is src/core/, the modules src/modules/ (docs/DESIGN.md, "The core and its modules")
core=$(ls src/core/*.c | sed 's|.*/\(.*\)\.c|\1|' | tr '\n' ' ')
linked=$(sed -n '/^Archive member included/,/^Merging\|^Allocating\|^Discarded/p' build/link/one_coroutine.map |
    grep -o 'libcorral\.a([a-z_]*\.c\.o)' | sed 's/.*(\(.*\)\.c\.o)/\1/' | sort -u)
total=0
bad=""
for o in $linked; do
    text=$(size build/link/CMakeFiles/corral.dir/src/*/$o.c.o | awk 'NR == 2 {print $1}')
    total=$((total + text))
    case " $core " in
    *" $o "*) printf '  %-10s %7s B text\n' "$o" "$text" ;;
    *) printf '  %-10s %7s B text   <- a module\n' "$o" "$text"; bad="$bad $o" ;;
    esac
done
echo "  $(echo $linked | wc -w) objects, $total B of text"
if [ -n "$bad" ]; then
    echo "link_check: a program that uses none of them links modules:$bad" >&2
    exit 1
fi
