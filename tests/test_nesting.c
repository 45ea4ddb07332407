/* test_nesting.c -- calls with typed results, depth, outcomes, structured
   cancellation, iterative chains on a small stack. */
#include "common.h"
#include "corral_internal.h"

#include <pthread.h>

static void setup(void)
{
    trace_reset();
    cleaned_reset();
}
TestSuite(nesting, .init = setup);

static corral_sched *nsched(uint32_t cap)
{
    corral_sched_desc d = one_class_desc(128, cap);
    d.max_side_records = 2 * cap; /* calls: a record for the caller, one for the child */
    return sched_of(d);
}

/* square: returns n*n after `frames` frames (0: in its first step) */
#define SQUARE_FIELDS(F) \
    F(int, n)            \
    F(int, frames)
DECLARE_COROUTINE_R(square, SQUARE_FIELDS, int)
DEFINE_COROUTINE(square)
{
    CORRAL_BEGIN(co);
    while (ctx->frames-- > 0) CORRAL_WAIT_FRAME(co);
    ctx->result = ctx->n * ctx->n;
    trace_push(1000 + ctx->n);
    CORRAL_END(co);
}

/* caller: calls square and records what it got, when, and how it ended */
#define CALLER_FIELDS(F)    \
    F(int, n)               \
    F(int, frames)          \
    F(int, got)             \
    F(int, outcome)         \
    F(int64_t, called_at)   \
    F(int64_t, resumed_at)
