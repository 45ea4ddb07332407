/*
    save.c -- save games: the scheduler's state written in a portable,
    versioned format (corral_save) and loaded by another process, platform
    or build (corral_load). docs/SAVE.md is the format; docs/API.md, "Save
    games", the rules.

    A save is logical, not a copy of the arena: types by registry id with
    their field names, points by name, predicates by id, every link as the
    index of a saved coroutine, signal or future. Loading parses the whole
    save twice: once to check everything against this build (nothing
    changes), once to build the state with the same internal calls the
    library uses at run time (the same slots, the same generations, every
    list in the order its nodes were attached).
*/
#include "../corral_internal.h"
#include "../core/arena.h"

#include <string.h>

#define CORRAL__SAVE_MAGIC 0x56535243u /* "CRSV" */
#define CORRAL__SAVE_VERSION 7u /* 7: the coroutine a generator belongs to, what a
                                   wait or pull gave; 6: a predicate's argument as a place or a number, never an address;
                                   5: channels' capacities and closes, signals that stay
                                   set, semaphores' maximums and waits for n permits, a
                                   wait ended by a close; 4: each time domain's parent; 3: handle fields have kinds of
                                   their own, the phase byte carries the step contract's flags;
                                   2: time domains; 1 to 3 still load (1: every coroutine in
                                   domain 0; before 4: no domain follows another; before 5:
                                   every channel open at its full capacity) */
#define CORRAL__SAVE_MAX_WAITS (CORRAL_MAX_GROUP + 1u)
/* in the attach list of waits, beside a handle index: the entry is that
   generator's tie to its owner, not its waits (version 7) */
#define CORRAL__SAVE_TIE 0x80000000u

/* ---- the byte stream (corral__io, corral_internal.h): strings */

static void corral__put_str(corral__io *io, const char *str)
{
    size_t n = str ? strlen(str) : 0;
    if (n > 0xFFFF) n = 0xFFFF;
    corral__put_u(io, n, 2);
    corral__put_bytes(io, str, n);
}
/* a string: its bytes in the save (not terminated) and length */
static const char *corral__get_str(corral__io *io, uint32_t *len)
{
    *len = (uint32_t)corral__get_u(io, 2);
    return (const char *)corral__get_bytes(io, *len);
}
static uint64_t corral__fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}


/* A coroutine in a save is named by its handle's index (class << 24 |
   slot): the coroutine table lists them in ascending order, so a
   reference is checked by binary search. */
static uint32_t corral__ref_of(const corral_sched *s, uint32_t g) { return corral__save_ref(s, g); }

static const corral__type_entry *corral__entry(const corral_sched *s, const corral_co *co)
{
    return &corral__types(s)[co->type];
}

static bool corral__unsavable_due(corral__io *io, const corral_type *vt, const char *what, double due)
{
    snprintf(io->detail, sizeof io->detail, "a coroutine of type %s has a %s due at %g, past what a save holds",
             vt->name, what, due);
    return false;
}

/* Whether a coroutine can be saved; the detail says why not. */
static bool corral__savable(const corral_sched *s, const corral_co *co, corral__io *io)
{
    const corral__type_entry *te = corral__entry(s, co);
    const corral_type *vt = te->vt;
    if (!te->id) {
        snprintf(io->detail, sizeof io->detail, "type %s has no registry id (desc.registry)", vt->name);
        return false;
    }
    uint32_t n = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL;
    for (uint32_t i = 0; f && i < n; i++)
        if (f[i].kind == CORRAL_FIELD_POINTER) {
            snprintf(io->detail, sizeof io->detail, "type %s: field %s is a pointer", vt->name, f[i].name);
            return false;
        }
    if (corral__co_mode(s, co, corral__meta_of(s, co)) & CORRAL__MODE_OPEN) { /* its step builds a race: a save is outside steps */
        snprintf(io->detail, sizeof io->detail, "a coroutine of type %s is building a race", vt->name);
        return false;
    }
    if ((co->resume & CORRAL__POINT_MASK) > vt->point_count) {
        snprintf(io->detail, sizeof io->detail,
                 "a coroutine of type %s waits at an unnamed resume point (name it: DEFINE_COROUTINE_AT)", vt->name);
        return false;
    }
    const corral__meta *m = corral__meta_of(s, co);
    const corral__node *N = corral__nodes(s);
    /* its waits: predicates registered; no due time a load refuses (a frames
       wait past CORRAL__TIME_NEVER: the seconds saturate below it, API.md,
       "Clocks and their bounds") */
    const uint32_t dl = corral__deadline_of(s, co);
    for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) {
        const corral__wait_part *p = corral__node_part_of(s, N[i].kind);
        const char *why = NULL;
        if (p && p->savable && !p->savable(s, &N[i], &why)) {
            snprintf(io->detail, sizeof io->detail, "a coroutine of type %s %s", vt->name, why);
            return false;
        }
        if (corral__timer_node(&N[i]) && !corral__due_ok(N[i].u.t.due))
            return corral__unsavable_due(io, vt, "time wait", N[i].u.t.due);
    }
    corral__sleep_view sv;
    if (corral__sleep_view_of(s, co, &sv) && !corral__due_ok(sv.due)) return corral__unsavable_due(io, vt, "time wait", sv.due);
    if (dl != CORRAL__NIL && !corral__due_ok(N[dl].u.t.due))
        return corral__unsavable_due(io, vt, "stop deadline", N[dl].u.t.due);
    return true;
}

/* ---- writing */

/* heapsort of n 8-byte {u32 key, u32 value} entries at p, by key */
static void corral__sift(unsigned char *p, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t big = root, l = 2 * root + 1, r = l + 1;
        if (l < n && corral__le32(p + 8 * (size_t)l) > corral__le32(p + 8 * (size_t)big)) big = l;
        if (r < n && corral__le32(p + 8 * (size_t)r) > corral__le32(p + 8 * (size_t)big)) big = r;
        if (big == root) return;
        unsigned char t[8];
        memcpy(t, p + 8 * (size_t)root, 8);
        memcpy(p + 8 * (size_t)root, p + 8 * (size_t)big, 8);
        memcpy(p + 8 * (size_t)big, t, 8);
        root = big;
    }
}
static void corral__sort_pairs(unsigned char *p, uint32_t n)
{
    for (uint32_t i = n / 2; i-- > 0;) corral__sift(p, i, n);
    for (uint32_t end = n; end-- > 1;) {
        unsigned char t[8];
        memcpy(t, p, 8);
        memcpy(p, p + 8 * (size_t)end, 8);
        memcpy(p + 8 * (size_t)end, t, 8);
        corral__sift(p, 0, end);
    }
}

static void corral__save_fields(corral__io *io, const corral_type *vt)
{
    uint32_t n = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL;
    corral__put_u(io, f ? n : 0, 4);
    for (uint32_t i = 0; f && i < n; i++) {
        corral__put_str(io, f[i].name);
        corral__put_str(io, f[i].type_name);
        corral__put_u(io, f[i].offset, 4);
        corral__put_u(io, f[i].size, 4);
        corral__put_u(io, (uint64_t)f[i].kind, 1);
    }
}

/* the field of vt holding context offset off (for a call's destination) */

static void corral__save_co(corral__io *io, const corral_sched *s, const corral_co *co, uint32_t g)
{
    const corral__type_entry *te = corral__entry(s, co);
    const corral__meta *m = &corral__meta_table(s)[g];
    const corral__node *N = corral__nodes(s);
    corral__put_u(io, te->id, 4);
    corral__put_u(io, corral__state_saved(co->state), 1);
    corral__put_u(io, co->flags & (CORRAL__PHASE_MASK | CORRAL__CONTRACT_FLAGS), 1); /* its phase, and (version 3)
                                                                                   a first step still to come */
    corral__put_u(io, co->resume & CORRAL__POINT_MASK, 4); /* 0 or a named point's number (the line is this build's) */
    corral__put_u(io, corral__co_age(s, m), 4); /* 0 without timing */
    corral__put_u(io, corral__co_hold(co, m), 1);
    const corral__side *sd = corral__side_of(s, m);
    corral__put_u(io, sd->outcome, 1);
    corral__put_u(io, (uint8_t)sd->fired, 1);
    corral__put_u(io, corral__co_mode(s, co, m), 1);
    corral__put_u(io, corral__co_mode(s, co, m) == CORRAL__MODE_ONE ? 1u : sd->pending, 2); /* a single wait counts 1 */
    corral__put_u(io, sd->parent == CORRAL__NIL ? CORRAL__NIL : corral__ref_of(s, sd->parent), 4);
    corral__put_u(io, sd->child == CORRAL__NIL ? CORRAL__NIL : corral__ref_of(s, sd->child), 4);
    uint32_t delta = 0, dest_field = CORRAL__NIL;
    if (sd->dest != CORRAL__NIL) dest_field = corral__field_at(te->vt, sd->dest - te->ctx_off, &delta);
    corral__put_u(io, dest_field, 4);
    corral__put_u(io, delta, 4);
    /* groups: owner, tags, when it joined them */
    uint64_t owner = 0;
    uint32_t tags = 0, gorder = 0, by = CORRAL__NIL;
    for (uint32_t i = sd->groups; i != CORRAL__NIL; i = N[i].sibling) {
        if (N[i].kind == CORRAL__NODE_DEADLINE) continue; /* saved below */
        if (N[i].kind == CORRAL__NODE_OWNED) { /* saved below */
            by = corral__ref_of(s, N[i].u.t.target);
            continue;
        }
        if (N[i].kind == CORRAL__NODE_OWNER) owner = N[i].u.g.owner;
        else tags |= 1u << N[i].u.g.tag;
        gorder = N[i].order;
    }
    corral__put_u(io, owner, 8);
    corral__put_u(io, tags, 4);
    corral__put_u(io, gorder, 4);
    corral__put_u(io, corral__co_domain(s, m), 1);
    const uint8_t why = corral__co_stop_why(m);
    corral__put_u(io, ((why & CORRAL__STOP_REQUESTED) ? 1u : 0u) | ((why & CORRAL__WAIT_CLOSED) ? 2u : 0u) |
                          (why & CORRAL__GOT_MASK) << 1 | (by != CORRAL__NIL ? 16u : 0u),
                  1); /* version 5: and whether its last wait ended on a close; 7: what it gave (bits 2-3),
                         whether it belongs to a coroutine (bit 4) */
    const uint32_t dl = corral__deadline_of(s, co); /* a stop request's deadline: its due time on its domain's clock */
    corral__put_u(io, dl != CORRAL__NIL ? 1u : 0u, 1);
    corral__put_f64(io, dl != CORRAL__NIL ? N[dl].u.t.due : 0.0);
    corral__put_u(io, dl != CORRAL__NIL ? N[dl].u.t.seq : 0u, 4);
    if (by != CORRAL__NIL) corral__put_u(io, by, 4); /* version 7: the coroutine a generator belongs to */
    /* its wait nodes */
    uint32_t count = 0;
    corral__sleep_view sv;
    if (corral__sleep_view_of(s, co, &sv)) { /* a plain sleep: as the one timer node it stands for */
        corral__put_u(io, 1u, 1);
        corral__put_u(io, sv.kind, 1);
        corral__put_u(io, 0u, 1);
        corral__put_u(io, sv.held ? CORRAL__SW_HELD : 0u, 1);
        corral__put_u(io, sv.heap, 1);
        corral__put_u(io, 0u, 4); /* its order: a sleep is on no list */
        corral__put_f64(io, sv.due);
        corral__put_u(io, sv.seq, 4);
        corral__put_bytes(io, CORRAL__AT(co, te->ctx_off), te->ctx_size);
        return;
    }
    for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) count++;
    corral__put_u(io, count, 1);
    for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) {
        const corral__node *n = &N[i];
        corral__put_u(io, n->kind, 1);
        corral__put_u(io, n->member, 1);
        corral__put_u(io, n->kind == CORRAL__NODE_ARM ? 0u
                          : n->attached == 2 ? CORRAL__SW_HELD : n->attached == 0 ? CORRAL__SW_FIRED : 0u, 1);
        corral__put_u(io, n->list, 1);
        corral__put_u(io, n->order, 4);
        corral__node_part_of(s, n->kind)->save(io, s, te, n); /* a node's kind has a table */
    }
    corral__put_bytes(io, CORRAL__AT(co, te->ctx_off), te->ctx_size);
}

