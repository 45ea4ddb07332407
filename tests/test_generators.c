/* test_generators.c -- generators: values pulled from plain code and from
   steps, nested pulls, the end, misuse, snapshots and saves of a
   generator's position. */
#include "common.h"
#include "corral_internal.h"

TestSuite(generators);

/* range: from..to step by step */
#define RANGE_FIELDS(F) \
    F(int, from)        \
    F(int, to)          \
    F(int, i)
#define RANGE_POINTS(P) P(gave)
DECLARE_COROUTINE_R(range, RANGE_FIELDS, int)
static int g_range_ends;
static void range_end(range_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    if (why == CORRAL_END_FINISHED) g_range_ends++;
}
DEFINE_COROUTINE_CLEANUP_AT(range, range_end, RANGE_POINTS)
{
    CORRAL_BEGIN_AT(co, RANGE_POINTS);
    for (ctx->i = ctx->from; ctx->i < ctx->to; ctx->i++) CORRAL_YIELD_VALUE_AT(co, gave, ctx->i);
    CORRAL_END(co);
}

/* squares: pulls from a range it makes, yields the squares (a generator
   pulling from a generator) */
#define SQUARES_FIELDS(F) \
    F(corral_handle, src) \
    F(int, n)             \
    F(int, x)
DECLARE_COROUTINE_R(squares, SQUARES_FIELDS, int)
DEFINE_COROUTINE(squares)
{
    CORRAL_BEGIN(co);
    ctx->src = range_gen(corral_sched_of(co), (range_ctx){.from = 1, .to = ctx->n + 1});
    while (range_next(corral_sched_of(co), ctx->src, &ctx->x)) CORRAL_YIELD_VALUE(co, ctx->x * ctx->x);
    CORRAL_END(co);
}

Test(generators, values_come_one_pull_at_a_time_then_the_end)
{
    corral_sched *s = small_sched(8);
    g_range_ends = 0;
    corral_handle g = range_gen(s, (range_ctx){.from = 3, .to = 6});
    cr_assert(corral_alive(s, g));
    cr_assert_eq(range_ctx_of(s, g)->i, 0, "nothing runs before the first pull");
    corral_tick(s, 0.1f);
    cr_assert_eq(range_ctx_of(s, g)->i, 0, "frames do not step it");
    int v = 0, got[8], n = 0;
    while (range_next(s, g, &v)) got[n++] = v;
    cr_assert_eq(n, 3);
    cr_assert(got[0] == 3 && got[1] == 4 && got[2] == 5);
    cr_assert(!corral_alive(s, g), "it ended with its last pull");
    cr_assert_eq(g_range_ends, 1);
    cr_assert(!range_next(s, g, &v));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(generators, a_generator_pulls_from_another_and_a_step_pulls_across_frames)
{
    corral_sched *s = small_sched(8);
    corral_handle q = squares_gen(s, (squares_ctx){.n = 4});
    int v, sum = 0;
    while (squares_next(s, q, &v)) sum += v;
    cr_assert_eq(sum, 1 + 4 + 9 + 16);
    cr_assert_eq(corral_live_count(s), 0, "both ended");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* walker: pulls one waypoint a frame from its generator */
#define WALKER_FIELDS(F)  \
    F(corral_handle, gen) \
    F(int, at)            \
    F(int, steps)
DECLARE_COROUTINE(walker, WALKER_FIELDS)
DEFINE_COROUTINE(walker)
{
    ctx->steps++;
    return range_next(corral_sched_of(co), ctx->gen, &ctx->at) ? CORRAL_YIELD : CORRAL_STOP;
}

Test(generators, a_coroutine_pulls_one_value_a_frame)
{
    corral_sched *s = small_sched(8);
    corral_handle g = range_gen(s, (range_ctx){.from = 10, .to = 13});
    corral_handle w = walker_start(s, (walker_ctx){.gen = g});
    cr_assert_eq(walker_ctx_of(s, w)->at, 10, "its first step pulled the first value");
    corral_tick(s, 0.1f);
    cr_assert_eq(walker_ctx_of(s, w)->at, 11);
    corral_tick(s, 0.1f);
    cr_assert_eq(walker_ctx_of(s, w)->at, 12);
    corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, w) && !corral_alive(s, g));
    corral_sched_destroy(s);
}

