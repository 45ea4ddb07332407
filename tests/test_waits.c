/* test_waits.c -- every wait kind: when it resumes, in which phase, errors. */
#include "common.h"
#include "corral_internal.h"

static void setup(void) { trace_reset(); }
TestSuite(waits, .init = setup);

static corral_sched *wsched(uint32_t cap)
{
    corral_sched_desc d = one_class_desc(128, cap);
    return sched_of(d);
}

/* waiter: awaits ctx->w once, then records the frame and phase it resumed */
#define WAITER_FIELDS(F)      \
    F(int, id)                \
    F(corral_wait, w)         \
    F(int64_t, resumed_frame) \
    F(int, resumed_phase)     \
    F(int, fired)             \
    F(double, resumed_time)
DECLARE_COROUTINE(waiter, WAITER_FIELDS)
DEFINE_COROUTINE(waiter)
{
    CORRAL_BEGIN(co);
    ctx->resumed_frame = -1;
    CORRAL_AWAIT(co, ctx->w);
    ctx->resumed_frame = (int64_t)corral_frame(corral_sched_of(co));
    ctx->resumed_phase = (int)corral_current_phase(co);
    ctx->resumed_time = corral_time(corral_sched_of(co));
    ctx->fired = corral_wait_fired(co);
    trace_push(ctx->id);
    for (;;) CORRAL_WAIT_FRAME(co); /* stay alive so the test can read ctx */
    CORRAL_END(co);
}

static corral_handle wait_on(corral_sched *s, int id, corral_wait w)
{
    waiter_ctx c;
    memset(&c, 0, sizeof c);
    c.id = id;
    c.w = w;
    return waiter_start(s, c);
}
static waiter_ctx *W(corral_sched *s, corral_handle h)
{
    waiter_ctx *c = waiter_ctx_of(s, h);
    cr_assert_not_null(c);
    return c;
}

Test(waits, next_frame_resumes_in_the_next_frames_update)
{
    corral_sched *s = wsched(8);
    corral_start_desc o = {.phase = CORRAL_PHASE_FIXED_UPDATE};
    waiter_ctx c;
    memset(&c, 0, sizeof c);
    c.w = corral_wait_next_frame();
    corral_handle h = waiter_start_ex(s, c, &o);
    corral_tick(s, 0.02f);
    cr_assert_eq(W(s, h)->resumed_frame, 1);
    cr_assert_eq(W(s, h)->resumed_phase, CORRAL_PHASE_UPDATE);
    corral_sched_destroy(s);
}

Test(waits, frames_n_resumes_exactly_n_frames_later)
{
    corral_sched *s = wsched(8);
    corral_handle h = wait_on(s, 1, corral_wait_frames(3));
    for (int f = 0; f < 5; f++) corral_tick(s, 0.016f);
    cr_assert_eq(W(s, h)->resumed_frame, 3);
    corral_handle next = wait_on(s, 2, corral_wait_frames(0));
    cr_assert_eq(W(s, next)->resumed_frame, -1, "0 frames still lets a frame pass");
    corral_tick(s, 0.016f);
    cr_assert_eq(W(s, next)->resumed_frame, 6, "0 frames: the next frame, as 1");
    corral_sched_destroy(s);
}

Test(waits, seconds_resume_on_the_first_update_at_which_they_have_elapsed)
{
    corral_sched *s = wsched(8);
    corral_handle h = wait_on(s, 1, corral_wait_seconds(0.1f));
    corral_tick(s, 0.03f); /* 0.03 */
    corral_tick(s, 0.03f); /* 0.06 */
    corral_tick(s, 0.03f); /* 0.09 */
    cr_assert_eq(W(s, h)->resumed_frame, -1, "not before 0.1 s");
    corral_tick(s, 0.03f); /* 0.12 */
    cr_assert_eq(W(s, h)->resumed_frame, 4);
    cr_assert_eq(W(s, h)->resumed_phase, CORRAL_PHASE_UPDATE);
    corral_sched_destroy(s);
}

Test(waits, seconds_are_exact_under_random_dt_jitter)
{
    corral_sched *s = wsched(64);
    uint32_t seed = 12345;
    corral_handle h[32];
    double started[32];
    float waits[32];
    for (int i = 0; i < 32; i++) {
        seed = seed * 1664525u + 1013904223u;
        waits[i] = 0.05f + (float)(seed >> 8) / (float)(1u << 24) * 2.0f;
        started[i] = corral_time(s);
        h[i] = wait_on(s, i, corral_wait_seconds(waits[i]));
        seed = seed * 1664525u + 1013904223u;
        corral_tick(s, 0.001f + (float)(seed >> 8) / (float)(1u << 24) * 0.05f);
    }
    /* remember every frame's time, then tick until all woke */
    double frame_time[4096];
    frame_time[corral_frame(s)] = corral_time(s);
    for (int f = 0; f < 3000; f++) {
        seed = seed * 1664525u + 1013904223u;
        corral_tick(s, 0.001f + (float)(seed >> 8) / (float)(1u << 24) * 0.05f);
        frame_time[corral_frame(s)] = corral_time(s);
    }
    for (int i = 0; i < 32; i++) {
        waiter_ctx *c = W(s, h[i]);
        cr_assert_geq(c->resumed_frame, 1);
        double due = started[i] + (double)waits[i];
        cr_assert_geq(c->resumed_time, due, "woke before its time");
        cr_assert_lt(frame_time[c->resumed_frame - 1], due, "not the first frame at which it elapsed");
    }
    corral_sched_destroy(s);
}

