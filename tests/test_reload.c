/* test_reload.c -- hot reload with a real module: tests/reload/game.c built
   as three shared modules (builds 1, 2, 3), loaded with dlopen the way a
   game host loads its gameplay code, and reloaded while its coroutines
   wait mid-timer, mid-call, mid-race, mid-channel wait and on a
   predicate. */
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
    cr_assert(m.types && m.preds && m.begin && m.gold && m.stage && m.raise_flag && m.scout);
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

static corral_reload_desc reload_of(const module *m)
{
    corral_reload_desc r;
    memset(&r, 0, sizeof r);
    r.registry = m->types();
    r.predicates = m->preds();
    return r;
}

Test(reload, a_new_build_takes_over_every_waiting_coroutine_where_it_stood)
{
    module v1 = module_open(RELOAD_GAME_1);
    corral_sched *s = game_sched(&v1);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_handle h[3];
    v1.begin(s, ch, h);
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
    cr_assert(!corral_restore(s, snap, snap_n), "so does one in a buffer: refused by its types");
    cr_assert_eq(corral_state_hash(s), before);

    for (int f = 0; f < 5; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v2.gold(s, h[0]), 11, "the timer kept; the next dig is the new code's");
    corral_handle sc = v2.scout(s);
    cr_assert(corral_alive(s, sc), "a type new in this build starts");
    for (int f = 0; f < 12; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v2.stage(s, h[2]), 1, "the race ended; the channel wait is under way");
    int v = 7;
    cr_assert(corral_channel_try_send(s, ch, &v, sizeof v));
    corral_tick(s, 0.25f);
    cr_assert_eq(v2.stage(s, h[2]), 2, "the predicate wait, in the new build's function");
    v2.raise_flag(s, h[2]);
    corral_tick(s, 0.25f);
    cr_assert_eq(v2.stage(s, h[2]), 3);
    cr_assert(corral_verify(s));
    char text[4096];
    corral_dump_to(s, &(corral_writer){.buf = text, .cap = sizeof text});
    cr_assert(strstr(text, "scout") && strstr(text, "boss"), "the report names the new build's types");
    corral_sched_destroy(s);
    dlclose(v2.lib);
}

Test(reload, a_build_that_does_not_fit_is_refused_and_the_game_runs_on)
{
    module v1 = module_open(RELOAD_GAME_1);
    corral_sched *s = game_sched(&v1);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_handle h[3];
    v1.begin(s, ch, h);
    corral_tick(s, 0.25f);
    const uint64_t before = corral_state_hash(s);
    module v3 = module_open(RELOAD_GAME_3);
    corral_reload_desc r = reload_of(&v3);
    cr_assert(!corral_reload(s, &r));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_RELOAD);
    const char *why = corral_last_error_detail(s);
    cr_assert(strstr(why, "digger") && strstr(why, "stamina"), "names the type and the field: %s", why);
    cr_assert_eq(corral_state_hash(s), before, "nothing changed");
    r.predicates = NULL; /* a predicate it does not list: checked too (the layout first) */
    cr_assert(!corral_reload(s, &r));
    dlclose(v3.lib);
    for (int f = 0; f < 4; f++) corral_tick(s, 0.25f);
    cr_assert_eq(v1.gold(s, h[0]), 1, "the old build runs on");
    /* a build whose predicates are not given, while the rival waits on one */
    for (int f = 0; f < 12; f++) corral_tick(s, 0.25f);
    int v = 7;
    cr_assert(corral_channel_try_send(s, ch, &v, sizeof v));
    corral_tick(s, 0.25f);
    cr_assert_eq(v1.stage(s, h[2]), 2, "it waits on the flag");
    module v2 = module_open(RELOAD_GAME_2);
    corral_reload_desc r2 = reload_of(&v2);
    r2.predicates = NULL;
    const uint64_t waiting = corral_state_hash(s);
    cr_assert(!corral_reload(s, &r2), "the rival waits on a predicate the new build does not list");
    cr_assert_eq(corral_state_hash(s), waiting);
    cr_assert(strstr(corral_last_error_detail(s), "predicate"), "%s", corral_last_error_detail(s));
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
    dlclose(v2.lib);
    dlclose(v1.lib);
}

Test(reload, a_build_without_the_point_a_coroutine_waits_at_is_refused_by_name)
{
    module v2 = module_open(RELOAD_GAME_2);
    corral_sched *s = game_sched(&v2);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    corral_handle h[3];
    v2.begin(s, ch, h); /* the digger's first wait: 'stretching' */
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
