"""The simulated device: the firmware's own main.py and device shell running on
stand-in machine, neopixel, time, select, sys and os modules, over a virtual
clock and a flash filesystem kept in a folder."""

from boardside_host.sim.board import SimBoard, DeviceCrashed

__all__ = ["SimBoard", "DeviceCrashed"]