Test(waits, time_scale_zero_pauses_scaled_waits_but_not_realtime_waits)
{
    corral_sched *s = wsched(8);
    corral_handle scaled = wait_on(s, 1, corral_wait_seconds(0.05f));
    corral_handle real = wait_on(s, 2, corral_wait_realtime(0.05f));
    corral_set_time_scale(s, 0.0f);
    for (int f = 0; f < 10; f++) corral_tick(s, 0.02f);
    cr_assert_eq(W(s, scaled)->resumed_frame, -1);
    cr_assert_eq(W(s, real)->resumed_frame, 3, "unscaled 0.06 >= 0.05 at frame 3");
    corral_set_time_scale(s, 1.0f);
    for (int f = 0; f < 3; f++) corral_tick(s, 0.02f);
    cr_assert_eq(W(s, scaled)->resumed_frame, 13);
    corral_sched_destroy(s);
}

Test(waits, time_scale_half_doubles_and_two_halves_the_frames_a_wait_takes)
{
    int frames[2];
    const float scales[2] = {0.5f, 2.0f};
    for (int k = 0; k < 2; k++) {
        corral_sched *s = wsched(8);
        corral_set_time_scale(s, scales[k]);
        corral_handle h = wait_on(s, 1, corral_wait_seconds(0.1f));
        for (int f = 0; f < 40; f++) corral_tick(s, 0.01f);
        frames[k] = (int)W(s, h)->resumed_frame;
        corral_sched_destroy(s);
    }
    cr_assert(frames[0] >= 20 && frames[0] <= 21, "scale 0.5: %d frames", frames[0]);
    cr_assert(frames[1] >= 5 && frames[1] <= 6, "scale 2: %d frames", frames[1]);
}

Test(waits, fixed_update_wait_resumes_in_the_next_fixed_step)
{
    corral_sched *s = wsched(8);
    corral_handle h = wait_on(s, 1, corral_wait_fixed_update());
    corral_tick(s, 0.01f); /* no fixed step due yet */
    cr_assert_eq(W(s, h)->resumed_frame, -1);
    corral_tick(s, 0.01f); /* time 0.02: one fixed step */
    cr_assert_eq(W(s, h)->resumed_frame, 2);
    cr_assert_eq(W(s, h)->resumed_phase, CORRAL_PHASE_FIXED_UPDATE);
    corral_sched_destroy(s);
}

Test(waits, end_of_frame_and_late_update_resume_later_in_the_same_frame)
{
    corral_sched *s = wsched(8);
    corral_handle a = wait_on(s, 1, corral_wait_next_frame()); /* lives in UPDATE */
    (void)a;
    corral_tick(s, 0.01f);
    corral_handle eof = wait_on(s, 2, corral_wait_end_of_frame());
    corral_handle late = wait_on(s, 3, corral_wait_late_update());
    corral_frame_begin(s, 0.01f);
    corral_run_phase(s, CORRAL_PHASE_UPDATE);
    cr_assert_eq(W(s, late)->resumed_frame, -1);
    corral_run_phase(s, CORRAL_PHASE_LATE_UPDATE);
    cr_assert_eq(W(s, late)->resumed_frame, 2);
    cr_assert_eq(W(s, late)->resumed_phase, CORRAL_PHASE_LATE_UPDATE);
    cr_assert_eq(W(s, eof)->resumed_frame, -1);
    corral_run_phase(s, CORRAL_PHASE_END_OF_FRAME);
    cr_assert_eq(W(s, eof)->resumed_frame, 2);
    cr_assert_eq(W(s, eof)->resumed_phase, CORRAL_PHASE_END_OF_FRAME);
    corral_sched_destroy(s);
}

static int g_polls;
static bool flag_is_set(void *user)
{
    g_polls++;
    return *(bool *)user;
}

Test(waits, until_polls_once_per_run_and_resumes_in_the_run_it_turns_true)
{
    corral_sched *s = wsched(8);
    bool flag = false;
    g_polls = 0;
    corral_handle h = wait_on(s, 1, corral_wait_until(flag_is_set, &flag));
    cr_assert_eq(g_polls, 1, "checked once when the wait begins");
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    cr_assert_eq(g_polls, 3);
    flag = true;
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, 3);
    corral_tick(s, 0.01f);
    cr_assert_eq(g_polls, 4, "no longer polled once resumed");
    flag = true;
    corral_handle at_once = wait_on(s, 2, corral_wait_until(flag_is_set, &flag));
    cr_assert_eq(W(s, at_once)->resumed_frame, 4, "already true: goes on at once");
    corral_sched_destroy(s);
}

Test(waits, while_resumes_when_the_predicate_turns_false)
{
    corral_sched *s = wsched(8);
    bool busy = true;
    corral_handle h = wait_on(s, 1, corral_wait_while(flag_is_set, &busy));
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, -1);
    busy = false;
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, 2);
    corral_sched_destroy(s);
}

Test(waits, a_signal_raised_between_ticks_wakes_every_waiter_in_waiting_order)
{
    corral_sched *s = wsched(8);
    corral_signal sig = corral_signal_create(s);
    cr_assert_neq(sig.gen, 0);
    corral_handle h3 = wait_on(s, 3, corral_wait_signal(sig));
    corral_handle h1 = wait_on(s, 1, corral_wait_signal(sig));
    corral_handle h2 = wait_on(s, 2, corral_wait_signal(sig));
    corral_tick(s, 0.01f);
    cr_assert_eq(g_trace_len, 0);
    cr_assert_eq(corral_signal_raise(s, sig), 3);
    corral_tick(s, 0.01f);
    int want[] = {3, 1, 2};
    expect_trace(want, 3);
    cr_assert_eq(W(s, h1)->resumed_frame, 2);
    cr_assert_eq(W(s, h2)->resumed_frame, 2);
    cr_assert_eq(W(s, h3)->resumed_phase, CORRAL_PHASE_UPDATE);
    cr_assert_eq(corral_signal_raise(s, sig), 0, "nobody waits any more");
    corral_sched_destroy(s);
}

