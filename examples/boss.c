/*
    boss.c -- a boss fight in three of corral's tools:

    - CORRAL_SYNC: the intro plays two animations at once (a roar and a
      camera shake) and goes on when both are done, each length in its
      own field;
    - CORRAL_RACE: each round races the boss's attack pattern against a
      timeout and the boss's death; the first to end wins, the others are
      stopped at once (their cleanup says they lost the race);
    - time domains: the player pauses the game halfway; the game clock
      stands still (the volley and the timeout keep their time left)
      while the pause menu, in the UI domain, animates on its own clock.

    corral_print_chain shows where the fight is suspended, file and line.
    Deterministic: a fixed dt and a scripted player; the output is a
    golden test (tests/expected/boss.txt).
*/
#include <corral/corral.h>

#include <stdarg.h>
#include <stdio.h>

enum { GAME = 0, UI = 1 };

static corral_sched *S;
static int boss_hp = 100;
static corral_signal menu_closed;

/* a line of the fight's log: the frame and both clocks, then what happened */
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("frame %2llu  game %5.2f s  ui %5.2f s  ", (unsigned long long)corral_frame(S), corral_time(S),
           corral_domain_time(S, UI));
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static bool boss_dead(void *user)
{
    (void)user;
    return boss_hp <= 0;
}

static const char *const reasons[CORRAL_END_COUNT] = {"", "finished", "stopped", "destroyed", "parent stopped",
                                                     "group stopped", "interrupted", "wait failed", "lost the race"};

/* the attack pattern: `shots` shots, one every `every` seconds; its result:
   the shots fired */
#define VOLLEY_FIELDS(F) \
    F(int, shots)        \
    F(float, every)      \
    F(int, i)
DECLARE_COROUTINE_R(volley, VOLLEY_FIELDS, int)
static void volley_end(volley_ctx *ctx, corral_end_reason why)
{
    if (why != CORRAL_END_FINISHED) say("  the volley ends: %s after %d shots", reasons[why], ctx->i);
}
DEFINE_COROUTINE_CLEANUP(volley, volley_end)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < ctx->shots;) {
        ctx->i++;
        say("  the boss fires shot %d", ctx->i);
        CORRAL_WAIT_SECONDS(co, ctx->every);
    }
    ctx->result = ctx->i;
    CORRAL_END(co);
}

/* the round's time limit */
#define TIMEOUT_FIELDS(F) F(float, secs)
DECLARE_COROUTINE(timeout, TIMEOUT_FIELDS)
DEFINE_COROUTINE(timeout)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, ctx->secs);
    CORRAL_END(co);
}

/* the boss's death */
#define DEATH_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(death, DEATH_FIELDS)
DEFINE_COROUTINE(death)
{
    (void)ctx;
    CORRAL_BEGIN(co);
    CORRAL_WAIT_UNTIL(co, boss_dead, NULL);
    CORRAL_END(co);
}

/* an animation of `secs` seconds; its result: the frames it took */
#define ANIM_FIELDS(F) \
    F(float, secs)     \
    F(float, t)
DECLARE_COROUTINE_R(anim, ANIM_FIELDS, int)
DEFINE_COROUTINE(anim)
{
    CORRAL_BEGIN(co);
    while (ctx->t < ctx->secs) {
        ctx->result++;
        CORRAL_WAIT_FRAME(co);
        ctx->t += corral_dt(co);
    }
    CORRAL_END(co);
}

/* the fight: the intro (sync), then rounds (race) until the boss dies */
#define FIGHT_FIELDS(F)    \
    F(int, roar_frames)    \
    F(int, shake_frames)   \
    F(int, round)          \
    F(int, shots)          \
    F(volley_ctx, volley)  \
    F(timeout_ctx, limit)
