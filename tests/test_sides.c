/* test_sides.c -- side records: the links few coroutines have (a call's,
   a join's, groups, a deadline, an all/any) come from a pool the desc
   sizes; a full pool is SIDE_POOL_EXHAUSTED and loses nothing; a slot
   without them costs its meta and no record (a lookup sized from the pool
   finds a slot's record). */
#include "common.h"
#include "corral_internal.h"

/* sleeper: waits `frames` frames, then ends */
#define SLEEPER_FIELDS(F) F(int, frames)
#define SLEEPER_POINTS(P) P(slept)
DECLARE_COROUTINE(sleeper, SLEEPER_FIELDS)
DEFINE_COROUTINE_AT(sleeper, SLEEPER_POINTS) /* named points: saves carry it */
{
    CORRAL_BEGIN_AT(co, SLEEPER_POINTS);
    while (ctx->frames-- > 0) CORRAL_WAIT_FRAME_AT(co, slept);
    CORRAL_END(co);
}

/* calls a sleeper of `frames` frames, records the outcome */
#define CALLS_FIELDS(F) \
    F(int, frames)      \
    F(int, outcome)     \
    F(int, done)
#define CALLS_POINTS(P) P(called) P(idle)
DECLARE_COROUTINE(calls, CALLS_FIELDS)
DEFINE_COROUTINE_AT(calls, CALLS_POINTS)
{
    CORRAL_BEGIN_AT(co, CALLS_POINTS);
    ctx->outcome = -1;
    CORRAL_CALL_AT(co, called, sleeper, (sleeper_ctx){.frames = ctx->frames});
    ctx->outcome = (int)corral_call_outcome(co);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}

/* joins a coroutine */
#define JOINS_FIELDS(F)      \
    F(corral_handle, target) \
    F(int, done)
DECLARE_COROUTINE(joins, JOINS_FIELDS)
DEFINE_COROUTINE(joins)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_JOIN(co, ctx->target);
    ctx->done = 1;
    CORRAL_END(co);
}

