/*
    corral_gen.h -- the X-macro generator behind DECLARE_COROUTINE and
    DEFINE_COROUTINE. Included once by corral.h (include guard).

    A FIELDS list takes its X as a parameter, one F(type, name) per field:

        #define MOVER_FIELDS(F) F(entity_id, entity) F(float, elapsed)

    DECLARE_COROUTINE(NAME, FIELDS)      in a header; generates
        NAME_ctx                         the context struct (the "locals")
        NAME_type                        extern const corral_type (vtable)
        NAME_start(sched, NAME_ctx)      typed start: another context type
                                         is a compile error
        NAME_start_ex(sched, ctx, &opts) the same with start options (phase)
        NAME_start_n(sched, ctxs, n, out) n of them from an array of contexts
        NAME_call(co, ctx)               call it from a step (CORRAL_CALL)
        NAME_arm(co, ctx)                an arm of CORRAL_RACE / CORRAL_SYNC
        NAME_ctx_of(sched, handle)       the live coroutine's context, or
                                         NULL (dead handle, other type)
        NAME__fields(&count)             the field table (name, type text,
                                         offset, size, kind)
    DECLARE_COROUTINE_R(NAME, FIELDS, T) the same, with a result of type T: the
                                         context ends with `T result;` and
                                         NAME_call(co, ctx, T *dest) calls it
                                         (NAME_arm(co, ctx, T *dest) likewise);
                                         NAME_gen(sched, ctx) makes it a generator
                                         (NAME_gen_ex(sched, ctx, &opts): owner, tags),
                                         NAME_next(sched, h, T *out) pulls its next value,
                                         NAME_take(sched, h, T *out) the same, saying
                                         what came (corral_got)
    DEFINE_COROUTINE(NAME) { body }      in one .c file: the step body; it
                                         sees `co` (corral_co *) and `ctx`
                                         (NAME_ctx *) and returns
                                         CORRAL_YIELD or CORRAL_STOP
    DEFINE_COROUTINE_CLEANUP(NAME, fn) { body }
                                         the same, with a cleanup hook
                                         `void fn(NAME_ctx *, corral_end_reason)`
                                         that runs exactly once per coroutine
                                         that ends, whatever ended it
    DEFINE_COROUTINE_AT(NAME, POINTS) { body }
    DEFINE_COROUTINE_CLEANUP_AT(NAME, fn, POINTS) { body }
                                         the same with named resume points:
                                         POINTS(P) lists P(name) per point;
                                         the body opens with
                                         CORRAL_BEGIN_AT(co, POINTS)

    A registry list gives each type a stable id and a budget (0 = none):

        #define GAME_COROUTINES(X) X(mover, 1, 256) X(spawner, 2, 4)
        CORRAL_DECLARE_REGISTRY(game, GAME_COROUTINES)  in a header: enum
            of ids (mover_type_id = 1, ...), game_type_count,
            union game_any_ctx (its size sizes the largest context),
            extern const corral_registry game_registry
        CORRAL_DEFINE_REGISTRY(game, GAME_COROUTINES)   in one .c file

    Then `corral_sched_desc.registry = &game_registry`.
*/
#ifndef CORRAL_GEN_H
#define CORRAL_GEN_H

#ifdef __cplusplus
#include <type_traits>
#define CORRAL__EXTERN extern "C"
#else
#define CORRAL__EXTERN extern
#endif

/* Where the context starts in its slot: after the 16-byte header, or at the
   context's own alignment when that is larger. */
#define CORRAL__CTX_OFFSET(T) \
    ((uint32_t)(CORRAL__ALIGNOF(T) > 16u ? CORRAL__ALIGNOF(T) : 16u))

/* ---- field kind, for reflection: by the field's type, however it is
        spelled (a typedef of corral_handle is a HANDLE) */
