/*
    criterion_shim/criterion/criterion.h -- the part of Criterion's API the
    tests use, for builds where Criterion cannot run: under
    ThreadSanitizer Criterion aborts at start ("Could not initialize
    inheritable arena", Snaipe/Criterion#274). Each test runs in a child
    process, as with Criterion; a failed assertion prints its message and
    fails that test. Selected with -DCORRAL_CRITERION_SHIM=ON (the tsan
    preset).
*/
#ifndef CORRAL_CRITERION_SHIM_H
#define CORRAL_CRITERION_SHIM_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct shim_opts {
    int dummy_;
    int timeout;
    int signal;
    void (*init)(void);
    void (*fini)(void);
} shim_opts;
typedef struct shim_test {
    const char *suite, *name;
    void (*fn)(void);
    shim_opts opts;
    struct shim_test *next;
} shim_test;
typedef struct shim_suite {
    const char *name;
    shim_opts opts;
    struct shim_suite *next;
} shim_suite;
void shim_register(shim_test *t);
void shim_register_suite(shim_suite *s);
void shim_fail(const char *file, int line, const char *what, const char *fmt, ...);
void shim_log(const char *fmt, ...);

#define Test(suite, name, ...)                                                                     \
    static void suite##_##name(void);                                                              \
    static shim_test suite##_##name##_shim = {#suite, #name, suite##_##name, {.dummy_ = 0, __VA_ARGS__}, 0}; \
    __attribute__((constructor)) static void suite##_##name##_shim_reg(void) { shim_register(&suite##_##name##_shim); } \
    static void suite##_##name(void)
#define TestSuite(suite, ...)                                                                      \
    static shim_suite suite##_shim_suite = {#suite, {.dummy_ = 0, __VA_ARGS__}, 0};                 \
    __attribute__((constructor)) static void suite##_shim_suite_reg(void) { shim_register_suite(&suite##_shim_suite); } \
    extern int suite##_shim_suite_semicolon_

#define SHIM_MSG(...) "" __VA_ARGS__
#define cr_assert(cond, ...) ((cond) ? (void)0 : shim_fail(__FILE__, __LINE__, #cond, SHIM_MSG(__VA_ARGS__)))
#define cr_assert_not(cond, ...) cr_assert(!(cond), __VA_ARGS__)
#define cr_assert_eq(a, b, ...) cr_assert((a) == (b), __VA_ARGS__)
#define cr_assert_neq(a, b, ...) cr_assert((a) != (b), __VA_ARGS__)
#define cr_assert_gt(a, b, ...) cr_assert((a) > (b), __VA_ARGS__)
#define cr_assert_lt(a, b, ...) cr_assert((a) < (b), __VA_ARGS__)
#define cr_assert_geq(a, b, ...) cr_assert((a) >= (b), __VA_ARGS__)
#define cr_assert_leq(a, b, ...) cr_assert((a) <= (b), __VA_ARGS__)
#define cr_assert_null(p, ...) cr_assert((p) == NULL, __VA_ARGS__)
#define cr_assert_not_null(p, ...) cr_assert((p) != NULL, __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...) cr_assert(strcmp((a), (b)) == 0, __VA_ARGS__)
#define cr_assert_str_neq(a, b, ...) cr_assert(strcmp((a), (b)) != 0, __VA_ARGS__)
#define cr_assert_str_empty(a, ...) cr_assert((a)[0] == '\0', __VA_ARGS__)
#define cr_assert_float_eq(a, b, eps, ...) cr_assert(fabs((double)(a) - (double)(b)) <= (double)(eps), __VA_ARGS__)
#define cr_assert_fail(...) shim_fail(__FILE__, __LINE__, "cr_assert_fail", SHIM_MSG(__VA_ARGS__))
#define cr_log_info(...) shim_log(__VA_ARGS__)

#endif
