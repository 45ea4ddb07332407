/*
    sched.c -- start, stop, the end of a coroutine, the frame and its phases.

    Starting runs the first step at once (Unity). A coroutine lives in one
    phase; when its step yields it stays in its lane (queue.c), moves to
    another phase's lane, or parks on a wait (waits.c). A coroutine whose
    step is on the C stack is never freed under it: stopping it marks it
    STOPPING and it ends when its step returns.
*/
#include "corral_internal.h"

#include <string.h>

/* public phase -> internal index; false if out of range */
static bool corral__phase_index(corral_phase p, uint32_t *out)
{
    switch (p) {
    case CORRAL_PHASE_DEFAULT:
    case CORRAL_PHASE_UPDATE: *out = CORRAL__PH_UPDATE; return true;
    case CORRAL_PHASE_FIXED_UPDATE: *out = CORRAL__PH_FIXED; return true;
    case CORRAL_PHASE_LATE_UPDATE: *out = CORRAL__PH_LATE; return true;
    case CORRAL_PHASE_END_OF_FRAME: *out = CORRAL__PH_END; return true;
    default: return false;
    }
}

void corral__enqueue(corral_sched *s, corral_co *co)
{
    uint32_t off = corral__co_off(s, co);
    co->state = CORRAL__QUEUED;
    co->link = corral__lane_push(s, corral__run_lane_of(s, co), off);
}

/* The resume contract (docs/API.md, "When a coroutine resumes") decides
   here where a yield lands; the waits that park on nodes decide through
   their containers (timers by their due time, predicates in
   corral__attach), and every other path only queues. A yield waits for
   the next frame when its step awaited next_frame, or when it is the
   coroutine's first step and it awaited no phase (Unity: `yield return
   null` from StartCoroutine resumes in the next frame; the coroutine does
   not run twice in the frame it started in). */
void corral__land(corral_sched *s, corral_co *co)
{
    const uint32_t f = co->flags;
    CORRAL__CONTRACT_DONE(co);
    bool next_frame = (f & CORRAL__NEXT_FRAME_FLAG) ||
                      (f & (CORRAL__FIRST_FLAG | CORRAL__PHASE_WAIT_FLAG)) == CORRAL__FIRST_FLAG;
    if (CORRAL__UNLIKELY(next_frame) && corral__run_to_come(s, f & CORRAL__PHASE_MASK)) {
        co->state = CORRAL__DEFERRED;
        co->link = corral__lane_push(s, corral__lane_of(s, co), corral__co_off(s, co));
        return;
    }
    corral__enqueue(s, co);
}

static uint32_t *corral__ready(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->run.ready_off);
}

void corral__ready_push(corral_sched *s, corral_co *co)
{
    co->state = CORRAL__READY;
    co->link = s->run.ready_tail % s->arena.total_slots;
    corral__ready(s)[co->link] = corral__co_off(s, co);
    s->run.ready_tail++;
}

/* The last part of every end: its cleanup hook, its counters, its slot
   back on the free list. (state is ENDING: not alive to the hook) */
static CORRAL__ALWAYS_INLINE void corral__end_last(corral_sched *s, corral_co *co, corral__type_entry *te,
                                                corral__class *c, corral_end_reason why, uint32_t local,
                                                bool plain)
{
    if (!plain && te->cleanup) {
        s->now.depth++;
        te->cleanup(CORRAL__AT(co, te->ctx_off), why);
        s->now.depth--;
    }
    te->live--;
    if (why == CORRAL_END_STOPPED) te->stopped++;
    else if (why != CORRAL_END_FINISHED) te->ended_other++;
    if (!plain && te->budget) c->reserved++;
    s->arena.live--;
    s->arena.slot_bytes -= c->slot_size;
    s->arena.ctx_bytes -= te->ctx_size;
    if (!plain && s->prof.hooks.free) s->prof.hooks.free(c->name, co, c->slot_size, s->prof.hooks.user_data);
    corral__slot_free(s, te, c, co, local);
}

/* What ties an ending coroutine to others: its groups, the caller awaiting
   it (hand over the result, wake it), its joiners. */
static void corral__end_links(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                              corral_end_reason why)
{
    if (m->groups != CORRAL__NIL) corral__leave_groups(s, co);
    if (m->parent != CORRAL__NIL) { /* a caller awaits it: hand over the result, wake it */
        corral_co *p = corral__co_of_global(s, m->parent);
        corral__meta *pm = corral__meta_of(s, p);
        m->parent = CORRAL__NIL;
        if (pm->child == corral__global_of(s, co)) {
            if (why == CORRAL_END_FINISHED && te->vt->result_size && pm->dest != CORRAL__NIL)
                memcpy(CORRAL__AT(p, pm->dest), CORRAL__AT(co, te->ctx_off + te->vt->result_offset),
                       te->vt->result_size);
            pm->outcome = (uint8_t)why;
            pm->child = pm->dest = CORRAL__NIL;
            if (pm->wait != CORRAL__NIL) corral__release_wait(s, p); /* an interrupt that did not fire */
            if (p->state == CORRAL__PAUSED) {
                pm->hold |= CORRAL__HOLD_WOKEN; /* resumes on corral_resume */
            } else if (corral__is_running(s, p)) {
                if (p->state == CORRAL__WAITING)
                    p->state = (p->flags & CORRAL__ONSTACK_FLAG) ? CORRAL__RUNNING : CORRAL__QUEUED;
            } else if (p->state == CORRAL__WAITING) {
                corral__wake_now_or_queue(s, p);
            }
        }
    }
    if (m->joiners_head != CORRAL__NIL) corral__wake_joiners(s, co);
}

