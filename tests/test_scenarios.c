/* test_scenarios.c -- the cases other coroutine libraries' own test
   suites check, written as the scenarios they stand for: a stop request
   that ends a wait, a stream that closes, a send that waits for its
   receiver, several permits at once, an event that stays set, a wait
   until a time on a clock; each saved and snapshotted in the middle of
   its wait and replayed to equal state hashes. */
#include "common.h"
#include "corral_internal.h"

static void setup(void) { trace_reset(); }
TestSuite(scenarios, .init = setup);

/* ---- stop requests that reach a waiting coroutine */

/* a sentry on watch: a long wait that a stop request ends early; then it
   takes two frames to stand down (its own cleanup, not a kill) */
#define SENTRY_FIELDS(F) \
    F(int, id)           \
    F(int, fired)        \
    F(int, frames_down)  \
    F(double, woke_at)
#define SENTRY_POINTS(P) P(watch) P(down)
DECLARE_COROUTINE(sentry, SENTRY_FIELDS)
DEFINE_COROUTINE_AT(sentry, SENTRY_POINTS)
{
    CORRAL_BEGIN_AT(co, SENTRY_POINTS);
    {
        corral_wait ws[2] = {corral_wait_seconds(10.0f), corral_wait_stop()};
        CORRAL_AWAIT_AT(co, watch, corral_wait_any(ws, 2));
    }
    ctx->fired = corral_wait_fired(co);
    ctx->woke_at = corral_time(corral_sched_of(co));
    trace_push(ctx->id * 10 + ctx->fired);
    while (ctx->frames_down < 2) {
        ctx->frames_down++;
        CORRAL_WAIT_FRAME_AT(co, down);
    }
    CORRAL_END(co);
}

/* waits for nothing but a stop request */
#define GUARD_FIELDS(F) F(int, id) F(int, woke)
#define GUARD_POINTS(P) P(guarding)
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE_AT(guard, GUARD_POINTS)
{
    CORRAL_BEGIN_AT(co, GUARD_POINTS);
    CORRAL_AWAIT_AT(co, guarding, corral_wait_stop());
    ctx->woke = 1;
    trace_push(ctx->id);
    CORRAL_END(co);
}

/* a plain sleeper: its wait does not opt in */
#define NAPPER_FIELDS(F) F(int, woke)
DECLARE_COROUTINE(napper, NAPPER_FIELDS)
DEFINE_COROUTINE(napper)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, 10.0f);
    ctx->woke = 1;
    CORRAL_END(co);
}

static corral_sched *ssched(uint32_t nodes)
{
    corral_sched_desc d = one_class_desc(128, 16);
    d.max_wait_nodes = nodes;
    d.channel_bytes = 16;
    d.max_channels = 4;
    d.max_semaphores = 2;
    d.domains = 2;
    return sched_of(d);
}

Test(scenarios, a_squad_asked_to_stop_ends_its_long_waits_at_once_and_stands_down_on_its_own)
{
    corral_sched *s = ssched(32);
    corral_start_desc squad = {.owner = 7};
    corral_handle a = sentry_start_ex(s, (sentry_ctx){.id = 1}, &squad);
    corral_handle b = sentry_start_ex(s, (sentry_ctx){.id = 2}, &squad);
    corral_handle lone = sentry_start(s, (sentry_ctx){.id = 3});
    corral_handle nap = napper_start(s, (napper_ctx){0});
    corral_tick(s, 0.5f);
    cr_assert_eq(corral_request_stop_owner(s, 7, 0.0f), 2);
    cr_assert(corral_request_stop(s, nap, 0.0f));
    cr_assert_eq(g_trace_len, 0, "woken, not run: waking runs no step");
    corral_tick(s, 0.5f);
    cr_assert_eq(g_trace_len, 2);
    cr_assert_eq(g_trace[0] + g_trace[1], 11 + 21, "both resumed, each told its stop member fired");
    cr_assert_float_eq(sentry_ctx_of(s, a)->woke_at, 1.0, 1e-9, "the frame after the request, not 10 s later");
    cr_assert(corral_alive(s, a) && corral_alive(s, b), "a request is not a kill: each stands down itself");
    corral_tick(s, 0.5f);
    corral_tick(s, 0.5f);
    cr_assert(!corral_alive(s, a) && !corral_alive(s, b));
    cr_assert(corral_alive(s, lone), "not of the squad: still on watch");
    cr_assert_eq(napper_ctx_of(s, nap)->woke, 0, "a wait that did not opt in keeps its time");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, a_stop_asked_before_the_wait_ends_it_at_once_and_a_guard_wakes_on_its_own_request)
{
    corral_sched *s = ssched(32);
    corral_handle g = guard_start(s, (guard_ctx){.id = 5});
    corral_co_info in;
    cr_assert(corral_co_info_of(s, g, &in));
    cr_assert_eq(in.wait, CORRAL_WAIT_STOP);
    corral_tick(s, 0.1f);
    cr_assert(corral_alive(s, g), "nothing asked: it waits");
    cr_assert(corral_request_stop(s, g, 0.0f));
    corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, g));
    int want[] = {5};
    expect_trace(want, 1);
    /* a sentry told which member ended its wait */
    corral_handle h = sentry_start(s, (sentry_ctx){.id = 4});
    cr_assert(corral_request_stop(s, h, 0.0f));
    corral_tick(s, 0.1f);
    cr_assert(corral_alive(s, h));
    cr_assert_eq(sentry_ctx_of(s, h)->fired, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* asks its own stop from inside its step, then waits on it */
#define SELF_STOPPER_FIELDS(F) F(int, passed)
DECLARE_COROUTINE(self_stopper, SELF_STOPPER_FIELDS)
DEFINE_COROUTINE(self_stopper)
{
    CORRAL_BEGIN(co);
    corral_request_stop(corral_sched_of(co), corral_self(co), 0.0f);
    CORRAL_WAIT_STOP(co);
    ctx->passed = 1;
    CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

/* stops a guard from inside its own step */
#define WARDEN_FIELDS(F) F(corral_handle, ward)
DECLARE_COROUTINE(warden, WARDEN_FIELDS)
DEFINE_COROUTINE(warden)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co);
    corral_request_stop(corral_sched_of(co), ctx->ward, 0.0f);
    CORRAL_END(co);
}

