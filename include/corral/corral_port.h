/*
    corral_port.h -- what the public headers need from the compiler, in one
    place: the export macro, static assertions, alignment, an "unused"
    marker, the pointer test of field reflection and the resume-point id.
    Each has a portable fallback. The library's own specifics (branch
    hints, inlining, prefetch, thread-local storage, atomics, the clock)
    are in src/corral_port_impl.h, which includes this.

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

/* Field reflection in C: whether an lvalue that is none of the arithmetic
   types is a pointer. GCC and Clang can tell (5 is their pointer type
   class); elsewhere such a field shows as OTHER. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__cplusplus)
#define CORRAL__IS_POINTER(lv) (__builtin_classify_type(lv) == 5)
#else
#define CORRAL__IS_POINTER(lv) 0
#endif

/* An unnamed resume point's id: unique within its translation unit, a
   constant expression on every compiler (MSVC's Edit and Continue, /ZI,
   makes the line-number macro a variable; __COUNTER__ stays a constant). From 0x10000:
   below are CORRAL_BEGIN's 0 and the named points (CORRAL_BEGIN_AT). */
#define CORRAL__AUTO_POINTS 0x10000u
#define CORRAL__RESUME_ID (__COUNTER__ + CORRAL__AUTO_POINTS)

#endif /* CORRAL_PORT_H */
