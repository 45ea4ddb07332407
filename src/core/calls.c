/*
    calls.c -- a call and its end, and joins. A coroutine calls another
    (corral_call, corral_call_unless): the child is made, its result's
    destination checked, and the caller waits on it; corral_call_outcome
    says how the last one ended; races.c makes its arms with the same
    parts. A called child's end hands its
    result and outcome to its caller and wakes it (corral__call_end); one
    that joins another waits on that one's joiners list (corral_wait_join),
    with a place for its result if it asks (corral_wait_join_result: the
    place's offset in its slot in the node's u.t.seq, NIL: none); a race
    over running coroutines stops the ones that did not end first
    (corral_race_settle). Both end when the awaited coroutine ends,
    whatever the reason. Races and
    syncs (races.c) build on calls: their arms are children too.

    The child's life is the lifecycle's (lifecycle.c): it starts from the
    ready list right after the caller's step returns, and its end calls
    corral__call_end here.
*/
#include "../corral_internal.h"
#include "arena.h"

#include <stdio.h>
#include <string.h>

/* ---- a call: the child made, the caller waiting on it */

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
    if (!corral__co_sided(pm) && !corral__sides_room(call, s, co, "none for the caller")) return NULL;
    const corral__side *ps = corral__side_take(call, s, pm); /* free: checked above */
    if (!corral__sides_room(call, s, co, "none for the called child")) return NULL;
    for (uint32_t i = ps->groups; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].kind == CORRAL__NODE_OWNER) owner = N[i].u.g.owner;
        else if (N[i].kind == CORRAL__NODE_TAG) tags |= 1u << N[i].u.g.tag;
    }
    corral_handle h;
    corral__meta *cm;
    if (!corral__part_needed(call, s, NULL, s->parts.feature[CORRAL__FEATURE_CALLS], "calls")) return NULL; /* its end goes to its caller through calls.c */
    corral_co *child = corral__create(call, s, vt, ctx, ctx_size, co->flags & CORRAL__PHASE_MASK, owner, tags, &h, &cm);
    if (!child) return NULL;
    corral__side *cs = corral__side_take(call, s, cm); /* free: checked above */
    cs->parent = corral__global_of(s, co);
    cs->domain = ps->domain; /* its caller's */
    return child;
}

/* keep_wait: the caller's wait nodes are an interrupt for this call */
static bool corral__call(const char *call, corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size,
                         void *dest, size_t dest_size, bool keep_wait)
{
    corral_sched *s = corral__in_step(call, co, false);
    if (!s) return false;
    corral__meta *pm = corral__meta_of(s, co);
    corral__side *sd = corral__side_if(s, pm); /* NULL: corral__child_of takes one */
    if (sd) sd->outcome = CORRAL_END_NONE;
    if (corral__calling_with(sd)) { /* one call at a time */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, "it awaits a child already");
        return false;
    }
    uint32_t dest_off;
    if (!corral__dest_of(call, s, co, vt, dest, dest_size, &dest_off)) return false;
    if (!keep_wait && (corral__wait_by(co, sd ? sd : corral__side_none()) != CORRAL__NIL ||
                       co->state == CORRAL__WAITING)) { /* replaces an await */
        corral__unwait(s, co);
    }
    corral_co *child = corral__child_of(call, s, co, vt, ctx, ctx_size);
    if (!child) return false; /* outcome NONE: the caller goes on */
    corral__side *ps = sd ? sd : corral__side_at(s, pm); /* corral__child_of took it */
    ps->child = corral__global_of(s, child);
    ps->dest = dest_off;
    corral__wait_open(co); /* waiting on its child: its interrupt's chain, or none */
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
    corral__side *ps = corral__side_if(s, pm);
    CORRAL__REQUIRE_AT(s, !corral__calling_with(ps) && !corral__building_arms_with(co, ps), CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "it awaits a child already", false);
    if (!ps) ps = corral__side_take(__func__, s, pm); /* the call's links and its outcome */
    if (!ps) return false;
    if (corral__wait_by(co, ps) != CORRAL__NIL || co->state == CORRAL__WAITING) {
        corral__unwait(s, co);
    }
    ps->fired = -1;
    int r = corral__register_wait(__func__, s, co, ps, &interrupt); /* first: a bad interrupt starts nothing */
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

