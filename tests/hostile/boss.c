/* the boss example (races, time domains, a paused domain, a signal) as a hostile game */
#define HG_SOURCE "../../examples/boss.c"
#define HG_GAME hostile_boss
#define HG_FRAMES {25, 32}
#define HG_MAIN HG_EXAMPLE_MAIN()
#define HG_SAVES 0
#include "game.inc"
hostile_game hostile_boss = {"boss", hg_play, NULL, 0, {{0}}};
