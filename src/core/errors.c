/*
    errors.c -- log items, last error, logger, and the checks a call
    makes before it acts: a live scheduler of this copy of the library
    (the image's origin), a step running, a part present.

    One X-macro list (CORRAL_LOG_ITEMS in corral.h) gives the enum and the
    message table. Every failing call lands in corral__fail: it records the
    error on the scheduler (if any) and on the thread, then tells the logger.
*/
#include "../corral_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CORRAL__THREAD_LOCAL corral_sched *corral__tls_sched;
static CORRAL__THREAD_LOCAL corral_error corral__tls_error;

/* the items' sentences, packed in one object of their own (a program
   keeps them with corral__fail_at, and nothing else with them), each
   found by its offset: no pointer, nothing to relocate */
typedef struct corral__message_text {
#define CORRAL__X(id, msg) char m_##id[sizeof msg];
    CORRAL_LOG_ITEMS(CORRAL__X)
#undef CORRAL__X
} corral__message_text;
static const corral__message_text corral__messages = {
#define CORRAL__X(id, msg) msg,
    CORRAL_LOG_ITEMS(CORRAL__X)
#undef CORRAL__X
};
static const uint16_t corral__message_at[CORRAL_ERR_COUNT] = {
#define CORRAL__X(id, msg) (uint16_t)offsetof(corral__message_text, m_##id),
    CORRAL_LOG_ITEMS(CORRAL__X)
#undef CORRAL__X
};
CORRAL__STATIC_ASSERT(sizeof(corral__message_text) <= 0xFFFFu, "corral: the sentences' offsets fit 16 bits");

const char *corral_error_str(corral_error err)
{
    if ((unsigned)err >= (unsigned)CORRAL_ERR_COUNT) return "unknown error";
    return (const char *)&corral__messages + corral__message_at[err];
}

corral_error corral_last_error(const corral_sched *sched)
{
    if (!sched) return corral__tls_error;
    return sched->last_error;
}

bool corral_error_is_misuse(corral_error err)
{
    switch (err) {
    case CORRAL_ERR_NULL_SCHED:
    case CORRAL_ERR_NULL_ARG:
    case CORRAL_ERR_FORGED_HANDLE:
    case CORRAL_ERR_CTX_SIZE_MISMATCH:
    case CORRAL_ERR_IN_TICK:
    case CORRAL_ERR_NOT_IN_STEP:
    case CORRAL_ERR_BAD_TYPE:
    case CORRAL_ERR_NOT_A_SCHED:
    case CORRAL_ERR_WRONG_TYPE:
    case CORRAL_ERR_BAD_WAIT:
    case CORRAL_ERR_FUTURE_DONE:
    case CORRAL_ERR_BAD_PHASE:
    case CORRAL_ERR_BAD_DOMAIN:
    case CORRAL_ERR_BAD_START:
    case CORRAL_ERR_BAD_VALUE_SIZE:
    case CORRAL_ERR_SEMAPHORE_FULL:
    case CORRAL_ERR_BAD_COUNT:
    case CORRAL_ERR_BAD_DEST:
    case CORRAL_ERR_CYCLIC_WAIT:
    case CORRAL_ERR_CORRUPT:
    case CORRAL_ERR_BAD_POINT:
    case CORRAL_ERR_NO_CAPACITY:
    case CORRAL_ERR_NO_PART:
    case CORRAL_ERR_WRONG_THREAD:
        return true;
    default:
        return false;
    }
}

/* Append to a message buffer, never past its end. */
static size_t corral__msg_put(char *buf, size_t cap, size_t at, const char *fmt, ...)
{
    if (at >= cap) return at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + at, cap - at, fmt, ap);
    va_end(ap);
    if (n < 0) return at;
    at += (size_t)n;
    return at < cap ? at : cap - 1;
}

/* The words of an error: "call(handle 0x000003:7) in a step of 'mover'
   (handle 0x000001:2): rule[: detail]". */
