/*
    snapshot.c -- rollback: the live state copied out and back into the
    same scheduler (corral_snapshot, corral_restore), and a hash of the
    logical state (corral_state_hash). docs/API.md, "Rollback", has the
    rules; docs/DETERMINISM.md what makes two runs the same.

    What a snapshot holds: the scheduler's control state (the corral_sched
    itself, the type table's counters and ends, the lanes, the pages and
    where each page's slots start), then every pool's touched prefix: per
    page the slots before its bump with their meta (and, with timing, their
    birth frames), the chunks, wait and group nodes before their bumps, the
    timer heaps up to their lengths, the owner buckets, the side records
    before their bump and those in use as {owner, record} pairs in their
    owners' order (the lookup from a slot to its record is rebuilt, not
    copied), signals, futures and channels. What lies past a bump is
    untouched and free by construction (arena.c, queue.c, waits.c), so the
    copy grows with what is and was recently alive, not with capacity, and a
    restore gives back the same free lists: the same slots, nodes and
    chunks are taken next, in the same order.

    A restore trusts nothing in it: the header, the checksum, the sizes,
    the configuration and the types are checked against the live
    scheduler, then every invariant of corral_verify over the snapshot's
    contents (verify.c reads them as an image), all before anything is
    written.

    What a restore keeps from the present: the layout and configuration,
    the environment (allocator, logger, hooks, clock, validation), the
    types it has met (a type met since keeps its place, its counters back
    to zero), the profiling state (history and trace rings record what
    really ran, resimulated frames included), and generations: every slot,
    signal and future keeps a floor above each generation it has issued,
    so a handle from after the snapshot is stale after the restore and
    never names a later coroutine.
*/
#include "../corral_internal.h"
#include "../core/arena.h"
#include "../core/slots.h"

#include <stdio.h>
#include <string.h>

/* A checksum of n bytes: Fletcher's sums (a running sum of the words and
   a sum of those sums, so a changed bit or a moved word shows) in four
   independent lanes of 64-bit words, adds only, so a snapshot a frame
   stays cheap; a damaged snapshot is refused before anything is read. */
uint64_t corral__snap_sum(const unsigned char *p, size_t n)
{
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {n, 0, 0, 0};
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, sizeof w);
        for (int l = 0; l < 4; l++) {
            a[l] += w[l];
            b[l] += a[l];
        }
    }
    uint64_t h = 0;
    for (int l = 0; l < 4; l++) h = (h ^ a[l] ^ (b[l] << 1 | b[l] >> 63)) * 0xBF58476D1CE4E5B9ull;
    for (; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h ^ (h >> 31);
}

/* A fingerprint of where everything lies in the block: two schedulers
   with the same one can take each other's snapshots. */
static uint64_t corral__mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}
static uint64_t corral__layout(const corral_sched *s)
{
    uint64_t h = corral__mix(CORRAL__SNAP_VERSION, CORRAL__HEAD_BYTES);
    const uint32_t v[] = {s->types.max_types, s->types.hash_off, s->types.hash_mask, s->types.ends_off, s->run.order,
                          s->run.lanes_off, s->run.lane_count, s->run.chunks_off, s->run.chunk_next_off,
                          s->run.chunk_count, s->arena.meta_off, s->arena.total_slots, s->arena.class_count,
                          s->nodes.off, s->nodes.count, s->nodes.wait_count, s->timers.pages_off,
                          s->timers.page_count,
                          s->sides.off, s->sides.count, s->prof.ages_off,
                          s->groups.owner_off, s->groups.owner_mask, s->pools[CORRAL__POOL_SIGNAL].off,
                          s->pools[CORRAL__POOL_SIGNAL].cap, s->pools[CORRAL__POOL_FUTURE].off,
                          s->pools[CORRAL__POOL_FUTURE].cap, s->pools[CORRAL__POOL_CHANNEL].off,
                          s->pools[CORRAL__POOL_CHANNEL].cap, corral__chans_of(s)->channel_bytes, corral__ring_bytes(corral__chans_of(s)),
                          s->pools[CORRAL__POOL_COUNTER].off, s->pools[CORRAL__POOL_COUNTER].cap, corral__chans_of(s)->data_off};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) h = corral__mix(h, v[i]);
    for (uint32_t i = 0; i < s->arena.class_count && i < CORRAL_MAX_CLASSES; i++) {
        const corral__class *c = &s->arena.classes[i];
        h = corral__mix(h, c->slot_size);
        h = corral__mix(h, c->capacity);
        h = corral__mix(h, c->base);
        h = corral__mix(h, c->pages_off);
    }
    return h;
}

/* ---- the walk both directions share: each section's place and size */

typedef struct corral__cursor {
    unsigned char *w;       /* writing a snapshot, or NULL */
    const unsigned char *r; /* reading one, or NULL */
    size_t at, size;
    bool kept;              /* a kept snapshot: its sum covers the saved head alone (a kept restore
                               checks what places its reads, not its contents) */
} corral__cursor;

static void corral__put(corral__cursor *k, const void *src, size_t n)
{
    if (k->w && k->at + n <= k->size) memcpy(k->w + k->at, src, n);
    k->at += n;
}

static uint32_t *corral__owner_table(const corral_sched *s)
{
    return (uint32_t *)(void *)CORRAL__AT(s, s->groups.owner_off);
}

/* n {owner, record} pairs of 32-bit words at p (any alignment) sorted by
   owner, in place (a heap sort: no room beside the snapshot is needed) */
static uint32_t corral__pair_owner(const unsigned char *p, size_t i)
{
    uint32_t v;
    memcpy(&v, p + i * 8u, sizeof v);
    return v;
}
static void corral__pair_swap(unsigned char *p, size_t i, size_t j)
{
    unsigned char t[8];
    memcpy(t, p + i * 8u, 8);
    memcpy(p + i * 8u, p + j * 8u, 8);
    memcpy(p + j * 8u, t, 8);
}
static void corral__pairs_sift(unsigned char *p, size_t i, size_t n)
{
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && corral__pair_owner(p, c + 1) > corral__pair_owner(p, c)) c++;
        if (corral__pair_owner(p, i) >= corral__pair_owner(p, c)) return;
        corral__pair_swap(p, i, c);
    }
}
static void corral__pairs_sort(unsigned char *p, size_t n)
{
    for (size_t i = n / 2; i-- > 0;) corral__pairs_sift(p, i, n);
    for (size_t end = n; end > 1; end--) {
        corral__pair_swap(p, 0, end - 1);
        corral__pairs_sift(p, 0, end - 1);
    }
}

