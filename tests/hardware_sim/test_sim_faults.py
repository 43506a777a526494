"""The byte-stream fault injector and the fault presets."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware_sim.faults import PRESETS, ByteFaults, FaultConfig, FaultCounters, FaultPlan


def test_presets_inject_nothing_some_and_more_in_that_order() -> None:
    """The same traffic and the same card-outs under each preset, with the same
    seeds: ``none`` passes every byte untouched and schedules nothing,
    ``light`` injects every kind of fault, ``heavy`` more of each kind."""
    frames = [bytes([1 + i % 250, 2, 3, 4, 5, 6, 7, 8]) + b"\x00" for i in range(10_000)]
    sent = b"".join(frames)
    seen: dict[str, dict[str, int]] = {}
    for name in ("none", "light", "heavy"):
        line = ByteFaults(PRESETS[name], random.Random(1))
        for i, frame in enumerate(frames):
            line.feed(frame, i * 0.001)
        received = line.take_due(1e9)
        counts = line.counters.as_dict()
        plan = FaultPlan(PRESETS[name], random.Random(2))
        for _ in range(5000):
            for fault in plan.on_card_out(["shoe", "bus"]):
                counts[fault.kind] = counts.get(fault.kind, 0) + 1
        seen[name] = {k: counts.get(k, 0) for k in (
            "bytes_corrupted", "bytes_dropped", "frames_duplicated", "stalls",
            "unplug", "reboot", "blackout")}
        if name == "none":
            assert received == sent
    assert set(PRESETS) == {"none", "light", "heavy"}
    assert not any(seen["none"].values()), seen["none"]
    for kind, light in seen["light"].items():
        assert 0 < light < seen["heavy"][kind], (kind, light, seen["heavy"][kind])


def test_parse_preset_with_overrides_and_clear_errors() -> None:
    cfg = FaultConfig.parse("light,corrupt=0.05,unplug=0")
    assert cfg.corrupt == 0.05 and cfg.unplug == 0 and cfg.drop == PRESETS["light"].drop
    assert FaultConfig.parse("drop=0.1").drop == 0.1
    with pytest.raises(ValueError, match="unknown fault preset 'medium'"):
        FaultConfig.parse("medium")
    with pytest.raises(ValueError, match="unknown fault setting 'bogus'"):
        FaultConfig.parse("light,bogus=1")
    with pytest.raises(ValueError, match="between 0 and 1"):
        FaultConfig.parse("corrupt=2")
    with pytest.raises(ValueError, match="not a number"):
        FaultConfig.parse("corrupt=lots")


@given(st.lists(st.binary(max_size=64), max_size=20))
def test_no_faults_passes_every_byte_in_order_at_once(chunks: list[bytes]) -> None:
    bf = ByteFaults(FaultConfig(), random.Random(1))
    for i, chunk in enumerate(chunks):
        bf.feed(chunk, float(i))
    assert bf.take_due(float(len(chunks))) == b"".join(chunks)
    assert bf.counters.total() == 0


@settings(max_examples=50)
@given(st.lists(st.binary(min_size=1, max_size=40), min_size=1, max_size=30), st.integers(0, 99))
def test_stalls_delay_but_never_reorder(chunks: list[bytes], seed: int) -> None:
    cfg = FaultConfig(delay=0.5, delay_min=0.01, delay_max=0.05)
    bf = ByteFaults(cfg, random.Random(seed))
    out = bytearray()
    now = 0.0
    for chunk in chunks:
        bf.feed(chunk, now)
        out += bf.take_due(now)
        now += 0.001
    due = bf.next_due()
    if bf.counters.stalls:
        assert due is not None and due > 0
    out += bf.take_due(now + 10)
    assert bytes(out) == b"".join(chunks)
    assert bf.next_due() is None


def test_corruption_and_drops_are_counted_and_match_the_output() -> None:
    cfg = FaultConfig(corrupt=0.05, drop=0.02)
    bf = ByteFaults(cfg, random.Random(7))
    data = bytes(random.Random(3).randrange(1, 256) for _ in range(20_000))
    bf.feed(data, 0.0)
    out = bf.take_due(0.0)
    c = bf.counters
    assert len(out) == len(data) - c.bytes_dropped
    assert 200 < c.bytes_dropped < 600  # ~2 % of 20,000
    assert 700 < c.bytes_corrupted < 1300  # ~5 %
    # A corrupted byte differs from the original in exactly one bit: count differences
    # by realigning around drops is messy, so check the no-drop case separately.
    bf2 = ByteFaults(FaultConfig(corrupt=0.05), random.Random(7))
    bf2.feed(data, 0.0)
    out2 = bf2.take_due(0.0)
    flips = [a ^ b for a, b in zip(data, out2, strict=True) if a != b]
    assert len(flips) == bf2.counters.bytes_corrupted
    assert all(bin(f).count("1") == 1 for f in flips)


def test_duplicated_frames_are_whole_frames_right_after_the_original() -> None:
    frames = [bytes([i + 1, i + 2, i + 3]) + b"\x00" for i in range(200)]
    bf = ByteFaults(FaultConfig(duplicate=0.3), random.Random(5))
    for f in frames:  # fed in odd-sized pieces, as a UART reads them
        bf.feed(f[:2], 0.0)
        bf.feed(f[2:], 0.0)
    out = bf.take_due(0.0)
    received = [p + b"\x00" for p in out.split(b"\x00")[:-1]]
    dedup = [f for i, f in enumerate(received) if i == 0 or f != received[i - 1]]
    assert dedup == frames
    assert len(received) - len(frames) == bf.counters.frames_duplicated > 20


def test_clear_forgets_what_was_on_the_wire() -> None:
    bf = ByteFaults(FaultConfig(delay=1.0, delay_min=0.5, delay_max=0.5), random.Random(0))
    bf.feed(b"abc", 0.0)
    assert bf.take_due(0.1) == b""
    bf.clear()
    assert bf.take_due(5.0) == b"" and bf.next_due() is None


def test_fault_plan_schedules_named_faults_at_the_configured_rate() -> None:
    plan = FaultPlan(PRESETS["heavy"], random.Random(11), FaultCounters())
    kinds: dict[str, int] = {}
    for _ in range(5000):
        for fault in plan.on_card_out(["shoe", "bus"]):
            kinds[fault.kind] = kinds.get(fault.kind, 0) + 1
            assert fault.device in {"shoe", "bus", "camera"}
    h = PRESETS["heavy"]
    assert abs(kinds["blackout"] - 5000 * h.blackout) < 5000 * h.blackout * 0.3
    assert abs(kinds["unplug"] - 5000 * h.unplug) < 5000 * h.unplug * 0.4
    assert abs(kinds["reboot"] - 5000 * h.reboot) < 5000 * h.reboot * 0.4
    assert FaultPlan(PRESETS["none"], random.Random(1)).on_card_out(["shoe"]) == []