/* (m: its meta; local: its slot in its class, NIL if not at hand) */
static CORRAL__ALWAYS_INLINE void corral__end_one(corral_sched *s, corral_co *co, corral__meta *m,
                                                 corral_end_reason why, uint32_t local)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    if (co->state == CORRAL__QUEUED || co->state == CORRAL__DEFERRED) corral__lane_tombstone(s, co);
    else if (co->state == CORRAL__WAITING || co->state == CORRAL__PAUSED) corral__release_wait(s, co);
    else if (co->state == CORRAL__READY) corral__ready(s)[co->link] = CORRAL__NIL;
    co->state = CORRAL__ENDING; /* not alive: stop and alive see it as ended */
    /* the common end has no links: one test (the AND of NILs is NIL) */
    if ((m->groups & m->parent & m->joiners_head) != CORRAL__NIL) corral__end_links(s, co, m, te, why);
    corral__class *c = &s->arena.classes[te->cls];
    if (local == CORRAL__NIL) local = corral__slot_local(c, corral__co_off(s, co));
    corral__end_last(s, co, te, c, why, local, false);
}

void corral__wake_now_or_queue(corral_sched *s, corral_co *co)
{
    if (s->run.starting || (s->now.in_tick && (co->flags & CORRAL__PHASE_MASK) == s->now.phase))
        corral__ready_push(s, co);
    else
        corral__enqueue(s, co);
}

/* End a coroutine and, iteratively, the chain of children it awaits (each
   with PARENT_STOPPED; DESTROYED stays DESTROYED). A child whose step is on
   the C stack is only marked: it ends when that step returns. */
static CORRAL__ALWAYS_INLINE void corral__end_m(corral_sched *s, corral_co *co, corral__meta *m,
                                               corral_end_reason why, uint32_t local)
{
    for (;;) {
        corral_co *child = m->child != CORRAL__NIL ? corral__co_of_global(s, m->child) : NULL;
        m->child = CORRAL__NIL;
        corral__meta *cm = child ? corral__meta_of(s, child) : NULL;
        if (cm) cm->parent = CORRAL__NIL; /* it must not wake us */
        corral__end_one(s, co, m, why, local);
        if (!child) return;
        if (why != CORRAL_END_DESTROYED) why = CORRAL_END_PARENT_STOPPED;
        if (corral__is_running(s, child)) {
            if (child->state == CORRAL__WAITING) corral__release_wait(s, child);
            child->state = CORRAL__STOPPING;
            cm->stop_why = (uint8_t)why;
            return;
        }
        co = child;
        m = cm;
        local = CORRAL__NIL;
    }
}

void corral__end(corral_sched *s, corral_co *co, corral_end_reason why)
{
    corral__end_m(s, co, corral__meta_of(s, co), why, CORRAL__NIL);
}

/* a coroutine marked STOPPING ends with the reason stored for it */
static corral_end_reason corral__stop_reason(corral__meta *m)
{
    corral_end_reason why = (corral_end_reason)m->stop_why;
    m->stop_why = CORRAL_END_STOPPED;
    return why;
}

/* Step a coroutine that is in no lane (its first step, or from the ready
   ring). step: its type's step function; plain: its type is plain
   (corral__plain), so the step is not instrumented. Returns what the step
   returned; *pause: whether it asked to be paused. */
static CORRAL__ALWAYS_INLINE corral_result corral__step_bare(corral_sched *s, corral_co *co,
                                                            corral_result (*step)(corral_co *), bool *pause,
                                                            bool plain)
{
    corral_sched *prev = corral__tls_sched;
    corral__tls_sched = s;
    s->now.depth++;
    co->state = CORRAL__RUNNING;
    co->flags = (uint8_t)(co->flags | CORRAL__ONSTACK_FLAG);
    corral_result r = !plain && s->prof.instrument ? corral__step_instrumented(s, co) : step(co);
    s->now.depth--;
    corral__tls_sched = prev;
    *pause = (co->flags & CORRAL__PAUSE_FLAG) != 0;
    co->flags = (uint8_t)(co->flags & ~(CORRAL__ONSTACK_FLAG | CORRAL__PAUSE_FLAG));
    return r;
}

/* After a detached step: queue it, park it or end it. m: its meta if at
   hand, or NULL; local: its slot in its class if at hand, or NIL. */
