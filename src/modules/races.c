/*
    races.c -- races and syncs: a coroutine starts several children, each
    an arm (a node on its wait chain naming the child and where its result
    goes), and waits for the first of them to end (a race: the others end
    with LOST_RACE) or for the last (a sync). corral_race_begin ..
    corral_arms_start; the arms are children as a call's is (calls.c),
    and the end of one comes back here through the table races hand to
    calls.c when the first race or sync begins.
*/
#include "../corral_internal.h"
#include "../core/arena.h"

#include <string.h>


static bool corral__arms_begin(const char *call, corral_co *co, uint8_t kind)
{
    corral_sched *s = corral__in_step(call, co, false);
    if (!s || !corral__part_needed(call, s, NULL, s->parts.feature[CORRAL__FEATURE_RACES], "races")) return false;
    corral__meta *m = corral__meta_of(s, co);
    CORRAL__REQUIRE_AT(s, !corral__calling(s, m) && !(corral__co_mode(s, co, m) & CORRAL__MODE_OPEN), CORRAL_ERR_BAD_WAIT, call,
                       CORRAL__NOH, co, "it awaits a child already", false);
    if (corral__co_wait(s, co, m) != CORRAL__NIL || co->state == CORRAL__WAITING) corral__unwait(s, co); /* replaces an await */
    corral__wait_open(co); /* its arms chain in its link */
    co->flags = (uint8_t)(co->flags | CORRAL__ARMS_OPEN_FLAGS); /* until corral_arms_start */
    corral__side *sd = corral__side_take(call, s, m); /* the arms' count, the winner, the outcome, the mode */
    if (!sd) { /* its arms start none; it goes on with outcome NONE */
        co->link = CORRAL__ARMS_NO_SIDE;
        return false;
    }
    sd->mode = (uint8_t)(CORRAL__MODE_OPEN | kind);
    sd->pending = 0; /* arms so far */
    sd->fired = -1;
    sd->outcome = CORRAL_END_NONE;
    /* races nest at most CORRAL_MAX_RACE_DEPTH deep: ending one ends its
       arms' races in turn, a C frame a level */
    uint32_t races = 1;
    for (uint32_t g = sd->parent; g != CORRAL__NIL && races <= CORRAL_MAX_RACE_DEPTH;) {
        const corral__meta *pm = corral__meta_of(s, corral__co_of_global(s, g));
        uint8_t k = corral__side_of(s, pm)->mode & CORRAL__MODE_KIND;
        races += k == CORRAL__MODE_RACE || k == CORRAL__MODE_SYNC;
        g = corral__side_of(s, pm)->parent;
    }
    if (races > CORRAL_MAX_RACE_DEPTH) {
        corral__fail_at(s, NULL, CORRAL_ERR_RACE_DEPTH, call, CORRAL__NOH, co, NULL);
        corral__co_mode_set(s, m, corral__co_mode(s, co, m) | CORRAL__MODE_BAD); /* its arms start none; it goes on with outcome NONE */
        return false;
    }
    return true;
}
bool corral_race_begin(corral_co *co) { return corral__arms_begin(__func__, co, CORRAL__MODE_RACE); }
bool corral_sync_begin(corral_co *co) { return corral__arms_begin(__func__, co, CORRAL__MODE_SYNC); }

bool corral_arm(corral_co *co, const corral_type *vt, const void *ctx, size_t ctx_size, void *dest, size_t dest_size)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    /* without the part no race is open: the begin was refused for it */
    if (!s || !corral__part_needed(__func__, s, NULL, s->parts.feature[CORRAL__FEATURE_RACES], "races")) return false;
    corral__meta *m = corral__meta_of(s, co);
    CORRAL__REQUIRE_AT(s, corral__co_mode(s, co, m) & CORRAL__MODE_OPEN, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co,
                       "an arm outside CORRAL_RACE / CORRAL_SYNC", false);
    if (corral__co_mode(s, co, m) & (CORRAL__MODE_BAD | CORRAL__MODE_NO_NODE)) return false; /* an arm before failed: none starts */
    corral__side *sd = corral__side_at(s, m); /* the begin took it */
    uint32_t dest_off;
    if (sd->pending >= CORRAL_MAX_GROUP) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co, "more than CORRAL_MAX_GROUP arms");
        corral__co_mode_set(s, m, corral__co_mode(s, co, m) | CORRAL__MODE_BAD);
        return false;
    }
    if (!corral__dest_of(__func__, s, co, vt, dest, dest_size, &dest_off)) {
        corral__co_mode_set(s, m, corral__co_mode(s, co, m) | CORRAL__MODE_BAD);
        return false;
    }
    if (s->nodes.wait_free_count == 0) { /* first: a child made without its node would be lost */
        s->nodes.wait_failures++;
        corral__fail_at(s, NULL, CORRAL_ERR_WAIT_POOL_EXHAUSTED, __func__, CORRAL__NOH, co, NULL);
        corral__co_mode_set(s, m, corral__co_mode(s, co, m) | CORRAL__MODE_NO_NODE);
        return false;
    }
    corral_co *child = corral__child_of(__func__, s, co, vt, ctx, ctx_size);
    if (!child) {
        corral__co_mode_set(s, m, corral__co_mode(s, co, m) | CORRAL__MODE_BAD);
        return false;
    }
    uint32_t i = corral__node_alloc(s);
    corral__node *N = corral__nodes(s), *n = &N[i];
    n->co = corral__co_off(s, co);
    n->kind = CORRAL__NODE_ARM;
    n->member = (uint8_t)sd->pending++;
    n->order = s->nodes.order++;
    n->u.t.target = corral__global_of(s, child);
    n->u.t.seq = dest_off;
    uint32_t *at = corral__co_wait_at(co, m); /* in arm order */
    while (*at != CORRAL__NIL) at = &N[*at].sibling;
    *at = i;
    corral__ready_push(s, child); /* its first step: right after this step returns */
    return true;
}