DECLARE_COROUTINE(caller, CALLER_FIELDS)
DEFINE_COROUTINE(caller)
{
    CORRAL_BEGIN(co);
    ctx->got = -1;
    ctx->called_at = (int64_t)corral_frame(corral_sched_of(co));
    CORRAL_CALL(co, square, (square_ctx){.n = ctx->n, .frames = ctx->frames}, &ctx->got);
    ctx->outcome = (int)corral_call_outcome(co);
    ctx->resumed_at = (int64_t)corral_frame(corral_sched_of(co));
    trace_push(ctx->n);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(nesting, a_caller_receives_the_childs_typed_result_in_its_own_context)
{
    corral_sched *s = nsched(8);
    corral_handle h = caller_start(s, (caller_ctx){.n = 7, .frames = 2});
    caller_ctx *c = caller_ctx_of(s, h);
    cr_assert_eq(c->got, -1);
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    cr_assert_eq(c->got, 49);
    cr_assert_eq(c->outcome, CORRAL_END_FINISHED);
    cr_assert_eq(square_type.result_size, sizeof(int));
    corral_sched_destroy(s);
}

Test(nesting, a_child_that_finishes_in_its_first_step_costs_the_caller_no_frame)
{
    corral_sched *s = nsched(8);
    corral_handle h = caller_start(s, (caller_ctx){.n = 3, .frames = 0});
    caller_ctx *c = caller_ctx_of(s, h);
    cr_assert_eq(c->got, 9, "done inside start");
    cr_assert_eq(c->resumed_at, c->called_at);
    int want[] = {1003, 3};
    expect_trace(want, 2);
    corral_sched_destroy(s);
}

Test(nesting, a_child_that_finishes_later_resumes_its_caller_in_the_same_tick)
{
    corral_sched *s = nsched(8);
    corral_handle h = caller_start(s, (caller_ctx){.n = 5, .frames = 3});
    for (int f = 0; f < 3; f++) corral_tick(s, 0.01f);
    caller_ctx *c = caller_ctx_of(s, h);
    cr_assert_eq(c->got, 25);
    cr_assert_eq(c->resumed_at, 3, "the frame the child finished in");
    int want[] = {1005, 5};
    expect_trace(want, 2);
    corral_sched_destroy(s);
}

/* deep: calls itself depth times; the innermost waits `frames` frames */
#define DEEP_FIELDS(F) \
    F(int, depth)      \
    F(int, frames)
DECLARE_COROUTINE_R(deep, DEEP_FIELDS, int)
DEFINE_COROUTINE(deep)
{
    CORRAL_BEGIN(co);
    if (ctx->depth > 0) {
        CORRAL_CALL(co, deep, (deep_ctx){.depth = ctx->depth - 1, .frames = ctx->frames}, &ctx->result);
        ctx->result += 1;
    } else {
        while (ctx->frames-- > 0) CORRAL_WAIT_FRAME(co);
        ctx->result = 0;
    }
    CORRAL_END(co);
}

#define ROOT_FIELDS(F) \
    F(int, depth)      \
    F(int, frames)     \
    F(int, got)
DECLARE_COROUTINE(root, ROOT_FIELDS)
DEFINE_COROUTINE(root)
{
    CORRAL_BEGIN(co);
    ctx->got = -1;
    CORRAL_CALL(co, deep, (deep_ctx){.depth = ctx->depth, .frames = ctx->frames}, &ctx->got);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(nesting, a_chain_of_calls_that_never_yields_completes_inside_start)
{
    corral_sched *s = nsched(2048);
    corral_handle h = root_start(s, (root_ctx){.depth = 1000, .frames = 0});
    cr_assert_eq(root_ctx_of(s, h)->got, 1000);
    cr_assert_eq(corral_live_count(s), 1);
    corral_sched_destroy(s);
}

Test(nesting, only_the_innermost_of_a_chain_is_stepped_whatever_its_depth)
{
    const int depths[3] = {1, 8, 1000};
    for (int k = 0; k < 3; k++) {
        corral_sched *s = nsched(2048);
        corral_handle h = root_start(s, (root_ctx){.depth = depths[k], .frames = 100});
        cr_assert_eq(corral_tick(s, 0.01f), 1, "depth %d: one step a tick", depths[k]);
        cr_assert_eq(corral_tick(s, 0.01f), 1);
        for (int f = 0; f < 98; f++) corral_tick(s, 0.01f);
        cr_assert_eq(root_ctx_of(s, h)->got, depths[k], "the chain unwound in the 100th tick");
        corral_sched_destroy(s);
    }
}

Test(nesting, stopping_the_child_resumes_the_caller_with_the_stopped_outcome)
{
    corral_sched *s = nsched(8);
    corral_handle h = caller_start(s, (caller_ctx){.n = 4, .frames = 100});
    corral_tick(s, 0.01f);
    /* the child is the other live coroutine: find it through its type */
    corral_handle child = {0, 0};
    for (uint32_t i = 0; i < 8; i++) {
        corral_handle probe = {i, 1};
        if (square_ctx_of(s, probe)) child = probe;
    }
    cr_assert_neq(child.gen, 0);
    cr_assert(corral_stop(s, child));
    corral_tick(s, 0.01f);
    caller_ctx *c = caller_ctx_of(s, h);
    cr_assert_eq(c->outcome, CORRAL_END_STOPPED);
    cr_assert_eq(c->got, -1, "no result from a stopped child");
    cr_assert_eq(c->resumed_at, 2, "stopped between ticks (after frame 1): resumes in the next run");
    corral_sched_destroy(s);
}

/* cleaned chain: each level is a `kept` that calls the next; all count cleanups */
#define KEPT_FIELDS(F) \
    F(int, id)         \
    F(int, depth)
DECLARE_COROUTINE(kept, KEPT_FIELDS)
static void kept_end(kept_ctx *ctx, corral_end_reason why)
{
    if (ctx->id >= 0 && ctx->id < CLEAN_MAX) g_cleanups[ctx->id][why]++;
}
DEFINE_COROUTINE_CLEANUP(kept, kept_end)
{
    CORRAL_BEGIN(co);
    if (ctx->depth > 0) CORRAL_CALL(co, kept, (kept_ctx){.id = ctx->id + 1, .depth = ctx->depth - 1});
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(nesting, stopping_a_caller_stops_the_chain_it_awaits_each_cleanup_once)
{
    corral_sched *s = nsched(16);
    corral_handle top = kept_start(s, (kept_ctx){.id = 0, .depth = 3});
    cr_assert_eq(corral_live_count(s), 4);
    corral_tick(s, 0.01f);
    cr_assert_eq(corral_tick(s, 0.01f), 1, "only the innermost runs");
    cr_assert(corral_stop(s, top));
    cr_assert_eq(corral_live_count(s), 0, "nothing orphaned");
    cr_assert_eq(g_cleanups[0][CORRAL_END_STOPPED], 1);
    for (int i = 1; i <= 3; i++) {
        cr_assert_eq(g_cleanups[i][CORRAL_END_PARENT_STOPPED], 1, "level %d", i);
        int total = 0;
        for (int r = 0; r < CORRAL_END_COUNT; r++) total += g_cleanups[i][r];
        cr_assert_eq(total, 1);
    }
    corral_sched_destroy(s);
}

Test(nesting, destroying_the_scheduler_ends_a_chain_with_destroyed_each_once)
{
    corral_sched *s = nsched(16);
    kept_start(s, (kept_ctx){.id = 0, .depth = 3});
    corral_sched_destroy(s);
    for (int i = 0; i <= 3; i++) {
        cr_assert_eq(g_cleanups[i][CORRAL_END_DESTROYED], 1, "level %d", i);
        cr_assert_eq(g_cleanups[i][CORRAL_END_PARENT_STOPPED] + g_cleanups[i][CORRAL_END_STOPPED], 0);
    }
}

/* a child that stops its own caller from inside its step */
#define REBEL_FIELDS(F) F(corral_handle, caller)
DECLARE_COROUTINE(rebel, REBEL_FIELDS)
static int g_rebel_why;
static void rebel_end(rebel_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_rebel_why = (int)why;
}
DEFINE_COROUTINE_CLEANUP(rebel, rebel_end)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co);
    corral_stop(corral_sched_of(co), ctx->caller); /* its own caller */
    trace_push(77);                                /* still safe: ends when this step returns */
    CORRAL_WAIT_FRAME(co);
    trace_push(78); /* never reached */
    CORRAL_END(co);
}
#define BOSSY_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(bossy, BOSSY_FIELDS)
DEFINE_COROUTINE(bossy)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL(co, rebel, (rebel_ctx){.caller = corral_self(co)});
    trace_push(99); /* never reached: it was stopped */
    CORRAL_END(co);
}

