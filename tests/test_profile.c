/*
    test_profile.c -- profiling: counters under start, stop, pool failure
    and nesting; the frame history; timing with an injected clock; hooks;
    the inspector; the JSON, Chrome-trace and SVG exports (every JSON parsed
    by cJSON and checked value by value); the budget round trip.
*/
#include "common.h"

#include <cjson/cJSON.h>

/* ---- a fake clock: each step of `ticker` costs ctx->cost ns */
static uint64_t g_now;
static uint64_t fake_now(void *user)
{
    (void)user;
    return g_now;
}
#define TICKER_FIELDS(F) F(uint32_t, cost) F(int32_t, steps_left) F(float, speed) F(void *, target)
DECLARE_COROUTINE(ticker, TICKER_FIELDS)
DEFINE_COROUTINE(ticker)
{
    (void)co;
    g_now += ctx->cost;
    return --ctx->steps_left == 0 ? CORRAL_STOP : CORRAL_YIELD;
}

/* a child that runs k steps, and a caller of it */
#define KID_FIELDS(F) F(int, k)
DECLARE_COROUTINE(kid, KID_FIELDS)
DEFINE_COROUTINE(kid)
{
    (void)co;
    return --ctx->k <= 0 ? CORRAL_STOP : CORRAL_YIELD;
}
#define PARENT_FIELDS(F) F(int, k) F(int, called)
DECLARE_COROUTINE(parent, PARENT_FIELDS)
DEFINE_COROUTINE(parent)
{
    if (ctx->called) return CORRAL_STOP;
    ctx->called = 1;
    return kid_call(co, (kid_ctx){ctx->k}) ? CORRAL_YIELD : CORRAL_STOP;
}

static corral_sched_desc prof_desc(uint32_t cap)
{
    corral_sched_desc d = one_class_desc(64, cap);
    d.classes[1].slot_size = 128;
    d.classes[1].capacity = cap;
    d.history_frames = 8;
    d.timing = true;
    d.timing_sample = 1; /* every step timed: the tests below count each one */
    d.trace_steps = 16;
    d.clock.now_ns = fake_now;
    return d;
}

static char *to_text(void (*fn)(const corral_sched *, corral_writer *), const corral_sched *s, char *buf, size_t cap)
{
    corral_writer w = {.buf = buf, .cap = cap};
    fn(s, &w);
    cr_assert_lt(w.len, cap, "the output fits");
    return buf;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsNumber(v), "%s is a number", key);
    return v->valuedouble;
}

Test(profile, padding_peaks_and_failures_follow_start_stop_failure_and_nesting)
{
    corral_sched *s = sched_of(prof_desc(3));
    corral_handle a = ticker_start(s, (ticker_ctx){1, 100, 0, NULL});
    corral_handle b = parent_start(s, (parent_ctx){5, 0}); /* + its kid: 3 slots in class 0 */
    cr_assert_eq(ticker_start(s, (ticker_ctx){1, 100, 0, NULL}).gen, 0u, "class 0 is full");
    corral_class_stats c;
    corral_type_stats t;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.used, 3u);
    cr_assert_eq(c.peak, 3u);
    cr_assert_eq(c.failures, 1u);
    cr_assert_eq(c.ctx_bytes, sizeof(ticker_ctx) + sizeof(parent_ctx) + sizeof(kid_ctx));
    cr_assert_eq(c.padding_bytes, 3u * 64u - c.ctx_bytes);
    cr_assert_str_eq(c.name, "corral 64B");
    corral_stats_type_of(s, &ticker_type, &t);
    cr_assert_eq(t.padding, 64u - (uint32_t)sizeof(ticker_ctx));
    cr_assert_eq(t.padding_bytes, t.padding);
    cr_assert_eq(t.failed, 1u);
    corral_stats_type_of(s, &kid_type, &t);
    cr_assert_eq(t.live, 1u, "the nested child is counted as its own type");
    corral_stop(s, b); /* ends the kid too */
    corral_stop(s, a);
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.used, 0u);
    cr_assert_eq(c.ctx_bytes, 0u);
    cr_assert_eq(c.padding_bytes, 0u);
    cr_assert_eq(c.peak, 3u, "peaks stay");
    corral_stats_type_of(s, &kid_type, &t);
    cr_assert_eq(t.live, 0u);
    cr_assert_eq(t.peak, 1u);
    cr_assert_eq(t.padding_bytes, 0u);
    corral_sched_destroy(s);
}

Test(profile, the_frame_history_keeps_the_last_frames_oldest_first)
{
    corral_sched *s = sched_of(prof_desc(16));
    for (int i = 0; i < 4; i++) ticker_start(s, (ticker_ctx){10, 3 + i, 0, NULL}); /* end after 2..5 ticks */
    for (int f = 0; f < 11; f++) corral_tick(s, 0.25f);
    corral_frame_sample h[16];
    uint32_t n = corral_history(s, h, 16);
    cr_assert_eq(n, 8u, "the ring holds desc.history_frames");
    cr_assert_eq(h[0].frame, 4u, "frames 4..11");
    cr_assert_eq(h[7].frame, 11u);
    cr_assert_eq(h[7].live, 0u);
    /* frame 1: 4 live, each stepped once; ends at frames 2,3,4,5 */
    corral_frame_sample all[3];
    cr_assert_eq(corral_history(s, all, 3), 3u, "the newest 3");
    cr_assert_eq(all[2].frame, 11u);
    cr_assert_float_eq(h[0].time, 0.75, 1e-9, "unscaled time at the frame's start");
    cr_assert_float_eq(h[0].dt, 0.25f, 1e-9);
    cr_assert_eq(h[0].live, 1u, "after frame 4 only the 5-step ticker is left");
    cr_assert_eq(h[0].steps, 2u, "frame 4 stepped two tickers");
    cr_assert_eq(h[0].class_used[0], 1u);
    cr_assert_eq(h[0].slot_bytes, 64u);
    cr_assert_eq(h[0].type_live[0], 1u);
    cr_assert_eq(h[0].tick_ns, 20u, "two steps of 10 ns by the injected clock");
    corral_sched_destroy(s);
}

Test(profile, engines_driving_phases_get_a_sample_per_frame_too)
{
    corral_sched *s = sched_of(prof_desc(4));
    ticker_start(s, (ticker_ctx){1, 100, 0, NULL});
    for (int f = 0; f < 3; f++) {
        corral_frame_begin(s, 0.1f);
        corral_run_phase(s, CORRAL_PHASE_UPDATE);
    }
    corral_frame_sample h[8];
    cr_assert_eq(corral_history(s, h, 8), 2u, "frames 1 and 2 closed; frame 3 is still open");
    cr_assert_eq(h[1].frame, 2u);
    cr_assert_eq(h[1].steps, 1u);
    corral_sched_destroy(s);
}

Test(profile, timing_counts_steps_total_and_max_per_type_and_tick_times)
{
    corral_sched *s = sched_of(prof_desc(8));
    ticker_start(s, (ticker_ctx){100, 3, 0, NULL});
    ticker_start(s, (ticker_ctx){700, 2, 0, NULL});
    g_now = 0;
    corral_tick(s, 0.1f);
    corral_tick(s, 0.1f);
    corral_type_stats t;
    corral_stats_type_of(s, &ticker_type, &t);
    cr_assert_eq(t.steps, 5u, "2 first steps + 2 + 1");
    cr_assert_eq(t.step_ns, 3u * 100u + 2u * 700u);
    cr_assert_eq(t.step_ns_max, 700u);
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    cr_assert_eq(a.tick_ns_last, 100u);
    cr_assert_eq(a.tick_ns_max, 800u);
    cr_assert_eq(a.tick_ns_total, 900u);
    corral_sched_destroy(s);
}

Test(profile, timing_sample_times_one_step_in_n_and_counts_them_all)
{
    corral_sched_desc d = prof_desc(8);
    d.timing_sample = 3; /* rounds up to 4 */
    corral_sched *s = sched_of(d);
    ticker_start(s, (ticker_ctx){100, 12, 0, NULL}); /* timed: the first step, then every 4th */
    g_now = 0;
    for (int f = 0; f < 11; f++) corral_tick(s, 0.1f);
    corral_type_stats t;
    corral_stats_type_of(s, &ticker_type, &t);
    cr_assert_eq(t.steps, 12u, "every step is counted");
    cr_assert_eq(t.steps_timed, 3u, "steps 1, 5 and 9 are timed");
    cr_assert_eq(t.step_ns, 300u, "the time of the timed ones");
    cr_assert_eq(t.step_ns_max, 100u);
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    cr_assert_eq(a.tick_ns_total, 1100u, "ticks are timed whole, whatever is sampled");
    corral_sched_destroy(s);
}

