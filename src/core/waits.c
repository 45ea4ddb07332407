/*
    waits.c -- what every wait kind shares: the node pool, the lists nodes
    sit on, a wait released and its coroutine woken, and corral_await,
    which sends each kind to the file that arms, fires and cancels it.
    What a fired node ends is lifecycle.c's (corral__fire).

    A wait takes one node per thing waited on (one for a simple wait, one
    per member of an all/any). The coroutine's nodes are chained through
    `sibling` from its header's link (corral__co_wait), so stopping it
    detaches them all. Firing
    a node wakes its coroutine (any), or counts down (all); waking only
    queues it, no user code runs, so waking is safe from anywhere.

    The files: timers.c (frames, seconds, realtime), polls.c (until,
    while), wakelists.c (signal, future), calls.c (join), groups.c (the
    group memberships, which use the same nodes and lists). Each kind's
    table is the scheduler's (s->parts): the core's two are always there,
    a part's when the scheduler was created with it.
*/
#include "../corral_internal.h"
#include "arena.h"
#include "freelist.h"

#include <string.h>

void corral__index_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    (void)s;
    (void)te;
    corral__put_u(io, n->u.t.target, 4);
}
void corral__index_read(corral__io *io, corral__lwait *w) { w->ref = (uint32_t)corral__get_u(io, 4); }
void corral__index_place(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)co;
    corral__node *n = &corral__nodes(v->s)[i];
    n->u.t.target = w->ref;
    if (!held) corral__list_push(v->s, corral__list_of(v->s, n), i);
}

/* ---- node pool: two counted free lists (freelist.h) over the nodes, the
   wait nodes [0, wait_count) and the group nodes [wait_count, count),
   linked through `sibling` (N: the nodes) */
static inline corral__freelist corral__wait_nodes(corral_sched *s, corral__node *N)
{
    return (corral__freelist){N, sizeof *N, offsetof(corral__node, sibling), 0, s->nodes.wait_count,
                              &s->nodes.wait_free, &s->nodes.wait_bump, &s->nodes.wait_free_count,
                              &s->nodes.wait_peak};
}
static inline corral__freelist corral__group_nodes(corral_sched *s, corral__node *N)
{
    return (corral__freelist){N, sizeof *N, offsetof(corral__node, sibling), s->nodes.wait_count, s->nodes.count,
                              &s->nodes.group_free, &s->nodes.group_bump, &s->nodes.group_free_count,
                              &s->nodes.group_peak};
}
static CORRAL__ALWAYS_INLINE uint32_t corral__node_take(corral__node *N, const corral__freelist *fl)
{
    const uint32_t i = corral__freelist_take(fl);
    memset(&N[i], 0, sizeof N[i]);
    N[i].next = N[i].prev = N[i].sibling = CORRAL__NIL;
    return i;
}
uint32_t corral__node_alloc(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    const corral__freelist fl = corral__wait_nodes(s, N);
    return corral__node_take(N, &fl);
}
uint32_t corral__group_node_alloc(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    const corral__freelist fl = corral__group_nodes(s, N);
    return corral__node_take(N, &fl);
}
static inline void corral__node_give(corral_sched *s, corral__node *N, uint32_t i)
{
    N[i].attached = 0;
    N[i].co = CORRAL__NIL; /* free: in no coroutine's chain (corral_verify tells them apart) */
    if (i >= s->nodes.wait_count) { /* a group node */
        const corral__freelist group = corral__group_nodes(s, N);
        corral__freelist_give(&group, i);
        return;
    }
    const corral__freelist wait = corral__wait_nodes(s, N);
    corral__freelist_give(&wait, i);
}
void corral__node_free(corral_sched *s, uint32_t i) { corral__node_give(s, corral__nodes(s), i); }

/* ---- lists: FIFO, doubly linked through the nodes */
void corral__list_push(corral_sched *s, corral__list l, uint32_t i)
{
    corral__node *N = corral__nodes(s);
    N[i].next = CORRAL__NIL;
    N[i].prev = *l.tail;
    if (*l.tail != CORRAL__NIL) N[*l.tail].next = i;
    else *l.head = i;
    *l.tail = i;
}
void corral__list_unlink(corral_sched *s, corral__list l, uint32_t i)
{
    corral__node *N = corral__nodes(s);
    if (N[i].prev != CORRAL__NIL) N[N[i].prev].next = N[i].next;
    else *l.head = N[i].next;
    if (N[i].next != CORRAL__NIL) N[N[i].next].prev = N[i].prev;
    else *l.tail = N[i].prev;
    N[i].next = N[i].prev = CORRAL__NIL;
}

