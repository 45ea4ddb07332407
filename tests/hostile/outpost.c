/* the outpost example (channels with values in flight, a generator mid-way, single-instance doors, a stop deadline) as a hostile game */
#define HG_SOURCE "../../examples/outpost.c"
#define HG_GAME hostile_outpost
#define HG_FRAMES {12, 26}
#define HG_MAIN HG_EXAMPLE_MAIN()
#define HG_SAVES 0
#include "game.inc"
hostile_game hostile_outpost = {"outpost", hg_play, NULL, 0, {{0}}};
