/*
    netplay -- rollback netcode between processes over ENet (UDP on
    127.0.0.1), GGPO's model on corral's kept snapshots.

        netplay --host PORT  [options]     player 0; waits for the joiner
                                           (PORT 0: a free port, printed as
                                           "netplay: listening on port N")
        netplay --join PORT  [options]     player 1
        netplay --spectate PORT            follows the host's game from a save
      options: --latency MS (one way)  --loss PCT  --seed N  --frames N
               --inject-desync F  (this peer's boss reads a counter of this
                                   process from frame F on)
               --spectators 0|1   (host: 1 waits at the game's half, 20 s
                                   at most, for the one spectator it takes)
               --coroutines N     (about N coroutines: more patrolling units;
                                   the spectator needs the same N)
    The players' --frames, --seed, --latency, --loss and --coroutines
    must be the same: each sends its own at the connect (MSG_HELLO) and
    refuses another game's.
               --svg PATH         (the plot of this peer's frame times and
                                   rollback depths)

    The game: a boss with phases (it summons minions, then raises a quake
    signal), two players who move, shoot the boss and send orders into a
    channel, a commander who receives the orders and rallies, 240 units
    patrolling around the commander's target and resting, 60 racing
    timers (a rally against a timeout). About 310 coroutines (with
    --coroutines N, N - 64 units), all in the registry with named points,
    so the state saves and loads.

    The loop, per peer: each player's own input is delayed by 2 frames
    (pressed at frame f, it plays at f + 2); the remote input not known
    yet is predicted as the last one known. The start of each frame is
    kept in the arena under its frame number (desc.kept_snapshots,
    corral_snapshot_keep); when a remote input arrives that differs from
    the prediction a frame was played with, the peer rewinds to that frame
    (corral_restore_kept) and plays the frames since again. A peer plays
    a frame only when it is at most 8 frames past the last confirmed
    frame (both inputs known), so no rollback is deeper than 8.

    Every 30th frame, once confirmed, each peer prints its state hash and
    sends it; the other compares it with its own. A mismatch starts the
    desync report: both send the state's pieces of that frame
    (corral_state_pieces) over channel 1 and find the first that
    differs (corral_state_pieces_diff), then their saves (corral_save);
    each loads both saves into scratch schedulers of the same slots and
    registry (without the kept ring: a save loads into any scheduler with
    room) and prints corral_desync_describe.

    The network: ENet channel 0 carries one packet per tick of a virtual
    clock (a tick is one frame's time, 1/60 s): the sender's inputs from
    the first the other has not acknowledged (up to 64 frames, so a lost
    packet costs nothing once a later one lands), its acknowledgements
    and its confirmed hashes from the oldest the other has not
    acknowledged (up to 4). Channel 1 carries the options, the desync
    report, the spectator's save and inputs, and the end. Latency and
    loss are simulated on the virtual clock, so a run is repeatable: a
    packet sent at tick t is delivered at the receiver's tick t + latency
    (in frames, rounded up) unless a PRNG seeded with --seed, the sender
    and t drops it; the receiver waits at each tick for the packets due
    then, as fast as loopback brings them. So that the simulated loss is
    the only loss, both channels are reliable: ENet resends a packet the
    socket lost, and the run repeats. A game on a real network sends its
    ticks unreliably instead and counts a tick as lost once a later
    tick's packet has come (ENet's sequenced channel drops an older one
    that comes after), which the inputs sent again make good. Nothing
    sleeps: the processes run frames as fast as this allows. A run to
    the end repeats every hash, check and rollback line, and a desync
    its report's words; the summary's tick count after a peer is done,
    which peer finds a desync first and how far the peers play while its
    report is on its way follow the wall-clock arrival of channel 1's
    messages.

    The spectator connects to the host and asks for a save of a confirmed
    frame; the host answers from the game's half on with its newest 30th
    frame's save (a host with --spectators 1 waits there until it came).
    The spectator loads it into a scheduler of the same slots and registry
    (no kept ring: it never rewinds) and plays on with both players'
    confirmed inputs, which the host forwards to the end; it prints the
    same hash lines as the players for the frames it plays.

    The cost: each tick that does simulation work (a rollback and its
    frames played again, the checkpoints of frames confirmed, the new
    frame) is timed on a monotonic clock and on the thread's CPU clock;
    at the end the peer prints the frame time's p50 and p99 and its worst
    rollback ("cost: ..."), then the same of the CPU time, which leaves
    out the time the process was preempted, and with --svg writes the
    plot of frame time and rollback depth per tick beside the 16.6 ms of
    a 60 Hz frame.

    Output lines the check (tools/netplay_check.sh) reads:
        hash frame F HASH            a confirmed 30th frame's state hash
        check frame F agree | check frame F DESYNC HASH against HASH
        rollback to frame F depth D
        desync piece ...             the first differing piece
        desync at frame F: found by ...
        desync report: ...           corral_desync_describe's words
        summary: ...
    Exit status: 0 played to the end in agreement, 3 a desync (reported),
    2 an error: bad arguments, another game's options, a malformed
    message (each length, count and frame from the wire is checked), or
    a wait for the other side past its deadline (20 s for the options,
    a tick's packet, the spectator at the half, the desync report and
    the last inputs and hashes; 30 s for a host to answer or a joiner to
    come, 60 s for a spectator's whole game).
*/
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime's CLOCK_MONOTONIC */
#endif
#include <corral/corral.h>
#include <enet/enet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ROLLBACK 8      /* frames a peer may rewind; it waits rather than go further */
#define INPUT_DELAY 2       /* frames between pressing and playing an input */
#define HASH_INTERVAL 30    /* a hash exchange every 30 confirmed frames */
#define MAX_INPUTS_SENT 64  /* inputs in one tick packet */
#define MAX_HASHES_SENT 4   /* hashes in one tick packet */
#define MAX_INPUTS_SPECT 256 /* frames' inputs in one message to the spectator */
#define RX_RING 256         /* tick packets held until their delivery tick */
#define CHECKPOINTS_KEPT 4  /* saves of the newest confirmed 30th frames */
#define RACERS 60
#define OTHERS 4            /* the boss, the two players, the commander */
#define SLOTS_SPARE 208     /* slots beyond the units, racers and others: the minions and room */
#define MAX_FRAMES 1000000  /* --frames at most */
#define FRAME_BUDGET_MS (1000.0 / 60.0)
#define WAIT_SECONDS 20.0   /* the longest wait for the other side at any step: then exit 2 */
static const float DT = 1.0f / 60.0f;

/* the game's size, from --coroutines: the patrolling units, and the
   slots, save and state pieces every scheduler of the game is sized for */
static int g_units = 240;
static uint32_t g_slots = 512;
static size_t g_save_bytes = 1u << 20, g_max_pieces = 1024;

enum { IN_LEFT = 1, IN_RIGHT = 2, IN_FIRE = 4, IN_ORDER = 8 };
enum { NO_INPUT = 0xFF };

/* ---- the game */

/* from --inject-desync: the frame from which this process's boss reads a
   counter the state does not hold (as a step that reads a clock or
   rand() would); -1: never */
static long long g_inject_from = -1;
static unsigned g_boss_steps;

#define BOSS_FIELDS(F) F(int32_t, hp) F(int32_t, phase) F(int32_t, rage) F(int32_t, summoned) F(int32_t, quakes) F(corral_signal, quake)
#define BOSS_POINTS(P) P(watched) P(summoning) P(raging)
DECLARE_COROUTINE(boss, BOSS_FIELDS)

#define PLAYER_FIELDS(F) F(int32_t, id) F(int32_t, input) F(int32_t, x) F(int32_t, cooldown) F(int32_t, hits) F(corral_handle, boss) F(corral_channel, orders)
#define PLAYER_POINTS(P) P(stepped)
DECLARE_COROUTINE(player, PLAYER_FIELDS)

#define COMMANDER_FIELDS(F) F(int32_t, order) F(int32_t, target) F(int32_t, orders_taken) F(corral_channel, orders) F(corral_signal, rally)
#define COMMANDER_POINTS(P) P(received)
DECLARE_COROUTINE(commander, COMMANDER_FIELDS)

#define UNIT_FIELDS(F) F(int32_t, id) F(int32_t, pos) F(int32_t, dir) F(int32_t, lo) F(int32_t, hi) F(int32_t, rests) F(float, rest) F(corral_handle, commander)
#define UNIT_POINTS(P) P(walked) P(rested)
DECLARE_COROUTINE(unit, UNIT_FIELDS)

#define RACER_FIELDS(F) F(int32_t, id) F(int32_t, wins) F(int32_t, timeouts) F(float, limit) F(corral_signal, rally) F(corral_signal, quake)
#define RACER_POINTS(P) P(raced)
DECLARE_COROUTINE(racer, RACER_FIELDS)

#define MINION_FIELDS(F) F(int32_t, id) F(int32_t, pos) F(int32_t, life)
#define MINION_POINTS(P) P(crept)
DECLARE_COROUTINE(minion, MINION_FIELDS)

static void boss_read_nondeterminism(corral_co *co, boss_ctx *ctx)
{
    if (g_inject_from >= 0 && corral_frame(corral_sched_of(co)) >= (uint64_t)g_inject_from)
        ctx->rage += 1 + (int32_t)(g_boss_steps++ % 3u);
}

/* phase 1 watches, phase 2 summons a minion every half second, phase 3
   raises the quake every second, until its hit points are gone */