Test(scenarios, a_stop_asked_from_inside_a_step_ends_the_wait_of_itself_or_another)
{
    corral_sched *s = ssched(32);
    corral_handle self = self_stopper_start(s, (self_stopper_ctx){0});
    cr_assert_eq(self_stopper_ctx_of(s, self)->passed, 1, "its own request was there before it waited");
    corral_handle g = guard_start(s, (guard_ctx){.id = 9});
    warden_start(s, (warden_ctx){.ward = g});
    corral_tick(s, 0.1f); /* the warden asks in UPDATE, before or after the guard's turn */
    corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, g));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a call that a stop request interrupts: the child ends, the caller goes on */
#define LONG_JOB_FIELDS(F) F(int, steps)
DECLARE_COROUTINE(long_job, LONG_JOB_FIELDS)
DEFINE_COROUTINE(long_job)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->steps++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}
#define BOSS_FIELDS(F) F(int, outcome)
DECLARE_COROUTINE(boss, BOSS_FIELDS)
DEFINE_COROUTINE(boss)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL_UNLESS(co, corral_wait_stop(), long_job, (long_job_ctx){0});
    ctx->outcome = (int)corral_call_outcome(co);
    CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(scenarios, a_call_made_unless_a_stop_is_asked_ends_its_child_when_one_is)
{
    corral_sched *s = ssched(32);
    corral_handle b = boss_start(s, (boss_ctx){0});
    for (int f = 0; f < 3; f++) corral_tick(s, 0.1f);
    cr_assert_eq(corral_live_count(s), 2);
    cr_assert(corral_request_stop(s, b, 0.0f));
    cr_assert_eq(corral_live_count(s), 1, "the child ended at the request");
    corral_tick(s, 0.1f);
    cr_assert_eq(boss_ctx_of(s, b)->outcome, CORRAL_END_INTERRUPTED);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, a_stop_wait_that_finds_no_node_ends_its_coroutine_and_a_paused_one_wakes_on_resume)
{
    corral_sched *s = ssched(1); /* one node: the any needs two */
    corral_handle a = sentry_start(s, (sentry_ctx){.id = 1});
    cr_assert(!corral_alive(s, a), "it could not wait: it ends, never resumes as if asked");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    corral_handle g = guard_start(s, (guard_ctx){.id = 2});
    cr_assert(corral_pause(s, g));
    cr_assert(corral_request_stop(s, g, 0.0f));
    corral_tick(s, 0.1f);
    cr_assert(corral_alive(s, g), "paused: woken, held");
    cr_assert(corral_resume(s, g));
    corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, g));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- a stream that closes; a send that waits for its receiver */

/* loot: sends n items then closes the stream */
#define LOOTER_FIELDS(F) F(corral_channel, ch) F(int, n) F(int, v)
#define LOOTER_POINTS(P) P(sending)
DECLARE_COROUTINE(looter, LOOTER_FIELDS)
DEFINE_COROUTINE_AT(looter, LOOTER_POINTS)
{
    CORRAL_BEGIN_AT(co, LOOTER_POINTS);
    for (ctx->v = 1; ctx->v <= ctx->n; ctx->v++)
        CORRAL_AWAIT_AT(co, sending, corral_wait_send(ctx->ch, &ctx->v, sizeof ctx->v));
    corral_channel_close(corral_sched_of(co), ctx->ch);
    CORRAL_END(co);
}
/* takes every item until the stream ends */
#define PICKER_FIELDS(F) F(corral_channel, ch) F(int, id) F(int, v) F(int, got) F(int, ended)
#define PICKER_POINTS(P) P(picking) P(resting)
DECLARE_COROUTINE(picker, PICKER_FIELDS)
DEFINE_COROUTINE_AT(picker, PICKER_POINTS)
{
    CORRAL_BEGIN_AT(co, PICKER_POINTS);
    for (;;) {
        CORRAL_AWAIT_AT(co, picking, corral_wait_receive(ctx->ch, &ctx->v, sizeof ctx->v));
        if (corral_wait_closed(co)) break;
        ctx->got++;
        trace_push(ctx->id * 100 + ctx->v);
        CORRAL_WAIT_FRAME_AT(co, resting);
    }
    ctx->ended = 1;
    trace_push(ctx->id * 100 + 99);
    CORRAL_END(co);
}

