/* cutscene -- a camera moves through three shots, each a child coroutine,
   unless the player skips: CORRAL_CALL_UNLESS on a signal. action: skip */
#include "../host.h"

static corral_signal g_skip;
static float g_cam_x, g_cam_y;
static const char *g_caption = "";

#define SHOT_FIELDS(F) F(float, x0) F(float, x1) F(float, secs) F(float, t)
DECLARE_COROUTINE(shot, SHOT_FIELDS)
DEFINE_COROUTINE(shot)
{
    CORRAL_BEGIN(co);
    for (ctx->t = 0; ctx->t < ctx->secs; ctx->t += corral_dt(co)) {
        g_cam_x = ctx->x0 + (ctx->x1 - ctx->x0) * ctx->t / ctx->secs;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

#define SCENE_FIELDS(F) F(int, shots)
DECLARE_COROUTINE(scene, SCENE_FIELDS)
DEFINE_COROUTINE(scene)
{
    CORRAL_BEGIN(co);
    g_caption = "the castle";
    CORRAL_CALL_UNLESS(co, corral_wait_signal(g_skip), shot, (shot_ctx){40, 300, 1.5f, 0});
    if (corral_call_outcome(co) == CORRAL_END_INTERRUPTED) goto skipped;
    g_caption = "the gate";
    CORRAL_CALL_UNLESS(co, corral_wait_signal(g_skip), shot, (shot_ctx){300, 500, 1.5f, 0});
    if (corral_call_outcome(co) == CORRAL_END_INTERRUPTED) goto skipped;
    g_caption = "the hero";
    CORRAL_CALL_UNLESS(co, corral_wait_signal(g_skip), shot, (shot_ctx){500, 600, 1.5f, 0});
    if (corral_call_outcome(co) == CORRAL_END_INTERRUPTED) goto skipped;
    host_log("the cutscene played to its end");
    g_caption = "play!";
    CORRAL_EXIT(co);
skipped:
    host_log("skipped");
    g_caption = "play! (skipped)";
    g_cam_x = 600;
    CORRAL_END(co);
}

const char *sample_title(void) { return "a skippable cutscene"; }
void sample_desc(corral_sched_desc *d) { (void)d; }
void sample_init(corral_sched *s)
{
    g_skip = corral_signal_create(s);
    g_cam_y = 180;
    scene_start(s, (scene_ctx){0});
}
void sample_frame(corral_sched *s) { (void)s; }
void sample_action(corral_sched *s, int what)
{
    (void)what;
    corral_signal_raise(s, g_skip);
}
void sample_draw(corral_sched *s)
{
    for (int k = 0; k < 12; k++) host_rect(60.0f * (float)k - g_cam_x + 320, 240, 40, 60, k == 8 ? "#c94" : "#667");
    host_circle(600 - g_cam_x + 320, g_cam_y, 14, "#fd5");
    host_text(20, 30, "#eee", "%s", g_caption);
    host_log("live %u", corral_live_count(s));
}
