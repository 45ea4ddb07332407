/* Must not compile as C++17 under -Wpedantic -Werror: C's spelling of a
   context (the README's tour), a compound literal, and a designated
   initialiser, which is C++20. The control is the C++17 spelling. */
#include <corral/corral.h>

#define SPAWNER_FIELDS(F) F(int, i) F(int, count)
DECLARE_COROUTINE(spawner, SPAWNER_FIELDS)

corral_handle start_five(corral_sched *s);
corral_handle start_five(corral_sched *s)
{
#if defined(CORRAL_COMPOUND_LITERAL)
    return spawner_start(s, (spawner_ctx){.count = 5});
#elif defined(CORRAL_DESIGNATED)
    return spawner_start(s, {.i = 0, .count = 5});
#else
    spawner_ctx c{};
    c.count = 5;
    return spawner_start(s, c);
#endif
}
