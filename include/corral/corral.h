/*
    corral.h -- stackless, typed coroutines for game engines, in one arena.

    WHAT IT IS
        A coroutine *type* is declared with X-macros (DECLARE_COROUTINE /
        DEFINE_COROUTINE, see corral_gen.h). Each type gets a typed context
        struct (its "locals"), a step function returning CORRAL_YIELD or
        CORRAL_STOP, a vtable (`NAME_type`), a field table and a type-checked
        start function (`NAME_start`). A scheduler resumes coroutines from the
        engine's frame loop. Every context lives in one preallocated arena of
        size-class pools: after corral_sched_create returns, the library calls
        no allocator until corral_sched_destroy.

    WHAT IT DOES NOT DO
        - no threads: a scheduler belongs to one thread at a time;
        - no stacks: locals that must survive a yield live in the context;
        - no allocation after create: a full pool is an error you can read,
          never a malloc;
        - no printing: without a logger the library is silent.

    STEP BY STEP
        1. declare a type in a header:
               #define MOVER_FIELDS(F) F(float, elapsed) F(float, duration)
               DECLARE_COROUTINE(mover, MOVER_FIELDS)
        2. define its step in one .c file:
               DEFINE_COROUTINE(mover) {
                   ctx->elapsed += corral_dt(co);
                   return ctx->elapsed < ctx->duration ? CORRAL_YIELD : CORRAL_STOP;
               }
        3. create a scheduler (a zeroed desc is valid):
               corral_sched *s = corral_sched_create(&(corral_sched_desc){0});
        4. start coroutines (the first step runs at once):
               corral_handle h = mover_start(s, (mover_ctx){ .duration = 0.25f });
        5. once per frame: corral_tick(s, dt);
        6. corral_sched_destroy(s);

    INDEX: every function, in the order of this header (173). The types,
    macros and each call's rules are at its section.
    declaring a type
        corral_end_reason_str
    the body of a step
        corral_point_lost, corral_points_check
    the scheduler
        corral_sched_memory_size, corral_sched_memory_size_min,
        corral_slot_size_for, corral_sched_create, corral_sched_create_min,
        corral_sched_destroy
    starting and stopping
        corral_start, corral_start_ex, corral_start_n, corral_stop, corral_alive,
        corral_context
    waits
        corral_wait_until, corral_wait_while, corral_wait_join,
        corral_wait_join_result, corral_wait_stop, corral_wait_at, corral_await,
        corral_wait_fired, corral_race_settle, corral_wait_closed, corral_wait_got,
        corral_signal_create,
        corral_signal_raise, corral_signal_set, corral_signal_reset,
        corral_signal_is_set, corral_signal_destroy, corral_future_create,
        corral_future_complete, corral_future_done, corral_future_value,
        corral_future_release, corral_channel_create, corral_channel_create_ex,
        corral_channel_close, corral_channel_closed, corral_channel_destroy,
        corral_channel_try_send, corral_channel_try_receive, corral_channel_take,
        corral_channel_count, corral_channel_capacity, corral_semaphore_create,
        corral_semaphore_create_ex,
        corral_semaphore_release, corral_semaphore_count,
        corral_semaphore_destroy, corral_waitgroup_create, corral_waitgroup_add,
        corral_waitgroup_done, corral_waitgroup_count, corral_waitgroup_destroy
    the frame
        corral_tick, corral_frame_begin, corral_run_phase, corral_set_budget,
        corral_budget_left, corral_fixed_steps_due, corral_set_time_scale,
        corral_time_scale, corral_domain_set_scale, corral_domain_scale,
        corral_domain_pause, corral_domain_resume, corral_domain_paused, corral_domain_time,
        corral_domain_set_parent, corral_domain_parent, corral_domain_rate,
        corral_set_domain, corral_set_domain_owner, corral_set_domain_tags,
        corral_unscaled_time, corral_fixed_time, corral_live_count, corral_time,
        corral_frame, corral_dt, corral_domain_of, corral_unscaled_dt, corral_current_phase,
        corral_self, corral_sched_of
    results and joins
        corral_call, corral_call_outcome, corral_call_unless, corral_race_begin,
        corral_sync_begin, corral_arm, corral_arms_start, corral_race_winner,
        corral_generator_start, corral_generator_start_ex, corral_generator_next,
        corral_generator_take, corral_generator_pull, corral_wait_pull, corral_generator_give
    groups and pause
        corral_stop_owner, corral_pause_owner, corral_resume_owner, corral_stop_tags,
        corral_pause_tags, corral_resume_tags, corral_request_stop,
        corral_request_stop_owner, corral_request_stop_tags, corral_stop_requested,
        corral_pause, corral_resume, corral_paused, corral_step_once
    errors
        corral_error_str, corral_error_is_misuse, corral_last_error,
        corral_last_error_detail, corral_log_stderr
    persistence
        corral_snapshot_size, corral_snapshot, corral_restore, corral_snapshot_keep,
        corral_restore_kept, corral_state_hash, corral_state_pieces,
        corral_synctest_memory_size, corral_synctest_begin, corral_synctest_frame,
        corral_synctest_describe,
        corral_state_pieces_diff, corral_desync_describe,
        corral_save, corral_load, corral_sched_adopt
    hot reload
        corral_reload
    threads
        corral_future_post, corral_signal_post
    profiling
        corral_type_count, corral_class_count, corral_stats_type, corral_stats_type_of,
        corral_stats_class, corral_stats_arena, corral_stats_pools, corral_stats_generators,
        corral_history,
        corral_next_co, corral_co_info_of, corral_co_state_str, corral_wait_kind_str,
        corral_print_co, corral_field_text, corral_dump, corral_print_chain,
        corral_report_json, corral_trace_json, corral_history_svg, corral_budget_desc,
        corral_emit_desc, corral_verify, corral_report_text
    text to a buffer or a callback, each as its FILE form
        corral_print_co_to, corral_dump_to, corral_print_chain_to,
        corral_report_json_to, corral_trace_json_to, corral_history_svg_to,
        corral_emit_desc_to, corral_report_text_to

    MANUALS
        A link such as (API.md, "Rollback") names a manual and its section:
        the manuals are docs/ in the source and share/doc/corral installed.

    MEMORY
        The arena is one block: the scheduler's state, the type table, the run
        queue and one slab per size class. A slot is a 16-byte header
        (corral_co) followed by the context, aligned to max(16, alignof(ctx)).
        Each class has a LIFO free list: start and stop are O(1). Every
        internal link is a 32-bit offset or index into the arena, never a
        pointer, so the state is position-independent bytes.

    HANDLES
        corral_handle is {index, gen}; the zero value is invalid. A slot's
        generation grows each time it is freed (past any it issued before a
        corral_restore); a slot whose generation would wrap is retired
        instead of reused, so a handle to an ended coroutine stays invalid
        forever.

    ORDER (deterministic)
        corral_tick resumes the run queue in the order coroutines were queued
        (start order, then the order in which they last yielded). When each
        wait resumes, and from where, is the resume contract: one table in
        API.md, "When a coroutine resumes".

    ERRORS
        Calls that fail return a neutral value (zero handle, false, NULL) and
        set the scheduler's last error (corral_last_error); the error is also
        sent to the logger from the desc. Errors are sticky like errno: read
        them right after a call that reported failure.

    PROFILING
        Counters are always on (a few adds per start/stop): per type, per size
        class, per pool and for the arena. Opt-in in the desc: a frame history
        ring, step and tick timing, a step trace ring (all inside the arena),
        hooks for external profilers (corral_tracy.h). Out: a text report,
        JSON, a Chrome trace, an SVG chart, a live inspector, and
        corral_emit_desc, which prints the desc to ship from a profile.

    VALIDATION
        desc.validation: misuse is fatal in debug builds, reported in release;
        corral_verify checks every invariant of the arena (RELIABILITY.md).
*/
#ifndef CORRAL_H
#define CORRAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "corral_port.h"

