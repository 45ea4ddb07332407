/*
    arena.c -- the size classes: slabs of equal slots cut into pages, each
    page with its own free list threaded through the slot headers (offsets,
    not pointers) and a bump index past which its slots are untouched;
    which class a type's coroutines take, slot retirement.

    Where the slabs lie in the block is the plan's (sched.c); a slot's
    coroutine state is the lifecycle's (lifecycle.c).
*/
#include "../corral_internal.h"
#include "freelist.h"

#include <stdio.h>
#include <string.h>

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
        P[pi].unissued = 1;
        P[pi].spare = 0;
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

bool corral__slot_at(const corral_sched *s, uint64_t off, uint32_t *ci, uint32_t *k)
{
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *c = &s->arena.classes[i];
        if (off < c->base || off >= c->base + (uint64_t)c->capacity * c->slot_size) continue;
        *ci = i;
        *k = (uint32_t)((off - c->base) / c->slot_size);
        return true;
    }
    return false;
}

corral_co *corral__co_holding(const corral_sched *s, const void *p)
{
    const uintptr_t a = (uintptr_t)p, b = (uintptr_t)s;
    uint32_t ci, k;
    if (a < b || !corral__slot_at(s, (uint64_t)(a - b), &ci, &k)) return NULL;
    corral_co *co = CORRAL__CO(s, corral__slot_off(&s->arena.classes[ci], k));
    return corral__state_alive(co->state) ? co : NULL;
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
    if (s->prof.ages_off) memset(corral__ages(s), 0, (size_t)s->arena.total_slots * sizeof(uint32_t));
}

/* ---- side records: a counted free list (freelist.h) linked through .parent */

static inline corral__freelist corral__side_records(corral_sched *s)
{
    return (corral__freelist){corral__sides(s), sizeof(corral__side), offsetof(corral__side, parent), 0,
                              s->sides.count, &s->sides.free, &s->sides.bump, &s->sides.free_count, &s->sides.peak};
}

/* ---- the lookup from a coroutine's global slot to its side record
   (corral_internal.h, corral__side_find): linear probing, deletion by
   placing the entries after the hole again (no tombstones) */

static uint32_t *corral__side_lookup(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->sides.lookup_off);
}
static uint32_t corral__side_mask(const corral_sched *s) { return UINT32_MAX >> s->sides.lookup_shift; }
static uint32_t corral__side_home(const corral_sched *s, uint32_t g) { return (g * 0x9E3779B1u) >> s->sides.lookup_shift; }

/* where g's entry is, or the empty entry its probe ends at */
static uint32_t corral__side_probe(const corral_sched *s, uint32_t g)
{
    const uint32_t *T = corral__side_lookup(s), mask = corral__side_mask(s);
    const corral__side *S = corral__sides(s);
    uint32_t h = corral__side_home(s, g);
    while (T[h] != CORRAL__NIL && S[T[h]].owner != g) h = (h + 1u) & mask;
    return h;
}

CORRAL__NOINLINE uint32_t corral__side_find(const corral_sched *s, uint32_t g) { return corral__side_lookup(s)[corral__side_probe(s, g)]; }

CORRAL__NOINLINE corral__side *corral__side_at(const corral_sched *s, const corral__meta *m)
{
    assert(corral__co_sided(m) && "corral: a side record of a coroutine that has none");
    return &corral__sides(s)[corral__side_find(s, (uint32_t)(m - corral__meta_table(s)))];
}

static CORRAL__NOINLINE void corral__side_enter(corral_sched *s, uint32_t g, uint32_t i)
{
    corral__side_lookup(s)[corral__side_probe(s, g)] = i;
}

/* g's entry out of the lookup, and the entries after it up to the next
   empty one placed again (no entry past a hole its probe must cross):
   its record's index */
static uint32_t corral__side_leave(corral_sched *s, uint32_t g)
{
    uint32_t *T = corral__side_lookup(s);
    const uint32_t mask = corral__side_mask(s), at = corral__side_probe(s, g), i = T[at];
    assert(i != CORRAL__NIL && "corral: a side record the lookup does not hold");
    T[at] = CORRAL__NIL;
    for (uint32_t j = (at + 1u) & mask, k; (k = T[j]) != CORRAL__NIL; j = (j + 1u) & mask) {
        T[j] = CORRAL__NIL;
        corral__side_enter(s, corral__sides(s)[k].owner, k);
    }
    return i;
}

