// boardside on a Raspberry Pi Pico 2 (RP2350, 4 MB flash): the Pico 2's own settings
// with the boardside package frozen in.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico2 (boardside)"

// Flash map, 4096 KB: code (MicroPython and the frozen package) in the first 2 MB, the
// littlefs filesystem in the rest (saves, logs, layouts, a deployed development copy).
#define MICROPY_HW_FLASH_STORAGE_BYTES          (PICO_FLASH_SIZE_BYTES - 2048 * 1024)

// The collector's mark stack, in entries (MicroPython's default is 64): as on the
// Pico (boards/BOARDSIDE_PICO/mpconfigboard.h), deep enough that a collection does
// not overflow it and rescan the heap.
#define MICROPY_ALLOC_GC_STACK_SIZE             (256)

// Python frames on a stack of their own, as on BOARDSIDE_PICO.
#include "../boardside_pystack.h"
