/* Stand-in for <stdlib.h> in tools/msvc_check.sh (see intrin.h here): the
   MinGW header it would otherwise take does not parse as MSVC. */
#pragma once
#include <stddef.h>
__declspec(noreturn) void abort(void);
__declspec(noreturn) void exit(int code);
void *malloc(size_t size);
void free(void *ptr);
long strtol(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
