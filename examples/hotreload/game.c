/*
    game.c -- the gameplay module of the hot reload example (host.c loads
    it: dlopen on Linux, LoadLibrary on Windows). Built three times, as a
    game programmer would rebuild it between two reloads (GAME_BUILD):

    1. a lantern blinks every half second; a guard walks at 1 m/s;
    2. the guard walks at 2 m/s, looks around for a frame before each step
       (a wait inserted before a named point) and tires: a field added,
       which game_upgrade fills in for the guards already walking; the
       lantern says "flash" and counts in a wider integer; a new type, a
       bird, comes in;
    3. the guard's position becomes an integer: a field that changed its
       kind, which a reload refuses.
*/
#include <corral/corral.h>

#include <stdio.h>
#include <string.h>

#ifndef GAME_BUILD
#define GAME_BUILD 1
#endif

/* the lantern: its point is named, so a reload finds it */
#if GAME_BUILD == 1
#define LANTERN_FIELDS(F) F(int, n)
#else
#define LANTERN_FIELDS(F) F(long long, n)
#endif
#define LANTERN_POINTS(P) P(lit)
DECLARE_COROUTINE(lantern, LANTERN_FIELDS)
DEFINE_COROUTINE_AT(lantern, LANTERN_POINTS)
{
    CORRAL_BEGIN_AT(co, LANTERN_POINTS);
    for (;;) {
        CORRAL_AWAIT_AT(co, lit, corral_wait_seconds(0.5f));
        ctx->n++;
        printf("[%5.2fs] lantern: %s %lld\n", corral_time(corral_sched_of(co)), GAME_BUILD == 1 ? "blink" : "flash",
               (long long)ctx->n);
    }
    CORRAL_END(co);
}

/* the guard walks to 10 m and back */
#if GAME_BUILD == 3
#define POSITION int
#else
#define POSITION float
#endif
#if GAME_BUILD == 1
#define GUARD_FIELDS(F) F(float, x) F(float, dir)
#else
#define GUARD_FIELDS(F) F(int, stamina) F(POSITION, x) F(float, dir)
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
        ctx->x = (POSITION)((float)ctx->x + ctx->dir * SPEED);
        if (ctx->x >= 10 || ctx->x <= 0) ctx->dir = -ctx->dir;
#if GAME_BUILD == 1
        printf("[%5.2fs] guard: at %.0f m\n", corral_time(corral_sched_of(co)), (double)ctx->x);
#else
        ctx->stamina -= 10;
        printf("[%5.2fs] guard: at %.0f m, stamina %d\n", corral_time(corral_sched_of(co)), (double)ctx->x,
               ctx->stamina);
#endif
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

/* what the host finds by name */
const corral_registry *game_types(void);
void game_begin(corral_sched *s);
void game_after_reload(corral_sched *s);
void game_upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                  void *user);

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
/* a context moved into this build's layout: its new fields are zero, the
   rest came across by name; a guard that had no stamina starts rested */
void game_upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx, void *user)
{
    (void)old_ctx;
    (void)user;
    if (type != &guard_type) return;
    for (uint32_t i = 0; i < old->field_count; i++)
        if (strcmp(old->fields[i].name, "stamina") == 0) return;
#if GAME_BUILD != 1
    ((guard_ctx *)ctx)->stamina = 100;
#else
    (void)ctx;
#endif
}
