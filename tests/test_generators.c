/* test_generators.c -- generators: values pulled from plain code and from
   steps, nested pulls, the end, misuse, snapshots and saves of a
   generator's position. */
#include "common.h"
#include "corral_internal.h"
#include "core/arena.h"

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
    cr_assert_eq(ps.wait_nodes, 0, "its timer is a plain sleep: no node");
    cr_assert_eq(ps.sleepers, 1, "its timer");
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

/* a generator in a time domain other than 0 holds a side record for it:
   with none free its start is refused whole (SIDE_POOL_EXHAUSTED) */
Test(generators, a_generator_in_a_domain_other_than_0_is_refused_whole_when_no_side_record_is_free)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.max_side_records = 1;
    d.domains = 2;
    corral_sched *s = sched_of(d);
    volley_reset();
    corral_handle a = volley_gen_ex(s, (volley_ctx){.n = 3}, &(corral_start_desc){.domain = 1});
    cr_assert_neq(a.gen, 0, "%s", corral_last_error_detail(s));
    cr_assert_eq(pools_of(s).side_records, 1);
    corral_handle b = volley_gen_ex(s, (volley_ctx){.n = 3}, &(corral_start_desc){.domain = 1});
    cr_assert_eq(b.gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    corral_arena_stats st;
    corral_stats_arena(s, &st);
    cr_assert_eq(st.live, 1u, "nothing taken");
    corral_co_info in;
    cr_assert(corral_co_info_of(s, a, &in) && in.domain == 1);
    cr_assert(volley_gen(s, (volley_ctx){.n = 3}).gen, "domain 0 needs none");
    cr_assert(corral_verify(s));
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

/* late: waits to pull a generator that is gone already, in an any and
   alone; what each wait said, and what a take said after */
#define LATE_FIELDS(F) F(corral_handle, gen) F(int, v) F(int, fired) F(int, any) F(int, err) F(int, took) F(int, one) F(int, done)
DECLARE_COROUTINE(late, LATE_FIELDS)
DEFINE_COROUTINE(late)
{
    CORRAL_BEGIN(co);
    {
        corral_wait w[2] = {corral_wait_pull(ctx->gen), corral_wait_seconds(1.0f)};
        CORRAL_WAIT_ANY(co, w, 2);
    }
    ctx->fired = corral_wait_fired(co);
    ctx->any = (int)corral_wait_got(co);
    ctx->err = (int)corral_last_error(corral_sched_of(co));
    ctx->took = (int)volley_take(corral_sched_of(co), ctx->gen, &ctx->v);
    CORRAL_AWAIT(co, corral_wait_pull(ctx->gen));
    ctx->one = (int)corral_wait_got(co);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, a_pull_wait_on_a_generator_already_gone_is_over_at_once_and_says_error)
{
    corral_sched *s = small_sched(8);
    corral_handle g = volley_gen(s, (volley_ctx){.n = 0});
    int v;
    cr_assert_eq(volley_take(s, g, &v), CORRAL_GOT_CLOSED, "it finished at its first pull");
    corral_handle h = late_start(s, (late_ctx){.gen = g});
    const late_ctx *c = late_ctx_of(s, h);
    cr_assert_eq(c->done, 1, "both waits were over at once, in the first step");
    cr_assert_eq(c->fired, 0, "the pull fired, not the second");
    cr_assert_eq(c->any, CORRAL_GOT_ERROR, "a wait on a generator gone: ERROR, as a take of it (got %d)", c->any);
    cr_assert_eq(c->err, CORRAL_ERR_STALE_HANDLE);
    cr_assert_eq(c->took, CORRAL_GOT_ERROR);
    cr_assert_eq(c->one, CORRAL_GOT_ERROR, "alone too (got %d)", c->one);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* after: a wait that ends on a close (a receive, or a CORRAL_PULL whose
   generator was stopped while it waited), then CORRAL_PULL of a gone one */
#define AFTER_FIELDS(F) F(corral_channel, ch) F(corral_handle, gen) F(corral_handle, gone) F(int, v) F(int, first) F(int, then) F(int, again)
DECLARE_COROUTINE(after, AFTER_FIELDS)
DEFINE_COROUTINE(after)
{
    CORRAL_BEGIN(co);
    if (ctx->ch.gen) {
        CORRAL_RECEIVE(co, ctx->ch, &ctx->v);
    } else {
        CORRAL_PULL(co, ctx->gen, &ctx->v); /* a value */
        CORRAL_PULL(co, ctx->gen, &ctx->v); /* waits; it is stopped meanwhile */
    }
    ctx->first = (int)corral_wait_got(co);
    CORRAL_PULL(co, ctx->gone, &ctx->v);
    ctx->then = (int)corral_wait_got(co);
    CORRAL_PULL(co, ctx->gen.gen ? ctx->gen : ctx->gone, &ctx->v);
    ctx->again = (int)corral_wait_got(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, a_pull_of_a_generator_gone_says_error_even_right_after_a_wait_that_ended_on_a_close)
{
    corral_sched *s = small_sched(8);
    corral_handle gone = volley_gen(s, (volley_ctx){.n = 0});
    int v;
    cr_assert_eq(volley_take(s, gone, &v), CORRAL_GOT_CLOSED);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    cr_assert(corral_channel_close(s, ch));
    corral_handle a = after_start(s, (after_ctx){.ch = ch, .gone = gone});
    cr_assert_eq(after_ctx_of(s, a)->first, CORRAL_GOT_CLOSED, "the receive: closed");
    cr_assert_eq(after_ctx_of(s, a)->then, CORRAL_GOT_ERROR, "the pull's own answer, not the receive's (got %d)",
                 after_ctx_of(s, a)->then);
    corral_handle g = volley_gen(s, (volley_ctx){.n = 2, .gap = 5.0f});
    corral_handle b = after_start(s, (after_ctx){.gen = g, .gone = gone});
    corral_tick(s, 0.1f);
    cr_assert(corral_stop(s, g));
    corral_tick(s, 0.1f);
    const after_ctx *c = after_ctx_of(s, b);
    cr_assert_eq(c->first, CORRAL_GOT_STOPPED, "it was stopped while the pull waited");
    cr_assert_eq(c->then, CORRAL_GOT_ERROR, "got %d", c->then);
    cr_assert_eq(c->again, CORRAL_GOT_ERROR, "its end was told once (got %d)", c->again);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

static corral_generator_stats gens_of(corral_sched *s)
{
    corral_generator_stats g;
    memset(&g, 0xff, sizeof g);
    cr_assert(corral_stats_generators(s, &g));
    return g;
}

/* probe: a generator whose step, run by a pull inside its puller's step,
   counts the generators alive, checks the scheduler and hashes it */
static corral_generator_stats g_probe_stats;
static bool g_probe_sound;
static uint64_t g_probe_hash;
#define PROBE_FIELDS(F) F(int, n)
DECLARE_COROUTINE_R(probe, PROBE_FIELDS, int)
DEFINE_COROUTINE(probe)
{
    CORRAL_BEGIN(co);
    corral_sched *s = corral_sched_of(co);
    g_probe_sound = corral_stats_generators(s, &g_probe_stats) && corral_verify(s);
    g_probe_hash = corral_state_hash(s);
    CORRAL_YIELD_VALUE(co, 1);
    CORRAL_END(co);
}
/* prober: a generator whose step pulls a probe it makes */
#define PROBER_FIELDS(F)  \
    F(corral_handle, src) \
    F(int, x)
DECLARE_COROUTINE_R(prober, PROBER_FIELDS, int)
DEFINE_COROUTINE(prober)
{
    CORRAL_BEGIN(co);
    ctx->src = probe_gen(corral_sched_of(co), (probe_ctx){0});
    if (probe_next(corral_sched_of(co), ctx->src, &ctx->x)) CORRAL_YIELD_VALUE(co, ctx->x);
    CORRAL_END(co);
}

Test(generators, a_generator_pulled_inside_another_s_step_counts_both_as_generators)
{
    corral_sched *s = small_sched(8);
    corral_handle held = range_gen(s, (range_ctx){.from = 0, .to = 3});
    corral_handle p = prober_gen(s, (prober_ctx){0});
    int v = 0;
    g_probe_sound = false;
    cr_assert(prober_next(s, p, &v));
    cr_assert_eq(v, 1);
    cr_assert(g_probe_sound, "stats and verify inside the inner step: %s", corral_last_error_detail(s));
    cr_assert_eq(g_probe_stats.live, 3, "one held, two stepping (got %u)", g_probe_stats.live);
    cr_assert_eq(g_probe_stats.owned, 1, "the probe is its puller's (got %u)", g_probe_stats.owned);
    cr_assert_neq(g_probe_hash, 0);
    corral_generator_stats g = gens_of(s);
    cr_assert_eq(g.live, 3, "all held between pulls (got %u)", g.live);
    cr_assert(corral_verify(s));
    cr_assert(corral_stop(s, p) && corral_stop(s, held));
    cr_assert_eq(corral_live_count(s), 0, "the probe ended with its owner");
    corral_sched_destroy(s);
}

Test(generators, the_profile_counts_the_generators_alive_and_whose_they_are)
{
    corral_sched *s = small_sched(16);
    static char text[1 << 14];
    corral_generator_stats g = gens_of(s);
    cr_assert(g.live == 0 && g.owned == 0 && g.game == 0);
    corral_report_text_to(s, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert_null(strstr(text, "generators"), "no line while there is none");
    corral_handle idle = volley_gen(s, (volley_ctx){.n = 3}); /* the game's, never pulled */
    corral_start_desc squad = {.owner = 9};
    volley_gen_ex(s, (volley_ctx){.n = 3}, &squad); /* the game's, with a group owner */
    corral_handle r = range_gen(s, (range_ctx){.from = 0, .to = 9});
    int v;
    cr_assert(range_next(s, r, &v)); /* the game's, pulled */
    corral_handle u = gunner_start(s, (gunner_ctx){0}); /* each owns a volley it pulls (resting now) */
    corral_handle u2 = gunner_start(s, (gunner_ctx){0});
    cr_assert(corral_pause(s, u2)); /* a paused coroutine is not a generator */
    drainer_start(s, (drainer_ctx){.gen = volley_gen(s, (volley_ctx){.n = 2, .gap = 9.0f})}); /* one more of the game's */
    cr_assert_eq(corral_live_count(s), 9);
    g = gens_of(s);
    cr_assert_eq(g.live, 6);
    cr_assert_eq(g.owned, 2);
    cr_assert_eq(g.game, 4);
    corral_report_text_to(s, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert(strstr(text, "  generators 6 alive: 2 owned by coroutines, 4 by the game\n"), "%s", text);
    cr_assert(corral_stop(s, u)); /* its volley ends with it */
    cr_assert(corral_stop(s, idle));
    g = gens_of(s);
    cr_assert(g.live == 4 && g.owned == 1 && g.game == 3, "%u %u %u", g.live, g.owned, g.game);
    cr_assert_not(corral_stats_generators(s, NULL));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
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
    corral__node *n = &corral__nodes(s)[corral__side_of(s, corral__meta_of(s, gen))->groups];
    cr_assert_eq(n->kind, CORRAL__NODE_OWNED, "the tie");
    const uint32_t owner = n->u.t.target;
    n->u.t.target = corral__global_of(s, gen); /* tied to itself: to no live owner */
    cr_assert_not(corral_verify(s));
    n->u.t.target = owner;
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* stopper: its step stops the coroutine pulling it, then (mode 1) itself */
static corral_handle g_stopper_victim;
#define STOPPER_FIELDS(F) F(int, mode)
DECLARE_COROUTINE_R(stopper, STOPPER_FIELDS, int)
DEFINE_COROUTINE(stopper)
{
    CORRAL_BEGIN(co);
    corral_stop(corral_sched_of(co), g_stopper_victim);
    if (ctx->mode == 1) {
        corral_stop(corral_sched_of(co), corral_self(co));
        CORRAL_YIELD_VALUE(co, 1);
    }
    CORRAL_END(co); /* mode 0: it finishes */
}
/* stopped_puller: pulls a stopper; its cleanup hook keeps the reason */
#define STOPPED_PULLER_FIELDS(F) F(corral_handle, gen) F(int, v)
DECLARE_COROUTINE(stopped_puller, STOPPED_PULLER_FIELDS)
static int g_puller_why, g_puller_got, g_puller_v;
static void stopped_puller_end(stopped_puller_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_puller_why = (int)why;
}
DEFINE_COROUTINE_CLEANUP(stopped_puller, stopped_puller_end)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_NEXT_FRAME(co);
    ctx->v = -12345;
    CORRAL_PULL(co, ctx->gen, &ctx->v);
    g_puller_got = (int)corral_wait_got(co);
    g_puller_v = ctx->v;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, a_coroutine_its_generator_stops_during_the_pull_ends_stopped)
{
    for (int mode = 0; mode < 2; mode++) { /* 0: the generator then finishes; 1: it stops itself */
        corral_sched *s = small_sched(8);
        corral_handle g = stopper_gen(s, (stopper_ctx){.mode = mode});
        g_puller_why = -1;
        g_stopper_victim = stopped_puller_start(s, (stopped_puller_ctx){.gen = g});
        corral_tick(s, 0.016f);
        corral_tick(s, 0.016f);
        cr_assert(!corral_alive(s, g_stopper_victim), "mode %d", mode);
        cr_assert_eq(g_puller_why, CORRAL_END_STOPPED, "mode %d: the cleanup hook was told %d", mode, g_puller_why);
        /* what the pull gave, told as it is, nothing written: mode 0 the
           generator finished, mode 1 it was stopped (its yield after its
           own stop gives nothing) */
        cr_assert_eq(g_puller_got, mode ? CORRAL_GOT_STOPPED : CORRAL_GOT_CLOSED, "mode %d: corral_wait_got said %d",
                     mode, g_puller_got);
        cr_assert_eq(g_puller_v, -12345, "mode %d: the value %d", mode, g_puller_v);
        corral_type_stats ts;
        cr_assert(corral_stats_type_of(s, &stopped_puller_type, &ts));
        cr_assert_eq(ts.started, 1);
        cr_assert_eq(ts.stopped, 1, "mode %d", mode);
        for (int r = 0; r < CORRAL_END_COUNT; r++)
            cr_assert_eq(ts.ended[r], r == CORRAL_END_STOPPED ? 1u : 0u, "mode %d: ended[%d] = %llu", mode, r,
                         (unsigned long long)ts.ended[r]);
        cr_assert(corral_stats_type_of(s, &stopper_type, &ts));
        for (int r = 0; r < CORRAL_END_COUNT; r++)
            cr_assert_eq(ts.ended[r], r == (mode ? CORRAL_END_STOPPED : CORRAL_END_FINISHED) ? 1u : 0u,
                         "mode %d: the generator's ended[%d] = %llu", mode, r, (unsigned long long)ts.ended[r]);
        cr_assert(corral_verify(s));
        corral_sched_destroy(s);
    }
}

/* tagged_starter: starts a volley in its step with an owner and every tag */
#define TAGGED_STARTER_FIELDS(F) F(corral_handle, gen)
DECLARE_COROUTINE(tagged_starter, TAGGED_STARTER_FIELDS)
DEFINE_COROUTINE(tagged_starter)
{
    CORRAL_BEGIN(co);
    ctx->gen = volley_gen_ex(corral_sched_of(co), (volley_ctx){.n = 3, .gap = 100.0f},
                             &(corral_start_desc){.owner = 5, .tags = 0xFFFFFFFFu});
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, verify_and_the_hash_take_the_longest_group_chain)
{
    corral_sched *s = small_sched(8);
    corral_handle a = tagged_starter_start(s, (tagged_starter_ctx){0});
    corral_handle g = tagged_starter_ctx_of(s, a)->gen;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    const uint64_t h0 = corral_state_hash(s);
    cr_assert(corral_request_stop(s, g, 5.0f)); /* its chain: owner, 32 tags, the deadline, the tie */
    corral_error err;
    corral_co *gen = corral__resolve(s, g, &err);
    uint32_t len = 0;
    for (uint32_t i = corral__side_of(s, corral__meta_of(s, gen))->groups; i != CORRAL__NIL; i = corral__nodes(s)[i].sibling)
        len++;
    cr_assert_eq(len, 35);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert_neq(corral_state_hash(s), h0);
    /* the hash reaches the chain's last node */
    uint32_t last = corral__side_of(s, corral__meta_of(s, gen))->groups;
    while (corral__nodes(s)[last].sibling != CORRAL__NIL) last = corral__nodes(s)[last].sibling;
    const uint64_t h1 = corral_state_hash(s);
    corral__nodes(s)[last].member ^= 1u;
    cr_assert_neq(corral_state_hash(s), h1, "the last node (kind %u) is hashed", corral__nodes(s)[last].kind);
    corral__nodes(s)[last].member ^= 1u;
    cr_assert_eq(corral_state_hash(s), h1);
    corral_sched_destroy(s);
}

/* bare_waiter: corral_wait_pull alone, then what came and a take */
#define BARE_WAITER_FIELDS(F) F(corral_handle, gen) F(int, v) F(int, got) F(int, take) F(int, done) F(uint32_t, count)
DECLARE_COROUTINE(bare_waiter, BARE_WAITER_FIELDS)
DEFINE_COROUTINE(bare_waiter)
{
    CORRAL_BEGIN(co);
    corral_wait w = corral_wait_pull(ctx->gen);
    w.count = ctx->count; /* a field of the wait a caller may set: it changes nothing */
    CORRAL_AWAIT(co, w);
    ctx->got = (int)corral_wait_got(co);
    ctx->take = (int)volley_take(corral_sched_of(co), ctx->gen, &ctx->v);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, a_stop_request_ends_a_bare_pull_wait_as_it_ends_a_pull)
{
    corral_sched *s = small_sched(8);
    corral_handle gen = volley_gen(s, (volley_ctx){.n = 3, .gap = 100.0f});
    int v = 0;
    cr_assert_eq(volley_take(s, gen, &v), CORRAL_GOT_VALUE);
    cr_assert_eq(volley_take(s, gen, &v), CORRAL_GOT_NOT_YET); /* into its 100 s rest */
    corral_handle w = bare_waiter_start(s, (bare_waiter_ctx){.gen = gen});
    corral_handle d = drainer_start(s, (drainer_ctx){.gen = gen});
    cr_assert_not(bare_waiter_ctx_of(s, w)->done, "it waits");
    cr_assert(corral_request_stop(s, w, 0.0f));
    cr_assert(corral_request_stop(s, d, 0.0f));
    corral_tick(s, 0.016f);
    cr_assert(bare_waiter_ctx_of(s, w)->done, "the request ended the wait");
    cr_assert_eq(bare_waiter_ctx_of(s, w)->got, CORRAL_GOT_NOT_YET, "corral_wait_got said %d",
                 bare_waiter_ctx_of(s, w)->got);
    cr_assert_eq(bare_waiter_ctx_of(s, w)->take, CORRAL_GOT_NOT_YET);
    cr_assert_eq(drainer_ctx_of(s, d)->how, CORRAL_GOT_NOT_YET, "the CORRAL_PULL says the same");
    cr_assert(corral_alive(s, gen));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(generators, a_bare_pull_wait_told_its_generator_was_stopped_whatever_the_caller_set_in_it)
{
    for (uint32_t count = 0; count < 2; count++) {
        corral_sched *s = small_sched(8);
        corral_handle gen = volley_gen(s, (volley_ctx){.n = 3, .gap = 100.0f});
        int v = 0;
        cr_assert_eq(volley_take(s, gen, &v), CORRAL_GOT_VALUE);
        cr_assert_eq(volley_take(s, gen, &v), CORRAL_GOT_NOT_YET); /* into its 100 s rest */
        corral_handle w = bare_waiter_start(s, (bare_waiter_ctx){.gen = gen, .count = count});
        cr_assert(corral_stop(s, gen));
        corral_tick(s, 0.016f);
        cr_assert(bare_waiter_ctx_of(s, w)->done, "count %u: the stop ended the wait", count);
        cr_assert_eq(bare_waiter_ctx_of(s, w)->got, CORRAL_GOT_STOPPED, "count %u: corral_wait_got said %d", count,
                     bare_waiter_ctx_of(s, w)->got);
        cr_assert(corral_verify(s));
        corral_sched_destroy(s);
    }
}

/* the order an owner's end wakes its joiners and ends its generators in */
static char g_order_log[2][128];
static int g_order_which;
static void order_say(const char *w) { strcat(g_order_log[g_order_which], w); }
#define ORDER_GEN_FIELDS(F) F(int, unused)
DECLARE_COROUTINE_R(order_gen, ORDER_GEN_FIELDS, int)
static void order_gen_end(order_gen_ctx *c, corral_end_reason why)
{
    (void)c;
    (void)why;
    order_say("g-end ");
}
DEFINE_COROUTINE_CLEANUP(order_gen, order_gen_end)
{
    CORRAL_BEGIN(co);
    for (;;) CORRAL_YIELD_VALUE(co, 1);
    CORRAL_END(co);
}
#define ORDER_OWNER_FIELDS(F) F(corral_handle, g) F(int, n)
#define ORDER_OWNER_POINTS(P) P(rest)
DECLARE_COROUTINE(order_owner, ORDER_OWNER_FIELDS)
DEFINE_COROUTINE_AT(order_owner, ORDER_OWNER_POINTS)
{
    CORRAL_BEGIN_AT(co, ORDER_OWNER_POINTS);
    ctx->g = order_gen_gen(corral_sched_of(co), (order_gen_ctx){0});
    for (ctx->n = 0; ctx->n < 3; ctx->n++) CORRAL_WAIT_NEXT_FRAME_AT(co, rest);
    order_say("a-end ");
    CORRAL_END(co);
}
#define ORDER_JOINER_FIELDS(F) F(corral_handle, target) F(int, tag)
#define ORDER_JOINER_POINTS(P) P(joined)
DECLARE_COROUTINE(order_joiner, ORDER_JOINER_FIELDS)
DEFINE_COROUTINE_AT(order_joiner, ORDER_JOINER_POINTS)
{
    CORRAL_BEGIN_AT(co, ORDER_JOINER_POINTS);
    CORRAL_WAIT_JOIN_AT(co, joined, ctx->target);
    order_say(ctx->tag == 1 ? "B(joined A) " : "C(joined G) ");
    CORRAL_END(co);
}
#define ORDER_TYPES(X) X(order_gen, 1, 0) X(order_owner, 2, 0) X(order_joiner, 3, 0)
CORRAL_DECLARE_REGISTRY(order_reg, ORDER_TYPES)
CORRAL_DEFINE_REGISTRY(order_reg, ORDER_TYPES);

static corral_sched *order_sched(void)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.registry = &order_reg_registry;
    return sched_of(d);
}
/* A owns G (its tie first on A's joiners list), then B joins A and C joins G */
static corral_sched *order_game(corral_handle *owner)
{
    corral_sched *s = order_sched();
    corral_handle a = order_owner_start(s, (order_owner_ctx){0});
    if (owner) *owner = a;
    corral_handle g = order_owner_ctx_of(s, a)->g;
    order_joiner_start(s, (order_joiner_ctx){.target = a, .tag = 1});
    order_joiner_start(s, (order_joiner_ctx){.target = g, .tag = 2});
    return s;
}
static void order_run(corral_sched *s, int which)
{
    g_order_log[which][0] = 0;
    g_order_which = which;
    for (int f = 0; f < 6; f++) corral_tick(s, 0.016f);
}

Test(generators, a_load_and_a_restore_keep_the_order_an_owners_end_wakes_and_ends_in)
{
    corral_sched *s = order_game(NULL);
    static unsigned char save[1 << 14], snap[1 << 14];
    const size_t n = corral_save(s, save, sizeof save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    const size_t k = corral_snapshot(s, snap, sizeof snap);
    cr_assert_gt(k, 0);
    const uint64_t h0 = corral_state_hash(s);
    order_run(s, 0);
    cr_assert_str_eq(g_order_log[0], "a-end g-end C(joined G) B(joined A) ");
    corral_sched *t = order_sched();
    cr_assert(corral_load(t, save, n), "%s", corral_last_error_detail(t));
    cr_assert(corral_verify(t));
    cr_assert_eq(corral_state_hash(t), h0);
    order_run(t, 1);
    cr_assert_str_eq(g_order_log[1], g_order_log[0], "loaded: %s", g_order_log[1]);
    cr_assert(corral_restore(s, snap, k));
    cr_assert_eq(corral_state_hash(s), h0);
    order_run(s, 1);
    cr_assert_str_eq(g_order_log[1], g_order_log[0], "restored: %s", g_order_log[1]);
    corral_sched_destroy(s);
    corral_sched_destroy(t);
}

Test(generators, the_hash_takes_the_order_of_an_owners_joiners)
{
    corral_handle a;
    corral_sched *s = order_game(&a);
    const uint64_t h0 = corral_state_hash(s);
    corral_error err;
    corral__side *owner = corral__side_at(s, corral__meta_of(s, corral__resolve(s, a, &err)));
    cr_assert(owner);
    const uint32_t first = owner->joiners_head, second = owner->joiners_tail;
    corral__node *N = corral__nodes(s);
    cr_assert_eq(N[first].kind, CORRAL__NODE_OWNED, "the tie first");
    /* swap them: the joiner first, then the tie */
    N[second].next = first;
    N[second].prev = CORRAL__NIL;
    N[first].prev = second;
    N[first].next = CORRAL__NIL;
    owner->joiners_head = second;
    owner->joiners_tail = first;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert_neq(corral_state_hash(s), h0, "the order is part of the state");
    corral_sched_destroy(s);
}

/* spawner: starts a volley in its step, gives it away (to `to`, or to the
   game when give is 2) and finishes a frame later */
#define SPAWNER_FIELDS(F) F(corral_handle, gen) F(corral_handle, to) F(int, give) F(int, gave)
DECLARE_COROUTINE(spawner, SPAWNER_FIELDS)
DEFINE_COROUTINE(spawner)
{
    CORRAL_BEGIN(co);
    ctx->gen = volley_gen(corral_sched_of(co), (volley_ctx){.n = 3, .gap = 100.0f});
    if (ctx->give) ctx->gave = corral_generator_give(corral_sched_of(co), ctx->gen, ctx->give == 2 ? (corral_handle){0} : ctx->to);
    CORRAL_WAIT_NEXT_FRAME(co);
    CORRAL_END(co);
}
/* keeper: lives until stopped */
#define KEEPER_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(keeper, KEEPER_FIELDS)
DEFINE_COROUTINE(keeper)
{
    CORRAL_BEGIN(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(generators, a_generator_given_to_another_coroutine_outlives_its_starter_and_ends_with_the_new_owner)
{
    corral_sched *s = small_sched(8);
    volley_reset();
    corral_handle k = keeper_start(s, (keeper_ctx){0});
    corral_handle sp = spawner_start(s, (spawner_ctx){.to = k, .give = 1});
    cr_assert(spawner_ctx_of(s, sp)->gave, "%s", corral_last_error_detail(s));
    const corral_handle g = spawner_ctx_of(s, sp)->gen;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);
    corral_tick(s, 0.016f);
    cr_assert(!corral_alive(s, sp), "the starter finished");
    cr_assert(corral_alive(s, g), "its generator lives on with its new owner");
    corral_generator_stats gs;
    cr_assert(corral_stats_generators(s, &gs));
    cr_assert(gs.live == 1 && gs.owned == 1 && gs.game == 0);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    /* through a save and a snapshot too */
    static unsigned char snap[1 << 14];
    const size_t n = corral_snapshot(s, snap, sizeof snap);
    cr_assert(corral_stop(s, k));
    cr_assert(!corral_alive(s, g), "it ends with the new owner");
    cr_assert_eq(g_volley_ends[CORRAL_END_PARENT_STOPPED], 1);
    cr_assert(corral_restore(s, snap, n));
    cr_assert(corral_alive(s, g));
    cr_assert(corral_stop(s, k));
    cr_assert(!corral_alive(s, g));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(generators, a_generator_given_to_the_game_outlives_its_starter)
{
    corral_sched *s = small_sched(8);
    corral_handle sp = spawner_start(s, (spawner_ctx){.give = 2});
    cr_assert(spawner_ctx_of(s, sp)->gave, "%s", corral_last_error_detail(s));
    const corral_handle g = spawner_ctx_of(s, sp)->gen;
    corral_generator_stats gs;
    cr_assert(corral_stats_generators(s, &gs));
    cr_assert(gs.live == 1 && gs.owned == 0 && gs.game == 1);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_tick(s, 0.016f);
    corral_tick(s, 0.016f);
    cr_assert(!corral_alive(s, sp));
    cr_assert(corral_alive(s, g), "the game's now");
    int v = 0;
    cr_assert_eq(volley_take(s, g, &v), CORRAL_GOT_VALUE);
    cr_assert(corral_generator_give(s, g, (corral_handle){0}), "the game's already: nothing to do");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(generators, a_give_that_would_make_a_cycle_or_names_a_stale_owner_is_refused)
{
    corral_sched *s = small_sched(8);
    corral_handle k = keeper_start(s, (keeper_ctx){0});
    corral_handle outer = volley_gen(s, (volley_ctx){.n = 3, .gap = 100.0f});
    corral_handle inner = volley_gen(s, (volley_ctx){.n = 3, .gap = 100.0f});
    cr_assert(corral_generator_give(s, inner, outer), "%s", corral_last_error_detail(s)); /* outer owns inner */
    cr_assert(corral_generator_give(s, outer, k)); /* k owns outer */
    const uint64_t h0 = corral_state_hash(s);
    cr_assert_not(corral_generator_give(s, outer, inner), "a cycle");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CYCLIC_WAIT);
    cr_assert_not(corral_generator_give(s, outer, outer), "itself");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CYCLIC_WAIT);
    cr_assert_not(corral_generator_give(s, k, outer), "not a generator");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NOT_PAUSED);
    corral_handle gone = keeper_start(s, (keeper_ctx){0});
    cr_assert(corral_stop(s, gone));
    const uint64_t h1 = corral_state_hash(s);
    cr_assert_not(corral_generator_give(s, inner, gone), "a stale owner");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    cr_assert_eq(corral_state_hash(s), h1, "nothing changed");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    (void)h0;
    cr_assert(corral_stop(s, k));
    cr_assert(!corral_alive(s, outer) && !corral_alive(s, inner), "the chain ends with its owner");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a generator whose step begins a wait, then pulls another: its wait's
   chain and the pulls on the C stack are apart */
#define WAITPROBER_FIELDS(F) \
    F(corral_handle, src)    \
    F(int, x)
DECLARE_COROUTINE_R(waitprober, WAITPROBER_FIELDS, int)
DEFINE_COROUTINE(waitprober)
{
    CORRAL_BEGIN(co);
    corral_await(co, corral_wait_frames(2));
    ctx->src = probe_gen(corral_sched_of(co), (probe_ctx){0});
    probe_next(corral_sched_of(co), ctx->src, &ctx->x);
    CORRAL_WAIT_FRAME(co); /* held, its wait armed */
    CORRAL_YIELD_VALUE(co, ctx->x);
    CORRAL_END(co);
}

Test(generators, a_generator_that_waits_then_pulls_inside_its_step_keeps_both)
{
    corral_sched *s = small_sched(8);
    corral_handle p = waitprober_gen(s, (waitprober_ctx){0});
    int v = 0;
    g_probe_sound = false;
    cr_assert(!waitprober_next(s, p, &v), "it waits");
    cr_assert(g_probe_sound, "stats and verify inside the inner step: %s", corral_last_error_detail(s));
    cr_assert_eq(g_probe_stats.live, 2, "two stepping (got %u)", g_probe_stats.live);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    static unsigned char snap[1 << 14];
    const size_t k = corral_snapshot(s, snap, sizeof snap);
    cr_assert_gt(k, 0, "%s", corral_last_error_detail(s));
    for (int round = 0; round < 2; round++) {
        if (round) cr_assert(corral_restore(s, snap, k), "%s", corral_last_error_detail(s));
        corral_tick(s, 0.016f);
        cr_assert(!waitprober_next(s, p, &v), "one frame of two");
        corral_tick(s, 0.016f);
        corral_tick(s, 0.016f);
        cr_assert(waitprober_next(s, p, &v), "%s", corral_last_error_detail(s));
        cr_assert_eq(v, 1);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    cr_assert(corral_stop(s, p));
    cr_assert_eq(corral_live_count(s), 0);
    corral_sched_destroy(s);
}
