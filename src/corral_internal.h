/*
    corral_internal.h -- the scheduler's state as it lies in the arena.

    Everything below lives inside the one block create carves up:

        [pad][corral_sched][type table][type hash][run queue][slabs...]

    Links are 32-bit byte offsets from the corral_sched (or indices), never
    pointers: the state is position-independent bytes. The only pointers are
    what the user handed in (vtables, allocator, logger).
*/
#ifndef CORRAL_INTERNAL_H
#define CORRAL_INTERNAL_H

#include "port.h" /* first: it sets what the system headers see */
#include "corral/corral.h"
#include <assert.h>
#include <stddef.h>
#include <string.h>

#define CORRAL__NIL 0xFFFFFFFFu
#define CORRAL__MAGIC 0x6C72726Fu /* "orrl" */
#define CORRAL__MAGIC_LOADING 0x64616F6Cu /* "load": a load or reload under way (corral__loading) */
#define CORRAL__HEADER_SIZE 16u
#define CORRAL__SLOT_STEP 8u /* slot sizes: multiples of this ... */
#define CORRAL__SLOT_MIN 24u /* ... from this (header + 8) */
#define CORRAL__SLAB_ALIGN 64u
#define CORRAL__CLASS_SHIFT 24u
#define CORRAL__LOCAL_MASK 0x00FFFFFFu
#define CORRAL__NO_CLASS 0xFFFFu

/* corral_co.state */
enum {
    CORRAL__FREE = 0,   /* on its class's free list */
    CORRAL__QUEUED,     /* in a lane (also while a phase walk steps it: then
                           sched->run.running names it) */
    CORRAL__RUNNING,    /* its first step is on the C stack (inside start) */
    CORRAL__STOPPING,   /* stopped while on the C stack: ends when its step returns */
    CORRAL__ENDING,     /* its cleanup hook is running */
    CORRAL__RETIRED,    /* generation exhausted: never reused */
    CORRAL__WAITING,    /* parked on wait nodes (timers, lists), in no lane */
    CORRAL__READY,      /* in the ready lane: resumes later in this phase run */
    CORRAL__PAUSED,     /* held, as a save writes it and the state hash reads it (with
                           its hold apart); in memory a held coroutine's state is
                           CORRAL__HELD | its hold */
    CORRAL__DEFERRED    /* in its phase's next-frame lane: joins its lane when the
                           next frame begins (the resume contract, corral__land) */
};

/* corral_co.flags: the phase the coroutine lives in (internal index): the
   four of the frame, then desc.custom_phases (PH_COUNT + k) */
enum { CORRAL__PH_FIXED = 0, CORRAL__PH_UPDATE, CORRAL__PH_LATE, CORRAL__PH_END, CORRAL__PH_COUNT };
#define CORRAL__PH_MAX (CORRAL__PH_COUNT + CORRAL_MAX_CUSTOM_PHASES)
#define CORRAL__PHASE_MASK 0x07u
/* corral_co.flags: what the resume contract needs to know about the step
   that is running (docs/API.md, "When a coroutine resumes"); all clear
   once the step has landed, so the walk's one-compare test never sees them */
#define CORRAL__FIRST_FLAG 0x20u      /* its first step: a plain yield waits for the next frame */
#define CORRAL__NEXT_FRAME_FLAG 0x10u /* it awaited next_frame while this frame's UPDATE is to come */
#define CORRAL__PHASE_WAIT_FLAG 0x08u /* its first step awaited a phase (fixed, late, end of frame) */
#define CORRAL__CONTRACT_FLAGS (CORRAL__FIRST_FLAG | CORRAL__NEXT_FRAME_FLAG | CORRAL__PHASE_WAIT_FLAG)
/* both: its step began a race or sync (corral_race_begin) and has not
   started its arms (corral_arms_start); no await sets both. A step that
   returns so fails the walk's one-compare test, and its landing or hold
   ends that race (corral__arms_abandoned) */
#define CORRAL__ARMS_OPEN_FLAGS (CORRAL__NEXT_FRAME_FLAG | CORRAL__PHASE_WAIT_FLAG)
/* its step is over: what it asked of the contract is spent */
#define CORRAL__CONTRACT_DONE(co) ((co)->flags = (uint8_t)((co)->flags & ~CORRAL__CONTRACT_FLAGS))

/* sched flags */
#define CORRAL__OWNS_MEMORY 0x01u
#define CORRAL__DESTROYING 0x02u

/* ---- lanes: the run queues. One per phase (FIFO order) or per
   (phase, type) (BY_TYPE order). A lane is a chain of CORRAL__CHUNK-entry
   chunks from one pool; an entry is the offset of a coroutine or NIL (a
   tombstone). co->link is the absolute entry index (chunk * CHUNK + pos). */
#define CORRAL__CHUNK 32u
#define CORRAL__PREFETCH 8u /* the walk asks for the context this many entries on */
#define CORRAL__FREE_CHUNK 0xFFFFFFFEu /* a free chunk's first entry: in no lane (corral_verify) */
/* The chunk pool: one entry a slot, and chunks that are never full: one
   per lane (its last), and what a walk holds, its read and write chunks
   and the partial chunk of the second part of its lane a compaction
   leaves (lanes.c shows it suffices); and an eighth of an entry a slot
   more, so that a pool run dry, compacted, has room for slots / 8 new
   entries before it runs dry again: a compaction's cost, a walk over the
   lanes, is spread over that many. */
static inline uint64_t corral__chunks_for(uint64_t slots, uint64_t lanes)
{
    return (slots + slots / 8u + CORRAL__CHUNK - 1) / CORRAL__CHUNK + lanes + 3;
}
typedef struct corral__lane {
    uint32_t head, tail; /* chunk chain, NIL if none */
    uint32_t count;      /* entries, tombstones included */
    uint32_t cap;        /* chunks in the chain * CHUNK */
    uint32_t tombs;      /* tombstones written since the last compaction (may overcount) */
    uint32_t walk_end;   /* during a phase run: entries this run will step */
    uint32_t walk_limit; /* BY_TYPE after a budget stop: step only this many next run */
    uint32_t walk_orig;  /* entries at the start of a limited run (the rest joined during it) */
    uint32_t walk_survivors, walk_deferred; /* a limited run's survivors and deferred entries */
} corral__lane;

/* ---- waits */
/* How a wait kind waits: the `how` column of CORRAL_WAIT_KINDS (corral.h) */
typedef enum corral__how {
    CORRAL__HOW_PLAIN, CORRAL__HOW_FRAME, CORRAL__HOW_PHASE, /* no node: corral_await sets the phase */
    CORRAL__HOW_TIMER, CORRAL__HOW_POLL, CORRAL__HOW_LIST, CORRAL__HOW_GROUP /* nodes */
} corral__how;
#define CORRAL__PH_OWN 0xFFu /* the `phase` column's OWN: the coroutine's own */
#define CORRAL__PHOF_OWN CORRAL__PH_OWN
#define CORRAL__PHOF_FIXED_UPDATE CORRAL__PH_FIXED
#define CORRAL__PHOF_UPDATE CORRAL__PH_UPDATE
#define CORRAL__PHOF_LATE_UPDATE CORRAL__PH_LATE
#define CORRAL__PHOF_END_OF_FRAME CORRAL__PH_END
typedef struct corral__kind {
    uint8_t how;   /* corral__how */
    uint8_t phase; /* internal phase, or CORRAL__PH_OWN */
} corral__kind;
/* what a wait kind is (kind < CORRAL_WAIT_KIND_COUNT), from CORRAL_WAIT_KINDS */
static inline corral__kind corral__kind_of(uint32_t kind)
{
    static const corral__kind kinds[CORRAL_WAIT_KIND_COUNT] = {
#define CORRAL__X(id, name, how, phase, part) {CORRAL__HOW_##how, CORRAL__PHOF_##phase},
        CORRAL_WAIT_KINDS(CORRAL__X)
#undef CORRAL__X
    };
    return kinds[kind];
}
static inline bool corral__kind_is(uint8_t kind, corral__how how)
{
    return kind < CORRAL_WAIT_KIND_COUNT && corral__kind_of(kind).how == how;
}
/* timer heaps: domain 0's seconds, realtime, frames, then domain 1's, 2's ... seconds */
enum { CORRAL__HEAP_SCALED = 0, CORRAL__HEAP_REAL, CORRAL__HEAP_FRAMES, CORRAL__HEAP_MAX = 2 + CORRAL_MAX_DOMAINS };
static inline uint32_t corral__domain_heap(uint32_t domain) { return domain ? 2u + domain : CORRAL__HEAP_SCALED; }
/* the heap holds a domain's seconds: which (NIL: realtime, frames) */
static inline uint32_t corral__heap_domain(uint32_t heap)
{
    return heap == CORRAL__HEAP_SCALED ? 0u : heap > CORRAL__HEAP_FRAMES ? heap - 2u : CORRAL__NIL;
}
enum { CORRAL__MODE_NONE = 0, CORRAL__MODE_ONE, CORRAL__MODE_ALL, CORRAL__MODE_ANY,
       CORRAL__MODE_RACE, CORRAL__MODE_SYNC /* its arms: nodes of kind CORRAL__NODE_ARM */ };
/* meta.mode while a step builds a race or sync (corral_race_begin .. corral_arms_start) */
#define CORRAL__MODE_KIND 0x0Fu
#define CORRAL__MODE_OPEN 0x80u    /* arms may be added */
#define CORRAL__MODE_BAD 0x40u     /* an arm could not start: none will */
#define CORRAL__MODE_NO_NODE 0x20u /* an arm found no wait node: the caller ends */
/* node kinds past the wait kinds: an arm of a race or sync (its child in
   u.t.target, NIL once ended; its destination offset in u.t.seq; never in
   a container), group memberships */
/* CORRAL__NODE_DEADLINE: a stop request's deadline (corral_request_stop), a
   wait node in a timer heap, chained with the coroutine's group nodes (it
   outlives its waits) */
/* CORRAL__NODE_OWNED: a generator started in a coroutine's step belongs to
   that coroutine: a wait node chained with the generator's group nodes
   (n->co the generator), on its owner's joiners list (u.t.target the
   owner; u.t.seq NIL), whose end stops the generator (calls.c) */
enum { CORRAL__NODE_ARM = 90, CORRAL__NODE_DEADLINE, CORRAL__NODE_OWNED, CORRAL__NODE_OWNER = 100, CORRAL__NODE_TAG };
/* corral__node.list of a predicate: its phase's list (0 .. PH_COUNT - 1),
   the list being polled, or the phase's list for the next frame */
#define CORRAL__PRED_POLL CORRAL__PH_MAX
#define CORRAL__PRED_NEXT (CORRAL__PH_MAX + 1u) /* + phase */
/* A held coroutine (corral_pause, a generator between pulls) is in no
   lane; its state is CORRAL__HELD | its hold, the CORRAL__HOLD_* bits
   that say what its resume or next pull does. */
#define CORRAL__HELD 0x10u
#define CORRAL__HOLD_MASK 0x07u
#define CORRAL__HOLD_WAITING 0x01u /* it was waiting when paused */
#define CORRAL__HOLD_WOKEN 0x02u   /* its wait ended while paused: queue it on resume */
#define CORRAL__HOLD_GENERATOR 0x04u /* a generator: held between nexts, never resumed into a lane;
                                        with HOLD_WAITING its step waited, its wait armed (not held) */
#define CORRAL__SIDE_MAX 8u        /* nested group operations */
/* held: in no lane, its hold in its state */
static inline bool corral__paused(uint8_t state)
{
    return state >= CORRAL__HELD; /* no other state is as high (verify: none past CORRAL__HELD | its mask) */
}
/* the state a save writes and the state hash reads: a held coroutine's is
   CORRAL__PAUSED, its hold apart */
static inline uint8_t corral__state_saved(uint8_t state)
{
    return corral__paused(state) ? (uint8_t)CORRAL__PAUSED : state;
}

typedef struct corral__node {
    union {
        struct {
            double due;      /* timers: seconds or frame number */
            uint32_t seq;    /* timers: order of waiting, for ties */
            uint32_t target; /* lists: signal / future index, joined slot */
        } t;
        struct {
            corral_predicate fn;
            void *user;
        } p;
        struct {
            uint64_t owner;  /* OWNER nodes */
            uint32_t tag;    /* TAG nodes: the bit index */
            uint32_t bucket; /* OWNER nodes: the bucket */
        } g;
    } u;
    uint32_t co;       /* offset of the waiting coroutine */
    uint32_t next;     /* list link; in a heap: the heap position */
    uint32_t prev;     /* list link */
    uint32_t sibling;  /* next node of the same wait; free list link */
    uint8_t kind;      /* corral_wait_kind */
    uint8_t member;    /* index in an all/any wait */
    uint8_t attached;  /* in a heap or list */
    uint8_t list;      /* predicates: the list it is on (CORRAL__PRED_*); timers:
                          the heap; group nodes: 0 home, 1 + n the side list of a group op */
    uint32_t order;    /* when it was attached (s->nodes.order): a save keeps every
                          list's order by re-attaching in this order */
} corral__node;
CORRAL__STATIC_ASSERT(sizeof(corral__node) == 40 || sizeof(void *) < 8, "corral: a wait node is 40 bytes");
/* it sits in a timer heap when attached: a time wait or a deadline */
static inline bool corral__timer_node(const corral__node *n)
{
    return corral__kind_is(n->kind, CORRAL__HOW_TIMER) || n->kind == CORRAL__NODE_DEADLINE;
}

/* A coroutine's meta byte (corral__meta.bits): CORRAL__HAS_SIDE, and its
   stop and answer bits. While it is not STOPPING: CORRAL__STOP_REQUESTED
   and the answer of its last wait or pull (CORRAL__WAIT_CLOSED,
   CORRAL__GOT_MASK). A STOPPING coroutine's end reason (CORRAL__END_MASK)
   lies over CORRAL__STOP_REQUESTED (a stopping coroutine is past asking)
   and the bits above it; its answer bits stay its own (a pull the stop
   came in answers NOT_YET). */
#define CORRAL__HAS_SIDE 0x01u       /* it has a side record (the side records' lookup finds it) */
#define CORRAL__STOP_REQUESTED 0x10u /* corral_request_stop was called */
#define CORRAL__WAIT_CLOSED 0x08u    /* its last wait ended on a closed or destroyed channel */
/* what its last wait or pull gave, beside WAIT_CLOSED (corral_wait_got):
   0 a value (or closed, with WAIT_CLOSED), or one of these */
#define CORRAL__GOT_MASK 0x06u
#define CORRAL__GOT_NOTHING 0x02u /* a pull gave nothing: a stop request ended its wait */
#define CORRAL__GOT_STOPPED 0x04u /* the generator ended otherwise than finishing (with WAIT_CLOSED) */
#define CORRAL__GOT_ERROR 0x06u   /* the wait or pull was refused, the error set (with WAIT_CLOSED) */
/* the generator a CORRAL_PULL waited for ended meanwhile (calls.c), told
   in words no other wait leaves, so that only the pull that waited takes
   them for its answer (corral_generator_pull makes them CLOSED, STOPPED) */
#define CORRAL__GOT_PULL_FINISHED (CORRAL__WAIT_CLOSED | CORRAL__GOT_NOTHING)
#define CORRAL__GOT_PULL_STOPPED CORRAL__GOT_STOPPED
#define CORRAL__END_SHIFT 4u
#define CORRAL__END_MASK 0xF0u /* a STOPPING coroutine's end reason, shifted by CORRAL__END_SHIFT */
/* per slot: what every coroutine has (1 byte; the first node of its
   wait is in its header's link while it waits, corral__co_wait; how it
   waits is its chain's or its side record's, corral__co_mode; its birth
   frame, with desc.timing, is in the profile's ages: corral__co_born) */
typedef struct corral__meta {
    uint8_t bits;           /* CORRAL__HAS_SIDE, its stop and answer bits (above) */
} corral__meta;
CORRAL__STATIC_ASSERT(sizeof(corral__meta) == 1, "corral: a slot's meta is 1 byte");
CORRAL__STATIC_ASSERT(CORRAL_END_COUNT <= (CORRAL__END_MASK >> CORRAL__END_SHIFT) + 1u,
                      "corral: an end reason fits in CORRAL__END_MASK");
CORRAL__STATIC_ASSERT(((CORRAL__WAIT_CLOSED | CORRAL__GOT_MASK | CORRAL__HAS_SIDE) & CORRAL__END_MASK) == 0,
                      "corral: a stopping coroutine's end reason leaves its answer bits and side bit alone");
CORRAL__STATIC_ASSERT(CORRAL__RUN_HOLE == CORRAL__NIL, "corral: a lane's tombstone (NIL) is the hole the walks stop at");
/* ---- a coroutine's meta by what it means: outside corral__meta_fresh,
   corral__meta_reset (below) and corral__meta_load (arena.c), which own
   its layout, every read and write of these fields goes through here */
/* its chain's head set (it has a wait chain: corral__wait_open began it) */
static inline void corral__co_wait_set(corral_co *co, corral__meta *m, uint32_t i)
{
    (void)m;
    co->link = i;
}
/* where its first wait node is named: for code that links into the chain
   (it has one: corral__wait_open began it) */
static inline uint32_t *corral__co_wait_at(corral_co *co, corral__meta *m)
{
    (void)m;
    return &co->link;
}
/* it has a side record (corral__side_at finds it) */
static inline bool corral__co_sided(const corral__meta *m)
{
    return (m->bits & CORRAL__HAS_SIDE) != 0;
}
/* a held coroutine's hold: CORRAL__HOLD_* (0: it is not held; a
   generator's step has corral__co_is_generator) */
static inline uint8_t corral__co_hold(const corral_co *co, const corral__meta *m)
{
    (void)m;
    return corral__paused(co->state) ? (uint8_t)(co->state & CORRAL__HOLD_MASK) : 0u;
}
/* a held coroutine's hold changed: it stays held */
static inline void corral__co_hold_set(corral_co *co, corral__meta *m, uint32_t hold)
{
    (void)m;
    assert(corral__paused(co->state) && "corral: only a held coroutine has a hold");
    co->state = (uint8_t)(CORRAL__HELD | hold);
}
/* its stop and answer bits: a STOPPING coroutine's end reason
   (CORRAL__END_MASK), CORRAL__STOP_REQUESTED, CORRAL__WAIT_CLOSED and
   CORRAL__GOT_MASK (corral__meta.bits without CORRAL__HAS_SIDE) */
static inline uint8_t corral__co_stop_why(const corral__meta *m)
{
    return (uint8_t)(m->bits & ~CORRAL__HAS_SIDE);
}
static inline void corral__co_stop_why_set(corral__meta *m, uint32_t why)
{
    m->bits = (uint8_t)((m->bits & CORRAL__HAS_SIDE) | (why & ~CORRAL__HAS_SIDE));
}
static inline void corral__co_stop_why_add(corral__meta *m, uint32_t bits)
{
    m->bits = (uint8_t)(m->bits | (bits & ~CORRAL__HAS_SIDE));
}
static inline void corral__co_stop_why_clear(corral__meta *m, uint32_t bits)
{
    m->bits = (uint8_t)(m->bits & ~(bits & ~CORRAL__HAS_SIDE));
}
/* corral_request_stop was called for it (a STOPPING one is past asking:
   its end reason lies over the bit) */