#ifdef __cplusplus
template <typename T>
constexpr corral_field_kind corral__kind_of()
{
    return std::is_same<T, bool>::value             ? CORRAL_FIELD_BOOL
           : std::is_pointer<T>::value              ? CORRAL_FIELD_POINTER
           : std::is_floating_point<T>::value       ? CORRAL_FIELD_FLOAT
           : std::is_integral<T>::value             ? (std::is_signed<T>::value ? CORRAL_FIELD_INT
                                                                                : CORRAL_FIELD_UINT)
           : std::is_enum<T>::value                 ? CORRAL_FIELD_INT
           : std::is_same<T, corral_handle>::value    ? CORRAL_FIELD_HANDLE
           : std::is_same<T, corral_signal>::value    ? CORRAL_FIELD_SIGNAL
           : std::is_same<T, corral_future>::value    ? CORRAL_FIELD_FUTURE
           : std::is_same<T, corral_channel>::value   ? CORRAL_FIELD_CHANNEL
           : std::is_same<T, corral_semaphore>::value ? CORRAL_FIELD_SEMAPHORE
           : std::is_same<T, corral_waitgroup>::value ? CORRAL_FIELD_WAITGROUP
                                                    : CORRAL_FIELD_OTHER;
}
#define CORRAL__FIELD_KIND(lv) \
    corral__kind_of<std::remove_cv<std::remove_reference<decltype(lv)>::type>::type>()
#else
#define CORRAL__OTHER_KIND(lv) (CORRAL__IS_POINTER(lv) ? CORRAL_FIELD_POINTER : CORRAL_FIELD_OTHER)
#define CORRAL__FIELD_KIND(lv)                                  \
    _Generic((lv),                                              \
        _Bool: CORRAL_FIELD_BOOL,                               \
        char: ((char)-1 < 0 ? CORRAL_FIELD_INT : CORRAL_FIELD_UINT), \
        signed char: CORRAL_FIELD_INT,                          \
        short: CORRAL_FIELD_INT,                                \
        int: CORRAL_FIELD_INT,                                  \
        long: CORRAL_FIELD_INT,                                 \
        long long: CORRAL_FIELD_INT,                            \
        unsigned char: CORRAL_FIELD_UINT,                       \
        unsigned short: CORRAL_FIELD_UINT,                      \
        unsigned int: CORRAL_FIELD_UINT,                        \
        unsigned long: CORRAL_FIELD_UINT,                       \
        unsigned long long: CORRAL_FIELD_UINT,                  \
        float: CORRAL_FIELD_FLOAT,                              \
        double: CORRAL_FIELD_FLOAT,                             \
        corral_handle: CORRAL_FIELD_HANDLE,                     \
        corral_signal: CORRAL_FIELD_SIGNAL,                     \
        corral_future: CORRAL_FIELD_FUTURE,                     \
        corral_channel: CORRAL_FIELD_CHANNEL,                   \
        corral_semaphore: CORRAL_FIELD_SEMAPHORE,               \
        corral_waitgroup: CORRAL_FIELD_WAITGROUP,               \
        default: CORRAL__OTHER_KIND(lv))
#endif

/* ---- projections of a FIELDS list */
#define CORRAL__GEN_MEMBER(type, name) type name;
#define CORRAL__GEN_FIELD(type, name)                                   \
    {#name, #type, (uint32_t)offsetof(corral__self_ctx, name),          \
     (uint32_t)sizeof(((corral__self_ctx *)0)->name),                   \
     CORRAL__FIELD_KIND(((corral__self_ctx *)0)->name)},

/* An array written as a field's name, F(int, arr[3]), would give the
   field table one element past the array: refused by name. Each field
   alone in a struct is as large as its type; F(int, arr[3]) makes that an
   array of 3 such structs, whose element is larger than an int. (A
   1-element array is as large as its element and is not caught.) */
