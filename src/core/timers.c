/*
    timers.c -- the waits for frames, seconds and real seconds: one 4-ary
    min-heap per clock (frames, real time, each time domain's seconds:
    domains.c), keyed by due time on that clock, ties by the order the
    waits began. A timer node's heap is in its `list`, its heap position in
    its `next`. The heaps lie in pages of one store (corral__heapv): a heap
    takes a free page as it grows into one and gives it back as it leaves.

    A plain sleep (corral_await of one frames, seconds or realtime wait)
    takes no node: its heap entry is its record, and its coroutine's link
    names the entry (CORRAL__SLEEP_LINK). A paused sleeper's entry waits in
    one more heap of the store, the held heap, keyed by the time it has
    left, so a pause or a resume takes nothing that can run out. The store
    has room for max_sleepers sleeps and a timer a wait node.

    Timers are checked once a frame, before its first phase run (sched.c):
    a frame with nothing due looks at three heap roots and nothing else.
    The due nodes are fired by lifecycle.c (corral__wake_timers).
*/
#include "../corral_internal.h"
#include "arena.h"

static CORRAL__ALWAYS_INLINE bool corral__before(const corral__heap_entry *a, const corral__heap_entry *b)
{
    if (a->due != b->due) return a->due < b->due;
    return (int32_t)(a->seq - b->seq) < 0;
}

/* x at pos of its heap, at its place e there: its node (or sleeper) told
   the position */
static CORRAL__ALWAYS_INLINE void corral__heap_put(corral_sched *s, corral__node *N, corral__heap_entry *e, uint32_t pos,
                                                  const corral__heap_entry *x)
{
    *e = *x;
    if (x->ref & CORRAL__SLEEP_REF) {
        corral_co *co = corral__sleeper(s, x->ref);
        assert(corral__link_sleeps(co->link) && "corral: a sleep's entry names its sleeper");
        co->link = (co->link & ~CORRAL__SLEEP_POS) | pos;
    } else {
        N[x->ref].next = pos;
    }
}

/* entry x, to go at pos of heap H, up past the parents due after it */
static void corral__sift_up(corral_sched *s, corral__node *N, corral__heapv H, uint32_t pos, corral__heap_entry x)
{
    corral__heap_entry *e = corral__heap_ref(&H, pos);
    while (pos > 0) {
        const uint32_t parent = (pos - 1) / CORRAL__HEAP_ARITY;
        corral__heap_entry *pe = corral__heap_ref(&H, parent);
        if (!corral__before(&x, pe)) break;
        corral__heap_put(s, N, e, pos, pe);
        pos = parent;
        e = pe;
    }
    corral__heap_put(s, N, e, pos, &x);
}

/* entry x, to go at pos of heap H of n entries, down past the children due
   before it: a level's four children share a page (CORRAL__HEAP_SKEW);
   whether it went down */
static bool corral__sift_down(corral_sched *s, corral__node *N, corral__heapv H, uint32_t n, uint32_t pos, corral__heap_entry x)
{
    corral__heap_entry *e = corral__heap_ref(&H, pos);
    const uint32_t from = pos;
    for (;;) {
        const uint64_t first = (uint64_t)CORRAL__HEAP_ARITY * pos + 1;
        if (first >= n) break;
        const uint32_t c = (uint32_t)first, kids = n - c < CORRAL__HEAP_ARITY ? n - c : CORRAL__HEAP_ARITY;
        corral__heap_entry *ke = corral__heap_ref(&H, c);
        uint32_t best = 0;
        for (uint32_t k = 1; k < kids; k++)
            if (corral__before(&ke[k], &ke[best])) best = k;
        if (!corral__before(&ke[best], &x)) break;
        corral__heap_put(s, N, e, pos, &ke[best]);
        pos = c + best;
        e = ke + best;
    }
    corral__heap_put(s, N, e, pos, &x);
    return pos != from;
}

/* a page for a heap: one given back, else the next never taken */
static inline uint32_t corral__heap_page_take(corral_sched *s)
{
    assert((s->timers.free_count || s->timers.page_bump < s->timers.page_count) &&
           "corral: the timer store has a page for every heap's slack");
    return s->timers.free_count ? corral__heap_free(s)[--s->timers.free_count] : s->timers.page_bump++;
}

/* entry pos of a heap is the first of its page: the page the heap takes
   as it grows to it, or gives back as it shrinks below it */
