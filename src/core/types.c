/*
    types.c -- the scheduler's type table.

    Each coroutine type the scheduler sees gets an entry (its counters, its
    size class, a copy of its step pointer). Registry types are entered at
    create with their stable ids and budgets; other types on first start. A
    small open-addressing hash keyed by the vtable address makes the lookup
    O(1); entries never move, so pointers to them stay valid during a step.
*/
#include "../corral_internal.h"

#include <stdio.h>

static bool corral__type_ok(const corral_type *vt) { return corral__type_check(vt, NULL, 0); }

uint32_t corral_slot_size_for(const corral_type *type)
{
    if (!corral__type_ok(type)) return 0;
    uint32_t a = type->ctx_align > CORRAL__SLOT_STEP ? type->ctx_align : CORRAL__SLOT_STEP;
    uint32_t sz = (type->ctx_offset + type->ctx_size + a - 1) & ~(a - 1);
    return sz < CORRAL__SLOT_MIN ? CORRAL__SLOT_MIN : sz; /* holds by construction (corral__slot_holds) */
}

uint32_t corral__type_lookup(corral_sched *s, const corral_type *vt)
{
    uint16_t *hash = (uint16_t *)(void *)CORRAL__AT(s, s->types.hash_off);
    corral__type_entry *types = corral__types(s);
    uint32_t h = corral__type_hash(s, vt);
    while (hash[h] != 0) {
        if (types[hash[h] - 1].vt == vt) {
            s->types.last_vt = vt;
            s->types.last_ti = hash[h] - 1u;
            return s->types.last_ti;
        }
        h = (h + 1) & s->types.hash_mask;
    }
    if (!corral__type_ok(vt)) return CORRAL__BAD_TI; /* checked once, on entry */
    if (s->types.type_count >= s->types.max_types) return CORRAL__NIL;
    uint32_t ti = s->types.type_count++;
    corral__type_entry *te = &types[ti];
    te->step = vt->step;
    te->run = vt->run;
    te->cleanup = vt->cleanup;
    te->page = CORRAL__NIL;
    te->vt = vt;
    te->ctx_size = vt->ctx_size;
    te->ctx_off = vt->ctx_offset;
    te->cls = corral__class_for(s, vt);
    te->plain = corral__plain(s, te);
    hash[h] = (uint16_t)(ti + 1);
    s->types.last_vt = vt;
    s->types.last_ti = ti;
    return ti;
}

bool corral__type_check(const corral_type *vt, char *why, size_t cap)
{
    if (!vt) {
        snprintf(why, cap, "no vtable");
        return false;
    }
    const char *name = vt->name ? vt->name : "?";
    const uint32_t size = vt->ctx_size;
    if (!vt->step) {
        snprintf(why, cap, "type %s has no step function", name);
        return false;
    }
    if (vt->ctx_align == 0 || vt->ctx_align > CORRAL_MAX_ALIGN || (vt->ctx_align & (vt->ctx_align - 1)) != 0) {
        snprintf(why, cap, "type %s: its context's alignment %u is not a power of two up to %u", name,
                 (unsigned)vt->ctx_align, (unsigned)CORRAL_MAX_ALIGN);
        return false;
    }
    if (vt->ctx_offset < CORRAL__HEADER_SIZE || vt->ctx_offset % vt->ctx_align != 0) {
        snprintf(why, cap, "type %s: its context's offset %u overlaps the %u-byte header or breaks its alignment",
                 name, (unsigned)vt->ctx_offset, (unsigned)CORRAL__HEADER_SIZE);
        return false;
    }
    if (size > CORRAL_MAX_CONTEXT_SIZE) {
        snprintf(why, cap, "type %s: its %u-byte context is over CORRAL_MAX_CONTEXT_SIZE", name, (unsigned)size);
        return false;
    }
    /* the library copies a result and fields at the offsets these give */
    if (vt->result_size && (vt->result_size > size || vt->result_offset > size - vt->result_size)) {
        snprintf(why, cap, "type %s: its result (offset %u, %u bytes) lies outside its %u-byte context", name,
                 (unsigned)vt->result_offset, (unsigned)vt->result_size, (unsigned)size);
        return false;
    }
    uint32_t n = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL;
    for (uint32_t i = 0; f && i < n; i++) {
        if (!f[i].name) {
            snprintf(why, cap, "type %s: field %u of its field table has no name", name, (unsigned)i);
            return false;
        }
        if (f[i].size > size || f[i].offset > size - f[i].size) {
            snprintf(why, cap, "type %s: field %s (offset %u, %u bytes) lies outside its %u-byte context", name,
                     f[i].name, (unsigned)f[i].offset, (unsigned)f[i].size, (unsigned)size);
            return false;
        }
    }
    return true;
}

CORRAL__COLD void corral__type_refuse(const char *call, corral_sched *s, const corral_type *vt)
{
    char why[192];
    corral__type_check(vt, why, sizeof why);
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_TYPE, call, CORRAL__NOH, NULL, why);
}

void corral__types_cache_clear(corral_sched *s) { s->types.last_vt = NULL; }

void corral__types_unplaced(corral_sched *s)
{
    for (uint32_t t = 0; t < s->types.type_count; t++) corral__types(s)[t].page = CORRAL__NIL;
}

