/*
    games.h -- the examples' games as hostile input's source: each example
    runs as written (its main, its frames), and at chosen frames its first
    scheduler's state is taken as a snapshot and, where the game has a
    registry, a save. The scheduler stays alive past the example's
    destroy, so what was taken can be loaded and restored into it.

    tests/hostile/<example>.c makes one game of an example (game.inc);
    tests/hostile/allwaits.c is a game written for this, waiting on every
    wait kind where its state is taken;
    tests/test_examples_hostile.c flips and cuts what they take, and
    tests/fuzz_load.c, tests/fuzz_restore.c fuzz from it.
*/
#ifndef CORRAL_TESTS_HOSTILE_GAMES_H
#define CORRAL_TESTS_HOSTILE_GAMES_H

#include <corral/corral.h>

#include <stdint.h>
#include <string.h>

enum { HG_MAX_TAKES = 8, HG_BYTES = 1 << 16 };

typedef struct hostile_take {
    int frame;     /* taken before this frame's tick */
    bool snapshot; /* else a save */
    size_t size;
    unsigned char bytes[HG_BYTES];
} hostile_take;

typedef struct hostile_game {
    const char *name;
    void (*play)(void);  /* the example's main, once a process (it prints) */
    corral_sched *sched; /* its first scheduler, alive until hostile_release */
    int takes;
    hostile_take take[HG_MAX_TAKES];
} hostile_game;

extern hostile_game hostile_outpost, hostile_boss, hostile_rollback, hostile_savegame, hostile_allwaits;
/* what the allwaits game's take k lacks of every wait kind and shape it
   is for, in words: empty when it holds them all */
extern char hostile_allwaits_missing[HG_MAX_TAKES][512];

/* plays the game once (later calls do nothing): false if it took nothing */
bool hostile_play(hostile_game *g);
/* destroys the kept scheduler */
void hostile_release(hostile_game *g);
/* writes what the game took, its snapshots or its saves, into dir as
   <name>-frame<N>.snap or .sav (a fuzzer's seeds): false if one failed */
bool hostile_write_takes(const hostile_game *g, bool snapshots, const char *dir);
/* plays each of n games and keeps its state as it stands in base[i]
   (base_n[i] bytes), a snapshot or a save; with dir, writes their takes
   of that kind there too: false if one failed */
bool hostile_keep(hostile_game *const *games, size_t n, bool snapshots, unsigned char (*base)[HG_BYTES], size_t *base_n,
                  const char *dir);

/* what a save's and a snapshot's checksums are over, made again after an
   edit, as an attacker would (docs/SAVE.md; snapshot.c): false if n is
   too short to hold the header */
static inline bool hostile_reseal_save(unsigned char *p, size_t n)
{
    if (n < 24) return false;
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 24; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    for (unsigned i = 0; i < 8; i++) p[8 + i] = (unsigned char)((uint64_t)n >> (8 * i));
    for (unsigned i = 0; i < 8; i++) p[16 + i] = (unsigned char)(h >> (8 * i));
    return true;
}
enum { HOSTILE_SNAP_HEAD = 32 }; /* magic, version, size, layout, sum */
/* snapshot.c's checksum (a test hook) */
uint64_t corral__snap_sum(const unsigned char *p, size_t n);
static inline bool hostile_reseal_snapshot(unsigned char *p, size_t n)
{
    if (n < HOSTILE_SNAP_HEAD) return false;
    uint64_t size = n, sum = corral__snap_sum(p + HOSTILE_SNAP_HEAD, n - HOSTILE_SNAP_HEAD);
    memcpy(p + 8, &size, sizeof size);
    memcpy(p + HOSTILE_SNAP_HEAD - sizeof sum, &sum, sizeof sum);
    return true;
}

#endif