/* Write (or, with k->w NULL, measure) the snapshot of s. */
static void corral__snap_write(const corral_sched *s, corral__cursor *k)
{
    corral__snap_head head = {CORRAL__SNAP_MAGIC, CORRAL__SNAP_VERSION, 0, corral__layout(s), 0};
    size_t head_at = k->at;
    corral__put(k, &head, sizeof head);
    corral__put(k, s, CORRAL__HEAD_BYTES); /* the scheduler and the head's states */
    corral__put(k, corral__types(s), (size_t)s->types.type_count * sizeof(corral__type_entry));
    corral__put(k, corral__ends(s, 0), (size_t)s->types.type_count * CORRAL__END_SLOTS * sizeof(uint64_t));
    corral__put(k, corral__lanes(s), (size_t)s->run.lane_count * sizeof(corral__lane));
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        const corral__page *P = corral__pages(s, c);
        corral__put(k, P, (size_t)c->page_count * sizeof(corral__page));
        uint64_t data = k->at + (uint64_t)c->page_count * sizeof data; /* where each page's slots start */
        for (uint32_t pi = 0; pi < c->page_count; pi++) {
            corral__put(k, &data, sizeof data);
            data += (uint64_t)P[pi].bump * (c->slot_size + corral__slot_beside(s));
        }
        for (uint32_t pi = 0; pi < c->page_count; pi++) {
            if (!P[pi].bump) continue;
            uint32_t first = pi << c->page_shift;
            corral__put(k, CORRAL__AT(s, corral__slot_off(c, first)), (size_t)P[pi].bump * c->slot_size);
            corral__put(k, &corral__meta_table(s)[c->first + first], (size_t)P[pi].bump * sizeof(corral__meta));
            if (s->prof.ages_off) corral__put(k, corral__ages(s) + c->first + first, (size_t)P[pi].bump * sizeof(uint32_t));
        }
    }
    corral__put(k, corral__entries(s), (size_t)s->run.chunk_bump * CORRAL__CHUNK * sizeof(uint32_t));
    corral__put(k, corral__chunk_next(s), (size_t)s->run.chunk_bump * sizeof(uint32_t));
    corral__put(k, corral__nodes(s), (size_t)s->nodes.wait_bump * sizeof(corral__node));
    corral__put(k, corral__nodes(s) + s->nodes.wait_count,
                (size_t)(s->nodes.group_bump - s->nodes.wait_count) * sizeof(corral__node));
    for (uint32_t h = 0; h <= s->timers.heaps; h++) { /* each heap's entries (the clocks', the held sleepers') in heap order, a page's run at a time */
        const corral__heapv H = corral__heap(s, h);
        const uint32_t len = s->timers.heap_len[h];
        for (uint32_t pos = 0, n; pos < len; pos += n) {
            n = corral__heap_run(pos, len);
            corral__put(k, &CORRAL__HEAP_AT(H, pos), (size_t)n * sizeof(corral__heap_entry));
        }
    }
    corral__put(k, corral__owner_table(s), (size_t)corral__owner_words(s) * sizeof(uint32_t));
    corral__put(k, corral__sides(s), (size_t)s->sides.bump * sizeof(corral__side));
    /* the records in use, {owner, record} in their owners' order: a
       snapshot holds no lookup (a restore rebuilds it), so verify finds a
       slot's record here. Written as the records lie, then sorted where
       they were written: a snapshot costs what the records in use cost */
    const size_t pairs_at = k->at;
    const corral__side *S = corral__sides(s);
    for (uint32_t i = 0; i < s->sides.bump; i++)
        if (S[i].owner != CORRAL__NIL) {
            const uint32_t pair[2] = {S[i].owner, i};
            corral__put(k, pair, sizeof pair);
        }
    if (k->w && k->at <= k->size) corral__pairs_sort(k->w + pairs_at, (k->at - pairs_at) / (2 * sizeof(uint32_t)));
    corral__put(k, corral__signals(s), (size_t)s->pools[CORRAL__POOL_SIGNAL].cap * sizeof(corral__signal));
    corral__put(k, corral__futures(s), (size_t)s->pools[CORRAL__POOL_FUTURE].cap * sizeof(corral__future));
    corral__put(k, corral__channels(s), corral__chans_bytes(s));
    head.size = k->at - head_at;
    if (k->w && k->at <= k->size) {
        head.sum = corral__snap_sum(k->w + head_at + sizeof head, k->kept ? CORRAL__HEAD_BYTES : (size_t)head.size - sizeof head);
        memcpy(k->w + head_at, &head, sizeof head);
    }
}

size_t corral_snapshot_size(const corral_sched *s)
{
    if (!corral__check(s)) return 0;
    corral__cursor k = {NULL, NULL, 0, 0, false};
    corral__snap_write(s, &k);
    return k.at;
}

size_t corral_snapshot(const corral_sched *s, void *buf, size_t size)
{
    if (!corral__check(s)) return 0;
    CORRAL__REQUIRE_AT(s, buf, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, 0);
    if (!corral__between_ticks(__func__, s)) return 0;
    corral__cursor k = {NULL, NULL, 0, 0, false};
    corral__snap_write(s, &k);
    if (k.at > size) {
        corral__fail_at(s, NULL, CORRAL_ERR_SNAPSHOT_TOO_SMALL, __func__, CORRAL__NOH, NULL, NULL);
        return 0;
    }
    corral__cursor w = {(unsigned char *)buf, NULL, 0, size, false};
    corral__snap_write(s, &w);
    return w.at;
}

/* ---- restore */


/* the saved scheduler and every section's place, checked against the
   live one before anything is written */
typedef struct corral__snap_view {
    corral__head saved; /* a copy of the head: the buffer need not be aligned */
    corral__image img;  /* the sections, for corral__verify_image */
    size_t ends_at;
    char why[128];      /* a refusal's words, where they name something */
} corral__snap_view;

static bool corral__take_bytes(const corral__cursor *k, size_t at, size_t n)
{
    return at <= k->size && n <= k->size - at;
}
/* reserve n bytes of the snapshot at the cursor: false past its end */
static bool corral__section(corral__cursor *k, size_t *at, size_t n)
{
    if (!corral__take_bytes(k, k->at, n)) return false;
    *at = k->at;
    k->at += n;
    return true;
}

/* each section's place in the snapshot in buf (size bytes) of v->saved:
   NULL, or where it runs short or on */
