/*
    model.h -- a reference model of corral's public behaviour, and a driver
    that plays a byte string as a sequence of public operations against
    both the library and the model.

    Shared by tests/test_model.c (random sequences from a seed, 10^6
    operations in CI) and tests/fuzz_ops.c (libFuzzer: the input is the
    sequence). Plain C, no Criterion: model_run returns the number of the
    first operation after which the library and the model disagree (or an
    invariant breaks), -1 when they agree throughout, and says why.

    The model is written plainly: a table of records, one per coroutine,
    and the rules of the API doc applied by hand. Operations run between
    frames (the model is exact there); times are multiples of 1/64 s so
    every sum is exact in float and double alike.

    Coroutine types (each records its own end in g_model_ends[rec]):
        m_count   steps `left` times (first step at start), then stops
        m_sig     waits on a signal `wakes` times, then stops; a wait on a
                  stale signal is a plain yield (it steps again next frame)
        m_fut     waits on a future, then stops (at once if it is done; a
                  frame later if it is stale)
        m_sleep   waits `t` scaled seconds, then stops
        m_join    joins an older coroutine, then stops
        m_caller  calls an m_count child (which joins its groups), then
                  stops when the child has ended, however it ended
        m_racer   races two m_count arms (2 to 9 steps each): the first arm
                  to end, however, wins; the other loses (ended at once);
                  the racer then stops
        m_recv    receives `left` values from the model's channel (the
                  sequence sends them), adding them up, then stops
        m_gen     a generator of `left` values 1, 2, ...: pulled by the
                  sequence (NAME_next), never stepped by a frame; held
                  between pulls, it reads as paused (pause and resume of a
                  generator are not modelled)

    Time domains: an m_sleep sleeps in domain 0 or 1; the sequence sets
    domain 1's scale (1/2, 1 or 2) and pauses and resumes it, and the
    model keeps its clock.
*/
#ifndef CORRAL_TESTS_MODEL_H
#define CORRAL_TESTS_MODEL_H

#include <corral/corral.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MODEL_CAP 24    /* slots: small, so pools fill up */
#define MODEL_RECS 64   /* records: live ones plus dead ones kept for stale checks */
#define MODEL_SIGNALS 4
#define MODEL_FUTURES 4
#define MODEL_CHANNEL_CAP 4

static int g_model_ends[MODEL_RECS];
/* what the sequences did, summed over runs (the test prints it) */
static struct { uint64_t started, refused, ended, ticks, pauses, resumes, group_ops, raises, completes, calls, pulls, domain_ops, sends, races; } g_model_counts;
static corral_handle g_model_h[MODEL_RECS]; /* handles, as each coroutine's first step saw them */

#define M_COUNT_FIELDS(F) F(uint32_t, rec) F(uint32_t, left)
DECLARE_COROUTINE(m_count, M_COUNT_FIELDS)
static void m_count_end(m_count_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_count, m_count_end)
{
    if (!co->resume) { /* a caller's child: the model learns its handle here */
        co->resume = 1;
        g_model_h[ctx->rec] = corral_self(co);
    }
    return --ctx->left == 0 ? CORRAL_STOP : CORRAL_YIELD;
}

#define M_SIG_FIELDS(F) F(uint32_t, rec) F(uint32_t, wakes) F(corral_signal, sig)
DECLARE_COROUTINE(m_sig, M_SIG_FIELDS)
static void m_sig_end(m_sig_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_sig, m_sig_end)
{
    if (co->resume) ctx->wakes--;
    co->resume = 1;
    if (ctx->wakes == 0) return CORRAL_STOP;
    return corral_await(co, corral_wait_signal(ctx->sig)) ? CORRAL_YIELD : CORRAL_STOP;
}

#define M_FUT_FIELDS(F) F(uint32_t, rec) F(corral_future, fut)
DECLARE_COROUTINE(m_fut, M_FUT_FIELDS)
static void m_fut_end(m_fut_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_fut, m_fut_end)
{
    if (co->resume) return CORRAL_STOP;
    co->resume = 1;
    return corral_await(co, corral_wait_future(ctx->fut)) ? CORRAL_YIELD : CORRAL_STOP;
}

#define M_SLEEP_FIELDS(F) F(uint32_t, rec) F(float, t)
DECLARE_COROUTINE(m_sleep, M_SLEEP_FIELDS)
static void m_sleep_end(m_sleep_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_sleep, m_sleep_end)
{
    if (co->resume) return CORRAL_STOP;
    co->resume = 1;
    return corral_await(co, corral_wait_seconds(ctx->t)) ? CORRAL_YIELD : CORRAL_STOP;
}

#define M_JOIN_FIELDS(F) F(uint32_t, rec) F(corral_handle, target)
DECLARE_COROUTINE(m_join, M_JOIN_FIELDS)
static void m_join_end(m_join_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_join, m_join_end)
{
    if (co->resume) return CORRAL_STOP;
    co->resume = 1;
    return corral_await(co, corral_wait_join(ctx->target)) ? CORRAL_YIELD : CORRAL_STOP;
}

