/* games.c -- playing and releasing the hostile games (games.h) */
#include "games.h"

bool hostile_play(hostile_game *g)
{
    if (!g->sched) g->play();
    return g->sched && g->takes > 0;
}

void hostile_release(hostile_game *g)
{
    if (g->sched) corral_sched_destroy(g->sched);
    g->sched = NULL;
}