#ifdef __cplusplus
extern "C" {
#endif


#define CORRAL_VERSION_MAJOR 0
#define CORRAL_VERSION_MINOR 2
#define CORRAL_VERSION_PATCH 0

/* Largest context alignment and size the generator accepts (compile-time
   checks). A scheduler may still have no class large enough: that is a
   run-time error (CORRAL_ERR_NO_CLASS). */
#define CORRAL_MAX_ALIGN        64
#define CORRAL_MAX_CONTEXT_SIZE (1u << 20)
#define CORRAL_MAX_CLASSES      16
#define CORRAL_MAX_DOMAINS      8   /* time domains per scheduler (desc.domains) */
#define CORRAL_MAX_CUSTOM_PHASES 4  /* phases the game runs itself (desc.custom_phases) */
#define CORRAL_MAX_PULL_DEPTH   256 /* generators pulling generators, nested (each pull a C frame) */
#define CORRAL_MAX_RACE_DEPTH   256 /* races and syncs nested in races and syncs */

/* What a zero field of corral_sched_desc stands for (the comment of each
   field of corral_sched_desc says what it is) */
#define CORRAL_DEFAULT_CLASS_SIZES      24, 32, 48, 64, 96, 128, 256, 512, 1024
#define CORRAL_DEFAULT_CAPACITY         256u  /* slots per default class */
#define CORRAL_DEFAULT_MAX_TYPES        64u
#define CORRAL_DEFAULT_FIXED_DT         0.02f /* seconds */
#define CORRAL_DEFAULT_MAX_FIXED_STEPS  8u
#define CORRAL_DEFAULT_SPARE_WAIT_NODES 256u  /* wait nodes past one per 32 slots */
#define CORRAL_DEFAULT_MAX_SIGNALS      64u
#define CORRAL_DEFAULT_MAX_FUTURES      64u
#define CORRAL_DEFAULT_MAX_POSTS        256u
#define CORRAL_DEFAULT_MAX_GROUP_NODES  256u
#define CORRAL_DEFAULT_MAX_SIDE_RECORDS 1024u
#define CORRAL_DEFAULT_DOMAINS          1u
#define CORRAL_DEFAULT_MAX_CHANNELS     16u
#define CORRAL_DEFAULT_CHANNEL_BYTES    256u
#define CORRAL_DEFAULT_MAX_SEMAPHORES   16u
#define CORRAL_DEFAULT_MAX_WAITGROUPS   16u
#define CORRAL_DEFAULT_TIMING_SAMPLE    32u

/* ---------------------------------------------------------------- DECLARING A TYPE */

typedef struct corral_sched corral_sched;

/* What a step returns (fixed names). */
typedef enum corral_result {
    CORRAL_YIELD = 0, /* resume me later */
    CORRAL_STOP = 1   /* I am done */
} corral_result;

/* The slot header that precedes every context. `co` in a step body points
   here. Treat it as read-only: only the resume-point macros write `resume`. */
typedef struct corral_co {
    uint32_t gen;    /* generation of the slot */
    uint16_t type;   /* index in the scheduler's type table */
    uint8_t state;   /* internal state */
    uint8_t flags;   /* internal: which run-queue buffer holds it */
    uint32_t resume; /* where CORRAL_BEGIN resumes: the point (low 16 bits, 0 =
                        start) and the source line of the suspension (high 16) */
    uint32_t link;   /* queue position or free-list link (an arena offset) */
} corral_co;

/* (internal) state and flags as one value: the walk's test that a step
   yielded in place, and how far on the walk asks for a context */
static inline uint32_t corral__run_state(const corral_co *co)
{
    uint16_t v;
    memcpy(&v, &co->state, sizeof v);
    return v;
}
#define CORRAL__RUN_AHEAD 8
/* (internal) a lane entry that holds no coroutine (a stopped one's
   tombstone): a walk stops there */
#define CORRAL__RUN_HOLE 0xFFFFFFFFu

/* Handle to a running coroutine (fixed name). Zero is invalid. */
typedef struct corral_handle {
    uint32_t index; /* size class << 24 | slot within the class */
    uint32_t gen;   /* generation; 0 is never issued */
} corral_handle;

/* The frame phases (see THE FRAME below). */
typedef enum corral_phase {
    CORRAL_PHASE_DEFAULT = 0, /* = UPDATE */
    CORRAL_PHASE_FIXED_UPDATE,
    CORRAL_PHASE_UPDATE,
    CORRAL_PHASE_LATE_UPDATE,
    CORRAL_PHASE_END_OF_FRAME,
    CORRAL_PHASE_COUNT
} corral_phase;
/* The k-th custom phase (desc.custom_phases): not part of corral_tick; the
   game runs it with corral_run_phase whenever it wants (a network tick). */
#define CORRAL_PHASE_CUSTOM(k) ((corral_phase)(16 + (k)))

/* Why a coroutine ended (passed to the cleanup hook). */
typedef enum corral_end_reason {
    CORRAL_END_NONE = 0,
    CORRAL_END_FINISHED,  /* its step returned CORRAL_STOP */
    CORRAL_END_STOPPED,   /* corral_stop on its handle */
    CORRAL_END_DESTROYED, /* the scheduler was destroyed while it ran */
    CORRAL_END_PARENT_STOPPED, /* it was the child a stopped coroutine awaited */
    CORRAL_END_GROUP_STOPPED,  /* corral_stop_owner / corral_stop_tags */
    CORRAL_END_INTERRUPTED,    /* the interrupt of a CORRAL_CALL_UNLESS fired first */
    CORRAL_END_WAIT_FAILED,    /* its wait found no free node (a full pool): it could
                                  not wait, and resuming would act on what never happened */
    CORRAL_END_LOST_RACE,      /* another child of its CORRAL_RACE ended first */
    CORRAL_END_REPLACED,       /* a start with CORRAL_SINGLE_REPLACE took its place */
    CORRAL_END_DEADLINE,       /* its stop request's deadline passed (corral_request_stop) */
    CORRAL_END_BAD_POINT,      /* it resumed at a point its body does not have (a wait
                                  inside a switch of its own): error BAD_POINT */
    CORRAL_END_COUNT
} corral_end_reason;

/* The reason in words, one per value: "finished", "stopped", "destroyed",
   "parent stopped", "group stopped", "interrupted", "wait failed", "lost
   race", "replaced", "deadline", "bad resume point"; "none" for
   CORRAL_END_NONE and anything out of range. */
CORRAL_API const char *corral_end_reason_str(corral_end_reason why);

/* Kind of a context field, for reflection (inspector, reports). */
typedef enum corral_field_kind {
    CORRAL_FIELD_OTHER = 0, /* printed as bytes, or by a formatter */
    CORRAL_FIELD_INT,       /* signed integer of `size` bytes */
    CORRAL_FIELD_UINT,      /* unsigned integer of `size` bytes */
    CORRAL_FIELD_FLOAT,     /* float or double */
    CORRAL_FIELD_BOOL,
    CORRAL_FIELD_POINTER,
    /* corral's own handles, known by their type (also through a typedef):
       the state hash takes their index and whether they name something
       live, not their generation; the inspector prints index:generation */
    CORRAL_FIELD_HANDLE,    /* corral_handle */
    CORRAL_FIELD_SIGNAL,    /* corral_signal */
    CORRAL_FIELD_FUTURE,    /* corral_future */
    CORRAL_FIELD_CHANNEL,   /* corral_channel */
    CORRAL_FIELD_SEMAPHORE, /* corral_semaphore */
    CORRAL_FIELD_WAITGROUP, /* corral_waitgroup */
    CORRAL_FIELD_KIND_COUNT
} corral_field_kind;

/* One row of a context's field table (generated). */
typedef struct corral_field {
    const char *name;       /* field name */
    const char *type_name;  /* its type as written in the FIELDS list */
    uint32_t offset;        /* offsetof in the context */
    uint32_t size;          /* sizeof the field */
    corral_field_kind kind;
} corral_field;

/* The vtable of a coroutine type (generated as `NAME_type`; fixed name). */
typedef struct corral_type {
    const char *name;                                  /* "NAME" */
    corral_result (*step)(corral_co *co);              /* one resume */
    void (*cleanup)(void *ctx, corral_end_reason why); /* or NULL */
    const corral_field *(*fields)(uint32_t *count);    /* field table */
    uint32_t ctx_size;                                 /* sizeof(NAME_ctx) */
    uint32_t ctx_align;                                /* alignof(NAME_ctx) */
    uint32_t ctx_offset;                               /* header to context */
    uint32_t result_offset;                            /* of `result` in the context */
    uint32_t result_size;                              /* 0: the type has no result */
    const char *const *points;                         /* named resume points, or NULL */
    uint32_t point_count;                              /* point k + 1 is points[k] */
    const char *file;                                  /* the source file of its step */
    /* The walk's run of this type: its steps with the body inlined, over
       the run queue's entries from `at` while each is a coroutine of this
       type that yields in place (internal: DEFINE_COROUTINE makes it; a
       vtable written by hand leaves it NULL and the walk calls step). */
    const uint32_t *(*run)(unsigned char *base, const uint32_t *at, const uint32_t *stop, uint32_t type,
                           uint32_t expect, uint32_t *running, int *result);
} corral_type;

/* A registry: the list of a module's types with stable ids and optional
   budgets (generated by CORRAL_DEFINE_REGISTRY). */
typedef struct corral_registry {
    const char *name;
    const corral_type *const *types; /* count entries */
    const uint32_t *ids;             /* stable ids (non-zero) */
    const uint32_t *budgets;         /* per-type capacity; 0 = no budget */
    uint32_t count;
} corral_registry;

/* ---------------------------------------------------------------- THE BODY OF A STEP: resume points and the wait macros */

/* Resume points: sequential code that waits where it stands, a switch over
   the points underneath. Locals that must survive a wait live in the context.
   Limit: do not wait inside a `switch` of your own (use if/else there).
   Each wait below is an unnamed point: its id holds within one build.
   Named points (CORRAL_BEGIN_AT) keep their names from build to build, so
   a save game (corral_save) made at one loads in the next build wherever
   lines or other waits were added: API.md, "Resume points". */
/* What the resume-point macros check at compile time, so that a mistake
   is a compile error naming it rather than a coroutine that ends at its
   next resume:
   - the body's kind: DEFINE_COROUTINE_AT's body takes `corral_co *const
     co`, DEFINE_COROUTINE's `corral_co *co`; CORRAL_BEGIN and
     CORRAL_BEGIN_AT check it is theirs (CORRAL__NAMED_BODY);
   - what opened the body: CORRAL_BEGIN declares struct corral__opened
     of 2 bytes in the body's block, CORRAL_BEGIN_AT one of 3, hiding the
     1-byte one declared here; every wait checks the size it sees. */
struct corral__opened { char n[1]; };
/* (tcc's _Generic does not see the qualifier: there the body's kind is
   not checked, the rest is) */
#ifdef __cplusplus
#define CORRAL__NAMED_BODY(co, yes) (std::is_const<decltype(co)>::value == (yes))
#elif defined(__TINYC__)
#define CORRAL__NAMED_BODY(co, yes) 1
#else
#define CORRAL__NAMED_BODY(co, yes) (_Generic(&(co), corral_co *const *: 1, default: 0) == (yes))
#endif
#define CORRAL__OPENED(n) \
    CORRAL__HIDE_BEGIN struct corral__opened { char k[n]; }; CORRAL__HIDE_END
#define CORRAL__CHECK_UNNAMED                                                              \
    CORRAL__STATIC_ASSERT(sizeof(struct corral__opened) != 1,                              \
                          "corral: a wait before CORRAL_BEGIN: open the body with "        \
                          "CORRAL_BEGIN(co) (CORRAL_BEGIN_AT(co, POINTS) for named points)"); \
    CORRAL__STATIC_ASSERT(sizeof(struct corral__opened) != 3,                              \
                          "corral: an unnamed wait in a body with named points "           \
                          "(DEFINE_COROUTINE_AT): give it a point with the _AT form, "     \
                          "e.g. CORRAL_AWAIT_AT(co, point, w)")
#define CORRAL__CHECK_NAMED                                                                \
    CORRAL__STATIC_ASSERT(sizeof(struct corral__opened) == 3,                              \
                          "corral: a named wait (_AT) needs a body defined with "          \
                          "DEFINE_COROUTINE_AT and opened with CORRAL_BEGIN_AT(co, POINTS)")
/* Where a resume finds no case: its point is not in this body (a wait
   inside a switch of the user's own took its case). Ends the coroutine
   with CORRAL_END_BAD_POINT and the error CORRAL_ERR_BAD_POINT. */
CORRAL_API corral_result corral_point_lost(corral_co *co);
/* Whether names[0 .. count) are the named points of co's type, in order.
   When not, it is reported as CORRAL_ERR_BAD_POINT naming the type and the
   first point that differs, and co (its step running) ends with
   CORRAL_END_BAD_POINT. CORRAL_BEGIN_AT calls it at a coroutine's first
   step in debug builds and returns CORRAL_STOP on false: the body does not
   run. */
CORRAL_API bool corral_points_check(const corral_co *co, const char *const *names, uint32_t count);
#define CORRAL_BEGIN(co)                                                                   \
    CORRAL__STATIC_ASSERT(CORRAL__NAMED_BODY(co, 0),                                       \
                          "corral: CORRAL_BEGIN in a body with named points: a "          \
                          "DEFINE_COROUTINE_AT body opens with CORRAL_BEGIN_AT(co, POINTS)"); \
    CORRAL__OPENED(2)                                                                      \
    switch ((co)->resume & CORRAL__POINT_MASK) { default: return corral_point_lost(co); case 0:
/* The same for a body whose waits are named, from the list POINTS(P) that
   DEFINE_COROUTINE_AT(NAME, POINTS) gave the type: P(name) per point. */
#ifdef NDEBUG
#define CORRAL__CHECK_POINTS(co, POINTS) ((void)0)
#else /* debug builds: a coroutine's first step checks the list is its type's */
#define CORRAL__CHECK_POINTS(co, POINTS)                                          \
    do {                                                                          \
        static const char *const corral__pt_names_[] = {POINTS(CORRAL__GEN_POINT_NAME)}; \
        if ((co)->resume == 0 &&                                                  \
            !corral_points_check((co), corral__pt_names_,                        \
                                 (uint32_t)(sizeof corral__pt_names_ / sizeof *corral__pt_names_))) \
            return CORRAL_STOP;                                                   \
    } while (0)
#endif
#define CORRAL_BEGIN_AT(co, POINTS)                                   \
    CORRAL__STATIC_ASSERT(CORRAL__NAMED_BODY(co, 1),                  \
                          "corral: CORRAL_BEGIN_AT in a body without named points: " \
                          "define it with DEFINE_COROUTINE_AT(NAME, POINTS)"); \
    CORRAL__OPENED(3)                                                 \
    CORRAL__CHECK_POINTS(co, POINTS);                                 \
    switch ((co)->resume & CORRAL__POINT_MASK) { default: return corral_point_lost(co); case 0:
#define CORRAL_END(co)  \
    } (co)->resume = 0; \
    return CORRAL_STOP
/* A plain yield: resume on the line after (when: API.md, "When a
   coroutine resumes"). */
#define CORRAL_WAIT_FRAME(co) CORRAL__YIELD_AT(co, CORRAL__RESUME_ID, CORRAL__CHECK_UNNAMED)
#define CORRAL__YIELD_AT(co, id, check)                   \
    do {                                                  \
        check;                                            \
        CORRAL__STATIC_ASSERT((id) <= CORRAL__POINT_MASK, \
                              "corral: over 61440 unnamed points in one file"); \
        (co)->resume = CORRAL__SITE(id);                  \
        return CORRAL_YIELD;                              \
        case (id):;                                       \
    } while (0)
/* yield at resume point id when `started` (a wait or a call began) */
#define CORRAL__YIELD_IF(co, started, id, check)          \
    do {                                                  \
        check;                                            \
        CORRAL__STATIC_ASSERT((id) <= CORRAL__POINT_MASK, \
                              "corral: over 61440 unnamed points in one file"); \
        if (started) {                                    \
            (co)->resume = CORRAL__SITE(id);              \
            return CORRAL_YIELD;                          \
            case (id):;                                   \
        }                                                 \
    } while (0)
#define CORRAL__YIELD_UNNAMED(co, started) CORRAL__YIELD_IF(co, started, CORRAL__RESUME_ID, CORRAL__CHECK_UNNAMED)
/* at the named point pt: its id is its place in the type's POINTS list
   (struct NAME_points, corral_gen.h), held in an enum so that a name not
   on the list is one error, "no member named 'pt' in struct NAME_points";
   kept XOR CORRAL__POINT_MASK, so the 0 a compiler gives the enum after
   that error is no case CORRAL_BEGIN_AT's 0 would clash with; and a label
   (a function's labels are one per name) so that two waits at one point
   are first "duplicate label 'corral__point_pt_is_waited_at_twice'"
   (gcc; clang: "redefinition of label"), then "duplicate case value" */
#define CORRAL__YIELD_NAMED(co, started, pt)                                                    \
    do {                                                                                        \
        CORRAL__CHECK_NAMED;                                                                    \
        goto corral__point_##pt##_is_waited_at_twice;                                          \
        corral__point_##pt##_is_waited_at_twice:;                                              \
        enum {                                                                                  \
            corral__point_ = (sizeof(corral__points->pt) - sizeof(corral__points->corral__start_)) \
                             ^ CORRAL__POINT_MASK                                               \
        };                                                                                      \
        CORRAL__YIELD_IF(co, started, corral__point_ ^ CORRAL__POINT_MASK, (void)0);            \
    } while (0)
/* Wait for `w` (a corral_wait value); resume on the line after. Goes on at
   once when the wait is already over. The text of what it waits for is
   the macro's argument as written. */
#define CORRAL_AWAIT(co, w) CORRAL__AWAIT_T(co, w, #w)
#define CORRAL__AWAIT_T(co, w, text) \
    CORRAL__YIELD_UNNAMED(co, corral_await((co), corral_wait_text((w), (text))))
/* Each shorthand that waits, then its _AT form: the same wait at the named
   point pt (API.md, "Resume points"). */
#define CORRAL__AWAIT_T_AT(co, pt, w, text) \
    CORRAL__YIELD_NAMED(co, corral_await((co), corral_wait_text((w), (text))), pt)
#define CORRAL_WAIT_NEXT_FRAME(co) CORRAL__AWAIT_T(co, corral_wait_next_frame(), "")
#define CORRAL_WAIT_NEXT_FRAME_AT(co, pt) CORRAL__AWAIT_T_AT(co, pt, corral_wait_next_frame(), "")
#define CORRAL_WAIT_FRAMES(co, n) CORRAL__AWAIT_T(co, corral_wait_frames(n), #n)
#define CORRAL_WAIT_FRAMES_AT(co, pt, n) CORRAL__AWAIT_T_AT(co, pt, corral_wait_frames(n), #n)
#define CORRAL_WAIT_SECONDS(co, t) CORRAL__AWAIT_T(co, corral_wait_seconds(t), #t)
#define CORRAL_WAIT_SECONDS_AT(co, pt, t) CORRAL__AWAIT_T_AT(co, pt, corral_wait_seconds(t), #t)
#define CORRAL_WAIT_REALTIME(co, t) CORRAL__AWAIT_T(co, corral_wait_realtime(t), #t)
#define CORRAL_WAIT_REALTIME_AT(co, pt, t) CORRAL__AWAIT_T_AT(co, pt, corral_wait_realtime(t), #t)
#define CORRAL_WAIT_AT(co, t) CORRAL__AWAIT_T(co, corral_wait_at(t), #t)
#define CORRAL_WAIT_AT_AT(co, pt, t) CORRAL__AWAIT_T_AT(co, pt, corral_wait_at(t), #t)
#define CORRAL_WAIT_FIXED_UPDATE(co) CORRAL__AWAIT_T(co, corral_wait_fixed_update(), "")
#define CORRAL_WAIT_FIXED_UPDATE_AT(co, pt) CORRAL__AWAIT_T_AT(co, pt, corral_wait_fixed_update(), "")
#define CORRAL_WAIT_LATE_UPDATE(co) CORRAL__AWAIT_T(co, corral_wait_late_update(), "")
#define CORRAL_WAIT_LATE_UPDATE_AT(co, pt) CORRAL__AWAIT_T_AT(co, pt, corral_wait_late_update(), "")
#define CORRAL_WAIT_END_OF_FRAME(co) CORRAL__AWAIT_T(co, corral_wait_end_of_frame(), "")
#define CORRAL_WAIT_END_OF_FRAME_AT(co, pt) CORRAL__AWAIT_T_AT(co, pt, corral_wait_end_of_frame(), "")
#define CORRAL_WAIT_PHASE(co, p) CORRAL__AWAIT_T(co, corral_wait_phase(p), #p)
#define CORRAL_WAIT_PHASE_AT(co, pt, p) CORRAL__AWAIT_T_AT(co, pt, corral_wait_phase(p), #p)
#define CORRAL_WAIT_UNTIL(co, fn, user) CORRAL__AWAIT_T(co, corral_wait_until((fn), (user)), #fn "(" #user ")")
#define CORRAL_WAIT_UNTIL_AT(co, pt, fn, user) CORRAL__AWAIT_T_AT(co, pt, corral_wait_until((fn), (user)), #fn "(" #user ")")
#define CORRAL_WAIT_WHILE(co, fn, user) CORRAL__AWAIT_T(co, corral_wait_while((fn), (user)), #fn "(" #user ")")
#define CORRAL_WAIT_WHILE_AT(co, pt, fn, user) CORRAL__AWAIT_T_AT(co, pt, corral_wait_while((fn), (user)), #fn "(" #user ")")
#define CORRAL_WAIT_SIGNAL(co, sig) CORRAL__AWAIT_T(co, corral_wait_signal(sig), #sig)
#define CORRAL_WAIT_SIGNAL_AT(co, pt, sig) CORRAL__AWAIT_T_AT(co, pt, corral_wait_signal(sig), #sig)
#define CORRAL_WAIT_FUTURE(co, f) CORRAL__AWAIT_T(co, corral_wait_future(f), #f)
#define CORRAL_WAIT_FUTURE_AT(co, pt, f) CORRAL__AWAIT_T_AT(co, pt, corral_wait_future(f), #f)
#define CORRAL_WAIT_JOIN(co, h) CORRAL__AWAIT_T(co, corral_wait_join(h), #h)
#define CORRAL_WAIT_JOIN_AT(co, pt, h) CORRAL__AWAIT_T_AT(co, pt, corral_wait_join(h), #h)
#define CORRAL_WAIT_ALL(co, ws, n) CORRAL__AWAIT_T(co, corral_wait_all((ws), (n)), #ws)
#define CORRAL_WAIT_ALL_AT(co, pt, ws, n) CORRAL__AWAIT_T_AT(co, pt, corral_wait_all((ws), (n)), #ws)
#define CORRAL_WAIT_ANY(co, ws, n) CORRAL__AWAIT_T(co, corral_wait_any((ws), (n)), #ws)
#define CORRAL_WAIT_ANY_AT(co, pt, ws, n) CORRAL__AWAIT_T_AT(co, pt, corral_wait_any((ws), (n)), #ws)
#define CORRAL_WAIT_STOP(co) CORRAL__AWAIT_T(co, corral_wait_stop(), "")
#define CORRAL_WAIT_STOP_AT(co, pt) CORRAL__AWAIT_T_AT(co, pt, corral_wait_stop(), "")
/* A generator's next value into *pv, waiting while the generator waits;
   then corral_wait_got(co) says what came (VALUE; CLOSED: it finished;
   STOPPED; NOT_YET: a stop request for co ended the wait; ERROR). */
#define CORRAL_PULL(co, h, pv)                                                   \
    do {                                                                         \
        while (corral_generator_pull((co), (h), (pv), sizeof *(pv)))             \
            CORRAL__YIELD_UNNAMED(co, 1);                                        \
    } while (0)
#define CORRAL_PULL_AT(co, pt, h, pv)                                            \
    do {                                                                         \
        while (corral_generator_pull((co), (h), (pv), sizeof *(pv)))             \
            CORRAL__YIELD_NAMED(co, 1, pt);                                      \
    } while (0)
/* Over coroutines that run already, by handle (hs: n handles in the
   context, n <= 16): the first to end (CORRAL_ANY_OF; corral_wait_fired
   names it), the first to end with the others stopped (CORRAL_RACE_OF), or
   all of them (CORRAL_SYNC_OF). Their _AT forms name the point. */
#define CORRAL__JOINS(make, hs, n) \
    corral_wait_text(make(corral__ws, corral_joins(corral__ws, (hs), (n))), #hs)
#define CORRAL__OF(co, make, hs, n)                                                     \
    do {                                                                                \
        corral_wait corral__ws[CORRAL_MAX_GROUP];                                       \
        CORRAL__YIELD_UNNAMED(co, corral_await((co), CORRAL__JOINS(make, hs, n)));      \
    } while (0)
#define CORRAL__OF_AT(co, pt, make, hs, n)                                              \
    do {                                                                                \
        corral_wait corral__ws[CORRAL_MAX_GROUP];                                       \
        CORRAL__YIELD_NAMED(co, corral_await((co), CORRAL__JOINS(make, hs, n)), pt);    \
    } while (0)
#define CORRAL_ANY_OF(co, hs, n) CORRAL__OF(co, corral_wait_any, hs, n)
#define CORRAL_SYNC_OF(co, hs, n) CORRAL__OF(co, corral_wait_all, hs, n)
#define CORRAL_RACE_OF(co, hs, n)                    \
    do {                                             \
        CORRAL__OF(co, corral_wait_any, hs, n);      \
        corral_race_settle((co), (hs), (n));         \
    } while (0)
#define CORRAL_ANY_OF_AT(co, pt, hs, n) CORRAL__OF_AT(co, pt, corral_wait_any, hs, n)
#define CORRAL_SYNC_OF_AT(co, pt, hs, n) CORRAL__OF_AT(co, pt, corral_wait_all, hs, n)
#define CORRAL_RACE_OF_AT(co, pt, hs, n)                 \
    do {                                                 \
        CORRAL__OF_AT(co, pt, corral_wait_any, hs, n);   \
        corral_race_settle((co), (hs), (n));             \
    } while (0)
/* Channels, semaphores, wait groups: pv points into the context */
#define CORRAL_SEND(co, ch, pv) CORRAL__AWAIT_T(co, corral_wait_send((ch), (pv), (uint32_t)sizeof *(pv)), #ch)
#define CORRAL_SEND_AT(co, pt, ch, pv) CORRAL__AWAIT_T_AT(co, pt, corral_wait_send((ch), (pv), (uint32_t)sizeof *(pv)), #ch)
#define CORRAL_RECEIVE(co, ch, pv) CORRAL__AWAIT_T(co, corral_wait_receive((ch), (pv), (uint32_t)sizeof *(pv)), #ch)
#define CORRAL_RECEIVE_AT(co, pt, ch, pv) CORRAL__AWAIT_T_AT(co, pt, corral_wait_receive((ch), (pv), (uint32_t)sizeof *(pv)), #ch)
#define CORRAL_ACQUIRE(co, sem) CORRAL__AWAIT_T(co, corral_wait_acquire(sem), #sem)
#define CORRAL_ACQUIRE_AT(co, pt, sem) CORRAL__AWAIT_T_AT(co, pt, corral_wait_acquire(sem), #sem)
#define CORRAL_ACQUIRE_N(co, sem, n) CORRAL__AWAIT_T(co, corral_wait_acquire_n((sem), (n)), #sem ", " #n)
#define CORRAL_ACQUIRE_N_AT(co, pt, sem, n) CORRAL__AWAIT_T_AT(co, pt, corral_wait_acquire_n((sem), (n)), #sem ", " #n)
#define CORRAL_WAIT_GROUP(co, wg) CORRAL__AWAIT_T(co, corral_wait_group(wg), #wg)
#define CORRAL_WAIT_GROUP_AT(co, pt, wg) CORRAL__AWAIT_T_AT(co, pt, corral_wait_group(wg), #wg)
/* Call a child coroutine and wait for it: CORRAL_CALL(co, name, ctx) or
   CORRAL_CALL(co, name, ctx, &dest) for a type with a result. */
#define CORRAL_CALL(co, name, ...) CORRAL__YIELD_UNNAMED(co, name##_call((co), __VA_ARGS__))
#define CORRAL_CALL_UNLESS(co, interrupt, name, ...) \
    CORRAL__YIELD_UNNAMED(co, name##_call_unless((co), (interrupt), __VA_ARGS__))
/* Race and sync: CORRAL_RACE(co, NAME_arm(co, ctx[, &dest]), ...) (above),
   1 to CORRAL_MAX_GROUP arms. Each arm goes through corral__arm_made on
   its own, so an arm that does not compile reports its own error and
   nothing else. */
CORRAL__UNUSED static inline bool corral__arm_made(bool made) { return made; }
#define CORRAL__EXPAND(x) x
#define CORRAL__CAT_(a, b) a##b
#define CORRAL__CAT(a, b) CORRAL__CAT_(a, b)
#define CORRAL__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, \
                      a20, a21, a22, a23, a24, n, ...) n
#define CORRAL__NARG(...)                                                                              \
    CORRAL__EXPAND(CORRAL__NARG_(__VA_ARGS__, MANY, MANY, MANY, MANY, MANY, MANY, MANY, MANY, 16, 15, 14, \
                                 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
#define CORRAL__ARM_MANY(...) corral_error_a_race_or_sync_takes_at_most_16_arms
#define CORRAL__ARM_1(a) corral__arm_made(a)
#define CORRAL__ARM_2(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_1(__VA_ARGS__))
#define CORRAL__ARM_3(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_2(__VA_ARGS__))
#define CORRAL__ARM_4(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_3(__VA_ARGS__))
#define CORRAL__ARM_5(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_4(__VA_ARGS__))
#define CORRAL__ARM_6(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_5(__VA_ARGS__))
#define CORRAL__ARM_7(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_6(__VA_ARGS__))
#define CORRAL__ARM_8(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_7(__VA_ARGS__))
#define CORRAL__ARM_9(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_8(__VA_ARGS__))
#define CORRAL__ARM_10(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_9(__VA_ARGS__))
#define CORRAL__ARM_11(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_10(__VA_ARGS__))
#define CORRAL__ARM_12(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_11(__VA_ARGS__))
#define CORRAL__ARM_13(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_12(__VA_ARGS__))
#define CORRAL__ARM_14(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_13(__VA_ARGS__))
#define CORRAL__ARM_15(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_14(__VA_ARGS__))
#define CORRAL__ARM_16(a, ...) corral__arm_made(a), CORRAL__EXPAND(CORRAL__ARM_15(__VA_ARGS__))
#define CORRAL__ARM_EACH(...) CORRAL__EXPAND(CORRAL__CAT(CORRAL__ARM_, CORRAL__NARG(__VA_ARGS__))(__VA_ARGS__))
#define CORRAL__ARMS(co, begin, ...) (corral__arm_made(begin(co)), CORRAL__ARM_EACH(__VA_ARGS__), corral_arms_start(co))
#define CORRAL_RACE(co, ...) CORRAL__YIELD_UNNAMED(co, CORRAL__ARMS(co, corral_race_begin, __VA_ARGS__))
#define CORRAL_SYNC(co, ...) CORRAL__YIELD_UNNAMED(co, CORRAL__ARMS(co, corral_sync_begin, __VA_ARGS__))
/* Named points: the same waits, resuming at the point `pt` of the list */
#define CORRAL_WAIT_FRAME_AT(co, pt) CORRAL__YIELD_NAMED(co, 1, pt)
#define CORRAL_AWAIT_AT(co, pt, w) CORRAL__AWAIT_T_AT(co, pt, w, #w)
#define CORRAL_CALL_AT(co, pt, name, ...) CORRAL__YIELD_NAMED(co, name##_call((co), __VA_ARGS__), pt)
#define CORRAL_CALL_UNLESS_AT(co, pt, interrupt, name, ...) \
    CORRAL__YIELD_NAMED(co, name##_call_unless((co), (interrupt), __VA_ARGS__), pt)
#define CORRAL_RACE_AT(co, pt, ...) CORRAL__YIELD_NAMED(co, CORRAL__ARMS(co, corral_race_begin, __VA_ARGS__), pt)
#define CORRAL_SYNC_AT(co, pt, ...) CORRAL__YIELD_NAMED(co, CORRAL__ARMS(co, corral_sync_begin, __VA_ARGS__), pt)
/* A generator's value: set `result` and suspend until the next pull. */
#define CORRAL_YIELD_VALUE(co, v)  \
    do {                           \
        ctx->result = (v);         \
        CORRAL_WAIT_FRAME(co);     \
    } while (0)
#define CORRAL_YIELD_VALUE_AT(co, pt, v) \
    do {                                 \
        ctx->result = (v);               \
        CORRAL_WAIT_FRAME_AT(co, pt);    \
    } while (0)
/* End the coroutine now (cleanup runs with CORRAL_END_FINISHED). */
#define CORRAL_EXIT(co) \
    do {                \
        (void)(co);     \
        return CORRAL_STOP; \
    } while (0)

/* ---------------------------------------------------------------- ERRORS AND LOGS: the types */

/* Log items: one list, many projections (enum, message table). */
#define CORRAL_LOG_ITEMS(X)                                                              \
    X(OK, "no error")                                                                    \
    X(NULL_SCHED, "the scheduler is NULL")                                               \
    X(NULL_ARG, "a required pointer argument is NULL")                                   \
    X(NULL_HANDLE, "the handle is the zero (invalid) handle")                            \
    X(FORGED_HANDLE, "the handle's slot index does not exist in this scheduler")         \
    X(STALE_HANDLE, "the handle's coroutine has ended (stale handle)")                   \
    X(CTX_SIZE_MISMATCH, "the context size passed does not match the type")              \
    X(NO_CLASS, "no size class is large enough for this context")                        \
    X(POOL_EXHAUSTED, "the size class for this type has no free slot")                   \
    X(TYPE_BUDGET, "the type has reached its registry budget")                           \
    X(TOO_MANY_TYPES, "the scheduler's type table is full (raise desc.max_types)")       \
    X(BAD_DESC, "a desc field is out of range (classes: ascending, multiples of 8 from 24)") \
    X(MEMORY_TOO_SMALL, "desc.memory_size is below corral_sched_memory_size(_min)")      \
    X(ALLOC_FAILED, "the allocator returned NULL")                                       \
    X(TOO_LARGE, "the arena would exceed 4 GiB or 2^24 slots per class")                 \
    X(IN_TICK, "the call is not allowed while the scheduler is ticking")                 \
    X(DESTROYING, "the scheduler is being destroyed")                                    \
    X(NOT_IN_STEP, "the call needs a running coroutine (call it from a step)")          \
    X(BAD_TYPE, "the vtable is malformed (step, context, result or a field)")           \
    X(BAD_DT, "dt is negative, infinite or NaN (counts as 0), or a scale out of range") \
    X(NOT_A_SCHED, "the pointer is not a live scheduler of this copy of corral (destroyed?)") \
    X(WRONG_TYPE, "the coroutine is of another type than the one asked for")            \
    X(BAD_WAIT, "the wait is malformed (unknown kind, bad member of all/any, n > 16)")   \
    X(WAIT_POOL_EXHAUSTED, "no free wait node (raise desc.max_wait_nodes)")             \
    X(SIGNAL_POOL_EXHAUSTED, "no free signal (raise desc.max_signals)")                 \
    X(FUTURE_POOL_EXHAUSTED, "no free future (raise desc.max_futures)")                 \
    X(STALE_SIGNAL, "the signal handle is zero, forged or destroyed")                   \
    X(STALE_FUTURE, "the future handle is zero, forged or released")                    \
    X(FUTURE_DONE, "the future is already completed")                                   \
    X(BAD_PHASE, "the phase is not one of corral_phase")                                 \
    X(BAD_DEST, "a value's place is outside the coroutine's context or the wrong size (the detail says which)") \
    X(GROUP_POOL_EXHAUSTED, "no free group node for the owner/tags (raise desc.max_group_nodes)") \
    X(NOT_PAUSED, "the coroutine is not paused")                                        \
    X(GROUP_DEPTH, "group operations nested more than 8 deep (from cleanup hooks)")           \
    X(CYCLIC_WAIT, "the wait could never end: it waits for itself, an ancestor, or a coroutine waiting for it") \
    X(CORRUPT, "the scheduler's state breaks an invariant (corral_verify)")               \
    X(SNAPSHOT_TOO_SMALL, "the buffer or kept ring is smaller than the snapshot")        \
    X(BAD_SNAPSHOT, "the snapshot is refused: damaged, of another layout, or not kept")  \
    X(UNSAVABLE, "the state holds something a save cannot carry (the detail names it)")   \
    X(BAD_SAVE, "the save is damaged, not a corral save, or does not fit this build (the detail says why)") \
    X(FOREIGN_BLOCK, "the block was made by another process or build: its code pointers mean nothing here (use corral_save / corral_load)") \
    X(WRONG_THREAD, "the call was made from a thread that does not own the scheduler (API.md, Threads)") \
    X(POST_QUEUE_FULL, "the cross-thread post queue is full: retry after the owner's next tick (desc.max_posts)") \
    X(NO_THREADS, "this build has no atomics (tcc): posts from other threads are not available") \
    X(BAD_DOMAIN, "the time domain is not one of the scheduler's (desc.domains)") \
    X(BAD_START, "the start options are malformed (a single mode without tags, or an unknown one)") \
    X(ALREADY_RUNNING, "an instance of its owner and tag runs already (CORRAL_SINGLE_REFUSE)") \
    X(STALE_CHANNEL, "the channel, semaphore or wait group handle is zero, forged or destroyed") \
    X(CHANNEL_POOL_EXHAUSTED, "no free channel, semaphore or wait group (raise desc.max_channels / max_semaphores / max_waitgroups)") \
    X(BAD_VALUE_SIZE, "a value's size or a channel's capacity does not fit (the detail gives the sizes)") \
    X(BAD_POINT, "the body's resume points are wrong: it ends (the detail says how)") \
    X(NO_CAPACITY, "a registered type could never start: no slot of its size class is open to it (the detail names it)") \
    X(PULL_DEPTH, "generators pulling generators nested deeper than CORRAL_MAX_PULL_DEPTH (256): the pull is refused") \
    X(RACE_DEPTH, "races and syncs nested deeper than CORRAL_MAX_RACE_DEPTH (256): its arms start none") \
    X(SIDE_POOL_EXHAUSTED, "no free side record for a call, join, owner/tags, deadline, all/any or time domain (raise desc.max_side_records)") \
    X(CHANNEL_CLOSED, "the channel is closed: it takes no more values (corral_channel_close)") \
    X(NOT_READY, "the generator waits (its step waited): pull it again later; not logged") \
    X(BAD_RELOAD, "the new build does not fit the running coroutines (the detail says why): nothing changed") \
    X(LOADING, "a load or reload is replacing the scheduler's state: no call on it from its hooks") \
    X(SEMAPHORE_FULL, "the release would give the semaphore more permits than its maximum: nothing released (the detail says how many)") \
    X(BAD_COUNT, "a semaphore's permits past its maximum, or a wait group's count below 0 or past 2^32 - 1: nothing changed (the detail says which)") \
    X(NO_PART, "the scheduler was created without the part the call needs (desc.parts; the detail names it)")

typedef enum corral_error {
#define CORRAL__X(id, msg) CORRAL_ERR_##id,
    CORRAL_LOG_ITEMS(CORRAL__X)
#undef CORRAL__X
    CORRAL_ERR_COUNT
} corral_error;

typedef enum corral_log_level {
    CORRAL_LOG_NONE = 0,
    CORRAL_LOG_PANIC,   /* a misuse under CORRAL_VALIDATION_FATAL: abort() follows */
    CORRAL_LOG_ERROR,
    CORRAL_LOG_WARNING,
    CORRAL_LOG_INFO,
    CORRAL_LOG_LEVEL_COUNT
} corral_log_level;

/* Logger: called on every error, and on a warning (CORRAL_LOG_WARNING:
   nothing failed, the call went on; today one: a kept ring holding fewer
   snapshots than desc.kept_snapshots). `message` names the call, the handle and
   the rule broken, e.g. "corral_stop(handle 0x000003:7): the handle's
   coroutine has ended (stale handle)"; it is valid during the callback only.
   `sched` may be NULL (e.g. a failed create). */
typedef struct corral_logger {
    void (*fn)(corral_log_level level, corral_error item, const char *message,
               const corral_sched *sched, void *user_data);
    void *user_data;
} corral_logger;

/* Allocator hook: used at most once by create (one block) and once by
   destroy. Default: malloc/free. */
typedef struct corral_allocator {
    void *(*alloc)(size_t size, void *user_data);
    void (*free)(void *ptr, void *user_data);
    void *user_data;
} corral_allocator;

/* Clock hook for time budgets (tests inject their own). Default: the
   monotonic clock, in nanoseconds. */
typedef struct corral_clock {
    uint64_t (*now_ns)(void *user_data);
    void *user_data;
} corral_clock;

/* Text of an error (never NULL; unknown values give "unknown error"). */
/* ---------------------------------------------------------------- THE SCHEDULER */

/* Resume order within a phase. */
typedef enum corral_order {
    CORRAL_ORDER_FIFO = 0, /* default: the order coroutines joined the queue */
    CORRAL_ORDER_BY_TYPE,  /* grouped by type, queue order within a type */
    CORRAL_ORDER_COUNT
} corral_order;

/* Profiler hooks (all optional; see corral_tracy.h for Tracy). Steps are
   bracketed by step_begin/step_end; alloc/free report a slot taken or given
   back, with the pool's name ("corral 64B": one pool per size class). */
typedef struct corral_hooks {
    void (*step_begin)(const char *type_name, corral_handle h, void *user_data);
    void (*step_end)(const char *type_name, corral_handle h, void *user_data);
    void (*alloc)(const char *pool_name, const void *ptr, size_t size, void *user_data);
    void (*free)(const char *pool_name, const void *ptr, size_t size, void *user_data);
    void *user_data;
} corral_hooks;

struct corral_field;
/* Inspector: print a context field of kind CORRAL_FIELD_OTHER (a struct, an
   array). Write at most `cap` bytes to `buf`; return false to fall back to
   hex bytes. */
typedef struct corral_field_formatter {
    bool (*fn)(const struct corral_field *field, const void *value, char *buf, size_t cap,
               void *user_data);
    void *user_data;
} corral_field_formatter;

/* The validation layer. Cheap checks that keep the process safe (NULL,
   zero/stale/forged handles, full pools, a step-only call outside a step)
   run always. Validation adds the checks that cost a walk (cyclic waits
   through joins and call chains, double frees of a slot) and decides what
   a misuse (corral_error_is_misuse) does. */
typedef enum corral_validation {
    CORRAL_VALIDATION_DEFAULT = 0, /* FATAL when the library is built without
                                      NDEBUG, OFF with NDEBUG (release) */
    CORRAL_VALIDATION_OFF,         /* cheap checks only; misuse is logged, the call refused */
    CORRAL_VALIDATION_REPORT,      /* all checks; misuse is logged, the call refused */
    CORRAL_VALIDATION_FATAL,       /* all checks; misuse logged (PANIC; stderr if no logger), then abort() */
    CORRAL_VALIDATION_COUNT
} corral_validation;

/* A size class: every slot of the class is `slot_size` bytes (header +
   context + padding; a multiple of 8, at least 24). A type goes to the
   smallest class that holds it and whose slot size is a multiple of its
   context's alignment; corral_slot_size_for gives the tightest such size. */
typedef struct corral_class_desc {
    uint32_t slot_size; /* bytes per slot, multiple of 8, >= 24, ascending */
    uint32_t capacity;  /* slots; registry budgets are added to it */
} corral_class_desc;

/* Parts: what a scheduler can do beyond the core (frames, seconds,
   realtime, phases, signals, all/any, pause, the profile's counters). A
   scheduler has the parts desc.parts names (each with the parts it builds
   on) and no other; corral_sched_create gives every part when desc.parts
   is NULL, corral_sched_create_min none. A program that creates its
   schedulers with corral_sched_create_min links only the parts it names
   (API.md, "Parts"). A call that needs a part the scheduler lacks is
   refused with CORRAL_ERR_NO_PART. */
typedef struct corral_part corral_part; /* one part's table (opaque) */
#define CORRAL_PARTS(X)                                                            \
    X(calls)    /* calls (CORRAL_CALL...) and joins (corral_wait_join) */          \
    X(groups)   /* owner and tags, group operations, stop deadlines */             \
    X(stops)    /* the stop wait (corral_wait_stop); builds on groups */           \
    X(polls)    /* predicates (corral_wait_until, corral_wait_while) */            \
    X(futures)  /* futures (corral_future_create, corral_wait_future) */           \
    X(alarms)   /* waits until a time on a clock (corral_wait_at) */               \
    X(pulls)    /* generators and pulls; builds on calls and groups */             \
    X(races)    /* races and syncs; builds on calls */                             \
    X(channels) /* channels, semaphores, wait groups */                            \
    X(profile)  /* timing, step hooks, the frame history, the step trace */        \
    X(budget)   /* time budgets of a phase run (corral_set_budget) */              \
    X(posts)    /* posts from other threads (corral_signal_post, _future_post) */
#define CORRAL__PART_DECL(name) CORRAL_API extern const corral_part corral_part_##name;
CORRAL_PARTS(CORRAL__PART_DECL)
#undef CORRAL__PART_DECL

/* save games (PERSISTENCE, below): what desc.predicates and desc.upgrade take */
typedef struct corral_saved_type {
    uint32_t id;
    const char *name;
    uint32_t ctx_size;
    uint32_t field_count;
    const corral_field *fields; /* the saved build's fields, names and offsets */
} corral_saved_type;
/* What a registered predicate's `user` argument is, so that a save can
   carry it without carrying an address (API.md, "Save games") */
typedef enum corral_predicate_arg {
    CORRAL_PREDICATE_CONTEXT = 0, /* NULL, or an address in a coroutine's context:
                                     saved as (coroutine, field, byte) */
    CORRAL_PREDICATE_NUMBER,      /* a number carried in the pointer, never read
                                     through: saved as its value */
    CORRAL_PREDICATE_ARG_COUNT
} corral_predicate_arg;
typedef struct corral_predicate_registry {
    const char *name;
    bool (*const *fns)(void *user); /* corral_predicate each */
    const uint32_t *ids; /* stable, non-zero */
    const char *const *names;
    uint32_t count;
    const uint8_t *args; /* corral_predicate_arg each; NULL: every one CONTEXT */
} corral_predicate_registry;
/* corral_sched_desc: zero means default. Each field's comment gives its
   default first (CORRAL_DEFAULT_*, above), then what it is. */
typedef struct corral_sched_desc {
    void *memory;                /* NULL: create allocates one block of exactly
                                    corral_sched_memory_size(desc) bytes; else
                                    the caller's block, which outlives the scheduler */
    size_t memory_size;          /* the size of `memory` (unused without it) */
    corral_allocator allocator;  /* malloc / free: used when memory is NULL */
    corral_logger logger;        /* none (silent): called on every error */
    corral_class_desc classes[CORRAL_MAX_CLASSES]; /* none: CORRAL_DEFAULT_CLASS_SIZES,
                                    each with default_capacity slots; ends
                                    at slot_size 0 */
    uint32_t default_capacity;   /* CORRAL_DEFAULT_CAPACITY slots per default
                                    class (none when a registry gives every
                                    type a budget) */
    const corral_registry *registry; /* none: its budgets are added to the
                                    capacity of the class each type falls in,
                                    and reserved for that type */
    uint32_t max_types;          /* CORRAL_DEFAULT_MAX_TYPES distinct types per scheduler */
    corral_order order;          /* CORRAL_ORDER_FIFO: each phase resumes in queue
                                    order; CORRAL_ORDER_BY_TYPE: grouped by type
                                    (in type-table order), queue order within a
                                    type -- faster when many types interleave
                                    (the indirect call stays predicted) */
    float fixed_dt;              /* CORRAL_DEFAULT_FIXED_DT: the fixed-update clock's step */
    uint32_t max_fixed_steps;    /* CORRAL_DEFAULT_MAX_FIXED_STEPS: fixed steps
                                    corral_tick runs per frame at most */
    uint32_t max_wait_nodes;     /* total slots / 32 + CORRAL_DEFAULT_SPARE_WAIT_NODES
                                    (with wait_text: total slots + the spare):
                                    one per coroutine waiting on anything but
                                    a plain sleep, one per member of an
                                    all/any; a plain sleep past max_sleepers
                                    takes one */
    uint32_t max_sleepers;       /* total slots: coroutines in a plain sleep
                                    (one frames, seconds or realtime wait) at
                                    once, 16 bytes each in the timer store */
    uint32_t max_signals;        /* CORRAL_DEFAULT_MAX_SIGNALS */
    uint32_t max_futures;        /* CORRAL_DEFAULT_MAX_FUTURES */
    uint32_t max_posts;          /* CORRAL_DEFAULT_MAX_POSTS: completions and raises
                                    other threads may have posted and the owner
                                    not applied yet (rounded up to a power of
                                    two; 24 bytes each) */
    uint32_t max_group_nodes;    /* CORRAL_DEFAULT_MAX_GROUP_NODES: a coroutine
                                    started with an owner takes one, plus one
                                    per tag bit (a pool of its own) */
    uint32_t domains;            /* CORRAL_DEFAULT_DOMAINS: time domains, each a clock
                                    with its own scale and pause (at most
                                    CORRAL_MAX_DOMAINS); domain 0 is the game
                                    clock. Each past the first costs its timer
                                    heap's page table (4 bytes per 64
                                    entries of the store: a sleeper's and a
                                    wait node's) and a page of 1 KiB: the
                                    clocks' heaps share one store */
    uint32_t custom_phases;      /* 0: phases besides the frame's four, at most
                                    CORRAL_MAX_CUSTOM_PHASES, run by the game with
                                    corral_run_phase(s, CORRAL_PHASE_CUSTOM(k)) */
    uint32_t max_channels;       /* CORRAL_DEFAULT_MAX_CHANNELS: each with a ring
                                    of channel_bytes */
    uint32_t channel_bytes;      /* CORRAL_DEFAULT_CHANNEL_BYTES: a channel of
                                    values of n bytes holds channel_bytes / n */
    uint32_t max_semaphores;     /* CORRAL_DEFAULT_MAX_SEMAPHORES */
    uint32_t max_waitgroups;     /* CORRAL_DEFAULT_MAX_WAITGROUPS */
    uint32_t max_side_records;   /* CORRAL_DEFAULT_MAX_SIDE_RECORDS: the links few
                                    coroutines have (36 bytes each), a pool of its own: a
                                    coroutine takes one at the first call it
                                    makes or is (caller and child each), the
                                    first join of it, its owner or tags, a stop
                                    request's deadline or an all/any wait, and
                                    keeps it until it ends */
    uint32_t kept_snapshots;     /* 0: snapshots the kept ring is sized for
                                    when kept_bytes is 0 (corral_snapshot_keep) */
    uint32_t kept_bytes;         /* 0: kept_snapshots x (twice the snapshot of
                                    the new scheduler and 64 bytes, rounded up
                                    to 64): the ring in the arena that holds
                                    the kept snapshots, as many as fit, each
                                    the size of the state it was taken of; at
                                    least the new scheduler's snapshot and 64
                                    bytes, rounded up to 64 (CORRAL_ERR_BAD_DESC) */
    bool wait_text;              /* false: each wait node keeps the text of what
                                    it waits for (the wait macros' arguments as
                                    written), for the inspector, JSON and the
                                    text report: 8 bytes per wait node */
    corral_clock clock;          /* the monotonic clock, in ns: time budgets, timing */
    corral_validation validation; /* CORRAL_VALIDATION_DEFAULT: FATAL in debug
                                    builds of the library, OFF in release
                                    (NDEBUG) builds */
    bool timing;                 /* false: per-type step times, tick times (by
                                    `clock`); off, the step loop is the same as
                                    without profiling. It, history_frames,
                                    trace_steps and the step hooks need the
                                    profile part (desc.parts) */
    uint32_t timing_sample;      /* CORRAL_DEFAULT_TIMING_SAMPLE: with timing, each
                                    type's first step and then one in N of its
                                    steps are timed (their time goes to the
                                    type's step_ns and max, and to the trace);
                                    every step is counted. N rounds up to a
                                    power of two. 1: every step timed, at a
                                    clock read a step */
    uint32_t history_frames;     /* 0: frames of history kept (corral_history),
                                    one corral_frame_sample each, in the arena */
    uint32_t trace_steps;        /* 0: with timing, the last N timed steps kept
                                    for the Chrome trace (24 bytes each, in the
                                    arena) */
    corral_hooks hooks;          /* none: step begin/end, slot alloc/free */
    corral_field_formatter field_formatter; /* none: prints CORRAL_FIELD_OTHER fields */
    const corral_predicate_registry *predicates; /* none: save games find
                                    predicates by id in it */
    struct corral_upgrade {      /* none: save games: fills the new fields of a
                                    context loaded from an older build (calls on
                                    the scheduler from it: CORRAL_ERR_LOADING) */
        void (*fn)(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                   void *user);
        void *user;
    } upgrade;
    const corral_part *const *parts; /* NULL: corral_sched_create gives every part
                                    of CORRAL_PARTS, corral_sched_create_min
                                    none; else a NULL-terminated list of
                                    &corral_part_NAME, each with the parts it
                                    builds on (the list must outlive the call
                                    only) */
} corral_sched_desc;

/* Bytes the arena needs for this desc (what corral_sched_create allocates,
   and what a caller-owned block must hold at least), with every part when
   desc.parts is NULL, as corral_sched_create gives. 0 if the desc is
   invalid. */
CORRAL_API size_t corral_sched_memory_size(const corral_sched_desc *desc);
/* The same for corral_sched_create_min: the parts desc.parts names and no
   other (none if NULL); it links only those, as create_min does. */
CORRAL_API size_t corral_sched_memory_size_min(const corral_sched_desc *desc);

/* The smallest slot size that holds a coroutine of this type (header,
   context at its offset, rounded up to a multiple of 8 and of the context's
   alignment): what to put in a corral_class_desc sized for it. 0 if the
   vtable is malformed (NULL, bad alignment or offset). */
CORRAL_API uint32_t corral_slot_size_for(const corral_type *type);

/* Create a scheduler. NULL on failure: corral_last_error(NULL) says why.
   It has every part when desc.parts is NULL, and so links every part; a
   list, even an empty one ({NULL}), gives exactly the parts it names. */
CORRAL_API corral_sched *corral_sched_create(const corral_sched_desc *desc);
/* The same with the parts desc.parts names and no other (none if NULL):
   a program that creates its schedulers only so links only those. */
CORRAL_API corral_sched *corral_sched_create_min(const corral_sched_desc *desc);

/* Ends every live coroutine (cleanup hooks run with CORRAL_END_DESTROYED,
   each exactly once) and frees the block if create allocated it. Refused
   unless between ticks (API.md, "Between ticks"). NULL is a no-op. */
CORRAL_API void corral_sched_destroy(corral_sched *sched);

/* ---------------------------------------------------------------- STARTING AND STOPPING */

/* Start a coroutine of `type` with a copy of `ctx` (ctx_size must equal
   type->ctx_size). The first step runs at once, in the caller's frame.
   Returns the handle; if the coroutine stopped in its first step the handle
   is non-zero but already dead. Failure returns the zero handle and sets the
   last error. Prefer the typed wrapper NAME_start. */
CORRAL_API corral_handle corral_start(corral_sched *sched, const corral_type *type,
                           const void *ctx, size_t ctx_size);

/* One instance per owner and tag (MEC's singleton modes): what a start
   does when a live coroutine has the same owner (0 included) and one of
   its tags. API.md, "One instance per tag". */
typedef enum corral_single {
    CORRAL_SINGLE_NONE = 0, /* start it anyway */
    CORRAL_SINGLE_REFUSE,   /* start nothing: the zero handle, CORRAL_ERR_ALREADY_RUNNING */
    CORRAL_SINGLE_REPLACE,  /* stop them first (CORRAL_END_REPLACED), then start it */
    CORRAL_SINGLE_QUEUE,    /* start it now, its first step when the last of them has
                               ended (at most CORRAL_MAX_GROUP of them) */
    CORRAL_SINGLE_COUNT
} corral_single;

/* Start options (zero means default). */
typedef struct corral_start_desc {
    corral_phase phase; /* the phase it lives in: DEFAULT = UPDATE */
    uint64_t owner;     /* its group: an entity id, say; 0 = none */
    uint32_t tags;      /* a mask of up to 32 tags; 0 = none */
    uint32_t domain;    /* its time domain; 0 = the game clock */
    corral_single single; /* one instance per owner and tag: NONE */
} corral_start_desc;

/* corral_start with options (NULL: defaults). */
CORRAL_API corral_handle corral_start_ex(corral_sched *sched, const corral_type *type, const void *ctx,
                              size_t ctx_size, const corral_start_desc *opts);

/* Start n coroutines of `type`, one per context of the array `ctxs` (n
   contexts of ctx_size bytes each), in order, each with its first step at
   once as corral_start: the bullets of a volley, the hit reactions of a
   blast. The arguments and the type are checked once for the batch. Writes
   each handle to out[i] when out is not NULL. Returns how many started: n,
   or fewer when one could not (a full pool, a type's budget), with the last
   error set then; those after it are not started. Prefer NAME_start_n. */
CORRAL_API size_t corral_start_n(corral_sched *sched, const corral_type *type, const void *ctxs, size_t ctx_size,
                                 size_t n, corral_handle *out);

/* Stop a coroutine: its cleanup hook runs with CORRAL_END_STOPPED and its
   slot is freed at once (or, if it is running right now, as soon as its step
   returns). Returns false for the zero, forged or stale handle (a double stop
   is a stale handle) and sets the last error. Safe from inside any step. */
CORRAL_API bool corral_stop(corral_sched *sched, corral_handle h);

/* True while the coroutine has not ended (and has not been stopped). */
CORRAL_API bool corral_alive(const corral_sched *sched, corral_handle h);

/* The context of a live coroutine, if it is of `type`; NULL (and the error
   set) for a dead, forged or zero handle or another type. The pointer is
   valid until the coroutine ends. Prefer the typed NAME_ctx_of(sched, h). */
CORRAL_API void *corral_context(corral_sched *sched, corral_handle h, const corral_type *type);

/* ---------------------------------------------------------------- WAITS */
/*
    A wait is a value: build it with a constructor below (at run time, as
    the seeds' `y = cond ? null : new WaitForSeconds(1)`), then either

        if (corral_await(co, w)) return CORRAL_YIELD;   in a plain step, or
        CORRAL_AWAIT(co, w);                            between BEGIN/END.

    corral_await returns false when the wait is already over (a finished
    join, a completed future, a predicate already true): the code just goes
    on. Where and when each wait resumes, from where it was issued, is one
    table: API.md, "When a coroutine resumes" (tests/test_contract.c
    runs every cell of it). A coroutine's phase is UPDATE unless its start
    or a phase wait moved it.
*/
/*
    The wait kinds: one list, every projection made from it (the enum, the
    names the inspector and logs print; inside the library, how each kind
    waits and the table of its parts). X(ID, name, how, phase, part):
        how     PLAIN  no node: lands by the resume contract (the plain yield)
                FRAME  no node: never in the frame it is issued in
                PHASE  no node: the next run of `phase` after the point of issue
                TIMER  a node in a timer heap: a later frame, by its due time
                POLL   a node on its phase's predicate list, polled each run
                LIST   a node on a list (a signal's, a future's, a coroutine's
                       joiners): the first run of its phase after the event
                GROUP  a node per member (all, any)
        phase   the phase it resumes in: OWN (its own) or a phase
        part    the part that brings it (corral_part_<part>; core: every
                scheduler has it)
    Adding a kind: DESIGN.md, "Adding a wait kind".
*/
#define CORRAL_WAIT_KINDS(X)                                         \
    X(NONE,         "none",         PLAIN, OWN,          core)      \
    X(NEXT_FRAME,   "next frame",   FRAME, UPDATE,       core)      \
    X(FRAMES,       "frames",       TIMER, OWN,          core)      \
    X(SECONDS,      "seconds",      TIMER, OWN,          core)      \
    X(REALTIME,     "realtime",     TIMER, OWN,          core)      \
    X(FIXED_UPDATE, "fixed update", PHASE, FIXED_UPDATE, core)      \
    X(LATE_UPDATE,  "late update",  PHASE, LATE_UPDATE,  core)      \
    X(END_OF_FRAME, "end of frame", PHASE, END_OF_FRAME, core)      \
    X(UNTIL,        "until",        POLL,  OWN,          polls)     \
    X(WHILE,        "while",        POLL,  OWN,          polls)     \
    X(SIGNAL,       "signal",       LIST,  OWN,          core)      \
    X(FUTURE,       "future",       LIST,  OWN,          futures)   \
    X(JOIN,         "join",         LIST,  OWN,          calls)     \
    X(ALL,          "all",          GROUP, OWN,          core)      \
    X(ANY,          "any",          GROUP, OWN,          core)      \
    X(SEND,         "send",         LIST,  OWN,          channels)  \
    X(RECEIVE,      "receive",      LIST,  OWN,          channels)  \
    X(ACQUIRE,      "acquire",      LIST,  OWN,          channels)  \
    X(WAIT_GROUP,   "wait group",   LIST,  OWN,          channels)  \
    X(PHASE,        "phase",        PHASE, OWN,          core)      \
    X(STOP,         "stop",         LIST,  OWN,          stops)     \
    X(AT,           "at",           TIMER, OWN,          alarms)    \
    X(PULL,         "pull",         LIST,  OWN,          pulls)

typedef enum corral_wait_kind {
#define CORRAL__X(id, name, how, phase, part) CORRAL_WAIT_##id,
    CORRAL_WAIT_KINDS(CORRAL__X)
#undef CORRAL__X
    CORRAL_WAIT_KIND_COUNT
} corral_wait_kind;

#define CORRAL_MAX_GROUP 16 /* members of one all/any wait */

typedef struct corral_signal { uint32_t index, gen; } corral_signal; /* zero: invalid */
typedef struct corral_future { uint32_t index, gen; } corral_future; /* zero: invalid */
typedef struct corral_channel { uint32_t index, gen; } corral_channel;     /* zero: invalid */
typedef struct corral_semaphore { uint32_t index, gen; } corral_semaphore; /* zero: invalid */
typedef struct corral_waitgroup { uint32_t index, gen; } corral_waitgroup; /* zero: invalid */
typedef union corral_value {
    int64_t i;
    uint64_t u;
    double d;
    void *p;
} corral_value;
typedef bool (*corral_predicate)(void *user);

typedef struct corral_wait {
    corral_wait_kind kind;
    uint32_t count;                   /* FRAMES: n; ALL/ANY: members */
    float seconds;                    /* SECONDS, REALTIME */
    union {
        corral_predicate fn;          /* UNTIL, WHILE */
        double at;                    /* AT: a time on its domain's clock */
    };
    void *user;                       /* UNTIL, WHILE; SEND: the value, RECEIVE: where it
                                         goes (in the waiting coroutine's context) */
    corral_signal signal;             /* SIGNAL */
    corral_future future;             /* FUTURE */
    corral_handle co;                 /* JOIN */
    const struct corral_wait *members; /* ALL, ANY */
    corral_channel channel;           /* SEND, RECEIVE (the value's place in `user`);
                                         ACQUIRE, WAIT_GROUP: the semaphore's or
                                         wait group's index and generation */
    const char *text;                 /* what it waits for, as written: the wait
                                         macros fill it in (desc.wait_text) */
} corral_wait;

static inline corral_wait corral__wait_of(corral_wait_kind kind)
{
    corral_wait w;
    memset(&w, 0, sizeof w);
    w.kind = kind;
    return w;
}
static inline corral_wait corral_wait_next_frame(void) { return corral__wait_of(CORRAL_WAIT_NEXT_FRAME); }
static inline corral_wait corral_wait_fixed_update(void) { return corral__wait_of(CORRAL_WAIT_FIXED_UPDATE); }
static inline corral_wait corral_wait_late_update(void) { return corral__wait_of(CORRAL_WAIT_LATE_UPDATE); }
static inline corral_wait corral_wait_end_of_frame(void) { return corral__wait_of(CORRAL_WAIT_END_OF_FRAME); }
static inline corral_wait corral_wait_frames(uint32_t n)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_FRAMES);
    w.count = n;
    return w;
}
static inline corral_wait corral_wait_seconds(float t)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_SECONDS);
    w.seconds = t;
    return w;
}
static inline corral_wait corral_wait_realtime(float t)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_REALTIME);
    w.seconds = t;
    return w;
}
/* Predicates, joins, stop and at waits: functions of their parts
   (corral_part_polls, _calls, _stops, _alarms), not inline. */
