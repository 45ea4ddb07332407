/*
    waits.c -- what a coroutine waits on, and what wakes it.

    A wait takes one node per thing waited on (one for a simple wait, one
    per member of an all/any) from a preallocated pool. A node sits in one
    container: a timer heap (scaled seconds, real seconds, frames: 4-ary
    min-heaps keyed by due time, ties by the order the waits began), or a
    FIFO list (a signal's, a future's, a coroutine's joiners, a phase's
    predicates). The coroutine's nodes are chained through `sibling` from
    its meta entry, so stopping it detaches them all.

    Firing a node wakes its coroutine (any), or counts down (all). Waking
    only queues the coroutine in the lane of its phase: no user code runs,
    so waking is safe from anywhere. Timers are checked at UPDATE: a tick
    with nothing due looks at three heap roots and nothing else.
*/
#include "corral_internal.h"

#include <string.h>

const corral__kind corral__kinds[CORRAL_WAIT_KIND_COUNT] = {
#define CORRAL__X(id, name, how, phase) {CORRAL__HOW_##how, CORRAL__PHOF_##phase},
    CORRAL_WAIT_KINDS(CORRAL__X)
#undef CORRAL__X
};

/* The kinds that take no node of their own (they wait by their phase, or
   through their members' nodes), and the count: the switches over kinds
   below list every kind, with no default, so -Wswitch names a new one. */
#define CORRAL__CASES_WITHOUT_NODE \
    case CORRAL_WAIT_NONE:         \
    case CORRAL_WAIT_NEXT_FRAME:   \
    case CORRAL_WAIT_FIXED_UPDATE: \
    case CORRAL_WAIT_LATE_UPDATE:  \
    case CORRAL_WAIT_END_OF_FRAME: \
    case CORRAL_WAIT_ALL:          \
    case CORRAL_WAIT_ANY:          \
    case CORRAL_WAIT_KIND_COUNT:

static corral__meta *corral__meta_table(const corral_sched *s)
{
    return (corral__meta *)(void *)CORRAL__AT(s, s->arena.meta_off);
}

/* ---- node pool */
static uint32_t corral__node_alloc(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    uint32_t i = s->nodes.wait_free;
    s->nodes.wait_free = N[i].sibling;
    s->nodes.wait_free_count--;
    if (s->nodes.wait_count - s->nodes.wait_free_count > s->nodes.wait_peak) s->nodes.wait_peak = s->nodes.wait_count - s->nodes.wait_free_count;
    memset(&N[i], 0, sizeof N[i]);
    N[i].next = N[i].prev = N[i].sibling = CORRAL__NIL;
    return i;
}
static uint32_t corral__group_node_alloc(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    uint32_t i = s->nodes.group_free;
    s->nodes.group_free = N[i].sibling;
    s->nodes.group_free_count--;
    {
        uint32_t used = s->nodes.count - s->nodes.wait_count - s->nodes.group_free_count;
        if (used > s->nodes.group_peak) s->nodes.group_peak = used;
    }
    memset(&N[i], 0, sizeof N[i]);
    N[i].next = N[i].prev = N[i].sibling = CORRAL__NIL;
    return i;
}
static void corral__node_free(corral_sched *s, uint32_t i)
{
    corral__node *N = corral__nodes(s);
    N[i].attached = 0;
    if (i >= s->nodes.wait_count) { /* a group node */
        N[i].sibling = s->nodes.group_free;
        s->nodes.group_free = i;
        s->nodes.group_free_count++;
        return;
    }
    N[i].sibling = s->nodes.wait_free;
    s->nodes.wait_free = i;
    s->nodes.wait_free_count++;
}

/* ---- heaps (a timer node's heap is in its `list`: a wait of 0 seconds
   sleeps in the frames heap until the next frame) */
