// boardside on a Raspberry Pi Pico (RP2040, 2 MB flash): the Pico's own settings
// with a smaller filesystem, so that the frozen boardside package has room to grow.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico (boardside)"

// Flash map, 2048 KB: code (MicroPython and the frozen package) from the start,
// then the littlefs filesystem. The filesystem keeps the saves (a few KB), the
// crash and roll logs, the PAC-MAN layouts and, for development, a deployed copy
// of the firmware in two slots (about 2 x 300 KB as .mpy): 1 MB is that with margin.
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1024 * 1024)

// The collector's mark stack, in entries (MicroPython's default is 64). What the
// heap holds once a mode has run nests deeper than 64 references: the stack
// overflowed, and gc_collect_end() then rescanned the heap for what was left
// unmarked, about 7 ms of a 9.3 ms collection on the chip (about 980 extra mark
// calls; 4.0 ms with 256 entries, none extra).
// 256 entries cost 768 bytes more of RAM (the heap is 384 bytes smaller).
#define MICROPY_ALLOC_GC_STACK_SIZE             (256)

// Python frames on a stack of their own (8 KB): see the header.
#include "../boardside_pystack.h"