/* ---- a call's end, and joins */

/* races and syncs (races.c): its table, in a scheduler with that part;
   none can be under way without it */
static const corral__race_part *corral__races_part(const corral_sched *s)
{
    return (const corral__race_part *)corral__feature(s, CORRAL__FEATURE_RACES);
}

/* A called child ends (why): its result goes to its caller's destination
   (only when it finished), its outcome to corral_call_outcome, and the
   caller's wait for it is over. */
static void corral__call_end(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                             corral_end_reason why)
{
    corral__side *sd = corral__side_at(s, m);
    corral_co *p = corral__co_of_global(s, sd->parent);
    corral__meta *pm = corral__meta_of(s, p);
    corral__side *ps = corral__side_at(s, pm); /* a caller has one */
    sd->parent = CORRAL__NIL;
    if (ps->child != corral__global_of(s, co)) {
        const corral__race_part *r = corral__races_part(s);
        if (r && (corral__co_awaits_arms(s, pm))) r->arm_end(s, p, pm, co, te, why);
        return;
    }
    if (why == CORRAL_END_FINISHED && te->vt->result_size && ps->dest != CORRAL__NIL)
        memcpy(CORRAL__AT(p, ps->dest), CORRAL__AT(co, te->ctx_off + te->vt->result_offset), te->vt->result_size);
    ps->outcome = (uint8_t)why;
    ps->child = ps->dest = CORRAL__NIL;
    if (corral__co_wait(s, p, pm) != CORRAL__NIL) corral__release_wait(s, p); /* an interrupt that did not fire */
    if (p->state == CORRAL__WAITING || corral__paused(p->state)) corral__wake(s, p, true);
}

/* Validation: does `from` wait, through calls (a caller waits for its
   child) and joins (ONE or ALL), for `to` to end? A bounded walk with a
   stack on the C stack; past its bounds it answers no (no false alarm). */
static bool corral__waits_for(const corral_sched *s, const corral_co *from, const corral_co *to)
{
    uint32_t stack[64], n = 0, budget = 4 * s->arena.live + 64;
    const corral__node *N = corral__nodes(s);
    stack[n++] = corral__global_of(s, from);
    while (n > 0 && budget-- > 0) {
        const corral_co *c = corral__co_of_global(s, stack[--n]);
        if (c == to) return true;
        if (!corral__state_alive(c->state)) continue;
        const corral__meta *m = corral__meta_of(s, c);
        const uint32_t child = corral__side_of(s, m)->child;
        if (child != CORRAL__NIL && n < 64) stack[n++] = child;
        const uint8_t mode = corral__co_mode(s, c, m);
        if (mode != CORRAL__MODE_ONE && mode != CORRAL__MODE_ALL && mode != CORRAL__MODE_SYNC) continue;
        for (uint32_t i = corral__co_wait(s, c, m); i != CORRAL__NIL; i = N[i].sibling)
            if ((N[i].kind == CORRAL_WAIT_JOIN || N[i].kind == CORRAL__NODE_ARM) && N[i].u.t.target != CORRAL__NIL &&
                n < 64)
                stack[n++] = N[i].u.t.target;
    }
    return false;
}

/* ---- joins: a coroutine waits for another to end, on its joiners list */

