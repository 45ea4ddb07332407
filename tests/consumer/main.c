#include <corral/corral.h>

#define TICKER_FIELDS(F) F(int, n)
DECLARE_COROUTINE(ticker, TICKER_FIELDS)
DEFINE_COROUTINE(ticker)
{
    return ++ctx->n < 3 ? CORRAL_YIELD : CORRAL_STOP;
}

int main(void)
{
    corral_sched *s = corral_sched_create(&(corral_sched_desc){0});
    corral_handle h = ticker_start(s, (ticker_ctx){0});
    corral_tick(s, 0.016f);
    corral_tick(s, 0.016f);
    int ok = !corral_alive(s, h);
    corral_sched_destroy(s);
    return ok ? 0 : 1;
}