static void corral__words(char *msg, size_t cap, corral_error err, const char *call, corral_handle h,
                          const char *self_type, corral_handle self, const char *detail)
{
    size_t at = corral__msg_put(msg, cap, 0, "%s", call ? call : "corral");
    if (h.index | h.gen) at = corral__msg_put(msg, cap, at, "(handle 0x%06x:%u)", h.index, h.gen);
    if (self_type)
        at = corral__msg_put(msg, cap, at, " in a step of '%s' (handle 0x%06x:%u)", self_type, self.index, self.gen);
    at = corral__msg_put(msg, cap, at, ": %s", corral_error_str(err));
    if (detail && detail[0]) corral__msg_put(msg, cap, at, ": %s", detail);
}

static void corral__record(corral__err_rec *r, const char *call, corral_handle h, const char *self_type,
                           corral_handle self, const char *detail)
{
    r->call = call;
    r->h = h;
    r->self_type = self_type;
    r->self = self;
    size_t n = detail ? strlen(detail) : 0;
    if (n >= sizeof r->detail) n = sizeof r->detail - 1;
    if (n) memcpy(r->detail, detail, n);
    r->detail[n] = 0;
}

static CORRAL__THREAD_LOCAL corral__err_rec corral__tls_rec;

CORRAL__COLD void corral__fail_at(const corral_sched *s, const corral_logger *logger, corral_error err,
                     const char *call, corral_handle h, const corral_co *self, const char *detail)
{
    corral__tls_error = err;
    bool fatal = false;
    const char *self_type = NULL;
    corral_handle sh = CORRAL__NOH;
    if (self && s) {
        const corral__type_entry *te = &corral__types(s)[self->type];
        self_type = te->vt && te->vt->name ? te->vt->name : "?";
        sh = corral__handle_of(s, self);
    }
    corral__record(&corral__tls_rec, call, h, self_type, sh, detail);
    if (s) {
        corral_sched *m = (corral_sched *)s; /* the last error is mutable state, like counters */
        m->last_error = err;
        corral__record(&m->err, call, h, self_type, sh, detail);
        if (!logger) logger = &s->logger;
        fatal = s->validation == CORRAL_VALIDATION_FATAL && corral_error_is_misuse(err);
    }
    if (!(logger && logger->fn) && !fatal) return;
    char msg[384];
    corral__words(msg, sizeof msg, err, call, h, self_type, sh, detail);
    if (logger && logger->fn)
        logger->fn(fatal ? CORRAL_LOG_PANIC : CORRAL_LOG_ERROR, err, msg, s, logger->user_data);
    else corral_log_stderr(CORRAL_LOG_PANIC, err, msg, s, NULL); /* fatal, no logger: the words are not lost */
    if (fatal) abort(); /* CORRAL_VALIDATION_FATAL: stop at the mistake, in the debugger */
}

/* A call another thread makes on s (a post): the error on that thread's
   record only, and s's logger, which is its own thread's, not called; a
   misuse under s's FATAL validation (set at create) prints its words and
   aborts that thread. */
CORRAL__COLD void corral__fail_elsewhere(const corral_sched *s, corral_error err, const char *call, const char *detail)
{
    corral__tls_error = err;
    corral__record(&corral__tls_rec, call, CORRAL__NOH, NULL, CORRAL__NOH, detail);
    if (!(s && s->validation == CORRAL_VALIDATION_FATAL && corral_error_is_misuse(err))) return;
    char msg[384];
    corral__words(msg, sizeof msg, err, call, CORRAL__NOH, NULL, CORRAL__NOH, detail);
    corral_log_stderr(CORRAL_LOG_PANIC, err, msg, s, NULL);
    abort();
}

const char *corral_last_error_detail(const corral_sched *sched)
{
    corral__err_rec *r = sched ? &((corral_sched *)sched)->err : &corral__tls_rec;
    corral_error err = sched ? sched->last_error : corral__tls_error;
    if (err == CORRAL_ERR_OK) return corral_error_str(err);
    corral__words(r->text, sizeof r->text, err, r->call, r->h, r->self_type, r->self, r->detail);
    return r->text;
}

