# The ROMFS comparison board (bench/romfs.py, docs/performance.md): the Pico with the
# boardside package in a ROMFS partition, as .mpy files executed in place, instead of
# frozen into the image. Only the loader and the image's description are frozen.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_BOARD_PINS "${MICROPY_PORT_DIR}/boards/RPI_PICO/pins.csv")
set(MICROPY_FROZEN_MANIFEST "${MICROPY_BOARD_DIR}/manifest.py")
