/*
    one_header -- the one header's implementation: single/corral.h, found
    as <corral/corral.h>, with the CORRAL_NO_* the build defines (the same
    as tests/link/modules.c's). tools/no_combos.sh and tests/CMakeLists.txt
    compile it.
*/
#define CORRAL_IMPLEMENTATION
#include <corral/corral.h>