static corral_result raise_in_step(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) corral_signal_raise(corral_sched_of(co), *(corral_signal *)ctx->user);
    return CORRAL_YIELD;
}

Test(waits, a_signal_raised_inside_an_update_step_wakes_update_waiters_next_frame)
{
    corral_sched *s = wsched(8);
    corral_signal sig = corral_signal_create(s);
    corral_handle none = {0, 0};
    corral_handle late = wait_on(s, 2, corral_wait_signal(sig));
    start_actor(s, 9, raise_in_step, none, &sig);
    corral_handle early = wait_on(s, 1, corral_wait_signal(sig));
    corral_tick(s, 0.01f); /* frame 1: the actor raises during UPDATE */
    cr_assert_eq(W(s, early)->resumed_frame, -1, "woken, but this UPDATE run is under way");
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, late)->resumed_frame, 2);
    cr_assert_eq(W(s, early)->resumed_frame, 2);
    corral_sched_destroy(s);
}

Test(waits, destroyed_signal_wakes_its_waiters_and_its_handle_goes_stale)
{
    corral_sched *s = wsched(8);
    corral_signal sig = corral_signal_create(s);
    corral_handle h = wait_on(s, 1, corral_wait_signal(sig));
    cr_assert(corral_signal_destroy(s, sig));
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, 1);
    cr_assert_eq(corral_signal_raise(s, sig), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_SIGNAL);
    corral_signal zero = {0, 0};
    cr_assert_not(corral_signal_destroy(s, zero));
    corral_handle bad = wait_on(s, 2, corral_wait_signal(sig));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_SIGNAL);
    cr_assert_eq(W(s, bad)->resumed_frame, -1, "a wait on a signal that is gone is a plain yield");
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, bad)->resumed_frame, 2, "it goes on in the next frame");
    corral_sched_destroy(s);
}

Test(waits, signal_pool_exhaustion_is_an_error)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.max_signals = 2;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_neq(corral_signal_create(s).gen, 0);
    corral_signal two = corral_signal_create(s);
    cr_assert_neq(two.gen, 0);
    cr_assert_eq(corral_signal_create(s).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIGNAL_POOL_EXHAUSTED);
    corral_signal_destroy(s, two);
    corral_signal again = corral_signal_create(s);
    cr_assert_eq(again.index, two.index);
    cr_assert_neq(again.gen, two.gen, "a recycled signal has a new generation");
    corral_sched_destroy(s);
}

Test(waits, future_completed_before_the_wait_goes_on_at_once)
{
    corral_sched *s = wsched(8);
    corral_future f = corral_future_create(s);
    corral_value v = {.i = 42};
    cr_assert(corral_future_complete(s, f, v));
    corral_handle h = wait_on(s, 1, corral_wait_future(f));
    cr_assert_eq(W(s, h)->resumed_frame, 0, "resumed inside start");
    corral_value out;
    cr_assert(corral_future_value(s, f, &out));
    cr_assert_eq(out.i, 42);
    corral_sched_destroy(s);
}

Test(waits, future_completed_after_the_wait_resumes_the_waiter_with_the_value)
{
    corral_sched *s = wsched(8);
    corral_future f = corral_future_create(s);
    corral_handle h = wait_on(s, 1, corral_wait_future(f));
    corral_tick(s, 0.01f);
    cr_assert_not(corral_future_done(s, f));
    corral_value out;
    cr_assert_not(corral_future_value(s, f, &out));
    corral_value v = {.d = 2.5};
    cr_assert(corral_future_complete(s, f, v));
    cr_assert_not(corral_future_complete(s, f, v));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_FUTURE_DONE);
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, 2);
    cr_assert(corral_future_value(s, f, &out));
    cr_assert_float_eq(out.d, 2.5, 1e-12);
    cr_assert(corral_future_release(s, f));
    cr_assert_not(corral_future_done(s, f));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_FUTURE);
    corral_sched_destroy(s);
}

Test(waits, join_on_a_running_coroutine_resumes_after_it_ends)
{
    corral_sched *s = wsched(8);
    corral_handle target = start_tracer(s, 50, 3);
    corral_handle h = wait_on(s, 1, corral_wait_join(target));
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, -1);
    corral_tick(s, 0.01f); /* target's third step: it ends */
    cr_assert_not(corral_alive(s, target));
    cr_assert_eq(W(s, h)->resumed_frame, 2, "ended during UPDATE: the joiner resumes in the same run");
    corral_sched_destroy(s);
}

Test(waits, join_on_a_finished_stale_or_zero_handle_goes_on_at_once)
{
    corral_sched *s = wsched(8);
    corral_handle done = start_tracer(s, 50, 1);
    corral_handle zero = {0, 0};
    cr_assert_eq(W(s, wait_on(s, 1, corral_wait_join(done)))->resumed_frame, 0);
    cr_assert_eq(W(s, wait_on(s, 2, corral_wait_join(zero)))->resumed_frame, 0);
    corral_sched_destroy(s);
}

#define CHAIN_FIELDS(F)      \
    F(int, depth)            \
    F(corral_handle, child)
DECLARE_COROUTINE(chain, CHAIN_FIELDS)
DEFINE_COROUTINE(chain)
{
    CORRAL_BEGIN(co);
    if (ctx->depth > 0) {
        ctx->child = chain_start(corral_sched_of(co), (chain_ctx){.depth = ctx->depth - 1});
        CORRAL_WAIT_JOIN(co, ctx->child);
    } else {
        CORRAL_WAIT_FRAMES(co, 2); /* the innermost takes a while */
    }
    trace_push(ctx->depth);
    CORRAL_END(co);
}

