# CircuitPython runs this at power-up and after the reset button (not after a reload).
# It decides who may write the CIRCUITPY filesystem until the next power-up; only one
# side can (docs/persistence.md):
#
# - MENU not held (the usual case): the firmware. Games are saved and crashes logged,
#   and the computer does not see the drive at all (storage.disable_usb_drive).
#   (To deploy, hold MENU while plugging in.)
# - MENU held while plugging in: the computer. `boardside deploy --circuitpython` and
#   your editor can write the drive and read it, though not the hidden rolls: the
#   firmware enciphers the save with a key kept in microcontroller.nvm, which the
#   drive never shows, beside the sealing key. That is a hand-over, as Ctrl-C is on
#   MicroPython (docs/persistence.md, the trust model): before the drive goes to the
#   computer this drops the sealing key and writes it in the log, so the next boot
#   reports what it finds as handed over and marks it. code.py then starts in safe
#   mode (the REPL is free), and the app, whenever it runs this way, says that games
#   are not kept.
#
# Self-contained on purpose: it must work while a deploy is replacing the package.
import json
import time

import board
import digitalio
import microcontroller
import storage

menu_gpio = 16  # the reference build's MENU (hardware.json says otherwise: that wins)
active_low = True
try:
    with open("/hardware.json") as f:
        hw = json.load(f)
    menu_gpio = int(hw["buttons"]["menu"])
    active_low = bool(hw.get("buttons_active_low", True))
except (OSError, ValueError, KeyError, TypeError):
    pass

held = False
pin = getattr(board, "GP%d" % menu_gpio, None)
if pin is not None:
    button = digitalio.DigitalInOut(pin)
    button.switch_to_input(pull=digitalio.Pull.UP if active_low else digitalio.Pull.DOWN)
    time.sleep(0.02)  # let the pull resistor charge the line
    held = button.value != active_low
    button.deinit()

KEY = "seal.key"  # an older firmware's key file (boardside.device.storage.KEY)
LOG = "log.txt"   # boardside.device.crashlog
# boardside.device.storage.NvmKeys: nvm[0:4] is this once keys are kept; then the byte
# that says a sealing key is there, and the key
NVM_MAGIC = b"BSK1"
NVM_SEAL = 4
KEY_BYTES = 16


def drop_key():
    """Forget the sealing key: True once none is left."""
    nvm = microcontroller.nvm
    if nvm is None or bytes(nvm[0:NVM_SEAL]) != NVM_MAGIC:
        return True  # no key kept there
    try:
        nvm[NVM_SEAL:NVM_SEAL + 1 + KEY_BYTES] = bytes(1 + KEY_BYTES)
    except Exception as e:
        print("boardside: could not drop the sealing key:", e)
        return False
    return nvm[NVM_SEAL] == 0


def hand_over():
    """Drop the sealing key and log the hand-over while the firmware still may."""
    dropped = drop_key()
    storage.remount("/", readonly=False)
    try:
        with open(LOG, "a") as f:
            f.write("boot.py: MENU held at power-up: the CIRCUITPY drive is the computer's "
                    "until the next power-up (it can change the saved games); %s\n"
                    % ("the sealing key is dropped" if dropped
                       else "THE SEALING KEY COULD NOT BE DROPPED"))
        try:
            import os
            os.remove(KEY)
        except OSError:
            pass  # no key file: nothing to drop
    except OSError as e:
        print("boardside: could not log the hand-over:", e)
    storage.remount("/", readonly=True)  # and now the computer's
    return dropped


if held:
    if hand_over():
        print("boardside: MENU held: the CIRCUITPY drive is the computer's; games are not "
              "kept; logged, and the sealing key dropped")
    else:
        print("boardside: MENU held: the CIRCUITPY drive is the computer's; games are not "
              "kept; THE SEALING KEY COULD NOT BE DROPPED")
else:
    storage.remount("/", readonly=False)
    storage.disable_usb_drive()  # hidden rolls and the key never reach the computer
    print("boardside: the firmware writes CIRCUITPY (games kept); the computer does not "
          "see the drive (hold MENU at power-up to deploy)")
