#!/bin/sh
# No writable process-global object in the library, in any build. Builds
# the static library twice, at -O2 -DNDEBUG (the release build, as
# tools/link_check.sh does) and as a Debug build (no NDEBUG: its extra
# checks), and lists every symbol of their objects that lies in .data or
# .bss (or is common): each is state shared by every scheduler of the
# process. Fails if there is one. Thread-local storage (.tdata, .tbss:
# the thread's last error, the running scheduler, a debug build's blocks
# the thread destroyed) and const tables (.rodata, and .data.rel.ro:
# const tables of pointers, read-only once relocated) are fine.
set -eu
cd "$(dirname "$0")/.."
check() { # build dir, build type, C flags of that type
    b=$1
    cmake -S . -B "$b" -DCMAKE_BUILD_TYPE="$2" "-DCMAKE_C_FLAGS_$(echo "$2" | tr a-z A-Z)=$3" \
        -DCORRAL_BUILD_TESTS=OFF -DCORRAL_BUILD_EXAMPLES=OFF -DCORRAL_INSTALL=OFF >/dev/null
    cmake --build "$b" --target corral -j 2 >/dev/null
    # the archive's objects (a build tree may keep objects of files since removed)
    found=$(objdump -t "$b/libcorral.a" | awk '
            /^In archive/ { next }
            /file format/ { o = $1; sub(/:$/, "", o); next }
            NF >= 5 {
                for (i = 2; i < NF; i++) {
                    sec = $i
                    if ((sec ~ /^\.(data|bss)(\..*)?$/ && sec !~ /^\.data\.rel\.ro/) || sec == "*COM*") {
                        if ($NF !~ /^\./) printf "  %-16s %-12s %s\n", o, sec, $NF
                        break
                    }
                }
            }')
    objects=$(ar t "$b/libcorral.a" | wc -l)
    if [ -n "$found" ]; then
        echo "globals_check: writable process-global objects in the library ($2 build):" >&2
        echo "$found" >&2
        return 1
    fi
    echo "  globals_check: $2 build, $objects objects, nothing in .data or .bss"
}
status=0
check build/link Release "-O2 -DNDEBUG" || status=1
check build/link-debug Debug "-g -O0" || status=1
exit $status
