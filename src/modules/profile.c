/*
    profile.c -- the profile read out: the counters per type and class, the
    arena's and the pools' (corral_stats_*), and the frame history
    (corral_history). A module: a game that never reads its profile links
    none of it. The counters are kept where they count; stats.c times the
    steps and samples the frames.
*/
#include "../corral_internal.h"

#include <string.h>

bool corral__stats_ok(const char *call, const corral_sched *s, const void *out)
{
    if (!corral__check_in(s, call)) return false;
    CORRAL__REQUIRE_AT(s, out, CORRAL_ERR_NULL_ARG, call, CORRAL__NOH, NULL, NULL, false);
    return true;
}

uint32_t corral_type_count(const corral_sched *s)
{
    return corral__stats_ok(__func__, s, s) ? s->types.type_count : 0;
}

uint32_t corral_class_count(const corral_sched *s)
{
    return corral__stats_ok(__func__, s, s) ? s->arena.class_count : 0;
}

bool corral_stats_type(const corral_sched *s, uint32_t i, corral_type_stats *out)
{
    if (!corral__stats_ok(__func__, s, out) || i >= s->types.type_count) return false;
    const corral__type_entry *te = &corral__types(s)[i];
    memset(out, 0, sizeof *out);
    out->name = te->vt->name;
    out->id = te->id;
    out->budget = te->budget;
    out->ctx_size = te->ctx_size;
    out->class_index = te->cls;
    out->slot_size = te->cls == CORRAL__NO_CLASS ? 0 : s->arena.classes[te->cls].slot_size;
    out->live = te->live + corral__uncounted_of_type(s, i); /* a first step's, not counted yet */
    out->peak = te->peak;
    out->started = te->started;
    uint64_t other = 0;
    const uint64_t *ends = corral__ends(s, i);
    for (uint32_t r = 0; r < CORRAL__END_SLOTS; r++) {
        out->ended[CORRAL__END_FIRST_COUNTED + r] = ends[r];
        other += ends[r];
    }
    out->finished = te->started - out->live - te->stopped - other;
    out->stopped = te->stopped;
    out->ended[CORRAL_END_FINISHED] = out->finished;
    out->ended[CORRAL_END_STOPPED] = te->stopped;
    out->failed = te->failed;
    if (out->slot_size) out->padding = out->slot_size - te->ctx_size; /* header included: slot minus context */
    out->padding_bytes = (uint64_t)out->live * (out->slot_size ? out->slot_size - te->ctx_size : 0);
    out->steps = te->steps;
    out->steps_timed = te->steps_timed;
    out->step_ns = te->step_ns;
    out->step_ns_max = te->step_ns_max;
    return true;
}

bool corral_stats_type_of(const corral_sched *s, const corral_type *type, corral_type_stats *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    for (uint32_t i = 0; i < s->types.type_count; i++)
        if (corral__types(s)[i].vt == type) return corral_stats_type(s, i, out);
    return false;
}

bool corral_stats_class(const corral_sched *s, uint32_t i, corral_class_stats *out)
{
    if (!corral__stats_ok(__func__, s, out) || i >= s->arena.class_count) return false;
    const corral__class *c = &s->arena.classes[i];
    memset(out, 0, sizeof *out);
    out->slot_size = c->slot_size;
    out->capacity = c->capacity;
    out->used = c->used + corral__uncounted_of_class(s, i); /* a first step's, not counted yet */
    out->peak = c->peak;
    out->retired = c->retired;
    out->failures = c->failures;
    /* the live contexts' bytes, from its types' live counts (exact; kept
       off the start and end paths) */
    const corral__type_entry *T = corral__types(s);
    for (uint32_t t = 0; t < s->types.type_count; t++)
        if (T[t].cls == i) out->ctx_bytes += (uint64_t)(T[t].live + corral__uncounted_of_type(s, t)) * T[t].ctx_size;
    out->padding_bytes = (uint64_t)out->used * c->slot_size - out->ctx_bytes;
    memcpy(out->name, c->name, sizeof out->name);
    return true;
}

