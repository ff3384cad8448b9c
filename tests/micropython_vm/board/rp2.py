"""rp2: a PIO state machine and a DMA channel that take LED frames and count them.

Only what boardside.device.leds uses. asm_pio keeps the program function without
running it (the simulator's rp2, host/boardside_host/sim/fakes/leds.py, runs the
program bit by bit and checks what the LEDs would read); a transfer copies
nothing and is over at once. Nothing allocates on the paths a pass calls.
"""


class PIO:
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


def asm_pio(**config):
    def keep(fn):
        return fn
    return keep


class StateMachine:
    def __init__(self, id, program=None, freq=-1, **kwargs):
        self.id = id
        self.program = program
        self.running = False

    def active(self, value=None):
        if value is None:
            return self.running
        self.running = bool(value)
        return None


class DMA:
    def __init__(self):
        self.transfers = 0
        self.last_count = 0

    def pack_ctrl(self, **kwargs):
        return 0

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if trigger:
            self.transfers += 1
            self.last_count = count

    def active(self, value=None):
        return False

    def close(self):
        pass
