/*
    calls.c -- calls, races, syncs and joins: a coroutine that calls another
    waits for it to end and receives its result (corral_call); one that
    races or syncs several waits for the first or the last of them, each an
    arm: a node on its wait chain naming the child and where its result
    goes (corral_race_begin .. corral_arms_start); one that joins another
    waits on that one's joiners list (corral_wait_join). All end when the
    awaited coroutine ends, whatever the reason.

    The child's life is the lifecycle's (lifecycle.c): it starts from the
    ready ring right after the caller's step returns, and its end calls
    corral__call_end here.
*/
#include "corral_internal.h"

#include <string.h>

/* Where a child's result goes: *off, its offset in the caller's slot (NIL:
   nowhere), or false with BAD_DEST set (not the type's result size, or not
   inside the caller's context). */
static bool corral__dest_of(const char *call, corral_sched *s, corral_co *co, const corral_type *vt, void *dest,
                            size_t dest_size, uint32_t *off)
{
    const corral__type_entry *pte = &corral__types(s)[co->type];
    *off = CORRAL__NIL;
    CORRAL__REQUIRE_AT(s, !vt || dest_size == vt->result_size, CORRAL_ERR_BAD_DEST, call, CORRAL__NOH, co, "its size is not the type's result size", false);
    if (dest_size) {
        uintptr_t d = (uintptr_t)dest, lo = (uintptr_t)CORRAL__AT(co, pte->ctx_off);
        CORRAL__REQUIRE_AT(s, dest && d >= lo && d + dest_size <= lo + pte->ctx_size, CORRAL_ERR_BAD_DEST, call, CORRAL__NOH, co, NULL, false);
        *off = (uint32_t)(d - (uintptr_t)co);
    }
    return true;
}

/* A child of co, made and not stepped: it acts for the same entity (the
   caller's groups), in the same phase and time domain. NULL, the error
   set, if it cannot start. */
static corral_co *corral__child_of(const char *call, corral_sched *s, corral_co *co, const corral_type *vt,
                                   const void *ctx, size_t ctx_size)
{
    uint64_t owner = 0;
    uint32_t tags = 0;
    corral__node *N = corral__nodes(s);
    for (uint32_t i = corral__meta_of(s, co)->groups; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].kind == CORRAL__NODE_OWNER) owner = N[i].u.g.owner;
        else if (N[i].kind == CORRAL__NODE_TAG) tags |= 1u << N[i].u.g.tag;
    }
    corral_handle h;
    corral__meta *cm;
    corral_co *child = corral__create(call, s, vt, ctx, ctx_size, co->flags & CORRAL__PHASE_MASK, owner, tags, &h, &cm);
    if (!child) return NULL;
    cm->parent = corral__global_of(s, co);
    cm->domain = corral__meta_of(s, co)->domain;
    return child;
}

