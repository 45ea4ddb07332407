/*
    outpost.c -- what the peers' users ask for, in one small level:

    - a guard walks a patrol it pulls, one waypoint at a time, from a
      generator (CORRAL_YIELD_VALUE, NAME_next);
    - a turret's shots go through a channel to an effects coroutine that
      plays each one more slowly than the turret fires: when two effects
      wait, the turret's CORRAL_SEND waits too (a bounded channel);
    - a door opens once per trigger: the pressure plate fires every frame
      the player stands on it, the door's start refuses while it is open
      (CORRAL_SINGLE_REFUSE on its owner and tag);
    - the guard is asked to stop, finishes the walk it is on, and goes
      (corral_request_stop with a deadline).

    Deterministic: a fixed dt; the output is a golden test
    (tests/expected/outpost.txt).
*/
#include <corral/corral.h>

#include <stdarg.h>
#include <stdio.h>

static corral_sched *S;

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("frame %2llu  ", (unsigned long long)corral_frame(S));
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

typedef struct point {
    int x, y;
} point;

/* the patrol: the corners of a square, `laps` times */
#define PATROL_FIELDS(F) \
    F(int, laps)         \
    F(int, i)
DECLARE_COROUTINE_R(patrol, PATROL_FIELDS, point)
DEFINE_COROUTINE(patrol)
{
    static const point corners[4] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 4 * ctx->laps; ctx->i++) CORRAL_YIELD_VALUE(co, corners[ctx->i % 4]);
    CORRAL_END(co);
}

/* the guard: pulls a waypoint, walks to it (a frame per step of distance) */
#define GUARD_FIELDS(F)      \
    F(corral_handle, route)  \
    F(point, at)             \
    F(point, next)           \
    F(int, walk)
DECLARE_COROUTINE(guard, GUARD_FIELDS)
static void guard_end(guard_ctx *ctx, corral_end_reason why)
{
    say("the guard leaves his post at (%d,%d): %s", ctx->at.x, ctx->at.y, corral_end_reason_str(why));
}
DEFINE_COROUTINE_CLEANUP(guard, guard_end)
{
    CORRAL_BEGIN(co);
    while (!corral_stop_requested(co) && patrol_next(corral_sched_of(co), ctx->route, &ctx->next)) {
        ctx->walk = (ctx->next.x > ctx->at.x ? ctx->next.x - ctx->at.x : ctx->at.x - ctx->next.x) +
                    (ctx->next.y > ctx->at.y ? ctx->next.y - ctx->at.y : ctx->at.y - ctx->next.y);
        say("the guard walks to (%d,%d)", ctx->next.x, ctx->next.y);
        CORRAL_WAIT_FRAMES(co, (uint32_t)ctx->walk);
        ctx->at = ctx->next;
    }
    if (corral_stop_requested(co)) say("the guard was asked to go and finished his walk");
    CORRAL_END(co);
}

/* a shot: where it hit; the channel that carries them is typed */
typedef struct shot {
    int n, x;
} shot;
CORRAL_DECLARE_CHANNEL(shots, shot)

/* the turret fires `n` shots, one every 0.1 s, into the effects channel */
#define TURRET_FIELDS(F)    \
    F(shots_channel, fx)   \
    F(int, n)               \
    F(shot, s)
DECLARE_COROUTINE(turret, TURRET_FIELDS)
DEFINE_COROUTINE(turret)
{
    CORRAL_BEGIN(co);
    for (ctx->s.n = 1; ctx->s.n <= ctx->n; ctx->s.n++) {
        ctx->s.x = 10 * ctx->s.n;
        if (corral_channel_count(corral_sched_of(co), ctx->fx.ch) == corral_channel_capacity(corral_sched_of(co), ctx->fx.ch))
            say("  turret: shot %d waits, two effects are queued", ctx->s.n);
        CORRAL_AWAIT(co, shots_send(ctx->fx, &ctx->s));
        say("  turret fires shot %d", ctx->s.n);
        CORRAL_WAIT_SECONDS(co, 0.1f);
    }
    CORRAL_END(co);
}

/* the effects: one explosion every 0.25 s, in the order the shots came */
#define EFFECTS_FIELDS(F)   \
    F(shots_channel, fx)   \
    F(shot, s)
DECLARE_COROUTINE(effects, EFFECTS_FIELDS)
DEFINE_COROUTINE(effects)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_AWAIT(co, shots_receive(ctx->fx, &ctx->s));
        say("  effects: explosion of shot %d at x=%d", ctx->s.n, ctx->s.x);
        CORRAL_WAIT_SECONDS(co, 0.25f);
    }
    CORRAL_END(co);
}

/* the door: opens, stays open 0.5 s, closes */
#define DOOR_FIELDS(F) F(int, id)
DECLARE_COROUTINE(door, DOOR_FIELDS)
DEFINE_COROUTINE(door)
{
    CORRAL_BEGIN(co);
    say("door %d opens", ctx->id);
    CORRAL_WAIT_SECONDS(co, 0.5f);
    say("door %d closes", ctx->id);
    CORRAL_END(co);
}

enum { DOOR_ID = 7, TAG_OPEN = 1u << 0 };

int main(void)
{
    corral_sched_desc desc = {0};
    desc.channel_bytes = 2 * sizeof(shot); /* two effects queued at most */
    S = corral_sched_create(&desc);
    if (!S) return 1;
    shots_channel fx = shots_channel_create(S);
    corral_handle route = patrol_gen(S, (patrol_ctx){.laps = 2});
    corral_handle g = guard_start(S, (guard_ctx){.route = route});
    effects_start(S, (effects_ctx){.fx = fx});
    corral_start_desc once = {.owner = DOOR_ID, .tags = TAG_OPEN, .single = CORRAL_SINGLE_REFUSE};
    int refused = 0;
    for (int frame = 1; frame <= 40; frame++) {
        if (frame == 3) turret_start(S, (turret_ctx){.fx = fx, .n = 6});
        bool on_plate = (frame >= 5 && frame <= 8) || frame == 16;
        if (on_plate && door_start_ex(S, (door_ctx){.id = DOOR_ID}, &once).gen == 0) refused++;
        if (frame == 24) {
            say("the level ends: the guard is asked to go (hard in 1 s)");
            corral_request_stop(S, g, 1.0f);
        }
        corral_tick(S, 0.05f);
    }
    printf("the plate fired %d times more while the door was open; the effects played every shot, in order\n",
           refused);
    corral_sched_destroy(S);
    return 0;
}
