"""The chip: the built image on an emulated RP2040 (rp2040js), against the simulator.

The frozen image (BOARDSIDE_PICO) boots on the emulated chip; the same presses go
to the chip's pins and to the simulator, and the LED bytes decoded from the chip's
data pin must be the simulator's, rolls included: the simulator's entropy is the
chip's, every value os.urandom() returned on the chip (read from its RAM by the
rig) replayed in order. Every mode opens, the settings screen too, and no
exception, crash or MemoryError shows on the serial port. A MemoryError forced on
the chip (one allocation made to fail, as a full heap fails it) restores the game
from its last save. The long run (an
evening of play, power cuts, the stock image with a deploy, the figures) is
tests/test_chip_board.py (``make test-board``). See docs/chip.md.

Skipped with the reason when the image, Node.js's rp2040js or the bootrom is not
there; with BOARDSIDE_REQUIRE_CHIP=1 that fails instead.
"""

import os
import sys

import pytest

from boardside import dice
from boardside_host.sim import SimBoard

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "chip"))
import rig  # noqa: E402  (tests/chip, not a package)
from evening import ChipEntropy  # noqa: E402

MODES = ["dice", "quoridor", "pacman", "qbert", "cubequest", "qubo"]
ROLL_MS = 1200  # a die's tumble, then its result
# presses in each mode, (button, ms to settle): rolls and draws among them
PRESSES = {"dice": [("right", 0), ("a", ROLL_MS), ("up", 0), ("a", ROLL_MS), ("left", 0)],
           "quoridor": [("right", 0), ("left", 0)],
           "pacman": [("left", 0), ("right", 0)],
           "qbert": [("a", ROLL_MS), ("a", ROLL_MS)],  # the roll-off
           "cubequest": [("down", 0), ("right", 0), ("up", 0)],
           "qubo": [("down", 0), ("right", 0)]}
SETTLE_MS = 400  # after a press: the frame is out, the screen still


def need_chip(board="BOARDSIDE_PICO"):
    why = rig.missing(board)
    if why is None:
        return
    if os.environ.get("BOARDSIDE_REQUIRE_CHIP") == "1":
        pytest.fail("the chip layer cannot run: " + why)
    pytest.skip("the chip layer cannot run: " + why)


class Pair:
    """The chip and the simulator, given the same presses at the same times."""

    def __init__(self, chip, sim):
        self.chip = chip
        self.sim = sim
        self.mismatches = []

    def settle(self, ms=SETTLE_MS):
        self.chip.advance(ms)
        self.sim.advance(ms)

    def tap(self, button, compare=True, settle_ms=0):
        self.chip.tap(button)
        self.sim.tap(button)
        self.settle(max(settle_ms, SETTLE_MS))
        if compare:
            self.compare(button)

    def compare(self, what):
        chip = self.chip.frames[-1].panel if self.chip.frames else None
        if chip != self.sim.last_leds:
            self.mismatches.append(what)
        return chip == self.sim.last_leds


def bad_output(chip):
    """Crash, exception and MemoryError reports in the chip's serial output."""
    out = [e for e in chip.events if e["event"] in ("crash", "error", "exception")]
    out += [line for line in chip.console
            if "Traceback" in line or "Error" in line or "MemoryError" in line]
    return out


@pytest.fixture(scope="module")
def pair():
    need_chip()
    chip = rig.ChipBoard("BOARDSIDE_PICO")
    sim = SimBoard(seed=1)
    sim.entropy = ChipEntropy(chip)
    try:
        chip.boot()
        sim.boot()
        p = Pair(chip, sim)
        p.settle()
        yield p
    finally:
        chip.close()
        sim.close()


def test_boots_to_the_menu(pair):
    chip = pair.chip
    boot = next(e for e in chip.events if e["event"] == "boot")
    assert boot["t_ms"] < 2000, "boot event at %.0f emulated ms" % boot["t_ms"]
    assert chip.frames, "no frame decoded from the LED data pin"
    assert pair.compare("menu"), "the menu's LEDs differ from the simulator's"
    reply = chip.request({"cmd": "hello"})
    assert reply["ok"] and reply["modes"] == MODES
    assert chip.request({"cmd": "state"})["screen"] == "menu"
    assert bad_output(chip) == []


