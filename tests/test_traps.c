/* test_traps.c -- the silent failures a new user met, each now loud or
   impossible (the compile-time ones are tests/compile_fail). */
#include "common.h"

#include <signal.h>
#include <unistd.h>

/* ---- a registered type without a budget starts with the default classes */

#define PATROL_FIELDS(F) F(int, steps)
DECLARE_COROUTINE(patrol, PATROL_FIELDS)
DEFINE_COROUTINE(patrol)
{
    ctx->steps++;
    return CORRAL_YIELD;
}
#define ALARM_FIELDS(F) F(int, rings)
DECLARE_COROUTINE(alarm_bell, ALARM_FIELDS)
DEFINE_COROUTINE(alarm_bell)
{
    ctx->rings++;
    return CORRAL_YIELD;
}
#define STRAY_FIELDS(F) F(int, x)
DECLARE_COROUTINE(stray, STRAY_FIELDS)
DEFINE_COROUTINE(stray)
{
    ctx->x++;
    return CORRAL_YIELD;
}

#define MIXED_TYPES(X) X(patrol, 1, 0) X(alarm_bell, 2, 4)
CORRAL_DECLARE_REGISTRY(mixed, MIXED_TYPES)
CORRAL_DEFINE_REGISTRY(mixed, MIXED_TYPES);
#define GUARD_FIELDS(F) F(int, rounds)
DECLARE_COROUTINE(guard, GUARD_FIELDS)
DEFINE_COROUTINE(guard)
{
    ctx->rounds++;
    return CORRAL_YIELD;
}
#define BUDGETED_TYPES(X) X(guard, 1, 3)
CORRAL_DECLARE_REGISTRY(budgeted, BUDGETED_TYPES)
CORRAL_DEFINE_REGISTRY(budgeted, BUDGETED_TYPES);

Test(traps, a_registered_type_without_a_budget_starts_with_the_default_classes)
{
    corral_sched *s = sched_of((corral_sched_desc){.registry = &mixed_registry});
    for (int i = 0; i < 256; i++) cr_assert(corral_alive(s, patrol_start(s, (patrol_ctx){0})), "start %d", i);
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &patrol_type, &t));
    cr_assert_eq(t.live, 256);
    cr_assert(corral_alive(s, alarm_bell_start(s, (alarm_bell_ctx){0})), "the budgeted type has its own slots");
    corral_sched_destroy(s);
}

Test(traps, a_registry_of_budgets_alone_sizes_the_arena_exactly_and_names_a_stray_type)
{
    corral_sched *s = sched_of((corral_sched_desc){.registry = &budgeted_registry});
    for (int i = 0; i < 3; i++) cr_assert(corral_alive(s, guard_start(s, (guard_ctx){0})));
    cr_assert_not(corral_alive(s, guard_start(s, (guard_ctx){0})));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_TYPE_BUDGET);
    cr_assert(strstr(corral_last_error_detail(s), "'guard'") != NULL, "%s", corral_last_error_detail(s));
    /* a type outside the registry has no slot: the error says which and why */
    cr_assert_not(corral_alive(s, stray_start(s, (stray_ctx){0})));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_POOL_EXHAUSTED);
    const char *d = corral_last_error_detail(s);
    cr_assert(strstr(d, "type 'stray'") != NULL, "%s", d);
    cr_assert(strstr(d, "no shared slot") != NULL, "%s", d);
    corral_sched_destroy(s);
}

Test(traps, a_type_that_could_never_start_is_refused_at_create_by_name)
{
    corral_sched_desc d = one_class_desc(64, 0); /* every slot of the class is a budget's */
    d.registry = &mixed_registry;
    log_capture cap = {0};
    d.logger = (corral_logger){capture_log, &cap};
    cr_assert_null(corral_sched_create(&d));
    cr_assert_eq(corral_last_error(NULL), CORRAL_ERR_NO_CAPACITY);
    const char *why = corral_last_error_detail(NULL);
    cr_assert(strstr(why, "corral_sched_create") != NULL, "%s", why);
    cr_assert(strstr(why, "type 'patrol' (registry 'mixed', id 1) has no budget") != NULL, "%s", why);
    cr_assert(strncmp(cap.message, why, sizeof cap.message - 1) == 0, "the logger was told the same words: %s", cap.message);
    d.classes[0].capacity = 1; /* one shared slot: it may start */
    corral_sched *s = corral_sched_create(&d);
    cr_assert_not_null(s);
    corral_sched_destroy(s);
}

