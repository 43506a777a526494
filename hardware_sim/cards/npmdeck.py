"""Card faces from card art published on the npm registry.

A few npm packages ship a whole deck as one SVG (or PNG) file per card.  None
of them was installed while the recogniser was trained or tuned, so the ones
that are new art make a fourth held-out group (``benchmarks/vision_split.py``,
``NPM_HELD_OUT``); the others are catalogued here with the design they redraw
(their ``family``), so that the split can refuse them.

The packages are installed, pinned, into ``.cache/cards`` of the checkout
(``npm install --prefix .cache/cards <package>@<version>``, what
:func:`install_line` prints; ``scripts/test.sh`` and ``scripts/bench_fonts.sh``
run it).  Each card is one file, so it is rendered whole by ``rsvg-convert
--width`` (a PNG card is decoded), trimmed to its visible pixels and scaled to
one size per deck.  Faces are cached on disk like the gnome designs'
(``PONTOON_CACHE_DIR``), keyed by the package version and this module's source.

Example::

    from hardware_sim.cards import open_deck
    deck = open_deck("npm:cardsjs")     # 250 px wide BGR faces, like the gnome decks
    face = deck.face("QH")
    alpha = deck.mask("QH")             # 255 on the card, 0 outside its corners

Environment: ``PONTOON_NPM_CARDS_DIR`` (default ``.cache/cards`` of the checkout).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hardware_sim.cards._img import Image
from hardware_sim.cards.builtin import RANKS, parse_code
from hardware_sim.cards.gnome import (
    FACE_KEYS,
    DesignInfo,
    PreRenderedDeck,
    cache_dir,
    cached_faces,
    one_size,
    read_png,
    trim,
)

PREFIX = "npm:"
#: rendered at this many times the wanted width, then scaled down (smooth edges)
OVERSAMPLE = 2
_ROOT = Path(__file__).resolve().parents[2]

_SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_BELLOT_RANKS = dict(zip(RANKS, ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                 "jack", "queen", "king"), strict=True))
_DECK_OF_CARDS_SUITS = {"S": "0", "H": "1", "C": "2", "D": "3"}  # as its example/faces number them


@dataclass(frozen=True)
class Package:
    """One npm package, pinned, and the licence of the card art in it."""

    name: str
    version: str
    licence: str

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"


CARDSJS = Package("cardsJS", "1.1.1", "MIT code; art LGPL-3.0-or-later, Chris Aguilar's")
YOUNESTOUATI = Package("@younestouati/playing-cards-standard-deck", "3.0.0",
                       "LGPL-3.0, Chris Aguilar's art with paths hand-optimised")
SVG_CARDS = Package("svg-cards", "4.0.2", "LGPL-2.1, David Bellot's SVG-cards")
KENNARD = Package("@heruka_urgyen/react-playing-cards", "0.5.0",
                  "MIT code; art CC0-1.0, Adrian Kennard's")
DECK_OF_CARDS = Package("deck-of-cards", "0.1.8", "MIT code; faces LGPL-3.0, Chris Aguilar's")


@dataclass(frozen=True)
class NpmDesign:
    """Where a design's card files are in its package: ``pattern`` is formatted
    with ``rank``/``suit`` by ``naming`` (see :func:`card_file`)."""

    package: Package
    folder: str
    pattern: str
    naming: str  # letters (AS, TC), numbers (1s, 13d), bellot (spade_1), suit_index (0_1)
    back: str
    info: DesignInfo


# Checked by eye on rendered cards next to the gnome-cards-data designs, and by
# the SVG source (2026-12-03).  ``family``: the gnome family of the same art,
# else a new ``npm_*`` family.
DESIGNS: dict[str, NpmDesign] = {
    "cardsjs": NpmDesign(CARDSJS, "dist/cards", "{rank}{suit}.svg", "letters", "Red_Back.svg",
                         DesignInfo("npm_aguilar", note="Chris Aguilar's Vectorized Playing "
                                                        "Cards 1.3")),
    "younestouati": NpmDesign(YOUNESTOUATI, "cards", "{rank}{suit}.svg", "numbers", "back.svg",
                              DesignInfo("npm_aguilar", note="cardsjs's art, paths redrawn "
                                                             "by hand; a blue star back")),
    "svg-cards": NpmDesign(SVG_CARDS, "png/2x", "{suit}_{rank}.png", "bellot", "back.png",
                           DesignInfo("paris", note="same art as gnome bellot (338 x 489 px "
                                                    "PNG renderings of it)")),
    "kennard": NpmDesign(KENNARD, "src/images/2color", "{rank}{suit}.svg", "letters",
                         "../back.svg",
                         DesignInfo("anglo_poker", note="Adrian Kennard's cards: gnome "
                                                        "anglo_poker's courts and index "
                                                        "glyphs, thinner strokes")),
    "kennard-4color": NpmDesign(KENNARD, "src/images/4color", "{rank}{suit}.svg", "letters",
                                "../back.svg",
                                DesignInfo("anglo_poker", four_color=True,
                                           note="kennard with diamonds blue, clubs green")),
    "kennard-big": NpmDesign(KENNARD, "src/images/2color-bf", "{rank}{suit}.svg", "letters",
                             "../back.svg",
                             DesignInfo("anglo_poker", note="kennard with a large index and "
                                                            "small courts")),
    "deck-of-cards": NpmDesign(DECK_OF_CARDS, "example/faces", "{suit}_{rank}.svg",
                               "suit_index", "back.png",
                               DesignInfo("npm_aguilar", "no_index", RANKS,
                                          note="Aguilar's faces with the rank index removed "
                                               "(the page draws it): a suit sign alone in "
                                               "the corners")),
}


class NpmDecksMissing(LookupError):
    """An npm card package is not installed; the message has the install line."""


def packages_dir() -> Path:
    """The ``--prefix`` folder the packages are installed into."""
    return Path(os.environ.get("PONTOON_NPM_CARDS_DIR", str(_ROOT / ".cache" / "cards")))


def install_line(packages: list[Package] | None = None) -> str:
    """The npm command that installs ``packages`` (default: all catalogued), pinned."""
    chosen = packages if packages is not None else _all_packages()
    specs = " ".join(sorted({p.spec for p in chosen}))
    return f"npm install --no-audit --no-fund --prefix {packages_dir()} {specs}"


def _all_packages() -> list[Package]:
    return sorted({d.package for d in DESIGNS.values()}, key=lambda p: p.name)


def parse_name(name: str) -> str:
    """``"npm:cardsjs"`` -> ``"cardsjs"``."""
    if not name.startswith(PREFIX) or len(name) == len(PREFIX):
        raise ValueError(f"not an npm deck name: {name!r} (expected 'npm:<design>')")
    return name[len(PREFIX):]


def package_folder(package: Package) -> Path:
    return packages_dir() / "node_modules" / package.name


def installed_version(package: Package) -> str | None:
    """The version in the package's ``package.json``, None if it is not installed."""
    meta = package_folder(package) / "package.json"
    if not meta.is_file():
        return None
    return str(json.loads(meta.read_text(encoding="utf-8")).get("version"))


