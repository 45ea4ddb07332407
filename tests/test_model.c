/*
    test_model.c -- model-based random testing: random sequences of public
    operations against the reference model in model.h.

    CORRAL_MODEL_OPS sets the number of operations (default 10^6, spread
    over sequences of ~2,000); CORRAL_MODEL_SEED replays one sequence: a
    failure prints the seed and the operation to give it.
*/
#include "model.h"

#include <criterion/criterion.h>
#include <stdlib.h>

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static long run_seed(uint64_t seed, size_t len, char *why, size_t cap, uint64_t *ops)
{
    static uint8_t buf[1 << 16];
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    len += seed & 1u; /* odd seeds: an odd length, so 40-byte slots (model_run) */
    if (len > sizeof buf) len = sizeof buf;
    for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)(xorshift(&x) >> 24);
    return model_run(buf, len, why, cap, ops);
}

Test(model, random_operation_sequences_agree_with_the_model, .timeout = 600)
{
    const char *one = getenv("CORRAL_MODEL_SEED");
    const char *ops_env = getenv("CORRAL_MODEL_OPS");
    uint64_t want_ops = ops_env ? strtoull(ops_env, NULL, 10) : 1000000ull;
    char why[256];
    if (one) {
        uint64_t seed = strtoull(one, NULL, 10);
        long at = run_seed(seed, 8000, why, sizeof why, NULL);
        cr_assert_eq(at, -1, "seed %llu: operation %ld: %s", (unsigned long long)seed, at, why);
        return;
    }
    uint64_t ops = 0, seeds = 0;
    for (uint64_t seed = 1; ops < want_ops; seed++, seeds++) {
        long at = run_seed(seed, 8000, why, sizeof why, &ops);
        cr_assert_eq(at, -1, "seed %llu failed at operation %ld: %s (replay: CORRAL_MODEL_SEED=%llu)",
                     (unsigned long long)seed, at, why, (unsigned long long)seed);
    }
    cr_log_info("model: %llu sequences, %llu operations: %llu starts (%llu refused: pool full, %llu nested calls), "
                "%llu ends, %llu ticks, %llu pauses, %llu resumes, %llu group ops, %llu signal wakes, "
                "%llu futures completed, %llu generator pulls, %llu time domain changes, %llu channel sends, %llu races",
                (unsigned long long)seeds, (unsigned long long)ops, (unsigned long long)g_model_counts.started,
                (unsigned long long)g_model_counts.refused, (unsigned long long)g_model_counts.calls,
                (unsigned long long)g_model_counts.ended, (unsigned long long)g_model_counts.ticks,
                (unsigned long long)g_model_counts.pauses, (unsigned long long)g_model_counts.resumes,
                (unsigned long long)g_model_counts.group_ops, (unsigned long long)g_model_counts.raises,
                (unsigned long long)g_model_counts.completes, (unsigned long long)g_model_counts.pulls,
                (unsigned long long)g_model_counts.domain_ops, (unsigned long long)g_model_counts.sends,
                (unsigned long long)g_model_counts.races);
}
