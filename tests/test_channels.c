/* test_channels.c -- channels (FIFO both sides, hand-off, full and empty
   waits, select through any), semaphores, wait groups; misuse, pools,
   snapshots. */
#include "common.h"
#include "corral_internal.h"

#include <signal.h>


static void setup(void) { trace_reset(); }
TestSuite(channels, .init = setup);

static corral_sched *csched(uint32_t channel_bytes)
{
    corral_sched_desc d = one_class_desc(96, 32);
    d.channel_bytes = channel_bytes;
    d.max_channels = 4;
    d.max_semaphores = 2;
    d.max_waitgroups = 2;
    return sched_of(d);
}

/* producer: sends from..to-1, one a step (waits while full) */
#define PRODUCER_FIELDS(F) \
    F(corral_channel, ch)  \
    F(int, from)           \
    F(int, to)             \
    F(int, v)
DECLARE_COROUTINE(producer, PRODUCER_FIELDS)
DEFINE_COROUTINE(producer)
{
    CORRAL_BEGIN(co);
    for (ctx->v = ctx->from; ctx->v < ctx->to; ctx->v++) {
        CORRAL_SEND(co, ctx->ch, &ctx->v);
        trace_push(1000 + ctx->v); /* sent (buffered or handed over) */
    }
    CORRAL_END(co);
}

/* consumer: receives n values, one a frame, into its trace */
#define CONSUMER_FIELDS(F) \
    F(corral_channel, ch)  \
    F(int, id)             \
    F(int, n)              \
    F(int, got)
DECLARE_COROUTINE(consumer, CONSUMER_FIELDS)
DEFINE_COROUTINE(consumer)
{
    CORRAL_BEGIN(co);
    while (ctx->n-- > 0) {
        CORRAL_RECEIVE(co, ctx->ch, &ctx->got);
        trace_push(ctx->id * 100 + ctx->got);
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

Test(channels, a_full_channel_holds_the_sender_and_values_arrive_in_order)
{
    corral_sched *s = csched(8); /* two ints */
    corral_channel ch = corral_channel_create(s, sizeof(int));
    cr_assert_eq(corral_channel_capacity(s, ch), 2);
    corral_handle p = producer_start(s, (producer_ctx){.ch = ch, .from = 1, .to = 6});
    cr_assert_eq(corral_channel_count(s, ch), 2);
    int want0[] = {1001, 1002};
    expect_trace(want0, 2); /* the third send waits: full */
    corral_co_info in;
    cr_assert(corral_co_info_of(s, p, &in));
    cr_assert_eq(in.wait, CORRAL_WAIT_SEND);
    char text[512];
    corral_print_chain_to(s, p, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert(strstr(text, "send: full (2 of 2)"), "the chain says why it waits: %s", text);
    consumer_start(s, (consumer_ctx){.ch = ch, .id = 7, .n = 5});
    for (int f = 0; f < 8; f++) corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, p));
    int got[5], k = 0;
    for (int i = 0; i < g_trace_len; i++)
        if (g_trace[i] >= 700 && g_trace[i] < 800) got[k++] = g_trace[i] - 700;
    cr_assert_eq(k, 5);
    for (int i = 0; i < 5; i++) cr_assert_eq(got[i], i + 1, "value %d in order", i);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(channels, receivers_wait_in_order_and_a_send_hands_the_value_straight_over)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    for (int id = 1; id <= 3; id++) consumer_start(s, (consumer_ctx){.ch = ch, .id = id, .n = 1});
    for (int v = 10; v < 13; v++) cr_assert(corral_channel_try_send(s, ch, &v, sizeof v));
    cr_assert_eq(corral_channel_count(s, ch), 0, "handed to the waiting receivers, not buffered");
    corral_tick(s, 0.1f);
    int want[] = {110, 211, 312}; /* first come, first served */
    expect_trace(want, 3);
    int v;
    cr_assert(!corral_channel_try_receive(s, ch, &v, sizeof v), "empty");
    corral_sched_destroy(s);
}

Test(channels, waiting_senders_fill_the_ring_in_their_order)
{
    corral_sched *s = csched(4); /* one int */
    corral_channel ch = corral_channel_create(s, sizeof(int));
    producer_start(s, (producer_ctx){.ch = ch, .from = 1, .to = 3}); /* 1 buffered, 2 waits */
    producer_start(s, (producer_ctx){.ch = ch, .from = 5, .to = 6}); /* 5 waits */
    int v;
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 1);
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 2, "the first waiting sender's value moved in");
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 5);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* select: receive from whichever of two channels has a value first */
#define SELECT_FIELDS(F)  \
    F(corral_channel, a)  \
    F(corral_channel, b)  \
    F(int, va)            \
    F(int, vb)            \
    F(int, fired)
