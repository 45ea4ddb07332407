/* test_groups.c -- owners, tags, pause/resume, single-step, cleanup reasons. */
#include "common.h"
#include "corral_internal.h"

static void setup(void)
{
    trace_reset();
    cleaned_reset();
}
TestSuite(groups, .init = setup);

static corral_sched *gsched(uint32_t cap)
{
    corral_sched_desc d = one_class_desc(128, cap);
    d.max_group_nodes = 2 * cap; /* every coroutine here may carry an owner and a tag */
    d.max_side_records = cap;    /* and so a side record each */
    return sched_of(d);
}

static corral_handle start_cleaned(corral_sched *s, int id, uint64_t owner, uint32_t tags)
{
    corral_start_desc o = {.owner = owner, .tags = tags};
    return cleaned_start_ex(s, (cleaned_ctx){.id = id}, &o);
}

static int cleanups_of(int id)
{
    int n = 0;
    for (int r = 0; r < CORRAL_END_COUNT; r++) n += g_cleanups[id][r];
    return n;
}

Test(groups, stop_owner_ends_exactly_that_owners_coroutines_with_group_stopped)
{
    corral_sched *s = gsched(64);
    for (int i = 0; i < 30; i++) start_cleaned(s, i, (uint64_t)(1000 + i % 3), 0);
    cr_assert_eq(corral_stop_owner(s, 1001), 10);
    cr_assert_eq(corral_live_count(s), 20);
    for (int i = 0; i < 30; i++) {
        if (i % 3 == 1) cr_assert_eq(g_cleanups[i][CORRAL_END_GROUP_STOPPED], 1, "member %d", i);
        else cr_assert_eq(cleanups_of(i), 0, "non-member %d untouched", i);
    }
    cr_assert_eq(corral_stop_owner(s, 1001), 0, "nothing left of that owner");
    cr_assert_eq(corral_stop_owner(s, 4242), 0);
    corral_sched_destroy(s);
}

Test(groups, stop_tags_ends_members_with_any_of_the_tags_once)
{
    corral_sched *s = gsched(16);
    start_cleaned(s, 0, 0, 0x1);
    start_cleaned(s, 1, 0, 0x2);
    start_cleaned(s, 2, 0, 0x3); /* both tags: stopped once */
    start_cleaned(s, 3, 0, 0x4);
    cr_assert_eq(corral_stop_tags(s, 0x3), 3);
    cr_assert_eq(cleanups_of(2), 1);
    cr_assert_eq(cleanups_of(3), 0);
    cr_assert_eq(corral_live_count(s), 1);
    corral_sched_destroy(s);
}

Test(groups, many_owners_share_buckets_without_crosstalk)
{
    corral_sched *s = gsched(3000);
    for (int i = 0; i < 3000; i++) {
        corral_start_desc o = {.owner = (uint64_t)(i / 3) * 7919u + 1};
        tracer_start_ex(s, (tracer_ctx){.id = i}, &o);
    }
    for (int k = 0; k < 1000; k += 7) cr_assert_eq(corral_stop_owner(s, (uint64_t)k * 7919u + 1), 3);
    cr_assert_eq(corral_live_count(s), 3000 - 3 * 143);
    corral_sched_destroy(s);
}

Test(groups, a_paused_coroutine_is_not_stepped_until_resumed)
{
    corral_sched *s = gsched(8);
    corral_handle h = start_tracer(s, 1, 0);
    cr_assert(corral_pause(s, h));
    cr_assert(corral_paused(s, h));
    cr_assert(corral_alive(s, h));
    trace_reset();
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    cr_assert_eq(g_trace_len, 0);
    cr_assert_not(corral_pause(s, h), "already paused");
    cr_assert(corral_resume(s, h));
    cr_assert_not(corral_resume(s, h));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NOT_PAUSED);
    corral_tick(s, 0.01f);
    cr_assert_eq(g_trace_len, 1);
    corral_sched_destroy(s);
}

#define NAP_FIELDS(F) \
    F(float, t)       \
    F(int, woke)      \
    F(int64_t, frame)