/* keep_wait: the caller's wait nodes are an interrupt for this call */
static bool corral__call(const char *call, corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size,
                         void *dest, size_t dest_size, bool keep_wait)
{
    corral_sched *s = corral__in_step(call, co, false);
    if (!s) return false;
    corral__meta *pm = corral__meta_of(s, co);
    pm->outcome = CORRAL_END_NONE;
    if (corral__calling(pm)) { /* one call at a time */
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
    pm->child = corral__global_of(s, child);
    pm->dest = dest_off;
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
    CORRAL__REQUIRE_AT(s, !corral__calling(pm) && !(pm->mode & CORRAL__MODE_OPEN), CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "it awaits a child already", false);
    if (pm->wait != CORRAL__NIL || co->state == CORRAL__WAITING) {
        corral__unwait(s, co);
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
        corral__unwait(s, co);
        return false;
    }
    return true;
}

corral_end_reason corral_call_outcome(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return CORRAL_END_NONE;
    return (corral_end_reason)corral__meta_of(s, co)->outcome;
}

bool corral_call(corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size, void *dest,
                 size_t dest_size)
{
    return corral__call(__func__, co, vt, ctx, ctx_size, dest, dest_size, false);
}

/* ---- race and sync */

static bool corral__arms_begin(const char *call, corral_co *co, uint8_t kind)
{
    corral_sched *s = corral__in_step(call, co, false);
    if (!s) return false;
    corral__meta *m = corral__meta_of(s, co);
    CORRAL__REQUIRE_AT(s, !corral__calling(m) && !(m->mode & CORRAL__MODE_OPEN), CORRAL_ERR_BAD_WAIT, call,
                       CORRAL__NOH, co, "it awaits a child already", false);
    if (m->wait != CORRAL__NIL || co->state == CORRAL__WAITING) corral__unwait(s, co); /* replaces an await */
    m->mode = (uint8_t)(CORRAL__MODE_OPEN | kind);
    m->pending = 0; /* arms so far */
    m->fired = -1;
    m->outcome = CORRAL_END_NONE;
    /* races nest at most CORRAL_MAX_RACE_DEPTH deep: ending one ends its
       arms' races in turn, a C frame a level */
    uint32_t races = 1;
    for (uint32_t g = m->parent; g != CORRAL__NIL && races <= CORRAL_MAX_RACE_DEPTH;) {
        const corral__meta *pm = corral__meta_of(s, corral__co_of_global(s, g));
        uint8_t k = pm->mode & CORRAL__MODE_KIND;
        races += k == CORRAL__MODE_RACE || k == CORRAL__MODE_SYNC;
        g = pm->parent;
    }
    if (races > CORRAL_MAX_RACE_DEPTH) {
        corral__fail_at(s, NULL, CORRAL_ERR_RACE_DEPTH, call, CORRAL__NOH, co, NULL);
        m->mode |= CORRAL__MODE_BAD; /* its arms start none; it goes on with outcome NONE */
        return false;
    }
    return true;
}
bool corral_race_begin(corral_co *co) { return corral__arms_begin(__func__, co, CORRAL__MODE_RACE); }
bool corral_sync_begin(corral_co *co) { return corral__arms_begin(__func__, co, CORRAL__MODE_SYNC); }

bool corral_arm(corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size, void *dest, size_t dest_size)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    if (!s) return false;
    corral__meta *m = corral__meta_of(s, co);
    CORRAL__REQUIRE_AT(s, m->mode & CORRAL__MODE_OPEN, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co,
                       "an arm outside CORRAL_RACE / CORRAL_SYNC", false);
    if (m->mode & (CORRAL__MODE_BAD | CORRAL__MODE_NO_NODE)) return false; /* an arm before failed: none starts */
    uint32_t dest_off;
    if (m->pending >= CORRAL_MAX_GROUP) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "more than CORRAL_MAX_GROUP arms");
        m->mode |= CORRAL__MODE_BAD;
        return false;
    }
    if (!corral__dest_of(__func__, s, co, vt, dest, dest_size, &dest_off)) {
        m->mode |= CORRAL__MODE_BAD;
        return false;
    }
    if (s->nodes.wait_free_count == 0) { /* first: a child made without its node would be lost */
        s->nodes.wait_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, __func__, CORRAL__NOH, co, NULL);
        m->mode |= CORRAL__MODE_NO_NODE;
        return false;
    }
    corral_co *child = corral__child_of(__func__, s, co, vt, ctx, ctx_size);
    if (!child) {
        m->mode |= CORRAL__MODE_BAD;
        return false;
    }
    uint32_t i = corral__node_alloc(s);
    corral__node *N = corral__nodes(s), *n = &N[i];
    n->co = corral__co_off(s, co);
    n->kind = CORRAL__NODE_ARM;
    n->member = (uint8_t)m->pending++;
    n->order = s->nodes.order++;
    n->u.t.target = corral__global_of(s, child);
    n->u.t.seq = dest_off;
    uint32_t *at = &m->wait; /* in arm order */
    while (*at != CORRAL__NIL) at = &N[*at].sibling;
    *at = i;
    corral__ready_push(s, child); /* its first step: right after this step returns */
    return true;
}

/* The arms' children, in arm order, those still running (by global slot),
   and the chain back to the pool. */
static uint32_t corral__arms_take(corral_sched *s, corral_co *co, uint32_t kids[CORRAL_MAX_GROUP])
{
    corral__meta *m = corral__meta_of(s, co);
    const corral__node *N = corral__nodes(s);
    uint32_t n = 0;
    for (uint32_t i = m->wait; i != CORRAL__NIL; i = N[i].sibling)
        if (N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target != CORRAL__NIL && n < CORRAL_MAX_GROUP)
            kids[n++] = N[i].u.t.target;
    corral__release_wait(s, co);
    return n;
}

/* End the children kids[0..n) of co that are still its own (why). */
static void corral__arms_stop(corral_sched *s, const corral_co *co, const uint32_t *kids, uint32_t n,
                              corral_end_reason why)
{
    const uint32_t g = corral__global_of(s, co);
    for (uint32_t k = 0; k < n; k++) {
        corral_co *child = corral__co_of_global(s, kids[k]);
        corral__meta *cm = corral__meta_of(s, child);
        if (!corral__state_alive(child->state) || cm->parent != g) continue; /* ended meanwhile (a cleanup hook) */
        cm->parent = CORRAL__NIL; /* it must not decide anything for co */
        corral__stop_co(s, child, why);
    }
}

void corral__end_arms(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why)
{
    (void)m;
    uint32_t kids[CORRAL_MAX_GROUP];
    uint32_t n = corral__arms_take(s, co, kids);
    corral__arms_stop(s, co, kids, n, why == CORRAL_END_DESTROYED ? why : CORRAL_END_PARENT_STOPPED);
}

