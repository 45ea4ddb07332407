# corral_core.py -- what corral's debugger scripts (corral_gdb.py,
# corral_lldb.py) know of a scheduler in memory: its live coroutines, what
# each is doing, its context's fields through the type's field table, and
# the chain it is part of. It reads memory only (no call into the
# program). Offsets and sizes come from the program's debug information
# through the debugger (`Reader`), constants from the library's
# corral__debugger (sched.c), never from this file, so a change of src/'s
# layout needs no change here.

import struct

NIL = 0xFFFFFFFF


class Reader:
    """What a debugger gives the scripts (corral_gdb.py, corral_lldb.py)."""

    def ev_int(self, expr):  # a C expression's value as an integer
        raise NotImplementedError

    def read(self, addr, n):  # n bytes of the program's memory
        raise NotImplementedError

    def cstr(self, addr):  # a C string
        raise NotImplementedError

    def enum_name(self, type_name, value):  # an enumerator's name
        raise NotImplementedError

    def field_table(self, fn_addr):  # (address, count) of NAME__fields' table
        raise NotImplementedError

    def typed(self, type_name, addr):  # an object of a named type as text, or None
        return None

    def sched_pointers(self):  # every corral_sched * the threads' frames see
        raise NotImplementedError


class Layout:
    """Offsets, sizes and constants asked of the debug information once each."""

    def __init__(self, r):
        self.r = r
        self.cache = {}

    def _ask(self, expr):
        v = self.cache.get(expr)
        if v is None:
            v = self.cache[expr] = self.r.ev_int(expr)
        return v

    def off(self, t, member):
        return self._ask("(unsigned long)&((%s *)0)->%s" % (t, member))

    def size(self, t, member=None):
        return self._ask("sizeof(%s)" % t if member is None else "sizeof(((%s *)0)->%s)" % (t, member))

    def const(self, name):  # a member of the library's corral__debugger (sched.c)
        return self._ask("(long)corral__debugger.%s" % name)


class Mem:
    """Typed reads: a member of a struct at an address."""

    def __init__(self, r, lay):
        self.r, self.lay = r, lay

    def u(self, addr, t, member):
        n = self.lay.size(t, member)
        data = self.r.read(addr + self.lay.off(t, member), n)
        return struct.unpack("<" + {1: "B", 2: "H", 4: "I", 8: "Q"}[n], data)[0]

    def f64(self, addr, t, member):
        return struct.unpack("<d", self.r.read(addr + self.lay.off(t, member), 8))[0]

    def ptr(self, addr):
        n = self.lay.size("void *")
        return struct.unpack("<" + {4: "I", 8: "Q"}[n], self.r.read(addr, n))[0]


def _base_name(path):
    return path.replace("\\", "/").rsplit("/", 1)[-1]


