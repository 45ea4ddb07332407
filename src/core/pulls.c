/*
    pulls.c -- coroutines stepped by the caller instead of the frame:
    generators (corral_generator_start holds one in no lane; each
    corral_generator_next steps it to its next value; a generator whose
    step waits stays held, its wait armed, until the wait is over and a
    pull goes on from there) and a paused coroutine's single step
    (corral_step_once). A program that calls neither links none of it. The
    step and end are lifecycle.h's; a coroutine that waits for a
    generator's next value is calls.c's (corral_generator_pull).
*/
#include "../corral_internal.h"
#include "lifecycle.h"

#include <stdio.h>
#include <string.h>

/* a generator's step, now: 1 when it yielded a value (held again), -1 when
   it waits (held, its wait armed), 0 when it ended or was refused */
static int corral__gen_step(corral_sched *s, corral_co *co, corral__meta *m)
{
    if (s->now.pulls >= CORRAL_MAX_PULL_DEPTH) { /* each pull is a C frame: bounded, not the stack's end */
        corral__fail_at(s, NULL, CORRAL_ERR_PULL_DEPTH, "corral_generator_next", corral__handle_of(s, co), NULL, NULL);
        return 0;
    }
    s->now.pulls++;
    m->hold = CORRAL__HOLD_GENERATOR; /* its wait, if any, is over */
    bool top = corral__top_begin(s), pause;
    corral_result r = corral__step_bare(s, co, corral__types(s)[co->type].step, &pause, false);
    int value = r == CORRAL_YIELD && co->state == CORRAL__RUNNING ? 1 : 0;
    if (value) { /* held again, for the next pull */
        CORRAL__CONTRACT_DONE(co);
        corral__hold(co, m, CORRAL__HOLD_GENERATOR);
    } else if (r == CORRAL_YIELD && co->state == CORRAL__WAITING) { /* held, its wait armed: a wake marks it WOKEN */
        CORRAL__CONTRACT_DONE(co);
        corral__hold(co, m, CORRAL__HOLD_GENERATOR | CORRAL__HOLD_WAITING);
        value = -1;
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

/* 1 a value in out, 0 it ended (or the pull was refused, the error
   set), -1 it waits (NOT_READY, not logged: pull again later) */
int corral__generator_pull(const char *call, corral_sched *s, corral_handle h, void *out, size_t out_size)
{
    corral_co *co = corral__live(call, s, h);
    if (!co) return 0;
    corral__meta *m = corral__meta_of(s, co);
    const corral__type_entry *te = &corral__types(s)[co->type];
    CORRAL__REQUIRE_AT(s, co->state == CORRAL__PAUSED && (m->hold & CORRAL__HOLD_GENERATOR), CORRAL_ERR_NOT_PAUSED,
                       call, h, NULL, "not a generator (corral_generator_start), or its step is running", 0);
    CORRAL__REQUIRE_AT(s, (out || !out_size) && out_size == te->vt->result_size, CORRAL_ERR_BAD_DEST, call, h, NULL,
                       "its size is not the type's result size", 0);
    int r = corral__gen_ready(m) ? corral__gen_step(s, co, m) : -1;
    if (r < 0) s->last_error = CORRAL_ERR_NOT_READY;
    if (r > 0 && out_size) memcpy(out, CORRAL__AT(co, te->ctx_off + te->vt->result_offset), out_size);
    return r;
}

bool corral_generator_next(corral_sched *s, corral_handle h, void *out, size_t out_size)
{
    return corral__check(s) && corral__generator_pull(__func__, s, h, out, out_size) > 0;
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
        if (corral__gen_ready(m)) corral__gen_step(s, co, m);
        return true;
    }
    corral__release_wait(s, co); /* one step, whatever it waited on */
    m->hold = 0;
    corral__step_held(s, co, m, h.index & CORRAL__LOCAL_MASK);
    if (corral__state_alive(co->state) && co->state != CORRAL__PAUSED) corral__pause_co(s, co);
    return true;
}

/* ---- a coroutine that waits for a generator's next value: a PULL node
   on the generator's joiners list (calls.c's, which fires it when the
   generator ends), fired too when the generator's own wait ends */
static int corral__pull_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral_error err;
    corral_co *g = corral__resolve(s, w->co, &err);
    if (!g) return 1; /* gone: the next pull says it ended */
    const corral__meta *gm = corral__meta_of(s, g);
    CORRAL__REQUIRE_AT(s, g != co && g->state == CORRAL__PAUSED && (gm->hold & CORRAL__HOLD_GENERATOR),
                       CORRAL_ERR_BAD_WAIT, call, w->co, co, "a pull waits for a generator that is not its own step", -1);
    if (corral__gen_ready(gm)) return 1;
    if (!corral__side_take(call, s, corral__meta_of(s, g))) return -2; /* its list */
    return 0;
}
static void corral__pull_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    (void)co;
    corral_error err;
    corral__node *n = &corral__nodes(s)[i];
    n->u.t.target = corral__global_of(s, corral__resolve(s, w->co, &err));
    n->u.t.seq = CORRAL__NIL; /* a join's result place: none */
    corral__list_push(s, corral__join_list(s, n), i);
}
static void corral__pull_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    (void)te;
    corral__put_u(io, corral__save_ref(s, n->u.t.target), 4);
}
static const char *corral__pull_check(const corral__lview *v, const corral__lwait *w)
{
    return v->find(v->L, w->ref) == CORRAL__NIL || w->ref == v->self
               ? "a coroutine of type %s pulls a generator the save does not hold%s"
               : NULL;
}
static void corral__pull_place(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)co;
    corral__node *n = &corral__nodes(v->s)[i];
    n->u.t.target = v->slot(v->L, w->ref);
    n->u.t.seq = CORRAL__NIL;
    corral__side_take("corral_load", v->s, &corral__meta_table(v->s)[n->u.t.target]); /* counted by the check */
    if (!held) corral__list_push(v->s, corral__join_list(v->s, n), i);
}
static const corral__wait_part corral__pull_part = {
    .ready = corral__pull_ready,
    .arm = corral__pull_arm,
    .list = corral__join_list,
    .verify = corral__join_verify,
    .name = corral__join_name,
    .save = corral__pull_save,
    .read = corral__index_read,
    .check = corral__pull_check,
    .place = corral__pull_place,
};

