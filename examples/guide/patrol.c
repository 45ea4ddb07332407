/*
    patrol -- an enemy patrol (docs/GUIDE.md, "An enemy patrol").

    One coroutine per guard walks its posts and looks around at each.
    Each guard's coroutines carry the guard's entity id as their owner, so
    the game stops all of them with one corral_stop_owner when the guard
    dies, without keeping their handles. The cleanup hook says how each
    patrol ended. Also built as C++17 (patrol.cpp): the lines that differ
    are under __cplusplus.
*/
#include <corral/corral.h>

#include <stdio.h>

static corral_sched *S;

static const struct {
    const char *name;
    float walk; /* seconds from the post before */
} posts[] = {{"the gate", 2.0f}, {"the tower", 1.5f}, {"the well", 2.5f}};
enum { POSTS = sizeof posts / sizeof posts[0] };

#define PATROL_FIELDS(F) \
    F(int, guard)        \
    F(int, post)
DECLARE_COROUTINE(patrol, PATROL_FIELDS)
static void patrol_end(patrol_ctx *ctx, corral_end_reason why)
{
    printf("[%5.2fs] guard %d stops patrolling: %s\n", corral_time(S), ctx->guard, corral_end_reason_str(why));
}
DEFINE_COROUTINE_CLEANUP(patrol, patrol_end)
{
    CORRAL_BEGIN(co);
    for (;;) {
        ctx->post = (ctx->post + 1) % POSTS;
        CORRAL_WAIT_SECONDS(co, posts[ctx->post].walk); /* walking */
        printf("[%5.2fs] guard %d reaches %s and looks around\n", corral_time(S), ctx->guard, posts[ctx->post].name);
        CORRAL_WAIT_SECONDS(co, 1.0f); /* looking around */
    }
    CORRAL_END(co);
}

/* a guard is an entity; its id is the owner of its coroutines */
static void spawn_guard(int guard, int post)
{
#ifdef __cplusplus
    patrol_ctx c{};
    c.guard = guard;
    c.post = post;
    corral_start_desc o{};
    o.owner = (uint64_t)guard;
    patrol_start_ex(S, c, &o);
#else
    patrol_start_ex(S, (patrol_ctx){.guard = guard, .post = post}, &(corral_start_desc){.owner = (uint64_t)guard});
#endif
}

int main(void)
{
#ifdef __cplusplus
    corral_sched_desc desc{};
    S = corral_sched_create(&desc);
#else
    S = corral_sched_create(&(corral_sched_desc){0});
#endif
    if (!S) return 1;
    spawn_guard(1, 0);
    spawn_guard(2, 1);
    for (int frame = 1; frame <= 40; frame++) { /* 10 s at 4 frames a second */
        if (frame == 24) {
            printf("[%5.2fs] the player kills guard 2\n", corral_time(S));
            corral_stop_owner(S, 2);
        }
        corral_tick(S, 0.25f);
    }
    corral_sched_destroy(S); /* guard 1 is still on patrol: DESTROYED */
    return 0;
}