/* The list a node sits on: its kind's answer (a group node's: groups.c).
   Timers sit in heaps, on no list; the kinds without a node never attach. */
corral__list corral__list_of(corral_sched *s, const corral__node *n)
{
    if (n->kind >= CORRAL__NODE_OWNER) return corral__groups(s)->list(s, n); /* one exists: groups are in use */
    if (n->kind == CORRAL__NODE_OWNED) { /* its owner's joiners list (the owner has a side record) */
        corral__side *sd = corral__side_at(s, &corral__meta_table(s)[n->u.t.target]);
        return (corral__list){&sd->joiners_head, &sd->joiners_tail};
    }
    const corral__wait_part *p = corral__wait_part_of(s, n->kind);
    return p && p->list ? p->list(s, n) : (corral__list){NULL, NULL};
}

bool corral__detach(corral_sched *s, uint32_t i)
{
    corral__node *n = &corral__nodes(s)[i];
    if (n->attached != 1) return false; /* 0: fired or free; 2: held by a pause */
    if (corral__timer_node(n)) corral__timer_cancel(s, n);
    else {
        corral__list l = corral__list_of(s, n);
        if (l.head) corral__list_unlink(s, l, i); /* a kind without a list sits in no container */
    }
    n->attached = 0;
    return true;
}

/* Take a chain of nodes (linked through `sibling`) out of their containers
   and back to the pool; *first becomes NIL. A node that left its container
   unfired is told to its kind (leave) once the whole chain is out and
   freed: what the kind then does (serve the waiters behind it) may fire
   other coroutines' nodes, never one of this chain. A wait's chain has at
   most CORRAL_MAX_GROUP nodes; a group's has no kind that leaves. */
void corral__free_chain(corral_sched *s, uint32_t *first)
{
    corral__node *N = corral__nodes(s);
    corral__node left[CORRAL_MAX_GROUP];
    uint32_t n_left = 0, i = *first;
    *first = CORRAL__NIL;
    while (i != CORRAL__NIL) {
        uint32_t next = N[i].sibling;
        const corral__wait_part *p = corral__detach(s, i) ? corral__wait_part_of(s, N[i].kind) : NULL;
        if (p && p->leave && n_left < CORRAL_MAX_GROUP) left[n_left++] = N[i];
        corral__node_give(s, N, i);
        i = next;
    }
    for (uint32_t k = 0; k < n_left; k++) corral__wait_part_of(s, left[k].kind)->leave(s, &left[k]);
}

CORRAL__NOINLINE void corral__release_wait_with(corral_sched *s, corral_co *co, corral__meta *m, corral__side *sd)
{
    if (corral__chained_by(co, sd)) corral__free_chain(s, corral__co_wait_at(co, m)); /* else its link is no chain */
    else if (corral__sleeps(co)) corral__sleep_cancel(s, co);
    if (sd) { /* the mode and count of a wait of several nodes */
        sd->mode = CORRAL__MODE_NONE;
        sd->pending = 0;
    }
}
CORRAL__NOINLINE void corral__release_wait(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    corral__release_wait_with(s, co, m, corral__side_if(s, m));
}

/* Its step is on the C stack: it ends, with why, when that step returns. */
void corral__mark_stopping(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why)
{
    if (co->state == CORRAL__WAITING) corral__release_wait(s, co);
    co->state = CORRAL__STOPPING;
    corral__co_stop_why_set(m, (uint32_t)why << CORRAL__END_SHIFT);
}

/* its running step drops the wait it set (a second await, a call) */
void corral__unwait(corral_sched *s, corral_co *co)
{
    corral__release_wait(s, co);
    corral__unpark(s, co);
}

/* Its wait is over: queue it (or, if its step is on the stack right now,
   let that step's return requeue it). `now`: a join whose target ended
   during a run of the joiner's phase resumes in that same run. */
