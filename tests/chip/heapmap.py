"""Who holds the chip's heap: each live allocation named and given an owner.

Read from the chip's RAM right after a collection (everything in use is live), with
the image's flash for what lives there (qstr pools, frozen code). The heap's blocks
and the pointers between them make a graph, walked as MicroPython's collector walks
it: a word that points at the head of an allocation is a reference (py/gc.c). Every
module object (a frozen module's mp_module_context_t) is a root; so is every block
nothing in the heap points at (held from the stack or the VM's state). An allocation
belongs to the module whose object every path to it goes through (its dominator
among the roots); one reached from several modules is "(shared)".

Layouts are MicroPython 1.28's for the rp2 port (MP_OBJ_REPR_A, 16-byte blocks,
one byte of qstr hash): py/obj.h, py/qstr.h, py/objfun.h, py/bc.h, py/objtype.h.
"""

import struct

BLOCK = 16
XIP = 0x10000000
SHARED = "(shared)"
FUNCTIONS = ("fun_bc", "fun_native", "fun_viper", "fun_asm")
STACK = "(held from the stack)"


class Flash:
    """The image's flash, read from its .bin (it starts at XIP)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()

    def has(self, addr):
        return XIP <= addr < XIP + len(self.data)

    def word(self, addr):
        return struct.unpack_from("<I", self.data, addr - XIP)[0]

    def bytes(self, addr, n):
        return self.data[addr - XIP:addr - XIP + n]


class Heap:
    """The allocations of the GC heap: start address -> (bytes, first words)."""

    def __init__(self, read, area):
        rec, pool = area
        atb, atb_len = struct.unpack("<2I", read(rec, 8))
        self.start = struct.unpack("<I", read(pool, 4))[0]
        table = read(atb, atb_len)
        blocks = atb_len * 4
        self.end = self.start + blocks * BLOCK
        self.data = read(self.start, blocks * BLOCK)
        self.size = {}   # head address -> bytes
        i = 0
        while i < blocks:
            kind = (table[i >> 2] >> ((i & 3) * 2)) & 3
            if kind in (0, 2):
                i += 1
                continue
            n = 1
            while i + n < blocks and (table[(i + n) >> 2] >> (((i + n) & 3) * 2)) & 3 == 2:
                n += 1
            self.size[self.start + i * BLOCK] = n * BLOCK
            i += n

    def has(self, addr):
        return addr in self.size

    def word(self, addr):
        return struct.unpack_from("<I", self.data, addr - self.start)[0]

    def words(self, addr):
        n = self.size[addr] // 4
        return struct.unpack_from("<%dI" % n, self.data, addr - self.start)

    def bytes(self, addr, n):
        return self.data[addr - self.start:addr - self.start + n]


class Memory:
    """A word read wherever it is: the heap, or the image's flash."""

    def __init__(self, heap, flash):
        self.heap, self.flash = heap, flash

    def word(self, addr):
        if self.heap.start <= addr < self.heap.end:
            return self.heap.word(addr)
        if self.flash.has(addr):
            return self.flash.word(addr)
        return None


