"""Card faces from bitmap decks shipped inside a PyPI wheel or a Debian package.

Some packages carry a whole deck as one small PNG per card: Kenney's playing
cards in the ``arcade`` wheel's resources, PokerTH's decks in Debian's
``pokerth-data``.  None of them was installed while the recogniser was trained
or tuned, so the new art among them makes a fifth held-out group
(``benchmarks/vision_split.py``, ``BITMAP_HELD_OUT``); the rest is catalogued
here, with why it was left out, so that the split can refuse it.

Neither package is *installed*: :func:`install` downloads the pinned file with
its registry's own client (``pip download --no-deps``, ``apt-get download``),
checks its sha256, and unpacks only the card folder and the licence into
``.cache/cards/<pypi|deb>/<name>-<version>/`` (``scripts/test.sh`` and
``scripts/bench_fonts.sh`` run ``python -m hardware_sim.cards.bitmapdeck
install``).  A card is its PNG decoded, trimmed to its visible pixels and
scaled to one size per deck (``gnome.one_size``); faces are cached on disk like
the gnome designs' (``PONTOON_CACHE_DIR``).

PokerTH numbers its cards 0..51: ``13 * suit + rank``, suits diamonds, hearts,
spades, clubs and ranks 2..10, J, Q, K, A (its ``CardsValue`` convention).
Checked on the images' ink colour alone: in ``default4c`` cards 0..12 are blue,
13..25 red, 26..38 black and 39..51 green (the four-colour convention:
diamonds blue, clubs green), in ``default`` 0..25 red and 26..51 black; in
every block of 13 the 10th to 12th hold the courts' extra colours and the
ink of the first nine grows with the pip count.

Example::

    from hardware_sim.cards import open_deck
    deck = open_deck("deb:pokerth-800x480")   # 250 px wide BGR faces, like the gnome decks
    face = deck.face("QH")
    alpha = deck.mask("QH")                   # 255 on the card, 0 outside its corners

Environment: ``PONTOON_BITMAP_CARDS_DIR`` (default ``.cache/cards`` of the checkout).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
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

PREFIXES = ("pypi:", "deb:")
MARKER = "SOURCE.json"  # written last by install(): the unpacked folder is whole
_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Package:
    """One pinned package file and the parts of it a deck needs: ``keep``
    (folders or files inside the archive, unpacked) and the card art's licence."""

    registry: str  # "pypi" or "deb"
    name: str
    version: str
    file: str
    sha256: str
    keep: tuple[str, ...]
    licence: str

    @property
    def spec(self) -> str:
        return f"{self.name}=={self.version}" if self.registry == "pypi" \
            else f"{self.name}={self.version}"


ARCADE = Package(
    "pypi", "arcade", "3.3.3", "arcade-3.3.3-py3-none-any.whl",
    "25f4e0e5b8bcbe7a7d087c0a23b19e9f423b0c70ec00945c8712c9a3e541ebd2",
    ("arcade/resources/assets/images/cards/", "arcade/resources/assets/images/License.txt"),
    "MIT code; card art CC0-1.0, Kenney's (kenney.nl) Playing Cards Pack")
POKERTH = Package(
    "deb", "pokerth-data", "1.1.2-2", "pokerth-data_1.1.2-2_all.deb",
    "31d05d13544d970134a59b6934a81a3264983b58da92a8890fd4ac04648d3f78",
    ("usr/share/games/pokerth/gfx/cards/", "usr/share/doc/pokerth-data/copyright"),
    "default: GFDL-1.2+ or public domain, Wikimedia Commons user Xiong's "
    "'Poker (cards deck)'; the rest AGPL-3+, the PokerTH team")


@dataclass(frozen=True)
class BitmapDesign:
    """Where a design's card files are in its unpacked package (``naming``:
    ``kenney`` card<Suit><Rank>.png, ``pokerth`` N.png, see :func:`file_name`)."""

    package: Package
    folder: str
    naming: str
    back: str
    info: DesignInfo


_KENNEY_SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
_POKERTH_SUITS = "DHSC"
_POKERTH_RANKS = (*RANKS[1:], RANKS[0])  # 2..K, then the ace
_POKERTH = "usr/share/games/pokerth/gfx/cards"

# Compared with every gnome, KDE and npm design by the correlation of AS, QS,
# KD and JH (2026-12-03; none above 0.58, where the same art gives 0.95), and
# by their licence and credits.  The layouts were found from the ink's
# connected parts (where the rank, the suit sign and the pips lie), not by eye.
DESIGNS: dict[str, BitmapDesign] = {
    "pypi:kenney": BitmapDesign(
        ARCADE, "arcade/resources/assets/images/cards", "kenney", "cardBack_blue2.png",
        DesignInfo("kenney", note="140 x 190 px bitmaps; rank over suit top-left, "
                                  "turned bottom-right; a ten's first pips 1 px from its index")),
    "deb:pokerth": BitmapDesign(
        POKERTH, f"{_POKERTH}/default", "pokerth", "flipside.png",
        DesignInfo("pokerth_xiong", note="48 x 76 px bitmaps; a big index (a fifth of the "
                                         "card's height) top-left and turned bottom-right, "
                                         "the pips or court in a small framed window")),
    "deb:pokerth-4c": BitmapDesign(
        POKERTH, f"{_POKERTH}/default4c", "pokerth", "flipside.png",
        DesignInfo("pokerth_xiong", four_color=True,
                   note="pokerth with diamonds blue, clubs green")),
    "deb:pokerth-800x480": BitmapDesign(
        POKERTH, f"{_POKERTH}/default_800x480", "pokerth", "flipside.png",
        DesignInfo("pokerth_phone", note="made for an 800 x 480 screen: the rank a third of "
                                         "the card's height and the suit under it fill the "
                                         "left from top to 70 % down, the pips in a box "
                                         "bottom-right; no turned index")),
}


