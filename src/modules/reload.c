/*
    reload.c -- hot reload: the game has loaded a new build of its gameplay
    code (a shared library, say) and hands its registry over
    (corral_reload); every live coroutine goes on in the new code, where it
    stood. Each type entry is rebound by its registry id to the new type's
    step, cleanup and field table, each coroutine's resume point mapped by
    name, each predicate by its id; handles, waits, timers, calls, races,
    channels and groups stay as they are. A context laid out otherwise is
    moved field by field within its slot (fields.c's rule: by name, new
    ones zero and then the upgrade hook's, numbers widened), and with it
    every place a wait keeps in it: a channel value's, a result's, a
    predicate's argument. Everything is checked first: a reload that does
    not fit changes nothing. Snapshots taken before hold the old build's
    points: a kept one is forgotten, one in the caller's buffer is refused
    by its types (snapshot.c).
*/
#include "../corral_internal.h"

#include <stdio.h>
#include <string.h>

/* the new registry's type with this id, or NULL; *budget its budget */
static const corral_type *corral__reload_find(const corral_registry *reg, uint32_t id, uint32_t *budget)
{
    for (uint32_t i = 0; i < reg->count; i++)
        if (reg->ids[i] == id) {
            *budget = reg->budgets ? reg->budgets[i] : 0u;
            return reg->types[i];
        }
    return NULL;
}

/* NULL when the two types lay their contexts out alike, else what differs
   (*field: the field it names, or "") */
static const char *corral__reload_layout(const corral_type *a, const corral_type *b, const char **field)
{
    *field = "";
    uint32_t na = 0, nb = 0;
    const corral_field *fa = a->fields ? a->fields(&na) : NULL, *fb = b->fields ? b->fields(&nb) : NULL;
    for (uint32_t i = 0; i < na || i < nb; i++) {
        if (i >= na || i >= nb) {
            const corral_field *f = i >= na ? &fb[i] : &fa[i];
            *field = f->name ? f->name : "?";
            return i >= na ? "a field, added:" : "a field, removed:";
        }
        *field = fa[i].name ? fa[i].name : "?";
        if (!fa[i].name || !fb[i].name || strcmp(fa[i].name, fb[i].name) != 0 || fa[i].offset != fb[i].offset ||
            fa[i].size != fb[i].size || fa[i].kind != fb[i].kind)
            return "field";
    }
    *field = "";
    if (a->ctx_size != b->ctx_size || a->ctx_align != b->ctx_align || a->ctx_offset != b->ctx_offset)
        return "its context's size or alignment";
    if (a->result_size != b->result_size || a->result_offset != b->result_offset) return "its result";
    return NULL;
}

/* the point of type b named as point p of type a (0: none; p 0 is 0) */
static uint32_t corral__reload_point(const corral_type *a, const corral_type *b, uint32_t p, bool *ok)
{
    *ok = true;
    if (p == 0) return 0;
    *ok = false;
    if (p > a->point_count) return 0; /* unnamed: an id of the old build */
    for (uint32_t k = 0; k < b->point_count; k++)
        if (a->points[p - 1] && b->points[k] && strcmp(a->points[p - 1], b->points[k]) == 0) {
            *ok = true;
            return k + 1;
        }
    return 0;
}

/* the new build's predicate for fn of the old one, or NULL */
static corral_predicate corral__reload_predicate(const corral_predicate_registry *old,
                                                 const corral_predicate_registry *now, corral_predicate fn)
{
    for (uint32_t i = 0; old && i < old->count; i++)
        if (old->fns[i] == fn)
            for (uint32_t j = 0; now && j < now->count; j++)
                if (now->ids[j] == old->ids[i]) return now->fns[j];
    return NULL;
}

static bool corral__reload_refuse(corral_sched *s, const char *fmt, const char *a, const char *b)
{
    char why[192];
    snprintf(why, sizeof why, fmt, a ? a : "", b ? b : "");
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_RELOAD, "corral_reload", CORRAL__NOH, NULL, why);
    return false;
}

