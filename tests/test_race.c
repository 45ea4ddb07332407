/* test_race.c -- CORRAL_RACE and CORRAL_SYNC: winners, losers, results,
   the same tick, nesting, a caller stopped mid-way, full pools, misuse. */
#include "common.h"

#include "corral_internal.h"

static void setup(void)
{
    trace_reset();
    cleaned_reset();
}
TestSuite(race, .init = setup);

/* what each worker saw: its steps and how it ended, by id */
#define WORKERS 64
static int w_steps[WORKERS];
static int w_end[WORKERS];
static corral_sched *w_stop_on_end; /* a loser's cleanup stops this handle's coroutine */
static corral_handle w_stop_target;

/* worker: after `frames` frames (0: in its first step) its result is value */
#define WORKER_FIELDS(F) \
    F(int, id)           \
    F(int, frames)       \
    F(int, value)
DECLARE_COROUTINE_R(worker, WORKER_FIELDS, int)
static void worker_end(worker_ctx *ctx, corral_end_reason why)
{
    if (ctx->id >= 0 && ctx->id < WORKERS) w_end[ctx->id] = (int)why;
    trace_push(-ctx->id);
    if (w_stop_on_end && why == CORRAL_END_LOST_RACE) corral_stop(w_stop_on_end, w_stop_target);
}
DEFINE_COROUTINE_CLEANUP(worker, worker_end)
{
    CORRAL_BEGIN(co);
    if (ctx->id >= 0 && ctx->id < WORKERS) w_steps[ctx->id]++;
    while (ctx->frames-- > 0) {
        CORRAL_WAIT_FRAME(co);
        w_steps[ctx->id]++;
    }
    ctx->result = ctx->value;
    trace_push(ctx->id);
    CORRAL_END(co);
}

/* racer: races three workers (frames a, b, c), or syncs them (sync) */
#define RACER_FIELDS(F)     \
    F(int, a)               \
    F(int, b)               \
    F(int, c)               \
    F(int, base)            \
    F(int, sync)            \
    F(int, once)            \
    F(int, got)             \
    F(int, got_b)           \
    F(int, got_c)           \
    F(int, winner)          \
    F(int, outcome)         \
    F(int, resumed)         \
    F(int64_t, issued_at)   \
    F(int64_t, resumed_at)
DECLARE_COROUTINE_R(racer, RACER_FIELDS, int)
DEFINE_COROUTINE(racer)
{
    CORRAL_BEGIN(co);
    ctx->got = ctx->got_b = ctx->got_c = -1;
    ctx->issued_at = (int64_t)corral_frame(corral_sched_of(co));
    if (ctx->sync) {
        CORRAL_SYNC(co, worker_arm(co, (worker_ctx){.id = ctx->base + 1, .frames = ctx->a, .value = 10}, &ctx->got),
                    worker_arm(co, (worker_ctx){.id = ctx->base + 2, .frames = ctx->b, .value = 20}, &ctx->got_b),
                    worker_arm(co, (worker_ctx){.id = ctx->base + 3, .frames = ctx->c, .value = 30}, &ctx->got_c));
    } else {
        CORRAL_RACE(co, worker_arm(co, (worker_ctx){.id = ctx->base + 1, .frames = ctx->a, .value = 10}, &ctx->got),
                    worker_arm(co, (worker_ctx){.id = ctx->base + 2, .frames = ctx->b, .value = 20}, &ctx->got),
                    worker_arm(co, (worker_ctx){.id = ctx->base + 3, .frames = ctx->c, .value = 30}, &ctx->got));
    }
    ctx->winner = corral_race_winner(co);
    ctx->outcome = (int)corral_call_outcome(co);
    ctx->resumed_at = (int64_t)corral_frame(corral_sched_of(co));
    ctx->resumed++;
    ctx->result = ctx->got;
    trace_push(100 + ctx->base);
    while (!ctx->once) CORRAL_WAIT_FRAME(co); /* stays, for its context to be read */
    CORRAL_END(co);
}

static corral_sched *rsched(uint32_t cap)
{
    memset(w_steps, 0, sizeof w_steps);
    memset(w_end, 0, sizeof w_end);
    w_stop_on_end = NULL;
    return sched_of(one_class_desc(192, cap));
}