class Sched:
    def __init__(self, r, addr):
        self.r, self.addr = r, addr
        self.lay = Layout(r) if not hasattr(r, "layout") else r.layout
        self.m = Mem(r, self.lay)
        L, m = self.lay, self.m
        S = "corral_sched"
        self.types_at = addr + L.const("types_off")
        self.te_size = L.size("corral__type_entry")
        self.class_size = L.size("corral__class")
        self.classes_at = addr + L.off(S, "arena.classes")
        self.class_count = m.u(addr, S, "arena.class_count")
        self.nodes_at = addr + m.u(addr, S, "nodes.off")
        self.node_size = L.size("corral__node")
        self.text_off = m.u(addr, S, "nodes.text_off")
        self.sides_at = addr + m.u(addr, S, "sides.off")
        self.pages_at = addr + m.u(addr, S, "timers.pages_off")  # the timer store's pages
        self.tabs_at = addr + m.u(addr, S, "timers.tabs_off")    # each heap's page table
        self.tab_len = m.u(addr, S, "timers.tab_len")
        self.heaps = m.u(addr, S, "timers.heaps")                # the clocks' heaps; the held heap is next
        self.side_size = L.size("corral__side")
        self.owners = None  # global slot -> side record index (side_index)
        self.total = m.u(addr, S, "arena.total_slots")
        self.bytes = m.u(addr, S, "total_bytes")

    # ---- slots and handles
    def cls(self, i, member):
        return self.m.u(self.classes_at + i * self.class_size, "corral__class", member)

    def co_at_global(self, g):
        for i in range(self.class_count):
            first, cap = self.cls(i, "first"), self.cls(i, "capacity")
            if first <= g < first + cap:
                return self.addr + self.cls(i, "base") + (g - first) * self.cls(i, "slot_size")
        return None

    def co(self, co, member):
        return self.m.u(co, "corral_co", member)

    def te(self, co):
        return self.types_at + self.co(co, "type") * self.te_size

    def class_of(self, co):
        return self.m.u(self.te(co), "corral__type_entry", "cls")

    def global_of(self, co):
        i = self.class_of(co)
        return self.cls(i, "first") + (co - self.addr - self.cls(i, "base")) // self.cls(i, "slot_size")

    def handle_of(self, co):
        i = self.class_of(co)
        return (i << 24 | (self.global_of(co) - self.cls(i, "first")), self.co(co, "gen"))

    def alive(self, co):
        return self.co(co, "state") not in (self.lay.const("free"), self.lay.const("retired"))

    def resolve(self, index, gen):
        i, local = index >> 24, index & 0xFFFFFF
        if i >= self.class_count or local >= self.cls(i, "capacity"):
            return None
        co = self.co_at_global(self.cls(i, "first") + local)
        return co if self.co(co, "gen") == gen and self.alive(co) else None

    def owns(self, ptr):
        return self.addr <= ptr < self.addr + self.bytes

    def live(self):
        for g in range(self.total):
            co = self.co_at_global(g)
            if self.alive(co):
                yield co

    # ---- its meta, side record and wait nodes
    def side_index(self, co):
        """its side record's index, NIL: none. The records in use below the
        bump name their owner by global slot (a free one: NIL); read once
        per Sched, as the library's lookup would find them"""
        if self.owners is None:
            self.owners = {}
            for i in range(self.m.u(self.addr, "corral_sched", "sides.bump")):
                g = self.m.u(self.sides_at + i * self.side_size, "corral__side", "owner")
                if g != NIL:
                    self.owners[g] = i
        return self.owners.get(self.global_of(co), NIL)

    def side(self, co, member):
        i = self.side_index(co)
        return NIL if i == NIL else self.m.u(self.sides_at + i * self.side_size, "corral__side", member)

    def link_sleeps(self, co):  # its link names a plain sleep's timer entry (CORRAL__SLEEP_LINK)
        return 0 <= self.co(co, "link") - self.lay.const("sleep_link") < 0x70000000

    def wait_head(self, co):
        """the first node of its wait: its header's link while it has a wait
        chain (waiting, held while waiting, or building a race's arms); a
        plain sleep has none"""
        L = self.lay
        st = self.co(co, "state")
        chained = st == L.const("waiting") or (self.side_mode(co) & L.const("mode_open")) or \
            (st >= L.const("paused") and (st & L.const("hold_waiting")))
        return self.co(co, "link") if chained and not self.link_sleeps(co) else NIL

    def sleep(self, co):
        """a plain sleep's (kind, clock heap, held, due time or, held, time
        left) from its timer entry, or None"""
        L = self.lay
        st = self.co(co, "state")
        if not self.link_sleeps(co) or not (st == L.const("waiting") or
                                            (st >= L.const("paused") and (st & L.const("hold_waiting")))):
            return None
        link = self.co(co, "link")
        held = (link & L.const("sleep_held")) != 0
        heap = (link >> L.const("sleep_heap_shift")) & L.const("sleep_heap_mask")
        at = (link & L.const("sleep_pos")) + L.const("heap_skew")
        shift = L.const("heap_page_shift")
        tab = self.tabs_at + ((self.heaps if held else heap) * self.tab_len + (at >> shift)) * 4
        page = struct.unpack("<I", self.r.read(tab, 4))[0]
        entry = self.pages_at + ((page << shift) + (at & ((1 << shift) - 1))) * L.size("corral__heap_entry")
        due = struct.unpack("<d", self.r.read(entry, 8))[0]
        ref = self.m.u(entry, "corral__heap_entry", "ref")
        kind = L.const("wait_frames") + ((ref >> L.const("sleep_kind_shift")) & 3)
        return kind, heap, held, due

    def side_mode(self, co):  # a wait of several nodes' mode, in its side record (0: none)
        m = self.side(co, "mode")
        return 0 if m == NIL else m

    def mode(self, co):
        """how its wait waits: a wait of several nodes' mode is its side
        record's; else one node is ONE, none 0"""
        m = self.side_mode(co)
        if m:
            return m
        return self.lay.const("mode_one") if self.wait_head(co) != NIL or self.sleep(co) else 0

    def node(self, i, member):
        return self.m.u(self.nodes_at + i * self.node_size, "corral__node", member)

    def clock_of(self, heap):
        L, S = self.lay, "corral_sched"
        if heap == L.const("heap_real"):
            return self.m.f64(self.addr, S, "now.unscaled_time")
        if heap == L.const("heap_frames"):
            return float(self.m.u(self.addr, S, "now.frame"))
        domain = 0 if heap == L.const("heap_scaled") else heap - 2
        return self.m.f64(self.addr + L.const("domains_off"), "corral__domains", "d[%d].time" % domain)

    def keeps_due(self, kind):  # its table (s->parts.wait[kind]) says a held node keeps its due time
        table = self.m.ptr(self.addr + self.lay.off("corral_sched", "parts.wait[%d]" % kind))
        return table != 0 and self.m.u(table, "corral__wait_part", "keeps_due") != 0

    def time_left(self, co):
        L = self.lay
        sleep = self.sleep(co)
        if sleep:  # held: its entry keeps the time it has left
            kind, heap, held, due = sleep
            return max(due if held else due - self.clock_of(heap), 0.0)
        left = None
        i = self.wait_head(co)
        while i != NIL:
            attached = self.node(i, "attached")
            kind = self.node(i, "kind")
            if attached and L.const("timer_kind[%d]" % kind):
                due = self.m.f64(self.nodes_at + i * self.node_size, "corral__node", "u.t.due")
                if attached != 2 or self.keeps_due(kind):  # held: due is the time left, unless its kind keeps its time
                    due -= self.clock_of(self.node(i, "list"))
                left = due if left is None else min(left, due)
            i = self.node(i, "sibling")
        return None if left is None else max(left, 0.0)

    def racing(self, co):
        mode = self.mode(co)
        return mode in (self.lay.const("mode_race"), self.lay.const("mode_sync"))

    def state(self, co):
        L = self.lay
        st = self.co(co, "state")
        mode = self.mode(co)
        # a first step inside start is RUNNING (or STOPPING); a walk's step is
        # the one run.running names
        if st in (L.const("running"), L.const("stopping")) or \
                co - self.addr == self.m.u(self.addr, "corral_sched", "run.running"):
            return "running"
        if st >= L.const("paused"):  # held: "paused" | its hold (no other state is as high)
            return "paused"
        if mode == L.const("mode_race"):
            return "calling (race)"
        if mode == L.const("mode_sync"):
            return "calling (sync)"
        if self.side(co, "child") != NIL:
            return "calling"
        return "waiting" if st == L.const("waiting") else "queued"

    def waits(self, co):
        L = self.lay
        w = self.wait_head(co)
        sleep = self.sleep(co)
        if self.co(co, "state") != L.const("waiting") or (w == NIL and not sleep) or self.racing(co):
            return None
        mode = self.mode(co)
        if sleep:
            kind = self.r.enum_name("corral_wait_kind", sleep[0])
            kind = kind.replace("CORRAL_WAIT_", "").replace("_", " ").lower()
        elif mode == L.const("mode_all"):
            kind = "all"
        elif mode == L.const("mode_any"):
            kind = "any"
        else:
            kind = self.r.enum_name("corral_wait_kind", self.node(w, "kind"))
            kind = kind.replace("CORRAL_WAIT_", "").replace("_", " ").lower()
        if self.text_off and not sleep:  # desc.wait_text: the wait as written (a plain sleep keeps none)
            text = self.m.ptr(self.addr + self.text_off + w * self.lay.size("void *"))
            if text:
                kind += " " + self.r.cstr(text)
        left = self.time_left(co)
        if left is None:
            return kind
        return "%s, %.3f %s left" % (kind, left, "frames" if kind.startswith("frames") else "s")

    def vt(self, co, member):
        vt = self.m.ptr(self.te(co) + self.lay.off("corral__type_entry", "vt"))
        return self.m.ptr(vt + self.lay.off("corral_type", member))

    def describe(self, co):
        """one line: type handle state (wait) at file:line"""
        index, gen = self.handle_of(co)
        text = "%s 0x%06x:%d %s" % (self.r.cstr(self.vt(co, "name")), index, gen, self.state(co))
        w = self.waits(co)
        if w:
            text += " (%s)" % w
        line = self.co(co, "resume") >> 16
        file = self.vt(co, "file")
        if line and file:
            text += " at %s:%d" % (_base_name(self.r.cstr(file)), line)
        return text

    def fields(self, co):
        """(name, value text) of its context, through the type's field table"""
        fn = self.vt(co, "fields")
        table = self.r.field_table(fn) if fn else None
        if not table:
            return []
        at, count = table
        F, size = "corral_field", self.lay.size("corral_field")
        ctx = co + self.m.u(self.te(co), "corral__type_entry", "ctx_off")
        out = []
        for k in range(count):
            f = at + k * size
            name = self.r.cstr(self.m.ptr(f + self.lay.off(F, "name")))
            type_name = self.r.cstr(self.m.ptr(f + self.lay.off(F, "type_name")))
            off, n = self.m.u(f, F, "offset"), self.m.u(f, F, "size")
            kind = self.r.enum_name("corral_field_kind", self.m.u(f, F, "kind"))
            out.append((name, self._value(kind, type_name, ctx + off, n)))
        return out

    def _value(self, kind, type_name, addr, n):
        mem = self.r.read(addr, n)
        ints = {1: "b", 2: "h", 4: "i", 8: "q"}
        if kind == "CORRAL_FIELD_INT" and n in ints:
            return str(struct.unpack("<" + ints[n], mem)[0])
        if kind in ("CORRAL_FIELD_UINT", "CORRAL_FIELD_POINTER") and n in ints:
            v = struct.unpack("<" + ints[n].upper(), mem)[0]
            return str(v) if kind == "CORRAL_FIELD_UINT" else "0x%x" % v
        if kind == "CORRAL_FIELD_FLOAT" and n in (4, 8):
            return "%g" % struct.unpack("<" + ("f" if n == 4 else "d"), mem)[0]
        if kind == "CORRAL_FIELD_BOOL":
            return "true" if any(mem) else "false"
        if kind == "CORRAL_FIELD_HANDLE" and n == 8:
            return "0x%06x:%d" % struct.unpack("<II", mem)
        if kind == "CORRAL_FIELD_OTHER":  # the debugger knows the type by the name the FIELDS list gave
            text = self.r.typed(type_name, addr)
            if text is not None:
                return text
        return " ".join("%02x" % b for b in mem)

    # ---- chains
    def chain(self, co):
        """the lines of the chain co is in, from its outermost caller down"""
        mark = co
        root = co
        for _ in range(self.total):
            parent = self.side(root, "parent")
            if parent == NIL:
                break
            root = self.co_at_global(parent)
        out = []
        self._down(root, 0, mark, out)
        return out

    def _down(self, co, depth, mark, out):
        while co is not None:
            out.append("%s%s%s" % ("> " if co == mark else "  ", "  " * depth, self.describe(co)))
            depth += 1
            if self.racing(co):
                i = self.wait_head(co)
                while i != NIL:
                    target = self.node(i, "u.t.target")
                    if self.node(i, "kind") == self.lay.const("node_arm") and target != NIL:
                        self._down(self.co_at_global(target), depth, mark, out)
                    i = self.node(i, "sibling")
                return
            child = self.side(co, "child")
            co = self.co_at_global(child) if child != NIL else None