DECLARE_COROUTINE(nap, NAP_FIELDS)
DEFINE_COROUTINE(nap)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, ctx->t);
    ctx->woke = 1;
    ctx->frame = (int64_t)corral_frame(corral_sched_of(co));
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(groups, a_paused_sleeper_keeps_its_remaining_time_paused_time_does_not_count)
{
    corral_sched *s = gsched(8);
    corral_handle h = nap_start(s, (nap_ctx){.t = 1.0f});
    corral_tick(s, 0.5f); /* 0.5 s left */
    cr_assert(corral_pause(s, h));
    for (int f = 0; f < 10; f++) corral_tick(s, 1.0f);
    cr_assert_eq(nap_ctx_of(s, h)->woke, 0, "paused: 10 s went by, it still sleeps");
    cr_assert(corral_resume(s, h));
    corral_tick(s, 0.4f);
    cr_assert_eq(nap_ctx_of(s, h)->woke, 0, "0.4 of the 0.5 s left");
    corral_tick(s, 0.2f);
    cr_assert_eq(nap_ctx_of(s, h)->woke, 1);
    corral_sched_destroy(s);
}

#define SIGW_FIELDS(F) \
    F(corral_signal, sig) \
    F(int, woke)
DECLARE_COROUTINE(sigw, SIGW_FIELDS)
DEFINE_COROUTINE(sigw)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SIGNAL(co, ctx->sig);
    ctx->woke = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(groups, a_signal_raised_while_paused_is_remembered_until_resume)
{
    corral_sched *s = gsched(8);
    corral_signal sig = corral_signal_create(s);
    corral_handle h = sigw_start(s, (sigw_ctx){.sig = sig});
    corral_pause(s, h);
    cr_assert_eq(corral_signal_raise(s, sig), 1);
    corral_tick(s, 0.01f);
    cr_assert_eq(sigw_ctx_of(s, h)->woke, 0);
    corral_resume(s, h);
    corral_tick(s, 0.01f);
    cr_assert_eq(sigw_ctx_of(s, h)->woke, 1);
    corral_sched_destroy(s);
}

static corral_result pause_myself(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) cr_assert(corral_pause(corral_sched_of(co), corral_self(co)));
    return CORRAL_YIELD;
}

Test(groups, a_coroutine_pausing_itself_is_held_when_its_step_returns)
{
    corral_sched *s = gsched(8);
    corral_handle none = {0, 0};
    corral_handle h = start_actor(s, 1, pause_myself, none, NULL);
    start_tracer(s, 2, 0);
    trace_reset();
    corral_tick(s, 0.01f); /* 1 pauses itself, 2 runs */
    corral_tick(s, 0.01f);
    int want[] = {1, 2, 2};
    expect_trace(want, 3);
    cr_assert(corral_paused(s, h));
    corral_resume(s, h);
    trace_reset();
    corral_tick(s, 0.01f);
    cr_assert_eq(g_trace_len, 2);
    corral_sched_destroy(s);
}

static corral_result stop_my_owner(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) ctx->id = (int)corral_stop_owner(corral_sched_of(co), 7) + 100;
    return CORRAL_YIELD;
}

Test(groups, group_operations_from_inside_a_step_are_safe_even_on_its_own_group)
{
    corral_sched *s = gsched(16);
    corral_start_desc o = {.owner = 7};
    for (int i = 0; i < 3; i++) cleaned_start_ex(s, (cleaned_ctx){.id = i}, &o);
    corral_handle none = {0, 0};
    actor_ctx a = {.fn = stop_my_owner, .id = 9, .other = none};
    corral_handle h = actor_start_ex(s, a, &o);
    for (int i = 3; i < 6; i++) cleaned_start_ex(s, (cleaned_ctx){.id = i}, &o);
    start_tracer(s, 50, 0); /* not in the group */
    corral_tick(s, 0.01f);
    cr_assert_not(corral_alive(s, h), "stopped itself through its group");
    for (int i = 0; i < 6; i++) cr_assert_eq(g_cleanups[i][CORRAL_END_GROUP_STOPPED], 1);
    cr_assert_eq(corral_live_count(s), 1);
    corral_sched_destroy(s);
}

