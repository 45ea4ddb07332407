/*
    boss_phases -- a boss whose phases race an attack against a timeout
    (docs/GUIDE.md, "A boss in phases").

    Each phase of the boss is a row of a table: an attack pattern (shots,
    one every so often) and a time limit. CORRAL_RACE runs the attack and
    a timer as two children; the first to end wins and the other is
    stopped at once (its cleanup hook hears LOST_RACE). A pattern that
    finishes in time moves the boss to its next phase; a timeout makes it
    enrage and repeat the phase, faster. A fight with an intro (sync), a
    death arm and a pause menu is examples/boss.c.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *S;

/* the attack pattern: `shots` shots, one every `every` seconds; its result:
   the shots fired */
#define ATTACK_FIELDS(F) \
    F(int, shots)        \
    F(float, every)      \
    F(int, i)
DECLARE_COROUTINE_R(attack, ATTACK_FIELDS, int)
static void attack_end(attack_ctx *ctx, corral_end_reason why)
{
    if (why == CORRAL_END_LOST_RACE) printf("[%5.2fs]   cut off after %d shots\n", corral_time(S), ctx->i - 1);
}
DEFINE_COROUTINE_CLEANUP(attack, attack_end)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 1; ctx->i <= ctx->shots; ctx->i++) {
        CORRAL_WAIT_SECONDS(co, ctx->every);
        printf("[%5.2fs]   shot %d\n", corral_time(S), ctx->i);
    }
    ctx->result = ctx->shots;
    CORRAL_END(co);
}

#define TIMER_FIELDS(F) F(float, secs)
DECLARE_COROUTINE(timer, TIMER_FIELDS)
DEFINE_COROUTINE(timer)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, ctx->secs);
    CORRAL_END(co);
}

static const struct {
    int shots;
    float every, limit;
} phases[] = {{3, 0.5f, 2.0f}, {6, 0.5f, 2.25f}, {4, 0.25f, 2.0f}};
enum { PHASES = sizeof phases / sizeof phases[0] };

#define BOSS_FIELDS(F)     \
    F(int, phase)          \
    F(float, haste)        \
    F(int, fired)          \
    F(attack_ctx, attack)  \
    F(timer_ctx, limit)
DECLARE_COROUTINE(boss, BOSS_FIELDS)
DEFINE_COROUTINE(boss)
{
    CORRAL_BEGIN(co);
    for (ctx->haste = 1.0f; ctx->phase < PHASES;) {
        printf("[%5.2fs] phase %d: %d shots in %.2f s\n", corral_time(S), ctx->phase + 1, phases[ctx->phase].shots,
               (double)phases[ctx->phase].limit);
        /* the children's contexts, in the boss's own (the same in C and C++) */
        ctx->attack.shots = phases[ctx->phase].shots;
        ctx->attack.every = phases[ctx->phase].every * ctx->haste;
        ctx->limit.secs = phases[ctx->phase].limit;
        CORRAL_RACE(co, attack_arm(co, ctx->attack, &ctx->fired), timer_arm(co, ctx->limit));
        if (corral_race_winner(co) == 0) {
            printf("[%5.2fs]   pattern done (%d shots): next phase\n", corral_time(S), ctx->fired);
            ctx->phase++;
            ctx->haste = 1.0f;
        } else {
            printf("[%5.2fs]   time is up: the boss enrages\n", corral_time(S));
            ctx->haste *= 0.5f;
        }
    }
    printf("[%5.2fs] the boss is spent\n", corral_time(S));
    CORRAL_END(co);
}

int main(void)
{
    S = corral_sched_create(&(corral_sched_desc){0});
    if (!S) return 1;
    boss_start(S, (boss_ctx){0});
    while (corral_live_count(S) > 0) corral_tick(S, 0.125f);
    corral_sched_destroy(S);
    return 0;
}