def test_menu_presses_match_the_simulator(pair):
    shown = set()
    for button in ["right", "right", "left", "down", "up", "left"]:
        pair.tap(button)
        shown.add(pair.chip.frames[-1].panel)
    assert pair.mismatches == []
    assert len(shown) >= 3, "the presses changed nothing on the LEDs: nothing compared"
    assert pair.chip.request({"cmd": "state"})["menu"]["selected"] == "dice"


def test_every_mode_opens(pair):
    chip = pair.chip
    # the image's code is frozen and the built-ins it imports are kept in sys.modules
    # (on_micropython.pin_builtins): opening a mode searches no file system, where
    # each import of json or array looked in "" and /lib first (six littlefs lookups)
    watch = chip.trace(["mp_vfs_import_stat"])
    assert watch, "the ELF has no mp_vfs_import_stat: nothing would be counted"
    chip.traces.clear()
    for k, mode in enumerate(MODES):
        opened = len(chip.frames)
        pair.tap("a")  # open the selected mode
        assert len(chip.frames) > opened, "%s drew no frame" % mode
        state = chip.request({"cmd": "state"})
        assert state["screen"] == mode, state
        for button, settle_ms in PRESSES[mode]:
            pair.tap(button, settle_ms=settle_ms)
            mine, theirs = chip.request({"cmd": "state"}), pair.sim.request({"cmd": "state"})
            assert mine == theirs, "%s %s: chip %s, simulator %s" % (mode, button, mine, theirs)
        pair.tap("menu")  # back to the menu, still on this mode
        pair.tap("right")
    chip.trace(())
    searches = [t for t, name in chip.traces if name == "mp_vfs_import_stat"]
    assert searches == [], "imports looked for files at %s ms" % searches
    assert pair.mismatches == [], "frames unlike the simulator's after: %s" % pair.mismatches
    assert bad_output(chip) == []
    drawn = sum(len(v) for v in chip.entropy)
    assert pair.sim.entropy.taken == drawn, "the simulator drew %d of the chip's %d bytes" % (
        pair.sim.entropy.taken, drawn)
    # the boot's two (the sealing key, random's seed), then one or more a roll
    rolls = sum(1 for presses in PRESSES.values() for _, ms in presses if ms == ROLL_MS)
    assert len(chip.entropy) >= 2 + rolls, "rolls drew nothing: %s" % chip.entropy
    free = chip.heap()
    assert free["free"] > 60 * 1024, free


def test_settings_screen_opens(pair):
    chip = pair.chip
    assert chip.request({"cmd": "state"})["menu"]["selected"] == "settings"
    pair.tap("a")
    state = chip.request({"cmd": "state"})
    assert bad_output(chip) == [], "settings screen: %s" % bad_output(chip)
    assert state["screen"] == "settings", state
    pair.tap("down")
    pair.tap("menu")
    assert chip.request({"cmd": "state"})["screen"] == "menu"
    assert pair.mismatches == [], "frames unlike the simulator's after: %s" % pair.mismatches


def test_an_idle_menu_allocates_nothing_on_the_image(pair):
    """The image keeps Python frames on a stack of its own (MICROPY_ENABLE_PYSTACK,
    boards/boardside_pystack.h): a call takes no frame from the heap, so
    the main loop at rest allocates nothing and its allocations start no collection
    (with frames from the heap: three allocations a pass, a collection about every
    second in an idle menu)."""
    chip = pair.chip
    pair.settle(3000)  # the quiet collection after the last frame is behind
    watch = chip.trace(["gc_alloc"])
    assert watch, "the ELF has no gc_alloc: nothing would be counted"
    chip.traces.clear()
    passes, gcs = chip.pass_calls, len(chip.gcs)
    pair.settle(2000)
    chip.trace(())
    allocs = [t for t, name in chip.traces if name == "gc_alloc"]
    assert chip.pass_calls - passes > 100, "the main loop did not run: nothing was counted"
    assert allocs == [], "%d allocations in 2 s of an idle menu" % len(allocs)
    assert len(chip.gcs) == gcs


