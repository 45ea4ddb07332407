#!/usr/bin/env bash
# Fuzz corral's public API against the reference model (tests/model.h), and
# corral_load on untrusted saves (tests/fuzz_load.c), with libFuzzer +
# AddressSanitizer + UndefinedBehaviorSanitizer.
#   tools/fuzz.sh            30 seconds each (what CI runs)
#   tools/fuzz.sh 3600       an hour; new inputs land in build/fuzz/corpus
# Installs clang and its fuzzer runtime from Debian when run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-30}"

have_fuzzer() {
    printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n){(void)d;(void)n;return 0;}\n' \
        > build/fuzz/probe.c
    clang -fsanitize=fuzzer build/fuzz/probe.c -o build/fuzz/probe >/dev/null 2>&1
}

mkdir -p build/fuzz/corpus
if ! command -v clang >/dev/null 2>&1 || ! have_fuzzer; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
        if ! have_fuzzer; then
            major="$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "libclang-rt-$major-dev" >/dev/null
        fi
    fi
    have_fuzzer || { echo "corral: fuzzing needs clang with libFuzzer (Debian: clang libclang-rt-N-dev)" >&2; exit 1; }
fi

mkdir -p build/fuzz/load_corpus
for target in fuzz_ops fuzz_load; do
    clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -Iinclude -Igen src/*.c tests/$target.c -o build/fuzz/$target
done
# new inputs go to the first directory; the committed corpus stays as it is
echo "fuzz_ops: the public API against the reference model"
./build/fuzz/fuzz_ops -max_total_time="$secs" -max_len=4096 -print_final_stats=1 \
    build/fuzz/corpus tests/fuzz_corpus 2>&1 | tail -n 12
echo "fuzz_load: corral_load on untrusted saves"
./build/fuzz/fuzz_load -max_total_time="$secs" -max_len=16384 -print_final_stats=1 \
    build/fuzz/load_corpus tests/fuzz_load_corpus 2>&1 | tail -n 12
