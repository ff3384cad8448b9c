"""The operations of the device itself: drawing, the frame to the LEDs, the idle
main-loop pass and opening a mode from the menu."""

import gc

from presses import quiet_passes, sampling_passes
from timing import Op


def ops_canvas(rig):
    from boardside.canvas import Canvas

    c = Canvas(16, 16)
    yield Op("canvas", "clear 16x16", c.clear)
    yield Op("canvas", "fill 16x16", lambda: c.fill(0x123456))
    yield Op("canvas", "pixel() 256 times (a call per pixel)", lambda: _pixels(c))
    yield Op("canvas", "text '88' (3x5 font)", lambda: c.text(0, 0, "88", 0xFFFFFF))
    yield Op("canvas", "icon 5x5", lambda: c.icon(0, 0, "pips5", 0xFFFFFF))
    yield Op("canvas", "fill_rect 8x8", lambda: c.fill_rect(0, 0, 8, 8, 0x00FF00))


def _pixels(c):
    for y in range(16):
        for x in range(16):
            c.pixel(x, y, 0x204060)


def ops_output(rig):
    dev = rig.dev
    out = dev.output
    buf = dev.strip.buf
    from boardside.canvas import Canvas

    full = Canvas(16, 16)
    full.fill(0xFFFFFF)  # over the power budget: the limiter scales every byte
    lit = Canvas(16, 16)
    lit.fill(0x402010)  # within the budget

    def full_frame():
        full.fill(0xFFFFFF)
        out.write(full, buf)
        dev.strip.write()

    yield Op("frame", "full frame: fill + map + gamma + power limit + push", full_frame,
             budget="frame", note="every pixel white, the limiter scales the frame")
    yield Op("frame", "output.write, over the power budget", lambda: out.write(full, buf))
    yield Op("frame", "output.write, within the budget", lambda: out.write(lit, buf))
    # CircuitPython has no framebuf: its frames take the plain bytecode loop
    yield Op("frame", "output.write without framebuf (CircuitPython), over the budget",
             lambda: out.write_plain(full, buf))
    yield Op("frame", "output.write without framebuf (CircuitPython), within the budget",
             lambda: out.write_plain(lit, buf))

    def push():
        out.write(dev.app.canvas, buf)
        dev.strip.write()

    yield Op("frame", "frame push: output.write + strip.write (app canvas)", push)


def ops_device(rig):
    from boardside.events import BUTTONS

    dev = rig.dev
    rig.settle()
    yield Op("device", "idle main-loop pass, menu", dev.step, budget=None,
             note="no input, nothing to draw (clock stopped)", rig=rig, kind="idle")

    def quiet_idle():
        # the state the collection rule looks at: nothing drawn for a while, some
        # work done since the last collection (the idle pass that pays for it runs
        # once; the ones counted here are those that follow)
        rig.release_all()
        rig.passes(8)
        rig.wait(3000)

    yield Op("device", "idle main-loop pass, quiet for 3 s", rig.step, quiet_idle,
             note="virtual clock running; GC rule checked", rig=rig, kind="idle")
    levels = [False] * len(BUTTONS)

    def sink(kind, button):
        pass

    yield Op("device", "button poll + debounce, no change",
             lambda: dev.buttons.update(levels, dev.now, sink))
    yield Op("device", "read_buttons (7 pins), no change", lambda: dev.read_buttons(dev.now))



def ops_open(rig):
    """Switching to a mode from the menu: the pass that takes A, imports the mode's
    modules (as .mpy files in the VM run, as on the board: bench/run.py), restores its
    parked game and draws its first frame. The mode was parked and its modules let
    go when another mode was opened (App.park), as on the board."""
    import sys

    from board.rig import open_mode

    from boardside import modes

    app = rig.app
    quiet = quiet_passes(rig)
    sampling = sampling_passes(rig)
    # Jobs before this one imported modes' modules directly (not through
    # modes.load, which notes what to let go): forget them, so that opening a mode
    # brings them in as on a board that has only ever opened modes from the menu.
    app.park_all()
    for key in list(sys.modules):
        for name in modes.names():
            if key.startswith("boardside.modes." + name) or key == "boardside." + name \
                    or key.startswith("boardside.%s." % name):
                modes.unload(name)
                sys.modules.pop(key, None)
    for name in modes.names():
        other = "qbert" if name == "dice" else "dice"

        def setup(name=name, other=other):
            rig.release_all()
            rig.passes(quiet)
            open_mode(rig, name)   # a game of it, parked when the other one opens
            open_mode(rig, other)
            open_mode(rig, None)   # the menu keeps the other one loaded
            rig.passes(quiet)
            while app.menu[app.menu_index] != name:
                rig.tap("right")
            rig.passes(quiet)
            if "boardside.modes." + name in sys.modules:
                raise RuntimeError("%s is still loaded: this would not time an open" % name)
            rig.level("a", True)
            rig.passes(sampling)
            # The device collects at quiet moments (Device.collect), so A finds a heap
            # of live data; here the setup's own garbage would otherwise be collected
            # inside the timed pass, at random, in one sample in a few.
            gc.collect()

        yield Op("open", "press A -> first frame: open %s (import, restore, draw)" % name,
                 rig.step, setup, rig=rig, kind="open",
                 note="its modules imported again: parked, let go")
