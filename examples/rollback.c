/*
    rollback -- rollback netcode over corral: two peers play a duel, each
    sees the other's inputs a few frames late, guesses them meanwhile, and
    when a late input turns out different from the guess, rewinds its
    scheduler to the frame the input belongs to (up to 8 frames back) and
    plays the frames since again. The snapshot of each frame's start is
    kept in the arena under its frame number (desc.kept_snapshots,
    corral_snapshot_keep): a ring that drops the oldest frames as new ones
    come, whose restore (corral_restore_kept) is a copy, only what places
    its reads checked, and forgets the frames after it: they are played
    and kept again.

    The game is all coroutines: a fighter per player moves and fires by its
    input, each shot flies a few frames and raises the hit fighter's
    signal, and a flinch coroutine per fighter waits on that signal, takes
    a hit point and sleeps a quarter second. Inputs come from a fixed
    pseudo-random sequence per player; each travels to the other peer with
    a delay of 0 to 7 frames.

    It prints the state hash (corral_state_hash) of every 20th frame as the
    reference run (every input on time), peer A and peer B computed it, and
    exits non-zero if any frame's hash differs between the three: the
    desync check a rollback or lockstep game runs each frame.
*/
#include <corral/corral.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 300
#define MAX_ROLLBACK 8 /* frames a peer may rewind */
#define MAX_DELAY 7    /* frames an input may take to arrive */
static const float DT = 1.0f / 60.0f;

enum { IN_LEFT = 1, IN_RIGHT = 2, IN_FIRE = 4 };

/* ---- the game */

#define FIGHTER_FIELDS(F)   \
    F(int, id)              \
    F(int, x)               \
    F(int, hp)              \
    F(int, input)           \
    F(int, cooldown)        \
    F(corral_handle, foe)   \
    F(corral_signal, hurt)
DECLARE_COROUTINE(fighter, FIGHTER_FIELDS)

#define SHOT_FIELDS(F)          \
    F(int, x)                   \
    F(int, dir)                 \
    F(int, life)                \
    F(corral_handle, target)
DECLARE_COROUTINE(shot, SHOT_FIELDS)

#define FLINCH_FIELDS(F)        \
    F(corral_handle, fighter)   \
    F(corral_signal, hurt)      \
    F(int, hits)
DECLARE_COROUTINE(flinch, FLINCH_FIELDS)

DEFINE_COROUTINE(fighter)
{
    corral_sched *s = corral_sched_of(co);
    if (ctx->input & IN_LEFT) ctx->x -= 1;
    if (ctx->input & IN_RIGHT) ctx->x += 1;
    if (ctx->cooldown > 0) ctx->cooldown--;
    if ((ctx->input & IN_FIRE) && ctx->cooldown == 0) {
        fighter_ctx *foe = (fighter_ctx *)corral_context(s, ctx->foe, &fighter_type);
        int dir = foe && foe->x < ctx->x ? -1 : 1;
        shot_start(s, (shot_ctx){ctx->x, dir, 40, ctx->foe});
        ctx->cooldown = 12;
    }
    return ctx->hp > 0 ? CORRAL_YIELD : CORRAL_STOP;
}

DEFINE_COROUTINE(shot)
{
    corral_sched *s = corral_sched_of(co);
    fighter_ctx *t = (fighter_ctx *)corral_context(s, ctx->target, &fighter_type);
    if (!t || --ctx->life == 0) return CORRAL_STOP;
    ctx->x += 2 * ctx->dir;
    if (abs(ctx->x - t->x) <= 1) {
        corral_signal_raise(s, t->hurt);
        return CORRAL_STOP;
    }
    return CORRAL_YIELD;
}

DEFINE_COROUTINE(flinch)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_WAIT_SIGNAL(co, ctx->hurt);
        ctx->hits++;
        {
            fighter_ctx *f = (fighter_ctx *)corral_context(corral_sched_of(co), ctx->fighter, &fighter_type);
            if (!f) break;
            f->hp--;
        }
        CORRAL_WAIT_SECONDS(co, 0.25f);
    }
    CORRAL_END(co);
}

/* ---- inputs and the network */

static uint32_t mix(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7FEB352Du;
    v ^= v >> 15;
    v *= 0x846CA68Bu;
    return v ^ (v >> 16);
}
/* what player p pressed at frame f (held for a while, so guesses often hold) */
static int input_of(int p, int f) { return (int)(mix((uint32_t)(p * 7919 + f / 6)) % 8u); }
/* how many frames player p's input of frame f takes to reach the other peer */
static int delay_of(int p, int f) { return (int)(mix((uint32_t)(p * 104729 + f) ^ 0xA5A5u) % (MAX_DELAY + 1u)); }

/* ---- a peer: a scheduler, the inputs it knows, snapshots of recent frames */

typedef struct peer {
    const char *name;
    int me;
    corral_sched *s;
    corral_handle fighter[2];
    int known[2][FRAMES]; /* -1: not arrived */
    int used[2][FRAMES];  /* what each frame was last simulated with */
    uint64_t hash[FRAMES];
    int rollbacks, resimulated;
} peer;

