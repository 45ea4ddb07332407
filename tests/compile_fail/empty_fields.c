/* Must not compile: a coroutine type whose FIELDS list is empty. */
#include <corral/corral.h>

#ifdef CORRAL_CONTROL
#define IDLE_FIELDS(F) F(int, unused)
#else
#define IDLE_FIELDS(F)
#endif
DECLARE_COROUTINE(idle, IDLE_FIELDS)
