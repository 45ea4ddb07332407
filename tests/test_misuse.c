/*
    test_misuse.c -- the rows of docs/RELIABILITY.md that no other area's
    tests cover: the validation layer (messages, FATAL, OFF), cyclic waits,
    pools that run dry at each point that takes from them, signals from
    cleanup hooks, destroyed schedulers, and corral_verify catching damage.
*/
#include "common.h"
#include "corral_internal.h"

#include <signal.h>

static corral_sched_desc report_desc(uint32_t cap, log_capture *cap_log)
{
    corral_sched_desc d = one_class_desc(64, cap);
    d.validation = CORRAL_VALIDATION_REPORT;
    if (cap_log) {
        d.logger.fn = capture_log;
        d.logger.user_data = cap_log;
    }
    return d;
}
static corral_sched *report_sched(uint32_t cap, log_capture *cap_log) { return sched_of(report_desc(cap, cap_log)); }

Test(misuse, a_handle_with_a_generation_its_slot_never_had_is_forged)
{
    corral_sched *s = small_sched(4);
    corral_handle h = start_tracer(s, 1, 0);
    corral_handle forged = {h.index, h.gen + 5};
    cr_assert_not(corral_stop(s, forged));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_FORGED_HANDLE);
    cr_assert(corral_alive(s, h), "the real coroutine is untouched");
    corral_sched_destroy(s);
}

static corral_result join_self(corral_co *co, actor_ctx *ctx)
{
    (void)ctx;
    corral_await(co, corral_wait_join(corral_self(co)));
    return CORRAL_STOP;
}

Test(misuse, the_logger_names_the_call_the_handle_and_the_rule)
{
    log_capture cap = {0};
    corral_sched *s = report_sched(4, &cap);
    corral_handle h = start_tracer(s, 1, 1); /* finishes at once: h is stale */
    cr_assert_not(corral_stop(s, h));
    cr_assert_eq(cap.level, CORRAL_LOG_ERROR);
    cr_assert(strstr(cap.message, "corral_stop(handle 0x") != NULL, "%s", cap.message);
    cr_assert(strstr(cap.message, "stale handle") != NULL, "%s", cap.message);
    actor_start(s, (actor_ctx){.fn = join_self, .id = 7});
    cr_assert_eq(cap.last, CORRAL_ERR_CYCLIC_WAIT);
    cr_assert(strstr(cap.message, "corral_await") != NULL, "%s", cap.message);
    cr_assert(strstr(cap.message, "in a step of 'actor'") != NULL, "%s", cap.message);
    cr_assert(strstr(cap.message, "joins itself") != NULL, "%s", cap.message);
    corral_sched_destroy(s);
}

Test(misuse, fatal_validation_aborts_at_the_misuse, .signal = SIGABRT)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.validation = CORRAL_VALIDATION_FATAL;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    corral_handle h = start_tracer(s, 1, 0);
    corral_context(s, h, &actor_type); /* the wrong type: a programming mistake */
    cr_assert_fail("not reached: FATAL aborts");
}

/* FATAL with no logger in the desc: the words go to stderr before the
   abort, so a zeroed desc never dies in silence (a child process dies) */
static void future_without_its_part(void *arg)
{
    (void)arg;
    corral_sched_desc d = one_class_desc(64, 4);
    d.validation = CORRAL_VALIDATION_FATAL;
    corral_sched *s = corral_sched_create_min(&d);
    if (s) corral_future_create(s); /* no futures part: a misuse */
}
Test(misuse, fatal_validation_without_a_logger_prints_its_words_to_stderr_then_aborts)
{
    char words[512];
    cr_assert(child_aborts(future_without_its_part, NULL, words, sizeof words), "no abort; stderr: '%s'", words);
    cr_assert(strstr(words, "corral: fatal: corral_future_create"), "'%s'", words);
    cr_assert(strstr(words, "it needs corral_part_futures in desc.parts"), "'%s'", words);
}

