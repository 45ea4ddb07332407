/*
    queue.c -- the walk a phase run makes over its lanes (lanes.c), what a
    step's return does to its coroutine (the after-step transitions), and
    the run's time budget. What a step does to a coroutine's life is the
    lifecycle's (lifecycle.c); when a wait ends, the waits' (waits.c).

    A phase run first fixes, for every lane of the phase, how many entries
    it will step (walk_end): what joins a lane during the run waits for the
    next one. The walk compacts the lane in place behind its cursor: a
    survivor stays where it is unless a hole opened before it, so in the
    steady state a step writes nothing but its own context.
*/
#include "../corral_internal.h"
#include "lifecycle.h"

/* After a walked coroutine's step did not end in a plain yield in place. */
static void corral__after_walk(corral_sched *s, corral_co *co, corral_result r)
{
    bool pause = (co->flags & CORRAL__PAUSE_FLAG) != 0;
    co->flags = (uint8_t)(co->flags & ~CORRAL__PAUSE_FLAG);
    corral__after_step(s, co, NULL, r, pause, true);
    /* whoever waited for what just ended resumes now, in this run */
    if (s->run.ready_read != CORRAL__NIL) corral__drain_ready(s);
}

/* Step every entry [0, walk_end) of one lane once, compacting behind. An
   outer loop per chunk, an inner loop per entry with few values live across
   the step call (the rest is reloaded from the scheduler, which is hot); a
   survivor is written back only if a hole opened before it. */
/* One past the last entry of the chunk holding p. */
static uint32_t *corral__chunk_end(const corral_sched *s, const uint32_t *p)
{
    uint32_t *E = corral__entries(s);
    return E + ((size_t)(p - E) / CORRAL__CHUNK + 1) * CORRAL__CHUNK;
}

static uint32_t *corral__chunk_after(const corral_sched *s, const uint32_t *p_in_chunk)
{
    uint32_t *E = corral__entries(s);
    uint32_t c = (uint32_t)((size_t)(p_in_chunk - E) / CORRAL__CHUNK);
    return E + (size_t)corral__chunk_next(s)[c] * CORRAL__CHUNK;
}

static void corral__rotate_after_budget(corral_sched *s, corral__lane *L, uint32_t *rp_unrun);
static uint32_t corral__defer_first(corral_sched *s, corral__lane *L, uint32_t w);

/* A budgeted walk, before the entry of L at rp: when the run's time is up,
   reorder the lane so what did not run goes first, and end the walk. */
static bool corral__budget_spent(corral_sched *s, corral__lane *L, uint32_t *rp)
{
    if (s->budget.steps == 0 || s->now.clock.now_ns(s->now.clock.user_data) - s->budget.run_start < s->budget.ns) return false;
    s->budget.out = 1;
    corral__rotate_after_budget(s, L, rp);
    corral__walk_over(s);
    s->run.running = CORRAL__NIL;
    return true;
}

/* The plain walk's common case: step entries [rp, stop) of a lane while
   every one yields in place, so no write cursor is needed. Returns NULL if
   all did, else the position just past the first entry that opened a hole
   (a tombstone, or a coroutine that left the lane: already handled). Kept
   small and out of line so what lives across the step call fits in
   registers; one copy per call site (see corral__walks). */
/* A run of the type of the entry at rp, which DEFINE_COROUTINE made: its
   steps, the body inlined, from rp on while the entries are its own and
   stay in place. Where it stopped, or, with *over set, past the entry whose
   step did not stay in place (handled). Out of line for the lane of many
   types, whose loop keeps few values live across its calls; the one-type
   loop calls the run itself (a call through this function there costs
   the step more than the run saves). */
