/*
    test_cpp.cpp -- a C++17 translation unit that includes the public header,
    declares, defines and starts coroutines, under strict warnings.
    Plain asserts: it exits non-zero on the first broken expectation.
*/
#include <corral/corral.h>

#include "cpp_check.h"

#include <cstdio>
#include <cstdlib>

namespace {
int g_steps = 0;
int g_cleaned = 0;
}

struct pos {
    float x, y;
};

#define WALKER_FIELDS(F) \
    F(int, id)           \
    F(pos, at)           \
    F(float, speed)      \
    F(int, i)
DECLARE_COROUTINE(walker, WALKER_FIELDS)

static void walker_done(walker_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    if (why == CORRAL_END_FINISHED) g_cleaned++;
}

DEFINE_COROUTINE_CLEANUP(walker, walker_done)
{
    /* locals with initializers go before CORRAL_BEGIN (C++ forbids jumping
       over them); members of all/any only need to live during the await */
    const corral_wait both[2] = {corral_wait_frames(1), corral_wait_realtime(0.5f)};
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 3; ctx->i++) {
        ctx->at.x += ctx->speed * corral_dt(co);
        g_steps++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_WAIT_SECONDS(co, 1.0f);
    CORRAL_WAIT_ALL(co, both, 2);
    CORRAL_END(co);
}

/* race and sync from C++: arms with typed contexts and results */
#define DOUBLER_FIELDS(F) \
    F(int, n)             \
    F(int, frames)
DECLARE_COROUTINE_R(doubler, DOUBLER_FIELDS, int)
DEFINE_COROUTINE(doubler)
{
    CORRAL_BEGIN(co);
    while (ctx->frames-- > 0) CORRAL_WAIT_FRAME(co);
    ctx->result = 2 * ctx->n;
    CORRAL_END(co);
}

#define BOSS_FIELDS(F) \
    F(int, a)          \
    F(int, b)          \
    F(int, winner)     \
    F(int, won)
DECLARE_COROUTINE(boss, BOSS_FIELDS)
DEFINE_COROUTINE(boss)
{
    CORRAL_BEGIN(co);
    CORRAL_SYNC(co, doubler_arm(co, doubler_ctx{1, 0, 0}, &ctx->a), doubler_arm(co, doubler_ctx{2, 1, 0}, &ctx->b));
    CORRAL_RACE(co, doubler_arm(co, doubler_ctx{5, 3, 0}, &ctx->won), doubler_arm(co, doubler_ctx{7, 1, 0}, &ctx->won));
    ctx->winner = corral_race_winner(co);
    for (;;) CORRAL_WAIT_FRAME(co); /* stays: main reads its context */
    CORRAL_END(co);
}

/* races two doublers it did not start, by handle */
struct pair_of {
    corral_handle h[2];
};
#define JUDGE_FIELDS(F) F(pair_of, hs) F(int, winner)
DECLARE_COROUTINE(judge, JUDGE_FIELDS)
DEFINE_COROUTINE(judge)
{
    CORRAL_BEGIN(co);
    CORRAL_RACE_OF(co, ctx->hs.h, 2);
    ctx->winner = corral_wait_fired(co);
    for (;;) CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

struct hit {
    int who;
    float damage;
};
CORRAL_DECLARE_CHANNEL(hits, hit)

#define CPP_COROUTINES(X) X(walker, 1, 8)
CORRAL_DECLARE_REGISTRY(cpp, CPP_COROUTINES)
CORRAL_DEFINE_REGISTRY(cpp, CPP_COROUTINES);

int main()
{
    corral_sched_desc d{};
    d.registry = &cpp_registry;
    corral_sched *s = corral_sched_create(&d);
    CHECK(s != nullptr);
    walker_ctx c{};
    c.id = 1;
    c.speed = 2.0f;
    corral_handle h = walker_start(s, c);
    CHECK(corral_alive(s, h));
    CHECK(g_steps == 1);
    for (int i = 0; i < 8; i++) corral_tick(s, 0.5f);
    CHECK(!corral_alive(s, h));
    CHECK(g_steps == 3);
    CHECK(g_cleaned == 1);
    uint32_t n = 0;
    const corral_field *f = walker_type.fields(&n);
    CHECK(n == 4);
    CHECK(f[0].kind == CORRAL_FIELD_INT);
    CHECK(f[2].kind == CORRAL_FIELD_FLOAT);
    CHECK(f[1].kind == CORRAL_FIELD_OTHER);
    corral_type_stats t;
    CHECK(corral_stats_type_of(s, &walker_type, &t));
    CHECK(t.id == 1 && t.budget == 8 && t.finished == 1);
    corral_sched_destroy(s);

    corral_sched_desc d2{};
    d2.domains = 2;
    s = corral_sched_create(&d2);
    CHECK(s != nullptr);
    corral_start_desc o{};
    o.domain = 1;
    CHECK(corral_domain_set_scale(s, 1, 0.5f));
    corral_handle b = boss_start_ex(s, boss_ctx{}, &o);
    boss_ctx *bc = boss_ctx_of(s, b);
    corral_tick(s, 0.1f);
    CHECK(bc->a == 2 && bc->b == 4);
    corral_co_info in{};
    CHECK(corral_co_info_of(s, b, &in));
    CHECK(in.call == CORRAL_CALL_RACE && in.arms == 2 && in.domain == 1 && in.line > 0);
    std::FILE *sink = std::tmpfile();
    CHECK(sink != nullptr && corral_print_chain(s, b, sink));
    std::fclose(sink);
    corral_tick(s, 0.1f);
    CHECK(bc->winner == 1 && bc->won == 14);
    pair_of p{};
    p.h[0] = doubler_start(s, doubler_ctx{5, 3, 0});
    p.h[1] = doubler_start(s, doubler_ctx{7, 1, 0});
    judge_ctx jc{};
    jc.hs = p;
    jc.winner = -2;
    corral_handle j = judge_start(s, jc);
    for (int i = 0; i < 4; i++) corral_tick(s, 0.1f);
    CHECK(judge_ctx_of(s, j)->winner == 1 && !corral_alive(s, p.h[0]));
    hits_channel hc = hits_channel_create(s);
    hit h1{1, 2.0f}, h2{};
    CHECK(hits_try_send(s, hc, &h1) && hits_try_receive(s, hc, &h2) && h2.who == 1);
    corral_sched_destroy(s);
    std::puts("c++17: ok");
    return 0;
}
