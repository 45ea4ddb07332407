/*
    futures.c -- futures: handles (from their pool, pool.c) to a value set
    once and a FIFO list of the nodes waiting for it; completing (or
    releasing) a future fires its list and keeps its value. A feature of
    the core: its tables arrive with the first corral_future_create
    (corral__futures_use), and the frame (a posted completion) reaches it
    only through them.
*/
#include "../corral_internal.h"

#include <stddef.h>
#include <string.h>

static corral__future *corral__future_get(const corral_sched *s, corral_future f)
{
    return (corral__future *)corral__pool_get(s, CORRAL__POOL_FUTURE, f.index, f.gen);
}

corral_future corral_future_create(corral_sched *s)
{
    corral_future none = {0, 0};
    if (!corral__check(s) || !corral__part_needed(__func__, s, NULL, s->parts.feature[CORRAL__FEATURE_FUTURES], "futures")) return none;
    uint32_t gen = 0, i = corral__pool_alloc(s, CORRAL__POOL_FUTURE, &gen);
    CORRAL__REQUIRE(s, i != CORRAL__NIL, CORRAL_ERR_FUTURE_POOL_EXHAUSTED, none);
    corral__future *g = &corral__futures(s)[i];
    g->head = g->tail = CORRAL__NIL;
    g->done = 0;
    g->value.u = 0;
    return (corral_future){i, gen};
}

bool corral_future_complete(corral_sched *s, corral_future f, corral_value v)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_FUTURE, false);
    CORRAL__REQUIRE(s, !g->done, CORRAL_ERR_FUTURE_DONE, false);
    g->done = 1;
    g->value = v;
    corral__fire_all(s, &g->head, &g->tail);
    return true;
}

/* a posted completion (postq.c, through the feature's table): false, gone or done */
static bool corral__future_live(const corral_sched *s, corral_future f)
{
    const corral__future *g = corral__future_get(s, f);
    return g && !g->done;
}
static bool corral__future_finish(corral_sched *s, corral_future f, corral_value v)
{
    corral__future *g = corral__future_get(s, f);
    if (!g || g->done) return false;
    g->done = 1;
    g->value = v;
    corral__fire_all(s, &g->head, &g->tail);
    return true;
}
bool corral_future_done(const corral_sched *s, corral_future f)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_FUTURE, false);
    return g->done != 0;
}

bool corral_future_value(const corral_sched *s, corral_future f, corral_value *out)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    if (!g || !out) {
        corral__fail(s, NULL, g ? CORRAL_ERR_NULL_ARG : CORRAL_ERR_STALE_FUTURE);
        return false;
    }
    if (!g->done) return false;
    *out = g->value;
    return true;
}

bool corral_future_release(corral_sched *s, corral_future f)
{
    if (!corral__check(s)) return false;
    corral__future *g = corral__future_get(s, f);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_FUTURE, false);
    corral__fire_all(s, &g->head, &g->tail); /* nobody waits forever on a released future */
    corral__pool_free(s, CORRAL__POOL_FUTURE, f.index);
    return true;
}

/* the waits' questions about a future wait: ready, arm, list */
static int corral__future_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral__future *g = corral__future_get(s, w->future);
    if (g) return g->done != 0;
    corral__fail_at(s, NULL, CORRAL_ERR_STALE_FUTURE, call, CORRAL__NOH, co, NULL);
    return -3;
}
static corral__list corral__future_list(corral_sched *s, const corral__node *n);
static void corral__future_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    (void)co;
    corral__node *n = &corral__nodes(s)[i];
    n->u.t.target = w->future.index;
    corral__list_push(s, corral__future_list(s, n), i);
}
static corral__list corral__future_list(corral_sched *s, const corral__node *n)
{
    corral__future *g = &corral__futures(s)[n->u.t.target];
    return (corral__list){&g->head, &g->tail};
}
static bool corral__future_verify(const corral__vquery *q, const corral__node *n)
{
    corral__any_item tmp;
    const void *x = q->item(q->m, CORRAL__POOL_FUTURE, n->u.t.target, &tmp);
    return x && corral__item_live(x);
}
static const char *corral__future_check(const corral__lview *v, const corral__lwait *w)
{
    return v->item(v->L, CORRAL__POOL_FUTURE, w->ref) ? NULL
                                                     : "a coroutine of type %s waits on a signal or future the save does not hold%s";
}
static const corral__wait_part corral__future_part = {
    .ready = corral__future_ready,
    .arm = corral__future_arm,
    .list = corral__future_list,
    .verify = corral__future_verify,
    .name = corral__item_name,
    .save = corral__index_save,
    .read = corral__index_read,
    .check = corral__future_check,
    .place = corral__index_place,
};

