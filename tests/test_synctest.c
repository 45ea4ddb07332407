/*
    test_synctest.c -- the sync test (API.md, "The sync test"): a
    deterministic game that waits on every kind of wait (frames, seconds,
    realtime, a signal, a future, a join, a call, an all and an any, a
    predicate, a channel's send and receive, a semaphore, a pull, a race)
    runs 240 frames with every frame's last 8 played again, and nothing is
    reported; a step that reads rand() and one that reads a context field
    its start never set (the frame's stack) are each caught at once, with
    their frame, and described; a ring too small for the
    frames played again is refused by name; nothing is allocated.
*/
#include "common.h"

#include <stdlib.h>

/* ---- the game: every coroutine below runs from its inputs and its state */
typedef struct st_input {
    uint8_t raise, complete, release; /* signal raised, future completed (once), semaphore permit given */
} st_input;

typedef struct st_world {
    corral_signal sig;
    corral_future fut;
    corral_channel ch;
    corral_semaphore sem;
    int bad;                /* 1: rand() in a step, 2: a field its start never set, 3: a count outside the state */
    uint32_t calls;
} st_world;
static st_world g_w;

#define ST_CHILD_FIELDS(F) F(int, n)
DECLARE_COROUTINE_R(st_child, ST_CHILD_FIELDS, int)
DEFINE_COROUTINE(st_child)
{
    CORRAL_BEGIN(co);
    while (ctx->result < ctx->n) {
        ctx->result++;
        CORRAL_WAIT_FRAMES(co, 2);
    }
    CORRAL_END(co);
}

#define ST_GEN_FIELDS(F) F(int, i)
DECLARE_COROUTINE_R(st_gen, ST_GEN_FIELDS, int)
DEFINE_COROUTINE(st_gen)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 1000; ctx->i++) {
        CORRAL_WAIT_FRAMES(co, 1);
        CORRAL_YIELD_VALUE(co, ctx->i * 3);
    }
    CORRAL_END(co);
}

static bool st_over(void *user) { return *(const int *)user >= 3; }

/* one actor of each kind, by ctx->kind; ctx->n counts what it got */
#define ST_ACTOR_FIELDS(F) \
    F(int, kind)           \
    F(int, n)              \
    F(int, got)            \
    F(int, value)          \
    F(corral_handle, other)
DECLARE_COROUTINE(st_actor, ST_ACTOR_FIELDS)
DEFINE_COROUTINE(st_actor)
{
    CORRAL_BEGIN(co);
    for (;;) {
        if (ctx->kind == 0) {
            CORRAL_WAIT_FRAMES(co, (uint32_t)(1 + ctx->n % 3));
        } else if (ctx->kind == 1) {
            CORRAL_WAIT_SECONDS(co, 0.05f * (float)(1 + ctx->n % 4));
        } else if (ctx->kind == 2) {
            CORRAL_WAIT_REALTIME(co, 0.07f);
        } else if (ctx->kind == 3) {
            CORRAL_WAIT_SIGNAL(co, g_w.sig);
        } else if (ctx->kind == 4) {
            CORRAL_WAIT_FUTURE(co, g_w.fut);
            ctx->n += 2;
            CORRAL_WAIT_FRAMES(co, 5);
        } else if (ctx->kind == 5) {
            ctx->other = st_child_start(corral_sched_of(co), (st_child_ctx){.n = 2});
            CORRAL_WAIT_JOIN(co, ctx->other);
        } else if (ctx->kind == 6) {
            CORRAL_CALL(co, st_child, (st_child_ctx){.n = 3}, &ctx->got);
        } else if (ctx->kind == 7) {
            corral_wait ws[2] = {corral_wait_signal(g_w.sig), corral_wait_frames(4)};
            CORRAL_WAIT_ANY(co, ws, 2);
        } else if (ctx->kind == 8) {
            corral_wait ws[2] = {corral_wait_frames(2), corral_wait_seconds(0.1f)};
            CORRAL_WAIT_ALL(co, ws, 2);
        } else if (ctx->kind == 9) {
            CORRAL_WAIT_UNTIL(co, st_over, &ctx->got);
            ctx->got = 0;
        } else if (ctx->kind == 10) {
            ctx->value = ctx->n;
            CORRAL_SEND(co, g_w.ch, &ctx->value);
            CORRAL_WAIT_FRAMES(co, 1);
        } else if (ctx->kind == 11) {
            CORRAL_RECEIVE(co, g_w.ch, &ctx->value);
        } else if (ctx->kind == 12) {
            CORRAL_ACQUIRE(co, g_w.sem);
        } else if (ctx->kind == 13) {
            if (!ctx->other.gen) ctx->other = st_gen_gen(corral_sched_of(co), (st_gen_ctx){0});
            CORRAL_PULL(co, ctx->other, &ctx->value);
        } else if (ctx->kind == 14) {
            CORRAL_RACE(co, st_child_arm(co, (st_child_ctx){.n = 1 + ctx->n % 2}, &ctx->got),
                        st_child_arm(co, (st_child_ctx){.n = 2}, &ctx->got));
        } else {
            CORRAL_WAIT_FRAME(co);
        }
        ctx->n++;
        if (ctx->kind == 9 || ctx->kind == 0) ctx->got++;
        if (g_w.bad == 1 && ctx->kind == 0) ctx->n += rand() % 2; /* not from its state or input */
        if (g_w.bad == 3 && ctx->kind == 2 && corral_frame(corral_sched_of(co)) >= 50)
            ctx->n += (int)(g_w.calls++); /* a count kept outside the state, from frame 50 on */
        if (ctx->kind == 15) { /* started by the frame (st_frame) with its value never set */
            ctx->n += ctx->value & 1;
            if (ctx->n > 3) break;
        }
    }
    CORRAL_END(co);
}