Test(misuse, fatal_validation_logs_panic_first_and_leaves_run_time_conditions_alone)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 1);
    d.validation = CORRAL_VALIDATION_FATAL;
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    corral_sched *s = corral_sched_create(&d);
    corral_handle h = start_tracer(s, 1, 0);
    cr_assert_eq(start_tracer(s, 2, 0).gen, 0u, "a full pool is a result, not a crash");
    cr_assert_eq(cap.last, CORRAL_ERR_POOL_EXHAUSTED);
    cr_assert_eq(cap.level, CORRAL_LOG_ERROR);
    corral_stop(s, h);
    cr_assert_not(corral_stop(s, h), "a double stop is a stale handle: reported, not fatal");
    cr_assert_not(corral_error_is_misuse(CORRAL_ERR_STALE_HANDLE));
    cr_assert(corral_error_is_misuse(CORRAL_ERR_WRONG_TYPE));
    corral_sched_destroy(s);
}

/* A and B join each other when validation is off: neither can end by
   itself, nothing crashes, and stopping one lets the other go on. */
static corral_signal g_sig;
static corral_result wait_sig_then_join(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) return corral_await(co, corral_wait_signal(g_sig)) ? CORRAL_YIELD : CORRAL_STOP;
    if (ctx->steps == 2) return corral_await(co, corral_wait_join(ctx->other)) ? CORRAL_YIELD : CORRAL_STOP;
    return CORRAL_STOP;
}
static corral_result join_other(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) return corral_await(co, corral_wait_join(ctx->other)) ? CORRAL_YIELD : CORRAL_STOP;
    return CORRAL_STOP;
}

static void mutual_join(corral_validation v, bool *refused, bool *deadlocked)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.validation = v;
    corral_sched *s = sched_of(d);
    g_sig = corral_signal_create(s);
    corral_handle a = actor_start(s, (actor_ctx){.fn = wait_sig_then_join, .id = 1});
    corral_handle b = actor_start(s, (actor_ctx){.fn = join_other, .id = 2, .other = a});
    actor_ctx_of(s, a)->other = b;
    corral_signal_raise(s, g_sig);
    corral_tick(s, 0.f); /* A resumes and tries to join B, which waits for A */
    *refused = corral_last_error(s) == CORRAL_ERR_CYCLIC_WAIT;
    for (int i = 0; i < 5; i++) corral_tick(s, 0.f);
    *deadlocked = corral_alive(s, a) && corral_alive(s, b);
    if (*deadlocked) {
        corral_stop(s, a);
        corral_tick(s, 0.f);
        cr_assert_not(corral_alive(s, b), "stopping one side ends the cycle");
    }
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(misuse, two_coroutines_joining_each_other_is_a_cyclic_wait)
{
    bool refused, deadlocked;
    mutual_join(CORRAL_VALIDATION_REPORT, &refused, &deadlocked);
    cr_assert(refused, "validation sees the cycle");
    cr_assert_not(deadlocked, "A's join was refused: A went on and ended, then B");
    mutual_join(CORRAL_VALIDATION_OFF, &refused, &deadlocked);
    cr_assert_not(refused, "without validation the walk is not made");
    cr_assert(deadlocked, "the cycle holds both until one is stopped");
}

/* A scheduler has the parts its desc names and no other: a join or a
   predicate waited on in one created with corral_sched_create_min and no
   part is refused with NO_PART and words that name the part; the
   coroutine goes on, nothing else changes. In a scheduler with every
   part (corral_sched_create), the same wait waits. */
