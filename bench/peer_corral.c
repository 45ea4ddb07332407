/*
    peer_corral.c -- corral in the benchmark, through the public API only.
*/
#include "bench.h"

#include <corral/corral.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define BC_FIELDS(F) F(uint64_t, n)
#define BC_TYPE(k)                      \
    DECLARE_COROUTINE(bc##k, BC_FIELDS) \
    DEFINE_COROUTINE(bc##k)             \
    {                                   \
        ctx->n += (k) + 1;              \
        return CORRAL_YIELD;            \
    }
BC_TYPE(0) BC_TYPE(1) BC_TYPE(2) BC_TYPE(3) BC_TYPE(4) BC_TYPE(5) BC_TYPE(6) BC_TYPE(7)
static const corral_type *const bc_types[BENCH_TYPES] = {&bc0_type, &bc1_type, &bc2_type, &bc3_type,
                                                         &bc4_type, &bc5_type, &bc6_type, &bc7_type};

DECLARE_COROUTINE(bspawn, BC_FIELDS)
DEFINE_COROUTINE(bspawn)
{
    ctx->n += 1;
    return CORRAL_STOP;
}

static corral_order g_order = CORRAL_ORDER_FIFO;
static bool g_timing = false;      /* desc.timing: per-step clock reads */
static uint32_t g_history = 0;     /* desc.history_frames */

static corral_sched *bc_sched(uint32_t slot, size_t n)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = slot;
    d.classes[0].capacity = (uint32_t)n;
    d.order = g_order;
    d.timing = g_timing;
    d.history_frames = g_history;
    d.validation = CORRAL_VALIDATION_OFF; /* as a shipped game runs it, whatever NDEBUG says */
    return corral_sched_create(&d);
}

static int bc_loop(size_t n, int ticks, int mixed, bench_out *out)
{
    corral_sched *s = bc_sched(corral_slot_size_for(&bc0_type), n); /* all 8 types: 8-byte contexts */
    corral_handle *h = malloc(n * sizeof *h);
    int rc = !s || !h ? -1 : 0;
    uint64_t expected = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        unsigned k = mixed ? bench_type_of(i) : 0;
        uint64_t zero = 0;
        h[i] = corral_start(s, bc_types[k], &zero, sizeof zero);
        if (h[i].gen == 0) rc = -2;
        expected += (uint64_t)(k + 1) * (uint64_t)(ticks + 1); /* ticks + the first step */
    }
    if (rc != 0) {
        if (s) corral_sched_destroy(s);
        free(h);
        return rc;
    }
    uint64_t steps = 0;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int t = 0; t < ticks; t++) steps += corral_tick(s, 0.016f);
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = steps;
    for (size_t i = 0; i < n; i++) {
        uint64_t *c = corral_context(s, h[i], bc_types[mixed ? bench_type_of(i) : 0]);
        out->checksum += c ? *c : 0;
    }
    out->expected = expected;
    corral_sched_destroy(s);
    free(h);
    return 0;
}

static int bc_step(size_t n, int ticks, bench_out *out) { return bc_loop(n, ticks, 0, out); }
static int bc_mixed(size_t n, int ticks, bench_out *out) { return bc_loop(n, ticks, 1, out); }
static int bc_step_by_type(size_t n, int ticks, bench_out *out)
{
    g_order = CORRAL_ORDER_BY_TYPE;
    int rc = bc_loop(n, ticks, 0, out);
    g_order = CORRAL_ORDER_FIFO;
    return rc;
}
static int bc_mixed_by_type(size_t n, int ticks, bench_out *out)
{
    g_order = CORRAL_ORDER_BY_TYPE;
    int rc = bc_loop(n, ticks, 1, out);
    g_order = CORRAL_ORDER_FIFO;
    return rc;
}

/* profiling switched on: what it costs a step */
static int bc_step_timing(size_t n, int ticks, bench_out *out)
{
    g_timing = true;
    int rc = bc_loop(n, ticks, 0, out);
    g_timing = false;
    return rc;
}
static int bc_step_history(size_t n, int ticks, bench_out *out)
{
    g_history = 600;
    int rc = bc_loop(n, ticks, 0, out);
    g_history = 0;
    return rc;
}

