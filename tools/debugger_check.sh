#!/bin/sh
# The debugger step: builds examples/boss with debug information, runs gdb
# and LLDB in batch mode with tests/debugger/boss.gdb and boss.lldb
# (corral's printers and commands from tools/debug/, at breakpoints inside
# the example) and compares what each prints with
# tests/expected/debugger.{gdb,lldb}.txt. Lines with addresses or process
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
cmake --build "$out" --target boss >/dev/null
gdb -batch -nx -x tests/debugger/boss.gdb "$out/examples/boss" > "$out/gdb.raw" 2>&1 || true
sed -n '/^== /,$p' "$out/gdb.raw" | grep -v -e '^Breakpoint [0-9]' -e '^\[Inferior ' > "$out/gdb.txt"
lldb -b -x -s tests/debugger/boss.lldb "$out/examples/boss" > "$out/lldb.raw" 2>&1 || true
sed -n '/^== /,$p' "$out/lldb.raw" |
    grep -v -e '^(lldb) script print' -e '^Process [0-9]' -e '^\* thread' -e '^    frame #' -e '^Breakpoint [0-9]' \
            -e '^ *[0-9][0-9]* ' -e '^-> ' -e '^[[:space:]]*\^' -e '^$' | sed 's/\$[0-9][0-9]*/$N/' > "$out/lldb.txt"
fail=0
for dbg in gdb lldb; do
    want=tests/expected/debugger.$dbg.txt
    if [ "${1:-}" = "--golden" ]; then
        cp "$out/$dbg.txt" "$want"
        echo "debugger_check: $want written"
    elif cmp -s "$out/$dbg.txt" "$want"; then
        echo "debugger_check: $dbg prints what $want says ($(grep -c '^== ' "$out/$dbg.txt") steps)"
    else
        echo "debugger_check: $dbg's output differs from $want:" >&2
        diff "$out/$dbg.txt" "$want" >&2 || true
        fail=1
    fi
done
exit $fail
