/*
    calls.c -- the end of a call, and joins: a called child's end hands its
    result and outcome to its caller and wakes it (corral__call_end); one
    that joins another waits on that one's joiners list (corral_wait_join).
    Both end when the awaited coroutine ends, whatever the reason. Races and
    syncs (races.c) build on calls: their arms are children too. The call
    itself (the child's start, where its result goes) is call_start.c's.

    The child's life is the lifecycle's (lifecycle.c): it starts from the
    ready list right after the caller's step returns, and its end calls
    corral__call_end here.
*/
#include "../corral_internal.h"

#include <stdio.h>
#include <string.h>

/* races and syncs (races.c, a module): its table, from the first race or
   sync begun; none can be under way before */
static const corral__race_part *corral__races_part(void)
{
    return (const corral__race_part *)corral__feature(CORRAL__FEATURE_RACES);
}

/* A called child ends (why): its result goes to its caller's destination
   (only when it finished), its outcome to corral_call_outcome, and the
   caller's wait for it is over. */
static void corral__call_end(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                             corral_end_reason why)
{
    corral__side *sd = &corral__sides(s)[m->side];
    corral_co *p = corral__co_of_global(s, sd->parent);
    corral__meta *pm = corral__meta_of(s, p);
    corral__side *ps = &corral__sides(s)[pm->side]; /* a caller has one */
    sd->parent = CORRAL__NIL;
    if (ps->child != corral__global_of(s, co)) {
        const corral__race_part *r = corral__races_part();
        if (r && (pm->mode == CORRAL__MODE_RACE || pm->mode == CORRAL__MODE_SYNC)) r->arm_end(s, p, pm, co, te, why);
        return;
    }
    if (why == CORRAL_END_FINISHED && te->vt->result_size && ps->dest != CORRAL__NIL)
        memcpy(CORRAL__AT(p, ps->dest), CORRAL__AT(co, te->ctx_off + te->vt->result_offset), te->vt->result_size);
    ps->outcome = (uint8_t)why;
    ps->child = ps->dest = CORRAL__NIL;
    if (pm->wait != CORRAL__NIL) corral__release_wait(s, p); /* an interrupt that did not fire */
    if (p->state == CORRAL__WAITING || p->state == CORRAL__PAUSED) corral__wake(s, p, true);
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
        const uint32_t child = corral__sd(s, m)->child;
        if (child != CORRAL__NIL && n < 64) stack[n++] = child;
        if (m->mode != CORRAL__MODE_ONE && m->mode != CORRAL__MODE_ALL && m->mode != CORRAL__MODE_SYNC) continue;
        for (uint32_t i = m->wait; i != CORRAL__NIL; i = N[i].sibling)
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
    if (target == co) { /* waiting for itself would never end */
        corral__fail_at(s, NULL, CORRAL_ERR_CYCLIC_WAIT, call, w->co, co, "it joins itself");
        return -1;
    }
    CORRAL__REQUIRE_AT(s, !corral__validating(s) || !corral__waits_for(s, target, co), CORRAL_ERR_CYCLIC_WAIT, call, w->co, co,
                        "the target waits (through joins or calls) for the joiner", -1);
    if (!corral__side_take(call, s, corral__meta_of(s, target))) return -2; /* its joiners list */
    return 0;
}
static corral__list corral__join_list(corral_sched *s, const corral__node *n);
static void corral__join_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    (void)co;
    corral_error err;
    corral__node *n = &corral__nodes(s)[i];
    n->u.t.target = corral__global_of(s, corral__resolve(s, w->co, &err));
    corral__list_push(s, corral__join_list(s, n), i);
}
static corral__list corral__join_list(corral_sched *s, const corral__node *n)
{
    corral__side *sd = &corral__sides(s)[corral__meta_table(s)[n->u.t.target].side]; /* a joined one has one */
    return (corral__list){&sd->joiners_head, &sd->joiners_tail};
}
static bool corral__join_verify(const corral__vquery *q, const corral__node *n)
{
    return n->u.t.target != q->g && q->alive(q->m, n->u.t.target);
}
static void corral__join_name(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    corral_handle t = corral__handle_of(s, corral__co_of_global(s, n->u.t.target));
    snprintf(buf, cap, " 0x%06x:%u", t.index, t.gen);
}
/* save games: the joined coroutine by its saved index */
static void corral__join_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    (void)te;
    corral__put_u(io, corral__save_ref(s, n->u.t.target), 4);
}
static const char *corral__join_check(const corral__lview *v, const corral__lwait *w)
{
    return v->find(v->L, w->ref) == CORRAL__NIL || w->ref == v->self
               ? "a coroutine of type %s joins one the save does not hold%s"
               : NULL;
}
static void corral__join_load(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)co;
    corral__node *n = &corral__nodes(v->s)[i];
    n->u.t.target = v->slot(v->L, w->ref);
    corral__side_take("corral_load", v->s, &corral__meta_table(v->s)[n->u.t.target]); /* counted by the check */
    if (!held) corral__list_push(v->s, corral__join_list(v->s, n), i);
}
static const corral__wait_part corral__join_part = {
    .ready = corral__join_ready,
    .arm = corral__join_arm,
    .list = corral__join_list,
    .now = true,
    .verify = corral__join_verify,
    .name = corral__join_name,
    .save = corral__join_save,
    .read = corral__index_read,
    .check = corral__join_check,
    .place = corral__join_load,
};

static void corral__wake_joiners(corral_sched *s, corral_co *co)
{
    corral__side *sd = &corral__sides(s)[corral__meta_of(s, co)->side];
    corral__list l = {&sd->joiners_head, &sd->joiners_tail};
    while (sd->joiners_head != CORRAL__NIL) {
        uint32_t i = sd->joiners_head;
        corral__list_unlink(s, l, i);
        corral__fire(s, i);
    }
}

/* ---- the feature's table: what an ending coroutine asks of calls.c */
static void corral__calls_end(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                              corral_end_reason why)
{
    if (corral__sides(s)[m->side].parent != CORRAL__NIL) corral__call_end(s, co, m, te, why);
    if (corral__sides(s)[m->side].joiners_head != CORRAL__NIL) corral__wake_joiners(s, co);
}
static const corral__calls_part corral__calls_table = {corral__calls_end};
void corral__calls_use(void)
{
    corral__feature_add(CORRAL__FEATURE_CALLS, &corral__calls_table);
    corral__wait_parts_add(CORRAL_WAIT_JOIN, CORRAL_WAIT_JOIN, &corral__join_part);
}

corral_wait corral_wait_join(corral_handle h)
{
    corral__calls_use();
    corral_wait w = corral__wait_of(CORRAL_WAIT_JOIN);
    w.co = h;
    return w;
}