static uint32_t *corral__run_stretch(corral_sched *s, uint32_t *rp, uint32_t *stop, uint32_t expect, bool *over)
{
    const uint32_t type = CORRAL__CO(s, *rp)->type;
    int r;
    rp = (uint32_t *)(uintptr_t)corral__types(s)[type].run((unsigned char *)s, rp, stop, type, expect,
                                                            &s->run.running, &r);
    *over = r >= 0;
    if (r >= 0) {
        corral_co *co = CORRAL__CO(s, s->run.running);
        s->run.running = CORRAL__NIL;
        corral__after_walk(s, co, (corral_result)r);
        return rp + 1;
    }
    return rp;
}
static CORRAL__ALWAYS_INLINE uint32_t *corral__in_place_impl(corral_sched *s, uint32_t *rp, uint32_t *const stop)
{
    /* yielded, still queued, same phase (flags holds the phase and, rarely,
       a pause request: both send it down the slow path) */
    const uint32_t expect = corral__state_flags_of(CORRAL__QUEUED, s->now.phase);
    while (rp != stop) {
        uint32_t off = *rp;
        /* A type that DEFINE_COROUTINE made steps its run of entries itself,
           its body inlined (no call through a pointer a step): it returns
           at the first entry that is not its own or did not stay in place */
        if (off != CORRAL__NIL) {
            const uint32_t type = CORRAL__CO(s, off)->type;
            const corral__type_entry *te = &corral__types(s)[type];
            if (te->run) { /* inline here: this loop is the one-type lane's */
                int r;
                rp = (uint32_t *)(uintptr_t)te->run((unsigned char *)s, rp, stop, type, expect, &s->run.running, &r);
                if (r < 0) continue; /* the end, a tombstone or another type: the loop goes on */
                corral_co *co = CORRAL__CO(s, s->run.running);
                s->run.running = CORRAL__NIL;
                corral__after_walk(s, co, (corral_result)r);
                return rp + 1;
            }
        }
        rp++;
        /* the context a few entries on: lanes keep start order, which is
           not memory order once several types or ages share a class (past
           the chunk's end this reads other entries or the padding: a
           wasted hint, never a fault) */
        CORRAL__PREFETCH_W(CORRAL__AT(s, rp[CORRAL__PREFETCH - 1]));
        if (off == CORRAL__NIL) { /* stopped while queued */
            s->run.walk_steps--;
            return rp;
        }
        corral_co *co = CORRAL__CO(s, off);
        s->run.running = off;
        corral_result r = corral__types(s)[co->type].step(co);
        if (CORRAL__LIKELY(((uint32_t)r | (corral__state_flags(co) ^ expect)) == 0)) continue;
        s->run.running = CORRAL__NIL;
        corral__after_walk(s, co, r);
        return rp;
    }
    return NULL;
}

/* The same loop for a lane of many types (FIFO order with more than one
   type): the indirect call then mispredicts whenever the type changes, and
   the sooner its real target is known the less that costs. So the next
   entry's step function is loaded a step ahead, off the chain entry ->
   slot -> type table that otherwise ends right at the call. If the step
   stops the next coroutine, its entry becomes a tombstone and the loaded
   function is not used. One type per lane predicts well and pays only for
   the extra loads, so BY_TYPE order and single-type schedulers keep the
   loop above. Three or more entries of one type in a row are one run of
   that type. */
/* the entry at rp (before stop) is a coroutine of this type too: with the
   two before it, a stretch long enough for a run to pay for the target
   it loads late when it ends */
static inline bool corral__stretch(const corral_sched *s, const uint32_t *rp, const uint32_t *stop, uint32_t type)
{
    return rp != stop && *rp != CORRAL__NIL && CORRAL__CO(s, *rp)->type == type;
}
static CORRAL__ALWAYS_INLINE uint32_t *corral__in_place_ahead_impl(corral_sched *s, uint32_t *rp,
                                                                  uint32_t *const stop)
{
    const uint32_t expect = corral__state_flags_of(CORRAL__QUEUED, s->now.phase);
    if (rp == stop) return NULL;
    uint32_t off = *rp;
    corral_result (*fn)(corral_co *) = off != CORRAL__NIL ? corral__types(s)[CORRAL__CO(s, off)->type].step : NULL;
    for (;;) {
        rp++;
        CORRAL__PREFETCH_W(CORRAL__AT(s, rp[CORRAL__PREFETCH - 1]));
        if (off == CORRAL__NIL) { /* stopped while queued */
            s->run.walk_steps--;
            return rp;
        }
        corral_co *co = CORRAL__CO(s, off);
        uint32_t next = rp != stop ? *rp : CORRAL__NIL;
        corral_result (*next_fn)(corral_co *) =
            next != CORRAL__NIL ? corral__types(s)[CORRAL__CO(s, next)->type].step : NULL;
        if (CORRAL__UNLIKELY(next_fn == fn) && corral__stretch(s, rp + 1, stop, co->type) &&
            corral__types(s)[co->type].run) {
            bool over;
            rp = corral__run_stretch(s, rp - 1, stop, expect, &over);
            if (over) return rp;
            if (rp == stop) return NULL;
            off = *rp;
            fn = off != CORRAL__NIL ? corral__types(s)[CORRAL__CO(s, off)->type].step : NULL;
            continue;
        }
        s->run.running = off;
        corral_result r = fn(co);
        if (CORRAL__UNLIKELY(((uint32_t)r | (corral__state_flags(co) ^ expect)) != 0)) {
            s->run.running = CORRAL__NIL;
            corral__after_walk(s, co, r);
            return rp;
        }
        if (rp == stop) return NULL;
        off = *rp;
        fn = next_fn;
    }
}

