"""The forty-ninth pass: the overhead fusion may not name, on the generic
classifier's evidence alone, a card that no corner accepted and no frame's
deck templates named, against frames whose templates named another card
(``FrameFusion._templates_read_instead``).

The frames are hand-made after Sarina's Js with a profile (overhead,
seeds 18 to 21 of the thirty-fourth group's read): every frame unsure with
``BLURRED_ALONE`` (the deck's blurred templates named JC, the classifier
said "not a standard index"), the classifier's evidence among the standard
cards leaning to QC.  Expected values are worked out in each docstring.
"""

from __future__ import annotations

import numpy as np

from vision.cards import CARD_CODES
from vision.evidence import (
    BLURRED_ALONE,
    FUSE_MARGIN,
    TEMPLATE_FRAMES,
    TEMPLATES_READ_ANOTHER,
    FrameFusion,
    FusedDecision,
    reason_code,
)
from vision.reading import Reading


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (FUSE_MARGIN, TEMPLATE_FRAMES) == (20.0, 3)


def _evidence() -> np.ndarray:
    """QC first, JC 3 nats behind, every other card 10 behind."""
    ev = np.full(len(CARD_CODES), -10.0)
    ev[CARD_CODES.index("QC")] = 0.0
    ev[CARD_CODES.index("JC")] = -3.0
    return ev


def _doubted(guess: str = "JC") -> Reading:
    """A frame whose templates named ``guess`` from a blurred template and
    whose classifier read otherwise: unsure, nothing accepted."""
    return Reading(None, 0.0, BLURRED_ALONE, guess=guess, evidence=_evidence())


def _plain() -> Reading:
    """A frame unsure for another reason, naming no card of the templates'."""
    return Reading(None, 0.0, "rank ambiguous", guess="QC", evidence=_evidence())


def _fuse(frames: list[Reading], **kw: bool) -> FusedDecision:
    """The table's loop: answer once ready, else decide after all frames."""
    f = FrameFusion(**kw)
    for r in frames:
        f.push(r)
        if f.ready():
            return f.decide()
    return f.decide(final=True)


def test_a_jack_the_templates_read_is_not_named_a_queen_by_the_classifier() -> None:
    """Twelve doubted frames: QC leads JC by 3 a frame, 36 over twelve.  The
    code before this pass was ready at the seventh frame (lead 7 x 3 = 21 >=
    20) and named QC.  Now no corner accepted QC, no template named it, and
    seven (>= 3) named JC: every frame is read, and the twelve leave the card
    unsure, its reason naming JC and its count, code ``frames_disagree``, JC
    offered first with its share of the frames (12 / 12), then QC."""
    d = _fuse([_doubted() for _ in range(12)])
    assert d.card is None
    assert d.reason == f"{TEMPLATES_READ_ANOTHER}: JC on 12 of the 12 frames, none QC"
    assert reason_code(d.reason) == "frames_disagree"
    assert d.guesses[0] == ("JC", 1.0)
    assert [c for c, _ in d.guesses[:2]] == ["JC", "QC"]


def test_without_the_templates_word_the_sum_names_its_leader() -> None:
    """The same frames with the rule off (the in-shoe fusion keeps it off):
    QC, as before this pass, at the seventh frame."""
    d = _fuse([_doubted() for _ in range(12)], heed_templates=False)
    assert (d.card, d.used) == ("QC", 7)


def test_two_frames_of_the_templates_are_not_enough() -> None:
    """Two doubted frames naming JC among ten unsure for another reason:
    2 < TEMPLATE_FRAMES, so QC is named once it leads by 20 (seventh frame);
    with a third, not."""
    d = _fuse([_doubted(), _doubted(), *(_plain() for _ in range(10))])
    assert (d.card, d.used) == ("QC", 7)
    d = _fuse([_doubted(), _doubted(), _doubted(), *(_plain() for _ in range(9))])
    assert d.card is None and d.reason.startswith(TEMPLATES_READ_ANOTHER)


def test_a_card_a_corner_accepted_is_named() -> None:
    """Three doubted frames naming JC, then frames whose corner accepted QC on
    its own (card QC, evidence as the others', 3 a frame): a corner's own
    word backs QC, so the templates' JC does not hold it back.  Ready at the
    seventh frame (lead 7 x 3 = 21 >= 20)."""
    accepted = Reading("QC", 0.9, evidence=_evidence(), accepted=("QC",))
    d = _fuse([_doubted(), _doubted(), _doubted(), *(accepted for _ in range(9))])
    assert (d.card, d.used) == ("QC", 7)


def test_templates_that_named_the_leader_too_let_it_be_named() -> None:
    """Six doubted frames naming JC and six naming QC: the templates named
    QC as well, so the classifier's lead is not against them alone."""
    frames = [_doubted("JC") if i % 2 else _doubted("QC") for i in range(12)]
    assert _fuse(frames).card == "QC"


def test_the_count_starts_again_with_another_card() -> None:
    """A frame whose corner accepted QC and doubted JC frames of one card,
    then a corner that accepts 5H: the card was swapped (``push`` starts
    the sum again), so the templates' JC belonged to the card gone."""
    ev = np.full(len(CARD_CODES), -10.0)
    ev[CARD_CODES.index("5H")] = 0.0
    five = Reading("5H", 0.9, evidence=ev, accepted=("5H",))
    f = FrameFusion()
    f.push(Reading("QC", 0.9, evidence=_evidence(), accepted=("QC",)))
    for r in [_doubted() for _ in range(3)]:
        f.push(r)
    assert f.template_reads == {"JC": 3}
    f.push(five)
    assert not f.template_reads
