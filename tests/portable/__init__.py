"""Portable tests: the same files run on CPython and on MicroPython.

Every ``test_*.py`` in this folder is collected twice, automatically:

- by pytest on CPython, like any other test module;
- by ``tests/test_micropython_vm.py``, which runs it under the real MicroPython VM
  (the official WebAssembly build, in Node.js) through ``tests/micropython_vm/mptest.py``.

So a test here must be plain Python that MicroPython 1.27 understands:

- module-level functions named ``test_*`` that take no arguments (no fixtures,
  no parametrize, no test classes); loop over cases inside the test instead;
- plain ``assert`` statements. MicroPython does not rewrite asserts, so give the
  values as the assert message where a failure would otherwise be mute:
  ``assert got == want, (got, want)``;
- no pytest, hypothesis or other CPython-only imports. Shared test doubles (a seeded RNG, a
  scripted RNG, ``raises``) live in ``_support.py``; import them relatively
  (``from ._support import ...``), and the firmware as ``boardside``;
- deterministic: seed every random source, never read the clock.

``tests/test_micropython_vm.py`` checks these rules statically as well.
"""
