/*
    handles.c -- handle <-> slot, and the public calls that only look a
    handle up (alive, context).

    A handle is {class << 24 | slot, generation}. Resolving checks the class
    and slot exist (else: forged), then that the slot's generation matches
    and the coroutine has not ended (else: stale). Generations start at 1
    and grow on every free, past the page's floor (snapshot.c); a slot at
    UINT32_MAX is retired, never reused, so a stale handle can never come
    back to life.
*/
#include "../corral_internal.h"

corral_co *corral__resolve(const corral_sched *s, corral_handle h, corral_error *err)
{
    if (h.gen == 0) {
        *err = CORRAL_ERR_NULL_HANDLE;
        return NULL;
    }
    uint32_t cls = h.index >> CORRAL__CLASS_SHIFT, local = h.index & CORRAL__LOCAL_MASK;
    if (cls >= s->arena.class_count || local >= s->arena.classes[cls].capacity) {
        *err = CORRAL_ERR_FORGED_HANDLE;
        return NULL;
    }
    const corral__class *c = &s->arena.classes[cls];
    corral_co *co = CORRAL__CO(s, c->base + local * c->slot_size);
    if (CORRAL__LIKELY(co->gen == h.gen && corral__state_alive(co->state))) return co;
    /* a generation this slot has never had (below its page's floor it may
       have had it before a restore) */
    if (h.gen > co->gen && h.gen >= corral__pages(s, c)[local >> c->page_shift].floor)
        *err = CORRAL_ERR_FORGED_HANDLE;
    else
        *err = CORRAL_ERR_STALE_HANDLE;
    return NULL;
}

bool corral__debug_set_gen(corral_sched *s, uint32_t index, uint32_t gen)
{
    uint32_t cls = index >> CORRAL__CLASS_SHIFT, local = index & CORRAL__LOCAL_MASK;
    if (!s || cls >= s->arena.class_count || local >= s->arena.classes[cls].capacity || gen == 0) return false;
    const corral__class *c = &s->arena.classes[cls];
    CORRAL__CO(s, c->base + local * c->slot_size)->gen = gen;
    return true;
}

corral_co *corral__live(const char *call, corral_sched *s, corral_handle h)
{
    if (!corral__check_in(s, call)) return NULL;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    if (!co) corral__fail_at(s, NULL, err, call, h, NULL, NULL);
    return co;
}

bool corral_alive(const corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    return corral__resolve(s, h, &err) != NULL;
}

void *corral_context(corral_sched *s, corral_handle h, const corral_type *type)
{
    if (!corral__check(s)) return NULL;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    CORRAL__REQUIRE_AT(s, co, err, __func__, h, NULL, NULL, NULL);
    const corral__type_entry *te = &corral__types(s)[co->type];
    CORRAL__REQUIRE_AT(s, te->vt == type, CORRAL_ERR_WRONG_TYPE, __func__, h, NULL, te->vt->name, NULL);
    return CORRAL__AT(co, te->ctx_off);
}
