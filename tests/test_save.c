/*
    test_save.c -- corral_save / corral_load: a game's state (sleepers,
    a nested call, signal, future, join and predicate waiters, a paused
    group, queued and deferred coroutines) saved and loaded into a new
    scheduler hashes the same and runs on the same; named resume points;
    refusals (unsavable state, damaged saves, a changed build) that change
    nothing; field migration by name; waits and clocks at time's bounds.
*/
#include "common.h"
#include "corral_internal.h" /* the origin a block carries */
#include "hostile/games.h" /* a save resealed after an edit */

#include <float.h>
#include <math.h>

static unsigned char g_save[1 << 18];

/* ---- the game */
static bool sv_flag_set(void *user) { return (uintptr_t)user == 7; }
static bool sv_never(void *user) { (void)user; return false; }
static int32_t g_victim = 1000; /* what an address from a file would reach */
static int g_victim_reads;      /* how often a predicate was handed it */
static bool sv_field_up(void *user)
{
    g_victim_reads += user == &g_victim;
    return *(const int32_t *)user != 0;
}
#define SV_PREDICATES(X) X(sv_flag_set, 1, CORRAL_PREDICATE_NUMBER) X(sv_never, 2) X(sv_field_up, 3)
CORRAL_DEFINE_PREDICATES(sv, SV_PREDICATES);

#define SV_WALK_FIELDS(F) F(int32_t, x) F(int32_t, step) F(float, nap)
#define SV_WALK_POINTS(P) P(moved) P(napped)
DECLARE_COROUTINE(sv_walk, SV_WALK_FIELDS)
DEFINE_COROUTINE_AT(sv_walk, SV_WALK_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_WALK_POINTS);
    for (;;) {
        ctx->x += ctx->step;
        CORRAL_WAIT_FRAME_AT(co, moved);
        if (ctx->x % 4 == 0) CORRAL_AWAIT_AT(co, napped, corral_wait_seconds(ctx->nap));
    }
    CORRAL_END(co);
}

#define SV_CHILD_FIELDS(F) F(int32_t, n)
#define SV_CHILD_POINTS(P) P(counted)
DECLARE_COROUTINE_R(sv_child, SV_CHILD_FIELDS, int32_t)
DEFINE_COROUTINE_AT(sv_child, SV_CHILD_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_CHILD_POINTS);
    while (ctx->result < ctx->n) {
        ctx->result++;
        CORRAL_WAIT_FRAME_AT(co, counted);
    }
    CORRAL_END(co);
}

#define SV_CALLER_FIELDS(F) F(int32_t, n) F(int32_t, got)
#define SV_CALLER_POINTS(P) P(called)
DECLARE_COROUTINE(sv_caller, SV_CALLER_FIELDS)
DEFINE_COROUTINE_AT(sv_caller, SV_CALLER_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_CALLER_POINTS);
    CORRAL_CALL_AT(co, called, sv_child, (sv_child_ctx){.n = ctx->n}, &ctx->got);
    CORRAL_END(co);
}

#define SV_WAITER_FIELDS(F) F(corral_signal, sig) F(corral_future, fut) F(corral_handle, join) F(uint32_t, flag) F(int32_t, stage)
#define SV_WAITER_POINTS(P) P(signalled) P(completed) P(joined) P(flagged)
DECLARE_COROUTINE(sv_waiter, SV_WAITER_FIELDS)
DEFINE_COROUTINE_AT(sv_waiter, SV_WAITER_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_WAITER_POINTS);
    CORRAL_AWAIT_AT(co, signalled, corral_wait_signal(ctx->sig));
    ctx->stage = 1;
    CORRAL_AWAIT_AT(co, completed, corral_wait_future(ctx->fut));
    ctx->stage = 2;
    CORRAL_AWAIT_AT(co, joined, corral_wait_join(ctx->join));
    ctx->stage = 3;
    CORRAL_AWAIT_AT(co, flagged, corral_wait_until(sv_flag_set, (void *)(uintptr_t)ctx->flag));
    ctx->stage = 4;
    CORRAL_END(co);
}

/* an unnamed point: runs, but cannot be saved while it waits there */
#define SV_PLAIN_FIELDS(F) F(int32_t, n)
DECLARE_COROUTINE(sv_plain, SV_PLAIN_FIELDS)
DEFINE_COROUTINE(sv_plain)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->n++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

/* waits until a field is up: its own (other zero) or another's */
#define SV_WATCH_FIELDS(F) F(int32_t, up) F(corral_handle, other) F(int32_t, stage)
#define SV_WATCH_POINTS(P) P(watched)
DECLARE_COROUTINE(sv_watch, SV_WATCH_FIELDS)
DEFINE_COROUTINE_AT(sv_watch, SV_WATCH_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_WATCH_POINTS);
    {
        sv_watch_ctx *o = ctx->other.gen ? sv_watch_ctx_of(corral_sched_of(co), ctx->other) : ctx;
        CORRAL_AWAIT_AT(co, watched, corral_wait_until(sv_field_up, o ? &o->up : &ctx->up));
    }
    ctx->stage = 1;
    CORRAL_END(co);
}

#define SV_TYPES(X) X(sv_walk, 1, 0) X(sv_child, 2, 0) X(sv_caller, 3, 0) X(sv_waiter, 4, 0) X(sv_plain, 5, 0) \
    X(sv_watch, 6, 0)
CORRAL_DECLARE_REGISTRY(sv, SV_TYPES)
CORRAL_DEFINE_REGISTRY(sv, SV_TYPES);

static corral_sched *sv_sched(void)
{
    corral_sched_desc d = one_class_desc(64, 128);
    d.registry = &sv_registry;
    d.predicates = &sv_predicates;
    return sched_of(d);
}

typedef struct sv_game {
    corral_signal sig;
    corral_future fut;
    corral_handle walkers[6], caller, waiter, joined;
} sv_game;

static void sv_build(corral_sched *s, sv_game *g)
{
    g->sig = corral_signal_create(s);
    g->fut = corral_future_create(s);
    for (int i = 0; i < 6; i++) {
        corral_start_desc o = {.phase = CORRAL_PHASE_UPDATE, .owner = (uint64_t)(i % 2 ? 42 : 0), .tags = (uint32_t)(i % 3 == 0 ? 2 : 0)};
        g->walkers[i] = corral_start_ex(s, &sv_walk_type, &(sv_walk_ctx){0, i + 1, 0.05f * (float)(i + 1)},
                                        sizeof(sv_walk_ctx), &o);
    }
    g->caller = sv_caller_start(s, (sv_caller_ctx){5, 0});
    g->joined = g->walkers[5];
    g->waiter = sv_waiter_start(s, (sv_waiter_ctx){g->sig, g->fut, g->joined, 7, 0});
    sv_waiter_start(s, (sv_waiter_ctx){g->sig, g->fut, g->joined, 3, 0}); /* a second waiter on each list */
    for (int f = 0; f < 3; f++) corral_tick(s, 1.0f / 60.0f);
    corral_pause_owner(s, 42);
}

