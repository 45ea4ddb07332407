/* Must compile without a word: a context with a 64-byte-aligned member,
   started, called and raced by value (GCC once noted an ABI change for
   every such argument). */
#include <corral/corral.h>

#include <stdalign.h>

typedef struct cache_line {
    alignas(64) unsigned char bytes[64];
} cache_line;
#define WIDE_FIELDS(F) F(int, tag) F(cache_line, block)
DECLARE_COROUTINE_R(wide, WIDE_FIELDS, int)
DEFINE_COROUTINE(wide)
{
    ctx->result = ctx->tag + ctx->block.bytes[0];
    return CORRAL_STOP;
}
#define OUTER_FIELDS(F) F(int, got)
DECLARE_COROUTINE(outer, OUTER_FIELDS)
DEFINE_COROUTINE(outer)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL(co, wide, (wide_ctx){.tag = 1}, &ctx->got);
    CORRAL_RACE(co, wide_arm(co, (wide_ctx){.tag = 2}, &ctx->got));
    CORRAL_END(co);
}

corral_handle start_both(corral_sched *s);
corral_handle start_both(corral_sched *s)
{
    wide_start(s, (wide_ctx){.tag = 3});
    return outer_start(s, (outer_ctx){0});
}
