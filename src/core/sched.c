/*
    sched.c -- the scheduler and its frame: the plan that lays out the one
    block, create, adopt and destroy; the frame's clocks and the order of
    its phase runs; what a step may ask of the frame it runs in.

    Each file initialises its own part of the block (corral__*_init); what
    a phase run steps and in which order is the run queues' (queue.c).
*/
#define CORRAL__PORT_IMPL /* the clock: port.h */
#include "../corral_internal.h"
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t corral__default_sizes[] = {CORRAL_DEFAULT_CLASS_SIZES};



typedef struct corral__plan {
    corral_class_desc classes[CORRAL_MAX_CLASSES];
    uint32_t reserved[CORRAL_MAX_CLASSES];
    uint64_t class_base[CORRAL_MAX_CLASSES];
    uint64_t pages_off[CORRAL_MAX_CLASSES];
    uint32_t class_count;
    uint32_t max_types;
    uint32_t hash_size;
    uint64_t hash_off, ends_off;
    uint64_t lanes_off, lane_count, lanes_per_phase, chunks_off, chunk_next_off, chunk_count;
    uint64_t meta_off, total_slots;
    uint64_t nodes_off, node_count, heaps, domains, phases;
    uint64_t heap_pages_off, heap_tabs_off, heap_free_off, heap_pages, heap_tab_len, heap_entries, sleepers;
    uint64_t signals_off, max_signals, futures_off, max_futures, text_off;
    uint64_t channels_off, max_channels, channel_bytes, ring_bytes, data_off, counters_off, max_counters;
    /* the part that holds each state slot (NULL: none) and where its state lies */
    const corral_part *part[CORRAL__STATE_COUNT - 1];
    uint64_t state_off[CORRAL__STATE_COUNT - 1];
    uint64_t owner_off, owner_buckets, wait_nodes, sides_off, max_sides, side_lookup_off, side_lookup_shift;
    uint64_t hist_off, hist_cap, trace_off, trace_cap, ages_off;
    uint64_t kept_off, kept_bytes;
    uint32_t order, max_fixed_steps;
    float fixed_dt;
    uint64_t slab_bytes;
    uint64_t total; /* including 64 bytes of alignment slack */
    char why[160];  /* what a refused desc got wrong, where there is more to say */
} corral__plan;

static void *corral__malloc(size_t size, void *user) /* default allocator */
{
    (void)user;
    return malloc(size); /* default allocator hook */
}

static void corral__free(void *ptr, void *user) /* default allocator */
{
    (void)user;
    free(ptr); /* default allocator hook */
}

