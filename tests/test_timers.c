/*
    test_timers.c -- sleepers on every clock: frames, real seconds, a time
    on a clock (corral_wait_at) and each time domain's seconds. Equal due
    times wake in the order their waits began; sleepers taken out before
    they are due (a stop, an any's other member, a pause) leave the others
    in order; every clock's heap shares one store of an entry per sleeper
    and wait node, in pages that move between the clocks; a plain sleep's
    entry is its whole record, and past max_sleepers a sleep takes a node;
    the general wait nodes running out refuse the wait without ending it
    early; saves, loads, snapshots and restores keep every sleeper's due
    time and its place among equals; corral_verify names a damaged timer,
    sleep or store.
*/
#include "common.h"
#include "corral_internal.h"

#include <math.h>

static void setup(void) { trace_reset(); }
TestSuite(timers, .init = setup);

enum { CLOCK_FRAMES, CLOCK_REAL, CLOCK_AT, CLOCK_SECONDS, CLOCK_COUNT };
enum { MAX_SLEEPERS = 1024 };
static int64_t g_woke_frame[MAX_SLEEPERS]; /* by id: the frame it woke in */
static unsigned char g_buf[1 << 20];       /* a save or snapshot */

/* tm_sleep: waits once on its clock, records its id and frame, ends */
#define TM_SLEEP_FIELDS(F) F(int32_t, id) F(int32_t, clock) F(float, amount)
#define TM_SLEEP_POINTS(P) P(slept)
DECLARE_COROUTINE(tm_sleep, TM_SLEEP_FIELDS)
DEFINE_COROUTINE_AT(tm_sleep, TM_SLEEP_POINTS)
{
    CORRAL_BEGIN_AT(co, TM_SLEEP_POINTS);
    CORRAL_AWAIT_AT(co, slept,
                    ctx->clock == CLOCK_FRAMES ? corral_wait_frames((uint32_t)ctx->amount)
                    : ctx->clock == CLOCK_REAL ? corral_wait_realtime(ctx->amount)
                    : ctx->clock == CLOCK_AT   ? corral_wait_at((double)ctx->amount)
                                               : corral_wait_seconds(ctx->amount));
    trace_push(ctx->id);
    if (ctx->id >= 0 && ctx->id < MAX_SLEEPERS) g_woke_frame[ctx->id] = (int64_t)corral_frame(corral_sched_of(co));
    CORRAL_END(co);
}

/* tm_either: waits for its signal or its frames, whichever comes first */
#define TM_EITHER_FIELDS(F) F(int32_t, id) F(corral_signal, sig) F(uint32_t, frames) F(int32_t, fired)
#define TM_EITHER_POINTS(P) P(woke) P(idled)
DECLARE_COROUTINE(tm_either, TM_EITHER_FIELDS)
DEFINE_COROUTINE_AT(tm_either, TM_EITHER_POINTS)
{
    CORRAL_BEGIN_AT(co, TM_EITHER_POINTS);
    ctx->fired = -1;
    {
        corral_wait members[2] = {corral_wait_signal(ctx->sig), corral_wait_frames(ctx->frames)};
        CORRAL_AWAIT_AT(co, woke, corral_wait_any(members, 2));
    }
    ctx->fired = corral_wait_fired(co);
    trace_push(ctx->id);
    for (;;) CORRAL_WAIT_FRAME_AT(co, idled); /* alive, so the test reads its context */
    CORRAL_END(co);
}

#define TM_TYPES(X) X(tm_sleep, 1, 0) X(tm_either, 2, 0)
CORRAL_DECLARE_REGISTRY(tm, TM_TYPES)
CORRAL_DEFINE_REGISTRY(tm, TM_TYPES);

enum { DOMAINS = 3, SLOW = 2 };
static const float DT = 0.25f; /* exact in binary: equal sums are equal due times */