Test(scenarios, a_closed_stream_drains_its_values_then_tells_every_receiver_it_ended)
{
    corral_sched *s = ssched(32);
    corral_channel ch = corral_channel_create(s, sizeof(int)); /* 4 values */
    looter_start(s, (looter_ctx){.ch = ch, .n = 3});
    cr_assert(corral_channel_closed(s, ch), "all three fit: closed at once");
    cr_assert_eq(corral_channel_count(s, ch), 3);
    int v = 9;
    cr_assert(!corral_channel_try_send(s, ch, &v, sizeof v));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CHANNEL_CLOSED);
    cr_assert(!corral_error_is_misuse(CORRAL_ERR_CHANNEL_CLOSED));
    cr_assert(!corral_channel_close(s, ch), "closed once");
    corral_handle p = picker_start(s, (picker_ctx){.ch = ch, .id = 1});
    for (int f = 0; f < 5; f++) corral_tick(s, 0.1f);
    int want[] = {101, 102, 103, 199};
    expect_trace(want, 4);
    cr_assert(!corral_alive(s, p));
    cr_assert(!corral_channel_try_receive(s, ch, &v, sizeof v), "drained");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, a_close_wakes_the_waiting_receivers_and_senders_with_nothing_moved)
{
    corral_sched *s = ssched(32);
    corral_channel empty = corral_channel_create(s, sizeof(int));
    corral_handle r1 = picker_start(s, (picker_ctx){.ch = empty, .id = 1});
    corral_handle r2 = picker_start(s, (picker_ctx){.ch = empty, .id = 2});
    corral_channel full = corral_channel_create_ex(s, sizeof(int), 1);
    corral_handle w = looter_start(s, (looter_ctx){.ch = full, .n = 5}); /* one in, the second waits */
    cr_assert_eq(corral_channel_count(s, full), 1);
    corral_tick(s, 0.1f);
    cr_assert(corral_channel_close(s, empty));
    cr_assert(corral_channel_close(s, full));
    corral_tick(s, 0.1f);
    int want[] = {199, 299};
    expect_trace(want, 2);
    cr_assert(!corral_alive(s, r1) && !corral_alive(s, r2));
    /* the looter's send was refused by the close: it goes on to its next, which is over at once */
    cr_assert(!corral_alive(s, w), "every later send is over at once");
    cr_assert_eq(corral_channel_count(s, full), 1, "the buffered value stays for a receiver");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, an_unbuffered_send_waits_for_its_receiver_and_hands_the_value_over)
{
    corral_sched *s = ssched(32);
    corral_channel ch = corral_channel_create_ex(s, sizeof(int), 0);
    cr_assert_eq(corral_channel_capacity(s, ch), 0);
    int v = 4;
    cr_assert(!corral_channel_try_send(s, ch, &v, sizeof v), "no receiver waits: nothing sent");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK);
    corral_handle l = looter_start(s, (looter_ctx){.ch = ch, .n = 2});
    corral_co_info in;
    cr_assert(corral_co_info_of(s, l, &in));
    cr_assert_eq(in.wait, CORRAL_WAIT_SEND, "the send waits for its receiver");
    char text[256];
    corral_print_chain_to(s, l, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert(strstr(text, "no receiver (unbuffered)"), "%s", text);
    cr_assert_eq(corral_channel_count(s, ch), 0);
    cr_assert(corral_channel_try_receive(s, ch, &v, sizeof v) && v == 1, "plain code takes the waiting sender's value");
    corral_handle p = picker_start(s, (picker_ctx){.ch = ch, .id = 3});
    for (int f = 0; f < 4; f++) corral_tick(s, 0.1f);
    int want[] = {302, 399};
    expect_trace(want, 2);
    cr_assert(!corral_alive(s, l) && !corral_alive(s, p));
    cr_assert(!corral_channel_create_ex(s, sizeof(int), 5).index && !corral_channel_create_ex(s, sizeof(int), 5).gen,
              "more than desc.channel_bytes holds");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_VALUE_SIZE);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- several permits at once; a maximum count */
#define CREW_FIELDS(F) F(corral_semaphore, sem) F(int, id) F(uint32_t, n)
#define CREW_POINTS(P) P(acquiring)
DECLARE_COROUTINE(crew, CREW_FIELDS)
DEFINE_COROUTINE_AT(crew, CREW_POINTS)
{
    CORRAL_BEGIN_AT(co, CREW_POINTS);
    CORRAL_AWAIT_AT(co, acquiring, corral_wait_acquire_n(ctx->sem, ctx->n));
    trace_push(ctx->id);
    CORRAL_END(co);
}

