/*
    cutscene -- "play the cutscene unless the player skips": the seeds'
    interrupt case, with no hand-written wrapper. CORRAL_CALL_UNLESS runs the
    cutscene as a child; when the skip predicate (polled once a frame) turns
    true, the cutscene and everything it called end with
    CORRAL_END_INTERRUPTED, their cleanup hooks run, and the level script
    goes on in the same frame.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *g_s;
static bool g_skip_pressed;

static bool skip_pressed(void *user)
{
    (void)user;
    return g_skip_pressed;
}

#define LINE_FIELDS(F) F(const char *, text)
DECLARE_COROUTINE(line, LINE_FIELDS)
DEFINE_COROUTINE(line)
{
    CORRAL_BEGIN(co);
    printf("[%5.2fs] \"%s\"\n", corral_time(g_s), ctx->text);
    CORRAL_WAIT_SECONDS(co, 1.5f); /* let the player read it */
    CORRAL_END(co);
}

#define SCENE_FIELDS(F) F(int, i)
DECLARE_COROUTINE(scene, SCENE_FIELDS)
static void scene_cleanup(scene_ctx *ctx, corral_end_reason why)
{
    printf("[%5.2fs] cutscene over after %d lines (%s): camera back to the player\n", corral_time(g_s),
           ctx->i, corral_end_reason_str(why));
}
DEFINE_COROUTINE_CLEANUP(scene, scene_cleanup)
{
    static const char *const script[] = {"You came back.", "The gate is sealed.", "Find the three keys.",
                                         "And hurry."};
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 4; ctx->i++) CORRAL_CALL(co, line, (line_ctx){.text = script[ctx->i]});
    CORRAL_END(co);
}

#define LEVEL_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(level, LEVEL_FIELDS)
DEFINE_COROUTINE(level)
{
    CORRAL_BEGIN(co);
    printf("[%5.2fs] level start\n", corral_time(g_s));
    CORRAL_CALL_UNLESS(co, corral_wait_until(skip_pressed, NULL), scene, (scene_ctx){0});
    printf("[%5.2fs] the cutscene %s; gameplay begins\n", corral_time(g_s),
           corral_call_outcome(co) == CORRAL_END_INTERRUPTED ? "was skipped" : "played to the end");
    CORRAL_END(co);
}

int main(void)
{
    g_s = corral_sched_create(&(corral_sched_desc){.classes = {{.slot_size = 48, .capacity = 8}}});
    if (!g_s) return 1;
    level_start(g_s, (level_ctx){0});
    for (int frame = 1; corral_live_count(g_s) > 0; frame++) {
        if (frame == 200) { /* about 3.3 s in, the player presses skip */
            printf("[%5.2fs] (player presses skip)\n", corral_time(g_s));
            g_skip_pressed = true;
        }
        corral_tick(g_s, 1.0f / 60.0f);
    }
    corral_sched_destroy(g_s);
    return 0;
}