static bool corral__before(const corral__node *a, const corral__node *b)
{
    if (a->u.t.due != b->u.t.due) return a->u.t.due < b->u.t.due;
    return (int32_t)(a->u.t.seq - b->u.t.seq) < 0;
}
static void corral__heap_put(corral_sched *s, uint32_t h, uint32_t pos, uint32_t i)
{
    corral__heap(s, h)[pos] = i;
    corral__nodes(s)[i].next = pos;
}
static void corral__sift_up(corral_sched *s, uint32_t h, uint32_t pos)
{
    uint32_t *H = corral__heap(s, h);
    corral__node *N = corral__nodes(s);
    uint32_t i = H[pos];
    while (pos > 0) {
        uint32_t parent = (pos - 1) / CORRAL__HEAP_ARITY;
        if (!corral__before(&N[i], &N[H[parent]])) break;
        corral__heap_put(s, h, pos, H[parent]);
        pos = parent;
    }
    corral__heap_put(s, h, pos, i);
}
static void corral__sift_down(corral_sched *s, uint32_t h, uint32_t pos)
{
    uint32_t *H = corral__heap(s, h);
    corral__node *N = corral__nodes(s);
    uint32_t n = s->timers.heap_len[h], i = H[pos];
    for (;;) {
        uint64_t first = (uint64_t)CORRAL__HEAP_ARITY * pos + 1;
        if (first >= n) break;
        uint32_t c = (uint32_t)first, end = n - c < CORRAL__HEAP_ARITY ? n : c + CORRAL__HEAP_ARITY;
        for (uint32_t k = c + 1; k < end; k++)
            if (corral__before(&N[H[k]], &N[H[c]])) c = k;
        if (!corral__before(&N[H[c]], &N[i])) break;
        corral__heap_put(s, h, pos, H[c]);
        pos = c;
    }
    corral__heap_put(s, h, pos, i);
}
static void corral__heap_push(corral_sched *s, uint32_t h, uint32_t i)
{
    uint32_t pos = s->timers.heap_len[h]++;
    corral__heap_put(s, h, pos, i);
    corral__sift_up(s, h, pos);
}
static void corral__heap_remove(corral_sched *s, uint32_t h, uint32_t pos)
{
    uint32_t *H = corral__heap(s, h);
    uint32_t last = --s->timers.heap_len[h];
    if (pos == last) return;
    corral__heap_put(s, h, pos, H[last]);
    corral__sift_down(s, h, pos);
    corral__sift_up(s, h, pos);
}

/* ---- lists */
typedef struct corral__list {
    uint32_t *head, *tail;
} corral__list;

static corral__list corral__group_list_of(corral_sched *s, const corral__node *n)
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

static corral__list corral__list_of(corral_sched *s, const corral__node *n)
{
    corral__list l = {NULL, NULL};
    if (n->kind >= CORRAL__NODE_OWNER) return corral__group_list_of(s, n);
    switch ((corral_wait_kind)n->kind) {
    case CORRAL_WAIT_SIGNAL:
        l.head = &corral__signals(s)[n->u.t.target].head;
        l.tail = &corral__signals(s)[n->u.t.target].tail;
        break;
    case CORRAL_WAIT_FUTURE:
        l.head = &corral__futures(s)[n->u.t.target].head;
        l.tail = &corral__futures(s)[n->u.t.target].tail;
        break;
    case CORRAL_WAIT_JOIN:
        l.head = &corral__meta_table(s)[n->u.t.target].joiners_head;
        l.tail = &corral__meta_table(s)[n->u.t.target].joiners_tail;
        break;
    case CORRAL_WAIT_UNTIL:
    case CORRAL_WAIT_WHILE: /* a phase's predicate list, the one being polled, or a
                               phase's list for the next frame */
        if (n->list == CORRAL__PRED_POLL) {
            l.head = &s->polls.poll_head;
            l.tail = &s->polls.poll_tail;
        } else if (n->list >= CORRAL__PRED_NEXT) {
            l.head = &s->polls.next_head[n->list - CORRAL__PRED_NEXT];
            l.tail = &s->polls.next_tail[n->list - CORRAL__PRED_NEXT];
        } else {
            l.head = &s->polls.head[n->list];
            l.tail = &s->polls.tail[n->list];
        }
        break;
    case CORRAL_WAIT_FRAMES: /* timers: in a heap, on no list */
    case CORRAL_WAIT_SECONDS:
    case CORRAL_WAIT_REALTIME:
    CORRAL__CASES_WITHOUT_NODE
        break;
    }
    return l;
}
static void corral__list_push(corral_sched *s, corral__list l, uint32_t i)
{
    corral__node *N = corral__nodes(s);
    N[i].next = CORRAL__NIL;
    N[i].prev = *l.tail;
    if (*l.tail != CORRAL__NIL) N[*l.tail].next = i;
    else *l.head = i;
    *l.tail = i;
}
static void corral__list_unlink(corral_sched *s, corral__list l, uint32_t i)
{
    corral__node *N = corral__nodes(s);
    if (N[i].prev != CORRAL__NIL) N[N[i].prev].next = N[i].next;
    else *l.head = N[i].next;
    if (N[i].next != CORRAL__NIL) N[N[i].next].prev = N[i].prev;
    else *l.tail = N[i].prev;
    N[i].next = N[i].prev = CORRAL__NIL;
}

static bool corral__is_timer(uint8_t kind)
{
    return corral__kind_is(kind, CORRAL__HOW_TIMER);
}

static void corral__detach(corral_sched *s, uint32_t i)
{
    corral__node *n = &corral__nodes(s)[i];
    if (n->attached != 1) return; /* 0: fired or free; 2: held by a pause */
    if (corral__is_timer(n->kind)) corral__heap_remove(s, n->list, n->next);
    else corral__list_unlink(s, corral__list_of(s, n), i);
    n->attached = 0;
}