/* ---- a wait inside a switch of the user's own */

static int g_switch_cleanups[CORRAL_END_COUNT];
#define SWITCHER_FIELDS(F) F(int, mode) F(int, after)
DECLARE_COROUTINE(switcher, SWITCHER_FIELDS)
static void switcher_end(switcher_ctx *ctx, corral_end_reason why)
{
    (void)ctx;
    g_switch_cleanups[why]++;
}
DEFINE_COROUTINE_CLEANUP(switcher, switcher_end)
{
    CORRAL_BEGIN(co);
    switch (ctx->mode) {
    case 1:
        CORRAL_WAIT_FRAME(co); /* its case lands in this switch, not CORRAL_BEGIN's */
        ctx->after = 1;
        break;
    default:
        break;
    }
    CORRAL_END(co);
}

Test(traps, a_wait_inside_a_switch_of_your_own_ends_loudly_at_its_resume)
{
    memset(g_switch_cleanups, 0, sizeof g_switch_cleanups);
    log_capture cap = {0};
    corral_sched_desc d = one_class_desc(64, 4);
    d.logger = (corral_logger){capture_log, &cap};
    corral_sched *s = sched_of(d);
    corral_handle h = switcher_start(s, (switcher_ctx){.mode = 1});
    cr_assert(corral_alive(s, h));
    corral_tick(s, 0.016f);
    cr_assert_not(corral_alive(s, h));
    cr_assert_eq(g_switch_cleanups[CORRAL_END_BAD_POINT], 1, "it ended with BAD_POINT, not FINISHED");
    cr_assert_eq(g_switch_cleanups[CORRAL_END_FINISHED], 0);
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_POINT);
    cr_assert_eq(cap.last, CORRAL_ERR_BAD_POINT);
    cr_assert(strstr(cap.message, "in a step of 'switcher'") != NULL, "%s", cap.message);
    cr_assert(strstr(cap.message, "a wait inside a switch of your own") != NULL, "%s", cap.message);
    cr_assert(strstr(cap.message, "test_traps.c:") != NULL, "the wait's file and line: %s", cap.message);
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &switcher_type, &t));
    cr_assert_eq(t.ended[CORRAL_END_BAD_POINT], 1);
    corral_sched_destroy(s);
}

Test(traps, a_wait_inside_a_switch_of_your_own_aborts_under_fatal_validation, .signal = SIGABRT)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.validation = CORRAL_VALIDATION_FATAL;
    corral_sched *s = corral_sched_create(&d);
    switcher_start(s, (switcher_ctx){.mode = 1});
    corral_tick(s, 0.016f);
}

/* ---- the detail of an error without a logger, and the stock logger */

Test(traps, the_detail_of_a_refused_load_is_readable_without_a_logger)
{
    corral_sched *s = small_sched(4);
    unsigned char junk[64];
    memset(junk, 0x5A, sizeof junk);
    cr_assert_not(corral_load(s, junk, sizeof junk));
    cr_assert_eq(corral_last_error(s), CORRAL_ERR_BAD_SAVE);
    const char *d = corral_last_error_detail(s);
    cr_assert(strstr(d, "corral_load") == d, "names the call: %s", d);
    cr_assert(strlen(d) > strlen("corral_load: ") + strlen(corral_error_str(CORRAL_ERR_BAD_SAVE)) + 2,
              "says why beyond the rule: %s", d);
    corral_sched_destroy(s);
}

Test(traps, the_detail_names_the_handle_and_says_no_error_when_there_is_none)
{
    corral_sched *s = small_sched(4);
    cr_assert_str_eq(corral_last_error_detail(s), "no error");
    corral_handle h = start_tracer(s, 1, 1); /* finishes at once */
    cr_assert_not(corral_stop(s, h));
    const char *d = corral_last_error_detail(s);
    cr_assert(strstr(d, "corral_stop(handle 0x") == d, "%s", d);
    cr_assert(strstr(d, "stale handle") != NULL, "%s", d);
    corral_sched_destroy(s);
}

Test(traps, the_stock_logger_prints_each_error_to_stderr)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    cr_assert_not_null(tmp);
    int saved = dup(2);
    cr_assert(dup2(fileno(tmp), 2) >= 0);
    corral_sched_desc d = one_class_desc(64, 4);
    d.logger.fn = corral_log_stderr;
    corral_sched *s = sched_of(d);
    corral_handle h = start_tracer(s, 1, 1);
    corral_stop(s, h);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char line[512] = {0};
    rewind(tmp);
    cr_assert_not_null(fgets(line, sizeof line, tmp));
    fclose(tmp);
    cr_assert(strstr(line, "corral: error: corral_stop(handle 0x") == line, "%s", line);
    cr_assert(strstr(line, "stale handle") != NULL, "%s", line);
    corral_sched_destroy(s);
}

