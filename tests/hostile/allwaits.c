/*
    allwaits.c -- a hostile game (games.h) written for it, not an example:
    where its state is taken, its coroutines wait on every wait kind of
    CORRAL_WAIT_KINDS at once. Predicates read a field of their own
    context, one of another coroutine's, and a number; channels buffered
    and unbuffered, full and empty; a semaphore's one permit and three; a
    call chain three deep with results, a call unless a signal, a race, a
    sync, a generator that sleeps between values and the coroutine that
    pulls it, a paused group, three time domains (one scaled under the
    game clock, one paused), a stop request's deadline. Every type is in a
    registry and waits at named points, so its state is taken as a save
    as well as a snapshot.

    A state taken here and then damaged runs its coroutines on whatever
    their fields say: every loop yields at least once a turn, whatever its
    wait did, and no field is trusted (a predicate reads one byte, a
    handle may be stale, a mode unknown, a time NaN).
*/
#include "games.h"

#include <stdio.h>

/* ---- predicates: a byte of a context (its own or another's), a number */
static uint32_t aw_level; /* the main loop raises it; the numbered waits wait for it */
static bool aw_flag_up(void *user) { return user && *(const unsigned char *)user != 0; }
static bool aw_flag_down(void *user) { return user && *(const unsigned char *)user == 0; }
static bool aw_level_reached(void *user) { return aw_level >= (uint32_t)(uintptr_t)user; }
#define AW_PREDICATES(X) X(aw_flag_up, 1) X(aw_flag_down, 2) X(aw_level_reached, 3, CORRAL_PREDICATE_NUMBER)
CORRAL_DEFINE_PREDICATES(aw, AW_PREDICATES);

/* what a waiter says it waits on (its `on`): bit k for corral_wait_kind k,
   and these past them */
enum {
    AW_ON_JOIN_RESULT = CORRAL_WAIT_KIND_COUNT,
    AW_ON_ACQUIRE_N,
    AW_ON_UNBUFFERED_SEND,
    AW_ON_UNBUFFERED_RECEIVE,
    AW_ON_OWN_FIELD,
    AW_ON_OTHER_FIELD,
    AW_ON_NUMBER,
    AW_ON_COUNT
};
_Static_assert(AW_ON_COUNT <= 32, "a waiter's `on` is 32 bits");
#define AW_BIT(k) (1u << (k))
#define AW_KIND(k) AW_BIT(CORRAL_WAIT_##k)

/* ---- one coroutine per wait: its mode says which */
typedef enum aw_mode {
    AW_FRAME, AW_NEXT_FRAME, AW_FRAMES, AW_SECONDS, AW_REALTIME, AW_AT, AW_FIXED, AW_LATE, AW_END, AW_PHASE,
    AW_UNTIL_OWN, AW_WHILE_OTHER, AW_UNTIL_NUMBER, AW_SIGNAL, AW_FUTURE, AW_JOIN, AW_JOIN_RESULT, AW_ALL, AW_ANY,
    AW_SEND, AW_RECEIVE, AW_ACQUIRE, AW_ACQUIRE_N, AW_WAIT_GROUP, AW_STOP, AW_MODES
} aw_mode;

#define AW_WAITER_FIELDS(F)                                                                                        \
    F(uint32_t, mode) F(uint32_t, on) F(uint32_t, n) F(uint8_t, flag) F(uint8_t, unbuffered) F(float, secs)        \
    F(corral_handle, other) F(corral_signal, sig) F(corral_future, fut) F(corral_channel, ch)                     \
    F(corral_semaphore, sem) F(corral_waitgroup, wg) F(int32_t, value) F(uint32_t, got)
#define AW_WAITER_POINTS(P)                                                                                        \
    P(framed) P(next) P(counted) P(slept) P(real) P(at_time) P(fixed) P(fixed_done) P(late) P(late_done) P(ended)    \
    P(custom) P(own) P(other_flag) P(numbered) P(signalled) P(completed) P(joined) P(joined_result) P(all) P(any)  \
    P(sent) P(received) P(acquired) P(acquired_n) P(grouped) P(stop) P(rested)
DECLARE_COROUTINE(aw_waiter, AW_WAITER_FIELDS)

