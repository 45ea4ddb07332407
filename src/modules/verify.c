/*
    verify.c -- corral_verify: every invariant of the arena, checked; and
    the same checks over a snapshot's contents before corral_restore
    writes any of them.

    For tests, the model-based random test, the fuzzers and debug tools: it
    walks every touched slot, lane, node, heap, list and pool once and
    reports the first invariant that does not hold (CORRAL_ERR_CORRUPT,
    with the invariant as the message's detail). Every index it follows is
    checked before it is followed, so it reads nothing outside what it
    checks, whatever the state holds.

    The checks read an image (corral__image): the live block, or the
    sections of a snapshot (snapshot.c sets one up; a snapshot is read by
    copying, as it need not be aligned). What a snapshot leaves out lies
    past a bump and is free by construction: a slot past its page's bump
    reads as free, a node or chunk past its bump as none.
*/
#include "../corral_internal.h"

#include <string.h>

#define CORRAL__BAD(what)  \
    do {                   \
        m->why = (what);   \
        return false;      \
    } while (0)

/* ---- reading the image */

static const void *corral__image_read(corral__image *m, size_t at, void *tmp, size_t n)
{
    memcpy(tmp, m->snap + at, n);
    return tmp;
}
static const corral__page *corral__image_page(corral__image *m, uint32_t ci, uint32_t pi, corral__page *tmp)
{
    if (!m->snap) return &corral__pages(m->blk, &m->s->arena.classes[ci])[pi];
    return (const corral__page *)corral__image_read(m, m->pages_at[ci] + (size_t)pi * sizeof *tmp, tmp, sizeof *tmp);
}
/* where page pi's slots (then their meta) start in the snapshot */
static size_t corral__image_data(corral__image *m, uint32_t ci, uint32_t pi)
{
    uint64_t at;
    memcpy(&at, m->snap + m->data_at[ci] + (size_t)pi * sizeof at, sizeof at);
    return (size_t)at;
}
/* page pi of class ci in a snapshot: its bump, where its slots start (the
   last page asked for is kept: the walks go page by page) */
static uint32_t corral__image_page_data(corral__image *m, uint32_t ci, uint32_t pi, size_t *data)
{
    if (m->last_ci != ci || m->last_pi != pi) {
        corral__page pt;
        m->last_bump = corral__image_page(m, ci, pi, &pt)->bump;
        m->last_data = corral__image_data(m, ci, pi);
        m->last_ci = ci;
        m->last_pi = pi;
    }
    *data = m->last_data;
    return m->last_bump;
}
/* slot k of class ci (a free one past its page's bump, in a snapshot) */
static const corral_co *corral__image_co(corral__image *m, uint32_t ci, uint32_t k, corral_co *tmp)
{
    const corral__class *c = &m->s->arena.classes[ci];
    if (!m->snap) return CORRAL__CO(m->blk, corral__slot_off(c, k));
    size_t data;
    uint32_t j = k & ((1u << c->page_shift) - 1u);
    if (j >= corral__image_page_data(m, ci, k >> c->page_shift, &data)) {
        memset(tmp, 0, sizeof *tmp);
        tmp->gen = 1;
        tmp->link = CORRAL__NIL;
        return tmp;
    }
    return (const corral_co *)corral__image_read(m, data + (size_t)j * c->slot_size, tmp, sizeof *tmp);
}
static const corral__meta *corral__image_meta(corral__image *m, uint32_t ci, uint32_t k, corral__meta *tmp)
{
    const corral__class *c = &m->s->arena.classes[ci];
    if (!m->snap) return &corral__meta_table(m->blk)[c->first + k];
    size_t data;
    uint32_t j = k & ((1u << c->page_shift) - 1u), bump = corral__image_page_data(m, ci, k >> c->page_shift, &data);
    if (j >= bump) {
        corral__meta_reset(tmp);
        return tmp;
    }
    size_t at = data + (size_t)bump * c->slot_size + (size_t)j * sizeof *tmp;
    return (const corral__meta *)corral__image_read(m, at, tmp, sizeof *tmp);
}
/* a slot's side record: corral__side_none when it has none, NULL when its
   index is past the records ever taken */
static const corral__side *corral__image_side_index(corral__image *m, uint32_t i, corral__side *tmp) /* i < bump */
{
    if (!m->snap) return &corral__sides(m->blk)[i];
    return (const corral__side *)corral__image_read(m, m->sides_at + (size_t)i * sizeof *tmp, tmp, sizeof *tmp);
}
/* a snapshot's k-th record in use, by owner: its owner (half 0) or its index (half 1) */
static uint32_t corral__image_sided(const corral__image *m, uint32_t k, uint32_t half)
{
    uint32_t v;
    memcpy(&v, m->snap + m->sided_at + ((size_t)k * 2u + half) * sizeof v, sizeof v);
    return v;
}
/* the side record of the coroutine at global slot g (its meta md):
   corral__side_none when it has none, NULL when no record is its. The
   live block's lookup finds it; a snapshot holds no lookup (a restore
   rebuilds it) but its records in use in their owners' order, searched. */
static const corral__side *corral__image_side(corral__image *m, const corral__meta *md, uint32_t g, corral__side *tmp)
{
    if (!corral__co_sided(md)) return corral__side_none();
    if (!m->snap) {
        const uint32_t i = corral__side_find(m->blk, g);
        return i < m->s->sides.bump ? &corral__sides(m->blk)[i] : NULL;
    }
    /* the snapshot's records in use, by owner: the walk asks in that order,
       so the pair found last or the next one is it, else a search */
    const uint32_t n = m->s->sides.count - m->s->sides.free_count;
    uint32_t lo = 0, hi = n;
    if (m->last_sided < n) {
        const uint32_t at = m->last_sided, owner = corral__image_sided(m, at, 0);
        if (owner == g) lo = hi = at;
        else if (owner > g) hi = at;
        else if (at + 1u < n && corral__image_sided(m, at + 1u, 0) >= g) lo = hi = at + 1u;
        else lo = at + 1u;
    }
    for (uint32_t len = hi - lo; len > 1;) { /* the first of [lo, hi) whose owner is g or more: no branch a step */
        const uint32_t half = len / 2u;
        lo = corral__image_sided(m, lo + half - 1u, 0) < g ? lo + half : lo;
        len -= half;
    }
    if (lo < hi && corral__image_sided(m, lo, 0) < g) lo++;
    if (lo == n || corral__image_sided(m, lo, 0) != g) return NULL;
    m->last_sided = lo;
    const uint32_t i = corral__image_sided(m, lo, 1);
    if (i >= m->s->sides.bump) return NULL; /* verify_free_sides says why */
    const corral__side *sd = corral__image_side_index(m, i, tmp);
    return sd->owner == g ? sd : NULL;
}
/* the side record of the coroutine at class ci, slot k (none: NIL links) */
static const corral__side *corral__image_side_at(corral__image *m, uint32_t ci, uint32_t k, corral__side *tmp)
{
    corral__meta mt;
    const corral__side *sd = corral__image_side(m, corral__image_meta(m, ci, k, &mt), m->s->arena.classes[ci].first + k, tmp);
    return sd ? sd : corral__side_none();
}
/* what a type is (its class, context, vtable): the live entry, which a
   snapshot's must be (corral_restore checks) */
