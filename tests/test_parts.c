/*
    test_parts.c -- a scheduler built from the parts it names
    (corral_sched_create_min, desc.parts; docs/API.md "Parts"): each part's
    entry points refused with NO_PART and words that name the part when
    the scheduler lacks it, and working when it has it; saves and
    snapshots carried between schedulers of other parts refused whole;
    corral_sched_memory_size enough for a caller's block; a destroyed
    scheduler refused without reading its freed block.
*/
#include "common.h"
#include "corral_internal.h"

TestSuite(parts);

/* every part, and the parts of a scheduler without one (each named part
   brings the parts it builds on: stops needs groups, pulls calls and
   groups, races calls) */
#define PT_PART_PTR(name) &corral_part_##name,
static const corral_part *const pt_every_part[] = {CORRAL_PARTS(PT_PART_PTR) NULL};
#undef PT_PART_PTR

/* the parts of pt_every_part but those in `without` (NULL-terminated) */
static void pt_parts_without(const corral_part *out[16], const corral_part *const *without)
{
    size_t n = 0;
    for (size_t i = 0; pt_every_part[i]; i++) {
        bool skip = false;
        for (size_t k = 0; without[k]; k++) skip = skip || without[k] == pt_every_part[i];
        if (!skip) out[n++] = pt_every_part[i];
    }
    out[n] = NULL;
}

/* ---- coroutines saved and loaded: a waiter (an arm, a callee, a group
   member), a caller, a racer, a generator, a future's waiter */
#define PW_FIELDS(F) F(int, frames) F(int, value)
#define PW_POINTS(P) P(waited)
DECLARE_COROUTINE_R(pw, PW_FIELDS, int)
DEFINE_COROUTINE_AT(pw, PW_POINTS)
{
    CORRAL_BEGIN_AT(co, PW_POINTS);
    while (ctx->frames-- > 0) CORRAL_WAIT_FRAME_AT(co, waited);
    ctx->result = ctx->value;
    CORRAL_END(co);
}
#define PC_FIELDS(F) F(int, got)
#define PC_POINTS(P) P(called)
DECLARE_COROUTINE(pc, PC_FIELDS)
DEFINE_COROUTINE_AT(pc, PC_POINTS)
{
    CORRAL_BEGIN_AT(co, PC_POINTS);
    CORRAL_CALL_AT(co, called, pw, (pw_ctx){.frames = 50, .value = 5}, &ctx->got);
    CORRAL_END(co);
}
#define PR_FIELDS(F) F(int, got)
#define PR_POINTS(P) P(raced)
DECLARE_COROUTINE(pr, PR_FIELDS)
DEFINE_COROUTINE_AT(pr, PR_POINTS)
{
    CORRAL_BEGIN_AT(co, PR_POINTS);
    CORRAL_RACE_AT(co, raced, pw_arm(co, (pw_ctx){.frames = 40, .value = 1}, &ctx->got),
                   pw_arm(co, (pw_ctx){.frames = 60, .value = 2}, &ctx->got));
    CORRAL_END(co);
}
#define PG_FIELDS(F) F(int, i)
#define PG_POINTS(P) P(gave)
DECLARE_COROUTINE_R(pg, PG_FIELDS, int)
DEFINE_COROUTINE_AT(pg, PG_POINTS)
{
    CORRAL_BEGIN_AT(co, PG_POINTS);
    for (ctx->i = 0; ctx->i < 100; ctx->i++) CORRAL_YIELD_VALUE_AT(co, gave, ctx->i);
    CORRAL_END(co);
}
#define PF_FIELDS(F) F(corral_future, fut)
#define PF_POINTS(P) P(waited)
DECLARE_COROUTINE(pf, PF_FIELDS)
DEFINE_COROUTINE_AT(pf, PF_POINTS)
{
    CORRAL_BEGIN_AT(co, PF_POINTS);
    CORRAL_WAIT_FUTURE_AT(co, waited, ctx->fut);
    CORRAL_END(co);
}
/* a coroutine waiting until a time (alarms), one waiting for a stop (stops) */
#define PA_FIELDS(F) F(double, until)
#define PA_POINTS(P) P(waited)
DECLARE_COROUTINE(pa, PA_FIELDS)
DEFINE_COROUTINE_AT(pa, PA_POINTS)
{
    CORRAL_BEGIN_AT(co, PA_POINTS);
    CORRAL_WAIT_AT_AT(co, waited, ctx->until);
    CORRAL_END(co);
}
#define PS_FIELDS(F) F(int, n)
#define PS_POINTS(P) P(waited)
DECLARE_COROUTINE(ps, PS_FIELDS)
DEFINE_COROUTINE_AT(ps, PS_POINTS)
{
    CORRAL_BEGIN_AT(co, PS_POINTS);
    CORRAL_WAIT_STOP_AT(co, waited);
    CORRAL_END(co);
}
#define PT_TYPES(X) X(pw, 1, 0) X(pc, 2, 0) X(pr, 3, 0) X(pg, 4, 0) X(pf, 5, 0) X(pa, 6, 0) X(ps, 7, 0)
CORRAL_DECLARE_REGISTRY(pt, PT_TYPES)
CORRAL_DEFINE_REGISTRY(pt, PT_TYPES);

