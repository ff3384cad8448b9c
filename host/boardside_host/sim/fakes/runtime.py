"""MicroPython's own modules the firmware uses: random, gc, micropython, vfs."""

import types


def make_random(board):
    m = types.ModuleType("random")
    rng = board.rng
    m.seed = lambda s=None: board.on_seed(s)
    m.getrandbits = lambda k: rng.getrandbits(k)
    m.randint = lambda a, b: rng.randint(a, b)
    m.randrange = lambda *a: rng.randrange(*a)
    m.random = lambda: rng.random()
    m.choice = lambda s: rng.choice(s)
    m.uniform = lambda a, b: rng.uniform(a, b)
    return m


def make_gc(board):
    m = types.ModuleType("gc")
    m.collect = lambda: board.counters.__setitem__("gc", board.counters.get("gc", 0) + 1)
    m.mem_free = lambda: 190_000
    m.mem_alloc = lambda: 40_000
    m.enable = lambda: None
    m.disable = lambda: None
    m.threshold = lambda *a: None
    return m


def make_micropython(board):
    m = types.ModuleType("micropython")
    m.const = lambda x: x
    m.native = lambda f: f
    m.viper = lambda f: f
    m.kbd_intr = lambda c: setattr(board, "interrupt_char", c)
    m.heap_lock = lambda: 0
    m.heap_unlock = lambda: 0
    m.mem_info = lambda *a: None
    m.schedule = lambda f, a: f(a)
    m.alloc_emergency_exception_buf = lambda n: None
    return m


def make_vfs(board):
    m = types.ModuleType("vfs")

    class VfsLfs2:
        def __repr__(self):
            return "<VfsLfs2>"

    root = VfsLfs2()
    m.VfsLfs2 = VfsLfs2
    m.mount = lambda *a, **k: [(root, "/")] if not a else None
    return m
