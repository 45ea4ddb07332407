/*
    bench.h -- the interface every contender implements.

    A contender fills a bench_peer. Each case function sets itself up
    (untimed), brackets the measured part with bench_now_ns(), and reports
    what it did in a bench_out: the ops it timed, how long they took, a
    checksum the harness compares with the expected value (so nothing is
    optimised away), and the allocator calls made inside the timed part.
    A NULL case function means "this contender has no such case".
*/
#ifndef CORRAL_BENCH_H
#define CORRAL_BENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_out {
    uint64_t t_ns;      /* duration of the timed part */
    uint64_t ops;       /* steps (or spawns, or ticks) timed */
    uint64_t checksum;  /* computed by the contender */
    uint64_t expected;  /* what the checksum must be */
    double bytes_per_co; /* memory case: bytes per live coroutine */
    uint64_t allocs;    /* allocator calls inside the timed part */
    const char *note;   /* optional remark shown in the table */
} bench_out;

#define BENCH_TYPES 8 /* the mixed case's number of types */

typedef struct bench_peer {
    const char *name;
    const char *skip; /* non-NULL: why this contender cannot run */
    /* (a) n coroutines of one type; each step adds 1 to its counter, yields */
    int (*step)(size_t n, int ticks, bench_out *out);
    /* (b) the same with BENCH_TYPES types in a random order (type_of(i)) */
    int (*mixed)(size_t n, int ticks, bench_out *out);
    /* (c) start + first step + stop, `count` times */
    int (*spawn)(size_t count, bench_out *out);
    /* (f) bytes per live coroutine whose context is ctx_bytes (16, 32, 256) */
    int (*memory)(size_t n, int ctx_bytes, bench_out *out);
    size_t max_n; /* 0: no limit; else larger N are skipped, with the reason */
    const char *max_n_why;
    /* (d) n coroutines waiting seconds; `ticks` ticks each with `due` of
       them due (they step once and stop); ops = ticks */
    int (*sleepers)(size_t n, size_t due, int ticks, bench_out *out);
    /* (e) `chains` chains of `depth` nested coroutines; only the innermost
       steps (adds to a counter, yields); ops = chains * ticks */
    int (*nested)(size_t chains, int depth, int ticks, bench_out *out);
    /* (g) rollback, n live coroutines of a game's mix: kind 0, a snapshot
       and a restore (or the same bytes copied out and back); kind 1, a
       restore and 8 ticks; ops = repetitions */
    int (*rollback)(size_t n, int kind, int reps, bench_out *out);
    /* (h) threads: kind 0, n posts (corral_future_post) or atomic
       exchanges; kind 1, post to resume: a post, its application at the
       next frame and the waiter's resumption; ops = n */
    int (*posts)(size_t n, int kind, bench_out *out);
} bench_peer;

uint64_t bench_now_ns(void);
/* allocator calls (malloc, calloc, realloc, aligned) made by the process */
uint64_t bench_alloc_calls(void);
/* deterministic type of coroutine i in the mixed case, in [0, BENCH_TYPES) */
unsigned bench_type_of(size_t i);
/* heap bytes in use (malloc's view: arena + mmapped chunks) */
size_t bench_heap_bytes(void);

/* contenders compiled into the binary */
extern const bench_peer bench_peer_raw_fp, bench_peer_raw_fp24, bench_peer_raw_fp24_queue, bench_peer_raw_direct, bench_peer_corral, bench_peer_corral_by_type, bench_peer_corral_timing, bench_peer_corral_history, bench_peer_corral_batch, bench_peer_corral_kept,
    bench_peer_memcpy_snapshot, bench_peer_atomic_xchg,
    bench_peer_naive, bench_peer_cpp20, bench_peer_pcl, bench_peer_boost;

/* contenders loaded as modules (each exports `bench_module_peer`) */
typedef const bench_peer *(*bench_module_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