static corral_sched_desc pt_desc(log_capture *cap, const corral_part *const *parts)
{
    corral_sched_desc d = one_class_desc(128, 64);
    d.registry = &pt_registry;
    d.validation = CORRAL_VALIDATION_REPORT; /* a missing part is a misuse */
    d.logger.fn = capture_log;
    d.logger.user_data = cap;
    d.parts = parts;
    return d;
}

/* ---- 1. each part's entry points, without and with the part */

/* what a refused call said: the error and its detail, read where it
   happened (a step's wait is refused inside the step) */
static corral_error g_err;
static char g_detail[256];
static corral_handle g_bystander;
static void pt_note(corral_sched *s)
{
    g_err = corral_last_error(s);
    snprintf(g_detail, sizeof g_detail, "%s", g_err ? corral_last_error_detail(s) : "");
}

/* an actor that awaits the wait its `user` makes, once, and goes on:
   id 1 when the wait waits, 2 when it was refused */
typedef corral_wait (*pt_wait_fn)(corral_co *co, actor_ctx *ctx);
static pt_wait_fn g_make_wait; /* the wait the next pt_awaits makes */
static corral_result pt_awaits(corral_co *co, actor_ctx *ctx)
{
    if (ctx->steps != 1) return CORRAL_YIELD;
    corral_sched *s = corral_sched_of(co);
    const bool waits = corral_await(co, g_make_wait(co, ctx));
    pt_note(s);
    ctx->id = waits ? 1 : 2;
    return CORRAL_YIELD;
}
static bool pt_step_wait(corral_sched *s, pt_wait_fn make, corral_handle other)
{
    g_make_wait = make;
    corral_handle h = start_actor(s, 0, pt_awaits, other, NULL);
    cr_assert(corral_alive(s, h));
    return actor_ctx_of(s, h)->id == 1;
}

