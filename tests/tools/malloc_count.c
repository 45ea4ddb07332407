/*
    malloc_count.c -- LD_PRELOAD interposer: counts malloc/calloc/realloc
    calls of the whole process and writes the count to $MALLOC_COUNT_OUT at
    exit. Uses glibc's __libc_* entry points, so it needs no dlsym.
*/
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static unsigned long g_calls;

void *malloc(size_t n)
{
    g_calls++;
    return __libc_malloc(n);
}
void *calloc(size_t a, size_t b)
{
    g_calls++;
    return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n)
{
    g_calls++;
    return __libc_realloc(p, n);
}
void free(void *p)
{
    __libc_free(p);
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("MALLOC_COUNT_OUT");
    if (!path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%lu\n", g_calls);
    fclose(f);
}
