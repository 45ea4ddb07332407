#!/bin/sh
# Builds corral as a shared library and fails if it exports anything but
# the public API: functions named corral_* (one underscore) that the
# public header declares with CORRAL_API, and the parts' tables
# (corral_part_<name>, CORRAL_PARTS).
set -eu
cd "$(dirname "$0")/.."
out=build/exports
cmake -S . -B "$out" -DBUILD_SHARED_LIBS=ON -DCORRAL_BUILD_TESTS=OFF -DCORRAL_BUILD_EXAMPLES=OFF \
      -DCORRAL_INSTALL=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$out" >/dev/null
# the library of this version (an earlier version's may lie in the same directory)
lib="$out/libcorral.so.$(sed -n 's/^project(corral VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ { print $3 }' | sort > "$out/exported.txt"
tools/declared.sh > "$out/declared.txt"
bad=$(grep -vE '^corral_[a-z0-9][a-z0-9_]*$' "$out/exported.txt" || true)
if [ -n "$bad" ]; then
    echo "exports: the shared library exports symbols outside the public API:" >&2
    echo "$bad" >&2
    exit 1
fi
if ! cmp -s "$out/exported.txt" "$out/declared.txt"; then
    echo "exports: exported and declared (CORRAL_API) functions differ:" >&2
    diff "$out/declared.txt" "$out/exported.txt" >&2 || true
    exit 1
fi
echo "exports: $(wc -l < "$out/exported.txt") symbols, all public API"
