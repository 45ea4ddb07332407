/*
    wakelists.c -- signals: handles (from their pool, pool.c) to a FIFO
    list of the nodes waiting on them; raising a signal fires its list. A
    set signal fires its list as a raise does and stays set: every later
    wait on it is over at once (its ready), until a reset.
    Firing a list is shared with futures (futures.c).

    The nodes and what firing one wakes are the waits' (waits.c).
*/
#include "../corral_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- signals */
corral__signal *corral__signal_get(const corral_sched *s, corral_signal sig)
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
    g->set = 0;
    return (corral_signal){i, gen};
}

uint32_t corral__fire_all(corral_sched *s, uint32_t *head, uint32_t *tail)
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
    const corral__signal *g = corral__signal_get(s, w->signal);
    if (g) return g->set ? 1 : 0;
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
    const corral__signal *x = (const corral__signal *)q->item(q->m, CORRAL__POOL_SIGNAL, n->u.t.target, &tmp);
    return x && corral__item_live(x) && !x->set;
}
void corral__item_name(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    (void)s;
    snprintf(buf, cap, " #%u", n->u.t.target);
}
static const char *corral__signal_check(const corral__lview *v, const corral__lwait *w)
{
    const unsigned char *row = v->item(v->L, CORRAL__POOL_SIGNAL, w->ref);
    if (!row) return "a coroutine of type %s waits on a signal or future the save does not hold%s";
    if (w->flags == 0 && v->version >= 5 && corral__le32(row + 8)) return "a coroutine of type %s waits on a set signal%s";
    return NULL;
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

bool corral__signal_live(const corral_sched *s, corral_signal sig) { return corral__signal_get(s, sig) != NULL; }
void corral__signal_fire(corral_sched *s, corral_signal sig)
{
    corral__signal *g = corral__signal_get(s, sig);
    if (g) corral__fire_all(s, &g->head, &g->tail);
}

/* ---- signals that stay set */
uint32_t corral_signal_set(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return 0;
    corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, 0);
    g->set = 1;
    return corral__fire_all(s, &g->head, &g->tail);
}

bool corral_signal_reset(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return false;
    corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, false);
    g->set = 0;
    return true;
}

bool corral_signal_is_set(const corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return false;
    const corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, false);
    return g->set != 0;
}

/* ---- save games: the signals' section (docs/SAVE.md) */

static void corral__signals_save(corral__io *io, const corral_sched *s)
{
    const corral__signal *S = corral__signals(s);
    corral__put_u(io, s->pools[CORRAL__POOL_SIGNAL].live, 4);
    for (uint32_t i = 0; i < s->pools[CORRAL__POOL_SIGNAL].cap; i++)
        if (corral__item_live(&S[i])) {
            corral__put_u(io, i, 4);
            corral__put_u(io, corral__item_gen(&S[i]), 4);
            corral__put_u(io, S[i].set, 4);
        }
}
static const char *corral__signals_read(corral__io *io, const corral_sched *s, uint32_t *n, size_t *rows_at)
{
    *n = (uint32_t)corral__get_u(io, 4);
    *rows_at = io->at;
    if (*n > s->pools[CORRAL__POOL_SIGNAL].cap) return "the save holds more signals than desc.max_signals%s%s";
    for (uint32_t i = 0, prev = 0; i < *n && !io->bad; i++) {
        uint32_t idx = (uint32_t)corral__get_u(io, 4), gen = (uint32_t)corral__get_u(io, 4);
        uint32_t set = io->version >= 5 ? (uint32_t)corral__get_u(io, 4) : 0u;
        if (!corral__pool_row_ok(s, CORRAL__POOL_SIGNAL, idx, gen, i, prev) || set > 1)
            return "a saved signal is out of range%s%s";
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
        corral__signals(s)[idx].set = io->version >= 5 ? (uint32_t)corral__get_u(io, 4) : 0u;
    }
}
static void corral__signal_hash(const corral_sched *s, uint32_t i, const void *item, void (*put)(void *k, uint64_t v),
                                void *k)
{
    (void)s;
    put(k, i);
    if (((const corral__signal *)item)->set) put(k, 1u << 31); /* set: not the default */
}
static const char *corral__signal_verify_item(const corral_sched *s, const void *item)
{
    (void)s;
    const corral__signal *g = (const corral__signal *)item;
    return g->set > 1 ? "a signal is neither set nor reset" : NULL;
}
const corral__pool_part corral__signal_pool_part = {
    .row = 12,
    .row4 = 8,
    .verify = corral__signal_verify_item,
    .save = corral__signals_save,
    .read = corral__signals_read,
    .load = corral__signals_load,
    .lists = 1,
    .list = {{offsetof(corral__signal, head), CORRAL_WAIT_SIGNAL, CORRAL_WAIT_SIGNAL}},
    .hash = corral__signal_hash,
};