static const corral__type_entry *corral__image_what(const corral__image *m, uint32_t t) { return &corral__types(m->blk)[t]; }
/* the class and index of a slot from its offset, or of a global index */
static bool corral__image_slot(const corral_sched *s, uint32_t off, uint32_t *ci, uint32_t *k)
{
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *c = &s->arena.classes[i];
        if (off < c->base || (uint64_t)off - c->base >= (uint64_t)c->capacity * c->slot_size) continue;
        uint32_t local = corral__slot_local(c, off); /* exact only at a slot's start: */
        if (local >= c->capacity || corral__slot_off(c, local) != off) return false;
        *ci = i;
        *k = local;
        return true;
    }
    return false;
}
static bool corral__image_global(const corral_sched *s, uint32_t g, uint32_t *ci, uint32_t *k)
{
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *c = &s->arena.classes[i];
        if (g >= c->first && g - c->first < c->capacity) {
            *ci = i;
            *k = g - c->first;
            return true;
        }
    }
    return false;
}
/* node i, or NULL when it is out of range or untouched (past its part's bump) */
static const corral__node *corral__image_node(corral__image *m, uint32_t i, corral__node *tmp)
{
    const corral_sched *s = m->s;
    bool wait = i < s->nodes.wait_bump, group = i >= s->nodes.wait_count && i < s->nodes.group_bump;
    if (!wait && !group) return NULL;
    if (!m->snap) return &corral__nodes(m->blk)[i];
    size_t at = wait ? m->wait_at + (size_t)i * sizeof *tmp : m->group_at + (size_t)(i - s->nodes.wait_count) * sizeof *tmp;
    return (const corral__node *)corral__image_read(m, at, tmp, sizeof *tmp);
}
static uint32_t corral__image_u32(corral__image *m, const uint32_t *live, size_t at, uint32_t i)
{
    if (!m->snap) return live[i];
    uint32_t v;
    memcpy(&v, m->snap + at + (size_t)i * sizeof v, sizeof v);
    return v;
}
/* a run-queue entry (i < chunk_bump * CHUNK), the chunk after c (c < chunk_bump) */
static uint32_t corral__image_entry(corral__image *m, uint32_t e) { return corral__image_u32(m, corral__entries(m->blk), m->entries_at, e); }
static uint32_t corral__image_next(corral__image *m, uint32_t c) { return corral__image_u32(m, corral__chunk_next(m->blk), m->next_at, c); }
/* entry pos of heap h (pos < its length) */
static corral__heap_entry corral__image_heap_entry(corral__image *m, uint32_t h, uint32_t pos)
{
    if (!m->snap) return CORRAL__HEAP_AT(corral__heap(m->blk, h), pos);
    corral__heap_entry e; /* a snapshot holds each heap in heap order */
    memcpy(&e, m->snap + m->heap_at[h] + (size_t)pos * sizeof e, sizeof e);
    return e;
}
static uint32_t corral__image_heap(corral__image *m, uint32_t h, uint32_t pos)
{
    return corral__image_heap_entry(m, h, pos).ref;
}
static uint32_t corral__image_owner(corral__image *m, uint32_t w)
{
    return corral__image_u32(m, (const uint32_t *)(const void *)CORRAL__AT(m->blk, m->blk->groups.owner_off), m->owner_at, w);
}
#define CORRAL__IMAGE_ARRAY(fn, T, live, field)                                                        \
    static const T *fn(corral__image *m, uint32_t i, T *tmp)                               \
    {                                                                                           \
        if (!m->snap) return &live(m->blk)[i];                                                  \
        return (const T *)corral__image_read(m, m->field + (size_t)i * sizeof *tmp, tmp, sizeof *tmp); \
    }
CORRAL__IMAGE_ARRAY(corral__image_lane, corral__lane, corral__lanes, lanes_at)
CORRAL__IMAGE_ARRAY(corral__image_type, corral__type_entry, corral__types, types_at)
static bool corral__at_rest(const corral_sched *s) { return s->now.depth == 0 && !s->now.in_tick; }

/* ---- the checks */

/* Each page's free list stays in the page, holds free slots only, and
   matches its count; each page is on the list its counts call for, once. */
static bool corral__verify_pages(corral__image *m, uint32_t ci, uint32_t *free_total)
{
    const corral__class *c = &m->s->arena.classes[ci];
    uint32_t on_list[3] = {0, 0, 0};
    corral__page pt;
    corral_co ct;
    for (uint32_t pi = 0; pi < c->page_count; pi++) {
        const corral__page pg = *corral__image_page(m, ci, pi, &pt);
        uint32_t first = pi << c->page_shift, n = 0, size = 1u << c->page_shift;
        uint32_t end = first + size < c->capacity ? first + size : c->capacity;
        if (pg.slots != end - first) CORRAL__BAD("a page's slot count is wrong");
        if (pg.bump > pg.slots) CORRAL__BAD("a page's bump is past its slots");
        for (uint32_t k = pg.free_head; k != CORRAL__NIL; k = corral__image_co(m, ci, k, &ct)->link) {
            if (k < first || k >= first + pg.bump) CORRAL__BAD("a page's free list links out of its touched slots");
            if (++n > pg.slots) CORRAL__BAD("a free list has a cycle");
            if (corral__image_co(m, ci, k, &ct)->state != CORRAL__FREE)
                CORRAL__BAD("a slot on a free list is not free (double free?)");
        }
        if (!m->snap) /* a snapshot holds no slot past a bump: free by construction */
            for (uint32_t k = first + pg.bump; k < end; k++)
                if (corral__image_co(m, ci, k, &ct)->state != CORRAL__FREE) CORRAL__BAD("a slot past its page's bump is not free");
        n += pg.slots - pg.bump;
        if (n != pg.free_count) CORRAL__BAD("a page's free count does not match its free list and bump");
        if (pg.list > CORRAL__PAGE_PARTIAL) CORRAL__BAD("a page is on an unknown list");
        if (pg.list == CORRAL__PAGE_EMPTY && (pg.bump != 0 || pg.free_head != CORRAL__NIL))
            CORRAL__BAD("a page on the empty list is not back to untouched");
        if ((pg.list == CORRAL__PAGE_FULL) != (n == 0) || (pg.list == CORRAL__PAGE_EMPTY && n != pg.slots))
            CORRAL__BAD("a page is on the wrong list");
        on_list[pg.list]++;
        *free_total += n;
    }
    const uint32_t heads[2] = {c->empty_head, c->partial_head};
    for (uint8_t l = CORRAL__PAGE_EMPTY; l <= CORRAL__PAGE_PARTIAL; l++) {
        uint32_t n = 0, prev = CORRAL__NIL;
        for (uint32_t pi = heads[l - 1]; pi != CORRAL__NIL;) {
            if (pi >= c->page_count) CORRAL__BAD("a page list links past its class");
            if (++n > c->page_count) CORRAL__BAD("a page list has a cycle");
            const corral__page *pg = corral__image_page(m, ci, pi, &pt);
            if (pg->list != l || pg->prev != prev) CORRAL__BAD("a page list is broken");
            prev = pi;
            pi = pg->next;
        }
        if (n != on_list[l]) CORRAL__BAD("a page is missing from its list");
    }
    return true;
}

/* every touched slot of every class: k in [first, first + bump) of each page */
#define CORRAL__EACH_TOUCHED(m, ci, c, k)                                                             \
    for (uint32_t ci = 0; ci < (m)->s->arena.class_count; ci++)                                         \
        for (const corral__class *c = &(m)->s->arena.classes[ci]; c; c = NULL)                          \
            for (uint32_t pi_ = 0; pi_ < c->page_count; pi_++)                                          \
                for (uint32_t k = pi_ << c->page_shift,                                                 \
                              end_ = k + corral__image_page((m), ci, pi_, &(corral__page){0})->bump;         \
                     k < end_; k++)

