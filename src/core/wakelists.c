/*
    wakelists.c -- signals and futures: handles (from their pools, pool.c)
    to a FIFO list of the nodes waiting on them. Raising a signal fires its list;
    completing (or releasing) a future fires its list and keeps its value.

    The nodes and what firing one wakes are the waits' (waits.c).
*/
#include "../corral_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- signals */
static corral__signal *corral__signal_get(const corral_sched *s, corral_signal sig)
{
    return (corral__signal *)corral__pool_get(s, CORRAL__POOL_SIGNAL, sig.index, sig.gen);
}

corral_signal corral_signal_create(corral_sched *s)
{
    corral_signal none = {0, 0};
    if (!corral__check(s)) return none;
    uint32_t gen = 0, i = corral__pool_alloc(s, CORRAL__POOL_SIGNAL, &gen);
    CORRAL__REQUIRE(s, i != CORRAL__NIL, CORRAL_ERR_SIGNAL_POOL_EXHAUSTED, none);
    corral__signal *g = &corral__signals(s)[i];
    g->head = g->tail = CORRAL__NIL;
    return (corral_signal){i, gen};
}

static uint32_t corral__fire_all(corral_sched *s, uint32_t *head, uint32_t *tail)
{
    corral__list l = {head, tail};
    uint32_t n = 0;
    while (*head != CORRAL__NIL) {
        uint32_t i = *head;
        corral__list_unlink(s, l, i);
        corral__fire(s, i);
        n++;
    }
    return n;
}

uint32_t corral_signal_raise(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return 0;
    corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, 0);
    return corral__fire_all(s, &g->head, &g->tail);
}

bool corral_signal_destroy(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return false;
    corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, false);
    corral__fire_all(s, &g->head, &g->tail);
    corral__pool_free(s, CORRAL__POOL_SIGNAL, sig.index);
    return true;
}

/* the waits' questions about a signal wait: ready, arm, list */
static int corral__signal_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    if (corral__signal_get(s, w->signal)) return 0;
    corral__fail_at(s, NULL, CORRAL_ERR_STALE_SIGNAL, call, CORRAL__NOH, co, NULL);
    return -3;
}
static corral__list corral__signal_list(corral_sched *s, const corral__node *n);
static void corral__signal_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    (void)co;
    corral__node *n = &corral__nodes(s)[i];
    n->u.t.target = w->signal.index;
    corral__list_push(s, corral__signal_list(s, n), i);
}
static corral__list corral__signal_list(corral_sched *s, const corral__node *n)
{
    corral__signal *g = &corral__signals(s)[n->u.t.target];
    return (corral__list){&g->head, &g->tail};
}
static bool corral__signal_verify(const corral__vquery *q, const corral__node *n)
{
    corral__any_item tmp;
    const void *x = q->item(q->m, CORRAL__POOL_SIGNAL, n->u.t.target, &tmp);
    return x && corral__item_live(x);
}
static void corral__item_name(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    (void)s;
    snprintf(buf, cap, " #%u", n->u.t.target);
}
static const char *corral__signal_check(const corral__lview *v, const corral__lwait *w)
{
    return v->item(v->L, CORRAL__POOL_SIGNAL, w->ref) ? NULL
                                                     : "a coroutine of type %s waits on a signal or future the save does not hold%s";
}
const corral__wait_part corral__signal_part = {
    .ready = corral__signal_ready,
    .arm = corral__signal_arm,
    .list = corral__signal_list,
    .verify = corral__signal_verify,
    .name = corral__item_name,
    .save = corral__index_save,
    .read = corral__index_read,
    .check = corral__signal_check,
    .place = corral__index_place,
};

/* ---- futures */
static corral__future *corral__future_get(const corral_sched *s, corral_future f)
{
    return (corral__future *)corral__pool_get(s, CORRAL__POOL_FUTURE, f.index, f.gen);
}

corral_future corral_future_create(corral_sched *s)
{
    corral_future none = {0, 0};
    if (!corral__check(s)) return none;
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

/* for posts.c: apply a posted completion or raise (false: gone or done) */
bool corral__future_live(const corral_sched *s, corral_future f)
{
    const corral__future *g = corral__future_get(s, f);
    return g && !g->done;
}
bool corral__future_finish(corral_sched *s, corral_future f, corral_value v)
{
    corral__future *g = corral__future_get(s, f);
    if (!g || g->done) return false;
    g->done = 1;
    g->value = v;
    corral__fire_all(s, &g->head, &g->tail);
    return true;
}
bool corral__signal_live(const corral_sched *s, corral_signal sig) { return corral__signal_get(s, sig) != NULL; }
void corral__signal_fire(corral_sched *s, corral_signal sig)
{
    corral__signal *g = corral__signal_get(s, sig);
    if (g) corral__fire_all(s, &g->head, &g->tail);
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
const corral__wait_part corral__future_part = {
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

/* ---- save games: signals' and futures' sections (docs/SAVE.md) */

static void corral__signals_save(corral__io *io, const corral_sched *s)
{
    const corral__signal *S = corral__signals(s);
    corral__put_u(io, s->pools[CORRAL__POOL_SIGNAL].live, 4);
    for (uint32_t i = 0; i < s->pools[CORRAL__POOL_SIGNAL].cap; i++)
        if (corral__item_live(&S[i])) {
            corral__put_u(io, i, 4);
            corral__put_u(io, corral__item_gen(&S[i]), 4);
        }
}
static const char *corral__signals_read(corral__io *io, const corral_sched *s, uint32_t *n, size_t *rows_at)
{
    *n = (uint32_t)corral__get_u(io, 4);
    *rows_at = io->at;
    if (*n > s->pools[CORRAL__POOL_SIGNAL].cap) return "the save holds more signals than desc.max_signals%s%s";
    for (uint32_t i = 0, prev = 0; i < *n && !io->bad; i++) {
        uint32_t idx = (uint32_t)corral__get_u(io, 4), gen = (uint32_t)corral__get_u(io, 4);
        if (!corral__pool_row_ok(s, CORRAL__POOL_SIGNAL, idx, gen, i, prev)) return "a saved signal is out of range%s%s";
        prev = idx;
    }
    return NULL;
}
static void corral__signals_load(corral__io *io, corral_sched *s, uint32_t n, size_t rows_at)
{
    io->at = rows_at;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t idx = (uint32_t)corral__get_u(io, 4);
        corral__pool_revive(s, CORRAL__POOL_SIGNAL, idx, (uint32_t)corral__get_u(io, 4));
    }
}
static void corral__signal_hash(const corral_sched *s, uint32_t i, const void *item, void (*put)(void *k, uint64_t v),
                                void *k)
{
    (void)s;
    (void)item;
    put(k, i);
}
const corral__pool_part corral__signal_pool_part = {
    .row = 8,
    .save = corral__signals_save,
    .read = corral__signals_read,
    .load = corral__signals_load,
    .lists = 1,
    .list = {{offsetof(corral__signal, head), CORRAL_WAIT_SIGNAL, CORRAL_WAIT_SIGNAL}},
    .hash = corral__signal_hash,
};

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
const corral__pool_part corral__future_pool_part = {
    .row = 17,
    .save = corral__futures_save,
    .read = corral__futures_read,
    .load = corral__futures_load,
    .lists = 1,
    .list = {{offsetof(corral__future, head), CORRAL_WAIT_FUTURE, CORRAL_WAIT_FUTURE}},
    .hash = corral__future_hash,
};