/* one frame of the game: its input, then a tick of a fixed 1/60 s */
static void st_frame(corral_sched *s, const void *input, void *user)
{
    (void)user;
    const st_input *in = (const st_input *)input;
    if (in->raise) corral_signal_raise(s, g_w.sig);
    if (in->complete && !corral_future_done(s, g_w.fut)) corral_future_complete(s, g_w.fut, (corral_value){.i = 7});
    if (in->release) corral_semaphore_release(s, g_w.sem, 1);
    if (g_w.bad == 2 && in->raise) { /* an actor whose value is whatever the frame's stack held */
        volatile int unset[16];
        st_actor_start(s, (st_actor_ctx){.kind = 15, .value = unset[corral_frame(s) % 16u]});
    }
    corral_tick(s, 1.0f / 60.0f);
}

static alloc_counter g_ac;
static corral_sched *st_game(uint32_t kept)
{
    memset(&g_ac, 0, sizeof g_ac);
    corral_sched_desc d = counted_one_class_desc(128, 256, &g_ac);
    d.kept_snapshots = kept;
    d.max_wait_nodes = 256;
    corral_sched *s = sched_of(d);
    g_w.sig = corral_signal_create(s);
    g_w.fut = corral_future_create(s);
    g_w.ch = corral_channel_create_ex(s, sizeof(int), 2);
    g_w.sem = corral_semaphore_create(s, 0);
    for (int k = 0; k < 16; k++)
        for (int copy = 0; copy < 2; copy++) st_actor_start(s, (st_actor_ctx){.kind = k, .n = copy});
    return s;
}

static st_input st_input_of(uint64_t f)
{
    st_input in = {(uint8_t)(f % 7 == 3), (uint8_t)(f % 11 == 5), (uint8_t)(f % 3 == 1)};
    return in;
}

static unsigned char g_inputs[(CORRAL_SYNCTEST_MAX_FRAMES + 1) * sizeof(st_input)];

static void st_begin(corral_synctest *t, corral_sched *s, uint32_t frames)
{
    corral_synctest_desc d;
    memset(&d, 0, sizeof d);
    d.frames = frames;
    d.input_size = sizeof(st_input);
    d.memory = g_inputs;
    d.memory_size = sizeof g_inputs;
    d.frame = st_frame;
    cr_assert_leq(corral_synctest_memory_size(frames, sizeof(st_input)), sizeof g_inputs);
    cr_assert(corral_synctest_begin(t, s, &d), "%s", corral_last_error_detail(s));
}

/* the game under the sync test (8 frames played again) until it reports
   or 240 frames pass: the frame it stopped at; the flaw it ran with off */