static bool corral__verify_slots(corral__image *m)
{
    const corral_sched *s = m->s;
    uint32_t live_of_type[256] = {0}; /* types beyond 256 are checked only in total */
    uint64_t live = 0, slot_bytes = 0, ctx_bytes = 0;
    corral__type_entry tt;
    corral_co ct;
    uint32_t free_n[CORRAL_MAX_CLASSES] = {0}, used[CORRAL_MAX_CLASSES] = {0}, retired[CORRAL_MAX_CLASSES] = {0};
    uint32_t uncounted_ci = CORRAL__NIL; /* the class of a first step's coroutine not counted yet */
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++)
        if (!corral__verify_pages(m, ci, &free_n[ci])) return false;
    CORRAL__EACH_TOUCHED(m, ci, c, k) {
        const corral_co *co = corral__image_co(m, ci, k, &ct);
        if (co->gen == 0) CORRAL__BAD("a slot has generation 0");
        if ((co->state > CORRAL__DEFERRED && !corral__paused(co->state)) || co->state > (CORRAL__HELD | CORRAL__HOLD_MASK))
            CORRAL__BAD("a slot has an unknown state");
        corral__meta mt;
        const corral__meta *sm = corral__image_meta(m, ci, k, &mt);
        if (co->state == CORRAL__RETIRED || co->state == CORRAL__FREE) {
            if (corral__co_sided(sm)) CORRAL__BAD("a free slot says it holds a side record");
            retired[ci] += co->state == CORRAL__RETIRED;
            continue;
        }
        /* STOPPING (an end reason over the request) is never at rest */
        if (corral__at_rest(s) &&
            (corral__co_stop_why(sm) & ~(CORRAL__STOP_REQUESTED | CORRAL__WAIT_CLOSED | CORRAL__GOT_MASK)))
            CORRAL__BAD("a coroutine's stop bits hold what no coroutine at rest has");
        used[ci]++;
        if (corral__at_rest(s) && (co->flags & (CORRAL__NEXT_FRAME_FLAG | CORRAL__PHASE_WAIT_FLAG)))
            CORRAL__BAD("a coroutine kept what its last step asked of the resume contract");
        if (corral__at_rest(s) && (co->flags & (CORRAL__ONSTACK_FLAG | CORRAL__PAUSE_FLAG)))
            CORRAL__BAD("a coroutine says its step is on the C stack between ticks");
        if ((co->flags & CORRAL__PHASE_MASK) >= s->run.phases) CORRAL__BAD("a coroutine lives in no phase");
        if (co->type >= s->types.type_count) CORRAL__BAD("a live slot names no type");
        const corral__type_entry *te = corral__image_what(m, co->type);
        if (te->cls != ci) CORRAL__BAD("a live slot's type belongs to another class");
        if (corral__state_alive(co->state)) {
            if (s->now.uncounted && s->now.uncounted == corral__slot_off(c, k)) uncounted_ci = ci;
            live++;
            if (co->type < 256) live_of_type[co->type]++;
            ctx_bytes += te->ctx_size;
        }
    }
    if (s->now.uncounted && (uncounted_ci == CORRAL__NIL || corral__at_rest(s)))
        CORRAL__BAD("the coroutine a first step has not counted yet is no live slot, or no step runs");
    if (s->now.uncounted && !m->snap) { /* nothing raised a count since its peaks covered it (corral__first_step) */
        const corral__type_entry *ut = corral__image_what(m, CORRAL__CO(s, s->now.uncounted)->type);
        if (!ut->plain || ut->peak_epoch != s->arena.epoch)
            CORRAL__BAD("the coroutine a first step has not counted yet is of a type whose peaks may not cover it");
    }
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        if (free_n[ci] + used[ci] + retired[ci] != c->capacity)
            CORRAL__BAD("a class's free + used + retired != capacity");
        if (used[ci] != c->used + (ci == uncounted_ci)) CORRAL__BAD("a class's used counter is wrong");
        if (retired[ci] != c->retired) CORRAL__BAD("a class's retired counter is wrong");
        if (c->peak < c->used) CORRAL__BAD("a class's peak is below its use");
        slot_bytes += (uint64_t)c->used * c->slot_size;
        uint64_t want = 0; /* budgets: each unused one reserved */
        for (uint32_t t = 0; t < s->types.type_count; t++) {
            const corral__type_entry *te = corral__image_type(m, t, &tt);
            if (te->cls == ci && te->budget) want += te->budget - (te->live < te->budget ? te->live : te->budget);
            if (te->cls == ci && te->page != CORRAL__NIL && te->page >= c->page_count)
                CORRAL__BAD("a type's page is out of its class");
        }
        if (corral__at_rest(s) && want != c->reserved)
            CORRAL__BAD("a class's reservations are not its budgeted types' unused budgets");
    }
    if (corral__at_rest(s)) { /* no slot between states on the C stack */
        if (live != s->arena.live) CORRAL__BAD("the live counter is wrong");
        if (slot_bytes != s->arena.slot_bytes) CORRAL__BAD("the slot bytes counter is wrong");
        if (ctx_bytes != s->arena.ctx_bytes) CORRAL__BAD("the context bytes counter is wrong");
        for (uint32_t t = 0; t < s->types.type_count && t < 256; t++)
            if (live_of_type[t] != corral__image_type(m, t, &tt)->live) CORRAL__BAD("a type's live counter is wrong");
    }
    if (s->arena.live_peak < s->arena.live || s->arena.slot_bytes_peak < s->arena.slot_bytes || s->arena.ctx_bytes_peak < s->arena.ctx_bytes)
        CORRAL__BAD("a peak is below its current value");
    if (s->arena.epoch == 0) CORRAL__BAD("the counts' epoch is 0");
    for (uint32_t t = 0; t < s->types.type_count; t++) { /* peaks it says cover one more of a type do */
        const corral__type_entry *te = corral__image_type(m, t, &tt);
        if (te->peak_epoch != s->arena.epoch || te->cls >= s->arena.class_count) continue;
        const corral__class *c = &s->arena.classes[te->cls];
        if (te->peak <= te->live || c->peak <= c->used || s->arena.live_peak <= s->arena.live ||
            s->arena.slot_bytes_peak < s->arena.slot_bytes + c->slot_size ||
            s->arena.ctx_bytes_peak < s->arena.ctx_bytes + te->ctx_size)
            CORRAL__BAD("a type's peaks do not cover one more of it, as its peak_epoch says");
    }
    return true;
}

static bool corral__verify_lanes(corral__image *m)
{
    const corral_sched *s = m->s;
    const uint32_t bump = s->run.chunk_bump;
    uint32_t chunks = 0, eci, ek, in_lanes = 0, queued = 0;
    corral_co ct;
    corral__lane lt;
    const uint32_t ready = corral__ready_lane(s);
    for (uint32_t l = 0; l < s->run.lane_count; l++) {
        const corral__lane L = *corral__image_lane(m, l, &lt);
        uint32_t c = L.head, tombs = 0;
        /* NIL: no entry to drain (always so between ticks) */
        if (l == ready && (s->run.ready_read == CORRAL__NIL ? L.count != 0
                                                            : s->run.ready_read > L.count ||
                                                                  s->run.ready_read > CORRAL__CHUNK || corral__at_rest(s)))
            CORRAL__BAD("the ready lane's drain is past its entries, or it holds some between ticks");
        for (uint32_t e = 0; e < L.count; e++) {
            if (e && e % CORRAL__CHUNK == 0) c = corral__image_next(m, c);
            if (c == CORRAL__NIL || c >= bump) CORRAL__BAD("a lane is shorter than its count");
            uint32_t at = c * CORRAL__CHUNK + e % CORRAL__CHUNK, off = corral__image_entry(m, at);
            if (l == ready && e < s->run.ready_read && off != CORRAL__NIL)
                CORRAL__BAD("an entry the ready lane's drain has read is not a tombstone");
            if (off == CORRAL__NIL) {
                /* a pool run dry compacts only lanes that count tombstones */
                if (++tombs > L.tombs && s->run.walking_lane != l) CORRAL__BAD("a lane holds more tombstones than it counts");
                continue;
            }
            if (!corral__image_slot(s, off, &eci, &ek)) CORRAL__BAD("a lane entry names no slot");
            const corral_co *co = corral__image_co(m, eci, ek, &ct);
            if (co->link != at) CORRAL__BAD("a lane entry and its coroutine disagree");
            if (l == ready ? co->state != CORRAL__READY : co->state != CORRAL__QUEUED && co->state != CORRAL__DEFERRED)
                CORRAL__BAD("a lane entry names a coroutine that is not queued (ready in the ready lane)");
            if (l != ready && corral__lane_of(s, co) != l)
                CORRAL__BAD("a coroutine sits in another phase's or type's lane");
            in_lanes++;
        }
        uint32_t held = 0, last = CORRAL__NIL;
        for (c = L.head; c != CORRAL__NIL; c = corral__image_next(m, c)) {
            if (c >= bump || ++chunks > s->run.chunk_count) CORRAL__BAD("a lane's chunk chain has a cycle or leaves the pool");
            held++;
            last = c;
        }
        if (L.tail != last) CORRAL__BAD("a lane's tail is not the last chunk of its chain");
        if (L.cap != held * CORRAL__CHUNK || L.walk_end > L.count) CORRAL__BAD("a lane's capacity is not its chunks' entries");
        /* (the ready lane read through keeps its chunk) */
        if (s->run.walking_lane != l && held != (L.count + CORRAL__CHUNK - 1) / CORRAL__CHUNK &&
            !(l == ready && L.count == 0 && held == 1))
            CORRAL__BAD("a lane holds more chunks than its entries need");
        if (L.walk_limit && !m->blk->parts.feature[CORRAL__FEATURE_BUDGET])
            CORRAL__BAD("a lane's run is limited by a budget stop on a scheduler without the budget part");
    }
    /* an entry a slot and a chunk a lane (and 3) hold every queued coroutine
       and what a walk leaves until the pool runs dry (lanes.c) */
    if (s->run.chunk_count != corral__chunks_for(s->arena.total_slots, s->run.lane_count) || in_lanes > s->arena.total_slots)
        CORRAL__BAD("the run queue's chunks are not what the plan gives for the slots and lanes");
    if (bump > s->run.chunk_count) CORRAL__BAD("the chunk bump is past the pool");
    for (uint32_t c = s->run.chunk_free; c != CORRAL__NIL; c = corral__image_next(m, c))
        if (c >= bump || ++chunks > s->run.chunk_count || corral__image_entry(m, c * CORRAL__CHUNK) != CORRAL__FREE_CHUNK)
            CORRAL__BAD("the free chunks and the lanes overlap");
    chunks += s->run.chunk_count - bump;
    if (chunks != s->run.chunk_count) CORRAL__BAD("a chunk is lost (in no lane and not free)");
    /* every queued or ready coroutine is where its link says */
    CORRAL__EACH_TOUCHED(m, ci, c, k) {
        const corral_co *co = corral__image_co(m, ci, k, &ct);
        if ((co->state != CORRAL__QUEUED && co->state != CORRAL__DEFERRED && co->state != CORRAL__READY) ||
            corral__slot_off(c, k) == s->run.running)
            continue;
        if (co->link >= bump * CORRAL__CHUNK || corral__image_entry(m, co->link) != corral__slot_off(c, k))
            CORRAL__BAD("a queued coroutine is in no lane");
        queued++;
    }
    if (queued + (s->run.running != CORRAL__NIL) != in_lanes)
        CORRAL__BAD("a queued coroutine's entry is past its lane's count");
    return true;
}

