/* Must not compile: an array written as a field's name, whose field
   table entry would lie past the array: the error says it is an array
   and how to declare one. */
#include <corral/corral.h>

typedef struct int3 {
    int v[3];
} int3;
#ifdef CORRAL_CONTROL
#define BAG_FIELDS(F) F(int3, counts) F(float, t)
#else
#define BAG_FIELDS(F) F(int, counts[3]) F(float, t)
#endif
DECLARE_COROUTINE(bag, BAG_FIELDS)
DEFINE_COROUTINE(bag)
{
    (void)ctx;
    return CORRAL_STOP;
}
