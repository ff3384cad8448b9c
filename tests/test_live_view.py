"""The simulator in a terminal (boardside_host/sim/live.py), driven with a fake
terminal and a fake wall clock: every key becomes its press, and the grid drawn is
the one the LEDs show."""

import io
import os
import subprocess

from PIL import Image

from boardside_host.render import to_terminal
from boardside_host.keys import KeyReader
from boardside_host.sim import live
from boardside_host.sim.live import TerminalView


class Wall:
    """A wall clock the test moves."""

    def __init__(self):
        self.s = 100.0

    def __call__(self):
        return self.s


class Screen(io.StringIO):
    """The terminal: everything the view wrote."""


def view_of(board, png_dir=None, **kwargs):
    wall = Wall()
    view = TerminalView(board, Screen(), png_dir, now=wall, **kwargs)
    return view, wall


def run(view, wall, ms, step_ms=2):
    """``ms`` of wall time in the view's loop, a pass every ``step_ms``."""
    for _ in range(ms // step_ms):
        wall.s += step_ms / 1000
        view.step()


def test_one_read_is_split_into_its_keys():
    reader = KeyReader()
    assert reader.feed("dd") == ["d", "d"]
    assert reader.feed("\x1b[C\x1b[C\x1b[C") == ["\x1b[C"] * 3
    assert reader.feed("\x1bOA\x1b[1;5Dj") == ["\x1bOA", "\x1b[1;5D", "j"]
    # an arrow cut in two by the reads
    assert reader.feed("a\x1b") == ["a"]
    assert reader.feed("[") == []
    assert reader.feed("Bq") == ["\x1b[B", "q"]


def test_three_arrows_in_one_read_are_three_presses(board):
    view, wall = view_of(board)
    assert board.app.screen() == "menu" and board.app.menu_index == 0
    assert view.keys("\x1b[C\x1b[C\x1b[C")
    run(view, wall, 1500)
    assert board.app.menu_index == 3


def test_a_letter_typed_twice_is_two_presses(board):
    view, wall = view_of(board)
    view.keys("dd")
    run(view, wall, 1000)
    assert board.app.menu_index == 2


def test_a_held_arrows_repeats_are_each_a_press_in_order(board):
    view, wall = view_of(board)
    # the terminal repeats a held key about every 30 ms: some reads hold two
    for text in ("\x1b[C", "\x1b[C\x1b[C", "\x1b[C", "\x1b[D"):
        view.keys(text)
        run(view, wall, 30)
    run(view, wall, 1500)
    assert board.app.menu_index == 3


def test_keys_of_one_read_keep_their_order(board):
    view, wall = view_of(board)
    view.keys("dj")  # right, then A: opens the second entry
    run(view, wall, 1000)
    assert board.app.screen() == board.app.menu[1] == "quoridor"


def test_q_among_other_keys_quits(board):
    view, _ = view_of(board)
    assert view.keys("dq") is False


def last_picture(view):
    """The grid as last drawn on the terminal."""
    text = view.out.getvalue()
    return text[text.rindex("\x1b[H") + 3:].split("\n\n", 1)[0]


def test_the_grid_drawn_after_each_key_is_the_one_the_leds_show(board):
    view, wall = view_of(board)
    screens = []
    for key in "djmdjmddd":  # through the menu, into modes and back
        view.keys(key)
        run(view, wall, 600)
        screens.append(board.app.screen())
        # the frames have latched; nothing changed since the last redraw
        assert board.frame() == board.frame(settled=True)
        assert last_picture(view) == to_terminal(board.frame(),
                                                 white_drive=board.white_drive()), key
    assert screens[:6] == ["menu", "quoridor", "menu", "menu", "pacman", "menu"], screens


def test_a_frame_on_the_wire_is_drawn_as_it_will_show(board):
    board.press("right")
    for _ in range(200):
        board.advance(1)
        start_us, latched_us, panel, _ = board.led_log[-1]
        if start_us <= board.clock_ms * 1000 < latched_us:
            break
    else:
        raise AssertionError("no frame caught on the wire")
    assert board.frame(settled=True) != board.frame()  # the LEDs still show the menu's
    board.advance(20)
    assert board.frame(settled=True) == board.frame()


def test_x_says_the_reference_build_has_no_tilt_switch(board):
    assert board.hw.tilt_pin is None  # hardware/boardside.json
    view, wall = view_of(board)
    run(view, wall, 20)
    assert "x = shake (no tilt.pin: does nothing)" in view.out.getvalue()
    view.keys("x")
    run(view, wall, 20)
    assert live.NO_TILT[:60] in view.out.getvalue()


def test_p_saves_into_the_folder_given_and_says_where(board, tmp_path):
    # a terminal wide enough for the whole path (the log pane is as wide as the terminal)
    view, wall = view_of(board, png_dir=str(tmp_path / "shots"), columns=lambda: 400)
    view.keys("p")
    run(view, wall, 20)
    path = tmp_path / "shots" / "boardside-frame-1.png"
    assert Image.open(path).size == (256, 256)
    assert "saved " + str(path) in view.out.getvalue()


def test_the_default_png_folder_is_one_git_ignores():
    probe = os.path.join(live.default_png_dir(), "boardside-frame-1.png")
    checkout = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    assert probe.startswith(checkout + os.sep)
    ignored = subprocess.run(["git", "-C", checkout, "check-ignore", "-q", probe],
                             check=False)
    assert ignored.returncode == 0, probe


def test_the_log_pane_is_as_wide_as_the_terminal(board):
    view, wall = view_of(board, columns=lambda: 160)
    line = "event " + "x" * 140  # 146 characters
    view.log.append(line)
    view.draw()
    assert "\x1b[2K" + line + "\n" in view.out.getvalue()
    narrow, _ = view_of(board, columns=lambda: 80)
    narrow.log.append(line)
    narrow.draw()
    assert "\x1b[2K" + line[:80] + "\n" in narrow.out.getvalue()
