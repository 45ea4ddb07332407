/*
    one_coroutine -- the smallest game: create, start one type, tick with
    frame, seconds and signal waits, stop one, destroy. It creates its
    scheduler with corral_sched_create_min and names no part: what it uses
    is the core's. tools/link_check.sh
    links it statically against the library and fails if a module's object
    comes along (a program pays only for the modules it calls) or if the
    corral text it links grows past its limit.
*/
#include <corral/corral.h>

#define HELLO_FIELDS(F) F(int, n) F(corral_signal, go)
DECLARE_COROUTINE(hello, HELLO_FIELDS)
DEFINE_COROUTINE(hello)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_NEXT_FRAME(co);
    CORRAL_WAIT_FRAMES(co, 2);
    CORRAL_WAIT_SECONDS(co, 0.05f);
    CORRAL_AWAIT(co, corral_wait_signal(ctx->go));
    ctx->n++;
    CORRAL_END(co);
}

int main(void)
{
    corral_sched *s = corral_sched_create_min(&(corral_sched_desc){0});
    if (!s) return 1;
    corral_signal go = corral_signal_create(s);
    hello_start(s, (hello_ctx){.go = go});
    corral_handle spare = hello_start(s, (hello_ctx){.go = go});
    for (int i = 0; i < 10; i++) corral_tick(s, 1.0f / 60.0f);
    if (!corral_stop(s, spare)) return 1;
    corral_signal_raise(s, go);
    corral_tick(s, 1.0f / 60.0f);
    const int left = (int)corral_live_count(s);
    corral_sched_destroy(s);
    return left;
}