#define M_CALLER_FIELDS(F) F(uint32_t, rec) F(uint32_t, child_rec) F(uint32_t, k)
DECLARE_COROUTINE(m_caller, M_CALLER_FIELDS)
static void m_caller_end(m_caller_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_caller, m_caller_end)
{
    if (co->resume) return CORRAL_STOP;
    co->resume = 1;
    return m_count_call(co, (m_count_ctx){ctx->child_rec, ctx->k}) ? CORRAL_YIELD : CORRAL_STOP;
}

#define M_GEN_FIELDS(F) F(uint32_t, rec) F(uint32_t, left) F(uint32_t, at)
DECLARE_COROUTINE_R(m_gen, M_GEN_FIELDS, uint32_t)
static void m_gen_end(m_gen_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_gen, m_gen_end)
{
    CORRAL_BEGIN(co);
    while (ctx->at < ctx->left) {
        ctx->at++;
        CORRAL_YIELD_VALUE(co, ctx->at);
    }
    CORRAL_END(co);
}

#define M_RECV_FIELDS(F) F(uint32_t, rec) F(corral_channel, ch) F(int32_t, v) F(int32_t, sum) F(uint16_t, left) F(uint16_t, got)
DECLARE_COROUTINE(m_recv, M_RECV_FIELDS)
static void m_recv_end(m_recv_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_recv, m_recv_end)
{
    if (co->resume) { /* woken: a sender handed it a value */
        ctx->got++;
        ctx->sum += ctx->v;
    }
    co->resume = 1;
    while (ctx->got < ctx->left) {
        if (corral_await(co, corral_wait_receive(ctx->ch, &ctx->v, sizeof ctx->v))) return CORRAL_YIELD;
        ctx->got++; /* a value was there: taken at once */
        ctx->sum += ctx->v;
    }
    return CORRAL_STOP;
}

#define M_RACER_FIELDS(F) F(uint32_t, rec) F(uint32_t, a_rec) F(uint32_t, b_rec) F(uint32_t, a) F(uint32_t, b)
DECLARE_COROUTINE(m_racer, M_RACER_FIELDS)
static void m_racer_end(m_racer_ctx *c, corral_end_reason why) { (void)why; g_model_ends[c->rec]++; }
DEFINE_COROUTINE_CLEANUP(m_racer, m_racer_end)
{
    CORRAL_BEGIN(co);
    CORRAL_RACE(co, m_count_arm(co, (m_count_ctx){ctx->a_rec, ctx->a}), m_count_arm(co, (m_count_ctx){ctx->b_rec, ctx->b}));
    CORRAL_END(co);
}

enum { MT_COUNT, MT_SIG, MT_FUT, MT_SLEEP, MT_JOIN, MT_CALLER, MT_GEN, MT_RECV, MT_RACER, MT_TYPES };
static const corral_type *const model_types[MT_TYPES] = {&m_count_type,  &m_sig_type, &m_fut_type,
                                                         &m_sleep_type,  &m_join_type, &m_caller_type,
                                                         &m_gen_type,    &m_recv_type, &m_racer_type};

typedef struct model_rec {
    bool used;       /* ever started */
    bool alive, paused;
    bool waiting;    /* parked on its wait (not queued) */
    bool yielded;    /* queued by a plain yield (a wait on what is gone): it steps each UPDATE */
    bool pending;    /* its wait ended: it steps at the next UPDATE it is not paused for */
    int type;
    corral_handle h;
    uint64_t owner;
    uint32_t tags;
    uint32_t left;   /* m_count: steps left; m_sig: wakes left */
    int sig, fut;    /* m_sig / m_fut: model index */
    corral_signal sh; /* m_sig: the signal it holds (the index may be reused) */
    double due;      /* m_sleep while waiting and not paused */
    double remaining; /* m_sleep while paused */
    int target;      /* m_join: record */
    int child, parent; /* m_caller / its m_count child: records, -1 */
    int child2;        /* m_racer: its second arm, -1 */
    uint32_t domain;   /* m_sleep: its time domain (0, 1) */
    uint32_t pulled;   /* m_gen: values pulled so far */
    uint32_t got;      /* m_recv: values received */
    int32_t sum, handed; /* m_recv: their sum; the value a sender handed it, not yet counted */
    uint64_t wseq;     /* m_recv: when it began to wait (receivers are served in that order) */
    uint64_t qseq;     /* m_recv: when it joined the run queue (woken, or resumed woken): its turn in a frame */
} model_rec;

typedef struct model {
    corral_sched *s;
    model_rec r[MODEL_RECS];
    int live;
    double time;
    double time1;          /* domain 1's clock */
    float scale1;          /* its scale */
    bool paused1;          /* it is paused */
    corral_channel ch;     /* one channel of int32_t, MODEL_CHANNEL_CAP values */
    int32_t q[8];          /* what it holds, oldest first */
    uint32_t qn;
    uint64_t wseq;         /* receivers' waits so far */
    uint64_t qseq;         /* receivers queued so far */
    struct { corral_signal h; bool live; } sig[MODEL_SIGNALS];
    struct { corral_future h; bool live, done; } fut[MODEL_FUTURES];
    corral_signal dead_sig;   /* a destroyed signal, for stale use */
    corral_future dead_fut;
    char *why;
    size_t why_cap;
    uint64_t ops;
} model;