Test(profile, timing_sample_defaults_to_one_step_in_32)
{
    corral_sched_desc d = prof_desc(8);
    d.timing_sample = 0;
    corral_sched *s = sched_of(d);
    ticker_start(s, (ticker_ctx){100, 70, 0, NULL});
    parent_start(s, (parent_ctx){0, 1}); /* one step of another type: timed, as its type's first */
    for (int f = 0; f < 69; f++) corral_tick(s, 0.1f);
    corral_type_stats t;
    corral_stats_type_of(s, &ticker_type, &t);
    cr_assert_eq(t.steps, 70u);
    cr_assert_eq(t.steps_timed, 3u, "steps 1, 33 and 65");
    corral_stats_type_of(s, &parent_type, &t);
    cr_assert_eq(t.steps, 1u);
    cr_assert_eq(t.steps_timed, 1u, "every type's first step is timed");
    corral_sched_destroy(s);
}

Test(profile, with_timing_off_nothing_is_timed)
{
    corral_sched_desc d = prof_desc(8);
    d.timing = false;
    corral_sched *s = sched_of(d);
    ticker_start(s, (ticker_ctx){100, 3, 0, NULL});
    corral_tick(s, 0.1f);
    corral_type_stats t;
    corral_stats_type_of(s, &ticker_type, &t);
    cr_assert_eq(t.steps, 0u);
    cr_assert_eq(t.step_ns, 0u);
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    cr_assert_eq(a.tick_ns_total, 0u);
    corral_sched_destroy(s);
}

/* ---- hooks */
typedef struct hook_log {
    int begins, ends, allocs, frees;
    long bytes;
    char last_type[32], last_pool[32];
} hook_log;
static void h_begin(const char *type, corral_handle h, void *u)
{
    hook_log *l = (hook_log *)u;
    (void)h;
    l->begins++;
    snprintf(l->last_type, sizeof l->last_type, "%s", type);
}
static void h_end(const char *type, corral_handle h, void *u)
{
    (void)type;
    (void)h;
    ((hook_log *)u)->ends++;
}
static void h_alloc(const char *pool, const void *p, size_t size, void *u)
{
    hook_log *l = (hook_log *)u;
    (void)p;
    l->allocs++;
    l->bytes += (long)size;
    snprintf(l->last_pool, sizeof l->last_pool, "%s", pool);
}
static void h_free(const char *pool, const void *p, size_t size, void *u)
{
    hook_log *l = (hook_log *)u;
    (void)pool;
    (void)p;
    l->frees++;
    l->bytes -= (long)size;
}

Test(profile, hooks_bracket_every_step_and_report_every_slot_taken_and_freed)
{
    hook_log log = {0};
    corral_sched_desc d = prof_desc(8);
    d.timing = false;
    d.hooks = (corral_hooks){h_begin, h_end, h_alloc, h_free, &log};
    corral_sched *s = sched_of(d);
    parent_start(s, (parent_ctx){3, 0}); /* parent + kid */
    ticker_start(s, (ticker_ctx){1, 2, 0, NULL});
    cr_assert_eq(log.allocs, 3);
    cr_assert_str_eq(log.last_pool, "corral 64B");
    for (int i = 0; i < 4; i++) corral_tick(s, 0.1f);
    cr_assert_eq(log.begins, log.ends);
    cr_assert_eq(log.begins, 1 + 3 + 1 + 2, "parent twice, kid three times, ticker twice... and its first step");
    cr_assert_eq(log.frees, 3);
    cr_assert_eq(log.bytes, 0, "every byte taken was given back");
    corral_sched_destroy(s);
}

/* ---- inspector */
static bool fmt_other(const corral_field *f, const void *v, char *buf, size_t cap, void *u)
{
    (void)v;
    (void)u;
    snprintf(buf, cap, "<%s>", f->type_name);
    return true;
}
typedef struct vec2 {
    float x, y;
} vec2;
#define WALKER_FIELDS(F) F(int, hp) F(float, speed) F(bool, alive) F(vec2, pos) F(const char *, name)
DECLARE_COROUTINE(walker, WALKER_FIELDS)
DEFINE_COROUTINE(walker)
{
    return corral_await(co, corral_wait_seconds(10.0f)) ? CORRAL_YIELD : CORRAL_STOP;
}

Test(profile, the_inspector_lists_live_coroutines_with_state_groups_age_and_links)
{
    corral_sched_desc d = prof_desc(8);
    d.field_formatter.fn = fmt_other;
    corral_sched *s = sched_of(d);
    corral_tick(s, 0.1f);
    corral_start_desc o = {.phase = CORRAL_PHASE_DEFAULT, .owner = 42, .tags = 0x5};
    corral_handle w = walker_start_ex(s, (walker_ctx){7, 2.5f, true, {1, 2}, "bob"}, &o);
    corral_handle p = parent_start(s, (parent_ctx){9, 0});
    corral_handle q = ticker_start(s, (ticker_ctx){1, 100, 0, NULL});
    corral_pause(s, q);
    corral_tick(s, 0.1f);
    corral_tick(s, 0.1f);
    uint32_t cur = 0, n = 0;
    corral_co_info in;
    bool saw_kid = false;
    while (corral_next_co(s, &cur, &in)) {
        n++;
        if (in.handle.index == w.index) {
            cr_assert_eq(in.state, CORRAL_CO_WAITING);
            cr_assert_eq(in.wait, CORRAL_WAIT_SECONDS);
            cr_assert_eq(in.owner, 42u);
            cr_assert_eq(in.tags, 0x5u);
            cr_assert_eq(in.age_frames, 2u);
            cr_assert_str_eq(in.type_name, "walker");
        } else if (in.handle.index == p.index) {
            cr_assert_eq(in.state, CORRAL_CO_CALLING);
            cr_assert_neq(in.child.gen, 0u);
        } else if (in.handle.index == q.index) {
            cr_assert_eq(in.state, CORRAL_CO_PAUSED);
        } else {
            cr_assert_str_eq(in.type_name, "kid");
            cr_assert_eq(in.parent.index, p.index);
            cr_assert_eq(in.state, CORRAL_CO_QUEUED);
            saw_kid = true;
        }
    }
    cr_assert_eq(n, 4u);
    cr_assert(saw_kid);
    char buf[4096];
    cr_assert(corral_print_co_to(s, w, &(corral_writer){.buf = buf, .cap = sizeof buf}));
    cr_assert(strstr(buf, "walker 0x") != NULL, "%s", buf);
    cr_assert(strstr(buf, "waiting (seconds)") != NULL, "%s", buf);
    cr_assert(strstr(buf, "owner 42") != NULL, "%s", buf);
    cr_assert(strstr(buf, "hp") && strstr(buf, "= 7\n"), "%s", buf);
    cr_assert(strstr(buf, "= 2.5\n") != NULL, "%s", buf);
    cr_assert(strstr(buf, "= true\n") != NULL, "%s", buf);
    cr_assert(strstr(buf, "= <vec2>\n") != NULL, "the formatter prints other types: %s", buf);
    cr_assert(strstr(buf, "name") && strstr(buf, "= 0x"), "pointers print as addresses: %s", buf);
    to_text(corral_dump_to, s, buf, sizeof buf);
    cr_assert(strstr(buf, "4 live coroutines") != NULL, "%s", buf);
    cr_assert(strstr(buf, "kid 0x") && strstr(buf, "parent 0x") && strstr(buf, "ticker 0x"), "%s", buf);
    corral_sched_destroy(s);
}

/* ---- exports */
static corral_sched *busy_sched(void)
{
    corral_sched *s = sched_of(prof_desc(8));
    g_now = 1000000;
    for (int i = 0; i < 3; i++) ticker_start(s, (ticker_ctx){50, 2 + i, 0, NULL});
    parent_start(s, (parent_ctx){2, 0});
    corral_future fu = corral_future_create(s);
    (void)fu;
    for (int f = 0; f < 5; f++) corral_tick(s, 1.0f / 64.0f);
    return s;
}

Test(profile, the_json_report_parses_and_carries_the_counters)
{
    corral_sched *s = busy_sched();
    static char buf[1 << 16];
    to_text(corral_report_json_to, s, buf, sizeof buf);
    cJSON *j = cJSON_Parse(buf);
    cr_assert_not_null(j, "valid JSON:\n%s", buf);
    cr_assert_eq(num(j, "corral_report"), 1.0);
    cr_assert_eq(num(j, "frame"), 5.0);
    const cJSON *arena = cJSON_GetObjectItemCaseSensitive(j, "arena");
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    cr_assert_eq(num(arena, "live_peak"), (double)a.live_peak);
    cr_assert_eq(num(arena, "slot_bytes_peak"), (double)a.slot_bytes_peak);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(arena, "timing")));
    const cJSON *fut = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "pools"), "futures");
    cr_assert_eq(num(fut, "used"), 1.0);
    cr_assert_eq(num(fut, "capacity"), 64.0);
    const cJSON *classes = cJSON_GetObjectItemCaseSensitive(j, "classes");
    cr_assert_eq(cJSON_GetArraySize(classes), 2);
    const cJSON *c0 = cJSON_GetArrayItem(classes, 0);
    cr_assert_eq(num(c0, "slot_size"), 64.0);
    cr_assert_eq(num(c0, "peak"), 5.0, "3 tickers, a parent and its kid");
    cr_assert_eq(num(c0, "headroom"), 3.0);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(c0, "name")->valuestring, "corral 64B");
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(j, "types");
    const cJSON *t0 = cJSON_GetArrayItem(types, 0);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(t0, "name")->valuestring, "ticker");
    cr_assert_eq(num(t0, "started"), 3.0);
    cr_assert_eq(num(t0, "finished"), 3.0);
    cr_assert_eq(num(t0, "steps"), 9.0, "2 + 3 + 4 steps");
    cr_assert_eq(num(t0, "step_ns"), 450.0);
    const cJSON *hist = cJSON_GetObjectItemCaseSensitive(j, "history");
    cr_assert_eq(cJSON_GetArraySize(hist), 5);
    const cJSON *h0 = cJSON_GetArrayItem(hist, 0);
    cr_assert_eq(num(h0, "frame"), 1.0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(h0, "class_used")), 2);
    cJSON_Delete(j);
    corral_sched_destroy(s);
}

