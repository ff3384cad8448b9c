# boardside on a Raspberry Pi Pico 2: the port's RPI_PICO2 board (Arm cores) with its
# own flash map and the boardside package frozen into the image.
set(PICO_BOARD "pico2")
set(PICO_PLATFORM "rp2350")
set(MICROPY_BOARD_PINS "${MICROPY_PORT_DIR}/boards/RPI_PICO2/pins.csv")
set(MICROPY_FROZEN_MANIFEST "${MICROPY_BOARD_DIR}/../manifest.py")
