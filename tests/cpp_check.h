/*
    cpp_check.h -- the plain check of the C++ test programs (no Criterion):
    CHECK(c) prints the file, line and expression and exits non-zero.
*/
#ifndef CORRAL_TESTS_CPP_CHECK_H
#define CORRAL_TESTS_CPP_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(c)                                                                 \
    do {                                                                         \
        if (!(c)) {                                                              \
            std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #c); \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

#endif
