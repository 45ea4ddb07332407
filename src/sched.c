/*
    sched.c -- start, stop, tick and the end of a coroutine.

    The run queue is an array of slot offsets in resume order. A coroutine
    joins its end when its first step yields and keeps its place after that.
    A tick walks it front to back and compacts it in place behind the cursor,
    so in the steady state a step writes nothing but its own context.
    Coroutines whose first step yields during a tick wait in a second half
    and join the end after the walk (they first resume next tick). Stopping
    a queued coroutine writes a tombstone (NIL) at its position (co->link):
    stop is O(1) and the others keep their order. A coroutine whose step is
    on the C stack is never freed under it: stopping it marks it STOPPING
    and it ends when its step returns.
*/
#include "corral_internal.h"

#include <string.h>

/* Drop the tombstones of [begin, end) in place, fixing the links; returns
   the new end. Never called on the part of the main half a tick walks. */
static uint32_t corral__compact(corral_sched *s, uint32_t begin, uint32_t end)
{
    uint32_t *q = corral__queue(s);
    uint32_t w = begin;
    for (uint32_t i = begin; i < end; i++) {
        uint32_t off = q[i];
        if (off == CORRAL__NIL) continue;
        CORRAL__CO(s, off)->link = w;
        q[w++] = off;
    }
    return w;
}

/* Queue a coroutine that is not in the queue (after its first step). A half
   holds live coroutines other than co at most, so a compaction always
   makes room. */
static void corral__enqueue(corral_sched *s, corral_co *co, uint32_t off)
{
    uint32_t pos;
    if (s->in_tick) {
        if (s->aux_pos == 2 * s->queue_cap)
            s->aux_pos = corral__compact(s, s->queue_cap, s->aux_pos);
        pos = s->aux_pos++;
    } else {
        if (s->count == s->queue_cap) s->count = corral__compact(s, 0, s->count);
        pos = s->count++;
    }
    co->state = CORRAL__QUEUED;
    co->link = pos;
    corral__queue(s)[pos] = off;
}

static inline void corral__end_inline(corral_sched *s, corral_co *co, corral_end_reason why)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    corral__class *c = &s->classes[te->cls];
    if (co->state == CORRAL__QUEUED) corral__queue(s)[co->link] = CORRAL__NIL;
    co->state = CORRAL__ENDING; /* not alive: stop and alive see it as ended */
    if (te->vt->cleanup) {
        s->depth++;
        te->vt->cleanup(CORRAL__AT(co, te->ctx_off), why);
        s->depth--;
    }
    te->live--;
    if (why == CORRAL_END_FINISHED) te->finished++;
    else if (why == CORRAL_END_STOPPED) te->stopped++;
    if (te->budget) c->reserved++;
    s->live--;
    s->slot_bytes -= c->slot_size;
    s->ctx_bytes -= te->ctx_size;
    corral__slot_free(s, te->cls, corral__co_off(s, co));
}

void corral__end(corral_sched *s, corral_co *co, corral_end_reason why)
{
    corral__end_inline(s, co, why);
}

corral_handle corral_start(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size)
{
    corral_handle none = {0, 0};
    if (!corral__check(s)) return none;
    if (!vt || !ctx) {
        corral__fail(s, NULL, CORRAL_ERR_NULL_ARG);
        return none;
    }
    if (s->flags & CORRAL__DESTROYING) {
        corral__fail(s, NULL, CORRAL_ERR_DESTROYING);
        return none;
    }
    uint32_t ti = corral__type_index(s, vt);
    if (ti >= CORRAL__BAD_TI) {
        corral__fail(s, NULL, ti == CORRAL__NIL ? CORRAL_ERR_TOO_MANY_TYPES : CORRAL_ERR_BAD_TYPE);
        return none;
    }
    corral__type_entry *te = &corral__types(s)[ti];
    if (ctx_size != te->ctx_size) {
        corral__fail(s, NULL, CORRAL_ERR_CTX_SIZE_MISMATCH);
        return none;
    }
    if (te->cls == CORRAL__NO_CLASS) {
        te->failed++;
        corral__fail(s, NULL, CORRAL_ERR_NO_CLASS);
        return none;
    }
    corral__class *c = &s->classes[te->cls];
    if (te->budget ? te->live >= te->budget
                   : c->capacity - c->used - c->retired <= c->reserved) {
        te->failed++;
        if (te->budget) {
            corral__fail(s, NULL, CORRAL_ERR_TYPE_BUDGET);
        } else {
            c->failures++;
            corral__fail(s, NULL, CORRAL_ERR_POOL_EXHAUSTED);
        }
        return none;
    }
    uint32_t local = corral__slot_alloc(s, te->cls);
    if (local == CORRAL__NIL) { /* only when retired slots ate a reservation */
        te->failed++;
        c->failures++;
        corral__fail(s, NULL, CORRAL_ERR_POOL_EXHAUSTED);
        return none;
    }
    if (te->budget) c->reserved--;
    uint32_t off = corral__slot_off(c, local);
    corral_co *co = CORRAL__CO(s, off);
    co->type = (uint16_t)ti;
    co->flags = 0;
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
    if (++s->live > s->live_peak) s->live_peak = s->live;
    s->slot_bytes += c->slot_size;
    if (s->slot_bytes > s->slot_bytes_peak) s->slot_bytes_peak = s->slot_bytes;
    s->ctx_bytes += te->ctx_size;
    if (s->ctx_bytes > s->ctx_bytes_peak) s->ctx_bytes_peak = s->ctx_bytes;

    corral_handle h = {te->cls << CORRAL__CLASS_SHIFT | local, co->gen};

    /* Unity: the first step runs at once, in the caller's frame */
    corral_sched *prev = corral__tls_sched;
    corral__tls_sched = s;
    s->depth++;
    co->state = CORRAL__RUNNING;
    corral_result r = te->step(co);
    s->depth--;
    corral__tls_sched = prev;
    if (co->state == CORRAL__STOPPING) corral__end(s, co, CORRAL_END_STOPPED);
    else if (r == CORRAL_YIELD) corral__enqueue(s, co, off);
    else corral__end_inline(s, co, CORRAL_END_FINISHED);
    return h;
}