static CORRAL__ALWAYS_INLINE void corral__settle(corral_sched *s, corral_co *co, corral__meta *m, uint32_t local,
                                                corral_result r, bool pause)
{
    if (co->state == CORRAL__STOPPING || r == CORRAL_STOP) {
        if (!m) m = corral__meta_of(s, co);
        corral__end_m(s, co, m, co->state == CORRAL__STOPPING ? corral__stop_reason(m) : CORRAL_END_FINISHED, local);
    } else if (co->state == CORRAL__RUNNING) {
        corral__land(s, co);
    } else {
        /* WAITING: parked on its wait (or its child) */
        CORRAL__CONTRACT_DONE(co);
    }
    if (pause && corral__state_alive(co->state)) corral__pause_co(s, co);
}

/* a top-level start (engine code, outside any step) also runs whatever the
   first step woke or called, at once */
static CORRAL__ALWAYS_INLINE bool corral__top_begin(corral_sched *s)
{
    bool top = !s->now.in_tick && s->now.depth == 0;
    if (top) s->run.starting = 1;
    return top;
}
static CORRAL__ALWAYS_INLINE void corral__top_end(corral_sched *s, bool top)
{
    if (top) {
        if (s->run.ready_head != s->run.ready_tail) corral__drain_ready(s);
        s->run.starting = 0;
    }
}

/* Step a coroutine that is in no lane, then queue, park or end it. */
static CORRAL__ALWAYS_INLINE void corral__step_detached(corral_sched *s, corral_co *co, corral__meta *m,
                                                       uint32_t local)
{
    bool pause;
    corral_result r = corral__step_bare(s, co, corral__types(s)[co->type].step, &pause, false);
    corral__settle(s, co, m, local, r, pause);
}

/* Step a detached coroutine at once (see corral__top_begin). */
static CORRAL__ALWAYS_INLINE void corral__step_now(corral_sched *s, corral_co *co, corral__meta *m,
                                                  uint32_t local)
{
    bool top = corral__top_begin(s);
    corral__step_detached(s, co, m, local);
    corral__top_end(s, top);
}

/* The first step of a new coroutine. A spawn that is over at once -- the
   first step returns STOP, its state is still RUNNING (it did not stop
   itself or park on a wait) and nothing is tied to it (no child, caller,
   joiner or group) -- ends right here, with its type, class, meta and slot
   at hand instead of looked up again: the same end as corral__end_m's for
   it (a pause it asked for is moot), in fewer instructions. Anything else
   goes the general way. (Laid out as the likely case; a first step that
   yields pays nothing measurable for it: docs/DESIGN.md, "Spawn path".) */
static CORRAL__ALWAYS_INLINE void corral__first_step(corral_sched *s, corral_co *co, corral__meta *m,
                                                    corral__type_entry *te, corral__class *c, uint32_t local,
                                                    bool plain)
{
    bool top = corral__top_begin(s), pause;
    corral_result r = corral__step_bare(s, co, te->step, &pause, plain);
    if (CORRAL__LIKELY(r == CORRAL_STOP && co->state == CORRAL__RUNNING &&
                       (m->child & m->groups & m->parent & m->joiners_head) == CORRAL__NIL)) {
        co->state = CORRAL__ENDING;
        corral__end_last(s, co, te, c, CORRAL_END_FINISHED, local, plain);
    } else {
        corral__settle(s, co, m, local, r, pause);
    }
    corral__top_end(s, top);
}

void corral__drain_ready(corral_sched *s)
{
    while (s->run.ready_head != s->run.ready_tail) {
        uint32_t off = corral__ready(s)[s->run.ready_head % s->arena.total_slots];
        s->run.ready_head++;
        if (off == CORRAL__NIL) continue; /* stopped while ready */
        s->nodes.debug_visits++;
        corral__step_detached(s, CORRAL__CO(s, off), NULL, CORRAL__NIL);
    }
}


/* Whether a coroutine of type vt may start now (arguments, type, class,
   group nodes, budget, reservations): its type index, or NIL with the
   error set and counted. */
