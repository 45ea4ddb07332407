/* test_hostile.c -- saves and snapshots as hostile input: a crafted or
   foreign file is refused before it writes anything. */
#include "common.h"
#include "hostile/games.h"

#include <math.h>

static unsigned char g_buf[1 << 16];

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
/* the one place the 12 bytes {a, b, c} (little-endian u32s) stand */
static size_t find3(const unsigned char *p, size_t n, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned char want[12];
    put32(want, a);
    put32(want + 4, b);
    put32(want + 8, c);
    size_t at = (size_t)-1;
    int found = 0;
    for (size_t i = 0; i + 12 <= n; i++)
        if (!memcmp(p + i, want, 12)) {
            at = i;
            found++;
        }
    cr_assert_eq(found, 1, "the pattern stands once in the save (%d)", found);
    return at;
}

/* ---- a call whose result goes to a field too small for it */

typedef struct hs_pair {
    int32_t a, b;
} hs_pair;
#define HS_CHILD_FIELDS(F) F(int32_t, n)
#define HS_CHILD_POINTS(P) P(counted)
DECLARE_COROUTINE_R(hs_child, HS_CHILD_FIELDS, int32_t)
DEFINE_COROUTINE_AT(hs_child, HS_CHILD_POINTS)
{
    CORRAL_BEGIN_AT(co, HS_CHILD_POINTS);
    while (ctx->result < ctx->n) {
        ctx->result++;
        CORRAL_WAIT_FRAME_AT(co, counted);
    }
    CORRAL_END(co);
}
#define HS_CALLER_FIELDS(F) F(int32_t, n) F(hs_pair, pair)
#define HS_CALLER_POINTS(P) P(called) P(raced)
DECLARE_COROUTINE(hs_caller, HS_CALLER_FIELDS)
DEFINE_COROUTINE_AT(hs_caller, HS_CALLER_POINTS)
{
    CORRAL_BEGIN_AT(co, HS_CALLER_POINTS);
    if (ctx->n > 0) CORRAL_CALL_AT(co, called, hs_child, (hs_child_ctx){.n = ctx->n}, &ctx->pair.b);
    else CORRAL_RACE_AT(co, raced, hs_child_arm(co, (hs_child_ctx){.n = 9}, &ctx->pair.b));
    CORRAL_END(co);
}
#define HS_GUARD_FIELDS(F) F(int32_t, hp) F(int32_t, ammo)
#define HS_GUARD_POINTS(P) P(idle)
/* a body that idles at its one named point */
#define HS_IDLES(name)                           \
    DEFINE_COROUTINE_AT(name, HS_GUARD_POINTS)   \
    {                                            \
        CORRAL_BEGIN_AT(co, HS_GUARD_POINTS);    \
        for (;;) CORRAL_WAIT_FRAME_AT(co, idle); \
        CORRAL_END(co);                          \
    }
DECLARE_COROUTINE(hs_guard, HS_GUARD_FIELDS)
HS_IDLES(hs_guard)
/* another game's type: the same id, size and point name */
#define HS_THIEF_FIELDS(F) F(int32_t, gold) F(int32_t, stealth)
DECLARE_COROUTINE(hs_thief, HS_THIEF_FIELDS)
HS_IDLES(hs_thief)

/* counts its frames at one named point */
#define HS_TURN_FIELDS(F) F(int32_t, frames) F(int32_t, seen)
#define HS_TURN_POINTS(P) P(waited)
DECLARE_COROUTINE(hs_turn, HS_TURN_FIELDS)
DEFINE_COROUTINE_AT(hs_turn, HS_TURN_POINTS)
{
    CORRAL_BEGIN_AT(co, HS_TURN_POINTS);
    while (ctx->seen < ctx->frames) {
        ctx->seen++;
        CORRAL_WAIT_FRAME_AT(co, waited);
    }
    CORRAL_END(co);
}

/* races itself `left` levels deep, then idles */
#define HS_NEST_FIELDS(F) F(int32_t, left)
#define HS_NEST_POINTS(P) P(raced) P(idled)
DECLARE_COROUTINE(hs_nest, HS_NEST_FIELDS)
DEFINE_COROUTINE_AT(hs_nest, HS_NEST_POINTS)
{
    CORRAL_BEGIN_AT(co, HS_NEST_POINTS);
    if (ctx->left > 0) CORRAL_RACE_AT(co, raced, hs_nest_arm(co, (hs_nest_ctx){.left = ctx->left - 1}));
    for (;;) CORRAL_WAIT_FRAME_AT(co, idled);
    CORRAL_END(co);
}

#define HS_TYPES(X) X(hs_child, 1, 0) X(hs_caller, 2, 0) X(hs_guard, 5, 0) X(hs_turn, 6, 0) X(hs_nest, 7, 0)
CORRAL_DECLARE_REGISTRY(hs, HS_TYPES)
CORRAL_DEFINE_REGISTRY(hs, HS_TYPES);
/* a budgeted type and a free one, sharing one class */
#define HS_BUD_FIELDS(F) F(int32_t, n)
DECLARE_COROUTINE(hs_bud, HS_BUD_FIELDS)
HS_IDLES(hs_bud)
DECLARE_COROUTINE(hs_free, HS_BUD_FIELDS)
HS_IDLES(hs_free)
#define HS_BUDGET_TYPES(X) X(hs_bud, 1, 2) X(hs_free, 2, 0)
CORRAL_DECLARE_REGISTRY(hs_budget, HS_BUDGET_TYPES)
CORRAL_DEFINE_REGISTRY(hs_budget, HS_BUDGET_TYPES);
#define HS_OTHER_TYPES(X) X(hs_thief, 5, 0)
CORRAL_DECLARE_REGISTRY(hs_other, HS_OTHER_TYPES)
CORRAL_DEFINE_REGISTRY(hs_other, HS_OTHER_TYPES);

static corral_sched *hs_sched(const corral_registry *reg)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.registry = reg;
    return sched_of(d);
}

