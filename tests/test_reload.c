/* test_reload.c -- hot reload with a real module: tests/reload/game.c built
   as four shared modules, loaded with dlopen the way a game host loads its
   gameplay code, and reloaded while its coroutines wait mid-timer,
   mid-call, mid-race, mid-channel wait and on a predicate; then contexts
   laid out otherwise, with types of this file standing for two builds. */
#include "common.h"
#include "corral_internal.h"

#include <dlfcn.h>

static void setup(void) { trace_reset(); }
TestSuite(reload, .init = setup);

typedef struct module {
    void *lib;
    const corral_registry *(*types)(void);
    const corral_predicate_registry *(*preds)(void);
    void (*begin)(corral_sched *s, corral_channel ch, corral_handle out[3]);
    int (*gold)(corral_sched *s, corral_handle h);
    int (*stage)(corral_sched *s, corral_handle h);
    void (*raise_flag)(corral_sched *s, corral_handle h);
    corral_handle (*scout)(corral_sched *s);
    long long (*peek)(corral_sched *s, corral_handle h, const char *what);
    void (*upgrade)(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                    void *user);
} module;

static module module_open(const char *path)
{
    module m;
    memset(&m, 0, sizeof m);
    m.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(m.lib, "%s", dlerror());
    *(void **)&m.types = dlsym(m.lib, "game_types");
    *(void **)&m.preds = dlsym(m.lib, "game_preds");
    *(void **)&m.begin = dlsym(m.lib, "game_begin");
    *(void **)&m.gold = dlsym(m.lib, "game_gold");
    *(void **)&m.stage = dlsym(m.lib, "game_stage");
    *(void **)&m.raise_flag = dlsym(m.lib, "game_raise_flag");
    *(void **)&m.scout = dlsym(m.lib, "game_scout");
    *(void **)&m.peek = dlsym(m.lib, "game_peek");
    *(void **)&m.upgrade = dlsym(m.lib, "game_upgrade");
    cr_assert(m.types && m.preds && m.begin && m.gold && m.stage && m.raise_flag && m.scout && m.peek && m.upgrade);
    return m;
}

static corral_sched *game_sched(const module *m)
{
    corral_sched_desc d = one_class_desc(128, 32);
    d.kept_snapshots = 1;
    d.registry = m->types();
    d.predicates = m->preds();
    d.wait_text = true;
    return sched_of(d);
}

/* a scheduler of build m with its game begun: a digger, a boss, a rival
   reading from ch */
typedef struct game {
    corral_sched *s;
    corral_channel ch;
    corral_handle h[3];
} game;
static game game_of(const module *m)
{
    game g;
    g.s = game_sched(m);
    g.ch = corral_channel_create(g.s, sizeof(int));
    m->begin(g.s, g.ch, g.h);
    return g;
}

/* the rival, waiting to read: a value sent, then its flag raised */
static void rival_reads_then_watches(const module *m, const game *g)
{
    int v = 7;
    cr_assert(corral_channel_try_send(g->s, g->ch, &v, sizeof v));
    corral_tick(g->s, 0.25f);
    cr_assert_eq(m->stage(g->s, g->h[2]), 2, "the predicate wait, in this build's function");
    m->raise_flag(g->s, g->h[2]);
    corral_tick(g->s, 0.25f);
    cr_assert_eq(m->stage(g->s, g->h[2]), 3, "the predicate read the flag");
    cr_assert(corral_verify(g->s), "%s", corral_last_error_detail(g->s));
}

static corral_reload_desc reload_of(const module *m)
{
    corral_reload_desc r;
    memset(&r, 0, sizeof r);
    r.registry = m->types();
    r.predicates = m->preds();
    r.upgrade = m->upgrade;
    return r;
}

