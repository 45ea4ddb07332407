/*
    savegame -- a running game saved to a file and loaded by another
    process (or the next build of the game), which runs on exactly as the
    first would have.

        savegame                 200 frames in one go
        savegame --save FILE     frames 1 to 100, then the save
        savegame --load FILE     the save, then frames 101 to 200

    The game: guards that patrol and sleep (seconds), a quest that calls a
    fetch that calls a walk (a nested chain with results), a watcher that
    waits on the door's signal, a merchant that waits on a future, and a
    camp of two (owner 9) paused at frame 50 and resumed at frame 130. The
    main loop's only moves depend on the frame number; the handles it
    needs live in the director's context, which the loading process finds
    by its type. Everything printed comes from the coroutines, with the
    frame it happens in: the output of --save then --load is the output of
    one run (tests/CMakeLists.txt checks it with two processes).

    Built with -DSAVEGAME_NEXT_BUILD it is the next build of the game: the
    guard has a new field and a new wait above its others. It loads the
    first build's save and runs on the same (the new field starts at the
    value desc.upgrade gives it; the new wait is only for guards started
    by this build).
*/
#include <corral/corral.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t frame_of(corral_co *co) { return corral_frame(corral_sched_of(co)); }

/* ---- guards: patrol a few steps, sleep, again */
#ifdef SAVEGAME_NEXT_BUILD
#define GUARD_FIELDS(F) F(int32_t, id) F(int32_t, pos) F(int32_t, morale) F(float, rest)
#define GUARD_POINTS(P) P(stretched) P(stepped) P(rested)
#else
#define GUARD_FIELDS(F) F(int32_t, id) F(int32_t, pos) F(float, rest)
#define GUARD_POINTS(P) P(stepped) P(rested)
#endif
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE_AT(guard, GUARD_POINTS)
{
    CORRAL_BEGIN_AT(co, GUARD_POINTS);
#ifdef SAVEGAME_NEXT_BUILD
    CORRAL_WAIT_FRAME_AT(co, stretched); /* new in this build, above the others */
#endif
    for (;;) {
        ctx->pos++;
        CORRAL_WAIT_FRAME_AT(co, stepped);
        if (ctx->pos % 10 == 0) {
            printf("frame %3llu: guard %d at %d rests %.2f s\n", (unsigned long long)frame_of(co), ctx->id, ctx->pos,
                   (double)ctx->rest);
            CORRAL_AWAIT_AT(co, rested, corral_wait_seconds(ctx->rest));
        }
    }
    CORRAL_END(co);
}

/* ---- the quest chain: quest calls fetch calls walk, each returning */
#define WALK_FIELDS(F) F(int32_t, steps)
#define WALK_POINTS(P) P(walked)
DECLARE_COROUTINE_R(walk, WALK_FIELDS, int32_t)
DEFINE_COROUTINE_AT(walk, WALK_POINTS)
{
    CORRAL_BEGIN_AT(co, WALK_POINTS);
    while (ctx->result < ctx->steps) {
        ctx->result++;
        CORRAL_AWAIT_AT(co, walked, corral_wait_frames(3));
    }
    CORRAL_END(co);
}
#define FETCH_FIELDS(F) F(int32_t, item) F(int32_t, walked)
#define FETCH_POINTS(P) P(went) P(came_back)
DECLARE_COROUTINE_R(fetch, FETCH_FIELDS, int32_t)
DEFINE_COROUTINE_AT(fetch, FETCH_POINTS)
{
    CORRAL_BEGIN_AT(co, FETCH_POINTS);
    CORRAL_CALL_AT(co, went, walk, (walk_ctx){.steps = 20}, &ctx->walked);
    printf("frame %3llu: fetch reached item %d after %d steps\n", (unsigned long long)frame_of(co), ctx->item,
           ctx->walked);
    CORRAL_CALL_AT(co, came_back, walk, (walk_ctx){.steps = 25}, &ctx->walked);
    ctx->result = ctx->item * 10 + ctx->walked;
    CORRAL_END(co);
}
#define QUEST_FIELDS(F) F(int32_t, reward)
#define QUEST_POINTS(P) P(fetched)
DECLARE_COROUTINE(quest, QUEST_FIELDS)
DEFINE_COROUTINE_AT(quest, QUEST_POINTS)
{
    CORRAL_BEGIN_AT(co, QUEST_POINTS);
    CORRAL_CALL_AT(co, fetched, fetch, (fetch_ctx){.item = 7}, &ctx->reward);
    printf("frame %3llu: quest done, reward %d\n", (unsigned long long)frame_of(co), ctx->reward);
    CORRAL_END(co);
}

