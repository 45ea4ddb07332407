/* Must not compile: a context aligned above CORRAL_MAX_ALIGN. */
#include <corral/corral.h>

typedef struct huge_align {
    _Alignas(128) char bytes[128];
} huge_align;
#define H_FIELDS(F) F(huge_align, h)
DECLARE_COROUTINE(hog, H_FIELDS)