void corral__release_wait(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    uint32_t i = m->wait;
    while (i != CORRAL__NIL) {
        uint32_t next = corral__nodes(s)[i].sibling;
        corral__detach(s, i);
        corral__node_free(s, i);
        i = next;
    }
    m->wait = CORRAL__NIL;
    m->mode = CORRAL__MODE_NONE;
    m->pending = 0;
}

/* Its wait is over: queue it (or, if its step is on the stack right now,
   let that step's return requeue it). `now`: a join whose target ended
   during a run of the joiner's phase resumes in that same run. */
static void corral__wake(corral_sched *s, corral_co *co, bool now)
{
    if (co->state == CORRAL__PAUSED) { /* remembered: it resumes on corral_resume */
        corral__meta_of(s, co)->hold |= CORRAL__HOLD_WOKEN;
        return;
    }
    if (corral__is_running(s, co)) {
        co->state = (co->flags & CORRAL__ONSTACK_FLAG) ? CORRAL__RUNNING : CORRAL__QUEUED;
        return;
    }
    if (now) corral__wake_now_or_queue(s, co);
    else corral__enqueue(s, co);
}

/* Node i was detached by its container: act on it. */
static void corral__fire(corral_sched *s, uint32_t i)
{
    corral__node *n = &corral__nodes(s)[i];
    n->attached = 0;
    corral_co *co = CORRAL__CO(s, n->co);
    corral__meta *m = corral__meta_of(s, co);
    if (m->mode == CORRAL__MODE_ALL && --m->pending > 0) return;
    if (m->mode == CORRAL__MODE_ANY) m->fired = (int8_t)n->member;
    bool now = n->kind == CORRAL_WAIT_JOIN;
    corral__release_wait(s, co);
    if (m->child != CORRAL__NIL) { /* the interrupt of a call: end the child, which wakes co */
        corral__stop_co(s, corral__co_of_global(s, m->child), CORRAL_END_INTERRUPTED);
        return;
    }
    corral__wake(s, co, now);
}

/* ---- wake points */
uint32_t corral__wake_timers(corral_sched *s)
{
    const double now[CORRAL__HEAP_COUNT] = {s->now.time, s->now.unscaled_time, (double)s->now.frame};
    corral__node *N = corral__nodes(s);
    uint32_t woken = 0;
    for (uint32_t h = 0; h < CORRAL__HEAP_COUNT; h++) {
        while (s->timers.heap_len[h] > 0) {
            uint32_t i = corral__heap(s, h)[0];
            if (N[i].u.t.due > now[h]) break;
            corral__heap_remove(s, h, 0);
            s->nodes.debug_visits++;
            corral__fire(s, i);
            woken++;
        }
    }
    return woken;
}

uint32_t corral__poll_predicates(corral_sched *s, uint32_t phase)
{
    /* Move the list aside and take nodes off it one by one: a predicate or
       a firing may detach others (all/any), and those then leave the side
       list through the usual unlink. */
    corral__node *N = corral__nodes(s);
    s->polls.poll_head = s->polls.head[phase];
    s->polls.poll_tail = s->polls.tail[phase];
    s->polls.head[phase] = s->polls.tail[phase] = CORRAL__NIL;
    for (uint32_t i = s->polls.poll_head; i != CORRAL__NIL; i = N[i].next) N[i].list = CORRAL__PRED_POLL;
    uint32_t woken = 0;
    corral__list side = {&s->polls.poll_head, &s->polls.poll_tail};
    corral__list home = {&s->polls.head[phase], &s->polls.tail[phase]};
    while (s->polls.poll_head != CORRAL__NIL) {
        uint32_t i = s->polls.poll_head;
        corral__list_unlink(s, side, i);
        bool v = N[i].u.p.fn(N[i].u.p.user);
        if (N[i].kind == CORRAL_WAIT_WHILE) v = !v;
        if (v) {
            corral__fire(s, i);
            woken++;
        } else {
            N[i].list = (uint8_t)phase;
            corral__list_push(s, home, i);
        }
    }
    return woken;
}

void corral__predicates_next_frame(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    for (uint32_t ph = 0; ph < CORRAL__PH_COUNT; ph++) {
        uint32_t head = s->polls.next_head[ph];
        if (head == CORRAL__NIL) continue;
        for (uint32_t i = head; i != CORRAL__NIL; i = N[i].next) N[i].list = (uint8_t)ph;
        if (s->polls.tail[ph] != CORRAL__NIL) N[s->polls.tail[ph]].next = head;
        else s->polls.head[ph] = head;
        N[head].prev = s->polls.tail[ph];
        s->polls.tail[ph] = s->polls.next_tail[ph];
        s->polls.next_head[ph] = s->polls.next_tail[ph] = CORRAL__NIL;
    }
}

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

