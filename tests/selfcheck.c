/*
    selfcheck.c -- what must hold on every target, in one program that needs
    nothing but a C compiler (tools/platforms.sh builds it with each
    target's plain compiler and runs it there):

      the resume contract's table (tests/contract.h, every cell);
      handle generations (stale handles refused, a slot retired at the last
      generation); a full pool refuses a start and harms no other;
      no allocator call after create; a 10^5-deep call chain; a snapshot
      of the block adopted at another address runs on; and 10^5 or more
      operations of the model-based random test (tests/model.h).

    Prints one line per check and exits non-zero if any fails.
    `selfcheck OPS` runs OPS model operations (default 100000).
*/
#include "contract.h"
#include "model.h"

#include <stdlib.h>

/* the test hook corral__debug_set_gen (not part of the API) */
bool corral__debug_set_gen(corral_sched *s, uint32_t index, uint32_t gen);

static int g_failures;
#define CHECK(cond, ...)                                      \
    do {                                                      \
        if (!(cond)) {                                        \
            printf("  FAIL %s:%d: ", __FILE__, __LINE__);     \
            printf(__VA_ARGS__);                              \
            printf("\n");                                     \
            g_failures++;                                     \
            return;                                           \
        }                                                     \
    } while (0)

/* ---- a counting allocator */
static unsigned g_allocs, g_frees;
static void *count_alloc(size_t n, void *u)
{
    (void)u;
    g_allocs++;
    return malloc(n);
}
static void count_free(void *p, void *u)
{
    (void)u;
    g_frees++;
    free(p);
}

/* ---- coroutines */
#define SC_TICKER_FIELDS(F) F(int, n)
DECLARE_COROUTINE(sc_ticker, SC_TICKER_FIELDS)
DEFINE_COROUTINE(sc_ticker)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->n++;
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_END(co);
}

#define SC_SLEEPER_FIELDS(F) F(int, woke) F(float, t)
DECLARE_COROUTINE(sc_sleeper, SC_SLEEPER_FIELDS)
DEFINE_COROUTINE(sc_sleeper)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_WAIT_SECONDS(co, ctx->t);
        ctx->woke++;
    }
    CORRAL_END(co);
}

#define SC_DEEP_FIELDS(F) F(int, depth)
DECLARE_COROUTINE_R(sc_deep, SC_DEEP_FIELDS, int)
DEFINE_COROUTINE(sc_deep)
{
    CORRAL_BEGIN(co);
    if (ctx->depth > 0) {
        CORRAL_CALL(co, sc_deep, (sc_deep_ctx){.depth = ctx->depth - 1}, &ctx->result);
        ctx->result += 1;
    } else {
        CORRAL_WAIT_FRAME(co); /* the innermost waits a frame: the whole chain is live at once */
        ctx->result = 0;
    }
    CORRAL_END(co);
}

#define SC_ROOT_FIELDS(F) F(int, depth) F(int, got)
DECLARE_COROUTINE(sc_root, SC_ROOT_FIELDS)
DEFINE_COROUTINE(sc_root)
{
    CORRAL_BEGIN(co);
    ctx->got = -1;
    CORRAL_CALL(co, sc_deep, (sc_deep_ctx){.depth = ctx->depth}, &ctx->got);
    CORRAL_END(co);
}

static corral_sched *one_class(uint32_t slot, uint32_t cap)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = slot;
    d.classes[0].capacity = cap;
    d.validation = CORRAL_VALIDATION_REPORT;
    return corral_sched_create(&d);
}

/* ---- the checks */
static void check_contract(void)
{
    int cells = 0;
    int failures = cx_run_all(stdout, &cells);
    CHECK(failures == 0 && cells > 400, "%d of %d cells of the resume table failed", failures, cells);
    printf("  resume contract: %d cells\n", cells);
}

