"""The LED chain (WS2812B): frames sent by a PIO state machine fed by DMA.

A frame is 24 bits per LED at 800 kbit/s: 30 us per LED, 7.68 ms for 256 LEDs,
then the line stays low for the reset gap that latches it. neopixel.NeoPixel
(machine.bitstream) keeps the CPU busy for all of it. Here a PIO state machine
shifts the bits out and a DMA channel feeds it from RAM, paced by the state
machine's TX FIFO: a frame costs the CPU one 768-byte copy and a few register
writes, and the main loop goes on reading buttons and serial while it is sent.
The DMA reads RAM, not flash, so it keeps going while the flash is written.

MicroPython before 1.21 has no rp2.DMA: there, and when no state machine or DMA
channel can be had, the chain is driven by neopixel as before.

Only the changed part of a frame goes on the wire. Each LED keeps the last 24
bits it took until the next reset gap, and one that is sent nothing keeps what it
shows: a frame sent up to the last LED that changed (in blocks of BLOCK_LEDS) shows
the same picture as the whole one, sooner. A cursor on the first rows of the chain
is latched in a fraction of the 7.96 ms a whole frame takes. An identical frame is
not sent at all. So that an LED upset by a glitch on the data line does not keep
a wrong colour for long, the whole frame goes again once things are quiet
(``refresh()``, called by the main loop).

Both drivers have the surface the device uses: ``buf``, 3 bytes per LED in the
chain's colour order, first LED first (what output.FrameOutput writes), and
``write()``, which sends it. A frame written while the previous one is still
being sent waits for it (at most one frame time); ``busy_us()`` says how long.
``frames`` counts the frames written; ``refresh()`` resends the whole frame when
only part of it went out, and returns whether it did.
"""

import time

import machine

try:
    import rp2
except ImportError:  # not the rp2 port
    rp2 = None

LED_US = 30              # 24 bits at 800 kbit/s
RESET_US = 280           # the line low this long latches a frame (WS2812B-V5: >= 280 us)
SM_FREQ = 8_000_000      # 10 PIO cycles per bit
STATE_MACHINE = 0        # PIO0, state machine 0
BLOCK_LEDS = 8           # a frame is cut after the block holding the last changed LED


def frame_us(leds):
    """How long one frame of ``leds`` LEDs takes on the wire, the latch included."""
    return leds * LED_US + RESET_US


if rp2 is not None and hasattr(rp2, "DMA"):
    # Each bit is 10 cycles: 4 low, then 3 high, then 3 more high for a 1 or low for
    # a 0 (0: 375 ns high, 875 ns low; 1: 750 ns high, 500 ns low). A byte the DMA
    # writes to the TX FIFO arrives as a word holding that byte four times (narrow
    # writes to an IO register are replicated across the bus), and autopull after
    # 8 bits shifted out to the left sends exactly that byte, most significant bit
    # first: the buffer goes out byte for byte as output.FrameOutput laid it out.
    # While the FIFO is empty `out` stalls with the line low: the reset gap.
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                 autopull=True, pull_thresh=8)
    def _ws2812():
        wrap_target()  # noqa: F821 - asm_pio provides the PIO instructions
        label("bit")  # noqa: F821
        out(x, 1).side(0)[3]  # noqa: F821
        jmp(not_x, "zero").side(1)[2]  # noqa: F821
        jmp("bit").side(1)[2]  # noqa: F821
        label("zero")  # noqa: F821
        nop().side(0)[2]  # noqa: F821
        wrap()  # noqa: F821
else:
    _ws2812 = None

# The C classes, kept apart from the rp2 module: its Python is the PIO assembler (1.3 KB
# of heap), let go once the programs are made (device/__init__.py)
DMA = getattr(rp2, "DMA", None)
StateMachine = getattr(rp2, "StateMachine", None)
del rp2


def tx_dreq(sm_id):
    """The DMA transfer request of a state machine's TX FIFO (RP2040 datasheet
    2.5.3.1; the same numbering on the RP2350): PIO n's state machine k is 8n + k."""
    return (sm_id >> 2) * 8 + (sm_id & 3)