DECLARE_COROUTINE(selector, SELECT_FIELDS)
DEFINE_COROUTINE(selector)
{
    corral_wait ws[2];
    ws[0] = corral_wait_receive(ctx->a, &ctx->va, sizeof ctx->va);
    ws[1] = corral_wait_receive(ctx->b, &ctx->vb, sizeof ctx->vb);
    CORRAL_BEGIN(co);
    ctx->va = ctx->vb = -1;
    CORRAL_WAIT_ANY(co, ws, 2);
    ctx->fired = corral_wait_fired(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(channels, any_of_two_receives_is_a_select_and_the_other_takes_nothing)
{
    corral_sched *s = csched(64);
    corral_channel a = corral_channel_create(s, sizeof(int)), b = corral_channel_create(s, sizeof(int));
    corral_handle h = selector_start(s, (selector_ctx){.a = a, .b = b});
    int v = 42;
    cr_assert(corral_channel_try_send(s, b, &v, sizeof v));
    corral_tick(s, 0.1f);
    selector_ctx *c = selector_ctx_of(s, h);
    cr_assert_eq(c->fired, 1);
    cr_assert_eq(c->vb, 42);
    cr_assert_eq(c->va, -1);
    v = 7;
    cr_assert(corral_channel_try_send(s, a, &v, sizeof v));
    cr_assert_eq(corral_channel_count(s, a), 1, "no receiver waits on a any more: buffered");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* taker: acquires a permit, holds it `hold` frames, releases it */
#define TAKER_FIELDS(F)       \
    F(corral_semaphore, sem)  \
    F(int, id)                \
    F(int, hold)
DECLARE_COROUTINE(taker, TAKER_FIELDS)
DEFINE_COROUTINE(taker)
{
    CORRAL_BEGIN(co);
    CORRAL_ACQUIRE(co, ctx->sem);
    trace_push(ctx->id);
    while (ctx->hold-- > 0) CORRAL_WAIT_FRAME(co);
    corral_semaphore_release(corral_sched_of(co), ctx->sem, 1);
    CORRAL_END(co);
}

Test(channels, a_semaphore_lets_n_through_and_the_rest_in_their_order)
{
    corral_sched *s = csched(64);
    corral_semaphore sem = corral_semaphore_create(s, 2);
    for (int id = 1; id <= 4; id++) taker_start(s, (taker_ctx){.sem = sem, .id = id, .hold = 2});
    int want0[] = {1, 2};
    expect_trace(want0, 2);
    cr_assert_eq(corral_semaphore_count(s, sem), 0);
    for (int f = 0; f < 6; f++) corral_tick(s, 0.1f);
    int want[] = {1, 2, 3, 4};
    expect_trace(want, 4);
    cr_assert_eq(corral_semaphore_count(s, sem), 2, "every permit back");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* gate: waits for a wait group */
#define GATE_FIELDS(F) F(corral_waitgroup, wg) F(int, open)
DECLARE_COROUTINE(gate, GATE_FIELDS)
DEFINE_COROUTINE(gate)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_GROUP(co, ctx->wg);
    ctx->open = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(channels, a_wait_group_opens_when_every_task_said_done)
{
    corral_sched *s = csched(64);
    corral_waitgroup wg = corral_waitgroup_create(s);
    corral_handle open_now = gate_start(s, (gate_ctx){.wg = wg});
    cr_assert(gate_ctx_of(s, open_now)->open, "a count of 0: at once");
    cr_assert(corral_waitgroup_add(s, wg, 3));
    corral_handle g = gate_start(s, (gate_ctx){.wg = wg});
    for (int k = 0; k < 2; k++) {
        cr_assert(corral_waitgroup_done(s, wg));
        corral_tick(s, 0.1f);
        cr_assert(!gate_ctx_of(s, g)->open);
    }
    cr_assert(corral_waitgroup_done(s, wg));
    corral_tick(s, 0.1f);
    cr_assert(gate_ctx_of(s, g)->open);
    cr_assert(!corral_waitgroup_done(s, wg), "below zero");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_COUNT);
    corral_sched_destroy(s);
}

Test(channels, misuse_and_full_pools_are_refused_and_a_destroy_wakes_the_waiters)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    int v = 1;
    double d = 2.0;
    cr_assert(!corral_channel_try_send(s, ch, &d, sizeof d));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_VALUE_SIZE);
    corral_handle c = consumer_start(s, (consumer_ctx){.ch = ch, .id = 1, .n = 1});
    cr_assert(corral_channel_destroy(s, ch));
    corral_tick(s, 0.1f);
    cr_assert_eq(g_trace_len, 1, "the receiver woke with nothing received (its value untouched)");
    cr_assert(!corral_channel_try_send(s, ch, &v, sizeof v));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_CHANNEL);
    (void)c;
    for (int i = 0; i < 4; i++) corral_channel_create(s, 4);
    corral_channel none = corral_channel_create(s, 4);
    cr_assert_eq(none.gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CHANNEL_POOL_EXHAUSTED);
    cr_assert_eq(corral_channel_create(s, 65).gen, 0, "a value larger than a ring");
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.channels, 4);
    cr_assert_eq(ps.channel_failures, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* spinner: waits in a loop, as games do (`while (!got) CORRAL_RECEIVE`),
   on its channel (what 0), semaphore (1) or wait group (2); a turn is a
   wait, counted in g_turns[what] (kept past its end). It gives up after
   1000 turns: a wait that never yields would hang the frame, and the
   test is to fail, not to hang. */
static int g_turns[3];
#define SPINNER_FIELDS(F)      \
    F(corral_channel, ch)      \
    F(corral_semaphore, sem)   \
    F(corral_waitgroup, wg)    \
    F(int, what)               \
    F(int, got)
DECLARE_COROUTINE(spinner, SPINNER_FIELDS)
DEFINE_COROUTINE(spinner)
{
    CORRAL_BEGIN(co);
    while (!ctx->got && g_turns[ctx->what] < 1000) {
        g_turns[ctx->what]++;
        if (ctx->what == 0) CORRAL_RECEIVE(co, ctx->ch, &ctx->got);
        else if (ctx->what == 1) CORRAL_ACQUIRE(co, ctx->sem);
        else CORRAL_WAIT_GROUP(co, ctx->wg);
    }
    CORRAL_END(co);
}

Test(channels, a_loop_waiting_on_a_destroyed_channel_semaphore_or_wait_group_turns_once_a_frame)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_semaphore sem = corral_semaphore_create(s, 0);
    corral_waitgroup wg = corral_waitgroup_create(s);
    cr_assert(corral_waitgroup_add(s, wg, 1));
    corral_handle h[3] = {spinner_start(s, (spinner_ctx){.ch = ch, .what = 0}),
                          spinner_start(s, (spinner_ctx){.sem = sem, .what = 1}),
                          spinner_start(s, (spinner_ctx){.wg = wg, .what = 2})};
    corral_tick(s, 0.1f);
    for (int k = 0; k < 3; k++) cr_assert_eq(g_turns[k], 1, "spinner %d waits", k);
    cr_assert(corral_channel_destroy(s, ch)); /* wakes them: each next wait is on one that is gone */
    cr_assert(corral_semaphore_destroy(s, sem));
    cr_assert(corral_waitgroup_destroy(s, wg));
    const int frames = 5;
    for (int f = 0; f < frames; f++) corral_tick(s, 0.1f);
    for (int k = 0; k < 3; k++) {
        cr_assert_leq(g_turns[k], 1 + frames + 1,
                      "spinner %d: a turn a frame, not a loop that never yields (%d turns in %d frames)", k,
                      g_turns[k], frames);
        cr_assert(corral_alive(s, h[k]), "spinner %d: a plain yield, not an end", k);
    }
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_CHANNEL);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* quitter: the same loop, ended the way API.md ("Waits") says: it asks
   corral_wait_closed after each wait */
