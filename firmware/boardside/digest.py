"""SHA-256 wherever the firmware runs: ``hashlib.sha256`` (MicroPython, CPython), or
``hashlib.new("sha256", data)`` where that is all hashlib has (CircuitPython). Either
way ``sha256(data)`` has ``update()`` and ``digest()``, which is all the core uses.

``cipher`` turns it into a stream cipher for the save file's records where the
computer could read the flash (CircuitPython: docs/persistence.md)."""

try:
    from hashlib import sha256
except ImportError:
    import hashlib

    def sha256(data=b""):
        return hashlib.new("sha256", data)


def cipher(key, nonce, data):
    """``data`` enciphered, or deciphered (the same call), with SHA-256 in counter
    mode: block i of the key stream is SHA-256(key + nonce + i, 4 bytes big-endian),
    32 bytes. Built on the C hashlib every runtime has, so it needs no extension
    and costs one hash per 32 bytes; the length stays the same. Never use one
    (key, nonce) for two different plaintexts: savefile derives the nonce from the
    keyed seal of the plaintext."""
    n = len(data)
    if not n:
        return b""
    prefix = bytes(key) + bytes(nonce)
    blocks = []
    for i in range((n + 31) >> 5):
        blocks.append(sha256(prefix + i.to_bytes(4, "big")).digest())
    stream = b"".join(blocks)
    # one XOR of two long ints, not a Python loop over the bytes
    mixed = int.from_bytes(bytes(data), "big") ^ int.from_bytes(stream[:n], "big")
    return mixed.to_bytes(n, "big")
