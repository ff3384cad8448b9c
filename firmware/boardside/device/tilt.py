"""The tilt switch: read its pin every loop and turn a rattle into one shake.

``pin`` is the input the driver set opened on ``tilt.pin`` with the internal
pull-up (its ``value()`` is 0 or 1); ``Tilt(None)`` is a build without the switch
(``tilt.pin`` null): it never shakes. The burst detection itself is
boardside.shake (pure, tested on both interpreters). The switch is wired to GND
like the buttons; its polarity does not matter, only its changes.
"""


class Tilt:
    def __init__(self, pin):
        self.pin = pin
        if pin is not None:  # (a build without the switch spends no RAM on it)
            from boardside.shake import ShakeDetector
            self.detector = ShakeDetector()

    def shaken(self, now_ms):
        """True once per shake."""
        if self.pin is None:
            return False
        return self.detector.update(self.pin.value(), now_ms)