static int bc_spawn(size_t count, bench_out *out)
{
    corral_sched *s = bc_sched(corral_slot_size_for(&bspawn_type), 64);
    if (!s) return -1;
    corral_type_stats st;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (size_t i = 0; i < count; i++) bspawn_start(s, (bspawn_ctx){.n = i});
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = count;
    corral_stats_type_of(s, &bspawn_type, &st);
    out->checksum = st.finished + st.live; /* every spawn ran its step and stopped */
    out->expected = count;
    corral_sched_destroy(s);
    return 0;
}

/* contexts of exactly 16, 32 and 256 bytes */
#define M16_FIELDS(F) F(uint64_t, a) F(uint64_t, b)
#define M32_FIELDS(F) F(uint64_t, a) F(uint64_t, b) F(uint64_t, c) F(uint64_t, d)
typedef struct m256_blob {
    uint64_t w[32];
} m256_blob;
#define M256_FIELDS(F) F(m256_blob, blob)
DECLARE_COROUTINE(m16, M16_FIELDS)
DECLARE_COROUTINE(m32, M32_FIELDS)
DECLARE_COROUTINE(m256, M256_FIELDS)
DEFINE_COROUTINE(m16) { return CORRAL_YIELD; }
DEFINE_COROUTINE(m32) { return CORRAL_YIELD; }
DEFINE_COROUTINE(m256) { return CORRAL_YIELD; }

static int bc_memory(size_t n, int ctx_bytes, bench_out *out)
{
    const corral_type *t = ctx_bytes == 16 ? &m16_type : ctx_bytes == 32 ? &m32_type : &m256_type;
    if (t->ctx_size != (uint32_t)ctx_bytes) return -3;
    uint32_t slot = corral_slot_size_for(t);
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = slot;
    d.classes[0].capacity = (uint32_t)n;
    size_t full = corral_sched_memory_size(&d);
    d.classes[0].capacity = 0;
    size_t empty = corral_sched_memory_size(&d);
    /* marginal bytes per coroutine: slot, side tables and (default sizing)
       a sleep per slot and a wait node per 32 */
    out->bytes_per_co = (double)(full - empty) / (double)n;
    /* exactly sized pools: no wait node and no sleep (all awake), a sleep
       per slot (all asleep on a timer: plain sleeps take no node) */
    d.max_wait_nodes = d.max_group_nodes = d.max_sleepers = 1;
    d.classes[0].capacity = 0;
    empty = corral_sched_memory_size(&d);
    d.classes[0].capacity = (uint32_t)n;
    double awake = (double)(corral_sched_memory_size(&d) - empty) / (double)n;
    d.max_sleepers = (uint32_t)n;
    double asleep = (double)(corral_sched_memory_size(&d) - empty) / (double)n;
    static char note[3][64];
    char *nb = note[ctx_bytes == 16 ? 0 : ctx_bytes == 32 ? 1 : 2];
    snprintf(nb, sizeof note[0], "exactly sized: %.1f awake, %.1f asleep", awake, asleep);
    out->note = nb;
    d.max_wait_nodes = d.max_group_nodes = d.max_sleepers = 0;
    d.classes[0].capacity = (uint32_t)n;
    corral_sched *s = corral_sched_create(&d);
    if (!s) return -1;
    unsigned char zero[256] = {0};
    for (size_t i = 0; i < n; i++) out->checksum += corral_start(s, t, zero, t->ctx_size).gen != 0;
    out->expected = n;
    out->ops = n;
    corral_sched_destroy(s);
    return 0;
}

/* sleeper: waits its seconds, then counts once and stops */
#define BSLEEP_FIELDS(F) \
    F(float, t)          \
    F(uint32_t, pad)     \
    F(uint64_t *, sink)
DECLARE_COROUTINE(bsleep, BSLEEP_FIELDS)
DEFINE_COROUTINE(bsleep)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, ctx->t);
    (*ctx->sink)++;
    CORRAL_END(co);
}

static int bc_sleepers(size_t n, size_t due, int ticks, bench_out *out)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = corral_slot_size_for(&bsleep_type);
    d.classes[0].capacity = (uint32_t)n;
    corral_sched *s = corral_sched_create(&d);
    if (!s) return -1;
    const float dt = 0.01f;
    uint64_t woke = 0;
    /* the first due * ticks sleepers wake `due` per tick; the rest sleep on */
    for (size_t i = 0; i < n; i++) {
        size_t k = due ? i / due : (size_t)ticks;
        float t = k < (size_t)ticks ? dt * (float)(k + 1) - dt * 0.5f : 1.0e6f + (float)i;
        if (bsleep_start(s, (bsleep_ctx){.t = t, .sink = &woke}).gen == 0) return -2;
    }
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int k = 0; k < ticks; k++) corral_tick(s, dt);
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = (uint64_t)ticks;
    out->checksum = woke;
    out->expected = (uint64_t)due * (uint64_t)ticks;
    corral_sched_destroy(s);
    return 0;
}

