/*
    lanes.c -- the run lanes and the ready lane: where a yield lands (the
    resume contract's corral__land), a coroutine queued, readied or left
    as a tombstone, the next-frame lanes joining their phases. The lanes
    own their entries; the walk that steps them is queue.c's, the drain
    that steps the ready lane lifecycle.c's.

    A lane is a chain of CORRAL__CHUNK-entry chunks from one pool shared by
    every lane, so grouping by (phase, type) costs no memory per type. An
    entry is a coroutine's offset, or NIL where a queued coroutine was
    stopped (a tombstone: stop is O(1) and keeps the others' order).

    The ready lane, the last, holds the READY coroutines (woken in the run
    of their phase, they resume in it) in the order they were readied. The
    drain reads it from its head chunk (run.ready_read, NIL while the lane
    holds no entry), making each entry
    it takes a tombstone and letting the head chunk go once read through,
    so what its steps ready joins behind; read through, the lane is empty
    and keeps its one chunk for the next. A READY coroutine is in no other
    lane, so the ready lane is one more lane of the sizing below; a
    compaction compacts it from its start (every entry before the drain's
    place is a tombstone) and the drain reads on from its start.

    The pool holds an entry a slot, a chunk a lane and three more
    (corral__chunks_for). That is always enough: when it runs dry every lane
    with tombstones is compacted, and the lane a walk is stepping too, all
    but the two chunks the walk holds pointers into, the one it reads and
    the one it writes survivors into (corral__compact_walked). A lane then
    holds its queued coroutines in full chunks and one partial chunk; the
    walked lane holds them in two compacted parts (two partial chunks) and
    those two. Every queued coroutine has one entry in them, so the lanes
    hold at most slots / CHUNK + (lanes - 1) + 2 + 2 chunks, the one a push
    takes included.
*/
#include "../corral_internal.h"
#include "freelist.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* the chunks: an uncounted free list (freelist.h) linked through next[] */
static inline corral__freelist corral__chunks(corral_sched *s)
{
    return (corral__freelist){corral__chunk_next(s), sizeof(uint32_t), 0, 0, s->run.chunk_count,
                              &s->run.chunk_free, &s->run.chunk_bump, NULL, NULL};
}
static uint32_t corral__chunk_pop(corral_sched *s)
{
    const corral__freelist fl = corral__chunks(s);
    return corral__freelist_take(&fl);
}
/* a chunk back to the pool, marked free (corral_verify) */
CORRAL__NOINLINE static void corral__chunk_drop(corral_sched *s, uint32_t c)
{
    const corral__freelist fl = corral__chunks(s);
    corral__freelist_give(&fl, c);
    corral__entries(s)[(size_t)c * CORRAL__CHUNK] = CORRAL__FREE_CHUNK;
}

/* Chunk holding entry k of lane L (k < L->cap). */
static uint32_t corral__chunk_at(const corral_sched *s, const corral__lane *L, uint32_t k)
{
    const uint32_t *next = corral__chunk_next(s);
    uint32_t c = L->head;
    for (uint32_t hop = k / CORRAL__CHUNK; hop > 0; hop--) c = next[c];
    return c;
}

/* Keep lane L's chunks up to `last` (NIL: none) and free the rest; the
   lane holds w entries, all in the kept chunks. */
void corral__truncate_lane(corral_sched *s, corral__lane *L, uint32_t last, uint32_t w)
{
    uint32_t *next = corral__chunk_next(s);
    uint32_t c = last == CORRAL__NIL ? L->head : next[last];
    while (c != CORRAL__NIL) {
        uint32_t n = next[c];
        corral__chunk_drop(s, c);
        c = n;
    }
    if (last == CORRAL__NIL) L->head = CORRAL__NIL;
    else next[last] = CORRAL__NIL;
    L->tail = last;
    L->cap = (w + CORRAL__CHUNK - 1) / CORRAL__CHUNK * CORRAL__CHUNK;
}

/* Compact entries [from, count) of lane L in place; keep walk_end and
   walk_orig pointing at the same boundaries; free the chunks no longer
   needed. */
