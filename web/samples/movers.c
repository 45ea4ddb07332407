/* movers -- 10^4 coroutines, each moving a dot for a few seconds and
   starting again: the frame's step time is in the inspector's summary.
   action: scatter */
#include "../host.h"

#include <math.h>

#define N 10000
static uint32_t g_rng = 1;
static float rnd(void)
{
    g_rng = g_rng * 1664525u + 1013904223u;
    return (float)(g_rng >> 8) / 16777216.0f;
}

#define MOVER_FIELDS(F) F(float, x) F(float, y) F(float, vx) F(float, vy) F(float, t) F(float, life)
DECLARE_COROUTINE(mover, MOVER_FIELDS)
DEFINE_COROUTINE(mover)
{
    float dt = corral_dt(co);
    ctx->x += ctx->vx * dt;
    ctx->y += ctx->vy * dt;
    if (ctx->x < 0 || ctx->x > 640) ctx->vx = -ctx->vx;
    if (ctx->y < 0 || ctx->y > 360) ctx->vy = -ctx->vy;
    ctx->t += dt;
    return ctx->t < ctx->life ? CORRAL_YIELD : CORRAL_STOP;
}

static mover_ctx fresh(void)
{
    float a = rnd() * 6.2832f, v = 20.0f + 80.0f * rnd();
    mover_ctx c = {320 + 100 * (rnd() - 0.5f), 180 + 100 * (rnd() - 0.5f), v * cosf(a), v * sinf(a), 0, 1.0f + 4.0f * rnd()};
    return c;
}

const char *sample_title(void) { return "10,000 movers"; }
void sample_desc(corral_sched_desc *d)
{
    d->classes[0].slot_size = corral_slot_size_for(&mover_type);
    d->classes[0].capacity = N;
}
void sample_init(corral_sched *s)
{
    for (int i = 0; i < N; i++) mover_start(s, fresh());
}
void sample_frame(corral_sched *s)
{
    while (corral_live_count(s) < N) mover_start(s, fresh()); /* those that ended start again */
}
void sample_action(corral_sched *s, int what)
{
    (void)what;
    uint32_t cur = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) {
        mover_ctx *c = mover_ctx_of(s, in.handle);
        if (c) c->vx *= 3, c->vy *= 3;
    }
}
void sample_draw(corral_sched *s)
{
    uint32_t cur = 0, n = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) {
        const mover_ctx *c = (const mover_ctx *)in.ctx;
        if (n++ % 4 == 0) host_rect(c->x, c->y, 2, 2, c->t / c->life < 0.5f ? "#5c8" : "#c85");
    }
    host_log("live %u", corral_live_count(s));
}