/* a result-taking coroutine: frames, counted */
#define AW_WALK_FIELDS(F) F(uint32_t, steps)
#define AW_WALK_POINTS(P) P(walked)
DECLARE_COROUTINE_R(aw_walk, AW_WALK_FIELDS, uint32_t)
DEFINE_COROUTINE_AT(aw_walk, AW_WALK_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_WALK_POINTS);
    while (ctx->result < ctx->steps) {
        ctx->result++;
        CORRAL_AWAIT_AT(co, walked, corral_wait_frames(2));
    }
    CORRAL_END(co);
}

/* the waiter: its mode's wait, again and again */
#define AW_AWAIT(co, pt, kinds, w) \
    do {                           \
        ctx->on = (kinds);         \
        CORRAL_AWAIT_AT(co, pt, w); \
        ctx->on = 0;               \
    } while (0)
DEFINE_COROUTINE_AT(aw_waiter, AW_WAITER_POINTS)
{
    corral_sched *const s = corral_sched_of(co);
    unsigned turns = 0; /* waits begun in this step: a second one yields first */
    CORRAL_BEGIN_AT(co, AW_WAITER_POINTS);
    for (;;) {
        if (turns++) {
            ctx->on = 0;
            CORRAL_WAIT_FRAME_AT(co, rested);
        }
        ctx->n++;
        if (ctx->mode == AW_FRAME) {
            ctx->on = AW_KIND(NONE);
            CORRAL_WAIT_FRAME_AT(co, framed);
            ctx->on = 0;
        } else if (ctx->mode == AW_NEXT_FRAME) {
            AW_AWAIT(co, next, AW_KIND(NEXT_FRAME), corral_wait_next_frame());
        } else if (ctx->mode == AW_FRAMES) {
            AW_AWAIT(co, counted, AW_KIND(FRAMES), corral_wait_frames(40));
        } else if (ctx->mode == AW_SECONDS) {
            AW_AWAIT(co, slept, AW_KIND(SECONDS), corral_wait_seconds(ctx->secs));
        } else if (ctx->mode == AW_REALTIME) {
            AW_AWAIT(co, real, AW_KIND(REALTIME), corral_wait_realtime(ctx->secs));
        } else if (ctx->mode == AW_AT) {
            AW_AWAIT(co, at_time, AW_KIND(AT),
                     corral_wait_at(corral_domain_time(s, corral_domain_of(co)) + (double)ctx->secs));
        } else if (ctx->mode == AW_FIXED) { /* issued at the end of a frame: pending between frames */
            AW_AWAIT(co, fixed, AW_KIND(FIXED_UPDATE), corral_wait_fixed_update());
            CORRAL_AWAIT_AT(co, fixed_done, corral_wait_end_of_frame());
        } else if (ctx->mode == AW_LATE) {
            AW_AWAIT(co, late, AW_KIND(LATE_UPDATE), corral_wait_late_update());
            CORRAL_AWAIT_AT(co, late_done, corral_wait_end_of_frame());
        } else if (ctx->mode == AW_END) {
            AW_AWAIT(co, ended, AW_KIND(END_OF_FRAME), corral_wait_end_of_frame());
        } else if (ctx->mode == AW_PHASE) {
            AW_AWAIT(co, custom, AW_KIND(PHASE), corral_wait_phase(CORRAL_PHASE_CUSTOM(0)));
        } else if (ctx->mode == AW_UNTIL_OWN) { /* its own field, which the game raises */
            AW_AWAIT(co, own, AW_KIND(UNTIL) | AW_BIT(AW_ON_OWN_FIELD), corral_wait_until(aw_flag_up, &ctx->flag));
            ctx->flag = 0;
        } else if (ctx->mode == AW_WHILE_OTHER) { /* while another's field is down */
            aw_waiter_ctx *o = aw_waiter_ctx_of(s, ctx->other);
            if (o) AW_AWAIT(co, other_flag, AW_KIND(WHILE) | AW_BIT(AW_ON_OTHER_FIELD),
                            corral_wait_while(aw_flag_down, &o->flag));
        } else if (ctx->mode == AW_UNTIL_NUMBER) {
            ctx->got = aw_level + 1;
            AW_AWAIT(co, numbered, AW_KIND(UNTIL) | AW_BIT(AW_ON_NUMBER),
                     corral_wait_until(aw_level_reached, (void *)(uintptr_t)ctx->got));
        } else if (ctx->mode == AW_SIGNAL) {
            AW_AWAIT(co, signalled, AW_KIND(SIGNAL), corral_wait_signal(ctx->sig));
        } else if (ctx->mode == AW_FUTURE) {
            AW_AWAIT(co, completed, AW_KIND(FUTURE), corral_wait_future(ctx->fut));
        } else if (ctx->mode == AW_JOIN) {
            AW_AWAIT(co, joined, AW_KIND(JOIN), corral_wait_join(ctx->other));
        } else if (ctx->mode == AW_JOIN_RESULT) {
            AW_AWAIT(co, joined_result, AW_KIND(JOIN) | AW_BIT(AW_ON_JOIN_RESULT),
                     corral_wait_join_result(ctx->other, &ctx->got, sizeof ctx->got));
        } else if (ctx->mode == AW_ALL) {
            const corral_wait all[2] = {corral_wait_seconds(ctx->secs), corral_wait_signal(ctx->sig)};
            AW_AWAIT(co, all, AW_KIND(ALL) | AW_KIND(SECONDS) | AW_KIND(SIGNAL), corral_wait_all(all, 2));
        } else if (ctx->mode == AW_ANY) {
            const corral_wait any[4] = {corral_wait_future(ctx->fut),
                                        corral_wait_receive(ctx->ch, &ctx->value, sizeof ctx->value),
                                        corral_wait_frames(45), corral_wait_stop()};
            AW_AWAIT(co, any, AW_KIND(ANY) | AW_KIND(FUTURE) | AW_KIND(RECEIVE) | AW_KIND(FRAMES) | AW_KIND(STOP),
                     corral_wait_any(any, 4));
        } else if (ctx->mode == AW_SEND) {
            ctx->value = (int32_t)(ctx->n & 0xFFFF);
            AW_AWAIT(co, sent, AW_KIND(SEND) | (ctx->unbuffered ? AW_BIT(AW_ON_UNBUFFERED_SEND) : 0),
                     corral_wait_send(ctx->ch, &ctx->value, sizeof ctx->value));
        } else if (ctx->mode == AW_RECEIVE) {
            AW_AWAIT(co, received, AW_KIND(RECEIVE) | (ctx->unbuffered ? AW_BIT(AW_ON_UNBUFFERED_RECEIVE) : 0),
                     corral_wait_receive(ctx->ch, &ctx->value, sizeof ctx->value));
        } else if (ctx->mode == AW_ACQUIRE) {
            AW_AWAIT(co, acquired, AW_KIND(ACQUIRE), corral_wait_acquire(ctx->sem));
        } else if (ctx->mode == AW_ACQUIRE_N) {
            AW_AWAIT(co, acquired_n, AW_KIND(ACQUIRE) | AW_BIT(AW_ON_ACQUIRE_N), corral_wait_acquire_n(ctx->sem, 3));
        } else if (ctx->mode == AW_WAIT_GROUP) {
            AW_AWAIT(co, grouped, AW_KIND(WAIT_GROUP), corral_wait_group(ctx->wg));
        } else if (ctx->mode == AW_STOP) {
            AW_AWAIT(co, stop, AW_KIND(STOP), corral_wait_stop());
        }
    }
    CORRAL_END(co);
}