class BitmapDecksMissing(LookupError):
    """A package's card folder is not unpacked; the message has the install line."""


def packages_dir() -> Path:
    """Where the packages are unpacked (``<registry>/<name>-<version>/``)."""
    return Path(os.environ.get("PONTOON_BITMAP_CARDS_DIR", str(_ROOT / ".cache" / "cards")))


def install_line() -> str:
    return f".venv/bin/python -m hardware_sim.cards.bitmapdeck install --prefix {packages_dir()}"


def parse_name(name: str) -> str:
    """``"deb:pokerth"`` as it is (the registry prefix is part of the name);
    refuses a name with no design."""
    prefix = next((p for p in PREFIXES if name.startswith(p)), None)
    if prefix is None or len(name) == len(prefix):
        raise ValueError(f"not a bitmap deck name: {name!r} (expected 'pypi:<design>' "
                         "or 'deb:<design>')")
    return name


def is_bitmap_deck(name: str) -> bool:
    return name.startswith(PREFIXES)


def package_folder(package: Package) -> Path:
    return packages_dir() / package.registry / f"{package.name}-{package.version}"


def installed(package: Package) -> bool:
    """True if the package's parts are unpacked from the pinned file."""
    meta = package_folder(package) / MARKER
    if not meta.is_file():
        return False
    seen = json.loads(meta.read_text(encoding="utf-8"))
    return bool(seen.get("sha256") == package.sha256 and seen.get("version") == package.version)


def _all_packages() -> list[Package]:
    return sorted({d.package for d in DESIGNS.values()}, key=lambda p: p.name)


def missing(designs: list[str] | tuple[str, ...] | None = None) -> list[Package]:
    """The packages of ``designs`` (default: all catalogued) not unpacked."""
    names = list(designs) if designs is not None else list(DESIGNS)
    wanted = {DESIGNS[n].package for n in names if n in DESIGNS}
    return sorted((p for p in wanted if not installed(p)), key=lambda p: p.name)


def design(name: str) -> BitmapDesign:
    """The catalogue entry of ``name``; refuses an unknown design, or a package
    not unpacked (with the install line)."""
    if name not in DESIGNS:
        raise LookupError(f"unknown bitmap card design {name!r}; known: "
                          f"{', '.join(sorted(DESIGNS))}")
    entry = DESIGNS[name]
    if not installed(entry.package):
        raise BitmapDecksMissing(
            f"{entry.package.registry} package {entry.package.spec} is not unpacked in "
            f"{packages_dir()}: {install_line()}")
    return entry


def info(name: str) -> DesignInfo:
    entry = DESIGNS.get(name)
    return entry.info if entry else DesignInfo(name.replace(":", "_"), note="not catalogued")


def must_be_unsure(name: str, code: str) -> bool:
    """True if card ``code`` of ``name`` prints no standard index."""
    return parse_code(code)[0] in info(name).nonstandard_ranks


def file_name(entry: BitmapDesign, code: str) -> str:
    """The file of card ``code`` (``"TC"`` -> ``cardClubs10.png``, PokerTH ``48.png``)."""
    rank, suit = parse_code(code)[0], parse_code(code)[1]
    if entry.naming == "kenney":
        return f"card{_KENNEY_SUITS[suit]}{'10' if rank == 'T' else rank}.png"
    if entry.naming == "pokerth":
        return f"{13 * _POKERTH_SUITS.index(suit) + _POKERTH_RANKS.index(rank)}.png"
    raise ValueError(f"unknown naming {entry.naming!r}")


def card_file(name: str, code: str | None) -> Path:
    """The file of card ``code`` (the back if None) of design ``name``."""
    entry = design(name)
    folder = package_folder(entry.package) / entry.folder
    path = folder / (entry.back if code is None else file_name(entry, code))
    if not path.is_file():
        raise LookupError(f"bitmap card design {name!r}: {path} is missing")
    return path


@cache
def _code_digest() -> str:
    return hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:10]


def _cache_folder(name: str, width: int) -> Path:
    entry = DESIGNS[name]
    where = package_folder(entry.package).resolve()
    key = hashlib.sha1(f"{where}|{entry.package.sha256}|{_code_digest()}".encode()).hexdigest()
    return cache_dir() / f"{name.replace(':', '-')}-{key[:10]}" / str(width)


