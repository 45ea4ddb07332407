/*
    lifecycle.c -- a coroutine's life: admitted and started (its first step
    at once, as Unity's StartCoroutine, or later: corral__create), stepped outside a lane (first
    steps, the ready list), paused and resumed, stopped, and ended (its
    cleanup, its links, its slot back); and a wait's end, which wakes its
    coroutine or stops it (corral__fire).

    A paused coroutine is in no lane and its timers and predicates are out
    of their containers (waits.c holds them); it keeps its place in every
    list it waits on. A whole group at once is group_ops.c's.

    A fired node (a timer due, a signal raised, a future done, a target
    ended, ...) ends its coroutine's wait and wakes it (waits.c), or stops
    it: a stop request's deadline, a call interrupted by its caller's wait.
    The timers' heaps (timers.c) give up their due nodes here once a frame.

    A coroutine whose step is on the C stack is never freed under it:
    stopping it marks it STOPPING and it ends when its step returns. Where
    a yield lands is the run lanes' (lanes.c), what it waits on the
    waits' (waits.c).
*/
#include "../corral_internal.h"
#include "arena.h"
#include "lifecycle.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

corral_co *corral__end_unchild(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why,
                               corral__meta **child_meta)
{
    corral__side *sd = corral__side_at(s, m);
    corral_co *child = NULL;
    if (sd->child != CORRAL__NIL) { /* the child has a side record too */
        child = corral__co_of_global(s, sd->child);
        *child_meta = &corral__meta_table(s)[sd->child]; /* the meta is by global slot */
        sd->child = CORRAL__NIL;
        corral__side_at(s, *child_meta)->parent = CORRAL__NIL; /* it must not wake us */
    }
    if (CORRAL__UNLIKELY((sd->mode & CORRAL__MODE_KIND) >= CORRAL__MODE_RACE)) corral__end_arms(s, co, m, why);
    return child;
}

/* What ties an ending coroutine to others: its groups, the caller awaiting
   it, its joiners; then its side record goes back. */
void corral__end_links(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                       corral_end_reason why)
{
    const corral__side *sd = corral__side_at(s, m);
    /* each link exists only in a scheduler with its part: its table is there */
    if (sd->groups != CORRAL__NIL) corral__groups(s)->leave(s, co);
    if (sd->parent != CORRAL__NIL || sd->joiners_head != CORRAL__NIL)
        ((const corral__calls_part *)corral__feature(s, CORRAL__FEATURE_CALLS))->end(s, co, m, te, why);
    corral__side_drop(s, m);
}

/* the arms of a race or sync (races.c: its table is there in a scheduler
   that can race) */
void corral__end_arms(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why)
{
    const corral__race_part *r = (const corral__race_part *)corral__feature(s, CORRAL__FEATURE_RACES);
    if (r) r->end_arms(s, co, m, why);
}

void corral__end(corral_sched *s, corral_co *co, corral_end_reason why)
{
    corral__end_m(s, co, corral__meta_of(s, co), why, CORRAL__NIL);
}

/* the drain: the next ready coroutine's offset, its entry made a
   tombstone; NIL when the lane is read through (then it is empty).
   Here when the entry at the drain's place is one; else lanes.c's
   corral__ready_take_on (tombstones passed, the head chunk let go) */
static inline uint32_t corral__ready_take(corral_sched *s)
{
    corral__lane *L = &corral__lanes(s)[corral__ready_lane(s)];
    const uint32_t r = s->run.ready_read;
    if (r < L->count && r < CORRAL__CHUNK) {
        uint32_t *e = &corral__entries(s)[(size_t)L->head * CORRAL__CHUNK + r];
        const uint32_t off = *e;
        if (off != CORRAL__NIL) {
            *e = CORRAL__NIL;
            L->tombs++;
            s->run.ready_read = r + 1;
            return off;
        }
    }
    return corral__ready_take_on(s);
}

void corral__drain_ready(corral_sched *s)
{
    for (uint32_t off; (off = corral__ready_take(s)) != CORRAL__NIL;) {
        s->nodes.debug_visits++;
        corral__step_detached(s, CORRAL__CO(s, off), NULL);
    }
}

void corral__after_detached(corral_sched *s, corral_co *co, corral__meta *m, corral_result r, bool pause)
{
    corral__after_step(s, co, m, r, pause, false);
}

/* ---- the counts of a first step not yet counted (lifecycle.h,
   corral__first_step) */
void corral__count_uncounted(corral_sched *s)
{
    const corral_co *co = CORRAL__CO(s, s->now.uncounted);
    corral__type_entry *te = &corral__types(s)[co->type];
    s->now.uncounted = 0;
    corral__count_live(s, te, &s->arena.classes[te->cls]);
}

