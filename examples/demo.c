/*
    demo -- corral in a simulated game loop.

    A wave spawner (the seeds' SpawnRoutine) spawns enemies one second apart
    (a seconds wait), each walking in with a sprite mover (the seeds'
    SpriteMover: lerp over 0.25 s, a plain step function), then a boss. A
    guard patrols (a frames wait) until the spawner stops it. A herald waits
    on a signal the boss's mover raises when it arrives, and a camera shake
    runs at the end of the frame. The loop runs at a fixed dt of 1/60 s and
    prints what the coroutines do, then the arena report.

        demo [frames]     (default 360; 0 runs until the wave is over)
*/
#include <corral/corral.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vec2 { float x, y; } vec2;

/* ---- a tiny world */
#define MAX_ENTITIES 16
static vec2 g_pos[MAX_ENTITIES];
static const char *g_name[MAX_ENTITIES];
static int g_entities;
static corral_sched *g_sched;

static void say(const char *fmt_who, int e, const char *what)
{
    printf("[frame %3llu  t=%5.2fs] %-8s %-8s %s (%.1f, %.1f)\n",
           (unsigned long long)corral_frame(g_sched), corral_time(g_sched), fmt_who,
           g_name[e], what, (double)g_pos[e].x, (double)g_pos[e].y);
}

/* ---- the coroutine types */
#define MOVER_FIELDS(F) \
    F(int, entity)      \
    F(vec2, from)       \
    F(vec2, to)         \
    F(float, duration)  \
    F(float, elapsed)
DECLARE_COROUTINE(mover, MOVER_FIELDS)

#define SPAWNER_FIELDS(F) \
    F(int, count)         \
    F(int, i)             \
    F(float, interval)    \
    F(corral_handle, patrol)
DECLARE_COROUTINE(spawner, SPAWNER_FIELDS)

#define PATROL_FIELDS(F) \
    F(int, entity)       \
    F(int, laps)
DECLARE_COROUTINE(patrol, PATROL_FIELDS)

#define HERALD_FIELDS(F) F(corral_signal, boss_arrived)
DECLARE_COROUTINE(herald, HERALD_FIELDS)

/* The registry: a stable id for each type, for the report (and save games) */
#define DEMO_COROUTINES(X) X(mover, 1, 0) X(spawner, 2, 0) X(patrol, 3, 0) X(herald, 4, 0)
CORRAL_DECLARE_REGISTRY(demo, DEMO_COROUTINES)
CORRAL_DEFINE_REGISTRY(demo, DEMO_COROUTINES);

static corral_signal g_boss_arrived;

static float ease_out(float t)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    t = 1 - t;
    return 1 - t * t;
}

/* Plain step function: no resume points needed. */
DEFINE_COROUTINE(mover)
{
    ctx->elapsed += corral_dt(co);
    float t = ease_out(ctx->elapsed / ctx->duration);
    g_pos[ctx->entity].x = ctx->from.x + (ctx->to.x - ctx->from.x) * t;
    g_pos[ctx->entity].y = ctx->from.y + (ctx->to.y - ctx->from.y) * t;
    if (ctx->elapsed < ctx->duration) return CORRAL_YIELD;
    say("mover", ctx->entity, "arrived at");
    if (g_name[ctx->entity][0] == 'B') corral_signal_raise(g_sched, g_boss_arrived);
    return CORRAL_STOP;
}

static int spawn(const char *name, vec2 at, vec2 to)
{
    int e = g_entities++;
    g_name[e] = name;
    g_pos[e] = at;
    say("spawner", e, "spawned at");
    mover_start(g_sched, (mover_ctx){.entity = e, .from = at, .to = to, .duration = 0.25f});
    return e;
}

static void patrol_cleanup(patrol_ctx *ctx, corral_end_reason why)
{
    printf("[frame %3llu  t=%5.2fs] patrol   %-8s ended after %d laps (%s)\n",
           (unsigned long long)corral_frame(g_sched), corral_time(g_sched), g_name[ctx->entity],
           ctx->laps, corral_end_reason_str(why));
}

