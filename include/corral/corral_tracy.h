/*
    corral_tracy.h -- corral's profiler hooks for Tracy (C API).

    A zone per coroutine step, named after the coroutine's type, and every
    slot taken and given back as a named memory pool per size class
    ("corral 64B", ...), so Tracy's memory view shows the arena by class.

    TURNING IT ON
        1. build your game with Tracy (TRACY_ENABLE defined, TracyClient
           linked) and TracyC.h on the include path (<tracy/TracyC.h> or
           <TracyC.h>);
        2. #include <corral/corral_tracy.h> in one .c file and set
               desc.hooks = corral_tracy_hooks();
           before corral_sched_create. Zones nest up to 64 deep (a start from
           inside a step runs the new coroutine's first step inside).

    Without TracyC.h this header defines nothing (CORRAL_HAVE_TRACY is 0);
    without TRACY_ENABLE, corral_tracy_hooks() returns empty hooks, as
    Tracy's own macros compile to nothing.
*/
#ifndef CORRAL_TRACY_H
#define CORRAL_TRACY_H

#include "corral.h"

#if defined(__has_include)
#if __has_include(<tracy/TracyC.h>)
#include <tracy/TracyC.h>
#define CORRAL_HAVE_TRACY 1
#elif __has_include(<TracyC.h>)
#include <TracyC.h>
#define CORRAL_HAVE_TRACY 1
#endif
#endif
#ifndef CORRAL_HAVE_TRACY
#define CORRAL_HAVE_TRACY 0
#endif

#if CORRAL_HAVE_TRACY
#include <string.h>

#ifdef TRACY_ENABLE
#define CORRAL_TRACY_MAX_DEPTH 64
static TracyCZoneCtx corral__tracy_zones[CORRAL_TRACY_MAX_DEPTH];
static int corral__tracy_depth;

static inline void corral__tracy_step_begin(const char *type_name, corral_handle h, void *user)
{
    (void)h;
    (void)user;
    TracyCZoneN(zone, "corral step", 1);
    TracyCZoneName(zone, type_name, strlen(type_name));
    if (corral__tracy_depth < CORRAL_TRACY_MAX_DEPTH) corral__tracy_zones[corral__tracy_depth] = zone;
    corral__tracy_depth++;
}
static inline void corral__tracy_step_end(const char *type_name, corral_handle h, void *user)
{
    (void)type_name;
    (void)h;
    (void)user;
    if (corral__tracy_depth == 0) return;
    corral__tracy_depth--;
    if (corral__tracy_depth < CORRAL_TRACY_MAX_DEPTH) {
        TracyCZoneEnd(corral__tracy_zones[corral__tracy_depth]);
    }
}
/* the pool name lives in the scheduler's arena: a stable pointer, as
   Tracy's named pools require */
static inline void corral__tracy_alloc(const char *pool, const void *ptr, size_t size, void *user)
{
    (void)user;
    TracyCAllocN(ptr, size, pool);
}
static inline void corral__tracy_free(const char *pool, const void *ptr, size_t size, void *user)
{
    (void)size;
    (void)user;
    TracyCFreeN(ptr, pool);
}
static inline corral_hooks corral_tracy_hooks(void)
{
    corral_hooks h;
    h.step_begin = corral__tracy_step_begin;
    h.step_end = corral__tracy_step_end;
    h.alloc = corral__tracy_alloc;
    h.free = corral__tracy_free;
    h.user_data = NULL;
    return h;
}
#else  /* Tracy present but not enabled: no hooks, no cost */
static inline corral_hooks corral_tracy_hooks(void)
{
    corral_hooks h;
    memset(&h, 0, sizeof h);
    return h;
}
#endif /* TRACY_ENABLE */
#endif /* CORRAL_HAVE_TRACY */

#endif /* CORRAL_TRACY_H */
