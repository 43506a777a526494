"""Per-card evidence: what a frame says about each of the 52 cards, and how the
frames of one resting card are fused into one decision.

Voting ("three identical answers in a row") throws away everything a frame
knew short of a sure answer: two frames that each lean clearly to the 7 of
clubs but are not sure count for nothing, and one unsure frame restarts the
count.  Instead every corner of every frame gives a log-likelihood per card
(from the glyph classifier's rank and suit probabilities, the ink colour, and
whether the corner was accepted on its own); the frames' log-likelihoods add
up, and the card is named when its lead over the runner-up is at least
``FUSE_MARGIN`` nats.  The margin was chosen on validation designs only
(``benchmarks/vision_fuse.py``; see ``docs/vision.md``).

Pure NumPy; no project imports beyond ``vision``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES, RANKS, SUITS

FloatArray = npt.NDArray[np.float64]

#: the machine-readable reason of an unsure reading, from its words
CODES: dict[str, str] = {
    "not a colour image": "bad_image",
    "no card in view": "no_card",
    "no index visible": "no_index",
    "the two corners disagree": "corners_disagree",
    "ink colour does not match the suit": "colour",
    "not a standard index (another kind of deck?)": "not_standard",
    "rank ambiguous": "low_confidence",
    "suit ambiguous": "low_confidence",
    "rank unlike any known": "low_confidence",
    "suit unlike any known": "low_confidence",
    "the deck's glyphs and the classifier disagree": "low_confidence",
    "a blurred glyph the classifier reads otherwise": "low_confidence",
    "6 or 9: the index's geometry disagrees with the glyph": "orientation",
    "6 or 9": "orientation",
    "the card's pips disagree with its index": "pips_disagree",
    "the card's pips rule out": "pips_disagree",
    "no court picture where the index says a court": "pips_disagree",
    "a lone pip below the index: a 2 or a 3, not what the index says": "pips_disagree",
    "pips below the index where a court prints its picture": "pips_disagree",
    "few frames named the card and the band did not show it": "pips_disagree",
    "the band showed a court's picture, not the card's top row": "pips_disagree",
    "the card shows a court's picture, not the pips its index says": "pips_disagree",
    "a court's picture withholds": "pips_disagree",
    "the card shows a 4's pips and clean paper where its index's card prints more":
        "pips_disagree",
    "a 4's clean side columns withhold": "pips_disagree",
    "the side pips of a 4 to a 10 below the index, not an ace, a 2 or a 3": "pips_disagree",
    "the side pips of a 4 to a 10 below the index withhold": "pips_disagree",
    "the card's middle showed no pip on its axis": "pips_disagree",
    "frames disagree": "frames_disagree",
    "the frames read another card on their own": "frames_disagree",
    "the deck's templates read another card": "frames_disagree",
    "not sure enough over the frames": "low_confidence",
    "no frame": "no_frame",
    # the in-shoe reader (vision.in_shoe)
    "the window is empty": "no_card",
    "the card's middle: no short edge in view": "middle",
    "the card's edges are unclear": "no_card",
    "an index corner only partly in view": "partial",
    "not sure enough from one frame": "low_confidence",
    "index hard to split (faint or joined marks)": "low_confidence",
    "only weak frames": "low_confidence",
    # the in-shoe camera's pairing (vision.passes)
    "no camera pass for this card-out": "no_pass",
}


def reason_code(reason: str) -> str:
    """The code of an unsure reading's ``reason`` ("" for a read card)."""
    if not reason:
        return ""
    return CODES.get(reason, CODES.get(reason.split(":")[0], "unsure"))


