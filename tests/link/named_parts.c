/*
    named_parts -- a scheduler of the parts a program names, the way
    docs/API.md ("Parts") writes it: the list a local array, so that it
    compiles where a part's address is not a constant (corral in a DLL,
    CORRAL_SHARED). One caller awaits a callee that waits on a future;
    a post from the game's own thread completes nothing without the posts
    part, which the list leaves out. tools/platforms.sh builds it against
    corral.dll; it exits 0 when every step went as the docs say.
*/
#include <corral/corral.h>

#include <stdio.h>

#define CALLEE_FIELDS(F) F(corral_future, done)
DECLARE_COROUTINE_R(callee, CALLEE_FIELDS, int)
DEFINE_COROUTINE(callee)
{
    CORRAL_BEGIN(co);
    CORRAL_AWAIT(co, corral_wait_future(ctx->done));
    corral_value v = {0};
    corral_future_value(corral_sched_of(co), ctx->done, &v);
    ctx->result = (int)v.i;
    CORRAL_END(co);
}
static int g_got;
#define CALLER_FIELDS(F) F(corral_future, done) F(int, got)
DECLARE_COROUTINE(caller, CALLER_FIELDS)
DEFINE_COROUTINE(caller)
{
    CORRAL_BEGIN(co);
    CORRAL_CALL(co, callee, (callee_ctx){.done = ctx->done}, &ctx->got);
    g_got = ctx->got;
    CORRAL_END(co);
}

int main(void)
{
    const corral_part *parts[] = {&corral_part_calls, &corral_part_futures, NULL};
    corral_sched_desc desc = {.parts = parts, .validation = CORRAL_VALIDATION_REPORT};
    corral_sched *s = corral_sched_create_min(&desc);
    if (!s) return 1;
    corral_future done = corral_future_create(s);
    corral_handle h = caller_start(s, (caller_ctx){.done = done});
    corral_tick(s, 1.0f / 60.0f);
    int failed = 0;
    if (corral_signal_post(s, corral_signal_create(s)) || corral_last_error(NULL) != CORRAL_ERR_NO_PART) failed |= 2;
    corral_value v = {0};
    v.i = 7;
    if (!corral_future_complete(s, done, v)) failed |= 4;
    corral_tick(s, 1.0f / 60.0f);
    corral_tick(s, 1.0f / 60.0f);
    if (corral_alive(s, h) || g_got != 7) failed |= 8;
    corral_sched_destroy(s);
    printf("named parts: %s (%d)\n", failed ? "FAILED" : "ok", failed);
    return failed;
}