static CORRAL__ALWAYS_INLINE uint32_t corral__admit(const char *call, corral_sched *s, const corral_type *vt,
                                                   const void *ctx, size_t ctx_size, uint64_t owner, uint32_t tags)
{
    const uint32_t none = CORRAL__NIL;
    if (CORRAL__UNLIKELY(!vt) || CORRAL__UNLIKELY(!ctx)) {
        corral__fail_at(s, NULL, CORRAL_ERR_NULL_ARG, call, CORRAL__NOH, NULL, NULL);
        return none;
    }
    if (s->flags & CORRAL__DESTROYING) {
        corral__fail_at(s, NULL, CORRAL_ERR_DESTROYING, call, CORRAL__NOH, NULL, NULL);
        return none;
    }
    uint32_t ti = corral__type_index(s, vt);
    if (ti >= CORRAL__BAD_TI) {
        corral__fail_at(s, NULL, ti == CORRAL__NIL ? CORRAL_ERR_TOO_MANY_TYPES : CORRAL_ERR_BAD_TYPE, call, CORRAL__NOH, NULL, NULL);
        return none;
    }
    corral__type_entry *te = &corral__types(s)[ti];
    if (ctx_size != te->ctx_size) {
        corral__fail_at(s, NULL, CORRAL_ERR_CTX_SIZE_MISMATCH, call, CORRAL__NOH, NULL, NULL);
        return none;
    }
    if (te->cls == CORRAL__NO_CLASS) {
        te->failed++;
        corral__fail_at(s, NULL, CORRAL_ERR_NO_CLASS, call, CORRAL__NOH, NULL, NULL);
        return none;
    }
    corral__class *c = &s->arena.classes[te->cls];
    if ((owner | tags) && s->nodes.group_free_count < corral__nodes_needed(owner, tags)) { /* before taking anything */
        te->failed++;
        s->nodes.group_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_GROUP_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
        return none;
    }
    /* a type without a budget may not take a class's last free slots while
       they are reserved for budgeted types; with none reserved, an empty
       free list (below) is the only way to be full */
    if (te->budget ? te->live >= te->budget
                   : c->reserved && c->capacity - c->used - c->retired <= c->reserved) {
        te->failed++;
        if (te->budget) {
            corral__fail_at(s, NULL, CORRAL_ERR_TYPE_BUDGET, call, CORRAL__NOH, NULL, NULL);
        } else {
            c->failures++;
            corral__fail_at(s, NULL, CORRAL_ERR_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
        }
        return none;
    }
    return ti;
}

/* Take a slot for an admitted coroutine of type ti and copy its context in
   (no step yet). NULL, with the error set and counted, if no slot is free.
   plain: the type's corral__plain, a constant where the caller knows it so
   that the tests it stands for fold away. */
static CORRAL__ALWAYS_INLINE corral_co *corral__take(const char *call, corral_sched *s, uint32_t ti, const void *ctx,
                                                    size_t ctx_size, uint32_t phase, uint64_t owner, uint32_t tags,
                                                    corral_handle *out, corral__meta **meta_out, bool plain)
{
    corral__type_entry *te = &corral__types(s)[ti];
    corral__class *c = &s->arena.classes[te->cls];
    corral_co *co;
    uint32_t local = corral__slot_alloc(s, te, c, &co);
    if (local == CORRAL__NIL) { /* full; or retired slots ate a reservation */
        te->failed++;
        c->failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
        return NULL;
    }
    if (!plain && te->budget) c->reserved--;
    co->type = (uint16_t)ti;
    co->flags = (uint8_t)(phase | CORRAL__FIRST_FLAG);
    co->resume = 0;
    co->link = CORRAL__NIL;
    unsigned char *dst = CORRAL__AT(co, te->ctx_off);
    switch (ctx_size) { /* small contexts: inline copies, no call */
    case 8: memcpy(dst, ctx, 8); break;
    case 16: memcpy(dst, ctx, 16); break;
    case 24: memcpy(dst, ctx, 24); break;
    case 32: memcpy(dst, ctx, 32); break;
    default: memcpy(dst, ctx, ctx_size); break;
    }

    te->started++;
    if (++te->live > te->peak) te->peak = te->live;
    if (++s->arena.live > s->arena.live_peak) s->arena.live_peak = s->arena.live;
    s->arena.slot_bytes += c->slot_size;
    if (s->arena.slot_bytes > s->arena.slot_bytes_peak) s->arena.slot_bytes_peak = s->arena.slot_bytes;
    s->arena.ctx_bytes += te->ctx_size;
    if (s->arena.ctx_bytes > s->arena.ctx_bytes_peak) s->arena.ctx_bytes_peak = s->arena.ctx_bytes;
    corral__meta *m = &((corral__meta *)(void *)CORRAL__AT(s, s->arena.meta_off))[c->first + local];
    m->born = (uint32_t)s->now.frame;
    *meta_out = m;
    if (!plain && s->prof.hooks.alloc) s->prof.hooks.alloc(c->name, co, c->slot_size, s->prof.hooks.user_data);

    if (owner | tags) corral__join_groups(call, s, co, owner, tags); /* cannot fail: checked above */
    out->index = te->cls << CORRAL__CLASS_SHIFT | local;
    out->gen = co->gen;
    return co;
}

/* admit, then take (a call's child: its first step runs later, from the
   ready ring). NULL, with the error set and counted, if it cannot. */
static CORRAL__ALWAYS_INLINE corral_co *corral__create(const char *call, corral_sched *s, const corral_type *vt,
                                                      const void *ctx, size_t ctx_size, uint32_t phase,
                                                      uint64_t owner, uint32_t tags, corral_handle *out,
                                                      corral__meta **meta_out)
{
    uint32_t ti = corral__admit(call, s, vt, ctx, ctx_size, owner, tags);
    if (ti == CORRAL__NIL) return NULL;
    return corral__take(call, s, ti, ctx, ctx_size, phase, owner, tags, out, meta_out, false);
}

/* take and first step of an admitted start; plain: a constant */
static CORRAL__ALWAYS_INLINE void corral__start_as(const char *call, corral_sched *s, uint32_t ti, const void *ctx,
                                                  size_t ctx_size, uint32_t phase, uint64_t owner, uint32_t tags,
                                                  corral_handle *h, bool plain)
{
    corral__meta *m;
    corral_co *co = corral__take(call, s, ti, ctx, ctx_size, phase, owner, tags, h, &m, plain);
    if (!co) return;
    corral__type_entry *te = &corral__types(s)[ti];
    /* Unity: the first step runs at once, in the caller's frame */
    corral__first_step(s, co, m, te, &s->arena.classes[te->cls], h->index & CORRAL__LOCAL_MASK, plain);
}

static CORRAL__ALWAYS_INLINE corral_handle corral__start(const char *call, corral_sched *s, const corral_type *vt,
                                                         const void *ctx, size_t ctx_size,
                                                         const corral_start_desc *opts)
{
    corral_handle h = {0, 0};
    if (!corral__check_in(s, call)) return h;
    uint32_t phase = CORRAL__PH_UPDATE;
    if (opts && !corral__phase_index(opts->phase, &phase)) {
        corral__fail(s, NULL, CORRAL_ERR_BAD_PHASE);
        return h;
    }
    uint64_t owner = opts ? opts->owner : 0;
    uint32_t tags = opts ? opts->tags : 0;
    uint32_t ti = corral__admit(call, s, vt, ctx, ctx_size, owner, tags);
    if (ti == CORRAL__NIL) return h;
    /* two copies of the rest: one without the optional work's tests */
    if (corral__types(s)[ti].plain) corral__start_as(call, s, ti, ctx, ctx_size, phase, owner, tags, &h, true);
    else corral__start_as(call, s, ti, ctx, ctx_size, phase, owner, tags, &h, false);
    return h;
}

corral_handle corral_start(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size)
{
    return corral__start(__func__, s, vt, ctx, ctx_size, NULL);
}

corral_handle corral_start_ex(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size,
                              const corral_start_desc *opts)
{
    return corral__start(__func__, s, vt, ctx, ctx_size, opts);
}

static bool corral__call(const char *call, corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size,
                         void *dest, size_t dest_size, bool keep_wait);

bool corral_call(corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size, void *dest,
                 size_t dest_size)
{
    return corral__call(__func__, co, vt, ctx, ctx_size, dest, dest_size, false);
}

/* keep_wait: the caller's wait nodes are an interrupt for this call */
static bool corral__call(const char *call, corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size,
                         void *dest, size_t dest_size, bool keep_wait)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co) || co->state == CORRAL__STOPPING) {
        corral__fail_at(s, NULL, CORRAL_ERR_NOT_IN_STEP, call, CORRAL__NOH, NULL, NULL);
        return false;
    }
    corral__meta *pm = corral__meta_of(s, co);
    pm->outcome = CORRAL_END_NONE;
    if (pm->child != CORRAL__NIL) { /* one child at a time */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, "it awaits a child already");
        return false;
    }
    const corral__type_entry *pte = &corral__types(s)[co->type];
    uint32_t dest_off = CORRAL__NIL;
    if (vt && dest_size != vt->result_size) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_DEST, call, CORRAL__NOH, co, "its size is not the type's result size");
        return false;
    }
    if (dest_size) {
        uintptr_t d = (uintptr_t)dest, lo = (uintptr_t)CORRAL__AT(co, pte->ctx_off);
        if (!dest || d < lo || d + dest_size > lo + pte->ctx_size) {
            corral__fail_at(s, NULL, CORRAL_ERR_BAD_DEST, call, CORRAL__NOH, co, NULL);
            return false;
        }
        dest_off = (uint32_t)(d - (uintptr_t)co);
    }
    if (!keep_wait && (pm->wait != CORRAL__NIL || co->state == CORRAL__WAITING)) { /* replaces an await */
        corral__release_wait(s, co);
        co->state = (co->flags & CORRAL__ONSTACK_FLAG) ? CORRAL__RUNNING : CORRAL__QUEUED;
    }
    /* the child acts for the same entity: it joins the caller's groups */
    uint64_t owner = 0;
    uint32_t tags = 0;
    corral__node *N = corral__nodes(s);
    for (uint32_t i = pm->groups; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].kind == CORRAL__NODE_OWNER) owner = N[i].u.g.owner;
        else tags |= 1u << N[i].u.g.tag;
    }
    corral_handle h;
    corral__meta *cm;
    corral_co *child = corral__create(call, s, vt, ctx, ctx_size, co->flags & CORRAL__PHASE_MASK, owner, tags, &h,
                                      &cm);
    if (!child) return false; /* outcome NONE: the caller goes on */
    pm = corral__meta_of(s, co);
    pm->child = corral__global_of(s, child);
    pm->dest = dest_off;
    cm->parent = corral__global_of(s, co);
    co->state = CORRAL__WAITING;
    /* the child's first step runs right after this step returns: never on
       the caller's C stack, so chains of any depth cost no stack */
    corral__ready_push(s, child);
    return true;
}