void corral__wake(corral_sched *s, corral_co *co, bool now)
{
    if (corral__paused(co->state)) { /* remembered: it resumes on corral_resume, or a generator's next pull */
        corral__meta *m = corral__meta_of(s, co);
        corral__co_hold_set(co, m, corral__co_hold(co, m) | CORRAL__HOLD_WOKEN);
        if ((corral__co_hold(co, m) & CORRAL__HOLD_GENERATOR) && corral__co_sided(m) &&
            corral__side_at(s, m)->joiners_head != CORRAL__NIL) { /* a list: pulls are in use */
            const corral__pulls_part *p = (const corral__pulls_part *)corral__feature(s, CORRAL__FEATURE_PULLS);
            if (p) p->ready(s, co);
        }
        return;
    }
    if (corral__is_running(s, co)) {
        corral__unpark(s, co);
        return;
    }
    if (now) corral__wake_now_or_queue(s, co);
    else corral__enqueue(s, co);
}

/* ---- pause: timers and predicates leave their containers, keeping what
   is left of their time; lists (signal, future, join) stay */
void corral__hold_wait(corral_sched *s, corral_co *co)
{
    if (corral__link_sleeps(co->link)) { /* a plain sleep: its entry to the held heap */
        corral__sleep_hold(s, co);
        return;
    }
    corral__node *N = corral__nodes(s);
    for (uint32_t i = corral__co_wait(s, co, corral__meta_of(s, co)); i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].attached != 1) continue;
        const corral__wait_part *p = corral__wait_part_of(s, N[i].kind);
        if (!p || !p->hold) continue;
        p->hold(s, i);
        N[i].attached = 2;
    }
}

void corral__unhold_wait(corral_sched *s, corral_co *co)
{
    if (corral__link_sleeps(co->link)) {
        corral__sleep_unhold(s, co);
        return;
    }
    corral__node *N = corral__nodes(s);
    for (uint32_t i = corral__co_wait(s, co, corral__meta_of(s, co)); i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].attached != 2) continue;
        N[i].attached = 1;
        corral__wait_part_of(s, N[i].kind)->unhold(s, co, i); /* held: it has a hold, so an unhold */
    }
}

/* A load: a node of kind `kind` (member `member` of an all/any) for co,
   at the head of its chain as an await attaches one and in the order of
   attachment, `attached` as saved (1: in its container, 2: held by a
   pause, 0: fired); its kind's table puts it in its container. Its index. */
uint32_t corral__node_load(corral_sched *s, corral_co *co, uint8_t kind, uint8_t member, uint8_t attached)
{
    corral__meta *m = corral__meta_of(s, co);
    uint32_t i = corral__node_alloc(s);
    corral__node *n = &corral__nodes(s)[i];
    n->co = corral__co_off(s, co);
    n->kind = kind;
    n->member = member;
    n->sibling = corral__co_wait(s, co, m);
    corral__co_wait_set(co, m, i);
    n->attached = attached;
    n->order = s->nodes.order++;
    return i;
}

/* A reload: what the waits said they wait for (desc.wait_text) forgotten:
   the old build's strings */
void corral__wait_texts_forget(corral_sched *s)
{
    if (s->nodes.text_off) memset(CORRAL__AT(s, s->nodes.text_off), 0, (size_t)s->nodes.wait_count * sizeof(const char *));
}

/* A reload: the place in its coroutine's slot that node i's wait reads or
   writes (a kind whose seq is in the slot: a channel's value, a result),
   moved with its field */
void corral__wait_slot_place(corral_sched *s, uint32_t i, uint32_t at) { corral__nodes(s)[i].u.t.seq = at; }

void corral__nodes_order_past(corral_sched *s, uint32_t order)
{
    if (order > s->nodes.order) s->nodes.order = order;
}

void corral__nodes_init(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.count; i++) N[i].attached = 0;
    const corral__freelist wait = corral__wait_nodes(s, N), group = corral__group_nodes(s, N);
    corral__freelist_clear(&wait);
    corral__freelist_clear(&group);
}

/* ---- await */

/* 1: already over; 0: must wait; -1: malformed, or of a kind whose part s
   has not; -3 gone: a signal, future, channel, semaphore or wait group
   (error set). */
