/*
    verify.c -- corral_verify: every invariant of the arena, checked.

    For tests, the model-based random test, the fuzzer and debug tools: it
    walks every slot, lane, node, heap and pool once (O(arena)) and reports
    the first invariant that does not hold through the logger
    (CORRAL_ERR_CORRUPT, with the invariant as the message's detail).
*/
#include "corral_internal.h"

#define CORRAL__BAD(what)                                                                 \
    do {                                                                                  \
        corral__fail_at(s, NULL, CORRAL_ERR_CORRUPT, "corral_verify", CORRAL__NOH, NULL, what); \
        return false;                                                                     \
    } while (0)

/* Each page's free list stays in the page, holds free slots only, and
   matches its count; each page is on the list its counts call for, once. */
static bool corral__verify_pages(const corral_sched *s, const corral__class *c, uint32_t *free_total)
{
    const corral__page *P = corral__pages(s, c);
    uint32_t on_list[3] = {0, 0, 0};
    for (uint32_t pi = 0; pi < c->page_count; pi++) {
        const corral__page *pg = &P[pi];
        uint32_t first = pi << c->page_shift, n = 0, size = 1u << c->page_shift;
        uint32_t end = first + size < c->capacity ? first + size : c->capacity;
        if (pg->slots != end - first) CORRAL__BAD("a page's slot count is wrong");
        for (uint32_t k = pg->free_head; k != CORRAL__NIL; k = CORRAL__CO(s, corral__slot_off(c, k))->link) {
            if (k < first || k >= first + pg->bump) CORRAL__BAD("a page's free list links out of its touched slots");
            if (++n > pg->slots) CORRAL__BAD("a free list has a cycle");
            if (CORRAL__CO(s, corral__slot_off(c, k))->state != CORRAL__FREE)
                CORRAL__BAD("a slot on a free list is not free (double free?)");
        }
        if (pg->bump > pg->slots) CORRAL__BAD("a page's bump is past its slots");
        for (uint32_t k = first + pg->bump; k < end; k++)
            if (CORRAL__CO(s, corral__slot_off(c, k))->state != CORRAL__FREE)
                CORRAL__BAD("a slot past its page's bump is not free");
        n += pg->slots - pg->bump;
        if (n != pg->free_count) CORRAL__BAD("a page's free count does not match its free list and bump");
        if (pg->list == CORRAL__PAGE_EMPTY && (pg->bump != 0 || pg->free_head != CORRAL__NIL))
            CORRAL__BAD("a page on the empty list is not back to untouched");
        if (pg->list > CORRAL__PAGE_PARTIAL || (pg->list == CORRAL__PAGE_FULL) != (n == 0) ||
            (pg->list == CORRAL__PAGE_EMPTY && n != pg->slots))
            CORRAL__BAD("a page is on the wrong list");
        on_list[pg->list]++;
        *free_total += n;
    }
    const uint32_t heads[2] = {c->empty_head, c->partial_head};
    for (uint8_t l = CORRAL__PAGE_EMPTY; l <= CORRAL__PAGE_PARTIAL; l++) {
        uint32_t n = 0, prev = CORRAL__NIL;
        for (uint32_t pi = heads[l - 1]; pi != CORRAL__NIL; pi = P[pi].next) {
            if (pi >= c->page_count) CORRAL__BAD("a page list links past its class");
            if (++n > c->page_count) CORRAL__BAD("a page list has a cycle");
            if (P[pi].list != l || P[pi].prev != prev) CORRAL__BAD("a page list is broken");
            prev = pi;
        }
        if (n != on_list[l]) CORRAL__BAD("a page is missing from its list");
    }
    return true;
}

