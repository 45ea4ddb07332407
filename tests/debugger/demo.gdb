# tools/debugger_check.sh runs this in gdb's batch mode on examples/demo
# (a Debug build, no desc.wait_text: its sleeps are plain sleeps, each
# only a timer entry) and compares what it prints from the first "==" line
# on with tests/expected/debugger.demo.gdb.txt.
set pagination off
set confirm off
source tools/debug/corral_gdb.py
break demo.c:180
run > /dev/null
continue 20
echo == at frame 20: corral list (a signal, a frames and a seconds sleep)\n
corral list
kill