static inline bool corral__heap_page_starts(uint32_t pos)
{
    return pos == 0 || ((pos + CORRAL__HEAP_SKEW) & (CORRAL__HEAP_PAGE - 1u)) == 0;
}

/* entry x into heap h */
static void corral__heap_put_in(corral_sched *s, uint32_t h, corral__heap_entry x)
{
    const corral__heapv H = corral__heap(s, h);
    const uint32_t pos = s->timers.heap_len[h]++;
    if (corral__heap_page_starts(pos)) /* the store has a page for it: sized for every sleep and timer */
        H.tab[(pos + CORRAL__HEAP_SKEW) >> CORRAL__HEAP_PAGE_SHIFT] = corral__heap_page_take(s);
    corral__sift_up(s, corral__nodes(s), H, pos, x);
}
/* node i into heap h, by its due time and order */
static void corral__heap_push(corral_sched *s, uint32_t h, uint32_t i)
{
    const corral__node *n = &corral__nodes(s)[i];
    const corral__heap_entry x = {n->u.t.due, n->u.t.seq, i};
    corral__heap_put_in(s, h, x);
}

static void corral__heap_remove(corral_sched *s, uint32_t h, uint32_t pos)
{
    const corral__heapv H = corral__heap(s, h);
    const uint32_t last = --s->timers.heap_len[h];
    const corral__heap_entry moved = CORRAL__HEAP_AT(H, last);
    if (corral__heap_page_starts(last)) /* its last page left empty: back to the store */
        corral__heap_free(s)[s->timers.free_count++] = H.tab[(last + CORRAL__HEAP_SKEW) >> CORRAL__HEAP_PAGE_SHIFT];
    if (pos == last) return;
    corral__node *N = corral__nodes(s);
    if (!corral__sift_down(s, N, H, last, pos, moved)) corral__sift_up(s, N, H, pos, moved); /* not down: perhaps up */
}

/* ---- wake points */
/* a due time (held: time left) on heap h as kept: a clock's past its
   bound never comes (API.md, "Clocks and their bounds"); frames count on */
static double corral__due_on(uint32_t h, double due)
{
    return h == CORRAL__HEAP_FRAMES ? due : corral__due_saturate(due);
}

/* a due time on heap h made its time left (sign -1) or back (+1): a
   pause's and a resume's, one function for the two (x - y is x + -y
   exactly) */
static CORRAL__COLD double corral__due_shifted(const corral_sched *s, uint32_t h, double due, double sign)
{
    return corral__due_on(h, due + sign * corral__timer_clock(s, h));
}

/* Time waits resume in a later frame than the one they began in: timers
   are checked before a frame's first run, and a due time in the future is
   not reached inside the frame. 0 frames, and 0, negative or NaN seconds
   (whose due time is now), wait for the next frame's number instead. */
void corral__timer_push(corral_sched *s, uint32_t i, uint32_t h, double due, float span)
{
    corral__node *n = &corral__nodes(s)[i];
    const corral__heap_entry x = {corral__due_on(h, due), s->timers.seq++, i};
    n->u.t.due = x.due;
    n->u.t.seq = x.seq;
    n->list = (uint8_t)h;
    memcpy(&n->u.t.target, &span, sizeof span); /* for the inspector */
    corral__heap_put_in(s, h, x);
}
void corral__timer_repush(corral_sched *s, uint32_t i) { corral__heap_push(s, corral__nodes(s)[i].list, i); }

/* the heap a time wait w of co goes in and its due time there */
static uint32_t corral__timer_due(const corral_sched *s, const corral_co *co, const corral_wait *w, double *due)
{
    const bool zero = w->kind == CORRAL_WAIT_FRAMES ? w->count == 0 : !(w->seconds > 0.0f);
    if (zero || w->kind == CORRAL_WAIT_FRAMES) { /* a frame number */
        *due = (double)(s->now.frame + (zero ? 1u : w->count));
        return CORRAL__HEAP_FRAMES;
    }
    const uint32_t h = w->kind == CORRAL_WAIT_REALTIME ? (uint32_t)CORRAL__HEAP_REAL
                                                       : corral__domain_heap(corral__co_domain(s, corral__meta_of(s, co)));
    *due = corral__timer_clock(s, h) + (double)w->seconds;
    return h;
}

static void corral__timer_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    double due;
    const uint32_t h = corral__timer_due(s, co, w, &due);
    corral__timer_push(s, i, h, due, w->kind == CORRAL_WAIT_FRAMES ? (float)w->count : w->seconds);
}

