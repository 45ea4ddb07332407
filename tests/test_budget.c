/* test_budget.c -- time budgets with an injected clock: no starvation,
   budget left inside a step, by-type lanes, churn under a budget. */
#include "common.h"
#include "corral_internal.h"

/* the fake clock: every step of a `costly` coroutine spends ctx->cost ns */
static uint64_t g_now;
static uint64_t fake_clock(void *user)
{
    (void)user;
    return g_now;
}

static void setup(void)
{
    trace_reset();
    g_now = 1000;
}
TestSuite(budget, .init = setup);

#define COSTLY_FIELDS(F) \
    F(int, id)           \
    F(uint32_t, cost)    \
    F(int, runs)
DECLARE_COROUTINE(costly, COSTLY_FIELDS)
DEFINE_COROUTINE(costly)
{
    g_now += ctx->cost;
    ctx->runs++;
    trace_push(ctx->id);
    return CORRAL_YIELD;
}

static corral_sched *bsched(uint32_t cap, corral_order order)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = cap;
    d.clock.now_ns = fake_clock;
    d.order = order;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    return s;
}

Test(budget, what_did_not_run_goes_first_next_tick_so_nothing_starves)
{
    corral_sched *s = bsched(16, CORRAL_ORDER_FIFO);
    corral_handle h[10];
    for (int i = 0; i < 10; i++) h[i] = costly_start(s, (costly_ctx){.id = i, .cost = 1000});
    corral_set_budget(s, 3000); /* three steps a run */
    trace_reset();
    for (int t = 0; t < 10; t++) cr_assert_eq(corral_tick(s, 0.01f), 3);
    int want[30] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    expect_trace(want, 30);
    for (int i = 0; i < 10; i++) cr_assert_eq(costly_ctx_of(s, h[i])->runs, 1 + 3, "each ran 3 times");
    corral_set_budget(s, 0);
    cr_assert_eq(corral_tick(s, 0.01f), 10, "no budget: everyone");
    corral_sched_destroy(s);
}

Test(budget, a_run_always_makes_one_step_even_over_budget)
{
    corral_sched *s = bsched(8, CORRAL_ORDER_FIFO);
    for (int i = 0; i < 3; i++) costly_start(s, (costly_ctx){.id = i, .cost = 50000});
    corral_set_budget(s, 10);
    trace_reset();
    for (int t = 0; t < 6; t++) cr_assert_eq(corral_tick(s, 0.01f), 1);
    int want[] = {0, 1, 2, 0, 1, 2};
    expect_trace(want, 6);
    corral_sched_destroy(s);
}

/* dense work split across frames: expand nodes while the budget lasts */
#define SEARCH_FIELDS(F)     \
    F(uint32_t, expanded)    \
    F(uint32_t, goal)        \
    F(uint32_t, per_tick)    \
    F(uint64_t, seen_left)
DECLARE_COROUTINE(search, SEARCH_FIELDS)
DEFINE_COROUTINE(search)
{
    ctx->per_tick = 0;
    ctx->seen_left = corral_budget_left(co);
    while (ctx->expanded < ctx->goal && corral_budget_left(co) >= 100) {
        g_now += 100; /* one node: 100 ns */
        ctx->expanded++;
        ctx->per_tick++;
    }
    return ctx->expanded < ctx->goal ? CORRAL_YIELD : CORRAL_STOP;
}

Test(budget, outside_a_budgeted_run_the_budget_left_is_unlimited)
{
    corral_sched *s = bsched(8, CORRAL_ORDER_FIFO);
    corral_set_budget(s, 1000);
    /* a start outside any phase run is not budgeted: its first step does it all */
    corral_handle h = search_start(s, (search_ctx){.goal = 2500});
    cr_assert_not(corral_alive(s, h));
    corral_set_budget(s, 0);
    h = search_start(s, (search_ctx){.goal = 2500});
    cr_assert_not(corral_alive(s, h));
    cr_assert_eq(corral_budget_left(NULL), 0);
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_IN_STEP);
    corral_sched_destroy(s);
}

