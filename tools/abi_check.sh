#!/bin/sh
# The ABI step: builds the shared library with debug information, writes
# its ABI as libabigail sees it through the public headers (abidw), and
# compares it with the baseline kept in abi/corral.abi (abidiff).
#
#   tools/abi_check.sh           compare (CI). Added functions and what
#                                abidiff calls harmless (an enumerator
#                                appended) pass; any other change (a
#                                function removed or changed, a public
#                                struct's size or a member's offset
#                                changed) fails unless the ABI number moved:
#                                the major version, or before 1.0 the
#                                minor, in include/corral/corral.h, against
#                                the one abi/ABI_VERSION was written for.
#   tools/abi_check.sh --update  write the baseline anew from this tree
#                                (after a release, or when the number moved)
#
# Installs abigail-tools from Debian when run as root; otherwise names it.
set -eu
cd "$(dirname "$0")/.."
if ! command -v abidiff >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "abi_check: installing abigail-tools"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq abigail-tools >/dev/null
    else
        echo "abi_check: needs abigail-tools (sudo apt-get install abigail-tools)" >&2
        exit 2
    fi
fi

ver() { sed -n "s/^#define CORRAL_VERSION_$1 \([0-9]*\).*/\1/p" include/corral/corral.h; }
major=$(ver MAJOR)
minor=$(ver MINOR)
if [ "$major" = 0 ]; then abi="0.$minor"; else abi="$major"; fi

out=build/abi
cmake -S . -B "$out" -DBUILD_SHARED_LIBS=ON -DCORRAL_BUILD_TESTS=OFF -DCORRAL_BUILD_EXAMPLES=OFF \
      -DCORRAL_INSTALL=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$out" >/dev/null
# the library of this version (an earlier version's may lie in the same directory)
lib="$out/libcorral.so.$(sed -n 's/^project(corral VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
abidw --headers-dir include/corral --drop-private-types --no-corpus-path --no-comp-dir-path \
      --out-file "$out/corral.abi" "$lib"

if [ "${1:-}" = "--update" ]; then
    mkdir -p abi
    cp "$out/corral.abi" abi/corral.abi
    echo "$abi" > abi/ABI_VERSION
    echo "abi_check: baseline written for ABI $abi ($(grep -c '<elf-symbol name=.corral_' abi/corral.abi) functions)"
    exit 0
fi

base=$(cat abi/ABI_VERSION)
rc=0
abidiff --no-added-syms --suppressions abi/suppressions.ini abi/corral.abi "$out/corral.abi" > "$out/abidiff.txt" 2>&1 || rc=$?
abidiff abi/corral.abi "$out/corral.abi" > "$out/abidiff-all.txt" 2>&1 || true
if [ $((rc & 3)) -ne 0 ]; then
    echo "abi_check: abidiff could not compare (exit $rc):" >&2
    cat "$out/abidiff.txt" >&2
    exit 1
fi
# a change abidiff reports is a break of the ABI (a public struct's size or
# a member's offset moved, a function changed or went); it filters the
# harmless ones (an enumerator appended, a typedef renamed), and added
# functions are left out above
if [ $((rc & 12)) -ne 0 ]; then
    if [ "$base" != "$abi" ]; then
        echo "abi_check: changed against the ABI $base baseline, and the ABI number moved to $abi:"
        echo "           write the new baseline with tools/abi_check.sh --update"
        exit 0
    fi
    echo "abi_check: the ABI changed while the ABI number stays $abi" >&2
    echo "           (move CORRAL_VERSION_$( [ "$major" = 0 ] && echo MINOR || echo MAJOR ) and project(VERSION), or keep the ABI):" >&2
    cat "$out/abidiff.txt" >&2
    exit 1
fi
added=$(sed -n 's/.*\([0-9][0-9]*\) Added function.*/\1/p' "$out/abidiff-all.txt" | head -n 1)
echo "abi_check: compatible with the ABI $base baseline (${added:-0} functions added since it)"
