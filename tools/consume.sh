#!/bin/sh
# Builds tests/consumer each way a game takes corral with CMake or without:
# find_package(corral CONFIG) of an installed corral, pkg-config (corral.pc),
# add_subdirectory of this tree and FetchContent from this git repository at
# HEAD (what is committed). Each consumer runs and must succeed.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)/build/consume
rm -rf "$root"
cmake -S . -B "$root/lib" -DCORRAL_BUILD_TESTS=OFF -DCORRAL_BUILD_EXAMPLES=OFF \
      -DCMAKE_INSTALL_PREFIX="$root/prefix" >/dev/null
cmake --build "$root/lib" >/dev/null
cmake --install "$root/lib" >/dev/null
# the licence is installed with the library, word for word
cmp LICENSE "$root/prefix/share/doc/corral/LICENSE"
echo "consume: LICENSE installed"
for f in corral_core.py corral_gdb.py corral_lldb.py; do test -f "$root/prefix/share/corral/debug/$f"; done
echo "consume: the debuggers' scripts installed (share/corral/debug)"

# consume WAY [cmake -D options]: configure, build and run tests/consumer
consume() {
    way=$1; shift
    cmake -S tests/consumer -B "$root/$way" -DCORRAL_CONSUME="$way" "$@" >/dev/null
    cmake --build "$root/$way" >/dev/null
    "$root/$way/consumer"
}
consume package -DCMAKE_PREFIX_PATH="$root/prefix"
echo "consume: find_package(corral) ok"
libdir=$(ls -d "$root"/prefix/lib*/pkgconfig)
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs corral)
${CC:-cc} -std=c11 tests/consumer/main.c $flags -o "$root/pc_consumer"
"$root/pc_consumer"
echo "consume: pkg-config corral ok"
consume subdirectory -DCORRAL_SOURCE="$(pwd)"
echo "consume: add_subdirectory(corral) ok"
consume fetch -DCORRAL_GIT="$(pwd)" -DCORRAL_REF="$(git rev-parse HEAD)"
echo "consume: FetchContent (git, $(git rev-parse --short HEAD)) ok"
