/*
    test_rollback.c -- corral_snapshot / corral_restore / corral_state_hash:
    restore in place after every kind of change, handles after a restore,
    refusals that change nothing, no allocation, a snapshot's size, the
    hash's independence from addresses; snapshots kept in the arena; and the model-based test: random
    operation sequences rolled back at random points and replayed, each
    replayed state hashing as the first time.
*/
#include "common.h"
#include "corral_internal.h"
#include "model.h"

static unsigned char g_buf[1 << 20];

/* ---- a walker: moves each frame, sleeps now and then, by its fields */
#define RB_WALKER_FIELDS(F) \
    F(int, id)              \
    F(int, x)               \
    F(float, nap)           \
    F(int *, sink)
DECLARE_COROUTINE(rb_walker, RB_WALKER_FIELDS)
DEFINE_COROUTINE(rb_walker)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->x += ctx->id;
        if (ctx->sink) (*ctx->sink)++;
        if (ctx->x % 3 == 0) CORRAL_WAIT_SECONDS(co, ctx->nap);
        else CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

/* ---- a parent that calls a child counting to n */
#define RB_CHILD_FIELDS(F) F(int, n)
DECLARE_COROUTINE_R(rb_child, RB_CHILD_FIELDS, int)
DEFINE_COROUTINE(rb_child)
{
    ctx->result++;
    return ctx->result >= ctx->n ? CORRAL_STOP : CORRAL_YIELD;
}
#define RB_PARENT_FIELDS(F) F(int, n) F(int, got) F(int, done)
DECLARE_COROUTINE(rb_parent, RB_PARENT_FIELDS)
DEFINE_COROUTINE(rb_parent)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL(co, rb_child, (rb_child_ctx){.n = ctx->n}, &ctx->got);
    ctx->done = 1;
    CORRAL_END(co);
}

/* ---- waits on a signal, then a future */
#define RB_WAITER_FIELDS(F) F(corral_signal, sig) F(corral_future, fut) F(int, stage)
DECLARE_COROUTINE(rb_waiter, RB_WAITER_FIELDS)
DEFINE_COROUTINE(rb_waiter)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SIGNAL(co, ctx->sig);
    ctx->stage = 1;
    CORRAL_WAIT_FUTURE(co, ctx->fut);
    ctx->stage = 2;
    CORRAL_END(co);
}

static corral_sched *rb_sched(uint32_t cap)
{
    corral_sched_desc d = one_class_desc(64, cap);
    return sched_of(d);
}

static size_t snap(corral_sched *s)
{
    size_t n = corral_snapshot(s, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "snapshot: %s", corral_error_str(corral_last_error(s)));
    cr_assert_eq(n, corral_snapshot_size(s));
    return n;
}

Test(rollback, restore_rewinds_starts_stops_steps_and_clocks)
{
    corral_sched *s = rb_sched(64);
    corral_handle a = rb_walker_start(s, (rb_walker_ctx){1, 0, 0.05f, NULL});
    corral_handle b = rb_walker_start(s, (rb_walker_ctx){2, 0, 0.05f, NULL});
    corral_tick(s, 0.016f);
    size_t n = snap(s);
    uint64_t h0 = corral_state_hash(s);
    uint64_t frame0 = corral_frame(s);
    int bx = ((rb_walker_ctx *)corral_context(s, b, &rb_walker_type))->x;

    cr_assert(corral_stop(s, a));
    corral_handle c = rb_walker_start(s, (rb_walker_ctx){3, 0, 0.05f, NULL});
    for (int i = 0; i < 5; i++) corral_tick(s, 0.016f);
    cr_assert_neq(corral_state_hash(s), h0);

    cr_assert(corral_restore(s, g_buf, n), "%s", corral_error_str(corral_last_error(s)));
    cr_assert(corral_verify(s));
    cr_assert_eq(corral_state_hash(s), h0);
    cr_assert_eq(corral_frame(s), frame0);
    cr_assert(corral_alive(s, a), "a was alive at the snapshot");
    cr_assert(corral_alive(s, b));
    cr_assert_not(corral_alive(s, c), "c was born after the snapshot");
    cr_assert_eq(((rb_walker_ctx *)corral_context(s, b, &rb_walker_type))->x, bx);
    cr_assert_eq(corral_live_count(s), 2);

    /* the same operations again give the same states as the first time */
    uint64_t first[6], again[6];
    corral_sched *twin = rb_sched(64);
    rb_walker_start(twin, (rb_walker_ctx){1, 0, 0.05f, NULL});
    rb_walker_start(twin, (rb_walker_ctx){2, 0, 0.05f, NULL});
    corral_tick(twin, 0.016f);
    cr_assert_eq(corral_state_hash(twin), h0, "the hash does not depend on where the arena is");
    corral_stop(twin, a); /* same slot, same generation: a twin's handle */
    rb_walker_start(twin, (rb_walker_ctx){3, 0, 0.05f, NULL});
    first[0] = corral_state_hash(twin);
    for (int i = 1; i < 6; i++) {
        corral_tick(twin, 0.016f);
        first[i] = corral_state_hash(twin);
    }
    cr_assert(corral_stop(s, a));
    corral_handle c2 = rb_walker_start(s, (rb_walker_ctx){3, 0, 0.05f, NULL});
    again[0] = corral_state_hash(s);
    for (int i = 1; i < 6; i++) {
        corral_tick(s, 0.016f);
        again[i] = corral_state_hash(s);
    }
    for (int i = 0; i < 6; i++) cr_assert_eq(again[i], first[i], "state %d after the restore differs", i);
    cr_assert_eq(c2.index, c.index, "the same slot is taken again");
    cr_assert_neq(c2.gen, c.gen, "but never with a generation handed out before");
    cr_assert_not(corral_alive(s, c));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK);
    corral_context(s, c, &rb_walker_type);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE, "a handle from the abandoned future is stale, not forged");
    corral_sched_destroy(twin);
    corral_sched_destroy(s);
}

Test(rollback, restore_brings_back_a_nested_call_and_a_paused_group)
{
    corral_sched *s = rb_sched(64);
    corral_start_desc o = {.phase = CORRAL_PHASE_UPDATE, .owner = 7, .tags = 0};
    corral_handle p = corral_start_ex(s, &rb_parent_type, &(rb_parent_ctx){4, 0, 0}, sizeof(rb_parent_ctx), &o);
    corral_tick(s, 0.016f);
    corral_co_info info;
    cr_assert(corral_co_info_of(s, p, &info));
    corral_handle child = info.child;
    cr_assert_neq(child.gen, 0, "the parent awaits its child");
    cr_assert_eq(corral_pause_owner(s, 7), 2, "the parent and the child it called, which joined its group");
    size_t n = snap(s);
    uint64_t h0 = corral_state_hash(s);

    cr_assert_eq(corral_resume_owner(s, 7), 2);
    for (int i = 0; i < 6; i++) corral_tick(s, 0.016f);
    cr_assert_not(corral_alive(s, p), "the chain ran to its end");

    cr_assert(corral_restore(s, g_buf, n));
    cr_assert(corral_verify(s));
    cr_assert_eq(corral_state_hash(s), h0);
    cr_assert(corral_alive(s, p));
    cr_assert(corral_alive(s, child));
    cr_assert(corral_paused(s, p), "paused again, as at the snapshot");
    corral_tick(s, 0.016f);
    cr_assert(corral_alive(s, child), "paused: nothing ran");
    cr_assert_eq(corral_resume_owner(s, 7), 2);
    for (int i = 0; i < 6; i++) corral_tick(s, 0.016f);
    cr_assert_not(corral_alive(s, p));
    cr_assert_not(corral_alive(s, child));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(rollback, restore_undoes_raises_completions_and_new_signals)
{
    corral_sched *s = rb_sched(64);
    corral_signal sig = corral_signal_create(s);
    corral_future fut = corral_future_create(s);
    corral_handle w = rb_waiter_start(s, (rb_waiter_ctx){sig, fut, 0});
    size_t n = snap(s);
    uint64_t h0 = corral_state_hash(s);

    cr_assert_eq(corral_signal_raise(s, sig), 1);
    corral_tick(s, 0.016f);
    cr_assert(corral_future_complete(s, fut, (corral_value){.i = 5}));
    corral_tick(s, 0.016f);
    cr_assert_not(corral_alive(s, w));
    cr_assert(corral_future_release(s, fut));
    cr_assert(corral_signal_destroy(s, sig));
    corral_signal later = corral_signal_create(s);
    cr_assert_neq(later.gen, 0);

    cr_assert(corral_restore(s, g_buf, n));
    cr_assert(corral_verify(s));
    cr_assert_eq(corral_state_hash(s), h0);
    cr_assert(corral_alive(s, w));
    cr_assert_eq(((rb_waiter_ctx *)corral_context(s, w, &rb_waiter_type))->stage, 0);
    cr_assert_not(corral_future_done(s, fut), "the future is pending again");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK, "and its handle valid");
    cr_assert_eq(corral_signal_raise(s, later), 0, "a signal made after the snapshot is stale");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_SIGNAL);
    corral_signal again = corral_signal_create(s);
    cr_assert(again.index != later.index || again.gen != later.gen, "a new signal never takes an old handle");
    cr_assert_eq(corral_signal_raise(s, sig), 1, "the old signal is valid and its waiter waits on it");
    corral_tick(s, 0.016f);
    cr_assert_eq(((rb_waiter_ctx *)corral_context(s, w, &rb_waiter_type))->stage, 1);
    corral_sched_destroy(s);
}