/* ---- a handle field declared through a typedef is a handle */

typedef corral_handle enemy_ref;
typedef corral_signal door_bell;
#define HUNTER_FIELDS(F) F(enemy_ref, target) F(door_bell, bell) F(int, hits)
DECLARE_COROUTINE(hunter, HUNTER_FIELDS)
DEFINE_COROUTINE(hunter)
{
    ctx->hits++;
    return CORRAL_YIELD;
}

Test(traps, a_typedef_of_a_handle_is_a_handle_field)
{
    uint32_t n = 0;
    const corral_field *f = hunter_type.fields(&n);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(f[0].type_name, "enemy_ref");
    cr_assert_eq(f[0].kind, CORRAL_FIELD_HANDLE);
    cr_assert_eq(f[1].kind, CORRAL_FIELD_SIGNAL);
    cr_assert_eq(f[2].kind, CORRAL_FIELD_INT);
}

Test(traps, a_typedef_handle_hashes_alike_across_generations)
{
    corral_sched *a = small_sched(8), *b = small_sched(8);
    /* the same state, but b's slot 1 was used more often: other generations */
    for (int i = 0; i < 3; i++) corral_stop(b, start_tracer(b, 9, 0));
    corral_handle ta = start_tracer(a, 1, 0), tb = start_tracer(b, 1, 0);
    cr_assert_eq(ta.index, tb.index);
    cr_assert_neq(ta.gen, tb.gen);
    hunter_start(a, (hunter_ctx){.target = ta});
    hunter_start(b, (hunter_ctx){.target = tb});
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b), "a replay would not see a desync");
    corral_stop(b, tb); /* now b's hunter names a dead coroutine */
    corral_stop(a, ta);
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    corral_stop(a, start_tracer(a, 2, 0));
    cr_assert_eq(corral_state_hash(a), corral_state_hash(b));
    corral_sched_destroy(a);
    corral_sched_destroy(b);
}

Test(traps, the_inspector_prints_a_typedef_handle_as_a_handle)
{
    corral_sched *s = small_sched(4);
    const corral_field *f = hunter_type.fields(NULL);
    enemy_ref r = {0x2a, 7};
    char buf[64];
    cr_assert(corral_field_text(s, &f[0], &r, buf, sizeof buf));
    cr_assert_str_eq(buf, "0x00002a:7");
    corral_sched_destroy(s);
}

/* ---- the profile adds up: every end counted by its reason */

#define NAP_FIELDS(F) F(float, secs)
DECLARE_COROUTINE(nap, NAP_FIELDS)
DEFINE_COROUTINE(nap)
{
    CORRAL_BEGIN(co);
    CORRAL_WAIT_SECONDS(co, ctx->secs);
    CORRAL_END(co);
}
#define BOSS_FIELDS(F) F(int, kind) F(corral_signal, skip)
DECLARE_COROUTINE(boss, BOSS_FIELDS)
DEFINE_COROUTINE(boss)
{
    CORRAL_BEGIN(co);
    if (ctx->kind == 0) CORRAL_RACE(co, nap_arm(co, (nap_ctx){0.1f}), nap_arm(co, (nap_ctx){5.0f}));
    else if (ctx->kind == 1) CORRAL_CALL(co, nap, (nap_ctx){5.0f});
    else CORRAL_CALL_UNLESS(co, corral_wait_signal(ctx->skip), nap, (nap_ctx){5.0f});
    CORRAL_END(co);
}

static void check_adds_up(corral_sched *s, const corral_type *type)
{
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, type, &t));
    uint64_t sum = t.live;
    for (int r = 0; r < CORRAL_END_COUNT; r++) sum += t.ended[r];
    cr_assert_eq(t.started, sum, "%s: started %llu = live + every end (%llu)", type->name,
                 (unsigned long long)t.started, (unsigned long long)sum);
    cr_assert_eq(t.ended[CORRAL_END_FINISHED], t.finished);
    cr_assert_eq(t.ended[CORRAL_END_STOPPED], t.stopped);
}