Test(waits, a_chain_of_joins_unwinds_in_the_frame_its_innermost_ends)
{
    corral_sched *s = wsched(256);
    corral_handle top = chain_start(s, (chain_ctx){.depth = 100});
    corral_tick(s, 0.01f);
    cr_assert(corral_alive(s, top));
    cr_assert_eq(g_trace_len, 0);
    corral_tick(s, 0.01f); /* frame 2: the innermost wakes and ends; all 100 parents follow */
    cr_assert_not(corral_alive(s, top));
    cr_assert_eq(g_trace_len, 101);
    for (int i = 0; i <= 100; i++) cr_assert_eq(g_trace[i], i);
    cr_assert_eq(corral_live_count(s), 0);
    corral_sched_destroy(s);
}

Test(waits, join_on_a_stopped_coroutine_wakes_the_joiner)
{
    corral_sched *s = wsched(8);
    corral_handle target = start_tracer(s, 50, 0);
    corral_handle h = wait_on(s, 1, corral_wait_join(target));
    corral_stop(s, target);
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, 1);
    corral_sched_destroy(s);
}

#define SELFJOIN_FIELDS(F) F(int, result)
DECLARE_COROUTINE(selfjoin, SELFJOIN_FIELDS)
DEFINE_COROUTINE(selfjoin)
{
    ctx->result = corral_await(co, corral_wait_join(corral_self(co))) ? 1 : 0;
    return CORRAL_YIELD;
}

Test(waits, joining_itself_is_refused)
{
    corral_sched *s = wsched(8);
    corral_handle h = selfjoin_start(s, (selfjoin_ctx){.result = -1});
    cr_assert_eq(selfjoin_ctx_of(s, h)->result, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CYCLIC_WAIT);
    corral_sched_destroy(s);
}

Test(waits, all_resumes_when_every_member_fired)
{
    corral_sched *s = wsched(8);
    corral_signal sig = corral_signal_create(s);
    corral_wait members[2] = {corral_wait_signal(sig), corral_wait_frames(2)};
    corral_handle h = wait_on(s, 1, corral_wait_all(members, 2));
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f); /* frames fired */
    cr_assert_eq(W(s, h)->resumed_frame, -1);
    corral_signal_raise(s, sig);
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, 3);
    corral_sched_destroy(s);
}

Test(waits, any_resumes_on_the_first_member_and_says_which_and_frees_the_rest)
{
    corral_sched *s = wsched(8);
    uint32_t free_before = s->nodes.wait_free_count;
    corral_signal sig = corral_signal_create(s);
    corral_wait members[3] = {corral_wait_seconds(100.0f), corral_wait_signal(sig),
                              corral_wait_frames(50)};
    corral_handle h = wait_on(s, 1, corral_wait_any(members, 3));
    cr_assert_eq(s->nodes.wait_free_count, free_before - 3);
    corral_tick(s, 0.01f);
    corral_signal_raise(s, sig);
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, h)->resumed_frame, 2);
    cr_assert_eq(W(s, h)->fired, 1, "the signal fired");
    cr_assert_eq(s->nodes.wait_free_count, free_before, "the timer nodes were released");
    cr_assert_eq(s->timers.heap_len[CORRAL__HEAP_SCALED] + s->timers.heap_len[CORRAL__HEAP_FRAMES], 0);
    corral_sched_destroy(s);
}

Test(waits, any_with_a_member_already_over_goes_on_at_once_naming_it)
{
    corral_sched *s = wsched(8);
    corral_handle done = start_tracer(s, 50, 1);
    corral_wait members[2] = {corral_wait_seconds(5.0f), corral_wait_join(done)};
    corral_handle h = wait_on(s, 1, corral_wait_any(members, 2));
    cr_assert_eq(W(s, h)->resumed_frame, 0);
    cr_assert_eq(W(s, h)->fired, 1);
    corral_sched_destroy(s);
}

Test(waits, all_and_any_with_a_member_stopped_count_it_as_ended)
{
    corral_sched *s = wsched(16);
    corral_handle a = start_tracer(s, 50, 0), b = start_tracer(s, 51, 0);
    corral_wait both[2] = {corral_wait_join(a), corral_wait_join(b)};
    corral_handle all = wait_on(s, 1, corral_wait_all(both, 2));
    corral_handle any = wait_on(s, 2, corral_wait_any(both, 2));
    corral_stop(s, b);
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, any)->resumed_frame, 1);
    cr_assert_eq(W(s, any)->fired, 1);
    cr_assert_eq(W(s, all)->resumed_frame, -1);
    corral_stop(s, a);
    corral_tick(s, 0.01f);
    cr_assert_eq(W(s, all)->resumed_frame, 2);
    corral_sched_destroy(s);
}

Test(waits, malformed_groups_are_refused)
{
    corral_sched *s = wsched(8);
    corral_wait phase_member[1] = {corral_wait_end_of_frame()};
    corral_handle h = wait_on(s, 1, corral_wait_any(phase_member, 1));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_WAIT);
    cr_assert_eq(W(s, h)->resumed_frame, 0);
    corral_wait many[CORRAL_MAX_GROUP + 1];
    for (int i = 0; i <= CORRAL_MAX_GROUP; i++) many[i] = corral_wait_frames(1);
    wait_on(s, 2, corral_wait_all(many, CORRAL_MAX_GROUP + 1));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_WAIT);
    corral_sched_destroy(s);
}

