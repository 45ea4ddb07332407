/*
    lifecycle.h -- the inline path of a coroutine's start, first step,
    after-step transitions and end, inlined where a spawn or a step is
    timed: lifecycle.c (corral_start, corral_stop, the ends, a coroutine
    made without its first step), starts.c (corral_start_ex,
    corral_start_n), pulls.c (a generator's steps) and queue.c (the walk's
    steps that do not yield in place). Include it after corral_internal.h.
*/
#ifndef CORRAL_LIFECYCLE_H
#define CORRAL_LIFECYCLE_H

#include <string.h>

#include "slots.h"

/* the type table's index of vt (types.c), the last one looked up first */
static inline uint32_t corral__type_index(corral_sched *s, const corral_type *vt)
{
    if (vt == s->types.last_vt) return s->types.last_ti;
    return corral__type_lookup(s, vt);
}

/* A coroutine of type te in class c counted live: the type's, the class's
   and the arena's counts and peaks, and the epoch they rose in. */
static CORRAL__ALWAYS_INLINE void corral__count_live(corral_sched *s, corral__type_entry *te, corral__class *c)
{
    if (++te->live > te->peak) te->peak = te->live;
    if (++c->used > c->peak) c->peak = c->used;
    if (++s->arena.live > s->arena.live_peak) s->arena.live_peak = s->arena.live;
    s->arena.slot_bytes += c->slot_size;
    if (s->arena.slot_bytes > s->arena.slot_bytes_peak) s->arena.slot_bytes_peak = s->arena.slot_bytes;
    s->arena.ctx_bytes += te->ctx_size;
    if (s->arena.ctx_bytes > s->arena.ctx_bytes_peak) s->arena.ctx_bytes_peak = s->arena.ctx_bytes;
    if (CORRAL__UNLIKELY(++s->arena.epoch == 0)) corral__epoch_wrapped(s);
}
/* A slot was taken for a coroutine of type te (a start, or a load that
   brings one back): started, and live. */
static CORRAL__ALWAYS_INLINE void corral__count_taken(corral_sched *s, corral__type_entry *te, corral__class *c)
{
    if (CORRAL__UNLIKELY(s->now.uncounted)) corral__count_uncounted(s); /* its peaks count that one too */
    te->started++;
    corral__count_live(s, te, c);
}
/* The last part of every end: its cleanup hook, its counters, its slot
   back on the free list. (state is ENDING: not alive to the hook)
   counted: it was counted live (a first step's coroutine may not be:
   corral__first_step). */
static CORRAL__ALWAYS_INLINE void corral__end_last(corral_sched *s, corral_co *co, corral__type_entry *te,
                                                corral__class *c, corral_end_reason why, uint32_t local,
                                                bool plain, bool counted)
{
    if (!plain && te->cleanup) {
        s->now.depth++;
        te->cleanup(CORRAL__AT(co, te->ctx_off), why);
        s->now.depth--;
    }
    if (counted) {
        te->live--;
        s->arena.live--;
        s->arena.slot_bytes -= c->slot_size;
        s->arena.ctx_bytes -= te->ctx_size;
    }
    if (why == CORRAL_END_STOPPED) te->stopped++;
    else if (why >= CORRAL__END_FIRST_COUNTED) {
        assert(why < CORRAL_END_COUNT && "corral: an end reason out of range");
        if (why < CORRAL_END_COUNT) corral__ends(s, co->type)[why - CORRAL__END_FIRST_COUNTED]++;
    }
    if (!plain && te->budget) c->reserved++;
    if (!plain && s->prof.hooks.free) s->prof.hooks.free(c->name, co, c->slot_size, s->prof.hooks.user_data);
    if (counted) c->used--;
    corral__slot_free(s, te, c, co, local);
}

/* What ties an ending coroutine to others: its groups, the caller awaiting
   it, its joiners. */
void corral__end_links(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                       corral_end_reason why);

