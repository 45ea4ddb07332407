/*
    spawn_floor.c -- what a spawn (start + first step + stop) costs when it
    does only the work corral's contract asks of it, rung by rung, run in
    one process side by side with corral_start and with corral's own step.

    The rungs are a model, not corral: a few plain structs laid out like
    corral's (a type table, a size class, pages with free lists, 16-byte
    slot headers, per-slot meta), and one function per rung, each the rung
    before plus one piece of the contract written as tightly as I could:

      R0  free list   pop a slot, copy the context in, call the step, push
                      the slot back, bump its generation (the handle)
      R1  validation  scheduler magic, NULL arguments, shutting down, the
                      type (a one-entry cache, as corral's), context size,
                      size class, a budget or reservation, a page with room
      R2  header      type, phase, resume point, link; state and the
                      "on the stack" flag around the step
      R3  links       the first step's end test: no caller, child, joiner
                      or group (no side record: one bit of the per-slot
                      meta byte)
      R4  bracket     the thread's current scheduler, the step depth, a
                      top-level start's ready-list check
      R5  slot state  FREE on the way out; a generation about to wrap
                      retires the slot
      R6  pages       the page's free count and the moves between its
                      class's empty/partial/full lists
      R7  counters    exact at every moment, as corral_stats reports them:
                      per type started, live and peak; per class used and
                      peak; the arena's live, slot bytes and context bytes
                      with their peaks; the birth frame
      R7' deferred    R7 with the instant spawn's net-zero counts left out
                      (only its peaks raised and `started` counted; pages as
                      in R7), the peaks tested at every spawn
      R8  counted     R6 with the counts corral keeps: `started`; the spawn
          once        marked as the one not counted live (readers add it);
                      the peaks raised only when the arena's epoch moved
                      since the type's last cover (one compare an instant
                      spawn). corral's path: a plain type keeps no birth
                      frame (ages are the profile's, with desc.timing).
      R8b batch       R8 in batches of 64 of one type: R1's validation once
                      a batch (the budget and room tests stay per spawn),
                      as corral_start_n shares it.

    Run: build/bench/bench/corral_spawn_floor [--reps R] [--count N]
         [--smoke]. The ratios divide by corral's step at 10^4 coroutines
    and by the bench's C++20 heap-frame spawn (peer_cpp20.cpp, linked in
    where a C++20 compiler was found), both measured in the same process. A wrong checksum (a rung or corral that
    did not run every step) exits non-zero; timing never does.
*/
#define _POSIX_C_SOURCE 199309L
#include <corral/corral.h>

#include "bench.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define SF_NOINLINE __attribute__((noinline))
#define SF_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SF_NOINLINE
#define SF_UNLIKELY(x) (x)
#endif

#define SF_NIL 0xFFFFFFFFu
#define SF_MAGIC 0x6c72726fu
#define SF_SLOTS 64u

/* ---- the model ---------------------------------------------------------- */

typedef struct sf_co {
    uint32_t gen;
    uint16_t type;
    uint8_t state, flags;
    uint32_t resume, link;
    uint64_t n; /* the context: one counter */
} sf_co;
typedef int (*sf_step_fn)(sf_co *);
typedef struct sf_type {
    sf_step_fn step;
    const void *vt;
    uint32_t cls, ctx_size, live, peak, page, budget;
    uint8_t plain;
    uint32_t peak_epoch; /* R8: the epoch its peaks last covered one more of it */
    uint64_t started;
} sf_type;
typedef struct sf_page {
    uint32_t free_head;
    uint16_t free_count, slots;
    uint8_t list; /* 0 empty, 1 partial, 2 full */
} sf_page;
typedef struct sf_class {
    uint32_t used, peak, slot_size, reserved;
    unsigned char *base;
    sf_page *pages;
} sf_class;
typedef struct sf_meta {
    uint8_t bits; /* 1: it has a side record */
} sf_meta;
typedef struct sf_sched {
    uint32_t magic, flags, depth, in_tick, ready_head, frame, starting;
    const void *last_vt;
    uint32_t last_ti;
    uint32_t live, live_peak;
    uint64_t slot_bytes, slot_bytes_peak, ctx_bytes, ctx_bytes_peak;
    uint32_t epoch, uncounted; /* R8: counted rises; the spawn in its first step not counted live */
    sf_type types[4];
    sf_class classes[2];
    sf_meta *meta;
    uint32_t *born; /* R7: each slot's birth frame */
    uint64_t failures;
} sf_sched;
typedef struct sf_handle {
    uint32_t index, gen;
} sf_handle;

