"""Card faces from KDE's decks (Debian ``kdegames-card-data-kf5``).

KDE's card games ship their decks as one SVG per design under
``/usr/share/carddecks/svg-<design>/`` (``index.desktop`` names the file), each
card a named element: ``1_club`` .. ``10_club``, ``jack_club``,
``queen_heart``, ``king_spade``, ``back``.  Those designs were never installed
while the recogniser was trained or tuned, so some of them make a third
held-out group (``benchmarks/vision_split.py``, ``KDE_HELD_OUT``); several
others are the same art as gnome-cards-data designs, which :data:`DESIGNS`
records as their gnome family.

Each card is rendered by ``rsvg-convert --export-id``.  librsvg (2.54) sizes
such an export by the element's *ink rectangle*, which in these files also
counts invisible shapes (unfilled, unstroked helper rectangles), so the card
can be a small corner of a much larger canvas.  A card is therefore rendered
twice: once at natural size to find where its visible pixels are, then at the
zoom that makes it twice the wanted width, with the page cropped to that
spot (``--left/--top/--page-width/--page-height``), trimmed to its alpha and
scaled down.  Two bitmap decks (``konqi-modern``, ``xskat-french``) store
each card as an embedded PNG, which librsvg cannot export by id ("no
dimensions"); their PNG is decoded directly (konqi's are square-cornered
and opaque: they get the built-in deck's rounded corners).  Faces are cached on disk like
the gnome designs' (``PONTOON_CACHE_DIR``), keyed by the SVG file and this
module's source.

Example::

    from hardware_sim.cards import open_deck
    deck = open_deck("kde:oxygen")      # 250 px wide BGR faces, like the gnome decks
    face = deck.face("QH")
    alpha = deck.mask("QH")             # 255 on the card, 0 outside its corners

Environment: ``PONTOON_KDE_CARDS_DIR`` (default ``/usr/share/carddecks``).
"""

from __future__ import annotations

import base64
import configparser
import gzip
import hashlib
import math
import os
import re
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from hardware_sim.cards._img import Image, u8
from hardware_sim.cards.builtin import RANKS, STYLES, card_mask, parse_code
from hardware_sim.cards.gnome import (
    ALPHA_MIN,
    FACE_KEYS,
    DesignInfo,
    PreRenderedDeck,
    as_bgra,
    cache_dir,
    cached_faces,
    one_size,
    trim,
)

PREFIX = "kde:"
PACKAGE = "kdegames-card-data-kf5"
DEFAULT_DIR = "/usr/share/carddecks"
_RANK_IDS = dict(zip(RANKS, ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                             "jack", "queen", "king"), strict=True))
_SUIT_IDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
#: rendered at this many times the wanted width, then scaled down (smooth edges)
OVERSAMPLE = 2

# Checked by eye on rendered cards next to the gnome-cards-data designs
# (kdegames-card-data-kf5 22.12 / Debian 12, 2026-12-02): ``family`` is the gnome
# family of the same art, else a new ``kde_*`` family.
DESIGNS: dict[str, DesignInfo] = {
    "ancient-egyptians": DesignInfo("kde_ancient_egyptians",
                                    note="bottom-right index upright, suit over rank"),
    "dondorf": DesignInfo("dondorf", note="same art as gnome dondorf; indices in four corners"),
    "future": DesignInfo("kde_future", "hex_digits", RANKS,
                         note="not a playing-card face: landscape chips with a hex digit "
                              "(0 = ace .. C = king) and a bit pattern; no suit sign"),
    "gm-paris": DesignInfo("paris", note="same art as gnome paris"),
    "jolly-royal": DesignInfo("kde_jolly_royal"),
    "konqi-modern": DesignInfo("kde_konqi", four_color=True,
                               note="72 x 96 px bitmaps; hearts green, spades red, clubs blue, "
                                    "diamonds teal"),
    "nicu-ornamental": DesignInfo("ornamental", note="same art as gnome ornamental"),
    "nicu-white": DesignInfo("ornamental", note="gnome ornamental's drawings on white paper"),
    "oxygen": DesignInfo("kde_oxygen", note="rank alone top-right, suit alone top-left, "
                                            "no turned index; light ink on red/black paper"),
    "oxygen-air": DesignInfo("kde_oxygen", note="oxygen's layout: rank top-right, suit top-left"),
    "oxygen-white": DesignInfo("kde_oxygen", note="oxygen's silhouettes on white paper"),
    "penguins": DesignInfo("kde_penguins", note="heavy index close to the outline: a wide "
                                                "Q or 10 touches the card's border line"),
    "standard": DesignInfo("kde_standard"),
    "tigullio-international": DesignInfo("tigullio", note="same art as gnome tigullio"),
    "xskat-french": DesignInfo("kde_xskat", "bdk", "JQ",
                               note="72 x 112 px bitmaps; B/D/K courts; indices in four corners"),
    "xskat-german": DesignInfo("kde_xskat", "german_suits", RANKS,
                               note="German suits (acorns, leaves, hearts, bells), D/U/O/K"),
}