/* (m: its meta; local: its slot in its class, NIL if not at hand) */
static CORRAL__ALWAYS_INLINE void corral__end_one(corral_sched *s, corral_co *co, corral__meta *m,
                                                 corral_end_reason why, uint32_t local)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    if (co->state == CORRAL__QUEUED || co->state == CORRAL__DEFERRED) corral__lane_tombstone(s, co);
    else if (co->state == CORRAL__WAITING || corral__paused(co->state)) corral__release_wait(s, co);
    else if (co->state == CORRAL__READY) corral__ready_unlink(s, co);
    co->state = CORRAL__ENDING; /* not alive: stop and alive see it as ended */
    /* the common end has no links: no side record */
    if (corral__co_sided(m)) corral__end_links(s, co, m, te, why);
    corral__class *c = &s->arena.classes[te->cls];
    if (local == CORRAL__NIL) local = corral__slot_local(c, corral__co_off(s, co));
    corral__end_last(s, co, te, c, why, local, false, true);
}

/* An ending coroutine that has a side record let go of the child it
   awaits (returned, its meta in *child_meta, or NULL: the child's caller
   link cut, so it does not wake it) and of its race's or sync's arms
   (corral__end_arms) */
corral_co *corral__end_unchild(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why,
                               corral__meta **child_meta);

/* End a coroutine and, iteratively, the chain of children it awaits (each
   with PARENT_STOPPED; DESTROYED stays DESTROYED), and the arms of a race
   or sync on the way (corral__end_arms: recursive, one level per race
   nested in a race). A child whose step is on the C stack is only marked:
   it ends when that step returns. */
static CORRAL__ALWAYS_INLINE void corral__end_m(corral_sched *s, corral_co *co, corral__meta *m,
                                               corral_end_reason why, uint32_t local)
{
    for (;;) {
        corral__meta *cm = NULL;
        corral_co *child = corral__co_sided(m) ? corral__end_unchild(s, co, m, why, &cm) : NULL;
        corral__end_one(s, co, m, why, local);
        if (!child) return;
        if (why != CORRAL_END_DESTROYED) why = CORRAL_END_PARENT_STOPPED;
        if (corral__is_running(s, child)) {
            corral__mark_stopping(s, child, cm, why);
            return;
        }
        co = child;
        m = cm;
        local = CORRAL__NIL;
    }
}

/* a coroutine marked STOPPING ends with the reason stored for it */
static inline corral_end_reason corral__stop_reason(corral__meta *m)
{
    corral_end_reason why = corral__stopping_why(m);
    corral__co_stop_why_set(m, 0);
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
    const uint32_t outer = s->now.self;
    corral__tls_sched = s;
    s->now.depth++;
    s->now.self = corral__co_off(s, co);
    co->state = CORRAL__RUNNING;
    co->flags = (uint8_t)(co->flags | CORRAL__ONSTACK_FLAG);
    corral_result r = !plain && s->prof.instrument ? corral__step_profiled(s, co) : step(co);
    s->now.self = outer;
    s->now.depth--;
    corral__tls_sched = prev;
    *pause = (co->flags & CORRAL__PAUSE_FLAG) != 0;
    co->flags = (uint8_t)(co->flags & ~(CORRAL__ONSTACK_FLAG | CORRAL__PAUSE_FLAG));
    return r;
}

/* The after-step transitions: what a step's return (r; pause: it asked to
   be paused) does to its coroutine. It ends (stopped during its step, or
   finished), lands (yielded), or stays parked on its wait; then it is
   paused if it asked. walked: its phase walk stepped it from its lane
   (its state QUEUED while its entry is consumed; a yield in place never
   comes here), else it was stepped outside a lane (RUNNING). m: its meta
   if at hand, or NULL. It ends through corral__end, out of line: one copy
   of an end for the walk's steps and the detached ones. */
static CORRAL__ALWAYS_INLINE void corral__after_step(corral_sched *s, corral_co *co, corral__meta *m,
                                                    corral_result r, bool pause, bool walked)
{
    if (walked && pause && co->state == CORRAL__QUEUED && r == CORRAL_YIELD) {
        if (CORRAL__UNLIKELY((co->flags & CORRAL__ARMS_OPEN_FLAGS) == CORRAL__ARMS_OPEN_FLAGS)) corral__arms_abandoned(s, co);
        CORRAL__CONTRACT_DONE(co);
        corral__hold(co, m ? m : corral__meta_of(s, co), 0); /* its lane entry is consumed: just hold it */
        return;
    }
    if (co->state == CORRAL__STOPPING || r == CORRAL_STOP) {
        if (!m) m = corral__meta_of(s, co);
        if (walked && co->state == CORRAL__QUEUED) corral__entry_spent(co); /* its entry is consumed */
        const corral_end_reason why = co->state == CORRAL__STOPPING ? corral__stop_reason(m) : CORRAL_END_FINISHED;
        corral__end(s, co, why);
    } else if (co->state == (walked ? CORRAL__QUEUED : CORRAL__RUNNING)) {
        corral__land(s, co); /* walked: moved to another phase, or next frame */
    } else {
        /* WAITING: parked on its wait (or its child) */
        CORRAL__CONTRACT_DONE(co);
    }
    if (pause && corral__state_alive(co->state)) corral__pause_co(s, co); /* a paused one stays as it is */
}

