/*
    peer_pcl.c -- PCL (Portable Coroutine Library), stackful: co_create with
    a 16 KiB stack per coroutine, co_call to step it, co_resume to yield.
*/
#include "bench.h"

#include <pcl.h>
#include <stdlib.h>

#define PCL_STACK (16 * 1024)

typedef struct pcl_item {
    coroutine_t co;
    uint64_t n;
    unsigned k;
} pcl_item;

static void pcl_body(void *data)
{
    pcl_item *it = data;
    for (;;) {
        it->n += it->k + 1;
        co_resume();
    }
}

static int pcl_loop(size_t n, int ticks, int mixed, bench_out *out)
{
    pcl_item *items = calloc(n, sizeof *items);
    if (!items) return -1;
    uint64_t expected = 0;
    for (size_t i = 0; i < n; i++) {
        items[i].k = mixed ? bench_type_of(i) : 0;
        items[i].co = co_create(pcl_body, &items[i], NULL, PCL_STACK);
        if (!items[i].co) return -2;
        co_call(items[i].co); /* first step at start */
        expected += (uint64_t)(items[i].k + 1) * (uint64_t)(ticks + 1);
    }
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int t = 0; t < ticks; t++)
        for (size_t i = 0; i < n; i++) co_call(items[i].co);
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = (uint64_t)n * (uint64_t)ticks;
    for (size_t i = 0; i < n; i++) {
        out->checksum += items[i].n;
        co_delete(items[i].co);
    }
    out->expected = expected;
    free(items);
    return 0;
}

static int pcl_step(size_t n, int ticks, bench_out *out) { return pcl_loop(n, ticks, 0, out); }
static int pcl_mixed(size_t n, int ticks, bench_out *out) { return pcl_loop(n, ticks, 1, out); }

static void pcl_once(void *data)
{
    pcl_item *it = data;
    it->n += 1;
    co_resume(); /* hand control back; the caller deletes the coroutine */
}

static int pcl_spawn(size_t count, bench_out *out)
{
    pcl_item it = {0};
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (size_t i = 0; i < count; i++) {
        it.n = i;
        it.co = co_create(pcl_once, &it, NULL, PCL_STACK);
        co_call(it.co);
        co_delete(it.co);
        out->checksum += it.n;
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = count;
    out->expected = (uint64_t)count * (count + 1) / 2;
    return 0;
}

static int pcl_memory(size_t n, int ctx_bytes, bench_out *out)
{
    pcl_item *items = calloc(n, sizeof *items);
    if (!items) return -1;
    size_t h0 = bench_heap_bytes();
    for (size_t i = 0; i < n; i++) {
        items[i].co = co_create(pcl_body, &items[i], NULL, PCL_STACK);
        co_call(items[i].co);
    }
    out->bytes_per_co = (double)(bench_heap_bytes() - h0) / (double)n + (double)sizeof(pcl_item);
    for (size_t i = 0; i < n; i++) co_delete(items[i].co);
    free(items);
    (void)ctx_bytes; /* the context would live on the coroutine's stack */
    out->checksum = out->expected = out->ops = 1;
    out->note = "16 KiB stacks";
    return 0;
}

const bench_peer bench_peer_pcl = {
    .name = "PCL (stackful)",
    .step = pcl_step,
    .mixed = pcl_mixed,
    .spawn = pcl_spawn,
    .memory = pcl_memory,
    .max_n = 100000,
    .max_n_why = "10^6 x 16 KiB stacks = 16 GiB",
};