static size_t g_in_step_result;
static bool g_in_step_restore;
static corral_error g_in_step_err[2];
static corral_result snapshot_in_step(corral_co *co, struct actor_ctx *ctx)
{
    (void)ctx;
    corral_sched *s = corral_sched_of(co);
    g_in_step_result = corral_snapshot(s, g_buf, sizeof g_buf);
    g_in_step_err[0] = corral_last_error(s);
    g_in_step_restore = corral_restore(s, g_buf, sizeof g_buf);
    g_in_step_err[1] = corral_last_error(s);
    return CORRAL_STOP;
}

Test(rollback, refused_inside_a_step)
{
    corral_sched *s = rb_sched(8);
    g_in_step_result = 1;
    g_in_step_restore = true;
    actor_start(s, (actor_ctx){snapshot_in_step, 0, 0, {0, 0}, NULL});
    cr_assert_eq(g_in_step_result, 0);
    cr_assert_eq(g_in_step_err[0], CORRAL_ERR_IN_TICK);
    cr_assert_not(g_in_step_restore);
    cr_assert_eq(g_in_step_err[1], CORRAL_ERR_IN_TICK);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(rollback, bad_snapshots_are_refused_and_change_nothing)
{
    corral_sched *s = rb_sched(64);
    for (int i = 0; i < 5; i++) rb_walker_start(s, (rb_walker_ctx){i + 1, 0, 0.05f, NULL});
    corral_tick(s, 0.016f);
    size_t n = snap(s);
    corral_tick(s, 0.016f);
    uint64_t now = corral_state_hash(s);

    /* too small a buffer: nothing written */
    memset(g_buf + n, 0xAB, 16);
    cr_assert_eq(corral_snapshot(s, g_buf, 16), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SNAPSHOT_TOO_SMALL);
    n = snap(s);
    corral_tick(s, 0.016f);
    now = corral_state_hash(s);

    /* truncated, damaged header, wrong size */
    cr_assert_not(corral_restore(s, g_buf, n - 1));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert_not(corral_restore(s, g_buf, n + 8));
    g_buf[0] ^= 1;
    cr_assert_not(corral_restore(s, g_buf, n));
    g_buf[0] ^= 1;
    cr_assert_not(corral_restore(s, NULL, n));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    cr_assert_eq(corral_state_hash(s), now, "a refused restore changes nothing");
    cr_assert(corral_verify(s));

    /* another layout: more slots */
    corral_sched *other = rb_sched(128);
    cr_assert_not(corral_restore(other, g_buf, n));
    cr_assert_eq(corral_last_error(other), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert_eq(corral_live_count(other), 0);
    /* the same layout, but it never met the walker type: a snapshot
       brings no type a scheduler does not know */
    corral_sched *same = rb_sched(64);
    cr_assert_not(corral_restore(same, g_buf, n));
    cr_assert(strstr(corral_last_error_detail(same), "it holds types this scheduler has not met (1 against 0): give it desc.registry") != NULL,
              "%s", corral_last_error_detail(same));
    /* the same layout and types: a second scheduler takes it */
    corral_stop(same, rb_walker_start(same, (rb_walker_ctx){0, 0, 0.05f, NULL}));
    cr_assert(corral_restore(same, g_buf, n), "%s", corral_last_error_detail(same));
    cr_assert(corral_verify(same));
    cr_assert_eq(corral_live_count(same), 5);
    cr_assert(corral_restore(s, g_buf, n));
    cr_assert_eq(corral_state_hash(same), corral_state_hash(s));
    corral_sched_destroy(other);
    corral_sched_destroy(same);
    corral_sched_destroy(s);
}

Test(rollback, snapshot_and_restore_allocate_nothing)
{
    alloc_counter ac = {0, 0, 0};
    corral_sched_desc d = counted_one_class_desc(64, 256, &ac);
    d.kept_snapshots = 2;
    corral_sched *s = sched_of(d);
    cr_assert_eq(ac.allocs, 1);
    for (int i = 0; i < 100; i++) rb_walker_start(s, (rb_walker_ctx){i, 0, 0.02f, NULL});
    for (int f = 0; f < 50; f++) {
        size_t n = snap(s);
        cr_assert_eq(corral_snapshot_keep(s, (uint32_t)f & 1u), n);
        corral_tick(s, 0.016f);
        corral_tick(s, 0.016f);
        cr_assert(corral_restore(s, g_buf, n));
        corral_tick(s, 0.016f);
        cr_assert(corral_restore_kept(s, (uint32_t)f & 1u));
        corral_tick(s, 0.016f);
        (void)corral_state_hash(s);
    }
    cr_assert_eq(ac.allocs, 1, "no allocation after create");
    corral_sched_destroy(s);
    cr_assert_eq(ac.frees, 1);
}

/* ---- kept snapshots: a ring in the arena, written and read only by the scheduler */

static corral_sched *rb_kept_sched(uint32_t cap, uint32_t kept)
{
    corral_sched_desc d = one_class_desc(64, cap);
    d.kept_snapshots = kept;
    return sched_of(d);
}

/* A slot free at the snapshot, taken after it and then rewound: the next
   start that takes it gets a generation above the one handed out in the
   abandoned future, so that handle stays stale and never names it. */
Test(rollback, a_slot_free_at_the_snapshot_never_hands_out_a_generation_twice)
{
    for (int kept = 0; kept < 2; kept++) {
        corral_sched *s = rb_kept_sched(8, 1);
        rb_walker_start(s, (rb_walker_ctx){1, 0, 0.05f, NULL});
        corral_handle b = rb_walker_start(s, (rb_walker_ctx){2, 0, 0.05f, NULL});
        cr_assert(corral_stop(s, b)); /* its slot is free at the snapshot */
        size_t n = kept ? corral_snapshot_keep(s, 0) : snap(s);
        cr_assert_gt(n, 0);
        corral_handle c = rb_walker_start(s, (rb_walker_ctx){3, 0, 0.05f, NULL});
        cr_assert_eq(c.index, b.index, "the free slot is taken");
        cr_assert(kept ? corral_restore_kept(s, 0) : corral_restore(s, g_buf, n));
        corral_handle d = rb_walker_start(s, (rb_walker_ctx){4, 0, 0.05f, NULL});
        cr_assert_eq(d.index, c.index, "the same slot again");
        cr_assert_gt(d.gen, c.gen, "above every generation it handed out");
        cr_assert_not(corral_alive(s, c), "the abandoned future's handle is stale");
        cr_assert(corral_alive(s, d));
        corral_sched_destroy(s);
    }
}

/* the same game and inputs every time: walkers, a call, a waiter on a
   signal then a future; frame f's events */
typedef struct rb_game {
    corral_signal sig;
    corral_future fut;
} rb_game;
static void rb_game_build(corral_sched *s, rb_game *g)
{
    g->sig = corral_signal_create(s);
    g->fut = corral_future_create(s);
    for (int i = 1; i <= 6; i++) rb_walker_start(s, (rb_walker_ctx){i, 0, 0.03f * (float)i, NULL});
    rb_parent_start(s, (rb_parent_ctx){5, 0, 0});
    rb_waiter_start(s, (rb_waiter_ctx){g->sig, g->fut, 0});
}
static void rb_game_frame(corral_sched *s, const rb_game *g, int f)
{
    if (f == 3) corral_signal_raise(s, g->sig);
    if (f == 6) corral_future_complete(s, g->fut, (corral_value){.i = f});
    if (f % 4 == 1) rb_walker_start(s, (rb_walker_ctx){10 + f, 0, 0.02f, NULL});
    corral_tick(s, 0.016f);
}

Test(rollback, kept_snapshots_rewind_as_snapshots_do_each_tag_holding_its_frame)
{
    enum { FRAMES = 12, KEPT = 8 };
    corral_sched *s = rb_kept_sched(64, KEPT);
    rb_game g;
    rb_game_build(s, &g);
    uint64_t hash[FRAMES + 8];
    size_t n4 = 0;
    for (int f = 0; f < FRAMES; f++) {
        size_t n = corral_snapshot_keep(s, (uint32_t)f);
        cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
        cr_assert_eq(n, corral_snapshot_size(s), "a kept snapshot is a snapshot");
        if (f == 4) n4 = snap(s); /* the same frame in a caller's buffer */
        hash[f] = corral_state_hash(s);
        rb_game_frame(s, &g, f);
    }
    /* the ring holds at least the last 8 frames, 4 to 11 */
    cr_assert(corral_restore_kept(s, 9), "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), hash[9]);
    for (int f = 9; f < FRAMES; f++) {
        cr_assert_eq(corral_state_hash(s), hash[f], "frame %d replayed from the kept one differs", f);
        rb_game_frame(s, &g, f);
    }
    cr_assert(corral_restore_kept(s, 4), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), hash[4]);
    uint64_t replay[FRAMES];
    for (int f = 4; f < FRAMES; f++) {
        replay[f] = corral_state_hash(s);
        cr_assert_eq(replay[f], hash[f], "frame %d replayed from kept frame 4 differs", f);
        rb_game_frame(s, &g, f);
    }
    /* the caller's copy of frame 4 and the kept one are the same state */
    cr_assert(corral_restore(s, g_buf, n4), "%s", corral_last_error_detail(s));
    for (int f = 4; f < FRAMES; f++) {
        cr_assert_eq(corral_state_hash(s), replay[f], "frame %d from the caller's copy differs", f);
        rb_game_frame(s, &g, f);
    }
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

static corral_sched *g_in_step;
static corral_result rb_keeps_in_step(corral_co *co, actor_ctx *ctx)
{
    (void)co;
    ctx->id = (int)corral_snapshot_keep(g_in_step, 0) + (corral_restore_kept(g_in_step, 0) ? 1 : 0);
    return CORRAL_STOP;
}
Test(rollback, kept_snapshot_refusals_name_the_tag_and_change_nothing)
{
    corral_sched *none = rb_kept_sched(8, 0);
    rb_walker_start(none, (rb_walker_ctx){1, 0, 0.05f, NULL});
    uint64_t h = corral_state_hash(none);
    cr_assert_eq(corral_snapshot_keep(none, 0), 0);
    cr_assert_eq(corral_last_error(none), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert(strstr(corral_last_error_detail(none), "desc.kept_snapshots and desc.kept_bytes are 0"), "%s",
              corral_last_error_detail(none));
    cr_assert_not(corral_restore_kept(none, 0));
    cr_assert_eq(corral_state_hash(none), h);
    corral_sched_destroy(none);

    corral_sched *s = rb_kept_sched(8, 2);
    rb_walker_start(s, (rb_walker_ctx){1, 0, 0.05f, NULL});
    corral_tick(s, 0.016f);
    h = corral_state_hash(s);
    cr_assert_not(corral_restore_kept(s, 1), "nothing kept under 1 yet");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert(strstr(corral_last_error_detail(s), "no snapshot was ever kept under tag 1"), "%s",
              corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h, "nothing changed");
    cr_assert_gt(corral_snapshot_keep(s, 70000), 0, "a tag is any number the game chooses");
    cr_assert_gt(corral_snapshot_keep(s, 0), 0);
    g_in_step = s;
    corral_handle a = start_actor(s, 0, rb_keeps_in_step, (corral_handle){0, 0}, NULL);
    cr_assert_not(corral_alive(s, a));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_IN_TICK, "not between ticks: neither");
    cr_assert(corral_restore_kept(s, 0), "between ticks: rewound");
    cr_assert_eq(corral_state_hash(s), h);
    cr_assert(corral_restore_kept(s, 70000));
    cr_assert_eq(corral_state_hash(s), h);
    corral_sched_destroy(s);
}

/* a ring of exactly `fit` entries of the state s has now: its snapshot
   with its 64-byte entry, rounded to 64 */
static uint32_t rb_ring_for(corral_sched *s, uint32_t fit)
{
    return fit * (uint32_t)((64u + corral_snapshot_size(s) + 63u) & ~(size_t)63u);
}
/* steppers, a game whose snapshot keeps its size: none starts, ends or
   waits on a timer; they save (a registry) */
#define RB_STEP_FIELDS(F) F(int, id) F(int, x)
DECLARE_COROUTINE(rb_step, RB_STEP_FIELDS)
DEFINE_COROUTINE(rb_step)
{
    ctx->x += ctx->id;
    return CORRAL_YIELD;
}
#define RB_STEADY_TYPES(X) X(rb_step, 1, 0)
CORRAL_DECLARE_REGISTRY(rb_steady, RB_STEADY_TYPES)
CORRAL_DEFINE_REGISTRY(rb_steady, RB_STEADY_TYPES);
static corral_sched *rb_steady(uint32_t kept_bytes)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.kept_bytes = kept_bytes;
    d.registry = &rb_steady_registry;
    corral_sched *s = sched_of(d);
    for (int i = 1; i <= 4; i++) rb_step_start(s, (rb_step_ctx){i, 0});
    return s;
}
static uint32_t rb_steady_ring(uint32_t fit)
{
    corral_sched *probe = rb_steady(0);
    uint32_t bytes = rb_ring_for(probe, fit);
    corral_sched_destroy(probe);
    return bytes;
}

Test(rollback, the_kept_ring_drops_the_oldest_first_and_holds_the_newest_that_fit)
{
    corral_sched *s = rb_steady(rb_steady_ring(3));
    size_t n = corral_snapshot_size(s);
    uint64_t hash[6];
    for (uint32_t f = 0; f < 6; f++) {
        cr_assert_eq(corral_snapshot_keep(s, 100 + f), n, "%s", corral_last_error_detail(s));
        cr_assert_eq(corral_snapshot_size(s), n, "the state keeps its size");
        hash[f] = corral_state_hash(s);
        corral_tick(s, 0.016f);
    }
    for (uint32_t f = 5; f >= 3; f--) {
        cr_assert(corral_restore_kept(s, 100 + f), "frame %u is among the 3 newest: %s", f, corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), hash[f]);
    }
    for (uint32_t f = 0; f < 3; f++) {
        cr_assert_not(corral_restore_kept(s, 100 + f), "frame %u was dropped", f);
        char want[64];
        snprintf(want, sizeof want, "kept snapshot %u was dropped", 100 + f);
        cr_assert(strstr(corral_last_error_detail(s), want), "%s", corral_last_error_detail(s));
    }
    /* rewound to 103, the ring holds it alone: 104 and 105 are forgotten,
       and three more fill it again before 103 is dropped */
    cr_assert_not(corral_restore_kept(s, 104));
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 104 was forgotten when the ring was rewound to tag 103"),
              "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_snapshot_keep(s, 106), n);
    cr_assert_eq(corral_snapshot_keep(s, 107), n);
    cr_assert(corral_restore_kept(s, 107), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_snapshot_keep(s, 108), n);
    cr_assert_not(corral_restore_kept(s, 103), "the oldest made room for 108");
    cr_assert(corral_restore_kept(s, 106), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), hash[3], "106 was kept of 103's state");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(rollback, a_dropped_tag_is_refused_in_words_that_say_so_and_changes_nothing)
{
    corral_sched *s = rb_steady(rb_steady_ring(3));
    for (uint32_t f = 0; f < 8; f++) { /* every other frame: 0, 2, ..., 14; 0 to 8 dropped */
        cr_assert_gt(corral_snapshot_keep(s, 2 * f), 0, "%s", corral_last_error_detail(s));
        corral_tick(s, 0.016f);
    }
    const uint64_t h = corral_state_hash(s);
    const uint64_t frame = corral_frame(s);
    cr_assert_not(corral_restore_kept(s, 4));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 4 was dropped, oldest first"), "%s",
              corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h, "nothing changed");
    cr_assert_eq(corral_frame(s), frame);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert_not(corral_restore_kept(s, 15), "past every tag kept");
    cr_assert(strstr(corral_last_error_detail(s), "no snapshot was ever kept under tag 15"), "%s",
              corral_last_error_detail(s));
    cr_assert_not(corral_restore_kept(s, 3), "between dropped tags, never kept itself");
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 3 was dropped") == NULL, "%s", corral_last_error_detail(s));
    cr_assert(strstr(corral_last_error_detail(s), "tag 3: never kept, or dropped"), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h, "nothing changed");
    cr_assert(corral_restore_kept(s, 14), "the newest is there: %s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(rollback, a_tag_kept_again_replaces_its_snapshot_and_drops_nothing)
{
    corral_sched *s = rb_steady(rb_steady_ring(3));
    uint64_t hash[4];
    for (uint32_t f = 1; f <= 3; f++) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0);
        hash[f] = corral_state_hash(s);
        corral_tick(s, 0.016f);
    }
    /* rewound to 2 and played again otherwise: 2 and 3 kept anew */
    cr_assert(corral_restore_kept(s, 2));
    corral_tick(s, 0.05f);
    cr_assert_gt(corral_snapshot_keep(s, 2), 0, "%s", corral_last_error_detail(s));
    const uint64_t two = corral_state_hash(s);
    cr_assert_neq(two, hash[2]);
    corral_tick(s, 0.05f);
    cr_assert_gt(corral_snapshot_keep(s, 3), 0);
    const uint64_t three = corral_state_hash(s);
    corral_tick(s, 0.016f);
    cr_assert(corral_restore_kept(s, 3), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), three);
    cr_assert(corral_restore_kept(s, 2));
    cr_assert_eq(corral_state_hash(s), two, "the new snapshot under 2, not the old");
    cr_assert(corral_restore_kept(s, 1), "the full ring dropped nothing for them: %s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), hash[1]);

    /* one that outgrows its entry is kept anew as the newest */
    rb_step_start(s, (rb_step_ctx){9, 0}); /* a slot more: a larger snapshot */
    cr_assert_gt(corral_snapshot_keep(s, 1), 0, "%s", corral_last_error_detail(s));
    const uint64_t one = corral_state_hash(s);
    corral_tick(s, 0.016f);
    cr_assert(corral_restore_kept(s, 1));
    cr_assert_eq(corral_state_hash(s), one, "the larger one under 1");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* A tag kept again whose snapshot outgrows its place forgets the old one;
   when that one is the oldest it is dropped at once, so the ring's oldest
   entry is always one it holds. One forgotten between others keeps its
   bytes until it is the oldest. */
Test(rollback, a_forgotten_snapshot_that_is_the_oldest_is_dropped_at_once)
{
    corral_sched *s = rb_steady(rb_steady_ring(6));
    const corral__kept *K = corral__kept_of(s);
    for (uint32_t f = 1; f <= 3; f++) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0);
        corral_tick(s, 0.016f);
    }
    rb_step_start(s, (rb_step_ctx){9, 0}); /* a slot more: larger snapshots */
    cr_assert_gt(corral_snapshot_keep(s, 2), 0, "%s", corral_last_error_detail(s));
    cr_assert_eq(K->count, 4, "2 forgotten between 1 and 3 keeps its bytes");
    const uint64_t two = corral_state_hash(s);
    corral_tick(s, 0.016f);
    cr_assert_gt(corral_snapshot_keep(s, 1), 0, "%s", corral_last_error_detail(s));
    const uint64_t one = corral_state_hash(s);
    cr_assert_eq(K->count, 3, "1, the oldest, and the forgotten 2 behind it dropped at once: 3, 2, 1 left");
    cr_assert_eq(corral__kept_entry_at(K, K->oldest)->tag, 3);
    cr_assert(corral__kept_entry_at(K, K->oldest)->live);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore_kept(s, 1), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), one);
    cr_assert(corral_restore_kept(s, 2), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), two);
    cr_assert(corral_restore_kept(s, 3), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);

    /* one forgotten between others is counted by the ring, not by the
       words of a refusal: they count the snapshots it holds */
    s = rb_steady(rb_steady_ring(5));
    K = corral__kept_of(s);
    for (uint32_t f = 1; f <= 6; f++) { /* 6 drops 1 and wraps */
        cr_assert_gt(corral_snapshot_keep(s, f), 0);
        corral_tick(s, 0.016f);
    }
    rb_step_start(s, (rb_step_ctx){9, 0});
    cr_assert_gt(corral_snapshot_keep(s, 5), 0, "%s", corral_last_error_detail(s)); /* drops 2 and 3 */
    cr_assert_eq(K->count, 4, "4, the forgotten 5, 6, 5");
    cr_assert_not(corral_restore_kept(s, 2));
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 2 was dropped, oldest first, to make room for newer ones "
                                                  "(the ring holds 3 in "),
              "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* An entry whose next newer one wrapped to the ring's start may grow in
   place into the spare bytes after it, up to the ring's end: kept again
   larger there, it keeps its place and age and drops nothing. */
