"""machine: pins whose input level the test sets, a watchdog that counts feeds."""

PWRON_RESET = 1
WDT_RESET = 3

# Input levels by GPIO number; a pulled-up input with its button open reads 1.
levels = [1] * 30
_cause = [PWRON_RESET]


def reset_cause():
    return _cause[0]


def set_level(gpio, value):
    levels[gpio] = value


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if pull == Pin.PULL_DOWN:
            levels[id] = 0

    def value(self, v=None):
        if v is None:
            return levels[self.id]
        levels[self.id] = v
        return None

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        return None  # the rig calls Device.step itself: nothing to wake


class PWM:
    """A PWM output that remembers its last frequency and duty (the buzzer)."""

    def __init__(self, pin, freq=0, duty_u16=0):
        self._freq = freq
        self._duty = duty_u16

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        return None

    def deinit(self):
        self._duty = 0


class WDT:
    feeds = 0

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        WDT.feeds += 1


class Timer:
    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, id=-1, **kwargs):
        pass

    def init(self, **kwargs):
        pass

    def deinit(self):
        pass


class _Mem32:
    def __getitem__(self, address):
        return 0  # watchdog not running

    def __setitem__(self, address, value):
        pass


mem32 = _Mem32()


def reset():
    raise SystemExit("machine.reset()")
