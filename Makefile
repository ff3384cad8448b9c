# boardside: `make run` starts the simulated device, `make test` runs every test layer.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MPVM := tests/micropython_vm
MPVM_STAMP := $(MPVM)/node_modules/.installed
CHIP := tests/chip
CHIP_STAMP := $(CHIP)/node_modules/.installed

.PHONY: run web install test test-all test-board fuzz bench docs-images lint clean help \
	firmware firmware-stock bench-romfs

help:
	@echo "make run       start the simulated device in this terminal"
	@echo "make web       the device in a web page: build out/web and serve it on localhost"
	@echo "make test      install what is needed and run all test layers"
	@echo "make test-all  the tests plus the long ones (cross-checks, fuzz)"
	@echo "make test-board  the image on an emulated RP2040: an evening of play, figures"
	@echo "make fuzz      the long fault-injection and serial fuzz runs"
	@echo "make lint      ruff's checks of every Python file"
	@echo "make firmware  the boardside UF2: MicroPython built from source, boardside frozen in"
	@echo "make firmware-stock  stock MicroPython images (RPI_PICO, RPI_PICO2) for deploy tests"
	@echo "make bench-romfs  the package from a ROMFS partition against frozen, on the chip"
	@echo "make bench     speed and memory figures (CPython, MicroPython VM, board estimate)"
	@echo "make docs-images  the docs' pictures, made by the simulator and the engine (docs/img/)"
	@echo "make clean     remove the virtual environment and build output"

run: $(STAMP)
	$(BIN)/boardside sim

# The device in a web page, on the MicroPython WebAssembly build the VM tests pin
# (docs/browser.md); WEB_ARGS=--no-serve only builds it.
web: $(STAMP) $(MPVM_STAMP)
	$(BIN)/boardside web $(WEB_ARGS)

install: $(STAMP) $(MPVM_STAMP) $(CHIP_STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

# The real MicroPython VM (WebAssembly build, run by Node.js), pinned in package-lock.json
$(MPVM_STAMP): $(MPVM)/package.json $(MPVM)/package-lock.json
	npm ci --prefix $(MPVM) --no-audit --no-fund --loglevel=error
	@touch $@

# The emulated RP2040 (rp2040js, run by Node.js) of the chip layer, pinned likewise
$(CHIP_STAMP): $(CHIP)/package.json $(CHIP)/package-lock.json
	npm ci --prefix $(CHIP) --no-audit --no-fund --loglevel=error
	@touch $@

# One worker per core, a test file each: a file's fixtures (the MicroPython VM run,
# the deployed flash) are set up once, in one worker.
test: $(STAMP) $(MPVM_STAMP) $(CHIP_STAMP) lint
	$(BIN)/python -m pytest -m "not slow and not board" -n auto --dist loadfile

# pyflakes' errors, imports out of place and lines over 99 characters (pyproject.toml)
lint: $(STAMP)
	$(BIN)/ruff check firmware host tests bench hardware

test-all: $(STAMP) $(MPVM_STAMP) $(CHIP_STAMP)
	$(BIN)/python -m pytest -m "not board" -n auto --dist loadfile

# The built images (make firmware; BOARDSIDE_FIRMWARE_DIR) on an emulated RP2040: an
# evening playing every mode on the frozen image and on stock MicroPython with a
# deploy, power cuts; prints a table, writes out/chip.json (docs/chip.md).
test-board: $(STAMP) $(CHIP_STAMP)
	$(BIN)/python -m pytest -s -p no:cacheprovider -m board tests/test_chip_board.py

# Speed and memory on CPython and the MicroPython VM (bench/run.py, out/bench.json), then
# the board's figures measured on the emulated chip against their goals (bench/chip.py,
# out/chip-bench.json; needs make firmware). Fails on a budget or goal missed.
bench: $(STAMP) $(MPVM_STAMP) $(CHIP_STAMP)
	@$(BIN)/python bench/run.py $(BENCH_ARGS); vm=$$?; \
	$(BIN)/python bench/chip.py; chip=$$?; \
	if [ $$vm -ne 0 ] || [ $$chip -ne 0 ]; then exit 1; fi

# The long fault-injection and serial fuzz runs (about 10 minutes); -s shows the figures.
fuzz: $(STAMP) $(MPVM_STAMP)
	PYTHONHASHSEED=0 BOARDSIDE_FUZZ_N=1000000 BOARDSIDE_FUZZ_SIM_N=20000 BOARDSIDE_FAULT_ROUNDS=200 \
		BOARDSIDE_FAULT_SAVES=500 \
		$(BIN)/python -m pytest -s -p no:cacheprovider tests/test_fuzz.py tests/test_faults.py

# The docs' pictures: the grid as the LEDs show it, the PAC-MAN diagrams
# (host/boardside_host/docimages.py, pacman_picture.py), and the page of `boardside web`
# in each mode, where Chromium is installed (webshots.py)
docs-images: $(STAMP) $(MPVM_STAMP)
	$(BIN)/python -m boardside_host.docimages docs/img
	$(BIN)/python -m boardside_host.webshots docs/img

# MicroPython v1.28.0's sources with the rp2 submodules: a tree or an archive (README,
# "Build the image"). Nothing is downloaded; the default is the archive kept beside
# the project, where there is one.
MICROPYTHON_SRC ?= $(wildcard ../shared/vendor/micropython-1.28.0-rp2-src.tar.xz)
FIRMWARE_BOARDS ?= BOARDSIDE_PICO BOARDSIDE_PICO2
STOCK_BOARDS ?= RPI_PICO RPI_PICO2

firmware: $(STAMP)
	@for b in $(FIRMWARE_BOARDS); do \
		MICROPYTHON_SRC="$(MICROPYTHON_SRC)" $(BIN)/boardside image --board $$b || exit 1; done

firmware-stock: $(STAMP)
	@for b in $(STOCK_BOARDS); do \
		MICROPYTHON_SRC="$(MICROPYTHON_SRC)" $(BIN)/boardside image --board $$b || exit 1; done

# ROMFS against the frozen image on the emulated chip (bench/romfs.py): builds the
# ROMFS board's image beside the frozen one, plays an evening on each.
bench-romfs: $(STAMP) $(CHIP_STAMP)
	@for b in BOARDSIDE_PICO BOARDSIDE_PICO_ROMFS; do \
		MICROPYTHON_SRC="$(MICROPYTHON_SRC)" $(BIN)/boardside image --board $$b || exit 1; done
	$(BIN)/python bench/romfs.py

clean:
	rm -rf $(VENV) $(MPVM)/node_modules $(CHIP)/node_modules build out .pytest_cache