static uint64_t corral__align64(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* the size classes of the desc (or the default ones), each with the
   budgets of the registry's types that fall in it */
static corral_error corral__plan_classes(const corral_sched_desc *d, corral__plan *p)
{
    const corral_registry *reg = d->registry;
    uint32_t n = 0;
    while (n < CORRAL_MAX_CLASSES && d->classes[n].slot_size != 0) n++;
    if (n == 0) {
        /* shared slots per default class: desc.default_capacity; unset, 256,
           or none when a registry gives every type a budget (then the
           arena holds exactly the budgets) */
        bool all_budgeted = reg && reg->count && reg->budgets;
        for (uint32_t t = 0; all_budgeted && t < reg->count; t++) all_budgeted = reg->budgets[t] != 0;
        uint32_t cap = d->default_capacity ? d->default_capacity : all_budgeted ? 0 : CORRAL_DEFAULT_CAPACITY;
        for (; n < sizeof corral__default_sizes / sizeof corral__default_sizes[0]; n++) {
            p->classes[n].slot_size = corral__default_sizes[n];
            p->classes[n].capacity = cap;
        }
    } else {
        for (uint32_t i = 0; i < n; i++) {
            p->classes[i] = d->classes[i];
            uint32_t sz = d->classes[i].slot_size;
            if (sz % CORRAL__SLOT_STEP != 0 || sz < CORRAL__SLOT_MIN) return CORRAL_ERR_BAD_DESC;
            if (i > 0 && sz <= d->classes[i - 1].slot_size) return CORRAL_ERR_BAD_DESC;
        }
    }
    p->class_count = n;

    /* registry budgets add to (and are reserved in) the class each type fits */
    for (uint32_t t = 0; reg && t < reg->count; t++) {
        const corral_type *vt = reg->types[t];
        if (!corral__type_check(vt, p->why, sizeof p->why) || reg->ids[t] == 0) return CORRAL_ERR_BAD_TYPE;
        uint32_t b = reg->budgets ? reg->budgets[t] : 0;
        uint32_t c = 0;
        while (c < n && !corral__slot_holds(p->classes[c].slot_size, vt)) c++;
        if (c == n) {
            snprintf(p->why, sizeof p->why, "type '%s' (registry '%s', id %u) needs %u bytes; the largest slot is %u",
                     vt->name, reg->name ? reg->name : "?", reg->ids[t], vt->ctx_offset + vt->ctx_size,
                     n ? p->classes[n - 1].slot_size : 0);
            return CORRAL_ERR_NO_CLASS;
        }
        if ((uint64_t)p->classes[c].capacity + b > CORRAL__LOCAL_MASK) return CORRAL_ERR_TOO_LARGE;
        p->classes[c].capacity += b;
        p->reserved[c] += b;
    }
    /* a type without a budget takes the shared slots of its class: none
       there, and it could never start */
    for (uint32_t t = 0; reg && t < reg->count; t++) {
        if (reg->budgets && reg->budgets[t]) continue;
        const corral_type *vt = reg->types[t];
        uint32_t c = 0;
        while (!corral__slot_holds(p->classes[c].slot_size, vt)) c++;
        if (p->classes[c].capacity > p->reserved[c]) continue;
        snprintf(p->why, sizeof p->why,
                 "type '%s' (registry '%s', id %u) has no budget and its class (%u-byte slots) no shared slot: "
                 "give it a budget, or the class a capacity",
                 vt->name, reg->name ? reg->name : "?", reg->ids[t], p->classes[c].slot_size);
        return CORRAL_ERR_NO_CAPACITY;
    }
    return CORRAL_ERR_OK;
}

/* Fill `p` from the desc (defaults applied) for a scheduler whose state
   slots the parts part[] hold (NULL: none; corral__parts_open);
   CORRAL_ERR_OK or why not. */
static corral_error corral__make_plan(const corral_sched_desc *d, const corral__part_tables *t,
                                      const corral_part *const part[], corral__plan *p)
{
    memset(p, 0, sizeof *p);
    memcpy(p->part, part, sizeof p->part);
    p->max_types = d->max_types ? d->max_types : CORRAL_DEFAULT_MAX_TYPES;
    if (p->max_types > 0xFFFEu) return CORRAL_ERR_BAD_DESC;
    p->domains = d->domains ? d->domains : CORRAL_DEFAULT_DOMAINS;
    if (p->domains > CORRAL_MAX_DOMAINS) return CORRAL_ERR_BAD_DESC;
    p->heaps = 2u + p->domains;
    const corral_registry *reg = d->registry;
    if (reg && (reg->count > p->max_types || (reg->count && (!reg->types || !reg->ids))))
        return CORRAL_ERR_BAD_DESC;

    corral_error e = corral__plan_classes(d, p);
    if (e != CORRAL_ERR_OK) return e;
    const uint32_t n = p->class_count;

    uint64_t off = CORRAL__TYPES_OFF; /* the type table: right after the block's head */
    off += (uint64_t)p->max_types * sizeof(corral__type_entry);
    p->hash_size = 1;
    while (p->hash_size < 2 * p->max_types) p->hash_size <<= 1;
    p->hash_off = off;
    off += (uint64_t)p->hash_size * sizeof(uint16_t);
    off = corral__align64(off, 8);
    p->ends_off = off;
    off += (uint64_t)p->max_types * CORRAL__END_SLOTS * sizeof(uint64_t);
    uint64_t slots = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (p->classes[i].capacity > CORRAL__LOCAL_MASK) return CORRAL_ERR_TOO_LARGE;
        slots += p->classes[i].capacity;
    }
    if ((uint32_t)d->order >= CORRAL_ORDER_COUNT || d->fixed_dt < 0.0f) return CORRAL_ERR_BAD_DESC;
    p->order = (uint32_t)d->order;
    p->fixed_dt = d->fixed_dt > 0.0f ? d->fixed_dt : CORRAL_DEFAULT_FIXED_DT;
    p->max_fixed_steps = d->max_fixed_steps ? d->max_fixed_steps : CORRAL_DEFAULT_MAX_FIXED_STEPS;
    p->total_slots = slots;
    p->lanes_per_phase = p->order == CORRAL_ORDER_BY_TYPE ? p->max_types : 1;
    /* the run lanes, then one next-frame lane per phase (the resume
       contract), then the ready lane (lanes.c) */
    if (d->custom_phases > CORRAL_MAX_CUSTOM_PHASES) return CORRAL_ERR_BAD_DESC;
    p->phases = CORRAL__PH_COUNT + d->custom_phases;
    p->lane_count = p->lanes_per_phase * p->phases + p->phases + 1;
    p->chunk_count = corral__chunks_for(slots, p->lane_count);
    /* a plain sleep takes no node (timers.c): a node a slot only where a
       sleep keeps its text */
    p->wait_nodes = d->max_wait_nodes ? d->max_wait_nodes
                                      : (d->wait_text ? slots : slots / 32u) + CORRAL_DEFAULT_SPARE_WAIT_NODES;
    p->sleepers = d->max_sleepers ? d->max_sleepers : slots;
    /* group nodes are the groups part's (owner, tags; a deadline takes a wait node) */
    p->node_count = p->wait_nodes + (!t->feature[CORRAL__FEATURE_GROUPS] ? 0
                                     : d->max_group_nodes              ? d->max_group_nodes
                                                                       : CORRAL_DEFAULT_MAX_GROUP_NODES);
    p->max_sides = d->max_side_records ? d->max_side_records : CORRAL_DEFAULT_MAX_SIDE_RECORDS;
    p->owner_buckets = 16;
    while (p->owner_buckets < (p->node_count - p->wait_nodes) / 2) p->owner_buckets <<= 1;
    p->max_signals = d->max_signals ? d->max_signals : CORRAL_DEFAULT_MAX_SIGNALS;
    /* a pool the scheduler has no part for has no items (the signals' is the core's) */
    p->max_futures = !t->pool[CORRAL__POOL_FUTURE] ? 0 : d->max_futures ? d->max_futures : CORRAL_DEFAULT_MAX_FUTURES;
    p->max_channels = !t->pool[CORRAL__POOL_CHANNEL] ? 0 : d->max_channels ? d->max_channels : CORRAL_DEFAULT_MAX_CHANNELS;
    p->channel_bytes = d->channel_bytes ? d->channel_bytes : CORRAL_DEFAULT_CHANNEL_BYTES; /* channel_bytes / size values each */
    p->ring_bytes = (p->channel_bytes + 7u) & ~(uint64_t)7u;        /* rings 8-aligned */
    p->max_counters = !t->pool[CORRAL__POOL_COUNTER] ? 0
                      : (uint64_t)(d->max_semaphores ? d->max_semaphores : CORRAL_DEFAULT_MAX_SEMAPHORES) +
                            (d->max_waitgroups ? d->max_waitgroups : CORRAL_DEFAULT_MAX_WAITGROUPS);
    if (p->node_count > 0x7FFFFFFFu || p->max_sides > 0x7FFFFFFFu || p->max_signals > 0x7FFFFFFFu || p->max_futures > 0x7FFFFFFFu ||
        p->max_channels > 0x00FFFFFFu || p->channel_bytes > 0x00FFFFFFu || p->max_counters > 0x00FFFFFFu)
        return CORRAL_ERR_TOO_LARGE;
    off = corral__align64(off, 8);
    p->lanes_off = off;
    off += p->lane_count * sizeof(corral__lane);
    p->chunks_off = off;
    off += (p->chunk_count * CORRAL__CHUNK + CORRAL__PREFETCH) * sizeof(uint32_t); /* + the walk's look-ahead */
    p->chunk_next_off = off;
    off += p->chunk_count * sizeof(uint32_t);
    off = corral__align64(off, 8);
    p->meta_off = off;
    off += slots * sizeof(corral__meta);
    off = corral__align64(off, 8);
    p->nodes_off = off;
    off += p->node_count * sizeof(corral__node);
    /* the timer heaps' store: an entry a sleeper and a wait node, in the
       clocks' heaps and the held heap; each heap's last page partly used,
       its first past the skew */
    p->heap_entries = p->sleepers + p->wait_nodes;
    if (p->heap_entries > (uint64_t)CORRAL__SLEEP_POS + 1u) return CORRAL_ERR_TOO_LARGE; /* a sleeper's link names its entry */
    p->heap_tab_len = ((p->heap_entries + CORRAL__HEAP_SKEW) >> CORRAL__HEAP_PAGE_SHIFT) + 1; /* pages a heap holds */
    p->heap_pages = p->heap_tab_len + p->heaps + 1u; /* ceil(entries / PAGE) and a page of slack for each of
                                                         the heaps + 1 (the held heap) */
    off = corral__align64(off, 64); /* an entry's four children in one cache line */
    p->heap_pages_off = off;
    off += p->heap_pages * CORRAL__HEAP_PAGE * sizeof(corral__heap_entry);
    p->heap_tabs_off = off;
    off += (p->heaps + 1u) * p->heap_tab_len * sizeof(uint32_t);
    p->heap_free_off = off;
    off += p->heap_pages * sizeof(uint32_t);
    p->owner_off = off;
    off += p->owner_buckets * 2 * sizeof(uint32_t);
    p->sides_off = off;
    off += p->max_sides * sizeof(corral__side);
    /* the lookup from a slot to its side record: twice the records, a power of 2 */
    p->side_lookup_shift = 31; /* entries: 2 << (31 - shift), at least twice the records */
    while ((2ull << (31u - p->side_lookup_shift)) < 2u * p->max_sides) p->side_lookup_shift--;
    p->side_lookup_off = off;
    off += (2ull << (31u - p->side_lookup_shift)) * sizeof(uint32_t);
    off = corral__align64(off, 8);
    p->signals_off = off;
    off += p->max_signals * sizeof(corral__signal);
    off = corral__align64(off, 8);
    p->futures_off = off;
    off += p->max_futures * sizeof(corral__future);
    off = corral__align64(off, 8);
    p->channels_off = off;
    off += p->max_channels * sizeof(corral__channel);
    p->counters_off = off;
    off += p->max_counters * sizeof(corral__counter);
    off = corral__align64(off, 8);
    p->data_off = off; /* the channels' rings, beside the pools that size them */
    off += p->max_channels * p->ring_bytes;
    /* each part's state: the channels' with their rings, the others'
       (bytes) in a region of its own here, in the order of the slots */
    for (uint32_t k = 0; k < CORRAL__STATE_COUNT - 1; k++) {
        const corral_part *part_k = p->part[k];
        if (!part_k) continue;
        if (k == CORRAL__STATE_CHANNELS - 1) p->state_off[k] = p->data_off;
        if (!part_k->bytes) continue;
        off = corral__align64(off, part_k->align);
        p->state_off[k] = off;
        off += part_k->bytes(d);
    }
    p->hist_cap = d->history_frames;
    p->trace_cap = d->timing ? d->trace_steps : 0;
    if (p->hist_cap > 0x00FFFFFFu || p->trace_cap > 0x0FFFFFFFu) return CORRAL_ERR_TOO_LARGE;
    off = corral__align64(off, 8);
    p->hist_off = off;
    off += p->hist_cap * sizeof(corral_frame_sample);
    p->trace_off = off;
    off += p->trace_cap * sizeof(corral__trace_ev);
    p->ages_off = d->timing ? off : 0; /* each slot's birth frame, kept with timing */
    if (d->timing) off += slots * sizeof(uint32_t);
    off = corral__align64(off, 8);
    p->text_off = d->wait_text ? off : 0;
    if (d->wait_text) off += p->wait_nodes * sizeof(const char *);
    const uint64_t pages_at = off;
    for (uint32_t i = 0; i < n; i++) {
        p->pages_off[i] = off;
        off += (uint64_t)corral__page_count_for(p->classes[i].capacity) * sizeof(corral__page);
    }
    const uint64_t pages = (off - pages_at) / sizeof(corral__page);
    for (uint32_t i = 0; i < n; i++) {
        off = corral__align64(off, CORRAL__SLAB_ALIGN);
        p->class_base[i] = off;
        uint64_t bytes = (uint64_t)p->classes[i].capacity * p->classes[i].slot_size;
        p->slab_bytes += bytes;
        off += bytes;
    }
    /* the kept snapshots' ring last: desc.kept_bytes, at least an entry
       of the new scheduler's snapshot (its header, head, the types the
       registry enters, the lanes, the page tables, the owner buckets and
       the pools a snapshot copies whole); 0: kept_snapshots entries of
       twice that snapshot, each with its 64-byte entry header, rounded
       up to 64 */
    uint64_t fresh = sizeof(corral__snap_head) + CORRAL__HEAD_BYTES + p->lane_count * sizeof(corral__lane) +
                     p->owner_buckets * 2u * sizeof(uint32_t) +
                     (p->data_off + p->max_channels * p->ring_bytes - p->signals_off);
    if (reg) fresh += (uint64_t)reg->count * (sizeof(corral__type_entry) + CORRAL__END_SLOTS * sizeof(uint64_t));
    fresh += pages * (sizeof(corral__page) + sizeof(uint64_t)); /* each page and where its slots start */
    p->kept_bytes = corral__align64(d->kept_bytes, 64);
    if (!p->kept_bytes && d->kept_snapshots) {
        if (d->kept_snapshots > 0xFFFFu) return CORRAL_ERR_TOO_LARGE; /* the product below stays in 64 bits */
        p->kept_bytes = d->kept_snapshots * corral__align64(2u * fresh + CORRAL__KEPT_ENTRY, 64);
    }
    if (p->kept_bytes) {
        const uint64_t least = corral__align64(fresh + CORRAL__KEPT_ENTRY, 64); /* the default is more */
        if (p->kept_bytes < least) {
            snprintf(p->why, sizeof p->why, "desc.kept_bytes under %llu B holds no snapshot", (unsigned long long)least);
            return CORRAL_ERR_BAD_DESC;
        }
        off = corral__align64(off, 64);
        p->kept_off = off;
        off += CORRAL__KEPT_HEAD + p->kept_bytes;
    }
    if (off > 0xFFFFFFF0u) return CORRAL_ERR_TOO_LARGE; /* offsets are 32-bit */
    p->total = off + CORRAL__SLAB_ALIGN;               /* slack to align the block */
    return CORRAL_ERR_OK;
}

