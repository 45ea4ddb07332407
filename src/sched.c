/*
    sched.c -- start, stop, tick and the end of a coroutine.

    The run queue is two arrays of slot offsets. Between ticks every queued
    coroutine sits in `next`, in the order it was queued. A tick swaps the
    buffers and walks the other one from the front: a coroutine that yields
    is appended to the new `next`, one started during the tick is appended
    there too (so it first resumes next tick). Stopping a queued coroutine
    writes a tombstone (NIL) at its position (co->link), so stop is O(1) and
    the order of the others is kept; `next` is compacted in place when it
    fills up. A coroutine whose step is on the C stack is never freed under
    it: stopping it marks it STOPPING and it ends when its step returns.
*/
#include "corral_internal.h"

#include <string.h>

/* Drop the tombstones of `next` (never the buffer a tick is walking). */
static void corral__compact_next(corral_sched *s)
{
    uint32_t *q = corral__queue(s, s->next_buf);
    uint32_t w = 0;
    for (uint32_t i = 0; i < s->next_count; i++) {
        uint32_t off = q[i];
        if (off == CORRAL__NIL) continue;
        CORRAL__CO(s, off)->link = w;
        q[w++] = off;
    }
    s->next_count = w;
}

static inline void corral__enqueue(corral_sched *s, corral_co *co, uint32_t off)
{
    /* `next` holds live coroutines other than co at most, so after a
       compaction there is always room */
    if (s->next_count == s->queue_cap) corral__compact_next(s);
    co->state = CORRAL__QUEUED;
    co->flags = (uint8_t)((co->flags & ~CORRAL__FLAG_BUF) | s->next_buf);
    co->link = s->next_count;
    corral__queue(s, s->next_buf)[s->next_count++] = off;
}

void corral__end(corral_sched *s, corral_co *co, corral_end_reason why)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    corral__class *c = &s->classes[te->cls];
    if (co->state == CORRAL__QUEUED) corral__queue(s, co->flags & CORRAL__FLAG_BUF)[co->link] = CORRAL__NIL;
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

/* After a step returned: requeue or end. */
static inline void corral__after_step(corral_sched *s, corral_co *co, uint32_t off, corral_result r)
{
    if (co->state == CORRAL__RUNNING) {
        if (r == CORRAL_YIELD) corral__enqueue(s, co, off);
        else corral__end(s, co, CORRAL_END_FINISHED);
    } else { /* stopped during its own step */
        corral__end(s, co, CORRAL_END_STOPPED);
    }
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
    if (!corral__type_ok(vt)) {
        corral__fail(s, NULL, CORRAL_ERR_BAD_TYPE);
        return none;
    }
    if (ctx_size != vt->ctx_size) {
        corral__fail(s, NULL, CORRAL_ERR_CTX_SIZE_MISMATCH);
        return none;
    }
    uint32_t ti = corral__type_index(s, vt);
    if (ti == CORRAL__NIL) {
        corral__fail(s, NULL, CORRAL_ERR_TOO_MANY_TYPES);
        return none;
    }
    corral__type_entry *te = &corral__types(s)[ti];
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
    uint32_t off = corral__slot_alloc(s, te->cls);
    if (off == CORRAL__NIL) { /* only when retired slots ate a reservation */
        te->failed++;
        c->failures++;
        corral__fail(s, NULL, CORRAL_ERR_POOL_EXHAUSTED);
        return none;
    }
    if (te->budget) c->reserved--;
    corral_co *co = CORRAL__CO(s, off);
    co->type = (uint16_t)ti;
    co->flags = 0;
    co->resume = 0;
    co->link = CORRAL__NIL;
    memcpy(CORRAL__AT(co, te->ctx_off), ctx, ctx_size);

    te->started++;
    if (++te->live > te->peak) te->peak = te->live;
    if (++s->live > s->live_peak) s->live_peak = s->live;
    s->slot_bytes += c->slot_size;
    if (s->slot_bytes > s->slot_bytes_peak) s->slot_bytes_peak = s->slot_bytes;
    s->ctx_bytes += te->ctx_size;
    if (s->ctx_bytes > s->ctx_bytes_peak) s->ctx_bytes_peak = s->ctx_bytes;

    corral_handle h = {te->cls << CORRAL__CLASS_SHIFT | (off - c->base) / c->slot_size, co->gen};

    /* Unity: the first step runs at once, in the caller's frame */
    corral_sched *prev = corral__tls_sched;
    corral__tls_sched = s;
    s->depth++;
    co->state = CORRAL__RUNNING;
    corral_result r = te->step(co);
    s->depth--;
    corral__tls_sched = prev;
    corral__after_step(s, co, off, r);
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
    if (co->state == CORRAL__RUNNING) co->state = CORRAL__STOPPING; /* ends when its step returns */
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
    uint32_t cur_buf = s->next_buf;
    uint32_t n = s->next_count;
    s->next_buf ^= 1u;
    s->next_count = 0;
    s->cur_count = n;
    const uint32_t *cur = corral__queue(s, cur_buf);
    const corral__type_entry *types = corral__types(s);
    uint32_t steps = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off = cur[i];
        if (off == CORRAL__NIL) continue; /* stopped while queued */
        corral_co *co = CORRAL__CO(s, off);
        co->state = CORRAL__RUNNING;
        corral_result r = types[co->type].step(co);
        steps++;
        corral__after_step(s, co, off, r);
    }
    s->cur_count = 0;
    s->in_tick = 0;
    corral__tls_sched = prev;
    return steps;
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
    if (!s || !co || (co->state != CORRAL__RUNNING && co->state != CORRAL__STOPPING)) {
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