static inline bool corral__co_stop_requested(const corral_co *co, const corral__meta *m)
{
    return co->state != CORRAL__STOPPING && (corral__co_stop_why(m) & CORRAL__STOP_REQUESTED);
}
static inline void corral__co_stop_request(const corral_co *co, corral__meta *m)
{
    if (co->state != CORRAL__STOPPING) corral__co_stop_why_add(m, CORRAL__STOP_REQUESTED);
}
/* the longest group chain a coroutine has (corral__side.groups): its
   owner's node and one per tag (the group nodes), a stop request's
   deadline and a generator's tie to its owner */
#define CORRAL__GROUP_NODES_MAX (1u + 32u)
#define CORRAL__GROUP_CHAIN_MAX (CORRAL__GROUP_NODES_MAX + 1u + 1u)
/* the end reason a STOPPING coroutine ends with (its stop bits' own;
   the answer bits of a wait or pull are not part of it) */
static inline corral_end_reason corral__stopping_why(const corral__meta *m)
{
    const uint32_t why = (corral__co_stop_why(m) & CORRAL__END_MASK) >> CORRAL__END_SHIFT;
    assert(why < CORRAL_END_COUNT && "corral: a stopping coroutine's end reason is out of range");
    return why < CORRAL_END_COUNT ? (corral_end_reason)why : CORRAL_END_STOPPED;
}

/* A side record (arena.c): the links few coroutines have -- a call's
   caller, child and result, the joiners waiting for it, its group
   nodes, an all/any's count -- taken from a pool of desc.max_side_records
   at the first of them and given back when the coroutine ends. */
typedef struct corral__side {
    uint32_t joiners_head;  /* nodes waiting for it to end (FIFO) */
    uint32_t joiners_tail;
    uint32_t parent;        /* global slot of the caller awaiting it, NIL; free: the next free record */
    uint32_t child;         /* global slot of the child it awaits, NIL */
    uint32_t dest;          /* where the child's result goes (offset in this slot), NIL */
    uint32_t groups;        /* first of its group membership nodes, NIL */
    uint8_t pending;        /* ALL: members not fired yet; a race or sync: its arms (at most CORRAL_MAX_GROUP) */
    uint8_t mode;           /* how its wait waits when it is more than one node: CORRAL__MODE_ALL, ANY,
                               RACE, SYNC (with CORRAL__MODE_OPEN, BAD, NO_NODE while its step
                               builds a race or sync); 0 otherwise (corral__co_mode) */
    int8_t fired;           /* ANY: the member that fired, -1 */
    uint8_t outcome;        /* how the last child it called ended */
    uint32_t owner;         /* global slot of the coroutine it is for; NIL: free */
    uint8_t domain;         /* its time domain (one other than 0 holds a record) */
    uint8_t spare[3];       /* 0 */
} corral__side;
CORRAL__STATIC_ASSERT(sizeof(corral__side) == 36, "corral: a side record is 36 bytes");
CORRAL__STATIC_ASSERT(CORRAL_MAX_GROUP <= 255 && CORRAL_MAX_DOMAINS <= 256, "corral: an all's count and a domain fit a byte");

/* ---- generations: one rule for a coroutine's slot (its page: arena.c,
   slots.h) and a pooled item (its pool: pool.c). A handle holds its
   record's generation and names the record while the two agree. The
   record's generation moves to the next one up each time it changes hands
   (a slot's when it is given back; a pooled item's at its take, to odd,
   and when it is given back, to even), never to one below the floor of
   its page or pool: a restore or a load raises the floor past every
   generation issued there, so no handle from before one names a record
   after it. The lowest generation a record has not issued is the one above
   its own, but for a free slot, whose give back moved it on already. Past
   UINT32_MAX there is none: a slot retires rather than wrap; a pooled
   item's goes on from 0. */

/* the generation a record moves to from gen: the next one up, no lower
   than floor; 0 past UINT32_MAX (below a page's floor, which is 1 or more) */
static inline uint32_t corral__gen_next(uint32_t gen, uint32_t floor)
{
    uint32_t next = gen + 1;
    if (CORRAL__UNLIKELY(next < floor)) next = next ? floor : 0;
    return next;
}
/* the lowest generation a record holding gen has not issued: gen itself
   when it takes gen next (a free slot), else the one above (UINT32_MAX
   stays) */
static inline uint32_t corral__gen_unissued(uint32_t gen, bool takes_it_next)
{
    return takes_it_next ? gen : gen + (gen != UINT32_MAX);
}

/* ---- pool.c: the handle pools. Every kind of handle but a coroutine's
   (signals, futures, channels, semaphores and wait groups) names an item
   of one pool: (index, generation), live while the generations agree.
   An item opens with a corral__item, which only pool.c reads or writes;
   the rest is its owner's. */
enum { CORRAL__POOL_SIGNAL = 0, CORRAL__POOL_FUTURE, CORRAL__POOL_CHANNEL, CORRAL__POOL_COUNTER, CORRAL__POOL_COUNT };
typedef struct corral__item {
    uint32_t gen;       /* which handle names it (pool.c's rule) */
    uint32_t next_free; /* free list */
} corral__item;
typedef struct corral__pool {
    uint32_t off, cap;  /* its items (from the sched), how many */
    uint32_t free;      /* first free item, NIL */
    uint32_t live, peak;
    uint32_t floor;     /* lowest generation an alloc issues (after a restore or load) */
    uint64_t failures;  /* allocs refused: the pool was full */
} corral__pool;

typedef struct corral__signal {
    corral__item it;
    uint32_t head, tail;
    uint32_t set;  /* 1: set (corral_signal_set) until reset: a wait on it is over at once */
} corral__signal;

typedef struct corral__future {
    corral__item it;
    uint32_t head, tail;
    uint32_t done;
    uint32_t pad;
    corral_value value;
} corral__future;

/* a channel: a ring of values in its stretch of the data region, and the
   senders and receivers waiting (their values in their contexts: a node's
   u.t.seq is the offset in its coroutine's slot) */
typedef struct corral__channel {
    corral__item it;
    uint32_t size, cap;    /* bytes per value, values the ring holds */
    uint32_t first, count; /* the ring: its oldest value, how many */
    uint32_t send_head, send_tail;
    uint32_t recv_head, recv_tail;
    uint32_t closed;       /* 1: corral_channel_close was called */
} corral__channel;
/* a semaphore (count: free permits) or a wait group (count: tasks not done) */
enum { CORRAL__SEMAPHORE = 1, CORRAL__WAITGROUP };
typedef struct corral__counter {
    corral__item it;
    uint32_t kind, count;
    uint32_t head, tail;   /* waiters (a semaphore's: each wants u.t.seq permits) */
    uint32_t max;          /* a semaphore's most permits; UINT32_MAX: no maximum */
} corral__counter;
/* room for an item of any pool, aligned for each */
typedef union corral__any_item {
    corral__signal a;
    corral__future b;
    corral__channel c;
    corral__counter d;
} corral__any_item;

/* A page: a run of consecutive slots of a class (a power of two: 64 up to
   4096, so that a class has about 64 pages or more) with their own free
   list. A type fills one page before it takes another (an empty one first),
   so coroutines of a type sit together in memory even when types are
   started in any order: a walk over one type's lane then streams through
   few cache lines. Which type a page serves is only a preference: a start
   takes a slot from any page before it fails. */
#define CORRAL__PAGE_MIN_SHIFT 6u
#define CORRAL__PAGE_MAX_SHIFT 12u
enum { CORRAL__PAGE_FULL = 0, CORRAL__PAGE_EMPTY, CORRAL__PAGE_PARTIAL };
typedef struct corral__page {
    uint32_t free_head;  /* class-local index of its first free slot, or NIL */
    uint16_t free_count; /* free slots: on the free list, or at bump and past it */
    uint16_t slots;      /* slots in it (the class's last page may be short) */
    uint32_t prev, next; /* in the list it is on: page indices, NIL */
    uint8_t list;        /* CORRAL__PAGE_*: the class list it is on (FULL: none) */
    uint8_t pad;
    uint16_t bump;       /* slots [bump, slots) untouched since the page was last
                            emptied: free, on no list, taken in order once the free
                            list is empty. A page that empties (but the one its
                            type fills) goes back to bump 0 and no list, so what
                            it holds depends on nothing before (snapshots) */
    uint32_t floor;      /* lowest generation a slot of it issues (raised at a take
                            and at a free): 1, or past the generations it issued
                            before a restore */
    uint32_t unissued;   /* no slot of it has issued a generation at or above this:
                            what a restore raises the floor to */
    uint32_t spare;      /* 32 bytes: a page is found by a shift */
} corral__page;
/* log2 of the slots in a page of a class with `capacity` slots */
static inline uint32_t corral__page_shift_for(uint32_t capacity)
{
    uint32_t sh = CORRAL__PAGE_MIN_SHIFT;
    while (sh < CORRAL__PAGE_MAX_SHIFT && (capacity >> (sh + 1)) >= 64u) sh++;
    return sh;
}
static inline uint32_t corral__page_count_for(uint32_t capacity)
{
    const uint32_t sh = corral__page_shift_for(capacity);
    return (uint32_t)(((uint64_t)capacity + (1u << sh) - 1) >> sh);
}

typedef struct corral__class {
    uint32_t slot_size;
    uint32_t capacity;
    uint32_t base;        /* offset of the slab from the sched */
    uint32_t pages_off;   /* offset of its corral__page array */
    uint32_t page_count, page_shift; /* pages, log2 of slots a page */
    uint32_t empty_head;  /* pages with every slot free, NIL */
    uint32_t partial_head; /* pages with some slots free, NIL */
    uint32_t used, peak;
    uint32_t retired;
    uint32_t first;       /* global index of the class's slot 0 (meta table) */
    uint32_t reserved;    /* budget slots not yet taken by their types */
    uint32_t shift, inv;  /* slot_size = odd << shift; inv = odd^-1 mod 2^32 */
    uint64_t failures;
    char name[24];        /* pool name for hooks: "corral 64B" */
} corral__class;

/* 128 bytes on every ABI: the walk indexes the table with a shift */
typedef union corral__type_entry {
    struct {
        corral_result (*step)(corral_co *co); /* copy of vt->step: one load less */
        const corral_type *vt;
        uint32_t id, budget;
        uint32_t cls; /* class index or CORRAL__NO_CLASS */
        uint32_t ctx_size, ctx_off;
        uint32_t live, peak;
        uint32_t page;   /* page of its class it takes slots from, NIL */
        /* ends that returned CORRAL_STOP are not counted on the way: they are
           started - live - stopped - the other ends (corral__ends; exact, and
           one add less a spawn) */
        uint64_t started, stopped, failed;
        uint64_t steps, step_ns, step_ns_max; /* desc.timing: all steps; time of the timed ones */
        uint64_t steps_timed;
        void (*cleanup)(void *ctx, corral_end_reason why); /* copy of vt->cleanup */
        /* copy of vt->run: its steps with the body inlined, or NULL */
        const uint32_t *(*run)(unsigned char *base, const uint32_t *at, const uint32_t *stop, uint32_t type,
                               uint32_t expect, uint32_t *running, int *result);
        uint8_t plain;   /* corral__plain: start and end skip the tests for hooks,
                            instrumentation, cleanup and budget */
        uint8_t moves;   /* corral_reload, while it runs: its context's layout changes */
        uint8_t lives;   /* a plain type's last first step did not end it: the next one is
                            counted live before its step (lifecycle.h, corral__first_step) */
        /* the arena's epoch when its peaks were last raised to cover one
           more of it (corral__cover_one): while the two are equal, they do */
        uint32_t peak_epoch;
    };
    unsigned char size_[128];
} corral__type_entry;
CORRAL__STATIC_ASSERT(sizeof(corral__type_entry) == 128, "corral: a type entry is 128 bytes (the walk shifts by 7)");

/* one step, kept for the Chrome trace (desc.trace_steps, with timing) */
typedef struct corral__trace_ev {
    uint64_t t0;
    uint32_t dur_ns;
    uint16_t type;
    uint16_t line;  /* the source line it suspended at (0: it ended, or unknown) */
    uint32_t index, gen;
} corral__trace_ev;

/* The last error in pieces (errors.c): recorded by every failing call,
   put into words only when corral_last_error_detail asks. */
typedef struct corral__err_rec {
    const char *call;      /* the public function, or NULL */
    const char *self_type; /* the type whose step made the call, or NULL */
    corral_handle h;       /* the handle the call was given (zero: none) */
    corral_handle self;    /* that step's coroutine */
    char detail[192];      /* more text, cut to fit */
    char text[384];        /* the words, made by corral_last_error_detail */
} corral__err_rec;

/* The tables of the parts a scheduler was created with (desc.parts, or
   every part), each filled in at create from the parts' corral_part
   tables (sched.c) and never written after: the core asks them for what a
   wait kind, a pooled kind or a feature does. A slot is NULL when no part
   the scheduler has brings it. Pointers to const tables of this image: a
   restore compares a snapshot's copy with them (another set of parts is
   refused) and writes none, and an adopted block is one this build made. */
struct corral__wait_part;
struct corral__pool_part;
enum { CORRAL__FEATURE_CALLS, CORRAL__FEATURE_GROUPS, CORRAL__FEATURE_POLLS, CORRAL__FEATURE_FUTURES,
       CORRAL__FEATURE_RACES, CORRAL__FEATURE_PULLS, CORRAL__FEATURE_PROFILE, CORRAL__FEATURE_BUDGET,
       CORRAL__FEATURE_POSTS, CORRAL__FEATURE_COUNT };
/* The parts that keep state of their own in the block, each in its region
   (corral_part.state names its slot; NONE: it keeps none) */
enum { CORRAL__STATE_NONE = 0, CORRAL__STATE_CHANNELS, CORRAL__STATE_POSTS, CORRAL__STATE_PULLS, CORRAL__STATE_COUNT };
/* the scheduler's room for wait kinds' tables: a kind added to
   CORRAL_WAIT_KINDS moves no byte of the block */
#define CORRAL__WAIT_TABLES 32u
CORRAL__STATIC_ASSERT(CORRAL_WAIT_KIND_COUNT <= CORRAL__WAIT_TABLES, "corral: room for every wait kind's table");
typedef struct corral__part_tables {
    const struct corral__wait_part *wait[CORRAL__WAIT_TABLES]; /* by kind; room for kinds to come */
    const struct corral__wait_part *arm; /* CORRAL__NODE_ARM: a race's or a sync's arm */
    const struct corral__pool_part *pool[CORRAL__POOL_COUNT];
    const void *feature[CORRAL__FEATURE_COUNT];
    /* where each part's state lies in the block (slot CORRAL__STATE_x at
       x - 1), an offset; 0: s has not the part */
    uint32_t state[CORRAL__STATE_COUNT - 1];
} corral__part_tables;

/* The scheduler's state, one named part per file of src/ (the file that
   owns it is named beside each): a file writes its own part and reads the
   others'. Hot parts first: the walk touches `run`, `budget` and `now`. */
#define CORRAL__SEEN_PREDICATES 16u
struct corral_sched {
    /* the scheduler itself (sched.c) */
    uint32_t magic;
    uint32_t made_by;         /* CORRAL__MADE_BY of the copy of corral that made it */
    uint32_t flags;
    uint32_t pad;             /* bytes from the allocated block to here */
    uint64_t total_bytes;     /* the whole block */
    corral_allocator allocator;
    corral_logger logger;
    corral_validation validation; /* resolved: OFF, REPORT or FATAL */
    corral_error last_error;
    corral_validation validation_given; /* desc.validation as given (corral_budget_desc carries it) */
    uint64_t origin;          /* corral__origin(): which process and build made it (adopt) */
    uintptr_t owner;          /* the thread that created it (corral__thread_token), debug checks */

    struct { /* types.c: the type table (at CORRAL__TYPES_OFF) and its hash */
        uint32_t max_types, type_count;
        uint32_t hash_off, hash_mask; /* uint16_t slots: type index + 1 */
        uint32_t ends_off;            /* the ends each type counts by reason (corral__ends) */
        const corral_type *last_vt;   /* one-entry cache in front of the hash */
        uint32_t last_ti;
        const corral_registry *registry; /* desc.registry: save games find types by id */
        const corral_predicate_registry *predicates; /* desc.predicates */
        /* the first predicates waited on that desc.predicates does not list:
           the functions a restored snapshot may call (polls.c) */
        corral_predicate seen[CORRAL__SEEN_PREDICATES];
        uint32_t seen_count;
        struct corral_upgrade upgrade;   /* desc.upgrade */
    } types;

    struct { /* queue.c: the lanes, their chunk pool and the ready lane */
        uint32_t order;        /* corral_order */
        uint32_t lanes_off, lane_count, lanes_per_phase;
        uint32_t chunks_off;   /* uint32_t entries[chunk_count * CHUNK] */
        uint32_t chunk_next_off; /* uint32_t next[chunk_count]; free chunks chain here */
        uint32_t chunk_count, chunk_free;
        uint32_t chunk_bump;   /* chunks [chunk_bump, chunk_count) never used: free, on no chain */
        uint32_t phases;       /* PH_COUNT + desc.custom_phases */
        uint32_t defer_lane;   /* first of the `phases` next-frame lanes (after the run lanes) */
        uint32_t walking_lane; /* lane a phase run is stepping, or NIL */
        uint32_t running;      /* offset of the coroutine that walk is stepping, or NIL */
        uint32_t walk_steps;   /* the current walk's steps: walk_end at its start, less the tombstones */
        /* what a compaction during the walk leaves alone: the chunk it reads
           and the one it writes survivors into (NIL: the one it reads) */
        uint32_t walk_read, walk_write;
        uint32_t walk_rk, walk_wk; /* the places in the lane's chain of the read chunk and of the write cursor's */
        uint32_t walk_cut;     /* tombstones compaction took from what the walk has yet to read */
        /* the ready lane (the last lane, corral__ready_lane): joiners woken
           during a phase run, in that phase, resume in the same run (a chain
           that ends costs no frame), in the order they were readied */
        /* the drain's place in the ready lane's head chunk (<= CHUNK); NIL
           while the lane holds no entry (nothing to drain) */
        uint32_t ready_read;
        uint32_t starting;     /* a top-level start is running first steps: wakes go to the list */
        uint32_t first_lane[CORRAL__PH_MAX]; /* BY_TYPE: where the next run starts (after a budget stop) */
        uint32_t deferred;     /* a next-frame lane may hold entries: the next frame empties them */
    } run;

    struct { /* queue.c: the time budget of a phase run */
        uint64_t ns;           /* 0: none */
        uint64_t run_start;    /* clock at the start of the current phase run */
        uint32_t out;          /* the current phase run ran out */
        uint32_t steps;        /* steps of the current budgeted phase run */
    } budget;

    struct { /* waits.c: the node pool (wait nodes, then group nodes) */
        uint32_t off, count;
        uint32_t wait_free, wait_free_count;
        uint32_t wait_count;   /* nodes [0, wait_count) serve waits, the rest groups */
        uint32_t group_free, group_free_count;
        /* nodes [wait_bump, wait_count) and [group_bump, count) untouched since
           their part was last all free: free, on no list, taken in order */
        uint32_t wait_bump, group_bump;
        uint32_t wait_peak, group_peak;
        uint64_t wait_failures, group_failures;
        uint64_t debug_visits; /* test hook: timer nodes popped + steps run */
        uint32_t order;        /* attachments so far (corral__node.order) */
        uint32_t text_off;     /* desc.wait_text: a const char * per wait node, else 0 */
    } nodes;