/* node i is in the chain (wait or groups) of the coroutine it names */
static bool corral__in_chain(corral__image *m, uint32_t i, const corral__node *n, bool group)
{
    uint32_t ci, k, len = 0;
    corral_co ct;
    corral__meta mt;
    corral__node nt;
    if (!corral__image_slot(m->s, n->co, &ci, &k)) return false;
    const corral_co *cc = corral__image_co(m, ci, k, &ct);
    if (!corral__state_alive(cc->state)) return false;
    const corral__meta *cm = corral__image_meta(m, ci, k, &mt);
    corral__side st;
    const corral__side *cs = corral__image_side_at(m, ci, k, &st);
    (void)cm;
    for (uint32_t j = group ? cs->groups : corral__wait_by(cc, cs); j != CORRAL__NIL && len++ < CORRAL__GROUP_CHAIN_MAX;) {
        if (j == i) return true;
        const corral__node *o = corral__image_node(m, j, &nt);
        if (!o) return false;
        j = o->sibling;
    }
    return false;
}

/* What a list of nodes may hold: its kinds and what each must name */
enum { CORRAL__BY_TARGET, CORRAL__BY_LIST, CORRAL__BY_BUCKET, CORRAL__BY_TAG };
typedef struct corral__list_rule {
    uint8_t kind, kind2, by, group;
    uint32_t want;
} corral__list_rule;

/* one list: each node of its kind and naming its container, linked both
   ways, attached, in its coroutine's chain; its tail the last */
static bool corral__verify_list(corral__image *m, uint32_t head, uint32_t tail, corral__list_rule r, uint32_t *found)
{
    uint32_t prev = CORRAL__NIL, n = 0, limit = m->s->nodes.count;
    corral__node nt;
    for (uint32_t i = head; i != CORRAL__NIL;) {
        const corral__node *nd = corral__image_node(m, i, &nt);
        if (!nd || ++n > limit) CORRAL__BAD("a wait list links an untouched node or has a cycle");
        uint32_t got = r.by == CORRAL__BY_TARGET ? nd->u.t.target
                       : r.by == CORRAL__BY_LIST ? nd->list
                       : r.by == CORRAL__BY_BUCKET ? nd->u.g.bucket
                                                   : nd->u.g.tag;
        const bool owned = r.kind == CORRAL_WAIT_JOIN && nd->kind == CORRAL__NODE_OWNED; /* a generator it owns */
        if ((nd->kind != r.kind && nd->kind != r.kind2 && !owned) || got != r.want || nd->prev != prev ||
            nd->attached != 1)
            CORRAL__BAD("a wait list holds a node of another kind, container or link");
        if (r.group && nd->list != 0) CORRAL__BAD("a group node is on a side list between operations");
        if (!corral__in_chain(m, i, nd, r.group || owned)) CORRAL__BAD("a listed node is in no chain of its coroutine");
        prev = i;
        i = nd->next;
    }
    if (tail != prev) CORRAL__BAD("a wait list's tail is not its last node");
    *found += n;
    return true;
}

/* A predicate a node calls: in a snapshot, one the scheduler knows */
static bool corral__known_predicate(corral__image *m, corral_predicate fn)
{
    return !m->snap || corral__predicate_known(m->blk, fn);
}

/* In a snapshot, the argument of a predicate desc.predicates registers as
   reading through it (CORRAL_PREDICATE_CONTEXT) is NULL or in the context
   room of a slot of the block it was taken in (polls.base): where a wait
   may give it (a live context's byte) and where it stays when the
   coroutine holding it ends. The restore moves it into this block. Any
   other predicate's argument comes back as the snapshot holds it (API.md,
   "Rollback"). */
static bool corral__image_place(corral__image *m, const corral__node *n)
{
    if (!m->snap || !n->u.p.user || !corral__predicate_takes_address(m->blk, n->u.p.fn)) return true;
    const corral_sched *s = m->s;
    const uint64_t a = (uint64_t)(uintptr_t)n->u.p.user, base = s->polls.base; /* the block it was taken in */
    uint32_t ci, k;
    if (a < base || !corral__slot_at(s, a - base, &ci, &k)) return false;
    return a - base - corral__slot_off(&s->arena.classes[ci], k) >= CORRAL__HEADER_SIZE;
}

/* a result or value of n bytes at byte `at` of a slot of type te: inside its context */

/* a live coroutine at global slot g (a join's target) */
static bool corral__image_alive(corral__image *m, uint32_t g)
{
    uint32_t ci, k;
    corral_co ct;
    return corral__image_global(m->s, g, &ci, &k) && corral__state_alive(corral__image_co(m, ci, k, &ct)->state);
}

/* one wait node of a coroutine (global g, type te): its kind, its container, its target */
static bool corral__verify_wait_node(corral__image *m, uint32_t i, const corral__node *n, uint32_t g,
                                     const corral__type_entry *te, uint32_t *listed)
{
    const corral_sched *s = m->s;
    if (n->member >= CORRAL_MAX_GROUP || n->attached > 2) CORRAL__BAD("a wait node is malformed");
    if (corral__kind_is(n->kind, CORRAL__HOW_TIMER)) {
        if (n->u.t.due != n->u.t.due) CORRAL__BAD("a timer is due at no time (NaN)"); /* a heap cannot order it */
        if (n->attached == 1 && (n->list >= s->timers.heaps || n->next >= s->timers.heap_len[n->list] ||
                                 corral__image_heap(m, n->list, n->next) != i))
            CORRAL__BAD("a timer is not where its heap position says");
        return true;
    }
    if (corral__kind_is(n->kind, CORRAL__HOW_POLL)) {
        bool on_list = n->list < s->run.phases || n->list == CORRAL__PRED_POLL ||
                       (n->list >= CORRAL__PRED_NEXT && n->list < CORRAL__PRED_NEXT + s->run.phases);
        if (!on_list || !corral__known_predicate(m, n->u.p.fn)) CORRAL__BAD("a predicate is on no list, or unknown");
        if (!corral__image_place(m, n))
            CORRAL__BAD("a predicate that reads through its argument (desc.predicates) has one in no slot's context room");
        *listed += n->attached == 1;
        return true;
    }
    if (!corral__kind_is(n->kind, CORRAL__HOW_LIST)) CORRAL__BAD("a wait node has a kind that takes no node");
    const corral__wait_part *p = corral__wait_part_of(m->blk, n->kind);
    if (!p) CORRAL__BAD("a wait node is of a kind whose part the scheduler has not (desc.parts)");
    if (n->attached != 1 || !p->list) return true; /* fired (in an all): what it waited on may be gone;
                                                      no list: in no container (a stop wait) */
    const corral__vquery q = {m, te, g, corral__pool_image_item, corral__image_alive};
    if (p->verify && !p->verify(&q, n)) CORRAL__BAD("a wait names a signal, future, coroutine, channel or count that is not there");
    (*listed)++;
    return true;
}