/* the waits' questions about a join wait: ready, arm, list */
static int corral__join_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral_error err;
    corral_co *target = corral__resolve(s, w->co, &err);
    if (!target) return 1; /* zero, stale, finished: go on at once */
    if (w->user) { /* where its result goes: in the joiner's context, the target's result's size */
        const corral__type_entry *te = &corral__types(s)[co->type];
        const uintptr_t d = (uintptr_t)w->user, lo = (uintptr_t)CORRAL__AT(co, te->ctx_off);
        CORRAL__REQUIRE_AT(s, d >= lo && d + w->count <= lo + te->ctx_size, CORRAL_ERR_BAD_DEST, call, w->co, co,
                           "the join's destination is not inside the joining coroutine's context: join into a field "
                           "(&ctx->v)",
                           -1);
        const corral_type *tvt = corral__types(s)[target->type].vt;
        if (w->count != tvt->result_size || w->count == 0) {
            char why[128];
            if (tvt->result_size)
                snprintf(why, sizeof why, "%s %u-byte destination for the %u-byte result of %s", corral__a(w->count),
                         w->count, tvt->result_size, tvt->name ? tvt->name : "?");
            else
                snprintf(why, sizeof why, "%s has no result: join it with corral_wait_join",
                         tvt->name ? tvt->name : "?");
            corral__fail_at(s, NULL, CORRAL_ERR_BAD_DEST, call, w->co, co, why);
            return -1;
        }
    }
    if (target == co) { /* waiting for itself would never end */
        corral__fail_at(s, NULL, CORRAL_ERR_CYCLIC_WAIT, call, w->co, co, "it joins itself");
        return -1;
    }
    CORRAL__REQUIRE_AT(s, !corral__validating(s) || !corral__waits_for(s, target, co), CORRAL_ERR_CYCLIC_WAIT, call, w->co, co,
                        "the target waits (through joins or calls) for the joiner", -1);
    if (!corral__side_take(call, s, corral__meta_of(s, target))) return -2; /* its joiners list */
    return 0;
}
corral__list corral__join_list(corral_sched *s, const corral__node *n)
{
    corral__side *sd = corral__side_at(s, &corral__meta_table(s)[n->u.t.target]); /* a joined one has one */
    return (corral__list){&sd->joiners_head, &sd->joiners_tail};
}
static void corral__join_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    (void)co;
    corral_error err;
    corral__node *n = &corral__nodes(s)[i];
    n->u.t.target = corral__global_of(s, corral__resolve(s, w->co, &err));
    n->u.t.seq = w->user ? (uint32_t)((uintptr_t)w->user - (uintptr_t)co) : CORRAL__NIL;
    corral__list_push(s, corral__join_list(s, n), i);
}
bool corral__join_verify(const corral__vquery *q, const corral__node *n)
{
    return n->u.t.target != q->g && q->alive(q->m, n->u.t.target);
}
void corral__join_name(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    corral_handle t = corral__handle_of(s, corral__co_of_global(s, n->u.t.target));
    snprintf(buf, cap, " 0x%06x:%u", t.index, t.gen);
}
static void corral__join_hash(const corral__node *n, void (*put)(void *k, uint64_t v), void *k)
{
    if (n->u.t.seq != CORRAL__NIL) put(k, 1); /* it takes the result (where: the build's) */
}
/* save games: the joined coroutine by its saved index, and (version 5)
   where its result goes by field name, as a call's */
static void corral__join_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    corral__put_u(io, corral__save_ref(s, n->u.t.target), 4);
    uint32_t byte = 0;
    const uint32_t field =
        n->u.t.seq == CORRAL__NIL ? CORRAL__NIL : corral__field_at(te->vt, n->u.t.seq - te->ctx_off, &byte);
    corral__put_u(io, field, 4);
    corral__put_u(io, byte, 4);
}
static void corral__join_read(corral__io *io, corral__lwait *w)
{
    w->ref = (uint32_t)corral__get_u(io, 4);
    w->user = io->version >= 5 ? corral__get_u(io, 4) : CORRAL__NIL;
    w->seq = io->version >= 5 ? (uint32_t)corral__get_u(io, 4) : 0u;
}
static const char *corral__join_check(const corral__lview *v, const corral__lwait *w)
{
    if (v->find(v->L, w->ref) == CORRAL__NIL || w->ref == v->self)
        return "a coroutine of type %s joins one the save does not hold%s";
    if (w->user != CORRAL__NIL &&
        (w->user > 0xFFFFFFFFu || v->dest(v->L, v->type, (uint32_t)w->user, w->seq) == CORRAL__NIL))
        return "a joined coroutine's result of type %s has no place in this build%s";
    return NULL; /* the result's size is checked where it is copied */
}
static void corral__join_load(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)co;
    corral__node *n = &corral__nodes(v->s)[i];
    n->u.t.target = v->slot(v->L, w->ref);
    n->u.t.seq = w->user == CORRAL__NIL ? CORRAL__NIL
                                        : v->te->ctx_off + v->dest(v->L, v->type, (uint32_t)w->user, w->seq);
    corral__side_take("corral_load", v->s, &corral__meta_table(v->s)[n->u.t.target]); /* counted by the check */
    if (!held) corral__list_push(v->s, corral__join_list(v->s, n), i);
}
static const corral__wait_part corral__join_part = {
    .seq_in_slot = true,
    .ready = corral__join_ready,
    .arm = corral__join_arm,
    .list = corral__join_list,
    .now = true,
    .verify = corral__join_verify,
    .name = corral__join_name,
    .hash = corral__join_hash,
    .save = corral__join_save,
    .read = corral__join_read,
    .check = corral__join_check,
    .place = corral__join_load,
};

