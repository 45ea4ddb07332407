/*
    fuzz_load.c -- libFuzzer target for corral_load: save files are
    untrusted input. Each input is taken as a save (its size and checksum
    fields fixed up first, so that mutations reach the checks behind
    them) and loaded into a scheduler of a small game's types, and into
    those of the hostile games that save (tests/hostile/: the savegame
    example, and the game that waits on every wait kind). A refused load
    must leave the scheduler as it was; an accepted one must pass
    corral_verify, run 30 frames and pass it again. ASan and UBSan catch
    the rest. Build and run: tools/fuzz.sh [seconds]; CORRAL_FUZZ_SEEDS=dir
    writes those games' own saves mid-game there and exits (tools/fuzz.sh
    seeds the run with them).

    Built with -DCORRAL_FUZZ_SEEDS it is a program instead, writing the
    seed saves of tests/fuzz_load_corpus/ (a game a few frames in, and the
    savegame example's own saves mid-game).
*/
#include <corral/corral.h>

#include "hostile/games.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fz_flag(void *user) { return ((uintptr_t)user & 7u) == 7u; }
#define FZ_PREDICATES(X) X(fz_flag, 1, CORRAL_PREDICATE_NUMBER)
CORRAL_DEFINE_PREDICATES(fz, FZ_PREDICATES);

#define FZ_WALK_FIELDS(F) F(int32_t, x) F(int32_t, step) F(float, nap) F(uint8_t, flags)
#define FZ_WALK_POINTS(P) P(moved) P(napped)
DECLARE_COROUTINE(fz_walk, FZ_WALK_FIELDS)
DEFINE_COROUTINE_AT(fz_walk, FZ_WALK_POINTS)
{
    CORRAL_BEGIN_AT(co, FZ_WALK_POINTS);
    for (;;) {
        ctx->x += ctx->step & 15;
        CORRAL_WAIT_FRAME_AT(co, moved);
        if ((ctx->x & 3) == 0) CORRAL_AWAIT_AT(co, napped, corral_wait_seconds(ctx->nap));
        if (ctx->x > 1000) break;
    }
    CORRAL_END(co);
}
#define FZ_CHILD_FIELDS(F) F(int32_t, n)
#define FZ_CHILD_POINTS(P) P(counted)
DECLARE_COROUTINE_R(fz_child, FZ_CHILD_FIELDS, int32_t)
DEFINE_COROUTINE_AT(fz_child, FZ_CHILD_POINTS)
{
    CORRAL_BEGIN_AT(co, FZ_CHILD_POINTS);
    while (ctx->result < ctx->n && ctx->result < 50) {
        ctx->result++;
        CORRAL_WAIT_FRAME_AT(co, counted);
    }
    CORRAL_END(co);
}
#define FZ_CALLER_FIELDS(F) F(int32_t, n) F(int32_t, got)
#define FZ_CALLER_POINTS(P) P(called)
DECLARE_COROUTINE(fz_caller, FZ_CALLER_FIELDS)
DEFINE_COROUTINE_AT(fz_caller, FZ_CALLER_POINTS)
{
    CORRAL_BEGIN_AT(co, FZ_CALLER_POINTS);
    CORRAL_CALL_AT(co, called, fz_child, (fz_child_ctx){.n = ctx->n}, &ctx->got);
    CORRAL_END(co);
}
#define FZ_WAITER_FIELDS(F) F(corral_signal, sig) F(corral_future, fut) F(corral_handle, join) F(uint32_t, flag)
#define FZ_WAITER_POINTS(P) P(signalled) P(completed) P(joined) P(flagged) P(either)
DECLARE_COROUTINE(fz_waiter, FZ_WAITER_FIELDS)
DEFINE_COROUTINE_AT(fz_waiter, FZ_WAITER_POINTS)
{
    CORRAL_BEGIN_AT(co, FZ_WAITER_POINTS);
    CORRAL_AWAIT_AT(co, signalled, corral_wait_signal(ctx->sig));
    CORRAL_AWAIT_AT(co, completed, corral_wait_future(ctx->fut));
    CORRAL_AWAIT_AT(co, joined, corral_wait_join(ctx->join));
    CORRAL_AWAIT_AT(co, flagged, corral_wait_until(fz_flag, (void *)(uintptr_t)ctx->flag));
    {
        corral_wait any[2] = {corral_wait_signal(ctx->sig), corral_wait_frames(3)};
        CORRAL_AWAIT_AT(co, either, corral_wait_any(any, 2));
    }
    CORRAL_END(co);
}
#define FZ_RACER_FIELDS(F) F(int32_t, n) F(int32_t, got) F(int32_t, got2)
#define FZ_RACER_POINTS(P) P(raced) P(synced)
DECLARE_COROUTINE(fz_racer, FZ_RACER_FIELDS)
DEFINE_COROUTINE_AT(fz_racer, FZ_RACER_POINTS)
{
    CORRAL_BEGIN_AT(co, FZ_RACER_POINTS);
    CORRAL_RACE_AT(co, raced, fz_child_arm(co, (fz_child_ctx){.n = ctx->n}, &ctx->got),
                   fz_child_arm(co, (fz_child_ctx){.n = ctx->n + 3}, &ctx->got));
    CORRAL_SYNC_AT(co, synced, fz_child_arm(co, (fz_child_ctx){.n = 2}, &ctx->got),
                   fz_child_arm(co, (fz_child_ctx){.n = ctx->n}, &ctx->got2));
    CORRAL_END(co);
}
#define FZ_TYPES(X) X(fz_walk, 1, 0) X(fz_child, 2, 0) X(fz_caller, 3, 0) X(fz_waiter, 4, 0) X(fz_racer, 5, 0)
CORRAL_DECLARE_REGISTRY(fz, FZ_TYPES)
CORRAL_DEFINE_REGISTRY(fz, FZ_TYPES);

