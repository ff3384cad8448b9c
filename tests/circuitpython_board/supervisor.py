"""supervisor: ticks_ms (the virtual clock, wrapping at 2**29) and runtime."""

from circuitpython_board import clock

ticks_ms = clock.ticks_ms


class Runtime:
    serial_connected = True
    serial_bytes_available = 0
    autoreload = True


runtime = Runtime()


def reload():
    raise SystemExit("supervisor.reload()")