    struct { /* timers.c: one 4-ary heap per clock (2 + domains of them) in pages of one store */
        uint32_t heap_len[CORRAL__HEAP_MAX + 1]; /* the clocks' heaps, then the held sleepers' */
        uint32_t heaps;        /* the clocks' heaps; heap `heaps` holds the held sleepers */
        uint32_t entries;      /* the store's room: max_sleepers + a timer a wait node */
        uint32_t max_sleepers, sleepers, sleepers_peak; /* plain sleeps the store has room for; in it now */
        uint64_t spilled;      /* plain sleeps that took a wait node, the room full */
        uint32_t seq;          /* order of waiting, for ties */
        uint32_t pages_off;    /* page_count pages of CORRAL__HEAP_PAGE entries */
        uint32_t tabs_off;     /* each heap's page table: tab_len page numbers */
        uint32_t free_off;     /* the pages given back: a stack of free_count page numbers */
        uint32_t page_count, tab_len, free_count;
        uint32_t page_bump;    /* pages [page_bump, page_count) never taken since create or restore */
    } timers;

    struct { /* polls.c: predicate lists */
        uint32_t head[CORRAL__PH_MAX], tail[CORRAL__PH_MAX];
        uint32_t next_head[CORRAL__PH_MAX], next_tail[CORRAL__PH_MAX]; /* polled from the next frame */
        uint32_t poll_head, poll_tail; /* predicates being polled right now */
        uint32_t next_pending; /* a next-frame list may hold predicates */
        uint64_t base; /* the block's address its predicates' arguments in contexts point into */
    } polls;

    struct { /* groups.c: owner buckets, tag lists, group operations under way */
        uint32_t owner_off, owner_mask; /* bucket heads/tails: uint32_t[2 * (mask + 1)] */
        uint32_t tag_head[32], tag_tail[32];
        uint32_t side_head[CORRAL__SIDE_MAX], side_tail[CORRAL__SIDE_MAX], side_depth;
    } groups;

    struct { /* snapshot.c: the kept snapshots' ring (a corral__kept at off), 0: none */
        uint32_t off;
    } kept;

    corral__pool pools[CORRAL__POOL_COUNT]; /* pool.c: signals, futures, channels, counters */

    struct { /* arena.c: the side records (corral__side) */
        uint32_t off, count;
        uint32_t free, free_count; /* the free list (links in .parent); free_count counts [bump, count) too */
        uint32_t bump;             /* records [bump, count) untouched since all were last free */
        uint32_t peak;
        uint64_t failures;
        uint32_t lookup_off;       /* the lookup from a global slot to its record */
        uint32_t lookup_shift;     /* 32 - log2 of its entries */
    } sides;

    struct { /* arena.c: the size classes, the per-slot metadata, what they hold */
        uint32_t meta_off, total_slots;
        uint32_t class_count;
        uint32_t epoch; /* counted rises of the live counts, never 0: a type's peak_epoch equal to
                           it says the peaks cover one more of the type (lifecycle.h,
                           corral__first_step; corral__counts_rose) */
        corral__class classes[CORRAL_MAX_CLASSES];
        uint32_t live, live_peak;
        uint64_t slab_bytes;
        uint64_t slot_bytes, slot_bytes_peak;
        uint64_t ctx_bytes, ctx_bytes_peak;
    } arena;

    struct { /* stats.c: timing, hooks, the frame history and the step trace */
        uint32_t timing;       /* desc.timing */
        uint32_t instrument;   /* timing or step hooks: steps take the instrumented path */
        corral_hooks hooks;
        corral_field_formatter formatter;
        uint32_t hist_off, hist_cap, hist_head, hist_count; /* corral_frame_sample ring */
        uint32_t trace_off, trace_cap, trace_head, trace_count; /* corral__trace_ev ring */
        uint32_t ages_off;     /* timing: each slot's birth frame (corral__co_age), 0: none */
        uint32_t frame_open;   /* a frame began and its sample is not written yet */
        uint32_t frame_steps;  /* steps run in the open frame */
        uint64_t frame_tick_start; /* clock at its corral_tick start (timing) */
        uint64_t frame_tick_ns;
        double frame_start_time;
        uint64_t tick_ns_last, tick_ns_max, tick_ns_total;
        uint64_t chain_t;      /* timing: when the last step of a walk's fast path ended */
        uint16_t chain_valid;  /* chain_t is the next step's start: one clock read a step */
        uint16_t count_only;   /* timing without step hooks: unsampled steps are only counted */
        uint32_t sample_mask;  /* desc.timing_sample - 1: a type's step k is timed when
                                  k & mask is 0 (its first, then one in timing_sample) */
    } prof;

    struct { /* sched.c: the frame, its phases and its clocks */
        corral_clock clock;
        double unscaled_time, fixed_time; /* domain 0's (scaled) time: corral__domains_of(s)->d[0] */
        float unscaled_dt;   /* this frame's dt */
        float fixed_dt;
        float phase_dt;      /* what corral_dt returns in domain 0: fixed_dt in FIXED_UPDATE */
        uint32_t max_fixed_steps;
        uint32_t phase;      /* internal phase running now, or NIL */
        uint32_t frame_pos;  /* where the frame is: 0 before its first phase run, else
                                1 + the phase of the last run begun (corral__run_to_come) */
        uint32_t in_tick;    /* non-zero while a phase runs */
        uint32_t depth;      /* hooks and first steps on the C stack */
        uint32_t pulls;      /* generator pulls on the C stack (CORRAL_MAX_PULL_DEPTH) */
        uint32_t self;       /* the coroutine whose step runs innermost outside a walk
                                (corral__step_bare), 0: none (then run.running) */
        uint32_t uncounted;  /* the coroutine whose first step runs before it is counted live
                                (lifecycle.h, corral__first_step), 0: none */
        uint32_t gen;        /* the generator whose step a pull runs innermost, 0: none */
        uint64_t frame;
    } now;

    corral__part_tables parts; /* parts.c: what its parts do, set at create */

    corral__err_rec err; /* errors.c: the last error's detail, cold */
};
/* A scheduler's first two words in every version of corral: the magic and
   which copy's layout it has, the version (low 24 bits) and a digest of
   the layout (high 8). Another copy of corral in the process (a module
   with its own) reads them to say whose scheduler it was given, and uses
   the logger and the error record only when the layout is its own
   (errors.c, corral__check_slow). */
#define CORRAL__MADE_BY                                                                                       \
    ((uint32_t)CORRAL_VERSION_MAJOR << 16 | (uint32_t)CORRAL_VERSION_MINOR << 8 | (uint32_t)CORRAL_VERSION_PATCH | \
     (uint32_t)((sizeof(corral_sched) ^ offsetof(corral_sched, err) << 4) / 8u & 0xFFu) << 24)

/* A snapshot's header (snapshot.c writes and reads it; the plan sizes
   the kept ring with it, corral_verify checks the kept ones') */
#define CORRAL__SNAP_MAGIC 0x4E535243u /* "CRSN" */
#define CORRAL__SNAP_VERSION 7u
typedef struct corral__snap_head {
    uint32_t magic, version;
    uint64_t size;   /* bytes of the whole snapshot */
    uint64_t layout; /* corral__layout of the scheduler it came from */
    uint64_t sum;    /* corral__snap_sum of every byte after the header */
} corral__snap_head;

/* The kept snapshots' ring (desc.kept_bytes), after everything a
   snapshot copies: this header, then `bytes` of entries, each a 64-byte
   corral__kept_entry and a snapshot (snapshot.c), 64-aligned, oldest
   first from `oldest` along their `next` offsets; an entry wraps to 0
   where the next would run past the end. Offsets are from the ring's
   first entry byte. */
#define CORRAL__KEPT_RECENT 15u /* the dropped tags a refusal can name one by one */
typedef struct corral__kept {
    uint64_t bytes;          /* the entries' bytes: desc.kept_bytes or its default, a multiple of 64 */
    uint32_t desc_snapshots, desc_bytes; /* desc.kept_snapshots, desc.kept_bytes (as given: 0 for the default) */
    uint32_t count;          /* entries in the ring, forgotten ones included */
    uint32_t oldest, newest; /* their offsets, CORRAL__NIL when empty */
    uint32_t end;            /* one past the newest entry */
    uint32_t reloaded;       /* a reload forgot what the ring held */
    uint32_t warned_span;    /* the entry size the logger was last told the ring is short for (0: never) */
    /* the live snapshots dropped to make room since create or the last
       reload, for a refusal's words: how many, their least and greatest
       tags, whether every tag between was dropped, the last few */
    uint32_t drops, drop_lo, drop_hi, dense;
    uint32_t recent[CORRAL__KEPT_RECENT];
    /* the last kept restore that forgot snapshots kept after its own: its
       tag, the least and greatest tags it forgot (cut_to NIL: none yet) */
    uint32_t cut_to, cut_lo, cut_hi;
} corral__kept;
/* the ring's header: 128 bytes before its first entry */
#define CORRAL__KEPT_HEAD 128u
CORRAL__STATIC_ASSERT(sizeof(corral__kept) <= CORRAL__KEPT_HEAD, "corral: the kept ring's header fits its place");
/* an entry's header: 64 bytes before its snapshot */
#define CORRAL__KEPT_ENTRY 64u
typedef struct corral__kept_entry {
    uint32_t tag;
    uint32_t live; /* 0: forgotten (kept again elsewhere under its tag) */
    uint32_t next; /* the next newer entry's offset, CORRAL__NIL for the newest */
    uint32_t span; /* its bytes in the ring, this header included, a multiple of 64 */
} corral__kept_entry;
CORRAL__STATIC_ASSERT(sizeof(corral__kept_entry) <= CORRAL__KEPT_ENTRY, "corral: a kept entry's header fits its place");
/* the ring of s, or NULL without one */
static inline corral__kept *corral__kept_of(const corral_sched *s)
{
    return s->kept.off ? (corral__kept *)(void *)((unsigned char *)(s) + s->kept.off) : NULL;
}
/* the ring's entry at offset `at` */
static inline corral__kept_entry *corral__kept_entry_at(const corral__kept *K, uint32_t at)
{
    return (corral__kept_entry *)(void *)((unsigned char *)(uintptr_t)K + CORRAL__KEPT_HEAD + at);
}
/* sched.c: every kept snapshot forgotten (a reload: they hold the old
   build's points and predicates) */
void corral__kept_forget(corral_sched *s);

#define CORRAL__AT(s, off) ((unsigned char *)(s) + (off))
#define CORRAL__CO(s, off) ((corral_co *)(void *)CORRAL__AT(s, off))

/* How many coroutines of type ti ended for each reason from DESTROYED on
   (FINISHED is derived, STOPPED is in the type entry): a cold table of its
   own beside the type table, snapshotted with it. */
#define CORRAL__END_FIRST_COUNTED CORRAL_END_DESTROYED
#define CORRAL__END_SLOTS ((uint32_t)CORRAL_END_COUNT - (uint32_t)CORRAL__END_FIRST_COUNTED)
/* the generators the pulls on the C stack step ([0, now.pulls), 0 past
   them), outermost first: CORRAL_MAX_PULL_DEPTH offsets, the pulls part's
   state (pulls.c; a scheduler without it has none, and no pull), which no
   snapshot holds, as none is taken during a pull */
static inline uint32_t *corral__pulled(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->parts.state[CORRAL__STATE_PULLS - 1]);
}
static inline uint64_t *corral__ends(const corral_sched *s, uint32_t ti)
{
    return (uint64_t *)(void *)CORRAL__AT(s, s->types.ends_off) + (size_t)ti * CORRAL__END_SLOTS;
}

/* The block's head: the scheduler, then at constant offsets the time
   domains' clocks (the frame's, sched.c's), which every timer reads
   without first loading where they lie, and the channels' part's sizes
   and where its rings lie (its slot of s->parts.state: the rings). A
   snapshot copies the head whole. */
typedef struct corral__domain {
    double time;       /* its seconds since create */
    float scale;       /* as set */
    float dt;          /* this frame's: dt * scale, 0 while paused */
    uint32_t paused;   /* its own pause (corral_domain_pause) */
    uint32_t parent;   /* the domain it follows + 1; 0: none */
} corral__domain;
typedef struct corral__domains { /* domains.c */
    uint32_t count;    /* desc.domains */
    corral__domain d[CORRAL_MAX_DOMAINS];
} corral__domains;
typedef struct corral__chans { /* channels.c */
    uint32_t channel_bytes; /* desc.channel_bytes: what a channel's ring holds */
    uint32_t data_off;      /* the rings of the channels' values, corral__ring_bytes each */
} corral__chans;
#define CORRAL__DOMAINS_OFF ((sizeof(corral_sched) + 7u) & ~(size_t)7u)
#define CORRAL__CHANS_OFF (CORRAL__DOMAINS_OFF + sizeof(corral__domains))
#define CORRAL__HEAD_BYTES (CORRAL__CHANS_OFF + sizeof(corral__chans))
/* the snapshot header of the kept ring's entry at `at`, copied to *h, as
   a kept restore trusts it (corral_verify checks it for each live entry):
   the entry inside the ring and large enough for a header and a head,
   the header corral's, its size at least a header and a head and no more
   than the entry holds after its own 64 bytes; else false */
static inline bool corral__kept_head(const corral__kept *K, uint32_t at, corral__snap_head *h)
{
    const corral__kept_entry *e = corral__kept_entry_at(K, at);
    const uint64_t least = sizeof *h + CORRAL__HEAD_BYTES;
    if (at >= K->bytes || e->span > K->bytes - at || e->span < CORRAL__KEPT_ENTRY + least) return false;
    memcpy(h, (const unsigned char *)e + CORRAL__KEPT_ENTRY, sizeof *h);
    return h->magic == CORRAL__SNAP_MAGIC && h->version == CORRAL__SNAP_VERSION && h->size >= least &&
           h->size <= e->span - CORRAL__KEPT_ENTRY;
}
/* what is wrong with the ring's structure, or NULL: inside the block, its
   entries linked oldest to newest as it counts them, each after the one
   before or, once, wrapped to the start and ending before the oldest, the
   oldest live, each live one's snapshot header what a kept restore trusts.
   A keep and a kept restore check it before they follow a link (a stray
   write into the block can reach the ring); corral_verify reports it. */
static inline const char *corral__kept_damage(const corral_sched *s, const corral__kept *K)
{
    if (K->bytes % 64u || (uint64_t)s->kept.off + CORRAL__KEPT_HEAD + K->bytes > s->total_bytes - s->pad)
        return "the kept snapshots' ring runs past the block";
    if ((K->count == 0) != (K->oldest == CORRAL__NIL) || (K->count == 0) != (K->newest == CORRAL__NIL))
        return "the kept snapshots' ring's count and ends disagree";
    uint32_t at = K->oldest, last = CORRAL__NIL;
    bool wrapped = false;
    for (uint32_t i = 0; i < K->count; i++) {
        if (at == CORRAL__NIL || at % 64u || at >= K->bytes) return "a kept snapshot's link runs out of the ring";
        const corral__kept_entry *e = corral__kept_entry_at(K, at);
        if (e->span < CORRAL__KEPT_ENTRY || e->span % 64u || e->span > K->bytes - at || e->live > 1u)
            return "a kept snapshot's entry is damaged";
        if (last != CORRAL__NIL && at != last + corral__kept_entry_at(K, last)->span) {
            if (at != 0 || wrapped) return "kept snapshots overlap or leave a hole between them";
            wrapped = true;
        }
        if (wrapped && at + e->span > K->oldest) return "kept snapshots overlap where the ring wraps";
        if (i == 0 && !e->live) return "the oldest kept snapshot is a forgotten one (it is dropped when forgotten)";
        corral__snap_head h;
        if (e->live && !corral__kept_head(K, at, &h))
            return "a kept snapshot's header is damaged (magic, version, or a size out of its entry)";
        last = at;
        at = e->next;
    }
    if (at != CORRAL__NIL || last != K->newest || (last != CORRAL__NIL && K->end != last + corral__kept_entry_at(K, last)->span))
        return "the kept snapshots' ring's newest entry is not where it says";
    return NULL;
}
static inline corral__domains *corral__domains_of(const corral_sched *s)
{
    return (corral__domains *)(void *)((unsigned char *)(s) + CORRAL__DOMAINS_OFF);
}
/* all zero in a scheduler without the channels part */
static inline corral__chans *corral__chans_of(const corral_sched *s)
{
    return (corral__chans *)(void *)((unsigned char *)(s) + CORRAL__CHANS_OFF);
}
/* a channel's ring: channel_bytes rounded up to 8 */
static inline uint32_t corral__ring_bytes(const corral__chans *c) { return (c->channel_bytes + 7u) & ~7u; }

/* a copy of the block's head, as a snapshot holds it */
typedef union corral__head {
    corral_sched sched;
    unsigned char bytes[CORRAL__HEAD_BYTES];
} corral__head;

/* The type table sits right after the head: at a constant offset, so
   the walk finds a step function without loading where the table is. */
#define CORRAL__TYPES_OFF ((CORRAL__HEAD_BYTES + 15u) & ~(size_t)15u)
static inline corral__type_entry *corral__types(const corral_sched *s)
{
    return (corral__type_entry *)(void *)CORRAL__AT(s, CORRAL__TYPES_OFF);
}
static inline uint32_t corral__slot_off(const corral__class *c, uint32_t local)
{
    return c->base + local * c->slot_size;
}
/* slot index from offset: an exact division, done as shift + multiply by
   the inverse of the odd part (no divide on the start/stop path) */
static inline uint32_t corral__slot_local(const corral__class *c, uint32_t off)
{
    return ((off - c->base) >> c->shift) * c->inv;
}
static inline uint32_t corral__co_off(const corral_sched *s, const corral_co *co)
{
    return (uint32_t)((const unsigned char *)co - (const unsigned char *)s);
}
static inline bool corral__state_alive(uint8_t state)
{
    return state == CORRAL__QUEUED || state == CORRAL__RUNNING || state == CORRAL__WAITING ||
           state == CORRAL__READY || state == CORRAL__DEFERRED || corral__paused(state);
}
#define CORRAL__ONSTACK_FLAG 0x80u /* flags bit: its first step is on the C stack */
#define CORRAL__PAUSE_FLAG 0x40u   /* flags bit: paused while its step runs; held after it */

/* what a coroutine says of itself starts afresh at its start (no wait,
   no side record): its state is the same whoever held the slot before */
static inline void corral__meta_fresh(corral__meta *m)
{
    m->bits = 0;
}
/* a free slot's metadata: no wait, no side record */
static inline void corral__meta_reset(corral__meta *m)
{
    corral__meta_fresh(m);
}
/* what a coroutine without a side record reads: no links, no groups */
static inline const corral__side *corral__side_none(void)
{
    static const corral__side none = {CORRAL__NIL, CORRAL__NIL, CORRAL__NIL, CORRAL__NIL, CORRAL__NIL,
                                      CORRAL__NIL, 0, CORRAL__MODE_NONE, -1, CORRAL_END_NONE, CORRAL__NIL, 0, {0, 0, 0}};
    return &none;
}
static inline corral__side *corral__sides(const corral_sched *s)
{
    return (corral__side *)(void *)CORRAL__AT(s, s->sides.off);
}
/* The side records' lookup (arena.c): an open-addressed table of
   desc.max_side_records x 2 entries rounded up to a power of 2, each a
   side record's index or NIL, placed by the owner's global slot (linear
   probing, a record's key its .owner). Only the side records say what it
   holds: a restore or a load rebuilds it, snapshots and the state hash
   leave it out, corral_verify checks it against them. */
