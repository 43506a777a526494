"""The link's rules one by one, against docs/protocol.md section 5.

``Link`` is sans-I/O, so each test drives one end with chosen times and
hand-made peer frames and reads the frames it writes back (decoded with the
wire module).  Every figure (window 4, 50 ms doubling to 1 s, 6 silent
timeouts, 32 sends, fast retransmission after twice the round trip and at
least 5 ms, delayed acks within 20 ms and at once at window - 1) is the
document's.
"""

from __future__ import annotations

import pytest

from firmware_bridge.link import Link, LinkConfig
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    Frame,
    FrameDecoder,
    Header,
    MsgType,
)

EV = MsgType.EVENT
CMD = MsgType.SET_GATE


def out(link: Link) -> list[Frame]:
    frames = FrameDecoder().feed(link.take_output())
    assert all(isinstance(f, Frame) for f in frames)
    return [f for f in frames if isinstance(f, Frame)]


def seqs(frames: list[Frame]) -> list[int]:
    return [f.header.seq for f in frames if f.header.sequenced]


def host(**config: float) -> Link:
    return Link(address=1, from_device=False, config=LinkConfig(**config))  # type: ignore[arg-type]


def from_device(seq: int = 0, ack: int = 0, mtype: int = EV, sequenced: bool = True) -> Header:
    flags = FLAG_FROM_DEVICE | (FLAG_SEQ if sequenced else 0)
    return Header(1, mtype, seq, ack, flags)


def sent(link: Link, n: int, now: float = 0.0) -> None:
    for i in range(n):
        link.queue(CMD, bytes([i]))
    link.flush(now)


# ----------------------------------------------------------------------------- sending
def test_at_most_four_frames_are_unacknowledged_and_the_rest_wait_in_order() -> None:
    link = host()
    sent(link, 6)
    frames = out(link)
    assert seqs(frames) == [0, 1, 2, 3]
    assert [f.body for f in frames] == [b"\x00", b"\x01", b"\x02", b"\x03"]
    assert all(f.header.flags == FLAG_SEQ for f in frames)  # host side: no device flag
    assert link.in_flight == 6 and not link.idle
    link.on_frame(from_device(ack=2, sequenced=False, mtype=MsgType.ACK), b"", 0.01)
    link.flush(0.01)
    assert seqs(out(link)) == [4, 5]


def test_sequence_numbers_wrap_at_256() -> None:
    link = host()
    link.next_seq = 255
    assert link.queue(CMD, b"") == 255
    assert link.queue(CMD, b"") == 0


def test_every_frame_carries_the_ack_it_owes_and_the_device_flag_on_a_device() -> None:
    dev = Link(address=3, from_device=True)
    dev.on_frame(Header(3, CMD, 0, 0, FLAG_SEQ), b"\x01", 0.0)
    dev.queue(EV, b"x")
    dev.flush(0.0)
    (frame,) = out(dev)
    assert frame.header.address == 3
    assert frame.header.ack == 1
    assert frame.header.flags == FLAG_FROM_DEVICE | FLAG_SEQ
    ctrl = FrameDecoder().feed(dev.control(MsgType.PONG, b"pp"))[0]
    assert isinstance(ctrl, Frame)
    assert ctrl.header.flags == FLAG_FROM_DEVICE and ctrl.header.ack == 1


def test_counters_count_frames_bytes_and_retransmissions() -> None:
    link = host()
    sent(link, 2)
    data = link.take_output()
    assert link.counters.frames_sent == 2
    assert link.counters.bytes_sent == len(data)
    link.tick(0.05)
    assert link.counters.retransmissions == 2
    assert link.counters.frames_sent == 4


# ----------------------------------------------------------------------------- timers
def test_the_timer_resends_the_whole_window_after_50_ms_with_the_original_seqs() -> None:
    link = host()
    sent(link, 3, now=1.0)
    out(link)
    assert link.next_deadline() == 1.05
    link.tick(1.0499)
    assert out(link) == []
    link.tick(1.05)
    assert seqs(out(link)) == [0, 1, 2]


def test_the_timeout_doubles_without_an_answer_up_to_one_second() -> None:
    link = host()
    sent(link, 1, now=0.0)
    now, waits = 0.0, []
    for _ in range(7):
        deadline = link.next_deadline()
        assert deadline is not None
        waits.append(round(deadline - now, 6))
        now = deadline
        link.tick(now)
    assert waits == [0.05, 0.1, 0.2, 0.4, 0.8, 1.0, 1.0]


def test_any_valid_frame_brings_the_timeout_back_to_50_ms() -> None:
    link = host()
    sent(link, 1, now=0.0)
    link.tick(0.05)
    link.tick(0.16)
    assert link.rto() == 0.2
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.16)  # acks nothing
    assert link.rto() == 0.05