#: floor of a class probability before its logarithm: one glyph that is sure of
#: something else costs a card at most this much evidence, so a single bad
#: corner cannot outvote several good frames
_FLOOR = 1e-3
#: likelihood ratio of ink that does not fit a suit's colour
COLOUR_MISS = 0.05
#: log-likelihood bonus for the card a corner accepted on its own
ACCEPT_BONUS = 2.0
#: a frame's reason when a deck's blurred templates named a card (its
#: ``Reading.guess``) and the generic classifier's best guess was another
#: (``vision.recognizer._blur_checked``)
BLURRED_ALONE = "a blurred glyph the classifier reads otherwise"
#: the fusion's reason when it will not name, from the classifier's evidence
#: alone, a card against the deck's templates (``FrameFusion.template_reads``)
TEMPLATES_READ_ANOTHER = "the deck's templates read another card"
#: frames whose templates must have named another card for that to hold
#: (on development readings, seed 18 of the thirty-fourth pass's sets, two
#: left a right card unsure that three named; docs/vision.md, forty-ninth pass)
TEMPLATE_FRAMES = 3
#: the reason of a card two frames' bodies withheld (``FrameFusion.withholds``)
PICTURE_WITHHELD = "a court's picture withholds"
#: lead in nats over the runner-up card that fused frames need.  Chosen on
#: validation designs only (builtin:modern, builtin:duplex, tango, plastic,
#: anglo; hard preset, 260 cards, ``benchmarks/vision_fuse.py --sweep``): the
#: smallest margin of 4, 8, 12, 20, 30 with no wrong card (12 let one AS
#: through as AC), so the safety margin is one step of that grid.
FUSE_MARGIN = 20.0
#: frames the table reads at most for one card, and at least before deciding
MAX_FRAMES, MIN_FRAMES = 12, 2

#: how much of one frame's evidence the other frames of the same index share
#: (the intra-class correlation of a frame's lead, frames grouped by the index
#: end they show).  Frames of one end see the same print through the same
#: glare, dust and blur, so a classifier's mistake on one repeats on the next:
#: n such frames are worth n / (1 + (n - 1) rho) independent ones, never more
#: than 1 / rho.  Estimated, not tuned: 0.416 over the right passes of the
#: in-shoe validation runs (seeds 18 and 19, normal and hard shoes, generic
#: 0.415 and with deck profiles 0.419), ``benchmarks/weak_pass_stress.py
#: --icc`` (docs/vision.md, "Eighth pass").
FRAME_CORRELATION = 0.42
#: frames whose body must rule a card out for the fusion never to name it (one
#: frame's body can be wrong, as one frame's index can)
VETO_FRAMES = 2
#: the lead over every card, ruled out or not, that the one card the bodies
#: left possible needs (about 150 to 1 on the frames' whole evidence).  The
#: bodies of two frames have ruled out every other card, so the full
#: ``FUSE_MARGIN`` is not asked again; a lead is, because a generic ace's veto
#: (``vision.pips.ACE_VETO``) may be tripped by a court printed with one big
#: sign, and then the index must lean to the ace too (docs/vision.md,
#: "Twenty-third pass")
LONE_MARGIN = 5.0

_RANK_OF = np.array([RANKS.index(c[0]) for c in CARD_CODES])
_SUIT_OF = np.array([SUITS.index(c[1]) for c in CARD_CODES])


def corner_evidence(
    rank_probs: npt.NDArray[np.floating], suit_probs: npt.NDArray[np.floating],
    colour_fits: Sequence[bool], accepted: str | None,
) -> FloatArray:
    """Log-likelihood per card (``CARD_CODES`` order) from one index corner.

    ``rank_probs`` / ``suit_probs``: the classifier's probabilities over
    ``RANKS + "?"`` / ``SUITS + "?"``.  A glyph the classifier calls "not a
    standard index" carries that much less weight: a finger or a smudge says
    little about which card it hides.
    """
    pr = np.asarray(rank_probs, np.float64)
    ps = np.asarray(suit_probs, np.float64)
    wr, ws = 1.0 - pr[-1], 1.0 - ps[-1]
    lr = np.log(np.maximum(pr[:-1] / max(pr[:-1].sum(), 1e-9), _FLOOR)) * wr
    ls = np.log(np.maximum(ps[:-1] / max(ps[:-1].sum(), 1e-9), _FLOOR))
    ls = (ls + np.where(np.asarray(colour_fits, bool), 0.0, np.log(COLOUR_MISS))) * ws
    out: FloatArray = lr[_RANK_OF] + ls[_SUIT_OF]
    if accepted is not None and accepted in CARD_CODES:
        out[CARD_CODES.index(accepted)] += ACCEPT_BONUS
    return out


def tempered(
    sums: Sequence[FloatArray], counts: Sequence[int], rho: float = FRAME_CORRELATION
) -> FloatArray:
    """Evidence of correlated frames: ``sums[k]`` is the summed evidence of the
    ``counts[k]`` frames of run ``k`` (one index end of a pass), and runs are
    independent of one another but frames within a run share a fraction
    ``rho`` of their errors.  Each run's sum is divided by its variance
    inflation ``1 + (n - 1) rho`` (the composite likelihood's usual
    correction: n frames count as ``n / (1 + (n - 1) rho)``), so many weak
    frames of one end leaning the same way cannot add up to a lead that one
    frame alone could not nearly give."""
    if not sums:
        raise ValueError("no evidence to temper")
    out: FloatArray = np.zeros_like(np.asarray(sums[0], np.float64))
    for total, n in zip(sums, counts, strict=True):
        out = out + np.asarray(total, np.float64) / (1.0 + (max(n, 1) - 1) * rho)
    return out