Test(race, the_first_arm_to_end_wins_and_the_others_end_at_once_with_lost_race)
{
    corral_sched *s = rsched(16);
    corral_handle h = racer_start(s, (racer_ctx){.a = 3, .b = 2, .c = 5});
    racer_ctx *c = racer_ctx_of(s, h);
    cr_assert_eq(corral_live_count(s), 4, "the caller and its three arms");
    cr_assert(corral_verify(s), "a race under way is sound");
    cr_assert_eq(w_steps[1] + w_steps[2] + w_steps[3], 3, "every arm's first step ran in the same tick as the race");
    corral_co_info in;
    cr_assert(corral_co_info_of(s, h, &in));
    cr_assert_eq(in.state, CORRAL_CO_CALLING);
    corral_tick(s, 0.01f);
    cr_assert_eq(c->resumed, 0);
    corral_tick(s, 0.01f); /* arm 1 (b = 2 frames) ends here */
    cr_assert_eq(c->resumed, 1);
    cr_assert_eq(c->winner, 1);
    cr_assert_eq(c->outcome, CORRAL_END_FINISHED);
    cr_assert_eq(c->got, 20, "only the winner's result is copied");
    cr_assert_eq(c->resumed_at, 2, "the caller resumes in the run in which the winner ended");
    cr_assert_eq(w_end[2], CORRAL_END_FINISHED);
    cr_assert_eq(w_end[1], CORRAL_END_LOST_RACE);
    cr_assert_eq(w_end[3], CORRAL_END_LOST_RACE);
    cr_assert_eq(corral_live_count(s), 1);
    cr_assert(corral_verify(s));
    corral_stats_pools(s, &(corral_pool_stats){0});
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_nodes, 0, "the arms' nodes are back in the pool");
    corral_sched_destroy(s);
}