Test(profile, the_chrome_trace_parses_with_frame_slices_counters_and_step_slices)
{
    corral_sched *s = busy_sched();
    static char buf[1 << 17];
    to_text(corral_trace_json_to, s, buf, sizeof buf);
    cJSON *j = cJSON_Parse(buf);
    cr_assert_not_null(j, "valid JSON:\n%s", buf);
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(j, "traceEvents");
    cr_assert(cJSON_IsArray(ev));
    int frames = 0, arena = 0, live = 0, steps = 0;
    double last_frame_ts = -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, ev)
    {
        const char *ph = cJSON_GetObjectItemCaseSensitive(e, "ph")->valuestring;
        const char *name = cJSON_GetObjectItemCaseSensitive(e, "name")->valuestring;
        if (!strcmp(ph, "X") && cJSON_GetObjectItemCaseSensitive(e, "tid")->valueint == 1) {
            frames++;
            cr_assert_geq(num(e, "ts"), last_frame_ts, "frames in order, none overlapping the last");
            cr_assert_geq(num(e, "dur"), 0.0);
            last_frame_ts = num(e, "ts") + num(e, "dur");
        } else if (!strcmp(ph, "C") && !strcmp(name, "arena bytes")) {
            arena++;
            const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
            cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(args, "corral 64B")));
            cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(args, "corral 128B")));
        } else if (!strcmp(ph, "C") && !strcmp(name, "live coroutines")) {
            live++;
            cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "args"), "ticker")));
        } else if (!strcmp(ph, "X")) {
            steps++;
            cr_assert_eq(cJSON_GetObjectItemCaseSensitive(e, "tid")->valueint, 2);
            if (!strcmp(name, "ticker")) cr_assert_float_eq(num(e, "dur"), 0.05, 1e-9, "50 ns = 0.05 us");
        }
    }
    cr_assert_eq(frames, 5);
    cr_assert_eq(arena, 5);
    cr_assert_eq(live, 5);
    cr_assert_eq(steps, 13, "every step: tickers 2 + 3 + 4, the parent 2, its kid 2 (fewer than the ring's 16)");
    cJSON_Delete(j);
    corral_sched_destroy(s);
}

Test(profile, the_svg_chart_draws_a_line_per_used_class)
{
    corral_sched *s = busy_sched();
    static char buf[1 << 16];
    to_text(corral_history_svg_to, s, buf, sizeof buf);
    cr_assert_eq(strncmp(buf, "<svg ", 5), 0);
    cr_assert(strstr(buf, "</svg>\n") != NULL);
    int lines = 0;
    for (const char *p = buf; (p = strstr(p, "<polyline")) != NULL; p++) lines++;
    cr_assert_eq(lines, 1, "only the 64-byte class was used");
    cr_assert(strstr(buf, "corral 64B (peak 5 of 8)") != NULL);
    corral_sched_destroy(s);
}

/* ---- budgets: profile, emit, rebuild with the emitted sizes, rerun */
static corral_signal g_go;
#define WAVE_FIELDS(F) F(int, n)
DECLARE_COROUTINE(wave, WAVE_FIELDS)
DEFINE_COROUTINE(wave)
{
    if (ctx->n-- <= 0) return CORRAL_STOP;
    return corral_await(co, corral_wait_signal(g_go)) ? CORRAL_YIELD : CORRAL_STOP;
}

static uint64_t run_workload(corral_sched *s)
{
    uint64_t failures = 0;
    g_go = corral_signal_create(s);
    for (int i = 0; i < 3; i++)
        if (!corral_future_create(s).gen) failures++; /* futures the game keeps */
    for (int frame = 0; frame < 60; frame++) {
        int spawn = frame < 30 ? frame % 7 : 2;
        for (int i = 0; i < spawn; i++) {
            corral_start_desc o = {.phase = CORRAL_PHASE_DEFAULT, .owner = (uint64_t)(1 + i % 3), .tags = 1u << (i % 2)};
            if (!wave_start_ex(s, (wave_ctx){3 + i}, &o).gen) failures++;
            if (i % 3 == 0 && !ticker_start(s, (ticker_ctx){1, 4, 0, NULL}).gen) failures++;
            if (i == 2 && !walker_start(s, (walker_ctx){0}).gen) failures++;
        }
        corral_signal_raise(s, g_go);
        corral_tick(s, 1.0f / 30.0f);
    }
    corral_pool_stats p;
    corral_stats_pools(s, &p);
    for (uint32_t i = 0; i < corral_class_count(s); i++) {
        corral_class_stats c;
        corral_stats_class(s, i, &c);
        failures += c.failures;
    }
    return failures + p.wait_failures + p.group_failures + p.side_failures + p.signal_failures + p.future_failures;
}

Test(profile, an_emitted_desc_ships_exact_pool_sizes_that_rerun_without_failure)
{
    corral_sched *s = sched_of((corral_sched_desc){0}); /* development: defaults, generous */
    cr_assert_eq(run_workload(s), 0u);
    static char buf[8192];
    corral_emit_desc_to(s, 0.0f, &(corral_writer){.buf = buf, .cap = sizeof buf}); /* exactly the peaks */
    corral_sched_destroy(s);

    /* parse what a programmer would paste */
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    uint32_t n = 0;
    for (const char *p = buf; (p = strstr(p, "{ .slot_size = ")) != NULL; p++, n++)
        cr_assert_eq(sscanf(p, "{ .slot_size = %u, .capacity = %u }", &d.classes[n].slot_size, &d.classes[n].capacity),
                     2);
    cr_assert_eq(n, 9u, "every default class, used or not");
    cr_assert_eq(sscanf(strstr(buf, ".max_types = "), ".max_types = %u", &d.max_types), 1);
    cr_assert_eq(sscanf(strstr(buf, ".max_wait_nodes = "), ".max_wait_nodes = %u", &d.max_wait_nodes), 1);
    cr_assert_eq(sscanf(strstr(buf, ".max_group_nodes = "), ".max_group_nodes = %u", &d.max_group_nodes), 1);
    cr_assert_eq(sscanf(strstr(buf, ".max_side_records = "), ".max_side_records = %u", &d.max_side_records), 1);
    cr_assert_eq(sscanf(strstr(buf, ".max_signals = "), ".max_signals = %u", &d.max_signals), 1);
    cr_assert_eq(sscanf(strstr(buf, ".max_futures = "), ".max_futures = %u", &d.max_futures), 1);
    cr_assert_eq(d.max_signals, 1u);
    cr_assert_eq(d.max_futures, 3u);
    cr_assert_eq(d.max_types, 3u);

    cr_assert_eq(d.max_side_records * 2u, d.max_group_nodes, "a record for each coroutine with an owner and a tag");
    corral_sched *shipped = sched_of(d);
    cr_assert_eq(run_workload(shipped), 0u, "the shipped sizes hold the same workload");
    corral_pool_stats ps;
    cr_assert(corral_stats_pools(shipped, &ps));
    cr_assert_eq(ps.side_records_peak, ps.side_records_capacity, "the side records exactly as many as their peak");
    for (uint32_t i = 0; i < corral_class_count(shipped); i++) {
        corral_class_stats c;
        corral_stats_class(shipped, i, &c);
        cr_assert_eq(c.peak, c.capacity, "class %u is exactly as large as its peak", i);
    }
    corral_arena_stats a;
    corral_stats_arena(shipped, &a);
    cr_assert_lt(a.total_bytes, 64u * 1024u, "and much smaller than the default arena");
    corral_sched_destroy(shipped);

    /* one less slot in the busiest class, and the workload fails: exact */
    uint32_t busiest = 0;
    for (uint32_t i = 1; i < n; i++) busiest = d.classes[i].capacity > d.classes[busiest].capacity ? i : busiest;
    d.classes[busiest].capacity--;
    corral_sched *tight = sched_of(d);
    cr_assert_gt(run_workload(tight), 0u);
    corral_sched_destroy(tight);
}

