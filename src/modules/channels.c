/*
    channels.c -- channels, semaphores and wait groups: handles to items of
    two pools (pool.c), each with FIFO lists of the wait nodes waiting on
    it.

    A channel's values sit in a ring in its stretch of the data region
    (desc.channel_bytes each); an unbuffered one (capacity 0) has no ring
    in use: a value goes from a waiting sender straight to its receiver.
    A closed channel takes no more values and, once drained, ends every
    receive; a coroutine whose wait a close (or a destroy) ended is told
    so by its meta (CORRAL__WAIT_CLOSED, corral_wait_closed). A waiting sender's value stays in its own
    context until the channel takes it; a waiting receiver's destination is
    in its context: a node keeps the offset in its slot (u.t.seq), so
    nothing here points into the arena. A semaphore and a wait group are a
    count and a list (one pool, the kind says which).

    What firing a node wakes is the waits' (waits.c).
*/
#include "../corral_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- the pools */
static corral__channel *corral__chan_get(const corral_sched *s, corral_channel ch)
{
    return (corral__channel *)corral__pool_get(s, CORRAL__POOL_CHANNEL, ch.index, ch.gen);
}
static corral__counter *corral__counter_get(const corral_sched *s, uint32_t index, uint32_t gen, uint32_t kind)
{
    corral__counter *c = (corral__counter *)corral__pool_get(s, CORRAL__POOL_COUNTER, index, gen);
    return c && c->kind == kind ? c : NULL;
}
static unsigned char *corral__ring(const corral_sched *s, uint32_t index)
{
    const corral__chans *C = corral__chans_of(s);
    return CORRAL__AT(s, C->data_off + (size_t)index * corral__ring_bytes(C));
}

/* its state at create: the sizes the desc gives and where its rings lie
   (at: the region the plan keeps for them beside the pools, zeroed with
   the rest of the state, corral__state_init) */
static void corral__chans_init(corral_sched *s, const corral_sched_desc *d, uint32_t at)
{
    corral__chans *C = corral__chans_of(s);
    C->channel_bytes = d->channel_bytes ? d->channel_bytes : CORRAL_DEFAULT_CHANNEL_BYTES;
    C->data_off = at;
}

/* A value at v (NULL: none) of `size` bytes for channel c, or false with
   BAD_VALUE_SIZE set, the detail giving both sizes. */
static bool corral__value_fits(const char *call, corral_sched *s, const corral_co *self, const corral__channel *c,
                               const void *v, size_t size)
{
    if (CORRAL__LIKELY(v && size == c->size)) return true;
    char why[96];
    if (!v) snprintf(why, sizeof why, "no place for the value (NULL)");
    else
        snprintf(why, sizeof why, "%s %lu-byte value for a channel of %u-byte values", corral__a(size),
                 (unsigned long)size, c->size);
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_VALUE_SIZE, call, CORRAL__NOH, self, why);
    return false;
}

static corral_channel corral__chan_create(const char *call, corral_sched *s, uint32_t size, uint32_t cap)
{
    corral_channel none = {0, 0};
    if (!corral__check_in(s, call) || !corral__part_needed(call, s, NULL, s->parts.pool[CORRAL__POOL_CHANNEL], "channels"))
        return none;
    const uint32_t room = corral__chans_of(s)->channel_bytes;
    char why[128];
    if (size == 0 || size > room) {
        snprintf(why, sizeof why, "%s %u-byte value: a channel's values are 1 to desc.channel_bytes (%u) bytes",
                 corral__a(size), size, room);
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_VALUE_SIZE, call, CORRAL__NOH, NULL, why);
        return none;
    }
    if (cap == UINT32_MAX) cap = room / size;
    if (cap > room / size) {
        snprintf(why, sizeof why,
                 "a capacity of %u values of %u bytes is more than desc.channel_bytes (%u bytes: %u such values)",
                 cap, size, room, room / size);
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_VALUE_SIZE, call, CORRAL__NOH, NULL, why);
        return none;
    }
    uint32_t gen = 0, i = corral__pool_alloc(s, CORRAL__POOL_CHANNEL, &gen);
    CORRAL__REQUIRE_AT(s, i != CORRAL__NIL, CORRAL_ERR_CHANNEL_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL, none);
    corral__channel *c = &corral__channels(s)[i];
    c->size = size;
    c->cap = cap;
    c->first = c->count = c->closed = 0;
    c->send_head = c->send_tail = c->recv_head = c->recv_tail = CORRAL__NIL;
    return (corral_channel){i, gen};
}
corral_channel corral_channel_create(corral_sched *s, uint32_t size)
{
    return corral__chan_create(__func__, s, size, UINT32_MAX);
}
corral_channel corral_channel_create_ex(corral_sched *s, uint32_t size, uint32_t capacity)
{
    return corral__chan_create(__func__, s, size, capacity == UINT32_MAX ? UINT32_MAX - 1u : capacity);
}

static uint32_t corral__counter_create(const char *call, corral_sched *s, uint32_t kind, uint32_t count,
                                       uint32_t *gen)
{
    if (!corral__check_in(s, call) || !corral__part_needed(call, s, NULL, s->parts.pool[CORRAL__POOL_COUNTER], "channels"))
        return CORRAL__NIL;
    uint32_t i = corral__pool_alloc(s, CORRAL__POOL_COUNTER, gen);
    CORRAL__REQUIRE_AT(s, i != CORRAL__NIL, CORRAL_ERR_CHANNEL_POOL_EXHAUSTED, call, CORRAL__NOH, NULL, NULL, CORRAL__NIL);
    corral__counter *c = &corral__counters(s)[i];
    c->kind = kind;
    c->count = count;
    c->max = UINT32_MAX;
    c->head = c->tail = CORRAL__NIL;
    return i;
}

