/*
    test_threads.c -- completions and raises posted from other threads
    (corral_future_post, corral_signal_post): applied at the owner's next
    frame, in order per thread, each exactly once, never to a released
    future; a full queue refuses; a scheduler without the posts part
    refuses in the posting thread's record; the stress of four producers posting 10^6
    completions while the owner ticks; schedulers on several threads apart;
    and, in debug builds, a call from a thread that does not own the
    scheduler caught and named. CI runs this file under ThreadSanitizer.
*/
#include "common.h"

#include <pthread.h>

#define FW_FIELDS(F) F(corral_future, f) F(int64_t, got) F(int32_t, step)
DECLARE_COROUTINE(fwait, FW_FIELDS)
DEFINE_COROUTINE(fwait)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FUTURE(co, ctx->f);
    {
        corral_value v = {0};
        corral_future_value(corral_sched_of(co), ctx->f, &v);
        ctx->got = v.i;
        ctx->step = (int32_t)corral_frame(corral_sched_of(co));
    }
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(threads, a_post_applies_at_the_owners_next_frame_and_its_waiter_resumes_in_it)
{
    corral_sched *s = sched_of(one_class_desc(64, 16));
    corral_future f = corral_future_create(s);
    corral_handle h = fwait_start(s, (fwait_ctx){f, 0, 0});
    corral_signal sig = corral_signal_create(s);
    corral_tick(s, 0.016f);
    cr_assert(corral_future_post(s, f, (corral_value){.i = 77}));
    cr_assert(corral_signal_post(s, sig));
    cr_assert_not(corral_future_done(s, f), "not before the owner's next frame");
    corral_tick(s, 0.016f);
    cr_assert(corral_future_done(s, f));
    fwait_ctx *c = fwait_ctx_of(s, h);
    cr_assert_eq(c->got, 77);
    cr_assert_eq(c->step, 2, "it resumed in the UPDATE of the frame the post was applied in");
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.posts_applied, 2);
    cr_assert_eq(ps.posts_stale, 0);
    cr_assert_eq(ps.posts_capacity, 256);
    corral_sched_destroy(s);
}

/* from another thread: a scheduler without corral_part_posts refuses the
   post in that thread's record (NO_PART, naming the part; nothing queued,
   the owner's record untouched); with the part the post is applied */
typedef struct post_try {
    corral_sched *s;
    corral_future f;
    bool posted;
    corral_error err;
    char detail[160];
} post_try;
static void *post_from_thread(void *arg)
{
    post_try *t = arg;
    t->posted = corral_future_post(t->s, t->f, (corral_value){.i = 5});
    t->err = corral_last_error(NULL);
    snprintf(t->detail, sizeof t->detail, "%s", corral_last_error_detail(NULL));
    return NULL;
}
Test(threads, another_threads_post_is_refused_in_its_own_record_without_the_posts_part)
{
    for (int with = 0; with < 2; with++) {
        const corral_part *parts[] = {&corral_part_futures, with ? &corral_part_posts : NULL, NULL};
        corral_sched_desc d = one_class_desc(64, 16);
        d.parts = parts;
        d.validation = CORRAL_VALIDATION_REPORT; /* FATAL would abort the posting thread */
        log_capture cap = {0};
        d.logger.fn = capture_log; /* the owner's: never called from the posting thread */
        d.logger.user_data = &cap;
        corral_sched *s = corral_sched_create_min(&d);
        cr_assert_not_null(s);
        corral_future f = corral_future_create(s);
        corral_handle h = fwait_start(s, (fwait_ctx){f, 0, 0});
        corral_tick(s, 0.016f);
        post_try t = {.s = s, .f = f};
        pthread_t th;
        cr_assert_eq(pthread_create(&th, NULL, post_from_thread, &t), 0);
        pthread_join(th, NULL);
        corral_tick(s, 0.016f);
        if (!with) {
            cr_assert_not(t.posted);
            cr_assert_eq(t.err, CORRAL_ERR_NO_PART, "%s", corral_error_str(t.err));
            cr_assert(strstr(t.detail, "corral_part_posts"), "'%s'", t.detail);
            cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK, "the owner's record is the owner's");
            cr_assert_eq(cap.count, 0, "the owner's logger was called for another thread's post: %s", cap.message);
            cr_assert_not(corral_future_done(s, f));
        } else {
            cr_assert(t.posted, "%s", t.detail);
            cr_assert(corral_future_done(s, f));
            cr_assert_eq(fwait_ctx_of(s, h)->got, 5);
        }
        corral_sched_destroy(s);
    }
}

