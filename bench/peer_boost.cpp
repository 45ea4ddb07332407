/*
    peer_boost.cpp -- Boost.Context fibers (stackful): one 16 KiB stack per
    coroutine from fixedsize_stack; a step is a resume into the fiber and a
    resume back out.
*/
#include "bench.h"

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace ctx = boost::context;

namespace {

const size_t kStack = 16 * 1024;

struct slot {
    ctx::fiber f;
    uint64_t n = 0;
};

template <unsigned K>
ctx::fiber make(slot *s)
{
    return ctx::fiber(std::allocator_arg, ctx::fixedsize_stack(kStack), [s](ctx::fiber &&caller) {
        for (;;) {
            s->n += K + 1;
            caller = std::move(caller).resume();
        }
        return std::move(caller);
    });
}
using MakeFn = ctx::fiber (*)(slot *);
const MakeFn makers[BENCH_TYPES] = {make<0>, make<1>, make<2>, make<3>, make<4>, make<5>, make<6>, make<7>};

int boost_loop(size_t n, int ticks, bool mixed, bench_out *out)
{
    std::vector<std::unique_ptr<slot>> slots;
    slots.reserve(n);
    uint64_t expected = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = mixed ? bench_type_of(i) : 0;
        slots.emplace_back(new slot);
        slot *s = slots.back().get();
        s->f = makers[k](s);
        s->f = std::move(s->f).resume(); /* first step at start */
        expected += uint64_t(k + 1) * uint64_t(ticks + 1);
    }
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (int t = 0; t < ticks; t++)
        for (auto &s : slots) s->f = std::move(s->f).resume();
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = uint64_t(n) * uint64_t(ticks);
    for (auto &s : slots) out->checksum += s->n;
    out->expected = expected;
    return 0; /* fibers never finished: their destructors unwind the stacks */
}

int boost_step(size_t n, int ticks, bench_out *out) { return boost_loop(n, ticks, false, out); }
int boost_mixed(size_t n, int ticks, bench_out *out) { return boost_loop(n, ticks, true, out); }

int boost_spawn(size_t count, bench_out *out)
{
    uint64_t sum = 0;
    uint64_t a0 = bench_alloc_calls(), t0 = bench_now_ns();
    for (size_t i = 0; i < count; i++) {
        uint64_t v = i;
        ctx::fiber f(std::allocator_arg, ctx::fixedsize_stack(kStack), [&v](ctx::fiber &&caller) {
            v += 1;
            return std::move(caller);
        });
        f = std::move(f).resume(); /* runs to completion: f is empty again */
        sum += v;
    }
    out->t_ns = bench_now_ns() - t0;
    out->allocs = bench_alloc_calls() - a0;
    out->ops = count;
    out->checksum = sum;
    out->expected = uint64_t(count) * (count + 1) / 2;
    return 0;
}

int boost_memory(size_t n, int ctx_bytes, bench_out *out)
{
    std::vector<std::unique_ptr<slot>> slots;
    slots.reserve(n);
    size_t h0 = bench_heap_bytes();
    for (size_t i = 0; i < n; i++) {
        slots.emplace_back(new slot);
        slots.back()->f = make<0>(slots.back().get());
        slots.back()->f = std::move(slots.back()->f).resume();
    }
    /* the context would live on the fiber's own stack: it adds nothing */
    out->bytes_per_co = double(bench_heap_bytes() - h0) / double(n) + double(sizeof(void *));
    (void)ctx_bytes;
    out->checksum = out->expected = out->ops = 1;
    out->note = "16 KiB stacks";
    return 0;
}

} // namespace

extern "C" const bench_peer bench_peer_boost = {
    "Boost.Context fiber", nullptr, boost_step, boost_mixed, boost_spawn, boost_memory,
    100000, "10^6 x 16 KiB stacks = 16 GiB", nullptr, nullptr, nullptr, nullptr,
};
