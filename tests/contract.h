/*
    contract.h -- the resume contract as a table, and a harness that runs
    every cell of it. Plain C (no Criterion), so that any test program can
    include it: test_contract.c checks every cell and compares the table
    with the one in docs/API.md ("When a coroutine resumes").

    Each cell is run in a scheduler of its own, driven phase by phase with
    a fixed clock: dt 0.5 s, fixed_dt 0.25 s, so every frame has exactly two
    fixed steps. A coroutine issues the row's wait at the column's point of
    frame N; what the wait waits for (a raise, a completion, a stop, a
    predicate turning true) happens right after the run (or the start) that
    issued it; the coroutine records the frame and the point of the frame
    at which it resumes.

    Include it in exactly one .c file per program (it defines).
*/
#ifndef CORRAL_TESTS_CONTRACT_H
#define CORRAL_TESTS_CONTRACT_H

#include <corral/corral.h>

#include <stdio.h>
#include <string.h>

/* the points of a frame, in order: its two fixed steps, UPDATE, LATE_UPDATE,
   END_OF_FRAME, and outside the tick (after END_OF_FRAME) */
enum { CX_F1, CX_F2, CX_U, CX_L, CX_E, CX_OUT, CX_POS_COUNT };

/* the columns: where the wait is issued */
enum {
    CX_COL_START_OUT,  /* the first step of a start made outside a tick */
    CX_COL_FIRST_F,    /* the first step of a start made from a step in FIXED_UPDATE */
    CX_COL_FIRST_U,    /* ... in UPDATE */
    CX_COL_FIRST_L,    /* ... in LATE_UPDATE */
    CX_COL_FIRST_E,    /* ... in END_OF_FRAME */
    CX_COL_STEP_F,     /* a later step, running in FIXED_UPDATE (the first fixed step) */
    CX_COL_STEP_U,
    CX_COL_STEP_L,
    CX_COL_STEP_E,
    CX_COL_COUNT
};

/* the rows: what is awaited */
typedef enum {
    CX_START, CX_YIELD, CX_NEXT_FRAME, CX_FRAMES1, CX_FRAMES0, CX_SECONDS, CX_SECONDS0, CX_REALTIME,
    CX_FIXED, CX_LATE, CX_END, CX_PHASE, CX_UNTIL, CX_WHILE, CX_SIGNAL, CX_FUTURE, CX_JOIN, CX_ANY, CX_ALL,
    CX_SEND, CX_RECEIVE, CX_ACQUIRE, CX_WAIT_GROUP, CX_STOP, CX_AT, CX_PULL, CX_DOMAIN_SECONDS, CX_CALL, CX_RACE, CX_SYNC,
    CX_ROW_COUNT
} cx_row;

