"""Learning a deck profile from one clean image of each of the 52 cards.

Calibration reads each image with the same detector and glyph splitter the live
recogniser uses, so the templates carry exactly the quirks the reader will see.
It then re-reads every image with the new profile: a deck whose cards cannot be
told apart even when clean is refused with a list of the troublesome cards,
rather than saved and trusted.  Interactive calibration (the dealer shows each
card once) goes through :class:`InteractiveCalibration`, which collects the same
samples from camera frames.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.adapt import fit_head
from vision.blurred import BLUR_LEVELS, BlurLevel, blurred_glyphs
from vision.body_likeness import faces_of, thumb_of
from vision.cards import CARD_CODES, normalise_code
from vision.detect import Quad, find_card, order_quad, spans_picture
from vision.empty_places import paper_view
from vision.glyph_model import glyph_model
from vision.index import IndexGlyphs, card_corners
from vision.pips import (
    PIPS_OF_RANK,
    SILENT,
    BodyReading,
    index_box_in_card,
    layout_of,
    picture_card,
    pip_card,
    read_body,
)
from vision.profile import DeckProfile, ProfileError, build_profile
from vision.sources import ImageError, load_image

Image = npt.NDArray[np.uint8]
#: fit the deck's own output layers at calibration (``vision.adapt``).  Off:
#: they failed their ship rule (a kept-out deck's 2C named 7C from their
#: evidence; docs/vision.md, sixteenth pass); on only to measure them
#: (``benchmarks/vision_fuse.py --adapt``)
ADAPT = False
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


def card_glyphs(image: Image) -> list[IndexGlyphs]:
    """Both index corners of the card in ``image`` (those that could be read),
    each the way up its index is printed (``Recognizer.as_printed``, by the
    generic classifier: there is no profile yet)."""
    return face_glyphs(image, levels=())[0]


def face_glyphs(
    image: Image, *, levels: Sequence[BlurLevel] = BLUR_LEVELS
) -> tuple[list[IndexGlyphs], list[IndexGlyphs]]:
    """The card's index corners as :func:`card_glyphs` gives them, and the same
    corners read at the camera's blur ``levels`` (``vision.blurred``): the
    extra templates a profile matches blurred frames with."""
    from vision.recognizer import Recognizer

    quad = face_quad(image)
    if quad is None:
        return [], []
    generic = Recognizer()
    read = clean_corners(image, quad)
    printed = [generic.as_printed(g) for g in read]
    return printed, blurred_glyphs(image, quad, read, printed, levels)


def clean_corners(image: Image, quad: Quad) -> list[IndexGlyphs]:
    """The index corners of the card outlined by ``quad`` that read as an
    index (no template from a last try's guessed split: weak evidence, not
    the deck's print)."""
    return [g for g in card_corners(image, quad, clean_scan=True)
            if g is not None and not g.last_try]


def face_quad(image: Image) -> Quad | None:
    """The outline a calibration image's card is read by.

    A clean scan fills the picture, and where its art runs to the card's
    edge (a Paris court's) the paper's white ring is cut into pieces: the
    outline ``find_card`` gives is then one piece, or nothing, and its
    corners hold art.  So when that outline does not span the picture, the
    picture itself is tried as the card too, and taken when its corners
    read more indices than the outline's.  A photograph of a card on a
    table shows table in the picture's corners, and its outline stands.
    Calibration only: the live reader never sees a scan."""
    det = find_card(image)
    found = None if det is None else det.quad
    if found is not None and spans_picture(found, image.shape[:2]):
        return found
    h, w = image.shape[:2]
    whole = order_quad(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64))
    outline_reads = 0 if found is None else len(clean_corners(image, found))
    return whole if len(clean_corners(image, whole)) > outline_reads else found


def face_body(image: Image) -> BodyReading:
    """What the body of the card in ``image`` shows (``vision.pips``), read as
    the live reader reads a frame's: the pips the profile's ``pip_cards`` are
    learned from."""
    from vision.recognizer import Recognizer

    quad = face_quad(image)
    if quad is None:
        return SILENT
    corners = card_corners(image, quad, clean_scan=True)
    boxes = [index_box_in_card(g.box, k) for k, g in enumerate(corners)
             if g is not None and not g.last_try and g.box is not None]
    generic = Recognizer()
    return read_body(image, quad, boxes, generic.model, generic._ink_fits)