void corral__sides_init(corral_sched *s)
{
    const corral__freelist fl = corral__side_records(s);
    corral__freelist_clear(&fl);
    memset(corral__side_lookup(s), 0xFF, ((size_t)corral__side_mask(s) + 1u) * sizeof(uint32_t)); /* NIL: empty */
}

bool corral__sides_room(const char *call, corral_sched *s, const corral_co *self, const char *whose)
{
    if (s->sides.free_count) return true;
    s->sides.failures++;
    char why[128];
    snprintf(why, sizeof why, "%s%sdesc.max_side_records (%u) are all taken", whose ? whose : "", whose ? ": " : "",
             s->sides.count);
    corral__fail_at(s, NULL, CORRAL_ERR_SIDE_POOL_EXHAUSTED, call, CORRAL__NOH, self, why);
    return false;
}

corral__side *corral__side_take(const char *call, corral_sched *s, corral__meta *m)
{
    if (corral__co_sided(m)) return corral__side_at(s, m);
    if (!corral__sides_room(call, s, NULL, NULL)) return NULL;
    corral__side *S = corral__sides(s);
    const corral__freelist fl = corral__side_records(s);
    const uint32_t i = corral__freelist_take(&fl), g = (uint32_t)(m - corral__meta_table(s));
    S[i] = *corral__side_none();
    S[i].owner = g;
    corral__side_enter(s, g, i);
    m->bits |= CORRAL__HAS_SIDE;
    return &S[i];
}

void corral__side_drop(corral_sched *s, corral__meta *m)
{
    const uint32_t i = corral__side_leave(s, (uint32_t)(m - corral__meta_table(s)));
    m->bits &= (uint8_t)~CORRAL__HAS_SIDE;
    corral__sides(s)[i].owner = CORRAL__NIL;
    const corral__freelist fl = corral__side_records(s);
    corral__freelist_give(&fl, i);
}

bool corral__co_domain_put(const char *call, corral_sched *s, corral__meta *m, uint32_t domain)
{
    if (!domain && !corral__co_sided(m)) return true; /* 0 needs no record */
    corral__side *sd = corral__side_take(call, s, m);
    if (sd) sd->domain = (uint8_t)domain;
    return sd != NULL;
}

/* corral_verify's part: the lookup holds each record in use once, where
   a probe for its owner finds it, and nothing else */
bool corral__side_lookup_sound(const corral_sched *s)
{
    const uint32_t *T = corral__side_lookup(s);
    const corral__side *S = corral__sides(s);
    uint32_t n = 0;
    for (uint32_t h = 0; h <= corral__side_mask(s); h++) {
        if (T[h] == CORRAL__NIL) continue;
        if (T[h] >= s->sides.bump || S[T[h]].owner == CORRAL__NIL || corral__side_probe(s, S[T[h]].owner) != h) return false;
        n++;
    }
    return n == s->sides.count - s->sides.free_count;
}

/* ---- a load's part (save.c reads the bytes; the pages are this file's) */

/* every page's floor above the generations its slots issued: no handle
   from before the load names a coroutine after it */
void corral__floors_keep(corral_sched *s)
{
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        corral__class *c = &s->arena.classes[ci];
        corral__page *P = corral__pages(s, c);
        for (uint32_t pi = 0; pi < c->page_count; pi++)
            for (uint32_t k = 0, first = pi << c->page_shift; k < P[pi].slots; k++) {
                const corral_co *co = CORRAL__CO(s, corral__slot_off(c, first + k));
                const uint32_t g = corral__gen_unissued(co->gen, co->state == CORRAL__FREE);
                if (g > P[pi].floor) P[pi].floor = g;
            }
        for (uint32_t pi = 0; pi < c->page_count; pi++)
            if (P[pi].floor > P[pi].unissued) P[pi].unissued = P[pi].floor;
    }
}

