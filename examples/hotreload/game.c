/*
    game.c -- the gameplay module of the hot reload example (host.c loads
    it with dlopen). Built three times, as a game programmer would rebuild
    it between two reloads (GAME_BUILD):

    1. a lantern blinks every half second; a guard walks at 1 m/s;
    2. the guard walks at 2 m/s and looks around for a frame before each
       step (a wait inserted before a named point); the lantern says
       "flash"; a new type, a bird, comes in;
    3. the guard gains a field (stamina): a layout a reload refuses.
*/
#include <corral/corral.h>

#include <stdio.h>

#ifndef GAME_BUILD
#define GAME_BUILD 1
#endif

/* the lantern: its point is named, so a reload finds it */
#define LANTERN_FIELDS(F) F(int, n)
#define LANTERN_POINTS(P) P(lit)
DECLARE_COROUTINE(lantern, LANTERN_FIELDS)
DEFINE_COROUTINE_AT(lantern, LANTERN_POINTS)
{
    CORRAL_BEGIN_AT(co, LANTERN_POINTS);
    for (;;) {
        CORRAL_AWAIT_AT(co, lit, corral_wait_seconds(0.5f));
        ctx->n++;
        printf("[%5.2fs] lantern: %s %d\n", corral_time(corral_sched_of(co)), GAME_BUILD == 1 ? "blink" : "flash",
               ctx->n);
    }
    CORRAL_END(co);
}

/* the guard walks to 10 m and back */
#if GAME_BUILD == 3
#define GUARD_FIELDS(F) F(float, x) F(float, dir) F(int, stamina)
#else
#define GUARD_FIELDS(F) F(float, x) F(float, dir)
#endif
#if GAME_BUILD == 1
#define GUARD_POINTS(P) P(walking)
#define SPEED 1.0f
#else
#define GUARD_POINTS(P) P(looking) P(walking)
#define SPEED 2.0f
#endif
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE_AT(guard, GUARD_POINTS)
{
    CORRAL_BEGIN_AT(co, GUARD_POINTS);
    ctx->dir = 1.0f;
    for (;;) {
#if GAME_BUILD != 1
        CORRAL_WAIT_FRAME_AT(co, looking);
#endif
        CORRAL_AWAIT_AT(co, walking, corral_wait_seconds(1.0f));
        ctx->x += ctx->dir * SPEED;
        if (ctx->x >= 10.0f || ctx->x <= 0.0f) ctx->dir = -ctx->dir;
        printf("[%5.2fs] guard: at %.0f m\n", corral_time(corral_sched_of(co)), (double)ctx->x);
    }
    CORRAL_END(co);
}

#if GAME_BUILD != 1
/* new in build 2 */
#define BIRD_FIELDS(F) F(int, songs)
#define BIRD_POINTS(P) P(perched)
DECLARE_COROUTINE(bird, BIRD_FIELDS)
DEFINE_COROUTINE_AT(bird, BIRD_POINTS)
{
    CORRAL_BEGIN_AT(co, BIRD_POINTS);
    while (ctx->songs < 2) {
        CORRAL_AWAIT_AT(co, perched, corral_wait_seconds(0.75f));
        ctx->songs++;
        printf("[%5.2fs] bird: sings\n", corral_time(corral_sched_of(co)));
    }
    CORRAL_END(co);
}
#define GAME_TYPES(X) X(lantern, 1, 0) X(guard, 2, 0) X(bird, 3, 0)
#else
#define GAME_TYPES(X) X(lantern, 1, 0) X(guard, 2, 0)
#endif
CORRAL_DECLARE_REGISTRY(game, GAME_TYPES)
CORRAL_DEFINE_REGISTRY(game, GAME_TYPES);

/* what the host finds with dlsym */
const corral_registry *game_types(void);
void game_begin(corral_sched *s);
void game_after_reload(corral_sched *s);

const corral_registry *game_types(void) { return &game_registry; }
void game_begin(corral_sched *s)
{
    lantern_start(s, (lantern_ctx){0});
    guard_start(s, (guard_ctx){0});
}
void game_after_reload(corral_sched *s)
{
#if GAME_BUILD != 1
    bird_start(s, (bird_ctx){0});
#else
    (void)s;
#endif
}