static bool corral__verify_slots(const corral_sched *s)
{
    const corral__type_entry *T = corral__types(s);
    uint32_t live_of_type[256] = {0}; /* types beyond 256 are checked only in total */
    uint64_t live = 0, slot_bytes = 0, ctx_bytes = 0;
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        uint32_t free_n = 0, retired = 0, used = 0;
        if (!corral__verify_pages(s, c, &free_n)) return false;
        for (uint32_t k = 0; k < c->capacity; k++) {
            const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (co->gen == 0) CORRAL__BAD("a slot has generation 0");
            if (co->state > CORRAL__DEFERRED) CORRAL__BAD("a slot has an unknown state");
            if (co->state == CORRAL__RETIRED) {
                retired++;
                continue;
            }
            if (co->state == CORRAL__FREE) continue;
            used++;
            if (s->now.depth == 0 && !s->now.in_tick && (co->flags & (CORRAL__NEXT_FRAME_FLAG | CORRAL__PHASE_WAIT_FLAG)))
                CORRAL__BAD("a coroutine kept what its last step asked of the resume contract");
            if (co->type >= s->types.type_count) CORRAL__BAD("a live slot names no type");
            if (T[co->type].cls != ci) CORRAL__BAD("a live slot's type belongs to another class");
            if (corral__state_alive(co->state)) {
                live++;
                if (co->type < 256) live_of_type[co->type]++;
                ctx_bytes += T[co->type].ctx_size;
            }
        }
        if (free_n + used + retired != c->capacity) CORRAL__BAD("a class's free + used + retired != capacity");
        if (used != c->used) CORRAL__BAD("a class's used counter is wrong");
        if (retired != c->retired) CORRAL__BAD("a class's retired counter is wrong");
        if (c->peak < c->used) CORRAL__BAD("a class's peak is below its use");
        slot_bytes += (uint64_t)c->used * c->slot_size;
    }
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) { /* budgets: each unused one reserved */
        uint64_t want = 0;
        for (uint32_t t = 0; t < s->types.type_count; t++)
            if (T[t].cls == ci && T[t].budget) want += T[t].budget - (T[t].live < T[t].budget ? T[t].live : T[t].budget);
        if (s->now.depth == 0 && !s->now.in_tick && want != s->arena.classes[ci].reserved)
            CORRAL__BAD("a class's reservations are not its budgeted types' unused budgets");
    }
    if (s->now.depth == 0 && !s->now.in_tick) { /* no slot between states on the C stack */
        if (live != s->arena.live) CORRAL__BAD("the live counter is wrong");
        if (slot_bytes != s->arena.slot_bytes) CORRAL__BAD("the slot bytes counter is wrong");
        if (ctx_bytes != s->arena.ctx_bytes) CORRAL__BAD("the context bytes counter is wrong");
        for (uint32_t t = 0; t < s->types.type_count && t < 256; t++)
            if (live_of_type[t] != T[t].live) CORRAL__BAD("a type's live counter is wrong");
    }
    if (s->arena.live_peak < s->arena.live || s->arena.slot_bytes_peak < s->arena.slot_bytes || s->arena.ctx_bytes_peak < s->arena.ctx_bytes)
        CORRAL__BAD("a peak is below its current value");
    return true;
}