bool corral_call_unless(corral_co *co, corral_wait interrupt, const corral_type *vt, const void *ctx,
                        size_t ctx_size, void *dest, size_t dest_size)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co) || co->state == CORRAL__STOPPING) {
        corral__fail(s, NULL, CORRAL_ERR_NOT_IN_STEP);
        return false;
    }
    corral__meta *pm = corral__meta_of(s, co);
    if (pm->child != CORRAL__NIL) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "it awaits a child already");
        return false;
    }
    if (pm->wait != CORRAL__NIL || co->state == CORRAL__WAITING) {
        corral__release_wait(s, co);
        co->state = (co->flags & CORRAL__ONSTACK_FLAG) ? CORRAL__RUNNING : CORRAL__QUEUED;
    }
    pm->fired = -1;
    int r = corral__register_wait(__func__, s, co, &interrupt); /* first: a bad interrupt starts nothing */
    if (r == -2) { /* no node for the interrupt: it cannot wait (see corral_await) */
        pm->outcome = CORRAL_END_NONE;
        corral__stop_co(s, co, CORRAL_END_WAIT_FAILED);
        return true;
    }
    if (r <= 0) {
        pm->outcome = r == 0 ? CORRAL_END_INTERRUPTED : CORRAL_END_NONE;
        return false;
    }
    if (!corral__call(__func__, co, vt, ctx, ctx_size, dest, dest_size, true)) { /* could not start: undo */
        corral__release_wait(s, co);
        co->state = (co->flags & CORRAL__ONSTACK_FLAG) ? CORRAL__RUNNING : CORRAL__QUEUED;
        return false;
    }
    return true;
}