/* ---- the time domains' clocks (the frame's, in the block's head, read
   by every timer; their calls are domains.c's): desc.domains of them, each
   at scale 1 */
static void corral__domains_init(corral_sched *s, const corral_sched_desc *d)
{
    corral__domains *D = corral__domains_of(s);
    memset(D, 0, sizeof *D);
    D->count = d->domains ? d->domains : CORRAL_DEFAULT_DOMAINS; /* at most CORRAL_MAX_DOMAINS: the plan's check */
    for (uint32_t k = 0; k < CORRAL_MAX_DOMAINS; k++) D->d[k].scale = 1.0f;
}

/* ---- its parts: the core's tables, then each part named (after the
   parts it builds on), each slot filled by the part that owns it; owner:
   the part that holds each state slot */
static void corral__part_open(corral__part_tables *t, const corral_part *owner[], const corral_part *part, uint32_t depth)
{
    assert(depth < 4 && "corral: a part's needs are at most 3 deep (a cycle?)");
    for (uint32_t n = 0; n < 2 && part->needs[n] && depth < 4; n++)
        corral__part_open(t, owner, part->needs[n], depth + 1);
    for (uint32_t w = 0; w < CORRAL__PART_WAITS && part->waits[w].last; w++)
        for (uint32_t k = part->waits[w].first; k <= part->waits[w].last; k++) t->wait[k] = part->waits[w].table;
    for (uint32_t p = 0; p < CORRAL__PART_POOLS && part->pools[p].used; p++)
        t->pool[part->pools[p].pool] = part->pools[p].table;
    if (part->feature < CORRAL__FEATURE_COUNT) t->feature[part->feature] = part->table;
    if (part->arm) t->arm = part->arm;
    if (part->state != CORRAL__STATE_NONE) owner[part->state - 1] = part;
}
static void corral__parts_open(corral__part_tables *t, const corral_part *owner[], const corral_part *const *parts)
{
    memset(t, 0, sizeof *t);
    memset(owner, 0, (CORRAL__STATE_COUNT - 1) * sizeof owner[0]);
    /* the core's own kinds; a part brings the others (corral_part.waits) */
    t->wait[CORRAL_WAIT_FRAMES] = t->wait[CORRAL_WAIT_SECONDS] = t->wait[CORRAL_WAIT_REALTIME] = &corral__timer_part;
    t->wait[CORRAL_WAIT_SIGNAL] = &corral__signal_part;
    t->pool[CORRAL__POOL_SIGNAL] = &corral__signal_pool_part;
    for (uint32_t i = 0; parts && parts[i]; i++) corral__part_open(t, owner, parts[i], 0);
}