static void check_handles(void)
{
    corral_sched *s = one_class(corral_slot_size_for(&sc_ticker_type), 1);
    CHECK(s, "create");
    corral_handle a = sc_ticker_start(s, (sc_ticker_ctx){0});
    CHECK(corral_alive(s, a), "a live handle");
    CHECK(corral_stop(s, a), "stop");
    corral_handle b = sc_ticker_start(s, (sc_ticker_ctx){0});
    CHECK(a.index == b.index && a.gen != b.gen, "the slot is reused under a new generation");
    CHECK(!corral_alive(s, a) && !corral_stop(s, a), "the old handle is stale");
    CHECK(corral_last_error(s) == CORRAL_ERR_STALE_HANDLE, "the error says stale");
    /* the last generation: the slot retires, never to alias an old handle */
    CHECK(corral_stop(s, b), "stop b");
    CHECK(corral__debug_set_gen(s, b.index, UINT32_MAX), "set the generation");
    corral_handle c = sc_ticker_start(s, (sc_ticker_ctx){0});
    CHECK(c.gen == UINT32_MAX, "the slot runs its last generation");
    CHECK(corral_stop(s, c), "stop c");
    corral_handle d = sc_ticker_start(s, (sc_ticker_ctx){0});
    CHECK(d.index == 0 && d.gen == 0 && corral_last_error(s) == CORRAL_ERR_POOL_EXHAUSTED,
          "a retired slot is never reused");
    corral_sched_destroy(s);
    printf("  handle generations\n");
}

static void check_pool_full(void)
{
    corral_sched *s = one_class(corral_slot_size_for(&sc_ticker_type), 8);
    CHECK(s, "create");
    corral_handle h[8];
    for (int i = 0; i < 8; i++) h[i] = sc_ticker_start(s, (sc_ticker_ctx){0});
    corral_handle x = sc_ticker_start(s, (sc_ticker_ctx){0});
    CHECK(x.gen == 0 && corral_last_error(s) == CORRAL_ERR_POOL_EXHAUSTED, "the ninth start is refused");
    corral_tick(s, 0.5f);
    for (int i = 0; i < 8; i++)
        CHECK(corral_alive(s, h[i]) && ((sc_ticker_ctx *)corral_context(s, h[i], &sc_ticker_type))->n == 2,
              "coroutine %d ran on", i);
    CHECK(corral_verify(s), "the arena is whole");
    corral_sched_destroy(s);
    printf("  a full pool refuses, and harms no other\n");
}

static void check_no_allocation(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.allocator.alloc = count_alloc;
    d.allocator.free = count_free;
    d.default_capacity = 512;
    g_allocs = g_frees = 0;
    corral_sched *s = corral_sched_create(&d);
    CHECK(s && g_allocs == 1, "create makes one allocation");
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 100; i++) {
            sc_ticker_start(s, (sc_ticker_ctx){0});
            sc_sleeper_start(s, (sc_sleeper_ctx){.t = 0.1f * (float)(i % 7)});
        }
        for (int f = 0; f < 5; f++) corral_tick(s, 1.0f / 60.0f);
        corral_signal sig = corral_signal_create(s);
        corral_signal_destroy(s, sig);
        corral_stop_tags(s, 0xFFFFFFFFu);
        uint32_t cursor = 0;
        corral_co_info info;
        while (corral_next_co(s, &cursor, &info)) corral_stop(s, info.handle);
    }
    CHECK(g_allocs == 1 && g_frees == 0, "no allocator call after create (%u allocations)", g_allocs);
    corral_sched_destroy(s);
    CHECK(g_frees == 1, "destroy frees the block");
    printf("  no allocation after create\n");
}

static void check_deep_chain(void)
{
    const int depth = 100000;
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = (uint32_t)depth + 8;
    d.max_wait_nodes = 64; /* a chain waits on its children, not on nodes: fits wasm32's 16 MiB */
    d.max_group_nodes = 16;
    d.max_side_records = (uint32_t)depth + 8; /* caller and child links: one record a link of the chain */
    corral_sched *s = corral_sched_create(&d);
    CHECK(s, "create");
    corral_handle h = sc_root_start(s, (sc_root_ctx){.depth = depth});
    CHECK(corral_live_count(s) == (uint32_t)depth + 2, "the whole chain is live (%u)", corral_live_count(s));
    sc_root_ctx *root = (sc_root_ctx *)corral_context(s, h, &sc_root_type);
    CHECK(root && root->got == -1, "the root waits");
    corral_tick(s, 1.0f / 60.0f);
    CHECK(corral_live_count(s) == 0, "the chain unwound in one frame");
    corral_sched_destroy(s);
    printf("  a %d-deep call chain\n", depth);
}

