/* test_errors.c -- last error, log items, logger, misuse that must not crash. */
#include "common.h"

#include <math.h>

Test(errors, every_item_has_a_message_and_unknown_values_are_named)
{
    for (int e = 0; e < CORRAL_ERR_COUNT; e++) {
        const char *m = corral_error_str((corral_error)e);
        cr_assert_not_null(m);
        cr_assert_gt(strlen(m), 5);
        cr_assert_str_neq(m, "unknown error");
    }
    cr_assert_str_eq(corral_error_str(CORRAL_ERR_COUNT), "unknown error");
    cr_assert_str_eq(corral_error_str((corral_error)-1), "unknown error");
    cr_assert_str_eq(corral_end_reason_str(CORRAL_END_STOPPED), "stopped");
}

Test(errors, null_scheduler_is_safe_in_every_call)
{
    corral_handle h = {1, 1};
    cr_assert_eq(corral_start(NULL, &tracer_type, &(tracer_ctx){0}, sizeof(tracer_ctx)).gen, 0);
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NULL_SCHED);
    cr_assert_eq(tracer_start(NULL, (tracer_ctx){0}).gen, 0);
    cr_assert_not(corral_stop(NULL, h));
    cr_assert_not(corral_alive(NULL, h));
    cr_assert_eq(corral_tick(NULL, 0.1f), 0);
    cr_assert_eq(corral_live_count(NULL), 0);
    cr_assert_eq(corral_frame(NULL), 0);
    corral_type_stats t;
    cr_assert_not(corral_stats_type(NULL, 0, &t));
    corral_report_text(NULL, stdout);
    corral_sched_destroy(NULL);
    cr_assert_null(corral_sched_create(NULL));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NULL_ARG);
}

Test(errors, logger_receives_each_error_with_its_item)
{
    log_capture cap = {0};
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 1;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_eq(cap.count, 0, "nothing logged on success");
    start_tracer(s, 1, 0);
    start_tracer(s, 2, 0);
    cr_assert_eq(cap.count, 1);
    cr_assert_eq(cap.last, CORRAL_ERR_POOL_EXHAUSTED);
    cr_assert_eq(cap.level, CORRAL_LOG_ERROR);
    cr_assert_eq(cap.sched, s);
    corral_handle zero = {0, 0};
    corral_stop(s, zero);
    cr_assert_eq(cap.count, 2);
    cr_assert_eq(cap.last, CORRAL_ERR_NULL_HANDLE);
    corral_sched_destroy(s);
}

Test(errors, failed_create_is_logged_through_the_desc_logger)
{
    log_capture cap = {0};
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    d.classes[0].slot_size = 20; /* not a multiple of 8 */
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(cap.count, 1);
    cr_assert_eq(cap.last, CORRAL_ERR_BAD_DESC);
    cr_assert_null(cap.sched);
}

Test(errors, double_stop_returns_false_and_reports_a_stale_handle)
{
    corral_sched *s = small_sched(4);
    corral_handle h = start_tracer(s, 1, 0);
    cr_assert(corral_stop(s, h));
    cr_assert_not(corral_stop(s, h));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.stopped, 1, "counted once");
    corral_sched_destroy(s);
}

Test(errors, pool_exhaustion_fails_the_start_and_leaves_running_coroutines_untouched)
{
    trace_reset();
    corral_sched *s = small_sched(3);
    corral_handle h[3];
    for (int i = 0; i < 3; i++) h[i] = start_tracer(s, i + 1, 0);
    corral_handle extra = start_tracer(s, 9, 0);
    cr_assert_eq(extra.gen, 0);
    cr_assert_eq(extra.index, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    for (int i = 0; i < 3; i++) cr_assert(corral_alive(s, h[i]));
    trace_reset();
    corral_tick(s, 0.f);
    int want[] = {1, 2, 3};
    expect_trace(want, 3);
    corral_class_stats c;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.failures, 1);
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.failed, 1);
    cr_assert_eq(t.live, 3);
    corral_sched_destroy(s);
}