DEFINE_COROUTINE_AT(boss, BOSS_POINTS)
{
    CORRAL_BEGIN_AT(co, BOSS_POINTS);
    ctx->phase = 1;
    while (ctx->hp > 1150) {
        boss_read_nondeterminism(co, ctx);
        CORRAL_WAIT_FRAME_AT(co, watched);
    }
    ctx->phase = 2;
    while (ctx->hp > 750) {
        boss_read_nondeterminism(co, ctx);
        minion_start(corral_sched_of(co), (minion_ctx){ctx->summoned, ctx->summoned % 2 ? 40 : -40, 90 + ctx->summoned % 60});
        ctx->summoned++;
        CORRAL_WAIT_SECONDS_AT(co, summoning, 0.5f);
    }
    ctx->phase = 3;
    while (ctx->hp > 0) {
        boss_read_nondeterminism(co, ctx);
        ctx->quakes++;
        corral_signal_raise(corral_sched_of(co), ctx->quake);
        CORRAL_WAIT_SECONDS_AT(co, raging, 1.0f);
    }
    ctx->phase = 4;
    CORRAL_END(co);
}

/* moves by its input, shoots the boss, sends an order to the commander */
DEFINE_COROUTINE_AT(player, PLAYER_POINTS)
{
    CORRAL_BEGIN_AT(co, PLAYER_POINTS);
    for (;;) {
        {
            corral_sched *s = corral_sched_of(co);
            if (ctx->input & IN_LEFT) ctx->x -= 2;
            if (ctx->input & IN_RIGHT) ctx->x += 2;
            if (ctx->cooldown > 0) ctx->cooldown--;
            if ((ctx->input & IN_FIRE) && ctx->cooldown == 0) {
                boss_ctx *b = boss_ctx_of(s, ctx->boss);
                if (b && b->hp > 0) {
                    b->hp -= 3 + ctx->id;
                    ctx->hits++;
                }
                ctx->cooldown = 4;
            }
            if (ctx->input & IN_ORDER) {
                int32_t order = ctx->id << 16 | (ctx->x & 0xFFFF);
                corral_channel_try_send(s, ctx->orders, &order, sizeof order);
            }
        }
        CORRAL_WAIT_FRAME_AT(co, stepped);
    }
    CORRAL_END(co);
}

/* takes the orders from the channel; each moves the target and rallies */
DEFINE_COROUTINE_AT(commander, COMMANDER_POINTS)
{
    CORRAL_BEGIN_AT(co, COMMANDER_POINTS);
    for (;;) {
        CORRAL_RECEIVE_AT(co, received, ctx->orders, &ctx->order);
        ctx->orders_taken++;
        ctx->target = (int16_t)(ctx->order & 0xFFFF);
        corral_signal_raise(corral_sched_of(co), ctx->rally);
    }
    CORRAL_END(co);
}

/* walks between lo and hi; at each end turns, moves its beat to the
   commander's target and rests */
DEFINE_COROUTINE_AT(unit, UNIT_POINTS)
{
    CORRAL_BEGIN_AT(co, UNIT_POINTS);
    for (;;) {
        ctx->pos += ctx->dir * (1 + ctx->id % 3);
        if (ctx->pos <= ctx->lo || ctx->pos >= ctx->hi) {
            commander_ctx *c = commander_ctx_of(corral_sched_of(co), ctx->commander);
            int32_t t = c ? c->target : 0, reach = 20 + ctx->id % 16;
            ctx->dir = ctx->pos <= ctx->lo ? 1 : -1;
            ctx->lo = t - reach;
            ctx->hi = t + reach;
            ctx->rests++;
            CORRAL_WAIT_SECONDS_AT(co, rested, ctx->rest);
        } else {
            CORRAL_WAIT_FRAME_AT(co, walked);
        }
    }
    CORRAL_END(co);
}

/* races a rally or a quake against its time limit */
DEFINE_COROUTINE_AT(racer, RACER_POINTS)
{
    CORRAL_BEGIN_AT(co, RACER_POINTS);
    for (;;) {
        {
            corral_wait ws[3] = {corral_wait_signal(ctx->rally), corral_wait_signal(ctx->quake), corral_wait_seconds(ctx->limit)};
            CORRAL_WAIT_ANY_AT(co, raced, ws, 3);
        }
        if (corral_wait_fired(co) == 2) ctx->timeouts++;
        else ctx->wins++;
        ctx->limit = 0.5f + (float)((ctx->id * 7 + ctx->wins * 3 + ctx->timeouts) % 10) * 0.1f;
    }
    CORRAL_END(co);
}

DEFINE_COROUTINE_AT(minion, MINION_POINTS)
{
    CORRAL_BEGIN_AT(co, MINION_POINTS);
    while (--ctx->life > 0) {
        ctx->pos += ctx->id % 2 ? -1 : 1;
        CORRAL_WAIT_FRAMES_AT(co, crept, 2);
    }
    CORRAL_END(co);
}

#define GAME_TYPES(X) X(boss, 1, 0) X(player, 2, 0) X(commander, 3, 0) X(unit, 4, 0) X(racer, 5, 0) X(minion, 6, 0)
CORRAL_DECLARE_REGISTRY(game, GAME_TYPES)
CORRAL_DEFINE_REGISTRY(game, GAME_TYPES);

/* every scheduler of the game (peers, scratch, spectator) has this desc;
   only the players rewind, so only theirs has the kept ring (a save loads
   into any scheduler with room: a snapshot's layout leaves the ring out) */
static corral_sched *game_sched(bool kept)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.registry = &game_registry;
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = g_slots;
    if (!kept) return corral_sched_create(&d);
    d.kept_snapshots = MAX_ROLLBACK + 2;
    /* the starts of the last 10 frames: a rollback reaches 8 back, a
       hash exchange's save the start of the frame after the confirmed
       one; 256 bytes a slot each: the default game's snapshots are about
       45 KiB of its 128 KiB (the summary says) */
    d.kept_bytes = (MAX_ROLLBACK + 2) * g_slots * 256u;
    return corral_sched_create(&d);
}

static void game_start(corral_sched *s, corral_handle player[2])
{
    corral_signal quake = corral_signal_create(s), rally = corral_signal_create(s);
    corral_channel orders = corral_channel_create_ex(s, sizeof(int32_t), 16);
    corral_handle b = boss_start(s, (boss_ctx){1500, 0, 0, 0, 0, quake});
    for (int p = 0; p < 2; p++) player[p] = player_start(s, (player_ctx){p, 0, p ? 30 : -30, 0, 0, b, orders});
    corral_handle c = commander_start(s, (commander_ctx){0, 0, 0, orders, rally});
    for (int i = 0; i < g_units; i++) {
        int32_t pos = (i * 37) % 200 - 100;
        unit_start(s, (unit_ctx){i, pos, i % 2 ? 1 : -1, pos - 30, pos + 30, 0, 0.25f + 0.05f * (float)(i % 16), c});
    }
    for (int i = 0; i < RACERS; i++)
        racer_start(s, (racer_ctx){i, 0, 0, 0.5f + 0.1f * (float)(i % 10), rally, quake});
}

/* the players' coroutines of a loaded state, found by their type */
static bool game_find_players(corral_sched *s, corral_handle player[2])
{
    uint32_t cursor = 0, found = 0;
    corral_co_info info;
    while (corral_next_co(s, &cursor, &info))
        if (info.type == &player_type) {
            player_ctx *pc = player_ctx_of(s, info.handle);
            if (pc && pc->id >= 0 && pc->id < 2) {
                player[pc->id] = info.handle;
                found |= 1u << pc->id;
            }
        }
    return found == 3u;
}

/* the boss as the game stands: its phase and hit points (phase 4: beaten) */
static void game_boss(corral_sched *s, int *phase, int *hp)
{
    uint32_t cursor = 0;
    corral_co_info info;
    *phase = 4;
    *hp = 0;
    while (corral_next_co(s, &cursor, &info))
        if (info.type == &boss_type) {
            boss_ctx *b = boss_ctx_of(s, info.handle);
            *phase = b->phase;
            *hp = b->hp;
        }
}

/* one frame: both inputs into the players, one tick at the fixed dt */
static void game_frame(corral_sched *s, const corral_handle player[2], int in0, int in1)
{
    player_ctx *a = player_ctx_of(s, player[0]), *b = player_ctx_of(s, player[1]);
    if (a) a->input = in0;
    if (b) b->input = in1;
    corral_tick(s, DT);
}

static uint32_t mix(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7FEB352Du;
    v ^= v >> 15;
    v *= 0x846CA68Bu;
    return v ^ (v >> 16);
}
/* what player p presses for frame f: held 8 frames at a time, an order now and then */
static uint8_t input_of(uint32_t seed, int p, int f)
{
    uint32_t held = mix(seed * 0x9E3779B9u ^ mix((uint32_t)(p * 7919 + f / 8))) % 8u;
    uint32_t order = mix(seed ^ (uint32_t)(p * 104729 + f) * 0x85EBCA6Bu) % 40u == 0 ? IN_ORDER : 0;
    return (uint8_t)(held | order);
}