uint32_t corral__field_at(const corral_type *vt, uint32_t off, uint32_t *delta)
{
    uint32_t n = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL;
    for (uint32_t i = 0; f && i < n; i++)
        if (off >= f[i].offset && off < f[i].offset + f[i].size) {
            *delta = off - f[i].offset;
            return i;
        }
    if (off == vt->result_offset && vt->result_size) {
        *delta = 0;
        return CORRAL__FIELD_RESULT;
    }
    return CORRAL__NIL;
}

/* ---- a restore's, a load's and a reload's part (snapshot.c, save.c and
   reload.c read their bytes and builds; the entries and the hash are this
   file's) */

/* A type entry's counters (what a snapshot brings back of it) from o into
   d; the rest is what the type is, and must be the live entry's. */
void corral__type_counters_copy(corral__type_entry *d, const corral__type_entry *o)
{
    d->live = o->live;
    d->peak = o->peak;
    d->peak_epoch = o->peak_epoch;
    d->lives = o->lives;
    d->started = o->started;
    d->stopped = o->stopped;
    d->failed = o->failed;
    d->steps = o->steps;
    d->step_ns = o->step_ns;
    d->step_ns_max = o->step_ns_max;
    d->steps_timed = o->steps_timed;
    d->page = o->page;
}

/* A restore: the first saved_count entries' counters from the entries at
   entries_at of snap, their ends from ends_at; a type met since keeps its
   place, its counters and ends as before it was met. */
void corral__types_restore(corral_sched *s, const unsigned char *snap, size_t entries_at, size_t ends_at,
                           uint32_t saved_count)
{
    corral__type_entry *T = corral__types(s);
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        corral__type_entry e;
        memset(&e, 0, sizeof e);
        e.page = CORRAL__NIL;
        if (t < saved_count) memcpy(&e, snap + entries_at + (size_t)t * sizeof e, sizeof e);
        corral__type_counters_copy(&T[t], &e);
    }
    if (s->types.type_count > saved_count)
        memset(corral__ends(s, saved_count), 0,
               (size_t)(s->types.type_count - saved_count) * CORRAL__END_SLOTS * sizeof(uint64_t));
    memcpy(corral__ends(s, 0), snap + ends_at, (size_t)saved_count * CORRAL__END_SLOTS * sizeof(uint64_t));
}

/* A load: type t's coroutines are in class cls (the save's; checked to
   hold them) */
void corral__type_set_class(corral_sched *s, uint32_t t, uint32_t cls) { corral__types(s)[t].cls = cls; }

/* A load: the page the types with registry id `id` fill next, as saved
   (none when their class has no such page) */
void corral__types_place(corral_sched *s, uint32_t id, uint32_t page)
{
    for (uint32_t t = 0; t < s->types.type_count && id; t++) {
        corral__type_entry *te = &corral__types(s)[t];
        if (te->id != id || te->cls == CORRAL__NO_CLASS) continue;
        te->page = page < s->arena.classes[te->cls].page_count ? page : CORRAL__NIL;
    }
}

/* A reload: entry t takes the new build's type nv. Its coroutines stay in
   their slots (checked to hold the new layout); with none live and no
   budget, one whose layout changed (moved) takes the class nv fits. */
void corral__type_rebind(corral_sched *s, uint32_t t, const corral_type *nv)
{
    corral__type_entry *te = &corral__types(s)[t];
    const bool moved = te->moves;
    te->moves = 0;
    if (moved && !te->live && !te->budget && corral__class_for(s, nv) != te->cls) {
        te->cls = corral__class_for(s, nv);
        te->page = CORRAL__NIL;
    }
    te->vt = nv;
    te->step = nv->step;
    te->run = nv->run;
    te->cleanup = nv->cleanup;
    corral__ctx_bytes_resize(s, te->live, te->ctx_size, nv->ctx_size);
    te->ctx_size = nv->ctx_size;
    te->ctx_off = nv->ctx_offset;
    te->plain = corral__plain(s, te);
}

/* A reload, while it runs: whether type t's contexts move (their layout
   changes); no type's, the reload refused */
void corral__type_mark_moves(corral_sched *s, uint32_t t, bool moves)
{
    corral__types(s)[t].moves = moves ? 1u : 0u;
}
void corral__types_unmark_moves(corral_sched *s)
{
    for (uint32_t t = 0; t < s->types.type_count; t++) corral__types(s)[t].moves = 0;
}

/* The hash again from the entries, after their vtables changed (a reload) */
void corral__types_rehash(corral_sched *s)
{
    uint16_t *hash = (uint16_t *)(void *)CORRAL__AT(s, s->types.hash_off);
    memset(hash, 0, ((size_t)s->types.hash_mask + 1u) * sizeof *hash);
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        uint32_t h = corral__type_hash(s, corral__types(s)[t].vt);
        while (hash[h] != 0) h = (h + 1) & s->types.hash_mask;
        hash[h] = (uint16_t)(t + 1);
    }
    s->types.last_vt = NULL;
}

/* A reload: type vt, new to this scheduler, entered with registry id `id`
   (checked: the table has room) */
void corral__type_enter(corral_sched *s, const corral_type *vt, uint32_t id)
{
    corral__types(s)[corral__type_lookup(s, vt)].id = id;
}

/* A reload: the new build's registry, predicates and upgrade hook; the
   predicates met before are the old build's functions */
void corral__types_take_build(corral_sched *s, const corral_reload_desc *d)
{
    s->types.registry = d->registry;
    s->types.predicates = d->predicates;
    s->types.seen_count = 0;
    s->types.upgrade.fn = d->upgrade;
    s->types.upgrade.user = d->upgrade_user;
}
