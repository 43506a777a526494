"""Synthetic card faces set in TrueType fonts, for training the generic glyph model.

The printed decks we can tune on share a handful of index typefaces; a deck
nobody has seen may use any other.  These faces put the index in the training
fonts (:data:`FONTS`, the DejaVu and Liberation faces the generic model has
been trained on since issue 18; with ``--more-fonts`` also :data:`MORE_FONTS`,
faces from 13 more Debian font packages, and index widths varied), at random
sizes, weights, slants and spacings, with the suit sign below it and the same
index turned half a turn in the opposite corner, as printed cards do.  They are
drawn as SVG and rendered with ``rsvg-convert`` (Debian ``librsvg2-bin``,
which the gnome designs need anyway).  Used only offline by
``build_generic_profile.py``; nothing here ships.

Only :data:`TRAINING_FONT_FAMILIES` (and with ``--more-fonts``
:data:`MORE_FONT_FAMILIES`) are ever drawn: ``rsvg-convert`` runs under
a fontconfig that knows nothing but their files
(``hardware_sim.cards.truetype.isolated_fonts``), so a font package installed
later (the fresh held-out font decks, ``vision_split.FRESH_HELD_OUT``) can
neither be picked for a family nor lend a glyph the training fonts lack; and a
training family that is missing raises instead of being substituted.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware_sim.cards.truetype import FontMissing, font_files, install_hint, isolated_fonts

W, H = 250, 350
SUIT_SIGNS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
#: signs that are not a French suit: what a German, Swiss or odd deck may show
#: (no diamond-like four-pointed star, no heavy heart: those are French suits)
FOREIGN_SIGNS = ("\u2605", "\u25cf", "\u25a0", "\u25b2", "\u273f", "\u2618", "\u266a",
                 "\u2600", "\u271a", "\u2740", "\u269c", "\u263c")
#: index letters that are not a standard rank (German, Swiss, Italian, French,
#: Russian courts, and other letters a deck may print)
FOREIGN_RANKS = ("B", "D", "U", "O", "X", "V", "R", "F", "H", "C", "P", "E", "L", "N", "W",
                 "M", "T", "1", "0", "\u0414", "\u0411", "\u0416", "\u0428", "\u041b",
                 "\u0413", "\u0418", "\u0412", "\u0422", "Ob", "Un", "As")
LABEL = {"T": "10"}
#: share of faces whose index text is scaled horizontally, and the scale's range
WIDEN_SHARE = 0.5
WIDTHS = (0.75, 1.15)


@dataclass(frozen=True)
class FontStyle:
    family: str
    weight: str = "normal"
    italic: bool = False


def _svg(label: str, sign: str, colour: str, st: FontStyle, rng: np.random.Generator,
         sign_image: str | None = None, text_attrs: str = "", *, widen: bool = False) -> str:
    """One face; ``sign_image`` (a data URI) draws the suit sign instead of the
    font's glyph (``vision_suitdeck``), ``text_attrs`` are added to the index text;
    ``widen`` (``--more-fonts``) may scale the index text horizontally (it draws
    from ``rng`` only then, so the faces without it draw as before)."""
    fs = float(rng.uniform(0.13, 0.18) * W)
    cx = float(rng.uniform(0.075, 0.1) * W)
    top = float(rng.uniform(0.035, 0.06) * W)
    base = top + 0.73 * fs
    pip = float(rng.uniform(0.65, 0.95) * fs)
    pip_y = base + float(rng.uniform(0.08, 0.2)) * fs + 0.8 * pip
    slant = ' font-style="italic"' if st.italic else ""
    squeeze = ""
    if len(label) > 1:
        span = float(rng.uniform(0.13, 0.18) * W)
        squeeze = f' textLength="{span:.1f}" lengthAdjust="spacingAndGlyphs"'
    text = (
        f'<text x="{cx:.1f}" y="{base:.1f}" font-size="{fs:.1f}" text-anchor="middle"'
        f' font-family="{st.family}" font-weight="{st.weight}"{slant}{squeeze}{text_attrs}>'
        f"{label}</text>"
    )
    # half the faces set the index narrower or wider than the face was cut
    # (about its centre line), so the narrow and wide cuts of every trained
    # face are seen, not only the widths the font packages happen to ship
    if widen and rng.random() < WIDEN_SHARE:
        sx = float(rng.uniform(*WIDTHS))
        text = f'<g transform="matrix({sx:.3f} 0 0 1 {cx * (1 - sx):.2f} 0)">{text}</g>'
    if sign_image is None:
        index = text + (
            f'<text x="{cx:.1f}" y="{pip_y:.1f}" font-size="{pip:.1f}" text-anchor="middle"'
            f' font-family="DejaVu Sans">{sign}</text>'
        )
    else:  # the glyph's box: about as tall as the font's sign at that size
        side = 0.8 * pip
        index = text + (
            f'<image x="{cx - side / 2:.1f}" y="{pip_y - 0.8 * pip:.1f}" width="{side:.1f}"'
            f' height="{side:.1f}" href="{sign_image}"/>'
        )
    paper = int(rng.integers(236, 256))
    radius = float(rng.uniform(8, 16))
    if sign_image is None:
        body = (f'<text x="{W / 2}" y="{H / 2 + 35}" font-size="{rng.uniform(80, 120):.0f}" '
                f'text-anchor="middle" font-family="DejaVu Sans">{sign}</text>')
    else:
        big = float(rng.uniform(60, 90))
        body = (f'<image x="{W / 2 - big / 2:.1f}" y="{H / 2 - big / 2:.1f}" width="{big:.1f}"'
                f' height="{big:.1f}" href="{sign_image}"/>')
    if rng.random() < 0.5:
        body += (f'<rect x="{W * 0.22:.0f}" y="{H * 0.18:.0f}" width="{W * 0.56:.0f}" '
                 f'height="{H * 0.64:.0f}" fill="none" stroke="{colour}" stroke-width="2"/>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}">'
        f'<rect x="0" y="0" width="{W}" height="{H}" rx="{radius:.1f}" '
        f'fill="rgb({paper},{paper},{paper - int(rng.integers(0, 8))})"/>'
        f'<g fill="{colour}">{index}<g transform="rotate(180 {W / 2} {H / 2})">{index}</g>'
        f"{body}</g></svg>"
    )


def _colour(suit: str, rng: np.random.Generator, four_colour: bool) -> str:
    if four_colour and suit == "D":
        return f"rgb({rng.integers(0, 40)},{rng.integers(40, 110)},{rng.integers(150, 220)})"
    if four_colour and suit == "C":
        return f"rgb({rng.integers(0, 40)},{rng.integers(110, 150)},{rng.integers(20, 60)})"
    if suit in "DH":
        return f"rgb({rng.integers(170, 230)},{rng.integers(0, 40)},{rng.integers(10, 50)})"
    g = int(rng.integers(0, 50))
    return f"rgb({g},{g},{g + int(rng.integers(0, 10))})"


def font_families(more: int = 0) -> tuple[str, ...]:
    """The families a build may draw: ``more`` 0 the default build's, 1 also
    :data:`MORE_FONT_FAMILIES` (``--more-fonts``), 2 also
    :data:`EXTRA_FONT_FAMILIES` (``--extra-rank-fonts``), 3 also
    :data:`READ_FONT_FAMILIES` (``--read-font-glyphs``), 4 also
    :data:`TWENTIETH_FONT_FAMILIES` (``--read-font-glyphs --tier 4``), 5 also
    :data:`READ_FONT_FAMILIES_3` (``--tier 5``)."""
    return (TRAINING_FONT_FAMILIES + (MORE_FONT_FAMILIES if more >= 1 else ())
            + (EXTRA_FONT_FAMILIES if more >= 2 else ())
            + (READ_FONT_FAMILIES if more >= 3 else ())
            + (TWENTIETH_FONT_FAMILIES if more >= 4 else ())
            + (READ_FONT_FAMILIES_3 if more >= 5 else ()))


def training_font_files(more: int = 0) -> list[str]:
    """The files of :func:`font_families`; FontMissing if one is not installed."""
    files: set[str] = set()
    for family in font_families(more):
        found = [f.file for f in font_files(family)]
        if not found:
            raise FontMissing(f"training font {family!r} is not installed; "
                              f"{install_hint(family)}")
        files.update(found)
    return sorted(files)


def render(svgs: list[str], more: int = 0) -> list[np.ndarray]:
    """BGRA faces via rsvg-convert, drawn with the training fonts only (the
    fontconfig knows the ``more`` families only when asked: a glyph a face lacks
    must not be borrowed from them in the default build)."""
    out = []
    with (tempfile.TemporaryDirectory() as tmp,
          isolated_fonts(training_font_files(more)) as env):
        for i, svg in enumerate(svgs):
            src, dst = Path(tmp) / f"{i}.svg", Path(tmp) / f"{i}.png"
            src.write_text(svg, encoding="utf-8")
            subprocess.run(["rsvg-convert", "-o", str(dst), str(src)], check=True,
                           capture_output=True, timeout=60, env=env)
            img = cv2.imread(str(dst), cv2.IMREAD_UNCHANGED)
            if img is None or img.ndim != 3 or img.shape[2] != 4:
                raise RuntimeError(f"rsvg-convert gave no RGBA image for {src}")
            out.append(np.asarray(img, np.uint8))
    return out


def font_faces(
    st: FontStyle, rng: np.random.Generator, *, foreign: bool = False, four_colour: bool = False,
    more: int = 0,
) -> list[tuple[np.ndarray, np.ndarray, str, str]]:
    """``(face_bgr, alpha, rank_label, suit_label)`` for one font; labels are ``?``
    for foreign marks.  Standard faces: the 52 cards; foreign: letters over a mix
    of French and foreign signs.  ``more``: the ``--more-fonts`` build (index
    widths varied, :data:`MORE_FONT_FAMILIES` known to fontconfig; 2:
    :data:`EXTRA_FONT_FAMILIES` too)."""
    items: list[tuple[str, str, str, str]] = []  # text, sign, rank label, suit label
    if not foreign:
        for s in "CDHS":
            for r in "A23456789TJQK":
                items.append((LABEL.get(r, r), SUIT_SIGNS[s], r, s))
    else:
        for label in FOREIGN_RANKS:
            s = "CDHS"[int(rng.integers(0, 4))]
            if rng.random() < 0.5:
                items.append((label, SUIT_SIGNS[s], "?", s))
            else:
                items.append((label, FOREIGN_SIGNS[int(rng.integers(0, len(FOREIGN_SIGNS)))],
                              "?", "?"))
        for sign in FOREIGN_SIGNS:
            r = "A23456789TJQK"[int(rng.integers(0, 13))]
            items.append((LABEL.get(r, r), sign, r, "?"))
    svgs = [_svg(t, sign, _colour(sl if sl != "?" else "S", rng, four_colour), st, rng,
                 widen=more > 0) for t, sign, _, sl in items]
    out = []
    for img, (_, _, rl, sl) in zip(render(svgs, more), items, strict=True):
        alpha = img[:, :, 3]
        a = alpha[..., None].astype(np.float32) / 255
        bgr = (img[:, :, :3].astype(np.float32) * a + 255 * (1 - a)).astype(np.uint8)
        out.append((bgr, alpha, rl, sl))
    return out


#: The only fonts the shipped generic model is trained on: the DejaVu and
#: Liberation families (Debian fonts-dejavu-core, fonts-dejavu-extra,
#: fonts-liberation), the only ones installed when it was trained.  Named
#: explicitly so that installing any other font can never leak it into training.
#: "DejaVu Math TeX Gyre" is never asked for by name, but it was installed, so
#: fontconfig could have drawn a sign the others lack with it; it stays so the
#: faces are drawn as they were.
TRAINING_FONT_FAMILIES = (
    "DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Sans Light", "DejaVu Sans Mono",
    "DejaVu Serif", "DejaVu Serif Condensed", "DejaVu Math TeX Gyre",
    "Liberation Sans", "Liberation Sans Narrow", "Liberation Serif", "Liberation Mono",
)
#: Eleventh pass (``build_generic_profile.py --more-fonts``; a candidate model,
#: NOT shipped, see docs/vision.md "Eleventh pass"): families from 13 more Debian
#: font packages, condensed and tall first.  Never a held-out face
#: (``vision_split.FRESH_HELD_OUT``) nor a clone of one: no URW, TeX Gyre, Nimbus,
#: Noto, Open Sans, Caladea, Century Schoolbook, Palatino, Bookman or Avant Garde
#: look-alike; nor a face of ``vision_split.FONT_STRESS``.
MORE_FONT_FAMILIES = (
    # condensed and tall (Debian fonts-yanone-kaffeesatz, fonts-paratype,
    # fonts-roboto-unhinted, fonts-dosis)
    "Yanone Kaffeesatz", "PT Sans Narrow", "Roboto Condensed", "Dosis",
    # serif and slab (fonts-linuxlibertine, fonts-ebgaramond, fonts-sil-gentiumplus,
    # fonts-roboto-slab, fonts-paratype)
    "Linux Libertine O", "EB Garamond", "Gentium Plus", "Roboto Slab", "PT Serif",
    # humanist and geometric sans (fonts-lato, fonts-cantarell, fonts-go,
    # fonts-comfortaa, fonts-cabin)
    "Lato", "Cantarell", "Go", "Comfortaa", "Cabin",
)
#: the index fonts of the training faces (suit signs: "DejaVu Sans"); the
#: validation run of build_generic_profile.py leaves out Liberation Serif
#: (regular, upright): ``VAL_GROUPS``
FONTS = (
    FontStyle("DejaVu Sans"), FontStyle("DejaVu Sans", "bold"),
    FontStyle("DejaVu Serif"), FontStyle("DejaVu Serif", "bold"),
    FontStyle("DejaVu Sans Mono", "bold"), FontStyle("DejaVu Sans Condensed"),
    FontStyle("DejaVu Serif Condensed", "bold"), FontStyle("DejaVu Sans", "normal", True),
    FontStyle("Liberation Sans"), FontStyle("Liberation Sans", "bold"),
    FontStyle("Liberation Serif"), FontStyle("Liberation Serif", "bold"),
    FontStyle("Liberation Mono"), FontStyle("Liberation Sans Narrow", "bold"),
    FontStyle("Liberation Serif", "normal", True), FontStyle("DejaVu Sans Light"),
)
#: with ``--more-fonts``, drawn after :data:`FONTS` (so every earlier source
#: draws as without it)
MORE_FONTS = (
    FontStyle("Yanone Kaffeesatz"), FontStyle("Yanone Kaffeesatz", "bold"),
    FontStyle("PT Sans Narrow"), FontStyle("PT Sans Narrow", "bold"),
    FontStyle("Roboto Condensed"), FontStyle("Roboto Condensed", "bold"),
    FontStyle("Dosis", "bold"),
    FontStyle("Linux Libertine O"), FontStyle("EB Garamond"),
    FontStyle("Gentium Plus", "bold"), FontStyle("Roboto Slab", "bold"), FontStyle("PT Serif"),
    FontStyle("Lato", "bold"), FontStyle("Cantarell"), FontStyle("Go"),
    FontStyle("Comfortaa", "bold"), FontStyle("Cabin"),
)


#: Fifteenth pass (``build_generic_profile.py --extra-rank-fonts``, the rank
#: classifier only; docs/vision.md "Fifteenth pass"): eight more faces from seven
#: more Debian packages, chosen after the seventh held-out group's read showed
#: condensed faces weakest (OSP-DIN) and before the eighth group was drawn or
#: read.  Condensed and narrow first.  Never a held-out face nor a clone of one:
#: no DIN, highway gothic (Overpass, Roadgeek, Interstate), Oxygen, Junction,
#: Cardo, Yrsa, Comic, Tuffy or Baskerville look-alike; nor a FONT_STRESS face.
EXTRA_FONT_FAMILIES = (
    # condensed and narrow (fonts-league-mono, fonts-osifont)
    "League Mono Condensed", "League Mono Narrow", "osifont",
    # sans, rounded, square and monospaced (fonts-karla, fonts-quicksand, fonts-play,
    # fonts-courier-prime, fonts-anonymous-pro)
    "Karla", "Quicksand", "Play", "Courier Prime", "Anonymous Pro",
)
#: with ``--extra-rank-fonts``, drawn after :data:`MORE_FONTS`
EXTRA_FONTS = (
    FontStyle("League Mono Condensed"), FontStyle("League Mono Narrow", "bold"),
    FontStyle("osifont"), FontStyle("Karla", "bold"), FontStyle("Quicksand", "bold"),
    FontStyle("Play", "bold"), FontStyle("Courier Prime"), FontStyle("Anonymous Pro", "bold"),
)


#: Eighteenth pass (``build_generic_profile.py --read-font-glyphs``, the rank
#: networks only; docs/vision.md "Eighteenth pass"): the faces of the held-out
#: font groups that have been read once and reported (``vision_split``'s
#: FRESH_HELD_OUT and TYPEFACE_HELD_OUT to TYPEFACE5_HELD_OUT), in the weights
#: they were read in.  Their figures were taken before any training on them;
#: from now on they are training faces, and the eleventh group
#: (``TYPEFACE6_HELD_OUT``, made before this list) is what a new face gets.
READ_FONTS = (
    # the fresh group
    FontStyle("C059", "bold"), FontStyle("P052"), FontStyle("URW Bookman"),
    FontStyle("URW Gothic"), FontStyle("Nimbus Sans Narrow", "bold"), FontStyle("Noto Serif"),
    FontStyle("Open Sans", "bold"), FontStyle("Caladea"),
    # the sixth group
    FontStyle("CMU Serif", "bold"), FontStyle("Old Standard TT"),
    FontStyle("Junicode Two Beta"), FontStyle("League Spartan", "bold"),
    FontStyle("Manrope", "bold"), FontStyle("Andika"), FontStyle("B612", "bold"),
    FontStyle("JetBrains Mono", "bold"),
    # the seventh
    FontStyle("Inter", "bold"), FontStyle("Charis SIL", "bold"), FontStyle("Fira Code", "bold"),
    FontStyle("Quattrocento"), FontStyle("Clear Sans", "bold"),
    FontStyle("Tiresias Signfont", "bold"), FontStyle("GFS Didot", "bold"), FontStyle("OSP-DIN"),
    # the eighth
    FontStyle("Oxygen-Sans", "bold"), FontStyle("Junction"),
    FontStyle("Roadgeek 2014 Series C"), FontStyle("Cardo", "bold"), FontStyle("Yrsa", "bold"),
    FontStyle("Comic Neue", "bold"), FontStyle("Tuffy", "bold"),
    FontStyle("Baskervald ADF Std", "bold"),
    # the ninth
    FontStyle("Accanthis ADF Std", "bold"), FontStyle("Libris ADF Std", "bold"),
    FontStyle("Universalis ADF Std", "bold"), FontStyle("Irianis ADF Std", "bold"),
    FontStyle("Prociono"), FontStyle("GFS Neohellenic", "bold"),
    FontStyle("BetecknaGSCondensed", "bold"), FontStyle("Berenis ADF Pro", "bold"),
    # the tenth
    FontStyle("Tribun ADF Std", "bold"), FontStyle("Fanwood Text"),
    FontStyle("Goudy Bookletter 1911"), FontStyle("Verana Sans", "bold"),
    FontStyle("Romande ADF Std", "bold"), FontStyle("Averia Sans GWF", "bold"),
    FontStyle("mononoki", "bold"), FontStyle("Ikarius ADF Std", "bold"),
)
READ_FONT_FAMILIES = tuple(dict.fromkeys(st.family for st in READ_FONTS))

#: Twentieth pass (``build_generic_profile.py --read-font-glyphs --tier 4``, the
#: rank networks only; docs/vision.md "Twentieth pass"): the faces of the
#: eleventh to thirteenth groups, read once and reported since the eighteenth
#: pass, in the weights they were read in, but for the two development decks
#: (``vision_split.DEVELOPMENT``: Oldania ADF Std, Solothurn), which stay out so
#: that a change can still be judged on them, and TypoScript (no digits: its
#: numbers are boxes).  The fourteenth group (``TYPEFACE9_HELD_OUT``, made
#: before this list) is what a new face gets.
READ_FONTS_2 = (
    # the eleventh group (TYPEFACE6_HELD_OUT)
    FontStyle("ElstobD", "bold"), FontStyle("Linden Hill"), FontStyle("OCR B"),
    FontStyle("Monoid", "bold"), FontStyle("Fantasque Sans Mono", "bold"),
    FontStyle("OpenDyslexic", "bold"), FontStyle("Humor Sans"),
    # the twelfth (TYPEFACE7_HELD_OUT)
    FontStyle("Dustismo"), FontStyle("Dustismo Roman", "bold"),
    FontStyle("Mekanus ADF Std", "bold"), FontStyle("Essays1743"), FontStyle("Inconsolata"),
    FontStyle("IBM 3270"), FontStyle("Agave", "bold"),
    # the thirteenth (TYPEFACE8_HELD_OUT)
    FontStyle("Hermit", "bold"), FontStyle("monofur"), FontStyle("Cherry Bomb"),
    FontStyle("Breip"), FontStyle("Delphine"), FontStyle("MPH 2B Damase"),
    FontStyle("Quercus", "bold"),
)
#: and faces never read nor held out, from Debian packages installed for the
#: twentieth pass after the fourteenth group was made (none a cousin of its
#: faces): the display, script and handwritten kinds the thirteenth read found
#: unsure, and a few text faces.  Chosen by name and package; each draws every
#: index label (``fontdeck.undrawn_label``).
TWENTIETH_FONTS = (
    FontStyle("eurofurence", "bold"), FontStyle("Routed Gothic"), FontStyle("Caslon", "bold"),
    FontStyle("Cupola"), FontStyle("GWMonospace", "bold"), FontStyle("STIXGeneral", "bold"),
    FontStyle("Isabella"), FontStyle("femkeklaver"), FontStyle("Ecolier_court"),
    FontStyle("Tomson Talks"), FontStyle("Dancing Script", "bold"), FontStyle("Kaushan Script"),
    FontStyle("StayPuft"), FontStyle("Rufscript"), FontStyle("Le Murmure", "bold"),
    FontStyle("Compagnon"), FontStyle("Lemonada", "bold"), FontStyle("GFS Artemisia", "bold"),
    FontStyle("Summersby"), FontStyle("Train One"), FontStyle("Leckerli One"),
    FontStyle("National Park", "bold"), FontStyle("Engadget"),
)
TWENTIETH_FONT_FAMILIES = tuple(dict.fromkeys(st.family for st in READ_FONTS_2 + TWENTIETH_FONTS))

#: Twenty-ninth pass (``build_generic_profile.py --read-font-glyphs --tier 5``,
#: the rank networks only; docs/vision.md "Twenty-ninth pass"): the faces of the
#: fourteenth to twenty-first groups, read once and reported, in the weights
#: they were read in: the display, pixel, brush and hand-lettered faces whose
#: every frame the networks called "not a standard index".  The kept-out decks
#: and the development decks stay out, so a change can still be judged on them;
#: the twenty-second group (``TYPEFACE17_HELD_OUT``, made before this list) is
#: what a new face gets.
READ_FONTS_3 = (
    # the fourteenth group (TYPEFACE9_HELD_OUT)
    FontStyle("Berenika", "bold"), FontStyle("UnBatang", "bold"), FontStyle("Arapey"),
    FontStyle("NanumGothic", "bold"), FontStyle("BIZ UDGothic", "bold"),
    FontStyle("M PLUS 1", "bold"), FontStyle("Garuda", "bold"), FontStyle("okolaks", "bold"),
    # the fifteenth group (TYPEFACE10_HELD_OUT)
    FontStyle("IPAMincho"), FontStyle("Baekmuk Batang"), FontStyle("GNUTypewriter"),
    FontStyle("Sawarabi Gothic"), FontStyle("Manjari", "bold"), FontStyle("Gayathri", "bold"),
    FontStyle("Gemunu Libre", "bold"), FontStyle("Meera Inimai"),
    # the sixteenth group (TYPEFACE11_HELD_OUT)
    FontStyle("Klee One", "bold"), FontStyle("MotoyaLMaru"), FontStyle("Uroob"),
    FontStyle("AR PL UMing CN"), FontStyle("Dyuthi"), FontStyle("BM DoHyeon"),
    FontStyle("Oradano-mincho-GSRR"), FontStyle("cwTeXHeiBold"),
    # the seventeenth group (TYPEFACE12_HELD_OUT)
    FontStyle("Kinnari", "bold"), FontStyle("D2Coding"), FontStyle("Radis Sans"),
    FontStyle("Solide Mirage"), FontStyle("Apropal"), FontStyle("RocknRoll One"),
    FontStyle("Konatu"), FontStyle("TriodPostnaja"),
    # the eighteenth group (TYPEFACE13_HELD_OUT)
    FontStyle("Millimetre"), FontStyle("Blankenburg_UNZ1A"), FontStyle("Campania"),
    FontStyle("DkgHandwriting"), FontStyle("Stick"), FontStyle("Yusei Magic"),
    FontStyle("Havana"), FontStyle("Reggae One"),
    # the nineteenth group (TYPEFACE14_HELD_OUT)
    FontStyle("Crystal"), FontStyle("GFS Theokritos"), FontStyle("IM FELL DW Pica"),
    FontStyle("KouzanBrushFont"), FontStyle("DSEG14 Classic"), FontStyle("Jekyll BRK"),
    FontStyle("Larkspur BRK"), FontStyle("Aegean"),
    # the twentieth group (TYPEFACE15_HELD_OUT)
    FontStyle("Fantasma"), FontStyle("Purisa"), FontStyle("Jessen"),
    FontStyle("Nanum Brush Script"), FontStyle("UnPilgi"), FontStyle("Gidugu"),
    # the twenty-first group (TYPEFACE16_HELD_OUT)
    FontStyle("Ferrite Core DX"), FontStyle("BabelStone Modern"), FontStyle("YOzS"),
    FontStyle("Because We Learn"), FontStyle("Because We Build"), FontStyle("Unifont"),
    FontStyle("MisakiGothic"),
)
READ_FONT_FAMILIES_3 = tuple(dict.fromkeys(st.family for st in READ_FONTS_3))


def fonts(more: int = 0) -> tuple[FontStyle, ...]:
    """The index faces of a build (``more`` as in :func:`font_families`)."""
    return (FONTS + (MORE_FONTS if more >= 1 else ()) + (EXTRA_FONTS if more >= 2 else ())
            + (READ_FONTS if more >= 3 else ())
            + (READ_FONTS_2 + TWENTIETH_FONTS if more >= 4 else ())
            + (READ_FONTS_3 if more >= 5 else ()))


assert {st.family for st in FONTS} <= set(TRAINING_FONT_FAMILIES), "a FONTS family is not trained"
assert {st.family for st in MORE_FONTS} <= set(MORE_FONT_FAMILIES)
assert {st.family for st in EXTRA_FONTS} <= set(EXTRA_FONT_FAMILIES)
assert not set(READ_FONT_FAMILIES) & {st.family for st in FONTS + MORE_FONTS + EXTRA_FONTS}
assert not set(TWENTIETH_FONT_FAMILIES) & {st.family for st in fonts(3)}
assert not set(READ_FONT_FAMILIES_3) & {st.family for st in fonts(4)}