Test(traps, every_end_is_counted_by_its_reason_and_the_profile_adds_up)
{
    corral_sched *s = small_sched(32);
    corral_signal skip = corral_signal_create(s);
    boss_start(s, (boss_ctx){.kind = 0});                 /* one nap loses the race */
    corral_handle caller = boss_start(s, (boss_ctx){.kind = 1});
    boss_start(s, (boss_ctx){.kind = 2, .skip = skip});     /* its nap is interrupted */
    nap_start_ex(s, (nap_ctx){9.0f}, &(corral_start_desc){.owner = 7});
    nap_start_ex(s, (nap_ctx){9.0f}, &(corral_start_desc){.tags = 1, .single = CORRAL_SINGLE_REPLACE});
    nap_start_ex(s, (nap_ctx){9.0f}, &(corral_start_desc){.tags = 1, .single = CORRAL_SINGLE_REPLACE});
    corral_handle late = nap_start(s, (nap_ctx){9.0f});
    corral_handle dead = nap_start(s, (nap_ctx){9.0f});
    cr_assert(corral_request_stop(s, late, 0.5f));
    corral_stop(s, dead);
    corral_tick(s, 0.2f);  /* the race's short nap finishes: the long one loses */
    corral_stop(s, caller); /* its nap: parent stopped */
    corral_signal_raise(s, skip);
    corral_stop_owner(s, 7);
    corral_tick(s, 0.2f);
    corral_tick(s, 0.2f); /* the deadline passes */
    corral_type_stats t;
    cr_assert(corral_stats_type_of(s, &nap_type, &t));
    cr_assert_eq(t.ended[CORRAL_END_FINISHED], 1);
    cr_assert_eq(t.ended[CORRAL_END_STOPPED], 1);
    cr_assert_eq(t.ended[CORRAL_END_LOST_RACE], 1);
    cr_assert_eq(t.ended[CORRAL_END_PARENT_STOPPED], 1);
    cr_assert_eq(t.ended[CORRAL_END_INTERRUPTED], 1);
    cr_assert_eq(t.ended[CORRAL_END_GROUP_STOPPED], 1);
    cr_assert_eq(t.ended[CORRAL_END_REPLACED], 1);
    cr_assert_eq(t.ended[CORRAL_END_DEADLINE], 1);
    cr_assert_eq(t.live, 1, "the nap that replaced the other");
    check_adds_up(s, &nap_type);
    check_adds_up(s, &boss_type);

    /* the text report and the JSON say the same */
    FILE *f = tmpfile();
    corral_report_text(s, f);
    corral_report_json(s, f);
    long size = ftell(f);
    rewind(f);
    char *text = calloc(1, (size_t)size + 1);
    cr_assert_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    cr_assert(strstr(text, "other ends") != NULL);
    cr_assert(strstr(text, "lost race 1") != NULL, "%s", text);
    cr_assert(strstr(text, "\"lost_race\": 1") != NULL);
    cr_assert(strstr(text, "\"deadline\": 1") != NULL);
    free(text);
    corral_sched_destroy(s);
}

Test(traps, every_end_reason_has_its_own_words)
{
    for (int a = CORRAL_END_FINISHED; a < CORRAL_END_COUNT; a++) {
        const char *wa = corral_end_reason_str((corral_end_reason)a);
        cr_assert_str_neq(wa, "none", "reason %d", a);
        for (int b = a + 1; b < CORRAL_END_COUNT; b++)
            cr_assert_str_neq(wa, corral_end_reason_str((corral_end_reason)b), "reasons %d and %d", a, b);
    }
}

/* ---- a channel holds exactly channel_bytes / size values */

Test(traps, a_channel_holds_exactly_channel_bytes_over_size_values)
{
    corral_sched_desc d = one_class_desc(64, 4);
    d.channel_bytes = 12; /* three ints, not four */
    corral_sched *s = sched_of(d);
    corral_channel ch = corral_channel_create(s, sizeof(int));
    cr_assert_eq(corral_channel_capacity(s, ch), 3);
    for (int i = 0; i < 3; i++) cr_assert(corral_channel_try_send(s, ch, &i, sizeof i));
    int v = 9;
    cr_assert_not(corral_channel_try_send(s, ch, &v, sizeof v), "full at three");
    corral_channel one = corral_channel_create(s, 8); /* one double-sized value */
    cr_assert_eq(corral_channel_capacity(s, one), 1);
    cr_assert(corral_verify(s));
    corral_sched_destroy(s);
}