Test(rollback, a_snapshot_kept_again_grows_in_place_into_the_spare_bytes_where_the_ring_wraps)
{
    const uint32_t one = rb_steady_ring(1);
    corral_sched *s = rb_steady(4u * one - 64u); /* 3 fit, and one less 64 B spare at the end */
    const corral__kept *K = corral__kept_of(s);
    uint64_t hash[5];
    for (uint32_t f = 1; f <= 4; f++) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0, "%s", corral_last_error_detail(s));
        hash[f] = corral_state_hash(s);
        corral_tick(s, 0.016f);
    }
    /* 1 dropped, 4 wrapped to the start: 2, 3, then 4 at 0 */
    cr_assert_eq(K->count, 3);
    cr_assert_eq(K->newest, 0u);
    const uint32_t at3 = corral__kept_entry_at(K, K->oldest)->next;
    cr_assert_eq(corral__kept_entry_at(K, at3)->tag, 3);
    cr_assert_eq(corral__kept_entry_at(K, at3)->next, 0u, "3's next wrapped");
    cr_assert_eq(at3 + one, 3u * one, "3 ends one less 64 B before the ring does");

    rb_step_start(s, (rb_step_ctx){9, 0}); /* a slot more: a larger snapshot */
    const size_t n = corral_snapshot_size(s);
    const uint32_t need = (uint32_t)((n + 64 + 63) & ~(size_t)63);
    cr_assert_gt(need, one, "it outgrows its entry");
    cr_assert_leq(need, 2u * one - 64u, "and fits before the ring's end");
    cr_assert_eq(corral_snapshot_keep(s, 3), n, "%s", corral_last_error_detail(s));
    hash[3] = corral_state_hash(s);
    cr_assert_eq(K->count, 3, "nothing dropped");
    cr_assert_eq(corral__kept_entry_at(K, K->oldest)->next, at3, "in its place, with its age");
    cr_assert_eq(corral__kept_entry_at(K, at3)->span, need, "grown into the spare bytes");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    for (uint32_t f = 4; f >= 2; f--) { /* newest first: a kept restore forgets what came after it */
        cr_assert(corral_restore_kept(s, f), "%u: %s", f, corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), hash[f], "%u", f);
    }
    corral_sched_destroy(s);
}

