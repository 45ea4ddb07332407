#!/bin/sh
# The platforms step: build corral with each target's plain compiler and run
# it there. For each target: every example, its output compared byte for
# byte with tests/expected/ (demo and astar with --golden; a report's sizes
# follow the data model, so tests/expected/NAME.MODEL.txt is used where it
# exists), and tests/selfcheck.c (the resume contract, handles, a full
# pool, no allocation after create, a 10^5-deep chain, a snapshot adopted
# elsewhere, 10^5 model operations). Then a Windows DLL with a consumer,
# the hot reload example's host and module builds against it, and CMake
# builds through the MinGW toolchain file and emcmake.
#
# Installs what it needs from Debian when run as root; otherwise names the
# packages and stops. A failure names the target.
#   tools/platforms.sh                 every target
#   tools/platforms.sh arm64 wasm32    only those (names below)
#   tools/platforms.sh --single [T..]  the same from the one header alone:
#       single/corral.h written again (it fails if the committed copy
#       differs), one C file defining CORRAL_IMPLEMENTATION, the examples
#       and selfcheck built against it with -I of its directory only;
#       targets gcc-x64 clang-x64 tcc-x64 windows-x64 wasm32 by default
set -eu
cd "$(dirname "$0")/.."

single=0
if [ "${1:-}" = "--single" ]; then single=1; shift; fi
all="windows-x64 linux-arm64 linux-armv7 linux-i686 wasm32 tcc-x64"
[ $single = 0 ] || all="gcc-x64 clang-x64 tcc-x64 windows-x64 wasm32"
want="${*:-$all}"

need=""
has() { command -v "$1" >/dev/null 2>&1; }
for t in $want; do
    case "$t" in
    windows-x64) has x86_64-w64-mingw32-gcc || need="$need gcc-mingw-w64-x86-64"
                 has wine || need="$need wine wine64" ;;
    linux-arm64) has aarch64-linux-gnu-gcc || need="$need gcc-aarch64-linux-gnu"
                 has qemu-aarch64 || need="$need qemu-user" ;;
    linux-armv7) has arm-linux-gnueabihf-gcc || need="$need gcc-arm-linux-gnueabihf"
                 has qemu-arm || need="$need qemu-user" ;;
    linux-i686)  has i686-linux-gnu-gcc || need="$need gcc-i686-linux-gnu"
                 has qemu-i386 || need="$need qemu-user" ;;
    wasm32)      has emcc || need="$need emscripten"
                 has node || need="$need nodejs"
                 [ -d /usr/share/nodejs/acorn ] || need="$need node-acorn" ;;
    tcc-x64)     has tcc || need="$need tcc" ;;
    gcc-x64)     has gcc || need="$need gcc" ;;
    clang-x64)   has clang || need="$need clang" ;;
    *) echo "platforms: unknown target '$t' (targets: $all)" >&2; exit 2 ;;
    esac
done
has cmake || need="$need cmake"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && has apt-get; then
        echo "platforms: installing:$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        echo "platforms: missing:$need (install them with: sudo apt-get install$need)" >&2
        exit 2
    fi
fi

# Debian's emscripten finds its node modules (acorn) through NODE_PATH; old
# emscripten output fetches its .wasm with node's fetch, which rejects a
# file path: node runs it without fetch and it reads the file instead.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
export WINEDEBUG=-all
export WINEPREFIX="$PWD/build/platforms/wine"
out=build/platforms
mkdir -p "$out"
examples="foo_bar spawn_wave interpreter cutscene demo astar rollback savegame jobs boss outpost squad
          guide/patrol guide/waves guide/boss_phases guide/cutscene_cues guide/dialogue guide/ui_tween guide/save_safe"
failed=""

# A kernel built without 32-bit x86 support refuses i686 programs ("Exec
# format error"): they run under qemu-i386 there, natively elsewhere.
i686_runner() {
    printf 'int main(void) { return 0; }\n' > "$out/probe.c"
    if i686-linux-gnu-gcc -static "$out/probe.c" -o "$out/probe" 2>/dev/null &&
       "$out/probe" 2>/dev/null; then echo; else echo qemu-i386; fi
}

