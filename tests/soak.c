/*
    soak.c -- start/stop cycles until the counters could drift: every
    counter must be back at zero at the end, and corral_verify must hold.

        soak [cycles]     default 10^8 (CI runs 10^7; CTest 10^6)

    Two types in two size classes, 48 live at a time, stopped in an order
    that mixes LIFO, FIFO and random picks, with a frame every 64 cycles so
    some coroutines also finish by themselves. Prints cycles/s.
*/
#include <corral/corral.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SMALL_FIELDS(F) F(uint32_t, n) F(uint32_t, left)
DECLARE_COROUTINE(soak_small, SMALL_FIELDS)
DEFINE_COROUTINE(soak_small)
{
    (void)co;
    ctx->n++;
    return ctx->left && --ctx->left == 0 ? CORRAL_STOP : CORRAL_YIELD;
}
typedef struct soak_pad {
    uint64_t v[12];
} soak_pad;
#define BIG_FIELDS(F) F(soak_pad, pad) F(uint32_t, left)
DECLARE_COROUTINE(soak_big, BIG_FIELDS)
DEFINE_COROUTINE(soak_big)
{
    (void)co;
    ctx->pad.v[0]++;
    return ctx->left && --ctx->left == 0 ? CORRAL_STOP : CORRAL_YIELD;
}

#define LIVE 48

static int fail(const char *what)
{
    fprintf(stderr, "soak: FAILED: %s\n", what);
    return 1;
}

int main(int argc, char **argv)
{
    uint64_t cycles = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000ull;
    corral_sched_desc d = {0};
    d.classes[0].slot_size = 48;
    d.classes[0].capacity = LIVE;
    d.classes[1].slot_size = 128;
    d.classes[1].capacity = LIVE;
    d.validation = CORRAL_VALIDATION_REPORT;
    corral_sched *s = corral_sched_create(&d);
    if (!s) return fail("create");
    corral_handle h[LIVE] = {{0, 0}};
    uint64_t x = 88172645463325252ull, stops = 0, refused = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t c = 0; c < cycles; c++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t k = (uint32_t)(x >> 40) % LIVE;
        if (corral_alive(s, h[k])) { /* stop it: a stale handle would say false */
            if (!corral_stop(s, h[k])) return fail("stop of a live coroutine refused");
            if (corral_stop(s, h[k])) return fail("a double stop succeeded");
            stops++;
        }
        uint32_t left = (uint32_t)(x >> 20) & 7u; /* 0: runs until stopped */
        if (x & 1u) h[k] = soak_small_start(s, (soak_small_ctx){0, left});
        else h[k] = soak_big_start(s, (soak_big_ctx){{{0}}, left});
        if (h[k].gen == 0) refused++;
        if ((c & 63u) == 63u) corral_tick(s, 1.0f / 60.0f);
        if ((c & ((1u << 20) - 1)) == 0 && !corral_verify(s)) return fail("corral_verify");
    }
    for (int k = 0; k < LIVE; k++)
        if (corral_alive(s, h[k])) corral_stop(s, h[k]);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    corral_arena_stats a;
    corral_stats_arena(s, &a);
    if (corral_live_count(s) != 0 || a.live != 0 || a.slot_bytes != 0 || a.ctx_bytes != 0)
        return fail("arena counters not back to zero");
    for (uint32_t i = 0; i < corral_class_count(s); i++) {
        corral_class_stats cs;
        corral_stats_class(s, i, &cs);
        if (cs.used != 0) return fail("a class still has slots in use");
        if (cs.failures != 0) return fail("a class refused a start");
    }
    uint64_t started = 0;
    for (uint32_t i = 0; i < corral_type_count(s); i++) {
        corral_type_stats ts;
        corral_stats_type(s, i, &ts);
        if (ts.live != 0) return fail("a type still has live coroutines");
        if (ts.started != ts.finished + ts.stopped) return fail("started != finished + stopped");
        started += ts.started;
    }
    if (refused != 0) return fail("a start was refused");
    if (started != cycles) return fail("not every cycle started a coroutine");
    if (!corral_verify(s)) return fail("corral_verify at the end");
    corral_sched_destroy(s);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("soak: %" PRIu64 " start/stop cycles (%" PRIu64 " stopped by handle, the rest finished), "
           "all counters back to zero, %.1f M cycles/s\n",
           cycles, stops, secs > 0 ? (double)cycles / secs / 1e6 : 0.0);
    return 0;
}