static uint64_t st_run(corral_synctest *t, corral_sched *s)
{
    st_begin(t, s, 8);
    uint64_t f = 0;
    for (; f < 240; f++) {
        const st_input in = st_input_of(f);
        if (!corral_synctest_frame(t, &in)) break;
    }
    g_w.bad = 0;
    return f;
}

Test(synctest, a_deterministic_game_of_every_wait_kind_plays_every_frame_again_and_agrees)
{
    g_w.bad = 0;
    corral_sched *s = st_game(9);
    corral_synctest t;
    st_begin(&t, s, 8);
    cr_assert_eq(g_ac.allocs, 1, "the block");
    for (uint64_t f = 0; f < 240; f++) {
        const st_input in = st_input_of(f);
        cr_assert(corral_synctest_frame(&t, &in), "frame %llu: %s (desynced %d at %llu)", (unsigned long long)f,
                  corral_last_error_detail(s), t.desynced, (unsigned long long)t.desync.frame);
    }
    cr_assert_eq(g_ac.allocs, 1, "nothing allocated after create");
    cr_assert_not(t.desynced);
    cr_assert_eq(t.frames_run, 240u);
    cr_assert_eq(t.frames_played_again, 240u * 8u - (8u * 7u) / 2u, "every frame played again 8 times (the first 7 fewer)");
    /* it played: every kind of actor got somewhere */
    uint32_t cur = 0;
    corral_co_info in;
    int kinds_moved = 0;
    while (corral_next_co(s, &cur, &in))
        if (in.type == &st_actor_type && ((const st_actor_ctx *)in.ctx)->n > 2) kinds_moved++;
    cr_assert_geq(kinds_moved, 28, "%d actors of 32 moved past their start", kinds_moved);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(synctest, a_step_that_reads_rand_is_caught_at_once_with_its_frame)
{
    g_w.bad = 1;
    srand(1);
    corral_sched *s = st_game(9);
    corral_synctest t;
    const uint64_t f = st_run(&t, s);
    cr_assert(t.desynced, "caught");
    cr_assert_lt(f, 4u, "in the first frames (%llu)", (unsigned long long)f);
    cr_assert_leq(t.desync.frame, f);
    cr_assert_neq(t.desync.want, t.desync.got);
    cr_assert_eq(t.desync.depth, (uint32_t)(f - t.desync.frame + 1u));
    const st_input in = st_input_of(f + 1);
    cr_assert_not(corral_synctest_frame(&t, &in), "a test that desynced runs no more frames");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DESC);
    corral_sched_destroy(s);
}

Test(synctest, a_step_that_reads_a_local_it_never_set_is_caught)
{
    g_w.bad = 2;
    corral_sched *s = st_game(9);
    corral_synctest t;
    const uint64_t f = st_run(&t, s);
    cr_assert(t.desynced, "caught in %llu frames", (unsigned long long)f);
    cr_assert_neq(t.desync.want, t.desync.got);
    corral_sched_destroy(s);
}

Test(synctest, a_ring_too_small_or_a_desc_out_of_range_is_refused_by_name)
{
    g_w.bad = 0;
    corral_sched *s = st_game(3); /* 3 snapshots kept: not 8 + 1 */
    corral_synctest t;
    st_begin(&t, s, 8);
    bool ok = true;
    for (uint64_t f = 0; f < 40 && ok; f++) {
        const st_input in = st_input_of(f);
        ok = corral_synctest_frame(&t, &in);
    }
    cr_assert_not(ok, "the ring drops the snapshots the test rewinds to");
    cr_assert_not(t.desynced, "no desync is claimed");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT, "%s", corral_last_error_detail(s));
    corral_synctest_desc d;
    memset(&d, 0, sizeof d);
    d.frame = st_frame;
    d.frames = CORRAL_SYNCTEST_MAX_FRAMES + 1;
    cr_assert_not(corral_synctest_begin(&t, s, &d));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DESC);
    d.frames = 4;
    d.input_size = 4;
    d.memory = g_inputs;
    d.memory_size = 4 * 4; /* 5 inputs needed */
    cr_assert_not(corral_synctest_begin(&t, s, &d));
    cr_assert(strstr(corral_last_error_detail(s), "corral_synctest_memory_size"), "%s", corral_last_error_detail(s));
    d.frame = NULL;
    cr_assert_not(corral_synctest_begin(&t, s, &d));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    corral_sched_destroy(s);
}