Test(nesting, a_child_stopping_its_own_caller_ends_after_its_step_with_parent_stopped)
{
    corral_sched *s = nsched(8);
    g_rebel_why = -1;
    bossy_start(s, (bossy_ctx){0});
    corral_tick(s, 0.01f);
    int want[] = {77};
    expect_trace(want, 1);
    cr_assert_eq(g_rebel_why, CORRAL_END_PARENT_STOPPED);
    cr_assert_eq(corral_live_count(s), 0);
    corral_sched_destroy(s);
}

Test(nesting, a_call_that_cannot_start_its_child_goes_on_with_outcome_none)
{
    corral_sched *s = nsched(1); /* room for the caller only */
    corral_handle h = caller_start(s, (caller_ctx){.n = 2, .frames = 0});
    caller_ctx *c = caller_ctx_of(s, h);
    cr_assert_eq(c->outcome, CORRAL_END_NONE);
    cr_assert_eq(c->got, -1);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    corral_sched_destroy(s);
}

/* a call whose result goes outside the caller's context, or (narrow) into
   a field of another size */
#define STRAY_FIELDS(F) F(int, rc) F(int, narrow) F(short, small)
DECLARE_COROUTINE(stray, STRAY_FIELDS)
static int g_outside;
DEFINE_COROUTINE(stray)
{
    square_ctx sc = {.n = 2};
    ctx->rc = (ctx->narrow ? corral_call(co, &square_type, &sc, sizeof sc, &ctx->small, sizeof ctx->small)
                           : corral_call(co, &square_type, &sc, sizeof sc, &g_outside, sizeof g_outside))
                  ? 1
                  : 0;
    return CORRAL_YIELD;
}