static int corral__wait_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    const corral__wait_part *p = corral__wait_part_of(s, (uint32_t)w->kind);
    if (p) return p->ready(call, s, co, w);
    if ((unsigned)w->kind < CORRAL_WAIT_KIND_COUNT &&
        (corral__kind_of(w->kind).how == CORRAL__HOW_LIST || corral__kind_of(w->kind).how == CORRAL__HOW_POLL ||
         corral__kind_of(w->kind).how == CORRAL__HOW_TIMER)) { /* a part's kind, and s has not that part */
        corral__part_needed(call, s, co, NULL, corral__part_of_kind(w->kind));
        return -1;
    }
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, NULL); /* no node: never a member */
    return -1;
}

/* Give co a node for the wait w (member `member` of its all/any) and hand
   it to the kind's file, which puts it in its container. text: what the
   whole wait says it waits for (desc.wait_text). */
static void corral__attach(corral_sched *s, corral_co *co, const corral_wait *w, uint32_t member, const char *text)
{
    corral__meta *m = corral__meta_of(s, co);
    uint32_t i = corral__node_alloc(s);
    if (s->nodes.text_off) ((const char **)(void *)CORRAL__AT(s, s->nodes.text_off))[i] = text;
    corral__node *n = &corral__nodes(s)[i];
    n->co = corral__co_off(s, co);
    n->kind = (uint8_t)w->kind;
    n->member = (uint8_t)member;
    uint32_t *head = corral__co_wait_at(co, m); /* corral__wait_open began its chain */
    n->sibling = *head;
    *head = i;
    n->attached = 1;
    n->order = s->nodes.order++;
    corral__wait_part_of(s, (uint32_t)w->kind)->arm(s, co, i, w); /* ready() answered: it has a table */
}

/* Register a (non-phase) wait for co: 1 registered (co WAITING), 0 already
   over (nothing registered), -1 malformed, -2 no free node, -3 a signal,
   future, channel, semaphore or wait group that is gone (the error set for
   each of the last three). sd: co's side record, NULL: none. */
int corral__register_wait(const char *call, corral_sched *s, corral_co *co, corral__side *sd, const corral_wait *w)
{
    if (corral__kind_is((uint8_t)w->kind, CORRAL__HOW_GROUP)) {
        if (w->count == 0) return 0;
        CORRAL__REQUIRE_AT(s, w->count <= CORRAL_MAX_GROUP && w->members, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, NULL, -1);
        if (!sd) sd = corral__side_take(call, s, corral__meta_of(s, co)); /* its count and what fired */
        if (!sd) return -2;
        int ready[CORRAL_MAX_GROUP];
        uint32_t waiting = 0;
        if (s->nodes.wait_free_count < w->count) { /* short of nodes: no member may take a value or a
                                                      permit it would then have to give back */
            for (uint32_t i = 0; i < w->count; i++) {
                const corral__wait_part *p = corral__wait_part_of(s, (uint32_t)w->members[i].kind);
                if (p && p->takes) {
                    s->nodes.wait_failures++;
                    corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, co,
                                    "an all/any wait that could take a value or a permit needs a node for each member");
                    return -2;
                }
            }
        }
        /* an all: first every member that takes nothing, and whether each
           that takes can (usable), so that a member gone or malformed ends
           the wait before any member took a value or a permit it would
           keep; then the takers take. An any takes only in the member that
           fires, which ends it: its members in order, once. */
        const bool all = w->kind == CORRAL_WAIT_ALL;
        for (uint32_t i = 0; all && i < w->count; i++) {
            const corral__wait_part *p = corral__wait_part_of(s, (uint32_t)w->members[i].kind);
            ready[i] = p && p->usable ? p->usable(call, s, co, &w->members[i])
                                      : corral__wait_ready(call, s, co, &w->members[i]);
            if (ready[i] < 0) return ready[i];
        }
        for (uint32_t i = 0; i < w->count; i++) {
            const corral__wait_part *p = corral__wait_part_of(s, (uint32_t)w->members[i].kind);
            if (!all || (p && p->usable)) ready[i] = corral__wait_ready(call, s, co, &w->members[i]);
            if (ready[i] < 0) return ready[i];
            if (ready[i] == 1 && !all) {
                sd->fired = (int8_t)i;
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
        corral__wait_open(co);
        for (uint32_t i = 0; i < w->count; i++)
            if (ready[i] == 0) corral__attach(s, co, &w->members[i], i, w->text);
        corral__mode_set_with(sd, w->kind == CORRAL_WAIT_ALL ? CORRAL__MODE_ALL : CORRAL__MODE_ANY);
        sd->pending = (uint8_t)waiting;
        corral__park(co);
        return 1;
    }
    int r = corral__wait_ready(call, s, co, w);
    if (r != 0) return r < 0 ? r : 0;
    if (s->nodes.wait_free_count == 0) {
        s->nodes.wait_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, co, NULL);
        return -2;
    }
    corral__wait_open(co);
    corral__attach(s, co, w, 0, w->text);
    corral__mode_set_with(sd, CORRAL__MODE_ONE); /* its chain of one node says it: no mode of several */
    corral__park(co);
    return 1;
}
/* A plain sleep (timers.c): one frames, seconds or realtime wait that
   keeps no text, while the store has room for one (past max_sleepers it
   takes a node: counted) */
