/*
    pulls.c -- coroutines stepped by the caller instead of the frame:
    generators (corral_generator_start holds one in no lane; each
    corral_generator_next steps it to its next value) and a paused
    coroutine's single step (corral_step_once). A program that calls
    neither links none of it. The step and end are lifecycle.h's.
*/
#include "../corral_internal.h"
#include "lifecycle.h"

/* a generator's step, now: true when it yielded a value (held again), false
   when it ended (or waited: refused, BAD_WAIT, it ends) */
static bool corral__gen_step(corral_sched *s, corral_co *co, corral__meta *m)
{
    if (s->now.pulls >= CORRAL_MAX_PULL_DEPTH) { /* each pull is a C frame: bounded, not the stack's end */
        corral__fail_at(s, NULL, CORRAL_ERR_PULL_DEPTH, "corral_generator_next", corral__handle_of(s, co), NULL, NULL);
        return false;
    }
    s->now.pulls++;
    bool top = corral__top_begin(s), pause;
    corral_result r = corral__step_bare(s, co, corral__types(s)[co->type].step, &pause, false);
    bool value = r == CORRAL_YIELD && co->state == CORRAL__RUNNING;
    if (value) { /* held again, for the next pull */
        CORRAL__CONTRACT_DONE(co);
        corral__hold(co, m, CORRAL__HOLD_GENERATOR);
    } else if (co->state == CORRAL__WAITING) { /* a generator runs to its next value: it may not wait */
        corral_handle h = corral__handle_of(s, co);
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, "corral_generator_next", h, NULL,
                        "a generator's step waited (it ends)");
        corral__end_m(s, co, m, CORRAL_END_STOPPED, CORRAL__NIL);
    } else {
        corral__end_m(s, co, m, co->state == CORRAL__STOPPING ? corral__stop_reason(m) : CORRAL_END_FINISHED,
                      CORRAL__NIL);
    }
    corral__top_end(s, top);
    s->now.pulls--;
    return value;
}

corral_handle corral_generator_start(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size)
{
    corral_handle h = {0, 0};
    if (!corral__check(s)) return h;
    corral__meta *m;
    corral_co *co = corral__create(__func__, s, vt, ctx, ctx_size, CORRAL__PH_UPDATE, 0, 0, &h, &m);
    if (!co) return (corral_handle){0, 0};
    corral__hold(co, m, CORRAL__HOLD_GENERATOR); /* in no lane: only a pull steps it */
    return h;
}

bool corral_generator_next(corral_sched *s, corral_handle h, void *out, size_t out_size)
{
    if (!corral__check(s)) return false;
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    corral__meta *m = corral__meta_of(s, co);
    const corral__type_entry *te = &corral__types(s)[co->type];
    CORRAL__REQUIRE_AT(s, co->state == CORRAL__PAUSED && (m->hold & CORRAL__HOLD_GENERATOR), CORRAL_ERR_NOT_PAUSED,
                       __func__, h, NULL, "not a generator (corral_generator_start), or its step is running", false);
    CORRAL__REQUIRE_AT(s, (out || !out_size) && out_size == te->vt->result_size, CORRAL_ERR_BAD_DEST, __func__, h, NULL,
                       "its size is not the type's result size", false);
    if (!corral__gen_step(s, co, m)) return false;
    if (out_size) memcpy(out, CORRAL__AT(co, te->ctx_off + te->vt->result_offset), out_size);
    return true;
}

/* Step a paused coroutine once, at once (corral_step_once). */
static void corral__step_held(corral_sched *s, corral_co *co, corral__meta *m, uint32_t local)
{
    corral__step_now(s, co, m, local);
}

bool corral_step_once(corral_sched *s, corral_handle h)
{
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    CORRAL__REQUIRE_AT(s, co->state == CORRAL__PAUSED, CORRAL_ERR_NOT_PAUSED, __func__, h, NULL, NULL, false);
    corral__meta *m = corral__meta_of(s, co);
    if (corral__calling(s, m)) { /* its child runs on; stepping it would abandon that */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, h, NULL, "it awaits a child: step the child");
        return false;
    }
    if (m->hold & CORRAL__HOLD_GENERATOR) { /* one pull, its value dropped */
        corral__gen_step(s, co, m);
        return true;
    }
    corral__release_wait(s, co); /* one step, whatever it waited on */
    m->hold = 0;
    corral__step_held(s, co, m, h.index & CORRAL__LOCAL_MASK);
    if (corral__state_alive(co->state) && co->state != CORRAL__PAUSED) corral__pause_co(s, co);
    return true;
}