/* ---- a watcher on the door's signal, a merchant on a future */
#define WATCHER_FIELDS(F) F(corral_signal, door) F(int32_t, seen)
#define WATCHER_POINTS(P) P(opened)
DECLARE_COROUTINE(watcher, WATCHER_FIELDS)
DEFINE_COROUTINE_AT(watcher, WATCHER_POINTS)
{
    CORRAL_BEGIN_AT(co, WATCHER_POINTS);
    for (;;) {
        CORRAL_AWAIT_AT(co, opened, corral_wait_signal(ctx->door));
        ctx->seen++;
        printf("frame %3llu: the watcher saw the door open (%d)\n", (unsigned long long)frame_of(co), ctx->seen);
    }
    CORRAL_END(co);
}
#define MERCHANT_FIELDS(F) F(corral_future, deal)
#define MERCHANT_POINTS(P) P(dealt)
DECLARE_COROUTINE(merchant, MERCHANT_FIELDS)
DEFINE_COROUTINE_AT(merchant, MERCHANT_POINTS)
{
    CORRAL_BEGIN_AT(co, MERCHANT_POINTS);
    CORRAL_AWAIT_AT(co, dealt, corral_wait_future(ctx->deal));
    {
        corral_value v = {0};
        corral_future_value(corral_sched_of(co), ctx->deal, &v);
        printf("frame %3llu: the merchant closed the deal at %lld gold\n", (unsigned long long)frame_of(co),
               (long long)v.i);
    }
    CORRAL_END(co);
}

/* ---- the campfire: two of them, paused together (owner 9) */
#define CAMPER_FIELDS(F) F(int32_t, id) F(int32_t, logs)
#define CAMPER_POINTS(P) P(fed)
DECLARE_COROUTINE(camper, CAMPER_FIELDS)
DEFINE_COROUTINE_AT(camper, CAMPER_POINTS)
{
    CORRAL_BEGIN_AT(co, CAMPER_POINTS);
    for (;;) {
        ctx->logs++;
        if (ctx->logs % 25 == 0)
            printf("frame %3llu: camper %d has fed %d logs\n", (unsigned long long)frame_of(co), ctx->id, ctx->logs);
        CORRAL_AWAIT_AT(co, fed, corral_wait_frames(2));
    }
    CORRAL_END(co);
}

/* ---- the director: the handles the main loop needs, in the state */
#define DIRECTOR_FIELDS(F) F(corral_signal, door) F(corral_future, deal)
#define DIRECTOR_POINTS(P) P(waiting)
DECLARE_COROUTINE(director, DIRECTOR_FIELDS)
DEFINE_COROUTINE_AT(director, DIRECTOR_POINTS)
{
    (void)ctx; /* it only holds the handles */
    CORRAL_BEGIN_AT(co, DIRECTOR_POINTS);
    for (;;) CORRAL_AWAIT_AT(co, waiting, corral_wait_seconds(1000.0f));
    CORRAL_END(co);
}

#define GAME_TYPES(X) \
    X(guard, 1, 0) X(walk, 2, 0) X(fetch, 3, 0) X(quest, 4, 0) X(watcher, 5, 0) X(merchant, 6, 0) \
    X(camper, 7, 0) X(director, 8, 0)