Test(save, a_saved_game_loads_into_a_new_scheduler_and_runs_on_the_same)
{
    corral_sched *a = sv_sched();
    sv_game g;
    sv_build(a, &g);
    size_t need = corral_save(a, NULL, 0);
    cr_assert_gt(need, 0, "%s", corral_error_str(corral_last_error(a)));
    size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_eq(n, need);

    corral_sched *b = sv_sched();
    sv_plain_start(b, (sv_plain_ctx){0}); /* the load replaces what runs */
    cr_assert(corral_load(b, g_save, n), "%s", corral_error_str(corral_last_error(b)));
    cr_assert(corral_verify(b));
    cr_assert_eq(corral_live_count(b), corral_live_count(a));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "the loaded state is the saved one");
    cr_assert(corral_alive(b, g.caller), "handles from the saving process work after the load");
    cr_assert(corral_paused(b, g.walkers[1]));

    /* the same events, the same states */
    for (int f = 0; f < 40; f++) {
        for (int k = 0; k < 2; k++) {
            corral_sched *s = k ? b : a;
            if (f == 2) corral_signal_raise(s, g.sig);
            if (f == 4) corral_future_complete(s, g.fut, (corral_value){.i = 9});
            if (f == 6) corral_stop(s, g.joined);
            if (f == 10) corral_resume_owner(s, 42);
            corral_tick(s, 1.0f / 60.0f);
        }
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d after the load differs", f);
    }
    cr_log_info("save: %zu bytes; live %u after 40 frames; a walker at x=%d", n, corral_live_count(b),
                sv_walk_ctx_of(b, g.walkers[0]) ? sv_walk_ctx_of(b, g.walkers[0])->x : -1);
    sv_waiter_ctx *w = sv_waiter_ctx_of(b, g.waiter);
    cr_assert(!w || w->stage >= 3, "the waiter went through signal, future and join");
    sv_caller_ctx *c = sv_caller_ctx_of(b, g.caller);
    cr_assert(c == NULL, "the caller got its result and finished");
    cr_assert(corral_verify(a) && corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* Calls and joins, groups, predicates and futures are features of the
   core: their code arrives with their first use in the process (a call, a
   constructor, a membership, a future made), or with a load or a restore
   that brings them back. The save and the snapshot are made in a child
   process, so this one takes them with none of the four ever used
   (Criterion runs each test in a process of its own); the same game is
   built here only afterwards, to compare with. */
static size_t sv_saved(unsigned char *out, size_t cap)
{
    corral_sched *a = sv_sched();
    sv_game g;
    sv_build(a, &g);
    return corral_save(a, out, cap);
}
static size_t sv_snapped(unsigned char *out, size_t cap)
{
    corral_sched *a = sv_sched();
    sv_game g;
    sv_build(a, &g);
    return corral_snapshot(a, out, cap);
}
static void sv_same_from_here_on(corral_sched *b)
{
    corral_sched *a = sv_sched();
    sv_game g;
    sv_build(a, &g); /* the same handles: both processes built it from a new scheduler */
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "the state is the saved one");
    for (int f = 0; f < 40; f++) {
        for (int k = 0; k < 2; k++) {
            corral_sched *s = k ? b : a;
            if (f == 2) corral_signal_raise(s, g.sig);
            if (f == 4) cr_assert(corral_future_complete(s, g.fut, (corral_value){.i = 9}));
            if (f == 6) cr_assert(corral_stop(s, g.joined));
            if (f == 10) cr_assert_eq(corral_resume_owner(s, 42), 2); /* walkers 1 and 3; 5 was joined and stopped */
            corral_tick(s, 1.0f / 60.0f);
        }
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d differs", f);
    }
    cr_assert(corral_alive(b, g.waiter) == false && sv_caller_ctx_of(b, g.caller) == NULL,
              "the waiter went through its join and predicate, the caller got its result");
    cr_assert(corral_verify(a) && corral_verify(b), "%s", corral_last_error_detail(b));
    corral_sched_destroy(a);
}
Test(save, a_load_brings_calls_joins_groups_predicates_and_futures_into_a_process_that_never_used_them)
{
    const size_t n = save_in_child(sv_saved, g_save, sizeof g_save);
    corral_sched *b = sv_sched();
    cr_assert(corral_load(b, g_save, n), "%s", corral_last_error_detail(b));
    cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
    sv_same_from_here_on(b);
    corral_sched_destroy(b);
}
Test(save, a_restore_brings_them_too)
{
    const size_t n = save_in_child(sv_snapped, g_save, sizeof g_save);
    corral_sched *b = sv_sched();
    cr_assert(corral_restore(b, g_save, n), "%s", corral_last_error_detail(b));
    sv_same_from_here_on(b);
    corral_sched_destroy(b);
}

Test(save, what_cannot_be_saved_is_named_and_nothing_is_written)
{
    corral_sched *s = sv_sched();
    sv_plain_start(s, (sv_plain_ctx){0});
    memset(g_save, 0xAB, 64);
    cr_assert_eq(corral_save(s, g_save, sizeof g_save), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_UNSAVABLE);
    cr_assert_eq(g_save[0], 0xAB, "nothing written");
    corral_sched_destroy(s);

    corral_sched_desc d = one_class_desc(64, 16); /* no registry */
    s = sched_of(d);
    sv_walk_start(s, (sv_walk_ctx){0, 1, 0.1f});
    cr_assert_eq(corral_save(s, g_save, sizeof g_save), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_UNSAVABLE);
    corral_sched_destroy(s);
}

Test(save, a_damaged_or_foreign_save_is_refused_and_changes_nothing)
{
    corral_sched *a = sv_sched();
    sv_game g;
    sv_build(a, &g);
    size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0);
    corral_sched *b = sv_sched();
    sv_walk_start(b, (sv_walk_ctx){0, 3, 0.1f});
    corral_tick(b, 0.1f);
    uint64_t h = corral_state_hash(b);
    for (size_t i = 0; i < n; i += 7) { /* every 7th byte flipped in turn: the checksum or a check refuses */
        g_save[i] ^= 0x5A;
        cr_assert_not(corral_load(b, g_save, n), "byte %zu flipped was accepted", i);
        cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
        g_save[i] ^= 0x5A;
    }
    cr_assert_not(corral_load(b, g_save, n - 1));
    cr_assert_not(corral_load(b, g_save, 10));
    cr_assert_eq(corral_state_hash(b), h, "refused loads left it as it was");
    cr_assert(corral_verify(b));
    cr_assert(corral_load(b, g_save, n));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* ---- a save's last section (docs/SAVE.md, "Where the next starts go") */
static uint32_t sv_le(const unsigned char *p, int bytes)
{
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
/* where a slot section read from `at` ends, or 0: past n */
static size_t sv_slots_end(const unsigned char *p, size_t n, size_t at)
{
#define SV_TAKE(k)                          \
    do {                                    \
        if ((uint64_t)(k) > n - at) return 0; \
        at += (size_t)(k);                  \
    } while (0)
    SV_TAKE(4);
    const uint32_t classes = sv_le(p + at - 4, 4);
    for (uint32_t ci = 0; ci < classes; ci++) {
        SV_TAKE(4);
        const uint32_t pages = sv_le(p + at - 4, 4);
        for (uint32_t pi = 0; pi < pages; pi++) {
            SV_TAKE(4);
            SV_TAKE(6u * sv_le(p + at - 2, 2));
        }
        for (int list = 0; list < 2; list++) {
            SV_TAKE(4);
            SV_TAKE(4u * (uint64_t)sv_le(p + at - 4, 4));
        }
    }
    SV_TAKE(4);
    SV_TAKE(8u * (uint64_t)sv_le(p + at - 4, 4));
    return at;
#undef SV_TAKE
}
/* where the slot section of a save of n bytes from a scheduler of `classes`
   classes and `types` registered types begins (it is the last) */
static size_t sv_slots_at(const unsigned char *p, size_t n, uint32_t classes, uint32_t types)
{
    for (size_t at = n - 8; at > 24; at--)
        if (sv_le(p + at, 4) == classes && sv_le(p + n - 4 - 8u * types, 4) == types && sv_slots_end(p, n, at) == n)
            return at;
    return 0;
}

/* A save of this build's version carries every section it promises: cut
   exactly where its last one (where the next starts go) begins, size and
   checksum made again, it is refused and nothing changes. A save of an
   older version may end there (the bytes the same: the game has nothing
   the later versions added) and loads. */
Test(save, a_save_cut_where_its_last_section_begins_is_refused_unless_of_an_older_version)
{
    corral_sched *a = sv_sched();
    for (int i = 0; i < 3; i++) sv_walk_start(a, (sv_walk_ctx){0, i + 1, 0.05f});
    for (int f = 0; f < 5; f++) corral_tick(a, 1.0f / 60.0f);
    const size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    const uint32_t version = sv_le(g_save + 4, 4);
    cr_assert_geq(version, 4, "an older version with the section: 3 and on");
    const size_t at = sv_slots_at(g_save, n, 1, sv_registry.count);
    cr_assert_gt(at, 0, "the slot section ends the save");

    corral_sched *b = sv_sched();
    sv_walk_start(b, (sv_walk_ctx){0, 7, 0.1f});
    corral_tick(b, 0.1f);
    const uint64_t h = corral_state_hash(b);
    static unsigned char cut[sizeof g_save];
    memcpy(cut, g_save, at);
    hostile_reseal_save(cut, at);
    cr_assert_not(corral_load(b, cut, at), "a version %u save without its slot section was taken", version);
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
    const char *why = corral_last_error_detail(b);
    cr_assert(strstr(why, "where the next starts go"), "the detail names the section: %s", why);
    cr_assert_eq(corral_state_hash(b), h, "the refused load left it as it was");
    cr_assert(corral_verify(b));

    for (int i = 0; i < 4; i++) cut[4 + i] = (unsigned char)((version - 1) >> (8 * i)); /* an older version */
    hostile_reseal_save(cut, at);
    cr_assert(corral_load(b, cut, at), "version %u without the section: %s", version - 1, corral_last_error_detail(b));
    cr_assert_eq(corral_live_count(b), 3);
    cr_assert(corral_verify(b));
    cr_assert(corral_load(b, g_save, n), "the whole save: %s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(save, adopt_refuses_a_block_another_process_or_build_made)
{
    corral_sched_desc d = one_class_desc(64, 16);
    size_t size = corral_sched_memory_size(&d);
    size = (size + 63) & ~(size_t)63;
    unsigned char *a = aligned_alloc(64, size), *b = aligned_alloc(64, size);
    cr_assert(a && b);
    d.memory = a;
    d.memory_size = size;
    corral_sched *s = corral_sched_create(&d);
    cr_assert(s);
    sv_walk_start(s, (sv_walk_ctx){0, 1, 0.1f});
    memcpy(b, a, size);
    corral_sched *c = corral_sched_adopt(b, size);
    cr_assert(c, "this process's block is adopted");
    /* another image: the origin a block carries is that image's address */
    memcpy(b, a, size);
    corral_sched *t = (corral_sched *)(void *)(b + ((unsigned char *)s - a));
    t->origin ^= 0x1000;
    cr_assert_null(corral_sched_adopt(b, size));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_FOREIGN_BLOCK);
    corral_sched_destroy(s);
    free(a);
    free(b);
}

/* ---- the next build: sv_walk with a field added (hp), one widened (step
   int32 -> int64, nap float -> double), a point inserted above the others */
#define SV_WALK2_FIELDS(F) F(int32_t, hp) F(int32_t, x) F(int64_t, step) F(double, nap)
#define SV_WALK2_POINTS(P) P(started) P(moved) P(napped)
DECLARE_COROUTINE(sv_walk2, SV_WALK2_FIELDS)
DEFINE_COROUTINE_AT(sv_walk2, SV_WALK2_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_WALK2_POINTS);
    CORRAL_WAIT_FRAME_AT(co, started); /* new: only coroutines started by this build pass here */
    for (;;) {
        ctx->x += (int32_t)ctx->step;
        CORRAL_WAIT_FRAME_AT(co, moved);
        if (ctx->x % 4 == 0) CORRAL_AWAIT_AT(co, napped, corral_wait_seconds((float)ctx->nap));
    }
    CORRAL_END(co);
}

/* A next build keeps its types' names (a save matches a type by id and
   name). In one test binary its types need other C names, so each is
   registered as a copy under the name the save knows: sv_walk. */
static corral_type g_walk2, g_walk3, g_walk4;
static const corral_type *const g_next2[] = {&g_walk2}, *const g_next3[] = {&g_walk3}, *const g_next4[] = {&g_walk4};
static const uint32_t g_next_ids[] = {1}, g_next_budgets[] = {0};
static corral_registry next_build(corral_type *copy, const corral_type *vt, const corral_type *const *types)
{
    *copy = *vt;
    copy->name = "sv_walk";
    return (corral_registry){"next", types, g_next_ids, g_next_budgets, 1};
}
static sv_walk2_ctx *walk2_of(corral_sched *s, corral_handle h)
{
    return (sv_walk2_ctx *)corral_context(s, h, &g_walk2);
}

static int g_upgrades;
static void sv_upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx, void *user)
{
    (void)old_ctx;
    (void)user;
    bool had_hp = false;
    for (uint32_t i = 0; i < old->field_count; i++) had_hp = had_hp || !strcmp(old->fields[i].name, "hp");
    if (type == &g_walk2 && !had_hp) ((sv_walk2_ctx *)ctx)->hp = 100;
    g_upgrades++;
}