Test(profile, headroom_scales_the_peaks_up)
{
    corral_sched *s = sched_of((corral_sched_desc){0});
    run_workload(s);
    corral_sched_desc d0, d25;
    cr_assert(corral_budget_desc(s, 0.0f, &d0));
    cr_assert(corral_budget_desc(s, 0.25f, &d25));
    for (int i = 0; i < 8; i++) {
        uint32_t want = d0.classes[i].capacity + (d0.classes[i].capacity + 3) / 4; /* ceil(p * 1.25) */
        cr_assert_eq(d25.classes[i].capacity, want, "class %d: %u -> %u", i, d0.classes[i].capacity,
                     d25.classes[i].capacity);
    }
    corral_sched_destroy(s);
}

Test(profile, profiling_never_calls_the_allocator_after_create)
{
    alloc_counter ac = {0};
    corral_sched_desc d = prof_desc(8);
    d.allocator = (corral_allocator){counting_alloc, counting_free, &ac};
    hook_log log = {0};
    d.hooks = (corral_hooks){h_begin, h_end, h_alloc, h_free, &log};
    corral_sched *s = sched_of(d);
    cr_assert_eq(ac.allocs, 1);
    for (int r = 0; r < 200; r++) {
        ticker_start(s, (ticker_ctx){3, 2, 0, NULL});
        parent_start(s, (parent_ctx){2, 0});
        corral_tick(s, 0.01f);
    }
    cr_assert_eq(ac.allocs, 1, "history, timing, the trace ring and hooks live in the arena");
    corral_sched_destroy(s);
}

Test(profile, the_step_trace_keeps_only_the_last_trace_steps)
{
    corral_sched_desc d = prof_desc(8);
    d.trace_steps = 4;
    corral_sched *s = sched_of(d);
    g_now = 0;
    ticker_start(s, (ticker_ctx){10, 6, 0, NULL});
    for (int i = 0; i < 5; i++) corral_tick(s, 0.1f); /* 6 steps in all */
    static char buf[1 << 15];
    to_text(corral_trace_json_to, s, buf, sizeof buf);
    cJSON *j = cJSON_Parse(buf);
    cr_assert_not_null(j);
    int steps = 0;
    double first_ts = -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "traceEvents"))
    {
        const cJSON *tid = cJSON_GetObjectItemCaseSensitive(e, "tid");
        if (strcmp(cJSON_GetObjectItemCaseSensitive(e, "ph")->valuestring, "X") || !tid || tid->valueint != 2) continue;
        if (steps++ == 0) first_ts = num(e, "ts");
        cr_assert_float_eq(num(e, "dur"), 0.01, 1e-9, "10 ns each");
    }
    cr_assert_eq(steps, 4, "6 steps ran; the ring keeps the last 4");
    cr_assert_float_eq(first_ts, 0.01, 1e-9, "the 3rd step started at 20 ns; frame 1, the first event (t = 0), at 10");
    cJSON_Delete(j);
    corral_sched_destroy(s);
}

static corral_result await_go(corral_co *co, actor_ctx *ctx)
{
    (void)ctx;
    return corral_await(co, corral_wait_signal(g_go)) ? CORRAL_YIELD : CORRAL_STOP;
}

Test(profile, pool_counters_follow_use_peaks_and_failures)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.max_signals = 1;
    d.max_futures = 2;
    d.max_wait_nodes = 2;
    d.max_group_nodes = 1;
    corral_sched *s = sched_of(d);
    g_go = corral_signal_create(s);
    cr_assert_eq(corral_signal_create(s).gen, 0u);
    corral_future f = corral_future_create(s);
    corral_future_create(s);
    cr_assert_eq(corral_future_create(s).gen, 0u);
    corral_future_release(s, f);
    for (int i = 0; i < 3; i++) actor_start(s, (actor_ctx){.fn = await_go, .id = i}); /* the 3rd finds no node */
    corral_start_desc o = {.phase = CORRAL_PHASE_DEFAULT, .owner = 7, .tags = 0x1}; /* needs 2 group nodes, 1 exists */
    cr_assert_eq(start_tracer(s, 9, 0).gen != 0, true);
    cr_assert_eq(tracer_start_ex(s, (tracer_ctx){9, 0, 0}, &o).gen, 0u);
    corral_pool_stats p;
    cr_assert(corral_stats_pools(s, &p));
    cr_assert_eq(p.signals, 1u);
    cr_assert_eq(p.signals_peak, 1u);
    cr_assert_eq(p.signal_failures, 1u);
    cr_assert_eq(p.futures, 1u);
    cr_assert_eq(p.futures_peak, 2u);
    cr_assert_eq(p.future_failures, 1u);
    cr_assert_eq(p.wait_nodes, 2u);
    cr_assert_eq(p.wait_nodes_peak, 2u);
    cr_assert_eq(p.wait_failures, 1u);
    cr_assert_eq(p.group_nodes_capacity, 1u);
    cr_assert_eq(p.group_failures, 1u);
    corral_signal_raise(s, g_go);
    corral_tick(s, 0.f);
    cr_assert(corral_stats_pools(s, &p));
    cr_assert_eq(p.wait_nodes, 2u, "the two waiters woke, stepped, and wait again");
    cr_assert_eq(p.wait_nodes_peak, 2u);
    corral_sched_destroy(s);
}

/* ---- the outputs' targets: a FILE, a buffer, a callback */

typedef struct pieces {
    char text[1 << 16];
    size_t len;
    unsigned calls, longest;
} pieces;
static void collect(void *user, const char *text, size_t len)
{
    pieces *p = user;
    cr_assert_leq(len, (size_t)CORRAL_WRITER_PIECE, "a piece is at most CORRAL_WRITER_PIECE bytes");
    cr_assert_lt(p->len + len, sizeof p->text);
    memcpy(p->text + p->len, text, len);
    p->len += len;
    p->text[p->len] = 0;
    p->calls++;
    if (len > p->longest) p->longest = (unsigned)len;
}

/* one output by each target; every one the same bytes */
typedef struct output {
    const char *name;
    void (*file)(corral_sched *s, corral_handle h, FILE *f);
    void (*to)(corral_sched *s, corral_handle h, corral_writer *w);
} output;
static void o_text(corral_sched *s, corral_handle h, FILE *f) { (void)h, corral_report_text(s, f); }
static void o_text_to(corral_sched *s, corral_handle h, corral_writer *w) { (void)h, corral_report_text_to(s, w); }
static void o_json(corral_sched *s, corral_handle h, FILE *f) { (void)h, corral_report_json(s, f); }
static void o_json_to(corral_sched *s, corral_handle h, corral_writer *w) { (void)h, corral_report_json_to(s, w); }
static void o_trace(corral_sched *s, corral_handle h, FILE *f) { (void)h, corral_trace_json(s, f); }
static void o_trace_to(corral_sched *s, corral_handle h, corral_writer *w) { (void)h, corral_trace_json_to(s, w); }
static void o_svg(corral_sched *s, corral_handle h, FILE *f) { (void)h, corral_history_svg(s, f); }
static void o_svg_to(corral_sched *s, corral_handle h, corral_writer *w) { (void)h, corral_history_svg_to(s, w); }
static void o_desc(corral_sched *s, corral_handle h, FILE *f) { (void)h, corral_emit_desc(s, 0.25f, f); }
static void o_desc_to(corral_sched *s, corral_handle h, corral_writer *w) { (void)h, corral_emit_desc_to(s, 0.25f, w); }
static void o_dump(corral_sched *s, corral_handle h, FILE *f) { (void)h, corral_dump(s, f); }
static void o_dump_to(corral_sched *s, corral_handle h, corral_writer *w) { (void)h, corral_dump_to(s, w); }
static void o_co(corral_sched *s, corral_handle h, FILE *f) { cr_assert(corral_print_co(s, h, f)); }
static void o_co_to(corral_sched *s, corral_handle h, corral_writer *w) { cr_assert(corral_print_co_to(s, h, w)); }
static void o_chain(corral_sched *s, corral_handle h, FILE *f) { cr_assert(corral_print_chain(s, h, f)); }
static void o_chain_to(corral_sched *s, corral_handle h, corral_writer *w) { cr_assert(corral_print_chain_to(s, h, w)); }
static const output g_outputs[] = {
    {"report_text", o_text, o_text_to}, {"report_json", o_json, o_json_to}, {"trace_json", o_trace, o_trace_to},
    {"history_svg", o_svg, o_svg_to},   {"emit_desc", o_desc, o_desc_to},   {"dump", o_dump, o_dump_to},
    {"print_co", o_co, o_co_to},        {"print_chain", o_chain, o_chain_to},
};

static corral_sched *written_sched(corral_handle *parent)
{
    corral_sched_desc d = prof_desc(16);
    d.wait_text = true;
    corral_sched *s = sched_of(d);
    for (int i = 0; i < 3; i++) ticker_start(s, (ticker_ctx){.cost = 100, .steps_left = 50});
    *parent = parent_start(s, (parent_ctx){.k = 20});
    for (int f = 0; f < 5; f++) corral_tick(s, 0.016f);
    return s;
}

