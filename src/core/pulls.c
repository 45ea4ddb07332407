/*
    pulls.c -- coroutines stepped by the caller instead of the frame:
    generators (corral_generator_start holds one in no lane; each
    corral_generator_next steps it to its next value; a generator whose
    step waits stays held, its wait armed, until the wait is over and a
    pull goes on from there) and a paused coroutine's single step
    (corral_step_once). The step and end are lifecycle.h's; a coroutine that waits for a
    generator's next value is calls.c's (corral_generator_pull).
*/
#include "../corral_internal.h"
#include "arena.h"
#include "lifecycle.h"

#include <stdio.h>
#include <string.h>

/* a generator's step, now: VALUE (held again), NOT_YET (it waits: held,
   its wait armed), CLOSED (it finished), STOPPED (it ended otherwise) or
   ERROR (refused: too deep) */
static corral_got corral__gen_step(corral_sched *s, corral_co *co, corral__meta *m)
{
    if (s->now.pulls >= CORRAL_MAX_PULL_DEPTH) { /* each pull is a C frame: bounded, not the stack's end */
        corral__fail_at(s, NULL, CORRAL_ERR_PULL_DEPTH, "corral_generator_next", corral__handle_of(s, co), NULL, NULL);
        return CORRAL_GOT_ERROR;
    }
    const uint32_t outer = s->now.gen;
    corral__pulled(s)[s->now.pulls++] = s->now.gen = corral__co_off(s, co);
    corral__co_hold_set(co, m, CORRAL__HOLD_GENERATOR); /* its wait, if any, is over */
    bool top = corral__top_begin(s), pause;
    corral_result r = corral__step_bare(s, co, corral__types(s)[co->type].step, &pause, false);
    corral__pulled(s)[s->now.pulls - 1] = 0;
    s->now.gen = outer;
    corral_got got = CORRAL_GOT_VALUE;
    if (r == CORRAL_YIELD && co->state == CORRAL__RUNNING) { /* held again, for the next pull */
        if ((co->flags & CORRAL__ARMS_OPEN_FLAGS) == CORRAL__ARMS_OPEN_FLAGS) corral__arms_abandoned(s, co);
        CORRAL__CONTRACT_DONE(co);
        corral__hold(co, m, CORRAL__HOLD_GENERATOR);
    } else if (r == CORRAL_YIELD && co->state == CORRAL__WAITING) { /* held, its wait armed: a wake marks it WOKEN */
        CORRAL__CONTRACT_DONE(co);
        corral__hold(co, m, CORRAL__HOLD_GENERATOR | CORRAL__HOLD_WAITING);
        got = CORRAL_GOT_NOT_YET;
    } else {
        const corral_end_reason why = co->state == CORRAL__STOPPING ? corral__stop_reason(m) : CORRAL_END_FINISHED;
        corral__end_m(s, co, m, why, CORRAL__NIL);
        got = why == CORRAL_END_FINISHED ? CORRAL_GOT_CLOSED : CORRAL_GOT_STOPPED;
    }
    corral__top_end(s, top);
    s->now.pulls--;
    return got;
}

/* ---- who a generator belongs to (API.md, "Generators"): one started in a
   step belongs to that step's coroutine, whose end stops it (a node of
   kind CORRAL__NODE_OWNED, chained with the generator's group nodes, on
   the owner's joiners list); one started from plain code to the game */

/* the coroutine a generator started now belongs to, or NULL: the one whose
   step runs (a cleanup hook's coroutine has ended its ties already) */
static corral_co *corral__gen_owner(corral_sched *s)
{
    corral_co *by = corral__stepping(s);
    return by && corral__state_alive(by->state) ? by : by && by->state == CORRAL__STOPPING ? by : NULL;
}

void corral__gen_own(corral_sched *s, corral_co *gen, corral_co *by)
{
    corral__side *bs = corral__side_take("corral_generator_start", s, corral__meta_of(s, by));
    corral__side *gs = corral__side_take("corral_generator_start", s, corral__meta_of(s, gen));
    const uint32_t i = corral__node_alloc(s);
    corral__node *n = &corral__nodes(s)[i];
    n->co = corral__co_off(s, gen);
    n->kind = CORRAL__NODE_OWNED;
    n->member = 0;
    n->list = 0;
    n->u.t.due = 0.0;
    n->u.t.seq = CORRAL__NIL;
    n->u.t.target = corral__global_of(s, by);
    n->attached = 1;
    n->order = s->nodes.order++;
    n->sibling = gs->groups;
    gs->groups = i;
    corral__list_push(s, (corral__list){&bs->joiners_head, &bs->joiners_tail}, i);
}