static corral_sched *tsched(uint32_t cap)
{
    corral_sched_desc d = one_class_desc(64, cap);
    d.domains = DOMAINS;
    d.registry = &tm_registry;
    corral_sched *s = sched_of(d);
    cr_assert(corral_domain_set_scale(s, SLOW, 0.5f));
    return s;
}

/* the six clocks a sleeper may sleep on: frames, real seconds, a time on
   domain 0's clock, and domains 0, 1 and 2's seconds (2 at half speed) */
enum { GROUPS = 6 };
static int clock_of_group(int g) { return g < CLOCK_SECONDS ? g : CLOCK_SECONDS; }
static uint32_t domain_of_group(int g) { return g < CLOCK_SECONDS ? 0u : (uint32_t)(g - CLOCK_SECONDS); }

/* a sleeper of group g, started now (frame `now`), due in frame `due` */
static corral_handle sleep_until(corral_sched *s, int id, int g, int now, int due)
{
    const int clock = clock_of_group(g);
    const uint32_t domain = domain_of_group(g);
    /* seconds: due a half frame before frame `due`'s time, so no rounding
       moves it; domain 2 counts half as fast */
    float amount = (float)(due - now) * DT - DT * 0.5f;
    if (clock == CLOCK_FRAMES) amount = (float)(due - now);
    if (clock == CLOCK_AT) amount = (float)due * DT - DT * 0.5f; /* domain 0's time: frame x DT */
    if (domain == SLOW) amount *= 0.5f;
    corral_start_desc o;
    memset(&o, 0, sizeof o);
    o.domain = domain;
    corral_handle h = corral_start_ex(s, &tm_sleep_type, &(tm_sleep_ctx){id, clock, amount}, sizeof(tm_sleep_ctx), &o);
    cr_assert_neq(h.gen, 0u, "sleeper %d: %s", id, corral_error_str(corral_last_error(s)));
    return h;
}

/* Sleepers of two waves on every clock, three due frames each, so each
   due frame has a run of ties from both waves: every clock's sleepers wake
   in their frame, and equal ones in the order they began to wait. */
enum { WAVE = 180 };
static int g_due[MAX_SLEEPERS], g_group[MAX_SLEEPERS];
static void start_two_waves(corral_sched *s)
{
    for (int i = 0; i < 2 * WAVE; i++) {
        const int wave = i / WAVE, g = i % GROUPS, k = (i / GROUPS) % 3;
        g_group[i] = g;
        g_due[i] = 3 + 2 * k;
        if (wave == 1 && i == WAVE) corral_tick(s, DT); /* the second wave starts in frame 1 */
        sleep_until(s, i, g, wave, g_due[i]);
    }
}

/* the trace holds every sleeper once, each in its due frame, and each
   clock's in (due, start) order */
static void expect_clock_order(const int *trace, int len, int count)
{
    cr_assert_eq(len, count, "every sleeper woke once (%d of %d)", len, count);
    int last[GROUPS];
    for (int g = 0; g < GROUPS; g++) last[g] = -1;
    for (int k = 0; k < len; k++) {
        const int id = trace[k], g = g_group[id];
        if (last[g] >= 0) {
            const int before = last[g];
            cr_assert(g_due[before] < g_due[id] || (g_due[before] == g_due[id] && before < id),
                      "clock %d: sleeper %d (due %d) woke after %d (due %d)", g, id, g_due[id], before, g_due[before]);
        }
        last[g] = id;
    }
}

