"""time and supervisor.ticks_ms: a virtual clock in milliseconds that moves only
when told to (or when the firmware sleeps)."""

TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms() wraps here
now = [0]


def advance(ms):
    now[0] += ms


def ticks_ms():
    return now[0] % TICKS_PERIOD


# -- time, as CircuitPython has it (no ticks_ms, no sleep_ms) ----------------------------
def sleep(seconds):
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    advance(int(round(seconds * 1000)))


def monotonic():
    return now[0] / 1000


def monotonic_ns():
    return now[0] * 1_000_000


def time():
    return 946_684_800 + now[0] // 1000