#define QUITTER_FIELDS(F) F(corral_channel, ch) F(corral_semaphore, sem) F(corral_waitgroup, wg) F(int, what) F(int, got)
DECLARE_COROUTINE(quitter, QUITTER_FIELDS)
DEFINE_COROUTINE(quitter)
{
    CORRAL_BEGIN(co);
    for (;;) {
        if (ctx->what == 0) CORRAL_RECEIVE(co, ctx->ch, &ctx->got);
        else if (ctx->what == 1) CORRAL_ACQUIRE(co, ctx->sem);
        else CORRAL_WAIT_GROUP(co, ctx->wg);
        if (corral_wait_closed(co)) break;
    }
    CORRAL_END(co);
}

Test(channels, a_loop_on_a_destroyed_channel_semaphore_or_wait_group_ends_when_it_asks_corral_wait_closed)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_semaphore sem = corral_semaphore_create(s, 0);
    corral_waitgroup wg = corral_waitgroup_create(s);
    cr_assert(corral_waitgroup_add(s, wg, 1));
    cr_assert(corral_channel_destroy(s, ch) && corral_semaphore_destroy(s, sem) && corral_waitgroup_destroy(s, wg));
    corral_handle h[3] = {quitter_start(s, (quitter_ctx){.ch = ch, .what = 0}),
                          quitter_start(s, (quitter_ctx){.sem = sem, .what = 1}),
                          quitter_start(s, (quitter_ctx){.wg = wg, .what = 2})};
    for (int k = 0; k < 3; k++) cr_assert(corral_alive(s, h[k]), "quitter %d: its wait on one gone is a yield", k);
    corral_tick(s, 0.1f);
    for (int k = 0; k < 3; k++) cr_assert_not(corral_alive(s, h[k]), "quitter %d: told the wait ended on one gone", k);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* channels.c arrives with the first channel, semaphore or wait group: a
   wait on a zero handle in a process that never made one (Criterion runs
   each test in a process of its own) is one that is gone, as in any other */
Test(channels, a_wait_before_any_channel_exists_is_a_gone_channel)
{
    corral_sched *s = csched(64);
    corral_handle h = spinner_start(s, (spinner_ctx){.what = 0});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_CHANNEL);
    cr_assert_eq(g_turns[0], 1, "one turn in its first step (%d)", g_turns[0]);
    cr_assert(corral_alive(s, h), "a plain yield, not an end");
    for (int f = 0; f < 3; f++) corral_tick(s, 0.1f);
    cr_assert_eq(g_turns[0], 4, "then one a frame");
    corral_sched_destroy(s);
}

/* a receive into a place outside its context */
static int g_outside;
#define STRAY_FIELDS(F) F(corral_channel, ch)
DECLARE_COROUTINE(stray, STRAY_FIELDS)
DEFINE_COROUTINE(stray)
{
    CORRAL_BEGIN(co);
    CORRAL_RECEIVE(co, ctx->ch, &g_outside);
    CORRAL_END(co);
}

Test(channels, a_value_outside_the_context_is_refused)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_handle h = stray_start(s, (stray_ctx){.ch = ch});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    cr_assert(!corral_alive(s, h), "the malformed wait was refused: it went on and ended");
    corral_sched_destroy(s);
}

/* a receive into a stack local and a send from one: each refused in words
   of its own, saying where the value must be */
#define LOCAL_FIELDS(F) F(corral_channel, ch) F(int, send) F(int, got)
DECLARE_COROUTINE(local_user, LOCAL_FIELDS)
DEFINE_COROUTINE(local_user)
{
    int local = 7;
    CORRAL_BEGIN(co);
    if (ctx->send) CORRAL_SEND(co, ctx->ch, &local);
    else CORRAL_RECEIVE(co, ctx->ch, &local);
    ctx->got = local;
    CORRAL_END(co);
}

Test(channels, a_receive_into_or_a_send_from_a_stack_local_is_refused_in_words_of_its_own)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    const char *want[2] = {"corral_await in a step of 'local_user' (handle ",
                           "): a value's place is outside the coroutine's context or the wrong size (the detail says "
                           "which): "};
    corral_handle r = local_user_start(s, (local_user_ctx){.ch = ch, .send = 0});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    const char *msg = corral_last_error_detail(s);
    for (int k = 0; k < 2; k++) cr_assert(strstr(msg, want[k]) != NULL, "%s", msg);
    cr_assert(strstr(msg, "the receive's destination is not inside the receiving coroutine's context: receive into a "
                          "field (&ctx->v)") != NULL,
              "%s", msg);
    cr_assert(strstr(msg, "caller") == NULL, "no caller in a receive: %s", msg);
    cr_assert(!corral_alive(s, r), "the malformed wait was refused: it went on and ended");
    corral_handle w = local_user_start(s, (local_user_ctx){.ch = ch, .send = 1});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    msg = corral_last_error_detail(s);
    for (int k = 0; k < 2; k++) cr_assert(strstr(msg, want[k]) != NULL, "%s", msg);
    cr_assert(strstr(msg, "the send's value is not inside the sending coroutine's context: send from a field "
                          "(&ctx->v)") != NULL,
              "%s", msg);
    cr_assert(!corral_alive(s, w));
    cr_assert_eq(corral_channel_count(s, ch), 0, "nothing sent");
    corral_sched_destroy(s);
}

/* a value of another size than the channel's: every call says both sizes */
#define WIDE_FIELDS(F) F(corral_channel, ch) F(double, v)
DECLARE_COROUTINE(wide_sender, WIDE_FIELDS)
DEFINE_COROUTINE(wide_sender)
{
    CORRAL_BEGIN(co);
    CORRAL_SEND(co, ctx->ch, &ctx->v);
    CORRAL_END(co);
}