def face_thumb(image: Image) -> npt.NDArray[np.float32] | None:
    """The body of the card in ``image`` as ``vision.body_likeness`` compares
    it (None: no card, or no clear body)."""
    quad = face_quad(image)
    view = None if quad is None else paper_view(image, quad)
    return None if view is None else thumb_of(view)


def full_array(code: str, body: BodyReading) -> bool:
    """Whether the clean face of number card ``code`` showed an array of all
    its rank's pips: only such a layout may rule a card out by where a pip
    lies (one the reader missed on the clean face would rule out its own
    card wherever a frame sees it)."""
    return body.kind == "array" and body.pips == PIPS_OF_RANK.get(code[0], -1)


def largest_pip(body: BodyReading) -> int:
    """The largest pip (body px) of a number card's body read at calibration."""
    return max((p.size for p in body.candidates), default=0)


def find_calibration_images(folder: str | Path) -> dict[str, Path]:
    """``{code: path}`` for a folder of ``AS.png``, ``TD.png``... (``10D`` is accepted)."""
    root = Path(folder)
    if not root.is_dir():
        raise ProfileError(f"{folder} is not a folder")
    found: dict[str, Path] = {}
    for p in sorted(root.iterdir()):
        if p.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        code = normalise_code(p.stem)
        if code is not None:
            found.setdefault(code, p)
    missing = [c for c in CARD_CODES if c not in found]
    if missing:
        raise ProfileError(
            f"{folder} lacks {len(missing)} of the 52 cards: {' '.join(missing)} "
            "(one image per card, named like AS.png, TD.png, 7H.png)"
        )
    return found


def calibrate_images(images: Mapping[str, Image], *, name: str) -> DeckProfile:
    """A deck profile from ``{code: clean upright face}``; ProfileError when unusable."""
    read = {code: face_glyphs(img) for code, img in images.items()}
    samples = {code: clean for code, (clean, _) in read.items()}
    unreadable = [c for c in CARD_CODES if not samples.get(c)]
    if unreadable:
        raise ProfileError(
            "could not find the index corner on " + " ".join(unreadable)
            + " (each image should show one clean, upright card face)"
        )
    blurred = {code: b for code, (_, b) in read.items()}
    profile = with_head(build_profile(samples, name=name, blurred=blurred), samples, blurred)
    check_profile(profile, samples)
    bodies = {code: face_body(img) for code, img in images.items()}
    pips = frozenset(code for code, body in bodies.items() if pip_card(code, body))
    return replace(profile, pip_cards=pips,
                   pip_size=max((largest_pip(bodies[c]) for c in pips), default=0),
                   picture_cards=frozenset(c for c, b in bodies.items() if picture_card(c, b)),
                   layouts={c: layout_of(bodies[c]) for c in sorted(pips)
                            if full_array(c, bodies[c])},
                   faces=faces_of({code: face_thumb(img) for code, img in images.items()}))


def with_head(
    profile: DeckProfile, samples: Mapping[str, list[IndexGlyphs]],
    blurred: Mapping[str, list[IndexGlyphs]],
) -> DeckProfile:
    """``profile`` with the generic classifier's output layers fitted to the
    deck's clean and blurred corners (``vision.adapt``) when ``ADAPT`` is on."""
    if not ADAPT:
        return profile
    glyphs = {code: [*samples.get(code, []), *blurred.get(code, [])] for code in CARD_CODES}
    return replace(profile, head=fit_head(glyph_model(), glyphs))


def check_profile(profile: DeckProfile, samples: Mapping[str, list[IndexGlyphs]]) -> None:
    """Refuse a profile under which the clean calibration cards do not read back."""
    from vision.recognizer import Recognizer

    rec = Recognizer(profile)
    wrong = []
    for code, glyphs in samples.items():
        votes = [rec._vote(g) for g in glyphs]
        if not any(v.card == code and not v.problem for v in votes):
            wrong.append(code)
    if wrong:
        raise ProfileError(
            "these cards cannot be told apart reliably even in the calibration images: "
            + " ".join(wrong)
        )