Test(save, the_next_build_loads_an_older_save_by_field_and_point_names)
{
    corral_sched *a = sv_sched();
    corral_handle h[4];
    for (int i = 0; i < 4; i++) h[i] = sv_walk_start(a, (sv_walk_ctx){0, i + 1, 0.05f});
    for (int f = 0; f < 5; f++) corral_tick(a, 1.0f / 60.0f);
    size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0, "%s", corral_error_str(corral_last_error(a)));

    corral_sched_desc d = one_class_desc(64, 128);
    corral_registry next = next_build(&g_walk2, &sv_walk2_type, g_next2);
    d.registry = &next;
    d.upgrade.fn = sv_upgrade;
    corral_sched *b = sched_of(d);
    g_upgrades = 0;
    cr_assert(corral_load(b, g_save, n), "%s", corral_error_str(corral_last_error(b)));
    cr_assert(corral_verify(b));
    cr_assert_eq(g_upgrades, 4, "the hook ran for each coroutine whose type changed");
    for (int i = 0; i < 4; i++) {
        sv_walk_ctx *o = sv_walk_ctx_of(a, h[i]);
        sv_walk2_ctx *w = walk2_of(b, h[i]);
        cr_assert(o && w, "the same handle names the loaded coroutine");
        cr_assert_eq(w->x, o->x);
        cr_assert_eq(w->step, (int64_t)o->step, "widened");
        cr_assert_eq(w->nap, (double)o->nap, "float to double");
        cr_assert_eq(w->hp, 100, "the new field, filled by the hook");
    }
    /* each resumes at its point by name: the new `started` wait is skipped */
    for (int f = 0; f < 30; f++) {
        corral_tick(a, 1.0f / 60.0f);
        corral_tick(b, 1.0f / 60.0f);
        for (int i = 0; i < 4; i++)
            cr_assert_eq(walk2_of(b, h[i])->x, sv_walk_ctx_of(a, h[i])->x, "frame %d, walker %d", f, i);
    }
    corral_sched_destroy(b);

    /* a build without a point the save waits at refuses, naming it */
    corral_sched_desc d3 = one_class_desc(64, 128);
    d3.registry = &sv_registry; /* sv_walk again: fine */
    corral_sched *c = sched_of(d3);
    cr_assert(corral_load(c, g_save, n));
    corral_sched_destroy(c);
    corral_sched_destroy(a);
}

/* builds that cannot take the save: a point gone, a field narrowed */
#define SV_WALK3_FIELDS(F) F(int32_t, x) F(int32_t, step) F(float, nap)
#define SV_WALK3_POINTS(P) P(moved)
DECLARE_COROUTINE(sv_walk3, SV_WALK3_FIELDS)
DEFINE_COROUTINE_AT(sv_walk3, SV_WALK3_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_WALK3_POINTS);
    CORRAL_WAIT_FRAME_AT(co, moved);
    CORRAL_END(co);
}
#define SV_WALK4_FIELDS(F) F(int16_t, x) F(int32_t, step) F(float, nap)
DECLARE_COROUTINE(sv_walk4, SV_WALK4_FIELDS)
DEFINE_COROUTINE_AT(sv_walk4, SV_WALK_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_WALK_POINTS);
    CORRAL_WAIT_FRAME_AT(co, moved);
    CORRAL_AWAIT_AT(co, napped, corral_wait_seconds(ctx->nap));
    CORRAL_END(co);
}

Test(save, a_build_without_a_saved_point_or_with_a_narrowed_field_refuses_naming_it)
{
    corral_sched *a = sv_sched();
    sv_walk_start(a, (sv_walk_ctx){0, 4, 1.0f}); /* x = 4: naps at `napped` */
    corral_tick(a, 1.0f / 60.0f);
    size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0);
    const corral_registry regs[2] = {next_build(&g_walk3, &sv_walk3_type, g_next3),
                                     next_build(&g_walk4, &sv_walk4_type, g_next4)};
    const char *want[2] = {"napped", "field x"};
    for (int k = 0; k < 2; k++) {
        log_capture cap = {0};
        corral_sched_desc d = one_class_desc(64, 128);
        d.registry = &regs[k];
        d.logger.fn = capture_log;
        d.logger.user_data = &cap;
        corral_sched *b = sched_of(d);
        cr_assert_not(corral_load(b, g_save, n));
        cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
        cr_assert(strstr(cap.message, want[k]) != NULL, "the message names it: %s", cap.message);
        cr_assert_eq(corral_live_count(b), 0);
        corral_sched_destroy(b);
    }
    corral_sched_destroy(a);
}

/* CORRAL_BEGIN_AT given another list than DEFINE_COROUTINE_AT: in debug
   builds the first step ends it before its body runs, in words naming the
   type and the first point that differs */
#define SV_LIST_A(P) P(first) P(second)
#define SV_LIST_B(P) P(second) P(first)
#define SV_BAD_FIELDS(F) F(int32_t, n)
DECLARE_COROUTINE(sv_bad, SV_BAD_FIELDS)
static int g_sv_bad_ends[CORRAL_END_COUNT], g_sv_bad_ran;
static void sv_bad_end(sv_bad_ctx *ctx, corral_end_reason why)
{
    g_sv_bad_ran = ctx->n;
    g_sv_bad_ends[why]++;
}
DEFINE_COROUTINE_CLEANUP_AT(sv_bad, sv_bad_end, SV_LIST_A)
{
    CORRAL_BEGIN_AT(co, SV_LIST_B);
    ctx->n++; /* the body ran */
    CORRAL_WAIT_FRAME_AT(co, first);
    CORRAL_WAIT_FRAME_AT(co, second);
    CORRAL_END(co);
}

Test(save, a_begin_with_another_list_of_points_ends_the_coroutine_naming_its_type_in_debug_builds)
{
    memset(g_sv_bad_ends, 0, sizeof g_sv_bad_ends);
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 16);
    d.validation = CORRAL_VALIDATION_REPORT;
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    corral_sched *s = corral_sched_create(&d);
    corral_handle h = sv_bad_start(s, (sv_bad_ctx){0});
#ifndef NDEBUG
    cr_assert_eq(cap.last, CORRAL_ERR_BAD_POINT);
    const char *msg = corral_last_error_detail(s); /* the logger's words, uncut */
    cr_assert(strstr(msg, "CORRAL_BEGIN_AT in a step of 'sv_bad'") != NULL, "%s", msg);
    cr_assert(strstr(msg,
                     ": the body's resume points are wrong: it ends (the detail says how): type sv_bad: the body's "
                     "CORRAL_BEGIN_AT list differs from its DEFINE_COROUTINE_AT list at point 1 ('second', the "
                     "type's 'first')") != NULL,
              "%s", msg);
    cr_assert(strstr(msg, "vtable") == NULL, "the user wrote macros, not a vtable: %s", msg);
    cr_assert_not(corral_alive(s, h), "it cannot run as written: it ended");
    cr_assert_eq(g_sv_bad_ends[CORRAL_END_BAD_POINT], 1, "ended with CORRAL_END_BAD_POINT");
    cr_assert_eq(g_sv_bad_ran, 0, "before its body ran");
    corral_tick(s, 0.1f);
    cr_assert_eq(cap.count, 1, "reported once");