static const char *corral__snap_sections(const corral_sched *s, const unsigned char *buf, size_t size,
                                         corral__snap_view *v)
{
    const corral_sched *o = &v->saved.sched;
    corral__snap_head head;
    corral__image *m = &v->img;
    memset(m, 0, sizeof *m);
    m->last_ci = CORRAL__NIL; /* no page read yet */
    m->s = o;
    m->blk = s;
    m->snap = buf;
    corral__cursor k = {NULL, buf, sizeof head + CORRAL__HEAD_BYTES, size, false};
    const char *cut = "it ends before its sections do";
    if (!corral__section(&k, &m->types_at, (size_t)o->types.type_count * sizeof(corral__type_entry)) ||
        !corral__section(&k, &v->ends_at, (size_t)o->types.type_count * CORRAL__END_SLOTS * sizeof(uint64_t)) ||
        !corral__section(&k, &m->lanes_at, (size_t)o->run.lane_count * sizeof(corral__lane)))
        return cut;
    for (uint32_t ci = 0; ci < o->arena.class_count; ci++) {
        const corral__class *c = &o->arena.classes[ci];
        if (!corral__section(&k, &m->pages_at[ci], (size_t)c->page_count * sizeof(corral__page)) ||
            !corral__section(&k, &m->data_at[ci], (size_t)c->page_count * sizeof(uint64_t)))
            return cut;
        for (uint32_t pi = 0; pi < c->page_count; pi++) {
            corral__page pg;
            uint64_t data;
            size_t at;
            memcpy(&pg, buf + m->pages_at[ci] + (size_t)pi * sizeof pg, sizeof pg);
            memcpy(&data, buf + m->data_at[ci] + (size_t)pi * sizeof data, sizeof data);
            if (pg.bump > pg.slots || pg.slots > (1u << c->page_shift)) return "a page's bump is past its slots";
            if (!corral__section(&k, &at, (size_t)pg.bump * (c->slot_size + corral__slot_beside(s)))) return cut;
            if (data != at) return "a page's slots are not where its table says";
        }
    }
    size_t timers_at = 0;
    if (!corral__section(&k, &m->entries_at, (size_t)o->run.chunk_bump * CORRAL__CHUNK * sizeof(uint32_t)) ||
        !corral__section(&k, &m->next_at, (size_t)o->run.chunk_bump * sizeof(uint32_t)) ||
        !corral__section(&k, &m->wait_at, (size_t)o->nodes.wait_bump * sizeof(corral__node)) ||
        !corral__section(&k, &m->group_at, (size_t)(o->nodes.group_bump - o->nodes.wait_count) * sizeof(corral__node)))
        return cut;
    for (uint32_t h = 0; h <= o->timers.heaps; h++)
        if (!corral__section(&k, h ? &m->heap_at[h] : &timers_at, (size_t)o->timers.heap_len[h] * sizeof(corral__heap_entry)))
            return cut;
    m->heap_at[0] = timers_at;
    if (!corral__section(&k, &m->owner_at, (size_t)corral__owner_words(o) * sizeof(uint32_t)) ||
        !corral__section(&k, &m->sides_at, (size_t)o->sides.bump * sizeof(corral__side)) || o->sides.free_count > o->sides.count ||
        !corral__section(&k, &m->sided_at, (size_t)(o->sides.count - o->sides.free_count) * 2u * sizeof(uint32_t)) ||
        !corral__section(&k, &m->pool_at[CORRAL__POOL_SIGNAL],
                         (size_t)o->pools[CORRAL__POOL_SIGNAL].cap * sizeof(corral__signal)) ||
        !corral__section(&k, &m->pool_at[CORRAL__POOL_FUTURE],
                         (size_t)o->pools[CORRAL__POOL_FUTURE].cap * sizeof(corral__future)) ||
        !corral__section(&k, &m->chans_at, corral__chans_bytes(o)))
        return cut;
    /* the channels, then the counters, then the rings: one section */
    m->pool_at[CORRAL__POOL_CHANNEL] = m->chans_at;
    m->pool_at[CORRAL__POOL_COUNTER] = m->chans_at + (o->pools[CORRAL__POOL_COUNTER].off - o->pools[CORRAL__POOL_CHANNEL].off);
    if (k.at != size) return "it runs on past its sections";
    return NULL;
}

/* why the scheduler head saved in the snapshot in buf (size bytes) is
   refused, or NULL: its parts, configuration and types the live
   scheduler's, its bumps inside their pools, its sections inside buf */
static const char *corral__snap_head_read(const corral_sched *s, const unsigned char *buf, size_t size,
                                          corral__snap_view *v)
{
    corral__snap_head head;
    memcpy(&head, buf, sizeof head);
    memcpy(&v->saved, buf + sizeof head, CORRAL__HEAD_BYTES);
    const corral_sched *o = &v->saved.sched;
    if (o->made_by == CORRAL__MADE_BY && o->origin == corral__origin()) { /* this copy's: its parts are comparable */
        const char *part = corral__part_lacking(&s->parts, &o->parts);
        if (part) {
            snprintf(v->why, sizeof v->why, "it is of a scheduler with corral_part_%s: it needs corral_part_%s in desc.parts",
                     part, part);
            return v->why;
        }
        if ((part = corral__part_lacking(&o->parts, &s->parts)) != NULL) {
            snprintf(v->why, sizeof v->why, "it is of a scheduler without corral_part_%s, which this one has", part);
            return v->why;
        }
    }
    if (head.layout != corral__layout(s)) return "it is of a scheduler with another layout";
    /* everything but its state is the live scheduler's: layout, configuration, types */
    corral__head same_head;
    memcpy(&same_head, o, CORRAL__HEAD_BYTES);
    corral_sched *same = &same_head.sched;
    corral__state_take(same, s);
    same->magic = s->magic;
    same->flags = s->flags;
    same->pad = s->pad;
    same->last_error = s->last_error;
    same->total_bytes = s->total_bytes;
    same->kept = s->kept; /* the kept ring is no part of a snapshot: it may differ */
    same->allocator = s->allocator;
    same->logger = s->logger;
    same->validation = s->validation;
    same->origin = s->origin;
    same->owner = s->owner;
    same->prof = s->prof;
    same->now.clock = s->now.clock;
    same->err = s->err;
    same->types.type_count = s->types.type_count; /* it may have met fewer types (checked below) */
    memcpy(same->types.seen, s->types.seen, sizeof same->types.seen); /* it only grows */
    same->types.seen_count = s->types.seen_count;
    same->timers.free_count = s->timers.free_count; /* which pages the heaps hold: a restore lays them anew */
    same->timers.page_bump = s->timers.page_bump;
    if (memcmp(same, s, CORRAL__HEAD_BYTES) != 0) return "its scheduler is configured otherwise";
    if (o->types.type_count > s->types.type_count) {
        snprintf(v->why, sizeof v->why,
                 "it holds types this scheduler has not met (%u against %u): give it desc.registry, or start its types in order",
                 o->types.type_count, s->types.type_count);
        return v->why;
    }
    if (o->now.in_tick || o->now.depth || o->now.pulls || o->now.gen || o->run.ready_read != CORRAL__NIL ||
        o->now.phase != CORRAL__NIL)
        return "it says it was taken inside a tick or a step";
    if (!corral__clocks_ok(corral__domains_of(o)->d[0].time, o->now.unscaled_time, o->now.fixed_time))
        return "its clocks are out of range";
    for (uint32_t d = 0; d < corral__domains_of(o)->count; d++)
        if (!corral__clock_ok(corral__domains_of(o)->d[d].time, corral__domains_of(o)->d[d].scale) ||
            !(corral__domains_of(o)->d[d].dt >= 0.0f && (double)corral__domains_of(o)->d[d].dt <= CORRAL__TIME_MAX) ||
            !corral__domain_parent_ok(d, corral__domains_of(o)->d[d].parent))
            return "its clocks are out of range";
    if (o->timers.heaps != 2u + corral__domains_of(o)->count || o->run.chunk_bump > o->run.chunk_count ||
        o->nodes.wait_bump > o->nodes.wait_count || o->nodes.group_bump < o->nodes.wait_count ||
        o->nodes.group_bump > o->nodes.count || o->sides.bump > o->sides.count)
        return "a bump is out of its pool";
    if (!corral__heap_lens_ok(s, o->timers.heap_len)) return "a timer heap is too long";

    const char *why = corral__snap_sections(s, buf, size, v);
    if (why) return why;
    corral__image *m = &v->img;

    /* its types are the live ones, at the same places */
    const corral__type_entry *T = corral__types(s);
    for (uint32_t t = 0; t < o->types.type_count; t++) {
        corral__type_entry e;
        memcpy(&e, buf + m->types_at + (size_t)t * sizeof e, sizeof e);
        corral__type_counters_copy(&e, &T[t]);
        e.plain = T[t].plain; /* follows the live hooks and instrumentation */
        if (memcmp(&e, &T[t], sizeof e) != 0) return "a type in it is not the live scheduler's type at its place";
    }
    return NULL;
}