/* a generator that waits between its values */
#define BADGEN_FIELDS(F) F(int, unused)
DECLARE_COROUTINE_R(badgen, BADGEN_FIELDS, int)
DEFINE_COROUTINE(badgen)
{
    CORRAL_BEGIN(co);
    CORRAL_YIELD_VALUE(co, 1);
    CORRAL_WAIT_SECONDS(co, 1.0f);
    CORRAL_YIELD_VALUE(co, 2);
    CORRAL_END(co);
}

Test(generators, misuse_is_refused_and_a_generator_that_waits_is_not_ready_until_its_wait_ends)
{
    corral_sched *s = small_sched(8);
    corral_handle b = badgen_gen(s, (badgen_ctx){0});
    int v = 0;
    cr_assert(badgen_next(s, b, &v) && v == 1);
    cr_assert(!badgen_next(s, b, &v), "its step waited");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NOT_READY);
    cr_assert(!corral_error_is_misuse(CORRAL_ERR_NOT_READY));
    cr_assert(corral_alive(s, b), "held, its wait armed");
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_nodes, 1, "its timer");
    corral_tick(s, 0.5f);
    cr_assert(!badgen_next(s, b, &v), "0.5 s: not yet");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NOT_READY);
    corral_tick(s, 0.6f);
    cr_assert(corral_verify(s));
    cr_assert(badgen_next(s, b, &v) && v == 2, "its wait is over: the pull goes on from it");
    cr_assert(!badgen_next(s, b, &v) && !corral_alive(s, b), "then it ends");
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_nodes, 0);
    corral_handle g = range_gen(s, (range_ctx){.from = 0, .to = 5});
    cr_assert(!corral_resume(s, g), "a generator is not resumed into a lane");
    cr_assert(!corral_generator_next(s, g, &v, sizeof(char)));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    corral_handle t = start_tracer(s, 1, 0);
    cr_assert(!corral_generator_next(s, t, NULL, 0), "not a generator");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NOT_PAUSED);
    cr_assert(corral_step_once(s, g), "a step once is a pull whose value is dropped");
    cr_assert(range_next(s, g, &v) && v == 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

#define GEN_TYPES(X) X(range, 1, 0)
CORRAL_DECLARE_REGISTRY(gens, GEN_TYPES)
CORRAL_DEFINE_REGISTRY(gens, GEN_TYPES);

Test(generators, a_snapshot_and_a_save_keep_the_generators_position)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.registry = &gens_registry;
    corral_sched *s = sched_of(d);
    corral_handle g = range_gen(s, (range_ctx){.from = 0, .to = 10});
    int v = 0;
    range_next(s, g, &v);
    range_next(s, g, &v);
    cr_assert_eq(v, 1);
    static unsigned char snap[1 << 14], save[1 << 14];
    size_t k = corral_snapshot(s, snap, sizeof snap);
    size_t n = corral_save(s, save, sizeof save);
    cr_assert_gt(n, 0, "%s", corral_error_str(corral_last_error(s)));
    range_next(s, g, &v);
    range_next(s, g, &v);
    cr_assert_eq(v, 3);
    cr_assert(corral_restore(s, snap, k));
    cr_assert(range_next(s, g, &v) && v == 2, "the snapshot's position");
    corral_sched *t = sched_of(d);
    cr_assert(corral_load(t, save, n));
    cr_assert(range_next(t, g, &v) && v == 2, "the save's position, the same handle");
    cr_assert(!corral_resume(t, g), "still a generator");
    cr_assert(corral_verify(t));
    corral_sched_destroy(s);
    corral_sched_destroy(t);
}

/* quitter: a generator that stops itself from inside its step after two values */
#define QUITTER_FIELDS(F) F(int, n)
DECLARE_COROUTINE_R(quitter, QUITTER_FIELDS, int)
static int g_quit_why;
static void quitter_end(quitter_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_quit_why = (int)why;
}
DEFINE_COROUTINE_CLEANUP(quitter, quitter_end)
{
    if (++ctx->n > 2) corral_stop(corral_sched_of(co), corral_self(co));
    ctx->result = ctx->n;
    return CORRAL_YIELD;
}

Test(generators, a_generator_that_stops_itself_ends_its_sequence)
{
    corral_sched *s = small_sched(8);
    corral_handle g = quitter_gen(s, (quitter_ctx){0});
    int v = 0, n = 0;
    while (quitter_next(s, g, &v)) n++;
    cr_assert_eq(n, 2, "two values, then the pull that stopped it gives none");
    cr_assert_eq(g_quit_why, CORRAL_END_STOPPED);
    cr_assert(!corral_alive(s, g));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}