Test(reload, a_new_build_takes_over_every_waiting_coroutine_where_it_stood)
{
    module v1 = module_open(RELOAD_GAME_1);
    const game g = game_of(&v1);
    corral_sched *s = g.s;
    const corral_handle *h = g.h;
    for (int f = 0; f < 5; f++) corral_tick(s, 0.25f); /* 1.25 s: one dig each */
    cr_assert_eq(v1.gold(s, h[0]), 1);
    cr_assert_eq(corral_live_count(s), 6, "a digger, a boss and its digger, a rival and its two arms");
    cr_assert(corral_verify(s));
    const uint64_t before = corral_state_hash(s);
    static unsigned char snap[1 << 16];
    const size_t snap_n = corral_snapshot(s, snap, sizeof snap);
    cr_assert_gt(snap_n, 0);
    cr_assert_gt(corral_snapshot_keep(s, 0), 0);

    module v2 = module_open(RELOAD_GAME_2);
    corral_reload_desc r = reload_of(&v2);
    cr_assert(corral_reload(s, &r), "%s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), before, "the same state: types, points and fields by name");
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    dlclose(v1.lib); /* the old code is gone: nothing may call it */
    cr_assert(!corral_restore_kept(s, 0), "a snapshot kept before the reload holds the old build's points");
    cr_assert(strstr(corral_last_error_detail(s), "no snapshot kept under tag 0 since the last reload"), "%s",
              corral_last_error_detail(s));
    cr_assert(!corral_restore(s, snap, snap_n), "so does one in a buffer: refused by its types");
    cr_assert_eq(corral_state_hash(s), before);

    for (int f = 0; f < 5; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v2.gold(s, h[0]), 11, "the timer kept; the next dig is the new code's");
    corral_handle sc = v2.scout(s);
    cr_assert(corral_alive(s, sc), "a type new in this build starts");
    for (int f = 0; f < 12; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v2.stage(s, h[2]), 1, "the race ended; the channel wait is under way");
    const uint64_t receiving = corral_state_hash(s);
    cr_assert(corral_reload(s, &r), "mid-channel wait: %s", corral_last_error_detail(s));
    cr_assert_eq(corral_state_hash(s), receiving);
    rival_reads_then_watches(&v2, &g);
    char text[4096];
    corral_dump_to(s, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert(strstr(text, "scout") && strstr(text, "boss"), "the report names the new build's types");
    corral_sched_destroy(s);
    dlclose(v2.lib);
}

Test(reload, a_build_that_moves_contexts_moves_them_as_a_save_and_load_would)
{
    module v1 = module_open(RELOAD_GAME_1);
    const game g = game_of(&v1);
    corral_sched *s = g.s;
    const corral_handle *h = g.h;
    for (int f = 0; f < 5; f++) corral_tick(s, 0.25f); /* mid-timer, mid-call, mid-race */
    const uint64_t before = corral_state_hash(s);
    static unsigned char save[1 << 16];
    const size_t save_n = corral_save(s, save, sizeof save);
    cr_assert_gt(save_n, 0, "%s", corral_last_error_detail(s));

    module v3 = module_open(RELOAD_GAME_3);
    corral_reload_desc r = reload_of(&v3);
    cr_assert(corral_reload(s, &r), "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
    const uint64_t moved = corral_state_hash(s);
    cr_assert_neq(moved, before, "the contexts have the new build's fields");
    /* the same state through a save loaded into the new build */
    corral_sched_desc d = one_class_desc(128, 32);
    d.registry = v3.types();
    d.predicates = v3.preds();
    d.upgrade.fn = v3.upgrade;
    corral_sched *t = sched_of(d);
    cr_assert(corral_load(t, save, save_n), "%s", corral_last_error_detail(t));
    cr_assert_eq(corral_state_hash(t), moved, "a reload moves every context and place as a load into the build does");
    corral_sched_destroy(t);
    dlclose(v1.lib);

    cr_assert_eq(v3.peek(s, h[0], "gold"), 1, "its gold kept, in its new place");
    cr_assert_eq(v3.peek(s, h[0], "stamina"), 50, "the added field, from the upgrade hook");
    for (int f = 0; f < 20; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v3.peek(s, h[0], "gold"), 41, "four digs of 10 in the new code");
    cr_assert_eq(v3.peek(s, h[1], "take"), 21, "the call's result lands in the boss's moved field");
    cr_assert_eq(v3.peek(s, h[2], "won"), 11, "the race's result lands in the rival's moved field");
    cr_assert_eq(v3.stage(s, h[2]), 1, "the channel wait is under way");
    rival_reads_then_watches(&v3, &g); /* its flag where it moved */
    cr_assert_eq(v3.peek(s, h[2], "got"), 7, "the value landed in the moved field");
    corral_sched_destroy(s);
    dlclose(v3.lib);
}

Test(reload, a_predicate_the_new_build_does_not_list_is_refused_and_the_game_runs_on)
{
    module v1 = module_open(RELOAD_GAME_1);
    const game g = game_of(&v1);
    corral_sched *s = g.s;
    const corral_handle *h = g.h;
    for (int f = 0; f < 17; f++) corral_tick(s, 0.25f);
    int v = 7;
    cr_assert(corral_channel_try_send(s, g.ch, &v, sizeof v));
    corral_tick(s, 0.25f);
    cr_assert_eq(v1.stage(s, h[2]), 2, "it waits on the flag");
    module v2 = module_open(RELOAD_GAME_2);
    corral_reload_desc r2 = reload_of(&v2);
    r2.predicates = NULL;
    const uint64_t waiting = corral_state_hash(s);
    cr_assert(!corral_reload(s, &r2), "the rival waits on a predicate the new build does not list");
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_RELOAD);
    cr_assert_eq(corral_state_hash(s), waiting, "nothing changed");
    cr_assert(strstr(corral_last_error_detail(s), "predicate"), "%s", corral_last_error_detail(s));
    for (int f = 0; f < 4; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v1.gold(s, h[0]), 5, "the old build runs on");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
    dlclose(v2.lib);
    dlclose(v1.lib);
}

Test(reload, a_build_without_the_point_a_coroutine_waits_at_is_refused_by_name)
{
    module v2 = module_open(RELOAD_GAME_2);
    const game g = game_of(&v2);
    corral_sched *s = g.s;
    const corral_handle *h = g.h; /* the digger's first wait: 'stretching' */
    const uint64_t before = corral_state_hash(s);
    module v4 = module_open(RELOAD_GAME_4);
    corral_reload_desc r = reload_of(&v4);
    cr_assert(!corral_reload(s, &r));
    const char *why = corral_last_error_detail(s);
    cr_assert(strstr(why, "digger") && strstr(why, "stretching"), "%s", why);
    cr_assert_eq(corral_state_hash(s), before);
    corral_tick(s, 0.25f); /* past it, at 'resting', which build 4 has */
    cr_assert(corral_reload(s, &r), "%s", corral_last_error_detail(s));
    dlclose(v2.lib);
    for (int f = 0; f < 8; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v4.gold(s, h[0]), 20, "build 4's digs, without the stretch");
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
    dlclose(v4.lib);
}

/* a type outside a registry cannot be found again */
#define LONER_FIELDS(F) F(int, n)
DECLARE_COROUTINE(loner, LONER_FIELDS)
DEFINE_COROUTINE(loner)
{
    (void)ctx;
    CORRAL_BEGIN(co);
    CORRAL_WAIT_FRAME(co);
    CORRAL_END(co);
}

Test(reload, a_type_outside_a_registry_or_a_call_in_a_tick_is_refused)
{
    module v1 = module_open(RELOAD_GAME_1);
    corral_sched *s = game_sched(&v1);
    loner_start(s, (loner_ctx){0});
    corral_reload_desc r = reload_of(&v1);
    cr_assert(!corral_reload(s, &r));
    cr_assert(strstr(corral_last_error_detail(s), "loner"), "%s", corral_last_error_detail(s));
    cr_assert(!corral_reload(s, NULL));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NULL_ARG);
    corral_sched_destroy(s);
    dlclose(v1.lib);
}

/* ---- contexts laid out otherwise: a cart in its first build (cart) and
   the builds after it, each a type of this file under the same registry
   id. A cart receives a load, then waits for its flag; a result goes
   from it into a caller's field. */
static bool cart_flag_up(void *user) { return *(const int *)user != 0; }
#define CART_PREDICATES(X) X(cart_flag_up, 1)
extern const corral_predicate_registry cart_predicates;
CORRAL_DEFINE_PREDICATES(cart, CART_PREDICATES);

#define CART_POINTS(P) P(receiving) P(watching) P(idle)
#define CART_BODY                                                                                \
    CORRAL_BEGIN_AT(co, CART_POINTS);                                                            \
    CORRAL_AWAIT_AT(co, receiving, corral_wait_receive(ctx->ch, &ctx->got, sizeof ctx->got));    \
    ctx->load = (LOAD_T)(ctx->load + ctx->got);                                                  \
    CORRAL_AWAIT_AT(co, watching, corral_wait_until(cart_flag_up, &ctx->flag));                  \
    ctx->speed *= 2;                                                                             \
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);                                                     \
    CORRAL_END(co)