/* the first waiter of a list, out of it and fired */
static void corral__fire_first(corral_sched *s, uint32_t *head, uint32_t *tail)
{
    uint32_t i = *head;
    corral__list_unlink(s, (corral__list){head, tail}, i);
    corral__fire(s, i);
}

/* a semaphore's waiters, first come, first served, while the first one's
   permits are free: after a release, and after a first waiter left (the
   one behind it may want fewer) */
static void corral__acquire_serve(corral_sched *s, corral__counter *c)
{
    const corral__node *N = corral__nodes(s);
    while (c->head != CORRAL__NIL && c->count >= N[c->head].u.t.seq) {
        c->count -= N[c->head].u.t.seq; /* it has its permits */
        corral__fire_first(s, &c->head, &c->tail);
    }
}

/* every waiter on a channel's list: its wait is over, the channel closed
   or gone (corral_wait_closed tells it) */
static void corral__fire_closed(corral_sched *s, uint32_t *head, uint32_t *tail)
{
    const corral__node *N = corral__nodes(s);
    for (uint32_t i = *head; i != CORRAL__NIL; i = N[i].next)
        corral__co_stop_why_add(corral__meta_of(s, CORRAL__CO(s, N[i].co)), CORRAL__WAIT_CLOSED);
    corral__fire_all(s, head, tail);
}

/* where a waiting node's value lies: in its coroutine's slot */
static unsigned char *corral__node_data(const corral_sched *s, const corral__node *n)
{
    return CORRAL__AT(s, n->co + n->u.t.seq);
}

/* ---- channel operations, shared by the waits and plain code */

/* Put a value: to the first waiting receiver, else into the ring. False:
   full (nothing done). */
static bool corral__chan_put(corral_sched *s, corral__channel *c, const void *v)
{
    if (c->recv_head != CORRAL__NIL) {
        memcpy(corral__node_data(s, &corral__nodes(s)[c->recv_head]), v, c->size);
        corral__fire_first(s, &c->recv_head, &c->recv_tail);
        return true;
    }
    if (c->count == c->cap) return false;
    const uint32_t index = (uint32_t)(c - corral__channels(s));
    memcpy(corral__ring(s, index) + (size_t)((c->first + c->count) % c->cap) * c->size, v, c->size);
    c->count++;
    return true;
}

/* Take a value into out; the first waiting sender's value takes its place
   in the ring (or, unbuffered, is the value). False: empty (nothing done). */
static bool corral__chan_take(corral_sched *s, corral__channel *c, void *out)
{
    if (c->count == 0) { /* a sender waits here only when there is no ring */
        if (c->send_head == CORRAL__NIL) return false;
        memcpy(out, corral__node_data(s, &corral__nodes(s)[c->send_head]), c->size);
        corral__fire_first(s, &c->send_head, &c->send_tail);
        return true;
    }
    const uint32_t index = (uint32_t)(c - corral__channels(s));
    memcpy(out, corral__ring(s, index) + (size_t)c->first * c->size, c->size);
    c->first = (c->first + 1) % c->cap;
    c->count--;
    if (c->send_head != CORRAL__NIL) {
        const corral__node *n = &corral__nodes(s)[c->send_head];
        memcpy(corral__ring(s, index) + (size_t)((c->first + c->count) % c->cap) * c->size, corral__node_data(s, n),
               c->size);
        c->count++;
        corral__fire_first(s, &c->send_head, &c->send_tail);
    }
    return true;
}

bool corral_channel_try_send(corral_sched *s, corral_channel ch, const void *v, size_t size)
{
    if (!corral__check(s)) return false;
    corral__channel *c = corral__chan_get(s, ch);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    if (!corral__value_fits(__func__, s, NULL, c, v, size)) return false;
    CORRAL__REQUIRE(s, !c->closed, CORRAL_ERR_CHANNEL_CLOSED, false);
    return corral__chan_put(s, c, v);
}

bool corral_channel_try_receive(corral_sched *s, corral_channel ch, void *out, size_t size)
{
    if (!corral__check(s)) return false;
    corral__channel *c = corral__chan_get(s, ch);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    if (!corral__value_fits(__func__, s, NULL, c, out, size)) return false;
    return corral__chan_take(s, c, out);
}

corral_got corral_channel_take(corral_sched *s, corral_channel ch, void *out, size_t size)
{
    if (!corral__check(s)) return CORRAL_GOT_ERROR;
    corral__channel *c = corral__chan_get(s, ch);
    if (!c) { /* destroyed: nothing will come, as a wait on it is told; zero or forged: an error */
        const bool gone = ch.index < s->pools[CORRAL__POOL_CHANNEL].cap && corral__gen_live(ch.gen);
        corral__fail(s, NULL, CORRAL_ERR_STALE_CHANNEL);
        return gone ? CORRAL_GOT_CLOSED : CORRAL_GOT_ERROR;
    }
    if (!corral__value_fits(__func__, s, NULL, c, out, size)) return CORRAL_GOT_ERROR;
    if (corral__chan_take(s, c, out)) return CORRAL_GOT_VALUE;
    return c->closed ? CORRAL_GOT_CLOSED : CORRAL_GOT_NOT_YET;
}