/* corral__after_step of a step outside a lane, out of line: one copy for
   every first step that does not end at once and the ready list's steps */
void corral__after_detached(corral_sched *s, corral_co *co, corral__meta *m, corral_result r, bool pause);

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
        if (s->run.ready_read != CORRAL__NIL) corral__drain_ready(s);
        s->run.starting = 0;
    }
}

/* Step a coroutine that is in no lane, then queue, park or end it. */
static CORRAL__ALWAYS_INLINE void corral__step_detached(corral_sched *s, corral_co *co, corral__meta *m)
{
    bool pause;
    corral_result r = corral__step_bare(s, co, corral__types(s)[co->type].step, &pause, false);
    corral__after_detached(s, co, m, r, pause);
}

/* Step a detached coroutine at once (see corral__top_begin). */
static CORRAL__ALWAYS_INLINE void corral__step_now(corral_sched *s, corral_co *co, corral__meta *m)
{
    bool top = corral__top_begin(s);
    corral__step_detached(s, co, m);
    corral__top_end(s, top);
}

/* A plain type's peaks raised to cover one more of it (corral__first_step:
   a coroutine in its first step, not yet counted live) */
void corral__cover_one(corral_sched *s, corral__type_entry *te, corral__class *c);
/* co, counted live during its first step (corral__count_uncounted), not
   counted again: s->now.uncounted once more */
void corral__uncount(corral_sched *s, const corral_co *co);

/* The first step of a new coroutine. A spawn that is over at once -- the
   first step returns STOP, its state is still RUNNING (it did not stop
   itself or park on a wait) and nothing is tied to it (no child, caller,
   joiner or group: no side record) -- ends right here, with its type, class, meta and slot
   at hand instead of looked up again: the same end as corral__end_m's for
   it (a pause it asked for is moot), in fewer instructions. Anything else
   goes the general way. (Laid out as the likely case; a first step that
   yields pays nothing measurable for it: docs/DESIGN.md, "Spawn path".)
   A plain type's coroutine (plain: its copy of the path; corral__take did
   not count it) whose type's last first step ended at once (!te->lives)
   is counted started at once but live only if its first step does not
   end it: while that step runs it is s->now.uncounted, which the readers
   of the counts add (corral__uncounted) and whatever raises or reads a
   count for a decision counts first (corral__count_uncounted); its type's
   peaks cover it before the step (corral__cover_one, only when a count
   rose since they last did). So an instant spawn writes only its
   `started`; the live counts it would raise and lower are never moved.
   After a first step that did not end, the type's next one is counted
   live before its step, as any other. */
static CORRAL__ALWAYS_INLINE void corral__first_step_as(corral_sched *s, corral_co *co, corral__meta *m,
                                                       corral__type_entry *te, corral__class *c, uint32_t local,
                                                       bool plain, bool deferred, bool top)
{
    bool pause;
    const uint32_t self = corral__co_off(s, co);
    if (deferred) {
        if (!top && CORRAL__UNLIKELY(s->now.uncounted)) corral__count_uncounted(s); /* the first step this one runs in */
        te->started++;
        if (CORRAL__UNLIKELY(te->peak_epoch != s->arena.epoch)) corral__cover_one(s, te, c);
        s->now.uncounted = self;
    } else if (plain) { /* counted before its step, as a start of a type that is not plain */
        if (!top && CORRAL__UNLIKELY(s->now.uncounted)) corral__count_uncounted(s);
        te->started++;
        corral__count_live(s, te, c);
    }
    corral_result r = corral__step_bare(s, co, te->step, &pause, plain);
    if (deferred && CORRAL__UNLIKELY(s->now.uncounted != self)) corral__uncount(s, co); /* counted during its step */
    if (CORRAL__LIKELY(r == CORRAL_STOP && co->state == CORRAL__RUNNING &&
                       !corral__co_sided(m))) {
        co->state = CORRAL__ENDING;
        if (deferred) s->now.uncounted = 0;
        else if (plain) te->lives = 0; /* the next one is deferred */
        corral__end_last(s, co, te, c, CORRAL_END_FINISHED, local, plain, !deferred);
    } else {
        if (deferred) { /* it lives on (or ends the general way): counted, and the next one at once */
            corral__count_uncounted(s);
            te->lives = 1;
        }
        if (r == CORRAL_YIELD && co->state == CORRAL__RUNNING && !pause) corral__land(s, co); /* the common case */
        else corral__after_detached(s, co, m, r, pause);
    }
}