static bool corral__verify_lanes(const corral_sched *s)
{
    const corral__lane *L = corral__lanes(s);
    const uint32_t *E = corral__entries(s), *next = corral__chunk_next(s);
    uint32_t chunks = 0;
    for (uint32_t l = 0; l < s->run.lane_count; l++) {
        uint32_t c = L[l].head, n = 0;
        for (uint32_t k = 0; k < L[l].count; k++) {
            if (k && k % CORRAL__CHUNK == 0) c = next[c];
            if (c == CORRAL__NIL || c >= s->run.chunk_count) CORRAL__BAD("a lane is shorter than its count");
            uint32_t e = c * CORRAL__CHUNK + k % CORRAL__CHUNK, off = E[e];
            if (off == CORRAL__NIL) continue;
            const corral_co *co = CORRAL__CO(s, off);
            if (co->link != e) CORRAL__BAD("a lane entry and its coroutine disagree");
            if (corral__lane_of(s, co) != l) CORRAL__BAD("a coroutine sits in another phase's or type's lane");
            n++;
        }
        uint32_t held = 0, last = CORRAL__NIL;
        for (c = L[l].head; c != CORRAL__NIL; c = next[c]) {
            if (++chunks > s->run.chunk_count) CORRAL__BAD("a lane's chunk chain has a cycle");
            held++;
            last = c;
        }
        if (L[l].tail != last) CORRAL__BAD("a lane's tail is not the last chunk of its chain");
        if (L[l].cap != held * CORRAL__CHUNK) CORRAL__BAD("a lane's capacity is not its chunks' entries");
        if (s->run.walking_lane != l && held != (L[l].count + CORRAL__CHUNK - 1) / CORRAL__CHUNK)
            CORRAL__BAD("a lane holds more chunks than its entries need");
    }
    for (uint32_t c = s->run.chunk_free; c != CORRAL__NIL; c = next[c])
        if (c >= s->run.chunk_bump || ++chunks > s->run.chunk_count)
            CORRAL__BAD("the free chunks and the lanes overlap");
    if (s->run.chunk_bump > s->run.chunk_count) CORRAL__BAD("the chunk bump is past the pool");
    chunks += s->run.chunk_count - s->run.chunk_bump;
    if (chunks != s->run.chunk_count) CORRAL__BAD("a chunk is lost (in no lane and not free)");
    /* every queued coroutine is where its link says */
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *cl = &s->arena.classes[ci];
        for (uint32_t k = 0; k < cl->capacity; k++) {
            uint32_t off = corral__slot_off(cl, k);
            const corral_co *co = CORRAL__CO(s, off);
            if ((co->state != CORRAL__QUEUED && co->state != CORRAL__DEFERRED) || off == s->run.running) continue;
            if (co->link >= s->run.chunk_count * CORRAL__CHUNK || E[co->link] != off)
                CORRAL__BAD("a queued coroutine is in no lane");
        }
    }
    return true;
}

