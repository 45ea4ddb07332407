/*
    test_cpp.cpp -- a C++17 translation unit that includes the public header,
    declares, defines and starts coroutines, under strict warnings.
    Plain asserts: it exits non-zero on the first broken expectation.
*/
#include <corral/corral.h>

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

#define CPP_COROUTINES(X) X(walker, 1, 8)
CORRAL_DECLARE_REGISTRY(cpp, CPP_COROUTINES)
CORRAL_DEFINE_REGISTRY(cpp, CPP_COROUTINES);

#define CHECK(c)                                                           \
    do {                                                                   \
        if (!(c)) {                                                        \
            std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #c); \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

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
    std::puts("c++17: ok");
    return 0;
}
