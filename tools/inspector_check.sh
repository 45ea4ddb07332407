#!/bin/sh
# The ImGui inspector step: builds inspector/ (Dear ImGui, SDL2, OpenGL 3)
# and runs its sample under Xvfb with Mesa's software OpenGL for a set
# number of frames; the sample fails unless that frame's draw lists hold
# the types' names and the live count read from the library, and the frame
# is not blank. The screenshot goes to build/inspector/inspector.png
# (--docs: also to docs/imgui_inspector.png, the README's).
# Installs what it needs from Debian when run as root; otherwise names it.
set -eu
cd "$(dirname "$0")/.."
need=""
[ -f /usr/include/imgui/imgui.h ] || need="$need libimgui-dev"
[ -f /usr/include/SDL2/SDL.h ] || need="$need libsdl2-dev"
command -v xvfb-run >/dev/null 2>&1 || need="$need xvfb xauth"
[ -d /usr/lib/x86_64-linux-gnu/dri ] || need="$need libgl1-mesa-dri"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v g++ >/dev/null 2>&1 || need="$need g++"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "inspector_check: installing:$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        echo "inspector_check: needs:$need (sudo apt-get install$need)" >&2
        exit 2
    fi
fi
cmake -S inspector -B build/inspector -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/inspector -j 2 >/dev/null
LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x720x24" \
    ./build/inspector/corral_imgui_sample --frames 240 --shot build/inspector/inspector.png --check
if [ "${1:-}" = "--docs" ]; then cp build/inspector/inspector.png docs/imgui_inspector.png; fi
