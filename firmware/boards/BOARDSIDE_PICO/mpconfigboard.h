// boardside on a Raspberry Pi Pico (RP2040, 2 MB flash): the Pico's own settings
// with a smaller filesystem, so that the frozen boardside package has room to grow.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico (boardside)"

// Flash map, 2048 KB: code (MicroPython and the frozen package) from the start,
// then the littlefs filesystem. The filesystem keeps the saves (a few KB), the
// crash and roll logs, the PAC-MAN layouts and, for development, a deployed copy
// of the firmware in two slots (about 2 x 300 KB as .mpy): 1 MB is that with margin.
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1024 * 1024)