def test_heap_and_gc_read_from_the_chip_agree_with_micropython():
    """The heap read from RAM is gc.mem_free()/gc.mem_alloc() to the byte, and the
    gc_collect() run timed on the core is the one the chip's own clock times."""
    need_chip("RPI_PICO")
    chip = rig.ChipBoard("RPI_PICO")  # stock MicroPython: the REPL, nothing else runs
    try:
        chip.advance(1200)

        def run(line):
            chip.read_serial()
            chip.write_serial(line + "\r")
            chip.run_until(lambda: chip._serial.endswith(b">>> "), 5000, 5)
            return chip.read_serial()

        run("import gc, time; f = a = d = 0")
        for _ in range(3):
            runs = len(chip.gcs)
            run("t = time.ticks_us(); gc.collect(); d = time.ticks_diff(time.ticks_us(), t); "
                "f = gc.mem_free(); a = gc.mem_alloc()")
            heap = chip.heap()
            timed = chip.gcs[runs:]
            f, a, d = (int(v) for v in run("print(f, a, d)").split()[3:6])
            assert (heap["free"], heap["alloc"]) == (f, a)
            assert heap["largest"] <= heap["free"]
            assert len(timed) == 1
            assert 0 < timed[0][1] * 1000 <= d < timed[0][1] * 1000 + 100  # us
    finally:
        chip.close()



def test_a_memory_error_on_the_chip_restores_the_last_save():
    """README: a crash, MemoryError included, restores the game from its last save.
    On the chip, the k-th allocation after a press is made to fail as a full heap
    fails it (m_malloc -> m_malloc_fail, raising MemoryError wherever Python asked):
    each lands somewhere else in the press's way from the pin to the LEDs."""
    need_chip()
    chip = rig.ChipBoard("BOARDSIDE_PICO")
    try:
        chip.boot()
        chip.advance(SETTLE_MS)
        chip.tap("a")  # Dice
        chip.advance(SETTLE_MS)
        chip.tap("a")  # a roll: something to keep
        chip.advance(ROLL_MS)
        saved = chip.request({"cmd": "state"})
        assert saved["screen"] == "dice" and saved["state"]["rolls"] == 1, saved
        for k in (1, 3, 8, 21, 55, 144):
            events, failed = len(chip.events), len(chip.failed_allocs)
            chip.fail_alloc(k)
            chip.tap("right")  # the next die (d6 -> d8), in RAM only until it is saved
            chip.advance(600)
            crashes = [e for e in chip.events[events:] if e["event"] == "crash"]
            assert len(chip.failed_allocs) == failed + 1, "allocation %d never came" % k
            assert len(crashes) == 1, (k, chip.events[events:])
            assert crashes[0]["error"].startswith("MemoryError"), crashes
            assert crashes[0]["restored"] is True, crashes
            assert chip.request({"cmd": "state"}) == saved, k
        # a request whose handling runs out of memory is still answered, once
        for k in (1, 3, 6, 10, 15):
            failed = len(chip.failed_allocs)
            chip.fail_alloc(k)
            reply = chip.request({"cmd": "state"})
            assert reply == saved or (reply["ok"] is False and "MemoryError" in reply["error"]), (
                k, reply)
            chip.fail_alloc(0)
            chip.advance(SETTLE_MS)
            assert chip.replies == [], "a second reply: %s" % chip.replies
            assert len(chip.failed_allocs) == failed + 1, "allocation %d never came" % k
            assert chip.request({"cmd": "state"}) == saved
        assert not any(e["event"] == "boot" for e in chip.events[1:]), "the chip restarted"
        chip.tap("right")  # and the evening goes on
        chip.advance(SETTLE_MS)
        assert chip.request({"cmd": "state"})["state"]["die"] == "d8"
    finally:
        chip.close()