/* The arms' children, in arm order, those still running (by global slot),
   and the chain back to the pool. */
static uint32_t corral__arms_take(corral_sched *s, corral_co *co, uint32_t kids[CORRAL_MAX_GROUP])
{
    corral__meta *m = corral__meta_of(s, co);
    const corral__node *N = corral__nodes(s);
    uint32_t n = 0;
    for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling)
        if (N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target != CORRAL__NIL && n < CORRAL_MAX_GROUP)
            kids[n++] = N[i].u.t.target;
    corral__release_wait(s, co);
    return n;
}

/* End the children kids[0..n) of co that are still its own (why). */
static void corral__arms_stop(corral_sched *s, const corral_co *co, const uint32_t *kids, uint32_t n,
                              corral_end_reason why)
{
    const uint32_t g = corral__global_of(s, co);
    for (uint32_t k = 0; k < n; k++) {
        corral_co *child = corral__co_of_global(s, kids[k]);
        corral__meta *cm = corral__meta_of(s, child);
        if (!corral__state_alive(child->state) || corral__side_of(s, cm)->parent != g) continue; /* ended meanwhile (a cleanup hook) */
        corral__side_at(s, cm)->parent = CORRAL__NIL; /* it must not decide anything for co */
        corral__stop_co(s, child, why);
    }
}

static void corral__racer_ends(corral_sched *s, corral_co *co, corral__meta *m, corral_end_reason why)
{
    (void)m;
    uint32_t kids[CORRAL_MAX_GROUP];
    uint32_t n = corral__arms_take(s, co, kids);
    corral__arms_stop(s, co, kids, n, why == CORRAL_END_DESTROYED ? why : CORRAL_END_PARENT_STOPPED);
}

bool corral_arms_start(corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, false);
    if (!s || !corral__part_needed(__func__, s, NULL, s->parts.feature[CORRAL__FEATURE_RACES], "races")) return false;
    corral__meta *m = corral__meta_of(s, co);
    CORRAL__REQUIRE_AT(s, corral__co_mode(s, co, m) & CORRAL__MODE_OPEN, CORRAL_ERR_BAD_WAIT, __func__, CORRAL__NOH, co,
                       "no CORRAL_RACE / CORRAL_SYNC begun", false);
    co->flags = (uint8_t)(co->flags & ~CORRAL__ARMS_OPEN_FLAGS); /* the race is this step's last await */
    const uint8_t mode = corral__co_mode(s, co, m);
    const uint8_t kind = mode & CORRAL__MODE_KIND, failed = mode & (CORRAL__MODE_BAD | CORRAL__MODE_NO_NODE);
    if (failed || corral__side_of(s, m)->pending == 0) { /* none starts: the arms made end unstepped */
        uint32_t kids[CORRAL_MAX_GROUP];
        uint32_t n = corral__arms_take(s, co, kids);
        if (co->link == CORRAL__ARMS_NO_SIDE) co->link = CORRAL__NIL;
        if (co->state == CORRAL__QUEUED) corral__unchained(s, co); /* walked: its lane entry back in its link */
        corral__arms_stop(s, co, kids, n, CORRAL_END_PARENT_STOPPED);
        if (corral__co_sided(m)) { /* none when the begin found no side record */
            corral__side *sd = corral__side_at(s, m);
            sd->fired = -1;
            sd->outcome = (uint8_t)(!failed && kind == CORRAL__MODE_SYNC ? CORRAL_END_FINISHED : CORRAL_END_NONE);
        }
        if (failed & CORRAL__MODE_NO_NODE) { /* it cannot wait: it ends (see corral_await) */
            corral__stop_co(s, co, CORRAL_END_WAIT_FAILED);
            return true;
        }
        return false;
    }
    corral__co_mode_set(s, m, kind);
    corral__park(co);
    return true;
}

/* Its step returned between corral_race_begin and corral_arms_start: the
   race ends unstarted (its arms made end unstepped), its link is no chain
   (its landing or hold that follows sets it), BAD_WAIT names the misuse. */
