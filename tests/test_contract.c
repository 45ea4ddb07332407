/* test_contract.c -- the resume contract: every cell of the table in
   docs/API.md ("When a coroutine resumes") run and checked, the table
   compared with the docs, its edges, and waits that find no node. */
#include "common.h"
#include "contract.h"

#include <math.h>

TestSuite(contract);

Test(contract, every_cell_of_the_table_resumes_where_it_says)
{
    int cells = 0;
    int failures = cx_run_all(stderr, &cells);
    cr_assert_gt(cells, 300, "only %d cells ran", cells);
    cr_assert_eq(failures, 0, "%d of %d cells resumed elsewhere than the table says (listed above)", failures,
                 cells);
}

/* ---- the docs' table and the test's rows are the same table */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* the trimmed text of cell k of a table line (backticks dropped) */
static void cell_of(const char *line, int k, char *out, size_t cap)
{
    const char *p = line;
    for (int i = 0; i <= k; i++) {
        p = strchr(p, '|');
        cr_assert_not_null(p, "a table row has fewer cells than expected: %.80s", line);
        p++;
    }
    const char *end = strchr(p, '|');
    cr_assert_not_null(end, "a table row is not closed: %.80s", line);
    size_t o = 0;
    for (const char *q = p; q < end && o + 1 < cap; q++)
        if (*q != '`') out[o++] = *q;
    out[o] = 0;
    char *s = out;
    while (*s == ' ') s++;
    memmove(out, s, strlen(s) + 1);
    size_t len = strlen(out);
    while (len && out[len - 1] == ' ') out[--len] = 0;
}

Test(contract, the_table_in_the_docs_is_the_table_the_tests_run)
{
    char *doc = slurp(CORRAL_SOURCE_DIR "/docs/API.md");
    const char *sec = strstr(doc, "\n## When a coroutine resumes\n");
    cr_assert_not_null(sec, "docs/API.md has no section 'When a coroutine resumes'");
    /* the first table of the section: its header, the rule, then the rows */
    const char *line = strstr(sec, "\n| wait |");
    cr_assert_not_null(line, "the section has no table whose first column is 'wait'");
    line++;
    const char *next_sec = strstr(sec + 1, "\n## ");
    cr_assert(next_sec == NULL || line < next_sec, "the table is not in the section");
    char buf[128];
    for (int c = 0; c < CX_COL_COUNT; c++) {
        cell_of(line, c + 1, buf, sizeof buf);
        cr_assert_str_eq(buf, cx_col_names[c], "column %d of the docs' table is '%s', the tests run '%s'", c + 1,
                         buf, cx_col_names[c]);
    }
    line = strchr(line, '\n') + 1; /* the rule */
    cr_assert_eq(line[0], '|');
    line = strchr(line, '\n') + 1;
    int r = 0;
    for (; line[0] == '|'; line = strchr(line, '\n') + 1, r++) {
        cr_assert_lt(r, CX_ROW_COUNT, "the docs' table has more rows than the tests run");
        cell_of(line, 0, buf, sizeof buf);
        cr_assert_str_eq(buf, cx_rows[r].label, "row %d of the docs' table is '%s', the tests run '%s'", r + 1, buf,
                         cx_rows[r].label);
        for (int c = 0; c < CX_COL_COUNT; c++) {
            cell_of(line, c + 1, buf, sizeof buf);
            cr_assert_str_eq(buf, cx_rows[r].cells[c], "docs, %s / %s: '%s'; the tests run '%s'", cx_rows[r].label,
                             cx_col_names[c], buf, cx_rows[r].cells[c]);
        }
    }
    cr_assert_eq(r, CX_ROW_COUNT, "the docs' table has %d rows, the tests run %d", r, CX_ROW_COUNT);
    free(doc);
}