#define CX_ROWS_AS_IN_DOCS                                                                                             \
    X(CX_START, "start", "at once", "at once", "at once", "at once", "at once", "at once", "at once", "at once",         \
      "at once")                                                                                                        \
    X(CX_YIELD, "yield", "next P", "next P", "next P", "next P", "next P", "this FIXED", "next UPDATE", "next LATE",     \
      "next END")                                                                                                       \
    X(CX_NEXT_FRAME, "next_frame", "next UPDATE", "next UPDATE", "next UPDATE", "next UPDATE", "next UPDATE",           \
      "next UPDATE", "next UPDATE", "next UPDATE", "next UPDATE")                                                       \
    X(CX_FRAMES1, "frames(1)", "next P", "next P", "next P", "next P", "next P", "next FIXED", "next UPDATE",           \
      "next LATE", "next END")                                                                                          \
    X(CX_FRAMES0, "frames(0)", "next P", "next P", "next P", "next P", "next P", "next FIXED", "next UPDATE",           \
      "next LATE", "next END")                                                                                          \
    X(CX_SECONDS, "seconds(t)", "next P", "next P", "next P", "next P", "next P", "next FIXED", "next UPDATE",          \
      "next LATE", "next END")                                                                                          \
    X(CX_SECONDS0, "seconds(0)", "next P", "next P", "next P", "next P", "next P", "next FIXED", "next UPDATE",         \
      "next LATE", "next END")                                                                                          \
    X(CX_REALTIME, "realtime(t)", "next P", "next P", "next P", "next P", "next P", "next FIXED", "next UPDATE",        \
      "next LATE", "next END")                                                                                          \
    X(CX_FIXED, "fixed_update", "next FIXED", "this FIXED", "next FIXED", "next FIXED", "next FIXED", "this FIXED",    \
      "next FIXED", "next FIXED", "next FIXED")                                                                         \
    X(CX_LATE, "late_update", "next LATE", "this LATE", "this LATE", "next LATE", "next LATE", "this LATE",            \
      "this LATE", "next LATE", "next LATE")                                                                            \
    X(CX_END, "end_of_frame", "next END", "this END", "this END", "this END", "next END", "this END", "this END",       \
      "this END", "next END")                                                                                           \
    X(CX_PHASE, "phase(LATE_UPDATE)", "next LATE", "this LATE", "this LATE", "next LATE", "next LATE", "this LATE", \
      "this LATE", "next LATE", "next LATE")                                                                            \
    X(CX_UNTIL, "until(fn)", "next P", "next P", "next P", "next P", "next P", "this FIXED", "next UPDATE",            \
      "next LATE", "next END")                                                                                          \
    X(CX_WHILE, "while(fn)", "next P", "next P", "next P", "next P", "next P", "this FIXED", "next UPDATE",            \
      "next LATE", "next END")                                                                                          \
    X(CX_SIGNAL, "signal", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")             \
    X(CX_FUTURE, "future", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")             \
    X(CX_JOIN, "join", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")                 \
    X(CX_ANY, "any", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")                   \
    X(CX_ALL, "all", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")                   \
    X(CX_SEND, "send", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")                 \
    X(CX_RECEIVE, "receive", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")           \
    X(CX_ACQUIRE, "acquire", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")           \
    X(CX_WAIT_GROUP, "wait group", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")     \
    X(CX_STOP, "stop", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")                 \
    X(CX_AT, "at(t)", "next P", "next P", "next P", "next P", "next P", "next FIXED", "next UPDATE", "next LATE",       \
      "next END")                                                                                                       \
    X(CX_PULL, "pull", "P", "P", "P", "P", "P", "this FIXED", "next UPDATE", "next LATE", "next END")                 \
    X(CX_DOMAIN_SECONDS, "seconds(t) in a domain", "next P", "next P", "next P", "next P", "next P", "next FIXED",     \
      "next UPDATE", "next LATE", "next END")                                                                           \
    X(CX_CALL, "call", "at once", "P or same run", "P or same run", "P or same run", "P or same run", "same run",      \
      "same run", "same run", "same run")                                                                               \
    X(CX_RACE, "race", "at once", "P or same run", "P or same run", "P or same run", "P or same run", "same run",      \
      "same run", "same run", "same run")                                                                               \
    X(CX_SYNC, "sync", "at once", "P or same run", "P or same run", "P or same run", "P or same run", "same run",      \
      "same run", "same run", "same run")

typedef struct cx_row_def {
    cx_row row;
    const char *label;
    const char *cells[CX_COL_COUNT];
} cx_row_def;

static const cx_row_def cx_rows[CX_ROW_COUNT] = {
#define X(id, label, c0, c1, c2, c3, c4, c5, c6, c7, c8) {id, label, {c0, c1, c2, c3, c4, c5, c6, c7, c8}},
    CX_ROWS_AS_IN_DOCS
#undef X
};

static const char *const cx_col_names[CX_COL_COUNT] = {
    "start outside a tick", "first step in FIXED_UPDATE", "first step in UPDATE", "first step in LATE_UPDATE",
    "first step in END_OF_FRAME", "step in FIXED_UPDATE", "step in UPDATE", "step in LATE_UPDATE",
    "step in END_OF_FRAME"};

/* where in time: a frame and a point of it */
typedef struct cx_at {
    long long frame;
    int pos;
} cx_at;

static const corral_phase cx_phases[4] = {CORRAL_PHASE_FIXED_UPDATE, CORRAL_PHASE_UPDATE, CORRAL_PHASE_LATE_UPDATE,
                                          CORRAL_PHASE_END_OF_FRAME};
static const char *const cx_phase_short[4] = {"FIXED", "UPDATE", "LATE", "END"};