class Qstrs:
    """qstr number -> text, from the pools: the image's (in flash) and those made at
    run time (in the heap, found by their prev pointer)."""

    def __init__(self, syms, heap, flash):
        self.text = {}
        pools = []
        addr = syms.get("mp_qstr_frozen_const_pool") or syms["mp_qstr_const_pool"]
        known = set()
        while addr:
            pools.append(addr)
            known.add(addr)
            addr = self._word(addr, heap, flash)
        # the heap's pools, each pointing at the one before it
        grew = True
        while grew:
            grew = False
            for block in heap.size:
                if block not in known and heap.word(block) in known and heap.size[block] >= 32:
                    total, alloc, length = struct.unpack("<3I", heap.bytes(block + 4, 12))
                    if 0 < length <= alloc < 4096 and heap.size[block] >= 24 + 4 * alloc:
                        known.add(block)
                        pools.append(block)
                        grew = True
        for pool in pools:
            self._read_pool(pool, heap, flash)

    @staticmethod
    def _word(addr, heap, flash):
        if heap.start <= addr < heap.end:
            return heap.word(addr)
        return flash.word(addr)

    def _read_pool(self, pool, heap, flash):
        def word(a):
            return self._word(a, heap, flash)

        def raw(a, n):
            return heap.bytes(a, n) if heap.start <= a < heap.end else flash.bytes(a, n)

        total_prev = word(pool + 4) & 0x7FFFFFFF
        length = word(pool + 12)
        lengths = raw(word(pool + 20), length)
        for k in range(length):
            s = word(pool + 24 + 4 * k)
            try:
                self.text[total_prev + k] = raw(s, lengths[k]).decode()
            except (UnicodeDecodeError, TypeError, struct.error):
                pass

    def name(self, q):
        return self.text.get(q, "qstr#%d" % q)

    def obj(self, value):
        """The text of a qstr object (MP_OBJ_REPR_A: q << 3 | 2), else None."""
        if value & 7 == 2:
            return self.text.get(value >> 3)
        return None


def dominators(nodes, succ, root):
    """Immediate dominators of a graph from root (Cooper, Harvey and Kennedy)."""
    order, seen, stack = [], {root}, [(root, iter(succ.get(root, ())))]
    while stack:
        node, it = stack[-1]
        for nxt in it:
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(succ.get(nxt, ()))))
                break
        else:
            order.append(node)
            stack.pop()
    order.reverse()   # reverse postorder
    index = {n: i for i, n in enumerate(order)}
    preds = {}
    for n in order:
        for m in succ.get(n, ()):
            if m in index:
                preds.setdefault(m, []).append(n)
    idom = {root: root}

    def meet(a, b):
        while a != b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for n in order[1:]:
            new = None
            for p in preds.get(n, ()):
                if p in idom:
                    new = p if new is None else meet(p, new)
            if idom.get(n) != new:
                idom[n] = new
                changed = True
    return idom