static bool always_true(void *user) { (void)user; return true; }
static corral_result waits_by_part(corral_co *co, actor_ctx *ctx)
{
    corral_wait w = ctx->steps == 2 ? corral_wait_until(always_true, NULL) : corral_wait_join(ctx->other);
    ctx->id = corral_await(co, w) ? 1 : -(int)corral_last_error(corral_sched_of(co));
    return CORRAL_YIELD;
}
Test(misuse, a_join_or_predicate_wait_in_a_scheduler_without_its_part_is_refused_in_words)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 8);
    d.validation = CORRAL_VALIDATION_REPORT;
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    corral_sched *s = corral_sched_create_min(&d);
    cr_assert_not_null(s);
    corral_handle target = start_actor(s, 7, NULL, (corral_handle){0, 0}, NULL);
    corral_handle h = start_actor(s, 0, waits_by_part, target, NULL);
    actor_ctx *c = actor_ctx_of(s, h);
    cr_assert_eq(c->id, -(int)CORRAL_ERR_NO_PART, "the join is refused");
    cr_assert(corral_error_is_misuse(CORRAL_ERR_NO_PART), "a forgotten part is fixed in the source: FATAL stops on it");
    cr_assert(strstr(corral_last_error_detail(s), "it needs corral_part_calls in desc.parts"), "%s",
              corral_last_error_detail(s));
    corral_tick(s, 1.0f / 60.0f);
    cr_assert_eq(c->id, -(int)CORRAL_ERR_NO_PART, "so is the predicate");
    cr_assert(corral_alive(s, h) && corral_alive(s, target), "both go on");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);

    static const corral_part *const calls_only[] = {&corral_part_calls, NULL};
    d.parts = calls_only;
    s = corral_sched_create_min(&d);
    cr_assert_not_null(s);
    target = start_actor(s, 7, NULL, (corral_handle){0, 0}, NULL);
    h = start_actor(s, 0, waits_by_part, target, NULL);
    cr_assert_eq(actor_ctx_of(s, h)->id, 1, "with the calls part, the join waits");
    corral_co_info in;
    cr_assert(corral_co_info_of(s, h, &in));
    cr_assert_eq(in.wait, CORRAL_WAIT_JOIN);
    corral_sched_destroy(s);
}

/* Timing, a frame history, a step trace and step hooks are the profile
   part's: a desc that asks for one of them is refused by
   corral_sched_create_min without the part (NO_PART, words that name
   it), and made with it; corral_sched_memory_size plans as
   corral_sched_create does (every part when desc.parts is NULL), so it
   gives the size the scheduler takes. */
static void count_step(const char *type, corral_handle h, void *user)
{
    (void)type, (void)h;
    ++*(int *)user;
}
Test(misuse, profiling_in_a_scheduler_without_the_profile_part_is_refused_in_words)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 8);
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    const size_t plain = corral_sched_memory_size(&d);
    cr_assert_gt(plain, 0u);
    d.history_frames = 4;
    const size_t with_history = corral_sched_memory_size(&d);
    cr_assert_gt(with_history, plain, "with desc.parts NULL, memory_size plans for every part");
    int steps = 0;
    corral_sched_desc asks[4] = {d, d, d, d};
    asks[1].history_frames = 0, asks[1].timing = true;
    asks[2].history_frames = 0, asks[2].timing = true, asks[2].trace_steps = 8;
    asks[3].history_frames = 0, asks[3].hooks.step_begin = count_step, asks[3].hooks.user_data = &steps;
    for (int i = 0; i < 4; i++) {
        corral_sched *s = corral_sched_create_min(&asks[i]);
        cr_assert_null(s, "desc %d asks for the profile part", i);
        cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NO_PART);
        cr_assert(strstr(corral_last_error_detail(NULL), "corral_part_profile"), "%s",
                  corral_last_error_detail(NULL));
    }
    static const corral_part *const profile_only[] = {&corral_part_profile, NULL};
    for (int i = 0; i < 4; i++) {
        asks[i].parts = profile_only;
        const size_t need = corral_sched_memory_size(&asks[i]);
        corral_sched *s = corral_sched_create_min(&asks[i]);
        cr_assert_not_null(s, "desc %d with the profile part", i);
        cr_assert_eq(s->total_bytes, need, "memory_size agrees with create for desc %d", i);
        start_actor(s, 7, NULL, (corral_handle){0, 0}, NULL);
        corral_tick(s, 1.0f / 60.0f);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        corral_sched_destroy(s);
    }
    cr_assert_gt(steps, 0, "the step hook ran");
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    cr_assert_eq(s->total_bytes, with_history, "memory_size agrees with corral_sched_create");
    corral_frame_sample f[4];
    corral_tick(s, 1.0f / 60.0f);
    cr_assert_eq(corral_history(s, f, 4), 1u, "the history keeps the frame");
    corral_sched_destroy(s);
}

