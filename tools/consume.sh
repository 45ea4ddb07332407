#!/bin/sh
# Installs corral into a scratch prefix and builds a consumer twice: through
# find_package(corral CONFIG) and through pkg-config (corral.pc).
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
cmake -S tests/consumer -B "$root/app" -DCMAKE_PREFIX_PATH="$root/prefix" >/dev/null
cmake --build "$root/app" >/dev/null
"$root/app/consumer"
echo "consume: find_package(corral) ok"
libdir=$(ls -d "$root"/prefix/lib*/pkgconfig)
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs corral)
${CC:-cc} -std=c11 tests/consumer/main.c $flags -o "$root/pc_consumer"
"$root/pc_consumer"
echo "consume: pkg-config corral ok"