static bool corral__plain_sleep(corral_sched *s, const corral_wait *w)
{
    if ((uint32_t)w->kind - (uint32_t)CORRAL_WAIT_FRAMES > 2u || (w->text && s->nodes.text_off)) /* frames, seconds, realtime */
        return false;
    if (s->timers.sleepers < s->timers.max_sleepers) return true;
    s->timers.spilled++;
    return false;
}
/* it sleeps: its entry is its record, its link names the entry (1, as
   corral__register_wait answers a wait it registered) */
static CORRAL__NOINLINE int corral__sleep_begin(corral_sched *s, corral_co *co, corral__side *sd, const corral_wait *w)
{
    corral__wait_open(co);
    corral__sleep_arm(s, co, w);
    corral__mode_set_with(sd, CORRAL__MODE_ONE); /* no mode of several */
    corral__park(co);
    return 1;
}

bool corral_await(corral_co *co, corral_wait w)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    if (!s) return false;
    corral__meta *m = corral__meta_of(s, co);
    corral__side *sd = corral__side_if(s, m); /* looked up once for this await */
    if (corral__calling_with(sd) || corral__building_arms_with(co, sd)) { /* awaiting a child already: finish that first */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "it awaits a child already");
        return false;
    }
    if (co->state == CORRAL__WAITING) { /* a second await in one step wins (no arms are being built: above) */
        corral__unwait(s, co);
    }
    if (sd) sd->fired = -1;
    corral__co_stop_why_clear(m, (CORRAL__WAIT_CLOSED | CORRAL__GOT_MASK));
    /* A generator is in no lane: a frame or phase wait in its step is a
       wait of one frame, not the plain yield that gives its value. */
    if (corral__gen_stepping(s, co) && (unsigned)w.kind < CORRAL_WAIT_KIND_COUNT &&
        (corral__kind_of(w.kind).how == CORRAL__HOW_FRAME || corral__kind_of(w.kind).how == CORRAL__HOW_PHASE))
    {
        const char *text = w.text;
        w = corral_wait_frames(1);
        w.text = text;
    }
    /* Waits without a node only set the phase the yield lands in; the
       flags tell corral__land what else the step asked for (the last
       await of a step wins). */
    const uint32_t keep = co->flags & ~(CORRAL__PHASE_MASK | CORRAL__NEXT_FRAME_FLAG | CORRAL__PHASE_WAIT_FLAG);
    const uint32_t own = co->flags & CORRAL__PHASE_MASK;
    if ((unsigned)w.kind < CORRAL_WAIT_KIND_COUNT) {
        const corral__kind k = corral__kind_of(w.kind);
        switch ((corral__how)k.how) {
        case CORRAL__HOW_PLAIN:
            co->flags = (uint8_t)(keep | own);
            return true;
        case CORRAL__HOW_FRAME: /* never in this frame: flagged when its phase may still run in it */
            co->flags = (uint8_t)(keep | k.phase | (corral__run_to_come(s, k.phase) ? CORRAL__NEXT_FRAME_FLAG : 0u));
            return true;
        case CORRAL__HOW_PHASE: { /* a first step's explicit phase wait is not its plain yield */
            uint32_t ph = k.phase;
            if (w.kind == CORRAL_WAIT_PHASE && !corral__phase_of(s, (corral_phase)w.count, &ph)) {
                corral__fail_at(s, NULL, CORRAL_ERR_BAD_PHASE, __func__, CORRAL__NOH, co, NULL);
                return false;
            }
            co->flags = (uint8_t)(keep | ph | ((keep & CORRAL__FIRST_FLAG) ? CORRAL__PHASE_WAIT_FLAG : 0u));
            return true;
        }
        case CORRAL__HOW_TIMER:
        case CORRAL__HOW_POLL:
        case CORRAL__HOW_LIST:
        case CORRAL__HOW_GROUP:
            break;
        }
    }
    co->flags = (uint8_t)(keep | (co->flags & CORRAL__PHASE_MASK));
    int r = corral__plain_sleep(s, &w) ? corral__sleep_begin(s, co, sd, &w) : corral__register_wait(__func__, s, co, sd, &w);
    if (r == -2) { /* it cannot wait, and must not go on as if the wait were over */
        corral__mark_stopping(s, co, m, CORRAL_END_WAIT_FAILED); /* its step is running */
        return true;
    }
    if (r == -3) return true; /* what it waits on is gone: a plain yield, so a loop that
                                 waits on it again is not a loop that never yields */
    if (r == -1) corral__co_stop_why_add(m, CORRAL__GOT_ERROR); /* malformed: corral_wait_got says so */
    return r == 1;
}

