# The save file format and the write schedule (boardside.savefile), on both VMs.
import json

from boardside import savefile
from boardside.app import App
from boardside.savefile import SaveFileError

from portable._support import TinyRng, raises

STATE = {"screen": "dice", "menu_index": 0, "settings": {"dice.x": 1},
         "modes": {"dice": {"sides": 20, "count": 2, "secret": True, "results": [7, 19],
                            "rolls": 3}}, "name": "caf\u00e9"}


def reason(data, version=savefile.VERSION):
    return str(raises(SaveFileError, savefile.decode, data, version))


def test_round_trip():
    data = savefile.encode(STATE)
    assert savefile.decode(data) == STATE
    assert data.startswith(b"BSAV %d " % savefile.VERSION)


def test_header_names_version_length_checksum_name_place_and_seal():
    data = savefile.encode({"a": 1}, savefile.VERSION, b"k" * 16)
    head, body = data.split(b"\n", 1)
    magic, version, length, crc, name, place, seal = head.split(b" ")
    assert magic == b"BSAV" and int(version) == 3 and int(length) == len(body)
    meta = b"app 1/1"
    assert name + b" " + place == meta
    assert int(crc, 16) == savefile.record_crc(meta, body) and len(crc) == 8
    assert seal == savefile.seal(b"k" * 16, meta + body) and len(seal) == 16
    assert json.loads(body) == [{"a": 1}, None]


def records(data):
    """[(header fields, body)] of a version 3 file."""
    out = []
    at = 0
    while at < len(data):
        end = data.index(b"\n", at)
        fields = data[at:end].split(b" ")
        n = int(fields[2])
        out.append((fields, data[end + 1:end + 1 + n]))
        at = end + 1 + n
    return out


def join(recs):
    return b"".join(b" ".join(f) + b"\n" + b for f, b in recs)


KEY = bytes(range(16))


def test_a_sealed_file_opens_verified_with_its_key_only():
    data = savefile.encode(STATE, key=KEY)
    assert savefile.unseal(data, KEY) == (STATE, None)
    assert savefile.unseal(data, bytes(16)) == (STATE, savefile.CHANGED)
    assert savefile.unseal(data, None) == (STATE, savefile.HANDED_OVER)


def test_an_edit_with_the_checksum_recomputed_is_seen_as_a_change():
    """What an edit at the REPL does: change the body, fix the CRC (the seal needs
    the key, which the firmware drops before the REPL gets the board)."""
    data = savefile.encode({"pegs": [3, 0]}, key=KEY)
    (fields, body), = records(data)
    body = body.replace(b"3", b"9")
    fields[2] = b"%d" % len(body)
    fields[3] = b"%08x" % savefile.record_crc(fields[4] + b" " + fields[5], body)
    state, why = savefile.unseal(join([(fields, body)]), KEY)
    assert state == {"pegs": [9, 0]} and why == savefile.CHANGED
    assert savefile.WHY[why] == "the save file was changed outside the firmware"


def test_a_version_2_file_still_restores():
    """What the firmware before the records wrote: one body for everything."""
    old = savefile.encode(STATE, 2, KEY)
    assert old.split(b"\n", 1)[0].count(b" ") == 4
    assert savefile.unseal(old, KEY) == (STATE, None)
    assert savefile.recover(old, KEY) == (STATE, None, [])


GAMES = {"screen": "qbert", "menu_index": 2, "settings": {"qbert.faces": "six"},
         "modes": {"dice": {"sides": 20}, "qbert": {"tube": 5}, "qubo": {"n": 3}}}