class PioStrip:
    """WS2812 frames through PIO and DMA (see the module notes)."""

    def __init__(self, pin, n, sm_id=STATE_MACHINE, last_change=None):
        self.n = n
        self.buf = bytearray(3 * n)   # the next frame, written by output.FrameOutput
        self.wire = bytearray(3 * n)  # the frame on the wire: never written while sent
        self.frame_us = frame_us(n)
        step = 3 * BLOCK_LEDS
        # the device's native code finds the last word that changed (viper_frame.py:
        # no heap); a block of 24 bytes is 6 whole words, so that word's block is the
        # last that changed
        self.last_change = last_change if (3 * n) % 4 == 0 else None
        self.blocks = None
        if self.last_change is None:
            # the frame in blocks, both buffers, compared block by block in C (a
            # memoryview compares its bytes): made once, so comparing allocates
            # nothing, but 1.7 KB of views for 256 LEDs
            new = memoryview(self.buf)
            old = memoryview(self.wire)
            self.blocks = tuple((new[k:k + step], old[k:k + step])
                                for k in range(0, 3 * n, step))
        self.known = False    # the LEDs show wire: not until a whole frame was sent
        self.partial = False  # part of a frame went out since the last whole one
        self.send_us = 0      # the transfer under way, its latch included
        self.dma = DMA()
        try:
            # bytes, one per FIFO request, always to the same FIFO register
            self.ctrl = self.dma.pack_ctrl(size=0, inc_write=False, treq_sel=tx_dreq(sm_id))
            self.sm = StateMachine(sm_id, _ws2812, freq=SM_FREQ, sideset_base=pin)
            self.sm.active(1)
        except Exception:
            self.dma.close()  # the channel goes back for the fallback's sake
            raise
        self.started = 0
        self.sending = False
        self.frames = 0

    def busy_us(self):
        """Microseconds until the frame being sent is latched; 0 when the chain is free."""
        if not self.sending:
            return 0
        left = self.send_us - time.ticks_diff(time.ticks_us(), self.started)
        if left > 0:
            return left
        self.sending = False
        return 0

    def changed_bytes(self):
        """How much of buf must be sent to show it: up to the end of the last block
        that differs from the frame on the LEDs (0: the same frame)."""
        if not self.known:
            return len(self.buf)
        if self.last_change is not None:
            word = self.last_change(self.buf, self.wire, len(self.buf) >> 2)
            if not word:
                return 0
            step = 3 * BLOCK_LEDS
            return min(len(self.buf), ((word - 1) * 4 // step + 1) * step)
        blocks = self.blocks
        k = len(blocks)
        while k:
            k -= 1
            new, old = blocks[k]
            if new != old:
                return min(len(self.buf), (k + 1) * 3 * BLOCK_LEDS)
        return 0

    def write(self):
        left = self.busy_us()
        if left:
            time.sleep_us(left)
        self.frames += 1
        count = self.changed_bytes()
        if not count:
            return  # the LEDs show this frame already
        if self.dma.active():  # cannot happen once send_us is over; never start twice
            self.dma.active(0)
        self.wire[:] = self.buf  # slice assignment between bytearrays: a copy, no allocation
        self._send(count)
        self.known = True
        if count < len(self.wire):
            self.partial = True

    def refresh(self):
        """The whole frame again, if the last ones went out in part and the chain is
        free (see the module notes). Returns True when it started one."""
        if not self.partial or self.busy_us():
            return False
        self._send(len(self.wire))
        self.partial = False
        return True

    def _send(self, count):
        self.dma.config(read=self.wire, write=self.sm, count=count, ctrl=self.ctrl,
                        trigger=True)
        self.started = time.ticks_us()
        self.send_us = (count // 3) * LED_US + RESET_US
        self.sending = True


class BitstreamStrip:
    """The fallback: neopixel, which holds the CPU while the frame is sent."""

    partial = False  # no frame goes out in part: nothing for refresh() to do

    def __init__(self, pin, n):
        import neopixel

        self.n = n
        self.np = neopixel.NeoPixel(pin, n)
        self.buf = self.np.buf
        self.frame_us = frame_us(n)
        self.frames = 0

    def busy_us(self):
        return 0  # write() returns when the frame is out

    def write(self):
        self.np.write()  # always the whole frame: neopixel has no shorter one
        self.frames += 1

    def refresh(self):
        return False  # every frame went out whole


def open_strip(pin_id, n, last_change=None):
    """The best driver this board has for ``n`` LEDs on GPIO ``pin_id`` (last_change:
    viper_frame's, or None)."""
    pin = machine.Pin(pin_id, machine.Pin.OUT)
    if _ws2812 is not None:
        try:
            return PioStrip(pin, n, last_change=last_change)
        except (OSError, ValueError):  # no free DMA channel or state machine
            pass
    return BitstreamStrip(pin, n)
