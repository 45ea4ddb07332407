/* Must not compile: a race arm of a type with a result, without where
   its result goes. */
#include <corral/corral.h>

#define ROLL_FIELDS(F) F(int, sides)
DECLARE_COROUTINE_R(roll, ROLL_FIELDS, int)
#define LOOT_FIELDS(F) F(int, got)
DECLARE_COROUTINE(loot, LOOT_FIELDS)
DEFINE_COROUTINE(roll)
{
    ctx->result = ctx->sides;
    return CORRAL_STOP;
}
DEFINE_COROUTINE(loot)
{
    CORRAL_BEGIN(co);
#ifdef CORRAL_CONTROL
    CORRAL_RACE(co, roll_arm(co, (roll_ctx){.sides = 6}, &ctx->got), roll_arm(co, (roll_ctx){.sides = 4}, &ctx->got));
#else
    CORRAL_RACE(co, roll_arm(co, (roll_ctx){.sides = 6}), roll_arm(co, (roll_ctx){.sides = 4}, &ctx->got));
#endif
    CORRAL_END(co);
}