void corral__waits_init(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.count; i++) {
        uint32_t end = i < s->nodes.wait_count ? s->nodes.wait_count : s->nodes.count;
        N[i].sibling = i + 1 < end ? i + 1 : CORRAL__NIL;
        N[i].attached = 0;
    }
    s->nodes.wait_free = s->nodes.wait_count ? 0 : CORRAL__NIL;
    s->nodes.wait_free_count = s->nodes.wait_count;
    s->nodes.group_free = s->nodes.count > s->nodes.wait_count ? s->nodes.wait_count : CORRAL__NIL;
    s->nodes.group_free_count = s->nodes.count - s->nodes.wait_count;
    for (uint32_t h = 0; h < CORRAL__HEAP_COUNT; h++) s->timers.heap_len[h] = 0;
    for (uint32_t p = 0; p < CORRAL__PH_COUNT; p++)
        s->polls.head[p] = s->polls.tail[p] = s->polls.next_head[p] = s->polls.next_tail[p] = CORRAL__NIL;
    s->polls.poll_head = s->polls.poll_tail = CORRAL__NIL;
    for (uint32_t t = 0; t < 32; t++) s->groups.tag_head[t] = s->groups.tag_tail[t] = CORRAL__NIL;
    uint32_t *b = (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
    for (uint32_t i = 0; i <= 2 * s->groups.owner_mask + 1; i++) b[i] = CORRAL__NIL;
    s->groups.side_depth = 0;
    corral__meta *M = corral__meta_table(s);
    for (uint32_t i = 0; i < s->arena.total_slots; i++) {
        M[i].wait = M[i].joiners_head = M[i].joiners_tail = CORRAL__NIL;
        M[i].parent = M[i].child = M[i].dest = CORRAL__NIL;
        M[i].outcome = CORRAL_END_NONE;
        M[i].stop_why = CORRAL_END_STOPPED;
        M[i].hold = 0;
        M[i].groups = CORRAL__NIL;
        M[i].pending = 0;
        M[i].fired = -1;
        M[i].mode = CORRAL__MODE_NONE;
    }
    corral__signal *S = corral__signals(s);
    for (uint32_t i = 0; i < s->wakes.max_signals; i++) {
        S[i].gen = 0;
        S[i].head = S[i].tail = CORRAL__NIL;
        S[i].next_free = i + 1 < s->wakes.max_signals ? i + 1 : CORRAL__NIL;
    }
    s->wakes.signal_free = s->wakes.max_signals ? 0 : CORRAL__NIL;
    corral__future *F = corral__futures(s);
    for (uint32_t i = 0; i < s->wakes.max_futures; i++) {
        memset(&F[i], 0, sizeof F[i]);
        F[i].head = F[i].tail = CORRAL__NIL;
        F[i].next_free = i + 1 < s->wakes.max_futures ? i + 1 : CORRAL__NIL;
    }
    s->wakes.future_free = s->wakes.max_futures ? 0 : CORRAL__NIL;
}

/* ---- signals */
static corral__signal *corral__signal_get(const corral_sched *s, corral_signal sig)
{
    if (sig.index >= s->wakes.max_signals || (sig.gen & 1u) == 0) return NULL;
    corral__signal *g = &corral__signals(s)[sig.index];
    return g->gen == sig.gen ? g : NULL;
}

corral_signal corral_signal_create(corral_sched *s)
{
    corral_signal none = {0, 0};
    if (!corral__check(s)) return none;
    if (s->wakes.signal_free == CORRAL__NIL) {
        s->wakes.signal_failures++;
        corral__fail(s, NULL, CORRAL_ERR_SIGNAL_POOL_EXHAUSTED);
        return none;
    }
    uint32_t i = s->wakes.signal_free;
    corral__signal *g = &corral__signals(s)[i];
    s->wakes.signal_free = g->next_free;
    g->gen++; /* odd: live */
    g->head = g->tail = CORRAL__NIL;
    corral_signal sig = {i, g->gen};
    if (++s->wakes.signals_live > s->wakes.signals_peak) s->wakes.signals_peak = s->wakes.signals_live;
    return sig;
}

static uint32_t corral__fire_all(corral_sched *s, uint32_t *head, uint32_t *tail)
{
    corral__list l = {head, tail};
    uint32_t n = 0;
    while (*head != CORRAL__NIL) {
        uint32_t i = *head;
        corral__list_unlink(s, l, i);
        corral__fire(s, i);
        n++;
    }
    return n;
}

uint32_t corral_signal_raise(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return 0;
    corral__signal *g = corral__signal_get(s, sig);
    if (!g) {
        corral__fail(s, NULL, CORRAL_ERR_STALE_SIGNAL);
        return 0;
    }
    return corral__fire_all(s, &g->head, &g->tail);
}