Test(contract, the_harness_fails_a_cell_that_resumes_elsewhere)
{
    /* the comparison can fail: a cell read as 'this LATE' where the wait
       resumes in the next frame's UPDATE */
    cx_at issue = {5, CX_U}, want;
    cr_assert_eq(cx_expect("this LATE", 1, issue, &want), 0);
    cr_assert_eq(want.frame, 5);
    cr_assert_eq(want.pos, CX_L);
    cr_assert_eq(cx_expect("next P", 0, issue, &want), 0);
    cr_assert_eq(want.frame, 6);
    cr_assert_eq(want.pos, CX_F1);
    cr_assert_eq(cx_expect("P", 3, issue, &want), 0);
    cr_assert_eq(want.frame, 5);
    cr_assert_eq(want.pos, CX_E);
    cr_assert_eq(cx_expect("this FIXED", 0, issue, &want), -1, "no fixed step is left in this frame");
    cr_assert_eq(cx_expect("soon", 0, issue, &want), -1);
}

/* ---- the three cases the contract was written for, named */

static long long g_frame;
static int g_phase;
static int g_runs;

#define PROBE_FIELDS(F) F(int, what)
DECLARE_COROUTINE(probe, PROBE_FIELDS)
DEFINE_COROUTINE(probe)
{
    g_runs++;
    g_frame = (long long)corral_frame(corral_sched_of(co));
    g_phase = (int)corral_current_phase(co);
    CORRAL_BEGIN(co);
    if (ctx->what == 1) CORRAL_WAIT_NEXT_FRAME(co);
    else CORRAL_WAIT_FRAME(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

/* a FIXED_UPDATE coroutine that, on its second step, either awaits
   next_frame itself (what 1) or starts a probe in `phase` (what 2) */
#define FIXER_FIELDS(F) F(int, what) F(int, phase) F(int, done)
DECLARE_COROUTINE(fixer, FIXER_FIELDS)
DEFINE_COROUTINE(fixer)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co);
    g_runs = 0;
    if (ctx->what == 1) {
        CORRAL_WAIT_NEXT_FRAME(co);
        g_runs++;
        g_frame = (long long)corral_frame(corral_sched_of(co));
        g_phase = (int)corral_current_phase(co);
    } else {
        corral_start_desc o = {.phase = (corral_phase)ctx->phase};
        probe_start_ex(corral_sched_of(co), (probe_ctx){0}, &o);
    }
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

static corral_sched *fixed_sched(void)
{
    corral_sched_desc d = one_class_desc(128, 16);
    d.fixed_dt = 0.25f;
    return sched_of(d);
}

Test(contract, next_frame_from_a_fixed_update_step_resumes_in_the_next_frames_update)
{
    corral_sched *s = fixed_sched();
    corral_start_desc o = {.phase = CORRAL_PHASE_FIXED_UPDATE};
    fixer_start_ex(s, (fixer_ctx){.what = 1}, &o);
    corral_tick(s, 0.25f); /* frame 1: the fixer's second step awaits next_frame */
    cr_assert_eq(g_runs, 0, "not in frame 1's UPDATE (Unity: yield return null waits for the next frame)");
    corral_tick(s, 0.25f);
    cr_assert_eq(g_runs, 1);
    cr_assert_eq(g_frame, 2);
    cr_assert_eq(g_phase, CORRAL_PHASE_UPDATE);
    corral_sched_destroy(s);
}

Test(contract, a_coroutine_started_from_a_fixed_update_step_first_resumes_in_the_next_frame)
{
    corral_sched *s = fixed_sched();
    corral_start_desc o = {.phase = CORRAL_PHASE_FIXED_UPDATE};
    fixer_start_ex(s, (fixer_ctx){.what = 2, .phase = CORRAL_PHASE_UPDATE}, &o);
    corral_tick(s, 0.25f); /* frame 1: the probe's first step runs inside the fixer's */
    cr_assert_eq(g_runs, 1, "only its first step ran in frame 1 (not again in its UPDATE)");
    corral_tick(s, 0.25f);
    cr_assert_eq(g_runs, 2);
    cr_assert_eq(g_frame, 2);
    cr_assert_eq(g_phase, CORRAL_PHASE_UPDATE);
    corral_sched_destroy(s);
}

#define UPDATER_FIELDS(F) F(int, phase)
DECLARE_COROUTINE(updater, UPDATER_FIELDS)
DEFINE_COROUTINE(updater)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co);
    g_runs = 0;
    corral_start_desc o = {.phase = (corral_phase)ctx->phase};
    probe_start_ex(corral_sched_of(co), (probe_ctx){0}, &o);
    CORRAL_END(co);
}