/* why a snapshot is refused, or NULL: its sizes, its sections, its
   configuration and types against the live scheduler, then its contents */
static const char *corral__snap_read(const corral_sched *s, const unsigned char *buf, size_t size, corral__snap_view *v)
{
    corral__snap_head head;
    if (size < sizeof head + CORRAL__HEAD_BYTES) return "it is shorter than a snapshot's header";
    memcpy(&head, buf, sizeof head);
    if (head.magic != CORRAL__SNAP_MAGIC || head.version != CORRAL__SNAP_VERSION)
        return "it is no snapshot, or one of another version of corral";
    if (head.size != size) return "its size is not the size it was written with (cut short or run on)";
    if (corral__snap_sum(buf + sizeof head, size - sizeof head) != head.sum) return "its checksum does not match (damaged)";
    const char *why = corral__snap_head_read(s, buf, size, v);
    if (why) return why;
    if (!corral__verify_image(&v->img)) return v->img.why;
    return NULL;
}

static void corral__snap_apply(corral_sched *s, const corral__snap_view *v);
bool corral_restore(corral_sched *s, const void *buf, size_t size)
{
    if (!corral__check(s)) return false;
    CORRAL__REQUIRE_AT(s, buf, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    if (!corral__between_ticks(__func__, s)) return false;
    corral__snap_view view;
    const char *why = corral__snap_read(s, (const unsigned char *)buf, size, &view);
    if (why) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_SNAPSHOT, __func__, CORRAL__NOH, NULL, why);
        return false;
    }
    corral__snap_apply(s, &view);
    return true;
}

/* s rewound to the snapshot view describes (read and checked, or kept) */
static void corral__snap_apply(corral_sched *s, const corral__snap_view *v)
{
    const corral__image *m = &v->img;
    const corral_sched *o = &v->saved.sched;

    /* what a restore keeps from the present: generations above all issued */
    uint32_t floors[CORRAL__POOL_COUNT];
    corral__pools_floors(s, floors);

    for (uint32_t ci = 0; ci < s->arena.class_count; ci++)
        corral__class_restore(s, ci, m->snap, m->pages_at[ci], m->data_at[ci]);
    corral__run_restore(s, m->snap, m->entries_at, m->next_at, m->lanes_at, o->run.chunk_bump);
    corral__nodes_restore(s, m->snap, m->wait_at, o->nodes.wait_bump, m->group_at, o->nodes.group_bump);
    corral__timers_restore(s, m->snap, m->heap_at, o->timers.heap_len);
    corral__groups_restore(s, m->snap + m->owner_at);
    corral__sides_restore(s, m->snap + m->sides_at, o->sides.bump);
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) { /* the items, then what a part keeps past them (the rings) */
        corral__pool_restore(s, p, m->snap + m->pool_at[p]);
        const corral__pool_part *part = corral__pool_part_of(s, p);
        if (part && part->restore) part->restore(s, m->snap + m->pool_at[p]);
    }
    corral__types_restore(s, m->snap, m->types_at, v->ends_at, o->types.type_count);

    /* the scheduler's state; its layout, configuration and environment stay */
    corral__state_take(s, o);
    corral__epoch_wrapped(s); /* no type's peaks taken as covering one more: the snapshot's stamps are not trusted */
    corral__polls_moved(s); /* a snapshot of another block: predicates' arguments in contexts into this one */
    corral__types_cache_clear(s);
    corral__pools_set_floors(s, floors);
}

/* ---- kept snapshots: a ring in the arena only the scheduler writes

   The ring (corral__kept, corral_internal.h) holds entries oldest first,
   each a corral__kept_entry then a snapshot, the size of the state it was
   taken of. A keep measures the snapshot, writes it in place of the one
   kept under its tag when it fits there, and otherwise forgets that one
   (dropped at once when it is the oldest) and appends, dropping the
   oldest entries until the bytes it needs are free, at the end or,
   wrapped, at the start. A restore finds the tag and applies the entry's
   snapshot as corral_restore applies a checked one. */

static unsigned char *corral__kept_base(const corral__kept *K) { return (unsigned char *)(uintptr_t)K + CORRAL__KEPT_HEAD; }

/* the live entry tagged k (its offset, and the one before it in age in
   *prev), or CORRAL__NIL; a ring whose links run astray ends the walk */
static uint32_t corral__kept_find(const corral__kept *K, uint32_t k, uint32_t *prev)
{
    uint32_t at = K->oldest, before = CORRAL__NIL;
    for (uint32_t i = 0; i < K->count && at != CORRAL__NIL && at < K->bytes; i++) {
        const corral__kept_entry *e = corral__kept_entry_at(K, at);
        if (e->live && e->tag == k) {
            *prev = before;
            return at;
        }
        before = at;
        at = e->next;
    }
    return CORRAL__NIL;
}

/* the oldest entry taken off the ring */
static void corral__kept_advance(corral__kept *K)
{
    K->oldest = corral__kept_entry_at(K, K->oldest)->next;
    if (--K->count == 0) K->oldest = K->newest = CORRAL__NIL;
}

/* forgotten entries at the oldest end taken off: their bytes are free at
   once, and the oldest entry is always live */
static void corral__kept_trim(corral__kept *K)
{
    while (K->count && !corral__kept_entry_at(K, K->oldest)->live) corral__kept_advance(K);
}

/* the oldest entry dropped, its tag remembered for the words of a
   refusal: 1 if it held a snapshot (it was live), else 0 */
static uint32_t corral__kept_drop(corral__kept *K)
{
    const corral__kept_entry *e = corral__kept_entry_at(K, K->oldest);
    const uint32_t live = e->live ? 1u : 0u;
    if (live) {
        const uint32_t t = e->tag;
        if (K->drops == 0) {
            K->drop_lo = K->drop_hi = t;
            K->dense = 1;
        } else {
            if ((uint64_t)t + 1u < K->drop_lo || (uint64_t)t > (uint64_t)K->drop_hi + 1u)
                K->dense = 0; /* a gap between it and the others */
            if (t < K->drop_lo) K->drop_lo = t;
            if (t > K->drop_hi) K->drop_hi = t;
        }
        K->recent[K->drops % CORRAL__KEPT_RECENT] = t;
        if (K->drops < UINT32_MAX) K->drops++;
    }
    corral__kept_advance(K);
    corral__kept_trim(K);
    return live;
}

/* the newest entry taken back (it is being kept again) */
static void corral__kept_pop(corral__kept *K, uint32_t at, uint32_t prev)
{
    if (prev == CORRAL__NIL) {
        K->count = 0;
        K->oldest = K->newest = CORRAL__NIL;
        return;
    }
    corral__kept_entry_at(K, prev)->next = CORRAL__NIL;
    K->newest = prev;
    K->end = at == 0 ? prev + corral__kept_entry_at(K, prev)->span : at;
    K->count--;
}

