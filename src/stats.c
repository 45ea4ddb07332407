/*
    stats.c -- counters out, and the text report.

    The counters themselves are kept by the files that count (lifecycle.c on
    start and end, the pools on their failures) as plain adds; this file
    copies them out, prints them, times instrumented steps and keeps the
    frame history. Export formats are export.c's.
*/
#include "corral_internal.h"

#include <inttypes.h>
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
    out->live = te->live;
    out->peak = te->peak;
    out->started = te->started;
    uint64_t other = 0;
    const uint64_t *ends = corral__ends(s, i);
    for (uint32_t r = 0; r < CORRAL__END_SLOTS; r++) {
        out->ended[CORRAL__END_FIRST_COUNTED + r] = ends[r];
        other += ends[r];
    }
    out->finished = te->started - te->live - te->stopped - other;
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
    out->used = c->used;
    out->peak = c->peak;
    out->retired = c->retired;
    out->failures = c->failures;
    /* the live contexts' bytes, from its types' live counts (exact; kept
       off the start and end paths) */
    const corral__type_entry *T = corral__types(s);
    for (uint32_t t = 0; t < s->types.type_count; t++)
        if (T[t].cls == i) out->ctx_bytes += (uint64_t)T[t].live * T[t].ctx_size;
    out->padding_bytes = (uint64_t)c->used * c->slot_size - out->ctx_bytes;
    memcpy(out->name, c->name, sizeof out->name);
    return true;
}

bool corral_stats_arena(const corral_sched *s, corral_arena_stats *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    memset(out, 0, sizeof *out);
    out->total_bytes = s->total_bytes;
    out->slab_bytes = s->arena.slab_bytes;
    out->slot_bytes = s->arena.slot_bytes;
    out->slot_bytes_peak = s->arena.slot_bytes_peak;
    out->ctx_bytes = s->arena.ctx_bytes;
    out->ctx_bytes_peak = s->arena.ctx_bytes_peak;
    out->live = s->arena.live;
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
    corral__posts_stats(s, out);
    return true;
}

/* ---- timing and hooks: the instrumented step (the plain walk never
   comes here) */