class KdeDecksMissing(LookupError):
    """KDE's decks are not installed; the message names the Debian package."""


def decks_dir() -> Path:
    return Path(os.environ.get("PONTOON_KDE_CARDS_DIR", DEFAULT_DIR))


def list_designs() -> list[str]:
    """Installed design names (``svg-oxygen`` -> ``oxygen``), sorted."""
    d = decks_dir()
    if not d.is_dir():
        return []
    return sorted(p.name.removeprefix("svg-") for p in d.iterdir()
                  if p.name.startswith("svg-") and (p / "index.desktop").is_file())


def parse_name(name: str) -> str:
    """``"kde:oxygen"`` -> ``"oxygen"``."""
    if not name.startswith(PREFIX) or len(name) == len(PREFIX):
        raise ValueError(f"not a KDE deck name: {name!r} (expected 'kde:<design>')")
    return name[len(PREFIX):]


def install_line() -> str:
    return f"apt-get install -y {PACKAGE}"


def metadata(design: str) -> dict[str, str]:
    """The ``[KDE Backdeck]`` entries of the design's ``index.desktop``
    (``Name``, ``SVG``, ``Back``, ...); refuses a missing package or design."""
    installed = list_designs()
    if not installed:
        raise KdeDecksMissing(f"KDE card decks are not installed in {decks_dir()}: "
                              f"install the Debian package {PACKAGE} ({install_line()})")
    if design not in installed:
        raise LookupError(f"unknown KDE card design {design!r}; installed: {', '.join(installed)}")
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keep "SVG" as written
    parser.read(decks_dir() / f"svg-{design}" / "index.desktop", encoding="utf-8")
    return dict(parser["KDE Backdeck"])


def design_file(design: str) -> Path:
    src = decks_dir() / f"svg-{design}" / metadata(design)["SVG"]
    if not src.is_file():
        raise LookupError(f"KDE card design {design!r}: {src} is missing")
    return src


def info(name: str) -> DesignInfo:
    """Known facts about ``kde:<design>`` (or the bare design name)."""
    design = name.removeprefix(PREFIX)
    return DESIGNS.get(design, DesignInfo(f"kde_{design}", note="not catalogued"))


def must_be_unsure(name: str, code: str) -> bool:
    """True if card ``code`` of ``name`` prints no standard index."""
    return parse_code(code)[0] in info(name).nonstandard_ranks


def element_id(code: str) -> str:
    """The SVG id of card ``code`` in KDE's decks (``"QH"`` -> ``"queen_heart"``)."""
    c = parse_code(code)
    return f"{_RANK_IDS[c[0]]}_{_SUIT_IDS[c[1]]}"


def _rsvg(src: Path, args: list[str]) -> Image | None:
    """BGRA from ``rsvg-convert args src``, or None when librsvg finds the
    element has no size (an embedded bitmap)."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise RuntimeError("rsvg-convert not found: install the Debian package librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "card.png"
        proc = subprocess.run([exe, *args, "-o", str(out), str(src)],
                              capture_output=True, text=True, timeout=300, check=False)
        if proc.returncode != 0 and "has no dimensions" in proc.stderr:
            return None
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"rsvg-convert {' '.join(args)} failed on {src}: "
                               f"{proc.stderr.strip()}")
        img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise RuntimeError(f"rsvg-convert gave no RGBA image for {src}")
    return u8(img)


def _ink_box(bgra: Image) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1), exclusive ends, of the visible pixels."""
    ys, xs = np.nonzero(bgra[..., 3] > ALPHA_MIN)
    if not len(xs):
        raise RuntimeError("the card rendered blank")
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _embedded_png(src: Path, element: str) -> Image:
    """The bitmap of an ``<image id=element href="data:image/png;base64,...">``."""
    text = gzip.decompress(src.read_bytes()).decode() if src.suffix == ".svgz" \
        else src.read_text()
    for tag in re.finditer(r"<image\b[^>]*>", text):
        if re.search(rf'\bid="{re.escape(element)}"', tag.group(0)):
            data = re.search(r'href="data:image/png;base64,([^"]+)"', tag.group(0))
            if data is None:
                break
            raw = np.frombuffer(base64.b64decode("".join(data.group(1).split())), np.uint8)
            img = cv2.imdecode(raw, cv2.IMREAD_UNCHANGED)
            if img is None:
                break
            return as_bgra(u8(img))
    raise RuntimeError(f"{src}: element {element!r} has no size and no embedded PNG")