void corral_log_stderr(corral_log_level level, corral_error item, const char *message, const corral_sched *sched,
                       void *user_data)
{
    (void)item;
    (void)sched;
    (void)user_data;
    const char *what = level == CORRAL_LOG_PANIC     ? "fatal"
                       : level == CORRAL_LOG_WARNING ? "warning"
                       : level == CORRAL_LOG_INFO    ? "info"
                                                     : "error";
    fprintf(stderr, "corral: %s: %s\n", what, message);
}

const char *corral_end_reason_str(corral_end_reason why)
{
    switch (why) {
    case CORRAL_END_FINISHED: return "finished";
    case CORRAL_END_STOPPED: return "stopped";
    case CORRAL_END_DESTROYED: return "destroyed";
    case CORRAL_END_PARENT_STOPPED: return "parent stopped";
    case CORRAL_END_GROUP_STOPPED: return "group stopped";
    case CORRAL_END_INTERRUPTED: return "interrupted";
    case CORRAL_END_WAIT_FAILED: return "wait failed";
    case CORRAL_END_LOST_RACE: return "lost race";
    case CORRAL_END_REPLACED: return "replaced";
    case CORRAL_END_DEADLINE: return "deadline";
    case CORRAL_END_BAD_POINT: return "bad resume point";
    default: return "none";
    }
}

static CORRAL__THREAD_LOCAL char corral__thread_mark;
uintptr_t corral__thread_token(void) { return (uintptr_t)&corral__thread_mark; }

static const char corral__origin_anchor = 0;
uint64_t corral__origin(void)
{
    return (uint64_t)(uintptr_t)&corral__origin_anchor ^
           ((uint64_t)sizeof(corral_sched) << 32 | (uint64_t)CORRAL_VERSION_MAJOR << 16 | CORRAL_VERSION_MINOR << 8 |
            CORRAL_VERSION_PATCH);
}

/* A scheduler another copy of corral in this process made (a module with
   its own copy, linked -Bsymbolic, given the host's scheduler): its type
   table and thread are the other copy's, so this copy refuses
   it, and says so through the scheduler's logger and error record when
   their layout is this copy's (the same version), on this thread only
   when it is not. */
static bool corral__made_elsewhere(const corral_sched *s, const char *call)
{
    if (s->made_by == CORRAL__MADE_BY && s->origin == corral__origin()) return false;
    uint32_t v = s->made_by;
    char why[192];
    snprintf(why, sizeof why,
             "this scheduler was made by another copy of corral (%u.%u.%u%s) in this process, this is corral "
             "%u.%u.%u: link one copy and use it from every module (docs/HOTRELOAD.md)",
             (unsigned)(v >> 16 & 0xFFu), (unsigned)(v >> 8 & 0xFFu), (unsigned)(v & 0xFFu),
             v == CORRAL__MADE_BY ? "" : ", another layout", (unsigned)CORRAL_VERSION_MAJOR,
             (unsigned)CORRAL_VERSION_MINOR, (unsigned)CORRAL_VERSION_PATCH);
    corral__fail_at(v == CORRAL__MADE_BY ? s : NULL, NULL, CORRAL_ERR_NOT_A_SCHED, call, CORRAL__NOH, NULL, why);
    return true;
}

#if CORRAL_DEBUG
/* The blocks this thread destroyed last, freed with their schedulers: a
   call on one of them is refused without reading it. A caller's block
   stays readable and says so itself (its magic is cleared at destroy);
   a block freed on another thread, or longer ago, is read as it is.
   Without thread-local storage (tcc) the list is kept nowhere. */
#if CORRAL__HAS_THREAD_LOCAL
#define CORRAL__DESTROYED_KEPT 16u
static CORRAL__THREAD_LOCAL const corral_sched *corral__destroyed[CORRAL__DESTROYED_KEPT];
static CORRAL__THREAD_LOCAL uint32_t corral__destroyed_next;

