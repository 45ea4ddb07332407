/*
    stats.c -- the profile part (corral_part_profile): the instrumented
    step (timing, hooks, the step trace) and the frame history's samples,
    which a scheduler reaches through the part's table (queue.c's
    instrumented walks are named in it too).

    The counters themselves are kept by the files that count (lifecycle.c on
    start and end, the pools on their failures) as plain adds; profile.c
    copies them out, export.c prints them.
*/
#include "../corral_internal.h"

#include <string.h>

/* ---- timing and hooks: the instrumented step (the plain walk never
   comes here) */
/* the handle a step hook or the step trace is given: off the timed path */
static CORRAL__COLD corral_handle corral__hooked_handle(const corral_sched *s, const corral_co *co)
{
    return corral__handle_of(s, co);
}

static corral_result corral__step_instrumented(corral_sched *s, corral_co *co)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    corral_handle h = {0, 0};
    if (s->prof.hooks.step_begin || s->prof.hooks.step_end) h = corral__hooked_handle(s, co);
    if (s->prof.hooks.step_begin) s->prof.hooks.step_begin(te->vt->name, h, s->prof.hooks.user_data);
    /* one in timing_sample of a type's steps is timed (corral__step_profiled
       counts the others inline unless step hooks bring them here) */
    const bool timed = s->prof.timing && (te->steps & s->prof.sample_mask) == 0;
    /* With every step timed, back-to-back steps of a walk share a clock
       read: one step's end is the next one's start (the walk's own few
       instructions between them count as step time); anything else between
       two steps breaks the chain. Sampled steps are never back to back. */
    bool walked = co->state == CORRAL__QUEUED && s->run.running == corral__co_off(s, co); /* not a detached step */
    uint64_t t0 = !timed ? 0 : (walked && s->prof.chain_valid) ? s->prof.chain_t : s->now.clock.now_ns(s->now.clock.user_data);
    uint32_t type = co->type;
    corral_result r = te->step(co);
    if (s->prof.timing) te->steps++;
    if (timed) {
        uint64_t t1 = s->now.clock.now_ns(s->now.clock.user_data);
        uint64_t dt = t1 - t0;
        s->prof.chain_t = t1;
        s->prof.chain_valid = walked && r == CORRAL_YIELD && co->state == CORRAL__QUEUED && !s->prof.hooks.step_end &&
                              s->prof.sample_mask == 0;
        te->steps_timed++;
        te->step_ns += dt;
        if (dt > te->step_ns_max) te->step_ns_max = dt;
        if (s->prof.trace_cap) {
            corral__trace_ev *ev = (corral__trace_ev *)(void *)CORRAL__AT(s, s->prof.trace_off);
            corral__trace_ev *e = &ev[s->prof.trace_head];
            e->t0 = t0;
            e->dur_ns = dt > UINT32_MAX ? UINT32_MAX : (uint32_t)dt;
            e->type = (uint16_t)type;
            e->line = r == CORRAL_YIELD ? (uint16_t)(co->resume >> 16) : 0u;
            if (h.gen == 0) h = corral__hooked_handle(s, co);
            e->index = h.index;
            e->gen = h.gen;
            s->prof.trace_head = (s->prof.trace_head + 1) % s->prof.trace_cap;
            if (s->prof.trace_count < s->prof.trace_cap) s->prof.trace_count++;
        }
    }
    if (s->prof.hooks.step_end) s->prof.hooks.step_end(te->vt->name, h, s->prof.hooks.user_data);
    return r;
}

/* ---- frame history */
static void corral__sample_frame(corral_sched *s)
{
    s->prof.frame_open = 0;
    if (!s->prof.hist_cap) return;
    corral_frame_sample *ring = (corral_frame_sample *)(void *)CORRAL__AT(s, s->prof.hist_off);
    corral_frame_sample *f = &ring[s->prof.hist_head];
    memset(f, 0, sizeof *f);
    f->frame = s->now.frame;
    f->time = s->prof.frame_start_time;
    f->dt = s->now.unscaled_dt;
    f->live = s->arena.live;
    f->steps = s->prof.frame_steps;
    f->slot_bytes = s->arena.slot_bytes;
    f->tick_start_ns = s->prof.frame_tick_start;
    f->tick_ns = s->prof.frame_tick_ns;
    for (uint32_t i = 0; i < s->arena.class_count; i++) f->class_used[i] = s->arena.classes[i].used;
    const corral__type_entry *T = corral__types(s);
    for (uint32_t t = 0; t < s->types.type_count && t < CORRAL_HISTORY_TYPES; t++) f->type_live[t] = T[t].live;
    s->prof.hist_head = (s->prof.hist_head + 1) % s->prof.hist_cap;
    if (s->prof.hist_count < s->prof.hist_cap) s->prof.hist_count++;
}

static const corral__profile_part corral__profile_table = {
    .walk = corral__walk_profiled,
    .walk_budgeted = corral__walk_budgeted_profiled,
    .step = corral__step_instrumented,
    .sample_frame = corral__sample_frame,
};
const corral_part corral_part_profile = {
    .feature = CORRAL__FEATURE_PROFILE,
    .table = &corral__profile_table,
};
