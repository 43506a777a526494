"""Card faces from the Debian ``gnome-cards-data`` designs (AisleRiot's decks).

Those decks were drawn by other people, so they test the recogniser on
designs nobody tuned it for. Each ``.svgz`` is one sheet laid out as AisleRiot
reads it: 13 columns (A, 2..10, J, Q, K) by 5 rows (clubs, diamonds, hearts,
spades, then jokers and the back at column 2). A sheet is rendered once per
width with ``rsvg-convert`` (Debian ``librsvg2-bin``), cut along that grid,
trimmed to the card's own outline, and cached on disk as PNGs with alpha.

Designs are grouped into *families* that share drawings (court art, index
glyphs, backs), so a vision benchmark can hold a whole family out of tuning.
:data:`DESIGNS` also says which designs print non-standard indices (German
B/D/K, Russian, Italian, Swiss suits, courts without letters): those faces are
negatives a recogniser must answer "unsure" to (:func:`must_be_unsure`).

Example::

    from hardware_sim.cards.gnome import GnomeDeck, list_designs, DESIGNS, families
    list_designs()                        # ['ancient_french', 'anglo', ...] (installed)
    deck = GnomeDeck("paris", width=250)
    face = deck.face("QH")                # BGR uint8, 250 wide, the design's own height
    alpha = deck.mask("QH")               # 255 on the card
    DESIGNS["berlin"].indices             # 'bdk'
    families()["anglo"]                   # ['anglo', 'anglo_bitmap', 'gnomangelo', ...]

Environment: ``PONTOON_CARDS_DIR`` (default ``/usr/share/aisleriot/cards``),
``PONTOON_CACHE_DIR`` (default ``$XDG_CACHE_HOME/pontoon-table/cards``, i.e.
``~/.cache/pontoon-table/cards``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware_sim.cards._img import Image, u8
from hardware_sim.cards.builtin import CARD_CODES, RANKS, SUITS, parse_code

DEFAULT_DIR = "/usr/share/aisleriot/cards"
GRID_COLUMNS, GRID_ROWS = 13, 5
_ROW_OF_SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}
BACK_CELL = (4, 2)  # (row, column)


@dataclass(frozen=True)
class DesignInfo:
    """What is known about a design: the family whose drawings it shares, and
    how its indices differ from the standard A 2..10 J Q K in French suits."""

    family: str
    indices: str = "standard"  # or: bdk, russian, french_1vdr, italian_fdr, swiss, no_court_index
    nonstandard_ranks: str = ""  # ranks whose printed index is not the standard one
    four_color: bool = False  # diamonds / clubs not red / black
    note: str = ""

    @property
    def standard(self) -> bool:
        return not self.nonstandard_ranks


_ALL = RANKS
# Checked by eye on rendered sheets (gnome-cards-data 3.22 / Debian 12).
DESIGNS: dict[str, DesignInfo] = {
    "anglo": DesignInfo("anglo"),
    "anglo_bitmap": DesignInfo("anglo", note="bitmap court art of anglo"),
    "gnomangelo": DesignInfo("anglo", note="same court art as anglo"),
    "gnomangelo_bitmap": DesignInfo("anglo", note="same court art as anglo"),
    "anglo_modern": DesignInfo("atlasnye", note="same indices and back as atlasnye"),
    "anglo_modern_4_color": DesignInfo("atlasnye", four_color=True),
    "atlasnye": DesignInfo("atlasnye"),
    "atlasnye_skat": DesignInfo("atlasnye", "bdk", "JQ", note="B/D/K courts"),
    "Атласные": DesignInfo("atlasnye", "russian", "AJQ", note="Т/В/Д/К indices"),
    "anglo_poker": DesignInfo("anglo_poker"),
    "bellot": DesignInfo("paris"),
    "paris": DesignInfo("paris"),
    "ancient_french": DesignInfo("paris", "french_1vdr", "AJQK", note="1/V/D/R indices"),
    "berlin": DesignInfo("german_patterns", "bdk", "JQ", note="B/D/K courts"),
    "lattmann": DesignInfo("german_patterns", "bdk", "JQ", note="B/D/K courts"),
    "rheinland": DesignInfo("german_patterns", "bdk", "JQ", note="B/D/K courts"),
    "dondorf": DesignInfo("dondorf", note="indices in all four corners"),
    "guyenne-classic": DesignInfo("guyenne", "no_court_index", "JQK", note="courts unlettered"),
    "neoclassical": DesignInfo("neoclassical"),
    "neoclassical_4_color": DesignInfo("neoclassical", four_color=True),
    "orell": DesignInfo("orell"),
    "ornamental": DesignInfo("ornamental"),
    "plastic": DesignInfo("plastic"),
    "simplistic": DesignInfo("simplistic"),
    "slavic_costumes": DesignInfo("slavic_costumes", "russian", "AJQ", note="Т/В/Д/К indices"),
    "swiss-xvii": DesignInfo("swiss_xvii", "swiss", _ALL, note="Swiss suits, few indices"),
    "tango": DesignInfo("tango"),
    "tango_nuevo": DesignInfo("tango", note="one large index, top-left only"),
    "tarocco": DesignInfo("tarocco", "italian_fdr", "JQK", note="F/D/R courts"),
    "tigullio": DesignInfo("tigullio"),
}


def cards_dir() -> Path:
    return Path(os.environ.get("PONTOON_CARDS_DIR", DEFAULT_DIR))


def cache_dir() -> Path:
    env = os.environ.get("PONTOON_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pontoon-table" / "cards"


def available() -> bool:
    """True if designs are installed and ``rsvg-convert`` can render them."""
    return bool(list_designs()) and shutil.which("rsvg-convert") is not None


def _design_file(name: str) -> Path:
    d = cards_dir()
    for ext in (".svgz", ".svg"):
        p = d / f"{name}{ext}"
        if p.is_file():
            return p
    raise LookupError(
        f"card design {name!r} is not installed in {d} "
        f"(installed: {', '.join(list_designs()) or 'none - apt install gnome-cards-data'})"
    )


def list_designs() -> list[str]:
    """Names of the installed designs, sorted."""
    d = cards_dir()
    if not d.is_dir():
        return []
    names = {p.name.removesuffix(".svgz").removesuffix(".svg") for p in d.iterdir()
             if p.name.endswith((".svgz", ".svg"))}
    return sorted(names)


def info(name: str) -> DesignInfo:
    """Known facts about ``name``; an unknown design is its own family, assumed standard."""
    return DESIGNS.get(name, DesignInfo(name, note="not catalogued"))


def families(names: list[str] | None = None) -> dict[str, list[str]]:
    """Installed designs (or ``names``) grouped by family."""
    out: dict[str, list[str]] = {}
    for n in names if names is not None else list_designs():
        out.setdefault(info(n).family, []).append(n)
    return out


def must_be_unsure(name: str, code: str) -> bool:
    """True if card ``code`` of design ``name`` does not print a standard index,
    so a recogniser must not name it."""
    return parse_code(code)[0] in info(name).nonstandard_ranks


def _render_sheet(src: Path, width: int) -> Image:
    """The whole sheet at ``13 * width`` px wide, BGRA, rendered by rsvg-convert."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise RuntimeError("rsvg-convert not found: install the Debian package librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sheet.png"
        proc = subprocess.run(
            [exe, "--width", str(GRID_COLUMNS * width), "--keep-aspect-ratio", "-o", str(out),
             str(src)],
            capture_output=True, text=True, timeout=300, check=False,
        )
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"rsvg-convert failed on {src}: {proc.stderr.strip()}")
        sheet = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if sheet is None or sheet.ndim != 3 or sheet.shape[2] != 4:
        raise RuntimeError(f"rsvg-convert gave no RGBA image for {src}")
    return u8(sheet)


