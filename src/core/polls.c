/*
    polls.c -- the waits on a predicate (until, while): one list per phase,
    polled at the start of each run of that phase, and one per phase for
    the next frame (a predicate awaited in a first step is not polled in the
    frame it began in: the resume contract, docs/API.md).

    A node's `list` says which list it is on (CORRAL__PRED_*). What a fired
    node wakes is the waits' (waits.c). A feature of the core: its tables
    arrive with corral_wait_until or corral_wait_while (corral__polls_use),
    and the frame reaches it only through them.
*/
#include "../corral_internal.h"

/* 1: the predicate holds now; 0: it must be polled; -1: no predicate, or
   an argument its registration does not take */
static int corral__poll_ready(const char *call, corral_sched *s, corral_co *co, const corral_wait *w)
{
    CORRAL__REQUIRE_AT(s, w->fn, CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co, NULL, -1);
    CORRAL__REQUIRE_AT(s, corral__predicate_arg_ok(s, w->fn, w->user), CORRAL_ERR_BAD_WAIT, call, CORRAL__NOH, co,
                       "its predicate takes NULL or a context's address (desc.predicates), and was given another "
                       "address",
                       -1);
    return w->fn(w->user) == (w->kind == CORRAL_WAIT_UNTIL);
}

/* a phase's list, the one being polled, or a phase's list for the next frame */
static corral__list corral__poll_list(corral_sched *s, const corral__node *n)
{
    corral__list l;
    if (n->list == CORRAL__PRED_POLL) {
        l.head = &s->polls.poll_head;
        l.tail = &s->polls.poll_tail;
    } else if (n->list >= CORRAL__PRED_NEXT) {
        l.head = &s->polls.next_head[n->list - CORRAL__PRED_NEXT];
        l.tail = &s->polls.next_tail[n->list - CORRAL__PRED_NEXT];
    } else {
        l.head = &s->polls.head[n->list];
        l.tail = &s->polls.tail[n->list];
    }
    return l;
}

/* fn's place in desc.predicates (or, fn NULL, id's), or NIL */
static uint32_t corral__predicate_at(const corral_predicate_registry *pr, corral_predicate fn, uint32_t id)
{
    for (uint32_t q = 0; pr && q < pr->count; q++)
        if (fn ? pr->fns[q] == fn : pr->ids[q] == id) return q;
    return CORRAL__NIL;
}
static bool corral__predicate_takes_number(const corral_predicate_registry *pr, uint32_t q)
{
    return pr->args && pr->args[q] == CORRAL_PREDICATE_NUMBER;
}

int corral__predicate_arg_kind(const corral_predicate_registry *pr, corral_predicate fn)
{
    const uint32_t q = corral__predicate_at(pr, fn, 0);
    if (q == CORRAL__NIL) return -1;
    return corral__predicate_takes_number(pr, q) ? CORRAL_PREDICATE_NUMBER : CORRAL_PREDICATE_CONTEXT;
}

bool corral__predicate_takes_address(const corral_sched *s, corral_predicate fn)
{
    return corral__predicate_arg_kind(s->types.predicates, fn) == CORRAL_PREDICATE_CONTEXT;
}

/* the live coroutine whose context holds address user, and where in its
   context (*at); NULL: none */
static const corral_co *corral__arg_holder(const corral_sched *s, const void *user, uint32_t *at)
{
    const corral_co *o = corral__co_holding(s, user);
    if (!o) return NULL;
    const corral__type_entry *te = &corral__types(s)[o->type];
    const uint32_t in = (uint32_t)((const unsigned char *)user - (const unsigned char *)o); /* within its slot */
    if (!corral__ctx_holds(te, in, 1)) return NULL;
    *at = in - te->ctx_off;
    return o;
}

bool corral__predicate_arg_ok(const corral_sched *s, corral_predicate fn, const void *user)
{
    uint32_t at;
    return !user || !corral__predicate_takes_address(s, fn) || corral__arg_holder(s, user, &at);
}

bool corral__predicate_known(const corral_sched *s, corral_predicate fn)
{
    for (uint32_t q = 0; q < s->types.seen_count; q++) /* first: a wait's usual answer, in 16 compares at most */
        if (s->types.seen[q] == fn) return true;
    return corral__predicate_at(s->types.predicates, fn, 0) != CORRAL__NIL;
}

