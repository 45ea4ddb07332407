/*
    squad -- a squad that stands down at its leader's word, a loot stream
    that closes, and a character in slow motion under a game that pauses.

    - Three soldiers of squad 7 each stand watch for 30 s: a wait that is
      an any of the seconds and corral_wait_stop(). At 1.5 s their leader
      asks the squad to stop (corral_request_stop_owner): each ends its
      watch at once, in the next frame, and walks off in its own time.
    - A chest sends its loot down a channel of two and closes it; a looter
      takes item after item until its receive tells it the stream ended
      (corral_wait_closed), with nothing left behind.
    - The hero moves in a slow-motion domain (scale 0.5) that follows the
      game's domain; the menu pauses the game's domain for a second: the
      hero stands still with it, while the menu's own clock (domain 0)
      runs on. The hero also waits for an absolute time on its clock
      (corral_wait_at), which the pause pushes back in game time.

    Runs at 4 frames a second and prints each event with the game time.
*/
#include <corral/corral.h>

#include <stdio.h>

enum { GAME = 1, SLOWMO = 2 };
static corral_sched *g_s;

static void say(const char *who, const char *what)
{
    printf("[%5.2fs] %-8s %s\n", corral_time(g_s), who, what);
}

/* ---- the squad */
#define SOLDIER_FIELDS(F) F(const char *, name) F(int, steps)
DECLARE_COROUTINE(soldier, SOLDIER_FIELDS)
DEFINE_COROUTINE(soldier)
{
    CORRAL_BEGIN(co);
    say(ctx->name, "on watch");
    {
        corral_wait watch[2] = {corral_wait_seconds(30.0f), corral_wait_stop()};
        CORRAL_WAIT_ANY(co, watch, 2);
    }
    say(ctx->name, corral_wait_fired(co) == 1 ? "told to stop: leaves the watch" : "watch over");
    for (ctx->steps = 0; ctx->steps < 2; ctx->steps++) CORRAL_WAIT_SECONDS(co, 0.25f);
    say(ctx->name, "back at camp");
    CORRAL_END(co);
}

#define LEADER_FIELDS(F) F(uint64_t, squad)
DECLARE_COROUTINE(leader, LEADER_FIELDS)
DEFINE_COROUTINE(leader)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, 1.5f);
    {
        char line[64];
        snprintf(line, sizeof line, "squad, stand down (%u asked)",
                 (unsigned)corral_request_stop_owner(corral_sched_of(co), ctx->squad, 0.0f));
        say("leader", line);
    }
    CORRAL_END(co);
}

/* ---- the loot */
#define CHEST_FIELDS(F) F(corral_channel, loot) F(int, i) F(int, item)
DECLARE_COROUTINE(chest, CHEST_FIELDS)
DEFINE_COROUTINE(chest)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < 4; ctx->i++) {
        ctx->item = 100 + ctx->i;
        CORRAL_SEND(co, ctx->loot, &ctx->item); /* waits while the channel is full */
    }
    corral_channel_close(corral_sched_of(co), ctx->loot);
    say("chest", "empty: the stream is closed");
    CORRAL_END(co);
}

#define LOOTER_FIELDS(F) F(corral_channel, loot) F(int, item) F(int, taken)
DECLARE_COROUTINE(looter, LOOTER_FIELDS)
DEFINE_COROUTINE(looter)
{
    CORRAL_BEGIN(co);
    for (;;) {
        CORRAL_RECEIVE(co, ctx->loot, &ctx->item);
        if (corral_wait_closed(co)) break;
        ctx->taken++;
        char line[48];
        snprintf(line, sizeof line, "takes item %d", ctx->item);
        say("looter", line);
        CORRAL_WAIT_SECONDS(co, 0.5f);
    }
    {
        char line[48];
        snprintf(line, sizeof line, "the stream ended after %d items", ctx->taken);
        say("looter", line);
    }
    CORRAL_END(co);
}

/* ---- slow motion under a paused game */
#define HERO_FIELDS(F) F(float, x) F(int, moves)
DECLARE_COROUTINE(hero, HERO_FIELDS)
DEFINE_COROUTINE(hero)
{
    CORRAL_BEGIN(co);
    for (ctx->moves = 0; ctx->moves < 4; ctx->moves++) {
        CORRAL_WAIT_SECONDS(co, 0.25f); /* of its own clock: half the game's */
        ctx->x += 1.0f;
        char line[64];
        snprintf(line, sizeof line, "moves to x=%.0f (its clock %.3f s)", (double)ctx->x,
                 corral_domain_time(corral_sched_of(co), SLOWMO));
        say("hero", line);
    }
    CORRAL_WAIT_AT(co, 1.5); /* its clock reads 1.5 s */
    say("hero", "reaches the gate at 1.5 s of its clock");
    CORRAL_END(co);
}

#define MENU_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(menu, MENU_FIELDS)
DEFINE_COROUTINE(menu)
{
    (void)ctx;
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, 1.0f);
    corral_domain_pause(corral_sched_of(co), GAME);
    say("menu", "opens: the game's clock stops");
    CORRAL_WAIT_SECONDS(co, 1.0f); /* the menu's own clock, domain 0, runs on */
    corral_domain_resume(corral_sched_of(co), GAME);
    say("menu", "closes");
    CORRAL_END(co);
}

int main(void)
{
    corral_sched_desc d = {0};
    d.domains = 3;
    d.channel_bytes = 2 * sizeof(int); /* two items at a time */
    g_s = corral_sched_create(&d);
    if (!g_s) return 1;
    corral_domain_set_parent(g_s, SLOWMO, GAME);
    corral_domain_set_scale(g_s, SLOWMO, 0.5f);

    const corral_start_desc squad = {.owner = 7};
    soldier_start_ex(g_s, (soldier_ctx){.name = "ada"}, &squad);
    soldier_start_ex(g_s, (soldier_ctx){.name = "bo"}, &squad);
    soldier_start_ex(g_s, (soldier_ctx){.name = "cy"}, &squad);
    leader_start(g_s, (leader_ctx){.squad = 7});

    corral_channel loot = corral_channel_create(g_s, sizeof(int));
    chest_start(g_s, (chest_ctx){.loot = loot});
    looter_start(g_s, (looter_ctx){.loot = loot});

    const corral_start_desc slow = {.domain = SLOWMO};
    hero_start_ex(g_s, (hero_ctx){0}, &slow);
    menu_start(g_s, (menu_ctx){0});

    while (corral_live_count(g_s) > 0 && corral_time(g_s) < 10.0) corral_tick(g_s, 0.25f);
    printf("all done at %.2f s, %u left\n", corral_time(g_s), corral_live_count(g_s));
    corral_sched_destroy(g_s);
    return 0;
}