bool corral_arms_start(corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    if (!s) return false;
    corral__meta *m = corral__meta_of(s, co);
    CORRAL__REQUIRE_AT(s, m->mode & CORRAL__MODE_OPEN, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co,
                       "no CORRAL_RACE / CORRAL_SYNC begun", false);
    const uint8_t kind = m->mode & CORRAL__MODE_KIND, failed = m->mode & (CORRAL__MODE_BAD | CORRAL__MODE_NO_NODE);
    if (failed || m->pending == 0) { /* none starts: the arms made end unstepped */
        uint32_t kids[CORRAL_MAX_GROUP];
        uint32_t n = corral__arms_take(s, co, kids);
        corral__arms_stop(s, co, kids, n, CORRAL_END_PARENT_STOPPED);
        m->fired = -1;
        m->outcome = (uint8_t)(!failed && kind == CORRAL__MODE_SYNC ? CORRAL_END_FINISHED : CORRAL_END_NONE);
        if (failed & CORRAL__MODE_NO_NODE) { /* it cannot wait: it ends (see corral_await) */
            corral__stop_co(s, co, CORRAL_END_WAIT_FAILED);
            return true;
        }
        return false;
    }
    m->mode = kind;
    corral__park(co);
    return true;
}

int corral_race_winner(const corral_co *co)
{
    return corral_wait_fired(co);
}

/* An arm's child ends (why): a sync counts down; a race is decided, its
   other arms end (LOST_RACE). The caller resumes in the run this happens. */
static void corral__arm_end(corral_sched *s, corral_co *p, corral__meta *pm, corral_co *co,
                            const corral__type_entry *te, corral_end_reason why)
{
    corral__node *N = corral__nodes(s);
    const uint32_t g = corral__global_of(s, co);
    uint32_t i = pm->wait;
    while (i != CORRAL__NIL && !(N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target == g)) i = N[i].sibling;
    if (i == CORRAL__NIL) return;
    N[i].u.t.target = CORRAL__NIL;
    if (why == CORRAL_END_FINISHED && te->vt->result_size && N[i].u.t.seq != CORRAL__NIL)
        memcpy(CORRAL__AT(p, N[i].u.t.seq), CORRAL__AT(co, te->ctx_off + te->vt->result_offset), te->vt->result_size);
    if (pm->mode == CORRAL__MODE_SYNC) {
        if (why != CORRAL_END_FINISHED && pm->outcome == CORRAL_END_NONE) pm->outcome = (uint8_t)why;
        if (--pm->pending > 0) return;
        if (pm->outcome == CORRAL_END_NONE) pm->outcome = CORRAL_END_FINISHED;
        corral__release_wait(s, p);
        if (p->state == CORRAL__WAITING || p->state == CORRAL__PAUSED) corral__wake(s, p, true);
        return;
    }
    pm->fired = (int8_t)N[i].member;
    pm->outcome = (uint8_t)why;
    uint32_t kids[CORRAL_MAX_GROUP];
    uint32_t n = corral__arms_take(s, p, kids);
    /* woken first: a loser's cleanup hook that stops the caller finds it queued */
    if (p->state == CORRAL__WAITING || p->state == CORRAL__PAUSED) corral__wake(s, p, true);
    corral__arms_stop(s, p, kids, n, (s->flags & CORRAL__DESTROYING) ? CORRAL_END_DESTROYED : CORRAL_END_LOST_RACE);
}

/* A called child ends (why): its result goes to its caller's destination
   (only when it finished), its outcome to corral_call_outcome, and the
   caller's wait for it is over. */
void corral__call_end(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te,
                      corral_end_reason why)
{
    corral_co *p = corral__co_of_global(s, m->parent);
    corral__meta *pm = corral__meta_of(s, p);
    m->parent = CORRAL__NIL;
    if (pm->child != corral__global_of(s, co)) {
        if (pm->mode == CORRAL__MODE_RACE || pm->mode == CORRAL__MODE_SYNC) corral__arm_end(s, p, pm, co, te, why);
        return;
    }
    if (why == CORRAL_END_FINISHED && te->vt->result_size && pm->dest != CORRAL__NIL)
        memcpy(CORRAL__AT(p, pm->dest), CORRAL__AT(co, te->ctx_off + te->vt->result_offset), te->vt->result_size);
    pm->outcome = (uint8_t)why;
    pm->child = pm->dest = CORRAL__NIL;
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
        if (m->child != CORRAL__NIL && n < 64) stack[n++] = m->child;
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
    corral__meta *m = &corral__meta_table(s)[n->u.t.target];
    return (corral__list){&m->joiners_head, &m->joiners_tail};
}
const corral__wait_part corral__join_part = {
    .ready = corral__join_ready,
    .arm = corral__join_arm,
    .list = corral__join_list,
};

void corral__wake_joiners(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    corral__list l = {&m->joiners_head, &m->joiners_tail};
    while (m->joiners_head != CORRAL__NIL) {
        uint32_t i = m->joiners_head;
        corral__list_unlink(s, l, i);
        corral__fire(s, i);
    }
}
