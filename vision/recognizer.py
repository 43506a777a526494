"""From one camera frame to a card code with a confidence, or "unsure".

A wrong read corrupts a game while an "unsure" only costs the dealer a glance
at the display, so every step may abstain: no card outline, no index in either
corner, a best match that is not clearly better than the runner-up, two corners
that disagree, or an ink colour that does not fit the suit.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.body_likeness import rule_out_other_kinds
from vision.cards import CARD_CODES, FOREIGN, SUITS
from vision.detect import Quad, find_card
from vision.empty_places import (
    paper_view,
    rule_out_by_empty_places,
    rule_out_three_by_empty_middle,
    withhold_by_clean_side_columns,
)
from vision.evidence import ACCEPT_BONUS, BLURRED_ALONE, corner_evidence, top_guesses
from vision.glyph_model import GlyphModel, features_of, glyph_model
from vision.index import (
    IndexGlyphs,
    card_corners,
    corner_patches,
    loop_height,
    read_other_way,
    read_patch,
)
from vision.pips import (
    index_box_in_card,
    read_body,
    rule_out_by_layout,
    rule_out_pip_cards,
)
from vision.profile import (
    RANK_CLASSES,
    SUIT_CLASSES,
    DeckProfile,
    load_profile,
)
from vision.reading import PIPS_DISAGREE as PIPS_DISAGREE
from vision.reading import Reading as Reading
from vision.reading import with_body as with_body

#: Redness (red minus the larger of green and blue, relative to the paper) of
#: ink that is certainly red / certainly black.
RED_INK, BLACK_INK = 0.22, 0.12
#: How far blue (green) must stand above the other channels for a four-colour
#: deck's blue diamonds (green clubs).
FOUR_COLOUR_INK = 0.12
#: Red minus blue of orange or yellow ink (a German four-colour deck's diamonds).
WARM_INK = 0.3
#: With a deck profile: learned suit inks closer than this are one colour, and a
#: corner's ink must be at most this share of the distance to another colour's
#: ink as far from its own suit's.
SAME_INK, INK_MARGIN = 0.15, 0.7
#: Without a profile, a corner whose rank and suit both have at least this
#: probability (and the right ink) is read alone: the second corner costs as
#: much again, and on the tuning designs it vetoed more right reads than it
#: caught wrong ones (none).  With a profile, a corner is that sure when
#: templates and classifier both accept the same card.
#: The thresholds of this module and of ``vision.index`` were chosen on tuning
#: designs only by ``benchmarks/vision_tune.py`` (see ``docs/vision.md``).
SURE_PROB = 0.9
#: ranks that, turned half a turn, are another rank: a sure one does not end
#: the reading early (see ``Recognizer.decide``)
TURNS_INTO_ANOTHER = "69"
#: the share of its evidence a corner found only by a last try
#: (``IndexGlyphs.last_try``) adds to a frame's: such a split is a guess that
#: named two stress-deck cards wrong once trusted like any index (docs/vision.md,
#: twelfth pass), so it is half a witness.  Fixed at 0.5 before any
#: measurement, not tuned (docs/vision.md, thirteenth pass).
LAST_TRY_WEIGHT = 0.5
#: the reason of a frame whose only readable corners came from a last try: it
#: names no card by itself, however sure its glyphs look; fused frames may
LAST_TRY_ONLY = "index hard to split (faint or joined marks): not sure enough from one frame"


#: per suit: each learned ink's chroma, and whether it is of the suit's colour group
_InkTable = dict[str, list[tuple[tuple[float, float, float], bool]]]


@dataclass(frozen=True)
class _CornerVote:
    card: str
    confidence: float
    problem: str  # "" when the corner alone would be accepted
    #: so clear that the other corner need not be read (see ``SURE_PROB``)
    sure: bool = False
    #: log-likelihood per card from the classifier (``vision.evidence``)
    evidence: npt.NDArray[np.float64] | None = field(default=None, compare=False, repr=False)
    #: a deck profile's match: "r" when its rank, "s" when its suit, was won by
    #: a template read from a blurred face (``vision.blurred``)
    blurred: str = field(default="", compare=False)


def _best(scores: npt.NDArray[np.float32]) -> tuple[int, float, float]:
    """Best class, its score, and the distance ratio to the runner-up."""
    order = np.argsort(scores)
    best, second = int(order[-1]), int(order[-2])
    d1 = max(1.0 - float(scores[best]), 1e-4)
    d2 = max(1.0 - float(scores[second]), 1e-4)
    return best, float(scores[best]), d1 / d2


def _contradicts(other: _CornerVote, card: str) -> bool:
    """Whether a corner that was not accepted still speaks against ``card``.

    One naming another card does, and so does an unknown suit sign under a
    known rank (a Swiss or German deck).  An unknown mark where the rank should
    be, over the right suit, or nothing recognised at all, does not: that is
    what a finger over the corner looks like once the lighting correction has
    turned skin texture into "ink".
    """
    if other.card == card or other.confidence <= 0.25:
        return False
    rank, suit = other.card[0], other.card[1]
    if rank == FOREIGN:
        return suit not in (FOREIGN, card[1])
    return True


class Recognizer:
    """Reads one card per frame.  ``profile``: a DeckProfile, a path to one, or
    None for a deck without one: then the generic glyph classifier shipped with
    the package (``vision.glyph_model``) reads the index."""

    def __init__(
        self, profile: DeckProfile | str | Path | None = None, *, body: bool = True
    ) -> None:
        if profile is not None and not isinstance(profile, DeckProfile):
            profile = load_profile(profile)
        self.profile: DeckProfile | None = profile
        # The classifier reads in both modes: alone without a profile, and as a
        # second opinion beside the deck's own templates with one - there
        # without the convolutional networks, which help only where the
        # typeface is unknown (docs/vision.md, seventeenth pass).
        model = glyph_model()
        self.model: GlyphModel = model.perceptrons() if profile is not None else model
        # With the output layers calibration fitted to the deck (``vision.adapt``,
        # when fitted on this model), the classifier's *evidence* for fusing
        # frames is the deck's own; its vote stays the shipped layers', a
        # witness apart from the deck's templates (fitted to the same glyphs,
        # the two agreed on wrong cards: docs/vision.md, sixteenth pass).
        head = profile.head if profile is not None else None
        self._own: GlyphModel | None = (
            head.on(self.model) if head is not None and head.fits(self.model) else None)
        #: read the card's body (its pips) as a second witness (``vision.pips``);
        #: off only to measure what it adds
        self.body = body
        # Derived from the profile's learned ink colours once (see ``_ink_table``);
        # one tuple, replaced whole, so a reader never sees half of an update.
        self._ink: tuple[Mapping[str, tuple[float, float, float]] | None, _InkTable] = (None, {})

    def glyphs(self, frame: npt.NDArray[np.uint8]) -> list[IndexGlyphs] | None:
        """The index corners read from ``frame``; None when no card outline is found."""
        det = find_card(frame)
        if det is None:
            return None
        out = []
        for patch in corner_patches(frame, det.quad):
            g = read_patch(patch)
            if g is not None:
                out.append(g)
        return out

    def _vote(self, g: IndexGlyphs) -> _CornerVote:
        return self._voted(g)[0]

    def _voted(self, g: IndexGlyphs) -> tuple[_CornerVote, _CornerVote | None]:
        """``_vote(g)``, and the classifier's own vote when it was taken on the
        way (None when not), so ``_corner`` need not classify the same glyphs
        twice: a corner that fails is asked the classifier's opinion again,
        and on a deck profile that repeat was a tenth of a slow frame's time.
        ``_classify`` depends on the glyphs and the profile only, so the vote
        given back is the one a second call would make."""
        if self.profile is None:
            clf = self._classify(g)
            return clf, clf
        return self._voted_after(g, self._match(g))

    def _voted_after(
        self, g: IndexGlyphs, tmpl: _CornerVote
    ) -> tuple[_CornerVote, _CornerVote | None]:
        """``_voted`` under a profile, its templates' vote ``tmpl`` already taken."""
        if tmpl.problem and FOREIGN in tmpl.card:
            return tmpl, None  # what ``_combine`` answers whatever the classifier says
        clf = self._classify(g)
        vote = self._combine(_blur_checked(tmpl, clf), clf)
        if not vote.problem and vote.card[0] in "69" and _loop_says(g) not in (None, vote.card[0]):
            # The deck's own templates named a 6 or 9 whose loop says the other:
            # a blurred glyph of a typeface whose 9 is its 6 turned.
            return _CornerVote(vote.card, 0.0, _FLIPPED, False, vote.evidence), clf
        return vote, clf

    def _vote_unless(
        self, g: IndexGlyphs, matters: Callable[[_CornerVote], bool]
    ) -> _CornerVote | None:
        """``_vote(g)``, or None when the deck's templates' own vote already
        shows that the caller will not use it (``matters`` of it False), so the
        classifier is not asked.  Under a profile a corner's vote names the
        templates' card whatever the classifier says (``_combined`` keeps it,
        or takes the classifier's when that is the same card), and it is sure
        only when the templates found no problem: a caller that wants a sure
        vote, or one naming a given card, can tell from the templates alone
        when it will not get one.  (A turned corner's second look on the slow
        frames, unsure ones, cost a classification each.)  Every caller uses
        only a vote without a problem, so without a profile the classifier's
        rank alone may say None (``_clean_vote``)."""
        if self.profile is None:
            return self._clean_vote(g)
        tmpl = self._match(g)
        if not matters(tmpl):
            return None
        return self._voted_after(g, tmpl)[0]

    def _combine(self, tmpl: _CornerVote, clf: _CornerVote) -> _CornerVote:
        """A corner under a deck profile: the deck's own templates and the generic
        classifier are two fairly independent witnesses.

        Templates are exact on clean ink but brittle under blur and JPEG (a
        thickened stroke lowers every correlation, so the ratio test abstains);
        the classifier is robust to that but was never shown this typeface.  When
        both name the same card, one of them being sure is enough; when both are
        sure of different cards, the corner is not trusted at all.
        """
        vote = self._combined(tmpl, clf)
        return _CornerVote(vote.card, vote.confidence, vote.problem, vote.sure, clf.evidence)

    @staticmethod
    def _combined(tmpl: _CornerVote, clf: _CornerVote) -> _CornerVote:
        foreign = FOREIGN in tmpl.card
        if not tmpl.problem:
            if not clf.problem and clf.card != tmpl.card:
                return _CornerVote(tmpl.card, 0.0, "the deck's glyphs and the classifier disagree")
            if clf.problem.startswith("6 or 9") and clf.card != tmpl.card:
                return _CornerVote(tmpl.card, 0.0, clf.problem)
            agree = clf.card == tmpl.card
            sure = agree and not clf.problem
            return _CornerVote(tmpl.card, min(1.0, tmpl.confidence + 0.1 * agree), "", sure)
        if foreign or clf.card != tmpl.card:
            return tmpl
        if not clf.problem:
            # Same card, and the classifier is sure; the colour check it made used
            # this deck's learned ink colours.
            return _CornerVote(clf.card, max(tmpl.confidence, clf.confidence), "")
        return tmpl

    def _match(self, g: IndexGlyphs) -> _CornerVote:
        """A corner named by the deck profile's templates."""
        p = self.profile
        assert p is not None
        t = p.thresholds
        rank_scores, rank_blurred = p.rank_match(g.rank)
        suit_scores, suit_blurred = p.suit_match(g.suit)
        ri, rs, rr = _best(rank_scores)
        si, ss, sr = _best(suit_scores)
        rank, suit = RANK_CLASSES[ri], SUIT_CLASSES[si]
        card = rank + suit
        problem = ""
        if FOREIGN in card:
            problem = "not a standard index (another kind of deck?)"
        elif rs < t.min_rank_score:
            problem = "rank unlike any known"
        elif ss < t.min_suit_score:
            problem = "suit unlike any known"
        elif rr > t.max_rank_ratio:
            problem = "rank ambiguous"
        elif sr > t.max_suit_ratio:
            problem = "suit ambiguous"
        else:
            problem = self._colour_problem(g, suit)
        # Confidence: how far past the thresholds the weakest evidence is.
        slack = min(
            (t.max_rank_ratio - rr) / t.max_rank_ratio,
            (t.max_suit_ratio - sr) / t.max_suit_ratio,
            (rs - t.min_rank_score) / max(1e-6, 1 - t.min_rank_score),
            (ss - t.min_suit_score) / max(1e-6, 1 - t.min_suit_score),
        )
        conf = min(max(0.5 + slack, 0.0), 1.0)
        blurred = "r" * rank_blurred + "s" * suit_blurred
        return _CornerVote(card, conf, problem, blurred=blurred)

    def _classify(self, g: IndexGlyphs) -> _CornerVote:
        """A corner read by the generic classifier: probabilities, not templates."""
        vote = self._classified(g, clean_only=False)
        assert vote is not None
        return vote

    def _clean_vote(self, g: IndexGlyphs) -> _CornerVote | None:
        """``_classify(g)``, or None when its rank alone gives the vote a
        problem (no standard rank, a 6 or 9 its loop contradicts, a rank under
        the threshold), for a caller that uses only a vote without one: the
        suit and the evidence then go unread.  On the slowest frames of unknown
        faces, most corners read again (turned, the other way up) were such
        votes (docs/vision.md, thirty-third pass)."""
        return self._classified(g, clean_only=True)

    def _classified(self, g: IndexGlyphs, *, clean_only: bool) -> _CornerVote | None:
        m = self.model
        wants_rank_f = m.rank_needs_features or self._own is not None
        # both glyphs' features in one call when both are sure to be wanted
        # (``features_of`` gives each row the same bits either way)
        pair = features_of((g.rank_ink, g.suit_ink)) if wants_rank_f and not clean_only else None
        rank_f = (pair[0] if pair is not None
                  else features_of((g.rank_ink,))[0] if wants_rank_f else None)
        pr = m.rank_probs(rank_f, g.rank_ink)
        ri = int(np.argmax(pr))
        rank = m.rank.classes[ri]
        flipped = False
        if rank in "69":
            pr, flipped = _six_or_nine(pr, m.rank.classes, g)
            ri = int(np.argmax(pr))
            rank = m.rank.classes[ri]
        if clean_only and (rank == FOREIGN or flipped or pr[ri] < m.min_rank_prob):
            return None
        suit_f = pair[1] if pair is not None else features_of((g.suit_ink,))[0]
        ps = m.suit_probs(suit_f, g.suit_ink)
        si = int(np.argmax(ps))
        suit = m.suit.classes[si]
        card = rank + suit
        conf = float(min(pr[ri], ps[si]))
        fits = [not self._colour_problem(g, s) for s in SUITS]
        evidence = corner_evidence(*self._own_probs(g, rank_f, suit_f, pr, ps), fits, None)
        if FOREIGN in card:
            problem = "not a standard index (another kind of deck?)"
        elif flipped:
            problem = _FLIPPED
        elif pr[ri] < m.min_rank_prob:
            problem = "rank ambiguous"
        elif ps[si] < m.min_suit_prob:
            problem = "suit ambiguous"
        else:
            problem = "" if fits[SUITS.index(suit)] else "ink colour does not match the suit"
        return _CornerVote(card, conf, problem, not problem and conf >= SURE_PROB, evidence)

    def _own_probs(
        self, g: IndexGlyphs, rank_f: npt.NDArray[np.float32] | None,
        suit_f: npt.NDArray[np.float32], pr: npt.NDArray[np.float32],
        ps: npt.NDArray[np.float32],
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The rank and suit probabilities a corner's evidence is made of: the
        deck's own output layers' when the profile has them (``pr``, ``ps``:
        the shipped layers', already checked for a 6 or 9), checked for a 6 or
        9 the same way."""
        own = self._own
        if own is None:
            return pr, ps
        assert rank_f is not None  # ``_classified`` works it out for ``own``
        opr = own.rank.probs(rank_f)
        if own.rank.classes[int(np.argmax(opr))] in "69":
            opr = _six_or_nine(opr, own.rank.classes, g)[0]
        return opr, own.suit.probs(suit_f)

    def _colour_problem(self, g: IndexGlyphs, suit: str) -> str:
        return self._ink_problem(g.colour, suit)

    def _ink_fits(self, colour: tuple[float, float, float], suit: str) -> bool:
        """Whether ink of ``colour`` (relative to the paper) may print ``suit``."""
        return not self._ink_problem(colour, suit)

    def _ink_problem(self, colour: tuple[float, float, float], suit: str) -> str:
        colours = self.profile.suit_colours if self.profile is not None else {}
        if colours:
            # Nearest learned ink colour must belong to the same colour group.
            # Suits whose learned inks are alike (clubs and spades of a two-colour
            # deck) share a group; the ink must be clearly nearer the claimed
            # suit's group than any other, so washed-out grey ink that sits between
            # a four-colour deck's green and blue answers nothing.
            # Hue, not darkness, tells inks apart: the same black prints darker
            # in a bold club than in a thin spade, and more so through JPEG.
            table = self._ink_table(colours).get(suit)
            if table is None:
                return "ink colour does not match the suit"
            c = _chroma(colour)
            near = far = 1e9
            for v, same in table:
                d = _distance(c, v)
                if same:
                    near = min(near, d)
                else:
                    far = min(far, d)
            return "" if near <= INK_MARGIN * far else "ink colour does not match the suit"
        b, gr, r = colour
        red = r - max(b, gr)
        # Red, not orange or pink: a German "bells" pip is yellow-orange.
        red_enough = red >= RED_INK and max(b, gr) <= 0.6 * r
        if suit == "H" or (suit == "D" and self.profile is not None):
            return "" if red_enough else "ink colour does not match the suit"
        if suit == "D":
            # Without a profile a diamond may also be a four-colour deck's: blue
            # (English convention) or orange to yellow (German convention).
            blue = b - max(gr, r) >= FOUR_COLOUR_INK
            warm = r - b >= WARM_INK
            return "" if red_enough or blue or warm else "ink colour does not match the suit"
        # Clubs and spades: dark, or a four-colour deck's green; never red, and never
        # the brown or olive of German acorns and Swiss signs.
        dark = red <= BLACK_INK and r - b <= BLACK_INK
        return "" if dark else "ink colour does not match the suit"

    def _ink_table(self, colours: Mapping[str, tuple[float, float, float]]) -> _InkTable:
        """Per claimable suit, every learned ink's chroma and whether it is in the
        claimed suit's colour group (its chroma within ``SAME_INK``).  It depends
        on the profile only, so it is made once instead of on every corner (and
        again should ``self.profile`` be replaced)."""
        made_for, table = self._ink
        if colours is not made_for:
            chromas = {s: _chroma(v) for s, v in colours.items()}
            table = {
                s: [(v, _distance(v, claimed) < SAME_INK) for v in chromas.values()]
                for s, claimed in chromas.items()
            }
            self._ink = (colours, table)
        return table

    def _corner(self, g: IndexGlyphs) -> tuple[IndexGlyphs, _CornerVote]:
        """Corner ``g``'s vote, or, when the corner read the other way up
        (``read_other_way``) is accepted on its own, those glyphs and their vote.

        The geometry decides which way up an index is printed: read the usual
        way, rank above suit at the card's corner; read the other way, suit
        sign turned above rank turned.  Only one of the two can give a
        standard rank over a standard suit sign whose ink fits it and, for a
        6 or 9, whose loop sits where the glyph says.  Asked only of a corner
        whose usual reading already failed for a reason that an index printed
        the other way up gives (``OTHER_WAY_UP``), so every other corner is
        read exactly as before."""
        vote, clf = self._voted(g)
        if not vote.problem:
            return g, vote
        if clf is None:
            clf = self._classify(g)
        if vote.problem not in OTHER_WAY_UP and clf.problem not in OTHER_WAY_UP:
            return g, vote
        other = read_other_way(g)
        if other is not None and self.profile is None:
            # the classifier's vote the other way up is taken only without a problem
            turned_clean = self._clean_vote(other)
            if turned_clean is not None and not turned_clean.problem:
                return other, turned_clean
        elif other is not None:
            turned, other_clf = self._voted(other)
            if not turned.problem:
                return other, turned
            if other_clf is None:
                other_clf = self._classify(other)
            if not other_clf.problem:
                # The deck's templates doubt the glyphs (blur) but the
                # classifier reads them this way up: still unsure, but the
                # corner's evidence is this way's, not the upside-down one's
                # (which leaned, frame after frame, to a 6 for a 4).
                return other, turned
        if clf.problem == NOT_STANDARD:
            # The bottom index the top one's mirror image: each glyph upside
            # down where it stands.  Taken alone only when sure and not a 6
            # or 9 (an upright 6 turned is a good 9); a normal corner turned
            # so reads "not a standard index" itself.
            flipped = g.turned_in_place()
            sure = self._vote_unless(flipped, _may_be_sure)
            if sure is not None and sure.sure and sure.card[0] not in TURNS_INTO_ANOTHER:
                return flipped, sure
        return g, vote

    def as_printed(self, g: IndexGlyphs) -> IndexGlyphs:
        """Corner ``g``'s glyphs the way up its index is printed (see
        ``_corner``): what calibration learns a deck's templates from, so a
        deck with an upright index at the bottom-right does not teach its
        turned suit signs as ranks."""
        return self._corner(g)[0]

    def read(self, frame: npt.NDArray[np.uint8], *, look_at: Quad | None = None) -> Reading:
        """Read the card in ``frame``.

        ``look_at``: read the index corners of a card lying there (the ``quad`` of
        the previous frame's reading) instead of finding the card's outline
        first.  Only the search is skipped: the corners are read from this
        frame's own pixels and must name a card on their own, so a moved or
        swapped card reads as unsure or as another card, never as the old one.
        """
        start = time.perf_counter()
        reading = self._read(frame, look_at)
        ms = (time.perf_counter() - start) * 1000
        return replace(reading, ms=ms)

    def _read(self, frame: npt.NDArray[np.uint8], look_at: Quad | None = None) -> Reading:
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            return Reading(None, 0.0, "not a colour image")
        # One BGRA copy serves detection and both corner warps: OpenCV resizes and
        # warps four-channel images much faster than three-channel ones, with
        # identical B, G and R values.
        src = frame
        if frame.dtype == np.uint8:
            src = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA), np.uint8)
        if look_at is None:
            det = find_card(src)
            if det is None:
                return Reading(None, 0.0, "no card in view")
            quad = det.quad
        else:
            quad = np.asarray(look_at, np.float32).reshape(4, 2)
        seen: list[tuple[int, IndexGlyphs]] = []

        def corners() -> Iterator[IndexGlyphs | None]:
            for k, g in enumerate(card_corners(src, quad)):
                if g is not None:
                    seen.append((k, g))
                yield g

        reading = self.decide(corners())
        # (the body only beside an ordinary corner, as without the last tries:
        # a frame of last-try corners alone stays the weak witness it is)
        ordinary = [(k, g) for k, g in seen if not g.last_try]
        if self.body and reading.evidence is not None and ordinary:
            boxes = [index_box_in_card(g.box, k) for k, g in ordinary if g.box is not None]
            body = read_body(src, quad, boxes, self.model, self._ink_fits)
            look = functools.cache(lambda: paper_view(src, quad))
            body = rule_out_three_by_empty_middle(body, look)
            body = withhold_by_clean_side_columns(body, look)
            if self.profile is not None:
                body = rule_out_pip_cards(body, self.profile.pip_cards, self.profile.pip_size,
                                          self.profile.picture_cards)
                body = rule_out_by_layout(body, self.profile.layouts)
                body = rule_out_by_empty_places(body, self.profile.layouts, look)
                body = rule_out_other_kinds(body, self.profile.faces, look)
            reading = with_body(reading, body)
        if reading.card is None:
            return reading
        return replace(reading, quad=quad)

    def _reconcile(
        self, votes: list[_CornerVote], glyphs: list[IndexGlyphs]
    ) -> list[_CornerVote]:
        """Two corners that disagree, unless one of them is read turned.

        When one corner names a card and the other speaks against it, the
        other is read again with its glyphs turned where they stand
        (``IndexGlyphs.turned_in_place``); if it then names the same card, the deck
        prints that index upright and the two agree.  When each corner, turned,
        names the other's card, or both name a card, a 6 and a 9 (the 6 and 9 of
        diamonds on such a deck read the same either way), nothing is
        reconciled: the frame stays unsure.
        """
        first, second = votes
        if not first.problem and not second.problem and (
            first.card == second.card
            or {first.card[0], second.card[0]} == set(TURNS_INTO_ANOTHER)
        ):
            # the same card; or a 6 and a 9, each of which may be the other
            # upside down (which one the deck prints upright, two sure corners
            # cannot say: a turned read that fails on one of them fails by noise)
            return votes
        agree_with = []  # (which corner is read turned, its turned vote)
        for k, (named, other) in enumerate(((first, second), (second, first))):
            if named.problem or not (other.problem == "" or _contradicts(other, named.card)):
                continue
            turned = self._vote_unless(glyphs[1 - k].turned_in_place(), _names(named.card))
            if turned is not None and not turned.problem and turned.card == named.card:
                agree_with.append((1 - k, turned))
        if len(agree_with) != 1:
            return votes
        k, turned = agree_with[0]
        out = list(votes)
        out[k] = turned
        return out

    def decide(self, corners: Iterable[IndexGlyphs | None]) -> Reading:
        """The reading from a card's index corners, taken lazily in order (None: a
        corner showing no index); stops early after a sure corner.  Split out of
        ``read`` so ``benchmarks/vision_tune.py`` can replay cached corners.

        Besides the answer, the reading carries each corner's evidence summed
        (for fusing frames) and, when unsure, the likeliest cards."""
        votes: list[_CornerVote] = []
        read: list[IndexGlyphs] = []
        weak: list[_CornerVote] = []  # corners found only by a last try
        for g in corners:
            if g is None:
                continue
            used, vote = self._corner(g)
            if g.last_try:
                # evidence only: no vote, no acceptance, no veto, no early stop,
                # so the frame's own answer is what it was without the last tries
                weak.append(vote)
                continue
            votes.append(vote)
            read.append(used)
            if vote.sure and vote.card[0] not in TURNS_INTO_ANOTHER:
                # A clear corner: the other one would only cost time.  Not so
                # a clear 6 or 9: on a deck whose bottom index is printed
                # upright (``IndexGlyphs.turned_in_place``) it may be the other rank
                # seen upside down, and only the other corner can say so.
                break
        weak_evidence = _weak_evidence(weak)
        if not votes:
            if weak_evidence is None:
                return Reading(None, 0.0, "no index visible", corners=0)
            return Reading(None, 0.0, LAST_TRY_ONLY, corners=len(weak),
                           guesses=top_guesses(weak_evidence), evidence=weak_evidence)
        if len(votes) == 2:
            votes = self._reconcile(votes, read)
        good = [v for v in votes if not v.problem]
        parts = [v.evidence for v in votes if v.evidence is not None]
        evidence = np.sum(parts, axis=0) if parts else None
        accepted = tuple(sorted({v.card for v in good}))
        if evidence is not None:
            for card in accepted:
                evidence[CARD_CODES.index(card)] += ACCEPT_BONUS
        if weak_evidence is not None:
            evidence = weak_evidence if evidence is None else evidence + weak_evidence
        n = len(votes) + len(weak)

        def unsure(reason: str, guess: str | None) -> Reading:
            return Reading(None, 0.0, reason, guess=guess, corners=n,
                           guesses=top_guesses(evidence), evidence=evidence,
                           accepted=accepted)

        if not good:
            best = max(votes, key=lambda v: v.confidence)
            return unsure(best.problem, None if FOREIGN in best.card else best.card)
        cards = {v.card for v in good}
        if len(cards) > 1:
            return unsure("the two corners disagree", None)
        card = good[0].card
        if len(votes) == 2 and len(good) == 1:
            other = next(v for v in votes if v.problem)
            if _contradicts(other, card):
                return unsure("the two corners disagree", card)
        conf = max(v.confidence for v in good)
        if len(good) == 2:
            conf = min(1.0, conf + 0.1)
        return Reading(card, round(conf, 3), corners=n, evidence=evidence, accepted=accepted)


def _weak_evidence(weak: list[_CornerVote]) -> npt.NDArray[np.float64] | None:
    """The summed evidence of corners found only by a last try, at
    ``LAST_TRY_WEIGHT`` (None when none gave any)."""
    parts = [v.evidence for v in weak if v.evidence is not None]
    if not parts:
        return None
    out: npt.NDArray[np.float64] = LAST_TRY_WEIGHT * np.sum(parts, axis=0)
    return out




def _blur_checked(tmpl: _CornerVote, clf: _CornerVote) -> _CornerVote:
    """A deck-template match, doubted when a template read from a blurred
    face (``vision.blurred``) won the rank or the suit and the classifier's
    best guess is another rank or suit.

    Blur makes glyphs alike: a blurred "J" is a narrow blob, and so is a "4"
    whose arms the frame's blur cut off; the clean templates refuse such a
    blob, the blurred ones may take it for the wrong one.  The classifier,
    trained on blurred glyphs of many typefaces, is the second witness the
    blurred templates need (whether it is sure does not matter: its best
    guess must be the same); the clean templates keep the trust they had."""
    if tmpl.problem or not tmpl.blurred:
        return tmpl
    if ("r" in tmpl.blurred and clf.card[0] != tmpl.card[0]) or (
        "s" in tmpl.blurred and clf.card[1] != tmpl.card[1]
    ):
        return _CornerVote(tmpl.card, 0.0, BLURRED_ALONE, blurred=tmpl.blurred)
    return tmpl


def _may_be_sure(tmpl: _CornerVote) -> bool:
    """Whether a corner whose templates voted ``tmpl`` may be read sure of a
    card other than a 6 or 9 (see ``Recognizer._vote_unless``)."""
    return not tmpl.problem and tmpl.card[0] not in TURNS_INTO_ANOTHER


def _names(card: str) -> Callable[[_CornerVote], bool]:
    """Whether a corner whose templates voted so may name ``card`` (see
    ``Recognizer._vote_unless``)."""
    return lambda tmpl: tmpl.card == card


def _loop_says(g: IndexGlyphs) -> str | None:
    """"6" when the rank's loop is in its lower half, "9" in its upper half,
    None when it has no clear loop."""
    loop = loop_height(g.rank_ink)
    if loop is None:
        return None
    return "6" if loop > 0.5 else "9"


#: the reason of a corner whose 6 or 9 the index's geometry contradicts
_FLIPPED = "6 or 9: the index's geometry disagrees with the glyph"
#: a corner's problems that an index printed upright at the bottom-right, so
#: upside down in the turned corner patch, gives: its suit sign taken for the
#: rank (not a standard rank), a turned heart taken for a spade (ink of the
#: wrong colour), a turned 6 (a 9 by its loop) that the glyph calls a 6.
#: Such a corner is read the other way up too (``Recognizer._other_way_up``).
NOT_STANDARD = "not a standard index (another kind of deck?)"
OTHER_WAY_UP = frozenset({
    NOT_STANDARD,
    "ink colour does not match the suit",
    _FLIPPED,
})


def _six_or_nine(
    pr: npt.NDArray[np.float32], classes: str, g: IndexGlyphs
) -> tuple[npt.NDArray[np.float32], bool]:
    """Check a 6 or 9 against the index's geometry before naming it.

    The corner patch is upright by construction (the card's corner fixes where
    the index is, and the splitter takes the rank as the mark *above* the suit
    sign), so the rank's closed loop tells the two apart without looking at
    the glyph's shape: a 6 has its loop low, a 9 high.  A typeface whose 9 is
    a 6 turned half a turn fools a shape classifier on a blurred or slanted
    glyph; it cannot move the loop.  When the loop contradicts the classifier,
    the corner answers nothing and its evidence no longer prefers either.
    """
    geometry = _loop_says(g)
    if geometry is None:
        return pr, False
    six, nine = classes.index("6"), classes.index("9")
    says = "6" if pr[six] >= pr[nine] else "9"
    if says == geometry:
        return pr, False
    out = pr.copy()
    out[six] = out[nine] = (pr[six] + pr[nine]) / 2
    return out, True


def _chroma(colour: Iterable[float]) -> tuple[float, float, float]:
    """A colour without its grey level: what is left is its hue and strength.

    Plain floats, summed and divided in NumPy's order (``c - c.mean()``): on three
    numbers NumPy's call overhead was most of the colour check's time."""
    b, g, r = (float(x) for x in colour)
    mean = (b + g + r) / 3
    return (b - mean, g - mean, r - mean)


def _distance(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """Euclidean distance, summed in ``np.linalg.norm``'s order for three numbers."""
    x, y, z = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return math.sqrt(x * x + y * y + z * z)