CORRAL_API corral_wait corral_wait_until(corral_predicate fn, void *user);
CORRAL_API corral_wait corral_wait_while(corral_predicate fn, void *user);
static inline corral_wait corral_wait_signal(corral_signal sig)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_SIGNAL);
    w.signal = sig;
    return w;
}
static inline corral_wait corral_wait_future(corral_future f)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_FUTURE);
    w.future = f;
    return w;
}
CORRAL_API corral_wait corral_wait_join(corral_handle h);
/* A join that takes the joined coroutine's result into dest (in the
   joiner's context, `size` the joined type's result size) when it
   finishes; nothing is written when it ends another way or is gone. */
CORRAL_API corral_wait corral_wait_join_result(corral_handle h, void *dest, uint32_t size);
/* Over when a stop is requested for the waiting coroutine (corral_request_stop
   on it, its owner or its tags; at once if one was): alone, or as a member
   of an any, to end another wait early. */
CORRAL_API corral_wait corral_wait_stop(void);
/* Until its domain's clock (corral_domain_time; domain 0's is corral_time)
   reads t: a time wait, so a frame passes even when t is past. Paused, it
   keeps t, not the time it had left. */
CORRAL_API corral_wait corral_wait_at(double t);
/* Channels: `data` lies in the waiting coroutine's context, `size` bytes,
   the channel's value size. */