/* the plan of desc for the parts `parts` names, their tables in t;
   false (the error set for call) if desc is refused */
static bool corral__plan_for(const char *call, const corral_sched_desc *desc, const corral_part *const *parts,
                             corral__part_tables *t, corral__plan *p)
{
    const corral_part *owner[CORRAL__STATE_COUNT - 1];
    corral__parts_open(t, owner, parts);
    if (!t->feature[CORRAL__FEATURE_PROFILE] &&
        (desc->timing || desc->history_frames || desc->trace_steps || desc->hooks.step_begin || desc->hooks.step_end)) {
        corral__fail_at(NULL, &desc->logger, CORRAL_ERR_NO_PART, call, CORRAL__NOH, NULL,
                        "desc.timing, history_frames, trace_steps and step hooks need corral_part_profile in desc.parts");
        return false;
    }
    corral_error e = corral__make_plan(desc, t, owner, p);
    if (e == CORRAL_ERR_OK) return true;
    corral__fail_at(NULL, &desc->logger, e, call, CORRAL__NOH, NULL, p->why);
    return false;
}

size_t corral__memory_size(const char *call, const corral_sched_desc *desc, const corral_part *const *parts)
{
    corral__part_tables t;
    corral__plan p;
    CORRAL__REQUIRE_AT(NULL, desc, CORRAL_ERR_NULL_ARG, call, CORRAL__NOH, NULL, NULL, 0);
    return corral__plan_for(call, desc, parts, &t, &p) ? (size_t)p.total : 0;
}

/* the block the plan asks for: the caller's, or one taken from the
   allocator (al: the desc's, or malloc and free); NULL, the error set */
static unsigned char *corral__block_take(const char *call, const corral_sched_desc *desc, const corral__plan *p,
                                         corral_allocator *al)
{
    *al = desc->allocator;
    if (!al->alloc || !al->free) *al = (corral_allocator){corral__malloc, corral__free, NULL};
    corral_error e = CORRAL_ERR_OK;
    unsigned char *block = (unsigned char *)desc->memory;
    if (block && desc->memory_size < p->total) e = CORRAL_ERR_MEMORY_TOO_SMALL;
    if (!block) block = (unsigned char *)al->alloc((size_t)p->total, al->user_data); /* the one allocator call */
    if (!block) e = CORRAL_ERR_ALLOC_FAILED;
    if (e == CORRAL_ERR_OK) return block;
    char why[64] = "";
    if (e == CORRAL_ERR_MEMORY_TOO_SMALL)
        snprintf(why, sizeof why, "%llu bytes, %llu needed", (unsigned long long)desc->memory_size,
                 (unsigned long long)p->total);
    corral__fail_at(NULL, &desc->logger, e, call, CORRAL__NOH, NULL, why[0] ? why : NULL);
    return NULL;
}

/* the scheduler's own fields and where each core file's part of the block
   lies, from the plan */
