/* The implementation defined after another include, under strict C11: the
   C library has already hidden clock_gettime, and the one error says to
   include corral.h first. CORRAL_CONTROL: included first, it
   compiles. */
#ifdef CORRAL_CONTROL
#define CORRAL_IMPLEMENTATION
#include "corral.h"
#include <stdio.h>
#else
#include <stdio.h>
#define CORRAL_IMPLEMENTATION
#include "corral.h"
#endif
