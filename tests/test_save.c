/*
    test_save.c -- corral_save / corral_load: a game's state (sleepers,
    a nested call, signal, future, join and predicate waiters, a paused
    group, queued and deferred coroutines) saved and loaded into a new
    scheduler hashes the same and runs on the same; named resume points;
    refusals (unsavable state, damaged saves, a changed build) that change
    nothing; field migration by name.
*/
#include "common.h"
#include "corral_internal.h" /* the origin a block carries */
#include "hostile/games.h"    /* a save's size and checksum made again after a cut */

static unsigned char g_save[1 << 18];

/* ---- the game */
static bool sv_flag_set(void *user) { return (uintptr_t)user == 7; }
static bool sv_never(void *user) { (void)user; return false; }
#define SV_PREDICATES(X) X(sv_flag_set, 1) X(sv_never, 2)
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

#define SV_TYPES(X) X(sv_walk, 1, 0) X(sv_child, 2, 0) X(sv_caller, 3, 0) X(sv_waiter, 4, 0) X(sv_plain, 5, 0)
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

/* CORRAL_BEGIN_AT given another list than DEFINE_COROUTINE_AT: caught in debug builds */
#define SV_LIST_A(P) P(first) P(second)
#define SV_LIST_B(P) P(second) P(first)
#define SV_BAD_FIELDS(F) F(int32_t, n)
DECLARE_COROUTINE(sv_bad, SV_BAD_FIELDS)
DEFINE_COROUTINE_AT(sv_bad, SV_LIST_A)
{
    CORRAL_BEGIN_AT(co, SV_LIST_B);
    CORRAL_WAIT_FRAME_AT(co, first);
    CORRAL_WAIT_FRAME_AT(co, second);
    CORRAL_END(co);
}

Test(save, a_begin_with_another_list_of_points_is_caught_in_debug_builds)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 16);
    d.validation = CORRAL_VALIDATION_REPORT;
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    corral_sched *s = corral_sched_create(&d);
    sv_bad_start(s, (sv_bad_ctx){0});
#ifndef NDEBUG
    cr_assert_eq(cap.last, CORRAL_ERR_BAD_TYPE);
    cr_assert(strstr(cap.message, "DEFINE_COROUTINE_AT") != NULL, "%s", cap.message);
#else
    cr_assert_eq(cap.count, 0, "release builds do not check the list");
#endif
    corral_sched_destroy(s);
}