bool corral_signal_destroy(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return false;
    corral__signal *g = corral__signal_get(s, sig);
    if (!g) {
        corral__fail(s, NULL, CORRAL_ERR_STALE_SIGNAL);
        return false;
    }
    corral__fire_all(s, &g->head, &g->tail);
    g->gen++; /* even: dead; stale handles stay stale */
    s->wakes.signals_live--;
    g->next_free = s->wakes.signal_free;
    s->wakes.signal_free = sig.index;
    return true;
}

/* ---- futures */
static corral__future *corral__future_get(const corral_sched *s, corral_future f)
{
    if (f.index >= s->wakes.max_futures || (f.gen & 1u) == 0) return NULL;
    corral__future *g = &corral__futures(s)[f.index];
    return g->gen == f.gen ? g : NULL;
}

corral_future corral_future_create(corral_sched *s)
{
    corral_future none = {0, 0};
    if (!corral__check(s)) return none;
    if (s->wakes.future_free == CORRAL__NIL) {
        s->wakes.future_failures++;
        corral__fail(s, NULL, CORRAL_ERR_FUTURE_POOL_EXHAUSTED);
        return none;
    }
    uint32_t i = s->wakes.future_free;
    corral__future *g = &corral__futures(s)[i];
    s->wakes.future_free = g->next_free;
    g->gen++;
    g->head = g->tail = CORRAL__NIL;
    g->done = 0;
    g->value.u = 0;
    corral_future f = {i, g->gen};
    if (++s->wakes.futures_live > s->wakes.futures_peak) s->wakes.futures_peak = s->wakes.futures_live;
    return f;
}

bool corral_future_complete(corral_sched *s, corral_future f, corral_value v)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    if (!g) {
        corral__fail(s, NULL, CORRAL_ERR_STALE_FUTURE);
        return false;
    }
    if (g->done) {
        corral__fail(s, NULL, CORRAL_ERR_FUTURE_DONE);
        return false;
    }
    g->done = 1;
    g->value = v;
    corral__fire_all(s, &g->head, &g->tail);
    return true;
}

bool corral_future_done(const corral_sched *s, corral_future f)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    if (!g) {
        corral__fail(s, NULL, CORRAL_ERR_STALE_FUTURE);
        return false;
    }
    return g->done != 0;
}

bool corral_future_value(const corral_sched *s, corral_future f, corral_value *out)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    if (!g || !out) {
        corral__fail(s, NULL, g ? CORRAL_ERR_NULL_ARG : CORRAL_ERR_STALE_FUTURE);
        return false;
    }
    if (!g->done) return false;
    *out = g->value;
    return true;
}

bool corral_future_release(corral_sched *s, corral_future f)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    if (!g) {
        corral__fail(s, NULL, CORRAL_ERR_STALE_FUTURE);
        return false;
    }
    corral__fire_all(s, &g->head, &g->tail); /* nobody waits forever on a released future */
    g->gen++;
    s->wakes.futures_live--;
    g->next_free = s->wakes.future_free;
    s->wakes.future_free = f.index;
    return true;
}

/* ---- await */

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
        if (m->mode != CORRAL__MODE_ONE && m->mode != CORRAL__MODE_ALL) continue;
        for (uint32_t i = m->wait; i != CORRAL__NIL; i = N[i].sibling)
            if (N[i].kind == CORRAL_WAIT_JOIN && n < 64) stack[n++] = N[i].u.t.target;
    }
    return false;
}

/* 1: already over; 0: must wait; -1: malformed (error set). */
static int corral__ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    switch (w->kind) { /* every kind, no default: -Wswitch names one added without its case */
    case CORRAL_WAIT_FRAMES:
    case CORRAL_WAIT_SECONDS:
    case CORRAL_WAIT_REALTIME:
        return 0; /* a time wait always lets a frame pass (Unity's WaitForSeconds) */
    case CORRAL_WAIT_UNTIL:
    case CORRAL_WAIT_WHILE:
        if (!w->fn) break;
        return w->fn(w->user) == (w->kind == CORRAL_WAIT_UNTIL);
    case CORRAL_WAIT_SIGNAL:
        if (!corral__signal_get(s, w->signal)) {
            corral__fail_at(s, NULL, CORRAL_ERR_STALE_SIGNAL, call, CORRAL__NOH, co, NULL);
            return -1;
        }
        return 0;
    case CORRAL_WAIT_FUTURE: {
        corral__future *g = corral__future_get(s, w->future);
        if (!g) {
            corral__fail_at(s, NULL, CORRAL_ERR_STALE_FUTURE, call, CORRAL__NOH, co, NULL);
            return -1;
        }
        return g->done != 0;
    }
    case CORRAL_WAIT_JOIN: {
        corral_error err;
        corral_co *target = corral__resolve(s, w->co, &err);
        if (!target) return 1; /* zero, stale, finished: go on at once */
        if (target == co) { /* waiting for itself would never end */
            corral__fail_at(s, NULL, CORRAL_ERR_CYCLIC_WAIT, call, w->co, co, "it joins itself");
            return -1;
        }
        if (corral__validating(s) && corral__waits_for(s, target, co)) {
            corral__fail_at(s, NULL, CORRAL_ERR_CYCLIC_WAIT, call, w->co, co,
                            "the target waits (through joins or calls) for the joiner");
            return -1;
        }
        return 0;
    }
    CORRAL__CASES_WITHOUT_NODE /* never a member, never attached: refused as malformed */
        break;
    }
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, NULL);
    return -1;
}