static bool corral__verify_nodes(const corral_sched *s)
{
    const corral__node *N = corral__nodes(s);
    uint32_t wait_used = 0, group_used = 0, n = 0;
    if (s->nodes.wait_bump > s->nodes.wait_count || s->nodes.group_bump < s->nodes.wait_count ||
        s->nodes.group_bump > s->nodes.count)
        CORRAL__BAD("a node bump is out of its part");
    for (uint32_t i = s->nodes.wait_free; i != CORRAL__NIL; i = N[i].sibling) {
        if (i >= s->nodes.wait_bump) CORRAL__BAD("the wait node free list holds an untouched or group node");
        if (++n > s->nodes.wait_count) CORRAL__BAD("the wait node free list has a cycle");
    }
    if (n + s->nodes.wait_count - s->nodes.wait_bump != s->nodes.wait_free_count)
        CORRAL__BAD("the free wait node count is wrong");
    n = 0;
    for (uint32_t i = s->nodes.group_free; i != CORRAL__NIL; i = N[i].sibling) {
        if (i < s->nodes.wait_count || i >= s->nodes.group_bump)
            CORRAL__BAD("the group node free list holds an untouched or wait node");
        if (++n > s->nodes.count - s->nodes.wait_count) CORRAL__BAD("the group node free list has a cycle");
    }
    if (n + s->nodes.count - s->nodes.group_bump != s->nodes.group_free_count)
        CORRAL__BAD("the free group node count is wrong");
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *cl = &s->arena.classes[ci];
        for (uint32_t k = 0; k < cl->capacity; k++) {
            uint32_t off = corral__slot_off(cl, k);
            const corral_co *co = CORRAL__CO(s, off);
            if (!corral__state_alive(co->state)) continue;
            const corral__meta *m = corral__meta_of(s, co);
            uint32_t g = cl->first + k, len = 0;
            const bool arms = m->mode == CORRAL__MODE_RACE || m->mode == CORRAL__MODE_SYNC;
            uint32_t running = 0;
            for (uint32_t i = m->wait; i != CORRAL__NIL; i = N[i].sibling) {
                if (i >= s->nodes.wait_count) CORRAL__BAD("a wait chain holds a group node");
                if (N[i].co != off) CORRAL__BAD("a wait node names another coroutine");
                if (++len > CORRAL_MAX_GROUP) CORRAL__BAD("a wait chain is too long (cycle?)");
                if ((N[i].kind == CORRAL__NODE_ARM) != arms) CORRAL__BAD("a race's or sync's chain holds another kind");
                if (arms && N[i].attached) CORRAL__BAD("an arm's node is in a container");
                if (arms && N[i].u.t.target != CORRAL__NIL) {
                    if (N[i].u.t.target >= s->arena.total_slots) CORRAL__BAD("an arm's child is out of range");
                    const corral_co *ch = corral__co_of_global(s, N[i].u.t.target);
                    if (!corral__state_alive(ch->state) || corral__meta_of(s, ch)->parent != g)
                        CORRAL__BAD("an arm's child does not name its caller as parent");
                    running++;
                }
            }
            if (arms && (running == 0 || (m->mode == CORRAL__MODE_SYNC && m->pending != running) ||
                         m->child != CORRAL__NIL))
                CORRAL__BAD("a race or sync counts its arms wrong");
            wait_used += len;
            len = 0;
            uint32_t deadlines = 0;
            for (uint32_t i = m->groups; i != CORRAL__NIL; i = N[i].sibling) {
                if (N[i].co != off) CORRAL__BAD("a group node names another coroutine");
                if (N[i].kind == CORRAL__NODE_DEADLINE) { /* a wait node in a heap, one at most */
                    if (i >= s->nodes.wait_count || N[i].attached != 1 || ++deadlines > 1)
                        CORRAL__BAD("a stop deadline is not one wait node in a heap");
                    wait_used++;
                    continue;
                }
                if (i < s->nodes.wait_count || i >= s->nodes.count) CORRAL__BAD("a group chain holds a wait node");
                if (N[i].kind != CORRAL__NODE_OWNER && N[i].kind != CORRAL__NODE_TAG)
                    CORRAL__BAD("a group node has a wait kind");
                if (++len > 33) CORRAL__BAD("a group chain is too long (cycle?)");
            }
            group_used += len;
            if (co->state == CORRAL__WAITING && m->wait == CORRAL__NIL && m->child == CORRAL__NIL)
                CORRAL__BAD("a waiting coroutine waits on nothing");
            if (m->child != CORRAL__NIL) {
                if (m->child >= s->arena.total_slots) CORRAL__BAD("a child link is out of range");
                const corral_co *ch = corral__co_of_global(s, m->child);
                if (!corral__state_alive(ch->state) || corral__meta_of(s, ch)->parent != g)
                    CORRAL__BAD("a caller's child does not name it as parent");
            }
            if (m->parent != CORRAL__NIL) {
                if (m->parent >= s->arena.total_slots) CORRAL__BAD("a parent link is out of range");
                const corral_co *pa = corral__co_of_global(s, m->parent);
                const corral__meta *pm = corral__meta_of(s, pa);
                bool awaited = pm->child == g;
                if (pm->mode == CORRAL__MODE_RACE || pm->mode == CORRAL__MODE_SYNC)
                    for (uint32_t i = pm->wait; i != CORRAL__NIL && !awaited; i = N[i].sibling)
                        awaited = N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target == g;
                if (!corral__state_alive(pa->state) || !awaited) CORRAL__BAD("a child's parent does not await it");
            }
        }
    }
    if (s->now.depth == 0 && !s->now.in_tick) {
        if (wait_used + s->nodes.wait_free_count != s->nodes.wait_count) CORRAL__BAD("a wait node leaked");
        if (group_used + s->nodes.group_free_count != s->nodes.count - s->nodes.wait_count) CORRAL__BAD("a group node leaked");
    }
    return true;
}

static bool corral__verify_heaps(const corral_sched *s)
{
    const corral__node *N = corral__nodes(s);
    for (uint32_t h = 0; h < s->timers.heaps; h++) {
        const uint32_t *H = corral__heap(s, h);
        for (uint32_t pos = 0; pos < s->timers.heap_len[h]; pos++) {
            uint32_t i = H[pos];
            if (i >= s->nodes.wait_count) CORRAL__BAD("a heap holds a node out of range");
            if (N[i].next != pos) CORRAL__BAD("a timer node does not know its heap position");
            if (N[i].list != h) CORRAL__BAD("a timer node does not know its heap");
            if (!N[i].attached) CORRAL__BAD("a heap holds a detached node");
            if (pos > 0) {
                const corral__node *p = &N[H[(pos - 1) / CORRAL__HEAP_ARITY]];
                if (p->u.t.due > N[i].u.t.due) CORRAL__BAD("a timer heap is out of order");
            }
            const corral_co *co = CORRAL__CO(s, N[i].co);
            if (N[i].kind == CORRAL__NODE_DEADLINE ? !corral__state_alive(co->state) && co->state != CORRAL__STOPPING
                                                   : co->state != CORRAL__WAITING)
                CORRAL__BAD("a timer belongs to a coroutine that is not waiting (a deadline: not alive)");
        }
    }
    return true;
}

