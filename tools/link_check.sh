#!/bin/sh
# What a program pays for in code. Builds the static library at -O2
# -DNDEBUG (x86-64 gcc in CI) and links tests/link/one_coroutine.c (create,
# one type started, frame, seconds and signal waits, a stop, destroy)
# against it without --gc-sections. Prints each object the program links
# with its text size, and the whole library's text. Fails if an object of
# src/modules/ comes along, or one of the core's features it never uses
# (FEATURES below: calls and joins, groups and stop waits, predicates,
# futures, signals that stay set, waits until a time, and the starts other
# than corral_start), or if either total passes its limit (LINK_LIMIT,
# LIB_LIMIT below, in bytes of text). Then builds the same program on the
# one header with the flags the README gives, and fails past
# ONE_HEADER_LIMIT (the whole program's text) or if the README lost them.
set -eu
cd "$(dirname "$0")/.."
LINK_LIMIT=${LINK_LIMIT:-83500}
LIB_LIMIT=${LIB_LIMIT:-300500}
ONE_HEADER_LIMIT=${ONE_HEADER_LIMIT:-72000}
b=build/link
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" -DCORRAL_BUILD_TESTS=OFF \
    -DCORRAL_BUILD_EXAMPLES=OFF -DCORRAL_INSTALL=OFF >/dev/null
cmake --build $b -j 2 >/dev/null
cc -O2 -DNDEBUG -Iinclude -Igen tests/link/one_coroutine.c $b/libcorral.a -o $b/one_coroutine -Wl,-Map,$b/one_coroutine.map
./$b/one_coroutine
text_of() { size "$@" | awk 'NR > 1 {t += $1} END {print t}'; }
# the core is src/core/, the modules src/modules/ (docs/DESIGN.md, "The core and its modules")
core=$(ls src/core/*.c | sed 's|.*/\(.*\)\.c|\1|' | tr '\n' ' ')
# the core's features (docs/DESIGN.md, "Features of the core"): their code comes with their first use
FEATURES="calls call_start groups group_ops polls futures create starts pulls events alarms parts"
linked=$(sed -n '/^Archive member included/,/^Merging\|^Allocating\|^Discarded/p' $b/one_coroutine.map |
    grep -o 'libcorral\.a([a-z_]*\.c\.o)' | sed 's/.*(\(.*\)\.c\.o)/\1/' | sort -u)
total=0
bad=""
for o in $linked; do
    text=$(text_of $b/CMakeFiles/corral.dir/src/*/$o.c.o)
    total=$((total + text))
    case " $FEATURES " in
    *" $o "*) printf '  %-10s %7s B text   <- a feature it never uses\n' "$o" "$text"; bad="$bad $o"; continue ;;
    esac
    case " $core " in
    *" $o "*) printf '  %-10s %7s B text\n' "$o" "$text" ;;
    *) printf '  %-10s %7s B text   <- a module\n' "$o" "$text"; bad="$bad $o" ;;
    esac
done
lib=$(text_of $b/CMakeFiles/corral.dir/src/*/*.c.o)
# the one header, built with the flags the README gives its users
gc=$(grep -o -- '-ffunction-sections -fdata-sections -Wl,--gc-sections' README.md | head -n 1)
mkdir -p $b/single/corral
cp single/corral.h $b/single/corral/corral.h
cc -O2 -DNDEBUG -I$b/single tests/link/one_coroutine.c tests/link/one_header.c -o $b/one_header_all
one_all=$(text_of $b/one_header_all)
cc -O2 -DNDEBUG -I$b/single $gc tests/link/one_coroutine.c tests/link/one_header.c -o $b/one_header_gc
./$b/one_header_gc > /dev/null
one_gc=$(text_of $b/one_header_gc)
echo "  one_coroutine links $(echo $linked | wc -w) objects, $total B of text (limit $LINK_LIMIT)"
echo "  the library: $(ls $b/CMakeFiles/corral.dir/src/*/*.c.o | wc -l) objects, $lib B of text (limit $LIB_LIMIT)"
echo "  one_coroutine on the one header: $one_all B of text, $one_gc B with the README's '$gc' (limit $ONE_HEADER_LIMIT)"
rc=0
if [ -z "$gc" ]; then
    echo "link_check: the README no longer gives the flags that drop what a program never calls" >&2
    rc=1
fi
if [ "$one_gc" -gt "$ONE_HEADER_LIMIT" ]; then
    echo "link_check: one_coroutine on the one header with the README's flags is $one_gc B of text, past its limit of $ONE_HEADER_LIMIT" >&2
    rc=1
fi
if [ -n "$bad" ]; then
    echo "link_check: a program that uses none of them links:$bad" >&2
    rc=1
fi
if [ "$total" -gt "$LINK_LIMIT" ]; then
    echo "link_check: one_coroutine links $total B of corral text, past its limit of $LINK_LIMIT" >&2
    rc=1
fi
if [ "$lib" -gt "$LIB_LIMIT" ]; then
    echo "link_check: the library is $lib B of text, past its limit of $LIB_LIMIT" >&2
    rc=1
fi
exit $rc
