// The boardside boards' Python stack (included by each board's mpconfigboard.h).
//
// Python frames on a stack of their own. A call whose locals and value stack need
// more than 11 words (VM_MAX_STATE_ON_STACK, py/objfun.c: most of the firmware's
// functions) otherwise takes its frame from the GC heap and frees it at return:
// every main-loop pass allocated and freed three, enough to start the heap's own
// collection about once a second in an idle menu. The stack is set up once, before
// the first mp_init(); 8 KB of RAM taken from the heap's end. An evening of every
// mode used 1.5 KB of it at most (read from RAM on the emulated chip); a deeper one
// raises RuntimeError("pystack exhausted"), as a deep recursion does.
#define MICROPY_ENABLE_PYSTACK                  (1)
#define BOARDSIDE_PYSTACK_WORDS                 (2048)
#define MICROPY_BOARD_EARLY_INIT() do { \
        static mp_obj_t boardside_pystack[BOARDSIDE_PYSTACK_WORDS]; \
        mp_pystack_init(boardside_pystack, &boardside_pystack[BOARDSIDE_PYSTACK_WORDS]); \
} while (0)