/* nest: calls itself down to depth 0, where it counts and yields forever */
#define BNEST_FIELDS(F) \
    F(int, depth)       \
    F(uint32_t, pad)    \
    F(uint64_t, n)
DECLARE_COROUTINE(bnest, BNEST_FIELDS)
DEFINE_COROUTINE(bnest)
{
    CORRAL_BEGIN(co);
    if (ctx->depth > 0) CORRAL_CALL(co, bnest, (bnest_ctx){.depth = ctx->depth - 1});
    for (;;) {
        ctx->n++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

static int bc_nested(size_t chains, int depth, int ticks, bench_out *out)
{
    size_t n = chains * (size_t)(depth + 1);
    corral_sched *s = bc_sched(corral_slot_size_for(&bnest_type), n);
    if (!s) return -1;
    for (size_t i = 0; i < chains; i++)
        if (bnest_start(s, (bnest_ctx){.depth = depth}).gen == 0) return -2;
    uint64_t steps = 0;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int t = 0; t < ticks; t++) steps += corral_tick(s, 0.016f);
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = (uint64_t)chains * (uint64_t)ticks;
    out->checksum = steps; /* exactly one step per chain per tick */
    out->expected = out->ops;
    corral_sched_destroy(s);
    return 0;
}

/* rollback: a game's mix of n coroutines -- half step every frame, a
   quarter sleep a while between steps, a quarter wait on one of 8 signals
   raised in turn -- run 8 frames so that every kind is under way */
#define BROLL_FIELDS(F) F(uint32_t, kind) F(uint32_t, n) F(float, t) F(corral_signal, sig)
#define BROLL_POINTS(P) P(slept) P(signalled) P(stepped)
#define BROLL_BODY                                                                           \
    CORRAL_BEGIN_AT(co, BROLL_POINTS);                                                       \
    for (;;) {                                                                               \
        ctx->n++;                                                                            \
        if (ctx->kind == 1) CORRAL_AWAIT_AT(co, slept, corral_wait_seconds(ctx->t));         \
        else if (ctx->kind == 2) CORRAL_AWAIT_AT(co, signalled, corral_wait_signal(ctx->sig)); \
        else CORRAL_WAIT_FRAME_AT(co, stepped);                                              \
    }                                                                                        \
    CORRAL_END(co)
DECLARE_COROUTINE(broll, BROLL_FIELDS)
DEFINE_COROUTINE_AT(broll, BROLL_POINTS) { BROLL_BODY; } /* named points: it can be saved */
#define BROLL_TYPES(X) X(broll, 1, 0)
CORRAL_DECLARE_REGISTRY(broll, BROLL_TYPES)
CORRAL_DEFINE_REGISTRY(broll, BROLL_TYPES);
/* the same type in a build that lays its context out otherwise (a field
   added first, the others in reverse): a reload moves every context */
#define BROLL_MOVED_FIELDS(F) F(uint32_t, spare) F(corral_signal, sig) F(float, t) F(uint32_t, n) F(uint32_t, kind)
DECLARE_COROUTINE(broll_moved, BROLL_MOVED_FIELDS)
DEFINE_COROUTINE_AT(broll_moved, BROLL_POINTS) { BROLL_BODY; }
/* its registry, as the new library's would be: the type under the first
   build's name (a reload refuses a type renamed under its id) */
static corral_type g_broll_moved_built;
static const corral_type *g_broll_moved_types[1];
static const uint32_t g_broll_moved_ids[1] = {1};
static corral_registry broll_moved_registry(void)
{
    g_broll_moved_built = broll_moved_type;
    g_broll_moved_built.name = broll_type.name;
    g_broll_moved_types[0] = &g_broll_moved_built;
    return (corral_registry){"broll", g_broll_moved_types, g_broll_moved_ids, NULL, 1};
}

static corral_sched *broll_game_kept(size_t n, corral_signal sig[8], uint32_t kept_bytes)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    const uint32_t a = corral_slot_size_for(&broll_type), b = corral_slot_size_for(&broll_moved_type);
    d.classes[0].slot_size = a > b ? a : b; /* either build's context fits */
    d.classes[0].capacity = (uint32_t)n;
    d.max_signals = 8;
    d.kept_bytes = kept_bytes;
    d.registry = &broll_registry;
    corral_sched *s = corral_sched_create(&d);
    if (!s) return NULL;
    for (int i = 0; i < 8; i++) sig[i] = corral_signal_create(s);
    for (size_t i = 0; i < n; i++) {
        uint32_t kind = i % 4 == 1 ? 1u : i % 4 == 3 ? 2u : 0u;
        broll_start(s, (broll_ctx){kind, 0, 0.02f + 0.01f * (float)(i % 5), sig[i % 8]});
    }
    return s;
}
static corral_sched *broll_game(size_t n, corral_signal sig[8]) { return broll_game_kept(n, sig, 0); }
static void broll_tick(corral_sched *s, const corral_signal sig[8], int f)
{
    corral_signal_raise(s, sig[f % 8]);
    corral_tick(s, 1.0f / 60.0f);
}