/* the result size of the coroutine at global g (0 if none) */
static uint32_t corral__result_of(corral__image *m, uint32_t g)
{
    uint32_t ci, k;
    corral_co ct;
    if (!corral__image_global(m->s, g, &ci, &k)) return UINT32_MAX;
    const corral_co *co = corral__image_co(m, ci, k, &ct);
    if (co->type >= m->s->types.type_count) return UINT32_MAX;
    return corral__image_what(m, co->type)->vt->result_size;
}

/* the wait and group nodes' free lists: in their part, untouched by none
   past the bump, no cycle, their counts right */
static bool corral__verify_free_nodes(corral__image *m)
{
    const corral_sched *s = m->s;
    uint32_t n = 0;
    corral__node nt;
    if (s->nodes.wait_bump > s->nodes.wait_count || s->nodes.group_bump < s->nodes.wait_count ||
        s->nodes.group_bump > s->nodes.count)
        CORRAL__BAD("a node bump is out of its part");
    for (uint32_t i = s->nodes.wait_free; i != CORRAL__NIL; i = corral__image_node(m, i, &nt)->sibling) {
        if (i >= s->nodes.wait_bump || corral__image_node(m, i, &nt)->co != CORRAL__NIL)
            CORRAL__BAD("the wait node free list holds an untouched, used or group node");
        if (++n > s->nodes.wait_count) CORRAL__BAD("the wait node free list has a cycle");
    }
    if (n + s->nodes.wait_count - s->nodes.wait_bump != s->nodes.wait_free_count)
        CORRAL__BAD("the free wait node count is wrong");
    n = 0;
    for (uint32_t i = s->nodes.group_free; i != CORRAL__NIL; i = corral__image_node(m, i, &nt)->sibling) {
        if (i < s->nodes.wait_count || i >= s->nodes.group_bump || corral__image_node(m, i, &nt)->co != CORRAL__NIL)
            CORRAL__BAD("the group node free list holds an untouched, used or wait node");
        if (++n > s->nodes.count - s->nodes.wait_count) CORRAL__BAD("the group node free list has a cycle");
    }
    if (n + s->nodes.count - s->nodes.group_bump != s->nodes.group_free_count)
        CORRAL__BAD("the free group node count is wrong");
    return true;
}

/* the side records' free list: before the bump, none in use, no cycle,
   its count right */
static bool corral__verify_free_sides(corral__image *m)
{
    const corral_sched *s = m->s;
    uint32_t n = 0;
    corral__side st;
    if (s->sides.bump > s->sides.count || s->sides.free_count > s->sides.count ||
        s->sides.free_count < s->sides.count - s->sides.bump)
        CORRAL__BAD("the side records' bump or free count is out of range");
    for (uint32_t i = s->sides.free; i != CORRAL__NIL;) {
        if (i >= s->sides.bump) CORRAL__BAD("the side record free list holds an untouched record");
        if (++n > s->sides.bump) CORRAL__BAD("the side record free list has a cycle");
        const corral__side *f = corral__image_side_index(m, i, &st);
        if (f->owner != CORRAL__NIL) CORRAL__BAD("the side record free list holds a record in use");
        i = f->parent;
    }
    if (n + s->sides.count - s->sides.bump != s->sides.free_count) CORRAL__BAD("the free side record count is wrong");
    if (!m->snap && !corral__side_lookup_sound(m->blk)) CORRAL__BAD("the side records' lookup does not hold each record in use once");
    for (uint32_t k = 0, last = 0; m->snap && k < s->sides.count - s->sides.free_count; k++) {
        const uint32_t g = corral__image_sided(m, k, 0), i = corral__image_sided(m, k, 1);
        if (i >= s->sides.bump) CORRAL__BAD("a snapshot's list of side records in use names one never taken");
        if (corral__image_side_index(m, i, &st)->owner != g || g == CORRAL__NIL || (k && g <= last))
            CORRAL__BAD("a snapshot's list of side records in use is not one each, its owner's, in their order");
        last = g;
    }
    return true;
}

/* what the coroutines' nodes and side records add up to, for the counts
   and lists checked after them */
typedef struct corral__node_tally {
    uint32_t wait_used, group_used; /* nodes on the coroutines' chains */
    uint32_t listed;                /* attached nodes that must be on a list */
    uint32_t sided;                 /* coroutines with a side record */
} corral__node_tally;

/* a coroutine's wait chain (at off, global g): its own wait nodes, each of
   a part the scheduler has; a race's or sync's arms name children that
   name it, their results in place, counted right */
static bool corral__verify_wait_chain(corral__image *m, uint32_t off, uint32_t g, const corral_co *co,
                                      const corral__meta *md, const corral__side *sd, const corral__type_entry *te,
                                      corral__node_tally *t)
{
    (void)md; /* its wait is its header's and its side record's */
    const corral_sched *s = m->s;
    corral__node nt;
    corral_co pct;
    corral__side pst;
    uint32_t pci, pk, len = 0, running = 0;
    const bool arms = sd->mode == CORRAL__MODE_RACE || sd->mode == CORRAL__MODE_SYNC;
    for (uint32_t i = corral__wait_by(co, sd); i != CORRAL__NIL;) {
        const corral__node *nd = corral__image_node(m, i, &nt);
        if (!nd || i >= s->nodes.wait_count) CORRAL__BAD("a wait chain holds a group or untouched node");
        if ((nd->kind == CORRAL__NODE_ARM || corral__kind_is(nd->kind, CORRAL__HOW_TIMER) ||
             corral__kind_is(nd->kind, CORRAL__HOW_POLL) || corral__kind_is(nd->kind, CORRAL__HOW_LIST)) &&
            !corral__node_part_of(m->blk, nd->kind))
            CORRAL__BAD("a wait node is of a kind whose part the scheduler has not (desc.parts)");
        if (nd->co != off) CORRAL__BAD("a wait node names another coroutine");
        if (++len > CORRAL_MAX_GROUP) CORRAL__BAD("a wait chain is too long (cycle?)");
        if ((nd->kind == CORRAL__NODE_ARM) != arms) CORRAL__BAD("a race's or sync's chain holds another kind");
        if (arms && nd->attached) CORRAL__BAD("an arm's node is in a container");
        if (arms && nd->u.t.target != CORRAL__NIL) {
            if (!corral__image_global(s, nd->u.t.target, &pci, &pk)) CORRAL__BAD("an arm's child is out of range");
            const corral_co *ch = corral__image_co(m, pci, pk, &pct);
            if (!corral__state_alive(ch->state) || corral__image_side_at(m, pci, pk, &pst)->parent != g)
                CORRAL__BAD("an arm's child does not name its caller as parent");
            uint32_t rs = corral__result_of(m, nd->u.t.target);
            if (nd->u.t.seq != CORRAL__NIL && (rs == UINT32_MAX || !corral__ctx_holds(te, nd->u.t.seq, rs)))
                CORRAL__BAD("an arm's result has no place in its caller");
            running++;
        }
        if (!arms && !corral__verify_wait_node(m, i, nd, g, te, &t->listed)) return false;
        i = nd->sibling;
    }
    if (arms && (running == 0 || (sd->mode == CORRAL__MODE_SYNC && sd->pending != running) ||
                 sd->child != CORRAL__NIL))
        CORRAL__BAD("a race or sync counts its arms wrong");
    t->wait_used += len;
    return true;
}

/* the coroutine at off (co: its header in the image) is a generator: held,
   or its step running (at rest, a snapshot's too, every one is held) */