# -- presses during a flash write -----------------------------------------------------
def menu_saving(chip, rounds=20):
    """Dice opened, its die changed and left (MENU): the menu, its cursor on Dice,
    and the board run until the save of that change erases a sector (the core
    stalled 45 ms, no code running from flash). Not every save erases (littlefs
    erases a block when it needs a fresh one): again until one does. Returns the
    die Dice has and when the erase began (within the last ms)."""
    chip.advance(SETTLE_MS)
    for _ in range(rounds):
        chip.tap("a")  # Dice
        chip.tap("right")  # the next die: a change to save
        chip.advance(2 * SETTLE_MS)  # (saved meanwhile)
        die = chip.request({"cmd": "state"})["state"]["die"]
        erased = chip.flash_ops.get("erase_sectors", 0)
        stalled = chip.flash_ops.get("stall_ns", 0)
        # back to the menu: saved right after the menu's frame, MENU still down (let
        # go within the erase, or after 60 ms)
        chip.press("menu")
        up_at = chip.now_ms + 60
        end = chip.now_ms + 2000
        while chip.now_ms < end:
            chip.advance(1)
            if up_at is not None and (chip.now_ms >= up_at
                                      or chip.flash_ops.get("stall_ns", 0) > stalled):
                chip.release("menu")
                up_at = None
            if chip.flash_ops.get("erase_sectors", 0) > erased:
                return die, chip.now_ms
            if chip.flash_ops.get("stall_ns", 0) > stalled:
                end = min(end, chip.now_ms + 20)  # the save is under way, without an erase
        chip.advance(SETTLE_MS)
    raise AssertionError("no save erased a sector in %d rounds" % rounds)


def next_die(die):
    sides = dice.STANDARD
    return "d%d" % sides[(sides.index(int(die[1:])) + 1) % len(sides)]


def flash_quiet(chip, quiet_ms=2, timeout_ms=1000):
    """Run until the core has not been stalled by the flash for ``quiet_ms``: the
    write is over."""
    end = chip.now_ms + timeout_ms
    still = 0
    while still < quiet_ms:
        assert chip.now_ms < end, "the flash write did not end"
        stalled = chip.flash_ops.get("stall_ns", 0)
        chip.advance(1)
        still = still + 1 if chip.flash_ops.get("stall_ns", 0) == stalled else 0
    return chip.now_ms - quiet_ms


def screens_after(chip, start):
    return [e["screen"] for e in chip.events[start:] if e["event"] == "screen"]


def assert_dice_on_its_next_die(chip, events, die):
    """A was taken before RIGHT: Dice opened (and nothing else), on the die after
    ``die``, with no error on the way."""
    assert screens_after(chip, events) == ["dice"]
    state = chip.request({"cmd": "state"})
    assert state["screen"] == "dice" and state["state"]["die"] == next_die(die), state
    assert not bad_output(chip)


def test_two_taps_inside_a_flash_write_keep_their_order_on_the_chip():
    """hardware/README.md: presses are taken in the order they were made, whatever the
    flash does. In the menu, A (open Dice) then RIGHT (in Dice: the next die), both
    made and let go inside one sector erase: Dice opens with its next die. In the button
    table's order (RIGHT before A) the cursor would move first and Quoridor open."""
    need_chip()
    chip = rig.ChipBoard("BOARDSIDE_PICO")
    try:
        chip.boot()
        die, erase_at = menu_saving(chip)
        events = len(chip.events)
        chip.press("a").advance(15)
        chip.release("a").advance(3)
        chip.press("right").advance(15)
        chip.release("right")
        assert chip.now_ms < erase_at + 45  # both taps inside the erase
        chip.advance(SETTLE_MS)
        assert_dice_on_its_next_die(chip, events, die)
    finally:
        chip.close()


def test_a_tap_inside_a_flash_write_comes_before_a_press_after_it_on_the_chip():
    """A tapped inside the erase (open Dice), RIGHT pressed 2 ms after the write:
    A's press is taken first, so Dice opens and RIGHT picks its next die. Taken after
    RIGHT (a tap guessed from latched edges once the write is over), the cursor would
    move first and Quoridor open."""
    need_chip()
    chip = rig.ChipBoard("BOARDSIDE_PICO")
    try:
        chip.boot()
        die, erase_at = menu_saving(chip)
        events = len(chip.events)
        chip.press("a").advance(15)
        chip.release("a")
        assert chip.now_ms < erase_at + 45
        written = flash_quiet(chip)
        chip.advance(max(0, written + 2 - chip.now_ms))
        chip.press("right").advance(60)
        chip.release("right")
        chip.advance(SETTLE_MS)
        assert_dice_on_its_next_die(chip, events, die)
    finally:
        chip.close()