static bool pt_channel(corral_sched *s)
{
    const bool made = corral_channel_create(s, 4).gen != 0;
    pt_note(s);
    return made;
}
static bool pt_semaphore(corral_sched *s)
{
    const bool made = corral_semaphore_create(s, 1).gen != 0;
    pt_note(s);
    return made;
}
static bool pt_waitgroup(corral_sched *s)
{
    const bool made = corral_waitgroup_create(s).gen != 0;
    pt_note(s);
    return made;
}
static bool pt_future(corral_sched *s)
{
    const bool made = corral_future_create(s).gen != 0;
    pt_note(s);
    return made;
}
static bool pt_start_with(corral_sched *s, corral_start_desc opts)
{
    tracer_ctx c = {.id = 9};
    const bool made = corral_start_ex(s, &tracer_type, &c, sizeof c, &opts).gen != 0;
    pt_note(s);
    return made;
}
static bool pt_owner(corral_sched *s) { return pt_start_with(s, (corral_start_desc){.owner = 42}); }
static bool pt_tags(corral_sched *s) { return pt_start_with(s, (corral_start_desc){.tags = 4u}); }
static bool pt_deadline(corral_sched *s)
{
    const bool asked = corral_request_stop(s, g_bystander, 10.0f);
    pt_note(s);
    return asked;
}
static corral_wait pt_stop_wait(corral_co *co, actor_ctx *ctx)
{
    (void)co, (void)ctx;
    return corral_wait_stop();
}
static bool pt_wait_stop(corral_sched *s) { return pt_step_wait(s, pt_stop_wait, (corral_handle){0, 0}); }
static corral_wait pt_at_wait(corral_co *co, actor_ctx *ctx)
{
    (void)co, (void)ctx;
    return corral_wait_at(100.0);
}
static bool pt_wait_at(corral_sched *s) { return pt_step_wait(s, pt_at_wait, (corral_handle){0, 0}); }
static corral_wait pt_pull_wait(corral_co *co, actor_ctx *ctx)
{
    (void)co;
    return corral_wait_pull(ctx->other);
}
static bool pt_generator(corral_sched *s)
{
    const bool made = pg_gen(s, (pg_ctx){0}).gen != 0;
    pt_note(s);
    return made;
}
static bool pt_pull(corral_sched *s)
{
    corral_handle g = pg_gen(s, (pg_ctx){0}); /* none without the part: the pull names the bystander */
    const bool waits = pt_step_wait(s, pt_pull_wait, g.gen ? g : g_bystander);
    return waits || g_err == CORRAL_ERR_OK; /* a generator's first value comes at once */
}
static bool pt_budget(corral_sched *s)
{
    corral_set_budget(s, 1500);
    pt_note(s);
    return g_err == CORRAL_ERR_OK;
}
/* a race: refused at its begin (no arm starts), or waiting on its arms */
#define PT_RACER_FIELDS(F) F(int, after) F(int, got)
DECLARE_COROUTINE(pt_racer, PT_RACER_FIELDS)
DEFINE_COROUTINE(pt_racer)
{
    CORRAL_BEGIN(co);
    g_err = CORRAL_ERR_OK;
    CORRAL_RACE(co, pw_arm(co, (pw_ctx){.frames = 100}, &ctx->got), pw_arm(co, (pw_ctx){.frames = 100}, &ctx->got));
    if (!ctx->after) pt_note(corral_sched_of(co));
    ctx->after++;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}
static bool pt_race(corral_sched *s)
{
    corral_handle h = pt_racer_start(s, (pt_racer_ctx){0});
    cr_assert(corral_alive(s, h));
    return pt_racer_ctx_of(s, h)->after == 0;
}

typedef struct pt_case {
    const char *what;
    const char *part_name;
    const corral_part *part;
    bool (*attempt)(corral_sched *s);
    bool from_a_step; /* refused inside a step: its coroutine goes on */
} pt_case;

static const pt_case pt_cases[] = {
    {"a channel", "channels", &corral_part_channels, pt_channel, false},
    {"a semaphore", "channels", &corral_part_channels, pt_semaphore, false},
    {"a wait group", "channels", &corral_part_channels, pt_waitgroup, false},
    {"a future", "futures", &corral_part_futures, pt_future, false},
    {"a start with an owner", "groups", &corral_part_groups, pt_owner, false},
    {"a start with tags", "groups", &corral_part_groups, pt_tags, false},
    {"a stop request with a deadline", "groups", &corral_part_groups, pt_deadline, false},
    {"corral_wait_stop", "stops", &corral_part_stops, pt_wait_stop, true},
    {"corral_wait_at", "alarms", &corral_part_alarms, pt_wait_at, true},
    {"a race", "races", &corral_part_races, pt_race, true},
    {"a generator", "pulls", &corral_part_pulls, pt_generator, false},
    {"a pull", "pulls", &corral_part_pulls, pt_pull, true},
    {"corral_set_budget", "budget", &corral_part_budget, pt_budget, false},
};