def test_six_silent_timeouts_in_a_row_bring_the_link_down() -> None:
    link = host()
    sent(link, 1, now=0.0)
    for i in range(1, 7):
        deadline = link.next_deadline()
        assert deadline is not None
        assert link.failure is None, i
        link.tick(deadline)
    assert link.failure is not None and "6" in link.failure


def test_a_frame_sent_32_times_brings_the_link_down() -> None:
    link = host(max_silent_timeouts=1000, rto_max=0.05)
    sent(link, 1, now=0.0)
    now = 0.0
    for sends in range(2, 33):
        now += 0.05
        link.tick(now)
        # hearing the peer (with a stale ack) keeps the timeouts from adding up
        link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", now)
        assert link.failure is None, sends
    out(link)
    now += 0.05
    link.tick(now)
    assert link.failure is not None and "32" in link.failure
    assert out(link) == []  # no 33rd copy (docs/protocol.md 5.2)


def test_no_deadline_when_nothing_is_unacknowledged_or_owed() -> None:
    link = host()
    assert link.next_deadline() is None
    link.tick(10.0)
    assert out(link) == []


def test_an_ack_acknowledges_every_frame_before_it_and_a_stale_one_nothing() -> None:
    link = host()
    sent(link, 4, now=0.0)
    out(link)
    link.on_frame(from_device(ack=7, sequenced=False, mtype=MsgType.ACK), b"", 0.001)  # stale
    assert link.in_flight == 4
    link.on_frame(from_device(ack=0, sequenced=False, mtype=MsgType.ACK), b"", 0.001)  # stale
    assert link.in_flight == 4
    link.on_frame(from_device(ack=3, sequenced=False, mtype=MsgType.ACK), b"", 0.002)
    assert link.in_flight == 1
    link.tick(0.0499)
    assert out(link) == []
    link.tick(0.05)
    assert seqs(out(link)) == [3]  # only what is still unacknowledged
    link.on_frame(from_device(ack=4, sequenced=False, mtype=MsgType.ACK), b"", 0.06)
    assert link.idle


def test_round_trip_samples_come_only_from_frames_sent_once() -> None:
    """Karn's rule: an ack for a resent frame says nothing about the round trip."""
    link = host()
    sent(link, 1, now=0.0)
    link.on_frame(from_device(ack=1, sequenced=False, mtype=MsgType.ACK), b"", 0.01)
    assert link.counters.rtt_last == 0.01
    link.queue(CMD, b"")
    link.flush(1.0)
    link.tick(1.05)
    link.on_frame(from_device(ack=2, sequenced=False, mtype=MsgType.ACK), b"", 1.06)
    assert link.counters.rtt_last == 0.01


# ----------------------------------------------------------------------------- fast retransmit
def test_a_peer_frame_that_still_misses_the_oldest_resends_only_it_after_two_round_trips() -> None:
    link = host()
    link.counters.note_rtt(0.004)  # a measured round trip of 4 ms
    sent(link, 3, now=0.0)
    out(link)
    # 7 ms later (< 2 x 4 ms): not yet
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.007)
    assert out(link) == []
    # 9 ms later (> 2 x 4 ms and > 5 ms): the oldest goes again, alone
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.009)
    assert seqs(out(link)) == [0]
    assert link.counters.retransmissions == 1


def test_fast_retransmission_waits_at_least_5_ms() -> None:
    link = host()
    link.counters.note_rtt(0.001)
    sent(link, 1, now=0.0)
    out(link)
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.0049)
    assert out(link) == []
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.0051)
    assert seqs(out(link)) == [0]


def test_without_a_round_trip_sample_fast_retransmission_uses_the_50_ms_timeout() -> None:
    link = host()
    sent(link, 1, now=0.0)
    out(link)
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.09)
    assert out(link) == []
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.11)
    assert seqs(out(link)) == [0]


def test_a_frame_that_acknowledges_something_triggers_no_fast_retransmission() -> None:
    link = host()
    sent(link, 2, now=0.0)
    out(link)
    link.on_frame(from_device(ack=1, mtype=MsgType.ACK, sequenced=False), b"", 0.2)
    assert out(link) == []


# ----------------------------------------------------------------------------- acks owed
def test_an_owed_ack_goes_at_once_without_a_delay() -> None:
    link = host()
    link.on_frame(from_device(seq=0), b"e", 0.0)
    assert link.ack_owed
    link.flush(0.0)
    (ack,) = out(link)
    assert ack.header.type == MsgType.ACK and ack.header.ack == 1
    assert not ack.header.sequenced
    assert not link.ack_owed


def test_a_delayed_ack_waits_20_ms_for_a_frame_to_carry_it() -> None:
    link = host(ack_delay=0.02)
    link.on_frame(from_device(seq=0), b"e", 1.0)
    assert link.next_deadline() == 1.02
    link.flush(1.0199)
    assert out(link) == []
    link.flush(1.02)
    (ack,) = out(link)
    assert ack.header.type == MsgType.ACK and ack.header.ack == 1