uint32_t corral__side_find(const corral_sched *s, uint32_t g);
/* the side record of a coroutine that has one (corral__co_sided) */
corral__side *corral__side_at(const corral_sched *s, const corral__meta *m);
/* its time domain set: a record taken for one other than 0 if it has
   none (false, with SIDE_POOL_EXHAUSTED set and counted for `call`, if
   none is free: callers that must not fail check corral__sides_room first) */
bool corral__co_domain_put(const char *call, corral_sched *s, corral__meta *m, uint32_t domain);
/* A race or sync begun in a step whose side record could not be taken:
   its link says so until corral_arms_start (no lane entry, slot offset,
   node or free-list link is this odd value) */
#define CORRAL__ARMS_NO_SIDE 0xFFFFFFFDu
/* A plain sleep (one frames, seconds or realtime wait from corral_await,
   timers.c) takes no wait node: its timer heap entry is its whole record,
   the entry's ref naming the sleeper (CORRAL__SLEEP_REF | the wait's kind
   << CORRAL__SLEEP_KIND_SHIFT | its slot's offset / 8) and the sleeper's
   link naming the entry (CORRAL__SLEEP_LINK | CORRAL__SLEEP_HELD while a
   pause holds it in the held heap | its clock's heap <<
   CORRAL__SLEEP_HEAP_SHIFT | its position). No wait node index, lane
   entry or other link of a waiting coroutine lies in that range. */
#define CORRAL__SLEEP_LINK 0x80000000u
#define CORRAL__SLEEP_HELD 0x40000000u
#define CORRAL__SLEEP_HEAP_SHIFT 26u
#define CORRAL__SLEEP_HEAP_MASK 0xFu
#define CORRAL__SLEEP_POS 0x03FFFFFFu
#define CORRAL__SLEEP_REF 0x80000000u
#define CORRAL__SLEEP_KIND_SHIFT 29u
#define CORRAL__SLEEP_OFF 0x1FFFFFFFu
static inline bool corral__link_sleeps(uint32_t link)
{
    return link - CORRAL__SLEEP_LINK < 0x70000000u;
}
static inline uint32_t corral__sleep_heap_of(uint32_t link)
{
    return (link >> CORRAL__SLEEP_HEAP_SHIFT) & CORRAL__SLEEP_HEAP_MASK;
}
/* Its header's link is the first node of its current wait
   (corral__node.sibling links the rest) while it has a wait chain: it
   waits (WAITING, or held with CORRAL__HOLD_WAITING), or its step builds
   a race or sync (CORRAL__MODE_OPEN in its side record). Otherwise the link is its lane
   entry, its free-list or ready-list link. A wait begins with
   corral__wait_open, which makes the link an empty chain; a walked
   coroutine whose step drops the wait again gets its entry back
   (corral__unchained). A plain sleep's link names its timer entry, no
   chain (corral__sleeps). sd: its side record, NULL: none. */
static inline bool corral__chained_by(const corral_co *co, const corral__side *sd)
{
    return (co->state == CORRAL__WAITING || (corral__paused(co->state) && (co->state & CORRAL__HOLD_WAITING)) ||
            (sd && (sd->mode & CORRAL__MODE_OPEN))) &&
           !corral__link_sleeps(co->link);
}
/* its wait is a plain sleep (timers.c): its link names its timer heap
   entry, which is the whole record of the wait */
static inline bool corral__sleeps(const corral_co *co)
{
    return (co->state == CORRAL__WAITING || (corral__paused(co->state) && (co->state & CORRAL__HOLD_WAITING))) &&
           corral__link_sleeps(co->link);
}
/* the same by a side record at hand (corral_verify's copy of a snapshot's):
   the first node of its wait; how it waits */
static inline uint32_t corral__wait_by(const corral_co *co, const corral__side *sd)
{
    return corral__chained_by(co, sd) ? co->link : CORRAL__NIL;
}
static inline uint8_t corral__mode_by(const corral_co *co, const corral__side *sd)
{
    if (sd->mode) return sd->mode;
    if (corral__wait_by(co, sd) != CORRAL__NIL || corral__sleeps(co)) return CORRAL__MODE_ONE;
    return co->link == CORRAL__ARMS_NO_SIDE ? (uint8_t)(CORRAL__MODE_OPEN | CORRAL__MODE_BAD) : CORRAL__MODE_NONE;
}
/* its wait's mode, a wait of several nodes' in its side record sd (it
   has one; NULL: none); ONE and NONE are its chain's */
static inline void corral__mode_set_with(corral__side *sd, uint32_t mode)
{
    assert((sd || mode <= CORRAL__MODE_ONE) && "corral: a wait of several nodes has a side record");
    if (sd) sd->mode = (uint8_t)(mode <= CORRAL__MODE_ONE ? 0u : mode);
}
/* its step is building a race or sync (corral_race_begin ..
   corral_arms_start); sd: its side record, NULL: none */
static inline bool corral__building_arms_with(const corral_co *co, const corral__side *sd)
{
    return co->link == CORRAL__ARMS_NO_SIDE || (sd && (sd->mode & CORRAL__MODE_OPEN));
}
/* its current wait is a race's or a sync's arms; sd: its side record,
   NULL: none */
static inline bool corral__awaits_arms_with(const corral__side *sd)
{
    return sd && (sd->mode == CORRAL__MODE_RACE || sd->mode == CORRAL__MODE_SYNC);
}
/* its side record, taken if it has none: NULL, with SIDE_POOL_EXHAUSTED
   set and counted for `call`, if the pool is empty */
corral__side *corral__side_take(const char *call, corral_sched *s, corral__meta *m);
/* a side record free, for takes that must not fail halfway: false, with
   SIDE_POOL_EXHAUSTED set (self: the step making the call, or NULL; whose:
   what the record was for, or NULL) and counted, if none */
bool corral__sides_room(const char *call, corral_sched *s, const corral_co *self, const char *whose);
/* an ending coroutine's record back to the pool */
void corral__side_drop(corral_sched *s, corral__meta *m);
void corral__sides_init(corral_sched *s);
/* corral_verify's: the lookup holds each side record in use once, where
   its owner's probe finds it, and nothing else */
bool corral__side_lookup_sound(const corral_sched *s);

/* state and flags as one 16-bit value (the walk's yielded-in-place test) */
CORRAL__STATIC_ASSERT(offsetof(corral_co, flags) == offsetof(corral_co, state) + 1,
                      "corral: state and flags must be adjacent");
static inline uint32_t corral__state_flags(const corral_co *co) { return corral__run_state(co); }
CORRAL__STATIC_ASSERT(CORRAL__RUN_AHEAD == CORRAL__PREFETCH, "corral: a type's run asks as far ahead as the walk");
/* the same value for a given state and flags */
static inline uint32_t corral__state_flags_of(uint8_t state, uint32_t flags)
{
    const uint8_t sf[2] = {state, (uint8_t)flags};
    uint16_t v;
    memcpy(&v, sf, sizeof v);
    return v;
}

/* its step is on the C stack right now */
static inline bool corral__is_running(const corral_sched *s, const corral_co *co)
{
    return co->state == CORRAL__RUNNING || co->state == CORRAL__STOPPING ||
           (co->flags & CORRAL__ONSTACK_FLAG) || corral__co_off(s, co) == s->run.running;
}
static inline corral__lane *corral__lanes(const corral_sched *s)
{
    return (corral__lane *)(void *)CORRAL__AT(s, s->run.lanes_off);
}
static inline uint32_t *corral__entries(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->run.chunks_off);
}
static inline uint32_t *corral__chunk_next(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->run.chunk_next_off);
}
/* A lane's coroutines in run order, tombstones left out: begin with
   *chunk = the lane's head and *j = 0; each call gives the next one's
   offset, NIL at the end. */
static inline uint32_t corral__lane_next(const corral_sched *s, const corral__lane *l, uint32_t *chunk, uint32_t *j)
{
    const uint32_t *E = corral__entries(s), *next = corral__chunk_next(s);
    while (*j < l->count && *chunk != CORRAL__NIL) {
        const uint32_t k = (*j)++;
        if (k && k % CORRAL__CHUNK == 0) *chunk = next[*chunk];
        if (*chunk == CORRAL__NIL) break;
        const uint32_t off = E[*chunk * CORRAL__CHUNK + k % CORRAL__CHUNK];
        if (off != CORRAL__NIL) return off;
    }
    return CORRAL__NIL;
}
/* the lane a queued coroutine runs from */
static inline uint32_t corral__run_lane_of(const corral_sched *s, const corral_co *co)
{
    uint32_t ph = co->flags & CORRAL__PHASE_MASK;
    return s->run.order == CORRAL_ORDER_BY_TYPE ? ph * s->run.lanes_per_phase + co->type : ph;
}
/* the ready lane, the last: a READY coroutine's entry is in it */
static inline uint32_t corral__ready_lane(const corral_sched *s) { return s->run.lane_count - 1u; }
/* the lane a QUEUED or DEFERRED coroutine's entry is in */
static inline uint32_t corral__lane_of(const corral_sched *s, const corral_co *co)
{
    if (co->state == CORRAL__DEFERRED) return s->run.defer_lane + (co->flags & CORRAL__PHASE_MASK);
    return corral__run_lane_of(s, co);
}
/* The resume contract's one question about the frame: may a run of phase
   ph still come in this frame after the point we are at? (FIXED_UPDATE:
   while no later phase has begun, another fixed step may.) */
static inline bool corral__run_to_come(const corral_sched *s, uint32_t ph)
{
    if (ph >= CORRAL__PH_COUNT) return true; /* a custom phase runs when the game says: any time */
    return ph == CORRAL__PH_FIXED ? s->now.frame_pos <= 1u + CORRAL__PH_FIXED : s->now.frame_pos < 1u + ph;
}
static inline corral__node *corral__nodes(const corral_sched *s)
{
    return (corral__node *)(void *)CORRAL__AT(s, s->nodes.off);
}
static inline corral__meta *corral__meta_of(const corral_sched *s, const corral_co *co);
static inline corral__meta *corral__meta_table(const corral_sched *s)
{
    return (corral__meta *)(void *)CORRAL__AT(s, s->arena.meta_off);
}
/* The frame it started in (low 32 bits), kept while desc.timing is on, in
   the profile's ages (a u32 a slot, by global slot): its age is the frame
   count less this. Without timing none is kept: its age reads 0. */
static inline uint32_t *corral__ages(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->prof.ages_off);
}
static inline uint32_t corral__co_age(const corral_sched *s, const corral__meta *m)
{
    return s->prof.ages_off ? (uint32_t)s->now.frame - corral__ages(s)[m - corral__meta_table(s)] : 0u;
}
/* the bytes a snapshot copies beside each slot: its meta, its birth frame with timing */
static inline uint32_t corral__slot_beside(const corral_sched *s)
{
    return (uint32_t)sizeof(corral__meta) + (s->prof.ages_off ? (uint32_t)sizeof(uint32_t) : 0u);
}
/* its age set (kept with timing; nothing without) */
void corral__co_age_set(corral_sched *s, const corral__meta *m, uint32_t age);
/* timer heaps are 4-ary: a level's children sit side by side, so a sift
   through 10^6 timers is 10 levels deep instead of 20, and the loads of
   four children overlap where a binary heap waits for each level's two */
#define CORRAL__HEAP_ARITY 4u
/* Every clock's heap lies in pages of one store sized by the wait nodes (a
   wait node is in one heap at most): a heap's entry at pos is in its page
   table's page (pos + SKEW) / PAGE, at (pos + SKEW) % PAGE, so the four
   children of an entry (4 pos + 1 .. 4 pos + 4) share a page. A heap takes
   a page (one given back, else the next never taken) when it grows into
   one and gives it back when it leaves it, so the clocks share the store
   however their sleepers are spread, at a page (256 bytes) a heap of slack. */
#define CORRAL__HEAP_SKEW 3u
#define CORRAL__HEAP_PAGE_SHIFT 6u
#define CORRAL__HEAP_PAGE (1u << CORRAL__HEAP_PAGE_SHIFT)
/* a heap's entry: its key (the due time on its clock, then the order of
   waiting) beside the node it stands for, so a sift compares entries in
   the heap's own pages (an entry's four children: one 64-byte line) */
typedef struct corral__heap_entry {
    double due;   /* = its node's u.t.due while it is in the heap */
    uint32_t seq; /* = its node's u.t.seq */
    uint32_t ref; /* its node */
} corral__heap_entry;
CORRAL__STATIC_ASSERT(sizeof(corral__heap_entry) == 16, "corral: a timer heap's entry is 16 bytes");
typedef struct corral__heapv {
    corral__heap_entry *pages;
    uint32_t *tab; /* its page table */
} corral__heapv;
static inline corral__heapv corral__heap(const corral_sched *s, uint32_t h)
{
    corral__heapv v = {(corral__heap_entry *)(void *)CORRAL__AT(s, s->timers.pages_off),
                       (uint32_t *)(void *)CORRAL__AT(s, s->timers.tabs_off) + (size_t)h * s->timers.tab_len};
    return v;
}
static inline corral__heap_entry *corral__heap_ref(const corral__heapv *v, uint32_t pos)
{
    const uint32_t at = pos + CORRAL__HEAP_SKEW;
    return v->pages + ((size_t)v->tab[at >> CORRAL__HEAP_PAGE_SHIFT] << CORRAL__HEAP_PAGE_SHIFT) + (at & (CORRAL__HEAP_PAGE - 1u));
}
static inline corral__heap_entry *corral__heap_refv(corral__heapv v, uint32_t pos) { return corral__heap_ref(&v, pos); }
#define CORRAL__HEAP_AT(v, pos) (*corral__heap_refv((v), (pos)))
/* the entries of a heap of len from pos on that lie in one page */
static inline uint32_t corral__heap_run(uint32_t pos, uint32_t len)
{
    const uint32_t room = CORRAL__HEAP_PAGE - ((pos + CORRAL__HEAP_SKEW) & (CORRAL__HEAP_PAGE - 1u));
    return len - pos < room ? len - pos : room;
}
/* the pages a heap of len entries holds */
static inline uint64_t corral__heap_pages_of(uint64_t len)
{
    return len ? ((len - 1u + CORRAL__HEAP_SKEW) >> CORRAL__HEAP_PAGE_SHIFT) + 1u : 0u;
}
/* the heaps' lengths len[] fit the wait nodes and the store of s (a
   snapshot's lengths are checked against the live shape) */
static inline bool corral__heap_lens_ok(const corral_sched *s, const uint32_t len[CORRAL__HEAP_MAX + 1])
{
    uint64_t sum = 0, pages = 0;
    for (uint32_t h = 0; h <= CORRAL__HEAP_MAX; h++) {
        if (h > s->timers.heaps && len[h]) return false;
        sum += len[h];
        pages += corral__heap_pages_of(len[h]);
    }
    return sum <= s->timers.entries && pages <= s->timers.page_count;
}
/* the pages given back */
static inline uint32_t *corral__heap_free(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->timers.free_off);
}
/* pool.c */
void corral__pools_init(corral_sched *s); /* every item free, its lists empty */
static inline void *corral__pool_item(const corral_sched *s, uint32_t pool, uint32_t i, size_t size)
{
    return CORRAL__AT(s, s->pools[pool].off + (size_t)i * size);
}
/* bytes an item of each pool */
static inline size_t corral__pool_item_size(uint32_t pool)
{
    static const size_t sizes[CORRAL__POOL_COUNT] = {sizeof(corral__signal), sizeof(corral__future),
                                                     sizeof(corral__channel), sizeof(corral__counter)};
    return sizes[pool];
}
/* a generation a live item has: odd (a free item's is even) */
static inline bool corral__gen_live(uint32_t gen) { return (gen & 1u) != 0; }
/* the live item (index, gen) names, or NULL */
static inline void *corral__pool_get(const corral_sched *s, uint32_t pool, uint32_t index, uint32_t gen)
{
    if (index >= s->pools[pool].cap || !corral__gen_live(gen)) return NULL;
    void *it = corral__pool_item(s, pool, index, corral__pool_item_size(pool));
    return ((const corral__item *)it)->gen == gen ? it : NULL;
}
/* a free item, now live (its generation in *gen), or NIL: the pool is full */
uint32_t corral__pool_alloc(corral_sched *s, uint32_t pool, uint32_t *gen);
void corral__pool_free(corral_sched *s, uint32_t pool, uint32_t index);
static inline bool corral__item_live(const void *item) { return corral__gen_live(((const corral__item *)item)->gen); }
static inline uint32_t corral__item_gen(const void *item) { return ((const corral__item *)item)->gen; }
/* each pool's lowest generation not issued (no lower than its floor) */
void corral__pools_floors(const corral_sched *s, uint32_t floors[CORRAL__POOL_COUNT]);
void corral__pools_set_floors(corral_sched *s, const uint32_t floors[CORRAL__POOL_COUNT]);
/* a load: item i live with generation gen (odd); then relink rebuilds the
   free lists and the counts from the generations */
void corral__pool_revive(corral_sched *s, uint32_t pool, uint32_t i, uint32_t gen);
void corral__pools_relink(corral_sched *s);
/* a restore: every item of a pool from a snapshot's copy of them (src) */
void corral__pool_restore(corral_sched *s, uint32_t pool, const unsigned char *src);
static inline corral__signal *corral__signals(const corral_sched *s)
{
    return (corral__signal *)(void *)CORRAL__AT(s, s->pools[CORRAL__POOL_SIGNAL].off);
}
static inline corral__future *corral__futures(const corral_sched *s)
{
    return (corral__future *)(void *)CORRAL__AT(s, s->pools[CORRAL__POOL_FUTURE].off);
}
static inline corral__channel *corral__channels(const corral_sched *s)
{
    return (corral__channel *)(void *)CORRAL__AT(s, s->pools[CORRAL__POOL_CHANNEL].off);
}
static inline corral__counter *corral__counters(const corral_sched *s)
{
    return (corral__counter *)(void *)CORRAL__AT(s, s->pools[CORRAL__POOL_COUNTER].off);
}

/* errors.c */
/* Record and report an error: `call` is the public function, `h` the
   handle it was given (zero: none), `self` the coroutine whose step made
   the call (NULL: none), `detail` more text (NULL: none). Aborts for a
   misuse under CORRAL_VALIDATION_FATAL. */
CORRAL__COLD void corral__fail_at(const corral_sched *s, const corral_logger *logger, corral_error err,
                     const char *call, corral_handle h, const corral_co *self, const char *detail);
#define CORRAL__NOH ((corral_handle){0, 0})
/* the same for a call another thread makes on s (a post; s may be NULL):
   the error on that thread only, s's logger not called; a misuse under
   s's FATAL validation prints its words to stderr and aborts */
CORRAL__COLD void corral__fail_elsewhere(const corral_sched *s, corral_error err, const char *call, const char *detail);
/* the article a detail puts before the number n said aloud: "an 8-byte
   value", "an 11-byte value", "a 4-byte value" */
static inline const char *corral__a(uint64_t n)
{
    unsigned digits = 1;
    while (n >= 100) n /= 10, digits++;
    if (n >= 10) digits++;                  /* n: the leading two digits (or one) */
    if ((n >= 10 ? n / 10 : n) == 8) return "an"; /* eight..., eighty... */
    return (n == 11 || n == 18) && digits % 3 == 2 ? "an" : "a"; /* eleven, eighteen (thousand...) */
}
/* from a public function: it names itself */
#define corral__fail(s, logger, err) corral__fail_at((s), (logger), (err), __func__, CORRAL__NOH, NULL, NULL)
extern CORRAL__THREAD_LOCAL corral_sched *corral__tls_sched;
/* Debug builds of the library (no NDEBUG) check more: the thread that
   calls, and a call on a scheduler this thread destroyed, which they
   refuse without reading its freed block (errors.c). */