Test(parts, each_parts_entry_points_are_refused_without_it_changing_nothing_and_work_with_it)
{
    for (size_t i = 0; i < sizeof pt_cases / sizeof pt_cases[0]; i++) {
        const pt_case *c = &pt_cases[i];
        log_capture cap = {0};
        corral_sched_desc d = pt_desc(&cap, NULL);
        corral_sched *s = corral_sched_create_min(&d);
        cr_assert_not_null(s, "%s", c->what);
        g_bystander = start_tracer(s, 1, 0);
        corral_tick(s, 0.1f);
        const uint64_t before = corral_state_hash(s);
        const uint32_t live = corral_live_count(s);
        g_err = CORRAL_ERR_OK;
        g_detail[0] = 0;
        cr_assert_not(c->attempt(s), "%s works in a scheduler without corral_part_%s", c->what, c->part_name);
        cr_assert_eq(g_err, CORRAL_ERR_NO_PART, "%s: %s", c->what, corral_error_str(g_err));
        char want[64];
        snprintf(want, sizeof want, "corral_part_%s", c->part_name);
        cr_assert(strstr(g_detail, want), "%s: the detail names %s: '%s'", c->what, want, g_detail);
        cr_assert_eq(cap.last, CORRAL_ERR_NO_PART, "%s: REPORT logs the refusal", c->what);
        if (c->from_a_step) {
            cr_assert_eq(corral_live_count(s), live + 1, "%s: only the refused coroutine started", c->what);
        } else {
            cr_assert_eq(corral_state_hash(s), before, "%s changed the state", c->what);
            cr_assert_eq(corral_live_count(s), live, "%s", c->what);
        }
        cr_assert(corral_verify(s), "%s: %s", c->what, corral_last_error_detail(s));
        const int steps = tracer_ctx_of(s, g_bystander)->steps;
        corral_tick(s, 0.1f);
        corral_tick(s, 0.1f);
        cr_assert(corral_alive(s, g_bystander), "%s", c->what);
        cr_assert_eq(tracer_ctx_of(s, g_bystander)->steps, steps + 2, "%s: the bystander steps on", c->what);
        cr_assert_eq(corral_live_count(s), c->from_a_step ? live + 1 : live, "%s: the refused one goes on", c->what);
        cr_assert(corral_verify(s), "%s: %s", c->what, corral_last_error_detail(s));
        corral_sched_destroy(s);

        const corral_part *const with[] = {c->part, NULL};
        d = pt_desc(&cap, with);
        s = corral_sched_create_min(&d);
        cr_assert_not_null(s, "%s", c->what);
        g_bystander = start_tracer(s, 1, 0);
        corral_tick(s, 0.1f);
        cap.last = CORRAL_ERR_OK;
        cr_assert(c->attempt(s), "%s with corral_part_%s: %s", c->what, c->part_name, corral_error_str(g_err));
        cr_assert_eq(cap.last, CORRAL_ERR_OK, "%s: %s", c->what, cap.message);
        corral_tick(s, 0.1f);
        cr_assert(corral_verify(s), "%s: %s", c->what, corral_last_error_detail(s));
        corral_sched_destroy(s);
    }
}