/* ---- bytes on the wire (little endian) */

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
} wbuf;
static void put8(wbuf *w, uint8_t v)
{
    if (w->n < w->cap) w->p[w->n] = v;
    w->n++;
}
static void put16(wbuf *w, uint16_t v)
{
    put8(w, (uint8_t)v);
    put8(w, (uint8_t)(v >> 8));
}
static void put32(wbuf *w, uint32_t v)
{
    for (int i = 0; i < 4; i++) put8(w, (uint8_t)(v >> (8 * i)));
}
static void put64(wbuf *w, uint64_t v)
{
    for (int i = 0; i < 8; i++) put8(w, (uint8_t)(v >> (8 * i)));
}
typedef struct rbuf {
    const uint8_t *p;
    size_t n, at;
    bool bad;
} rbuf;
static uint8_t get8(rbuf *r)
{
    if (r->at >= r->n) {
        r->bad = true;
        return 0;
    }
    return r->p[r->at++];
}
static uint16_t get16(rbuf *r)
{
    const uint8_t lo = get8(r);
    return (uint16_t)(lo | (uint16_t)get8(r) << 8);
}
static uint32_t get32(rbuf *r)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)get8(r) << (8 * i);
    return v;
}
static uint64_t get64(rbuf *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)get8(r) << (8 * i);
    return v;
}

enum {
    MSG_NONE,
    MSG_TICK,       /* channel 0: u32 tick, u32 inputs held, u32 hashes held, u32 first, u8 n, n inputs, u8 m, m x (u32 frame, u64 hash) */
    MSG_PIECES,     /* u32 frame, u32 n, n x (u32 kind, u32 index, u64 hash) */
    MSG_SAVE,       /* u32 frame, the save */
    MSG_DONE,       /* u32 tick, the last it sent: the sender holds all it needs and stops ticking */
    MSG_WANT_SAVE,  /* spectator to host */
    MSG_SPECT_SAVE, /* u32 frame, the save */
    MSG_INPUTS,     /* u32 first, u32 n, n x (u8, u8) */
    MSG_END,        /* u32 frames: no input follows */
    MSG_HELLO,      /* u32 frames, u32 seed, u32 latency ms, u32 loss %, u32 coroutines: the sender's options */
    MSG_COUNT
};
enum { CONNECT_PLAYER = 1, CONNECT_SPECTATOR = 2 };
/* both reliable (see the header comment); two channels so that a save
   on its way does not hold the ticks up */
enum { CHANNEL_TICKS, CHANNEL_MESSAGES, CHANNEL_COUNT };

/* a message that breaks the protocol: the peer says what it got and
   from whom, and stops (exit 2); nothing from the wire is trusted further */
static void malformed(const char *from, const char *what, size_t n)
{
    fprintf(stderr, "netplay: %s sent a malformed %s (%zu bytes)\n", from, what, n);
    exit(2);
}

static void send_bytes(ENetPeer *to, int channel, const void *p, size_t n)
{
    ENetPacket *pk = enet_packet_create(p, n, ENET_PACKET_FLAG_RELIABLE);
    if (!pk || enet_peer_send(to, (enet_uint8)channel, pk) < 0) {
        fprintf(stderr, "netplay: send of %zu bytes failed\n", n);
        exit(2);
    }
}

static double wall_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* the game's options: what the other player's must equal (the game's
   length and size, and the one simulated link: seed, latency, loss) and
   what a spectator checks (the size) */
enum { OPT_FRAMES, OPT_SEED, OPT_LATENCY, OPT_LOSS, OPT_COROUTINES, OPT_COUNT };
static const char *const option_names[OPT_COUNT] = {"--frames", "--seed", "--latency", "--loss", "--coroutines"};

static uint32_t game_coroutines(void)
{
    return (uint32_t)(g_units + RACERS + OTHERS);
}

static void send_hello(ENetPeer *to, const uint32_t opt[OPT_COUNT])
{
    uint8_t bytes[1 + 4 * OPT_COUNT];
    wbuf w = {bytes, 0, sizeof bytes};
    put8(&w, MSG_HELLO);
    for (int i = 0; i < OPT_COUNT; i++) put32(&w, opt[i]);
    send_bytes(to, CHANNEL_MESSAGES, bytes, w.n);
}

/* the other side's MSG_HELLO against this one's options, from `first`
   on: a difference is an error (exit 2) that names the option */
static void check_hello(rbuf *r, const char *from, const uint32_t mine[OPT_COUNT], int first)
{
    uint32_t theirs[OPT_COUNT];
    for (int i = 0; i < OPT_COUNT; i++) theirs[i] = get32(r);
    if (r->bad || r->at != r->n) malformed(from, "options message", r->n);
    for (int i = first; i < OPT_COUNT; i++)
        if (theirs[i] != mine[i]) {
            fprintf(stderr, "netplay: %s plays another game: %s %u here, %u there\n", from, option_names[i],
                    (unsigned)mine[i], (unsigned)theirs[i]);
            exit(2);
        }
}

/* ---- a player's peer */

typedef struct checkpoint {
    int frame; /* -1: none */
    size_t save_size, npieces;
    uint8_t *save;
    corral_state_piece *pieces;
} checkpoint;

typedef struct rx_slot {
    long long tick; /* -1: empty */
    size_t n;
    uint8_t bytes[512];
} rx_slot;

typedef struct peer {
    /* the options */
    int me, frames, latency_frames, loss_pct, spectators;
    uint32_t seed;
    /* the game */
    corral_sched *s;
    corral_handle player[2];
    uint8_t *known[2], *used[2]; /* per frame: the input known (NO_INPUT: not yet), the input played */
    uint64_t *hash;              /* per 30th frame: the state hash after it, as last played */
    int prefix[2];               /* frames from 0 whose input of each player is known */
    int played, confirmed;
    /* the hash exchanges: per 30th frame */
    int nchecks, checks_made, checks_agreed;
    uint64_t *mine, *theirs;
    bool *theirs_known;
    int theirs_prefix;
    checkpoint kept[CHECKPOINTS_KEPT];
    /* the network */
    ENetHost *host;
    ENetPeer *remote;
    long long tick, next_delivery;
    long long remote_done_tick; /* -1: still ticking */
    bool hello_seen;            /* the other player's options came and agree */
    bool remote_gone;
    int remote_has_inputs, remote_has_hashes;
    rx_slot *rx;
    /* the desync report */
    int desync_frame; /* -1: none */
    bool pieces_sent, save_sent, reported;
    corral_state_piece *their_pieces;
    size_t their_npieces;
    bool their_pieces_known;
    uint8_t *their_save;
    size_t their_save_size;
    bool their_save_known;
    /* the spectator (host only) */
    ENetPeer *spectator;
    bool spectator_wants, spectator_served, spectator_ended;
    int spectator_next;
    int spectators_seen;
    /* the wall clock's start of the waits that have a deadline (0: not waiting) */
    double half_since, desync_since, all_played_since;
    /* counts */
    int rollbacks, deepest, replayed, stalls;
    size_t snapshot_peak; /* the largest kept snapshot, bytes */
    /* the cost: per tick with simulation work, its time and rollback depth */
    const char *svg_path; /* --svg: the plot's file; NULL: none */
    int latency_ms;
    unsigned coroutines; /* live at the start */
    struct tick_cost {
        int tick, frame, depth; /* depth 0: no rollback */
        bool saved;             /* a checkpoint made (a save and its pieces) */
        double ms, rollback_ms;         /* the monotonic clock */
        double cpu_ms, cpu_rollback_ms; /* the thread's CPU time */
    } *cost;
    size_t ncost, cost_cap;
    int checkpoints_made;
} peer;

static void options_of(const peer *P, uint32_t opt[OPT_COUNT])
{
    opt[OPT_FRAMES] = (uint32_t)P->frames;
    opt[OPT_SEED] = P->seed;
    opt[OPT_LATENCY] = (uint32_t)P->latency_ms;
    opt[OPT_LOSS] = (uint32_t)P->loss_pct;
    opt[OPT_COROUTINES] = game_coroutines();
}

static bool dropped(const peer *P, int sender, long long tick)
{
    if (!P->loss_pct) return false;
    return mix(P->seed * 0x27D4EB2Fu ^ mix((uint32_t)sender * 0x165667B1u ^ (uint32_t)tick)) % 100u < (uint32_t)P->loss_pct;
}

static int input_at(const peer *P, int p, int f)
{
    if (P->known[p][f] != NO_INPUT) return P->known[p][f];
    return P->prefix[p] ? P->known[p][P->prefix[p] - 1] : 0;
}

static void play(peer *P, int f)
{
    size_t kept = corral_snapshot_keep(P->s, (uint32_t)f);
    if (!kept) {
        fprintf(stderr, "netplay: snapshot of frame %d: %s\n", f, corral_last_error_detail(P->s));
        exit(2);
    }
    if (kept > P->snapshot_peak) P->snapshot_peak = kept;
    for (int p = 0; p < 2; p++) P->used[p][f] = (uint8_t)input_at(P, p, f);
    game_frame(P->s, P->player, P->used[0][f], P->used[1][f]);
    /* only the exchanged frames are hashed: the hash reads the whole
       state, several times a frame's own work */
    if ((f + 1) % HASH_INTERVAL == 0) P->hash[f] = corral_state_hash(P->s);
}

static void rewind_to(peer *P, int f)
{
    if (!corral_restore_kept(P->s, (uint32_t)f)) {
        fprintf(stderr, "netplay: restore of frame %d: %s\n", f, corral_last_error_detail(P->s));
        exit(2);
    }
}

static checkpoint *checkpoint_of(peer *P, int frame)
{
    for (int i = 0; i < CHECKPOINTS_KEPT; i++)
        if (P->kept[i].frame == frame) return &P->kept[i];
    return NULL;
}
static checkpoint *newest_checkpoint(peer *P)
{
    checkpoint *best = NULL;
    for (int i = 0; i < CHECKPOINTS_KEPT; i++)
        if (P->kept[i].frame >= 0 && (!best || P->kept[i].frame > best->frame)) best = &P->kept[i];
    return best;
}

