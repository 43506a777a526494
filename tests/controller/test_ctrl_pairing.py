"""The pairing rules (controller/pairing.py), with time passed in by hand.

Expected results are the rules as the issue states them, worked out by hand:
a code is six digits, one-time, 60 s; at most one lives; five wrong tries
burn it; three wrong tries in a row lock one client out for 60 s; CONFIRM
three times within 1.2 s of each other makes a code, six revoke everything.
"""

from __future__ import annotations

import itertools

from controller.pairing import (
    CLIENT_LOCK_S,
    CODE_TTL_S,
    MAX_SESSIONS,
    MAX_WRONG_PER_CODE,
    SESSION_TTL_S,
    Pairing,
)
from firmware_bridge.wire import Button


def scripted(*codes: int) -> Pairing:
    """A Pairing whose codes are the given numbers (then 0, 1, 2, ...)."""
    numbers = itertools.chain(codes, itertools.count())
    return Pairing(randbelow=lambda n: next(numbers) % n)


def test_a_code_is_six_digits_and_pairs_once() -> None:
    p = scripted(4207)
    assert p.new_code(100.0) == "004207"  # leading zeros kept: always six digits
    assert p.panel_text(100.0) == "Tablet code\n004207 for 60s"
    ok = p.redeem("004207", 110.0, client="10.0.0.5")
    assert ok.ok and ok.token and ok.session is not None
    assert p.session(ok.token, 111.0) == ok.session
    again = p.redeem("004207", 111.0, client="10.0.0.6")
    assert not again.ok and again.reason == "used" and again.token is None
    assert p.panel_text(111.0) == "Tablet paired"  # the notice, then the game's text
    assert p.panel_text(110.0 + 8.0) is None


def test_a_code_expires_after_sixty_seconds() -> None:
    p = scripted(123456)
    p.new_code(0.0)
    assert p.live_code(CODE_TTL_S - 0.001) == "123456"
    assert p.live_code(CODE_TTL_S) is None and p.panel_text(CODE_TTL_S) is None
    late = p.redeem("123456", CODE_TTL_S + 1)
    assert not late.ok and late.reason == "expired"
    assert p.next_change(0.0) == CODE_TTL_S


def test_a_new_code_replaces_the_live_one() -> None:
    p = scripted(111111, 222222)
    p.new_code(0.0)
    p.new_code(5.0)
    assert p.redeem("111111", 6.0, client="a").reason == "wrong"
    assert p.redeem("222222", 6.0, client="b").ok


def test_wrong_codes_burn_the_code_and_lock_the_client() -> None:
    p = scripted(555555)
    p.new_code(0.0)
    # one client: three wrong in a row, then locked for 60 s (the code still lives)
    for guess in ("000001", "000002", "000003"):
        assert p.redeem(guess, 1.0, client="x").reason == "wrong"
    locked = p.redeem("555555", 2.0, client="x")
    assert locked.reason == "locked" and 58 < locked.retry_after <= CLIENT_LOCK_S
    # two more wrong tries from others make five: the code is burned for everyone
    assert p.redeem("000004", 2.0, client="y").reason == "wrong"
    assert p.redeem("000005", 2.0, client="z").reason == "wrong"
    assert MAX_WRONG_PER_CODE == 5
    burned = p.redeem("555555", 3.0, client="w")
    assert not burned.ok and burned.reason == "burned"
    assert p.panel_text(3.0) == "Code blocked:\ntoo many wrong"
    assert {"event": "pairing_code_blocked", "wrong": 5} in p.take_events()


def test_malformed_codes_are_refused_without_counting() -> None:
    p = scripted(123456)
    p.new_code(0.0)
    for bad in ("12345", "1234567", "abcdef", "١٢٣٤٥٦", ""):
        assert p.redeem(bad, 1.0, client="x").reason == "malformed"
    assert p.redeem("123 456", 1.0, client="x").ok  # spaces as the panel groups them