static void corral__attach(corral_sched *s, corral_co *co, const corral_wait *w, uint32_t member)
{
    corral__node *N = corral__nodes(s);
    corral__meta *m = corral__meta_of(s, co);
    uint32_t i = corral__node_alloc(s);
    corral__node *n = &N[i];
    n->co = corral__co_off(s, co);
    n->kind = (uint8_t)w->kind;
    n->member = (uint8_t)member;
    n->sibling = m->wait;
    m->wait = i;
    n->attached = 1;
    switch (w->kind) { /* every kind, no default */
    case CORRAL_WAIT_FRAMES:
    case CORRAL_WAIT_SECONDS:
    case CORRAL_WAIT_REALTIME: {
        /* Time waits resume in a later frame than the one they began in:
           timers are checked before a frame's first run, and a due time in
           the future is not reached inside the frame. 0 frames, and 0,
           negative or NaN seconds (whose due time is now), wait for the
           next frame's number instead. */
        uint32_t h = w->kind == CORRAL_WAIT_SECONDS ? CORRAL__HEAP_SCALED
                     : w->kind == CORRAL_WAIT_REALTIME ? CORRAL__HEAP_REAL
                                                       : CORRAL__HEAP_FRAMES;
        if (w->kind == CORRAL_WAIT_FRAMES ? w->count == 0 : !(w->seconds > 0.0f)) {
            h = CORRAL__HEAP_FRAMES;
            n->u.t.due = (double)(s->now.frame + 1);
        } else {
            n->u.t.due = w->kind == CORRAL_WAIT_FRAMES ? (double)(s->now.frame + w->count)
                         : w->kind == CORRAL_WAIT_SECONDS ? s->now.time + (double)w->seconds
                                                          : s->now.unscaled_time + (double)w->seconds;
        }
        n->u.t.seq = s->timers.seq++;
        n->list = (uint8_t)h;
        corral__heap_push(s, h, i);
        break;
    }
    case CORRAL_WAIT_UNTIL:
    case CORRAL_WAIT_WHILE: {
        /* polled at the runs of its phase after this one, as a plain yield
           resumes (corral__land): from a first step, not in this frame */
        uint32_t ph = co->flags & CORRAL__PHASE_MASK;
        n->u.p.fn = w->fn;
        n->u.p.user = w->user;
        n->list = (uint8_t)((co->flags & CORRAL__FIRST_FLAG) && corral__run_to_come(s, ph) ? CORRAL__PRED_NEXT + ph : ph);
        corral__list_push(s, corral__list_of(s, n), i);
        break;
    }
    case CORRAL_WAIT_SIGNAL:
        n->u.t.target = w->signal.index;
        corral__list_push(s, corral__list_of(s, n), i);
        break;
    case CORRAL_WAIT_FUTURE:
        n->u.t.target = w->future.index;
        corral__list_push(s, corral__list_of(s, n), i);
        break;
    CORRAL__CASES_WITHOUT_NODE /* never a member, never attached: refused as malformed */
        break;
    case CORRAL_WAIT_JOIN: {
        corral_error err;
        corral_co *target = corral__resolve(s, w->co, &err);
        const corral__type_entry *te = &corral__types(s)[target->type];
        const corral__class *c = &s->arena.classes[te->cls];
        n->u.t.target = c->first + corral__slot_local(c, corral__co_off(s, target));
        corral__list_push(s, corral__list_of(s, n), i);
        break;
    }
    }
}

/* Register a (non-phase) wait for co: 1 registered (co WAITING), 0 already
   over (nothing registered), -1 malformed, -2 no free node (error set). */
