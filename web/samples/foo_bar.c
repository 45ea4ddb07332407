/* foo_bar -- the seeds' Foo, Foo2 and Bar, as a timeline: each line Unity
   prints, at the time it prints it (a nested call costs no frame). */
#include "../host.h"

#include <stdio.h>

static float g_at[16];
static char g_line[16][32];
static int g_lines;

static void say(corral_sched *s, const char *text)
{
    if (g_lines < 16) {
        g_at[g_lines] = (float)corral_time(s);
        snprintf(g_line[g_lines++], sizeof g_line[0], "%s", text);
    }
    host_log("%s", text);
}

#define FOO2_FIELDS(F) F(int, i)
DECLARE_COROUTINE(foo2, FOO2_FIELDS)
DEFINE_COROUTINE(foo2)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 5; ctx->i++) {
        char line[16];
        snprintf(line, sizeof line, "%d", ctx->i);
        say(corral_sched_of(co), line);
        CORRAL_WAIT_SECONDS(co, 1.0f);
    }
    say(corral_sched_of(co), "Foo2 finished!");
    CORRAL_END(co);
}
#define FOO_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(foo, FOO_FIELDS)
DEFINE_COROUTINE(foo)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL(co, foo2, (foo2_ctx){0});
    say(corral_sched_of(co), "Foo finished!");
    CORRAL_END(co);
}
#define BAR_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(bar, BAR_FIELDS)
DEFINE_COROUTINE(bar)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, 1.0f);
    say(corral_sched_of(co), "Bar finished!");
    CORRAL_END(co);
}

const char *sample_title(void) { return "Foo, Foo2 and Bar (the seeds' Unity program)"; }
void sample_desc(corral_sched_desc *d) { (void)d; }
void sample_init(corral_sched *s)
{
    foo_start(s, (foo_ctx){0});
    bar_start(s, (bar_ctx){0});
}
void sample_frame(corral_sched *s) { (void)s; }
void sample_action(corral_sched *s, int what)
{
    (void)what;
    g_lines = 0;
    foo_start(s, (foo_ctx){0});
    bar_start(s, (bar_ctx){0});
}
void sample_draw(corral_sched *s)
{
    const float x0 = 40, w = 560, secs = 6;
    host_rect(x0, 200, w, 2, "#888");
    for (int k = 0; k <= 6; k++) host_text(x0 + w * (float)k / secs - 4, 225, "#888", "%ds", k);
    float now = (float)corral_time(s);
    host_rect(x0 + w * (now < secs ? now : secs) / secs, 190, 2, 22, "#e33");
    for (int i = 0; i < g_lines; i++) {
        float x = x0 + w * g_at[i] / secs;
        host_circle(x, 201, 5, "#3a7");
        host_text(x + 6, 180 - 16 * (float)(i % 8), "#ddd", "%s", g_line[i]);
    }
}