static inline corral_wait corral_wait_send(corral_channel ch, void *data, uint32_t size)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_SEND);
    w.channel = ch;
    w.user = data;
    w.count = size;
    return w;
}
static inline corral_wait corral_wait_receive(corral_channel ch, void *data, uint32_t size)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_RECEIVE);
    w.channel = ch;
    w.user = data;
    w.count = size;
    return w;
}
/* Move to phase p (a custom one too): resume at its next run after the
   point of issue, as the fixed, late and end-of-frame waits do. */
static inline corral_wait corral_wait_phase(corral_phase p)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_PHASE);
    w.count = (uint32_t)p;
    return w;
}
static inline corral_wait corral_wait_acquire(corral_semaphore sem)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_ACQUIRE);
    w.channel.index = sem.index;
    w.channel.gen = sem.gen;
    return w;
}
/* n permits at once (0 counts as 1): it waits until n are free and no
   waiter came before it, then takes them all */
static inline corral_wait corral_wait_acquire_n(corral_semaphore sem, uint32_t n)
{
    corral_wait w = corral_wait_acquire(sem);
    w.count = n;
    return w;
}
static inline corral_wait corral_wait_group(corral_waitgroup wg)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_WAIT_GROUP);
    w.channel.index = wg.index;
    w.channel.gen = wg.gen;
    return w;
}
/* The same wait, saying what it waits for in words (the inspector shows
   them with desc.wait_text): a static string, e.g. the source text. */