#define LOAD_T int
#define CART_FIELDS(F) F(int, load) F(float, speed) F(corral_channel, ch) F(int, got) F(int, flag)
DECLARE_COROUTINE(cart, CART_FIELDS)
DEFINE_COROUTINE_AT(cart, CART_POINTS) { CART_BODY; }
/* moved: a field added first, load and speed widened, the rest reordered */
#undef LOAD_T
#define LOAD_T int64_t
#define CART_MOVED_FIELDS(F) \
    F(int64_t, extra) F(int, flag) F(int, got) F(corral_channel, ch) F(double, speed) F(int64_t, load)
DECLARE_COROUTINE(cart_moved, CART_MOVED_FIELDS)
DEFINE_COROUTINE_AT(cart_moved, CART_POINTS) { CART_BODY; }
/* refused: load narrowed; speed retyped; the field a wait writes gone; the predicate's gone */
#undef LOAD_T
#define LOAD_T short
#define CART_NARROW_FIELDS(F) F(short, load) F(float, speed) F(corral_channel, ch) F(int, got) F(int, flag)
DECLARE_COROUTINE(cart_narrow, CART_NARROW_FIELDS)
DEFINE_COROUTINE_AT(cart_narrow, CART_POINTS) { CART_BODY; }
#undef LOAD_T
#define LOAD_T int
#define CART_RETYPE_FIELDS(F) F(int, load) F(int, speed) F(corral_channel, ch) F(int, got) F(int, flag)
DECLARE_COROUTINE(cart_retype, CART_RETYPE_FIELDS)
DEFINE_COROUTINE_AT(cart_retype, CART_POINTS) { CART_BODY; }
#define CART_NOGOT_FIELDS(F) F(int, load) F(float, speed) F(corral_channel, ch) F(int, got2) F(int, flag)
DECLARE_COROUTINE(cart_nogot, CART_NOGOT_FIELDS)
DEFINE_COROUTINE_AT(cart_nogot, CART_POINTS)
{
    int got;
#define got got2
    CART_BODY;
#undef got
    (void)got;
}
#define CART_NOFLAG_FIELDS(F) F(int, load) F(float, speed) F(corral_channel, ch) F(int, got) F(int, flag2)
DECLARE_COROUTINE(cart_noflag, CART_NOFLAG_FIELDS)
DEFINE_COROUTINE_AT(cart_noflag, CART_POINTS)
{
    int flag;
#define flag flag2
    CART_BODY;
#undef flag
    (void)flag;
}
/* outgrows its slot */
typedef struct cart_crate { char bytes[200]; } cart_crate;
#define CART_BIG_FIELDS(F) F(int, load) F(float, speed) F(corral_channel, ch) F(int, got) F(int, flag) F(cart_crate, crate)
DECLARE_COROUTINE(cart_big, CART_BIG_FIELDS)
DEFINE_COROUTINE_AT(cart_big, CART_POINTS) { CART_BODY; }

/* a caller whose field takes a cart's result (a hauler's in two builds) */
#define HAULER_POINTS(P) P(hauling) P(idle)
#define HAULER_FIELDS(F) F(int, trips) F(int, haul)
DECLARE_COROUTINE_R(hauler, HAULER_FIELDS, int)
DEFINE_COROUTINE_AT(hauler, HAULER_POINTS)
{
    CORRAL_BEGIN_AT(co, HAULER_POINTS);
    CORRAL_AWAIT_AT(co, hauling, corral_wait_seconds(1.0f));
    ctx->result = 40 + ctx->trips;
    CORRAL_END(co);
}
#define HAULER_MOVED_FIELDS(F) F(int, tires) F(int, trips) F(int, haul)
DECLARE_COROUTINE_R(hauler_moved, HAULER_MOVED_FIELDS, int)
DEFINE_COROUTINE_AT(hauler_moved, HAULER_POINTS)
{
    CORRAL_BEGIN_AT(co, HAULER_POINTS);
    CORRAL_AWAIT_AT(co, hauling, corral_wait_seconds(1.0f));
    ctx->result = 40 + ctx->trips;
    CORRAL_END(co);
}
#define DEPOT_POINTS(P) P(calling) P(idle)
#define DEPOT_FIELDS(F) F(int, haul) F(int, done)
DECLARE_COROUTINE(depot, DEPOT_FIELDS)
DEFINE_COROUTINE_AT(depot, DEPOT_POINTS)
{
    CORRAL_BEGIN_AT(co, DEPOT_POINTS);
    CORRAL_CALL_AT(co, calling, hauler, (hauler_ctx){.trips = 2}, &ctx->haul);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}
#define DEPOT_MOVED_FIELDS(F) F(int, done) F(int, spare) F(int, haul)
DECLARE_COROUTINE(depot_moved, DEPOT_MOVED_FIELDS)
DEFINE_COROUTINE_AT(depot_moved, DEPOT_POINTS)
{
    CORRAL_BEGIN_AT(co, DEPOT_POINTS);
    CORRAL_CALL_AT(co, calling, hauler_moved, (hauler_moved_ctx){.trips = 2}, &ctx->haul);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}

/* a later build of a type as its library would ship it: this file's type
   t (each build here is a type of its own) under the first build's name,
   which a reload, as a load, requires */
static const corral_type *named(const corral_type *t, const char *name)
{
    static corral_type copy[16];
    static int n;
    for (int i = 0; i < n; i++)
        if (copy[i].step == t->step && !strcmp(copy[i].name, name)) return &copy[i];
    cr_assert_lt(n, 16);
    copy[n] = *t;
    copy[n].name = name;
    return &copy[n++];
}
#define CTX_AS(T, NAME, s, h) ((T##_ctx *)corral_context((s), (h), named(&T##_type, NAME)))