Test(profile, every_output_writes_the_same_bytes_to_a_file_a_buffer_and_a_callback)
{
    corral_handle h;
    corral_sched *s = written_sched(&h);
    static char from_file[1 << 16], from_buf[1 << 16];
    static pieces p;
    for (size_t i = 0; i < sizeof g_outputs / sizeof g_outputs[0]; i++) {
        const output *o = &g_outputs[i];
        FILE *f = tmpfile();
        cr_assert_not_null(f);
        o->file(s, h, f);
        long n = ftell(f);
        cr_assert_gt(n, 0, "%s wrote something", o->name);
        cr_assert_lt((size_t)n, sizeof from_file);
        rewind(f);
        cr_assert_eq(fread(from_file, 1, (size_t)n, f), (size_t)n);
        from_file[n] = 0;
        fclose(f);

        corral_writer w = {.buf = from_buf, .cap = sizeof from_buf};
        o->to(s, h, &w);
        cr_assert_eq(w.len, (size_t)n, "%s: the buffer's len is the file's length", o->name);
        cr_assert_str_eq(from_buf, from_file, "%s: a buffer holds what a file does", o->name);

        memset(&p, 0, sizeof p);
        corral_writer cb = {.fn = collect, .user = &p};
        o->to(s, h, &cb);
        cr_assert_eq(cb.len, (size_t)n, "%s: a callback writer counts every byte", o->name);
        cr_assert_str_eq(p.text, from_file, "%s: the pieces, in order, are what a file holds", o->name);

        corral_writer count = {0};
        o->to(s, h, &count);
        cr_assert_eq(count.len, (size_t)n, "%s: a zeroed writer only counts", o->name);
    }
    corral_sched_destroy(s);
}

Test(profile, a_buffer_too_small_is_cut_terminated_and_says_how_much_was_needed)
{
    corral_handle h;
    corral_sched *s = written_sched(&h);
    static char whole[1 << 16];
    corral_writer all = {.buf = whole, .cap = sizeof whole};
    corral_report_json_to(s, &all);
    cr_assert_gt(all.len, 100u);

    char small[17];
    memset(small, 'x', sizeof small);
    corral_writer w = {.buf = small, .cap = 16};
    corral_report_json_to(s, &w);
    cr_assert_eq(w.len, all.len, "len is what the output needed");
    cr_assert_eq(small[15], 0, "cut at cap - 1 and terminated");
    cr_assert_eq(small[16], 'x', "nothing written past cap");
    cr_assert_eq(strncmp(small, whole, 15), 0);

    /* appending after what is there; a full buffer takes nothing more */
    char two[64] = "head:";
    corral_writer a = {.buf = two, .cap = sizeof two, .len = 5};
    corral_history_svg_to(s, &a);
    cr_assert_eq(strncmp(two, "head:<", 6), 0, "%s", two);
    cr_assert_eq(strlen(two), sizeof two - 1);
    size_t before = a.len;
    corral_dump_to(s, &a);
    cr_assert_gt(a.len, before, "a full buffer still counts");
    cr_assert_eq(strlen(two), sizeof two - 1);

    /* an output with nothing to say leaves "" (a zero-length buffer: untouched) */
    char none[4] = "abc";
    corral_writer z = {.buf = none, .cap = 0};
    corral_report_text_to(s, &z);
    cr_assert_str_eq(none, "abc");
    corral_sched_destroy(s);
}

Test(profile, a_null_writer_is_refused_with_null_arg)
{
    corral_handle h;
    corral_sched *s = written_sched(&h);
    corral_report_text_to(s, NULL);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    cr_assert(!corral_print_chain_to(s, h, NULL));
    cr_assert(!corral_print_co_to(s, h, NULL));
    corral_emit_desc_to(s, 0.0f, NULL);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    cr_assert(!corral_print_chain(s, h, NULL), "the FILE forms too");
    corral_sched_destroy(s);
}

Test(profile, a_buffer_or_a_zeroed_writer_counts_a_piece_longer_than_a_callbacks_every_byte)
{
    /* a type named with 1500 characters: the text report's row for it is
       one formatted piece past CORRAL_WRITER_PIECE */
    static char name[1501];
    memset(name, 'n', sizeof name - 1);
    corral_type long_named = ticker_type;
    long_named.name = name;
    corral_sched *s = sched_of(prof_desc(8));
    ticker_ctx c = {.cost = 1, .steps_left = 100};
    cr_assert(corral_start(s, &long_named, &c, sizeof c).gen);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    corral_report_text(s, f);
    long n = ftell(f);
    fclose(f);
    cr_assert_gt(n, 1500);
    corral_writer count = {0};
    corral_report_text_to(s, &count);
    cr_assert_eq(count.len, (size_t)n, "a zeroed writer measures the whole output");
    char small[64];
    corral_writer cut = {.buf = small, .cap = sizeof small};
    corral_report_text_to(s, &cut);
    cr_assert_eq(cut.len, (size_t)n, "a buffer too small says what the whole needed");
    corral_sched_destroy(s);
}

/* ---- the desc to ship: sized, carried, or named (API.md, "Budgets: the desc to ship") */

/* Every field of corral_sched_desc, in order, with what the sizing helpers
   do with it. A field added to the desc and not to this table fails
   a_budget_desc_accounts_for_every_field_of_the_desc. */
typedef enum desc_rule { SIZED, CARRIED, NAMED, UNUSED } desc_rule;
typedef struct desc_field {
    const char *name;
    size_t offset, size, align;
    desc_rule rule;
} desc_field;
#define DESC_FIELD(name, type, rule) \
    {#name, offsetof(corral_sched_desc, name), sizeof(type), _Alignof(type), rule}
static const desc_field g_desc_fields[] = {
    DESC_FIELD(memory, void *, NAMED),
    DESC_FIELD(memory_size, size_t, NAMED),
    DESC_FIELD(allocator, corral_allocator, NAMED),
    DESC_FIELD(logger, corral_logger, NAMED),
    DESC_FIELD(classes, corral_class_desc[CORRAL_MAX_CLASSES], SIZED),
    DESC_FIELD(default_capacity, uint32_t, UNUSED), /* the classes are given */
    DESC_FIELD(registry, const corral_registry *, NAMED),
    DESC_FIELD(max_types, uint32_t, SIZED),
    DESC_FIELD(order, corral_order, CARRIED),
    DESC_FIELD(fixed_dt, float, CARRIED),
    DESC_FIELD(max_fixed_steps, uint32_t, CARRIED),
    DESC_FIELD(max_wait_nodes, uint32_t, SIZED),
    DESC_FIELD(max_sleepers, uint32_t, SIZED),
    DESC_FIELD(max_signals, uint32_t, SIZED),
    DESC_FIELD(max_futures, uint32_t, SIZED),
    DESC_FIELD(max_posts, uint32_t, CARRIED),
    DESC_FIELD(max_group_nodes, uint32_t, SIZED),
    DESC_FIELD(domains, uint32_t, CARRIED),
    DESC_FIELD(custom_phases, uint32_t, CARRIED),
    DESC_FIELD(max_channels, uint32_t, SIZED),
    DESC_FIELD(channel_bytes, uint32_t, CARRIED),
    DESC_FIELD(max_semaphores, uint32_t, SIZED),
    DESC_FIELD(max_waitgroups, uint32_t, SIZED),
    DESC_FIELD(max_side_records, uint32_t, SIZED),
    DESC_FIELD(kept_snapshots, uint32_t, CARRIED),
    DESC_FIELD(kept_bytes, uint32_t, CARRIED),
    DESC_FIELD(wait_text, bool, CARRIED),
    DESC_FIELD(clock, corral_clock, NAMED),
    DESC_FIELD(validation, corral_validation, CARRIED),
    DESC_FIELD(timing, bool, CARRIED),
    DESC_FIELD(timing_sample, uint32_t, CARRIED),
    DESC_FIELD(history_frames, uint32_t, CARRIED),
    DESC_FIELD(trace_steps, uint32_t, CARRIED),
    DESC_FIELD(hooks, corral_hooks, NAMED),
    DESC_FIELD(field_formatter, corral_field_formatter, NAMED),
    DESC_FIELD(predicates, const corral_predicate_registry *, NAMED),
    DESC_FIELD(upgrade, struct corral_upgrade, NAMED),
    DESC_FIELD(parts, const corral_part *const *, NAMED),
};
#undef DESC_FIELD
#define DESC_FIELD_COUNT (sizeof g_desc_fields / sizeof g_desc_fields[0])

/* A small game: channels made at their default capacity, a semaphore and
   a wait group, a coroutine in a slowed time domain, one in a custom phase
   and one in fixed update, signals posted through a small post queue, a
   kept snapshot restored, a misuse the validation reports, and reads of
   what the inspector and the history hold. Everything it sees goes to a
   log; a frame's line is the log's hash after it. */
static uint64_t g_log_hash;
static int g_log_count;
static void glog(int what, int value)
{
    uint64_t v = ((uint64_t)(uint32_t)what << 32) | (uint32_t)value;
    g_log_hash = (g_log_hash ^ v) * 0x100000001b3ull;
    g_log_count++;
}

#define G_PRODUCER_FIELDS(F) F(corral_channel, ch) F(int, n) F(int, v)
DECLARE_COROUTINE(g_producer, G_PRODUCER_FIELDS)
DEFINE_COROUTINE(g_producer)
{
    CORRAL_BEGIN(co);
    for (ctx->v = 0; ctx->v < ctx->n; ctx->v++) {
        CORRAL_SEND(co, ctx->ch, &ctx->v);
        glog(1, ctx->v);
    }
    glog(2, (int)corral_frame(corral_sched_of(co)));
    CORRAL_END(co);
}

#define G_CONSUMER_FIELDS(F) F(corral_channel, ch) F(int, n) F(int, got)
DECLARE_COROUTINE(g_consumer, G_CONSUMER_FIELDS)
DEFINE_COROUTINE(g_consumer)
{
    CORRAL_BEGIN(co);
    while (ctx->n-- > 0) {
        CORRAL_WAIT_FRAMES(co, 3);
        CORRAL_RECEIVE(co, ctx->ch, &ctx->got);
        glog(3, ctx->got);
    }
    CORRAL_END(co);
}

#define G_WORKER_FIELDS(F) F(corral_semaphore, sem) F(corral_waitgroup, wg) F(int, id)
DECLARE_COROUTINE(g_worker, G_WORKER_FIELDS)
DEFINE_COROUTINE(g_worker)
{
    CORRAL_BEGIN(co);
    CORRAL_ACQUIRE(co, ctx->sem);
    glog(4, ctx->id);
    CORRAL_WAIT_FRAMES(co, 2);
    corral_semaphore_release(corral_sched_of(co), ctx->sem, 1);
    corral_waitgroup_done(corral_sched_of(co), ctx->wg);
    CORRAL_END(co);
}

#define G_BOSS_FIELDS(F) F(corral_waitgroup, wg)
DECLARE_COROUTINE(g_boss, G_BOSS_FIELDS)
DEFINE_COROUTINE(g_boss)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_GROUP(co, ctx->wg);
    glog(5, (int)corral_frame(corral_sched_of(co)));
    CORRAL_END(co);
}

