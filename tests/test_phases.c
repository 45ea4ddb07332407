/* test_phases.c -- the frame: phases, fixed steps, clocks, time scale, order. */
#include "common.h"
#include "corral_internal.h"

static void setup(void) { trace_reset(); }
TestSuite(phases, .init = setup);

static corral_sched *phase_sched(corral_order order)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 64;
    d.order = order;
    corral_sched *s = sched_of(d);
    cr_assert_not_null(s);
    return s;
}

static corral_handle start_in(corral_sched *s, int id, corral_phase ph)
{
    corral_start_desc o = {.phase = ph};
    return tracer_start_ex(s, (tracer_ctx){.id = id}, &o);
}

Test(phases, a_frame_runs_fixed_update_update_late_update_end_of_frame_in_order)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_FIFO);
    start_in(s, 4, CORRAL_PHASE_END_OF_FRAME);
    start_in(s, 3, CORRAL_PHASE_LATE_UPDATE);
    start_in(s, 2, CORRAL_PHASE_UPDATE);
    start_in(s, 1, CORRAL_PHASE_FIXED_UPDATE);
    trace_reset();
    corral_tick(s, 0.02f); /* exactly one fixed step */
    int want[] = {1, 2, 3, 4};
    expect_trace(want, 4);
    corral_sched_destroy(s);
}

Test(phases, fixed_update_runs_as_often_as_fixed_time_catches_up)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_FIFO); /* fixed_dt 0.02 */
    start_in(s, 1, CORRAL_PHASE_FIXED_UPDATE);
    int per_frame[4];
    const float dts[4] = {0.05f, 0.05f, 0.01f, 0.0f};
    for (int f = 0; f < 4; f++) {
        trace_reset();
        corral_tick(s, dts[f]);
        per_frame[f] = g_trace_len;
    }
    /* time 0.05 -> 2 steps (0.04); 0.10 -> 3 (0.10); 0.11 -> 0; 0.11 -> 0 */
    cr_assert_eq(per_frame[0], 2);
    cr_assert_eq(per_frame[1], 3);
    cr_assert_eq(per_frame[2], 0);
    cr_assert_eq(per_frame[3], 0);
    cr_assert_float_eq(corral_fixed_time(s), 0.10, 1e-6);
    corral_sched_destroy(s);
}

Test(phases, a_hitch_runs_at_most_max_fixed_steps_and_drops_the_rest)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 4;
    d.max_fixed_steps = 3;
    corral_sched *s = corral_sched_create(&d);
    start_in(s, 1, CORRAL_PHASE_FIXED_UPDATE);
    trace_reset();
    corral_tick(s, 1.0f); /* 50 steps due */
    cr_assert_eq(g_trace_len, 3);
    trace_reset();
    corral_tick(s, 0.02f);
    cr_assert_eq(g_trace_len, 1, "no backlog is carried over");
    corral_sched_destroy(s);
}

#define DTSEEN_FIELDS(F) \
    F(float, dt)         \
    F(float, raw)        \
    F(int, phase)
DECLARE_COROUTINE(dtseen, DTSEEN_FIELDS)
DEFINE_COROUTINE(dtseen)
{
    ctx->dt = corral_dt(co);
    ctx->raw = corral_unscaled_dt(co);
    ctx->phase = (int)corral_current_phase(co);
    return CORRAL_YIELD;
}

Test(phases, steps_see_fixed_dt_in_fixed_update_and_the_scaled_frame_dt_elsewhere)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_FIFO);
    corral_start_desc fixed = {.phase = CORRAL_PHASE_FIXED_UPDATE};
    corral_handle hf = dtseen_start_ex(s, (dtseen_ctx){0}, &fixed);
    corral_handle hu = dtseen_start(s, (dtseen_ctx){0});
    corral_set_time_scale(s, 0.5f);
    corral_tick(s, 0.1f);
    dtseen_ctx *f = dtseen_ctx_of(s, hf), *u = dtseen_ctx_of(s, hu);
    cr_assert_float_eq(f->dt, 0.02f, 1e-7);
    cr_assert_eq(f->phase, CORRAL_PHASE_FIXED_UPDATE);
    cr_assert_float_eq(u->dt, 0.05f, 1e-7, "scaled");
    cr_assert_float_eq(u->raw, 0.1f, 1e-7, "unscaled");
    cr_assert_eq(u->phase, CORRAL_PHASE_UPDATE);
    cr_assert_float_eq(corral_time(s), 0.05, 1e-7);
    cr_assert_float_eq(corral_unscaled_time(s), 0.1, 1e-7);
    corral_sched_destroy(s);
}

/* a first step run between ticks (a start from game code) reads the last
   tick's dt, as the scale then made it; 0 before the first tick */
