"""Stand-ins for the MicroPython modules the device shell uses.

Each SimBoard gets its own set, wired to its virtual clock, its buttons, its LED
chain, its serial port and its flash folder. They implement only what the
firmware uses, with MicroPython's semantics (ticks wrap, sleep_ms yields).

Time is spent as on a board where the hardware takes it (docs/performance.md):
neopixel's write holds the CPU for the frame (30 us per LED + the reset gap); a
frame sent by PIO and DMA takes the same time on the wire but the CPU goes on;
a flash write holds the CPU for its page programs and sector erases (the
figures below, for the reference board's W25Q16JV-class flash, "typical"). The
device thread's clock moves by those durations; Python's own time is not
modelled (make bench estimates it).

The modules, one piece of the board each: machine.py (time, machine), leds.py
(neopixel, rp2's PIO and DMA, uctypes), flash.py (os and the flash), usb_serial.py (sys,
select), runtime.py (random, gc, micropython, vfs), stops.py (how the device thread
stops). FACTORIES below maps each module name the firmware imports to its maker.
"""

from boardside_host.sim.fakes.flash import FLASH_ERASE_US, Flash, make_os
from boardside_host.sim.fakes.leds import (PioError, led_frame_us, make_neopixel, make_rp2,
                                           make_uctypes)
from boardside_host.sim.fakes.machine import (PIN_IRQ_FALLING, PIN_IRQ_RISING, make_machine,
                                              make_time)
from boardside_host.sim.fakes.runtime import make_gc, make_micropython, make_random, make_vfs
from boardside_host.sim.fakes.stops import HardReset, Interrupt, PowerCut, SoftReset
from boardside_host.sim.fakes.usb_serial import make_select, make_sys

# what the simulator and its tests use by name
__all__ = ["FACTORIES", "FLASH_ERASE_US", "Flash", "HardReset", "Interrupt", "PIN_IRQ_FALLING",
           "PIN_IRQ_RISING", "PioError", "PowerCut", "SoftReset", "led_frame_us", "make_rp2"]

FACTORIES = {
    "time": make_time, "utime": make_time, "machine": make_machine, "neopixel": make_neopixel,
    "rp2": make_rp2,
    "sys": make_sys, "select": make_select, "uselect": make_select, "os": make_os,
    "uos": make_os, "random": make_random, "urandom": make_random, "gc": make_gc,
    "micropython": make_micropython, "vfs": make_vfs, "uctypes": make_uctypes,
}
