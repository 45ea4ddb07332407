/*
    errors.h -- the check a public call makes of the scheduler it is given
    (errors.c's rule: a live scheduler, and in debug builds one this thread
    owns), inline for the calls of the files above errors.c. Include it
    after corral_internal.h.
*/
#ifndef CORRAL_ERRORS_H
#define CORRAL_ERRORS_H

static inline bool corral__check_in(const corral_sched *s, const char *call)
{
#if CORRAL__REGISTRY
    return (s && corral__registry_has(s) && s->magic == CORRAL__MAGIC &&
            (s->owner == corral__thread_token() || s->validation == CORRAL_VALIDATION_OFF)) ||
           corral__check_slow(s, call);
#else
    return (s && s->magic == CORRAL__MAGIC) || corral__check_slow(s, call);
#endif
}
#define corral__check(s) corral__check_in((s), __func__)

#endif