void corral__count_loaded(corral_sched *s, corral__type_entry *te, corral__class *c) { corral__count_taken(s, te, c); }

uint32_t corral__uncounted_of_class(const corral_sched *s, uint32_t ci)
{
    const corral_co *u = corral__uncounted(s);
    return u && corral__types(s)[u->type].cls == ci;
}

uint32_t corral__live_read(const corral_sched *s, uint64_t *slot_bytes, uint64_t *ctx_bytes)
{
    const corral_co *u = corral__uncounted(s);
    const corral__type_entry *te = u ? &corral__types(s)[u->type] : NULL;
    if (slot_bytes) *slot_bytes = s->arena.slot_bytes + (te ? s->arena.classes[te->cls].slot_size : 0u);
    if (ctx_bytes) *ctx_bytes = s->arena.ctx_bytes + (te ? te->ctx_size : 0u);
    return s->arena.live + (te != NULL);
}

void corral__uncount(corral_sched *s, const corral_co *co)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    corral__class *c = &s->arena.classes[te->cls];
    te->live--;
    c->used--;
    s->arena.live--;
    s->arena.slot_bytes -= c->slot_size;
    s->arena.ctx_bytes -= te->ctx_size;
    s->now.uncounted = corral__co_off(s, co);
}

void corral__cover_one(corral_sched *s, corral__type_entry *te, corral__class *c)
{
    if (te->live >= te->peak) te->peak = te->live + 1;
    if (c->used >= c->peak) c->peak = c->used + 1;
    if (s->arena.live >= s->arena.live_peak) s->arena.live_peak = s->arena.live + 1;
    if (s->arena.slot_bytes + c->slot_size > s->arena.slot_bytes_peak)
        s->arena.slot_bytes_peak = s->arena.slot_bytes + c->slot_size;
    if (s->arena.ctx_bytes + te->ctx_size > s->arena.ctx_bytes_peak)
        s->arena.ctx_bytes_peak = s->arena.ctx_bytes + te->ctx_size;
    te->peak_epoch = s->arena.epoch;
}

bool corral__room_beyond_reserved(corral_sched *s, const corral__class *c)
{
    if (s->now.uncounted) corral__count_uncounted(s);
    return c->capacity - c->used - c->retired > c->reserved;
}

/* A start of type te refused for want of room (err: NO_CLASS,
   POOL_EXHAUSTED or TYPE_BUDGET), reported with the type and its class in words. */