/* A time budget is the budget part's: corral_set_budget on a scheduler
   without it is refused with NO_PART (a budget of 0, none, is not), and
   every phase run steps as without a budget; with the part, a run stops
   once the budget is spent. */
static uint64_t g_budget_ns;
static uint64_t budget_clock(void *user)
{
    (void)user;
    return g_budget_ns += 1000;
}
Test(misuse, a_budget_in_a_scheduler_without_the_budget_part_is_refused_in_words)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 8);
    d.validation = CORRAL_VALIDATION_REPORT; /* a missing part is a misuse */
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    d.clock.now_ns = budget_clock;
    corral_sched *s = corral_sched_create_min(&d);
    cr_assert_not_null(s);
    corral_set_budget(s, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK, "no budget needs no part");
    corral_set_budget(s, 1500);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NO_PART);
    cr_assert(strstr(corral_last_error_detail(s), "corral_part_budget"), "%s", corral_last_error_detail(s));
    for (int i = 0; i < 4; i++) start_actor(s, 7, NULL, (corral_handle){0, 0}, NULL);
    cr_assert_eq(corral_tick(s, 1.0f / 60.0f), 4u, "no budget: every coroutine steps");
    corral_sched_destroy(s);

    static const corral_part *const budget_only[] = {&corral_part_budget, NULL};
    d.parts = budget_only;
    s = corral_sched_create_min(&d);
    cr_assert_not_null(s);
    for (int i = 0; i < 4; i++) start_actor(s, 7, NULL, (corral_handle){0, 0}, NULL);
    corral_set_budget(s, 1500);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK);
    cr_assert_lt(corral_tick(s, 1.0f / 60.0f), 4u, "the budget stops the run");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* a child joining the caller that awaits it */
DECLARE_COROUTINE(joins_parent, ACTOR_FIELDS)
DEFINE_COROUTINE(joins_parent)
{
    bool waits = corral_await(co, corral_wait_join(ctx->other));
    ctx->steps = waits ? 1 : -(int)corral_last_error(corral_sched_of(co));
    return CORRAL_STOP;
}
static int g_child_result;
static corral_result call_joiner(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) {
        joins_parent_ctx c = {0};
        c.other = corral_self(co);
        return joins_parent_call(co, c) ? CORRAL_YIELD : CORRAL_STOP;
    }
    g_child_result = (int)corral_call_outcome(co);
    return CORRAL_STOP;
}

Test(misuse, a_child_joining_its_own_caller_is_a_cyclic_wait)
{
    corral_sched *s = report_sched(4, NULL);
    g_child_result = -1;
    corral_handle h = actor_start(s, (actor_ctx){.fn = call_joiner, .id = 1});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CYCLIC_WAIT);
    cr_assert_not(corral_alive(s, h), "the child went on, finished, and its caller with it");
    cr_assert_eq(g_child_result, CORRAL_END_FINISHED);
    corral_sched_destroy(s);
}

Test(misuse, a_full_future_pool_returns_the_zero_future)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.max_futures = 2;
    corral_sched *s = sched_of(d);
    corral_future a = corral_future_create(s), b = corral_future_create(s), c = corral_future_create(s);
    cr_assert(a.gen && b.gen);
    cr_assert_eq(c.gen, 0u);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_FUTURE_POOL_EXHAUSTED);
    cr_assert(corral_future_release(s, a));
    cr_assert_neq(corral_future_create(s).gen, 0u, "a released future is reused");
    corral_sched_destroy(s);
}

Test(misuse, a_full_signal_pool_returns_the_zero_signal)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.max_signals = 1;
    corral_sched *s = sched_of(d);
    corral_signal a = corral_signal_create(s);
    cr_assert_neq(a.gen, 0u);
    cr_assert_eq(corral_signal_create(s).gen, 0u);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIGNAL_POOL_EXHAUSTED);
    corral_sched_destroy(s);
}

static corral_result await_sig_each_step(corral_co *co, actor_ctx *ctx)
{
    ctx->user = (void *)(intptr_t)corral_await(co, corral_wait_signal(g_sig));
    return CORRAL_YIELD;
}