/* polled at the runs of its phase after this one, as a plain yield resumes
   (corral__land): from a first step, not in this frame */
static void corral__poll_arm(corral_sched *s, corral_co *co, uint32_t i, const corral_wait *w)
{
    corral__node *n = &corral__nodes(s)[i];
    if (s->types.seen_count < CORRAL__SEEN_PREDICATES && !corral__predicate_known(s, w->fn))
        s->types.seen[s->types.seen_count++] = w->fn;
    uint32_t ph = co->flags & CORRAL__PHASE_MASK;
    n->u.p.fn = w->fn;
    n->u.p.user = w->user;
    n->list = (uint8_t)ph;
    if ((co->flags & CORRAL__FIRST_FLAG) && corral__run_to_come(s, ph)) {
        n->list = (uint8_t)(CORRAL__PRED_NEXT + ph);
        s->polls.next_pending = 1;
    }
    corral__list_push(s, corral__poll_list(s, n), i);
}

/* paused: off its list (a held predicate is not polled) */
static void corral__poll_hold(corral_sched *s, uint32_t i)
{
    corral__list_unlink(s, corral__poll_list(s, &corral__nodes(s)[i]), i);
}

/* resumed from a pause: back on its phase's list */
static void corral__poll_unhold(corral_sched *s, const corral_co *co, uint32_t i)
{
    corral__node *n = &corral__nodes(s)[i];
    n->list = (uint8_t)(co->flags & CORRAL__PHASE_MASK);
    corral__list_push(s, corral__poll_list(s, n), i);
}

/* ---- save games: its predicate by its id in desc.predicates, then its
   argument as its registration declares it (never an address): nothing,
   a place in a context (coroutine, field, byte) or a number */
enum { CORRAL__ARG_NONE, CORRAL__ARG_PLACE, CORRAL__ARG_NUMBER, CORRAL__ARG_ADDRESS /* format 5 and before */ };

/* a saved argument: its predicate's id, its kind, and for a place its
   coroutine, field and byte; NULL, or why it cannot be saved */