void corral__compact_lane(corral_sched *s, corral__lane *L, uint32_t from)
{
    uint32_t *E = corral__entries(s), *next = corral__chunk_next(s);
    uint32_t rc = corral__chunk_at(s, L, from), wc = rc;
    uint32_t rp = from % CORRAL__CHUNK, wp = rp, w = from;
    uint32_t new_walk_end = L->walk_end, new_walk_orig = L->walk_orig;
    for (uint32_t k = from; k < L->count; k++) {
        if (rp == CORRAL__CHUNK) {
            rc = next[rc];
            rp = 0;
        }
        if (k == L->walk_end) new_walk_end = w;
        if (k == L->walk_orig) new_walk_orig = w;
        uint32_t off = E[rc * CORRAL__CHUNK + rp++];
        if (off == CORRAL__NIL) continue;
        if (wp == CORRAL__CHUNK) {
            wc = next[wc];
            wp = 0;
        }
        uint32_t e = wc * CORRAL__CHUNK + wp++;
        E[e] = off;
        CORRAL__CO(s, off)->link = e;
        w++;
    }
    if (L->walk_end >= L->count) new_walk_end = w;
    if (L->walk_orig >= L->count) new_walk_orig = w;
    L->walk_end = new_walk_end;
    L->walk_orig = new_walk_orig;
    L->count = w;
    /* keep ceil(w / CHUNK) chunks */
    uint32_t last = CORRAL__NIL;
    for (uint32_t i = 0, keep = (w + CORRAL__CHUNK - 1) / CORRAL__CHUNK; i < keep; i++)
        last = last == CORRAL__NIL ? L->head : next[last];
    corral__truncate_lane(s, L, last, w);
    if (from == 0) L->tombs = 0;
}

/* Free the chunks of a chain after `from` up to (not including) `to`, now
   linked: how many entries they held */
static uint32_t corral__drop_between(corral_sched *s, uint32_t from, uint32_t to)
{
    uint32_t *next = corral__chunk_next(s), dropped = 0;
    for (uint32_t c = next[from]; c != to; c = next[from], dropped += CORRAL__CHUNK) {
        next[from] = next[c];
        corral__chunk_drop(s, c);
    }
    return dropped;
}

/* The lane a walk is stepping: the chunk it reads and the chunk it writes
   survivors into stay as they are, entries and places (the walk holds
   pointers into them). The chunks between those and the read chunk hold
   only entries the walk has read and moved on: they are freed. The
   survivors before the write chunk move to the front, the rest of the
   last chunk they fill made tombstones, and the chunks they leave are
   freed. What is after the read chunk is compacted: what the walk has yet
   to read (the tombstones taken from it are not steps, walk_steps, and
   walk_cut tells the walk's count of what is left) and what joined. So
   the lane holds its queued coroutines in two compacted parts, plus two
   chunks. */
static void corral__compact_walked(corral_sched *s, corral__lane *L)
{
    uint32_t *E = corral__entries(s), *next = corral__chunk_next(s);
    const uint32_t rc = s->run.walk_read, wc = s->run.walk_write == CORRAL__NIL ? rc : s->run.walk_write;
    uint32_t dropped = wc != rc ? corral__drop_between(s, wc, rc) : 0;
    s->run.walk_rk -= dropped / CORRAL__CHUNK;
    if (L->tombs && L->head != wc) {
        uint32_t to = L->head, at = 0;
        for (uint32_t c = L->head; c != wc; c = next[c])
            for (uint32_t i = 0; i < CORRAL__CHUNK; i++) {
                const uint32_t off = E[(size_t)c * CORRAL__CHUNK + i];
                if (off == CORRAL__NIL) continue;
                if (at == CORRAL__CHUNK) {
                    to = next[to];
                    at = 0;
                }
                E[(size_t)to * CORRAL__CHUNK + at] = off;
                CORRAL__CO(s, off)->link = to * CORRAL__CHUNK + at++;
            }
        for (; at < CORRAL__CHUNK; at++, L->tombs++) E[(size_t)to * CORRAL__CHUNK + at] = CORRAL__NIL;
        const uint32_t before = corral__drop_between(s, to, wc);
        s->run.walk_rk -= before / CORRAL__CHUNK;
        s->run.walk_wk -= before / CORRAL__CHUNK;
        dropped += before;
    }
    L->count -= dropped;
    L->cap -= dropped;
    L->walk_end -= dropped;
    L->walk_orig -= dropped;
    if (!L->tombs) return;
    /* after the read chunk: what the walk has yet to read, then what joined */
    const uint32_t end = (s->run.walk_rk + 1) * CORRAL__CHUNK, walk_end = L->walk_end;
    corral__compact_lane(s, L, walk_end < end ? walk_end : end);
    s->run.walk_cut += walk_end - L->walk_end;
    s->run.walk_steps -= walk_end - L->walk_end;
}