/* The largest snapshot a scheduler can make: every slot live and asleep,
   every node, side record, signal and future taken. */
#define RB_FULL_FIELDS(F) F(float, nap) F(corral_signal, sig) F(int, deep)
DECLARE_COROUTINE(rb_full, RB_FULL_FIELDS)
DEFINE_COROUTINE(rb_full)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_WAIT_SECONDS(co, ctx->nap);
        CORRAL_WAIT_SIGNAL(co, ctx->sig);
    }
    CORRAL_END(co);
}
Test(rollback, a_snapshot_larger_than_the_ring_is_refused_with_both_sizes_and_changes_nothing)
{
    enum { CAP = 300 };
    corral_sched_desc d = one_class_desc(64, CAP);
    d.kept_snapshots = 1;
    d.max_wait_nodes = CAP;
    d.max_signals = 4;
    d.max_futures = 4;
    d.max_side_records = 8;
    corral_sched *s = sched_of(d);
    corral_signal sig[4];
    for (int i = 0; i < 4; i++) sig[i] = corral_signal_create(s);
    for (int i = 0; i < 4; i++) corral_future_create(s);
    cr_assert_gt(corral_snapshot_keep(s, 1), 0, "a small state fits the default ring");
    const uint64_t h1 = corral_state_hash(s);
    for (int i = 0; i < CAP; i++) rb_full_start(s, (rb_full_ctx){10.0f, sig[i % 4], 0});
    cr_assert_eq(corral_live_count(s), CAP, "every slot");
    const size_t n = corral_snapshot_size(s);
    const uint64_t h = corral_state_hash(s);
    cr_assert_eq(corral_snapshot_keep(s, 2), 0, "a full scheduler's snapshot is past the default ring");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SNAPSHOT_TOO_SMALL);
    char want[96];
    snprintf(want, sizeof want, "takes %zu B", (n + 64 + 63) & ~(size_t)63);
    cr_assert(strstr(corral_last_error_detail(s), want), "%s", corral_last_error_detail(s));
    const char *holds = strstr(corral_last_error_detail(s), "the ring holds ");
    unsigned long long ring = 0;
    cr_assert(holds && sscanf(holds, "the ring holds %llu B", &ring) == 1, "%s", corral_last_error_detail(s));
    corral_sched_desc d0 = d;
    d0.kept_snapshots = 0;
    const size_t cost = corral_sched_memory_size(&d) - corral_sched_memory_size(&d0);
    cr_assert(ring + 128 <= cost && cost < ring + 128 + 64, "the ring's %llu B and its header are what it costs (%zu B)",
              ring, cost);
    cr_assert_eq(corral_state_hash(s), h, "nothing changed");
    cr_assert(corral_restore_kept(s, 1), "the one kept before is still there: %s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h1);
    corral_sched_destroy(s);

    /* a ring given the bytes holds it */
    d.kept_bytes = (uint32_t)(n + 64);
    s = sched_of(d);
    for (int i = 0; i < 4; i++) sig[i] = corral_signal_create(s);
    for (int i = 0; i < 4; i++) corral_future_create(s);
    for (int i = 0; i < CAP; i++) rb_full_start(s, (rb_full_ctx){10.0f, sig[i % 4], 0});
    cr_assert_eq(corral_snapshot_keep(s, 0), n, "%s", corral_last_error_detail(s));
    uint64_t full = corral_state_hash(s);
    corral_tick(s, 11.0f);
    cr_assert_neq(corral_state_hash(s), full);
    cr_assert(corral_restore_kept(s, 0));
    cr_assert_eq(corral_state_hash(s), full);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* A ring given too few bytes to hold even the new scheduler's snapshot
   (and its 64-byte entry) would refuse every keep: create refuses it and
   names the least it takes; the least holds a keep. kept_snapshots sizes
   nothing when kept_bytes is given. */
static void rb_least_ring(corral_sched_desc d, corral_sched *(*create)(const corral_sched_desc *))
{
    d.kept_snapshots = 0;
    d.kept_bytes = 0;
    corral_sched *fresh = create(&d);
    cr_assert_not_null(fresh);
    const size_t least = (corral_snapshot_size(fresh) + 64 + 63) & ~(size_t)63;
    corral_sched_destroy(fresh);

    d.kept_bytes = (uint32_t)(least - 64);
    cr_assert_null(create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
    char want[96];
    snprintf(want, sizeof want, "desc.kept_bytes under %zu B holds no snapshot", least);
    cr_assert(strstr(corral_last_error_detail(NULL), want), "%s", corral_last_error_detail(NULL));
    cr_assert_eq(corral_sched_memory_size(&d), 0);
    d.kept_bytes = 64;
    cr_assert_null(create(&d));

    d.kept_bytes = (uint32_t)(least - 63); /* rounded up to 64: the least */
    d.kept_snapshots = 0x10000;             /* unused beside kept_bytes */
    corral_sched *s = create(&d);
    cr_assert_not_null(s, "%s", corral_last_error_detail(NULL));
    cr_assert_eq(corral_snapshot_keep(s, 1), corral_snapshot_size(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore_kept(s, 1), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);

    d.kept_bytes = 0; /* the default's product is bounded */
    cr_assert_null(create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_TOO_LARGE);
}
Test(rollback, a_ring_too_small_for_a_new_schedulers_snapshot_is_refused_at_create_with_the_least)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d); /* the default classes, every part */
    rb_least_ring(d, corral_sched_create);
    rb_least_ring(d, corral_sched_create_min); /* no part: the pools alone */
    d = one_class_desc(64, 300);
    d.max_signals = 5;
    d.max_futures = 3;
    d.max_side_records = 7;
    d.max_channels = 3;
    rb_least_ring(d, corral_sched_create);
}

/* a ring one entry long: each keep drops the one before and takes the
   start again */
Test(rollback, a_ring_one_entry_long_holds_the_newest_and_names_the_one_before_dropped)
{
    corral_sched *s = rb_steady(rb_steady_ring(1));
    cr_assert_gt(corral_snapshot_keep(s, 1), 0u, "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);
    cr_assert_gt(corral_snapshot_keep(s, 2), 0u, "%s", corral_last_error_detail(s));
    const uint64_t h = corral_state_hash(s);
    corral_tick(s, 0.016f);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert_not(corral_restore_kept(s, 1));
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 1 was dropped"), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore_kept(s, 2), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h);
    corral_sched_destroy(s);
}

/* the only snapshot, kept again larger than its entry: taken back and
   appended again at the ring's start */
Test(rollback, the_only_snapshot_kept_again_larger_takes_the_ring_again)
{
    corral_sched *s = rb_steady(rb_steady_ring(3));
    const size_t small = corral_snapshot_keep(s, 5);
    cr_assert_gt(small, 0u, "%s", corral_last_error_detail(s));
    for (int i = 0; i < 6; i++) rb_step_start(s, (rb_step_ctx){10 + i, 0});
    const size_t large = corral_snapshot_keep(s, 5);
    cr_assert_gt(large, small + 64u, "it grew past its entry (%zu -> %zu)", small, large);
    const uint64_t h = corral_state_hash(s);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);
    cr_assert(corral_restore_kept(s, 5), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h, "the larger one");
    corral_sched_destroy(s);
}

/* the newest, wrapped to the ring's start, kept again larger: taken back
   (the end goes back to where the one before it ends), the oldest dropped
   to make room, and kept at the start again */
Test(rollback, the_newest_wrapped_to_the_start_kept_again_larger_drops_the_oldest)
{
    corral_sched *s = rb_steady(rb_steady_ring(3));
    uint64_t hash[4];
    for (uint32_t f = 0; f < 4; f++) { /* 0, 1, 2 fill the ring; 3 drops 0 and wraps */
        cr_assert_gt(corral_snapshot_keep(s, f), 0u, "%s", corral_last_error_detail(s));
        hash[f] = corral_state_hash(s);
        corral_tick(s, 0.016f);
    }
    cr_assert_not(corral_restore_kept(s, 0), "dropped for 3");
    cr_assert(corral_restore_kept(s, 3), "%s", corral_last_error_detail(s));
    for (int i = 0; i < 6; i++) rb_step_start(s, (rb_step_ctx){10 + i, 0});
    cr_assert_gt(corral_snapshot_keep(s, 3), 0u, "%s", corral_last_error_detail(s));
    const uint64_t h3 = corral_state_hash(s);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);
    cr_assert_not(corral_restore_kept(s, 1), "the oldest made room");
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 1 was dropped"), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore_kept(s, 3), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h3, "the larger one");
    cr_assert(corral_restore_kept(s, 2), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), hash[2]);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* the docs' sizing: a ring of n + 1 entries of the largest snapshot holds
   the last n of a rollback loop whose frames, played again with the
   inputs that arrived late, keep snapshots now larger, now smaller than
   the first time (a kept restore forgets what was kept after it, so no
   forgotten snapshot stays in the ring, and age follows the frames) */
