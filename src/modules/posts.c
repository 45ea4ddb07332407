/*
    posts.c -- completions and raises posted from other threads: the
    producers' side of the post queue (postq.c). A producer takes a
    position with a compare-and-swap on the tail, writes its cell and hands
    it over by setting the cell's turn; the owner applies cells in position
    order at the start of each frame and gives each back for the ring's
    next lap. A producer's posts take increasing positions, so they apply
    in its order; a full ring refuses the post and the producer may retry.
    The rules for users are docs/API.md, "Threads".
*/
#include "../corral_internal.h"

#if CORRAL__HAS_ATOMICS
/* Any thread. Of the scheduler only its parts and its validation (set at
   create, read-only since) and the queue are read; an error is this
   thread's alone (corral__fail_elsewhere). */
static bool corral__post_one(corral_sched *s, uint32_t kind, uint32_t index, uint32_t gen, uint64_t value, const char *call)
{
    if (!s) {
        corral__fail_elsewhere(NULL, CORRAL_ERR_NULL_SCHED, call, NULL);
        return false;
    }
    if (!s->parts.feature[CORRAL__FEATURE_POSTS]) { /* set at create, read-only since: any thread may read it */
        corral__fail_elsewhere(s, CORRAL_ERR_NO_PART, call, "it needs corral_part_posts in desc.parts");
        return false;
    }
    corral__postq *q = corral__postq_of(s);
    if (corral__atomic_load_u32(&q->closed)) {
        corral__fail_elsewhere(s, CORRAL_ERR_DESTROYING, call, NULL);
        return false;
    }
    corral__post *cells = corral__post_cells(s);
    const uint32_t mask = q->mask; /* set at create, never written again */
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
            corral__fail_elsewhere(s, CORRAL_ERR_POST_QUEUE_FULL, call, NULL);
            return false;
        }
        /* dif > 0: the tail moved on under us; look again */
    }
}
#else
static bool corral__post_one(corral_sched *s, uint32_t kind, uint32_t index, uint32_t gen, uint64_t value, const char *call)
{
    (void)s;
    (void)kind;
    (void)index;
    (void)gen;
    (void)value;
    corral__fail_elsewhere(s, CORRAL_ERR_NO_THREADS, call, NULL);
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
