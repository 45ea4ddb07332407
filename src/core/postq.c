/*
    postq.c -- the post queue's owner side: its part (corral_part_posts:
    its region and its state at create, and its table), applied at
    the start of each frame (what other threads posted, as if completed or
    raised there), closed at destroy. The queue is a bounded
    multi-producer, single-consumer ring of cells in the arena, each with a
    turn number; posts.c is the producers' side. Indices, not pointers;
    atomics through port.h. Without atomics nothing posts and the queue
    stays empty.
*/
#include "../corral_internal.h"

#include <string.h>

/* desc.max_posts rounded up to a power of two */
static uint32_t corral__posts_capacity(const corral_sched_desc *d)
{
    uint32_t cap = 1;
    while (cap < (d->max_posts ? d->max_posts : CORRAL_DEFAULT_MAX_POSTS) && cap < 0x40000000u) cap <<= 1;
    return cap;
}
static uint64_t corral__posts_region(const corral_sched_desc *d) { return corral__posts_bytes(corral__posts_capacity(d)); }

/* the queue empty, each cell's turn its position */
static void corral__posts_init(corral_sched *s, const corral_sched_desc *d, uint32_t at)
{
    (void)at; /* s->parts.state[CORRAL__STATE_POSTS - 1]: corral__postq_of */
    corral__postq *q = corral__postq_of(s);
    memset(q, 0, sizeof *q);
    q->mask = corral__posts_capacity(d) - 1u;
#if CORRAL__HAS_ATOMICS
    corral__atomic_store_u32(&q->tail, 0);
    corral__atomic_store_u32(&q->closed, 0);
    corral__atomic_store_u32(&q->full, 0);
    corral__post *c = corral__post_cells(s);
    for (uint32_t i = 0; i <= q->mask; i++) corral__atomic_store_u32(&c[i].seq, i);
#endif
}

#if CORRAL__HAS_ATOMICS
static void corral__posts_close(corral_sched *s) { corral__atomic_store_u32(&corral__postq_of(s)->closed, 1); }
static void corral__posts_apply(corral_sched *s)
{
    corral__postq *q = corral__postq_of(s);
    corral__post *cells = corral__post_cells(s);
    const uint32_t mask = q->mask;
    for (;;) {
        corral__post *c = &cells[q->head & mask];
        if (corral__atomic_load_acq_u32(&c->seq) != q->head + 1) return; /* empty, or being written */
        uint32_t kind = c->kind, index = c->index, gen = c->gen;
        corral_value v;
        v.u = c->value;
        corral__atomic_store_rel_u32(&c->seq, q->head + mask + 1); /* free for the next lap */
        q->head++;
        bool done = false;
        if (kind == CORRAL__POST_FUTURE) {
            corral_future f = {index, gen};
            const corral__futures_part *fp = (const corral__futures_part *)corral__feature(s, CORRAL__FEATURE_FUTURES);
            done = fp && fp->live(s, f) && fp->finish(s, f, v); /* no futures part: none live */
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
static void corral__posts_stats(const corral_sched *s, corral_pool_stats *out)
{
    corral__postq *q = corral__postq_of(s);
    out->posts_capacity = q->mask + 1;
    out->posts_applied = q->applied;
    out->posts_stale = q->stale;
    out->posts_full = corral__atomic_load_u32(&q->full);
}
#else
static void corral__posts_close(corral_sched *s) { (void)s; }
static void corral__posts_apply(corral_sched *s) { (void)s; }
static void corral__posts_stats(const corral_sched *s, corral_pool_stats *out)
{
    out->posts_capacity = corral__postq_of(s)->mask + 1; /* the ring is in the block; every post is refused (NO_THREADS) */
}
#endif

static const corral__posts_part corral__posts_table = {corral__posts_close, corral__posts_apply, corral__posts_stats};
const corral_part corral_part_posts = {
    .feature = CORRAL__FEATURE_POSTS,
    .table = &corral__posts_table,
    .state = CORRAL__STATE_POSTS,
    .align = 64, /* the producers' line alone in its cache line */
    .bytes = corral__posts_region,
    .init = corral__posts_init,
};
