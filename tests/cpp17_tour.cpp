/*
    cpp17_tour.cpp -- docs/API.md's C++ section, compiled: the README's
    tour, a start with options, a race and a save. Built as C++17 under
    -Wall -Wextra -Wpedantic -Werror it uses the C++17 spelling of a
    context; built as C++20, the designated-initialiser one. Every line of
    that section's code blocks is a line of this file (tests/doc_cpp.cmake).
    Plain checks: it exits non-zero on the first broken expectation.
*/
#include <corral/corral.h>

#include "cpp_check.h"

#include <cstdio>
#include <vector>

#if __cplusplus >= 202002L
#define TOUR_CPP20 1
#else
#define TOUR_CPP20 0
#endif

namespace {
int g_enemies = 0;
int g_bosses = 0;
void spawn_enemy(int i) { g_enemies += i < 0 ? 0 : 1; }
void spawn_boss() { g_bosses++; }
}

/* ---- the README's tour */
#define SPAWNER_FIELDS(F) F(int, i) F(int, count)
DECLARE_COROUTINE(spawner, SPAWNER_FIELDS)
DEFINE_COROUTINE(spawner)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < ctx->count; ctx->i++) {
        spawn_enemy(ctx->i);
        CORRAL_WAIT_SECONDS(co, 1.0f);
    }
    spawn_boss();
    CORRAL_END(co);
}

/* ---- a race: an arm with a result and one without */
#define VOLLEY_FIELDS(F) F(int, shots)
DECLARE_COROUTINE_R(volley, VOLLEY_FIELDS, int)
DEFINE_COROUTINE(volley)
{
    CORRAL_BEGIN(co);
    while (ctx->result < ctx->shots) {
        ctx->result++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

#define TIMEOUT_FIELDS(F) F(float, secs)
DECLARE_COROUTINE(timeout, TIMEOUT_FIELDS)
DEFINE_COROUTINE(timeout)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, ctx->secs);
    CORRAL_END(co);
}

#define BOSS_ROUND_FIELDS(F) F(int, shots) F(int, shots_wanted) F(float, patience) F(int, winner)
DECLARE_COROUTINE(boss_round, BOSS_ROUND_FIELDS)
DEFINE_COROUTINE(boss_round)
{
    CORRAL_BEGIN(co);
#if TOUR_CPP20
    CORRAL_RACE(co, volley_arm(co, {.shots = ctx->shots_wanted}, &ctx->shots),
                    timeout_arm(co, {.secs = ctx->patience}));
#else
    CORRAL_RACE(co, volley_arm(co, volley_ctx{ctx->shots_wanted, 0}, &ctx->shots), // shots, result
                    timeout_arm(co, timeout_ctx{ctx->patience}));
#endif
    ctx->winner = corral_race_winner(co);
    for (;;) CORRAL_WAIT_FRAME(co); /* stays: main reads its context */
    CORRAL_END(co);
}

/* ---- a save: a registered type with named points */
#define GUARD_FIELDS(F) F(int32_t, id) F(int32_t, pos)
#define GUARD_POINTS(P) P(stepped)
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE_AT(guard, GUARD_POINTS)
{
    CORRAL_BEGIN_AT(co, GUARD_POINTS);
    for (;;) {
        ctx->pos += ctx->id;
        CORRAL_WAIT_FRAME_AT(co, stepped);
    }
    CORRAL_END(co);
}

#define TOUR_COROUTINES(X) X(guard, 1, 4)
CORRAL_DECLARE_REGISTRY(tour, TOUR_COROUTINES)
CORRAL_DEFINE_REGISTRY(tour, TOUR_COROUTINES);

static void tour()
{
    corral_sched_desc d{}; // zero means default, as in C
    corral_sched *s = corral_sched_create(&d);
    CHECK(s != nullptr);
#if TOUR_CPP20
    corral_handle h = spawner_start(s, {.count = 5});
#else
    spawner_ctx c{}; // every field zero
    c.count = 5;
    corral_handle h = spawner_start(s, c);
#endif
    CHECK(corral_alive(s, h) && g_enemies == 1);
    for (int frame = 0; frame < 10; frame++) corral_tick(s, 0.5f);
    CHECK(!corral_alive(s, h) && g_enemies == 5 && g_bosses == 1);
    corral_sched_destroy(s);
}

static void start_with_options()
{
    corral_sched_desc d{};
    d.domains = 2;
    corral_sched *s = corral_sched_create(&d);
    CHECK(s != nullptr);
    corral_start_desc opts{};
    opts.domain = 1;
    corral_handle later = spawner_start_ex(s, {0, 2}, &opts); // every member, in order: i, count
    corral_co_info in{};
    CHECK(corral_co_info_of(s, later, &in) && in.domain == 1);
    corral_sched_destroy(s);
}

static void race()
{
    corral_sched_desc d{};
    corral_sched *s = corral_sched_create(&d);
    CHECK(s != nullptr);
    /* frames of 0.1 s: six shots take six, two take two; patience runs out in the fifth */
#if TOUR_CPP20
    corral_handle slow = boss_round_start(s, {.shots_wanted = 6, .patience = 0.45f});
    corral_handle fast = boss_round_start(s, {.shots_wanted = 2, .patience = 0.45f});
#else
    corral_handle slow = boss_round_start(s, boss_round_ctx{0, 6, 0.45f, 0});
    corral_handle fast = boss_round_start(s, boss_round_ctx{0, 2, 0.45f, 0});
#endif
    for (int frame = 0; frame < 8; frame++) corral_tick(s, 0.1f);
    const boss_round_ctx *a = boss_round_ctx_of(s, slow);
    const boss_round_ctx *b = boss_round_ctx_of(s, fast);
    CHECK(a != nullptr && a->winner == 1 && a->shots == 0); /* the timeout won: no result copied */
    CHECK(b != nullptr && b->winner == 0 && b->shots == 2);
    corral_sched_destroy(s);
}

static void save()
{
    corral_sched_desc d{};
    d.registry = &tour_registry;
    corral_sched *s = corral_sched_create(&d);
    CHECK(s != nullptr);
#if TOUR_CPP20
    corral_handle guard = guard_start(s, {.id = 3});
#else
    guard_ctx g{};
    g.id = 3;
    corral_handle guard = guard_start(s, g);
#endif
    for (int frame = 0; frame < 4; frame++) corral_tick(s, 0.1f);
    std::vector<unsigned char> file(corral_save(s, nullptr, 0)); // the size it needs
    size_t wrote = corral_save(s, file.data(), file.size());
    CHECK(!file.empty() && wrote == file.size());

    corral_sched *next = corral_sched_create(&d); // another process, another day
    CHECK(next != nullptr);
    bool loaded = corral_load(next, file.data(), file.size());
    CHECK(loaded);
    CHECK(guard_ctx_of(next, guard) != nullptr && guard_ctx_of(next, guard)->pos == 15);
    corral_tick(s, 0.1f);
    corral_tick(next, 0.1f);
    CHECK(guard_ctx_of(next, guard)->pos == guard_ctx_of(s, guard)->pos);
    corral_sched_destroy(next);
    corral_sched_destroy(s);
}

int main()
{
    tour();
    start_with_options();
    race();
    save();
    std::printf("c++%ld tour: ok\n", __cplusplus / 100 % 100);
    return 0;
}