enum { RB_LOOP_N = 4, RB_LOOP_FRAMES = 60 };
static corral_sched *rb_loop_sched(uint32_t kept_bytes)
{
    corral_sched_desc d = one_class_desc(64, 256);
    d.kept_bytes = kept_bytes;
    return sched_of(d);
}
/* a coroutine that sleeps a frame and ends: the timer heap's length, and
   with it the snapshot's size, follows how many a frame starts */
#define RB_NAP_FIELDS(F) F(int, f)
DECLARE_COROUTINE(rb_nap, RB_NAP_FIELDS)
DEFINE_COROUTINE(rb_nap)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAMES(co, 1);
    CORRAL_END(co);
}
/* frame f's inputs, the play-th time it is played: up to 200 naps (all of
   them at frame 0, so that every slot and node a later frame takes was
   taken before and only the heap's length changes the size) */
static void rb_loop_frame(corral_sched *s, uint32_t f, uint32_t play)
{
    uint64_t x = (f + 1u) * 0x9E3779B97F4A7C15ull + play * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    const uint32_t naps = f == 0 ? 200u : (uint32_t)(x % 201u);
    for (uint32_t i = 0; i < naps; i++) rb_nap_start(s, (rb_nap_ctx){(int)f});
}
/* every 5th frame, the input of the frame n back arrives: rewound there
   and played again. The largest snapshot kept, or 0 with the words
   of the first refusal in why. */
static size_t rb_rollback_loop(corral_sched *s, char *why, size_t cap)
{
    size_t largest = 0;
    uint32_t plays[RB_LOOP_FRAMES] = {0};
    for (uint32_t now = 0; now < RB_LOOP_FRAMES; now++) {
        uint32_t from = now;
        if (now % 5 == 4) {
            from = now - RB_LOOP_N; /* the oldest of the n kept before now */
            if (!corral_restore_kept(s, from)) {
                snprintf(why, cap, "frame %u: %u is among the last %d: %s", now, from, RB_LOOP_N, corral_last_error_detail(s));
                return 0;
            }
        }
        for (uint32_t f = from; f <= now; f++) { /* kept at its start, as a rollback loop keeps frames */
            const size_t n = corral_snapshot_keep(s, f);
            if (!n) {
                snprintf(why, cap, "frame %u: %s", f, corral_last_error_detail(s));
                return 0;
            }
            largest = n > largest ? n : largest;
            const corral__kept *K = corral__kept_of(s);
            uint32_t at = K->oldest;
            for (uint32_t i = 0; i < K->count; i++, at = corral__kept_entry_at(K, at)->next)
                if (!corral__kept_entry_at(K, at)->live) {
                    snprintf(why, cap, "frame %u: a forgotten snapshot is still in the ring", f);
                    return 0;
                }
            rb_loop_frame(s, f, plays[f]++);
            corral_tick(s, 0.016f);
        }
    }
    return largest;
}
Test(rollback, a_ring_of_n_plus_1_of_the_largest_snapshot_holds_the_last_n_of_a_rollback_loop)
{
    char why[256] = "";
    corral_sched *probe = rb_loop_sched(0);
    const uint32_t ring = (uint32_t)corral_sched_memory_size(&(corral_sched_desc){0}); /* room enough */
    corral_sched_destroy(probe);
    probe = rb_loop_sched(ring);
    const size_t largest = rb_rollback_loop(probe, why, sizeof why);
    cr_assert_gt(largest, 0u, "%s", why);
    corral_sched_destroy(probe);
    const uint32_t entry = (uint32_t)((largest + 64u + 63u) & ~(size_t)63u);
    corral_sched *s = rb_loop_sched((RB_LOOP_N + 1) * entry);
    cr_assert_gt(rb_rollback_loop(s, why, sizeof why), 0u, "%s", why);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* The default ring: kept_snapshots x (twice the new scheduler's snapshot
   and 64 bytes, rounded up to 64), so 8 snapshots of a small game in a large arena
   fit, and cost at most twice their own bytes. */
Test(rollback, the_default_ring_holds_kept_snapshots_of_a_small_game_at_twice_their_bytes_at_most)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d); /* the default classes: a large arena */
    corral_sched *fresh = sched_of(d);
    const size_t empty = corral_snapshot_size(fresh);
    corral_sched_destroy(fresh);
    corral_sched_desc none = d;
    d.kept_snapshots = 8;
    const size_t ring = corral_sched_memory_size(&d) - corral_sched_memory_size(&none);
    const size_t each = (2 * empty + 64 + 63) & ~(size_t)63;
    cr_assert(8 * each + 128 <= ring && ring < 8 * each + 128 + 64,
              "twice the new scheduler's snapshot and 64 B, rounded up to 64, 8 times, and the ring's header: %zu B", ring);

    corral_sched *s = sched_of(d);
    for (int i = 1; i <= 12; i++) rb_walker_start(s, (rb_walker_ctx){i, 0, 0.03f, NULL});
    corral_tick(s, 0.016f);
    const size_t n = corral_snapshot_size(s);
    cr_assert_leq(ring, 2 * 8 * n, "%zu B of ring for 8 snapshots of %zu B", ring, n);
    uint64_t hash[8];
    for (uint32_t f = 0; f < 8; f++) {
        cr_assert_gt(corral_snapshot_keep(s, 1000 + f), 0, "%s", corral_last_error_detail(s));
        hash[f] = corral_state_hash(s);
        corral_tick(s, 0.016f);
    }
    for (uint32_t f = 8; f-- > 0;) { /* newest first: a kept restore forgets what came after it */
        cr_assert(corral_restore_kept(s, 1000 + f), "all 8 held: %s", corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), hash[f]);
    }
    corral_sched_destroy(s);
}