static unsigned char *g_snap_buf;
static size_t g_snap_cap;
/* the buffer for snapshots and saves, grown outside the timed parts */
static bool snap_room(size_t need)
{
    if (need <= g_snap_cap) return true;
    free(g_snap_buf);
    g_snap_buf = (unsigned char *)malloc(need);
    g_snap_cap = g_snap_buf ? need : 0;
    return g_snap_buf != NULL;
}
/* the kept ring's bytes for two snapshots of the game 8 frames in, as a
   game sizes it: measured on a first run */
static uint32_t broll_ring(size_t n)
{
    corral_signal sig[8];
    corral_sched *probe = broll_game(n, sig);
    if (!probe) return 0;
    for (int f = 0; f < 8; f++) broll_tick(probe, sig, f);
    const size_t size = corral_snapshot_size(probe);
    corral_sched_destroy(probe);
    return (uint32_t)(2u * (size + 128u));
}
static int bc_rollback_as(size_t n, int kind, int reps, bench_out *out, bool kept)
{
    corral_signal sig[8];
    corral_sched *s = broll_game_kept(n, sig, kept ? broll_ring(n) : 0u);
    if (!s) return -1;
    for (int f = 0; f < 8; f++) broll_tick(s, sig, f);
    if (kind == 4) { /* hot reload: every coroutine rebound to a registry of the same types, per coroutine */
        const corral_registry next = broll_registry; /* another registry object: the walk does all its work */
        const corral_reload_desc r = {&next, NULL, NULL, NULL};
        uint64_t h = corral_state_hash(s), ok = 0;
        uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
        for (int i = 0; i < reps; i++) ok += corral_reload(s, &r);
        out->t_ns = bench_now_ns() - t0;
        out->allocs = bench_alloc_calls() - a0;
        out->ops = (uint64_t)reps * n;
        out->checksum = ok + (corral_state_hash(s) == h);
        out->expected = (uint64_t)reps + 1u;
        corral_sched_destroy(s);
        return 0;
    }
    if (kind == 5) { /* hot reload into the other layout and back: every context moves twice */
        const corral_registry moved = broll_moved_registry();
        const corral_reload_desc there = {&moved, NULL, NULL, NULL};
        const corral_reload_desc back = {&broll_registry, NULL, NULL, NULL};
        uint64_t h = corral_state_hash(s), ok = 0;
        uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
        for (int i = 0; i < reps; i++) ok += corral_reload(s, &there) + corral_reload(s, &back);
        out->t_ns = bench_now_ns() - t0;
        out->allocs = bench_alloc_calls() - a0;
        out->ops = 2u * (uint64_t)reps * n;
        out->checksum = ok + (corral_state_hash(s) == h); /* back in the first layout, every field kept */
        out->expected = 2u * (uint64_t)reps + 1u;
        corral_sched_destroy(s);
        return 0;
    }
    if (kind >= 2) { /* save games: a save, or a load, per coroutine */
        if (!snap_room(corral_save(s, NULL, 0))) return -2;
        size_t size = corral_save(s, g_snap_buf, g_snap_cap);
        uint64_t h = corral_state_hash(s), ok = 0;
        corral_signal sig2[8];
        corral_sched *t = broll_game(n, sig2); /* loads replace its state */
        if (!t) return -1;
        uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
        for (int r = 0; r < reps; r++)
            ok += kind == 2 ? corral_save(s, g_snap_buf, g_snap_cap) == size : corral_load(t, g_snap_buf, size);
        out->t_ns = bench_now_ns() - t0;
        out->allocs = bench_alloc_calls() - a0;
        out->ops = (uint64_t)reps * n;
        if (kind == 2) corral_load(t, g_snap_buf, size);
        out->checksum = ok + (corral_state_hash(t) == h);
        out->expected = (uint64_t)reps + 1u;
        static char note[2][2][64];
        char *nb = note[kind - 2][n > 10000];
        snprintf(nb, sizeof note[0][0], "%zu B a save (%.0f B a coroutine)", size, (double)size / (double)n);
        out->note = nb;
        corral_sched_destroy(t);
        corral_sched_destroy(s);
        return 0;
    }
    if (!snap_room(corral_snapshot_size(s))) return -2;
    size_t size = kept ? corral_snapshot_keep(s, 0) : corral_snapshot(s, g_snap_buf, g_snap_cap);
    uint64_t h = corral_state_hash(s), ok = 0;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int r = 0; r < reps; r++) {
        if (kind == 0) {
            ok += (kept ? corral_snapshot_keep(s, 0) : corral_snapshot(s, g_snap_buf, g_snap_cap)) == size;
            ok += kept ? corral_restore_kept(s, 0) : corral_restore(s, g_snap_buf, size);
        } else {
            ok += (kept ? corral_restore_kept(s, 0) : corral_restore(s, g_snap_buf, size)) ? 2 : 0;
            for (int f = 0; f < 8; f++) broll_tick(s, sig, 8 + f);
        }
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = (uint64_t)reps;
    if (kept) corral_restore_kept(s, 0);
    else corral_restore(s, g_snap_buf, size);
    out->checksum = ok + (corral_state_hash(s) == h); /* every restore took; the state is the snapshot's */
    out->expected = 2u * (uint64_t)reps + 1u;
    static char note[64];
    snprintf(note, sizeof note, "%zu B a snapshot", size);
    out->note = note;
    corral_sched_destroy(s);
    return 0;
}