Test(contract, a_late_update_coroutine_started_from_an_update_step_first_resumes_in_the_next_frames_late_update)
{
    corral_sched *s = fixed_sched();
    updater_start(s, (updater_ctx){.phase = CORRAL_PHASE_LATE_UPDATE});
    corral_tick(s, 0.25f);
    cr_assert_eq(g_runs, 1, "only its first step ran in frame 1 (not again in its LATE_UPDATE)");
    corral_tick(s, 0.25f);
    cr_assert_eq(g_runs, 2);
    cr_assert_eq(g_frame, 2);
    cr_assert_eq(g_phase, CORRAL_PHASE_LATE_UPDATE);
    corral_sched_destroy(s);
}

/* ---- the edges */

#define WATCH_FIELDS(F) F(corral_wait, w) F(int, resumed) F(long long, frame) F(int, phase) F(int, fixed_steps)
DECLARE_COROUTINE(watch, WATCH_FIELDS)
DEFINE_COROUTINE(watch)
{
    CORRAL_BEGIN(co);
    CORRAL_AWAIT(co, ctx->w);
    ctx->resumed++;
    ctx->frame = (long long)corral_frame(corral_sched_of(co));
    ctx->phase = (int)corral_current_phase(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}
static corral_handle watch_in(corral_sched *s, corral_wait w, corral_phase ph)
{
    watch_ctx c;
    memset(&c, 0, sizeof c);
    c.w = w;
    corral_start_desc o = {.phase = ph};
    return watch_start_ex(s, c, &o);
}

typedef long long frames8[8];
#define FIXCOUNT_FIELDS(F) F(int, steps) F(frames8, frames) F(int, issue_at_step)
DECLARE_COROUTINE(fixcount, FIXCOUNT_FIELDS)
DEFINE_COROUTINE(fixcount)
{
    CORRAL_BEGIN(co);
    for (;;) {
        if (ctx->steps < 8) ctx->frames[ctx->steps] = (long long)corral_frame(corral_sched_of(co));
        ctx->steps++;
        CORRAL_WAIT_FIXED_UPDATE(co);
    }
    CORRAL_END(co);
}

Test(contract, several_fixed_steps_in_a_frame_each_resume_a_fixed_update_wait)
{
    corral_sched *s = fixed_sched(); /* fixed_dt 0.25 */
    corral_start_desc o = {.phase = CORRAL_PHASE_FIXED_UPDATE};
    corral_handle h = fixcount_start_ex(s, (fixcount_ctx){0}, &o); /* first step at frame 0 */
    corral_tick(s, 0.75f); /* frame 1: three fixed steps */
    fixcount_ctx *c = fixcount_ctx_of(s, h);
    cr_assert_eq(c->steps, 4, "one step in each of frame 1's three fixed steps");
    cr_assert_eq(c->frames[1], 1);
    cr_assert_eq(c->frames[3], 1);
    corral_tick(s, 0.25f);
    cr_assert_eq(c->steps, 5);
    cr_assert_eq(c->frames[4], 2);
    corral_sched_destroy(s);
}

Test(contract, a_frame_without_a_fixed_step_leaves_a_fixed_update_wait_waiting)
{
    corral_sched *s = fixed_sched();
    corral_handle h = watch_in(s, corral_wait_fixed_update(), CORRAL_PHASE_UPDATE);
    corral_tick(s, 0.1f); /* frame 1: no fixed step (0.1 < 0.25) */
    corral_tick(s, 0.1f); /* frame 2: none */
    cr_assert_eq(watch_ctx_of(s, h)->resumed, 0);
    corral_tick(s, 0.1f); /* frame 3: time 0.3, one fixed step */
    cr_assert_eq(watch_ctx_of(s, h)->resumed, 1);
    cr_assert_eq(watch_ctx_of(s, h)->frame, 3);
    cr_assert_eq(watch_ctx_of(s, h)->phase, CORRAL_PHASE_FIXED_UPDATE);
    corral_sched_destroy(s);
}

Test(contract, with_dt_zero_frame_waits_resume_and_second_waits_do_not)
{
    corral_sched *s = fixed_sched();
    corral_handle frames = watch_in(s, corral_wait_frames(1), CORRAL_PHASE_UPDATE);
    corral_handle secs = watch_in(s, corral_wait_seconds(0.1f), CORRAL_PHASE_UPDATE);
    corral_handle zero = watch_in(s, corral_wait_seconds(0.0f), CORRAL_PHASE_UPDATE);
    corral_handle nf = watch_in(s, corral_wait_next_frame(), CORRAL_PHASE_UPDATE);
    for (int f = 0; f < 3; f++) corral_tick(s, 0.0f);
    cr_assert_eq(watch_ctx_of(s, frames)->frame, 1);
    cr_assert_eq(watch_ctx_of(s, zero)->frame, 1, "0 seconds: the next frame, even when no time passes");
    cr_assert_eq(watch_ctx_of(s, nf)->frame, 1);
    cr_assert_eq(watch_ctx_of(s, secs)->resumed, 0, "no time passed");
    corral_tick(s, 0.1f);
    cr_assert_eq(watch_ctx_of(s, secs)->frame, 4);
    corral_sched_destroy(s);
}

Test(contract, time_scale_zero_holds_scaled_waits_and_fixed_steps_but_not_frames_or_real_time)
{
    corral_sched *s = fixed_sched();
    corral_handle secs = watch_in(s, corral_wait_seconds(0.1f), CORRAL_PHASE_UPDATE);
    corral_handle real = watch_in(s, corral_wait_realtime(0.1f), CORRAL_PHASE_UPDATE);
    corral_handle fixed = watch_in(s, corral_wait_fixed_update(), CORRAL_PHASE_UPDATE);
    corral_handle nf = watch_in(s, corral_wait_next_frame(), CORRAL_PHASE_UPDATE);
    corral_set_time_scale(s, 0.0f);
    corral_tick(s, 0.5f);
    cr_assert_eq(watch_ctx_of(s, real)->frame, 1);
    cr_assert_eq(watch_ctx_of(s, nf)->frame, 1);
    cr_assert_eq(watch_ctx_of(s, secs)->resumed, 0);
    cr_assert_eq(watch_ctx_of(s, fixed)->resumed, 0, "no fixed step while scaled time stands still");
    corral_set_time_scale(s, 1.0f);
    corral_tick(s, 0.5f);
    cr_assert_eq(watch_ctx_of(s, secs)->frame, 2);
    cr_assert_eq(watch_ctx_of(s, fixed)->frame, 2);
    corral_sched_destroy(s);
}

Test(contract, a_paused_sleeper_keeps_its_time_and_a_resumed_one_runs_in_the_next_run_of_its_phase)
{
    corral_sched *s = fixed_sched();
    corral_handle sleeper = watch_in(s, corral_wait_seconds(1.0f), CORRAL_PHASE_UPDATE);
    corral_handle queued = watch_in(s, corral_wait_next_frame(), CORRAL_PHASE_UPDATE);
    corral_tick(s, 0.5f); /* 0.5 s of the sleeper's second gone */
    cr_assert(corral_pause(s, sleeper));
    cr_assert(corral_pause(s, queued)); /* it resumed in frame 1 and yields each frame */
    int before = watch_ctx_of(s, queued)->resumed;
    for (int f = 0; f < 4; f++) corral_tick(s, 0.5f); /* paused time does not count */
    cr_assert_eq(watch_ctx_of(s, sleeper)->resumed, 0);
    cr_assert(corral_resume(s, sleeper));
    cr_assert(corral_resume(s, queued));
    corral_tick(s, 0.25f); /* frame 6: 0.25 of the 0.5 left */
    cr_assert_eq(watch_ctx_of(s, sleeper)->resumed, 0);
    cr_assert_eq(watch_ctx_of(s, queued)->resumed, before);
    corral_tick(s, 0.25f); /* frame 7: the second is full */
    cr_assert_eq(watch_ctx_of(s, sleeper)->frame, 7);
    corral_sched_destroy(s);
}

Test(contract, a_join_on_a_coroutine_that_already_ended_does_not_suspend)
{
    corral_sched *s = fixed_sched();
    corral_handle dead = start_tracer(s, 1, 1); /* ends in its first step */
    cr_assert_not(corral_alive(s, dead));
    corral_handle h = watch_in(s, corral_wait_join(dead), CORRAL_PHASE_UPDATE);
    cr_assert_eq(watch_ctx_of(s, h)->resumed, 1, "it went on inside its start");
    cr_assert_eq(watch_ctx_of(s, h)->frame, 0);
    corral_sched_destroy(s);
}

/* A caller whose interrupt (a timer) fires at the start of a frame goes on
   first in that run; when it then yields, it waits for the next run and is
   not stepped again by the run that resumed it. */
#define LONGCHILD_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(longchild, LONGCHILD_FIELDS)
DEFINE_COROUTINE(longchild)
{
    (void)co;
    (void)ctx;
    return CORRAL_YIELD;
}
#define SKIPPER_FIELDS(F) F(int, after) F(frames8, frames)
DECLARE_COROUTINE(skipper, SKIPPER_FIELDS)
DEFINE_COROUTINE(skipper)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL_UNLESS(co, corral_wait_seconds(0.4f), longchild, (longchild_ctx){0});
    for (;;) {
        if (ctx->after < 8) ctx->frames[ctx->after] = (long long)corral_frame(corral_sched_of(co));
        ctx->after++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

Test(contract, a_caller_freed_at_the_start_of_a_run_runs_once_in_it)
{
    corral_sched *s = fixed_sched();
    corral_handle h = skipper_start(s, (skipper_ctx){0});
    corral_tick(s, 0.25f);
    cr_assert_eq(skipper_ctx_of(s, h)->after, 0);
    corral_tick(s, 0.25f); /* 0.5 >= 0.4: the interrupt fires */
    cr_assert_eq(skipper_ctx_of(s, h)->after, 1, "once in frame 2, not twice");
    cr_assert_eq(skipper_ctx_of(s, h)->frames[0], 2);
    corral_tick(s, 0.25f);
    cr_assert_eq(skipper_ctx_of(s, h)->after, 2);
    cr_assert_eq(skipper_ctx_of(s, h)->frames[1], 3);
    corral_sched_destroy(s);
}

/* ---- a wait that finds no free node never resumes as if it had fired */

static int g_ends[CORRAL_END_COUNT];
#define NOWAIT_FIELDS(F) F(corral_wait, w) F(int, interrupt) F(int, resumed)
DECLARE_COROUTINE(nowait, NOWAIT_FIELDS)
static void nowait_end(nowait_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_ends[why]++;
}
DEFINE_COROUTINE_CLEANUP(nowait, nowait_end)
{
    CORRAL_BEGIN(co);
    if (ctx->interrupt) {
        CORRAL_CALL_UNLESS(co, ctx->w, longchild, (longchild_ctx){0});
    } else {
        CORRAL_AWAIT(co, ctx->w);
    }
    ctx->resumed = 1;
    trace_push(99);
    CORRAL_END(co);
}

static bool never(void *u)
{
    (void)u;
    return false;
}
static bool always(void *u)
{
    (void)u;
    return true;
}

Test(contract, every_wait_that_takes_a_node_ends_its_coroutine_with_wait_failed_on_a_full_pool)
{
    for (int k = 0; k < 14; k++) {
        corral_sched_desc d = one_class_desc(128, 8);
        d.max_wait_nodes = 1;
        d.max_sleepers = 1;
        d.fixed_dt = 0.25f;
        log_capture log;
        memset(&log, 0, sizeof log);
        d.logger.fn = capture_log;
        d.logger.user_data = &log;
        corral_sched *s = sched_of(d);
        corral_signal sig = corral_signal_create(s);
        corral_future fut = corral_future_create(s);
        corral_handle other = start_tracer(s, 1, 0);
        corral_semaphore none_free = corral_semaphore_create(s, 0);
        corral_waitgroup open_task = corral_waitgroup_create(s);
        corral_waitgroup_add(s, open_task, 1);
        /* the one sleep is taken by a coroutine that sleeps, the one node by
           one that polls: a plain sleep past max_sleepers takes a node */
        corral_handle holder = watch_in(s, corral_wait_seconds(100.0f), CORRAL_PHASE_UPDATE);
        corral_handle poller = watch_in(s, corral_wait_until(never, NULL), CORRAL_PHASE_UPDATE);
        corral_wait m[2] = {corral_wait_signal(sig), corral_wait_future(fut)};
        corral_wait ws[14] = {corral_wait_frames(2), corral_wait_seconds(1.0f), corral_wait_realtime(1.0f),
                              corral_wait_until(never, NULL), corral_wait_while(always, NULL),
                              corral_wait_signal(sig), corral_wait_future(fut), corral_wait_join(other),
                              corral_wait_all(m, 2), corral_wait_any(m, 2), corral_wait_signal(sig),
                              corral_wait_seconds(0.0f), corral_wait_acquire(none_free), corral_wait_group(open_task)};
        memset(g_ends, 0, sizeof g_ends);
        trace_reset();
        nowait_ctx c;
        memset(&c, 0, sizeof c);
        c.w = ws[k];
        c.interrupt = k == 10; /* a CORRAL_CALL_UNLESS's interrupt */
        corral_handle h = nowait_start(s, c);
        cr_assert_neq(h.gen, 0, "wait %d: the start itself succeeds", k);
        cr_assert_not(corral_alive(s, h), "wait %d: it could not wait, so it ended", k);
        cr_assert_eq(g_ends[CORRAL_END_WAIT_FAILED], 1, "wait %d: cleanup ran once with WAIT_FAILED", k);
        cr_assert_eq(log.last, CORRAL_ERR_WAIT_POOL_EXHAUSTED, "wait %d: logged", k);
        for (int f = 0; f < 3; f++) corral_tick(s, 0.5f);
        cr_assert_eq(g_trace_len > 0 && g_trace[g_trace_len - 1] == 99, 0, "wait %d: it never ran past its wait", k);
        cr_assert(corral_alive(s, holder), "wait %d: the other waiter is untouched", k);
        cr_assert_eq(watch_ctx_of(s, holder)->resumed, 0);
        corral_pool_stats ps;
        cr_assert(corral_stats_pools(s, &ps));
        cr_assert_eq(ps.wait_failures, 1, "wait %d: counted", k);
        cr_assert_eq(corral_live_count(s), 3);
        cr_assert(corral_alive(s, poller));
        cr_assert(corral_verify(s));
        corral_sched_destroy(s);
    }
    cr_assert_str_eq(corral_end_reason_str(CORRAL_END_WAIT_FAILED), "wait failed");
}

Test(contract, a_call_whose_child_cannot_start_returns_outcome_none_and_the_caller_is_told)
{
    /* a slot, not a node: the caller never suspended, and its outcome says
       the child did not run (docs/API.md, Nesting) */
    corral_sched *s = sched_of(one_class_desc(128, 1));
    corral_handle h = skipper_start(s, (skipper_ctx){0});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    cr_assert(corral_alive(s, h));
    cr_assert_eq(skipper_ctx_of(s, h)->after, 1, "it went past the call in the same step");
    corral_pool_stats ps;
    cr_assert(corral_stats_pools(s, &ps));
    cr_assert_eq(ps.wait_nodes, 0, "the interrupt's node was given back");
    corral_sched_destroy(s);
}