def test_one_damaged_record_costs_only_its_own_part():
    data = savefile.encode(GAMES, key=KEY)
    recs = records(data)
    for i in range(len(recs)):
        fields, body = recs[i]
        bad = list(recs)
        bad[i] = (fields, body[:-1] + b"#")  # a damaged byte at its end
        state, why, lost = savefile.recover(join(bad), KEY)
        name = fields[4].decode()
        assert lost == [[name, "checksum mismatch"]] and why is None
        raises(SaveFileError, savefile.decode, join(bad))  # the whole file: refused
        for game in GAMES["modes"]:
            assert state["modes"].get(game) == (None if game == name else GAMES["modes"][game])
        assert state.get("settings") == (None if name == "settings" else GAMES["settings"])
        assert state.get("screen") == (None if name == "app" else "qbert")


def test_every_damaged_byte_costs_at_most_two_parts_and_never_a_wrong_value():
    data = savefile.encode(GAMES, key=KEY)
    parts = 2 + len(GAMES["modes"])
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x40
        try:
            state, why, lost = savefile.recover(bytes(bad), KEY)
        except SaveFileError:
            raise AssertionError("byte %d cost the whole file" % i)
        kept = len(state.get("modes", {})) + ("settings" in state) + ("screen" in state)
        assert kept >= parts - 2 and kept + len(lost) >= parts, (i, lost)
        for game in state.get("modes", {}):
            assert state["modes"][game] == GAMES["modes"][game]
        if "settings" in state:
            assert state["settings"] == GAMES["settings"]


def test_a_version_1_file_still_restores_but_unverified():
    old = savefile.encode(STATE, 1)
    assert old.split(b"\n", 1)[0].count(b" ") == 3  # no seal field
    assert savefile.unseal(old, KEY) == (STATE, savefile.OLD_FORMAT)


def test_crc32_is_the_zip_one():
    assert savefile.crc32(b"123456789") == 0xCBF43926  # the standard check value
    assert savefile.crc32(b"") == 0


def test_bitwise_crc32_fallback_matches():
    saved = savefile._crc32
    try:
        savefile._crc32 = None
        slow = [savefile.crc32(d) for d in (b"", b"123456789", bytes(range(256)))]
    finally:
        savefile._crc32 = saved
    assert slow == [savefile.crc32(d) for d in (b"", b"123456789", bytes(range(256)))]
    assert slow[1] == 0xCBF43926


def test_every_truncation_is_refused():
    data = savefile.encode(STATE)
    for n in range(len(data)):
        raises(SaveFileError, savefile.decode, data[:n])
    assert "truncated" in reason(data[:-1])
    assert reason(b"") == "empty file"


def test_stray_bytes_are_refused():
    assert "stray" in reason(savefile.encode(STATE) + b" ")


def test_every_flipped_bit_in_the_body_is_caught():
    data = savefile.encode({"sides": 6, "results": [1, 2, 3]})
    start = data.index(b"\n") + 1
    for i in range(start, len(data)):
        for bit in range(8):
            bad = bytearray(data)
            bad[i] ^= 1 << bit
            assert reason(bytes(bad)) == "checksum mismatch"


def test_damaged_header_is_refused_or_unverified():
    data = savefile.encode(STATE, key=KEY)
    head = data[:data.index(b"\n")]
    seal_at = head.rindex(b" ") + 1
    for i in range(len(head)):
        bad = bytearray(data)
        bad[i] ^= 0x01
        if i < seal_at:
            raises(SaveFileError, savefile.decode, bytes(bad))
        else:  # the seal itself: only the key can tell
            try:
                assert savefile.unseal(bytes(bad), KEY)[1] == savefile.CHANGED
            except SaveFileError:
                pass  # not a hex digit any more: refused outright


def test_other_format_version_is_refused_with_the_numbers():
    text = reason(savefile.encode(STATE, savefile.VERSION + 1))
    assert "version %d" % (savefile.VERSION + 1) in text
    assert "reads 1 to %d" % savefile.VERSION in text


def test_garbage_is_refused():
    for data in (b"\x00" * 100, b"hello\nworld", b"BSAV 1 2 zzzzzzzz\n{}",
                 b"BSAV 1 -1 00000000\n", b"BSAV x 2 00000000\n{}", b"BSAV 1 2\n{}",
                 b"BSAV 1 2 0000000\n{}", b"BSAV  1 2 00000000\n{}", b"{" * 200):
        raises(SaveFileError, savefile.decode, data)


