/*
    starts.c -- the starts beside corral_start: with options
    (corral_start_ex: phase, owner and tags, time domain, a single mode)
    and in batches (corral_start_n). A start's path is lifecycle.h's.
*/
#include "../corral_internal.h"
#include "arena.h"
#include "lifecycle.h"

/* A start with a single mode (corral_start_desc.single): refuse, replace or
   queue behind the live instances of its owner and tags. */
static corral_handle corral__start_single(const char *call, corral_sched *s, const corral_type *vt, const void *ctx,
                                          size_t ctx_size, const corral_start_desc *opts)
{
    corral_handle h = {0, 0};
    uint32_t phase;
    if (!corral__start_checks(call, s, opts, &phase)) return h;
    CORRAL__REQUIRE_AT(s, (unsigned)opts->single < CORRAL_SINGLE_COUNT && opts->tags, CORRAL_ERR_BAD_START, call,
                       CORRAL__NOH, NULL, NULL, h);
    uint32_t found[CORRAL_MAX_GROUP];
    uint32_t n = corral__instances(s, opts->owner, opts->tags, found, CORRAL_MAX_GROUP);
    if (opts->single == CORRAL_SINGLE_REFUSE && n) {
        corral__fail_at(s, NULL, CORRAL_ERR_ALREADY_RUNNING, call, CORRAL__NOH, NULL, NULL);
        return h;
    }
    while (opts->single == CORRAL_SINGLE_REPLACE && n) { /* one on the C stack ends after its step: not found again */
        for (uint32_t k = 0; k < n && k < CORRAL_MAX_GROUP; k++) {
            corral_co *old = corral__co_of_global(s, found[k]);
            if (corral__state_alive(old->state)) corral__stop_co(s, old, CORRAL_END_REPLACED);
        }
        n = corral__instances(s, opts->owner, opts->tags, found, CORRAL_MAX_GROUP);
    }
    if (opts->single != CORRAL_SINGLE_QUEUE || n == 0) return corral_start_ex(s, vt, ctx, ctx_size, &(corral_start_desc){
        .phase = opts->phase, .owner = opts->owner, .tags = opts->tags, .domain = opts->domain});
    CORRAL__REQUIRE_AT(s, n <= CORRAL_MAX_GROUP, CORRAL_ERR_ALREADY_RUNNING, call, CORRAL__NOH, NULL,
                       "more than CORRAL_MAX_GROUP instances to queue behind", h);
    if (s->nodes.wait_free_count < n) { /* before taking anything */
        s->nodes.wait_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL);
        return h;
    }
    corral__meta *m;
    corral_co *co = corral__create(call, s, vt, ctx, ctx_size, phase, opts->owner, opts->tags, &h, &m);
    if (!co) return (corral_handle){0, 0};
    corral__co_domain_put(call, s, m, opts->domain); /* its tags' record (admitted) holds it */
    corral_wait joins[CORRAL_MAX_GROUP];
    for (uint32_t k = 0; k < n; k++) joins[k] = corral_wait_join(corral__handle_of(s, corral__co_of_global(s, found[k])));
    corral_wait all = corral_wait_all(joins, n);
    corral__register_wait(call, s, co, corral__side_if(s, m), &all); /* live, not itself, nodes free: it waits (its first step comes then) */
    return h;
}

/* a batch of one plain or one other type; plain: a constant */
static CORRAL__ALWAYS_INLINE size_t corral__start_batch(corral_sched *s, uint32_t ti, const unsigned char *p,
                                                        size_t ctx_size, size_t n, corral_handle *out, bool plain)
{
    corral__type_entry *te = &corral__types(s)[ti];
    size_t k = 0;
    for (; k < n; k++, p += ctx_size) {
        corral_handle h = {0, 0};
        if (k > 0 && !corral__room_for("corral_start_n", s, te)) break;
        corral__start_as("corral_start_n", s, ti, p, ctx_size, CORRAL__PH_UPDATE, 0, 0, 0, &h, plain);
        if (h.gen == 0) break; /* no slot: the error is set */
        if (out) out[k] = h;
    }
    return k;
}

size_t corral_start_n(corral_sched *s, const corral_type *vt, const void *ctxs, size_t ctx_size, size_t n,
                      corral_handle *out)
{
    if (!corral__check(s) || n == 0) return 0;
    uint32_t ti = corral__admit(__func__, s, vt, ctxs, ctx_size, 0, 0, 0);
    if (ti == CORRAL__NIL) return 0;
    if (corral__types(s)[ti].plain) return corral__start_batch(s, ti, (const unsigned char *)ctxs, ctx_size, n, out, true);
    return corral__start_batch(s, ti, (const unsigned char *)ctxs, ctx_size, n, out, false);
}

corral_handle corral_start_ex(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size,
                              const corral_start_desc *opts)
{
    if (CORRAL__UNLIKELY(opts && opts->single != CORRAL_SINGLE_NONE))
        return corral__start_single(__func__, s, vt, ctx, ctx_size, opts);
    return corral__start(__func__, s, vt, ctx, ctx_size, opts, false);
}
