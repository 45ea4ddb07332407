#!/bin/sh
# What a program pays for in code. Builds the static library as CMake
# builds it at -O2 -DNDEBUG (every function and object in a section of its
# own), links tests/link/one_coroutine.c (create with corral_sched_create_min,
# one type started, frame, seconds and signal waits, a stop, destroy)
# against it with --gc-sections, and the same program on the one header
# with the flags the README gives. Prints corral's share of each program:
# its code (.text), constants (.rodata, and .data.rel.ro: the const tables
# that hold pointers, which a position-independent build keeps apart) and
# unwind tables (.eh_frame), from
# the link map; fails if code and constants pass LIMIT, if a function of
# a module (src/modules/) is kept in the static link, or if the README no
# longer gives the flags. Prints the whole library's size beside them.
set -eu
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-49152} # B of corral code and constants: 48 KiB
b=build/link
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" -DCORRAL_BUILD_TESTS=OFF \
    -DCORRAL_BUILD_EXAMPLES=OFF -DCORRAL_INSTALL=OFF >/dev/null
cmake --build $b -j 2 >/dev/null
gc=$(grep -o -- '-ffunction-sections -fdata-sections -Wl,--gc-sections' README.md | head -n 1)
if [ -z "$gc" ]; then
    echo "link_check: the README no longer gives the flags that drop what a program never calls" >&2
    exit 1
fi
# corral's input sections kept in a link, from its map: FILTER picks the
# input files that are corral's; prints "text constants eh_frame"
share() {
    awk -v filter="$2" '
        /^Linker script and memory map/ { on = 1; next }
        !on { next }
        /^ \.[^ ]+$/ { sec = $1; next }
        /^ \.[^ ]* +0x/ { sec = $1; size = $3; file = $4; add(); next }
        /^ +0x[0-9a-f]+ +0x[0-9a-f]+ / { if (sec != "") { size = $2; file = $3; add() } next }
        { sec = "" }
        function add() {
            if (file !~ filter) { sec = ""; return }
            n = strtonum(size)
            if (sec ~ /^\.text/) text += n
            else if (sec ~ /^\.rodata/ || sec ~ /^\.data\.rel\.ro/) ro += n
            else if (sec ~ /^\.eh_frame/) eh += n
            sec = ""
        }
        function strtonum(h,   i, c, v) {
            h = tolower(h); sub(/^0x/, "", h); v = 0
            for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", substr(h, i, 1)) - 1; v = v * 16 + c }
            return v
        }
        END { printf "%d %d %d\n", text, ro, eh }' "$1"
}
kept_modules() {
    awk '/^Linker script and memory map/ { on = 1 } on && /libcorral\.a\(/ && $0 ~ /\.text/ { print }' "$1" |
        grep -o 'libcorral\.a([a-z_]*\.c\.o)' | sed 's/.*(\(.*\)\.c\.o)/\1/' | sort -u |
        while read -r o; do [ -f "src/modules/$o.c" ] && echo "$o"; done || true
}
# the static library
cc -O2 -DNDEBUG -Iinclude -Igen $gc tests/link/one_coroutine.c $b/libcorral.a -o $b/one_coroutine \
    -Wl,-Map,$b/one_coroutine.map
./$b/one_coroutine
set -- $(share $b/one_coroutine.map 'libcorral\\.a')
lib_text=$1 lib_ro=$2 lib_eh=$3
modules=$(kept_modules $b/one_coroutine.map | tr '\n' ' ')
# the one header: corral is the translation unit of tests/link/one_header.c
mkdir -p $b/single/corral
cp single/corral.h $b/single/corral/corral.h
cc -O2 -DNDEBUG -I$b/single -ffunction-sections -fdata-sections -c tests/link/one_header.c -o $b/one_header_impl.o
cc -O2 -DNDEBUG -I$b/single $gc tests/link/one_coroutine.c $b/one_header_impl.o -o $b/one_header \
    -Wl,-Map,$b/one_header.map
./$b/one_header >/dev/null
set -- $(share $b/one_header.map 'one_header_impl')
one_text=$1 one_ro=$2 one_eh=$3
# the whole library
# code, constants (pointer tables too) and unwind tables of every object
set -- $(size -A $b/libcorral.a | awk '
    /^[^ ].*\(ex / { n++ }
    $1 ~ /^\.(text|rodata|data\.rel\.ro|eh_frame)/ { t += $2 }
    END { print t, n }')
whole=$1 objects=$2
fmt='  %-34s %6d B code + %5d B constants = %6d B (limit %d); unwind tables %5d B\n'
printf "$fmt" "one_coroutine, static library:" $lib_text $lib_ro $((lib_text + lib_ro)) $LIMIT $lib_eh
printf "$fmt" "one_coroutine, one header:" $one_text $one_ro $((one_text + one_ro)) $LIMIT $one_eh
echo "  the whole library: $objects objects, $whole B of text (code, constants and unwind tables)"
rc=0
if [ $((lib_text + lib_ro)) -gt "$LIMIT" ] || [ $((one_text + one_ro)) -gt "$LIMIT" ]; then
    echo "link_check: one_coroutine keeps more than $LIMIT B of corral code and constants" >&2
    rc=1
fi
if [ -n "$modules" ]; then
    echo "link_check: one_coroutine names no module but keeps code of: $modules" >&2
    rc=1
fi
exit $rc