/* Where the next starts go (version 3): per class, per page its bump and
   its free list in order with each free slot's generation, the empty and
   partial page lists in order; per registered type the page it fills. A
   load takes these where they fit its scheduler, so the loaded game
   starts its next coroutines in the slots, with the handles, the saved
   one would have. */
static void corral__save_slots(const corral_sched *s, corral__io *io)
{
    corral__put_u(io, s->arena.class_count, 4);
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        const corral__page *P = corral__pages(s, c);
        corral__put_u(io, c->page_count, 4);
        for (uint32_t pi = 0; pi < c->page_count; pi++) {
            uint32_t k = 0, first = pi << c->page_shift;
            for (uint32_t l = P[pi].free_head; l != CORRAL__NIL && k <= P[pi].slots;
                 l = CORRAL__CO(s, corral__slot_off(c, l))->link)
                k++;
            corral__put_u(io, P[pi].bump, 2);
            corral__put_u(io, k, 2);
            for (uint32_t l = P[pi].free_head; l != CORRAL__NIL && k--; l = CORRAL__CO(s, corral__slot_off(c, l))->link) {
                corral__put_u(io, l - first, 2);
                corral__put_u(io, CORRAL__CO(s, corral__slot_off(c, l))->gen, 4);
            }
        }
        for (int list = 0; list < 2; list++) {
            uint32_t n = 0, head = list ? c->partial_head : c->empty_head;
            for (uint32_t pi = head; pi != CORRAL__NIL && n <= c->page_count; pi = P[pi].next) n++;
            corral__put_u(io, n, 4);
            for (uint32_t pi = head; pi != CORRAL__NIL && n--; pi = P[pi].next) corral__put_u(io, pi, 4);
        }
    }
    uint32_t n = 0;
    for (uint32_t t = 0; t < s->types.type_count; t++) n += corral__types(s)[t].id != 0;
    corral__put_u(io, n, 4);
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        const corral__type_entry *te = &corral__types(s)[t];
        if (!te->id) continue;
        corral__put_u(io, te->id, 4);
        corral__put_u(io, te->page, 4);
    }
}

static void corral__save_all(const corral_sched *s, corral__io *io)
{
    size_t head = io->at;
    corral__put_u(io, CORRAL__SAVE_MAGIC, 4);
    corral__put_u(io, CORRAL__SAVE_VERSION, 4);
    corral__put_u(io, 0, 8); /* size, below */
    corral__put_u(io, 0, 8); /* checksum of what follows, below */
    size_t body = io->at;
    corral__put_u(io, s->now.frame, 8);
    corral__put_u(io, s->now.frame_pos, 4);
    corral__put_f64(io, corral__domains_of(s)->d[0].time);
    corral__put_f64(io, s->now.unscaled_time);
    corral__put_f64(io, s->now.fixed_time);
    corral__put_f64(io, (double)corral__domains_of(s)->d[0].scale);
    corral__put_u(io, s->timers.seq, 4);
    corral__put_u(io, s->nodes.order, 4);
    /* the time domains past the game clock, and which are paused */
    corral__put_u(io, corral__domains_of(s)->count, 4);
    uint32_t paused = 0;
    for (uint32_t d = 0; d < corral__domains_of(s)->count; d++) {
        paused |= (corral__domains_of(s)->d[d].paused ? 1u : 0u) << d;
        if (d == 0) continue;
        corral__put_f64(io, corral__domains_of(s)->d[d].time);
        corral__put_f64(io, (double)corral__domains_of(s)->d[d].scale);
    }
    corral__put_u(io, paused, 4);
    for (uint32_t d = 1; d < corral__domains_of(s)->count; d++) corral__put_u(io, corral__domains_of(s)->d[d].parent, 1);
    /* the types of the live coroutines */
    uint32_t ntypes = 0;
    for (uint32_t t = 0; t < s->types.type_count; t++) ntypes += corral__types(s)[t].live > 0;
    corral__put_u(io, ntypes, 4);
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        const corral__type_entry *te = &corral__types(s)[t];
        if (!te->live) continue;
        corral__put_u(io, te->id, 4);
        corral__put_str(io, te->vt->name);
        corral__put_u(io, te->ctx_size, 4);
        corral__save_fields(io, te->vt);
        corral__put_u(io, te->vt->result_offset, 4);
        corral__put_u(io, te->vt->result_size, 4);
        corral__put_u(io, te->vt->point_count, 4);
        for (uint32_t k = 0; k < te->vt->point_count; k++) corral__put_str(io, te->vt->points[k]);
    }
    /* the pools, each its owner's section: signals, futures, channels (a
       row each, then their values), semaphores and wait groups; a pool
       whose module the game never used has no live item */
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        const corral__pool_part *part = corral__pool_part_of(s, p);
        if (part) part->save(io, s);
        else corral__put_u(io, 0, 4);
    }
    /* the coroutines: one record each in slot order, then a table of
       {index, gen, where its record starts} in the same (ascending) order */
    corral__put_u(io, s->arena.live, 4);
    size_t records = io->at;
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        for (uint32_t k = 0; k < c->capacity; k++) {
            const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (corral__state_alive(co->state)) corral__save_co(io, s, co, c->first + k);
        }
    }
    size_t at = records;
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        for (uint32_t k = 0; k < c->capacity; k++) {
            const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (!corral__state_alive(co->state)) continue;
            corral__put_u(io, ci << CORRAL__CLASS_SHIFT | k, 4);
            corral__put_u(io, co->gen, 4);
            corral__put_u(io, at - head, 4);
            corral__io m;
            memset(&m, 0, sizeof m);
            corral__save_co(&m, s, co, c->first + k); /* its size */
            at += m.at;
        }
    }
    /* the run order: each lane's queued coroutines, then the next-frame lanes' */
    const corral__lane *L = corral__lanes(s);
    for (int defer = 0; defer < 2; defer++) {
        uint32_t n = 0;
        for (int pass = 0; pass < 2; pass++) {
            if (pass) corral__put_u(io, n, 4);
            uint32_t from = defer ? s->run.defer_lane : 0, to = defer ? s->run.defer_lane + s->run.phases : s->run.defer_lane;
            for (uint32_t l = from; l < to; l++) {
                uint32_t c = L[l].head, j = 0;
                for (uint32_t off; (off = corral__lane_next(s, &L[l], &c, &j)) != CORRAL__NIL;) {
                    if (pass) corral__put_u(io, corral__ref_of(s, corral__global_of(s, CORRAL__CO(s, off))), 4);
                    else n++;
                }
            }
        }
    }
    /* the order waits, groups and generators' ties were taken in: {order,
       ref} sorted by order, so the loader re-attaches them in that order and
       every list (signal, future, join, predicate, group, an owner's
       joiners) keeps its order */
    for (int groups = 0; groups < 2; groups++) {
        uint32_t n = 0;
        size_t at0 = io->at + 4;
        for (int pass = 0; pass < 2; pass++) {
            if (pass) corral__put_u(io, n, 4);
            for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
                const corral__class *c = &s->arena.classes[ci];
                for (uint32_t k = 0; k < c->capacity; k++) {
                    const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
                    if (!corral__state_alive(co->state)) continue;
                    const corral__meta *m = &corral__meta_table(s)[c->first + k];
                    /* [0]: its waits, or its group nodes; [1]: its tie, among the waits */
                    uint32_t first = groups ? corral__side_of(s, m)->groups : corral__co_wait(s, co, m), order[2] = {UINT32_MAX, UINT32_MAX};
                    for (uint32_t i = first; i != CORRAL__NIL; i = corral__nodes(s)[i].sibling)
                        if (corral__nodes(s)[i].order < order[0] && corral__nodes(s)[i].kind != CORRAL__NODE_DEADLINE &&
                            corral__nodes(s)[i].kind != CORRAL__NODE_OWNED)
                            order[0] = corral__nodes(s)[i].order;
                    if (!groups)
                        for (uint32_t i = corral__side_of(s, m)->groups; i != CORRAL__NIL; i = corral__nodes(s)[i].sibling)
                            if (corral__nodes(s)[i].kind == CORRAL__NODE_OWNED) order[1] = corral__nodes(s)[i].order;
                    for (int e = 0; e < 2; e++) {
                        if (order[e] == UINT32_MAX) continue; /* none (a stop deadline is not a group) */
                        if (!pass) {
                            n++;
                            continue;
                        }
                        corral__put_u(io, order[e], 4);
                        corral__put_u(io, (ci << CORRAL__CLASS_SHIFT | k) | (e ? CORRAL__SAVE_TIE : 0u), 4);
                    }
                }
            }
        }
        if (io->w && io->at <= io->size) corral__sort_pairs(io->w + at0, n);
    }
    corral__save_slots(s, io);
    if (io->w && io->at <= io->size) {
        unsigned char *p = io->w + head;
        uint64_t size = io->at - head, sum = corral__fnv(io->w + body, io->at - body);
        for (unsigned i = 0; i < 8; i++) p[8 + i] = (unsigned char)(size >> (8 * i));
        for (unsigned i = 0; i < 8; i++) p[16 + i] = (unsigned char)(sum >> (8 * i));
    }
}

size_t corral_save(const corral_sched *s, void *buf, size_t size)
{
    if (!corral__check(s) || !corral__between_ticks(__func__, s)) return 0;
    corral__io io;
    memset(&io, 0, sizeof io);
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        for (uint32_t k = 0; k < c->capacity; k++) {
            const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (corral__state_alive(co->state) && !corral__savable(s, co, &io)) {
                corral__fail_at(s, NULL, CORRAL_ERR_UNSAVABLE, __func__, corral__handle_of(s, co), NULL, io.detail);
                return 0;
            }
        }
    }
    corral__save_all(s, &io); /* measure */
    if (!buf) return io.at;
    if (io.at > size) {
        corral__fail_at(s, NULL, CORRAL_ERR_SNAPSHOT_TOO_SMALL, __func__, CORRAL__NOH, NULL, NULL);
        return 0;
    }
    size_t need = io.at;
    memset(&io, 0, sizeof io);
    io.w = (unsigned char *)buf;
    io.size = size;
    corral__save_all(s, &io);
    return need;
}

/* ---- loading */

#define CORRAL__LOAD_MAX_TYPES 128u

/* a saved type, matched with this build's */
typedef struct corral__load_type {
    uint32_t id, ti;  /* registry id; this scheduler's type index */
    uint32_t cls;     /* the class its saved coroutines are in, NIL: none seen */
    uint32_t ctx_size, nfields, npoints, result_off, result_size;
    size_t fields_at, points_at; /* in the save */
} corral__load_type;


typedef struct corral__saved_co {
    uint32_t type; /* index in the loader's type table */
    uint8_t state, phase, contract, hold, outcome, fired, mode, domain, stop_requested, has_deadline;
    double deadline;
    uint32_t deadline_seq;
    uint16_t pending;
    uint32_t point, age, parent, child, dest_field, delta, tags, gorder;
    uint32_t by; /* the coroutine a generator belongs to, NIL */
    uint64_t owner;
    uint32_t nwaits;
    corral__lwait w[CORRAL__SAVE_MAX_WAITS];
    size_t ctx_at;
} corral__saved_co;
/* a loaded coroutine's own links need a side record (its groups, deadline
   and joiners take one on their way) */