uint32_t corral_channel_count(const corral_sched *s, corral_channel ch)
{
    if (!corral__check(s)) return 0;
    const corral__channel *c = corral__chan_get(s, ch);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, 0);
    return c->count;
}

uint32_t corral_channel_capacity(const corral_sched *s, corral_channel ch)
{
    if (!corral__check(s)) return 0;
    const corral__channel *c = corral__chan_get(s, ch);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, 0);
    return c->cap;
}

bool corral_channel_destroy(corral_sched *s, corral_channel ch)
{
    if (!corral__check(s)) return false;
    corral__channel *c = corral__chan_get(s, ch);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    corral__fire_closed(s, &c->send_head, &c->send_tail); /* nobody waits forever on a channel that is gone */
    corral__fire_closed(s, &c->recv_head, &c->recv_tail);
    corral__pool_free(s, CORRAL__POOL_CHANNEL, ch.index);
    return true;
}

bool corral_channel_close(corral_sched *s, corral_channel ch)
{
    if (!corral__check(s)) return false;
    corral__channel *c = corral__chan_get(s, ch);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    CORRAL__REQUIRE(s, !c->closed, CORRAL_ERR_CHANNEL_CLOSED, false);
    c->closed = 1;
    corral__fire_closed(s, &c->send_head, &c->send_tail); /* their values are not taken */
    corral__fire_closed(s, &c->recv_head, &c->recv_tail); /* waiting: nothing is buffered */
    return true;
}

bool corral_channel_closed(const corral_sched *s, corral_channel ch)
{
    if (!corral__check(s)) return false;
    const corral__channel *c = corral__chan_get(s, ch);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    return c->closed != 0;
}

/* ---- semaphores and wait groups */

corral_semaphore corral_semaphore_create(corral_sched *s, uint32_t permits)
{
    uint32_t gen = 0, i = corral__counter_create(__func__, s, CORRAL__SEMAPHORE, permits, &gen);
    return i == CORRAL__NIL ? (corral_semaphore){0, 0} : (corral_semaphore){i, gen};
}

corral_semaphore corral_semaphore_create_ex(corral_sched *s, uint32_t permits, uint32_t max)
{
    const corral_semaphore none = {0, 0};
    if (!corral__check(s)) return none;
    CORRAL__REQUIRE_AT(s, max > 0, CORRAL_ERR_BAD_COUNT, __func__, CORRAL__NOH, NULL,
                       "a maximum of 0 permits: no acquire could ever be served", none);
    CORRAL__REQUIRE_AT(s, permits <= max, CORRAL_ERR_BAD_COUNT, __func__, CORRAL__NOH, NULL,
                       "more permits than the maximum", none);
    uint32_t gen = 0, i = corral__counter_create(__func__, s, CORRAL__SEMAPHORE, permits, &gen);
    if (i == CORRAL__NIL) return none;
    corral__counters(s)[i].max = max;
    return (corral_semaphore){i, gen};
}

corral_waitgroup corral_waitgroup_create(corral_sched *s)
{
    uint32_t gen = 0, i = corral__counter_create(__func__, s, CORRAL__WAITGROUP, 0, &gen);
    return i == CORRAL__NIL ? (corral_waitgroup){0, 0} : (corral_waitgroup){i, gen};
}

bool corral_semaphore_release(corral_sched *s, corral_semaphore sem, uint32_t n)
{
    if (!corral__check(s)) return false;
    corral__counter *c = corral__counter_get(s, sem.index, sem.gen, CORRAL__SEMAPHORE);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    if (CORRAL__UNLIKELY(n > c->max - c->count)) {
        char why[96];
        snprintf(why, sizeof why, "%u free + %u released is past the maximum of %u", c->count, n, c->max);
        corral__fail_at(s, NULL, CORRAL_ERR_SEMAPHORE_FULL, __func__, CORRAL__NOH, NULL, why);
        return false;
    }
    c->count += n;
    corral__acquire_serve(s, c);
    return true;
}

uint32_t corral_semaphore_count(const corral_sched *s, corral_semaphore sem)
{
    if (!corral__check(s)) return 0;
    const corral__counter *c = corral__counter_get(s, sem.index, sem.gen, CORRAL__SEMAPHORE);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, 0);
    return c->count;
}

bool corral_waitgroup_add(corral_sched *s, corral_waitgroup wg, uint32_t n)
{
    if (!corral__check(s)) return false;
    corral__counter *c = corral__counter_get(s, wg.index, wg.gen, CORRAL__WAITGROUP);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    CORRAL__REQUIRE_AT(s, c->count <= UINT32_MAX - n, CORRAL_ERR_BAD_COUNT, __func__, CORRAL__NOH, NULL,
                       "the count would pass 2^32 - 1", false);
    c->count += n;
    return true;
}

bool corral_waitgroup_done(corral_sched *s, corral_waitgroup wg)
{
    if (!corral__check(s)) return false;
    corral__counter *c = corral__counter_get(s, wg.index, wg.gen, CORRAL__WAITGROUP);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, false);
    CORRAL__REQUIRE_AT(s, c->count > 0, CORRAL_ERR_BAD_COUNT, __func__, CORRAL__NOH, NULL,
                       "a done with the count at 0: more dones than adds", false);
    if (--c->count == 0) corral__fire_all(s, &c->head, &c->tail);
    return true;
}

