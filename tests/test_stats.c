/* test_stats.c -- counters per type, per class, for the arena; the report. */
#include "common.h"
#include "corral_internal.h"

#include <stdio.h>

static corral_sched *two_class_sched(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 32;
    d.classes[0].capacity = 2;
    d.classes[1].slot_size = 64;
    d.classes[1].capacity = 4;
    return sched_of(d);
}

Test(stats, type_counters_follow_start_finish_stop_and_failure)
{
    corral_sched *s = two_class_sched();
    corral_handle a = start_tracer(s, 1, 0);
    start_tracer(s, 2, 2);
    cr_assert_eq(start_tracer(s, 3, 0).gen, 0, "class 0 holds two");
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &tracer_type, &t));
    cr_assert_str_eq(t.name, "tracer");
    cr_assert_eq(t.live, 2);
    cr_assert_eq(t.peak, 2);
    cr_assert_eq(t.started, 2);
    cr_assert_eq(t.failed, 1);
    corral_tick(s, 0.f); /* tracer 2 finishes */
    corral_stop(s, a);
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.live, 0);
    cr_assert_eq(t.peak, 2);
    cr_assert_eq(t.finished, 1);
    cr_assert_eq(t.stopped, 1);
    cr_assert_eq(t.ctx_size, sizeof(tracer_ctx));
    cr_assert_eq(t.slot_size, 32);
    cr_assert_eq(t.class_index, 0);
    corral_sched_destroy(s);
}

Test(stats, finished_counts_only_ends_that_returned_stop)
{
    corral_sched *s = two_class_sched();
    corral_start_desc o = {.phase = CORRAL_PHASE_DEFAULT, .owner = 7, .tags = 0};
    corral_handle a = corral_start_ex(s, &tracer_type, &(tracer_ctx){.id = 1}, sizeof(tracer_ctx), &o);
    corral_handle b = start_tracer(s, 2, 5);
    cr_assert(corral_alive(s, a) && corral_alive(s, b));
    cr_assert_eq(corral_stop_owner(s, 7), 1u); /* GROUP_STOPPED: neither finished nor stopped */
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &tracer_type, &t));
    cr_assert_eq(t.started, 2);
    cr_assert_eq(t.live, 1);
    cr_assert_eq(t.finished, 0);
    cr_assert_eq(t.stopped, 0);
    start_tracer(s, 3, 1); /* finishes in its first step */
    cr_assert(corral_stop(s, b));
    cr_assert(corral_stats_type_of(s, &tracer_type, &t));
    cr_assert_eq(t.started, 3);
    cr_assert_eq(t.live, 0);
    cr_assert_eq(t.finished, 1);
    cr_assert_eq(t.stopped, 1);
    corral_sched_destroy(s);
}

Test(stats, class_counters_track_used_peak_and_failures)
{
    corral_sched *s = two_class_sched();
    corral_handle none = {0, 0};
    corral_handle h[4];
    for (int i = 0; i < 4; i++) h[i] = start_actor(s, i, NULL, none, NULL); /* 40 B: class 1 */
    cr_assert_eq(start_actor(s, 9, NULL, none, NULL).gen, 0);
    corral_stop(s, h[0]);
    corral_stop(s, h[1]);
    corral_class_stats c;
    cr_assert(corral_stats_class(s, 1, &c));
    cr_assert_eq(c.slot_size, 64);
    cr_assert_eq(c.capacity, 4);
    cr_assert_eq(c.used, 2);
    cr_assert_eq(c.peak, 4);
    cr_assert_eq(c.failures, 1);
    cr_assert(corral_stats_class(s, 0, &c));
    cr_assert_eq(c.used + c.peak + c.failures, 0);
    cr_assert_not(corral_stats_class(s, 2, &c), "out of range");
    cr_assert_not(corral_stats_type(s, 99, NULL));
    corral_sched_destroy(s);
}