/* a held generator's wait ended: the coroutines waiting to pull it wake
   (the joiners waiting for its end stay) */
static void corral__pullers_wake(corral_sched *s, corral_co *gen)
{
    corral__side *sd = &corral__sides(s)[corral__meta_of(s, gen)->side];
    corral__list l = {&sd->joiners_head, &sd->joiners_tail};
    corral__node *N = corral__nodes(s);
    for (uint32_t i = sd->joiners_head; i != CORRAL__NIL;) {
        const uint32_t next = N[i].next;
        if (N[i].kind == CORRAL_WAIT_PULL) {
            corral__list_unlink(s, l, i);
            corral__fire(s, i);
        }
        i = next;
    }
}
static const corral__pulls_part corral__pulls_table = {corral__pullers_wake};
void corral__pulls_use(void)
{
    corral__calls_use(); /* a generator's end fires its list (calls.c) */
    corral__feature_add(CORRAL__FEATURE_PULLS, &corral__pulls_table);
    corral__wait_parts_add(CORRAL_WAIT_PULL, CORRAL_WAIT_PULL, &corral__pull_part);
}

bool corral_generator_pull(corral_co *co, corral_handle h, void *out, size_t out_size)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    if (!s) return false;
    corral__pulls_use();
    corral__meta_of(s, co)->stop_why &= (uint8_t)~CORRAL__WAIT_CLOSED;
    const int r = corral__generator_pull(__func__, s, h, out, out_size);
    if (r > 0) return false; /* a value: go on */
    if (r == 0) { /* it ended (or the pull was refused, the error set): the stream is over */
        corral__meta_of(s, co)->stop_why |= CORRAL__WAIT_CLOSED;
        return false;
    }
    corral_wait w;
    memset(&w, 0, sizeof w);
    w.kind = CORRAL_WAIT_PULL;
    w.co = h;
    return corral_await(co, w); /* true: wait for it; false: it can be pulled again (or a malformed wait) */
}
