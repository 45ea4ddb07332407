/*
    host.c -- the browser side of a sample: one scheduler, a frame per
    call, and JSON for the page: the shapes to draw, the new log lines, and
    the inspector (types, size classes, the arena over the last frames, the
    live coroutines with their fields, waits and file:line), all read
    through the public API. Built with each sample by tools/web.sh.
*/
#include "host.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define WEB_API EMSCRIPTEN_KEEPALIVE
#else
#define WEB_API
#endif

static corral_sched *S;

/* ---- a text buffer, cut at its end rather than overrun */
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
static void put_str(buf *b, const char *s) /* a JSON string */
{
    put(b, "\"");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') put(b, "\\%c", *p);
        else if (*p < 0x20) put(b, "\\u%04x", *p);
        else put(b, "%c", *p);
    }
    put(b, "\"");
}

static char g_draw[1 << 20], g_log[1 << 16], g_inspect[1 << 18];
static buf D = {g_draw, sizeof g_draw, 0}, Lg = {g_log, sizeof g_log, 0};
static unsigned g_shapes;

void host_log(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    put(&Lg, "%s", Lg.at ? "," : "");
    put_str(&Lg, line);
}
static void shape_head(void) { put(&D, "%s{", g_shapes++ ? "," : ""); }
void host_circle(float x, float y, float r, const char *color)
{
    shape_head();
    put(&D, "\"k\":\"c\",\"x\":%.1f,\"y\":%.1f,\"r\":%.1f,\"c\":", (double)x, (double)y, (double)r);
    put_str(&D, color);
    put(&D, "}");
}
void host_rect(float x, float y, float w, float h, const char *color)
{
    shape_head();
    put(&D, "\"k\":\"r\",\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f,\"c\":", (double)x, (double)y, (double)w,
        (double)h);
    put_str(&D, color);
    put(&D, "}");
}
void host_text(float x, float y, const char *color, const char *fmt, ...)
{
    char text[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    shape_head();
    put(&D, "\"k\":\"t\",\"x\":%.1f,\"y\":%.1f,\"c\":", (double)x, (double)y);
    put_str(&D, color);
    put(&D, ",\"s\":");
    put_str(&D, text);
    put(&D, "}");
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
    g_shapes = 0;
    put(&D, "[");
    if (S) sample_draw(S);
    put(&D, "]");
    return g_draw;
}

/* the log lines since the last call, as a JSON array */
WEB_API const char *web_log(void)
{
    static char out[sizeof g_log + 4];
    snprintf(out, sizeof out, "[%s]", g_log);
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

/* one field's value as a JSON string, as the library prints it */
static void put_field(buf *b, const corral_field *f, const unsigned char *p)
{
    char text[96];
    corral_field_text(S, f, p, text, sizeof text);
    put_str(b, text);
}

/* the inspector: what the panel shows, read through the public API */
WEB_API const char *web_inspect(int max_coroutines)
{
    buf b = {g_inspect, sizeof g_inspect, 0};
    if (!S) return "{}";
    corral_arena_stats a;
    corral_stats_arena(S, &a);
    put(&b, "{\"frame\":%" PRIu64 ",\"time\":%.4f,\"scale\":%.3g,\"live\":%u,\"live_peak\":%u,\"total_bytes\":%" PRIu64
            ",\"slot_bytes\":%" PRIu64 ",\"ctx_bytes\":%" PRIu64 ",\"types\":[",
        corral_frame(S), corral_time(S), (double)corral_time_scale(S), a.live, a.live_peak, a.total_bytes,
        a.slot_bytes, a.ctx_bytes);
    for (uint32_t i = 0; i < corral_type_count(S); i++) {
        corral_type_stats t;
        corral_stats_type(S, i, &t);
        put(&b, "%s{\"name\":", i ? "," : "");
        put_str(&b, t.name);
        put(&b, ",\"live\":%u,\"peak\":%u,\"started\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"slot\":%u}", t.live, t.peak,
            t.started, t.failed, t.slot_size);
    }
    put(&b, "],\"classes\":[");
    for (uint32_t i = 0; i < corral_class_count(S); i++) {
        corral_class_stats c;
        corral_stats_class(S, i, &c);
        put(&b, "%s{\"slot\":%u,\"used\":%u,\"peak\":%u,\"capacity\":%u}", i ? "," : "", c.slot_size, c.used, c.peak,
            c.capacity);
    }
    put(&b, "],\"history\":[");
    static corral_frame_sample hist[120];
    uint32_t n = corral_history(S, hist, 120);
    for (uint32_t k = 0; k < n; k++) put(&b, "%s%" PRIu64, k ? "," : "", hist[k].slot_bytes);
    put(&b, "],\"coroutines\":[");
    uint32_t cur = 0, shown = 0;
    corral_co_info in;
    while (corral_next_co(S, &cur, &in) && shown < (uint32_t)max_coroutines) {
        put(&b, "%s{\"index\":%u,\"gen\":%u,\"type\":", shown++ ? "," : "", in.handle.index, in.handle.gen);
        put_str(&b, in.type_name);
        put(&b, ",\"state\":");
        put_str(&b, corral_co_state_str(in.state));
        put(&b, ",\"wait\":");
        put_str(&b, in.call == CORRAL_CALL_RACE ? "race" : in.call == CORRAL_CALL_SYNC ? "sync"
                    : in.call == CORRAL_CALL_ONE ? "call" : corral_wait_kind_str(in.wait));
        put(&b, ",\"text\":");
        put_str(&b, in.wait_text);
        put(&b, ",\"left\":%.3f,\"file\":", in.left);
        const char *base = in.file ? in.file : "";
        for (const char *p = base; *p; p++)
            if (*p == '/') base = p + 1;
        put_str(&b, base);
        put(&b, ",\"line\":%u,\"fields\":{", in.line);
        uint32_t nf = 0;
        const corral_field *f = in.type->fields ? in.type->fields(&nf) : NULL;
        for (uint32_t k = 0; k < nf; k++) {
            put(&b, "%s", k ? "," : "");
            put_str(&b, f[k].name);
            put(&b, ":");
            put_field(&b, &f[k], (const unsigned char *)in.ctx + f[k].offset);
        }
        put(&b, "}}");
    }
    put(&b, "]}");
    return g_inspect;
}