/* under FATAL a post without the posts part prints its words and aborts
   the posting thread (a child process, which the abort takes down; the
   post is made on its one thread: the path is the same from any thread,
   and a child of a threaded process may not start threads under TSan) */
static void post_without_its_part(void *arg)
{
    (void)arg;
    const corral_part *parts[] = {&corral_part_futures, NULL};
    corral_sched_desc d = one_class_desc(64, 16);
    d.parts = parts;
    d.validation = CORRAL_VALIDATION_FATAL;
    corral_sched *s = corral_sched_create_min(&d);
    if (!s) return;
    post_try t = {.s = s, .f = corral_future_create(s)};
    post_from_thread(&t);
}
Test(threads, a_post_without_the_posts_part_aborts_the_posting_thread_under_fatal_with_its_words)
{
    char words[512];
    cr_assert(child_aborts(post_without_its_part, NULL, words, sizeof words), "no abort; stderr: '%s'", words);
    cr_assert(strstr(words, "corral: fatal: corral_future_post"), "'%s'", words);
    cr_assert(strstr(words, "corral_part_posts"), "'%s'", words);
}

Test(threads, a_post_for_a_released_or_completed_future_is_dropped_never_applied_to_another)
{
    corral_sched *s = sched_of(one_class_desc(64, 16));
    corral_future f = corral_future_create(s);
    cr_assert(corral_future_post(s, f, (corral_value){.i = 1}));
    cr_assert(corral_future_release(s, f));
    corral_future g = corral_future_create(s); /* the same index, another generation */
    cr_assert_eq(g.index, f.index);
    corral_future d = corral_future_create(s);
    cr_assert(corral_future_complete(s, d, (corral_value){.i = 5}));
    cr_assert(corral_future_post(s, d, (corral_value){.i = 6}));
    corral_tick(s, 0.016f);
    cr_assert_not(corral_future_done(s, g), "the new future is untouched");
    corral_value v;
    cr_assert(corral_future_value(s, d, &v));
    cr_assert_eq(v.i, 5, "a done future keeps its first value");
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.posts_stale, 2);
    cr_assert_eq(ps.posts_applied, 0);
    corral_sched_destroy(s);
}

Test(threads, a_full_queue_refuses_the_post_and_it_can_be_retried)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.max_posts = 4;
    corral_sched *s = sched_of(d);
    corral_signal sig = corral_signal_create(s);
    for (int i = 0; i < 4; i++) cr_assert(corral_signal_post(s, sig));
    cr_assert_not(corral_signal_post(s, sig));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_POST_QUEUE_FULL, "the poster's own thread error");
    corral_tick(s, 0.016f);
    cr_assert(corral_signal_post(s, sig), "room again after the owner's frame");
    corral_pool_stats ps;
    corral_stats_pools(s, &ps);
    cr_assert_eq(ps.posts_full, 1);
    cr_assert_eq(ps.posts_applied, 4);
    corral_sched_destroy(s);
}

Test(threads, posts_to_a_destroyed_scheduler_are_refused)
{
    corral_sched_desc d = one_class_desc(64, 16);
    size_t size = corral_sched_memory_size(&d);
    void *mem = malloc(size);
    d.memory = mem;
    d.memory_size = size;
    corral_sched *s = corral_sched_create(&d);
    corral_signal sig = corral_signal_create(s);
    corral_sched_destroy(s);
    cr_assert_not(corral_signal_post(s, sig));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_DESTROYING);
    free(mem);
}

/* ---- stress: 4 producers x 250,000 completions while the owner ticks */
#define PRODUCERS 4
#define PER_PRODUCER 250000
static corral_future *g_futures; /* [PRODUCERS][PER_PRODUCER], written before the threads start */
static corral_sched *g_sched;
static _Atomic int g_done_producers;
static _Atomic long g_full_retries;

