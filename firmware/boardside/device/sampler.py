"""The buttons sampled by a PIO state machine into a RAM ring by DMA.

A flash erase or program stops the core from running code from flash, and
MicroPython keeps interrupts off meanwhile (45-400 ms a sector erase): no pin is
read and no edge handler runs. PIO and DMA go on. A state machine reads the
button pins (consecutive GPIOs, at most 8 from the lowest) once a millisecond and
pushes each reading; a DMA channel paced by its RX FIFO writes them, a byte each,
into a ring of RING_BYTES in RAM (a DMA write ring: the address wraps at the
ring's size, so the buffer is aligned to it). The main loop reads the ring from
where it left off: every sample in the order it was taken, each a millisecond
after the one before, the newest one now. A tap made and let go while the flash
was written is in the ring with its own times, before a press made after it.

Costs: state machine 1 of PIO0 (one instruction of its 32; the LEDs use
state machine 0), one DMA channel, and 2 KB of RAM (a 1 KB ring, aligned inside
a buffer twice its size; the protocol's line buffer takes 512 bytes of the rest:
``spare()``). The ring holds 1.024 s: a write that stalls the chip
longer than that loses the samples before its last second.

``open_sampler`` returns None where this cannot be had (no rp2.DMA, no free
state machine or channel, pins that are not within 8 of each other): the device
then reads the pins themselves (device/inputs.py).
"""

try:
    import rp2
    import uctypes
except ImportError:  # not the rp2 port
    rp2 = None

SAMPLE_HZ = 1000         # one sample a millisecond: the debouncer counts in ms
RING_BITS = 10           # the ring: 1 << RING_BITS samples (bytes), 1.024 s of them
RING_BYTES = 1 << RING_BITS
STATE_MACHINE = 1        # PIO0, state machine 1 (the LED chain has 0)
SM_FREQ = 4 * SAMPLE_HZ  # the program's one instruction takes 4 cycles
PINS = 8                 # pins read per sample: a byte
ENDLESS = 0xFFFFFFFF     # transfers before the channel stops: 49.7 days of samples


if rp2 is not None and hasattr(rp2, "DMA"):
    # `in` reads PINS pins from in_base into the ISR (shifted left: the lowest pin is
    # bit 0); autopush after PINS bits puts the sample in the RX FIFO, from where
    # the DMA takes its low byte. `in` plus 3 delay cycles: one sample every 4.
    @rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, autopush=True, push_thresh=PINS,
                 fifo_join=rp2.PIO.JOIN_RX)
    def _sample_pins():
        wrap_target()  # noqa: F821 - asm_pio provides the PIO instructions
        in_(pins, 8)[3]  # noqa: F821
        wrap()  # noqa: F821
else:
    _sample_pins = None

# The C classes, kept apart from the rp2 module: its Python is the PIO assembler (1.3 KB
# of heap), let go once the programs are made (device/__init__.py)
DMA = getattr(rp2, "DMA", None)
StateMachine = getattr(rp2, "StateMachine", None)
del rp2


def rx_dreq(sm_id):
    """The DMA transfer request of a state machine's RX FIFO (RP2040 datasheet
    2.5.3.1): PIO n's state machine k is 8n + 4 + k."""
    return (sm_id >> 2) * 8 + 4 + (sm_id & 3)


class PinSampler:
    """The ring and where the DMA writes next. ``ring[k]`` is a sample, bit i the
    level of GPIO ``base_gpio + i``; ``position()`` is the index the next sample
    goes to (samples before it, back to the ring's size, are the newest)."""

    def __init__(self, base_gpio, machine):
        self.base_gpio = base_gpio
        self.mask = RING_BYTES - 1
        # a 1 KB block aligned to 1 KB inside 2 KB: the DMA's ring wraps the address
        self.buf = bytearray(2 * RING_BYTES)
        start = uctypes.addressof(self.buf)
        skip = (-start) & self.mask
        self.ring = memoryview(self.buf)[skip:skip + RING_BYTES]
        self.address = start + skip
        self.dma = DMA()
        try:
            self.sm = StateMachine(STATE_MACHINE, _sample_pins, freq=SM_FREQ,
                                       in_base=machine.Pin(base_gpio))
            self.ctrl = self.dma.pack_ctrl(size=0, inc_read=False, inc_write=True,
                                           ring_sel=1, ring_size=RING_BITS,
                                           treq_sel=rx_dreq(STATE_MACHINE))
            self.start()
            self.sm.active(1)
            where = self.dma.write  # (a stand-in that cannot say where it writes: no sampler)
            if not isinstance(where, int) or (where - self.address) & ~self.mask:
                raise ValueError("the DMA does not report its write address")
        except Exception:
            self.close()
            raise

    def spare(self, n):
        """n bytes of the buffer beside the ring (the ring's alignment leaves
        RING_BYTES of it unused, before the ring and after it), for another buffer
        to use instead of more heap; None when neither part is that long."""
        skip = self.address - uctypes.addressof(self.buf)
        if skip >= n:
            return memoryview(self.buf)[:n]
        after = skip + RING_BYTES
        if len(self.buf) - after >= n:
            return memoryview(self.buf)[after:after + n]
        return None

    def start(self):
        """(Again) from the start of the ring: also when the channel's count ran out."""
        self.dma.config(read=self.sm, write=self.ring, count=ENDLESS, ctrl=self.ctrl,
                        trigger=True)

    def position(self):
        return (self.dma.write - self.address) & self.mask

    def close(self):
        sm = getattr(self, "sm", None)
        if sm is not None:
            sm.active(0)
        self.dma.close()


def open_sampler(machine, gpios):
    """A PinSampler for these button GPIOs, or None (see the module notes)."""
    if _sample_pins is None:
        return None
    base = min(gpios)
    if max(gpios) - base >= PINS:
        return None
    try:
        return PinSampler(base, machine)
    except (OSError, ValueError, TypeError, AttributeError):
        return None
