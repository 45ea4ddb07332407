/* test_domains.c -- time domains: each clock's scale and pause, seconds
   waits and corral_dt per domain, moving coroutines and groups, children
   inheriting their caller's domain, snapshots and saves of the clocks. */
#include "common.h"
#include "corral_internal.h"
#include "hostile/games.h"

#include <math.h>

TestSuite(domains);

enum { GAME = 0, UI = 1, SLOWMO = 2 };

static corral_sched *dsched(uint32_t domains)
{
    corral_sched_desc d = one_class_desc(128, 32);
    d.domains = domains;
    d.fixed_dt = 0.25f;
    return sched_of(d);
}

/* sleeper: waits `secs` seconds of its domain, then records the frame, its
   domain's time, and the dt it saw on its last step */
#define SLEEPER_FIELDS(F)  \
    F(float, secs)         \
    F(int, once)           \
    F(int, woke)           \
    F(int64_t, woke_frame) \
    F(double, woke_time)   \
    F(float, dt)           \
    F(uint32_t, domain)
DECLARE_COROUTINE(sleeper, SLEEPER_FIELDS)
#define SLEEPER_POINTS(P) P(slept) P(stepped)
DEFINE_COROUTINE_AT(sleeper, SLEEPER_POINTS)
{
    CORRAL_BEGIN_AT(co, SLEEPER_POINTS);
    ctx->dt = corral_dt(co);
    ctx->domain = corral_domain_of(co);
    CORRAL_AWAIT_AT(co, slept, corral_wait_seconds(ctx->secs));
    ctx->woke = 1;
    ctx->woke_frame = (int64_t)corral_frame(corral_sched_of(co));
    ctx->woke_time = corral_domain_time(corral_sched_of(co), corral_domain_of(co));
    while (!ctx->once) {
        ctx->dt = corral_dt(co);
        CORRAL_WAIT_FRAME_AT(co, stepped);
    }
    CORRAL_END(co);
}

static corral_handle sleep_in(corral_sched *s, uint32_t domain, float secs, uint64_t owner)
{
    corral_start_desc o;
    memset(&o, 0, sizeof o);
    o.domain = domain;
    o.owner = owner;
    return sleeper_start_ex(s, (sleeper_ctx){.secs = secs}, &o);
}