Test(nesting, a_result_destination_outside_the_callers_context_is_refused)
{
    corral_sched *s = nsched(8);
    corral_handle h = stray_start(s, (stray_ctx){.rc = -1});
    cr_assert_eq(stray_ctx_of(s, h)->rc, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    cr_assert(strstr(corral_last_error_detail(s), "the result's destination is not inside the waiting coroutine's "
                                                  "context: give a field (&ctx->v)") != NULL,
              "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_live_count(s), 1, "no child was started");
    corral_sched_destroy(s);
}

Test(nesting, a_result_destination_of_another_size_is_refused_giving_both_sizes)
{
    corral_sched *s = nsched(8);
    corral_handle h = stray_start(s, (stray_ctx){.rc = -1, .narrow = 1});
    cr_assert_eq(stray_ctx_of(s, h)->rc, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DEST);
    cr_assert(strstr(corral_last_error_detail(s), "a 2-byte destination for the 4-byte result of square") != NULL,
              "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_live_count(s), 1, "no child was started");
    corral_sched_destroy(s);
}

/* ---- 100,000 deep on a 64 KiB stack */
typedef struct deep_job {
    int completed_ok;
    int cancelled_ok;
} deep_job;

static void *run_deep(void *arg)
{
    deep_job *job = (deep_job *)arg;
    corral_sched *s = nsched(100002);
    if (!s) return NULL;
    corral_handle h = root_start(s, (root_ctx){.depth = 100000, .frames = 1});
    int built = corral_live_count(s) == 100002;
    corral_tick(s, 0.01f); /* the innermost finishes; 100,000 callers resume in this tick */
    root_ctx *r = root_ctx_of(s, h);
    job->completed_ok = built && r && r->got == 100000 && corral_live_count(s) == 1;
    corral_stop(s, h);
    h = root_start(s, (root_ctx){.depth = 100000, .frames = 1000});
    built = corral_live_count(s) == 100002;
    corral_stop(s, h); /* cancels the whole chain */
    job->cancelled_ok = built && corral_live_count(s) == 0;
    corral_sched_destroy(s);
    return NULL;
}

/* fn(arg) on a thread with a stack of `bytes` */
static void on_small_stack(void *(*fn)(void *), void *arg, size_t bytes)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    cr_assert_eq(pthread_attr_setstacksize(&attr, bytes), 0);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, &attr, fn, arg), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
}

Test(nesting, a_chain_100000_deep_completes_and_is_cancelled_on_a_64_kib_stack)
{
    deep_job job = {0, 0};
    on_small_stack(run_deep, &job, 64 * 1024);
    cr_assert(job.completed_ok, "completed iteratively");
    cr_assert(job.cancelled_ok, "cancelled iteratively");
}

/* ---- how deep a desc holds a chain: a call takes the child's slot and
   side record (API.md, "Nesting") */
Test(nesting, the_zeroed_desc_holds_a_chain_of_one_type_255_calls_deep_its_classs_slots)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d); /* 256 slots a class, 1024 side records */
    corral_sched *s = sched_of(d);
    corral_handle h = root_start(s, (root_ctx){.depth = 1000, .frames = 0});
    cr_assert_eq(root_ctx_of(s, h)->got, 255, "root and 255 deep levels fill the 32-byte class");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    cr_assert(strstr(corral_last_error_detail(s), "256 of 256 slots used"), "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(nesting, a_desc_with_100001_slots_and_side_records_holds_a_chain_100000_calls_deep)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    const uint32_t a = corral_slot_size_for(&root_type), b = corral_slot_size_for(&deep_type);
    d.classes[0].slot_size = a > b ? a : b; /* root and deep share one class */
    d.classes[0].capacity = 100001;
    d.max_side_records = 100001;
    corral_sched *s = sched_of(d);
    corral_handle h = root_start(s, (root_ctx){.depth = 99999, .frames = 1}); /* root + 100,000 children */
    cr_assert_eq(corral_live_count(s), 100001, "%s", corral_last_error_detail(s));
    cr_assert_eq(pools_of(s).side_records, 100001);
    corral_tick(s, 0.01f);
    cr_assert_eq(root_ctx_of(s, h)->got, 99999);
    cr_assert_eq(corral_live_count(s), 1);
    cr_assert_eq(pools_of(s).side_failures, 0);
    corral_sched_destroy(s);
}

