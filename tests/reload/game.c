/* game.c -- a gameplay module as a game host loads it (dlopen), in four
   builds (GAME_BUILD): 2 changes the code of every type, inserts a wait
   before a named point and adds a type; 3 is build 2 with every context
   laid out otherwise (a field added before the others, a count widened:
   the places a race, a call, a channel wait and a predicate keep in them
   move); 4 is build 2 without the inserted wait's point, which a reload
   refuses while a digger waits there. Its coroutines use corral from the
   host. */
#include <corral/corral.h>

#include <string.h>

#ifndef GAME_BUILD
#define GAME_BUILD 1
#endif
#if GAME_BUILD == 1
#define GOLD 1
#else
#define GOLD 10
#endif

static bool game_flag_up(void *user)
{
    return *(const int *)user != 0;
}
#define GAME_PREDICATES(X) X(game_flag_up, 1)
extern const corral_predicate_registry game_predicates;
CORRAL_DEFINE_PREDICATES(game, GAME_PREDICATES);

/* digs gold every second; build 2 stretches for a frame first */
#if GAME_BUILD == 3
#define DIGGER_FIELDS(F) F(int, stamina) F(int, gold) F(int64_t, digs)
#else
#define DIGGER_FIELDS(F) F(int, gold) F(int, digs)
#endif
#if GAME_BUILD == 1 || GAME_BUILD == 4
#define DIGGER_POINTS(P) P(resting)
#else
#define DIGGER_POINTS(P) P(stretching) P(resting)
#endif
DECLARE_COROUTINE_R(digger, DIGGER_FIELDS, int)
DEFINE_COROUTINE_AT(digger, DIGGER_POINTS)
{
    CORRAL_BEGIN_AT(co, DIGGER_POINTS);
    while (ctx->digs > 0) {
#if GAME_BUILD == 2 || GAME_BUILD == 3
        CORRAL_WAIT_FRAME_AT(co, stretching);
#endif
        CORRAL_AWAIT_AT(co, resting, corral_wait_seconds(1.0f));
        ctx->gold += GOLD;
        ctx->digs--;
    }
    ctx->result = ctx->gold;
    CORRAL_END(co);
}

/* calls a digger and keeps what it dug */
#if GAME_BUILD == 3
#define BOSS_FIELDS(F) F(int64_t, wage) F(int, take) F(int, done)
#else
#define BOSS_FIELDS(F) F(int, take) F(int, done)
#endif
#define BOSS_POINTS(P) P(calling) P(idle)
DECLARE_COROUTINE(boss, BOSS_FIELDS)
DEFINE_COROUTINE_AT(boss, BOSS_POINTS)
{
    CORRAL_BEGIN_AT(co, BOSS_POINTS);
    CORRAL_CALL_AT(co, calling, digger, (digger_ctx){.digs = 3}, &ctx->take);
    ctx->done = 1;
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}

/* races two diggers; waits on a channel; waits for a flag */
#if GAME_BUILD == 3
#define RIVAL_FIELDS(F) F(int, mood) F(int, won) F(corral_channel, ch) F(int, got) F(int, flag) F(int, stage)
#else
#define RIVAL_FIELDS(F) F(int, won) F(corral_channel, ch) F(int, got) F(int, flag) F(int, stage)
#endif
#define RIVAL_POINTS(P) P(racing) P(reading) P(watching) P(idle)
DECLARE_COROUTINE(rival, RIVAL_FIELDS)
DEFINE_COROUTINE_AT(rival, RIVAL_POINTS)
{
    CORRAL_BEGIN_AT(co, RIVAL_POINTS);
    CORRAL_RACE_AT(co, racing, digger_arm(co, (digger_ctx){.digs = 2}, &ctx->won),
                   digger_arm(co, (digger_ctx){.digs = 5}, &ctx->won));
    ctx->stage = 1;
    CORRAL_AWAIT_AT(co, reading, corral_wait_receive(ctx->ch, &ctx->got, sizeof ctx->got));
    ctx->stage = 2;
    CORRAL_AWAIT_AT(co, watching, corral_wait_until(game_flag_up, &ctx->flag));
    ctx->stage = 3;
    for (;;) CORRAL_WAIT_FRAME_AT(co, idle);
    CORRAL_END(co);
}