/* The owner's end ends its generators one after the other, however long
   a chain of generators owning generators: before a generator ends, the
   ties of the generators it owns go to the end of the list being walked,
   so its end meets none and the walk ends them next, each after the one
   that owned it, on no more C stack than the first. (One whose step is on
   the C stack keeps its ties: they end when it does.) */
static void corral__owned_end(corral_sched *s, corral_co *owner, uint32_t i, corral_end_reason why)
{
    corral__node *N = corral__nodes(s);
    corral__side *sd = corral__side_at(s, corral__meta_of(s, owner));
    const corral__list l = {&sd->joiners_head, &sd->joiners_tail};
    corral__list_unlink(s, l, i);
    N[i].attached = 0; /* its generator's chain frees the node */
    corral_co *gen = CORRAL__CO(s, N[i].co);
    if (!corral__state_alive(gen->state)) return; /* one ending already (a loaded tie that loops back) */
    const corral__meta *gm = corral__meta_of(s, gen);
    if (corral__co_sided(gm) && !corral__is_running(s, gen)) {
        corral__side *gs = corral__side_at(s, gm);
        const corral__list gl = {&gs->joiners_head, &gs->joiners_tail};
        for (uint32_t k = gs->joiners_head; k != CORRAL__NIL;) {
            const uint32_t next = N[k].next;
            if (N[k].kind == CORRAL__NODE_OWNED) { /* still attached, to this list now */
                corral__list_unlink(s, gl, k);
                N[k].u.t.target = corral__global_of(s, owner);
                corral__list_push(s, l, k);
            }
            k = next;
        }
    }
    corral__stop_co(s, gen, why == CORRAL_END_DESTROYED ? CORRAL_END_DESTROYED : CORRAL_END_PARENT_STOPPED);
}

static corral_handle corral__gen_start(const char *call, corral_sched *s, const corral_type *vt, const void *ctx,
                                       size_t ctx_size, const corral_start_desc *opts)
{
    corral_handle h = {0, 0};
    if (!corral__check_in(s, call) || !corral__part_needed(call, s, NULL, s->parts.feature[CORRAL__FEATURE_PULLS], "pulls")) return h;
    const uint64_t owner = opts ? opts->owner : 0;
    const uint32_t tags = opts ? opts->tags : 0, domain = opts ? opts->domain : 0;
    CORRAL__REQUIRE_AT(s, !opts || (opts->phase == CORRAL_PHASE_DEFAULT && opts->single == CORRAL_SINGLE_NONE),
                       CORRAL_ERR_BAD_START, call, CORRAL__NOH, NULL,
                       "a generator lives in no phase and has no single mode: give it an owner, tags, a domain", h);
    CORRAL__REQUIRE_AT(s, domain < corral__domains_of(s)->count, CORRAL_ERR_BAD_DOMAIN, call, CORRAL__NOH, NULL, NULL, h);
    corral_co *by = corral__gen_owner(s);
    if (by) { /* its tie to its owner: a wait node and both side records, before anything is taken */
        if (s->nodes.wait_free_count == 0) {
            s->nodes.wait_failures++;
            corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, call, CORRAL__NOH, by,
                            "a generator started in a step takes a wait node: its tie to the coroutine it belongs to");
            return h;
        }
        const uint32_t sides = 1u + (!corral__co_sided(corral__meta_of(s, by)) ? 1u : 0u);
        if (s->sides.free_count < sides) {
            s->sides.failures++;
            corral__fail_at(s, NULL, CORRAL_ERR_SIDE_POOL_EXHAUSTED, call, CORRAL__NOH, by,
                            "a generator started in a step and its owner take a side record each");
            return h;
        }
    } else if (domain && !(owner | tags) && !corral__sides_room(call, s, NULL, "none for the generator's time domain")) {
        return h; /* its domain's record, before anything is taken */
    }
    corral__meta *m;
    corral_co *co = corral__create(call, s, vt, ctx, ctx_size, CORRAL__PH_UPDATE, owner, tags, &h, &m);
    if (!co) return (corral_handle){0, 0};
    corral__co_domain_put(call, s, m, domain); /* a record free: checked above */
    corral__hold(co, m, CORRAL__HOLD_GENERATOR); /* in no lane: only a pull steps it */
    if (by) corral__gen_own(s, co, by);
    return h;
}