Test(scenarios, a_semaphore_gives_several_permits_at_once_first_come_first_served_and_keeps_its_maximum)
{
    corral_sched *s = ssched(32);
    corral_semaphore sem = corral_semaphore_create_ex(s, 2, 4);
    crew_start(s, (crew_ctx){.sem = sem, .id = 1, .n = 3}); /* two free: waits */
    crew_start(s, (crew_ctx){.sem = sem, .id = 2, .n = 1}); /* one would do, but 1 came first */
    cr_assert_eq(g_trace_len, 0);
    cr_assert_eq(corral_semaphore_count(s, sem), 2);
    cr_assert(!corral_semaphore_release(s, sem, 3), "2 + 3 is past the maximum of 4: refused whole");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SEMAPHORE_FULL);
    cr_assert_eq(corral_semaphore_count(s, sem), 2);
    cr_assert(corral_semaphore_release(s, sem, 2)); /* 4: 1 takes 3, 2 takes 1 */
    cr_assert_eq(corral_semaphore_count(s, sem), 0);
    corral_tick(s, 0.1f);
    int want[] = {1, 2};
    expect_trace(want, 2);
    corral_handle big = crew_start(s, (crew_ctx){.sem = sem, .id = 3, .n = 5});
    cr_assert(!corral_alive(s, big), "more than the maximum could never be had");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_WAIT);
    cr_assert(!corral_semaphore_create_ex(s, 3, 2).gen, "more permits than the maximum");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_COUNT);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- an event that stays set until reset */
#define LISTENER_FIELDS(F) F(corral_signal, sig) F(int, id) F(int, times)
#define LISTENER_POINTS(P) P(listening) P(heard)
DECLARE_COROUTINE(listener, LISTENER_FIELDS)
DEFINE_COROUTINE_AT(listener, LISTENER_POINTS)
{
    CORRAL_BEGIN_AT(co, LISTENER_POINTS);
    for (;;) {
        CORRAL_AWAIT_AT(co, listening, corral_wait_signal(ctx->sig));
        ctx->times++;
        trace_push(ctx->id);
        CORRAL_WAIT_FRAME_AT(co, heard);
    }
    CORRAL_END(co);
}

Test(scenarios, a_set_event_lets_every_wait_through_until_it_is_reset)
{
    corral_sched *s = ssched(32);
    corral_signal door = corral_signal_create(s);
    corral_handle a = listener_start(s, (listener_ctx){.sig = door, .id = 1});
    corral_tick(s, 0.1f);
    cr_assert_eq(corral_signal_set(s, door), 1, "setting wakes the one waiting");
    cr_assert(corral_signal_is_set(s, door));
    for (int f = 0; f < 3; f++) corral_tick(s, 0.1f);
    cr_assert_eq(listener_ctx_of(s, a)->times, 3, "set: each wait over at once");
    corral_handle b = listener_start(s, (listener_ctx){.sig = door, .id = 2});
    cr_assert_eq(listener_ctx_of(s, b)->times, 1, "a new waiter goes straight through");
    cr_assert(corral_signal_reset(s, door));
    for (int f = 0; f < 3; f++) corral_tick(s, 0.1f);
    cr_assert_eq(listener_ctx_of(s, a)->times, 3, "reset: it waits again");
    cr_assert_eq(corral_signal_raise(s, door), 2, "a raise still pulses without setting");
    cr_assert(!corral_signal_is_set(s, door));
    cr_assert(!corral_signal_is_set(s, (corral_signal){0, 0}));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_SIGNAL);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- a wait until a time on a clock */
#define ALARM_FIELDS(F) F(double, at) F(double, woke_at) F(int, woke)
#define ALARM_POINTS(P) P(sleeping) P(ringing)
DECLARE_COROUTINE(alarm_clock, ALARM_FIELDS)
DEFINE_COROUTINE_AT(alarm_clock, ALARM_POINTS)
{
    CORRAL_BEGIN_AT(co, ALARM_POINTS);
    CORRAL_AWAIT_AT(co, sleeping, corral_wait_at(ctx->at));
    ctx->woke = 1;
    ctx->woke_at = corral_domain_time(corral_sched_of(co), corral_domain_of(co));
    CORRAL_WAIT_FRAME_AT(co, ringing);
    CORRAL_END(co);
}