/* ---- plain sleeps: the entry is the record */

/* the wait kinds a sleep's ref keeps, as 2 bits: frames, seconds and
   realtime in a row (CORRAL_WAIT_KINDS) */
CORRAL__STATIC_ASSERT(CORRAL_WAIT_SECONDS == CORRAL_WAIT_FRAMES + 1 && CORRAL_WAIT_REALTIME == CORRAL_WAIT_FRAMES + 2,
                      "corral: the kinds of a plain sleep in a row");
static inline uint32_t corral__sleep_ref(const corral_sched *s, const corral_co *co, uint32_t kind)
{
    return CORRAL__SLEEP_REF | (kind - (uint32_t)CORRAL_WAIT_FRAMES) << CORRAL__SLEEP_KIND_SHIFT | corral__co_off(s, co) >> 3;
}
/* the heap its entry is in: its clock's, or the held heap */
static inline uint32_t corral__sleep_in(const corral_sched *s, uint32_t link)
{
    return (link & CORRAL__SLEEP_HELD) ? s->timers.heaps : corral__sleep_heap_of(link);
}
/* entry x for co, held or not, on clock heap h */
static void corral__sleep_put(corral_sched *s, corral_co *co, uint32_t h, bool held, corral__heap_entry x)
{
    co->link = CORRAL__SLEEP_LINK | (held ? CORRAL__SLEEP_HELD : 0u) | h << CORRAL__SLEEP_HEAP_SHIFT;
    corral__heap_put_in(s, held ? s->timers.heaps : h, x);
}
/* one more sleeper (its entry about to go in) */
static inline void corral__sleeper_count(corral_sched *s)
{
    if (++s->timers.sleepers > s->timers.sleepers_peak) s->timers.sleepers_peak = s->timers.sleepers;
}
/* its entry, taken out of its heap */
static corral__heap_entry corral__sleep_take(corral_sched *s, corral_co *co)
{
    const uint32_t h = corral__sleep_in(s, co->link), pos = co->link & CORRAL__SLEEP_POS;
    const corral__heap_entry x = CORRAL__HEAP_AT(corral__heap(s, h), pos);
    corral__heap_remove(s, h, pos);
    return x;
}

void corral__sleep_arm(corral_sched *s, corral_co *co, const corral_wait *w)
{
    double due;
    const uint32_t h = corral__timer_due(s, co, w, &due);
    const corral__heap_entry x = {corral__due_on(h, due), s->timers.seq++, corral__sleep_ref(s, co, (uint32_t)w->kind)};
    corral__sleeper_count(s);
    corral__sleep_put(s, co, h, false, x);
}

void corral__sleep_cancel(corral_sched *s, corral_co *co)
{
    corral__heap_remove(s, corral__sleep_in(s, co->link), co->link & CORRAL__SLEEP_POS);
    s->timers.sleepers--;
    co->link = CORRAL__NIL;
}


/* paused: into the held heap with the time it has left; resumed: back */
void corral__sleep_hold(corral_sched *s, corral_co *co)
{
    const uint32_t h = corral__sleep_heap_of(co->link);
    corral__heap_entry x = corral__sleep_take(s, co);
    x.due = corral__due_shifted(s, h, x.due, -1.0);
    corral__sleep_put(s, co, h, true, x);
}
void corral__sleep_unhold(corral_sched *s, corral_co *co)
{
    const uint32_t h = corral__sleep_heap_of(co->link);
    corral__heap_entry x = corral__sleep_take(s, co);
    x.due = corral__due_shifted(s, h, x.due, 1.0);
    corral__sleep_put(s, co, h, false, x);
}

/* to another domain's heap with the time it has left there (held: it
   keeps the time it has left) */
void corral__sleep_move(corral_sched *s, corral_co *co, uint32_t heap)
{
    const uint32_t h = corral__sleep_heap_of(co->link);
    if (h == heap) return;
    if (co->link & CORRAL__SLEEP_HELD) { /* its entry stays in the held heap: only the clock it goes back to */
        co->link = (co->link & ~(CORRAL__SLEEP_HEAP_MASK << CORRAL__SLEEP_HEAP_SHIFT)) | heap << CORRAL__SLEEP_HEAP_SHIFT;
        return;
    }
    corral__heap_entry x = corral__sleep_take(s, co);
    x.due = corral__due_on(heap, corral__timer_clock(s, heap) + (x.due - corral__timer_clock(s, h)));
    corral__sleep_put(s, co, heap, false, x);
}