Test(misuse, a_waiter_that_finds_no_free_wait_node_ends_with_wait_failed)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.max_wait_nodes = 1;
    corral_sched *s = sched_of(d);
    g_sig = corral_signal_create(s);
    corral_handle a = actor_start(s, (actor_ctx){.fn = await_sig_each_step, .id = 1});
    corral_handle b = actor_start(s, (actor_ctx){.fn = await_sig_each_step, .id = 2});
    cr_assert_eq(actor_ctx_of(s, a)->user, (void *)1, "the first waiter took the node");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert_not(corral_alive(s, b), "the second could not wait: it ended");
    corral_tick(s, 0.f);
    cr_assert_eq(actor_ctx_of(s, a)->steps, 1, "the waiter still waits");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a coroutine whose cleanup hook raises a signal */
static corral_sched *g_sched;
#define RAISER_FIELDS(F) F(int, id)
DECLARE_COROUTINE(raiser, RAISER_FIELDS)
static void raiser_end(raiser_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    (void)why;
    corral_signal_raise(g_sched, g_sig);
}
DEFINE_COROUTINE_CLEANUP(raiser, raiser_end)
{
    (void)co;
    (void)ctx;
    return CORRAL_YIELD;
}
static corral_result wait_sig_once(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps == 1) return corral_await(co, corral_wait_signal(g_sig)) ? CORRAL_YIELD : CORRAL_STOP;
    return CORRAL_STOP;
}

Test(misuse, a_signal_raised_from_a_cleanup_hook_wakes_its_waiters)
{
    corral_sched *s = report_sched(4, NULL);
    g_sched = s;
    g_sig = corral_signal_create(s);
    corral_handle w = actor_start(s, (actor_ctx){.fn = wait_sig_once, .id = 1});
    corral_handle r = raiser_start(s, (raiser_ctx){1});
    corral_stop(s, r); /* the hook raises */
    cr_assert(corral_alive(s, w));
    corral_tick(s, 0.f);
    cr_assert_not(corral_alive(s, w), "woken by the raise from the hook");
    corral_handle r2 = raiser_start(s, (raiser_ctx){2});
    (void)r2;
    actor_start(s, (actor_ctx){.fn = wait_sig_once, .id = 2});
    corral_sched_destroy(s); /* hooks raise during destroy too: nothing breaks */
}

Test(misuse, completing_a_future_twice_is_refused_and_keeps_the_first_value)
{
    corral_sched *s = report_sched(4, NULL);
    corral_future f = corral_future_create(s);
    cr_assert(corral_future_complete(s, f, (corral_value){.i = 1}));
    cr_assert_not(corral_future_complete(s, f, (corral_value){.i = 2}));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_FUTURE_DONE);
    corral_value v;
    cr_assert(corral_future_value(s, f, &v));
    cr_assert_eq(v.i, 1);
    corral_sched_destroy(s);
}

typedef char big_bytes[200]; /* an array: typedef'd first, or its field table row would be wrong */
#define BIG_FIELDS(F) F(big_bytes, bytes)
DECLARE_COROUTINE(big, BIG_FIELDS)
DEFINE_COROUTINE(big)
{
    (void)co;
    (void)ctx;
    return CORRAL_YIELD;
}

Test(misuse, a_context_larger_than_every_class_is_refused_at_start_and_counted)
{
    corral_sched *s = report_sched(4, NULL); /* 64-byte slots only */
    cr_assert_eq(big_start(s, (big_ctx){{0}}).gen, 0u);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NO_CLASS);
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &big_type, &t));
    cr_assert_eq(t.failed, 1u);
    cr_assert_eq(t.slot_size, 0u, "fits no class");
    corral_sched_destroy(s);
}

#ifndef NDEBUG
Test(misuse, calls_on_a_destroyed_heap_scheduler_are_refused_without_touching_it)
{
    /* debug builds keep a table of live schedulers: the freed block is
       never read (ASan in CI would see it) */
    corral_sched *s = small_sched(4);
    corral_sched_destroy(s);
    cr_assert_eq(corral_tick(s, 0.f), 0u);
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED);
    cr_assert_eq(start_tracer(s, 1, 0).gen, 0u);
    cr_assert_not(corral_verify(s));
    corral_sched_destroy(s); /* a double destroy is refused too */
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED);
}
#endif

