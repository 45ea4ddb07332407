/*
    errors.c -- log items, last error, logger.

    One X-macro list (CORRAL_LOG_ITEMS in corral.h) gives the enum and the
    message table. Every failing call lands in corral__fail: it records the
    error on the scheduler (if any) and on the thread, then tells the logger.
*/
#include "corral_internal.h"

_Thread_local corral_sched *corral__tls_sched;
static _Thread_local corral_error corral__tls_error;

static const char *const corral__messages[CORRAL_ERR_COUNT] = {
#define CORRAL__X(id, msg) msg,
    CORRAL_LOG_ITEMS(CORRAL__X)
#undef CORRAL__X
};

const char *corral_error_str(corral_error err)
{
    if ((unsigned)err >= (unsigned)CORRAL_ERR_COUNT) return "unknown error";
    return corral__messages[err];
}

corral_error corral_last_error(const corral_sched *sched)
{
    if (!sched) return corral__tls_error;
    return sched->last_error;
}

void corral__fail(const corral_sched *s, const corral_logger *logger, corral_error err)
{
    corral__tls_error = err;
    if (s) {
        ((corral_sched *)s)->last_error = err; /* counters are mutable state */
        if (!logger) logger = &s->logger;
    }
    if (logger && logger->fn)
        logger->fn(CORRAL_LOG_ERROR, err, corral_error_str(err), s, logger->user_data);
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
    default: return "none";
    }
}

bool corral__check_slow(const corral_sched *s)
{
    if (!s) {
        corral__fail(NULL, NULL, CORRAL_ERR_NULL_SCHED);
        return false;
    }
    if (s->magic != CORRAL__MAGIC) {
        corral__fail(NULL, NULL, CORRAL_ERR_NOT_A_SCHED);
        return false;
    }
    return true;
}