/* where `need` bytes go: the oldest entries dropped until they are free
   after the newest, or, wrapped, at the start; the snapshots dropped
   counted in *dropped */
static uint32_t corral__kept_place(corral__kept *K, uint64_t need, uint32_t *dropped)
{
    *dropped = 0;
    for (;;) {
        if (K->count == 0) return 0;
        const uint64_t o = K->oldest, e = K->end;
        if (o < e) { /* one run, [o, e) */
            if (K->bytes - e >= need) return (uint32_t)e;
            if (o >= need) return 0;
        } else if (o - e >= need) { /* wrapped: free between the newest and the oldest */
            return (uint32_t)e;
        }
        *dropped += corral__kept_drop(K);
    }
}

/* the bytes entry `at` may hold in place: up to the next newer entry, or
   to the ring's end where the next wrapped (nothing else lies there) */
static uint64_t corral__kept_fits(const corral__kept *K, uint32_t at)
{
    const corral__kept_entry *e = corral__kept_entry_at(K, at);
    if (e->next == CORRAL__NIL) return e->span;
    return e->next > at ? (uint64_t)e->next - at : K->bytes - at;
}

/* the snapshots the ring holds: its entries less the forgotten ones; and
   the largest entry among them, in *largest */
static uint32_t corral__kept_live(const corral__kept *K, uint64_t *largest)
{
    uint32_t live = 0;
    uint64_t most = 0;
    for (uint32_t i = 0, at = K->oldest; i < K->count && at < K->bytes; i++, at = corral__kept_entry_at(K, at)->next) {
        const corral__kept_entry *e = corral__kept_entry_at(K, at);
        if (!e->live) continue;
        live++;
        if (e->span > most) most = e->span;
    }
    if (largest) *largest = most;
    return live;
}

/* the desc.kept_bytes that holds desc.kept_snapshots entries of `span`
   bytes with an eighth more for them to grow, and one more for the room
   that entries of unequal sizes leave where the ring wraps */
static uint64_t corral__kept_enough(const corral__kept *K, uint64_t span)
{
    const uint64_t each = (span + span / 8u + 63u) & ~(uint64_t)63u, n = (uint64_t)K->desc_snapshots + 1u;
    return each && n > UINT64_MAX / each ? UINT64_MAX : n * each;
}

/* the advice of a short ring's words: the desc.kept_bytes that holds
   desc.kept_snapshots entries of `span` bytes, or that none can */
static void corral__kept_advice(const corral__kept *K, uint64_t span, char *out, size_t cap)
{
    const uint64_t enough = corral__kept_enough(K, span);
    if (enough <= UINT32_MAX) snprintf(out, cap, "desc.kept_bytes >= %llu holds them", (unsigned long long)enough);
    else snprintf(out, cap, "no desc.kept_bytes holds them (they take %llu B): keep fewer", (unsigned long long)enough);
}

/* whether entries of `span` bytes have outgrown the eighth of room the
   last warning's figure gave (or no warning was given) */
static bool corral__kept_outgrown(const corral__kept *K, uint64_t span)
{
    return !K->warned_span || span > (uint64_t)K->warned_span + K->warned_span / 8u;
}

/* a ring left holding `held`, fewer snapshots than desc.kept_snapshots
   asks, by a keep that dropped one: told to the logger as a warning (the
   keep has gone on), with
   the desc.kept_bytes that holds them at entries of `span` bytes (the
   largest it held or keeps now) and an eighth more; told again only when
   the entries have grown past that, so the last figure told holds them */
static void corral__kept_short(const corral_sched *s, corral__kept *K, uint32_t held, uint64_t span)
{
    if (!corral__kept_outgrown(K, span)) return;
    K->warned_span = span > UINT32_MAX ? UINT32_MAX : (uint32_t)span;
    if (!s->logger.fn) return;
    char advice[96], msg[320];
    corral__kept_advice(K, span, advice, sizeof advice);
    snprintf(msg, sizeof msg,
             "corral_snapshot_keep: the kept ring dropped a snapshot and holds %u, fewer than desc.kept_snapshots (%u): "
             "its snapshots take up to %llu B with their entries, the ring %llu B; %s",
             held, K->desc_snapshots, (unsigned long long)span, (unsigned long long)K->bytes, advice);
    s->logger.fn(CORRAL_LOG_WARNING, CORRAL_ERR_SNAPSHOT_TOO_SMALL, msg, s, s->logger.user_data);
}

/* the ring, sound, or the error set */
static corral__kept *corral__kept_ok(const char *call, corral_sched *s)
{
    corral__kept *K = corral__kept_of(s);
    if (!K) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_SNAPSHOT, call, CORRAL__NOH, NULL,
                        "no kept snapshots: desc.kept_snapshots and desc.kept_bytes are 0");
        return NULL;
    }
    const char *why = corral__kept_damage(s, K);
    if (why) {
        corral__fail_at(s, NULL, CORRAL_ERR_CORRUPT, call, CORRAL__NOH, NULL, why);
        return NULL;
    }
    return K;
}

size_t corral_snapshot_keep(corral_sched *s, uint32_t k)
{
    if (!corral__check(s) || !corral__between_ticks(__func__, s)) return 0;
    corral__kept *K = corral__kept_ok(__func__, s);
    if (!K) return 0;
    corral__cursor m = {NULL, NULL, 0, 0, true};
    corral__snap_write(s, &m);
    const uint64_t need = ((uint64_t)CORRAL__KEPT_ENTRY + m.at + 63u) & ~(uint64_t)63u;
    if (need > K->bytes) {
        char why[160];
        snprintf(why, sizeof why, "this state's snapshot takes %llu B with its 64-byte entry; the ring holds %llu B (desc.kept_bytes)",
                 (unsigned long long)need, (unsigned long long)K->bytes);
        corral__fail_at(s, NULL, CORRAL_ERR_SNAPSHOT_TOO_SMALL, __func__, CORRAL__NOH, NULL, why);
        return 0;
    }
    uint32_t prev = CORRAL__NIL, at = corral__kept_find(K, k, &prev), short_of = 0;
    uint64_t largest = 0;
    if (at != CORRAL__NIL && need > corral__kept_fits(K, at)) { /* the one kept under k is forgotten */
        if (at == K->newest) {
            corral__kept_pop(K, at, prev);
        } else {
            corral__kept_entry_at(K, at)->live = 0;
            corral__kept_trim(K); /* dropped now if it was the oldest */
        }
        at = CORRAL__NIL;
    }
    if (at == CORRAL__NIL) { /* appended, the newest */
        const uint32_t held = K->desc_snapshots ? corral__kept_live(K, &largest) : 0u;
        uint32_t dropped;
        at = corral__kept_place(K, need, &dropped);
        if (dropped && held + 1u < K->desc_snapshots + dropped) short_of = held + 1u - dropped; /* told below */
        corral__kept_entry *e = corral__kept_entry_at(K, at);
        e->tag = k;
        e->live = 1;
        e->next = CORRAL__NIL;
        e->span = (uint32_t)need;
        if (K->count) corral__kept_entry_at(K, K->newest)->next = at;
        else K->oldest = at;
        K->newest = at;
        K->end = at + (uint32_t)need;
        K->count++;
    } else if (at == K->newest) { /* in place: its span follows what it holds now */
        corral__kept_entry_at(K, at)->span = (uint32_t)need;
        K->end = at + (uint32_t)need;
    } else if (need > corral__kept_entry_at(K, at)->span) { /* in place, into the wrapped end's spare bytes */
        corral__kept_entry_at(K, at)->span = (uint32_t)need;
    }
    corral__cursor w = {corral__kept_base(K) + at + CORRAL__KEPT_ENTRY, NULL, 0, (size_t)m.at, true};
    corral__snap_write(s, &w);
    if (K->cut_to != CORRAL__NIL && k >= K->cut_lo && k <= K->cut_hi) { /* played again up to k: what a rewind forgot ends later */
        if (k == K->cut_hi) K->cut_to = CORRAL__NIL;
        else K->cut_lo = k + 1u;
    }
    if (short_of) corral__kept_short(s, K, short_of, need > largest ? need : largest);
    return w.at;
}

