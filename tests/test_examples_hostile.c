/* test_examples_hostile.c -- the examples' own saves and snapshots, and
   those of a game that waits on every wait kind (tests/hostile/allwaits.c),
   taken mid-game (tests/hostile/games.h), with single bits flipped (as
   written, and with the checksum made again) and cut short (the size and
   checksum made again): each is refused with nothing changed, or loads or
   restores a state that verifies and runs.

   CORRAL_EXHAUSTIVE=1: every bit and every length (CI runs it so under
   ASan and UBSan: nothing is written outside the arena); otherwise every
   16th, starting at a different place each take, so each suite stays
   quick. Each take logs what was tried and how it went. */
#include "common.h"
#include "hostile/games.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned char g_base[HG_BYTES], g_buf[HG_BYTES];

static bool apply(corral_sched *s, const hostile_take *t, const unsigned char *p, size_t n)
{
    return t->snapshot ? corral_restore(s, p, n) : corral_load(s, p, n);
}

typedef struct tally {
    uint32_t taken, refused; /* accepted (and sound), refused */
} tally;

/* p[0..n) given to the game's scheduler: refused with nothing changed,
   or a state that verifies and runs (and then the base comes back) */
static void try_one(hostile_game *g, const hostile_take *t, const unsigned char *p, size_t n, size_t base_n,
                    const char *what, size_t at, tally *k)
{
    corral_sched *s = g->sched;
    uint64_t before = corral_state_hash(s);
    if (!apply(s, t, p, n)) {
        k->refused++;
        cr_assert_eq(corral_last_error(s), t->snapshot ? CORRAL_ERR_BAD_SNAPSHOT : CORRAL_ERR_BAD_SAVE,
                     "%s %s %zu: %s", g->name, what, at, corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), before, "%s %s %zu: a refused one changes nothing", g->name, what, at);
        return;
    }
    k->taken++;
    cr_assert(corral_verify(s), "%s %s %zu: the state verifies: %s", g->name, what, at, corral_last_error_detail(s));
    for (int f = 0; f < 3; f++) corral_tick(s, 1.0f / 30.0f);
    cr_assert(corral_verify(s), "%s %s %zu: and runs: %s", g->name, what, at, corral_last_error_detail(s));
    cr_assert(apply(s, t, g_base, base_n), "%s %s %zu: back to the base: %s", g->name, what, at,
              corral_last_error_detail(s));
}

static void every_flip_and_cut(hostile_game *g)
{
    const char *all = getenv("CORRAL_EXHAUSTIVE");
    const size_t stride = all && *all == '1' ? 1 : 16;
    cr_assert(freopen("/dev/null", "w", stdout) != NULL, "the games print: not here");
    cr_assert(hostile_play(g), "the %s example took its state", g->name);
    for (int i = 0; i < g->takes; i++) {
        const hostile_take *t = &g->take[i];
        corral_sched *s = g->sched;
        size_t base_n = t->snapshot ? corral_snapshot(s, g_base, sizeof g_base) : corral_save(s, g_base, sizeof g_base);
        cr_assert_gt(base_n, 0, "%s", corral_last_error_detail(s));
        bool (*reseal)(unsigned char *, size_t) = t->snapshot ? hostile_reseal_snapshot : hostile_reseal_save;
        tally header = {0, 0}, flips = {0, 0}, sealed = {0, 0}, cuts = {0, 0};
        const size_t head = t->snapshot ? HOSTILE_SNAP_HEAD : 24;
        cr_assert(apply(s, t, t->bytes, t->size), "%s, frame %d, as written: %s", g->name, t->frame,
                  corral_last_error_detail(s));
        cr_assert(corral_verify(s));
        cr_assert(apply(s, t, g_base, base_n));
        for (size_t bit = (size_t)i % stride; bit < 8 * t->size; bit += stride) {
            memcpy(g_buf, t->bytes, t->size);
            g_buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            if (bit < 8 * head) /* the header: magic, version, size, layout, checksum */
                try_one(g, t, g_buf, t->size, base_n, "flipped header bit", bit, &header);
            else if (bit % 64 < stride) /* past it, the checksum's alone: a sample */
                try_one(g, t, g_buf, t->size, base_n, "flipped bit", bit, &flips);
            reseal(g_buf, t->size);
            try_one(g, t, g_buf, t->size, base_n, "flipped and resealed bit", bit, &sealed);
        }
        for (size_t cut = (size_t)i % stride; cut < t->size; cut += stride) {
            memcpy(g_buf, t->bytes, cut);
            reseal(g_buf, cut);
            try_one(g, t, g_buf, cut, base_n, "resealed cut at", cut, &cuts);
        }
        cr_assert_eq(flips.taken, 0u, "a checksum refuses every flip it covers");
        /* a save of the current version has every section: cut anywhere, refused */
        cr_assert_eq(cuts.taken, 0u, "a cut %s loaded %u times", t->snapshot ? "snapshot" : "save", cuts.taken);
        const tally sum = {header.taken + flips.taken + sealed.taken + cuts.taken,
                           header.refused + flips.refused + sealed.refused + cuts.refused};
        fprintf(stderr, /* on stderr, so that CI's log has it without --verbose */
                "examples_hostile: %s, frame %d, a %zu-byte %s: %u tried, %u accepted and sound, %u refused: "
                "header flips %u refused, %u accepted; flips %u refused; resealed flips %u refused, %u accepted; "
                "resealed cuts %u refused, %u accepted\n",
                g->name, t->frame, t->size, t->snapshot ? "snapshot" : "save", sum.taken + sum.refused, sum.taken,
                sum.refused, header.refused, header.taken, flips.refused, sealed.refused, sealed.taken, cuts.refused,
                cuts.taken);
    }
    hostile_release(g);
}

Test(examples_hostile, outpost, .timeout = 900) { every_flip_and_cut(&hostile_outpost); }
Test(examples_hostile, boss, .timeout = 900) { every_flip_and_cut(&hostile_boss); }
Test(examples_hostile, rollback, .timeout = 900) { every_flip_and_cut(&hostile_rollback); }
Test(examples_hostile, savegame, .timeout = 900) { every_flip_and_cut(&hostile_savegame); }
Test(examples_hostile, allwaits, .timeout = 900) { every_flip_and_cut(&hostile_allwaits); }

Test(examples_hostile, the_allwaits_game_waits_on_every_kind_wherever_its_state_is_taken)
{
    cr_assert(freopen("/dev/null", "w", stdout) != NULL);
    cr_assert(hostile_play(&hostile_allwaits), "the allwaits game took its state");
    cr_assert_eq(hostile_allwaits.takes, 2, "a save at one frame, a snapshot at another");
    for (int i = 0; i < hostile_allwaits.takes; i++)
        cr_assert_str_empty(hostile_allwaits_missing[i], "allwaits, frame %d, its %s lacks %s",
                            hostile_allwaits.take[i].frame, hostile_allwaits.take[i].snapshot ? "snapshot" : "save",
                            hostile_allwaits_missing[i]);
    hostile_release(&hostile_allwaits);
}