/* the report starts at the first mismatch this peer sees, or at the
   other peer's pieces, whichever comes first */
static void enter_desync(peer *P, int frame, const char *found_by)
{
    if (P->desync_frame >= 0 && frame >= P->desync_frame) return;
    P->desync_frame = frame;
    if (P->desync_since == 0.0) P->desync_since = wall_seconds();
    printf("desync at frame %d: found by %s\n", frame, found_by);
}

static void compare_check(peer *P, int k)
{
    int frame = (k + 1) * HASH_INTERVAL - 1;
    if (k >= P->checks_made || !P->theirs_known[k]) return;
    if (P->mine[k] == P->theirs[k]) {
        P->checks_agreed++;
        printf("check frame %d agree\n", frame);
    } else {
        printf("check frame %d DESYNC %016llx against %016llx\n", frame, (unsigned long long)P->mine[k],
               (unsigned long long)P->theirs[k]);
        enter_desync(P, frame, "this peer");
    }
}

/* the state after frame c (the start of c + 1) saved with its pieces:
   the live state, or the kept start of c + 1 and the frames since
   played again */
static void make_checkpoint(peer *P, int c)
{
    checkpoint *slot = &P->kept[(c / HASH_INTERVAL) % CHECKPOINTS_KEPT];
    if (P->played > c + 1) rewind_to(P, c + 1);
    slot->frame = c;
    P->checkpoints_made++;
    slot->save_size = corral_save(P->s, slot->save, g_save_bytes);
    slot->npieces = corral_state_pieces(P->s, slot->pieces, g_max_pieces);
    if (!slot->save_size || slot->npieces > g_max_pieces) {
        fprintf(stderr, "netplay: save of frame %d: %s\n", c, corral_last_error_detail(P->s));
        exit(2);
    }
    for (int f = c + 1; f < P->played; f++) play(P, f);
}

/* frames confirmed so far: checkpoints made, hashes printed */
static void confirm(peer *P)
{
    int now = P->prefix[0] < P->prefix[1] ? P->prefix[0] : P->prefix[1];
    if (now > P->played) now = P->played;
    for (int f = P->confirmed; f < now; f++) {
        if ((f + 1) % HASH_INTERVAL) continue;
        int k = (f + 1) / HASH_INTERVAL - 1;
        if (P->desync_frame >= 0 && f > P->desync_frame) break;
        make_checkpoint(P, f);
        P->mine[k] = P->hash[f];
        P->checks_made = k + 1;
        printf("hash frame %d %016llx\n", f, (unsigned long long)P->hash[f]);
        compare_check(P, k);
    }
    if (now > P->confirmed) P->confirmed = now;
}

static void learn_input(peer *P, int p, int f, uint8_t v, int *redo)
{
    if (f < 0 || f >= P->frames || P->known[p][f] != NO_INPUT) return;
    P->known[p][f] = v;
    while (P->prefix[p] < P->frames && P->known[p][P->prefix[p]] != NO_INPUT) P->prefix[p]++;
    if (f < P->played && P->used[p][f] != v && f < *redo) *redo = f;
}

/* a tick packet at its delivery tick: inputs, acknowledgements, hashes */
static void deliver(peer *P, const rx_slot *slot, int *redo)
{
    rbuf r = {slot->bytes, slot->n, 0, false};
    const int other = 1 - P->me;
    const uint32_t frames = (uint32_t)P->frames;
    get8(&r);
    get32(&r); /* its tick */
    /* every count and frame is checked against the game before use */
    uint32_t has_inputs = get32(&r), has_hashes = get32(&r), first = get32(&r), n = get8(&r);
    if (r.bad || has_inputs > frames || has_hashes > (uint32_t)P->nchecks || first > frames || n > MAX_INPUTS_SENT)
        malformed("the other peer", "tick packet", slot->n);
    for (uint32_t i = 0; i < n; i++) learn_input(P, other, (int)(first + i), get8(&r), redo);
    uint32_t m = get8(&r);
    if (m > MAX_HASHES_SENT) malformed("the other peer", "tick packet", slot->n);
    for (uint32_t i = 0; i < m && !r.bad; i++) {
        uint32_t frame = get32(&r);
        uint64_t h = get64(&r);
        if (frame >= frames || (frame + 1) % HASH_INTERVAL) malformed("the other peer", "tick packet", slot->n);
        int k = (int)((frame + 1) / HASH_INTERVAL) - 1;
        if (r.bad || P->theirs_known[k]) continue;
        P->theirs[k] = h;
        P->theirs_known[k] = true;
        while (P->theirs_prefix < P->nchecks && P->theirs_known[P->theirs_prefix]) P->theirs_prefix++;
        compare_check(P, k);
    }
    if (r.bad || r.at != r.n) malformed("the other peer", "tick packet", slot->n);
    if ((int)has_inputs > P->remote_has_inputs) P->remote_has_inputs = (int)has_inputs;
    if ((int)has_hashes > P->remote_has_hashes) P->remote_has_hashes = (int)has_hashes;
}

static void send_tick(peer *P)
{
    uint8_t bytes[512];
    wbuf w = {bytes, 0, sizeof bytes};
    put8(&w, MSG_TICK);
    put32(&w, (uint32_t)P->tick);
    put32(&w, (uint32_t)P->prefix[1 - P->me]);
    put32(&w, (uint32_t)P->theirs_prefix);
    int first = P->remote_has_inputs, n = P->prefix[P->me] - first;
    if (n > MAX_INPUTS_SENT) n = MAX_INPUTS_SENT;
    if (n < 0) n = 0;
    put32(&w, (uint32_t)first);
    put8(&w, (uint8_t)n);
    for (int i = 0; i < n; i++) put8(&w, P->known[P->me][first + i]);
    int k0 = P->remote_has_hashes, m = P->checks_made - k0;
    if (m > MAX_HASHES_SENT) m = MAX_HASHES_SENT;
    if (m < 0) m = 0;
    put8(&w, (uint8_t)m);
    for (int i = 0; i < m; i++) {
        put32(&w, (uint32_t)((k0 + i + 1) * HASH_INTERVAL - 1));
        put64(&w, P->mine[k0 + i]);
    }
    send_bytes(P->remote, CHANNEL_TICKS, bytes, w.n);
}

static void send_pieces(peer *P, const checkpoint *c)
{
    size_t cap = 16 + c->npieces * 16;
    uint8_t *bytes = malloc(cap);
    if (!bytes) exit(2);
    wbuf w = {bytes, 0, cap};
    put8(&w, MSG_PIECES);
    put32(&w, (uint32_t)c->frame);
    put32(&w, (uint32_t)c->npieces);
    for (size_t i = 0; i < c->npieces; i++) {
        put16(&w, c->pieces[i].kind);
        put16(&w, c->pieces[i].type);
        put32(&w, c->pieces[i].index);
        put64(&w, c->pieces[i].hash);
    }
    send_bytes(P->remote, CHANNEL_MESSAGES, bytes, w.n);
    free(bytes);
}

static void send_save(ENetPeer *to, int type, const checkpoint *c)
{
    uint8_t *bytes = malloc(5 + c->save_size);
    if (!bytes) exit(2);
    wbuf w = {bytes, 0, 5 + c->save_size};
    put8(&w, (uint8_t)type);
    put32(&w, (uint32_t)c->frame);
    memcpy(bytes + w.n, c->save, c->save_size);
    send_bytes(to, CHANNEL_MESSAGES, bytes, 5 + c->save_size);
    free(bytes);
}

static const char *piece_kind_str(uint32_t kind)
{
    static const char *const names[CORRAL_PIECE_KIND_COUNT] = {"the clocks", "coroutine", "the run order", "pool"};
    return kind < CORRAL_PIECE_KIND_COUNT ? names[kind] : "?";
}

/* the type of the coroutine in slot `index` of a loaded state */
/* a piece's type by its place in the type table, which peers of one
   build and registry number alike */
static const char *type_named(corral_sched *s, uint16_t type)
{
    corral_type_stats ts;
    return corral_stats_type(s, type, &ts) && ts.name ? ts.name : "?";
}

static corral_sched *load_scratch(const uint8_t *save, size_t n, const char *whose)
{
    corral_sched *s = game_sched(false);
    if (!s || !corral_load(s, save, n)) {
        fprintf(stderr, "netplay: load of %s save: %s\n", whose, s ? corral_last_error_detail(s) : "no scheduler");
        exit(2);
    }
    return s;
}

/* the report's steps, each taken once what it needs is here */
static void desync_progress(peer *P)
{
    if (P->desync_frame < 0 || P->reported) return;
    checkpoint *c = checkpoint_of(P, P->desync_frame);
    if (!c) return; /* not confirmed here yet */
    if (!P->pieces_sent) {
        send_pieces(P, c);
        P->pieces_sent = true;
    }
    if (P->their_pieces_known && !P->save_sent) {
        size_t i = corral_state_pieces_diff(c->pieces, c->npieces, P->their_pieces, P->their_npieces);
        if (i < c->npieces && c->pieces[i].kind == CORRAL_PIECE_COROUTINE)
            printf("desync piece %zu of %zu: coroutine 0x%06x (%s)\n", i, c->npieces, c->pieces[i].index,
                   type_named(P->s, c->pieces[i].type));
        else if (i < c->npieces)
            printf("desync piece %zu of %zu: %s %u\n", i, c->npieces, piece_kind_str(c->pieces[i].kind), c->pieces[i].index);
        else
            printf("desync piece %zu: the lists' lengths (%zu against %zu)\n", i, c->npieces, P->their_npieces);
        send_save(P->remote, MSG_SAVE, c);
        P->save_sent = true;
    }
    if (P->their_save_known && P->save_sent) {
        corral_sched *a = load_scratch(c->save, c->save_size, "this peer's");
        corral_sched *b = load_scratch(P->their_save, P->their_save_size, "the other peer's");
        char words[512];
        if (corral_desync_describe(a, b, words, sizeof words)) printf("desync report: %s\n", words);
        else printf("desync report: the saves agree (the difference is outside what a save holds)\n");
        corral_sched_destroy(a);
        corral_sched_destroy(b);
        P->reported = true;
    }
}