Test(stats, arena_bytes_count_slots_contexts_and_their_peaks)
{
    corral_sched *s = two_class_sched();
    corral_handle none = {0, 0};
    corral_arena_stats a;
    cr_assert(corral_stats_arena(s, &a));
    cr_assert_eq(a.total_bytes, corral_sched_memory_size(&(corral_sched_desc){
                                    .classes = {{32, 2}, {64, 4}}}));
    cr_assert_eq(a.slab_bytes, 2 * 32 + 4 * 64);
    cr_assert_eq(a.slot_bytes + a.ctx_bytes, 0);
    corral_handle t = start_tracer(s, 1, 0);
    corral_handle x = start_actor(s, 1, NULL, none, NULL);
    corral_stats_arena(s, &a);
    cr_assert_eq(a.slot_bytes, 32 + 64);
    cr_assert_eq(a.ctx_bytes, sizeof(tracer_ctx) + sizeof(actor_ctx));
    cr_assert_eq(a.live, 2);
    corral_stop(s, t);
    corral_stop(s, x);
    corral_stats_arena(s, &a);
    cr_assert_eq(a.slot_bytes, 0);
    cr_assert_eq(a.ctx_bytes, 0);
    cr_assert_eq(a.slot_bytes_peak, 96);
    cr_assert_eq(a.ctx_bytes_peak, sizeof(tracer_ctx) + sizeof(actor_ctx));
    cr_assert_eq(a.live_peak, 2);
    corral_sched_destroy(s);
}

Test(stats, report_text_prints_aligned_tables_with_every_type_and_class)
{
    corral_sched *s = two_class_sched();
    corral_handle none = {0, 0};
    start_tracer(s, 1, 0);
    start_actor(s, 1, NULL, none, NULL);
    start_tracer(s, 1, 0);
    start_tracer(s, 1, 0); /* fails */
    char buf[8192];
    corral_report_text_to(s, &(corral_writer){.buf = buf, .cap = sizeof buf});
    cr_assert_not_null(strstr(buf, "corral arena:"));
    cr_assert_not_null(strstr(buf, "tracer"));
    cr_assert_not_null(strstr(buf, "actor"));
    cr_assert_not_null(strstr(buf, "<- FULL: starts were refused"), "a class that refused a start is flagged");
    cr_assert_not_null(strstr(buf, "headroom"), "one glance shows the headroom");
    cr_assert_not_null(strstr(buf, "wait nodes"), "and the other pools");
    /* every row of the class table has the same width as its header */
    const char *hdr = strstr(buf, "  class");
    cr_assert_not_null(hdr);
    size_t width = strcspn(hdr, "\n");
    const char *row = hdr + width + 1;
    for (int i = 0; i < 2; i++) {
        size_t w = strcspn(row, "\n");
        const char *flag = strstr(row, "  <- ");
        if (flag && flag < row + w) w = (size_t)(flag - row);
        cr_assert_eq(w, width, "row %d is %zu wide, header %zu:\n%s", i, w, width, buf);
        row += strcspn(row, "\n") + 1;
    }
    const char *thdr = strstr(buf, "  type");
    cr_assert_not_null(thdr);
    size_t twidth = strcspn(thdr, "\n");
    const char *trow = thdr + twidth + 1;
    size_t tw = strcspn(trow, "\n");
    const char *tflag = strstr(trow, "  <- ");
    if (tflag && tflag < trow + tw) tw = (size_t)(tflag - trow);
    cr_assert_eq(tw, twidth);
    corral_sched_destroy(s);
}