uint32_t corral_waitgroup_count(const corral_sched *s, corral_waitgroup wg)
{
    if (!corral__check(s)) return 0;
    const corral__counter *c = corral__counter_get(s, wg.index, wg.gen, CORRAL__WAITGROUP);
    CORRAL__REQUIRE(s, c, CORRAL_ERR_STALE_CHANNEL, 0);
    return c->count;
}

static bool corral__counter_destroy(const char *call, corral_sched *s, uint32_t index, uint32_t gen, uint32_t kind)
{
    if (!corral__check_in(s, call)) return false;
    corral__counter *c = corral__counter_get(s, index, gen, kind);
    CORRAL__REQUIRE_AT(s, c, CORRAL_ERR_STALE_CHANNEL, call, CORRAL__NOH, NULL, NULL, false);
    corral__fire_all(s, &c->head, &c->tail);
    corral__pool_free(s, CORRAL__POOL_COUNTER, index);
    return true;
}
bool corral_semaphore_destroy(corral_sched *s, corral_semaphore sem)
{
    return corral__counter_destroy(__func__, s, sem.index, sem.gen, CORRAL__SEMAPHORE);
}
bool corral_waitgroup_destroy(corral_sched *s, corral_waitgroup wg)
{
    return corral__counter_destroy(__func__, s, wg.index, wg.gen, CORRAL__WAITGROUP);
}

/* ---- the rules of a live channel and count: corral_verify's, and the
   load's over a saved row (a row holds no waiter: the load says which
   lists it puts some on) */

/* a channel's ring in bounds; a waiter only where it must wait */
static const char *corral__channel_rules(const corral_sched *s, const corral__channel *c, bool senders, bool receivers)
{
    if (c->size == 0 || c->size > corral__chans_of(s)->channel_bytes || c->count > c->cap ||
        (c->cap ? c->first >= c->cap : c->first != 0) || (uint64_t)c->cap * c->size > corral__chans_of(s)->channel_bytes ||
        c->closed > 1)
        return "a channel's ring is out of bounds";
    if (c->count < c->cap && senders) return "a sender waits on a channel with room";
    if (c->count > 0 && receivers) return "a receiver waits on a channel with values";
    if (senders && receivers) return "a channel's sender and receiver wait on each other";
    if (c->closed && (senders || receivers)) return "a closed channel has waiters";
    return NULL;
}
static const char *corral__counter_rules(uint32_t kind, uint32_t count, uint32_t max)
{
    if (kind != CORRAL__SEMAPHORE && kind != CORRAL__WAITGROUP) return "a semaphore or wait group is of no kind";
    if (max == 0 || (kind == CORRAL__SEMAPHORE ? count > max : max != UINT32_MAX))
        return "a semaphore has more permits than its maximum";
    return NULL;
}
/* a saved channel's row as the load places it, its lists empty (before
   version 5: open, at its full capacity) */
static corral__channel corral__chan_row(const corral_sched *s, uint32_t version, const unsigned char *row)
{
    corral__channel c;
    memset(&c, 0, sizeof c);
    c.size = corral__le32(row + 8);
    c.count = corral__le32(row + 12);
    c.cap = version >= 5 ? corral__le32(row + 16) : c.size ? (uint32_t)(corral__chans_of(s)->channel_bytes / c.size) : 0u;
    c.closed = version >= 5 ? corral__le32(row + 20) : 0u;
    c.send_head = c.send_tail = c.recv_head = c.recv_tail = CORRAL__NIL;
    return c;
}

/* ---- the waits' parts: ready (doing the transfer when it can), arm, list;
   a wait on one that is gone is a plain yield (-3, as a signal's) that
   corral_wait_closed tells, as a destroy tells its waiters */
static int corral__gone(const char *call, corral_sched *s, corral_co *co)
{
    corral__fail_at(s, NULL, CORRAL_ERR_STALE_CHANNEL, call, CORRAL__NOH, co, NULL);
    corral__co_stop_why_add(corral__meta_of(s, co), CORRAL__WAIT_CLOSED);
    return -3;
}

/* 0: a send or receive that ready() can do or arm; else its answer (gone,
   malformed), the error set */
static int corral__chan_usable(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral__channel *c = corral__chan_get(s, w->channel);
    if (!c) return corral__gone(call, s, co);
    const corral__type_entry *te = &corral__types(s)[co->type];
    uintptr_t d = (uintptr_t)w->user, lo = (uintptr_t)CORRAL__AT(co, te->ctx_off);
    const bool send = w->kind == CORRAL_WAIT_SEND;
    /* the place is where the value waits (read or written when the channel
       is ready, steps later): the coroutine's context, kept by a save */
    CORRAL__REQUIRE_AT(s, w->user && d >= lo && d + w->count <= lo + te->ctx_size, CORRAL_ERR_BAD_DEST, call,
                       CORRAL__NOH, co,
                       send ? "the send's value is not inside the sending coroutine's context: send from a field "
                              "(&ctx->v)"
                            : "the receive's destination is not inside the receiving coroutine's context: receive "
                              "into a field (&ctx->v)",
                       -1);
    return corral__value_fits(call, s, co, c, w->user, w->count) ? 0 : -1;
}