static bool corral__verify_pools(const corral_sched *s)
{
    uint32_t n = 0;
    const corral__signal *G = corral__signals(s);
    for (uint32_t i = s->wakes.signal_free; i != CORRAL__NIL; i = G[i].next_free) {
        if (i >= s->wakes.max_signals || (G[i].gen & 1u)) CORRAL__BAD("a live signal is on the free list");
        if (++n > s->wakes.max_signals) CORRAL__BAD("the signal free list has a cycle");
    }
    for (uint32_t i = 0; i < s->wakes.max_signals; i++) n += G[i].gen & 1u;
    if (n != s->wakes.max_signals) CORRAL__BAD("a signal is lost (not live and not free)");
    n = 0;
    const corral__future *F = corral__futures(s);
    for (uint32_t i = s->wakes.future_free; i != CORRAL__NIL; i = F[i].next_free) {
        if (i >= s->wakes.max_futures || (F[i].gen & 1u)) CORRAL__BAD("a live future is on the free list");
        if (++n > s->wakes.max_futures) CORRAL__BAD("the future free list has a cycle");
    }
    for (uint32_t i = 0; i < s->wakes.max_futures; i++) n += F[i].gen & 1u;
    if (n != s->wakes.max_futures) CORRAL__BAD("a future is lost (not live and not free)");
    n = 0;
    const corral__channel *C = corral__channels(s);
    for (uint32_t i = s->chans.channel_free; i != CORRAL__NIL; i = C[i].next_free) {
        if (i >= s->chans.max_channels || (C[i].gen & 1u)) CORRAL__BAD("a live channel is on the free list");
        if (++n > s->chans.max_channels) CORRAL__BAD("the channel free list has a cycle");
    }
    for (uint32_t i = 0; i < s->chans.max_channels; i++) {
        n += C[i].gen & 1u;
        if ((C[i].gen & 1u) && (C[i].cap == 0 || C[i].count > C[i].cap || C[i].first >= C[i].cap ||
                                (uint64_t)C[i].cap * C[i].size > s->chans.channel_bytes))
            CORRAL__BAD("a channel's ring is out of bounds");
        if ((C[i].gen & 1u) && C[i].count < C[i].cap && C[i].send_head != CORRAL__NIL)
            CORRAL__BAD("a sender waits on a channel with room");
        if ((C[i].gen & 1u) && C[i].count > 0 && C[i].recv_head != CORRAL__NIL)
            CORRAL__BAD("a receiver waits on a channel with values");
    }
    if (n != s->chans.max_channels || s->chans.channels_live > s->chans.max_channels)
        CORRAL__BAD("a channel is lost (not live and not free)");
    n = 0;
    const corral__counter *K = corral__counters(s);
    for (uint32_t i = s->chans.counter_free; i != CORRAL__NIL; i = K[i].next_free) {
        if (i >= s->chans.max_counters || (K[i].gen & 1u)) CORRAL__BAD("a live semaphore or wait group is on the free list");
        if (++n > s->chans.max_counters) CORRAL__BAD("the semaphore free list has a cycle");
    }
    for (uint32_t i = 0; i < s->chans.max_counters; i++) n += K[i].gen & 1u;
    if (n != s->chans.max_counters) CORRAL__BAD("a semaphore or wait group is lost");
    return true;
}

bool corral_verify(const corral_sched *s)
{
    if (!corral__check(s)) return false;
    return corral__verify_slots(s) && corral__verify_lanes(s) && corral__verify_nodes(s) &&
           corral__verify_heaps(s) && corral__verify_pools(s);
}
