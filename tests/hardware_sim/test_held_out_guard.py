"""The card benchmarks refuse a held-out design named through ``--designs``.

A held-out group is read once, whole, with its own flag; a design of it slipped
into ``--designs`` (or printed small by ``lowres:``) would be a second look that
nobody counts.  The expected groups below are written by hand from the group
lists in ``benchmarks/vision_split.py`` and their packages' prefixes."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _split() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "vision_split", ROOT / "benchmarks" / "vision_split.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_split"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("design", "flag"), [
    ("anglo_poker", "--held-out"),
    ("atlasnye_skat", "--held-out"),        # a negative of the first group
    ("builtin:four_color", "--held-out"),
    ("font:P052", "--fresh"),
    ("font:Manrope/bold", "--typefaces"),
    ("font:OSP-DIN", "--typefaces2"),
    ("font:Charis SIL/bold", "--typefaces2"),
    ("font:Junction", "--typefaces3"),
    ("font:Roadgeek 2014 Series C", "--typefaces3"),
    ("font:Irianis ADF Std/bold", "--typefaces4"),
    ("font:BetecknaGSCondensed/bold", "--typefaces4"),
    ("font:Goudy Bookletter 1911", "--typefaces5"),
    ("font:mononoki/bold", "--typefaces5"),
    ("font:OCR B", "--typefaces6"),
    ("font:Humor Sans", "--typefaces6"),
    ("font:Oldania ADF Std", "--typefaces6"),   # another weight of a group's face
    ("font:Dustismo Roman", "--typefaces7"),
    ("font:Delphine", "--typefaces8"),
    ("font:Hermit", "--typefaces8"),          # the group's Hermit is bold
    ("font:Arapey", "--typefaces9"),
    ("font:NanumGothic", "--typefaces9"),     # the group's NanumGothic is bold
    ("font:Baekmuk Batang", "--typefaces10"),
    ("font:Manjari", "--typefaces10"),        # the group's Manjari is bold
    ("font:Dyuthi", "--typefaces11"),
    ("font:Klee One", "--typefaces11"),       # the group's Klee One is bold
    ("font:Konatu", "--typefaces12"),
    ("font:Kinnari", "--typefaces12"),        # the group's Kinnari is bold
    ("font:Havana", "--typefaces13"),
    ("font:Stick", "--typefaces13"),
    ("font:Aegean", "--typefaces14"),
    ("font:Jekyll BRK", "--typefaces14"),
    ("font:Purisa", "--typefaces15"),
    ("font:Gidugu", "--typefaces15"),
    ("font:Unifont", "--typefaces16"),
    ("font:Because We Build", "--typefaces16"),
    ("font:Cinzel", "--typefaces17"),
    ("font:Amatic SC", "--typefaces17"),
    ("font:Press Start 2P", "--typefaces18"),
    ("font:Lora", "--typefaces18"),
    ("font:Uncial Antiqua", "--typefaces19"),
    ("font:Syncopate", "--typefaces19"),
    ("font:Righteous", "--typefaces20"),
    ("font:Unbounded", "--typefaces20"),
    ("font:Courgette", "--typefaces21"),
    ("font:Instrument Serif", "--typefaces21"),
    ("font:Henny Penny", "--typefaces22"),
    ("font:Hachi Maru Pop", "--typefaces22"),
    ("font:Reenie Beanie", "--typefaces23"),
    ("font:Akronim", "--typefaces23"),
    ("font:Chango", "--typefaces24"),
    ("font:Homemade Apple", "--typefaces24"),
    ("font:Anton", "--typefaces25"),
    ("font:VT323", "--typefaces25"),
    ("font:Syne", "--typefaces26"),
    ("font:Bakbak One", "--typefaces26"),
    ("font:Bricolage Grotesque", "--typefaces27"),
    ("font:Kings", "--typefaces27"),
    ("font:Playball", "--typefaces28"),
    ("font:Modak", "--typefaces28"),
    ("font:Bowlby One", "--typefaces29"),
    ("font:Merienda", "--typefaces29"),
    ("font:Ultra", "--typefaces30"),
    ("font:Racing Sans One", "--typefaces30"),
    ("font:Niconne", "--typefaces31"),
    ("font:Nerko One", "--typefaces31"),
    ("font:Jim Nightshade", "--typefaces32"),
    ("font:Flavors", "--typefaces32"),
    ("font:Italiana", "--typefaces33"),
    ("font:Ruslan Display", "--typefaces33"),
    ("font:IBM 3270", "--typefaces7"),
    ("font:Dustismo Roman/bold", "--typefaces7"),
    ("kde:penguins", "--kde"),
    ("kde:oxygen", "--kde"),                # left out of the group, but KDE's package
    ("npm:cardsjs", "--npm"),
    ("deb:pokerth-800x480", "--bitmap"),    # catalogued beside the group, same package
    ("pypi:kenney", "--bitmap"),
    ("lowres:deb:pokerth:48:linear", "--bitmap"),
    ("lowres:anglo_poker:60", "--held-out"),
    ("tango", None),
    ("builtin:duplex", None),
    ("lowres:tango:48", None),
    ("font:Bebas Neue", None),              # kept out of training, read like validation
    ("font:DejaVu Sans", None),
])
def test_each_design_is_placed_in_its_group(design: str, flag: str | None) -> None:
    assert _split().held_out_flag(design) == flag


@pytest.mark.parametrize("bench", ["in_shoe_bench.py", "vision_fuse.py"])
def test_a_benchmark_stops_before_reading_a_held_out_design(bench: str) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / bench), "--designs",
         "tango,kde:penguins,anglo_poker", "--dry-run"],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2
    assert "kde:penguins (--kde)" in run.stderr
    assert "anglo_poker (--held-out)" in run.stderr
    assert "designs:" not in run.stdout  # stopped before listing, let alone reading


def test_read_groups_lets_through_a_read_group_only() -> None:
    """``--read-groups`` lets a group already read (the eleventh, read and
    reported on 2026-12-05) be named as development data; every group not in
    ``READ_GROUPS`` (KDE's decks here) is still refused."""
    base = [sys.executable, str(ROOT / "benchmarks" / "vision_fuse.py"), "--read-groups",
            "--dry-run", "--designs"]
    read = subprocess.run([*base, "tango,font:Oldania ADF Std/bold"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert read.returncode == 0, read.stderr
    unread = subprocess.run([*base, "tango,font:Oldania ADF Std/bold,kde:penguins"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert unread.returncode == 2
    assert "kde:penguins (--kde)" in unread.stderr
    assert "Oldania" not in unread.stderr
    plain = subprocess.run([*base[:2], "--dry-run", "--designs", "font:Oldania ADF Std/bold"],
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert plain.returncode == 2 and "(--typefaces6)" in plain.stderr


def test_validation_designs_pass_the_guard() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "in_shoe_bench.py"), "--designs",
         "tango,builtin:duplex", "--dry-run"],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "designs: tango, builtin:duplex" in run.stdout


@pytest.mark.parametrize(("bench", "design", "named"), [
    ("vision_bench.py", "anglo_poker", "anglo_poker (--held-out)"),
    ("vision_six_nine.py", "turned6:four_color", "builtin:four_color (--held-out)"),
])
def test_the_single_frame_benches_refuse_a_held_out_design(
        bench: str, design: str, named: str) -> None:
    """These two read the old held-out group by default before the split; now a
    held-out design comes only through their ``--held-out`` flag.  A ``turned6:``
    deck is a built-in style with its 6 redrawn, so it is the style's group."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / bench), "--designs", f"tango,{design}",
         "--frames", "1"],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2
    assert named in run.stderr
    assert run.stdout == ""  # stopped before reading anything


def test_every_later_group_is_a_flag_of_both_camera_benches() -> None:
    """Both benches take their group flags from one table; each names the group
    the guard knows (KDE's non-standard faces are read only by ``--negatives``)."""
    split = _split()
    assert set(split.GROUP_FLAGS) == set(split.HELD_OUT_GROUPS) - {"--held-out"}
    for flag, (designs, _) in split.GROUP_FLAGS.items():
        assert set(designs) <= set(split.HELD_OUT_GROUPS[flag]), flag
    for bench in ("in_shoe_bench.py", "vision_fuse.py"):
        run = subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / bench), "--npm", "--typefaces2"],
            capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert run.returncode == 2 and "not allowed with argument" in run.stderr, bench


def test_the_profile_evidence_replay_refuses_a_held_out_design() -> None:
    """``profile_evidence.py`` reads kept-out and training decks only: a group's
    design on its ``--designs`` stops it before any deck is drawn."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "profile_evidence.py"), "--designs",
         "tango,font:Cardo/bold"],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2
    assert "font:Cardo/bold (--typefaces3)" in run.stderr
    assert run.stdout == ""


def test_the_weak_frame_replay_refuses_readings_of_a_held_out_design(tmp_path: Path) -> None:
    """``weak_overhead.py`` replays cached readings of validation and kept-out
    decks only: a cache holding a group's design (here one record with no
    frames, as ``vision_fuse.py --cache`` writes them) stops it unread."""
    import pickle

    cache = tmp_path / "readings.pkl"
    record = {"design": "font:Yrsa/bold", "seed": 18, "preset": "hard", "mode": "generic",
              "code": "AS", "frames": []}
    cache.write_bytes(pickle.dumps([record]))
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "weak_overhead.py"), str(cache)],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2
    assert "font:Yrsa/bold (--typefaces3)" in run.stderr
    assert run.stdout == ""