static CORRAL__ALWAYS_INLINE void corral__first_step(corral_sched *s, corral_co *co, corral__meta *m,
                                                    corral__type_entry *te, corral__class *c, uint32_t local,
                                                    bool plain)
{
    const bool top = corral__top_begin(s);
    if (plain && !te->lives) corral__first_step_as(s, co, m, te, c, local, true, true, top);
    else corral__first_step_as(s, co, m, te, c, local, plain, false, top);
    corral__top_end(s, top);
}

/* A start of type te refused for want of room (err: NO_CLASS,
   POOL_EXHAUSTED or TYPE_BUDGET), reported with the type and its class in words. */
CORRAL__COLD void corral__refuse(const char *call, corral_sched *s, const corral__type_entry *te,
                                 corral_error err);

/* Whether class c has a free slot beyond its reservations (c->reserved
   set), the counts exact first (corral__count_uncounted) */
bool corral__room_beyond_reserved(corral_sched *s, const corral__class *c);

/* Room for one more coroutine of type te: its budget, and the reservations
   of budgeted types (a type without a budget may not take a class's last
   free slots while they are reserved; with none reserved, an empty free
   list is the only way to be full). Counted and reported when not. */
static CORRAL__ALWAYS_INLINE bool corral__room_for(const char *call, corral_sched *s, corral__type_entry *te)
{
    corral__class *c = &s->arena.classes[te->cls];
    if (CORRAL__LIKELY(te->budget ? te->live < te->budget : !c->reserved || corral__room_beyond_reserved(s, c)))
        return true;
    te->failed++;
    if (!te->budget) c->failures++;
    corral__refuse(call, s, te, te->budget ? CORRAL_ERR_TYPE_BUDGET : CORRAL_ERR_POOL_EXHAUSTED);
    return false;
}

/* Whether a coroutine of type vt may start now (arguments, type, class,
   group nodes, budget, reservations): its type index, or NIL with the
   error set and counted. */
static CORRAL__ALWAYS_INLINE uint32_t corral__admit(const char *call, corral_sched *s, const corral_type *vt,
                                                   const void *ctx, size_t ctx_size, uint64_t owner, uint32_t tags,
                                                   uint32_t domain)
{
    const uint32_t none = CORRAL__NIL;
    CORRAL__REQUIRE_AT(s, vt && ctx, CORRAL_ERR_NULL_ARG, call, CORRAL__NOH, NULL, NULL, none);
    CORRAL__REQUIRE_AT(s, !(s->flags & CORRAL__DESTROYING), CORRAL_ERR_DESTROYING, call, CORRAL__NOH, NULL, NULL, none);
    uint32_t ti = corral__type_index(s, vt);
    if (ti >= CORRAL__BAD_TI) {
        if (ti == CORRAL__BAD_TI) corral__type_refuse(call, s, vt);
        else corral__fail_at(s, NULL, CORRAL_ERR_TOO_MANY_TYPES, call, CORRAL__NOH, NULL, NULL);
        return none;
    }
    corral__type_entry *te = &corral__types(s)[ti];
    CORRAL__REQUIRE_AT(s, ctx_size == te->ctx_size, CORRAL_ERR_CTX_SIZE_MISMATCH, call, CORRAL__NOH, NULL, NULL, none);
    if (te->cls == CORRAL__NO_CLASS) {
        te->failed++;
        corral__refuse(call, s, te, CORRAL_ERR_NO_CLASS);
        return none;
    }
    if (CORRAL__UNLIKELY(owner | tags)) {
        if (!corral__group_room(call, s, te, owner, tags)) return none; /* before taking anything */
    } else if (CORRAL__UNLIKELY(domain) && !corral__sides_room(call, s, NULL, "none for the start's time domain")) {
        te->failed++; /* a domain other than 0 is kept in a side record (the groups' one, if it has them) */
        return none;
    }
    if (!corral__room_for(call, s, te)) return none;
    return ti;
}

