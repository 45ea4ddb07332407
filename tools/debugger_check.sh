#!/bin/sh
# The debugger step: builds examples/boss and examples/demo with debug
# information, runs gdb and LLDB in batch mode with tests/debugger/P.gdb
# and P.lldb (corral's printers and commands from tools/debug/, at
# breakpoints inside each example) and compares what each prints with
# tests/expected/debugger.{gdb,lldb}.txt (boss) and
# debugger.demo.{gdb,lldb}.txt. Lines with addresses or process
# ids (breakpoints set and hit, where it stopped, the process killed) are
# left out of the comparison, and LLDB's $N result numbers are masked.
#   tools/debugger_check.sh           compare
#   tools/debugger_check.sh --golden  write the expected files anew
# Installs gdb and lldb from Debian when run as root; otherwise names them.
set -eu
cd "$(dirname "$0")/.."
need=""
command -v gdb >/dev/null 2>&1 || need="$need gdb"
command -v lldb >/dev/null 2>&1 || need="$need lldb"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "debugger_check: installing:$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        echo "debugger_check: needs:$need (sudo apt-get install$need)" >&2
        exit 2
    fi
fi
# Debian 12's lldb 14 looks for its Python module where the package does
# not put it ("No module named 'lldb.embedded_interpreter'"): point it there
for d in /usr/lib/llvm-*/lib/python3*/dist-packages; do
    if [ -f "$d/lldb/embedded_interpreter.py" ]; then PYTHONPATH="$d${PYTHONPATH:+:$PYTHONPATH}"; export PYTHONPATH; break; fi
done
out=${CORRAL_DEBUGGER_OUT:-build/debugger} # ctest gives each build tree its own
cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Debug -DCORRAL_BUILD_TESTS=OFF >/dev/null
cmake --build "$out" --target boss demo >/dev/null
# each program its script and expected files: boss (tests/expected/debugger.{gdb,lldb}.txt)
# keeps its waits' text; demo's waits keep none (plain sleeps: no wait node)
fail=0
for prog in boss demo; do
    gdb -batch -nx -x tests/debugger/$prog.gdb "$out/examples/$prog" > "$out/$prog.gdb.raw" 2>&1 || true
    sed -n '/^== /,$p' "$out/$prog.gdb.raw" | grep -v -e '^Breakpoint [0-9]' -e '^\[Inferior ' > "$out/$prog.gdb.txt"
    lldb -b -x -s tests/debugger/$prog.lldb "$out/examples/$prog" > "$out/$prog.lldb.raw" 2>&1 || true
    sed -n '/^== /,$p' "$out/$prog.lldb.raw" |
        grep -v -e '^(lldb) script print' -e '^Process [0-9]' -e '^\* thread' -e '^    frame #' -e '^Breakpoint [0-9]' \
                -e '^ *[0-9][0-9]* ' -e '^-> ' -e '^[[:space:]]*\^' -e '^$' | sed 's/\$[0-9][0-9]*/$N/' > "$out/$prog.lldb.txt"
    for dbg in gdb lldb; do
        want=tests/expected/debugger.$dbg.txt
        [ "$prog" = boss ] || want=tests/expected/debugger.$prog.$dbg.txt
        if [ "${1:-}" = "--golden" ]; then
            cp "$out/$prog.$dbg.txt" "$want"
            echo "debugger_check: $want written"
        elif cmp -s "$out/$prog.$dbg.txt" "$want"; then
            echo "debugger_check: $dbg prints what $want says ($(grep -c '^== ' "$out/$prog.$dbg.txt") steps)"
        else
            echo "debugger_check: $dbg's output differs from $want:" >&2
            diff "$out/$prog.$dbg.txt" "$want" >&2 || true
            fail=1
        fi
    done
done
exit $fail