/* A page's free list, bump and list from its slots' states: free slots
   below the last used or retired one on the list, lowest first. */
static void corral__page_rebuild(corral_sched *s, corral__class *c, uint32_t pi)
{
    corral__page *pg = &corral__pages(s, c)[pi];
    uint32_t first = pi << c->page_shift, top = 0, freen = 0;
    for (uint32_t k = 0; k < pg->slots; k++) {
        const corral_co *co = CORRAL__CO(s, corral__slot_off(c, first + k));
        if (co->state != CORRAL__FREE) top = k + 1;
        else freen++;
    }
    pg->bump = (uint16_t)top;
    pg->free_head = CORRAL__NIL;
    for (uint32_t k = top; k-- > 0;) {
        corral_co *co = CORRAL__CO(s, corral__slot_off(c, first + k));
        if (co->state != CORRAL__FREE) continue;
        memset(CORRAL__AT(co, CORRAL__HEADER_SIZE), 0, c->slot_size - CORRAL__HEADER_SIZE); /* as a bump writes it */
        co->link = pg->free_head;
        pg->free_head = first + k;
    }
    pg->free_count = (uint16_t)freen;
    pg->list = freen == 0 ? CORRAL__PAGE_FULL : freen == pg->slots ? CORRAL__PAGE_EMPTY : CORRAL__PAGE_PARTIAL;
}
void corral__class_rebuild(corral_sched *s, corral__class *c)
{
    corral__page *P = corral__pages(s, c);
    c->empty_head = c->partial_head = CORRAL__NIL;
    uint32_t used = 0;
    for (uint32_t pi = c->page_count; pi-- > 0;) {
        corral__page_rebuild(s, c, pi);
        used += P[pi].slots - P[pi].free_count;
        P[pi].prev = P[pi].next = CORRAL__NIL;
        if (P[pi].list == CORRAL__PAGE_FULL) continue;
        uint32_t *head = P[pi].list == CORRAL__PAGE_EMPTY ? &c->empty_head : &c->partial_head;
        P[pi].next = *head;
        if (*head != CORRAL__NIL) P[*head].prev = pi;
        *head = pi;
    }
    c->used = used - c->retired;
    if (c->used > c->peak) c->peak = c->used;
    corral__counts_rose(s);
}

/* the arena's counts rose outside a start (a load's rebuild, a reload):
   a new epoch, so no type's peaks are taken as covering it */
void corral__counts_rose(corral_sched *s)
{
    if (++s->arena.epoch == 0) corral__epoch_wrapped(s);
}

void corral__epoch_wrapped(corral_sched *s)
{
    s->arena.epoch = 1;
    corral__type_entry *T = corral__types(s);
    for (uint32_t t = 0; t < s->types.type_count; t++) T[t].peak_epoch = 0;
}

/* a class's empty and partial lists from its pages' list fields, in page order */
void corral__class_lists(corral_sched *s, corral__class *c)
{
    corral__page *P = corral__pages(s, c);
    c->empty_head = c->partial_head = CORRAL__NIL;
    for (uint32_t pi = c->page_count; pi-- > 0;) {
        P[pi].prev = P[pi].next = CORRAL__NIL;
        if (P[pi].list == CORRAL__PAGE_FULL) continue;
        uint32_t *head = P[pi].list == CORRAL__PAGE_EMPTY ? &c->empty_head : &c->partial_head;
        P[pi].next = *head;
        if (*head != CORRAL__NIL) P[*head].prev = pi;
        *head = pi;
    }
}

#define CORRAL__LMARK 0xFFFFFFFEu
/* A page as the save had it (its bump, its free list in order, each free
   slot's next generation), over the page corral__page_rebuild made: taken
   only when it agrees with the slots loaded (every entry a free slot below
   the bump, each once, all of them); else the rebuilt page stays. A
   generation below what this scheduler handed out there stays this one's,
   so no handle from before the load names a new coroutine. */