/* contexts this small move through the stack; a larger one through a
   free slot's room (arena.c's corral__scratch_lend) */
#define CORRAL__RELOAD_STACK 256u

/* whether a field o of the old build goes into f of the new one:
   fields.c's rule, and a pointer stays a pointer (the same process) */
static bool corral__reload_fits(const corral_field *o, const corral_field *f)
{
    if (o->kind == CORRAL_FIELD_POINTER) return f->kind == CORRAL_FIELD_POINTER && f->size == o->size;
    return corral__field_fits(f, (uint8_t)o->kind, o->size, o->type_name,
                              o->type_name ? (uint32_t)strlen(o->type_name) : 0u);
}

/* whether type te's coroutines can move into nv's layout (else refused,
   naming the type and the field) */
static bool corral__reload_movable(corral_sched *s, const corral__type_entry *te, const corral_type *nv)
{
    const corral_type *vt = te->vt;
    const uint32_t slot = te->cls == CORRAL__NO_CLASS ? 0u : s->arena.classes[te->cls].slot_size;
    if ((te->live || te->budget) && !corral__slot_holds(slot, nv)) {
        char why[224];
        snprintf(why, sizeof why, "type %%s outgrows its %u-byte slots (%u bytes with its context): a reload moves "
                 "no coroutine to another size class%%s", (unsigned)slot, (unsigned)(nv->ctx_offset + nv->ctx_size));
        return corral__reload_refuse(s, why, vt->name, NULL);
    }
    if (corral__class_for(s, nv) == CORRAL__NO_CLASS)
        return corral__reload_refuse(s, "type %s: no size class holds it now%s", vt->name, NULL);
    if (nv->result_size != vt->result_size)
        return corral__reload_refuse(s, "type %s changed its result's size%s", vt->name, NULL);
    uint32_t n = 0, nn = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL, *g = nv->fields ? nv->fields(&nn) : NULL;
    if (!f || !g)
        return corral__reload_refuse(s, "type %s changed its context and has no field table to move it by%s",
                                     vt->name, NULL);
    return true; /* both tables lie within their contexts: corral__type_check, when each type was first met */
}

/* whether nv takes over te's type by the rule a save's load into the new
   build keeps (fields.c): the same name, and every field it keeps by name
   of a kind and size its value fits (else refused, naming them) */
static bool corral__reload_follows(corral_sched *s, const corral__type_entry *te, const corral_type *nv)
{
    const corral_type *vt = te->vt;
    if (!corral__type_follows(nv, vt->name, vt->name ? (uint32_t)strlen(vt->name) : 0u))
        return corral__reload_refuse(s, "type %s: its id names another type in the new build (%s)", vt->name,
                                     nv->name);
    uint32_t n = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL;
    for (uint32_t i = 0; f && i < n; i++) {
        const corral_field *nf = f[i].name ? corral__field_named(nv, f[i].name, (uint32_t)strlen(f[i].name)) : NULL;
        if (nf && !corral__reload_fits(&f[i], nf))
            return corral__reload_refuse(s, "type %s: field %s narrowed or changed its kind or type", vt->name,
                                         f[i].name);
    }
    return true;
}

/* where offset `at` of a slot (a place in vt's context) lies in nv's
   context, or NIL: nowhere. exact: its field keeps its kind and size (a
   wait reads or writes the value there whole); *name: the field's. */