def over_the_possible(
    evidence: FloatArray, ruled: npt.NDArray[np.bool_] | None, needed: float
) -> tuple[FloatArray, float]:
    """The evidence a card's lead is taken over, and the lead it needs, once
    the bodies have ruled cards out (``FrameFusion.ruled_out``): a card ruled
    out is no rival while two or more are left; when one is left, it needs
    ``LONE_MARGIN`` over every card instead (docs/vision.md, twenty-second
    and twenty-third passes).  One rule for every lead the fusion asks for:
    the shoe's weak-frames check takes its lead the same way (twenty-eighth
    pass)."""
    if ruled is None:
        return evidence, needed
    left = int((~ruled).sum())
    if left >= 2:
        return np.where(ruled, -np.inf, evidence), needed
    if left == 1:
        return evidence, min(needed, LONE_MARGIN)
    return evidence, needed


def posterior(evidence: FloatArray) -> FloatArray:
    e = evidence - evidence.max()
    p = np.exp(e)
    out: FloatArray = p / p.sum()
    return out


def top_guesses(evidence: FloatArray | None, k: int = 3) -> tuple[tuple[str, float], ...]:
    """The ``k`` likeliest cards with their probability (rounded), likeliest first."""
    if evidence is None:
        return ()
    p = posterior(evidence)
    order = np.argsort(-p)[:k]
    return tuple((CARD_CODES[i], round(float(p[i]), 3)) for i in order if p[i] >= 0.005)


def margin(evidence: FloatArray) -> tuple[int, float]:
    """The best card's index and its lead in nats over the runner-up."""
    order = np.argsort(evidence)
    return int(order[-1]), float(evidence[order[-1]] - evidence[order[-2]])


def half_turn_twin(card: str) -> str | None:
    """The card a 6 or 9 is seen as upside down, where rank and suit sign turn
    alike (the 9 of a 6, the 6 of a 9, same suit); None for any other rank."""
    twin = {"6": "9", "9": "6"}.get(card[0])
    return None if twin is None else twin + card[1:]


@dataclass
class FusedDecision:
    card: str | None
    confidence: float
    reason: str
    guesses: tuple[tuple[str, float], ...]
    frames: int
    used: int


class _ReadingLike(Protocol):
    @property
    def card(self) -> str | None: ...

    @property
    def reason(self) -> str: ...

    @property
    def evidence(self) -> FloatArray | None: ...

    @property
    def accepted(self) -> tuple[str, ...]: ...


def templates_read_instead(
    template_reads: Counter[str], card: str, *, backed: bool
) -> str | None:
    """The card the deck's templates named most often, when ``card`` leads
    only on the classifier's evidence and the templates stand against it
    (None otherwise): ``card`` not ``backed`` by a frame's own word, no
    frame's templates named it (``template_reads``: per card, the frames
    left unsure as ``BLURRED_ALONE`` with it as their guess), and those of
    at least ``TEMPLATE_FRAMES`` frames named another.

    Under a profile a corner's evidence is the generic classifier's, and on
    a face it was never shown it may lean to one card frame after frame, so
    that the sum leads by far: a Sarina J whose classifier said "not a
    standard index", its evidence among the standard cards a Q, named QC
    from twelve frames whose templates had each said JC (docs/vision.md,
    forty-ninth pass).  The templates alone cannot name a card (blurred,
    doubted); they can keep the classifier from naming another."""
    if backed or template_reads[card] or not template_reads:
        return None
    other, n = max(template_reads.items(), key=lambda kv: (kv[1], kv[0]))
    return other if n >= TEMPLATE_FRAMES else None