#define G_SLOW_FIELDS(F) F(int, laps)
DECLARE_COROUTINE(g_slow, G_SLOW_FIELDS)
DEFINE_COROUTINE(g_slow)
{
    CORRAL_BEGIN(co);
    for (; ctx->laps > 0; ctx->laps--) {
        CORRAL_WAIT_SECONDS(co, 0.3f);
        glog(6, (int)corral_frame(corral_sched_of(co)) * 16 + (int)corral_domain_of(co));
    }
    CORRAL_END(co);
}

#define G_STEPPER_FIELDS(F) F(int, kind) F(int, steps)
DECLARE_COROUTINE(g_stepper, G_STEPPER_FIELDS)
DEFINE_COROUTINE(g_stepper)
{
    ctx->steps++;
    glog(ctx->kind, ctx->steps * 16 + (int)corral_current_phase(co));
    return CORRAL_YIELD;
}

#define G_LISTENER_FIELDS(F) F(corral_signal, sig) F(int, heard)
DECLARE_COROUTINE(g_listener, G_LISTENER_FIELDS)
DEFINE_COROUTINE(g_listener)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_WAIT_SIGNAL(co, ctx->sig);
        glog(9, ++ctx->heard);
    }
    CORRAL_END(co);
}

static int g_errors, g_steps_hooked;
static void g_count_errors(corral_log_level level, corral_error item, const char *message, const corral_sched *s,
                           void *user)
{
    (void)level, (void)message, (void)s, (void)user;
    g_errors++;
    glog(10, (int)item);
}
static void g_step_hook(const char *type, corral_handle h, void *user)
{
    (void)type, (void)h, (void)user;
    g_steps_hooked++;
}

/* the development desc: every carried field away from its default */
static corral_sched_desc game_desc(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.order = CORRAL_ORDER_BY_TYPE;
    d.fixed_dt = 0.05f;
    d.max_fixed_steps = 2;
    d.max_posts = 2;
    d.domains = 3;
    d.custom_phases = 2;
    d.channel_bytes = 8; /* two ints a channel, at the default capacity */
    d.max_channels = 6;
    d.max_semaphores = 3;
    d.max_waitgroups = 3;
    d.kept_snapshots = 2;
    d.wait_text = true;
    d.validation = CORRAL_VALIDATION_REPORT;
    d.timing = true;
    d.timing_sample = 4;
    d.history_frames = 16;
    d.trace_steps = 8;
    return d;
}

/* what only the caller can give: the same to both runs */
static void give_named(corral_sched_desc *d)
{
    d->logger = (corral_logger){g_count_errors, NULL};
    d->clock = (corral_clock){fake_now, NULL};
    d->hooks = (corral_hooks){.step_begin = g_step_hook};
}

#define GAME_FRAMES 60
/* plays the game, one hash a frame into frames[] */
static void play(corral_sched *s, uint64_t frames[GAME_FRAMES])
{
    g_log_hash = 0xcbf29ce484222325ull, g_log_count = 0, g_errors = 0, g_steps_hooked = 0, g_now = 0;
    corral_channel ch = corral_channel_create(s, sizeof(int));
    glog(20, (int)corral_channel_capacity(s, ch));
    corral_semaphore sem = corral_semaphore_create(s, 1);
    corral_waitgroup wg = corral_waitgroup_create(s);
    corral_signal sig = corral_signal_create(s);
    glog(21, corral_domain_set_scale(s, 2, 0.5f));
    corral_handle prod = g_producer_start(s, (g_producer_ctx){.ch = ch, .n = 12});
    g_consumer_start(s, (g_consumer_ctx){.ch = ch, .n = 12});
    corral_waitgroup_add(s, wg, 3);
    for (int i = 0; i < 3; i++) g_worker_start(s, (g_worker_ctx){.sem = sem, .wg = wg, .id = i});
    g_boss_start(s, (g_boss_ctx){.wg = wg});
    glog(22, g_slow_start_ex(s, (g_slow_ctx){.laps = 4}, &(corral_start_desc){.domain = 2}).gen != 0);
    glog(23, g_stepper_start_ex(s, (g_stepper_ctx){.kind = 7}, &(corral_start_desc){.phase = CORRAL_PHASE_CUSTOM(1)})
                     .gen != 0);
    g_stepper_start_ex(s, (g_stepper_ctx){.kind = 8}, &(corral_start_desc){.phase = CORRAL_PHASE_FIXED_UPDATE});
    g_listener_start(s, (g_listener_ctx){.sig = sig});
    for (int f = 0; f < GAME_FRAMES; f++) {
        for (int k = 0; k < 3; k++) glog(24, corral_signal_post(s, sig)); /* the third finds the queue full */
        int v = 5;
        glog(25, corral_channel_try_send(s, ch, &v, 2)); /* the wrong size: refused and reported */
        corral_tick(s, f % 4 == 0 ? 0.12f : 1.0f / 60.0f);
        glog(26, (int)corral_run_phase(s, CORRAL_PHASE_CUSTOM(1)));
        corral_co_info in;
        if (corral_co_info_of(s, prod, &in)) glog(27, in.wait_text != NULL);
        corral_frame_sample hist[32];
        glog(28, (int)corral_history(s, hist, 32));
        corral_type_stats t;
        if (corral_stats_type_of(s, &g_stepper_type, &t)) glog(29, (int)t.steps_timed);
        if (f == 5) glog(30, corral_snapshot_keep(s, 1) > 0);
        if (f == 12) glog(31, corral_restore_kept(s, 1));
        glog(32, g_errors * 1000 + g_steps_hooked);
        frames[f] = g_log_hash;
    }
}

/* the first frame where two runs differ, or -1 */
static int first_difference(const uint64_t *a, const uint64_t *b)
{
    for (int f = 0; f < GAME_FRAMES; f++)
        if (a[f] != b[f]) return f;
    return -1;
}

Test(profile, a_game_built_from_the_budget_desc_plays_frame_for_frame_as_the_profiled_one)
{
    corral_sched_desc dev = game_desc();
    give_named(&dev);
    corral_sched *s = corral_sched_create(&dev);
    cr_assert_not_null(s);
    static uint64_t want[GAME_FRAMES], got[GAME_FRAMES];
    play(s, want);
    cr_assert_gt(g_log_count, 0);
    corral_sched_desc ship;
    cr_assert(corral_budget_desc(s, 0.0f, &ship));
    corral_sched_destroy(s);

    give_named(&ship);
    corral_sched *shipped = corral_sched_create(&ship);
    cr_assert_not_null(shipped);
    play(shipped, got);
    corral_pool_stats p;
    cr_assert(corral_stats_pools(shipped, &p));
    cr_assert_eq(p.channels_capacity, p.channels_peak, "the channels sized to their peak");
    int f = first_difference(want, got);
    cr_assert_eq(f, -1, "the shipped desc plays differently from frame %d on", f);
    corral_sched_destroy(shipped);
}