/* the sync test's desync in words: its frame played once more beside the
   run it stopped at, in a scratch scheduler of the same desc */
static unsigned char g_snap[1 << 20];
static bool st_describe(int bad, char *why, size_t cap)
{
    corral_sched *scratch = st_game(0); /* the same handles (the same calls in a fresh block); no kept ring */
    g_w.bad = bad;
    corral_sched *s = st_game(9);
    corral_synctest t;
    st_run(&t, s);
    cr_assert(t.desynced);
    g_w.bad = bad; /* the flaw on again for the frame played once more */
    const long plays = g_ac.allocs;
    const bool found = corral_synctest_describe(&t, scratch, g_snap, sizeof g_snap, why, cap);
    g_w.bad = 0;
    cr_assert_eq(g_ac.allocs, plays, "nothing allocated");
    corral_sched_destroy(s);
    corral_sched_destroy(scratch);
    return found;
}

Test(synctest, the_desync_it_finds_is_said_in_words_for_a_step_that_reads_rand)
{
    srand(3);
    char why[512];
    cr_assert(st_describe(1, why, sizeof why), "%s", why);
    cr_log_info("sync test, rand(): %s", why);
    cr_assert(strstr(why, "coroutine st_actor 0x") && strstr(why, "test_synctest.c:") && strstr(why, ": field n is "),
              "%s", why);
}

Test(synctest, the_desync_it_finds_is_said_in_words_for_a_field_never_set)
{
    char why[512];
    const bool found = st_describe(2, why, sizeof why);
    cr_log_info("sync test, unset field: %s", why);
    cr_assert(found, "%s", why);
    cr_assert(strstr(why, "coroutine st_actor 0x") && (strstr(why, ": field value is ") || strstr(why, ": field n is ")),
              "%s", why);
}

Test(synctest, describe_refuses_without_a_desync_or_with_the_scheduler_itself_and_says_a_short_buffer)
{
    g_w.bad = 0;
    corral_sched *s = st_game(9);
    corral_synctest t;
    st_begin(&t, s, 8);
    const st_input in = st_input_of(0);
    cr_assert(corral_synctest_frame(&t, &in));
    char why[256];
    cr_assert_not(corral_synctest_describe(&t, s, g_snap, sizeof g_snap, why, sizeof why));
    cr_assert(strstr(corral_last_error_detail(s), "no desync to describe"), "%s", corral_last_error_detail(s));
    t.desynced = true; /* as if: the scheduler itself as scratch, then a buffer too short */
    cr_assert_not(corral_synctest_describe(&t, s, g_snap, sizeof g_snap, why, sizeof why));
    cr_assert(strstr(corral_last_error_detail(s), "scratch is the scheduler under test"), "%s", corral_last_error_detail(s));
    corral_sched *scratch = st_game(9);
    cr_assert_not(corral_synctest_describe(&t, scratch, g_snap, 64, why, sizeof why));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SNAPSHOT_TOO_SMALL, "%s", why);
    cr_assert(why[0], "the words give the error");
    corral_sched_destroy(scratch);
    corral_sched_destroy(s);
}

/* ---- a desync's cause: two schedulers fed the same frames */

static volatile unsigned g_junk_sum;
__attribute__((noinline)) static void st_dirty_stack(void)
{
    volatile unsigned char junk[4096];
    for (int i = 0; i < 4096; i++) junk[i] = (unsigned char)(i * 37 + 11);
    g_junk_sum = junk[(g_junk_sum + 1u) % 4096u];
}

/* the two games run together frame by frame until their hashes differ:
   that frame, or -1 */
static int st_lockstep(corral_sched *a, corral_sched *b, int frames, bool dirty_b)
{
    for (int f = 0; f < frames; f++) {
        const st_input in = st_input_of((uint64_t)f);
        st_frame(a, &in, NULL);
        if (dirty_b) st_dirty_stack();
        st_frame(b, &in, NULL);
        if (corral_state_hash(a) != corral_state_hash(b)) return f;
    }
    return -1;
}