Test(domains, each_domain_counts_its_own_seconds_at_its_own_scale)
{
    corral_sched *s = dsched(3);
    cr_assert(corral_domain_set_scale(s, SLOWMO, 0.5f));
    corral_handle g = sleep_in(s, GAME, 1.0f, 0), u = sleep_in(s, UI, 1.0f, 0), m = sleep_in(s, SLOWMO, 1.0f, 0);
    sleeper_ctx *G = sleeper_ctx_of(s, g), *U = sleeper_ctx_of(s, u), *M = sleeper_ctx_of(s, m);
    cr_assert_eq(M->domain, SLOWMO, "the first step already runs in its domain");
    corral_set_time_scale(s, 2.0f); /* the game clock runs fast */
    for (int f = 1; f <= 4; f++) corral_tick(s, 0.25f);
    cr_assert(G->woke, "game: 4 x 0.25 x 2 = 2 s");
    cr_assert_eq(G->woke_frame, 2);
    cr_assert(U->woke);
    cr_assert_eq(U->woke_frame, 4);
    cr_assert(!M->woke, "slow motion: 0.5 s so far");
    cr_assert_float_eq(U->dt, 0.25f, 1e-6f, "corral_dt is the domain's dt");
    cr_assert_float_eq(G->dt, 0.5f, 1e-6f);
    for (int f = 5; f <= 8; f++) corral_tick(s, 0.25f);
    cr_assert(M->woke);
    cr_assert_eq(M->woke_frame, 8);
    cr_assert_float_eq(M->dt, 0.125f, 1e-6f);
    cr_assert_float_eq(corral_domain_time(s, SLOWMO), 1.0, 1e-9);
    cr_assert_float_eq(corral_time(s), corral_domain_time(s, GAME), 1e-12, "domain 0 is the game clock");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(domains, a_paused_game_domain_freezes_its_sleepers_while_the_ui_runs_on)
{
    corral_sched *s = dsched(2);
    corral_handle g = sleep_in(s, GAME, 1.0f, 0), u = sleep_in(s, UI, 1.0f, 0);
    sleeper_ctx *G = sleeper_ctx_of(s, g), *U = sleeper_ctx_of(s, u);
    corral_tick(s, 0.5f);
    cr_assert(corral_domain_pause(s, GAME));
    cr_assert(corral_domain_paused(s, GAME));
    cr_assert_eq(corral_fixed_steps_due(s), 0);
    double fixed = corral_fixed_time(s);
    for (int f = 0; f < 4; f++) corral_tick(s, 0.5f);
    cr_assert(U->woke, "the UI clock ran on");
    cr_assert(!G->woke, "the game clock stood still");
    cr_assert_float_eq(corral_fixed_time(s), fixed, 1e-12, "no fixed steps while the game is paused");
    cr_assert_float_eq(corral_domain_time(s, GAME), 0.5, 1e-12);
    cr_assert(corral_domain_resume(s, GAME));
    cr_assert_float_eq(corral_domain_scale(s, GAME), 1.0f, 0.0f, "the scale is kept through a pause");
    corral_tick(s, 0.25f);
    cr_assert(!G->woke, "0.75 s of game time");
    corral_tick(s, 0.25f);
    cr_assert(G->woke, "it slept exactly its second of game time");
    cr_assert_float_eq(G->woke_time, 1.0, 1e-9);
    corral_sched_destroy(s);
}

Test(domains, a_scale_change_keeps_every_sleepers_time_left_exactly)
{
    corral_sched *s = dsched(2);
    corral_handle u = sleep_in(s, UI, 1.0f, 0);
    sleeper_ctx *U = sleeper_ctx_of(s, u);
    corral_tick(s, 0.25f); /* 0.25 s of 1 */
    corral_co_info in;
    cr_assert(corral_co_info_of(s, u, &in));
    cr_assert_float_eq(in.left, 0.75, 1e-9, "the inspector shows the time left in its domain");
    cr_assert_eq(in.domain, UI);
    corral_domain_set_scale(s, UI, 3.0f);
    corral_tick(s, 0.125f); /* + 0.375 */
    cr_assert(corral_co_info_of(s, u, &in));
    cr_assert_float_eq(in.left, 0.375, 1e-9);
    corral_tick(s, 0.125f); /* + 0.375: exactly due */
    cr_assert(U->woke);
    cr_assert_float_eq(U->woke_time, 1.0, 1e-9);
    corral_sched_destroy(s);
}

Test(domains, moving_a_sleeper_carries_its_time_left_into_the_new_domain)
{
    corral_sched *s = dsched(3);
    corral_domain_set_scale(s, SLOWMO, 0.25f);
    corral_handle h = sleep_in(s, GAME, 1.0f, 7);
    sleep_in(s, GAME, 1.0f, 7);
    sleep_in(s, GAME, 1.0f, 8);
    sleeper_ctx *c = sleeper_ctx_of(s, h);
    corral_tick(s, 0.5f); /* 0.5 s left */
    cr_assert_eq(corral_set_domain_owner(s, 7, SLOWMO), 2, "both of owner 7's coroutines moved");
    cr_assert_eq(corral_set_domain_owner(s, 7, SLOWMO), 0, "none moves twice");
    corral_tick(s, 1.0f); /* 0.25 s of slow motion */
    cr_assert(!c->woke);
    corral_co_info in;
    cr_assert(corral_co_info_of(s, h, &in));
    cr_assert_float_eq(in.left, 0.25, 1e-9);
    corral_tick(s, 1.0f);
    cr_assert(c->woke, "0.5 s of slow motion after the move");
    cr_assert(corral_set_domain(s, h, UI));
    cr_assert(corral_co_info_of(s, h, &in));
    cr_assert_eq(in.domain, UI);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* parent: calls a sleeper, then races two sleepers */
#define PARENT_FIELDS(F) F(int, done)
DECLARE_COROUTINE(parent, PARENT_FIELDS)
DEFINE_COROUTINE(parent)
{
    CORRAL_BEGIN(co);
    CORRAL_RACE(co, sleeper_arm(co, (sleeper_ctx){.secs = 1.0f, .once = 1}),
                sleeper_arm(co, (sleeper_ctx){.secs = 5.0f, .once = 1}));
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(domains, children_live_in_their_callers_domain_and_move_with_it)
{
    corral_sched *s = dsched(2);
    corral_start_desc o;
    memset(&o, 0, sizeof o);
    o.domain = UI;
    corral_handle p = parent_start_ex(s, (parent_ctx){0}, &o);
    corral_co_info in;
    cr_assert(corral_co_info_of(s, p, &in));
    cr_assert_eq(in.call, CORRAL_CALL_RACE);
    cr_assert_eq(in.arms, 2);
    corral_co_info arm;
    cr_assert(corral_co_info_of(s, in.child, &arm));
    cr_assert_eq(arm.domain, UI, "an arm starts in its caller's domain");
    corral_domain_pause(s, GAME);
    corral_tick(s, 0.5f);
    corral_tick(s, 0.5f);
    cr_assert(parent_ctx_of(s, p)->done, "the UI race ran while the game was paused");
    /* moving a caller moves the arms it awaits */
    corral_domain_resume(s, GAME);
    corral_handle q = parent_start(s, (parent_ctx){0});
    cr_assert(corral_set_domain(s, q, UI));
    cr_assert(corral_co_info_of(s, q, &in));
    cr_assert(corral_co_info_of(s, in.child, &arm));
    cr_assert_eq(arm.domain, UI);
    corral_sched_destroy(s);
}

Test(domains, a_bad_domain_is_refused_and_changes_nothing)
{
    corral_sched *s = dsched(2);
    corral_start_desc o;
    memset(&o, 0, sizeof o);
    o.domain = 2;
    corral_handle h = sleeper_start_ex(s, (sleeper_ctx){.secs = 1.0f}, &o);
    cr_assert_eq(h.gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DOMAIN);
    cr_assert_eq(corral_live_count(s), 0);
    cr_assert(!corral_domain_set_scale(s, 2, 1.0f));
    cr_assert(!corral_domain_set_scale(s, UI, -1.0f));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DT);
    cr_assert(!corral_domain_set_scale(s, UI, INFINITY));
    cr_assert(!corral_domain_set_scale(s, UI, 2e9f));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DT);
    cr_assert_float_eq(corral_domain_scale(s, UI), 1.0f, 0.0f);
    corral_set_time_scale(s, INFINITY);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DT);
    cr_assert_float_eq(corral_time_scale(s), 1.0f, 0.0f);
    const double t = corral_time(s);
    corral_tick(s, INFINITY); /* counts as 0 */
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DT);
    cr_assert(corral_time(s) == t, "an infinite dt moves no clock");
    corral_set_time_scale(s, 1e9f); /* the largest scale and dt: the game clock stops at its bound */
    for (int f = 0; f < 3; f++) corral_tick(s, 3e38f);
    cr_assert(corral_time(s) == 1e12, "at 10^12 s (API.md, \"Clocks and their bounds\")");
    cr_assert(corral_fixed_steps_due(s) == 0, "a clock at its bound counts no fixed steps");
    corral_set_time_scale(s, 1.0f);
    cr_assert(!corral_domain_pause(s, CORRAL_MAX_DOMAINS));
    cr_assert_eq(corral_set_domain_tags(s, 1, 9), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DOMAIN);
    corral_handle k = sleep_in(s, UI, 1.0f, 0);
    cr_assert(!corral_set_domain(s, k, 5));
    cr_assert_eq(sleeper_ctx_of(s, k)->domain, UI);
    corral_sched_destroy(s);
    corral_sched_desc d = one_class_desc(128, 4);
    d.domains = CORRAL_MAX_DOMAINS + 1;
    d.validation = CORRAL_VALIDATION_REPORT;
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_DESC);
}