bool corral_stop(corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    if (!co) {
        corral__fail(s, NULL, err);
        return false;
    }
    if (corral__is_running(s, co)) co->state = CORRAL__STOPPING; /* ends when its step returns */
    else corral__end(s, co, CORRAL_END_STOPPED);
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
        corral__fail(s, NULL, err);
        return NULL;
    }
    const corral__type_entry *te = &corral__types(s)[co->type];
    if (te->vt != type) {
        corral__fail(s, NULL, CORRAL_ERR_WRONG_TYPE);
        return NULL;
    }
    return CORRAL__AT(co, te->ctx_off);
}

uint32_t corral_tick(corral_sched *s, float dt)
{
    if (!corral__check(s)) return 0;
    if (s->in_tick || s->depth || (s->flags & CORRAL__DESTROYING)) {
        corral__fail(s, NULL, CORRAL_ERR_IN_TICK);
        return 0;
    }
    if (!(dt >= 0.0f)) {
        corral__fail(s, NULL, CORRAL_ERR_BAD_DT);
        dt = 0.0f;
    }
    s->dt = dt;
    s->time += dt;
    s->frame++;

    corral_sched *prev = corral__tls_sched;
    corral__tls_sched = s;
    s->in_tick = 1;
    /* Walk the main half, compacting it in place behind the cursor: w is
       where the next survivor goes. In the steady state (nothing ended
       before it) a survivor stays put and nothing is written. */
    uint32_t *q = corral__queue(s);
    const corral__type_entry *types = corral__types(s);
    const uint32_t n = s->count;
    uint32_t w = 0, skipped = 0;
    s->aux_pos = s->queue_cap;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off = q[i];
        if (off == CORRAL__NIL) { /* stopped while queued */
            skipped++;
            continue;
        }
        corral_co *co = CORRAL__CO(s, off);
        s->running = off;
        corral_result r = types[co->type].step(co);
        if (r == CORRAL_YIELD && co->state == CORRAL__QUEUED) {
            if (w != i) {
                q[w] = off;
                co->link = w;
            }
            w++;
            continue;
        }
        s->running = CORRAL__NIL;
        /* its entry is behind the cursor: end it without a tombstone */
        corral_end_reason why = co->state == CORRAL__STOPPING ? CORRAL_END_STOPPED : CORRAL_END_FINISHED;
        co->state = CORRAL__RUNNING;
        corral__end(s, co, why);
    }
    s->running = CORRAL__NIL;
    /* coroutines queued during the walk join the end, in order */
    for (uint32_t i = s->queue_cap; i < s->aux_pos; i++) {
        uint32_t off = q[i];
        if (off == CORRAL__NIL) continue;
        CORRAL__CO(s, off)->link = w;
        q[w++] = off;
    }
    s->count = w;
    s->aux_pos = s->queue_cap;
    s->in_tick = 0;
    corral__tls_sched = prev;
    return n - skipped;
}

uint32_t corral_live_count(const corral_sched *s)
{
    return corral__check(s) ? s->live : 0;
}

double corral_time(const corral_sched *s)
{
    return corral__check(s) ? s->time : 0.0;
}

uint64_t corral_frame(const corral_sched *s)
{
    return corral__check(s) ? s->frame : 0;
}

/* ---- in a step: the scheduler is the one whose step is running */

static corral_sched *corral__running(const corral_co *co)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co)) {
        corral__fail(s, NULL, CORRAL_ERR_NOT_IN_STEP);
        return NULL;
    }
    return s;
}

float corral_dt(const corral_co *co)
{
    corral_sched *s = corral__running(co);
    return s ? s->dt : 0.0f;
}

corral_handle corral_self(const corral_co *co)
{
    corral_handle none = {0, 0};
    corral_sched *s = corral__running(co);
    return s ? corral__handle_of(s, co) : none;
}

corral_sched *corral_sched_of(const corral_co *co)
{
    return corral__running(co);
}