/* where the block goes: every part accounted for, the rest alignment only */
static void check_block_parts(corral_sched *s)
{
    corral__block_part parts[CORRAL__BLOCK_PARTS];
    corral__block_parts(s, parts);
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    const uint64_t slots = s->arena.total_slots;
    uint64_t sum = 0;
    for (int i = 0; i < CORRAL__BLOCK_PARTS; i++) {
        cr_assert_not_null(parts[i].name);
        cr_assert_lt(parts[i].bytes, a.total_bytes, "%s: %llu B", parts[i].name, (unsigned long long)parts[i].bytes);
        sum += parts[i].bytes;
        if (!strcmp(parts[i].name, "slots")) cr_assert_eq(parts[i].bytes, a.slab_bytes);
        if (!strcmp(parts[i].name, "slot meta")) cr_assert_eq(parts[i].bytes, slots * sizeof(corral__meta));
        if (!strcmp(parts[i].name, "run queue")) /* an entry a slot, a chunk a lane and 3, the next links */
            cr_assert_eq(parts[i].bytes, (corral__chunks_for(slots, s->run.lane_count) * (CORRAL__CHUNK + 1) + CORRAL__PREFETCH) *
                                             sizeof(uint32_t) + s->run.lane_count * sizeof(corral__lane));
        if (!strcmp(parts[i].name, "wait nodes"))
            cr_assert_eq(parts[i].bytes, (uint64_t)s->nodes.wait_count * sizeof(corral__node));
    }
    cr_assert_leq(sum, a.total_bytes);
    /* what is left: the 8-byte alignments between parts, each class's slab on
       its own line, the block's own slack */
    const uint64_t slack = 16 * 8 + (uint64_t)s->arena.class_count * CORRAL__SLAB_ALIGN + CORRAL__SLAB_ALIGN;
    cr_assert_leq(a.total_bytes - sum, slack, "%llu B unaccounted for",
                  (unsigned long long)(a.total_bytes - sum));
}

Test(stats, the_report_says_where_every_byte_of_the_block_goes)
{
    corral_sched *s = two_class_sched();
    check_block_parts(s);
    char buf[8192];
    corral_report_text_to(s, &(corral_writer){.buf = buf, .cap = sizeof buf});
    cr_assert_not_null(strstr(buf, "block part"));
    cr_assert_not_null(strstr(buf, "slot meta"));
    cr_assert_not_null(strstr(buf, "  alignment"));
    corral_sched_destroy(s);
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.history_frames = 60;
    d.wait_text = true;
    d.timing = true;
    d.trace_steps = 100;
    s = corral_sched_create(&d);
    cr_assert_not_null(s);
    check_block_parts(s);
    corral_sched_destroy(s);
}

/* ---- the report's block table, line by line: each part's exact bytes */
typedef struct block_line {
    char name[24];
    uint64_t bytes;
} block_line;
static int block_table(const char *report, block_line *out, int max)
{
    const char *p = strstr(report, "\n  block part");
    cr_assert_not_null(p, "the report has a block table:\n%s", report);
    p = strchr(p + 1, '\n') + 1;
    int n = 0;
    for (; p[0] == ' ' && p[1] == ' ' && p[2] != '(' && p[2] != ' ' && n < max; p = strchr(p, '\n') + 1, n++) {
        memcpy(out[n].name, p + 2, 16);
        int k = 16;
        while (k > 0 && out[n].name[k - 1] == ' ') k--;
        out[n].name[k] = 0;
        char *end;
        out[n].bytes = strtoull(p + 2 + 16, &end, 10);
        cr_assert(end > p + 2 + 16, "line %d has its bytes: %.60s", n, p);
    }
    return n;
}
static uint64_t line_bytes(const block_line *l, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(l[i].name, name)) return l[i].bytes;
    return UINT64_MAX;
}
/* the padding the plan can put between parts: each part aligned to 8 (the
   type table to 16), the post queue to its cache line, each class's slab
   and the kept snapshots to 64, and the block's own 64 bytes of slack */
static uint64_t padding_bound(const corral_sched *s)
{
    return 15 + 11 * 7 + 63 + 63 * (uint64_t)s->arena.class_count + 63 + CORRAL__SLAB_ALIGN;
}