static const corral_type *cart_build_types[2][3];
static const uint32_t cart_ids[3] = {7, 8, 9};
static corral_registry cart_build(const corral_type *cart_t, const corral_type *hauler_t, const corral_type *depot_t)
{
    static int k;
    k ^= 1;
    cart_build_types[k][0] = cart_t;
    cart_build_types[k][1] = hauler_t;
    cart_build_types[k][2] = depot_t;
    return (corral_registry){"carts", cart_build_types[k], cart_ids, NULL, 3};
}

static void cart_upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                         void *user)
{
    (void)old_ctx;
    ++*(int *)user;
    cr_assert_str_eq(old->name, type->name);
    if (type->step == cart_moved_type.step) ((cart_moved_ctx *)ctx)->extra = 42;
}

typedef struct cart_scene {
    corral_sched *s;
    corral_channel ch;
    corral_handle recv, watch, depot;
} cart_scene;

/* a cart waiting to receive, one waiting for its flag, a depot calling a hauler */
static cart_scene cart_scene_of(const corral_registry *reg, uint32_t slot, uint32_t cap)
{
    cart_scene c;
    corral_sched_desc d = one_class_desc(slot, cap);
    d.registry = reg;
    d.predicates = &cart_predicates;
    c.s = sched_of(d);
    c.ch = corral_channel_create(c.s, sizeof(int));
    int v = 10;
    cr_assert(corral_channel_try_send(c.s, c.ch, &v, sizeof v));
    c.watch = cart_start(c.s, (cart_ctx){.load = 3, .speed = 2.5f, .ch = c.ch});
    c.recv = cart_start(c.s, (cart_ctx){.load = -5, .speed = 1.5f, .ch = c.ch});
    c.depot = depot_start(c.s, (depot_ctx){0});
    corral_tick(c.s, 0.25f);
    return c;
}

Test(reload, a_context_laid_out_otherwise_moves_with_every_place_a_wait_keeps_in_it)
{
    corral_registry r1 = cart_build(&cart_type, &hauler_type, &depot_type);
    cart_scene c = cart_scene_of(&r1, 128, 8);
    cr_assert_eq(cart_ctx_of(c.s, c.watch)->load, 13, "the second received the value");
    /* a third in a group, paused while it waits to receive */
    const cart_ctx third = {.load = 1, .speed = 1.0f, .ch = c.ch};
    const corral_start_desc group = {.owner = 77, .tags = 4};
    corral_handle g = corral_start_ex(c.s, &cart_type, &third, sizeof third, &group);
    cr_assert(corral_pause(c.s, g));
    corral_registry r2 = cart_build(named(&cart_moved_type, "cart"), named(&hauler_moved_type, "hauler"),
                                    named(&depot_moved_type, "depot"));
    int upgrades = 0;
    corral_reload_desc r = {&r2, &cart_predicates, cart_upgrade, &upgrades};
    cr_assert(corral_reload(c.s, &r), "%s", corral_last_error_detail(c.s));
    cr_assert_eq(upgrades, 5, "once for each context moved: three carts, a depot, a hauler; no step ran");
    cr_assert(corral_paused(c.s, g), "its pause kept");
    cr_assert_eq(CTX_AS(cart_moved, "cart", c.s, g)->load, 1);
    cr_assert_eq(corral_stop_tags(c.s, 4), 1, "its group kept");
    cr_assert(!corral_alive(c.s, g));
    cr_assert(corral_verify(c.s), "%s", corral_last_error_detail(c.s));
    const cart_moved_ctx *a = CTX_AS(cart_moved, "cart", c.s, c.recv), *b = CTX_AS(cart_moved, "cart", c.s, c.watch);
    cr_assert(a && b);
    cr_assert(a->load == -5 && a->speed == 1.5 && a->extra == 42, "widened by sign; the hook's field");
    cr_assert(b->load == 13 && b->speed == 2.5 && b->got == 10 && b->flag == 0);
    cr_assert(a->ch.index == c.ch.index && a->ch.gen == c.ch.gen);
    int v = 99;
    cr_assert(corral_channel_try_send(c.s, c.ch, &v, sizeof v));
    ((cart_moved_ctx *)b)->flag = 1;
    corral_tick(c.s, 0.25f);
    cr_assert_eq(a->got, 99, "the receive lands in the moved field");
    cr_assert_eq(a->load, 94);
    cr_assert(b->speed == 5.0, "the predicate read the moved flag");
    for (int f = 0; f < 4; f++) corral_tick(c.s, 0.25f);
    const depot_moved_ctx *dp = CTX_AS(depot_moved, "depot", c.s, c.depot);
    cr_assert(dp && dp->done == 1 && dp->haul == 42 && dp->spare == 0, "the call's result in the moved field");
    cr_assert(corral_verify(c.s));
    corral_sched_destroy(c.s);
}

/* a build that cannot take the carts over: refused, naming what; nothing changes */
static void cart_refused(const corral_type *t, uint32_t slot, const char *what)
{
    corral_registry r1 = cart_build(&cart_type, &hauler_type, &depot_type);
    cart_scene c = cart_scene_of(&r1, slot, 8);
    const uint64_t before = corral_state_hash(c.s);
    corral_registry r2 = cart_build(t, &hauler_type, &depot_type);
    corral_reload_desc r = {&r2, &cart_predicates, NULL, NULL};
    cr_assert(!corral_reload(c.s, &r), "%s", t->name);
    cr_assert_eq(corral_last_error(c.s), CORRAL_ERR_BAD_RELOAD);
    const char *why = corral_last_error_detail(c.s);
    cr_assert(strstr(why, "cart") && strstr(why, what), "%s names %s: %s", t->name, what, why);
    cr_assert_eq(corral_state_hash(c.s), before, "nothing changed");
    cr_assert(corral_verify(c.s), "%s", corral_last_error_detail(c.s));
    int v = 4;
    cr_assert(corral_channel_try_send(c.s, c.ch, &v, sizeof v));
    corral_tick(c.s, 0.25f);
    cr_assert_eq(cart_ctx_of(c.s, c.recv)->load, -1, "the old build runs on");
    corral_sched_destroy(c.s);
}

