/*
    group_ops.c -- what is done to a whole group at once: stop, pause,
    resume, or a stop request, for every live member with an owner or any
    of some tags (and a stop request for one coroutine); the wait that a
    stop request ends (CORRAL_WAIT_STOP); the instances a single-mode start
    looks at. Members and their lists are groups.c's.

    A stop wait's node sits in no container: a request finds it in its
    coroutine's chain of nodes, so it costs the scheduler no list.
*/
#include "../corral_internal.h"
#include "arena.h"

#include <stdio.h>

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
            for (uint32_t j = corral__side_of(s, corral__meta_of(s, co))->groups; j != CORRAL__NIL; j = N[j].sibling)
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

/* co and the children it awaits, down the chain (arms included: one level
   of recursion per race nested in a race), see the request */
static void corral__request_flag(corral_sched *s, corral_co *co)
{
    const corral__node *N = corral__nodes(s);
    while (co) {
        corral__meta *m = corral__meta_of(s, co);
        corral__co_stop_request(co, m);
        for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling)
            if (N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target != CORRAL__NIL)
                corral__request_flag(s, corral__co_of_global(s, N[i].u.t.target));
        const uint32_t child = corral__side_of(s, m)->child;
        co = child != CORRAL__NIL ? corral__co_of_global(s, child) : NULL;
    }
}

/* co's stop wait, or the first one down its chain of children and in
   its arms, fired: ending the wait that was under way (a call's child,
   when the stop wait is the call's interrupt) */
static void corral__request_fire(corral_sched *s, corral_co *co)
{
    const corral__node *N = corral__nodes(s);
    while (co) {
        corral__meta *m = corral__meta_of(s, co);
        uint32_t stop = CORRAL__NIL;
        for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) {
            if (N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target != CORRAL__NIL)
                corral__request_fire(s, corral__co_of_global(s, N[i].u.t.target));
            else if ((N[i].kind == CORRAL_WAIT_STOP || (N[i].kind == CORRAL_WAIT_PULL && corral__co_mode(s, co, m) == CORRAL__MODE_ONE)) &&
                     N[i].attached == 1)
                stop = i; /* a stop wait; or a pull waited on alone, which then gives nothing */
        }
        if (stop != CORRAL__NIL) { /* what lies below it ends with the wait, or has its own request */
            if (N[stop].kind == CORRAL_WAIT_PULL) {
                corral__detach(s, stop);          /* off its generator's list */
                corral__co_stop_why_add(m, CORRAL__GOT_NOTHING); /* corral_wait_got: NOT_YET */
            }
            corral__fire(s, stop);
            return;
        }
        const uint32_t child = corral__side_of(s, m)->child;
        co = child != CORRAL__NIL ? corral__co_of_global(s, child) : NULL;
    }
}

/* the request on co, with its deadline (> 0 seconds of its domain; the
   sooner of two is kept); false (WAIT_POOL_EXHAUSTED, SIDE_POOL_EXHAUSTED)
   when a deadline finds no node or side record: then nothing is asked */
static bool corral__request_stop(const char *call, corral_sched *s, corral_co *co, float deadline)
{
    if (deadline > 0.0f) {
        if (!corral__part_needed(call, s, NULL, s->parts.feature[CORRAL__FEATURE_GROUPS], "groups")) return false; /* a deadline is in the group chain */
        uint32_t old = corral__deadline_of(s, co);
        const corral__node *N = corral__nodes(s);
        if (old == CORRAL__NIL || corral__timer_left(s, &N[old]) > (double)deadline) {
            if (old == CORRAL__NIL && s->nodes.wait_free_count == 0) {
                s->nodes.wait_failures++;
                corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
                return false;
            }
            if (!corral__side_take(call, s, corral__meta_of(s, co))) return false; /* the deadline's chain */
            if (old != CORRAL__NIL) corral__deadline_drop(s, co);
            corral__deadline_arm(s, co, corral__deadline_node(s, co), deadline);
        }
    }
    corral__request_flag(s, co);
    if (corral__wait_part_of(s, CORRAL_WAIT_STOP) || corral__wait_part_of(s, CORRAL_WAIT_PULL))
        corral__request_fire(s, co); /* stop waits or pulls exist */
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
    return s && corral__co_stop_requested(co, corral__meta_of(s, co));
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

/* ---- the stop wait: over at once when a stop was requested, else a node
   in no container that a request fires (corral__request_fire) */
static int corral__stop_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    (void)call;
    (void)w;
    return corral__co_stop_requested(co, corral__meta_of(s, co)) ? 1 : 0;
}
static void corral__stop_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    (void)s;
    (void)co;
    (void)i;
    (void)w;
}
static void corral__stop_why_text(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    (void)s;
    (void)n;
    snprintf(buf, cap, ": none requested");
}
static void corral__stop_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    (void)io;
    (void)s;
    (void)te;
    (void)n;
}
static void corral__stop_read(corral__io *io, corral__lwait *w)
{
    (void)io;
    (void)w;
}
static const char *corral__stop_check(const corral__lview *v, const corral__lwait *w)
{
    (void)v;
    (void)w;
    return NULL; /* it waits on its own coroutine, which the save holds */
}
static void corral__stop_place(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)v;
    (void)co;
    (void)i;
    (void)w;
    (void)held;
}
static const corral__wait_part corral__stop_part = {
    .ready = corral__stop_ready,
    .arm = corral__stop_arm,
    .why = corral__stop_why_text,
    .save = corral__stop_save,
    .read = corral__stop_read,
    .check = corral__stop_check,
    .place = corral__stop_place,
};
const corral_part corral_part_stops = {
    .waits = {{CORRAL_WAIT_STOP, CORRAL_WAIT_STOP, &corral__stop_part}},
    .feature = CORRAL__FEATURE_COUNT,
};
corral_wait corral_wait_stop(void)
{
    return corral__wait_of(CORRAL_WAIT_STOP);
}
