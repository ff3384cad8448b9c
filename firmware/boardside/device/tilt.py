"""The tilt switch: read its pin every loop and turn a rattle into one shake.

``Tilt(None)`` is a build without the switch (``tilt.pin`` null): it never shakes
and touches no pin. The burst detection itself is boardside.shake (pure, tested on
both interpreters). The switch is wired to GND with the internal pull-up, like the
buttons; its polarity does not matter, only its changes.
"""

import machine


class Tilt:
    def __init__(self, pin):
        self.pin = None
        if pin is not None:  # (a build without the switch spends no RAM on it)
            from boardside.shake import ShakeDetector
            self.pin = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
            self.detector = ShakeDetector()

    def shaken(self, now_ms):
        """True once per shake."""
        if self.pin is None:
            return False
        return self.detector.update(self.pin.value(), now_ms)
