import os

import pytest

from boardside_host.sim import SimBoard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def board():
    """A booted simulated device with a fixed dice seed, on a fresh flash folder."""
    b = SimBoard(seed=1234, entropy_seed=1)
    b.boot()
    yield b
    b.close()
