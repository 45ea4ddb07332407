#!/bin/sh
# Build the browser samples (web/samples/*.c, each with web/host.c) into a
# static site in build/web/site: a page per sample with its canvas, its log,
# a live inspector and its source, and an index. Installs Debian's
# emscripten when missing (as root; otherwise says what to install).
#   tools/web.sh            build the site
#   tools/web.sh --serve    build it, then serve it on http://127.0.0.1:8000
set -eu
cd "$(dirname "$0")/.."
if ! command -v emcc >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "web: installing emscripten"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emscripten >/dev/null
    else
        echo "web: needs emscripten: sudo apt-get install emscripten" >&2
        exit 1
    fi
fi
# emscripten's optimizer needs acorn: Debian's node finds its packages in
# /usr/share/nodejs, another node is told where they are
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
site=build/web/site
obj=build/web/obj
rm -rf "$site" "$obj"
mkdir -p "$site" "$obj"
# the library once, then each sample against it
for f in src/*/*.c; do
    emcc -std=c11 -O2 -Iinclude -Igen -c "$f" -o "$obj/$(basename "$f" .c).o"
done
emcc -std=c11 -O2 -Iinclude -Igen -c web/host.c -o "$obj/host.o"
exports=_web_title,_web_start,_web_frame,_web_draw,_web_log,_web_action,_web_time_scale,_web_pause,_web_inspect
list=""
for src in web/samples/*.c; do
    name=$(basename "$src" .c)
    emcc -std=c11 -O2 -Iinclude -Igen "$obj"/*.o "$src" -o "$site/$name.js" \
        -sEXPORTED_FUNCTIONS="$exports" -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString -sALLOW_MEMORY_GROWTH=1 \
        -sENVIRONMENT=web
    action=$(sed -n 's|^.*action: *\([^*]*\).*$|\1|p' "$src" | head -n 1 | sed 's/ *$//')
    [ -n "$action" ] || action="restart"
    sed -e "s|@NAME@|$name|g" -e "s|@ACTION@|$action|g" web/sample.html > "$site/$name.html"
    cp "$src" "$site/$name.c.txt"
    title=$(sed -n '1s|^/\* *[a-z_]* -- *||p' "$src" | sed 's|\*/||')
    list="$list<li><a href=\"$name.html\">$name</a> — $title (<a href=\"$name.c.txt\">source</a>)</li>"
done
cp web/app.js "$site/"
cp web/host.c web/host.h "$site/" 2>/dev/null || true
cat > "$site/index.html" <<HTML
<!doctype html><html><head><meta charset="utf-8"><title>corral samples</title>
<style>body{background:#0c0c0c;color:#ddd;font:14px system-ui,sans-serif;margin:24px}a{color:#7bd}</style></head>
<body><h1>corral samples</h1><p>Each runs the library compiled to WebAssembly, beside a live inspector that reads
the scheduler through the public API.</p><ul>$list</ul></body></html>
HTML
echo "web: $(ls "$site"/*.html | wc -l) pages in $site"
if [ "${1:-}" = "--serve" ]; then
    cd "$site" && exec python3 -m http.server 8000 --bind 127.0.0.1
fi
