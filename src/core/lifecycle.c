/*
    lifecycle.c -- a coroutine's life: admitted and started (its first step
    at once, as Unity's StartCoroutine), stepped outside a lane (first
    steps, the ready ring), stopped, and ended (its cleanup, its links, its
    slot back).

    A coroutine whose step is on the C stack is never freed under it:
    stopping it marks it STOPPING and it ends when its step returns. Where
    a yield lands is the run queues' (queue.c), what it waits on the
    waits' (waits.c).
*/
#include "../corral_internal.h"
#include "lifecycle.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* What ties an ending coroutine to others: its groups, the caller awaiting
   it, its joiners. */
void corral__end_links(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                       corral_end_reason why)
{
    if (m->groups != CORRAL__NIL) corral__leave_groups(s, co);
    if (m->parent != CORRAL__NIL) corral__call_end(s, co, m, te, why);
    if (m->joiners_head != CORRAL__NIL) corral__wake_joiners(s, co);
}

/* Its step is on the C stack: it ends, with why, when that step returns. */
void corral__mark_stopping(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why)
{
    if (co->state == CORRAL__WAITING) corral__release_wait(s, co);
    co->state = CORRAL__STOPPING;
    m->stop_why = (uint8_t)why;
}

void corral__end(corral_sched *s, corral_co *co, corral_end_reason why)
{
    corral__end_m(s, co, corral__meta_of(s, co), why, CORRAL__NIL);
}

void corral__drain_ready(corral_sched *s)
{
    while (s->run.ready_head != s->run.ready_tail) {
        uint32_t off = corral__ready_ring(s)[s->run.ready_head % s->arena.total_slots];
        s->run.ready_head++;
        if (off == CORRAL__NIL) continue; /* stopped while ready */
        s->nodes.debug_visits++;
        corral__step_detached(s, CORRAL__CO(s, off), NULL, CORRAL__NIL);
    }
}

/* A start of type te refused for want of room (err: NO_CLASS,
   POOL_EXHAUSTED or TYPE_BUDGET), reported with the type and its class in words. */
CORRAL__COLD void corral__refuse(const char *call, corral_sched *s, const corral__type_entry *te,
                                 corral_error err)
{
    char why[192];
    if (err == CORRAL_ERR_NO_CLASS) {
        snprintf(why, sizeof why, "type '%s' needs a %u-byte slot; the largest is %u", te->vt->name,
                 te->ctx_off + te->ctx_size,
                 s->arena.class_count ? s->arena.classes[s->arena.class_count - 1].slot_size : 0);
        corral__fail_at(s, NULL, err, call, CORRAL__NOH, NULL, why);
        return;
    }
    const corral__class *c = &s->arena.classes[te->cls];
    uint64_t budgets = 0; /* the class's slots that belong to budgets */
    for (uint32_t i = 0; i < s->types.type_count; i++)
        if (corral__types(s)[i].cls == te->cls) budgets += corral__types(s)[i].budget;
    if (err == CORRAL_ERR_TYPE_BUDGET)
        snprintf(why, sizeof why, "type '%s' (id %u) has %u live, its budget", te->vt->name, te->id, te->live);
    else
        snprintf(why, sizeof why, "type '%s' (id %u), %u-byte class: %u of %u slots used, %" PRIu64 " of them budgets'%s",
                 te->vt->name, te->id, c->slot_size, c->used, c->capacity, budgets,
                 c->capacity - c->retired <= budgets ? " (no shared slot: give the type a budget or the class a capacity)"
                                                     : "");
    corral__fail_at(s, NULL, err, call, CORRAL__NOH, NULL, why);
}

/* admit, then take (a call's child: its first step runs later, from the
   ready ring). NULL, with the error set and counted, if it cannot. */
corral_co *corral__create(const char *call, corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size,
                          uint32_t phase, uint64_t owner, uint32_t tags, corral_handle *out, corral__meta **meta_out)
{
    uint32_t ti = corral__admit(call, s, vt, ctx, ctx_size, owner, tags);
    if (ti == CORRAL__NIL) return NULL;
    return corral__take(call, s, ti, ctx, ctx_size, phase, owner, tags, out, meta_out, false);
}

corral_handle corral_start(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size)
{
    return corral__start(__func__, s, vt, ctx, ctx_size, NULL);
}

bool corral_stop(corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    CORRAL__REQUIRE_AT(s, co, err, __func__, h, NULL, NULL, false);
    corral__stop_co(s, co, CORRAL_END_STOPPED);
    return true;
}

