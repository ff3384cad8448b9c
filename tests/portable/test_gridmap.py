# Grid mapper: every layout option maps the logical grid onto every LED exactly once.
from boardside.gridmap import led_index


def table(pw, ph, layout, rot, fx, fy):
    lw = ph if rot in (90, 270) else pw
    lh = pw if rot in (90, 270) else ph
    return [[led_index(x, y, pw, ph, layout, rot, fx, fy) for x in range(lw)]
            for y in range(lh)]


def test_row_major_and_serpentine():
    assert table(3, 2, "rows", 0, False, False) == [[0, 1, 2], [3, 4, 5]]
    # serpentine: the second row runs back from the right
    assert table(3, 2, "serpentine", 0, False, False) == [[0, 1, 2], [5, 4, 3]]


def test_rotation_and_flips():
    # a 3-wide, 2-high panel turned 90 degrees clockwise is 2 wide and 3 high;
    # logical top-left is the panel's bottom-left LED
    assert table(3, 2, "rows", 90, False, False) == [[3, 0], [4, 1], [5, 2]]
    assert table(3, 2, "rows", 180, False, False) == [[5, 4, 3], [2, 1, 0]]
    assert table(3, 2, "rows", 270, False, False) == [[2, 5], [1, 4], [0, 3]]
    assert table(3, 2, "rows", 0, True, False) == [[2, 1, 0], [5, 4, 3]]
    assert table(3, 2, "rows", 0, False, True) == [[3, 4, 5], [0, 1, 2]]


def test_every_option_is_a_bijection():
    for pw, ph in ((8, 8), (16, 16), (17, 17), (5, 3)):
        for layout in ("rows", "serpentine"):
            for rot in (0, 90, 180, 270):
                for fx in (False, True):
                    for fy in (False, True):
                        t = table(pw, ph, layout, rot, fx, fy)
                        flat = sorted(i for row in t for i in row)
                        assert flat == list(range(pw * ph)), (pw, ph, layout, rot, fx, fy)
