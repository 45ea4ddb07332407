/*
    fuzz_ops.c -- libFuzzer target: the input is a sequence of public
    operations (see model.h), played against the library and the reference
    model at once. A disagreement aborts with the reason; ASan and UBSan
    catch the rest. Build and run: tools/fuzz.sh [seconds] (CI: 30 s from
    the corpus committed in tests/fuzz_corpus/).
*/
#include "model.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[256];
    long at = model_run(data, size, why, sizeof why, NULL);
    if (at >= 0) {
        fprintf(stderr, "corral fuzz: operation %ld: %s\n", at, why);
        abort();
    }
    return 0;
}