static _Thread_local sf_sched *sf_current;
static uint64_t sf_steps; /* every step counts itself: the checksum */

SF_NOINLINE static int sf_step(sf_co *co)
{
    co->n += 1;
    sf_steps++;
    return 1; /* STOP */
}
/* every branch to here is a failure the rungs' input never has */
SF_NOINLINE static void sf_fail(sf_sched *s) { s->failures++; }

/* R8's peaks raised to cover one more of t (never on the measured path:
   the epoch does not move between instant spawns) */
SF_NOINLINE static void sf_cover(sf_sched *s, sf_type *t, sf_class *c)
{
    if (t->live >= t->peak) t->peak = t->live + 1;
    if (c->used >= c->peak) c->peak = c->used + 1;
    if (s->live >= s->live_peak) s->live_peak = s->live + 1;
    if (s->slot_bytes + c->slot_size > s->slot_bytes_peak) s->slot_bytes_peak = s->slot_bytes + c->slot_size;
    if (s->ctx_bytes + t->ctx_size > s->ctx_bytes_peak) s->ctx_bytes_peak = s->ctx_bytes + t->ctx_size;
    t->peak_epoch = s->epoch;
}

/* Every rung, from one body: `rung` has every piece up to it (R8: R6's
   and its own counts, not R7's); `defer` makes R7' (the counters net-zero
   for an instant spawn; pages as R7).
   Always inlined into the rung functions below, where both are constants,
   so each rung keeps only its own pieces. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline sf_handle sf_spawn(sf_sched *s, const void *vt, const void *ctx, size_t size, const int rung,
                                 const bool defer, const bool batched)
{
    sf_handle h = {0, 0};
    sf_type *t = &s->types[0];
    sf_class *c = &s->classes[0];
    uint32_t pi = 0;
    if (batched) { /* the batch's validation passed: its type at hand, room per spawn */
        t = &s->types[s->last_ti];
        c = &s->classes[t->cls];
        pi = t->page;
        if (SF_UNLIKELY(c->reserved || pi == SF_NIL || c->pages[pi].free_count == 0)) {
            sf_fail(s);
            return h;
        }
    } else if (rung >= 1) {
        if (SF_UNLIKELY(!s || s->magic != SF_MAGIC || !vt || !ctx || (s->flags & 2u) || vt != s->last_vt)) {
            sf_fail(s);
            return h;
        }
        t = &s->types[s->last_ti];
        if (SF_UNLIKELY(size != t->ctx_size || !t->plain || t->budget)) {
            sf_fail(s);
            return h;
        }
        c = &s->classes[t->cls];
        pi = t->page;
        if (SF_UNLIKELY(c->reserved || pi == SF_NIL || c->pages[pi].free_count == 0)) {
            sf_fail(s);
            return h;
        }
    }
    const bool count = rung == 7 && !defer; /* counters moved as they happen */
    const bool once = rung == 8;             /* counted once: started, the peaks by epoch */
    (void)size;
    sf_page *pg = &c->pages[pi];
    uint32_t local = pg->free_head;
    sf_co *co = (sf_co *)(void *)(c->base + (size_t)local * c->slot_size);
    pg->free_head = co->link;
    if (rung >= 6) {
        if (--pg->free_count == 0) sf_fail(s);
        else if (pg->list == 0) sf_fail(s);
    }
    if (count && ++c->used > c->peak) c->peak = c->used;
    if (rung >= 2) {
        co->type = (uint16_t)s->last_ti;
        co->flags = 0;
        co->resume = 0;
        co->link = SF_NIL;
    }
    memcpy(&co->n, ctx, sizeof co->n);
    if (count) {
        t->started++;
        if (++t->live > t->peak) t->peak = t->live;
        if (++s->live > s->live_peak) s->live_peak = s->live;
        s->slot_bytes += c->slot_size;
        if (s->slot_bytes > s->slot_bytes_peak) s->slot_bytes_peak = s->slot_bytes;
        s->ctx_bytes += t->ctx_size;
        if (s->ctx_bytes > s->ctx_bytes_peak) s->ctx_bytes_peak = s->ctx_bytes;
    }
    sf_meta *m = &s->meta[local];
    if (count) s->born[local] = s->frame;
    if (once) {
        if (SF_UNLIKELY(s->uncounted)) sf_fail(s); /* a first step it runs in: counted first */
        t->started++;
        if (SF_UNLIKELY(t->peak_epoch != s->epoch)) sf_cover(s, t, c);
        s->uncounted = local + 1;
    }
    h.index = t->cls << 24 | local;
    h.gen = co->gen;
    bool top = false;
    sf_sched *prev = NULL;
    if (rung >= 4) {
        top = !s->in_tick && s->depth == 0;
        if (top) s->starting = 1;
        prev = sf_current;
        sf_current = s;
        s->depth++;
    }
    if (rung >= 2) {
        co->state = 2;
        co->flags |= 0x80;
    }
    int r = t->step(co);
    if (rung >= 4) {
        s->depth--;
        sf_current = prev;
    }
    if (rung >= 2) co->flags &= 0x3f;
    if (once) {
        if (SF_UNLIKELY(s->uncounted != local + 1)) sf_fail(s); /* counted during its step */
        s->uncounted = 0;
    }
    bool instant = r == 1;
    if (rung >= 2) instant = instant && co->state == 2;
    if (rung >= 3) instant = instant && !(m->bits & 1u);
    if (!instant) {
        sf_fail(s);
        return h;
    }
    if (count) {
        t->live--;
        s->live--;
        s->slot_bytes -= c->slot_size;
        s->ctx_bytes -= t->ctx_size;
        c->used--;
    } else if (rung == 7) { /* defer: only what an instant spawn leaves behind */
        t->started++;
        if (t->live + 1 > t->peak) t->peak = t->live + 1;
        if (c->used + 1 > c->peak) c->peak = c->used + 1;
        if (s->live + 1 > s->live_peak) s->live_peak = s->live + 1;
        if (s->slot_bytes + c->slot_size > s->slot_bytes_peak) s->slot_bytes_peak = s->slot_bytes + c->slot_size;
        if (s->ctx_bytes + t->ctx_size > s->ctx_bytes_peak) s->ctx_bytes_peak = s->ctx_bytes + t->ctx_size;
    }
    if (rung >= 5) {
        if (co->gen == UINT32_MAX) sf_fail(s);
        co->state = 0;
    }
    co->gen++;
    co->link = pg->free_head;
    pg->free_head = local;
    if (rung >= 6) {
        if (++pg->free_count == pg->slots && t->page != pi) sf_fail(s);
        else if (pg->list == 2) sf_fail(s);
    }
    if (rung >= 4 && top) {
        if (s->ready_head != SF_NIL) sf_fail(s);
        s->starting = 0;
    }
    return h;
}

