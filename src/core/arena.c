/*
    arena.c -- the size classes: slabs of equal slots cut into pages, each
    page with its own free list threaded through the slot headers (offsets,
    not pointers) and a bump index past which its slots are untouched;
    which class a type's coroutines take, slot retirement.

    Where the slabs lie in the block is the plan's (sched.c); a slot's
    coroutine state is the lifecycle's (lifecycle.c).
*/
#include "../corral_internal.h"

#include <string.h>

uint32_t corral_slot_size_for(const corral_type *type)
{
    if (!corral__type_ok(type)) return 0;
    uint32_t a = type->ctx_align > CORRAL__SLOT_STEP ? type->ctx_align : CORRAL__SLOT_STEP;
    uint32_t sz = (type->ctx_offset + type->ctx_size + a - 1) & ~(a - 1);
    return sz < CORRAL__SLOT_MIN ? CORRAL__SLOT_MIN : sz; /* holds by construction (corral__slot_holds) */
}

/* Every slot free and untouched, every page on the empty list in address
   order (a type fills page 0, then 1, ...). */
void corral__pages_init(corral_sched *s, corral__class *c)
{
    corral__page *P = corral__pages(s, c);
    for (uint32_t pi = 0; pi < c->page_count; pi++) {
        uint32_t first = pi << c->page_shift, end = first + (1u << c->page_shift);
        if (end > c->capacity) end = c->capacity;
        for (uint32_t k = first; k < end; k++) {
            corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            memset(co, 0, CORRAL__HEADER_SIZE);
            corral__slot_blank(co, 1);
        }
        P[pi].free_head = CORRAL__NIL;
        P[pi].free_count = P[pi].slots = (uint16_t)(end - first);
        P[pi].list = CORRAL__PAGE_EMPTY;
        P[pi].pad = 0;
        P[pi].bump = 0;
        P[pi].floor = 1;
        P[pi].prev = pi ? pi - 1 : CORRAL__NIL;
        P[pi].next = pi + 1 < c->page_count ? pi + 1 : CORRAL__NIL;
    }
    c->empty_head = c->page_count ? 0 : CORRAL__NIL;
    c->partial_head = CORRAL__NIL;
}

static uint32_t *corral__page_list_head(corral__class *c, uint8_t list)
{
    return list == CORRAL__PAGE_EMPTY ? &c->empty_head : &c->partial_head;
}

void corral__page_move(corral_sched *s, corral__class *c, uint32_t pi, uint8_t want)
{
    corral__page *P = corral__pages(s, c), *pg = &P[pi];
    if (pg->list != CORRAL__PAGE_FULL) { /* unlink */
        if (pg->prev != CORRAL__NIL) P[pg->prev].next = pg->next;
        else *corral__page_list_head(c, pg->list) = pg->next;
        if (pg->next != CORRAL__NIL) P[pg->next].prev = pg->prev;
    }
    pg->list = want;
    pg->prev = pg->next = CORRAL__NIL;
    if (want != CORRAL__PAGE_FULL) { /* push at the head */
        uint32_t *head = corral__page_list_head(c, want);
        pg->next = *head;
        if (*head != CORRAL__NIL) P[*head].prev = pi;
        *head = pi;
    }
}

void corral__retire(corral__class *c, corral_co *co)
{
    co->state = CORRAL__RETIRED;
    c->retired++;
}

uint32_t corral__class_for(const corral_sched *s, const corral_type *vt)
{
    for (uint32_t i = 0; i < s->arena.class_count; i++)
        if (corral__slot_holds(s->arena.classes[i].slot_size, vt)) return i;
    return CORRAL__NO_CLASS;
}

/* every slot's metadata: no wait, no links, no groups */
void corral__meta_init(corral_sched *s)
{
    corral__meta *M = corral__meta_table(s);
    for (uint32_t i = 0; i < s->arena.total_slots; i++) corral__meta_reset(&M[i]);
}
