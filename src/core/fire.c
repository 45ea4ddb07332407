/*
    fire.c -- a wait's end. A node its container gave up (a timer due, a
    signal raised, a future done, a target ended, ...) ends its coroutine's
    wait and wakes it (waits.c), or stops it (lifecycle.c): a stop
    request's deadline, a call interrupted by its caller's wait. The timers'
    heaps (timers.c) give up their due nodes here once a frame.
*/
#include "../corral_internal.h"

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
    if (m->mode == CORRAL__MODE_ALL && --corral__sides(s)[m->side].pending > 0) return; /* all/any: a side record */
    if (m->mode == CORRAL__MODE_ANY) corral__sides(s)[m->side].fired = (int8_t)n->member;
    const bool now = p && p->now;
    corral__release_wait(s, co);
    const uint32_t child = corral__sd(s, m)->child;
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
            uint32_t i = CORRAL__HEAP_AT(corral__heap(s, h), 0);
            if (N[i].u.t.due > now) break;
            corral__timer_cancel(s, &N[i]); /* the root: out of heap h */
            s->nodes.debug_visits++;
            corral__fire(s, i);
            woken++;
        }
    }
    return woken;
}