typedef sf_handle (*sf_spawn_fn)(sf_sched *s, const void *vt, const void *ctx, size_t size);
#define SF_RUNG(name, rung, defer)                                                             \
    SF_NOINLINE static sf_handle name(sf_sched *s, const void *vt, const void *ctx, size_t size) \
    {                                                                                          \
        return sf_spawn(s, vt, ctx, size, rung, defer, false);                                 \
    }
SF_RUNG(sf_r0, 0, false)
SF_RUNG(sf_r1, 1, false)
SF_RUNG(sf_r2, 2, false)
SF_RUNG(sf_r3, 3, false)
SF_RUNG(sf_r4, 4, false)
SF_RUNG(sf_r5, 5, false)
SF_RUNG(sf_r6, 6, false)
SF_RUNG(sf_r7, 7, false)
SF_RUNG(sf_r7d, 7, true)
SF_RUNG(sf_r8, 8, false)

/* R8b: n spawns of one type from n contexts, validated once */
#define SF_BATCH 64u
SF_NOINLINE static size_t sf_r8b(sf_sched *s, const void *vt, const uint64_t *ctxs, size_t n)
{
    if (SF_UNLIKELY(!s || s->magic != SF_MAGIC || !vt || !ctxs || (s->flags & 2u) || vt != s->last_vt)) {
        sf_fail(s);
        return 0;
    }
    const sf_type *t = &s->types[s->last_ti];
    if (SF_UNLIKELY(sizeof *ctxs != t->ctx_size || !t->plain || t->budget)) {
        sf_fail(s);
        return 0;
    }
    size_t k = 0;
    for (; k < n; k++)
        if (sf_spawn(s, vt, &ctxs[k], sizeof *ctxs, 8, false, true).gen == 0) break;
    return k;
}