static void *producer(void *arg)
{
    int p = (int)(intptr_t)arg;
    for (int i = 0; i < PER_PRODUCER; i++) {
        corral_value v = {.i = (int64_t)p << 32 | i};
        while (!corral_future_post(g_sched, g_futures[p * PER_PRODUCER + i], v)) g_full_retries++;
    }
    g_done_producers++;
    return NULL;
}

Test(threads, four_producers_post_a_million_completions_each_once_in_order, .timeout = 600)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.max_futures = PRODUCERS * PER_PRODUCER;
    d.max_posts = 1024;
    g_sched = sched_of(d);
    g_futures = malloc(sizeof *g_futures * PRODUCERS * PER_PRODUCER);
    for (int i = 0; i < PRODUCERS * PER_PRODUCER; i++) g_futures[i] = corral_future_create(g_sched);
    pthread_t t[PRODUCERS];
    for (int p = 0; p < PRODUCERS; p++) pthread_create(&t[p], NULL, producer, (void *)(intptr_t)p);
    int next[PRODUCERS] = {0};
    long ticks = 0;
    for (;;) {
        int finished = g_done_producers;
        corral_tick(g_sched, 0.016f);
        ticks++;
        /* what is done for each producer is a prefix of its posts, in order */
        for (int p = 0; p < PRODUCERS; p++) {
            corral_value v;
            while (next[p] < PER_PRODUCER && corral_future_value(g_sched, g_futures[p * PER_PRODUCER + next[p]], &v)) {
                cr_assert_eq(v.i, (int64_t)p << 32 | next[p], "producer %d, post %d", p, next[p]);
                next[p]++;
            }
            if (next[p] < PER_PRODUCER - 1)
                cr_assert_not(corral_future_done(g_sched, g_futures[p * PER_PRODUCER + next[p] + 1]),
                              "producer %d: a post applied before an earlier one", p);
        }
        if (finished == PRODUCERS) {
            corral_tick(g_sched, 0.016f); /* posted before they finished: applied now */
            break;
        }
    }
    for (int p = 0; p < PRODUCERS; p++) pthread_join(t[p], NULL);
    corral_value v;
    for (int p = 0; p < PRODUCERS; p++) {
        while (next[p] < PER_PRODUCER && corral_future_value(g_sched, g_futures[p * PER_PRODUCER + next[p]], &v)) next[p]++;
        cr_assert_eq(next[p], PER_PRODUCER, "producer %d: %d of its completions delivered", p, next[p]);
    }
    corral_pool_stats ps;
    corral_stats_pools(g_sched, &ps);
    cr_assert_eq(ps.posts_applied, (uint64_t)PRODUCERS * PER_PRODUCER, "each exactly once");
    cr_assert_eq(ps.posts_stale, 0);
    cr_log_info("stress: %llu completions over %ld ticks, %ld retries on a full queue",
                (unsigned long long)ps.posts_applied, ticks, (long)g_full_retries);
    free(g_futures);
    corral_sched_destroy(g_sched);
}

/* ---- schedulers on several threads share nothing */
#define TCOUNT_FIELDS(F) F(int, left)
DECLARE_COROUTINE(tcount, TCOUNT_FIELDS)
DEFINE_COROUTINE(tcount) { return --ctx->left > 0 ? CORRAL_YIELD : CORRAL_STOP; }

static void *own_game(void *arg)
{
    (void)arg;
    corral_sched *s = corral_sched_create(&(corral_sched_desc){.classes = {{64, 256}}});
    long sum = 0;
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 20; i++) tcount_start(s, (tcount_ctx){1 + i % 4});
        corral_signal sig = corral_signal_create(s);
        corral_tick(s, 0.016f);
        corral_signal_raise(s, sig);
        corral_signal_destroy(s, sig);
        sum += corral_live_count(s);
        corral_last_error(NULL);
    }
    corral_sched_destroy(s);
    return (void *)(intptr_t)sum;
}

