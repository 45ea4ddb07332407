/* own_copy.c -- a gameplay module built the wrong way: with its own copy
   of corral (the one header, CORRAL_IMPLEMENTATION) and linked
   -Bsymbolic, so its calls go to that copy, never to the host's. Given
   the host's scheduler, it starts a coroutine and reports what its copy
   said. */
#define CORRAL_IMPLEMENTATION
#include "corral.h"

#include <string.h>

#define IDLER_FIELDS(F) F(int, frames)
DECLARE_COROUTINE(idler, IDLER_FIELDS)
DEFINE_COROUTINE(idler)
{
    ctx->frames++;
    return CORRAL_YIELD;
}

/* starts an idler on s; writes this copy's detail of the scheduler's
   error and of this thread's into the two buffers */
corral_handle own_copy_start(corral_sched *s, char *detail, char *thread_detail, size_t cap);
corral_handle own_copy_start(corral_sched *s, char *detail, char *thread_detail, size_t cap)
{
    corral_handle h = idler_start(s, (idler_ctx){0});
    strncpy(detail, corral_last_error_detail(s), cap - 1);
    detail[cap - 1] = 0;
    strncpy(thread_detail, corral_last_error_detail(NULL), cap - 1);
    thread_detail[cap - 1] = 0;
    return h;
}