static void corral__sched_setup(corral_sched *s, const corral_sched_desc *desc, const corral__plan *p)
{
    s->types.max_types = p->max_types;
    s->types.hash_off = (uint32_t)p->hash_off;
    s->types.hash_mask = p->hash_size - 1;
    memset(corral__types(s), 0, (size_t)p->max_types * sizeof(corral__type_entry));
    memset(CORRAL__AT(s, s->types.hash_off), 0, (size_t)p->hash_size * sizeof(uint16_t));
    s->types.ends_off = (uint32_t)p->ends_off;
    memset(corral__ends(s, 0), 0, (size_t)p->max_types * CORRAL__END_SLOTS * sizeof(uint64_t));
    s->types.last_ti = CORRAL__NIL;
    s->types.registry = desc->registry;
    s->types.predicates = desc->predicates;
    s->types.upgrade = desc->upgrade;
    s->run.order = p->order;
    s->run.lanes_off = (uint32_t)p->lanes_off;
    s->run.lane_count = (uint32_t)p->lane_count;
    s->run.phases = (uint32_t)p->phases;
    s->run.defer_lane = (uint32_t)(p->lane_count - 1 - p->phases);
    s->run.lanes_per_phase = (uint32_t)p->lanes_per_phase;
    s->run.chunks_off = (uint32_t)p->chunks_off;
    s->run.chunk_next_off = (uint32_t)p->chunk_next_off;
    s->run.chunk_count = (uint32_t)p->chunk_count;
    s->arena.meta_off = (uint32_t)p->meta_off;
    s->arena.total_slots = (uint32_t)p->total_slots;
    s->nodes.off = (uint32_t)p->nodes_off;
    s->nodes.count = (uint32_t)p->node_count;
    s->nodes.wait_count = (uint32_t)p->wait_nodes;
    s->nodes.text_off = (uint32_t)p->text_off;
    s->timers.heaps = (uint32_t)p->heaps;
    s->timers.pages_off = (uint32_t)p->heap_pages_off;
    s->timers.tabs_off = (uint32_t)p->heap_tabs_off;
    s->timers.free_off = (uint32_t)p->heap_free_off;
    s->timers.page_count = (uint32_t)p->heap_pages;
    s->timers.tab_len = (uint32_t)p->heap_tab_len;
    s->timers.entries = (uint32_t)p->heap_entries;
    s->timers.max_sleepers = (uint32_t)p->sleepers;
    s->groups.owner_off = (uint32_t)p->owner_off;
    s->groups.owner_mask = (uint32_t)p->owner_buckets - 1;
    s->sides.off = (uint32_t)p->sides_off;
    s->sides.count = (uint32_t)p->max_sides;
    s->sides.lookup_off = (uint32_t)p->side_lookup_off;
    s->sides.lookup_shift = (uint32_t)p->side_lookup_shift;
    s->pools[CORRAL__POOL_SIGNAL] = (corral__pool){.off = (uint32_t)p->signals_off, .cap = (uint32_t)p->max_signals};
    s->pools[CORRAL__POOL_FUTURE] = (corral__pool){.off = (uint32_t)p->futures_off, .cap = (uint32_t)p->max_futures};
    s->pools[CORRAL__POOL_CHANNEL] = (corral__pool){.off = (uint32_t)p->channels_off, .cap = (uint32_t)p->max_channels};
    s->pools[CORRAL__POOL_COUNTER] = (corral__pool){.off = (uint32_t)p->counters_off, .cap = (uint32_t)p->max_counters};
    s->prof.timing = desc->timing ? 1u : 0u;
    uint32_t sample = desc->timing_sample ? desc->timing_sample : CORRAL_DEFAULT_TIMING_SAMPLE;
    s->prof.sample_mask = 1u;
    while (s->prof.sample_mask < sample && s->prof.sample_mask < 0x80000000u) s->prof.sample_mask <<= 1;
    s->prof.sample_mask -= 1u; /* a power of two: the test is a mask */
    s->prof.count_only = s->prof.timing && !desc->hooks.step_begin && !desc->hooks.step_end;
    s->prof.hooks = desc->hooks;
    s->prof.instrument = s->prof.timing || desc->hooks.step_begin || desc->hooks.step_end;
    s->prof.formatter = desc->field_formatter;
    s->prof.hist_off = (uint32_t)p->hist_off;
    s->prof.hist_cap = (uint32_t)p->hist_cap;
    s->prof.trace_off = (uint32_t)p->trace_off;
    s->prof.trace_cap = (uint32_t)p->trace_cap;
    s->prof.ages_off = (uint32_t)p->ages_off;
    s->now.fixed_dt = p->fixed_dt;
    s->now.max_fixed_steps = p->max_fixed_steps;
    s->now.clock = desc->clock.now_ns ? desc->clock : (corral_clock){corral__monotonic_ns, NULL};
    s->now.phase = CORRAL__NIL;
    s->now.frame_pos = 1u + CORRAL__PH_END; /* frame 0 is over: the first tick is frame 1 */
}

/* the size classes, each with its pages */
static void corral__classes_setup(corral_sched *s, const corral__plan *p)
{
    s->arena.slab_bytes = p->slab_bytes;
    s->arena.class_count = p->class_count;
    s->arena.epoch = 1; /* past every new type's peak_epoch (0) */
    uint32_t first = 0;
    for (uint32_t i = 0; i < p->class_count; i++) {
        corral__class *c = &s->arena.classes[i];
        c->first = first;
        first += p->classes[i].capacity;
        c->slot_size = p->classes[i].slot_size;
        c->capacity = p->classes[i].capacity;
        c->base = (uint32_t)p->class_base[i];
        c->reserved = p->reserved[i];
        snprintf(c->name, sizeof c->name, "corral %uB", c->slot_size);
        c->pages_off = (uint32_t)p->pages_off[i];
        c->page_shift = corral__page_shift_for(c->capacity);
        c->page_count = corral__page_count_for(c->capacity);
        c->shift = 0;
        while (((c->slot_size >> c->shift) & 1u) == 0) c->shift++;
        uint32_t odd = c->slot_size >> c->shift, inv = odd; /* Newton: inv = odd^-1 mod 2^32 */
        for (int it = 0; it < 5; it++) inv *= 2u - odd * inv;
        c->inv = inv;
        corral__pages_init(s, c);
    }
}

/* the kept snapshots' ring emptied: its bytes and what the desc asked
   stay (reloaded: a reload forgot what it held) */
static void corral__kept_empty(corral__kept *K, uint64_t bytes, uint32_t desc_snapshots, uint32_t desc_bytes,
                               uint32_t reloaded)
{
    memset(K, 0, CORRAL__KEPT_HEAD);
    K->bytes = bytes;
    K->desc_snapshots = desc_snapshots;
    K->desc_bytes = desc_bytes;
    K->oldest = K->newest = K->cut_to = CORRAL__NIL;
    K->reloaded = reloaded;
}

/* the kept snapshots' ring (snapshot.c keeps and restores them): empty */
static void corral__kept_setup(corral_sched *s, const corral_sched_desc *d, const corral__plan *p)
{
    s->kept.off = (uint32_t)p->kept_off;
    corral__kept *K = corral__kept_of(s);
    if (K) corral__kept_empty(K, p->kept_bytes, d->kept_snapshots, d->kept_bytes, 0);
}

