/* the rollback example (fighters racing their moves, signals) as a hostile game */
#define HG_SOURCE "../../examples/rollback.c"
#define HG_GAME hostile_rollback
#define HG_FRAMES {20, 60}
#define HG_MAIN HG_EXAMPLE_MAIN()
#define HG_SAVES 0
#include "game.inc"
hostile_game hostile_rollback = {"rollback", hg_play, NULL, 0, {{0}}};