static void run_frames(corral_sched *s, int frames)
{
    for (int f = 0; f < frames; f++) {
        corral_tick(s, DT);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
}

Test(timers, equal_due_times_wake_in_the_order_their_waits_began_on_every_clock_and_domain)
{
    corral_sched *s = tsched(2 * WAVE);
    start_two_waves(s);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    run_frames(s, 8);
    expect_clock_order(g_trace, g_trace_len, 2 * WAVE);
    for (int i = 0; i < 2 * WAVE; i++)
        cr_assert_eq(g_woke_frame[i], g_due[i], "sleeper %d (clock %d) woke in frame %lld, due %d", i, g_group[i],
                     (long long)g_woke_frame[i], g_due[i]);
    cr_assert_eq(corral_live_count(s), 0u);
    corral_sched_destroy(s);
}

/* Sleepers taken out from the middle of their clocks' heaps -- stopped,
   woken by the other member of an any, paused -- leave the rest waking in
   their frames and in order; the paused ones keep what they had left and
   wake that long after their resume. */
Test(timers, sleepers_taken_out_mid_heap_leave_the_rest_in_order)
{
    enum { COUNT = 600, SPAN = 20 };
    corral_sched *s = tsched(COUNT + 64);
    corral_signal sig = corral_signal_create(s);
    static corral_handle h[COUNT];
    uint32_t rng = 2024u;
    int expected = 0;
    for (int i = 0; i < COUNT; i++) {
        rng = rng * 1664525u + 1013904223u;
        g_group[i] = i % GROUPS;
        g_due[i] = 2 + (int)((rng >> 16) % SPAN);
        h[i] = sleep_until(s, i, g_group[i], 0, g_due[i]);
    }
    /* any-waiters whose frames sit in the frames' heap among the sleepers */
    corral_handle any[16];
    for (int k = 0; k < 16; k++) any[k] = tm_either_start(s, (tm_either_ctx){COUNT + k, sig, (uint32_t)(2 + k), 0});
    int paused = 0;
    for (int i = 0; i < COUNT; i++) {
        if (i % 7 == 3) cr_assert(corral_stop(s, h[i]));
        else if (i % 11 == 5) paused += corral_pause(s, h[i]);
        else expected++;
    }
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_signal_raise(s, sig); /* each any's frames leave the heap */
    run_frames(s, 1);
    cr_assert_eq(g_trace_len, 16, "the any-waiters woke on the signal");
    for (int k = 0; k < 16; k++) cr_assert_eq(tm_either_ctx_of(s, any[k])->fired, 0);
    trace_reset();
    run_frames(s, SPAN + 2);
    cr_assert_eq(g_trace_len, expected, "no stopped or paused sleeper woke");
    int trace[COUNT];
    memcpy(trace, g_trace, sizeof(int) * (size_t)g_trace_len);
    expect_clock_order(trace, g_trace_len, expected);
    for (int k = 0; k < g_trace_len; k++) cr_assert_eq(g_woke_frame[trace[k]], g_due[trace[k]]);
    for (int k = 0; k < 16; k++) cr_assert_eq(tm_either_ctx_of(s, any[k])->fired, 0, "no frames fired later");
    /* the paused ones resume at frame SPAN + 3 with their time left */
    const int resumed_at = (int)corral_frame(s);
    for (int i = 0; i < COUNT; i++)
        if (i % 7 != 3 && i % 11 == 5) cr_assert(corral_resume(s, h[i]));
    trace_reset();
    run_frames(s, SPAN + 2);
    cr_assert_eq(g_trace_len, paused);
    for (int k = 0; k < g_trace_len; k++) { /* a time on a clock keeps its time, past by now */
        const int id = g_trace[k], want = g_group[id] == CLOCK_AT ? resumed_at + 1 : resumed_at + g_due[id];
        cr_assert_eq(g_woke_frame[id], want, "paused sleeper %d (clock %d)", id, g_group[id]);
    }
    cr_assert_eq(corral_live_count(s), 16u, "the any-waiters only");
    corral_sched_destroy(s);
}

/* The clocks' heaps share one store of an entry per sleeper and wait
   node: every sleeper in a heap in any split over the six clocks (the
   plain sleeps in their entries, a time on a clock in a node), emptied and
   filled again in another (the pages each clock held go to the others),
   each clock wakes its sleepers in their frames and in order, and a
   restore lays the pages anew. */
Test(timers, every_clock_fills_the_shared_store_to_the_last_wait_node_in_any_split)
{
    enum { NODES = 300 };
    corral_sched_desc d = one_class_desc(64, NODES);
    d.domains = DOMAINS;
    d.max_wait_nodes = NODES;
    d.registry = &tm_registry;
    corral_sched *s = sched_of(d);
    cr_assert(corral_domain_set_scale(s, SLOW, 0.5f));
    static const int splits[][GROUPS] = {{300, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 300}, {50, 50, 50, 50, 50, 50},
                                         {1, 61, 2, 130, 3, 103}, {0, 150, 0, 0, 150, 0}, {299, 0, 0, 0, 0, 1}};
    for (size_t k = 0; k < sizeof splits / sizeof splits[0]; k++) {
        const int now = (int)corral_frame(s);
        int id = 0;
        for (int g = 0; g < GROUPS; g++)
            for (int j = 0; j < splits[k][g]; j++, id++) {
                g_group[id] = g;
                g_due[id] = now + 2 + (id * 7 + j) % 5;
                sleep_until(s, id, g, now, g_due[id]);
            }
        cr_assert_eq(pools_of(s).wait_nodes + pools_of(s).sleepers, (uint32_t)NODES,
                     "split %zu: every sleeper in a heap (a time on a clock: a node)", k);
        cr_assert(corral_verify(s), "split %zu: %s", k, corral_last_error_detail(s));
        if (k == 3) { /* a snapshot with the store full, restored at once: the pages laid anew */
            const size_t n = corral_snapshot(s, g_buf, sizeof g_buf);
            cr_assert_gt(n, 0u);
            cr_assert(corral_restore(s, g_buf, n), "%s", corral_error_str(corral_last_error(s)));
            cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        }
        trace_reset();
        run_frames(s, 7);
        int trace[NODES];
        memcpy(trace, g_trace, sizeof(int) * (size_t)g_trace_len);
        expect_clock_order(trace, g_trace_len, NODES);
        for (int i = 0; i < NODES; i++) cr_assert_eq(g_woke_frame[i], g_due[i], "split %zu, sleeper %d", k, i);
        cr_assert_eq(corral_live_count(s), 0u);
    }
    corral_sched_destroy(s);
}

/* The general wait nodes (an any's members) running out: the wait is
   refused with WAIT_POOL_EXHAUSTED, its coroutine ends without running
   past it, the sleepers already waiting wake as they would have, and the
   nodes come back for the next wait. */
Test(timers, the_general_wait_nodes_running_out_refuse_the_wait_without_an_early_end_and_lose_nothing)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 16);
    d.max_wait_nodes = 4; /* two any-waits of two members */
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    corral_sched *s = sched_of(d);
    corral_signal sig = corral_signal_create(s);
    corral_handle a = tm_either_start(s, (tm_either_ctx){1, sig, 3, 0});
    corral_handle b = tm_either_start(s, (tm_either_ctx){2, sig, 5, 0});
    cr_assert_eq(pools_of(s).wait_nodes, 4u);
    corral_handle c = tm_either_start(s, (tm_either_ctx){3, sig, 1, 0});
    cr_assert_neq(c.gen, 0u, "it started");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert_eq(cap.last, CORRAL_ERR_WAIT_POOL_EXHAUSTED);
    cr_assert_not(corral_alive(s, c), "it ended rather than run past a wait it never had");
    cr_assert_eq(g_trace_len, 0, "nothing woke early");
    cr_assert_eq(pools_of(s).wait_failures, 1u);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    run_frames(s, 2);
    cr_assert_eq(g_trace_len, 0, "the waiting two still wait");
    run_frames(s, 1);
    cr_assert_eq(g_trace_len, 1);
    cr_assert_eq(g_trace[0], 1, "a woke in its frame 3");
    cr_assert_eq(tm_either_ctx_of(s, a)->fired, 1);
    run_frames(s, 2);
    cr_assert_eq(g_trace_len, 2);
    cr_assert_eq(tm_either_ctx_of(s, b)->fired, 1, "b woke in its frame 5");
    cr_assert_eq(pools_of(s).wait_nodes, 0u, "every node came back");
    corral_handle e = tm_either_start(s, (tm_either_ctx){4, sig, 1, 0});
    cr_assert(corral_alive(s, e));
    cr_assert_eq(pools_of(s).wait_nodes, 2u);
    corral_sched_destroy(s);
}