def test_a_whole_file_that_is_not_a_state_is_refused():
    for body in (b"[1, 2]", b"nope", b"\xff\xfe"):
        head = "BSAV 1 %d %08x\n" % (len(body), savefile.crc32(body))
        assert reason(head.encode() + body) == "unreadable state"


def test_encode_wants_a_dict():
    raises(TypeError, savefile.encode, [1, 2])


def test_app_state_round_trips_with_a_secret_roll():
    app = App(TinyRng(5), 16, 16)
    app.open("dice", 0)
    app.mode().choose(sides=8, secret=True)
    app.mode().roll(10)
    state = savefile.decode(savefile.encode(app.save()))
    again = App(TinyRng(99), 16, 16)
    again.restore(state, 20)
    assert again.save() == app.save()
    assert "results" not in again.describe()["state"]  # restored, still hidden


# -- the write schedule ------------------------------------------------------------
def test_a_change_is_written_at_a_quiet_moment_not_at_once():
    """A write erases flash for tens of ms with the CPU stalled: never between a press
    and its frame, so even a first change waits for input to be quiet."""
    s = savefile.Schedule(quiet_ms=300, max_delay_ms=1000)
    assert not s.due(0)
    s.changed(5000)
    assert not s.due(5000) and not s.due(5299)
    assert s.due(5300)
    s.written(5300)
    assert not s.due(5301)


def test_a_new_secret_is_written_at_once_but_not_more_often_than_the_urgent_gap():
    s = savefile.Schedule(quiet_ms=300, max_delay_ms=1000, urgent_gap_ms=250)
    s.changed(5000)
    assert s.due(5000, urgent=True)
    s.written(5000)
    s.changed(5100)
    assert not s.due(5100, urgent=True) and not s.due(5249, urgent=True)
    assert s.due(5250, urgent=True)


def test_burst_is_written_after_a_quiet_spell_and_the_last_change_kept():
    s = savefile.Schedule(quiet_ms=300, max_delay_ms=1000)
    s.changed(0)
    s.written(0)
    for t in (100, 200, 250):
        s.changed(t)
        assert not s.due(t)
    assert not s.due(549)
    assert s.due(550)  # 300 ms after the last change


def test_rapid_changes_write_at_most_every_quiet_interval_and_never_lose_the_last():
    s = savefile.Schedule(quiet_ms=300, max_delay_ms=1000)
    writes = []
    last_change = None
    for t in range(0, 20000):
        if t % 7 == 0 and t < 15000:  # a change every 7 ms (a held button repeats slower)
            s.changed(t)
            last_change = t
        if s.due(t):
            s.written(t)
            writes.append(t)
    gaps = [b - a for a, b in zip(writes, writes[1:])]
    assert min(gaps) >= 300
    assert len(writes) <= 15000 // 1000 + 2  # a stream is written once a second
    assert writes[-1] >= last_change  # the last change reached the flash
    assert not s.pending


def test_taps_just_over_the_quiet_interval_stay_under_four_writes_a_second():
    s = savefile.Schedule()
    writes = 0
    for t in range(0, 10000):
        if t % 310 == 0:
            s.changed(t)
        if s.due(t):
            s.written(t)
            writes += 1
    assert writes <= 10000 // savefile.QUIET_MS + 1


def test_unchanged_and_failed_writes():
    s = savefile.Schedule(quiet_ms=300, max_delay_ms=1000)
    s.changed(0)
    s.unchanged()
    assert not s.due(10000)
    s.changed(20000)
    s.failed(20000, 5000)
    assert not s.due(24999) and not s.due(24999, urgent=True)
    assert s.due(25000) and s.pending