Test(race, arms_that_end_in_their_first_step_cost_no_frame)
{
    corral_sched *s = rsched(16);
    corral_handle h = racer_start(s, (racer_ctx){.a = 2, .b = 0, .c = 0});
    racer_ctx *c = racer_ctx_of(s, h);
    cr_assert_eq(c->resumed, 1, "decided inside start");
    cr_assert_eq(c->winner, 1, "the first arm to end, in arm order, wins");
    cr_assert_eq(c->got, 20);
    cr_assert_eq(w_steps[3], 0, "an arm that lost before its first step never runs");
    cr_assert_eq(w_end[3], CORRAL_END_LOST_RACE, "but its cleanup hook runs, once");
    cr_assert_eq(w_end[1], CORRAL_END_LOST_RACE);
    int want[] = {2, -1, -3, -2, 100}; /* the winner; the losers, in arm order, as it ends; its own cleanup; the caller */
    expect_trace(want, 5);
    corral_handle g = racer_start(s, (racer_ctx){.base = 10, .sync = 1});
    racer_ctx *d = racer_ctx_of(s, g);
    cr_assert_eq(d->resumed, 1, "a sync whose arms all end at once resumes inside start");
    cr_assert_eq(d->outcome, CORRAL_END_FINISHED);
    cr_assert_eq(d->got, 10);
    cr_assert_eq(d->got_b, 20);
    cr_assert_eq(d->got_c, 30);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(race, a_sync_resumes_when_the_last_arm_ends_with_every_result)
{
    corral_sched *s = rsched(16);
    corral_handle h = racer_start(s, (racer_ctx){.a = 2, .b = 4, .c = 1, .sync = 1});
    racer_ctx *c = racer_ctx_of(s, h);
    for (int f = 1; f <= 3; f++) {
        corral_tick(s, 0.01f);
        cr_assert_eq(c->resumed, 0, "frame %d: arm 1 still runs", f);
    }
    cr_assert_eq(c->got, 10, "a finished arm's result lands when it ends");
    cr_assert_eq(c->got_c, 30);
    corral_tick(s, 0.01f);
    cr_assert_eq(c->resumed, 1);
    cr_assert_eq(c->resumed_at, 4);
    cr_assert_eq(c->got_b, 20);
    cr_assert_eq(c->outcome, CORRAL_END_FINISHED);
    cr_assert_eq(c->winner, -1, "a sync has no winner");
    corral_sched_destroy(s);
}

Test(race, a_sync_with_a_stopped_arm_waits_for_the_rest_and_reports_the_stop)
{
    corral_sched *s = rsched(16);
    corral_handle h = racer_start(s, (racer_ctx){.a = 1, .b = 5, .c = 2, .sync = 1});
    racer_ctx *c = racer_ctx_of(s, h);
    corral_co_info in;
    cr_assert(corral_co_info_of(s, h, &in));
    cr_assert_eq(in.child.gen != 0, true, "the inspector names an arm");
    /* find arm 2 (id 2) and stop it */
    uint32_t cur = 0;
    corral_co_info it;
    corral_handle arm2 = {0, 0};
    while (corral_next_co(s, &cur, &it))
        if (it.type == &worker_type && ((const worker_ctx *)it.ctx)->id == 2) arm2 = it.handle;
    cr_assert(corral_stop(s, arm2));
    cr_assert_eq(c->resumed, 0);
    cr_assert(corral_verify(s), "a sync with an arm ended is sound");
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    cr_assert_eq(c->resumed, 1);
    cr_assert_eq(c->outcome, CORRAL_END_STOPPED, "the first arm that did not finish says how");
    cr_assert_eq(c->got_b, -1, "a stopped arm leaves its destination alone");
    cr_assert_eq(c->got, 10);
    cr_assert_eq(c->got_c, 30);
    corral_sched_destroy(s);
}

Test(race, a_stopped_winner_decides_the_race_with_its_outcome)
{
    corral_sched *s = rsched(16);
    corral_handle h = racer_start(s, (racer_ctx){.a = 5, .b = 5, .c = 5});
    racer_ctx *c = racer_ctx_of(s, h);
    uint32_t cur = 0;
    corral_co_info it;
    corral_handle arm = {0, 0};
    while (corral_next_co(s, &cur, &it))
        if (it.type == &worker_type && ((const worker_ctx *)it.ctx)->id == 3) arm = it.handle;
    cr_assert(corral_stop(s, arm));
    corral_tick(s, 0.01f);
    cr_assert_eq(c->resumed, 1);
    cr_assert_eq(c->winner, 2);
    cr_assert_eq(c->outcome, CORRAL_END_STOPPED);
    cr_assert_eq(c->got, -1);
    cr_assert_eq(w_end[1], CORRAL_END_LOST_RACE);
    corral_sched_destroy(s);
}

/* outer: races an inner racer (its own race of three) against a worker */
#define OUTER_FIELDS(F) \
    F(int, inner_frames) \
    F(int, worker_frames) \
    F(int, got)         \
    F(int, winner)      \
    F(int, resumed)
DECLARE_COROUTINE(outer, OUTER_FIELDS)
DEFINE_COROUTINE(outer)
{
    CORRAL_BEGIN(co);
    ctx->got = -1;
    CORRAL_RACE(co,
                racer_arm(co, (racer_ctx){.a = ctx->inner_frames, .b = ctx->inner_frames + 2, .c = 9, .base = 20, .once = 1},
                          &ctx->got),
                worker_arm(co, (worker_ctx){.id = 40, .frames = ctx->worker_frames, .value = 400}, &ctx->got));
    ctx->winner = corral_race_winner(co);
    ctx->resumed++;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(race, races_inside_races_end_their_whole_losing_tree)
{
    corral_sched *s = rsched(32);
    corral_handle h = outer_start(s, (outer_ctx){.inner_frames = 6, .worker_frames = 2});
    outer_ctx *c = outer_ctx_of(s, h);
    cr_assert_eq(corral_live_count(s), 6, "outer, inner racer, its three workers, the outer worker");
    cr_assert(corral_verify(s), "races in races under way are sound");
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    cr_assert_eq(c->resumed, 1);
    cr_assert_eq(c->winner, 1);
    cr_assert_eq(c->got, 400);
    for (int id = 21; id <= 23; id++)
        cr_assert_eq(w_end[id], CORRAL_END_PARENT_STOPPED, "worker %d of the losing inner race", id);
    cr_assert_eq(corral_live_count(s), 1);
    cr_assert(corral_verify(s));
    /* the inner race wins: its result (its winner's) becomes the outer result */
    corral_handle g = outer_start(s, (outer_ctx){.inner_frames = 1, .worker_frames = 5});
    outer_ctx *d = outer_ctx_of(s, g);
    corral_tick(s, 0.01f);
    cr_assert_eq(d->resumed, 1);
    cr_assert_eq(d->winner, 0);
    cr_assert_eq(d->got, 10, "the inner racer's result: its winner's");
    cr_assert_eq(w_end[40], CORRAL_END_LOST_RACE);
    cr_assert_eq(w_end[22], CORRAL_END_LOST_RACE);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(race, a_caller_stopped_mid_race_ends_every_arm_below_it)
{
    corral_sched *s = rsched(32);
    corral_handle h = outer_start(s, (outer_ctx){.inner_frames = 6, .worker_frames = 6});
    corral_tick(s, 0.01f);
    cr_assert(corral_stop(s, h));
    cr_assert_eq(corral_live_count(s), 0);
    for (int id = 21; id <= 23; id++) cr_assert_eq(w_end[id], CORRAL_END_PARENT_STOPPED);
    cr_assert_eq(w_end[40], CORRAL_END_PARENT_STOPPED);
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_nodes, 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(race, a_losers_cleanup_that_stops_the_caller_leaves_a_sound_scheduler)
{
    corral_sched *s = rsched(16);
    corral_handle h = racer_start(s, (racer_ctx){.a = 3, .b = 1, .c = 5});
    w_stop_on_end = s;
    w_stop_target = h;
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    cr_assert(!corral_alive(s, h));
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(race, an_arm_without_a_slot_starts_none_and_the_caller_goes_on)
{
    corral_sched *s = rsched(3); /* the caller and two arms: the third has no slot */
    corral_handle h = racer_start(s, (racer_ctx){.a = 3, .b = 1, .c = 5});
    racer_ctx *c = racer_ctx_of(s, h);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    cr_assert_eq(c->resumed, 1, "it did not suspend");
    cr_assert_eq(c->outcome, CORRAL_END_NONE);
    cr_assert_eq(c->winner, -1);
    cr_assert_eq(w_steps[1] + w_steps[2], 0, "the arms made never ran");
    cr_assert_eq(w_end[1], CORRAL_END_PARENT_STOPPED);
    cr_assert_eq(w_end[2], CORRAL_END_PARENT_STOPPED);
    cr_assert_eq(corral_live_count(s), 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(race, an_arm_without_a_wait_node_ends_the_caller_never_an_early_resume)
{
    corral_sched_desc d = one_class_desc(192, 16);
    d.max_wait_nodes = 2;
    memset(w_steps, 0, sizeof w_steps);
    memset(w_end, 0, sizeof w_end);
    corral_sched *s = sched_of(d);
    corral_handle h = racer_start(s, (racer_ctx){.a = 3, .b = 1, .c = 5});
    cr_assert(!corral_alive(s, h), "the caller ended");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert_eq(w_end[1], CORRAL_END_PARENT_STOPPED);
    cr_assert_eq(w_end[2], CORRAL_END_PARENT_STOPPED);
    cr_assert_eq(w_steps[1] + w_steps[2] + w_steps[3], 0);
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_failures, 1);
    cr_assert_eq(ps.wait_nodes, 0);
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* misuse: an arm outside a race, a seventeenth arm, a bad destination */
#define MISUSE_FIELDS(F) \
    F(int, what)         \
    F(int, ok)           \
    F(int, dest)         \
    F(int, err)
DECLARE_COROUTINE(misuse, MISUSE_FIELDS)
DEFINE_COROUTINE(misuse)
{
    worker_ctx w = {.id = 50, .frames = 1, .value = 1};
    int outside = 0;
    switch (ctx->what) {
    case 0: ctx->ok = corral_arm(co, &worker_type, &w, sizeof w, &ctx->dest, sizeof ctx->dest); break;
    case 1:
        corral_race_begin(co);
        for (int i = 0; i < CORRAL_MAX_GROUP + 1; i++)
            corral_arm(co, &worker_type, &w, sizeof w, &ctx->dest, sizeof ctx->dest);
        ctx->ok = corral_arms_start(co);
        break;
    case 2:
        corral_sync_begin(co);
        corral_arm(co, &worker_type, &w, sizeof w, &outside, sizeof outside);
        ctx->ok = corral_arms_start(co);
        break;
    default: break;
    }
    ctx->err = (int)corral_last_error(corral_sched_of(co));
    return ctx->ok ? CORRAL_YIELD : CORRAL_STOP;
}

Test(race, misuse_is_refused_and_starts_nothing)
{
    corral_sched *s = rsched(32);
    const corral_error want[] = {CORRAL_ERR_BAD_WAIT, CORRAL_ERR_BAD_WAIT, CORRAL_ERR_BAD_DEST};
    for (int what = 0; what < 3; what++) {
        corral_handle h = misuse_start(s, (misuse_ctx){.what = what});
        cr_assert(!corral_alive(s, h), "case %d: it went on and ended", what);
        cr_assert_eq(corral_last_error(s), want[what], "case %d: %s", what, corral_error_str(corral_last_error(s)));
        cr_assert_eq(corral_live_count(s), 0, "case %d: no arm left behind", what);
        cr_assert(corral_verify(s));
    }
    cr_assert_eq(w_steps[50], 0, "no arm of a refused race ran");
    cr_assert(!corral_arms_start(NULL));
    corral_sched_destroy(s);
}

Test(race, a_paused_caller_learns_the_winner_when_resumed)
{
    corral_sched *s = rsched(16);
    corral_handle h = racer_start(s, (racer_ctx){.a = 3, .b = 1, .c = 5});
    racer_ctx *c = racer_ctx_of(s, h);
    cr_assert(corral_pause(s, h));
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    cr_assert_eq(c->resumed, 0);
    cr_assert_eq(w_end[1], CORRAL_END_LOST_RACE, "the race is decided while the caller is paused");
    cr_assert(corral_resume(s, h));
    corral_tick(s, 0.01f);
    cr_assert_eq(c->resumed, 1);
    cr_assert_eq(c->winner, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(race, destroy_with_races_under_way_ends_everything_once)
{
    corral_sched *s = rsched(32);
    outer_start(s, (outer_ctx){.inner_frames = 6, .worker_frames = 6});
    racer_start(s, (racer_ctx){.a = 3, .b = 1, .c = 5, .base = 4, .sync = 1});
    corral_tick(s, 0.01f);
    corral_sched_destroy(s);
    for (int id = 21; id <= 23; id++) cr_assert_eq(w_end[id], CORRAL_END_DESTROYED);
    cr_assert_eq(w_end[40], CORRAL_END_DESTROYED);
}

/* ---- a property test: random trees of races and syncs, random stops and
   domain moves; every coroutine ends exactly once, every invariant holds
   every frame, every node comes back */
#define TREE_MAX 4096
static int t_ends[TREE_MAX];
static int t_next_id;
static uint32_t t_rng = 12345u;
static uint32_t t_rand(void)
{
    t_rng ^= t_rng << 13;
    t_rng ^= t_rng >> 17;
    t_rng ^= t_rng << 5;
    return t_rng;
}
#define TREE_FIELDS(F) \
    F(int, id)         \
    F(int, depth)      \
    F(int, frames)     \
    F(int, got)        \
    F(uint32_t, seed)
DECLARE_COROUTINE_R(tree, TREE_FIELDS, int)
static void tree_end(tree_ctx *ctx, corral_end_reason why)
{
    (void)why;
    if (ctx->id >= 0 && ctx->id < TREE_MAX) t_ends[ctx->id]++;
}
static tree_ctx tree_child(const tree_ctx *parent, uint32_t k)
{
    uint32_t seed = parent->seed * 2654435761u + k * 40503u + 1u;
    tree_ctx c = {.id = t_next_id < TREE_MAX ? t_next_id++ : -1,
                  .depth = (seed >> 7) % 3u == 0 ? 0 : parent->depth - 1,
                  .frames = (int)((seed >> 11) % 4u),
                  .seed = seed};
    return c;
}
DEFINE_COROUTINE_CLEANUP(tree, tree_end)
{
    CORRAL_BEGIN(co);
    if (ctx->depth > 0 && (ctx->seed & 1u)) {
        CORRAL_RACE(co, tree_arm(co, tree_child(ctx, 1), &ctx->got), tree_arm(co, tree_child(ctx, 2), &ctx->got),
                    tree_arm(co, tree_child(ctx, 3), &ctx->got));
    } else if (ctx->depth > 0) {
        CORRAL_SYNC(co, tree_arm(co, tree_child(ctx, 4), &ctx->got), tree_arm(co, tree_child(ctx, 5), &ctx->got));
    }
    while (ctx->frames-- > 0) {
        if (ctx->seed & 2u) CORRAL_WAIT_SECONDS(co, 0.05f);
        else CORRAL_WAIT_FRAME(co);
    }
    ctx->result = ctx->id;
    CORRAL_END(co);
}

Test(race, random_trees_of_races_and_syncs_with_stops_and_moves_end_everything_once)
{
    alloc_counter ac = {0};
    corral_sched_desc d = counted_one_class_desc(128, 512, &ac);
    d.domains = 3;
    d.max_wait_nodes = 2048;
    corral_sched *s = sched_of(d);
    corral_domain_set_scale(s, 1, 0.5f);
    memset(t_ends, 0, sizeof t_ends);
    t_next_id = 0;
    for (int frame = 0; frame < 400; frame++) {
        if (t_rand() % 3u == 0 && corral_live_count(s) < 400) {
            tree_ctx root = {.id = t_next_id < TREE_MAX ? t_next_id++ : -1, .depth = 1 + (int)(t_rand() % 4u),
                             .frames = (int)(t_rand() % 3u), .seed = t_rand()};
            tree_start(s, root);
        }
        uint32_t live = corral_live_count(s);
        for (uint32_t k = 0; live && k < 3; k++) { /* stop or move a few at random */
            uint32_t cur = 0, pick = t_rand() % live, n = 0;
            corral_co_info in;
            while (corral_next_co(s, &cur, &in) && n++ < pick) {}
            if (!corral_alive(s, in.handle)) continue;
            uint32_t what = t_rand() % 8u;
            if (what == 0) corral_stop(s, in.handle);
            else if (what == 1) corral_set_domain(s, in.handle, t_rand() % 3u);
            else if (what == 2) corral_pause(s, in.handle);
            else if (what == 3 && in.state == CORRAL_CO_PAUSED) corral_resume(s, in.handle);
        }
        if (frame % 50 == 25) corral_domain_pause(s, 2);
        if (frame % 50 == 45) corral_domain_resume(s, 2);
        corral_tick(s, 0.02f);
        cr_assert(corral_verify(s), "frame %d: %s", frame, corral_error_str(corral_last_error(s)));
        for (int id = 0; id < t_next_id && id < TREE_MAX; id++)
            cr_assert_leq(t_ends[id], 1, "frame %d: coroutine %d ended %d times", frame, id, t_ends[id]);
    }
    cr_assert_gt(t_next_id, 200, "the trees grew");
    cr_assert_eq(ac.allocs, 1, "no allocation after create: races, syncs, domains, stops and moves included");
    corral_sched_destroy(s);
    for (int id = 0; id < t_next_id && id < TREE_MAX; id++)
        cr_assert_eq(t_ends[id], 1, "coroutine %d ended %d times", id, t_ends[id]);
}

/* ---- saves: a race and a sync under way, nested */
#define SW_FIELDS(F) F(int, frames) F(int, value)
#define SW_POINTS(P) P(waited)
DECLARE_COROUTINE_R(sw, SW_FIELDS, int)
DEFINE_COROUTINE_AT(sw, SW_POINTS)
{
    CORRAL_BEGIN_AT(co, SW_POINTS);
    while (ctx->frames-- > 0) CORRAL_WAIT_FRAME_AT(co, waited);
    ctx->result = ctx->value;
    CORRAL_END(co);
}
#define SR_FIELDS(F) F(int, depth) F(int, got) F(int, got2) F(int, winner) F(int, done)
#define SR_POINTS(P) P(raced) P(raced_leaf) P(synced)
DECLARE_COROUTINE_R(sr, SR_FIELDS, int)
DEFINE_COROUTINE_AT(sr, SR_POINTS)
{
    CORRAL_BEGIN_AT(co, SR_POINTS);
    if (ctx->depth > 0) {
        CORRAL_RACE_AT(co, raced, sr_arm(co, (sr_ctx){.depth = ctx->depth - 1}, &ctx->got),
                       sw_arm(co, (sw_ctx){.frames = 6, .value = 600}, &ctx->got));
    } else {
        CORRAL_RACE_AT(co, raced_leaf, sw_arm(co, (sw_ctx){.frames = 3, .value = 30}, &ctx->got),
                       sw_arm(co, (sw_ctx){.frames = 5, .value = 50}, &ctx->got));
    }
    ctx->winner = corral_race_winner(co);
    CORRAL_SYNC_AT(co, synced, sw_arm(co, (sw_ctx){.frames = 2, .value = 1}, &ctx->got2),
                   sw_arm(co, (sw_ctx){.frames = 4, .value = 2}, &ctx->result));
    ctx->done = 1;
    ctx->result += ctx->got;
    CORRAL_END(co);
}
#define SAVED_RACE_TYPES(X) X(sw, 1, 0) X(sr, 2, 0)
CORRAL_DECLARE_REGISTRY(srace, SAVED_RACE_TYPES)
CORRAL_DEFINE_REGISTRY(srace, SAVED_RACE_TYPES);

static corral_sched *srsched(void)
{
    corral_sched_desc d = one_class_desc(128, 64);
    d.registry = &srace_registry;
    return sched_of(d);
}

Test(race, races_and_syncs_under_way_save_and_the_loaded_game_runs_on_the_same)
{
    for (int when = 0; when < 4; when++) { /* saved at frames 0, 2, 4, 6: in the races, in the syncs */
        corral_sched *a = srsched();
        sr_start(a, (sr_ctx){.depth = 2});
        for (int f = 0; f < 2 * when; f++) corral_tick(a, 0.1f);
        cr_assert(corral_verify(a));
        static unsigned char buf[1 << 15];
        size_t n = corral_save(a, buf, sizeof buf);
        cr_assert_gt(n, 0, "frame %d: %s", 2 * when, corral_error_str(corral_last_error(a)));
        corral_sched *b = srsched();
        cr_assert(corral_load(b, buf, n), "frame %d: %s", 2 * when, corral_error_str(corral_last_error(b)));
        cr_assert(corral_verify(b));
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d", 2 * when);
        for (int f = 0; f < 12; f++) {
            corral_tick(a, 0.1f);
            corral_tick(b, 0.1f);
            cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "saved at %d, frame %d after", 2 * when, f);
            cr_assert_eq(corral_live_count(b), corral_live_count(a));
        }
        cr_assert_eq(corral_live_count(a), 0, "the race tree ran to its end");
        corral_sched_destroy(a);
        corral_sched_destroy(b);
    }
}

/* races.c is a module: calls.c reaches a race's end through the table it
   hands over at the first race or sync begun, or at a load that brings
   one back. The save is made in a child process, so this one loads it
   with no race ever begun (Criterion runs each test in a process of its
   own): the arms that end must still decide their races. */
static size_t races_saved(unsigned char *out, size_t cap)
{
    corral_sched *a = srsched();
    sr_start(a, (sr_ctx){.depth = 2});
    corral_tick(a, 0.1f);
    return corral_save(a, out, cap);
}
Test(race, a_load_brings_races_into_a_process_that_never_began_one)
{
    static unsigned char buf[1 << 15];
    const size_t n = save_in_child(races_saved, buf, sizeof buf);
    corral_sched *b = srsched();
    cr_assert(corral_load(b, buf, n), "%s", corral_last_error_detail(b));
    for (int f = 0; f < 20 && corral_live_count(b) > 0; f++) {
        corral_tick(b, 0.1f);
        cr_assert(corral_verify(b), "frame %d: %s", f, corral_last_error_detail(b));
    }
    cr_assert_eq(corral_live_count(b), 0, "the races were decided and the tree ran to its end");
    corral_sched_destroy(b);
}

/* a race begun with no side record free: its arms start none and it goes
   on (outcome NONE), in its first step and in steps a walk runs, whose
   lane entries stay as they were */
#define NOSIDE_FIELDS(F) \
    F(int, got)          \
    F(int, steps)        \
    F(int, raced)
DECLARE_COROUTINE(noside, NOSIDE_FIELDS)
DEFINE_COROUTINE(noside)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->steps++;
        CORRAL_RACE(co, worker_arm(co, (worker_ctx){.id = 60, .frames = 1, .value = 1}, &ctx->got));
        ctx->raced += corral_race_winner(co) >= 0;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

Test(race, a_race_begun_with_no_side_record_free_starts_no_arm_and_goes_on)
{
    memset(w_steps, 0, sizeof w_steps);
    corral_sched_desc d = one_class_desc(192, 64);
    d.max_side_records = 1;
    corral_sched *s = sched_of(d);
    corral_start_desc o = {.owner = 7}; /* takes the only side record */
    const corral_handle keeper = worker_start_ex(s, (worker_ctx){.id = 61, .frames = 1000, .value = 1}, &o);
    cr_assert_neq(keeper.gen, 0);
    enum { N = 40 };
    corral_handle h[N];
    for (int i = 0; i < N; i++) h[i] = noside_start(s, (noside_ctx){0});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    for (int f = 0; f < 3; f++) {
        corral_tick(s, 0.016f);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    for (int i = 0; i < N; i++) {
        cr_assert(corral_alive(s, h[i]));
        cr_assert_eq(noside_ctx_of(s, h[i])->steps, 4, "it went on each step (%d)", noside_ctx_of(s, h[i])->steps);
    }
    cr_assert_eq(w_steps[60], 0, "no arm started");
    cr_assert_eq(corral_live_count(s), N + 1);
    for (int i = 0; i < N; i += 2) cr_assert(corral_stop(s, h[i])); /* tombstones where their links say */
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_stop(s, keeper)); /* one record free: a race takes it, its arm finds none */
    for (int f = 0; f < 4; f++) {
        corral_tick(s, 0.016f);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    for (int i = 1; i < N; i += 2) cr_assert(corral_alive(s, h[i]));
    corral_sched_destroy(s);
}

/* a step that begins a race and returns without starting its arms (the
   misuse CORRAL_RACE rules out): the race ends unstarted at the step's
   return, its arm ends unstepped, BAD_WAIT names it, and the coroutine
   goes on as after a plain yield (how 0) or held (1: it paused itself);
   one that ends (2) ends its race as any end does. In its first step, in
   walked ones and in a generator's */
#define UNSTARTED_FIELDS(F) \
    F(int, at)              \
    F(int, arm)             \
    F(int, how)             \
    F(int, steps)           \
    F(int, dest)
DECLARE_COROUTINE(unstarted, UNSTARTED_FIELDS)
DEFINE_COROUTINE(unstarted)
{
    if (ctx->steps++ != ctx->at) return CORRAL_YIELD;
    corral_race_begin(co);
    if (ctx->arm) corral_arm(co, &worker_type, &(worker_ctx){.id = 62, .frames = 1, .value = 1}, sizeof(worker_ctx),
                             &ctx->dest, sizeof ctx->dest);
    if (ctx->how == 1) corral_pause(corral_sched_of(co), corral_self(co));
    return ctx->how == 2 ? CORRAL_STOP : CORRAL_YIELD;
}

static void unstarted_case(int full, int at, int arm, int how)
{
    memset(w_steps, 0, sizeof w_steps);
    corral_sched_desc d = one_class_desc(192, 16);
    d.max_side_records = 1;
    corral_sched *s = sched_of(d);
    corral_start_desc o = {.owner = 7}; /* full: it takes the only side record, the begin finds none */
    corral_handle idle = worker_start_ex(s, (worker_ctx){.id = 63, .frames = 1000, .value = 1}, full ? &o : NULL);
    const unstarted_ctx c = {.at = at, .arm = arm, .how = how};
    const bool gen = at == 2; /* stepped by its pulls */
    corral_handle h = gen ? corral_generator_start(s, &unstarted_type, &c, sizeof c) : unstarted_start(s, c);
    for (int f = 0; f < 3; f++) {
        if (gen) corral_generator_next(s, h, NULL, 0);
        corral_tick(s, 0.016f);
        cr_assert(corral_verify(s), "full %d at %d arm %d how %d: %s", full, at, arm, how, corral_last_error_detail(s));
    }
    if (how != 2) /* a step that ends drops its race as any end does */
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_WAIT, "full %d at %d arm %d how %d: %s", full, at, arm, how,
                     corral_error_str(corral_last_error(s)));
    cr_assert_eq(w_steps[62], 0, "its arm never ran");
    cr_assert_eq(corral_alive(s, h), how != 2);
    cr_assert_eq(corral_live_count(s), 1 + (how != 2), "no arm left behind");
    if (how == 1 && !gen) {
        cr_assert(corral_paused(s, h));
        cr_assert(corral_resume(s, h));
        corral_tick(s, 0.016f);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    if (how == 0 && !gen) cr_assert_eq(unstarted_ctx_of(s, h)->steps, 4, "it went on each step");
    if (how != 2) cr_assert(corral_stop(s, h));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_alive(s, idle));
    corral_tick(s, 0.016f);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(race, a_step_that_returns_with_its_arms_not_started_ends_that_race_with_bad_wait)
{
    for (int at = 0; at < 3; at++) /* its first step, a walked one, a generator's */
        for (int arm = 0; arm < 2; arm++)
            for (int how = 0; how < 3; how++) {
                if (at == 2 && how == 1) continue; /* a generator is held already */
                unstarted_case(0, at, arm, how);
                unstarted_case(1, at, arm, how);
            }
}
