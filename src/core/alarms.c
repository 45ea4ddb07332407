/*
    alarms.c -- the wait until a time on a clock (CORRAL_WAIT_AT): a timer
    in its coroutine's domain heap (timers.c) due at that time. Unlike a
    time span, a paused one keeps its time, not what it had left; a time
    already past waits for the next frame, as every time wait does. Its
    table comes with the alarms part (corral_part_alarms).
*/
#include "../corral_internal.h"
#include "arena.h"

static int corral__at_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    (void)call;
    (void)s;
    (void)co;
    (void)w;
    return 0; /* a time wait always lets a frame pass */
}

static void corral__at_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    const uint32_t h = corral__domain_heap(corral__co_domain(s, corral__meta_of(s, co)));
    const double span = w->at - corral__timer_clock(s, h);
    if (span > 0.0) corral__timer_push(s, i, h, w->at, (float)span);
    else corral__timer_push(s, i, CORRAL__HEAP_FRAMES, (double)(s->now.frame + 1), 0.0f); /* past, or NaN */
}

/* paused: out of its heap, its due time kept */
static void corral__at_hold(corral_sched *s, uint32_t i) { corral__timer_cancel(s, &corral__nodes(s)[i]); }
static void corral__at_unhold(corral_sched *s, const corral_co *co, uint32_t i)
{
    (void)co;
    corral__timer_repush(s, i);
}

static const corral__wait_part corral__at_part = {
    .ready = corral__at_ready,
    .arm = corral__at_arm,
    .hold = corral__at_hold,
    .unhold = corral__at_unhold,
    .keeps_due = true,
    .save = corral__timer_save,
    .read = corral__timer_read,
    .check = corral__timer_check,
    .place = corral__timer_load,
};
const corral_part corral_part_alarms = {
    .waits = {{CORRAL_WAIT_AT, CORRAL_WAIT_AT, &corral__at_part}},
    .feature = CORRAL__FEATURE_COUNT,
};

corral_wait corral_wait_at(double t)
{
    corral_wait w;
    memset(&w, 0, sizeof w);
    w.kind = CORRAL_WAIT_AT;
    w.at = t;
    return w;
}