/* a field table written by hand that places a field past its context */
static const corral_field *cart_wrong_fields(uint32_t *count)
{
    static corral_field f[2];
    f[0] = (corral_field){"load", "int", 0, 4, CORRAL_FIELD_INT};
    f[1] = (corral_field){"far", "int", 4000, 4, CORRAL_FIELD_INT};
    *count = 2;
    return f;
}

Test(reload, a_narrowed_or_retyped_field_or_a_place_gone_is_refused_by_name)
{
    static corral_type wrong;
    wrong = *named(&cart_moved_type, "cart");
    wrong.fields = cart_wrong_fields;
    cart_refused(&wrong, 128, "far");
    cart_refused(named(&cart_narrow_type, "cart"), 128, "load");
    cart_refused(named(&cart_retype_type, "cart"), 128, "speed");
    cart_refused(named(&cart_nogot_type, "cart"), 128, "got");
    cart_refused(named(&cart_noflag_type, "cart"), 128, "flag");
    cart_refused(named(&cart_big_type, "cart"), 128, "outgrows its 128-byte slots");
}

/* a context past the stack's room moves through a free slot */
typedef struct hoard_bag { int32_t coins[100]; } hoard_bag;
#define HOARD_POINTS(P) P(idle)
#define HOARD_FIELDS(F) F(int, n) F(hoard_bag, bag)
DECLARE_COROUTINE(hoard, HOARD_FIELDS)
DEFINE_COROUTINE_AT(hoard, HOARD_POINTS)
{
    CORRAL_BEGIN_AT(co, HOARD_POINTS);
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    (void)ctx;
    CORRAL_END(co);
}
#define HOARD_MOVED_FIELDS(F) F(hoard_bag, bag) F(int64_t, n)
DECLARE_COROUTINE(hoard_moved, HOARD_MOVED_FIELDS)
DEFINE_COROUTINE_AT(hoard_moved, HOARD_POINTS)
{
    CORRAL_BEGIN_AT(co, HOARD_POINTS);
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    (void)ctx;
    CORRAL_END(co);
}

Test(reload, a_large_context_moves_through_a_free_slot_or_is_refused_without_one)
{
    static const corral_type *t1[] = {&hoard_type}, *t2[1];
    t2[0] = named(&hoard_moved_type, "hoard");
    static const uint32_t ids[] = {5};
    const corral_registry r1 = {"hoards", t1, ids, NULL, 1}, r2 = {"hoards", t2, ids, NULL, 1};
    for (int full = 0; full < 2; full++) {
        corral_sched_desc d = one_class_desc(512, 3);
        d.registry = &r1;
        corral_sched *s = sched_of(d);
        corral_handle h[3];
        for (int i = 0; i < 2 + full; i++) {
            hoard_ctx c = {.n = -7 * (i + 1)};
            for (int k = 0; k < 100; k++) c.bag.coins[k] = k * (i + 1);
            h[i] = hoard_start(s, c);
        }
        corral_tick(s, 0.25f);
        const uint64_t before = corral_state_hash(s);
        corral_reload_desc r = {&r2, NULL, NULL, NULL};
        if (full) {
            cr_assert(!corral_reload(s, &r), "every slot is taken: nowhere to move a 404-byte context through");
            cr_assert(strstr(corral_last_error_detail(s), "free slot"), "%s", corral_last_error_detail(s));
            cr_assert_eq(corral_state_hash(s), before);
        } else {
            cr_assert(corral_reload(s, &r), "%s", corral_last_error_detail(s));
            for (int i = 0; i < 2; i++) {
                const hoard_moved_ctx *c = CTX_AS(hoard_moved, "hoard", s, h[i]);
                cr_assert(c && c->n == -7 * (i + 1) && c->bag.coins[99] == 99 * (i + 1));
            }
            cr_assert(corral_verify(s), "%s", corral_last_error_detail(s));
        }
        corral_sched_destroy(s);
    }
}

/* a type that shrinks stays in its slots; a save made then loads into a
   scheduler of the new build, which would have placed it in a smaller class */
#define PACK_POINTS(P) P(idle)
#define PACK_FIELDS(F) F(int, n) F(cart_crate, crate)
DECLARE_COROUTINE(pack, PACK_FIELDS)
DEFINE_COROUTINE_AT(pack, PACK_POINTS)
{
    CORRAL_BEGIN_AT(co, PACK_POINTS);
    for (;;) {
        ctx->n++;
        CORRAL_WAIT_FRAME_AT(co, idle);
    }
    CORRAL_END(co);
}
#define PACK_SMALL_FIELDS(F) F(int64_t, n)
DECLARE_COROUTINE(pack_small, PACK_SMALL_FIELDS)
DEFINE_COROUTINE_AT(pack_small, PACK_POINTS)
{
    CORRAL_BEGIN_AT(co, PACK_POINTS);
    for (;;) {
        ctx->n += 10;
        CORRAL_WAIT_FRAME_AT(co, idle);
    }
    CORRAL_END(co);
}