/* ---- a call chain with results: quest calls fetch calls walk; or a
   walk called unless a signal fires */
#define AW_FETCH_FIELDS(F) F(uint32_t, item) F(uint32_t, walked)
#define AW_FETCH_POINTS(P) P(went)
DECLARE_COROUTINE_R(aw_fetch, AW_FETCH_FIELDS, uint32_t)
DEFINE_COROUTINE_AT(aw_fetch, AW_FETCH_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_FETCH_POINTS);
    CORRAL_CALL_AT(co, went, aw_walk, (aw_walk_ctx){.steps = ctx->item}, &ctx->walked);
    ctx->result = ctx->walked + 1;
    CORRAL_END(co);
}
#define AW_QUEST_FIELDS(F) F(uint32_t, unless) F(corral_signal, alarm) F(uint32_t, reward)
#define AW_QUEST_POINTS(P) P(fetched) P(guarded) P(rested)
DECLARE_COROUTINE(aw_quest, AW_QUEST_FIELDS)
DEFINE_COROUTINE_AT(aw_quest, AW_QUEST_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_QUEST_POINTS);
    for (;;) {
        if (ctx->unless)
            CORRAL_CALL_UNLESS_AT(co, guarded, corral_wait_signal(ctx->alarm), aw_walk, (aw_walk_ctx){.steps = 200},
                                  &ctx->reward);
        else CORRAL_CALL_AT(co, fetched, aw_fetch, (aw_fetch_ctx){.item = 300}, &ctx->reward);
        CORRAL_WAIT_FRAME_AT(co, rested);
    }
    CORRAL_END(co);
}