/* every kept snapshot forgotten, at a reload: they hold the old build's
   points and predicates */
void corral__kept_forget(corral_sched *s)
{
    corral__kept *K = corral__kept_of(s);
    if (K) corral__kept_empty(K, K->bytes, K->desc_snapshots, K->desc_bytes, 1);
}

/* a scheduler of desc with the parts `parts` names (call: the public
   function, for its errors) */
corral_sched *corral__sched_create(const char *call, const corral_sched_desc *desc, const corral_part *const *parts)
{
    corral__part_tables tables;
    corral__plan p;
    corral_allocator al;
    CORRAL__REQUIRE_AT(NULL, desc, CORRAL_ERR_NULL_ARG, call, CORRAL__NOH, NULL, NULL, NULL);
    if (!corral__plan_for(call, desc, parts, &tables, &p)) return NULL;
    if ((unsigned)desc->validation >= (unsigned)CORRAL_VALIDATION_COUNT) {
        corral__fail_at(NULL, &desc->logger, CORRAL_ERR_BAD_DESC, call, CORRAL__NOH, NULL, NULL);
        return NULL;
    }
    unsigned char *block = corral__block_take(call, desc, &p, &al);
    if (!block) return NULL;
    uintptr_t a = ((uintptr_t)block + (CORRAL__SLAB_ALIGN - 1)) & ~(uintptr_t)(CORRAL__SLAB_ALIGN - 1);
    corral_sched *s = (corral_sched *)(void *)a;
    memset(s, 0, CORRAL__HEAD_BYTES);
    s->magic = CORRAL__MAGIC;
    s->made_by = CORRAL__MADE_BY;
    s->origin = corral__origin();
    s->flags = desc->memory ? 0u : CORRAL__OWNS_MEMORY;
    s->pad = (uint32_t)(a - (uintptr_t)block);
    s->total_bytes = desc->memory ? desc->memory_size : p.total;
    s->allocator = al;
    s->logger = desc->logger;
    s->validation = desc->validation != CORRAL_VALIDATION_DEFAULT ? desc->validation
                    : CORRAL_DEBUG ? CORRAL_VALIDATION_FATAL : CORRAL_VALIDATION_OFF;
    s->validation_given = desc->validation;
    s->owner = corral__thread_token();
    corral__sched_setup(s, desc, &p);
    corral__classes_setup(s, &p);
    s->parts = tables;
    corral__domains_init(s, desc);
    for (uint32_t k = 0; k < CORRAL__STATE_COUNT - 1; k++) { /* each part's state, in its region */
        if (!p.part[k]) continue;
        s->parts.state[k] = (uint32_t)p.state_off[k];
        p.part[k]->init(s, desc, s->parts.state[k]);
    }
    corral__state_init(s);
    corral__kept_setup(s, desc, &p);
    for (uint32_t t = 0; desc->registry && t < desc->registry->count; t++) {
        uint32_t ti = corral__type_lookup(s, desc->registry->types[t]); /* validated by the plan */
        corral__type_entry *te = &corral__types(s)[ti];
        te->id = desc->registry->ids[t];
        te->budget = desc->registry->budgets ? desc->registry->budgets[t] : 0;
        te->plain = corral__plain(s, te);
    }
#if CORRAL_DEBUG
    corral__destroyed_drop(s); /* a new scheduler where this thread freed one */
#endif
    return s;
}

corral_sched *corral_sched_create_min(const corral_sched_desc *desc)
{
    return corral__sched_create(__func__, desc, desc ? desc->parts : NULL);
}

size_t corral_sched_memory_size_min(const corral_sched_desc *desc)
{
    return corral__memory_size(__func__, desc, desc ? desc->parts : NULL);
}

bool corral__clock_ok(double time, double scale)
{
    return time >= 0.0 && time <= CORRAL__TIME_MAX && scale >= 0.0 && scale <= CORRAL__SCALE_MAX; /* false for NaN */
}

bool corral__clocks_ok(double game, double unscaled, double fixed)
{
    return corral__clock_ok(game, 0.0) && corral__clock_ok(unscaled, 0.0) && corral__clock_ok(fixed, 0.0);
}

void corral__frame_restore(corral_sched *s, uint64_t frame, uint32_t frame_pos, double unscaled, double fixed)
{
    s->now.frame = frame;
    s->now.frame_pos = frame_pos;
    s->now.unscaled_time = unscaled;
    s->now.fixed_time = fixed;
}

/* A restore: the state a snapshot carries in the scheduler struct, every
   field that changes as the game runs, each file's part taken by that
   file. The rest (where everything lies, the configuration, the
   environment, profiling) stays the live scheduler's; a snapshot whose
   rest differs is refused before this. */
void corral__state_take(corral_sched *d, const corral_sched *o)
{
    d->types.last_vt = o->types.last_vt;
    d->types.last_ti = o->types.last_ti;
    corral__run_take(d, o);
    corral__nodes_take(d, o);
    corral__timers_take(d, o);
    corral__domains_take(d, o);
    corral__polls_take(d, o);
    corral__groups_take(d, o);
    corral__pools_take(d, o);
    corral__arena_take(d, o);
    corral_clock clock = d->now.clock;
    d->now = o->now;
    d->now.clock = clock;
    d->now.uncounted = 0; /* a snapshot is taken between steps */
}

void corral__state_init(corral_sched *s)
{
    corral__lanes_init(s);
    corral__meta_init(s);
    corral__sides_init(s);
    corral__nodes_init(s);
    corral__timers_init(s);
    corral__polls_init(s);
    corral__groups_init(s);
    corral__pools_init(s);
    /* the channels' rings are in every snapshot, checksum and all: no byte of them unwritten */
    const corral__chans *C = corral__chans_of(s);
    if (C->data_off) memset(CORRAL__AT(s, C->data_off), 0, (size_t)s->pools[CORRAL__POOL_CHANNEL].cap * corral__ring_bytes(C));
}

