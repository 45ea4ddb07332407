/* test_sched.c -- start, yield, stop, tick order, Unity's semantics. */
#include "common.h"
#include "corral_internal.h"

static void setup(void)
{
    trace_reset();
    cleaned_reset();
}
TestSuite(sched, .init = setup);

Test(sched, first_step_runs_at_once_inside_start)
{
    corral_sched *s = small_sched(8);
    corral_handle h = start_tracer(s, 7, 0);
    int want[] = {7};
    expect_trace(want, 1);
    cr_assert(corral_alive(s, h));
    cr_assert_eq(corral_live_count(s), 1);
    corral_sched_destroy(s);
}

Test(sched, coroutine_that_stops_in_first_step_returns_dead_nonzero_handle)
{
    corral_sched *s = small_sched(8);
    corral_handle h = start_tracer(s, 1, 1);
    cr_assert_neq(h.gen, 0, "a started coroutine gets a real handle");
    cr_assert_not(corral_alive(s, h));
    cr_assert_eq(corral_live_count(s), 0);
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &tracer_type, &t));
    cr_assert_eq(t.finished, 1);
    corral_sched_destroy(s);
}

Test(sched, yield_resumes_on_next_tick_and_stop_ends)
{
    corral_sched *s = small_sched(8);
    corral_handle h = start_tracer(s, 1, 3);
    cr_assert_eq(corral_tick(s, 0.1f), 1);
    cr_assert(corral_alive(s, h));
    cr_assert_eq(corral_tick(s, 0.1f), 1);
    cr_assert_not(corral_alive(s, h), "stopped on its third step");
    cr_assert_eq(corral_tick(s, 0.1f), 0);
    int want[] = {1, 1, 1};
    expect_trace(want, 3);
    corral_sched_destroy(s);
}

Test(sched, resume_order_is_the_order_of_starting)
{
    corral_sched *s = small_sched(8);
    for (int i = 1; i <= 4; i++) start_tracer(s, i, 0);
    trace_reset();
    corral_tick(s, 0.f);
    corral_tick(s, 0.f);
    int want[] = {1, 2, 3, 4, 1, 2, 3, 4};
    expect_trace(want, 8);
    corral_sched_destroy(s);
}

Test(sched, order_of_the_others_is_kept_when_one_is_stopped)
{
    corral_sched *s = small_sched(8);
    corral_handle h[5];
    for (int i = 0; i < 5; i++) h[i] = start_tracer(s, i, 0);
    cr_assert(corral_stop(s, h[2]));
    trace_reset();
    corral_tick(s, 0.f);
    int want[] = {0, 1, 3, 4};
    expect_trace(want, 4);
    corral_sched_destroy(s);
}

/* The walk steps in place until the first hole opens, then compacts
   behind its cursor: holes at a lane's first entry, at chunk edges (a chunk
   holds 32) and in the middle, over four chunks. */
static bool ends_on_first_tick(int i) { return i == 0 || i == 31 || i == 32 || i == 63 || i == 99 || i % 7 == 3; }

Test(sched, order_is_kept_when_holes_open_at_chunk_edges_during_a_walk)
{
    corral_sched *s = small_sched(128);
    for (int i = 0; i < 100; i++) start_tracer(s, i, ends_on_first_tick(i) ? 2 : 0);
    int want[200], n = 0;
    for (int i = 0; i < 100; i++) want[n++] = i;
    trace_reset();
    cr_assert_eq(corral_tick(s, 0.f), 100);
    expect_trace(want, n);
    n = 0;
    for (int i = 0; i < 100; i++)
        if (!ends_on_first_tick(i)) want[n++] = i;
    for (int round = 0; round < 2; round++) {
        trace_reset();
        cr_assert_eq(corral_tick(s, 0.f), (uint32_t)n);
        expect_trace(want, n);
    }
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

static corral_result start_child_each_step(corral_co *co, struct actor_ctx *ctx)
{
    (void)co;
    if (ctx->steps == 2) start_tracer(corral_sched_of(co), 100 + ctx->steps, 0);
    return CORRAL_YIELD;
}

Test(sched, coroutine_started_during_a_tick_does_not_run_again_in_that_tick)
{
    corral_sched *s = small_sched(8);
    corral_handle none = {0, 0};
    start_actor(s, 1, start_child_each_step, none, NULL);
    start_tracer(s, 2, 0);
    trace_reset();
    corral_tick(s, 0.f); /* actor's step 2 starts tracer 102: its first step runs at once */
    int want1[] = {1, 102, 2};
    expect_trace(want1, 3);
    trace_reset();
    corral_tick(s, 0.f);
    /* 1 and 2 keep their places; 102 joined the end when its first step yielded */
    int want2[] = {1, 2, 102};
    expect_trace(want2, 3);
    corral_sched_destroy(s);
}

static corral_result stop_self_then_write(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) {
        corral_handle me = corral_self(co);
        cr_assert(corral_stop(corral_sched_of(co), me));
        cr_assert_not(corral_alive(corral_sched_of(co), me), "dead as soon as stopped");
        ctx->id = 99; /* the context is still ours until the step returns */
        return CORRAL_YIELD;
    }
    return CORRAL_YIELD;
}

Test(sched, stopping_itself_inside_its_step_is_safe_and_ends_it_after_the_step)
{
    corral_sched *s = small_sched(8);
    corral_handle none = {0, 0};
    corral_handle h = start_actor(s, 1, stop_self_then_write, none, NULL);
    corral_tick(s, 0.f);
    cr_assert_not(corral_alive(s, h));
    corral_type_stats t;
    corral_stats_type_of(s, &actor_type, &t);
    cr_assert_eq(t.stopped, 1);
    cr_assert_eq(t.finished, 0);
    cr_assert_eq(corral_live_count(s), 0);
    corral_sched_destroy(s);
}

static corral_result stop_other(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) cr_assert(corral_stop(corral_sched_of(co), ctx->other));
    return CORRAL_YIELD;
}

static corral_result stop_victim_in_user(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) cr_assert(corral_stop(corral_sched_of(co), *(corral_handle *)ctx->user));
    return CORRAL_YIELD;
}

Test(sched, stop_of_a_coroutine_later_in_the_queue_from_inside_a_step)
{
    corral_sched *s = small_sched(8);
    corral_handle none = {0, 0}, victim = {0, 0};
    start_actor(s, 1, stop_victim_in_user, none, &victim); /* queue: 1 */
    victim = start_tracer(s, 50, 0);                         /* queue: 1, 50 */
    start_tracer(s, 3, 0);                                   /* queue: 1, 50, 3 */
    trace_reset();
    corral_tick(s, 0.f);
    int want[] = {1, 3};
    expect_trace(want, 2);
    cr_assert_not(corral_alive(s, victim));
    cr_assert_eq(corral_live_count(s), 2);
    corral_sched_destroy(s);
}

