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
    cr_assert(strstr(corral_last_error_detail(s), "a 1-byte destination for the 4-byte values of range") != NULL, "%s",
              corral_last_error_detail(s));
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

/* ---- who a generator belongs to; a pull in an any; what a take gave;
   a frame wait inside a generator */

/* volley: n values, a rest of `gap` seconds after each (a wave of enemies) */
#define VOLLEY_FIELDS(F) F(int, n) F(int, i) F(float, gap)
#define VOLLEY_POINTS(P) P(gave) P(rested)
DECLARE_COROUTINE_R(volley, VOLLEY_FIELDS, int)
static int g_volley_ends[CORRAL_END_COUNT];
static void volley_end(volley_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_volley_ends[why]++;
}
DEFINE_COROUTINE_CLEANUP_AT(volley, volley_end, VOLLEY_POINTS)
{
    CORRAL_BEGIN_AT(co, VOLLEY_POINTS);
    for (ctx->i = 0; ctx->i < ctx->n; ctx->i++) {
        CORRAL_YIELD_VALUE_AT(co, gave, 100 + ctx->i);
        CORRAL_AWAIT_AT(co, rested, corral_wait_seconds(ctx->gap));
    }
    CORRAL_END(co);
}

/* gunner: makes its own volley in its first step and pulls it to the end */
#define GUNNER_FIELDS(F) F(corral_handle, gen) F(int, v) F(int, got) F(int, how)
#define GUNNER_POINTS(P) P(pulling)
DECLARE_COROUTINE(gunner, GUNNER_FIELDS)
DEFINE_COROUTINE_AT(gunner, GUNNER_POINTS)
{
    CORRAL_BEGIN_AT(co, GUNNER_POINTS);
    ctx->gen = volley_gen(corral_sched_of(co), (volley_ctx){.n = 5, .gap = 10.0f});
    for (;;) {
        CORRAL_PULL_AT(co, pulling, ctx->gen, &ctx->v);
        ctx->how = (int)corral_wait_got(co);
        if (ctx->how != CORRAL_GOT_VALUE) break;
        ctx->got++;
    }
    CORRAL_END(co);
}

static void volley_reset(void) { memset(g_volley_ends, 0, sizeof g_volley_ends); }

Test(generators, a_generator_started_in_a_step_ends_with_the_coroutine_a_group_stop_ends)
{
    corral_sched *s = small_sched(32);
    volley_reset();
    corral_pool_stats before;
    corral_stats_pools(s, &before);
    for (int wave = 0; wave < 3; wave++) { /* each wave: ten gunners of squad 7, stopped mid-pull */
        corral_start_desc squad = {.owner = 7};
        corral_handle g[10];
        for (int i = 0; i < 10; i++) g[i] = gunner_start_ex(s, (gunner_ctx){0}, &squad);
        cr_assert_eq(gunner_ctx_of(s, g[0])->got, 1, "the first value at once; then the volley rests");
        cr_assert_eq(corral_live_count(s), 20, "ten gunners, ten volleys");
        cr_assert(corral_verify(s));
        corral_tick(s, 0.5f);
        cr_assert_eq(corral_stop_owner(s, 7), 10);
        cr_assert_eq(corral_live_count(s), 0, "wave %d: every volley ended with its gunner", wave);
        cr_assert_eq(g_volley_ends[CORRAL_END_PARENT_STOPPED], 10 * (wave + 1), "their cleanup hooks, PARENT_STOPPED");
        cr_assert(corral_verify(s));
    }
    corral_pool_stats after;
    corral_stats_pools(s, &after);
    cr_assert_eq(after.wait_nodes, before.wait_nodes, "no wait node kept");
    cr_assert_eq(after.side_records, before.side_records, "no side record kept");
    corral_sched_destroy(s);
}

Test(generators, a_generator_started_from_plain_code_takes_an_owner_and_tags_for_the_group_operations)
{
    corral_sched *s = small_sched(8);
    volley_reset();
    corral_start_desc o = {.owner = 9, .tags = 4};
    corral_handle a = volley_gen_ex(s, (volley_ctx){.n = 3}, &o);
    corral_handle b = volley_gen(s, (volley_ctx){.n = 3}); /* the game's */
    int v = 0;
    cr_assert(volley_next(s, a, &v) && v == 100);
    cr_assert_eq(corral_stop_tags(s, 4), 1);
    cr_assert(!corral_alive(s, a) && corral_alive(s, b));
    cr_assert_eq(g_volley_ends[CORRAL_END_GROUP_STOPPED], 1);
    corral_start_desc bad = {.single = CORRAL_SINGLE_REFUSE, .tags = 1};
    cr_assert(!volley_gen_ex(s, (volley_ctx){.n = 1}, &bad).gen, "a generator has no single mode");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_START);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