class HeapMap:
    """Every live allocation with a name (what it is) and an owner (which module
    holds it, SHARED or STACK)."""

    def __init__(self, read, syms, area, flash_path):
        self.syms = syms
        self.heap = heap = Heap(read, area)
        self.flash = Flash(flash_path)
        self.qstrs = Qstrs(syms, heap, self.flash)
        self.types = {}
        for name, addr in syms.items():
            if "type" in name and (addr not in self.types or name.startswith("mp_type_")):
                self.types[addr] = name
        t_module = syms["mp_type_module"]
        self.refs = {}
        referred = set()
        for block in heap.size:
            out = [w for w in heap.words(block) if w in heap.size and w != block]
            self.refs[block] = out
            referred.update(out)
        self.modules = {}   # module object -> its name
        for block in heap.size:
            if heap.word(block) == t_module:
                self.modules[block] = self.module_name(block)
        # the owners named outright: a module, a function (the module it was defined
        # in), a class (the module of its methods), an instance (its own group)
        self.seed = {}
        functions = {syms.get("mp_type_" + n) for n in FUNCTIONS} - {None}
        t_type = syms["mp_type_type"]
        for block in heap.size:
            first = heap.word(block)
            if block in self.modules:
                self.seed[block] = "module " + self.modules[block]
            elif first in functions and heap.word(block + 4) in self.modules:
                self.seed[block] = "module " + self.modules[heap.word(block + 4)]
        for block in heap.size:
            first = heap.word(block)
            if first == t_type:
                homes = [self.seed[r] for r in self.refs[block] + self._locals(block)
                         if r in self.seed]
                self.seed[block] = max(set(homes), key=homes.count) if homes else SHARED
            elif first in heap.size and heap.word(first) == t_type:
                self.seed[block] = "instance of " + self.class_name(first)
        # everything else belongs to the owner every path to it goes through
        roots = list(self.seed) + [b for b in heap.size if b not in referred]
        succ = dict(self.refs)
        succ[0] = roots
        idom = dominators(heap.size, succ, 0)
        unreached = [b for b in heap.size if b not in idom]
        if unreached:   # cycles held only from the stack
            succ[0] = roots + unreached
            idom = dominators(heap.size, succ, 0)
        self.idom = idom
        self.referred = referred
        self.name = {}
        for block in heap.size:
            self.describe(block)
        self.owner = {block: self._owner(block) for block in heap.size}

    def _locals(self, type_block):
        """The functions in a class's dict (methods; the dict is one of its slots)."""
        found = []
        for r in self.refs[type_block]:
            if self.heap.word(r) == self.syms["mp_type_dict"]:
                table = self.heap.word(r + 12)
                found += self.refs.get(table, [])
        return found

    def class_name(self, type_block):
        return self.qstrs.name(struct.unpack_from("<H", self.heap.bytes(type_block + 6, 2))[0])

    def _owner(self, block):
        node = block
        while node not in self.seed:
            up = self.idom.get(node)
            if up is None or up == 0:
                return SHARED if node in self.referred else STACK
            node = up
        return self.seed[node]

    def module_name(self, block):
        globals_dict = self.heap.word(block + 4)
        for key, value in self.dict_items(globals_dict):
            if self.qstrs.obj(key) == "__name__":
                return self.qstrs.obj(value) or "?"
        return "?"

    def dict_items(self, dict_obj):
        """A dict's (key, value) words, its table read from the heap or flash."""
        mem = Memory(self.heap, self.flash)
        alloc, table = mem.word(dict_obj + 8), mem.word(dict_obj + 12)
        if alloc is None or table is None:
            return []
        items = []
        for k in range(min(alloc, 4096)):
            key, value = mem.word(table + 8 * k), mem.word(table + 8 * k + 4)
            if key is None:
                break
            if key not in (0, 4):   # MP_OBJ_NULL, MP_OBJ_SENTINEL
                items.append((key, value))
        return items

    def type_name(self, addr):
        """A type's name: a built-in's symbol, or a class's own (mp_obj_type_t.name)."""
        if addr in self.types:
            name = self.types[addr]
            return name[8:] if name.startswith("mp_type_") else name
        if addr in self.heap.size and self.heap.word(addr) == self.syms["mp_type_type"]:
            return "class " + self.qstrs.name(struct.unpack_from(
                "<H", self.heap.bytes(addr + 6, 2))[0])
        return None

    def describe(self, block):
        """What an allocation is: its type, a class's instance, a class itself (its
        name), or data named by what holds it (a dict's table, a list's items)."""
        chain = []
        while block not in self.name:
            own = self._own_name(block)
            if own is not None:
                self.name[block] = own
                break
            chain.append(block)
            block = self.idom.get(block)
            if not block:
                block = None
                break
        held_by = "data" if block is None else self.name[block]
        if block is not None and not held_by.startswith("data of "):
            held_by = "data of " + held_by
        for b in chain:
            self.name[b] = held_by
        return self.name[chain[0]] if chain else self.name[block]

    def _own_name(self, block):
        first = self.heap.word(block)
        kind = self.type_name(first)
        if kind is not None:
            if kind.startswith("class "):
                return "instance of " + kind[6:]
            if kind == "type":
                return "class " + self.class_name(block)
            if kind in ("fun_bc", "closure", "bound_meth"):
                return "function"
            if kind == "module":
                return "module object"
            parent = self.idom.get(block)
            if kind == "dict" and parent in self.modules:
                return "globals dict"
            if kind == "dict" and parent and self.type_name(self.heap.word(parent)) == "type":
                return "class's dict"
            return kind
        return None

    def summary(self):
        """owner -> {name: [bytes, count]}"""
        out = {}
        for block, size in self.heap.size.items():
            slot = out.setdefault(self.owner[block], {}).setdefault(self.name[block], [0, 0])
            slot[0] += size
            slot[1] += 1
        return out