#else
    cr_assert_eq(cap.count, 0, "release builds do not check the list");
    cr_assert(corral_alive(s, h));
#endif
    corral_sched_destroy(s);
}

/* a shorter list than the type's: the point the body's list lacks is '' */
#define SV_LIST_C(P) P(first)
DECLARE_COROUTINE(sv_short, SV_BAD_FIELDS)
DEFINE_COROUTINE_AT(sv_short, SV_LIST_A)
{
    CORRAL_BEGIN_AT(co, SV_LIST_C);
    CORRAL_WAIT_FRAME_AT(co, first);
    CORRAL_WAIT_FRAME_AT(co, second);
    CORRAL_END(co);
}

Test(save, a_begin_with_a_shorter_list_of_points_names_the_point_it_lacks)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.validation = CORRAL_VALIDATION_REPORT;
    corral_sched *s = corral_sched_create(&d);
    corral_handle h = sv_short_start(s, (sv_short_ctx){0});
#ifndef NDEBUG
    cr_assert_not(corral_alive(s, h));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_POINT);
    const char *msg = corral_last_error_detail(s);
    cr_assert(strstr(msg, "at point 2 ('', the type's 'second')") != NULL, "%s", msg);
#else
    cr_assert(corral_alive(s, h));
#endif
    corral_sched_destroy(s);
}

/* ---- a predicate's argument: never an address read from a save */
static size_t sv_find(const unsigned char *p, size_t n, const unsigned char *pat, size_t k)
{
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(p + i, pat, k)) return i;
    return (size_t)-1;
}

Test(save, a_predicate_on_a_context_field_is_saved_as_its_place_and_reads_the_loaded_context)
{
    corral_sched *a = sv_sched();
    corral_handle own = sv_watch_start(a, (sv_watch_ctx){0});
    corral_handle by = sv_watch_start(a, (sv_watch_ctx){.other = own});
    corral_tick(a, 1.0f / 60.0f);
    const size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    corral_sched *b = sv_sched();
    cr_assert(corral_load(b, g_save, n), "%s", corral_last_error_detail(b));
    cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
    corral_sched_destroy(a); /* the saving scheduler's block is gone */
    corral_tick(b, 1.0f / 60.0f);
    cr_assert(corral_alive(b, own) && corral_alive(b, by), "both still wait: the loaded field is 0");
    sv_watch_ctx_of(b, own)->up = 1; /* the loaded context's field: both read it */
    corral_tick(b, 1.0f / 60.0f);
    cr_assert_not(corral_alive(b, own), "the watcher read its own loaded field");
    cr_assert_not(corral_alive(b, by), "the other read the loaded field of the coroutine it watches");
    corral_sched_destroy(b);
}

#define SV_NUMBERED_FIELDS(F) F(int32_t, n)
#define SV_NUMBERED_POINTS(P) P(waited)
DECLARE_COROUTINE(sv_numbered, SV_NUMBERED_FIELDS)
DEFINE_COROUTINE_AT(sv_numbered, SV_NUMBERED_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_NUMBERED_POINTS);
    CORRAL_AWAIT_AT(co, waited, corral_wait_until(sv_flag_set, (void *)(uintptr_t)ctx->n));
    CORRAL_END(co);
}
static int32_t g_down; /* a game's global a predicate reads */
#define SV_GLOBAL_FIELDS(F) F(int32_t, n)
#define SV_GLOBAL_POINTS(P) P(waited)
DECLARE_COROUTINE(sv_global, SV_GLOBAL_FIELDS)
DEFINE_COROUTINE_AT(sv_global, SV_GLOBAL_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_GLOBAL_POINTS);
    CORRAL_AWAIT_AT(co, waited, corral_wait_until(sv_field_up, &g_down)); /* a global, not a context */
    CORRAL_END(co);
}
#define SV_NUMBERED_TYPES(X) X(sv_numbered, 7, 0) X(sv_global, 8, 0)
CORRAL_DECLARE_REGISTRY(sv_num, SV_NUMBERED_TYPES)
CORRAL_DEFINE_REGISTRY(sv_num, SV_NUMBERED_TYPES);

static corral_sched *sv_num_sched(void)
{
    corral_sched_desc d = one_class_desc(64, 16);
    d.registry = &sv_num_registry;
    d.predicates = &sv_predicates;
    return sched_of(d);
}

Test(save, a_crafted_save_that_hands_a_field_predicate_a_number_is_refused_naming_it)
{
    corral_sched *a = sv_num_sched();
    sv_numbered_start(a, (sv_numbered_ctx){.n = 5}); /* waits for 7: a number-taking predicate holding 5 */
    const size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    corral_sched_destroy(a);
    /* the attack: the record {id 1, a number, 5} made {id 3 (sv_field_up,
       which reads through its argument), a number, &g_victim}, resealed */
    const unsigned char rec[13] = {1, 0, 0, 0, 2, 5, 0, 0, 0, 0, 0, 0, 0};
    const size_t at = sv_find(g_save, n, rec, sizeof rec);
    cr_assert_neq(at, (size_t)-1, "the save holds the predicate's id, the kind `number` and its value");
    g_save[at] = 3;
    const uint64_t addr = (uint64_t)(uintptr_t)&g_victim;
    for (unsigned k = 0; k < 8; k++) g_save[at + 5 + k] = (unsigned char)(addr >> (8 * k));
    cr_assert(hostile_reseal_save(g_save, n));
    corral_sched *b = sv_num_sched();
    const uint64_t before = corral_state_hash(b);
    cr_assert_not(corral_load(b, g_save, n), "a field-taking predicate is handed an address from the file");
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
    cr_assert(strstr(corral_last_error_detail(b), "sv_field_up") != NULL, "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), before, "nothing changed");
    corral_tick(b, 1.0f / 60.0f);
    cr_assert_eq(g_victim_reads, 0, "no predicate was handed the address");
    corral_sched_destroy(b);
}

Test(save, a_registered_predicate_given_an_address_outside_every_context_is_refused_where_it_waits)
{
    corral_sched *a = sv_num_sched();
    corral_handle h = sv_global_start(a, (sv_global_ctx){0}); /* waits on &g_down: a global */
    cr_assert_eq(corral_last_error(a), CORRAL_ERR_BAD_WAIT);
    const char *why = corral_last_error_detail(a);
    cr_assert(strstr(why, "sv_global") && strstr(why, "another address"), "%s", why);
    cr_assert_not(corral_alive(a, h), "its wait went on at once, as a malformed wait does");
    corral_sched_destroy(a);
}

Test(save, a_predicate_on_the_field_of_a_coroutine_that_ended_is_not_saved_and_the_detail_says_why)
{
    corral_sched *a = sv_sched();
    corral_handle own = sv_watch_start(a, (sv_watch_ctx){0});
    corral_handle by = sv_watch_start(a, (sv_watch_ctx){.other = own});
    cr_assert(corral_stop(a, own)); /* by's argument now lies in a free slot */
    cr_assert(corral_alive(a, by));
    memset(g_save, 0xAB, 64);
    cr_assert_eq(corral_save(a, g_save, sizeof g_save), 0);
    cr_assert_eq(corral_last_error(a), CORRAL_ERR_UNSAVABLE);
    const char *why = corral_last_error_detail(a);
    cr_assert(strstr(why, "sv_watch") && strstr(why, "outside every coroutine's context"), "%s", why);
    cr_assert_eq(g_save[0], 0xAB, "nothing written");
    corral_sched_destroy(a);
}

/* A save of format 5, written by corral before format 6 (tests/expected/
   predicate-address-v5.sav: one sv_watch waiting on its own field, whose
   argument format 5 kept as the saving process's address) */
Test(save, an_old_save_whose_predicate_holds_an_address_is_refused_by_name)
{
    FILE *f = fopen(CORRAL_SOURCE_DIR "/tests/expected/predicate-address-v5.sav", "rb");
    cr_assert_not_null(f);
    const size_t n = fread(g_save, 1, sizeof g_save, f);
    fclose(f);
    cr_assert_gt(n, 24);
    cr_assert_eq(g_save[4], 5, "a save of format 5");
    corral_sched *b = sv_sched();
    const uint64_t before = corral_state_hash(b);
    cr_assert_not(corral_load(b, g_save, n));
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE);
    const char *why = corral_last_error_detail(b);
    cr_assert(strstr(why, "sv_field_up") && strstr(why, "address"), "%s", why);
    cr_assert_eq(corral_state_hash(b), before);
    corral_sched_destroy(b);
}

/* ---- time's bounds (API.md, "Clocks and their bounds"): whatever the
   game waits or however fast its clocks run, a save loads and a snapshot
   restores, and the game runs on from it */