static inline corral_wait corral_wait_text(corral_wait w, const char *text)
{
    w.text = text;
    return w;
}
/* `members` must stay valid until corral_await returns (it is copied). */
static inline corral_wait corral_wait_all(const corral_wait *members, uint32_t n)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_ALL);
    w.members = members;
    w.count = n;
    return w;
}
static inline corral_wait corral_wait_any(const corral_wait *members, uint32_t n)
{
    corral_wait w = corral__wait_of(CORRAL_WAIT_ANY);
    w.members = members;
    w.count = n;
    return w;
}

/* Begin waiting (from inside the step of `co`). True: the coroutine is now
   waiting -- return CORRAL_YIELD. False: nothing to wait for (already over),
   or a malformed wait (error set). A wait that finds no free node (a full
   pool) returns true and ends the coroutine when its step returns
   (CORRAL_END_WAIT_FAILED): it never resumes as if the wait had fired. */
CORRAL_API bool corral_await(corral_co *co, corral_wait w);
/* After an ANY wait: the index of the member that fired (-1 if none). */
CORRAL_API int corral_wait_fired(const corral_co *co);
/* Joins of hs[0 .. n) into ws (n <= CORRAL_MAX_GROUP): the members of an
   any or all over coroutines that run already. Returns n. */
static inline uint32_t corral_joins(corral_wait *ws, const corral_handle *hs, uint32_t n)
{
    for (uint32_t i = 0; i < n && i < CORRAL_MAX_GROUP; i++) ws[i] = corral_wait_join(hs[i]);
    return n;
}
/* After an any of joins over hs: stops every other one still running
   (CORRAL_END_LOST_RACE) and returns the winner's index (CORRAL_RACE_OF). */
CORRAL_API int corral_race_settle(corral_co *co, const corral_handle *hs, uint32_t n);
/* What a take gave: a receive from a channel, a pull of a generator, in
   one answer (API.md, "What a take gave"). */
typedef enum corral_got {
    CORRAL_GOT_NOT_YET = 0, /* nothing now, more may come: the channel is empty
                               and open, the generator waits */
    CORRAL_GOT_VALUE,       /* a value is in *out */
    CORRAL_GOT_CLOSED,      /* nothing will come: the channel is closed and
                               drained, or destroyed; the generator finished */
    CORRAL_GOT_STOPPED,     /* nothing will come: the generator was stopped or
                               ended otherwise (its end reason says why) */
    CORRAL_GOT_ERROR        /* a bad handle or size: corral_last_error says
                               which; nothing changed */
} corral_got;
/* After a wait: true when it ended on a channel that was closed (and,
   for a receive, drained) or destroyed: nothing was sent or received; after
   CORRAL_PULL, when the generator ended instead of giving a value. */
CORRAL_API bool corral_wait_closed(const corral_co *co);
/* After a wait, in one answer (API.md, "What a take gave"): a receive
   (CORRAL_RECEIVE; the member of an any that fired) gave VALUE or CLOSED; a
   pull (CORRAL_PULL) VALUE, CLOSED (the generator finished), STOPPED (it
   ended otherwise), NOT_YET (a stop request ended the wait) or ERROR (the
   wait or pull was refused). Any other wait: VALUE, or ERROR when it was
   refused. */
CORRAL_API corral_got corral_wait_got(const corral_co *co);

/* Signals: preallocated (desc.max_signals). Raising wakes every waiter, in
   the order they began waiting (when they resume: API.md, "When a
   coroutine resumes"). Destroying a signal wakes its waiters too. */
CORRAL_API corral_signal corral_signal_create(corral_sched *sched);
CORRAL_API uint32_t corral_signal_raise(corral_sched *sched, corral_signal sig); /* waiters woken */
/* A signal that stays set: set wakes every waiter as raise does, and
   until a reset a wait on the signal is over at once. */
CORRAL_API uint32_t corral_signal_set(corral_sched *sched, corral_signal sig); /* waiters woken */
CORRAL_API bool corral_signal_reset(corral_sched *sched, corral_signal sig);
CORRAL_API bool corral_signal_is_set(const corral_sched *sched, corral_signal sig);
CORRAL_API bool corral_signal_destroy(corral_sched *sched, corral_signal sig);

/* Futures: engine-side completions (the AsyncOperation / WWW case), from
   their own pool (desc.max_futures). Complete once, with a value, which
   wakes the waiters; waiting on a completed future goes on at once.
   Release when nobody needs it any more. */
CORRAL_API corral_future corral_future_create(corral_sched *sched);
CORRAL_API bool corral_future_complete(corral_sched *sched, corral_future f, corral_value v);
CORRAL_API bool corral_future_done(const corral_sched *sched, corral_future f);
CORRAL_API bool corral_future_value(const corral_sched *sched, corral_future f, corral_value *out);
CORRAL_API bool corral_future_release(corral_sched *sched, corral_future f);

/*
    Channels, semaphores and wait groups (API.md, "Channels, semaphores
    and wait groups"), each from its pool in the arena (desc.max_channels,
    desc.channel_bytes, desc.max_semaphores, desc.max_waitgroups).

    A channel carries values of one size, at most channel_bytes / size of
    them at a time, or `capacity` with corral_channel_create_ex (0: no
    buffer, a send waits for its receiver). CORRAL_SEND(co, ch, &ctx->v) waits while it is full,
    CORRAL_RECEIVE(co, ch, &ctx->v) while it is empty (the value lands in
    ctx->v); the first waiter is served first, on both sides. A send to a
    waiting receiver hands the value straight to it. From plain code:
    corral_channel_try_send / _try_receive (false: full / empty), or
    corral_channel_take, which tells empty from closed.
    Destroying a channel wakes its waiters with nothing sent or received.
    Closing one refuses new sends (CORRAL_ERR_CHANNEL_CLOSED from plain
    code) and wakes its waiting senders; receivers drain what is buffered,
    then every receive is over at once. corral_wait_closed tells a waiter
    its wait ended so.

    A semaphore counts permits: CORRAL_ACQUIRE waits for one (FIFO),
    corral_semaphore_release gives n back. A wait group counts tasks:
    corral_waitgroup_add(n), corral_waitgroup_done(), CORRAL_WAIT_GROUP
    waits until the count is 0.
*/
CORRAL_API corral_channel corral_channel_create(corral_sched *sched, uint32_t value_size);
CORRAL_API corral_channel corral_channel_create_ex(corral_sched *sched, uint32_t value_size, uint32_t capacity);
CORRAL_API bool corral_channel_close(corral_sched *sched, corral_channel ch);
CORRAL_API bool corral_channel_closed(const corral_sched *sched, corral_channel ch);
CORRAL_API bool corral_channel_destroy(corral_sched *sched, corral_channel ch);
CORRAL_API bool corral_channel_try_send(corral_sched *sched, corral_channel ch, const void *value, size_t size);
CORRAL_API bool corral_channel_try_receive(corral_sched *sched, corral_channel ch, void *out, size_t size);
/* a receive from plain code that tells empty from closed: VALUE (in *out),
   NOT_YET (empty and open), CLOSED (closed and drained, or destroyed) or
   ERROR (API.md, "What a take gave") */
