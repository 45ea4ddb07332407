# corral_lldb.py -- corral in LLDB: a corral_handle and a corral_co print as
# the coroutine they are (its type, handle, state, what it waits for and the
# time left, the file:line it is suspended at, its context field by field
# through the type's field table), and two commands:
#
#   corral list          every live coroutine of every live scheduler
#   corral chain EXPR    the chain the coroutine EXPR (a corral_handle, or a
#                        corral_co *) is in, from its outermost caller down
#
# Load it from the source tree or from where the package installs it:
#   (lldb) command script import tools/debug/corral_lldb.py
#   (lldb) command script import /usr/local/share/corral/debug/corral_lldb.py
# It reads memory only, so it works on a core file too; corral must be
# built with debug information (-g). docs/DEBUGGING.md walks through it.
import os
import sys

import lldb

sys.path.insert(0, os.path.dirname(os.path.abspath(os.path.expanduser(__file__))))
import corral_core as core  # noqa: E402


def _target():
    return lldb.debugger.GetSelectedTarget()


def _frame():
    return _target().GetProcess().GetSelectedThread().GetSelectedFrame()


def _eval(expr):
    frame = _frame()
    v = frame.EvaluateExpression(expr) if frame.IsValid() else _target().EvaluateExpression(expr)
    if not v.GetError().Success():
        raise RuntimeError("corral: %s: %s" % (expr, v.GetError().GetCString()))
    return v


def _text(v):
    """a value as gdb would print it, on one line"""
    if v.GetNumChildren() and v.GetType().GetTypeClass() in (lldb.eTypeClassStruct, lldb.eTypeClassUnion):
        return "{%s}" % ", ".join("%s = %s" % (c.GetName(), _text(c)) for c in v)
    return v.GetValue() or v.GetSummary() or "?"


class LldbReader(core.Reader):
    def ev_int(self, expr):
        return _eval(expr).GetValueAsUnsigned()

    def read(self, addr, n):
        err = lldb.SBError()
        data = _target().GetProcess().ReadMemory(addr, n, err)
        if not err.Success():
            raise RuntimeError("corral: cannot read 0x%x: %s" % (addr, err.GetCString()))
        return data

    def cstr(self, addr):
        err = lldb.SBError()
        return _target().GetProcess().ReadCStringFromMemory(addr, 4096, err) or ""

    def enum_name(self, type_name, value):
        return _eval("(%s)%d" % (type_name, value)).GetValue()

    def field_table(self, fn_addr):
        target = _target()
        block = target.ResolveLoadAddress(fn_addr).GetFunction().GetBlock()
        todo = [block]
        while todo:
            b = todo.pop()
            if not b.IsValid():
                continue
            for v in b.GetVariables(target, False, True, True):
                if v.GetName() == "table":
                    return v.GetLoadAddress(), v.GetNumChildren()
            child = b.GetFirstChild()
            while child.IsValid():
                todo.append(child)
                child = child.GetSibling()
        return None

    def typed(self, type_name, addr):
        target = _target()
        t = target.FindFirstType(type_name)
        if not t.IsValid():
            return None
        return _text(target.CreateValueFromAddress("v", lldb.SBAddress(addr, target), t))

    def sched_pointers(self):
        out = []
        for thread in _target().GetProcess():
            for frame in thread:
                for v in frame.GetVariables(True, True, True, False):  # arguments, locals, statics, all
                    t = v.GetType().GetCanonicalType()
                    if t.IsPointerType() and t.GetPointeeType().GetCanonicalType().GetName() in (
                        "corral_sched", "struct corral_sched"):
                        out.append(v.GetValueAsUnsigned())
        return out


R = LldbReader()


def _summary(line, fields):
    if not fields:
        return line
    return "%s {%s}" % (line, ", ".join("%s = %s" % f for f in fields))


def handle_summary(valobj, internal_dict):
    index = valobj.GetChildMemberWithName("index").GetValueAsUnsigned()
    gen = valobj.GetChildMemberWithName("gen").GetValueAsUnsigned()
    return _summary(*core.show(R, index=index, gen=gen))


def co_summary(valobj, internal_dict):
    if valobj.GetType().IsPointerType():  # a step's `co`: the coroutine it points to
        return _summary(*core.show(R, ptr=valobj.GetValueAsUnsigned()))
    return _summary(*core.show(R, ptr=valobj.GetLoadAddress()))


def _args(expr):
    v = _eval(expr)
    if v.GetType().IsPointerType():
        return {"ptr": v.GetValueAsUnsigned()}
    return {"index": v.GetChildMemberWithName("index").GetValueAsUnsigned(),
            "gen": v.GetChildMemberWithName("gen").GetValueAsUnsigned()}


def corral_command(debugger, command, result, internal_dict):
    """corral list | corral chain EXPR: corral's coroutines (docs/DEBUGGING.md)"""
    words = command.strip().split(None, 1)
    if words == ["list"]:
        lines = core.list_lines(R)
    elif len(words) == 2 and words[0] == "chain":
        lines = core.chain_lines(R, **_args(words[1]))
    else:
        result.SetError("usage: corral list | corral chain EXPR")
        return
    result.AppendMessage("\n".join(lines))


def __lldb_init_module(debugger, internal_dict):
    debugger.HandleCommand("type summary add -w corral -F corral_lldb.handle_summary corral_handle")
    debugger.HandleCommand("type summary add -w corral -F corral_lldb.co_summary corral_co")
    debugger.HandleCommand("type category enable corral")
    debugger.HandleCommand("command script add -f corral_lldb.corral_command corral")