@dataclass
class FrameFusion:
    """Adds up the evidence of the frames of one card (:meth:`push` each
    ``Reading``) and decides (:meth:`decide`).

    A card is named only when its summed log-likelihood leads the runner-up's
    by ``margin_nats`` (and, with ``require_accept``, some corner of some frame
    accepted that very card on its own).  A frame whose corners accept another
    card than earlier frames did starts the sum again (the card was swapped).
    A card the bodies of ``VETO_FRAMES`` frames ruled out is never named.
    """

    margin_nats: float = FUSE_MARGIN
    #: frames showing an index before :meth:`ready` may answer early
    min_frames: int = 3
    #: frames showing an index that :meth:`decide` needs at the very end
    min_final: int = MIN_FRAMES
    #: name only a card some corner accepted on its own (off: on the validation
    #: designs it left 2 to 5 points more cards unsure at the same margin and
    #: caught no wrong card the margin did not)
    require_accept: bool = False
    #: of a card no corner of any frame accepted on its own: the share of their
    #: evidence its frames have in common (:func:`tempered`; 0: off, each frame
    #: independent, as the table fuses them).  The shoe's check of a pass of
    #: weak frames (``vision.in_shoe``) for a resting card's frames; tried for
    #: the overhead camera and not shipped: it caught a wrong card on kept-out
    #: decks but left more right ones unsure on validation designs
    #: (``benchmarks/weak_overhead.py``; docs/vision.md, "Fifteenth pass")
    weak_correlation: float = 0.0
    #: the lead such a card needs once its frames count as correlated
    weak_margin: float = FUSE_MARGIN
    total: FloatArray | None = None
    frames: int = 0
    used: int = 0
    accepted: set[str] = field(default_factory=set)
    seen: set[str] = field(default_factory=set)
    reasons: list[str] = field(default_factory=list)
    #: per card, how many frames' bodies ruled it out (``Reading.ruled_out``)
    vetoes: Counter[str] = field(default_factory=Counter)
    #: per card, how many frames' bodies withheld it (``Reading.withheld``):
    #: a card ``VETO_FRAMES`` frames withhold is never named, but stays a rival
    withholds: Counter[str] = field(default_factory=Counter)
    #: per card withheld, what withheld it (``Reading.withheld_why``): the
    #: reason's start when the fusion will not name it
    withheld_why: dict[str, str] = field(default_factory=dict)
    #: per card, the frames left unsure because the deck's blurred templates
    #: named it and the classifier read otherwise (``BLURRED_ALONE``)
    template_reads: Counter[str] = field(default_factory=Counter)
    #: whether a card no frame accepted is kept from being named against
    #: ``template_reads`` (:meth:`_templates_read_instead`).  The in-shoe
    #: fusion (``vision.in_shoe``) turns it off here and asks
    #: :func:`templates_read_instead` itself: there a card is backed by any
    #: frame that chose it, and each frame's acceptance is not kept
    heed_templates: bool = True

    def push_missing(self, reason: str) -> None:
        """A frame that never came (or showed nothing to read)."""
        self.frames += 1
        self.reasons.append(reason)

    def push(self, reading: _ReadingLike) -> None:
        """One frame's reading: its evidence (summed over its corners) is added."""
        evidence = reading.evidence
        accepted = set(reading.accepted) or ({reading.card} if reading.card else set())
        if evidence is None and reading.card is not None and reading.card in CARD_CODES:
            # a reader that gives no evidence (a stand-in): its answer alone counts
            evidence = np.full(len(CARD_CODES), -2 * FUSE_MARGIN)
            evidence[CARD_CODES.index(reading.card)] = 0.0
        if accepted and self.accepted and not accepted & self.accepted:
            # another card: start again from this frame
            self.total, self.used, self.accepted = None, 0, set()
            self.vetoes = Counter()
            self.withholds = Counter()
            self.withheld_why = {}
            self.template_reads = Counter()
        self.vetoes.update(getattr(reading, "ruled_out", ()))
        withheld = getattr(reading, "withheld", ())
        self.withholds.update(withheld)
        why = getattr(reading, "withheld_why", "") or PICTURE_WITHHELD
        self.withheld_why.update(dict.fromkeys(withheld, why))
        self.seen |= accepted
        self.accepted |= accepted
        if reading.card is None:
            self.reasons.append(reading.reason or "unsure")
            guess = getattr(reading, "guess", None)
            if reading.reason == BLURRED_ALONE and guess is not None:
                self.template_reads[guess] += 1
        self.frames += 1
        if evidence is None:
            return
        self.used += 1
        self.total = evidence.copy() if self.total is None else self.total + evidence

    def ruled_out(self) -> npt.NDArray[np.bool_] | None:
        """Per card (``CARD_CODES`` order), whether the bodies of
        ``VETO_FRAMES`` frames ruled it out; None when none is.

        Per frame the body's word is bounded (``vision.pips``): a lead the
        index's frames build may outgrow it.  Over the card's frames it is
        not: what the pips of several frames rule out is not named
        (docs/vision.md, nineteenth pass, fifth change), and it is no rival
        either: the lead a card needs is over the cards still possible
        (twenty-second pass), unless one card or none is left, which then
        needs its lead over every card (``LONE_MARGIN`` for the one card
        left, twenty-third pass).  A 2 whose index leaned to a 9, over two
        frames of a two's pair, is the 2 when it leads every other card."""
        if not self.vetoes:
            return None
        ruled = np.array([self.vetoes[c] >= VETO_FRAMES for c in CARD_CODES])
        return ruled if ruled.any() else None

    def _templates_read_instead(self, card: str) -> str | None:
        """``templates_read_instead`` of this fusion's frames: ``card`` is
        backed when a corner of some frame accepted it."""
        if not self.heed_templates:
            return None
        return templates_read_instead(self.template_reads, card, backed=card in self.accepted)

    def ready(self) -> bool:
        """Whether a card can be named now (enough frames, a clear lead)."""
        return self.used >= self.min_frames and self.decide().card is not None

    def decide(self, *, final: bool = False) -> FusedDecision:
        if self.total is None:
            reason = self.reasons[-1] if self.reasons else "no index visible"
            return FusedDecision(None, 0.0, reason, (), self.frames, 0)
        ruled = self.ruled_out()
        rivals, needed = over_the_possible(self.total, ruled, self.margin_nats)
        best, lead = margin(rivals)
        card = CARD_CODES[best]
        enough = self.used >= (self.min_final if final else 1)
        backed = card in self.accepted or not self.require_accept
        twin = half_turn_twin(card)
        if twin is not None and twin in self.seen:
            # Frames accepted both a 6 and a 9 of one suit: an index printed
            # upright at both ends (``IndexGlyphs.turned_in_place``) reads so,
            # one end each, and which end is which the indices cannot say.
            return FusedDecision(None, 0.0, f"6 or 9: frames accepted both {card} and {twin}",
                                 top_guesses(self.total), self.frames, self.used)
        possible = ruled is None or not ruled[best]
        if enough and lead >= needed and backed and possible:
            if self.withholds[card] >= VETO_FRAMES:
                # (withheld, not ruled out: the card a picture or a 4's
                # side columns withhold stays the leader, so no other card
                # takes its place)
                why = self.withheld_why.get(card, PICTURE_WITHHELD)
                reason = f"{why}: {card} (the bodies of {self.withholds[card]} frames)"
                return FusedDecision(None, 0.0, reason, top_guesses(self.total),
                                     self.frames, self.used)
            other = self._templates_read_instead(card)
            if other is not None:
                reason = (f"{TEMPLATES_READ_ANOTHER}: {other} on {self.template_reads[other]} of "
                          f"the {self.frames} frames, none {card}")
                share = round(self.template_reads[other] / max(self.frames, 1), 3)
                guesses = ((other, share),
                           *((c, p) for c, p in top_guesses(self.total) if c != other))
                return FusedDecision(None, 0.0, reason, guesses[:3], self.frames, self.used)
            if self.weak_correlation > 0 and card not in self.accepted:
                weak = tempered([self.total], [self.used], self.weak_correlation)
                weak_lead = margin(weak)[1]
                if weak_lead < self.weak_margin:
                    reason = (f"only weak frames: {card} leads by {weak_lead:.1f} nats, under "
                              f"{self.weak_margin:g}, once its {self.used} frames count as "
                              "correlated")
                    return FusedDecision(None, 0.0, reason, top_guesses(self.total),
                                         self.frames, self.used)
            conf = float(posterior(self.total / max(self.used, 1))[best])
            return FusedDecision(card, round(conf, 3), "", (), self.frames, self.used)
        leader = CARD_CODES[margin(self.total)[0]]
        if self.vetoes[leader] >= VETO_FRAMES:
            reason = (f"the card's pips rule out: {leader} (the bodies of "
                      f"{self.vetoes[leader]} frames disagree with the index)")
        elif len(self.seen) > 1:
            reason = "frames disagree: " + " or ".join(sorted(self.seen))
        elif self.reasons:
            reason = self.reasons[-1]
        else:
            reason = "not sure enough over the frames"
        return FusedDecision(None, 0.0, reason, top_guesses(self.total), self.frames, self.used)
