"""output.FrameOutput's per-byte work as viper code: native Thumb instructions, for
the chip. A frame's 768 bytes through the gamma table and the wiring order, with its
drive sum, take about 0.5 ms here (from the call to the strip's write, traced on
the emulated chip); framebuf's palette blits, which call a pixel
function per byte, took about 2.4 ms, and counting the lit channels 0.4 ms more.

The portable Python (output.FrameOutput.write_plain) is the reference: the simulator
and the WebAssembly VM run it, and the chip's LED bytes are compared with the
simulator's (tests/test_chip.py). The viper functions are compiled on the board
when this module is imported (about 1 KB of native code in the heap): as source text
the module compiles with any mpy-cross, for any architecture, and only a MicroPython
with the native emitter runs it; elsewhere the import fails and the portable Python
runs (on_micropython.py; on CPython viper's pointer types are not names).
"""

import micropython  # noqa: F401  (the decorator the source below names)

SOURCE = """
@micropython.viper
def map_frame(src: ptr8, out: ptr8, lut: ptr8, table: ptr16, leds: int, o0: int, o1: int,
              o2: int) -> int:
    '''output.FrameOutput.write_plain's loop: canvas pixel k's bytes through lut to
    LED table[k]'s, at offsets o0, o1, o2 (the colour order); returns their sum.'''
    total = 0
    i = 0
    k = 0
    while k < leds:
        j = table[k] * 3
        v = lut[src[i]]
        out[j + o0] = v
        total += v
        v = lut[src[i + 1]]
        out[j + o1] = v
        total += v
        v = lut[src[i + 2]]
        out[j + o2] = v
        total += v
        i += 3
        k += 1
    return total


@micropython.viper
def last_change(new: ptr32, old: ptr32, words: int) -> int:
    '''1 + the index of the last of the first ``words`` 32-bit words where new and
    old differ; 0 when they are the same (leds.PioStrip: both bytearrays, so their
    items are word-aligned heap blocks).'''
    k = words
    while k > 0:
        k -= 1
        if new[k] != old[k]:
            return k + 1
    return 0


@micropython.viper
def scale_frame(out: ptr8, n: int, scale: int):
    '''Every byte of out times scale/256 (the power limiter).'''
    j = 0
    while j < n:
        out[j] = (out[j] * scale) >> 8
        j += 1
"""

exec(SOURCE)  # defines map_frame, last_change and scale_frame here
