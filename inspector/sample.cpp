/*
    sample.cpp -- the inspector inside a running game: an SDL2 window with
    OpenGL 3, Dear ImGui, a scheduler whose spawner starts walkers that
    cross the screen in steps of a second, and the corral window beside
    them.

        corral_imgui_sample [--frames N] [--shot FILE.png] [--check]

    --frames N    run N frames of 1/60 s, then exit (else until closed)
    --shot FILE   save the last frame as a PNG
    --check       after the last frame, exit non-zero unless ImGui's draw
                  lists of that frame hold a type's name and the live count
                  read from the library ("live N"), and the frame is not
                  blank (CI runs it under Xvfb with Mesa's software OpenGL);
                  with CORRAL_IMGUI_DUMP set, the text it read goes to stderr
*/
#include "corral_imgui.h"

#include <SDL.h>
#include <SDL_opengl.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>
#include <stb/stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

/* ---- the game: walkers and a spawner */

#define WALKER_FIELDS(F) F(float, x) F(float, y) F(float, speed) F(int, legs)
DECLARE_COROUTINE(walker, WALKER_FIELDS)
DEFINE_COROUTINE(walker)
{
    CORRAL_BEGIN(co);
    for (ctx->legs = 0; ctx->legs < 6; ctx->legs++) {
        ctx->x += ctx->speed;
        CORRAL_WAIT_SECONDS(co, 1.0f);
    }
    CORRAL_END(co);
}

#define SPAWNER_FIELDS(F) F(int, started) F(int, wave)
DECLARE_COROUTINE(spawner, SPAWNER_FIELDS)
DEFINE_COROUTINE(spawner)
{
    CORRAL_BEGIN(co);
    for (ctx->wave = 0; ctx->wave < 1000; ctx->wave++) {
        for (int i = 0; i < 4; i++) {
            walker_start(corral_sched_of(co), walker_ctx{40.0f, 120.0f + 50.0f * (float)i, 60.0f + 10.0f * (float)i, 0});
            ctx->started++;
        }
        CORRAL_WAIT_SECONDS(co, 1.5f);
    }
    CORRAL_END(co);
}

/* ---- what --check reads back: the text of the frame's draw lists, from
   the glyph quads (each glyph's texture rectangle names its character) */
static std::string drawn_text(const ImDrawData *dd, const ImFont *font)
{
    std::string out;
    for (int l = 0; l < dd->CmdListsCount; l++) {
        const ImDrawList *dl = dd->CmdLists[l];
        const ImDrawVert *v = dl->VtxBuffer.Data;
        int n = dl->VtxBuffer.Size;
        float last_x = -1e9f, last_y = -1e9f;
        for (int i = 0; i + 3 < n; i++) {
            const ImFontGlyph *hit = nullptr;
            for (const ImFontGlyph &g : font->Glyphs) {
                if (g.Visible && v[i].uv.x == g.U0 && v[i].uv.y == g.V0 && v[i + 2].uv.x == g.U1 &&
                    v[i + 2].uv.y == g.V1) {
                    hit = &g;
                    break;
                }
            }
            if (!hit) continue;
            float pen = v[i].pos.x - hit->X0, line = v[i].pos.y - hit->Y0; /* where the glyph's cell starts */
            if (line != last_y) out += '\n';
            else if (pen - last_x > 1.0f) out += ' '; /* a space, or the next widget */
            out += (char)hit->Codepoint;
            last_x = pen + hit->AdvanceX;
            last_y = line;
            i += 3;
        }
        out += '\n';
    }
    return out;
}

