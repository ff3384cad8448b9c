// The ROMFS comparison board: BOARDSIDE_PICO's flash map with 384 KB of its code
// space given to a ROMFS partition (mounted at /rom, on sys.path), which
// `mpremote romfs deploy` writes without reflashing the image.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico (boardside, ROMFS)"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1024 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (384 * 1024)
// The collector's mark stack as on BOARDSIDE_PICO (see there).
#define MICROPY_ALLOC_GC_STACK_SIZE             (256)

// Python frames on a stack of their own, as on BOARDSIDE_PICO.
#include "../boardside_pystack.h"