/* waits for any of two frame counts */
#define ANY_FIELDS(F) F(int, fired)
DECLARE_COROUTINE(any2, ANY_FIELDS)
DEFINE_COROUTINE(any2)
{
    CORRAL_BEGIN(co);
    {
        corral_wait ws[2] = {corral_wait_frames(3), corral_wait_frames(1)};
        CORRAL_WAIT_ANY(co, ws, 2);
    }
    ctx->fired = corral_wait_fired(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

static const corral_type *const g_types[] = {&sleeper_type, &calls_type, &joins_type, &any2_type};
static const uint32_t g_ids[] = {1, 2, 3, 4};
static const corral_registry g_registry = {"sides", g_types, g_ids, NULL, 4};

static corral_sched_desc sdesc(uint32_t cap, uint32_t sides)
{
    corral_sched_desc d = one_class_desc(128, cap);
    d.max_side_records = sides;
    d.registry = &g_registry; /* saves find types by id */
    return d;
}
static corral_sched *ssched(uint32_t cap, uint32_t sides) { return sched_of(sdesc(cap, sides)); }

Test(sides, a_plain_coroutine_takes_none_and_a_call_takes_two_until_both_end)
{
    corral_sched *s = ssched(8, 4);
    corral_handle a = sleeper_start(s, (sleeper_ctx){.frames = 5});
    cr_assert_neq(a.gen, 0);
    cr_assert_eq(pools_of(s).side_records, 0, "a plain coroutine has no side record");
    corral_handle c = calls_start(s, (calls_ctx){.frames = 2});
    cr_assert_eq(pools_of(s).side_records, 2, "the caller's and the child's");
    for (int f = 0; f < 4; f++) corral_tick(s, 0.01f);
    calls_ctx *cc = calls_ctx_of(s, c);
    cr_assert(cc && cc->done && cc->outcome == CORRAL_END_FINISHED);
    cr_assert_eq(pools_of(s).side_records, 1, "the child's came back; the caller keeps its outcome");
    cr_assert(corral_stop(s, c));
    corral_pool_stats p = pools_of(s);
    cr_assert_eq(p.side_records, 0);
    cr_assert_eq(p.side_records_peak, 2);
    cr_assert_eq(p.side_records_capacity, 4);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(sides, a_call_with_no_record_free_goes_on_with_outcome_none_and_loses_nothing)
{
    corral_sched *s = ssched(8, 1); /* the caller's only */
    corral_handle c = calls_start(s, (calls_ctx){.frames = 2});
    calls_ctx *cc = calls_ctx_of(s, c);
    cr_assert(cc && cc->done, "the call did not start: the caller went on");
    cr_assert_eq(cc->outcome, CORRAL_END_NONE);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert_eq(corral_live_count(s), 1, "no child was half made");
    corral_pool_stats p = pools_of(s);
    cr_assert_eq(p.side_failures, 1);
    cr_assert_eq(p.side_records, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(sides, a_call_whose_caller_finds_no_record_goes_on_with_outcome_none_and_says_whose)
{
    corral_sched *s = ssched(8, 1);
    corral_start_desc o = {.owner = 1}; /* takes the only record */
    corral_handle t = sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &o);
    corral_handle c = calls_start(s, (calls_ctx){.frames = 2});
    calls_ctx *cc = calls_ctx_of(s, c);
    cr_assert(cc && cc->done && cc->outcome == CORRAL_END_NONE);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(strstr(corral_last_error_detail(s), "in a step of 'calls'") &&
                  strstr(corral_last_error_detail(s), "none for the caller: desc.max_side_records (1) are all taken"),
              "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_live_count(s), 2);
    cr_assert(corral_alive(s, t));
    cr_assert_eq(pools_of(s).side_records, 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(sides, a_start_with_an_owner_is_refused_whole_when_none_is_free)
{
    corral_sched *s = ssched(8, 1);
    corral_start_desc o = {.owner = 7};
    cr_assert_neq(sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &o).gen, 0);
    cr_assert_eq(sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &o).gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(strstr(corral_last_error_detail(s), "none for the start's owner/tags: desc.max_side_records (1) are all taken"),
              "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_live_count(s), 1);
    corral_class_stats k;
    cr_assert(corral_stats_class(s, 0, &k));
    cr_assert_eq(k.used, 1, "no slot taken for the refused start");
    cr_assert_neq(sleeper_start(s, (sleeper_ctx){.frames = 9}).gen, 0, "a start without groups needs none");
    cr_assert_eq(corral_stop_owner(s, 7), 1);
    cr_assert_neq(sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &o).gen, 0, "the record came back");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

Test(sides, a_join_or_an_any_that_finds_none_ends_the_waiter_with_wait_failed)
{
    corral_sched *s = ssched(8, 1);
    corral_start_desc o = {.owner = 1}; /* takes the only record */
    corral_handle t = sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &o);
    corral_handle other = sleeper_start(s, (sleeper_ctx){.frames = 9});
    corral_handle j = joins_start(s, (joins_ctx){.target = other});
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(!corral_alive(s, j), "it cannot wait, and does not go on as if it had");
    corral_handle a = any2_start(s, (any2_ctx){0});
    cr_assert(!corral_alive(s, a));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(corral_alive(s, t) && corral_alive(s, other), "the others are untouched");
    cr_assert(corral_stop(s, t));
    j = joins_start(s, (joins_ctx){.target = other}); /* now the target takes the record */
    cr_assert(corral_alive(s, j));
    cr_assert(corral_verify(s));
    cr_assert(corral_stop(s, other));
    corral_tick(s, 0.01f);
    cr_assert(!corral_alive(s, j), "the joiner saw the end");
    cr_assert_eq(pools_of(s).side_records, 0);
    a = any2_start(s, (any2_ctx){0});
    for (int f = 0; f < 3; f++) corral_tick(s, 0.01f);
    any2_ctx *ac = any2_ctx_of(s, a);
    cr_assert(ac && ac->fired == 1, "the any's record holds what fired");
    corral_sched_destroy(s);
}

Test(sides, a_load_that_needs_more_records_than_the_desc_gives_is_refused_whole)
{
    static unsigned char buf[1 << 16];
    corral_sched *s = ssched(8, 4);
    corral_handle c = calls_start(s, (calls_ctx){.frames = 50});
    cr_assert_neq(c.gen, 0);
    size_t n = corral_save(s, buf, sizeof buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    corral_sched *small = ssched(8, 1);
    corral_handle keep = sleeper_start(small, (sleeper_ctx){.frames = 9});
    uint64_t before = corral_state_hash(small);
    cr_assert(!corral_load(small, buf, n));
    cr_assert_eq(corral_last_error(small), CORRAL_ERR_BAD_SAVE);
    cr_assert(strstr(corral_last_error_detail(small), "max_side_records"), "%s", corral_last_error_detail(small));
    cr_assert_eq(corral_state_hash(small), before, "a refused load changes nothing");
    cr_assert(corral_alive(small, keep));
    corral_sched *big = ssched(8, 2);
    cr_assert(corral_load(big, buf, n), "%s", corral_last_error_detail(big));
    cr_assert(corral_verify(big));
    cr_assert_eq(pools_of(big).side_records, 2);
    cr_assert_eq(corral_state_hash(big), corral_state_hash(s));
    corral_sched_destroy(big);
    corral_sched_destroy(small);
    corral_sched_destroy(s);
}

/* What a slot costs at the zeroed desc's defaults, part by part: the
   figure bench/README.md and the report quote. */
Test(sides, a_slot_costs_its_meta_and_no_side_record_at_the_defaults)
{
    cr_assert_eq(sizeof(corral__meta), 1);
    cr_assert_eq(sizeof(corral__side), 36);
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 48; /* a 32-byte context */
    d.classes[0].capacity = 0;
    const size_t empty = corral_sched_memory_size(&d);
    d.classes[0].capacity = 1024;
    const size_t full = corral_sched_memory_size(&d);
    /* slot 48 + meta 1 + run queue 4.5 (an entry a slot, an eighth of
       one more, a chunk's link over its 32 entries) + a sleep's heap
       entry 16 in the clocks' shared store + a wait node 40 and its
       entry 16 a 32 slots (+ the page tables' and pages' share, and the
       slots' page table): at most 72 (bench/README.md) */
    const double per = (double)(full - empty) / 1024.0;
    cr_assert(per >= 71.0 && per <= 72.0, "%.2f bytes a slot", per);
}

/* The lookup from a slot to its record (arena.c) probes past others'
   entries: a small pool (a table of 16 entries for 8 records) filled,
   emptied and refilled in a scrambled order keeps finding each record,
   and corral_verify holds at every step; a restore rebuilds it. */
Test(sides, the_lookup_finds_each_record_through_takes_and_gives_in_any_order)
{
    corral_sched *s = ssched(64, 8);
    corral_handle h[64];
    uint32_t n = 0;
    for (uint32_t round = 0; round < 6; round++) {
        while (n < 8) h[n++] = any2_start(s, (any2_ctx){0}); /* an any's record each */
        cr_assert_eq(pools_of(s).side_records, 8);
        cr_assert(corral_verify(s));
        for (uint32_t k = 0; k < 3; k++) corral_tick(s, 0.01f);
        for (uint32_t k = 0; k < n; k++) {
            any2_ctx *c = any2_ctx_of(s, h[k]);
            cr_assert(c && c->fired == 1, "round %u, coroutine %u reads its own record", round, k);
        }
        const uint32_t drop = 3 + round % 4; /* stop some, from the middle out */
        for (uint32_t k = 0; k < drop; k++) {
            const uint32_t at = (k * 5u + round) % n;
            cr_assert(corral_stop(s, h[at]));
            h[at] = h[--n];
            cr_assert(corral_verify(s));
        }
        sleeper_start(s, (sleeper_ctx){.frames = 2}); /* slots taken apart from the records */
    }
    const size_t size = corral_snapshot_size(s);
    void *snap = malloc(size);
    cr_assert(corral_snapshot(s, snap, size));
    const uint64_t hash = corral_state_hash(s);
    const uint32_t kept = n;
    while (n) cr_assert(corral_stop(s, h[--n]));
    for (uint32_t k = 0; k < 8; k++) any2_start(s, (any2_ctx){0}); /* other slots, other records */
    cr_assert(corral_restore(s, snap, size));
    cr_assert(corral_verify(s));
    cr_assert_eq(corral_state_hash(s), hash);
    cr_assert_eq(pools_of(s).side_records, kept);
    for (uint32_t k = 0; k < kept; k++) {
        any2_ctx *c = any2_ctx_of(s, h[k]);
        cr_assert(c && c->fired == 1, "restored: coroutine %u", k);
        cr_assert(corral_stop(s, h[k])); /* its record found and given back */
        cr_assert(corral_verify(s));
    }
    cr_assert_eq(pools_of(s).side_records, 0);
    free(snap);
    corral_sched_destroy(s);
}

/* corral_verify sees a coroutine whose meta says it has a record the
   lookup does not find, and a lookup entry no record owns */
Test(sides, verify_catches_a_side_bit_and_a_lookup_that_disagree)
{
    corral_sched *s = ssched(8, 4);
    corral_handle a = any2_start(s, (any2_ctx){0});
    cr_assert(corral_verify(s));
    corral_error err;
    corral__meta *m = corral__meta_of(s, corral__resolve(s, a, &err));
    m->bits &= (uint8_t)~CORRAL__HAS_SIDE;
    cr_assert(!corral_verify(s), "a record in use that no coroutine has");
    m->bits |= CORRAL__HAS_SIDE;
    cr_assert(corral_verify(s));
    corral__side *sd = corral__side_at(s, m);
    const uint32_t owner = sd->owner;
    sd->owner = owner ^ 1u;
    cr_assert(!corral_verify(s), "a record its coroutine's probe does not find");
    sd->owner = owner;
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a coroutine's age in frames (corral_co_info.age_frames) */
static uint64_t age_of(corral_sched *s, corral_handle h)
{
    corral_co_info in;
    cr_assert(corral_co_info_of(s, h, &in));
    return in.age_frames;
}

/* A coroutine's birth frame is the profile's: kept with desc.timing, in
   a per-slot array, through a save and load, a snapshot and restore;
   without timing none is kept, its age reads 0 and a save holds 0. */
Test(sides, an_age_is_kept_with_timing_through_save_load_and_restore_and_is_0_without)
{
    static unsigned char buf[1 << 16];
    for (int timing = 0; timing < 2; timing++) {
        corral_sched_desc d = sdesc(8, 4);
        d.timing = timing;
        corral_sched *s = sched_of(d);
        corral_handle old = sleeper_start(s, (sleeper_ctx){.frames = 50});
        for (int f = 0; f < 5; f++) corral_tick(s, 0.01f);
        corral_handle young = sleeper_start(s, (sleeper_ctx){.frames = 50});
        corral_tick(s, 0.01f);
        const uint64_t want_old = timing ? 6u : 0u, want_young = timing ? 1u : 0u;
        cr_assert_eq(age_of(s, old), want_old, "timing %d", timing);
        cr_assert_eq(age_of(s, young), want_young, "timing %d", timing);
        const size_t size = corral_snapshot_size(s);
        cr_assert(size && size <= sizeof buf && corral_snapshot(s, buf, size));
        for (int f = 0; f < 3; f++) corral_tick(s, 0.01f);
        cr_assert_eq(age_of(s, old), timing ? 9u : 0u);
        cr_assert(corral_restore(s, buf, size));
        cr_assert(corral_verify(s));
        cr_assert_eq(age_of(s, old), want_old, "restored, timing %d", timing);
        cr_assert_eq(age_of(s, young), want_young, "restored, timing %d", timing);
        const size_t n = corral_save(s, buf, sizeof buf);
        cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
        corral_sched *t = sched_of(d);
        cr_assert(corral_load(t, buf, n), "%s", corral_last_error_detail(t));
        cr_assert(corral_verify(t));
        cr_assert_eq(corral_state_hash(t), corral_state_hash(s));
        uint32_t cur = 0, seen = 0;
        corral_co_info in;
        while (corral_next_co(t, &cur, &in)) {
            cr_assert(in.age_frames == want_old || in.age_frames == want_young, "loaded, timing %d: %llu", timing,
                      (unsigned long long)in.age_frames);
            seen |= in.age_frames == want_old ? 1u : 2u;
        }
        cr_assert_eq(seen, timing ? 3u : 1u, "both ages came back");
        corral_sched_destroy(t);
        corral_sched_destroy(s);
    }
}

/* A time domain other than 0 is kept in the coroutine's side record: a
   start, a generator's or corral_set_domain that finds none free is
   refused whole with SIDE_POOL_EXHAUSTED; domain 0 takes none */
Test(sides, a_domain_other_than_0_holds_a_record_and_one_that_finds_none_is_refused_whole)
{
    corral_sched_desc d = sdesc(8, 1);
    d.domains = 3;
    corral_sched *s = sched_of(d);
    corral_handle zero = sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &(corral_start_desc){.domain = 0});
    cr_assert(corral_alive(s, zero));
    cr_assert_eq(pools_of(s).side_records, 0, "domain 0 takes none");
    corral_handle two = sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &(corral_start_desc){.domain = 2});
    cr_assert(corral_alive(s, two));
    cr_assert_eq(pools_of(s).side_records, 1);
    const uint32_t live = pools_of(s).side_records;
    corral_handle refused = sleeper_start_ex(s, (sleeper_ctx){.frames = 9}, &(corral_start_desc){.domain = 1});
    cr_assert_eq(refused.gen, 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    cr_assert(strstr(corral_last_error_detail(s), "time domain"), "%s", corral_last_error_detail(s));
    corral_arena_stats a;
    corral_stats_arena(s, &a);
    cr_assert_eq(a.live, 2u, "nothing taken");
    cr_assert(!corral_set_domain(s, zero, 1));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_SIDE_POOL_EXHAUSTED);
    corral_co_info in;
    cr_assert(corral_co_info_of(s, zero, &in) && in.domain == 0, "not moved");
    cr_assert(corral_set_domain(s, two, 1), "one that holds a record moves");
    cr_assert(corral_co_info_of(s, two, &in) && in.domain == 1);
    cr_assert(corral_set_domain(s, zero, 0), "to 0: none needed");
    cr_assert_eq(pools_of(s).side_records, live);
    cr_assert(corral_verify(s));
    cr_assert(corral_stop(s, two));
    cr_assert(corral_set_domain(s, zero, 2), "the record freed");
    cr_assert(corral_co_info_of(s, zero, &in) && in.domain == 2);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}

/* a coroutine's domain comes back from a snapshot and from a save */
Test(sides, a_domain_survives_snapshot_restore_and_save_load)
{
    static unsigned char buf[1 << 16];
    corral_sched_desc d = sdesc(8, 4);
    d.domains = 4;
    corral_sched *s = sched_of(d);
    corral_handle a = sleeper_start_ex(s, (sleeper_ctx){.frames = 30}, &(corral_start_desc){.domain = 3});
    corral_handle b = sleeper_start(s, (sleeper_ctx){.frames = 30});
    corral_tick(s, 0.01f);
    const size_t size = corral_snapshot_size(s);
    cr_assert(size && size <= sizeof buf && corral_snapshot(s, buf, size));
    const uint64_t hash = corral_state_hash(s);
    cr_assert(corral_set_domain(s, a, 0));
    cr_assert(corral_set_domain(s, b, 2));
    cr_assert_neq(corral_state_hash(s), hash, "the hash sees the domains");
    cr_assert(corral_restore(s, buf, size));
    cr_assert(corral_verify(s));
    cr_assert_eq(corral_state_hash(s), hash);
    corral_co_info in;
    cr_assert(corral_co_info_of(s, a, &in) && in.domain == 3);
    cr_assert(corral_co_info_of(s, b, &in) && in.domain == 0);
    const size_t n = corral_save(s, buf, sizeof buf);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    corral_sched *t = sched_of(d);
    cr_assert(corral_load(t, buf, n), "%s", corral_last_error_detail(t));
    cr_assert(corral_verify(t));
    cr_assert_eq(corral_state_hash(t), hash);
    cr_assert_eq(pools_of(t).side_records, 1, "the one in domain 3 holds one");
    uint32_t cur = 0, domains = 0;
    while (corral_next_co(t, &cur, &in)) domains |= 1u << in.domain;
    cr_assert_eq(domains, (1u << 3) | 1u);
    corral_sched_destroy(t);
    corral_sched_destroy(s);
}

/* A meta byte no state at rest has: a free slot that says it holds a side
   record, a live coroutine with an end reason's bits. corral_verify refuses
   it, and a snapshot of it (sealed as the game's own) is refused by a
   restore, which leaves the state as it was. */
Test(sides, a_meta_byte_no_state_at_rest_has_is_refused_by_verify_and_restore)
{
    static unsigned char good[1 << 16], bad[1 << 16];
    static const uint8_t edits[][2] = {{0, CORRAL__HAS_SIDE}, {1, 0x20}, {1, 0x40}, {1, 0x80}};
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        corral_sched *s = ssched(8, 4);
        corral_handle a = sleeper_start(s, (sleeper_ctx){.frames = 50});
        corral_handle b = sleeper_start(s, (sleeper_ctx){.frames = 50});
        corral_handle c = sleeper_start(s, (sleeper_ctx){.frames = 50});
        corral_tick(s, 0.01f);
        corral_error err;
        corral__meta *freed = corral__meta_of(s, corral__resolve(s, b, &err));
        cr_assert(corral_stop(s, b));
        corral__meta *live = corral__meta_of(s, corral__resolve(s, c, &err));
        const size_t n = corral_snapshot(s, good, sizeof good);
        cr_assert_gt(n, 0);
        const uint64_t hash = corral_state_hash(s);
        corral__meta *m = edits[e][0] ? live : freed;
        const uint8_t was = m->bits;
        m->bits = (uint8_t)(m->bits | edits[e][1]);
        cr_assert(!corral_verify(s), "edit %zu: verify sees it", e);
        const size_t nb = corral_snapshot(s, bad, sizeof bad);
        cr_assert_gt(nb, 0);
        m->bits = was;
        cr_assert(corral_verify(s));
        cr_assert(!corral_restore(s, bad, nb), "edit %zu: a restore refuses it", e);
        cr_assert(corral_verify(s), "edit %zu: nothing lost", e);
        cr_assert_eq(corral_state_hash(s), hash);
        cr_assert(corral_alive(s, a) && corral_alive(s, c));
        cr_assert(corral_restore(s, good, n));
        corral_sched_destroy(s);
    }
}
