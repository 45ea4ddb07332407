/* Must not compile: a wait in a body that CORRAL_BEGIN did not open. */
#include <corral/corral.h>

#define GUARD_FIELDS(F) F(float, secs)
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE(guard)
{
#ifdef CORRAL_CONTROL
    CORRAL_BEGIN(co);
#endif
    CORRAL_WAIT_SECONDS(co, ctx->secs);
    CORRAL_END(co);
}
