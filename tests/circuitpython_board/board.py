"""board: the Raspberry Pi Pico's pin names (GP0-GP28, LED)."""

from circuitpython_board.microcontroller import Pin

board_id = "raspberry_pi_pico"
PINS = [Pin(i) for i in range(29)]
for _i, _pin in enumerate(PINS):
    globals()["GP%d" % _i] = _pin
LED = Pin(25)