void corral__destroyed_add(const corral_sched *s)
{
    corral__destroyed[corral__destroyed_next++ % CORRAL__DESTROYED_KEPT] = s;
}

void corral__destroyed_drop(const corral_sched *s)
{
    for (uint32_t i = 0; i < CORRAL__DESTROYED_KEPT; i++)
        if (corral__destroyed[i] == s) corral__destroyed[i] = NULL;
}

bool corral__destroyed_here(const corral_sched *s)
{
    for (uint32_t i = 0; i < CORRAL__DESTROYED_KEPT; i++)
        if (corral__destroyed[i] == s) return true;
    return false;
}
#else
void corral__destroyed_add(const corral_sched *s) { (void)s; }
void corral__destroyed_drop(const corral_sched *s) { (void)s; }
bool corral__destroyed_here(const corral_sched *s)
{
    (void)s;
    return false;
}
#endif
#endif

/* ---- the parts' names, for the words of a refusal: by a part's index
   (0 the core, then CORRAL_PARTS in order), packed, none a pointer */
enum {
    CORRAL__PART_core,
#define CORRAL__X(name) CORRAL__PART_##name,
    CORRAL_PARTS(CORRAL__X)
#undef CORRAL__X
    CORRAL__PART_NAMES
};
#define CORRAL__PART_NAME_MAX 12u
#define CORRAL__X(name) CORRAL__STATIC_ASSERT(sizeof #name <= CORRAL__PART_NAME_MAX, "corral: a part's name fits its row");
CORRAL_PARTS(CORRAL__X)
#undef CORRAL__X
static const char corral__part_names[CORRAL__PART_NAMES][CORRAL__PART_NAME_MAX] = {
    "core",
#define CORRAL__X(name) #name,
    CORRAL_PARTS(CORRAL__X)
#undef CORRAL__X
};

static const uint8_t corral__kind_part[CORRAL_WAIT_KIND_COUNT] = {
#define CORRAL__X(id, name, how, phase, part) CORRAL__PART_##part,
    CORRAL_WAIT_KINDS(CORRAL__X)
#undef CORRAL__X
};
const char *corral__part_of_kind(uint32_t kind)
{
    return corral__part_names[kind < CORRAL_WAIT_KIND_COUNT ? corral__kind_part[kind] : CORRAL__PART_core];
}
bool corral__kind_of_a_part(uint32_t kind)
{
    return kind < CORRAL_WAIT_KIND_COUNT && corral__kind_part[kind] != CORRAL__PART_core;
}

const char *corral__part_of_pool(uint32_t pool)
{
    static const uint8_t part[CORRAL__POOL_COUNT] = {
        [CORRAL__POOL_SIGNAL] = CORRAL__PART_core,
        [CORRAL__POOL_FUTURE] = CORRAL__PART_futures,
        [CORRAL__POOL_CHANNEL] = CORRAL__PART_channels,
        [CORRAL__POOL_COUNTER] = CORRAL__PART_channels,
    };
    return corral__part_names[pool < CORRAL__POOL_COUNT ? part[pool] : CORRAL__PART_core];
}

/* the name of a part `need` has and `have` lacks (by the kinds, pools,
   features and state their tables hold), or NULL */
