/*
    common.h -- coroutine types and helpers shared by the tests.
    Include it in exactly one .c file per test executable (it defines).
*/
#ifndef CORRAL_TESTS_COMMON_H
#define CORRAL_TESTS_COMMON_H

#include <corral/corral.h>
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- a save made in a child process: make(out, cap) builds a game there
   and returns its corral_save size; the bytes come back into buf. The
   test's own process has then never used what the child did (a module's
   kinds arrive only with a load). Returns the save's size. */
static inline size_t save_in_child(size_t (*make)(unsigned char *out, size_t cap), unsigned char *buf, size_t cap)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        size_t n = make(buf, cap);
        _exit(n > 0 && write(fd[1], buf, n) == (ssize_t)n ? 0 : 1);
    }
    close(fd[1]);
    size_t n = 0;
    for (ssize_t r; n < cap && (r = read(fd[0], buf + n, cap - n)) > 0;) n += (size_t)r;
    close(fd[0]);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0 && n > 0, "the child saved");
    return n;
}

/* ---- a trace of what ran, in order */
#define TRACE_MAX 4096
#define TEST_UNUSED __attribute__((unused))
static TEST_UNUSED int g_trace[TRACE_MAX];
static TEST_UNUSED int g_trace_len;
static inline void trace_reset(void) { g_trace_len = 0; }
static inline void trace_push(int v)
{
    if (g_trace_len < TRACE_MAX) g_trace[g_trace_len++] = v;
}
static inline void expect_trace(const int *want, int n)
{
    cr_assert_eq(g_trace_len, n, "trace has %d entries, expected %d", g_trace_len, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(g_trace[i], want[i], "trace[%d] = %d, expected %d", i, g_trace[i], want[i]);
}

/* ---- tracer: pushes its id every step; stops after `stop_after` steps
   (0 = never) */
#define TRACER_FIELDS(F) \
    F(int, id)           \
    F(int, steps)        \
    F(int, stop_after)
DECLARE_COROUTINE(tracer, TRACER_FIELDS)
DEFINE_COROUTINE(tracer)
{
    trace_push(ctx->id);
    ctx->steps++;
    return ctx->stop_after && ctx->steps >= ctx->stop_after ? CORRAL_STOP : CORRAL_YIELD;
}

/* ---- actor: runs a callback each step, which decides */
struct actor_ctx;
typedef corral_result (*actor_fn)(corral_co *co, struct actor_ctx *ctx);
#define ACTOR_FIELDS(F)     \
    F(actor_fn, fn)         \
    F(int, id)              \
    F(int, steps)           \
    F(corral_handle, other) \
    F(void *, user)
DECLARE_COROUTINE(actor, ACTOR_FIELDS)
DEFINE_COROUTINE(actor)
{
    ctx->steps++;
    trace_push(ctx->id);
    return ctx->fn ? ctx->fn(co, ctx) : CORRAL_YIELD;
}

/* ---- cleaned: counts its cleanups per reason, by id */
#define CLEAN_MAX 64
static TEST_UNUSED int g_cleanups[CLEAN_MAX][CORRAL_END_COUNT];
static inline void cleaned_reset(void) { memset(g_cleanups, 0, sizeof g_cleanups); }
#define CLEANED_FIELDS(F) \
    F(int, id)            \
    F(int, stop_after)    \
    F(int, steps)
DECLARE_COROUTINE(cleaned, CLEANED_FIELDS)
static void cleaned_on_end(cleaned_ctx *ctx, corral_end_reason why)
{
    if (ctx->id >= 0 && ctx->id < CLEAN_MAX) g_cleanups[ctx->id][why]++;
}
DEFINE_COROUTINE_CLEANUP(cleaned, cleaned_on_end)
{
    ctx->steps++;
    return ctx->stop_after && ctx->steps >= ctx->stop_after ? CORRAL_STOP : CORRAL_YIELD;
}

/* ---- counting allocator */
typedef struct alloc_counter {
    long allocs, frees;
    size_t bytes;
} alloc_counter;
static inline void *counting_alloc(size_t n, void *user)
{
    alloc_counter *c = (alloc_counter *)user;
    c->allocs++;
    c->bytes += n;
    return malloc(n);
}
static inline void counting_free(void *p, void *user)
{
    ((alloc_counter *)user)->frees++;
    free(p);
}

/* ---- log capture */
typedef struct log_capture {
    int count;
    corral_error last;
    corral_log_level level;
    const corral_sched *sched;
    char message[256]; /* the last message */
} log_capture;
static inline void capture_log(corral_log_level level, corral_error item, const char *message,
                        const corral_sched *sched, void *user)
{
    log_capture *c = (log_capture *)user;
    snprintf(c->message, sizeof c->message, "%s", message);
    c->count++;
    c->last = item;
    c->level = level;
    c->sched = sched;
}

/* a desc with one class of `cap` slots of `slot` bytes */
static inline corral_sched_desc one_class_desc(uint32_t slot, uint32_t cap)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = slot;
    d.classes[0].capacity = cap;
    return d;
}
/* the same, allocating through a counting allocator */
static inline corral_sched_desc counted_one_class_desc(uint32_t slot, uint32_t cap, alloc_counter *ac)
{
    corral_sched_desc d = one_class_desc(slot, cap);
    d.allocator.alloc = counting_alloc;
    d.allocator.free = counting_free;
    d.allocator.user_data = ac;
    return d;
}
/* Tests misuse the API on purpose and assert the error: their schedulers
   report misuse instead of aborting (test_misuse.c covers FATAL). */
static inline corral_sched *sched_of(corral_sched_desc d)
{
    if (d.validation == CORRAL_VALIDATION_DEFAULT) d.validation = CORRAL_VALIDATION_REPORT;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    return s;
}
/* a scheduler with one class of `cap` 64-byte slots (fits most types here) */
static inline corral_sched *small_sched(uint32_t cap) { return sched_of(one_class_desc(64, cap)); }
/* its pools' use, peaks and failures */
static inline corral_pool_stats pools_of(corral_sched *s)
{
    corral_pool_stats p;
    memset(&p, 0, sizeof p);
    cr_assert(corral_stats_pools(s, &p));
    return p;
}

static inline corral_handle start_tracer(corral_sched *s, int id, int stop_after)
{
    return tracer_start(s, (tracer_ctx){.id = id, .stop_after = stop_after});
}

static inline corral_handle start_actor(corral_sched *s, int id, actor_fn fn, corral_handle other, void *user)
{
    return actor_start(s, (actor_ctx){.fn = fn, .id = id, .other = other, .user = user});
}

/* Runs fn(arg) in a child process whose stderr goes to a file: true when
   SIGABRT ended it (the abort FATAL validation makes), what it wrote
   there in words (cap - 1 bytes at most, NUL-ended) */
static inline bool child_aborts(void (*fn)(void *arg), void *arg, char *words, size_t cap)
{
    char path[] = "/tmp/corral_child_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return false;
    unlink(path);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        fn(arg);
        _exit(0);
    }
    int status = 0;
    const bool aborted = pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
    const ssize_t n = pread(fd, words, cap - 1, 0);
    words[n > 0 ? (size_t)n : 0] = 0;
    close(fd);
    return aborted;
}

#endif