def test_no_live_code_refuses_and_counts_towards_the_lock() -> None:
    p = scripted()
    for _ in range(3):
        assert p.redeem("123456", 1.0, client="x").reason == "none"
    assert p.redeem("123456", 1.0, client="x").reason == "locked"
    assert p.redeem("123456", 1.0 + CLIENT_LOCK_S, client="x").reason == "none"


def test_sessions_are_listed_revoked_and_expire() -> None:
    p = scripted(1, 2, 3)
    tokens = []
    for i, now in enumerate((0.0, 10.0, 20.0)):
        p.new_code(now)
        tokens.append(p.redeem(f"{i + 1:06d}", now + 1).token)
    assert len(p.sessions(30.0)) == 3
    first = p.session(tokens[0], 30.0)
    assert first is not None and p.revoke(first.id, 30.0)
    assert p.session(tokens[0], 30.0) is None and p.session(tokens[1], 30.0) is not None
    assert p.session(tokens[1], 11.0 + SESSION_TTL_S) is None  # an evening, then gone
    assert p.revoke_all(40.0, by="dealer panel") == 2
    assert p.sessions(41.0) == [] and p.session(tokens[2], 41.0) is None
    assert p.session("not-a-token", 41.0) is None and p.session(None, 41.0) is None


def test_at_most_max_sessions_live_the_oldest_goes() -> None:
    p = scripted()
    tokens = []
    for i in range(MAX_SESSIONS + 1):
        p.new_code(float(i))
        tokens.append(p.redeem(f"{i:06d}", float(i)).token)
    assert len(p.sessions(100.0)) == MAX_SESSIONS
    assert p.session(tokens[0], 100.0) is None and p.session(tokens[-1], 100.0) is not None


def test_confirm_three_times_makes_a_code_six_revoke() -> None:
    p = scripted(777777)
    assert p.press(Button.CONFIRM, 1000, 9, 0.0) is None
    assert p.press(Button.CONFIRM, 1500, 9, 0.5) is None
    assert p.press(Button.CONFIRM, 2000, 9, 1.0) == "pair"
    assert p.live_code(1.0) == "777777"
    assert p.press(Button.CONFIRM, 2400, 9, 1.4) is None
    assert p.press(Button.CONFIRM, 2800, 9, 1.8) is None
    assert p.press(Button.CONFIRM, 3200, 9, 2.2) == "revoke"
    assert p.live_code(2.2) is None  # the code went with the sessions
    assert p.panel_text(2.2) == "Tablets unpaired\n0 ended"


def test_a_slow_press_another_button_or_a_reboot_breaks_the_run() -> None:
    p = scripted()
    p.press(Button.CONFIRM, 0, 1, 0.0)
    p.press(Button.CONFIRM, 1000, 1, 1.0)
    assert p.press(Button.CONFIRM, 2300, 1, 2.3) is None  # 1.3 s gap: starts again
    p.press(Button.NEXT, 2400, 1, 2.4)
    p.press(Button.CONFIRM, 2500, 1, 2.5)
    assert p.press(Button.CONFIRM, 2600, 2, 2.6) is None  # rebooted: its clock restarted
    p.press(Button.CONFIRM, 2700, 2, 2.7)
    assert p.press(Button.CONFIRM, 2800, 2, 2.8) == "pair"
    # the panel's millisecond counter wraps at 2**32
    q = scripted()
    q.press(Button.CONFIRM, 2**32 - 300, 1, 0.0)
    q.press(Button.CONFIRM, 100, 1, 0.4)
    assert q.press(Button.CONFIRM, 500, 1, 0.8) == "pair"


def test_events_never_carry_a_code_or_a_secret() -> None:
    p = scripted(314159)
    p.new_code(0.0)
    result = p.redeem("314159", 1.0, client="10.0.0.9", label="Tablet")
    p.revoke_all(2.0)
    text = repr(p.take_events())
    assert "314159" not in text and result.token is not None and result.token not in text
    assert "tablet_paired" in text and "tablets_unpaired" in text