/* an invariant broken (the pool is sized so that a push always finds a
   chunk): said, and the program stopped before a coroutine is lost */
CORRAL__COLD static void corral__lanes_ran_out(corral_sched *s)
{
    corral__fail_at(s, NULL, CORRAL_ERR_CORRUPT, "corral_tick", CORRAL__NOH, NULL,
                    "the run queue's chunks ran out (an invariant corral_verify checks)");
    abort();
}

CORRAL__COLD static void corral__compact_all(corral_sched *s)
{
    corral__lane *lanes = corral__lanes(s);
    for (uint32_t i = 0; i < s->run.lane_count; i++)
        if (i == s->run.walking_lane) corral__compact_walked(s, &lanes[i]);
        else if (lanes[i].tombs) corral__compact_lane(s, &lanes[i], 0);
    /* the ready lane's entries before the drain's place were tombstones
       (with none it has none there): what is left to read is at its start */
    if (s->run.ready_read != CORRAL__NIL) s->run.ready_read = 0;
}

uint32_t corral__lane_push(corral_sched *s, uint32_t lane, uint32_t off)
{
    corral__lane *L = &corral__lanes(s)[lane];
    if (L->count == L->cap) {
        if (s->run.chunk_free == CORRAL__NIL && s->run.chunk_bump == s->run.chunk_count) corral__compact_all(s);
        if (L->count == L->cap) {
            const uint32_t c = corral__chunk_pop(s); /* the pool is sized so there is one */
            if (CORRAL__UNLIKELY(c == CORRAL__NIL)) corral__lanes_ran_out(s);
            uint32_t *next = corral__chunk_next(s);
            next[c] = CORRAL__NIL;
            if (L->head == CORRAL__NIL) L->head = c;
            else next[L->tail] = c;
            L->tail = c;
            L->cap += CORRAL__CHUNK;
        }
    }
    uint32_t e = L->tail * CORRAL__CHUNK + L->count % CORRAL__CHUNK;
    corral__entries(s)[e] = off;
    L->count++;
    return e;
}

void corral__lane_tombstone(corral_sched *s, corral_co *co)
{
    corral__entries(s)[co->link] = CORRAL__NIL;
    corral__lanes(s)[corral__lane_of(s, co)].tombs++;
}

void corral__walk_over(corral_sched *s)
{
    s->run.walking_lane = s->run.walk_write = CORRAL__NIL;
    s->run.walk_cut = 0;
}

void corral__lanes_init(corral_sched *s)
{
    corral__lane *lanes = corral__lanes(s);
    for (uint32_t i = 0; i < s->run.lane_count; i++) {
        memset(&lanes[i], 0, sizeof lanes[i]); /* every byte: snapshots copy and checksum them */
        lanes[i].head = lanes[i].tail = CORRAL__NIL;
    }
    /* entries are read ahead by the walk's prefetch before they are written */
    memset(corral__entries(s), 0, ((size_t)s->run.chunk_count * CORRAL__CHUNK + CORRAL__PREFETCH) * sizeof(uint32_t));
    const corral__freelist chunks = corral__chunks(s);
    corral__freelist_clear(&chunks);
    s->run.walk_read = CORRAL__NIL;
    corral__walk_over(s);
    s->run.running = CORRAL__NIL;
    s->run.deferred = 0;
    s->run.ready_read = CORRAL__NIL;
}

