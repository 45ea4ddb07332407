/*
    pool.c -- the handle pools: signals, futures, channels, semaphores and
    wait groups. A pool is an array of items of one size in the arena with
    a free list; a handle is (index, generation). An item's generation is
    odd while it is live and even while it is free, and grows at every
    alloc and free, so a handle to an item that was freed (and perhaps
    taken again) never names it. This file is the only one that writes an
    item's generation or free link (corral__item); a handle's lookup and an
    item's liveness, which read the generation, are corral_internal.h's
    (corral__pool_get, corral__item_live), inline. The rest of an item is
    its owner's (wakelists.c, channels.c).
*/
#include "../corral_internal.h"

#include <string.h>

/* where each pool's items' wait lists lie (words that read NIL while the
   item has no waiters); their sizes are corral__pool_item_size's */
static const struct corral__pool_kind {
    uint32_t lists_at, lists; /* first list word (bytes from the item), how many words */
} corral__pool_kinds[CORRAL__POOL_COUNT] = {
    {offsetof(corral__signal, head), 2},
    {offsetof(corral__future, head), 2},
    {offsetof(corral__channel, send_head), 4},
    {offsetof(corral__counter, head), 2},
};

static corral__item *corral__item_at(const corral_sched *s, uint32_t pool, uint32_t i)
{
    return (corral__item *)corral__pool_item(s, pool, i, corral__pool_item_size(pool));
}

void corral__pools_init(corral_sched *s)
{
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        corral__pool *pool = &s->pools[p];
        const struct corral__pool_kind *k = &corral__pool_kinds[p];
        for (uint32_t i = 0; i < pool->cap; i++) {
            corral__item *it = corral__item_at(s, p, i);
            memset(it, 0, corral__pool_item_size(p));
            it->next_free = i + 1 < pool->cap ? i + 1 : CORRAL__NIL;
            for (uint32_t w = 0; w < k->lists; w++) {
                const uint32_t nil = CORRAL__NIL;
                memcpy((unsigned char *)it + k->lists_at + w * sizeof nil, &nil, sizeof nil);
            }
        }
        pool->free = pool->cap ? 0 : CORRAL__NIL;
        pool->live = 0;
    }
}

uint32_t corral__pool_alloc(corral_sched *s, uint32_t pool, uint32_t *gen)
{
    corral__pool *p = &s->pools[pool];
    if (p->free == CORRAL__NIL) {
        p->failures++;
        return CORRAL__NIL;
    }
    const uint32_t i = p->free;
    corral__item *it = corral__item_at(s, pool, i);
    p->free = it->next_free;
    /* odd: live (a free item's is even: the next one up is odd, and so is
       the floor it is raised to) */
    it->gen = corral__gen_next(it->gen, p->floor | 1u);
    if (++p->live > p->peak) p->peak = p->live;
    *gen = it->gen;
    return i;
}

void corral__pool_free(corral_sched *s, uint32_t pool, uint32_t index)
{
    corral__pool *p = &s->pools[pool];
    corral__item *it = corral__item_at(s, pool, index);
    it->gen = corral__gen_next(it->gen, 0); /* even: free (its take raises it to the floor); stale handles stay stale */
    p->live--;
    it->next_free = p->free;
    p->free = index;
}

void corral__pools_floors(const corral_sched *s, uint32_t floors[CORRAL__POOL_COUNT])
{
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        uint32_t floor = s->pools[p].floor;
        for (uint32_t i = 0; i < s->pools[p].cap; i++) {
            /* live or free, its next take moves past its generation */
            const uint32_t next = corral__gen_unissued(corral__item_at(s, p, i)->gen, false);
            if (next > floor) floor = next;
        }
        floors[p] = floor;
    }
}

void corral__pools_set_floors(corral_sched *s, const uint32_t floors[CORRAL__POOL_COUNT])
{
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) s->pools[p].floor = floors[p];
}

bool corral__pool_row_ok(const corral_sched *s, uint32_t pool, uint32_t index, uint32_t gen, uint32_t i,
                         uint32_t prev)
{
    return index < s->pools[pool].cap && corral__gen_live(gen) && (i == 0 || index > prev);
}

