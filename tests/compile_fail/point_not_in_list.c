/* Must not compile: a named wait at a point its type's POINTS list does
   not have (a typo): the error names the point and the type. */
#include <corral/corral.h>

#define GUARD_FIELDS(F) F(float, secs)
#define GUARD_POINTS(P) P(patrol) P(rest)
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE_AT(guard, GUARD_POINTS)
{
    CORRAL_BEGIN_AT(co, GUARD_POINTS);
    CORRAL_AWAIT_AT(co, patrol, corral_wait_seconds(ctx->secs));
#ifdef CORRAL_CONTROL
    CORRAL_AWAIT_AT(co, rest, corral_wait_seconds(1.0f));
#else
    CORRAL_AWAIT_AT(co, rets, corral_wait_seconds(1.0f)); /* not on the list */
#endif
    CORRAL_END(co);
}