#ifndef CORRAL_DEBUG
#ifdef NDEBUG
#define CORRAL_DEBUG 0
#else
#define CORRAL_DEBUG 1
#endif
#endif
#if CORRAL_DEBUG
/* The blocks this thread destroyed last (thread-local, errors.c): s
   destroyed and its block freed; s made or adopted (again); s is one. */
void corral__destroyed_add(const corral_sched *s);
void corral__destroyed_drop(const corral_sched *s);
bool corral__destroyed_here(const corral_sched *s);
#endif
/* this thread, as a number: the address of a thread-local */
uintptr_t corral__thread_token(void);
/* An address in the library's image, mixed with its build: differs between
   processes (address randomisation) and builds, so a block copied from
   one cannot be adopted by another, where its code pointers mean nothing */
uint64_t corral__origin(void);
/* false (and the error set) for NULL, a pointer that is not a live
   scheduler, or (debug builds, validation on) a call from a thread that
   does not own it */
bool corral__check_slow(const corral_sched *s, const char *call);
#if CORRAL_DEBUG
/* a destroyed block's and the owner thread's checks, then corral__check_slow */
bool corral__check_in(const corral_sched *s, const char *call);
#else
/* a live scheduler at a glance; anything else is corral__check_slow's */
#define corral__check_in(s, call) (((s) && (s)->magic == CORRAL__MAGIC) || corral__check_slow((s), (call)))
#endif
#define corral__check(s) corral__check_in((s), __func__)
/* The checks of a public call's arguments, one line per rule: when `ok` is false the error is recorded and reported as
   the call's own, and the call returns `ret` (empty in a void call). */
#define CORRAL__REQUIRE(s, ok, err, ret)                   \
    do {                                                   \
        if (CORRAL__UNLIKELY(!(ok))) {                     \
            corral__fail((s), NULL, (err));                \
            return ret;                                    \
        }                                                  \
    } while (0)
/* the same, for a call made on behalf of `call`, naming the handle it was
   given, the coroutine whose step made it and more text (NULL: none) */
#define CORRAL__REQUIRE_AT(s, ok, err, call, h, self, detail, ret)                   \
    do {                                                                             \
        if (CORRAL__UNLIKELY(!(ok))) {                                               \
            corral__fail_at((s), NULL, (err), (call), (h), (self), (detail));        \
            return ret;                                                              \
        }                                                                            \
    } while (0)
/* the scheduler whose step is running co, or NULL with NOT_IN_STEP set;
   stopping: a step that is stopping may still make the call */
corral_sched *corral__in_step(const char *call, const corral_co *co, bool stopping);
/* validation walks (cycles, double frees) are on */
static inline bool corral__validating(const corral_sched *s)
{
    return s->validation >= CORRAL_VALIDATION_REPORT;
}

/* arena.c */
void corral__pages_init(corral_sched *s, corral__class *c);
/* the slot (class ci, slot k) at byte off of the block, false: none; the
   live coroutine whose slot holds address p, or NULL */
bool corral__slot_at(const corral_sched *s, uint64_t off, uint32_t *ci, uint32_t *k);
corral_co *corral__co_holding(const corral_sched *s, const void *p);
void corral__meta_init(corral_sched *s);
/* every file's part of the state as at create: lanes, meta, nodes, timers, polls,
   groups, signals and futures (sched.c) */
void corral__state_init(corral_sched *s);
void corral__end_all(corral_sched *s); /* lifecycle.c: every live coroutine, DESTROYED, as at destroy */
/* a restore: every file's part of the state from a snapshot's copy o of the
   scheduler (sched.c), each part's own (queue.c, waits.c, timers.c, polls.c,
   groups.c, pool.c, arena.c; the domains' inline below) */
void corral__state_take(corral_sched *d, const corral_sched *o);
void corral__run_take(corral_sched *d, const corral_sched *o);
void corral__nodes_take(corral_sched *d, const corral_sched *o);
void corral__timers_take(corral_sched *d, const corral_sched *o);
void corral__pools_take(corral_sched *d, const corral_sched *o);
/* a restore: the bytes of a snapshot (snap, each section at its offset)
   into the lanes and chunks before the bump, the nodes before the bumps,
   the timer heaps up to their lengths (lanes.c, waits.c, timers.c) */
void corral__run_restore(corral_sched *s, const unsigned char *snap, size_t entries_at, size_t next_at, size_t lanes_at,
                         uint32_t chunk_bump);
void corral__nodes_restore(corral_sched *s, const unsigned char *snap, size_t wait_at, uint32_t wait_bump,
                           size_t group_at, uint32_t group_bump);
void corral__timers_restore(corral_sched *s, const unsigned char *snap, const size_t at[CORRAL__HEAP_MAX + 1],
                            const uint32_t len[CORRAL__HEAP_MAX + 1]);
void corral__arena_take(corral_sched *d, const corral_sched *o);
void corral__retire(corral__class *c, corral_co *co);
void corral__floors_keep(corral_sched *s); /* a load: every page's floor above what its slots issued */
/* a coroutine of a budgeted type takes its type's reservation in its class */
static inline void corral__budget_take(const corral__type_entry *te, corral__class *c)
{
    if (te->budget) c->reserved--;
}
/* a load: a class's pages (free lists, bumps, lists) from its slots' states;
   a saved page's free list and a saved class list taken where they agree
   with the slots (e: the save's entries, little-endian: a page's
   {u16 slot, u32 generation} each, a list's u32 page each) */
void corral__class_rebuild(corral_sched *s, corral__class *c);
void corral__class_lists(corral_sched *s, corral__class *c);
void corral__page_adopt(corral_sched *s, corral__class *c, uint32_t pi, uint32_t bump, uint32_t k, const unsigned char *e);
void corral__class_list_adopt(corral_sched *s, corral__class *c, int list, uint32_t n, const unsigned char *e);
/* a restore: class ci's pages, slots and meta from a snapshot's bytes (at
   pages_at its page table, at data_at a u64 per page: where its slots and
   then their meta lie in snap), each page's floor above what it issued;
   the side records before the bump (src: bump of them) */
void corral__class_restore(corral_sched *s, uint32_t ci, const unsigned char *snap, size_t pages_at, size_t data_at);
void corral__sides_restore(corral_sched *s, const unsigned char *src, uint32_t bump);
/* a load: co's slot header as saved (waiting for its place), its context's
   room zeroed */
void corral__slot_load(corral_sched *s, corral_co *co, uint32_t gen, uint32_t type, uint8_t flags, uint32_t resume);
/* a reload: `live` contexts grow or shrink from old_size to new_size bytes;
   co's context (size bytes at off) out to tmp and its slot's room zeroed;
   a free slot's room that holds need bytes lent to move contexts through
   (NULL: none), and given back zeroed */
void corral__ctx_bytes_resize(corral_sched *s, uint32_t live, uint32_t old_size, uint32_t new_size);
void corral__slot_empty(corral_sched *s, corral_co *co, uint32_t off, uint32_t size, unsigned char *tmp);
unsigned char *corral__scratch_lend(const corral_sched *s, uint32_t need);
void corral__scratch_return(unsigned char *room, uint32_t need);
/* a load: a coroutine's meta as saved (stop: the stop flags it had), and
   its side record with the saved links of `saved` (caller, child, dest,
   pending, fired, outcome); a reload: where its child's result goes */
void corral__meta_load(corral_sched *s, corral__meta *m, uint32_t age, uint8_t stop);
void corral__side_load(corral_sched *s, corral__meta *m, const corral__side *saved);
void corral__side_set_dest(corral_sched *s, const corral__meta *m, uint32_t dest);
/* a little-endian u32 of a save's bytes */
static inline uint32_t corral__le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline corral__page *corral__pages(const corral_sched *s, const corral__class *c)
{
    return (corral__page *)(void *)CORRAL__AT(s, c->pages_off);
}
/* Move page pi to list `to` (CORRAL__PAGE_*). The lists: EMPTY holds only
   pages with every slot free, PARTIAL pages with some free (also an
   all-free page that a type is filling: its own frees do not hand it
   back), FULL is no list. */
void corral__page_move(corral_sched *s, corral__class *c, uint32_t pi, uint8_t to);
/* A free slot's header: generation gen, on no list (the caller links it) */
static inline void corral__slot_blank(corral_co *co, uint32_t gen)
{
    co->gen = gen;
    co->state = CORRAL__FREE;
    co->flags = 0;
    co->link = CORRAL__NIL;
}
/* A count may have risen (a load's rebuild, a reload): the epoch moves on
   (arena.c, as the arena's counts) */
void corral__counts_rose(corral_sched *s);
/* the epoch wrapped to 0: 1, and every type's peak_epoch 0 (none is taken
   as covered) */
void corral__epoch_wrapped(corral_sched *s);
/* The coroutine in a first step not yet counted (s->now.uncounted, set)
   counted live now: whatever reads or raises a count from inside that
   step calls it first (lifecycle.c; the inlines that count are
   lifecycle.h's). */
void corral__count_uncounted(corral_sched *s);
/* a coroutine a load brings back, counted started and live (lifecycle.c) */
void corral__count_loaded(corral_sched *s, corral__type_entry *te, corral__class *c);
/* The coroutine in a first step not yet counted, or NULL: the counts a
   reader gives (corral_stats, the reports, verify) add it, one live
   coroutine of its type in its class. */
static inline const corral_co *corral__uncounted(const corral_sched *s)
{
    return s->now.uncounted ? CORRAL__CO(s, s->now.uncounted) : NULL;
}
/* what it adds to type t's live count, to class ci's used count */
static inline uint32_t corral__uncounted_of_type(const corral_sched *s, uint32_t t)
{
    const corral_co *u = corral__uncounted(s);
    return u && u->type == t;
}
uint32_t corral__uncounted_of_class(const corral_sched *s, uint32_t ci);
/* the arena's counts as read: live, slot bytes, context bytes (o: NULL, or
   the three) */
uint32_t corral__live_read(const corral_sched *s, uint64_t *slot_bytes, uint64_t *ctx_bytes);
/* corral__slot_free, corral__slot_alloc: slots.h */

/* ---- sched.c: the scheduler and its frame */
/* The calls that need the scheduler at rest (tick and its phases, destroy,
   save, load, snapshot, restore) ask this one guard: false, the error set,
   while the scheduler is being destroyed (DESTROYING: a cleanup hook's
   call) or inside a tick, a step or a hook (IN_TICK). docs/API.md,
   "Between ticks". */
bool corral__between_ticks(const char *call, const corral_sched *s);
/* A load or a reload replacing s's state (save.c, reload.c), from its first
   hook to its last: on, every call on s is refused with LOADING (its
   hooks' calls: corral__check_slow); posts from other threads queue as
   ever. docs/API.md, "Between ticks". */
void corral__loading(corral_sched *s, bool on);
/* public phase -> internal index; false if out of range (a custom phase:
   also check it against s->run.phases, corral__phase_of) */
static inline bool corral__phase_index(corral_phase p, uint32_t *out)
{
    const uint32_t k = (uint32_t)p - (uint32_t)CORRAL_PHASE_CUSTOM(0);
    if (k < CORRAL_MAX_CUSTOM_PHASES) {
        *out = CORRAL__PH_COUNT + k;
        return true;
    }
    switch (p) {
    case CORRAL_PHASE_DEFAULT:
    case CORRAL_PHASE_UPDATE: *out = CORRAL__PH_UPDATE; return true;
    case CORRAL_PHASE_FIXED_UPDATE: *out = CORRAL__PH_FIXED; return true;
    case CORRAL_PHASE_LATE_UPDATE: *out = CORRAL__PH_LATE; return true;
    case CORRAL_PHASE_END_OF_FRAME: *out = CORRAL__PH_END; return true;
    case CORRAL_PHASE_COUNT: break;
    }
    return false;
}

/* a phase this scheduler has (custom ones: desc.custom_phases) */
static inline bool corral__phase_of(const corral_sched *s, corral_phase p, uint32_t *out)
{
    return corral__phase_index(p, out) && *out < s->run.phases;
}
/* internal index -> public phase */
static inline corral_phase corral__public_phase(uint32_t ph)
{
    return ph >= CORRAL__PH_COUNT ? CORRAL_PHASE_CUSTOM(ph - CORRAL__PH_COUNT)
                                  : (corral_phase)(ph + (uint32_t)CORRAL_PHASE_FIXED_UPDATE);
}

/* ---- lifecycle.c: a coroutine's life, and its states

   Each state is entered through one function (no other writes co->state):
     QUEUED    corral__enqueue (queue.c)        in its phase's lane
     DEFERRED  corral__defer (queue.c)          in its phase's next-frame lane
     READY     corral__ready_push (lanes.c)     in the ready lane
     RUNNING   corral__step_bare                its step is on the C stack
               corral__entry_spent              a walked step ended: its lane
                                                entry is spent, its end to come
     WAITING   corral__park                     on its wait's nodes or its child
     (woken)   corral__wake (waits.c)           its wait is over: queued, ready,
                                                or back to its running step
     (unwait)  corral__unpark                   its running step drops its wait:
                                                RUNNING or QUEUED again
     PAUSED    corral__hold                     held in no lane (a pause, a
                                                generator between values)
     STOPPING  corral__mark_stopping            ends when its step returns
     ENDING    corral__end_one, corral__first_step  its cleanup hook runs
     FREE      corral__slot_blank (arena)       its slot free: laid out, freed
                                                (corral__slot_free), or untouched
                                                again by a restore
     RETIRED   corral__retire (arena.c)         its generations are spent */
void corral__end(corral_sched *s, corral_co *co, corral_end_reason why);
/* stop one coroutine (deferred if its step is on the stack) */
void corral__stop_co(corral_sched *s, corral_co *co, corral_end_reason why);
/* admit and take a coroutine without stepping it (a call's child); NULL
   with the error set and counted if it cannot start */
corral_co *corral__create(const char *call, corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size,
                          uint32_t phase, uint64_t owner, uint32_t tags, corral_handle *out, corral__meta **meta_out);
/* step every coroutine of the ready lane, including those it adds */
void corral__drain_ready(corral_sched *s);
static inline void corral__park(corral_co *co)
{
    co->state = CORRAL__WAITING;
}
static inline void corral__hold(corral_co *co, corral__meta *m, uint8_t hold)
{
    (void)m;
    co->state = (uint8_t)(CORRAL__HELD | hold);
}
/* the coroutine whose step runs innermost (a generator started now belongs
   to it), or NULL: plain code */
static inline corral_co *corral__stepping(const corral_sched *s)
{
    const uint32_t off = s->now.self ? s->now.self : s->run.running;
    return off != 0 && off != CORRAL__NIL ? CORRAL__CO(s, off) : NULL;
}
/* a generator: held between pulls, or its step running (a pull of it on
   the C stack: in corral__pulled) */
static inline bool corral__co_is_generator(const corral_sched *s, const corral_co *co)
{
    if (corral__paused(co->state)) return (co->state & CORRAL__HOLD_GENERATOR) != 0;
    const uint32_t off = corral__co_off(s, co);
    const uint32_t *pulled = corral__pulled(s);
    for (uint32_t n = 0; n < s->now.pulls && n < CORRAL_MAX_PULL_DEPTH; n++) /* one a pull */
        if (pulled[n] == off) return true;
    return false;
}
/* co's step is the one a pull runs innermost: a generator's */
static inline bool corral__gen_stepping(const corral_sched *s, const corral_co *co)
{
    return s->now.gen != 0 && s->now.gen == corral__co_off(s, co);
}
/* a held generator can be pulled: its step did not wait, or its wait is over */
static inline bool corral__gen_ready(const corral_co *co, const corral__meta *m)
{
    const uint8_t hold = corral__co_hold(co, m);
    return !(hold & CORRAL__HOLD_WAITING) || (hold & CORRAL__HOLD_WOKEN);
}
/* pulls.c: a pull of generator h (what it gave; the value in out); its
   waiting pullers woken (the feature CORRAL__FEATURE_PULLS: a generator's
   wait ended); a generator tied to the coroutine it belongs to (a wait
   node free, both side records free or taken: the caller checked) */
corral_got corral__generator_pull(const char *call, corral_sched *s, corral_handle h, void *out, size_t out_size);
void corral__gen_own(corral_sched *s, corral_co *gen, corral_co *by);
typedef struct corral__pulls_part {
    void (*ready)(corral_sched *s, corral_co *gen);
    /* tie i is on the joiners list of owner, which ends (why): end its
       generator, the ties of that one's generators moved to the list's end */
    void (*owned)(corral_sched *s, corral_co *owner, uint32_t i, corral_end_reason why);
} corral__pulls_part;
static inline void corral__entry_spent(corral_co *co)
{
    co->state = CORRAL__RUNNING;
}
/* lanes.c: the coroutine a walk steps, whose step began a wait chain in
   its link and dropped it: its link is its lane entry again (the entry is
   in the chunk the walk reads, which no compaction moves) */
void corral__unchained(corral_sched *s, corral_co *co);
/* its running step drops the wait it set: RUNNING or QUEUED again (a walked
   coroutine gets its lane entry back, corral__unchained) */
void corral__unpark(corral_sched *s, corral_co *co);
/* A wait begins in a step: its link becomes its wait chain, empty (what
   the link held, a walked coroutine's lane entry, comes back with
   corral__unpark if the step drops the wait) */
static inline void corral__wait_open(corral_co *co)
{
    if (co->state != CORRAL__WAITING) co->link = CORRAL__NIL;
}
/* its wait is let go: the nodes of its chain back to the pool, a wait of
   several nodes' mode and count cleared; _with: its meta and side record
   at hand (corral__side_if: NULL, none) */
void corral__release_wait(corral_sched *s, corral_co *co);
void corral__release_wait_with(corral_sched *s, corral_co *co, corral__meta *m, corral__side *sd);
/* its running step drops the wait it set (a second await, a call) */
void corral__unwait(corral_sched *s, corral_co *co);
/* Its step is on the C stack: it ends, with why, when that step returns. */
void corral__mark_stopping(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why);

/* ---- lanes.c: the run lanes and the ready lane */
/* The resume contract's landing: a coroutine whose step yielded without
   parking on a wait joins its phase's lane, or its phase's next-frame lane
   when the step asked not to resume in this frame and that phase's run is
   still to come (docs/API.md, "When a coroutine resumes"). */
void corral__land(corral_sched *s, corral_co *co);
/* queue a coroutine that is in no lane (woken, started, moved phase) */
void corral__enqueue(corral_sched *s, corral_co *co);
void corral__defer(corral_sched *s, corral_co *co); /* in its phase's next-frame lane */
/* put a woken coroutine at the end of the ready lane (it resumes in this
   phase run); take a ready one out of it (stopped or paused: a tombstone) */
void corral__ready_push(corral_sched *s, corral_co *co);
void corral__ready_unlink(corral_sched *s, corral_co *co);
/* the drain's take when the entry at its place is no live one (lifecycle.c,
   corral__ready_take): tombstones passed, the head chunk let go */
uint32_t corral__ready_take_on(corral_sched *s);
/* a woken coroutine: now (list) if a phase run of its phase or a top-level
   start is under way, else queued for its phase's next run */