Test(misuse, corral_verify_reports_damage_it_did_not_cause)
{
    log_capture cap = {0};
    corral_sched *s = report_sched(8, &cap);
    for (int i = 0; i < 5; i++) start_tracer(s, i, 0);
    cr_assert(corral_verify(s));
    s->arena.classes[0].used++; /* damage from outside: a stray write */
    cr_assert_not(corral_verify(s));
    cr_assert_eq(cap.last, CORRAL_ERR_CORRUPT);
    cr_assert(strstr(cap.message, "used counter") != NULL, "%s", cap.message);
    s->arena.classes[0].used--;
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a lane that counts fewer tombstones than it holds would be passed over
   by a pool run dry, which compacts only lanes that count some */
Test(misuse, corral_verify_reports_a_lane_that_undercounts_its_tombstones)
{
    log_capture cap = {0};
    corral_sched *s = report_sched(8, &cap);
    corral_handle h[3];
    for (int i = 0; i < 3; i++) h[i] = start_tracer(s, i, 0);
    cr_assert(corral_stop(s, h[1]), "a tombstone in its lane");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral__lane *L = NULL;
    for (uint32_t l = 0; l < s->run.lane_count; l++)
        if (corral__lanes(s)[l].tombs) L = &corral__lanes(s)[l];
    cr_assert_not_null(L, "the lane counts it");
    const uint32_t tombs = L->tombs;
    L->tombs = 0;
    cr_assert_not(corral_verify(s));
    cr_assert(strstr(cap.message, "more tombstones than it counts") != NULL, "%s", cap.message);
    L->tombs = tombs;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* three tracers, five frames kept in a ring sized for two: it wraps */
static corral_sched *kept_wrapped(log_capture *cap)
{
    corral_sched_desc d = report_desc(8, cap);
    d.kept_snapshots = 2;
    corral_sched *s = sched_of(d);
    for (int i = 0; i < 3; i++) start_tracer(s, i, 0);
    for (uint32_t f = 0; f < 5; f++) {
        cr_assert_gt(corral_snapshot_keep(s, f), 0u);
        corral_tick(s, 0.016f);
    }
    return s;
}

Test(misuse, corral_verify_reports_a_damaged_kept_ring)
{
    log_capture cap = {0};
    corral_sched *s = kept_wrapped(&cap);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral__kept *K = corral__kept_of(s);
    corral__kept_entry *e = corral__kept_entry_at(K, K->oldest);
    const uint32_t next = e->next;
    e->next = K->oldest; /* a stray write: the oldest links to itself */
    cr_assert_not(corral_verify(s));
    cr_assert_eq(cap.last, CORRAL_ERR_CORRUPT);
    cr_assert(strstr(cap.message, "kept snapshot") != NULL, "%s", cap.message);
    e->next = next;
    K->count++;
    cr_assert_not(corral_verify(s));
    cr_assert(strstr(cap.message, "kept snapshot") != NULL, "%s", cap.message);
    K->count--;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* A kept restore trusts the entry's snapshot header: a stray write into
   it is named by corral_verify, and the restore refuses (nothing changed)
   rather than read past the entry or the ring. */
Test(misuse, a_damaged_kept_snapshot_header_is_named_by_verify_and_refused_by_a_kept_restore)
{
    log_capture cap = {0};
    corral_sched *s = kept_wrapped(&cap);
    corral__kept *K = corral__kept_of(s);
    const uint32_t tag = corral__kept_entry_at(K, K->oldest)->tag;
    unsigned char *head = (unsigned char *)corral__kept_entry_at(K, K->oldest) + CORRAL__KEPT_ENTRY;
    const uint64_t span = corral__kept_entry_at(K, K->oldest)->span;
    corral__snap_head was;
    memcpy(&was, head, sizeof was);
    const uint64_t h = corral_state_hash(s);
    const corral__snap_head bad[] = {
        {was.magic ^ 1u, was.version, was.size, was.layout, was.sum},
        {was.magic, was.version + 1u, was.size, was.layout, was.sum},
        {was.magic, was.version, span - CORRAL__KEPT_ENTRY + 8u, was.layout, was.sum}, /* past its entry */
        {was.magic, was.version, (uint64_t)K->bytes * 4u, was.layout, was.sum},       /* past the ring */
        {was.magic, was.version, UINT64_MAX, was.layout, was.sum},
        {was.magic, was.version, sizeof was + CORRAL__HEAD_BYTES - 1u, was.layout, was.sum}, /* less than a head */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(head, &bad[i], sizeof bad[i]);
        cap.last = CORRAL_ERR_OK;
        cr_assert_not(corral_verify(s), "damage %zu", i);
        cr_assert_eq(cap.last, CORRAL_ERR_CORRUPT);
        cr_assert(strstr(cap.message, "a kept snapshot's header is damaged") != NULL, "%zu: %s", i, cap.message);
        cr_assert_not(corral_restore_kept(s, tag), "damage %zu", i);
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_CORRUPT);
        cr_assert(strstr(corral_last_error_detail(s), "a kept snapshot's header is damaged"), "%zu: %s", i,
                  corral_last_error_detail(s));
        cr_assert_eq(corral_snapshot_keep(s, 99), 0u, "a keep refuses the damaged ring too");
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_CORRUPT);
        cr_assert_eq(corral_state_hash(s), h, "nothing changed");
    }
    memcpy(head, &was, sizeof was);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore_kept(s, tag), "%s", corral_last_error_detail(s));
    corral__kept_entry_at(K, K->newest)->span = (uint32_t)(K->bytes + 64u); /* an entry's span past the ring */
    cr_assert_not(corral_verify(s));
    cr_assert_not(corral_restore_kept(s, corral__kept_entry_at(K, K->newest)->tag));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CORRUPT);
    corral_sched_destroy(s);
}