/* Save a caller waiting on its child (n > 0: a call, else a race arm),
   move the result's byte offset in the save from 4 to 6 (2 bytes of room
   for a 4-byte result), and load: refused, nothing changed. */
static void crafted_destination(int32_t n)
{
    corral_sched *a = hs_sched(&hs_registry);
    corral_handle caller = hs_caller_start(a, (hs_caller_ctx){.n = n});
    corral_tick(a, 0.016f);
    corral_co_info in;
    cr_assert(corral_co_info_of(a, caller, &in));
    corral_handle child = in.child;
    if (n <= 0) { /* a race's arm: the caller names no child of a call */
        uint32_t cursor = 0;
        while (corral_next_co(a, &cursor, &in))
            if (in.parent.index == caller.index && in.parent.gen == caller.gen) child = in.handle;
    }
    cr_assert(child.gen != 0, "the child runs");
    size_t n_bytes = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n_bytes, 0, "%s", corral_last_error_detail(a));

    corral_sched *b = hs_sched(&hs_registry);
    cr_assert(corral_load(b, g_buf, n_bytes), "the save as written loads");
    uint64_t before = corral_state_hash(b);

    size_t at = find3(g_buf, n_bytes, child.index, 1u /* field pair */, 4u /* byte */);
    put32(g_buf + at + 8, 6u);
    hostile_reseal_save(g_buf, n_bytes);
    cr_assert_not(corral_load(b, g_buf, n_bytes));
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
    cr_assert(strstr(corral_last_error_detail(b), "too small") != NULL ||
                  strstr(corral_last_error_detail(b), "smaller than") != NULL,
              "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), before, "a refused load changes nothing");
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(hostile, a_save_whose_call_result_field_is_too_small_is_refused)
{
    crafted_destination(5);
}

Test(hostile, a_save_whose_race_arm_result_field_is_too_small_is_refused)
{
    crafted_destination(0);
}

Test(hostile, another_games_type_under_the_same_id_is_refused)
{
    corral_sched *a = hs_sched(&hs_registry);
    hs_guard_start(a, (hs_guard_ctx){.hp = 100, .ammo = 6});
    corral_tick(a, 0.016f);
    size_t n = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0);
    corral_sched *b = hs_sched(&hs_other_registry);
    cr_assert_not(corral_load(b, g_buf, n), "id 5 is a thief here, not a guard");
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
    const char *d = corral_last_error_detail(b);
    cr_assert(strstr(d, "type hs_guard") != NULL && strstr(d, "hs_thief") != NULL, "%s", d);
    cr_assert_eq(corral_live_count(b), 0);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* ---- a state corral_verify refuses, made of waits each sound alone: a
   sender and a receiver both waiting on one unbuffered channel */

#define HS_PIPE_FIELDS(F) F(corral_channel, ch) F(int32_t, send) F(int32_t, v)
#define HS_PIPE_POINTS(P) P(sent) P(received)
DECLARE_COROUTINE(hs_pipe, HS_PIPE_FIELDS)
DEFINE_COROUTINE_AT(hs_pipe, HS_PIPE_POINTS)
{
    CORRAL_BEGIN_AT(co, HS_PIPE_POINTS);
    for (;;) {
        if (ctx->send) CORRAL_AWAIT_AT(co, sent, corral_wait_send(ctx->ch, &ctx->v, sizeof ctx->v));
        else CORRAL_AWAIT_AT(co, received, corral_wait_receive(ctx->ch, &ctx->v, sizeof ctx->v));
    }
    CORRAL_END(co);
}
#define HS_PIPE_TYPES(X) X(hs_pipe, 1, 0)
CORRAL_DECLARE_REGISTRY(hs_pipes, HS_PIPE_TYPES)
CORRAL_DEFINE_REGISTRY(hs_pipes, HS_PIPE_TYPES);

/* A sender waits on one unbuffered channel, a receiver on another (each
   alone is what the save holds of a sound game), after `spares` other
   channels; the receiver's wait is moved to the sender's channel, as a
   bit flip or an attacker would. */
static void crafted_pipes(uint32_t spares)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.registry = &hs_pipes_registry;
    d.max_channels = spares + 2;
    d.channel_bytes = 8;
    corral_sched *a = sched_of(d);
    for (uint32_t k = 0; k < spares; k++) corral_channel_create(a, sizeof(int32_t));
    corral_channel out = corral_channel_create_ex(a, sizeof(int32_t), 0);
    corral_channel in = corral_channel_create_ex(a, sizeof(int32_t), 0);
    hs_pipe_start(a, (hs_pipe_ctx){.ch = out, .send = 1, .v = 7}); /* no receiver: waits */
    hs_pipe_start(a, (hs_pipe_ctx){.ch = in, .send = 0});          /* no sender: waits */
    cr_assert(corral_verify(a));
    size_t n = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));

    corral_sched *b = sched_of(d);
    cr_assert(corral_load(b, g_buf, n), "the save as written loads: %s", corral_last_error_detail(b));
    uint64_t before = corral_state_hash(b);

    size_t at = find3(g_buf, n, in.index, 2u /* field v */, 0u /* byte */); /* the receive's channel */
    put32(g_buf + at, out.index);
    hostile_reseal_save(g_buf, n);
    cr_assert_not(corral_load(b, g_buf, n), "a sender and a receiver on one unbuffered channel");
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
    cr_assert(strstr(corral_last_error_detail(b), "a channel's sender and receiver wait on each other") != NULL, "%s",
              corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), before, "a refused load changes nothing");
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(hostile, a_save_whose_sender_and_receiver_wait_on_one_unbuffered_channel_is_refused)
{
    crafted_pipes(3); /* indices the save holds once */
}

Test(hostile, a_sender_and_a_receiver_on_one_channel_are_refused_past_the_first_thousand_channels)
{
    crafted_pipes(1100); /* the load checks a window of channels at a time */
}

