"""What the web page calls: power on, one main-loop pass, the virtual clock, the LED
bytes, the flash kept in the browser's storage (web/page.js, docs/browser.md). The
web page's ``main.py``: it makes the Device, which picks ``on_browser`` as its
drivers, and runs its passes from the page's timer. The page's inputs (``press``,
``serial_in``, ``virtual_clock``) are the drivers' own.
"""

import binascii
import json
import os

from boardside import gridmap, hardware, output
from boardside.device import Device, on_browser
from boardside.device.on_browser import FLASH, press, serial_in, virtual_clock  # noqa: F401

_device = [None]


def load_flash(files):
    """Put the files the page kept (JSON: {name: hex}) into the VM's flash folder."""
    try:
        os.mkdir(FLASH)
    except OSError:
        pass
    for name in os.listdir(FLASH):
        os.remove(FLASH + "/" + name)
    for name, data in json.loads(files).items():
        if "/" in name:
            continue
        with open(FLASH + "/" + name, "wb") as f:
            f.write(binascii.unhexlify(data))
    os.chdir(FLASH)


def flash_files():
    """The flash folder as JSON {name: hex}, for the page to keep."""
    files = {}
    for name in os.listdir(FLASH):
        try:
            with open(FLASH + "/" + name, "rb") as f:
                files[name] = binascii.hexlify(f.read()).decode()
        except OSError:
            pass  # a folder set aside: not kept
    return json.dumps(files)


def boot(hw_text):
    """Power on with the hardware description ``hw_text``: what Device.run() does
    before its loop. Returns the page's JSON: the grid and which pin is which."""
    hw = hardware.load(hw_text)
    device = Device(hw)
    if hw.tilt_pin is not None:
        on_browser.pins[hw.tilt_pin].level = 0  # the tilt ball rests on its contacts
    device.start()
    _device[0] = device
    return json.dumps({
        "width": hw.width, "height": hw.height, "leds": hw.led_count,
        "order": hw.color_order, "index": list(gridmap.build(hw)),
        "buttons": hw.buttons, "active_low": hw.buttons_active_low,
        "tilt": hw.tilt_pin, "buzzer": hw.buzzer_pin,
        "white": output.gamma_table(hw.brightness)[255],
    })


def tick():
    """One main-loop pass (Device.run's loop body without the sleep); returns the
    number of frames written so far."""
    device = _device[0]
    device.turn()
    return on_browser.strip[0].frames


def advance(ms):
    """The virtual clock: ``ms`` milliseconds of passes, one a millisecond."""
    device = _device[0]
    for _ in range(ms):
        device.turn()
        on_browser.virtual_time[0] += 1
    return on_browser.strip[0].frames


def leds():
    """The LED bytes of the last frame, in chain order and the chain's colour order."""
    return binascii.hexlify(on_browser.strip[0].buf).decode()


def saves():
    """How often the flash has been written: the page keeps it when this moves."""
    p = _device[0].persist
    return p.writes + p.failures


def stop():
    """The page is closing: the last save goes to flash (a power cut skips this)."""
    device = _device[0]
    device.persist.flush(device.app, device.clock())