static bool corral__saved_co_needs_side(const corral__saved_co *c)
{
    return c->parent != CORRAL__NIL || c->child != CORRAL__NIL || c->dest_field != CORRAL__NIL ||
           c->outcome != CORRAL_END_NONE || c->fired != 0xFF ||
           (c->mode != CORRAL__MODE_NONE && c->mode != CORRAL__MODE_ONE) || c->domain != 0;
}

typedef struct corral__loader {
    corral_sched *s;
    corral__io io;
    uint64_t frame;
    uint32_t frame_pos, timer_seq, node_order;
    double time, unscaled, fixed, scale;
    uint32_t version, domains, paused;
    double dtime[CORRAL_MAX_DOMAINS], dscale[CORRAL_MAX_DOMAINS];
    uint32_t dparent[CORRAL_MAX_DOMAINS]; /* version 4: each domain's parent field */
    uint32_t ntypes;
    corral__load_type t[CORRAL__LOAD_MAX_TYPES];
    uint32_t nrows[CORRAL__POOL_COUNT]; /* each pool's saved items, and where their rows start */
    size_t rows_at[CORRAL__POOL_COUNT];
    uint32_t nco, nrun, ndefer, nwait_order, ngroup_order;
    size_t rec_at, table_at, run_at, defer_at, wait_order_at, group_order_at, slots_at;
} corral__loader;

static bool corral__load_fail(corral__loader *L, const char *fmt, const char *a, const char *b)
{
    if (!L->io.bad) {
        snprintf(L->io.detail, sizeof L->io.detail, fmt, a ? a : "", b ? b : "");
        L->io.why = L->io.detail;
    }
    L->io.bad = true;
    return false;
}

static uint32_t corral__load_type_of(const corral__loader *L, uint32_t id)
{
    for (uint32_t i = 0; i < L->ntypes; i++)
        if (L->t[i].id == id) return i;
    return CORRAL__NIL;
}

/* the table entry of coroutine `index`: its position, or NIL */
static uint32_t corral__load_position(const corral__loader *L, uint32_t index)
{
    uint32_t lo = 0, hi = L->nco;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, v = corral__le32(L->io.r + L->table_at + 12 * (size_t)mid);
        if (v == index) return mid;
        if (v < index) lo = mid + 1;
        else hi = mid;
    }
    return CORRAL__NIL;
}

static void corral__load_read_co(corral__loader *L, corral__saved_co *c)
{
    corral__io *io = &L->io;
    memset(c, 0, sizeof *c);
    c->type = corral__load_type_of(L, (uint32_t)corral__get_u(io, 4));
    c->state = (uint8_t)corral__get_u(io, 1);
    c->phase = (uint8_t)corral__get_u(io, 1);
    c->contract = L->version >= 3 ? (uint8_t)(c->phase & ~CORRAL__PHASE_MASK) : 0u;
    c->phase = L->version >= 3 ? (uint8_t)(c->phase & CORRAL__PHASE_MASK) : c->phase;
    c->point = (uint32_t)corral__get_u(io, 4);
    c->age = (uint32_t)corral__get_u(io, 4);
    c->hold = (uint8_t)corral__get_u(io, 1);
    c->outcome = (uint8_t)corral__get_u(io, 1);
    c->fired = (uint8_t)corral__get_u(io, 1);
    c->mode = (uint8_t)corral__get_u(io, 1);
    c->pending = (uint16_t)corral__get_u(io, 2);
    c->parent = (uint32_t)corral__get_u(io, 4);
    c->child = (uint32_t)corral__get_u(io, 4);
    c->dest_field = (uint32_t)corral__get_u(io, 4);
    c->delta = (uint32_t)corral__get_u(io, 4);
    c->owner = corral__get_u(io, 8);
    c->tags = (uint32_t)corral__get_u(io, 4);
    c->gorder = (uint32_t)corral__get_u(io, 4);
    c->domain = L->version >= 2 ? (uint8_t)corral__get_u(io, 1) : 0;
    c->stop_requested = L->version >= 2 ? (uint8_t)corral__get_u(io, 1) : 0;
    if (L->version >= 2) {
        c->has_deadline = (uint8_t)corral__get_u(io, 1);
        c->deadline = corral__get_f64(io);
        c->deadline_seq = (uint32_t)corral__get_u(io, 4);
    }
    c->by = L->version >= 7 && (c->stop_requested & 16u) ? (uint32_t)corral__get_u(io, 4) : CORRAL__NIL;
    c->nwaits = (uint32_t)corral__get_u(io, 1);
    if (c->nwaits > CORRAL__SAVE_MAX_WAITS) {
        corral__io_fail(io, "a coroutine has too many wait nodes");
        return;
    }
    /* its links need the parts that own them (its waits: each kind's, below) */
    const void *const *F = L->s->parts.feature;
    const char *no = (c->owner || c->tags || c->has_deadline) && !F[CORRAL__FEATURE_GROUPS]
                         ? "a coroutine has an owner, tags or a stop deadline: it needs corral_part_groups in desc.parts"
                     : (c->parent != CORRAL__NIL || c->child != CORRAL__NIL) && !F[CORRAL__FEATURE_CALLS]
                         ? "a coroutine calls or is called: it needs corral_part_calls in desc.parts"
                     : ((c->hold & CORRAL__HOLD_GENERATOR) || c->by != CORRAL__NIL) && !F[CORRAL__FEATURE_PULLS]
                         ? "a coroutine is a generator: it needs corral_part_pulls in desc.parts"
                     : (c->mode == CORRAL__MODE_RACE || c->mode == CORRAL__MODE_SYNC) && !F[CORRAL__FEATURE_RACES]
                         ? "a coroutine races or syncs: it needs corral_part_races in desc.parts"
                         : NULL;
    if (no) {
        corral__io_fail(io, no);
        return;
    }
    for (uint32_t i = 0; i < c->nwaits && !io->bad; i++) {
        corral__lwait *w = &c->w[i];
        w->kind = (uint8_t)corral__get_u(io, 1);
        w->member = (uint8_t)corral__get_u(io, 1);
        w->flags = (uint8_t)corral__get_u(io, 1);
        w->list = (uint8_t)corral__get_u(io, 1);
        if (L->version < 2 && corral__kind_is(w->kind, CORRAL__HOW_POLL) && w->list >= CORRAL__PH_COUNT)
            w->list = (uint8_t)(w->list + CORRAL__PH_MAX - CORRAL__PH_COUNT); /* version 1: four phases */
        w->order = (uint32_t)corral__get_u(io, 4);
        const corral__wait_part *p = corral__node_part_of(L->s, w->kind);
        if (!p && corral__kind_of_a_part(w->kind) && !io->bad) { /* a kind of a part this scheduler has not */
            snprintf(io->detail, sizeof io->detail, "a coroutine's wait needs corral_part_%s in desc.parts",
                     corral__part_of_kind(w->kind));
            corral__io_fail(io, io->detail);
            return;
        }
        if (!p || !p->read) {
            corral__io_fail(io, "a wait node of a kind that takes no node");
            return;
        }
        p->read(io, w);
    }
    c->ctx_at = io->at;
    if (c->type == CORRAL__NIL) {
        corral__io_fail(io, "a coroutine names a type the save does not list");
        return;
    }
    corral__get_bytes(io, L->t[c->type].ctx_size);
}

/* the header, the types, the wake pools: read and checked */
static bool corral__load_read_head(corral__loader *L)
{
    corral__io *io = &L->io;
    corral_sched *s = L->s;
    if (io->size < 24 || corral__get_u(io, 4) != CORRAL__SAVE_MAGIC)
        return corral__load_fail(L, "not a corral save%s%s", NULL, NULL);
    L->version = (uint32_t)corral__get_u(io, 4);
    if (L->version < 1 || L->version > CORRAL__SAVE_VERSION)
        return corral__load_fail(L, "a save format this build does not read%s%s", NULL, NULL);
    io->version = L->version;
    uint64_t size = corral__get_u(io, 8), sum = corral__get_u(io, 8);
    if (size != io->size) return corral__load_fail(L, "the save's size is not the size given%s%s", NULL, NULL);
    if (corral__fnv(io->r + 24, io->size - 24) != sum) return corral__load_fail(L, "the save is damaged (checksum)%s%s", NULL, NULL);
    L->frame = corral__get_u(io, 8);
    L->frame_pos = (uint32_t)corral__get_u(io, 4);
    L->time = corral__get_f64(io);
    L->unscaled = corral__get_f64(io);
    L->fixed = corral__get_f64(io);
    L->scale = corral__get_f64(io);
    L->timer_seq = (uint32_t)corral__get_u(io, 4);
    L->node_order = (uint32_t)corral__get_u(io, 4);
    L->domains = 1;
    L->paused = 0;
    if (L->version >= 2) {
        L->domains = (uint32_t)corral__get_u(io, 4);
        if (L->domains == 0 || L->domains > corral__domains_of(s)->count)
            return corral__load_fail(L, "the save has more time domains than this scheduler (desc.domains)%s%s", NULL, NULL);
        for (uint32_t d = 1; d < L->domains; d++) {
            L->dtime[d] = corral__get_f64(io);
            L->dscale[d] = corral__get_f64(io);
            if (!corral__clock_ok(L->dtime[d], L->dscale[d]))
                return corral__load_fail(L, "the save's clocks are out of range%s%s", NULL, NULL);
        }
        L->paused = (uint32_t)corral__get_u(io, 4);
        if (L->paused >> L->domains) return corral__load_fail(L, "the save pauses a time domain it does not have%s%s", NULL, NULL);
        for (uint32_t d = 1; d < L->domains && L->version >= 4; d++) {
            L->dparent[d] = (uint32_t)corral__get_u(io, 1);
            if (!corral__domain_parent_ok(d, L->dparent[d]))
                return corral__load_fail(L, "a time domain of the save follows one not numbered before it%s%s", NULL, NULL);
        }
    }
    if (L->frame_pos > 1u + CORRAL__PH_END || !corral__clocks_ok(L->time, L->unscaled, L->fixed) ||
        !corral__clock_ok(L->time, L->scale))
        return corral__load_fail(L, "the save's clocks are out of range%s%s", NULL, NULL);
    L->ntypes = (uint32_t)corral__get_u(io, 4);
    if (L->ntypes > CORRAL__LOAD_MAX_TYPES) return corral__load_fail(L, "the save lists too many types%s%s", NULL, NULL);
    for (uint32_t i = 0; i < L->ntypes && !io->bad; i++) {
        corral__load_type *t = &L->t[i];
        t->id = (uint32_t)corral__get_u(io, 4);
        uint32_t nlen;
        const char *name = corral__get_str(io, &nlen);
        char tname[64];
        snprintf(tname, sizeof tname, "%.*s", (int)(nlen < 63 ? nlen : 63), name ? name : "");
        t->ctx_size = (uint32_t)corral__get_u(io, 4);
        t->nfields = (uint32_t)corral__get_u(io, 4);
        t->fields_at = io->at;
        if (io->bad) break;
        t->ti = CORRAL__NIL;
        t->cls = CORRAL__NIL;
        for (uint32_t k = 0; k < s->types.type_count; k++)
            if (t->id && corral__types(s)[k].id == t->id) t->ti = k;
        for (uint32_t j = 0; j < i; j++)
            if (L->t[j].id == t->id) return corral__load_fail(L, "the save lists type %s twice%s", tname, NULL);
        if (t->ti == CORRAL__NIL) return corral__load_fail(L, "type %s: its id is in no registry of this build%s", tname, NULL);
        /* a type is its name and its fields, not its id alone: another
           game's type under the same id is not this one */
        if (!corral__type_follows(corral__types(s)[t->ti].vt, name, nlen))
            return corral__load_fail(L, "type %s: its id names another type in this build (%s)", tname,
                                 corral__types(s)[t->ti].vt->name);
        if (t->ctx_size > CORRAL_MAX_CONTEXT_SIZE || t->nfields > t->ctx_size + 1u)
            return corral__load_fail(L, "type %s: its context or fields are out of range%s", tname, NULL);
        const corral_type *vt = corral__types(s)[t->ti].vt;
        for (uint32_t f = 0; f < t->nfields && !io->bad; f++) {
            uint32_t fl, tl;
            const char *fname = corral__get_str(io, &fl);
            const char *ftype = corral__get_str(io, &tl);
            uint32_t off = (uint32_t)corral__get_u(io, 4), fsize = (uint32_t)corral__get_u(io, 4);
            uint8_t kind = (uint8_t)corral__get_u(io, 1);
            if (io->bad) break;
            char fn[64];
            snprintf(fn, sizeof fn, "%.*s", (int)(fl < 63 ? fl : 63), fname);
            if (off > t->ctx_size || fsize > t->ctx_size - off || kind >= CORRAL_FIELD_KIND_COUNT)
                return corral__load_fail(L, "type %s: field %s lies outside its context", tname, fn);
            const corral_field *nf = corral__field_named(vt, fname, fl);
            if (nf && !corral__field_fits(nf, kind, fsize, ftype, tl))
                return corral__load_fail(L, "type %s: field %s changed its kind or narrowed", tname, fn);
        }
        t->result_off = (uint32_t)corral__get_u(io, 4);
        t->result_size = (uint32_t)corral__get_u(io, 4);
        if (t->result_size > t->ctx_size || t->result_off > t->ctx_size - t->result_size)
            return corral__load_fail(L, "type %s: its result lies outside its context%s", tname, NULL);
        t->npoints = (uint32_t)corral__get_u(io, 4);
        t->points_at = io->at;
        if (t->npoints >= CORRAL__AUTO_POINTS) return corral__load_fail(L, "type %s: too many resume points%s", tname, NULL);
        for (uint32_t k = 0; k < t->npoints && !io->bad; k++) {
            uint32_t pl;
            corral__get_str(io, &pl);
        }
    }
    if (io->bad) return false;
    /* the pools' sections (version 1: signals and futures only) */
    for (uint32_t p = 0; p < (L->version >= 2 ? (uint32_t)CORRAL__POOL_COUNT : 2u) && !io->bad; p++) {
        const unsigned char *count = io->at + 4 <= io->size ? io->r + io->at : NULL;
        const corral__pool_part *part = corral__pool_part_of(s, p);
        if (!part) { /* a part this scheduler has not: an empty section */
            static const char items[CORRAL__POOL_COUNT][28] = {"signals", "futures", "channels",
                                                               "semaphores or wait groups"};
            if (count && corral__le32(count))
                return corral__load_fail(L, "the save holds %s: it needs corral_part_%s in desc.parts", items[p],
                                         corral__part_of_pool(p));
            corral__get_u(io, 4);
            continue;
        }
        const char *why = part->read(io, s, &L->nrows[p], &L->rows_at[p]);
        if (why) return corral__load_fail(L, why, NULL, NULL);
    }
    L->nco = (uint32_t)corral__get_u(io, 4);
    L->rec_at = io->at;
    if (!io->bad && L->nco > s->arena.total_slots)
        return corral__load_fail(L, "the save holds more coroutines than this scheduler has slots%s%s", NULL, NULL);
    return !io->bad;
}

