/* The public header alone, as a C11 user sees it, under strict warnings. */
#include <corral/corral.h>

#define HC_FIELDS(F) F(int, n) F(float, t)
DECLARE_COROUTINE(hc, HC_FIELDS)
DEFINE_COROUTINE(hc)
{
    CORRAL_BEGIN(co);
    ctx->n++;
    CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

int main(void)
{
    corral_sched_desc d = {0};
    corral_sched *s = corral_sched_create(&d);
    hc_start(s, (hc_ctx){.n = 1});
    corral_tick(s, 0.f);
    int live = (int)corral_live_count(s);
    corral_sched_destroy(s);
    return live == 0 ? 0 : 1;
}
