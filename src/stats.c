/*
    stats.c -- counters out, and the text report.

    The counters themselves are kept by arena.c and sched.c as plain adds on
    start and end; this file only copies them out and prints them.
*/
#include "corral_internal.h"

#include <inttypes.h>
#include <string.h>

static bool corral__stats_ok(const char *call, const corral_sched *s, const void *out)
{
    if (!corral__check_in(s, call)) return false;
    if (!out) {
        corral__fail_at(s, NULL, CORRAL_ERR_NULL_ARG, call, CORRAL__NOH, NULL, NULL);
        return false;
    }
    return true;
}

uint32_t corral_type_count(const corral_sched *s)
{
    return corral__stats_ok(__func__, s, s) ? s->type_count : 0;
}

uint32_t corral_class_count(const corral_sched *s)
{
    return corral__stats_ok(__func__, s, s) ? s->class_count : 0;
}

bool corral_stats_type(const corral_sched *s, uint32_t i, corral_type_stats *out)
{
    if (!corral__stats_ok(__func__, s, out) || i >= s->type_count) return false;
    const corral__type_entry *te = &corral__types(s)[i];
    memset(out, 0, sizeof *out);
    out->name = te->vt->name;
    out->id = te->id;
    out->budget = te->budget;
    out->ctx_size = te->ctx_size;
    out->class_index = te->cls;
    out->slot_size = te->cls == CORRAL__NO_CLASS ? 0 : s->classes[te->cls].slot_size;
    out->live = te->live;
    out->peak = te->peak;
    out->started = te->started;
    out->finished = te->finished;
    out->stopped = te->stopped;
    out->failed = te->failed;
    return true;
}

bool corral_stats_type_of(const corral_sched *s, const corral_type *type, corral_type_stats *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    for (uint32_t i = 0; i < s->type_count; i++)
        if (corral__types(s)[i].vt == type) return corral_stats_type(s, i, out);
    return false;
}

bool corral_stats_class(const corral_sched *s, uint32_t i, corral_class_stats *out)
{
    if (!corral__stats_ok(__func__, s, out) || i >= s->class_count) return false;
    const corral__class *c = &s->classes[i];
    memset(out, 0, sizeof *out);
    out->slot_size = c->slot_size;
    out->capacity = c->capacity;
    out->used = c->used;
    out->peak = c->peak;
    out->retired = c->retired;
    out->failures = c->failures;
    return true;
}

bool corral_stats_arena(const corral_sched *s, corral_arena_stats *out)
{
    if (!corral__stats_ok(__func__, s, out)) return false;
    memset(out, 0, sizeof *out);
    out->total_bytes = s->total_bytes;
    out->slab_bytes = s->slab_bytes;
    out->slot_bytes = s->slot_bytes;
    out->slot_bytes_peak = s->slot_bytes_peak;
    out->ctx_bytes = s->ctx_bytes;
    out->ctx_bytes_peak = s->ctx_bytes_peak;
    out->live = s->live;
    out->live_peak = s->live_peak;
    return true;
}

/* "12.3 KiB" style; b < 1024 prints exact bytes */
static const char *corral__bytes(char *buf, size_t n, uint64_t b)
{
    if (b < 1024) snprintf(buf, n, "%" PRIu64 " B", b);
    else if (b < 1024u * 1024u) snprintf(buf, n, "%.1f KiB", (double)b / 1024.0);
    else snprintf(buf, n, "%.2f MiB", (double)b / (1024.0 * 1024.0));
    return buf;
}

void corral_report_text(const corral_sched *s, FILE *out)
{
    if (!corral__stats_ok(__func__, s, out)) return;
    char a[32], b[32], c[32], d[32];
    fprintf(out, "corral arena: %s block, %s of slabs, %u live (peak %u)\n",
            corral__bytes(a, sizeof a, s->total_bytes), corral__bytes(b, sizeof b, s->slab_bytes),
            s->live, s->live_peak);
    fprintf(out, "  in slots  %12s   peak %12s\n", corral__bytes(a, sizeof a, s->slot_bytes),
            corral__bytes(b, sizeof b, s->slot_bytes_peak));
    fprintf(out, "  contexts  %12s   peak %12s   (padding now %s, at peak %s)\n",
            corral__bytes(a, sizeof a, s->ctx_bytes), corral__bytes(b, sizeof b, s->ctx_bytes_peak),
            corral__bytes(c, sizeof c, s->slot_bytes - s->ctx_bytes),
            corral__bytes(d, sizeof d, s->slot_bytes_peak - s->ctx_bytes_peak));
    fprintf(out, "\n  %-5s %6s %9s %7s %7s %7s %9s %8s\n", "class", "slot B", "capacity", "used",
            "peak", "free", "failures", "retired");
    for (uint32_t i = 0; i < s->class_count; i++) {
        const corral__class *k = &s->classes[i];
        fprintf(out, "  %-5u %6u %9u %7u %7u %7u %9" PRIu64 " %8u%s\n", i, k->slot_size, k->capacity,
                k->used, k->peak, k->capacity - k->used - k->retired, k->failures, k->retired,
                k->failures ? "  <- FULL at peak" : "");
    }
    fprintf(out, "\n  %-20s %4s %6s %6s %5s %7s %7s %9s %9s %9s %7s\n", "type", "id", "ctx B",
            "slot B", "class", "live", "peak", "started", "finished", "stopped", "failed");
    for (uint32_t i = 0; i < s->type_count; i++) {
        corral_type_stats t = {0};
        corral_stats_type(s, i, &t);
        char cls[8];
        if (t.class_index == CORRAL__NO_CLASS) snprintf(cls, sizeof cls, "none");
        else snprintf(cls, sizeof cls, "%u", t.class_index);
        fprintf(out,
                "  %-20s %4u %6u %6u %5s %7u %7u %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %7" PRIu64 "\n",
                t.name, t.id, t.ctx_size, t.slot_size, cls, t.live, t.peak, t.started, t.finished,
                t.stopped, t.failed);
    }
}
