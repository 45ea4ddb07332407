/*
    cutscene_cues -- a cutscene on signals (docs/GUIDE.md, "A cutscene on
    cues").

    The script waits on cues the engine raises (the camera arrived, the
    door's animation ended) and gives cues of its own to the actors: one
    raise wakes every coroutine waiting on the signal. The scene's end is
    a signal that is *set*, not raised: it stays set, so an actor that
    starts waiting after the scene ended goes on at once instead of
    waiting forever. Skipping a cutscene is examples/cutscene.c.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *S;
static corral_signal camera_arrived, door_opened; /* raised by the engine */
static corral_signal bow, scene_over;              /* given by the script */

#define SCRIPT_FIELDS(F) F(int, unused)
DECLARE_COROUTINE(script, SCRIPT_FIELDS)
DEFINE_COROUTINE(script)
{
    (void)ctx;
    CORRAL_BEGIN(co);
    printf("[%5.2fs] script: camera, to the throne\n", corral_time(S));
    CORRAL_WAIT_SIGNAL(co, camera_arrived);
    printf("[%5.2fs] script: \"All rise.\"\n", corral_time(S));
    corral_signal_raise(S, bow); /* every actor waiting on it */
    CORRAL_WAIT_SECONDS(co, 1.0f);
    printf("[%5.2fs] script: open the door\n", corral_time(S));
    CORRAL_WAIT_SIGNAL(co, door_opened);
    printf("[%5.2fs] script: the king enters; the scene is over\n", corral_time(S));
    corral_signal_set(S, scene_over); /* stays set: later waits end at once */
    CORRAL_END(co);
}

#define ACTOR_FIELDS(F) F(const char *, name)
DECLARE_COROUTINE(actor, ACTOR_FIELDS)
DEFINE_COROUTINE(actor)
{
    CORRAL_BEGIN(co);
    if (!corral_signal_is_set(S, scene_over)) {
        CORRAL_WAIT_SIGNAL(co, bow);
        printf("[%5.2fs] %s bows\n", corral_time(S), ctx->name);
    }
    CORRAL_WAIT_SIGNAL(co, scene_over);
    printf("[%5.2fs] %s goes back to work\n", corral_time(S), ctx->name);
    CORRAL_END(co);
}

int main(void)
{
    S = corral_sched_create(&(corral_sched_desc){0});
    if (!S) return 1;
    camera_arrived = corral_signal_create(S);
    door_opened = corral_signal_create(S);
    bow = corral_signal_create(S);
    scene_over = corral_signal_create(S);
    script_start(S, (script_ctx){0});
    actor_start(S, (actor_ctx){.name = "the guard"});
    actor_start(S, (actor_ctx){.name = "the maid"});
    for (int frame = 1; frame <= 24; frame++) {
        if (frame == 6) corral_signal_raise(S, camera_arrived); /* the camera's move ends */
        if (frame == 16) corral_signal_raise(S, door_opened);   /* the door's animation ends */
        if (frame == 20) {
            printf("[%5.2fs] (a late actor arrives)\n", corral_time(S));
            actor_start(S, (actor_ctx){.name = "the cook"});
        }
        corral_tick(S, 0.25f);
    }
    corral_sched_destroy(S);
    return 0;
}
