/*
    jobs -- a tiny job system: worker threads "load" assets and complete
    the futures gameplay coroutines wait on, with corral_future_post, the
    call any thread may make. The game thread owns the scheduler.

    Each asset has the frame it must be ready by (a streaming deadline):
    before ticking that frame the game thread waits until its job is done,
    so the output is the same whatever the workers' timing (a golden test
    checks it). Workers take jobs by an atomic counter and post when done;
    the posts are applied at the start of the game thread's next frame, in
    order per worker, and the waiting coroutines resume in that frame.

    Threads come from a small wrapper: Win32 threads on Windows, pthreads
    elsewhere, and none (jobs run where they are submitted) on targets
    without threads (wasm32 here).
*/
#include <corral/corral.h>

#include <stdio.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
typedef HANDLE job_thread;
typedef volatile LONG job_counter;
static LONG job_take(job_counter *c) { return InterlockedIncrement(c) - 1; }
static LONG job_read(job_counter *c) { return InterlockedCompareExchange(c, 0, 0); }
static void job_set(job_counter *c, LONG v) { InterlockedExchange(c, v); }
#define JOB_THREADS 1
#elif defined(__EMSCRIPTEN__) || defined(__TINYC__)
typedef int job_thread;
typedef long job_counter;
static long job_take(job_counter *c) { return (*c)++; }
static long job_read(job_counter *c) { return *c; }
static void job_set(job_counter *c, long v) { *c = v; }
#define JOB_THREADS 0
#else
#include <pthread.h>
#include <stdatomic.h>
typedef pthread_t job_thread;
typedef atomic_long job_counter;
static long job_take(job_counter *c) { return atomic_fetch_add(c, 1); }
static long job_read(job_counter *c) { return atomic_load(c); }
static void job_set(job_counter *c, long v) { atomic_store(c, v); }
#define JOB_THREADS 1
#endif

/* ---- the jobs: load an asset, post its future */
typedef struct asset {
    const char *name;
    int ready_by; /* the frame it must be loaded for */
    int size;
    corral_future loaded;
    job_counter done;
} asset;

static asset g_assets[] = {
    {"ogre.mesh", 3, 9000, {0, 0}, 0},   {"ogre.skin", 3, 4000, {0, 0}, 0},
    {"cave.level", 5, 52000, {0, 0}, 0}, {"drums.ogg", 8, 12000, {0, 0}, 0},
    {"torch.fx", 8, 700, {0, 0}, 0},     {"boss.mesh", 12, 30000, {0, 0}, 0},
};
#define ASSETS ((int)(sizeof g_assets / sizeof g_assets[0]))
#if JOB_THREADS
static job_counter g_next_job;  /* the next job a worker takes */
#endif
static job_counter g_released;  /* jobs the game thread has asked for so far */
static job_counter g_loaded;    /* jobs done */
static corral_sched *g_sched;

/* what loading costs: a checksum over the asset's "bytes" */
static corral_value load(const asset *a)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < a->size * 50; i++) h = (h ^ (uint32_t)(i * 31 + a->size)) * 16777619u;
    corral_value v;
    v.i = (int64_t)a->size << 32 | (h & 0xFFFFu);
    return v;
}

static void run_job(long k)
{
    asset *a = &g_assets[k];
    corral_value v = load(a);
    if (!JOB_THREADS) /* on the game thread itself: complete it here (the same frame) */
        corral_future_complete(g_sched, a->loaded, v);
    else
        while (!corral_future_post(g_sched, a->loaded, v)) {
        } /* full: the game thread makes room at its next frame */
    job_take(&g_loaded);
    job_set(&a->done, 1);
}

#if JOB_THREADS
static void run_jobs(void)
{
    for (long k; (k = job_take(&g_next_job)) < ASSETS;) {
        while (job_read(&g_released) <= k) {
        } /* not asked for yet */
        run_job(k);
    }
}
#endif