static int corral__chan_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    const int u = corral__chan_usable(call, s, co, w);
    if (u) return u;
    corral__channel *c = corral__chan_get(s, w->channel);
    if (w->kind == CORRAL_WAIT_SEND ? !c->closed && corral__chan_put(s, c, w->user) : corral__chan_take(s, c, w->user))
        return 1;
    if (!c->closed) return 0;
    corral__co_stop_why_add(corral__meta_of(s, co), CORRAL__WAIT_CLOSED); /* closed (and drained): over, nothing moved */
    return 1;
}

static corral__list corral__chan_list(corral_sched *s, const corral__node *n)
{
    corral__channel *c = &corral__channels(s)[n->u.t.target];
    return n->kind == CORRAL_WAIT_SEND ? (corral__list){&c->send_head, &c->send_tail}
                                       : (corral__list){&c->recv_head, &c->recv_tail};
}

static void corral__chan_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    corral__node *n = &corral__nodes(s)[i];
    n->u.t.target = w->channel.index;
    n->u.t.seq = (uint32_t)((uintptr_t)w->user - (uintptr_t)co);
    corral__list_push(s, corral__chan_list(s, n), i);
}

static int corral__acquire_usable(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral__counter *c = corral__counter_get(s, w->channel.index, w->channel.gen, CORRAL__SEMAPHORE);
    if (!c) return corral__gone(call, s, co);
    CORRAL__REQUIRE_AT(s, (w->count ? w->count : 1u) <= c->max, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co,
                       "more permits than the semaphore's maximum: it could never have them", -1);
    return 0;
}

static int corral__acquire_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    const int u = corral__acquire_usable(call, s, co, w);
    if (u) return u;
    corral__counter *c = corral__counter_get(s, w->channel.index, w->channel.gen, CORRAL__SEMAPHORE);
    const uint32_t n = w->count ? w->count : 1u;
    if (c->count >= n && c->head == CORRAL__NIL) { /* first come: none waits before it */
        c->count -= n;
        return 1;
    }
    return 0;
}
static int corral__wait_group_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral__counter *c = corral__counter_get(s, w->channel.index, w->channel.gen, CORRAL__WAITGROUP);
    if (!c) return corral__gone(call, s, co);
    return c->count == 0;
}

static corral__list corral__counter_list(corral_sched *s, const corral__node *n)
{
    corral__counter *c = &corral__counters(s)[n->u.t.target];
    return (corral__list){&c->head, &c->tail};
}

static void corral__counter_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    (void)co;
    corral__node *n = &corral__nodes(s)[i];
    n->u.t.target = w->channel.index;
    corral__list_push(s, corral__counter_list(s, n), i);
}

static void corral__acquire_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    corral__nodes(s)[i].u.t.seq = w->count ? w->count : 1u; /* the permits it wants */
    corral__counter_arm(s, co, i, w);
}
/* a waiter left the queue (its any fired elsewhere, it was stopped): the
   ones behind it are served if they can be. A channel's and a wait
   group's waiters wait on the count alone, never on the one before them. */
static void corral__acquire_leave(corral_sched *s, const corral__node *n)
{
    corral__acquire_serve(s, &corral__counters(s)[n->u.t.target]);
}
static void corral__acquire_hash(const corral__node *n, void (*put)(void *k, uint64_t v), void *k)
{
    if (n->u.t.seq != 1) put(k, n->u.t.seq);
}

static bool corral__chan_verify(const corral__vquery *q, const corral__node *n)
{
    corral__any_item tmp;
    const corral__channel *c = (const corral__channel *)q->item(q->m, CORRAL__POOL_CHANNEL, n->u.t.target, &tmp);
    return c && corral__item_live(c) && corral__ctx_holds(q->te, n->u.t.seq, c->size);
}
static bool corral__counter_verify(const corral__vquery *q, const corral__node *n, uint32_t kind)
{
    corral__any_item tmp;
    const corral__counter *c = (const corral__counter *)q->item(q->m, CORRAL__POOL_COUNTER, n->u.t.target, &tmp);
    return c && corral__item_live(c) && c->kind == kind;
}
static bool corral__acquire_verify(const corral__vquery *q, const corral__node *n)
{
    corral__any_item tmp;
    const corral__counter *c = (const corral__counter *)q->item(q->m, CORRAL__POOL_COUNTER, n->u.t.target, &tmp);
    return corral__counter_verify(q, n, CORRAL__SEMAPHORE) && n->u.t.seq >= 1 && n->u.t.seq <= c->max;
}
static bool corral__wait_group_verify(const corral__vquery *q, const corral__node *n)
{
    return corral__counter_verify(q, n, CORRAL__WAITGROUP);
}
static void corral__chan_why(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    const corral__channel *c = &corral__channels(s)[n->u.t.target];
    if (c->cap == 0) snprintf(buf, cap, ": no %s (unbuffered)", n->kind == CORRAL_WAIT_SEND ? "receiver" : "sender");
    else snprintf(buf, cap, ": %s (%u of %u)", n->kind == CORRAL_WAIT_SEND ? "full" : "empty", c->count, c->cap);
}
static void corral__acquire_why(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    const uint32_t want = n->u.t.seq, free_now = corral__counters(s)[n->u.t.target].count;
    if (want == 1) snprintf(buf, cap, ": no permit free");
    else snprintf(buf, cap, ": %u permits wanted, %u free", want, free_now);
}
static void corral__wait_group_why(const corral_sched *s, const corral__node *n, char *buf, size_t cap)
{
    snprintf(buf, cap, ": %u to go", corral__counters(s)[n->u.t.target].count);
}