/* a 30th frame of this game, from the wire */
static bool exchanged_frame(const peer *P, uint32_t frame)
{
    return frame < (uint32_t)P->frames && (frame + 1) % HASH_INTERVAL == 0;
}

static void on_receive(peer *P, ENetEvent *ev)
{
    const size_t len = ev->packet->dataLength;
    rbuf r = {ev->packet->data, len, 0, false};
    uint8_t type = get8(&r);
    if (ev->peer == P->spectator) {
        /* a spectator only asks; anything else from it is ignored, as the
           players' game does not depend on it */
        if (type == MSG_WANT_SAVE && len == 1) P->spectator_wants = true;
        return;
    }
    if (ev->peer != P->remote) return;
    switch (type) {
    case MSG_TICK: {
        uint32_t t = get32(&r);
        if (r.bad || len > sizeof P->rx[0].bytes) malformed("the other peer", "tick packet", len);
        if ((long long)t < P->next_delivery) break; /* its tick is past: delivered or lost */
        rx_slot *slot = &P->rx[t % RX_RING];
        slot->tick = t;
        slot->n = len;
        memcpy(slot->bytes, ev->packet->data, len);
        break;
    }
    case MSG_PIECES: {
        uint32_t frame = get32(&r), n = get32(&r);
        if (r.bad || !exchanged_frame(P, frame)) malformed("the other peer", "state's pieces", len);
        if (n > g_max_pieces) {
            fprintf(stderr, "netplay: the other peer's state has %u pieces, more than the %zu this game holds\n",
                    (unsigned)n, g_max_pieces);
            exit(2);
        }
        if (len != 9 + (size_t)n * 16) malformed("the other peer", "state's pieces", len);
        for (uint32_t i = 0; i < n; i++) {
            P->their_pieces[i].kind = get16(&r);
            P->their_pieces[i].type = get16(&r);
            P->their_pieces[i].index = get32(&r);
            P->their_pieces[i].hash = get64(&r);
        }
        P->their_npieces = n;
        P->their_pieces_known = true;
        enter_desync(P, (int)frame, "the other peer (its pieces came)");
        break;
    }
    case MSG_SAVE: {
        uint32_t frame = get32(&r);
        if (r.bad || !exchanged_frame(P, frame)) malformed("the other peer", "save", len);
        size_t n = len - 5;
        if (n > g_save_bytes) {
            fprintf(stderr, "netplay: the other peer's save of %zu bytes is larger than the %zu this game holds\n", n,
                    g_save_bytes);
            exit(2);
        }
        memcpy(P->their_save, ev->packet->data + 5, n);
        P->their_save_size = n;
        P->their_save_known = true;
        break;
    }
    case MSG_HELLO: {
        uint32_t mine[OPT_COUNT];
        options_of(P, mine);
        enet_host_flush(P->host); /* this peer's own options, out before it may stop */
        check_hello(&r, "the other player", mine, 0);
        P->hello_seen = true;
        break;
    }
    case MSG_DONE: {
        uint32_t t = get32(&r);
        if (r.bad || len != 5) malformed("the other peer", "end of its ticks", len);
        P->remote_done_tick = t;
        P->remote_has_inputs = P->frames;
        P->remote_has_hashes = P->nchecks;
        break;
    }
    default:
        malformed("the other peer", "message", len);
    }
}

/* the host takes one player and one spectator, whom it tells the
   game's options; any other connection is closed */
static void on_connect(peer *P, ENetEvent *ev)
{
    uint32_t opt[OPT_COUNT];
    options_of(P, opt);
    if (ev->peer == P->remote) return;
    if (P->me == 0 && ev->data == CONNECT_PLAYER && !P->remote) {
        P->remote = ev->peer;
        send_hello(ev->peer, opt);
    } else if (P->me == 0 && ev->data == CONNECT_SPECTATOR && !P->spectator) {
        P->spectator = ev->peer;
        P->spectators_seen++;
        send_hello(ev->peer, opt);
    } else {
        enet_peer_disconnect_now(ev->peer, 0);
    }
}

static void service(peer *P, enet_uint32 wait_ms)
{
    ENetEvent ev;
    int got = enet_host_service(P->host, &ev, wait_ms);
    for (; got > 0; got = enet_host_check_events(P->host, &ev)) {
        switch (ev.type) {
        case ENET_EVENT_TYPE_CONNECT:
            on_connect(P, &ev);
            break;
        case ENET_EVENT_TYPE_RECEIVE:
            on_receive(P, &ev);
            enet_packet_destroy(ev.packet);
            break;
        case ENET_EVENT_TYPE_DISCONNECT:
            if (ev.peer == P->remote) P->remote_gone = true;
            if (ev.peer == P->spectator) P->spectator = NULL;
            break;
        default:
            break;
        }
    }
    desync_progress(P);
}

/* a monotonic clock, in milliseconds */
static double mono_ms(void)
{
#if defined(_WIN32)
    LARGE_INTEGER c, f;
    QueryPerformanceCounter(&c);
    QueryPerformanceFrequency(&f);
    return (double)c.QuadPart * 1000.0 / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1e-6;
#endif
}

/* the thread's CPU time, in milliseconds (0 where there is no such clock) */
#if !defined(_WIN32) && defined(CLOCK_THREAD_CPUTIME_ID)
#define HAVE_CPU_CLOCK 1
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1e-6;
}
#else
#define HAVE_CPU_CLOCK 0
static double cpu_ms(void)
{
    return 0;
}
#endif

/* a reading of both clocks */
typedef struct stamp {
    double wall, cpu;
} stamp;
static stamp stamp_now(void)
{
    stamp t = {mono_ms(), cpu_ms()};
    return t;
}