/* ---- a race and a sync of arms with results */
#define AW_NAP_FIELDS(F) F(float, secs)
#define AW_NAP_POINTS(P) P(napped)
DECLARE_COROUTINE(aw_nap, AW_NAP_FIELDS)
DEFINE_COROUTINE_AT(aw_nap, AW_NAP_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_NAP_POINTS);
    CORRAL_AWAIT_AT(co, napped, corral_wait_seconds(ctx->secs));
    CORRAL_END(co);
}
#define AW_RACER_FIELDS(F) F(uint32_t, sync) F(uint32_t, got) F(uint32_t, got2) F(int32_t, winner)
#define AW_RACER_POINTS(P) P(raced) P(synced) P(rested)
DECLARE_COROUTINE(aw_racer, AW_RACER_FIELDS)
DEFINE_COROUTINE_AT(aw_racer, AW_RACER_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_RACER_POINTS);
    for (;;) {
        if (ctx->sync) {
            CORRAL_SYNC_AT(co, synced, aw_walk_arm(co, (aw_walk_ctx){.steps = 150}, &ctx->got),
                           aw_walk_arm(co, (aw_walk_ctx){.steps = 170}, &ctx->got2),
                           aw_nap_arm(co, (aw_nap_ctx){.secs = 4.0f}));
        } else {
            CORRAL_RACE_AT(co, raced, aw_walk_arm(co, (aw_walk_ctx){.steps = 160}, &ctx->got),
                           aw_nap_arm(co, (aw_nap_ctx){.secs = 6.0f}));
            ctx->winner = corral_race_winner(co);
        }
        CORRAL_WAIT_FRAME_AT(co, rested);
    }
    CORRAL_END(co);
}

/* ---- a generator that sleeps between its values, and its puller */
#define AW_GEN_FIELDS(F) F(uint32_t, i) F(float, secs)
#define AW_GEN_POINTS(P) P(gave) P(slept)
DECLARE_COROUTINE_R(aw_gen, AW_GEN_FIELDS, uint32_t)
DEFINE_COROUTINE_AT(aw_gen, AW_GEN_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_GEN_POINTS);
    for (;;) {
        CORRAL_YIELD_VALUE_AT(co, gave, ctx->i++);
        CORRAL_AWAIT_AT(co, slept, corral_wait_seconds(ctx->secs));
    }
    CORRAL_END(co);
}
#define AW_PULLER_FIELDS(F) F(uint32_t, on) F(corral_handle, gen) F(uint32_t, v) F(uint32_t, sum)
#define AW_PULLER_POINTS(P) P(pulled) P(rested)
DECLARE_COROUTINE(aw_puller, AW_PULLER_FIELDS)
DEFINE_COROUTINE_AT(aw_puller, AW_PULLER_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_PULLER_POINTS);
    for (;;) {
        ctx->on = AW_KIND(PULL);
        CORRAL_PULL_AT(co, pulled, ctx->gen, &ctx->v);
        ctx->on = 0;
        if (!corral_wait_closed(co)) ctx->sum += ctx->v;
        CORRAL_WAIT_FRAME_AT(co, rested);
    }
    CORRAL_END(co);
}

/* ---- an any over coroutines that run already, by handle */
typedef struct aw_trio {
    corral_handle h[3];
} aw_trio;
#define AW_WATCHER_FIELDS(F) F(aw_trio, trio) F(int32_t, fired)
#define AW_WATCHER_POINTS(P) P(watched) P(rested)
DECLARE_COROUTINE(aw_watcher, AW_WATCHER_FIELDS)
DEFINE_COROUTINE_AT(aw_watcher, AW_WATCHER_POINTS)
{
    CORRAL_BEGIN_AT(co, AW_WATCHER_POINTS);
    for (;;) {
        CORRAL_ANY_OF_AT(co, watched, ctx->trio.h, 3);
        ctx->fired = corral_wait_fired(co);
        CORRAL_WAIT_FRAME_AT(co, rested);
    }
    CORRAL_END(co);
}

