/*
    peer_cpp20.cpp -- C++20 coroutines (g++ -std=c++20): one heap frame per
    coroutine, resumed through its handle. The first step runs at start
    (initial_suspend never), as Unity does; the counter lives in the frame
    and is published through co_yield.
*/
#include "bench.h"

#include <array>
#include <coroutine>
#include <cstdint>
#include <exception>
#include <vector>

namespace {

struct task {
    struct promise_type {
        uint64_t value = 0;
        task get_return_object() { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        std::suspend_always yield_value(uint64_t v) noexcept
        {
            value = v;
            return {};
        }
        void return_void() {}
        void unhandled_exception() { std::terminate(); }
    };
    std::coroutine_handle<promise_type> h;
};

template <unsigned K>
task counter()
{
    uint64_t n = 0;
    for (;;) {
        n += K + 1;
        co_yield n;
    }
}

using MakeFn = task (*)();
const MakeFn makers[BENCH_TYPES] = {counter<0>, counter<1>, counter<2>, counter<3>,
                                    counter<4>, counter<5>, counter<6>, counter<7>};

int cpp_loop(size_t n, int ticks, bool mixed, bench_out *out)
{
    std::vector<std::coroutine_handle<task::promise_type>> hs;
    hs.reserve(n);
    uint64_t expected = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = mixed ? bench_type_of(i) : 0;
        hs.push_back(makers[k]().h);
        expected += uint64_t(k + 1) * uint64_t(ticks + 1);
    }
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int t = 0; t < ticks; t++)
        for (auto h : hs) h.resume();
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = uint64_t(n) * uint64_t(ticks);
    for (auto h : hs) {
        out->checksum += h.promise().value;
        h.destroy();
    }
    out->expected = expected;
    return 0;
}

int cpp_step(size_t n, int ticks, bench_out *out) { return cpp_loop(n, ticks, false, out); }
int cpp_mixed(size_t n, int ticks, bench_out *out) { return cpp_loop(n, ticks, true, out); }

task once(uint64_t start)
{
    co_yield start + 1;
}

int cpp_spawn(size_t count, bench_out *out)
{
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (size_t i = 0; i < count; i++) {
        auto h = once(i).h; /* allocates the frame, runs to the first co_yield */
        out->checksum += h.promise().value;
        h.destroy();
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = count;
    out->expected = uint64_t(count) * (count + 1) / 2;
    return 0;
}

template <size_t B>
task blob()
{
    std::array<uint64_t, B / 8> w{};
    for (;;) {
        for (auto &x : w) x++;
        co_yield w[B / 8 - 1];
    }
}

template <size_t B>
double cpp_bytes(size_t n)
{
    std::vector<std::coroutine_handle<task::promise_type>> hs;
    hs.reserve(n);
    size_t h0 = bench_heap_bytes();
    for (size_t i = 0; i < n; i++) hs.push_back(blob<B>().h);
    double per = double(bench_heap_bytes() - h0) / double(n) + double(sizeof(hs[0]));
    for (auto h : hs) h.destroy();
    return per;
}

int cpp_memory(size_t n, int ctx_bytes, bench_out *out)
{
    out->bytes_per_co = ctx_bytes == 16 ? cpp_bytes<16>(n) : ctx_bytes == 32 ? cpp_bytes<32>(n)
                                                                             : cpp_bytes<256>(n);
    out->checksum = out->expected = out->ops = 1;
    return 0;
}

} // namespace

extern "C" const bench_peer bench_peer_cpp20 = {
    "C++20 coroutines", nullptr, cpp_step, cpp_mixed, cpp_spawn, cpp_memory, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
};