static uint32_t corral__reload_place(const corral_type *vt, const corral_type *nv, uint32_t at, bool exact,
                                     const char **name)
{
    uint32_t delta = 0;
    const uint32_t fi = at < vt->ctx_offset ? CORRAL__NIL : corral__field_at(vt, at - vt->ctx_offset, &delta);
    *name = "?";
    if (fi == CORRAL__FIELD_RESULT) {
        *name = "result";
        return nv->ctx_offset + nv->result_offset + delta; /* its size is checked */
    }
    if (fi == CORRAL__NIL) return CORRAL__NIL;
    uint32_t n = 0;
    const corral_field *of = &vt->fields(&n)[fi];
    *name = of->name ? of->name : "?";
    const corral_field *nf = of->name ? corral__field_named(nv, of->name, (uint32_t)strlen(of->name)) : NULL;
    if (!nf || delta >= nf->size || (exact && (nf->size != of->size || nf->kind != of->kind))) return CORRAL__NIL;
    return nv->ctx_offset + nf->offset + delta;
}

/* the largest context of a live coroutine that moves (0: none) */
static uint32_t corral__reload_need(const corral_sched *s)
{
    uint32_t need = 0;
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        const corral__type_entry *te = &corral__types(s)[t];
        if (te->moves && te->live && te->vt->ctx_size > need) need = te->vt->ctx_size;
    }
    return need;
}

/* every place a wait keeps in a context that moves, found in the new
   build (put: and moved there) */
static bool corral__reload_places(corral_sched *s, const corral_registry *reg, bool put)
{
    if (!corral__reload_need(s)) return true; /* no context moves */
    uint32_t budget;
    const char *field;
    const corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.wait_bump; i++) { /* past the bump: never used */
        const corral__node *n = &N[i];
        if (n->co == CORRAL__NIL) continue;
        if (corral__kind_is(n->kind, CORRAL__HOW_POLL)) { /* its argument, if it lies in a context */
            if (corral__predicate_arg_kind(s->types.predicates, n->u.p.fn) == CORRAL_PREDICATE_NUMBER) continue;
            corral_co *o = corral__co_holding(s, n->u.p.user);
            const corral__type_entry *te = o ? &corral__types(s)[o->type] : NULL;
            if (!te || !te->moves) continue;
            const uint32_t at = corral__reload_place(te->vt, corral__reload_find(reg, te->id, &budget),
                                                     (uint32_t)((unsigned char *)n->u.p.user - (unsigned char *)o),
                                                     false, &field);
            if (at == CORRAL__NIL)
                return corral__reload_refuse(s, "type %s: a predicate's argument lies in field %s, which the new "
                                                "build does not have", te->vt->name, field);
            if (put) corral__poll_rebind(s, i, n->u.p.fn, (unsigned char *)o + at);
            continue;
        }
        const corral__wait_part *p = corral__node_part_of(s, n->kind);
        const corral__type_entry *te = &corral__types(s)[CORRAL__CO(s, n->co)->type];
        if (!p || !p->seq_in_slot || n->u.t.seq == CORRAL__NIL || !te->moves) continue;
        const uint32_t at = corral__reload_place(te->vt, corral__reload_find(reg, te->id, &budget), n->u.t.seq, true,
                                                 &field);
        if (at == CORRAL__NIL)
            return corral__reload_refuse(s, "type %s: field %s holds what a wait reads or writes (a channel's value, "
                                            "a result) and is gone or changed", te->vt->name, field);
        if (put) corral__wait_slot_place(s, i, at);
    }
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) { /* where a call's child's result goes */
        const corral__class *c = &s->arena.classes[ci];
        for (uint32_t k = 0; k < c->capacity; k++) {
            const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (!corral__state_alive(co->state) || !corral__types(s)[co->type].moves) continue;
            const corral__meta *m = corral__meta_of(s, co);
            if (!corral__co_sided(m) || corral__side_at(s, m)->dest == CORRAL__NIL) continue;
            const corral__type_entry *te = &corral__types(s)[co->type];
            const corral__side *sd = corral__side_at(s, m);
            const uint32_t at =
                corral__reload_place(te->vt, corral__reload_find(reg, te->id, &budget), sd->dest, true, &field);
            if (at == CORRAL__NIL)
                return corral__reload_refuse(s, "type %s: field %s takes a called coroutine's result and is gone or "
                                                "changed", te->vt->name, field);
            if (put) corral__side_set_dest(s, m, at);
        }
    }
    return true;
}

