/*
    save_safe -- a type made save-safe with named points (docs/GUIDE.md,
    "A save-safe type").

    A save records where each coroutine waits by the name of the point,
    so the type names its points (DEFINE_COROUTINE_AT, CORRAL_BEGIN_AT,
    CORRAL_WAIT_SECONDS_AT), is in a registry (a stable id) and keeps no pointer
    in its context. Here the world is saved while the sentry dozes, the
    scheduler destroyed, and the save loaded into a fresh one: the sentry
    wakes when it would have, on the loaded clock, and goes on. Another
    process and the next build of the game: examples/savegame.c.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *S;

#define SENTRY_FIELDS(F) \
    F(int32_t, id)       \
    F(int32_t, round)
#define SENTRY_POINTS(P) P(walked) P(dozed)
DECLARE_COROUTINE(sentry, SENTRY_FIELDS)
DEFINE_COROUTINE_AT(sentry, SENTRY_POINTS)
{
    CORRAL_BEGIN_AT(co, SENTRY_POINTS);
    for (ctx->round = 1; ctx->round <= 3; ctx->round++) {
        printf("[%5.2fs] sentry %d walks round %d\n", corral_time(S), ctx->id, ctx->round);
        CORRAL_WAIT_SECONDS_AT(co, walked, 1.0f);
        printf("[%5.2fs] sentry %d dozes off\n", corral_time(S), ctx->id);
        CORRAL_WAIT_SECONDS_AT(co, dozed, 2.0f);
    }
    printf("[%5.2fs] sentry %d's watch is over\n", corral_time(S), ctx->id);
    CORRAL_END(co);
}

/* every type that may be alive at a save, with a stable id */
#define GAME_TYPES(X) X(sentry, 1, 0)
CORRAL_DECLARE_REGISTRY(game, GAME_TYPES)
CORRAL_DEFINE_REGISTRY(game, GAME_TYPES);

static corral_sched *new_world(void)
{
    return corral_sched_create(&(corral_sched_desc){.registry = &game_registry});
}

int main(void)
{
    static unsigned char save[4096];
    S = new_world();
    if (!S) return 1;
    sentry_start(S, (sentry_ctx){.id = 7});
    for (int frame = 1; frame <= 18; frame++) corral_tick(S, 0.25f); /* to 4.5 s: mid-doze */
    size_t n = corral_save(S, save, sizeof save);
    if (!n) {
        fprintf(stderr, "save_safe: %s\n", corral_last_error_detail(S));
        return 1;
    }
    printf("[%5.2fs] saved; the scheduler is destroyed\n", corral_time(S));
    corral_sched_destroy(S);

    S = new_world();
    if (!S || !corral_load(S, save, n)) {
        fprintf(stderr, "save_safe: %s\n", corral_last_error_detail(S));
        return 1;
    }
    printf("[%5.2fs] loaded into a fresh scheduler: %u coroutine\n", corral_time(S), corral_live_count(S));
    while (corral_live_count(S) > 0) corral_tick(S, 0.25f);
    corral_sched_destroy(S);
    return 0;
}