/* The end of a walk of L, its read cursor at rp (past the last entry it
   stepped), its write cursor at wp (wend: the end of its chunk, whose
   place in the chain is walk_wk): what joined moves down behind the
   survivors, a limited run's deferred go first, the chunks past them are
   freed. Out of line: one copy for the walk's kinds. The steps it made. */
static uint32_t corral__walk_finish(corral_sched *s, corral__lane *L, uint32_t *rp, uint32_t *wp, uint32_t *wend)
{
    uint32_t *const E = corral__entries(s);
    const uint32_t *const next = corral__chunk_next(s);
    /* the read cursor as a (chunk, end) pair for the tail copy below */
    uint32_t *rend = corral__chunk_end(s, rp - 1);
    uint32_t rc = (uint32_t)((size_t)(rp - 1 - E) / CORRAL__CHUNK);
    uint32_t wc = (uint32_t)((size_t)(wend - 1 - E) / CORRAL__CHUNK);
    s->run.running = CORRAL__NIL;
    const uint32_t steps = s->run.walk_steps;
    const bool limited = L->walk_orig > L->walk_end;
    /* a limited run reorders the lane below: whoever waits for what ended
       resumes first, and what that queues here joins */
    if (limited && s->run.ready_read != CORRAL__NIL) corral__drain_ready(s);
    uint32_t wk = s->run.walk_wk; /* (after the drain: a compaction there may free chunks before it) */
    /* what joined during the walk moves down behind the survivors */
    if (limited) { /* count the survivors, then the deferred */
        L->walk_survivors = wk * CORRAL__CHUNK + (uint32_t)(wp - (wend - CORRAL__CHUNK));
        L->walk_deferred = 0;
    }
    for (uint32_t k = L->walk_end; k < L->count; k++) {
        if (rp == rend) {
            rc = next[rc];
            rp = E + (size_t)rc * CORRAL__CHUNK;
            rend = rp + CORRAL__CHUNK;
        }
        uint32_t off = *rp++;
        if (off == CORRAL__NIL) continue;
        if (wp == wend) {
            wc = next[wc];
            wp = E + (size_t)wc * CORRAL__CHUNK;
            wend = wp + CORRAL__CHUNK;
            wk++;
        }
        *wp = off;
        CORRAL__CO(s, off)->link = (uint32_t)(wp - E);
        wp++;
        if (k < L->walk_orig) L->walk_deferred++;
    }
    /* survivors: full chunks before the write chunk, plus its fill */
    const uint32_t fill = (uint32_t)(wp - (wend - CORRAL__CHUNK));
    uint32_t w = wk * CORRAL__CHUNK + fill;
    if (limited) /* deferred go first (walk_limit is the budget part's) */
        w = ((const corral__budget_part *)corral__feature(s, CORRAL__FEATURE_BUDGET))->defer_first(s, L, w);
    /* free the chunks past the survivors */
    L->walk_end = L->count; /* nothing left to protect */
    L->count = w;
    if (!limited && (fill != 0 || w == 0)) {
        /* the write chunk holds the last survivor (or, with none, is the
           head): keep the chunks up to it */
        corral__truncate_lane(s, L, w == 0 ? CORRAL__NIL : wc, w);
    } else {
        /* the first hole opened at a chunk's start and nothing followed
           (or a limited run, reordered, left out its tombstones): the last
           survivor is found along the chain */
        uint32_t tombs = L->tombs;
        corral__compact_lane(s, L, w); /* frees the tail chunks, entries already compact */
        L->tombs = tombs; /* stops during the walk may have left tombstones behind the cursor */
    }
    L->walk_end = 0;
    corral__walk_over(s);
    s->nodes.debug_visits += steps;
    return steps;
}