#define TIE_TYPES(X) X(volley, 1, 0) X(gunner, 2, 0)
CORRAL_DECLARE_REGISTRY(ties, TIE_TYPES)
CORRAL_DEFINE_REGISTRY(ties, TIE_TYPES);

Test(generators, a_snapshot_and_a_save_keep_whom_a_generator_belongs_to)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.registry = &ties_registry;
    corral_sched *s = sched_of(d);
    volley_reset();
    corral_handle g = gunner_start(s, (gunner_ctx){0});
    const corral_handle v = gunner_ctx_of(s, g)->gen;
    const uint64_t h0 = corral_state_hash(s);
    static unsigned char snap[1 << 14], save[1 << 14];
    const size_t k = corral_snapshot(s, snap, sizeof snap);
    const size_t n = corral_save(s, save, sizeof save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    cr_assert(corral_stop(s, g));
    cr_assert(!corral_alive(s, v));
    cr_assert(corral_restore(s, snap, k));
    cr_assert(corral_alive(s, v) && corral_verify(s));
    cr_assert(corral_stop(s, g));
    cr_assert(!corral_alive(s, v), "the snapshot's tie");
    corral_sched *t = sched_of(d);
    cr_assert(corral_load(t, save, n), "%s", corral_last_error_detail(t));
    cr_assert(corral_verify(t));
    cr_assert_eq(corral_state_hash(t), h0);
    cr_assert(corral_stop(t, g));
    cr_assert(!corral_alive(t, v), "the save's tie");
    cr_assert_eq(corral_live_count(t), 0);
    cr_assert(corral_verify(t));
    corral_sched_destroy(s);
    corral_sched_destroy(t);
}

