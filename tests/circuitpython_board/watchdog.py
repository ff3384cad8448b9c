"""watchdog: the modes of microcontroller.watchdog."""


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"


class WatchDogTimeout(Exception):
    pass
