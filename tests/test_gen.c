/* test_gen.c -- what DECLARE/DEFINE/REGISTRY generate. */
#include "common.h"

#include <stdalign.h>
#include <stdbool.h>

typedef struct vec2 {
    float x, y;
} vec2;

#define PROBE_FIELDS(F)        \
    F(int, i)                  \
    F(unsigned short, u)       \
    F(float, f)                \
    F(double, d)               \
    F(bool, b)                 \
    F(const char *, text)      \
    F(vec2, v)                 \
    F(corral_handle, other)
DECLARE_COROUTINE(probe, PROBE_FIELDS)
DEFINE_COROUTINE(probe)
{
    ctx->i++;
    return CORRAL_YIELD;
}

Test(gen, context_struct_has_the_declared_fields_with_their_types)
{
    probe_ctx c = {.i = 1, .u = 2, .f = 3.0f, .d = 4.0, .b = true, .text = "x", .v = {5, 6}};
    cr_assert_eq(c.i + c.u, 3);
    cr_assert_eq(sizeof c.u, sizeof(unsigned short));
    cr_assert_eq(sizeof c.v, sizeof(vec2));
    cr_assert_eq(sizeof(probe_ctx), probe_type.ctx_size);
    cr_assert_eq(alignof(probe_ctx), probe_type.ctx_align);
}

Test(gen, field_table_lists_name_type_text_offset_and_size)
{
    uint32_t n = 0;
    const corral_field *f = probe_type.fields(&n);
    cr_assert_eq(n, 8);
    cr_assert_str_eq(f[0].name, "i");
    cr_assert_str_eq(f[0].type_name, "int");
    cr_assert_str_eq(f[1].type_name, "unsigned short");
    cr_assert_str_eq(f[5].type_name, "const char *");
    cr_assert_str_eq(f[6].name, "v");
    cr_assert_str_eq(f[6].type_name, "vec2");
    cr_assert_eq(f[2].offset, offsetof(probe_ctx, f));
    cr_assert_eq(f[3].offset, offsetof(probe_ctx, d));
    cr_assert_eq(f[6].offset, offsetof(probe_ctx, v));
    cr_assert_eq(f[7].offset, offsetof(probe_ctx, other));
    cr_assert_eq(f[3].size, sizeof(double));
    cr_assert_eq(f[7].size, sizeof(corral_handle));
    cr_assert_eq(probe__fields(NULL), f, "one table per type");
}

Test(gen, field_kinds_are_classified_for_printing)
{
    const corral_field *f = probe_type.fields(NULL);
    cr_assert_eq(f[0].kind, CORRAL_FIELD_INT);
    cr_assert_eq(f[1].kind, CORRAL_FIELD_UINT);
    cr_assert_eq(f[2].kind, CORRAL_FIELD_FLOAT);
    cr_assert_eq(f[3].kind, CORRAL_FIELD_FLOAT);
    cr_assert_eq(f[4].kind, CORRAL_FIELD_BOOL);
    cr_assert_eq(f[5].kind, CORRAL_FIELD_POINTER);
    cr_assert_eq(f[6].kind, CORRAL_FIELD_OTHER);
    cr_assert_eq(f[7].kind, CORRAL_FIELD_HANDLE);
}

Test(gen, vtable_carries_name_sizes_and_the_context_offset)
{
    cr_assert_str_eq(probe_type.name, "probe");
    cr_assert_not_null(probe_type.step);
    cr_assert_null(probe_type.cleanup, "no cleanup declared");
    cr_assert_not_null(cleaned_type.cleanup, "declared with DEFINE_COROUTINE_CLEANUP");
    cr_assert_eq(probe_type.ctx_offset, 16, "right after the 16-byte header");
    cr_assert_eq(sizeof(corral_co), 16, "the header is 16 bytes");
}

#define ECHO_FIELDS(F) \
    F(int, in)         \
    F(int *, out)
DECLARE_COROUTINE(echo, ECHO_FIELDS)
DEFINE_COROUTINE(echo)
{
    *ctx->out = ctx->in;
    ctx->in++;
    return CORRAL_YIELD;
}

Test(gen, step_body_sees_its_own_typed_context_between_steps)
{
    corral_sched *s = small_sched(4);
    int out = 0;
    echo_start(s, (echo_ctx){.in = 10, .out = &out});
    cr_assert_eq(out, 10);
    corral_tick(s, 0.f);
    cr_assert_eq(out, 11);
    corral_tick(s, 0.f);
    cr_assert_eq(out, 12);
    corral_sched_destroy(s);
}

Test(gen, ctx_of_gives_the_live_context_and_null_for_dead_or_other_types)
{
    corral_sched *s = small_sched(4);
    int out = 0;
    corral_handle h = echo_start(s, (echo_ctx){.in = 5, .out = &out});
    echo_ctx *c = echo_ctx_of(s, h);
    cr_assert_not_null(c);
    cr_assert_eq(c->in, 6, "the first step already ran");
    c->in = 100; /* a game may steer a running coroutine through its context */
    corral_tick(s, 0.f);
    cr_assert_eq(out, 100);
    cr_assert_null(probe_ctx_of(s, h), "another type's accessor refuses");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WRONG_TYPE);
    corral_stop(s, h);
    cr_assert_null(echo_ctx_of(s, h));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    corral_sched_destroy(s);
}

#define GEN_COROUTINES(X) \
    X(probe, 7, 0)        \
    X(echo, 3, 16)
CORRAL_DECLARE_REGISTRY(genreg, GEN_COROUTINES)
CORRAL_DEFINE_REGISTRY(genreg, GEN_COROUTINES);

Test(gen, registry_gives_stable_ids_budgets_and_a_union_of_contexts)
{
    cr_assert_eq(probe_type_id, 7);
    cr_assert_eq(echo_type_id, 3);
    cr_assert_eq(genreg_type_count, 2);
    cr_assert_str_eq(genreg_registry.name, "genreg");
    cr_assert_eq(genreg_registry.count, 2);
    cr_assert_eq(genreg_registry.types[0], &probe_type);
    cr_assert_eq(genreg_registry.types[1], &echo_type);
    cr_assert_eq(genreg_registry.ids[1], 3);
    cr_assert_eq(genreg_registry.budgets[1], 16);
    cr_assert_geq(sizeof(genreg_any_ctx), sizeof(probe_ctx));
    cr_assert_geq(sizeof(genreg_any_ctx), sizeof(echo_ctx));
}

Test(gen, registry_types_are_known_to_the_scheduler_before_any_start)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.registry = &genreg_registry;
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 4;
    d.classes[1].slot_size = 128;
    d.classes[1].capacity = 4;
    corral_sched *s = corral_sched_create(&d);
    cr_assert_eq(corral_type_count(s), 2);
    corral_type_stats t;
    cr_assert(corral_stats_type(s, 0, &t));
    cr_assert_str_eq(t.name, "probe");
    cr_assert_eq(t.id, 7);
    cr_assert(corral_stats_type(s, 1, &t));
    cr_assert_eq(t.id, 3);
    cr_assert_eq(t.budget, 16);
    corral_class_stats c;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.capacity, 4 + 16, "echo's budget lands in the 64-byte class");
    corral_sched_destroy(s);
}