bool corral__sleep_view_of(const corral_sched *s, const corral_co *co, corral__sleep_view *v)
{
    if (!corral__sleeps(co)) return false;
    const uint32_t in = corral__sleep_in(s, co->link), pos = co->link & CORRAL__SLEEP_POS;
    v->heap = (uint8_t)corral__sleep_heap_of(co->link);
    v->held = (co->link & CORRAL__SLEEP_HELD) != 0;
    if (in > s->timers.heaps || pos >= s->timers.heap_len[in]) return false; /* a broken link: verify says so */
    const corral__heap_entry *e = &CORRAL__HEAP_AT(corral__heap(s, in), pos);
    v->due = e->due;
    v->seq = e->seq;
    v->kind = (uint8_t)(CORRAL_WAIT_FRAMES + ((e->ref >> CORRAL__SLEEP_KIND_SHIFT) & 3u));
    v->left = v->held ? e->due : e->due - corral__timer_clock(s, v->heap);
    return true;
}

/* a loaded sleep (save.c): its heap, due time (held: the time it has
   left) and place among equal due times, as saved */
void corral__sleep_place(corral_sched *s, corral_co *co, uint32_t kind, uint32_t heap, double due, uint32_t seq, bool held)
{
    const corral__heap_entry x = {due, seq, corral__sleep_ref(s, co, kind)};
    corral__sleeper_count(s);
    corral__sleep_put(s, co, heap, held, x);
}

void corral__timer_cancel(corral_sched *s, const corral__node *n)
{
    corral__heap_remove(s, n->list, n->next);
}

void corral__deadline_arm(corral_sched *s, corral_co *co, uint32_t i, float seconds)
{
    const corral_wait w = corral_wait_seconds(seconds); /* its domain's seconds */
    corral__timer_arm(s, co, i, &w);
}

/* a time wait always lets a frame pass (Unity's WaitForSeconds) */
static int corral__timer_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    (void)call;
    (void)s;
    (void)co;
    (void)w;
    return 0;
}

/* held, a timer keeps the time it has left; an AT wait (alarms.c) keeps
   its time on the clock */
static bool corral__keeps_left(const corral_sched *s, const corral__node *n)
{
    const corral__wait_part *p = corral__wait_part_of(s, n->kind);
    return !(p && p->keeps_due);
}

static CORRAL__COLD void corral__timer_shift(const corral_sched *s, corral__node *n, double sign)
{
    n->u.t.due = corral__due_shifted(s, n->list, n->u.t.due, sign);
}

/* paused: out of its heap, keeping the time it has left */
static void corral__timer_hold(corral_sched *s, uint32_t i)
{
    corral__node *n = &corral__nodes(s)[i];
    corral__heap_remove(s, n->list, n->next);
    corral__timer_shift(s, n, -1.0);
}

/* resumed: back in its heap with the time it had left */
static void corral__timer_unhold(corral_sched *s, const corral_co *co, uint32_t i)
{
    (void)co;
    corral__node *n = &corral__nodes(s)[i];
    corral__timer_shift(s, n, 1.0);
    corral__heap_push(s, n->list, i);
}

/* ---- save games: its due time (held: the time it has left) and its order */
void corral__timer_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    (void)s;
    (void)te;
    corral__put_f64(io, n->u.t.due);
    corral__put_u(io, n->u.t.seq, 4);
}
void corral__timer_read(corral__io *io, corral__lwait *w)
{
    w->due = corral__get_f64(io);
    w->seq = (uint32_t)corral__get_u(io, 4);
}
/* in range, and in its kind's heap (a wait of 0 sits in the frames' heap):
   frames and realtime in theirs, every other timer kind in its
   coroutine's time domain's */
const char *corral__timer_check(const corral__lview *v, const corral__lwait *w)
{
    const uint32_t own = w->kind == CORRAL_WAIT_FRAMES     ? (uint32_t)CORRAL__HEAP_FRAMES
                         : w->kind == CORRAL_WAIT_REALTIME ? (uint32_t)CORRAL__HEAP_REAL
                                                           : corral__domain_heap(v->domain);
    if (!corral__due_ok(w->due) || w->list >= 2u + v->domains ||
        (w->list != CORRAL__HEAP_FRAMES && w->list != own))
        return "a timer of type %s is out of range%s";
    return NULL;
}
void corral__timer_load(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)co;
    corral__timer_place(v->s, i, w->list, w->due, w->seq, held);
}

