/*
    corral_imgui.h -- corral's inspector as a Dear ImGui window, drawn
    inside the running game. It reads and drives one scheduler through
    corral's public API only: types and size classes, the arena's bytes in
    slots over the frames of history (desc.history_frames), the live
    coroutines with their fields, what each waits for and the chain it is
    part of; pause, resume and single step of one coroutine; the game's
    time scale and pause.

    Call between ImGui::NewFrame and ImGui::Render, once a frame:
        static corral_imgui_state st;
        corral_imgui_window(sched, &st);
    Build: inspector/CMakeLists.txt (C++17, Dear ImGui).
*/
#ifndef CORRAL_IMGUI_H
#define CORRAL_IMGUI_H

#include <corral/corral.h>

/* what the window keeps between frames: zero it once */
struct corral_imgui_state {
    corral_handle selected; /* the coroutine whose chain is shown, or zero */
    corral_handle expanded; /* a coroutine whose row opens when first shown, or zero */
    char filter[32];        /* list only coroutines whose type name holds it */
};

/* Draw the window titled "corral" for sched. */
void corral_imgui_window(corral_sched *sched, corral_imgui_state *state);

#endif