/* the first point of phase p (0..3) and whether point pos belongs to it */
static int cx_first_pos(int p) { return p == 0 ? CX_F1 : p + 1; }
static int cx_pos_in(int pos, int p) { return p == 0 ? (pos == CX_F1 || pos == CX_F2) : pos == p + 1; }

/* The first point of phase p after point `after` in the same frame, or -1. */
static int cx_next_pos_of(int p, int after)
{
    for (int q = after + 1; q < CX_OUT; q++)
        if (cx_pos_in(q, p)) return q;
    return -1;
}

/* Evaluate a cell for a wait issued at `issue` by a coroutine of phase P
   (0..3). Returns 0 and fills *out, or -1 for a cell it does not know. */
static int cx_expect(const char *cell, int P, cx_at issue, cx_at *out)
{
    *out = issue;
    if (!strcmp(cell, "at once") || !strcmp(cell, "same run")) return 0;
    int p = P;
    int next_frame = 0;
    const char *rest = cell;
    if (!strncmp(cell, "next ", 5)) {
        next_frame = 1;
        rest = cell + 5;
    } else if (!strncmp(cell, "this ", 5)) {
        rest = cell + 5;
    } else if (!strcmp(cell, "P or same run")) {
        if (cx_pos_in(issue.pos, P)) return 0;
        rest = "P";
    }
    if (strcmp(rest, "P") != 0) {
        p = -1;
        for (int q = 0; q < 4; q++)
            if (!strcmp(rest, cx_phase_short[q])) p = q;
        if (p < 0) return -1;
    }
    int pos = next_frame ? -1 : cx_next_pos_of(p, issue.pos);
    if (!next_frame && strncmp(cell, "this ", 5) == 0 && pos < 0) return -1; /* "this" must be in this frame */
    if (pos < 0) {
        out->frame = issue.frame + 1;
        out->pos = cx_first_pos(p);
    } else {
        out->pos = pos;
    }
    return 0;
}

/* ---- the harness */
static int cx_pos = CX_OUT;
static corral_sched *cx_s;
static cx_row cx_cur_row;
static int cx_issued, cx_triggered, cx_resumes;
static cx_at cx_issue_at, cx_resume_at;
static int cx_flag;
static corral_signal cx_sig;
static corral_future cx_fut;
static corral_handle cx_target;
static corral_channel cx_chan;
static corral_semaphore cx_sem;
static corral_waitgroup cx_wg;
static corral_handle cx_subject; /* the coroutine under test, once it waits */
static corral_handle cx_genh;    /* a generator that waits for cx_sig between its values */

static cx_at cx_now(void)
{
    cx_at a = {(long long)corral_frame(cx_s), cx_pos};
    return a;
}
static bool cx_pred(void *user)
{
    (void)user;
    return cx_flag != 0;
}

#define CX_QUICK_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(cx_quick, CX_QUICK_FIELDS)
DEFINE_COROUTINE(cx_quick)
{
    (void)co;
    (void)ctx;
    return CORRAL_STOP;
}

#define CX_GEN_FIELDS(F) F(int, unused)
DECLARE_COROUTINE_R(cx_gen, CX_GEN_FIELDS, int)
DEFINE_COROUTINE(cx_gen)
{
    CORRAL_BEGIN(co);
    CORRAL_YIELD_VALUE(co, 1);
    CORRAL_WAIT_SIGNAL(co, cx_sig);
    CORRAL_YIELD_VALUE(co, 2);
    CORRAL_END(co);
}

#define CX_IDLE_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(cx_idle, CX_IDLE_FIELDS)
DEFINE_COROUTINE(cx_idle)
{
    (void)co;
    (void)ctx;
    return CORRAL_YIELD;
}