static sf_sched *sf_create(void)
{
    sf_sched *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->magic = SF_MAGIC;
    s->ready_head = SF_NIL;
    s->epoch = 1;
    s->last_vt = s;
    s->types[0] = (sf_type){.step = sf_step, .vt = s, .ctx_size = 8, .page = 0, .plain = 1};
    sf_class *c = &s->classes[0];
    c->slot_size = sizeof(sf_co);
    c->base = calloc(SF_SLOTS, sizeof(sf_co));
    c->pages = calloc(1, sizeof(sf_page));
    s->meta = malloc(SF_SLOTS * sizeof(sf_meta));
    s->born = calloc(SF_SLOTS, sizeof(uint32_t));
    if (!c->base || !c->pages || !s->meta || !s->born) return NULL;
    for (uint32_t i = 0; i < SF_SLOTS; i++) {
        sf_co *co = (sf_co *)(void *)(c->base + i * sizeof(sf_co));
        co->gen = 1;
        co->link = i + 1 < SF_SLOTS ? i + 1 : SF_NIL;
        s->meta[i] = (sf_meta){0};
    }
    c->pages[0] = (sf_page){.free_head = 0, .free_count = SF_SLOTS, .slots = SF_SLOTS, .list = 1};
    return s;
}
static void sf_destroy(sf_sched *s)
{
    free(s->classes[0].base);
    free(s->classes[0].pages);
    free(s->meta);
    free(s->born);
    free(s);
}

/* ---- corral itself ------------------------------------------------------ */

#define SF_FIELDS(X) X(uint64_t, n)
DECLARE_COROUTINE(sf_spawned, SF_FIELDS)
DEFINE_COROUTINE(sf_spawned)
{
    ctx->n += 1;
    return CORRAL_STOP;
}
DECLARE_COROUTINE(sf_stepped, SF_FIELDS)
DEFINE_COROUTINE(sf_stepped)
{
    ctx->n += 1;
    return CORRAL_YIELD;
}

static corral_sched *sf_corral(const corral_type *t, uint32_t capacity)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = corral_slot_size_for(t);
    d.classes[0].capacity = capacity;
    d.validation = CORRAL_VALIDATION_OFF; /* as the bench runs it */
    return corral_sched_create(&d);
}

/* ---- the run ------------------------------------------------------------- */

static uint64_t sf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#ifdef BENCH_HAVE_CPP20
/* what bench/peer_cpp20.cpp asks of the harness (bench.h); its spawn is
   the only case run here, and it allocates one frame a spawn */
uint64_t bench_now_ns(void) { return sf_now(); }
uint64_t bench_alloc_calls(void) { return 0; }
unsigned bench_type_of(size_t i) { return (unsigned)(i % BENCH_TYPES); }
size_t bench_heap_bytes(void) { return 0; }

