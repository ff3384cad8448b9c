"""microcontroller: pins, the CPU's reset reason and the watchdog."""


class Pin:
    def __init__(self, gpio):
        self.gpio = gpio

    def __repr__(self):
        return "board.GP%d" % self.gpio


class ResetReason:
    POWER_ON = "POWER_ON"
    RESET_PIN = "RESET_PIN"
    SOFTWARE = "SOFTWARE"
    WATCHDOG = "WATCHDOG"
    UNKNOWN = "UNKNOWN"


class Processor:
    reset_reason = ResetReason.POWER_ON
    frequency = 125_000_000


class WatchDogTimer:
    def __init__(self):
        self.timeout = 0
        self.mode = None
        self.feeds = 0

    def feed(self):
        if self.mode is not None:  # "silently does nothing if the watchdog isn't active"
            self.feeds += 1


cpu = Processor()
watchdog = WatchDogTimer()
nvm = None


def reset():
    raise SystemExit("microcontroller.reset()")
