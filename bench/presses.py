"""Putting the bench's device (the rig of tests/micropython_vm/board/rig.py) into a
saved state and pressing a button there: the setups that the operations of a mode
share."""

from timing import Op


def quiet_passes(rig):
    """Passes long enough for the last press's release to count and its deaf time
    to pass (each is min_press_ms + debounce_ms), so the next press is sampled at
    once."""
    hw = rig.hw
    return max(8, -(-2 * (hw.min_press_ms + hw.debounce_ms) // rig.poll_ms))


def sampling_passes(rig):
    """The passes before the one that delivers a press: the contact must read
    closed for min_press_ms before it counts, and they only sample the pin."""
    return -(-rig.hw.min_press_ms // rig.poll_ms)


def restore_to(rig, snapshot, poke=None):
    """A setup: the app back to a saved state, buttons up, the frame drawn. The
    mode keeps its instance (Mode.restore, not App.restore), so that what it keeps
    between presses is as warm as in a game in progress."""
    name = snapshot["screen"]
    quiet = quiet_passes(rig)

    def setup():
        rig.release_all()
        rig.passes(quiet)
        app = rig.app
        if app.current == name and name in snapshot["modes"]:
            app.mode().restore(snapshot["modes"][name])
        else:
            app.restore(snapshot, rig.dev.now)
        if poke is not None:
            poke(rig.app.mode())
        # what was restored is what is on flash: no secret of the last sample is
        # still waiting for its write (its press would only be queued, not timed)
        rig.app.sealed(rig.app.secret_seq)
        rig.app.deferred = []
        rig.app.dirty = True
        rig.step()
        rig.step()
    return setup


def press_ops(rig, group, label, snapshot, button, poke=None, render=True):
    """A button press through the whole device to a new frame: one main-loop pass
    (poll, debounce, the mode, render, frame push). Twice: with the flash save
    that a first change after a pause makes in the same pass, and without (a
    change within a second of the last save waits for a quiet moment)."""
    restore = restore_to(rig, snapshot, poke)
    sched = rig.dev.persist.schedule
    sampling = sampling_passes(rig)

    def setup_quiet():
        restore()
        rig.level(button, True)
        rig.passes(sampling)
        sched.last_write = rig.dev.now  # saved a moment ago: this change waits

    def setup_save():
        restore()
        rig.level(button, True)
        rig.passes(sampling)
        sched.last_write = None  # nothing saved lately: this change is saved at once
        rig.dev.persist.last = None

    yield Op(group, "press %s -> frame: %s" % (button.upper(), label), rig.step, setup_quiet,
             budget="press", rig=rig, kind="press")
    yield Op(group, "press %s -> frame + save: %s" % (button.upper(), label), rig.step,
             setup_save, note="a change when nothing was saved lately: saved after the frame",
             rig=rig, kind="press_save")
    if render:
        restore()
        app = rig.app
        yield Op(group, "render: %s" % label, lambda: app.render(app.canvas, rig.dev.now))



def save_op(rig, group, label, snapshot):
    from boardside import savefile

    app = rig.app
    app.restore(snapshot, rig.dev.now)
    size = len(savefile.encode(app.save()))
    yield Op(group, "save: App.save + encode, %s" % label,
             lambda: savefile.encode(app.save()), note="%d bytes" % size)


def only_mode(snapshot, name):
    """The saved state with only one mode in it, on that mode's screen."""
    s = dict(snapshot)
    s["modes"] = {name: snapshot["modes"][name]}
    s["screen"] = name
    return s