/* its joiners' waits are over; those that asked get its result when it
   finished (where their context has room for it: a loaded place is
   checked here); its pullers are told how it ended (corral_wait_got); the
   generators that belong to it end (PARENT_STOPPED, as an awaited child:
   pulls.c's, one after the other) */
static void corral__wake_joiners(corral_sched *s, corral_co *co, const corral__type_entry *te, corral_end_reason why)
{
    corral__side *sd = corral__side_at(s, corral__meta_of(s, co));
    corral__list l = {&sd->joiners_head, &sd->joiners_tail};
    const uint32_t size = te->vt->result_size;
    while (sd->joiners_head != CORRAL__NIL) {
        uint32_t i = sd->joiners_head;
        corral__node *n = &corral__nodes(s)[i];
        if (n->kind == CORRAL__NODE_OWNED) { /* a generator it owns (pulls.c's, as a tie is) */
            ((const corral__pulls_part *)corral__feature(s, CORRAL__FEATURE_PULLS))->owned(s, co, i, why);
            continue;
        }
        if (n->kind == CORRAL_WAIT_PULL) /* n->list: a CORRAL_PULL's own wait (pulls.c) */
            corral__co_stop_why_add(corral__meta_of(s, CORRAL__CO(s, n->co)),
                                    n->list ? (why == CORRAL_END_FINISHED ? CORRAL__GOT_PULL_FINISHED : CORRAL__GOT_PULL_STOPPED)
                                            : CORRAL__WAIT_CLOSED | (why == CORRAL_END_FINISHED ? 0u : CORRAL__GOT_STOPPED));
        if (n->u.t.seq != CORRAL__NIL && why == CORRAL_END_FINISHED && size) {
            corral_co *j = CORRAL__CO(s, n->co);
            if (corral__ctx_holds(&corral__types(s)[j->type], n->u.t.seq, size))
                memcpy(CORRAL__AT(j, n->u.t.seq), CORRAL__AT(co, te->ctx_off + te->vt->result_offset), size);
        }
        corral__list_unlink(s, l, i);
        corral__fire(s, i);
    }
}

/* ---- the feature's table: what an ending coroutine asks of calls.c */
static void corral__calls_end(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                              corral_end_reason why)
{
    if (corral__side_at(s, m)->parent != CORRAL__NIL) corral__call_end(s, co, m, te, why);
    if (corral__side_at(s, m)->joiners_head != CORRAL__NIL) corral__wake_joiners(s, co, te, why);
}
static const corral__calls_part corral__calls_table = {corral__calls_end};
const corral_part corral_part_calls = {
    .waits = {{CORRAL_WAIT_JOIN, CORRAL_WAIT_JOIN, &corral__join_part}},
    .feature = CORRAL__FEATURE_CALLS,
    .table = &corral__calls_table,
};

corral_wait corral_wait_join(corral_handle h)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_JOIN);
    w.co = h;
    return w;
}

corral_wait corral_wait_join_result(corral_handle h, void *dest, uint32_t size)
{
    corral_wait w = corral_wait_join(h);
    w.user = dest;
    w.count = size;
    return w;
}

/* After an any of joins over hs (CORRAL_RACE_OF): every other one still
   running ends, LOST_RACE; the winner's index (corral_wait_fired). */
int corral_race_settle(corral_co *co, const corral_handle *hs, uint32_t n)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return -1;
    CORRAL__REQUIRE_AT(s, hs || !n, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, co, NULL, -1);
    const int won = corral__side_of(s, corral__meta_of(s, co))->fired;
    for (uint32_t i = 0; i < n && i < CORRAL_MAX_GROUP; i++) {
        corral_error err;
        corral_co *c = (int)i == won ? NULL : corral__resolve(s, hs[i], &err);
        if (c && c != co) corral__stop_co(s, c, CORRAL_END_LOST_RACE);
    }
    return won;
}