Test(phases, a_first_step_between_ticks_reads_the_previous_ticks_dt)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_FIFO);
    corral_handle h0 = dtseen_start(s, (dtseen_ctx){-1.0f, -1.0f, -1});
    cr_assert_float_eq(dtseen_ctx_of(s, h0)->dt, 0.0f, 1e-9, "no tick yet");
    corral_set_time_scale(s, 0.5f);
    corral_tick(s, 0.1f);
    corral_set_time_scale(s, 2.0f); /* takes effect at the next tick */
    corral_handle h = dtseen_start(s, (dtseen_ctx){-1.0f, -1.0f, -1});
    cr_assert_float_eq(dtseen_ctx_of(s, h)->dt, 0.05f, 1e-7, "the last tick's scaled dt");
    cr_assert_float_eq(dtseen_ctx_of(s, h)->raw, 0.1f, 1e-7, "its unscaled dt");
    corral_sched_destroy(s);
}

Test(phases, an_engine_can_drive_each_phase_itself)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_FIFO);
    start_in(s, 3, CORRAL_PHASE_LATE_UPDATE);
    start_in(s, 2, CORRAL_PHASE_UPDATE);
    trace_reset();
    corral_frame_begin(s, 0.016f);
    cr_assert_eq(corral_run_phase(s, CORRAL_PHASE_LATE_UPDATE), 1);
    int want[] = {3};
    expect_trace(want, 1);
    cr_assert_eq(corral_run_phase(s, CORRAL_PHASE_DEFAULT), 1, "DEFAULT is UPDATE");
    cr_assert_eq(corral_run_phase(s, (corral_phase)42), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_PHASE);
    corral_start_desc bad = {.phase = (corral_phase)9};
    cr_assert_eq(tracer_start_ex(s, (tracer_ctx){0}, &bad).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_PHASE);
    corral_sched_destroy(s);
}

Test(phases, by_type_order_groups_each_phase_by_type_and_keeps_queue_order_within)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_BY_TYPE);
    corral_handle none = {0, 0};
    start_tracer(s, 1, 0);
    start_actor(s, 10, NULL, none, NULL);
    start_tracer(s, 2, 0);
    start_actor(s, 20, NULL, none, NULL);
    start_tracer(s, 3, 0);
    trace_reset();
    corral_tick(s, 0.f);
    int want[] = {1, 2, 3, 10, 20}; /* tracer was seen first */
    expect_trace(want, 5);
    corral_sched_destroy(s);
}

Test(phases, fifo_order_interleaves_types_in_queue_order)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_FIFO);
    corral_handle none = {0, 0};
    start_tracer(s, 1, 0);
    start_actor(s, 10, NULL, none, NULL);
    start_tracer(s, 2, 0);
    trace_reset();
    corral_tick(s, 0.f);
    int want[] = {1, 10, 2};
    expect_trace(want, 3);
    corral_sched_destroy(s);
}

static corral_result start_more_of_other_type(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) start_tracer(corral_sched_of(co), 77, 0);
    return CORRAL_YIELD;
}

Test(phases, by_type_a_coroutine_started_during_a_phase_run_waits_for_the_next_run)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_BY_TYPE);
    corral_handle none = {0, 0};
    start_actor(s, 10, start_more_of_other_type, none, NULL); /* actor lane first */
    start_tracer(s, 1, 0);
    trace_reset();
    corral_tick(s, 0.f);
    /* 77 (a tracer) ran its first step inside 10's step; its lane is walked
       after the actor lane, but it must not run again this phase run */
    int want[] = {10, 77, 1};
    expect_trace(want, 3);
    corral_sched_destroy(s);
}

Test(phases, negative_time_scale_is_refused)
{
    corral_sched *s = phase_sched(CORRAL_ORDER_FIFO);
    corral_set_time_scale(s, -1.0f);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DT);
    cr_assert_float_eq(corral_time_scale(s), 1.0f, 1e-9);
    corral_set_time_scale(s, 0.0f);
    cr_assert_float_eq(corral_time_scale(s), 0.0f, 1e-9);
    corral_tick(s, 1.0f);
    cr_assert_float_eq(corral_time(s), 0.0, 1e-9, "scaled time paused");
    cr_assert_float_eq(corral_unscaled_time(s), 1.0, 1e-9);
    cr_assert_eq(corral_fixed_steps_due(s), 0, "no fixed steps while paused");
    corral_sched_destroy(s);
}

Test(phases, bad_order_in_the_desc_is_refused)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.order = (corral_order)7;
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
}

/* ---- custom phases (desc.custom_phases) */
#define NET CORRAL_PHASE_CUSTOM(0)
#define AI CORRAL_PHASE_CUSTOM(1)

/* netter: counts its steps and the phase it saw; moves to `to` after `move_at` steps */
#define NETTER_FIELDS(F) \
    F(int, steps)        \
    F(int, phase)        \
    F(int, move_at)      \
    F(int, to)           \
    F(int, sleep)