static void model_logger(corral_log_level l, corral_error e, const char *m, const corral_sched *s, void *u)
{
    (void)l; (void)e; (void)m; (void)s; (void)u; /* misuse here is deliberate (stale handles) */
}

static bool model_fail(model *M, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(M->why, M->why_cap, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- the rules, applied to the model */

static void model_end(model *M, int i);

/* the clock of time domain d */
static double model_dtime(const model *M, uint32_t d) { return d ? M->time1 : M->time; }

/* i's wait ended (its target ended, its signal fired, ...) */
static void model_wake(model *M, int i)
{
    model_rec *r = &M->r[i];
    if (!r->alive || !r->waiting) return;
    r->waiting = false;
    r->pending = true;
    if (r->type == MT_RECV && !r->paused) r->qseq = ++M->qseq; /* a paused one joins the queue at its resume */
}

static void model_end(model *M, int i)
{
    model_rec *r = &M->r[i];
    if (!r->alive) return;
    r->alive = false;
    r->waiting = r->pending = r->paused = false;
    M->live--;
    g_model_counts.ended++;
    if (r->child >= 0) model_end(M, r->child); /* structured cancellation */
    if (r->child2 >= 0) model_end(M, r->child2);
    if (r->parent >= 0) { /* a call's child, or a race's arm: the first to end wins, the other loses */
        model_rec *P = &M->r[r->parent];
        int other = P->child == i ? P->child2 : P->child;
        P->child = P->child2 = -1;
        if (other >= 0) model_end(M, other);
        model_wake(M, r->parent);
    }
    for (int j = 0; j < MODEL_RECS; j++)
        if (M->r[j].alive && M->r[j].type == MT_JOIN && M->r[j].target == i) model_wake(M, j);
}

static bool model_sig_is(const model *M, int k, corral_signal h)
{
    return M->sig[k].live && M->sig[k].h.index == h.index && M->sig[k].h.gen == h.gen;
}

/* a receiver's step: count what it was handed (not on its first step),
   then take what the channel holds until it has all or must wait */
static void model_recv(model *M, int i)
{
    model_rec *r = &M->r[i];
    if (r->wseq) {
        r->got++;
        r->sum += r->handed;
    }
    while (r->got < r->left && M->qn > 0) {
        r->got++;
        r->sum += M->q[0];
        memmove(M->q, M->q + 1, (M->qn - 1) * sizeof M->q[0]);
        M->qn--;
    }
    if (r->got == r->left) {
        model_end(M, i);
        return;
    }
    r->waiting = true;
    r->wseq = ++M->wseq;
}

/* one step of record i (it is alive, not paused) */
static void model_step(model *M, int i)
{
    model_rec *r = &M->r[i];
    r->pending = false;
    switch (r->type) {
    case MT_COUNT:
        if (--r->left == 0) model_end(M, i);
        break;
    case MT_SIG:
        if (--r->left == 0) model_end(M, i);
        else if (!model_sig_is(M, r->sig, r->sh)) r->yielded = true;
        else {
            r->waiting = true;
            r->yielded = false;
        }
        break;
    case MT_RECV:
        model_recv(M, i);
        break;
    default: /* the others stop on the step after their wait */
        model_end(M, i);
        break;
    }
}

/* UPDATE of a frame: due timers, then the lane, then whatever that woke
   (joins and callers resume in the same run) until nothing moves. */
static void model_update(model *M)
{
    bool run[MODEL_RECS];
    for (int i = 0; i < MODEL_RECS; i++) {
        model_rec *r = &M->r[i];
        run[i] = false;
        if (!r->alive || r->paused) continue;
        if (r->type == MT_SLEEP && r->waiting && model_dtime(M, r->domain) >= r->due) run[i] = true;
        else if (r->pending) run[i] = true;
        else if (!r->waiting && (r->type == MT_COUNT || r->yielded)) run[i] = true;
    }
    for (int i = 0; i < MODEL_RECS; i++)
        if (run[i] && M->r[i].alive && !M->r[i].paused && M->r[i].type != MT_RECV) model_step(M, i);
    for (;;) { /* receivers in their queue order: the order they wait in again */
        int next = -1;
        for (int i = 0; i < MODEL_RECS; i++)
            if (run[i] && M->r[i].type == MT_RECV && M->r[i].alive && !M->r[i].paused && M->r[i].pending &&
                (next < 0 || M->r[i].qseq < M->r[next].qseq))
                next = i;
        if (next < 0) break;
        model_step(M, next);
    }
    for (bool moved = true; moved;) { /* the ready ring */
        moved = false;
        for (int i = 0; i < MODEL_RECS; i++) {
            model_rec *r = &M->r[i];
            if (r->alive && !r->paused && r->pending && !run[i]) {
                run[i] = true;
                model_step(M, i);
                moved = true;
            }
        }
    }
}

/* ---- checks */

static bool model_check(model *M)
{
    corral_sched *s = M->s;
    if (!corral_verify(s)) return model_fail(M, "corral_verify failed: %s", corral_error_str(corral_last_error(s)));
    if (corral_live_count(s) != (uint32_t)M->live)
        return model_fail(M, "live count %u, model %d", corral_live_count(s), M->live);
    uint32_t per_type[MT_TYPES] = {0};
    for (int i = 0; i < MODEL_RECS; i++) {
        model_rec *r = &M->r[i];
        if (!r->used) continue;
        if (corral_alive(s, r->h) != r->alive)
            return model_fail(M, "record %d (type %d): alive %d, model %d", i, r->type, !r->alive, r->alive);
        if (r->alive && corral_paused(s, r->h) != r->paused)
            return model_fail(M, "record %d: paused %d, model %d", i, !r->paused, r->paused);
        if (g_model_ends[i] != (r->alive ? 0 : 1))
            return model_fail(M, "record %d: cleanup ran %d times, alive %d", i, g_model_ends[i], r->alive);
        if (r->alive) per_type[r->type]++;
        if (r->alive && r->type == MT_RECV) {
            const m_recv_ctx *rc = m_recv_ctx_of(s, r->h);
            if (rc && r->pending && rc->v != r->handed)
                return model_fail(M, "receiver %d was handed %d, model %d", i, rc->v, r->handed);
            if (!rc || (uint32_t)rc->got != r->got || rc->sum != r->sum)
                return model_fail(M, "receiver %d: got %u (sum %d), model %u (%d)", i, rc ? (uint32_t)rc->got : 0u,
                                  rc ? rc->sum : 0, r->got, r->sum);
        }
    }
    if (corral_channel_count(s, M->ch) != M->qn)
        return model_fail(M, "the channel holds %u, model %u", corral_channel_count(s, M->ch), M->qn);
    for (int t = 0; t < MT_TYPES; t++) {
        corral_type_stats ts;
        if (corral_stats_type_of(s, model_types[t], &ts) && ts.live != per_type[t])
            return model_fail(M, "type %d: live %u, model %u", t, ts.live, per_type[t]);
    }
    return true;
}

/* ---- operations */

typedef struct model_in {
    const uint8_t *p;
    size_t n, at;
} model_in;

static uint32_t model_byte(model_in *in) { return in->at < in->n ? in->p[in->at++] : 0u; }

static int model_pick_alive(model *M, uint32_t b)
{
    int n = 0, pick[MODEL_RECS];
    for (int i = 0; i < MODEL_RECS; i++)
        if (M->r[i].alive) pick[n++] = i;
    return n ? pick[b % (uint32_t)n] : -1;
}

static int model_pick_used(model *M, uint32_t b)
{
    int n = 0, pick[MODEL_RECS];
    for (int i = 0; i < MODEL_RECS; i++)
        if (M->r[i].used) pick[n++] = i;
    return n ? pick[b % (uint32_t)n] : -1;
}

/* a record no live coroutine refers to */
static int model_free_rec(model *M)
{
    for (int i = 0; i < MODEL_RECS; i++) {
        if (M->r[i].alive) continue;
        bool referred = false;
        for (int j = 0; j < MODEL_RECS && !referred; j++) {
            const model_rec *o = &M->r[j];
            referred = o->alive && ((o->type == MT_JOIN && o->target == i) || o->child == i || o->child2 == i ||
                                    o->parent == i);
        }
        if (!referred) return i;
    }
    return -1;
}

static bool model_op_start(model *M, model_in *in)
{
    int type = (int)(model_byte(in) % MT_TYPES);
    uint32_t a = model_byte(in), b = model_byte(in);
    int i = model_free_rec(M);
    if (i < 0) return true;
    int child = -1, child2 = -1;
    if (type == MT_CALLER || type == MT_RACER) {
        M->r[i].alive = true; /* hold i while finding the child's record */
        child = model_free_rec(M);
        if (child >= 0 && type == MT_RACER) {
            M->r[child].alive = true;
            child2 = model_free_rec(M);
            M->r[child].alive = false;
        }
        M->r[i].alive = false;
        if (child < 0 || (type == MT_RACER && child2 < 0)) return true;
        if (type == MT_RACER && M->live + 3 > MODEL_CAP) return true; /* a race whose arms cannot all start: not modelled */
    }
    model_rec *r = &M->r[i];
    memset(r, 0, sizeof *r);
    r->type = type;
    r->owner = (a & 3u) ? (uint64_t)(a & 3u) : 0; /* owners 1..3, or none */
    r->tags = (a >> 2) & 7u;                      /* tags 0..2 */
    if (type == MT_GEN || type == MT_RECV) r->owner = r->tags = 0; /* a generator starts with neither; receivers
                                                                      stay out of group resumes (their queue order) */
    r->child = r->parent = r->child2 = -1;
    r->target = -1;
    g_model_ends[i] = 0;
    corral_start_desc opts = {.phase = CORRAL_PHASE_DEFAULT, .owner = r->owner, .tags = r->tags};
    corral_handle h = {0, 0};
    bool full = M->live >= MODEL_CAP;
    switch (type) {
    case MT_COUNT:
        r->left = 1 + b % 16u;
        h = m_count_start_ex(M->s, (m_count_ctx){(uint32_t)i, r->left}, &opts);
        break;
    case MT_SIG: {
        r->sig = (int)(b % MODEL_SIGNALS);
        r->left = 1 + (b >> 2) % 3u;
        corral_signal sg = M->sig[r->sig].live ? M->sig[r->sig].h : M->dead_sig;
        r->sh = sg;
        h = m_sig_start_ex(M->s, (m_sig_ctx){(uint32_t)i, r->left, sg}, &opts);
        break;
    }
    case MT_FUT: {
        r->fut = (int)(b % MODEL_FUTURES);
        corral_future f = M->fut[r->fut].live ? M->fut[r->fut].h : M->dead_fut;
        h = m_fut_start_ex(M->s, (m_fut_ctx){(uint32_t)i, f}, &opts);
        break;
    }
    case MT_SLEEP: {
        float t = (float)(1 + b % 96u) / 64.0f;
        r->domain = (a >> 7) & 1u;
        r->due = model_dtime(M, r->domain) + (double)t;
        opts.domain = r->domain;
        h = m_sleep_start_ex(M->s, (m_sleep_ctx){(uint32_t)i, t}, &opts);
        break;
    }
    case MT_RACER:
        r->left = 2 + b % 8u;        /* arm a's steps */
        r->pulled = 2 + (b >> 3) % 8u; /* arm b's */
        g_model_ends[child] = g_model_ends[child2] = 0;
        M->r[child].used = M->r[child2].used = false;
        g_model_h[child] = g_model_h[child2] = (corral_handle){0, 0};
        h = m_racer_start_ex(M->s, (m_racer_ctx){(uint32_t)i, (uint32_t)child, (uint32_t)child2, r->left, r->pulled}, &opts);
        break;
    case MT_RECV:
        r->left = 1 + b % 3u;
        h = m_recv_start_ex(M->s, (m_recv_ctx){.rec = (uint32_t)i, .ch = M->ch, .left = (uint16_t)r->left}, &opts);
        break;
    case MT_GEN:
        r->left = 1 + b % 6u;
        h = m_gen_gen(M->s, (m_gen_ctx){.rec = (uint32_t)i, .left = r->left});
        break;
    case MT_JOIN: {
        int t = model_pick_used(M, b);
        if (t < 0) return true;
        r->target = t;
        h = m_join_start_ex(M->s, (m_join_ctx){(uint32_t)i, M->r[t].h}, &opts);
        break;
    }
    default: /* MT_CALLER */
        r->left = 1 + b % 8u; /* the child's steps */
        g_model_ends[child] = 0;
        M->r[child].used = false; /* reused for the child, if it starts */
        g_model_h[child] = (corral_handle){0, 0};
        h = m_caller_start_ex(M->s, (m_caller_ctx){(uint32_t)i, (uint32_t)child, r->left}, &opts);
        break;
    }
    if (full) {
        g_model_counts.refused++;
        if (h.gen != 0) return model_fail(M, "start succeeded with %d of %d slots live", M->live, MODEL_CAP);
        if (corral_last_error(M->s) != CORRAL_ERR_POOL_EXHAUSTED)
            return model_fail(M, "a full pool said %s", corral_error_str(corral_last_error(M->s)));
        return true;
    }
    if (h.gen == 0) return model_fail(M, "start of type %d failed with %d of %d live: %s", type, M->live,
                                      MODEL_CAP, corral_error_str(corral_last_error(M->s)));
    r->used = r->alive = true;
    r->h = h;
    M->live++;
    g_model_counts.started++;
    /* the first step, at once */
    switch (type) {
    case MT_COUNT:
        model_step(M, i);
        break;
    case MT_SIG:
        if (!M->sig[r->sig].live) r->yielded = true;
        else r->waiting = true;
        break;
    case MT_FUT:
        if (!M->fut[r->fut].live) r->yielded = true;
        else if (M->fut[r->fut].done) model_end(M, i);
        else r->waiting = true;
        break;
    case MT_SLEEP:
        r->waiting = true;
        break;
    case MT_JOIN:
        if (!M->r[r->target].alive) model_end(M, i);
        else r->waiting = true;
        break;
    case MT_RACER: /* both arms start and step once (2 steps or more: neither ends there) */
        g_model_counts.races++;
        for (int k = 0; k < 2; k++) {
            int arm = k ? child2 : child;
            model_rec *c = &M->r[arm];
            memset(c, 0, sizeof *c);
            c->used = c->alive = true;
            c->type = MT_COUNT;
            c->owner = r->owner;
            c->tags = r->tags;
            c->left = k ? r->pulled : r->left;
            c->child = c->child2 = -1;
            c->parent = i;
            c->target = -1;
            c->h = g_model_h[arm];
            M->live++;
            if (c->h.gen == 0) return model_fail(M, "a racer's arm never stepped");
            model_step(M, arm);
        }
        r->child = child;
        r->child2 = child2;
        r->waiting = true;
        break;
    case MT_RECV:
        model_recv(M, i);
        break;
    case MT_GEN: /* it steps when it is pulled; between pulls it is held (it reads as paused) */
        r->paused = true;
        break;
    default: { /* MT_CALLER: the child starts if a slot is free, steps at once */
        if (M->live >= MODEL_CAP) {
            model_end(M, i);
            break;
        }
        model_rec *c = &M->r[child];
        memset(c, 0, sizeof *c);
        c->used = c->alive = true;
        c->type = MT_COUNT;
        c->owner = r->owner;
        c->tags = r->tags;
        c->left = r->left;
        c->child = c->child2 = -1;
        c->parent = i;
        c->target = -1;
        M->live++;
        g_model_counts.calls++;
        r->child = child;
        r->waiting = true;
        c->h = g_model_h[child];
        if (c->h.gen == 0) return model_fail(M, "the caller's child never stepped");
        model_step(M, child); /* a 1-step child ends here: the caller resumes and ends too */
        if (r->alive && r->pending) model_step(M, i);
        break;
    }
    }
    return true;
}

static bool model_op_stop(model *M, model_in *in)
{
    int i = model_pick_used(M, model_byte(in));
    if (i < 0) return true;
    model_rec *r = &M->r[i];
    bool want = r->alive;
    bool got = corral_stop(M->s, r->h);
    if (got != want) return model_fail(M, "stop of record %d returned %d, model %d", i, got, want);
    if (want) model_end(M, i);
    return true;
}

static bool model_op_pause(model *M, model_in *in, bool pause)
{
    int i = model_pick_alive(M, model_byte(in));
    if (i < 0 || M->r[i].type == MT_GEN) return true; /* a generator is held between pulls: not modelled */
    model_rec *r = &M->r[i];
    bool want = pause ? !r->paused : r->paused;
    bool got = pause ? corral_pause(M->s, r->h) : corral_resume(M->s, r->h);
    if (got != want) return model_fail(M, "%s of record %d returned %d", pause ? "pause" : "resume", i, got);
    if (!want) return true;
    if (pause) g_model_counts.pauses++;
    else g_model_counts.resumes++;
    if (pause) {
        r->paused = true;
        if (r->type == MT_SLEEP && r->waiting) r->remaining = r->due - model_dtime(M, r->domain);
    } else {
        r->paused = false;
        if (r->type == MT_SLEEP && r->waiting) r->due = model_dtime(M, r->domain) + r->remaining;
        if (r->type == MT_RECV && r->pending) r->qseq = ++M->qseq;
    }
    return true;
}

static bool model_in_group(const model_rec *r, bool by_owner, uint64_t owner, uint32_t tags)
{
    return r->alive && (by_owner ? r->owner == owner : (r->tags & tags) != 0);
}

static bool model_op_group(model *M, model_in *in)
{
    uint32_t a = model_byte(in);
    int op = (int)(a % 3u);
    bool by_owner = (a >> 2) & 1u;
    uint64_t owner = 1 + (a >> 3) % 3u;
    uint32_t tags = 1u + (a >> 5) % 7u;
    uint32_t want = 0, got;
    bool hit[MODEL_RECS];
    g_model_counts.group_ops++;
    for (int i = 0; i < MODEL_RECS; i++) {
        hit[i] = model_in_group(&M->r[i], by_owner, owner, tags);
        if (hit[i] && ((op == 1 && !M->r[i].paused) || (op == 2 && M->r[i].paused))) want++;
    }
    if (op == 0) {
        got = by_owner ? corral_stop_owner(M->s, owner) : corral_stop_tags(M->s, tags);
        uint32_t n = 0;
        for (int i = 0; i < MODEL_RECS; i++)
            if (hit[i]) n++;
        if (got != n) return model_fail(M, "group stop ended %u, model %u", got, n);
        for (int i = 0; i < MODEL_RECS; i++)
            if (hit[i]) model_end(M, i);
        return true;
    }
    got = op == 1 ? (by_owner ? corral_pause_owner(M->s, owner) : corral_pause_tags(M->s, tags))
                  : (by_owner ? corral_resume_owner(M->s, owner) : corral_resume_tags(M->s, tags));
    if (got != want) return model_fail(M, "group %s returned %u, model %u", op == 1 ? "pause" : "resume", got, want);
    for (int i = 0; i < MODEL_RECS; i++) {
        model_rec *r = &M->r[i];
        if (!hit[i]) continue;
        if (op == 1 && !r->paused) {
            r->paused = true;
            if (r->type == MT_SLEEP && r->waiting) r->remaining = r->due - model_dtime(M, r->domain);
        } else if (op == 2 && r->paused) {
            r->paused = false;
            if (r->type == MT_SLEEP && r->waiting) r->due = model_dtime(M, r->domain) + r->remaining;
        }
    }
    return true;
}

static bool model_op_signal(model *M, model_in *in)
{
    uint32_t a = model_byte(in);
    int k = (int)(a % MODEL_SIGNALS);
    int op = (int)((a >> 2) % 3u);
    if (!M->sig[k].live) {
        if (op != 0) { /* stale use is refused, nothing changes */
            if (corral_signal_raise(M->s, M->sig[k].h) != 0) return model_fail(M, "a stale signal woke someone");
            return true;
        }
        corral_signal h = corral_signal_create(M->s);
        if (h.gen == 0) return model_fail(M, "signal pool empty with %d signals", MODEL_SIGNALS);
        M->sig[k].h = h;
        M->sig[k].live = true;
        return true;
    }
    uint32_t want = 0;
    bool hit[MODEL_RECS];
    for (int i = 0; i < MODEL_RECS; i++) {
        hit[i] = M->r[i].alive && M->r[i].type == MT_SIG && model_sig_is(M, k, M->r[i].sh);
        want += hit[i] && M->r[i].waiting;
    }
    if (op == 2) {
        if (!corral_signal_destroy(M->s, M->sig[k].h)) return model_fail(M, "signal destroy refused");
        M->dead_sig = M->sig[k].h;
        M->sig[k].live = false;
    } else {
        uint32_t got = corral_signal_raise(M->s, M->sig[k].h);
        if (got != want) return model_fail(M, "raise woke %u, model %u", got, want);
        g_model_counts.raises += got;
    }
    for (int i = 0; i < MODEL_RECS; i++)
        if (hit[i]) model_wake(M, i);
    return true;
}

static bool model_op_future(model *M, model_in *in)
{
    uint32_t a = model_byte(in);
    int k = (int)(a % MODEL_FUTURES);
    int op = (int)((a >> 2) % 3u);
    if (!M->fut[k].live) {
        corral_future f = corral_future_create(M->s);
        if (f.gen == 0) return model_fail(M, "future pool empty");
        M->fut[k].h = f;
        M->fut[k].live = true;
        M->fut[k].done = false;
        return true;
    }
    if (op == 2) {
        if (!corral_future_release(M->s, M->fut[k].h)) return model_fail(M, "future release refused");
        M->dead_fut = M->fut[k].h;
        M->fut[k].live = false;
    } else {
        bool want = !M->fut[k].done;
        bool got = corral_future_complete(M->s, M->fut[k].h, (corral_value){.i = 7});
        if (got != want) return model_fail(M, "complete returned %d, model %d", got, want);
        M->fut[k].done = true;
        g_model_counts.completes += want;
    }
    for (int i = 0; i < MODEL_RECS; i++)
        if (M->r[i].alive && M->r[i].type == MT_FUT && M->r[i].fut == k) model_wake(M, i);
    return true;
}

/* pull a generator: its next value, or (past its last) false and it ends */
static bool model_op_pull(model *M, model_in *in)
{
    uint32_t b = model_byte(in);
    int n = 0, pick[MODEL_RECS];
    for (int i = 0; i < MODEL_RECS; i++)
        if (M->r[i].used && M->r[i].type == MT_GEN) pick[n++] = i;
    if (n == 0) return true;
    int i = pick[b % (uint32_t)n];
    model_rec *r = &M->r[i];
    uint32_t v = 0;
    bool got = m_gen_next(M->s, r->h, &v);
    bool want = r->alive && r->pulled < r->left;
    g_model_counts.pulls++;
    if (got != want) return model_fail(M, "pull of generator %d returned %d, model %d", i, got, want);
    if (want && v != r->pulled + 1) return model_fail(M, "generator %d gave %u, model %u", i, v, r->pulled + 1);
    if (want) {
        r->pulled++;
    } else if (r->alive) { /* past its last value: it ends; what that wakes resumes in the pull
                                 (joins, and what joins them in turn), the rest at the next frame */
        bool before[MODEL_RECS];
        for (int j = 0; j < MODEL_RECS; j++) before[j] = M->r[j].pending;
        model_end(M, i);
        for (bool moved = true; moved;) {
            moved = false;
            for (int j = 0; j < MODEL_RECS; j++) {
                model_rec *o = &M->r[j];
                if (o->alive && o->pending && !before[j] && !o->paused) {
                    before[j] = true;
                    model_step(M, j);
                    moved = true;
                }
            }
        }
    }
    return true;
}

/* a value sent from outside: to the receiver waiting longest (paused or
   not), else into the channel, else refused (full) */
static bool model_op_send(model *M, model_in *in)
{
    int32_t v = (int32_t)(model_byte(in) % 100u) + 1;
    int first = -1;
    for (int i = 0; i < MODEL_RECS; i++) {
        const model_rec *r = &M->r[i];
        if (r->alive && r->type == MT_RECV && r->waiting && (first < 0 || r->wseq < M->r[first].wseq)) first = i;
    }
    bool want = first >= 0 || M->qn < MODEL_CHANNEL_CAP;
    bool got = corral_channel_try_send(M->s, M->ch, &v, sizeof v);
    g_model_counts.sends++;
    if (got != want) return model_fail(M, "send returned %d, model %d", got, want);
    if (first >= 0) {
        M->r[first].handed = v;
        model_wake(M, first);
    } else if (want) {
        M->q[M->qn++] = v;
    }
    return true;
}

/* domain 1: a new scale (1/2, 1, 2), a pause or a resume */
static bool model_op_domain(model *M, model_in *in)
{
    uint32_t a = model_byte(in) % 5u;
    g_model_counts.domain_ops++;
    if (a < 3) {
        float scale = a == 0 ? 0.5f : a == 1 ? 1.0f : 2.0f;
        if (!corral_domain_set_scale(M->s, 1, scale)) return model_fail(M, "domain scale refused");
        M->scale1 = scale;
    } else if (a == 3) {
        corral_domain_pause(M->s, 1);
        M->paused1 = true;
    } else {
        corral_domain_resume(M->s, 1);
        M->paused1 = false;
    }
    if (corral_domain_paused(M->s, 1) != M->paused1) return model_fail(M, "domain 1 paused %d, model %d", !M->paused1, M->paused1);
    return true;
}

static bool model_op_tick(model *M, model_in *in)
{
    float dt = (float)(model_byte(in) % 17u) / 64.0f;
    corral_tick(M->s, dt);
    g_model_counts.ticks++;
    M->time += (double)dt;
    if (!M->paused1) M->time1 += (double)(dt * M->scale1);
    model_update(M);
    return true;
}

/* A fresh scheduler and model for an input of `size` bytes. */
static inline bool model_open(model *M, size_t size, char *why, size_t why_cap)
{
    memset(M, 0, sizeof *M);
    memset(g_model_ends, 0, sizeof g_model_ends);
    M->why = why;
    M->why_cap = why_cap;
    M->scale1 = 1.0f;
    why[0] = 0;
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    /* odd-length inputs run in 40-byte slots: a multiple of 8, not of 16,
       so every other slot is only 8-aligned (every model type allows it) */
    d.classes[0].slot_size = (size & 1u) ? 40 : 64;
    d.classes[0].capacity = MODEL_CAP;
    d.max_signals = MODEL_SIGNALS;
    d.max_futures = MODEL_FUTURES;
    d.domains = 2;
    d.max_channels = 1;
    d.channel_bytes = MODEL_CHANNEL_CAP * sizeof(int32_t);
    d.validation = CORRAL_VALIDATION_REPORT;
    d.logger.fn = model_logger;
    M->s = corral_sched_create(&d);
    if (M->s) M->ch = corral_channel_create(M->s, sizeof(int32_t));
    if (!M->s || M->ch.gen == 0) snprintf(why, why_cap, "create failed");
    return M->s != NULL && M->ch.gen != 0;
}

/* One operation from the input, then the checks. */
static inline bool model_op(model *M, model_in *in)
{
    uint32_t c = model_byte(in) % 19u;
    bool ok;
    if (c < 6) ok = model_op_start(M, in);
    else if (c < 8) ok = model_op_stop(M, in);
    else if (c == 8) ok = model_op_pause(M, in, true);
    else if (c == 9) ok = model_op_pause(M, in, false);
    else if (c == 10) ok = model_op_group(M, in);
    else if (c == 11) ok = model_op_signal(M, in);
    else if (c == 12) ok = model_op_future(M, in);
    else if (c == 16) ok = model_op_pull(M, in);
    else if (c == 17) ok = model_op_domain(M, in);
    else if (c == 18) ok = model_op_send(M, in);
    else ok = model_op_tick(M, in);
    return ok && model_check(M);
}

/* Stop everything: nothing may leak. Then destroy. */
static inline bool model_close(model *M, bool ok)
{
    if (ok) {
        for (int i = 0; i < MODEL_RECS; i++)
            if (M->r[i].alive) {
                corral_stop(M->s, M->r[i].h);
                model_end(M, i);
            }
        corral_arena_stats as;
        corral_stats_arena(M->s, &as);
        if (corral_live_count(M->s) != 0 || as.slot_bytes != 0 || as.ctx_bytes != 0)
            ok = model_fail(M, "after stopping all: live %u, slot bytes %llu", corral_live_count(M->s),
                            (unsigned long long)as.slot_bytes);
        ok = ok && model_check(M);
    }
    corral_sched_destroy(M->s);
    return ok;
}

/* Play `data` as operations. -1: library and model agreed after every
   operation and everything was freed at the end; else the number of the
   operation after which they disagreed (`why` says how). */
static inline long model_run(const uint8_t *data, size_t size, char *why, size_t why_cap, uint64_t *ops_run)
{
    static model M; /* large: not on the stack */
    if (!model_open(&M, size, why, why_cap)) return 0;
    model_in in = {data, size, 0};
    long op = 0;
    bool ok = true;
    while (ok && in.at < in.n) {
        ok = model_op(&M, &in);
        if (!ok) break;
        op++;
    }
    ok = model_close(&M, ok);
    if (ops_run) *ops_run += (uint64_t)op;
    return ok ? -1 : op;
}

#endif /* CORRAL_TESTS_MODEL_H */