typedef uint32_t *(*corral__in_place_fn)(corral_sched *s, uint32_t *rp, uint32_t *stop);

/* Step every entry [0, walk_end) of one lane once. in_place: the plain
   walk's fast loop, or NULL (budgeted and instrumented walks compact from
   the start). */
static CORRAL__ALWAYS_INLINE uint32_t corral__walk_impl(corral_sched *s, uint32_t lane, const bool budgeted,
                                                       const bool instrumented, const corral__in_place_fn in_place)
{
    corral__lane *L = &corral__lanes(s)[lane];
    const uint32_t n = L->walk_end;
    if (n == 0) return 0;
    uint32_t *rp = corral__entries(s) + (size_t)L->head * CORRAL__CHUNK;
    uint32_t *wp = rp, *wend = rp + CORRAL__CHUNK;
    s->run.walking_lane = lane;
    s->run.walk_steps = n;
    /* the read and write cursors' chunks and their places in the chain
       (0: the lane's head), kept as they move, in the scheduler: a
       compaction moves them, and the end of the walk knows how many
       survivors there are and where the last one is without walking the
       chain again (a chain walk is one dependent load per 32 entries) */
    s->run.walk_read = L->head;
    s->run.walk_rk = 0;
    if (!in_place) { /* else NIL (walk_over) until a hole opens */
        s->run.walk_write = L->head;
        s->run.walk_wk = 0;
    }
    const uint32_t expect = corral__state_flags_of(CORRAL__QUEUED, s->now.phase);
    /* Until the first hole opens, every survivor stays where it is; after
       that, the loop below compacts behind its cursor. */
    bool holes = in_place == NULL;
    for (uint32_t left = n;;) {
        uint32_t take = left < CORRAL__CHUNK ? left : CORRAL__CHUNK;
        uint32_t *const stop = rp + take;
        left -= take;
        if (left > CORRAL__CHUNK) {
            /* The entries of the chunk after next, asked for now: a lane's
               chunks are adjacent only while it alone takes chunks from
               the pool. BY_TYPE lanes filled together interleave, and
               there, without this, every chunk began with a miss on its
               entries (docs/DESIGN.md has the measurement). */
            const uint32_t *ahead = corral__chunk_after(s, corral__chunk_after(s, rp));
            CORRAL__PREFETCH_W(ahead);
            CORRAL__PREFETCH_W(ahead + CORRAL__CHUNK / 2);
        }
        if (!holes) {
            uint32_t *h = in_place(s, rp, stop);
            if (!h) {
                rp = stop;
            } else {
                holes = true;
                wp = h - 1; /* the hole */
                wend = corral__chunk_end(s, wp);
                rp = h;
                s->run.walk_write = s->run.walk_read;
                s->run.walk_wk = s->run.walk_rk;
            }
        }
        for (; rp != stop; rp++) {
            uint32_t off = *rp;
            CORRAL__PREFETCH_W(CORRAL__AT(s, rp[CORRAL__PREFETCH]));
            if (budgeted) {
                if (corral__budget_spent(s, L, rp)) return 0; /* (a budgeted run counts its steps) */
            }
            if (off == CORRAL__NIL) { /* stopped while queued */
                s->run.walk_steps--;
                continue;
            }
            corral_co *co = CORRAL__CO(s, off);
            s->run.running = off;
            if (budgeted) s->budget.steps++;
            corral_result r = instrumented ? corral__step_profiled(s, co) : corral__types(s)[co->type].step(co);
            if (((uint32_t)r | (corral__state_flags(co) ^ expect)) == 0) {
                if (wp == wend) { /* the write cursor's chunk is full: on to the next */
                    const uint32_t c = corral__chunk_next(s)[s->run.walk_write];
                    s->run.walk_write = c;
                    s->run.walk_wk++;
                    wp = corral__entries(s) + (size_t)c * CORRAL__CHUNK;
                    wend = wp + CORRAL__CHUNK;
                }
                if (wp != rp) {
                    *wp = off;
                    co->link = (uint32_t)(wp - corral__entries(s));
                }
                wp++;
                continue;
            }
            s->run.running = CORRAL__NIL;
            corral__after_walk(s, co, r);
        }
        if (s->run.walk_cut) { /* a compaction took tombstones from what is left to read */
            left -= s->run.walk_cut;
            s->run.walk_cut = 0;
        }
        if (left == 0) break;
        const uint32_t c = corral__chunk_next(s)[s->run.walk_read];
        s->run.walk_read = c;
        s->run.walk_rk++;
        rp = corral__entries(s) + (size_t)c * CORRAL__CHUNK;
    }
    if (!holes) { /* the write cursor is the read cursor */
        wp = rp;
        wend = corral__chunk_end(s, rp - 1);
        s->run.walk_wk = s->run.walk_rk;
    }
    return corral__walk_finish(s, L, rp, wp, wend);
}