def test_a_number_padded_to_its_width_reads_back_the_same():
    body = json.dumps({"a": [1, 22, -3, 1234567, True, False, None, "x\"y 5\\", 0]},
                      separators=(",", ":")).encode()
    padded = savefile.fixed_width(body)
    assert json.loads(padded) == json.loads(body)
    assert b"1  ,22 ,-3 ,1234567    ,true ,false" in padded


def save_length(app):
    return len(savefile.encode(app.save()))


def test_a_save_is_as_long_whatever_the_hidden_roll():
    """The length of a save (so the flash pages it takes, and the time it takes) must
    not depend on a hidden value: 9 or 10, one digit more, would be a page more near a
    page's edge, and the next reply 0.4 ms later."""
    lengths = {}
    for seed in range(1, 60):
        app = App(TinyRng(seed), 16, 16)
        app.open("dice", 0)
        app.mode().choose(sides=20, count=3, secret=True)
        app.mode().roll(10)
        lengths.setdefault(save_length(app), []).append(app.mode().results)
    assert len(lengths) == 1, lengths


def test_a_save_is_as_long_whatever_the_roll_under_the_tube():
    """Q*bert's hidden roll, and the roll log's link that depends on it."""
    lengths = {}
    for seed in range(1, 40):
        app = App(TinyRng(seed), 16, 16)
        app.open("qbert", 0)
        m = app.mode()
        for _ in range(20):
            try:
                m.command("rolloff", {}, 0)
            except Exception:
                break
        m.command("next", {}, 0)
        m.command("drop", {}, 0)
        # the same public history (the roll-off may take a tie or two): the same length
        rolls = tuple(m.match.log.entry(i)[4] for i in range(len(m.match.log) - 1))
        lengths.setdefault(rolls, {}).setdefault(save_length(app), set()).add(m.match.tube)
    assert [len(x) for x in lengths.values()] == [1] * len(lengths), lengths
    assert max(len(t) for x in lengths.values() for t in x.values()) > 1  # tubes differ


# -- enciphered records: where the computer can read the flash (CircuitPython) -------------
HIDE = bytes(range(100, 116))
GAMES_WITH_SECRETS = {"screen": "qbert", "settings": {"qbert.usb_peek": False},
                      "modes": {"qbert": {"match": {"tube": 7, "pegs": [3, 0]}},
                                "dice": {"secret": True, "results": [19, 4]}}}


def test_cipher_is_sha256_in_counter_mode_and_its_own_inverse():
    from boardside.digest import cipher, sha256

    data = bytes(range(256)) * 2 + b"tail"
    nonce = b"0123456789abcdef"
    out = cipher(HIDE, nonce, data)
    assert len(out) == len(data) and out != data
    assert cipher(HIDE, nonce, out) == data
    stream = b"".join(sha256(HIDE + nonce + i.to_bytes(4, "big")).digest()
                      for i in range(17))
    assert out == bytes(a ^ b for a, b in zip(data, stream))
    assert cipher(HIDE, nonce, b"") == b""
    assert cipher(HIDE, nonce, b"\x00\x00\x01")[:2] == stream[:2]  # leading zeros kept
    assert cipher(bytes(16), nonce, data) != out


def test_an_enciphered_file_reads_with_its_hiding_key_only():
    data = savefile.encode(GAMES_WITH_SECRETS, key=KEY, hide=HIDE)
    assert savefile.unseal(data, KEY, hide=HIDE) == (GAMES_WITH_SECRETS, None)
    assert savefile.decode(data, hide=HIDE) == GAMES_WITH_SECRETS
    assert b"tube" not in data and b"results" not in data and b"usb_peek" not in data
    assert "enciphered" in reason(data)  # no hiding key: nothing reads
    wrong = str(raises(SaveFileError, savefile.decode, data, savefile.VERSION, bytes(16)))
    assert wrong == "unreadable state"