/* the name of saved point p (1 .. npoints) of saved type t, or NULL */
static const char *corral__load_point_name(const corral__loader *L, const corral__load_type *t, uint32_t p, uint32_t *len)
{
    if (p == 0 || p > t->npoints) return NULL;
    corral__io io = L->io;
    io.at = t->points_at;
    const char *name = NULL;
    for (uint32_t k = 0; k < p; k++) name = corral__get_str(&io, len);
    return name;
}

/* the point number in this build of saved point p of saved type t (0: the start) */
static uint32_t corral__load_point(corral__loader *L, const corral__load_type *t, uint32_t p, bool *ok)
{
    *ok = true;
    if (p == 0) return 0;
    uint32_t len = 0;
    const char *name = corral__load_point_name(L, t, p, &len);
    const corral_type *vt = corral__types(L->s)[t->ti].vt;
    for (uint32_t k = 0; name && k < vt->point_count; k++)
        if (corral__str_is(name, len, vt->points[k])) return k + 1;
    *ok = false;
    return 0;
}

/* the saved field dest_field of type t: this build's context offset, or
   NIL; *room (when asked): the bytes of that field from there on */
static uint32_t corral__load_dest_room(const corral__loader *L, const corral__load_type *t, uint32_t dest_field, uint32_t delta,
                                   uint32_t *room)
{
    const corral_type *vt = corral__types(L->s)[t->ti].vt;
    if (room) *room = 0;
    if (dest_field == 0xFFFFFFFEu) {
        if (!vt->result_size || delta >= vt->result_size) return CORRAL__NIL;
        if (room) *room = vt->result_size - delta;
        return vt->result_offset + delta;
    }
    if (dest_field >= t->nfields) return CORRAL__NIL;
    corral__io io = L->io;
    io.at = t->fields_at;
    for (uint32_t f = 0; f <= dest_field; f++) {
        uint32_t fl, tl;
        const char *fname = corral__get_str(&io, &fl);
        corral__get_str(&io, &tl);
        uint32_t off = (uint32_t)corral__get_u(&io, 4), size = (uint32_t)corral__get_u(&io, 4);
        corral__get_u(&io, 1);
        (void)off;
        if (f < dest_field) continue;
        const corral_field *nf = corral__field_named(vt, fname, fl);
        if (!nf || delta >= size || delta >= nf->size) return CORRAL__NIL;
        if (room) *room = nf->size - delta;
        return nf->offset + delta;
    }
    return CORRAL__NIL;
}
static uint32_t corral__load_dest(corral__loader *L, const corral__load_type *t, uint32_t dest_field, uint32_t delta)
{
    return corral__load_dest_room(L, t, dest_field, delta, NULL);
}

/* the saved coroutine `index`'s type, as the loader numbers the saved
   ones, or NIL: no such coroutine */
static uint32_t corral__load_saved_type(const corral__loader *L, uint32_t index)
{
    const uint32_t pos = corral__load_position(L, index);
    if (pos == CORRAL__NIL) return CORRAL__NIL;
    const size_t rec = corral__le32(L->io.r + L->table_at + 12 * (size_t)pos + 8);
    if (rec > L->io.size || L->io.size - rec < 4) return CORRAL__NIL;
    return corral__load_type_of(L, corral__le32(L->io.r + rec));
}

/* the result size, in this build, of the saved coroutine `index`'s type
   (0: none, or no such coroutine) */
static uint32_t corral__load_result_size(corral__loader *L, uint32_t index)
{
    const uint32_t t = corral__load_saved_type(L, index);
    return t == CORRAL__NIL ? 0 : corral__types(L->s)[L->t[t].ti].vt->result_size;
}

/* a call's or an arm's destination: in this build's field, with room for
   the child's whole result (else its end would write past it) */
static bool corral__load_dest_fits(corral__loader *L, const corral__load_type *t, uint32_t dest_field, uint32_t delta,
                               uint32_t child)
{
    uint32_t room;
    if (corral__load_dest_room(L, t, dest_field, delta, &room) == CORRAL__NIL) return false;
    return child == CORRAL__NIL || corral__load_result_size(L, child) <= room;
}

/* retired, or retired once the load ends what runs there (its last generation) */
static bool corral__will_retire(const corral_co *co)
{
    return co->state == CORRAL__RETIRED || (corral__state_alive(co->state) && co->gen == UINT32_MAX);
}

static void corral__load_record(corral__loader *L, uint32_t i, corral__saved_co *c, uint32_t *index);

/* c's child after `after` (NIL: its first): a call's child, or its race's
   or sync's running arms in arm order; NIL when there is none */
static uint32_t corral__load_child(const corral__loader *L, const corral__saved_co *c, uint32_t after)
{
    (void)L;
    if (c->mode != CORRAL__MODE_RACE && c->mode != CORRAL__MODE_SYNC)
        return after == CORRAL__NIL ? c->child : CORRAL__NIL;
    bool past = after == CORRAL__NIL;
    for (uint32_t w = 0; w < c->nwaits; w++) {
        if (c->w[w].kind != CORRAL__NODE_ARM || c->w[w].ref == CORRAL__NIL) continue;
        if (past) return c->w[w].ref;
        past = c->w[w].ref == after;
    }
    return CORRAL__NIL;
}

/* the coroutine records, the table and the order lists: checked */
/* ---- what the kinds' tables ask of the load (corral__lview) */
static corral_co *corral__co_at_index(corral_sched *s, uint32_t index, uint32_t *global);
static uint32_t corral__load_view_find(const void *L, uint32_t ref) { return corral__load_position((const corral__loader *)L, ref); }
/* the saved item of a pool at index: its row, found by binary search in
   its section (rows ascend by index) */
static const unsigned char *corral__load_view_item(const void *Lp, uint32_t pool, uint32_t index)
{
    const corral__loader *L = (const corral__loader *)Lp;
    const corral__pool_part *part = corral__pool_part_of(L->s, pool);
    if (!part) return NULL;
    const size_t stride = L->version <= 4 && part->row4 ? part->row4 : part->row;
    uint32_t lo = 0, hi = L->nrows[pool];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, v = corral__le32(L->io.r + L->rows_at[pool] + stride * mid);
        if (v == index) return L->io.r + L->rows_at[pool] + stride * mid;
        if (v < index) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}
static uint32_t corral__load_view_dest(const void *L, uint32_t type, uint32_t field, uint32_t delta)
{
    const corral__loader *l = (const corral__loader *)L;
    return corral__load_dest_room(l, &l->t[type], field, delta, NULL);
}
static uint32_t corral__load_view_slot(const void *L, uint32_t ref)
{
    uint32_t g;
    corral__co_at_index(((const corral__loader *)L)->s, ref, &g);
    return g;
}
static uint32_t corral__load_view_place(const void *Lp, uint32_t ref, uint32_t field, uint32_t delta)
{
    const corral__loader *L = (const corral__loader *)Lp;
    const uint32_t t = corral__load_saved_type(L, ref);
    const uint32_t at = t == CORRAL__NIL ? CORRAL__NIL : corral__load_dest_room(L, &L->t[t], field, delta, NULL);
    return at == CORRAL__NIL ? CORRAL__NIL : corral__types(L->s)[L->t[t].ti].ctx_off + at;
}
static corral__lview corral__load_view_of(const corral__loader *L, uint32_t self, uint32_t type, uint32_t domain,
                                      const char **what)
{
    corral__lview v = {L,
                       L->s,
                       self,
                       type,
                       &corral__types(L->s)[L->t[type].ti],
                       domain,
                       L->domains,
                       L->version,
                       corral__load_view_find,
                       corral__load_view_item,
                       corral__load_view_dest,
                       corral__load_view_slot,
                       corral__load_view_place,
                       what};
    return v;
}

/* Each saved pool item's rules that hang on its waiters (corral_verify's:
   a channel's senders and receivers never both wait), once the waits the
   load puts on its lists are known. A window of rows at a time, a byte
   each (bit l: list l gets a waiter), with a walk over the records for
   each window: one walk for a game's channels up to 1024 of them. */
