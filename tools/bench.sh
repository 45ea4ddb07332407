#!/bin/sh
# Build and run the benchmark: corral beside its peers and the raw-loop
# limit. Installs the peers from Debian when missing (as root; otherwise
# says which packages to install and runs without them). Writes
# bench/results.json (schema in bench/README.md).
#   tools/bench.sh            full run: 5 repetitions, several minutes
#   tools/bench.sh --smoke    small sizes, 1 repetition: checksums only
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
exec ./build/bench/bench/corral_bench --json bench/results.json "$@"