Test(sched, stop_of_a_coroutine_earlier_in_the_queue_from_inside_a_step)
{
    corral_sched *s = small_sched(8);
    corral_handle early = start_tracer(s, 9, 0);
    start_actor(s, 1, stop_other, early, NULL);
    trace_reset();
    corral_tick(s, 0.f); /* 9 runs (requeued), then 1 stops it */
    corral_tick(s, 0.f);
    int want[] = {9, 1, 1};
    expect_trace(want, 3);
    cr_assert_not(corral_alive(s, early));
    corral_sched_destroy(s);
}

typedef struct handle_list {
    corral_handle h[16];
    int n;
} handle_list;

static corral_result stop_everyone(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) {
        handle_list *l = (handle_list *)ctx->user;
        for (int i = 0; i < l->n; i++) corral_stop(corral_sched_of(co), l->h[i]);
    }
    return CORRAL_YIELD;
}

Test(sched, stopping_all_coroutines_from_inside_one_step_is_safe)
{
    corral_sched *s = small_sched(16);
    handle_list l = {.n = 0};
    corral_handle none = {0, 0};
    for (int i = 0; i < 3; i++) l.h[l.n++] = start_tracer(s, 10 + i, 0);
    l.h[l.n++] = start_actor(s, 1, stop_everyone, none, &l);
    for (int i = 0; i < 3; i++) l.h[l.n++] = start_tracer(s, 20 + i, 0);
    trace_reset();
    corral_tick(s, 0.f);
    int want[] = {10, 11, 12, 1};
    expect_trace(want, 4);
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert_eq(corral_tick(s, 0.f), 0);
    corral_sched_destroy(s);
}

static corral_result stop_other_and_start_new(corral_co *co, struct actor_ctx *ctx)
{
    corral_sched *s = corral_sched_of(co);
    if (ctx->steps == 2) {
        corral_stop(s, ctx->other);
        /* the freed slot is reused at once (LIFO) */
        ctx->other = start_tracer(s, 77, 0);
    }
    return CORRAL_YIELD;
}

Test(sched, slot_freed_and_reused_inside_a_tick_runs_the_new_coroutine_once)
{
    corral_sched *s = small_sched(2); /* exactly two slots: the reuse is forced */
    corral_handle victim = start_tracer(s, 5, 0);
    corral_handle none = {0, 0};
    (void)none;
    start_actor(s, 1, stop_other_and_start_new, victim, NULL); /* queue: 5, 1 */
    trace_reset();
    corral_tick(s, 0.f); /* 5 runs; 1 stops 5 and starts 77 in 5's slot */
    int want[] = {5, 1, 77};
    expect_trace(want, 3);
    trace_reset();
    corral_tick(s, 0.f);
    int want2[] = {1, 77}; /* 77 joined the end; 1 kept its place */
    expect_trace(want2, 2);
    corral_sched_destroy(s);
}

static corral_result churn(corral_co *co, struct actor_ctx *ctx)
{
    corral_sched *s = corral_sched_of(co);
    /* many start/stop pairs in one step: tombstones must not overflow */
    for (int i = 0; i < 1000; i++) {
        corral_handle a = start_tracer(s, 0, 0);
        corral_handle b = start_tracer(s, 0, 0);
        corral_stop(s, a);
        corral_stop(s, b);
    }
    (void)ctx;
    return CORRAL_YIELD;
}

Test(sched, thousands_of_start_stop_pairs_inside_one_tick_keep_the_queue_sound)
{
    corral_sched *s = small_sched(4);
    corral_handle none = {0, 0};
    start_tracer(s, 3, 0);
    start_actor(s, 1, churn, none, NULL);
    for (int f = 0; f < 5; f++) corral_tick(s, 0.f);
    cr_assert_eq(corral_live_count(s), 2);
    trace_reset();
    corral_tick(s, 0.f);
    cr_assert_eq(g_trace_len, 2 + 2000 * 1, "3, 1, then 2000 first steps of the churned tracers");
    cr_assert_eq(g_trace[0], 3);
    cr_assert_eq(g_trace[1], 1);
    corral_sched_destroy(s);
}

Test(sched, start_and_stop_outside_ticks_beyond_capacity_keep_the_queue_sound)
{
    corral_sched *s = small_sched(3);
    start_tracer(s, 1, 0);
    for (int i = 0; i < 10000; i++) {
        corral_handle h = start_tracer(s, 2, 0);
        cr_assert(corral_stop(s, h));
    }
    start_tracer(s, 3, 0);
    trace_reset();
    corral_tick(s, 0.f);
    int want[] = {1, 3};
    expect_trace(want, 2);
    corral_sched_destroy(s);
}

#define SEQ_FIELDS(F) \
    F(int, i)         \
    F(int, out)
DECLARE_COROUTINE(seq, SEQ_FIELDS)
DEFINE_COROUTINE(seq)
{
    CORRAL_BEGIN(co);
    trace_push(100);
    CORRAL_WAIT_FRAME(co);
    for (ctx->i = 0; ctx->i < 3; ctx->i++) {
        trace_push(ctx->i);
        CORRAL_WAIT_FRAME(co);
    }
    trace_push(200);
    CORRAL_END(co);
}

Test(sched, resume_point_macros_continue_on_the_line_after_the_wait)
{
    corral_sched *s = small_sched(4);
    corral_handle h = seq_start(s, (seq_ctx){0});
    int want0[] = {100};
    expect_trace(want0, 1);
    int ticks = 0;
    while (corral_alive(s, h)) {
        corral_tick(s, 0.f);
        ticks++;
    }
    int want[] = {100, 0, 1, 2, 200};
    expect_trace(want, 5);
    cr_assert_eq(ticks, 4);
    corral_sched_destroy(s);
}

#define EXITER_FIELDS(F) F(int, n)
DECLARE_COROUTINE(exiter, EXITER_FIELDS)
DEFINE_COROUTINE(exiter)
{
    CORRAL_BEGIN(co);
    trace_push(1);
    if (ctx->n == 0) CORRAL_EXIT(co);
    trace_push(2);
    CORRAL_END(co);
}

Test(sched, corral_exit_ends_the_coroutine_where_it_stands)
{
    corral_sched *s = small_sched(4);
    corral_handle h = exiter_start(s, (exiter_ctx){.n = 0});
    cr_assert_not(corral_alive(s, h));
    int want[] = {1};
    expect_trace(want, 1);
    corral_sched_destroy(s);
}

