"""When the device collects garbage: never inside an animation, and often enough.

    node tests/micropython_vm/runner.mjs --copy tests/micropython_vm/board /lib/board \
        --copy hardware/boardside.json /hw.json --path /lib \
        tests/micropython_vm/board/gc_policy.py /hw.json

Plays dice rolls (a 600 ms tumble, a frame every 60 ms) and Quoridor cursor moves
(a blinking cursor), then rests in the menu, through the real Device, with the
device's gc module wrapped to note the virtual
time of every collection, and the time of every frame pushed to the LEDs.
Prints one line per check (tests/test_heap_lock.py reads them):

    GCPOLICY<TAB>PASS|FAIL<TAB><name><TAB><detail>
"""

import gc
import sys

from board.rig import Rig, open_mode, quoridor_new

ANIMATION_GAP_MS = 100  # frames closer than this are an animation (the dice: 60 ms)


class Watched:
    """The device's gc, noting when collections happen."""

    def __init__(self, dev):
        self.dev = dev
        self.times = []

    def collect(self):
        self.times.append(self.dev.now)
        gc.collect()

    def mem_alloc(self):
        return gc.mem_alloc()

    def mem_free(self):
        return gc.mem_free()


def report(status, name, detail):
    print("\t".join(("GCPOLICY", status, name, detail)))


def main(argv):
    with open(argv[0]) as f:
        rig = Rig(f.read())
    dev = rig.dev
    device = rig.device
    watched = Watched(dev)
    device.gc = watched
    frames = []
    pushes = [dev.strip.frames]

    def step(ms=None):
        Rig.step(rig, ms)
        if dev.strip.frames != pushes[0]:
            pushes[0] = dev.strip.frames
            frames.append(dev.now)

    rig.step = step
    open_mode(rig, "dice")
    for _ in range(12):
        rig.tap("a")      # roll: the tumble animation
        rig.wait(700)
        rig.tap("right")  # another die
        rig.wait(300)
    quoridor_new(rig, 2)
    for _ in range(10):
        for b in ("right", "right", "left", "left", "up", "down"):
            rig.tap(b)
    open_mode(rig, None)  # the menu: nothing moves, the idle rule may collect
    rig.wait(3000)

    quiet = ANIMATION_GAP_MS
    inside = []
    for t in watched.times:
        before = [f for f in frames if f <= t]
        after = [f for f in frames if f > t]
        # a collection between two frames less than ANIMATION_GAP_MS apart
        # would lengthen that gap: an animation stuttering
        if before and after and after[0] - before[-1] < quiet:
            inside.append(t)
        elif before and t - before[-1] < quiet:
            inside.append(t)
    name = "no collection inside an animation"
    if not watched.times:
        report("FAIL", name, "no collection at all: nothing to check")
    elif inside:
        report("FAIL", name, "collections at %r ms, within %d ms of a frame"
               % (inside[:5], quiet))
    else:
        report("PASS", name, "%d collections, %d frames" % (len(watched.times), len(frames)))

    name = "collections keep up with the garbage"
    # the games allocate far more than GC_SLACK: the quiet moments must collect it
    if len(watched.times) < 5:
        report("FAIL", name, "only %d collections in the games" % len(watched.times))
    elif watched.times[-1] < frames[-1] or dev.now - frames[-1] < device.GC_IDLE_MS:
        # the menu's last frame left garbage: a quiet collection, or the idle rule's
        # within GC_IDLE_MS of it, must have taken it
        report("FAIL", name, "no collection after the last frame, at %d ms" % frames[-1])
    else:
        report("PASS", name, "%d collections, the last at %d ms of %d"
               % (len(watched.times), watched.times[-1], dev.now))

    name = "the menu at rest lets the mode left go"
    # the menu keeps the mode it was opened from until its quiet collection, which
    # parks it (App.rest) with the glyphs and icons it drew; on the chip the heap in
    # use after that collection is bench/chip.py's "heap live back in the menu"
    from boardside import canvas

    loaded = [m for m in ("boardside.modes.quoridor", "boardside.quoridor")
              if m in sys.modules]
    images = len(canvas._images) + len(canvas._by_char) + len(canvas._by_icon)
    parked = "quoridor" in rig.app.parked and not rig.app.instances
    if loaded or images or not parked:
        report("FAIL", name, "still loaded: %r, images kept: %d, parked: %r, loaded: %r"
               % (loaded, images, parked, list(rig.app.instances)))
    else:
        report("PASS", name, "Quoridor parked, its modules and the images let go")

    name = "a mode left is let go, and comes back"
    # Quoridor's game is in play (parked) and its code loaded again here.
    # What that frees is measured by bench/heap.py: this VM only collects between
    # steps, so a figure taken here would not show it.
    import boardside

    record = rig.app.mode("quoridor").game.record()
    open_mode(rig, "dice")
    loaded = [m for m in ("boardside.modes.quoridor", "boardside.quoridor.engine",
                          "boardside.quoridor") if m in sys.modules]
    if hasattr(boardside, "quoridor"):
        loaded.append("boardside's attribute quoridor")
    parked = "quoridor" in rig.app.parked and "quoridor" not in rig.app.instances
    open_mode(rig, "quoridor")
    back = rig.app.mode("quoridor").game.record()
    if loaded or not parked:
        report("FAIL", name, "still loaded: %r, parked: %r" % (loaded, parked))
    elif not record or back != record:
        report("FAIL", name, "the game came back as %r, was %r" % (back, record))
    else:
        report("PASS", name, "modules forgotten, the game of %d characters back"
               % len(record))

    name = "a mode's modules imported after it opened are let go too"
    # PAC-MAN imports its layout editor when the editor is first opened; the editor
    # imports PAC-MAN's own modules and the Quoridor engine, so a kept editor held all
    # of them after PAC-MAN was parked
    open_mode(rig, "pacman")
    rig.app.mode().open_editor("default")
    rig.step()
    opened = "boardside.modes.pacman_editor" in sys.modules
    open_mode(rig, "dice")
    loaded = [m for m in sys.modules
              if m.startswith("boardside.pacman") or m.startswith("boardside.quoridor")
              or m.startswith("boardside.modes.pacman") or m == "boardside.modes.quoridor_board"]
    if not opened or loaded:
        report("FAIL", name, "editor imported: %r, still loaded: %r" % (opened, loaded))
    else:
        open_mode(rig, "pacman")
        screen = rig.app.mode().screen
        report("PASS" if screen == "edit" else "FAIL", name,
               "the editor's modules forgotten; PAC-MAN back on screen %r" % screen)

main(sys.argv[1:])
