# Output stage: colour order, gamma, brightness and the power limiter.
from boardside import gridmap, hardware
from boardside.canvas import Canvas
from boardside.output import FrameOutput, gamma_table

HW = """{"leds": {"pin": 2, "order": "%s"},
 "grid": {"width": 4, "height": 4, "layout": "%s"},
 "buttons": {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15, "menu": 16},
 "power": {"budget_ma": %d, "ma_per_channel": 20, "idle_ma_per_led": 1, "brightness": %s}}"""


def make(order="GRB", layout="rows", budget=5000, brightness="1.0"):
    hw = hardware.load(HW % (order, layout, budget, brightness))
    return hw, FrameOutput(hw, gridmap.build(hw))


def test_gamma_table_is_monotonic_and_ends_right():
    t = gamma_table(1.0)
    assert t[0] == 0 and t[255] == 255
    assert all(t[i] <= t[i + 1] for i in range(255))
    assert gamma_table(0.5)[255] == 128
    assert t[128] < 64  # mid grey drives the LED well below half


def test_colour_order_and_mapping():
    hw, out = make(order="GRB", layout="serpentine")
    c = Canvas(4, 4)
    c.pixel(0, 1, 0xFF0000)  # second row runs right to left: LED 7
    buf = bytearray(hw.led_count * 3)
    out.write(c, buf)
    assert buf[7 * 3:7 * 3 + 3] == bytearray((0, 255, 0))  # G, R, B
    assert sum(buf) == 255


def test_power_limiter_keeps_frame_within_budget():
    # 16 LEDs idle at 1 mA each; full white would draw 16 * 60 mA = 960 mA more
    hw, out = make(budget=500)
    c = Canvas(4, 4)
    c.fill(0xFFFFFF)
    buf = bytearray(hw.led_count * 3)
    scale = out.write(c, buf)
    assert scale < 256
    assert out.estimate_ma() <= 500
    assert out.estimate_ma() > 450  # scaled down, not blacked out
    assert len(set(buf)) == 1  # every channel scaled alike: white stays white


def test_frames_within_budget_are_untouched():
    hw, out = make(budget=5000)
    c = Canvas(4, 4)
    c.fill(0xFFFFFF)
    buf = bytearray(hw.led_count * 3)
    assert out.write(c, buf) == 256
    assert min(buf) == 255
    assert out.estimate_ma() == 16 + 16 * 60


def test_brightness_scales_output():
    hw, out = make(brightness="0.25")
    c = Canvas(4, 4)
    c.pixel(0, 0, 0xFFFFFF)
    buf = bytearray(hw.led_count * 3)
    out.write(c, buf)
    assert buf[0] == 64


# What device/viper_frame.py's native code does, in Python: write_kernel's plumbing
# (the wiring table, the limiter, the drive sum) must give write_plain's bytes. The
# native code itself is compared with the simulator's bytes on the chip
# (tests/test_chip.py: every frame the chip shows against the simulator's).
def map_frame(src, out, lut, table, leds, o0, o1, o2):
    total = 0
    for k in range(leds):
        j = table[k] * 3
        for i, o in ((0, o0), (1, o1), (2, o2)):
            v = lut[src[3 * k + i]]
            out[j + o] = v
            total += v
    return total


def scale_frame(out, n, scale):
    for j in range(n):
        out[j] = (out[j] * scale) >> 8


def test_the_kernel_path_writes_what_the_plain_loop_writes():
    for order, layout, budget in (("GRB", "serpentine", 5000), ("BGR", "rows", 40)):
        hw = hardware.load(HW % (order, layout, budget, "0.8"))
        plain = FrameOutput(hw, gridmap.build(hw), fast=False)
        kernel = FrameOutput(hw, gridmap.build(hw), kernel=(map_frame, scale_frame))
        c = Canvas(4, 4)
        for i in range(16):
            c.pixel(i % 4, i // 4, (i * 0x1F3A57) & 0xFFFFFF)
        a = bytearray(hw.led_count * 3)
        b = bytearray(hw.led_count * 3)
        assert plain.write_plain(c, a) == kernel.write(c, b)
        assert a == b
        assert plain.last_drive_sum == kernel.last_drive_sum
    assert plain.last_scale < 256  # the second one was limited