/* (the phase being run is s->now.phase) */
/* The walk in four kinds (plain, budgeted, instrumented, both), so the
   plain one has no test for a budget, timing or hooks in its loop. The
   plain one's loop before the first hole is out of line and starts on a
   64-byte boundary, so it sits at the same place in the cache line
   whatever the program it is linked into: left to the linker, the loop's
   offset in its line (and with it the step's speed above the L2 cache)
   followed whatever came before it in the binary (docs/DESIGN.md, "The
   walk's placement"). */
CORRAL__HOT_LOOP_FN static uint32_t *corral__in_place(corral_sched *s, uint32_t *rp, uint32_t *stop)
{
    return corral__in_place_impl(s, rp, stop);
}
static uint32_t corral__walk(corral_sched *s, uint32_t lane)
{
    return corral__walk_impl(s, lane, false, false, corral__in_place);
}
CORRAL__HOT_LOOP_FN static uint32_t *corral__in_place_ahead(corral_sched *s, uint32_t *rp, uint32_t *stop)
{
    return corral__in_place_ahead_impl(s, rp, stop);
}
static uint32_t corral__walk_ahead(corral_sched *s, uint32_t lane)
{
    return corral__walk_impl(s, lane, false, false, corral__in_place_ahead);
}
static uint32_t corral__walk_budgeted(corral_sched *s, uint32_t lane) { return corral__walk_impl(s, lane, true, false, NULL); }
/* the instrumented two: the profile part's (stats.c's table names them) */
uint32_t corral__walk_profiled(corral_sched *s, uint32_t lane) { return corral__walk_impl(s, lane, false, true, NULL); }
uint32_t corral__walk_budgeted_profiled(corral_sched *s, uint32_t lane)
{
    return corral__walk_impl(s, lane, true, true, NULL);
}

/* Reordering a lane's entries goes through chains of its coroutines,
   linked by their own co->link (each is rewritten with its new place at
   the end): a chain is {head, tail} of offsets, NIL-terminated. */
typedef struct corral__chain {
    uint32_t head, tail;
} corral__chain;
static void corral__chain_add(corral_sched *s, corral__chain *c, uint32_t off)
{
    CORRAL__CO(s, off)->link = CORRAL__NIL;
    if (c->tail != CORRAL__NIL) CORRAL__CO(s, c->tail)->link = off;
    else c->head = off;
    c->tail = off;
}
/* the chains, one after another, written over L's entries from its head;
   each coroutine's link back to its entry; how many */
static uint32_t corral__chains_write(corral_sched *s, corral__lane *L, const corral__chain *c, uint32_t chains)
{
    uint32_t *E = corral__entries(s);
    const uint32_t *next = corral__chunk_next(s);
    uint32_t *p = E + (size_t)L->head * CORRAL__CHUNK, out = 0;
    for (uint32_t k = 0; k < chains; k++)
        for (uint32_t off = c[k].head; off != CORRAL__NIL;) {
            corral_co *co = CORRAL__CO(s, off);
            uint32_t after = co->link;
            if (out > 0 && out % CORRAL__CHUNK == 0)
                p = E + (size_t)next[(size_t)(p - 1 - E) / CORRAL__CHUNK] * CORRAL__CHUNK;
            *p = off;
            co->link = (uint32_t)(p - E);
            p++;
            out++;
            off = after;
        }
    return out;
}