#if GAME_BUILD != 1
/* new in build 2 */
#define SCOUT_FIELDS(F) F(int, seen)
#define SCOUT_POINTS(P) P(looking)
DECLARE_COROUTINE(scout, SCOUT_FIELDS)
DEFINE_COROUTINE_AT(scout, SCOUT_POINTS)
{
    CORRAL_BEGIN_AT(co, SCOUT_POINTS);
    for (;;) {
        ctx->seen++;
        CORRAL_WAIT_FRAME_AT(co, looking);
    }
    CORRAL_END(co);
}
#define GAME_TYPES(X) X(digger, 1, 0) X(boss, 2, 0) X(rival, 3, 0) X(scout, 4, 0)
#else
#define GAME_TYPES(X) X(digger, 1, 0) X(boss, 2, 0) X(rival, 3, 0)
#endif
CORRAL_DECLARE_REGISTRY(game, GAME_TYPES)
CORRAL_DEFINE_REGISTRY(game, GAME_TYPES);

/* the module's entry points (the host finds them with dlsym) */
const corral_registry *game_types(void);
const corral_predicate_registry *game_preds(void);
void game_begin(corral_sched *s, corral_channel ch, corral_handle out[3]);
int game_gold(corral_sched *s, corral_handle h);
int game_stage(corral_sched *s, corral_handle h);
void game_raise_flag(corral_sched *s, corral_handle h);
corral_handle game_scout(corral_sched *s);
long long game_peek(corral_sched *s, corral_handle h, const char *what);
void game_upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                  void *user);
const corral_registry *game_types(void) { return &game_registry; }
const corral_predicate_registry *game_preds(void) { return &game_predicates; }
void game_begin(corral_sched *s, corral_channel ch, corral_handle out[3])
{
    out[0] = digger_start(s, (digger_ctx){.digs = 100});
    out[1] = boss_start(s, (boss_ctx){0});
    out[2] = rival_start(s, (rival_ctx){.ch = ch});
}
int game_gold(corral_sched *s, corral_handle h)
{
    const digger_ctx *c = digger_ctx_of(s, h);
    return c ? c->gold : -1;
}
int game_stage(corral_sched *s, corral_handle h)
{
    const rival_ctx *c = rival_ctx_of(s, h);
    return c ? c->stage : -1;
}
void game_raise_flag(corral_sched *s, corral_handle h)
{
    rival_ctx *c = rival_ctx_of(s, h);
    if (c) c->flag = 1;
}
#if GAME_BUILD != 1
corral_handle game_scout(corral_sched *s) { return scout_start(s, (scout_ctx){0}); }
#else
corral_handle game_scout(corral_sched *s)
{
    (void)s;
    return (corral_handle){0, 0};
}
#endif

/* a field of a digger, boss or rival by name, -1: none */
long long game_peek(corral_sched *s, corral_handle h, const char *what)
{
    const digger_ctx *d = digger_ctx_of(s, h);
    const boss_ctx *b = boss_ctx_of(s, h);
    const rival_ctx *r = rival_ctx_of(s, h);
#if GAME_BUILD == 3
    if (d && strcmp(what, "stamina") == 0) return d->stamina;
#endif
    if (d && strcmp(what, "gold") == 0) return d->gold;
    if (b && strcmp(what, "take") == 0) return b->take;
    if (r && strcmp(what, "won") == 0) return r->won;
    if (r && strcmp(what, "got") == 0) return r->got;
    return -1;
}

/* build 3's upgrade: a digger moved into it starts with 50 stamina */
void game_upgrade(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx, void *user)
{
    (void)old_ctx;
    (void)user;
    for (uint32_t i = 0; i < old->field_count; i++)
        if (strcmp(old->fields[i].name, "stamina") == 0) return;
#if GAME_BUILD == 3
    if (type == &digger_type) ((digger_ctx *)ctx)->stamina = 50;
#else
    (void)type;
    (void)ctx;
#endif
}