def test_a_delayed_ack_is_carried_by_our_own_frame_instead() -> None:
    link = host(ack_delay=0.02)
    link.on_frame(from_device(seq=0), b"e", 1.0)
    link.queue(CMD, b"")
    link.flush(1.001)
    (frame,) = out(link)
    assert frame.header.type == CMD and frame.header.ack == 1
    assert link.next_deadline() == 1.051  # only our frame's timer is left
    link.flush(1.03)
    assert out(link) == []


def test_the_ack_goes_at_once_when_window_minus_one_frames_wait_for_it() -> None:
    link = host(ack_delay=0.02)
    link.on_frame(from_device(seq=0), b"a", 1.0)
    link.on_frame(from_device(seq=1), b"b", 1.001)
    link.flush(1.002)
    assert out(link) == []
    link.on_frame(from_device(seq=2), b"c", 1.002)
    link.flush(1.003)
    (ack,) = out(link)
    assert ack.header.ack == 3
    # the delay counts from the oldest frame owed an ack
    link.on_frame(from_device(seq=3), b"d", 1.004)
    link.on_frame(from_device(seq=4), b"e", 1.010)
    assert link.next_deadline() == 1.024


# ----------------------------------------------------------------------------- receiving
def test_frames_are_delivered_in_sequence_and_held_back_up_to_window_minus_one() -> None:
    link = host()
    assert link.on_frame(from_device(seq=1), b"1", 0.0) == []
    assert link.on_frame(from_device(seq=3), b"3", 0.0) == []
    assert link.on_frame(from_device(seq=4), b"4", 0.0) == []  # 4 ahead: dropped
    assert link.counters.out_of_order == 2  # 1 and 3: held back
    assert link.counters.out_of_window == 1  # 4: beyond the window, dropped and counted
    assert link.on_frame(from_device(seq=1), b"1", 0.0) == []  # held already
    assert link.counters.duplicates == 1
    got = link.on_frame(from_device(seq=0), b"0", 0.0)
    assert [b for _, b in got] == [b"0", b"1"]
    assert link.expected == 2
    got = link.on_frame(from_device(seq=2), b"2", 0.0)
    assert [b for _, b in got] == [b"2", b"3"]
    assert link.expected == 4


def test_a_duplicate_behind_expected_is_dropped_and_counted() -> None:
    link = host()
    link.on_frame(from_device(seq=0), b"0", 0.0)
    assert link.on_frame(from_device(seq=0), b"0", 0.0) == []
    assert link.counters.duplicates == 1
    link.expected = 200
    assert link.on_frame(from_device(seq=72), b"", 0.0) == []  # 128 behind
    assert link.counters.duplicates == 2
    assert link.on_frame(from_device(seq=71), b"", 0.0) == []  # 129 behind: too far ahead
    assert link.counters.out_of_window == 1 and link.counters.out_of_order == 0


def test_unsequenced_frames_are_delivered_as_they_come_and_owe_no_ack() -> None:
    link = host()
    h = from_device(seq=9, mtype=MsgType.PONG, sequenced=False)
    assert link.on_frame(h, b"p", 0.0) == [(h, b"p")]
    assert not link.ack_owed
    assert link.counters.frames_received == 1


def test_reset_starts_a_new_session() -> None:
    link = host()
    sent(link, 6)
    link.on_frame(from_device(seq=1), b"old", 0.0)  # held back, waiting for 0
    link.failure = "gone"
    link.reset()
    assert link.idle and link.next_seq == 0 and link.expected == 0
    assert not link.ack_owed and link.failure is None
    # the frame held in the old session is not delivered in the new one
    assert [b for _, b in link.on_frame(from_device(seq=0), b"0", 0.0)] == [b"0"]


# ----------------------------------------------------------------------------- polled
def test_polled_mode_sends_one_frame_per_turn_and_repeats_it_until_acknowledged() -> None:
    link = Link(address=2, from_device=False, polled=True)
    assert link.window == 1
    link.queue(CMD, b"a")
    link.queue(CMD, b"b")
    link.flush(0.0)
    assert seqs(out(link)) == [0]  # the window is 1
    turn = FrameDecoder().feed(link.turn_frame(0.1, MsgType.PING))
    assert [f.header.seq for f in turn if isinstance(f, Frame)] == [0]  # again
    assert link.counters.retransmissions == 1
    link.on_frame(Header(2, MsgType.ACK, 0, 1, FLAG_FROM_DEVICE), b"", 0.2)
    (nxt,) = FrameDecoder().feed(link.turn_frame(0.3, MsgType.PING))
    assert isinstance(nxt, Frame) and nxt.header.seq == 1 and nxt.body == b"b"
    link.on_frame(Header(2, MsgType.ACK, 0, 2, FLAG_FROM_DEVICE), b"", 0.4)
    (idle,) = FrameDecoder().feed(link.turn_frame(0.5, MsgType.PING, b"\x01\x00"))
    assert isinstance(idle, Frame)
    assert idle.header.type == MsgType.PING and not idle.header.sequenced
    assert idle.body == b"\x01\x00"


