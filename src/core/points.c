/*
    points.c -- resume points: the list a body opens with
    (CORRAL_BEGIN_AT(co, POINTS)) checked against the one
    DEFINE_COROUTINE_AT gave its type (corral_type.points), which a debug
    build's CORRAL_BEGIN_AT asks at a coroutine's first step (another list
    ends the coroutine before its body runs); and a resume
    that finds no case in its body's switch (corral_point_lost, the
    switch's default). What a point's name means to a save and a reload is
    theirs (save.c, reload.c).
*/
#include "../corral_internal.h"

#include <stdio.h>
#include <string.h>

/* co ends with CORRAL_END_BAD_POINT, then the report (FATAL aborts in it) */
static CORRAL__COLD void corral__point_fail(corral_sched *s, const corral_co *co, const char *call, const char *why)
{
    if (corral__is_running(s, co)) corral__stop_co(s, (corral_co *)(uintptr_t)co, CORRAL_END_BAD_POINT);
    corral__fail_at(s, NULL, CORRAL_ERR_BAD_POINT, call, CORRAL__NOH, co, why);
}

bool corral_points_check(const corral_co *co, const char *const *names, uint32_t count)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || co->type >= s->types.type_count) return true;
    const corral_type *vt = corral__types(s)[co->type].vt;
    uint32_t k = 0; /* the first place the lists differ */
    while (k < count && k < vt->point_count && vt->points && !strcmp(vt->points[k], names[k])) k++;
    if (k == count && k == vt->point_count) return true;
    const char *mine = k < count ? names[k] : "", *its = k < vt->point_count && vt->points ? vt->points[k] : "";
    char why[256];
    snprintf(why, sizeof why,
             "type %s: the body's CORRAL_BEGIN_AT list differs from its DEFINE_COROUTINE_AT list at point %u "
             "('%s', the type's '%s')",
             vt->name ? vt->name : "?", (unsigned)k + 1u, mine, its);
    corral__point_fail(s, co, "CORRAL_BEGIN_AT", why);
    return false;
}

corral_result corral_point_lost(corral_co *co)
{
    corral_sched *s = corral__in_step(__func__, co, true);
    if (!s) return CORRAL_STOP;
    const corral_type *vt = corral__types(s)[co->type].vt;
    char why[192];
    snprintf(why, sizeof why,
             "a wait inside a switch of your own? (use if/else there): point %u, at %s:%u, has no case",
             co->resume & CORRAL__POINT_MASK, vt->file ? vt->file : "?", co->resume >> 16);
    corral__point_fail(s, co, "CORRAL_BEGIN", why);
    return CORRAL_STOP;
}