/* A stray write into the ring's header or links: a keep and a kept
   restore refuse the ring (CORRUPT, the words corral_verify gives)
   before they follow a link or write a byte, and change nothing. */
Test(misuse, a_damaged_kept_ring_is_refused_by_a_keep_and_a_kept_restore_before_they_follow_it)
{
    log_capture cap = {0};
    corral_sched *s = kept_wrapped(&cap);
    corral__kept *K = corral__kept_of(s);
    const corral__kept was = *K;
    const uint32_t newest_tag = corral__kept_entry_at(K, K->newest)->tag;
    const uint32_t oldest_next = corral__kept_entry_at(K, K->oldest)->next;
    const uint64_t h = corral_state_hash(s);
    for (int i = 0; i < 7; i++) {
        *K = was;
        corral__kept_entry_at(K, K->oldest)->next = oldest_next;
        const char *want = "the kept snapshots' ring runs past the block";
        switch (i) {
        case 0: K->bytes *= 4u; break;
        case 1: K->bytes += 8u; break;
        case 2: K->end = (uint32_t)K->bytes + 512u; want = "the kept snapshots' ring's newest entry is not where it says"; break;
        case 3: K->oldest += 8u; want = "a kept snapshot's link runs out of the ring"; break;
        case 4: K->count = 0; want = "the kept snapshots' ring's count and ends disagree"; break;
        case 5: corral__kept_entry_at(K, K->oldest)->next = (uint32_t)K->bytes; want = "a kept snapshot's link runs out of the ring"; break;
        case 6: K->count += 1u; want = "a kept snapshot's link runs out of the ring"; break;
        }
        cap.last = CORRAL_ERR_OK;
        cr_assert_not(corral_verify(s), "damage %d", i);
        cr_assert(strstr(cap.message, want) != NULL, "%d: %s", i, cap.message);
        cr_assert_eq(corral_snapshot_keep(s, 100u + (uint32_t)i), 0u, "damage %d", i);
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_CORRUPT);
        cr_assert(strstr(corral_last_error_detail(s), want), "%d: %s", i, corral_last_error_detail(s));
        cr_assert_not(corral_restore_kept(s, newest_tag), "damage %d", i);
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_CORRUPT);
        cr_assert_eq(corral_state_hash(s), h, "nothing changed");
    }
    *K = was;
    corral__kept_entry_at(K, K->oldest)->next = oldest_next;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_restore_kept(s, newest_tag), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* A stray write into the scheduler head saved in a kept snapshot (its
   counts place the snapshot's sections, its free lists' heads are the
   live scheduler's once restored): the kept restore checks the head's sum
   and its counts before it reads a section, and refuses. */
Test(misuse, a_kept_snapshot_whose_saved_head_is_damaged_is_refused_before_its_sections_are_read)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.kept_snapshots = 2;
    corral_sched *s = sched_of(d);
    for (int i = 0; i < 3; i++) start_tracer(s, i, 0);
    cr_assert_gt(corral_snapshot_keep(s, 7), 0u);
    corral_tick(s, 0.016f);
    corral__kept *K = corral__kept_of(s);
    unsigned char *saved = (unsigned char *)corral__kept_entry_at(K, K->newest) + CORRAL__KEPT_ENTRY + sizeof(corral__snap_head);
    corral_sched head;
    memcpy(&head, saved, sizeof head);
    const uint64_t h = corral_state_hash(s);
    for (int i = 0; i < 6; i++) {
        corral_sched bad = head;
        switch (i) {
        case 5: bad.arena.classes[0].empty_head = 0x00FFFFF0u; break; /* no range check reads it: the head's sum does */
        case 0: bad.arena.class_count = 200; break;
        case 1: bad.timers.heaps = 12; break;
        case 2: bad.types.type_count = 60000; break;
        case 3: bad.run.chunk_bump = bad.run.chunk_count + 1u; break;
        case 4: bad.nodes.wait_bump = UINT32_MAX; break;
        }
        memcpy(saved, &bad, sizeof bad);
        cr_assert(corral_verify(s), "the ring's structure holds: %s", corral_last_error_detail(s));
        cr_assert_not(corral_restore_kept(s, 7), "damage %d", i);
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SNAPSHOT);
        cr_assert(strstr(corral_last_error_detail(s), "kept snapshot 7 is damaged"), "%d: %s", i, corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), h, "nothing changed");
    }
    memcpy(saved, &head, sizeof head);
    cr_assert(corral_restore_kept(s, 7), "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

Test(misuse, a_bad_validation_value_in_the_desc_is_refused)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.validation = CORRAL_VALIDATION_COUNT;
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
}