DECLARE_COROUTINE(fight, FIGHT_FIELDS)
DEFINE_COROUTINE(fight)
{
    CORRAL_BEGIN(co);
    say("the boss appears");
    CORRAL_SYNC(co, anim_arm(co, (anim_ctx){.secs = 1.0f}, &ctx->roar_frames),
                anim_arm(co, (anim_ctx){.secs = 0.6f}, &ctx->shake_frames));
    say("intro done: the roar took %d frames, the camera shake %d", ctx->roar_frames, ctx->shake_frames);
    for (ctx->round = 1;; ctx->round++) {
        say("round %d", ctx->round);
        ctx->shots = 0;
        ctx->volley = (volley_ctx){.shots = 2 + 2 * ctx->round, .every = 0.5f};
        ctx->limit = (timeout_ctx){.secs = 2.2f};
        /* on one line: a wait written over several lines is at its first
           line for GCC, its last for Clang (the golden is both's) */
        CORRAL_RACE(co, volley_arm(co, ctx->volley, &ctx->shots), timeout_arm(co, ctx->limit), death_arm(co, (death_ctx){0}));
        switch (corral_race_winner(co)) {
        case 0: say("  the volley is over (%d shots)", ctx->shots); break;
        case 1: say("  time is up: the boss enrages"); break;
        default: say("  the boss is dead"); CORRAL_EXIT(co);
        }
    }
    CORRAL_END(co);
}

/* the player hits the boss every 0.4 s of game time */
#define PLAYER_FIELDS(F) F(int, damage)
DECLARE_COROUTINE(player, PLAYER_FIELDS)
DEFINE_COROUTINE(player)
{
    CORRAL_BEGIN(co);
    while (boss_hp > 0) {
        CORRAL_WAIT_SECONDS(co, 0.4f);
        boss_hp -= ctx->damage;
    }
    CORRAL_END(co);
}

/* the pause menu, in the UI domain: fades in over 0.4 s of UI time,
   then waits to be closed */
#define MENU_FIELDS(F) F(float, alpha)
DECLARE_COROUTINE(menu, MENU_FIELDS)
DEFINE_COROUTINE(menu)
{
    CORRAL_BEGIN(co);
    while (ctx->alpha < 1.0f) {
        ctx->alpha += corral_dt(co) / 0.4f;
        if (ctx->alpha > 1.0f) ctx->alpha = 1.0f;
        say("  pause menu alpha %d%%", (int)(ctx->alpha * 100.0f + 0.5f));
        CORRAL_WAIT_FRAME(co);
    }
    CORRAL_WAIT_SIGNAL(co, menu_closed);
    say("  pause menu closed");
    CORRAL_END(co);
}

int main(void)
{
    corral_sched_desc desc = {0};
    desc.domains = 2;
    desc.wait_text = true; /* the chain says what each waits for, as written */
    S = corral_sched_create(&desc);
    if (!S) return 1;
    menu_closed = corral_signal_create(S);
    corral_handle boss = fight_start(S, (fight_ctx){0});
    player_start(S, (player_ctx){.damage = 7});
    for (int frame = 1; frame <= 80 && corral_alive(S, boss); frame++) {
        if (frame == 30) {
            printf("-- the player pauses the game: the game clock stops, the menu runs on the UI clock\n");
            corral_domain_pause(S, GAME);
            corral_start_ex(S, &menu_type, &(menu_ctx){0}, sizeof(menu_ctx),
                            &(corral_start_desc){.phase = CORRAL_PHASE_DEFAULT, .owner = 0, .tags = 0, .domain = UI});
        }
        if (frame == 33) {
            printf("-- where the fight is suspended (corral_print_chain) --\n");
            corral_co_info in;
            corral_co_info_of(S, boss, &in);
            corral_print_chain(S, in.child, stdout);
            printf("--\n");
        }
        if (frame == 38) {
            printf("-- the player resumes the game\n");
            corral_domain_resume(S, GAME);
            corral_signal_raise(S, menu_closed);
        }
        corral_tick(S, 0.1f);
    }
    printf("boss hp %d, %u coroutines live\n", boss_hp > 0 ? boss_hp : 0, corral_live_count(S));
    corral_sched_destroy(S);
    return 0;
}