Test(channels, a_value_of_another_size_is_refused_in_words_giving_both_sizes)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int32_t));
    const char *sizes = "): a value's size or a channel's capacity does not fit (the detail gives the sizes): "
                        "an 8-byte value for a channel of 4-byte values";
    double d = 1.0;
    cr_assert(!corral_channel_try_send(s, ch, &d, sizeof d));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_VALUE_SIZE);
    cr_assert(strstr(corral_last_error_detail(s), "corral_channel_try_send: a value's") != NULL, "%s",
              corral_last_error_detail(s));
    cr_assert(strstr(corral_last_error_detail(s), sizes + 3) != NULL, "%s", corral_last_error_detail(s));
    cr_assert(!corral_channel_try_receive(s, ch, &d, sizeof d));
    cr_assert(strstr(corral_last_error_detail(s), sizes + 3) != NULL, "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_channel_take(s, ch, &d, sizeof d), CORRAL_GOT_ERROR);
    cr_assert(strstr(corral_last_error_detail(s), sizes + 3) != NULL, "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_channel_take(s, ch, NULL, sizeof(int32_t)), CORRAL_GOT_ERROR);
    cr_assert(strstr(corral_last_error_detail(s), "does not fit (the detail gives the sizes): no place for the value "
                                                  "(NULL)") != NULL,
              "%s", corral_last_error_detail(s));
    corral_handle h = wide_sender_start(s, (wide_sender_ctx){.ch = ch, .v = 2.0});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_VALUE_SIZE);
    cr_assert(strstr(corral_last_error_detail(s), "corral_await in a step of 'wide_sender'") != NULL, "%s",
              corral_last_error_detail(s));
    cr_assert(strstr(corral_last_error_detail(s), sizes) != NULL, "the wait's words too: %s",
              corral_last_error_detail(s));
    cr_assert(!corral_alive(s, h));
    cr_assert_eq(corral_channel_count(s, ch), 0, "nothing sent");
    corral_sched_destroy(s);
}

Test(channels, a_capacity_or_a_value_size_past_channel_bytes_is_refused_in_words_of_its_own)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create_ex(s, 8, 100);
    cr_assert(!ch.index && !ch.gen);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_VALUE_SIZE);
    cr_assert(strstr(corral_last_error_detail(s),
                     "corral_channel_create_ex: a value's size or a channel's capacity does not fit (the detail "
                     "gives the sizes): a capacity of 100 values of 8 bytes is more than desc.channel_bytes (64 "
                     "bytes: 8 such values)") != NULL,
              "%s", corral_last_error_detail(s));
    ch = corral_channel_create(s, 80);
    cr_assert(!ch.index && !ch.gen);
    cr_assert(strstr(corral_last_error_detail(s), "gives the sizes): an 80-byte value: a channel's values are 1 to "
                                                  "desc.channel_bytes (64) bytes") != NULL,
              "%s", corral_last_error_detail(s));
    ch = corral_channel_create(s, 0);
    cr_assert(strstr(corral_last_error_detail(s), "gives the sizes): a 0-byte value: a channel's values are 1 to "
                                                  "desc.channel_bytes (64) bytes") != NULL,
              "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(channels, a_snapshot_rewinds_the_values_and_the_waiters)
{
    corral_sched *s = csched(8);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    producer_start(s, (producer_ctx){.ch = ch, .from = 1, .to = 5});
    static unsigned char snap[1 << 16];
    size_t n = corral_snapshot(s, snap, sizeof snap);
    uint64_t h0 = corral_state_hash(s);
    int v;
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 1);
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 2);
    cr_assert_neq(corral_state_hash(s), h0);
    cr_assert(corral_restore(s, snap, n));
    cr_assert_eq(corral_state_hash(s), h0);
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 1, "the values as they were");
    corral_channel later = corral_channel_create(s, 4);
    cr_assert(corral_restore(s, snap, n));
    cr_assert(!corral_channel_try_send(s, later, &v, sizeof v), "a channel made after the snapshot stays stale");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- saves: the values in a channel, the waiters on every side */
#define KEEPER_FIELDS(F)        \
    F(corral_channel, ch)       \
    F(corral_semaphore, sem)    \
    F(corral_waitgroup, wg)     \
    F(int, what)                \
    F(int, v)                   \
    F(int, sum)
#define KEEPER_POINTS(P) P(sent) P(received) P(acquired) P(grouped) P(rested)
DECLARE_COROUTINE(keeper, KEEPER_FIELDS)
DEFINE_COROUTINE_AT(keeper, KEEPER_POINTS)
{
    CORRAL_BEGIN_AT(co, KEEPER_POINTS);
    for (;;) {
        if (ctx->what == 0) {
            ctx->v++;
            CORRAL_AWAIT_AT(co, sent, corral_wait_send(ctx->ch, &ctx->v, sizeof ctx->v));
        } else if (ctx->what == 1) {
            CORRAL_AWAIT_AT(co, received, corral_wait_receive(ctx->ch, &ctx->v, sizeof ctx->v));
            ctx->sum += ctx->v;
        } else if (ctx->what == 2) {
            CORRAL_AWAIT_AT(co, acquired, corral_wait_acquire(ctx->sem));
            ctx->sum++;
        } else {
            CORRAL_AWAIT_AT(co, grouped, corral_wait_group(ctx->wg));
            ctx->sum++;
        }
        CORRAL_WAIT_FRAME_AT(co, rested);
    }
    CORRAL_END(co);
}
#define KEEP_TYPES(X) X(keeper, 1, 0)
CORRAL_DECLARE_REGISTRY(keep, KEEP_TYPES)
CORRAL_DEFINE_REGISTRY(keep, KEEP_TYPES);

static corral_sched *ksched(void)
{
    corral_sched_desc d = one_class_desc(96, 32);
    d.registry = &keep_registry;
    d.channel_bytes = 8;
    return sched_of(d);
}