static void cost_add(peer *P, int frame, int depth, bool saved, stamp t0, stamp t_rollback, stamp t_printed, stamp t1)
{
    if (P->ncost == P->cost_cap) {
        size_t cap = P->cost_cap ? 2 * P->cost_cap : 2048;
        struct tick_cost *c = realloc(P->cost, cap * sizeof *c);
        if (!c) exit(2);
        P->cost = c;
        P->cost_cap = cap;
    }
    P->cost[P->ncost++] = (struct tick_cost){(int)P->tick,
                                             frame,
                                             depth,
                                             saved,
                                             (t_rollback.wall - t0.wall) + (t1.wall - t_printed.wall),
                                             t_rollback.wall - t0.wall,
                                             (t_rollback.cpu - t0.cpu) + (t1.cpu - t_printed.cpu),
                                             t_rollback.cpu - t0.cpu};
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the q-th quantile (nearest rank) of n sorted values */
static double quantile(const double *sorted, size_t n, double q)
{
    if (!n) return 0;
    size_t rank = (size_t)(q * (double)n + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return sorted[rank - 1];
}

/* a step of 1, 2 or 5 times a power of ten giving at most 8 ticks over `span` */
static double nice_step(double span)
{
    double step = 1e-3;
    while (step * 8 < span) {
        if (step * 2 * 8 >= span) return step * 2;
        if (step * 5 * 8 >= span) return step * 5;
        step *= 10;
    }
    return step;
}

/* the plot of the run: per tick with simulation work, the rollback depth
   (bars, right axis) and the frame time (line, left axis), with the
   16.6 ms of a 60 Hz frame */
static bool write_svg(const peer *P, const char *path, double p50, double p99)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    const double W = 960, H = 440, L = 70, R = 890, T = 60, B = 380;
    int ticks = P->ncost ? P->cost[P->ncost - 1].tick + 1 : 1;
    double top = FRAME_BUDGET_MS * 1.2;
    for (size_t i = 0; i < P->ncost; i++)
        if (P->cost[i].ms * 1.05 > top) top = P->cost[i].ms * 1.05;
    double ystep = nice_step(top), xstep = nice_step((double)ticks);
    top = ystep * (double)(int)(top / ystep + 0.999);
#define X_OF(t) (L + (R - L) * (double)(t) / (double)ticks)
#define Y_MS(v) (B - (B - T) * (v) / top)
#define Y_DEPTH(d) (B - (B - T) * (double)(d) / (double)MAX_ROLLBACK)
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">netplay, player %d: %u coroutines, "
               "latency %d ms, loss %d %%, %d frames</text>\n", W / 2, P->me, P->coroutines,
            P->latency_ms, P->loss_pct, P->frames);
    fprintf(f, "<text x=\"%.0f\" y=\"42\" text-anchor=\"middle\">simulation time per frame with its rollback: p50 %.3f ms, "
               "p99 %.3f ms; %d rollbacks, the deepest %d frames</text>\n", W / 2, p50, p99, P->rollbacks, P->deepest);
    /* the grid and the axes */
    for (double v = 0; v <= top + 1e-9; v += ystep) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, Y_MS(v), R, Y_MS(v));
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, Y_MS(v) + 4, v);
    }
    for (int d = 0; d <= MAX_ROLLBACK; d += 2)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c60\">%d</text>\n", R + 6, Y_DEPTH(d) + 4, d);
    for (double t = 0; t <= (double)ticks; t += xstep) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", X_OF(t), B, X_OF(t), B + 5);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", X_OF(t), B + 18, t);
    }
    fprintf(f, "<path d=\"M%.1f %.1fV%.1fH%.1fV%.1f\" fill=\"none\" stroke=\"#000\"/>\n", L, T, B, R, T);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">tick of the virtual clock (one a frame, 1/60 s)</text>\n",
            (L + R) / 2, B + 40);
    fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\" fill=\"#1f5fbf\">frame time "
               "(ms, monotonic clock)</text>\n", L - 48, (T + B) / 2);
    fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(90)\" text-anchor=\"middle\" fill=\"#c60\">rollback depth "
               "(frames played again)</text>\n", R + 34, (T + B) / 2);
    /* the rollbacks: a bar per tick that rewound */
    fprintf(f, "<g fill=\"#f0a040\" fill-opacity=\"0.6\">\n");
    double bar = (R - L) / (double)ticks;
    if (bar < 1) bar = 1;
    for (size_t i = 0; i < P->ncost; i++)
        if (P->cost[i].depth)
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", X_OF(P->cost[i].tick),
                    Y_DEPTH(P->cost[i].depth), bar, B - Y_DEPTH(P->cost[i].depth));
    fprintf(f, "</g>\n");
    /* the frame times */
    fprintf(f, "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1\" points=\"");
    for (size_t i = 0; i < P->ncost; i++)
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", X_OF(P->cost[i].tick + 0.5), Y_MS(P->cost[i].ms));
    fprintf(f, "\"/>\n");
    /* the ticks that made a checkpoint */
    fprintf(f, "<g fill=\"none\" stroke=\"#1f5fbf\">\n");
    for (size_t i = 0; i < P->ncost; i++)
        if (P->cost[i].saved)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n", X_OF(P->cost[i].tick + 0.5), Y_MS(P->cost[i].ms));
    fprintf(f, "</g>\n");
    /* the budget of a 60 Hz frame */
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d00\" stroke-dasharray=\"6 4\"/>\n", L,
            Y_MS(FRAME_BUDGET_MS), R, Y_MS(FRAME_BUDGET_MS));
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#d00\" text-anchor=\"end\">16.6 ms: a 60 Hz frame</text>\n", R - 6,
            Y_MS(FRAME_BUDGET_MS) - 6);
    /* the legend, on a white box over the plot's top left */
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"470\" height=\"62\" fill=\"white\" fill-opacity=\"0.9\" "
               "stroke=\"#999\"/>\n", L + 4, T + 2);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#f0a040\" fill-opacity=\"0.6\"/>"
               "<text x=\"%.1f\" y=\"%.1f\">rollback depth</text>\n", L + 10, T + 8, L + 30, T + 17);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f5fbf\" stroke-width=\"2\"/>"
               "<text x=\"%.1f\" y=\"%.1f\">frame time: the rollback, the checkpoints, the new frame</text>\n",
            L + 10, T + 31, L + 24, T + 31, L + 30, T + 35);
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"none\" stroke=\"#1f5fbf\"/>"
               "<text x=\"%.1f\" y=\"%.1f\">a tick that made a checkpoint (a save and its pieces, for the hash exchange)</text>\n",
            L + 17, T + 49, L + 30, T + 53);
    fprintf(f, "</svg>\n");
#undef X_OF
#undef Y_MS
#undef Y_DEPTH
    return fclose(f) == 0;
}

/* one clock's figures: frame time p50, p99 and max, ticks over 16.6 ms,
   the worst rollback, the 8-frame rollbacks' p50 and worst, the worst
   tick that made a checkpoint */
typedef struct cost_figures {
    double p50, p99, max, worst, p50_8, worst8, worst_saved;
    int over, worst_depth, n8, saved;
} cost_figures;

static cost_figures figures_of(const peer *P, bool cpu, double *v, double *r8)
{
    cost_figures c;
    memset(&c, 0, sizeof c);
    for (size_t i = 0; i < P->ncost; i++) {
        const struct tick_cost *t = &P->cost[i];
        double ms = cpu ? t->cpu_ms : t->ms, rb = cpu ? t->cpu_rollback_ms : t->rollback_ms;
        v[i] = ms;
        if (t->saved) {
            c.saved++;
            if (ms > c.worst_saved) c.worst_saved = ms;
        }
        if (ms > FRAME_BUDGET_MS) c.over++;
        if (t->depth && rb > c.worst) {
            c.worst = rb;
            c.worst_depth = t->depth;
        }
        if (t->depth == MAX_ROLLBACK) {
            r8[c.n8++] = rb;
            if (rb > c.worst8) c.worst8 = rb;
        }
    }
    qsort(v, P->ncost, sizeof *v, cmp_double);
    qsort(r8, (size_t)c.n8, sizeof *r8, cmp_double);
    c.p50 = quantile(v, P->ncost, 0.5);
    c.p99 = quantile(v, P->ncost, 0.99);
    c.max = P->ncost ? v[P->ncost - 1] : 0;
    c.p50_8 = quantile(r8, (size_t)c.n8, 0.5);
    return c;
}

static void print_figures(const cost_figures *c)
{
    printf("p50 %.3f ms, p99 %.3f ms, max %.3f ms, %d over 16.6 ms; worst rollback %d frames in %.3f ms; ", c->p50, c->p99,
           c->max, c->over, c->worst_depth, c->worst);
    if (c->n8)
        printf("%d-frame rollbacks p50 %.3f ms, worst %.3f ms (%d of them); ", MAX_ROLLBACK, c->p50_8, c->worst8, c->n8);
    else
        printf("no %d-frame rollback; ", MAX_ROLLBACK);
    printf("%d ticks made a checkpoint, the worst %.3f ms\n", c->saved, c->worst_saved);
}

/* the cost lines: the frame time on the monotonic clock, then the
   thread's CPU time for the same work (the time the thread was
   preempted left out), and the plot */
static void report_cost(peer *P)
{
    double *v = malloc((P->ncost ? P->ncost : 1) * sizeof *v), *r8 = malloc((P->ncost ? P->ncost : 1) * sizeof *r8);
    if (!v || !r8) exit(2);
    cost_figures wall = figures_of(P, false, v, r8);
    printf("cost: player %d, %u coroutines, %zu ticks of simulation work: frame time ", P->me, P->coroutines, P->ncost);
    print_figures(&wall);
    if (HAVE_CPU_CLOCK) {
        cost_figures cpu = figures_of(P, true, v, r8);
        printf("cost: player %d, CPU time of the same work: ", P->me);
        print_figures(&cpu);
    }
    if (P->svg_path) {
        if (write_svg(P, P->svg_path, wall.p50, wall.p99)) printf("cost: the plot is in %s\n", P->svg_path);
        else fprintf(stderr, "netplay: cannot write %s\n", P->svg_path);
    }
    free(v);
    free(r8);
}

/* the spectator's save and the inputs confirmed since (host only) */
static void serve_spectator(peer *P, bool at_end)
{
    if (!P->spectator) return;
    if (P->spectator_wants && !P->spectator_served) {
        if (P->played < P->frames / 2) return; /* a spectator joins at the game's half */
        checkpoint *c = newest_checkpoint(P);
        if (!c) return;
        send_save(P->spectator, MSG_SPECT_SAVE, c);
        P->spectator_next = c->frame + 1;
        P->spectator_served = true;
        printf("spectator served the save of frame %d\n", c->frame);
    }
    while (P->spectator_served && P->spectator_next < P->confirmed) {
        int n = P->confirmed - P->spectator_next;
        if (n > MAX_INPUTS_SPECT) n = MAX_INPUTS_SPECT;
        uint8_t bytes[9 + 2 * MAX_INPUTS_SPECT];
        wbuf w = {bytes, 0, sizeof bytes};
        put8(&w, MSG_INPUTS);
        put32(&w, (uint32_t)P->spectator_next);
        put32(&w, (uint32_t)n);
        for (int i = 0; i < n; i++) {
            put8(&w, P->known[0][P->spectator_next + i]);
            put8(&w, P->known[1][P->spectator_next + i]);
        }
        send_bytes(P->spectator, CHANNEL_MESSAGES, bytes, w.n);
        P->spectator_next += n;
    }
    /* the end: after the last input, or at once to one that never asked */
    bool all_sent = P->spectator_served ? P->spectator_next == P->frames : !P->spectator_wants;
    if (at_end && !P->spectator_ended && all_sent) {
        uint8_t bytes[5];
        wbuf w = {bytes, 0, sizeof bytes};
        put8(&w, MSG_END);
        put32(&w, (uint32_t)P->frames);
        send_bytes(P->spectator, CHANNEL_MESSAGES, bytes, w.n);
        P->spectator_ended = true;
    }
}

static bool finished(const peer *P)
{
    return P->desync_frame < 0 && P->played == P->frames && P->confirmed == P->frames && P->theirs_prefix == P->nchecks &&
           P->remote_has_inputs >= P->frames && P->remote_has_hashes >= P->nchecks;
}

/* a wait that started at *since (0: starts now) and has gone on for
   WAIT_SECONDS is an error */