Test(stats, the_block_table_names_every_byte_kept_snapshots_and_channels_included)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.kept_snapshots = 8;
    d.max_channels = 8;
    d.channel_bytes = 64;
    d.max_semaphores = 3;
    d.max_waitgroups = 2;
    corral_sched *s = sched_of(d);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    cr_assert_neq(ch.gen, 0u);
    start_tracer(s, 1, 0);
    cr_assert_gt(corral_snapshot_keep(s, 0), 0u);
    static char buf[16384];
    corral_report_text_to(s, &(corral_writer){.buf = buf, .cap = sizeof buf});
    block_line l[32];
    int n = block_table(buf, l, 32);
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) sum += l[i].bytes;
    cr_assert_eq(sum, a.total_bytes, "the lines sum to the block (%llu of %llu B):\n%s", (unsigned long long)sum,
                 (unsigned long long)a.total_bytes, buf);

    /* the kept snapshots: what the plan reserved, and what the desc costs */
    const corral__kept *K = corral__kept_of(s);
    const uint64_t kept = line_bytes(l, n, "kept snapshots");
    cr_assert_eq(kept, CORRAL__KEPT_HEAD + K->bytes, "%s", buf);
    corral_sched_desc none = d;
    none.kept_snapshots = 0;
    const uint64_t cost = corral_sched_memory_size(&d) - corral_sched_memory_size(&none);
    cr_assert(cost >= kept && cost - kept < 64, "the ring costs %llu B, its line says %llu",
              (unsigned long long)cost, (unsigned long long)kept);

    /* the channels, their buffers, the semaphores' and wait groups' pool */
    cr_assert_eq(line_bytes(l, n, "channels"), 8u * sizeof(corral__channel), "%s", buf);
    cr_assert_eq(line_bytes(l, n, "channel buffers"), 8u * 64u, "%s", buf);
    cr_assert_eq(line_bytes(l, n, "sems, waitgroups"), 5u * sizeof(corral__counter), "%s", buf);

    /* alignment is padding alone */
    const uint64_t pad = line_bytes(l, n, "alignment");
    cr_assert_leq(pad, padding_bound(s), "alignment %llu B, at most %llu of padding:\n%s", (unsigned long long)pad,
                  (unsigned long long)padding_bound(s), buf);
    cr_assert_eq(line_bytes(l, n, "unused"), UINT64_MAX, "a block create allocated has nothing unused");

    /* the pool table has the channels and the semaphores and wait groups */
    const char *row = strstr(buf, "\n  channels    ");
    cr_assert_not_null(row, "%s", buf);
    unsigned used, peak, cap;
    cr_assert_eq(sscanf(row, "\n  channels %u %u %u", &used, &peak, &cap), 3);
    cr_assert(used == 1 && peak == 1 && cap == 8, "%u %u %u", used, peak, cap);
    row = strstr(buf, "\n  semaphores, waitgroups ");
    cr_assert_not_null(row, "%s", buf);
    cr_assert_eq(sscanf(row, "\n  semaphores, waitgroups %u %u %u", &used, &peak, &cap), 3);
    cr_assert_eq(cap, 5u);
    corral_sched_destroy(s);
}

Test(stats, a_caller_block_larger_than_needed_shows_what_is_unused_not_alignment)
{
    corral_sched_desc d = one_class_desc(64, 8);
    d.wait_text = true;
    d.history_frames = 4;
    d.timing = true;
    d.trace_steps = 4;
    const size_t need = corral_sched_memory_size(&d);
    static _Alignas(64) unsigned char block[1 << 20];
    cr_assert_lt(need + 1000, sizeof block);
    d.memory = block + 8; /* off its alignment: the slack takes the difference */
    d.memory_size = need + 1000;
    corral_sched *s = sched_of(d);
    static char buf[16384];
    corral_report_text_to(s, &(corral_writer){.buf = buf, .cap = sizeof buf});
    block_line l[32];
    int n = block_table(buf, l, 32);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) sum += l[i].bytes;
    cr_assert_eq(sum, need + 1000, "%s", buf);
    cr_assert_eq(line_bytes(l, n, "unused"), 1000u, "%s", buf);
    cr_assert_leq(line_bytes(l, n, "alignment"), padding_bound(s), "%s", buf);
    cr_assert_eq(line_bytes(l, n, "wait text"), (uint64_t)s->nodes.wait_count * sizeof(const char *));
    cr_assert_eq(line_bytes(l, n, "history"), 4u * sizeof(corral_frame_sample));
    cr_assert_eq(line_bytes(l, n, "step trace"), 4u * sizeof(corral__trace_ev));
    corral_sched_destroy(s);
}

/* ---- counts read inside a first step: a plain type's coroutine is counted
   live only once its first step is over (lifecycle.h, corral__first_step);
   what reads a count meanwhile counts it as live */
typedef struct seen_counts {
    corral_type_stats t;
    corral_class_stats c;
    corral_arena_stats a;
    uint32_t live;
    bool verified;
} seen_counts;
static seen_counts g_seen;
static corral_sched *g_sched;