#define TIMER_FIELDS(F) \
    F(float, seen_dt)   \
    F(float, sum)
DECLARE_COROUTINE(timer, TIMER_FIELDS)
DEFINE_COROUTINE(timer)
{
    ctx->seen_dt = corral_dt(co);
    ctx->sum += ctx->seen_dt;
    trace_push((int)(ctx->sum * 1000.0f + 0.5f));
    return CORRAL_YIELD;
}

Test(sched, tick_advances_time_and_frame_and_steps_see_its_dt)
{
    corral_sched *s = small_sched(4);
    timer_start(s, (timer_ctx){0});
    cr_assert_eq(corral_frame(s), 0);
    corral_tick(s, 0.25f);
    corral_tick(s, 0.5f);
    cr_assert_eq(corral_frame(s), 2);
    cr_assert_float_eq(corral_time(s), 0.75, 1e-9);
    int want[] = {0, 250, 750};
    expect_trace(want, 3);
    corral_sched_destroy(s);
}

static corral_result tick_inside(corral_co *co, struct actor_ctx *ctx)
{
    corral_sched *s = corral_sched_of(co);
    ctx->other.gen = corral_tick(s, 1.0f); /* refused */
    ctx->other.index = (uint32_t)corral_last_error(s);
    return CORRAL_YIELD;
}

Test(sched, tick_from_inside_a_step_is_refused)
{
    corral_sched *s = small_sched(4);
    corral_handle none = {0, 0};
    corral_handle h = start_actor(s, 1, tick_inside, none, NULL);
    (void)h;
    cr_assert_eq(corral_frame(s), 0, "the nested tick did not run");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_IN_TICK);
    corral_sched_destroy(s);
}

static corral_result start_nested(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 1) {
        start_tracer(corral_sched_of(co), 42, 0);
        trace_push(-1); /* after the child's first step */
    }
    return CORRAL_YIELD;
}

Test(sched, start_inside_a_step_runs_the_childs_first_step_before_returning)
{
    corral_sched *s = small_sched(4);
    corral_handle none = {0, 0};
    start_actor(s, 1, start_nested, none, NULL);
    int want[] = {1, 42, -1};
    expect_trace(want, 3);
    corral_sched_destroy(s);
}

Test(sched, destroy_runs_each_cleanup_hook_exactly_once_with_destroyed)
{
    corral_sched *s = small_sched(16);
    for (int i = 0; i < 5; i++) cleaned_start(s, (cleaned_ctx){.id = i});
    corral_tick(s, 0.f);
    corral_sched_destroy(s);
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(g_cleanups[i][CORRAL_END_DESTROYED], 1);
        cr_assert_eq(g_cleanups[i][CORRAL_END_FINISHED] + g_cleanups[i][CORRAL_END_STOPPED], 0);
    }
}

Test(sched, cleanup_runs_once_when_finished_and_once_when_stopped)
{
    corral_sched *s = small_sched(16);
    cleaned_start(s, (cleaned_ctx){.id = 1, .stop_after = 2});
    corral_handle h = cleaned_start(s, (cleaned_ctx){.id = 2});
    corral_tick(s, 0.f);
    corral_stop(s, h);
    corral_stop(s, h);
    corral_tick(s, 0.f);
    corral_sched_destroy(s);
    cr_assert_eq(g_cleanups[1][CORRAL_END_FINISHED], 1);
    cr_assert_eq(g_cleanups[2][CORRAL_END_STOPPED], 1);
    cr_assert_eq(g_cleanups[1][CORRAL_END_DESTROYED] + g_cleanups[2][CORRAL_END_DESTROYED], 0);
}

static corral_result destroy_inside(corral_co *co, struct actor_ctx *ctx)
{
    (void)ctx;
    corral_sched_destroy(corral_sched_of(co));
    return CORRAL_YIELD;
}

Test(sched, destroy_from_inside_a_step_is_refused_and_the_scheduler_survives)
{
    corral_sched *s = small_sched(4);
    corral_handle none = {0, 0};
    corral_handle h = start_actor(s, 1, destroy_inside, none, NULL);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_IN_TICK);
    cr_assert(corral_alive(s, h));
    corral_tick(s, 0.f);
    cr_assert(corral_alive(s, h));
    corral_sched_destroy(s);
}

/* A coroutine that finishes in its first step with nothing linked takes the
   end's short way; with a group membership it takes the long one. Both must
   account for it exactly and give the slot back. */