def _cut(sheet: Image, row: int, col: int) -> Image:
    """One grid cell trimmed to the card's own outline."""
    h, w = sheet.shape[:2]
    cw, ch = w / GRID_COLUMNS, h / GRID_ROWS
    cell = sheet[round(row * ch) : round((row + 1) * ch), round(col * cw) : round((col + 1) * cw)]
    ys, xs = np.nonzero(cell[..., 3] > 8)
    if len(xs):
        cell = cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return cell


def _cut_all(sheet: Image, width: int) -> dict[str, Image]:
    """All faces and the back, scaled to one common size (trimming can differ
    by a pixel from card to card; a deck's cards are all the same size)."""
    cells = {code: _cut(sheet, _ROW_OF_SUIT[code[1]], RANKS.index(code[0])) for code in CARD_CODES}
    cells["back"] = _cut(sheet, *BACK_CELL)
    aspect = float(np.median([c.shape[0] / c.shape[1] for c in cells.values()]))
    height = round(width * aspect)
    return {
        k: u8(cv2.resize(c, (width, height),
                         interpolation=cv2.INTER_AREA if c.shape[1] > width else cv2.INTER_CUBIC))
        for k, c in cells.items()
    }


def _cache_folder(src: Path, width: int) -> Path:
    st = src.stat()
    key = hashlib.sha1(f"{src.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:10]
    return cache_dir() / f"{src.name.split('.')[0]}-{key}" / str(width)


def _write_atomic(path: Path, img: Image) -> None:
    """Write via a temporary name then rename, so concurrent test workers
    never see half a file."""
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.png")
    if not cv2.imwrite(str(tmp), img):
        raise OSError(f"could not write {tmp}")
    os.replace(tmp, path)


def render_design(name: str, *, width: int = 250) -> dict[str, Image]:
    """All 52 faces and the back (key ``"back"``) of design ``name`` as BGRA
    images ``width`` px wide; rendered once, then read from the disk cache."""
    src = _design_file(name)
    return cached_faces(_cache_folder(src, width),
                        lambda: _cut_all(_render_sheet(src, width), width))


#: what a pre-rendered design holds: its 52 faces and its back
FACE_KEYS = (*CARD_CODES, "back")


def cached_faces(
    folder: Path, draw: Callable[[], dict[str, Image]], *, width: int | None = None
) -> dict[str, Image]:
    """A design's faces (:data:`FACE_KEYS`, BGRA) from ``folder``, when all are
    there and whole (``width`` px wide, if given); else ``draw()`` them and
    keep them there.  Rendering a design costs seconds; every test and
    benchmark opens the same few designs again and again."""
    if all((folder / f"{k}.png").is_file() for k in FACE_KEYS):
        read = {k: cv2.imread(str(folder / f"{k}.png"), cv2.IMREAD_UNCHANGED) for k in FACE_KEYS}
        if all(v is not None and v.ndim == 3 and v.shape[2] == 4
               and (width is None or v.shape[1] == width) for v in read.values()):
            return {k: u8(v) for k, v in read.items()}
    out = draw()
    folder.mkdir(parents=True, exist_ok=True)
    for k, img in out.items():
        _write_atomic(folder / f"{k}.png", img)
    return out


def one_size(cells: dict[str, Image], width: int) -> dict[str, Image]:
    """Every cell ``width`` px wide and all one height, the cells' median
    aspect: a design's cards, drawn one by one, differ by a pixel or two,
    and a deck's faces must be one size as printed cards are."""
    aspect = float(np.median([c.shape[0] / c.shape[1] for c in cells.values()]))
    height = round(width * aspect)
    return {k: u8(cv2.resize(c, (width, height),
                             interpolation=cv2.INTER_AREA if c.shape[1] > width
                             else cv2.INTER_CUBIC))
            for k, c in cells.items()}


#: a pixel more opaque than this is card (trimming a rendered or decoded card)
ALPHA_MIN = 8


def as_bgra(img: Image) -> Image:
    """A grey, BGR or BGRA bitmap as BGRA (opaque where it had no alpha)."""
    if img.ndim == 2:
        return u8(cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA))
    if img.shape[2] == 3:
        return u8(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA))
    return img


