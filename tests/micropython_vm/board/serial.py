"""The USB serial port: bytes the test queues for the firmware to read, and what
the firmware writes (counted; kept only when asked, so writing allocates nothing)."""

_in = bytearray()
_pos = [0]
written = [0]
keep = [False]
out = []


def feed(data):
    _in.extend(data)


def pending():
    return _pos[0] < len(_in)


class Input:
    def readinto(self, buf):
        n = 0
        while n < len(buf) and _pos[0] < len(_in):
            buf[n] = _in[_pos[0]]
            _pos[0] += 1
            n += 1
        if _pos[0] == len(_in) and _pos[0]:
            _in[:] = b""  # keep the buffer small; never runs while idle
            _pos[0] = 0
        return n

    def read(self, n=-1):
        data = bytes(_in[_pos[0]:])
        _in[:] = b""
        _pos[0] = 0
        return data


class Output:
    def write(self, s):
        written[0] += len(s)
        if keep[0]:
            out.append(s)
        return len(s)

    def flush(self):
        pass


def take_output():
    text = "".join(out)
    del out[:]
    return text
