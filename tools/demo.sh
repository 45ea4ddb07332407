#!/bin/sh
# Quick start, line 1: build and run the demo. Needs only a C compiler;
# uses CMake when it and a build tool are there, else compiles directly.
# Writes build/demo/corral-trace.json (open it in https://ui.perfetto.dev or
# chrome://tracing) and build/demo/corral-arena.svg.
set -eu
cd "$(dirname "$0")/.."
if command -v cmake >/dev/null 2>&1 && { command -v make >/dev/null 2>&1 || command -v ninja >/dev/null 2>&1; }; then
    cmake -S . -B build/demo -DCMAKE_BUILD_TYPE=Release -DCORRAL_BUILD_TESTS=OFF >/dev/null
    cmake --build build/demo --target demo >/dev/null
    exec ./build/demo/examples/demo "${1:-360}" "${2:-build/demo}"
fi
mkdir -p build/demo
${CC:-cc} -std=c11 -O2 -Iinclude -Igen src/*/*.c examples/demo.c -o build/demo/demo
exec ./build/demo/demo "${1:-360}" "${2:-build/demo}"
