/*
    test_tracy.c -- corral_tracy.h drives Tracy's C API: a zone per step,
    named after the type, nested as steps nest; TracyCAllocN / TracyCFreeN
    per slot with the class's pool name. Built against tests/tracy_stub
    (Tracy's C API, recorded) unless the real TracyC.h is found.
*/
#include "common.h"

#include <corral/corral_tracy.h>

#if !CORRAL_HAVE_TRACY
#error "the adapter must see TracyC.h here"
#endif

static int g_zones_open, g_zones_max, g_zone_total, g_allocs, g_frees;
static char g_last_zone[32], g_last_pool[32];
static long g_pool_bytes;

TracyCZoneCtx ___tracy_emit_zone_begin(const struct ___tracy_source_location_data *srcloc, int active)
{
    TracyCZoneCtx c;
    (void)srcloc;
    c.id = (uint32_t)++g_zone_total;
    c.active = active;
    if (++g_zones_open > g_zones_max) g_zones_max = g_zones_open;
    return c;
}
void ___tracy_emit_zone_end(TracyCZoneCtx ctx)
{
    (void)ctx;
    g_zones_open--;
}
void ___tracy_emit_zone_name(TracyCZoneCtx ctx, const char *txt, size_t size)
{
    (void)ctx;
    snprintf(g_last_zone, sizeof g_last_zone, "%.*s", (int)size, txt);
}
void ___tracy_emit_memory_alloc_named(const void *ptr, size_t size, int secure, const char *name)
{
    (void)ptr;
    (void)secure;
    g_allocs++;
    g_pool_bytes += (long)size;
    snprintf(g_last_pool, sizeof g_last_pool, "%s", name);
}
void ___tracy_emit_memory_free_named(const void *ptr, int secure, const char *name)
{
    (void)ptr;
    (void)secure;
    (void)name;
    g_frees++;
}

/* a coroutine that starts another from its first step: zones nest */
#define SPAWNS_FIELDS(F) F(int, n)
DECLARE_COROUTINE(spawns, SPAWNS_FIELDS)
DEFINE_COROUTINE(spawns)
{
    if (ctx->n-- > 0) start_tracer(corral_sched_of(co), 1, 2);
    return CORRAL_YIELD;
}

Test(tracy, a_zone_per_step_and_a_named_pool_per_size_class)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.hooks = corral_tracy_hooks();
    corral_sched *s = sched_of(d);
    corral_handle h = spawns_start(s, (spawns_ctx){1});
    cr_assert_eq(g_zones_max, 2, "the tracer's first step ran inside the spawner's zone");
    cr_assert_eq(g_zones_open, 0);
    cr_assert_eq(g_allocs, 2);
    cr_assert_str_eq(g_last_pool, "corral 64B");
    cr_assert_eq(g_pool_bytes, 128);
    corral_tick(s, 0.f); /* spawner + tracer (its 2nd step ends it) */
    cr_assert_eq(g_zone_total, 4);
    cr_assert_eq(g_frees, 1);
    corral_stop(s, h);
    cr_assert_eq(g_frees, 2);
    cr_assert_str_eq(g_last_zone, "spawns", "the tick stepped the tracer (queued first), then the spawner");
    corral_sched_destroy(s);
}
