/*
    peer_raw.c -- the limits: a plain loop over contiguous contexts calling
    one function pointer each (what a step through corral should approach),
    and the same loop with a direct call.
*/
#include "bench.h"

#include <stdlib.h>

/* The timed part every raw loop shares: `ticks` passes calling CALL for
   each i < n, then a checksum of VALUE over the items. */
#define RAW_RUN(out, n, ticks, CALL, VALUE)                      \
    do {                                                         \
        uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();  \
        for (int t = 0; t < (ticks); t++)                        \
            for (size_t i = 0; i < (n); i++) CALL;               \
        (out)->t_ns = bench_now_ns() - t0;                       \
        (out)->allocs = bench_alloc_calls() - a0;                \
        (out)->ops = (uint64_t)(n) * (uint64_t)(ticks);          \
        for (size_t i = 0; i < (n); i++) (out)->checksum += VALUE; \
    } while (0)

typedef struct raw_item {
    void (*fn)(struct raw_item *it);
    uint64_t n;
} raw_item;

#define RAW_STEP(k) \
    __attribute__((noinline)) static void raw_step##k(raw_item *it) { it->n += (k) + 1; }
RAW_STEP(0) RAW_STEP(1) RAW_STEP(2) RAW_STEP(3) RAW_STEP(4) RAW_STEP(5) RAW_STEP(6) RAW_STEP(7)
static void (*const raw_fns[BENCH_TYPES])(raw_item *) = {raw_step0, raw_step1, raw_step2, raw_step3,
                                                         raw_step4, raw_step5, raw_step6, raw_step7};

static int raw_loop(size_t n, int ticks, int mixed, bench_out *out)
{
    raw_item *items = calloc(n, sizeof *items);
    if (!items) return -1;
    uint64_t expected = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = mixed ? bench_type_of(i) : 0;
        items[i].fn = raw_fns[k];
        expected += (uint64_t)(k + 1) * (uint64_t)ticks;
    }
    RAW_RUN(out, n, ticks, items[i].fn(&items[i]), items[i].n);
    out->expected = expected;
    free(items);
    return 0;
}

static int raw_fp_step(size_t n, int ticks, bench_out *out) { return raw_loop(n, ticks, 0, out); }
static int raw_fp_mixed(size_t n, int ticks, bench_out *out) { return raw_loop(n, ticks, 1, out); }

static int raw_fp_spawn(size_t count, bench_out *out)
{
    /* "start" = write the context into a free slot and call it; "stop" =
       push the slot back: the floor under any spawn */
    raw_item slots[64];
    size_t free_top = 64;
    uint32_t free_list[64];
    for (uint32_t i = 0; i < 64; i++) free_list[i] = i;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (size_t i = 0; i < count; i++) {
        uint32_t s = free_list[--free_top];
        slots[s].fn = raw_fns[0];
        slots[s].n = i;
        slots[s].fn(&slots[s]);
        out->checksum += slots[s].n;
        free_list[free_top++] = s;
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = count;
    out->expected = (uint64_t)count * (count + 1) / 2;
    return 0;
}

static int raw_fp_memory(size_t n, int ctx_bytes, bench_out *out)
{
    (void)n;
    out->bytes_per_co = (double)(sizeof(void (*)(void)) + (size_t)ctx_bytes); /* fn + context */
    out->checksum = out->expected = 1;
    out->ops = 1;
    return 0;
}

/* the limit for nesting: the innermost's function pointer, called directly */
static int raw_fp_nested(size_t chains, int depth, int ticks, bench_out *out)
{
    (void)depth;
    return raw_loop(chains, ticks, 0, out);
}

const bench_peer bench_peer_raw_fp = {
    .nested = raw_fp_nested,
    .name = "raw fn-pointer loop",
    .step = raw_fp_step,
    .mixed = raw_fp_mixed,
    .spawn = raw_fp_spawn,
    .memory = raw_fp_memory,
};

/* The same loop over 24-byte items: the size of corral's slot for the
   benchmark's 8-byte context (16-byte header + context, in a 24-byte class).
   Not the limit the targets use; it shows how much of a gap at large N is
   the memory a step has to move. */
typedef struct raw_item24 {
    void (*fn)(struct raw_item24 *it);
    uint64_t n;
    uint64_t pad;
} raw_item24;

__attribute__((noinline)) static void raw_step24(raw_item24 *it) { it->n += 1; }

/* queued: reach the items through a run queue, a separate array of 4-byte
   indices read in order, with the item AHEAD entries on prefetched (corral's
   walk reads its entries and prefetches the same way). That is the floor of
   any scheduler that keeps its queue beside its slots; at large N it shows
   what the extra stream costs once slots and queue outgrow the cache. */
static int raw_fp24_loop(size_t n, int ticks, int queued, bench_out *out)
{
    enum { AHEAD = 8 };
    raw_item24 *items = calloc(n, sizeof *items);
    uint32_t *queue = queued ? calloc(n + AHEAD, sizeof *queue) : NULL; /* + padding, as a lane's chunk slack */
    if (!items || (queued && !queue)) {
        free(items);
        free(queue);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        items[i].fn = raw_step24;
        if (queue) queue[i] = (uint32_t)i;
    }
    if (queued)
        RAW_RUN(out, n, ticks,
                (__builtin_prefetch(&items[queue[i + AHEAD]], 1, 3), items[queue[i]].fn(&items[queue[i]])),
                items[i].n);
    else
        RAW_RUN(out, n, ticks, items[i].fn(&items[i]), items[i].n);
    out->expected = out->ops;
    free(items);
    free(queue);
    return 0;
}

static int raw_fp24_step(size_t n, int ticks, bench_out *out) { return raw_fp24_loop(n, ticks, 0, out); }
static int raw_fp24_queue_step(size_t n, int ticks, bench_out *out) { return raw_fp24_loop(n, ticks, 1, out); }

const bench_peer bench_peer_raw_fp24 = {
    .name = "raw fn-ptr loop, 24 B items",
    .step = raw_fp24_step,
};

const bench_peer bench_peer_raw_fp24_queue = {
    .name = "raw fn-ptr loop, 24 B items via a queue",
    .step = raw_fp24_queue_step,
};

__attribute__((noinline)) static void direct_step(uint64_t *n) { *n += 1; }

static int raw_direct_step(size_t n, int ticks, bench_out *out)
{
    uint64_t *ctx = calloc(n, sizeof *ctx);
    if (!ctx) return -1;
    RAW_RUN(out, n, ticks, direct_step(&ctx[i]), ctx[i]);
    out->expected = out->ops;
    free(ctx);
    return 0;
}

const bench_peer bench_peer_raw_direct = {
    .name = "raw direct-call loop",
    .step = raw_direct_step,
};