Test(errors, context_size_mismatch_is_refused)
{
    corral_sched *s = small_sched(4);
    int small = 3;
    cr_assert_eq(corral_start(s, &tracer_type, &small, sizeof small).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_CTX_SIZE_MISMATCH);
    cr_assert_eq(corral_start(s, &tracer_type, NULL, sizeof(tracer_ctx)).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    cr_assert_eq(corral_live_count(s), 0);
    corral_sched_destroy(s);
}

Test(errors, malformed_vtable_is_refused)
{
    corral_sched *s = small_sched(4);
    corral_type bad = tracer_type;
    bad.ctx_offset = 8; /* would overlap the header */
    tracer_ctx c = {0};
    cr_assert_eq(corral_start(s, &bad, &c, sizeof c).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_TYPE);
    bad = tracer_type;
    bad.step = NULL;
    cr_assert_eq(corral_start(s, &bad, &c, sizeof c).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_TYPE);
    corral_sched_destroy(s);
}

/* counter: a generator of 1, 2, 3, ... (its result the value) */
#define COUNTER_FIELDS(F) F(int, n)
DECLARE_COROUTINE_R(counter, COUNTER_FIELDS, int)
DEFINE_COROUTINE(counter)
{
    CORRAL_BEGIN(co);
    for (;;) CORRAL_YIELD_VALUE(co, ++ctx->n);
    CORRAL_END(co);
}

/* a field table written by hand: its second field past the context */
static const corral_field *counter_far_fields(uint32_t *count)
{
    static const corral_field f[2] = {{"n", "int", 0, 4, CORRAL_FIELD_INT}, {"far", "int", 64, 4, CORRAL_FIELD_INT}};
    *count = 2;
    return f;
}

/* a start of t: refused, BAD_TYPE, its detail naming each of want; were
   it started, its first value would be copied from where t says */
static void counter_refused(corral_sched *s, const corral_type *t, const char *const *want, int nwant)
{
    const counter_ctx c = {0};
    const corral_handle h = corral_generator_start(s, t, &c, sizeof c);
    const corral_error err = corral_last_error(s);
    char detail[400];
    snprintf(detail, sizeof detail, "%s", corral_last_error_detail(s));
    int v = 0;
    corral_generator_next(s, h, &v, sizeof v); /* refused: no handle */
    cr_assert_eq(h.gen, 0, "%s (result at %u, %u bytes; context %u bytes) started", t->name, t->result_offset,
                 t->result_size, t->ctx_size);
    cr_assert_eq(err, CORRAL_ERR_BAD_TYPE, "%s: %s", t->name, corral_error_str(err));
    for (int i = 0; i < nwant; i++) cr_assert(strstr(detail, want[i]), "%s: the detail names %s: %s", t->name, want[i], detail);
}

Test(errors, a_vtable_whose_result_or_a_field_lies_outside_its_context_is_refused)
{
    corral_sched_desc d = one_class_desc(64, 1); /* one slot: a start takes the slot the probe had */
    d.validation = CORRAL_VALIDATION_REPORT;
    const size_t need = corral_sched_memory_size(&d);
    unsigned char *mem = malloc(need);
    d.memory = mem;
    d.memory_size = need;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    const corral_handle probe = counter_gen(s, (counter_ctx){0});
    const unsigned char *ctx = corral_context(s, probe, &counter_type);
    cr_assert_not_null(ctx);
    const uint32_t to_end = (uint32_t)(mem + need - ctx); /* from the context to the end of the block */
    cr_assert(corral_stop(s, probe));
    static corral_type bad;
    bad = counter_type;
    bad.name = "counter_by_hand";
    bad.result_offset = to_end; /* past the block: a pull would read past it */
    const char *const past[] = {"counter_by_hand", "result", "8-byte context"};
    counter_refused(s, &bad, past, 3);
    bad.result_offset = bad.ctx_size; /* just past the context, inside the slot */
    counter_refused(s, &bad, past, 3);
    bad.result_offset = 0xFFFFFFFFu; /* offset + size wraps */
    counter_refused(s, &bad, past, 3);
    bad.result_offset = 0;
    bad.result_size = bad.ctx_size + 4;
    counter_refused(s, &bad, past, 3);
    bad = counter_type;
    bad.name = "counter_far";
    bad.fields = counter_far_fields;
    const char *const far[] = {"counter_far", "far", "offset 64", "8-byte context"};
    counter_refused(s, &bad, far, 4);
    cr_assert_eq(corral_live_count(s), 0, "nothing started");
    cr_assert(corral_verify(s));

    bad = counter_type; /* the result inside, anywhere: it starts and gives its values */
    bad.name = "counter_by_hand";
    bad.result_offset = 0;
    const corral_handle h = corral_generator_start(s, &bad, &(counter_ctx){0}, sizeof(counter_ctx));
    cr_assert_neq(h.gen, 0, "%s", corral_last_error_detail(s));
    int v = 0;
    cr_assert(corral_generator_next(s, h, &v, sizeof v));
    cr_assert_eq(v, 1);
    corral_sched_destroy(s);
    free(mem);

    /* a registry's type is checked at create */
    static const corral_type *const types[] = {&bad};
    static const uint32_t ids[] = {1};
    const corral_registry reg = {"by_hand", types, ids, NULL, 1};
    bad.result_offset = bad.ctx_size;
    corral_sched_desc r = one_class_desc(64, 4);
    r.registry = &reg;
    r.validation = CORRAL_VALIDATION_REPORT;
    cr_assert_null(corral_sched_create(&r));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_BAD_TYPE);
    cr_assert(strstr(corral_last_error_detail(NULL), "counter_by_hand"), "%s", corral_last_error_detail(NULL));
    bad.result_offset = 0;
    corral_sched *t = corral_sched_create(&r);
    cr_assert_not_null(t);
    corral_sched_destroy(t);
}