/* kinds 0 and 1 with a snapshot kept in the arena's ring
   (corral_snapshot_keep, corral_restore_kept): the rollback loop's way,
   no check */
static int bc_rollback_as(size_t n, int kind, int reps, bench_out *out, bool kept);
static int bc_rollback_kept(size_t n, int kind, int reps, bench_out *out)
{
    return kind >= 2 ? 1 : bc_rollback_as(n, kind, reps, out, true); /* no save games or reloads here */
}
const bench_peer bench_peer_corral_kept = {
    .name = "corral, kept in the arena",
    .rollback = bc_rollback_kept,
};

/* the floor of kind 0: the same bytes (a snapshot's size) copied out of
   the live arena and back */
static int bc_memcpy_snapshot(size_t n, int kind, int reps, bench_out *out)
{
    if (kind == 1 || kind >= 4) return 1; /* not this contender's case */
    corral_signal sig[8];
    corral_sched *s = broll_game(n, sig);
    if (!s) return -1;
    for (int f = 0; f < 8; f++) broll_tick(s, sig, f);
    size_t size = kind == 0 ? corral_snapshot_size(s) : corral_save(s, NULL, 0);
    unsigned char *copy = (unsigned char *)malloc(size);
    unsigned char *live = (unsigned char *)malloc(size); /* stands for the arena's live bytes */
    if (!copy || !live) return -2;
    memset(live, 1, size);
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns(), sum = 0;
    for (int r = 0; r < reps; r++) {
        memcpy(copy, live, size);
        live[(size_t)r % size] ^= 1;
        if (kind == 0) memcpy(live, copy, size); /* out and back; a save or a load: once */
        else live[(size_t)r % size] ^= 1;
        sum += live[(size_t)r % size];
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = kind == 0 ? (uint64_t)reps : (uint64_t)reps * n;
    out->checksum = sum;
    out->expected = (uint64_t)reps;
    free(copy);
    free(live);
    corral_sched_destroy(s);
    return 0;
}

/* threads: posts from the owner's thread itself (the cost of the queue,
   not of cache traffic between cores) */
#define BPOST_FIELDS(F) F(corral_future, f) F(uint64_t *, sink)
DECLARE_COROUTINE(bpost, BPOST_FIELDS)
DEFINE_COROUTINE(bpost)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FUTURE(co, ctx->f);
    (*ctx->sink)++;
    CORRAL_END(co);
}