Test(reload, a_type_that_shrank_keeps_its_class_and_a_save_then_loads_in_a_fresh_scheduler)
{
    static const corral_type *t1[] = {&pack_type}, *t2[1];
    t2[0] = named(&pack_small_type, "pack");
    static const uint32_t ids[] = {6};
    const corral_registry r1 = {"packs", t1, ids, NULL, 1}, r2 = {"packs", t2, ids, NULL, 1};
    corral_sched_desc d;
    memset(&d, 0, sizeof d);
    d.classes[0] = (corral_class_desc){64, 8};
    d.classes[1] = (corral_class_desc){256, 8};
    d.registry = &r1;
    corral_sched *s = sched_of(d);
    corral_handle h = pack_start(s, (pack_ctx){.n = 5});
    corral_tick(s, 0.25f);
    cr_assert_eq(h.index >> 24, 1, "in the 256-byte class");
    corral_reload_desc r = {&r2, NULL, NULL, NULL};
    cr_assert(corral_reload(s, &r), "%s", corral_last_error_detail(s));
    cr_assert_eq(CTX_AS(pack_small, "pack", s, h)->n, 7, "in its slot still, its count widened");
    static unsigned char save[4096];
    const size_t n = corral_save(s, save, sizeof save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
    const pack_small_ctx zero = {0};
    corral_handle k = corral_start(s, t2[0], &zero, sizeof zero);
    cr_assert_eq(k.index >> 24, 1, "its starts go to its class here");
    d.registry = &r2; /* a fresh scheduler of the new build would place it in the 64-byte class */
    corral_sched *t = sched_of(d);
    cr_assert(corral_load(t, save, n), "%s", corral_last_error_detail(t));
    cr_assert(corral_verify(t), "%s", corral_last_error_detail(t));
    cr_assert(corral_stop(s, k));
    cr_assert_eq(corral_state_hash(t), corral_state_hash(s));
    corral_tick(t, 0.25f);
    cr_assert_eq(CTX_AS(pack_small, "pack", t, h)->n, 17);
    cr_assert_eq(corral_start(t, t2[0], &zero, sizeof zero).index >> 24, 1, "the load keeps the type where the save had it");
    cr_assert(corral_verify(t));
    corral_sched_destroy(t);
    corral_sched_destroy(s);
}

/* what a save's load into the new build refuses, a reload refuses: a field
   retyped at the same size (its bytes would read as another type) and a
   type renamed under its id */
typedef struct rover_pos { float x, y; } rover_pos;
typedef struct rover_cell { int32_t col, row; } rover_cell;
#define ROVER_POINTS(P) P(roving)
#define ROVER_FIELDS(F) F(int, laps) F(rover_pos, at)
DECLARE_COROUTINE(rover, ROVER_FIELDS)
DEFINE_COROUTINE_AT(rover, ROVER_POINTS)
{
    CORRAL_BEGIN_AT(co, ROVER_POINTS);
    for (;;) {
        ctx->laps++;
        CORRAL_WAIT_FRAME_AT(co, roving);
    }
    CORRAL_END(co);
}
#define ROVER_CELL_FIELDS(F) F(int, laps) F(rover_cell, at)
DECLARE_COROUTINE(rover_on_cells, ROVER_CELL_FIELDS)
DEFINE_COROUTINE_AT(rover_on_cells, ROVER_POINTS)
{
    CORRAL_BEGIN_AT(co, ROVER_POINTS);
    for (;;) {
        ctx->laps++;
        CORRAL_WAIT_FRAME_AT(co, roving);
    }
    CORRAL_END(co);
}

Test(reload, what_a_load_into_the_new_build_refuses_a_reload_refuses_too)
{
    static const corral_type *t1[] = {&rover_type}, *t2[1];
    static const uint32_t ids[] = {11};
    const corral_type *builds[2] = {named(&rover_on_cells_type, "rover"), named(&rover_type, "wagon")};
    const char *why_word[2] = {"field at", "another type"};
    static unsigned char save[4096];
    for (int b = 0; b < 2; b++) {
        const corral_registry r1 = {"rovers", t1, ids, NULL, 1};
        t2[0] = builds[b];
        const corral_registry r2 = {"rovers", t2, ids, NULL, 1};
        corral_sched_desc d = one_class_desc(64, 4);
        d.registry = &r1;
        corral_sched *s = sched_of(d);
        corral_handle h = rover_start(s, (rover_ctx){.at = {1.5f, 2.5f}});
        corral_tick(s, 0.25f);
        const size_t n = corral_save(s, save, sizeof save);
        cr_assert_gt(n, 0, "%s", corral_last_error_detail(s));
        const uint64_t before = corral_state_hash(s);
        corral_reload_desc r = {&r2, NULL, NULL, NULL};
        cr_assert(!corral_reload(s, &r), "%s: a reload takes it", builds[b]->name);
        cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_RELOAD);
        cr_assert(strstr(corral_last_error_detail(s), "rover") && strstr(corral_last_error_detail(s), why_word[b]),
                  "%s", corral_last_error_detail(s));
        cr_assert_eq(corral_state_hash(s), before, "nothing changed");
        corral_tick(s, 0.25f);
        cr_assert_eq(rover_ctx_of(s, h)->laps, 3, "the old build runs on");
        d.registry = &r2; /* the same state loaded into the new build: the same rule */
        corral_sched *t = sched_of(d);
        cr_assert(!corral_load(t, save, n));
        cr_assert_eq(corral_last_error(t), CORRAL_ERR_BAD_SAVE);
        cr_assert(strstr(corral_last_error_detail(t), why_word[b]), "%s", corral_last_error_detail(t));
        corral_sched_destroy(t);
        corral_sched_destroy(s);
    }
}

/* ---- a hook inside a load or a reload: every call on the scheduler from
   it is refused with LOADING, whatever the call (API.md, "Between ticks") */
static corral_sched *g_hooked;
enum { HOOK_CALLS = 8 };
static corral_error g_hook_err[HOOK_CALLS];
static int g_hook_runs;
static unsigned char g_hook_buf[8192];

