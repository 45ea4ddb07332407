/* the savegame example (calls with results, a signal, a future, a paused owner group, seconds) as a hostile game */
#define guard_type savegame_guard_type /* outpost has a guard too */
#define HG_SOURCE "../../examples/savegame.c"
#define HG_GAME hostile_savegame
#define HG_FRAMES {60, 140}
#define HG_MAIN HG_EXAMPLE_MAIN(1, (char *[]){"savegame", NULL})
#define HG_SAVES 1
#include "game.inc"
hostile_game hostile_savegame = {"savegame", hg_play, NULL, 0, {{0}}};