Test(threads, schedulers_on_four_threads_are_independent)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, own_game, NULL);
    void *r[4];
    for (int i = 0; i < 4; i++) pthread_join(t[i], &r[i]);
    for (int i = 1; i < 4; i++) cr_assert_eq(r[i], r[0], "the same game gives the same counts on every thread");
}

/* ---- a call from a thread that does not own the scheduler */
static corral_sched *g_owned;
static corral_error g_seen;
static void *intruder(void *arg)
{
    (void)arg;
    corral_handle h = tracer_start(g_owned, (tracer_ctx){1, 0, 0});
    g_seen = h.gen ? CORRAL_ERR_OK : corral_last_error(NULL);
    return NULL;
}

Test(threads, a_call_from_another_thread_is_caught_in_debug_builds)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 16);
    d.validation = CORRAL_VALIDATION_REPORT;
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    g_owned = corral_sched_create(&d);
    pthread_t t;
    pthread_create(&t, NULL, intruder, NULL);
    pthread_join(t, NULL);
#ifndef NDEBUG
    cr_assert_eq(g_seen, CORRAL_ERR_WRONG_THREAD);
    cr_assert(strstr(cap.message, "corral_start") != NULL, "the message names the call: %s", cap.message);
    cr_assert_eq(corral_live_count(g_owned), 0, "refused: nothing started");
#else
    cr_assert_eq(g_seen, CORRAL_ERR_OK, "release builds do not check the thread (docs/API.md, Threads)");
#endif
    corral_sched_destroy(g_owned);
}

/* ---- the same from another thread while a load runs: the thread is
   told it is not the owner, and the scheduler's error state is not its
   to write (the load's cleanup hook waits for it on the owning thread) */
static void *mid_load_intruder(void *arg)
{
    (void)arg;
    corral_live_count(g_owned);
    g_seen = corral_last_error(NULL);
    return NULL;
}
static corral_error g_owner_saw;
static void mid_load_cleanup(void *ctx, corral_end_reason why)
{
    (void)ctx;
    if (why != CORRAL_END_DESTROYED || !g_owned) return;
    const corral_error before = corral_last_error(g_owned);
    pthread_t t;
    pthread_create(&t, NULL, mid_load_intruder, NULL);
    pthread_join(t, NULL);
    g_owner_saw = corral_last_error(g_owned) == before ? CORRAL_ERR_OK : corral_last_error(g_owned);
}
#define LOADED_FIELDS(F) F(int, n)
#define LOADED_POINTS(P) P(idle)
DECLARE_COROUTINE(loaded, LOADED_FIELDS)
DEFINE_COROUTINE_CLEANUP_AT(loaded, mid_load_cleanup, LOADED_POINTS)
{
    CORRAL_BEGIN_AT(co, LOADED_POINTS);
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    (void)ctx;
    CORRAL_END(co);
}
#define LOADED_TYPES(X) X(loaded, 1, 0)
CORRAL_DECLARE_REGISTRY(loaded, LOADED_TYPES)
CORRAL_DEFINE_REGISTRY(loaded, LOADED_TYPES);

Test(threads, a_call_from_another_thread_during_a_load_is_told_the_thread_not_the_load)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.validation = CORRAL_VALIDATION_REPORT;
    d.registry = &loaded_registry;
    corral_sched *a = corral_sched_create(&d);
    static unsigned char buf[4096];
    const size_t n = corral_save(a, buf, sizeof buf); /* an empty game */
    cr_assert_gt(n, 0);
    corral_sched_destroy(a);
    g_owned = corral_sched_create(&d);
    loaded_start(g_owned, (loaded_ctx){0}); /* the load ends it: its cleanup runs mid-load */
    g_seen = CORRAL_ERR_OK;
    cr_assert(corral_load(g_owned, buf, n), "%s", corral_last_error_detail(g_owned));
#ifndef NDEBUG
    cr_assert_eq(g_seen, CORRAL_ERR_WRONG_THREAD, "the other thread is told: %s", corral_error_str(g_seen));
    cr_assert_eq(g_owner_saw, CORRAL_ERR_OK, "the scheduler's error state was not written from it");
#endif
    corral_sched *s = g_owned;
    g_owned = NULL;
    corral_sched_destroy(s);
}