/* Sequential code with resume points: reads like the C# SpawnRoutine. */
DEFINE_COROUTINE(spawner)
{
    CORRAL_BEGIN(co);
    for (ctx->i = 0; ctx->i < ctx->count; ctx->i++) {
        static const char *names[] = {"grunt", "archer", "brute", "scout", "mage"};
        spawn(names[ctx->i % 5], (vec2){(float)(10 * ctx->i), 0.0f},
              (vec2){(float)(10 * ctx->i), 5.0f});
        CORRAL_WAIT_SECONDS(co, ctx->interval); /* yield return new WaitForSeconds(1) */
    }
    spawn("BOSS", (vec2){25.0f, -10.0f}, (vec2){25.0f, 10.0f});
    corral_stop(corral_sched_of(co), ctx->patrol); /* the wave is out: guard stands down */
    CORRAL_END(co);
}

DEFINE_COROUTINE_CLEANUP(patrol, patrol_cleanup)
{
    CORRAL_BEGIN(co);
    for (;;) {
        g_pos[ctx->entity].x += 1.0f;
        CORRAL_WAIT_FRAMES(co, 15);
        g_pos[ctx->entity].x -= 1.0f;
        ctx->laps++;
        CORRAL_WAIT_FRAMES(co, 15);
    }
    CORRAL_END(co);
}

DEFINE_COROUTINE(herald)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SIGNAL(co, ctx->boss_arrived);
    printf("[frame %3llu  t=%5.2fs] herald   the boss has arrived: wave complete\n",
           (unsigned long long)corral_frame(g_sched), corral_time(g_sched));
    CORRAL_END(co);
}

/* `demo --golden`: a clock that moves 250 ns a read instead of the
   machine's, so the timings in the report are the same on every machine
   (tests/expected/demo.txt) */
static uint64_t golden_clock(void *user)
{
    uint64_t *t = (uint64_t *)user;
    return *t += 250;
}

int main(int argc, char **argv)
{
    static uint64_t golden_now;
    const bool golden = argc > 1 && strcmp(argv[1], "--golden") == 0;
    long frames = argc > 1 && !golden ? strtol(argv[1], NULL, 10) : 360;
    const char *out_dir = argc > 2 && !golden ? argv[2] : NULL; /* where the trace and the chart go */
    const float dt = 1.0f / 60.0f;

    /* Exact pool sizes: what the report of a previous run showed as peaks. */
    g_sched = corral_sched_create(&(corral_sched_desc){
        .classes = {{.slot_size = 48, .capacity = 8}, {.slot_size = 64, .capacity = 8}},
        .registry = &demo_registry,
        .history_frames = 600, /* the last 10 s, for the chart and the trace */
        .timing = true,        /* step and tick times, by the monotonic clock */
        .trace_steps = 1024,   /* the last 1024 steps, as slices in the trace */
        .clock = {golden ? golden_clock : NULL, &golden_now},
    });
    if (!g_sched) {
        fprintf(stderr, "demo: %s\n", corral_last_error_detail(NULL));
        return 1;
    }

    g_boss_arrived = corral_signal_create(g_sched);
    herald_start(g_sched, (herald_ctx){.boss_arrived = g_boss_arrived});
    g_name[0] = "guard";
    g_entities = 1;
    corral_handle guard = patrol_start(g_sched, (patrol_ctx){.entity = 0});
    spawner_start(g_sched, (spawner_ctx){.count = 5, .interval = 1.0f, .patrol = guard});

    for (long f = 0; frames == 0 ? corral_live_count(g_sched) > 0 : f < frames; f++)
        corral_tick(g_sched, dt);

    printf("\nafter %llu frames (%.2f s), %u coroutines live\n\n",
           (unsigned long long)corral_frame(g_sched), corral_time(g_sched),
           corral_live_count(g_sched));
    corral_report_text(g_sched, stdout);
    if (out_dir) { /* open the trace in https://ui.perfetto.dev or chrome://tracing */
        char path[512];
        snprintf(path, sizeof path, "%s/corral-trace.json", out_dir);
        FILE *f = fopen(path, "w");
        if (f) {
            corral_trace_json(g_sched, f);
            fclose(f);
            printf("\ntrace: %s\n", path);
        }
        snprintf(path, sizeof path, "%s/corral-arena.svg", out_dir);
        f = fopen(path, "w");
        if (f) {
            corral_history_svg(g_sched, f);
            fclose(f);
            printf("chart: %s\n", path);
        }
    }
    corral_sched_destroy(g_sched);
    return 0;
}