Test(sched, coroutines_that_finish_in_their_first_step_are_accounted_exactly)
{
    corral_sched *s = small_sched(2);
    corral_start_desc grouped = {.phase = CORRAL_PHASE_DEFAULT, .owner = 7, .tags = 1u << 3};
    for (int i = 0; i < 10; i++) { /* 20 starts through 2 slots */
        corral_handle a = cleaned_start(s, (cleaned_ctx){.id = 1, .stop_after = 1});
        cleaned_ctx c = {.id = 2, .stop_after = 1};
        corral_handle b = corral_start_ex(s, &cleaned_type, &c, sizeof c, &grouped);
        cr_assert_neq(a.gen, 0);
        cr_assert_neq(b.gen, 0);
        cr_assert_not(corral_alive(s, a));
        cr_assert_not(corral_alive(s, b));
    }
    cr_assert_eq(g_cleanups[1][CORRAL_END_FINISHED], 10);
    cr_assert_eq(g_cleanups[2][CORRAL_END_FINISHED], 10);
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &cleaned_type, &t));
    cr_assert_eq(t.started, 20);
    cr_assert_eq(t.finished, 20);
    cr_assert_eq(t.live, 0);
    cr_assert_eq(t.peak, 1);
    cr_assert_eq(corral_live_count(s), 0);
    corral_pool_stats p;
    cr_assert(corral_stats_pools(s, &p));
    cr_assert_eq(p.group_nodes, 0, "memberships left with the coroutine");
    cr_assert_eq(corral_stop_owner(s, 7), 0);
    cr_assert_eq(corral_stop_tags(s, 1u << 3), 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* The first step's own doings decide its end, not only what it returns:
   start's short end is only for a plain STOP. ctx->id picks what it does. */
static corral_result first_step_misbehaves(corral_co *co, struct actor_ctx *ctx)
{
    corral_sched *s = corral_sched_of(co);
    switch (ctx->id) {
    case 1: cr_assert(corral_stop(s, corral_self(co))); return CORRAL_YIELD; /* stopped, goes on */
    case 2: cr_assert(corral_stop(s, corral_self(co))); return CORRAL_STOP;  /* stopped and done */
    case 3: cr_assert(corral_pause(s, corral_self(co))); return CORRAL_STOP; /* done: the pause is moot */
    case 4: cr_assert(corral_pause(s, corral_self(co))); return CORRAL_YIELD; /* held */
    default: return CORRAL_STOP;
    }
}

Test(sched, a_first_step_that_stops_or_pauses_itself_ends_or_holds_as_any_step_would)
{
    corral_sched *s = small_sched(4);
    corral_handle none = {0, 0};
    corral_type_stats t;
    for (int id = 1; id <= 5; id++) {
        corral_handle h = start_actor(s, id, first_step_misbehaves, none, NULL);
        cr_assert_neq(h.gen, 0);
        cr_assert_eq(corral_alive(s, h), id == 4, "case %d", id);
        cr_assert_eq(corral_paused(s, h), id == 4, "case %d", id);
    }
    cr_assert(corral_stats_type_of(s, &actor_type, &t));
    cr_assert_eq(t.started, 5);
    cr_assert_eq(t.stopped, 2, "cases 1 and 2 end STOPPED");
    cr_assert_eq(t.finished, 2, "cases 3 and 5 return STOP");
    cr_assert_eq(t.live, 1);
    cr_assert_eq(corral_tick(s, 0.1f), 0, "the held one does not step");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* After a walk the lane keeps exactly the chunks its survivors fill and
   frees the rest (corral_verify checks the chain, its tail and its
   capacity), whichever way the survivors end: none left; the last one
   ending a chunk with the first hole at the next chunk's start; the last
   one in the middle of a chunk; entries that joined during the walk moved
   down behind them. New coroutines then queue behind the survivors. */
static void check_lane_after_walk(int count, int first_end, int joiners)
{
    corral_sched *s = small_sched(256);
    for (int i = 0; i < count; i++) start_tracer(s, i, i >= first_end ? 2 : 0);
    trace_reset();
    cr_assert_eq(corral_tick(s, 0.f), (uint32_t)count);
    cr_assert(corral_verify(s), "count %d, first end %d", count, first_end);
    for (int j = 0; j < joiners; j++) start_tracer(s, 1000 + j, 0);
    cr_assert(corral_verify(s));
    int want[512], n = 0;
    for (int i = 0; i < first_end && i < count; i++) want[n++] = i;
    for (int j = 0; j < joiners; j++) want[n++] = 1000 + j;
    trace_reset();
    cr_assert_eq(corral_tick(s, 0.f), (uint32_t)n);
    expect_trace(want, n);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(sched, a_walk_keeps_only_the_chunks_its_survivors_fill)
{
    check_lane_after_walk(64, 0, 0);   /* none survives */
    check_lane_after_walk(64, 0, 40);  /* none survives, then a new lane */
    check_lane_after_walk(96, 32, 0);  /* survivors end chunk 0; the hole opens at chunk 1's start */
    check_lane_after_walk(96, 64, 5);  /* survivors end chunk 1 */
    check_lane_after_walk(100, 45, 0); /* the last survivor mid-chunk */
    check_lane_after_walk(100, 45, 30);
    check_lane_after_walk(70, 70, 3);  /* all survive: nothing freed */
}

static corral_result start_tracers_then_end(corral_co *co, struct actor_ctx *ctx)
{
    /* joins this tick's walk behind the cursor: runs next tick */
    for (int j = 0; j < 40; j++) start_tracer(corral_sched_of(co), 2000 + j, 0);
    (void)ctx;
    return CORRAL_STOP;
}

Test(sched, entries_that_join_during_a_walk_move_down_behind_the_survivors)
{
    corral_sched *s = small_sched(256);
    for (int i = 0; i < 70; i++) start_tracer(s, i, i < 10 ? 0 : 2);
    corral_handle a = corral_start(s, &actor_type, &(actor_ctx){.fn = NULL, .id = 500}, sizeof(actor_ctx));
    cr_assert_neq(a.gen, 0);
    ((actor_ctx *)corral_context(s, a, &actor_type))->fn = start_tracers_then_end;
    trace_reset();
    cr_assert_eq(corral_tick(s, 0.f), 71);
    cr_assert(corral_verify(s));
    int want[64], n = 0;
    for (int i = 0; i < 10; i++) want[n++] = i;
    for (int j = 0; j < 40; j++) want[n++] = 2000 + j;
    trace_reset();
    cr_assert_eq(corral_tick(s, 0.f), (uint32_t)n);
    expect_trace(want, n);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* The walk of a lane of many types loads the next entry's step function a
   step ahead. A step that stops the next coroutine and starts one of
   another type in its slot must not see the old function called. */
static corral_result stop_next_and_reuse(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) {
        corral_sched *s = corral_sched_of(co);
        cr_assert(corral_stop(s, ctx->other));
        /* the freed slot is the warm one: the new coroutine takes it */
        corral_handle h = start_actor(s, 50, NULL, (corral_handle){0, 0}, NULL);
        cr_assert_eq(h.index, ctx->other.index, "the new coroutine took the stopped one's slot");
    }
    return CORRAL_YIELD;
}

Test(sched, a_step_that_stops_the_next_coroutine_and_reuses_its_slot_runs_the_new_one_only_in_its_turn)
{
    corral_sched *s = small_sched(8);
    corral_handle killer_slot = start_actor(s, 1, stop_next_and_reuse, (corral_handle){0, 0}, NULL);
    corral_handle victim = start_tracer(s, 9, 0); /* another type, right after it in the lane */
    actor_ctx_of(s, killer_slot)->other = victim;
    trace_reset();
    corral_tick(s, 0.f); /* 1 (stops 9, starts 50 in its slot: 50's first step now), then not 9 */
    corral_tick(s, 0.f); /* 1, 50 */
    int want[] = {1, 50, 1, 50};
    expect_trace(want, 4);
    cr_assert_not(corral_alive(s, victim));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* the calls that need the scheduler at rest, made from a cleanup hook that
   corral_sched_destroy runs: each refused with DESTROYING, nothing done */
static corral_sched *g_dying;
static corral_error g_dying_err[7];
#define DYING_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(dying, DYING_FIELDS)
static void dying_cleanup(dying_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    if (why != CORRAL_END_DESTROYED) return;
    static unsigned char buf[1 << 14];
    cr_assert_eq(corral_save(g_dying, buf, sizeof buf), 0);
    g_dying_err[0] = corral_last_error(g_dying);
    cr_assert(!corral_load(g_dying, buf, sizeof buf));
    g_dying_err[1] = corral_last_error(g_dying);
    cr_assert_eq(corral_snapshot(g_dying, buf, sizeof buf), 0);
    g_dying_err[2] = corral_last_error(g_dying);
    cr_assert(!corral_restore(g_dying, buf, sizeof buf));
    g_dying_err[3] = corral_last_error(g_dying);
    cr_assert_eq(corral_tick(g_dying, 0.1f), 0);
    g_dying_err[4] = corral_last_error(g_dying);
    cr_assert_eq(corral_run_phase(g_dying, CORRAL_PHASE_UPDATE), 0);
    g_dying_err[5] = corral_last_error(g_dying);
    corral_sched_destroy(g_dying);
    g_dying_err[6] = corral_last_error(g_dying);
}
DEFINE_COROUTINE_CLEANUP(dying, dying_cleanup)
{
    CORRAL_BEGIN(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(sched, every_call_that_needs_the_scheduler_at_rest_is_refused_while_it_is_destroyed)
{
    corral_sched_desc d = one_class_desc(64, 4);
    g_dying = sched_of(d);
    dying_start(g_dying, (dying_ctx){0});
    corral_tick(g_dying, 0.1f);
    corral_sched_destroy(g_dying);
    for (int i = 0; i < 7; i++) cr_assert_eq(g_dying_err[i], CORRAL_ERR_DESTROYING, "call %d", i);
}

/* A type that DEFINE_COROUTINE made steps its entries in a run, its body
   inlined; a vtable written by hand (no run) is stepped through its step
   function. Mixed in one FIFO lane, with a tombstone in a run and an
   entry that stops itself, they resume in queue order all the same. */
static corral_result stop_next(corral_co *co, actor_ctx *ctx)
{
    (void)co;
    if (ctx->steps == 2) corral_stop(corral_sched_of(co), ctx->other); /* the entry after it, in the first tick */
    return CORRAL_YIELD;
}
Test(sched, runs_of_one_type_and_types_without_a_run_resume_in_queue_order)
{
    cr_assert_not_null(tracer_type.run, "DEFINE_COROUTINE makes the run");
    corral_type by_hand = tracer_type;
    by_hand.name = "tracer_by_hand";
    by_hand.run = NULL;
    corral_sched *s = sched_of(one_class_desc(64, 32));
    /* ids 1-3 tracers, 4 by hand, 5 stops 6 in its first run, 7-8 tracers, 9 by hand, 10 ends at its 2nd step */
    tracer_start(s, (tracer_ctx){.id = 1});
    tracer_start(s, (tracer_ctx){.id = 2});
    tracer_start(s, (tracer_ctx){.id = 3});
    const tracer_ctx c4 = {.id = 4};
    cr_assert_neq(corral_start(s, &by_hand, &c4, sizeof c4).gen, 0);
    corral_handle a5 = actor_start(s, (actor_ctx){.fn = stop_next, .id = 5});
    corral_handle t6 = tracer_start(s, (tracer_ctx){.id = 6});
    actor_ctx_of(s, a5)->other = t6;
    tracer_start(s, (tracer_ctx){.id = 7});
    tracer_start(s, (tracer_ctx){.id = 8});
    const tracer_ctx c9 = {.id = 9};
    cr_assert_neq(corral_start(s, &by_hand, &c9, sizeof c9).gen, 0);
    tracer_start(s, (tracer_ctx){.id = 10, .stop_after = 2});
    trace_reset();
    corral_tick(s, 0.01f); /* their second steps: 5's stops 6 first */
    corral_tick(s, 0.01f);
    const int want[] = {1, 2, 3, 4, 5, 7, 8, 9, 10, 1, 2, 3, 4, 5, 7, 8, 9};
    expect_trace(want, (int)(sizeof want / sizeof want[0]));
    cr_assert_eq(corral_live_count(s), 8);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* The ready list: joiners woken by an end during a run of their phase
   resume in that same run, in the order they joined. One of them, running
   first, stops the one in the middle of the list and pauses the last: the
   middle one never runs, the others keep their order, the paused one runs
   once resumed. */
static corral_handle g_ready[5];
static corral_result join_target(corral_co *co, actor_ctx *ctx)
{
    (void)co;
    return ctx->steps == 2 ? CORRAL_STOP : CORRAL_YIELD; /* ends in the second frame's run */
}
static corral_result ready_joiner(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) return corral_await(co, corral_wait_join(ctx->other)) ? CORRAL_YIELD : CORRAL_STOP;
    if (ctx->id == 11) { /* the first woken: the others are in the ready list now */
        corral_sched *s = corral_sched_of(co);
        cr_assert(corral_stop(s, g_ready[2]), "the middle one, ready");
        cr_assert(corral_pause(s, g_ready[4]), "the last one, ready");
    }
    return CORRAL_STOP;
}
Test(sched, ready_joiners_taken_out_of_the_ready_list_keep_the_others_in_order)
{
    corral_sched *s = small_sched(16);
    corral_handle target = start_actor(s, 1, join_target, (corral_handle){0, 0}, NULL);
    for (int i = 0; i < 4; i++) g_ready[i + 1] = start_actor(s, 11 + i, ready_joiner, target, NULL);
    trace_reset();
    corral_tick(s, 0.016f);
    int want[] = {1, 11, 13}; /* the target ends, its joiners at once: 12 stopped, 14 paused */
    expect_trace(want, 3);
    cr_assert_not(corral_alive(s, g_ready[2]));
    cr_assert(corral_paused(s, g_ready[4]));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    trace_reset();
    cr_assert(corral_resume(s, g_ready[4]));
    corral_tick(s, 0.016f);
    int want2[] = {14};
    expect_trace(want2, 1);
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* Many ready at once, taken out newest first: a step stops a target that
   RN coroutines join, which readies them all (the ready lane's entries
   span several chunks), then stops every third and pauses the next,
   newest first. The rest resume in the same run in the order they
   joined; the paused ones, resumed, in the order they were resumed. */
enum { RN = 100 };
static corral_handle g_many[RN];
static corral_result many_joiner(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) return corral_await(co, corral_wait_join(ctx->other)) ? CORRAL_YIELD : CORRAL_STOP;
    return CORRAL_STOP;
}
static corral_result many_firer(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) return CORRAL_YIELD;
    corral_sched *s = corral_sched_of(co);
    cr_assert(corral_stop(s, ctx->other), "the target ends: its joiners are ready");
    for (int i = 0; i < RN; i++) cr_assert(corral_alive(s, g_many[i]) && !corral_paused(s, g_many[i]));
    for (int i = RN; i-- > 0;) {
        if (i % 3 == 0) cr_assert(corral_stop(s, g_many[i]), "%d, ready, stopped", i);
        else if (i % 3 == 1) cr_assert(corral_pause(s, g_many[i]), "%d, ready, paused", i);
    }
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    return CORRAL_STOP;
}
Test(sched, ready_coroutines_stopped_or_paused_newest_first_leave_the_rest_in_order)
{
    corral_sched *s = small_sched(RN + 8);
    const corral_handle target = start_actor(s, 1, NULL, (corral_handle){0, 0}, NULL);
    for (int i = 0; i < RN; i++) g_many[i] = start_actor(s, 100 + i, many_joiner, target, NULL);
    start_actor(s, 2, many_firer, target, NULL);
    trace_reset();
    corral_tick(s, 0.016f);
    int want[2 + RN], n = 0;
    want[n++] = 1;
    want[n++] = 2;
    for (int i = 0; i < RN; i++)
        if (i % 3 == 2) want[n++] = 100 + i;
    expect_trace(want, n);
    for (int i = 0; i < RN; i++) {
        cr_assert_eq(corral_alive(s, g_many[i]), i % 3 == 1, "%d", i);
        cr_assert_eq(corral_paused(s, g_many[i]), i % 3 == 1, "%d", i);
    }
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    n = 0;
    for (int i = RN; i-- > 0;)
        if (i % 3 == 1) {
            cr_assert(corral_resume(s, g_many[i]));
            want[n++] = 100 + i;
        }
    trace_reset();
    corral_tick(s, 0.016f);
    expect_trace(want, n);
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* The ready lane's tombstones when the run queue's chunks run dry: a
   step readies 8 joiners and stops three of them (tombstones in the ready
   lane), then pauses and resumes a coroutine queued in a later phase
   thousands of times (each leaves a tombstone in its lane and takes a new
   entry), so the pool
   is compacted with the ready lane in it; the first joiner, drained, does
   the same while the others wait to be read, then stops one of them by
   the link the compaction rewrote. The rest resume in the order they
   joined; the scheduler verifies throughout. */
enum { CHURN = 3000, CHURN_JOINERS = 8 };
static corral_handle g_churn_j[CHURN_JOINERS], g_churn_sitter;
static void ready_churn(corral_sched *s)
{
    for (int k = 0; k < CHURN; k++) {
        cr_assert(corral_pause(s, g_churn_sitter));
        cr_assert(corral_resume(s, g_churn_sitter));
        if (k % 500 == 0) cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
}
static corral_result churn_joiner(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) return corral_await(co, corral_wait_join(ctx->other)) ? CORRAL_YIELD : CORRAL_STOP;
    if (ctx->id == 20) { /* drained first: the others are still to read */
        corral_sched *s = corral_sched_of(co);
        ready_churn(s);
        cr_assert(corral_stop(s, g_churn_j[6]), "ready, where the compaction moved it");
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    return CORRAL_STOP;
}
static corral_result churn_firer(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps != 2) return CORRAL_YIELD;
    corral_sched *s = corral_sched_of(co);
    cr_assert(corral_stop(s, ctx->other));
    for (int i = 1; i < 6; i += 2) cr_assert(corral_stop(s, g_churn_j[i]));
    ready_churn(s);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    return CORRAL_YIELD; /* (the joiners' run after the walk of its lane) */
}
Test(sched, ready_lane_tombstones_are_compacted_when_the_chunks_run_dry)
{
    corral_sched *s = small_sched(32);
    const corral_handle target = start_actor(s, 1, NULL, (corral_handle){0, 0}, NULL);
    for (int i = 0; i < CHURN_JOINERS; i++) g_churn_j[i] = start_actor(s, 20 + i, churn_joiner, target, NULL);
    corral_start_desc late = {0};
    late.phase = CORRAL_PHASE_LATE_UPDATE; /* its lane is not the one walked */
    g_churn_sitter = actor_start_ex(s, (actor_ctx){.id = 3}, &late);
    start_actor(s, 2, churn_firer, target, NULL);
    trace_reset();
    corral_tick(s, 0.016f);
    const int want[] = {1, 2, 20, 22, 24, 27, 3};
    expect_trace(want, (int)(sizeof want / sizeof want[0]));
    cr_assert_eq(corral_live_count(s), 2);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* ---- the run queue at its limit: an entry a slot. Every slot is live and
   most coroutines change lanes several times a frame (UPDATE, then LATE,
   then END, then FIXED or the next frame's UPDATE), each move leaving the
   entry it had to a compaction; reapers stop others (queued before or
   after them in their walk) and start new ones in the slots they free;
   sitters stay in the UPDATE lane, so a walk has survivors. What each
   frame ran is checked against the resume contract: each phase's run
   steps, in order, what joined its lane (FIFO, per type under BY_TYPE),
   and each coroutine steps as often as its moves say. */
enum { HOP_SLOTS = 3000, HOP_IDS = 65536, HOP_RUN = 2 * HOP_SLOTS };
enum { HOP_SIT, HOP_BY_FIXED, HOP_BY_NEXT_FRAME }; /* role: id % 3 */
#define HOP_FIELDS(F) \
    F(int, id)        \
    F(int, steps)
DECLARE_COROUTINE(hop_a, HOP_FIELDS)
DECLARE_COROUTINE(hop_b, HOP_FIELDS)
static struct hop_world {
    bool in_frame;
    int frame;
    int seq[4][HOP_RUN], len[4]; /* this frame's runs: FIXED, UPDATE, LATE, END */
    int prev[4][HOP_RUN], prev_len[4];
    int live[HOP_SLOTS], pos[HOP_IDS]; /* the live ids; where each is in live */
    corral_handle handle[HOP_IDS];
    int next_id;
    int stopped[HOP_IDS], started[HOP_IDS]; /* the frame it happened in (+1: 0 is never) */
    int steps[HOP_IDS];                     /* its steps in this frame */
    int updated[HOP_IDS];                   /* the frame it stepped in UPDATE (+1) */
    int total_steps;
    bool pause_too; /* reapers also pause and resume one */
    bool all_sit;   /* every coroutine a sitter */
} H;
static int hop_role(int id) { return H.all_sit ? HOP_SIT : id % 3; }
static bool hop_reaps(int id) { return id % (H.all_sit ? 3 : 7) == 0; } /* (not in the frame it starts: no step stops its starter) */
static corral_handle hop_start(corral_sched *s, int id)
{
    H.handle[id] = id % 2 ? hop_b_start(s, (hop_b_ctx){.id = id}) : hop_a_start(s, (hop_a_ctx){.id = id});
    cr_assert_neq(H.handle[id].gen, 0, "a slot freed by a stop takes a new coroutine");
    return H.handle[id];
}
static void hop_reap(corral_sched *s, int id)
{
    if (H.pause_too) { /* a tombstone, and at once a new entry at its lane's end */
        const corral_handle h = H.handle[H.live[(id * 11 + H.frame) % HOP_SLOTS]];
        if (h.index != H.handle[id].index || h.gen != H.handle[id].gen) {
            cr_assert(corral_pause(s, h));
            cr_assert(corral_resume(s, h));
        }
    }
    int k = (id * 7 + H.frame * 13) % HOP_SLOTS, t = H.live[k];
    if (H.all_sit) { /* the last one stepped before it (its entry is behind the walk's cursor) */
        t = -1;
        for (int i = H.len[1] - 1; i >= 0 && t < 0; i--)
            if (H.started[H.seq[1][i]] != H.frame + 1 && H.stopped[H.seq[1][i]] != H.frame + 1) t = H.seq[1][i];
        if (t < 0) return;
        k = H.pos[t];
    }
    if (t == id) return;
    cr_assert(corral_stop(s, H.handle[t]));
    H.stopped[t] = H.frame + 1;
    const int n = H.next_id++;
    cr_assert_lt(n, HOP_IDS);
    H.live[k] = n;
    H.pos[n] = k;
    H.started[n] = H.frame + 1;
    hop_start(s, n);
}
static corral_result hop_step(corral_co *co, int *steps, int id)
{
    (*steps)++;
    corral_phase to = CORRAL_PHASE_LATE_UPDATE; /* a start outside a tick: next LATE */
    if (H.in_frame) {
        const int ph = (int)corral_current_phase(co) - (int)CORRAL_PHASE_FIXED_UPDATE;
        cr_assert(ph >= 0 && ph < 4);
        /* (what it starts lands first: the order of the log is the order
           in which they join their next lanes) */
        if (ph == 1 && hop_reaps(id) && H.started[id] != H.frame + 1) hop_reap(corral_sched_of(co), id);
        cr_assert_lt(H.len[ph], HOP_RUN);
        H.seq[ph][H.len[ph]++] = id;
        if (ph == 1) H.updated[id] = H.frame + 1;
        H.steps[id]++;
        H.total_steps++;
        if (ph == 1 && hop_role(id) == HOP_SIT) return CORRAL_YIELD; /* stays in UPDATE */
        if (ph == 3 && hop_role(id) == HOP_BY_NEXT_FRAME) {
            cr_assert(corral_await(co, corral_wait_next_frame()));
            return CORRAL_YIELD;
        }
        const corral_phase next[4] = {CORRAL_PHASE_UPDATE, CORRAL_PHASE_LATE_UPDATE, CORRAL_PHASE_END_OF_FRAME,
                                      CORRAL_PHASE_FIXED_UPDATE};
        to = next[ph];
    } else if (hop_role(id) == HOP_SIT) {
        return CORRAL_YIELD;
    }
    cr_assert(corral_await(co, corral_wait_phase(to)));
    return CORRAL_YIELD;
}
DEFINE_COROUTINE(hop_a) { return hop_step(co, &ctx->steps, ctx->id); }
DEFINE_COROUTINE(hop_b) { return hop_step(co, &ctx->steps, ctx->id); }

static corral_sched *hop_world(corral_order order, bool all_sit)
{
    memset(&H, 0, sizeof H);
    H.all_sit = all_sit;
    corral_sched_desc d = one_class_desc(64, HOP_SLOTS);
    d.order = order;
    d.max_types = 2; /* few lanes: their chunks' slack is small beside the slots' entries */
    d.fixed_dt = 0.25f; /* a frame of 0.25 s runs one fixed step */
    corral_sched *s = sched_of(d);
    cr_assert_eq(s->arena.total_slots, HOP_SLOTS);
    cr_assert_eq(s->run.chunk_count, corral__chunks_for(HOP_SLOTS, s->run.lane_count), "an entry a slot");
    for (int i = 0; i < HOP_SLOTS; i++) {
        H.live[i] = H.pos[i] = i;
        hop_start(s, i);
    }
    H.next_id = HOP_SLOTS;
    cr_assert_eq(corral_live_count(s), HOP_SLOTS);
    return s;
}

/* out = the ids of in (n of them) that keep(id, arg) and are of type t (-1: any) */
static int hop_pick(int *out, const int *in, int n, bool (*keep)(int id, int arg), int arg, int t)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (keep(in[i], arg) && (t < 0 || in[i] % 2 == t)) out[m++] = in[i];
    return m;
}
static bool hop_goes_on(int id, int frame) { return hop_role(id) != HOP_SIT && H.stopped[id] != frame + 1; }
static bool hop_old_sitter(int id, int frame)
{
    return hop_role(id) == HOP_SIT && H.started[id] != frame + 1 && H.stopped[id] != frame + 1;
}
static bool hop_new_sitter(int id, int frame)
{
    return hop_role(id) == HOP_SIT && H.started[id] == frame + 1 && H.stopped[id] != frame + 1;
}
static bool hop_by(int id, int role) { return hop_role(id) == role; }
static bool hop_not_new(int id, int frame) { return H.started[id] != frame + 1; }
static bool hop_ran_or_stays(int id, int frame)
{
    return H.stopped[id] != frame + 1 || H.updated[id] == frame + 1; /* stopped: if it stepped before */
}
static void hop_same(const int *a, int na, const int *b, int nb, const char *what, int t)
{
    if (getenv("HOP_DEBUG") && (na != nb || memcmp(a, b, (size_t)na * sizeof *a))) {
        fprintf(stderr, "%s got:", what); for (int i = 0; i < na; i++) fprintf(stderr, " %d", a[i]);
        fprintf(stderr, "\n%s want:", what); for (int i = 0; i < nb; i++) fprintf(stderr, " %d", b[i]);
        fprintf(stderr, "\nU:"); for (int i = 0; i < H.len[1]; i++) fprintf(stderr, " %d%s", H.seq[1][i], H.started[H.seq[1][i]] == H.frame + 1 ? "n" : "");
        fprintf(stderr, "\n");
    }
    cr_assert_eq(na, nb, "frame %d, type %d, %s: %d stepped, %d expected", H.frame, t, what, na, nb);
    for (int i = 0; i < na; i++)
        cr_assert_eq(a[i], b[i], "frame %d, type %d, %s: step %d is %d, expected %d", H.frame, t, what, i, a[i], b[i]);
}
static bool hop_any(int id, int arg)
{
    (void)id;
    (void)arg;
    return true;
}
/* this frame's runs against the last frame's, type by type (types 1: all
   in one) */
static void hop_check_order(int types)
{
    static int want[HOP_RUN * 2], got[HOP_RUN * 2], tmp[HOP_RUN * 2];
    const int f = H.frame, last = f - 1;
    for (int k = 0; k < types; k++) {
        const int t = types > 1 ? k : -1;
        /* FIXED: the last frame's END that went by FIXED */
        int nw = hop_pick(want, H.prev[3], H.prev_len[3], hop_by, HOP_BY_FIXED, t);
        int ng = hop_pick(got, H.seq[0], H.len[0], hop_any, 0, t);
        hop_same(got, ng, want, nw, "FIXED", t);
        /* UPDATE: the sitters that stayed, the sitters started last frame,
           the last END's next-frame ones, then this FIXED's; less those
           stopped before their step, and the ones started now */
        nw = hop_pick(tmp, H.prev[1], H.prev_len[1], hop_old_sitter, last, t);
        nw += hop_pick(tmp + nw, H.prev[1], H.prev_len[1], hop_new_sitter, last, t);
        nw += hop_pick(tmp + nw, H.prev[3], H.prev_len[3], hop_by, HOP_BY_NEXT_FRAME, t);
        nw += hop_pick(tmp + nw, H.seq[0], H.len[0], hop_by, HOP_BY_FIXED, t);
        nw = hop_pick(want, tmp, nw, hop_ran_or_stays, f, t);
        ng = hop_pick(got, H.seq[1], H.len[1], hop_not_new, f, t);
        hop_same(got, ng, want, nw, "UPDATE", t);
        /* LATE: what went on from this UPDATE; END: the same */
        nw = hop_pick(want, H.seq[1], H.len[1], hop_goes_on, f, t);
        ng = hop_pick(got, H.seq[2], H.len[2], hop_any, 0, t);
        hop_same(got, ng, want, nw, "LATE", t);
        ng = hop_pick(got, H.seq[3], H.len[3], hop_any, 0, t);
        hop_same(got, ng, want, nw, "END", t);
    }
}

/* one frame; then corral_verify, every slot live, and (past the first
   frame, whose runs began outside a tick) each coroutine's steps */
static void hop_frame(corral_sched *s, bool counted)
{
    memcpy(H.prev, H.seq, sizeof H.seq);
    memcpy(H.prev_len, H.len, sizeof H.len);
    memset(H.len, 0, sizeof H.len);
    memset(H.steps, 0, sizeof H.steps);
    H.frame++;
    H.in_frame = true;
    corral_tick(s, 0.25f);
    H.in_frame = false;
    cr_assert(corral_verify(s), "frame %d", H.frame);
    cr_assert_eq(corral_live_count(s), HOP_SLOTS);
    for (int i = 0; counted && H.frame > 1 && i < HOP_SLOTS; i++) {
        const int id = H.live[i], want = hop_role(id) == HOP_SIT ? 1 : hop_role(id) == HOP_BY_FIXED ? 4 : 3;
        if (H.started[id] != H.frame + 1) cr_assert_eq(H.steps[id], want, "frame %d: %d stepped %d times", H.frame, id, H.steps[id]);
    }
}

static void hop_run(corral_order order, bool all_sit)
{
    corral_sched *s = hop_world(order, all_sit);
    for (int f = 0; f < 40; f++) {
        hop_frame(s, true);
        if (H.frame > 1) hop_check_order(order == CORRAL_ORDER_BY_TYPE ? 2 : 1);
    }
    cr_assert_gt(H.next_id, HOP_SLOTS + 40 * 100, "reapers started many");
    corral_sched_destroy(s);
}

Test(sched, every_slot_live_and_changing_lanes_keeps_fifo_order_with_an_entry_a_slot) { hop_run(CORRAL_ORDER_FIFO, false); }
Test(sched, every_slot_live_and_changing_lanes_keeps_by_type_order_with_an_entry_a_slot)
{
    hop_run(CORRAL_ORDER_BY_TYPE, false);
}
/* Every coroutine stays in the UPDATE lane, so a walk runs in place (no
   write cursor) while reapers stop coroutines before and after them and
   the ones they start wait in the next-frame lane: the pool runs dry in
   the walk's in-place loop. */
Test(sched, every_slot_live_and_staying_in_place_keeps_fifo_order_with_an_entry_a_slot)
{
    hop_run(CORRAL_ORDER_FIFO, true);
}
Test(sched, every_slot_live_and_staying_in_place_keeps_by_type_order_with_an_entry_a_slot)
{
    hop_run(CORRAL_ORDER_BY_TYPE, true);
}

/* The same under a time budget (each step spends 100 ns of an injected
   clock, a run 1200 steps' worth): runs stop part way, what did not run
   goes first next time, BY_TYPE lanes run limited; the reapers also pause
   and resume a coroutine (a tombstone and a new entry). Nothing is lost:
   every coroutine steps at least once in any 8 frames. */
static uint64_t g_hop_now;
static uint64_t hop_clock(void *user)
{
    (void)user;
    return g_hop_now += 100;
}
static void hop_budget_run(corral_order order)
{
    memset(&H, 0, sizeof H);
    corral_sched_desc d = one_class_desc(64, HOP_SLOTS);
    d.order = order;
    d.max_types = 2;
    d.fixed_dt = 0.25f;
    d.clock.now_ns = hop_clock;
    corral_sched *s = sched_of(d);
    static int last_step[HOP_IDS];
    memset(last_step, 0, sizeof last_step);
    H.pause_too = true;
    for (int i = 0; i < HOP_SLOTS; i++) {
        H.live[i] = H.pos[i] = i;
        hop_start(s, i);
    }
    H.next_id = HOP_SLOTS;
    corral_set_budget(s, 1200 * 200); /* (the clock moves at each read: two a step) */
    for (int f = 0; f < 60; f++) {
        hop_frame(s, false);
        for (int i = 0; i < HOP_SLOTS; i++) {
            const int id = H.live[i];
            if (H.steps[id] || H.started[id] == H.frame + 1) last_step[id] = H.frame;
            cr_assert_leq(H.frame - last_step[id], 8, "frame %d: %d has not stepped since frame %d", H.frame, id,
                          last_step[id]);
        }
        cr_assert(corral_verify(s));
    }
    corral_sched_destroy(s);
}

Test(sched, every_slot_live_under_a_budget_loses_no_coroutine_fifo) { hop_budget_run(CORRAL_ORDER_FIFO); }
Test(sched, every_slot_live_under_a_budget_loses_no_coroutine_by_type) { hop_budget_run(CORRAL_ORDER_BY_TYPE); }