/* ---- save games: the futures' section (docs/SAVE.md) */

static void corral__futures_save(corral__io *io, const corral_sched *s)
{
    const corral__future *F = corral__futures(s);
    corral__put_u(io, s->pools[CORRAL__POOL_FUTURE].live, 4);
    for (uint32_t i = 0; i < s->pools[CORRAL__POOL_FUTURE].cap; i++)
        if (corral__item_live(&F[i])) {
            corral__put_u(io, i, 4);
            corral__put_u(io, corral__item_gen(&F[i]), 4);
            corral__put_u(io, F[i].done ? 1u : 0u, 1);
            corral__put_u(io, F[i].value.u, 8);
        }
}
static const char *corral__futures_read(corral__io *io, const corral_sched *s, uint32_t *n, size_t *rows_at)
{
    *n = (uint32_t)corral__get_u(io, 4);
    *rows_at = io->at;
    if (*n > s->pools[CORRAL__POOL_FUTURE].cap) return "the save holds more futures than desc.max_futures%s%s";
    for (uint32_t i = 0, prev = 0; i < *n && !io->bad; i++) {
        uint32_t idx = (uint32_t)corral__get_u(io, 4), gen = (uint32_t)corral__get_u(io, 4);
        uint8_t done = (uint8_t)corral__get_u(io, 1);
        corral__get_u(io, 8);
        if (!corral__pool_row_ok(s, CORRAL__POOL_FUTURE, idx, gen, i, prev) || done > 1)
            return "a saved future is out of range%s%s";
        prev = idx;
    }
    return NULL;
}
static void corral__futures_load(corral__io *io, corral_sched *s, uint32_t n, size_t rows_at)
{
    corral__future *F = corral__futures(s);
    io->at = rows_at;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t idx = (uint32_t)corral__get_u(io, 4);
        corral__pool_revive(s, CORRAL__POOL_FUTURE, idx, (uint32_t)corral__get_u(io, 4));
        F[idx].done = (uint32_t)corral__get_u(io, 1);
        F[idx].value.u = corral__get_u(io, 8);
    }
}
static void corral__future_hash(const corral_sched *s, uint32_t i, const void *item, void (*put)(void *k, uint64_t v),
                                void *k)
{
    (void)s;
    const corral__future *f = (const corral__future *)item;
    put(k, (uint64_t)i << 1 | (f->done ? 1u : 0u));
    put(k, f->value.u);
}
static const corral__pool_part corral__future_pool_part = {
    .row = 17,
    .save = corral__futures_save,
    .read = corral__futures_read,
    .load = corral__futures_load,
    .lists = 1,
    .list = {{offsetof(corral__future, head), CORRAL_WAIT_FUTURE, CORRAL_WAIT_FUTURE}},
    .hash = corral__future_hash,
};

/* ---- the part's table */
static const corral__futures_part corral__futures_table = {corral__future_live, corral__future_finish};
const corral_part corral_part_futures = {
    .waits = {{CORRAL_WAIT_FUTURE, CORRAL_WAIT_FUTURE, &corral__future_part}},
    .pools = {{CORRAL__POOL_FUTURE, 1, &corral__future_pool_part}},
    .feature = CORRAL__FEATURE_FUTURES,
    .table = &corral__futures_table,
};