#define PICKY_FIELDS(F) \
    F(int, i)           \
    F(int, slow)
DECLARE_COROUTINE(picky, PICKY_FIELDS)
DEFINE_COROUTINE(picky)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 3; ctx->i++) {
        /* a wait computed at run time, as the seeds' `y = c ? null : new WaitForSeconds(1)` */
        corral_wait y = ctx->slow ? corral_wait_seconds(1.0f) : corral_wait_next_frame();
        CORRAL_AWAIT(co, y);
        trace_push(ctx->i);
    }
    CORRAL_END(co);
}

Test(waits, a_wait_is_a_value_computed_at_run_time)
{
    corral_sched *s = wsched(8);
    corral_handle fast = picky_start(s, (picky_ctx){.slow = 0});
    corral_handle slow = picky_start(s, (picky_ctx){.slow = 1});
    for (int f = 0; f < 3; f++) corral_tick(s, 0.1f);
    cr_assert_not(corral_alive(s, fast));
    cr_assert(corral_alive(s, slow));
    for (int f = 0; f < 30; f++) corral_tick(s, 0.1f);
    cr_assert_not(corral_alive(s, slow));
    corral_sched_destroy(s);
}

Test(waits, timers_with_the_same_due_time_wake_in_the_order_they_were_set)
{
    corral_sched *s = wsched(16);
    for (int i = 1; i <= 5; i++) wait_on(s, i, corral_wait_seconds(0.5f));
    for (int f = 0; f < 6; f++) corral_tick(s, 0.1f);
    int want[] = {1, 2, 3, 4, 5};
    expect_trace(want, 5);
    corral_sched_destroy(s);
}

/* enough timers for several levels of the 4-ary heaps, with ties, random
   due frames and random cancellations: they fire in (due, start) order and
   every heap stays valid after every frame */
Test(waits, many_timers_with_ties_and_cancellations_fire_in_due_then_start_order)
{
    enum { COUNT = 1500, SPAN = 40 };
    corral_sched *s = wsched(COUNT);
    static int due[COUNT];
    static corral_handle h[COUNT];
    static bool cancelled[COUNT];
    uint32_t rng = 12345u;
    for (int i = 0; i < COUNT; i++) {
        rng = rng * 1664525u + 1013904223u;
        due[i] = 1 + (int)((rng >> 16) % SPAN);
        cancelled[i] = ((rng >> 8) & 7u) == 0;
        h[i] = wait_on(s, i, corral_wait_frames((uint32_t)due[i]));
    }
    for (int i = 0; i < COUNT; i++)
        if (cancelled[i]) cr_assert(corral_stop(s, h[i]));
    cr_assert(corral_verify(s));
    for (int f = 0; f <= SPAN; f++) {
        corral_tick(s, 0.016f);
        cr_assert(corral_verify(s), "frame %d", f);
    }
    int n = 0;
    for (int d = 1; d <= SPAN; d++)
        for (int i = 0; i < COUNT; i++)
            if (due[i] == d && !cancelled[i]) {
                cr_assert_lt(n, g_trace_len);
                cr_assert_eq(g_trace[n], i, "wake %d: id %d, expected %d", n, g_trace[n], i);
                cr_assert_eq(W(s, h[i])->resumed_frame, d);
                n++;
            }
    cr_assert_eq(g_trace_len, n);
    cr_assert_gt(n, COUNT / 2);
    corral_sched_destroy(s);
}

Test(waits, stopping_a_sleeper_removes_its_timer_so_a_reused_slot_is_not_woken)
{
    corral_sched *s = wsched(1);
    corral_handle h = wait_on(s, 1, corral_wait_seconds(0.05f));
    cr_assert_eq(s->timers.heap_len[CORRAL__HEAP_SCALED], 1);
    corral_stop(s, h);
    cr_assert_eq(s->timers.heap_len[CORRAL__HEAP_SCALED], 0);
    corral_handle again = wait_on(s, 2, corral_wait_seconds(10.0f));
    cr_assert_eq(again.index, h.index, "same slot");
    for (int f = 0; f < 10; f++) corral_tick(s, 0.02f);
    cr_assert_eq(W(s, again)->resumed_frame, -1, "the old timer did not fire into the new tenant");
    corral_sched_destroy(s);
}

Test(waits, wait_node_pool_exhaustion_is_reported_and_the_coroutine_ends_without_resuming)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 128;
    d.classes[0].capacity = 8;
    d.max_wait_nodes = 1;
    d.max_sleepers = 1;
    corral_sched *s = corral_sched_create(&d);
    corral_handle a = wait_on(s, 1, corral_wait_seconds(1.0f)); /* the one sleep */
    cr_assert_eq(W(s, a)->resumed_frame, -1);
    corral_handle n = wait_on(s, 3, corral_wait_seconds(1.0f)); /* past max_sleepers: the one node */
    cr_assert(corral_alive(s, n));
    corral_handle b = wait_on(s, 2, corral_wait_seconds(1.0f));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert_neq(b.gen, 0, "it started");
    cr_assert_not(corral_alive(s, b), "it ended instead of resuming as if a second had passed");
    cr_assert_eq(g_trace_len, 0, "it never ran past its wait");
    corral_pool_stats ps;
    cr_assert(corral_stats_pools(s, &ps));
    cr_assert_eq(ps.wait_failures, 1);
    cr_assert_eq(ps.sleepers_spilled, 2, "two sleeps past max_sleepers, one of them with no node either");
    /* the report flags both pools and names what to raise; the desc to ship
       says the peaks met their capacities */
    static char text[16384];
    corral_report_text_to(s, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert(strstr(text, "<- FULL: refused (raise desc.max_wait_nodes)"), "%s", text);
    cr_assert(strstr(text, "<- spilled into wait nodes (raise desc.max_sleepers)"), "%s", text);
    corral_emit_desc_to(s, 0.0f, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert(strstr(text, ".max_wait_nodes = 1, /* peak 1, and 1 refused at that peak: give it more than this */"), "%s", text);
    cr_assert(strstr(text, ".max_sleepers = 1, /* peak 1, and 2 sleeps took wait nodes: give it more than this */"), "%s", text);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(waits, await_outside_a_step_is_refused)
{
    corral_co fake;
    memset(&fake, 0, sizeof fake);
    cr_assert_not(corral_await(&fake, corral_wait_frames(1)));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_IN_STEP);
}

#define SLEEPER_FIELDS(F) \
    F(float, t)           \
    F(int, woke)
DECLARE_COROUTINE(sleeper, SLEEPER_FIELDS)
DEFINE_COROUTINE(sleeper)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, ctx->t);
    ctx->woke = 1;
    CORRAL_END(co);
}
static corral_handle wait_on_seconds_tracer(corral_sched *s, float t)
{
    return sleeper_start(s, (sleeper_ctx){.t = t});
}

