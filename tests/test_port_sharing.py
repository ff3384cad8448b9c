"""One port, one program: a second client is told plainly that the port is in use,
and `boardside monitor` presses the buttons itself, so watching and pressing need
one program (against the simulator's pty)."""

import io
import time

import pytest
import serial

from boardside_host import cli, monitor
from boardside_host.client import Board, BoardError


@pytest.fixture
def live(tmp_path):
    from simpty import LiveBoard
    with LiveBoard(flash_dir=str(tmp_path / "flash"), seed=7) as lb:
        yield lb


def test_a_second_client_on_the_port_is_told_it_is_in_use(live):
    with Board(live.path) as first:
        with pytest.raises(BoardError) as e:
            Board(live.path)
        assert "in use by another program" in str(e.value)
        assert "boardside monitor" in str(e.value)
        assert first.request({"cmd": "state"})["screen"] == "menu"  # the first one works on
    with Board(live.path) as again:  # free once the first one closed it
        assert again.request({"cmd": "state"})["ok"]


def test_press_while_monitor_holds_the_port_says_so(live, capsys):
    with Board(live.path):  # what 'boardside monitor' holds open
        code = cli.main(["press", "right", "--port", live.path])
    out, err = capsys.readouterr()
    assert code == 1
    assert "in use by another program" in err and "Traceback" not in err
    assert "is boardside installed" not in err


class Broken:
    """A port whose reads fail, as when another program took the bytes."""

    in_waiting = 0

    def write(self, data):
        return len(data)

    def read(self, n):
        raise serial.SerialException("device reports readiness to read but returned no "
                                     "data (device disconnected or multiple access on port?)")

    def close(self):
        pass


def test_a_port_that_fails_under_the_client_is_a_board_error():
    board = Board("/dev/ttyACM9", serial_factory=lambda port: Broken())
    with pytest.raises(BoardError) as e:
        board.request({"cmd": "state"})
    assert "lost /dev/ttyACM9" in str(e.value) and "another program" in str(e.value)


def typing(*reads):
    """What a terminal sends: one read per call, then nothing."""
    pending = list(reads)
    return lambda: pending.pop(0) if pending else ""


def test_keys_typed_into_monitor_press_the_buttons_in_order(live):
    out = io.StringIO()
    with Board(live.path) as board:
        monitor.monitor(board, out, interval=0.02, duration=1.0, ascii_art=True,
                        typed=typing("\x1b[C\x1b[C", "d"))
    with live.paused() as b:
        assert b.app.screen() == "menu" and b.app.menu_index == 3
    assert monitor.KEYS_HELP in out.getvalue()


def test_q_in_monitor_quits_and_a_held_button_is_let_go(live):
    with Board(live.path) as board:
        typed = typing("M")
        monitor.monitor(board, io.StringIO(), interval=0.02, duration=0.2, ascii_art=True,
                        typed=typed)
    with live.paused() as b:
        assert b.app.virtual_held == 0  # let go when the monitor ended, before 1.2 s
    with Board(live.path) as board:
        start = time.monotonic()
        monitor.monitor(board, io.StringIO(), interval=0.02, duration=10, ascii_art=True,
                        typed=typing("M", "q"))
        assert time.monotonic() - start < 5
        assert board.request({"cmd": "state"})["ok"]
    with live.paused() as b:
        assert b.app.virtual_held == 0  # MENU, pressed by M, was released