static corral_wait cx_wait_of(cx_row r)
{
    static corral_wait members[2];
    switch (r) {
    case CX_NEXT_FRAME: return corral_wait_next_frame();
    case CX_FRAMES1: return corral_wait_frames(1);
    case CX_FRAMES0: return corral_wait_frames(0);
    case CX_SECONDS: return corral_wait_seconds(0.25f);
    case CX_SECONDS0: return corral_wait_seconds(0.0f);
    case CX_REALTIME: return corral_wait_realtime(0.25f);
    case CX_DOMAIN_SECONDS: return corral_wait_seconds(0.25f);
    case CX_FIXED: return corral_wait_fixed_update();
    case CX_LATE: return corral_wait_late_update();
    case CX_END: return corral_wait_end_of_frame();
    case CX_PHASE: return corral_wait_phase(CORRAL_PHASE_LATE_UPDATE);
    case CX_UNTIL: return corral_wait_until(cx_pred, NULL);
    case CX_WHILE: return corral_wait_while(cx_pred, NULL);
    case CX_SIGNAL: return corral_wait_signal(cx_sig);
    case CX_FUTURE: return corral_wait_future(cx_fut);
    case CX_JOIN: return corral_wait_join(cx_target);
    case CX_STOP: return corral_wait_stop();
    case CX_AT: return corral_wait_at(corral_time(cx_s) + 0.25);
    case CX_ANY:
        members[0] = corral_wait_signal(cx_sig);
        members[1] = corral_wait_seconds(100.0f);
        return corral_wait_any(members, 2);
    case CX_ALL:
        members[0] = corral_wait_signal(cx_sig);
        members[1] = corral_wait_future(cx_fut);
        return corral_wait_all(members, 2);
    default: return corral_wait_next_frame();
    }
}

/* the coroutine under test: issues the row's wait on its first step
   (`first`) or its second, then records where it resumed */
#define CX_SUBJECT_FIELDS(F) F(int, first) F(int, v)
DECLARE_COROUTINE(cx_subject, CX_SUBJECT_FIELDS)
DEFINE_COROUTINE(cx_subject)
{
    CORRAL_BEGIN(co);
    if (cx_cur_row == CX_START) { /* the start itself: its first step is the resume */
        cx_resume_at = cx_now();
        cx_resumes++;
        CORRAL_EXIT(co);
    }
    if (!ctx->first) CORRAL_WAIT_FRAME(co);
    cx_issue_at = cx_now();
    cx_issued = 1;
    cx_subject = corral_self(co);
    if (cx_cur_row == CX_YIELD) {
        CORRAL_WAIT_FRAME(co);
    } else if (cx_cur_row == CX_CALL) {
        CORRAL_CALL(co, cx_quick, (cx_quick_ctx){0});
    } else if (cx_cur_row == CX_SEND) { /* the channel is full: it waits for a receive */
        CORRAL_SEND(co, cx_chan, &ctx->v);
    } else if (cx_cur_row == CX_RECEIVE) { /* empty: it waits for a send */
        CORRAL_RECEIVE(co, cx_chan, &ctx->v);
    } else if (cx_cur_row == CX_ACQUIRE) { /* no permit: it waits for a release */
        CORRAL_ACQUIRE(co, cx_sem);
    } else if (cx_cur_row == CX_WAIT_GROUP) { /* a task open: it waits for its done */
        CORRAL_WAIT_GROUP(co, cx_wg);
    } else if (cx_cur_row == CX_PULL) { /* its value given: the generator waits for cx_sig, and so does the pull */
        CORRAL_PULL(co, cx_genh, &ctx->v);
    } else if (cx_cur_row == CX_RACE) {
        CORRAL_RACE(co, cx_idle_arm(co, (cx_idle_ctx){0}), cx_quick_arm(co, (cx_quick_ctx){0}));
    } else if (cx_cur_row == CX_SYNC) {
        CORRAL_SYNC(co, cx_quick_arm(co, (cx_quick_ctx){0}), cx_quick_arm(co, (cx_quick_ctx){0}));
    } else {
        /* a domain of its own, at twice the game clock's scale (frames are
           0.5 s: its 0.25 s are still due in the next frame) */
        if (cx_cur_row == CX_DOMAIN_SECONDS) corral_set_domain(corral_sched_of(co), corral_self(co), 1);
        CORRAL_AWAIT(co, cx_wait_of(cx_cur_row));
    }
    cx_resume_at = cx_now();
    cx_resumes++;
    CORRAL_END(co);
}

/* starts the subject from its step (the first-step columns) */
#define CX_STARTER_FIELDS(F) F(int, subject_phase)
DECLARE_COROUTINE(cx_starter, CX_STARTER_FIELDS)
DEFINE_COROUTINE(cx_starter)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co);
    corral_start_desc o;
    memset(&o, 0, sizeof o);
    o.phase = cx_phases[ctx->subject_phase];
    cx_subject_start_ex(corral_sched_of(co), (cx_subject_ctx){.first = 1}, &o);
    CORRAL_END(co);
}