Test(parts, a_desc_asking_for_timing_is_refused_without_the_profile_part_and_made_with_it)
{
    log_capture cap = {0};
    corral_sched_desc d = pt_desc(&cap, NULL);
    d.timing = true;
    cr_assert_null(corral_sched_create_min(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NO_PART);
    cr_assert(strstr(corral_last_error_detail(NULL), "corral_part_profile"), "%s", corral_last_error_detail(NULL));
    cr_assert_eq(cap.last, CORRAL_ERR_NO_PART);
    static const corral_part *const profile[] = {&corral_part_profile, NULL};
    d.parts = profile;
    corral_sched *s = corral_sched_create_min(&d);
    cr_assert_not_null(s, "%s", corral_last_error_detail(NULL));
    corral_sched_destroy(s);
}

/* ---- 2. a save holding what each part owns */

typedef struct pt_game {
    corral_handle grouped, caller, racer, gen, waiter, alarm, stopper;
    corral_future fut;
    corral_channel ch;
} pt_game;

static pt_game pt_play(corral_sched *s)
{
    pt_game g;
    pw_ctx w = {.frames = 30, .value = 3};
    g.grouped = corral_start_ex(s, &pw_type, &w, sizeof w, &(corral_start_desc){.owner = 7, .tags = 2u});
    g.caller = pc_start(s, (pc_ctx){0});
    g.racer = pr_start(s, (pr_ctx){0});
    g.gen = pg_gen(s, (pg_ctx){0});
    g.fut = corral_future_create(s);
    g.waiter = pf_start(s, (pf_ctx){.fut = g.fut});
    g.ch = corral_channel_create(s, 4);
    g.alarm = pa_start(s, (pa_ctx){.until = 1000.0});
    g.stopper = ps_start(s, (ps_ctx){0});
    const int v = 17;
    cr_assert(corral_channel_try_send(s, g.ch, &v, sizeof v));
    int got = -1;
    cr_assert(pg_next(s, g.gen, &got));
    cr_assert_eq(got, 0);
    corral_tick(s, 0.1f);
    cr_assert(g.grouped.gen && g.caller.gen && g.racer.gen && g.gen.gen && g.waiter.gen && g.fut.gen && g.ch.gen &&
              g.alarm.gen && g.stopper.gen);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    return g;
}

Test(parts, a_save_is_refused_in_words_by_a_scheduler_without_a_part_it_holds_and_loads_with_every_part)
{
    log_capture cap = {0};
    corral_sched_desc d = pt_desc(&cap, NULL);
    corral_sched *a = corral_sched_create(&d);
    cr_assert_not_null(a);
    pt_play(a);
    static unsigned char buf[1 << 16];
    const size_t n = corral_save(a, buf, sizeof buf);
    cr_assert_gt(n, 0u, "%s", corral_last_error_detail(a));

    /* the part missing, and those that build on it (they would bring it) */
    static const struct {
        const char *words;
        const corral_part *without[4];
    } missing[] = {
        {"groups", {&corral_part_groups, &corral_part_stops, &corral_part_pulls, NULL}},
        {"calls", {&corral_part_calls, &corral_part_pulls, &corral_part_races, NULL}},
        {"races", {&corral_part_races, NULL}},
        {"pulls", {&corral_part_pulls, NULL}},
        {"futures", {&corral_part_futures, NULL}},
        {"channels", {&corral_part_channels, NULL}},
        {"alarms", {&corral_part_alarms, NULL}},
        {"stops", {&corral_part_stops, NULL}},
    };
    for (size_t m = 0; m < sizeof missing / sizeof missing[0]; m++) {
        const corral_part *parts[16];
        pt_parts_without(parts, missing[m].without);
        corral_sched_desc db = pt_desc(&cap, parts);
        corral_sched *b = corral_sched_create_min(&db);
        cr_assert_not_null(b, "without %s: %s", missing[m].words, corral_last_error_detail(NULL));
        corral_handle by = pw_start(b, (pw_ctx){.frames = 1000});
        corral_tick(b, 0.1f);
        const uint64_t before = corral_state_hash(b);
        cr_assert_not(corral_load(b, buf, n), "a scheduler without %s loads the save", missing[m].words);
        cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SAVE, "without %s: %s", missing[m].words,
                     corral_error_str(corral_last_error(b)));
        char want[64];
        snprintf(want, sizeof want, "corral_part_%s", missing[m].words);
        cr_assert(strstr(corral_last_error_detail(b), want), "without %s: '%s'", want, corral_last_error_detail(b));
        cr_assert_eq(corral_state_hash(b), before, "without %s: the refused load changed the state", missing[m].words);
        cr_assert(corral_alive(b, by));
        cr_assert_eq(corral_live_count(b), 1u);
        cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
        corral_tick(b, 0.1f);
        cr_assert_eq(pw_ctx_of(b, by)->frames, 1000 - 3, "without %s: the bystander waits on", missing[m].words);
        corral_sched_destroy(b);
    }

    corral_sched_desc db = pt_desc(&cap, pt_every_part);
    corral_sched *b = corral_sched_create_min(&db);
    cr_assert_not_null(b);
    cr_assert(corral_load(b, buf, n), "%s", corral_last_error_detail(b));
    cr_assert(corral_verify(b), "%s", corral_last_error_detail(b));
    cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "the loaded game is the saved one");
    for (int f = 0; f < 70; f++) {
        corral_tick(a, 0.1f);
        corral_tick(b, 0.1f);
        cr_assert_eq(corral_state_hash(b), corral_state_hash(a), "frame %d after the load", f);
    }
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

/* ---- 3. a snapshot between schedulers of other parts */

