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

Both drivers have the surface the device uses: ``buf``, 3 bytes per LED in the
chain's colour order, first LED first (what output.FrameOutput writes), and
``write()``, which sends it. A frame written while the previous one is still
being sent waits for it (at most one frame time); ``busy_us()`` says how long.
``frames`` counts the frames sent.
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


def tx_dreq(sm_id):
    """The DMA transfer request of a state machine's TX FIFO (RP2040 datasheet
    2.5.3.1; the same numbering on the RP2350): PIO n's state machine k is 8n + k."""
    return (sm_id >> 2) * 8 + (sm_id & 3)


class PioStrip:
    """WS2812 frames through PIO and DMA (see the module notes)."""

    def __init__(self, pin, n, sm_id=STATE_MACHINE):
        self.n = n
        self.buf = bytearray(3 * n)   # the next frame, written by output.FrameOutput
        self.wire = bytearray(3 * n)  # the frame on the wire: never written while sent
        self.frame_us = frame_us(n)
        self.dma = rp2.DMA()
        try:
            # bytes, one per FIFO request, always to the same FIFO register
            self.ctrl = self.dma.pack_ctrl(size=0, inc_write=False, treq_sel=tx_dreq(sm_id))
            self.sm = rp2.StateMachine(sm_id, _ws2812, freq=SM_FREQ, sideset_base=pin)
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
        left = self.frame_us - time.ticks_diff(time.ticks_us(), self.started)
        if left > 0:
            return left
        self.sending = False
        return 0

    def write(self):
        left = self.busy_us()
        if left:
            time.sleep_us(left)
        if self.dma.active():  # cannot happen once frame_us is over; never start twice
            self.dma.active(0)
        self.wire[:] = self.buf  # slice assignment between bytearrays: a copy, no allocation
        self.dma.config(read=self.wire, write=self.sm, count=len(self.wire), ctrl=self.ctrl,
                        trigger=True)
        self.started = time.ticks_us()
        self.sending = True
        self.frames += 1


class BitstreamStrip:
    """The fallback: neopixel, which holds the CPU while the frame is sent."""

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
        self.np.write()
        self.frames += 1


def open_strip(pin_id, n):
    """The best driver this board has for ``n`` LEDs on GPIO ``pin_id``."""
    pin = machine.Pin(pin_id, machine.Pin.OUT)
    if _ws2812 is not None:
        try:
            return PioStrip(pin, n)
        except (OSError, ValueError):  # no free DMA channel or state machine
            pass
    return BitstreamStrip(pin, n)
