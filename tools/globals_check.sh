#!/bin/sh
# No writable process-global object in the library. Builds the static
# library at -O2 -DNDEBUG (the release build, as tools/link_check.sh does)
# and lists every symbol of its objects that lies in .data or .bss (or is
# common): each is state shared by every scheduler of the process. Fails
# if there is one. Thread-local storage (.tdata, .tbss: the thread's last
# error, the running scheduler) and const tables (.rodata, and
# .data.rel.ro: const tables of pointers, read-only once relocated) are
# fine. The
# debug build's table of live schedulers (errors.c, CORRAL__REGISTRY) is
# not checked: it exists only where NDEBUG is not defined.
set -eu
cd "$(dirname "$0")/.."
b=build/link
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" -DCORRAL_BUILD_TESTS=OFF \
    -DCORRAL_BUILD_EXAMPLES=OFF -DCORRAL_INSTALL=OFF >/dev/null
cmake --build $b -j 2 >/dev/null
found=$(for o in $b/CMakeFiles/corral.dir/src/*/*.c.o; do
    objdump -t "$o" | awk -v o="${o##*/}" '
        NF >= 5 {
            for (i = 2; i < NF; i++) {
                sec = $i
                if ((sec ~ /^\.(data|bss)(\..*)?$/ && sec !~ /^\.data\.rel\.ro/) || sec == "*COM*") {
                    if ($NF !~ /^\./) printf "  %-16s %-12s %s\n", o, sec, $NF
                    break
                }
            }
        }'
done)
objects=$(ls $b/CMakeFiles/corral.dir/src/*/*.c.o | wc -l)
if [ -n "$found" ]; then
    echo "globals_check: writable process-global objects in the library:" >&2
    echo "$found" >&2
    exit 1
fi
echo "  globals_check: $objects objects, nothing in .data or .bss"