CORRAL_API corral_got corral_channel_take(corral_sched *sched, corral_channel ch, void *out, size_t size);
CORRAL_API uint32_t corral_channel_count(const corral_sched *sched, corral_channel ch);    /* values in it */
CORRAL_API uint32_t corral_channel_capacity(const corral_sched *sched, corral_channel ch);
CORRAL_API corral_semaphore corral_semaphore_create(corral_sched *sched, uint32_t permits);
/* ... with at most `max` permits: a release past it is refused whole
   (CORRAL_ERR_SEMAPHORE_FULL), a wait for more than max is BAD_WAIT */
CORRAL_API corral_semaphore corral_semaphore_create_ex(corral_sched *sched, uint32_t permits, uint32_t max);
CORRAL_API bool corral_semaphore_release(corral_sched *sched, corral_semaphore sem, uint32_t n);
CORRAL_API uint32_t corral_semaphore_count(const corral_sched *sched, corral_semaphore sem); /* free permits */
CORRAL_API bool corral_semaphore_destroy(corral_sched *sched, corral_semaphore sem);
CORRAL_API corral_waitgroup corral_waitgroup_create(corral_sched *sched);
CORRAL_API bool corral_waitgroup_add(corral_sched *sched, corral_waitgroup wg, uint32_t n);
CORRAL_API bool corral_waitgroup_done(corral_sched *sched, corral_waitgroup wg);
CORRAL_API uint32_t corral_waitgroup_count(const corral_sched *sched, corral_waitgroup wg);
CORRAL_API bool corral_waitgroup_destroy(corral_sched *sched, corral_waitgroup wg);

/* ---------------------------------------------------------------- THE FRAME */
/*
    THE FRAME. Phases run in Unity's order; each has its own queue:

        corral_frame_begin(s, dt)      clocks advance (scaled by time_scale),
                                       frame count + 1
        FIXED_UPDATE  0..n times       until fixed time catches up with time
        UPDATE                         timers and frame waits wake here first
        LATE_UPDATE
        END_OF_FRAME

    corral_tick(s, dt) does all of it; engines with their own loop call
    corral_frame_begin once and corral_run_phase at each point. Every phase
    run resumes its queued coroutines once, in order (see corral_order).
    Which run a wait resumes in: API.md, "When a coroutine resumes".
*/

/* A whole frame: frame_begin(dt), the fixed steps due (at most
   desc.max_fixed_steps), UPDATE, LATE_UPDATE, END_OF_FRAME. Returns the
   steps run. Refused (0) unless between ticks (API.md, "Between
   ticks"). A negative, infinite or NaN dt counts as 0
   (CORRAL_ERR_BAD_DT). */
CORRAL_API uint32_t corral_tick(corral_sched *sched, float dt);
/* Advance the clocks by dt (unscaled seconds) and the frame count by one. */
CORRAL_API void corral_frame_begin(corral_sched *sched, float dt);
/* Run one phase now. FIXED_UPDATE runs one fixed step (fixed time +=
   fixed_dt). The frame's first run first wakes the timers that are due. */
CORRAL_API uint32_t corral_run_phase(corral_sched *sched, corral_phase phase);
/* Time budget (0: none, the default): each phase run stops stepping once
   it has spent `ns` by the desc's clock (it always makes one step). What
   did not run goes first in the next run of that phase: nothing starves.
   A step can ask how much is left, to split dense work across frames.
   A budget needs the budget part (desc.parts): without it, a budget other
   than 0 is refused with CORRAL_ERR_NO_PART. */
CORRAL_API void corral_set_budget(corral_sched *sched, uint64_t ns);
CORRAL_API uint64_t corral_budget_left(const corral_co *co); /* UINT64_MAX without a budget */

/* Fixed steps still due this frame (what corral_tick would run). */
CORRAL_API uint32_t corral_fixed_steps_due(const corral_sched *sched);

/* 0 pauses scaled time (and scaled waits, and fixed steps); default 1.
   The scale of domain 0, the game clock (below). */
CORRAL_API void corral_set_time_scale(corral_sched *sched, float scale);
CORRAL_API float corral_time_scale(const corral_sched *sched);

/*
    Time domains (API.md, "Time domains"): desc.domains clocks, each
    with its own scale and pause, advanced by every frame's dt. Domain 0 is
    the game clock (corral_time, corral_set_time_scale, the fixed steps);
    the others are the game's: a UI clock that runs while the game is
    paused, slow motion for one character. A coroutine lives in one
    domain (corral_start_desc.domain; a call's child and a race's arms in
    their caller's): its `seconds` waits count that domain's time and
    corral_dt is that domain's dt. Scaling or pausing a domain takes
    effect on every sleeper in it from the next frame, each keeping
    exactly the time it has left in that domain; moving a coroutine to
    another domain carries its time left over. A paused domain's clock
    stands still (its sleepers wait, corral_dt reads 0); its coroutines
    still step, as under Unity's timeScale 0 (to hold them too: the
    group pause). false / 0 with CORRAL_ERR_BAD_DOMAIN for a domain past
    desc.domains, CORRAL_ERR_BAD_DT for a negative or NaN scale or one
    past 10^9. A coroutine in a domain other than 0 holds a side record
    (desc.max_side_records) while it is there: a start, a generator's
    start or corral_set_domain that finds none free is refused with
    CORRAL_ERR_SIDE_POOL_EXHAUSTED, taking and changing nothing.
*/
CORRAL_API bool corral_domain_set_scale(corral_sched *sched, uint32_t domain, float scale);
CORRAL_API float corral_domain_scale(const corral_sched *sched, uint32_t domain);
CORRAL_API bool corral_domain_pause(corral_sched *sched, uint32_t domain);
CORRAL_API bool corral_domain_resume(corral_sched *sched, uint32_t domain);
CORRAL_API bool corral_domain_paused(const corral_sched *sched, uint32_t domain);
CORRAL_API double corral_domain_time(const corral_sched *sched, uint32_t domain); /* its seconds since create */
/* A domain may follow another, numbered before it (an actor's clock under
   the world's): its clock then runs at its own scale times its parent's
   rate, and stands still while the parent or any domain above it is
   paused (corral_domain_paused still reads its own pause). From the next
   frame, each sleeper keeping exactly its time left in its own domain, as
   for a scale; an ancestor's pause reads as corral_dt 0 at once, as the
   domain's own does. parent CORRAL_DOMAIN_NONE: it follows none (the
   default). false with CORRAL_ERR_BAD_DOMAIN, nothing changed, for a
   domain or parent past desc.domains or a parent not numbered before it. */
#define CORRAL_DOMAIN_NONE 0xFFFFFFFFu
CORRAL_API bool corral_domain_set_parent(corral_sched *sched, uint32_t domain, uint32_t parent);
CORRAL_API uint32_t corral_domain_parent(const corral_sched *sched, uint32_t domain); /* or NONE */
/* Its seconds per unscaled second now: its scale times every ancestor's,
   0 while it or one of them is paused. */
CORRAL_API float corral_domain_rate(const corral_sched *sched, uint32_t domain);
/* Put a coroutine (and the children it awaits, all the way down), an
   owner's or tags' members in a domain; returns how many moved. */
CORRAL_API bool corral_set_domain(corral_sched *sched, corral_handle h, uint32_t domain);
CORRAL_API uint32_t corral_set_domain_owner(corral_sched *sched, uint64_t owner, uint32_t domain);
CORRAL_API uint32_t corral_set_domain_tags(corral_sched *sched, uint32_t any_of, uint32_t domain);
/* Unscaled seconds since create (what real-time waits count). */
CORRAL_API double corral_unscaled_time(const corral_sched *sched);
/* Fixed-update clock: seconds of fixed steps run. */
CORRAL_API double corral_fixed_time(const corral_sched *sched);

/* Number of live coroutines. */
CORRAL_API uint32_t corral_live_count(const corral_sched *sched);

/* Time: scaled seconds since create, frame count (frames begun). */
CORRAL_API double corral_time(const corral_sched *sched);
CORRAL_API uint64_t corral_frame(const corral_sched *sched);

/* ---- in a step */

/* These take the running coroutine `co` and are valid inside its step. */
CORRAL_API float corral_dt(const corral_co *co);          /* its domain's dt; fixed_dt in FIXED_UPDATE
                                                             (0 while its domain is paused) */
CORRAL_API uint32_t corral_domain_of(const corral_co *co); /* its time domain */
CORRAL_API float corral_unscaled_dt(const corral_co *co); /* this frame's dt, unscaled */
CORRAL_API corral_phase corral_current_phase(const corral_co *co);
CORRAL_API corral_handle corral_self(const corral_co *co);      /* own handle */
CORRAL_API corral_sched *corral_sched_of(const corral_co *co);  /* its scheduler */

/* ---------------------------------------------------------------- RESULTS AND JOINS: calls, races, generators */
/*
    A coroutine calls another and waits for it, like `yield return Foo2()`:

        CORRAL_CALL(co, child, (child_ctx){...});               no result
        CORRAL_CALL(co, pathfind, (pathfind_ctx){...}, &ctx->path); typed result

    The child (declared with DECLARE_COROUTINE_R for a result) runs its
    first step in the same tick, right after the caller's step returns (not
    on the caller's C stack: chains of any depth cost no stack). When the
    child ends, its `result` is copied to the place the caller named inside
    its own context, and the caller resumes in the same tick: a chain of
    calls that never yields costs no frame. Only the innermost coroutine of
    a chain is ever stepped. corral_call_outcome says how the child ended:
    FINISHED, STOPPED (stopped by handle, its parent resumes), or NONE (the
    call could not start it: pool full, error set; the caller just goes on).
    Stopping a caller stops the child it awaits (and its child, ...): their
    cleanup hooks see CORRAL_END_PARENT_STOPPED.
*/
CORRAL_API bool corral_call(corral_co *co, const corral_type *type, const void *ctx, size_t ctx_size,
                 void *dest, size_t dest_size);
CORRAL_API corral_end_reason corral_call_outcome(const corral_co *co);
/* Interrupts, the skip-the-cutscene case: call the child unless `interrupt`
   (any wait: a predicate, a signal, seconds for a timeout, any/all of them)
   fires first; then the child's chain ends with CORRAL_END_INTERRUPTED and
   that is the caller's outcome. An interrupt already over does not start
   the child. CORRAL_CALL_UNLESS(co, interrupt, name, ctx[, &dest]). */
CORRAL_API bool corral_call_unless(corral_co *co, corral_wait interrupt, const corral_type *type, const void *ctx,
                        size_t ctx_size, void *dest, size_t dest_size);

/*
    Race and sync (API.md, "Race and sync"): several children at once.
    Each arm is NAME_arm(co, ctx) or, for a type
    with a result, NAME_arm(co, ctx, &dest), as NAME_call:

        CORRAL_RACE(co, attack_arm(co, (attack_ctx){...}),
                        timeout_arm(co, (timeout_ctx){.seconds = 30}));
        if (corral_race_winner(co) == 1) ...          the timeout won

    CORRAL_RACE starts every arm in the same tick (their first steps run
    right after the caller's step, in arm order); the first to end wins,
    the others end at once with CORRAL_END_LOST_RACE (their own children
    with PARENT_STOPPED), and the caller resumes in the run in which the
    winner ended. corral_race_winner gives the winner's arm index,
    corral_call_outcome how it ended; only the winner's result is copied.
    CORRAL_SYNC resumes when every arm has ended, each finished arm's
    result in its destination; its outcome is FINISHED when all finished,
    else how the first arm that did not finish ended. At most
    CORRAL_MAX_GROUP arms. Stopping the caller ends the arms still running
    (PARENT_STOPPED). An arm that cannot start (no slot, a bad destination)
    starts none: the arms made so far end unstepped (PARENT_STOPPED) and
    the caller goes on at once, outcome NONE, the error set. An arm that
    finds no wait node ends the caller as a full pool ends any wait
    (CORRAL_END_WAIT_FAILED). The functions below are what the macros and
    NAME_arm call; begin, arms, start, all in one step.
*/
CORRAL_API bool corral_race_begin(corral_co *co);
CORRAL_API bool corral_sync_begin(corral_co *co);
CORRAL_API bool corral_arm(corral_co *co, const corral_type *type, const void *ctx, size_t ctx_size, void *dest,
                           size_t dest_size);
/* True: the arms started and co waits for them (return CORRAL_YIELD). */
CORRAL_API bool corral_arms_start(corral_co *co);
/* After a race: the index of the arm that won (-1: none). */
CORRAL_API int corral_race_winner(const corral_co *co);

/*
    Generators (API.md, "Generators"): a type with a result whose step
    yields values to whoever pulls, run only by the pull:

        DEFINE_COROUTINE(waypoints) {
            CORRAL_BEGIN(co);
            for (ctx->i = 0; ctx->i < ctx->n; ctx->i++) CORRAL_YIELD_VALUE(co, path[ctx->i]);
            CORRAL_END(co);
        }
        corral_handle g = waypoints_gen(s, (waypoints_ctx){.n = 8});
        vec2 p;
        while (waypoints_next(s, g, &p)) walk_to(p);   from plain code or a step

    corral_generator_start makes it without stepping it (held, in no lane:
    corral_resume does not take it). corral_generator_next runs its step
    now, on the caller's stack, to its next value (true, the value in
    *out, of the type's result size) or not (false: it ended, or it waits;
    corral_generator_take tells which). Its step gives a value with
    CORRAL_YIELD_VALUE (the plain yield); any other wait, a frame wait
    included, holds it without a value until the wait is over. A generator
    started in a step belongs to that step's coroutine and ends with it
    (PARENT_STOPPED); one started from plain code belongs to the game, and
    corral_generator_start_ex gives it an owner and tags for the group
    operations. Zero allocation: it is a coroutine in its slot, in
    snapshots and saves like any other.
*/
CORRAL_API corral_handle corral_generator_start(corral_sched *sched, const corral_type *type, const void *ctx,
                                                size_t ctx_size);
/* The same with an owner, tags and a time domain (opts->phase and
   opts->single must be zero: CORRAL_ERR_BAD_START). */
CORRAL_API corral_handle corral_generator_start_ex(corral_sched *sched, const corral_type *type, const void *ctx,
                                                   size_t ctx_size, const corral_start_desc *opts);
/* Hands generator h to coroutine owner, which it then ends with, or with
   the zero handle to the game (API.md "Generators", "Whose it is"). False,
   nothing changed: a stale h or owner (STALE_HANDLE ...), h not a
   generator or its step running (NOT_PAUSED), owner h itself or a
   coroutine h owns, directly or through others (CYCLIC_WAIT), no wait node
   or side record for the tie. */
CORRAL_API bool corral_generator_give(corral_sched *sched, corral_handle h, corral_handle owner);
CORRAL_API bool corral_generator_next(corral_sched *sched, corral_handle h, void *out, size_t out_size);
/* A pull in one answer: VALUE (in *out), NOT_YET (it waits), CLOSED (it
   finished now), STOPPED (it ended otherwise now), ERROR (a bad or stale
   handle, a bad size: corral_last_error says which). */
CORRAL_API corral_got corral_generator_take(corral_sched *sched, corral_handle h, void *out, size_t out_size);
/* From a step: pulls the generator's next value into out. False: go on
   (corral_wait_got(co) says what came). True: it waits (its step waited):
   return CORRAL_YIELD and pull again when resumed. A stop request for co
   ends the wait. CORRAL_PULL(co, h, &ctx->v) is the loop. */
CORRAL_API bool corral_generator_pull(corral_co *co, corral_handle h, void *out, size_t out_size);
/* A wait until generator h can be pulled (its wait is over) or has ended:
   alone or a member of an any or all, beside a timeout or
   corral_wait_stop(); then corral_generator_take takes the value. A
   generator gone already: over at once, corral_wait_got ERROR. */
CORRAL_API corral_wait corral_wait_pull(corral_handle h);