static void corral__arms_abandon(corral_sched *s, corral_co *co)
{
    co->flags = (uint8_t)(co->flags & ~CORRAL__ARMS_OPEN_FLAGS);
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_WAIT, "corral_arms_start", CORRAL__NOH, co,
                    "never called: the step returned with its race or sync begun");
    uint32_t kids[CORRAL_MAX_GROUP];
    uint32_t n = corral__arms_take(s, co, kids);
    co->link = CORRAL__NIL;
    corral__arms_stop(s, co, kids, n, CORRAL_END_PARENT_STOPPED);
    corral__meta *m = corral__meta_of(s, co);
    if (corral__co_sided(m)) { /* none when the begin found no side record */
        corral__side *sd = corral__side_at(s, m);
        sd->fired = -1;
        sd->outcome = CORRAL_END_NONE;
    }
}

int corral_race_winner(const corral_co *co)
{
    return corral_wait_fired(co);
}

/* An arm's child ends (why): a sync counts down; a race is decided, its
   other arms end (LOST_RACE). The caller resumes in the run this happens. */
static void corral__arm_end(corral_sched *s, corral_co *p, corral__meta *pm, corral_co *co,
                            const corral__type_entry *te, corral_end_reason why)
{
    corral__node *N = corral__nodes(s);
    const uint32_t g = corral__global_of(s, co);
    uint32_t i = corral__co_wait(s, p, pm);
    while (i != CORRAL__NIL && !(N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target == g)) i = N[i].sibling;
    if (i == CORRAL__NIL) return;
    corral__side *ps = corral__side_at(s, pm); /* a racer has one */
    N[i].u.t.target = CORRAL__NIL;
    if (why == CORRAL_END_FINISHED && te->vt->result_size && N[i].u.t.seq != CORRAL__NIL)
        memcpy(CORRAL__AT(p, N[i].u.t.seq), CORRAL__AT(co, te->ctx_off + te->vt->result_offset), te->vt->result_size);
    if (corral__co_mode(s, p, pm) == CORRAL__MODE_SYNC) {
        if (why != CORRAL_END_FINISHED && ps->outcome == CORRAL_END_NONE) ps->outcome = (uint8_t)why;
        if (--ps->pending > 0) return;
        if (ps->outcome == CORRAL_END_NONE) ps->outcome = CORRAL_END_FINISHED;
        corral__release_wait(s, p);
        if (p->state == CORRAL__WAITING || corral__paused(p->state)) corral__wake(s, p, true);
        return;
    }
    ps->fired = (int8_t)N[i].member;
    ps->outcome = (uint8_t)why;
    uint32_t kids[CORRAL_MAX_GROUP];
    uint32_t n = corral__arms_take(s, p, kids);
    /* woken first: a loser's cleanup hook that stops the caller finds it queued */
    if (p->state == CORRAL__WAITING || corral__paused(p->state)) corral__wake(s, p, true);
    corral__arms_stop(s, p, kids, n, (s->flags & CORRAL__DESTROYING) ? CORRAL_END_DESTROYED : CORRAL_END_LOST_RACE);
}

/* ---- save games: an arm keeps its child (NIL: ended) by its saved index
   and where its result goes by field name */
static void corral__arm_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    uint32_t byte = 0, field = n->u.t.seq == CORRAL__NIL ? CORRAL__NIL
                                                         : corral__field_at(te->vt, n->u.t.seq - te->ctx_off, &byte);
    corral__put_u(io, n->u.t.target == CORRAL__NIL ? CORRAL__NIL : corral__save_ref(s, n->u.t.target), 4);
    corral__put_u(io, field, 4);
    corral__put_u(io, byte, 4);
}
static void corral__arm_read(corral__io *io, corral__lwait *w)
{
    w->ref = (uint32_t)corral__get_u(io, 4); /* its child, or NIL */
    w->user = corral__get_u(io, 4);          /* its result's field, or NIL */
    w->seq = (uint32_t)corral__get_u(io, 4);
}
/* in no container: arms chain in arm order, from the head to the tail */
static void corral__arm_load(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)held;
    corral_sched *s = v->s;
    corral__meta *m = corral__meta_of(s, co);
    corral__node *N = corral__nodes(s), *n = &N[i];
    corral__co_wait_set(co, m, n->sibling);
    n->sibling = CORRAL__NIL;
    uint32_t *tail = corral__co_wait_at(co, m);
    while (*tail != CORRAL__NIL) tail = &N[*tail].sibling;
    *tail = i;
    n->attached = 0;
    n->u.t.target = w->ref == CORRAL__NIL ? CORRAL__NIL : v->slot(v->L, w->ref);
    n->u.t.seq = w->user == CORRAL__NIL ? CORRAL__NIL : v->te->ctx_off + v->dest(v->L, v->type, (uint32_t)w->user, w->seq);
}
static const corral__wait_part corral__arm_table = {
    .seq_in_slot = true,
    .save = corral__arm_save,
    .read = corral__arm_read,
    .place = corral__arm_load,
};

static const corral__race_part corral__races_table = {corral__racer_ends, corral__arm_end, corral__arms_abandon};
/* its arms are children: their ends go through calls.c */
const corral_part corral_part_races = {
    .needs = {&corral_part_calls},
    .feature = CORRAL__FEATURE_RACES,
    .table = &corral__races_table,
    .arm = &corral__arm_table,
};