/* Every live coroutine ends with CORRAL_END_DESTROYED (destroy, a load);
   the caller has set DESTROYING, so no cleanup hook starts another. */
void corral__end_all(corral_sched *s)
{
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        corral__class *c = &s->arena.classes[i];
        for (uint32_t k = 0; k < c->capacity; k++) {
            corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (corral__state_alive(co->state)) corral__end(s, co, CORRAL_END_DESTROYED);
        }
    }
}

void corral__stop_co(corral_sched *s, corral_co *co, corral_end_reason why)
{
    if (corral__is_running(s, co)) corral__mark_stopping(s, co, corral__meta_of(s, co), why);
    else corral__end(s, co, why);
}

/* ---- generators: held coroutines stepped by whoever pulls (corral_generator_next) */

bool corral__gen_step(corral_sched *s, corral_co *co, corral__meta *m)
{
    if (s->now.pulls >= CORRAL_MAX_PULL_DEPTH) { /* each pull is a C frame: bounded, not the stack's end */
        corral__fail_at(s, NULL, CORRAL_ERR_PULL_DEPTH, "corral_generator_next", corral__handle_of(s, co), NULL, NULL);
        return false;
    }
    s->now.pulls++;
    bool top = corral__top_begin(s), pause;
    corral_result r = corral__step_bare(s, co, corral__types(s)[co->type].step, &pause, false);
    bool value = r == CORRAL_YIELD && co->state == CORRAL__RUNNING;
    if (value) { /* held again, for the next pull */
        CORRAL__CONTRACT_DONE(co);
        corral__hold(co, m, CORRAL__HOLD_GENERATOR);
    } else if (co->state == CORRAL__WAITING) { /* a generator runs to its next value: it may not wait */
        corral_handle h = corral__handle_of(s, co);
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, "corral_generator_next", h, NULL,
                        "a generator's step waited (it ends)");
        corral__end_m(s, co, m, CORRAL_END_STOPPED, CORRAL__NIL);
    } else {
        corral__end_m(s, co, m, co->state == CORRAL__STOPPING ? corral__stop_reason(m) : CORRAL_END_FINISHED,
                      CORRAL__NIL);
    }
    corral__top_end(s, top);
    s->now.pulls--;
    return value;
}

corral_handle corral_generator_start(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size)
{
    corral_handle h = {0, 0};
    if (!corral__check(s)) return h;
    corral__meta *m;
    corral_co *co = corral__create(__func__, s, vt, ctx, ctx_size, CORRAL__PH_UPDATE, 0, 0, &h, &m);
    if (!co) return (corral_handle){0, 0};
    corral__hold(co, m, CORRAL__HOLD_GENERATOR); /* in no lane: only a pull steps it */
    return h;
}

bool corral_generator_next(corral_sched *s, corral_handle h, void *out, size_t out_size)
{
    if (!corral__check(s)) return false;
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    corral__meta *m = corral__meta_of(s, co);
    const corral__type_entry *te = &corral__types(s)[co->type];
    CORRAL__REQUIRE_AT(s, co->state == CORRAL__PAUSED && (m->hold & CORRAL__HOLD_GENERATOR), CORRAL_ERR_NOT_PAUSED,
                       __func__, h, NULL, "not a generator (corral_generator_start), or its step is running", false);
    CORRAL__REQUIRE_AT(s, (out || !out_size) && out_size == te->vt->result_size, CORRAL_ERR_BAD_DEST, __func__, h, NULL,
                       "its size is not the type's result size", false);
    if (!corral__gen_step(s, co, m)) return false;
    if (out_size) memcpy(out, CORRAL__AT(co, te->ctx_off + te->vt->result_offset), out_size);
    return true;
}

/* Step a paused coroutine once, at once (corral_step_once). */
void corral__step_held(corral_sched *s, corral_co *co, corral__meta *m, uint32_t local)
{
    corral__step_now(s, co, m, local);
}

corral_result corral_point_lost(corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return CORRAL_STOP;
    const corral_type *vt = corral__types(s)[co->type].vt;
    char why[192];
    snprintf(why, sizeof why, "point %u (a wait at %s:%u) is not a case of its CORRAL_BEGIN switch",
             co->resume & CORRAL__POINT_MASK, vt->file ? vt->file : "?", co->resume >> 16);
    corral__stop_co(s, co, CORRAL_END_BAD_POINT); /* before the report: FATAL aborts in it */
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_POINT, "CORRAL_BEGIN", CORRAL__NOH, co, why);
    return CORRAL_STOP;
}
