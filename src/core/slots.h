/*
    slots.h -- a slot taken from and given back to its page's free list
    (arena.c's pages), inline for the lifecycle's start and end and a
    restore. Include it after corral_internal.h.
*/
#ifndef CORRAL_SLOTS_H
#define CORRAL_SLOTS_H

#include <string.h>

/* Push a slot back on its page's free list (LIFO: it is warm); the
   class's used count is the lifecycle's (corral__end_last). */
static inline void corral__slot_free(corral_sched *s, const corral__type_entry *te, corral__class *c, corral_co *co,
                                     uint32_t local)
{
    uint32_t pi = local >> c->page_shift;
    corral__page *pg = &corral__pages(s, c)[pi];
    const uint32_t gen = corral__gen_next(co->gen, pg->floor);
    if (CORRAL__UNLIKELY(gen < pg->floor)) { /* 0: none left, the next would alias an old handle */
        corral__retire(c, co);
        return;
    }
    corral__slot_blank(co, gen);
    co->link = pg->free_head;
    pg->free_head = local;
    if (++pg->free_count == pg->slots && te->page != pi) { /* empty: back to untouched */
        pg->free_head = CORRAL__NIL;
        pg->bump = 0;
        corral__page_move(s, c, pi, CORRAL__PAGE_EMPTY);
    } else if (pg->list == CORRAL__PAGE_FULL) {
        corral__page_move(s, c, pi, CORRAL__PAGE_PARTIAL);
    }
}
/* A slot for a coroutine of type te: from the page it fills, else from an
   empty page (which becomes its page), else from any page with room; in a
   page, the last freed slot, else the first untouched one. */
static inline uint32_t corral__slot_alloc(corral_sched *s, corral__type_entry *te, corral__class *c,
                                          corral_co **co_out)
{
    corral__page *P = corral__pages(s, c);
    uint32_t pi = te->page;
    if (pi == CORRAL__NIL || P[pi].free_count == 0) {
        pi = c->empty_head != CORRAL__NIL ? c->empty_head : c->partial_head;
        if (pi == CORRAL__NIL) return CORRAL__NIL;
        te->page = pi;
    }
    corral__page *pg = &P[pi];
    uint32_t local = pg->free_head;
    corral_co *co;
    if (CORRAL__LIKELY(local != CORRAL__NIL)) {
        co = CORRAL__CO(s, corral__slot_off(c, local));
        pg->free_head = co->link;
    } else { /* untouched: every byte after the header written once (snapshots checksum them) */
        local = (pi << c->page_shift) + pg->bump++;
        co = CORRAL__CO(s, corral__slot_off(c, local));
        memset(CORRAL__AT(co, CORRAL__HEADER_SIZE), 0, c->slot_size - CORRAL__HEADER_SIZE);
    }
    *co_out = co;
    if (CORRAL__UNLIKELY(co->gen < pg->floor)) co->gen = pg->floor; /* free before a restore raised it */
    if (co->gen >= pg->unissued) pg->unissued = corral__gen_unissued(co->gen, false); /* it issues co->gen now */
    if (--pg->free_count == 0) corral__page_move(s, c, pi, CORRAL__PAGE_FULL);
    else if (pg->list == CORRAL__PAGE_EMPTY) corral__page_move(s, c, pi, CORRAL__PAGE_PARTIAL);
    return local; /* the class's used count is the lifecycle's (corral__count_live) */
}

#endif
