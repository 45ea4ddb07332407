/*
    corral_internal.h -- the scheduler's state as it lies in the arena.

    Everything below lives inside the one block create carves up:

        [pad][corral_sched][type table][type hash][run queue x2][slabs...]

    Links are 32-bit byte offsets from the corral_sched (or indices), never
    pointers: the state is position-independent bytes. The only pointers are
    what the user handed in (vtables, allocator, logger).
*/
#ifndef CORRAL_INTERNAL_H
#define CORRAL_INTERNAL_H

#include "corral/corral.h"

#define CORRAL__NIL 0xFFFFFFFFu
#define CORRAL__MAGIC 0x6C72726Fu /* "orrl" */
#define CORRAL__HEADER_SIZE 16u
#define CORRAL__SLAB_ALIGN 64u
#define CORRAL__CLASS_SHIFT 24u
#define CORRAL__LOCAL_MASK 0x00FFFFFFu
#define CORRAL__NO_CLASS 0xFFFFu

/* corral_co.state */
enum {
    CORRAL__FREE = 0,   /* on its class's free list */
    CORRAL__QUEUED,     /* in the run queue (also while the tick steps it:
                           then sched->running names it) */
    CORRAL__RUNNING,    /* its first step is on the C stack (inside start) */
    CORRAL__STOPPING,   /* stopped while running: ends when its step returns */
    CORRAL__ENDING,     /* its cleanup hook is running */
    CORRAL__RETIRED     /* generation exhausted: never reused */
};

/* sched flags */
#define CORRAL__OWNS_MEMORY 0x01u
#define CORRAL__DESTROYING 0x02u

typedef struct corral__class {
    uint32_t slot_size;
    uint32_t capacity;
    uint32_t base;        /* offset of the slab from the sched */
    uint32_t free_head;   /* index of the first free slot, or NIL */
    uint32_t used, peak;
    uint32_t retired;
    uint32_t reserved;    /* budget slots not yet taken by their types */
    uint32_t shift, inv;  /* slot_size = odd << shift; inv = odd^-1 mod 2^32 */
    uint64_t failures;
} corral__class;

typedef struct corral__type_entry {
    corral_result (*step)(corral_co *co); /* copy of vt->step: one load less */
    const corral_type *vt;
    uint32_t id, budget;
    uint32_t cls; /* class index or CORRAL__NO_CLASS */
    uint32_t ctx_size, ctx_off;
    uint32_t live, peak;
    uint64_t started, finished, stopped, failed;
} corral__type_entry;

struct corral_sched {
    uint32_t magic;
    uint32_t flags;
    uint32_t pad;             /* bytes from the allocated block to here */
    corral_error last_error;
    uint64_t total_bytes;     /* the whole block */
    corral_allocator allocator;
    corral_logger logger;

    /* type table */
    uint32_t types_off, max_types, type_count;
    uint32_t hash_off, hash_mask; /* uint16_t slots: type index + 1 */
    const corral_type *last_vt;   /* one-entry cache in front of the hash */
    uint32_t last_ti;

    /* run queue: 2 * queue_cap slot offsets. The main half [0, count)
       holds the queue in order; a tick walks it and compacts it in place
       (a coroutine that yields stays where it is unless an earlier one left
       a hole). Coroutines queued during a tick go to the aux half
       [queue_cap, aux_pos) and join the main half's end after the walk.
       co->link is the absolute index of a queued coroutine's entry. */
    uint32_t queue_off;
    uint32_t queue_cap; /* entries per half = slots in all classes */
    uint32_t count;     /* entries in the main half (tombstones included) */
    uint32_t aux_pos;   /* next free entry of the aux half, during a tick */
    uint32_t running;   /* offset of the coroutine the tick is stepping, or NIL */

    uint32_t class_count;
    corral__class classes[CORRAL_MAX_CLASSES];