void corral__lanes_next_frame(corral_sched *s)
{
    corral__lane *lanes = corral__lanes(s);
    const uint32_t *E = corral__entries(s), *next = corral__chunk_next(s);
    s->run.deferred = 0;
    for (uint32_t ph = 0; ph < s->run.phases; ph++) {
        corral__lane *D = &lanes[s->run.defer_lane + ph];
        /* a chunk at a time from the head, freed before its coroutines
           are queued: the pushes may compact every lane to find a chunk */
        while (D->count != 0) {
            uint32_t at[CORRAL__CHUNK];
            const uint32_t c = D->head, take = D->count < CORRAL__CHUNK ? D->count : CORRAL__CHUNK;
            memcpy(at, E + (size_t)c * CORRAL__CHUNK, take * sizeof(uint32_t));
            D->head = next[c];
            if (D->head == CORRAL__NIL) D->tail = CORRAL__NIL;
            D->count -= take;
            D->cap -= CORRAL__CHUNK;
            corral__chunk_drop(s, c);
            for (uint32_t k = 0; k < take; k++)
                if (at[k] != CORRAL__NIL) corral__enqueue(s, CORRAL__CO(s, at[k]));
        }
        D->tombs = 0;
    }
}

void corral__enqueue(corral_sched *s, corral_co *co)
{
    uint32_t off = corral__co_off(s, co);
    co->state = CORRAL__QUEUED;
    co->link = corral__lane_push(s, corral__run_lane_of(s, co), off);
}

/* The resume contract (docs/API.md, "When a coroutine resumes") decides
   here where a yield lands; the waits that park on nodes decide through
   their containers (timers by their due time, predicates in
   corral__attach), and every other path only queues. A yield waits for
   the next frame when its step awaited next_frame, or when it is the
   coroutine's first step and it awaited no phase (Unity: `yield return
   null` from StartCoroutine resumes in the next frame; the coroutine does
   not run twice in the frame it started in). */
/* its step returned with its race begun and its arms not started (flags
   f): the race ends, then it lands as after a plain yield */
static CORRAL__COLD void corral__land_abandoned(corral_sched *s, corral_co *co, uint32_t f)
{
    co->flags = (uint8_t)f;
    corral__arms_abandoned(s, co);
    corral__land(s, co);
}
void corral__land(corral_sched *s, corral_co *co)
{
    const uint32_t f = co->flags;
    CORRAL__CONTRACT_DONE(co);
    bool next_frame = (f & (CORRAL__FIRST_FLAG | CORRAL__PHASE_WAIT_FLAG)) == CORRAL__FIRST_FLAG;
    if (!next_frame && CORRAL__UNLIKELY(f & CORRAL__NEXT_FRAME_FLAG)) {
        if (CORRAL__UNLIKELY(f & CORRAL__PHASE_WAIT_FLAG)) { /* CORRAL__ARMS_OPEN_FLAGS */
            corral__land_abandoned(s, co, f);
            return;
        }
        next_frame = true;
    }
    if (CORRAL__UNLIKELY(next_frame) && corral__run_to_come(s, f & CORRAL__PHASE_MASK)) {
        corral__defer(s, co);
        return;
    }
    corral__enqueue(s, co);
}

void corral__defer(corral_sched *s, corral_co *co)
{
    co->state = CORRAL__DEFERRED;
    s->run.deferred = 1;
    co->link = corral__lane_push(s, corral__lane_of(s, co), corral__co_off(s, co));
}

/* a push that takes a chunk: out of line, the common push has room */
CORRAL__NOINLINE static uint32_t corral__ready_push_chunk(corral_sched *s, uint32_t off)
{
    return corral__lane_push(s, corral__ready_lane(s), off);
}

void corral__ready_push(corral_sched *s, corral_co *co)
{
    corral__lane *L = &corral__lanes(s)[corral__ready_lane(s)];
    co->state = CORRAL__READY;
    if (s->run.ready_read == CORRAL__NIL) s->run.ready_read = 0;
    if (CORRAL__UNLIKELY(L->count == L->cap)) {
        co->link = corral__ready_push_chunk(s, corral__co_off(s, co));
        return;
    }
    co->link = L->tail * CORRAL__CHUNK + L->count++ % CORRAL__CHUNK;
    corral__entries(s)[co->link] = corral__co_off(s, co);
}

void corral__ready_unlink(corral_sched *s, corral_co *co)
{
    corral__entries(s)[co->link] = CORRAL__NIL;
    corral__lanes(s)[corral__ready_lane(s)].tombs++;
}