/* ---- save games: a channel wait keeps the channel's index and where its
   value lies by field name (as a result does); a count's, the index */
static void corral__chan_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    (void)s;
    uint32_t byte = 0, field = corral__field_at(te->vt, n->u.t.seq - te->ctx_off, &byte);
    corral__put_u(io, n->u.t.target, 4);
    corral__put_u(io, field, 4);
    corral__put_u(io, byte, 4);
}
static void corral__chan_read(corral__io *io, corral__lwait *w)
{
    w->ref = (uint32_t)corral__get_u(io, 4);  /* the channel */
    w->user = corral__get_u(io, 4);           /* the value's field */
    w->seq = (uint32_t)corral__get_u(io, 4);  /* its byte in the field */
}
static const char *corral__chan_check(const corral__lview *v, const corral__lwait *w)
{
    const unsigned char *row = v->item(v->L, CORRAL__POOL_CHANNEL, w->ref);
    if (!row) return "a coroutine of type %s waits on a channel the save does not hold%s";
    const corral__channel c = corral__chan_row(v->s, v->version, row);
    const uint32_t at = w->user > 0xFFFFFFFFu ? CORRAL__NIL : v->dest(v->L, v->type, (uint32_t)w->user, w->seq);
    if (at == CORRAL__NIL || (uint64_t)at + c.size > v->te->ctx_size)
        return "a channel value of type %s has no place in this build%s";
    const bool listed = w->flags == 0; /* on the channel's list (else fired, in an all) */
    if (listed && corral__channel_rules(v->s, &c, w->kind == CORRAL_WAIT_SEND, w->kind == CORRAL_WAIT_RECEIVE))
        return "a coroutine of type %s waits on a channel that would not make it wait%s";
    return NULL;
}
static void corral__chan_load(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)co;
    corral__node *n = &corral__nodes(v->s)[i];
    n->u.t.target = w->ref;
    n->u.t.seq = v->te->ctx_off + v->dest(v->L, v->type, (uint32_t)w->user, w->seq);
    if (!held) corral__list_push(v->s, corral__chan_list(v->s, n), i);
}
static const char *corral__counter_check(const corral__lview *v, const corral__lwait *w, uint32_t kind)
{
    const unsigned char *row = v->item(v->L, CORRAL__POOL_COUNTER, w->ref);
    if (!row || corral__le32(row + 8) != kind)
        return "a coroutine of type %s waits on a semaphore or wait group the save does not hold%s";
    const uint32_t count = corral__le32(row + 12), max = v->version >= 5 ? corral__le32(row + 16) : UINT32_MAX;
    if (kind == CORRAL__SEMAPHORE && (w->seq == 0 || w->seq > max))
        return "a coroutine of type %s waits for more permits than its semaphore can have%s";
    /* listed: a wait group still counts; a semaphore has fewer permits than the most any waiter wants */
    if (w->flags == 0 && (kind == CORRAL__SEMAPHORE ? count >= max || (v->version < 5 && count != 0) : count == 0))
        return "a coroutine of type %s waits on a count that would not make it wait%s";
    return NULL;
}
static const char *corral__acquire_check(const corral__lview *v, const corral__lwait *w)
{
    return corral__counter_check(v, w, CORRAL__SEMAPHORE);
}
/* an acquire: its semaphore's index, and (version 5) the permits it wants */
static void corral__acquire_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    corral__index_save(io, s, te, n);
    corral__put_u(io, n->u.t.seq, 4);
}
static void corral__acquire_read(corral__io *io, corral__lwait *w)
{
    corral__index_read(io, w);
    w->seq = io->version >= 5 ? (uint32_t)corral__get_u(io, 4) : 1u;
}
static void corral__acquire_place(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    corral__nodes(v->s)[i].u.t.seq = w->seq;
    corral__index_place(v, co, i, w, held);
}
static const char *corral__wait_group_check(const corral__lview *v, const corral__lwait *w)
{
    return corral__counter_check(v, w, CORRAL__WAITGROUP);
}

/* the kinds' tables, handed to the waits by the first create (no handle
   of these kinds exists before) */
static const corral__wait_part corral__channel_part = {
    .seq_in_slot = true,
    .ready = corral__chan_ready,
    .usable = corral__chan_usable,
    .arm = corral__chan_arm,
    .list = corral__chan_list,
    .takes = true,
    .verify = corral__chan_verify,
    .why = corral__chan_why,
    .save = corral__chan_save,
    .read = corral__chan_read,
    .check = corral__chan_check,
    .place = corral__chan_load,
};
static const corral__wait_part corral__semaphore_part = {
    .ready = corral__acquire_ready,
    .usable = corral__acquire_usable,
    .arm = corral__acquire_arm,
    .list = corral__counter_list,
    .leave = corral__acquire_leave,
    .takes = true,
    .verify = corral__acquire_verify,
    .why = corral__acquire_why,
    .hash = corral__acquire_hash,
    .save = corral__acquire_save,
    .read = corral__acquire_read,
    .check = corral__acquire_check,
    .place = corral__acquire_place,
};
static const corral__wait_part corral__waitgroup_part = {
    .ready = corral__wait_group_ready,
    .arm = corral__counter_arm,
    .list = corral__counter_list,
    .verify = corral__wait_group_verify,
    .why = corral__wait_group_why,
    .save = corral__index_save,
    .read = corral__index_read,
    .check = corral__wait_group_check,
    .place = corral__index_place,
};
/* ---- save games: the channels' section (a row each, then every live
   channel's values, oldest first) and the counters' (docs/SAVE.md) */
