/*
    waves -- spawner waves (docs/GUIDE.md, "Spawner waves").

    A director spawns each wave's enemies half a second apart, waits until
    every one of them is dead (CORRAL_SYNC_OF over their handles: they are
    not its children, any of them may die first), rests, and sends the
    next, larger wave. Each enemy here dies after a while of its own; in a
    game its coroutine ends (or is stopped) when its health runs out.
    A timed spawn alone is examples/spawn_wave.c.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *S;

#define ENEMY_FIELDS(F) \
    F(int, wave)        \
    F(int, n)           \
    F(float, lives)
DECLARE_COROUTINE(enemy, ENEMY_FIELDS)
DEFINE_COROUTINE(enemy)
{
    CORRAL_BEGIN(co);
    printf("[%5.2fs]   enemy %d.%d spawns\n", corral_time(S), ctx->wave, ctx->n);
    CORRAL_WAIT_SECONDS(co, ctx->lives);
    printf("[%5.2fs]   enemy %d.%d dies\n", corral_time(S), ctx->wave, ctx->n);
    CORRAL_END(co);
}

typedef struct {
    corral_handle h[4];
} squad; /* the handles a wait on all of them needs: in the context */

#define DIRECTOR_FIELDS(F) \
    F(int, wave)           \
    F(int, i)              \
    F(squad, alive)
DECLARE_COROUTINE(director, DIRECTOR_FIELDS)
DEFINE_COROUTINE(director)
{
    CORRAL_BEGIN(co);
    for (ctx->wave = 1; ctx->wave <= 3; ctx->wave++) {
        printf("[%5.2fs] wave %d: %d enemies\n", corral_time(S), ctx->wave, ctx->wave + 1);
        for (ctx->i = 0; ctx->i <= ctx->wave; ctx->i++) {
            float lives = 1.0f + 0.75f * (float)((ctx->i * 3 + ctx->wave) % 4); /* not in spawn order */
            ctx->alive.h[ctx->i] = enemy_start(S, (enemy_ctx){.wave = ctx->wave, .n = ctx->i + 1, .lives = lives});
            CORRAL_WAIT_SECONDS(co, 0.5f);
        }
        CORRAL_SYNC_OF(co, ctx->alive.h, (uint32_t)ctx->i); /* until all i of them have ended */
        printf("[%5.2fs] wave %d cleared; 2 s to breathe\n", corral_time(S), ctx->wave);
        CORRAL_WAIT_SECONDS(co, 2.0f);
    }
    printf("[%5.2fs] all waves cleared\n", corral_time(S));
    CORRAL_END(co);
}

int main(void)
{
    S = corral_sched_create(&(corral_sched_desc){0});
    if (!S) return 1;
    director_start(S, (director_ctx){0});
    while (corral_live_count(S) > 0) corral_tick(S, 0.25f);
    corral_sched_destroy(S);
    return 0;
}
