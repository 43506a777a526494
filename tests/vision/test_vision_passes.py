"""Passes of the in-shoe camera paired with CARD_OUTs (``vision.passes``).

Every timeline is written by hand at 100 frames a second (10 ms apart; a
frame is ``"."`` empty or a letter: the card covering the window) and every
expected pairing is worked out by hand from docs/hardware.md section 2.7:
the newest unpaired pass that ended at most 100 ms before the CARD_OUT (and
not more than 10 ms after it), else None.
"""

from __future__ import annotations

import pytest

from vision.passes import PassTracker


def feed(tracker: PassTracker[str], timeline: str, t0: float = 0.0) -> float:
    """Frame i at ``t0 + i * 0.01`` s; returns the last frame's time."""
    t = t0
    for i, ch in enumerate(timeline):
        t = t0 + i * 0.01
        tracker.add(t, ch != ".", f"{ch}{i}")
    return t


def test_a_pass_is_a_run_of_covered_frames_ended_by_two_empty_ones() -> None:
    """Frames 2-5 covered (one empty frame at 4 does not end it: the tail is 2)."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "..AA.A....")
    (p,) = tr.passes
    assert (round(p.start, 3), round(p.end, 3)) == (0.02, 0.05)
    assert p.frames == ["A2", "A3", "A5"]


def test_card_out_pairs_with_the_pass_that_ended_just_before_it() -> None:
    """Pass A ends at 0.05 s; CARD_OUT at 0.06 s (10 ms later): A."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "..AA.A....")
    p = tr.pair(0.06)
    assert p is not None and p.frames[0] == "A2"
    assert tr.pair(0.06) is None  # paired once only


def test_the_newest_pass_in_the_window_wins_and_older_ones_are_dropped() -> None:
    """A (a card pushed back) ends at 0.02, B at 0.07; CARD_OUT at 0.09: both
    within 100 ms, B is the newest; A is dropped with it."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "AAA..BBB....")
    p = tr.pair(0.09)
    assert p is not None and p.frames == ["B5", "B6", "B7"]
    assert not tr.passes and tr.dropped == 1


def test_a_pass_more_than_100_ms_before_or_after_the_card_out_is_not_its_pass() -> None:
    """A ends at 0.01 s. CARD_OUT at 0.12 (110 ms later): none.  CARD_OUT at
    -0.01 (A ended 20 ms after it, beyond 10 ms of slack): none.  At 0.005
    (5 ms before, within slack): A."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "AA..............")
    assert tr.pair(0.12) is None
    assert tr.pair(-0.01) is None
    p = tr.pair(0.005)
    assert p is not None and p.end == pytest.approx(0.01)


def test_a_later_pass_is_left_for_its_own_card_out() -> None:
    """A ends at 0.02, B at 0.32 (the next card, already past).  A CARD_OUT at
    0.05 takes A; B stays for the CARD_OUT at 0.34."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "AAA" + "." * 27 + "BBB" + "....")
    a = tr.pair(0.05)
    assert a is not None and a.frames[0] == "A0"
    b = tr.pair(0.34)
    assert b is not None and b.frames[0] == "B30"


def test_an_old_resent_card_out_gets_nothing_even_with_a_fresh_pass_near() -> None:
    """A resent CARD_OUT of 2 s ago (t = -2.0) after a reconnection, while pass
    C just went by (ends at 0.03): no reading, and C stays for its own card."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "CCCC...")
    assert tr.pair(-2.0) is None
    assert tr.pair(None) is None  # device time not mapped yet: nothing either
    assert len(tr.passes) == 1


def test_passes_older_than_a_second_are_forgotten() -> None:
    """A ends at 0.01; frames run on to 1.2 s: A is gone (1.19 s old)."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "AA" + "." * 119)
    assert not tr.passes and tr.dropped == 1


def test_settled_waits_for_frames_after_the_card_out_and_for_the_open_pass() -> None:
    """CARD_OUT at 0.03.  After frames to 0.03 only: not settled (nothing after
    it + 10 ms yet).  Frames to 0.05 with A covered from 0.0 to 0.05: A is
    open and began before: not settled.  Two empty frames close it: settled.
    A pass that began after the card-out (0.10) does not hold it back."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "AAAA")
    assert not tr.settled(0.03)
    tr.add(0.04, True, "A4")
    tr.add(0.05, True, "A5")
    assert not tr.settled(0.03)
    tr.add(0.06, False, ".")
    tr.add(0.07, False, ".")
    assert tr.settled(0.03)
    tr.add(0.10, True, "B")
    assert tr.settled(0.03)


def test_a_camera_stall_ends_the_pass_in_progress() -> None:
    """A covered at 0.0-0.02, then nothing until 0.5 s (a stall > 0.25 s):
    A ends at 0.02, and the covered frame at 0.5 starts a new pass."""
    tr: PassTracker[str] = PassTracker()
    feed(tr, "AAA")
    tr.add(0.5, True, "B")
    (a,) = tr.passes
    assert a.end == pytest.approx(0.02)
    tr.add(0.51, False, ".")
    tr.add(0.52, False, ".")
    assert [p.frames for p in tr.passes] == [["A0", "A1", "A2"], ["B"]]
