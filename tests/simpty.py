"""A simulated board served on a pseudo-terminal from this process, in real time,
for tests that drive it with real host tools (mpremote, boardside deploy)."""

import contextlib
import threading

from boardside_host.sim import SimBoard
from boardside_host.sim.live import PtyBridge, RealTime


class LiveBoard:
    """SimBoard + PtyBridge + a thread keeping device time in step with the clock.
    ``paused()`` stops the clock so a test can look inside or power-cycle."""

    def __init__(self, **kwargs):
        self.board = SimBoard(**kwargs)
        self.board.boot()
        self.bridge = PtyBridge(self.board)
        self.path = self.bridge.path
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        clock = None
        while not self._stop.is_set():
            with self.lock:
                if clock is None or clock.board is not self.board or self._restart:
                    clock = RealTime(self.board)
                    self._restart = False
                clock.catch_up()
                self.board.read_serial()  # the bridge has passed it on
            self.bridge.wait_input(0.002)

    _restart = False

    @contextlib.contextmanager
    def paused(self):
        with self.lock:
            yield self.board
            self._restart = True

    def close(self):
        self._stop.set()
        self._thread.join(timeout=5)
        self.bridge.close()
        self.board.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