void corral__wake_now_or_queue(corral_sched *s, corral_co *co);
uint32_t corral__lane_push(corral_sched *s, uint32_t lane, uint32_t off); /* entry index */
void corral__lane_tombstone(corral_sched *s, corral_co *co);
/* Keep lane L's chunks up to `last` (NIL: none) and free the rest; the
   lane holds w entries, all in the kept chunks. */
void corral__truncate_lane(corral_sched *s, corral__lane *L, uint32_t last, uint32_t w);
/* Compact entries [from, count) of lane L in place; keep walk_end and
   walk_orig pointing at the same boundaries; free the chunks no longer
   needed. */
void corral__compact_lane(corral_sched *s, corral__lane *L, uint32_t from);
void corral__lanes_init(corral_sched *s);
/* a walk is over: no lane is walked, and what a compaction told it is spent */
void corral__walk_over(corral_sched *s);
/* a new frame: the next-frame lanes join their phases' lanes, in order */
void corral__lanes_next_frame(corral_sched *s);
/* ---- queue.c: a phase run's walk */
/* fix what a phase run will step: what is queued now (what joins later
   waits for the next run) */
void corral__lanes_begin(corral_sched *s, uint32_t phase);
uint32_t corral__run_lanes(corral_sched *s, uint32_t phase); /* steps run */
/* a load: the frame's count, where it is, its clocks but the domains' */
void corral__frame_restore(corral_sched *s, uint64_t frame, uint32_t frame_pos, double unscaled, double fixed);
/* Time's bounds (API.md, "Clocks and their bounds"), kept where a value
   enters and checked by a load and a restore with the same constants:
   every clock stops at CORRAL__TIME_MAX; a seconds timer due past it
   never fires and is kept due at CORRAL__TIME_NEVER (held: that much
   left); a scale is at most CORRAL__SCALE_MAX. */
#define CORRAL__TIME_MAX 1e12   /* seconds a clock reads at most */
#define CORRAL__TIME_NEVER 1e13 /* a timer's due time (held: its time left) at most; no clock reaches it */
#define CORRAL__SCALE_MAX 1e9
/* a clock advanced by dt (>= 0, finite or not): it stops at the bound */
static inline double corral__clock_add(double time, double dt)
{
    const double t = time + dt;
    return t <= CORRAL__TIME_MAX ? t : CORRAL__TIME_MAX;
}
/* a seconds timer's due time (or time left) as kept: past every clock,
   never; overdue by more than a clock can read, overdue by that much */
static inline double corral__due_saturate(double due)
{
    return due > CORRAL__TIME_MAX ? CORRAL__TIME_NEVER : due < -CORRAL__TIME_MAX ? -CORRAL__TIME_MAX : due;
}
/* a due time (or time left) a save holds: false for NaN */
static inline bool corral__due_ok(double due) { return due >= -CORRAL__TIME_MAX && due <= CORRAL__TIME_NEVER; }
/* sched.c: clocks that a save or a snapshot may bring back (each clock
   finite, at least 0 and at most CORRAL__TIME_MAX; a scale at most
   CORRAL__SCALE_MAX) */
bool corral__clock_ok(double time, double scale);
bool corral__clocks_ok(double game, double unscaled, double fixed);

/* ---- postq.c and posts.c: completions and raises posted from other
   threads (the queue is laid out on every target; without atomics nothing
   posts) */
typedef struct corral__post {
    corral__atomic_u32 seq;  /* its turn: the position it may be written at, + 1 once written */
    uint32_t kind;           /* CORRAL__POST_* */
    uint32_t index, gen;
    uint64_t value;
} corral__post;
typedef struct corral__postq {
    corral__atomic_u32 tail;   /* next position a producer takes */
    corral__atomic_u32 closed; /* set when the scheduler is destroyed */
    corral__atomic_u32 full;   /* posts refused: queue full */
    uint32_t mask;             /* its capacity - 1, set at create, never written again */
    unsigned char pad_[48];    /* the producers' line apart from the owner's */
    uint32_t head;             /* next position the owner applies (owner only) */
    uint32_t pad2_;
    uint64_t applied, stale;   /* applied; refused at apply (released, completed, destroyed) */
} corral__postq;
enum { CORRAL__POST_FUTURE = 1, CORRAL__POST_SIGNAL };
static inline corral__postq *corral__postq_of(const corral_sched *s)
{
    return (corral__postq *)(void *)CORRAL__AT(s, s->parts.state[CORRAL__STATE_POSTS - 1]);
}
static inline corral__post *corral__post_cells(const corral_sched *s)
{
    return (corral__post *)(void *)CORRAL__AT(s, s->parts.state[CORRAL__STATE_POSTS - 1] + (uint32_t)sizeof(corral__postq));
}
/* postq.c, the owner's side */
static inline size_t corral__posts_bytes(uint32_t capacity) /* the queue's region */
{
    return sizeof(corral__postq) + (size_t)capacity * sizeof(corral__post);
}

/* where the block goes, part by part (the report's table): each part of
   sched.c's plan (corral__make_plan) at its exact size, from the counts
   the scheduler keeps, so that what is left of the block is the padding
   between parts and the block's own alignment slack alone, with whatever
   a caller-owned block has past what the plan needs ("unused"). Inline,
   so only the report's file carries it. */
enum { CORRAL__BLOCK_PARTS = 24 };
typedef struct corral__block_part {
    const char *name;
    uint64_t bytes;
    bool per_slot; /* grows with the slots (the report divides it by them) */
} corral__block_part;
static inline void corral__block_parts(const corral_sched *s, corral__block_part out[CORRAL__BLOCK_PARTS])
{
    const uint64_t node = sizeof(corral__node), waits = (uint64_t)s->nodes.wait_count * node;
    const uint64_t max_types = s->types.max_types;
    uint64_t page_bytes = 0, end = 0; /* end: where the plan's last part ends */
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *c = &s->arena.classes[i];
        page_bytes += (uint64_t)c->page_count * sizeof(corral__page);
        end = (uint64_t)c->base + (uint64_t)c->capacity * c->slot_size;
    }
    const corral__kept *K = corral__kept_of(s);
    const uint64_t kept = K ? CORRAL__KEPT_HEAD + K->bytes : 0;
    if (K) end = s->kept.off + kept;
    const uint64_t need = end + CORRAL__SLAB_ALIGN; /* what the plan asked for */
    const corral__pool *P = s->pools;
    const uint64_t chunks = s->run.chunk_count;
    static const char *const names[CORRAL__BLOCK_PARTS] = {
        "slots", "slot meta", "run queue", "wait nodes", "timer heaps", "wait text", "page tables", "ages", /* per slot */
        "group nodes", "owner buckets", "side records", "side lookup", "signals", "futures", "channels", "channel buffers",
        "sems, waitgroups", "post queue", "history", "step trace", "kept snapshots", "pull stack", "scheduler, types",
        "unused",
    };
    const uint64_t bytes[CORRAL__BLOCK_PARTS] = {
        s->arena.slab_bytes,
        (uint64_t)s->arena.total_slots * sizeof(corral__meta),
        (uint64_t)s->run.lane_count * sizeof(corral__lane) +
            ((chunks * CORRAL__CHUNK + CORRAL__PREFETCH) + chunks) * sizeof(uint32_t),
        waits,
        (uint64_t)s->groups.owner_off - s->timers.pages_off,
        s->nodes.text_off ? (uint64_t)s->nodes.wait_count * sizeof(const char *) : 0,
        page_bytes,
        s->prof.ages_off ? (uint64_t)s->arena.total_slots * sizeof(uint32_t) : 0u,
        (uint64_t)(s->nodes.count - s->nodes.wait_count) * node,
        ((uint64_t)s->groups.owner_mask + 1u) * 2u * sizeof(uint32_t),
        (uint64_t)s->sides.count * sizeof(corral__side),
        ((uint64_t)UINT32_MAX >> s->sides.lookup_shift) * sizeof(uint32_t) + sizeof(uint32_t),
        (uint64_t)P[CORRAL__POOL_SIGNAL].cap * sizeof(corral__signal),
        (uint64_t)P[CORRAL__POOL_FUTURE].cap * sizeof(corral__future),
        (uint64_t)P[CORRAL__POOL_CHANNEL].cap * sizeof(corral__channel),
        corral__chans_of(s)->data_off ? (uint64_t)P[CORRAL__POOL_CHANNEL].cap * corral__ring_bytes(corral__chans_of(s)) : 0,
        (uint64_t)P[CORRAL__POOL_COUNTER].cap * sizeof(corral__counter),
        s->parts.state[CORRAL__STATE_POSTS - 1] ? corral__posts_bytes(corral__postq_of(s)->mask + 1u) : 0u,
        (uint64_t)s->prof.hist_cap * sizeof(corral_frame_sample),
        (uint64_t)s->prof.trace_cap * sizeof(corral__trace_ev),
        kept,
        s->parts.state[CORRAL__STATE_PULLS - 1] ? CORRAL_MAX_PULL_DEPTH * sizeof(uint32_t) : 0u,
        CORRAL__HEAD_BYTES + max_types * sizeof(corral__type_entry) +
            ((uint64_t)s->types.hash_mask + 1u) * sizeof(uint16_t) + max_types * CORRAL__END_SLOTS * sizeof(uint64_t),
        s->total_bytes > need ? s->total_bytes - need : 0,
    };
    for (uint32_t i = 0; i < CORRAL__BLOCK_PARTS; i++) {
        out[i].name = names[i];
        out[i].bytes = bytes[i];
        out[i].per_slot = i < 8;
    }
}
/* the feature CORRAL__FEATURE_POSTS (corral_part_posts): close at destroy,
   apply at the start of a frame, its counters for corral_stats_pools */
typedef struct corral__posts_part {
    void (*close)(corral_sched *s);
    void (*apply)(corral_sched *s);
    void (*stats)(const corral_sched *s, corral_pool_stats *out);
} corral__posts_part;
static inline const corral__posts_part *corral__posts(const corral_sched *s)
{
    return (const corral__posts_part *)s->parts.feature[CORRAL__FEATURE_POSTS]; /* NULL: s has not the part */
}

/* ---- waits.c: nodes, their lists, firing; the dispatch of each kind to the file that owns it */
typedef struct corral__list {
    uint32_t *head, *tail;
} corral__list;
uint32_t corral__node_alloc(corral_sched *s);
uint32_t corral__group_node_alloc(corral_sched *s);
void corral__node_free(corral_sched *s, uint32_t i);
void corral__list_push(corral_sched *s, corral__list l, uint32_t i);
void corral__list_unlink(corral_sched *s, corral__list l, uint32_t i);
corral__list corral__list_of(corral_sched *s, const corral__node *n);
bool corral__detach(corral_sched *s, uint32_t i); /* out of its container, if in one (true: it was) */
void corral__free_chain(corral_sched *s, uint32_t *first); /* a sibling chain: detached, freed */
/* node i was taken out of its container: act on it (lifecycle.c) */
void corral__fire(corral_sched *s, uint32_t i);
/* its wait is over (now: a join, which resumes in this run of its phase) */
void corral__wake(corral_sched *s, corral_co *co, bool now);
void corral__hold_wait(corral_sched *s, corral_co *co);   /* pause: timers, predicates out */
void corral__unhold_wait(corral_sched *s, corral_co *co); /* resume: back, same time left */
/* Register a (non-phase) wait for co, whose side record is sd
   (corral__side_if: NULL, none; an all/any takes one): 1 registered (co
   WAITING), 0 already over (nothing registered), -1 malformed, -2 no free
   node (error set). */
int corral__register_wait(const char *call, corral_sched *s, corral_co *co, corral__side *sd, const corral_wait *w);
void corral__nodes_init(corral_sched *s);
void corral__nodes_order_past(corral_sched *s, uint32_t order); /* a load: attachments keep their order */
/* a load: a node of kind for co at the head of its chain, attached as
   saved (1 in its container, 2 held, 0 fired), its index */
uint32_t corral__node_load(corral_sched *s, corral_co *co, uint8_t kind, uint8_t member, uint8_t attached);
/* a reload: what the waits said they wait for forgotten; the place in its
   coroutine's slot that node i's wait reads or writes, moved to at */
void corral__wait_texts_forget(corral_sched *s);
void corral__wait_slot_place(corral_sched *s, uint32_t i, uint32_t at);

/* ---- a save's byte stream (save.c's format, docs/SAVE.md): little-endian
   words, bounds-checked; a kind's table writes and reads its node's own
   words with it, save.c the rest */