static bool corral__load_check_items(corral__loader *L)
{
    enum { WINDOW = 1024 };
    unsigned char lists[WINDOW];
    corral__saved_co c;
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++) {
        const corral__pool_part *part = corral__pool_part_of(L->s, p);
        if (!part || !part->check) continue;
        const size_t stride = L->version <= 4 && part->row4 ? part->row4 : part->row;
        const unsigned char *rows = L->io.r + L->rows_at[p];
        for (uint32_t lo = 0; lo < L->nrows[p]; lo += WINDOW) {
            const uint32_t hi = L->nrows[p] - lo < WINDOW ? L->nrows[p] : lo + WINDOW;
            memset(lists, 0, hi - lo);
            for (uint32_t i = 0; i < L->nco; i++) {
                uint32_t index;
                corral__load_record(L, i, &c, &index);
                for (uint32_t w = 0; w < c.nwaits; w++) {
                    if (c.w[w].flags != 0) continue; /* fired (in an all): on no list */
                    for (uint32_t l = 0; l < part->lists; l++) {
                        if (c.w[w].kind != part->list[l].kind && c.w[w].kind != part->list[l].kind2) continue;
                        const unsigned char *row = corral__load_view_item(L, p, c.w[w].ref); /* checked: it is there */
                        const size_t r = row ? (size_t)(row - rows) / stride : SIZE_MAX;
                        if (r >= lo && r < hi) lists[r - lo] |= (unsigned char)(1u << l);
                    }
                }
            }
            for (uint32_t r = lo; r < hi; r++) {
                const char *why = part->check(L->s, L->version, rows + stride * r, lists[r - lo]);
                if (why) return corral__load_fail(L, "the save breaks a rule of corral_verify: %s%s", why, NULL);
            }
        }
    }
    return true;
}

/* A coroutine's slot this scheduler does not have: the first, and the
   capacity that holds every slot the save names in its class, before
   the rule (docs/API.md, "Save games"), which is what a long type name
   cuts from corral_last_error_detail */
static bool corral__load_slot_missing(corral__loader *L, const char *tn, uint32_t cls, uint32_t local, uint32_t gen)
{
    const corral_sched *s = L->s;
    char why[256];
    if (cls >= s->arena.class_count) {
        snprintf(why, sizeof why, "a coroutine of type '%s' is in slot %u of class %u, a class this scheduler does not have "
                 "(it has %u): a save loads where each class holds every slot it names", tn, local, cls, s->arena.class_count);
    } else if (gen == 0) {
        snprintf(why, sizeof why, "a coroutine of type '%s' in slot %u of class %u has generation 0, which no handle has",
                 tn, local, cls);
    } else { /* the capacity for the class's last slot in the save; a registry's budgets are added to the desc's */
        const corral__class *c = &s->arena.classes[cls];
        uint32_t last = local, budgets = 0;
        for (uint32_t i = 0; i < L->nco; i++) { /* the table's bytes were checked to be there */
            const uint32_t index = corral__le32(L->io.r + L->table_at + 12 * (size_t)i);
            if (index >> CORRAL__CLASS_SHIFT == cls && (index & CORRAL__LOCAL_MASK) > last) last = index & CORRAL__LOCAL_MASK;
        }
        for (uint32_t t = 0; t < s->types.type_count; t++)
            if (corral__types(s)[t].cls == cls) budgets += corral__types(s)[t].budget;
        snprintf(why, sizeof why, "a coroutine of type '%s' is in slot %u of class %u (%u B slots), which holds %u here "
                 "(needs desc.classes[%u].capacity >= %u%s): a save loads where each class holds every slot it names", tn,
                 local, cls, c->slot_size, c->capacity, cls, last + 1 - budgets,
                 budgets ? ", plus the registry's budgets" : "");
    }
    return corral__load_fail(L, "%s%s", why, NULL);
}

/* The sections after the records: the records' extent, the table, the
   order lists and the slots (where the next starts go), each found and
   read through; nothing past them, no order list longer than the
   coroutines */
static bool corral__load_find_sections(corral__loader *L)
{
    corral__io *io = &L->io;
    static const char *const none = NULL;
    io->at = L->rec_at;
    corral__saved_co c;
    for (uint32_t i = 0; i < L->nco && !io->bad; i++) corral__load_read_co(L, &c);
    if (io->bad) return false;
    L->table_at = io->at;
    if (!corral__get_bytes(io, 12 * (size_t)L->nco)) return false;
    L->nrun = (uint32_t)corral__get_u(io, 4);
    L->run_at = io->at;
    corral__get_bytes(io, 4 * (size_t)L->nrun);
    L->ndefer = (uint32_t)corral__get_u(io, 4);
    L->defer_at = io->at;
    corral__get_bytes(io, 4 * (size_t)L->ndefer);
    L->nwait_order = (uint32_t)corral__get_u(io, 4);
    L->wait_order_at = io->at;
    corral__get_bytes(io, 8 * (size_t)L->nwait_order);
    L->ngroup_order = (uint32_t)corral__get_u(io, 4);
    L->group_order_at = io->at;
    corral__get_bytes(io, 8 * (size_t)L->ngroup_order);
    L->slots_at = 0;
    if (L->version == CORRAL__SAVE_VERSION && io->at == io->size) /* only an older version's may end before it */
        return corral__load_fail(L, "the save ends before its last section, where the next starts go (slots)%s%s", none,
                             none);
    if (L->version >= 3 && io->at < io->size) { /* where the next starts go: read through here, taken where it
                                                  fits (corral__load_slots) */
        L->slots_at = io->at;
        uint32_t nclass = (uint32_t)corral__get_u(io, 4);
        if (nclass > CORRAL_MAX_CLASSES) return corral__load_fail(L, "the save's slot section is malformed%s%s", none, none);
        for (uint32_t ci = 0; ci < nclass && !io->bad; ci++) {
            uint32_t pages = (uint32_t)corral__get_u(io, 4);
            if (pages > CORRAL__LOCAL_MASK) return corral__load_fail(L, "the save's slot section is malformed%s%s", none, none);
            for (uint32_t pi = 0; pi < pages && !io->bad; pi++) {
                corral__get_u(io, 2);
                corral__get_bytes(io, 6 * (size_t)corral__get_u(io, 2));
            }
            for (int list = 0; list < 2 && !io->bad; list++) corral__get_bytes(io, 4 * (size_t)corral__get_u(io, 4));
        }
        corral__get_bytes(io, 8 * (size_t)corral__get_u(io, 4));
    }
    if (io->bad) return false;
    if (io->at != io->size) return corral__load_fail(L, "the save has bytes past its end%s%s", none, none);
    if (L->nrun > L->nco || L->ndefer > L->nco || L->nwait_order > 2 * (size_t)L->nco ||
        L->ngroup_order > L->nco)
        return corral__load_fail(L, "an order list is longer than the coroutines%s%s", none, none);
    return true;
}

/* what the saved coroutines take of this scheduler, counted as their
   records are checked */
typedef struct corral__load_tally {
    uint32_t per_class[CORRAL_MAX_CLASSES], per_type[CORRAL__LOAD_MAX_TYPES];
    uint32_t wait_nodes, group_nodes, sides, joins, sleeps;
} corral__load_tally;

/* its wait loads as a plain sleep (timers.c) while the store has room for
   one: one frames, seconds or realtime wait of its own, not fired, no
   call's and no all/any's */
static bool corral__saved_sleeps(const corral__saved_co *c)
{
    const uint8_t k = c->nwaits == 1 ? c->w[0].kind : (uint8_t)CORRAL_WAIT_KIND_COUNT;
    return (k == CORRAL_WAIT_FRAMES || k == CORRAL_WAIT_SECONDS || k == CORRAL_WAIT_REALTIME) && c->w[0].member == 0 &&
           c->w[0].flags != CORRAL__SW_FIRED && c->child == CORRAL__NIL && c->mode <= CORRAL__MODE_ONE;
}

/* a record's slot (class cls, slot local, generation gen): one this
   scheduler has, not retired, in a class that holds its type (the type's
   own, or one a hot reload kept it in: then without a budget and always
   that one) */
static bool corral__load_check_slot(corral__loader *L, corral__load_type *t, const char *tn, uint32_t cls,
                                    uint32_t local, uint32_t gen)
{
    const corral_sched *s = L->s;
    static const char *const none = NULL;
    const corral__type_entry *te = &corral__types(s)[t->ti];
    if (cls >= s->arena.class_count || local >= s->arena.classes[cls].capacity || gen == 0)
        return corral__load_slot_missing(L, tn, cls, local, gen);
    /* another class than this build's: where a hot reload kept a type
       that shrank; the load keeps it there, if it fits and has no budget */
    if (t->cls != CORRAL__NIL && cls != t->cls)
        return corral__load_fail(L, "type %s is saved in two size classes%s", tn, none);
    if (cls != te->cls && te->budget)
        return corral__load_fail(L, "type %s has a budget and is saved in another size class than this build's%s", tn,
                             none);
    if (cls != te->cls && !corral__slot_holds(s->arena.classes[cls].slot_size, te->vt)) {
        char why[200];
        snprintf(why, sizeof why, "type %%s is saved in %u-byte slots, too small for it in this build (%u bytes "
                 "with its context): give that class more room (desc.classes)%%s",
                 (unsigned)s->arena.classes[cls].slot_size, (unsigned)(te->vt->ctx_offset + te->vt->ctx_size));
        return corral__load_fail(L, why, tn, none);
    }
    t->cls = cls;
    const corral__class *k = &s->arena.classes[cls];
    if (corral__will_retire(CORRAL__CO(s, corral__slot_off(k, local))))
        return corral__load_fail(L, "a coroutine of type %s names a retired slot%s", tn, none);
    return true;
}

/* a record's own fields: a state a save holds, every field in range, a
   generator held as only a generator is, its resume point in this build */
static bool corral__load_check_fields(corral__loader *L, const corral__saved_co *c, const corral__load_type *t,
                                      const char *tn)
{
    const corral_sched *s = L->s;
    static const char *const none = NULL;
    if (c->state != CORRAL__QUEUED && c->state != CORRAL__WAITING && c->state != CORRAL__PAUSED &&
        c->state != CORRAL__DEFERRED)
        return corral__load_fail(L, "a coroutine of type %s is in a state a save does not hold%s", tn, none);
    if (c->phase >= s->run.phases || (c->contract & ~CORRAL__FIRST_FLAG) || c->hold > (CORRAL__HOLD_WAITING | CORRAL__HOLD_WOKEN | CORRAL__HOLD_GENERATOR) ||
        c->outcome >= CORRAL_END_COUNT || c->mode > CORRAL__MODE_SYNC || c->domain >= L->domains || c->stop_requested > (L->version >= 7 ? 31 : L->version >= 5 ? 3 : 1) || (c->fired != 0xFF && c->fired >= CORRAL_MAX_GROUP) ||
        c->pending > CORRAL_MAX_GROUP || c->age > L->frame)
        return corral__load_fail(L, "a coroutine of type %s has fields out of range%s", tn, none);
    const bool gen_waits = c->hold == (CORRAL__HOLD_GENERATOR | CORRAL__HOLD_WAITING); /* its wait armed */
    if ((c->hold & CORRAL__HOLD_GENERATOR) &&
        ((c->hold & ~(CORRAL__HOLD_WAITING | CORRAL__HOLD_WOKEN)) != CORRAL__HOLD_GENERATOR ||
         (c->hold & CORRAL__HOLD_WOKEN && !(c->hold & CORRAL__HOLD_WAITING)) || c->state != CORRAL__PAUSED ||
         (c->nwaits != 0) != gen_waits || c->child != CORRAL__NIL || c->parent != CORRAL__NIL))
        return corral__load_fail(L, "a generator of type %s is held with a wait or a call it cannot have%s", tn, none);
    bool ok;
    corral__load_point(L, t, c->point, &ok);
    if (!ok) {
        char pt[64] = "?";
        uint32_t len = 0;
        const char *name = corral__load_point_name(L, t, c->point, &len);
        if (name) snprintf(pt, sizeof pt, "%.*s", (int)(len < 63 ? len : 63), name);
        return corral__load_fail(L, "type %s has no resume point %s in this build", tn, pt);
    }
    return true;
}