#define AW_TYPES(X)                                                                                                \
    X(aw_waiter, 1, 0) X(aw_walk, 2, 0) X(aw_fetch, 3, 0) X(aw_quest, 4, 0) X(aw_nap, 5, 0) X(aw_racer, 6, 0)     \
    X(aw_gen, 7, 0) X(aw_puller, 8, 0) X(aw_watcher, 9, 0)
CORRAL_DECLARE_REGISTRY(aw, AW_TYPES)
CORRAL_DEFINE_REGISTRY(aw, AW_TYPES);

/* ---- the game */
static corral_sched *aw_sched(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 48;
    d.classes[0].capacity = 32;
    d.classes[1].slot_size = 96;
    d.classes[1].capacity = 48;
    d.registry = &aw_registry;
    d.predicates = &aw_predicates;
    d.domains = 3;
    d.custom_phases = 1;
    d.channel_bytes = 64;
    d.validation = CORRAL_VALIDATION_REPORT; /* what a damaged state makes it do is reported */
    return corral_sched_create(&d);
}

typedef struct aw_world {
    corral_signal sig, alarm, lit;
    corral_future fut, done;
    corral_channel full, empty, unbuf_send, unbuf_receive, closed, select;
    corral_semaphore sem;
    corral_waitgroup wg;
    corral_handle own, stopping, single;
} aw_world;
static aw_world aw_w;

static corral_handle aw_start(corral_sched *s, aw_mode mode, aw_waiter_ctx c, uint64_t owner, uint32_t tags,
                              uint32_t domain)
{
    c.mode = (uint32_t)mode;
    const corral_start_desc o = {.owner = owner, .tags = tags, .domain = domain};
    return aw_waiter_start_ex(s, c, &o);
}
#define AW_START(s, mode, ...) aw_start(s, mode, (aw_waiter_ctx){__VA_ARGS__}, 0, 0, 0)