corral_end_reason corral_call_outcome(const corral_co *co)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co)) {
        corral__fail(s, NULL, CORRAL_ERR_NOT_IN_STEP);
        return CORRAL_END_NONE;
    }
    return (corral_end_reason)corral__meta_of(s, co)->outcome;
}

bool corral_stop(corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    if (!co) {
        corral__fail_at(s, NULL, err, __func__, h, NULL, NULL);
        return false;
    }
    corral__stop_co(s, co, CORRAL_END_STOPPED);
    return true;
}

void corral__stop_co(corral_sched *s, corral_co *co, corral_end_reason why)
{
    if (corral__is_running(s, co)) { /* ends when its step returns */
        if (co->state == CORRAL__WAITING) corral__release_wait(s, co);
        co->state = CORRAL__STOPPING;
        corral__meta_of(s, co)->stop_why = (uint8_t)why;
    } else {
        corral__end(s, co, why);
    }
}

/* ---- pause */

bool corral__pause_co(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    if (co->state == CORRAL__PAUSED || co->state == CORRAL__STOPPING || co->state == CORRAL__ENDING)
        return false;
    if (corral__is_running(s, co)) { /* held when its step returns */
        bool had = (co->flags & CORRAL__PAUSE_FLAG) != 0;
        co->flags = (uint8_t)(co->flags | CORRAL__PAUSE_FLAG);
        return !had;
    }
    m->hold = 0;
    if (co->state == CORRAL__QUEUED || co->state == CORRAL__DEFERRED) {
        corral__lane_tombstone(s, co);
    } else if (co->state == CORRAL__READY) {
        corral__ready(s)[co->link] = CORRAL__NIL;
        m->hold = CORRAL__HOLD_WOKEN;
    } else if (co->state == CORRAL__WAITING) {
        corral__hold_timers(s, co);
        m->hold = CORRAL__HOLD_WAITING;
    }
    co->state = CORRAL__PAUSED;
    return true;
}

bool corral__resume_co(corral_sched *s, corral_co *co)
{
    if (co->flags & CORRAL__PAUSE_FLAG) { /* paused during its step: not held yet */
        co->flags = (uint8_t)(co->flags & ~CORRAL__PAUSE_FLAG);
        return true;
    }
    if (co->state != CORRAL__PAUSED) return false;
    corral__meta *m = corral__meta_of(s, co);
    uint8_t hold = m->hold;
    m->hold = 0;
    if ((hold & CORRAL__HOLD_WAITING) && !(hold & CORRAL__HOLD_WOKEN)) {
        co->state = CORRAL__WAITING;
        corral__unhold_timers(s, co);
    } else {
        corral__enqueue(s, co);
    }
    return true;
}

static corral_co *corral__live(const char *call, corral_sched *s, corral_handle h)
{
    if (!corral__check_in(s, call)) return NULL;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    if (!co) corral__fail_at(s, NULL, err, call, h, NULL, NULL);
    return co;
}

bool corral_pause(corral_sched *s, corral_handle h)
{
    corral_co *co = corral__live(__func__, s, h);
    return co && corral__pause_co(s, co);
}

bool corral_resume(corral_sched *s, corral_handle h)
{
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    if (!corral__resume_co(s, co)) {
        corral__fail_at(s, NULL, CORRAL_ERR_NOT_PAUSED, __func__, h, NULL, NULL);
        return false;
    }
    return true;
}