void corral_sched_destroy(corral_sched *s)
{
    if (!s) return;
    if (!corral__check(s) || !corral__between_ticks(__func__, s)) return;
    s->flags |= CORRAL__DESTROYING;
    if (corral__posts(s)) corral__posts(s)->close(s); /* posts from now on are refused */
    corral__end_all(s);
    s->magic = 0; /* a caller's block says it holds no scheduler now */
    if (s->flags & CORRAL__OWNS_MEMORY) {
#if CORRAL_DEBUG
        corral__destroyed_add(s); /* the freed block is not read again on this thread */
#endif
        corral_allocator al = s->allocator;
        al.free((unsigned char *)s - s->pad, al.user_data); /* the allocator hook */
    }
}

const corral__debugger_consts corral__debugger = {
    1,
    CORRAL__FREE, CORRAL__RUNNING, CORRAL__STOPPING, CORRAL__RETIRED, CORRAL__WAITING, CORRAL__HELD,
    CORRAL__MODE_ALL, CORRAL__MODE_ANY, CORRAL__MODE_RACE, CORRAL__MODE_SYNC,
    CORRAL__HEAP_SCALED, CORRAL__HEAP_REAL, CORRAL__HEAP_FRAMES,
    CORRAL__NODE_ARM,
    CORRAL__HOLD_WAITING, CORRAL__MODE_OPEN, CORRAL__MODE_ONE,
    {
#define CORRAL__X(id, name, how, phase, part) CORRAL__HOW_##how == CORRAL__HOW_TIMER,
        CORRAL_WAIT_KINDS(CORRAL__X)
#undef CORRAL__X
    },
    CORRAL__MAGIC, (uint32_t)CORRAL__DOMAINS_OFF, (uint32_t)CORRAL__TYPES_OFF,
    CORRAL__SLEEP_LINK, CORRAL__SLEEP_HELD, CORRAL__SLEEP_POS, CORRAL__SLEEP_OFF,
    CORRAL__SLEEP_HEAP_SHIFT, CORRAL__SLEEP_HEAP_MASK, CORRAL__SLEEP_KIND_SHIFT, CORRAL_WAIT_FRAMES,
    CORRAL__HEAP_SKEW, CORRAL__HEAP_PAGE_SHIFT,
};

corral_sched *corral_sched_adopt(void *memory, size_t memory_size)
{
    CORRAL__REQUIRE(NULL, memory, CORRAL_ERR_NULL_ARG, NULL);
    uintptr_t a = ((uintptr_t)memory + (CORRAL__SLAB_ALIGN - 1)) & ~(uintptr_t)(CORRAL__SLAB_ALIGN - 1);
    corral_sched *s = (corral_sched *)(void *)a;
    if (memory_size < CORRAL__HEAD_BYTES + (a - (uintptr_t)memory) || s->magic != CORRAL__MAGIC ||
        s->total_bytes > memory_size) {
        corral__fail(NULL, NULL, CORRAL_ERR_NOT_A_SCHED);
        return NULL;
    }
    if (s->origin != corral__origin()) { /* its vtables and callbacks point into another image */
        corral__fail(NULL, NULL, CORRAL_ERR_FOREIGN_BLOCK);
        return NULL;
    }
    s->flags &= ~(uint32_t)CORRAL__OWNS_MEMORY;
    s->pad = (uint32_t)(a - (uintptr_t)memory);
    s->owner = corral__thread_token(); /* the adopting thread owns the copy */
    corral__polls_moved(s);            /* predicates' arguments in its contexts: into the copy */
#if CORRAL_DEBUG
    corral__destroyed_drop(s);
#endif
    return s;
}

bool corral__between_ticks(const char *call, const corral_sched *s)
{
    CORRAL__REQUIRE_AT(s, !(s->flags & CORRAL__DESTROYING), CORRAL_ERR_DESTROYING, call, CORRAL__NOH, NULL, NULL, false);
    CORRAL__REQUIRE_AT(s, !s->now.in_tick && !s->now.depth && s->run.ready_read == CORRAL__NIL, CORRAL_ERR_IN_TICK,
                       call, CORRAL__NOH, NULL, NULL, false);
    return true;
}

void corral__loading(corral_sched *s, bool on) { s->magic = on ? CORRAL__MAGIC_LOADING : CORRAL__MAGIC; }

static bool corral__may_run(const char *call, corral_sched *s)
{
    return corral__check_in(s, call) && corral__between_ticks(call, s);
}

/* the open frame ends: its sample goes to the history (the profile
   part's, which a scheduler with a history has) */
static void corral__frame_end(corral_sched *s)
{
    if (s->prof.hist_cap) corral__profile(s)->sample_frame(s);
    s->prof.frame_open = 0;
}

/* a frame begins (corral_frame_begin, corral_tick: the guard asked) */
static void corral__frame_begin(corral_sched *s, float dt)
{
    if (!(dt >= 0.0f && dt - dt == 0.0f)) { /* negative, NaN or infinite (inf - inf is NaN) */
        corral__fail(s, NULL, CORRAL_ERR_BAD_DT);
        dt = 0.0f;
    }
    if (s->prof.frame_open) corral__frame_end(s); /* an engine driving phases: close the last frame */
    s->prof.frame_open = 1;
    s->prof.frame_steps = 0;
    s->prof.frame_tick_ns = 0;
    s->prof.frame_start_time = s->now.unscaled_time;
    s->now.unscaled_dt = dt;
    corral__domains_advance(s, dt);
    s->now.unscaled_time = corral__clock_add(s->now.unscaled_time, (double)dt);
    s->now.frame++;
    s->now.frame_pos = 0;
    /* what waited for this frame joins its phase's queue */
    if (s->run.deferred) corral__lanes_next_frame(s);
    if (s->polls.next_pending) corral__polls(s)->next_frame(s); /* a predicate waits: polls.c is there */
    /* what other threads posted: as if completed or raised here */
    if (corral__posts(s)) corral__posts(s)->apply(s);
}

void corral_frame_begin(corral_sched *s, float dt)
{
    if (corral__may_run(__func__, s)) corral__frame_begin(s, dt);
}

