/*
    reload.c -- hot reload: the game has loaded a new build of its gameplay
    code (a shared library, say) and hands its registry over
    (corral_reload); every live coroutine goes on in the new code, where it
    stood. Each type entry is rebound by its registry id to the new type's
    step, cleanup and field table, each coroutine's resume point mapped by
    name, each predicate by its id; handles, waits, timers, calls, races,
    channels and groups stay as they are. Everything is checked first: a
    reload that does not fit changes nothing. Snapshots taken before hold
    the old build's points: a kept one is forgotten, one in the caller's
    buffer is refused by its types (snapshot.c).

    A context's layout may not change yet (fields, sizes, result): such a
    type is refused by name, as is a coroutine at an unnamed point, a type
    outside the registry and a predicate the new build does not list.
*/
#include "../corral_internal.h"

#include <stdio.h>
#include <string.h>

/* the type table's hash again (types.c's layout), after the entries'
   vtables changed */
static void corral__reload_rehash(corral_sched *s)
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

/* everything the reload would do, checked; nothing changed */
static bool corral__reload_check(corral_sched *s, const corral_reload_desc *d)
{
    const corral_registry *reg = d->registry;
    for (uint32_t i = 0; i < reg->count; i++) {
        if (!reg->types || !reg->ids || !corral__type_ok(reg->types[i]) || reg->ids[i] == 0)
            return corral__reload_refuse(s, "the new registry '%s' has a malformed type%s", reg->name, NULL);
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
        const char *field, *what = corral__reload_layout(te->vt, nv, &field);
        if (what) {
            char why[160];
            snprintf(why, sizeof why, "type %%s changed %s%s%s: a reload moves no context yet", what,
                     *field ? " " : "", field);
            return corral__reload_refuse(s, why, te->vt->name, NULL);
        }
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
    for (uint32_t i = 0; i < s->nodes.wait_bump; i++) /* every predicate waited on, by id (past the bump: never used) */
        if (N[i].co != CORRAL__NIL && corral__kind_is(N[i].kind, CORRAL__HOW_POLL) &&
            !corral__reload_predicate(s->types.predicates, d->predicates, N[i].u.p.fn))
            return corral__reload_refuse(s, "a coroutine of type %s waits on a predicate the new build's "
                                            "desc.predicates does not list by the same id%s",
                                         corral__types(s)[CORRAL__CO(s, N[i].co)->type].vt->name, NULL);
    return true;
}

bool corral_reload(corral_sched *s, const corral_reload_desc *d)
{
    if (!corral__check(s)) return false;
    CORRAL__REQUIRE_AT(s, d && d->registry, CORRAL_ERR_NULL_ARG, __func__, CORRAL__NOH, NULL, NULL, false);
    if (!corral__between_ticks(__func__, s)) return false;
    if (!corral__reload_check(s, d)) return false;
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
    corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.wait_bump; i++) /* past the bump: never used */
        if (N[i].co != CORRAL__NIL && corral__kind_is(N[i].kind, CORRAL__HOW_POLL))
            N[i].u.p.fn = corral__reload_predicate(s->types.predicates, d->predicates, N[i].u.p.fn);
    for (uint32_t t = 0; t < s->types.type_count; t++) {
        corral__type_entry *te = &corral__types(s)[t];
        uint32_t budget;
        const corral_type *nv = corral__reload_find(reg, te->id, &budget);
        te->vt = nv;
        te->step = nv->step;
        te->run = nv->run;
        te->cleanup = nv->cleanup;
        te->plain = corral__plain(s, te);
    }
    corral__reload_rehash(s);
    for (uint32_t i = 0; i < reg->count; i++) { /* types new to this scheduler */
        bool known = false;
        for (uint32_t t = 0; t < s->types.type_count && !known; t++) known = corral__types(s)[t].id == reg->ids[i];
        if (!known) corral__types(s)[corral__type_lookup(s, reg->types[i])].id = reg->ids[i];
    }
    if (s->nodes.text_off) /* what the waits said they wait for: the old build's strings */
        memset(CORRAL__AT(s, s->nodes.text_off), 0, (size_t)s->nodes.wait_count * sizeof(const char *));
    if (s->kept.off) { /* kept snapshots hold the old build's points and predicates: none is restored */
        const corral__kept *K = (const corral__kept *)(const void *)CORRAL__AT(s, s->kept.off);
        for (uint32_t k = 0; k < K->count; k++) memset(corral__kept_at(s, K, k), 0, 8);
    }
    s->types.registry = reg;
    s->types.predicates = d->predicates;
    s->types.seen_count = 0; /* functions of the old build */
    s->types.upgrade.fn = d->upgrade;
    s->types.upgrade.user = d->upgrade_user;
    return true;
}
