# tools/debugger_check.sh runs this in gdb's batch mode on examples/boss
# (a Debug build) and compares what it prints from the first "==" line on
# with tests/expected/debugger.gdb.txt.
set pagination off
set confirm off
source tools/debug/corral_gdb.py
break boss.c:195
run > /dev/null
echo == at frame 33, the fight races its arms: p boss\n
p boss
echo == corral list\n
corral list
echo == corral chain in.child\n
corral chain in.child
echo == p in.child, p in.handle\n
p in.child
p in.handle
echo == a handle that names nothing\n
p (corral_handle){0x000042, 7}
break boss.c:66
continue
echo == inside a volley's step: p *co\n
p *co
echo == corral chain co\n
corral chain co
kill