/* ns a C++20 spawn (a heap frame, its first step to co_yield, destroy) */
static double sf_run_cpp20_spawn(size_t count)
{
    bench_out out;
    memset(&out, 0, sizeof out);
    if (bench_peer_cpp20.spawn(count, &out) != 0 || out.checksum != out.expected || out.ops != count) return -1;
    return (double)out.t_ns / (double)count;
}
#endif

/* ns a spawn of one rung; -1 on a wrong checksum */
static double sf_run_rung(sf_spawn_fn fn, size_t count)
{
    sf_sched *s = sf_create();
    if (!s) return -1;
    uint64_t steps0 = sf_steps, gens = 0;
    uint64_t t0 = sf_now();
    for (size_t i = 0; i < count; i++) {
        uint64_t v = i;
        gens += fn(s, s, &v, sizeof v).gen != 0;
    }
    double ns = (double)(sf_now() - t0) / (double)count;
    bool ok = sf_steps - steps0 == count && gens == count && s->failures == 0;
    sf_destroy(s);
    return ok ? ns : -1;
}

/* ns a spawn of R8b, in batches of SF_BATCH */
static double sf_run_r8b(size_t count)
{
    sf_sched *s = sf_create();
    if (!s) return -1;
    uint64_t steps0 = sf_steps, done = 0, ctxs[SF_BATCH];
    for (uint32_t k = 0; k < SF_BATCH; k++) ctxs[k] = k;
    uint64_t t0 = sf_now();
    for (size_t i = 0; i < count; i += SF_BATCH) done += sf_r8b(s, s, ctxs, count - i < SF_BATCH ? count - i : SF_BATCH);
    double ns = (double)(sf_now() - t0) / (double)count;
    bool ok = sf_steps - steps0 == count && done == count && s->failures == 0;
    sf_destroy(s);
    return ok ? ns : -1;
}

/* ns a spawn of corral_start_n in batches of SF_BATCH */
static double sf_run_corral_batch(size_t count)
{
    corral_sched *s = sf_corral(&sf_spawned_type, SF_SLOTS);
    if (!s) return -1;
    sf_spawned_ctx ctxs[SF_BATCH];
    for (uint32_t k = 0; k < SF_BATCH; k++) ctxs[k].n = k;
    uint64_t t0 = sf_now(), done = 0;
    for (size_t i = 0; i < count; i += SF_BATCH)
        done += corral_start_n(s, &sf_spawned_type, ctxs, sizeof ctxs[0], count - i < SF_BATCH ? count - i : SF_BATCH,
                               NULL);
    double ns = (double)(sf_now() - t0) / (double)count;
    corral_type_stats st;
    bool ok = done == count && corral_stats_type_of(s, &sf_spawned_type, &st) && st.finished == count && st.live == 0;
    corral_sched_destroy(s);
    return ok ? ns : -1;
}

static double sf_run_corral_spawn(size_t count)
{
    corral_sched *s = sf_corral(&sf_spawned_type, SF_SLOTS);
    if (!s) return -1;
    uint64_t t0 = sf_now();
    for (size_t i = 0; i < count; i++) sf_spawned_start(s, (sf_spawned_ctx){.n = i});
    double ns = (double)(sf_now() - t0) / (double)count;
    corral_type_stats st;
    bool ok = corral_stats_type_of(s, &sf_spawned_type, &st) && st.finished == count && st.live == 0;
    corral_sched_destroy(s);
    return ok ? ns : -1;
}

/* ns a step, 10^4 coroutines (the denominator of the bench's spawn ratio) */
static double sf_run_corral_step(size_t steps)
{
    const uint32_t n = 10000;
    corral_sched *s = sf_corral(&sf_stepped_type, n);
    if (!s) return -1;
    for (uint32_t i = 0; i < n; i++) sf_stepped_start(s, (sf_stepped_ctx){.n = 0});
    size_t ticks = steps / n ? steps / n : 1;
    corral_tick(s, 0.016f); /* warm */
    uint64_t t0 = sf_now();
    for (size_t k = 0; k < ticks; k++) corral_tick(s, 0.016f);
    double ns = (double)(sf_now() - t0) / (double)(ticks * n);
    corral_type_stats st;
    bool ok = corral_stats_type_of(s, &sf_stepped_type, &st) && st.live == n;
    corral_sched_destroy(s);
    return ok ? ns : -1;
}