Test(groups, pause_and_resume_a_whole_tag_group)
{
    corral_sched *s = gsched(16);
    corral_start_desc ui = {.tags = 0x10};
    for (int i = 0; i < 4; i++) tracer_start_ex(s, (tracer_ctx){.id = i}, &ui);
    start_tracer(s, 9, 0);
    cr_assert_eq(corral_pause_tags(s, 0x10), 4);
    trace_reset();
    corral_tick(s, 0.01f);
    int want[] = {9};
    expect_trace(want, 1);
    cr_assert_eq(corral_resume_tags(s, 0x10), 4);
    trace_reset();
    corral_tick(s, 0.01f);
    cr_assert_eq(g_trace_len, 5);
    cr_assert_eq(corral_pause_owner(s, 0), 0, "owner 0 is no group");
    corral_sched_destroy(s);
}

/* caller of a slow square, paused while the child finishes */
#define SQ_FIELDS(F) \
    F(int, n)        \
    F(int, frames)
DECLARE_COROUTINE_R(sq, SQ_FIELDS, int)
DEFINE_COROUTINE(sq)
{
    CORRAL_BEGIN(co);
    while (ctx->frames-- > 0) CORRAL_WAIT_FRAME(co);
    ctx->result = ctx->n * ctx->n;
    CORRAL_END(co);
}
#define ASKER_FIELDS(F) \
    F(int, got)         \
    F(int, done)
DECLARE_COROUTINE(asker, ASKER_FIELDS)
DEFINE_COROUTINE(asker)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL(co, sq, (sq_ctx){.n = 6, .frames = 2}, &ctx->got);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(groups, a_paused_caller_gets_its_childs_result_when_resumed)
{
    corral_sched *s = gsched(8);
    corral_handle h = asker_start(s, (asker_ctx){0});
    corral_pause(s, h);
    for (int f = 0; f < 4; f++) corral_tick(s, 0.01f);
    asker_ctx *c = asker_ctx_of(s, h);
    cr_assert_eq(c->got, 36, "the result is delivered");
    cr_assert_eq(c->done, 0, "but the caller is held");
    corral_resume(s, h);
    corral_tick(s, 0.01f);
    cr_assert_eq(c->done, 1);
    corral_sched_destroy(s);
}

Test(groups, single_step_advances_a_held_coroutine_exactly_one_step)
{
    corral_sched *s = gsched(8);
    corral_handle t = start_tracer(s, 5, 0);
    corral_handle n = nap_start(s, (nap_ctx){.t = 100.0f});
    corral_pause(s, t);
    corral_pause(s, n);
    trace_reset();
    cr_assert(corral_step_once(s, t));
    cr_assert(corral_step_once(s, t));
    int want[] = {5, 5};
    expect_trace(want, 2);
    cr_assert(corral_paused(s, t), "held again after each step");
    corral_tick(s, 0.01f);
    cr_assert_eq(g_trace_len, 2, "not stepped by ticks");
    cr_assert(corral_step_once(s, n), "steps a sleeper whatever it waits on");
    cr_assert_eq(nap_ctx_of(s, n)->woke, 1);
    cr_assert(corral_paused(s, n));
    cr_assert_not(corral_step_once(s, start_tracer(s, 6, 0)));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NOT_PAUSED);
    corral_sched_destroy(s);
}

/* every way to end, each cleanup exactly once with its reason */
#define LEVEL_FIELDS(F) \
    F(int, id)          \
    F(int, depth)