#define SV_NAP_FIELDS(F) F(uint32_t, kind) F(uint32_t, frames) F(float, secs) F(double, at) F(int32_t, woke)
#define SV_NAP_POINTS(P) P(napped)
enum { SV_SECONDS, SV_REALTIME, SV_AT, SV_FRAMES };
DECLARE_COROUTINE(sv_nap, SV_NAP_FIELDS)
static corral_wait sv_nap_wait(const sv_nap_ctx *c)
{
    return c->kind == SV_SECONDS    ? corral_wait_seconds(c->secs)
           : c->kind == SV_REALTIME ? corral_wait_realtime(c->secs)
           : c->kind == SV_AT       ? corral_wait_at(c->at)
                                    : corral_wait_frames(c->frames);
}
DEFINE_COROUTINE_AT(sv_nap, SV_NAP_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_NAP_POINTS);
    for (;;) {
        CORRAL_AWAIT_AT(co, napped, sv_nap_wait(ctx));
        ctx->woke++;
    }
    CORRAL_END(co);
}
#define BD_TYPES(X) X(sv_nap, 1, 0)
CORRAL_DECLARE_REGISTRY(bd, BD_TYPES)
CORRAL_DEFINE_REGISTRY(bd, BD_TYPES);

static corral_sched *bd_sched_logged(log_capture *cap)
{
    corral_sched_desc d = one_class_desc(64, 64);
    d.registry = &bd_registry;
    d.domains = 3;
    if (cap) {
        d.logger.fn = capture_log;
        d.logger.user_data = cap;
    }
    return sched_of(d);
}
static corral_sched *bd_sched(void) { return bd_sched_logged(NULL); }
static corral_handle bd_nap(corral_sched *s, uint32_t domain, sv_nap_ctx c)
{
    corral_handle h = corral_start_ex(s, &sv_nap_type, &c, sizeof c, &(corral_start_desc){.domain = domain});
    cr_assert_neq(h.gen, 0, "%s", corral_last_error_detail(s));
    return h;
}

static unsigned char g_snap[1 << 18];

/* a saved into a new scheduler, and a snapshot of a restored into another:
   both take it, as it was; the loaded one is returned */
static corral_sched *bd_round_trip(corral_sched *a, const char *what)
{
    const size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0, "%s: the save: %s", what, corral_last_error_detail(a));
    corral_sched *b = bd_sched();
    cr_assert(corral_load(b, g_save, n), "%s: the load: %s", what, corral_last_error_detail(b));
    cr_assert(corral_verify(b), "%s: %s", what, corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "%s: the loaded state is the saved one", what);
    const size_t k = corral_snapshot(a, g_snap, sizeof g_snap);
    cr_assert_gt(k, 0, "%s: the snapshot: %s", what, corral_last_error_detail(a));
    corral_sched *c = bd_sched();
    cr_assert(corral_restore(c, g_snap, k), "%s: the restore: %s", what, corral_last_error_detail(c));
    cr_assert_eq(corral_state_hash(c), corral_state_hash(a), "%s: the restored state is the snapshot's", what);
    corral_sched_destroy(c);
    return b;
}
/* the saving game and the loaded one, frame by frame the same */
static void bd_run_on(corral_sched *a, corral_sched *b, int frames, float dt)
{
    for (int f = 0; f < frames; f++) {
        corral_tick(a, dt);
        corral_tick(b, dt);
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d after the load differs", f);
    }
    cr_assert(corral_verify(a) && corral_verify(b));
}
static int32_t bd_woke(corral_sched *s, corral_handle h)
{
    const sv_nap_ctx *c = sv_nap_ctx_of(s, h);
    cr_assert_not_null(c, "the nap is alive");
    return c->woke;
}

