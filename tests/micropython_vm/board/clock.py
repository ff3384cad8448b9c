"""time: a virtual clock in milliseconds that only moves when told to."""

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
_HALF = TICKS_PERIOD // 2

_now = [0]


def advance(ms):
    # (now + ms) mod 2**30 without a sum past 2**30, which would be a heap int on
    # MicroPython: the zero-allocation checks step the clock across the wrap
    x = _now[0] - (TICKS_MAX - ms) - 1
    _now[0] = x if x >= 0 else x + TICKS_MAX + 1


def ticks_ms():
    return _now[0]


def ticks_us():
    return (_now[0] * 1000) & TICKS_MAX


def ticks_diff(a, b):
    return ((a - b + _HALF) & TICKS_MAX) - _HALF


def ticks_add(a, d):
    return (a + d) & TICKS_MAX


def sleep_ms(ms):
    advance(ms)


def sleep_us(us):
    advance(-(-us // 1000))  # whole milliseconds, rounded up


def sleep(s):
    advance(int(s * 1000))


def time():
    return _now[0] // 1000
