# boardside on a Raspberry Pi Pico: the port's RPI_PICO board with its own flash
# map and the boardside package frozen into the image.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_BOARD_PINS "${MICROPY_PORT_DIR}/boards/RPI_PICO/pins.csv")
set(MICROPY_FROZEN_MANIFEST "${MICROPY_BOARD_DIR}/../manifest.py")