    /* arena counters */
    uint32_t live, live_peak;
    uint64_t slab_bytes;
    uint64_t slot_bytes, slot_bytes_peak;
    uint64_t ctx_bytes, ctx_bytes_peak;

    /* time */
    double time;
    float dt;
    uint32_t in_tick; /* non-zero while corral_tick runs */
    uint32_t depth;   /* steps on the C stack (first steps of starts) */
    uint64_t frame;
};

#define CORRAL__AT(s, off) ((unsigned char *)(s) + (off))
#define CORRAL__CO(s, off) ((corral_co *)(void *)CORRAL__AT(s, off))

static inline corral__type_entry *corral__types(const corral_sched *s)
{
    return (corral__type_entry *)(void *)CORRAL__AT(s, s->types_off);
}
static inline uint32_t *corral__queue(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->queue_off);
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
    return state == CORRAL__QUEUED || state == CORRAL__RUNNING;
}
/* its step is on the C stack right now */
static inline bool corral__is_running(const corral_sched *s, const corral_co *co)
{
    return co->state == CORRAL__RUNNING || co->state == CORRAL__STOPPING ||
           corral__co_off(s, co) == s->running;
}

/* errors.c */
void corral__fail(const corral_sched *s, const corral_logger *logger, corral_error err);
extern _Thread_local corral_sched *corral__tls_sched;
/* false (and the error set) for NULL or a pointer that is not a live scheduler */
bool corral__check_slow(const corral_sched *s);
static inline bool corral__check(const corral_sched *s)
{
    return (s && s->magic == CORRAL__MAGIC) || corral__check_slow(s);
}

/* arena.c */
void corral__retire(corral_sched *s, corral__class *c, corral_co *co);

/* Push a slot back on its class's free list (LIFO: it is warm). */
static inline void corral__slot_free(corral_sched *s, uint32_t cls, uint32_t off)
{
    corral__class *c = &s->classes[cls];
    corral_co *co = CORRAL__CO(s, off);
    c->used--;
    if (co->gen == UINT32_MAX) { /* the next generation would alias an old handle */
        corral__retire(s, c, co);
        return;
    }
    co->gen++;
    co->state = CORRAL__FREE;
    co->link = c->free_head;
    c->free_head = corral__slot_local(c, off);
}

/* Pop the class's free list: the slot's index within the class, or NIL. */
static inline uint32_t corral__slot_alloc(corral_sched *s, uint32_t cls)
{
    corral__class *c = &s->classes[cls];
    uint32_t local = c->free_head;
    if (local == CORRAL__NIL) return CORRAL__NIL;
    c->free_head = CORRAL__CO(s, corral__slot_off(c, local))->link;
    if (++c->used > c->peak) c->peak = c->used;
    return local;
}

/* sched.c */
void corral__end(corral_sched *s, corral_co *co, corral_end_reason why);

/* types.c */
bool corral__type_ok(const corral_type *vt); /* well-formed vtable */
/* index of vt in the type table, entering it if new; NIL if the table is
   full, CORRAL__BAD_TI if vt is malformed */
uint32_t corral__type_lookup(corral_sched *s, const corral_type *vt);
#define CORRAL__BAD_TI 0xFFFFFFFEu
static inline uint32_t corral__type_index(corral_sched *s, const corral_type *vt)
{
    if (vt == s->last_vt) return s->last_ti;
    return corral__type_lookup(s, vt);
}
uint32_t corral__class_for(const corral_sched *s, uint32_t ctx_size, uint32_t ctx_align,
                           uint32_t ctx_off);

/* handles.c */
corral_co *corral__resolve(const corral_sched *s, corral_handle h, corral_error *err);
corral_handle corral__handle_of(const corral_sched *s, const corral_co *co);

/* Test hook (not part of the API): force the generation of the slot
   `index` (class << 24 | slot), live or free. False if out of range. */
bool corral__debug_set_gen(corral_sched *s, uint32_t index, uint32_t gen);

#endif /* CORRAL_INTERNAL_H */
