/*
    corral_imgui.cpp -- the inspector window (corral_imgui.h): public API
    only, no allocation (every text goes through a buffer on the stack).
*/
#include "corral_imgui.h"

#include <imgui.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace {

const char *wait_name(const corral_co_info &in)
{
    switch (in.call) {
    case CORRAL_CALL_ONE: return "call";
    case CORRAL_CALL_RACE: return "race";
    case CORRAL_CALL_SYNC: return "sync";
    default: return in.state == CORRAL_CO_WAITING ? corral_wait_kind_str(in.wait) : corral_co_state_str(in.state);
    }
}

const char *base_name(const char *path)
{
    const char *b = path ? path : "";
    for (const char *p = b; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    return b;
}

void arena_section(corral_sched *s)
{
    corral_arena_stats a;
    if (!corral_stats_arena(s, &a)) return;
    ImGui::Text("frame %" PRIu64 "  %.2f s  time scale %.2f", corral_frame(s), corral_time(s),
                (double)corral_time_scale(s));
    ImGui::Text("live %u (peak %u)  %.1f KiB in slots of a %.1f KiB block", a.live, a.live_peak,
                (double)a.slot_bytes / 1024.0, (double)a.total_bytes / 1024.0);
    static corral_frame_sample hist[240];
    uint32_t n = corral_history(s, hist, 240);
    float bytes[240];
    float top = 1.0f;
    for (uint32_t i = 0; i < n; i++) {
        bytes[i] = (float)hist[i].slot_bytes;
        if (bytes[i] > top) top = bytes[i];
    }
    if (n) ImGui::PlotLines("bytes in slots", bytes, (int)n, 0, nullptr, 0.0f, top * 1.1f, ImVec2(0, 60));
    else ImGui::TextDisabled("(no history: set desc.history_frames)");
}

void controls_section(corral_sched *s)
{
    float scale = corral_time_scale(s);
    if (ImGui::SliderFloat("time scale", &scale, 0.0f, 4.0f, "%.2f")) corral_set_time_scale(s, scale);
    bool paused = corral_domain_paused(s, 0);
    if (ImGui::Checkbox("pause the game clock", &paused)) {
        if (paused) corral_domain_pause(s, 0);
        else corral_domain_resume(s, 0);
    }
}

void types_section(corral_sched *s)
{
    if (!ImGui::CollapsingHeader("types", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (!ImGui::BeginTable("types", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) return;
    for (const char *h : {"type", "live", "peak", "started", "failed", "slot B"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (uint32_t i = 0; i < corral_type_count(s); i++) {
        corral_type_stats t;
        if (!corral_stats_type(s, i, &t)) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(t.name);
        ImGui::TableNextColumn();
        ImGui::Text("%u", t.live);
        ImGui::TableNextColumn();
        ImGui::Text("%u", t.peak);
        ImGui::TableNextColumn();
        ImGui::Text("%" PRIu64, t.started);
        ImGui::TableNextColumn();
        ImGui::Text("%" PRIu64, t.failed);
        ImGui::TableNextColumn();
        ImGui::Text("%u", t.slot_size);
    }
    ImGui::EndTable();
}

void classes_section(corral_sched *s)
{
    if (!ImGui::CollapsingHeader("size classes")) return;
    if (!ImGui::BeginTable("classes", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) return;
    for (const char *h : {"slot B", "used", "peak", "capacity", "failures"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (uint32_t i = 0; i < corral_class_count(s); i++) {
        corral_class_stats c;
        if (!corral_stats_class(s, i, &c)) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%u", c.slot_size);
        ImGui::TableNextColumn();
        ImGui::Text("%u", c.used);
        ImGui::TableNextColumn();
        ImGui::Text("%u", c.peak);
        ImGui::TableNextColumn();
        ImGui::Text("%u", c.capacity);
        ImGui::TableNextColumn();
        ImGui::Text("%" PRIu64, c.failures);
    }
    ImGui::EndTable();
}

/* one coroutine: its line, and opened, its fields and the buttons */
void coroutine_row(corral_sched *s, const corral_co_info &in, corral_imgui_state *st)
{
    char label[160];
    int n = std::snprintf(label, sizeof label, "%s 0x%06x:%u  %s", in.type_name, in.handle.index, in.handle.gen,
                          wait_name(in));
    if (in.left > 0 && n > 0 && (size_t)n < sizeof label)
        n += std::snprintf(label + n, sizeof label - (size_t)n, ", %.2f left", in.left);
    if (in.line && n > 0 && (size_t)n < sizeof label)
        std::snprintf(label + n, sizeof label - (size_t)n, "  %s:%u", base_name(in.file), in.line);
    ImGui::PushID((int)in.handle.index);
    if (st->expanded.gen == in.handle.gen && st->expanded.index == in.handle.index)
        ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    bool open = ImGui::TreeNode("co", "%s", label);
    if (in.wait_text) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", in.wait_text);
    }
    if (open) {
        uint32_t nf = 0;
        const corral_field *f = in.type->fields ? in.type->fields(&nf) : nullptr;
        for (uint32_t k = 0; k < nf; k++) {
            char value[96];
            corral_field_text(s, &f[k], (const unsigned char *)in.ctx + f[k].offset, value, sizeof value);
            ImGui::Text("%s = %s", f[k].name, value);
        }
        bool paused = corral_paused(s, in.handle);
        if (ImGui::SmallButton(paused ? "resume" : "pause")) {
            if (paused) corral_resume(s, in.handle);
            else corral_pause(s, in.handle);
        }
        ImGui::SameLine();
        if (ImGui::SmallButton("step")) corral_step_once(s, in.handle);
        ImGui::SameLine();
        if (ImGui::SmallButton("chain")) st->selected = in.handle;
        ImGui::TreePop();
    }
    ImGui::PopID();
}

void coroutines_section(corral_sched *s, corral_imgui_state *st)
{
    if (!ImGui::CollapsingHeader("live coroutines", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::InputText("type", st->filter, sizeof st->filter);
    if (ImGui::BeginChild("list", ImVec2(0, 260), true)) {
        uint32_t cursor = 0;
        corral_co_info in;
        while (corral_next_co(s, &cursor, &in)) {
            if (st->filter[0] && !std::strstr(in.type_name, st->filter)) continue;
            coroutine_row(s, in, st);
        }
    }
    ImGui::EndChild();
    if (st->selected.gen && corral_alive(s, st->selected)) {
        char text[2048];
        corral_writer w = {};
        w.buf = text;
        w.cap = sizeof text;
        corral_print_chain_to(s, st->selected, &w);
        ImGui::TextUnformatted("chain:");
        ImGui::TextUnformatted(text);
    }
}

} // namespace

void corral_imgui_window(corral_sched *s, corral_imgui_state *st)
{
    if (!ImGui::Begin("corral")) {
        ImGui::End();
        return;
    }
    arena_section(s);
    controls_section(s);
    types_section(s);
    classes_section(s);
    coroutines_section(s, st);
    ImGui::End();
}
