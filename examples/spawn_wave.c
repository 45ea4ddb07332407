/*
    spawn_wave -- the seeds' SpawnRoutine: spawn 5 enemies one second
    apart, then a boss.

        IEnumerator SpawnRoutine() {
            WaitForSeconds delay = new(1);
            for (int i = 0; i < 5; i++) { SpawnEnemy(); yield return delay; }
            SpawnBoss();
        }

    The wait is a value here too (corral_wait), and costs no allocation.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *g_s;

#define WAVE_FIELDS(F) \
    F(int, i)          \
    F(int, count)      \
    F(corral_wait, delay)
DECLARE_COROUTINE(wave, WAVE_FIELDS)
DEFINE_COROUTINE(wave)
{
    CORRAL_BEGIN(co);
    ctx->delay = corral_wait_seconds(1.0f);
    for (ctx->i = 0; ctx->i < ctx->count; ctx->i++) {
        printf("[%5.2fs] spawn enemy %d\n", corral_time(g_s), ctx->i + 1);
        CORRAL_AWAIT(co, ctx->delay);
    }
    printf("[%5.2fs] spawn BOSS\n", corral_time(g_s));
    CORRAL_END(co);
}

int main(void)
{
    g_s = corral_sched_create(&(corral_sched_desc){.classes = {{.slot_size = 128, .capacity = 1}}});
    if (!g_s) return 1;
    wave_start(g_s, (wave_ctx){.count = 5});
    while (corral_live_count(g_s) > 0) corral_tick(g_s, 1.0f / 30.0f);
    corral_sched_destroy(g_s);
    return 0;
}
