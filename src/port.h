/*
    port.h -- every compiler and OS specific the library uses, each with a
    portable fallback: branch hints, inlining, the walk's alignment,
    prefetch, thread-local storage, atomics and the monotonic clock. The
    public headers' share is include/corral/corral_port.h. Nothing else in
    src/ names a compiler or an OS.

    Included first by corral_internal.h, before any system header, so that
    the clock's feature macro is seen by all of them.
*/
#ifndef CORRAL_PORT_INTERNAL_H
#define CORRAL_PORT_INTERNAL_H

/* The implementation is C11 (designated initialisers, compound literals,
   _Static_assert, C's rules for void *): C++ fails in it at the first
   struct. The public headers are C and C++ both. The one header stops at
   this error (tools/single_header.cmake compiles nothing after it). */
#ifdef __cplusplus
#error "corral: the implementation is C: compile it as C, in a .c file (the one that defines CORRAL_IMPLEMENTATION, or corral's sources), and include corral.h from C++ files"
#endif

#if !defined(_WIN32) && !defined(__APPLE__) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L /* clock_gettime under strict C11 */
#endif

#include "corral/corral_port.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- branch hints, inlining, alignment (prefetch: corral_port.h) */
#if defined(__GNUC__) || defined(__clang__)
#define CORRAL__LIKELY(x) __builtin_expect(!!(x), 1)
#define CORRAL__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CORRAL__ALWAYS_INLINE inline __attribute__((always_inline))
/* a hot loop's function: out of line, on a cache line of its own, so its
   loop sits at the same offset in every program it is linked into */
#define CORRAL__HOT_LOOP_FN __attribute__((noinline, aligned(64)))
#define CORRAL__COLD __attribute__((cold, noinline))
#define CORRAL__NOINLINE __attribute__((noinline)) /* one copy where several callers would each inline it */
#elif defined(_MSC_VER)
#define CORRAL__LIKELY(x) (x)
#define CORRAL__UNLIKELY(x) (x)
#define CORRAL__ALWAYS_INLINE __forceinline
#define CORRAL__HOT_LOOP_FN __declspec(noinline)
#define CORRAL__COLD __declspec(noinline)
#define CORRAL__NOINLINE __declspec(noinline)
#else
#define CORRAL__LIKELY(x) (x)
#define CORRAL__UNLIKELY(x) (x)
#define CORRAL__ALWAYS_INLINE inline
#define CORRAL__HOT_LOOP_FN
#define CORRAL__COLD
#define CORRAL__NOINLINE
#endif

/* ---- printf-style functions of the library's own: their formats checked */
#if defined(__MINGW32__) && defined(__MINGW_PRINTF_FORMAT)
#define CORRAL__PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__) || defined(__clang__)
#define CORRAL__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CORRAL__PRINTF(f, a)
#endif

/* ---- thread-local storage: the running scheduler and the last error are
   per thread. tcc has none: there they are per process, so schedulers on
   several threads need another compiler (docs/API.md, "Platforms"). */
#if defined(__TINYC__)
#define CORRAL__THREAD_LOCAL
#define CORRAL__HAS_THREAD_LOCAL 0
#elif defined(_MSC_VER) && !defined(__clang__)
#define CORRAL__THREAD_LOCAL __declspec(thread)
#elif defined(__cplusplus)
#define CORRAL__THREAD_LOCAL thread_local
#else
#define CORRAL__THREAD_LOCAL _Thread_local
#endif
#ifndef CORRAL__HAS_THREAD_LOCAL
#define CORRAL__HAS_THREAD_LOCAL 1
#endif

