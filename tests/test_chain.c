/* test_chain.c -- the chain trace: where each coroutine of a chain is
   suspended (file and line), what it waits for, from the outermost caller
   down, as text (corral_print_chain), in the inspector, the JSON report
   and the Chrome trace. */
#include "common.h"

#include <cjson/cJSON.h>

TestSuite(chain);

static int g_leaf_line, g_mid_line, g_top_line, g_racer_line;

/* leaf: sleeps in its domain */
#define LEAF_FIELDS(F) F(float, secs)
DECLARE_COROUTINE(leaf, LEAF_FIELDS)
DEFINE_COROUTINE(leaf)
{
    CORRAL_BEGIN(co);
    g_leaf_line = __LINE__; CORRAL_WAIT_SECONDS(co, ctx->secs);
    CORRAL_END(co);
}

/* mid: calls a leaf */
#define MID_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(mid, MID_FIELDS)
DEFINE_COROUTINE(mid)
{
    CORRAL_BEGIN(co);
    g_mid_line = __LINE__; CORRAL_CALL(co, leaf, (leaf_ctx){.secs = 2.5f});
    CORRAL_END(co);
}

/* top: races a mid (a call chain) against a leaf */
#define TOP_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(top, TOP_FIELDS)
DEFINE_COROUTINE(top)
{
    CORRAL_BEGIN(co);
    g_top_line = __LINE__; CORRAL_RACE(co, mid_arm(co, (mid_ctx){0}), leaf_arm(co, (leaf_ctx){.secs = 9.0f}));
    CORRAL_END(co);
}

