"""The link's drop counters: what a person watching a link is shown.

``LinkCounters.drops()`` is what the dealer's display and the snapshot show
under a link's name (docs/architecture.md: "what the link dropped, by kind,
or sent again"; its keys are pinned by the snapshot schema test), and
``summary()`` is the log line a dealer's technician reads. The expected values
below are written by hand from those documents and docs/protocol.md §3 (a
CRC mismatch is line noise, the other framing faults point at wiring).
"""

from __future__ import annotations

import pytest

from firmware_bridge.link import Link, LinkConfig, LinkCounters
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    CobsError,
    CrcError,
    FrameError,
    Header,
    MsgType,
    OversizedError,
    TruncatedError,
)

DROP_KEYS = [
    "crc_errors", "truncated", "oversized", "bad_cobs",
    "out_of_window", "duplicates", "retransmissions", "bad_bodies",
]


@pytest.mark.parametrize(
    ("error", "field"),
    [(TruncatedError("short"), "truncated"), (OversizedError("long"), "oversized"),
     (CobsError("bad"), "bad_cobs")],
)
def test_each_framing_fault_but_crc_counts_as_a_bad_frame_and_by_its_kind(
    error: FrameError, field: str
) -> None:
    c = LinkCounters()
    c.frame_error(error)
    c.frame_error(error)
    assert getattr(c, field) == 2
    assert c.bad_frames == 2
    assert c.crc_errors == 0
    others = {"truncated", "oversized", "bad_cobs"} - {field}
    assert all(getattr(c, name) == 0 for name in others)


def test_a_crc_mismatch_is_counted_apart_from_the_other_damage() -> None:
    c = LinkCounters()
    for _ in range(3):
        c.frame_error(CrcError("crc"))
    assert (c.crc_errors, c.bad_frames, c.truncated, c.oversized, c.bad_cobs) == (3, 0, 0, 0, 0)


def test_drops_names_every_kind_with_its_count() -> None:
    c = LinkCounters(crc_errors=1, truncated=2, oversized=3, bad_cobs=4, out_of_window=5,
                     duplicates=6, retransmissions=7, bad_bodies=8, frames_sent=99)
    assert c.drops() == dict(zip(DROP_KEYS, range(1, 9), strict=True))
    assert list(c.drops()) == DROP_KEYS  # the order a person reads them in


def test_the_summary_says_when_nothing_was_dropped() -> None:
    assert LinkCounters(frames_sent=10, frames_received=10).summary() == "nothing dropped or resent"


def test_the_summary_lists_only_what_was_dropped_in_words() -> None:
    c = LinkCounters(crc_errors=2, out_of_window=1, retransmissions=4)
    assert c.summary() == "crc errors 2, out of window 1, retransmissions 4"


def test_every_frame_beyond_the_window_is_counted() -> None:
    """docs/protocol.md §5.1: a sequenced frame too far ahead to hold is dropped
    and counted; two of them count two."""
    link = Link(address=1, from_device=False, config=LinkConfig())
    far = Header(1, MsgType.EVENT, 100, 0, FLAG_FROM_DEVICE | FLAG_SEQ)  # 100 ahead of 0
    assert link.on_frame(far, b"x", 0.0) == []
    assert link.on_frame(far, b"x", 0.0) == []
    assert link.counters.out_of_window == 2
    assert link.counters.drops()["out_of_window"] == 2
