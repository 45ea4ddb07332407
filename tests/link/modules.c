/*
    modules -- a small game over the core and every module the one header
    can leave out (CORRAL_NO_<MODULE>, docs/API.md, "Modules"), each used
    when it is in: the same CORRAL_NO_* defines go to this file and to the
    one that compiles single/corral.h's implementation. Its types have
    named points, so a debug build checks each body's list at its first
    step (CORRAL_BEGIN_AT). tools/no_combos.sh builds, links and runs it
    with every set of modules left out that the one header allows, in
    debug and release; tests/CMakeLists.txt with all of them left out.
    Prints nothing and exits 0 when every check holds.
*/
#include <corral/corral.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                               \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "modules: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                           \
        }                                                                         \
    } while (0)

/* ---- a walk of some frames, its result the steps taken */
#define WALK_FIELDS(F) F(int32_t, steps)
#define WALK_POINTS(P) P(walked)
DECLARE_COROUTINE_R(walk, WALK_FIELDS, int32_t)
DEFINE_COROUTINE_AT(walk, WALK_POINTS)
{
    CORRAL_BEGIN_AT(co, WALK_POINTS);
    while (ctx->result < ctx->steps) {
        ctx->result++;
        CORRAL_WAIT_FRAME_AT(co, walked);
    }
    CORRAL_END(co);
}

/* ---- the hero: a call, a race and a sync (RACES), a channel, a
   semaphore and a wait group (CHANNELS), then a signal, again and again */
#define HERO_FIELDS(F)                                                                                  \
    F(int32_t, walked) F(int32_t, raced) F(int32_t, left) F(int32_t, right) F(int32_t, got) \
    F(int32_t, woke) F(corral_signal, go) F(corral_channel, mail) F(corral_semaphore, door) \
    F(corral_waitgroup, crew)
#define HERO_POINTS(P) P(went) P(raced) P(synced) P(received) P(entered) P(gathered) P(woke)
DECLARE_COROUTINE(hero, HERO_FIELDS)
DEFINE_COROUTINE_AT(hero, HERO_POINTS)
{
    CORRAL_BEGIN_AT(co, HERO_POINTS);
    CORRAL_CALL_AT(co, went, walk, (walk_ctx){.steps = 3}, &ctx->walked);
#ifndef CORRAL_NO_RACES
    CORRAL_RACE_AT(co, raced, walk_arm(co, (walk_ctx){.steps = 2}, &ctx->raced),
                   walk_arm(co, (walk_ctx){.steps = 9}, &ctx->raced));
    CORRAL_SYNC_AT(co, synced, walk_arm(co, (walk_ctx){.steps = 1}, &ctx->left),
                   walk_arm(co, (walk_ctx){.steps = 4}, &ctx->right));
#endif
#ifndef CORRAL_NO_CHANNELS
    CORRAL_AWAIT_AT(co, received, corral_wait_receive(ctx->mail, &ctx->got, (uint32_t)sizeof ctx->got));
    CORRAL_AWAIT_AT(co, entered, corral_wait_acquire(ctx->door));
    CORRAL_AWAIT_AT(co, gathered, corral_wait_group(ctx->crew));
#endif
    for (;;) {
        CORRAL_AWAIT_AT(co, woke, corral_wait_signal(ctx->go));
        ctx->woke++;
    }
    CORRAL_END(co);
}

#define GAME_TYPES(X) X(walk, 1, 0) X(hero, 2, 0)
CORRAL_DECLARE_REGISTRY(game, GAME_TYPES)
CORRAL_DEFINE_REGISTRY(game, GAME_TYPES);

static corral_sched *create(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.registry = &game_registry;
#ifndef CORRAL_NO_DOMAINS
    d.domains = 2;
#endif
#ifndef CORRAL_NO_PROFILE
    d.history_frames = 8;
#endif
#ifndef CORRAL_NO_SNAPSHOT
    d.kept_snapshots = 3; /* the sync test's 2 frames played again and its own */
#endif
    return corral_sched_create(&d);
}

#ifndef CORRAL_NO_NETPLAY
static void tick_once(corral_sched *s, const void *input, void *user)
{
    (void)input;
    (void)user;
    corral_tick(s, 1.0f / 60.0f);
}
#endif

static void frames(corral_sched *s, int n)
{
    for (int i = 0; i < n; i++) corral_tick(s, 1.0f / 60.0f);
}

#ifndef CORRAL_NO_EXPORT
static void count_text(void *user, const char *text, size_t len)
{
    (void)text;
    *(size_t *)user += len;
}
#endif

