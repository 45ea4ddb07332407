/* The implementation defined in a C++ file: one error, which says to
   compile it as C and include the header from C++. */
#define CORRAL_IMPLEMENTATION
#include "corral.h"