Test(channels, a_save_carries_values_waiters_and_counts_and_the_game_runs_on_the_same)
{
    corral_sched *a = ksched();
    corral_channel full = corral_channel_create(a, sizeof(int)), empty = corral_channel_create(a, sizeof(int));
    corral_semaphore sem = corral_semaphore_create(a, 0);
    corral_waitgroup wg = corral_waitgroup_create(a);
    corral_waitgroup_add(a, wg, 2);
    keeper_start(a, (keeper_ctx){.ch = full, .what = 0});   /* fills it, then waits */
    keeper_start(a, (keeper_ctx){.ch = full, .what = 0, .v = 100});
    keeper_start(a, (keeper_ctx){.ch = empty, .what = 1});
    keeper_start(a, (keeper_ctx){.sem = sem, .what = 2});
    keeper_start(a, (keeper_ctx){.wg = wg, .what = 3});
    cr_assert_eq(corral_channel_count(a, full), 2);
    static unsigned char buf[1 << 14];
    size_t n = corral_save(a, buf, sizeof buf);
    cr_assert_gt(n, 0, "%s", corral_error_str(corral_last_error(a)));
    corral_sched *b = ksched();
    cr_assert(corral_load(b, buf, n), "%s", corral_error_str(corral_last_error(b)));
    cr_assert(corral_verify(b));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a));
    cr_assert_eq(corral_channel_count(b, full), 2, "the same handle, the values in it");
    for (int f = 0; f < 12; f++) {
        int v = f;
        if (f % 3 == 0) {
            corral_channel_try_send(a, empty, &v, sizeof v);
            corral_channel_try_send(b, empty, &v, sizeof v);
            corral_channel_try_receive(a, full, &v, sizeof v);
            corral_channel_try_receive(b, full, &v, sizeof v);
        }
        if (f == 4) {
            corral_semaphore_release(a, sem, 1);
            corral_semaphore_release(b, sem, 1);
            corral_waitgroup_done(a, wg);
            corral_waitgroup_done(b, wg);
            corral_waitgroup_done(a, wg);
            corral_waitgroup_done(b, wg);
        }
        corral_tick(a, 0.1f);
        corral_tick(b, 0.1f);
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d after the load", f);
    }
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* channels.c is a module: its wait kinds are known once a channel, a
   semaphore or a wait group is made in the process, or once a load brings
   some back. The save is made in a child process, so this one loads it
   with the module never used (Criterion runs each test in a process of
   its own). */
static size_t keepers_saved(unsigned char *out, size_t cap)
{
    corral_sched *a = ksched();
    corral_channel ch = corral_channel_create(a, sizeof(int));
    corral_semaphore sem = corral_semaphore_create(a, 0);
    keeper_start(a, (keeper_ctx){.ch = ch, .what = 1}); /* receives: waits */
    keeper_start(a, (keeper_ctx){.sem = sem, .what = 2}); /* acquires: waits */
    return corral_save(a, out, cap);
}
Test(channels, a_load_brings_the_module_with_it_into_a_process_that_never_made_a_channel)
{
    static unsigned char buf[1 << 14];
    const size_t n = save_in_child(keepers_saved, buf, sizeof buf);
    corral_sched *b = ksched();
    cr_assert(corral_load(b, buf, n), "%s", corral_last_error_detail(b));
    cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
    corral_co_info in;
    uint32_t cursor = 0, waiting = 0;
    while (corral_next_co(b, &cursor, &in)) waiting += in.wait == CORRAL_WAIT_RECEIVE || in.wait == CORRAL_WAIT_ACQUIRE;
    cr_assert_eq(waiting, 2, "both wait on their lists as saved");
    for (int f = 0; f < 3; f++) corral_tick(b, 0.1f);
    cr_assert_eq(corral_live_count(b), 2);
    int v = 5; /* the handles are the saved ones: the first of each pool, generation 1 */
    cr_assert(corral_channel_try_send(b, (corral_channel){0, 1}, &v, sizeof v), "%s", corral_last_error_detail(b));
    cr_assert(corral_semaphore_release(b, (corral_semaphore){0, 1}, 1), "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_channel_count(b, (corral_channel){0, 1}), 0, "the waiting receiver took it at once");
    cr_assert_eq(corral_semaphore_count(b, (corral_semaphore){0, 1}), 0, "the waiting acquirer took the permit");
    cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
    corral_sched_destroy(b);
}

Test(channels, a_waiter_stopped_leaves_its_channel_and_its_value_goes_to_the_next)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_handle first = consumer_start(s, (consumer_ctx){.ch = ch, .id = 1, .n = 1});
    consumer_start(s, (consumer_ctx){.ch = ch, .id = 2, .n = 1});
    cr_assert(corral_stop(s, first));
    int v = 9;
    cr_assert(corral_channel_try_send(s, ch, &v, sizeof v));
    corral_tick(s, 0.1f);
    int want[] = {209}; /* the second receiver got it: the stopped one left the line */
    expect_trace(want, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- a typed channel */
typedef struct hit {
    int who;
    float damage;
} hit;
CORRAL_DECLARE_CHANNEL(hits, hit)
#define TAKER2_FIELDS(F) F(hits_channel, in) F(hit, got) F(float, total)
DECLARE_COROUTINE(hit_taker, TAKER2_FIELDS)
DEFINE_COROUTINE(hit_taker)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_AWAIT(co, hits_receive(ctx->in, &ctx->got));
        ctx->total += ctx->got.damage;
    }
    CORRAL_END(co);
}

Test(channels, a_typed_channel_carries_its_type)
{
    corral_sched *s = csched(64);
    hits_channel in = hits_channel_create(s);
    cr_assert_eq(corral_channel_capacity(s, in.ch), 64 / sizeof(hit));
    corral_handle h = hit_taker_start(s, (hit_taker_ctx){.in = in});
    hit a = {1, 2.5f}, b = {2, 4.0f};
    cr_assert(hits_try_send(s, in, &a));
    cr_assert(hits_try_send(s, in, &b));
    for (int f = 0; f < 3; f++) corral_tick(s, 0.1f);
    cr_assert_float_eq(hit_taker_ctx_of(s, h)->total, 6.5f, 1e-6f);
    hit back;
    cr_assert(!hits_try_receive(s, in, &back), "all taken");
    corral_sched_destroy(s);
}

