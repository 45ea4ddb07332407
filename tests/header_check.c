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

/* race and sync: typed arms, a result */
#define HR_FIELDS(F) F(int, n)
DECLARE_COROUTINE_R(hr, HR_FIELDS, int)
DEFINE_COROUTINE(hr)
{
    (void)co;
    ctx->result = ctx->n;
    return CORRAL_STOP;
}
#define HB_FIELDS(F) F(int, got)
DECLARE_COROUTINE(hb, HB_FIELDS)
static int hb_got;
DEFINE_COROUTINE(hb)
{
    CORRAL_BEGIN(co);
    CORRAL_RACE(co, hc_arm(co, (hc_ctx){.n = 2}), hr_arm(co, (hr_ctx){.n = 1}, &ctx->got));
    CORRAL_SYNC(co, hr_arm(co, (hr_ctx){.n = ctx->got + 2}, &ctx->got));
    hb_got = ctx->got;
    CORRAL_END(co);
}

int main(void)
{
    corral_sched_desc d = {0};
    corral_sched *s = corral_sched_create(&d);
    hb_start(s, (hb_ctx){0});
    if (hb_got != 3) return 2;
    hc_start(s, (hc_ctx){.n = 1});
    corral_tick(s, 0.f);
    int live = (int)corral_live_count(s);
    corral_sched_destroy(s);
    return live == 0 ? 0 : 1;
}