bool corral_paused(const corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    return co && (co->state == CORRAL__PAUSED || (co->flags & CORRAL__PAUSE_FLAG));
}

bool corral_step_once(corral_sched *s, corral_handle h)
{
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    if (co->state != CORRAL__PAUSED) {
        corral__fail_at(s, NULL, CORRAL_ERR_NOT_PAUSED, __func__, h, NULL, NULL);
        return false;
    }
    corral__meta *m = corral__meta_of(s, co);
    if (m->child != CORRAL__NIL) { /* its child runs on; stepping it would abandon that */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, h, NULL, "it awaits a child: step the child");
        return false;
    }
    corral__release_wait(s, co); /* one step, whatever it waited on */
    m->hold = 0;
    corral__step_now(s, co, m, h.index & CORRAL__LOCAL_MASK);
    if (corral__state_alive(co->state) && co->state != CORRAL__PAUSED) corral__pause_co(s, co);
    return true;
}

bool corral_alive(const corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    return corral__resolve(s, h, &err) != NULL;
}

void *corral_context(corral_sched *s, corral_handle h, const corral_type *type)
{
    if (!corral__check(s)) return NULL;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    if (!co) {
        corral__fail_at(s, NULL, err, __func__, h, NULL, NULL);
        return NULL;
    }
    const corral__type_entry *te = &corral__types(s)[co->type];
    if (te->vt != type) {
        corral__fail_at(s, NULL, CORRAL_ERR_WRONG_TYPE, __func__, h, NULL, te->vt->name);
        return NULL;
    }
    return CORRAL__AT(co, te->ctx_off);
}

/* ---- the frame */

static bool corral__may_run(const char *call, corral_sched *s)
{
    if (!corral__check_in(s, call)) return false;
    if (s->now.in_tick || s->now.depth || (s->flags & CORRAL__DESTROYING)) {
        corral__fail_at(s, NULL, CORRAL_ERR_IN_TICK, call, CORRAL__NOH, NULL, NULL);
        return false;
    }
    return true;
}

void corral_frame_begin(corral_sched *s, float dt)
{
    if (!corral__may_run(__func__, s)) return;
    if (!(dt >= 0.0f)) {
        corral__fail(s, NULL, CORRAL_ERR_BAD_DT);
        dt = 0.0f;
    }
    if (s->prof.frame_open) corral__sample_frame(s); /* an engine driving phases: close the last frame */
    s->prof.frame_open = 1;
    s->prof.frame_steps = 0;
    s->prof.frame_tick_ns = 0;
    s->prof.frame_start_time = s->now.unscaled_time;
    s->now.unscaled_dt = dt;
    s->now.frame_dt = dt * s->now.time_scale;
    s->now.time += (double)s->now.frame_dt;
    s->now.unscaled_time += (double)dt;
    s->now.frame++;
    s->now.frame_pos = 0;
    /* what waited for this frame joins its phase's queue */
    corral__lanes_next_frame(s);
    corral__predicates_next_frame(s);
}

static uint32_t corral__run(corral_sched *s, uint32_t phase)
{
    corral_sched *prev = corral__tls_sched;
    corral__tls_sched = s;
    s->now.in_tick = 1;
    s->now.phase = phase;
    if (phase == CORRAL__PH_FIXED) {
        s->now.fixed_time += (double)s->now.fixed_dt;
        s->now.phase_dt = s->now.fixed_dt;
    } else {
        s->now.phase_dt = s->now.frame_dt;
    }
    if (s->budget.ns) s->budget.run_start = s->now.clock.now_ns(s->now.clock.user_data);
    s->prof.chain_valid = 0;
    /* timers are checked once a frame, before its first run: a sleeper of
       any phase then resumes in that phase's first run of the frame */
    bool first_run = s->now.frame_pos == 0;
    s->now.frame_pos = 1u + phase;
    if (first_run) corral__wake_timers(s);
    if (s->polls.head[phase] != CORRAL__NIL) corral__poll_predicates(s, phase);
    /* this run steps what is queued now; what is queued from here on
       (a step's yield in place included) waits for the next run */
    corral__lanes_begin(s, phase);
    /* callers an interrupt or a timer just freed go on first, in this run */
    if (s->run.ready_head != s->run.ready_tail) corral__drain_ready(s);
    uint32_t steps = corral__run_lanes(s, phase);
    if (s->run.ready_head != s->run.ready_tail) corral__drain_ready(s);
    s->prof.frame_steps += steps;
    s->now.phase = CORRAL__NIL;
    s->now.in_tick = 0;
    corral__tls_sched = prev;
    return steps;
}

uint32_t corral_run_phase(corral_sched *s, corral_phase phase)
{
    uint32_t ph;
    if (!corral__may_run(__func__, s)) return 0;
    if (!corral__phase_index(phase, &ph)) {
        corral__fail(s, NULL, CORRAL_ERR_BAD_PHASE);
        return 0;
    }
    return corral__run(s, ph);
}