/* the entries kept after the one at `at` forgotten: a kept restore to it
   is followed by its frames played again, kept again under their tags */
static void corral__kept_cut_after(corral__kept *K, uint32_t at)
{
    corral__kept_entry *e = corral__kept_entry_at(K, at);
    if (e->next == CORRAL__NIL) return;
    uint32_t held = 1, lo = UINT32_MAX, hi = 0;
    for (uint32_t u = K->oldest; u != at; u = corral__kept_entry_at(K, u)->next) held++;
    for (uint32_t u = e->next; u != CORRAL__NIL; u = corral__kept_entry_at(K, u)->next) {
        const corral__kept_entry *c = corral__kept_entry_at(K, u);
        if (!c->live) continue;
        lo = c->tag < lo ? c->tag : lo;
        hi = c->tag > hi ? c->tag : hi;
    }
    if (lo <= hi) {
        K->cut_to = e->tag;
        K->cut_lo = lo;
        K->cut_hi = hi;
    }
    e->next = CORRAL__NIL;
    K->newest = at;
    K->end = at + e->span;
    K->count = held;
}

/* whether tag k, dropped, is one a ring of desc.kept_snapshots would
   have held: the ring has been short, and k is within that many of the
   newest tag (one further back is the caller's to have asked for) */
static bool corral__kept_short_for(const corral__kept *K, uint32_t k)
{
    if (!K->warned_span || !K->count) return false;
    const uint32_t newest = corral__kept_entry_at(K, K->newest)->tag;
    return newest >= k && newest - k < K->desc_snapshots;
}

/* the words of a restore of tag k the ring does not hold */
static void corral__kept_missing(corral_sched *s, const corral__kept *K, uint32_t k)
{
    uint64_t largest;
    const uint32_t live = corral__kept_live(K, &largest);
    bool recent = false;
    for (uint32_t i = 0; i < CORRAL__KEPT_RECENT && i < K->drops; i++) recent = recent || K->recent[i] == k;
    const bool in = K->drops && k >= K->drop_lo && k <= K->drop_hi;
    char why[256];
    if (K->cut_to != CORRAL__NIL && k >= K->cut_lo && k <= K->cut_hi && k != K->cut_to)
        snprintf(why, sizeof why, "kept snapshot %u was forgotten when the ring was rewound to tag %u (a kept restore forgets what was kept after it)",
                 k, K->cut_to);
    else if ((recent || (in && K->dense)) && corral__kept_short_for(K, k)) {
        /* the figure the last warning gave, unless the snapshots have outgrown it */
        const uint64_t span = corral__kept_outgrown(K, largest) ? largest : K->warned_span;
        char advice[96];
        corral__kept_advice(K, span, advice, sizeof advice);
        snprintf(why, sizeof why, "kept snapshot %u was dropped to make room: the ring has held fewer than "
                 "desc.kept_snapshots (%u) in %llu B; %s", k, K->desc_snapshots, (unsigned long long)K->bytes, advice);
    }
    else if (recent || (in && K->dense))
        snprintf(why, sizeof why, "kept snapshot %u was dropped, oldest first, to make room for newer ones (the ring holds %u in %llu B)",
                 k, live, (unsigned long long)K->bytes);
    else if (in)
        snprintf(why, sizeof why, "no snapshot is kept under tag %u: never kept, or dropped before the last %u drops (%u so far, of tags %u to %u)",
                 k, CORRAL__KEPT_RECENT, K->drops, K->drop_lo, K->drop_hi);
    else if (K->reloaded)
        snprintf(why, sizeof why, "no snapshot kept under tag %u since the last reload (a reload forgets the kept snapshots)", k);
    else
        snprintf(why, sizeof why, "no snapshot was ever kept under tag %u", k);
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_SNAPSHOT, "corral_restore_kept", CORRAL__NOH, NULL, why);
}

bool corral_restore_kept(corral_sched *s, uint32_t k)
{
    if (!corral__check(s) || !corral__between_ticks(__func__, s)) return false;
    corral__kept *K = corral__kept_ok(__func__, s);
    if (!K) return false;
    uint32_t prev, at = corral__kept_find(K, k, &prev);
    if (at == CORRAL__NIL) {
        corral__kept_missing(s, K, k);
        return false;
    }
    /* this scheduler wrote it, in its own block: its contents are not
       checked, only what places what is read -- its header, which keeps
       the read inside the entry, and the scheduler head saved in it
       (its sum, then its counts and bumps, which place its sections): a
       stray write into the block can reach them */
    const unsigned char *buf = corral__kept_base(K) + at + CORRAL__KEPT_ENTRY;
    corral__snap_head head;
    corral__snap_view view;
    const char *bad = "its header";
    if (corral__kept_head(K, at, &head)) {
        bad = corral__snap_sum(buf + sizeof head, CORRAL__HEAD_BYTES) != head.sum
                  ? "its saved scheduler head does not match its sum"
                  : corral__snap_head_read(s, buf, (size_t)head.size, &view);
        if (!bad) {
            corral__snap_apply(s, &view);
            corral__kept_cut_after(K, at);
            return true;
        }
    }
    char why[192];
    snprintf(why, sizeof why, "kept snapshot %u is damaged (a write into the block outside corral): %s", k, bad);
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_SNAPSHOT, __func__, CORRAL__NOH, NULL, why);
    return false;
}

/* ---- the state hash */

typedef struct corral__hasher {
    uint64_t h;
} corral__hasher;

static void corral__hash_word(corral__hasher *k, uint64_t v) { k->h = corral__mix(k->h, v); }
static void corral__hash_put(void *k, uint64_t v) { corral__hash_word((corral__hasher *)k, v); }
static void corral__hash_double(corral__hasher *k, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    corral__hash_word(k, v);
}
static void corral__hash_float(corral__hasher *k, float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    corral__hash_word(k, v);
}
/* bytes as little-endian words: the same on every platform */
static void corral__hash_bytes(corral__hasher *k, const unsigned char *p, size_t n)
{
    corral__hash_word(k, n);
    while (n) {
        uint64_t v = 0;
        size_t m = n < 8 ? n : 8;
        for (size_t i = 0; i < m; i++) v |= (uint64_t)p[i] << (8 * i);
        corral__hash_word(k, v);
        p += m;
        n -= m;
    }
}
static void corral__hash_str(corral__hasher *k, const char *str)
{
    corral__hash_bytes(k, (const unsigned char *)str, str ? strlen(str) : 0);
}