static void hook_calls(void)
{
    corral_sched *s = g_hooked;
    const cart_ctx c = {.load = 1};
    g_hook_runs++;
    cr_assert_eq(corral_start(s, &cart_type, &c, sizeof c).gen, 0u);
    g_hook_err[0] = corral_last_error(s);
    cr_assert_eq(corral_tick(s, 0.25f), 0u);
    g_hook_err[1] = corral_last_error(s);
    cr_assert_eq(corral_save(s, g_hook_buf, sizeof g_hook_buf), 0u);
    g_hook_err[2] = corral_last_error(s);
    cr_assert_eq(corral_snapshot(s, g_hook_buf, sizeof g_hook_buf), 0u);
    g_hook_err[3] = corral_last_error(s);
    cr_assert(!corral_restore(s, g_hook_buf, sizeof g_hook_buf));
    g_hook_err[4] = corral_last_error(s);
    cr_assert(!corral_load(s, g_hook_buf, sizeof g_hook_buf));
    g_hook_err[5] = corral_last_error(s);
    static const corral_type *types[3] = {&cart_type, &hauler_type, &depot_type};
    const corral_registry r = {"carts", types, cart_ids, NULL, 3};
    corral_reload_desc rd = {&r, &cart_predicates, NULL, NULL};
    cr_assert(!corral_reload(s, &rd));
    g_hook_err[6] = corral_last_error(s);
    corral_handle none = {0, 0};
    cr_assert(!corral_stop(s, none));
    g_hook_err[7] = corral_last_error(s);
}
static void hook_upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                         void *user)
{
    (void)type, (void)ctx, (void)old, (void)old_ctx, (void)user;
    hook_calls();
}
static void hook_expect_loading(const char *where)
{
    cr_assert_gt(g_hook_runs, 0, "%s: the hook ran", where);
    for (int i = 0; i < HOOK_CALLS; i++)
        cr_assert_eq(g_hook_err[i], CORRAL_ERR_LOADING, "%s: call %d: %s", where, i, corral_error_str(g_hook_err[i]));
    memset(g_hook_err, 0, sizeof g_hook_err);
    g_hook_runs = 0;
}

Test(reload, every_call_from_a_reloads_upgrade_hook_is_refused_and_the_reload_completes)
{
    corral_registry r1 = cart_build(&cart_type, &hauler_type, &depot_type);
    cart_scene c = cart_scene_of(&r1, 128, 8);
    cart_scene q = cart_scene_of(&r1, 128, 8); /* the same reload, its hook quiet */
    g_hooked = c.s;
    corral_registry r2 = cart_build(named(&cart_moved_type, "cart"), named(&hauler_moved_type, "hauler"),
                                    named(&depot_moved_type, "depot"));
    corral_reload_desc r = {&r2, &cart_predicates, hook_upgrade, NULL};
    cr_assert(corral_reload(c.s, &r), "%s", corral_last_error_detail(c.s));
    hook_expect_loading("a reload's upgrade hook");
    corral_reload_desc rq = {&r2, &cart_predicates, NULL, NULL};
    cr_assert(corral_reload(q.s, &rq), "%s", corral_last_error_detail(q.s));
    cr_assert(corral_verify(q.s), "quiet: %s", corral_last_error_detail(q.s));
    cr_assert(corral_verify(c.s), "%s", corral_last_error_detail(c.s));
    cr_assert_eq(corral_state_hash(c.s), corral_state_hash(q.s), "the hook's calls changed nothing");
    cr_assert_eq(corral_live_count(c.s), corral_live_count(q.s), "no coroutine started from the hook");
    corral_sched_destroy(q.s);
    corral_sched_destroy(c.s);
}

/* a cart whose end calls the scheduler: the load ends it (DESTROYED) */
static void hooked_cleanup(void *ctx, corral_end_reason why)
{
    (void)ctx;
    if (why == CORRAL_END_DESTROYED && g_hooked) hook_calls();
}
#define HOOKED_POINTS(P) P(idle)
#define HOOKED_FIELDS(F) F(int, n)
DECLARE_COROUTINE(hooked, HOOKED_FIELDS)
DEFINE_COROUTINE_CLEANUP_AT(hooked, hooked_cleanup, HOOKED_POINTS)
{
    CORRAL_BEGIN_AT(co, HOOKED_POINTS);
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    (void)ctx;
    CORRAL_END(co);
}

Test(reload, every_call_from_a_loads_cleanup_or_upgrade_hook_is_refused_and_the_load_completes)
{
    corral_registry r1 = cart_build(&cart_type, &hauler_type, &depot_type);
    cart_scene c = cart_scene_of(&r1, 128, 8);
    static unsigned char save[8192];
    const size_t n = corral_save(c.s, save, sizeof save);
    cr_assert_gt(n, 0, "%s", corral_last_error_detail(c.s));
    /* the new build: carts laid out otherwise (the load's upgrade hook runs),
       and a coroutine of its own whose cleanup runs when the load ends it */
    static const corral_type *types[4];
    static const uint32_t ids[4] = {7, 8, 9, 12};
    types[0] = named(&cart_moved_type, "cart");
    types[1] = named(&hauler_moved_type, "hauler");
    types[2] = named(&depot_moved_type, "depot");
    types[3] = &hooked_type;
    const corral_registry r2 = {"carts", types, ids, NULL, 4};
    corral_sched_desc d = one_class_desc(128, 8);
    d.registry = &r2;
    d.predicates = &cart_predicates;
    d.upgrade.fn = hook_upgrade;
    corral_sched *t = sched_of(d);
    hooked_start(t, (hooked_ctx){0});
    g_hooked = t;
    cr_assert(corral_load(t, save, n), "%s", corral_last_error_detail(t));
    hook_expect_loading("a load's cleanup and upgrade hooks");
    g_hooked = NULL;
    cr_assert(corral_verify(t), "%s", corral_last_error_detail(t));
    d.upgrade.fn = NULL; /* the same load, its hooks quiet */
    corral_sched *q = sched_of(d);
    cr_assert(corral_load(q, save, n), "%s", corral_last_error_detail(q));
    cr_assert_eq(corral_state_hash(t), corral_state_hash(q), "the hooks' calls changed nothing");
    corral_sched_destroy(q);
    corral_sched_destroy(t);
    corral_sched_destroy(c.s);
}

/* a predicate whose new registration takes a number where the old took a
   context's address (or the other way): a load refuses it, so a reload does */
#define CART_NUMBERED(X) X(cart_flag_up, 1, CORRAL_PREDICATE_NUMBER)
CORRAL_DEFINE_PREDICATES(cart_numbered, CART_NUMBERED);

Test(reload, a_predicate_whose_argument_changes_kind_is_refused)
{
    corral_registry r1 = cart_build(&cart_type, &hauler_type, &depot_type);
    cart_scene c = cart_scene_of(&r1, 128, 8); /* c.watch waits on cart_flag_up(&ctx->flag) */
    const uint64_t before = corral_state_hash(c.s);
    corral_reload_desc r = {&r1, &cart_numbered_predicates, NULL, NULL};
    cr_assert(!corral_reload(c.s, &r));
    cr_assert_eq(corral_last_error(c.s), CORRAL_ERR_BAD_RELOAD);
    cr_assert(strstr(corral_last_error_detail(c.s), "number in one build"), "%s", corral_last_error_detail(c.s));
    cr_assert_eq(corral_state_hash(c.s), before);
    corral_sched_destroy(c.s);
}