/* watcher: pulls a generator or gives up after a second, or on a stop request */
#define WATCHER_FIELDS(F) F(corral_handle, gen) F(int, v) F(int, fired) F(int, got) F(int, how)
DECLARE_COROUTINE(watcher, WATCHER_FIELDS)
DEFINE_COROUTINE(watcher)
{
    CORRAL_BEGIN(co);
    for (;;) {
        {
            corral_wait w[3] = {corral_wait_pull(ctx->gen), corral_wait_seconds(1.0f), corral_wait_stop()};
            CORRAL_WAIT_ANY(co, w, 3);
        }
        ctx->fired = corral_wait_fired(co);
        if (ctx->fired != 0) break;
        ctx->how = (int)volley_take(corral_sched_of(co), ctx->gen, &ctx->v);
        if (ctx->how == CORRAL_GOT_VALUE) ctx->got++;
        else if (ctx->how != CORRAL_GOT_NOT_YET) break;
    }
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, a_pull_in_an_any_loses_to_a_timeout_while_the_generator_waits)
{
    corral_sched *s = small_sched(8);
    corral_handle gen = volley_gen(s, (volley_ctx){.n = 3, .gap = 5.0f});
    corral_handle w = watcher_start(s, (watcher_ctx){.gen = gen});
    cr_assert_eq(watcher_ctx_of(s, w)->got, 1, "the first value at once");
    for (int f = 0; f < 3; f++) corral_tick(s, 0.25f);
    cr_assert_eq(watcher_ctx_of(s, w)->fired, 0, "0.75 s: still waiting");
    corral_tick(s, 0.3f);
    cr_assert_eq(watcher_ctx_of(s, w)->fired, 1, "the timeout won");
    cr_assert_eq(watcher_ctx_of(s, w)->got, 1);
    cr_assert(corral_alive(s, gen), "the generator waits on");
    cr_assert(corral_verify(s));
    corral_handle w2 = watcher_start(s, (watcher_ctx){.gen = gen});
    cr_assert(corral_request_stop(s, w2, 0.0f));
    corral_tick(s, 0.1f);
    cr_assert_eq(watcher_ctx_of(s, w2)->fired, 2, "a stop request beside the pull");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* drainer: CORRAL_PULL alone, then what came */
#define DRAINER_FIELDS(F) F(corral_handle, gen) F(int, v) F(int, got) F(int, how) F(int, asked)
DECLARE_COROUTINE(drainer, DRAINER_FIELDS)
DEFINE_COROUTINE(drainer)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_PULL(co, ctx->gen, &ctx->v);
        ctx->how = (int)corral_wait_got(co);
        if (ctx->how != CORRAL_GOT_VALUE) break;
        ctx->got++;
    }
    ctx->asked = corral_stop_requested(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, a_stop_request_reaches_a_coroutine_waiting_to_pull)
{
    corral_sched *s = small_sched(8);
    corral_handle gen = volley_gen(s, (volley_ctx){.n = 3, .gap = 5.0f});
    corral_handle d = drainer_start(s, (drainer_ctx){.gen = gen});
    cr_assert_eq(drainer_ctx_of(s, d)->got, 1);
    cr_assert(corral_request_stop(s, d, 0.0f));
    corral_tick(s, 0.1f);
    cr_assert_eq(drainer_ctx_of(s, d)->how, CORRAL_GOT_NOT_YET, "the pull gave nothing: it was asked to stop");
    cr_assert(drainer_ctx_of(s, d)->asked);
    cr_assert(corral_alive(s, gen));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(generators, a_take_and_a_pull_say_what_came_finished_stopped_or_not_yet)
{
    corral_sched *s = small_sched(8);
    corral_handle g = volley_gen(s, (volley_ctx){.n = 1, .gap = 1.0f});
    int v = 0;
    cr_assert_eq(volley_take(s, g, &v), CORRAL_GOT_VALUE);
    cr_assert_eq(v, 100);
    cr_assert_eq(volley_take(s, g, &v), CORRAL_GOT_NOT_YET, "it rests");
    cr_assert(!corral_generator_next(s, g, &v, sizeof v), "the loop idiom: no value");
    corral_tick(s, 1.1f);
    cr_assert_eq(volley_take(s, g, &v), CORRAL_GOT_CLOSED, "it finished");
    cr_assert_eq(volley_take(s, g, &v), CORRAL_GOT_ERROR, "gone");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    g = volley_gen(s, (volley_ctx){.n = 3});
    cr_assert_eq(corral_generator_take(s, g, &v, 1), CORRAL_GOT_ERROR);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    /* from a step: finished, then stopped while it waited */
    corral_handle d = drainer_start(s, (drainer_ctx){.gen = volley_gen(s, (volley_ctx){.n = 2, .gap = 0.1f})});
    for (int f = 0; f < 4; f++) corral_tick(s, 0.1f);
    cr_assert_eq(drainer_ctx_of(s, d)->got, 2);
    cr_assert_eq(drainer_ctx_of(s, d)->how, CORRAL_GOT_CLOSED);
    corral_handle h = volley_gen(s, (volley_ctx){.n = 2, .gap = 5.0f});
    corral_handle e = drainer_start(s, (drainer_ctx){.gen = h});
    cr_assert(corral_stop(s, h));
    corral_tick(s, 0.1f);
    cr_assert_eq(drainer_ctx_of(s, e)->how, CORRAL_GOT_STOPPED);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ticker: a value, a frame wait (no value), a value */
#define TICKER_FIELDS(F) F(int, unused)
DECLARE_COROUTINE_R(ticker, TICKER_FIELDS, int)
DEFINE_COROUTINE(ticker)
{
    CORRAL_BEGIN(co);
    CORRAL_YIELD_VALUE(co, 1);
    CORRAL_WAIT_NEXT_FRAME(co);
    CORRAL_YIELD_VALUE(co, 2);
    CORRAL_WAIT_LATE_UPDATE(co);
    CORRAL_YIELD_VALUE(co, 3);
    CORRAL_END(co);
}

Test(generators, a_frame_wait_inside_a_generator_waits_a_frame_and_gives_no_value)
{
    corral_sched *s = small_sched(8);
    corral_handle g = ticker_gen(s, (ticker_ctx){0});
    int v = 0;
    cr_assert_eq(ticker_take(s, g, &v), CORRAL_GOT_VALUE);
    cr_assert_eq(v, 1);
    v = 0;
    cr_assert_eq(ticker_take(s, g, &v), CORRAL_GOT_NOT_YET, "next frame: not a value");
    cr_assert_eq(v, 0, "nothing stale handed out");
    cr_assert_eq(ticker_take(s, g, &v), CORRAL_GOT_NOT_YET, "the same frame");
    corral_tick(s, 0.1f);
    cr_assert_eq(ticker_take(s, g, &v), CORRAL_GOT_VALUE);
    cr_assert_eq(v, 2);
    cr_assert_eq(ticker_take(s, g, &v), CORRAL_GOT_NOT_YET, "a phase wait: a frame too");
    corral_tick(s, 0.1f);
    cr_assert_eq(ticker_take(s, g, &v), CORRAL_GOT_VALUE);
    cr_assert_eq(v, 3);
    cr_assert_eq(ticker_take(s, g, &v), CORRAL_GOT_CLOSED);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(generators, verify_refuses_a_generator_tied_to_no_live_coroutine)
{
    corral_sched *s = small_sched(8);
    corral_handle g = gunner_start(s, (gunner_ctx){0});
    corral_error err;
    corral_co *gen = corral__resolve(s, gunner_ctx_of(s, g)->gen, &err);
    cr_assert(gen);
    cr_assert(corral_verify(s));
    corral__node *n = &corral__nodes(s)[corral__sd(s, corral__meta_of(s, gen))->groups];
    cr_assert_eq(n->kind, CORRAL__NODE_OWNED, "the tie");
    const uint32_t owner = n->u.t.target;
    n->u.t.target = corral__global_of(s, gen); /* tied to itself: to no live owner */
    cr_assert_not(corral_verify(s));
    n->u.t.target = owner;
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}