static void corral__channels_save(corral__io *io, const corral_sched *s)
{
    const corral__channel *C = corral__channels(s);
    const uint32_t cap = s->pools[CORRAL__POOL_CHANNEL].cap;
    corral__put_u(io, s->pools[CORRAL__POOL_CHANNEL].live, 4);
    for (uint32_t i = 0; i < cap; i++)
        if (corral__item_live(&C[i])) {
            corral__put_u(io, i, 4);
            corral__put_u(io, corral__item_gen(&C[i]), 4);
            corral__put_u(io, C[i].size, 4);
            corral__put_u(io, C[i].count, 4);
            corral__put_u(io, C[i].cap, 4);
            corral__put_u(io, C[i].closed, 4);
        }
    for (uint32_t i = 0; i < cap; i++)
        for (uint32_t v = 0; corral__item_live(&C[i]) && v < C[i].count; v++)
            corral__put_bytes(io, corral__ring(s, i) + (size_t)((C[i].first + v) % C[i].cap) * C[i].size, C[i].size);
}
static const char *corral__channels_read(corral__io *io, const corral_sched *s, uint32_t *n, size_t *rows_at)
{
    *n = (uint32_t)corral__get_u(io, 4);
    *rows_at = io->at;
    if (*n > s->pools[CORRAL__POOL_CHANNEL].cap) return "the save holds more channels than desc.max_channels%s%s";
    uint64_t bytes = 0;
    for (uint32_t i = 0, prev = 0; i < *n && !io->bad; i++) {
        const unsigned char *row = corral__get_bytes(io, io->version >= 5 ? 24u : 16u);
        if (!row) break;
        const corral__channel c = corral__chan_row(s, io->version, row);
        if (!corral__pool_row_ok(s, CORRAL__POOL_CHANNEL, corral__le32(row), corral__le32(row + 4), i, prev) ||
            corral__channel_rules(s, &c, false, false))
            return "a saved channel is out of range, or its ring larger than desc.channel_bytes%s%s";
        bytes += (uint64_t)c.count * c.size;
        prev = corral__le32(row);
    }
    if (bytes > io->size) return "the save's channel values run past its end%s%s";
    corral__get_bytes(io, (size_t)bytes);
    return NULL;
}
static void corral__channels_load(corral__io *io, corral_sched *s, uint32_t n, size_t rows_at)
{
    corral__channel *C = corral__channels(s);
    const size_t row_bytes = io->version >= 5 ? 24u : 16u;
    const unsigned char *vals = io->r + rows_at + row_bytes * n;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *row = io->r + rows_at + row_bytes * i;
        const uint32_t idx = corral__le32(row);
        corral__channel *c = &C[idx];
        corral__pool_revive(s, CORRAL__POOL_CHANNEL, idx, corral__le32(row + 4));
        const corral__channel saved = corral__chan_row(s, io->version, row);
        c->size = saved.size;
        c->cap = saved.cap;
        c->closed = saved.closed;
        c->first = 0;
        c->count = saved.count;
        memcpy(corral__ring(s, idx), vals, (size_t)c->count * c->size);
        vals += (size_t)c->count * c->size;
    }
}
static void corral__counters_save(corral__io *io, const corral_sched *s)
{
    const corral__counter *K = corral__counters(s);
    corral__put_u(io, s->pools[CORRAL__POOL_COUNTER].live, 4);
    for (uint32_t i = 0; i < s->pools[CORRAL__POOL_COUNTER].cap; i++)
        if (corral__item_live(&K[i])) {
            corral__put_u(io, i, 4);
            corral__put_u(io, corral__item_gen(&K[i]), 4);
            corral__put_u(io, K[i].kind, 4);
            corral__put_u(io, K[i].count, 4);
            corral__put_u(io, K[i].max, 4);
        }
}
static const char *corral__counters_read(corral__io *io, const corral_sched *s, uint32_t *n, size_t *rows_at)
{
    *n = (uint32_t)corral__get_u(io, 4);
    *rows_at = io->at;
    if (*n > s->pools[CORRAL__POOL_COUNTER].cap)
        return "the save holds more semaphores and wait groups than the desc allows%s%s";
    for (uint32_t i = 0, prev = 0; i < *n && !io->bad; i++) {
        uint32_t idx = (uint32_t)corral__get_u(io, 4), gen = (uint32_t)corral__get_u(io, 4);
        uint32_t kind = (uint32_t)corral__get_u(io, 4), count = (uint32_t)corral__get_u(io, 4);
        uint32_t max = io->version >= 5 ? (uint32_t)corral__get_u(io, 4) : UINT32_MAX;
        if (!corral__pool_row_ok(s, CORRAL__POOL_COUNTER, idx, gen, i, prev) || corral__counter_rules(kind, count, max))
            return "a saved semaphore or wait group is out of range%s%s";
        prev = idx;
    }
    return NULL;
}
static void corral__counters_load(corral__io *io, corral_sched *s, uint32_t n, size_t rows_at)
{
    corral__counter *K = corral__counters(s);
    const size_t row_bytes = io->version >= 5 ? 20u : 16u;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *row = io->r + rows_at + row_bytes * i;
        corral__counter *c = &K[corral__le32(row)];
        corral__pool_revive(s, CORRAL__POOL_COUNTER, corral__le32(row), corral__le32(row + 4));
        c->kind = corral__le32(row + 8);
        c->count = corral__le32(row + 12);
        c->max = io->version >= 5 ? corral__le32(row + 16) : UINT32_MAX;
    }
}
static const char *corral__channel_verify(const corral_sched *s, const void *item)
{
    const corral__channel *c = (const corral__channel *)item;
    return corral__channel_rules(s, c, c->send_head != CORRAL__NIL, c->recv_head != CORRAL__NIL);
}
/* a saved channel once the load knows its lists: bit 0 senders, bit 1 receivers */
static const char *corral__channel_check(const corral_sched *s, uint32_t version, const unsigned char *row,
                                         uint32_t lists)
{
    const corral__channel c = corral__chan_row(s, version, row);
    return corral__channel_rules(s, &c, (lists & 1u) != 0, (lists & 2u) != 0);
}
static const char *corral__counter_verify_item(const corral_sched *s, const void *item)
{
    (void)s;
    const corral__counter *c = (const corral__counter *)item;
    return corral__counter_rules(c->kind, c->count, c->max);
}
/* a channel by its index, value size and count, then its values, oldest first */
static void corral__channel_hash(const corral_sched *s, uint32_t i, const void *item, void (*put)(void *k, uint64_t v),
                                 void *k)
{
    const corral__channel *c = (const corral__channel *)item;
    put(k, (uint64_t)i << 32 | c->size);
    put(k, c->count);
    if (c->closed || c->cap != corral__chans_of(s)->channel_bytes / c->size) put(k, (uint64_t)c->closed << 32 | c->cap); /* not the defaults */
    const unsigned char *ring = corral__ring(s, i);
    for (uint32_t v = 0; v < c->count; v++)
        for (uint32_t b = 0; b < c->size; b++) put(k, ring[(size_t)((c->first + v) % c->cap) * c->size + b]);
}
static void corral__counter_hash(const corral_sched *s, uint32_t i, const void *item, void (*put)(void *k, uint64_t v),
                                 void *k)
{
    (void)s;
    const corral__counter *c = (const corral__counter *)item;
    put(k, (uint64_t)i << 32 | c->kind << 28 | c->count);
    if (c->max != UINT32_MAX) put(k, c->max); /* not the default */
}
/* a restore: the rings, and the bytes that align them after the counters,
   as a snapshot holds them (section: its copy of the channels, then the
   counters, then the rings; the items are restored by pool.c) */