static corral_result read_counts_and_stop(corral_co *co, struct actor_ctx *ctx)
{
    (void)co;
    (void)ctx;
    corral_stats_type_of(g_sched, &actor_type, &g_seen.t);
    corral_stats_class(g_sched, 0, &g_seen.c);
    corral_stats_arena(g_sched, &g_seen.a);
    g_seen.live = corral_live_count(g_sched);
    g_seen.verified = corral_verify(g_sched);
    return CORRAL_STOP;
}

Test(stats, counts_read_inside_a_first_step_count_the_coroutine_running_it)
{
    corral_sched *s = g_sched = small_sched(4);
    corral_handle none = {0, 0};
    start_tracer(s, 1, 0); /* lives on */
    memset(&g_seen, 0, sizeof g_seen);
    corral_handle h = start_actor(s, 2, read_counts_and_stop, none, NULL);
    cr_assert_eq(g_seen.t.live, 1);
    cr_assert_eq(g_seen.t.peak, 1);
    cr_assert_eq(g_seen.t.started, 1);
    cr_assert_eq(g_seen.t.finished, 0);
    cr_assert_eq(g_seen.c.used, 2);
    cr_assert_eq(g_seen.c.peak, 2);
    cr_assert_eq(g_seen.c.ctx_bytes, sizeof(tracer_ctx) + sizeof(actor_ctx));
    cr_assert_eq(g_seen.a.live, 2);
    cr_assert_eq(g_seen.a.live_peak, 2);
    cr_assert_eq(g_seen.a.slot_bytes, 128);
    cr_assert_eq(g_seen.a.slot_bytes_peak, 128);
    cr_assert_eq(g_seen.a.ctx_bytes, sizeof(tracer_ctx) + sizeof(actor_ctx));
    cr_assert_eq(g_seen.live, 2);
    cr_assert(g_seen.verified, "%s", corral_last_error_detail(s));
    cr_assert_not(corral_alive(s, h), "it ended in its first step: its handle is stale");
    corral_type_stats t;
    corral_class_stats c;
    corral_arena_stats a;
    corral_stats_type_of(s, &actor_type, &t);
    corral_stats_class(s, 0, &c);
    corral_stats_arena(s, &a);
    cr_assert_eq(t.live, 0);
    cr_assert_eq(t.peak, 1);
    cr_assert_eq(t.finished, 1);
    cr_assert_eq(c.used, 1);
    cr_assert_eq(c.peak, 2);
    cr_assert_eq(a.live, 1);
    cr_assert_eq(a.live_peak, 2);
    cr_assert_eq(a.slot_bytes, 64);
    cr_assert_eq(a.slot_bytes_peak, 128);
    cr_assert_eq(a.ctx_bytes_peak, sizeof(tracer_ctx) + sizeof(actor_ctx));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

static void expect_peaks(corral_sched *s, uint32_t type_peak, uint32_t peak)
{
    corral_type_stats t;
    corral_class_stats c;
    corral_arena_stats a;
    corral_stats_type_of(s, &tracer_type, &t);
    corral_stats_class(s, 0, &c);
    corral_stats_arena(s, &a);
    cr_assert_eq(t.peak, type_peak);
    cr_assert_eq(c.peak, peak);
    cr_assert_eq(a.live_peak, peak);
    cr_assert_eq(a.slot_bytes_peak, 64u * peak);
    cr_assert_eq(a.ctx_bytes_peak, a.live_peak == type_peak ? sizeof(tracer_ctx) * peak : a.ctx_bytes_peak);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
}

Test(stats, spawns_that_end_at_once_raise_the_peaks_by_one_over_the_live_count)
{
    corral_sched *s = small_sched(8);
    expect_peaks(s, 0, 0);
    for (int i = 0; i < 5; i++) start_tracer(s, i, 1); /* each ends in its first step */
    expect_peaks(s, 1, 1);
    corral_handle a = start_tracer(s, 10, 0), b = start_tracer(s, 11, 0);
    expect_peaks(s, 2, 2);
    start_tracer(s, 12, 1);
    expect_peaks(s, 3, 3);
    corral_stop(s, a);
    corral_stop(s, b);
    start_tracer(s, 13, 1);
    expect_peaks(s, 3, 3);
    for (int i = 0; i < 3; i++) start_tracer(s, 20 + i, 0);
    start_tracer(s, 14, 1);
    expect_peaks(s, 4, 4);
    corral_handle none = {0, 0};
    start_actor(s, 1, read_counts_and_stop, none, NULL); /* another type, in the same class */
    corral_class_stats c;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.peak, 4, "3 tracers live + the actor");
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.started, 13);
    cr_assert_eq(t.finished, 8);
    cr_assert_eq(t.stopped, 2);
    cr_assert_eq(t.live, 3);
    corral_sched_destroy(s);
}

