"""The in-shoe reader (``vision.in_shoe``) on frames of the simulated camera
under the shoe's window.  Every expected card is the renderer's input (the
card the pass was planned for), never a reading; expected reasons follow from
where the renderer put the card (its ``offset_mm``), worked out by hand from
``vision.geometry.IN_SHOE``: the window is 50 mm long and the card 88.9 mm,
so with the leading edge 70 mm past the window's entry edge the card covers
the whole window and neither short edge is in view."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.in_shoe import InShoeReader, looks_in_shoe

CLI = [sys.executable, "-m", "controller.cli", "vision"]


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


@pytest.fixture(scope="module")
def renderer() -> InShoeRenderer:
    return InShoeRenderer("builtin", preset="normal", seed=4)


@pytest.mark.parametrize("lead", ["top", "bottom"])
@pytest.mark.parametrize("code", ["QH", "7C", "TD", "AS"])
def test_a_pass_leading_with_either_end_names_its_card(
    reader: InShoeReader, renderer: InShoeRenderer, code: str, lead: str
) -> None:
    rng = np.random.default_rng(len(code) + ord(code[0]) + (lead == "top"))
    plan = renderer.plan(code, rng, lead=lead)
    frames = renderer.render_pass(plan, rng)
    result = reader.read_pass([f.image for f in frames])
    assert result.card == code, result
    assert result.frames == len(frames)
    assert 2 <= result.used < result.frames  # only frames showing an index count
    # a single frame names a card only when sure: never another card
    named = [reader.read(f.image).card for f in frames]
    assert {c for c in named if c is not None} <= {code}


def test_a_frame_of_the_middle_and_the_empty_window_name_nothing(
    reader: InShoeReader, renderer: InShoeRenderer
) -> None:
    rng = np.random.default_rng(3)
    plan = renderer.plan("KS", rng, lead="bottom", rotation_deg=0.0, play_mm=0.0)
    middle = renderer.render(plan, 70.0, 500.0, rng)
    reading = reader.read(middle.image)
    assert reading.card is None and reading.code == "middle", reading.reason
    empty = renderer.empty(rng)
    reading = reader.read(empty.image)
    assert reading.card is None and reading.code == "no_card", reading.reason
    # the leading index only half in the window (its short edge 10 mm past the entry)
    early = renderer.render(plan, 10.0, 500.0, rng)
    reading = reader.read(early.image)
    assert reading.card is None and reading.code in ("partial", "no_card"), reading.reason
    # a pass with no card at all
    nothing = reader.read_pass([renderer.empty(rng).image for _ in range(5)])
    assert nothing.card is None and nothing.code == "no_card" and nothing.used == 0


@pytest.mark.parametrize("design", ["builtin", "builtin:modern"])
def test_six_and_nine_passing_upside_down_are_not_confused(
    reader: InShoeReader, design: str
) -> None:
    """Each 6 and 9 passes leading with either end: its leading index goes by
    upside down, its trailing one upright; no frame and no pass may name the
    other rank."""
    r = InShoeRenderer(design, preset="normal", seed=7)
    rng = np.random.default_rng(8)
    for code in ("6H", "9H", "6S", "9C"):
        other = ("9" if code[0] == "6" else "6") + code[1]
        for lead in ("top", "bottom"):
            frames = [f.image for f in r.render_pass(r.plan(code, rng, lead=lead), rng)]
            result = reader.read_pass(frames)
            assert result.card == code, (code, lead, result)
            assert all(reader.read(f).card != other for f in frames)


def test_an_in_shoe_frame_is_told_from_an_overhead_one(renderer: InShoeRenderer) -> None:
    from hardware_sim.camera import SimCamera

    rng = np.random.default_rng(5)
    shoe = renderer.render_pass(renderer.plan("5D", rng), rng)[10].image
    assert looks_in_shoe(shoe)
    table = SimCamera("builtin", preset="normal", seed=5, mode="overhead")
    table.show("5D")
    frame = table.grab()
    assert frame is not None and not looks_in_shoe(frame)


def test_vision_pass_and_read_cli(renderer: InShoeRenderer, tmp_path: Path) -> None:
    """``vision pass --json`` prints one line of the documented shape;
    ``vision read`` of a frame of the card's middle says why it is null."""
    rng = np.random.default_rng(11)
    plan = renderer.plan("JH", rng, lead="top")
    paths = []
    for k, f in enumerate(renderer.render_pass(plan, rng)):
        p = tmp_path / f"frame-{k:03d}.png"
        cv2.imwrite(str(p), f.image)
        paths.append(str(p))
    done = subprocess.run(
        [*CLI, "pass", *paths, "--json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert set(rec) == {"card", "confidence", "frames", "used", "ms", "reason", "detail", "guesses"}
    assert rec["card"] == "JH" and rec["frames"] == len(paths) and rec["reason"] == ""
    assert 2 <= rec["used"] < len(paths) and 0 < rec["confidence"] <= 1 and rec["ms"] > 0

    middle = tmp_path / "middle.png"
    cv2.imwrite(str(middle), renderer.render(plan, 70.0, 500.0, rng).image)
    for mode in ("in-shoe", "auto"):
        out = subprocess.run(
            [*CLI, "read", "--mode", mode, str(middle), "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        rec = json.loads(out.stdout)
        assert rec["card"] is None and rec["reason"] == "middle"

    # a missing frame is reported, and the pass is still read from the others
    bad = subprocess.run(
        [*CLI, "pass", str(tmp_path / "nope.png"), *paths],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "nope.png" in bad.stderr
    assert bad.stdout.startswith("JH ")