Test(parts, a_snapshot_of_one_set_of_parts_is_refused_by_a_scheduler_of_another_changing_nothing)
{
    static const corral_part *const futures[] = {&corral_part_futures, NULL};
    static const corral_part *const channels[] = {&corral_part_channels, NULL};
    static const corral_part *const none[] = {NULL};
    const corral_part *const *sets[] = {pt_every_part, futures, channels, none};
    const size_t nsets = sizeof sets / sizeof sets[0];
    static unsigned char snap[1 << 18];
    for (size_t from = 0; from < nsets; from++) {
        log_capture cap = {0};
        corral_sched_desc d = pt_desc(&cap, sets[from]);
        corral_sched *a = corral_sched_create_min(&d);
        cr_assert_not_null(a);
        pw_start(a, (pw_ctx){.frames = 1000});
        corral_tick(a, 0.1f);
        const size_t n = corral_snapshot(a, snap, sizeof snap);
        cr_assert_gt(n, 0u, "%s", corral_last_error_detail(a));
        for (size_t to = 0; to < nsets; to++) {
            corral_sched_desc db = pt_desc(&cap, sets[to]);
            corral_sched *b = corral_sched_create_min(&db);
            cr_assert_not_null(b);
            corral_handle by = pw_start(b, (pw_ctx){.frames = 500});
            pw_start(b, (pw_ctx){.frames = 600});
            corral_tick(b, 0.1f);
            const uint64_t before = corral_state_hash(b);
            if (to == from) {
                cr_assert(corral_restore(b, snap, n), "set %zu into itself: %s", from, corral_last_error_detail(b));
                cr_assert_eq(corral_state_hash(b), corral_state_hash(a));
            } else {
                cr_assert_not(corral_restore(b, snap, n), "set %zu restored into set %zu", from, to);
                cr_assert_eq(corral_last_error(b), CORRAL_ERR_BAD_SNAPSHOT, "set %zu into %zu: %s", from, to,
                             corral_error_str(corral_last_error(b)));
                /* the words name a part one scheduler has and the other lacks */
                cr_assert(strstr(corral_last_error_detail(b), "corral_part_"), "set %zu into %zu: '%s'", from, to,
                          corral_last_error_detail(b));
                cr_assert_eq(corral_state_hash(b), before, "set %zu into %zu changed the state", from, to);
                cr_assert_eq(corral_live_count(b), 2u);
                cr_assert(corral_alive(b, by));
                corral_tick(b, 0.1f);
                cr_assert_eq(pw_ctx_of(b, by)->frames, 500 - 3, "set %zu into %zu", from, to);
            }
            cr_assert(corral_verify(b), "set %zu into %zu: %s", from, to, corral_last_error_detail(b));
            corral_sched_destroy(b);
        }
        corral_sched_destroy(a);
    }
}

/* ---- 4. corral_sched_memory_size is enough for a caller's block */

Test(parts, memory_size_bytes_hold_the_scheduler_made_by_create_and_by_create_min)
{
    static const corral_part *const some[] = {&corral_part_futures, &corral_part_races, &corral_part_profile, NULL};
    corral_sched_desc descs[4];
    memset(descs, 0, sizeof descs);
    descs[1].max_channels = 8;
    descs[1].history_frames = 16;
    descs[1].trace_steps = 64;
    descs[1].timing = true;
    descs[2] = one_class_desc(128, 32);
    descs[2].parts = some;
    descs[3] = descs[1];
    descs[3].parts = some;
    for (int i = 0; i < 4; i++) {
        const size_t need = corral_sched_memory_size(&descs[i]);
        cr_assert_gt(need, 0u, "desc %d: %s", i, corral_last_error_detail(NULL));
        for (int min = 0; min < 2; min++) {
            if (min && !descs[i].parts && (descs[i].timing || descs[i].history_frames)) continue; /* refused: NO_PART */
            /* the block is exactly `need` bytes from malloc: ASan (CI) sees a
               write past it; at malloc's alignment, and one byte past it */
            for (size_t offset = 0; offset < 2; offset++) {
                unsigned char *block = malloc(need + offset);
                cr_assert_not_null(block);
                corral_sched_desc d = descs[i];
                d.memory = block + offset;
                d.memory_size = need;
                corral_sched *s = min ? corral_sched_create_min(&d) : corral_sched_create(&d);
                cr_assert_not_null(s, "desc %d, %s, offset %zu: %zu bytes: %s", i,
                                   min ? "corral_sched_create_min" : "corral_sched_create", offset, need,
                                   corral_last_error_detail(NULL));
                start_tracer(s, 1, 0);
                corral_tick(s, 0.1f);
                cr_assert(corral_verify(s), "desc %d: %s", i, corral_last_error_detail(s));
                corral_sched_destroy(s);
                free(block);
            }
        }
    }
}

