/* rollback -- a bouncing ball driven by a coroutine; every frame is
   snapshotted into a ring, and the button rewinds 60 frames in place
   (corral_restore) and plays them again: the same path, twice.
   action: rewind 60 frames */
#include "../host.h"

#include <string.h>

#define BALL_FIELDS(F) F(float, x) F(float, y) F(float, vx) F(float, vy)
DECLARE_COROUTINE(ball, BALL_FIELDS)
DEFINE_COROUTINE(ball)
{
    float dt = corral_dt(co);
    ctx->vy += 300 * dt;
    ctx->x += ctx->vx * dt;
    ctx->y += ctx->vy * dt;
    if (ctx->y > 340) ctx->y = 340, ctx->vy = -ctx->vy * 0.9f;
    if (ctx->x < 10 || ctx->x > 630) ctx->vx = -ctx->vx;
    return CORRAL_YIELD;
}

#define RING 64
static unsigned char g_snap[RING][32768];
static size_t g_size[RING];
static uint64_t g_hash[RING];
static int g_head, g_count, g_replay;
static corral_handle g_ball;
static float g_trail[RING][2];

const char *sample_title(void) { return "rollback in place"; }
void sample_desc(corral_sched_desc *d)
{
    d->classes[0].slot_size = 64;
    d->classes[0].capacity = 4;
    d->history_frames = 0;
    d->wait_text = false;
    d->max_types = 4;
}
void sample_init(corral_sched *s) { g_ball = ball_start(s, (ball_ctx){40, 40, 150, 0}); }
void sample_frame(corral_sched *s)
{
    /* the frame about to run: keep its state, or check the replay matches */
    int slot = g_head % RING;
    if (g_replay > 0) {
        if (corral_state_hash(s) != g_hash[slot]) host_log("desync at a replayed frame");
        g_replay--;
        if (g_replay == 0) host_log("replayed 60 frames: every one matched");
    } else {
        g_size[slot] = corral_snapshot(s, g_snap[slot], sizeof g_snap[slot]);
        if (!g_size[slot]) host_log("a snapshot needs %zu bytes", corral_snapshot_size(s));
        g_hash[slot] = corral_state_hash(s);
        if (g_count < RING) g_count++;
    }
    const ball_ctx *b = ball_ctx_of(s, g_ball);
    g_trail[slot][0] = b ? b->x : 0;
    g_trail[slot][1] = b ? b->y : 0;
    g_head++;
}
void sample_action(corral_sched *s, int what)
{
    (void)what;
    if (g_count < 61 || g_replay) return;
    g_head -= 60;
    int slot = g_head % RING;
    if (corral_restore(s, g_snap[slot], g_size[slot])) {
        g_replay = 60;
        host_log("rewound 60 frames");
    }
}
void sample_draw(corral_sched *s)
{
    for (int k = 0; k < g_count && k < RING; k++) host_circle(g_trail[k][0], g_trail[k][1], 2, "#456");
    const ball_ctx *b = ball_ctx_of(s, g_ball);
    if (b) host_circle(b->x, b->y, 10, g_replay ? "#e55" : "#5e9");
    host_text(20, 30, "#ccc", "frame %llu%s", (unsigned long long)corral_frame(s), g_replay ? "  (replaying)" : "");
    host_log("live %u", corral_live_count(s));
}
