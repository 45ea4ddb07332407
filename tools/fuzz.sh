#!/usr/bin/env bash
# Fuzz corral's public API against the reference model (tests/model.h),
# corral_load on untrusted saves (tests/fuzz_load.c) and corral_restore on
# untrusted snapshots (tests/fuzz_restore.c), with libFuzzer +
# AddressSanitizer + UndefinedBehaviorSanitizer. The load and restore
# fuzzers start from the hostile games' own saves and snapshots
# (tests/hostile/: the examples' games, and one that waits on every wait
# kind), which each fuzzer writes from its own build first.
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

mkdir -p build/fuzz/load_corpus build/fuzz/load_seeds build/fuzz/restore_corpus build/fuzz/restore_seeds
# the examples' games: a mutated context can overflow a game's own
# arithmetic, which is the example's and not corral's (corral keeps every check)
flags="-std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-pie"
mkdir -p build/fuzz/hostile
for game in tests/hostile/*.c; do
    clang $flags -fno-sanitize=signed-integer-overflow -D_GNU_SOURCE -Iinclude -Igen -Itests \
        -c "$game" -o "build/fuzz/hostile/$(basename "$game" .c).o"
done
for target in fuzz_ops fuzz_load fuzz_restore; do
    # no PIE: a snapshot holds addresses, the same in every run of one binary
    clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-pie -no-pie \
        -Iinclude -Igen -Itests src/*/*.c build/fuzz/hostile/*.o tests/$target.c -o build/fuzz/$target
done
# new inputs go to the first directory; the committed corpus stays as it is
echo "fuzz_ops: the public API against the reference model"
./build/fuzz/fuzz_ops -max_total_time="$secs" -max_len=4096 -print_final_stats=1 \
    build/fuzz/corpus tests/fuzz_corpus 2>&1 | tail -n 12
echo "fuzz_load: corral_load on untrusted saves (seeds: tests/fuzz_load_corpus, the hostile games' saves)"
CORRAL_FUZZ_SEEDS=build/fuzz/load_seeds ./build/fuzz/fuzz_load
./build/fuzz/fuzz_load -max_total_time="$secs" -max_len=16384 -print_final_stats=1 \
    build/fuzz/load_corpus tests/fuzz_load_corpus build/fuzz/load_seeds 2>&1 | tail -n 12
echo "fuzz_restore: corral_restore on untrusted snapshots (seeds: the hostile games' snapshots)"
CORRAL_FUZZ_SEEDS=build/fuzz/restore_seeds ./build/fuzz/fuzz_restore
./build/fuzz/fuzz_restore -max_total_time="$secs" -max_len=65536 -print_final_stats=1 \
    build/fuzz/restore_corpus build/fuzz/restore_seeds 2>&1 | tail -n 12
