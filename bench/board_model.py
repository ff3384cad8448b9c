"""What the board spends that the MicroPython VM cannot show, from data sheets and
measurements on the reference board, and the press-to-frame sum built from them.

The VM times bytecode (and the C it calls) against the reference workload; these
costs are not bytecode: the LED chain's wire time, the flash's program and erase
times, and the rp2 port's heap walks, which scale with its real heap. Each is a
documented constant times a count the benchmark takes of the operation (frames
started, bytes saved, gc calls made). docs/performance.md explains each figure.
"""

# The rp2 port's MicroPython heap (RP2040, MicroPython 1.28): gc.mem_free() +
# gc.mem_alloc() after boot, measured on the reference board (emulated cycle by
# cycle, rp2040js).
HEAP_BYTES = 245_888

# WS2812B: 24 bits at 800 kbit/s = 30 us per LED; the line then stays low >= 280 us
# to latch the frame (WS2812B-V5 data sheet; older parts 50 us). neopixel holds the
# CPU for the wire time (7.63 ms measured for 256 LEDs); PIO + DMA does not.
LED_US = 30
LED_RESET_US = 280

# QSPI NOR flash of the reference board's class (W25Q16JV data sheet): page program
# (256 bytes) 0.4 ms typical, 3 ms max; 4 KB sector erase 45 ms typical, 400 ms max.
# No code runs from flash meanwhile: the CPU waits (interrupts that live in RAM and
# DMA go on). littlefs (rp2: 4 KB blocks, 256-byte programs) erases each block
# before its first write, and may erase on any write (a metadata compaction).
PAGE_BYTES = 256
SECTOR_BYTES = 4096
PAGE_MS = (0.4, 3.0)        # typical, worst
ERASE_MS = (45.0, 400.0)
METADATA_COMMITS = 3        # a save: the temp file created, closed, renamed over

# gc on the real heap (measured on the reference board): gc.mem_alloc() walks the
# whole heap (8.7 ms with 60 KB in use); gc.collect() after every mode was played
# (148 KB live) 20.5 ms.
MEM_ALLOC_MS = 8.7
COLLECT_MS = 20.5

# The main loop sleeps at most POLL_MS between passes, 1 ms at a time, and stops
# sleeping when a button's pin interrupt fires (Device.wait): an edge waits for the
# end of the pass under way (at worst a whole idle pass) plus at most one 1 ms sleep.
EDGE_SLEEP_MS = 1.0

# Goals, board time (RP2040 at 125 MHz)
PRESS_TO_FRAME_MS = 20.0    # button edge to the changed frame fully latched, worst
FIRST_BIT_MS = 12.0         # button edge to the first bit of that frame, worst
MEDIAN_MS = 15.0            # median over the presses, typical
IDLE_PASS_MS = 1.0          # CPU of one idle pass
OPEN_MS = 100.0             # A in the menu to the mode's first frame latched


def led_push_ms(leds):
    """The frame on the wire, the latch included."""
    return (leds * LED_US + LED_RESET_US) / 1000.0


def flash_ms(nbytes, worst=False):
    """A save of ``nbytes``: its pages, the blocks littlefs erases for the new file,
    and its metadata commits (worst: one of them compacts, one more erase)."""
    k = 1 if worst else 0
    if nbytes <= 0:
        return 0.0
    pages = -(-nbytes // PAGE_BYTES) + METADATA_COMMITS
    erases = -(-nbytes // SECTOR_BYTES) + k
    return pages * PAGE_MS[k] + erases * ERASE_MS[k]


def hidden_ms(hidden, worst=False):
    """The costs the VM cannot see in one call of a device operation, from the
    counts bench/timing.py took of it (hidden_of): gc calls and bytes saved to flash."""
    if not hidden:
        return 0.0
    return (hidden.get("mem_alloc", 0) * MEM_ALLOC_MS + hidden.get("collect", 0) * COLLECT_MS
            + flash_ms(hidden.get("flash_bytes", 0), worst))


def press_to_frame(press_ms, press_hidden, idle_ms, idle_hidden, leds, min_press_ms=0,
                   first_changed=0):
    """(first bit, frame latched, typical latched) in board ms for a press whose pass
    takes ``press_ms`` of Python up to the start of its frame (the VM estimate; what
    the pass does after that runs while the frame is sent). The edge waits for the end
    of the pass under way (an idle pass at worst, half of one typically) and at most
    one 1 ms sleep; then the contact must read closed for the minimum press time
    (``buttons.min_press_ms``: the loop polls every millisecond meanwhile, an idle
    pass each); the pass that takes the press does its own work, every cost the VM
    cannot see in it included; then the frame goes out: ``leds`` LEDs of it, up to
    the last one that changed (device/leds.py), the first changed one
    ``first_changed`` LEDs into the chain. With PIO and DMA the CPU goes on, but the
    frame is only seen once latched."""
    idle = idle_ms + hidden_ms(idle_hidden)
    work = press_ms + hidden_ms(press_hidden)
    push = led_push_ms(leds)
    start = EDGE_SLEEP_MS + idle + min_press_ms + work
    first_bit = start + first_changed * LED_US / 1000.0
    return (first_bit, start + push, (EDGE_SLEEP_MS + idle) / 2 + min_press_ms + work + push)
