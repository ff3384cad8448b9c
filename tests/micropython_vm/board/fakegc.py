"""gc for CPython: MicroPython's heap figures do not exist there; a constant
heap in use means the device's quiet-time collection never finds enough garbage."""

import gc as _gc


def collect():
    _gc.collect()


def mem_alloc():
    return 0


def mem_free():
    return 190 * 1024


def threshold(amount=None):
    return -1


def enable():
    _gc.enable()


def disable():
    _gc.disable()