Test(waits, a_tick_with_a_million_sleepers_and_none_due_visits_none)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 32;
    d.classes[0].capacity = 1000000;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    /* a tracer-sized sleeper: waits 10 s and more, spread over 100 s */
    for (uint32_t i = 0; i < 1000000; i++) {
        corral_handle h = wait_on_seconds_tracer(s, 10.0f + (float)(i % 1000) * 0.09f);
        cr_assert_neq(h.gen, 0);
    }
    cr_assert_eq(s->timers.heap_len[CORRAL__HEAP_SCALED], 1000000);
    uint64_t v0 = corral__debug_visits(s);
    cr_assert_eq(corral_tick(s, 0.016f), 0);
    cr_assert_eq(corral__debug_visits(s), v0, "a tick with none due touched no sleeper");
    /* to 10.016 s: only the sleepers due at 10.0 (i % 1000 == 0) are due */
    corral_tick(s, 10.0f);
    cr_assert_eq(corral__debug_visits(s) - v0, 2 * 1000, "1000 popped and 1000 stepped");
    corral_sched_destroy(s);
}

Test(waits, waits_signals_futures_and_joins_never_call_the_allocator)
{
    alloc_counter ac = {0};
    corral_sched_desc d = counted_one_class_desc(128, 64, &ac);
    corral_sched *s = corral_sched_create(&d);
    cr_assert_eq(ac.allocs, 1);
    for (int round = 0; round < 2000; round++) {
        corral_signal sig = corral_signal_create(s);
        corral_future f = corral_future_create(s);
        corral_handle target = start_tracer(s, 0, 2);
        corral_wait members[2] = {corral_wait_signal(sig), corral_wait_seconds(0.01f)};
        corral_handle h[5] = {
            wait_on(s, 1, corral_wait_any(members, 2)), wait_on(s, 2, corral_wait_all(members, 2)),
            wait_on(s, 3, corral_wait_future(f)), wait_on(s, 4, corral_wait_join(target)),
            wait_on(s, 5, corral_wait_until(flag_is_set, &(bool){false}))};
        corral_tick(s, 0.02f);
        corral_signal_raise(s, sig);
        corral_value v = {.i = round};
        corral_future_complete(s, f, v);
        corral_tick(s, 0.02f);
        corral_signal_destroy(s, sig);
        corral_future_release(s, f);
        for (int i = 0; i < 5; i++) corral_stop(s, h[i]); /* the waiters idle forever after */
        cr_assert_eq(corral_live_count(s), 0);
        trace_reset();
    }
    cr_assert_eq(ac.allocs, 1, "no allocation after create");
    corral_sched_destroy(s);
    cr_assert_eq(ac.frees, 1);
}

/* a watcher that waits on its signal in a loop */
#define LOOPER_FIELDS(F) F(corral_signal, sig) F(int32_t, turns)
DECLARE_COROUTINE(looper, LOOPER_FIELDS)
DEFINE_COROUTINE(looper)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->turns++;
        CORRAL_WAIT_SIGNAL(co, ctx->sig);
    }
    CORRAL_END(co);
}

Test(waits, a_loop_waiting_on_a_destroyed_signal_or_future_yields_a_frame_a_turn)
{
    corral_sched *s = wsched(8);
    corral_signal sig = corral_signal_create(s);
    corral_handle h = looper_start(s, (looper_ctx){.sig = sig});
    corral_tick(s, 0.01f);
    cr_assert_eq(looper_ctx_of(s, h)->turns, 1);
    cr_assert(corral_signal_destroy(s, sig)); /* wakes it: its next wait is on a signal that is gone */
    for (int f = 0; f < 5; f++) corral_tick(s, 0.01f);
    cr_assert_leq(looper_ctx_of(s, h)->turns, 7, "a turn a frame, not a loop that never yields (%d)",
                  looper_ctx_of(s, h)->turns);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_SIGNAL);
    corral_future fut = corral_future_create(s);
    cr_assert(corral_future_release(s, fut));
    corral_handle g = wait_on(s, 3, corral_wait_future(fut));
    cr_assert_eq(W(s, g)->resumed_frame, -1, "a future that is gone: a plain yield too");
    corral_tick(s, 0.01f);
    cr_assert_gt(W(s, g)->resumed_frame, 0);
    corral_sched_destroy(s);
}

/* futures.c arrives with the first corral_future_create: a wait on a zero
   or forged future in a process that never made one (Criterion runs each
   test in a process of its own) is a future that is gone, as in any other */
