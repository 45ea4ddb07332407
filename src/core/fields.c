/*
    fields.c -- a context's fields between two builds of its type: which
    field of the new build a field of the old one goes into (by name) and
    whether its value fits there (the same kind; integers and floats may
    widen; a type of its own keeps its type's name), and the copy that
    widens it; and that a type keeps its name under its registry id. A
    save game's load and a hot reload share the rule.
*/
#include "../corral_internal.h"

#include <string.h>

bool corral__str_is(const char *p, uint32_t len, const char *z)
{
    return p && z && strlen(z) == len && memcmp(p, z, len) == 0;
}

bool corral__type_follows(const corral_type *nv, const char *name, uint32_t len)
{
    return corral__str_is(name, len, nv->name);
}

const corral_field *corral__field_named(const corral_type *vt, const char *name, uint32_t len)
{
    uint32_t n = 0;
    const corral_field *f = vt->fields ? vt->fields(&n) : NULL;
    for (uint32_t i = 0; f && i < n; i++)
        if (corral__str_is(name, len, f[i].name)) return &f[i];
    return NULL;
}

bool corral__field_fits(const corral_field *f, uint8_t kind, uint32_t size, const char *type, uint32_t tlen)
{
    if (f->kind != kind) /* saves of version 2 and before knew handles only by their type's name */
        return kind == CORRAL_FIELD_OTHER && f->kind >= CORRAL_FIELD_HANDLE && size == f->size &&
               corral__str_is(type, tlen, f->type_name);
    switch ((corral_field_kind)kind) {
    case CORRAL_FIELD_INT:
    case CORRAL_FIELD_UINT: return size >= 1 && size <= f->size && f->size <= 8;
    case CORRAL_FIELD_FLOAT: return (size == 4 || size == 8) && (f->size == 4 || f->size == 8) && size <= f->size;
    case CORRAL_FIELD_BOOL: return size == f->size;
    case CORRAL_FIELD_POINTER: return false;
    case CORRAL_FIELD_HANDLE:
    case CORRAL_FIELD_SIGNAL:
    case CORRAL_FIELD_FUTURE:
    case CORRAL_FIELD_CHANNEL:
    case CORRAL_FIELD_SEMAPHORE:
    case CORRAL_FIELD_WAITGROUP: return size == f->size;
    case CORRAL_FIELD_OTHER:
    case CORRAL_FIELD_KIND_COUNT: break;
    }
    return size == f->size && corral__str_is(type, tlen, f->type_name);
}

void corral__field_copy(unsigned char *dst, const corral_field *f, const unsigned char *src, uint8_t kind, uint32_t size)
{
    if (kind == CORRAL_FIELD_INT || kind == CORRAL_FIELD_UINT) {
        uint64_t v = 0;
        for (uint32_t i = 0; i < size; i++) v |= (uint64_t)src[i] << (8 * i);
        if (kind == CORRAL_FIELD_INT && size < 8 && (v >> (8 * size - 1)) & 1u) v |= ~0ull << (8 * size);
        for (uint32_t i = 0; i < f->size; i++) dst[f->offset + i] = (unsigned char)(v >> (8 * i));
    } else if (kind == CORRAL_FIELD_FLOAT && size == 4 && f->size == 8) {
        float x;
        memcpy(&x, src, 4);
        double d = (double)x;
        memcpy(dst + f->offset, &d, 8);
    } else {
        memcpy(dst + f->offset, src, size);
    }
}