/* a number-taking predicate whose number happens to equal the address of
   a field that moves: a number, so it stays as it is, whichever build's
   function the reload hands the wait (a reloaded library's is another) */
static uintptr_t g_number_seen;
static bool num_old(void *user) { return (uintptr_t)user == 1; }
static bool num_new(void *user)
{
    g_number_seen = (uintptr_t)user;
    return false;
}
#define NUM_OLD(X) X(num_old, 5, CORRAL_PREDICATE_NUMBER) X(cart_flag_up, 1)
#define NUM_NEW(X) X(num_new, 5, CORRAL_PREDICATE_NUMBER) X(cart_flag_up, 1)
CORRAL_DEFINE_PREDICATES(num_old_build, NUM_OLD);
CORRAL_DEFINE_PREDICATES(num_new_build, NUM_NEW);
#define COUNTER_POINTS(P) P(counting)
#define COUNTER_FIELDS(F) F(uint64_t, number)
DECLARE_COROUTINE(counter, COUNTER_FIELDS)
DEFINE_COROUTINE_AT(counter, COUNTER_POINTS)
{
    CORRAL_BEGIN_AT(co, COUNTER_POINTS);
    CORRAL_AWAIT_AT(co, counting, corral_wait_until(num_old, (void *)(uintptr_t)ctx->number));
    CORRAL_END(co);
}

Test(reload, a_number_equal_to_a_moving_fields_address_stays_a_number)
{
    static const corral_type *t1[2], *t2[2];
    static const uint32_t ids[2] = {7, 21};
    t1[0] = &cart_type;
    t1[1] = &counter_type;
    t2[0] = named(&cart_moved_type, "cart");
    t2[1] = &counter_type;
    const corral_registry r1 = {"counted", t1, ids, NULL, 2}, r2 = {"counted", t2, ids, NULL, 2};
    corral_sched_desc d = one_class_desc(128, 8);
    d.registry = &r1;
    d.predicates = &num_old_build_predicates;
    corral_sched *s = sched_of(d);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_handle cart = cart_start(s, (cart_ctx){.load = 3, .ch = ch});
    const uintptr_t number = (uintptr_t)&cart_ctx_of(s, cart)->load; /* where a moving field lies now */
    corral_handle k = counter_start(s, (counter_ctx){.number = number});
    cr_assert(corral_alive(s, k));
    corral_reload_desc r = {&r2, &num_new_build_predicates, NULL, NULL};
    cr_assert(corral_reload(s, &r), "%s", corral_last_error_detail(s));
    cr_assert_neq((uintptr_t)&CTX_AS(cart_moved, "cart", s, cart)->load, number, "the field moved");
    corral_tick(s, 0.25f);
    cr_assert_eq(g_number_seen, number, "the new build's function was handed the number as it was");
    corral_sched_destroy(s);
}

/* What the host's logger was told. */
typedef struct heard {
    int count;
    corral_log_level level;
    corral_error item;
    char text[512];
} heard;
static void heard_log(corral_log_level level, corral_error item, const char *message, const corral_sched *s,
                      void *user)
{
    (void)s;
    heard *h = (heard *)user;
    h->count++;
    h->level = level;
    h->item = item;
    snprintf(h->text, sizeof h->text, "%s", message);
}

/* tests/reload/own_copy.c: a module with its own copy of corral */
typedef corral_handle (*own_copy_start_fn)(corral_sched *s, char *detail, char *thread_detail, size_t cap);
static own_copy_start_fn own_copy_open(void **lib)
{
    *lib = dlopen(RELOAD_OWN_COPY, RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(*lib, "%s", dlerror());
    own_copy_start_fn start;
    *(void **)&start = dlsym(*lib, "own_copy_start");
    cr_assert_not_null(start);
    return start;
}

Test(reload, a_module_with_its_own_copy_of_corral_is_told_so_through_the_hosts_logger)
{
    void *lib;
    own_copy_start_fn start = own_copy_open(&lib);
    heard h;
    memset(&h, 0, sizeof h);
    corral_sched_desc d = one_class_desc(128, 8);
    d.logger = (corral_logger){heard_log, &h};
    d.validation = CORRAL_VALIDATION_REPORT;
    corral_sched *s = sched_of(d);
    char detail[512], thread_detail[512];
    corral_handle c = start(s, detail, thread_detail, sizeof detail);
    cr_assert_eq(c.index | c.gen, 0u, "the other copy's scheduler is refused");
    cr_assert_eq(h.count, 1, "the host's logger is told once");
    cr_assert_eq(h.item, CORRAL_ERR_NOT_A_SCHED);
    char words[96]; /* the other copy's version: this one's */
    snprintf(words, sizeof words, "made by another copy of corral (%d.%d.%d)", CORRAL_VERSION_MAJOR,
             CORRAL_VERSION_MINOR, CORRAL_VERSION_PATCH);
    cr_assert(strstr(h.text, words), "%s", h.text);
    cr_assert(strstr(detail, words), "%s", detail);
    cr_assert(strstr(thread_detail, words), "%s", thread_detail);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_NOT_A_SCHED, "the host reads it as the scheduler's last error");
    cr_assert(strstr(corral_last_error_detail(s), "another copy of corral"), "%s", corral_last_error_detail(s));
    corral_sched_destroy(s);
    dlclose(lib);
}

Test(reload, a_module_with_its_own_copy_of_corral_stops_at_the_mistake_under_fatal_validation, .signal = SIGABRT)
{
    void *lib;
    own_copy_start_fn start = own_copy_open(&lib);
    corral_sched_desc d = one_class_desc(128, 8);
    d.validation = CORRAL_VALIDATION_FATAL; /* a debug build's default */
    corral_sched *s = sched_of(d);
    char detail[512], thread_detail[512];
    start(s, detail, thread_detail, sizeof detail);
}