bool corral_stats_arena(const corral_sched *s, corral_arena_stats *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    memset(out, 0, sizeof *out);
    out->total_bytes = s->total_bytes;
    out->slab_bytes = s->arena.slab_bytes;
    out->live = corral__live_read(s, &out->slot_bytes, &out->ctx_bytes); /* with a first step's, not counted yet */
    out->slot_bytes_peak = s->arena.slot_bytes_peak;
    out->ctx_bytes_peak = s->arena.ctx_bytes_peak;
    out->live_peak = s->arena.live_peak;
    out->frames = s->now.frame;
    out->tick_ns_last = s->prof.tick_ns_last;
    out->tick_ns_max = s->prof.tick_ns_max;
    out->tick_ns_total = s->prof.tick_ns_total;
    return true;
}

bool corral_stats_pools(const corral_sched *s, corral_pool_stats *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    memset(out, 0, sizeof *out);
    out->wait_nodes_capacity = s->nodes.wait_count;
    out->wait_nodes = s->nodes.wait_count - s->nodes.wait_free_count;
    out->wait_nodes_peak = s->nodes.wait_peak;
    out->group_nodes_capacity = s->nodes.count - s->nodes.wait_count;
    out->group_nodes = out->group_nodes_capacity - s->nodes.group_free_count;
    out->group_nodes_peak = s->nodes.group_peak;
    out->side_records_capacity = s->sides.count;
    out->side_records = s->sides.count - s->sides.free_count;
    out->side_records_peak = s->sides.peak;
    out->side_failures = s->sides.failures;
    out->sleepers_capacity = s->timers.max_sleepers;
    out->sleepers = s->timers.sleepers;
    out->sleepers_peak = s->timers.sleepers_peak;
    out->sleepers_spilled = s->timers.spilled;
    const corral__pool *P = s->pools;
    out->signals_capacity = P[CORRAL__POOL_SIGNAL].cap;
    out->signals = P[CORRAL__POOL_SIGNAL].live;
    out->signals_peak = P[CORRAL__POOL_SIGNAL].peak;
    out->futures_capacity = P[CORRAL__POOL_FUTURE].cap;
    out->futures = P[CORRAL__POOL_FUTURE].live;
    out->futures_peak = P[CORRAL__POOL_FUTURE].peak;
    out->wait_failures = s->nodes.wait_failures;
    out->group_failures = s->nodes.group_failures;
    out->signal_failures = P[CORRAL__POOL_SIGNAL].failures;
    out->future_failures = P[CORRAL__POOL_FUTURE].failures;
    out->channels = P[CORRAL__POOL_CHANNEL].live;
    out->channels_peak = P[CORRAL__POOL_CHANNEL].peak;
    out->channels_capacity = P[CORRAL__POOL_CHANNEL].cap;
    out->counters = P[CORRAL__POOL_COUNTER].live;
    out->counters_peak = P[CORRAL__POOL_COUNTER].peak;
    out->counters_capacity = P[CORRAL__POOL_COUNTER].cap;
    out->channel_failures = P[CORRAL__POOL_CHANNEL].failures;
    out->counter_failures = P[CORRAL__POOL_COUNTER].failures;
    if (corral__posts(s)) corral__posts(s)->stats(s, out);
    return true;
}

/* a walk of the slots: a generator's state says so (CORRAL__HOLD_GENERATOR
   held) or the chain of pulls on the C stack (stepping), its tie is a node
   of its chain (pulls.c) */
bool corral_stats_generators(const corral_sched *s, corral_generator_stats *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    memset(out, 0, sizeof *out);
    const corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *c = &s->arena.classes[i];
        for (uint32_t k = 0; k < c->capacity; k++) {
            const corral_co *co = CORRAL__CO(s, corral__slot_off(c, k));
            const corral__meta *m = &corral__meta_table(s)[c->first + k];
            if (!corral__state_alive(co->state) || !corral__co_is_generator(s, co)) continue;
            out->live++;
            if (!corral__co_sided(m)) continue;
            for (uint32_t n = corral__side_at(s, m)->groups; n != CORRAL__NIL; n = N[n].sibling)
                if (N[n].kind == CORRAL__NODE_OWNED) {
                    out->owned++;
                    break;
                }
        }
    }
    out->game = out->live - out->owned;
    return true;
}

uint32_t corral_history(const corral_sched *s, corral_frame_sample *out, uint32_t max)
{
    if (!corral__stats_ok(__func__, s, out)) return 0;
    uint32_t n = s->prof.hist_count < max ? s->prof.hist_count : max;
    for (uint32_t i = 0; i < n; i++) out[i] = *corral__hist_at(s, s->prof.hist_count - n + i); /* the newest n */
    return n;
}