uint32_t corral_fixed_steps_due(const corral_sched *s)
{
    if (!corral__check(s) || !(s->now.fixed_dt > 0.0f)) return 0;
    double behind = s->now.time - s->now.fixed_time;
    if (behind < (double)s->now.fixed_dt) return 0;
    double n = behind / (double)s->now.fixed_dt;
    return n >= (double)s->now.max_fixed_steps ? s->now.max_fixed_steps : (uint32_t)n;
}

uint32_t corral_tick(corral_sched *s, float dt)
{
    if (!corral__may_run(__func__, s)) return 0;
    uint64_t t0 = s->prof.timing ? s->now.clock.now_ns(s->now.clock.user_data) : 0;
    corral_frame_begin(s, dt);
    s->prof.frame_tick_start = t0;
    uint32_t steps = 0;
    for (uint32_t n = corral_fixed_steps_due(s); n > 0; n--) steps += corral__run(s, CORRAL__PH_FIXED);
    /* too far behind (a hitch): drop the fixed steps over the cap */
    if (s->now.fixed_dt > 0.0f && s->now.time - s->now.fixed_time >= (double)s->now.fixed_dt)
        s->now.fixed_time += (double)s->now.fixed_dt * (double)(uint64_t)((s->now.time - s->now.fixed_time) / (double)s->now.fixed_dt);
    steps += corral__run(s, CORRAL__PH_UPDATE);
    steps += corral__run(s, CORRAL__PH_LATE);
    steps += corral__run(s, CORRAL__PH_END);
    if (s->prof.timing) {
        uint64_t ns = s->now.clock.now_ns(s->now.clock.user_data) - t0;
        s->prof.frame_tick_ns = ns;
        s->prof.tick_ns_last = ns;
        s->prof.tick_ns_total += ns;
        if (ns > s->prof.tick_ns_max) s->prof.tick_ns_max = ns;
    }
    corral__sample_frame(s);
    return steps;
}

void corral_set_budget(corral_sched *s, uint64_t ns)
{
    if (corral__check(s)) s->budget.ns = ns;
}

uint64_t corral_budget_left(const corral_co *co)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co)) {
        corral__fail(s, NULL, CORRAL_ERR_NOT_IN_STEP);
        return 0;
    }
    if (!s->budget.ns || !s->now.in_tick) return UINT64_MAX;
    uint64_t spent = s->now.clock.now_ns(s->now.clock.user_data) - s->budget.run_start;
    return spent >= s->budget.ns ? 0 : s->budget.ns - spent;
}

void corral_set_time_scale(corral_sched *s, float scale)
{
    if (!corral__check(s)) return;
    if (!(scale >= 0.0f)) {
        corral__fail(s, NULL, CORRAL_ERR_BAD_DT);
        return;
    }
    s->now.time_scale = scale;
}

float corral_time_scale(const corral_sched *s)
{
    return corral__check(s) ? s->now.time_scale : 0.0f;
}

uint32_t corral_live_count(const corral_sched *s)
{
    return corral__check(s) ? s->arena.live : 0;
}

double corral_time(const corral_sched *s)
{
    return corral__check(s) ? s->now.time : 0.0;
}

double corral_unscaled_time(const corral_sched *s)
{
    return corral__check(s) ? s->now.unscaled_time : 0.0;
}

double corral_fixed_time(const corral_sched *s)
{
    return corral__check(s) ? s->now.fixed_time : 0.0;
}

uint64_t corral_frame(const corral_sched *s)
{
    return corral__check(s) ? s->now.frame : 0;
}

/* ---- in a step: the scheduler is the one whose step is running */

static corral_sched *corral__running_sched(const char *call, const corral_co *co)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co)) {
        corral__fail_at(s, NULL, CORRAL_ERR_NOT_IN_STEP, call, CORRAL__NOH, NULL, NULL);
        return NULL;
    }
    return s;
}

float corral_dt(const corral_co *co)
{
    corral_sched *s = corral__running_sched(__func__, co);
    return s ? (s->now.in_tick ? s->now.phase_dt : s->now.frame_dt) : 0.0f;
}

float corral_unscaled_dt(const corral_co *co)
{
    corral_sched *s = corral__running_sched(__func__, co);
    return s ? s->now.unscaled_dt : 0.0f;
}

corral_phase corral_current_phase(const corral_co *co)
{
    static const corral_phase pub[CORRAL__PH_COUNT] = {CORRAL_PHASE_FIXED_UPDATE, CORRAL_PHASE_UPDATE,
                                                      CORRAL_PHASE_LATE_UPDATE, CORRAL_PHASE_END_OF_FRAME};
    corral_sched *s = corral__running_sched(__func__, co);
    return s ? pub[co->flags & CORRAL__PHASE_MASK] : CORRAL_PHASE_DEFAULT;
}

corral_handle corral_self(const corral_co *co)
{
    corral_handle none = {0, 0};
    corral_sched *s = corral__running_sched(__func__, co);
    return s ? corral__handle_of(s, co) : none;
}

corral_sched *corral_sched_of(const corral_co *co)
{
    return corral__running_sched(__func__, co);
}
