/* Must not compile: a context larger than any slot may be
   (CORRAL_MAX_CONTEXT_SIZE). */
#include <corral/corral.h>

typedef struct huge_ctx {
    char bytes[(1u << 20) + 1];
} huge_ctx;
#define TL_FIELDS(F) F(huge_ctx, h)
DECLARE_COROUTINE(too_large, TL_FIELDS)