/* the value of `.name = ` in the emitted text, parsed as field f's type */
static bool parse_field(const char *text, const desc_field *f, corral_sched_desc *d)
{
    char key[64];
    snprintf(key, sizeof key, "    .%s = ", f->name);
    const char *at = strstr(text, key);
    if (!at) return false;
    at += strlen(key);
    unsigned char *dst = (unsigned char *)d + f->offset;
    if (!strcmp(f->name, "order")) {
        corral_order o = !strncmp(at, "CORRAL_ORDER_BY_TYPE,", 21) ? CORRAL_ORDER_BY_TYPE : CORRAL_ORDER_FIFO;
        cr_assert(o == CORRAL_ORDER_BY_TYPE || !strncmp(at, "CORRAL_ORDER_FIFO,", 18), "%s", at);
        memcpy(dst, &o, sizeof o);
    } else if (!strcmp(f->name, "validation")) {
        static const char *const names[] = {"CORRAL_VALIDATION_DEFAULT,", "CORRAL_VALIDATION_OFF,",
                                            "CORRAL_VALIDATION_REPORT,", "CORRAL_VALIDATION_FATAL,"};
        corral_validation v = CORRAL_VALIDATION_COUNT;
        for (int i = 0; i < 4; i++)
            if (!strncmp(at, names[i], strlen(names[i]))) v = (corral_validation)i;
        cr_assert_neq(v, CORRAL_VALIDATION_COUNT, "%s", at);
        memcpy(dst, &v, sizeof v);
    } else if (!strcmp(f->name, "fixed_dt")) {
        char *end;
        float v = strtof(at, &end);
        cr_assert(end[0] == 'f' && end[1] == ',', "a float literal: %.20s", at);
        memcpy(dst, &v, sizeof v);
    } else if (f->size == sizeof(bool) && (!strncmp(at, "true,", 5) || !strncmp(at, "false,", 6))) {
        bool v = at[0] == 't';
        memcpy(dst, &v, sizeof v);
    } else {
        cr_assert_eq(f->size, sizeof(uint32_t), ".%s", f->name);
        char *end;
        uint32_t v = (uint32_t)strtoul(at, &end, 10);
        cr_assert(end > at && *end == ',', ".%s = %.20s", f->name, at);
        memcpy(dst, &v, sizeof v);
    }
    return true;
}

Test(profile, a_budget_desc_accounts_for_every_field_of_the_desc)
{
    /* the table covers the desc: each field where the last one's end,
       aligned, puts it, and nothing after the last */
    size_t end = 0;
    for (size_t i = 0; i < DESC_FIELD_COUNT; i++) {
        const desc_field *f = &g_desc_fields[i];
        size_t at = (end + f->align - 1) / f->align * f->align;
        cr_assert_eq(f->offset, at, ".%s is at %zu, the table expects %zu: a field missing from the table?", f->name,
                     f->offset, at);
        end = f->offset + f->size;
    }
    const size_t whole = (end + _Alignof(corral_sched_desc) - 1) / _Alignof(corral_sched_desc) * _Alignof(corral_sched_desc);
    cr_assert_eq(sizeof(corral_sched_desc), whole, "a field after .%s missing from the table",
                 g_desc_fields[DESC_FIELD_COUNT - 1].name);

    corral_sched_desc dev = game_desc();
    give_named(&dev);
    corral_sched *s = corral_sched_create(&dev);
    cr_assert_not_null(s);
    static uint64_t frames[GAME_FRAMES];
    play(s, frames);
    corral_sched_desc ship;
    cr_assert(corral_budget_desc(s, 0.25f, &ship));
    static char text[16384];
    corral_writer w = {.buf = text, .cap = sizeof text};
    corral_emit_desc_to(s, 0.25f, &w);
    cr_assert_lt(w.len, sizeof text);
    corral_sched_destroy(s);

    /* the struct: each field sized, carried as the scheduler was given it, or left zero */
    static const unsigned char zero[sizeof(corral_sched_desc)];
    for (size_t i = 0; i < DESC_FIELD_COUNT; i++) {
        const desc_field *f = &g_desc_fields[i];
        const unsigned char *mine = (const unsigned char *)&dev + f->offset;
        const unsigned char *out = (const unsigned char *)&ship + f->offset;
        if (f->rule == CARRIED)
            cr_assert(!memcmp(out, mine, f->size), ".%s is carried over as the scheduler was given it", f->name);
        else if (f->rule == SIZED) cr_assert(memcmp(out, zero, f->size), ".%s is sized", f->name);
        else cr_assert(!memcmp(out, zero, f->size), ".%s is left zero", f->name);
    }

    /* the text is the struct: every field it sets reads back the same, and
       every one it does not set is named above it */
    const char *named = strstr(text, "Set this yourself:");
    cr_assert_not_null(named, "%s", text);
    const char *body = strstr(text, "corral_shipped_desc = {");
    cr_assert_not_null(body);
    corral_sched_desc parsed;
    memset(&parsed, 0, sizeof parsed);
    uint32_t n = 0;
    for (const char *p = text; (p = strstr(p, "{ .slot_size = ")) != NULL; p++, n++)
        cr_assert_eq(sscanf(p, "{ .slot_size = %u, .capacity = %u }", &parsed.classes[n].slot_size,
                            &parsed.classes[n].capacity),
                     2);
    cr_assert_gt(n, 0u);
    for (size_t i = 0; i < DESC_FIELD_COUNT; i++) {
        const desc_field *f = &g_desc_fields[i];
        char dotted[64];
        snprintf(dotted, sizeof dotted, ".%s", f->name);
        const char *in_text = strstr(text, dotted);
        cr_assert_not_null(in_text, "the emitted text names .%s:\n%s", f->name, text);
        if (f->rule == NAMED || f->rule == UNUSED)
            cr_assert_lt(in_text, body, ".%s is named in the comment, not set", f->name);
        else if (strcmp(f->name, "classes"))
            cr_assert(parse_field(body, f, &parsed), ".%s is set in the text", f->name);
    }
    for (size_t i = 0; i < DESC_FIELD_COUNT; i++) {
        const desc_field *f = &g_desc_fields[i];
        cr_assert(!memcmp((const unsigned char *)&parsed + f->offset, (const unsigned char *)&ship + f->offset, f->size),
                  "the text's .%s is the struct's", f->name);
    }
    cr_assert_not_null(strstr(named, "the profiled scheduler had logger, clock, hooks"), "%s", text);
    /* in the order the struct declares them: C++20's designated initializers take no other */
    const char *prev = body;
    for (size_t i = 0; i < DESC_FIELD_COUNT; i++) {
        const desc_field *f = &g_desc_fields[i];
        if (f->rule == NAMED || f->rule == UNUSED) continue;
        char key[64];
        snprintf(key, sizeof key, "    .%s = ", f->name);
        const char *at = strstr(body, key);
        cr_assert_not_null(at, ".%s", f->name);
        cr_assert_gt(at, prev, ".%s is set after the field declared after it:\n%s", f->name, body);
        prev = at;
    }
    cr_assert_not_null(strstr(body, ".max_semaphores = 2, /* peak 2 of the shared semaphore and wait group pool, "
                                    "with max_waitgroups */\n    .max_waitgroups = 1,\n"),
                       "%s", body);
}

Test(profile, the_emitted_fixed_dt_is_a_float_literal_however_round)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.fixed_dt = 1.0f;
    corral_sched *s = sched_of(d);
    char text[8192];
    corral_emit_desc_to(s, 0.0f, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert_not_null(strstr(text, ".fixed_dt = 1.0f,"), "%s", text);
    corral_sched_destroy(s);
}

/* ---- a save of the profiled game in the shipped build (API.md, "Save games") */

/* Three types of one size class, each filling its own page of it under
   the default desc; every step goes to the frame's log, which names no
   slot or handle. */
#define SP_FIELDS(F) F(int32_t, id) F(int32_t, left) F(uint32_t, acc)
#define SP_POINTS(P) P(rested)
#define SP_BODY(name, rest)                                              \
    DECLARE_COROUTINE(name, SP_FIELDS)                                   \
    DEFINE_COROUTINE_AT(name, SP_POINTS)                                 \
    {                                                                    \
        CORRAL_BEGIN_AT(co, SP_POINTS);                                  \
        for (; ctx->left > 0; ctx->left--) {                             \
            ctx->acc = ctx->acc * 31u + (uint32_t)ctx->id;               \
            sp_log(ctx->id, ctx->acc);                                   \
            CORRAL_WAIT_SECONDS_AT(co, rested, rest);                    \
        }                                                                \
        CORRAL_END(co);                                                  \
    }
static uint64_t g_sp_frame; /* this frame's log, hashed */
static void sp_log(int32_t id, uint32_t acc)
{
    g_sp_frame = (g_sp_frame ^ (((uint64_t)(uint32_t)id << 32) | acc)) * 0x100000001b3ull;
}
SP_BODY(sp_scout, 0.1f)
SP_BODY(sp_guard, 0.2f)
SP_BODY(sp_attack, 0.15f)
#define SP_TYPES(X) X(sp_scout, 1, 0) X(sp_guard, 2, 0) X(sp_attack, 3, 0)
CORRAL_DECLARE_REGISTRY(sp, SP_TYPES)
CORRAL_DEFINE_REGISTRY(sp, SP_TYPES);