/* an all over a semaphore, a live channel and a destroyed one: the gone
   member ends the wait before any member takes (API.md, "Waits") */
#define ALLER_FIELDS(F) F(corral_semaphore, sem) F(corral_channel, live) F(corral_channel, gone) F(int, a) F(int, b) F(int, turns)
DECLARE_COROUTINE(aller, ALLER_FIELDS)
DEFINE_COROUTINE(aller)
{
    CORRAL_BEGIN(co);
    while (ctx->turns < 5) {
        ctx->turns++;
        {
            corral_wait m[3] = {corral_wait_acquire(ctx->sem), corral_wait_receive(ctx->live, &ctx->a, sizeof ctx->a),
                                corral_wait_receive(ctx->gone, &ctx->b, sizeof ctx->b)};
            CORRAL_AWAIT(co, corral_wait_all(m, 3));
        }
    }
    CORRAL_END(co);
}

Test(channels, an_all_with_a_gone_member_takes_no_permit_and_no_value)
{
    corral_sched *s = csched(64);
    corral_semaphore sem = corral_semaphore_create(s, 3);
    corral_channel live = corral_channel_create(s, sizeof(int)), gone = corral_channel_create(s, sizeof(int));
    for (int v = 1; v <= 3; v++) cr_assert(corral_channel_try_send(s, live, &v, sizeof v));
    cr_assert(corral_channel_destroy(s, gone));
    aller_start(s, (aller_ctx){.sem = sem, .live = live, .gone = gone});
    for (int f = 0; f < 6; f++) corral_tick(s, 0.1f);
    cr_assert_eq(corral_semaphore_count(s, sem), 3, "no permit taken");
    int v = 0;
    cr_assert(corral_channel_try_receive(s, live, &v, sizeof v) && v == 1, "no value taken: the first is still there");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* an any whose first member is over and whose later one is gone fires the
   first, as it would have before asking the rest */
#define ANYER_FIELDS(F) F(corral_channel, live) F(corral_channel, gone) F(int, a) F(int, b) F(int, fired)
DECLARE_COROUTINE(anyer, ANYER_FIELDS)
DEFINE_COROUTINE(anyer)
{
    CORRAL_BEGIN(co);
    {
        corral_wait m[2] = {corral_wait_receive(ctx->live, &ctx->a, sizeof ctx->a),
                            corral_wait_receive(ctx->gone, &ctx->b, sizeof ctx->b)};
        CORRAL_AWAIT(co, corral_wait_any(m, 2));
    }
    ctx->fired = corral_wait_fired(co) + 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(channels, an_any_with_a_gone_member_after_one_over_fires_that_one)
{
    corral_sched *s = csched(64);
    corral_channel live = corral_channel_create(s, sizeof(int)), gone = corral_channel_create(s, sizeof(int));
    int v = 5;
    cr_assert(corral_channel_try_send(s, live, &v, sizeof v));
    cr_assert(corral_channel_destroy(s, gone));
    corral_handle h = anyer_start(s, (anyer_ctx){.live = live, .gone = gone});
    corral_tick(s, 0.1f);
    const anyer_ctx *c = anyer_ctx_of(s, h);
    cr_assert(c && c->a == 5, "the live member took its value");
    cr_assert_eq(c->fired, 1, "member 0 fired");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(channels, loading_is_no_misuse)
{
    cr_assert_not(corral_error_is_misuse(CORRAL_ERR_LOADING), "a cleanup hook cannot tell a load from a destroy");
    cr_assert(corral_error_is_misuse(CORRAL_ERR_IN_TICK));
}

/* ---- a waiter that leaves a semaphore's queue lets the ones behind it on
   (API.md, "Channels, semaphores and wait groups") */

/* greedy: n permits or, after `patience` seconds, none; holds what it got */
#define GREEDY_FIELDS(F) F(corral_semaphore, sem) F(uint32_t, n) F(float, patience) F(int, got)
DECLARE_COROUTINE(greedy, GREEDY_FIELDS)
DEFINE_COROUTINE(greedy)
{
    CORRAL_BEGIN(co);
    {
        corral_wait m[2] = {corral_wait_acquire_n(ctx->sem, ctx->n), corral_wait_seconds(ctx->patience)};
        CORRAL_AWAIT(co, corral_wait_any(m, 2));
    }
    ctx->got = corral_wait_fired(co) == 0 ? 1 : 2; /* 1: the permits, 2: out of patience */
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(channels, a_first_waiter_whose_any_fires_elsewhere_lets_the_one_behind_it_take_a_free_permit)
{
    corral_sched *s = csched(64);
    corral_semaphore sem = corral_semaphore_create_ex(s, 9, 10); /* one held elsewhere */
    corral_handle g = greedy_start(s, (greedy_ctx){.sem = sem, .n = 10, .patience = 0.5f});
    taker_start(s, (taker_ctx){.sem = sem, .id = 7, .hold = 100}); /* wants 1: waits behind the 10 */
    corral_tick(s, 0.3f);
    cr_assert_eq(g_trace_len, 0, "first come, first served: the 1 waits behind the 10");
    corral_tick(s, 0.3f); /* the 10's patience is over: it leaves the queue */
    corral_tick(s, 0.1f);
    cr_assert_eq(greedy_ctx_of(s, g)->got, 2, "the 10 ran out of patience");
    int want[] = {7};
    expect_trace(want, 1);
    cr_assert_eq(corral_semaphore_count(s, sem), 8, "the 1 took a permit of the 9 free");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(channels, a_first_waiter_stopped_lets_the_ones_behind_it_take_free_permits_in_their_order)
{
    corral_sched *s = csched(64);
    corral_semaphore sem = corral_semaphore_create_ex(s, 9, 10);
    corral_handle g = greedy_start(s, (greedy_ctx){.sem = sem, .n = 10, .patience = 1000.0f});
    corral_handle big = greedy_start(s, (greedy_ctx){.sem = sem, .n = 9, .patience = 1000.0f});
    taker_start(s, (taker_ctx){.sem = sem, .id = 7, .hold = 100});
    corral_tick(s, 0.1f);
    cr_assert_eq(g_trace_len, 0);
    cr_assert(corral_stop(s, g));
    corral_tick(s, 0.1f);
    cr_assert_eq(greedy_ctx_of(s, big)->got, 1, "the 9 behind the stopped 10 took the 9 free");
    cr_assert_eq(g_trace_len, 0, "the 1 behind the 9 still waits: none is free");
    cr_assert_eq(corral_semaphore_count(s, sem), 0);
    cr_assert(corral_stop(s, big)); /* it holds its 9 (nothing gives them back) */
    cr_assert(corral_semaphore_release(s, sem, 1));
    corral_tick(s, 0.1f);
    int want[] = {7};
    expect_trace(want, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a channel's and a wait group's waiters wait on the count alone: the one
   behind a waiter that leaves is served as before */
#define IMPATIENT_FIELDS(F) F(corral_channel, ch) F(int, v) F(int, got)
DECLARE_COROUTINE(impatient, IMPATIENT_FIELDS)
DEFINE_COROUTINE(impatient)
{
    CORRAL_BEGIN(co);
    {
        corral_wait m[2] = {corral_wait_send(ctx->ch, &ctx->v, sizeof ctx->v), corral_wait_seconds(0.5f)};
        CORRAL_AWAIT(co, corral_wait_any(m, 2));
    }
    ctx->got = corral_wait_fired(co) == 0 ? 1 : 2;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(channels, a_first_sender_whose_any_fires_elsewhere_leaves_the_next_its_place)
{
    corral_sched *s = csched(4); /* one int */
    corral_channel ch = corral_channel_create(s, sizeof(int));
    int v = 1;
    cr_assert(corral_channel_try_send(s, ch, &v, sizeof v)); /* full */
    corral_handle i = impatient_start(s, (impatient_ctx){.ch = ch, .v = 2});
    producer_start(s, (producer_ctx){.ch = ch, .from = 3, .to = 4});
    corral_tick(s, 0.6f); /* the first sender gives up */
    cr_assert_eq(impatient_ctx_of(s, i)->got, 2);
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 1);
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 3, "the next sender's value moved in");
    corral_waitgroup wg = corral_waitgroup_create(s);
    cr_assert(corral_waitgroup_add(s, wg, 1));
    corral_handle a = gate_start(s, (gate_ctx){.wg = wg}), b = gate_start(s, (gate_ctx){.wg = wg});
    cr_assert(corral_stop(s, a));
    cr_assert(corral_waitgroup_done(s, wg));
    corral_tick(s, 0.1f);
    cr_assert(gate_ctx_of(s, b)->open, "the gate behind a stopped one opens");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- a semaphore's and a wait group's counts out of range: their own
   errors, a misuse each (API.md, "Channels, semaphores and wait groups") */

static void expect_count_error(corral_sched *s, corral_error err, const char *words)
{
    cr_assert_eq(corral_last_error(s), err, "%s", corral_last_error_detail(s));
    cr_assert(strstr(corral_last_error_detail(s), words), "%s", corral_last_error_detail(s));
    cr_assert(corral_error_is_misuse(err));
}

Test(channels, a_release_past_the_maximum_is_refused_whole_as_semaphore_full)
{
    corral_sched *s = csched(64);
    corral_semaphore sem = corral_semaphore_create_ex(s, 2, 4);
    cr_assert(!corral_semaphore_release(s, sem, 3));
    expect_count_error(s, CORRAL_ERR_SEMAPHORE_FULL,
                       "corral_semaphore_release: the release would give the semaphore more permits than its "
                       "maximum: nothing released (the detail says how many): 2 free + 3 released is past the "
                       "maximum of 4");
    cr_assert_eq(corral_semaphore_count(s, sem), 2, "nothing released");
    cr_assert(corral_semaphore_release(s, sem, 2), "up to the maximum is fine");
    corral_semaphore plain = corral_semaphore_create(s, UINT32_MAX - 1u);
    cr_assert(!corral_semaphore_release(s, plain, 2));
    expect_count_error(s, CORRAL_ERR_SEMAPHORE_FULL, "4294967294 free + 2 released is past the maximum of 4294967295");
    cr_assert_eq(corral_semaphore_count(s, plain), UINT32_MAX - 1u);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(channels, counts_out_of_range_are_refused_as_bad_count_and_change_nothing)
{
    corral_sched *s = csched(64);
    cr_assert(!corral_semaphore_create_ex(s, 3, 2).gen);
    expect_count_error(s, CORRAL_ERR_BAD_COUNT, "corral_semaphore_create_ex: a semaphore's permits past its "
                                                "maximum, or a wait group's count below 0 or past 2^32 - 1: "
                                                "nothing changed (the detail says which): more permits than "
                                                "the maximum");
    cr_assert(!corral_semaphore_create_ex(s, 0, 0).gen);
    expect_count_error(s, CORRAL_ERR_BAD_COUNT, ": a maximum of 0 permits: no acquire could ever be served");
    corral_pool_stats ps = pools_of(s);
    cr_assert_eq(ps.counters, 0, "nothing made");
    corral_waitgroup wg = corral_waitgroup_create(s);
    cr_assert(!corral_waitgroup_done(s, wg));
    expect_count_error(s, CORRAL_ERR_BAD_COUNT, "corral_waitgroup_done: a semaphore's");
    expect_count_error(s, CORRAL_ERR_BAD_COUNT, ": a done with the count at 0: more dones than adds");
    cr_assert(corral_waitgroup_add(s, wg, UINT32_MAX));
    cr_assert(!corral_waitgroup_add(s, wg, 1));
    expect_count_error(s, CORRAL_ERR_BAD_COUNT, "corral_waitgroup_add: a semaphore's");
    expect_count_error(s, CORRAL_ERR_BAD_COUNT, ": the count would pass 2^32 - 1");
    cr_assert_eq(corral_waitgroup_count(s, wg), UINT32_MAX, "nothing changed");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* debug builds (validation FATAL) stop at each of them, after a panic
   that names the error (another one exits instead of aborting) */
static corral_error g_panic_for;
static void panic_names(corral_log_level level, corral_error item, const char *message, const corral_sched *s,
                        void *user)
{
    (void)message, (void)s, (void)user;
    if (level == CORRAL_LOG_PANIC && item != g_panic_for) _Exit(3);
}
static corral_sched *fatal_csched(corral_error err)
{
    g_panic_for = err;
    corral_sched_desc d = one_class_desc(96, 4);
    d.validation = CORRAL_VALIDATION_FATAL;
    d.logger.fn = panic_names;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    return s;
}
Test(channels, a_release_past_the_maximum_aborts_a_debug_build, .signal = SIGABRT)
{
    corral_sched *s = fatal_csched(CORRAL_ERR_SEMAPHORE_FULL);
    corral_semaphore sem = corral_semaphore_create_ex(s, 1, 1);
    corral_semaphore_release(s, sem, 1);
    cr_assert_fail("not reached: FATAL aborts");
}
Test(channels, more_permits_than_the_maximum_abort_a_debug_build, .signal = SIGABRT)
{
    corral_semaphore_create_ex(fatal_csched(CORRAL_ERR_BAD_COUNT), 2, 1);
    cr_assert_fail("not reached: FATAL aborts");
}
Test(channels, a_wait_group_done_below_zero_aborts_a_debug_build, .signal = SIGABRT)
{
    corral_sched *s = fatal_csched(CORRAL_ERR_BAD_COUNT);
    corral_waitgroup_done(s, corral_waitgroup_create(s));
    cr_assert_fail("not reached: FATAL aborts");
}
Test(channels, a_wait_group_add_past_its_range_aborts_a_debug_build, .signal = SIGABRT)
{
    corral_sched *s = fatal_csched(CORRAL_ERR_BAD_COUNT);
    corral_waitgroup wg = corral_waitgroup_create(s);
    corral_waitgroup_add(s, wg, UINT32_MAX);
    corral_waitgroup_add(s, wg, 1);
    cr_assert_fail("not reached: FATAL aborts");
}

/* ---- a take from plain code: one call tells a value, empty and closed
   (API.md, "What a take gave") */
Test(channels, a_take_tells_a_value_from_empty_and_from_closed)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    int v = -1;
    cr_assert_eq(corral_channel_take(s, ch, &v, sizeof v), CORRAL_GOT_NOT_YET, "empty and open");
    cr_assert_eq(v, -1, "nothing written");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK, "empty is no error");
    for (int k = 1; k <= 2; k++) cr_assert(corral_channel_try_send(s, ch, &k, sizeof k));
    cr_assert_eq(corral_channel_take(s, ch, &v, sizeof v), CORRAL_GOT_VALUE);
    cr_assert_eq(v, 1);
    cr_assert(corral_channel_close(s, ch));
    cr_assert_eq(corral_channel_take(s, ch, &v, sizeof v), CORRAL_GOT_VALUE, "a closed channel drains");
    cr_assert_eq(v, 2);
    v = -1;
    cr_assert_eq(corral_channel_take(s, ch, &v, sizeof v), CORRAL_GOT_CLOSED, "closed and drained");
    cr_assert_eq(corral_channel_take(s, ch, &v, sizeof v), CORRAL_GOT_CLOSED, "and stays so");
    cr_assert_eq(v, -1);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK, "closed is no error");
    /* unbuffered: a value only from a waiting sender */
    corral_channel un = corral_channel_create_ex(s, sizeof(int), 0);
    cr_assert_eq(corral_channel_take(s, un, &v, sizeof v), CORRAL_GOT_NOT_YET);
    producer_start(s, (producer_ctx){.ch = un, .from = 5, .to = 6});
    cr_assert_eq(corral_channel_take(s, un, &v, sizeof v), CORRAL_GOT_VALUE);
    cr_assert_eq(v, 5, "straight from the sender's context");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(channels, a_take_from_a_destroyed_channel_is_closed_and_a_bad_one_an_error)
{
    corral_sched *s = csched(64);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    int v = 3;
    cr_assert(corral_channel_try_send(s, ch, &v, sizeof v));
    double d = 0;
    cr_assert_eq(corral_channel_take(s, ch, &d, sizeof d), CORRAL_GOT_ERROR, "another size");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_VALUE_SIZE);
    cr_assert_eq(corral_channel_take(s, ch, NULL, sizeof v), CORRAL_GOT_ERROR, "nowhere to put it");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_VALUE_SIZE);
    cr_assert_eq(corral_channel_count(s, ch), 1, "nothing taken");
    cr_assert_eq(corral_channel_take(s, (corral_channel){0, 0}, &v, sizeof v), CORRAL_GOT_ERROR, "the zero handle");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_CHANNEL);
    cr_assert_eq(corral_channel_take(s, (corral_channel){999, ch.gen}, &v, sizeof v), CORRAL_GOT_ERROR, "forged");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_CHANNEL);
    cr_assert(corral_channel_destroy(s, ch));
    v = -1;
    cr_assert_eq(corral_channel_take(s, ch, &v, sizeof v), CORRAL_GOT_CLOSED, "destroyed: nothing will come");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_CHANNEL, "as a wait on it is told");
    cr_assert_eq(v, -1);
    cr_assert_eq(corral_channel_take(NULL, ch, &v, sizeof v), CORRAL_GOT_ERROR);
    hits_channel in = hits_channel_create(s);
    hit h = {4, 1.5f}, back = {0, 0};
    cr_assert_eq(hits_take(s, in, &back), CORRAL_GOT_NOT_YET);
    cr_assert(hits_try_send(s, in, &h));
    cr_assert_eq(hits_take(s, in, &back), CORRAL_GOT_VALUE);
    cr_assert_eq(back.who, 4);
    corral_sched_destroy(s);
}