Test(waits, a_future_wait_before_any_future_exists_is_a_gone_future)
{
    corral_sched *s = wsched(8);
    corral_handle g = wait_on(s, 3, corral_wait_future((corral_future){0, 0}));
    cr_assert(corral_alive(s, g), "a plain yield, not an end");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_FUTURE);
    cr_assert_eq(W(s, g)->resumed_frame, -1);
    corral_tick(s, 0.01f);
    cr_assert_gt(W(s, g)->resumed_frame, 0, "it goes on the next frame");
    corral_handle f = wait_on(s, 4, corral_wait_future((corral_future){5, 9}));
    cr_assert(corral_alive(s, f), "a forged one too");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_FUTURE);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* The game clock's heap and the real clock's share one store of
   max_wait_nodes entries (in pages, with every other clock's): filled in
   any split to the last entry, each still wakes its sleepers in order of
   due time. */
Test(waits, two_clocks_sharing_one_heap_array_fill_it_either_way_and_wake_in_order)
{
    enum { N = 64 };
    for (int split = 0; split <= N; split += N / 4) { /* scaled sleepers: split; real: the rest */
        corral_sched_desc d = one_class_desc(128, N);
        d.max_wait_nodes = N;
        corral_sched *s = sched_of(d);
        corral_handle h[N];
        for (int i = 0; i < N; i++) {
            const float secs = 0.01f * (float)((i * 37) % N + 1); /* every due time once, shuffled */
            h[i] = wait_on(s, i, i < split ? corral_wait_seconds(secs) : corral_wait_realtime(secs));
            cr_assert_neq(h[i].gen, 0);
        }
        cr_assert_eq(s->timers.heap_len[CORRAL__HEAP_SCALED], (uint32_t)split);
        cr_assert_eq(s->timers.heap_len[CORRAL__HEAP_REAL], (uint32_t)(N - split));
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        corral_stop(s, h[N / 2]); /* a removal from the middle of one of them */
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        trace_reset();
        for (int f = 0; f < N + 2; f++) corral_tick(s, 0.01f);
        cr_assert_eq(g_trace_len, N - 1, "split %d: every sleeper woke once", split);
        int last[2] = {-1, -1}; /* each clock's sleepers in order of due time */
        for (int k = 0; k < g_trace_len; k++) {
            const int a = g_trace[k], clock = a < split ? 0 : 1;
            cr_assert_gt((a * 37) % N, last[clock], "split %d: sleeper %d woke out of order", split, a);
            last[clock] = (a * 37) % N;
            if (k) cr_assert_leq(W(s, h[g_trace[k - 1]])->resumed_frame, W(s, h[a])->resumed_frame);
        }
        corral_sched_destroy(s);
    }
}

/* ---- a wait's first node is in the header's link while it waits: a
   coroutine that begins a wait in its own step and drops it again, while
   the walk holds its lane entry, gets its entry back */
static int g_relink_steps;
#define RELINKER_FIELDS(F)   \
    F(int, mode)             \
    F(corral_signal, a)      \
    F(corral_signal, b)      \
    F(int, steps)
DECLARE_COROUTINE(relinker, RELINKER_FIELDS)
DEFINE_COROUTINE(relinker)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->steps++;
        g_relink_steps++;
        if (ctx->mode == 1) { /* a wait, then a second await that waits on nothing */
            corral_await(co, corral_wait_signal(ctx->a));
            CORRAL_AWAIT(co, (corral_wait){0});
        } else if (ctx->mode == 2) { /* a wait it ends itself: woken while its step runs */
            corral_await(co, corral_wait_signal(ctx->a));
            corral_signal_raise(corral_sched_of(co), ctx->a);
            CORRAL_WAIT_FRAME(co);
        } else if (ctx->mode == 3) { /* an all of two, then a second await */
            corral_wait two[2] = {corral_wait_signal(ctx->a), corral_wait_signal(ctx->b)};
            corral_await(co, corral_wait_all(two, 2));
            CORRAL_AWAIT(co, (corral_wait){0});
        } else {
            CORRAL_WAIT_FRAME(co);
        }
    }
    CORRAL_END(co);
}