static void aw_build(corral_sched *s, aw_world *w)
{
    w->sig = corral_signal_create(s);
    w->alarm = corral_signal_create(s);
    w->lit = corral_signal_create(s);
    corral_signal_set(s, w->lit); /* set, no waiter */
    w->fut = corral_future_create(s);
    w->done = corral_future_create(s);
    w->full = corral_channel_create_ex(s, sizeof(int32_t), 2);
    w->empty = corral_channel_create_ex(s, sizeof(int32_t), 2);
    w->unbuf_send = corral_channel_create_ex(s, sizeof(int32_t), 0);
    w->unbuf_receive = corral_channel_create_ex(s, sizeof(int32_t), 0);
    w->closed = corral_channel_create_ex(s, sizeof(int32_t), 4);
    w->select = corral_channel_create(s, sizeof(int32_t));
    for (int32_t v = 1; v <= 2; v++) corral_channel_try_send(s, w->full, &v, sizeof v);
    corral_channel_try_send(s, w->closed, &(int32_t){9}, sizeof(int32_t));
    corral_channel_close(s, w->closed); /* closed, a value still in it */
    w->sem = corral_semaphore_create_ex(s, 0, 4);
    w->wg = corral_waitgroup_create(s);
    corral_waitgroup_add(s, w->wg, 2);
    corral_domain_set_parent(s, 1, 0);
    corral_domain_set_scale(s, 1, 0.5f);
    corral_domain_pause(s, 2);

    AW_START(s, AW_FRAME, 0);
    AW_START(s, AW_NEXT_FRAME, 0);
    w->single = AW_START(s, AW_FRAMES, 0);
    AW_START(s, AW_SECONDS, .secs = 0.7f);
    aw_start(s, AW_SECONDS, (aw_waiter_ctx){.secs = 0.4f}, 0, 1, 1); /* scaled */
    aw_start(s, AW_SECONDS, (aw_waiter_ctx){.secs = 0.3f}, 0, 0, 2); /* paused domain */
    w->stopping = AW_START(s, AW_SECONDS, .secs = 500.0f);
    AW_START(s, AW_REALTIME, .secs = 0.5f);
    AW_START(s, AW_AT, .secs = 0.9f);
    aw_start(s, AW_AT, (aw_waiter_ctx){.secs = 0.6f}, 0, 2, 1);
    AW_START(s, AW_FIXED, 0);
    AW_START(s, AW_LATE, 0);
    AW_START(s, AW_END, 0);
    AW_START(s, AW_PHASE, 0);
    w->own = AW_START(s, AW_UNTIL_OWN, 0);
    AW_START(s, AW_WHILE_OTHER, .other = w->own);
    AW_START(s, AW_UNTIL_NUMBER, 0);
    AW_START(s, AW_SIGNAL, .sig = w->sig);
    AW_START(s, AW_FUTURE, .fut = w->fut);
    AW_START(s, AW_JOIN, .other = w->own);
    AW_START(s, AW_JOIN_RESULT, .other = aw_walk_start(s, (aw_walk_ctx){.steps = 5000}));
    AW_START(s, AW_ALL, .secs = 0.5f, .sig = w->sig);
    AW_START(s, AW_ANY, .fut = w->fut, .ch = w->select);
    AW_START(s, AW_SEND, .ch = w->full);
    AW_START(s, AW_RECEIVE, .ch = w->empty);
    AW_START(s, AW_SEND, .ch = w->unbuf_send, .unbuffered = 1);
    AW_START(s, AW_RECEIVE, .ch = w->unbuf_receive, .unbuffered = 1);
    AW_START(s, AW_ACQUIRE, .sem = w->sem);
    AW_START(s, AW_ACQUIRE_N, .sem = w->sem);
    AW_START(s, AW_WAIT_GROUP, .wg = w->wg);
    AW_START(s, AW_STOP, 0);
    /* owner 7, paused from frame 8: a sleeper, a poller on its own field, a
       signal waiter the raises reach while it is held, a time in domain 1 */
    aw_start(s, AW_SECONDS, (aw_waiter_ctx){.secs = 0.2f}, 7, 0, 0);
    aw_start(s, AW_UNTIL_OWN, (aw_waiter_ctx){0}, 7, 1, 0);
    aw_start(s, AW_SIGNAL, (aw_waiter_ctx){.sig = w->sig}, 7, 0, 0);
    aw_start(s, AW_AT, (aw_waiter_ctx){.secs = 0.4f}, 7, 0, 1);

    aw_quest_start(s, (aw_quest_ctx){.unless = 0, .alarm = w->alarm});
    aw_quest_start(s, (aw_quest_ctx){.unless = 1, .alarm = w->alarm});
    aw_racer_start(s, (aw_racer_ctx){.sync = 0});
    aw_racer_start(s, (aw_racer_ctx){.sync = 1});
    aw_puller_start(s, (aw_puller_ctx){.gen = aw_gen_gen(s, (aw_gen_ctx){.secs = 0.5f})});
    aw_gen_gen(s, (aw_gen_ctx){.secs = 0.1f}); /* held, never pulled */
    aw_watcher_start(s, (aw_watcher_ctx){.trio = {{w->own, w->single, w->stopping}}});
}

/* the world's moves, by frame (none at a frame whose state is taken) */
static void aw_events(corral_sched *s, aw_world *w, int f)
{
    aw_level = (uint32_t)f / 20;
    if (f == 8) corral_pause_owner(s, 7);
    if (f == 12) corral_pause(s, w->single);
    if (f == 14) corral_request_stop(s, w->stopping, 1000.0f); /* a deadline, far off */
    if (f % 16 == 0) corral_signal_raise(s, w->sig);
    if (f % 10 == 5) corral_run_phase(s, CORRAL_PHASE_CUSTOM(0));
    if (f == 18 || f == 40) {
        aw_waiter_ctx *c = aw_waiter_ctx_of(s, w->own);
        if (c) c->flag = 1;
    }
    if (f == 30) corral_semaphore_release(s, w->sem, 1);
    if (f == 33) corral_waitgroup_done(s, w->wg);
    if (f == 36) corral_future_complete(s, w->done, (corral_value){.i = 5});
    if (f == 38) corral_channel_try_send(s, w->empty, &(int32_t){3}, sizeof(int32_t));
    if (f == 42) corral_channel_try_receive(s, w->full, &(int32_t){0}, sizeof(int32_t));
}

