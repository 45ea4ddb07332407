/*
    host.c -- the browser side of a sample: one scheduler, a frame per
    call, and for the page: the shapes to draw and the new log lines, a
    line each, and the inspector: the library's JSON report (types, size
    classes, the arena over the last frames, the live coroutines with their
    fields, waits and file:line). Built with each sample by tools/web.sh.
*/
#include "host.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define WEB_API EMSCRIPTEN_KEEPALIVE
#else
#define WEB_API
#endif

static corral_sched *S;

/* ---- the draw list and the log: a line each (app.js splits them).
   A shape: "c x y r color", "r x y w h color" or "t x y color text". */
typedef struct buf {
    char *p;
    size_t cap, at;
} buf;
static void put(buf *b, const char *fmt, ...)
{
    if (b->at + 1 >= b->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->at, b->cap - b->at, fmt, ap);
    va_end(ap);
    if (n > 0) b->at = b->at + (size_t)n < b->cap ? b->at + (size_t)n : b->cap - 1;
}
static void one_line(char *text) /* a newline inside would start another */
{
    for (char *c = text; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
}

static char g_draw[1 << 20], g_log[1 << 16];
static buf D = {g_draw, sizeof g_draw, 0}, Lg = {g_log, sizeof g_log, 0};

void host_log(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    one_line(line);
    put(&Lg, "%s\n", line);
}
void host_circle(float x, float y, float r, const char *color)
{
    put(&D, "c %.1f %.1f %.1f %s\n", (double)x, (double)y, (double)r, color);
}
void host_rect(float x, float y, float w, float h, const char *color)
{
    put(&D, "r %.1f %.1f %.1f %.1f %s\n", (double)x, (double)y, (double)w, (double)h, color);
}
void host_text(float x, float y, const char *color, const char *fmt, ...)
{
    char text[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    one_line(text);
    put(&D, "t %.1f %.1f %s %s\n", (double)x, (double)y, color, text);
}

/* ---- the page's calls */
WEB_API const char *web_title(void) { return sample_title(); }

WEB_API int web_start(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.history_frames = 120;
    d.wait_text = true;
    sample_desc(&d);
    S = corral_sched_create(&d);
    if (!S) return 0;
    sample_init(S);
    return 1;
}

WEB_API uint32_t web_frame(float dt)
{
    if (!S) return 0;
    sample_frame(S);
    return corral_tick(S, dt);
}

WEB_API const char *web_draw(void)
{
    D.at = 0;
    g_draw[0] = 0;
    if (S) sample_draw(S);
    return g_draw;
}

/* the log lines since the last call */
WEB_API const char *web_log(void)
{
    static char out[sizeof g_log];
    memcpy(out, g_log, Lg.at + 1);
    Lg.at = 0;
    g_log[0] = 0;
    return out;
}

WEB_API void web_action(int what)
{
    if (S) sample_action(S, what);
}
WEB_API void web_time_scale(float scale)
{
    if (S) corral_set_time_scale(S, scale);
}
WEB_API int web_pause(uint32_t index, uint32_t gen, int what) /* 0 pause, 1 resume, 2 one step */
{
    corral_handle h = {index, gen};
    if (!S) return 0;
    return what == 0 ? corral_pause(S, h) : what == 1 ? corral_resume(S, h) : corral_step_once(S, h);
}

/* the inspector: the library's JSON report (docs/PROFILING.md), in a
   buffer that grows to what the report says it needs */
WEB_API const char *web_inspect(void)
{
    static char *text;
    static size_t cap;
    if (!S) return "{}";
    for (;;) {
        corral_writer w = {.buf = text, .cap = cap};
        corral_report_json_to(S, &w);
        if (w.len < cap) return text;
        char *grown = realloc(text, w.len + 4096);
        if (!grown) return "{}";
        text = grown;
        cap = w.len + 4096;
    }
}