corral_handle corral_generator_start(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size)
{
    return corral__gen_start(__func__, s, vt, ctx, ctx_size, NULL);
}

corral_handle corral_generator_start_ex(corral_sched *s, const corral_type *vt, const void *ctx, size_t ctx_size,
                                        const corral_start_desc *opts)
{
    return corral__gen_start(__func__, s, vt, ctx, ctx_size, opts);
}

/* where generator gen's tie to its owner is on its chain (NULL: none, it is the game's) */
static uint32_t *corral__tie_at(corral_sched *s, const corral_co *gen)
{
    const corral__meta *m = corral__meta_of(s, gen);
    if (!corral__co_sided(m)) return NULL;
    corral__node *N = corral__nodes(s);
    uint32_t *at = &corral__side_at(s, m)->groups;
    for (uint32_t len = 0; *at != CORRAL__NIL && len < CORRAL__GROUP_CHAIN_MAX; at = &N[*at].sibling, len++)
        if (N[*at].kind == CORRAL__NODE_OWNED) return at;
    return NULL;
}

bool corral_generator_give(corral_sched *s, corral_handle h, corral_handle owner)
{
    corral_co *gen = corral__live(__func__, s, h);
    if (!gen) return false;
    CORRAL__REQUIRE_AT(s, corral__paused(gen->state) && (corral__co_hold(gen, corral__meta_of(s, gen)) & CORRAL__HOLD_GENERATOR),
                       CORRAL_ERR_NOT_PAUSED, __func__, h, NULL,
                       "not a generator (corral_generator_start), or its step is running", false);
    corral_co *by = NULL;
    if (owner.index || owner.gen) {
        corral_error err;
        by = corral__resolve(s, owner, &err);
        if (!by) {
            corral__fail_at(s, NULL, err, __func__, owner, NULL, "the new owner is not a live coroutine");
            return false;
        }
        CORRAL__REQUIRE_AT(s, by != gen, CORRAL_ERR_CYCLIC_WAIT, __func__, owner, NULL,
                           "a generator cannot belong to itself", false);
        /* the new owner's own owners, up the ties: gen among them would be a cycle */
        const corral__node *N = corral__nodes(s);
        const uint32_t *up = corral__tie_at(s, by);
        for (uint32_t hops = 0; up && hops <= s->arena.live; hops++) {
            corral_co *o = corral__co_of_global(s, N[*up].u.t.target);
            CORRAL__REQUIRE_AT(s, o != gen, CORRAL_ERR_CYCLIC_WAIT, __func__, owner, NULL,
                               "the new owner belongs to the generator (directly or through others): a cycle",
                               false);
            up = corral__tie_at(s, o);
        }
    }
    uint32_t *at = corral__tie_at(s, gen);
    corral__node *N = corral__nodes(s);
    if (at && by && N[*at].u.t.target == corral__global_of(s, by)) return true; /* its owner already */
    if (by) { /* what the tie takes, before anything changes */
        const uint32_t sides = (!corral__co_sided(corral__meta_of(s, by)) ? 1u : 0u) +
                               (!corral__co_sided(corral__meta_of(s, gen)) ? 1u : 0u);
        if (!at && s->nodes.wait_free_count == 0) {
            s->nodes.wait_failures++;
            corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, __func__, h, NULL,
                            "a generator that belongs to a coroutine takes a wait node: its tie");
            return false;
        }
        if (s->sides.free_count < sides) {
            s->sides.failures++;
            corral__fail_at(s, NULL, CORRAL_ERR_SIDE_POOL_EXHAUSTED, __func__, h, NULL,
                            "a generator and its owner take a side record each");
            return false;
        }
    }
    if (at) { /* off its owner's joiners list; with no new owner, off its chain */
        const uint32_t i = *at;
        corral__detach(s, i);
        if (!by) {
            *at = N[i].sibling;
            corral__node_free(s, i);
            return true;
        }
        corral__side *bs = corral__side_take(__func__, s, corral__meta_of(s, by));
        N[i].u.t.target = corral__global_of(s, by);
        N[i].attached = 1;
        N[i].order = s->nodes.order++;
        corral__list_push(s, (corral__list){&bs->joiners_head, &bs->joiners_tail}, i);
        return true;
    }
    if (by) corral__gen_own(s, gen, by);
    return true;
}

/* a pull of generator h: what it gave (NOT_YET: it waits, NOT_READY set,
   not logged: pull again later) */