/* which field of the new build each field of the old one goes into, for
   one type at a time (coroutines of a type mostly sit together) */
#define CORRAL__RELOAD_PAIRS 32u
typedef struct corral__reload_map {
    uint32_t type;          /* the type it is for, NIL: none yet */
    const corral_type *nv;  /* the new build's */
    uint32_t n;             /* pairs */
    struct {
        const corral_field *from, *to;
    } pair[CORRAL__RELOAD_PAIRS];
} corral__reload_map;

static void corral__reload_map_for(corral__reload_map *m, const corral__type_entry *te, uint32_t type,
                                   const corral_registry *reg)
{
    uint32_t budget, n = 0;
    const corral_field *f = te->vt->fields(&n);
    m->type = type;
    m->nv = corral__reload_find(reg, te->id, &budget);
    m->n = 0;
    for (uint32_t i = 0; i < n; i++) {
        const corral_field *nf = f[i].name ? corral__field_named(m->nv, f[i].name, (uint32_t)strlen(f[i].name)) : NULL;
        if (!nf) continue;
        if (m->n == CORRAL__RELOAD_PAIRS) { /* more than it holds: found by name per coroutine */
            m->n = CORRAL__NIL;
            return;
        }
        m->pair[m->n].from = &f[i];
        m->pair[m->n].to = nf;
        m->n++;
    }
}

/* coroutine co's context from te's layout into m's, within its slot:
   fields by name, new ones zero, then the upgrade hook */
static void corral__reload_move(corral_sched *s, corral_co *co, const corral__type_entry *te,
                                const corral__reload_map *m, unsigned char *tmp, const corral_reload_desc *d)
{
    const corral_type *vt = te->vt, *nv = m->nv;
    unsigned char *ctx = (unsigned char *)co + nv->ctx_offset;
    corral__slot_empty(s, co, vt->ctx_offset, vt->ctx_size, tmp);
    uint32_t n = 0;
    const corral_field *f = vt->fields(&n);
    if (m->n != CORRAL__NIL) {
        for (uint32_t i = 0; i < m->n; i++)
            corral__field_copy(ctx, m->pair[i].to, tmp + m->pair[i].from->offset, (uint8_t)m->pair[i].from->kind,
                               m->pair[i].from->size);
    } else {
        for (uint32_t i = 0; i < n; i++) {
            const corral_field *nf = f[i].name ? corral__field_named(nv, f[i].name, (uint32_t)strlen(f[i].name)) : NULL;
            if (nf) corral__field_copy(ctx, nf, tmp + f[i].offset, (uint8_t)f[i].kind, f[i].size);
        }
    }
    if (vt->result_size) memcpy(ctx + nv->result_offset, tmp + vt->result_offset, vt->result_size);
    if (d->upgrade) {
        const corral_saved_type st = {te->id, vt->name, vt->ctx_size, n, f};
        d->upgrade(nv, ctx, &st, tmp, d->upgrade_user);
    }
}

