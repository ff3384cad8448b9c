"""time and machine: the virtual clock, the pins, the watchdog, the buzzer's PWM and
the soft timers of the rp2 port."""

import types

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps at 2**30 on the rp2 port
TICKS_MAX = TICKS_PERIOD - 1
PIN_IRQ_FALLING = 4
PIN_IRQ_RISING = 8


# -- time ----------------------------------------------------------------------
def make_time(board):
    m = types.ModuleType("time")

    def ticks_ms():
        return board.clock_ms & TICKS_MAX

    def ticks_us():
        return (board.clock_ms * 1000) & TICKS_MAX

    def ticks_diff(a, b):
        return ((a - b + TICKS_PERIOD // 2) & TICKS_MAX) - TICKS_PERIOD // 2

    def ticks_add(a, d):
        return (a + d) & TICKS_MAX

    def sleep_ms(ms):
        board._device_sleep(int(ms))

    def sleep(s):
        board._device_sleep(int(s * 1000))

    def sleep_us(us):
        # the clock counts whole milliseconds: a wait of any length is at least one
        board._device_sleep(max(0, -(-int(us) // 1000)))

    def time_():
        return board.epoch + board.clock_ms // 1000

    m.ticks_ms, m.ticks_us, m.ticks_diff, m.ticks_add = ticks_ms, ticks_us, ticks_diff, ticks_add
    m.sleep_ms, m.sleep, m.sleep_us, m.time = sleep_ms, sleep, sleep_us, time_
    m.ticks_cpu = ticks_us
    return m


# -- machine ---------------------------------------------------------------------
def make_machine(board):
    m = types.ModuleType("machine")

    class Pin:
        IN = 0
        OUT = 1
        PULL_UP = 1
        PULL_DOWN = 2
        IRQ_FALLING = PIN_IRQ_FALLING
        IRQ_RISING = PIN_IRQ_RISING

        def __init__(self, id, mode=-1, pull=-1, value=None):
            if id == "LED":
                id = 25
            if not isinstance(id, int) or not 0 <= id <= 29:
                raise ValueError("invalid pin")
            self.id = id
            self.mode = mode
            self.pull = pull
            self._out = 0 if value is None else value
            board.pins_configured[id] = (mode, pull)

        def value(self, v=None):
            if v is not None:
                self._out = 1 if v else 0
                return None
            if self.mode == Pin.OUT:
                return self._out
            return board.pin_level(self.id, self.pull)

        def __call__(self, v=None):
            return self.value(v)

        def on(self):
            self._out = 1

        def off(self):
            self._out = 0

        def toggle(self):
            self._out ^= 1

        def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
            # soft interrupts: the handler runs on the device thread when it next
            # wakes (MicroPython schedules it between bytecodes, sleeps included)
            board.pin_irqs[self.id] = (handler, trigger, self) if handler else None
            return None

    class WDT:
        def __init__(self, id=0, timeout=5000):
            if timeout > 8388:
                raise ValueError("timeout too long (RP2040 max is 8388 ms)")
            board.watchdog_start(timeout)

        def feed(self):
            board.watchdog_feed()

    class PWM:
        def __init__(self, pin, freq=0, duty_u16=0):
            self.pin = pin
            self._freq = freq
            self._duty = duty_u16
            board.tones.append((board.clock_ms, freq, duty_u16))

        def freq(self, f=None):
            if f is None:
                return self._freq
            self._freq = f
            board.tones.append((board.clock_ms, f, self._duty))

        def duty_u16(self, d=None):
            if d is None:
                return self._duty
            self._duty = d
            board.tones.append((board.clock_ms, self._freq, d))

        def deinit(self):
            board.tones.append((board.clock_ms, 0, 0))

    def reset():
        board._device_reset(hard=True)

    def soft_reset():
        board._device_reset(hard=False)

    def unique_id():
        return b"\xb0\xa2\xd5\x1d\xe5\x1d\x00\x01"

    def freq(hz=None):
        return 125_000_000

    class Timer:
        """rp2 machine.Timer: only the soft timer -1. Callbacks run at their virtual
        times (SimBoard.advance); a timer lives in the RAM it was made in, so a
        soft or hard reset (a new sandbox) deinitialises it, as on the board."""
        ONE_SHOT = 0
        PERIODIC = 1

        def __init__(self, id=-1, **kwargs):
            if id != -1:
                raise ValueError("Timer doesn't exist")
            self.sandbox = board.sandbox
            self.due = None
            if kwargs:
                self.init(**kwargs)

        def init(self, mode=1, callback=None, period=0xFFFFFFFF, tick_hz=1000, freq=None):
            self.mode = mode
            self.callback = callback
            self.period_ms = max(1, int(1000 / freq) if freq else period * 1000 // tick_hz)
            self.due = board.clock_ms + self.period_ms
            if self not in board.timers:
                board.timers.append(self)

        def deinit(self):
            self.due = None
            if self in board.timers:
                board.timers.remove(self)

    m.Pin, m.WDT, m.PWM, m.Timer = Pin, WDT, PWM, Timer
    m.mem32 = Mem32(board)
    m.reset, m.soft_reset, m.unique_id, m.freq = reset, soft_reset, unique_id, freq
    m.reset_cause = lambda: board.reset_cause
    m.PWRON_RESET, m.WDT_RESET = 1, 3
    return m


WATCHDOG_CTRL = (0x40058000, 0x400D8000)  # RP2040, RP2350
WATCHDOG_ENABLE = 1 << 30


class Mem32:
    """machine.mem32: only the watchdog's CTRL register reads as something (its
    ENABLE bit is set while the simulated watchdog runs); the rest reads 0."""

    def __init__(self, board):
        self.board = board

    def __getitem__(self, address):
        if address in WATCHDOG_CTRL and self.board.watchdog_timeout is not None:
            return WATCHDOG_ENABLE
        return 0

    def __setitem__(self, address, value):
        raise OSError("the simulator does not write hardware registers")