static int bc_posts(size_t n, int kind, bench_out *out)
{
    enum { BATCH = 1024 };
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = corral_slot_size_for(&bpost_type);
    d.classes[0].capacity = BATCH;
    d.max_futures = BATCH;
    d.max_posts = BATCH;
    d.max_wait_nodes = BATCH; /* each waiter's future wait takes a node */
    corral_sched *s = corral_sched_create(&d);
    if (!s) return -1;
    corral_future f[BATCH];
    uint64_t resumed = 0, posted = 0, t = 0, a0 = bench_alloc_calls();
    for (size_t done = 0; done < n; done += BATCH) {
        for (int i = 0; i < BATCH; i++) {
            f[i] = corral_future_create(s);
            if (kind) bpost_start(s, (bpost_ctx){f[i], &resumed});
        }
        uint64_t t0 = bench_now_ns();
        for (int i = 0; i < BATCH; i++) posted += corral_future_post(s, f[i], (corral_value){.u = (uint64_t)i});
        if (kind) corral_tick(s, 0.016f); /* applied, the waiters resume */
        t += bench_now_ns() - t0;
        if (!kind) corral_tick(s, 0.016f);
        for (int i = 0; i < BATCH; i++) corral_future_release(s, f[i]);
    }
    out->t_ns = t;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = (n + BATCH - 1) / BATCH * BATCH;
    out->checksum = posted + (kind ? resumed : out->ops);
    out->expected = 2 * out->ops;
    corral_sched_destroy(s);
    return 0;
}

static int bc_xchg(size_t n, int kind, bench_out *out)
{
    if (kind) return 1;
    static _Atomic uint64_t cell;
    atomic_store(&cell, 0);
    uint64_t sum = 0, t0 = bench_now_ns();
    for (size_t i = 0; i < n; i++) sum += atomic_exchange(&cell, (uint64_t)i);
    out->t_ns = bench_now_ns() - t0;
    out->ops = n;
    out->checksum = sum + atomic_load(&cell);
    out->expected = (uint64_t)n * (n - 1) / 2;
    return 0;
}
const bench_peer bench_peer_atomic_xchg = {
    .name = "atomic exchange",
    .posts = bc_xchg,
};

const bench_peer bench_peer_memcpy_snapshot = {
    .name = "memcpy, a snapshot's bytes",
    .rollback = bc_memcpy_snapshot,
};

static int bc_rollback(size_t n, int kind, int reps, bench_out *out) { return bc_rollback_as(n, kind, reps, out, false); }

const bench_peer bench_peer_corral = {
    .rollback = bc_rollback,
    .posts = bc_posts,
    .sleepers = bc_sleepers,
    .nested = bc_nested,
    .name = "corral",
    .step = bc_step,
    .mixed = bc_mixed,
    .spawn = bc_spawn,
    .memory = bc_memory,
};

/* the same scheduler with CORRAL_ORDER_BY_TYPE: grouped by type */
const bench_peer bench_peer_corral_by_type = {
    .name = "corral, BY_TYPE order",
    .step = bc_step_by_type,
    .mixed = bc_mixed_by_type,
};

/* spawn in batches of 64 (corral_start_n): the volley of bullets */
static int bc_spawn_batch(size_t count, bench_out *out)
{
    enum { BATCH = 64 };
    corral_sched *s = bc_sched(corral_slot_size_for(&bspawn_type), 64);
    if (!s) return -1;
    bspawn_ctx ctxs[BATCH];
    corral_type_stats st;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (size_t i = 0; i < count; i += BATCH) {
        size_t n = count - i < BATCH ? count - i : BATCH;
        for (size_t k = 0; k < n; k++) ctxs[k].n = i + k;
        bspawn_start_n(s, ctxs, n, NULL);
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = count;
    corral_stats_type_of(s, &bspawn_type, &st);
    out->checksum = st.finished + st.live;
    out->expected = count;
    corral_sched_destroy(s);
    return 0;
}
const bench_peer bench_peer_corral_batch = {
    .name = "corral, batches of 64",
    .spawn = bc_spawn_batch,
};

/* profiling on: timing (sampled clock reads) and history alone */
const bench_peer bench_peer_corral_timing = {
    .name = "corral, timing on",
    .step = bc_step_timing,
};
const bench_peer bench_peer_corral_history = {
    .name = "corral, history 600 frames",
    .step = bc_step_history,
};
