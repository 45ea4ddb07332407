/*
    corral_port.h -- what the public headers need from the compiler, in one
    place: the export macro, static assertions, alignment, an "unused"
    marker, hiding a declaration without -Wshadow, the pointer test of
    field reflection and the resume value.
    Each has a portable fallback. The library's own specifics (branch
    hints, inlining, prefetch, thread-local storage, atomics, the clock)
    are in src/port.h, which includes this.

    Compilers: GCC, Clang, MSVC (and Clang in MSVC mode), tcc; as C11 and
    C++17 (tcc: its C99 with the C11 keywords it has).
*/
#ifndef CORRAL_PORT_H
#define CORRAL_PORT_H

/* CORRAL_API marks every public function. The library is compiled with
   hidden visibility, so a shared build exports these and nothing else.
   Windows DLLs: define CORRAL_SHARED when building or using the DLL
   (CMake does it for you); the build defines CORRAL_BUILDING too. */
#ifndef CORRAL_API
#if defined(_WIN32) && defined(CORRAL_SHARED)
#ifdef CORRAL_BUILDING
#define CORRAL_API __declspec(dllexport)
#else
#define CORRAL_API __declspec(dllimport)
#endif
#elif (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define CORRAL_API __attribute__((visibility("default")))
#else
#define CORRAL_API
#endif
#endif

#ifdef __cplusplus
#define CORRAL__STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define CORRAL__ALIGNOF(T) alignof(T)
#else
#define CORRAL__STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define CORRAL__ALIGNOF(T) _Alignof(T)
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CORRAL__UNUSED __attribute__((unused))
#else
#define CORRAL__UNUSED
#endif

/* A declaration that hides one of an outer scope on purpose (the marks
   the resume-point macros leave in a body): no -Wshadow for it. Only C++
   warns about a struct tag hiding another. */
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#define CORRAL__HIDE_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wshadow\"")
#define CORRAL__HIDE_END _Pragma("GCC diagnostic pop")
#else
#define CORRAL__HIDE_BEGIN
#define CORRAL__HIDE_END
#endif

/* The generated wrappers that take a context (NAME_start, NAME_call,
   NAME_arm, ...): always inlined where the compiler can be told, so a
   debug build pays no call and no second copy of the context. C takes the
   context by value (the only way to take a compound literal), C++ by
   const reference. GCC on x86-64 notes on every build that passing a
   64-byte-aligned argument by value changed ABI in GCC 4.6; the wrappers
   there use the Microsoft calling convention, which passes such an
   argument by reference, so the rule GCC notes never applies (they are
   always inlined: no call is made either way). */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__TINYC__) && defined(__x86_64__) && \
    !defined(_WIN32) && !defined(__cplusplus)
#define CORRAL__WRAPPER __attribute__((always_inline, unused, ms_abi)) static inline
#elif defined(__GNUC__) || defined(__clang__)
#define CORRAL__WRAPPER __attribute__((always_inline, unused)) static inline
#else
#define CORRAL__WRAPPER static inline
#endif
#ifdef __cplusplus
#define CORRAL__CTX_ARG(T) const T &
#else
#define CORRAL__CTX_ARG(T) T
#endif

/* A hint to fetch the cache line at p for writing (the walk's look-ahead,
   in the library and in each type's run of steps). */
#if defined(__GNUC__) || defined(__clang__)
#define CORRAL__PREFETCH_W(p) __builtin_prefetch((p), 1, 3)
#else
#define CORRAL__PREFETCH_W(p) ((void)(p))
#endif

/* Field reflection in C: whether an lvalue that is none of the arithmetic
   types is a pointer. GCC and Clang can tell (5 is their pointer type
   class); elsewhere such a field shows as OTHER. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__cplusplus)
#define CORRAL__IS_POINTER(lv) (__builtin_classify_type(lv) == 5)
#else
#define CORRAL__IS_POINTER(lv) 0
#endif

/* A resume value, as the resume-point macros store it in corral_co.resume:
   the point's id in the low 16 bits (CORRAL_BEGIN's 0, the named points
   from 1, the unnamed ones from CORRAL__AUTO_POINTS) and the source line
   the coroutine suspends at in the high 16 (0 past line 65535). Only the
   id is a case label: an unnamed id is __COUNTER__, a constant on every
   compiler, where MSVC's Edit and Continue (/ZI) makes the line-number
   macro a variable inside functions; the line is only ever stored, so
   there it is a run-time value and elsewhere a constant folded into the
   store. This is the one place the headers use the line-number macro. */
#define CORRAL__AUTO_POINTS 0x1000u
#define CORRAL__POINT_MASK 0xFFFFu
#define CORRAL__RESUME_ID (__COUNTER__ + CORRAL__AUTO_POINTS)
#define CORRAL__SITE(id) \
    ((uint32_t)(id) | ((uint32_t)__LINE__ <= CORRAL__POINT_MASK ? (uint32_t)__LINE__ << 16 : 0u))

#endif /* CORRAL_PORT_H */
