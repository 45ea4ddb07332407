/* test_handles.c -- index + generation, stale and forged handles, wrap. */
#include "common.h"
#include "corral_internal.h"

Test(handles, zero_handle_is_invalid_everywhere)
{
    corral_sched *s = small_sched(4);
    corral_handle zero = {0, 0};
    cr_assert_not(corral_alive(s, zero));
    cr_assert_not(corral_stop(s, zero));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_HANDLE);
    corral_sched_destroy(s);
}

Test(handles, handle_of_a_finished_coroutine_is_stale)
{
    corral_sched *s = small_sched(4);
    corral_handle h = start_tracer(s, 1, 2);
    cr_assert(corral_alive(s, h));
    corral_tick(s, 0.f);
    cr_assert_not(corral_alive(s, h));
    cr_assert_not(corral_stop(s, h));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    corral_sched_destroy(s);
}

Test(handles, stale_handle_cannot_touch_the_new_tenant_of_its_slot)
{
    corral_sched *s = small_sched(1);
    corral_handle old = start_tracer(s, 1, 0);
    corral_stop(s, old);
    corral_handle now = start_tracer(s, 2, 0);
    cr_assert_eq(now.index, old.index, "same slot");
    cr_assert_not(corral_alive(s, old));
    cr_assert_not(corral_stop(s, old), "the stale handle does not stop the new coroutine");
    cr_assert(corral_alive(s, now));
    corral_sched_destroy(s);
}

Test(handles, forged_handle_outside_the_pools_is_detected)
{
    corral_sched *s = small_sched(4);
    corral_handle bad_class = {5u << 24, 1};
    corral_handle bad_slot = {4, 1};
    cr_assert_not(corral_alive(s, bad_class));
    cr_assert_not(corral_stop(s, bad_class));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_FORGED_HANDLE);
    cr_assert_not(corral_stop(s, bad_slot));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_FORGED_HANDLE);
    corral_handle free_slot = {2, 1}; /* exists, never used */
    cr_assert_not(corral_stop(s, free_slot));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_STALE_HANDLE);
    corral_sched_destroy(s);
}

static corral_handle g_self;
static corral_result grab_self(corral_co *co, struct actor_ctx *ctx)
{
    (void)ctx;
    g_self = corral_self(co);
    return CORRAL_YIELD;
}

Test(handles, corral_self_inside_a_step_matches_the_returned_handle)
{
    corral_sched *s = small_sched(4);
    corral_handle none = {0, 0};
    start_tracer(s, 1, 0);
    corral_handle h = start_actor(s, 2, grab_self, none, NULL);
    cr_assert_eq(g_self.index, h.index);
    cr_assert_eq(g_self.gen, h.gen);
    corral_sched_destroy(s);
}

Test(handles, generation_near_the_wrap_retires_the_slot_so_no_handle_revives)
{
    corral_sched *s = small_sched(2);
    corral_handle first = start_tracer(s, 1, 0); /* slot 0, gen 1 */
    corral_stop(s, first);
    cr_assert(corral__debug_set_gen(s, first.index, UINT32_MAX - 2));
    corral_handle seen[3];
    for (int i = 0; i < 3; i++) {
        seen[i] = start_tracer(s, 1, 0);
        cr_assert_eq(seen[i].index, first.index);
        cr_assert_eq(seen[i].gen, UINT32_MAX - 2 + (uint32_t)i);
        corral_stop(s, seen[i]);
    }
    /* the slot reached UINT32_MAX and was retired, not wrapped to 0 or 1 */
    corral_class_stats c;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.retired, 1);
    corral_handle next = start_tracer(s, 1, 0);
    cr_assert_neq(next.index, first.index, "the retired slot is never handed out again");
    cr_assert_eq(start_tracer(s, 1, 0).gen, 0, "capacity is now 1: full");
    cr_assert_not(corral_alive(s, first));
    for (int i = 0; i < 3; i++) cr_assert_not(corral_alive(s, seen[i]));
    corral_sched_destroy(s);
}

Test(handles, generation_survives_2_pow_32_reuses_without_aliasing)
{
    /* A handle from generation g must not match the slot at g + 2^32. With
       32-bit generations that is the wrap; forcing the slot just below it and
       cycling through shows every handle issued there stays dead. */
    corral_sched *s = small_sched(1);
    corral_handle h = start_tracer(s, 1, 0);
    corral_stop(s, h);
    corral__debug_set_gen(s, h.index, UINT32_MAX);
    corral_handle last = start_tracer(s, 1, 0);
    cr_assert_eq(last.gen, UINT32_MAX);
    corral_stop(s, last);
    for (uint32_t g = 0; g < 4; g++) {
        corral_handle forged = {h.index, g};
        cr_assert_not(corral_alive(s, forged));
    }
    cr_assert_eq(start_tracer(s, 1, 0).gen, 0, "the only slot is retired");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    corral_sched_destroy(s);
}
