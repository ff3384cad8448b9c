# What is frozen into the boardside image (firmware/boards/BOARDSIDE_*): the port's own
# modules, then the firmware's loader and the boardside package, as bytecode that runs
# from flash, so the heap holds only games. $(BOARDSIDE_GEN) is the build's folder of
# generated files: boardside_image.py, the version and the hardware description the
# image was built for (host/boardside_host/image.py writes it and names it).
include("$(PORT_DIR)/boards/manifest.py")
freeze("$(BOARD_DIR)/../..", ("main.py", "boot.py"))
freeze("$(BOARDSIDE_GEN)", "boardside_image.py")
package("boardside", base_path="$(BOARD_DIR)/../..")