void corral__pool_revive(corral_sched *s, uint32_t pool, uint32_t i, uint32_t gen)
{
    corral__item_at(s, pool, i)->gen = gen;
}

void corral__pools_relink(corral_sched *s)
{
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        corral__pool *pool = &s->pools[p];
        pool->free = CORRAL__NIL;
        pool->live = 0;
        for (uint32_t i = pool->cap; i-- > 0;) {
            corral__item *it = corral__item_at(s, p, i);
            if (corral__gen_live(it->gen)) {
                pool->live++;
            } else {
                it->next_free = pool->free;
                pool->free = i;
            }
        }
        if (pool->live > pool->peak) pool->peak = pool->live;
    }
}

/* ---- verify (verify.c asks): over an image, live block or snapshot */

/* item i of pool p in the image (its corral__item and the owner's words) */
static const corral__item *corral__item_in_image(corral__image *m, uint32_t p, uint32_t i, unsigned char *tmp)
{
    const uint32_t size = (uint32_t)corral__pool_item_size(p);
    if (!m->snap) return (const corral__item *)corral__pool_item(m->blk, p, i, size);
    memcpy(tmp, m->snap + m->pool_at[p] + (size_t)i * size, size);
    return (const corral__item *)(const void *)tmp;
}

const void *corral__pool_image_item(corral__image *m, uint32_t pool, uint32_t i, corral__any_item *tmp)
{
    return i < m->s->pools[pool].cap ? corral__item_in_image(m, pool, i, (unsigned char *)tmp) : NULL;
}

bool corral__pools_verify(corral__image *m)
{
    const corral_sched *s = m->s;
    corral__any_item tmp;
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        const corral__pool *pool = &s->pools[p];
        const struct corral__pool_kind *k = &corral__pool_kinds[p];
        uint32_t n = 0, live = 0;
        for (uint32_t i = pool->free; i != CORRAL__NIL; i = corral__item_in_image(m, p, i, (unsigned char *)&tmp)->next_free) {
            if (i >= pool->cap || corral__gen_live(corral__item_in_image(m, p, i, (unsigned char *)&tmp)->gen)) {
                m->why = "a live item of a pool (signal, future, channel, semaphore) is on its free list";
                return false;
            }
            if (++n > pool->cap) {
                m->why = "a pool's free list has a cycle";
                return false;
            }
        }
        for (uint32_t i = 0; i < pool->cap; i++) {
            const corral__item *it = corral__item_in_image(m, p, i, (unsigned char *)&tmp);
            if (corral__gen_live(it->gen)) {
                live++;
                continue;
            }
            for (uint32_t w = 0; w < k->lists; w++) {
                uint32_t head;
                memcpy(&head, (const unsigned char *)it + k->lists_at + w * sizeof head, sizeof head);
                if (head != CORRAL__NIL) {
                    m->why = "a free item of a pool (signal, future, channel, semaphore) has waiters";
                    return false;
                }
            }
        }
        if (n + live != pool->cap) {
            m->why = "an item of a pool is lost (not live and not free)";
            return false;
        }
        if (live != pool->live || pool->peak < pool->live) {
            m->why = "a pool's live count is wrong";
            return false;
        }
    }
    return true;
}

/* a restore: each pool's free list and counts as saved in o (where and how
   many stay this scheduler's) */
void corral__pools_take(corral_sched *d, const corral_sched *o)
{
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        d->pools[p].free = o->pools[p].free;
        d->pools[p].live = o->pools[p].live;
        d->pools[p].peak = o->pools[p].peak;
        d->pools[p].floor = o->pools[p].floor;
        d->pools[p].failures = o->pools[p].failures;
    }
}

/* a restore: every item of pool p as a snapshot holds them (src: the
   pool's capacity of items, each its corral__item and its owner's words);
   the free list and counts come with corral__pools_take */
void corral__pool_restore(corral_sched *s, uint32_t pool, const unsigned char *src)
{
    const size_t size = corral__pool_item_size(pool);
    memcpy(corral__pool_item(s, pool, 0, size), src, (size_t)s->pools[pool].cap * size);
}
