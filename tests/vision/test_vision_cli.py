"""`pontoon-table vision calibrate` / `read` exactly as the table and acceptance run them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from hardware_sim.camera import make_frame

CLI = [sys.executable, "-m", "controller.cli", "vision"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


def test_calibrate_then_read_json(calibration_dir: Path, builtin_deck, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    profile = tmp_path / "deck.npz"
    done = _run("calibrate", str(calibration_dir), "--out", str(profile))
    assert done.returncode == 0, done.stderr
    # a standard deck: 2 to 10 of four suits print their pips (9 x 4, by hand)
    assert "52 cards learned; 36 print their pips" in done.stdout
    assert profile.stat().st_size < 500_000
    rng = np.random.default_rng(21)
    images = []
    for code in ("AS", "TD", "7H", "QC"):
        p = tmp_path / f"frame-{code}.jpg"
        cv2.imwrite(str(p), make_frame(builtin_deck, code, rng, preset="clean").image)
        images.append((str(p), code))
    out = _run("read", "--profile", str(profile), *[p for p, _ in images], "--json")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [rec["image"] for rec in lines] == [p for p, _ in images]
    for rec, (_, code) in zip(lines, images, strict=True):
        assert set(rec) == {"image", "card", "confidence", "ms", "reason", "detail", "guesses"}
        assert rec["card"] == code
        assert rec["reason"] == "" and rec["guesses"] == []
        assert 0.0 <= rec["confidence"] <= 1.0
        assert 0.0 < rec["ms"] < 5000


def test_read_generic_human_output_and_bad_files(builtin_deck, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "card.png"
    cv2.imwrite(str(good), make_frame(builtin_deck, "KH", np.random.default_rng(22),
                                      preset="clean").image)
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    empty = tmp_path / "table.png"
    cv2.imwrite(str(empty), np.full((480, 640, 3), (30, 90, 40), np.uint8))
    out = _run("read", str(good), str(tmp_path / "missing.png"), str(junk), str(empty))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert "missing.png: no such file" in out.stderr
    assert "junk.png: not an image" in out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"{good}: KH")
    assert lines[-1].startswith(f"{empty}: unsure")
    js = _run("read", str(tmp_path / "missing.png"), "--json")
    assert js.returncode == 2
    rec = json.loads(js.stdout)
    assert rec["card"] is None and rec["confidence"] == 0.0
    assert rec["reason"] == "bad_image" and "no such file" in rec["detail"]


def test_calibrate_refuses_incomplete_folder(calibration_dir: Path, tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    partial.mkdir()
    for p in sorted(calibration_dir.iterdir())[:50]:
        (partial / p.name).write_bytes(p.read_bytes())
    out = _run("calibrate", str(partial), "--out", str(tmp_path / "x.npz"))
    assert out.returncode == 2
    assert "lacks 2 of the 52 cards" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "x.npz").exists()
    missing = _run("calibrate", str(tmp_path / "nowhere"), "--out", str(tmp_path / "y.npz"))
    assert missing.returncode == 2 and "is not a folder" in missing.stderr


def test_read_with_a_file_that_is_not_a_profile(tmp_path: Path) -> None:
    bogus = tmp_path / "p.npz"
    bogus.write_text("hello")
    img = tmp_path / "a.png"
    cv2.imwrite(str(img), np.zeros((10, 10, 3), np.uint8))
    out = _run("read", "--profile", str(bogus), str(img))
    assert out.returncode == 2 and "is not a deck profile" in out.stderr