/* a game of 400 steppers on the default ring of 8, sized from the empty
   scheduler: fewer fit, and the first drop that leaves fewer than 8 is
   told to the logger once, as a warning, with the desc.kept_bytes that
   holds 8; with that, all 8 are held and nothing is said */
static corral_sched *rb_big(uint32_t kept_bytes, log_capture *log, int steppers)
{
    corral_sched_desc d = one_class_desc(64, 512);
    d.kept_snapshots = 8;
    d.kept_bytes = kept_bytes;
    d.registry = &rb_steady_registry;
    d.logger = (corral_logger){capture_log, log};
    corral_sched *s = sched_of(d);
    for (int i = 1; i <= steppers; i++) rb_step_start(s, (rb_step_ctx){i, 0});
    return s;
}

Test(rollback, a_ring_that_holds_fewer_than_kept_snapshots_says_so_with_the_bytes_that_hold_them)
{
    log_capture log = {0};
    corral_sched *s = rb_big(0, &log, 400);
    uint64_t hash[12];
    for (uint32_t f = 0; f < 12; f++) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0, "a keep that drops goes on: %s", corral_last_error_detail(s));
        hash[f] = corral_state_hash(s);
        corral_tick(s, 0.016f);
    }
    cr_assert_eq(log.count, 1, "said once, not at every keep: %d", log.count);
    cr_assert_eq(log.level, CORRAL_LOG_WARNING);
    cr_assert_eq(log.last, CORRAL_ERR_SNAPSHOT_TOO_SMALL);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK, "a warning is no error");
    const char *at = strstr(log.message, "desc.kept_bytes >= ");
    cr_assert(strstr(log.message, "corral_snapshot_keep: the kept ring dropped a snapshot and holds ") &&
                  strstr(log.message, "fewer than desc.kept_snapshots (8)") && at,
              "%s", log.message);
    const unsigned long long want = strtoull(at + strlen("desc.kept_bytes >= "), NULL, 10);
    cr_assert_gt(want, 0u);
    cr_assert_not(corral_restore_kept(s, 4), "the default ring does not hold the 8th newest");
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 4 was dropped to make room: the ring has held fewer than ") &&
                  strstr(corral_last_error_detail(s), "desc.kept_snapshots (8) in "),
              "%s", corral_last_error_detail(s));
    cr_assert_eq(log.count, 2, "the refusal is an error, logged");
    corral_sched_destroy(s);

    log_capture quiet = {0};
    s = rb_big((uint32_t)want, &quiet, 400);
    for (uint32_t f = 0; f < 12; f++) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0, "%s", corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), hash[f], "the same game");
        corral_tick(s, 0.016f);
    }
    cr_assert_eq(quiet.count, 0, "%s", quiet.message);
    for (uint32_t f = 12; f-- > 4;) { /* newest first: a kept restore forgets what came after it */
        cr_assert(corral_restore_kept(s, f), "the 8 newest held: %s", corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), hash[f]);
    }
    cr_assert_eq(quiet.count, 0, "%s", quiet.message);
    corral_sched_destroy(s);
}

/* the figure a warning or a refusal gives, read off its words */
static unsigned long long rb_figure(const char *words)
{
    const char *at = strstr(words, "desc.kept_bytes >= ");
    cr_assert(at, "%s", words);
    return strtoull(at + strlen("desc.kept_bytes >= "), NULL, 10);
}

/* a game that grows by 4 steppers a frame up to 512, each frame kept */
static void rb_grow(corral_sched *s, uint32_t frames, uint64_t *hash, log_capture *log, unsigned long long *figure,
                    int *warnings)
{
    for (uint32_t f = 0; f < frames; f++) {
        for (int i = 0; i < 4 && corral_live_count(s) < 512; i++) rb_step_start(s, (rb_step_ctx){(int)f + 1, 0});
        cr_assert_gt(corral_snapshot_keep(s, f), 0, "%s", corral_last_error_detail(s));
        hash[f] = corral_state_hash(s);
        if (log && log->count != *warnings) {
            const unsigned long long now = rb_figure(log->message);
            cr_assert_gt(now, *figure, "told again only with a larger figure: %s", log->message);
            *figure = now;
            *warnings = log->count;
        }
        corral_tick(s, 0.016f);
    }
}

Test(rollback, a_growing_game_is_told_again_as_it_outgrows_the_figure_and_the_last_figure_holds_it)
{
    log_capture log = {0};
    corral_sched *s = rb_big(0, &log, 300);
    uint64_t hash[64], again[64];
    unsigned long long figure = 0;
    int warnings = 0;
    rb_grow(s, 64, hash, &log, &figure, &warnings);
    cr_log_info("a growing game: %d warnings, the last %llu B", warnings, figure);
    cr_assert_geq(warnings, 2, "the snapshots grew by more than an eighth: told again (%d)", warnings);
    cr_assert_leq(warnings, 5, "not at every keep: %d", warnings);
    corral_sched_destroy(s);

    log_capture quiet = {0};
    s = rb_big((uint32_t)figure, &quiet, 300);
    unsigned long long none = 0;
    int told = 0;
    rb_grow(s, 64, again, &quiet, &none, &told);
    cr_assert_eq(quiet.count, 0, "the last figure holds the whole game: %s", quiet.message);
    for (uint32_t f = 64; f-- > 64 - 8;) {
        cr_assert(corral_restore_kept(s, f), "the 8 newest held: %s", corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), hash[f]);
    }
    corral_sched_destroy(s);
}

Test(rollback, a_tag_played_again_after_a_rewind_and_then_dropped_is_said_to_be_dropped)
{
    corral_sched *s = rb_steady(rb_steady_ring(3));
    for (uint32_t f = 0; f < 5; f++) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0);
        corral_tick(s, 0.016f);
    }
    cr_assert(corral_restore_kept(s, 2), "%s", corral_last_error_detail(s)); /* 3 and 4 forgotten */
    cr_assert_not(corral_restore_kept(s, 3));
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 3 was forgotten when the ring was rewound to tag 2"), "%s",
              corral_last_error_detail(s));
    for (uint32_t f = 3; f < 7; f++) { /* played again: 3 and 4 kept again, then dropped for 5 and 6 */
        cr_assert_gt(corral_snapshot_keep(s, f), 0);
        corral_tick(s, 0.016f);
    }
    cr_assert_not(corral_restore_kept(s, 3));
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 3 was dropped"), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore_kept(s, 4), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* a fat coroutine: 64 of them make a snapshot several times larger */
typedef struct rb_pad {
    int v[40];
} rb_pad;
#define RB_FAT_FIELDS(F) F(int, n) F(rb_pad, pad)
DECLARE_COROUTINE(rb_fat, RB_FAT_FIELDS)
DEFINE_COROUTINE(rb_fat)
{
    ctx->n++;
    return CORRAL_YIELD;
}

/* tags from, from + step, ... to kept, a tick after each */
static void rb_keep_frames(corral_sched *s, uint32_t from, uint32_t to, uint32_t step)
{
    for (uint32_t f = from; f <= to; f += step) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0, "tag %u: %s", f, corral_last_error_detail(s));
        corral_tick(s, 0.016f);
    }
}

/* tag k refused as dropped oldest first, and the ring's size not blamed */
static void rb_refused_as_dropped(corral_sched *s, uint32_t k)
{
    char want[64];
    snprintf(want, sizeof want, "kept snapshot %u was dropped, oldest first", k);
    cr_assert_not(corral_restore_kept(s, k));
    cr_assert(strstr(corral_last_error_detail(s), want) && !strstr(corral_last_error_detail(s), "desc.kept_bytes"),
              "a drop the ring's size did not make: %s", corral_last_error_detail(s));
}

/* fat coroutines' desc: one class of 512 slots of 256 bytes, `kept`
   snapshots kept, warnings and errors into log */
static corral_sched_desc rb_fat_desc(uint32_t kept, log_capture *log)
{
    corral_sched_desc d = one_class_desc(256, 512);
    d.kept_snapshots = kept;
    d.logger = (corral_logger){capture_log, log};
    return d;
}