def missing(designs: list[str] | tuple[str, ...] | None = None) -> list[Package]:
    """The packages of ``designs`` (``npm:`` names or bare; default: all
    catalogued) not installed at their pinned version."""
    names = [n.removeprefix(PREFIX) for n in designs] if designs is not None else list(DESIGNS)
    wanted = {DESIGNS[n].package for n in names if n in DESIGNS}
    return sorted((p for p in wanted if installed_version(p) != p.version),
                  key=lambda p: p.name)


def design(name: str) -> NpmDesign:
    """The catalogue entry of ``npm:<design>`` (or the bare name); refuses an
    unknown design, or a package not installed at its version (with the install line)."""
    bare = name.removeprefix(PREFIX)
    if bare not in DESIGNS:
        raise LookupError(f"unknown npm card design {bare!r}; known: {', '.join(sorted(DESIGNS))}")
    entry = DESIGNS[bare]
    if installed_version(entry.package) != entry.package.version:
        raise NpmDecksMissing(
            f"npm package {entry.package.spec} is not installed in {packages_dir()}: "
            f"{install_line([entry.package])}")
    return entry


def info(name: str) -> DesignInfo:
    """Known facts about ``npm:<design>`` (or the bare design name)."""
    bare = name.removeprefix(PREFIX)
    entry = DESIGNS.get(bare)
    return entry.info if entry else DesignInfo(f"npm_{bare}", note="not catalogued")