/* A handle field ({index, gen}, by its kind): its index and whether it
   names something live now; its generation differs between a run and its
   rollback replay. */
static void corral__hash_handle(corral__hasher *k, const corral_sched *s, corral_field_kind kind, const unsigned char *p)
{
    uint32_t v[2];
    memcpy(v, p, sizeof v);
    corral_handle h = {v[0], v[1]};
    bool live = false;
    switch (kind) {
    case CORRAL_FIELD_HANDLE: {
        corral_error e;
        live = corral__resolve(s, h, &e) != NULL;
        break;
    }
    case CORRAL_FIELD_SIGNAL: live = corral__pool_get(s, CORRAL__POOL_SIGNAL, v[0], v[1]) != NULL; break;
    case CORRAL_FIELD_FUTURE: live = corral__pool_get(s, CORRAL__POOL_FUTURE, v[0], v[1]) != NULL; break;
    case CORRAL_FIELD_CHANNEL: live = corral__pool_get(s, CORRAL__POOL_CHANNEL, v[0], v[1]) != NULL; break;
    case CORRAL_FIELD_SEMAPHORE:
    case CORRAL_FIELD_WAITGROUP: live = corral__pool_get(s, CORRAL__POOL_COUNTER, v[0], v[1]) != NULL; break;
    default:
        break;
    }
    corral__hash_word(k, v[1] == 0 ? 0 : (uint64_t)v[0] << 1 | (live ? 1u : 0u));
}

static void corral__hash_list(corral__hasher *k, const corral_sched *s, uint32_t head);
/* one field of a context as the hash takes it: in bounds, not a pointer,
   a handle by its index and whether it names something live */
static void corral__hash_field(corral__hasher *k, const corral_sched *s, const corral_type *vt, const corral_field *f,
                               const unsigned char *ctx)
{
    if (f->offset > vt->ctx_size || f->size > vt->ctx_size - f->offset) return;
    if (f->kind == CORRAL_FIELD_POINTER) return;
    if (f->kind >= CORRAL_FIELD_HANDLE && f->kind < CORRAL_FIELD_KIND_COUNT && f->size == 8)
        corral__hash_handle(k, s, f->kind, ctx + f->offset);
    else corral__hash_bytes(k, ctx + f->offset, f->size);
}
uint64_t corral__field_piece(const corral_sched *s, const corral_type *vt, const corral_field *f, const void *ctx)
{
    corral__hasher k = {0x636F7272616C3031ull};
    corral__hash_field(&k, s, vt, f, (const unsigned char *)ctx);
    return k.h;
}
/* a context by its fields (no padding, no pointers), else its bytes */
static void corral__hash_context(corral__hasher *k, const corral_sched *s, const corral_type *vt, const unsigned char *ctx)
{
    uint32_t n = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL;
    if (!f || n == 0) {
        corral__hash_bytes(k, ctx, vt->ctx_size);
        return;
    }
    for (uint32_t i = 0; i < n; i++) corral__hash_field(k, s, vt, &f[i], ctx);
}

static void corral__hash_node(corral__hasher *k, const corral_sched *s, const corral__node *n)
{
    corral__hash_word(k, (uint64_t)n->kind << 24 | (uint64_t)n->member << 16 | (uint64_t)n->attached << 8 | n->list);
    if (corral__timer_node(n)) {
        corral__hash_double(k, n->u.t.due); /* not its seq: a count of all waits ever */
    } else if (corral__kind_is(n->kind, CORRAL__HOW_LIST) || n->kind == CORRAL__NODE_ARM || n->kind == CORRAL__NODE_OWNED) {
        corral__hash_word(k, n->u.t.target);
        const corral__wait_part *p = corral__node_part_of(s, n->kind);
        if (p && p->hash) p->hash(n, corral__hash_put, k);
    } else if (n->kind == CORRAL__NODE_OWNER || n->kind == CORRAL__NODE_TAG) {
        corral__hash_word(k, n->u.g.owner);
        corral__hash_word(k, n->u.g.tag);
    } /* predicates: a function and a pointer, addresses */
}

/* its stop and answer bits as the hash takes them: a
   STOPPING coroutine's end reason in bits 0-3, otherwise the reason a
   stop ends with by default (CORRAL_END_STOPPED); the answer bits at 4-6,
   a stop request at 7 (its side record is not state: not hashed) */
static uint32_t corral__stop_word(const corral_co *co, const corral__meta *m)
{
    const uint32_t why = corral__co_stop_why(m), answer = (why & (CORRAL__WAIT_CLOSED | CORRAL__GOT_MASK)) << 3;
    if (co->state == CORRAL__STOPPING) return answer | (why & CORRAL__END_MASK) >> CORRAL__END_SHIFT;
    return answer | ((why & CORRAL__STOP_REQUESTED) ? 0x80u : 0u) | CORRAL_END_STOPPED;
}
static void corral__hash_co(corral__hasher *k, const corral_sched *s, const corral_co *co, const corral__meta *m, uint32_t g)
{
    const corral__type_entry *te = &corral__types(s)[co->type];
    const corral__node *N = corral__nodes(s);
    corral__hash_word(k, g);
    corral__hash_str(k, te->vt->name);
    corral__hash_word(k, (uint64_t)corral__state_saved(co->state) << 8 | co->flags);
    const uint32_t pt = co->resume & CORRAL__POINT_MASK; /* the point: its line is the build's */
    if (pt >= 1 && pt <= te->vt->point_count) corral__hash_str(k, te->vt->points[pt - 1]);
    else corral__hash_word(k, pt); /* 0, or an unnamed point: the same within a build */
    corral__hash_context(k, s, te->vt, CORRAL__AT(co, te->ctx_off));
    const corral__side *sd = corral__side_of(s, m);
    const uint32_t pending = corral__co_mode(s, co, m) == CORRAL__MODE_ONE ? 1u : sd->pending; /* a single wait counts 1 */
    corral__hash_word(k, (uint64_t)sd->parent << 32 | sd->child);
    corral__hash_word(k, sd->dest);
    corral__hash_word(k, (uint64_t)pending << 32 | (uint64_t)(uint8_t)sd->fired << 24 | (uint64_t)corral__co_mode(s, co, m) << 16 |
                       (uint64_t)sd->outcome << 8 | corral__stop_word(co, m));
    const uint32_t hold = corral__paused(co->state)         ? corral__co_hold(co, m)
                          : corral__co_is_generator(s, co) ? CORRAL__HOLD_GENERATOR /* its step: as held */
                                                           : 0u;
    corral__hash_word(k, (uint64_t)corral__co_domain(s, m) << 40 | (uint64_t)hold << 32 | corral__co_age(s, m));
    uint32_t len = 0;
    corral__sleep_view sv;
    if (corral__sleep_view_of(s, co, &sv)) { /* a plain sleep: as the node it stands for */
        corral__hash_word(k, (uint64_t)sv.kind << 24 | (uint64_t)(sv.held ? 2u : 1u) << 8 | sv.heap);
        corral__hash_double(k, sv.due);
    }
    for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL && len <= CORRAL_MAX_GROUP; i = N[i].sibling, len++) corral__hash_node(k, s, &N[i]);
    len = 0;
    for (uint32_t i = sd->groups; i != CORRAL__NIL && len < CORRAL__GROUP_CHAIN_MAX; i = N[i].sibling, len++)
        corral__hash_node(k, s, &N[i]);
    if (sd->joiners_head != CORRAL__NIL) corral__hash_list(k, s, sd->joiners_head); /* its joiners and ties, in order */
}