typedef struct corral__io {
    unsigned char *w;       /* writing, or NULL (measuring) */
    const unsigned char *r; /* reading, or NULL */
    size_t at, size;
    bool bad;               /* read past the end, or a check failed */
    uint32_t version;       /* reading a save: its format */
    const char *why;        /* the first failure */
    char detail[256];
} corral__io;
static inline void corral__io_fail(corral__io *io, const char *why)
{
    if (!io->bad) io->why = why;
    io->bad = true;
}
static inline void corral__put_bytes(corral__io *io, const void *p, size_t n)
{
    if (io->w && io->at + n <= io->size) memcpy(io->w + io->at, p, n);
    io->at += n;
}
static inline void corral__put_u(corral__io *io, uint64_t v, unsigned bytes)
{
    unsigned char b[8];
    for (unsigned i = 0; i < bytes; i++) b[i] = (unsigned char)(v >> (8 * i));
    corral__put_bytes(io, b, bytes);
}
static inline void corral__put_f64(corral__io *io, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    corral__put_u(io, v, 8);
}
static inline const unsigned char *corral__get_bytes(corral__io *io, size_t n)
{
    if (io->bad || n > io->size - io->at) {
        corral__io_fail(io, "the save ends early");
        return NULL;
    }
    const unsigned char *p = io->r + io->at;
    io->at += n;
    return p;
}
static inline uint64_t corral__get_u(corral__io *io, unsigned bytes)
{
    const unsigned char *p = corral__get_bytes(io, bytes);
    uint64_t v = 0;
    for (unsigned i = 0; p && i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static inline double corral__get_f64(corral__io *io)
{
    uint64_t v = corral__get_u(io, 8);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}
/* A coroutine in a save is named by its handle's index (class << 24 | slot) */
static inline uint32_t corral__save_ref(const corral_sched *s, uint32_t g);
/* a wait node as a save holds it, read back (flags: CORRAL__SW_*) */
enum { CORRAL__SW_HELD = 1, CORRAL__SW_FIRED = 2 }; /* attached 2, attached 0 */
typedef struct corral__lwait {
    uint8_t kind, member, flags, list;
    uint8_t arg;      /* a predicate's argument: its kind (polls.c) */
    uint32_t holder;  /* a predicate's argument: the coroutine whose context holds it */
    uint32_t order, seq, ref; /* ref: what it waits on, by the kind's table */
    double due;
    uint64_t user;
} corral__lwait;
/* What a kind's check and place may ask of the load under way (save.c
   fills it in for one waiting coroutine) */
typedef struct corral__lview {
    const void *L;        /* save.c's loader */
    corral_sched *s;
    uint32_t self;        /* the waiting coroutine's saved index */
    uint32_t type;        /* its type, as the loader numbers the saved ones */
    const corral__type_entry *te; /* its type in this build */
    uint32_t domain;      /* its time domain */
    uint32_t domains;     /* time domains the save has */
    uint32_t version;     /* the save's format */
    /* the saved coroutine ref, or NIL: the save holds none */
    uint32_t (*find)(const void *L, uint32_t ref);
    /* the saved item of a pool at index, or NULL: the save holds none;
       its row: {index, gen, then the owner's words} (docs/SAVE.md) */
    const unsigned char *(*item)(const void *L, uint32_t pool, uint32_t index);
    /* where a saved field (and byte in it) lies in this build's context of
       the type, or NIL: nowhere */
    uint32_t (*dest)(const void *L, uint32_t type, uint32_t field, uint32_t delta);
    /* the global slot saved coroutine ref is loaded into (place) */
    uint32_t (*slot)(const void *L, uint32_t ref);
    /* where a saved field (and byte in it) of saved coroutine ref lies in
       its slot in this build, or NIL: nowhere (or no such coroutine) */
    uint32_t (*place)(const void *L, uint32_t ref, uint32_t field, uint32_t delta);
    /* check: what its message's second %s names (NULL: nothing) */
    const char **what;
} corral__lview;

/* What a kind's verify part may ask of the image corral_verify reads (the
   live block or a snapshot's sections): verify.c fills it in. */
typedef struct corral__image corral__image;
typedef struct corral__vquery {
    corral__image *m;
    const corral__type_entry *te; /* the waiting coroutine's type */
    uint32_t g;                   /* its global slot */
    /* item i of a pool, copied to tmp (a pool item's size), or NULL: out of range */
    const void *(*item)(corral__image *m, uint32_t pool, uint32_t i, corral__any_item *tmp);
    bool (*alive)(corral__image *m, uint32_t g); /* a live coroutine at global slot g */
} corral__vquery;
/* a value of n bytes at offset at of a slot lies in the type's context */
static inline bool corral__ctx_holds(const corral__type_entry *te, uint32_t at, uint32_t n)
{
    return at >= te->ctx_off && (uint64_t)at + n <= (uint64_t)te->ctx_off + te->ctx_size;
}

/* The parts of a wait kind that takes a node: one table per kind, filled in
   by the file that owns it and named by the `part` column of
   CORRAL_WAIT_KINDS. waits.c asks the table; no other file chooses by kind. */
typedef struct corral__wait_part {
    /* 1 over already, 0 must wait, -1 malformed, -3 a handle that is gone
       (the error set for the last two) */
    int (*ready)(const char *call, corral_sched *s, corral_co *co, const corral_wait *w);
    /* node i (co, kind, member set) into its container */
    void (*arm)(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w);
    /* the list node n sits on; NULL: it sits in a timer heap */
    corral__list (*list)(corral_sched *s, const corral__node *n);
    /* pause: node i leaves its container keeping what it has left, and
       comes back on resume; NULL: it stays on its list */
    void (*hold)(corral_sched *s, uint32_t i);
    void (*unhold)(corral_sched *s, const corral_co *co, uint32_t i);
    /* ready() may take something (a value, a permit) that a wait which
       then cannot be registered would have to give back */
    bool takes;
    /* a kind that takes: 0 when ready() will neither fail nor refuse it
       (asked of every member of an all/any before any member takes),
       else ready()'s negative answer, the error set */
    int (*usable)(const char *call, corral_sched *s, corral_co *co, const corral_wait *w);
    /* u.t.seq is a place in its coroutine's slot (an offset; NIL: none)
       that the wait writes or reads: a reload moves it with its field */
    bool seq_in_slot;
    /* its coroutine resumes in the run of its phase under way when the node
       fires then (a join: a chain of them costs no frame) */
    bool now;
    /* a timer kind whose node, held (paused), keeps its due time rather
       than the time it had left (a wait until a time) */
    bool keeps_due;
    /* node i fired, out of its container, its coroutine not yet woken: what
       the kind does then (NULL: nothing; the container's firing is all) */
    void (*fire)(corral_sched *s, uint32_t i);
    /* a node (a copy: it is free) that left its container unfired, its
       coroutine's wait over another way or the coroutine gone: what the
       kind does then (NULL: nothing) */
    void (*leave)(corral_sched *s, const corral__node *n);
    /* corral_verify: what an attached node of a list kind waits on is
       there (NULL: nothing to check beyond its container) */
    bool (*verify)(const corral__vquery *q, const corral__node *n);
    /* the inspector's wait text (export.c), after the kind's name: what it
       waits on (name), and, for a lone wait, what keeps it waiting (why) */
    void (*name)(const corral_sched *s, const corral__node *n, char *buf, size_t cap);
    void (*why)(const corral_sched *s, const corral__node *n, char *buf, size_t cap);
    /* save games: whether the node can be saved (NULL: always); why not,
       after "a coroutine of type T" */
    bool (*savable)(const corral_sched *s, const corral__node *n, const char **why);
    /* corral_state_hash: its words beyond what it waits on (NULL: none) */
    void (*hash)(const corral__node *n, void (*put)(void *k, uint64_t v), void *k);
    /* its own words after the node's common ones (te: its coroutine's type) */
    void (*save)(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n);
    void (*read)(corral__io *io, corral__lwait *w);
    /* NULL when a loaded node is sound for this build, else what is wrong
       (a format with two %s: the type's name, then nothing) */
    const char *(*check)(const corral__lview *v, const corral__lwait *w);
    /* loaded node i of co (co, kind, member, order set) back where it was:
       its fields, and its container unless held (paused, or fired) */
    void (*place)(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held);
} corral__wait_part;
/* calls.c: the list a join's (or a pull's) node is on, its target's
   joiners; a joined coroutine is alive; its handle as a chain names it */
corral__list corral__join_list(corral_sched *s, const corral__node *n);
bool corral__join_verify(const corral__vquery *q, const corral__node *n);
void corral__join_name(const corral_sched *s, const corral__node *n, char *buf, size_t cap);
/* the table of node kind `kind` in s: a wait kind's, or past them an arm
   of a race or sync (the races part's); NULL: s has no part for it */
static inline const corral__wait_part *corral__node_part_of(const corral_sched *s, uint32_t kind)
{
    if (kind < CORRAL_WAIT_KIND_COUNT) return s->parts.wait[kind];
    return kind == CORRAL__NODE_ARM ? s->parts.arm : NULL;
}
/* The save-game parts of a pooled kind (signals, futures, channels,
   counters), filled in by the file that owns it: its section of a save (a
   u32 count of live items, a row each in ascending index, then whatever
   the owner adds), read and checked against this scheduler, then placed.
   A scheduler has the tables of the parts it was created with. */
typedef struct corral__pool_part {
    uint32_t row; /* bytes of a row: {u32 index, u32 generation, the owner's words} */
    uint32_t row4; /* a row's bytes in saves of format 4 and before (0: row) */
    void (*save)(corral__io *io, const corral_sched *s);
    /* NULL when the section (n rows from *rows_at) fits this scheduler, else what is wrong */
    const char *(*read)(corral__io *io, const corral_sched *s, uint32_t *n, size_t *rows_at);
    void (*load)(corral__io *io, corral_sched *s, uint32_t n, size_t rows_at);
    /* corral_verify: a live item's wait lists (where each lies in the item
       and the wait kinds its nodes may have), and its own rules (NULL:
       none; else NULL when they hold, or the rule that does not) */
    uint32_t lists;
    struct {
        uint32_t at;
        uint8_t kind, kind2;
    } list[2];
    const char *(*verify)(const corral_sched *s, const void *item);
    /* corral_load: a saved item's rules that hang on its waiters, over its
       row (in the save's format `version`) once the load knows which of
       its lists it puts waiters on (bit l: list[l]); NULL: none, else
       NULL when they hold, or the rule that does not */
    const char *(*check)(const corral_sched *s, uint32_t version, const unsigned char *row, uint32_t lists);
    /* corral_state_hash: a live item's words (item i), each given to put;
       its lists follow, hashed by the state hash itself */
    void (*hash)(const corral_sched *s, uint32_t i, const void *item, void (*put)(void *k, uint64_t v), void *k);
    /* corral_restore: what the part keeps in the block past its items (the
       channels' rings), from the snapshot's section that starts with the
       pool's items (their own restore is pool.c's); NULL: nothing */
    void (*restore)(corral_sched *s, const unsigned char *section);
} corral__pool_part;
/* NULL: s has no part that brings the pool's kind */
static inline const corral__pool_part *corral__pool_part_of(const corral_sched *s, uint32_t pool)
{
    return s->parts.pool[pool];
}
extern const corral__pool_part corral__signal_pool_part; /* wakelists.c */
/* a saved row's index and generation (little-endian), checked: in range,
   live, ascending after prev (i: its position) */
bool corral__pool_row_ok(const corral_sched *s, uint32_t pool, uint32_t index, uint32_t gen, uint32_t i,
                         uint32_t prev);
/* the parts most list kinds share (waits.c): what the node waits on by its
   index (u.t.target) in the save; placed back at that index, on its list */
void corral__index_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n);
void corral__index_read(corral__io *io, corral__lwait *w);
void corral__index_place(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held);
/* the kinds' tables the core always has (timers.c, wakelists.c) */
extern const corral__wait_part corral__timer_part, corral__signal_part;
/* the table of kind k in s, or NULL: it takes no node, or s has no part for it */
static inline const corral__wait_part *corral__wait_part_of(const corral_sched *s, uint32_t kind)
{
    return kind < CORRAL_WAIT_KIND_COUNT ? s->parts.wait[kind] : NULL;
}

/* What a part brings (struct corral_part, the public handle of one): the
   parts it builds on, the wait kinds and pooled kinds it owns, and the
   feature the core asks at an end, a frame or a post -- calls and joins
   (calls.c), groups and stop deadlines (groups.c), predicates (polls.c),
   futures (futures.c), races (races.c), pulls (pulls.c), the profile
   (stats.c), budgets (queue.c), posts (postq.c). The core asks a
   feature's table only where a link it alone makes is there (a caller,
   joiners, a group node, a predicate list, a posted completion), and a
   scheduler without the part cannot make that link (docs/DESIGN.md,
   "The core and its parts"). sched.c's corral__parts_open opens them
   into s->parts. */
#define CORRAL__PART_WAITS 4u
#define CORRAL__PART_POOLS 2u
struct corral_part {
    const corral_part *needs[2]; /* opened first (NULL: none) */
    struct {
        uint8_t first, last; /* wait kinds [first, last] (last 0: no more) */
        const corral__wait_part *table;
    } waits[CORRAL__PART_WAITS];
    struct {
        uint8_t pool, used; /* used 0: no more */
        const corral__pool_part *table;
    } pools[CORRAL__PART_POOLS];
    uint32_t feature; /* CORRAL__FEATURE_*, or CORRAL__FEATURE_COUNT: none */
    const void *table; /* the feature's table */
    const corral__wait_part *arm; /* CORRAL__NODE_ARM's, or NULL */
    /* its own state: its slot of s->parts.state, which keeps where its
       region lies (CORRAL__STATE_NONE: it keeps none); the bytes of that
       region for a desc (its zeros its defaults) and their alignment,
       placed by the plan after the channels' rings in the order of the
       slots (NULL: no such region; the domains' clocks are in the head,
       the channels' rings beside the pools that size them); its state as
       at create, once every region is placed (at: its slot's offset) */
    uint32_t state, align;
    uint64_t (*bytes)(const corral_sched_desc *d);
    void (*init)(corral_sched *s, const corral_sched_desc *d, uint32_t at);
};
/* a scheduler of desc with the core and `parts` (NULL-terminated, or
   NULL); call names the public function for its errors (sched.c) */
corral_sched *corral__sched_create(const char *call, const corral_sched_desc *desc, const corral_part *const *parts);
/* the bytes corral__sched_create takes for desc and `parts` (0: refused,
   the error set for call) */
size_t corral__memory_size(const char *call, const corral_sched_desc *desc, const corral_part *const *parts);
/* slot (one of s->parts) is filled, or the error CORRAL_ERR_NO_PART set
   for call, naming the part that fills it (errors.c) */
bool corral__part_needed(const char *call, corral_sched *s, const corral_co *self, const void *slot, const char *part);
/* the name of the part that brings wait kind `kind`, pool `pool` ("core"
   for the core's own); of a part `need` has and `have` lacks, or NULL
   (errors.c) */
const char *corral__part_of_kind(uint32_t kind);
bool corral__kind_of_a_part(uint32_t kind); /* a part brings it (not the core) */
const char *corral__part_of_pool(uint32_t pool);
const char *corral__part_lacking(const corral__part_tables *have, const corral__part_tables *need);
static inline const void *corral__feature(const corral_sched *s, uint32_t feature)
{
    return s->parts.feature[feature]; /* NULL: s has no part that brings it */
}
/* calls.c: an ending coroutine that was called (its caller wakes with its
   result) or joined (its joiners wake) */
typedef struct corral__calls_part {
    void (*end)(corral_sched *s, corral_co *co, corral__meta *m, const corral__type_entry *te, corral_end_reason why);
} corral__calls_part;
/* groups.c: an ending member leaves its groups; the list a group node is
   on; a stop request's deadline node out of its heap and chain */
typedef struct corral__groups_part {
    void (*leave)(corral_sched *s, corral_co *co);
    corral__list (*list)(corral_sched *s, const corral__node *n);
    void (*deadline_drop)(corral_sched *s, corral_co *co);
} corral__groups_part;
/* polls.c: a phase's predicates polled; a new frame's deferred ones joined */
typedef struct corral__polls_part {
    uint32_t (*poll)(corral_sched *s, uint32_t phase);
    void (*next_frame)(corral_sched *s);
    /* the state came from a block at polls.base (a restore, an adopted
       copy): arguments in its contexts now point into this one */
    void (*rebase)(corral_sched *s);
} corral__polls_part;
/* futures.c: a posted completion (false: the future is gone or done) */
typedef struct corral__futures_part {
    bool (*live)(const corral_sched *s, corral_future f);
    bool (*finish)(corral_sched *s, corral_future f, corral_value v);
} corral__futures_part;
static inline const corral__polls_part *corral__polls(const corral_sched *s)
{
    return (const corral__polls_part *)corral__feature(s, CORRAL__FEATURE_POLLS);
}
static inline const corral__groups_part *corral__groups(const corral_sched *s)
{
    return (const corral__groups_part *)corral__feature(s, CORRAL__FEATURE_GROUPS);
}

/* ---- timers.c: frames, seconds, realtime; alarms.c: a time on a clock
   (corral_wait_at), a timer that keeps its due time when held */
void corral__timer_cancel(corral_sched *s, const corral__node *n);
/* node i into heap h, due at `due` on its clock (span: what the inspector shows) */
void corral__timer_push(corral_sched *s, uint32_t i, uint32_t h, double due, float span);
void corral__timer_repush(corral_sched *s, uint32_t i); /* back in the heap it names, as it is */
/* the clock heap h counts */
static inline double corral__timer_clock(const corral_sched *s, uint32_t h)
{
    if (h == CORRAL__HEAP_REAL) return s->now.unscaled_time;
    if (h == CORRAL__HEAP_FRAMES) return (double)s->now.frame;
    return corral__domains_of(s)->d[corral__heap_domain(h)].time;
}
/* a timer's save-game parts, which alarms.c shares */
void corral__timer_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n);
void corral__timer_read(corral__io *io, corral__lwait *w);
const char *corral__timer_check(const corral__lview *v, const corral__lwait *w);
void corral__timer_load(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held);
/* a stop request's deadline: node i into the heap of co's domain (seconds) */
void corral__deadline_arm(corral_sched *s, corral_co *co, uint32_t i, float seconds);
uint32_t corral__wake_timers(corral_sched *s); /* at a frame's first phase run (lifecycle.c) */
void corral__timers_init(corral_sched *s);
void corral__timer_place(corral_sched *s, uint32_t i, uint32_t heap, double due, uint32_t seq, bool held);
double corral__timer_left(const corral_sched *s, const corral__node *n);
void corral__timers_seq_past(corral_sched *s, uint32_t seq); /* a load: ties keep their order */
void corral__timer_move(corral_sched *s, uint32_t i, uint32_t heap);
/* a plain sleep (CORRAL__SLEEP_LINK): armed for co's wait w (a frames,
   seconds or realtime wait), cancelled, held by a pause and let go, moved
   to another domain's heap, placed by a load (a cancel: its link NIL) */
void corral__sleep_arm(corral_sched *s, corral_co *co, const corral_wait *w);
void corral__sleep_cancel(corral_sched *s, corral_co *co);
/* the sleeper a timer heap entry's ref names (CORRAL__SLEEP_REF) */
static inline corral_co *corral__sleeper(const corral_sched *s, uint32_t ref)
{
    return CORRAL__CO(s, (ref & CORRAL__SLEEP_OFF) << 3);
}
void corral__sleep_hold(corral_sched *s, corral_co *co);   /* not held: a pause holds it */
void corral__sleep_unhold(corral_sched *s, corral_co *co); /* held: a resume lets it go */
void corral__sleep_move(corral_sched *s, corral_co *co, uint32_t heap);
void corral__sleep_place(corral_sched *s, corral_co *co, uint32_t kind, uint32_t heap, double due, uint32_t seq, bool held);
/* what a sleeper's entry says: its wait's kind, its clock's heap, whether
   a pause holds it, its due time (held: the time it has left), order of
   waiting and time left; false: co does not sleep (or its link is broken) */
typedef struct corral__sleep_view {
    double due, left;
    uint32_t seq;
    uint8_t kind, heap;
    bool held;
} corral__sleep_view;
bool corral__sleep_view_of(const corral_sched *s, const corral_co *co, corral__sleep_view *v);

/* ---- domains.c: the time domains */
/* a new frame: each clock by dt * its scale, up to its bound (the frame's,
   sched.c: inline, so a game that uses no domain but the game clock links
   no domains.c) */
static inline void corral__domains_advance(corral_sched *s, float dt)
{
    corral__domains *D = corral__domains_of(s);
    for (uint32_t k = 0; k < D->count; k++) { /* a parent is numbered before its children */
        corral__domain *d = &D->d[k];
        const float in = d->parent ? D->d[d->parent - 1].dt : dt; /* the parent's holds and scales */
        d->dt = d->paused ? 0.0f : in * d->scale; /* infinite past FLT_MAX */
        if (d->time + (double)d->dt <= CORRAL__TIME_MAX) {
            d->time += (double)d->dt;
        } else { /* it stops at the bound: its dt is what it moved */
            d->dt = (float)(CORRAL__TIME_MAX - d->time);
            d->time = CORRAL__TIME_MAX;
        }
    }
}
/* a domain's parent field is sound: none, or a domain numbered before it */
static inline bool corral__domain_parent_ok(uint32_t domain, uint32_t parent)
{
    return parent == 0 || parent - 1u < domain;
}
/* it or a domain it follows is paused */
static inline bool corral__domain_held(const corral_sched *s, uint32_t domain)
{
    for (uint32_t n = 0; n < CORRAL_MAX_DOMAINS; n++) {
        const corral__domain *d = &corral__domains_of(s)->d[domain];
        if (d->paused) return true;
        if (!d->parent) return false;
        domain = d->parent - 1u;
    }
    return false;
}
/* a restore: every clock as the snapshot's copy o of the head has it */
static inline void corral__domains_take(corral_sched *d, const corral_sched *o)
{
    memcpy(corral__domains_of(d)->d, corral__domains_of(o)->d, sizeof corral__domains_of(d)->d);
}
/* a load: a clock as saved (its time, scale, pause and parent field; no
   dt this frame) */
static inline void corral__domain_restore(corral_sched *s, uint32_t domain, double time, float scale, bool paused,
                                          uint32_t parent)
{
    corral__domain *d = &corral__domains_of(s)->d[domain];
    d->time = time;
    d->scale = scale;
    d->paused = paused;
    d->parent = parent;
    d->dt = 0.0f;
}
/* a clock's scale (domain 0: the game's time scale, corral_set_time_scale) */
static inline void corral__domain_scale_set(corral_sched *s, uint32_t domain, float scale)
{
    corral__domains_of(s)->d[domain].scale = scale;
}
bool corral__domain_set(corral_sched *s, corral_co *co, uint32_t domain); /* with its children */

/* ---- polls.c: until, while (a feature: corral__polls_part) */
/* fn is in desc.predicates or among the predicates waited on (types.seen) */
bool corral__predicate_known(const corral_sched *s, corral_predicate fn);
/* whether user is an argument fn's registration takes: a number, NULL, or
   an address in a live coroutine's context (an unregistered fn: any) */
bool corral__predicate_arg_ok(const corral_sched *s, corral_predicate fn, const void *user);
/* what fn's registration in pr says its argument is (corral_predicate_arg),
   -1: not registered; whether fn is registered to take NULL or an address
   in a context */
int corral__predicate_arg_kind(const corral_predicate_registry *pr, corral_predicate fn);
bool corral__predicate_takes_address(const corral_sched *s, corral_predicate fn);
/* a reload: predicate node i's function and argument in the new build */
void corral__poll_rebind(corral_sched *s, uint32_t i, corral_predicate fn, void *user);
/* the predicate lists as at create, and as a restore's copy o has them
   (every scheduler has the lists: empty without the polls part) */
static inline void corral__polls_init(corral_sched *s)
{
    for (uint32_t p = 0; p < CORRAL__PH_MAX; p++)
        s->polls.head[p] = s->polls.tail[p] = s->polls.next_head[p] = s->polls.next_tail[p] = CORRAL__NIL;
    s->polls.poll_head = s->polls.poll_tail = CORRAL__NIL;
    s->polls.next_pending = 0;
    s->polls.base = (uint64_t)(uintptr_t)s;
}
/* the state in s came from the block at polls.base (a restore, an adopted
   copy): its predicates' arguments in contexts into this block */
static inline void corral__polls_moved(corral_sched *s)
{
    if (s->polls.base != (uint64_t)(uintptr_t)s && corral__polls(s)) corral__polls(s)->rebase(s);
    s->polls.base = (uint64_t)(uintptr_t)s;
}
static inline void corral__polls_take(corral_sched *d, const corral_sched *o) { d->polls = o->polls; }

/* ---- wakelists.c: signal; futures.c: future (a feature: corral__futures_part) */
bool corral__signal_live(const corral_sched *s, corral_signal sig);
corral__signal *corral__signal_get(const corral_sched *s, corral_signal sig); /* NULL: gone */
void corral__signal_fire(corral_sched *s, corral_signal sig);
uint32_t corral__fire_all(corral_sched *s, uint32_t *head, uint32_t *tail); /* a list, each node fired */
/* a list node's name in a chain: its signal's or future's index */
void corral__item_name(const corral_sched *s, const corral__node *n, char *buf, size_t cap);

/* ---- channels.c: channels, semaphores, wait groups */
/* the region a snapshot copies: the channels, the counters, the rings (contiguous) */
static inline size_t corral__chans_bytes(const corral_sched *s)
{
    const corral__chans *C = corral__chans_of(s);
    const corral__pool *P = s->pools;
    if (!C->data_off) /* no channels part: the pools alone */
        return (size_t)P[CORRAL__POOL_COUNTER].off - P[CORRAL__POOL_CHANNEL].off +
               (size_t)P[CORRAL__POOL_COUNTER].cap * sizeof(corral__counter);
    return (size_t)C->data_off - P[CORRAL__POOL_CHANNEL].off + (size_t)P[CORRAL__POOL_CHANNEL].cap * corral__ring_bytes(C);
}

/* ---- calls.c: calls, their ends and joins (a feature: corral__calls_part);
   races.c: races and syncs */
/* it awaits a child (a call) or arms (a race, a sync); sd: its side
   record, NULL: none (a coroutine without one does neither) */
