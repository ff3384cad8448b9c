"""pwmio: a PWM output that records its frequency and duty changes (the buzzer)."""

from circuitpython_board import clock

tones = []  # (ms, frequency, duty_cycle)


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        from circuitpython_board.digitalio import DigitalInOut
        self.claim = DigitalInOut(pin)  # the pin is taken, as on a board
        self._duty = duty_cycle
        self._freq = frequency
        self.variable = variable_frequency
        tones.append((clock.now[0], frequency, duty_cycle))

    @property
    def frequency(self):
        return self._freq

    @frequency.setter
    def frequency(self, hz):
        if not self.variable:
            raise AttributeError("PWM frequency not writable when variable_frequency is False")
        if not 1 <= hz:
            raise ValueError("frequency must be at least 1")
        self._freq = int(hz)
        tones.append((clock.now[0], self._freq, self._duty))

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, duty):
        if not 0 <= duty <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = duty
        tones.append((clock.now[0], self._freq, duty))

    def deinit(self):
        self.claim.deinit()