/* the go signal, raised here or posted as from another thread */
static void wake(corral_sched *s, corral_signal go)
{
#ifndef CORRAL_NO_POSTS
    CHECK(corral_signal_post(s, go));
#else
    CHECK(corral_signal_raise(s, go));
#endif
    frames(s, 1);
}

int main(void)
{
    corral_sched *s = create();
    if (!s) {
        fprintf(stderr, "modules: create failed: %s\n", corral_error_str(corral_last_error(NULL)));
        return 1;
    }
    hero_ctx start = {0};
    start.go = corral_signal_create(s);
#ifndef CORRAL_NO_CHANNELS
    start.mail = corral_channel_create(s, (uint32_t)sizeof(int32_t));
    start.door = corral_semaphore_create(s, 1);
    start.crew = corral_waitgroup_create(s);
    const int32_t seven = 7;
    CHECK(corral_channel_try_send(s, start.mail, &seven, sizeof seven));
    CHECK(corral_waitgroup_add(s, start.crew, 1));
#endif
    corral_handle h = hero_start(s, start);
    frames(s, 12);
#ifndef CORRAL_NO_CHANNELS
    CHECK(corral_waitgroup_done(s, start.crew));
    frames(s, 2);
#endif
    hero_ctx *hero = hero_ctx_of(s, h);
    CHECK(hero != NULL);
    if (!hero) return 1;
    CHECK(hero->walked == 3);
#ifndef CORRAL_NO_RACES
    CHECK(hero->raced == 2 && hero->left == 1 && hero->right == 4);
#endif
#ifndef CORRAL_NO_CHANNELS
    CHECK(hero->got == 7 && corral_semaphore_count(s, start.door) == 0);
#endif
    CHECK(corral_live_count(s) == 1 && hero->woke == 0);

#ifndef CORRAL_NO_VERIFY
    CHECK(corral_verify(s));
#endif
#ifndef CORRAL_NO_PROFILE
    corral_arena_stats arena;
    CHECK(corral_stats_arena(s, &arena));
    CHECK(corral_type_count(s) == 2);
    corral_frame_sample samples[8];
    CHECK(corral_history(s, samples, 8) > 0);
#endif
#ifndef CORRAL_NO_EXPORT
    size_t text = 0;
    corral_writer w = {count_text, &text, NULL, 0, 0};
    corral_report_text_to(s, &w);
    CHECK(text > 0);
    uint32_t cursor = 0, listed = 0;
    corral_co_info info;
    while (corral_next_co(s, &cursor, &info)) listed++;
    CHECK(listed == 1);
#endif
#ifndef CORRAL_NO_DOMAINS
    CHECK(corral_domain_set_scale(s, 1, 0.5f) && corral_domain_scale(s, 1) == 0.5f);
    CHECK(corral_set_domain(s, h, 1));
#endif
#ifndef CORRAL_NO_RELOAD
    corral_reload_desc again;
    memset(&again, 0, sizeof again);
    again.registry = &game_registry;
    CHECK(corral_reload(s, &again));
#endif
#ifndef CORRAL_NO_SAVE
    size_t saved = corral_save(s, NULL, 0);
    void *save = malloc(saved);
    CHECK(saved > 0 && save && corral_save(s, save, saved) == saved);
    corral_sched *loaded = create();
    CHECK(loaded && save && corral_load(loaded, save, saved));
    if (loaded) {
        CHECK(corral_live_count(loaded) == 1);
        corral_sched_destroy(loaded);
    }
    free(save);
#endif
#ifndef CORRAL_NO_SNAPSHOT
    const uint64_t before = corral_state_hash(s);
    size_t size = corral_snapshot_size(s);
    void *snap = malloc(size);
    CHECK(size > 0 && snap && corral_snapshot(s, snap, size) == size);
    CHECK(corral_snapshot_keep(s, 0) > 0);
    wake(s, start.go);
    CHECK(hero->woke == 1);
    CHECK(snap && corral_restore(s, snap, size) && hero->woke == 0 && corral_state_hash(s) == before);
    wake(s, start.go);
    CHECK(corral_restore_kept(s, 0) && hero->woke == 0);
    free(snap);
#endif
#ifndef CORRAL_NO_NETPLAY
    corral_synctest st;
    corral_synctest_desc sd;
    memset(&sd, 0, sizeof sd);
    sd.frames = 2;
    sd.frame = tick_once;
    CHECK(corral_synctest_begin(&st, s, &sd));
    for (int f = 0; f < 4; f++) CHECK(corral_synctest_frame(&st, NULL));
    CHECK(!st.desynced && st.frames_played_again == 7);
#endif
    wake(s, start.go);
    CHECK(hero->woke == 1);
    corral_sched_destroy(s);
    return failures != 0;
}