/* ---------------------------------------------------------------- GROUPS AND PAUSE */
/*
    A coroutine started with an owner (an entity id) and/or tags (a 32-bit
    mask) belongs to those groups. Group operations take time proportional
    to the group's size and are safe from inside steps and cleanup hooks.
    Stopping a group ends its members with CORRAL_END_GROUP_STOPPED (their
    awaited children with PARENT_STOPPED).

    Pause holds a coroutine where it is: it is not stepped, a paused sleeper
    keeps its remaining time (paused time does not count), a predicate is not
    polled, and a signal, future, join or child that completes while it is
    paused is remembered: it resumes on corral_resume. A coroutine paused
    from inside its own step is held when the step returns.
*/
CORRAL_API uint32_t corral_stop_owner(corral_sched *sched, uint64_t owner);  /* returns how many */
CORRAL_API uint32_t corral_pause_owner(corral_sched *sched, uint64_t owner);
CORRAL_API uint32_t corral_resume_owner(corral_sched *sched, uint64_t owner);
CORRAL_API uint32_t corral_stop_tags(corral_sched *sched, uint32_t any_of);  /* members with any of the tags */
CORRAL_API uint32_t corral_pause_tags(corral_sched *sched, uint32_t any_of);
CORRAL_API uint32_t corral_resume_tags(corral_sched *sched, uint32_t any_of);
/* Stop requests (ask first, stop hard after a deadline): the coroutine (and
   the children it awaits, down the chain) sees corral_stop_requested(co)
   and may finish an animation or refund a resource, then end itself. With
   deadline > 0 it is stopped hard after that many seconds of its time
   domain (cleanup with CORRAL_END_DEADLINE), unless it ended before; a
   second request keeps the sooner deadline. 0: no deadline. Returns false
   for a dead handle, or (WAIT_POOL_EXHAUSTED) when a deadline finds no
   wait node (the request is not made). The group forms return how many
   were asked. API.md, "Stop requests". */
CORRAL_API bool corral_request_stop(corral_sched *sched, corral_handle h, float deadline);
CORRAL_API uint32_t corral_request_stop_owner(corral_sched *sched, uint64_t owner, float deadline);
CORRAL_API uint32_t corral_request_stop_tags(corral_sched *sched, uint32_t any_of, float deadline);
CORRAL_API bool corral_stop_requested(const corral_co *co); /* in its step */

CORRAL_API bool corral_pause(corral_sched *sched, corral_handle h);
CORRAL_API bool corral_resume(corral_sched *sched, corral_handle h);
CORRAL_API bool corral_paused(const corral_sched *sched, corral_handle h);
/* Debugger: run exactly one step of a paused coroutine now (whatever it
   waits on), then hold it again. */
CORRAL_API bool corral_step_once(corral_sched *sched, corral_handle h);

/* ---------------------------------------------------------------- ERRORS */

CORRAL_API const char *corral_error_str(corral_error err);

/* True for the errors that are programming mistakes (a wait outside a
   step, a forged handle, a wrong context size, a cyclic wait, ...), as
   opposed to run-time conditions a game handles (a full pool, a stale
   handle, a future already released). Misuse is what
   CORRAL_VALIDATION_FATAL aborts on. */
CORRAL_API bool corral_error_is_misuse(corral_error err);

/* Last error on `sched`; with sched == NULL, the last error of this thread
   (create failures and calls made with a NULL scheduler land there). */
CORRAL_API corral_error corral_last_error(const corral_sched *sched);

/* The last error in words, as the logger would have been told it: the
   call, the handle, the coroutine whose step made it, the rule and the
   detail ("corral_load: the save is damaged, ...: type 'enemy' (id 3):
   no field 'hp' in this build"). Works without a logger. sched == NULL:
   this thread's. The text stays valid until the next call of this
   function for the same scheduler (or thread). "no error" when none. */
CORRAL_API const char *corral_last_error_detail(const corral_sched *sched);

/* A stock logger that prints each message to stderr, one line each
   ("corral: error: ..."): `desc.logger.fn = corral_log_stderr;`. */
CORRAL_API void corral_log_stderr(corral_log_level level, corral_error item, const char *message,
                                  const corral_sched *sched, void *user_data);

/* ---------------------------------------------------------------- PERSISTENCE: rollback, save games, adopting a copied block */

/* Rollback (API.md, "Rollback"): the live state of a scheduler copied
   into a caller's buffer and back into the same scheduler, in place. The
   copy holds the control state and the slots, nodes and chunks in use or
   recently in use, not the capacity. Both need the scheduler between ticks
   (API.md, "Between ticks"); no allocation.
   corral_snapshot_size: the bytes corral_snapshot needs now (0 on error).
   corral_snapshot: writes it; the bytes written, or 0
   (CORRAL_ERR_SNAPSHOT_TOO_SMALL and nothing written if size is short).
   corral_restore: rewinds sched to the snapshot: coroutines, contexts,
   waits, timers, clocks, frame count, signals, futures, groups, pauses,
   counters. The environment (allocator, logger, hooks, clock) and the
   profiling rings stay as they are. Handles, signals and futures valid at
   the snapshot are valid again; any taken after it stay stale forever.
   false (CORRAL_ERR_BAD_SNAPSHOT) and nothing changed if buf is not a
   whole snapshot of a scheduler with this one's layout (same desc; the
   kept ring, desc.kept_snapshots and kept_bytes, may differ). */
CORRAL_API size_t corral_snapshot_size(const corral_sched *sched);
CORRAL_API size_t corral_snapshot(const corral_sched *sched, void *buf, size_t size);
CORRAL_API bool corral_restore(corral_sched *sched, const void *buf, size_t size);
/* Snapshots kept in the arena, for a rollback loop (API.md, "Kept
   snapshots"): a ring of desc.kept_bytes, each snapshot the size of the
   state it was taken of, the oldest dropped first to make room. The
   scheduler wrote them and nothing else does, so a restore from one
   checks only what bounds its reads (its header, the head saved in it)
   and costs copies only. k is a tag the game chooses (a frame number,
   increasing). Both refuse, changing nothing: with no ring
   (CORRAL_ERR_BAD_SNAPSHOT), inside a tick, or when a stray write
   damaged the ring's structure (CORRAL_ERR_CORRUPT, as corral_verify
   words it).
   corral_snapshot_keep: the live state into the ring under tag k, in
   place of one kept under k before; the snapshot's bytes, or 0
   (CORRAL_ERR_SNAPSHOT_TOO_SMALL if it cannot fit even in the empty ring);
   a drop while the ring holds fewer than desc.kept_snapshots is a
   warning to the logger naming the desc.kept_bytes that holds them (again
   only when the snapshots outgrow that figure's eighth of room).
   corral_restore_kept: rewinds to the snapshot tagged k, as
   corral_restore does, and forgets the ones kept after it (their frames
   are played again); false (CORRAL_ERR_BAD_SNAPSHOT) if none is kept
   under k (never kept, dropped or forgotten: the detail says) or its
   saved head is damaged. */
CORRAL_API size_t corral_snapshot_keep(corral_sched *sched, uint32_t k);
CORRAL_API bool corral_restore_kept(corral_sched *sched, uint32_t k);
/* 64 bits over the logical state: each live coroutine (slot, type name,
   state, phase, resume point, context fields, wait, links, groups, pause,
   and with desc.timing its age), the run order, timers, signals, futures, clocks and frame
   count. Addresses, generations, padding, pointer fields and free slots
   do not count: two processes that ran the same inputs print the same
   hash (DETERMINISM.md). 0 on error. */
CORRAL_API uint64_t corral_state_hash(const corral_sched *sched);
/* The state hash's pieces, each hashed on its own (API.md, "A desync's
   cause"): the frame and clocks, each live coroutine in slot order, the
   run order, each pool. 16 bytes a coroutine: small enough for two peers
   to send and compare (corral_state_pieces_diff) without sending whole
   states. The count (pieces past cap are counted, not written); 0 on
   error. */
typedef enum corral_piece_kind {
    CORRAL_PIECE_CLOCKS,    /* the frame count and every clock */
    CORRAL_PIECE_COROUTINE, /* one live coroutine: index is its handle's */
    CORRAL_PIECE_ORDER,     /* the order they run in, the predicates' lists */
    CORRAL_PIECE_POOL,      /* index 0 signals, 1 futures, 2 channels, 3 semaphores and wait groups */
    CORRAL_PIECE_KIND_COUNT
} corral_piece_kind;
typedef struct corral_state_piece {
    uint16_t kind;  /* corral_piece_kind */
    uint16_t type;  /* a coroutine's type: its place in the scheduler's type table
                       (corral_stats_type names it; peers of one build and registry
                       number their types alike); 0 for the other kinds */
    uint32_t index; /* a coroutine's handle index; a pool's number */
    uint64_t hash;
} corral_state_piece;
CORRAL_API size_t corral_state_pieces(const corral_sched *sched, corral_state_piece *out, size_t cap);

/* The sync test (API.md, "The sync test"): every frame, the game's frame
   runs with its input; then the last desc.frames frames are rewound from
   kept snapshots and played again with the inputs they had, and each
   frame played again must reach the state hash its first run reached.
   The first that does not names a step that does not follow from its
   state and input (rand(), a clock, an uninitialised local, a pointer's
   address): reported at once, in corral_synctest.desync. The scheduler
   needs a kept ring for desc.frames + 1 snapshots (desc.kept_snapshots);
   the game's frame applies its input and ticks with a fixed dt, and keeps
   and restores no snapshot itself. Nothing is allocated: the test's state
   is the caller's corral_synctest, the inputs' ring desc.memory. */
#define CORRAL_SYNCTEST_MAX_FRAMES 16
#define CORRAL_SYNCTEST_DEFAULT_FRAMES 8
typedef void (*corral_synctest_frame_fn)(corral_sched *sched, const void *input, void *user);
typedef struct corral_synctest_desc {
    uint32_t frames;                /* CORRAL_SYNCTEST_DEFAULT_FRAMES: frames played again each
                                       frame, at most CORRAL_SYNCTEST_MAX_FRAMES */
    uint32_t input_size;            /* bytes of one frame's input (0: none) */
    void *memory;                   /* the last frames + 1 inputs: corral_synctest_memory_size bytes */
    size_t memory_size;
    corral_synctest_frame_fn frame; /* one frame of the game: its input applied, then corral_tick */
    void *user;                     /* handed to frame */
} corral_synctest_desc;
typedef struct corral_desync {
    uint64_t frame;  /* the frame (counted from corral_synctest_begin, 0 first) played again elsewhere */
    uint32_t depth;  /* how far back: 1 is the newest frame, desc.frames the oldest played again */
    uint64_t want;   /* the state hash its first run reached */
    uint64_t got;    /* the one it reached played again */
} corral_desync;
typedef struct corral_synctest {
    corral_sched *sched;
    corral_synctest_desc desc;
    uint64_t frames_run;          /* frames run (each once, then played again) */
    uint64_t frames_played_again;
    bool desynced;                /* a frame played again reached another state: desync says which */
    bool stopped;                 /* the ring failed a rewind mid-frame (the error said how): no frames more */
    corral_desync desync;
    uint64_t hash[CORRAL_SYNCTEST_MAX_FRAMES + 1]; /* the first runs' state hashes, by frame */
} corral_synctest;
/* bytes of desc.memory for frames (0: the default) and input_size */
CORRAL_API size_t corral_synctest_memory_size(uint32_t frames, uint32_t input_size);
/* t set up for sched (any state: frame 0 is the next); false with
   CORRAL_ERR_NULL_ARG or CORRAL_ERR_BAD_DESC (the detail says which) */
CORRAL_API bool corral_synctest_begin(corral_synctest *t, corral_sched *sched, const corral_synctest_desc *desc);
/* one frame with its input (input_size bytes, copied), then the last
   frames played again. false: a desync (t->desynced, t->desync; the
   scheduler is left after the frame played again; a test that desynced
   runs no more frames until begun again), or a kept snapshot the ring
   could not keep or give back (the error set: size the ring for
   desc.frames + 1 snapshots) */
CORRAL_API bool corral_synctest_frame(corral_synctest *t, const void *input);
/* after a desync, before the scheduler ticks again: where the frame goes
   apart, in words (as corral_desync_describe says it, the first side the
   run the test stopped at, the second the new run). The state the test
   stopped at is snapshotted into buf (cap bytes: corral_snapshot_size)
   and restored into scratch, a second scheduler of the same desc and
   registry (no kept ring needed); the frame is played once more from its
   kept start on the scheduler under test; the two runs are compared.
   True: words say where they differ, and t->sched is after the frame's
   third run. False: they agree (words say so: what set the first run
   apart is outside the state), or a snapshot or restore was refused
   (words give the error; t->sched is as the test left it, unless the
   kept restore was what failed, which changes nothing either). */
CORRAL_API bool corral_synctest_describe(corral_synctest *t, corral_sched *scratch, void *buf, size_t cap, char *words,
                                         size_t words_cap);
/* the first place where two lists of pieces differ: its place in a (na:
   none, or only b goes on) */
CORRAL_API size_t corral_state_pieces_diff(const corral_state_piece *a, size_t na, const corral_state_piece *b,
                                           size_t nb);
/* Two schedulers of one build and registry (two peers' saves loaded, two
   snapshots restored): where their states first differ, in words, into
   buf: the frame or a clock; a coroutine (type, handle, named point,
   file:line, what it waits on) that only one has, or whose type, state or point differs,
   or a field of it (name, both values), or else its wait or links; the
   run order; a pool (signals, futures, channels, semaphores). True: they
   differ (buf says where); false: they agree, or an error. */
CORRAL_API bool corral_desync_describe(const corral_sched *a, const corral_sched *b, char *buf, size_t cap);

/* Save games (SAVE.md): the state written in a versioned,
   little-endian format that another process, another platform or the
   next build of the game can load. Types go by registry id (desc.registry)
   with their field names, resume points by name (DEFINE_COROUTINE_AT),
   predicates by id (desc.predicates) with their argument as a context's
   field or a number, timers as time left on their clock; no pointer is
   written (API.md, "Save games").
   corral_save: writes into buf (NULL: only measures); the bytes of the
   save, or 0 with CORRAL_ERR_UNSAVABLE naming what cannot be saved (a type
   without a registry id, a pointer field, an unnamed resume point, an
   unregistered predicate or one whose argument is an address outside
   every context), CORRAL_ERR_SNAPSHOT_TOO_SMALL, or the between-
   ticks guard's IN_TICK or DESTROYING (or LOADING from a hook of a load).
   corral_load: replaces the state of sched (its coroutines end with
   CORRAL_END_DESTROYED first) by the save's. Every count, id, index,
   chain, field and resume point is checked before anything changes: a
   refused load (CORRAL_ERR_BAD_SAVE, the detail says why) leaves sched as
   it was. Fields are matched by name: new ones start zeroed (then
   desc.upgrade runs), integers and floats may widen; a field or point the
   build no longer has is refused. */
/* A list X(fn, id) of predicate functions, for save games:
   CORRAL_DEFINE_PREDICATES(game, GAME_PREDICATES) defines game_predicates.
   X(fn, id, CORRAL_PREDICATE_NUMBER) declares that fn's `user` is a number;
   X(fn, id) that it is NULL or an address in a coroutine's context. */
#define CORRAL__GEN_PRED_FN(fn, ...) fn,
#define CORRAL__GEN_PRED_ID(fn, ...) (uint32_t)(CORRAL__EXPAND(CORRAL__PRED_FIRST(__VA_ARGS__, ~))),
#define CORRAL__GEN_PRED_NAME(fn, ...) #fn,
#define CORRAL__GEN_PRED_ARG(fn, ...) \
    (uint8_t)(CORRAL__EXPAND(CORRAL__PRED_SECOND(__VA_ARGS__, CORRAL_PREDICATE_CONTEXT, ~))),