static void deadline(double *since, const char *what, int frame)
{
    double now = wall_seconds();
    if (*since == 0.0) *since = now;
    if (now - *since <= WAIT_SECONDS) return;
    fprintf(stderr, "netplay: %s (frame %d) in %.0f s\n", what, frame, WAIT_SECONDS);
    exit(2);
}

static void run_peer(peer *P)
{
    const int other = 1 - P->me;
    double last_progress = wall_seconds();
    for (;;) {
        service(P, 0);
        if (P->reported) break;
        if (finished(P)) break;
        if (P->desync_frame >= 0) deadline(&P->desync_since, "the desync report did not complete", P->desync_frame);
        else if (P->played == P->frames)
            deadline(&P->all_played_since, "all played; the other peer's last inputs and hashes did not come",
                     P->played);
        if (P->me == 0 && P->spectators_seen < P->spectators && P->played >= P->frames / 2 && !P->remote_gone) {
            deadline(&P->half_since, "no spectator came at the game's half", P->played);
            service(P, 1); /* the game's half: the spectator joins here */
            last_progress = wall_seconds();
            continue;
        }
        send_tick(P);
        enet_host_flush(P->host);
        /* the packets due at this tick, in the order they were sent */
        int redo = P->played;
        for (; P->next_delivery <= P->tick - P->latency_frames; P->next_delivery++) {
            long long t = P->next_delivery;
            if (dropped(P, other, t)) continue;
            rx_slot *slot = &P->rx[t % RX_RING];
            while (slot->tick != t) {
                if (P->remote_gone || (P->remote_done_tick >= 0 && t > P->remote_done_tick)) break;
                if (P->reported) return;
                if (wall_seconds() - last_progress > WAIT_SECONDS) {
                    fprintf(stderr, "netplay: no packet of tick %lld from the other peer in %.0f s\n", t, WAIT_SECONDS);
                    exit(2);
                }
                service(P, 1);
            }
            if (slot->tick == t) deliver(P, slot, &redo);
        }
        last_progress = wall_seconds();
        /* the tick's simulation work, timed: the rollback, the checkpoints
           of confirmed frames and the new frame */
        stamp t0 = stamp_now(), t_rollback = t0;
        int depth = 0, frame = -1;
        if (redo < P->played) {
            depth = P->played - redo;
            rewind_to(P, redo);
            for (int f = redo; f < P->played; f++) play(P, f);
            t_rollback = stamp_now();
            P->rollbacks++;
            P->replayed += depth;
            if (depth > P->deepest) P->deepest = depth;
            printf("rollback to frame %d depth %d\n", redo, depth);
        }
        stamp t_printed = stamp_now();
        int confirmed = P->confirmed, checkpoints = P->checkpoints_made;
        confirm(P);
        if (P->played < P->frames) {
            if (P->played - P->confirmed < MAX_ROLLBACK) {
                int f = P->played + INPUT_DELAY;
                if (f < P->frames) {
                    int redo_none = P->frames;
                    learn_input(P, P->me, f, input_of(P->seed, P->me, f), &redo_none);
                }
                frame = P->played;
                play(P, P->played);
                P->played++;
                confirm(P);
            } else {
                P->stalls++;
            }
        }
        if (depth || frame >= 0 || P->confirmed != confirmed) {
            cost_add(P, frame, depth, P->checkpoints_made != checkpoints, t0, t_rollback, t_printed, stamp_now());
        }
        serve_spectator(P, false);
        desync_progress(P);
        /* a peer leaves after its report, which needed this one's save,
           and its own save came before its leaving: this one has reported */
        if (P->remote_gone && !finished(P) && !P->reported) {
            if (P->desync_frame >= 0)
                fprintf(stderr, "netplay: the other peer left before the desync report of frame %d was done\n",
                        P->desync_frame);
            else
                fprintf(stderr, "netplay: the other peer left at frame %d\n", P->played);
            exit(2);
        }
        P->tick++;
    }
}

static ENetPeer *connect_to(ENetHost *h, enet_uint16 port, enet_uint32 role)
{
    ENetAddress addr;
    enet_address_set_host(&addr, "127.0.0.1");
    addr.port = port;
    /* the host may not listen yet: a connect unanswered in 50 ms is sent
       again at once rather than at ENet's first resend, half a second on */
    for (int attempt = 0; attempt < 600; attempt++) {
        ENetPeer *p = enet_host_connect(h, &addr, CHANNEL_COUNT, role);
        if (!p) break;
        ENetEvent ev;
        double until = wall_seconds() + 0.05;
        while (wall_seconds() < until) {
            if (enet_host_service(h, &ev, 1) <= 0) continue;
            if (ev.type == ENET_EVENT_TYPE_CONNECT && ev.peer == p) return p;
            if (ev.type == ENET_EVENT_TYPE_DISCONNECT && ev.peer == p) break;
            if (ev.type == ENET_EVENT_TYPE_RECEIVE) enet_packet_destroy(ev.packet);
        }
        enet_peer_reset(p);
    }
    fprintf(stderr, "netplay: no host on 127.0.0.1:%u\n", (unsigned)port);
    exit(2);
}

/* reliable data out, then a disconnect. A peer is past its reliable
   data once it is disconnecting (ENet sends the disconnect only after
   the other acknowledged all of it); the other's acknowledgement of the
   disconnect itself is waited for a moment only, as the other may be
   gone already. */
static void leave(ENetHost *h)
{
    for (size_t i = 0; i < h->peerCount; i++)
        if (h->peers[i].state == ENET_PEER_STATE_CONNECTED) enet_peer_disconnect_later(&h->peers[i], 0);
    double until = wall_seconds() + 3.0, delivered = 0;
    ENetEvent ev;
    while (wall_seconds() < until) {
        bool sending = false, closing = false;
        for (size_t i = 0; i < h->peerCount; i++) {
            ENetPeerState st = h->peers[i].state;
            if (st == ENET_PEER_STATE_DISCONNECTED) continue;
            if (st >= ENET_PEER_STATE_DISCONNECTING) closing = true;
            else sending = true;
        }
        if (!sending && !closing) break;
        if (!sending) {
            if (delivered == 0) delivered = wall_seconds();
            else if (wall_seconds() - delivered > 0.1) break;
        }
        if (enet_host_service(h, &ev, 5) > 0 && ev.type == ENET_EVENT_TYPE_RECEIVE) enet_packet_destroy(ev.packet);
    }
    enet_host_flush(h);
}

static int player_main(bool is_host, enet_uint16 port, peer *P)
{
    P->s = game_sched(true);
    if (!P->s) return 2;
    game_start(P->s, P->player);
    P->coroutines = corral_live_count(P->s);
    P->nchecks = P->frames / HASH_INTERVAL;
    for (int p = 0; p < 2; p++) {
        P->known[p] = malloc((size_t)P->frames);
        P->used[p] = malloc((size_t)P->frames);
        if (!P->known[p] || !P->used[p]) return 2;
        memset(P->known[p], NO_INPUT, (size_t)P->frames);
        for (int f = 0; f < INPUT_DELAY && f < P->frames; f++) P->known[p][f] = 0; /* the first frames: no input */
        P->prefix[p] = INPUT_DELAY < P->frames ? INPUT_DELAY : P->frames;
    }
    P->hash = calloc((size_t)P->frames, sizeof *P->hash);
    P->mine = calloc((size_t)P->nchecks + 1, sizeof *P->mine);
    P->theirs = calloc((size_t)P->nchecks + 1, sizeof *P->theirs);
    P->theirs_known = calloc((size_t)P->nchecks + 1, sizeof *P->theirs_known);
    P->rx = malloc(RX_RING * sizeof *P->rx);
    P->their_pieces = malloc(g_max_pieces * sizeof *P->their_pieces);
    P->their_save = malloc(g_save_bytes);
    if (!P->hash || !P->mine || !P->theirs || !P->theirs_known || !P->rx || !P->their_pieces || !P->their_save) return 2;
    for (int i = 0; i < RX_RING; i++) P->rx[i].tick = -1;
    for (int i = 0; i < CHECKPOINTS_KEPT; i++) {
        P->kept[i].frame = -1;
        P->kept[i].save = malloc(g_save_bytes);
        P->kept[i].pieces = malloc(g_max_pieces * sizeof *P->kept[i].pieces);
        if (!P->kept[i].save || !P->kept[i].pieces) return 2;
    }
    P->desync_frame = -1;
    P->remote_done_tick = -1;

    if (is_host) {
        ENetAddress addr;
        enet_address_set_host(&addr, "127.0.0.1");
        addr.port = port;
        P->host = enet_host_create(&addr, 4, CHANNEL_COUNT, 0, 0);
        if (!P->host) {
            fprintf(stderr, "netplay: cannot listen on 127.0.0.1:%u\n", (unsigned)port);
            return 2;
        }
        /* the port the system gave for --host 0, for the others to join */
        printf("netplay: listening on port %u\n", (unsigned)P->host->address.port);
        double until = wall_seconds() + 30.0;
        while (!P->remote && wall_seconds() < until) service(P, 10);
        if (!P->remote) {
            fprintf(stderr, "netplay: no player joined in 30 s\n");
            return 2;
        }
    } else {
        P->host = enet_host_create(NULL, 1, CHANNEL_COUNT, 0, 0);
        if (!P->host) return 2;
        P->remote = connect_to(P->host, port, CONNECT_PLAYER);
        uint32_t opt[OPT_COUNT];
        options_of(P, opt);
        send_hello(P->remote, opt);
    }
    /* the shim decides what is lost: ENet's own throttle drops nothing */
    enet_peer_throttle_configure(P->remote, ENET_PEER_PACKET_THROTTLE_INTERVAL, ENET_PEER_PACKET_THROTTLE_ACCELERATION, 0);
    enet_peer_timeout(P->remote, 0, 10000, 20000);
    /* the options first (each side sent its own at the connect): both
       players' games must be the same game */
    enet_host_flush(P->host);
    double hello_until = wall_seconds() + WAIT_SECONDS;
    while (!P->hello_seen) {
        if (P->remote_gone || wall_seconds() > hello_until) {
            fprintf(stderr, "netplay: the other player %s\n",
                    P->remote_gone ? "left before its options came" : "sent no options in 20 s");
            return 2;
        }
        service(P, 1);
    }

    printf("netplay: player %d, latency %d frames, loss %d %%, seed %u, frames %d\n", P->me, P->latency_frames,
           P->loss_pct, (unsigned)P->seed, P->frames);
    double t0 = wall_seconds();
    run_peer(P);
    if (finished(P)) {
        uint8_t bytes[5];
        wbuf w = {bytes, 0, sizeof bytes};
        put8(&w, MSG_DONE);
        put32(&w, (uint32_t)(P->tick - 1)); /* the last tick sent: P->tick never was */
        if (!P->remote_gone) send_bytes(P->remote, CHANNEL_MESSAGES, bytes, w.n); /* gone: it finished first */
        enet_host_flush(P->host);
        /* a connected spectator is served to the end (or told the game
           ended) before the host leaves, whether or not it waited for one */
        double until = wall_seconds() + 30.0;
        while (P->spectator && !P->spectator_ended && wall_seconds() < until) {
            serve_spectator(P, true);
            service(P, 1);
        }
        if (P->spectator && !P->spectator_ended)
            fprintf(stderr, "netplay: the spectator was not served to the end in 30 s\n");
    }
    int phase, hp;
    game_boss(P->s, &phase, &hp);
    printf("game: frame %llu, boss in phase %d with %d hit points, %u coroutines\n", (unsigned long long)corral_frame(P->s),
           phase, hp, corral_live_count(P->s));
    printf("summary: player %d, frames %d, ticks %lld, rollbacks %d, deepest %d, frames played again %d, stalled ticks %d, "
           "checks %d agreed %d, snapshots up to %zu bytes, %.3f s\n",
           P->me, P->played, P->tick, P->rollbacks, P->deepest, P->replayed, P->stalls, P->checks_made, P->checks_agreed,
           P->snapshot_peak, wall_seconds() - t0);
    report_cost(P);
    fflush(stdout);
    leave(P->host);
    bool ok = corral_verify(P->s);
    corral_sched_destroy(P->s);
    if (P->reported) return 3;
    return ok && finished(P) ? 0 : 2;
}

