/*
    peer_naive.cpp -- the engine the seeds build: a virtual base, a template
    holding a typed context and a function pointer, one heap allocation per
    start, a std::vector of owning pointers, erase on stop.
*/
#include "bench.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace {

enum class CoroutineResult : uint8_t { Yield = 0, Stop = 1 };

struct CoroutineBase {
    virtual CoroutineResult Evaluate() = 0;
    virtual ~CoroutineBase() = default;
};

template <typename Ctx>
using CoroutineFunction = CoroutineResult (*)(Ctx &);

template <typename Ctx>
struct Coroutine : CoroutineBase {
    CoroutineFunction<Ctx> function;
    Ctx context;
    Coroutine(CoroutineFunction<Ctx> f, Ctx c) : function(f), context(c) {}
    CoroutineResult Evaluate() override { return function(context); }
};

struct Engine {
    std::vector<std::unique_ptr<CoroutineBase>> coroutines;
    template <typename Ctx>
    Coroutine<Ctx> *Start(CoroutineFunction<Ctx> f, Ctx c)
    {
        auto co = std::make_unique<Coroutine<Ctx>>(f, c);
        Coroutine<Ctx> *raw = co.get();
        coroutines.emplace_back(std::move(co));
        return raw;
    }
    void Process()
    {
        for (size_t i = 0; i < coroutines.size();) {
            if (coroutines[i]->Evaluate() == CoroutineResult::Stop)
                coroutines.erase(coroutines.begin() + static_cast<std::ptrdiff_t>(i));
            else
                i++;
        }
    }
};

struct Counter {
    uint64_t n;
};

template <unsigned K>
CoroutineResult count_step(Counter &c)
{
    c.n += K + 1;
    return CoroutineResult::Yield;
}

using StartFn = Coroutine<Counter> *(*)(Engine &);
template <unsigned K>
Coroutine<Counter> *start_k(Engine &e)
{
    return e.Start<Counter>(count_step<K>, Counter{0});
}
const StartFn starters[BENCH_TYPES] = {start_k<0>, start_k<1>, start_k<2>, start_k<3>,
                                       start_k<4>, start_k<5>, start_k<6>, start_k<7>};

int naive_loop(size_t n, int ticks, bool mixed, bench_out *out)
{
    Engine e;
    e.coroutines.reserve(n);
    std::vector<Coroutine<Counter> *> view(n);
    uint64_t expected = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = mixed ? bench_type_of(i) : 0;
        view[i] = starters[k](e);
        expected += uint64_t(k + 1) * uint64_t(ticks);
    }
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int t = 0; t < ticks; t++) e.Process();
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = uint64_t(n) * uint64_t(ticks);
    for (auto *c : view) out->checksum += c->context.n;
    out->expected = expected;
    return 0;
}

int naive_step(size_t n, int ticks, bench_out *out) { return naive_loop(n, ticks, false, out); }
int naive_mixed(size_t n, int ticks, bench_out *out) { return naive_loop(n, ticks, true, out); }

uint64_t g_spawn_sum;
CoroutineResult spawn_step(Counter &c)
{
    g_spawn_sum += ++c.n;
    return CoroutineResult::Stop;
}

int naive_spawn(size_t count, bench_out *out)
{
    Engine e;
    e.coroutines.reserve(64);
    g_spawn_sum = 0;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (size_t i = 0; i < count; i++) {
        e.Start<Counter>(spawn_step, Counter{i});
        e.Process(); /* first step; it stops and is erased */
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = count;
    out->checksum = g_spawn_sum;
    out->expected = uint64_t(count) * (count + 1) / 2;
    return 0;
}

template <size_t B>
struct Blob {
    uint64_t w[B / 8];
};
template <size_t B>
CoroutineResult blob_step(Blob<B> &b)
{
    b.w[0]++;
    return CoroutineResult::Yield;
}
template <size_t B>
double naive_bytes(size_t n)
{
    Engine e;
    size_t h0 = bench_heap_bytes();
    e.coroutines.reserve(n);
    for (size_t i = 0; i < n; i++) e.Start<Blob<B>>(blob_step<B>, Blob<B>{});
    return double(bench_heap_bytes() - h0) / double(n);
}

int naive_memory(size_t n, int ctx_bytes, bench_out *out)
{
    out->bytes_per_co = ctx_bytes == 16 ? naive_bytes<16>(n) : ctx_bytes == 32 ? naive_bytes<32>(n)
                                                                                : naive_bytes<256>(n);
    out->checksum = out->expected = out->ops = 1;
    return 0;
}

/* the seeds' way to wait: a countdown the step checks every frame */
struct Sleeper {
    float remaining;
    uint64_t *sink;
};
float g_dt;
CoroutineResult sleep_step(Sleeper &c)
{
    c.remaining -= g_dt;
    if (c.remaining > 0) return CoroutineResult::Yield;
    (*c.sink)++;
    return CoroutineResult::Stop;
}

int naive_sleepers(size_t n, size_t due, int ticks, bench_out *out)
{
    Engine e;
    e.coroutines.reserve(n);
    uint64_t woke = 0;
    g_dt = 0.01f;
    for (size_t i = 0; i < n; i++) {
        size_t k = due ? i / due : size_t(ticks);
        float t = k < size_t(ticks) ? g_dt * float(k + 1) - g_dt * 0.5f : 1.0e6f + float(i);
        e.Start<Sleeper>(sleep_step, Sleeper{t, &woke});
    }
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int k = 0; k < ticks; k++) e.Process();
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = uint64_t(ticks);
    out->checksum = woke;
    out->expected = uint64_t(due) * uint64_t(ticks);
    return 0;
}

} // namespace

extern "C" const bench_peer bench_peer_naive = {
    "naive engine (seeds)", nullptr, naive_step, naive_mixed, naive_spawn, naive_memory, 0, nullptr,
    naive_sleepers, nullptr, nullptr, nullptr,
};