static corral_state_piece g_pa[128], g_pb[128];

Test(synctest, the_pieces_name_the_coroutine_and_the_description_its_field_for_a_step_that_reads_rand)
{
    g_w.bad = 1;
    srand(2);
    corral_sched *a = st_game(1);
    st_world wa = g_w;
    corral_sched *b = st_game(1); /* the same handles: the same calls in a fresh block */
    cr_assert(memcmp(&wa, &g_w, sizeof wa) == 0);
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    const size_t na0 = corral_state_pieces(a, g_pa, 128), nb0 = corral_state_pieces(b, g_pb, 128);
    cr_assert_geq(na0, 1u + 32u + 1u + 4u, "the clocks, 32 actors and what they started, the order and 4 pools");
    cr_assert_lt(na0, 128u);
    cr_assert_eq(g_pa[0].kind, CORRAL_PIECE_CLOCKS);
    cr_assert_eq(g_pa[1].kind, CORRAL_PIECE_COROUTINE);
    cr_assert_eq(g_pa[na0 - 5].kind, CORRAL_PIECE_ORDER);
    for (uint32_t p = 0; p < 4; p++) cr_assert(g_pa[na0 - 4 + p].kind == CORRAL_PIECE_POOL && g_pa[na0 - 4 + p].index == p);
    cr_assert_eq(corral_state_pieces_diff(g_pa, na0, g_pb, nb0), na0, "alike at the start");
    char why[512];
    cr_assert_not(corral_desync_describe(a, b, why, sizeof why));
    cr_assert_str_eq(why, "");
    const int f = st_lockstep(a, b, 60, false);
    g_w.bad = 0;
    cr_assert_geq(f, 0, "rand() sets them apart");
    const size_t na = corral_state_pieces(a, g_pa, 128), nb = corral_state_pieces(b, g_pb, 128);
    const size_t at = corral_state_pieces_diff(g_pa, na, g_pb, nb);
    cr_assert_lt(at, na);
    cr_assert_eq(g_pa[at].kind, CORRAL_PIECE_COROUTINE, "a coroutine's piece, not the clocks'");
    corral_type_stats ts;
    cr_assert(corral_stats_type(a, g_pa[at].type, &ts));
    cr_assert_str_eq(ts.name, "st_actor", "the piece names its type without the state");
    cr_assert_eq(g_pb[at].type, g_pa[at].type, "both peers number their types alike");
    cr_assert_eq(g_pa[0].type, 0u);
    corral_co_info in;
    cr_assert(corral_co_info_of(a, (corral_handle){g_pa[at].index, 1}, &in));
    cr_assert_eq(((const st_actor_ctx *)in.ctx)->kind, 0, "the actor that reads rand()");
    cr_assert(corral_desync_describe(a, b, why, sizeof why));
    cr_log_info("rand(): %s", why);
    cr_assert(strstr(why, "coroutine st_actor 0x") && strstr(why, "test_synctest.c:") && strstr(why, ": field n is "),
              "%s", why);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* a frame played again through a deeper call, its stack first dirtied */
__attribute__((noinline)) static void st_frame_deeper(corral_sched *s, const st_input *in)
{
    st_dirty_stack();
    volatile unsigned char pad[256];
    pad[0] = 1;
    st_frame(s, in, NULL);
    (void)pad[0];
}

static unsigned char g_first[1 << 20];

Test(synctest, the_description_names_the_field_a_step_set_from_a_local_it_never_set)
{
    /* each frame: kept, run, its state taken; rewound and run again from
       another call path; the first that differs restored beside it into a
       second scheduler and described */
    g_w.bad = 2;
    corral_sched *a = st_game(2), *b = st_game(2);
    char why[512] = "";
    bool found = false;
    for (uint64_t f = 0; f < 240 && !found; f++) {
        const st_input in = st_input_of(f);
        cr_assert_gt(corral_snapshot_keep(a, (uint32_t)f), 0u);
        st_frame(a, &in, NULL);
        const uint64_t want = corral_state_hash(a);
        const size_t n = corral_snapshot(a, g_first, sizeof g_first);
        cr_assert_gt(n, 0u, "%s", corral_last_error_detail(a));
        cr_assert(corral_restore_kept(a, (uint32_t)f));
        st_frame_deeper(a, &in);
        if (corral_state_hash(a) == want) continue;
        cr_assert(corral_restore(b, g_first, n), "%s", corral_last_error_detail(b)); /* the first run's state */
        found = corral_desync_describe(b, a, why, sizeof why);
        cr_assert(found, "the hashes differ: so do the states");
    }
    g_w.bad = 0;
    cr_assert(found, "the stack each run finds sets them apart");
    cr_log_info("unset local: %s", why);
    cr_assert(strstr(why, "coroutine st_actor 0x") && (strstr(why, ": field value is ") || strstr(why, ": field n is ")),
              "the field never set, or the one the step set from it: %s", why);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(synctest, the_description_names_the_clocks_a_coroutine_only_one_has_and_a_pool)
{
    g_w.bad = 0;
    corral_sched *a = st_game(1), *b = st_game(1);
    char why[512];
    corral_tick(a, 1.0f / 60.0f);
    cr_assert(corral_desync_describe(a, b, why, sizeof why));
    cr_assert(strstr(why, "the clocks: frame 1 against 0"), "%s", why);
    corral_tick(b, 1.0f / 60.0f);
    cr_assert_not(corral_desync_describe(a, b, why, sizeof why), "%s", why);
    st_child_start(a, (st_child_ctx){.n = 9});
    cr_assert(corral_desync_describe(a, b, why, sizeof why));
    cr_assert(strstr(why, "coroutine st_child 0x") && strstr(why, "is only in the first"), "%s", why);
    st_child_start(b, (st_child_ctx){.n = 9});
    cr_assert_not(corral_desync_describe(a, b, why, sizeof why), "%s", why);
    corral_signal extra = corral_signal_create(b);
    corral_signal_set(b, extra);
    cr_assert(corral_desync_describe(a, b, why, sizeof why));
    cr_assert(strstr(why, "the signals"), "%s", why);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(synctest, a_count_kept_outside_the_state_is_caught_at_the_frame_it_first_counts_at_depth_one)
{
    g_w.bad = 3;
    g_w.calls = 0;
    corral_sched *s = st_game(9);
    corral_synctest t;
    const uint64_t f = st_run(&t, s);
    cr_assert(t.desynced);
    /* the realtime actor next wakes at or after frame 50 (corral_frame 50 is
       the 50th frame's tick, frame 49 counted from the test's begin) */
    cr_assert_eq(t.desync.frame, f, "the frame that first counted, in its first replay");
    cr_assert_eq(t.desync.depth, 1u, "the newest frame: its first run counted once, its replay again");
    cr_assert_geq(f, 49u);
    cr_assert_leq(f, 49u + 5u, "the realtime actor wakes every 5 frames (0.07 s at 1/60)");
    corral_sched_destroy(s);
}

#define ST_FLOAT_FIELDS(F) F(float, x) F(corral_handle, h) F(int, k)
DECLARE_COROUTINE(st_float, ST_FLOAT_FIELDS)
DEFINE_COROUTINE(st_float) { return CORRAL_YIELD; }

Test(synctest, the_description_names_a_float_to_its_last_bit_and_a_handle_by_what_it_names)
{
    corral_sched *a = sched_of(one_class_desc(64, 8)), *b = sched_of(one_class_desc(64, 8));
    char why[512];
    st_float_start(a, (st_float_ctx){.x = 1.0f, .k = 1});
    st_float_start(b, (st_float_ctx){.x = 1.00000012f, .k = 1}); /* one bit apart */
    cr_assert(corral_desync_describe(a, b, why, sizeof why));
    cr_assert(strstr(why, ": field x is 1 against 1.0000001192092896"), "%s", why);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
    /* a handle that names the same coroutine under another generation is
       alike (the hash takes its index and liveness); the field after it is
       the one named */
    a = sched_of(one_class_desc(64, 8));
    b = sched_of(one_class_desc(64, 8));
    corral_stop(b, st_float_start(b, (st_float_ctx){0})); /* b's slot 0 a generation on */
    const corral_handle ta = st_float_start(a, (st_float_ctx){0}), tb = st_float_start(b, (st_float_ctx){0});
    cr_assert_eq(ta.index, tb.index);
    cr_assert_neq(ta.gen, tb.gen);
    st_float_start(a, (st_float_ctx){.h = ta, .k = 1});
    st_float_start(b, (st_float_ctx){.h = tb, .k = 2});
    cr_assert(corral_desync_describe(a, b, why, sizeof why));
    cr_assert(strstr(why, ": field k is 1 against 2"), "%s", why);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* a body with named points: the description says the point by name, and
   still does after a save and a load, which carry the point's name but not
   the line of another build */
#define ST_NAMED_FIELDS(F) F(int, n) F(int, late)
#define ST_NAMED_POINTS(P) P(resting) P(walking)
DECLARE_COROUTINE(st_named, ST_NAMED_FIELDS)
DEFINE_COROUTINE_AT(st_named, ST_NAMED_POINTS)
{
    CORRAL_BEGIN_AT(co, ST_NAMED_POINTS);
    while (ctx->n < 1000) {
        ctx->n++;
        if (!ctx->late) CORRAL_WAIT_FRAMES_AT(co, resting, 3);
        CORRAL_WAIT_FRAMES_AT(co, walking, 3);
    }
    CORRAL_END(co);
}
#define ST_NAMED_TYPES(X) X(st_named, 1, 0)
CORRAL_DECLARE_REGISTRY(st_named_reg, ST_NAMED_TYPES)
CORRAL_DEFINE_REGISTRY(st_named_reg, ST_NAMED_TYPES);

static corral_sched *st_named_sched(void)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.registry = &st_named_reg_registry;
    return sched_of(d);
}

static unsigned char g_save_a[4096], g_save_b[4096];

Test(synctest, the_description_names_a_named_point_and_keeps_it_through_a_save_and_a_load)
{
    corral_sched *a = st_named_sched(), *b = st_named_sched();
    char why[512];
    st_named_start(a, (st_named_ctx){.n = 0});
    st_named_start(b, (st_named_ctx){.n = 5});
    corral_tick(a, 1.0f / 60.0f);
    corral_tick(b, 1.0f / 60.0f);
    cr_assert(corral_desync_describe(a, b, why, sizeof why));
    cr_log_info("named point: %s", why);
    cr_assert(strstr(why, "coroutine st_named 0x000000:1 at point resting, test_synctest.c:") &&
                  strstr(why, "(waiting on frames): field n is 1 against 6"),
              "%s", why);

    const size_t na = corral_save(a, g_save_a, sizeof g_save_a), nb = corral_save(b, g_save_b, sizeof g_save_b);
    cr_assert(na && nb, "%s", corral_last_error_detail(a));
    corral_sched *la = st_named_sched(), *lb = st_named_sched();
    cr_assert(corral_load(la, g_save_a, na), "%s", corral_last_error_detail(la));
    cr_assert(corral_load(lb, g_save_b, nb), "%s", corral_last_error_detail(lb));
    cr_assert(corral_desync_describe(la, lb, why, sizeof why));
    cr_log_info("named point, loaded: %s", why);
    cr_assert(strstr(why, "coroutine st_named 0x000000:1 at point resting") && strstr(why, ": field n is 1 against 6"),
              "%s", why);

    /* a live state against a loaded one: a named point has no line after a
       load, and the field is still the difference named */
    cr_assert(corral_desync_describe(a, lb, why, sizeof why));
    cr_log_info("named point, live against loaded: %s", why);
    cr_assert(strstr(why, ": field n is 1 against 6"), "%s", why);

    /* alike but for where each waits: the point is the difference named */
    corral_sched *c = st_named_sched();
    st_named_start(c, (st_named_ctx){.n = 0, .late = 1});
    corral_tick(c, 1.0f / 60.0f);
    cr_assert(corral_desync_describe(a, c, why, sizeof why));
    cr_log_info("named point, two points: %s", why);
    cr_assert(strstr(why, "st_named 0x000000:1 at point resting, test_synctest.c:") &&
                  strstr(why, ": at point resting against walking"),
              "%s", why);
    corral_sched_destroy(c);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
    corral_sched_destroy(la);
    corral_sched_destroy(lb);
}
