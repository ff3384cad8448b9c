"""SHA-256 wherever the firmware runs: ``hashlib.sha256`` (MicroPython, CPython), or
``hashlib.new("sha256", data)`` where that is all hashlib has (CircuitPython). Either
way ``sha256(data)`` has ``update()`` and ``digest()``, which is all the core uses."""

try:
    from hashlib import sha256
except ImportError:
    import hashlib

    def sha256(data=b""):
        return hashlib.new("sha256", data)