/* a save or snapshot taken in frame 1 between the two waves' starts and
   the first due frame (its state's hash in *hash), the trace emptied:
   what runs after it, twice */
static size_t save_mid_sleep(corral_sched *s, unsigned char *buf, size_t cap, bool snapshot, uint64_t *hash)
{
    start_two_waves(s);
    const size_t n = snapshot ? corral_snapshot(s, buf, cap) : corral_save(s, buf, cap);
    cr_assert_gt(n, 0u, "%s", corral_error_str(corral_last_error(s)));
    *hash = corral_state_hash(s);
    trace_reset();
    return n;
}

Test(timers, a_save_loads_every_sleeper_with_its_due_time_and_its_place_among_equals)
{
    corral_sched *a = tsched(2 * WAVE);
    uint64_t hash = 0;
    const size_t n = save_mid_sleep(a, g_buf, sizeof g_buf, false, &hash);
    run_frames(a, 8);
    int want[2 * WAVE], want_len = g_trace_len;
    memcpy(want, g_trace, sizeof(int) * (size_t)want_len);
    expect_clock_order(want, want_len, 2 * WAVE);

    corral_sched *b = tsched(2 * WAVE);
    cr_assert(corral_load(b, g_buf, n), "%s", corral_error_str(corral_last_error(b)));
    cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), hash, "the loaded state is the saved one");
    trace_reset();
    run_frames(b, 8);
    expect_trace(want, want_len);
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(timers, a_restore_brings_back_every_sleeper_with_its_due_time_and_its_place_among_equals)
{
    corral_sched *s = tsched(2 * WAVE);
    uint64_t hash = 0;
    const size_t n = save_mid_sleep(s, g_buf, sizeof g_buf, true, &hash);
    run_frames(s, 3);
    sleep_until(s, 2 * WAVE, CLOCK_FRAMES, 4, 5); /* a later sleeper the restore takes away */
    run_frames(s, 5);
    cr_assert_eq(g_trace_len, 2 * WAVE + 1);
    int want[2 * WAVE], want_len = 0;
    for (int k = 0; k < g_trace_len; k++)
        if (g_trace[k] != 2 * WAVE) want[want_len++] = g_trace[k];
    expect_clock_order(want, want_len, 2 * WAVE);

    cr_assert(corral_restore(s, g_buf, n), "%s", corral_error_str(corral_last_error(s)));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), hash, "the restored state is the one snapshot");
    trace_reset();
    run_frames(s, 8);
    expect_trace(want, 2 * WAVE);
    corral_sched_destroy(s);
}

