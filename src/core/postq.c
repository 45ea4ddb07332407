/*
    postq.c -- the post queue's owner side: laid out at create, applied at
    the start of each frame (what other threads posted, as if completed or
    raised there), closed at destroy. The queue is a bounded
    multi-producer, single-consumer ring of cells in the arena, each with a
    turn number; posts.c is the producers' side. Indices, not pointers;
    atomics through port.h. Without atomics nothing posts and the queue
    stays empty.
*/
#include "../corral_internal.h"

#include <string.h>

#if CORRAL__HAS_ATOMICS
void corral__posts_init(corral_sched *s)
{
    corral__postq *q = corral__postq_of(s);
    memset(q, 0, sizeof *q);
    corral__atomic_store_u32(&q->tail, 0);
    corral__atomic_store_u32(&q->closed, 0);
    corral__atomic_store_u32(&q->full, 0);
    corral__post *c = corral__post_cells(s);
    for (uint32_t i = 0; i <= s->posts.mask; i++) corral__atomic_store_u32(&c[i].seq, i);
}
void corral__posts_close(corral_sched *s) { corral__atomic_store_u32(&corral__postq_of(s)->closed, 1); }
void corral__posts_apply(corral_sched *s)
{
    corral__postq *q = corral__postq_of(s);
    corral__post *cells = corral__post_cells(s);
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
    out->posts_capacity = s->posts.mask + 1; /* the ring is in the block; every post is refused (NO_THREADS) */
}
#endif