# target -> compiler, runner, executable suffix, data models (the golden
# files to look for, first found wins: i386 is ILP32 with 4-byte-aligned
# 64-bit types), link flags
setup() {
    case "$1" in
    windows-x64) cc=x86_64-w64-mingw32-gcc; run=wine; exe=.exe; model=llp64; link=-static ;;
    linux-arm64) cc=aarch64-linux-gnu-gcc; run=qemu-aarch64; exe=; model=lp64; link="-static -pthread" ;;
    linux-armv7) cc=arm-linux-gnueabihf-gcc; run=qemu-arm; exe=; model=ilp32; link="-static -pthread" ;;
    linux-i686)  cc=i686-linux-gnu-gcc; run=$(i686_runner); exe=; model="i386 ilp32"; link="-static -pthread" ;;
    wasm32)      cc=emcc; run="env NODE_OPTIONS=--no-experimental-fetch node"; exe=.js; model=ilp32
                 link="-sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=1" ;; # the 10^5-deep chain outgrows 16 MiB; files: savegame
    tcc-x64)     cc=tcc; run=; exe=; model=lp64; link= ;;
    gcc-x64)     cc=gcc; run=; exe=; model=lp64; link=-pthread ;;
    clang-x64)   cc=clang; run=; exe=; model=lp64; link=-pthread ;;
    esac
    warn=
    case "$1" in gcc-x64|clang-x64) warn="-Wall -Wextra -Wpedantic -Werror" ;; esac
}

# run_on FILE PROGRAM [ARGS]: its standard output into FILE, without
# Windows' carriage returns; the program's exit status
run_on() {
    f="$1"; shift
    rc=0
    if [ -n "$run" ]; then $run "$@" > "$f.raw" || rc=$?; else "$@" > "$f.raw" || rc=$?; fi
    tr -d '\r' < "$f.raw" > "$f"
    return $rc
}

# the library's sources: src/ and include/, or the one header alone
inc="-Iinclude -Igen"
srcs="src/*/*.c"
if [ $single = 1 ]; then
    mkdir -p "$out/single/include/corral"
    cmake -DOUT="$out/single/corral.h" -P tools/single_header.cmake
    if ! cmp -s "$out/single/corral.h" single/corral.h; then
        echo "platforms: single/corral.h differs from what tools/single_header.cmake writes:" >&2
        echo "           run cmake -P tools/single_header.cmake and commit it" >&2
        exit 1
    fi
    cp single/corral.h "$out/single/include/corral/corral.h"
    printf '#define CORRAL_IMPLEMENTATION\n#include <corral/corral.h>\n' > "$out/single/corral.c"
    inc="-I$out/single/include"
    srcs="$out/single/corral.c"
    echo "== single/corral.h is what tools/single_header.cmake writes"
fi