#define SP_FRAMES 40
#define SP_SAVE_AT 20
/* frames [from, to): the frame's starts, a tick, its log's hash in log[] */
static void sp_play(corral_sched *s, int from, int to, uint64_t log[SP_FRAMES])
{
    for (int f = from; f < to; f++) {
        g_sp_frame = 0xcbf29ce484222325ull;
        cr_assert(sp_scout_start(s, (sp_scout_ctx){.id = f * 4, .left = 2 + f % 5}).gen);
        if (f % 2 == 0) cr_assert(sp_guard_start(s, (sp_guard_ctx){.id = f * 4 + 1, .left = 3}).gen);
        if (f % 3 == 0) cr_assert(sp_attack_start(s, (sp_attack_ctx){.id = f * 4 + 2, .left = 2 + f % 4}).gen);
        corral_tick(s, 0.05f);
        log[f] = g_sp_frame;
    }
}

/* the detail of the last error ends with these words */
static void assert_detail_ends(const corral_sched *s, const char *words)
{
    const char *d = corral_last_error_detail(s);
    const size_t n = strlen(d), k = strlen(words);
    cr_assert(n >= k && !strcmp(d + n - k, words), "the detail:\n  %s\nends with:\n  %s", d, words);
}

Test(profile, a_save_loads_in_the_shipped_build_where_each_class_holds_every_slot_it_names)
{
    static unsigned char save[1 << 16];
    static uint64_t want[SP_FRAMES], got[SP_FRAMES];
    static char text[16384];
    corral_sched *s = sched_of((corral_sched_desc){.registry = &sp_registry}); /* development: 256 slots a class */
    sp_play(s, 0, SP_SAVE_AT, want);
    const size_t n = corral_save(s, save, sizeof save);
    cr_assert_gt(n, 0u, "%s", corral_last_error_detail(s));
    sp_play(s, SP_SAVE_AT, SP_FRAMES, want);
    corral_sched_desc ship;
    cr_assert(corral_budget_desc(s, 0.0f, &ship));
    corral_emit_desc_to(s, 0.0f, &(corral_writer){.buf = text, .cap = sizeof text});
    corral_type_stats ts;
    cr_assert(corral_stats_type_of(s, &sp_attack_type, &ts));
    cr_assert_eq(ts.class_index, 1u, "the three types share the 32-byte class");
    corral_class_stats cs;
    cr_assert(corral_stats_class(s, 1, &cs));
    cr_assert_eq(cs.peak, 20u);
    cr_assert_eq(ship.classes[1].capacity, 20u, "sized by its peak, not by the slots saves name");
    corral_sched_destroy(s);

    /* the shipped desc: the first coroutine past the class's capacity is named */
    ship.registry = &sp_registry;
    corral_sched *shipped = sched_of(ship);
    cr_assert_not(corral_load(shipped, save, n));
    cr_assert_eq(corral_last_error(shipped), CORRAL_ERR_BAD_SAVE);
    assert_detail_ends(shipped, "a coroutine of type 'sp_guard' is in slot 64 of class 1 (32 B slots), which holds 20 "
                                "here (needs desc.classes[1].capacity >= 134): a save loads where each class holds "
                                "every slot it names");
    corral_sched_destroy(shipped);

    /* the emitted text names the capacity that holds every slot the profiled game used */
    const char *line = strstr(text, "{ .slot_size = 32, .capacity = 20 }");
    cr_assert_not_null(line, "%s", text);
    const char *note = strstr(line, "saves made under the profiled desc name slots up to ");
    cr_assert(note && note < strchr(line, '\n'), "%s", text);
    uint32_t last = 0, need = 0;
    cr_assert_eq(sscanf(note, "saves made under the profiled desc name slots up to %u here: to load them, give "
                              "capacity >= %u */", &last, &need),
                 2, "%s", note);
    cr_assert_eq(need, last + 1);
    cr_assert_gt(last, 128u, "the attacks' page, the third of the class");
    for (const char *p = text; (p = strstr(p, "saves made under")) != NULL; p++)
        cr_assert_eq(p, note, "only the class used past its capacity has the note:\n%s", text);
    cr_assert_geq(need, 134u, "the profile's slots hold every save the profiled game made");

    /* the capacity the refusal names is the class's last slot in the save, exactly */
    ship.classes[1].capacity = 133;
    shipped = sched_of(ship);
    cr_assert_not(corral_load(shipped, save, n));
    assert_detail_ends(shipped, "a coroutine of type 'sp_attack' is in slot 133 of class 1 (32 B slots), which holds "
                                "133 here (needs desc.classes[1].capacity >= 134): a save loads where each class "
                                "holds every slot it names");
    corral_sched_destroy(shipped);

    /* with the text's capacity it loads, and plays on as the profiled game did */
    ship.classes[1].capacity = need;
    shipped = sched_of(ship);
    cr_assert(corral_load(shipped, save, n), "%s", corral_last_error_detail(shipped));
    sp_play(shipped, SP_SAVE_AT, SP_FRAMES, got);
    for (int f = SP_SAVE_AT; f < SP_FRAMES; f++)
        cr_assert_eq(got[f], want[f], "frame %d's log differs from the profiled game's", f);
    corral_class_stats shipped_cs;
    cr_assert(corral_stats_class(shipped, 1, &shipped_cs));
    cr_assert_eq(shipped_cs.failures, 0u);
    corral_sched_destroy(shipped);
}

/* the same types, the attacks with a budget of 12 */
static const corral_type *const g_sp_budgeted_types[] = {&sp_scout_type, &sp_guard_type, &sp_attack_type};
static const uint32_t g_sp_budgeted_ids[] = {1, 2, 3}, g_sp_budgets[] = {0, 0, 12};
static const corral_registry g_sp_budgeted = {"sp_budgeted", g_sp_budgeted_types, g_sp_budgeted_ids, g_sp_budgets, 3};

static char g_sp_logged[512];
static void sp_logger(corral_log_level level, corral_error item, const char *message, const corral_sched *s, void *user)
{
    (void)level, (void)item, (void)s, (void)user;
    snprintf(g_sp_logged, sizeof g_sp_logged, "%s", message);
}

Test(profile, a_refused_load_names_the_desc_capacity_besides_the_registry_budgets)
{
    static unsigned char save[1 << 16];
    static uint64_t log[SP_FRAMES];
    corral_sched *s = sched_of((corral_sched_desc){.registry = &g_sp_budgeted});
    sp_play(s, 0, SP_SAVE_AT, log);
    const size_t n = corral_save(s, save, sizeof save);
    cr_assert_gt(n, 0u, "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);

    corral_sched_desc d = {.registry = &g_sp_budgeted, .logger = {sp_logger, NULL}};
    d.classes[0] = (corral_class_desc){24, 1};
    d.classes[1] = (corral_class_desc){32, 100}; /* and the attacks' 12 */
    corral_sched *small = sched_of(d);
    corral_class_stats cs;
    cr_assert(corral_stats_class(small, 1, &cs));
    cr_assert_eq(cs.capacity, 112u);
    cr_assert_not(corral_load(small, save, n));
    /* the logger has every word; the detail's 191 bytes of them cut the rule, not the numbers */
    const char *words = "a coroutine of type 'sp_attack' is in slot 128 of class 1 (32 B slots), which holds 112 here "
                        "(needs desc.classes[1].capacity >= 122, plus the registry's budgets): a save loads where each "
                        "class holds every slot it names";
    const size_t nl = strlen(g_sp_logged), nw = strlen(words);
    cr_assert(nl >= nw && !strcmp(g_sp_logged + nl - nw, words), "%s", g_sp_logged);
    cr_assert_not_null(strstr(corral_last_error_detail(small), "(needs desc.classes[1].capacity >= 122, plus the "
                                                               "registry's budgets): "),
                       "%s", corral_last_error_detail(small));
    corral_sched_destroy(small);

    d.classes[1].capacity = 121;
    small = sched_of(d);
    cr_assert_not(corral_load(small, save, n));
    corral_sched_destroy(small);
    d.classes[1].capacity = 122; /* 134 slots with the budgets */
    small = sched_of(d);
    cr_assert(corral_load(small, save, n), "%s", corral_last_error_detail(small));
    corral_sched_destroy(small);

    /* no class 1 at all */
    d.classes[0] = (corral_class_desc){32, 200};
    d.classes[1] = (corral_class_desc){0, 0};
    small = sched_of(d);
    cr_assert_not(corral_load(small, save, n));
    assert_detail_ends(small, "a coroutine of type 'sp_scout' is in slot 0 of class 1, a class this scheduler does not "
                              "have (it has 1): a save loads where each class holds every slot it names");
    corral_sched_destroy(small);
}
