/*
    freelist.h -- records of one size taken and given back: the wait and
    group nodes (waits.c), the lanes' chunks (lanes.c) and the side
    records (arena.c). Include it after corral_internal.h.

    A list owns the records [first, end) of an array in the block. A free
    record holds the index of the next free one at link_at (an index, not
    a pointer: the block moves, and a snapshot holds the links as they
    are). Records [bump, end) are untouched: free, on no list, taken in
    order once the list is empty. A take pops the record given back last
    (its cache lines are warm), else the one at the bump. A counted list
    knows how many are free (the untouched ones too) and the most taken at
    once, and goes back to untouched when all are free again, so what a
    snapshot copies of it ([first, bump)) depends on nothing before.

    The head, bump and counts are fields of their owner's part of the
    scheduler; a corral__freelist is a view of them, made where it is used.
*/
#ifndef CORRAL_FREELIST_H
#define CORRAL_FREELIST_H

typedef struct corral__freelist {
    void *recs;           /* record 0 of the array */
    size_t stride;        /* bytes a record */
    size_t link_at;       /* where in a free record the next one's index lies (a uint32_t) */
    uint32_t first, end;  /* the records it owns */
    uint32_t *head;       /* the first free record, NIL */
    uint32_t *bump;       /* records [*bump, end) untouched */
    uint32_t *free_count; /* free records, the untouched ones too; NULL: not counted */
    uint32_t *peak;       /* the most taken at once (a counted list) */
} corral__freelist;

static CORRAL__ALWAYS_INLINE uint32_t *corral__freelist_link(const corral__freelist *fl, uint32_t i)
{
    return (uint32_t *)(void *)((unsigned char *)fl->recs + (size_t)i * fl->stride + fl->link_at);
}

/* every record free and untouched */
static CORRAL__ALWAYS_INLINE void corral__freelist_clear(const corral__freelist *fl)
{
    *fl->head = CORRAL__NIL;
    *fl->bump = fl->first;
    if (fl->free_count) *fl->free_count = fl->end - fl->first;
}

/* A free record. A counted list has one (its owner checked *free_count
   first, to refuse in its own words); an uncounted one answers NIL when
   none is left. */
static CORRAL__ALWAYS_INLINE uint32_t corral__freelist_take(const corral__freelist *fl)
{
    assert((!fl->free_count || *fl->free_count > 0) && "corral: a record taken from a counted list with none free");
    uint32_t i = *fl->head;
    if (i != CORRAL__NIL) *fl->head = *corral__freelist_link(fl, i);
    else if (fl->free_count || *fl->bump < fl->end) i = (*fl->bump)++;
    if (fl->free_count) {
        const uint32_t taken = fl->end - fl->first - --*fl->free_count;
        if (taken > *fl->peak) *fl->peak = taken;
    }
    return i;
}

/* Record i free again: first on the list (LIFO: it is warm), or, when it
   was the last one taken of a counted list, every record untouched again */
static CORRAL__ALWAYS_INLINE void corral__freelist_give(const corral__freelist *fl, uint32_t i)
{
    if (fl->free_count && ++*fl->free_count == fl->end - fl->first) {
        *fl->head = CORRAL__NIL;
        *fl->bump = fl->first;
        return;
    }
    *corral__freelist_link(fl, i) = *fl->head;
    *fl->head = i;
}

#endif