const char *corral__part_lacking(const corral__part_tables *have, const corral__part_tables *need)
{
    static const uint8_t feature_part[CORRAL__FEATURE_COUNT] = {
        [CORRAL__FEATURE_CALLS] = CORRAL__PART_calls,   [CORRAL__FEATURE_GROUPS] = CORRAL__PART_groups,
        [CORRAL__FEATURE_POLLS] = CORRAL__PART_polls,   [CORRAL__FEATURE_FUTURES] = CORRAL__PART_futures,
        [CORRAL__FEATURE_RACES] = CORRAL__PART_races,   [CORRAL__FEATURE_PULLS] = CORRAL__PART_pulls,
        [CORRAL__FEATURE_PROFILE] = CORRAL__PART_profile, [CORRAL__FEATURE_BUDGET] = CORRAL__PART_budget,
        [CORRAL__FEATURE_POSTS] = CORRAL__PART_posts,
    };
    CORRAL__STATIC_ASSERT(CORRAL__FEATURE_COUNT == 9, "corral: every feature has its part's name above");
    for (uint32_t f = 0; f < CORRAL__FEATURE_COUNT; f++)
        if (need->feature[f] && !have->feature[f]) return corral__part_names[feature_part[f]];
    for (uint32_t k = 0; k < CORRAL__WAIT_TABLES; k++)
        if (need->wait[k] && !have->wait[k]) return corral__part_of_kind(k);
    for (uint32_t p = 0; p < CORRAL__POOL_COUNT; p++)
        if (need->pool[p] && !have->pool[p]) return corral__part_of_pool(p);
    if (need->arm && !have->arm) return corral__part_names[CORRAL__PART_races];
    if (need->state[CORRAL__STATE_CHANNELS - 1] && !have->state[CORRAL__STATE_CHANNELS - 1])
        return corral__part_names[CORRAL__PART_channels];
    return NULL;
}

bool corral__part_needed(const char *call, corral_sched *s, const corral_co *self, const void *slot, const char *part)
{
    if (CORRAL__LIKELY(slot != NULL)) return true;
    char why[96];
    snprintf(why, sizeof why, "it needs corral_part_%s in desc.parts", part);
    corral__fail_at(s, NULL, CORRAL_ERR_NO_PART, call, CORRAL__NOH, self, why);
    return false;
}

corral_sched *corral__in_step(const char *call, const corral_co *co, bool stopping)
{
    corral_sched *s = corral__tls_sched;
    CORRAL__REQUIRE_AT(s, s && co && corral__is_running(s, co) && (stopping || co->state != CORRAL__STOPPING),
                       CORRAL_ERR_NOT_IN_STEP, call, CORRAL__NOH, NULL, NULL, NULL);
    return s;
}

#if CORRAL_DEBUG
bool corral__check_in(const corral_sched *s, const char *call)
{
    return (s && !corral__destroyed_here(s) && s->magic == CORRAL__MAGIC &&
            (s->owner == corral__thread_token() || s->validation == CORRAL_VALIDATION_OFF)) ||
           corral__check_slow(s, call);
}
#endif

bool corral__check_slow(const corral_sched *s, const char *call)
{
    const corral_error err = s ? CORRAL_ERR_NOT_A_SCHED : CORRAL_ERR_NULL_SCHED;
#if CORRAL_DEBUG
    const bool freed = s && corral__destroyed_here(s); /* not read */
#else
    const bool freed = false;
#endif
    if (s && !freed) {
        if (s->magic == CORRAL__MAGIC || s->magic == CORRAL__MAGIC_LOADING) {
            if (corral__made_elsewhere(s, call)) return false;
#if CORRAL_DEBUG
            if (s->owner != corral__thread_token() && s->validation != CORRAL_VALIDATION_OFF) {
                /* another thread's scheduler: its error state is not ours to write */
                corral__fail_at(NULL, &s->logger, CORRAL_ERR_WRONG_THREAD, call, CORRAL__NOH, NULL, NULL);
                if (s->validation == CORRAL_VALIDATION_FATAL) {
                    if (!s->logger.fn) corral__fail_elsewhere(s, CORRAL_ERR_WRONG_THREAD, call, NULL); /* its words */
                    abort();
                }
                return false;
            }
#endif
            if (s->magic == CORRAL__MAGIC) return true;
            corral__fail_at(s, NULL, CORRAL_ERR_LOADING, call, CORRAL__NOH, NULL, NULL); /* a hook's call, mid-load */
            return false;
        }
    }
    corral__fail_at(NULL, NULL, err, call, CORRAL__NOH, NULL, NULL);
    return false;
}