def render_element(src: Path, element: str, width: int) -> Image:
    """Element ``element`` of ``src`` as BGRA about ``OVERSAMPLE * width`` wide,
    trimmed to its visible pixels."""
    probe = _rsvg(src, ["--export-id", element])
    if probe is None:
        return trim(_embedded_png(src, element))
    x0, y0, x1, y1 = _ink_box(probe)
    zoom = OVERSAMPLE * width / (x1 - x0)
    margin = math.ceil(2 * zoom)  # the probe's box is exact to a pixel at zoom 1
    left, top = math.floor(x0 * zoom) - margin, math.floor(y0 * zoom) - margin
    page_w = math.ceil((x1 - x0) * zoom) + 2 * margin
    page_h = math.ceil((y1 - y0) * zoom) + 2 * margin
    img = _rsvg(src, ["--export-id", element, "--zoom", f"{zoom:.6f}",
                      f"--left={-left}", f"--top={-top}",
                      "--page-width", str(page_w), "--page-height", str(page_h)])
    if img is None:
        raise RuntimeError(f"rsvg-convert lost the size of {element!r} in {src}")
    return trim(img)


def _rounded(bgra: Image) -> Image:
    """A card drawn as a square-cornered opaque bitmap (konqi-modern) given the
    built-in deck's rounded corners, as a real card has; others are unchanged."""
    a = bgra[..., 3]
    if min(a[0, 0], a[0, -1], a[-1, 0], a[-1, -1]) < 255:
        return bgra
    h, w = a.shape
    out = bgra.copy()
    out[..., 3] = card_mask(w, h, STYLES["classic"].corner_radius * w)
    return out


@cache
def _code_digest() -> str:
    return hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:10]


def _cache_folder(design: str, src: Path, width: int) -> Path:
    st = src.stat()
    key = hashlib.sha1(f"{src.resolve()}|{st.st_size}|{st.st_mtime_ns}|{_code_digest()}"
                       .encode()).hexdigest()[:10]
    return cache_dir() / f"kde-{design}-{key}" / str(width)


def render_design(design: str, *, width: int = 250) -> dict[str, Image]:
    """All 52 faces and the back (key ``"back"``) as BGRA ``width`` px wide,
    all one height (the median aspect); rendered once, then read from the cache."""
    src = design_file(design)

    def draw() -> dict[str, Image]:
        cells = {k: render_element(src, "back" if k == "back" else element_id(k), width)
                 for k in FACE_KEYS}
        return {k: _rounded(c) for k, c in one_size(cells, width).items()}

    return cached_faces(_cache_folder(design, src, width), draw, width=width)


class KdeDeck(PreRenderedDeck):
    """A KDE design as a :class:`hardware_sim.cards.Deck`."""

    def __init__(self, name: str, *, width: int = 250) -> None:
        self.design = parse_name(name)
        self.name = f"{PREFIX}{self.design}"
        self.width = width
        self.info = info(self.design)
        self.src = design_file(self.design)  # refuses a missing package / design
        self.cache_folder = _cache_folder(self.design, self.src, width)
        super().__init__(render_design(self.design, width=width))

    def must_be_unsure(self, code: str) -> bool:
        return must_be_unsure(self.design, code)


__all__ = [
    "DESIGNS",
    "PACKAGE",
    "KdeDeck",
    "KdeDecksMissing",
    "decks_dir",
    "design_file",
    "element_id",
    "info",
    "install_line",
    "list_designs",
    "metadata",
    "must_be_unsure",
    "parse_name",
    "render_design",
]