static corral_sched *new_game(corral_handle fighter[2])
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 64;
    /* the default ring: 9 x (twice the new scheduler's snapshot + 64). It
       holds the starts of the last 9 frames while each frame's live
       state (slots, their meta, wait nodes, run queue entries) is no
       larger than the new scheduler's snapshot, as this game's few
       coroutines are; one fewer where unequal sizes leave a gap at the
       wrap, still the 8 a rollback reaches back */
    d.kept_snapshots = MAX_ROLLBACK + 1;
    corral_sched *s = corral_sched_create(&d);
    if (!s) exit(2);
    corral_signal hurt[2] = {corral_signal_create(s), corral_signal_create(s)};
    fighter[0] = fighter_start(s, (fighter_ctx){0, -10, 30, 0, 0, {0, 0}, hurt[0]});
    fighter[1] = fighter_start(s, (fighter_ctx){1, 10, 30, 0, 0, fighter[0], hurt[1]});
    ((fighter_ctx *)corral_context(s, fighter[0], &fighter_type))->foe = fighter[1];
    for (int p = 0; p < 2; p++) flinch_start(s, (flinch_ctx){fighter[p], hurt[p], 0});
    return s;
}

/* the input of player p at frame f as this peer knows or guesses it:
   a remote input not arrived yet is guessed as the last one that did */
static int input_at(const peer *P, int p, int f)
{
    for (int g = f; g >= 0; g--)
        if (P->known[p][g] >= 0) return P->known[p][g];
    return 0;
}

/* play frame f: keep a snapshot of its start, set the inputs, tick */
static void play(peer *P, int f)
{
    if (!corral_snapshot_keep(P->s, (uint32_t)f)) { /* kept again when f is played again */
        fprintf(stderr, "%s: snapshot: %s\n", P->name, corral_error_str(corral_last_error(P->s)));
        exit(2);
    }
    for (int p = 0; p < 2; p++) {
        P->used[p][f] = input_at(P, p, f);
        fighter_ctx *fc = (fighter_ctx *)corral_context(P->s, P->fighter[p], &fighter_type);
        if (fc) fc->input = P->used[p][f];
    }
    corral_tick(P->s, DT);
    P->hash[f] = corral_state_hash(P->s);
}

/* frame `now` begins at this peer: its own input, the remote inputs that
   arrive now; a guess that was wrong rewinds to its frame and replays */
static void peer_frame(peer *P, int now)
{
    int other = 1 - P->me, redo = now;
    if (now < FRAMES) P->known[P->me][now] = input_of(P->me, now);
    for (int g = now - MAX_DELAY; g <= now; g++) {
        if (g < 0 || g >= FRAMES || P->known[other][g] >= 0 || g + delay_of(other, g) != now) continue;
        P->known[other][g] = input_of(other, g);
        if (g < redo && P->known[other][g] != P->used[other][g]) redo = g;
    }
    if (redo < now) {
        if (now - redo > MAX_ROLLBACK || !corral_restore_kept(P->s, (uint32_t)redo)) {
            fprintf(stderr, "%s: restore of frame %d failed: %s\n", P->name, redo, corral_last_error_detail(P->s));
            exit(2);
        }
        P->rollbacks++;
        for (int f = redo; f < now; f++, P->resimulated++) play(P, f);
    }
    if (now < FRAMES) play(P, now);
}

static peer g_peer[2];

int main(void)
{
    /* the reference: every input on time */
    static uint64_t ref[FRAMES];
    corral_handle rf[2];
    corral_sched *r = new_game(rf);
    for (int f = 0; f < FRAMES; f++) {
        for (int p = 0; p < 2; p++) {
            fighter_ctx *fc = (fighter_ctx *)corral_context(r, rf[p], &fighter_type);
            if (fc) fc->input = input_of(p, f);
        }
        corral_tick(r, DT);
        ref[f] = corral_state_hash(r);
    }

    for (int i = 0; i < 2; i++) {
        peer *P = &g_peer[i];
        P->name = i ? "B" : "A";
        P->me = i;
        memset(P->known, -1, sizeof P->known);
        P->s = new_game(P->fighter);
    }
    /* the peers run side by side; the last inputs land MAX_DELAY frames late */
    for (int now = 0; now < FRAMES + MAX_DELAY + 1; now++)
        for (int i = 0; i < 2; i++) peer_frame(&g_peer[i], now);

    int bad = 0;
    printf("frame  reference         peer A            peer B\n");
    for (int f = 0; f < FRAMES; f++) {
        bool same = g_peer[0].hash[f] == ref[f] && g_peer[1].hash[f] == ref[f];
        if (!same) bad++;
        if (f % 20 == 19 || !same)
            printf("%5d  %016llx  %016llx  %016llx%s\n", f + 1, (unsigned long long)ref[f],
                   (unsigned long long)g_peer[0].hash[f], (unsigned long long)g_peer[1].hash[f],
                   same ? "" : "  DESYNC");
    }
    for (int i = 0; i < 2; i++)
        printf("peer %s: %d rollbacks, %d frames played again\n", g_peer[i].name, g_peer[i].rollbacks,
               g_peer[i].resimulated);
    fighter_ctx *a = (fighter_ctx *)corral_context(r, rf[0], &fighter_type);
    fighter_ctx *b = (fighter_ctx *)corral_context(r, rf[1], &fighter_type);
    printf("after %d frames: fighter 0 has %d hp, fighter 1 has %d hp\n", FRAMES, a ? a->hp : 0, b ? b->hp : 0);
    bool ok = corral_verify(r) && corral_verify(g_peer[0].s) && corral_verify(g_peer[1].s);
    printf("%s\n", bad ? "DESYNC" : ok ? "every frame agrees" : "verify failed");
    corral_sched_destroy(r);
    for (int i = 0; i < 2; i++) corral_sched_destroy(g_peer[i].s);
    return bad || !ok ? 1 : 0;
}
