/*
    groups.c -- groups and pause: the owner and tag memberships a coroutine
    joins at its start (group nodes on per-owner buckets and per-tag lists),
    the operations on a whole group, and holding one coroutine still.

    A paused coroutine is in no lane and its timers and predicates are out
    of their containers (waits.c holds them); it keeps its place in every
    list it waits on.
*/
#include "../corral_internal.h"

/* the list a group node is on: its home bucket or tag list, or the side
   list of a group operation under way */
corral__list corral__group_list(corral_sched *s, const corral__node *n)
{
    corral__list l;
    if (n->list) {
        l.head = &s->groups.side_head[n->list - 1];
        l.tail = &s->groups.side_tail[n->list - 1];
    } else if (n->kind == CORRAL__NODE_TAG) {
        l.head = &s->groups.tag_head[n->u.g.tag];
        l.tail = &s->groups.tag_tail[n->u.g.tag];
    } else {
        uint32_t *b = (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
        l.head = &b[2 * n->u.g.bucket];
        l.tail = &b[2 * n->u.g.bucket + 1];
    }
    return l;
}

static uint32_t corral__owner_bucket(const corral_sched *s, uint64_t owner)
{
    return (uint32_t)((owner * 0x9E3779B97F4A7C15ull) >> 40) & s->groups.owner_mask;
}

bool corral__join_groups(const char *call, corral_sched *s, corral_co *co, uint64_t owner, uint32_t tags)
{
    uint32_t need = corral__nodes_needed(owner, tags);
    if (need == 0) return true;
    if (s->nodes.group_free_count < need) {
        s->nodes.group_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_GROUP_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
        return false;
    }
    corral__meta *m = corral__meta_of(s, co);
    for (int bit = -1; bit < 32; bit++) {
        if (bit < 0 ? owner == 0 : !(tags & (1u << bit))) continue;
        uint32_t i = corral__group_node_alloc(s);
        corral__node *n = &corral__nodes(s)[i];
        n->co = corral__co_off(s, co);
        n->kind = bit < 0 ? CORRAL__NODE_OWNER : CORRAL__NODE_TAG;
        n->u.g.owner = owner;
        n->u.g.tag = bit < 0 ? 0 : (uint32_t)bit;
        n->u.g.bucket = corral__owner_bucket(s, owner);
        n->list = 0;
        n->attached = 1;
        n->order = s->nodes.order++;
        n->sibling = m->groups;
        m->groups = i;
        corral__list_push(s, corral__list_of(s, n), i);
    }
    return true;
}

/* The live coroutines with this owner (0 too) and one of these tags,
   newest first by tag list, each once: how many (max + 1 when there are
   more than max), their global slots in out[0 .. min(n, max)). */
uint32_t corral__instances(const corral_sched *s, uint64_t owner, uint32_t tags, uint32_t *out, uint32_t max)
{
    const corral__node *N = corral__nodes(s);
    uint32_t n = 0;
    for (uint32_t t = 0; t < 32; t++) {
        if (!(tags & (1u << t))) continue;
        for (uint32_t i = s->groups.tag_tail[t]; i != CORRAL__NIL; i = N[i].prev) {
            const corral_co *co = CORRAL__CO(s, N[i].co);
            if (!corral__state_alive(co->state)) continue;
            uint64_t its = 0;
            for (uint32_t j = corral__meta_of(s, co)->groups; j != CORRAL__NIL; j = N[j].sibling)
                if (N[j].kind == CORRAL__NODE_OWNER) its = N[j].u.g.owner;
            if (its != owner) continue;
            const uint32_t g = corral__global_of(s, co);
            bool seen = false;
            for (uint32_t k = 0; k < n && !seen; k++) seen = out[k] == g;
            if (seen) continue;
            if (n == max) return max + 1;
            out[n++] = g;
        }
    }
    return n;
}

void corral__leave_groups(corral_sched *s, corral_co *co)
{
    corral__free_chain(s, &corral__meta_of(s, co)->groups);
}

/* the group operations of this file: what each does to one member */
static uint32_t corral__op_stop(const char *call, corral_sched *s, corral_co *co, corral__op_arg arg)
{
    (void)call;
    (void)arg;
    corral__stop_co(s, co, CORRAL_END_GROUP_STOPPED);
    return 0; /* counted before: every member that ends, also those a member's end takes along */
}
static uint32_t corral__op_pause(const char *call, corral_sched *s, corral_co *co, corral__op_arg arg)
{
    (void)call;
    (void)arg;
    return corral__pause_co(s, co);
}
static uint32_t corral__op_resume(const char *call, corral_sched *s, corral_co *co, corral__op_arg arg)
{
    (void)call;
    (void)arg;
    return corral__resume_co(s, co);
}
static uint32_t corral__op_request(const char *call, corral_sched *s, corral_co *co, corral__op_arg arg);

/* ---- stop requests */

uint32_t corral__deadline_of(const corral_sched *s, const corral_co *co)
{
    const corral__node *N = corral__nodes(s);
    uint32_t i = corral__meta_of(s, co)->groups;
    while (i != CORRAL__NIL && N[i].kind != CORRAL__NODE_DEADLINE) i = N[i].sibling;
    return i;
}

uint32_t corral__deadline_node(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    uint32_t i = corral__node_alloc(s);
    corral__node *n = &corral__nodes(s)[i];
    n->co = corral__co_off(s, co);
    n->kind = CORRAL__NODE_DEADLINE;
    n->attached = 1;
    n->order = s->nodes.order++;
    n->sibling = m->groups;
    m->groups = i;
    return i;
}

void corral__deadline_drop(corral_sched *s, corral_co *co)
{
    corral__node *N = corral__nodes(s);
    uint32_t *at = &corral__meta_of(s, co)->groups;
    while (*at != CORRAL__NIL && N[*at].kind != CORRAL__NODE_DEADLINE) at = &N[*at].sibling;
    if (*at == CORRAL__NIL) return;
    uint32_t i = *at;
    *at = N[i].sibling;
    corral__detach(s, i);
    corral__node_free(s, i);
}

/* co and the children it awaits, down the chain (arms included: one level
   of recursion per race nested in a race), see the request */
static void corral__request_flag(corral_sched *s, corral_co *co)
{
    const corral__node *N = corral__nodes(s);
    while (co) {
        corral__meta *m = corral__meta_of(s, co);
        m->stop_why |= CORRAL__STOP_REQUESTED;
        for (uint32_t i = m->wait; i != CORRAL__NIL; i = N[i].sibling)
            if (N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target != CORRAL__NIL)
                corral__request_flag(s, corral__co_of_global(s, N[i].u.t.target));
        co = m->child != CORRAL__NIL ? corral__co_of_global(s, m->child) : NULL;
    }
}

/* the request on co, with its deadline (> 0 seconds of its domain; the
   sooner of two is kept); false (WAIT_POOL_EXHAUSTED) when a deadline
   finds no node: then nothing is asked */
static bool corral__request_stop(const char *call, corral_sched *s, corral_co *co, float deadline)
{
    if (deadline > 0.0f) {
        uint32_t old = corral__deadline_of(s, co);
        const corral__node *N = corral__nodes(s);
        if (old == CORRAL__NIL || corral__timer_left(s, &N[old]) > (double)deadline) {
            if (old == CORRAL__NIL && s->nodes.wait_free_count == 0) {
                s->nodes.wait_failures++;
                corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
                return false;
            }
            if (old != CORRAL__NIL) corral__deadline_drop(s, co);
            corral__deadline_arm(s, co, corral__deadline_node(s, co), deadline);
        }
    }
    corral__request_flag(s, co);
    return true;
}

bool corral_request_stop(corral_sched *s, corral_handle h, float deadline)
{
    if (!corral__check(s)) return false;
    corral_co *co = corral__live(__func__, s, h);
    return co && corral__request_stop(__func__, s, co, deadline);
}

uint32_t corral_request_stop_owner(corral_sched *s, uint64_t owner, float deadline)
{
    return corral__owner_op(__func__, s, owner, corral__op_request, (corral__op_arg){0, deadline});
}

uint32_t corral_request_stop_tags(corral_sched *s, uint32_t tags, float deadline)
{
    return corral__tags_op(__func__, s, tags, corral__op_request, (corral__op_arg){0, deadline});
}

bool corral_stop_requested(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    return s && (corral__meta_of(s, co)->stop_why & CORRAL__STOP_REQUESTED);
}

static uint32_t corral__op_request(const char *call, corral_sched *s, corral_co *co, corral__op_arg arg)
{
    return corral__request_stop(call, s, co, arg.deadline) ? 1u : 0u;
}

/* Apply op to every member of one group list (owner: only those of that
   owner). The list is moved aside and taken node by node, each put back
   home before acting, so members ending (and taking others with them)
   never break the walk. */
static uint32_t corral__group_op(const char *call, corral_sched *s, uint32_t *head, uint32_t *tail, bool by_owner,
                                 uint64_t owner, corral__member_op op, corral__op_arg arg)
{
    CORRAL__REQUIRE_AT(s, s->groups.side_depth < CORRAL__SIDE_MAX, CORRAL_ERR_GROUP_DEPTH, call, CORRAL__NOH, NULL, NULL, 0);
    corral__node *N = corral__nodes(s);
    uint32_t level = s->groups.side_depth++;
    s->groups.side_head[level] = *head;
    s->groups.side_tail[level] = *tail;
    *head = *tail = CORRAL__NIL;
    for (uint32_t i = s->groups.side_head[level]; i != CORRAL__NIL; i = N[i].next) N[i].list = (uint8_t)(level + 1);
    corral__list home = {head, tail};
    corral__list side = {&s->groups.side_head[level], &s->groups.side_tail[level]};
    uint32_t count = 0;
    if (op == corral__op_stop) { /* every member that ends, also those a member's end takes along */
        for (uint32_t i = s->groups.side_head[level]; i != CORRAL__NIL; i = N[i].next)
            count += (!by_owner || N[i].u.g.owner == owner) && corral__state_alive(CORRAL__CO(s, N[i].co)->state);
    }
    while (s->groups.side_head[level] != CORRAL__NIL) {
        uint32_t i = s->groups.side_head[level];
        corral__list_unlink(s, side, i);
        N[i].list = 0;
        corral__list_push(s, home, i);
        if (by_owner && N[i].u.g.owner != owner) continue;
        corral_co *co = CORRAL__CO(s, N[i].co);
        if (!corral__state_alive(co->state)) continue;
        count += op(call, s, co, arg);
    }
    s->groups.side_depth--;
    return count;
}

uint32_t corral__owner_op(const char *call, corral_sched *s, uint64_t owner, corral__member_op op, corral__op_arg arg)
{
    if (!corral__check_in(s, call) || owner == 0) return 0;
    uint32_t *b = (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
    uint32_t k = corral__owner_bucket(s, owner);
    return corral__group_op(call, s, &b[2 * k], &b[2 * k + 1], true, owner, op, arg);
}

uint32_t corral__tags_op(const char *call, corral_sched *s, uint32_t tags, corral__member_op op, corral__op_arg arg)
{
    if (!corral__check_in(s, call)) return 0;
    uint32_t count = 0;
    for (uint32_t t = 0; t < 32; t++)
        if (tags & (1u << t))
            count += corral__group_op(call, s, &s->groups.tag_head[t], &s->groups.tag_tail[t], false, 0, op, arg);
    return count;
}

uint32_t corral_stop_owner(corral_sched *s, uint64_t owner) { return corral__owner_op(__func__, s, owner, corral__op_stop, (corral__op_arg){0, 0.0f}); }

uint32_t corral_pause_owner(corral_sched *s, uint64_t owner) { return corral__owner_op(__func__, s, owner, corral__op_pause, (corral__op_arg){0, 0.0f}); }

uint32_t corral_resume_owner(corral_sched *s, uint64_t owner) { return corral__owner_op(__func__, s, owner, corral__op_resume, (corral__op_arg){0, 0.0f}); }

uint32_t corral_stop_tags(corral_sched *s, uint32_t tags) { return corral__tags_op(__func__, s, tags, corral__op_stop, (corral__op_arg){0, 0.0f}); }

uint32_t corral_pause_tags(corral_sched *s, uint32_t tags) { return corral__tags_op(__func__, s, tags, corral__op_pause, (corral__op_arg){0, 0.0f}); }

uint32_t corral_resume_tags(corral_sched *s, uint32_t tags) { return corral__tags_op(__func__, s, tags, corral__op_resume, (corral__op_arg){0, 0.0f}); }

void corral__groups_init(corral_sched *s)
{
    for (uint32_t t = 0; t < 32; t++) s->groups.tag_head[t] = s->groups.tag_tail[t] = CORRAL__NIL;
    uint32_t *b = (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
    for (uint32_t i = 0; i <= 2 * s->groups.owner_mask + 1; i++) b[i] = CORRAL__NIL;
    s->groups.side_depth = 0;
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
    uint8_t hold = 0;
    if (co->state == CORRAL__QUEUED || co->state == CORRAL__DEFERRED) {
        corral__lane_tombstone(s, co);
    } else if (co->state == CORRAL__READY) {
        corral__ready_ring(s)[co->link] = CORRAL__NIL;
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
    if (co->state != CORRAL__PAUSED) return false;
    corral__meta *m = corral__meta_of(s, co);
    if (m->hold & CORRAL__HOLD_GENERATOR) return false; /* only a pull steps it */
    uint8_t hold = m->hold;
    m->hold = 0;
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
    return co && (co->state == CORRAL__PAUSED || (co->flags & CORRAL__PAUSE_FLAG));
}

/* a restore: the tag lists and the group operations under way as saved in o */
void corral__groups_take(corral_sched *d, const corral_sched *o)
{
    memcpy(d->groups.tag_head, o->groups.tag_head, sizeof d->groups.tag_head);
    memcpy(d->groups.tag_tail, o->groups.tag_tail, sizeof d->groups.tag_tail);
    memcpy(d->groups.side_head, o->groups.side_head, sizeof d->groups.side_head);
    memcpy(d->groups.side_tail, o->groups.side_tail, sizeof d->groups.side_tail);
    d->groups.side_depth = o->groups.side_depth;
}