def calibrate_folder(folder: str | Path, *, name: str | None = None) -> DeckProfile:
    paths = find_calibration_images(folder)
    images: dict[str, Image] = {}
    for code, p in paths.items():
        try:
            images[code] = load_image(p)
        except ImageError as exc:
            raise ProfileError(str(exc)) from None
    return calibrate_images(images, name=name or Path(folder).resolve().name)


@dataclass
class InteractiveCalibration:
    """Calibration from the live camera: the dealer shows each card in turn.

    The screen asks for :attr:`wanted`; each frame goes to :meth:`offer`, which
    keeps the frame's corners once ``frames_needed`` frames in a row gave a
    readable index, then moves on to the next card.
    """

    frames_needed: int = 3
    samples: dict[str, list[IndexGlyphs]] = field(default_factory=dict)
    #: the same frames' corners at the camera's blur levels (``vision.blurred``)
    blurred: dict[str, list[IndexGlyphs]] = field(default_factory=dict)
    _streak: list[IndexGlyphs] = field(default_factory=list)
    _streak_blurred: list[IndexGlyphs] = field(default_factory=list)
    _frames: int = 0
    #: cards one of whose learned frames showed the card's own pips, and the
    #: largest pip each showed
    pip_cards: dict[str, int] = field(default_factory=dict)
    #: the largest pip of the streak's frames that showed the card's own pips
    #: (-1: none did)
    _streak_pip: int = -1
    #: courts every learned frame of which showed a picture
    picture_cards: set[str] = field(default_factory=set)
    _streak_picture: bool = True
    #: each learned card's body (``face_thumb``) from its streak's first frame
    thumbs: dict[str, npt.NDArray[np.float32] | None] = field(default_factory=dict)
    _streak_thumb: npt.NDArray[np.float32] | None = None

    @property
    def wanted(self) -> str | None:
        for code in CARD_CODES:
            if code not in self.samples:
                return code
        return None

    @property
    def progress(self) -> tuple[int, int]:
        return len(self.samples), len(CARD_CODES)

    def offer(self, frame: Image) -> bool:
        """Feed one frame; True when the wanted card has just been learned."""
        code = self.wanted
        if code is None:
            return False
        # blurred from the streak's first frame only: a profile's templates are
        # all compared with every corner read, so three times as many would
        # cost read time for frames that differ only by sensor noise
        glyphs, blurred = face_glyphs(frame, levels=BLUR_LEVELS if self._frames == 0 else ())
        if not glyphs:
            self._restart()
            return False
        self._streak.extend(glyphs)
        self._streak_blurred.extend(blurred)
        body = face_body(frame)
        if self._frames == 0:
            self._streak_thumb = face_thumb(frame)
        self._streak_picture = self._streak_picture and picture_card(code, body)
        if pip_card(code, body):
            self._streak_pip = max(self._streak_pip, largest_pip(body))
        self._frames += 1
        if self._frames >= self.frames_needed:
            self.samples[code] = list(self._streak)
            self.blurred[code] = list(self._streak_blurred)
            if self._streak_pip >= 0:
                self.pip_cards[code] = self._streak_pip
            if self._streak_picture:
                self.picture_cards.add(code)
            self.thumbs[code] = self._streak_thumb
            self._restart()
            return True
        return False

    def _restart(self) -> None:
        self._streak.clear()
        self._streak_blurred.clear()
        self._frames = 0
        self._streak_pip = -1
        self._streak_picture = True
        self._streak_thumb = None

    def skip_back(self) -> None:
        """Forget the last learned card (the dealer showed the wrong one)."""
        done = [c for c in CARD_CODES if c in self.samples]
        if done:
            del self.samples[done[-1]]
            self.blurred.pop(done[-1], None)
            self.pip_cards.pop(done[-1], None)
            self.picture_cards.discard(done[-1])
            self.thumbs.pop(done[-1], None)
        self._restart()

    def finish(self, *, name: str) -> DeckProfile:
        if self.wanted is not None:
            raise ProfileError(f"calibration is not finished: {self.wanted} is still to be shown")
        profile = with_head(build_profile(self.samples, name=name, blurred=self.blurred),
                            self.samples, self.blurred)
        check_profile(profile, self.samples)
        return replace(profile, pip_cards=frozenset(self.pip_cards),
                       pip_size=max(self.pip_cards.values(), default=0),
                       picture_cards=frozenset(self.picture_cards),
                       faces=faces_of(self.thumbs))