def render_design(name: str, *, width: int = 250) -> dict[str, Image]:
    """All 52 faces and the back (key ``"back"``) as BGRA ``width`` px wide,
    all one height (the median aspect); decoded once, then read from the cache."""
    design(name)  # refuses an unknown design or a missing package

    def draw() -> dict[str, Image]:
        return one_size({k: trim(read_png(card_file(name, None if k == "back" else k)))
                         for k in FACE_KEYS}, width)

    return cached_faces(_cache_folder(name, width), draw, width=width)


class BitmapDeck(PreRenderedDeck):
    """A bitmap design as a :class:`hardware_sim.cards.Deck`."""

    def __init__(self, name: str, *, width: int = 250) -> None:
        self.name = parse_name(name)
        self.width = width
        self.entry = design(self.name)  # refuses a missing package / unknown design
        self.info = self.entry.info
        self.cache_folder = _cache_folder(self.name, width)
        super().__init__(render_design(self.name, width=width))

    def must_be_unsure(self, code: str) -> bool:
        return must_be_unsure(self.name, code)


# --- installing: download the pinned file, check it, unpack the card folders ---


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _kept(package: Package, member: str) -> bool:
    member = member.removeprefix("./")
    return any(member == k or (k.endswith("/") and member.startswith(k)) for k in package.keep)


def _members(package: Package, archive: Path) -> Iterator[tuple[str, bytes]]:
    """(path, bytes) of the kept regular files of a wheel or a .deb."""
    if package.registry == "pypi":
        with zipfile.ZipFile(archive) as zf:
            for info_ in zf.infolist():
                if not info_.is_dir() and _kept(package, info_.filename):
                    yield info_.filename, zf.read(info_)
        return
    proc = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(archive)], capture_output=True,
                          check=False, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"dpkg-deb could not read {archive}: {proc.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tf:
        for m in tf.getmembers():
            if m.isfile() and _kept(package, m.name):
                data = tf.extractfile(m)
                assert data is not None
                yield m.name.removeprefix("./"), data.read()


def unpack(package: Package, archive: Path) -> Path:
    """Check ``archive`` against the pin and unpack its kept parts into
    :func:`package_folder` (replacing what was there); the marker goes last."""
    got = sha256_of(archive)
    if got != package.sha256:
        raise RuntimeError(f"{archive.name}: sha256 {got}, pinned {package.sha256} "
                           f"({package.spec}): not the file the decks were checked on")
    target = package_folder(package)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    count = 0
    for member, data in _members(package, archive):
        out = (partial / member).resolve()
        if not out.is_relative_to(partial.resolve()):
            raise RuntimeError(f"{archive.name}: {member} points outside the folder")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        count += 1
    if not count:
        raise RuntimeError(f"{archive.name}: none of {package.keep} in it")
    (partial / MARKER).write_text(json.dumps({"name": package.name, "version": package.version,
                                              "sha256": got, "file": package.file}) + "\n",
                                  encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(partial, target)
    return target


def _download(package: Package, into: Path) -> Path:
    """The package's file fetched by its registry's client into ``into``."""
    if package.registry == "pypi":
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
               "--disable-pip-version-check", "--dest", str(into), package.spec]
    else:
        cmd = ["apt-get", "download", "-q", package.spec]
    proc = subprocess.run(cmd, cwd=into, capture_output=True, text=True, check=False, timeout=900)
    if proc.returncode != 0 and package.registry == "deb" and os.geteuid() == 0:
        # a fresh machine has no package lists yet
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False,
                       timeout=900)
        proc = subprocess.run(cmd, cwd=into, capture_output=True, text=True, check=False,
                              timeout=900)
    path = into / package.file
    if proc.returncode != 0 or not path.is_file():
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    return path


def install(packages: list[Package] | None = None) -> list[Path]:
    """Download, check and unpack ``packages`` (default: every catalogued one
    not unpacked yet); returns the folders unpacked."""
    done = []
    for package in packages if packages is not None else missing():
        with tempfile.TemporaryDirectory() as tmp:
            done.append(unpack(package, _download(package, Path(tmp))))
    return done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="unpack the pinned bitmap card packages")
    ap.add_argument("command", choices=("install", "check"))
    ap.add_argument("--prefix", type=Path, help="instead of PONTOON_BITMAP_CARDS_DIR")
    args = ap.parse_args(argv)
    if args.prefix is not None:
        os.environ["PONTOON_BITMAP_CARDS_DIR"] = str(args.prefix)
    if args.command == "install":
        for folder in install():
            print(f"unpacked {folder}")
    left = missing()
    for p in left:
        print(f"missing: {p.registry} {p.spec}", file=sys.stderr)
    return 1 if left else 0


__all__ = [
    "DESIGNS",
    "BitmapDeck",
    "BitmapDecksMissing",
    "BitmapDesign",
    "Package",
    "card_file",
    "design",
    "file_name",
    "info",
    "install",
    "install_line",
    "installed",
    "is_bitmap_deck",
    "missing",
    "must_be_unsure",
    "packages_dir",
    "parse_name",
    "render_design",
    "unpack",
]

if __name__ == "__main__":
    raise SystemExit(main())