/* the first timer node of a coroutine of group g that waits in a heap */
static uint32_t a_sleeping_node(corral_sched *s, uint32_t heap)
{
    const corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.wait_count; i++)
        if (N[i].attached == 1 && corral__timer_node(&N[i]) && N[i].list == heap && N[i].next > 0) return i;
    cr_assert_fail("no timer in heap %u past its root", heap);
    return CORRAL__NIL;
}

/* A stray write into a timer -- its due time, its place in its heap, its
   heap -- is named by corral_verify; mended, the state verifies again. */
Test(timers, verify_names_a_damaged_timer)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 64);
    d.domains = DOMAINS;
    d.max_sleepers = 1; /* past it, the sleeps take timer nodes */
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    corral_sched *s = sched_of(d);
    for (int i = 0; i < 48; i++) sleep_until(s, i, i % GROUPS, 0, 2 + i % 5);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral__node *N = corral__nodes(s);
    const uint32_t heaps[] = {CORRAL__HEAP_FRAMES, CORRAL__HEAP_REAL, CORRAL__HEAP_SCALED, corral__domain_heap(SLOW)};
    for (uint32_t k = 0; k < sizeof heaps / sizeof heaps[0]; k++) {
        const uint32_t i = a_sleeping_node(s, heaps[k]);
        const double due = N[i].u.t.due;
        N[i].u.t.due = -1.0; /* due before its parent */
        cr_assert_not(corral_verify(s), "heap %u: a due time out of order", heaps[k]);
        cr_assert_eq(cap.last, CORRAL_ERR_CORRUPT);
        N[i].u.t.due = due;
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));

        const uint32_t pos = N[i].next;
        N[i].next = pos - 1u; /* its back-link names another's place */
        cr_assert_not(corral_verify(s), "heap %u: a back-link out of place", heaps[k]);
        cr_assert_eq(cap.last, CORRAL_ERR_CORRUPT);
        N[i].next = pos;
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));

        const uint8_t heap = N[i].list;
        N[i].list = (uint8_t)(heap == CORRAL__HEAP_FRAMES ? CORRAL__HEAP_REAL : CORRAL__HEAP_FRAMES);
        cr_assert_not(corral_verify(s), "heap %u: a timer that names another heap", heaps[k]);
        N[i].list = heap;
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));

        /* its heap's page table names another heap's page */
        corral__heapv H = corral__heap(s, heaps[k]), other = corral__heap(s, heaps[(k + 1) % 4]);
        const uint32_t page = H.tab[0];
        H.tab[0] = other.tab[0];
        cr_assert_not(corral_verify(s), "heap %u: two heaps in one page", heaps[k]);
        cr_assert(strstr(cap.message, "pages") != NULL || strstr(cap.message, "heap") != NULL, "%s", cap.message);
        H.tab[0] = page;
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    }
    s->timers.page_bump++; /* a page taken that no heap holds */
    cr_assert_not(corral_verify(s), "a page lost");
    cr_assert(strstr(cap.message, "pages") != NULL, "%s", cap.message);
    s->timers.page_bump--;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* a plain sleep's coroutine, and its entry's place, on clock heap h past
   its root (held: the held heap's first) */
static corral_co *a_plain_sleeper(corral_sched *s, uint32_t h, bool held)
{
    const uint32_t in = held ? s->timers.heaps : h;
    for (uint32_t pos = held ? 0u : 1u; pos < s->timers.heap_len[in]; pos++) {
        const corral__heap_entry *e = &CORRAL__HEAP_AT(corral__heap(s, in), pos);
        if (!(e->ref & CORRAL__SLEEP_REF)) continue;
        corral_co *co = corral__sleeper(s, e->ref);
        if (corral__sleep_heap_of(co->link) == h) return co;
    }
    cr_assert_fail("no plain sleep on heap %u%s", h, held ? " (held)" : "");
    return NULL;
}

/* A stray write into a plain sleep -- its entry's due time, its sleeper's
   link (its place, its clock, whether it is held), its entry's ref (its
   kind, its sleeper), the count of sleeps -- is named by corral_verify;
   mended, the state verifies again. */
Test(timers, verify_names_a_damaged_plain_sleep)
{
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 64);
    d.domains = DOMAINS;
    d.logger.fn = capture_log;
    d.logger.user_data = &cap;
    d.registry = &tm_registry;
    corral_sched *s = sched_of(d);
    corral_handle h[48];
    for (int i = 0; i < 48; i++) h[i] = sleep_until(s, i, i % GROUPS, 0, 2 + i % 5);
    for (int i = 0; i < 2 * GROUPS; i++)
        if (i % GROUPS != CLOCK_AT && i % GROUPS != 4) cr_assert(corral_pause(s, h[i])); /* two held on each clock below */
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert_gt(s->timers.heap_len[s->timers.heaps], 0u, "the held heap holds the paused sleeps");
    const uint32_t heaps[] = {CORRAL__HEAP_FRAMES, CORRAL__HEAP_REAL, CORRAL__HEAP_SCALED, corral__domain_heap(SLOW)};
    for (uint32_t k = 0; k < 4; k++) {
        for (int held = 0; held < 2; held++) {
            corral_co *co = a_plain_sleeper(s, heaps[k], held);
            const uint32_t in = held ? s->timers.heaps : heaps[k], pos = co->link & CORRAL__SLEEP_POS;
            corral__heap_entry *e = &CORRAL__HEAP_AT(corral__heap(s, in), pos);
            const double due = e->due;
            e->due = -1.0; /* due before its parent */
            if (pos > 0) cr_assert_not(corral_verify(s), "heap %u: a sleep out of order", heaps[k]);
            e->due = (double)NAN;
            cr_assert_not(corral_verify(s), "heap %u: a sleep due at NaN", heaps[k]);
            cr_assert(strstr(cap.message, "NaN") != NULL, "%s", cap.message);
            e->due = due;
            cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));

            const uint32_t link = co->link;
            co->link = link ^ 1u; /* its link names another place */
            cr_assert_not(corral_verify(s), "heap %u: a sleeper's link out of place", heaps[k]);
            cr_assert_eq(cap.last, CORRAL_ERR_CORRUPT);
            co->link = link ^ CORRAL__SLEEP_HELD; /* held, or not, against its heap */
            cr_assert_not(corral_verify(s), "heap %u: a sleeper's held bit against its heap", heaps[k]);
            co->link = (link & ~(CORRAL__SLEEP_HEAP_MASK << CORRAL__SLEEP_HEAP_SHIFT)) |
                       (uint32_t)(heaps[k] == CORRAL__HEAP_REAL ? CORRAL__HEAP_SCALED : CORRAL__HEAP_REAL) << CORRAL__SLEEP_HEAP_SHIFT;
            cr_assert_not(corral_verify(s), "heap %u: a sleeper that names another clock", heaps[k]);
            co->link = link;
            cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));

            const uint32_t ref = e->ref;
            e->ref = ref | 3u << CORRAL__SLEEP_KIND_SHIFT; /* no kind */
            cr_assert_not(corral_verify(s), "heap %u: a sleep of no kind", heaps[k]);
            e->ref = ref + 1u; /* an offset inside a slot */
            cr_assert_not(corral_verify(s), "heap %u: a sleep that names no slot", heaps[k]);
            e->ref = ref;
            cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        }
    }
    s->timers.sleepers++;
    cr_assert_not(corral_verify(s), "a count of sleeps the heaps do not hold");
    s->timers.sleepers--;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* Past max_sleepers a plain sleep takes a wait node (counted); sleeps and
   nodes share the heaps, and equal due times wake in the order their
   waits began whichever record each has. A paused sleep keeps its time
   left through a save and a load and through a domain move. */