/* After a run limited to n entries of L, its w entries are: the survivors
   of those n, then the deferred ones (which did not run), then what joined.
   Reorder them as deferred, survivors, joined, leaving out the tombstones
   of those stopped since; how many there are. */
static uint32_t corral__defer_first(corral_sched *s, corral__lane *L, uint32_t w)
{
    uint32_t *E = corral__entries(s);
    const uint32_t *next = corral__chunk_next(s);
    /* the walk counted the survivors and the deferred while compacting */
    const uint32_t survivors = L->walk_survivors, deferred_end = survivors + L->walk_deferred;
    corral__chain part[3] = {{CORRAL__NIL, CORRAL__NIL}, {CORRAL__NIL, CORRAL__NIL}, {CORRAL__NIL, CORRAL__NIL}};
    uint32_t *p = E + (size_t)L->head * CORRAL__CHUNK;
    for (uint32_t i = 0; i < w; i++) {
        if (i > 0 && i % CORRAL__CHUNK == 0) p = E + (size_t)next[(size_t)(p - 1 - E) / CORRAL__CHUNK] * CORRAL__CHUNK;
        const uint32_t off = *p++;
        if (off != CORRAL__NIL) corral__chain_add(s, &part[i < survivors ? 1 : i < deferred_end ? 0 : 2], off);
    }
    return corral__chains_write(s, L, part, 3);
}

/* The budget ran out at entry k of L (rp points at it; [k, walk_end) did
   not run). Rebuild L as: what did not run, then what ran and stayed, then
   what joined during the run. */
static void corral__rotate_after_budget(corral_sched *s, corral__lane *L, uint32_t *rp_unrun)
{
    if (s->run.ready_read != CORRAL__NIL) corral__drain_ready(s);
    uint32_t *E = corral__entries(s);
    const uint32_t *next = corral__chunk_next(s);
    /* (after the drain: a compaction there may free chunks before rp) */
    const uint32_t at = (uint32_t)(rp_unrun - E), n = L->walk_end;
    const uint32_t k = s->run.walk_rk * CORRAL__CHUNK + at % CORRAL__CHUNK;
    corral__chain part[3] = {{CORRAL__NIL, CORRAL__NIL}, {CORRAL__NIL, CORRAL__NIL}, {CORRAL__NIL, CORRAL__NIL}};
    /* those that ran and stayed: the survivors compacted at the front (first,
       while every link still points at its entry) */
    uint32_t *p = E + (size_t)L->head * CORRAL__CHUNK;
    for (uint32_t i = 0; i < k; i++) {
        if (i > 0 && i % CORRAL__CHUNK == 0) p = E + (size_t)next[(size_t)(p - 1 - E) / CORRAL__CHUNK] * CORRAL__CHUNK;
        uint32_t off = *p++;
        /* a survivor's entry names it and its link points here (a link
           already chained is an offset, which no entry index equals: the
           entries lie before every slot in the block) */
        if (off != CORRAL__NIL && CORRAL__CO(s, off)->state == CORRAL__QUEUED &&
            &E[CORRAL__CO(s, off)->link] == p - 1)
            corral__chain_add(s, &part[1], off);
    }
    /* the unrun [k, n) and what joined [n, count): from rp on */
    uint32_t unrun = 0;
    p = rp_unrun;
    for (uint32_t i = k; i < L->count; i++) {
        if (i > k && ((size_t)(p - E) % CORRAL__CHUNK) == 0) p = E + (size_t)next[(size_t)(p - 1 - E) / CORRAL__CHUNK] * CORRAL__CHUNK;
        uint32_t off = *p++;
        if (off == CORRAL__NIL) continue;
        corral__chain_add(s, &part[i < n ? 0 : 2], off);
        unrun += i < n;
    }
    /* BY_TYPE: next run, only the unrun part of this lane goes before the
       other lanes; the part that ran waits for the lane's following turn */
    if (s->run.order == CORRAL_ORDER_BY_TYPE) L->walk_limit = unrun ? unrun : 1;
    uint32_t m = corral__chains_write(s, L, part, 3);
    L->walk_end = L->count; /* nothing to protect */
    L->count = m;
    uint32_t tombs = L->tombs;
    corral__compact_lane(s, L, m); /* frees the chunks past m */
    L->tombs = tombs;
    L->walk_end = 0;
}