Test(stats, batches_count_what_ends_at_once_what_lives_and_what_a_full_pool_refuses)
{
    corral_sched *s = small_sched(8);
    tracer_ctx ctxs[64];
    for (int i = 0; i < 64; i++) ctxs[i] = (tracer_ctx){.id = i, .stop_after = 1};
    corral_handle out[64];
    cr_assert_eq(corral_start_n(s, &tracer_type, ctxs, sizeof ctxs[0], 64, out), 64);
    cr_assert_not(corral_alive(s, out[0]) || corral_alive(s, out[63]), "each ended in its first step");
    corral_type_stats t;
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.started, 64);
    cr_assert_eq(t.finished, 64);
    cr_assert_eq(t.live, 0);
    cr_assert_eq(t.peak, 1);
    for (int i = 0; i < 64; i++) ctxs[i].stop_after = 0;
    cr_assert_eq(corral_start_n(s, &tracer_type, ctxs, sizeof ctxs[0], 10, out), 8, "a pool of 8");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.started, 72);
    cr_assert_eq(t.live, 8);
    cr_assert_eq(t.peak, 8);
    cr_assert_eq(t.failed, 1);
    corral_class_stats c;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.used, 8);
    cr_assert_eq(c.failures, 1);
    cr_assert_eq(start_tracer(s, 99, 1).gen, 0, "full: even a spawn that would end at once");
    corral_stats_type_of(s, &tracer_type, &t);
    cr_assert_eq(t.started, 72);
    cr_assert_eq(t.failed, 2);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* The epoch of counted rises wraps to 1, never 0, with every type's stamp
   0: a stamp from before the wrap never passes for a cover after it. */
Test(stats, the_peaks_epoch_wraps_past_every_types_stamp)
{
    corral_sched *s = g_sched = small_sched(8);
    corral_handle none = {0, 0};
    start_tracer(s, 1, 1); /* ends at once: the tracer's peaks cover one more */
    start_actor(s, 1, NULL, none, NULL); /* lives */
    corral__type_entry *te = &corral__types(s)[0];
    cr_assert_eq(te->vt, &tracer_type);
    s->arena.epoch = UINT32_MAX;
    te->peak_epoch = 1; /* a cover long ago, at epoch 1 */
    start_actor(s, 2, NULL, none, NULL); /* counted: the epoch wraps */
    cr_assert_eq(s->arena.epoch, 1);
    cr_assert_eq(te->peak_epoch, 0);
    start_tracer(s, 2, 1); /* 2 actors live and this one: its peaks covered again */
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    cr_assert_eq(a.live, 2);
    cr_assert_eq(a.live_peak, 3);
    corral_class_stats c;
    corral_stats_class(s, 0, &c);
    cr_assert_eq(c.peak, 3);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* verify holds a type to what its stamp says: peaks that cover one more */
Test(stats, verify_refuses_a_stamp_whose_peaks_do_not_cover_one_more)
{
    corral_sched *s = small_sched(4);
    start_tracer(s, 1, 0); /* lives: counted, the epoch moves past the stamp */
    corral__type_entry *te = &corral__types(s)[0];
    cr_assert(corral_verify(s));
    te->peak_epoch = s->arena.epoch; /* peak 1, live 1: not covered */
    cr_assert_not(corral_verify(s));
    cr_assert(strstr(corral_last_error_detail(s), "peak_epoch") != NULL, "%s", corral_last_error_detail(s));
    te->peak_epoch = 0;
    corral_sched_destroy(s);
}