/* a record's links (it is coroutine `index`): its caller, its child and
   the coroutine a generator belongs to are saved coroutines other than
   it, and a call's destination has room in this build */
static bool corral__load_check_links(corral__loader *L, const corral__saved_co *c, const corral__load_type *t,
                                     const char *tn, uint32_t index)
{
    static const char *const none = NULL;
    if (c->parent != CORRAL__NIL) {
        uint32_t p = corral__load_position(L, c->parent);
        if (p == CORRAL__NIL || c->parent == index)
            return corral__load_fail(L, "a coroutine of type %s has a caller the save does not hold%s", tn, none);
    }
    if (c->child != CORRAL__NIL && (corral__load_position(L, c->child) == CORRAL__NIL || c->child == index))
        return corral__load_fail(L, "a coroutine of type %s awaits a child the save does not hold%s", tn, none);
    if (c->by != CORRAL__NIL && (!(c->hold & CORRAL__HOLD_GENERATOR) || c->by == index || corral__load_position(L, c->by) == CORRAL__NIL))
        return corral__load_fail(L, "a generator of type %s belongs to a coroutine the save does not hold%s", tn, none);
    if (c->dest_field != CORRAL__NIL && !corral__load_dest_fits(L, t, c->dest_field, c->delta, c->child))
        return corral__load_fail(L, "type %s: a call's destination field is gone from this build, or smaller than "
                                "the child's result%s", tn, none);
    return true;
}

/* a record's waits as a whole: its stop deadline in range, waits where its
   state has them, at most CORRAL_MAX_GROUP nodes, an all/any's count */
static bool corral__load_check_wait_shape(corral__loader *L, const corral__saved_co *c, const char *tn)
{
    static const char *const none = NULL;
    if (c->has_deadline > 1 || (c->has_deadline && !corral__due_ok(c->deadline)))
        return corral__load_fail(L, "a stop deadline of type %s is out of range%s", tn, none);
    bool waits = c->nwaits > 0 || c->child != CORRAL__NIL;
    if ((c->state == CORRAL__WAITING && !waits) || ((c->state == CORRAL__QUEUED || c->state == CORRAL__DEFERRED) && waits) ||
        (c->state == CORRAL__PAUSED &&
         waits != ((c->hold & CORRAL__HOLD_WAITING) && !(c->hold & CORRAL__HOLD_WOKEN))))
        return corral__load_fail(L, "a coroutine of type %s waits on something its state does not allow%s", tn, none);
    if (c->nwaits > CORRAL_MAX_GROUP) /* an all/any's members, a race's arms: at most that many */
        return corral__load_fail(L, "a coroutine of type %s has more wait nodes than CORRAL_MAX_GROUP%s", tn, none);
    if (c->nwaits && (c->mode == CORRAL__MODE_NONE || (c->mode == CORRAL__MODE_ONE && c->nwaits != 1) ||
                     c->pending == 0 || c->pending > c->nwaits))
        return corral__load_fail(L, "a coroutine of type %s has a malformed all/any wait%s", tn, none);
    return true;
}

/* a race's or sync's arms: only arm nodes, each running arm a saved
   coroutine named once, each result with room in this build, the arms
   counted right (and no arm node outside a race or sync) */
static bool corral__load_check_arms(corral__loader *L, const corral__saved_co *c, const corral__load_type *t,
                                    const char *tn, uint32_t index)
{
    static const char *const none = NULL;
    const bool arms = c->mode == CORRAL__MODE_RACE || c->mode == CORRAL__MODE_SYNC;
    uint32_t running = 0;
    for (uint32_t w = 0; w < c->nwaits; w++) {
        const corral__lwait *lw = &c->w[w];
        if ((lw->kind == CORRAL__NODE_ARM) != arms || (arms && (lw->flags || lw->member >= CORRAL_MAX_GROUP)))
            return corral__load_fail(L, "a race or sync of type %s is malformed%s", tn, none);
        if (!arms) continue;
        if (lw->ref != CORRAL__NIL) {
            running++;
            for (uint32_t v = 0; v < w; v++)
                if (c->w[v].kind == CORRAL__NODE_ARM && c->w[v].ref == lw->ref)
                    return corral__load_fail(L, "a race of type %s names one arm twice%s", tn, none);
            if (lw->ref == index || corral__load_position(L, lw->ref) == CORRAL__NIL)
                return corral__load_fail(L, "a race of type %s has an arm the save does not hold%s", tn, none);
        }
        if (lw->user != CORRAL__NIL &&
            (lw->user > 0xFFFFFFFFu || !corral__load_dest_fits(L, t, (uint32_t)lw->user, lw->seq, lw->ref)))
            return corral__load_fail(L, "an arm's result of type %s has no place in this build, or too small a one%s",
                                 tn, none);
    }
    if (arms && (c->nwaits == 0 || running == 0 || c->child != CORRAL__NIL || c->state == CORRAL__QUEUED ||
                 (c->mode == CORRAL__MODE_SYNC && c->pending != running) ||
                 (c->mode == CORRAL__MODE_RACE && c->pending != c->nwaits)))
        return corral__load_fail(L, "a race or sync of type %s counts its arms wrong%s", tn, none);
    return true;
}

/* each of a record's wait nodes but arms: held out of its container as a
   pause holds it, fired only in an all, and whatever its kind's table
   checks (its part's check) */
static bool corral__load_check_waits(corral__loader *L, const corral__saved_co *c, const char *tn, uint32_t index)
{
    static const char *const none = NULL;
    for (uint32_t w = 0; w < c->nwaits; w++) {
        const corral__lwait *lw = &c->w[w];
        if (lw->kind == CORRAL__NODE_ARM) continue; /* corral__load_check_arms */
        bool held = (lw->flags & CORRAL__SW_HELD) != 0;
        /* a pause holds timers and predicates out of their containers; list waits stay */
        bool fired = lw->flags == CORRAL__SW_FIRED;
        bool holds = !fired && c->state == CORRAL__PAUSED && !corral__kind_is(lw->kind, CORRAL__HOW_LIST) &&
                     !(c->hold & CORRAL__HOLD_GENERATOR); /* a generator's wait stays armed */
        if (lw->flags > CORRAL__SW_FIRED || lw->member >= CORRAL_MAX_GROUP || held != holds ||
            (fired && c->mode != CORRAL__MODE_ALL))
            return corral__load_fail(L, "a wait of type %s is malformed%s", tn, none);
        const corral__wait_part *p = corral__node_part_of(L->s, lw->kind);
        const char *what = NULL;
        const corral__lview v = corral__load_view_of(L, index, c->type, c->domain, &what);
        const char *why = p && p->check ? p->check(&v, lw) : "a wait of type %s is of no kind that waits%s";
        if (why) return corral__load_fail(L, why, tn, what);
    }
    return true;
}

/* the table, entry by entry: ascending, each record where it says, in a
   slot free here; each record checked and counted in *n */
static bool corral__load_check_records(corral__loader *L, corral__load_tally *n)
{
    corral__io *io = &L->io;
    static const char *const none = NULL;
    corral__saved_co c;
    io->at = L->rec_at;
    for (uint32_t i = 0; i < L->nco && !io->bad; i++) {
        const unsigned char *e = io->r + L->table_at + 12 * (size_t)i;
        uint32_t index = corral__le32(e), gen = corral__le32(e + 4), off = corral__le32(e + 8);
        uint32_t cls = index >> CORRAL__CLASS_SHIFT, local = index & CORRAL__LOCAL_MASK;
        if (i && index <= corral__le32(e - 12)) return corral__load_fail(L, "the coroutine table is not in slot order%s%s", none, none);
        if (off != io->at) return corral__load_fail(L, "the coroutine table and its records disagree%s%s", none, none);
        corral__load_read_co(L, &c);
        if (io->bad) return false;
        corral__load_type *t = &L->t[c.type];
        const char *tn = corral__types(L->s)[t->ti].vt->name;
        if (!corral__load_check_slot(L, t, tn, cls, local, gen)) return false;
        n->per_class[cls]++;
        n->per_type[c.type]++;
        if (!corral__load_check_fields(L, &c, t, tn) || !corral__load_check_links(L, &c, t, tn, index)) return false;
        n->group_nodes += corral__nodes_needed(c.owner, c.tags);
        const bool sleeps = corral__saved_sleeps(&c);
        n->sleeps += sleeps;
        n->wait_nodes += (sleeps ? 0u : c.nwaits) + (c.has_deadline ? 1u : 0u) + (c.by != CORRAL__NIL ? 1u : 0u);
        n->sides += corral__saved_co_needs_side(&c) || c.owner || c.tags || c.has_deadline || c.by != CORRAL__NIL;
        n->joins += c.by != CORRAL__NIL; /* its owner's joiners list */
        for (uint32_t w = 0; w < c.nwaits; w++) n->joins += c.w[w].kind == CORRAL_WAIT_JOIN; /* each may give its target one */
        if (!corral__load_check_wait_shape(L, &c, tn) || !corral__load_check_arms(L, &c, t, tn, index) ||
            !corral__load_check_waits(L, &c, tn, index))
            return false;
    }
    return !io->bad;
}

/* what the records take fits this scheduler: slots of each class (not
   retired), each type's budget, wait and group nodes, side records */
static bool corral__load_check_room(corral__loader *L, const corral__load_tally *n)
{
    const corral_sched *s = L->s;
    static const char *const none = NULL;
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *k = &s->arena.classes[ci];
        uint32_t retired = 0;
        for (uint32_t j = 0; j < k->capacity; j++) retired += corral__will_retire(CORRAL__CO(s, corral__slot_off(k, j)));
        if (n->per_class[ci] > k->capacity - retired)
            return corral__load_fail(L, "a size class has too few slots for the save%s%s", none, none);
    }
    for (uint32_t ti = 0; ti < L->ntypes; ti++) { /* each budgeted coroutine takes its reservation */
        const corral__type_entry *te = &corral__types(s)[L->t[ti].ti];
        if (te->budget && n->per_type[ti] > te->budget)
            return corral__load_fail(L, "the save holds more coroutines of type %s than its budget%s", te->vt->name, none);
    }
    const uint64_t spilled = n->sleeps > s->timers.max_sleepers ? n->sleeps - s->timers.max_sleepers : 0u; /* sleeps past max_sleepers take nodes */
    if (n->wait_nodes + spilled > s->nodes.wait_count)
        return corral__load_fail(L, "the save needs more wait nodes than desc.max_wait_nodes%s%s", none, none);
    if (n->group_nodes > s->nodes.count - s->nodes.wait_count)
        return corral__load_fail(L, "the save needs more group nodes than desc.max_group_nodes%s%s", none, none);
    /* at most one side record a coroutine; a joined one's is counted once per join (at most) */
    if ((n->sides + n->joins < L->nco ? n->sides + n->joins : L->nco) > s->sides.count)
        return corral__load_fail(L, "the save may need more side records than desc.max_side_records%s%s", none, none);
    return true;
}

/* calls both ways: a caller's child names it as its caller, and a child's
   caller names it (as its child, or as an arm of its race) */
