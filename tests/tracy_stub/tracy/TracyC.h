/*
    A stand-in for Tracy's TracyC.h, for test_tracy.c only: Tracy is not
    packaged by Debian, so the adapter is checked against the part of
    Tracy's C API it uses, declared here with Tracy's names and signatures
    (the macros expand as Tracy's do without callstacks). The test defines
    the functions and records the calls. With the real Tracy on the include
    path, tests/CMakeLists.txt builds the adapter against it instead.
*/
#ifndef CORRAL_TEST_TRACYC_STUB_H
#define CORRAL_TEST_TRACYC_STUB_H
#include <stddef.h>
#include <stdint.h>

struct ___tracy_source_location_data {
    const char *name;
    const char *function;
    const char *file;
    uint32_t line;
    uint32_t color;
};
struct ___tracy_c_zone_context {
    uint32_t id;
    int active;
};
typedef struct ___tracy_c_zone_context TracyCZoneCtx;

TracyCZoneCtx ___tracy_emit_zone_begin(const struct ___tracy_source_location_data *srcloc, int active);
void ___tracy_emit_zone_end(TracyCZoneCtx ctx);
void ___tracy_emit_zone_name(TracyCZoneCtx ctx, const char *txt, size_t size);
void ___tracy_emit_memory_alloc_named(const void *ptr, size_t size, int secure, const char *name);
void ___tracy_emit_memory_free_named(const void *ptr, int secure, const char *name);

#define TracyCZoneN(ctx, name, active)                                                                 \
    static const struct ___tracy_source_location_data ctx##_srcloc = {name, __func__, __FILE__,     \
                                                                       (uint32_t)__LINE__, 0};      \
    TracyCZoneCtx ctx = ___tracy_emit_zone_begin(&ctx##_srcloc, active);
#define TracyCZoneEnd(ctx) ___tracy_emit_zone_end(ctx);
#define TracyCZoneName(ctx, txt, size) ___tracy_emit_zone_name(ctx, txt, size);
#define TracyCAllocN(ptr, size, name) ___tracy_emit_memory_alloc_named(ptr, size, 0, name);
#define TracyCFreeN(ptr, name) ___tracy_emit_memory_free_named(ptr, 0, name);
#endif