static corral_sched *fill(corral_sched *s)
{
    corral_domain_set_scale(s, SLOWMO, 0.5f);
    corral_domain_pause(s, UI);
    sleep_in(s, GAME, 2.0f, 0);
    sleep_in(s, UI, 2.0f, 0);
    sleep_in(s, SLOWMO, 2.0f, 0);
    corral_tick(s, 0.5f);
    return s;
}

Test(domains, a_snapshot_rewinds_every_clock_and_membership)
{
    corral_sched *s = fill(dsched(3));
    uint64_t h0 = corral_state_hash(s);
    static unsigned char buf[1 << 16];
    size_t n = corral_snapshot(s, buf, sizeof buf);
    cr_assert_gt(n, 0);
    corral_domain_resume(s, UI);
    corral_domain_set_scale(s, SLOWMO, 4.0f);
    for (int f = 0; f < 6; f++) corral_tick(s, 0.5f);
    cr_assert_neq(corral_state_hash(s), h0);
    cr_assert(corral_restore(s, buf, n));
    cr_assert_eq(corral_state_hash(s), h0);
    cr_assert(corral_domain_paused(s, UI));
    cr_assert_float_eq(corral_domain_scale(s, SLOWMO), 0.5f, 0.0f);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

#define DSAVE_TYPES(X) X(sleeper, 1, 0)
CORRAL_DECLARE_REGISTRY(dsave, DSAVE_TYPES)
CORRAL_DEFINE_REGISTRY(dsave, DSAVE_TYPES);

static corral_sched *rsched(uint32_t domains)
{
    corral_sched_desc d = one_class_desc(128, 32);
    d.domains = domains;
    d.registry = &dsave_registry;
    return sched_of(d);
}

Test(domains, a_save_carries_the_clocks_and_each_coroutines_domain)
{
    corral_sched *a = fill(rsched(3));
    static unsigned char buf[1 << 16];
    size_t n = corral_save(a, buf, sizeof buf);
    cr_assert_gt(n, 0, "%s", corral_error_str(corral_last_error(a)));
    corral_sched *b = rsched(3);
    cr_assert(corral_load(b, buf, n));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a));
    for (int f = 0; f < 12; f++) {
        corral_tick(a, 0.25f);
        corral_tick(b, 0.25f);
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d after the load", f);
    }
    corral_sched *c = rsched(2);
    cr_assert(!corral_load(c, buf, n), "a scheduler with fewer domains refuses it");
    cr_assert_eq(corral_last_error(c), CORRAL_ERR_BAD_SAVE);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
    corral_sched_destroy(c);
}