/* a plain yield, for the inspector's "queued" */
#define IDLER_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(idler, IDLER_FIELDS)
DEFINE_COROUTINE(idler)
{
    CORRAL_BEGIN(co);
    for (;;) {
        g_racer_line = __LINE__; CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

static char *to_text(corral_sched *s, corral_handle h, char *buf, size_t cap)
{
    corral_writer w = {.buf = buf, .cap = cap};
    cr_assert(corral_print_chain_to(s, h, &w));
    cr_assert_lt(w.len, cap, "the chain fits");
    return buf;
}

static corral_sched *csched(void)
{
    corral_sched_desc d = one_class_desc(128, 32);
    d.domains = 2;
    d.timing = true;
    d.timing_sample = 1;
    d.trace_steps = 32;
    return sched_of(d);
}

Test(chain, the_chain_prints_from_the_outermost_caller_with_file_line_and_wait)
{
    corral_sched *s = csched();
    corral_handle t = top_start(s, (top_ctx){0});
    corral_tick(s, 0.5f);
    corral_co_info in;
    cr_assert(corral_co_info_of(s, t, &in));
    cr_assert_eq(in.line, (uint32_t)g_top_line, "the inspector has the line of the race");
    cr_assert(strstr(in.file, "test_chain.c"), "and its file: %s", in.file);
    /* the innermost leaf: the mid's child */
    corral_co_info arm, leafi;
    cr_assert(corral_co_info_of(s, in.child, &arm));
    cr_assert_eq(arm.type, &mid_type);
    cr_assert(corral_co_info_of(s, arm.child, &leafi));
    cr_assert_eq(leafi.line, (uint32_t)g_leaf_line);
    cr_assert_float_eq(leafi.left, 2.0, 1e-6);
    char buf[2048], want[512];
    to_text(s, leafi.handle, buf, sizeof buf);
    /* the second leaf's handle: the line after the first leaf's */
    const char *second = strstr(buf, "\n    leaf 0x");
    cr_assert_not_null(second, "%s", buf);
    unsigned idx = 0, gen = 0;
    cr_assert_eq(sscanf(second, "\n    leaf 0x%x:%u", &idx, &gen), 2);
    snprintf(want, sizeof want,
             "  top 0x%06x:%u  test_chain.c:%d  race of 2 arms running\n"
             "    mid 0x%06x:%u  test_chain.c:%d  call\n"
             ">     leaf 0x%06x:%u  test_chain.c:%d  seconds, 2.000 s left\n"
             "    leaf 0x%06x:%u  test_chain.c:%d  seconds, 8.500 s left\n",
             t.index, t.gen, g_top_line, arm.handle.index, arm.handle.gen, g_mid_line, leafi.handle.index,
             leafi.handle.gen, g_leaf_line, idx, gen, g_leaf_line);
    cr_assert_str_eq(buf, want);
    /* the same chain from its top, in another domain */
    /* the inspector's text says where too */
    char co_text[512];
    cr_assert(corral_print_co_to(s, t, &(corral_writer){.buf = co_text, .cap = sizeof co_text}));
    char at_top[64];
    snprintf(at_top, sizeof at_top, "calling (race of 2) at test_chain.c:%d", g_top_line);
    cr_assert(strstr(co_text, at_top), "%s", co_text);
    cr_assert(corral_set_domain(s, t, 1));
    to_text(s, t, buf, sizeof buf);
    cr_assert(strstr(buf, "> top"), "%s", buf);
    cr_assert(strstr(buf, "seconds, 2.000 s left (domain 1)"), "%s", buf);
    cr_assert(!corral_print_chain(s, (corral_handle){0, 0}, stdout));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_HANDLE);
    corral_sched_destroy(s);
}

Test(chain, a_plain_yield_is_queued_at_its_line_and_a_first_step_has_no_line_yet)
{
    corral_sched *s = csched();
    corral_handle h = idler_start(s, (idler_ctx){0});
    corral_co_info in;
    cr_assert(corral_co_info_of(s, h, &in));
    cr_assert_eq(in.line, (uint32_t)g_racer_line);
    char buf[512];
    to_text(s, h, buf, sizeof buf);
    cr_assert(strstr(buf, "queued for the next frame") || strstr(buf, "queued"), "%s", buf);
    corral_sched_destroy(s);
}

static char *export_text(void (*fn)(const corral_sched *, corral_writer *), corral_sched *s, char *buf, size_t cap)
{
    corral_writer w = {.buf = buf, .cap = cap};
    fn(s, &w);
    cr_assert_lt(w.len, cap, "the output fits");
    return buf;
}

Test(chain, the_json_report_and_the_chrome_trace_carry_the_same_places)
{
    corral_sched *s = csched();
    corral_handle t = top_start(s, (top_ctx){0});
    corral_tick(s, 0.5f);
    corral_tick(s, 0.5f);
    static char buf[1 << 17];
    export_text(corral_report_json_to, s, buf, sizeof buf);
    cJSON *j = cJSON_Parse(buf);
    cr_assert_not_null(j, "valid JSON:\n%s", buf);
    const cJSON *cos = cJSON_GetObjectItemCaseSensitive(j, "coroutines"), *c;
    cr_assert_eq(cJSON_GetArraySize(cos), 4);
    int found_top = 0, found_leaf = 0;
    char th[32];
    snprintf(th, sizeof th, "0x%06x:%u", t.index, t.gen);
    cJSON_ArrayForEach(c, cos)
    {
        const char *type = cJSON_GetObjectItemCaseSensitive(c, "type")->valuestring;
        int line = cJSON_GetObjectItemCaseSensitive(c, "line")->valueint;
        cr_assert(strstr(cJSON_GetObjectItemCaseSensitive(c, "file")->valuestring, "test_chain.c"));
        if (!strcmp(type, "top")) {
            found_top++;
            cr_assert_eq(line, g_top_line);
            cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(c, "waits")->valuestring, "race of 2 arms running");
            cr_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c, "parent")));
        } else if (!strcmp(type, "leaf") && cJSON_GetObjectItemCaseSensitive(c, "left")->valuedouble < 2.0) {
            found_leaf++;
            cr_assert_eq(line, g_leaf_line);
            cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(c, "left")->valuedouble, 1.5, 1e-6);
        } else if (!strcmp(type, "mid")) {
            cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(c, "parent")->valuestring, th);
        }
    }
    cr_assert_eq(found_top, 1);
    cr_assert_eq(found_leaf, 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "domains")), 2);
    cJSON_Delete(j);

    export_text(corral_trace_json_to, s, buf, sizeof buf);
    j = cJSON_Parse(buf);
    cr_assert_not_null(j, "valid JSON:\n%s", buf);
    int waiting = 0, steps_at = 0;
    char at[64];
    snprintf(at, sizeof at, "test_chain.c:%d", g_top_line);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "traceEvents"))
    {
        const cJSON *cat = cJSON_GetObjectItemCaseSensitive(c, "cat");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(c, "args");
        if (!cJSON_IsString(cat)) continue;
        if (!strcmp(cat->valuestring, "waiting")) {
            waiting++;
            const char *name = cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring;
            if (!strcmp(name, "top"))
                cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(args, "at")->valuestring, at);
        } else if (!strcmp(cat->valuestring, "step") &&
                   !strcmp(cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring, "top")) {
            steps_at += !strcmp(cJSON_GetObjectItemCaseSensitive(args, "at")->valuestring, at);
        }
    }
    cr_assert_eq(waiting, 4, "one instant event per live coroutine");
    cr_assert_eq(steps_at, 1, "the top's step slice says where it suspended");
    cJSON_Delete(j);
    corral_sched_destroy(s);
}

