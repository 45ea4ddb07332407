#!/bin/sh
# Build and run the benchmark: corral beside its peers and the raw-loop
# limit. Installs the peers from Debian when missing (as root; otherwise
# says which packages to install and runs without them). Writes
# bench/results.json (schema in bench/README.md).
#   tools/bench.sh            full run: 5 repetitions, several minutes
#   tools/bench.sh --smoke    small sizes, 1 repetition: checksums only
#   tools/bench.sh --only step --peers corral,queue
#                             one case, only the contenders whose names
#                             contain one of the words (and the limit loop)
#   tools/bench.sh --procs P [ARGS]
#                             the same run in P processes one after another
#                             (ARGS go to each, e.g. --only step --reps 3);
#                             prints each row's per-process medians and
#                             their median: corral's speed above L2 varies
#                             from process to process (bench/README.md)
#   tools/bench.sh --spawn-floor [--reps R] [--count N] [--smoke]
#                             the spawn case's floor, rung by rung, beside
#                             corral_start and corral's step, in one process
#                             (bench/spawn_floor.c)
set -eu
cd "$(dirname "$0")/.."
need=""
command -v g++ >/dev/null 2>&1 || need="$need g++"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
[ -f /usr/include/lua5.4/lua.h ] || need="$need liblua5.4-dev"
[ -f /usr/include/luajit-2.1/lua.h ] || need="$need libluajit-5.1-dev"
[ -f /usr/include/pcl.h ] || need="$need libpcl1-dev"
[ -f /usr/include/boost/context/fiber.hpp ] || need="$need libboost-context-dev"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "bench: installing:$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        echo "bench: missing peers (they will be reported as skipped):$need" >&2
        echo "       install them with: sudo apt-get install$need" >&2
    fi
fi
cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DCORRAL_BUILD_BENCH=ON \
      -DCORRAL_BUILD_TESTS=OFF -DCORRAL_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build/bench -j 2 >/dev/null
if [ "${1:-}" = "--spawn-floor" ]; then
    shift
    exec ./build/bench/bench/corral_spawn_floor "$@"
fi
if [ "${1:-}" != "--procs" ]; then
    exec ./build/bench/bench/corral_bench --json bench/results.json "$@"
fi
procs="${2:-}"
case "$procs" in ''|*[!0-9]*|0) echo "bench: --procs needs a count of processes" >&2; exit 2 ;; esac
shift 2
mkdir -p build/bench/procs
rm -f build/bench/procs/run-*.json
i=1
files=""
while [ "$i" -le "$procs" ]; do
    echo "bench: process $i of $procs"
    out="build/bench/procs/run-$i"
    if ! ./build/bench/bench/corral_bench --json "$out.json" "$@" > "$out.txt"; then
        tail -n 5 "$out.txt" >&2
        echo "bench: process $i failed (its output: $out.txt)" >&2
        exit 1
    fi
    files="$files $out.json"
    i=$((i + 1))
done
# one result per line in each JSON: gather each row's medians, in run order
awk -v procs="$procs" '
    /"case":/ {
        line = $0
        kase = line; sub(/.*"case": "/, "", kase); sub(/".*/, "", kase)
        who = line; sub(/.*"contender": "/, "", who); sub(/".*/, "", who)
        n = line; sub(/.*"n": /, "", n); sub(/,.*/, "", n)
        med = line; sub(/.*"median_ns": /, "", med); sub(/,.*/, "", med)
        if (med == "null") next
        key = kase SUBSEP n SUBSEP who
        if (!(key in cnt)) { order[++rows] = key }
        vals[key, ++cnt[key]] = med + 0
    }
    function median_of(key,    k, m, a, t, j) {
        m = cnt[key]
        for (k = 1; k <= m; k++) a[k] = vals[key, k]
        for (k = 2; k <= m; k++) { t = a[k]; for (j = k - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
        printf "\n%d processes; each column: that process'"'"'s median ns/op\n\n", procs
        printf "%-16s %8s  %-40s %8s %8s  %s\n", "case", "N", "contender", "median", "x limit", "per process"
        for (r = 1; r <= rows; r++) {
            key = order[r]; split(key, f, SUBSEP)
            lim = f[1] SUBSEP f[2] SUBSEP "raw fn-pointer loop"
            med = median_of(key)
            ratio = (lim in cnt) ? sprintf("%.2f", med / median_of(lim)) : ""
            per = ""
            for (k = 1; k <= cnt[key]; k++) per = per sprintf(" %.2f", vals[key, k])
            printf "%-16s %8s  %-40s %8.2f %8s %s\n", f[1], f[2], f[3], med, ratio, per
        }
    }' $files
