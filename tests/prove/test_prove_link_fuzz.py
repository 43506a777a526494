"""The serial decoder and both link ends against hostile bytes (hypothesis + atheris).

The invariants are in ``fuzz/fuzz_link.py`` (one place for both fuzzers); here
hypothesis drives them, and a short atheris run proves the harness still works.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prove_util import ROOT, load_path

from firmware_bridge import host as fb_host
from firmware_bridge import wire

harness = load_path("fuzz/fuzz_link.py")

FUZZ = settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


@FUZZ
@given(st.binary(max_size=2000))
def test_decoder_survives_any_byte_stream(data: bytes) -> None:
    harness.check_decoder(data)


@FUZZ
@given(st.binary(max_size=1500), st.booleans())
def test_host_never_raises_nor_delivers_an_event_twice(data: bytes, structured: bool) -> None:
    harness.check_host(data, structured)


@FUZZ
@given(st.binary(max_size=1500), st.booleans())
def test_device_never_raises_and_only_sends_sound_frames(data: bytes, structured: bool) -> None:
    harness.check_device(data, structured)


def _event_frame(seq: int, ack: int, event_no: int) -> bytes:
    body = wire.Event(event_no, 1000 + event_no, wire.EventKind.CARD_OUT).encode()
    flags = wire.FLAG_SEQ | wire.FLAG_FROM_DEVICE
    return wire.encode_frame(wire.Header(0, wire.MsgType.EVENT, seq, ack, flags), body)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 20)), max_size=60))
def test_forged_events_with_valid_crc_are_never_doubled(records: list[tuple[int, int]]) -> None:
    """A firmware replaying, skipping or inventing event numbers: the host keeps order.

    Gaps must be reported as ``EventsLost`` (never silently accepted); no
    event_no is delivered twice.
    """
    host, dev, now = harness.connected_pair()
    start = host.cursor.event_no if host.cursor else 0
    seq = dev.link.next_seq
    delivered: list[int] = []
    lost_reported = 0
    for seq_delta, event_no in records:
        frame = _event_frame((seq + seq_delta % 3) & 0xFF, host.link.expected, event_no)
        if seq_delta % 3 == 0:
            seq = (seq + 1) & 0xFF
        now += 0.002
        host.receive_bytes(frame, now)
        for event in host.events():
            if isinstance(event, fb_host.CardOut):
                delivered.append(event.event_no)
            elif isinstance(event, fb_host.EventsLost):
                lost_reported += event.last_event_no - event.first_event_no + 1
    assert delivered == sorted(set(delivered)), "an event was delivered twice or out of order"
    if delivered:
        skipped = delivered[-1] - start - len(delivered)
        assert lost_reported == skipped, "a gap in event numbers went unreported"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("true") is None, reason="needs a POSIX userland")
def test_atheris_harness_runs_clean_for_a_few_seconds(tmp_path: os.PathLike[str]) -> None:
    pytest.importorskip("atheris")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "fuzz" / "fuzz_link.py"), "-max_total_time=8",
         "-rss_limit_mb=1024", f"-artifact_prefix={tmp_path}/", "-seed=1"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Done" in proc.stderr and "runs" in proc.stderr
