/* Must not compile: two registry entries with one id. */
#include <corral/corral.h>

#define A_FIELDS(F) F(int, a)
#define B_FIELDS(F) F(int, b)
DECLARE_COROUTINE(alpha, A_FIELDS)
DECLARE_COROUTINE(beta, B_FIELDS)
#define DUP_LIST(X) X(alpha, 1, 0) X(beta, 1, 0)
CORRAL_DECLARE_REGISTRY(dup, DUP_LIST)
