/*
    domains.c -- time domains: desc.domains clocks, each advanced by every
    frame's dt times its own scale (and, for a domain that follows another,
    that one's rate), standing still while it or one above it is paused. Domain 0
    is the game clock (corral_time, the fixed steps). A coroutine's domain
    is in its meta entry; its `seconds` timers sit in its domain's heap
    (timers.c), keyed by that clock, so a scale or a pause acts on every
    sleeper of the domain at once and each keeps exactly its time left.
*/
#include "../corral_internal.h"
#include "../core/arena.h"

/* the domain, or NULL with BAD_DOMAIN set */
static corral__domain *corral__domain_at(const char *call, const corral_sched *s, uint32_t domain)
{
    if (!corral__check_in(s, call)) return NULL;
    CORRAL__REQUIRE_AT(s, domain < corral__domains_of(s)->count, CORRAL_ERR_BAD_DOMAIN, call, CORRAL__NOH, NULL, NULL, NULL);
    return (corral__domain *)&corral__domains_of(s)->d[domain];
}

bool corral_domain_set_scale(corral_sched *s, uint32_t domain, float scale)
{
    corral__domain *d = corral__domain_at(__func__, s, domain);
    if (!d) return false;
    CORRAL__REQUIRE(s, scale >= 0.0f && scale <= CORRAL__SCALE_MAX, CORRAL_ERR_BAD_DT, false);
    corral__domain_scale_set(s, domain, scale);
    return true;
}

float corral_domain_scale(const corral_sched *s, uint32_t domain)
{
    const corral__domain *d = corral__domain_at(__func__, s, domain);
    return d ? d->scale : 0.0f;
}

static bool corral__domain_hold(const char *call, corral_sched *s, uint32_t domain, uint32_t paused)
{
    corral__domain *d = corral__domain_at(call, s, domain);
    if (!d) return false;
    d->paused = paused;
    return true;
}
bool corral_domain_pause(corral_sched *s, uint32_t domain) { return corral__domain_hold(__func__, s, domain, 1); }
bool corral_domain_resume(corral_sched *s, uint32_t domain) { return corral__domain_hold(__func__, s, domain, 0); }

bool corral_domain_paused(const corral_sched *s, uint32_t domain)
{
    const corral__domain *d = corral__domain_at(__func__, s, domain);
    return d && d->paused;
}

double corral_domain_time(const corral_sched *s, uint32_t domain)
{
    const corral__domain *d = corral__domain_at(__func__, s, domain);
    return d ? d->time : 0.0;
}

bool corral_domain_set_parent(corral_sched *s, uint32_t domain, uint32_t parent)
{
    corral__domain *d = corral__domain_at(__func__, s, domain);
    if (!d) return false;
    if (parent != CORRAL_DOMAIN_NONE && parent >= domain) {
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_DOMAIN, __func__, CORRAL__NOH, NULL,
                        parent >= corral__domains_of(s)->count ? "the parent is past desc.domains"
                                                   : "a domain follows one numbered before it");
        return false;
    }
    d->parent = parent == CORRAL_DOMAIN_NONE ? 0u : parent + 1u;
    return true;
}

uint32_t corral_domain_parent(const corral_sched *s, uint32_t domain)
{
    const corral__domain *d = corral__domain_at(__func__, s, domain);
    return d && d->parent ? d->parent - 1u : CORRAL_DOMAIN_NONE;
}

float corral_domain_rate(const corral_sched *s, uint32_t domain)
{
    const corral__domain *d = corral__domain_at(__func__, s, domain);
    if (!d || corral__domain_held(s, domain)) return 0.0f;
    float rate = d->scale;
    const corral__domains *D = corral__domains_of(s);
    for (uint32_t p = d->parent; p; p = D->d[p - 1].parent) rate *= D->d[p - 1].scale;
    return rate;
}

/* co and the children it awaits, down the chain (a race's or sync's arms,
   each with theirs: recursive, one level per race nested in a race), go
   to `domain`, their seconds timers with the time they have left there.
   True if co's domain changed. */
bool corral__domain_set(corral_sched *s, corral_co *co, uint32_t domain)
{
    const uint32_t heap = corral__domain_heap(domain);
    bool changed = corral__co_domain(s, corral__meta_of(s, co)) != domain;
    while (co) {
        corral__meta *m = corral__meta_of(s, co);
        corral__node *N = corral__nodes(s);
        const bool put = corral__co_domain_put("corral_set_domain", s, m, domain); /* the caller made room */
        assert(put && "corral: a domain's side record was counted free");
        (void)put;
        if (corral__sleeps(co) && corral__heap_domain(corral__sleep_heap_of(co->link)) != CORRAL__NIL)
            corral__sleep_move(s, co, heap); /* a plain sleep on its domain's seconds */
        for (uint32_t i = corral__co_wait(s, co, m); i != CORRAL__NIL; i = N[i].sibling) {
            if (corral__kind_is(N[i].kind, CORRAL__HOW_TIMER) && corral__heap_domain(N[i].list) != CORRAL__NIL)
                corral__timer_move(s, i, heap);
            else if (N[i].kind == CORRAL__NODE_ARM && N[i].u.t.target != CORRAL__NIL)
                corral__domain_set(s, corral__co_of_global(s, N[i].u.t.target), domain);
        }
        const corral__side *sd = corral__side_of(s, m);
        for (uint32_t i = sd->groups; i != CORRAL__NIL; i = N[i].sibling)
            if (N[i].kind == CORRAL__NODE_DEADLINE) corral__timer_move(s, i, heap);
        co = sd->child != CORRAL__NIL ? corral__co_of_global(s, sd->child) : NULL;
    }
    return changed;
}

bool corral_set_domain(corral_sched *s, corral_handle h, uint32_t domain)
{
    if (!corral__domain_at(__func__, s, domain)) return false;
    corral_co *co = corral__live(__func__, s, h);
    if (!co) return false;
    /* a domain other than 0 is kept in a side record: the coroutine's own
       (its children down the chain have theirs) */
    if (domain && !corral__co_sided(corral__meta_of(s, co)) && !corral__sides_room(__func__, s, NULL, "none for the coroutine's time domain"))
        return false;
    corral__domain_set(s, co, domain);
    return true;
}

uint32_t corral_domain_of(const corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    return s ? corral__co_domain(s, corral__meta_of(s, co)) : 0u;
}

/* a group into a time domain: its members that were elsewhere */
static uint32_t corral__op_domain(const char *call, corral_sched *s, corral_co *co, corral__op_arg arg)
{
    (void)call;
    return corral__domain_set(s, co, arg.domain);
}
uint32_t corral_set_domain_owner(corral_sched *s, uint64_t owner, uint32_t domain)
{
    if (!corral__check(s)) return 0;
    CORRAL__REQUIRE(s, domain < corral__domains_of(s)->count, CORRAL_ERR_BAD_DOMAIN, 0);
    return corral__owner_op(__func__, s, owner, corral__op_domain, (corral__op_arg){domain, 0.0f});
}
uint32_t corral_set_domain_tags(corral_sched *s, uint32_t tags, uint32_t domain)
{
    if (!corral__check(s)) return 0;
    CORRAL__REQUIRE(s, domain < corral__domains_of(s)->count, CORRAL_ERR_BAD_DOMAIN, 0);
    return corral__tags_op(__func__, s, tags, corral__op_domain, (corral__op_arg){domain, 0.0f});
}