/* ---- what each take holds: a save at one frame, a snapshot at another
   (each costs minutes of CI flipping every bit under ASan: two, not four) */
static const struct {
    int frame;
    bool snapshot;
} aw_takes[] = {{24, false}, {47, true}};
enum { AW_LAST = 52 };
char hostile_allwaits_missing[HG_MAX_TAKES][512];

static void aw_say(char *out, size_t cap, const char *what)
{
    size_t n = strlen(out);
    if (n < cap) snprintf(out + n, cap - n, "%s%s", n ? ", " : "", what);
}
/* what the state lacks of what this game is for, in words (empty: nothing) */
static void aw_check(corral_sched *s, char *out, size_t cap)
{
    static const char *const extra[] = {"a join with a result", "an acquire of 3",   "an unbuffered send",
                                        "an unbuffered receive", "a predicate on its own field",
                                        "a predicate on another's field", "a predicate on a number"};
    uint32_t on = 0, domains = 0;
    bool chain = false, unless = false, race = false, sync = false, paused = false, held_gen = false;
    uint32_t cursor = 0;
    corral_co_info in;
    out[0] = 0;
    while (corral_next_co(s, &cursor, &in)) {
        domains |= 1u << (in.domain & 31);
        paused |= in.state == CORRAL_CO_PAUSED && in.type == &aw_waiter_type;
        held_gen |= in.state == CORRAL_CO_PAUSED && in.type == &aw_gen_type;
        race |= in.call == CORRAL_CALL_RACE;
        sync |= in.call == CORRAL_CALL_SYNC;
        if (in.type == &aw_waiter_type) on |= ((const aw_waiter_ctx *)in.ctx)->on;
        if (in.type == &aw_puller_type) on |= ((const aw_puller_ctx *)in.ctx)->on;
        if (in.type == &aw_quest_type && in.call == CORRAL_CALL_ONE) {
            corral_co_info child;
            const aw_quest_ctx *q = in.ctx;
            unless |= q->unless != 0;
            chain |= !q->unless && corral_co_info_of(s, in.child, &child) && child.call == CORRAL_CALL_ONE;
        }
    }
    for (uint32_t k = 0; k < AW_ON_COUNT; k++)
        if (!(on & AW_BIT(k)))
            aw_say(out, cap, k < CORRAL_WAIT_KIND_COUNT ? corral_wait_kind_str((corral_wait_kind)k)
                                                        : extra[k - CORRAL_WAIT_KIND_COUNT]);
    if (!chain) aw_say(out, cap, "a call chain");
    if (!unless) aw_say(out, cap, "a call unless");
    if (!race) aw_say(out, cap, "a race");
    if (!sync) aw_say(out, cap, "a sync");
    if (!paused) aw_say(out, cap, "a paused coroutine");
    if (!held_gen) aw_say(out, cap, "a generator");
    if (domains != 7u) aw_say(out, cap, "coroutines in three time domains");
}

static void aw_take(corral_sched *s, int frame, bool snapshot)
{
    hostile_game *g = &hostile_allwaits;
    if (g->takes >= HG_MAX_TAKES) return;
    hostile_take *t = &g->take[g->takes];
    t->frame = frame;
    t->snapshot = snapshot;
    t->size = snapshot ? corral_snapshot(s, t->bytes, sizeof t->bytes) : corral_save(s, t->bytes, sizeof t->bytes);
    if (!t->size) {
        fprintf(stderr, "allwaits: frame %d: no %s: %s\n", frame, snapshot ? "snapshot" : "save",
                corral_last_error_detail(s));
        return;
    }
    aw_check(s, hostile_allwaits_missing[g->takes], sizeof hostile_allwaits_missing[0]);
    g->takes++;
}

static void aw_play(void)
{
    corral_sched *s = aw_sched();
    if (!s) return;
    aw_build(s, &aw_w);
    for (int f = 1; f <= AW_LAST; f++) {
        for (size_t i = 0; i < sizeof aw_takes / sizeof aw_takes[0]; i++)
            if (aw_takes[i].frame == f) aw_take(s, f, aw_takes[i].snapshot);
        aw_events(s, &aw_w, f);
        corral_tick(s, 1.0f / 30.0f);
    }
    hostile_allwaits.sched = s;
}

hostile_game hostile_allwaits = {"allwaits", aw_play, NULL, 0, {{0}}};