void corral__page_adopt(corral_sched *s, corral__class *c, uint32_t pi, uint32_t bump, uint32_t k,
                        const unsigned char *e)
{
    corral__page *pg = &corral__pages(s, c)[pi];
    const uint32_t first = pi << c->page_shift;
    if (bump > pg->slots || bump < pg->bump) return;
    uint32_t free_below = 0;
    for (uint32_t o = 0; o < bump; o++) free_below += CORRAL__CO(s, corral__slot_off(c, first + o))->state == CORRAL__FREE;
    if (k != free_below) return;
    bool ok = true;
    uint32_t marked = 0;
    for (; marked < k && ok; marked++) {
        uint32_t o = (uint32_t)e[6 * marked] | (uint32_t)e[6 * marked + 1] << 8;
        corral_co *co = o < bump ? CORRAL__CO(s, corral__slot_off(c, first + o)) : NULL;
        ok = co && co->state == CORRAL__FREE && co->link != CORRAL__LMARK;
        if (ok) co->link = CORRAL__LMARK;
    }
    if (!ok) { /* as rebuilt */
        corral__page_rebuild(s, c, pi);
        return;
    }
    pg->free_head = CORRAL__NIL;
    for (uint32_t i = k; i-- > 0;) {
        uint32_t o = (uint32_t)e[6 * i] | (uint32_t)e[6 * i + 1] << 8;
        uint32_t gen = corral__le32(e + 6 * i + 2);
        corral_co *co = CORRAL__CO(s, corral__slot_off(c, first + o));
        if (gen > co->gen && gen >= pg->floor) co->gen = gen;
        co->link = pg->free_head;
        pg->free_head = first + o;
    }
    for (uint32_t o = bump; o < pg->slots; o++) { /* untouched again */
        corral_co *co = CORRAL__CO(s, corral__slot_off(c, first + o));
        if (co->state == CORRAL__FREE) co->link = CORRAL__NIL;
    }
    pg->bump = (uint16_t)bump;
    pg->free_count = (uint16_t)(k + pg->slots - bump);
    pg->list = pg->free_count == 0 ? CORRAL__PAGE_FULL
               : bump == 0        ? CORRAL__PAGE_EMPTY
                                  : CORRAL__PAGE_PARTIAL;
}

/* A class's list `list` (0 empty, 1 partial) in the saved order, when it
   names every page on it once and no other */
void corral__class_list_adopt(corral_sched *s, corral__class *c, int list, uint32_t n, const unsigned char *e)
{
    corral__page *P = corral__pages(s, c);
    const uint8_t want = list ? CORRAL__PAGE_PARTIAL : CORRAL__PAGE_EMPTY;
    uint32_t on = 0;
    for (uint32_t pi = 0; pi < c->page_count; pi++) on += P[pi].list == want;
    bool ok = n == on;
    uint32_t i = 0;
    for (; i < n && ok; i++) {
        uint32_t pi = corral__le32(e + 4 * (size_t)i);
        ok = pi < c->page_count && P[pi].list == want && !P[pi].pad;
        if (ok) P[pi].pad = 1;
    }
    for (uint32_t j = 0; j < i; j++) {
        uint32_t pi = corral__le32(e + 4 * (size_t)j);
        if (pi < c->page_count) P[pi].pad = 0;
    }
    if (!ok) return;
    uint32_t *head = list ? &c->partial_head : &c->empty_head, prev = CORRAL__NIL;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t pi = corral__le32(e + 4 * (size_t)j);
        P[pi].prev = prev;
        P[pi].next = CORRAL__NIL;
        if (prev == CORRAL__NIL) *head = pi;
        else P[prev].next = pi;
        prev = pi;
    }
}

