"""A German or Swiss deck's bells and acorns over several frames: each frame
is unsure ("not a standard index"), and so should the frames be together.

Before the fix, the ink-colour term of a corner's evidence counted in full
even when the classifier called the suit sign "not a standard index": yellow
bells and brown acorns fit only a four-colour deck's orange diamonds, so
every corner gave the diamonds 3 nats over the other suits, and six frames
of a German 7 of bells fused to 7D (40 of 158 non-standard cards of the
simulator's foreign decks and the tuning designs, six frames each).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from hardware_sim.camera import make_frame
from hardware_sim.cards import LooseFace
from hardware_sim.cards.builtin import nonstandard_cards
from vision.cards import CARD_CODES
from vision.evidence import COLOUR_MISS, FrameFusion, corner_evidence
from vision.recognizer import Recognizer


def test_the_colour_of_a_sign_that_is_no_suit_counts_as_little_as_the_sign() -> None:
    """Hand-worked: rank "7" sure; suit probabilities C .02, D .03, H .02, S .03
    and "not a standard index" .9; the ink fits only diamonds.  The suit's
    weight is 1 - .9 = .1, so 7D leads 7C by
    .1 * (ln(.03/.1) - ln(.02/.1) - ln(.05)) = .1 * (ln 1.5 + ln 20) = 0.340 nats
    (it was .1 * ln 1.5 + ln 20 = 3.036 when colour counted in full)."""
    pr = np.full(14, 0.001)
    pr["A23456789TJQK".index("7")] = 1 - 13 * 0.001
    ps = np.array([0.02, 0.03, 0.02, 0.03, 0.9])
    ev = corner_evidence(pr, ps, [False, True, False, False], None)
    lead = ev[CARD_CODES.index("7D")] - ev[CARD_CODES.index("7C")]
    assert lead == pytest.approx(0.1 * (math.log(1.5) - math.log(COLOUR_MISS)), abs=1e-6)
    assert lead == pytest.approx(0.340, abs=1e-3)


def test_a_plain_suit_sign_still_pays_the_full_colour_penalty() -> None:
    """A clear heart in black ink: suit weight 1, so the colour term is the full
    ln(0.05) = -3.0 nats against the heart, as before."""
    pr = np.full(14, 0.001)
    pr[6] = 1 - 13 * 0.001
    ps = np.array([0.0, 0.0, 1.0, 0.0, 0.0])
    fits = [True, True, False, True]
    ev = corner_evidence(pr, ps, fits, None)
    ev_fit = corner_evidence(pr, ps, [True] * 4, None)
    heart = CARD_CODES.index("7H")
    assert ev[heart] - ev_fit[heart] == pytest.approx(math.log(COLOUR_MISS))


def test_foreign_cards_are_seldom_named_over_several_frames() -> None:
    """Every face of the simulator's German and Swiss decks that must be
    unsure, six frames each (normal and hard in turn), fused as the table
    does.  Before the fix 20 of these 59 were named (every 7-10 and K of
    bells and acorns, as diamonds); now at most 2 may be.  Not none: in about
    one frame in a hundred the classifier takes a blurred bell for a diamond
    outright, and yellow ink may be a four-colour deck's diamond (measured,
    docs/vision.md "Ninth pass"); a deck profile, whose diamonds are red,
    never accepts it."""
    rec = Recognizer()
    named, seen = [], 0
    for deck in ("german", "swiss"):
        rng = np.random.default_rng(3)
        for label, face, must in nonstandard_cards(deck):
            if not must:
                continue
            seen += 1
            fusion = FrameFusion()
            for preset in ("normal", "hard") * 3:
                fusion.push(rec.read(make_frame(LooseFace(face), "AS", rng, preset=preset).image))
            card = fusion.decide(final=True).card
            if card is not None:
                named.append((label, card))
    assert seen == 59
    assert len(named) <= 2, named
