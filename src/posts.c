/*
    posts.c -- completions and raises posted from other threads: a bounded
    multi-producer, single-consumer queue in the arena (a ring of cells,
    each with a turn number, as in Vyukov's bounded queue), indices not
    pointers, atomics through port.h. A producer takes a position with a
    compare-and-swap on the tail, writes its cell and hands it over by
    setting the cell's turn; the owner applies cells in position order at
    the start of each frame and gives each back for the ring's next lap.
    A producer's posts take increasing positions, so they apply in its
    order; a full ring refuses the post and the producer may retry.

    The rules for users are docs/API.md, "Threads". Everything here but
    the two posting calls runs on the owner's thread.
*/
#include "corral_internal.h"

#include <string.h>

size_t corral__posts_bytes(uint32_t capacity) { return sizeof(corral__postq) + (size_t)capacity * sizeof(corral__post); }

#if CORRAL__HAS_ATOMICS
static corral__postq *corral__postq_of(const corral_sched *s)
{
    return (corral__postq *)(void *)CORRAL__AT(s, s->posts.off);
}
static corral__post *corral__cells(const corral_sched *s)
{
    return (corral__post *)(void *)CORRAL__AT(s, s->posts.off + (uint32_t)sizeof(corral__postq));
}


void corral__posts_init(corral_sched *s)
{
    corral__postq *q = corral__postq_of(s);
    memset(q, 0, sizeof *q);
    corral__atomic_store_u32(&q->tail, 0);
    corral__atomic_store_u32(&q->closed, 0);
    corral__atomic_store_u32(&q->full, 0);
    corral__post *c = corral__cells(s);
    for (uint32_t i = 0; i <= s->posts.mask; i++) corral__atomic_store_u32(&c[i].seq, i);
}

void corral__posts_close(corral_sched *s) { corral__atomic_store_u32(&corral__postq_of(s)->closed, 1); }

/* Any thread. The scheduler's own fields are not read: only the queue. */
static bool corral__post_one(corral_sched *s, uint32_t kind, uint32_t index, uint32_t gen, uint64_t value, const char *call)
{
    if (!s) {
        corral__fail_at(NULL, NULL, CORRAL_ERR_NULL_SCHED, call, CORRAL__NOH, NULL, NULL);
        return false;
    }
    corral__postq *q = corral__postq_of(s);
    if (corral__atomic_load_u32(&q->closed)) {
        corral__fail_at(NULL, NULL, CORRAL_ERR_DESTROYING, call, CORRAL__NOH, NULL, NULL);
        return false;
    }
    corral__post *cells = corral__cells(s);
    const uint32_t mask = s->posts.mask; /* set at create, never written again */
    for (;;) {
        uint32_t pos = corral__atomic_load_u32(&q->tail);
        corral__post *c = &cells[pos & mask];
        int32_t dif = (int32_t)(corral__atomic_load_acq_u32(&c->seq) - pos);
        if (dif == 0) {
            if (!corral__atomic_cas_u32(&q->tail, pos, pos + 1)) continue; /* another producer took it */
            c->kind = kind;
            c->index = index;
            c->gen = gen;
            c->value = value;
            corral__atomic_store_rel_u32(&c->seq, pos + 1); /* the owner's now: its fields with it */
            return true;
        }
        if (dif < 0) { /* the owner has not applied this cell's last lap yet: full */
            corral__atomic_add_u32(&q->full, 1);
            corral__fail_at(NULL, NULL, CORRAL_ERR_POST_QUEUE_FULL, call, CORRAL__NOH, NULL, NULL);
            return false;
        }
        /* dif > 0: the tail moved on under us; look again */
    }
}

void corral__posts_apply(corral_sched *s)
{
    corral__postq *q = corral__postq_of(s);
    corral__post *cells = corral__cells(s);
    for (;;) {
        corral__post *c = &cells[q->head & s->posts.mask];
        if (corral__atomic_load_acq_u32(&c->seq) != q->head + 1) return; /* empty, or being written */
        uint32_t kind = c->kind, index = c->index, gen = c->gen;
        corral_value v;
        v.u = c->value;
        corral__atomic_store_rel_u32(&c->seq, q->head + s->posts.mask + 1); /* free for the next lap */
        q->head++;
        bool done = false;
        if (kind == CORRAL__POST_FUTURE) {
            corral_future f = {index, gen};
            done = corral__future_live(s, f) && corral__future_finish(s, f, v);
        } else {
            corral_signal sig = {index, gen};
            if (corral__signal_live(s, sig)) {
                corral__signal_fire(s, sig);
                done = true;
            }
        }
        if (done) q->applied++;
        else q->stale++; /* released, completed already, destroyed: never another's */
    }
}

void corral__posts_stats(const corral_sched *s, corral_pool_stats *out)
{
    corral__postq *q = corral__postq_of(s);
    out->posts_capacity = s->posts.mask + 1;
    out->posts_applied = q->applied;
    out->posts_stale = q->stale;
    out->posts_full = corral__atomic_load_u32(&q->full);
}
#else
void corral__posts_init(corral_sched *s) { (void)s; }
void corral__posts_close(corral_sched *s) { (void)s; }
void corral__posts_apply(corral_sched *s) { (void)s; }
void corral__posts_stats(const corral_sched *s, corral_pool_stats *out)
{
    (void)s;
    (void)out;
}
static bool corral__post_one(corral_sched *s, uint32_t kind, uint32_t index, uint32_t gen, uint64_t value, const char *call)
{
    (void)s;
    (void)kind;
    (void)index;
    (void)gen;
    (void)value;
    corral__fail_at(NULL, NULL, CORRAL_ERR_NO_THREADS, call, CORRAL__NOH, NULL, NULL);
    return false;
}
#endif

bool corral_future_post(corral_sched *s, corral_future f, corral_value v)
{
    return corral__post_one(s, CORRAL__POST_FUTURE, f.index, f.gen, v.u, __func__);
}

bool corral_signal_post(corral_sched *s, corral_signal sig)
{
    return corral__post_one(s, CORRAL__POST_SIGNAL, sig.index, sig.gen, 0, __func__);
}
