#!/bin/sh
# Quick start, line 2: install what the tests need when it is missing
# (Debian packages; apt-get when root, otherwise say what to install), then
# build with strict warnings and run the whole suite.
set -eu
cd "$(dirname "$0")/.."
need=""
command -v make >/dev/null 2>&1 || need="$need make"
command -v g++ >/dev/null 2>&1 || need="$need g++"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
if ! pkg-config --exists criterion 2>/dev/null; then need="$need libcriterion-dev"; fi
if ! pkg-config --exists libcjson 2>/dev/null; then need="$need libcjson-dev"; fi
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "corral: installing:$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        echo "corral: the tests need these Debian packages:$need" >&2
        echo "        install them with: sudo apt-get install$need" >&2
        exit 1
    fi
fi
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=Debug -DCORRAL_REQUIRE_TESTS=ON -DCORRAL_WERROR=ON >/dev/null
cmake --build build/test -j 2
ctest --test-dir build/test --output-on-failure