/* everything the reload would do, checked; nothing changed */
static bool corral__reload_check(corral_sched *s, const corral_reload_desc *d)
{
    const corral_registry *reg = d->registry;
    for (uint32_t i = 0; i < reg->count; i++) {
        char why[128];
        if (!reg->types || !reg->ids || reg->ids[i] == 0)
            return corral__reload_refuse(s, "the new registry '%s' has no type or id 0 at a place%s", reg->name, NULL);
        if (!corral__type_check(reg->types[i], why, sizeof why))
            return corral__reload_refuse(s, "the new registry '%s' has a malformed type: %s", reg->name, why);
        for (uint32_t j = 0; j < i; j++)
            if (reg->ids[j] == reg->ids[i])
                return corral__reload_refuse(s, "the new registry '%s' lists an id twice%s", reg->name, NULL);
    }
    uint32_t added = 0;
    for (uint32_t i = 0; i < reg->count; i++) { /* a type new to this scheduler: room, a class, no budget */
        bool known = false;
        for (uint32_t t = 0; t < s->types.type_count && !known; t++) known = corral__types(s)[t].id == reg->ids[i];
        if (known) continue;
        if (reg->budgets && reg->budgets[i])
            return corral__reload_refuse(s, "type %s is new and has a budget: budgets are reserved at create%s",
                                         reg->types[i]->name, NULL);
        if (corral__class_for(s, reg->types[i]) == CORRAL__NO_CLASS)
            return corral__reload_refuse(s, "type %s is new and no size class holds it%s", reg->types[i]->name, NULL);
        added++;
    }
    if (s->types.type_count + added > s->types.max_types)
        return corral__reload_refuse(s, "the new types do not fit the type table (desc.max_types)%s%s", NULL, NULL);
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        const corral__type_entry *te = &corral__types(s)[t];
        if (te->id == 0)
            return corral__reload_refuse(s, "type %s is in no registry: a reload finds types by their id%s",
                                         te->vt->name, NULL);
        uint32_t budget = 0;
        const corral_type *nv = corral__reload_find(reg, te->id, &budget);
        if (!nv) return corral__reload_refuse(s, "type %s is not in the new registry%s", te->vt->name, NULL);
        if (budget != te->budget) return corral__reload_refuse(s, "type %s changed its budget%s", te->vt->name, NULL);
        const char *field;
        corral__type_mark_moves(s, t, corral__reload_layout(te->vt, nv, &field) != NULL); /* cleared by the caller on a refusal */
        if (te->moves && !corral__reload_movable(s, te, nv)) return false;
        if (!corral__reload_follows(s, te, nv)) return false;
    }
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) { /* every coroutine's point, by name */
        const corral__class *c = &s->arena.classes[ci];
        for (uint32_t k = 0; k < c->capacity; k++) {
            const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (!corral__state_alive(co->state)) continue;
            const corral__type_entry *te = &corral__types(s)[co->type];
            uint32_t budget;
            bool ok;
            corral__reload_point(te->vt, corral__reload_find(reg, te->id, &budget), co->resume & CORRAL__POINT_MASK,
                                 &ok);
            if (!ok) {
                const uint32_t p = co->resume & CORRAL__POINT_MASK;
                return p > te->vt->point_count
                           ? corral__reload_refuse(s, "a coroutine of type %s waits at an unnamed point (name it: "
                                                      "DEFINE_COROUTINE_AT)%s", te->vt->name, NULL)
                           : corral__reload_refuse(s, "a coroutine of type %s waits at point '%s', which the new build "
                                                      "does not have", te->vt->name, te->vt->points[p - 1]);
            }
        }
    }
    const corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.wait_bump; i++) { /* every predicate waited on (past the bump: never used) */
        if (N[i].co == CORRAL__NIL || !corral__kind_is(N[i].kind, CORRAL__HOW_POLL)) continue;
        const char *tn = corral__types(s)[CORRAL__CO(s, N[i].co)->type].vt->name;
        const corral_predicate nf = corral__reload_predicate(s->types.predicates, d->predicates, N[i].u.p.fn);
        if (!nf)
            return corral__reload_refuse(s, "a coroutine of type %s waits on a predicate the new build's "
                                            "desc.predicates does not list by the same id%s", tn, NULL);
        if (corral__predicate_arg_kind(s->types.predicates, N[i].u.p.fn) != corral__predicate_arg_kind(d->predicates, nf))
            return corral__reload_refuse(s, "a coroutine of type %s waits on a predicate whose argument is a number "
                                            "in one build and an address in the other%s", tn, NULL); /* a load's rule */
    }
    if (!corral__reload_places(s, reg, false)) return false;
    const uint32_t need = corral__reload_need(s);
    if (need > CORRAL__RELOAD_STACK && !corral__scratch_lend(s, need)) {
        char why[160];
        snprintf(why, sizeof why, "a context of %u bytes moves, and no free slot holds as many to move it "
                 "through%%s%%s", (unsigned)need);
        return corral__reload_refuse(s, why, NULL, NULL);
    }
    return true;
}