/* hops: a chain whose levels cycle through five context sizes, so its
   slots spread over five of the zeroed desc's classes (5 x 256) and its
   side records (1024) run out first. The level whose call cannot start
   notes what it saw, waits a frame and ends. */
static int g_hop_level;
static int g_hop_outcome;
static corral_error g_hop_error;
static char g_hop_words[512];
static void hop_saw(corral_co *co, int level)
{
    g_hop_level = level;
    g_hop_outcome = (int)corral_call_outcome(co);
    g_hop_error = corral_last_error(corral_sched_of(co));
    snprintf(g_hop_words, sizeof g_hop_words, "%s", corral_last_error_detail(corral_sched_of(co)));
}
#define HOP_A_FIELDS(F) F(int, level)
#define HOP_B_FIELDS(F) HOP_A_FIELDS(F) F(int64_t, p0) F(int64_t, p1)
#define HOP_C_FIELDS(F) HOP_B_FIELDS(F) F(int64_t, p2) F(int64_t, p3)
#define HOP_D_FIELDS(F) HOP_C_FIELDS(F) F(int64_t, p4) F(int64_t, p5) F(int64_t, p6) F(int64_t, p7)
#define HOP_E_FIELDS(F) HOP_D_FIELDS(F) F(int64_t, p8) F(int64_t, p9) F(int64_t, p10) F(int64_t, p11)
DECLARE_COROUTINE(hop_a, HOP_A_FIELDS)
DECLARE_COROUTINE(hop_b, HOP_B_FIELDS)
DECLARE_COROUTINE(hop_c, HOP_C_FIELDS)
DECLARE_COROUTINE(hop_d, HOP_D_FIELDS)
DECLARE_COROUTINE(hop_e, HOP_E_FIELDS)
#define HOP_BODY(next)                                                                      \
    {                                                                                       \
        CORRAL_BEGIN(co);                                                                   \
        CORRAL_CALL(co, next, (next##_ctx){.level = ctx->level + 1});                       \
        if (corral_call_outcome(co) == CORRAL_END_NONE) {                                   \
            hop_saw(co, ctx->level);                                                        \
            CORRAL_WAIT_FRAME(co);                                                          \
        }                                                                                   \
        CORRAL_END(co);                                                                     \
    }
DEFINE_COROUTINE(hop_a) HOP_BODY(hop_b)
DEFINE_COROUTINE(hop_b) HOP_BODY(hop_c)
DEFINE_COROUTINE(hop_c) HOP_BODY(hop_d)
DEFINE_COROUTINE(hop_d) HOP_BODY(hop_e)
DEFINE_COROUTINE(hop_e) HOP_BODY(hop_a)
#undef HOP_BODY

Test(nesting, a_chain_past_the_zeroed_descs_side_records_ends_with_side_pool_exhausted_naming_the_field)
{
    log_capture lc = {0};
    corral_sched_desc d;
    memset(&d, 0, sizeof d); /* 256 slots a class, 1024 side records */
    d.logger = (corral_logger){capture_log, &lc};
    corral_sched *s = sched_of(d);
    corral_handle other = start_tracer(s, 7, 0);
    g_hop_level = g_hop_outcome = -1;
    corral_handle h = hop_a_start(s, (hop_a_ctx){.level = 0});
    cr_assert_eq(g_hop_level, 1023, "1024 coroutines, a side record each; the last one's call starts nothing");
    cr_assert_eq(g_hop_outcome, CORRAL_END_NONE);
    cr_assert_eq(g_hop_error, CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(strstr(g_hop_words, "corral_call in a step of 'hop_") &&
                  strstr(g_hop_words, "none for the called child: desc.max_side_records (1024) are all taken"),
              "%s", g_hop_words);
    cr_assert_eq(lc.count, 1, "the logger heard it once");
    cr_assert_eq(lc.last, CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(strstr(lc.message, "none for the called child"), "%s", lc.message);
    corral_pool_stats p = pools_of(s);
    cr_assert_eq(p.side_records, 1024);
    cr_assert_eq(p.side_failures, 1);
    cr_assert_eq(corral_live_count(s), 1025, "the chain and the tracer");
    cr_assert(corral_verify(s));
    corral_tick(s, 0.01f); /* the last level ends; the chain unwinds */
    cr_assert(!corral_alive(s, h));
    cr_assert_eq(corral_live_count(s), 1);
    cr_assert_eq(pools_of(s).side_records, 0, "every record came back");
    cr_assert_eq(tracer_ctx_of(s, other)->steps, 2, "the tracer ran on");
    cr_assert(corral_verify(s));
    corral_handle c = caller_start(s, (caller_ctx){.n = 3, .frames = 0});
    cr_assert_eq(caller_ctx_of(s, c)->got, 9, "a call starts again");
    corral_sched_destroy(s);
}

Test(nesting, calls_never_call_the_allocator)
{
    alloc_counter ac = {0};
    corral_sched_desc d = counted_one_class_desc(64, 64, &ac);
    corral_sched *s = corral_sched_create(&d);
    for (int i = 0; i < 1000; i++) {
        corral_handle h = root_start(s, (root_ctx){.depth = 20, .frames = 1});
        corral_tick(s, 0.01f);
        cr_assert_eq(root_ctx_of(s, h)->got, 20);
        corral_stop(s, h);
    }
    cr_assert_eq(ac.allocs, 1);
    corral_sched_destroy(s);
}

/* ---- interrupts: CORRAL_CALL_UNLESS */
#define SCENE_FIELDS(F) \
    F(int, frames)      \
    F(int, played)
DECLARE_COROUTINE_R(scene, SCENE_FIELDS, int)
static int g_scene_why;
static void scene_end(scene_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_scene_why = (int)why;
}
DEFINE_COROUTINE_CLEANUP(scene, scene_end)
{
    CORRAL_BEGIN(co);
    for (ctx->played = 0; ctx->played < ctx->frames; ctx->played++) CORRAL_WAIT_FRAME(co);
    ctx->result = ctx->played;
    CORRAL_END(co);
}

static bool flag_set(void *user) { return *(bool *)user; }

#define VIEWER_FIELDS(F)  \
    F(corral_wait, stop)  \
    F(int, frames)        \
    F(int, got)           \
    F(int, outcome)       \
    F(int64_t, at)
DECLARE_COROUTINE(viewer, VIEWER_FIELDS)
DEFINE_COROUTINE(viewer)
{
    CORRAL_BEGIN(co);
    ctx->got = -1;
    CORRAL_CALL_UNLESS(co, ctx->stop, scene, (scene_ctx){.frames = ctx->frames}, &ctx->got);
    ctx->outcome = (int)corral_call_outcome(co);
    ctx->at = (int64_t)corral_frame(corral_sched_of(co));
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

static corral_handle watch(corral_sched *s, corral_wait stop, int frames)
{
    viewer_ctx c;
    memset(&c, 0, sizeof c);
    c.stop = stop;
    c.frames = frames;
    return viewer_start(s, c);
}

Test(nesting, an_interrupt_ends_the_child_and_the_caller_goes_on_in_the_same_tick)
{
    corral_sched *s = nsched(8);
    bool skip = false;
    g_scene_why = -1;
    corral_handle h = watch(s, corral_wait_until(flag_set, &skip), 10);
    corral_tick(s, 0.01f);
    corral_tick(s, 0.01f);
    skip = true; /* the player presses skip */
    corral_tick(s, 0.01f);
    viewer_ctx *c = viewer_ctx_of(s, h);
    cr_assert_eq(c->outcome, CORRAL_END_INTERRUPTED);
    cr_assert_eq(c->got, -1, "no result from an interrupted child");
    cr_assert_eq(c->at, 3, "the caller went on in the tick the skip was seen");
    cr_assert_eq(g_scene_why, CORRAL_END_INTERRUPTED);
    cr_assert_eq(corral_live_count(s), 1);
    corral_sched_destroy(s);
}

Test(nesting, an_interrupt_that_never_fires_is_released_when_the_child_finishes)
{
    corral_sched *s = nsched(8);
    uint32_t free_before = s->nodes.wait_free_count;
    corral_signal sig = corral_signal_create(s);
    corral_handle h = watch(s, corral_wait_signal(sig), 2);
    for (int f = 0; f < 3; f++) corral_tick(s, 0.01f);
    viewer_ctx *c = viewer_ctx_of(s, h);
    cr_assert_eq(c->outcome, CORRAL_END_FINISHED);
    cr_assert_eq(c->got, 2);
    cr_assert_eq(s->nodes.wait_free_count, free_before, "the interrupt's node came back");
    cr_assert_eq(corral_signal_raise(s, sig), 0, "nobody waits on it any more");
    corral_sched_destroy(s);
}

Test(nesting, a_seconds_interrupt_is_a_timeout_on_the_call)
{
    corral_sched *s = nsched(8);
    corral_handle h = watch(s, corral_wait_seconds(0.5f), 1000);
    for (int f = 0; f < 10; f++) corral_tick(s, 0.1f);
    viewer_ctx *c = viewer_ctx_of(s, h);
    cr_assert_eq(c->outcome, CORRAL_END_INTERRUPTED);
    cr_assert_eq(c->at, 5, "woke at UPDATE of the frame 0.5 s elapsed, and went on at once");
    corral_sched_destroy(s);
}

Test(nesting, an_interrupt_already_over_does_not_start_the_child)
{
    corral_sched *s = nsched(8);
    bool skip = true;
    g_scene_why = -1;
    corral_handle h = watch(s, corral_wait_until(flag_set, &skip), 10);
    viewer_ctx *c = viewer_ctx_of(s, h);
    cr_assert_eq(c->outcome, CORRAL_END_INTERRUPTED);
    cr_assert_eq(g_scene_why, -1, "no scene was started");
    cr_assert_eq(corral_live_count(s), 1);
    corral_sched_destroy(s);
}

/* ---- a chain of generators, each started in the step of the one before
   (so each belongs to it: API.md, "Generators"), ended from its root */
#define LINK_FIELDS(F) F(int, left)
DECLARE_COROUTINE_R(link, LINK_FIELDS, int)
static corral_handle g_link_next; /* the newest link, for the test to pull */
static int g_link_ends[CORRAL_END_COUNT];
static int g_link_last;    /* the last cleanup's left: one more than the next one's */
static int g_link_misorder;
static void link_end(link_ctx *ctx, corral_end_reason why)
{
    g_link_ends[why]++;
    if (ctx->left != g_link_last - 1) g_link_misorder++;
    g_link_last = ctx->left;
}
DEFINE_COROUTINE_CLEANUP(link, link_end)
{
    CORRAL_BEGIN(co);
    if (ctx->left > 0) g_link_next = link_gen(corral_sched_of(co), (link_ctx){.left = ctx->left - 1});
    for (;;) CORRAL_YIELD_VALUE(co, ctx->left);
    CORRAL_END(co);
}
#define CHAIN_ROOT_FIELDS(F) F(int, links)
DECLARE_COROUTINE(chain_root, CHAIN_ROOT_FIELDS)
DEFINE_COROUTINE(chain_root)
{
    CORRAL_BEGIN(co);
    g_link_next = link_gen(corral_sched_of(co), (link_ctx){.left = ctx->links - 1});
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

static corral_sched *link_sched(uint32_t links)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    const uint32_t a = corral_slot_size_for(&chain_root_type), b = corral_slot_size_for(&link_type);
    d.classes[0].slot_size = a > b ? a : b;
    d.classes[0].capacity = links + 1;
    d.max_side_records = links + 1; /* a tie takes a record for each of the two */
    d.max_wait_nodes = links + 1;   /* and a wait node: the default is one per 32 slots */
    d.validation = CORRAL_VALIDATION_REPORT;
    return corral_sched_create(&d);
}

/* the root and `links` generators, each made by a pull of the one before
   from plain code (a pull on the C stack: one level at a time). false: it
   could not be built */
static bool link_build(corral_sched *s, int links, corral_handle *root)
{
    memset(g_link_ends, 0, sizeof g_link_ends);
    g_link_last = links;
    g_link_misorder = 0;
    g_link_next = (corral_handle){0, 0};
    *root = chain_root_start(s, (chain_root_ctx){.links = links});
    for (int k = 0; k < links; k++) {
        int v = -1;
        if (!link_next(s, g_link_next, &v) || v != links - 1 - k) return false;
    }
    return corral_live_count(s) == (uint32_t)links + 1;
}

Test(nesting, a_chain_of_generators_ends_with_its_root_each_before_the_ones_it_owns)
{
    corral_sched *s = link_sched(5);
    cr_assert_not_null(s);
    corral_handle root;
    cr_assert(link_build(s, 5, &root));
    cr_assert(corral_verify(s));
    cr_assert(corral_stop(s, root));
    cr_assert_eq(g_link_ends[CORRAL_END_PARENT_STOPPED], 5);
    cr_assert_eq(g_link_misorder, 0, "each link's cleanup before the links it owns (the last ran: %d)", g_link_last);
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert_eq(pools_of(s).wait_nodes, 0, "every tie's node back");
    cr_assert_eq(pools_of(s).side_records, 0);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

typedef struct link_job {
    int built, stopped_ok, destroyed_ok;
    int ends, misorder;
} link_job;

static void *run_links(void *arg)
{
    link_job *job = (link_job *)arg;
    const int links = 100000;
    corral_sched *s = link_sched((uint32_t)links);
    if (!s) return NULL;
    corral_handle root;
    job->built = link_build(s, links, &root);
    corral_stop(s, root); /* ends the whole chain */
    corral_pool_stats p;
    corral_stats_pools(s, &p);
    job->ends = g_link_ends[CORRAL_END_PARENT_STOPPED];
    job->misorder = g_link_misorder;
    job->stopped_ok = job->ends == links && corral_live_count(s) == 0 && p.wait_nodes == 0 && p.side_records == 0 &&
                      corral_verify(s);
    job->built = job->built && link_build(s, links, &root);
    corral_sched_destroy(s); /* and again, as the scheduler goes */
    job->destroyed_ok = g_link_ends[CORRAL_END_DESTROYED] == links;
    return NULL;
}

Test(nesting, a_chain_of_100000_generators_each_owning_the_next_ends_with_its_root_on_a_64_kib_stack)
{
    link_job job = {0, 0, 0, 0, 0};
    on_small_stack(run_links, &job, 64 * 1024);
    cr_assert(job.built, "the root and 100,000 links");
    cr_assert(job.stopped_ok, "stopping the root ended every link once, PARENT_STOPPED (%d), all slots free", job.ends);
    cr_assert_eq(job.misorder, 0);
    cr_assert(job.destroyed_ok, "destroying the scheduler ended every link, DESTROYED");
}
