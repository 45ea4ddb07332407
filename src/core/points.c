/*
    points.c -- named points: the list a body opens with
    (CORRAL_BEGIN_AT(co, POINTS)) checked against the one
    DEFINE_COROUTINE_AT gave its type (corral_type.points). A debug
    build's CORRAL_BEGIN_AT calls it at a coroutine's first step; a
    release build and a body without named points never do, so it is an
    object of its own. What a point's name means to a save and a reload
    is theirs (save.c, reload.c); a resume that finds no case is
    lifecycle.c's (corral_point_lost).
*/
#include "../corral_internal.h"

#include <string.h>

bool corral_points_check(const corral_co *co, const char *const *names, uint32_t count)
{
    corral_sched *s = corral__tls_sched;
    if (!s || !co || co->type >= s->types.type_count) return true;
    const corral_type *vt = corral__types(s)[co->type].vt;
    bool same = vt->point_count == count;
    for (uint32_t i = 0; same && i < count; i++) same = vt->points && !strcmp(vt->points[i], names[i]);
    if (!same)
        corral__fail_at(s, NULL, CORRAL_ERR_BAD_TYPE, "CORRAL_BEGIN_AT", CORRAL__NOH, co,
                        "its list of points is not the one DEFINE_COROUTINE_AT gave the type");
    return same;
}