static bool corral__load_check_calls_agree(corral__loader *L)
{
    corral__io *io = &L->io;
    static const char *const none = NULL;
    corral__saved_co c;
    io->at = L->rec_at;
    for (uint32_t i = 0; i < L->nco && !io->bad; i++) {
        uint32_t index = corral__le32(io->r + L->table_at + 12 * (size_t)i);
        corral__load_read_co(L, &c);
        for (int dir = 0; dir < 2; dir++) { /* its child names it; its caller names it */
            uint32_t other = dir ? c.parent : c.child;
            if (other == CORRAL__NIL) continue;
            size_t back = io->at;
            io->at = corral__le32(io->r + L->table_at + 12 * (size_t)corral__load_position(L, other) + 8);
            corral__saved_co o;
            corral__load_read_co(L, &o);
            io->at = back;
            bool named = (dir ? o.child : o.parent) == index;
            if (!named && dir && (o.mode == CORRAL__MODE_RACE || o.mode == CORRAL__MODE_SYNC)) /* an arm of its race */
                for (uint32_t w = 0; w < o.nwaits && !named; w++) named = o.w[w].kind == CORRAL__NODE_ARM && o.w[w].ref == index;
            if (!named) return corral__load_fail(L, "a call's caller and child disagree%s%s", none, none);
        }
    }
    return !io->bad;
}

/* No call chain is a cycle, and races nest at most CORRAL_MAX_RACE_DEPTH
   deep: a walk down every tree from its root (a coroutine with no
   caller), child by child, up through callers and on to the next arm,
   with no memory but the records, reaches every coroutine that has a
   caller exactly once; one in a cycle is never reached. Linear: each
   coroutine is entered once and left once. */
static bool corral__load_check_call_trees(corral__loader *L)
{
    corral__io *io = &L->io;
    static const char *const none = NULL;
    corral__saved_co c;
    uint32_t with_parent = 0, reached = 0;
    uint64_t steps = 4u * (uint64_t)L->nco + 16u;
    for (uint32_t i = 0; i < L->nco && !io->bad; i++) {
        uint32_t root;
        corral__load_record(L, i, &c, &root);
        with_parent += c.parent != CORRAL__NIL;
        if (c.parent != CORRAL__NIL) continue;
        uint32_t cur = root, depth = 0, next = corral__load_child(L, &c, CORRAL__NIL);
        while (!io->bad) {
            if (next != CORRAL__NIL) { /* down */
                corral__saved_co p = c;
                uint32_t up = cur;
                if (steps-- == 0 || corral__load_position(L, next) == CORRAL__NIL) break;
                corral__load_record(L, corral__load_position(L, next), &c, &cur);
                if (c.parent != up) /* an arm (or a call's child) names another caller, or none */
                    return corral__load_fail(L, "a call's or race's child does not name its caller%s%s", none, none);
                reached++;
                if (p.mode == CORRAL__MODE_RACE || p.mode == CORRAL__MODE_SYNC) depth++;
                if (depth > CORRAL_MAX_RACE_DEPTH)
                    return corral__load_fail(L, "races nest deeper than CORRAL_MAX_RACE_DEPTH%s%s", none, none);
                next = corral__load_child(L, &c, CORRAL__NIL);
                continue;
            }
            if (cur == root) break; /* up, to the caller's next child after this one */
            uint32_t from = cur;
            if (steps-- == 0 || corral__load_position(L, c.parent) == CORRAL__NIL) break;
            corral__load_record(L, corral__load_position(L, c.parent), &c, &cur);
            if (c.mode == CORRAL__MODE_RACE || c.mode == CORRAL__MODE_SYNC) depth--;
            next = corral__load_child(L, &c, from);
        }
    }
    if (io->bad) return false;
    if (reached != with_parent) return corral__load_fail(L, "a call chain is a cycle%s%s", none, none);
    return true;
}

/* No generator belongs to itself through others: from each generator,
   up through the owners while they come later in the save; one that
   comes back is the first of a loop, one that meets an earlier record
   goes on as that record's walk did (to an owner that is no generator).
   The walks together are bounded; a save that runs past the bound
   (chains tens of thousands deep, their records in the order of their
   owners) loads unchecked here, and a loop of ties then holds its slots
   only: its ends stay bounded (calls.c, pulls.c). */
static bool corral__load_check_ties(corral__loader *L)
{
    static const char *const none = NULL;
    corral__saved_co c;
    uint64_t tie_steps = 64u * (uint64_t)L->nco + 4096u;
    for (uint32_t i = 0; i < L->nco && !L->io.bad && tie_steps; i++) {
        uint32_t at;
        corral__load_record(L, i, &c, &at);
        for (uint32_t by = c.by; by != CORRAL__NIL && tie_steps; tie_steps--) {
            const uint32_t k = corral__load_position(L, by);
            if (k == i) return corral__load_fail(L, "generators belong to one another in a loop%s%s", none, none);
            if (k == CORRAL__NIL || k < i) break;
            corral__load_record(L, k, &c, &at);
            by = c.by;
        }
    }
    return !L->io.bad;
}

/* the order lists (run, deferred, waits and ties, groups) name saved coroutines */
static bool corral__load_check_orders(corral__loader *L)
{
    static const char *const none = NULL;
    const size_t lists[4] = {L->run_at, L->defer_at, L->wait_order_at, L->group_order_at};
    const uint32_t counts[4] = {L->nrun, L->ndefer, L->nwait_order, L->ngroup_order};
    for (int l = 0; l < 4; l++)
        for (uint32_t i = 0; i < counts[l]; i++) {
            size_t at = lists[l] + (l < 2 ? 4 * (size_t)i : 8 * (size_t)i + 4);
            const uint32_t ref = corral__le32(L->io.r + at) & (l == 2 && L->version >= 7 ? ~CORRAL__SAVE_TIE : ~0u);
            if (corral__load_position(L, ref) == CORRAL__NIL)
                return corral__load_fail(L, "an order list names a coroutine the save does not hold%s%s", none, none);
        }
    return !L->io.bad;
}

/* Everything after the header, checked before anything is written: the
   sections, every record, the room they take, the pools' items, the
   calls, their trees, the generators' ties and the order lists */
static bool corral__load_check(corral__loader *L)
{
    corral__load_tally n;
    memset(&n, 0, sizeof n);
    return corral__load_find_sections(L) && corral__load_check_records(L, &n) && corral__load_check_room(L, &n) &&
           corral__load_check_items(L) && corral__load_check_calls_agree(L) && corral__load_check_call_trees(L) &&
           corral__load_check_ties(L) && corral__load_check_orders(L);
}
/* ---- building the loaded state (everything was checked: nothing fails) */

/* record i's tie to the coroutine it belongs to, once (the check counted it) */
static void corral__load_tie(corral__loader *L, uint32_t i)
{
    corral__saved_co c;
    uint32_t index;
    corral__load_record(L, i, &c, &index);
    if (c.by == CORRAL__NIL) return;
    corral_sched *s = L->s;
    corral_co *gen = corral__co_at_index(s, index, NULL);
    const corral__meta *m = corral__meta_of(s, gen);
    if (corral__co_sided(m))
        for (uint32_t k = corral__side_at(s, m)->groups; k != CORRAL__NIL; k = corral__nodes(s)[k].sibling)
            if (corral__nodes(s)[k].kind == CORRAL__NODE_OWNED) return; /* tied already */
    corral__gen_own(s, gen, corral__co_at_index(s, c.by, NULL));
}

/* Where the next starts go, as the save had it (version 3), where it fits */
static void corral__load_slots(corral__loader *L)
{
    corral_sched *s = L->s;
    if (!L->slots_at) return;
    corral__io io = L->io;
    io.at = L->slots_at;
    uint32_t nclass = (uint32_t)corral__get_u(&io, 4);
    for (uint32_t ci = 0; ci < nclass && !io.bad; ci++) {
        uint32_t pages = (uint32_t)corral__get_u(&io, 4);
        corral__class *c = ci < s->arena.class_count && pages == s->arena.classes[ci].page_count ? &s->arena.classes[ci]
                                                                                                 : NULL;
        for (uint32_t pi = 0; pi < pages && !io.bad; pi++) {
            uint32_t bump = (uint32_t)corral__get_u(&io, 2), k = (uint32_t)corral__get_u(&io, 2);
            const unsigned char *e = corral__get_bytes(&io, 6 * (size_t)k);
            if (c && e) corral__page_adopt(s, c, pi, bump, k, e);
        }
        if (c) corral__class_lists(s, c);
        for (int list = 0; list < 2 && !io.bad; list++) {
            uint32_t n = (uint32_t)corral__get_u(&io, 4);
            const unsigned char *e = corral__get_bytes(&io, 4 * (size_t)n);
            if (c && e) corral__class_list_adopt(s, c, list, n, e);
        }
    }
    uint32_t n = (uint32_t)corral__get_u(&io, 4);
    for (uint32_t i = 0; i < n && !io.bad; i++) {
        uint32_t id = (uint32_t)corral__get_u(&io, 4), page = (uint32_t)corral__get_u(&io, 4);
        corral__types_place(s, id, page);
    }
}

static corral_co *corral__co_at_index(corral_sched *s, uint32_t index, uint32_t *global)
{
    const corral__class *c = &s->arena.classes[index >> CORRAL__CLASS_SHIFT];
    uint32_t local = index & CORRAL__LOCAL_MASK;
    if (global) *global = c->first + local;
    return CORRAL__CO(s, corral__slot_off(c, local));
}

/* the record of table entry i */
static void corral__load_record(corral__loader *L, uint32_t i, corral__saved_co *c, uint32_t *index)
{
    const unsigned char *e = L->io.r + L->table_at + 12 * (size_t)i;
    *index = corral__le32(e);
    L->io.at = corral__le32(e + 8);
    corral__load_read_co(L, c);
}

/* a context from its saved bytes: fields by name, new ones zero */
static void corral__load_context(corral__loader *L, const corral__load_type *t, const corral__saved_co *c, unsigned char *dst)
{
    corral_sched *s = L->s;
    const corral__type_entry *te = &corral__types(s)[t->ti];
    const unsigned char *old = L->io.r + c->ctx_at;
    memset(dst, 0, te->ctx_size);
    uint32_t n = 0;
    const corral_field *nf0 = te->vt->fields ? te->vt->fields(&n) : NULL;
    if (t->nfields == 0 || !nf0 || n == 0) { /* no field table: the bytes, as many as fit */
        memcpy(dst, old, t->ctx_size < te->ctx_size ? t->ctx_size : te->ctx_size);
        return;
    }
    corral_field of[64];
    char names[64][48];
    uint32_t nof = 0;
    bool same = t->ctx_size == te->ctx_size && t->nfields == n;
    corral__io io = L->io;
    io.at = t->fields_at;
    for (uint32_t f = 0; f < t->nfields; f++) {
        uint32_t fl, tl;
        const char *fname = corral__get_str(&io, &fl);
        const char *ftype = corral__get_str(&io, &tl);
        uint32_t off = (uint32_t)corral__get_u(&io, 4), size = (uint32_t)corral__get_u(&io, 4);
        uint8_t kind = (uint8_t)corral__get_u(&io, 1);
        (void)ftype;
        const corral_field *nf = corral__field_named(te->vt, fname, fl);
        if (nf) corral__field_copy(dst, nf, old + off, kind, size);
        same = same && nf && nf->offset == off && nf->size == size;
        if (nof < 64) {
            snprintf(names[nof], sizeof names[nof], "%.*s", (int)(fl < 47 ? fl : 47), fname);
            of[nof] = (corral_field){names[nof], "", off, size, (corral_field_kind)kind};
            nof++;
        }
    }
    if (t->result_size && te->vt->result_size == t->result_size)
        memcpy(dst + te->vt->result_offset, old + t->result_off, t->result_size);
    if (!same && s->types.upgrade.fn) {
        corral_saved_type st = {t->id, te->vt->name, t->ctx_size, nof, of};
        s->types.upgrade.fn(te->vt, dst, &st, old, s->types.upgrade.user);
    }
}