/* Take a slot for an admitted coroutine of type ti and copy its context in
   (no step yet). NULL, with the error set and counted, if no slot is free.
   plain: the type's corral__plain, a constant where the caller knows it so
   that the tests it stands for fold away; a plain take is not counted yet
   (its first step follows at once: corral__first_step counts it). */
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
        corral__refuse(call, s, te, CORRAL_ERR_POOL_EXHAUSTED);
        return NULL;
    }
    if (!plain) corral__budget_take(te, c);
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

    if (!plain) corral__count_taken(s, te, c); /* plain: counted by its first step (corral__first_step) */
    corral__meta *m = &corral__meta_table(s)[c->first + local];
    corral__meta_fresh(m);
    if (!plain) corral__co_age_set(s, m, 0); /* kept with timing, which no plain type has */
    *meta_out = m;
    if (!plain && s->prof.hooks.alloc) s->prof.hooks.alloc(c->name, co, c->slot_size, s->prof.hooks.user_data);

    if (owner | tags) corral__join_groups(call, s, co, owner, tags); /* cannot fail: checked above */
    out->index = te->cls << CORRAL__CLASS_SHIFT | local;
    out->gen = co->gen;
    return co;
}

/* take and first step of an admitted start; plain: a constant */
static CORRAL__ALWAYS_INLINE void corral__start_as(const char *call, corral_sched *s, uint32_t ti, const void *ctx,
                                                  size_t ctx_size, uint32_t phase, uint64_t owner, uint32_t tags,
                                                  uint32_t domain, corral_handle *h, bool plain)
{
    corral__meta *m;
    corral_co *co = corral__take(call, s, ti, ctx, ctx_size, phase, owner, tags, h, &m, plain);
    if (!co) return;
    if (domain) corral__co_domain_put(call, s, m, domain); /* a record free: admitted */
    corral__type_entry *te = &corral__types(s)[ti];
    /* Unity: the first step runs at once, in the caller's frame */
    corral__first_step(s, co, m, te, &s->arena.classes[te->cls], h->index & CORRAL__LOCAL_MASK, plain);
}

/* A start's scheduler and options (opts: NULL, none): false, with the
   error set, when they are not sound; else its phase in *phase. */
static CORRAL__ALWAYS_INLINE bool corral__start_checks(const char *call, corral_sched *s,
                                                       const corral_start_desc *opts, uint32_t *phase)
{
    if (!corral__check_in(s, call)) return false;
    *phase = CORRAL__PH_UPDATE;
    CORRAL__REQUIRE(s, !opts || corral__phase_of(s, opts->phase, phase), CORRAL_ERR_BAD_PHASE, false);
    CORRAL__REQUIRE(s, !opts || opts->domain < corral__domains_of(s)->count, CORRAL_ERR_BAD_DOMAIN, false); /* domain 0 is always there */
    return true;
}

/* split: a second copy of the path for plain types (corral_start's, whose
   speed is the spawn's); without, one copy that tests what plain folds away */
static CORRAL__ALWAYS_INLINE corral_handle corral__start(const char *call, corral_sched *s, const corral_type *vt,
                                                         const void *ctx, size_t ctx_size,
                                                         const corral_start_desc *opts, bool split)
{
    corral_handle h = {0, 0};
    uint32_t phase;
    if (CORRAL__UNLIKELY(!corral__start_checks(call, s, opts, &phase))) return h;
    uint64_t owner = opts ? opts->owner : 0;
    uint32_t tags = opts ? opts->tags : 0, domain = opts ? opts->domain : 0;
    uint32_t ti = corral__admit(call, s, vt, ctx, ctx_size, owner, tags, domain);
    if (ti == CORRAL__NIL) return h;
    /* two copies of the rest: one without the optional work's tests */
    if (split && corral__types(s)[ti].plain)
        corral__start_as(call, s, ti, ctx, ctx_size, phase, owner, tags, domain, &h, true);
    else corral__start_as(call, s, ti, ctx, ctx_size, phase, owner, tags, domain, &h, false);
    return h;
}

#endif