def read_png(path: Path) -> Image:
    """A card bitmap file as BGRA: designs shipped as one PNG per card."""
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise RuntimeError(f"could not decode {path}")
    return as_bgra(u8(img))


def trim(bgra: Image) -> Image:
    """The card alone: its visible pixels' bounding box (files pad it unevenly)."""
    ys, xs = np.nonzero(bgra[..., 3] > ALPHA_MIN)
    if not len(xs):
        raise RuntimeError("the card rendered blank")
    return bgra[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def _split(bgra: Image) -> tuple[Image, Image]:
    """BGR over white (what the camera sees of a card's corners) and the alpha."""
    alpha = np.ascontiguousarray(bgra[..., 3])
    a = alpha.astype(np.float32)[..., None] / 255.0
    bgr = (bgra[..., :3].astype(np.float32) * a + 255.0 * (1 - a)).astype(np.uint8)
    bgr.setflags(write=False)
    alpha.setflags(write=False)
    return bgr, alpha


class PreRenderedDeck:
    """A deck drawn whole when opened (an SVG design): per card code, and
    ``"back"``, the face over white and its alpha, from ``raw`` BGRA images."""

    def __init__(self, raw: dict[str, Image]) -> None:
        self._faces = {k: _split(v) for k, v in raw.items()}

    def face(self, code: str) -> Image:
        return self._faces[parse_code(code)][0]

    def back(self) -> Image:
        return self._faces["back"][0]

    def mask(self, code: str | None) -> Image:
        return self._faces["back" if code is None else parse_code(code)][1]


class GnomeDeck(PreRenderedDeck):
    """A gnome-cards-data design as a :class:`hardware_sim.cards.Deck`."""

    def __init__(self, name: str, *, width: int = 250) -> None:
        self.name = name
        self.width = width
        self.info = info(name)
        super().__init__(render_design(name, width=width))

    def must_be_unsure(self, code: str) -> bool:
        return must_be_unsure(self.name, code)


__all__ = [
    "DESIGNS",
    "SUITS",
    "DesignInfo",
    "GnomeDeck",
    "available",
    "cache_dir",
    "families",
    "info",
    "list_designs",
    "must_be_unsure",
    "render_design",
]
