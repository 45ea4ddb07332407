/*
    takes_golden -- what the examples' games save and snapshot, as digests:
    each take's kind, frame and size, a save's FNV-1a 64 of its bytes, and each
    game's state hash where it ended. tests/takes_golden.cmake compares
    them with tests/expected/takes.txt, so a change inside the library that
    moves a byte of a save, the size of a snapshot, or a word of the state hash, is
    seen (docs/SAVE.md: the format; docs/API.md: the state hash).
    Run: takes_golden OUT_FILE
*/
#include "hostile/games.h"

#include <inttypes.h>
#include <stdio.h>

static uint64_t fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: takes_golden OUT_FILE\n");
        return 2;
    }
    hostile_game *games[] = {&hostile_outpost, &hostile_boss, &hostile_rollback, &hostile_savegame, &hostile_allwaits};
    FILE *out = fopen(argv[1], "w");
    if (!out) return 1;
    int rc = 0;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        hostile_game *game = games[g];
        if (!hostile_play(game)) {
            fprintf(out, "%s: took nothing\n", game->name);
            rc = 1;
            continue;
        }
        for (int t = 0; t < game->takes; t++) {
            const hostile_take *k = &game->take[t];
            if (k->snapshot) /* its bytes are the block's: restored by the build that took it (docs/API.md) */
                fprintf(out, "%s frame %d snapshot %zu bytes\n", game->name, k->frame, k->size);
            else
                fprintf(out, "%s frame %d save %zu bytes %016" PRIx64 "\n", game->name, k->frame, k->size,
                        fnv(k->bytes, k->size));
        }
        fprintf(out, "%s state hash %016" PRIx64 "\n", game->name, corral_state_hash(game->sched));
        hostile_release(game);
    }
    return fclose(out) == 0 ? rc : 1;
}