/* the reload, checked: nothing fails */
static void corral__reload_apply(corral_sched *s, const corral_reload_desc *d)
{
    const corral_registry *reg = d->registry;
    /* the points first: they are read through the old types */
    for (uint32_t ci = 0; ci < s->arena.class_count; ci++) {
        const corral__class *c = &s->arena.classes[ci];
        for (uint32_t k = 0; k < c->capacity; k++) {
            corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (!corral__state_alive(co->state)) continue;
            const corral__type_entry *te = &corral__types(s)[co->type];
            uint32_t budget;
            bool ok;
            co->resume = corral__reload_point(te->vt, corral__reload_find(reg, te->id, &budget),
                                              co->resume & CORRAL__POINT_MASK, &ok); /* its line: the old build's */
        }
    }
    corral__reload_places(s, reg, true); /* checked: nothing fails; by the old build's predicates, as checked */
    const corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.wait_bump; i++) /* past the bump: never used */
        if (N[i].co != CORRAL__NIL && corral__kind_is(N[i].kind, CORRAL__HOW_POLL))
            corral__poll_rebind(s, i, corral__reload_predicate(s->types.predicates, d->predicates, N[i].u.p.fn),
                                N[i].u.p.user);
    union { /* aligned for the upgrade hook's view of the old context */
        unsigned char b[CORRAL__RELOAD_STACK];
        uint64_t u;
        double f;
        void *p;
    } stack;
    const uint32_t need = corral__reload_need(s);
    unsigned char *tmp = !need ? NULL : need <= CORRAL__RELOAD_STACK ? stack.b : corral__scratch_lend(s, need);
    corral__reload_map map;
    map.type = CORRAL__NIL;
    map.nv = NULL;
    map.n = 0;
    for (uint32_t ci = 0; tmp != NULL && ci < s->arena.class_count; ci++) { /* the contexts that move, in their slots */
        const corral__class *c = &s->arena.classes[ci];
        for (uint32_t k = 0; k < c->capacity; k++) {
            corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            if (!corral__state_alive(co->state) || !corral__types(s)[co->type].moves) continue;
            const corral__type_entry *te = &corral__types(s)[co->type];
            if (map.type != co->type) corral__reload_map_for(&map, te, co->type, reg);
            corral__reload_move(s, co, te, &map, tmp, d);
        }
    }
    if (tmp && tmp != stack.b) corral__scratch_return(tmp, need); /* a free slot: no context left in it */
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        uint32_t budget;
        corral__type_rebind(s, t, corral__reload_find(reg, corral__types(s)[t].id, &budget));
    }
    corral__types_rehash(s);
    for (uint32_t i = 0; i < reg->count; i++) { /* types new to this scheduler */
        bool known = false;
        for (uint32_t t = 0; t < s->types.type_count && !known; t++) known = corral__types(s)[t].id == reg->ids[i];
        if (!known) corral__type_enter(s, reg->types[i], reg->ids[i]);
    }
    corral__wait_texts_forget(s); /* what the waits said they wait for: the old build's strings */
    corral__kept_forget(s); /* they hold the old build's points and predicates: none is restored */
    corral__types_take_build(s, d);
}

bool corral_reload(corral_sched *s, const corral_reload_desc *d)
{
    if (!corral__check(s)) return false;
    CORRAL__REQUIRE_AT(s, d && d->registry, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    if (!corral__between_ticks(__func__, s)) return false;
    if (!corral__reload_check(s, d)) {
        corral__types_unmark_moves(s);
        return false;
    }
    corral__loading(s, true); /* its upgrade hook calls nothing on it */
    corral__reload_apply(s, d);
    corral__loading(s, false);
    return true;
}
