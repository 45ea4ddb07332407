/*
    peer_missing.c -- contenders that could not be built on this machine
    still appear, as a "skipped" line with the reason (never silently).
*/
#include "bench.h"

#ifndef BENCH_HAVE_PCL
const bench_peer bench_peer_pcl = {.name = "PCL (stackful)",
                                   .skip = "libpcl1-dev not found at configure time"};
#endif
#ifndef BENCH_HAVE_BOOST
const bench_peer bench_peer_boost = {.name = "Boost.Context fiber",
                                     .skip = "libboost-context-dev not found at configure time"};
#endif
#ifndef BENCH_HAVE_CPP20
const bench_peer bench_peer_cpp20 = {.name = "C++20 coroutines",
                                     .skip = "no C++20 compiler with <coroutine> at configure time"};
#endif
#ifndef BENCH_HAVE_CXX
const bench_peer bench_peer_naive = {.name = "naive engine (seeds)",
                                     .skip = "no C++ compiler at configure time"};
#endif