static bool corral__image_generator(const corral__image *m, const corral_co *co, const corral__meta *md, uint32_t off)
{
    return (corral__co_hold(co, md) & CORRAL__HOLD_GENERATOR) ||
           (!m->snap && !corral__at_rest(m->s) && !corral__paused(co->state) &&
            corral__co_is_generator(m->s, CORRAL__CO(m->s, off)));
}

/* a coroutine's group chain: its owner and tag nodes, at most one stop
   deadline (a wait node in a heap) and one tie of a generator to its
   owner (a wait node on the owner's joiners list) */
static bool corral__verify_group_chain(corral__image *m, uint32_t off, uint32_t g, const corral_co *co,
                                       const corral__meta *md, const corral__side *sd, corral__node_tally *t)
{
    const corral_sched *s = m->s;
    corral__node nt;
    corral_co pct;
    uint32_t pci, pk, len = 0, deadlines = 0, owned = 0;
    for (uint32_t i = sd->groups; i != CORRAL__NIL;) {
        const corral__node *nd = corral__image_node(m, i, &nt);
        if (!nd) CORRAL__BAD("a group chain holds an untouched node");
        if (nd->co != off) CORRAL__BAD("a group node names another coroutine");
        if (nd->kind == CORRAL__NODE_DEADLINE) { /* a wait node in a heap, one at most */
            if (i >= s->nodes.wait_count || nd->attached != 1 || ++deadlines > 1 || nd->list >= s->timers.heaps ||
                nd->next >= s->timers.heap_len[nd->list] || corral__image_heap(m, nd->list, nd->next) != i)
                CORRAL__BAD("a stop deadline is not one wait node in a heap");
            t->wait_used++;
        } else if (nd->kind == CORRAL__NODE_OWNED) { /* a wait node on its owner's joiners list, one at most */
            if (i >= s->nodes.wait_count || nd->attached != 1 || ++owned > 1 ||
                !corral__image_generator(m, co, md, off) || nd->u.t.target == g ||
                !corral__image_global(s, nd->u.t.target, &pci, &pk) ||
                !corral__state_alive(corral__image_co(m, pci, pk, &pct)->state))
                CORRAL__BAD("a generator belongs to a coroutine that is not alive, or a coroutine that is not "
                            "a generator belongs to one");
            t->wait_used++;
            t->listed++; /* attached: found on its owner's joiners list below */
        } else {
            if (i < s->nodes.wait_count) CORRAL__BAD("a group chain holds a wait node");
            if ((nd->kind != CORRAL__NODE_OWNER && nd->kind != CORRAL__NODE_TAG) || nd->attached != 1 ||
                (nd->kind == CORRAL__NODE_TAG ? nd->u.g.tag >= 32u : nd->u.g.bucket > s->groups.owner_mask))
                CORRAL__BAD("a group node has a wait kind, or no group");
            if (++len > CORRAL__GROUP_NODES_MAX) CORRAL__BAD("a group chain is too long (cycle?)");
        }
        i = nd->sibling;
    }
    t->group_used += len;
    return true;
}

/* what a coroutine's state lets it wait on: a waiting one on something,
   and outside every step only the states a tick leaves, each with its
   waits */
static bool corral__verify_co_waits(corral__image *m, const corral_co *co, const corral__meta *md,
                                    const corral__side *sd)
{
    (void)md;
    const bool sleeps = corral__sleeps(co); /* its entry names it back: corral__verify_heaps */
    if (co->state == CORRAL__WAITING && corral__wait_by(co, sd) == CORRAL__NIL && sd->child == CORRAL__NIL && !sleeps)
        CORRAL__BAD("a waiting coroutine waits on nothing");
    if (sleeps && (sd->mode != CORRAL__MODE_NONE || sd->child != CORRAL__NIL))
        CORRAL__BAD("a plain sleep has a call's or a wait of several nodes' record");
    if (!corral__at_rest(m->s)) return true;
    const bool waits = corral__wait_by(co, sd) != CORRAL__NIL || sd->child != CORRAL__NIL || sleeps;
    if (co->state != CORRAL__QUEUED && co->state != CORRAL__DEFERRED && co->state != CORRAL__WAITING &&
        !corral__paused(co->state))
        CORRAL__BAD("a coroutine is in a state only a step or a tick passes through");
    if ((co->state == CORRAL__QUEUED || co->state == CORRAL__DEFERRED) && waits)
        CORRAL__BAD("a queued coroutine waits on something");
    const uint8_t hold = corral__co_hold(co, md);
    if (corral__paused(co->state) && waits != ((hold & CORRAL__HOLD_WAITING) && !(hold & CORRAL__HOLD_WOKEN)))
        CORRAL__BAD("a paused coroutine's hold does not match its wait");
    return true;
}

/* a call both ways: a caller's child names it as parent (its result in
   place), a child's parent awaits it (as its child or one of its arms) */
static bool corral__verify_call_links(corral__image *m, uint32_t g, const corral__side *sd, const corral__type_entry *te)
{
    const corral_sched *s = m->s;
    corral__node pt;
    corral_co pct;
    corral__side pst;
    uint32_t pci, pk;
    if (sd->child != CORRAL__NIL) {
        if (!corral__image_global(s, sd->child, &pci, &pk)) CORRAL__BAD("a child link is out of range");
        const corral_co *ch = corral__image_co(m, pci, pk, &pct);
        if (!corral__state_alive(ch->state) || corral__image_side_at(m, pci, pk, &pst)->parent != g)
            CORRAL__BAD("a caller's child does not name it as parent");
        uint32_t rs = corral__result_of(m, sd->child);
        if (sd->dest != CORRAL__NIL && (rs == UINT32_MAX || !corral__ctx_holds(te, sd->dest, rs)))
            CORRAL__BAD("a child's result has no place in its caller");
    }
    if (sd->parent != CORRAL__NIL) {
        if (!corral__image_global(s, sd->parent, &pci, &pk)) CORRAL__BAD("a parent link is out of range");
        const corral_co *pa = corral__image_co(m, pci, pk, &pct);
        const corral__side *ps = corral__image_side_at(m, pci, pk, &pst);
        bool awaited = ps->child == g;
        if (ps->mode == CORRAL__MODE_RACE || ps->mode == CORRAL__MODE_SYNC)
            for (uint32_t i = corral__wait_by(pa, ps), hops = 0; i != CORRAL__NIL && !awaited && hops++ <= CORRAL_MAX_GROUP;) {
                const corral__node *nd = corral__image_node(m, i, &pt);
                if (!nd) break;
                awaited = nd->kind == CORRAL__NODE_ARM && nd->u.t.target == g;
                i = nd->sibling;
            }
        if (!corral__state_alive(pa->state) || !awaited) CORRAL__BAD("a child's parent does not await it");
    }
    return true;
}

/* one live coroutine (slot k of class ci): its side record its own, its
   mode, hold and domain in range, its links of parts the scheduler has,
   its chains, its waits, its calls and its joiners' list */