DECLARE_COROUTINE(level, LEVEL_FIELDS)
static void level_end(level_ctx *ctx, corral_end_reason why) { g_cleanups[ctx->id][why]++; }
DEFINE_COROUTINE_CLEANUP(level, level_end)
{
    CORRAL_BEGIN(co);
    if (ctx->depth > 0) CORRAL_CALL(co, level, (level_ctx){.id = ctx->id + 1, .depth = ctx->depth - 1});
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(groups, cleanup_runs_exactly_once_for_every_end_reason)
{
    corral_sched *s = gsched(32);
    cleaned_start(s, (cleaned_ctx){.id = 0, .stop_after = 2});     /* finished */
    corral_handle st = cleaned_start(s, (cleaned_ctx){.id = 1});    /* stopped */
    level_start(s, (level_ctx){.id = 10, .depth = 2});              /* 10 stopped, 11, 12 parent stopped */
    start_cleaned(s, 20, 77, 0);                                    /* group stopped */
    cleaned_start(s, (cleaned_ctx){.id = 30});                      /* destroyed */
    corral_tick(s, 0.01f);
    corral_stop(s, st);
    corral_handle top = {0, 0};
    for (uint32_t i = 0; i < 32 && !top.gen; i++) {
        corral_handle p = {i, 1};
        level_ctx *c = level_ctx_of(s, p);
        if (c && c->id == 10) top = p;
    }
    corral_stop(s, top);
    corral_stop_owner(s, 77);
    corral_tick(s, 0.01f);
    corral_sched_destroy(s);
    cr_assert_eq(g_cleanups[0][CORRAL_END_FINISHED], 1);
    cr_assert_eq(g_cleanups[1][CORRAL_END_STOPPED], 1);
    cr_assert_eq(g_cleanups[10][CORRAL_END_STOPPED], 1);
    cr_assert_eq(g_cleanups[11][CORRAL_END_PARENT_STOPPED], 1);
    cr_assert_eq(g_cleanups[12][CORRAL_END_PARENT_STOPPED], 1);
    cr_assert_eq(g_cleanups[20][CORRAL_END_GROUP_STOPPED], 1);
    cr_assert_eq(g_cleanups[30][CORRAL_END_DESTROYED], 1);
    int ids[] = {0, 1, 10, 11, 12, 20, 30};
    for (int i = 0; i < 7; i++) cr_assert_eq(cleanups_of(ids[i]), 1, "id %d", ids[i]);
}

Test(groups, group_node_pool_exhaustion_refuses_the_start_and_loses_nothing)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 8;
    d.max_group_nodes = 4; /* two starts of two tags each */
    corral_sched *s = corral_sched_create(&d);
    corral_start_desc two_tags = {.tags = 0x3};
    cr_assert_neq(tracer_start_ex(s, (tracer_ctx){.id = 1}, &two_tags).gen, 0);
    cr_assert_neq(tracer_start_ex(s, (tracer_ctx){.id = 2}, &two_tags).gen, 0);
    cr_assert_eq(tracer_start_ex(s, (tracer_ctx){.id = 3}, &two_tags).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_GROUP_POOL_EXHAUSTED);
    cr_assert_eq(corral_live_count(s), 2, "nothing half-started");
    corral_class_stats c;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.used, 2);
    cr_assert_eq(corral_stop_tags(s, 0x1), 2);
    cr_assert_neq(tracer_start_ex(s, (tracer_ctx){.id = 4}, &two_tags).gen, 0, "the nodes came back");
    corral_sched_destroy(s);
}

Test(groups, children_join_their_callers_groups)
{
    corral_sched *s = gsched(16);
    corral_start_desc o = {.owner = 5};
    level_start_ex(s, (level_ctx){.id = 0, .depth = 2}, &o);
    cr_assert_eq(corral_live_count(s), 3);
    cr_assert_eq(corral_pause_owner(s, 5), 3, "caller and both children");
    cr_assert_eq(corral_resume_owner(s, 5), 3);
    corral_stop_owner(s, 5);
    cr_assert_eq(corral_live_count(s), 0);
    for (int i = 0; i <= 2; i++) cr_assert_eq(cleanups_of(i), 1);
    corral_sched_destroy(s);
}

Test(groups, groups_and_pause_never_call_the_allocator)
{
    alloc_counter ac = {0};
    corral_sched_desc d = counted_one_class_desc(128, 64, &ac);
    corral_sched *s = corral_sched_create(&d);
    for (int i = 0; i < 2000; i++) {
        uint64_t owner = (uint64_t)i + 1; /* 0 means no owner */
        corral_start_desc o = {.owner = owner, .tags = 0x5};
        corral_handle h = nap_start_ex(s, (nap_ctx){.t = 0.05f}, &o);
        cr_assert_eq(corral_pause_tags(s, 0x4), 1);
        corral_tick(s, 0.02f);
        cr_assert_eq(corral_resume_owner(s, owner), 1);
        corral_tick(s, 0.02f);
        corral_pause(s, h);
        corral_step_once(s, h);
        cr_assert_eq(corral_stop_owner(s, owner), 1);
    }
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert_eq(ac.allocs, 1);
    corral_sched_destroy(s);
}