/* ---- atomics: a counter, sequentially consistent, and its acquire and
   release forms. CORRAL__HAS_ATOMICS is 0 where there are none (tcc):
   what needs them (the cross-thread post queue) is then left out. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define CORRAL__HAS_ATOMICS 1
typedef volatile long corral__atomic_u32;
static inline void corral__atomic_add_u32(corral__atomic_u32 *p, int32_t v) { _InterlockedExchangeAdd(p, v); }
static inline uint32_t corral__atomic_load_u32(corral__atomic_u32 *p) { return (uint32_t)_InterlockedOr(p, 0); }
static inline void corral__atomic_store_u32(corral__atomic_u32 *p, uint32_t v) { _InterlockedExchange(p, (long)v); }
/* acquire / release: the queue's hand-overs (full barriers here) */
static inline uint32_t corral__atomic_load_acq_u32(corral__atomic_u32 *p) { return (uint32_t)_InterlockedOr(p, 0); }
static inline void corral__atomic_store_rel_u32(corral__atomic_u32 *p, uint32_t v) { _InterlockedExchange(p, (long)v); }
static inline bool corral__atomic_cas_u32(corral__atomic_u32 *p, uint32_t expect, uint32_t desired)
{
    return (uint32_t)_InterlockedCompareExchange(p, (long)desired, (long)expect) == expect;
}
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__) && \
    !defined(__TINYC__)
#include <stdatomic.h>
#define CORRAL__HAS_ATOMICS 1
typedef atomic_uint corral__atomic_u32;
static inline void corral__atomic_add_u32(corral__atomic_u32 *p, int32_t v) { atomic_fetch_add(p, (unsigned)v); }
static inline uint32_t corral__atomic_load_u32(corral__atomic_u32 *p) { return atomic_load(p); }
static inline void corral__atomic_store_u32(corral__atomic_u32 *p, uint32_t v) { atomic_store(p, v); }
/* acquire / release: the queue's hand-overs (a plain load or store on x86) */
static inline uint32_t corral__atomic_load_acq_u32(corral__atomic_u32 *p)
{
    return atomic_load_explicit(p, memory_order_acquire);
}
static inline void corral__atomic_store_rel_u32(corral__atomic_u32 *p, uint32_t v)
{
    atomic_store_explicit(p, v, memory_order_release);
}
static inline bool corral__atomic_cas_u32(corral__atomic_u32 *p, uint32_t expect, uint32_t desired)
{
    return atomic_compare_exchange_strong(p, &expect, desired);
}
#else
#define CORRAL__HAS_ATOMICS 0
typedef volatile uint32_t corral__atomic_u32; /* the layout only: never shared between threads */
#endif

/* ---- the monotonic clock, in nanoseconds: the default corral_clock.
   Defined where CORRAL__PORT_IMPL is (sched.c), with the OS's headers. */
uint64_t corral__monotonic_ns(void *user);
#ifdef CORRAL__PORT_IMPL
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
uint64_t corral__monotonic_ns(void *user)
{
    static LARGE_INTEGER freq; /* fixed at boot: racing threads write the same value */
    LARGE_INTEGER now;
    (void)user;
    if (freq.QuadPart == 0) QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (uint64_t)(now.QuadPart / freq.QuadPart) * 1000000000ull +
           (uint64_t)(now.QuadPart % freq.QuadPart) * 1000000000ull / (uint64_t)freq.QuadPart;
}
#elif defined(__EMSCRIPTEN__)
#include <emscripten.h>
uint64_t corral__monotonic_ns(void *user)
{
    (void)user;
    return (uint64_t)(emscripten_get_now() * 1e6); /* milliseconds, sub-ms precise */
}
#elif defined(__APPLE__)
#include <mach/mach_time.h>
uint64_t corral__monotonic_ns(void *user)
{
    static mach_timebase_info_data_t tb;
    (void)user;
    if (tb.denom == 0) mach_timebase_info(&tb);
    return mach_absolute_time() * tb.numer / tb.denom;
}
#else
#include <time.h>
#ifndef CLOCK_MONOTONIC
#error "corral: in the file that defines CORRAL_IMPLEMENTATION, include corral.h before any other #include: under strict C the C library hides clock_gettime unless _POSIX_C_SOURCE comes first (corral defines it when it is first)"
#else
uint64_t corral__monotonic_ns(void *user)
{
    struct timespec ts;
    (void)user;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
#endif
#endif
#endif /* CORRAL__PORT_IMPL */

#endif /* CORRAL_PORT_INTERNAL_H */
