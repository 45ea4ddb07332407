/*
    ui_tween -- a UI tween on the unscaled clock while the game is paused
    (docs/GUIDE.md, "A UI tween while paused").

    The pause menu sets the time scale to 0, as Unity's Time.timeScale = 0:
    the game clock stands still, so the bomb's seconds wait does too, and
    every coroutine's corral_dt reads 0 (they still step). The menu's fade
    counts corral_unscaled_dt, and its hint blinks on
    CORRAL_WAIT_REALTIME: both run on the unscaled clock. With several
    clocks (a UI domain, slow motion for one character) see time domains
    in docs/API.md and examples/boss.c.
*/
#include <corral/corral.h>

#include <stdarg.h>
#include <stdio.h>

static corral_sched *S;

/* a line with both clocks: the game's (scaled) and the real (unscaled) */
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("[game %5.2fs  real %5.2fs] ", corral_time(S), corral_unscaled_time(S));
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

#define FUSE_FIELDS(F) F(int, left)
DECLARE_COROUTINE(fuse, FUSE_FIELDS)
DEFINE_COROUTINE(fuse)
{
    CORRAL_BEGIN(co);
    for (; ctx->left > 0; ctx->left--) {
        say("bomb: %d", ctx->left);
        CORRAL_WAIT_SECONDS(co, 1.0f); /* game time: stands still at scale 0 */
    }
    say("bomb: BOOM");
    CORRAL_END(co);
}

#define FADE_FIELDS(F) \
    F(float, alpha)    \
    F(int, blinks)
DECLARE_COROUTINE(fade, FADE_FIELDS)
DEFINE_COROUTINE(fade)
{
    CORRAL_BEGIN(co);
    for (;;) {
        say("menu: alpha %d%%", (int)(ctx->alpha * 100.0f));
        if (ctx->alpha >= 1.0f) break;
        CORRAL_WAIT_FRAME(co);
        ctx->alpha += corral_unscaled_dt(co) / 0.5f; /* over 0.5 s of real time */
        if (ctx->alpha > 1.0f) ctx->alpha = 1.0f;
    }
    for (;;) {
        say("menu: hint blink %d", ++ctx->blinks);
        CORRAL_WAIT_REALTIME(co, 0.75f); /* real time: runs at scale 0 */
    }
    CORRAL_END(co);
}

int main(void)
{
    S = corral_sched_create(&(corral_sched_desc){0});
    if (!S) return 1;
    fuse_start(S, (fuse_ctx){.left = 4});
    corral_handle menu = {0};
    for (int frame = 1; corral_live_count(S) > 0; frame++) {
        if (frame == 6) { /* 1.25 s: the player opens the pause menu */
            say("pause menu opens: time scale 0");
            corral_set_time_scale(S, 0.0f);
            menu = fade_start(S, (fade_ctx){0});
        }
        if (frame == 16) { /* 2.5 s of real time later: the player closes it */
            corral_stop(S, menu);
            corral_set_time_scale(S, 1.0f);
            say("pause menu closes: time scale 1");
        }
        corral_tick(S, 0.25f);
    }
    corral_sched_destroy(S);
    return 0;
}