static uint32_t corral__run(corral_sched *s, uint32_t phase)
{
    corral_sched *prev = corral__tls_sched;
    corral__tls_sched = s;
    s->now.in_tick = 1;
    s->now.phase = phase;
    if (phase == CORRAL__PH_FIXED) {
        s->now.fixed_time = corral__clock_add(s->now.fixed_time, (double)s->now.fixed_dt);
        s->now.phase_dt = s->now.fixed_dt;
    } else {
        s->now.phase_dt = corral__domains_of(s)->d[0].dt;
    }
    if (s->budget.ns) s->budget.run_start = s->now.clock.now_ns(s->now.clock.user_data);
    s->prof.chain_valid = 0;
    /* timers are checked once a frame, before its first run: a sleeper of
       any phase then resumes in that phase's first run of the frame */
    bool first_run = s->now.frame_pos == 0;
    if (phase < CORRAL__PH_COUNT) s->now.frame_pos = 1u + phase; /* a custom run is outside the frame's order */
    if (first_run) corral__wake_timers(s);
    if (s->polls.head[phase] != CORRAL__NIL) corral__polls(s)->poll(s, phase);
    /* this run steps what is queued now; what is queued from here on
       (a step's yield in place included) waits for the next run */
    corral__lanes_begin(s, phase);
    /* callers an interrupt or a timer just freed go on first, in this run */
    if (s->run.ready_read != CORRAL__NIL) corral__drain_ready(s);
    uint32_t steps = corral__run_lanes(s, phase);
    if (s->run.ready_read != CORRAL__NIL) corral__drain_ready(s);
    s->prof.frame_steps += steps;
    s->now.phase = CORRAL__NIL;
    s->now.in_tick = 0;
    corral__tls_sched = prev;
    return steps;
}

uint32_t corral_run_phase(corral_sched *s, corral_phase phase)
{
    uint32_t ph;
    if (!corral__may_run(__func__, s)) return 0;
    CORRAL__REQUIRE(s, corral__phase_of(s, phase, &ph), CORRAL_ERR_BAD_PHASE, 0);
    return corral__run(s, ph);
}

/* (s checked) */
static uint32_t corral__fixed_steps_due(const corral_sched *s)
{
    if (!(s->now.fixed_dt > 0.0f)) return 0;
    double behind = corral__domains_of(s)->d[0].time - s->now.fixed_time;
    if (!(behind >= (double)s->now.fixed_dt)) return 0; /* NaN too: clocks gone infinite count no steps */
    double n = behind / (double)s->now.fixed_dt;
    return n >= (double)s->now.max_fixed_steps ? s->now.max_fixed_steps : (uint32_t)n;
}

uint32_t corral_fixed_steps_due(const corral_sched *s)
{
    return corral__check(s) ? corral__fixed_steps_due(s) : 0;
}

uint32_t corral_tick(corral_sched *s, float dt)
{
    if (!corral__may_run(__func__, s)) return 0;
    uint64_t t0 = s->prof.timing ? s->now.clock.now_ns(s->now.clock.user_data) : 0;
    corral__frame_begin(s, dt);
    s->prof.frame_tick_start = t0;
    uint32_t steps = 0;
    for (uint32_t n = corral__fixed_steps_due(s); n > 0; n--) steps += corral__run(s, CORRAL__PH_FIXED);
    /* too far behind (a hitch): drop the fixed steps over the cap */
    const double game_time = corral__domains_of(s)->d[0].time;
    if (s->now.fixed_dt > 0.0f && game_time - s->now.fixed_time >= (double)s->now.fixed_dt) {
        const double whole = (game_time - s->now.fixed_time) / (double)s->now.fixed_dt;
        if (whole < 0x1p63)
            s->now.fixed_time = corral__clock_add(s->now.fixed_time, (double)s->now.fixed_dt * (double)(uint64_t)whole);
        else s->now.fixed_time = game_time;
    }
    steps += corral__run(s, CORRAL__PH_UPDATE);
    steps += corral__run(s, CORRAL__PH_LATE);
    steps += corral__run(s, CORRAL__PH_END);
    if (s->prof.timing) {
        uint64_t ns = s->now.clock.now_ns(s->now.clock.user_data) - t0;
        s->prof.frame_tick_ns = ns;
        s->prof.tick_ns_last = ns;
        s->prof.tick_ns_total += ns;
        if (ns > s->prof.tick_ns_max) s->prof.tick_ns_max = ns;
    }
    corral__frame_end(s);
    return steps;
}

void corral_set_time_scale(corral_sched *s, float scale)
{
    if (!corral__check(s)) return;
    CORRAL__REQUIRE(s, scale >= 0.0f && scale <= CORRAL__SCALE_MAX, CORRAL_ERR_BAD_DT, );
    corral__domain_scale_set(s, 0, scale);
}

float corral_time_scale(const corral_sched *s)
{
    return corral__check(s) ? corral__domains_of(s)->d[0].scale : 0.0f;
}

uint32_t corral_live_count(const corral_sched *s)
{
    return corral__check(s) ? s->arena.live + (s->now.uncounted != 0) : 0; /* with a first step's, not counted yet */
}

double corral_time(const corral_sched *s)
{
    return corral__check(s) ? corral__domains_of(s)->d[0].time : 0.0;
}

double corral_unscaled_time(const corral_sched *s)
{
    return corral__check(s) ? s->now.unscaled_time : 0.0;
}

double corral_fixed_time(const corral_sched *s)
{
    return corral__check(s) ? s->now.fixed_time : 0.0;
}

uint64_t corral_frame(const corral_sched *s)
{
    return corral__check(s) ? s->now.frame : 0;
}

float corral_dt(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return 0.0f;
    if (CORRAL__LIKELY(corral__domains_of(s)->count == 1)) return s->now.in_tick ? s->now.phase_dt : corral__domains_of(s)->d[0].dt;
    const uint32_t domain = corral__co_domain(s, corral__meta_of(s, co));
    const corral__domain *d = &corral__domains_of(s)->d[domain];
    if (corral__domain_held(s, domain)) return 0.0f;
    return s->now.in_tick && s->now.phase == CORRAL__PH_FIXED ? s->now.fixed_dt : d->dt;
}

float corral_unscaled_dt(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    return s ? s->now.unscaled_dt : 0.0f;
}

corral_phase corral_current_phase(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    return s ? corral__public_phase(co->flags & CORRAL__PHASE_MASK) : CORRAL_PHASE_DEFAULT;
}

corral_handle corral_self(const corral_co *co)
{
    corral_handle none = {0, 0};
    corral_sched *s = corral__in_step(__func__, co, true);
    return s ? corral__handle_of(s, co) : none;
}

corral_sched *corral_sched_of(const corral_co *co)
{
    return corral__in_step(__func__, co, true);
}