/* a post from another thread: refused in the posting thread's record by a
   scheduler without corral_part_posts (nothing queued, nothing changed),
   applied at the next frame by one with it */
#define PP_FIELDS(F) F(corral_signal, sig) F(int, woken)
DECLARE_COROUTINE(pp, PP_FIELDS)
DEFINE_COROUTINE(pp)
{
    CORRAL_BEGIN(co);
    CORRAL_AWAIT(co, corral_wait_signal(ctx->sig));
    ctx->woken = 1;
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}
Test(parts, a_post_is_refused_without_the_posts_part_and_applied_with_it)
{
    for (int with = 0; with < 2; with++) {
        static const corral_part *const posts[] = {&corral_part_posts, NULL};
        log_capture cap = {0};
        corral_sched_desc d = pt_desc(&cap, with ? posts : NULL);
        corral_sched *s = corral_sched_create_min(&d);
        cr_assert_not_null(s);
        g_bystander = start_tracer(s, 1, 0);
        corral_tick(s, 0.1f);
        corral_signal sig = corral_signal_create(s);
        cr_assert(sig.gen != 0);
        corral_handle waiter = pp_start(s, (pp_ctx){.sig = sig});
        const uint64_t before = corral_state_hash(s);
        const bool posted = corral_signal_post(s, sig);
        if (!with) {
            cr_assert_not(posted, "a post without corral_part_posts");
            cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NO_PART, "%s", corral_error_str(corral_last_error(NULL)));
            cr_assert(strstr(corral_last_error_detail(NULL), "corral_part_posts"), "%s", corral_last_error_detail(NULL));
            cr_assert_eq(corral_state_hash(s), before, "a refused post changed the state");
            corral_tick(s, 0.1f);
            cr_assert_eq(pp_ctx_of(s, waiter)->woken, 0, "a refused post raised its signal");
        } else {
            cr_assert(posted, "%s", corral_last_error_detail(NULL));
            corral_tick(s, 0.1f);
            cr_assert_eq(pp_ctx_of(s, waiter)->woken, 1, "the post was applied at the next frame");
        }
        cr_assert(corral_alive(s, g_bystander));
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        corral_sched_destroy(s);
    }
}

/* a pool whose part a scheduler has not takes none of its block: the
   desc's sizes for futures, channels, semaphores, wait groups, posts and
   group nodes cost bytes only with corral_part_futures, _channels, _posts
   or _groups */