Test(rollback, a_keep_that_drops_two_while_holding_kept_snapshots_is_told_and_a_ring_never_short_is_not_blamed)
{
    /* 3 kept: 64 fat coroutines from frame 10 (stopped at 11, but the
       pages they took stay in the snapshots); the ring's layout then has
       the keep of frame 12 drop two snapshots while it held 3, leaving 2 */
    log_capture log = {0};
    corral_sched_desc d = rb_fat_desc(3, &log);
    d.kept_bytes = 100352;
    corral_sched *s = sched_of(d);
    corral_handle fat[64];
    for (uint32_t f = 0; f <= 12; f++) {
        if (f == 10)
            for (int i = 0; i < 64; i++) fat[i] = rb_fat_start(s, (rb_fat_ctx){0, {{0}}});
        if (f == 11)
            for (int i = 0; i < 64; i++) corral_stop(s, fat[i]);
        cr_assert_gt(corral_snapshot_keep(s, f), 0, "%s", corral_last_error_detail(s));
        corral_tick(s, 0.016f);
    }
    cr_assert_geq(log.count, 1, "the ring was left with fewer than 3: told");
    cr_assert(strstr(log.message, "dropped a snapshot and holds 2, fewer than desc.kept_snapshots (3)"), "%s", log.message);
    corral_sched_destroy(s);

    /* a ring that holds 3 of these snapshots and a bit: never short, so a
       tag dropped in the ordinary way, after a rewind, is not blamed on its size */
    log_capture quiet = {0};
    corral_sched *probe = rb_steady(0);
    const uint32_t each = (uint32_t)((64u + corral_snapshot_size(probe) + 63u) & ~(size_t)63u);
    corral_sched_destroy(probe);
    d = one_class_desc(64, 16);
    d.registry = &rb_steady_registry;
    d.kept_snapshots = 3;
    d.kept_bytes = 3 * each + 64;
    d.logger = (corral_logger){capture_log, &quiet};
    s = sched_of(d);
    for (int i = 1; i <= 4; i++) rb_step_start(s, (rb_step_ctx){i, 0});
    rb_keep_frames(s, 0, 9, 1);
    cr_assert_eq(quiet.count, 0, "%s", quiet.message);
    cr_assert(corral_restore_kept(s, 8), "%s", corral_last_error_detail(s)); /* 9 forgotten: the ring holds 2 now */
    rb_refused_as_dropped(s, 6);
    corral_sched_destroy(s);
}