/* its wait nodes, in the order they were attached */
static void corral__load_waits(corral__loader *L, corral_co *co, const corral__saved_co *c)
{
    corral_sched *s = L->s;
    corral__meta *m = corral__meta_of(s, co);
    if (corral__co_wait(s, co, m) != CORRAL__NIL || corral__sleeps(co) || c->nwaits == 0) return; /* done already */
    if (corral__saved_sleeps(c) && s->timers.sleepers < s->timers.max_sleepers) { /* checked by corral__timer_check */
        corral__sleep_place(s, co, c->w[0].kind, c->w[0].list, c->w[0].due, c->w[0].seq, c->w[0].flags == CORRAL__SW_HELD);
        return;
    }
    bool used[CORRAL__SAVE_MAX_WAITS] = {false};
    for (uint32_t k = 0; k < c->nwaits; k++) {
        uint32_t w = 0, best = CORRAL__NIL;
        for (uint32_t j = 0; j < c->nwaits; j++)
            if (!used[j] && (best == CORRAL__NIL || c->w[j].order < c->w[best].order)) best = j;
        used[best] = true;
        w = best;
        const corral__lwait *lw = &c->w[w];
        bool held = lw->flags == CORRAL__SW_HELD, fired = lw->flags == CORRAL__SW_FIRED;
        const uint32_t i = corral__node_load(s, co, lw->kind, lw->member, (uint8_t)(held ? 2u : fired ? 0u : 1u));
        held = held || fired; /* in no container */
        const corral__lview v = corral__load_view_of(L, CORRAL__NIL, c->type, corral__co_domain(s, m), NULL);
        corral__node_part_of(s, lw->kind)->place(&v, co, i, lw, held); /* checked: it has a table */
    }
}

/* a loaded coroutine's state, as saved (c): queued, deferred or held with
   its hold (WAITING as placed) */
static void corral__load_place(corral_sched *s, corral_co *co, const corral__saved_co *c)
{
    if (c->state == CORRAL__QUEUED) corral__enqueue(s, co);
    else if (c->state == CORRAL__DEFERRED) corral__defer(s, co);
    else if (c->state == CORRAL__PAUSED) corral__hold(co, corral__meta_of(s, co), c->hold);
}

/* what runs now ends, as at destroy (the reasons a destroy gives); every
   part as at create, generations above what every slot, signal and future
   issued; each saved type in the class it was saved in */
static void corral__load_clear(corral__loader *L)
{
    corral_sched *s = L->s;
    corral__end_all(s);
    corral__floors_keep(s);
    uint32_t floors[CORRAL__POOL_COUNT];
    corral__pools_floors(s, floors);
    corral__state_init(s);
    corral__pools_set_floors(s, floors);
    corral__types_unplaced(s);
    for (uint32_t i = 0; i < L->ntypes; i++) /* checked: a class that holds it */
        if (L->t[i].cls != CORRAL__NIL) corral__type_set_class(s, L->t[i].ti, L->t[i].cls);
}

/* the frame and its clocks, each time domain's as saved (one the save
   does not have: at 0, scale 1) */
static void corral__load_clocks(corral__loader *L)
{
    corral_sched *s = L->s;
    corral__frame_restore(s, L->frame, L->frame_pos, L->unscaled, L->fixed);
    for (uint32_t d = 0; d < corral__domains_of(s)->count; d++) { /* domain 0's from its own fields (version 1) */
        const double time = d == 0 ? L->time : d < L->domains ? L->dtime[d] : 0.0;
        const float scale = d == 0 ? (float)L->scale : d < L->domains ? (float)L->dscale[d] : 1.0f;
        corral__domain_restore(s, d, time, scale, (L->paused >> d) & 1u, d < L->domains ? L->dparent[d] : 0u);
    }
}

/* the pools' items, at their indices, with their generations; the free
   lists of the rest */
static void corral__load_items(corral__loader *L)
{
    corral_sched *s = L->s;
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++)
        if (L->nrows[p]) corral__pool_part_of(s, p)->load(&L->io, s, L->nrows[p], L->rows_at[p]);
    corral__pools_relink(s);
}

/* table entry i's coroutine in its slot: header, context, meta, side
   record, its type's and class's counters (*c: its record, read here) */
static void corral__load_coroutine(corral__loader *L, uint32_t i, corral__saved_co *c)
{
    corral_sched *s = L->s;
    const corral__io *io = &L->io;
    uint32_t index, g;
    corral__load_record(L, i, c, &index);
    corral_co *co = corral__co_at_index(s, index, &g);
    const corral__load_type *t = &L->t[c->type];
    corral__type_entry *te = &corral__types(s)[t->ti];
    bool ok;
    corral__slot_load(s, co, corral__le32(io->r + L->table_at + 12 * (size_t)i + 4), t->ti,
                      (uint8_t)(c->phase | c->contract), corral__load_point(L, t, c->point, &ok)); /* its place comes below */
    corral__load_context(L, t, c, CORRAL__AT(co, te->ctx_off));
    corral__meta *m = &corral__meta_table(s)[g];
    uint8_t stop = (uint8_t)((c->stop_requested & 12u) >> 1); /* CORRAL__GOT_MASK */
    if (c->stop_requested & 1u) stop |= CORRAL__STOP_REQUESTED;
    if (c->stop_requested & 2u) stop |= CORRAL__WAIT_CLOSED;
    corral__meta_load(s, m, c->age, stop); /* its age: kept with timing */
    if (corral__saved_co_needs_side(c)) { /* counted by the check: one is free */
        corral__side links = *corral__side_none();
        links.outcome = c->outcome;
        links.fired = (int8_t)c->fired;
        links.pending = c->mode == CORRAL__MODE_ONE ? 0 : (uint8_t)c->pending; /* checked: at most CORRAL_MAX_GROUP */
        links.mode = c->mode <= CORRAL__MODE_ONE ? CORRAL__MODE_NONE : c->mode;
        links.domain = c->domain;
        if (c->parent != CORRAL__NIL) corral__co_at_index(s, c->parent, &links.parent);
        if (c->child != CORRAL__NIL) corral__co_at_index(s, c->child, &links.child);
        if (c->dest_field != CORRAL__NIL) links.dest = te->ctx_off + corral__load_dest(L, t, c->dest_field, c->delta);
        corral__side_load(s, m, &links);
    }
    corral__class *k = &s->arena.classes[te->cls];
    corral__budget_take(te, k); /* as a start takes it; its end gives it back */
    corral__count_loaded(s, te, k);
}

/* groups, then waits and generators' ties, each in the order they were
   taken (a tie before the waits taken after it: an owner's joiners list
   keeps its order); any the lists left out after them */
static void corral__load_links(corral__loader *L)
{
    corral_sched *s = L->s;
    const corral__io *io = &L->io;
    corral__saved_co c;
    for (int pass = 0; pass < 2; pass++) {
        size_t at = pass ? L->wait_order_at : L->group_order_at;
        uint32_t n = pass ? L->nwait_order : L->ngroup_order;
        for (uint32_t j = 0; j <= n; j++) {
            uint32_t from = 0, to = L->nco;
            if (j < n) {
                const uint32_t ref = corral__le32(io->r + at + 8 * (size_t)j + 4);
                if (pass && L->version >= 7 && (ref & CORRAL__SAVE_TIE)) { /* a generator's tie */
                    corral__load_tie(L, corral__load_position(L, ref & ~CORRAL__SAVE_TIE));
                    continue;
                }
                from = corral__load_position(L, ref);
                to = from + 1;
            }
            for (uint32_t i = from; i < to; i++) {
                uint32_t index;
                corral__load_record(L, i, &c, &index);
                corral_co *co = corral__co_at_index(s, index, NULL);
                if (pass) corral__load_waits(L, co, &c);
                else if ((c.owner | c.tags) && corral__side_of(s, corral__meta_of(s, co))->groups == CORRAL__NIL)
                    corral__join_groups("corral_load", s, co, c.owner, c.tags);
            }
        }
    }
}

/* stop deadlines, after the groups they are chained with */
static void corral__load_deadlines(corral__loader *L)
{
    corral_sched *s = L->s;
    corral__saved_co c;
    for (uint32_t i = 0; i < L->nco; i++) {
        uint32_t index;
        corral__load_record(L, i, &c, &index);
        if (!c.has_deadline) continue;
        corral_co *co = corral__co_at_index(s, index, NULL);
        corral__side_take("corral_load", s, corral__meta_of(s, co)); /* counted by the check */
        corral__timer_place(s, corral__deadline_node(s, co), corral__domain_heap(corral__co_domain(s, corral__meta_of(s, co))),
                            c.deadline, c.deadline_seq, false);
    }
}

/* the run order, then each coroutine's state (queued, deferred, paused)
   where the lists left it out */
static void corral__load_states(corral__loader *L)
{
    corral_sched *s = L->s;
    const corral__io *io = &L->io;
    corral__saved_co c;
    for (int defer = 0; defer < 2; defer++) {
        size_t at = defer ? L->defer_at : L->run_at;
        uint32_t n = defer ? L->ndefer : L->nrun;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t i = corral__load_position(L, corral__le32(io->r + at + 4 * (size_t)j)), index;
            corral__load_record(L, i, &c, &index);
            corral_co *co = corral__co_at_index(s, index, NULL);
            if (co->link == CORRAL__NIL && c.state == (defer ? CORRAL__DEFERRED : CORRAL__QUEUED))
                corral__load_place(s, co, &c);
        }
    }
    for (uint32_t i = 0; i < L->nco; i++) { /* and what the lists left out */
        uint32_t index;
        corral__load_record(L, i, &c, &index);
        corral_co *co = corral__co_at_index(s, index, NULL);
        if (c.state == CORRAL__PAUSED || co->link == CORRAL__NIL) corral__load_place(s, co, &c);
    }
}

/* the loaded state built, in that order (everything was checked) */
static void corral__load_apply(corral__loader *L)
{
    corral_sched *s = L->s;
    corral__load_clear(L);
    corral__load_clocks(L);
    corral__load_items(L);
    corral__saved_co c;
    for (uint32_t i = 0; i < L->nco; i++) corral__load_coroutine(L, i, &c);
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) corral__class_rebuild(s, &s->arena.classes[ci]);
    corral__load_slots(L);
    corral__load_links(L);
    corral__load_deadlines(L);
    for (uint32_t i = 0; i < L->nco; i++) corral__load_tie(L, i); /* the ties the list left out */
    corral__load_states(L);
    corral__timers_seq_past(s, L->timer_seq);
    corral__nodes_order_past(s, L->node_order);
}

bool corral_load(corral_sched *s, const void *buf, size_t size)
{
    if (!corral__check(s)) return false;
    CORRAL__REQUIRE_AT(s, buf, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    if (!corral__between_ticks(__func__, s)) return false;
    corral__loader loader; /* about 7 KB of stack */
    corral__loader *L = &loader;
    memset(L, 0, sizeof *L);
    L->s = s;
    L->io.r = (const unsigned char *)buf;
    L->io.size = size;
    if (!corral__load_read_head(L) || !corral__load_check(L)) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_SAVE, __func__, CORRAL__NOH, NULL, L->io.why);
        return false;
    }
    corral__loading(s, true); /* its hooks (cleanup, upgrade) call nothing on it */
    corral__load_apply(L);
    corral__loading(s, false);
    return true;
}