#define PLANNER_FIELDS(F)   \
    F(uint32_t, expanded)   \
    F(uint32_t, goal)       \
    F(int, ticks)
DECLARE_COROUTINE(planner, PLANNER_FIELDS)
DEFINE_COROUTINE(planner)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co); /* from here on it runs inside budgeted runs */
    while (ctx->expanded < ctx->goal) {
        while (ctx->expanded < ctx->goal && corral_budget_left(co) >= 100) {
            g_now += 100;
            ctx->expanded++;
        }
        ctx->ticks++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

Test(budget, a_planner_expands_as_many_nodes_as_the_budget_allows_each_frame)
{
    corral_sched *s = bsched(8, CORRAL_ORDER_FIFO);
    corral_set_budget(s, 1000); /* 10 nodes of 100 ns */
    corral_handle h = planner_start(s, (planner_ctx){.goal = 95});
    int frames = 0;
    while (corral_alive(s, h) && frames < 100) {
        corral_tick(s, 0.01f);
        frames++;
    }
    cr_assert_eq(frames, 11, "95 nodes at 10 a frame: 10 frames of work + the one it started with");
    corral_sched_destroy(s);
}

Test(budget, by_type_runs_resume_from_the_lane_that_ran_out)
{
    corral_sched *s = bsched(16, CORRAL_ORDER_BY_TYPE);
    for (int i = 0; i < 3; i++) costly_start(s, (costly_ctx){.id = i, .cost = 1000});
    for (int i = 0; i < 3; i++) start_tracer(s, 10 + i, 0); /* a second type: no cost */
    corral_set_budget(s, 2000);
    trace_reset();
    corral_tick(s, 0.01f); /* costly 0, 1: out */
    corral_tick(s, 0.01f); /* what did not run first (costly 2), then the tracers: out at 12 */
    corral_tick(s, 0.01f); /* back to the costly lane: 0 and 1 first (they waited), 2 after */
    corral_tick(s, 0.01f); /* 2 (it did not run last time), then the tracers */
    /* round robin: every coroutine runs every other tick, none starves */
    int want[] = {0, 1, 2, 10, 11, 12, 0, 1, 2, 10, 11, 12};
    expect_trace(want, 12);
    corral_sched_destroy(s);
}

static int g_serial;
static corral_result churn_under_budget(corral_co *co, struct actor_ctx *ctx)
{
    corral_sched *s = corral_sched_of(co);
    g_now += 700;
    corral_handle *pool = (corral_handle *)ctx->user;
    int k = ctx->steps % 16;
    if (corral_alive(s, pool[k])) corral_stop(s, pool[k]);
    else pool[k] = start_tracer(s, 1000 + g_serial++, 0); /* ids unique per start */
    return CORRAL_YIELD;
}

Test(budget, churn_under_a_budget_loses_no_coroutine_and_steps_none_twice_a_run)
{
    corral_sched *s = bsched(64, CORRAL_ORDER_FIFO);
    corral_handle pool[16];
    memset(pool, 0, sizeof pool);
    corral_handle none = {0, 0};
    for (int i = 0; i < 4; i++) start_actor(s, 100 + i, churn_under_budget, none, pool);
    corral_set_budget(s, 2000);
    for (int t = 0; t < 500; t++) {
        trace_reset();
        corral_tick(s, 0.01f);
        /* nobody twice in one run */
        for (int a = 0; a < g_trace_len; a++)
            for (int b = a + 1; b < g_trace_len; b++) cr_assert_neq(g_trace[a], g_trace[b], "tick %d", t);
    }
    /* every live coroutine still gets its turn: run enough ticks with no budget */
    corral_set_budget(s, 0);
    uint32_t live = corral_live_count(s);
    cr_assert_eq(corral_tick(s, 0.01f), live);
    corral_sched_destroy(s);
}
