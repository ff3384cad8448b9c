# The port's own modules, the loader and the image's description; the boardside
# package itself comes from the ROMFS partition (/rom/boardside).
include("$(PORT_DIR)/boards/manifest.py")
freeze("$(BOARD_DIR)/../..", ("main.py", "boot.py"))
freeze("$(BOARDSIDE_GEN)", "boardside_image.py")