static bool corral__verify_co_nodes(corral__image *m, uint32_t ci, const corral__class *cl, uint32_t k,
                                    const corral_co *co, corral__node_tally *t, uint32_t *found)
{
    const corral_sched *s = m->s;
    corral__meta mt;
    corral__side st;
    const uint32_t off = corral__slot_off(cl, k);
    const corral__meta mm = *corral__image_meta(m, ci, k, &mt);
    const corral__meta *md = &mm;
    const corral__side *sdp = corral__image_side(m, md, cl->first + k, &st);
    if (!sdp) CORRAL__BAD("a coroutine has no side record its meta says it has");
    const corral__side sdv = *sdp, *sd = &sdv;
    t->sided += corral__co_sided(md);
    if (corral__co_sided(md) && sd->owner != cl->first + k) CORRAL__BAD("a coroutine's side record is another's");
    const uint8_t mode = corral__mode_by(co, sd);
    const corral__type_entry *te = corral__image_what(m, co->type);
    const uint32_t g = cl->first + k, kind = mode & CORRAL__MODE_KIND;
    if (sd->domain >= corral__domains_of(s)->count || kind > CORRAL__MODE_SYNC ||
        (corral__at_rest(s) && mode != kind))
        CORRAL__BAD("a coroutine's wait mode or time domain is out of range");
    const bool arms = sd->mode == CORRAL__MODE_RACE || sd->mode == CORRAL__MODE_SYNC;
    /* its links, each made by a part: the scheduler has it (a snapshot
       may come from one with more parts) */
    const void *const *F = m->blk->parts.feature;
    if ((arms && !F[CORRAL__FEATURE_RACES]) || (corral__image_generator(m, co, md, off) && !F[CORRAL__FEATURE_PULLS]) ||
        (corral__co_sided(md) && (((sd->parent != CORRAL__NIL || sd->child != CORRAL__NIL ||
                                       sd->joiners_head != CORRAL__NIL) && !F[CORRAL__FEATURE_CALLS]) ||
                                     (sd->groups != CORRAL__NIL && !F[CORRAL__FEATURE_GROUPS]))))
        CORRAL__BAD("a coroutine has a link of a part the scheduler has not (desc.parts)");
    if (!corral__verify_wait_chain(m, off, g, co, md, sd, te, t) || !corral__verify_group_chain(m, off, g, co, md, sd, t) ||
        !corral__verify_co_waits(m, co, md, sd) || !corral__verify_call_links(m, g, sd, te))
        return false;
    /* who waits for it to end */
    corral__list_rule join = {CORRAL_WAIT_JOIN, CORRAL_WAIT_PULL, CORRAL__BY_TARGET, 0, g}; /* and its pullers */
    return corral__verify_list(m, sd->joiners_head, sd->joiners_tail, join, found);
}

/* every attached list and predicate node is on the list it names, once:
   the pools' live items' lists (as their owners say), the predicates'
   lists of each phase and the polled one */
static bool corral__verify_wait_lists(corral__image *m, uint32_t listed, uint32_t found)
{
    const corral_sched *s = m->s;
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) { /* each live item's lists, as its owner says */
        const corral__pool_part *part = corral__pool_part_of(m->blk, p);
        if (!part) {
            if (s->pools[p].live) CORRAL__BAD("a pool of a part the scheduler has not has live items");
            continue;
        }
        for (uint32_t i = 0; i < s->pools[p].cap; i++) {
            corral__any_item tmp;
            const unsigned char *x = (const unsigned char *)corral__pool_image_item(m, p, i, &tmp);
            if (!corral__item_live(x)) continue;
            for (uint32_t l = 0; l < part->lists; l++) {
                uint32_t ends[2];
                memcpy(ends, x + part->list[l].at, sizeof ends); /* head, tail */
                corral__list_rule r = {part->list[l].kind, part->list[l].kind2, CORRAL__BY_TARGET, 0, i};
                if (!corral__verify_list(m, ends[0], ends[1], r, &found)) return false;
            }
        }
    }
    for (uint32_t ph = 0; ph < s->run.phases; ph++) {
        corral__list_rule r = {CORRAL_WAIT_UNTIL, CORRAL_WAIT_WHILE, CORRAL__BY_LIST, 0, ph};
        corral__list_rule q = {CORRAL_WAIT_UNTIL, CORRAL_WAIT_WHILE, CORRAL__BY_LIST, 0, CORRAL__PRED_NEXT + ph};
        if (!corral__verify_list(m, s->polls.head[ph], s->polls.tail[ph], r, &found) ||
            !corral__verify_list(m, s->polls.next_head[ph], s->polls.next_tail[ph], q, &found))
            return false;
    }
    corral__list_rule polled = {CORRAL_WAIT_UNTIL, CORRAL_WAIT_WHILE, CORRAL__BY_LIST, 0, CORRAL__PRED_POLL};
    if (!corral__verify_list(m, s->polls.poll_head, s->polls.poll_tail, polled, &found)) return false;
    if (found != listed) CORRAL__BAD("an attached wait is on no list, or on one twice");
    return true;
}

/* every group node is on its owner's bucket or its tag's list, once, and
   between ticks no node is lost */
static bool corral__verify_group_lists(corral__image *m, const corral__node_tally *t)
{
    const corral_sched *s = m->s;
    uint32_t grouped = 0;
    if (corral__at_rest(s) && s->groups.side_depth != 0) CORRAL__BAD("a group operation is under way between ticks");
    for (uint32_t b = 0; b <= s->groups.owner_mask; b++) {
        corral__list_rule r = {CORRAL__NODE_OWNER, CORRAL__NODE_OWNER, CORRAL__BY_BUCKET, 1, b};
        if (!corral__verify_list(m, corral__image_owner(m, 2 * b), corral__image_owner(m, 2 * b + 1), r, &grouped)) return false;
    }
    for (uint32_t tag = 0; tag < 32; tag++) {
        corral__list_rule r = {CORRAL__NODE_TAG, CORRAL__NODE_TAG, CORRAL__BY_TAG, 1, tag};
        if (!corral__verify_list(m, s->groups.tag_head[tag], s->groups.tag_tail[tag], r, &grouped)) return false;
    }
    if (corral__at_rest(s)) {
        if (grouped != t->group_used) CORRAL__BAD("a group node is on no group list, or on one twice");
        if (t->wait_used + s->nodes.wait_free_count != s->nodes.wait_count) CORRAL__BAD("a wait node leaked");
        if (t->group_used + s->nodes.group_free_count != s->nodes.count - s->nodes.wait_count)
            CORRAL__BAD("a group node leaked");
    }
    return true;
}

/* the nodes and side records: free lists, each live coroutine's chains
   and links, every list holding what is attached to it, no node lost */
static bool corral__verify_nodes(corral__image *m)
{
    if (!corral__verify_free_nodes(m) || !corral__verify_free_sides(m)) return false;
    corral__node_tally t = {0, 0, 0, 0};
    uint32_t found = 0;
    corral_co ct;
    CORRAL__EACH_TOUCHED(m, ci, cl, k) {
        const corral_co *co = corral__image_co(m, ci, k, &ct);
        if (!corral__state_alive(co->state)) continue;
        if (!corral__verify_co_nodes(m, ci, cl, k, co, &t, &found)) return false;
    }
    if (t.sided != m->s->sides.count - m->s->sides.free_count)
        CORRAL__BAD("the side records in use are not one per coroutine that has one");
    return corral__verify_wait_lists(m, t.listed, found) && corral__verify_group_lists(m, &t);
}

/* entry e at pos of heap h is a plain sleep's: its sleeper waits in it
   (its link names the place), on the clock its kind and domain give (or
   the frames' for a wait of 0): WAITING, or a generator held between
   pulls with its wait armed; or it is paused (a hold that is no
   generator's, not woken) with it in the held heap */
static bool corral__verify_sleep(corral__image *m, uint32_t h, uint32_t pos, const corral__heap_entry *e)
{
    const corral_sched *s = m->s;
    corral_co ct;
    corral__side st;
    uint32_t ci, k;
    const uint32_t code = (e->ref >> CORRAL__SLEEP_KIND_SHIFT) & 3u;
    if (code > 2u) CORRAL__BAD("a sleep's entry names no wait kind");
    if (!corral__image_slot(s, (e->ref & CORRAL__SLEEP_OFF) << 3, &ci, &k)) CORRAL__BAD("a sleep's entry names no slot");
    const corral_co *co = corral__image_co(m, ci, k, &ct);
    if (!corral__sleeps(co) || (co->link & CORRAL__SLEEP_POS) != pos ||
        ((co->link & CORRAL__SLEEP_HELD) != 0) != (h == s->timers.heaps))
        CORRAL__BAD("a sleep's entry names a coroutine that does not sleep in it");
    const uint32_t clock = corral__sleep_heap_of(co->link);
    if (h != s->timers.heaps && clock != h) CORRAL__BAD("a sleep's entry names a coroutine that does not sleep in it");
    corral__meta mt;
    const corral__meta *md = corral__image_meta(m, ci, k, &mt);
    const uint8_t hold = corral__paused(co->state) && md ? corral__co_hold(co, md) : 0u;
    const bool running = co->state == CORRAL__WAITING || hold == (CORRAL__HOLD_GENERATOR | CORRAL__HOLD_WAITING);
    const bool held = corral__paused(co->state) && !(hold & (CORRAL__HOLD_GENERATOR | CORRAL__HOLD_WOKEN));
    if (h == s->timers.heaps ? !held : !running)
        CORRAL__BAD("a sleep is held, or runs, against its coroutine's state");
    const uint32_t own = code == 0u ? (uint32_t)CORRAL__HEAP_FRAMES
                         : code == 2u ? (uint32_t)CORRAL__HEAP_REAL
                                      : corral__domain_heap(corral__image_side_at(m, ci, k, &st)->domain);
    if (clock != CORRAL__HEAP_FRAMES && clock != own) CORRAL__BAD("a sleep is on another clock than its kind's");
    return true;
}