static void corral__channels_restore(corral_sched *s, const unsigned char *section)
{
    const size_t items_end = (size_t)s->pools[CORRAL__POOL_COUNTER].off +
                             (size_t)s->pools[CORRAL__POOL_COUNTER].cap * corral__pool_item_size(CORRAL__POOL_COUNTER);
    const size_t past = items_end - s->pools[CORRAL__POOL_CHANNEL].off;
    memcpy(CORRAL__AT(s, items_end), section + past, corral__chans_bytes(s) - past);
}
static const corral__pool_part corral__channel_pool_part = {
    .row = 24,
    .row4 = 16,
    .save = corral__channels_save,
    .read = corral__channels_read,
    .load = corral__channels_load,
    .lists = 2,
    .list = {{offsetof(corral__channel, send_head), CORRAL_WAIT_SEND, CORRAL_WAIT_SEND},
             {offsetof(corral__channel, recv_head), CORRAL_WAIT_RECEIVE, CORRAL_WAIT_RECEIVE}},
    .verify = corral__channel_verify,
    .check = corral__channel_check,
    .hash = corral__channel_hash,
    .restore = corral__channels_restore,
};
static const corral__pool_part corral__counter_pool_part = {
    .row = 20,
    .row4 = 16,
    .save = corral__counters_save,
    .read = corral__counters_read,
    .load = corral__counters_load,
    .lists = 1,
    .list = {{offsetof(corral__counter, head), CORRAL_WAIT_ACQUIRE, CORRAL_WAIT_WAIT_GROUP}},
    .verify = corral__counter_verify_item,
    .hash = corral__counter_hash,
};

const corral_part corral_part_channels = {
    .waits = {{CORRAL_WAIT_SEND, CORRAL_WAIT_RECEIVE, &corral__channel_part},
              {CORRAL_WAIT_ACQUIRE, CORRAL_WAIT_ACQUIRE, &corral__semaphore_part},
              {CORRAL_WAIT_WAIT_GROUP, CORRAL_WAIT_WAIT_GROUP, &corral__waitgroup_part}},
    .pools = {{CORRAL__POOL_CHANNEL, 1, &corral__channel_pool_part}, {CORRAL__POOL_COUNTER, 1, &corral__counter_pool_part}},
    .feature = CORRAL__FEATURE_COUNT,
    .state = CORRAL__STATE_CHANNELS,
    .init = corral__chans_init,
};