#if JOB_THREADS && defined(_WIN32)
static DWORD WINAPI worker(LPVOID arg)
{
    (void)arg;
    run_jobs();
    return 0;
}
static void start_worker(job_thread *t) { *t = CreateThread(NULL, 0, worker, NULL, 0, NULL); }
static void join_worker(job_thread t)
{
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}
#elif JOB_THREADS
static void *worker(void *arg)
{
    (void)arg;
    run_jobs();
    return NULL;
}
static void start_worker(job_thread *t) { pthread_create(t, NULL, worker, NULL); }
static void join_worker(job_thread t) { pthread_join(t, NULL); }
#else
static void start_worker(job_thread *t) { *t = 0; }
static void join_worker(job_thread t) { (void)t; }
#endif

/* ask for job k (the assets are in deadline order): a worker takes it, or,
   without threads, it runs here */
static void release(long k)
{
    job_set(&g_released, k + 1);
    if (!JOB_THREADS) run_job(k);
}

/* ---- gameplay: coroutines that wait for their assets */
#define SPAWN_FIELDS(F) F(const char *, what) F(int, a) F(int, b)
DECLARE_COROUTINE(spawn, SPAWN_FIELDS)
DEFINE_COROUTINE(spawn)
{
    corral_sched *s = corral_sched_of(co);
    CORRAL_BEGIN(co);
    printf("frame %2llu: %s waits for %s%s%s\n", (unsigned long long)corral_frame(s), ctx->what,
           g_assets[ctx->a].name, ctx->b >= 0 ? " and " : "", ctx->b >= 0 ? g_assets[ctx->b].name : "");
    if (ctx->b < 0) {
        CORRAL_WAIT_FUTURE(co, g_assets[ctx->a].loaded);
    } else {
        static corral_wait both[2];
        both[0] = corral_wait_future(g_assets[ctx->a].loaded);
        both[1] = corral_wait_future(g_assets[ctx->b].loaded);
        CORRAL_AWAIT(co, corral_wait_all(both, 2));
    }
    {
        corral_value v = {0};
        corral_future_value(s, g_assets[ctx->a].loaded, &v);
        printf("frame %2llu: %s is in (%s: %lld bytes, checksum %04llx)\n", (unsigned long long)corral_frame(s),
               ctx->what, g_assets[ctx->a].name, (long long)(v.i >> 32), (unsigned long long)(v.i & 0xFFFF));
    }
    CORRAL_END(co);
}

int main(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.max_posts = 4; /* small, so that workers meet a full queue now and then */
    g_sched = corral_sched_create(&d);
    if (!g_sched) return 2;
    for (int i = 0; i < ASSETS; i++) g_assets[i].loaded = corral_future_create(g_sched);
    spawn_start(g_sched, (spawn_ctx){"the ogre", 0, 1});
    spawn_start(g_sched, (spawn_ctx){"the cave", 2, -1});
    spawn_start(g_sched, (spawn_ctx){"the music", 3, 4});
    spawn_start(g_sched, (spawn_ctx){"the boss", 5, -1});
    job_thread t[3];
    for (int i = 0; i < 3; i++) start_worker(&t[i]);
    for (int f = 1; f <= 14; f++) {
        /* streaming: what frame f needs is asked for after frame f - 1 and
           loaded before frame f starts, so its post applies in frame f */
        for (int i = 0; i < ASSETS; i++)
            if (g_assets[i].ready_by == f) release(i);
        for (int i = 0; i < ASSETS; i++)
            while (g_assets[i].ready_by == f && !job_read(&g_assets[i].done)) {
            }
        corral_tick(g_sched, 1.0f / 60.0f);
    }
    job_set(&g_released, ASSETS + 3); /* the workers see the end */
    for (int i = 0; i < 3; i++) join_worker(t[i]);
    corral_pool_stats ps;
    corral_stats_pools(g_sched, &ps);
    printf("%ld assets loaded, %llu completions dropped; %u coroutines still waiting\n", (long)job_read(&g_loaded),
           (unsigned long long)ps.posts_stale, corral_live_count(g_sched));
    corral_sched_destroy(g_sched);
    return 0;
}