Test(domains, a_stop_request_and_its_deadline_save_and_snapshot)
{
    corral_sched *a = rsched(2);
    corral_handle h = sleep_in(a, UI, 3.0f, 0);
    cr_assert(corral_request_stop(a, h, 0.0f));
    static unsigned char buf[1 << 14];
    size_t n = corral_save(a, buf, sizeof buf);
    cr_assert_gt(n, 0);
    corral_sched *b = rsched(2);
    cr_assert(corral_load(b, buf, n));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "the request is part of the state");
    cr_assert(corral_request_stop(a, h, 1.0f));
    n = corral_save(a, buf, sizeof buf);
    cr_assert_gt(n, 0, "a pending deadline saves: %s", corral_error_str(corral_last_error(a)));
    corral_sched *c = rsched(2);
    cr_assert(corral_load(c, buf, n));
    cr_assert_eq(corral_state_hash(c), corral_state_hash(a));
    cr_assert(corral_verify(c));
    static unsigned char snap[1 << 16];
    size_t k = corral_snapshot(a, snap, sizeof snap);
    uint64_t before = corral_state_hash(a);
    for (int f = 0; f < 20; f++) {
        corral_tick(a, 0.1f);
        corral_tick(c, 0.1f);
        cr_assert_eq(corral_alive(c, h), corral_alive(a, h), "frame %d: the loaded deadline keeps its time", f);
    }
    cr_assert(!corral_alive(a, h), "the deadline stopped it");
    corral_sched_destroy(c);
    cr_assert(corral_restore(a, snap, k));
    cr_assert_eq(corral_state_hash(a), before, "a snapshot holds the deadline");
    cr_assert(corral_alive(a, h));
    cr_assert(corral_verify(a));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(domains, a_coroutine_of_a_custom_phase_saves_and_loads_only_where_that_phase_exists)
{
    corral_sched_desc d = one_class_desc(128, 32);
    d.registry = &dsave_registry;
    d.custom_phases = 1;
    corral_sched *a = sched_of(d);
    corral_start_desc o = {.phase = CORRAL_PHASE_CUSTOM(0)};
    corral_handle h = sleeper_start_ex(a, (sleeper_ctx){.secs = 0.1f}, &o);
    static unsigned char buf[1 << 14];
    size_t n = corral_save(a, buf, sizeof buf);
    cr_assert_gt(n, 0);
    corral_sched *b = sched_of(d);
    cr_assert(corral_load(b, buf, n));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a));
    corral_co_info in;
    cr_assert(corral_co_info_of(b, h, &in));
    cr_assert_eq(in.phase, CORRAL_PHASE_CUSTOM(0));
    corral_tick(b, 0.2f);
    cr_assert(!sleeper_ctx_of(b, h)->woke, "its phase has not run");
    corral_run_phase(b, CORRAL_PHASE_CUSTOM(0));
    cr_assert(sleeper_ctx_of(b, h)->woke);
    corral_sched *c = rsched(1); /* no custom phase */
    cr_assert(!corral_load(c, buf, n));
    cr_assert_eq(corral_last_error(c), CORRAL_ERR_BAD_SAVE);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
    corral_sched_destroy(c);
}