Test(save, a_wait_or_stop_deadline_past_every_clock_never_ends_and_its_save_loads)
{
    /* each alone: saved and loaded */
    static const struct {
        const char *what;
        uint32_t domain;
        sv_nap_ctx nap;
        float deadline;
        bool held;
    } one[] = {
        {"seconds(INFINITY)", 0, {.kind = SV_SECONDS, .secs = INFINITY}, 0.0f, false},
        {"seconds(1e15)", 0, {.kind = SV_SECONDS, .secs = 1e15f}, 0.0f, false},
        {"seconds(FLT_MAX)", 0, {.kind = SV_SECONDS, .secs = FLT_MAX}, 0.0f, false},
        {"seconds(INFINITY) in a domain", 1, {.kind = SV_SECONDS, .secs = INFINITY}, 0.0f, false},
        {"seconds(1e15), paused", 0, {.kind = SV_SECONDS, .secs = 1e15f}, 0.0f, true},
        {"realtime(INFINITY)", 0, {.kind = SV_REALTIME, .secs = INFINITY}, 0.0f, false},
        {"realtime(1e15)", 0, {.kind = SV_REALTIME, .secs = 1e15f}, 0.0f, false},
        {"at(1e15)", 0, {.kind = SV_AT, .at = 1e15}, 0.0f, false},
        {"at(1e20)", 2, {.kind = SV_AT, .at = 1e20}, 0.0f, false},
        {"at(INFINITY)", 0, {.kind = SV_AT, .at = INFINITY}, 0.0f, false},
        {"at(1e20), paused", 0, {.kind = SV_AT, .at = 1e20}, 0.0f, true},
        {"a stop deadline of 1e20 s", 0, {.kind = SV_FRAMES, .frames = 1}, 1e20f, false},
        {"a stop deadline of INFINITY", 1, {.kind = SV_FRAMES, .frames = 1}, INFINITY, false},
    };
    for (size_t k = 0; k < sizeof one / sizeof one[0]; k++) {
        corral_sched *a = bd_sched();
        corral_handle h = bd_nap(a, one[k].domain, one[k].nap);
        if (one[k].deadline > 0.0f) cr_assert(corral_request_stop(a, h, one[k].deadline));
        corral_tick(a, 1.0f / 60.0f);
        if (one[k].held) cr_assert(corral_pause(a, h));
        const size_t n = corral_save(a, g_save, sizeof g_save);
        cr_assert_gt(n, 0, "%s: the save: %s", one[k].what, corral_last_error_detail(a));
        corral_sched *b = bd_sched();
        cr_assert(corral_load(b, g_save, n), "%s: the load: %s", one[k].what, corral_last_error_detail(b));
        corral_sched_destroy(a);
        corral_sched_destroy(b);
    }

    /* all at once, with waits that end, and the game runs on */
    corral_sched *a = bd_sched();
    const sv_nap_ctx never[] = {
        {.kind = SV_SECONDS, .secs = INFINITY},  {.kind = SV_SECONDS, .secs = 1e15f},
        {.kind = SV_SECONDS, .secs = FLT_MAX},   {.kind = SV_REALTIME, .secs = INFINITY},
        {.kind = SV_REALTIME, .secs = 1e15f},    {.kind = SV_AT, .at = 1e20},
        {.kind = SV_AT, .at = INFINITY},         {.kind = SV_AT, .at = 1e15},
    };
    enum { N = sizeof never / sizeof never[0] };
    corral_handle h[N + 1];
    for (uint32_t i = 0; i < N; i++) h[i] = bd_nap(a, i % 3, never[i]); /* in every domain */
    h[N] = bd_nap(a, 1, (sv_nap_ctx){.kind = SV_SECONDS, .secs = INFINITY});
    const corral_handle tick = bd_nap(a, 0, (sv_nap_ctx){.kind = SV_SECONDS, .secs = 0.5f}); /* wakes twice a second */
    const corral_handle doomed = bd_nap(a, 0, (sv_nap_ctx){.kind = SV_FRAMES, .frames = 1});
    cr_assert(corral_request_stop(a, h[0], 1e20f), "a stop deadline of 1e20 s");
    cr_assert(corral_request_stop(a, h[1], INFINITY), "an infinite one");
    cr_assert(corral_request_stop(a, doomed, 0.25f), "and one that comes");
    corral_tick(a, 1.0f / 60.0f);
    cr_assert(corral_pause(a, h[1]) && corral_pause(a, h[5]), "held: one keeps its time left, an at wait its time");

    corral_sched *b = bd_round_trip(a, "waits past every clock");
    bd_run_on(a, b, 120, 1.0f / 60.0f);
    cr_assert_geq(bd_woke(b, tick), 3, "a wait that ends went on ending");
    cr_assert_not(corral_alive(b, doomed), "the deadline that came stopped it");
    for (uint32_t i = 0; i <= N; i++) cr_assert_eq(bd_woke(b, h[i]), 0, "wait %u never ends", i);

    /* moved to other clocks, resumed, their clocks scaled up: still never */
    corral_sched *both[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        cr_assert(corral_set_domain(both[k], h[5], 1), "held, an at wait keeps its time on the new clock");
        cr_assert(corral_resume(both[k], h[1]) && corral_resume(both[k], h[5]));
        cr_assert(corral_set_domain(both[k], h[0], 2));
        cr_assert(corral_domain_set_scale(both[k], 2, 1e9f));
    }
    bd_run_on(a, b, 30, 1.0f);
    corral_sched_destroy(b);
    b = bd_round_trip(a, "moved and resumed");
    bd_run_on(a, b, 30, 1.0f);
    for (uint32_t i = 0; i <= N; i++) cr_assert_eq(bd_woke(b, h[i]), 0, "wait %u never ends", i);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(save, clocks_stop_at_their_bound_and_a_save_there_loads)
{
    corral_sched *a = bd_sched();
    const corral_handle early = bd_nap(a, 1, (sv_nap_ctx){.kind = SV_SECONDS, .secs = 3600.0f});
    corral_set_time_scale(a, 1e9f);
    cr_assert(corral_domain_set_parent(a, 1, 0) && corral_domain_set_scale(a, 1, 1e9f), "10^18 s a second");
    for (int f = 0; f < 1100; f++) corral_tick(a, 1.0f); /* the game clock reaches 10^12 s after 1000 */
    corral_sched *b = bd_round_trip(a, "scaled clocks at the bound");
    cr_assert(corral_time(a) == 1e12 && corral_domain_time(a, 1) == 1e12, "the clocks stop at 10^12 s: %g, %g",
              corral_time(a), corral_domain_time(a, 1));
    cr_assert(corral_fixed_time(a) <= 1e12 && corral_fixed_steps_due(a) == 0);
    cr_assert_eq(bd_woke(a, early), 1, "a wait due before the bound ended on the way");
    bd_run_on(a, b, 10, 1.0f);
    corral_sched_destroy(b);

    /* the unscaled clock and an unscaled domain, by the largest dt */
    const corral_handle late = bd_nap(a, 2, (sv_nap_ctx){.kind = SV_SECONDS, .secs = 5.0f});
    const corral_handle real = bd_nap(a, 0, (sv_nap_ctx){.kind = SV_REALTIME, .secs = 5.0f});
    const corral_handle frames = bd_nap(a, 0, (sv_nap_ctx){.kind = SV_FRAMES, .frames = 2});
    for (int f = 0; f < 3; f++) corral_tick(a, FLT_MAX);
    corral_sched_destroy(b = bd_round_trip(a, "unscaled clocks at the bound"));
    cr_assert(corral_unscaled_time(a) == 1e12 && corral_domain_time(a, 2) == 1e12, "%g, %g", corral_unscaled_time(a),
              corral_domain_time(a, 2));
    cr_assert_eq(bd_woke(a, late) + bd_woke(a, real), 2, "waits due before the bound ended");
    /* at the bound a clock stands still: a seconds wait started there never ends, frames count on */
    const corral_handle stuck = bd_nap(a, 0, (sv_nap_ctx){.kind = SV_SECONDS, .secs = 5.0f});
    b = bd_round_trip(a, "a wait started at the bound");
    bd_run_on(a, b, 60, 1.0f);
    cr_assert_eq(bd_woke(b, stuck), 0);
    cr_assert_eq(bd_woke(b, frames), bd_woke(a, frames));
    cr_assert_geq(bd_woke(b, frames), 30, "frames count on");
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(save, a_fixed_clock_the_engine_runs_ahead_of_or_behind_the_game_clock_saves_and_loads)
{
    corral_sched *a = bd_sched();
    bd_nap(a, 0, (sv_nap_ctx){.kind = SV_SECONDS, .secs = 0.5f});
    bd_nap(a, 0, (sv_nap_ctx){.kind = SV_FRAMES, .frames = 1});
    corral_set_time_scale(a, 0.0f); /* the game paused, the engine's physics stepping on */
    for (int f = 0; f < 100; f++) {
        corral_frame_begin(a, 1.0f / 60.0f);
        for (int k = 0; k < 3; k++) corral_run_phase(a, CORRAL_PHASE_FIXED_UPDATE);
        corral_run_phase(a, CORRAL_PHASE_UPDATE);
    }
    cr_assert_gt(corral_fixed_time(a) - corral_time(a), 5.0);
    corral_sched *b = bd_round_trip(a, "a fixed clock ahead");
    corral_sched_destroy(b);
    corral_set_time_scale(a, 1.0f);
    for (int f = 0; f < 20; f++) { /* frames the engine runs without fixed steps */
        corral_frame_begin(a, 1e5f);
        corral_run_phase(a, CORRAL_PHASE_UPDATE);
    }
    cr_assert_gt(corral_time(a) - corral_fixed_time(a), 1e6);
    b = bd_round_trip(a, "a fixed clock behind");
    bd_run_on(a, b, 10, 1.0f / 60.0f);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* a save never holds what a load refuses: a frames wait due past 10^13
   (a frame count no game reaches, brought here by a load) is named */
Test(save, a_frames_wait_past_what_a_save_holds_is_named_and_nothing_is_written)
{
    corral_sched *a = bd_sched();
    const corral_handle h = bd_nap(a, 0, (sv_nap_ctx){.kind = SV_FRAMES, .frames = 1000});
    corral_tick(a, 1.0f / 60.0f);
    size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0);
    const uint64_t frame = 10000000000000ull - 500u; /* 10^13 - 500 */
    for (unsigned i = 0; i < 8; i++) g_save[24 + i] = (unsigned char)(frame >> (8 * i)); /* the frame count */
    uint64_t sum = 0xCBF29CE484222325ull;
    for (size_t i = 24; i < n; i++) sum = (sum ^ g_save[i]) * 0x100000001B3ull;
    for (unsigned i = 0; i < 8; i++) g_save[16 + i] = (unsigned char)(sum >> (8 * i));
    log_capture cap = {0};
    corral_sched *b = bd_sched_logged(&cap);
    cr_assert(corral_load(b, g_save, n), "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_frame(b), frame);
    for (int f = 0; f < 5; f++) corral_tick(b, 1.0f / 60.0f); /* its old wait ends; its next is due past 10^13 */
    cr_assert_eq(bd_woke(b, h), 1);
    memset(g_save, 0xAB, 64);
    cr_assert_eq(corral_save(b, g_save, sizeof g_save), 0, "the save refuses");
    cr_assert_eq(corral_last_error(b), CORRAL_ERR_UNSAVABLE);
    cr_assert(strstr(cap.message, "sv_nap") && strstr(cap.message, "time wait"), "it names it: %s", cap.message);
    cr_assert_eq(g_save[0], 0xAB, "nothing written");
    for (int f = 0; f < 5; f++) corral_tick(b, 1.0f / 60.0f); /* and the game runs on */
    cr_assert(corral_verify(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* ---- a predicate's argument in a context moves with the block: a copy
   adopted elsewhere, a snapshot restored into another scheduler */
static corral_sched_desc sv_desc_in(void *memory, size_t size)
{
    corral_sched_desc d = one_class_desc(64, 128);
    d.registry = &sv_registry;
    d.predicates = &sv_predicates;
    d.memory = memory;
    d.memory_size = size;
    return d;
}

Test(save, a_copied_block_adopted_elsewhere_takes_its_predicates_arguments_with_it)
{
    const corral_sched_desc sized = sv_desc_in(NULL, 0);
    const size_t need = (corral_sched_memory_size(&sized) + 63) & ~(size_t)63;
    unsigned char *m1 = aligned_alloc(64, need), *m2 = aligned_alloc(64, need);
    cr_assert(m1 && m2);
    corral_sched *a = sched_of(sv_desc_in(m1, need));
    corral_handle own = sv_watch_start(a, (sv_watch_ctx){0});
    corral_handle by = sv_watch_start(a, (sv_watch_ctx){.other = own});
    corral_tick(a, 1.0f / 60.0f);
    memcpy(m2, m1, need);
    corral_sched_destroy(a);
    memset(m1, 0xFF, need); /* the first block is gone: a predicate reading it would see -1 */
    free(m1);
    corral_sched *b = corral_sched_adopt(m2, need);
    cr_assert_not_null(b);
    corral_tick(b, 1.0f / 60.0f);
    cr_assert(corral_alive(b, own) && corral_alive(b, by), "both wait: the copy's field is 0");
    sv_watch_ctx_of(b, own)->up = 1;
    corral_tick(b, 1.0f / 60.0f);
    cr_assert_not(corral_alive(b, own), "the watcher read its own field in the copy");
    cr_assert_not(corral_alive(b, by), "the other read the field of the copy's coroutine");
    corral_sched_destroy(b);
    free(m2);
}

Test(save, a_snapshot_restored_into_another_scheduler_takes_its_predicates_arguments_with_it)
{
    corral_sched *a = sv_sched();
    corral_handle own = sv_watch_start(a, (sv_watch_ctx){0});
    corral_handle by = sv_watch_start(a, (sv_watch_ctx){.other = own});
    corral_tick(a, 1.0f / 60.0f);
    const size_t n = corral_snapshot(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(a));
    corral_sched *b = sv_sched();
    cr_assert(corral_restore(b, g_save, n), "%s", corral_last_error_detail(b));
    corral_sched_destroy(a);
    corral_tick(b, 1.0f / 60.0f);
    cr_assert(corral_alive(b, own) && corral_alive(b, by));
    sv_watch_ctx_of(b, own)->up = 1;
    corral_tick(b, 1.0f / 60.0f);
    cr_assert_not(corral_alive(b, own) || corral_alive(b, by), "both read the restored field");
    corral_sched_destroy(b);
}

Test(save, a_crafted_snapshot_that_hands_a_field_predicate_an_address_outside_the_block_is_refused)
{
    corral_sched *a = sv_sched();
    corral_handle own = sv_watch_start(a, (sv_watch_ctx){0});
    const int32_t *up = &sv_watch_ctx_of(a, own)->up;
    const size_t n = corral_snapshot(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0);
    const uintptr_t was = (uintptr_t)up, now = (uintptr_t)&g_victim;
    unsigned char pat[sizeof was], rep[sizeof now];
    memcpy(pat, &was, sizeof was);
    memcpy(rep, &now, sizeof now);
    const size_t at = sv_find(g_save, n, pat, sizeof pat);
    cr_assert_neq(at, (size_t)-1, "the snapshot holds the argument as its address in this block");
    memcpy(g_save + at, rep, sizeof rep);
    cr_assert(hostile_reseal_snapshot(g_save, n));
    const uint64_t before = corral_state_hash(a);
    cr_assert_not(corral_restore(a, g_save, n), "an address outside the block, from the snapshot");
    cr_assert_eq(corral_last_error(a), CORRAL_ERR_BAD_SNAPSHOT);
    cr_assert(strstr(corral_last_error_detail(a), "predicate"), "%s", corral_last_error_detail(a));
    cr_assert_eq(corral_state_hash(a), before);
    corral_tick(a, 1.0f / 60.0f);
    cr_assert_eq(g_victim_reads, 0, "no predicate was handed the address");
    corral_sched_destroy(a);
}

/* a build whose type outgrew the class its save has it in */
typedef struct sv_pack { char bytes[64]; } sv_pack;
#define SV_WALK5_FIELDS(F) F(int32_t, x) F(int32_t, step) F(float, nap) F(sv_pack, pack)
DECLARE_COROUTINE(sv_walk5, SV_WALK5_FIELDS)
DEFINE_COROUTINE_AT(sv_walk5, SV_WALK_POINTS)
{
    CORRAL_BEGIN_AT(co, SV_WALK_POINTS);
    CORRAL_WAIT_FRAME_AT(co, moved);
    CORRAL_AWAIT_AT(co, napped, corral_wait_seconds(ctx->nap));
    CORRAL_END(co);
}
static corral_type g_walk5;
static const corral_type *const g_next5[] = {&g_walk5};

Test(save, a_type_that_outgrew_its_saved_class_is_refused_naming_the_slots_and_the_desc_field)
{
    corral_sched *a = sv_sched();
    sv_walk_start(a, (sv_walk_ctx){0, 1, 1.0f});
    const size_t n = corral_save(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0);
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0] = (corral_class_desc){64, 128};
    d.classes[1] = (corral_class_desc){128, 8};
    const corral_registry next = next_build(&g_walk5, &sv_walk5_type, g_next5);
    d.registry = &next;
    corral_sched *b = sched_of(d);
    cr_assert_not(corral_load(b, g_save, n));
    const char *why = corral_last_error_detail(b);
    cr_assert(strstr(why, "sv_walk") && strstr(why, "64-byte slots") && strstr(why, "desc.classes"), "%s", why);
    corral_sched_destroy(b);
    corral_sched_destroy(a);
}

Test(save, a_snapshot_of_a_predicate_on_an_ended_coroutines_field_restores)
{
    corral_sched *a = sv_sched();
    corral_handle own = sv_watch_start(a, (sv_watch_ctx){0});
    corral_handle by = sv_watch_start(a, (sv_watch_ctx){.other = own});
    cr_assert(corral_stop(a, own)); /* by's argument stays in own's slot, now free */
    cr_assert(corral_verify(a), "%s", corral_last_error_detail(a));
    const size_t n = corral_snapshot(a, g_save, sizeof g_save);
    cr_assert_gt(n, 0);
    corral_tick(a, 1.0f / 60.0f);
    cr_assert(corral_restore(a, g_save, n), "what the live state is, a restore takes: %s", corral_last_error_detail(a));
    cr_assert(corral_alive(a, by));
    cr_assert_eq(corral_save(a, g_save, sizeof g_save), 0, "a save cannot carry it");
    corral_sched_destroy(a);
}

/* ---- every wait shorthand's _AT form: a coroutine waiting at it is saved
   at its point's name and, loaded, resumes there */
static bool sh_up(void *user) { return *(const uint8_t *)user != 0; }
static bool sh_down(void *user) { return *(const uint8_t *)user == 0; }
#define SH_PREDICATES(X) X(sh_up, 1) X(sh_down, 2)
CORRAL_DEFINE_PREDICATES(sh, SH_PREDICATES);

#define SH_MODES(X)                                                                                             \
    X(next_frame) X(frames) X(seconds) X(realtime) X(at) X(fixed_update) X(late_update) X(end_of_frame) X(phase) \
    X(until) X(while) X(signal) X(future) X(join) X(all) X(any) X(stop) X(send) X(receive) X(acquire)           \
    X(acquire_n) X(wait_group)
#define SH_ENUM(m) SH_##m,
enum { SH_MODES(SH_ENUM) SH_COUNT };
#undef SH_ENUM
#define SH_NAME(m) "at_" #m,
static const char *const sh_point_names[] = {SH_MODES(SH_NAME)};
#undef SH_NAME
#define SH_POINTS(P)                                                                                            \
    P(at_next_frame) P(at_frames) P(at_seconds) P(at_realtime) P(at_at) P(at_fixed_update) P(at_late_update)     \
    P(at_end_of_frame) P(at_phase) P(at_until) P(at_while) P(at_signal) P(at_future) P(at_join) P(at_all)        \
    P(at_any) P(at_stop) P(at_send) P(at_receive) P(at_acquire) P(at_acquire_n) P(at_wait_group) P(past)
#define SH_FIELDS(F)                                                                                     \
    F(uint32_t, mode) F(uint32_t, resumed) F(uint8_t, flag) F(uint8_t, hold) F(int32_t, value) F(corral_handle, other) \
    F(corral_signal, sig) F(corral_future, fut) F(corral_channel, ch) F(corral_semaphore, sem)         \
    F(corral_waitgroup, wg)
DECLARE_COROUTINE(sh_waiter, SH_FIELDS)
DEFINE_COROUTINE_AT(sh_waiter, SH_POINTS)
{
    corral_sched *const s = corral_sched_of(co);
    CORRAL_BEGIN_AT(co, SH_POINTS);
    /* each branch marks itself past its wait: a resume at another point
       marks another */
#define SH_PAST(m) ctx->resumed = SH_##m + 1
    if (ctx->mode == SH_next_frame) { CORRAL_WAIT_NEXT_FRAME_AT(co, at_next_frame); SH_PAST(next_frame); }
    else if (ctx->mode == SH_frames) { CORRAL_WAIT_FRAMES_AT(co, at_frames, 2); SH_PAST(frames); }
    else if (ctx->mode == SH_seconds) { CORRAL_WAIT_SECONDS_AT(co, at_seconds, 0.25f); SH_PAST(seconds); }
    else if (ctx->mode == SH_realtime) { CORRAL_WAIT_REALTIME_AT(co, at_realtime, 0.25f); SH_PAST(realtime); }
    else if (ctx->mode == SH_at) { CORRAL_WAIT_AT_AT(co, at_at, corral_time(s) + 0.25); SH_PAST(at); }
    else if (ctx->mode == SH_fixed_update) { CORRAL_WAIT_FIXED_UPDATE_AT(co, at_fixed_update); SH_PAST(fixed_update); }
    else if (ctx->mode == SH_late_update) { CORRAL_WAIT_LATE_UPDATE_AT(co, at_late_update); SH_PAST(late_update); }
    else if (ctx->mode == SH_end_of_frame) { CORRAL_WAIT_END_OF_FRAME_AT(co, at_end_of_frame); SH_PAST(end_of_frame); }
    else if (ctx->mode == SH_phase) { CORRAL_WAIT_PHASE_AT(co, at_phase, CORRAL_PHASE_CUSTOM(0)); SH_PAST(phase); }
    else if (ctx->mode == SH_until) { CORRAL_WAIT_UNTIL_AT(co, at_until, sh_up, &ctx->flag); SH_PAST(until); }
    else if (ctx->mode == SH_while) { CORRAL_WAIT_WHILE_AT(co, at_while, sh_down, &ctx->flag); SH_PAST(while); }
    else if (ctx->mode == SH_signal) { CORRAL_WAIT_SIGNAL_AT(co, at_signal, ctx->sig); SH_PAST(signal); }
    else if (ctx->mode == SH_future) { CORRAL_WAIT_FUTURE_AT(co, at_future, ctx->fut); SH_PAST(future); }
    else if (ctx->mode == SH_join) { CORRAL_WAIT_JOIN_AT(co, at_join, ctx->other); SH_PAST(join); }
    else if (ctx->mode == SH_all) {
        const corral_wait ws[2] = {corral_wait_signal(ctx->sig), corral_wait_frames(2)};
        CORRAL_WAIT_ALL_AT(co, at_all, ws, 2);
        SH_PAST(all);
    } else if (ctx->mode == SH_any) {
        const corral_wait ws[2] = {corral_wait_signal(ctx->sig), corral_wait_frames(1000)};
        CORRAL_WAIT_ANY_AT(co, at_any, ws, 2);
        SH_PAST(any);
    } else if (ctx->mode == SH_stop) { CORRAL_WAIT_STOP_AT(co, at_stop); SH_PAST(stop); }
    else if (ctx->mode == SH_send) { CORRAL_SEND_AT(co, at_send, ctx->ch, &ctx->value); SH_PAST(send); }
    else if (ctx->mode == SH_receive) { CORRAL_RECEIVE_AT(co, at_receive, ctx->ch, &ctx->value); SH_PAST(receive); }
    else if (ctx->mode == SH_acquire) { CORRAL_ACQUIRE_AT(co, at_acquire, ctx->sem); SH_PAST(acquire); }
    else if (ctx->mode == SH_acquire_n) { CORRAL_ACQUIRE_N_AT(co, at_acquire_n, ctx->sem, 2); SH_PAST(acquire_n); }
    else if (ctx->mode == SH_wait_group) { CORRAL_WAIT_GROUP_AT(co, at_wait_group, ctx->wg); SH_PAST(wait_group); }
#undef SH_PAST
    CORRAL_WAIT_UNTIL_AT(co, past, sh_up, &ctx->hold); /* never raised: alive to be read */
    CORRAL_END(co);
}
#define SH_TYPES(X) X(sh_waiter, 1, 0)
CORRAL_DECLARE_REGISTRY(sh, SH_TYPES)
CORRAL_DEFINE_REGISTRY(sh, SH_TYPES);

static corral_sched *sh_sched(void)
{
    corral_sched_desc d = one_class_desc(128, 8);
    d.registry = &sh_registry;
    d.predicates = &sh_predicates;
    d.custom_phases = 1;
    return sched_of(d);
}

/* what ends mode m's wait in a loaded scheduler (the time waits: ticks) */
static void sh_release(corral_sched *s, uint32_t m, corral_handle h, sh_waiter_ctx *c)
{
    int32_t v = 5;
    if (m == SH_phase) corral_run_phase(s, CORRAL_PHASE_CUSTOM(0));
    if (m == SH_until || m == SH_while) c->flag = 1;
    if (m == SH_signal || m == SH_all || m == SH_any) corral_signal_raise(s, c->sig);
    if (m == SH_future) corral_future_complete(s, c->fut, (corral_value){.i = 1});
    if (m == SH_stop) corral_request_stop(s, h, 10.0f);
    if (m == SH_join) corral_stop(s, c->other);
    if (m == SH_send) cr_assert(corral_channel_try_receive(s, c->ch, &v, sizeof v));
    if (m == SH_receive) cr_assert(corral_channel_try_send(s, c->ch, &v, sizeof v));
    if (m == SH_acquire || m == SH_acquire_n) corral_semaphore_release(s, c->sem, 2);
    if (m == SH_wait_group) corral_waitgroup_done(s, c->wg);
}

Test(save, every_wait_shorthands_at_form_resumes_at_its_named_point_after_a_load)
{
    for (uint32_t m = 0; m < SH_COUNT; m++) {
        corral_sched *a = sh_sched();
        sh_waiter_ctx c = {.mode = m};
        c.sig = corral_signal_create(a);
        c.fut = corral_future_create(a);
        c.ch = corral_channel_create_ex(a, sizeof(int32_t), 1);
        c.sem = corral_semaphore_create(a, 0);
        c.wg = corral_waitgroup_create(a);
        corral_waitgroup_add(a, c.wg, 1);
        int32_t full = 1;
        if (m == SH_send) cr_assert(corral_channel_try_send(a, c.ch, &full, sizeof full), "a full channel: the send waits");
        if (m == SH_join) c.other = sh_waiter_start(a, (sh_waiter_ctx){.mode = SH_frames});
        corral_handle h = sh_waiter_start(a, c);
        cr_assert(corral_alive(a, h), "%s", sh_point_names[m]);
        cr_assert_eq(sh_waiter_ctx_of(a, h)->resumed, 0u, "%s waits", sh_point_names[m]);
        size_t n = corral_save(a, g_save, sizeof g_save);
        cr_assert(n > 0, "%s: %s", sh_point_names[m], corral_last_error_detail(a));
        const char *name = sh_point_names[m];
        cr_assert_neq(sv_find(g_save, n, (const unsigned char *)name, strlen(name)), (size_t)-1,
                      "the save names the point %s", name);
        corral_sched_destroy(a);

        corral_sched *b = sh_sched();
        cr_assert(corral_load(b, g_save, n), "%s: %s", name, corral_last_error_detail(b));
        sh_waiter_ctx *lc = sh_waiter_ctx_of(b, h);
        cr_assert_not_null(lc, "%s", name);
        cr_assert_eq(lc->resumed, 0u, "%s: still waiting once loaded", name);
        sh_release(b, m, h, lc);
        for (int f = 0; f < 8 && lc->resumed == 0; f++) corral_tick(b, 0.1f);
        cr_assert(corral_alive(b, h), "%s", name);
        cr_assert_eq(lc->resumed, m + 1, "%s: resumed past its own wait (marked %u)", name, lc->resumed);
        corral_sched_destroy(b);
    }
}

/* A crafted save whose generators own one another in a loop (tl_a owns
   tl_b, and the edit makes tl_b own tl_a): a loop nothing ends. */
#define TL_B_FIELDS(F) F(int, x)
DECLARE_COROUTINE_R(tl_b, TL_B_FIELDS, int)
#define TL_B_POINTS(P) P(gave)
DEFINE_COROUTINE_AT(tl_b, TL_B_POINTS)
{
    CORRAL_BEGIN_AT(co, TL_B_POINTS);
    for (;;) CORRAL_YIELD_VALUE_AT(co, gave, 2);
    CORRAL_END(co);
}
#define TL_A_FIELDS(F) F(corral_handle, b)
DECLARE_COROUTINE_R(tl_a, TL_A_FIELDS, int)
#define TL_A_POINTS(P) P(gave)
DEFINE_COROUTINE_AT(tl_a, TL_A_POINTS)
{
    CORRAL_BEGIN_AT(co, TL_A_POINTS);
    ctx->b = tl_b_gen(corral_sched_of(co), (tl_b_ctx){0});
    for (;;) CORRAL_YIELD_VALUE_AT(co, gave, 1);
    CORRAL_END(co);
}
#define TL_HOLDER_FIELDS(F) F(corral_handle, a)
DECLARE_COROUTINE(tl_holder, TL_HOLDER_FIELDS)
#define TL_POINTS(P) P(idle)
DEFINE_COROUTINE_AT(tl_holder, TL_POINTS)
{
    CORRAL_BEGIN_AT(co, TL_POINTS);
    ctx->a = tl_a_gen(corral_sched_of(co), (tl_a_ctx){0});
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}
#define TL_OTHER_FIELDS(F) F(int, x)
DECLARE_COROUTINE(tl_other, TL_OTHER_FIELDS)
DEFINE_COROUTINE_AT(tl_other, TL_POINTS)
{
    CORRAL_BEGIN_AT(co, TL_POINTS);
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}
#define TL_TYPES(X) X(tl_a, 1, 0) X(tl_b, 2, 0) X(tl_holder, 3, 0) X(tl_other, 4, 0)
CORRAL_DECLARE_REGISTRY(tl, TL_TYPES)
CORRAL_DEFINE_REGISTRY(tl, TL_TYPES);
static corral_sched *tl_sched(void)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.registry = &tl_registry;
    return sched_of(d);
}

Test(save, a_crafted_save_whose_generators_own_one_another_in_a_loop_is_refused)
{
    corral_sched *s = tl_sched();
    corral_handle holder = tl_holder_start(s, (tl_holder_ctx){0});
    corral_tick(s, 0.016f);
    corral_handle a = tl_holder_ctx_of(s, holder)->a;
    int v;
    cr_assert(tl_a_next(s, a, &v)); /* its step starts b: a owns b */
    corral_handle b = tl_a_ctx_of(s, a)->b;
    corral_handle other = tl_other_start(s, (tl_other_ctx){0});
    static unsigned char s1[1 << 16], s2[1 << 16];
    const size_t n1 = corral_save(s, s1, sizeof s1);
    cr_assert(corral_generator_give(s, a, other));
    const size_t n2 = corral_save(s, s2, sizeof s2);
    cr_assert(n1 && n1 == n2, "%s", corral_last_error_detail(s));
    size_t at = 0; /* a's owner: the holder's index in the first save, the other's in the second */
    for (size_t i = 24; i + 4 <= n1 && !at; i++) {
        uint32_t x1, x2;
        memcpy(&x1, s1 + i, 4);
        memcpy(&x2, s2 + i, 4);
        if (x1 == holder.index && x2 == other.index) at = i;
    }
    cr_assert(at, "a's owner is in the save");
    const uint32_t bi = b.index;
    memcpy(s1 + at, &bi, 4); /* a belongs to b, which belongs to a */
    cr_assert(hostile_reseal_save(s1, n1));
    corral_sched *t = tl_sched();
    cr_assert_not(corral_load(t, s1, n1), "the loop is refused");
    cr_assert(strstr(corral_last_error_detail(t), "generators belong to one another in a loop"), "%s",
              corral_last_error_detail(t));
    cr_assert_eq(corral_live_count(t), 0, "nothing loaded");
    memcpy(s1 + at, &holder.index, 4); /* the save as it was */
    cr_assert(hostile_reseal_save(s1, n1));
    cr_assert(corral_load(t, s1, n1), "%s", corral_last_error_detail(t));
    cr_assert(corral_verify(t));
    corral_sched_destroy(s);
    corral_sched_destroy(t);
}