/* ---- wait text (desc.wait_text) */
static bool in_range(void *user) { return *(int *)user > 100; }
#define SAYER_FIELDS(F)        \
    F(int, x)                  \
    F(float, secs)             \
    F(corral_signal, door)     \
    F(int, what)
DECLARE_COROUTINE(sayer, SAYER_FIELDS)
DEFINE_COROUTINE(sayer)
{
    CORRAL_BEGIN(co);
    if (ctx->what == 0) CORRAL_WAIT_UNTIL(co, in_range, &ctx->x);
    else if (ctx->what == 1) CORRAL_WAIT_SECONDS(co, ctx->secs);
    else if (ctx->what == 2) CORRAL_WAIT_SIGNAL(co, ctx->door);
    else CORRAL_AWAIT(co, corral_wait_frames(3));
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(chain, a_wait_says_what_it_waits_for_as_written)
{
    corral_sched_desc d = one_class_desc(128, 32);
    d.wait_text = true;
    corral_sched *s = sched_of(d);
    corral_signal door = corral_signal_create(s);
    corral_handle h[4];
    for (int w = 0; w < 4; w++) h[w] = sayer_start(s, (sayer_ctx){.secs = 3.0f, .door = door, .what = w});
    corral_tick(s, 1.0f);
    const char *want[4] = {"in_range(&ctx->x)", "ctx->secs", "ctx->door", "corral_wait_frames(3)"};
    for (int w = 0; w < 4; w++) {
        corral_co_info in;
        cr_assert(corral_co_info_of(s, h[w], &in));
        cr_assert_not_null(in.wait_text);
        cr_assert_str_eq(in.wait_text, want[w]);
    }
    char buf[4096];
    corral_print_chain_to(s, h[1], &(corral_writer){.buf = buf, .cap = sizeof buf});
    cr_assert(strstr(buf, "seconds ctx->secs, 2.000 s left of 3"), "%s", buf);
    corral_report_text_to(s, &(corral_writer){.buf = buf, .cap = sizeof buf});
    cr_assert(strstr(buf, "until in_range(&ctx->x)"), "the text report lists where they wait:\n%s", buf);
    cr_assert(strstr(buf, "signal ctx->door"), "%s", buf);
    corral_sched_destroy(s);

    corral_sched *plain = csched(); /* without desc.wait_text: no text, the kind only */
    corral_handle p = sayer_start(plain, (sayer_ctx){.secs = 3.0f, .what = 1});
    corral_co_info in;
    cr_assert(corral_co_info_of(plain, p, &in));
    cr_assert_null(in.wait_text);
    corral_sched_destroy(plain);
}

Test(chain, a_field_prints_as_the_inspector_prints_it)
{
    corral_sched *s = csched();
    uint32_t n = 0;
    const corral_field *f = sayer_type.fields(&n);
    sayer_ctx c = {.x = -7, .secs = 2.5f};
    char text[32];
    cr_assert(corral_field_text(s, &f[0], (const unsigned char *)&c + f[0].offset, text, sizeof text));
    cr_assert_str_eq(text, "-7");
    cr_assert(corral_field_text(s, &f[1], (const unsigned char *)&c + f[1].offset, text, sizeof text));
    cr_assert_str_eq(text, "2.5");
    cr_assert(!corral_field_text(s, &f[0], NULL, text, sizeof text));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    corral_sched_destroy(s);
}