/* what the wait waits for happens, once, right after it was issued */
static void cx_trigger(void)
{
    if (!cx_issued || cx_triggered) return;
    cx_triggered = 1;
    switch (cx_cur_row) {
    case CX_UNTIL: cx_flag = 1; break;
    case CX_WHILE: cx_flag = 0; break;
    case CX_SIGNAL:
    case CX_ANY: corral_signal_raise(cx_s, cx_sig); break;
    case CX_FUTURE: corral_future_complete(cx_s, cx_fut, (corral_value){.i = 1}); break;
    case CX_ALL:
        corral_signal_raise(cx_s, cx_sig);
        corral_future_complete(cx_s, cx_fut, (corral_value){.i = 1});
        break;
    case CX_JOIN: corral_stop(cx_s, cx_target); break;
    case CX_SEND: {
        int v;
        corral_channel_try_receive(cx_s, cx_chan, &v, sizeof v);
        break;
    }
    case CX_RECEIVE: {
        int v = 5;
        corral_channel_try_send(cx_s, cx_chan, &v, sizeof v);
        break;
    }
    case CX_ACQUIRE: corral_semaphore_release(cx_s, cx_sem, 1); break;
    case CX_WAIT_GROUP: corral_waitgroup_done(cx_s, cx_wg); break;
    case CX_STOP: corral_request_stop(cx_s, cx_subject, 0.0f); break;
    case CX_PULL: corral_signal_raise(cx_s, cx_sig); break;
    default: break;
    }
}

static void cx_run(corral_phase ph, int pos)
{
    cx_pos = pos;
    corral_run_phase(cx_s, ph);
    cx_pos = CX_OUT;
    cx_trigger();
}

static void cx_frame(void)
{
    corral_frame_begin(cx_s, 0.5f);
    cx_run(CORRAL_PHASE_FIXED_UPDATE, CX_F1);
    cx_run(CORRAL_PHASE_FIXED_UPDATE, CX_F2);
    cx_run(CORRAL_PHASE_UPDATE, CX_U);
    cx_run(CORRAL_PHASE_LATE_UPDATE, CX_L);
    cx_run(CORRAL_PHASE_END_OF_FRAME, CX_E);
}

/* Run one cell: the row's wait issued at column col by a coroutine of
   phase P (0..3; the later-step columns fix P to their own phase). Fills
   *got and *want; returns 0 when they agree, else -1 (with *why set). */