static bool corral__verify_heaps(corral__image *m)
{
    const corral_sched *s = m->s;
    corral__node nt;
    corral_co ct;
    uint32_t ci, k;
    uint32_t sleeps = 0;
    for (uint32_t h = 0; h <= s->timers.heaps; h++) { /* the clocks' heaps, then the held sleepers' */
        for (uint32_t pos = 0; pos < s->timers.heap_len[h]; pos++) {
            const corral__heap_entry e = corral__image_heap_entry(m, h, pos);
            const uint32_t i = e.ref;
            if (e.due != e.due) CORRAL__BAD("a timer is due at no time (NaN)");
            if (pos > 0 && corral__image_heap_entry(m, h, (pos - 1) / CORRAL__HEAP_ARITY).due > e.due)
                CORRAL__BAD("a timer heap is out of order");
            if (i & CORRAL__SLEEP_REF) {
                if (!corral__verify_sleep(m, h, pos, &e)) return false;
                sleeps++;
                continue;
            }
            if (h == s->timers.heaps) CORRAL__BAD("the held sleepers' heap holds a wait node");
            const corral__node *nd = i < s->nodes.wait_count ? corral__image_node(m, i, &nt) : NULL;
            if (!nd) CORRAL__BAD("a heap holds a node out of range");
            if (nd->next != pos) CORRAL__BAD("a timer node does not know its heap position");
            if (nd->list != h) CORRAL__BAD("a timer node does not know its heap");
            if (!nd->attached) CORRAL__BAD("a heap holds a detached node");
            if (!corral__timer_node(nd)) CORRAL__BAD("a heap holds a node that is no timer");
            const double due = e.due;
            if (memcmp(&due, &nd->u.t.due, sizeof due) != 0 || e.seq != nd->u.t.seq)
                CORRAL__BAD("a timer heap's entry and its node disagree on its due time");
            if (!corral__image_slot(s, nd->co, &ci, &k)) CORRAL__BAD("a timer names no slot");
            const corral_co *co = corral__image_co(m, ci, k, &ct);
            corral__meta mt;
            const corral__meta *tm = corral__image_meta(m, ci, k, &mt);
            const bool gen_waits = corral__paused(co->state) && tm &&
                                   corral__co_hold(co, tm) == (CORRAL__HOLD_GENERATOR | CORRAL__HOLD_WAITING); /* its wait armed */
            if (nd->kind == CORRAL__NODE_DEADLINE ? !corral__state_alive(co->state) && co->state != CORRAL__STOPPING
                                                  : co->state != CORRAL__WAITING && !gen_waits)
                CORRAL__BAD("a timer belongs to a coroutine that is not waiting (a deadline: not alive)");
        }
    }
    if (sleeps != s->timers.sleepers || sleeps > s->timers.max_sleepers)
        CORRAL__BAD("the timer heaps hold another count of sleeps than the scheduler says");
    uint32_t sleeping = 0; /* each entry's sleeper names it: one sleeper an entry, if as many */
    CORRAL__EACH_TOUCHED(m, ci2, cl, k2) {
        (void)cl;
        sleeping += corral__sleeps(corral__image_co(m, ci2, k2, &ct));
    }
    if (sleeping != sleeps) CORRAL__BAD("a sleeping coroutine's timer entry is not where its link says");
    return true;
}

/* the pools (pool.c), and each live item's own rules (its owner's) */
static bool corral__verify_pools(corral__image *m)
{
    if (!corral__pools_verify(m)) return false;
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        const corral__pool_part *part = corral__pool_part_of(m->blk, p);
        for (uint32_t i = 0; part && part->verify && i < m->s->pools[p].cap; i++) {
            corral__any_item tmp;
            const void *x = corral__pool_image_item(m, p, i, &tmp);
            const char *why = corral__item_live(x) ? part->verify(m->s, x) : NULL;
            if (why) CORRAL__BAD(why);
        }
    }
    return true;
}

/* the store's pages taken: each a heap's (as many as its length needs)
   or given back, every page number below the bump, and their count, sum
   and sum of squares those of each page once. Of the live block only (a
   restore lays the pages anew): a stray write's repeat does not match all
   three but by a rare chance, and a page two heaps hold also puts an
   entry where its sleeper's or node's position does not say */
static bool corral__verify_heap_pages(const corral_sched *s)
{
    const uint32_t n = s->timers.page_bump;
    uint64_t count = s->timers.free_count, sum = 0, squares = 0;
    if (n > s->timers.page_count || count > n) return false;
    const uint32_t *free_pages = corral__heap_free(s);
    for (uint32_t k = 0; k < s->timers.free_count; k++) {
        if (free_pages[k] >= n) return false;
        sum += free_pages[k];
        squares += (uint64_t)free_pages[k] * free_pages[k];
    }
    for (uint32_t h = 0; h <= s->timers.heaps; h++) {
        const corral__heapv H = corral__heap(s, h);
        const uint32_t used = (uint32_t)corral__heap_pages_of(s->timers.heap_len[h]);
        for (uint32_t k = 0; k < used; k++) {
            if (H.tab[k] >= n) return false;
            sum += H.tab[k];
            squares += (uint64_t)H.tab[k] * H.tab[k];
        }
        count += used;
    }
    for (uint64_t k = 0; k < n; k++) { /* what each page once sums to (mod 2^64, as the sums above) */
        sum -= k;
        squares -= k * k;
    }
    return count == n && sum == 0 && squares == 0;
}

/* what holds between ticks: nothing on the C stack, no walk under way */
static bool corral__verify_control(corral__image *m)
{
    const corral_sched *s = m->s;
    if (s->types.type_count > s->types.max_types || s->run.phases > CORRAL__PH_MAX ||
        corral__domains_of(s)->count > CORRAL_MAX_DOMAINS || s->timers.heaps > CORRAL__HEAP_MAX)
        CORRAL__BAD("a table's count is past its capacity");
    for (uint32_t d = 0; d < corral__domains_of(s)->count; d++)
        if (!corral__domain_parent_ok(d, corral__domains_of(s)->d[d].parent))
            CORRAL__BAD("a time domain follows one not numbered before it");
    if (!corral__heap_lens_ok(m->blk, s->timers.heap_len)) CORRAL__BAD("a timer heap is too long");
    if (!m->snap && !corral__verify_heap_pages(s)) CORRAL__BAD("the timer heaps' pages are not each a heap's or given back");
    if (corral__at_rest(s) &&
        (s->run.running != CORRAL__NIL || s->run.walking_lane != CORRAL__NIL || s->run.walk_write != CORRAL__NIL ||
         s->run.walk_cut || s->run.starting || s->now.pulls || s->now.gen || s->run.ready_read != CORRAL__NIL))
        CORRAL__BAD("a walk, a start or a pull is under way between ticks");
    return true;
}

bool corral__verify_image(corral__image *m)
{
    m->why = NULL;
    return corral__verify_control(m) && corral__verify_slots(m) && corral__verify_lanes(m) &&
           corral__verify_nodes(m) && corral__verify_heaps(m) && corral__verify_pools(m);
}

/* the kept snapshots' ring (snapshot.c's; the rules are corral__kept_damage's) */
static bool corral__verify_kept(corral__image *m)
{
    const corral__kept *K = corral__kept_of(m->s);
    const char *why = K ? corral__kept_damage(m->s, K) : NULL;
    if (why) CORRAL__BAD(why);
    return true;
}

bool corral_verify(const corral_sched *s)
{
    if (!corral__check(s)) return false;
    corral__image m;
    memset(&m, 0, sizeof m);
    m.s = m.blk = s;
    if (corral__verify_image(&m) && corral__verify_kept(&m)) return true;
    corral__fail_at(s, NULL, CORRAL_ERR_CORRUPT, "corral_verify", CORRAL__NOH, NULL, m.why);
    return false;
}
