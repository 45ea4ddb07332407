/* Must not compile: NAME_start takes only NAME_ctx. */
#include <corral/corral.h>

#define A_FIELDS(F) F(int, a)
#define B_FIELDS(F) F(int, b)
DECLARE_COROUTINE(alpha, A_FIELDS)
DECLARE_COROUTINE(beta, B_FIELDS)

corral_handle misuse(corral_sched *s);
corral_handle misuse(corral_sched *s)
{
#ifdef CORRAL_CONTROL
    return alpha_start(s, (alpha_ctx){.a = 1});
#else
    return alpha_start(s, (beta_ctx){.b = 1}); /* wrong context type */
#endif
}