#define CORRAL__GEN_ALONE(type, name) struct { type name; } corral__alone_##name;
#define CORRAL__GEN_NOT_ARRAY(type, name)                                                                  \
    CORRAL__STATIC_ASSERT(sizeof(((struct corral__alone *)0)->corral__alone_##name) == sizeof(type),       \
                          "corral: the field '" #name "' is an array: F(type, name) declares one value; "  \
                          "wrap the array in a struct (typedef struct { " #type " v[N]; } its_name;) and " \
                          "declare F(its_name, field): the field table, the inspector and saves take it whole");

#define CORRAL__DECLARE_COMMON(name, FIELDS)                                              \
    CORRAL__STATIC_ASSERT(CORRAL__ALIGNOF(name##_ctx) <= CORRAL_MAX_ALIGN,                \
                          "corral: the context of coroutine '" #name                      \
                          "' needs an alignment above CORRAL_MAX_ALIGN (64)");            \
    CORRAL__STATIC_ASSERT(sizeof(name##_ctx) <= CORRAL_MAX_CONTEXT_SIZE,                  \
                          "corral: the context of coroutine '" #name                      \
                          "' is larger than CORRAL_MAX_CONTEXT_SIZE");                    \
    CORRAL__EXTERN const corral_type name##_type;                                         \
    CORRAL__UNUSED static inline const corral_field *name##__fields(uint32_t *count)      \
    {                                                                                     \
        typedef name##_ctx corral__self_ctx;                                              \
        struct corral__alone { FIELDS(CORRAL__GEN_ALONE) };                               \
        FIELDS(CORRAL__GEN_NOT_ARRAY)                                                     \
        static const corral_field table[] = {FIELDS(CORRAL__GEN_FIELD)};                  \
        if (count) *count = (uint32_t)(sizeof table / sizeof table[0]);                   \
        return table;                                                                     \
    }                                                                                     \
    CORRAL__WRAPPER corral_handle name##_start(corral_sched *sched,         \
                                                            CORRAL__CTX_ARG(name##_ctx) ctx)               \
    {                                                                                     \
        return corral_start(sched, &name##_type, &ctx, sizeof ctx);                       \
    }                                                                                     \
    CORRAL__UNUSED static inline size_t name##_start_n(corral_sched *sched,              \
                                                       const name##_ctx *ctxs, size_t n,  \
                                                       corral_handle *out)                \
    {                                                                                     \
        return corral_start_n(sched, &name##_type, ctxs, sizeof *ctxs, n, out);           \
    }                                                                                     \
    CORRAL__WRAPPER corral_handle name##_start_ex(                          \
        corral_sched *sched, CORRAL__CTX_ARG(name##_ctx) ctx, const corral_start_desc *opts)               \
    {                                                                                     \
        return corral_start_ex(sched, &name##_type, &ctx, sizeof ctx, opts);              \
    }                                                                                     \
    CORRAL__UNUSED static inline name##_ctx *name##_ctx_of(corral_sched *sched,          \
                                                          corral_handle h)               \
    {                                                                                     \
        return (name##_ctx *)corral_context(sched, h, &name##_type);                      \
    }

#define CORRAL__GEN_FIELD_COUNT(type, name) +1
#define DECLARE_COROUTINE(name, FIELDS)                                                   \
    CORRAL__STATIC_ASSERT((0 FIELDS(CORRAL__GEN_FIELD_COUNT)) > 0,                        \
                          "corral: the FIELDS list of coroutine '" #name                  \
                          "' is empty: a context needs at least one F(type, name)");      \
    typedef struct name##_ctx {                                                           \
        FIELDS(CORRAL__GEN_MEMBER)                                                        \
    } name##_ctx;                                                                         \
    enum { name##__result_off = 0, name##__result_size = 0 };                             \
    CORRAL__DECLARE_COMMON(name, FIELDS)                                                  \
    CORRAL__WRAPPER bool name##_call(corral_co *co, CORRAL__CTX_ARG(name##_ctx) ctx)          \
    {                                                                                     \
        return corral_call(co, &name##_type, &ctx, sizeof ctx, NULL, 0);                  \
    }                                                                                     \
    CORRAL__WRAPPER bool name##_call_unless(corral_co *co, corral_wait stop, \
                                                         CORRAL__CTX_ARG(name##_ctx) ctx)                  \
    {                                                                                     \
        return corral_call_unless(co, stop, &name##_type, &ctx, sizeof ctx, NULL, 0);     \
    }                                                                                     \
    CORRAL__WRAPPER bool name##_arm(corral_co *co, CORRAL__CTX_ARG(name##_ctx) ctx)           \
    {                                                                                     \
        return corral_arm(co, &name##_type, &ctx, sizeof ctx, NULL, 0);                   \
    }

/* The same with a result: the context gets a last member `result` the
   coroutine sets before it stops; NAME_call takes where to copy it. */
#define DECLARE_COROUTINE_R(name, FIELDS, result_type)                                    \
    typedef struct name##_ctx {                                                           \
        FIELDS(CORRAL__GEN_MEMBER)                                                        \
        result_type result;                                                               \
    } name##_ctx;                                                                         \
    enum {                                                                                \
        name##__result_off = offsetof(name##_ctx, result),                                \
        name##__result_size = sizeof(result_type)                                         \
    };                                                                                    \
    CORRAL__DECLARE_COMMON(name, FIELDS)                                                  \
    CORRAL__WRAPPER bool name##_call(corral_co *co, CORRAL__CTX_ARG(name##_ctx) ctx,          \
                                                  result_type *dest)                      \
    {                                                                                     \
        return corral_call(co, &name##_type, &ctx, sizeof ctx, dest, sizeof *dest);       \
    }                                                                                     \
    CORRAL__WRAPPER bool name##_call_unless(corral_co *co, corral_wait stop, \
                                                         CORRAL__CTX_ARG(name##_ctx) ctx, result_type *dest) \
    {                                                                                     \
        return corral_call_unless(co, stop, &name##_type, &ctx, sizeof ctx, dest,         \
                                  sizeof *dest);                                          \
    }                                                                                     \
    CORRAL__WRAPPER bool name##_arm(corral_co *co, CORRAL__CTX_ARG(name##_ctx) ctx,           \
                                                 result_type *dest)                       \
    {                                                                                     \
        return corral_arm(co, &name##_type, &ctx, sizeof ctx, dest, sizeof *dest);        \
    }                                                                                     \
    CORRAL__WRAPPER corral_handle name##_gen(corral_sched *sched,            \
                                                          CORRAL__CTX_ARG(name##_ctx) ctx)                 \
    {                                                                                     \
        return corral_generator_start(sched, &name##_type, &ctx, sizeof ctx);             \
    }                                                                                     \
    CORRAL__WRAPPER corral_handle name##_gen_ex(corral_sched *sched,                      \
                                                CORRAL__CTX_ARG(name##_ctx) ctx,          \
                                                const corral_start_desc *opts)            \
    {                                                                                     \
        return corral_generator_start_ex(sched, &name##_type, &ctx, sizeof ctx, opts);    \
    }                                                                                     \
    CORRAL__UNUSED static inline bool name##_next(corral_sched *sched, corral_handle h,   \
                                                  result_type *out)                       \
    {                                                                                     \
        return corral_generator_next(sched, h, out, sizeof *out);                         \
    }                                                                                     \
    CORRAL__UNUSED static inline corral_got name##_take(corral_sched *sched, corral_handle h, \
                                                        result_type *out)                 \
    {                                                                                     \
        return corral_generator_take(sched, h, out, sizeof *out);                         \
    }

/* The step wrapper turns the header pointer into the typed context at a
   compile-time offset, so the body is a plain static function the compiler
   can inline into it. */
/* ---- projections of a POINTS list P(name): named resume points. The
   type's points are the members of `struct NAME_points`, each an array one
   longer than the one before, so a point's id is its place in the list
   (1, 2 ...) and a name not on the list is the compiler's "no member
   named 'pt' in struct NAME_points" (CORRAL__POINT_ID). */
#define CORRAL__GEN_POINT_MEMBER(pt) char pt[__COUNTER__ + 1];
#define CORRAL__GEN_POINT_NAME(pt) #pt,
#define CORRAL__GEN_POINT_COUNT(pt) +1

/* co_qual: empty for a body with unnamed waits, `const` for one with named
   points (corral_co *const co), which CORRAL_BEGIN and CORRAL_BEGIN_AT
   tell apart at compile time. */
/* A body with named points takes a third parameter, corral__points, whose
   members the _AT waits read their point ids from (its size); a body
   without has none, so that nothing in it goes unused. */
#define CORRAL__POINTS_PARAM(name) , const struct name##_points *corral__points CORRAL__UNUSED
#define CORRAL__POINTS_ARG() , NULL
#define CORRAL__NO_POINTS_PARAM(name)
#define CORRAL__NO_POINTS_ARG()
#define CORRAL__DEFINE(name, cleanup_fn, point_names, npoints, co_qual, points_param, points_arg) \
    struct name##_points;                                                                \
    static corral_result name##__body(corral_co *co_qual co,                             \
                                      name##_ctx *ctx points_param(name));               \
    static corral_result name##__step(corral_co *co)                                     \
    {                                                                                    \
        return name##__body(co, (name##_ctx *)(void *)((unsigned char *)co +             \
                                                       CORRAL__CTX_OFFSET(name##_ctx))   \
                                    points_arg());                                       \
    }                                                                                    \
    static const uint32_t *name##__run(unsigned char *base, const uint32_t *at, const uint32_t *stop, \
                                       uint32_t type, uint32_t expect, uint32_t *running, int *result) \
    {                                                                                    \
        for (; at != stop; at++) {                                                       \
            const uint32_t off = *at;                                                    \
            CORRAL__PREFETCH_W(base + at[CORRAL__RUN_AHEAD]);                            \
            if (off == CORRAL__RUN_HOLE) break;                                          \
            corral_co *const run_co = (corral_co *)(void *)(base + off);                 \
            if (run_co->type != type) break;                                             \
            *running = off;                                                              \
            const corral_result r = name##__step(run_co);                                \
            if (((uint32_t)r | (corral__run_state(run_co) ^ expect)) != 0) {             \
                *result = (int)r;                                                        \
                return at;                                                               \
            }                                                                            \
        }                                                                                \
        *result = -1;                                                                    \
        return at;                                                                       \
    }                                                                                    \
    const corral_type name##_type = {#name,                                              \
                                     name##__step,                                       \
                                     cleanup_fn,                                         \
                                     name##__fields,                                     \
                                     (uint32_t)sizeof(name##_ctx),                       \
                                     (uint32_t)CORRAL__ALIGNOF(name##_ctx),              \
                                     CORRAL__CTX_OFFSET(name##_ctx),                     \
                                     (uint32_t)name##__result_off,                       \
                                     (uint32_t)name##__result_size,                      \
                                     point_names,                                        \
                                     (uint32_t)(npoints),                                \
                                     __FILE__,                                           \
                                     name##__run};                                       \
    static corral_result name##__body(corral_co *co_qual co CORRAL__UNUSED,              \
                                      name##_ctx *ctx CORRAL__UNUSED points_param(name))

#define DEFINE_COROUTINE(name) CORRAL__DEFINE(name, NULL, NULL, 0, , CORRAL__NO_POINTS_PARAM, CORRAL__NO_POINTS_ARG)

#define DEFINE_COROUTINE_CLEANUP(name, fn)                                \
    static void name##__cleanup(void *ctx, corral_end_reason why)         \
    {                                                                     \
        fn((name##_ctx *)ctx, why);                                       \
    }                                                                     \
    CORRAL__DEFINE(name, name##__cleanup, NULL, 0, , CORRAL__NO_POINTS_PARAM, CORRAL__NO_POINTS_ARG)

/* The same with named resume points POINTS(P), P(name) each; the body
   opens with CORRAL_BEGIN_AT(co, POINTS) and waits with the _AT macros. */
#define CORRAL__DEFINE_POINTS(name, POINTS)                                              \
    struct name##_points { char corral__start_[__COUNTER__ + 1]; POINTS(CORRAL__GEN_POINT_MEMBER) }; \
    CORRAL__STATIC_ASSERT((0 POINTS(CORRAL__GEN_POINT_COUNT)) < CORRAL__AUTO_POINTS,       \
                          "corral: coroutine '" #name "' has too many named points");    \
    static const char *const name##__point_names[] = {POINTS(CORRAL__GEN_POINT_NAME)};
#define DEFINE_COROUTINE_AT(name, POINTS)                                                \
    CORRAL__DEFINE_POINTS(name, POINTS)                                                  \
    CORRAL__DEFINE(name, NULL, name##__point_names, 0 POINTS(CORRAL__GEN_POINT_COUNT), const, CORRAL__POINTS_PARAM, \
                   CORRAL__POINTS_ARG)

#define DEFINE_COROUTINE_CLEANUP_AT(name, fn, POINTS)                                    \
    CORRAL__DEFINE_POINTS(name, POINTS)                                                  \
    static void name##__cleanup(void *ctx, corral_end_reason why)                        \
    {                                                                                    \
        fn((name##_ctx *)ctx, why);                                                      \
    }                                                                                    \
    CORRAL__DEFINE(name, name##__cleanup, name##__point_names, 0 POINTS(CORRAL__GEN_POINT_COUNT), const, \
                   CORRAL__POINTS_PARAM, CORRAL__POINTS_ARG)

/* ---- typed channels: CORRAL_DECLARE_CHANNEL(name, T) gives
        name_channel                       a channel of T (wraps corral_channel)
        name_channel_create(sched)         corral_channel_create with sizeof(T)
        name_send(c, T *v) / name_receive(c, T *v)   the waits (CORRAL_AWAIT)
        name_try_send(sched, c, const T *v) / name_try_receive(sched, c, T *out)
        name_take(sched, c, T *out)        corral_channel_take
   so that a value of another type does not compile (C++; C with
   -Werror=incompatible-pointer-types). */
#define CORRAL_DECLARE_CHANNEL(name, T)                                                     \
    typedef struct name##_channel {                                                         \
        corral_channel ch;                                                                  \
    } name##_channel;                                                                       \
    CORRAL__UNUSED static inline name##_channel name##_channel_create(corral_sched *sched)  \
    {                                                                                       \
        name##_channel c;                                                                   \
        c.ch = corral_channel_create(sched, (uint32_t)sizeof(T));                           \
        return c;                                                                           \
    }                                                                                       \
    CORRAL__UNUSED static inline corral_wait name##_send(name##_channel c, T *v)            \
    {                                                                                       \
        return corral_wait_send(c.ch, v, (uint32_t)sizeof *v);                              \
    }                                                                                       \
    CORRAL__UNUSED static inline corral_wait name##_receive(name##_channel c, T *v)         \
    {                                                                                       \
        return corral_wait_receive(c.ch, v, (uint32_t)sizeof *v);                           \
    }                                                                                       \
    CORRAL__UNUSED static inline bool name##_try_send(corral_sched *sched, name##_channel c, \
                                                      const T *v)                           \
    {                                                                                       \
        return corral_channel_try_send(sched, c.ch, v, sizeof *v);                          \
    }                                                                                       \
    CORRAL__UNUSED static inline bool name##_try_receive(corral_sched *sched,               \
                                                         name##_channel c, T *out)          \
    {                                                                                       \
        return corral_channel_try_receive(sched, c.ch, out, sizeof *out);                   \
    }                                                                                       \
    CORRAL__UNUSED static inline corral_got name##_take(corral_sched *sched,                \
                                                        name##_channel c, T *out)           \
    {                                                                                       \
        return corral_channel_take(sched, c.ch, out, sizeof *out);                          \
    }

/* ---- projections of a registry list X(name, id, budget) */
#define CORRAL__GEN_REG_ID(name, id, budget) name##_type_id = (id),
#define CORRAL__GEN_REG_COUNT(name, id, budget) +1
#define CORRAL__GEN_REG_UNION(name, id, budget) name##_ctx name;
#define CORRAL__GEN_REG_CASE(name, id, budget) \
    case (id):                                 \
        return (id);
#define CORRAL__GEN_REG_NONZERO(name, id, budget) \
    CORRAL__STATIC_ASSERT((id) > 0, "corral: registry id of '" #name "' must be > 0");
#define CORRAL__GEN_REG_TYPE(name, id, budget) &name##_type,
#define CORRAL__GEN_REG_IDV(name, id, budget) (uint32_t)(id),
#define CORRAL__GEN_REG_BUDGET(name, id, budget) (uint32_t)(budget),

#define CORRAL_DECLARE_REGISTRY(reg, LIST)                                         \
    enum reg##_type_ids { LIST(CORRAL__GEN_REG_ID) };                              \
    enum { reg##_type_count = 0 LIST(CORRAL__GEN_REG_COUNT) };                     \
    typedef union reg##_any_ctx {                                                  \
        LIST(CORRAL__GEN_REG_UNION)                                                \
    } reg##_any_ctx;                                                               \
    LIST(CORRAL__GEN_REG_NONZERO)                                                  \
    /* duplicate ids fail here as "duplicate case value" */                        \
    CORRAL__UNUSED static inline int reg##__registry_ids_are_unique(int id)        \
    {                                                                              \
        switch (id) {                                                              \
            LIST(CORRAL__GEN_REG_CASE)                                             \
        default:                                                                   \
            return 0;                                                              \
        }                                                                          \
    }                                                                              \
    CORRAL__EXTERN const corral_registry reg##_registry;

#define CORRAL_DEFINE_REGISTRY(reg, LIST)                                               \
    static const corral_type *const reg##__types[] = {LIST(CORRAL__GEN_REG_TYPE)};      \
    static const uint32_t reg##__ids[] = {LIST(CORRAL__GEN_REG_IDV)};                   \
    static const uint32_t reg##__budgets[] = {LIST(CORRAL__GEN_REG_BUDGET)};            \
    const corral_registry reg##_registry = {#reg, reg##__types, reg##__ids,             \
                                            reg##__budgets, (uint32_t)reg##_type_count}

#endif /* CORRAL_GEN_H */