CORRAL_DECLARE_REGISTRY(game, GAME_TYPES)
CORRAL_DEFINE_REGISTRY(game, GAME_TYPES);

#ifdef SAVEGAME_NEXT_BUILD
/* the next build's new field: guards from an older save start calm */
static void upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx, void *user)
{
    (void)old;
    (void)old_ctx;
    (void)user;
    if (type == &guard_type) ((guard_ctx *)ctx)->morale = 3;
}
#endif

static corral_sched *new_sched(void)
{
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.registry = &game_registry;
    d.classes[0].slot_size = 64;
    d.classes[0].capacity = 64;
#ifdef SAVEGAME_NEXT_BUILD
    d.upgrade.fn = upgrade;
#endif
    return corral_sched_create(&d);
}

static void start_game(corral_sched *s)
{
    corral_signal door = corral_signal_create(s);
    corral_future deal = corral_future_create(s);
    director_start(s, (director_ctx){door, deal});
    for (int i = 0; i < 3; i++) {
#ifdef SAVEGAME_NEXT_BUILD
        guard_start(s, (guard_ctx){i + 1, i * 3, 5, 0.5f + 0.25f * (float)i});
#else
        guard_start(s, (guard_ctx){i + 1, i * 3, 0.5f + 0.25f * (float)i});
#endif
    }
    quest_start(s, (quest_ctx){0});
    watcher_start(s, (watcher_ctx){door, 0});
    merchant_start(s, (merchant_ctx){deal});
    corral_start_desc camp = {.phase = CORRAL_PHASE_UPDATE, .owner = 9, .tags = 0};
    for (int i = 0; i < 2; i++) corral_start_ex(s, &camper_type, &(camper_ctx){i + 1, 0}, sizeof(camper_ctx), &camp);
}

static director_ctx *director_of(corral_sched *s)
{
    uint32_t cursor = 0;
    corral_co_info info;
    while (corral_next_co(s, &cursor, &info))
        if (info.type == &director_type) return director_ctx_of(s, info.handle);
    return NULL;
}

/* frames from+1 .. to; the world's moves depend only on the frame */
static void run(corral_sched *s, int from, int to)
{
    for (int f = from + 1; f <= to; f++) {
        director_ctx *d = director_of(s);
        if (f == 50) corral_pause_owner(s, 9);
        if (f == 130) corral_resume_owner(s, 9);
        if (d && (f == 70 || f == 120 || f == 160)) corral_signal_raise(s, d->door);
        if (d && f == 140) corral_future_complete(s, d->deal, (corral_value){.i = 42});
        corral_tick(s, 1.0f / 30.0f);
    }
}

static void report(corral_sched *s)
{
    printf("after frame %llu: %u coroutines live\n", (unsigned long long)corral_frame(s), corral_live_count(s));
}

int main(int argc, char **argv)
{
    static unsigned char buf[1 << 16];
    corral_sched *s = new_sched();
    if (!s) return 2;
    if (argc == 3 && !strcmp(argv[1], "--save")) {
        start_game(s);
        run(s, 0, 100);
        size_t n = corral_save(s, buf, sizeof buf);
        FILE *f = fopen(argv[2], "wb");
        if (!n || !f || fwrite(buf, 1, n, f) != n) {
            fprintf(stderr, "savegame: save failed: %s\n", corral_error_str(corral_last_error(s)));
            return 1;
        }
        fclose(f);
    } else if (argc == 3 && !strcmp(argv[1], "--load")) {
        FILE *f = fopen(argv[2], "rb");
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f) fclose(f);
        if (!corral_load(s, buf, n)) {
            fprintf(stderr, "savegame: load failed: %s\n", corral_error_str(corral_last_error(s)));
            return 1;
        }
        run(s, 100, 200);
        report(s);
    } else {
        start_game(s);
        run(s, 0, 200);
        report(s);
    }
    if (!corral_verify(s)) return 1;
    corral_sched_destroy(s);
    return 0;
}
