/*
    call_start.c -- a coroutine calls another (corral_call,
    corral_call_unless): the child is made, its result's destination
    checked, and the caller waits on it; corral_call_outcome says how the
    last one ended. The end of a call is calls.c's; races.c makes its arms
    with the same parts.
*/
#include "../corral_internal.h"

#include <stdio.h>

/* Where a child's result goes: *off, its offset in the caller's slot (NIL:
   nowhere), or false with BAD_DEST set (not the type's result size, or not
   inside the caller's context). */
bool corral__dest_of(const char *call, corral_sched *s, corral_co *co, const corral_type *vt, void *dest,
                     size_t dest_size, uint32_t *off)
{
    const corral__type_entry *pte = &corral__types(s)[co->type];
    *off = CORRAL__NIL;
    if (vt && dest_size != vt->result_size) {
        char why[128];
        snprintf(why, sizeof why, "%s %lu-byte destination for the %u-byte result of %s", corral__a(dest_size),
                 (unsigned long)dest_size, vt->result_size, vt->name ? vt->name : "?");
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_DEST, call, CORRAL__NOH, co, why);
        return false;
    }
    if (dest_size) {
        uintptr_t d = (uintptr_t)dest, lo = (uintptr_t)CORRAL__AT(co, pte->ctx_off);
        CORRAL__REQUIRE_AT(s, dest && d >= lo && d + dest_size <= lo + pte->ctx_size, CORRAL_ERR_BAD_DEST, call,
                           CORRAL__NOH, co,
                           "the result's destination is not inside the waiting coroutine's context: give a field "
                           "(&ctx->v)",
                           false);
        *off = (uint32_t)(d - (uintptr_t)co);
    }
    return true;
}

/* A child of co, made and not stepped: it acts for the same entity (the
   caller's groups), in the same phase and time domain. Caller and child
   each have a side record for the links between them. NULL, the error
   set, if it cannot start. */
corral_co *corral__child_of(const char *call, corral_sched *s, corral_co *co, const corral_type *vt,
                            const void *ctx, size_t ctx_size)
{
    uint64_t owner = 0;
    uint32_t tags = 0;
    corral__node *N = corral__nodes(s);
    corral__meta *pm = corral__meta_of(s, co);
    /* the caller's record (kept: it holds the outcome), then room for the
       child's before anything is taken for it */
    if (pm->side == CORRAL__NIL && !corral__sides_room(call, s, co, "none for the caller")) return NULL;
    corral__side_take(call, s, pm); /* free: checked above */
    if (!corral__sides_room(call, s, co, "none for the called child")) return NULL;
    for (uint32_t i = corral__sides(s)[pm->side].groups; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].kind == CORRAL__NODE_OWNER) owner = N[i].u.g.owner;
        else if (N[i].kind == CORRAL__NODE_TAG) tags |= 1u << N[i].u.g.tag;
    }
    corral_handle h;
    corral__meta *cm;
    if (!corral__part_needed(call, s, s->parts.feature[CORRAL__FEATURE_CALLS], "calls")) return NULL; /* its end goes to its caller through calls.c */
    corral_co *child = corral__create(call, s, vt, ctx, ctx_size, co->flags & CORRAL__PHASE_MASK, owner, tags, &h, &cm);
    if (!child) return NULL;
    corral__side_take(call, s, cm)->parent = corral__global_of(s, co); /* free: checked above */
    cm->domain = pm->domain;
    return child;
}

/* keep_wait: the caller's wait nodes are an interrupt for this call */
static bool corral__call(const char *call, corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size,
                         void *dest, size_t dest_size, bool keep_wait)
{
    corral_sched *s = corral__in_step(call, co, false);
    if (!s) return false;
    corral__meta *pm = corral__meta_of(s, co);
    if (pm->side != CORRAL__NIL) corral__sides(s)[pm->side].outcome = CORRAL_END_NONE;
    if (corral__calling(s, pm)) { /* one call at a time */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, "it awaits a child already");
        return false;
    }
    uint32_t dest_off;
    if (!corral__dest_of(call, s, co, vt, dest, dest_size, &dest_off)) return false;
    if (!keep_wait && (pm->wait != CORRAL__NIL || co->state == CORRAL__WAITING)) { /* replaces an await */
        corral__unwait(s, co);
    }
    corral_co *child = corral__child_of(call, s, co, vt, ctx, ctx_size);
    if (!child) return false; /* outcome NONE: the caller goes on */
    corral__side *ps = &corral__sides(s)[pm->side]; /* corral__child_of took it */
    ps->child = corral__global_of(s, child);
    ps->dest = dest_off;
    corral__park(co);
    /* the child's first step runs right after this step returns: never on
       the caller's C stack, so chains of any depth cost no stack */
    corral__ready_push(s, child);
    return true;
}

bool corral_call_unless(corral_co *co, corral_wait interrupt, const corral_type *vt, const void *ctx,
                        size_t ctx_size, void *dest, size_t dest_size)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    if (!s) return false;
    corral__meta *pm = corral__meta_of(s, co);
    CORRAL__REQUIRE_AT(s, !corral__calling(s, pm) && !(pm->mode & CORRAL__MODE_OPEN), CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "it awaits a child already", false);
    corral__side *ps = corral__side_take(__func__, s, pm); /* the call's links and its outcome */
    if (!ps) return false;
    if (pm->wait != CORRAL__NIL || co->state == CORRAL__WAITING) {
        corral__unwait(s, co);
    }
    ps->fired = -1;
    int r = corral__register_wait(__func__, s, co, &interrupt); /* first: a bad interrupt starts nothing */
    if (r == -2) { /* no node for the interrupt: it cannot wait (see corral_await) */
        ps->outcome = CORRAL_END_NONE;
        corral__stop_co(s, co, CORRAL_END_WAIT_FAILED);
        return true;
    }
    if (r <= 0) {
        ps->outcome = r == 0 ? CORRAL_END_INTERRUPTED : CORRAL_END_NONE;
        return false;
    }
    if (!corral__call(__func__, co, vt, ctx, ctx_size, dest, dest_size, true)) { /* could not start: undo */
        corral__unwait(s, co);
        return false;
    }
    return true;
}

corral_end_reason corral_call_outcome(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return CORRAL_END_NONE;
    return (corral_end_reason)corral__side_of(s, corral__meta_of(s, co))->outcome;
}

bool corral_call(corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size, void *dest,
                 size_t dest_size)
{
    return corral__call(__func__, co, vt, ctx, ctx_size, dest, dest_size, false);
}