corral_got corral__generator_pull(const char *call, corral_sched *s, corral_handle h, void *out, size_t out_size)
{
    corral_co *co = corral__live(call, s, h);
    if (!co) return CORRAL_GOT_ERROR;
    corral__meta *m = corral__meta_of(s, co);
    const corral__type_entry *te = &corral__types(s)[co->type];
    CORRAL__REQUIRE_AT(s, corral__paused(co->state) && (corral__co_hold(co, m) & CORRAL__HOLD_GENERATOR), CORRAL_ERR_NOT_PAUSED,
                       call, h, NULL, "not a generator (corral_generator_start), or its step is running",
                       CORRAL_GOT_ERROR);
    if (!(out || !out_size) || out_size != te->vt->result_size) {
        char why[128];
        const char *name = te->vt->name ? te->vt->name : "?";
        if (out)
            snprintf(why, sizeof why, "%s %lu-byte destination for the %u-byte values of %s", corral__a(out_size),
                     (unsigned long)out_size, te->vt->result_size, name);
        else
            snprintf(why, sizeof why, "no destination (NULL) for the %u-byte values of %s", te->vt->result_size, name);
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_DEST, call, h, NULL, why);
        return CORRAL_GOT_ERROR;
    }
    const corral_got got = corral__gen_ready(co, m) ? corral__gen_step(s, co, m) : CORRAL_GOT_NOT_YET;
    if (got == CORRAL_GOT_NOT_YET) s->last_error = CORRAL_ERR_NOT_READY;
    if (got == CORRAL_GOT_VALUE && out_size)
        memcpy(out, CORRAL__AT(co, te->ctx_off + te->vt->result_offset), out_size);
    return got;
}

bool corral_generator_next(corral_sched *s, corral_handle h, void *out, size_t out_size)
{
    return corral__check(s) && corral__generator_pull(__func__, s, h, out, out_size) == CORRAL_GOT_VALUE;
}

corral_got corral_generator_take(corral_sched *s, corral_handle h, void *out, size_t out_size)
{
    return corral__check(s) ? corral__generator_pull(__func__, s, h, out, out_size) : CORRAL_GOT_ERROR;
}

/* Step a paused coroutine once, at once (corral_step_once). */
static void corral__step_held(corral_sched *s, corral_co *co, corral__meta *m)
{
    corral__step_now(s, co, m);
}

bool corral_step_once(corral_sched *s, corral_handle h)
{
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    CORRAL__REQUIRE_AT(s, corral__paused(co->state), CORRAL_ERR_NOT_PAUSED, __func__, h, NULL, NULL, false);
    corral__meta *m = corral__meta_of(s, co);
    if (corral__calling(s, m)) { /* its child runs on; stepping it would abandon that */
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, h, NULL, "it awaits a child: step the child");
        return false;
    }
    if (corral__co_hold(co, m) & CORRAL__HOLD_GENERATOR) { /* one pull, its value dropped */
        if (corral__gen_ready(co, m)) (void)corral__gen_step(s, co, m);
        return true;
    }
    corral__release_wait(s, co); /* one step, whatever it waited on */
    corral__co_hold_set(co, m, 0);
    corral__step_held(s, co, m);
    if (corral__state_alive(co->state) && !corral__paused(co->state)) corral__pause_co(s, co);
    return true;
}

/* ---- a coroutine that waits for a generator's next value: a PULL node
   on the generator's joiners list (calls.c's, which fires it when the
   generator ends), fired too when the generator's own wait ends */