static inline bool corral__calling_with(const corral__side *sd)
{
    return sd && (sd->child != CORRAL__NIL || corral__awaits_arms_with(sd));
}
/* it is ending (why): the arms of its race or sync end with PARENT_STOPPED
   (DESTROYED stays DESTROYED) (lifecycle.c, through the races' table) */
void corral__end_arms(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why);
/* Where a child's result goes: *off, its offset in the caller's slot (NIL:
   nowhere), or false with BAD_DEST set. */
bool corral__dest_of(const char *call, corral_sched *s, corral_co *co, const corral_type *vt, void *dest,
                     size_t dest_size, uint32_t *off);
/* a child of co, made (not started), or NULL with the error set */
corral_co *corral__child_of(const char *call, corral_sched *s, corral_co *co, const corral_type *vt,
                            const void *ctx, size_t ctx_size);
/* races.c, a module: what an ending coroutine asks of it when it races or
   syncs (end_arms), or is an arm (arm_end): the feature CORRAL__FEATURE_RACES */
typedef struct corral__race_part {
    void (*end_arms)(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why);
    void (*arm_end)(corral_sched *s, corral_co *p, corral__meta *pm, corral_co *co, const corral__type_entry *te,
                    corral_end_reason why);
    /* its step returned with CORRAL__ARMS_OPEN_FLAGS: its race ends, BAD_WAIT */
    void (*abandoned)(corral_sched *s, corral_co *co);
} corral__race_part;
/* a step that returns with its race begun and its arms not started: the
   race ends unstarted (its arms made end unstepped, its link no chain),
   BAD_WAIT reported; the coroutine goes on as after a plain yield */
static inline void corral__arms_abandoned(corral_sched *s, corral_co *co)
{
    ((const corral__race_part *)corral__feature(s, CORRAL__FEATURE_RACES))->abandoned(s, co);
}

/* ---- groups.c: groups (a feature: corral__groups_part); group_ops.c: a whole
   group at once, stop requests; lifecycle.c: pause */
/* its stop request's deadline node (in its group chain), or NIL */
uint32_t corral__deadline_of(const corral_sched *s, const corral_co *co);
void corral__deadline_drop(corral_sched *s, corral_co *co); /* out of its heap and chain, freed */
/* a deadline node for co, chained with its group nodes in its side record,
   which the caller has taken (the caller puts it in its heap:
   corral__timer_arm or, loading, corral__timer_place) */
uint32_t corral__deadline_node(corral_sched *s, corral_co *co);
bool corral__join_groups(const char *call, corral_sched *s, corral_co *co, uint64_t owner, uint32_t tags);
/* room for a start's owner and tags: its group nodes and its side record
   (false: the error set, te->failed and the pool's failures counted) */
CORRAL__COLD bool corral__group_room(const char *call, corral_sched *s, corral__type_entry *te, uint64_t owner,
                                     uint32_t tags);
void corral__leave_groups(corral_sched *s, corral_co *co);
uint32_t corral__instances(const corral_sched *s, uint64_t owner, uint32_t tags, uint32_t *out, uint32_t max);
corral__list corral__group_list(corral_sched *s, const corral__node *n);
static inline uint32_t corral__owner_bucket(const corral_sched *s, uint64_t owner)
{
    return (uint32_t)((owner * 0x9E3779B97F4A7C15ull) >> 40) & s->groups.owner_mask;
}
static inline uint32_t corral__nodes_needed(uint64_t owner, uint32_t tags)
{
    uint32_t n = owner ? 1u : 0u;
    for (; tags; tags &= tags - 1) n++;
    return n;
}
/* the tag lists, owner buckets and group operations as at create, and as a
   restore's copy o has them (every scheduler has them: empty without the
   groups part) */
static inline void corral__groups_init(corral_sched *s)
{
    for (uint32_t t = 0; t < 32; t++) s->groups.tag_head[t] = s->groups.tag_tail[t] = CORRAL__NIL;
    uint32_t *b = (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
    for (uint32_t i = 0; i <= 2 * s->groups.owner_mask + 1; i++) b[i] = CORRAL__NIL;
    s->groups.side_depth = 0;
}
static inline void corral__groups_take(corral_sched *d, const corral_sched *o)
{
    memcpy(d->groups.tag_head, o->groups.tag_head, sizeof d->groups.tag_head);
    memcpy(d->groups.tag_tail, o->groups.tag_tail, sizeof d->groups.tag_tail);
    memcpy(d->groups.side_head, o->groups.side_head, sizeof d->groups.side_head);
    memcpy(d->groups.side_tail, o->groups.side_tail, sizeof d->groups.side_tail);
    d->groups.side_depth = o->groups.side_depth;
}
/* the owner buckets' words and, a restore, the buckets as a snapshot holds them (src) */
static inline uint32_t corral__owner_words(const corral_sched *s) { return 2u * (s->groups.owner_mask + 1u); }
static inline void corral__groups_restore(corral_sched *s, const unsigned char *src)
{
    memcpy(CORRAL__AT(s, s->groups.owner_off), src, (size_t)corral__owner_words(s) * sizeof(uint32_t));
}
bool corral__pause_co(corral_sched *s, corral_co *co);
/* A group operation: op on every live member of a group (an owner's, or of
   any of the tags), the sum of what op returns. */
typedef struct corral__op_arg {
    uint32_t domain;
    float deadline;
} corral__op_arg;
typedef uint32_t (*corral__member_op)(const char *call, corral_sched *s, corral_co *co, corral__op_arg arg);
uint32_t corral__owner_op(const char *call, corral_sched *s, uint64_t owner, corral__member_op op, corral__op_arg arg);
uint32_t corral__tags_op(const char *call, corral_sched *s, uint32_t tags, corral__member_op op, corral__op_arg arg);
bool corral__resume_co(corral_sched *s, corral_co *co);

/* types.c */
/* Whether vt is a well-formed vtable (docs/API.md, "Declaring coroutine types"): a step;
   its context aligned, past the header, within CORRAL_MAX_CONTEXT_SIZE;
   its result and every field of its table, named, inside the context.
   When not, why (cap bytes; NULL with 0 for none) names the type and what
   it breaks. */
bool corral__type_check(const corral_type *vt, char *why, size_t cap);
/* a start of vt refused as malformed: CORRAL_ERR_BAD_TYPE, the detail why */
CORRAL__COLD void corral__type_refuse(const char *call, corral_sched *s, const corral_type *vt);
/* index of vt in the type table, entering it if new; NIL if the table is
   full, CORRAL__BAD_TI if vt is malformed */
uint32_t corral__type_lookup(corral_sched *s, const corral_type *vt);
/* the slot of the type table's hash (uint16_t: type index + 1, 0 empty,
   open addressing) where the lookup of vt starts */
static inline uint32_t corral__type_hash(const corral_sched *s, const corral_type *vt)
{
    const uint64_t k = (uint64_t)(uintptr_t)vt;
    return (uint32_t)(((k >> 4) * 0x9E3779B97F4A7C15ull) >> 40) & s->types.hash_mask;
}
#define CORRAL__BAD_TI 0xFFFFFFFEu
/* A slot of sz bytes holds a coroutine of type vt: room for the context at
   its offset, and sz a multiple of its alignment (slabs are 64-aligned, so
   every slot then is). The one rule of class choice: create, the registry
   plan and corral_slot_size_for all follow it. */
static inline bool corral__slot_holds(uint32_t sz, const corral_type *vt)
{
    return (uint64_t)vt->ctx_offset + vt->ctx_size <= sz && sz % vt->ctx_align == 0;
}
uint32_t corral__class_for(const corral_sched *s, const corral_type *vt);
void corral__types_unplaced(corral_sched *s); /* a load: no type fills a page yet */
void corral__types_cache_clear(corral_sched *s); /* a restore: the lookup cache names no vtable */
/* a restore: a type entry's counters from o into d; every entry's counters
   and ends from a snapshot's bytes (saved_count entries at entries_at, their
   ends at ends_at; a type met since as before it was met) */
void corral__type_counters_copy(corral__type_entry *d, const corral__type_entry *o);
void corral__types_restore(corral_sched *s, const unsigned char *snap, size_t entries_at, size_t ends_at,
                           uint32_t saved_count);
/* a load: type t's class, and the page the types of registry id `id` fill next */
void corral__type_set_class(corral_sched *s, uint32_t t, uint32_t cls);
void corral__types_place(corral_sched *s, uint32_t id, uint32_t page);
/* a reload: whether type t's contexts move (its layout changes), or no
   type's; entry t takes the new build's type (marked moving: its layout
   changed; the mark goes), the hash is made again, a new type entered with
   its id, and the new build's registry, predicates and upgrade hook taken */
void corral__type_mark_moves(corral_sched *s, uint32_t t, bool moves);
void corral__types_unmark_moves(corral_sched *s);
void corral__type_rebind(corral_sched *s, uint32_t t, const corral_type *nv);
void corral__types_rehash(corral_sched *s);
void corral__type_enter(corral_sched *s, const corral_type *vt, uint32_t id);
void corral__types_take_build(corral_sched *s, const corral_reload_desc *d);
/* the field (index in its field table) a context offset lies in, and the
   byte in it; 0xFFFFFFFE: the result; NIL: none */
uint32_t corral__field_at(const corral_type *vt, uint32_t off, uint32_t *delta);
#define CORRAL__FIELD_RESULT 0xFFFFFFFEu
/* fields.c: a field of one build's context in another's -- the field of vt
   named name (len bytes), or NULL; whether a value of (kind, size, type
   text) fits field f (the same kind; integers and floats may widen;
   pointers never: a save cannot carry them); such a value's bytes at src
   into field f of the context at dst, widened (integers little-endian,
   as every target and a save's contexts are) */
bool corral__str_is(const char *p, uint32_t len, const char *z);
/* whether type nv of this build takes over, under its registry id, a type
   of another build named name (len bytes): the same name */
bool corral__type_follows(const corral_type *nv, const char *name, uint32_t len);
const corral_field *corral__field_named(const corral_type *vt, const char *name, uint32_t len);
bool corral__field_fits(const corral_field *f, uint8_t kind, uint32_t size, const char *type, uint32_t tlen);
void corral__field_copy(unsigned char *dst, const corral_field *f, const unsigned char *src, uint8_t kind, uint32_t size);
/* A type whose coroutines need none of the optional work of a start and an
   end in this scheduler: no cleanup hook, no budget, no alloc/free hooks,
   no instrumented steps. All are fixed once the entry is made (budgets at
   create), so this is computed then and start tests one byte. */
static inline uint8_t corral__plain(const corral_sched *s, const corral__type_entry *te)
{
    return !te->cleanup && !te->budget && !s->prof.instrument && !s->prof.hooks.alloc && !s->prof.hooks.free;
}

/* handles.c */
/* the live coroutine h names, or NULL with the error set (call names the caller) */
corral_co *corral__live(const char *call, corral_sched *s, corral_handle h);
corral_co *corral__resolve(const corral_sched *s, corral_handle h, corral_error *err);
static inline corral_handle corral__handle_of(const corral_sched *s, const corral_co *co)
{
    const corral__type_entry *te = &corral__types(s)[co->type];
    const corral__class *c = &s->arena.classes[te->cls];
    corral_handle h = {te->cls << CORRAL__CLASS_SHIFT | corral__slot_local(c, corral__co_off(s, co)), co->gen};
    return h;
}

static inline uint32_t corral__global_of(const corral_sched *s, const corral_co *co)
{
    const corral__class *c = &s->arena.classes[corral__types(s)[co->type].cls];
    return c->first + corral__slot_local(c, corral__co_off(s, co));
}
static inline corral_co *corral__co_of_global(const corral_sched *s, uint32_t g)
{
    uint32_t i = 0;
    while (g >= s->arena.classes[i].first + s->arena.classes[i].capacity) i++;
    const corral__class *c = &s->arena.classes[i];
    return CORRAL__CO(s, corral__slot_off(c, g - c->first));
}
static inline uint32_t corral__save_ref(const corral_sched *s, uint32_t g)
{
    return corral__handle_of(s, corral__co_of_global(s, g)).index;
}
static inline corral__meta *corral__meta_of(const corral_sched *s, const corral_co *co)
{
    const corral__type_entry *te = &corral__types(s)[co->type];
    const corral__class *c = &s->arena.classes[te->cls];
    return &corral__meta_table(s)[c->first + corral__slot_local(c, corral__co_off(s, co))];
}

/* profiling (stats.c) */
/* the k-th oldest frame sample / step event kept (k < hist_count / trace_count) */
static inline const corral_frame_sample *corral__hist_at(const corral_sched *s, uint32_t k)
{
    const corral_frame_sample *ring = (const corral_frame_sample *)(const void *)CORRAL__AT(s, s->prof.hist_off);
    return &ring[(s->prof.hist_head + s->prof.hist_cap - s->prof.hist_count + k) % s->prof.hist_cap];
}
static inline const corral__trace_ev *corral__trace_at(const corral_sched *s, uint32_t k)
{
    const corral__trace_ev *ring = (const corral__trace_ev *)(const void *)CORRAL__AT(s, s->prof.trace_off);
    return &ring[(s->prof.trace_head + s->prof.trace_cap - s->prof.trace_count + k) % s->prof.trace_cap];
}
/* false (error set) for a bad scheduler or a NULL out pointer */
bool corral__stats_ok(const char *call, const corral_sched *s, const void *out);
/* The profile part (stats.c): what a scheduler with timing, step hooks,
   a frame history or a step trace does that one without them never does
   (the feature CORRAL__FEATURE_PROFILE; a desc that asks for any of them
   needs the part). walk, walk_budgeted: a run lane's walk with every step
   instrumented (queue.c's, out of its run loop); step: one instrumented
   step; sample_frame: write the open frame's sample to the history. */
typedef struct corral__profile_part {
    uint32_t (*walk)(corral_sched *s, uint32_t lane);
    uint32_t (*walk_budgeted)(corral_sched *s, uint32_t lane);
    corral_result (*step)(corral_sched *s, corral_co *co);
    void (*sample_frame)(corral_sched *s);
} corral__profile_part;
static inline const corral__profile_part *corral__profile(const corral_sched *s)
{
    return (const corral__profile_part *)corral__feature(s, CORRAL__FEATURE_PROFILE);
}
/* The budget part (queue.c): a phase run under a time budget
   (corral_set_budget), the feature CORRAL__FEATURE_BUDGET. run: step the
   lanes [first, first + count) of phase until the budget is spent.
   defer_first: after a run of lane L limited by the last budget stop
   (walk_limit), its w entries reordered, what did not run first; how many
   are left */
typedef struct corral__budget_part {
    uint32_t (*run)(corral_sched *s, uint32_t phase, uint32_t first, uint32_t count);
    uint32_t (*defer_first)(corral_sched *s, corral__lane *L, uint32_t w);
} corral__budget_part;
/* queue.c: the profile part's walks */
uint32_t corral__walk_profiled(corral_sched *s, uint32_t lane);
uint32_t corral__walk_budgeted_profiled(corral_sched *s, uint32_t lane);
/* A step with profiling on (s->prof.instrument: s has the profile part):
   with timing and no step hooks, a step that is not sampled
   (desc.timing_sample) is counted here, inline, and only the sampled ones
   take the part's out-of-line step that reads the clock. */
static CORRAL__ALWAYS_INLINE corral_result corral__step_profiled(corral_sched *s, corral_co *co)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    if (s->prof.count_only && (te->steps & s->prof.sample_mask) != 0) {
        te->steps++;
        return te->step(co);
    }
    return corral__profile(s)->step(s, co);
}

/* ---- verify.c: the invariants, over the live block or a snapshot's sections */
struct corral__image {
    const corral_sched *s;     /* the control state: the scheduler, or a snapshot's copy of it */
    const corral_sched *blk;   /* the live scheduler (its types; what a snapshot leaves out) */
    const unsigned char *snap; /* NULL: read the live block */
    size_t pages_at[CORRAL_MAX_CLASSES]; /* per class: its corral__page array */
    size_t data_at[CORRAL_MAX_CLASSES];  /* per class: a uint64_t per page, where its slots start */
    size_t types_at, lanes_at, entries_at, next_at, wait_at, group_at, owner_at, sides_at, chans_at;
    size_t sided_at; /* a snapshot's: the side records in use, {owner's global slot, record} by owner ascending */
    size_t pool_at[CORRAL__POOL_COUNT]; /* each pool's items */
    size_t heap_at[CORRAL__HEAP_MAX + 1];
    const char *why; /* the first invariant that does not hold */
    uint32_t last_ci, last_pi, last_bump; /* the page read last (a snapshot's) */
    uint32_t last_sided;                  /* the {owner, record} pair found last (a snapshot's) */
    size_t last_data;
};
bool corral__verify_image(corral__image *m);
bool corral__pools_verify(corral__image *m); /* pool.c: free lists, counts, free items' lists */
/* pool.c: item i of a pool in the image, copied to tmp, or NULL: out of range */
const void *corral__pool_image_item(corral__image *m, uint32_t pool, uint32_t i, corral__any_item *tmp);

/* Test hook: the checksum a snapshot carries over its bytes after the
   header (the hostile tests make it again after an edit). */
uint64_t corral__snap_sum(const unsigned char *p, size_t n);

/* Test hook: timer nodes popped + steps run since create. */
/* What the debugger scripts (tools/debug/corral_core.py) read by name
   (sched.c): the constants they need, which a debugger's expressions may
   not find where the enums are anonymous. */
typedef struct corral__debugger_consts {
    uint32_t version; /* 1 */
    uint8_t free, running, stopping, retired, waiting;
    uint8_t paused; /* held: a state this high ("paused" | its hold) */
    uint8_t mode_all, mode_any, mode_race, mode_sync;
    uint8_t heap_scaled, heap_real, heap_frames;
    uint8_t node_arm;
    uint8_t hold_waiting, mode_open; /* its wait chain is in its link: WAITING, held with this hold bit, or this mode bit */
    uint8_t mode_one;                /* a wait of one node (a side record's mode is 0 then) */
    uint8_t timer_kind[CORRAL__WAIT_TABLES]; /* by wait kind: 1 when it waits in a timer heap */
    uint32_t magic; /* a live scheduler's first word */
    uint32_t domains_off, types_off; /* CORRAL__DOMAINS_OFF, CORRAL__TYPES_OFF */
    /* a plain sleep (CORRAL__SLEEP_LINK): its link and its entry's ref, and
       where a heap's entry lies in the timer store (corral__heap_ref) */
    uint32_t sleep_link, sleep_held, sleep_pos, sleep_off;
    uint8_t sleep_heap_shift, sleep_heap_mask, sleep_kind_shift, wait_frames;
    uint8_t heap_skew, heap_page_shift;
} corral__debugger_consts;
extern const corral__debugger_consts corral__debugger;
uint64_t corral__debug_visits(const corral_sched *s);
/* snapshot.c: one live coroutine's piece of the state hash (netplay.c) */
uint64_t corral__co_piece(const corral_sched *s, const corral_co *co);
/* snapshot.c: one field of a context (ctx) as the state hash takes it */
uint64_t corral__field_piece(const corral_sched *s, const corral_type *vt, const corral_field *f, const void *ctx);
/* snapshot.c: the pieces after the coroutines': the run order, each pool */
void corral__state_tail(const corral_sched *s, corral_state_piece *out /* [1 + CORRAL__POOL_COUNT] */);

/* Test hook (not part of the API): force the generation of the slot
   `index` (class << 24 | slot), live or free. False if out of range. */
bool corral__debug_set_gen(corral_sched *s, uint32_t index, uint32_t gen);

#endif /* CORRAL_INTERNAL_H */