typedef struct corral__parg {
    uint32_t id, kind, field, byte;
    const corral_co *holder;
} corral__parg;
static const char *corral__poll_arg(const corral_sched *s, const corral__node *n, corral__parg *a)
{
    const corral_predicate_registry *pr = s->types.predicates;
    const uint32_t q = corral__predicate_at(pr, n->u.p.fn, 0);
    a->kind = CORRAL__ARG_NONE;
    if (q == CORRAL__NIL) return "waits on a predicate not in desc.predicates";
    a->id = pr->ids[q];
    if (corral__predicate_takes_number(pr, q)) {
        a->kind = CORRAL__ARG_NUMBER;
        return NULL;
    }
    if (!n->u.p.user) return NULL;
    uint32_t at;
    const corral_co *o = corral__arg_holder(s, n->u.p.user, &at);
    if (!o) return "waits on a predicate whose argument lies outside every coroutine's context (the coroutine "
                   "holding it ended?): a save carries no address";
    if ((a->field = corral__field_at(corral__types(s)[o->type].vt, at, &a->byte)) == CORRAL__NIL)
        return "waits on a predicate whose argument lies in a coroutine's context outside its fields";
    a->kind = CORRAL__ARG_PLACE;
    a->holder = o;
    return NULL;
}
static bool corral__poll_savable(const corral_sched *s, const corral__node *n, const char **why)
{
    corral__parg a;
    return (*why = corral__poll_arg(s, n, &a)) == NULL;
}
static void corral__poll_save(corral__io *io, const corral_sched *s, const corral__type_entry *te, const corral__node *n)
{
    (void)te;
    corral__parg a = {0, 0, 0, 0, NULL};
    corral__poll_arg(s, n, &a); /* savable: checked before anything was written */
    corral__put_u(io, a.id, 4);
    corral__put_u(io, a.kind, 1);
    if (a.kind == CORRAL__ARG_PLACE) {
        corral__put_u(io, corral__handle_of(s, a.holder).index, 4);
        corral__put_u(io, a.field, 4);
        corral__put_u(io, a.byte, 4);
    } else if (a.kind == CORRAL__ARG_NUMBER) {
        corral__put_u(io, (uint64_t)(uintptr_t)n->u.p.user, 8);
    }
}
static void corral__poll_read(corral__io *io, corral__lwait *w)
{
    w->ref = (uint32_t)corral__get_u(io, 4);
    if (io->version < 6) { /* the argument as a raw 64-bit value */
        w->user = corral__get_u(io, 8);
        w->arg = w->user ? CORRAL__ARG_ADDRESS : CORRAL__ARG_NONE;
        return;
    }
    w->arg = (uint8_t)corral__get_u(io, 1);
    if (w->arg == CORRAL__ARG_PLACE) {
        w->holder = (uint32_t)corral__get_u(io, 4);
        w->user = corral__get_u(io, 4); /* the field */
        w->seq = (uint32_t)corral__get_u(io, 4);
    } else if (w->arg == CORRAL__ARG_NUMBER) {
        w->user = corral__get_u(io, 8);
    }
}
static const char *corral__poll_check(const corral__lview *v, const corral__lwait *w)
{
    const corral_sched *s = v->s;
    const corral_predicate_registry *pr = s->types.predicates;
    const uint32_t q = corral__predicate_at(pr, NULL, w->ref);
    if (q == CORRAL__NIL) return "a coroutine of type %s waits on a predicate id not in desc.predicates%s";
    if (w->list >= CORRAL__PRED_NEXT + s->run.phases || w->list == CORRAL__PRED_POLL ||
        (w->list < CORRAL__PRED_POLL && w->list >= s->run.phases))
        return "a predicate of type %s is on no list%s";
    if (v->what) *v->what = pr->names ? pr->names[q] : "";
    const bool number = corral__predicate_takes_number(pr, q);
    switch (w->arg) {
    case CORRAL__ARG_NONE: return NULL;
    case CORRAL__ARG_NUMBER:
        if (!number) return "a coroutine of type %s waits on predicate %s, which takes no number (its registration)";
        return w->user > UINTPTR_MAX ? "a coroutine of type %s waits on predicate %s with a number too large here" : NULL;
    case CORRAL__ARG_ADDRESS: /* only read from saves before format 6 */
        if (v->version >= 6) return "a coroutine of type %s waits on predicate %s with an argument of no kind";
        if (number) return w->user > UINTPTR_MAX ? "a coroutine of type %s waits on predicate %s with a number too large here" : NULL;
        return "a coroutine of type %s waits on predicate %s with an address for its argument (a save before format 6): "
               "it cannot be loaded";
    case CORRAL__ARG_PLACE:
        if (number) return "a coroutine of type %s waits on predicate %s, which takes a number (its registration)";
        if (w->user > 0xFFFFFFFFu || v->place(v->L, w->holder, (uint32_t)w->user, w->seq) == CORRAL__NIL)
            return "a coroutine of type %s waits on predicate %s, whose argument's field has no place in this build";
        return NULL;
    default: return "a coroutine of type %s waits on predicate %s with an argument of no kind";
    }
}
static void corral__poll_load(const corral__lview *v, corral_co *co, uint32_t i, const corral__lwait *w, bool held)
{
    (void)co;
    corral_sched *s = v->s;
    corral__node *n = &corral__nodes(s)[i];
    n->u.p.fn = s->types.predicates->fns[corral__predicate_at(s->types.predicates, NULL, w->ref)];
    n->u.p.user = NULL;
    if (w->arg == CORRAL__ARG_PLACE)
        n->u.p.user = (unsigned char *)corral__co_of_global(s, v->slot(v->L, w->holder)) +
                      v->place(v->L, w->holder, (uint32_t)w->user, w->seq);
    else if (w->arg != CORRAL__ARG_NONE)
        n->u.p.user = (void *)(uintptr_t)w->user; /* a number: its registration says so */
    n->list = w->list;
    if (w->list >= CORRAL__PRED_NEXT) s->polls.next_pending = 1;
    if (!held) corral__list_push(s, corral__poll_list(s, n), i);
}

static const corral__wait_part corral__poll_part = {
    .ready = corral__poll_ready,
    .arm = corral__poll_arm,
    .list = corral__poll_list,
    .hold = corral__poll_hold,
    .unhold = corral__poll_unhold,
    .savable = corral__poll_savable,
    .save = corral__poll_save,
    .read = corral__poll_read,
    .check = corral__poll_check,
    .place = corral__poll_load,
};

