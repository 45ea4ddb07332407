/*
    create.c -- a coroutine admitted and made, its first step not run: a
    call's child (its first step runs from the ready list), a generator, a
    start queued behind others. corral_start does not come here (its path is
    lifecycle.h's, inline), so a game that only starts coroutines links
    none of it, nor the groups it may join.
*/
#include "../corral_internal.h"
#include "lifecycle.h"

/* admit, then take (a call's child: its first step runs later, from the
   ready list). NULL, with the error set and counted, if it cannot. */
corral_co *corral__create(const char *call, corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size,
                          uint32_t phase, uint64_t owner, uint32_t tags, corral_handle *out, corral__meta **meta_out)
{
    uint32_t ti = corral__admit(call, s, vt, ctx, ctx_size, owner, tags);
    if (ti == CORRAL__NIL) return NULL;
    return corral__take(call, s, ti, ctx, ctx_size, phase, owner, tags, out, meta_out, false);
}