/* a restore: each class's page lists and counts, and the arena's, as saved in o */
void corral__arena_take(corral_sched *d, const corral_sched *o)
{
    for (uint32_t i = 0; i < CORRAL_MAX_CLASSES; i++) {
        corral__class *dc = &d->arena.classes[i];
        const corral__class *oc = &o->arena.classes[i];
        dc->empty_head = oc->empty_head;
        dc->partial_head = oc->partial_head;
        dc->used = oc->used;
        dc->peak = oc->peak;
        dc->retired = oc->retired;
        dc->reserved = oc->reserved;
        dc->failures = oc->failures;
    }
    d->arena.live = o->arena.live;
    d->arena.live_peak = o->arena.live_peak;
    d->arena.slot_bytes = o->arena.slot_bytes;
    d->arena.slot_bytes_peak = o->arena.slot_bytes_peak;
    d->arena.ctx_bytes = o->arena.ctx_bytes;
    d->arena.ctx_bytes_peak = o->arena.ctx_bytes_peak;
    d->arena.epoch = o->arena.epoch;
    /* the pool's state, not where it lies or its size: those are this
       scheduler's (a snapshot's copy of them is not trusted) */
    d->sides.free = o->sides.free;
    d->sides.free_count = o->sides.free_count;
    d->sides.bump = o->sides.bump;
    d->sides.peak = o->sides.peak;
    d->sides.failures = o->sides.failures;
}

/* ---- a restore's and a load's part (snapshot.c and save.c read the
   bytes; the pages, slots, meta and side records are this file's) */

static uint32_t corral__max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* Class ci as a snapshot holds it: at pages_at of snap its page table, at
   data_at a u64 per page (where in snap that page's slots, then their
   meta and, with timing, their birth frames, start). Each page's floor stays above what it issued here and
   there: a handle from after the snapshot is stale after the restore. */
void corral__class_restore(corral_sched *s, uint32_t ci, const unsigned char *snap, size_t pages_at, size_t data_at)
{
    corral__class *c = &s->arena.classes[ci];
    corral__page *P = corral__pages(s, c);
    corral__meta *M = corral__meta_table(s) + c->first;
    for (uint32_t pi = 0; pi < c->page_count; pi++) {
        corral__page pg;
        uint64_t data;
        memcpy(&pg, snap + pages_at + (size_t)pi * sizeof pg, sizeof pg);
        memcpy(&data, snap + data_at + (size_t)pi * sizeof data, sizeof data);
        /* every generation the page issues from now on is above what any
           of its slots has issued (the page has counted them as it went) */
        uint32_t first = pi << c->page_shift, unissued = corral__max_u32(P[pi].unissued, pg.unissued);
        uint32_t floor = corral__max_u32(corral__max_u32(P[pi].floor, pg.floor), unissued);
        /* touched now, untouched in the snapshot: free again */
        for (uint32_t k = first + pg.bump; k < first + P[pi].bump; k++) {
            corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            corral__slot_blank(co, corral__gen_unissued(co->gen, co->state == CORRAL__FREE));
            corral__meta_reset(&M[k]);
        }
        /* the prefix in one copy (a free slot in it below the floor is
           raised to it when taken: corral__slot_alloc) */
        memcpy(CORRAL__AT(s, corral__slot_off(c, first)), snap + (size_t)data, (size_t)pg.bump * c->slot_size);
        memcpy(&M[first], snap + (size_t)data + (size_t)pg.bump * c->slot_size, (size_t)pg.bump * sizeof(corral__meta));
        if (s->prof.ages_off)
            memcpy(corral__ages(s) + c->first + first,
                   snap + (size_t)data + (size_t)pg.bump * (c->slot_size + sizeof(corral__meta)),
                   (size_t)pg.bump * sizeof(uint32_t));
        pg.floor = floor;
        pg.unissued = unissued;
        P[pi] = pg;
    }
}

/* the side records before the bump as a snapshot holds them (src: bump
   records); the pool's counts come with corral__arena_take */
void corral__sides_restore(corral_sched *s, const unsigned char *src, uint32_t bump)
{
    /* the lookup follows the records: the present ones' entries out (the
       records touched, not the whole table), the snapshot's in */
    corral__side *S = corral__sides(s);
    for (uint32_t i = 0; i < s->sides.bump; i++)
        if (S[i].owner != CORRAL__NIL) corral__side_leave(s, S[i].owner);
    memcpy(S, src, (size_t)bump * sizeof(corral__side));
    for (uint32_t i = 0; i < bump; i++)
        if (S[i].owner != CORRAL__NIL) corral__side_enter(s, S[i].owner, i);
}

/* the room of co's slot past its header, zeroed (its type's class: the
   slot's size) */