def scheds(r):
    """every live scheduler the program's threads see: a corral_sched *
    among their frames' arguments, locals and their files' statics that
    points at one (its first word the library's magic number)"""
    lay = Layout(r)
    r.layout = lay
    m = Mem(r, lay)
    seen = set()
    for p in r.sched_pointers():
        if not p or p in seen:
            continue
        seen.add(p)
        try:
            live = m.u(p, "corral_sched", "magic") == lay.const("magic")
        except Exception:  # not readable: no scheduler there
            live = False
        if live:
            yield Sched(r, p)


def find_handle(r, index, gen):
    for s in scheds(r):
        co = s.resolve(index, gen)
        if co is not None:
            return s, co
    return None, None


def find_co(r, ptr):
    for s in scheds(r):
        if s.owns(ptr):
            return (s, ptr) if s.alive(ptr) else (s, None)
    return None, None


def show(r, index=None, gen=None, ptr=None):
    """a handle's or a corral_co's text: its line and its fields"""
    if ptr is None and gen == 0:
        return "corral_handle 0 (none)", []
    s, co = find_co(r, ptr) if ptr is not None else find_handle(r, index, gen)
    if co is None:
        what = "corral_co at 0x%x" % ptr if ptr is not None else "0x%06x:%d" % (index, gen)
        return what + " (no live coroutine)", []
    return s.describe(co), s.fields(co)


def list_lines(r):
    out = []
    for s in scheds(r):
        frame = s.m.u(s.addr, "corral_sched", "now.frame")
        out.append("scheduler at frame %d, %d live" % (frame, s.m.u(s.addr, "corral_sched", "arena.live")))
        out.extend("  " + s.describe(co) for co in s.live())
    return out or ["no live scheduler"]


def chain_lines(r, index=None, gen=None, ptr=None):
    s, co = find_co(r, ptr) if ptr is not None else find_handle(r, index, gen)
    if co is None:
        return ["corral: no live coroutine there"]
    return s.chain(co)