/* a coroutine whose cleanup hook stops the next owner's group */
#define CHAINER_FIELDS(F) F(uint64_t, owner)
DECLARE_COROUTINE(chainer, CHAINER_FIELDS)
static void chainer_end(chainer_ctx *ctx, corral_end_reason why)
{
    if (why == CORRAL_END_GROUP_STOPPED) corral_stop_owner(g_sched, ctx->owner + 1);
}
DEFINE_COROUTINE_CLEANUP(chainer, chainer_end)
{
    (void)co;
    (void)ctx;
    return CORRAL_YIELD;
}

Test(misuse, group_operations_nested_deeper_than_8_from_cleanup_hooks_are_refused)
{
    corral_sched *s = report_sched(16, NULL);
    g_sched = s;
    corral_handle h[12];
    for (uint64_t i = 0; i < 12; i++) {
        corral_start_desc o = {.phase = CORRAL_PHASE_DEFAULT, .owner = i + 1, .tags = 0};
        h[i] = chainer_start_ex(s, (chainer_ctx){i + 1}, &o);
    }
    cr_assert_eq(corral_stop_owner(s, 1), 1u);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_GROUP_DEPTH);
    for (int i = 0; i < 12; i++)
        cr_assert_eq(corral_alive(s, h[i]), i >= 8, "owner %d: the 9th nested operation was refused", i + 1);
    cr_assert(corral_verify(s));
    cr_assert_eq(corral_stop_owner(s, 9), 1u, "owner 9 again; its hook takes 10, 11 and 12 along");
    cr_assert_eq(corral_live_count(s), 0u);
    corral_sched_destroy(s);
}