static void check_snapshot(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 64;
    size_t size = corral_sched_memory_size(&d);
    CHECK(size > 0, "memory size");
    /* blocks at 64-byte boundaries: a copy must keep the block's alignment */
    void *a_raw = malloc(size + 64), *b_raw = malloc(size + 192);
    CHECK(a_raw && b_raw, "two blocks");
    char *a = (char *)(((uintptr_t)a_raw + 63) & ~(uintptr_t)63);
    char *b = (char *)(((uintptr_t)b_raw + 63) & ~(uintptr_t)63) + 64;
    d.memory = a;
    d.memory_size = size;
    corral_sched *s = corral_sched_create(&d);
    CHECK(s, "create in the caller's block");
    corral_handle t = sc_ticker_start(s, (sc_ticker_ctx){0});
    corral_handle z = sc_sleeper_start(s, (sc_sleeper_ctx){.t = 1.0f});
    for (int f = 0; f < 10; f++) corral_tick(s, 0.25f);
    memcpy(b, a, size); /* the copy sits at another address */
    corral_sched *c = corral_sched_adopt(b, size);
    CHECK(c && c != s, "adopt the copy");
    for (int f = 0; f < 10; f++) {
        corral_tick(s, 0.25f);
        corral_tick(c, 0.25f);
    }
    const sc_ticker_ctx *ts = (const sc_ticker_ctx *)corral_context(s, t, &sc_ticker_type);
    const sc_ticker_ctx *tc = (const sc_ticker_ctx *)corral_context(c, t, &sc_ticker_type);
    const sc_sleeper_ctx *zs = (const sc_sleeper_ctx *)corral_context(s, z, &sc_sleeper_type);
    const sc_sleeper_ctx *zc = (const sc_sleeper_ctx *)corral_context(c, z, &sc_sleeper_type);
    CHECK(ts && tc && ts->n == 21 && tc->n == 21, "both tickers ran 21 steps (%d, %d)", ts ? ts->n : -1,
          tc ? tc->n : -1);
    CHECK(zs && zc && zs->woke == 5 && zc->woke == 5, "both sleepers woke 5 times (%d, %d)", zs ? zs->woke : -1,
          zc ? zc->woke : -1);
    CHECK(corral_verify(s) && corral_verify(c), "both arenas are whole");
    corral_sched_destroy(c);
    corral_sched_destroy(s);
    free(a_raw);
    free(b_raw);
    printf("  a snapshot adopted at another address\n");
}

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void check_model(uint64_t want_ops)
{
    static uint8_t buf[8001];
    uint64_t ops = 0, seeds = 0;
    char why[256];
    for (uint64_t seed = 1; ops < want_ops; seed++, seeds++) {
        uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
        size_t len = 8000 + (size_t)(seed & 1u);
        for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)(xorshift(&x) >> 24);
        long at = model_run(buf, len, why, sizeof why, &ops);
        CHECK(at == -1, "model: seed %llu failed at operation %ld: %s", (unsigned long long)seed, at, why);
    }
    printf("  model: %llu operations in %llu sequences\n", (unsigned long long)ops, (unsigned long long)seeds);
}

int main(int argc, char **argv)
{
    uint64_t ops = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000u;
    printf("selfcheck: %u-bit pointers\n", (unsigned)(sizeof(void *) * 8));
    check_contract();
    check_handles();
    check_pool_full();
    check_no_allocation();
    check_deep_chain();
    check_snapshot();
    check_model(ops);
    printf(g_failures ? "selfcheck: %d FAILED\n" : "selfcheck: all passed\n", g_failures);
    return g_failures ? 1 : 0;
}
