// patrol as C++17: the same recipe, its C++ lines under __cplusplus
// (docs/GUIDE.md, "In C++"). One golden: tests/expected/guide/patrol.txt.
#include "patrol.c"
