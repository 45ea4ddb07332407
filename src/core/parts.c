/*
    parts.c -- every part of the library (CORRAL_PARTS), and
    corral_sched_create and corral_sched_memory_size, which give a
    scheduler all of them unless its desc names some. A program that creates its schedulers with
    corral_sched_create_min (sched.c) names its parts itself and links
    neither this file nor the parts it does not name.
*/
#include "../corral_internal.h"

static const corral_part *const corral__every_part[] = {
    &corral_part_calls, &corral_part_groups, &corral_part_stops, &corral_part_polls,
    &corral_part_futures, &corral_part_alarms, &corral_part_pulls, &corral_part_profile,
    &corral_part_budget, &corral_part_posts,
#ifndef CORRAL_NO_RACES /* the one header may leave these two modules out */
    &corral_part_races,
#endif
#ifndef CORRAL_NO_CHANNELS
    &corral_part_channels,
#endif
    NULL,
};
#if !defined(CORRAL_NO_RACES) && !defined(CORRAL_NO_CHANNELS)
#define CORRAL__ONE(name) +1
CORRAL__STATIC_ASSERT(sizeof corral__every_part / sizeof corral__every_part[0] == 1 CORRAL_PARTS(CORRAL__ONE),
                     "corral__every_part lists every part of CORRAL_PARTS");
#undef CORRAL__ONE
#endif

/* the bytes corral_sched_create takes: for every part unless desc.parts
   names some */
size_t corral_sched_memory_size(const corral_sched_desc *desc)
{
    return corral__memory_size(__func__, desc, desc && desc->parts ? desc->parts : corral__every_part);
}

corral_sched *corral_sched_create(const corral_sched_desc *desc)
{
    return corral__sched_create(__func__, desc, desc && desc->parts ? desc->parts : corral__every_part);
}