int corral__register_wait(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral__meta *m = corral__meta_of(s, co);
    if (corral__kind_is((uint8_t)w->kind, CORRAL__HOW_GROUP)) {
        if (w->count == 0) return 0;
        if (w->count > CORRAL_MAX_GROUP || !w->members) {
            corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, NULL);
            return -1;
        }
        int ready[CORRAL_MAX_GROUP];
        uint32_t waiting = 0;
        for (uint32_t i = 0; i < w->count; i++) {
            ready[i] = corral__ready(call, s, co, &w->members[i]);
            if (ready[i] < 0) return -1;
            if (ready[i] == 1 && w->kind == CORRAL_WAIT_ANY) {
                m->fired = (int8_t)i;
                return 0;
            }
            waiting += ready[i] == 0;
        }
        if (waiting == 0) return 0;
        if (s->nodes.wait_free_count < waiting) {
            s->nodes.wait_failures++;
            corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, co, NULL);
            return -2;
        }
        for (uint32_t i = 0; i < w->count; i++)
            if (ready[i] == 0) corral__attach(s, co, &w->members[i], i);
        m->mode = w->kind == CORRAL_WAIT_ALL ? CORRAL__MODE_ALL : CORRAL__MODE_ANY;
        m->pending = (uint16_t)waiting;
        co->state = CORRAL__WAITING;
        return 1;
    }
    int r = corral__ready(call, s, co, w);
    if (r != 0) return r < 0 ? -1 : 0;
    if (s->nodes.wait_free_count == 0) {
        s->nodes.wait_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, co, NULL);
        return -2;
    }
    corral__attach(s, co, w, 0);
    m->mode = CORRAL__MODE_ONE;
    m->pending = 1;
    co->state = CORRAL__WAITING;
    return 1;
}

bool corral_await(corral_co *co, corral_wait w)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co) || co->state == CORRAL__STOPPING) {
        corral__fail(s, NULL, CORRAL_ERR_NOT_IN_STEP);
        return false;
    }
    corral__meta *m = corral__meta_of(s, co);
    if (m->child != CORRAL__NIL) { /* awaiting a child already: finish that first */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "it awaits a child already");
        return false;
    }
    if (m->wait != CORRAL__NIL || co->state == CORRAL__WAITING) { /* a second await in one step wins */
        corral__release_wait(s, co);
        co->state = (co->flags & CORRAL__ONSTACK_FLAG) ? CORRAL__RUNNING : CORRAL__QUEUED;
    }
    m->fired = -1;
    /* Waits without a node only set the phase the yield lands in; the
       flags tell corral__land what else the step asked for (the last
       await of a step wins). */
    const uint32_t keep = co->flags & ~(CORRAL__PHASE_MASK | CORRAL__NEXT_FRAME_FLAG | CORRAL__PHASE_WAIT_FLAG);
    const uint32_t own = co->flags & CORRAL__PHASE_MASK;
    if ((unsigned)w.kind < CORRAL_WAIT_KIND_COUNT) {
        const corral__kind k = corral__kinds[w.kind];
        switch ((corral__how)k.how) {
        case CORRAL__HOW_PLAIN:
            co->flags = (uint8_t)(keep | own);
            return true;
        case CORRAL__HOW_FRAME: /* never in this frame: flagged when its phase may still run in it */
            co->flags = (uint8_t)(keep | k.phase | (corral__run_to_come(s, k.phase) ? CORRAL__NEXT_FRAME_FLAG : 0u));
            return true;
        case CORRAL__HOW_PHASE: /* a first step's explicit phase wait is not its plain yield */
            co->flags = (uint8_t)(keep | k.phase | ((keep & CORRAL__FIRST_FLAG) ? CORRAL__PHASE_WAIT_FLAG : 0u));
            return true;
        case CORRAL__HOW_TIMER:
        case CORRAL__HOW_POLL:
        case CORRAL__HOW_LIST:
        case CORRAL__HOW_GROUP:
            break;
        }
    }
    co->flags = (uint8_t)(keep | (co->flags & CORRAL__PHASE_MASK));
    int r = corral__register_wait(__func__, s, co, &w);
    if (r == -2) { /* it cannot wait, and must not go on as if the wait were over */
        corral__stop_co(s, co, CORRAL_END_WAIT_FAILED);
        return true;
    }
    return r == 1;
}

int corral_wait_fired(const corral_co *co)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || !corral__is_running(s, co)) {
        corral__fail(s, NULL, CORRAL_ERR_NOT_IN_STEP);
        return -1;
    }
    return corral__meta_of(s, co)->fired;
}

uint64_t corral__debug_visits(const corral_sched *s)
{
    return s->nodes.debug_visits;
}

/* ---- groups */
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
        n->sibling = m->groups;
        m->groups = i;
        corral__list_push(s, corral__list_of(s, n), i);
    }
    return true;
}

void corral__leave_groups(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    uint32_t i = m->groups;
    while (i != CORRAL__NIL) {
        uint32_t next = corral__nodes(s)[i].sibling;
        corral__detach(s, i);
        corral__node_free(s, i);
        i = next;
    }
    m->groups = CORRAL__NIL;
}

typedef enum { CORRAL__OP_STOP, CORRAL__OP_PAUSE, CORRAL__OP_RESUME } corral__op;

/* Apply op to every member of one group list (owner: only those of that
   owner). The list is moved aside and taken node by node, each put back
   home before acting, so members ending (and taking others with them)
   never break the walk. */