static void corral__slot_room_clear(corral_sched *s, corral_co *co)
{
    const corral__class *c = &s->arena.classes[corral__types(s)[co->type].cls];
    memset(CORRAL__AT(co, CORRAL__HEADER_SIZE), 0, c->slot_size - CORRAL__HEADER_SIZE);
}

/* A load: co's slot header as saved, waiting for its place (queued,
   deferred, paused or on its waits: the load puts it there), and its
   context's room zeroed for the fields to come. */
void corral__slot_load(corral_sched *s, corral_co *co, uint32_t gen, uint32_t type, uint8_t flags, uint32_t resume)
{
    co->gen = gen;
    co->type = (uint16_t)type;
    corral__park(co);
    co->flags = flags;
    co->resume = resume;
    co->link = CORRAL__NIL;
    corral__slot_room_clear(s, co);
}

/* A reload: co's context (size bytes at off in its slot) copied out to
   tmp, and its slot's room zeroed for the context in the new layout,
   which the reload writes there field by field (fields.c's rule) */
void corral__slot_empty(corral_sched *s, corral_co *co, uint32_t off, uint32_t size, unsigned char *tmp)
{
    memcpy(tmp, (unsigned char *)co + off, size);
    corral__slot_room_clear(s, co);
}

/* A reload: the room of a free slot that holds need bytes, lent to move
   contexts through, or NULL: none; given back zeroed (no context left in
   a free slot) */
unsigned char *corral__scratch_lend(const corral_sched *s, uint32_t need)
{
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        if (c->slot_size - CORRAL__HEADER_SIZE < need) continue;
        for (uint32_t k = 0; k < c->capacity; k++) {
            corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (!corral__state_alive(co->state)) return (unsigned char *)co + CORRAL__HEADER_SIZE;
        }
    }
    return NULL;
}
void corral__scratch_return(unsigned char *room, uint32_t need) { memset(room, 0, need); }

/* A reload: live coroutines of a type whose contexts change from old_size
   to new_size bytes, in the arena's context counters */
void corral__ctx_bytes_resize(corral_sched *s, uint32_t live, uint32_t old_size, uint32_t new_size)
{
    s->arena.ctx_bytes = s->arena.ctx_bytes - (uint64_t)live * old_size + (uint64_t)live * new_size;
    if (s->arena.ctx_bytes > s->arena.ctx_bytes_peak) s->arena.ctx_bytes_peak = s->arena.ctx_bytes;
    corral__counts_rose(s);
}

CORRAL__NOINLINE void corral__co_age_set(corral_sched *s, const corral__meta *m, uint32_t age)
{
    if (s->prof.ages_off) corral__ages(s)[m - corral__meta_table(s)] = (uint32_t)s->now.frame - age;
}

/* A load: a coroutine's meta as saved: a free slot's, then its age
   (kept with timing), with the stop flags `stop` (CORRAL__STOP_REQUESTED,
   CORRAL__WAIT_CLOSED, CORRAL__GOT_MASK) added (its wait's mode is its
   side record's, corral__side_load, or its chain's) */
void corral__meta_load(corral_sched *s, corral__meta *m, uint32_t age, uint8_t stop)
{
    corral__meta_reset(m);
    corral__co_age_set(s, m, age);
    corral__co_stop_why_add(m, stop);
}

/* A load: m's side record taken (the load's check counted one free) with
   the links saved in `saved`: its caller, its child and where the child's
   result goes, its last child's end, an all's count, an any's member
   fired and its time domain; its joiners and groups come as they are placed */
void corral__side_load(corral_sched *s, corral__meta *m, const corral__side *saved)
{
    corral__side *sd = corral__side_take("corral_load", s, m);
    sd->parent = saved->parent;
    sd->child = saved->child;
    sd->dest = saved->dest;
    sd->pending = saved->pending;
    sd->mode = saved->mode;
    sd->domain = saved->domain;
    sd->fired = saved->fired;
    sd->outcome = saved->outcome;
}

/* A reload: where m's child's result goes, moved with its field */
void corral__side_set_dest(corral_sched *s, const corral__meta *m, uint32_t dest) { corral__side_at(s, m)->dest = dest; }