const corral__wait_part corral__timer_part = {
    .ready = corral__timer_ready,
    .arm = corral__timer_arm,
    .hold = corral__timer_hold,
    .unhold = corral__timer_unhold,
    .save = corral__timer_save,
    .read = corral__timer_read,
    .check = corral__timer_check,
    .place = corral__timer_load,
};

/* Time (frames) until a timer node is due; a held one's is what it keeps. */
double corral__timer_left(const corral_sched *s, const corral__node *n)
{
    return n->attached == 2 && corral__keeps_left(s, n) ? n->u.t.due : n->u.t.due - corral__timer_clock(s, n->list);
}

/* A sleeper moves to another domain's heap with the time it has left
   there (a held one keeps it as it is). */
void corral__timer_move(corral_sched *s, uint32_t i, uint32_t heap)
{
    corral__node *n = &corral__nodes(s)[i];
    if (n->list == heap) return;
    if (n->attached != 1) {
        if (!corral__keeps_left(s, n))
            n->u.t.due =
                corral__due_on(heap, n->u.t.due + corral__timer_clock(s, heap) - corral__timer_clock(s, n->list));
        n->list = (uint8_t)heap;
        return;
    }
    double left = n->u.t.due - corral__timer_clock(s, n->list);
    corral__heap_remove(s, n->list, n->next);
    n->list = (uint8_t)heap;
    n->u.t.due = corral__due_on(heap, corral__timer_clock(s, heap) + left);
    corral__heap_push(s, heap, i);
}

/* a loaded timer (save.c): its heap, due time (held: the time it has
   left) and place among equal due times, as saved */
void corral__timer_place(corral_sched *s, uint32_t i, uint32_t heap, double due, uint32_t seq, bool held)
{
    corral__node *n = &corral__nodes(s)[i];
    n->list = (uint8_t)heap;
    n->u.t.due = due;
    n->u.t.seq = seq;
    if (!held) corral__heap_push(s, heap, i);
}

void corral__timers_seq_past(corral_sched *s, uint32_t seq)
{
    if (seq > s->timers.seq) s->timers.seq = seq;
}

/* every heap empty, every page of the store never taken */
static void corral__heap_pages_clear(corral_sched *s)
{
    s->timers.free_count = s->timers.page_bump = 0;
}

void corral__timers_init(corral_sched *s)
{
    memset(s->timers.heap_len, 0, sizeof s->timers.heap_len);
    s->timers.sleepers = s->timers.sleepers_peak = 0;
    s->timers.spilled = 0;
    corral__heap_pages_clear(s);
}

/* a restore: the heaps' lengths and the order of waiting as saved in o
   (the pages they take: corral__timers_restore) */
void corral__timers_take(corral_sched *d, const corral_sched *o)
{
    memcpy(d->timers.heap_len, o->timers.heap_len, sizeof d->timers.heap_len);
    d->timers.seq = o->timers.seq;
    d->timers.sleepers = o->timers.sleepers;
    d->timers.sleepers_peak = o->timers.sleepers_peak;
    d->timers.spilled = o->timers.spilled;
}

/* a restore: each heap's first len[h] entries as a snapshot holds them (at
   at[h] of snap, in heap order), in pages taken afresh from the store in
   order; the lengths come with corral__timers_take */
void corral__timers_restore(corral_sched *s, const unsigned char *snap, const size_t at[CORRAL__HEAP_MAX + 1],
                            const uint32_t len[CORRAL__HEAP_MAX + 1])
{
    corral__heap_pages_clear(s);
    for (uint32_t h = 0; h <= s->timers.heaps; h++) { /* the clocks' and the held heap */
        const corral__heapv H = corral__heap(s, h);
        for (uint32_t pos = 0, n; pos < len[h]; pos += n) {
            H.tab[(pos + CORRAL__HEAP_SKEW) >> CORRAL__HEAP_PAGE_SHIFT] = s->timers.page_bump++;
            n = corral__heap_run(pos, len[h]);
            memcpy(corral__heap_ref(&H, pos), snap + at[h] + (size_t)pos * sizeof(corral__heap_entry),
                   (size_t)n * sizeof(corral__heap_entry));
        }
    }
}