int corral_wait_fired(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return -1;
    return corral__side_of(s, corral__meta_of(s, co))->fired;
}

bool corral_wait_closed(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    return s && (corral__co_stop_why(corral__meta_of(s, co)) & CORRAL__WAIT_CLOSED);
}

corral_got corral_wait_got(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return CORRAL_GOT_ERROR;
    const uint32_t why = corral__co_stop_why(corral__meta_of(s, co));
    switch (why & CORRAL__GOT_MASK) {
    case CORRAL__GOT_NOTHING: return CORRAL_GOT_NOT_YET;
    case CORRAL__GOT_STOPPED: return CORRAL_GOT_STOPPED;
    case CORRAL__GOT_ERROR: return CORRAL_GOT_ERROR;
    default: return (why & CORRAL__WAIT_CLOSED) ? CORRAL_GOT_CLOSED : CORRAL_GOT_VALUE;
    }
}

uint64_t corral__debug_visits(const corral_sched *s)
{
    return s->nodes.debug_visits;
}

/* a restore: the node pool as saved in o */
void corral__nodes_take(corral_sched *d, const corral_sched *o)
{
    d->nodes.wait_free = o->nodes.wait_free;
    d->nodes.wait_free_count = o->nodes.wait_free_count;
    d->nodes.group_free = o->nodes.group_free;
    d->nodes.group_free_count = o->nodes.group_free_count;
    d->nodes.wait_bump = o->nodes.wait_bump;
    d->nodes.group_bump = o->nodes.group_bump;
    d->nodes.wait_peak = o->nodes.wait_peak;
    d->nodes.group_peak = o->nodes.group_peak;
    d->nodes.wait_failures = o->nodes.wait_failures;
    d->nodes.group_failures = o->nodes.group_failures;
    d->nodes.debug_visits = o->nodes.debug_visits;
    d->nodes.order = o->nodes.order;
}

/* a restore: the wait nodes before wait_bump (at wait_at of snap) and the
   group nodes from the first to group_bump (at group_at) as a snapshot
   holds them; the pool's free lists and bumps come with corral__nodes_take */
void corral__nodes_restore(corral_sched *s, const unsigned char *snap, size_t wait_at, uint32_t wait_bump,
                           size_t group_at, uint32_t group_bump)
{
    corral__node *N = corral__nodes(s);
    memcpy(N, snap + wait_at, (size_t)wait_bump * sizeof(corral__node));
    memcpy(N + s->nodes.wait_count, snap + group_at, (size_t)(group_bump - s->nodes.wait_count) * sizeof(corral__node));
}