Test(timers, sleeps_past_max_sleepers_take_nodes_and_wake_in_order_with_the_sleeps)
{
    corral_sched_desc d = one_class_desc(64, 64);
    d.domains = DOMAINS;
    d.registry = &tm_registry;
    d.max_sleepers = 3;
    corral_sched *s = sched_of(d);
    corral_handle h[8];
    for (int i = 0; i < 8; i++) {
        g_due[i] = 4;
        h[i] = sleep_until(s, i, CLOCK_FRAMES, 0, 4);
    }
    corral_pool_stats ps;
    cr_assert(corral_stats_pools(s, &ps));
    cr_assert_eq(ps.sleepers, 3);
    cr_assert_eq(ps.sleepers_capacity, 3);
    cr_assert_eq(ps.sleepers_spilled, 5);
    cr_assert_eq(ps.wait_nodes, 5, "the five past max_sleepers in nodes");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_pause(s, h[0]), "a plain sleep, held");
    cr_assert(corral_set_domain(s, h[0], SLOW)); /* a frames wait stays on the frames clock */
    const size_t n = corral_save(s, g_buf, sizeof g_buf);
    cr_assert_gt(n, 0u, "%s", corral_last_error_detail(s));
    cr_assert(corral_load(s, g_buf, n), "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    cr_assert(corral_stats_pools(s, &ps));
    cr_assert_eq(ps.sleepers, 3, "loaded: the room's sleeps as sleeps (one of them held)");
    cr_assert_eq(ps.wait_nodes, 5);
    trace_reset();
    run_frames(s, 6);
    int want[7] = {1, 2, 3, 4, 5, 6, 7};
    expect_trace(want, 7);
    for (int i = 1; i < 8; i++) cr_assert_eq(g_woke_frame[i], 4, "sleeper %d", i);
    cr_assert(corral_alive(s, h[0]), "held: it sleeps on");
    cr_assert(corral_resume(s, h[0]));
    const int64_t resumed = (int64_t)corral_frame(s);
    run_frames(s, 6);
    cr_assert_eq(g_woke_frame[0], resumed + 4, "its four frames left after the resume");
    cr_assert(corral_stats_pools(s, &ps));
    cr_assert_eq(ps.sleepers, 0);
    cr_assert_eq(ps.sleepers_peak, 3);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* The store has room for every heap's slack: a store filled to its last
   entry over the three clocks and the held heap, each heap ending a page
   short or a page past (per heap 2 .. 130), pauses and resumes all it
   holds and wakes every sleeper; corral_verify holds at each step. */
Test(timers, a_full_store_holds_every_heap_and_the_held_heap_to_the_last_entry)
{
    for (uint32_t per = 2; per <= 130; per += 4) {
        corral_sched_desc d = one_class_desc(64, 4 * 130);
        d.max_sleepers = 4 * per;
        d.max_wait_nodes = 1;
        d.registry = &tm_registry;
        corral_sched *s = sched_of(d);
        static corral_handle h[4 * 130];
        for (uint32_t i = 0; i < 4 * per; i++) {
            const int g = i < per ? CLOCK_FRAMES : i < 2 * per ? CLOCK_REAL : CLOCK_SECONDS;
            h[i] = sleep_until(s, (int)i, g, 0, 3);
        }
        for (uint32_t i = 3 * per; i < 4 * per; i++) cr_assert(corral_pause(s, h[i]));
        cr_assert_eq(s->timers.heap_len[s->timers.heaps], per, "per %u: the held heap", per);
        cr_assert(corral_verify(s), "per %u: %s", per, corral_last_error_detail(s));
        for (uint32_t i = 0; i < 3 * per; i++) cr_assert(corral_pause(s, h[i]));
        cr_assert(corral_verify(s), "per %u, all held: %s", per, corral_last_error_detail(s));
        for (uint32_t i = 0; i < 4 * per; i++) cr_assert(corral_resume(s, h[i]));
        cr_assert(corral_verify(s), "per %u, resumed: %s", per, corral_last_error_detail(s));
        run_frames(s, 5);
        cr_assert_eq(corral_live_count(s), 0u, "per %u: every sleeper woke", per);
        corral_sched_destroy(s);
    }
}

/* A sleep's entry in the held heap belongs to a paused coroutine, one in
   a clock's heap to a waiting one: a snapshot whose coroutine's state
   says otherwise (a sleeper that would never wake, or one that would
   sleep through its pause) is refused by corral_verify. */
Test(timers, verify_refuses_a_sleep_held_or_running_against_its_state)
{
    corral_sched *s = tsched(8);
    const corral_handle a = sleep_until(s, 0, CLOCK_FRAMES, 0, 4), b = sleep_until(s, 1, CLOCK_FRAMES, 0, 4);
    cr_assert(corral_pause(s, a));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_error err;
    corral_co *ca = corral__resolve(s, a, &err), *cb = corral__resolve(s, b, &err);
    const uint8_t held = ca->state;
    ca->state = CORRAL__WAITING; /* its entry in the held heap: it would never wake */
    cr_assert_not(corral_verify(s));
    cr_assert(strstr(corral_last_error_detail(s), "against its coroutine's state"), "%s", corral_last_error_detail(s));
    ca->state = held;
    cb->state = held; /* paused, its entry in the frames' heap: it would sleep through its pause */
    cr_assert_not(corral_verify(s));
    cb->state = CORRAL__WAITING;
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}