static int cx_run_cell(cx_row row, int col, int P, cx_at *got, cx_at *want, const char **why)
{
    static unsigned char block[1 << 17];
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.memory = block;
    d.memory_size = sizeof block;
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 16;
    d.max_wait_nodes = 32;
    d.max_group_nodes = 1;
    d.max_signals = 2;
    d.max_futures = 2;
    d.fixed_dt = 0.25f;
    d.domains = 2;
    d.channel_bytes = 8;
    *why = NULL;
    got->frame = want->frame = 0;
    got->pos = want->pos = CX_OUT;
    if (corral_sched_memory_size(&d) > sizeof block) {
        *why = "the harness's block is too small";
        return -1;
    }
    cx_s = corral_sched_create(&d);
    if (!cx_s) {
        *why = "create failed";
        return -1;
    }
    if (!corral_domain_set_scale(cx_s, 1, 2.0f)) {
        *why = "domain 1 cannot be scaled";
        return -1;
    }
    cx_cur_row = row;
    cx_issued = cx_triggered = cx_resumes = 0;
    cx_flag = row == CX_WHILE;
    cx_pos = CX_OUT;
    cx_sig = corral_signal_create(cx_s);
    cx_fut = corral_future_create(cx_s);
    cx_target = cx_idle_start(cx_s, (cx_idle_ctx){0});
    cx_chan = corral_channel_create(cx_s, sizeof(int));
    cx_sem = corral_semaphore_create(cx_s, 0);
    cx_wg = corral_waitgroup_create(cx_s);
    {
        int first = 0;
        cx_genh = cx_gen_gen(cx_s, (cx_gen_ctx){0});
        corral_generator_next(cx_s, cx_genh, &first, sizeof first); /* 1: the next pull waits */
    }
    corral_waitgroup_add(cx_s, cx_wg, 1);
    if (row == CX_SEND) { /* full: the send waits */
        int v = 1;
        while (corral_channel_try_send(cx_s, cx_chan, &v, sizeof v)) {}
    }
    if (col >= CX_COL_STEP_F) P = col - CX_COL_STEP_F;
    corral_start_desc o;
    memset(&o, 0, sizeof o);
    cx_frame(); /* frame 1 */
    if (col == CX_COL_START_OUT) {
        cx_frame(); /* frame 2, then the start after it */
        o.phase = cx_phases[P];
        cx_subject_start_ex(cx_s, (cx_subject_ctx){.first = 1}, &o);
        if (row == CX_START) cx_issue_at = cx_now(), cx_issued = 1;
        cx_trigger();
    } else {
        /* started now, so that it is in its phase's run of frame 2 */
        int from = (col >= CX_COL_STEP_F ? col - CX_COL_STEP_F : col - CX_COL_FIRST_F);
        o.phase = cx_phases[from];
        if (row == CX_START || col < CX_COL_STEP_F) {
            cx_starter_start_ex(cx_s, (cx_starter_ctx){P}, &o);
        } else {
            cx_subject_start_ex(cx_s, (cx_subject_ctx){0}, &o);
        }
        cx_frame(); /* frame 2: the wait is issued */
        if (row == CX_START) {
            cx_issue_at = cx_resume_at;
            cx_issued = 1;
        }
    }
    for (int f = 0; f < 3; f++) cx_frame();
    const char *cell = cx_rows[row].cells[col];
    int bad = 0;
    if (!cx_issued) {
        *why = "the wait was never issued";
        bad = 1;
    } else if (cx_resumes != 1) {
        *why = cx_resumes == 0 ? "it never resumed" : "it resumed more than once";
        bad = 1;
    } else if (cx_expect(cell, P, cx_issue_at, want) != 0) {
        *why = "the cell's text is not one the harness knows";
        bad = 1;
    } else if (!corral_verify(cx_s)) {
        *why = "corral_verify failed";
        bad = 1;
    }
    *got = cx_resume_at;
    if (!bad && (got->frame != want->frame || got->pos != want->pos)) {
        *why = "it resumed elsewhere";
        bad = 1;
    }
    corral_sched_destroy(cx_s);
    cx_s = NULL;
    return bad ? -1 : 0;
}

static const char *cx_pos_name(int pos)
{
    static const char *const names[CX_POS_COUNT] = {"FIXED_UPDATE (fixed step 1)", "FIXED_UPDATE (fixed step 2)",
                                                    "UPDATE", "LATE_UPDATE", "END_OF_FRAME", "outside a tick"};
    return pos >= 0 && pos < CX_POS_COUNT ? names[pos] : "?";
}

/* Run every cell (P over all four phases where the column leaves it
   open); print each cell that fails to `out`. Returns the failures. */
static int cx_run_all(FILE *out, int *cells_run)
{
    int failures = 0, n = 0;
    for (int r = 0; r < CX_ROW_COUNT; r++) {
        for (int col = 0; col < CX_COL_COUNT; col++) {
            int ps = col >= CX_COL_STEP_F ? 1 : 4;
            for (int P = 0; P < ps; P++) {
                cx_at got = {0, CX_OUT}, want = {0, CX_OUT};
                const char *why;
                n++;
                if (cx_run_cell((cx_row)r, col, P, &got, &want, &why) != 0) {
                    failures++;
                    if (out)
                        fprintf(out,
                                "contract: %s, %s, coroutine in %s: expected \"%s\" = frame %lld %s, got frame %lld "
                                "%s (%s)\n",
                                cx_rows[r].label, cx_col_names[col],
                                col >= CX_COL_STEP_F ? cx_phase_short[col - CX_COL_STEP_F] : cx_phase_short[P],
                                cx_rows[r].cells[col], want.frame, cx_pos_name(want.pos), got.frame,
                                cx_pos_name(got.pos), why);
                }
            }
        }
    }
    if (cells_run) *cells_run = n;
    return failures;
}

#endif
