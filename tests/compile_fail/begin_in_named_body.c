/* Must not compile: CORRAL_BEGIN opening a body that has named points. */
#include <corral/corral.h>

#define GUARD_FIELDS(F) F(float, secs)
#define GUARD_POINTS(P) P(patrol)
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE_AT(guard, GUARD_POINTS)
{
#ifdef CORRAL_CONTROL
    CORRAL_BEGIN_AT(co, GUARD_POINTS);
#else
    CORRAL_BEGIN(co);
#endif
    CORRAL_AWAIT_AT(co, patrol, corral_wait_seconds(ctx->secs));
    CORRAL_END(co);
}