static int sf_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#ifdef BENCH_HAVE_CPP20
enum { SF_ROWS = 15, SF_MAX_REPS = 64 };
#else
enum { SF_ROWS = 14, SF_MAX_REPS = 64 };
#endif

int main(int argc, char **argv)
{
    int reps = 7;
    size_t count = 5000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--smoke")) reps = 1, count = 20000;
        else {
            fprintf(stderr, "usage: %s [--reps R] [--count N] [--smoke]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1 || reps > SF_MAX_REPS || count == 0) {
        fprintf(stderr, "spawn_floor: --reps 1..%d, --count > 0\n", SF_MAX_REPS);
        return 2;
    }
    static const char *names[SF_ROWS] = {
        "corral step, 10^4 coroutines", "corral_start (spawn)",
        "R0 free list + generation",    "R1 + validation",
        "R2 + header",                  "R3 + links test",
        "R4 + step bracket",            "R5 + slot state",
        "R6 + pages",                   "R7 + exact counters",
        "R7' counters deferred",        "R8 R6 + counted once",
        "R8b R8 in batches of 64",      "corral_start_n (batches of 64)",
#ifdef BENCH_HAVE_CPP20
        "C++20 heap frame (spawn)",
#endif
    };
    static const sf_spawn_fn rungs[] = {sf_r0, sf_r1, sf_r2, sf_r3, sf_r4, sf_r5, sf_r6, sf_r7, sf_r7d, sf_r8};
    enum { SF_RUNGS = sizeof rungs / sizeof rungs[0] };
    static double t[SF_ROWS][SF_MAX_REPS];
    for (int r = 0; r < reps; r++) { /* interleaved: every row once per repetition */
        t[0][r] = sf_run_corral_step(count * 4);
        t[1][r] = sf_run_corral_spawn(count);
        for (int k = 0; k < SF_RUNGS; k++) t[2 + k][r] = sf_run_rung(rungs[k], count);
        t[2 + SF_RUNGS][r] = sf_run_r8b(count);
        t[3 + SF_RUNGS][r] = sf_run_corral_batch(count);
#ifdef BENCH_HAVE_CPP20
        t[4 + SF_RUNGS][r] = sf_run_cpp20_spawn(count);
#endif
    }
    int bad = 0;
    double med[SF_ROWS];
    for (int k = 0; k < SF_ROWS; k++) {
        for (int r = 0; r < reps; r++)
            if (t[k][r] < 0) bad = 1;
        qsort(t[k], (size_t)reps, sizeof(double), sf_cmp);
        med[k] = reps % 2 ? t[k][reps / 2] : (t[k][reps / 2 - 1] + t[k][reps / 2]) / 2;
    }
    if (bad) {
        fprintf(stderr, "spawn_floor: a wrong checksum (a spawn or step that did not run)\n");
        return 1;
    }
    const double cpp20 = SF_ROWS == 15 ? med[SF_ROWS - 1] : 0.0;
    printf("spawn floor: %d repetition(s) of %zu spawns, median [min..max] ns, x corral's step%s\n\n", reps, count,
           cpp20 > 0 ? ", x C++20's spawn" : "");
    for (int k = 0; k < SF_ROWS; k++) {
        printf("%-30s %7.2f  [%6.2f..%6.2f]  %5.2fx", names[k], med[k], t[k][0], t[k][reps - 1],
               med[0] > 0 ? med[k] / med[0] : 0.0);
        if (cpp20 > 0 && k > 0) printf("  %5.2fx", med[k] / cpp20);
        printf("\n");
    }
    return 0;
}