/* ---- the spectator */

static int spectator_main(enet_uint16 port)
{
    ENetHost *h = enet_host_create(NULL, 1, CHANNEL_COUNT, 0, 0);
    if (!h) return 2;
    ENetPeer *host = connect_to(h, port, CONNECT_SPECTATOR);
    uint8_t want = MSG_WANT_SAVE;
    send_bytes(host, CHANNEL_MESSAGES, &want, 1);
    enet_host_flush(h);
    corral_sched *s = NULL;
    corral_handle player[2] = {{0, 0}, {0, 0}};
    int next = -1, from = -1, hashes = 0;
    bool ended = false, hello_seen = false;
    double until = wall_seconds() + 60.0;
    while (!ended && wall_seconds() < until) {
        ENetEvent ev;
        if (enet_host_service(h, &ev, 5) <= 0) continue;
        if (ev.type == ENET_EVENT_TYPE_DISCONNECT) {
            fprintf(stderr, "netplay: spectator: the host closed the connection before the game's end\n");
            break;
        }
        if (ev.type != ENET_EVENT_TYPE_RECEIVE) continue;
        const size_t len = ev.packet->dataLength;
        rbuf r = {ev.packet->data, len, 0, false};
        uint8_t type = get8(&r);
        if (type == MSG_HELLO && !hello_seen) {
            /* the host's game: a spectator's scheduler must be sized as its */
            uint32_t mine[OPT_COUNT] = {0};
            mine[OPT_COROUTINES] = game_coroutines();
            check_hello(&r, "the host", mine, OPT_COROUTINES);
            hello_seen = true;
        } else if (type == MSG_SPECT_SAVE && !s) {
            uint32_t frame = get32(&r);
            if (!hello_seen) malformed("the host", "save before its options", len);
            if (r.bad || frame >= MAX_FRAMES || (frame + 1) % HASH_INTERVAL) malformed("the host", "save", len);
            from = (int)frame;
            s = game_sched(false);
            if (!s || !corral_load(s, ev.packet->data + 5, len - 5) || !game_find_players(s, player)) {
                fprintf(stderr, "netplay: spectator: the save does not load: %s\n", s ? corral_last_error_detail(s) : "");
                if (s) corral_sched_destroy(s);
                enet_packet_destroy(ev.packet);
                enet_host_destroy(h);
                return 2;
            }
            next = from + 1;
            printf("spectator: loaded the save of frame %d (%zu bytes, %u coroutines)\n", from, len - 5,
                   corral_live_count(s));
        } else if (type == MSG_INPUTS && s) {
            uint32_t first = get32(&r), n = get32(&r);
            if (r.bad || first >= MAX_FRAMES || n > MAX_INPUTS_SPECT || len != 9 + 2 * (size_t)n)
                malformed("the host", "inputs", len);
            for (uint32_t i = 0; i < n; i++) {
                int in0 = get8(&r), in1 = get8(&r);
                if ((int)(first + i) != next) continue;
                game_frame(s, player, in0, in1);
                if ((next + 1) % HASH_INTERVAL == 0) {
                    printf("hash frame %d %016llx\n", next, (unsigned long long)corral_state_hash(s));
                    hashes++;
                }
                next++;
            }
        } else if (type == MSG_END) {
            if (len != 5) malformed("the host", "end", len);
            ended = true;
        } else if (type != MSG_SPECT_SAVE && type != MSG_INPUTS && type != MSG_HELLO) {
            malformed("the host", "message", len);
        }
        enet_packet_destroy(ev.packet);
    }
    if (!ended && wall_seconds() >= until) fprintf(stderr, "netplay: spectator: the game did not end in 60 s\n");
    if (ended && !s) fprintf(stderr, "netplay: spectator: the game ended before the host sent a save\n");
    printf("summary: spectator from frame %d to %d, %d hashes\n", from, next, hashes);
    fflush(stdout);
    leave(h);
    enet_host_destroy(h);
    bool ok = s && corral_verify(s);
    if (s) corral_sched_destroy(s);
    return ended && ok ? 0 : 2;
}

static void usage(void)
{
    fprintf(stderr, "usage: netplay --host PORT | --join PORT | --spectate PORT [--latency MS] [--loss PCT] [--seed N]\n"
                    "                [--frames N] [--inject-desync F] [--spectators 0|1] [--coroutines N] [--svg PATH]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static peer P;
    int mode = 0, port = 0, latency_ms = 0, coroutines = 0;
    P.frames = 1200;
    P.seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) usage();
        if (!strcmp(a, "--svg")) {
            P.svg_path = argv[++i];
            continue;
        }
        long v = strtol(argv[++i], NULL, 10);
        if (!strcmp(a, "--host")) mode = 1, port = (int)v;
        else if (!strcmp(a, "--join")) mode = 2, port = (int)v;
        else if (!strcmp(a, "--spectate")) mode = 3, port = (int)v;
        else if (!strcmp(a, "--latency")) latency_ms = (int)v;
        else if (!strcmp(a, "--loss")) P.loss_pct = (int)v;
        else if (!strcmp(a, "--seed")) P.seed = (uint32_t)v;
        else if (!strcmp(a, "--frames")) P.frames = (int)v;
        else if (!strcmp(a, "--inject-desync")) g_inject_from = v;
        else if (!strcmp(a, "--spectators")) P.spectators = (int)v;
        else if (!strcmp(a, "--coroutines")) coroutines = (int)v;
        else usage();
    }
    if (!mode || port < 0 || port > 65535 || (port == 0 && mode != 1) || latency_ms < 0 || latency_ms > 1000 ||
        P.loss_pct < 0 || P.loss_pct > 90 || P.frames < HASH_INTERVAL || P.frames > MAX_FRAMES || P.spectators < 0 ||
        P.spectators > 1 || (coroutines && (coroutines < 100 || coroutines > 100000)))
        usage();
    if (coroutines) {
        /* the units make up what the others leave; every scheduler of the
           game (the spectator's too: give it the same --coroutines) is
           sized for them */
        g_units = coroutines - RACERS - OTHERS;
        g_slots = (uint32_t)(g_units + RACERS + OTHERS + SLOTS_SPARE);
        if ((size_t)g_slots * 512u > g_save_bytes) g_save_bytes = (size_t)g_slots * 512u;
        if ((size_t)g_slots + 512u > g_max_pieces) g_max_pieces = (size_t)g_slots + 512u;
    }
    P.latency_ms = latency_ms;
    /* latency in frames of the virtual clock, rounded up */
    P.latency_frames = (latency_ms * 60 + 999) / 1000;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (enet_initialize() != 0) return 2;
    atexit(enet_deinitialize);
    if (mode == 3) return spectator_main((enet_uint16)port);
    P.me = mode == 1 ? 0 : 1;
    return player_main(mode == 1, (enet_uint16)port, &P);
}
