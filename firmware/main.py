# Runs at power-up. Hold MENU while plugging in for safe mode (the app does not
# start; the REPL stays free for mpremote). Ctrl-C stops the app the same way.
import boardside.device

boardside.device.main()