static int corral__pull_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    corral_error err;
    corral_co *g = corral__resolve(s, w->co, &err);
    if (!g) { /* gone before the wait: over at once, ERROR, as a take of it */
        corral__fail_at(s, NULL, err, call, w->co, co, "a wait to pull a generator that had ended");
        corral__co_stop_why_add(corral__meta_of(s, co), CORRAL__WAIT_CLOSED | CORRAL__GOT_ERROR);
        return 1;
    }
    const corral__meta *gm = corral__meta_of(s, g);
    CORRAL__REQUIRE_AT(s, g != co && corral__paused(g->state) && (corral__co_hold(g, gm) & CORRAL__HOLD_GENERATOR),
                       CORRAL_ERR_BAD_WAIT, call, w->co, co, "a pull waits for a generator that is not its own step", -1);
    if (corral__gen_ready(g, gm)) return 1;
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
    n->list = 0; /* 1: CORRAL_PULL's own wait (corral_generator_pull marks it) */
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
    n->list = w->list ? 1u : 0u;
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
    corral__side *sd = corral__side_at(s, corral__meta_of(s, gen));
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
static const corral__pulls_part corral__pulls_table = {corral__pullers_wake, corral__owned_end};
/* its state: the pulls on the C stack (corral__pulled), none at create */
static uint64_t corral__pulled_region(const corral_sched_desc *d)
{
    (void)d;
    return CORRAL_MAX_PULL_DEPTH * sizeof(uint32_t);
}
static void corral__pulled_init(corral_sched *s, const corral_sched_desc *d, uint32_t at)
{
    (void)d;
    (void)at; /* s->parts.state[CORRAL__STATE_PULLS - 1]: corral__pulled */
    memset(corral__pulled(s), 0, CORRAL_MAX_PULL_DEPTH * sizeof(uint32_t));
}
/* a generator's end fires its list (calls.c); one owned by a coroutine
   leaves its chain (groups.c) */
const corral_part corral_part_pulls = {
    .needs = {&corral_part_calls, &corral_part_groups},
    .waits = {{CORRAL_WAIT_PULL, CORRAL_WAIT_PULL, &corral__pull_part}},
    .feature = CORRAL__FEATURE_PULLS,
    .table = &corral__pulls_table,
    .state = CORRAL__STATE_PULLS,
    .align = 8,
    .bytes = corral__pulled_region,
    .init = corral__pulled_init,
};

corral_wait corral_wait_pull(corral_handle h)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_PULL);
    w.co = h;
    return w;
}

bool corral_generator_pull(corral_co *co, corral_handle h, void *out, size_t out_size)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    if (!s || !corral__part_needed(__func__, s, NULL, s->parts.feature[CORRAL__FEATURE_PULLS], "pulls")) return false;
    corral__meta *m = corral__meta_of(s, co);
    const uint8_t told = (uint8_t)(corral__co_stop_why(m) & (CORRAL__WAIT_CLOSED | CORRAL__GOT_MASK));
    corral__co_stop_why_clear(m, (CORRAL__WAIT_CLOSED | CORRAL__GOT_MASK));
    corral_error err;
    if ((told == CORRAL__GOT_PULL_FINISHED || told == CORRAL__GOT_PULL_STOPPED) && !corral__resolve(s, h, &err)) {
        /* it ended while this pull waited: its end said how (calls.c); any other wait's answer is not this one's */
        corral__co_stop_why_add(m, (uint8_t)(told == CORRAL__GOT_PULL_FINISHED ? CORRAL__WAIT_CLOSED
                                                                   : CORRAL__WAIT_CLOSED | CORRAL__GOT_STOPPED));
        return false;
    }
    const corral_got got = corral__generator_pull(__func__, s, h, out, out_size);
    /* the generator's step stopped this coroutine: its stop_why's low bits
       hold the reason it ends with, the answer bits stay its own; a pull
       that gave nothing does not wait (its body goes on to its next yield) */
    if (co->state == CORRAL__STOPPING && got == CORRAL_GOT_NOT_YET) {
        corral__co_stop_why_add(m, CORRAL__GOT_NOTHING);
        return false;
    }
    switch (got) {
    case CORRAL_GOT_VALUE: return false; /* a value: go on */
    case CORRAL_GOT_CLOSED: corral__co_stop_why_add(m, CORRAL__WAIT_CLOSED); return false;
    case CORRAL_GOT_STOPPED: corral__co_stop_why_add(m, CORRAL__WAIT_CLOSED | CORRAL__GOT_STOPPED); return false;
    case CORRAL_GOT_ERROR: corral__co_stop_why_add(m, CORRAL__WAIT_CLOSED | CORRAL__GOT_ERROR); return false;
    case CORRAL_GOT_NOT_YET: break;
    }
    if (corral__co_stop_requested(co, m)) { /* asked to stop: a pull does not wait any more */
        corral__co_stop_why_add(m, CORRAL__GOT_NOTHING);
        return false;
    }
    if (!corral_await(co, corral_wait_pull(h))) return false; /* pull again (or malformed) */
    if (corral__co_mode(s, co, m) == CORRAL__MODE_ONE && corral__co_wait(s, co, m) != CORRAL__NIL)
        corral__nodes(s)[corral__co_wait(s, co, m)].list = 1; /* its own wait: the generator's end is told to this pull alone */
    return true;
}