/* An any of CORRAL_MAX_GROUP waits, all on one signal; its last node is
   copied in once more (17 wait nodes, which no game can have). */
#define HS_WIDE_FIELDS(F) F(int32_t, magic) F(corral_signal, sig)
#define HS_WIDE_POINTS(P) P(waited)
DECLARE_COROUTINE(hs_wide, HS_WIDE_FIELDS)
DEFINE_COROUTINE_AT(hs_wide, HS_WIDE_POINTS)
{
    corral_wait ws[CORRAL_MAX_GROUP];
    for (int k = 0; k < CORRAL_MAX_GROUP; k++) ws[k] = corral_wait_signal(ctx->sig);
    CORRAL_BEGIN_AT(co, HS_WIDE_POINTS);
    CORRAL_AWAIT_AT(co, waited, corral_wait_any(ws, CORRAL_MAX_GROUP));
    CORRAL_END(co);
}
#define HS_WIDE_TYPES(X) X(hs_wide, 1, 0)
CORRAL_DECLARE_REGISTRY(hs_wides, HS_WIDE_TYPES)
CORRAL_DEFINE_REGISTRY(hs_wides, HS_WIDE_TYPES);

Test(hostile, a_save_with_more_wait_nodes_than_a_coroutine_can_have_is_refused)
{
    corral_sched *a = hs_sched(&hs_wides_registry);
    const uint32_t magic = 0x5EA1F00Du;
    corral_handle h = hs_wide_start(a, (hs_wide_ctx){.magic = (int32_t)magic, .sig = corral_signal_create(a)});
    corral_co_info in;
    cr_assert(corral_co_info_of(a, h, &in) && in.wait == CORRAL_WAIT_ANY, "it waits on its any");
    size_t n = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));

    corral_sched *b = hs_sched(&hs_wides_registry);
    cr_assert(corral_load(b, g_buf, n), "the save as written loads: %s", corral_last_error_detail(b));
    uint64_t before = corral_state_hash(b);

    enum { NODE = 12 }; /* kind, member, flags, list, u32 order, u32 signal index */
    unsigned char want[4];
    put32(want, magic);
    size_t ctx_at = 0;
    for (size_t i = 0; i + 4 <= n; i++)
        if (!memcmp(g_buf + i, want, 4)) ctx_at = i; /* the context: the wait nodes end there */
    size_t count_at = ctx_at - CORRAL_MAX_GROUP * NODE - 1;
    cr_assert(ctx_at > 0 && g_buf[count_at] == CORRAL_MAX_GROUP, "the record's node count, before its nodes");
    static unsigned char wide[sizeof g_buf];
    memcpy(wide, g_buf, ctx_at);
    memcpy(wide + ctx_at, g_buf + ctx_at - NODE, NODE); /* the last node, once more */
    memcpy(wide + ctx_at + NODE, g_buf + ctx_at, n - ctx_at);
    wide[count_at] = CORRAL_MAX_GROUP + 1;
    hostile_reseal_save(wide, n + NODE);
    cr_assert_not(corral_load(b, wide, n + NODE), "17 wait nodes");
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
    cr_assert(strstr(corral_last_error_detail(b), "more wait nodes than") != NULL, "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), before, "a refused load changes nothing");
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* ---- a load continues the saved game exactly */

/* a and b tick in lockstep; every frame's state hash agrees */
static void lockstep(corral_sched *a, corral_sched *b, int frames)
{
    for (int f = 0; f < frames; f++) {
        corral_tick(a, 1.0f / 60.0f);
        corral_tick(b, 1.0f / 60.0f);
        cr_assert_eq(corral_state_hash(a), corral_state_hash(b), "frame %d after the load", f);
    }
}

Test(hostile, a_queued_single_instance_keeps_its_first_step_across_a_load)
{
    corral_sched *a = hs_sched(&hs_registry);
    hs_turn_start_ex(a, (hs_turn_ctx){.frames = 2}, &(corral_start_desc){.tags = 1});
    corral_handle q = hs_turn_start_ex(a, (hs_turn_ctx){.frames = 3},
                                       &(corral_start_desc){.tags = 1, .single = CORRAL_SINGLE_QUEUE});
    cr_assert(corral_alive(a, q));
    size_t n = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    corral_sched *b = hs_sched(&hs_registry);
    cr_assert(corral_load(b, g_buf, n), "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    lockstep(a, b, 8);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(hostile, a_load_takes_the_budget_reservations_of_what_it_brings_back)
{
    corral_sched_desc d = one_class_desc(64, 2); /* 2 shared slots + hs_bud's 2 */
    d.registry = &hs_budget_registry;
    corral_sched *a = sched_of(d), *b = sched_of(d);
    corral_handle h0 = hs_bud_start(a, (hs_bud_ctx){0}), h1 = hs_bud_start(a, (hs_bud_ctx){1});
    cr_assert(corral_alive(a, h0) && corral_alive(a, h1));
    size_t n = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    cr_assert(corral_load(b, g_buf, n), "%s", corral_last_error_detail(b));
    cr_assert(corral_verify(b), "reservations agree with the budgets");
    cr_assert(corral_stop(b, h0) && corral_stop(b, h1));
    for (int i = 0; i < 2; i++)
        cr_assert(corral_alive(b, hs_free_start(b, (hs_free_ctx){0})), "the shared slot %d is free: %s", i,
                  corral_last_error_detail(b));
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* ---- nothing lost under exhaustion */

#define HS_ALL_FIELDS(F) F(corral_channel, ch) F(corral_signal, s1) F(corral_signal, s2) F(int32_t, v) F(int32_t, done)
DECLARE_COROUTINE(hs_all, HS_ALL_FIELDS)
static int g_all_ends[CORRAL_END_COUNT];
static void hs_all_end(hs_all_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_all_ends[why]++;
}
DEFINE_COROUTINE_CLEANUP(hs_all, hs_all_end)
{
    CORRAL_BEGIN(co);
    {
        corral_wait ws[3] = {corral_wait_receive(ctx->ch, &ctx->v, sizeof ctx->v), corral_wait_signal(ctx->s1),
                             corral_wait_signal(ctx->s2)};
        CORRAL_WAIT_ALL(co, ws, 3);
    }
    ctx->done = 1;
    CORRAL_END(co);
}

Test(hostile, an_all_wait_short_of_nodes_takes_no_value_it_cannot_keep)
{
    memset(g_all_ends, 0, sizeof g_all_ends);
    corral_sched_desc d = one_class_desc(64, 4);
    d.max_wait_nodes = 1; /* one node for two waiting members */
    corral_sched *s = sched_of(d);
    corral_channel ch = corral_channel_create(s, sizeof(int32_t));
    int32_t v = 42;
    cr_assert(corral_channel_try_send(s, ch, &v, sizeof v));
    hs_all_start(s, (hs_all_ctx){.ch = ch, .s1 = corral_signal_create(s), .s2 = corral_signal_create(s)});
    cr_assert_eq(g_all_ends[CORRAL_END_WAIT_FAILED], 1, "it could not wait");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert_eq(corral_channel_count(s, ch), 1, "the value is still in the channel");
    int32_t out = 0;
    cr_assert(corral_channel_try_receive(s, ch, &out, sizeof out) && out == 42);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- a damaged snapshot is refused and changes nothing */

Test(hostile, every_damaged_byte_of_a_snapshot_is_refused_and_changes_nothing)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.registry = &hs_registry;
    d.max_wait_nodes = 16;
    d.max_group_nodes = 8;
    d.max_signals = 2;
    d.max_futures = 2;
    d.max_channels = 1;
    d.max_semaphores = 1;
    d.max_waitgroups = 1;
    corral_sched *s = sched_of(d);
    hs_caller_start(s, (hs_caller_ctx){.n = 5});
    hs_caller_start(s, (hs_caller_ctx){.n = 0});
    hs_turn_start(s, (hs_turn_ctx){.frames = 9});
    corral_tick(s, 1.0f / 60.0f);
    size_t n = corral_snapshot_size(s);
    cr_assert_lt(n, sizeof g_buf);
    cr_assert_eq(corral_snapshot(s, g_buf, sizeof g_buf), n);
    corral_tick(s, 1.0f / 60.0f); /* the present differs from the snapshot */
    uint64_t now = corral_state_hash(s);
    uint32_t refused = 0;
    for (size_t i = 0; i < n; i++) {
        g_buf[i] ^= (unsigned char)(1u << (i % 8));
        refused += !corral_restore(s, g_buf, n);
        g_buf[i] ^= (unsigned char)(1u << (i % 8));
    }
    cr_assert_eq(refused, n, "%u of %zu flipped snapshots refused", refused, n);
    for (size_t cut = 0; cut < n; cut += 7) cr_assert_not(corral_restore(s, g_buf, cut), "cut at %zu", cut);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert_eq(corral_state_hash(s), now, "nothing changed");
    cr_assert(corral_verify(s));
    cr_assert(corral_restore(s, g_buf, n), "the snapshot as written restores");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- depth costs no stack */

#define HS_LINK_FIELDS(F) F(corral_handle, next) F(int32_t, got)
DECLARE_COROUTINE_R(hs_link, HS_LINK_FIELDS, int32_t)
DEFINE_COROUTINE(hs_link)
{
    CORRAL_BEGIN(co);
    if (ctx->next.gen && !hs_link_next(corral_sched_of(co), ctx->next, &ctx->got)) CORRAL_EXIT(co);
    CORRAL_YIELD_VALUE(co, ctx->got + 1);
    CORRAL_END(co);
}

Test(hostile, a_chain_of_100000_generators_is_refused_at_its_bound_not_the_stack)
{
    enum { DEPTH = 100000 };
    corral_sched *s = sched_of(one_class_desc(64, DEPTH + 1));
    corral_handle next = {0, 0};
    for (int i = 0; i < DEPTH; i++) {
        next = hs_link_gen(s, (hs_link_ctx){.next = next});
        cr_assert(next.gen != 0);
    }
    int32_t v = -1;
    cr_assert_not(hs_link_next(s, next, &v), "the chain is deeper than a pull may nest");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_PULL_DEPTH);
    cr_assert(corral_verify(s));
    /* a chain within the bound pulls through */
    corral_sched *t = sched_of(one_class_desc(64, 64));
    next = (corral_handle){0, 0};
    for (int i = 0; i < 50; i++) next = hs_link_gen(t, (hs_link_ctx){.next = next});
    cr_assert(hs_link_next(t, next, &v));
    cr_assert_eq(v, 50);
    corral_sched_destroy(t);
    corral_sched_destroy(s);
}

Test(hostile, races_nested_past_their_bound_start_no_arms_and_the_rest_saves_loads_and_stops)
{
    corral_sched_desc d = one_class_desc(64, 300);
    d.registry = &hs_registry;
    log_capture cap = {0};
    d.logger = (corral_logger){capture_log, &cap};
    corral_sched *a = sched_of(d);
    corral_handle root = hs_nest_start(a, (hs_nest_ctx){.left = 100000});
    corral_tick(a, 1.0f / 60.0f);
    cr_assert_eq(cap.last, CORRAL_ERR_RACE_DEPTH, "%s", cap.message);
    cr_assert_eq(corral_live_count(a), CORRAL_MAX_RACE_DEPTH + 1, "256 racing, and the one that could not: %u",
                 corral_live_count(a));
    cr_assert(corral_verify(a));
    size_t n = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    corral_sched *b = sched_of(d);
    cr_assert(corral_load(b, g_buf, n), "the deepest races a game can make load: %s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    cr_assert(corral_stop(a, root));
    cr_assert_eq(corral_live_count(a), 0, "the whole tree ended");
    cr_assert(corral_verify(a));
    corral_sched_destroy(b); /* destroy ends the loaded tree */
    corral_sched_destroy(a);
}

/* ---- every bit of a real save, flipped and resealed as an attacker
   would: the load either refuses with nothing changed, or loads a state
   that verifies and runs (under ASan and UBSan in CI: nothing is written
   outside the arena) */

Test(hostile, every_resealed_bit_flip_of_a_save_is_refused_or_loads_a_sound_state, .timeout = 600)
{
    corral_sched_desc d = one_class_desc(64, 24);
    d.registry = &hs_registry;
    corral_sched *a = sched_of(d);
    hs_caller_start(a, (hs_caller_ctx){.n = 5});
    hs_caller_start(a, (hs_caller_ctx){.n = 0});
    hs_turn_start_ex(a, (hs_turn_ctx){.frames = 2}, &(corral_start_desc){.tags = 1});
    hs_turn_start_ex(a, (hs_turn_ctx){.frames = 3}, &(corral_start_desc){.tags = 1, .single = CORRAL_SINGLE_QUEUE});
    hs_nest_start(a, (hs_nest_ctx){.left = 3});
    hs_guard_start_ex(a, (hs_guard_ctx){.hp = 7}, &(corral_start_desc){.owner = 9});
    corral_tick(a, 1.0f / 60.0f);
    size_t n = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    static unsigned char orig[sizeof g_buf];
    memcpy(orig, g_buf, n);
    corral_sched *b = sched_of(d);
    uint32_t loaded = 0, refused = 0;
    for (size_t bit = 24 * 8; bit < 8 * n; bit++) { /* the header is the checksum's own */
        memcpy(g_buf, orig, n);
        g_buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        hostile_reseal_save(g_buf, n);
        uint64_t before = corral_state_hash(b);
        if (corral_load(b, g_buf, n)) {
            loaded++;
            cr_assert(corral_verify(b), "bit %zu: the loaded state verifies: %s", bit, corral_last_error_detail(b));
            for (int f = 0; f < 3; f++) corral_tick(b, 1.0f / 60.0f);
            cr_assert(corral_verify(b), "bit %zu: and runs: %s", bit, corral_last_error_detail(b));
        } else {
            refused++;
            cr_assert_eq(corral_state_hash(b), before, "bit %zu: a refused load changes nothing", bit);
        }
    }
    cr_assert_gt(refused, 0);
    cr_log_info("%u bit flips loaded, %u refused", loaded, refused);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* the same starts and stops, frame after frame, in the saved game and in
   the loaded one: the same handles and the same state every frame */
Test(hostile, a_loaded_game_goes_on_as_the_saved_one_with_the_same_handles)
{
    corral_sched_desc d = one_class_desc(64, 200);
    d.registry = &hs_registry;
    corral_sched *a = sched_of(d);
    corral_handle live[64];
    uint32_t n = 0, seed = 12345;
    for (int f = 0; f < 120; f++) { /* a history: slots taken and given back in a mixed order */
        seed = seed * 1103515245u + 12345u;
        if (n < 64) live[n++] = hs_turn_start(a, (hs_turn_ctx){.frames = (int32_t)(seed >> 16) % 40 + 1});
        if ((seed >> 8) % 3 == 0 && n) {
            uint32_t k = (seed >> 20) % n;
            corral_stop(a, live[k]);
            live[k] = live[--n];
        }
        corral_tick(a, 1.0f / 60.0f);
    }
    size_t bytes = corral_save(a, g_buf, sizeof g_buf);
    cr_assert_gt(bytes, 0, "%s", corral_last_error_detail(a));
    corral_sched *b = sched_of(d);
    cr_assert(corral_load(b, g_buf, bytes), "%s", corral_last_error_detail(b));
    cr_assert(corral_verify(b));
    for (int f = 0; f < 200; f++) {
        seed = seed * 1103515245u + 12345u;
        hs_turn_ctx t = {.frames = (int32_t)(seed >> 16) % 40 + 1};
        corral_handle ha = hs_turn_start(a, t), hb = hs_turn_start(b, t);
        cr_assert(ha.index == hb.index && ha.gen == hb.gen, "frame %d: the start took 0x%06x:%u here, 0x%06x:%u saved",
                  f, hb.index, hb.gen, ha.index, ha.gen);
        if ((seed >> 8) % 2 == 0) {
            cr_assert_eq(corral_stop(a, ha), corral_stop(b, hb));
        }
        corral_tick(a, 1.0f / 60.0f);
        corral_tick(b, 1.0f / 60.0f);
        cr_assert_eq(corral_state_hash(a), corral_state_hash(b), "frame %d after the load", f);
    }
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* races and syncs in turn, `left` levels deep; at the top (quick) a race
   against a child that wins in two frames, so the deep arm loses */
#define HS_DEEP_FIELDS(F) F(int32_t, left) F(int32_t, quick)
#define HS_DEEP_POINTS(P) P(contested) P(raced) P(synced) P(idled)
DECLARE_COROUTINE(hs_deep, HS_DEEP_FIELDS)
DEFINE_COROUTINE_AT(hs_deep, HS_DEEP_POINTS)
{
    CORRAL_BEGIN_AT(co, HS_DEEP_POINTS);
    if (ctx->left > 0 && ctx->quick)
        CORRAL_RACE_AT(co, contested, hs_deep_arm(co, (hs_deep_ctx){.left = ctx->left - 1}),
                       hs_turn_arm(co, (hs_turn_ctx){.frames = 2}));
    else if (ctx->left > 0 && (ctx->left & 1))
        CORRAL_SYNC_AT(co, synced, hs_deep_arm(co, (hs_deep_ctx){.left = ctx->left - 1}));
    else if (ctx->left > 0)
        CORRAL_RACE_AT(co, raced, hs_deep_arm(co, (hs_deep_ctx){.left = ctx->left - 1}));
    for (;;) CORRAL_WAIT_FRAME_AT(co, idled);
    CORRAL_END(co);
}

/* a tree as deep as races and syncs may nest, asked for 100000 deep: it
   stops at the bound with an error, and every walk over it (pause, resume,
   print, verify, a stop deadline, a lost race, destroy) stays within it */
Test(hostile, races_and_syncs_100000_deep_stop_at_the_bound_and_every_walk_over_them_holds)
{
    corral_sched_desc d = one_class_desc(64, 600);
    log_capture cap = {0};
    d.logger = (corral_logger){capture_log, &cap};
    corral_sched *s = sched_of(d);
    corral_handle root = hs_deep_start(s, (hs_deep_ctx){.left = 100000});
    corral_tick(s, 1.0f / 60.0f);
    cr_assert_eq(cap.last, CORRAL_ERR_RACE_DEPTH, "%s", cap.message);
    cr_assert_eq(corral_live_count(s), CORRAL_MAX_RACE_DEPTH + 1);
    cr_assert(corral_verify(s));
    corral_handle leaf = {0, 0};
    uint32_t cursor = 0;
    corral_co_info in;
    while (corral_next_co(s, &cursor, &in))
        if (in.parent.gen && !in.child.gen) leaf = in.handle; /* one of the deepest */
    FILE *sink = tmpfile();
    cr_assert(sink);
    cr_assert(corral_print_chain(s, leaf, sink));
    cr_assert_geq(ftell(sink), 100 * CORRAL_MAX_RACE_DEPTH / 10, "a line a level");
    fclose(sink);
    cr_assert(corral_pause(s, root));
    corral_tick(s, 1.0f / 60.0f);
    cr_assert(corral_resume(s, root));
    cr_assert(corral_verify(s));
    cr_assert(corral_request_stop(s, root, 0.05f));
    for (int f = 0; f < 10; f++) corral_tick(s, 1.0f / 60.0f);
    cr_assert_eq(corral_live_count(s), 0, "the deadline ended the whole tree");
    cr_assert(corral_verify(s));

    /* the deep arm loses a race at the top */
    root = hs_deep_start(s, (hs_deep_ctx){.left = 100000, .quick = 1});
    for (int f = 0; f < 4; f++) corral_tick(s, 1.0f / 60.0f);
    cr_assert_eq(corral_live_count(s), 1, "the quick arm won; the deep one ended, and its tree: %u left",
                 corral_live_count(s));
    cr_assert(corral_verify(s));
    cr_assert(corral_stop(s, root));
    /* and one left to destroy */
    hs_deep_start(s, (hs_deep_ctx){.left = 100000});
    corral_tick(s, 1.0f / 60.0f);
    cr_assert_gt(corral_live_count(s), CORRAL_MAX_RACE_DEPTH);
    corral_sched_destroy(s);
}

/* ---- every bit of a real snapshot, flipped and resealed (its checksum
   made again, as an attacker would): the restore refuses it with nothing
   changed, or restores a state that verifies and runs (under ASan and
   UBSan in CI: nothing is written outside the arena) */

/* its user is a number, as a save asks: a snapshot's user comes back as
   the snapshot holds it */
static int g_flag;
static bool hs_flag(void *user) { return (uintptr_t)user == 1u && g_flag; }
#define HS_POLL_FIELDS(F) F(corral_semaphore, sem) F(int32_t, n)
DECLARE_COROUTINE(hs_poll, HS_POLL_FIELDS)
DEFINE_COROUTINE(hs_poll)
{
    CORRAL_BEGIN(co);
    CORRAL_AWAIT(co, corral_wait_until(hs_flag, (void *)(uintptr_t)1u));
    CORRAL_AWAIT(co, corral_wait_acquire(ctx->sem));
    CORRAL_END(co);
}

/* a game holding every kind of state a snapshot carries */
static corral_sched *hs_snap_game(void)
{
    corral_sched_desc d = one_class_desc(64, 40);
    d.registry = &hs_registry;
    d.max_wait_nodes = 64;
    d.max_group_nodes = 16;
    d.max_signals = 4;
    d.max_futures = 2;
    d.max_channels = 2;
    d.max_semaphores = 2;
    d.max_waitgroups = 1;
    d.channel_bytes = 16;
    d.domains = 2;
    corral_sched *s = sched_of(d);
    hs_caller_start(s, (hs_caller_ctx){.n = 5});
    hs_caller_start(s, (hs_caller_ctx){.n = 0});
    hs_turn_start_ex(s, (hs_turn_ctx){.frames = 9}, &(corral_start_desc){.tags = 3, .owner = 7, .domain = 1});
    hs_nest_start(s, (hs_nest_ctx){.left = 3});
    corral_handle g = hs_guard_start_ex(s, (hs_guard_ctx){.hp = 7}, &(corral_start_desc){.owner = 9});
    corral_channel ch = corral_channel_create(s, sizeof(int32_t));
    hs_all_start(s, (hs_all_ctx){.ch = ch, .s1 = corral_signal_create(s), .s2 = corral_signal_create(s)});
    corral_semaphore sem = corral_semaphore_create(s, 0);
    hs_poll_start(s, (hs_poll_ctx){.sem = sem});
    corral_future_create(s);
    corral_waitgroup_add(s, corral_waitgroup_create(s), 1);
    corral_tick(s, 1.0f / 60.0f);
    corral_request_stop(s, g, 5.0f);
    corral_pause_owner(s, 7);
    corral_tick(s, 1.0f / 60.0f);
    return s;
}

Test(hostile, every_resealed_bit_flip_of_a_snapshot_is_refused_or_restores_a_sound_state, .timeout = 600)
{
    g_flag = 0;
    corral_sched *s = hs_snap_game();
    size_t n = corral_snapshot(s, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    static unsigned char orig[sizeof g_buf];
    memcpy(orig, g_buf, n);
    corral_tick(s, 1.0f / 60.0f); /* the present differs from the snapshot */
    static unsigned char present[sizeof g_buf];
    size_t pn = corral_snapshot(s, present, sizeof present);
    cr_assert_gt(pn, 0);
    uint32_t restored = 0, refused = 0;
    for (size_t bit = HOSTILE_SNAP_HEAD * 8; bit < 8 * n; bit++) {
        memcpy(g_buf, orig, n);
        g_buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        hostile_reseal_snapshot(g_buf, n);
        uint64_t before = corral_state_hash(s);
        if (corral_restore(s, g_buf, n)) {
            restored++;
            cr_assert(corral_verify(s), "bit %zu: the restored state verifies: %s", bit, corral_last_error_detail(s));
            for (int f = 0; f < 3; f++) corral_tick(s, 1.0f / 60.0f);
            cr_assert(corral_verify(s), "bit %zu: and runs: %s", bit, corral_last_error_detail(s));
            cr_assert(corral_restore(s, present, pn), "bit %zu: back to the present: %s", bit,
                      corral_last_error_detail(s));
        } else {
            refused++;
            cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
            cr_assert_eq(corral_state_hash(s), before, "bit %zu: a refused restore changes nothing", bit);
        }
    }
    cr_assert_gt(refused, 0);
    cr_log_info("%u resealed bit flips of a %zu-byte snapshot restored, %u refused", restored, n, refused);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- clocks out of range: a snapshot's game clock edited to 1.5e193 s (a
   tick would then count the fixed steps it drops past any integer) is
   refused; a finite clock the load would refuse, the restore refuses too */
Test(hostile, a_snapshot_whose_clock_is_out_of_range_is_refused_and_changes_nothing)
{
    corral_sched *s = corral_sched_create(&(corral_sched_desc){.fixed_dt = 0.02f});
    cr_assert_not_null(s);
    corral_set_time_scale(s, 0.5f);
    for (int f = 0; f < 7; f++) corral_tick(s, 1.0f / 60.0f);
    const double game = corral_time(s);
    cr_assert(game != corral_unscaled_time(s) && game != corral_fixed_time(s));
    size_t n = corral_snapshot(s, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    size_t at = (size_t)-1;
    int found = 0;
    for (size_t i = HOSTILE_SNAP_HEAD; i + sizeof game <= n; i++)
        if (!memcmp(g_buf + i, &game, sizeof game)) {
            at = i;
            found++;
        }
    cr_assert_eq(found, 1, "the game clock stands once in the snapshot (%d)", found);
    const double bad[] = {1.53019e193, -1.0, 2e12};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        static unsigned char edited[sizeof g_buf];
        memcpy(edited, g_buf, n);
        memcpy(edited + at, &bad[k], sizeof bad[k]);
        hostile_reseal_snapshot(edited, n);
        const uint64_t before = corral_state_hash(s);
        cr_assert_not(corral_restore(s, edited, n), "a clock of %g s is refused", bad[k]);
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
        cr_assert_eq(corral_state_hash(s), before, "and nothing changes");
    }
    cr_assert(corral_restore(s, g_buf, n), "the unedited snapshot restores: %s", corral_last_error_detail(s));
    corral_tick(s, 1.0f / 60.0f);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- a snapshot's raw values the restore checks before it writes them */

/* the n bytes of v at their one place in a snapshot */
static size_t find_value(const unsigned char *p, size_t n, const void *v, size_t size)
{
    size_t at = (size_t)-1;
    int found = 0;
    for (size_t i = HOSTILE_SNAP_HEAD; i + size <= n; i++)
        if (!memcmp(p + i, v, size)) {
            at = i;
            found++;
        }
    cr_assert_eq(found, 1, "the value stands once in the snapshot (%d)", found);
    return at;
}
/* an edited snapshot resealed: restored (true), or refused with nothing
   changed */
static bool restore_resealed(corral_sched *s, unsigned char *edited, size_t n)
{
    hostile_reseal_snapshot(edited, n);
    const uint64_t before = corral_state_hash(s);
    if (corral_restore(s, edited, n)) return true;
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert_eq(corral_state_hash(s), before, "a refused restore changes nothing");
    return false;
}
/* the snapshot p[0..n) with `size` bytes at `at` made v */
static bool restore_edited(corral_sched *s, const unsigned char *p, size_t n, size_t at, const void *v, size_t size)
{
    static unsigned char edited[sizeof g_buf];
    memcpy(edited, p, n);
    memcpy(edited + at, v, size);
    return restore_resealed(s, edited, n);
}
/* the snapshot p[0..n) with every place the `size` bytes of was stand (want
   of them: a running timer's due time is in its node and its heap entry)
   made v */
static bool restore_each_edited(corral_sched *s, const unsigned char *p, size_t n, const void *was, const void *v,
                                size_t size, int want)
{
    static unsigned char edited[sizeof g_buf];
    memcpy(edited, p, n);
    int found = 0;
    for (size_t i = HOSTILE_SNAP_HEAD; i + size <= n; i++)
        if (!memcmp(p + i, was, size)) {
            memcpy(edited + i, v, size);
            found++;
        }
    cr_assert_eq(found, want, "the value stands %d times in the snapshot (%d)", want, found);
    return restore_resealed(s, edited, n);
}

/* where a predicate node's argument stands: after its function */
static size_t pred_arg_at(const unsigned char *p, size_t n, corral_predicate fn, uintptr_t arg)
{
    unsigned char node[sizeof fn + sizeof arg];
    memcpy(node, &fn, sizeof fn);
    memcpy(node + sizeof fn, &arg, sizeof arg);
    return find_value(p, n, node, sizeof node) + sizeof fn;
}

/* predicates registered as reading a byte of a context, and a number */
static unsigned char g_outside = 1; /* what an edited argument would reach */
static bool hs_up(void *user) { return user && *(const unsigned char *)user != 0; }
static bool hs_past(void *user) { return (uintptr_t)user > 1000u; }
#define HS_PREDICATES(X) X(hs_up, 1) X(hs_past, 2, CORRAL_PREDICATE_NUMBER)
CORRAL_DEFINE_PREDICATES(hs, HS_PREDICATES);
#define HS_WATCH_FIELDS(F) F(uint8_t, up) F(uint32_t, number) F(corral_handle, other)
DECLARE_COROUTINE(hs_watch, HS_WATCH_FIELDS)
DEFINE_COROUTINE(hs_watch)
{
    CORRAL_BEGIN(co);
    if (ctx->number) {
        CORRAL_AWAIT(co, corral_wait_until(hs_past, (void *)(uintptr_t)ctx->number));
    } else {
        hs_watch_ctx *o = ctx->other.gen ? hs_watch_ctx_of(corral_sched_of(co), ctx->other) : ctx;
        CORRAL_AWAIT(co, corral_wait_until(hs_up, o ? &o->up : &ctx->up));
    }
    CORRAL_END(co);
}

Test(hostile, a_snapshot_whose_predicate_reads_through_an_argument_outside_every_context_room_is_refused)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.predicates = &hs_predicates;
    corral_sched *s = sched_of(d);
    corral_handle own = hs_watch_start(s, (hs_watch_ctx){0});
    hs_watch_start(s, (hs_watch_ctx){.number = 7});
    corral_tick(s, 1.0f / 60.0f);
    const size_t n = corral_snapshot(s, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    hs_watch_ctx *c = hs_watch_ctx_of(s, own);
    const uintptr_t place = (uintptr_t)&c->up, number = 7;
    /* a predicate node's function, then its argument */
    const size_t at = pred_arg_at(g_buf, n, hs_up, place);
    /* the argument edited to a global, the slot's header, past the arena:
       a predicate would read outside every context's room */
    const uintptr_t outside[] = {(uintptr_t)&g_outside, (uintptr_t)c - 8, place + ((uintptr_t)1 << 40)};
    const char *const where[] = {"a global", "its slot's header", "past the arena"};
    for (size_t k = 0; k < sizeof outside / sizeof outside[0]; k++) {
        cr_assert_not(restore_edited(s, g_buf, n, at, &outside[k], sizeof outside[k]), "an argument in %s is refused",
                      where[k]);
        cr_assert(strstr(corral_last_error_detail(s), "argument"), "%s", corral_last_error_detail(s));
    }
    /* NULL, another field of a live context (places a save could carry),
       a free slot's room (where the field of a coroutine that ended stays) */
    const uintptr_t places[] = {0, (uintptr_t)&c->number, place + 64 * 8};
    for (size_t k = 0; k < sizeof places / sizeof places[0]; k++) {
        cr_assert(restore_edited(s, g_buf, n, at, &places[k], sizeof places[k]), "%s", corral_last_error_detail(s));
        cr_assert(corral_verify(s));
        corral_tick(s, 1.0f / 60.0f);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    /* a number is never read through: it comes back as it is */
    const size_t at_number = pred_arg_at(g_buf, n, hs_past, number);
    cr_assert(restore_edited(s, g_buf, n, at_number, &place, sizeof place), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore(s, g_buf, n), "the unedited snapshot restores: %s", corral_last_error_detail(s));
    corral_tick(s, 1.0f / 60.0f);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a timer due at NaN: no heap can order it */
#define HS_NAP_FIELDS(F) F(float, secs)
DECLARE_COROUTINE(hs_nap, HS_NAP_FIELDS)
DEFINE_COROUTINE(hs_nap)
{
    CORRAL_BEGIN(co);
    CORRAL_AWAIT(co, corral_wait_seconds(ctx->secs));
    CORRAL_END(co);
}

Test(hostile, a_snapshot_whose_timer_is_due_at_nan_is_refused_running_or_held)
{
    for (int k = 0; k < 4; k++) {
        const int held = k & 1, node = k >> 1; /* a plain sleep, or (past max_sleepers) a timer node */
        corral_sched_desc d = one_class_desc(64, 16);
        if (node) d.max_sleepers = 5;
        corral_sched *s = sched_of(d);
        for (int i = 0; i < 5; i++) hs_nap_start(s, (hs_nap_ctx){.secs = 0.0625f * (float)(i + 1)}); /* due before it */
        const corral_handle h = hs_nap_start(s, (hs_nap_ctx){.secs = 0.375f});
        if (held) corral_pause(s, h); /* it keeps the time it has left: 0.375 s */
        const size_t n = corral_snapshot(s, g_buf, sizeof g_buf);
        cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
        const double due = 0.375, nan = (double)NAN, inf = (double)INFINITY;
        /* a sleep's entry (held: in the held heap); a node, and running its heap entry too */
        const int places = node && !held ? 2 : 1;
        cr_assert_not(restore_each_edited(s, g_buf, n, &due, &nan, sizeof nan, places),
                      "a %s timer due at NaN is refused", held ? "held" : "running");
        cr_assert(strstr(corral_last_error_detail(s), "NaN"), "%s", corral_last_error_detail(s));
        for (size_t i = HOSTILE_SNAP_HEAD; places == 2 && i + sizeof due <= n; i++) { /* one place apart from the other */
            const double other = 0.5;
            if (memcmp(g_buf + i, &due, sizeof due)) continue;
            cr_assert_not(restore_edited(s, g_buf, n, i, &other, sizeof other), "a heap entry and its node that disagree");
            cr_assert(strstr(corral_last_error_detail(s), "disagree"), "%s", corral_last_error_detail(s));
        }
        /* an infinite one is what corral_wait_seconds(INFINITY) makes: it restores, and runs */
        cr_assert(restore_each_edited(s, g_buf, n, &due, &inf, sizeof inf, places), "%s", corral_last_error_detail(s));
        for (int f = 0; f < 60; f++) corral_tick(s, 1.0f / 30.0f);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        cr_assert(corral_alive(s, h), "it sleeps on");
        cr_assert(corral_restore(s, g_buf, n), "the unedited snapshot restores: %s", corral_last_error_detail(s));
        corral_sched_destroy(s);
    }
}
