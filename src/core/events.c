/*
    events.c -- signals that stay set: setting one fires its list as a
    raise does and keeps it set, so that every later wait on it is over at
    once (wakelists.c's ready), until a reset. The signals, their lists and
    their part in saves, snapshots and the state hash are wakelists.c's.
*/
#include "../corral_internal.h"

uint32_t corral_signal_set(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return 0;
    corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, 0);
    g->set = 1;
    return corral__fire_all(s, &g->head, &g->tail);
}

bool corral_signal_reset(corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return false;
    corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, false);
    g->set = 0;
    return true;
}

bool corral_signal_is_set(const corral_sched *s, corral_signal sig)
{
    if (!corral__check(s)) return false;
    const corral__signal *g = corral__signal_get(s, sig);
    CORRAL__REQUIRE(s, g, CORRAL_ERR_STALE_SIGNAL, false);
    return g->set != 0;
}