CORRAL__COLD void corral__refuse(const char *call, corral_sched *s, const corral__type_entry *te,
                                 corral_error err)
{
    char why[192];
    if (s->now.uncounted) corral__count_uncounted(s); /* the words' counts exact */
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

/* admit, then take, its first step not run: a call's child (its first
   step runs later, from the ready list), a generator, a start queued
   behind others. NULL, with the error set and counted, if it cannot. */
corral_co *corral__create(const char *call, corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size,
                          uint32_t phase, uint64_t owner, uint32_t tags, corral_handle *out, corral__meta **meta_out)
{
    uint32_t ti = corral__admit(call, s, vt, ctx, ctx_size, owner, tags, 0); /* a domain: its caller's check */
    if (ti == CORRAL__NIL) return NULL;
    return corral__take(call, s, ti, ctx, ctx_size, phase, owner, tags, out, meta_out, false);
}

corral_handle corral_start(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size)
{
    return corral__start(__func__, s, vt, ctx, ctx_size, NULL, true);
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

/* Every live coroutine ends with CORRAL_END_DESTROYED, as at destroy
   (destroy, a load): the scheduler is DESTROYING meanwhile, so no cleanup
   hook starts another and a race's arms end as destroyed; the flag is
   after as it was before (a destroy has set it for good). */
void corral__end_all(corral_sched *s)
{
    const uint32_t destroying = s->flags & CORRAL__DESTROYING;
    s->flags |= CORRAL__DESTROYING;
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        corral__class *c = &s->arena.classes[i];
        for (uint32_t k = 0; k < c->capacity; k++) {
            corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (corral__state_alive(co->state)) corral__end(s, co, CORRAL_END_DESTROYED);
        }
    }
    s->flags = (s->flags & ~(uint32_t)CORRAL__DESTROYING) | destroying;
}

void corral__stop_co(corral_sched *s, corral_co *co, corral_end_reason why)
{
    if (corral__is_running(s, co)) corral__mark_stopping(s, co, corral__meta_of(s, co), why);
    else corral__end(s, co, why);
}

/* ---- pause */

bool corral__pause_co(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    if (corral__paused(co->state) || co->state == CORRAL__STOPPING || co->state == CORRAL__ENDING)
        return false;
    if (corral__is_running(s, co)) { /* held when its step returns */
        bool had = (co->flags & CORRAL__PAUSE_FLAG) != 0;
        co->flags = (uint8_t)(co->flags | CORRAL__PAUSE_FLAG);
        return !had;
    }
    uint8_t hold = 0;
    if (co->state == CORRAL__QUEUED || co->state == CORRAL__DEFERRED) {
        corral__lane_tombstone(s, co);
    } else if (co->state == CORRAL__READY) {
        corral__ready_unlink(s, co);
        hold = CORRAL__HOLD_WOKEN;
    } else if (co->state == CORRAL__WAITING) {
        corral__hold_wait(s, co);
        hold = CORRAL__HOLD_WAITING;
    }
    corral__hold(co, m, hold);
    return true;
}

bool corral__resume_co(corral_sched *s, corral_co *co)
{
    if (co->flags & CORRAL__PAUSE_FLAG) { /* paused during its step: not held yet */
        co->flags = (uint8_t)(co->flags & ~CORRAL__PAUSE_FLAG);
        return true;
    }
    if (!corral__paused(co->state)) return false;
    corral__meta *m = corral__meta_of(s, co);
    const uint8_t hold = corral__co_hold(co, m);
    if (hold & CORRAL__HOLD_GENERATOR) return false; /* only a pull steps it */
    corral__co_hold_set(co, m, 0);
    if ((hold & CORRAL__HOLD_WAITING) && !(hold & CORRAL__HOLD_WOKEN)) {
        corral__park(co);
        corral__unhold_wait(s, co);
    } else {
        corral__enqueue(s, co);
    }
    return true;
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
    CORRAL__REQUIRE_AT(s, corral__resume_co(s, co), CORRAL_ERR_NOT_PAUSED, __func__, h, NULL, NULL, false);
    return true;
}

bool corral_paused(const corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    return co && (corral__paused(co->state) || (co->flags & CORRAL__PAUSE_FLAG));
}

/* ---- a wait's end */

/* Node i was detached by its container: act on it. */
void corral__fire(corral_sched *s, uint32_t i)
{
    corral__node *n = &corral__nodes(s)[i];
    n->attached = 0;
    corral_co *co = CORRAL__CO(s, n->co);
    if (n->kind == CORRAL__NODE_DEADLINE) { /* a stop request's time is up */
        corral__groups(s)->deadline_drop(s, co);
        corral__stop_co(s, co, CORRAL_END_DEADLINE);
        return;
    }
    const corral__wait_part *p = corral__wait_part_of(s, n->kind);
    if (p && p->fire) p->fire(s, i);
    corral__meta *m = corral__meta_of(s, co);
    corral__side *sd = corral__side_if(s, m); /* looked up once for this wait's end */
    if (sd) { /* an all/any's count and what fired are in its side record */
        if (sd->mode == CORRAL__MODE_ALL && --sd->pending > 0) return;
        if (sd->mode == CORRAL__MODE_ANY) sd->fired = (int8_t)n->member;
    }
    const bool now = p && p->now;
    const uint32_t child = sd ? sd->child : CORRAL__NIL; /* a child needs a side record */
    corral__release_wait_with(s, co, m, sd);
    if (child != CORRAL__NIL) { /* the interrupt of a call: end the child, which wakes co */
        corral__stop_co(s, corral__co_of_global(s, child), CORRAL_END_INTERRUPTED);
        return;
    }
    corral__wake(s, co, now);
}

/* every node due on its heap's clock, in due order: fired */
uint32_t corral__wake_timers(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    uint32_t woken = 0;
    for (uint32_t h = 0; h < s->timers.heaps; h++) {
        if (s->timers.heap_len[h] == 0) continue;
        const double now = corral__timer_clock(s, h);
        while (s->timers.heap_len[h] > 0) {
            const corral__heap_entry *root = &CORRAL__HEAP_AT(corral__heap(s, h), 0);
            if (root->due > now) break;
            const uint32_t i = root->ref;
            if (i & CORRAL__SLEEP_REF) { /* a plain sleep: its entry was its wait */
                corral_co *co = corral__sleeper(s, i);
                corral__sleep_cancel(s, co); /* the root: out of heap h */
                s->nodes.debug_visits++;
                corral__wake(s, co, false);
                woken++;
                continue;
            }
            corral__timer_cancel(s, &N[i]); /* the root: out of heap h */
            s->nodes.debug_visits++;
            corral__fire(s, i);
            woken++;
        }
    }
    return woken;
}