def must_be_unsure(name: str, code: str) -> bool:
    """True if card ``code`` of ``name`` prints no standard index."""
    return parse_code(code)[0] in info(name).nonstandard_ranks


def file_name(entry: NpmDesign, code: str) -> str:
    """The file of card ``code`` in the design's folder (``"TC"`` -> ``TC.svg``,
    ``12s.svg``, ``club_10.png``, ``2_10.svg``)."""
    parsed = parse_code(code)
    rank, suit = parsed[0], parsed[1]
    if entry.naming == "letters":
        r, s = rank, suit
    elif entry.naming == "numbers":
        r, s = str(RANKS.index(rank) + 1), suit.lower()
    elif entry.naming == "bellot":
        r, s = _BELLOT_RANKS[rank], _SUIT_WORDS[suit]
    elif entry.naming == "suit_index":
        r, s = str(RANKS.index(rank) + 1), _DECK_OF_CARDS_SUITS[suit]
    else:
        raise ValueError(f"unknown naming {entry.naming!r}")
    return entry.pattern.format(rank=r, suit=s)


def card_file(name: str, code: str | None) -> Path:
    """The file of card ``code`` (the back if None) of ``npm:<design>``."""
    entry = design(name)
    folder = package_folder(entry.package) / entry.folder
    path = (folder / (entry.back if code is None else file_name(entry, code))).resolve()
    if not path.is_file():
        raise LookupError(f"npm card design {name!r}: {path} is missing")
    return path


def _rsvg(src: Path, width: int) -> Image:
    """BGRA of the whole SVG file ``width`` px wide."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise RuntimeError("rsvg-convert not found: install the Debian package librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "card.png"
        proc = subprocess.run([exe, "--width", str(width), "--keep-aspect-ratio", "-o", str(out),
                               str(src)], capture_output=True, text=True, timeout=300, check=False)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"rsvg-convert failed on {src}: {proc.stderr.strip()}")
        return read_png(out)


def render_file(path: Path, width: int) -> Image:
    """One card file as BGRA about ``OVERSAMPLE * width`` wide (a PNG: as
    stored), trimmed to its visible pixels."""
    img = read_png(path) if path.suffix == ".png" else _rsvg(path, OVERSAMPLE * width)
    return trim(img)


@cache
def _code_digest() -> str:
    return hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:10]


def _cache_folder(name: str, width: int) -> Path:
    bare = name.removeprefix(PREFIX)
    entry = DESIGNS[bare]
    where = package_folder(entry.package).resolve()
    key = hashlib.sha1(f"{where}|{entry.package.spec}|{_code_digest()}".encode()).hexdigest()[:10]
    return cache_dir() / f"npm-{bare}-{key}" / str(width)


def render_design(name: str, *, width: int = 250) -> dict[str, Image]:
    """All 52 faces and the back (key ``"back"``) as BGRA ``width`` px wide,
    all one height (the median aspect); rendered once, then read from the cache."""
    bare = name.removeprefix(PREFIX)
    design(bare)  # refuses an unknown design or a missing package

    def draw() -> dict[str, Image]:
        return one_size({k: render_file(card_file(bare, None if k == "back" else k), width)
                         for k in FACE_KEYS}, width)

    return cached_faces(_cache_folder(bare, width), draw, width=width)


class NpmDeck(PreRenderedDeck):
    """An npm design as a :class:`hardware_sim.cards.Deck`."""

    def __init__(self, name: str, *, width: int = 250) -> None:
        self.design = parse_name(name)
        self.name = f"{PREFIX}{self.design}"
        self.width = width
        self.entry = design(self.design)  # refuses a missing package / unknown design
        self.info = self.entry.info
        self.cache_folder = _cache_folder(self.design, width)
        super().__init__(render_design(self.design, width=width))

    def must_be_unsure(self, code: str) -> bool:
        return must_be_unsure(self.design, code)


__all__ = [
    "DESIGNS",
    "NpmDeck",
    "NpmDecksMissing",
    "NpmDesign",
    "Package",
    "card_file",
    "design",
    "file_name",
    "info",
    "install_line",
    "installed_version",
    "missing",
    "must_be_unsure",
    "packages_dir",
    "parse_name",
    "render_design",
]