#define CORRAL__PRED_FIRST(a, ...) a
#define CORRAL__PRED_SECOND(a, b, ...) b
#define CORRAL_DEFINE_PREDICATES(reg, LIST)                                                          \
    static bool (*const reg##__pred_fns[])(void *) = {LIST(CORRAL__GEN_PRED_FN)};                     \
    static const uint32_t reg##__pred_ids[] = {LIST(CORRAL__GEN_PRED_ID)};                            \
    static const char *const reg##__pred_names[] = {LIST(CORRAL__GEN_PRED_NAME)};                     \
    static const uint8_t reg##__pred_args[] = {LIST(CORRAL__GEN_PRED_ARG)};                           \
    const corral_predicate_registry reg##_predicates = {#reg, reg##__pred_fns, reg##__pred_ids,       \
                                                        reg##__pred_names,                            \
                                                        (uint32_t)(sizeof reg##__pred_ids / sizeof reg##__pred_ids[0]), \
                                                        reg##__pred_args}
CORRAL_API size_t corral_save(const corral_sched *sched, void *buf, size_t size);
CORRAL_API bool corral_load(corral_sched *sched, const void *buf, size_t size);

/* Snapshots: the arena holds no pointer into itself (a predicate's
   argument in a context moves with the block), so a byte copy of a
   scheduler's block (caller-owned memory, copied whole) is a working
   scheduler once adopted. Returns it, or NULL (CORRAL_ERR_NOT_A_SCHED) if
   the block holds none or is smaller than the original, or
   (CORRAL_ERR_FOREIGN_BLOCK) if another process or build made it: its
   vtables and callbacks are addresses in that image. The copy is
   caller-owned: destroy ends its coroutines and frees nothing. Pointers the
   user put in contexts are copied as they are. */
CORRAL_API corral_sched *corral_sched_adopt(void *memory, size_t memory_size);

/* ---------------------------------------------------------------- HOT RELOAD */
/*
    After the game has loaded a new build of the code its coroutine types
    live in (docs/HOTRELOAD.md), and before it unloads the old one: every
    live coroutine goes on in the new build where it stood. Types by
    registry id, resume points by name, predicates by id; handles, waits,
    timers, calls, races, channels and groups as they were; no step runs
    and nothing is allocated. A context laid out otherwise moves within
    its slot as a save's load would move it (fields by name, numbers
    widened, new ones zero and then `upgrade`'s), with the places its
    waits keep in it. Between ticks only. False, nothing changed, with
    CORRAL_ERR_BAD_RELOAD naming the type, field or point, when the new
    build does not fit: a type missing or outside a registry, a field
    narrowed or retyped, a field a wait uses gone, a context outgrowing
    its slot, a coroutine at an unnamed point or at a point the new build
    lacks, a predicate it does not list (API.md, "Hot reload").
*/
typedef struct corral_reload_desc {
    const corral_registry *registry;             /* the new build's */
    const corral_predicate_registry *predicates; /* the new build's, or NULL */
    /* the new build's desc.upgrade, or NULL: called for each context
       moved into a new layout, with the old one (its build still loaded);
       it changes only ctx: a call on the scheduler from it is refused
       (CORRAL_ERR_LOADING, API.md "Between ticks") */
    void (*upgrade)(const corral_type *type, void *ctx, const corral_saved_type *old, const void *old_ctx,
                    void *user);
    void *upgrade_user;
} corral_reload_desc;
CORRAL_API bool corral_reload(corral_sched *sched, const corral_reload_desc *desc);

/* ---------------------------------------------------------------- THREADS */

/* From any thread (API.md, "Threads"): a completion or a raise, queued
   without a lock or an allocation and applied by the owner at the start
   of its next frame (corral_tick / corral_frame_begin), in post order per
   thread; its waiters then resume as if the owner had called
   corral_future_complete / corral_signal_raise there. false: the queue is
   full (retry later), the scheduler is being destroyed, it has no
   corral_part_posts (NO_PART, a misuse: under FATAL validation the posting
   thread prints the words and aborts), or this build has no atomics; the
   reason is this thread's corral_last_error(NULL). A post
   for a future or signal that is gone when it is applied is dropped and
   counted (corral_pool_stats.posts_stale), never applied to another. Every
   other call belongs to the scheduler's own thread. */
CORRAL_API bool corral_future_post(corral_sched *sched, corral_future f, corral_value v);
CORRAL_API bool corral_signal_post(corral_sched *sched, corral_signal sig);

/* ---------------------------------------------------------------- PROFILING */

typedef struct corral_type_stats {
    const char *name;
    uint32_t id;        /* registry id, 0 if unregistered */
    uint32_t budget;    /* registry budget, 0 if none */
    uint32_t ctx_size;  /* bytes asked for by the context */
    uint32_t slot_size; /* bytes of the slot it occupies (0: fits no class) */
    uint32_t class_index;
    uint32_t live, peak;
    uint64_t started;   /* successful starts */
    uint64_t finished;  /* returned CORRAL_STOP (= ended[CORRAL_END_FINISHED]) */
    uint64_t stopped;   /* stopped by handle (= ended[CORRAL_END_STOPPED]) */
    uint64_t ended[CORRAL_END_COUNT]; /* every end by its reason; started =
                                         the sum of ended + live, always */
    uint64_t failed;    /* starts refused (pool, budget, no class) */
    uint32_t padding;   /* slot_size - ctx_size: bytes each coroutine wastes */
    uint64_t padding_bytes; /* live * padding */
    /* with desc.timing (else 0): */
    uint64_t steps;       /* steps run */
    uint64_t steps_timed; /* those timed (one in desc.timing_sample) */
    uint64_t step_ns;     /* the total time of the timed ones */
    uint64_t step_ns_max; /* the longest timed one */
} corral_type_stats;

typedef struct corral_class_stats {
    uint32_t slot_size;
    uint32_t capacity;
    uint32_t used, peak;
    uint32_t retired;   /* slots whose generation wrapped (never reused) */
    uint64_t failures;  /* starts refused because the class was full */
    uint64_t ctx_bytes;     /* bytes asked for by the live contexts in it */
    uint64_t padding_bytes; /* used * slot_size - ctx_bytes */
    char name[24];          /* the pool's name for hooks: "corral 64B" */
} corral_class_stats;

typedef struct corral_arena_stats {
    uint64_t total_bytes;      /* the whole block */
    uint64_t slab_bytes;       /* bytes of all slots (capacity * size) */
    uint64_t slot_bytes;       /* slots in use * slot size */
    uint64_t slot_bytes_peak;
    uint64_t ctx_bytes;        /* bytes asked for by live contexts */
    uint64_t ctx_bytes_peak;
    uint32_t live, live_peak;  /* live coroutines */
    uint64_t frames;           /* frames begun */
    /* with desc.timing (else 0): */
    uint64_t tick_ns_last, tick_ns_max, tick_ns_total; /* corral_tick's time */
} corral_arena_stats;

/* The other pools, for sizing a shipped desc. */
typedef struct corral_pool_stats {
    uint32_t wait_nodes, wait_nodes_peak, wait_nodes_capacity;
    uint32_t group_nodes, group_nodes_peak, group_nodes_capacity;
    uint32_t signals, signals_peak, signals_capacity;
    uint32_t futures, futures_peak, futures_capacity;
    uint64_t wait_failures, group_failures, signal_failures, future_failures; /* refused: pool empty */
    uint32_t posts_capacity;
    uint64_t posts_applied, posts_stale, posts_full; /* cross-thread posts */
    uint32_t channels, channels_peak, channels_capacity;
    uint32_t counters, counters_peak, counters_capacity; /* semaphores and wait groups */
    uint64_t channel_failures, counter_failures;
    uint32_t side_records, side_records_peak, side_records_capacity; /* calls, joins, groups, all/any */
    uint64_t side_failures;
    uint32_t sleepers, sleepers_peak, sleepers_capacity; /* plain sleeps (desc.max_sleepers) */
    uint64_t sleepers_spilled; /* plain sleeps that found max_sleepers sleeping and asked for a wait node */
} corral_pool_stats;

/* The generators alive now, by whom they belong to (API.md,
   "Generators"): a held generator nobody pulls is counted here until it
   ends, is stopped or the scheduler goes. */
typedef struct corral_generator_stats {
    uint32_t live;  /* generators alive (held between pulls, or stepping) */
    uint32_t owned; /* of them, started in a step: each ends with its coroutine */
    uint32_t game;  /* of them, started from plain code: the game's (live - owned) */
} corral_generator_stats;

/* One frame of history (desc.history_frames), written when corral_tick
   ends (or, for engines driving phases, at the next corral_frame_begin). */
#define CORRAL_HISTORY_TYPES 16 /* live counts kept for the first 16 types */
typedef struct corral_frame_sample {
    uint64_t frame;      /* frame count */
    double time;         /* unscaled seconds at the frame's start */
    float dt;            /* its unscaled dt */
    uint32_t live;       /* live coroutines at its end */
    uint32_t steps;      /* steps run in it */
    uint32_t pad;
    uint64_t slot_bytes; /* arena bytes in slots at its end */
    uint64_t tick_start_ns, tick_ns; /* by desc.clock, with timing (else 0) */
    uint32_t class_used[CORRAL_MAX_CLASSES];  /* slots in use per class */
    uint32_t type_live[CORRAL_HISTORY_TYPES]; /* live per type (type table order) */
} corral_frame_sample;

CORRAL_API uint32_t corral_type_count(const corral_sched *sched);
CORRAL_API uint32_t corral_class_count(const corral_sched *sched);
/* Stats of the i-th type of the scheduler's table (registry types first,
   then in order of first start). False if i is out of range. */
CORRAL_API bool corral_stats_type(const corral_sched *sched, uint32_t i, corral_type_stats *out);
/* Stats of one type by its vtable; false if the scheduler never saw it. */
CORRAL_API bool corral_stats_type_of(const corral_sched *sched, const corral_type *type,
                          corral_type_stats *out);
CORRAL_API bool corral_stats_class(const corral_sched *sched, uint32_t i, corral_class_stats *out);
CORRAL_API bool corral_stats_arena(const corral_sched *sched, corral_arena_stats *out);
CORRAL_API bool corral_stats_pools(const corral_sched *sched, corral_pool_stats *out);
CORRAL_API bool corral_stats_generators(const corral_sched *sched, corral_generator_stats *out);

/* Copy up to `max` frames of history, oldest first; returns how many. */
CORRAL_API uint32_t corral_history(const corral_sched *sched, corral_frame_sample *out, uint32_t max);

/* ---- the live inspector */
typedef enum corral_co_state {
    CORRAL_CO_NONE = 0,
    CORRAL_CO_RUNNING,  /* its step is running now */
    CORRAL_CO_QUEUED,   /* will run in the next run of its phase */
    CORRAL_CO_WAITING,  /* on `wait` (or on its child: CORRAL_CO_CALLING) */
    CORRAL_CO_CALLING,  /* awaits the child it called */
    CORRAL_CO_PAUSED,
    CORRAL_CO_STATE_COUNT
} corral_co_state;

/* What a CALLING coroutine awaits. */
typedef enum corral_call_kind {
    CORRAL_CALL_NONE = 0,
    CORRAL_CALL_ONE,  /* one child: CORRAL_CALL, CORRAL_CALL_UNLESS */
    CORRAL_CALL_RACE, /* the first of its arms: CORRAL_RACE */
    CORRAL_CALL_SYNC, /* all its arms: CORRAL_SYNC */
    CORRAL_CALL_KIND_COUNT
} corral_call_kind;

typedef struct corral_co_info {
    const corral_type *type;
    const char *type_name;
    corral_handle handle;
    corral_co_state state;
    corral_wait_kind wait;   /* WAITING: what on (ALL/ANY for several) */
    corral_phase phase;
    uint64_t owner;
    uint32_t tags;
    uint64_t age_frames;     /* frames since it started (desc.timing; 0 without) */
    corral_handle parent;    /* the caller awaiting it, or zero */
    corral_handle child;     /* the child it awaits (a race or sync: its first arm
                                still running), or zero */
    const void *ctx;         /* its context (valid until it ends) */
    corral_call_kind call;   /* CALLING: a call, a race or a sync */
    uint32_t arms;           /* a race or sync: its arms still running */
    const char *file;        /* where it is suspended: its step's source file */
    uint32_t line;           /* and line (0: unknown: a plain step, or not yet suspended) */
    uint32_t domain;         /* its time domain (corral_set_domain) */
    double left;             /* a timer wait: seconds (frames for `frames`) until it
                                is due, the soonest of an all/any; else 0 */
    const char *wait_text;   /* what it waits for, as written (desc.wait_text), or NULL */
} corral_co_info;

/* Iterate live coroutines: start with *cursor = 0; true while one was
   found (in slot order). Do not start or stop coroutines while iterating. */
CORRAL_API bool corral_next_co(const corral_sched *sched, uint32_t *cursor, corral_co_info *out);
CORRAL_API bool corral_co_info_of(const corral_sched *sched, corral_handle h, corral_co_info *out);
CORRAL_API const char *corral_co_state_str(corral_co_state st);
CORRAL_API const char *corral_wait_kind_str(corral_wait_kind k);
/* Where a text or JSON output goes (every corral_*_to function; the
   FILE * forms write the same bytes to a FILE). With `fn`, each piece of
   the text in order (not terminated, at most CORRAL_WRITER_PIECE bytes; a
   piece longer than that, which only a name or wait text of about that
   length makes, is cut), given `user`. Without: into `buf` of `cap`
   bytes, after the `len` already there, cut at its end and always
   terminated. Either way `len` grows by every byte the output has, so
   `len >= cap` after a call means the buffer was too small; a zeroed
   writer only counts. */
typedef struct corral_writer {
    void (*fn)(void *user, const char *text, size_t len);
    void *user;
    char *buf;
    size_t cap;
    size_t len;
} corral_writer;
#define CORRAL_WRITER_PIECE 1024

/* One coroutine and its context fields by name and value (integers,
   floats, bools, pointers; others through desc.field_formatter, else hex). */
CORRAL_API bool corral_print_co(const corral_sched *sched, corral_handle h, FILE *out);
CORRAL_API bool corral_print_co_to(const corral_sched *sched, corral_handle h, corral_writer *out);
/* One context field's value as text, as corral_print_co prints it (the
   formatter of desc.field_formatter for OTHER fields, else hex bytes):
   into buf (cap bytes, always terminated). value: the field's bytes. */
CORRAL_API bool corral_field_text(const corral_sched *sched, const corral_field *field, const void *value, char *buf,
                                  size_t cap);
/* Every live coroutine, as corral_print_co. */
CORRAL_API void corral_dump(const corral_sched *sched, FILE *out);
CORRAL_API void corral_dump_to(const corral_sched *sched, corral_writer *out);
/* The chain h is part of, from its outermost caller down to the innermost
   coroutines (a race's or sync's arms each below it, indented): a line
   each with its type, handle, the source file and line it is suspended
   at, and what it waits for (the wait and its time left, a call, a race).
   The line of h starts with "> ". JSON ("coroutines" of corral_report_json)
   and the Chrome trace ("waiting now") carry the same. */
CORRAL_API bool corral_print_chain(const corral_sched *sched, corral_handle h, FILE *out);
CORRAL_API bool corral_print_chain_to(const corral_sched *sched, corral_handle h, corral_writer *out);

/* ---- exports (PROFILING.md has the schemas) */
/* JSON: arena, pools, classes, types, history. */
CORRAL_API void corral_report_json(const corral_sched *sched, FILE *out);
CORRAL_API void corral_report_json_to(const corral_sched *sched, corral_writer *out);
/* Chrome trace-event JSON (Perfetto, chrome://tracing): counter tracks of
   arena bytes per class and live coroutines per type, a slice per frame of
   history and, with timing and desc.trace_steps, a slice per step. */
CORRAL_API void corral_trace_json(const corral_sched *sched, FILE *out);
CORRAL_API void corral_trace_json_to(const corral_sched *sched, corral_writer *out);
/* SVG chart of arena bytes in use per size class over the frames of
   history (plain SVG, no dependency). */
CORRAL_API void corral_history_svg(const corral_sched *sched, FILE *out);
CORRAL_API void corral_history_svg_to(const corral_sched *sched, corral_writer *out);

/* ---- budgets: profile in development, ship exact pool sizes */
/* Fill `out` with a desc whose capacities are peak * (1 + headroom) (at
   least 1 where anything was used), for every class and pool. Classes
   never used keep their slot size with capacity 0 unless a type needs
   them. Every other field that is not the caller's memory or a function
   is carried over as the scheduler was created with it; those are left
   zero, and the emitted text names them (API.md, "Budgets: the desc to
   ship"). */
CORRAL_API bool corral_budget_desc(const corral_sched *sched, float headroom, corral_sched_desc *out);
/* The same, printed as a ready-to-paste C initializer. */
CORRAL_API void corral_emit_desc(const corral_sched *sched, float headroom, FILE *out);
CORRAL_API void corral_emit_desc_to(const corral_sched *sched, float headroom, corral_writer *out);

/* Check every invariant of the scheduler's state: free lists, slot states,
   counters, lanes, wait nodes, group lists, heaps. True when all hold;
   false reports the first broken one (CORRAL_ERR_CORRUPT, its description
   in the logger's message). O(arena): for tests, fuzzing and debug builds,
   not for every frame of a shipped game. */
CORRAL_API bool corral_verify(const corral_sched *sched);

/* Print the arena, class and type tables as aligned text. */
CORRAL_API void corral_report_text(const corral_sched *sched, FILE *out);
CORRAL_API void corral_report_text_to(const corral_sched *sched, corral_writer *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#include "corral_gen.h"

#endif /* CORRAL_H */