Test(scenarios, a_wait_until_a_time_wakes_at_the_first_frame_its_clock_reaches_it)
{
    corral_sched *s = ssched(32);
    corral_handle a = alarm_clock_start(s, (alarm_clock_ctx){.at = 1.0});
    corral_handle past = alarm_clock_start(s, (alarm_clock_ctx){.at = -5.0});
    corral_start_desc slow = {.domain = 1};
    cr_assert(corral_domain_set_scale(s, 1, 0.5f));
    corral_handle b = alarm_clock_start_ex(s, (alarm_clock_ctx){.at = 1.0}, &slow);
    corral_handle p = alarm_clock_start(s, (alarm_clock_ctx){.at = 1.0});
    cr_assert(corral_pause(s, p));
    corral_tick(s, 0.25f);
    cr_assert(alarm_clock_ctx_of(s, past)->woke, "a time past: the next frame");
    for (int f = 0; f < 2; f++) corral_tick(s, 0.25f);
    cr_assert(!alarm_clock_ctx_of(s, a)->woke, "0.75 s");
    corral_tick(s, 0.25f);
    cr_assert(alarm_clock_ctx_of(s, a)->woke);
    cr_assert_float_eq(alarm_clock_ctx_of(s, a)->woke_at, 1.0, 1e-9);
    cr_assert(!alarm_clock_ctx_of(s, b)->woke, "its clock runs at half: 0.5 s");
    for (int f = 0; f < 4; f++) corral_tick(s, 0.25f);
    cr_assert(alarm_clock_ctx_of(s, b)->woke);
    cr_assert_float_eq(alarm_clock_ctx_of(s, b)->woke_at, 1.0, 1e-9);
    cr_assert(corral_resume(s, p));
    corral_tick(s, 0.25f);
    cr_assert(alarm_clock_ctx_of(s, p)->woke, "paused past its time: it keeps the time, not what was left");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- racing coroutines that run already; a join that reads the result */

/* digs for `frames` frames, then its result is the ore it found */
#define MINER_FIELDS(F) F(int, frames) F(int, ore)
#define MINER_POINTS(P) P(digging)
DECLARE_COROUTINE_R(miner, MINER_FIELDS, int)
DEFINE_COROUTINE_AT(miner, MINER_POINTS)
{
    CORRAL_BEGIN_AT(co, MINER_POINTS);
    while (ctx->frames-- > 0) CORRAL_WAIT_FRAME_AT(co, digging);
    ctx->result = ctx->ore;
    CORRAL_END(co);
}

/* waits for a miner it did not start, and takes its ore */
#define COLLECTOR_FIELDS(F) F(corral_handle, miner) F(int, ore) F(int, done)
#define COLLECTOR_POINTS(P) P(collecting) P(resting)
DECLARE_COROUTINE(collector, COLLECTOR_FIELDS)
DEFINE_COROUTINE_AT(collector, COLLECTOR_POINTS)
{
    CORRAL_BEGIN_AT(co, COLLECTOR_POINTS);
    ctx->ore = -1;
    CORRAL_AWAIT_AT(co, collecting, corral_wait_join_result(ctx->miner, &ctx->ore, sizeof ctx->ore));
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME_AT(co, resting); /* stays, so the test can read it */
    CORRAL_END(co);
}

/* races (0), awaits any (1) or all (2) of three coroutines it was handed */
typedef struct three_handles { corral_handle h[3]; } three_handles; /* saved as its bytes */
#define REFEREE_FIELDS(F) F(three_handles, hs) F(int, how) F(int, winner) F(int, done)
#define REFEREE_POINTS(P) P(racing) P(anying) P(syncing) P(resting)
DECLARE_COROUTINE(referee, REFEREE_FIELDS)
DEFINE_COROUTINE_AT(referee, REFEREE_POINTS)
{
    CORRAL_BEGIN_AT(co, REFEREE_POINTS);
    if (ctx->how == 0) CORRAL_RACE_OF_AT(co, racing, ctx->hs.h, 3);
    else if (ctx->how == 1) CORRAL_ANY_OF_AT(co, anying, ctx->hs.h, 3);
    else CORRAL_SYNC_OF_AT(co, syncing, ctx->hs.h, 3);
    ctx->winner = corral_wait_fired(co);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME_AT(co, resting); /* stays, so the test can read it */
    CORRAL_END(co);
}

Test(scenarios, a_join_takes_the_result_of_a_coroutine_it_did_not_start_when_it_finishes)
{
    corral_sched *s = ssched(32);
    corral_handle m = miner_start(s, (miner_ctx){.frames = 2, .ore = 42});
    corral_handle c = collector_start(s, (collector_ctx){.miner = m});
    corral_handle lost = miner_start(s, (miner_ctx){.frames = 9, .ore = 7});
    corral_handle c2 = collector_start(s, (collector_ctx){.miner = lost});
    for (int f = 0; f < 3; f++) corral_tick(s, 0.1f);
    cr_assert(collector_ctx_of(s, c)->done);
    cr_assert_eq(collector_ctx_of(s, c)->ore, 42, "the joined coroutine's result");
    cr_assert(corral_stop(s, lost));
    corral_tick(s, 0.1f);
    cr_assert(collector_ctx_of(s, c2)->done);
    cr_assert_eq(collector_ctx_of(s, c2)->ore, -1, "stopped, not finished: nothing written");
    corral_handle gone = collector_start(s, (collector_ctx){.miner = m});
    cr_assert(collector_ctx_of(s, gone)->done, "a miner gone already: over at once");
    cr_assert_eq(collector_ctx_of(s, gone)->ore, -1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a join whose place is the wrong size, or (local) a local of its step */
#define MISJOIN_FIELDS(F) F(corral_handle, miner) F(short, small) F(int, local)
DECLARE_COROUTINE(misjoin, MISJOIN_FIELDS)
DEFINE_COROUTINE(misjoin)
{
    int local = 0;
    CORRAL_BEGIN(co);
    if (ctx->local) CORRAL_AWAIT(co, corral_wait_join_result(ctx->miner, &local, sizeof local));
    else CORRAL_AWAIT(co, corral_wait_join_result(ctx->miner, &ctx->small, sizeof ctx->small));
    ctx->local = local;
    CORRAL_END(co);
}

Test(scenarios, a_join_result_place_of_the_wrong_size_is_refused)
{
    corral_sched *s = ssched(32);
    corral_handle m = miner_start(s, (miner_ctx){.frames = 5});
    misjoin_start(s, (misjoin_ctx){.miner = m});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    cr_assert(strstr(corral_last_error_detail(s), "a 2-byte destination for the 4-byte result of miner") != NULL,
              "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, a_join_result_place_outside_the_context_is_refused_in_words_of_its_own)
{
    corral_sched *s = ssched(32);
    corral_handle m = miner_start(s, (miner_ctx){.frames = 5});
    misjoin_start(s, (misjoin_ctx){.miner = m, .local = 1});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    cr_assert(strstr(corral_last_error_detail(s), "the join's destination is not inside the joining coroutine's "
                                                  "context: join into a field (&ctx->v)") != NULL,
              "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, a_race_over_running_coroutines_stops_the_losers_and_any_and_sync_leave_them)
{
    cleaned_reset();
    corral_sched *s = ssched(32);
    corral_handle hs[3];
    for (int i = 0; i < 3; i++) hs[i] = cleaned_start(s, (cleaned_ctx){.id = i, .stop_after = 3 + 2 * i});
    corral_handle r = referee_start(s, (referee_ctx){.hs = {{hs[0], hs[1], hs[2]}}, .how = 0});
    for (int f = 0; f < 4; f++) corral_tick(s, 0.1f);
    cr_assert(referee_ctx_of(s, r)->done);
    cr_assert_eq(referee_ctx_of(s, r)->winner, 0);
    cr_assert_eq(g_cleanups[0][CORRAL_END_FINISHED], 1);
    cr_assert_eq(g_cleanups[1][CORRAL_END_LOST_RACE], 1, "a loser is stopped");
    cr_assert_eq(g_cleanups[2][CORRAL_END_LOST_RACE], 1);
    /* any: the first to end wakes it, the others run on */
    for (int i = 0; i < 3; i++) hs[i] = cleaned_start(s, (cleaned_ctx){.id = 10 + i, .stop_after = 9 - 2 * i});
    corral_handle a = referee_start(s, (referee_ctx){.hs = {{hs[0], hs[1], hs[2]}}, .how = 1});
    for (int f = 0; f < 10 && !referee_ctx_of(s, a)->done; f++) corral_tick(s, 0.1f);
    cr_assert(referee_ctx_of(s, a)->done);
    cr_assert_eq(referee_ctx_of(s, a)->winner, 2);
    cr_assert(corral_alive(s, hs[0]) && corral_alive(s, hs[1]), "any stops nobody");
    /* sync: all of them */
    corral_handle y = referee_start(s, (referee_ctx){.hs = {{hs[0], hs[1], hs[2]}}, .how = 2});
    corral_tick(s, 0.1f);
    cr_assert(!referee_ctx_of(s, y)->done);
    for (int f = 0; f < 5; f++) corral_tick(s, 0.1f);
    cr_assert(referee_ctx_of(s, y)->done);
    cr_assert_eq(g_cleanups[10][CORRAL_END_FINISHED] + g_cleanups[11][CORRAL_END_FINISHED], 2);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- generators that wait between their values */

/* a wave: sends out n enemies, waiting a gap between two */
#define WAVE_FIELDS(F) F(int, n) F(int, i) F(float, gap)
#define WAVE_POINTS(P) P(sent) P(resting)
DECLARE_COROUTINE_R(wave, WAVE_FIELDS, int)
DEFINE_COROUTINE_AT(wave, WAVE_POINTS)
{
    CORRAL_BEGIN_AT(co, WAVE_POINTS);
    for (ctx->i = 0; ctx->i < ctx->n; ctx->i++) {
        CORRAL_YIELD_VALUE_AT(co, sent, 100 + ctx->i);
        CORRAL_AWAIT_AT(co, resting, corral_wait_seconds(ctx->gap));
    }
    CORRAL_END(co);
}

/* pulls every enemy of a wave, waiting with it, until it ends */
#define SPAWNER_FIELDS(F) F(corral_handle, wave) F(int, v) F(int, got) F(int, ended) F(double, last_at)
#define SPAWNER_POINTS(P) P(pulling) P(idle)
DECLARE_COROUTINE(spawner, SPAWNER_FIELDS)
DEFINE_COROUTINE_AT(spawner, SPAWNER_POINTS)
{
    CORRAL_BEGIN_AT(co, SPAWNER_POINTS);
    for (;;) {
        CORRAL_PULL_AT(co, pulling, ctx->wave, &ctx->v);
        if (corral_wait_closed(co)) break;
        ctx->got++;
        ctx->last_at = corral_time(corral_sched_of(co));
        trace_push(ctx->v);
    }
    ctx->ended = 1;
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle); /* stays, so the test can read it */
    CORRAL_END(co);
}

Test(scenarios, a_generator_waits_between_its_values_and_its_puller_waits_with_it)
{
    corral_sched *s = ssched(32);
    corral_handle w = wave_gen(s, (wave_ctx){.n = 3, .gap = 0.5f});
    corral_handle p = spawner_start(s, (spawner_ctx){.wave = w});
    int want0[] = {100};
    expect_trace(want0, 1); /* the first value at once; then the wave rests */
    corral_co_info in;
    cr_assert(corral_co_info_of(s, p, &in));
    cr_assert_eq(in.wait, CORRAL_WAIT_PULL, "the puller waits on the generator");
    for (int f = 0; f < 4; f++) corral_tick(s, 0.25f); /* 1.0 s */
    int want1[] = {100, 101, 102};
    expect_trace(want1, 3);
    cr_assert_float_eq(spawner_ctx_of(s, p)->last_at, 1.0, 1e-9, "each after the wave's gap");
    for (int f = 0; f < 2; f++) corral_tick(s, 0.25f);
    cr_assert(spawner_ctx_of(s, p)->ended, "the wave ended: the pull says so");
    cr_assert_eq(spawner_ctx_of(s, p)->got, 3);
    cr_assert(!corral_alive(s, w));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, a_generator_stopped_while_pulled_ends_the_pull_and_a_pull_without_a_node_ends_the_puller)
{
    corral_sched *s = ssched(1); /* the wave's timer is a plain sleep: one node, a puller's */
    corral_handle w = wave_gen(s, (wave_ctx){.n = 5, .gap = 10.0f});
    corral_handle p = spawner_start(s, (spawner_ctx){.wave = w});
    cr_assert_eq(spawner_ctx_of(s, p)->got, 1);
    cr_assert(corral_stop(s, w));
    corral_tick(s, 0.1f);
    cr_assert(spawner_ctx_of(s, p)->ended);
    cr_assert(corral_stop(s, p));
    /* one node: the wave's timer takes none, the puller the one; a second puller finds none */
    corral_handle w2 = wave_gen(s, (wave_ctx){.n = 5, .gap = 10.0f});
    corral_handle p2 = spawner_start(s, (spawner_ctx){.wave = w2});
    corral_handle p3 = spawner_start(s, (spawner_ctx){.wave = w2});
    cr_assert(corral_alive(s, p2));
    cr_assert(!corral_alive(s, p3), "no node for its wait: it ends, WAIT_FAILED");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(scenarios, each_new_wait_that_finds_no_node_ends_its_coroutine_and_takes_nothing)
{
    corral_sched *s = ssched(1);
    corral_handle g = guard_start(s, (guard_ctx){.id = 1}); /* takes the one node */
    corral_handle a = alarm_clock_start(s, (alarm_clock_ctx){.at = 5.0});
    cr_assert(!corral_alive(s, a), "an at wait without a node: it ends, never wakes early");
    corral_semaphore sem = corral_semaphore_create_ex(s, 1, 4);
    corral_handle c = crew_start(s, (crew_ctx){.sem = sem, .n = 2});
    cr_assert(!corral_alive(s, c));
    cr_assert_eq(corral_semaphore_count(s, sem), 1, "no permit taken");
    corral_handle m = miner_start(s, (miner_ctx){.frames = 3});
    corral_handle col = collector_start(s, (collector_ctx){.miner = m});
    cr_assert(!corral_alive(s, col));
    corral_handle r = referee_start(s, (referee_ctx){.hs = {{m, m, m}}});
    cr_assert(!corral_alive(s, r));
    cr_assert(corral_alive(s, m), "a race that could not wait stops nobody");
    cr_assert(corral_alive(s, g));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- saves and snapshots in the middle of each new wait */
#define SCENE_TYPES(X) X(sentry, 1, 0) X(guard, 2, 0) X(looter, 3, 0) X(picker, 4, 0) X(crew, 5, 0) \
    X(listener, 6, 0) X(alarm_clock, 7, 0) X(miner, 8, 0) X(collector, 9, 0) X(referee, 10, 0) X(wave, 11, 0) \
    X(spawner, 12, 0)
CORRAL_DECLARE_REGISTRY(scene, SCENE_TYPES)
CORRAL_DEFINE_REGISTRY(scene, SCENE_TYPES);

typedef struct scene {
    corral_channel unbuffered, closing, drained;
    corral_semaphore sem;
    corral_signal open, shut;
    corral_handle guard;
} scene;

static corral_sched *scene_sched(void)
{
    corral_sched_desc d = one_class_desc(128, 32);
    d.registry = &scene_registry;
    d.channel_bytes = 16;
    d.domains = 2;
    return sched_of(d);
}

/* every new wait under way: a sentry (any with a stop) of squad 3, a
   guard, a sender and a receiver on unbuffered channels, a receiver on a
   stream about to close, a picker that already saw a close, two crews
   wanting 2 and 1 permits, a listener on a set event and one on a reset
   one, alarms on both clocks */
static scene scene_make(corral_sched *s)
{
    scene k;
    k.unbuffered = corral_channel_create_ex(s, sizeof(int), 0);
    k.closing = corral_channel_create_ex(s, sizeof(int), 2);
    k.drained = corral_channel_create(s, sizeof(int));
    k.sem = corral_semaphore_create_ex(s, 1, 3);
    k.open = corral_signal_create(s);
    k.shut = corral_signal_create(s);
    corral_signal_set(s, k.open);
    corral_domain_set_scale(s, 1, 0.5f);
    corral_start_desc squad = {.owner = 3};
    sentry_start_ex(s, (sentry_ctx){.id = 1}, &squad);
    k.guard = guard_start(s, (guard_ctx){.id = 2});
    looter_start(s, (looter_ctx){.ch = k.unbuffered, .n = 3});
    picker_start(s, (picker_ctx){.ch = k.closing, .id = 4});
    corral_channel_close(s, k.drained);
    picker_start(s, (picker_ctx){.ch = k.drained, .id = 5}); /* ends at once: closed */
    crew_start(s, (crew_ctx){.sem = k.sem, .id = 6, .n = 2});
    crew_start(s, (crew_ctx){.sem = k.sem, .id = 7, .n = 1});
    listener_start(s, (listener_ctx){.sig = k.open, .id = 8});
    listener_start(s, (listener_ctx){.sig = k.shut, .id = 9});
    alarm_clock_start(s, (alarm_clock_ctx){.at = 0.7});
    corral_start_desc slow = {.domain = 1};
    alarm_clock_start_ex(s, (alarm_clock_ctx){.at = 0.7}, &slow);
    /* a collector joining a miner for its result; a referee racing three */
    collector_start(s, (collector_ctx){.miner = miner_start(s, (miner_ctx){.frames = 4, .ore = 5})});
    referee_ctx r = {.how = 0};
    for (int i = 0; i < 3; i++) r.hs.h[i] = miner_start(s, (miner_ctx){.frames = 6 + 2 * i, .ore = i});
    referee_start(s, r);
    /* a spawner pulling a wave that rests between its enemies */
    spawner_start(s, (spawner_ctx){.wave = wave_gen(s, (wave_ctx){.n = 3, .gap = 0.6f})});
    return k;
}

/* what happens to the scene in frame f, the same in every copy */
static void scene_frame(corral_sched *s, const scene *k, int f)
{
    int v = 50 + f;
    if (f == 1) corral_request_stop_owner(s, 3, 0.0f);
    if (f == 2) corral_channel_try_receive(s, k->unbuffered, &v, sizeof v);
    if (f == 3) corral_channel_try_send(s, k->closing, &v, sizeof v);
    if (f == 4) corral_semaphore_release(s, k->sem, 2);
    if (f == 5) corral_channel_close(s, k->closing);
    if (f == 6) corral_signal_reset(s, k->open);
    if (f == 7) corral_signal_set(s, k->shut);
    if (f == 8) corral_request_stop(s, k->guard, 0.0f);
    corral_tick(s, 0.25f);
}

Test(scenarios, a_save_in_the_middle_of_every_new_wait_loads_and_replays_to_equal_hashes)
{
    corral_sched *a = scene_sched();
    scene k = scene_make(a);
    corral_tick(a, 0.25f);
    cr_assert(corral_verify(a), "%s", corral_last_error_detail(a));
    static unsigned char buf[1 << 15];
    const size_t n = corral_save(a, buf, sizeof buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    corral_sched *b = scene_sched();
    cr_assert(corral_load(b, buf, n), "%s", corral_last_error_detail(b));
    cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a));
    cr_assert(corral_channel_closed(b, k.drained) && corral_channel_capacity(b, k.unbuffered) == 0);
    cr_assert(corral_signal_is_set(b, k.open));
    const uint32_t live = corral_live_count(a);
    for (int f = 0; f < 12; f++) {
        scene_frame(a, &k, f);
        scene_frame(b, &k, f);
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d after the load", f);
        cr_assert_eq(corral_live_count(b), corral_live_count(a));
    }
    /* what ended: the sentry and the guard (asked), the stream's picker (closed), both
       crews (permits), both alarms, the miners (the collector's and the race's winner
       finished, its losers stopped), the wave (pulled to its end); the listeners, the
       collector, the referee and the spawner stay, and the unbuffered sender waits with
       its second value (one was taken) */
    cr_assert_eq(live, 18, "live %u", live);
    cr_assert_eq(corral_live_count(b), 6, "every wait saw its event after the load: %u", corral_live_count(b));
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(scenarios, a_snapshot_in_the_middle_of_every_new_wait_rewinds_and_replays_to_equal_hashes)
{
    corral_sched *a = scene_sched();
    scene k = scene_make(a);
    corral_tick(a, 0.25f);
    static unsigned char snap[1 << 17];
    const size_t n = corral_snapshot(a, snap, sizeof snap);
    cr_assert_gt(n, 0);
    uint64_t hashes[12];
    for (int f = 0; f < 12; f++) {
        scene_frame(a, &k, f);
        hashes[f] = corral_state_hash(a);
    }
    cr_assert(corral_restore(a, snap, n), "%s", corral_last_error_detail(a));
    cr_assert(corral_verify(a));
    for (int f = 0; f < 12; f++) {
        scene_frame(a, &k, f);
        cr_assert_eq(corral_state_hash(a), hashes[f], "frame %d after the rewind", f);
    }
    corral_sched_destroy(a);
}

Test(scenarios, the_state_hash_tells_a_closed_channel_a_set_event_and_the_permits_wanted_apart)
{
    corral_sched *a = scene_sched();
    corral_sched *b = scene_sched();
    scene ka = scene_make(a), kb = scene_make(b);
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    corral_signal_reset(b, kb.open);
    cr_assert_neq(corral_state_hash(a), corral_state_hash(b), "a set event");
    corral_signal_reset(a, ka.open);
    corral_channel_close(b, kb.closing);
    cr_assert_neq(corral_state_hash(a), corral_state_hash(b), "a closed channel");
    corral_channel_close(a, ka.closing);
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    crew_start(a, (crew_ctx){.sem = ka.sem, .id = 10, .n = 3});
    crew_start(b, (crew_ctx){.sem = kb.sem, .id = 10, .n = 2});
    cr_assert_neq(corral_state_hash(a), corral_state_hash(b), "the permits a waiter wants");
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}