static uint32_t corral__group_op(const char *call, corral_sched *s, uint32_t *head, uint32_t *tail, bool by_owner,
                                 uint64_t owner, corral__op op)
{
    if (s->groups.side_depth >= CORRAL__SIDE_MAX) {
        corral__fail_at(s, NULL, CORRAL_ERR_GROUP_DEPTH, call, CORRAL__NOH, NULL, NULL);
        return 0;
    }
    corral__node *N = corral__nodes(s);
    uint32_t level = s->groups.side_depth++;
    s->groups.side_head[level] = *head;
    s->groups.side_tail[level] = *tail;
    *head = *tail = CORRAL__NIL;
    for (uint32_t i = s->groups.side_head[level]; i != CORRAL__NIL; i = N[i].next) N[i].list = (uint8_t)(level + 1);
    corral__list home = {head, tail};
    corral__list side = {&s->groups.side_head[level], &s->groups.side_tail[level]};
    uint32_t count = 0;
    if (op == CORRAL__OP_STOP) { /* every member that ends, also those a member's end takes along */
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
        if (op == CORRAL__OP_STOP) {
            corral__stop_co(s, co, CORRAL_END_GROUP_STOPPED);
        } else if (op == CORRAL__OP_PAUSE) {
            count += corral__pause_co(s, co);
        } else {
            count += corral__resume_co(s, co);
        }
    }
    s->groups.side_depth--;
    return count;
}

static uint32_t corral__owner_op(const char *call, corral_sched *s, uint64_t owner, corral__op op)
{
    if (!corral__check_in(s, call) || owner == 0) return 0;
    uint32_t *b = (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
    uint32_t k = corral__owner_bucket(s, owner);
    return corral__group_op(call, s, &b[2 * k], &b[2 * k + 1], true, owner, op);
}

static uint32_t corral__tags_op(const char *call, corral_sched *s, uint32_t tags, corral__op op)
{
    if (!corral__check_in(s, call)) return 0;
    uint32_t count = 0;
    for (uint32_t t = 0; t < 32; t++)
        if (tags & (1u << t)) count += corral__group_op(call, s, &s->groups.tag_head[t], &s->groups.tag_tail[t], false, 0, op);
    return count;
}

uint32_t corral_stop_owner(corral_sched *s, uint64_t owner) { return corral__owner_op(__func__, s, owner, CORRAL__OP_STOP); }
uint32_t corral_pause_owner(corral_sched *s, uint64_t owner) { return corral__owner_op(__func__, s, owner, CORRAL__OP_PAUSE); }
uint32_t corral_resume_owner(corral_sched *s, uint64_t owner) { return corral__owner_op(__func__, s, owner, CORRAL__OP_RESUME); }
uint32_t corral_stop_tags(corral_sched *s, uint32_t tags) { return corral__tags_op(__func__, s, tags, CORRAL__OP_STOP); }
uint32_t corral_pause_tags(corral_sched *s, uint32_t tags) { return corral__tags_op(__func__, s, tags, CORRAL__OP_PAUSE); }
uint32_t corral_resume_tags(corral_sched *s, uint32_t tags) { return corral__tags_op(__func__, s, tags, CORRAL__OP_RESUME); }

/* ---- pause: timers and predicates leave their containers, keeping what
   is left of their time; lists (signal, future, join) stay */
void corral__hold_timers(corral_sched *s, corral_co *co)
{
    corral__node *N = corral__nodes(s);
    const double now[CORRAL__HEAP_COUNT] = {s->now.time, s->now.unscaled_time, (double)s->now.frame};
    for (uint32_t i = corral__meta_of(s, co)->wait; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].attached != 1) continue;
        if (corral__is_timer(N[i].kind)) {
            uint32_t h = N[i].list;
            corral__heap_remove(s, h, N[i].next);
            N[i].u.t.due -= now[h]; /* what is left */
            N[i].attached = 2;
        } else if (corral__kind_is(N[i].kind, CORRAL__HOW_POLL)) {
            corral__list_unlink(s, corral__list_of(s, &N[i]), i);
            N[i].attached = 2;
        }
    }
}

void corral__unhold_timers(corral_sched *s, corral_co *co)
{
    corral__node *N = corral__nodes(s);
    const double now[CORRAL__HEAP_COUNT] = {s->now.time, s->now.unscaled_time, (double)s->now.frame};
    for (uint32_t i = corral__meta_of(s, co)->wait; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].attached != 2) continue;
        if (corral__is_timer(N[i].kind)) {
            uint32_t h = N[i].list;
            N[i].u.t.due += now[h];
            N[i].attached = 1;
            corral__heap_push(s, h, i);
        } else if (corral__kind_is(N[i].kind, CORRAL__HOW_POLL)) {
            N[i].list = (uint8_t)(co->flags & CORRAL__PHASE_MASK);
            N[i].attached = 1;
            corral__list_push(s, corral__list_of(s, &N[i]), i);
        }
    }
}