/* FZ_LOG=1: say what was refused or broken */
static void fz_log(corral_log_level l, corral_error e, const char *m, const corral_sched *s, void *u)
{
    (void)l;
    (void)e;
    (void)s;
    if (u) fprintf(stderr, "corral: %s\n", m);
}

static corral_sched *fz_sched(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 64;
    d.max_wait_nodes = 128;
    d.max_signals = 8;
    d.max_futures = 8;
    d.registry = &fz_registry;
    d.predicates = &fz_predicates;
    d.domains = 3;
    d.validation = CORRAL_VALIDATION_REPORT;
    d.logger.fn = fz_log;
    d.logger.user_data = getenv("FZ_LOG");
    return corral_sched_create(&d);
}

/* a game a few frames in: every kind of wait, a call, a paused group,
   walkers in time domains (one scaled, one paused) */
static void fz_game(corral_sched *s, int variant)
{
    corral_signal sig = corral_signal_create(s);
    corral_future fut = corral_future_create(s);
    corral_handle w0 = {0, 0};
    for (int i = 0; i < 6 + variant; i++) {
        corral_start_desc o = {.phase = CORRAL_PHASE_UPDATE, .owner = (uint64_t)(i % 2 ? 5 : 0),
                               .tags = (uint32_t)(i % 3 == 0), .domain = (uint32_t)(i % 3)};
        corral_handle h = corral_start_ex(s, &fz_walk_type, &(fz_walk_ctx){0, i + 1, 0.05f * (float)i, 0},
                                          sizeof(fz_walk_ctx), &o);
        if (i == 0) w0 = h;
    }
    fz_caller_start(s, (fz_caller_ctx){4 + variant, 0});
    fz_racer_start(s, (fz_racer_ctx){3 + variant, 0, 0});
    for (int i = 0; i < 3; i++) fz_waiter_start(s, (fz_waiter_ctx){sig, fut, w0, (uint32_t)(7 - i)});
    corral_channel ch = corral_channel_create(s, sizeof(int32_t));
    int32_t v = 7;
    corral_channel_try_send(s, ch, &v, sizeof v);
    corral_waitgroup_add(s, corral_waitgroup_create(s), 2);
    corral_semaphore_create(s, 3);
    corral_domain_set_scale(s, 1, 0.5f);
    if (variant) corral_domain_pause(s, 2);
    for (int f = 0; f < 3 + variant; f++) {
        if (f == 1 && variant) corral_signal_raise(s, sig);
        corral_tick(s, 1.0f / 60.0f);
    }
    corral_pause_owner(s, 5);
}

#ifdef CORRAL_FUZZ_SEEDS
int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/fuzz_load_corpus";
    static uint8_t buf[1 << 16];
    for (int v = 0; v < 3; v++) {
        corral_sched *s = fz_sched();
        fz_game(s, v);
        size_t n = corral_save(s, buf, sizeof buf);
        if (!n) return 1;
        char path[512];
        snprintf(path, sizeof path, "%s/game%d-domains.sav", dir, v); /* game%d.sav: version 1 seeds,
                                                                        game%d-domains-v2.sav version 2, kept */
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(buf, 1, n, f) != n) return 1;
        fclose(f);
        corral_sched_destroy(s);
    }
    if (!freopen("/dev/null", "w", stdout) || !hostile_play(&hostile_savegame)) return 1; /* the game prints */
    if (!hostile_write_takes(&hostile_savegame, false, dir)) return 1;
    hostile_release(&hostile_savegame);
    return 0;
}
#else
/* the hostile games that save: each plays once, its own state kept to come back to */
static hostile_game *const g_games[] = {&hostile_savegame, &hostile_allwaits};
enum { FZ_GAMES = sizeof g_games / sizeof g_games[0] };
static unsigned char g_base[FZ_GAMES][HG_BYTES];
static size_t g_base_n[FZ_GAMES];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout)) abort(); /* the games print */
    const char *dir = getenv("CORRAL_FUZZ_SEEDS");
    if (!hostile_keep(g_games, FZ_GAMES, false, g_base, g_base_n, dir)) abort();
    if (dir) exit(0);
    return 0;
}
/* one load: refused with nothing changed, or a state that verifies and runs */
static void fz_load(corral_sched *s, const uint8_t *buf, size_t size)
{
    uint64_t before = corral_state_hash(s);
    if (!corral_load(s, buf, size)) {
        if (corral_state_hash(s) != before || !corral_verify(s)) {
            fprintf(stderr, "corral fuzz: a refused load changed the scheduler\n");
            abort();
        }
        return;
    }
    if (!corral_verify(s)) {
        fprintf(stderr, "corral fuzz: an accepted load broke an invariant\n");
        abort();
    }
    for (int f = 0; f < 30; f++) corral_tick(s, 1.0f / 60.0f);
    if (!corral_verify(s)) {
        fprintf(stderr, "corral fuzz: a loaded game broke an invariant while it ran\n");
        abort();
    }
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t buf[1 << 16];
    static corral_sched *s;
    if (size > sizeof buf) return 0;
    if (!s) s = fz_sched();
    memcpy(buf, data, size);
    hostile_reseal_save(buf, size); /* size and checksum as corral_save writes them */
    fz_load(s, buf, size);
    for (size_t i = 0; i < FZ_GAMES; i++) {
        fz_load(g_games[i]->sched, buf, size);
        if (!corral_load(g_games[i]->sched, g_base[i], g_base_n[i])) abort(); /* back to its own */
    }
    return 0;
}
#endif