def test_an_enciphered_record_is_as_long_as_a_plain_one_and_the_same_state_the_same_bytes():
    plain = records(savefile.encode(GAMES_WITH_SECRETS, key=KEY))
    hidden = records(savefile.encode(GAMES_WITH_SECRETS, key=KEY, hide=HIDE))
    assert len(plain) == len(hidden) == 4
    for (pf, pb), (hf, hb) in zip(plain, hidden):
        assert hf[:7] == pf[:3] + [hf[3]] + pf[4:] and hf[7:] == [savefile.ENCIPHERED]
        assert len(hb) == len(pb) and hb != pb
    # the nonce is the keyed seal: an unchanged state is not written again
    again = savefile.encode(GAMES_WITH_SECRETS, key=KEY, hide=HIDE)
    assert again == join(hidden)
    assert savefile.encode(GAMES_WITH_SECRETS, key=bytes(16), hide=HIDE) != again


def test_an_edit_of_an_enciphered_record_is_never_vouched_for():
    data = savefile.encode(GAMES_WITH_SECRETS, key=KEY, hide=HIDE)
    recs = records(data)
    at = [f[4] for f, b in recs].index(b"qbert")  # (MicroPython's dicts keep no order)
    fields, body = recs[at]
    for i in range(len(body)):
        bad = bytearray(body)
        bad[i] ^= 0x01  # a bit flipped through the cipher, and the CRC made to fit
        f = list(fields)
        f[3] = b"%08x" % savefile.record_crc(f[4] + b" " + f[5], bytes(bad))
        edited = join(recs[:at] + [(f, bytes(bad))] + recs[at + 1:])
        try:
            state, why = savefile.unseal(edited, KEY, hide=HIDE)
        except SaveFileError:
            continue  # it no longer reads at all
        assert why == savefile.CHANGED


def test_damage_to_an_enciphered_record_costs_that_record_only():
    data = savefile.encode(GAMES_WITH_SECRETS, key=KEY, hide=HIDE)
    recs = records(data)
    at = [f[4] for f, b in recs].index(b"dice")
    fields, body = recs[at]
    damaged = (fields, body[:-1] + bytes([body[-1] ^ 0x40]))
    bad = join(recs[:at] + [damaged] + recs[at + 1:])
    state, why, lost = savefile.recover(bad, KEY, hide=HIDE)
    assert lost == [["dice", "checksum mismatch"]] and why is None
    assert state["modes"] == {"qbert": GAMES_WITH_SECRETS["modes"]["qbert"]}


def test_a_game_given_as_its_record_body_is_taken_as_it_is():
    """encode(): a game given as bytes (a parked game: its record body, game_body())
    is written as it is, no JSON made, no number padded; the file is the same bytes as
    one from the game's value, and the formats with one body read it back into it."""
    game = {"results": [5, 12], "die": "d20", "secret": True}
    state = {"screen": "menu", "menu_index": 1, "settings": {}, "modes": {"dice": game}}
    whole = savefile.encode(state, key=b"k" * 16)
    body = savefile.game_body(game)
    assert body == savefile.fixed_width(json.dumps(game, separators=(",", ":")).encode())
    assert json.loads(body) == game
    parked = {"screen": "menu", "menu_index": 1, "settings": {}, "modes": {"dice": body}}
    assert savefile.encode(parked, key=b"k" * 16) == whole
    # taken as given: the body is what is written, not the value it came from
    other = savefile.fixed_width(b'{"results":[6,12],"die":"d20","secret":true}')
    parked["modes"]["dice"] = other
    assert savefile.decode(savefile.encode(parked, key=b"k" * 16))["modes"]["dice"] == \
        {"results": [6, 12], "die": "d20", "secret": True}
    # a version 2 file holds the game's value in its one body (read back, its keys may
    # come in another order on MicroPython: compared as values)
    parked["modes"]["dice"] = body
    assert savefile.decode(savefile.encode(parked, 2, key=b"k" * 16), 2) == state
    assert parked["modes"]["dice"] is body  # (the caller's state is not changed)
