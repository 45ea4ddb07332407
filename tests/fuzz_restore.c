/*
    fuzz_restore.c -- libFuzzer target for corral_restore: a snapshot is
    untrusted input. The examples' games and the game that waits on every
    wait kind (tests/hostile/: outpost, boss, rollback, savegame,
    allwaits) run first, each keeping its scheduler. Each input
    is taken as a snapshot (its size and checksum made again, so that
    mutations reach the checks of its contents) and restored into every
    game's scheduler: a refused restore must change nothing; an accepted
    one must pass corral_verify, run 10 frames and pass it again, and the
    game's own state then comes back. ASan and UBSan catch the rest.

    A snapshot holds this process's addresses (its types), so the seeds
    come from this binary, built without PIE (every run has the same
    addresses): CORRAL_FUZZ_SEEDS=dir writes the games' snapshots there
    and exits. tools/fuzz.sh does both.
*/
#include "hostile/games.h"

#include <stdio.h>
#include <stdlib.h>

static hostile_game *const g_games[] = {&hostile_outpost, &hostile_boss, &hostile_rollback, &hostile_savegame,
                                        &hostile_allwaits};
enum { FZ_GAMES = sizeof g_games / sizeof g_games[0] };
static unsigned char g_base[FZ_GAMES][HG_BYTES];
static size_t g_base_n[FZ_GAMES];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout)) abort(); /* the games print */
    const char *dir = getenv("CORRAL_FUZZ_SEEDS");
    if (!hostile_keep(g_games, FZ_GAMES, true, g_base, g_base_n, dir)) abort();
    if (dir) exit(0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char buf[HG_BYTES];
    if (size > sizeof buf) return 0;
    memcpy(buf, data, size);
    hostile_reseal_snapshot(buf, size);
    for (size_t i = 0; i < FZ_GAMES; i++) {
        corral_sched *s = g_games[i]->sched;
        uint64_t before = corral_state_hash(s);
        if (!corral_restore(s, buf, size)) {
            if (corral_state_hash(s) != before) {
                fprintf(stderr, "corral fuzz: a refused restore changed the %s game\n", g_games[i]->name);
                abort();
            }
            continue;
        }
        if (!corral_verify(s)) {
            fprintf(stderr, "corral fuzz: a restored %s snapshot broke an invariant\n", g_games[i]->name);
            abort();
        }
        for (int f = 0; f < 10; f++) corral_tick(s, 1.0f / 30.0f);
        if (!corral_verify(s) || !corral_restore(s, g_base[i], g_base_n[i])) {
            fprintf(stderr, "corral fuzz: a restored %s game broke an invariant while it ran\n", g_games[i]->name);
            abort();
        }
    }
    return 0;
}