Test(parts, a_scheduler_without_a_pools_part_spends_no_block_on_that_pool)
{
    static const corral_part *const none[] = {NULL};
    static const corral_part *const futures[] = {&corral_part_futures, NULL};
    static const corral_part *const channels[] = {&corral_part_channels, NULL};
    static const corral_part *const posts[] = {&corral_part_posts, NULL};
    static const corral_part *const groups[] = {&corral_part_groups, NULL};
    corral_sched_desc small = {.parts = none}, big = {.parts = none};
    big.max_futures = 4096;
    big.max_channels = 4096;
    big.channel_bytes = 256;
    big.max_semaphores = 4096;
    big.max_waitgroups = 4096;
    big.max_posts = 4096;
    big.max_group_nodes = 4096;
    const size_t core_small = corral_sched_memory_size(&small), core_big = corral_sched_memory_size(&big);
    cr_assert_gt(core_small, 0u);
    cr_assert_eq(core_big, core_small, "no part for them, yet the pools' sizes cost %zu bytes", core_big - core_small);
    small.parts = big.parts = futures;
    cr_assert_gt(corral_sched_memory_size(&big), corral_sched_memory_size(&small) + 4096u * 16u, "futures' pool");
    cr_assert_gt(corral_sched_memory_size(&small), core_small, "the futures' default pool");
    small.parts = big.parts = channels;
    cr_assert_gt(corral_sched_memory_size(&big), corral_sched_memory_size(&small) + 4096u * 256u, "channels' rings");
    small.parts = big.parts = posts;
    cr_assert_gt(corral_sched_memory_size(&big), corral_sched_memory_size(&small) + 3000u * 16u, "the post queue");
    small.parts = big.parts = groups;
    cr_assert_gt(corral_sched_memory_size(&big), corral_sched_memory_size(&small) + 3000u * 16u, "the group nodes");
    /* corral_sched_memory_size_min plans as create_min: the parts named, none for NULL */
    small.parts = NULL;
    cr_assert_eq(corral_sched_memory_size_min(&small), core_small, "no parts named: the core's bytes");
    cr_assert_lt(core_small, corral_sched_memory_size(&small), "every part (desc.parts NULL) costs more");
    /* a scheduler of no part still starts and runs, and refuses a future in words */
    corral_sched *s = corral_sched_create_min(&(corral_sched_desc){.parts = none, .validation = CORRAL_VALIDATION_REPORT});
    cr_assert_not_null(s);
    corral_future f = corral_future_create(s);
    cr_assert(f.index == 0 && f.gen == 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NO_PART);
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
}

/* ---- 5. destroyed schedulers (debug builds) */
#if CORRAL_DEBUG && CORRAL__HAS_THREAD_LOCAL
Test(parts, the_last_16_schedulers_destroyed_on_this_thread_are_refused_without_being_read)
{
    /* their blocks are freed: ASan (CI) sees any read of them */
    corral_sched *s[16];
    for (int i = 0; i < 16; i++) {
        s[i] = small_sched(4);
        start_tracer(s[i], i, 0);
    }
    for (int i = 0; i < 16; i++) corral_sched_destroy(s[i]);
    for (int i = 0; i < 16; i++) {
        cr_assert_eq(corral_tick(s[i], 0.1f), 0u);
        cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED, "destroy %d", i);
        cr_assert_eq(start_tracer(s[i], 1, 0).gen, 0u);
        cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED, "destroy %d", i);
        cr_assert_eq(corral_live_count(s[i]), 0u);
        cr_assert_not(corral_verify(s[i]));
        corral_sched_destroy(s[i]);
        cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED, "destroy %d destroyed again", i);
    }
}

/* an allocator that hands out one block, again and again: each scheduler
   is made where the last one was freed */
static unsigned char g_one_block[1 << 20] __attribute__((aligned(64)));
static void *one_block_alloc(size_t n, void *user)
{
    (void)user;
    return n <= sizeof g_one_block ? g_one_block : NULL;
}
static void one_block_free(void *p, void *user) { (void)p, (void)user; }

Test(parts, a_scheduler_made_where_this_thread_destroyed_one_is_accepted)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.validation = CORRAL_VALIDATION_REPORT;
    d.allocator.alloc = one_block_alloc;
    d.allocator.free = one_block_free;
    cr_assert_leq(corral_sched_memory_size(&d), sizeof g_one_block);
    corral_sched *old = corral_sched_create(&d);
    cr_assert_not_null(old);
    corral_sched_destroy(old);
    cr_assert_eq(corral_tick(old, 0.1f), 0u);
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED, "the destroyed one is refused");
    for (int round = 0; round < 3; round++) {
        corral_sched *s = corral_sched_create(&d);
        cr_assert_eq(s, old, "the allocator gives the same block");
        corral_handle h = start_tracer(s, 1, 0);
        cr_assert(corral_alive(s, h), "round %d: %s", round, corral_error_str(corral_last_error(NULL)));
        cr_assert_eq(corral_tick(s, 0.1f), 1u, "round %d", round);
        cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_OK);
        corral_sched_destroy(s);
        cr_assert_eq(corral_tick(s, 0.1f), 0u, "round %d: refused again once destroyed", round);
        cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NOT_A_SCHED);
    }
}
#endif
