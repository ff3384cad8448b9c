"""digitalio: pins whose input level the test sets; a pin is claimed until deinit(),
as on CircuitPython ("GP2 in use")."""


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


levels = {}     # GPIO -> True/False: what an input reads (the test's hand on the button)
claimed = {}    # GPIO -> DigitalInOut


def reset():
    """What a CircuitPython reload does: every pin is released."""
    levels.clear()
    claimed.clear()


class DigitalInOut:
    def __init__(self, pin):
        if pin.gpio in claimed:
            raise ValueError("%r in use" % (pin,))
        claimed[pin.gpio] = self
        self.pin = pin
        self._direction = Direction.INPUT
        self.pull = None
        self._out = False

    def deinit(self):
        claimed.pop(self.pin.gpio, None)

    def switch_to_input(self, pull=None):
        self._direction = Direction.INPUT
        self.pull = pull
        levels.setdefault(self.pin.gpio, pull == Pull.UP)

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._direction = Direction.OUTPUT
        self._out = bool(value)

    @property
    def direction(self):
        return self._direction

    @direction.setter
    def direction(self, value):
        if value == Direction.OUTPUT:
            self.switch_to_output()
        else:
            self.switch_to_input()

    @property
    def value(self):
        if self._direction == Direction.OUTPUT:
            return self._out
        return levels.get(self.pin.gpio, self.pull == Pull.UP)

    @value.setter
    def value(self, v):
        if self._direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._out = bool(v)
