"""os: the real file functions (the VM's in-memory files, or the current folder on
CPython, which bench/suite.py makes a temporary one) plus a repeatable os.urandom."""

from os import listdir, mkdir, remove, rename, stat  # noqa: F401 - the device uses them

_state = [1]


def seed(value):
    _state[0] = (value & 0x7FFFFFFF) or 1
    _at[0] = 0
    _filled[0] = False


def _byte():
    # xorshift: repeatable "entropy", so benchmark games play out the same each run
    x = _state[0]
    x ^= (x << 13) & 0x7FFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0x7FFFFFFF
    _state[0] = x
    return x & 0xFF


_POOL = bytearray(4096)
_at = [0]
_filled = [False]


def urandom(n):
    # a slice of a pool made in advance: about what the board's C function costs
    if not _filled[0]:
        for i in range(len(_POOL)):
            _POOL[i] = _byte()
        _filled[0] = True
    i = _at[0] % (len(_POOL) - n)
    _at[0] = i + n
    return bytes(_POOL[i:i + n])
