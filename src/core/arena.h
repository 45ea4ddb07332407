/*
    arena.h -- what a coroutine's side record says, read through the
    lookup arena.c keeps from a slot to its record: its links' and wait's
    accessors, inline for the files that wait, call, join and end.
    Include it after corral_internal.h.
*/
#ifndef CORRAL_ARENA_H
#define CORRAL_ARENA_H

/* its side record, or corral__side_none (read only) */
static inline const corral__side *corral__side_of(const corral_sched *s, const corral__meta *m)
{
    return corral__co_sided(m) ? corral__side_at(s, m) : corral__side_none();
}

/* its side record, NULL: it has none. A path that reads or writes it
   several times (an await, a wait's end, a call) looks it up once and
   hands it to the *_with forms below. */
static inline corral__side *corral__side_if(const corral_sched *s, const corral__meta *m)
{
    return corral__co_sided(m) ? corral__side_at(s, m) : NULL;
}

/* its time domain (0: the default; another is in its side record) */
static inline uint8_t corral__co_domain(const corral_sched *s, const corral__meta *m)
{
    return corral__co_sided(m) ? corral__side_at(s, m)->domain : 0u;
}

/* its link is its wait chain (corral__chained_by, by its own side record) */
static inline bool corral__co_chained(const corral_sched *s, const corral_co *co, const corral__meta *m)
{
    return (co->state == CORRAL__WAITING || (corral__paused(co->state) && (co->state & CORRAL__HOLD_WAITING)) ||
            (corral__co_sided(m) && (corral__side_at(s, m)->mode & CORRAL__MODE_OPEN))) &&
           !corral__link_sleeps(co->link);
}

/* the first node of its current wait, NIL: none */
static inline uint32_t corral__co_wait(const corral_sched *s, const corral_co *co, const corral__meta *m)
{
    return corral__co_chained(s, co, m) ? co->link : CORRAL__NIL;
}

/* how its current wait waits (CORRAL__MODE_*): a wait of several nodes
   has a side record that says (an all, an any, a race's or a sync's arms);
   else one node is ONE, none NONE (a race begun without a side record:
   OPEN | BAD until its arms start) */
static inline uint8_t corral__co_mode(const corral_sched *s, const corral_co *co, const corral__meta *m)
{
    return corral__mode_by(co, corral__side_of(s, m));
}

static inline void corral__co_mode_set(corral_sched *s, corral__meta *m, uint32_t mode)
{
    corral__mode_set_with(corral__side_if(s, m), mode);
}

static inline bool corral__co_awaits_arms(const corral_sched *s, const corral__meta *m)
{
    return corral__awaits_arms_with(corral__side_if(s, m));
}

static inline bool corral__calling(const corral_sched *s, const corral__meta *m)
{
    return corral__calling_with(corral__side_if(s, m));
}

#endif
