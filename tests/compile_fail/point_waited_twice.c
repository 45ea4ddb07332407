/* Must not compile: two waits at one named point (a copied line): the
   first error names the point, before the compiler's "duplicate case
   value". */
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
    CORRAL_AWAIT_AT(co, patrol, corral_wait_seconds(1.0f)); /* patrol again */
#endif
    CORRAL_END(co);
}
