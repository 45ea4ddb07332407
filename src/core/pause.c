/*
    pause.c -- holding one coroutine still (corral_pause, corral_resume)
    and letting it go on. A paused coroutine is in no lane and its timers
    and predicates are out of their containers (waits.c holds them); it
    keeps its place in every list it waits on. A whole group at once is
    group_ops.c's.
*/
#include "../corral_internal.h"
#include "errors.h"

bool corral__pause_co(corral_sched *s, corral_co *co)
{
    corral__meta *m = corral__meta_of(s, co);
    if (co->state == CORRAL__PAUSED || co->state == CORRAL__STOPPING || co->state == CORRAL__ENDING)
        return false;
    if (corral__is_running(s, co)) { /* held when its step returns */
        bool had = (co->flags & CORRAL__PAUSE_FLAG) != 0;
        co->flags = (uint8_t)(co->flags | CORRAL__PAUSE_FLAG);
        return !had;
    }
    uint8_t hold = 0;
    if (co->state == CORRAL__QUEUED || co->state == CORRAL__DEFERRED) {
        corral__lane_tombstone(s, co);
    } else if (co->state == CORRAL__READY) {
        corral__ready_unlink(s, co);
        hold = CORRAL__HOLD_WOKEN;
    } else if (co->state == CORRAL__WAITING) {
        corral__hold_wait(s, co);
        hold = CORRAL__HOLD_WAITING;
    }
    corral__hold(co, m, hold);
    return true;
}

bool corral__resume_co(corral_sched *s, corral_co *co)
{
    if (co->flags & CORRAL__PAUSE_FLAG) { /* paused during its step: not held yet */
        co->flags = (uint8_t)(co->flags & ~CORRAL__PAUSE_FLAG);
        return true;
    }
    if (co->state != CORRAL__PAUSED) return false;
    corral__meta *m = corral__meta_of(s, co);
    if (m->hold & CORRAL__HOLD_GENERATOR) return false; /* only a pull steps it */
    uint8_t hold = m->hold;
    m->hold = 0;
    if ((hold & CORRAL__HOLD_WAITING) && !(hold & CORRAL__HOLD_WOKEN)) {
        corral__park(co);
        corral__unhold_wait(s, co);
    } else {
        corral__enqueue(s, co);
    }
    return true;
}

bool corral_pause(corral_sched *s, corral_handle h)
{
    corral_co *co = corral__live(__func__, s, h);
    return co && corral__pause_co(s, co);
}

bool corral_resume(corral_sched *s, corral_handle h)
{
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    CORRAL__REQUIRE_AT(s, corral__resume_co(s, co), CORRAL_ERR_NOT_PAUSED, __func__, h, NULL, NULL, false);
    return true;
}

bool corral_paused(const corral_sched *s, corral_handle h)
{
    if (!corral__check(s)) return false;
    corral_error err;
    corral_co *co = corral__resolve(s, h, &err);
    return co && (co->state == CORRAL__PAUSED || (co->flags & CORRAL__PAUSE_FLAG));
}
