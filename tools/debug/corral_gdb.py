# corral_gdb.py -- corral in gdb: a corral_handle and a corral_co print as
# the coroutine they are (its type, handle, state, what it waits for and the
# time left, the file:line it is suspended at, its context field by field
# through the type's field table), and two commands:
#
#   corral list          every live coroutine of every live scheduler
#   corral chain EXPR    the chain the coroutine EXPR (a corral_handle, or a
#                        corral_co *) is in, from its outermost caller down
#
# Load it from the source tree or from where the package installs it:
#   (gdb) source tools/debug/corral_gdb.py
#   (gdb) source /usr/local/share/corral/debug/corral_gdb.py
# It reads memory only, so it works on a core file too; corral must be
# built with debug information (-g). docs/DEBUGGING.md walks through it.
import os
import sys

import gdb
import gdb.printing

sys.path.insert(0, os.path.dirname(os.path.abspath(os.path.expanduser(__file__))))
import corral_core as core  # noqa: E402


class GdbReader(core.Reader):
    def ev_int(self, expr):
        return int(gdb.parse_and_eval(expr))

    def read(self, addr, n):
        return gdb.selected_inferior().read_memory(addr, n).tobytes()

    def cstr(self, addr):
        return gdb.parse_and_eval("(const char *)%d" % addr).string()

    def enum_name(self, type_name, value):
        return str(gdb.parse_and_eval("(%s)%d" % (type_name, value)))

    def field_table(self, fn_addr):
        block = gdb.block_for_pc(fn_addr)
        while block is not None:
            for sym in block:
                if sym.name == "table" and sym.is_variable:
                    v = sym.value()
                    return int(v.address), v.type.range()[1] + 1
            if block.function is not None:
                break
            block = block.superblock
        return None

    def typed(self, type_name, addr):
        try:
            return str(gdb.parse_and_eval("*(%s *)%d" % (type_name, addr)))
        except gdb.error:
            return None

    def sched_pointers(self):
        out = []
        selected = gdb.selected_thread()
        frame0 = gdb.selected_frame() if selected is not None else None
        for thread in gdb.selected_inferior().threads():
            thread.switch()
            frame = gdb.newest_frame()
            while frame is not None:
                try:
                    block = frame.block()
                except RuntimeError:  # no debug information here
                    block = None
                while block is not None:
                    for sym in block:
                        if (sym.is_variable or sym.is_argument) and _is_sched_pointer(sym.type):
                            try:
                                out.append(int(sym.value(frame)))
                            except gdb.error:
                                pass
                    block = block.superblock
                frame = frame.older()
        if selected is not None:
            selected.switch()
            frame0.select()
        return out


def _is_sched_pointer(t):
    if t is None:
        return False
    t = t.strip_typedefs()
    return t.code == gdb.TYPE_CODE_PTR and t.target().strip_typedefs().tag == "corral_sched"


R = GdbReader()


class _CoPrinter:
    def __init__(self, line, fields):
        self.line, self.fields = line, fields

    def to_string(self):
        return self.line

    def children(self):
        return iter(self.fields)


def _lookup(val):
    t = val.type.strip_typedefs()
    if t.code != gdb.TYPE_CODE_STRUCT:
        return None
    name = val.type.unqualified().name or t.tag
    if name == "corral_handle":
        return _CoPrinter(*core.show(R, index=int(val["index"]), gen=int(val["gen"])))
    if name == "corral_co":
        return _CoPrinter(*core.show(R, ptr=int(val.address)))
    return None


class _Printers:
    name = "corral"
    enabled = True
    subprinters = None

    def __call__(self, val):
        return _lookup(val)


def _target(arg):
    """a corral_handle or a corral_co * expression: core.show/chain_lines arguments"""
    v = gdb.parse_and_eval(arg)
    if v.type.strip_typedefs().code == gdb.TYPE_CODE_PTR:
        return {"ptr": int(v)}
    return {"index": int(v["index"]), "gen": int(v["gen"])}


class _Corral(gdb.Command):
    """corral list | corral chain EXPR: corral's coroutines (docs/DEBUGGING.md)"""

    def __init__(self):
        super().__init__("corral", gdb.COMMAND_DATA, gdb.COMPLETE_NONE, True)


class _List(gdb.Command):
    """corral list: every live coroutine of every live scheduler, a line each"""

    def __init__(self):
        super().__init__("corral list", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        for line in core.list_lines(R):
            gdb.write(line + "\n")


class _Chain(gdb.Command):
    """corral chain EXPR: the chain EXPR (a corral_handle or a corral_co *) is in"""

    def __init__(self):
        super().__init__("corral chain", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        for line in core.chain_lines(R, **_target(arg)):
            gdb.write(line + "\n")


gdb.printing.register_pretty_printer(None, _Printers(), replace=True)
_Corral()
_List()
_Chain()