/* ---- domains with a parent: an actor's clock under the world's */

Test(domains, a_domain_that_follows_the_game_stops_when_the_game_pauses_and_runs_at_the_product_of_scales)
{
    /* the case from the issue: slow motion for one character, then a menu
       pauses the game; the slow-motion domain followed the game, the UI
       clock does not */
    corral_sched *s = dsched(3);
    cr_assert(corral_domain_set_parent(s, SLOWMO, GAME));
    cr_assert_eq(corral_domain_parent(s, SLOWMO), GAME);
    cr_assert_eq(corral_domain_parent(s, UI), CORRAL_DOMAIN_NONE);
    cr_assert(corral_domain_set_scale(s, SLOWMO, 0.5f));
    corral_set_time_scale(s, 2.0f);
    cr_assert_float_eq(corral_domain_rate(s, SLOWMO), 1.0f, 1e-6f, "0.5 of a game at 2");
    corral_handle m = sleep_in(s, SLOWMO, 1.0f, 0), u = sleep_in(s, UI, 1.0f, 0);
    corral_handle w = sleep_in(s, SLOWMO, 0.0f, 0); /* awake from the next frame: reads corral_dt each frame */
    sleeper_ctx *M = sleeper_ctx_of(s, m), *U = sleeper_ctx_of(s, u), *W = sleeper_ctx_of(s, w);
    corral_tick(s, 0.25f);
    corral_tick(s, 0.25f);
    cr_assert_float_eq(corral_domain_time(s, SLOWMO), 0.5, 1e-9, "2 frames x 0.25 x 2 x 0.5");
    cr_assert_float_eq(W->dt, 0.25f, 1e-6f, "corral_dt: the frame's dt times 2 times 0.5");
    cr_assert(corral_domain_pause(s, GAME));
    cr_assert(!corral_domain_paused(s, SLOWMO), "its own pause is its own");
    cr_assert_float_eq(corral_domain_rate(s, SLOWMO), 0.0f, 0.0f, "held by the game's pause");
    for (int f = 0; f < 8; f++) corral_tick(s, 0.25f);
    cr_assert(U->woke, "the UI clock ran on");
    cr_assert(!M->woke, "the slow-motion character stood still under the paused game");
    cr_assert_float_eq(corral_domain_time(s, SLOWMO), 0.5, 1e-9);
    cr_assert_float_eq(W->dt, 0.0f, 0.0f, "corral_dt reads 0 while an ancestor is paused");
    corral_co_info in;
    cr_assert(corral_co_info_of(s, m, &in));
    cr_assert_float_eq(in.left, 0.5, 1e-9, "its time left stayed exact");
    cr_assert(corral_domain_resume(s, GAME));
    corral_set_time_scale(s, 1.0f); /* now 0.5 s of slow motion a second */
    for (int f = 0; f < 3; f++) corral_tick(s, 0.25f);
    cr_assert(!M->woke, "0.5 + 3 x 0.125 = 0.875");
    corral_tick(s, 0.25f);
    cr_assert(M->woke, "exactly its second of slow-motion time");
    cr_assert_float_eq(M->woke_time, 1.0, 1e-9);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(domains, a_chain_of_three_multiplies_every_scale_and_any_paused_ancestor_holds_it)
{
    corral_sched *s = dsched(4);
    cr_assert(corral_domain_set_parent(s, 2, 1));
    cr_assert(corral_domain_set_parent(s, 3, 2));
    corral_domain_set_scale(s, 1, 2.0f);
    corral_domain_set_scale(s, 2, 3.0f);
    corral_domain_set_scale(s, 3, 0.25f);
    cr_assert_float_eq(corral_domain_rate(s, 3), 1.5f, 1e-6f);
    corral_handle h = sleep_in(s, 3, 3.0f, 0);
    sleeper_ctx *H = sleeper_ctx_of(s, h);
    corral_tick(s, 1.0f);
    cr_assert_float_eq(corral_domain_time(s, 3), 1.5, 1e-9);
    corral_domain_pause(s, 1); /* the grandparent */
    corral_tick(s, 1.0f);
    cr_assert_float_eq(corral_domain_time(s, 3), 1.5, 1e-9, "a paused grandparent holds it");
    corral_domain_resume(s, 1);
    corral_domain_set_scale(s, 2, 1.0f); /* an ancestor's scale: the time left stays exact */
    corral_tick(s, 1.0f);
    cr_assert_float_eq(corral_domain_time(s, 3), 2.0, 1e-9, "1 x 2 x 1 x 0.25");
    cr_assert(!H->woke);
    cr_assert(corral_domain_set_parent(s, 3, CORRAL_DOMAIN_NONE), "it can stop following");
    cr_assert_float_eq(corral_domain_rate(s, 3), 0.25f, 1e-6f);
    for (int f = 0; f < 4; f++) corral_tick(s, 1.0f);
    cr_assert(H->woke);
    cr_assert_float_eq(H->woke_time, 3.0, 1e-9);
    corral_sched_destroy(s);
}

Test(domains, a_parent_not_numbered_before_its_domain_is_refused_and_changes_nothing)
{
    corral_sched *s = dsched(3);
    cr_assert(corral_domain_set_parent(s, 2, 1));
    cr_assert(!corral_domain_set_parent(s, 1, 2), "a cycle would need a parent after its child");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DOMAIN);
    cr_assert(!corral_domain_set_parent(s, 1, 1), "itself");
    cr_assert(!corral_domain_set_parent(s, GAME, 1), "the game clock follows none");
    cr_assert(!corral_domain_set_parent(s, 2, 3), "past desc.domains");
    cr_assert(!corral_domain_set_parent(s, 3, 0), "a domain past desc.domains");
    cr_assert(strstr(corral_last_error_detail(s), "corral_domain_set_parent") != NULL, "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_domain_parent(s, 2), 1u, "the refusals changed nothing");
    cr_assert_eq(corral_domain_parent(s, 1), CORRAL_DOMAIN_NONE);
    cr_assert_eq(corral_domain_parent(s, 3), CORRAL_DOMAIN_NONE, "a bad domain reads none");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(domains, parents_survive_a_snapshot_and_a_save_and_a_bad_one_is_refused)
{
    corral_sched *a = rsched(3);
    corral_domain_set_parent(a, SLOWMO, GAME);
    corral_domain_set_scale(a, SLOWMO, 0.5f);
    fill(a);
    uint64_t h0 = corral_state_hash(a);
    static unsigned char snap[1 << 16], save[1 << 16];
    size_t n = corral_snapshot(a, snap, sizeof snap);
    cr_assert_gt(n, 0);
    corral_domain_set_parent(a, SLOWMO, CORRAL_DOMAIN_NONE);
    cr_assert_neq(corral_state_hash(a), h0, "the state hash covers the parent");
    cr_assert(corral_restore(a, snap, n));
    cr_assert_eq(corral_domain_parent(a, SLOWMO), GAME);
    cr_assert_eq(corral_state_hash(a), h0);

    size_t k = corral_save(a, save, sizeof save);
    cr_assert_gt(k, 0);
    corral_sched *b = rsched(3);
    cr_assert(corral_load(b, save, k), "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_domain_parent(b, SLOWMO), GAME);
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a));
    corral_domain_pause(a, GAME);
    corral_domain_pause(b, GAME);
    for (int f = 0; f < 6; f++) {
        corral_tick(a, 0.25f);
        corral_tick(b, 0.25f);
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d after the load", f);
    }

    /* a snapshot whose parent field names a domain after its own */
    corral_sched *c = rsched(3);
    fill(c);
    size_t m = corral_snapshot(c, snap, sizeof snap);
    uint64_t hc = corral_state_hash(c);
    const uint32_t follows_2 = 3; /* the parent field: domain 2 + 1 */
    memcpy(snap + HOSTILE_SNAP_HEAD + CORRAL__DOMAINS_OFF + offsetof(corral__domains, d[1].parent), &follows_2,
           sizeof follows_2);
    hostile_reseal_snapshot(snap, m); /* the copy of the block's head follows the snapshot's head */
    cr_assert(!corral_restore(c, snap, m), "domain 1 following domain 2 is refused");
    cr_assert_eq(corral_last_error(c), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert_eq(corral_state_hash(c), hc, "refused whole: nothing changed");
    corral_sched_destroy(a);
    corral_sched_destroy(b);
    corral_sched_destroy(c);
}