static uint32_t corral__poll_predicates(corral_sched *s, uint32_t phase)
{
    /* Move the list aside and take nodes off it one by one: a predicate or
       a firing may detach others (all/any), and those then leave the side
       list through the usual unlink. */
    corral__node *N = corral__nodes(s);
    s->polls.poll_head = s->polls.head[phase];
    s->polls.poll_tail = s->polls.tail[phase];
    s->polls.head[phase] = s->polls.tail[phase] = CORRAL__NIL;
    for (uint32_t i = s->polls.poll_head; i != CORRAL__NIL; i = N[i].next) N[i].list = CORRAL__PRED_POLL;
    uint32_t woken = 0;
    corral__list side = {&s->polls.poll_head, &s->polls.poll_tail};
    corral__list home = {&s->polls.head[phase], &s->polls.tail[phase]};
    while (s->polls.poll_head != CORRAL__NIL) {
        uint32_t i = s->polls.poll_head;
        corral__list_unlink(s, side, i);
        bool v = N[i].u.p.fn(N[i].u.p.user);
        if (N[i].kind == CORRAL_WAIT_WHILE) v = !v;
        if (v) {
            corral__fire(s, i);
            woken++;
        } else {
            N[i].list = (uint8_t)phase;
            corral__list_push(s, home, i);
        }
    }
    return woken;
}

static void corral__predicates_next_frame(corral_sched *s)
{
    corral__node *N = corral__nodes(s);
    s->polls.next_pending = 0;
    for (uint32_t ph = 0; ph < s->run.phases; ph++) {
        uint32_t head = s->polls.next_head[ph];
        if (head == CORRAL__NIL) continue;
        for (uint32_t i = head; i != CORRAL__NIL; i = N[i].next) N[i].list = (uint8_t)ph;
        if (s->polls.tail[ph] != CORRAL__NIL) N[s->polls.tail[ph]].next = head;
        else s->polls.head[ph] = head;
        N[head].prev = s->polls.tail[ph];
        s->polls.tail[ph] = s->polls.next_tail[ph];
        s->polls.next_head[ph] = s->polls.next_tail[ph] = CORRAL__NIL;
    }
}

/* the state came from the block at polls.base: every argument that lay in
   that block (in a context: corral__predicate_arg_ok, or an unregistered
   predicate's) lies at the same place of this one; a number stays */
static void corral__polls_rebase(corral_sched *s)
{
    const uint64_t from = s->polls.base, to = (uint64_t)(uintptr_t)s;
    corral__node *N = corral__nodes(s);
    for (uint32_t i = 0; i < s->nodes.wait_bump; i++) { /* past the bump: never used */
        corral__node *n = &N[i];
        if (n->co == CORRAL__NIL || !corral__kind_is(n->kind, CORRAL__HOW_POLL)) continue;
        if (corral__predicate_arg_kind(s->types.predicates, n->u.p.fn) == CORRAL_PREDICATE_NUMBER) continue;
        const uint64_t a = (uint64_t)(uintptr_t)n->u.p.user;
        if (a >= from && a - from < s->total_bytes) n->u.p.user = (void *)(uintptr_t)(to + (a - from));
    }
    s->polls.base = to;
}

/* ---- the part's table and the constructors */
static const corral__polls_part corral__polls_table = {corral__poll_predicates, corral__predicates_next_frame,
                                                       corral__polls_rebase};
const corral_part corral_part_polls = {
    .waits = {{CORRAL_WAIT_UNTIL, CORRAL_WAIT_WHILE, &corral__poll_part}},
    .feature = CORRAL__FEATURE_POLLS,
    .table = &corral__polls_table,
};

/* A reload: predicate node i's function and argument in the new build (an
   argument in a context that moves, moved with its field) */
void corral__poll_rebind(corral_sched *s, uint32_t i, corral_predicate fn, void *user)
{
    corral__node *n = &corral__nodes(s)[i];
    n->u.p.fn = fn;
    n->u.p.user = user;
}

static corral_wait corral__predicate_wait(corral_wait_kind kind, corral_predicate fn, void *user)
{
    corral_wait w = corral__wait_of(kind);
    w.fn = fn;
    w.user = user;
    return w;
}
corral_wait corral_wait_until(corral_predicate fn, void *user) { return corral__predicate_wait(CORRAL_WAIT_UNTIL, fn, user); }
corral_wait corral_wait_while(corral_predicate fn, void *user) { return corral__predicate_wait(CORRAL_WAIT_WHILE, fn, user); }