for t in $want; do
    setup "$t"
    d="$out/$t"
    [ $single = 0 ] || d="$out/single-$t"
    rm -rf "$d"
    mkdir -p "$d/obj" "$d/guide"
    if [ $single = 1 ]; then echo "== one header, $t ($cc, $model)"; else echo "== platform $t ($cc, $model)"; fi
    ok=1
    for f in $srcs; do
        o="$d/obj/$(basename "$f" .c).o"
        if ! $cc -std=c11 -O2 $warn $inc -c "$f" -o "$o" 2>"$d/build.log"; then
            cut -c1-200 "$d/build.log"; ok=0; break
        fi
    done
    if [ $ok = 1 ]; then
        for ex in $examples; do
            bin="$d/$ex$exe"
            if ! $cc -std=c11 -O2 $inc "$d"/obj/*.o "examples/$ex.c" $link -o "$bin" 2>"$d/build.log"; then
                cut -c1-200 "$d/build.log"; echo "   $ex: does not build"; ok=0; continue
            fi
            args=""
            case "$ex" in demo|astar) args=--golden ;; esac
            want_file="tests/expected/$ex.txt"
            for m in $model; do
                if [ -f "tests/expected/$ex.$m.txt" ]; then want_file="tests/expected/$ex.$m.txt"; break; fi
            done
            if run_on "$d/$ex.out" "$bin" $args 2>"$d/$ex.err" && cmp -s "$d/$ex.out" "$want_file"; then
                echo "   $ex: output matches $want_file"
            else
                echo "   $ex: output differs from $want_file:"
                diff "$d/$ex.out" "$want_file" | head -10 || true
                cut -c1-200 "$d/$ex.err" | tail -5
                ok=0
            fi
        done
        # a save written by an x86-64 build, loaded here: the same second half
        cp tests/expected/savegame.sav "$d/savegame.sav"
        if [ -f "$d/savegame$exe" ] && (cd "$d" && run_on savegame-load.out "./savegame$exe" --load savegame.sav) &&
           cmp -s "$d/savegame-load.out" tests/expected/savegame.loaded.txt; then
            echo "   savegame: the x86-64 save loads and runs on as on x86-64"
        else
            echo "   savegame: the x86-64 save does not load or runs differently:"
            diff "$d/savegame-load.out" tests/expected/savegame.loaded.txt 2>&1 | head -5 || true
            ok=0
        fi
        if $cc -std=c11 -O2 $inc "$d"/obj/*.o tests/selfcheck.c $link -o "$d/selfcheck$exe" \
               2>"$d/build.log" && run_on "$d/selfcheck.out" "$d/selfcheck$exe" 2>&1; then
            sed 's/^/   /' "$d/selfcheck.out"
        else
            cat "$d/build.log" "$d/selfcheck.out" 2>/dev/null | cut -c1-200 | tail -20
            echo "   selfcheck: FAILED"
            ok=0
        fi
        if [ $single = 1 ]; then
            # every module the one header can leave out, as it names them
            no=$(sed -n 's/^#ifndef CORRAL_NO_\([A-Z][A-Z]*\)$/-DCORRAL_NO_\1/p' single/corral.h | sort -u | tr '\n' ' ')
            if $cc -std=c11 -O2 $inc $no "$out/single/corral.c" tests/link/one_coroutine.c $link \
                   -o "$d/core_only$exe" 2>"$d/build.log" && run_on "$d/core_only.out" "$d/core_only$exe"; then
                echo "   every module left out (CORRAL_NO_*): tests/link/one_coroutine.c builds and runs"
            else
                cut -c1-200 "$d/build.log" | tail -5; echo "   every module left out: FAILED"; ok=0
            fi
            if $cc -std=c11 $inc -DCORRAL_NO_VERIFY -c "$out/single/corral.c" -o "$d/refused.o" 2>/dev/null; then
                echo "   CORRAL_NO_VERIFY without CORRAL_NO_SNAPSHOT was not refused"; ok=0
            fi
        fi
    fi
    [ $ok = 1 ] || failed="$failed $t"
done

[ $single = 1 ] || case " $want " in *" windows-x64 "*)
    echo "== platform windows-x64: corral.dll and a program linked against it"
    setup windows-x64
    d="$out/windows-dll"
    rm -rf "$d"; mkdir -p "$d"
    # -static-libgcc: the DLL needs no libgcc_s_seh-1.dll beside it (CMake does the same)
    if $cc -std=c11 -O2 -shared -Iinclude -Igen -DCORRAL_SHARED -DCORRAL_BUILDING src/*/*.c -o "$d/corral.dll" \
           -static-libgcc -Wl,--out-implib,"$d/libcorral.dll.a" &&
       $cc -std=c11 -O2 -Iinclude -Igen -DCORRAL_SHARED examples/foo_bar.c "$d/libcorral.dll.a" -o "$d/foo_bar.exe"; then
        x86_64-w64-mingw32-objdump -p "$d/corral.dll" |
            awk '/\[Ordinal\/Name Pointer\] Table/ {on=1; next} on && NF == 0 {on=0} on {print $NF}' > "$d/exports.txt"
        n=$(wc -l < "$d/exports.txt")
        stray=$(grep -v '^corral_' "$d/exports.txt" || true)
        api=$(tools/declared.sh | wc -l) # CORRAL_API functions and the parts' tables
        if [ -n "$stray" ] || [ "$n" -ne "$api" ]; then
            echo "   corral.dll exports $n symbols, the header declares $api CORRAL_API functions and parts; not corral_*: $stray"
            failed="$failed windows-dll"
        elif ! (cd "$d" && run_on foo_bar.out ./foo_bar.exe) || ! cmp -s "$d/foo_bar.out" tests/expected/foo_bar.txt; then
            echo "   foo_bar.exe against corral.dll: output differs"; failed="$failed windows-dll"
        elif ! $cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -Igen -DCORRAL_SHARED tests/link/named_parts.c \
                 "$d/libcorral.dll.a" -o "$d/named_parts.exe" || ! (cd "$d" && run_on named_parts.out ./named_parts.exe); then
            echo "   named_parts.exe (a list of parts, as API.md writes it) against corral.dll: FAILED"
            failed="$failed windows-dll"
        else
            echo "   corral.dll exports exactly the $n CORRAL_API functions and parts; foo_bar.exe against it matches;"
            echo "   named_parts.exe names its parts against it and runs"
        fi
    else
        failed="$failed windows-dll"
    fi
    echo "== platform windows-x64: hot reload, a host and its module's three builds against corral.dll"
    hr=1
    for b in 1 2 3; do
        $cc -std=c11 -O2 -shared -Iinclude -Igen -DCORRAL_SHARED -DGAME_BUILD=$b examples/hotreload/game.c \
            "$d/libcorral.dll.a" -static-libgcc -o "$d/game_$b.dll" || hr=0
    done
    if [ $hr = 1 ] &&
       $cc -std=c11 -O2 -Iinclude -Igen -DCORRAL_SHARED -DHOTRELOAD_BUILD_1='"game_1.dll"' \
           -DHOTRELOAD_BUILD_2='"game_2.dll"' -DHOTRELOAD_BUILD_3='"game_3.dll"' examples/hotreload/host.c \
           "$d/libcorral.dll.a" -o "$d/hotreload.exe" &&
       (cd "$d" && run_on hotreload.out ./hotreload.exe) && cmp -s "$d/hotreload.out" tests/expected/hotreload.txt; then
        echo "   hotreload.exe (LoadLibrary, FreeLibrary) matches tests/expected/hotreload.txt"
    else
        diff "$d/hotreload.out" tests/expected/hotreload.txt 2>&1 | head -10 || true
        echo "   hotreload.exe: does not build, or its output differs"; failed="$failed windows-hotreload"
    fi
    echo "== platform windows-x64: CMake with cmake/toolchain-mingw-w64.cmake"
    if cmake -S . -B "$out/cmake-mingw" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw-w64.cmake \
             -DCMAKE_BUILD_TYPE=Release -DCORRAL_BUILD_TESTS=OFF -DCORRAL_WERROR=ON >/dev/null &&
       cmake --build "$out/cmake-mingw" -j 2 >/dev/null &&
       run_on "$out/cmake-mingw/foo_bar.out" "$out/cmake-mingw/examples/foo_bar.exe" &&
       cmp -s "$out/cmake-mingw/foo_bar.out" tests/expected/foo_bar.txt; then
        echo "   builds; foo_bar.exe matches"
    else
        echo "   CMake MinGW build failed"; failed="$failed cmake-mingw"
    fi
;; esac

[ $single = 1 ] || case " $want " in *" wasm32 "*)
    echo "== platform wasm32: CMake through emcmake"
    if emcmake cmake -S . -B "$out/cmake-wasm" -DCMAKE_BUILD_TYPE=Release -DCORRAL_BUILD_TESTS=OFF \
             -DCORRAL_WERROR=ON >/dev/null 2>&1 &&
       cmake --build "$out/cmake-wasm" -j 2 >/dev/null 2>&1 &&
       (cd "$out/cmake-wasm/examples" && NODE_OPTIONS=--no-experimental-fetch node foo_bar.js) |
           cmp -s - tests/expected/foo_bar.txt; then
        echo "   builds; foo_bar.js matches"
    else
        echo "   CMake emscripten build failed"; failed="$failed cmake-wasm"
    fi
;; esac

if [ -n "$failed" ]; then
    echo "platforms: FAILED on:$failed"
    exit 1
fi
echo "platforms: all green ($want)"