Test(rollback, tags_played_again_in_steps_of_two_after_a_rewind_and_then_dropped_are_said_to_be_dropped)
{
    corral_sched *s = rb_steady(rb_steady_ring(3));
    rb_keep_frames(s, 0, 8, 2); /* every other frame kept */
    cr_assert(corral_restore_kept(s, 4), "%s", corral_last_error_detail(s)); /* 6 and 8 forgotten */
    rb_keep_frames(s, 6, 14, 2); /* kept again, then 6 and 8 dropped for 10 to 14 */
    cr_assert_not(corral_restore_kept(s, 8));
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 8 was dropped"), "%s", corral_last_error_detail(s));
    cr_assert_not(corral_restore_kept(s, 6));
    cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 6 was dropped"), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(rollback, a_ring_short_for_a_moment_does_not_blame_its_size_for_a_tag_further_back_than_kept_snapshots)
{
    /* a ring of 4 small snapshots and 3 kept: a mispredicted frame spawns
       64 fat coroutines and is kept (told), the rollback undoes it, and
       36 frames later a restore 10 frames back is the game's own ask */
    log_capture log = {0};
    corral_sched_desc d = rb_fat_desc(3, &log);
    corral_sched *s = sched_of(d);
    corral_tick(s, 0.016f);
    const uint32_t each = (uint32_t)((64u + corral_snapshot_size(s) + 63u) & ~(size_t)63u);
    corral_sched_destroy(s);
    d.kept_bytes = 4 * each;
    s = sched_of(d);
    rb_keep_frames(s, 0, 3, 1);
    for (int i = 0; i < 64; i++) rb_fat_start(s, (rb_fat_ctx){0, {{0}}});
    cr_assert_gt(corral_snapshot_keep(s, 4), 0);
    cr_assert_eq(log.count, 1, "the ring ran short: told (%s)", log.message);
    cr_assert(corral_restore_kept(s, 3), "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);
    rb_keep_frames(s, 4, 39, 1);
    cr_assert(corral_restore_kept(s, 37), "the third newest: %s", corral_last_error_detail(s));
    rb_refused_as_dropped(s, 30); /* 10 frames back is not the ring's size */
    corral_sched_destroy(s);
}

Test(rollback, a_short_ring_whose_snapshots_no_kept_bytes_can_hold_says_to_keep_fewer)
{
    log_capture log = {0};
    corral_sched_desc d = rb_fat_desc(65535, &log);
    d.kept_bytes = 1u << 20;
    corral_sched *s = sched_of(d);
    for (int i = 0; i < 512; i++) rb_fat_start(s, (rb_fat_ctx){i, {{0}}});
    rb_keep_frames(s, 0, 11, 1);
    cr_assert_geq(log.count, 1);
    cr_assert(strstr(log.message, "no desc.kept_bytes holds them (they take ") && strstr(log.message, "keep fewer"), "%s",
              log.message);
    corral_sched_destroy(s);
}

static unsigned char g_ring_snap[1 << 16];

Test(rollback, a_snapshot_moves_between_schedulers_that_differ_only_in_their_kept_ring)
{
    corral_sched *ringed = rb_steady(rb_steady_ring(3)), *bare = rb_steady(0), *other = rb_steady(rb_steady_ring(5));
    for (int f = 0; f < 4; f++) corral_tick(ringed, 0.016f);
    cr_assert_gt(corral_snapshot_keep(ringed, 7), 0);
    const uint64_t h = corral_state_hash(ringed);
    const size_t n = corral_snapshot(ringed, g_ring_snap, sizeof g_ring_snap);
    cr_assert_gt(n, 0u, "%s", corral_last_error_detail(ringed));
    cr_assert(corral_restore(bare, g_ring_snap, n), "no ring: %s", corral_last_error_detail(bare));
    cr_assert_eq(corral_state_hash(bare), h);
    cr_assert(corral_restore(other, g_ring_snap, n), "another ring: %s", corral_last_error_detail(other));
    cr_assert_eq(corral_state_hash(other), h);
    cr_assert(corral_verify(bare) && corral_verify(other), "%s", corral_last_error_detail(other));
    /* each keeps its own ring: the bare one has none, the other one is empty */
    cr_assert_eq(corral_snapshot_keep(bare, 1), 0u);
    cr_assert(strstr(corral_last_error_detail(bare), "no kept snapshots"), "%s", corral_last_error_detail(bare));
    cr_assert_not(corral_restore_kept(other, 7), "its ring never kept 7");
    corral_tick(bare, 0.016f);
    const size_t m = corral_snapshot(bare, g_ring_snap, sizeof g_ring_snap);
    cr_assert(corral_restore(ringed, g_ring_snap, m), "back: %s", corral_last_error_detail(ringed));
    cr_assert(corral_restore_kept(ringed, 7), "its ring is its own: %s", corral_last_error_detail(ringed));
    cr_assert_eq(corral_state_hash(ringed), h);
    corral_sched_destroy(ringed);
    corral_sched_destroy(bare);
    corral_sched_destroy(other);
}

Test(rollback, kept_snapshots_survive_restores_and_loads)
{
    corral_sched *s = rb_steady(rb_steady_ring(4));
    cr_assert_gt(corral_snapshot_keep(s, 1), 0);
    const uint64_t h1 = corral_state_hash(s);
    corral_tick(s, 0.016f);
    cr_assert_gt(corral_snapshot_keep(s, 2), 0);
    const uint64_t h2 = corral_state_hash(s);
    corral_tick(s, 0.016f);
    size_t n = snap(s);
    const uint64_t h3 = corral_state_hash(s);
    static unsigned char save[1 << 16];
    const size_t saved = corral_save(s, save, sizeof save);
    cr_assert_gt(saved, 0, "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);

    cr_assert(corral_restore(s, g_buf, n));
    cr_assert_eq(corral_state_hash(s), h3);
    cr_assert(corral_restore_kept(s, 2), "after a restore: %s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h2);
    cr_assert(corral_restore_kept(s, 1), "after a kept restore");
    cr_assert_eq(corral_state_hash(s), h1);
    cr_assert(corral_restore_kept(s, 1), "again: a kept frame can be restored any number of times");
    cr_assert_eq(corral_state_hash(s), h1);
    cr_assert(corral_load(s, save, saved), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h3);
    cr_assert(corral_restore_kept(s, 1), "after a load: %s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), h1);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* Random keeps and restores over states of changing size, with tags
   kept again in and out of order: a restore gives back exactly the state
   last kept under its tag or is refused and changes nothing; the newest
   is always there; the ring never holds more than its bytes allow. */
static uint64_t rb_xorshift(uint64_t *x); /* the model-based test's, below */
Test(rollback, random_keeps_and_restores_give_back_what_each_tag_holds)
{
    enum { TAGS = 12, ROUNDS = 2000, SEEDS = 8 };
    const uint32_t ring = rb_steady_ring(5);
    uint32_t held = 0, refused = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        corral_sched *s = rb_steady(ring);
        uint64_t hash[TAGS] = {0}, x = seed * 0x9E3779B97F4A7C15ull;
        bool ever[TAGS] = {false};
        corral_handle h[16];
        uint32_t live = 0;
        for (int r = 0; r < ROUNDS; r++) {
            const uint32_t what = (uint32_t)(rb_xorshift(&x) % 10u), tag = (uint32_t)(rb_xorshift(&x) % TAGS);
            if (what < 3) {
                const size_t n = corral_snapshot_keep(s, tag);
                cr_assert_gt(n, 0, "round %d: %s", r, corral_last_error_detail(s));
                hash[tag] = corral_state_hash(s);
                ever[tag] = true;
                cr_assert(corral_restore_kept(s, tag), "the newest is there");
                cr_assert_eq(corral_state_hash(s), hash[tag]);
            } else if (what < 6) {
                if (live < 12 && (live < 2 || (rb_xorshift(&x) & 1u)))
                    h[live++] = rb_step_start(s, (rb_step_ctx){(int)r, 0});
                else if (live)
                    corral_stop(s, h[--live]); /* stale after a restore: refused, and that is fine */
            } else if (what < 7) {
                corral_tick(s, 0.016f);
            } else {
                const uint64_t before = corral_state_hash(s);
                if (corral_restore_kept(s, tag)) {
                    cr_assert(ever[tag]);
                    cr_assert_eq(corral_state_hash(s), hash[tag], "round %d: tag %u gave back another state", r, tag);
                    held++;
                } else {
                    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
                    cr_assert_eq(corral_state_hash(s), before, "a refusal changes nothing");
                    if (!ever[tag]) /* never said to be dropped */
                        cr_assert_null(strstr(corral_last_error_detail(s), "was dropped"), "%s", corral_last_error_detail(s));
                    refused++;
                }
            }
            cr_assert(corral_verify(s), "round %d: %s", r, corral_last_error_detail(s));
        }
        corral_sched_destroy(s);
    }
    cr_assert_gt(held, 400u, "restores found their tags");
    cr_assert_gt(refused, 100u, "and some were dropped");
}

Test(rollback, a_snapshot_grows_with_the_live_state_not_the_capacity)
{
    corral_sched *big = rb_sched(100000), *small = rb_sched(1000);
    for (int i = 0; i < 10; i++) {
        rb_walker_start(big, (rb_walker_ctx){i, 0, 0.05f, NULL});
        rb_walker_start(small, (rb_walker_ctx){i, 0, 0.05f, NULL});
    }
    corral_tick(big, 0.016f);
    corral_tick(small, 0.016f);
    size_t nb = corral_snapshot_size(big), ns = corral_snapshot_size(small);
    size_t arena = corral_sched_memory_size(&(corral_sched_desc){.classes = {{64, 100000}}});
    cr_log_info("10 live: snapshot %zu B with 10^5 slots (arena %zu B), %zu B with 10^3", nb, arena, ns);
    cr_assert_lt(nb, arena / 50, "the snapshot is not the arena");
    cr_assert_lt(nb, ns + 4 * 1024, "100x the capacity costs little: the page table");
    /* stop them all: the pages are untouched again, the snapshot shrinks */
    corral_sched_destroy(big);
    corral_sched_destroy(small);
}

Test(rollback, the_hash_sees_fields_not_pointers_padding_or_generations)
{
    int sink_a = 0, sink_b = 0;
    corral_sched *a = rb_sched(16), *b = rb_sched(16);
    rb_walker_start(a, (rb_walker_ctx){1, 0, 0.05f, &sink_a});
    rb_walker_start(b, (rb_walker_ctx){1, 0, 0.05f, &sink_b});
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b), "pointer fields do not count");
    /* a slot reused more often in b: another generation, the same state */
    for (int i = 0; i < 3; i++) corral_stop(b, rb_walker_start(b, (rb_walker_ctx){9, 0, 0.05f, NULL}));
    corral_handle ha = rb_walker_start(a, (rb_walker_ctx){2, 0, 0.05f, NULL});
    corral_handle hb = rb_walker_start(b, (rb_walker_ctx){2, 0, 0.05f, NULL});
    cr_assert_eq(ha.index, hb.index);
    cr_assert_neq(ha.gen, hb.gen);
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    ((rb_walker_ctx *)corral_context(b, hb, &rb_walker_type))->x += 1;
    cr_assert_neq(corral_state_hash(a), corral_state_hash(b), "a field differs");
    ((rb_walker_ctx *)corral_context(b, hb, &rb_walker_type))->x -= 1;
    corral_tick(a, 0.016f);
    cr_assert_neq(corral_state_hash(a), corral_state_hash(b), "a frame differs");
    corral_tick(b, 0.016f);
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* ---- model-based: roll back at random points, replay, compare */

static uint64_t rb_xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

#define RB_MAX_AHEAD 48
/* Play a sequence; every so often snapshot (with the model), play up to
   RB_MAX_AHEAD operations recording the state hash after each, restore
   both, check the model agrees and the handles born since are stale, then
   replay the same operations: every hash must match. -1, or the failing
   operation. */
static long rb_model_run(uint64_t seed, size_t len, char *why, size_t cap, uint64_t *rollbacks)
{
    static uint8_t data[1 << 14];
    static model M, saved, ahead;
    static int saved_ends[MODEL_RECS];
    static corral_handle saved_h[MODEL_RECS];
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    len += seed & 1u;
    if (len > sizeof data) len = sizeof data;
    for (size_t i = 0; i < len; i++) data[i] = (uint8_t)(rb_xorshift(&x) >> 24);
    if (!model_open(&M, len, why, cap)) return 0;
    model_in in = {data, len, 0};
    long op = 0;
    bool ok = true;
    while (ok && in.at < in.n) {
        if (rb_xorshift(&x) % 32u == 0) {
            size_t n = corral_snapshot(M.s, g_buf, sizeof g_buf);
            if (!n) {
                ok = model_fail(&M, "snapshot failed: %s", corral_error_str(corral_last_error(M.s)));
                break;
            }
            saved = M;
            memcpy(saved_ends, g_model_ends, sizeof saved_ends);
            memcpy(saved_h, g_model_h, sizeof saved_h);
            size_t at = in.at;
            uint64_t hashes[RB_MAX_AHEAD];
            int k = 0, want = 1 + (int)(rb_xorshift(&x) % RB_MAX_AHEAD);
            for (; ok && k < want && in.at < in.n; k++) {
                ok = model_op(&M, &in);
                hashes[k] = corral_state_hash(M.s);
            }
            if (!ok) break;
            ahead = M;
            if (!corral_restore(M.s, g_buf, n)) {
                ok = model_fail(&M, "restore failed: %s", corral_error_str(corral_last_error(M.s)));
                break;
            }
            corral_sched *s = M.s;
            M = saved;
            M.s = s;
            memcpy(g_model_ends, saved_ends, sizeof saved_ends);
            memcpy(g_model_h, saved_h, sizeof saved_h);
            ok = model_check(&M);
            for (int i = 0; ok && i < MODEL_RECS; i++) { /* born in the abandoned future: stale */
                const model_rec *r = &ahead.r[i];
                bool same = saved.r[i].used && saved.r[i].h.index == r->h.index && saved.r[i].h.gen == r->h.gen;
                if (r->used && !same && corral_alive(s, r->h))
                    ok = model_fail(&M, "record %d born after the snapshot is alive after the restore", i);
            }
            in.at = at;
            for (int i = 0; ok && i < k; i++) {
                ok = model_op(&M, &in);
                if (ok && corral_state_hash(M.s) != hashes[i])
                    ok = model_fail(&M, "replayed operation %d of %d: the state differs from the first run", i + 1, k);
            }
            if (rollbacks) ++*rollbacks;
            op += k;
            continue;
        }
        ok = model_op(&M, &in);
        if (ok) op++;
    }
    ok = model_close(&M, ok);
    return ok ? -1 : op;
}

Test(rollback, random_sequences_rolled_back_and_replayed_agree, .timeout = 600)
{
    const char *one = getenv("CORRAL_ROLLBACK_SEED");
    const char *n_env = getenv("CORRAL_ROLLBACK_SEEDS");
    uint64_t seeds = n_env ? strtoull(n_env, NULL, 10) : 150u, rollbacks = 0;
    char why[256];
    for (uint64_t seed = one ? strtoull(one, NULL, 10) : 1; seed <= (one ? strtoull(one, NULL, 10) : seeds); seed++) {
        long at = rb_model_run(seed, 4000, why, sizeof why, &rollbacks);
        cr_assert_eq(at, -1, "seed %llu failed at operation %ld: %s (replay: CORRAL_ROLLBACK_SEED=%llu)",
                     (unsigned long long)seed, at, why, (unsigned long long)seed);
    }
    cr_log_info("rollback model: %llu sequences, %llu rollbacks", (unsigned long long)seeds,
                (unsigned long long)rollbacks);
}
