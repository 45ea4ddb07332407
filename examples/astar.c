/*
    astar -- a time-sliced A* on a grid: the dense multi-frame process of
    the seeds. The planner expands nodes while corral_budget_left() says
    this frame's budget allows, then yields and carries on next frame. The
    search state (open heap, costs, parents) is the coroutine's context: it
    lives in the arena, no allocation. The frame budget is real time
    (corral_set_budget, monotonic clock), so how many frames it takes
    depends on the machine; the path does not.
*/
#include <corral/corral.h>

#include <stdio.h>
#include <string.h>

#define W 64
#define H 64
#define N (W * H)

static char g_grid[H][W + 1];

typedef struct search_state {
    uint16_t heap[N];    /* open set: node ids, min-heap on f */
    uint32_t g[N];       /* cost so far, UINT32_MAX: unseen */
    uint16_t parent[N];
    uint8_t closed[N];
} search_state;

#define ASTAR_FIELDS(F)          \
    F(int, start)                \
    F(int, goal)                 \
    F(uint32_t, open)            \
    F(uint32_t, expanded)        \
    F(uint32_t, frames)          \
    F(uint32_t, most_in_a_frame) \
    F(search_state, st)
DECLARE_COROUTINE_R(astar, ASTAR_FIELDS, int)

static uint32_t h_of(int a, int b)
{
    int dx = a % W - b % W, dy = a / W - b / W;
    return (uint32_t)((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy));
}
static uint32_t f_of(const astar_ctx *c, uint16_t n) { return c->st.g[n] + h_of(n, c->goal); }

static void heap_push(astar_ctx *c, uint16_t n)
{
    uint32_t i = c->open++;
    while (i > 0 && f_of(c, c->st.heap[(i - 1) / 2]) > f_of(c, n)) {
        c->st.heap[i] = c->st.heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    c->st.heap[i] = n;
}
static uint16_t heap_pop(astar_ctx *c)
{
    uint16_t top = c->st.heap[0], last = c->st.heap[--c->open];
    uint32_t i = 0;
    for (;;) {
        uint32_t k = 2 * i + 1;
        if (k >= c->open) break;
        if (k + 1 < c->open && f_of(c, c->st.heap[k + 1]) < f_of(c, c->st.heap[k])) k++;
        if (f_of(c, c->st.heap[k]) >= f_of(c, last)) break;
        c->st.heap[i] = c->st.heap[k];
        i = k;
    }
    c->st.heap[i] = last;
    return top;
}

DEFINE_COROUTINE(astar)
{
    CORRAL_BEGIN(co);
    memset(ctx->st.g, 0xFF, sizeof ctx->st.g);
    ctx->st.g[ctx->start] = 0;
    heap_push(ctx, (uint16_t)ctx->start);
    ctx->result = -1;
    while (ctx->open > 0) {
        uint32_t this_frame = 0;
        /* dense work: as many nodes as this frame's budget allows (>= 1) */
        while (ctx->open > 0 && (this_frame == 0 || corral_budget_left(co) > 1000)) {
            uint16_t n = heap_pop(ctx);
            if (ctx->st.closed[n]) continue;
            ctx->st.closed[n] = 1;
            ctx->expanded++;
            this_frame++;
            if (n == ctx->goal) {
                ctx->result = (int)ctx->st.g[n];
                ctx->open = 0;
                break;
            }
            static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
            for (int k = 0; k < 4; k++) {
                int x = n % W + dx[k], y = n / W + dy[k];
                if (x < 0 || y < 0 || x >= W || y >= H || g_grid[y][x] == '#') continue;
                uint16_t m = (uint16_t)(y * W + x);
                if (ctx->st.g[n] + 1 < ctx->st.g[m]) {
                    ctx->st.g[m] = ctx->st.g[n] + 1;
                    ctx->st.parent[m] = n;
                    heap_push(ctx, m);
                }
            }
        }
        if (this_frame > ctx->most_in_a_frame) ctx->most_in_a_frame = this_frame;
        ctx->frames++;
        if (ctx->open > 0) CORRAL_WAIT_FRAME(co);
    }
    printf("A*: %u nodes expanded over %u frames, at most %u in one frame\n", ctx->expanded, ctx->frames,
           ctx->most_in_a_frame);
    CORRAL_END(co);
}

#define UNIT_FIELDS(F) F(int, path)
DECLARE_COROUTINE(unit, UNIT_FIELDS)
DEFINE_COROUTINE(unit)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co); /* plan from inside a frame, under its budget */
    CORRAL_CALL(co, astar, (astar_ctx){.start = 0, .goal = N - 1}, &ctx->path);
    printf("path length %d from corner to corner\n", ctx->path);
    CORRAL_END(co);
}

/* `astar --golden`: a clock that moves 1 us a read instead of the
   machine's, so the frame counts are the same on every machine
   (tests/expected/astar.txt) */
static uint64_t golden_clock(void *user)
{
    uint64_t *t = (uint64_t *)user;
    return *t += 1000;
}

int main(int argc, char **argv)
{
    static uint64_t golden_now;
    const bool golden = argc > 1 && strcmp(argv[1], "--golden") == 0;
    /* a maze of walls with gaps */
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) g_grid[y][x] = (x % 8 == 4 && (y + x) % 16 != 0) ? '#' : '.';
        g_grid[y][W] = 0;
    }
    corral_sched_desc d = {.classes = {{.slot_size = 48, .capacity = 4}, {.slot_size = 65536, .capacity = 1}}};
    if (golden) d.clock = (corral_clock){golden_clock, &golden_now};
    corral_sched *s = corral_sched_create(&d);
    if (!s) return 1;
    corral_set_budget(s, 20000); /* 20 us a frame for the whole UPDATE phase */
    corral_handle u = unit_start(s, (unit_ctx){0});
    uint32_t frames = 0;
    while (corral_alive(s, u)) {
        corral_tick(s, 1.0f / 60.0f);
        frames++;
    }
    printf("done in %u frames with a budget of 20 us a frame\n", frames);
    corral_sched_destroy(s);
    return 0;
}
