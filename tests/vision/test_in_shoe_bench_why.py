"""``benchmarks/in_shoe_bench.py --why`` prints each refused pass's own reason,
so that a held-out read can tell the fusion's refusals apart (the weak
frames', the band's word on a card no frame named, too few witnesses).  The
passes are hand-made: their reasons follow from the fusion's rules
(``test_vision_in_shoe_body_word.py`` and ``test_vision_in_shoe_weak_passes.py``
work the same evidence out)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from vision.cards import CARD_CODES
from vision.in_shoe import BODY_UNHEARD, PASS_MARGIN
from vision.in_shoe_body import NEITHER
from vision.in_shoe_pose import MIDDLE
from vision.reading import Reading

ROOT = Path(__file__).resolve().parents[2]


def _bench(name: str = "in_shoe_bench") -> ModuleType:
    """A benchmark as its own folder imports it (it puts that folder and the
    project's root on ``sys.path`` itself)."""
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))
    return importlib.import_module(name)


def _refused(card: str, runner_up: str) -> Reading:
    """An index frame the recogniser refused, leaning ``card`` by 3 nats over
    ``runner_up`` (every other card -10), its band a picture's."""
    ev = np.full(len(CARD_CODES), -10.0)
    ev[CARD_CODES.index(card)], ev[CARD_CODES.index(runner_up)] = 0.0, -3.0
    return Reading(None, 0.0, "rank ambiguous", evidence=ev, body_seen=True, band=NEITHER)


def test_why_prints_the_reason_of_a_pass_the_band_did_not_vouch_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A J whose refused frames sum to a 7 (four frames an end, both ends: the
    sum's tempered lead 10.62 >= 8 would name 7H) over bands that never show
    side pips: unsure for the body's word, and ``--why`` says so.  A pass the
    fusion names rightly prints nothing."""
    bench = _bench()
    frames = [*[_refused("7H", "JH")] * 4, *[Reading(None, 0.0, MIDDLE)] * 4,
              *[_refused("7H", "JH")] * 4]
    withheld = bench.Pass("font:Courgette", "normal", "JH", "top", frames)
    right = bench.Pass("builtin", "normal", "7H", "top",
                       [Reading("7H", 0.9, "", evidence=f.evidence) if f.evidence is not None
                        else f for f in frames])
    bench.why([withheld, right], PASS_MARGIN)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("    font:Courgette normal JH (top leading): unsure, ")
    assert f"; {BODY_UNHEARD}: 0 of the 8 frames that read an index named 7H" in lines[0]


def test_the_overhead_bench_ties_each_wrong_card_of_the_shipped_rule_to_its_design() -> None:
    """``vision_fuse.py`` counts wrong cards by policy and card alone; the
    twenty-eighth group's read could not say which face named a J a 7.  Its
    new line lists the shipped rule's (any 20) wrong cards with design and
    mode, in a stable order, and says "none" when there are none."""
    from collections import Counter

    bench = _bench("vision_fuse")
    wrong = Counter({("font:Akronim", "generic", "JS", "7S"): 2,
                     ("font:Akronim", "generic", "JC", "7C"): 1,
                     ("font:Metal Mania", "profile", "4H", "9H"): 1})
    assert bench.shipped_wrong_line(wrong) == (
        "wrong cards of any 20, by design: font:Akronim generic JC->7C x1, "
        "font:Akronim generic JS->7S x2, font:Metal Mania profile 4H->9H x1")
    assert bench.shipped_wrong_line(Counter()) == "wrong cards of any 20, by design: none"


def test_outcomes_are_written_pass_by_pass_for_a_comparison(tmp_path: Path) -> None:
    """``--outcomes``: one line per pass with the card the table fuses (the
    refused J above: unsure; the 7H read on every frame: 7H), its shoe in
    its mode, and its place among its design's passes in that shoe, so that
    two passes of one card stay apart when two fusions are compared."""
    import json

    bench = _bench()
    frames = [*[_refused("7H", "JH")] * 4, *[Reading(None, 0.0, MIDDLE)] * 4,
              *[_refused("7H", "JH")] * 4]
    read = [Reading("7H", 0.9, "", evidence=f.evidence) if f.evidence is not None else f
            for f in frames]
    passes = [bench.Pass("font:Courgette", "normal", "JH", "top", frames),
              bench.Pass("builtin", "normal", "7H", "top", read),
              bench.Pass("builtin", "normal", "7H", "bottom", read),
              bench.Pass("builtin", "hard", "7H", "top", read)]
    out = tmp_path / "passes.jsonl"
    bench.write_outcomes(out, passes, 47, "profile")
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["design"], x["mode"], x["code"], x["index"], x["card"]) for x in lines] == [
        ("font:Courgette", "profile normal", "JH", 0, None),
        ("builtin", "profile normal", "7H", 0, "7H"),
        ("builtin", "profile normal", "7H", 1, "7H"),
        ("builtin", "profile hard", "7H", 0, "7H")]
    assert {x["seed"] for x in lines} == {47}
