/* waves -- a spawner starts a wave of enemies every 2 s, one every 0.1 s;
   each walks in, waits, and leaves. action: spawn a wave now */
#include "../host.h"

#define ENEMY_FIELDS(F) F(float, x) F(float, y) F(int, wave) F(float, t)
DECLARE_COROUTINE(enemy, ENEMY_FIELDS)
DEFINE_COROUTINE(enemy)
{
    CORRAL_BEGIN(co);
    while (ctx->x < 320 + 20 * (float)(ctx->wave % 5)) {
        ctx->x += 120 * corral_dt(co);
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_WAIT_SECONDS(co, 1.5f);
    while (ctx->y > -10) {
        ctx->y -= 150 * corral_dt(co);
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

#define WAVE_FIELDS(F) F(int, wave) F(int, i) F(int, size)
DECLARE_COROUTINE(wave, WAVE_FIELDS)
DEFINE_COROUTINE(wave)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < ctx->size; ctx->i++) {
        enemy_start(corral_sched_of(co), (enemy_ctx){0, 40 + 30 * (float)ctx->i, ctx->wave, 0});
        CORRAL_WAIT_SECONDS(co, 0.1f);
    }
    CORRAL_END(co);
}

#define SPAWNER_FIELDS(F) F(int, waves)
DECLARE_COROUTINE(spawner, SPAWNER_FIELDS)
DEFINE_COROUTINE(spawner)
{
    CORRAL_BEGIN(co);
    for (;;) {
        host_log("wave %d", ctx->waves + 1);
        CORRAL_CALL(co, wave, (wave_ctx){ctx->waves++, 0, 10});
        CORRAL_WAIT_SECONDS(co, 2.0f);
    }
    CORRAL_END(co);
}

static int g_extra;
const char *sample_title(void) { return "waves of enemies"; }
void sample_desc(corral_sched_desc *d) { (void)d; }
void sample_init(corral_sched *s) { spawner_start(s, (spawner_ctx){0}); }
void sample_frame(corral_sched *s) { (void)s; }
void sample_action(corral_sched *s, int what)
{
    (void)what;
    wave_start(s, (wave_ctx){100 + g_extra++, 0, 10});
}
void sample_draw(corral_sched *s)
{
    uint32_t cur = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) {
        if (in.type != &enemy_type) continue;
        const enemy_ctx *e = (const enemy_ctx *)in.ctx;
        host_circle(e->x, e->y, 8, in.wait == CORRAL_WAIT_SECONDS ? "#e83" : "#5af");
    }
    host_log("live %u", corral_live_count(s));
}