uint32_t corral__ready_take_on(corral_sched *s)
{
    corral__lane *L = &corral__lanes(s)[corral__ready_lane(s)];
    uint32_t *E = corral__entries(s);
    for (;;) {
        if (s->run.ready_read == CORRAL__CHUNK && L->count > CORRAL__CHUNK) {
            /* the head chunk read through (all tombstones): the next is the head */
            const uint32_t c = L->head;
            L->head = corral__chunk_next(s)[c];
            L->count -= CORRAL__CHUNK;
            L->cap -= CORRAL__CHUNK;
            L->tombs -= CORRAL__CHUNK;
            s->run.ready_read = 0;
            corral__chunk_drop(s, c);
        }
        if (s->run.ready_read >= L->count) break;
        uint32_t *e = &E[(size_t)L->head * CORRAL__CHUNK + s->run.ready_read++];
        const uint32_t off = *e;
        if (off == CORRAL__NIL) continue;
        *e = CORRAL__NIL;
        L->tombs++;
        return off;
    }
    /* read through: empty, its chunk (if any) kept for the next */
    L->count = L->tombs = 0;
    s->run.ready_read = CORRAL__NIL;
    return CORRAL__NIL;
}

void corral__unpark(corral_sched *s, corral_co *co)
{
    if (co->flags & CORRAL__ONSTACK_FLAG) {
        co->state = CORRAL__RUNNING;
        return;
    }
    co->state = CORRAL__QUEUED;
    corral__unchained(s, co);
}

void corral__unchained(corral_sched *s, corral_co *co)
{
    const uint32_t off = corral__co_off(s, co), c = s->run.walk_read;
    assert(off == s->run.running && c != CORRAL__NIL && "corral: a queued coroutine on the C stack is the walk's");
    if (off != s->run.running || c == CORRAL__NIL) return;
    const uint32_t *E = corral__entries(s) + (size_t)c * CORRAL__CHUNK;
    for (uint32_t k = 0; k < CORRAL__CHUNK; k++)
        if (E[k] == off) {
            co->link = c * CORRAL__CHUNK + k;
            return;
        }
    assert(false && "corral: the walked coroutine's entry is in the chunk the walk reads");
}

void corral__wake_now_or_queue(corral_sched *s, corral_co *co)
{
    if (s->run.starting || (s->now.in_tick && (co->flags & CORRAL__PHASE_MASK) == s->now.phase))
        corral__ready_push(s, co);
    else
        corral__enqueue(s, co);
}

/* a restore: the lanes' chunk pool, the walk and the ready lane's drain as saved in o */
void corral__run_take(corral_sched *d, const corral_sched *o)
{
    d->run.chunk_free = o->run.chunk_free;
    d->run.chunk_bump = o->run.chunk_bump;
    d->run.walking_lane = o->run.walking_lane;
    d->run.running = o->run.running;
    d->run.walk_steps = o->run.walk_steps;
    d->run.walk_read = o->run.walk_read;
    d->run.walk_write = o->run.walk_write;
    d->run.walk_rk = o->run.walk_rk;
    d->run.walk_wk = o->run.walk_wk;
    d->run.walk_cut = o->run.walk_cut;
    d->run.ready_read = o->run.ready_read;
    d->run.starting = o->run.starting;
    memcpy(d->run.first_lane, o->run.first_lane, sizeof d->run.first_lane);
    d->run.deferred = o->run.deferred;
    d->budget = o->budget;
}

/* a restore: the chunks before the bump (chunk_bump of them: their entries
   at entries_at of snap, their links at next_at) and every lane (at
   lanes_at) as a snapshot holds them; the pool's free list and bump come
   with corral__run_take */
void corral__run_restore(corral_sched *s, const unsigned char *snap, size_t entries_at, size_t next_at, size_t lanes_at,
                         uint32_t chunk_bump)
{
    memcpy(corral__entries(s), snap + entries_at, (size_t)chunk_bump * CORRAL__CHUNK * sizeof(uint32_t));
    memcpy(corral__chunk_next(s), snap + next_at, (size_t)chunk_bump * sizeof(uint32_t));
    memcpy(corral__lanes(s), snap + lanes_at, (size_t)s->run.lane_count * sizeof(corral__lane));
}