/* ---- one instance per owner and tag (corral_start_desc.single) */

static corral_handle start_single(corral_sched *s, int id, uint64_t owner, uint32_t tags, corral_single mode,
                                  int stop_after)
{
    corral_start_desc o = {.owner = owner, .tags = tags, .single = mode};
    return cleaned_start_ex(s, (cleaned_ctx){.id = id, .stop_after = stop_after}, &o);
}

Test(groups, single_refuse_starts_nothing_while_an_instance_of_the_owner_and_tag_runs)
{
    corral_sched *s = gsched(16);
    corral_handle a = start_single(s, 1, 7, 0x3, CORRAL_SINGLE_REFUSE, 0);
    cr_assert(corral_alive(s, a), "the first instance starts");
    corral_handle b = start_single(s, 2, 7, 0x2, CORRAL_SINGLE_REFUSE, 0);
    cr_assert_eq(b.gen, 0, "one shared tag and the same owner: refused");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_ALREADY_RUNNING);
    cr_assert_eq(cleanups_of(2), 0);
    cr_assert(corral_alive(s, start_single(s, 3, 8, 0x2, CORRAL_SINGLE_REFUSE, 0)), "another owner: its own instance");
    cr_assert(corral_alive(s, start_single(s, 4, 7, 0x4, CORRAL_SINGLE_REFUSE, 0)), "another tag: its own instance");
    cr_assert(corral_alive(s, start_single(s, 5, 0, 0x2, CORRAL_SINGLE_REFUSE, 0)), "no owner is an owner of its own");
    cr_assert_eq(start_single(s, 6, 0, 0x2, CORRAL_SINGLE_REFUSE, 0).gen, 0);
    corral_stop(s, a);
    cr_assert(corral_alive(s, start_single(s, 7, 7, 0x2, CORRAL_SINGLE_REFUSE, 0)), "once it ended, a new one starts");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(groups, single_replace_stops_the_instances_first_with_replaced)
{
    corral_sched *s = gsched(16);
    corral_handle a = start_single(s, 1, 7, 0x1, CORRAL_SINGLE_NONE, 0);
    corral_handle b = start_single(s, 2, 7, 0x1, CORRAL_SINGLE_NONE, 0); /* two of them, started without a mode */
    corral_handle c = start_single(s, 3, 7, 0x1, CORRAL_SINGLE_REPLACE, 0);
    cr_assert(!corral_alive(s, a) && !corral_alive(s, b));
    cr_assert_eq(g_cleanups[1][CORRAL_END_REPLACED], 1);
    cr_assert_eq(g_cleanups[2][CORRAL_END_REPLACED], 1);
    cr_assert(corral_alive(s, c));
    cr_assert_eq(cleaned_ctx_of(s, c)->steps, 1, "its first step ran at once");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(groups, single_queue_starts_now_and_takes_its_first_step_when_the_last_instance_ends)
{
    corral_sched *s = gsched(16);
    corral_handle a = start_single(s, 1, 7, 0x1, CORRAL_SINGLE_QUEUE, 3); /* nothing runs: an ordinary start */
    cr_assert_eq(cleaned_ctx_of(s, a)->steps, 1);
    corral_handle b = start_single(s, 2, 7, 0x1, CORRAL_SINGLE_QUEUE, 2);
    corral_handle c = start_single(s, 3, 7, 0x1, CORRAL_SINGLE_QUEUE, 1);
    cr_assert(corral_alive(s, b) && corral_alive(s, c), "queued: their handles are good already");
    cr_assert_eq(cleaned_ctx_of(s, b)->steps, 0, "not stepped while the instance runs");
    corral_co_info in;
    cr_assert(corral_co_info_of(s, c, &in));
    cr_assert_eq(in.state, CORRAL_CO_WAITING);
    cr_assert_eq(in.wait, CORRAL_WAIT_ALL, "c queues behind a and b");
    corral_tick(s, 0.01f);
    cr_assert_eq(cleaned_ctx_of(s, b)->steps, 0);
    corral_tick(s, 0.01f); /* a's third step ends it: b's first step runs in the same run */
    cr_assert(!corral_alive(s, a));
    cr_assert_eq(cleaned_ctx_of(s, b)->steps, 1, "the queued one's first step, in the run its predecessor ended");
    cr_assert_eq(cleaned_ctx_of(s, c)->steps, 0, "c still waits for b");
    corral_tick(s, 0.01f); /* b ends: c's first (and last) step */
    cr_assert(!corral_alive(s, b));
    cr_assert(!corral_alive(s, c));
    cr_assert_eq(g_cleanups[3][CORRAL_END_FINISHED], 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(groups, single_modes_need_tags_and_a_queue_needs_its_wait_nodes)
{
    corral_sched *s = gsched(16);
    cr_assert_eq(start_single(s, 1, 7, 0, CORRAL_SINGLE_REFUSE, 0).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_START);
    cr_assert_eq(start_single(s, 1, 7, 0x1, (corral_single)9, 0).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_START);
    cr_assert_eq(corral_live_count(s), 0);
    corral_sched_destroy(s);
    corral_sched_desc d = one_class_desc(64, 8);
    d.max_wait_nodes = 1;
    d.max_group_nodes = 16;
    s = sched_of(d);
    start_single(s, 1, 7, 0x1, CORRAL_SINGLE_NONE, 0);
    start_single(s, 2, 7, 0x1, CORRAL_SINGLE_NONE, 0);
    cr_assert_eq(start_single(s, 3, 7, 0x1, CORRAL_SINGLE_QUEUE, 0).gen, 0, "two to queue behind, one node");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert_eq(corral_live_count(s), 2, "nothing taken");
    cr_assert_eq(cleanups_of(3), 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

static corral_result replace_myself(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 2) {
        corral_start_desc o = {.owner = 9, .tags = 0x1, .single = CORRAL_SINGLE_REPLACE};
        ctx->other = cleaned_start_ex(corral_sched_of(co), (cleaned_ctx){.id = 5}, &o);
    }
    return CORRAL_YIELD;
}

Test(groups, single_replace_from_the_instances_own_step_ends_it_after_its_step)
{
    corral_sched *s = gsched(16);
    corral_start_desc o = {.owner = 9, .tags = 0x1};
    corral_handle a = actor_start_ex(s, (actor_ctx){.fn = replace_myself, .id = 1}, &o);
    corral_tick(s, 0.01f);
    cr_assert(!corral_alive(s, a), "it ended when its step returned");
    cr_assert_eq(corral_live_count(s), 1, "the new instance runs");
    cr_assert_eq(cleanups_of(5), 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* ---- stop requests */

/* polite: after it sees the request it takes `grace` more steps, then ends */
#define POLITE_FIELDS(F) \
    F(int, id)           \
    F(int, grace)        \
    F(int, saw)          \
    F(int, steps)
DECLARE_COROUTINE(polite, POLITE_FIELDS)
static void polite_end(polite_ctx *ctx, corral_end_reason why) { g_cleanups[ctx->id][why]++; }
DEFINE_COROUTINE_CLEANUP(polite, polite_end)
{
    ctx->steps++;
    if (corral_stop_requested(co)) {
        if (!ctx->saw) ctx->saw = ctx->steps;
        if (ctx->grace-- <= 0) return CORRAL_STOP;
    }
    return CORRAL_YIELD;
}

static corral_handle start_polite(corral_sched *s, int id, int grace, uint64_t owner)
{
    corral_start_desc o = {.owner = owner};
    return polite_start_ex(s, (polite_ctx){.id = id, .grace = grace}, &o);
}

Test(groups, a_stop_request_is_seen_and_the_coroutine_ends_itself_in_its_own_time)
{
    corral_sched *s = gsched(16);
    corral_handle h = start_polite(s, 1, 2, 0);
    corral_tick(s, 0.1f);
    cr_assert(corral_request_stop(s, h, 0.0f));
    corral_tick(s, 0.1f);
    cr_assert_eq(polite_ctx_of(s, h)->saw, 3, "its next step sees the request");
    corral_tick(s, 0.1f);
    corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, h), "two steps of grace, then it ended itself");
    cr_assert_eq(g_cleanups[1][CORRAL_END_FINISHED], 1);
    cr_assert(!corral_request_stop(s, h, 1.0f), "a dead handle");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    corral_sched_destroy(s);
}

Test(groups, a_stop_request_with_a_deadline_stops_a_coroutine_that_ignores_it)
{
    corral_sched *s = gsched(16);
    corral_handle h = start_polite(s, 1, 1000, 0); /* it never gives up on its own */
    corral_handle quick = start_polite(s, 2, 0, 0);
    cr_assert(corral_request_stop(s, h, 0.25f));
    cr_assert(corral_request_stop(s, h, 5.0f), "a later deadline does not push the first back");
    cr_assert(corral_request_stop(s, quick, 0.25f));
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_nodes, 2, "one node per deadline");
    cr_assert(corral_verify(s));
    corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, quick), "it ended itself at its next step");
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_nodes, 1, "its deadline's node came back");
    corral_tick(s, 0.1f);
    cr_assert(corral_alive(s, h));
    corral_tick(s, 0.1f); /* 0.3 s >= 0.25 */
    cr_assert(!corral_alive(s, h), "stopped hard at its deadline");
    cr_assert_eq(g_cleanups[1][CORRAL_END_DEADLINE], 1);
    cr_assert_eq(g_cleanups[2][CORRAL_END_FINISHED], 1);
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.wait_nodes, 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

static corral_result call_polite(corral_co *co, struct actor_ctx *ctx)
{
    if (ctx->steps == 1) return polite_call(co, (polite_ctx){.id = 3, .grace = 0}) ? CORRAL_YIELD : CORRAL_STOP;
    return corral_stop_requested(co) ? CORRAL_STOP : CORRAL_YIELD;
}

Test(groups, a_request_reaches_the_children_a_coroutine_awaits_and_a_whole_owner)
{
    corral_sched *s = gsched(16);
    corral_start_desc o = {.owner = 4};
    corral_handle caller = actor_start_ex(s, (actor_ctx){.fn = call_polite, .id = 9}, &o);
    start_polite(s, 5, 0, 4);
    start_polite(s, 6, 0, 5);
    cr_assert_eq(corral_live_count(s), 4);
    cr_assert_eq(corral_request_stop_owner(s, 4, 0.0f), 3, "owner 4: the caller, its child (it joined the group), one more");
    corral_tick(s, 0.1f);
    cr_assert_eq(g_cleanups[3][CORRAL_END_FINISHED], 1, "the child saw it and ended");
    cr_assert(!corral_alive(s, caller), "and so did its caller, resumed in the same run");
    cr_assert_eq(g_cleanups[5][CORRAL_END_FINISHED], 1);
    cr_assert_eq(corral_live_count(s), 1, "owner 5 was not asked");
    cr_assert_eq(corral_request_stop_tags(s, 0x1, 0.0f), 0);
    corral_sched_destroy(s);
}

Test(groups, a_deadline_counts_the_coroutines_domain_and_needs_a_wait_node)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.domains = 2;
    d.max_wait_nodes = 1;
    corral_sched *s = sched_of(d);
    corral_start_desc o = {.domain = 1};
    corral_handle h = polite_start_ex(s, (polite_ctx){.id = 1, .grace = 1000}, &o);
    corral_handle k = start_polite(s, 2, 1000, 0);
    cr_assert(corral_request_stop(s, h, 0.15f));
    cr_assert(!corral_request_stop(s, k, 0.15f), "no wait node left for a second deadline");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    corral_domain_pause(s, 1);
    for (int f = 0; f < 5; f++) corral_tick(s, 0.1f);
    cr_assert(corral_alive(s, h), "its domain is paused: its deadline waits");
    corral_tick(s, 0.1f);
    cr_assert_eq(polite_ctx_of(s, k)->saw, 0, "the refused request was not made");
    corral_domain_resume(s, 1);
    corral_tick(s, 0.1f);
    corral_tick(s, 0.1f);
    cr_assert(!corral_alive(s, h));
    cr_assert_eq(g_cleanups[1][CORRAL_END_DEADLINE], 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}
