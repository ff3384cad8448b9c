import os

import pytest

from boardside_host.sim import SimBoard
from checkout import left_behind, untracked

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def board():
    """A booted simulated device with a fixed dice seed, on a fresh flash folder."""
    b = SimBoard(seed=1234, entropy_seed=1)
    b.boot()
    yield b
    b.close()


# A test run leaves nothing in the checkout (tests/checkout.py): checked once, by the
# main pytest process (with -n, the controller: after every worker ended).
_before = []


def _controls(session):
    return not hasattr(session.config, "workerinput")


def pytest_sessionstart(session):
    if _controls(session):
        _before.append(untracked(ROOT))


def pytest_sessionfinish(session, exitstatus):
    if not _controls(session) or not _before or _before[0] is None:
        return
    after = untracked(ROOT)
    if after is None:
        return
    left = left_behind(_before[0], after)
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        text = ("the test run left files in the checkout (write them to tmp_path or "
                "an ignored folder): " + ", ".join(left))
        if reporter is not None:
            reporter.line("")
            reporter.line(text, red=True)
        if session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
