/* games.c -- playing and releasing the hostile games (games.h) */
#include "games.h"

#include <stdio.h>

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

bool hostile_write_takes(const hostile_game *g, bool snapshots, const char *dir)
{
    for (int k = 0; k < g->takes; k++) {
        const hostile_take *t = &g->take[k];
        if (t->snapshot != snapshots) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s-frame%d.%s", dir, g->name, t->frame, snapshots ? "snap" : "sav");
        FILE *f = fopen(path, "wb");
        const bool ok = f && fwrite(t->bytes, 1, t->size, f) == t->size;
        if (f && fclose(f) != 0) return false;
        if (!ok) return false;
    }
    return true;
}

bool hostile_keep(hostile_game *const *games, size_t n, bool snapshots, unsigned char (*base)[HG_BYTES], size_t *base_n,
                  const char *dir)
{
    for (size_t i = 0; i < n; i++) {
        hostile_game *g = games[i];
        if (!hostile_play(g)) return false;
        base_n[i] = snapshots ? corral_snapshot(g->sched, base[i], HG_BYTES) : corral_save(g->sched, base[i], HG_BYTES);
        if (!base_n[i] || (dir && !hostile_write_takes(g, snapshots, dir))) return false;
    }
    return true;
}