Test(errors, type_table_full_is_reported)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.max_types = 2;
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 8;
    corral_sched *s = corral_sched_create(&d);
    corral_handle none = {0, 0};
    cr_assert_neq(start_tracer(s, 1, 0).gen, 0);
    cr_assert_neq(start_actor(s, 1, NULL, none, NULL).gen, 0);
    cr_assert_eq(cleaned_start(s, (cleaned_ctx){.id = -1}).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_TOO_MANY_TYPES);
    corral_sched_destroy(s);
}

Test(errors, negative_or_nan_dt_counts_as_zero_and_is_reported)
{
    corral_sched *s = small_sched(4);
    cr_assert_eq(corral_tick(s, -1.0f), 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DT);
    corral_tick(s, NAN);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_DT);
    cr_assert_float_eq(corral_time(s), 0.0, 1e-12);
    cr_assert_eq(corral_frame(s), 2, "the tick still ran");
    corral_sched_destroy(s);
}

Test(errors, calls_on_a_destroyed_caller_owned_scheduler_are_refused)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 4;
    size_t need = corral_sched_memory_size(&d);
    void *mem = malloc(need);
    d.memory = mem;
    d.memory_size = need;
    corral_sched *s = corral_sched_create(&d);
    corral_handle h = start_tracer(s, 1, 0);
    corral_sched_destroy(s);
    cr_assert_eq(corral_tick(s, 0.1f), 0);
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED);
    cr_assert_not(corral_alive(s, h));
    cr_assert_eq(start_tracer(s, 1, 0).gen, 0);
    corral_sched_destroy(s); /* a second destroy is refused, not a double free */
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED);
    free(mem);
}

Test(errors, in_step_calls_outside_a_step_report_not_in_step)
{
    corral_sched *s = small_sched(4);
    cr_assert_float_eq(corral_dt(NULL), 0.0f, 1e-12);
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_IN_STEP);
    cr_assert_null(corral_sched_of(NULL));
    corral_sched_destroy(s);
}