int main(int argc, char **argv)
{
    long frames = -1;
    const char *shot = nullptr;
    bool check = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::atol(argv[++i]);
        else if (!std::strcmp(argv[i], "--shot") && i + 1 < argc) shot = argv[++i];
        else if (!std::strcmp(argv[i], "--check")) check = true;
        else {
            std::fprintf(stderr, "usage: %s [--frames N] [--shot FILE.png] [--check]\n", argv[0]);
            return 2;
        }
    }

    corral_sched_desc d;
    std::memset(&d, 0, sizeof d);
    d.history_frames = 240;
    d.wait_text = true;
    d.logger.fn = corral_log_stderr;
    corral_sched *s = corral_sched_create(&d);
    if (!s) return 1;
    corral_handle spawner = spawner_start(s, spawner_ctx{0, 0});

    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        std::fprintf(stderr, "sample: SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    const int W = 1280, H = 720;
    SDL_Window *win = SDL_CreateWindow("corral inspector", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, W, H,
                                       SDL_WINDOW_OPENGL | SDL_WINDOW_SHOWN);
    SDL_GLContext gl = win ? SDL_GL_CreateContext(win) : nullptr;
    if (!gl) {
        std::fprintf(stderr, "sample: no OpenGL 3.3 window: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetSwapInterval(frames < 0 ? 1 : 0);
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; /* the same layout every run */
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForOpenGL(win, gl);
    ImGui_ImplOpenGL3_Init("#version 330");

    corral_imgui_state st;
    std::memset(&st, 0, sizeof st);
    st.expanded = spawner; /* its fields and buttons, and its chain, in view */
    st.selected = spawner;
    bool quit = false;
    for (long f = 0; !quit && (frames < 0 || f < frames); f++) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            ImGui_ImplSDL2_ProcessEvent(&e);
            if (e.type == SDL_QUIT) quit = true;
        }
        corral_tick(s, 1.0f / 60.0f);

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(W - 560.0f, 10.0f), ImGuiCond_Once);
        ImGui::SetNextWindowSize(ImVec2(550.0f, H - 20.0f), ImGuiCond_Once);
        corral_imgui_window(s, &st);
        ImDrawList *bg = ImGui::GetBackgroundDrawList(); /* the game: a dot a walker */
        uint32_t cursor = 0;
        corral_co_info in;
        while (corral_next_co(s, &cursor, &in)) {
            if (in.type != &walker_type) continue;
            const walker_ctx *w = (const walker_ctx *)in.ctx;
            bg->AddCircleFilled(ImVec2(w->x, w->y), 12.0f, IM_COL32(90, 170, 255, 255));
        }
        ImGui::Render();
        glViewport(0, 0, W, H);
        glClearColor(0.07f, 0.07f, 0.08f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        bool last = frames >= 0 && f + 1 == frames;
        if (last && (shot || check)) {
            std::vector<unsigned char> px((size_t)W * H * 3);
            glPixelStorei(GL_PACK_ALIGNMENT, 1);
            glReadPixels(0, 0, W, H, GL_RGB, GL_UNSIGNED_BYTE, px.data());
            size_t lit = 0;
            for (size_t i = 0; i < px.size(); i += 3)
                lit += px[i] > 40 || px[i + 1] > 40 || px[i + 2] > 40; /* brighter than the clear colour */
            if (shot) {
                std::vector<unsigned char> flipped(px.size()); /* GL's rows run bottom up */
                for (int y = 0; y < H; y++)
                    std::memcpy(&flipped[(size_t)y * W * 3], &px[(size_t)(H - 1 - y) * W * 3], (size_t)W * 3);
                if (!stbi_write_png(shot, W, H, 3, flipped.data(), W * 3)) {
                    std::fprintf(stderr, "sample: cannot write %s\n", shot);
                    return 1;
                }
            }
            if (check) {
                corral_arena_stats a;
                corral_stats_arena(s, &a);
                char live[32];
                std::snprintf(live, sizeof live, "live %u", a.live);
                std::string text = drawn_text(ImGui::GetDrawData(), ImGui::GetFont());
                bool ok = true;
                if (std::getenv("CORRAL_IMGUI_DUMP")) std::fputs(text.c_str(), stderr);
                for (const char *want : {"walker", "spawner", (const char *)live})
                    if (text.find(want) == std::string::npos) {
                        std::fprintf(stderr, "sample: '%s' is not in the frame's draw lists\n", want);
                        ok = false;
                    }
                if (lit < (size_t)W * H / 100) {
                    std::fprintf(stderr, "sample: the frame is blank (%zu lit pixels)\n", lit);
                    ok = false;
                }
                std::printf("inspector: frame %ld, %s, %zu lit pixels, the draw lists say '%s' and the types' names\n",
                            f + 1, ok ? "ok" : "FAILED", lit, live);
                if (!ok) return 1;
            }
        }
        SDL_GL_SwapWindow(win);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(gl);
    SDL_DestroyWindow(win);
    SDL_Quit();
    corral_sched_destroy(s);
    return 0;
}
