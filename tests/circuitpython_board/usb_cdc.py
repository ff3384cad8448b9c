"""usb_cdc: the console's serial port. Bytes the test queues for the firmware to
read; readinto never waits with a zero timeout (and refuses to run without one:
a read that waits would stall the main loop)."""


class Serial:
    def __init__(self):
        self.incoming = bytearray()
        self.timeout = 1.0

    @property
    def in_waiting(self):
        return len(self.incoming)

    def readinto(self, buf):
        if self.timeout != 0 and len(self.incoming) < len(buf):
            raise RuntimeError("a read with a timeout would wait: the main loop would stall")
        n = min(len(buf), len(self.incoming))
        buf[:n] = self.incoming[:n]
        del self.incoming[:n]
        return n

    def feed(self, data):
        self.incoming += data


console = Serial()
data = None