/* The run lanes of a phase: [*first, *first + count). BY_TYPE: a lane per
   type index, so lanes past the types seen so far are empty: not even
   visited. */
static uint32_t corral__phase_lanes(const corral_sched *s, uint32_t phase, uint32_t *first)
{
    *first = s->run.order == CORRAL_ORDER_BY_TYPE ? phase * s->run.lanes_per_phase : phase;
    return s->run.order == CORRAL_ORDER_BY_TYPE ? (s->types.type_count < s->run.lanes_per_phase ? s->types.type_count : s->run.lanes_per_phase)
                                            : 1;
}

void corral__lanes_begin(corral_sched *s, uint32_t phase)
{
    corral__lane *lanes = corral__lanes(s);
    uint32_t first, count = corral__phase_lanes(s, phase, &first);
    for (uint32_t i = first; i < first + count; i++) {
        if (lanes[i].tombs) corral__compact_lane(s, &lanes[i], 0);
        lanes[i].walk_end = lanes[i].count;
        lanes[i].walk_orig = lanes[i].walk_end;
        if (lanes[i].walk_limit) {
            if (lanes[i].walk_limit < lanes[i].walk_end) lanes[i].walk_end = lanes[i].walk_limit;
            lanes[i].walk_limit = 0;
        }
    }
}

uint32_t corral__run_lanes(corral_sched *s, uint32_t phase)
{
    corral__lane *lanes = corral__lanes(s);
    uint32_t first, count = corral__phase_lanes(s, phase, &first);
    if (count == 0) return 0;
    uint32_t steps = 0;
    if (!s->budget.ns) {
        if (s->prof.instrument)
            for (uint32_t i = first; i < first + count; i++) steps += corral__profile(s)->walk(s, i);
        else if (s->run.order == CORRAL_ORDER_FIFO && s->types.type_count > 1) /* a lane of many types */
            steps += lanes[first].walk_end ? corral__walk_ahead(s, first) : 0;
        else
            for (uint32_t i = first; i < first + count; i++)
                if (lanes[i].walk_end) steps += corral__walk(s, i);
        return steps;
    }
    return ((const corral__budget_part *)corral__feature(s, CORRAL__FEATURE_BUDGET))->run(s, phase, first, count);
}

/* The budget part: a phase run with a time budget (s->budget.ns, which
   only corral_set_budget sets, on a scheduler with the part). It starts
   where the last run stopped; what did not run goes first. */
static uint32_t corral__run_budgeted(corral_sched *s, uint32_t phase, uint32_t first, uint32_t count)
{
    corral__lane *lanes = corral__lanes(s);
    s->budget.out = 0;
    s->budget.steps = 0;
    uint32_t start = s->run.first_lane[phase] % count;
    for (uint32_t j = 0; j < count; j++) {
        uint32_t i = first + (start + j) % count;
        if (s->budget.out) {
            lanes[i].walk_end = 0;
            continue;
        }
        if (s->prof.instrument) corral__profile(s)->walk_budgeted(s, i);
        else corral__walk_budgeted(s, i);
        if (s->budget.out) s->run.first_lane[phase] = (start + j) % count;
    }
    if (!s->budget.out) s->run.first_lane[phase] = 0;
    return s->budget.steps;
}

static const corral__budget_part corral__budget_table = {.run = corral__run_budgeted, .defer_first = corral__defer_first};
const corral_part corral_part_budget = {
    .feature = CORRAL__FEATURE_BUDGET,
    .table = &corral__budget_table,
};

void corral_set_budget(corral_sched *s, uint64_t ns)
{
    if (!corral__check(s)) return;
    if (ns && !corral__part_needed(__func__, s, NULL, corral__feature(s, CORRAL__FEATURE_BUDGET), "budget")) return;
    s->budget.ns = ns;
}

uint64_t corral_budget_left(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return 0;
    if (!s->budget.ns || !s->now.in_tick) return UINT64_MAX;
    uint64_t spent = s->now.clock.now_ns(s->now.clock.user_data) - s->budget.run_start;
    return spent >= s->budget.ns ? 0 : s->budget.ns - spent;
}