static void relink_run(int config);
Test(waits, a_wait_begun_and_dropped_in_its_own_step_leaves_its_lane_entry_as_it_was)
{
    for (int config = 0; config < 4; config++) relink_run(config); /* plain, timed, by type, budgeted walks */
}
static void relink_run(int config)
{
    corral_sched_desc d = one_class_desc(64, 160);
    d.timing = config == 1;
    if (config == 2) d.order = CORRAL_ORDER_BY_TYPE;
    corral_sched *s = sched_of(d);
    if (config == 3) corral_set_budget(s, 1000000000u); /* the budgeted walk, never out of time */
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK, "%s", corral_last_error_detail(s));
    const corral_signal a = corral_signal_create(s), b = corral_signal_create(s);
    enum { N = 120 };
    corral_handle h[N];
    g_relink_steps = 0;
    for (int i = 0; i < N; i++) h[i] = relinker_start(s, (relinker_ctx){.mode = i % 4, .a = a, .b = b});
    corral_tick(s, 0.016f);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    for (int f = 0; f < 4; f++) {
        const int before = g_relink_steps;
        corral_tick(s, 0.016f);
        cr_assert_eq(g_relink_steps - before, N, "every one stepped once (%d)", g_relink_steps - before);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    /* their links name their entries: a stop leaves a tombstone there */
    for (int i = 0; i < N; i += 3) cr_assert(corral_stop(s, h[i]));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    const int before = g_relink_steps;
    corral_tick(s, 0.016f);
    cr_assert_eq(g_relink_steps - before, N - (N + 2) / 3);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    for (int i = 0; i < N; i++)
        if (i % 3) cr_assert_geq(relinker_ctx_of(s, h[i])->steps, 6);
    /* paused and resumed: out of the lane by its link, and back */
    for (int i = 1; i < N; i += 3) cr_assert(corral_pause(s, h[i]));
    corral_tick(s, 0.016f);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    for (int i = 1; i < N; i += 3) cr_assert(corral_resume(s, h[i]));
    corral_tick(s, 0.016f);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* held while waiting: the chain stays in its link through a pause, a
   snapshot, a save and a load; a sleeper keeps the time it has left */
#define NAPPER_FIELDS(F) F(int32_t, kind) F(float, secs) F(corral_signal, sig) F(int32_t, resumed_frame)
#define NAPPER_POINTS(P) P(slept) P(signalled) P(idle)
DECLARE_COROUTINE(napper, NAPPER_FIELDS)
DEFINE_COROUTINE_AT(napper, NAPPER_POINTS)
{
    CORRAL_BEGIN_AT(co, NAPPER_POINTS);
    ctx->resumed_frame = -1;
    if (ctx->kind) CORRAL_AWAIT_AT(co, slept, corral_wait_seconds(ctx->secs));
    else CORRAL_AWAIT_AT(co, signalled, corral_wait_signal(ctx->sig));
    ctx->resumed_frame = (int32_t)corral_frame(corral_sched_of(co));
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}
#define HELD_TYPES(X) X(napper, 1, 0)
CORRAL_DECLARE_REGISTRY(held, HELD_TYPES)
CORRAL_DEFINE_REGISTRY(held, HELD_TYPES);
static int32_t napped(corral_sched *s, corral_handle h)
{
    const napper_ctx *c = napper_ctx_of(s, h);
    cr_assert_not_null(c);
    return c->resumed_frame;
}
Test(waits, a_held_wait_keeps_its_chain_through_snapshot_save_and_load)
{
    corral_sched_desc d = one_class_desc(128, 16);
    d.registry = &held_registry;
    corral_sched *s = sched_of(d);
    const corral_signal sig = corral_signal_create(s);
    corral_handle on_sig = napper_start(s, (napper_ctx){.sig = sig});
    corral_handle asleep = napper_start(s, (napper_ctx){.kind = 1, .secs = 0.1f});
    corral_handle queued = napper_start(s, (napper_ctx){.sig = sig});
    corral_tick(s, 0.016f);
    cr_assert(corral_pause(s, on_sig) && corral_pause(s, asleep));
    for (int f = 0; f < 20; f++) corral_tick(s, 0.016f); /* 0.32 s: held, the sleeper keeps its 0.084 s */
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    const uint64_t h0 = corral_state_hash(s);
    static unsigned char snap[1 << 16], save[1 << 14];
    const size_t k = corral_snapshot(s, snap, sizeof snap);
    const size_t n = corral_save(s, save, sizeof save);
    cr_assert(k > 0 && n > 0, "%s", corral_last_error_detail(s));
    for (int round = 0; round < 3; round++) {
        if (round == 1) cr_assert(corral_restore(s, snap, k), "%s", corral_last_error_detail(s));
        if (round == 2) cr_assert(corral_load(s, save, n), "%s", corral_last_error_detail(s));
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        if (round) cr_assert_eq(corral_state_hash(s), h0);
        corral_signal_raise(s, sig); /* wakes the queued one; the held one is woken, held */
        corral_tick(s, 0.016f);
        cr_assert_neq(napped(s, queued), -1);
        cr_assert_eq(napped(s, on_sig), -1, "held");
        cr_assert(corral_resume(s, on_sig) && corral_resume(s, asleep));
        corral_tick(s, 0.016f);
        cr_assert_neq(napped(s, on_sig), -1, "woken while held: it runs once resumed");
        cr_assert_eq(napped(s, asleep), -1, "0.084 s left");
        for (int f = 0; f < 6; f++) corral_tick(s, 0.016f);
        cr_assert_neq(napped(s, asleep), -1, "its time left has passed");
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    corral_sched_destroy(s);
}

/* joiners woken in a run wait in the ready list; one stopped there by the
   first to resume leaves the list whole */
#define READIER_FIELDS(F)       \
    F(corral_handle, target)    \
    F(corral_handle, victim)    \
    F(int, resumed)
DECLARE_COROUTINE(readier, READIER_FIELDS)
DEFINE_COROUTINE(readier)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_JOIN(co, ctx->target);
    ctx->resumed = 1;
    if (ctx->victim.index) corral_stop(corral_sched_of(co), ctx->victim);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}
#define ENDER_FIELDS(F) F(int, n)
DECLARE_COROUTINE(ender, ENDER_FIELDS)
DEFINE_COROUTINE(ender)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(waits, a_joiner_stopped_in_the_ready_list_leaves_it_whole)
{
    corral_sched *s = wsched(16);
    corral_handle x = ender_start(s, (ender_ctx){0});
    corral_handle j[4];
    for (int i = 0; i < 4; i++) j[i] = readier_start(s, (readier_ctx){.target = x});
    readier_ctx_of(s, j[0])->victim = j[2]; /* not the list's head when it is stopped */
    corral_tick(s, 0.016f);
    corral_tick(s, 0.016f);
    cr_assert(!corral_alive(s, x));
    cr_assert(!corral_alive(s, j[2]));
    cr_assert(readier_ctx_of(s, j[0])->resumed && readier_ctx_of(s, j[1])->resumed &&
              readier_ctx_of(s, j[3])->resumed);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}