/* the coroutines on a node list, in order */
static void corral__hash_list(corral__hasher *k, const corral_sched *s, uint32_t head)
{
    const corral__node *N = corral__nodes(s);
    uint32_t len = 0;
    for (uint32_t i = head; i != CORRAL__NIL && len <= s->nodes.count; i = N[i].next, len++)
        corral__hash_word(k, corral__global_of(s, CORRAL__CO(s, N[i].co)));
    corral__hash_word(k, len);
}

/* the pieces of the state, hashed into k: the frame and the clocks */
static void corral__hash_clocks(corral__hasher *k, const corral_sched *s)
{
    corral__hash_word(k, s->now.frame);
    for (uint32_t d = 0; d < corral__domains_of(s)->count; d++) {
        corral__hash_double(k, corral__domains_of(s)->d[d].time);
        corral__hash_float(k, corral__domains_of(s)->d[d].scale);
        corral__hash_word(k, corral__domains_of(s)->d[d].paused);
        if (corral__domains_of(s)->d[d].parent) corral__hash_word(k, corral__domains_of(s)->d[d].parent); /* none: as before parents */
    }
    corral__hash_double(k, s->now.unscaled_time);
    corral__hash_double(k, s->now.fixed_time);
    corral__hash_word(k, s->now.frame_pos);
}
/* the order they run in: every lane but the ready lane (empty between
   ticks), tombstones left out; the predicates' lists */
static void corral__hash_order(corral__hasher *k, const corral_sched *s)
{
    const corral__lane *L = corral__lanes(s);
    for (uint32_t l = 0; l < corral__ready_lane(s); l++) {
        uint32_t c = L[l].head, j = 0;
        for (uint32_t off; (off = corral__lane_next(s, &L[l], &c, &j)) != CORRAL__NIL;)
            corral__hash_word(k, corral__global_of(s, CORRAL__CO(s, off)));
        corral__hash_word(k, 0xFFFFFFFFu);
    }
    for (uint32_t ph = 0; ph < s->run.phases; ph++) {
        corral__hash_list(k, s, s->polls.head[ph]);
        corral__hash_list(k, s, s->polls.next_head[ph]);
    }
}
/* pool p's live items: its owner's words, then its lists */
static void corral__hash_pool(corral__hasher *k, const corral_sched *s, uint32_t p)
{
    const corral__pool_part *part = corral__pool_part_of(s, p);
    for (uint32_t i = 0; part && i < s->pools[p].cap; i++) {
        const unsigned char *x = (const unsigned char *)corral__pool_item(s, p, i, corral__pool_item_size(p));
        if (!corral__item_live(x)) continue;
        part->hash(s, i, x, corral__hash_put, k);
        for (uint32_t l = 0; l < part->lists; l++) {
            uint32_t head;
            memcpy(&head, x + part->list[l].at, sizeof head);
            corral__hash_list(k, s, head);
        }
    }
}
/* each live coroutine, in slot order (slots are taken in a deterministic
   order): each() with it and its global slot */
#define CORRAL__EACH_LIVE(s, co, m, g)                                                                      \
    for (uint32_t ci_ = 0; ci_ < (s)->arena.class_count; ci_++)                                              \
        for (const corral__class *c_ = &(s)->arena.classes[ci_]; c_; c_ = NULL)                              \
            for (uint32_t pi_ = 0; pi_ < c_->page_count; pi_++)                                              \
                for (uint32_t j_ = 0, first_ = pi_ << c_->page_shift; j_ < corral__pages((s), c_)[pi_].bump; j_++) \
                    for (const corral_co *co = CORRAL__CO((s), corral__slot_off(c_, first_ + j_)); co; co = NULL) \
                        for (uint32_t g = c_->first + first_ + j_; co && corral__state_alive(co->state); co = NULL) \
                            for (const corral__meta *m = &corral__meta_table(s)[g]; m; m = NULL)

uint64_t corral_state_hash(const corral_sched *s)
{
    if (!corral__check(s)) return 0;
    corral__hasher k = {0x636F7272616C3031ull};
    corral__hash_clocks(&k, s);
    CORRAL__EACH_LIVE(s, co, m, g) corral__hash_co(&k, s, co, m, g);
    corral__hash_order(&k, s);
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) corral__hash_pool(&k, s, p);
    return k.h ? k.h : 1u;
}

uint64_t corral__co_piece(const corral_sched *s, const corral_co *co)
{
    corral__hasher k = {0x636F7272616C3031ull};
    corral__hash_co(&k, s, co, corral__meta_of(s, co), corral__global_of(s, co));
    return k.h;
}

void corral__state_tail(const corral_sched *s, corral_state_piece *out)
{
    corral__hasher k = {0x636F7272616C3031ull};
    corral__hash_order(&k, s);
    out[0] = (corral_state_piece){CORRAL_PIECE_ORDER, 0, 0, k.h};
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        k.h = 0x636F7272616C3031ull;
        corral__hash_pool(&k, s, p);
        out[1 + p] = (corral_state_piece){CORRAL_PIECE_POOL, 0, p, k.h};
    }
}

size_t corral_state_pieces(const corral_sched *s, corral_state_piece *out, size_t cap)
{
    if (!corral__check(s)) return 0;
    CORRAL__REQUIRE_AT(s, out || !cap, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, 0);
    size_t n = 0;
#define CORRAL__PIECE(kind_, type_, index_, hash_)                                                           \
    do {                                                                                                     \
        if (n < cap) out[n] = (corral_state_piece){(uint16_t)(kind_), (uint16_t)(type_), (uint32_t)(index_), (hash_)}; \
        n++;                                                                                                 \
    } while (0)
    corral__hasher k = {0x636F7272616C3031ull};
    corral__hash_clocks(&k, s);
    CORRAL__PIECE(CORRAL_PIECE_CLOCKS, 0, 0, k.h);
    CORRAL__EACH_LIVE(s, co, m, g) {
        k.h = 0x636F7272616C3031ull;
        corral__hash_co(&k, s, co, m, g);
        CORRAL__PIECE(CORRAL_PIECE_COROUTINE, co->type, corral__handle_of(s, co).index, k.h);
    }
    corral_state_piece tail[1 + CORRAL__POOL_COUNT];
    corral__state_tail(s, tail);
    for (uint32_t p = 0; p < 1 + CORRAL__POOL_COUNT; p++) CORRAL__PIECE(tail[p].kind, 0, tail[p].index, tail[p].hash);
#undef CORRAL__PIECE
    return n;
}