corral_result corral__step_instrumented(corral_sched *s, corral_co *co)
{
    corral__type_entry *te = &corral__types(s)[co->type];
    corral_handle h = {0, 0};
    if (s->prof.hooks.step_begin || s->prof.hooks.step_end) h = corral__handle_of(s, co);
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
            if (h.gen == 0) h = corral__handle_of(s, co);
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
void corral__sample_frame(corral_sched *s)
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

uint32_t corral_history(const corral_sched *s, corral_frame_sample *out, uint32_t max)
{
    if (!corral__stats_ok(__func__, s, out)) return 0;
    uint32_t n = s->prof.hist_count < max ? s->prof.hist_count : max;
    for (uint32_t i = 0; i < n; i++) out[i] = *corral__hist_at(s, s->prof.hist_count - n + i); /* the newest n */
    return n;
}

/* "12.3 KiB" style; b < 1024 prints exact bytes */
static const char *corral__bytes(char *buf, size_t n, uint64_t b)
{
    if (b < 1024) snprintf(buf, n, "%" PRIu64 " B", b);
    else if (b < 1024u * 1024u) snprintf(buf, n, "%.1f KiB", (double)b / 1024.0);
    else snprintf(buf, n, "%.2f MiB", (double)b / (1024.0 * 1024.0));
    return buf;
}

/* With desc.wait_text: where the live coroutines wait, one line per place
   (type, line, the wait as written), the first 16 places, the rest summed */
static void corral__report_waits(const corral_sched *s, FILE *out)
{
    enum { PLACES = 16 };
    struct { const corral_type *type; uint32_t line, count; corral_co_state state; corral_wait_kind wait;
             corral_call_kind call; const char *text, *file; } at[PLACES];
    uint32_t n = 0, others = 0, cur = 0;
    corral_co_info in;
    while (corral_next_co(s, &cur, &in)) {
        uint32_t k = 0;
        while (k < n && !(at[k].type == in.type && at[k].line == in.line && at[k].wait == in.wait &&
                          at[k].call == in.call && at[k].text == in.wait_text && at[k].state == in.state))
            k++;
        if (k == n && n == PLACES) {
            others++;
            continue;
        }
        if (k == n) {
            at[n].type = in.type, at[n].line = in.line, at[n].count = 0, at[n].state = in.state;
            at[n].wait = in.wait, at[n].call = in.call, at[n].text = in.wait_text, at[n].file = in.file;
            n++;
        }
        at[k].count++;
    }
    fprintf(out, "\n  %-20s %7s  %s\n", "waiting", "count", "where, on what");
    for (uint32_t k = 0; k < n; k++) {
        const char *file = at[k].file ? at[k].file : "?", *base = file;
        for (const char *p = file; *p; p++)
            if (*p == '/' || *p == '\\') base = p + 1;
        fprintf(out, "  %-20s %7u  %s:%u  %s", at[k].type->name, at[k].count, base, at[k].line,
                at[k].call == CORRAL_CALL_RACE   ? "race"
                : at[k].call == CORRAL_CALL_SYNC ? "sync"
                : at[k].call == CORRAL_CALL_ONE  ? "call"
                : at[k].wait != CORRAL_WAIT_NONE ? corral_wait_kind_str(at[k].wait)
                                                  : corral_co_state_str(at[k].state));
        fprintf(out, "%s%s\n", at[k].text && *at[k].text ? " " : "", at[k].text ? at[k].text : "");
    }
    if (others) fprintf(out, "  %-20s %7u  (in other places)\n", "...", others);
}

void corral_report_text(const corral_sched *s, FILE *out)
{
    if (!corral__stats_ok(__func__, s, out)) return;
    char a[32], b[32], c[32], d[32];
    fprintf(out, "corral arena: %s block, %s of slabs, %u live (peak %u), frame %" PRIu64 "\n",
            corral__bytes(a, sizeof a, s->total_bytes), corral__bytes(b, sizeof b, s->arena.slab_bytes), s->arena.live,
            s->arena.live_peak, s->now.frame);
    fprintf(out, "  in slots  %12s   peak %12s\n", corral__bytes(a, sizeof a, s->arena.slot_bytes),
            corral__bytes(b, sizeof b, s->arena.slot_bytes_peak));
    fprintf(out, "  contexts  %12s   peak %12s   (padding now %s, at peak %s)\n",
            corral__bytes(a, sizeof a, s->arena.ctx_bytes), corral__bytes(b, sizeof b, s->arena.ctx_bytes_peak),
            corral__bytes(c, sizeof c, s->arena.slot_bytes - s->arena.ctx_bytes),
            corral__bytes(d, sizeof d, s->arena.slot_bytes_peak - s->arena.ctx_bytes_peak));
    if (s->prof.timing)
        fprintf(out, "  ticks     last %" PRIu64 " ns, max %" PRIu64 " ns, mean %" PRIu64 " ns\n", s->prof.tick_ns_last,
                s->prof.tick_ns_max, s->now.frame ? s->prof.tick_ns_total / s->now.frame : 0);
    fprintf(out, "\n  %-5s %6s %9s %7s %7s %9s %7s %9s %8s\n", "class", "slot B", "capacity", "used", "peak",
            "headroom", "peak %", "failures", "retired");
    for (uint32_t i = 0; i < s->arena.class_count; i++) {
        const corral__class *k = &s->arena.classes[i];
        uint32_t usable = k->capacity - k->retired;
        uint32_t pct = usable ? (uint32_t)((uint64_t)k->peak * 100u / usable) : 0;
        const char *flag = k->failures ? "  <- FULL: starts were refused"
                           : (usable && pct >= 90) ? "  <- over 90% at peak"
                                                   : "";
        fprintf(out, "  %-5u %6u %9u %7u %7u %9u %6u%% %9" PRIu64 " %8u%s\n", i, k->slot_size, k->capacity, k->used,
                k->peak, usable - k->peak, pct, k->failures, k->retired, flag);
    }
    corral_pool_stats p = {0};
    corral_stats_pools(s, &p);
    fprintf(out, "\n  %-12s %7s %7s %9s %9s\n", "pool", "used", "peak", "capacity", "failures");
    fprintf(out, "  %-12s %7u %7u %9u %9" PRIu64 "\n", "wait nodes", p.wait_nodes, p.wait_nodes_peak,
            p.wait_nodes_capacity, p.wait_failures);
    fprintf(out, "  %-12s %7u %7u %9u %9" PRIu64 "\n", "group nodes", p.group_nodes, p.group_nodes_peak,
            p.group_nodes_capacity, p.group_failures);
    fprintf(out, "  %-12s %7u %7u %9u %9" PRIu64 "\n", "signals", p.signals, p.signals_peak, p.signals_capacity,
            p.signal_failures);
    fprintf(out, "  %-12s %7u %7u %9u %9" PRIu64 "\n", "futures", p.futures, p.futures_peak, p.futures_capacity,
            p.future_failures);
    /* started = live + finished + stopped + other: every end in one column */
    fprintf(out, "\n  %-20s %4s %6s %6s %5s %7s %7s %9s %9s %9s %7s %7s", "type", "id", "ctx B", "slot B", "class",
            "live", "peak", "started", "finished", "stopped", "other", "failed");
    if (s->prof.timing) fprintf(out, " %9s %9s %9s", "steps", "body ns", "body max");
    fputc('\n', out);
    bool others = false;
    for (uint32_t i = 0; i < s->types.type_count; i++) {
        corral_type_stats t = {0};
        corral_stats_type(s, i, &t);
        char cls[8];
        if (t.class_index == CORRAL__NO_CLASS) snprintf(cls, sizeof cls, "none");
        else snprintf(cls, sizeof cls, "%u", t.class_index);
        uint64_t other = t.started - t.live - t.finished - t.stopped;
        others |= other != 0;
        fprintf(out, "  %-20s %4u %6u %6u %5s %7u %7u %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %7" PRIu64,
                t.name, t.id, t.ctx_size, t.slot_size, cls, t.live, t.peak, t.started, t.finished, t.stopped, other,
                t.failed);
        if (s->prof.timing)
            fprintf(out, " %9" PRIu64 " %9" PRIu64 " %9" PRIu64, t.steps, t.steps_timed ? t.step_ns / t.steps_timed : 0,
                    t.step_ns_max);
        fputs(t.failed ? "  <- starts refused\n" : "\n", out);
    }
    if (s->prof.timing)
        fputs("  (body ns: the mean time inside a type's step, its own work included; max the longest)\n", out);
    if (others) { /* what "other" was made of */
        fputs("\n  other ends\n", out);
        for (uint32_t i = 0; i < s->types.type_count; i++) {
            corral_type_stats t = {0};
            corral_stats_type(s, i, &t);
            bool any = false;
            for (int r = CORRAL_END_STOPPED + 1; r < CORRAL_END_COUNT; r++) {
                if (!t.ended[r]) continue;
                if (!any) fprintf(out, "  %-20s", t.name);
                fprintf(out, "%s %s %" PRIu64, any ? "," : "", corral_end_reason_str((corral_end_reason)r), t.ended[r]);
                any = true;
            }
            if (any) fputc('\n', out);
        }
    }
    if (s->nodes.text_off && s->arena.live) corral__report_waits(s, out);
}
