/*
    dialogue -- a dialogue that waits on the player's choice (docs/GUIDE.md,
    "A dialogue choice").

    The dialogue asks the UI for a choice through a future: the UI
    completes it with the index the player picked, and the dialogue waits
    on any of the answer and its patience running out (corral_wait_any;
    corral_wait_fired says which came first). It never polls the UI.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *S;
static corral_future asked; /* the question the UI shows; zero: none */

static const char *const answers[] = {"\"Gold.\"", "\"Your sword.\"", "\"Nothing.\""};

#define TALK_FIELDS(F)        \
    F(const char *, question) \
    F(float, patience)        \
    F(corral_future, choice)  \
    F(int, picked)
DECLARE_COROUTINE(talk, TALK_FIELDS)
DEFINE_COROUTINE(talk)
{
    corral_wait answer[2]; /* an any's members live only during the wait (and
                              C++ forbids jumping over an initialized local) */
    CORRAL_BEGIN(co);
    printf("[%5.2fs] merchant: %s\n", corral_time(S), ctx->question);
    ctx->choice = corral_future_create(S);
    asked = ctx->choice; /* the UI shows the choices */
    answer[0] = corral_wait_future(ctx->choice);
    answer[1] = corral_wait_seconds(ctx->patience);
    CORRAL_WAIT_ANY(co, answer, 2);
    ctx->picked = 2; /* the silent answer */
    if (corral_wait_fired(co) == 0) {
        corral_value v;
        if (corral_future_value(S, ctx->choice, &v)) ctx->picked = (int)v.i;
    } else {
        printf("[%5.2fs] (the player says nothing)\n", corral_time(S));
    }
    corral_future_release(S, ctx->choice);
    asked = (corral_future){0};
    printf("[%5.2fs] player: %s\n", corral_time(S), answers[ctx->picked]);
    printf("[%5.2fs] merchant: %s\n", corral_time(S), ctx->picked == 1 ? "\"Deal.\"" : "\"Then leave.\"");
    CORRAL_END(co);
}

/* the UI: the player clicks `pick` when it shows a question */
static void ui_click(int pick)
{
    if (!asked.gen) return;
    printf("[%5.2fs] (the player clicks %s)\n", corral_time(S), answers[pick]);
    corral_future_complete(S, asked, (corral_value){.i = pick});
}

int main(void)
{
    S = corral_sched_create(&(corral_sched_desc){0});
    if (!S) return 1;
    talk_start(S, (talk_ctx){.question = "\"What will you trade?\"", .patience = 5.0f});
    for (int frame = 1; frame <= 12; frame++) { /* the player picks at 2.75 s */
        if (frame == 12) ui_click(1);
        corral_tick(S, 0.25f);
    }
    talk_start(S, (talk_ctx){.question = "\"Anything else?\"", .patience = 5.0f});
    while (corral_live_count(S) > 0) corral_tick(S, 0.25f); /* the player is away */
    corral_sched_destroy(S);
    return 0;
}