def test_polled_mode_has_no_timer_and_no_fast_retransmission() -> None:
    link = Link(address=2, from_device=False, polled=True)
    link.queue(CMD, b"a")
    link.turn_frame(0.0, MsgType.PING)
    assert link.next_deadline() is None
    link.tick(5.0)
    link.on_frame(Header(2, MsgType.PONG, 0, 0, FLAG_FROM_DEVICE), b"", 5.0)
    assert link.take_output() == b""


# ----------------------------------------------------------------------------- details
def test_ack_and_idle_frames_have_an_empty_body() -> None:
    """Section 3: ACK and NO_SESSION bodies are empty."""
    link = host()
    (ack,) = FrameDecoder().feed(link.control(MsgType.ACK))
    assert isinstance(ack, Frame) and ack.body == b""
    link.send_control(MsgType.NO_SESSION)
    (frame,) = out(link)
    assert frame.header.type == MsgType.NO_SESSION and frame.body == b""
    polled = Link(address=2, from_device=True, polled=True)
    (idle,) = FrameDecoder().feed(polled.turn_frame(0.0, MsgType.ACK))
    assert isinstance(idle, Frame) and idle.body == b""


def test_round_trip_figures_last_max_and_the_smoothed_average() -> None:
    """The smoothed round trip weighs each new sample 1/8 (TCP's SRTT, RFC 6298)."""
    link = host()
    sent(link, 1, now=1.0)
    link.on_frame(from_device(ack=1, sequenced=False, mtype=MsgType.ACK), b"", 1.008)
    assert link.counters.rtt_last == pytest.approx(0.008)
    assert link.counters.rtt_avg == pytest.approx(0.008)
    sent(link, 1, now=2.0)
    link.on_frame(from_device(ack=2, sequenced=False, mtype=MsgType.ACK), b"", 2.016)
    assert link.counters.rtt_last == pytest.approx(0.016)
    assert link.counters.rtt_avg == pytest.approx(0.009)  # 7/8 x 8 ms + 1/8 x 16 ms
    assert link.counters.rtt_max == pytest.approx(0.016)
    figures = link.counters.as_dict()
    assert figures["frames_received"] == 2 and figures["rtt_max"] == pytest.approx(0.016)
    assert all(isinstance(v, int | float) for v in figures.values())


def test_fast_retransmission_needs_more_than_twice_the_round_trip() -> None:
    link = host()
    link.counters.note_rtt(0.004)
    sent(link, 1, now=0.0)
    out(link)
    link.on_frame(from_device(mtype=MsgType.PONG, sequenced=False), b"", 0.008)  # exactly 2x
    assert out(link) == []


def test_an_ack_for_part_of_the_window_is_no_reason_to_resend_the_rest() -> None:
    link = host()
    link.counters.note_rtt(0.001)
    sent(link, 2, now=0.0)
    out(link)
    link.on_frame(from_device(ack=1, mtype=MsgType.ACK, sequenced=False), b"", 0.03)
    assert out(link) == []  # frame 1 is not known lost: the peer just acknowledged 0
    assert link.in_flight == 1


def _worn() -> Link:
    """A link after two timeouts and two frames owed an ack, then reset."""
    link = host(ack_delay=0.02)
    sent(link, 1, now=0.0)
    link.tick(0.05)
    link.tick(0.15)
    link.on_frame(from_device(seq=0), b"a", 0.16)
    link.on_frame(from_device(seq=1), b"b", 0.161)
    link.reset()
    link.take_output()
    return link


def test_after_a_reset_the_timer_starts_at_50_ms_again() -> None:
    link = _worn()
    sent(link, 1, now=1.0)
    assert link.next_deadline() == pytest.approx(1.05)


def test_after_a_reset_the_ack_count_starts_afresh() -> None:
    link = _worn()
    link.on_frame(from_device(seq=0), b"a", 1.001)
    link.on_frame(from_device(seq=1), b"b", 1.002)
    link.flush(1.003)
    assert out(link) == []  # 2 owed in this session: the ack may still wait


def test_every_duplicate_and_every_frame_is_counted() -> None:
    link = host()
    link.on_frame(from_device(seq=2), b"", 0.0)
    link.on_frame(from_device(seq=2), b"", 0.0)
    link.on_frame(from_device(seq=2), b"", 0.0)
    assert link.counters.duplicates == 2
    assert link.counters.frames_received == 3