DECLARE_COROUTINE(netter, NETTER_FIELDS)
DEFINE_COROUTINE(netter)
{
    ctx->steps++;
    ctx->phase = (int)corral_current_phase(co);
    if (ctx->move_at && ctx->steps == ctx->move_at && corral_await(co, corral_wait_phase((corral_phase)ctx->to)))
        return CORRAL_YIELD;
    if (ctx->sleep && ctx->steps == 1 && corral_await(co, corral_wait_seconds(0.25f))) return CORRAL_YIELD;
    return CORRAL_YIELD;
}

static corral_sched *custom_sched(uint32_t n)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.custom_phases = n;
    return sched_of(d);
}

Test(phases, a_custom_phase_steps_only_when_the_game_runs_it)
{
    corral_sched *s = custom_sched(2);
    corral_start_desc o = {.phase = NET};
    corral_handle h = netter_start_ex(s, (netter_ctx){0}, &o);
    netter_ctx *c = netter_ctx_of(s, h);
    cr_assert_eq(c->steps, 1, "the first step runs at once, as any start");
    cr_assert_eq(c->phase, (int)NET);
    corral_tick(s, 0.1f);
    cr_assert_eq(c->steps, 1, "a tick does not run a custom phase");
    corral_run_phase(s, NET);
    cr_assert_eq(c->steps, 2, "its run steps it (the first step's yield waited for a later frame)");
    corral_run_phase(s, NET);
    corral_run_phase(s, NET);
    cr_assert_eq(c->steps, 4, "each later run steps it once, however many a frame");
    corral_run_phase(s, AI);
    cr_assert_eq(c->steps, 4, "another custom phase's run does not");
    corral_co_info in;
    cr_assert(corral_co_info_of(s, h, &in));
    cr_assert_eq(in.phase, NET);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(phases, a_first_steps_yield_in_a_custom_phase_waits_for_the_next_frame)
{
    corral_sched *s = custom_sched(1);
    corral_tick(s, 0.1f);
    corral_start_desc o = {.phase = NET};
    corral_handle h = netter_start_ex(s, (netter_ctx){0}, &o);
    corral_run_phase(s, NET);
    cr_assert_eq(netter_ctx_of(s, h)->steps, 1, "not twice in the frame it started in");
    corral_frame_begin(s, 0.1f);
    corral_run_phase(s, NET);
    cr_assert_eq(netter_ctx_of(s, h)->steps, 2);
    corral_sched_destroy(s);
}

Test(phases, a_phase_wait_moves_a_coroutine_into_and_out_of_a_custom_phase)
{
    corral_sched *s = custom_sched(2);
    corral_handle h = netter_start(s, (netter_ctx){.move_at = 2, .to = (int)AI});
    netter_ctx *c = netter_ctx_of(s, h);
    corral_tick(s, 0.1f); /* step 2 in UPDATE: it moves to AI */
    cr_assert_eq(c->steps, 2);
    corral_tick(s, 0.1f);
    cr_assert_eq(c->steps, 2, "it lives in AI now");
    corral_run_phase(s, AI);
    cr_assert_eq(c->steps, 3);
    cr_assert_eq(c->phase, (int)AI);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(phases, a_timer_in_a_custom_phase_resumes_at_its_first_run_after_it_is_due)
{
    corral_sched *s = custom_sched(1);
    corral_start_desc o = {.phase = NET};
    corral_handle h = netter_start_ex(s, (netter_ctx){.sleep = 1}, &o);
    netter_ctx *c = netter_ctx_of(s, h);
    for (int f = 0; f < 2; f++) {
        corral_tick(s, 0.1f);
        corral_run_phase(s, NET);
    }
    cr_assert_eq(c->steps, 1, "0.2 s of 0.25");
    corral_tick(s, 0.1f);
    cr_assert_eq(c->steps, 1, "due, but its phase has not run");
    corral_run_phase(s, NET);
    cr_assert_eq(c->steps, 2);
    corral_sched_destroy(s);
}

Test(phases, a_phase_the_scheduler_does_not_have_is_refused)
{
    corral_sched *s = custom_sched(1);
    corral_start_desc o = {.phase = AI};
    cr_assert_eq(netter_start_ex(s, (netter_ctx){0}, &o).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_PHASE);
    cr_assert_eq(corral_run_phase(s, AI), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_PHASE);
    corral_handle h = netter_start(s, (netter_ctx){.move_at = 1, .to = (int)AI});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_PHASE, "a wait for it too");
    corral_tick(s, 0.1f);
    cr_assert_eq(netter_ctx_of(s, h)->steps, 2, "the refused wait was no wait: it stayed in UPDATE");
    corral_sched_destroy(s);
    corral_sched_desc d = one_class_desc(64, 4);
    d.custom_phases = CORRAL_MAX_CUSTOM_PHASES + 1;
    d.validation = CORRAL_VALIDATION_REPORT;
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
}
