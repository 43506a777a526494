"""Which card designs vision may be tuned on, and which are held out.

Whole design *families* (designs sharing drawings, per
``hardware_sim.cards.gnome.DESIGNS``) are either tuning or held out, so the
held-out figures say what a deck nobody looked at would get.  The built-in
OpenCV styles are tuning designs too, except ``four_color`` (its font, Hershey
COMPLEX, and its blue/green inks are kept out of the generic model's training).

:data:`FRESH_HELD_OUT` is a second held-out group, made when every design of
the first had been read: font decks (``hardware_sim.cards.fontdeck``) in
typefaces from Debian font packages that were not installed while anything was
trained or tuned.  ``fresh_missing`` says which of its fonts are missing and
the ``apt-get install`` line that adds them (``scripts/bench_fonts.sh``).

:data:`KDE_HELD_OUT` is a third held-out group: KDE's decks
(``hardware_sim.cards.kdedeck``, Debian ``kdegames-card-data-kf5``), new art
only (the KDE designs that redraw a gnome design are left out).

:data:`NPM_HELD_OUT` is a fourth: card art published on the npm registry
(``hardware_sim.cards.npmdeck``, ``npm:<design>``), pinned packages installed
into ``.cache/cards`` (``npm_missing`` gives the ``npm install`` line).

:data:`BITMAP_HELD_OUT` is a fifth: bitmap decks shipped inside a PyPI wheel
and a Debian package (``hardware_sim.cards.bitmapdeck``, ``pypi:<design>``,
``deb:<design>``), the pinned files unpacked into ``.cache/cards``
(``bitmap_missing`` gives the install line).

:data:`TYPEFACE_HELD_OUT` is a sixth: font decks, like the fresh group, in
typefaces from eight more Debian font packages (``fresh_missing`` covers it).

:data:`TYPEFACE2_HELD_OUT` is a seventh, made like the sixth when it had been
read, to measure the thirteenth pass's model and last tries; and
:data:`TYPEFACE3_HELD_OUT` an eighth, made when the seventh had been read;
:data:`TYPEFACE4_HELD_OUT` a ninth, made when the eighth had been read, and
:data:`TYPEFACE5_HELD_OUT` a tenth, made when the ninth had been read, and
:data:`TYPEFACE6_HELD_OUT` an eleventh, made when the tenth had been read, and
:data:`TYPEFACE7_HELD_OUT` a twelfth, made when the eleventh had been read;
:data:`TYPEFACE8_HELD_OUT` a thirteenth, made when the twelfth had been read.
"""

from __future__ import annotations

import argparse
import sys

from hardware_sim.cards import CARD_CODES, Deck, bitmapdeck, kdedeck, lowres, npmdeck, open_deck
from hardware_sim.cards.fontdeck import parse_name, undrawn_label
from hardware_sim.cards.gnome import info, must_be_unsure
from hardware_sim.cards.truetype import FONT_PACKAGES, FontFile, FontMissing, find_font

TUNING_FAMILIES = ("anglo", "paris", "neoclassical", "ornamental", "plastic", "tango",
                   "orell", "german_patterns")
TUNING = (
    "builtin:classic", "builtin:modern", "builtin:duplex",
    "anglo", "gnomangelo", "bellot", "paris", "neoclassical", "ornamental", "plastic",
    "tango", "orell", "berlin", "lattmann", "rheinland", "anglo_bitmap",
)
#: Validation designs (issue 18's three-way split): tuning designs the generic
#: classifier is NOT trained on, read to choose the model and its thresholds.
#: Whole families (tango, plastic) and the built-in ``duplex`` style, whose
#: Hershey DUPLEX font is left out of training too.
VALIDATION_FAMILIES = ("tango", "plastic")
VALIDATION = ("builtin:duplex", "tango", "plastic")
#: (``tango_nuevo``, of the tango family, prints rank and suit side by side and its
#: big pip cuts the card outline: a layout the reader does not handle; not trained
#: on, not measured)
#: Training designs: the tuning designs minus the validation ones.
TRAINING_FAMILIES = tuple(f for f in TUNING_FAMILIES if f not in VALIDATION_FAMILIES)
TRAINING = tuple(n for n in TUNING if n not in VALIDATION)
#: Held-out designs with standard indices (all or most cards).
HELD_OUT = ("atlasnye", "anglo_modern", "anglo_poker", "dondorf", "simplistic", "tigullio",
            "guyenne-classic", "anglo_modern_4_color", "builtin:four_color")
#: Held-out designs whose indices are mostly non-standard: negatives.
HELD_OUT_NEGATIVE = ("atlasnye_skat", "Атласные", "swiss-xvii", "tarocco", "slavic_costumes")
#: FRESH held-out group, made on 2026-12-02 when every design above had been read:
#: the built-in classic face with its indices set in fonts from four Debian
#: packages that were not installed while the generic model was trained or any
#: threshold chosen (only DejaVu and Liberation were; training drew from those
#: alone, ``vision_fontdeck.TRAINING_FONT_FAMILIES``; the eleventh pass's
#: ``--more-fonts`` candidate adds faces from other Debian packages, none of them
#: these nor a clone of them).
#: Chosen for a spread of index shapes: book serifs of different build (C059 =
#: Century Schoolbook, bold; P052 = Palatino, calligraphic; URW Bookman, light and wide; Noto Serif;
#: Caladea, Cambria-like), a geometric sans (URW Gothic = Avant Garde, circle-round
#: "Q" and "C"), a condensed grotesque (Nimbus Sans Narrow bold) and a humanist
#: sans (Open Sans bold); regular, light and bold weights.  FreeSerif and
#: FreeSans were left out: Times and Helvetica clones, too near the Liberation
#: faces that are trained on.
#: READ ONCE, at the end (``--fresh`` of in_shoe_bench.py and vision_fuse.py);
#: never tune, train or choose anything on it.  Its cards are all standard.
FRESH_HELD_OUT = (
    "font:C059/bold",               # fonts-urw-base35
    "font:P052",                    # fonts-urw-base35
    "font:URW Bookman",             # fonts-urw-base35
    "font:URW Gothic",              # fonts-urw-base35
    "font:Nimbus Sans Narrow/bold",  # fonts-urw-base35
    "font:Noto Serif",              # fonts-noto-core
    "font:Open Sans/bold",          # fonts-open-sans
    "font:Caladea",                 # fonts-crosextra-caladea
)

#: Typeface stress decks (eleventh pass, 2026-12-03): font decks
#: (``hardware_sim.cards.fontdeck``) in faces from Debian font packages that are
#: kept OUT of training (never in ``vision_fontdeck.TRAINING_FONT_FAMILIES``) and
#: were chosen before the eleventh pass's candidate was trained, for the shapes the
#: unseen-deck failure has: tall condensed capitals (Bebas Neue, all caps, very
#: tall and narrow), a condensed humanist sans (Gillius ADF No2 Cond, Gill Sans
#: like, bold), a squarish technical sans (Jura) and an old-style book serif
#: (Vollkorn, bold).  Unlike FRESH_HELD_OUT this is not a held-out group: it is
#: read like validation (old against new model) to see whether more training
#: faces help faces never trained on, but nothing was chosen or tuned on it.
#: Fonts: ``scripts/bench_fonts.sh``.
FONT_STRESS = (
    "font:Bebas Neue",                  # fonts-bebas-neue
    "font:Gillius ADF No2 Cond/bold",   # fonts-adf-gillius
    "font:Jura",                        # fonts-jura
    "font:Vollkorn/bold",               # fonts-vollkorn
)

#: KDE held-out group, made on 2026-12-02: designs from Debian's
#: ``kdegames-card-data-kf5`` (``kde:<design>``), a package never installed while
#: the generic model was trained or any threshold chosen.  Each design was
#: rendered and compared by eye with every gnome-cards-data design; the ones that
#: are the same art are left out: ``dondorf`` (= gnome dondorf), ``gm-paris``
#: (= paris), ``nicu-ornamental`` and ``nicu-white`` (= ornamental, the latter on
#: white paper), ``tigullio-international`` (= tigullio; only the paper shading
#: and back differ).  Left out as well, with their layouts:
#: ``oxygen``, ``oxygen-air``, ``oxygen-white`` print the rank alone at the top
#: right and the suit alone at the top left, no turned index (like tango_nuevo,
#: a layout the reader does not handle; oxygen also has light ink on red/black
#: paper); ``future`` is not a playing-card face (landscape "chips" with a hex
#: digit 0..C and a bit pattern, no suit sign).
#: Kept, all with standard A 2..10 J Q K indices in French suits:
#: ``ancient-egyptians`` (its bottom-right index is upright, suit over rank),
#: ``jolly-royal``, ``konqi-modern`` (72 x 96 px bitmaps scaled up; four colours:
#: hearts green, spades red, clubs blue, diamonds teal), ``penguins`` (heavy
#: index close to the outline: a wide Q or 10 touches the card's border line),
#: ``standard`` (KDE's pixel-style courts, not anglo's).
#: READ ONCE, at the end (``--kde`` of in_shoe_bench.py and vision_fuse.py);
#: never tune, train or choose anything on it.
KDE_HELD_OUT = (
    "kde:ancient-egyptians",
    "kde:jolly-royal",
    "kde:konqi-modern",
    "kde:penguins",
    "kde:standard",
)
#: KDE negatives (same rules): ``xskat-german`` has German suits (acorns,
#: leaves, hearts, bells) and D/U/O/K ranks, every card non-standard;
#: ``xskat-french`` has French suits but B/D/K courts (its J and Q are
#: negatives) and indices in all four corners (72 x 112 px bitmaps).
KDE_HELD_OUT_NEGATIVE = ("kde:xskat-german", "kde:xskat-french")

#: npm held-out group, made on 2026-12-03: card art from packages on the npm
#: registry (``npm:<design>``, ``hardware_sim.cards.npmdeck``), none installed
#: while the generic model was trained or any threshold chosen.  Every candidate
#: was rendered and compared by eye with the gnome tuning designs, and with every
#: gnome and KDE design by the correlation of its AS, QS, KD and JH (the held-out
#: designs' images were not looked at) and by the SVG source.  Left out:
#: ``svg-cards`` 4.0.2 (David Bellot's SVG-cards = gnome ``bellot``, a TRAINING
#: design: same courts, correlation 0.95); ``@heruka_urgyen/react-playing-cards``
#: 0.5.0 (``npm:kennard``, ``kennard-4color``, ``kennard-big``) and
#: ``@letele/playing-cards`` 0.1.0 (React components of the same SVGs): Adrian
#: Kennard's cards, whose court paths and index glyphs are gnome ``anglo_poker``'s
#: (the first held-out group; there drawn with heavier strokes);
#: ``@younestouati/playing-cards-standard-deck`` 3.0.0: the same art as cardsJS
#: (Chris Aguilar's, paths redrawn; correlation 0.96), and its 4 of spades draws
#: both of its layouts at once (a big "4" over the pips) outside the page's CSS;
#: ``deck-of-cards`` 0.1.8: Aguilar's faces with no rank index (the page draws
#: it), a layout the reader does not handle and whose right answer is unclear
#: (the pips still count a number card); ``react-playing-cards`` 0.6.3 and
#: ``@auroratide/playing-card`` 0.1.1: cards built by HTML and CSS in the browser,
#: no card image in the package; ``@adamfratino/playing-cards`` 0.1.1: 4:5 icons,
#: a big rank alone top-left and one suit sign bottom-right (like KDE's oxygen,
#: a layout the reader does not handle).
#: Kept: ``cardsjs`` (cardsJS 1.1.1, MIT; art LGPL-3.0, Chris Aguilar's
#: Vectorized Playing Cards 1.3): standard A 2..10 J Q K indices in French suits,
#: top-left and turned bottom-right, a serif "10".  No negatives.
#: READ ONCE, at the end (``--npm`` of in_shoe_bench.py and vision_fuse.py);
#: never tune, train or choose anything on it.
NPM_HELD_OUT = ("npm:cardsjs",)

#: Bitmap held-out group (the fifth), made on 2026-12-03 when every group above
#: had been read: decks shipped as one PNG per card inside a PyPI wheel and a
#: Debian package, neither installed while the generic model was trained or any
#: threshold chosen (``hardware_sim.cards.bitmapdeck``; the pinned files are
#: downloaded, checked by sha256 and unpacked into ``.cache/cards``).  Candidates:
#: the ``arcade`` 3.3.3 wheel's resources (Kenney's playing cards, CC0), Debian
#: ``pokerth-data`` 1.1.2-2 (three decks), ``pygame-cards`` 0.2.0 (PyPI) and
#: Debian ``ace-of-penguins``, ``xsol`` and ``lskat-data``.  Each deck was compared
#: with every gnome, KDE and npm design by the correlation of its AS, QS, KD and
#: JH (none above 0.58; the same art gives 0.95) and by its credits; the
#: candidates' images were not looked at: PokerTH's card numbering was found from
#: the ink's colour (four blocks of 13 in one suit; in the four-colour deck
#: diamonds blue, clubs green), the layouts from where the ink's connected parts
#: lie.  Left out: ``deb:pokerth-800x480`` (PokerTH 1.0's deck for an 800 x 480
#: screen): the rank a third of the card's height with the suit under it, filling
#: the left side from the top to 70 % down, the pips in a box bottom-right and no
#: turned index (like KDE's oxygen, a layout the reader does not handle);
#: ``pygame-cards``: no card image (faces drawn by code; one back PNG);
#: ``ace-of-penguins``: its faces are put together at run time from the rank and
#: suit glyph strips among the 16 PNGs inside ``libcards.so``, no card image;
#: ``xsol``: draws its cards; ``lskat-data``: table backgrounds only (its cards
#: are KDE's decks).
#: Kept, all with standard A 2..10 J Q K indices in French suits, top-left and
#: turned bottom-right: ``pypi:kenney`` (Kenney's Playing Cards Pack, 140 x 190 px
#: bitmaps on white paper, the courts one picture for both suits of a
#: colour; a ten's first pips 1 px from its index); ``deb:pokerth`` (Wikimedia
#: Commons user Xiong's "Poker (cards deck)", GFDL-1.2+ or public domain: 48 x 76
#: px, scaled up five times; a big index, a fifth of the card's height, and the
#: pips or court in a small framed window) and ``deb:pokerth-4c`` (the same with
#: diamonds blue and clubs green; one family with ``deb:pokerth``, grey correlation
#: 1.00, as anglo_modern_4_color is anglo_modern's).  No negatives.
#: READ ONCE, at the end (``--bitmap`` of in_shoe_bench.py and vision_fuse.py);
#: never tune, train or choose anything on it.
BITMAP_HELD_OUT = ("pypi:kenney", "deb:pokerth", "deb:pokerth-4c")

#: Typeface held-out group (the sixth), made on 2026-12-03 when every group above
#: had been read: font decks, like FRESH_HELD_OUT (the built-in classic face with
#: its indices set in the font), in faces from eight Debian packages installed
#: that day, after the eleventh pass; none is trained on (the training builder's
#: fontconfig knows ``vision_fontdeck.TRAINING_FONT_FAMILIES`` and, with
#: ``--more-fonts``, ``MORE_FONT_FAMILIES`` only), none is a clone of a trained
#: face (Hack, DejaVu Sans Mono's descendant, was left out for that), and none
#: was drawn or looked at before its read.  Chosen, before any image, for a spread
#: of index shapes the earlier groups lack: a didone book serif (CMU Serif, Knuth's
#: Computer Modern, bold), a 19th-century high-contrast serif with hairlines (Old
#: Standard TT), an old-style serif after a 17th-century type (Junicode), a heavy
#: geometric sans (League Spartan bold), a geometric grotesque (Manrope bold), a
#: reading sans with single-storey forms (SIL Andika), an open, squarish display
#: sans made for cockpit screens (B612 bold) and a monospace (JetBrains Mono bold,
#: a "1" with a flag and foot, a slashed-free "0" in "10").  Like the fresh group
#: it is easier than new card art: the pips, courts and suit signs are the
#: classic face's, which training has seen; what it measures is new index type.
#: READ ONCE, at the end (``--typefaces`` of in_shoe_bench.py and vision_fuse.py);
#: never tune, train or choose anything on it.  Its cards are all standard.
TYPEFACE_HELD_OUT = (
    "font:CMU Serif/bold",          # fonts-cmu
    "font:Old Standard TT",         # fonts-oldstandard
    "font:Junicode Two Beta",       # fonts-junicode
    "font:League Spartan/bold",     # fonts-league-spartan
    "font:Manrope/bold",            # fonts-manrope
    "font:Andika",                  # fonts-sil-andika
    "font:B612/bold",               # fonts-b612
    "font:JetBrains Mono/bold",     # fonts-jetbrains-mono
)

#: Second typeface held-out group (the seventh), made on 2026-12-03 after the
#: thirteenth pass had shipped (its rank classifier, trained on the
#: ``MORE_FONT_FAMILIES`` too, and the last tries), because no unread group was
#: left to measure them: font decks like TYPEFACE_HELD_OUT, in faces from eight
#: Debian packages installed that day, after everything was chosen; none is
#: trained on, none is a clone of a trained face (OSP-DIN is DIN 1451, not
#: Roboto or Cantarell), and none was drawn or looked at before its read (the
#: dry run, which lists each deck's font file, showed Courier Prime and National
#: Park resolving to a bold italic and an outline file, their packages' style
#: names being wrong: both were replaced before anything was drawn).
#: Chosen, before any image, for index shapes common on printed decks: a
#: neo-grotesque sans (Inter bold), a Charter-like book serif (Charis SIL bold),
#: a monospace with a slab "1" (Fira Code bold), a classical roman (Quattrocento),
#: a humanist grotesque (Clear Sans bold), a wide, open signage sans made for
#: low vision (Tiresias Signfont bold), a Didone
#: with ball terminals (GFS Didot bold) and the condensed engineering sans of
#: road signs and jumbo-index decks (OSP-DIN).  Like the other font groups it
#: is easier than new card art (the classic face's pips, courts and suit signs).
#: READ ONCE, at the end (``--typefaces2`` of in_shoe_bench.py and vision_fuse.py);
#: never tune, train or choose anything on it.  Its cards are all standard.
TYPEFACE2_HELD_OUT = (
    "font:Inter/bold",              # fonts-inter
    "font:Charis SIL/bold",         # fonts-sil-charis
    "font:Fira Code/bold",          # fonts-firacode
    "font:Quattrocento",            # fonts-quattrocento
    "font:Clear Sans/bold",         # fonts-clear-sans
    "font:Tiresias Signfont/bold",  # fonts-tiresias
    "font:GFS Didot/bold",          # fonts-gfs-didot
    "font:OSP-DIN",                 # fonts-opendin
)

#: Third typeface held-out group (the eighth), made on 2026-12-03 in the
#: fourteenth pass, when the seventh had been read and no unread group was
#: left: font decks like TYPEFACE2_HELD_OUT, in faces from eight Debian
#: packages installed that day and never installed before; none is trained on,
#: none is a clone of a trained face, none is a face of an earlier group, and
#: none was drawn or looked at before its read (the dry run showed Sora's files
#: giving fontconfig weights 0 to 36, so no bold: it was replaced by Junction
#: before anything was drawn).  Chosen, before any image, for index shapes
#: common on printed decks and for the seventh read's weak spot: a humanist UI
#: sans (Oxygen Sans bold), a light-stroked humanist sans (Junction), the
#: condensed highway gothic of road signs (Roadgeek 2014 Series C, the DIN-like
#: case), an old-style book serif (Cardo bold), a contemporary text serif (Yrsa
#: bold), a casual hand-drawn sans as on children's decks (Comic Neue bold), a
#: plain grotesque (Tuffy bold) and a transitional Baskerville (Baskervald ADF
#: Std bold).  READ ONCE, at the end (``--typefaces3`` of in_shoe_bench.py and
#: vision_fuse.py); never tune, train or choose anything on it.  Its cards are
#: all standard.
TYPEFACE3_HELD_OUT = (
    "font:Oxygen-Sans/bold",               # fonts-oxygen
    "font:Junction",                       # fonts-junction
    "font:Roadgeek 2014 Series C",         # fonts-roadgeek
    "font:Cardo/bold",                     # fonts-cardo
    "font:Yrsa/bold",                      # fonts-yrsa-rasa
    "font:Comic Neue/bold",                # fonts-comic-neue
    "font:Tuffy/bold",                     # fonts-tuffy
    "font:Baskervald ADF Std/bold",        # fonts-adf-baskervald
)


#: Fourth typeface held-out group (the ninth), made on 2026-12-04 after the
#: fifteenth pass, when the eighth had been read and no unread group was left,
#: for the next change to the recogniser: font decks like TYPEFACE3_HELD_OUT, in
#: faces from eight Debian packages installed that day and never trained on;
#: none is trained on (nor among the fifteenth pass's extra faces), none is a
#: clone of a trained face, none is a face of an earlier group, and none was
#: drawn or looked at before its read (fonts-cascadia-code, first chosen, has
#: no installation candidate here; M+ 1 comes as a variable font the renderer
#: may not weight; the dry run showed Allerta's regular face to be its stencil
#: cut: replaced by Berenis, Beteckna and Irianis before anything was drawn).
#: Chosen, before any image, for index shapes common on printed decks and for
#: what the overhead camera still misses: an old-style serif (Accanthis ADF Std
#: bold), a flared humanist sans (Libris ADF Std bold), a Univers-like grotesque
#: (Universalis ADF Std bold), a face of the same foundry chosen by name only
#: (Irianis ADF Std bold), a warm text serif (Prociono), a humanist sans from a
#: Greek foundry (GFS Neohellenic bold), a condensed geometric sans
#: (BetecknaGSCondensed bold) and a book serif (Berenis ADF Pro bold).  READ
#: ONCE, at the end (``--typefaces4`` of in_shoe_bench.py and vision_fuse.py);
#: never tune, train or choose anything on it.  Its cards are all standard.
TYPEFACE4_HELD_OUT = (
    "font:Accanthis ADF Std/bold",         # fonts-adf-accanthis
    "font:Libris ADF Std/bold",            # fonts-adf-libris
    "font:Universalis ADF Std/bold",       # fonts-adf-universalis
    "font:Irianis ADF Std/bold",           # fonts-adf-irianis
    "font:Prociono",                       # fonts-prociono
    "font:GFS Neohellenic/bold",           # fonts-gfs-neohellenic
    "font:BetecknaGSCondensed/bold",       # fonts-beteckna
    "font:Berenis ADF Pro/bold",           # fonts-adf-berenis
)

#: Fifth typeface held-out group (the tenth), made on 2026-12-04 after the
#: sixteenth pass, when the ninth had been read and no unread group was left,
#: for the next change to the recogniser: font decks like TYPEFACE4_HELD_OUT, in
#: faces from eight Debian packages installed that day and never trained on;
#: none is trained on, none a clone or a look-alike of a trained face (Century
#: Catalogue, first considered, is a Century like URW's C059, and GFS Bodoni
#: and Doulos SIL were passed over as a Didot's and a Times's cousins), none a
#: face of an earlier group, and none was drawn or looked at before its read
#: (fonts-linex, first installed, holds school and phonetic faces; Inconsolata
#: comes in one medium weight: both replaced before anything was drawn).  Chosen
#: for index shapes common on printed decks: a sturdy serif (Tribun ADF Std
#: bold), a Fournier-like text face (Fanwood Text), an old-style book face
#: (Goudy Bookletter 1911), a humanist sans (Verana Sans bold), a Romain du
#: Roi-like serif (Romande ADF Std, demibold), a face averaged from many sans
#: faces (Averia Sans GWF bold), a monospace (mononoki bold) and a face of the
#: ADF foundry chosen by name only (Ikarius ADF Std bold).  READ ONCE, at the
#: end (``--typefaces5`` of in_shoe_bench.py and vision_fuse.py); never tune,
#: train or choose anything on it.  Its cards are all standard.
TYPEFACE5_HELD_OUT = (
    "font:Tribun ADF Std/bold",            # fonts-adf-tribun
    "font:Fanwood Text",                   # fonts-fanwood
    "font:Goudy Bookletter 1911",          # fonts-goudybookletter
    "font:Verana Sans/bold",               # fonts-adf-verana
    "font:Romande ADF Std/bold",           # fonts-adf-romande (its demibold)
    "font:Averia Sans GWF/bold",           # fonts-averia-sans-gwf
    "font:mononoki/bold",                  # fonts-mononoki
    "font:Ikarius ADF Std/bold",           # fonts-adf-ikarius
)

#: Sixth typeface held-out group (the eleventh), made on 2026-12-04 after the
#: seventeenth pass, when the tenth had been read and no unread group was left,
#: for the next change to the recogniser (the eighteenth pass trains on the
#: faces of the groups already read, so this group must share no face with
#: them): font decks like TYPEFACE5_HELD_OUT, in faces from eight Debian
#: packages installed that day and never trained on nor read; none a clone or
#: a cousin of a trained or read face (Switzera ADF, a Helvetica-like grotesque,
#: was passed over as Liberation Sans's cousin; Averia Serif GWF as Averia Sans
#: GWF's; Latin Modern as CMU Serif's), and none drawn or looked at before its
#: read (National Park's regular face loses to its outline file by name, as it
#: did before: not taken).  Chosen for index shapes common on printed decks and
#: for the tenth read's weak glyphs: three old-style book serifs (Oldania ADF Std
#: bold, Elstob bold, Linden Hill, a Goudy revival), a technical sans made for
#: reading machines (OCR-B), a narrow monospace (Monoid bold), a casual
#: monospace (Fantasque Sans Mono bold), a face drawn for dyslexic readers with
#: heavy feet (OpenDyslexic bold) and a hand-drawn comic face as on children's
#: decks (Humor Sans).  READ ONCE, at the end (``--typefaces6`` of
#: in_shoe_bench.py and vision_fuse.py); never tune, train or choose anything
#: on it.  Its cards are all standard.
TYPEFACE6_HELD_OUT = (
    "font:Oldania ADF Std/bold",           # fonts-adf-oldania
    "font:ElstobD/bold",                   # fonts-elstob
    "font:Linden Hill",                    # fonts-lindenhill
    "font:OCR B",                          # fonts-ocr-b
    "font:Monoid/bold",                    # fonts-monoid
    "font:Fantasque Sans Mono/bold",       # fonts-fantasque-sans
    "font:OpenDyslexic/bold",              # fonts-opendyslexic
    "font:Humor Sans",                     # fonts-humor-sans
)

#: Seventh typeface held-out group (the twelfth), made on 2026-12-05 after the
#: eighteenth pass, when the eleventh had been read and no unread group was
#: left, for the next change to the recogniser: font decks like
#: TYPEFACE6_HELD_OUT, in faces from seven Debian packages installed that day
#: (fonts-dustin, fonts-adf-mekanus, fonts-adf-solothurn, fonts-levien-museum,
#: fonts-inconsolata, fonts-3270, fonts-agave), never trained on nor read;
#: none a clone or a cousin of a trained or read face (fonts-uralic, URW's
#: Bookman, Palatino, Avant Garde and Times again, and fonts-ocr-a, OCR-B's
#: sibling, were passed over), and none drawn or looked at before its read.
#: The eleventh read showed that faces chosen by name can be display faces (an
#: uncial "A"); so are some of these, chosen by name and package only: a
#: sans (Dustismo), two faces of the ADF foundry (Mekanus ADF Std bold,
#: Solothurn bold), an old-style face (Essays1743; Museum, chosen first, drew
#: no "10" and stopped the first read attempt before any figure: replaced by
#: name, docs/vision.md), two monospaces (Inconsolata, its one medium weight; Agave bold), a
#: terminal face (IBM 3270) and Dustismo Roman bold, a serif.  READ ONCE, at
#: the end (``--typefaces7`` of in_shoe_bench.py and vision_fuse.py); never
#: tune, train or choose anything on it.  Its cards are all standard.
TYPEFACE7_HELD_OUT = (
    "font:Dustismo",                       # fonts-dustin
    "font:Dustismo Roman/bold",            # fonts-dustin
    "font:Mekanus ADF Std/bold",           # fonts-adf-mekanus
    "font:Solothurn/bold",                 # fonts-adf-solothurn
    "font:Essays1743",                     # fonts-essays1743
    "font:Inconsolata",                    # fonts-inconsolata
    "font:IBM 3270",                       # fonts-3270
    "font:Agave/bold",                     # fonts-agave
)

#: Eighth typeface held-out group (the thirteenth), made on 2026-12-05 after the
#: nineteenth pass, when the twelfth had been read and no unread group was
#: left, for the next change: font decks in faces from eight Debian packages,
#: none trained on, none read, none a clone or a cousin of a trained or read
#: face, chosen by name and package only (fonts-ubuntu and fonts-alegreya-sans,
#: wanted first, have no installation candidate here): two monospaces
#: (Hermit bold, monofur), a rounded display face (Cherry Bomb), two
#: handwritten faces (Breip, Delphine), a typewriter face (TypoScript), a
#: pan-Unicode sans (MPH 2B Damase) and a serif of the Linex project (Quercus
#: bold).  Only the dry run (font files, and that each draws every index
#: label) has been looked at.  READ ONCE, at the end (``--typefaces8`` of
#: in_shoe_bench.py and vision_fuse.py); never tune, train or choose anything
#: on it.  Its cards are all standard.
TYPEFACE8_HELD_OUT = (
    "font:Hermit/bold",                    # fonts-hermit
    "font:monofur",                        # fonts-monofur
    "font:Cherry Bomb",                    # fonts-cherrybomb
    "font:Breip",                          # fonts-breip
    "font:Delphine",                       # fonts-sjfonts
    "font:TypoScript",                     # fonts-levien-typoscript
    "font:MPH 2B Damase",                  # fonts-mph-2b-damase
    "font:Quercus/bold",                   # fonts-linex
)

#: Ninth typeface held-out group (the fourteenth), made on 2026-12-05 at the
#: start of the twentieth pass, before its first change, when the thirteenth
#: had been read and no unread group was left.  The thirteenth read showed that
#: faces chosen by name alone can be handwriting or script; these eight are
#: text faces a card printer would set an index in, chosen by name, package
#: and the font files' charsets only (every index character mapped), from
#: eight Debian packages installed that day, none trained on nor read, none a
#: clone or a cousin of a trained or read face (Century Catalogue, a cousin of
#: the trained C059, STIX and the George Williams Caslon, cousins of Times and
#: of Essays1743, Sora, whose bold file says weight 24, GFS Bodoni Classic,
#: with no Latin capitals, and Allerta and National Park, whose "regular" file
#: is a stencil or an outline, were passed over): two book serifs (Berenika
#: bold, UnBatang bold), a Didone (Arapey), four sans of the kind set on
#: signs and screens (NanumGothic bold, BIZ UDGothic bold, M PLUS 1 bold,
#: Garuda bold) and a wide sans (okolaks bold).  READ ONCE, at the end
#: (``--typefaces9`` of in_shoe_bench.py and vision_fuse.py); never tune,
#: train or choose anything on it.  Its cards are all standard.
TYPEFACE9_HELD_OUT = (
    "font:Berenika/bold",                  # fonts-klaudia-berenika
    "font:UnBatang/bold",                  # fonts-unfonts-core
    "font:Arapey",                         # fonts-arapey
    "font:NanumGothic/bold",               # fonts-nanum
    "font:BIZ UDGothic/bold",              # fonts-morisawa-bizud-gothic
    "font:M PLUS 1/bold",                  # fonts-mplus
    "font:Garuda/bold",                    # fonts-tlwg-garuda-ttf
    "font:okolaks/bold",                   # fonts-okolaks
)

#: Tenth typeface held-out group (the fifteenth), made on 2026-12-05 at the
#: start of the twenty-first pass, before its first change and before any
#: figure of the twentieth pass's networks was opened, when the fourteenth had
#: been read and no unread group was left.  Eight faces a card printer could
#: set an index in, chosen by name, package, the font files' charsets and a
#: sheet of their index labels only, from eight Debian packages installed
#: that day, none trained on nor read, none a clone or a cousin of a trained
#: or read face (Sophia Nubian, a Univers like the trained Universalis ADF,
#: Ume Gothic and VL Gothic, whose Latin is M+'s, Karmilla (Karla), Averia
#: Serif (Averia Sans), Gentium Basic, Charis compact, Latin Modern, TeX Gyre,
#: Noto Sans (Open Sans), Amiri and Abyssinica, whose Latin looks like Times,
#: and LexiGulim, a Baekmuk look-alike, were passed over): two light book
#: serifs from CJK families (IPAMincho, Baekmuk Batang), a worn typewriter
#: face (GNUTypewriter), and five sans: Sawarabi Gothic, a rounded one
#: (Manjari bold), a geometric one (Gayathri bold), a condensed square one
#: (Gemunu Libre bold) and Meera Inimai.  READ ONCE, at the end
#: (``--typefaces10`` of in_shoe_bench.py and vision_fuse.py); never tune,
#: train or choose anything on it.  Its cards are all standard.
TYPEFACE10_HELD_OUT = (
    "font:IPAMincho",                      # fonts-ipafont-mincho
    "font:Baekmuk Batang",                 # fonts-baekmuk
    "font:GNUTypewriter",                  # fonts-gnutypewriter
    "font:Sawarabi Gothic",                # fonts-sawarabi-gothic
    "font:Manjari/bold",                   # fonts-smc-manjari
    "font:Gayathri/bold",                  # fonts-smc-gayathri
    "font:Gemunu Libre/bold",              # fonts-gemunu-libre
    "font:Meera Inimai",                   # fonts-meera-inimai
)

#: Eleventh typeface held-out group (the sixteenth), made on 2026-12-05 at the
#: end of the twenty-first pass, after the fifteenth group's read and before
#: any change of the next pass, so that it has an unread group from its
#: start.  Eight faces from eight Debian packages installed that day, chosen
#: by name, package, the font files' charsets and one sheet of their index
#: labels only (to see a face's kind), none trained on nor read, none a clone
#: or a cousin of a trained or read face (passed over: WenQuanYi Zen Hei and
#: the Khmer OS faces, whose Latin looks borrowed, HanaMin, IPAmj's Latin like
#: the read IPAMincho, Sarai, Nakula, Galatia and Khmer Busra, like Times,
#: Thabit, like the trained Courier Prime, Keraleeyam and Phetsarath, mixed
#: Latin, and the handwriting faces: kiloji, SetoFont, Chilanka, Karumbi, BM
#: Yeonsung; Navilu, Gubbi, Kalapi, LKLUG, Guseul, Samyak and the Kacst faces
#: draw no "A" or "10").  A textbook face (Klee One bold), a rounded
#: monospaced sans (Motoya L Maru), a condensed display sans (Uroob), a light
#: Ming serif (AR PL UMing), a heavy rounded display face (Dyuthi), a heavy
#: display sans (BM DoHyeon), a worn Mincho (Oradano) and a light sans
#: (cwTeX Hei bold).  READ ONCE, at the end of a pass (``--typefaces11``);
#: never tune, train or choose anything on it.  Its cards are all standard.
TYPEFACE11_HELD_OUT = (
    "font:Klee One/bold",                  # fonts-klee
    "font:MotoyaLMaru",                    # fonts-motoya-l-maruberi
    "font:Uroob",                          # fonts-smc-uroob
    "font:AR PL UMing CN",                 # fonts-arphic-uming
    "font:Dyuthi",                         # fonts-smc-dyuthi
    "font:BM DoHyeon",                     # fonts-woowa-bm
    "font:Oradano-mincho-GSRR",            # fonts-oradano-mincho-gsrr
    "font:cwTeXHeiBold",                   # fonts-cwtex-heib
)

#: Twelfth typeface held-out group (the seventeenth), made on 2026-12-05 at the
#: end of the twenty-second pass, after the sixteenth group's read and before
#: any change of the next pass, so that it has an unread group from its
#: start.  Eight faces from eight Debian packages installed that day, chosen
#: by name, package and one sheet of their index labels only (to see a
#: face's kind), none trained on nor read, none a clone or a cousin of a
#: trained or read face (passed over: Bajaderka, a script, and Summersby,
#: whose "10" and "2" stand taller than its other digits; C-64, drawn in
#: scan lines; Smiley Sans, oblique only; UKIJ Qara and Gargi, like Arial;
#: UKIJ Esliye and Tuz Basma, like Times; Loma, Sawasdee and the other Thai
#: TLWG faces, one of them is enough; LXGW WenKai, Klee One's Latin; Motoya
#: L Cedar and MMCedar, cousins of the read Motoya L Maru).  A text serif
#: (Kinnari bold), a monospaced sans (D2Coding), a geometric display sans
#: with a small "k" for K (Radis Sans), a condensed Didone (Solide Mirage),
#: a heavy sign-painter's face (Apropal), a rounded sans (RocknRoll One), a
#: Japanese sans (Konatu) and a Slavonic display face (Triod Postnaja).
#: READ ONCE, at the end of a pass (``--typefaces12``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE12_HELD_OUT = (
    "font:Kinnari/bold",                   # fonts-tlwg-kinnari-ttf
    "font:D2Coding",                       # fonts-naver-d2coding
    "font:Radis Sans",                     # fonts-radisnoir
    "font:Solide Mirage",                  # fonts-solide-mirage
    "font:Apropal",                        # fonts-apropal
    "font:RocknRoll One",                  # fonts-rocknroll
    "font:Konatu",                         # fonts-konatu
    "font:TriodPostnaja",                  # fonts-triod-postnaja
)

#: Thirteenth typeface held-out group (the eighteenth), made on 2026-12-05 at
#: the end of the twenty-third pass, after the seventeenth group's read and
#: before any change of the next pass, so that it has an unread group from
#: its start.  Eight faces from eight Debian packages installed that day,
#: chosen by name, package and one sheet of their index labels only (to see
#: a face's kind), none trained on nor read, none a clone or a cousin of a
#: trained or read face (passed over: Averia GWF, Gentium, Cabin Sketch,
#: Monoid, Andika and Inter, kin of trained or read faces; Gamaliel, a second
#: blackletter; Joscelyn, whose swash "A" and "Q" no deck prints; DotGothic16,
#: drawn in pixels; Kristi, no upright regular face; Fust & Schoeffer, which
#: names a foundry and drew no face of its own).  A square geometric sans
#: (Millimetre), a blackletter (Blankenburg), an old-style serif whose
#: figures stand at x-height (Campania), a handwriting (DKG Handwriting), a
#: face built of sticks (Stick), a marker face (Yusei Magic), an upright
#: script (Havana) and a heavy brush display (Reggae One).
#: READ ONCE, at the end of a pass (``--typefaces13``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE13_HELD_OUT = (
    "font:Millimetre",                     # fonts-millimetre
    "font:Blankenburg_UNZ1A",              # fonts-blankenburg
    "font:Campania",                       # fonts-campania
    "font:DkgHandwriting",                 # fonts-dkg-handwriting
    "font:Stick",                          # fonts-stick
    "font:Yusei Magic",                    # fonts-yusei-magic
    "font:Havana",                         # fonts-havana
    "font:Reggae One",                     # fonts-reggae
)

#: Fourteenth typeface held-out group (the nineteenth), made on 2026-12-05 in
#: the twenty-fourth pass, before the eighteenth group's read, so that the
#: next pass has an unread group from its start.  Eight faces from seven
#: Debian packages installed that day, chosen by name, package and one sheet
#: of their index labels only (to see a face's kind and that its letters are
#: its own), none trained on nor read, none a clone or a cousin of a trained
#: or read face (passed over: GFS Olga, Gazis and Solomos, RichStyle,
#: Euterpe and the ldco faces, whose letters fall back to another font;
#: Rampart One, kin of Reggae One and RocknRoll One; Komatuna, Konatu's;
#: LexiSaebom, Lexi's; Shimenkan, Charis's; Tagmukay and Sahadeva, Times';
#: Mingzat, Andika's; Aoyagi Soseki and Aoyagi Kouzan T, whose Latin is
#: Kouzan's; Glass TTY, drawn in scan lines; Great Vibes, whose script
#: capitals no deck prints; Time Roman and Cyrvetica, clones; Mona, whose
#: Latin may be M+'s).  A plain monospaced sans with a slashed zero
#: (Crystal), a high-contrast Greek display serif (GFS Theokritos), a
#: seventeenth-century old-style serif (IM FELL DW Pica), a Japanese brush
#: hand (Kouzan), a fourteen-segment display face (DSEG14 Classic), a
#: distressed serif (Jekyll), an art-nouveau sans (Larkspur, Jekyll's
#: package) and a light geometric sans (Aegean).
#: READ ONCE, at the end of a pass (``--typefaces14``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE14_HELD_OUT = (
    "font:Crystal",                        # fonts-povray
    "font:GFS Theokritos",                 # fonts-gfs-theokritos
    "font:IM FELL DW Pica",                # fonts-cegui
    "font:KouzanBrushFont",                # fonts-kouzan-mouhitsu
    "font:DSEG14 Classic",                 # fonts-dseg
    "font:Jekyll BRK",                     # fonts-aenigma
    "font:Larkspur BRK",                   # fonts-aenigma
    "font:Aegean",                         # fonts-ancient-scripts
)

#: Fifteenth typeface held-out group (the twentieth), made on 2026-12-05 in
#: the twenty-fifth pass, before the nineteenth group's read, so that the
#: next pass has an unread group from its start.  Eight faces from seven
#: Debian packages installed that day (UnPilgi's package was installed
#: before, for UnBatang), chosen by name, package and one sheet of their
#: index labels only (to see a face's kind and that its letters are its
#: own), none trained on nor read, none a clone or a cousin of a trained or
#: read face (passed over: Cabin Sketch, Averia Serif GWF and Gentium, kin
#: of trained faces; Tlwg Typist, Courier's kin; Umpush and Sawasdee, Thai
#: TLWG faces beside Purisa; AnjaliOldLipi, Ezra SIL, Aboriginal Serif and
#: Akatab, whose Latin falls back to another font; Rusch and Hamlet, Jessen's
#: package; Nanum Pen Script, Nanum Brush Script's; UnGungseo, UnShinmun,
#: UnPen and UnTaza, UnBatang's kin or Times'; GFS Didot, Symbola and
#: Mandali, like Times; Nuosu SIL, Charis's Latin; Zaghawa Beria, whose A, J
#: and K are Beria letters; the IndUni faces, clones; MMCedar, like
#: Fantasma; UniOl, the Ethiopic faces and the other Telugu faces).  A
#: condensed sans with a slashed zero (Fantasma), a Thai designer's Latin
#: handwriting (Purisa), a fifteenth-century type between gothic and roman
#: (Jessen), a Korean brush hand (Nanum Brush Script), a Korean calligraphic
#: script (UnPilgi), a wide heavy sans and a quirky display serif from a
#: Telugu collection (Gidugu, LakkiReddy) and a condensed Greek polyglot
#: serif (GFS Complutum).  LakkiReddy (no Latin letters) and GFS Complutum (no
#: digits) were dropped at the read's start, before anything was drawn or
#: read: the benchmarks refused them (``undrawn_label``); the group's
#: making had missed it.
#: READ ONCE, at the end of a pass (``--typefaces15``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE15_HELD_OUT = (
    "font:Fantasma",                       # fonts-fantasma
    "font:Purisa",                         # fonts-tlwg-purisa-ttf
    "font:Jessen",                         # fonts-gotico-antiqua
    "font:Nanum Brush Script",             # fonts-nanum-extra
    "font:UnPilgi",                        # fonts-unfonts-core
    "font:Gidugu",                         # fonts-teluguvijayam
)

#: Sixteenth typeface held-out group (the twenty-first), made on 2026-12-05 in
#: the twenty-sixth pass, before the twentieth group's read, so that the
#: next pass has an unread group from its start.  Seven faces from six
#: Debian packages installed that day, chosen by name, package and one sheet
#: of their index labels only (to see a face's kind and that its letters are
#: its own), none trained on nor read, none a clone or a cousin of a trained
#: or read face (passed over: GFS Baskerville, GFS Porson, GFS Didot Classic,
#: LKLUG, Homa and Dejima, no Latin letters or no digits; Lobster Two and
#: Titr, no upright regular face; Ubuntu Title, lower case only; Amiga and
#: C-64, drawn in scan lines; F500, whose A, Q and K are no letters a deck
#: prints; YOzA, YOzS's kin; Because We Create, a third face of one package;
#: IPAex Gothic and Mincho, IPA's kin; MigMix and Migu, M+'s Latin; BabelStone
#: Han, like Times; the Khmer OS faces, Latin borrowed; Atari, Misaki's twin;
#: Tomson Talks, trained in the twentieth pass).  An angular display sans
#: (Ferrite Core DX), a square-cut display sans (BabelStone Modern), a thin
#: Japanese handwriting (YOzS), a heavy marker hand and a condensed pen hand
#: (Because We Learn, Because We Build), and two pixel faces, a 16-pixel one
#: (Unifont) and an 8-pixel one (MisakiGothic).
#: READ ONCE, at the end of a pass (``--typefaces16``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE16_HELD_OUT = (
    "font:Ferrite Core DX",           # fonts-ferrite-core
    "font:BabelStone Modern",         # fonts-babelstone-modern
    "font:YOzS",                      # fonts-yozvox-yozfont-standard-kana
    "font:Because We Learn",          # fonts-bwht
    "font:Because We Build",          # fonts-bwht
    "font:Unifont",                   # fonts-unifont
    "font:MisakiGothic",              # fonts-misaki
)

#: Seventeenth typeface held-out group (the twenty-second), made on 2026-12-05
#: at the end of the twenty-seventh pass, before the twenty-first group's
#: read, so that the next pass has an unread group from its start.  Debian's
#: font packages being nearly spent, its seven faces come from the npm
#: registry: Google Fonts as the ``@expo-google-fonts`` packages ship them
#: (static TrueType files, versions pinned; ``scripts/bench_fonts.sh``
#: installs them for the user).  Chosen by name, package and one sheet of
#: their index labels only (to see a face's kind and that its letters are its
#: own), none trained on nor read, none a clone or a cousin of a trained or
#: read face (passed over: Space Mono, a cousin of the monospaced faces read
#: before; Bebas Neue and Rye, named in the project already; Playfair Display
#: and Abril Fatface, Didot's kin; Special Elite, Typist's; Permanent Marker,
#: Because We Learn's; Oswald, the trained condensed gothics').  A sturdy text
#: serif (Merriweather), a slab serif (Zilla Slab), a black grotesque
#: (Archivo Black), a geometric sans with low-waisted figures (Josefin Sans),
#: Roman inscriptional capitals (Cinzel), a quick handwriting (Caveat) and a
#: tall, thin hand (Amatic SC).
#: READ ONCE, at the end of a pass (``--typefaces17``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE17_HELD_OUT = (
    "font:Merriweather",              # @expo-google-fonts/merriweather@0.4.2
    "font:Zilla Slab",                # @expo-google-fonts/zilla-slab@0.4.1
    "font:Archivo Black",             # @expo-google-fonts/archivo-black@0.4.1
    "font:Josefin Sans",              # @expo-google-fonts/josefin-sans@0.4.2
    "font:Cinzel",                    # @expo-google-fonts/cinzel@0.4.2
    "font:Caveat",                    # @expo-google-fonts/caveat@0.4.2
    "font:Amatic SC",                 # @expo-google-fonts/amatic-sc@0.4.2
)

#: Eighteenth typeface held-out group (the twenty-third), made on 2026-12-06
#: at the start of the twenty-ninth pass, before any figure of that pass and
#: before the twenty-second group's read, so that the pass after it has an
#: unread group from its start.  Like the twenty-second, Google Fonts from the
#: npm registry as the ``@expo-google-fonts`` packages ship them (static
#: TrueType files, versions pinned; ``scripts/bench_fonts.sh`` installs them
#: for the user).  Chosen by name, package and one sheet of their index labels
#: only (to see a face's kind and that its letters are its own), none trained
#: on nor read, none a clone or a cousin of a trained or read face (passed
#: over: Pacifico, Leckerli One's kin, trained; Great Vibes, a formal script
#: whose J and I are one shape, Isabella's kin; Monoton, an inline display
#: face no index would be printed in).  A condensed comic-book capital
#: (Bangers), a squared techno face (Orbitron), a round schoolroom hand
#: (Indie Flower), a stencil (Black Ops One), an 8-by-8 arcade pixel face
#: (Press Start 2P), a calligraphic text serif (Lora) and a slanted marker
#: hand (Kalam).
#: READ ONCE, at the end of a pass (``--typefaces18``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE18_HELD_OUT = (
    "font:Bangers",                   # @expo-google-fonts/bangers@0.4.1
    "font:Orbitron",                  # @expo-google-fonts/orbitron@0.4.2
    "font:Indie Flower",              # @expo-google-fonts/indie-flower@0.4.1
    "font:Black Ops One",             # @expo-google-fonts/black-ops-one@0.4.1
    "font:Press Start 2P",            # @expo-google-fonts/press-start-2p@0.4.1
    "font:Lora",                      # @expo-google-fonts/lora@0.4.2
    "font:Kalam",                     # @expo-google-fonts/kalam@0.4.1
)

#: Nineteenth typeface held-out group (the twenty-fourth), made on 2026-12-06
#: in the thirtieth pass, before the twenty-third group's read, so that the
#: pass after it has an unread group from its start.  Like the twenty-second
#: and twenty-third, Google Fonts from the npm registry as the
#: ``@expo-google-fonts`` packages ship them (static TrueType files, versions
#: pinned; ``scripts/bench_fonts.sh`` installs them for the user).  Chosen by
#: name, package and one sheet of their index labels only (to see a face's
#: kind and that its letters are its own), none trained on nor read, none a
#: clone or a cousin of a trained or read face (passed over: Michroma and
#: Audiowide, Orbitron's kin; Teko, the condensed gothics'; Pirata One,
#: blackletter like Blankenburg; Comfortaa and Kaushan Script, trained).  A
#: fat-face slab (Alfa Slab One), a hairline Art Deco face (Poiret One),
#: uncial letters (Uncial Antiqua), a blocky signage capital (Bungee), a
#: comic-book hand (Gloria Hallelujah), a high-contrast Deco display
#: (Limelight) and a wide geometric capital (Syncopate).
#: READ ONCE, at the end of a pass (``--typefaces19``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE19_HELD_OUT = (
    "font:Alfa Slab One",             # @expo-google-fonts/alfa-slab-one@0.4.1
    "font:Poiret One",                # @expo-google-fonts/poiret-one@0.4.1
    "font:Uncial Antiqua",            # @expo-google-fonts/uncial-antiqua@0.4.1
    "font:Bungee",                    # @expo-google-fonts/bungee@0.4.1
    "font:Gloria Hallelujah",         # @expo-google-fonts/gloria-hallelujah@0.4.1
    "font:Limelight",                 # @expo-google-fonts/limelight@0.4.1
    "font:Syncopate",                 # @expo-google-fonts/syncopate@0.4.1
)


#: Twentieth typeface held-out group (the twenty-fifth), made on 2026-12-06
#: in the thirty-first pass, before the twenty-fourth group's read (it takes
#: nothing from it), so that the pass after that read has an unread group from
#: its start.  Like the twenty-second to twenty-fourth, Google Fonts from the
#: npm registry as the ``@expo-google-fonts`` packages ship them (static
#: TrueType files, versions pinned; ``scripts/bench_fonts.sh`` installs them
#: for the user).  Chosen by name, package and one sheet of their index labels
#: only (to see a face's kind and that its labels are its own), none trained
#: on nor read, none a clone or a cousin of a trained or read face (passed
#: over: Marcellus, Cinzel's kin; Cutive Mono and Lekton, the monospaced
#: faces'; Yellowtail, Pacifico's and so Leckerli One's; Caveat Brush,
#: Caveat's; Fascinate, Limelight's Deco kin; Saira Extra Condensed, the
#: condensed gothics'; Tilt Prism, an outline face no index is printed in).
#: A rounded sans (Varela Round), a heavy old-style
#: serif with old-style figures (Inknut Antiqua), a geometric display face
#: with Deco curves (Righteous), a painted brush hand (Knewave), a wide extended sans
#: (Unbounded), a condensed poster display (Chicle) and a rough decorative
#: italic (Trade Winds).
#: READ ONCE, at the end of a pass (``--typefaces20``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE20_HELD_OUT = (
    "font:Varela Round",              # @expo-google-fonts/varela-round@0.4.1
    "font:Inknut Antiqua",            # @expo-google-fonts/inknut-antiqua@0.4.1
    "font:Righteous",                 # @expo-google-fonts/righteous@0.4.1
    "font:Knewave",                   # @expo-google-fonts/knewave@0.4.1
    "font:Unbounded",                 # @expo-google-fonts/unbounded@0.4.1
    "font:Chicle",                    # @expo-google-fonts/chicle@0.4.1
    "font:Trade Winds",               # @expo-google-fonts/trade-winds@0.4.1
)


#: Twenty-first typeface held-out group (the twenty-sixth), made on 2026-12-06
#: in the thirty-second pass, before the twenty-fifth group's read (it takes
#: nothing from it), so that the pass after that read has an unread group from
#: its start.  Like the twenty-second to twenty-fifth, Google Fonts from the
#: npm registry as the ``@expo-google-fonts`` packages ship them (static
#: TrueType files, versions pinned; ``scripts/bench_fonts.sh`` installs them
#: for the user).  Chosen by name, package and one sheet of their index labels
#: only (to see a face's kind and that its labels are its own), none trained
#: on nor read, none a clone or a cousin of a trained or read face (passed
#: over: Rubik, a softened grotesque, Varela Round's kin; Titan One, a rounded
#: heavy display, Cherry Bomb's; Patrick Hand, a neat print hand, Humor Sans's
#: and Comic Neue's; Marck Script, a connected pen script, Dancing Script's;
#: Besley, a Clarendon, the slab serifs'; Fraunces, a soft old-style display,
#: Inknut Antiqua's).  A humanist sans of classical proportions (Tenor Sans),
#: a book serif (Spectral), a calligraphic italic (Courgette), a heavy display
#: sans (Lilita One), a condensed display serif (Instrument Serif), a fat
#: italic display (Shrikhand) and a squarish loopless sans from Thai type
#: (Kanit).
#: READ ONCE, at the end of a pass (``--typefaces21``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE21_HELD_OUT = (
    "font:Tenor Sans",                # @expo-google-fonts/tenor-sans@0.4.1
    "font:Spectral",                  # @expo-google-fonts/spectral@0.4.1
    "font:Courgette",                 # @expo-google-fonts/courgette@0.4.1
    "font:Lilita One",                # @expo-google-fonts/lilita-one@0.4.1
    "font:Instrument Serif",          # @expo-google-fonts/instrument-serif@0.4.1
    "font:Shrikhand",                 # @expo-google-fonts/shrikhand@0.4.1
    "font:Kanit",                     # @expo-google-fonts/kanit@0.4.1
)


#: Twenty-second typeface held-out group (the twenty-seventh), made on
#: 2026-12-06 in the thirty-third pass, before the twenty-sixth group's read
#: (it takes nothing from it), so that the pass after that read has an unread
#: group from its start.  Like the twenty-second to twenty-sixth, Google Fonts
#: from the npm registry as the ``@expo-google-fonts`` packages ship them
#: (static TrueType files, versions pinned; ``scripts/bench_fonts.sh``
#: installs them for the user).  Chosen by name, package and one sheet of
#: their index labels only (to see a face's kind and that its labels are its
#: own), none trained on nor read, none a clone or a cousin of a trained or
#: read face (passed over: Gochi Hand, a marker hand, Kalam's kin; Shippori
#: Mincho, a book serif, Spectral's; Jolly Lodger, a condensed poster
#: display, Chicle's; Klee One, read in the sixteenth group).  A
#: finger-painted hand (Finger Paint), a whimsical display serif (Henny
#: Penny), an ultra-wide constructivist capital (Stalinist One), a Japanese
#: brush display (Potta One), a hand-drawn poster sans (Londrina Solid), a
#: decorative face with calligraphic turns (Macondo) and a thin, round
#: Japanese pop hand (Hachi Maru Pop).
#: READ ONCE, at the end of a pass (``--typefaces22``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE22_HELD_OUT = (
    "font:Finger Paint",              # @expo-google-fonts/finger-paint@0.4.1
    "font:Henny Penny",               # @expo-google-fonts/henny-penny@0.4.1
    "font:Stalinist One",             # @expo-google-fonts/stalinist-one@0.4.1
    "font:Potta One",                 # @expo-google-fonts/potta-one@0.4.1
    "font:Londrina Solid",            # @expo-google-fonts/londrina-solid@0.4.1
    "font:Macondo",                   # @expo-google-fonts/macondo@0.4.1
    "font:Hachi Maru Pop",            # @expo-google-fonts/hachi-maru-pop@0.4.1
)


#: Twenty-third typeface held-out group (the twenty-eighth), made on
#: 2026-12-06 in the thirty-fourth pass, before the twenty-seventh group's
#: read (it takes nothing from it), so that the pass after that read has an
#: unread group from its start.  Like the twenty-second to twenty-seventh,
#: Google Fonts from the npm registry as the ``@expo-google-fonts`` packages
#: ship them (static TrueType files, versions pinned;
#: ``scripts/bench_fonts.sh`` installs them for the user).  Chosen by name,
#: package and one sheet of their index labels only (to see a face's kind
#: and that its labels are its own), none trained on nor read, none a clone
#: or a cousin of a trained or read face (passed over: Major Mono Display,
#: a mono; DM Serif Display, Yeseva One and Gravitas One, Playfair's and
#: Abril's kin; Six Caps, Bebas's; Smokum and Sancreek, Rye's; Grenze
#: Gotisch, a blackletter like Blankenburg; Sniglet, Varela Round's;
#: Creepster, Butcherman's; Griffy, Henny Penny's).  An engraved outline
#: capital (Fredericka the Great), a playful spiky serif (Mountains of
#: Christmas), a quick scrawled marker hand (Reenie Beanie), a heavy-metal
#: band lettering (Metal Mania), a horror display with cut strokes
#: (Butcherman), a wide fifties soda-fountain sans (Cherry Cream Soda) and
#: a brushed italic whose strokes split into bristle lines (Akronim).
#: READ ONCE, at the end of a pass (``--typefaces23``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE23_HELD_OUT = (
    "font:Fredericka the Great",      # @expo-google-fonts/fredericka-the-great@0.4.1
    "font:Mountains of Christmas",    # @expo-google-fonts/mountains-of-christmas@0.4.1
    "font:Reenie Beanie",             # @expo-google-fonts/reenie-beanie@0.4.1
    "font:Metal Mania",               # @expo-google-fonts/metal-mania@0.4.1
    "font:Butcherman",                # @expo-google-fonts/butcherman@0.4.1
    "font:Cherry Cream Soda",         # @expo-google-fonts/cherry-cream-soda@0.4.0
    "font:Akronim",                   # @expo-google-fonts/akronim@0.4.0
)

#: The twenty-ninth held-out group (made 2026-12-06 in the thirty-fifth pass,
#: before the twenty-eighth group's read; it takes nothing from it): Google
#: Fonts from the npm registry, pinned ``@expo-google-fonts`` packages, none
#: trained on, none read, none a clone or cousin of a trained or read face
#: (passed over: Cormorant, EB Garamond's; Bungee Shade and Bungee Spice,
#: Bungee's; Cinzel Decorative, Cinzel's; Rubik Mono, Rubik's; Lobster Two,
#: Lobster's; Nosifer, Butcherman's; Rock Salt, Reenie Beanie's; Luckiest Guy,
#: Bangers'; Sacramento, Great Vibes'; Passion One, only 0.3.0 in the
#: registry).  A sturdy text serif with wedge serifs (Domine), a heavy casual
#: brush-like sans (Carter One), an ultra-fat round display (Chango), an
#: italic outline with speed lines (Faster One), a looping cursive hand
#: (Homemade Apple), a heavy Korean gothic's Latin (Black Han Sans) and a
#: decorated candy serif with curls (Emilys Candy).
#: READ ONCE, at the end of a pass (``--typefaces24``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE24_HELD_OUT = (
    "font:Domine",                      # @expo-google-fonts/domine@0.4.2
    "font:Carter One",                  # @expo-google-fonts/carter-one@0.4.1
    "font:Chango",                      # @expo-google-fonts/chango@0.4.1
    "font:Faster One",                  # @expo-google-fonts/faster-one@0.4.1
    "font:Homemade Apple",              # @expo-google-fonts/homemade-apple@0.4.1
    "font:Black Han Sans",              # @expo-google-fonts/black-han-sans@0.4.1
    "font:Emilys Candy",                # @expo-google-fonts/emilys-candy@0.4.1
)

#: The thirtieth held-out group (made 2026-12-07 in the thirty-sixth pass,
#: before the twenty-ninth group's read; it takes nothing from it): Google
#: Fonts from the npm registry, pinned ``@expo-google-fonts`` packages, none
#: trained on, none read, none a clone or cousin of a trained or read face
#: (passed over: Libre Baskerville, a Baskerville look-alike; Bitter, a slab
#: like Roboto Slab's; Germania One, blackletter like Pirata One's; Spicy
#: Rice, only 0.2.3 in the registry).  A heavy condensed grotesque of the
#: kind jumbo indices print (Anton), condensed display capitals
#: (Staatliches), a rounded sans (Fredoka), a stencilled techno face
#: (Wallpoet), a brush script (Satisfy), a heavy slab display (Bevan) and a
#: terminal's bitmap face (VT323).
#: READ ONCE, at the end of a pass (``--typefaces25``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE25_HELD_OUT = (
    "font:Anton",                       # @expo-google-fonts/anton@0.4.2
    "font:Staatliches",                 # @expo-google-fonts/staatliches@0.4.1
    "font:Fredoka",                     # @expo-google-fonts/fredoka@0.4.1
    "font:Wallpoet",                    # @expo-google-fonts/wallpoet@0.4.1
    "font:Satisfy",                     # @expo-google-fonts/satisfy@0.4.1
    "font:Bevan",                       # @expo-google-fonts/bevan@0.4.2
    "font:VT323",                       # @expo-google-fonts/vt323@0.4.1
)

#: The thirty-first held-out group (made 2026-12-07 in the thirty-eighth
#: pass, before the thirtieth group's read; it takes nothing from it):
#: Google Fonts from the npm registry, pinned ``@expo-google-fonts``
#: packages at 0.4, none trained on, none read, none a clone or cousin of a
#: trained or read face (passed over: IBM Plex Mono, a mono; Lobster,
#: Leckerli One's kin; Playfair Display and Fascinate, Didot's and
#: Limelight's; Cormorant Garamond, EB Garamond's; Teko, the condensed
#: gothics'; Rubik, Varela Round's; Marcellus, Cinzel's; Kaisei Decol, the
#: Mincho faces'; Dela Gothic One, Black Han Sans's; Rampart One, Reggae
#: One's; Monoton and Codystar, inline and dotted faces no index would be
#: printed in; Fugaz One, Faster One's; Yuji Syuku, Kouzan's; Diplomata,
#: Berkshire Swash, Vast Shadow and Ewert, only 0.1 to 0.3 in the
#: registry).  A wide geometric display sans with odd bowls (Syne), a
#: quirky humanist sans (Philosopher), a bold western sans (Ranchers), a
#: shadowed text serif (Jacques Francois Shadow), a heavy display face drawn
#: after Arabic letters (Rakkas), a graffiti hand (Sedgwick Ave Display) and
#: a heavy Indian display sans (Bakbak One).
#: READ ONCE, at the end of a pass (``--typefaces26``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE26_HELD_OUT = (
    "font:Syne",                        # @expo-google-fonts/syne@0.4.2
    "font:Philosopher",                 # @expo-google-fonts/philosopher@0.4.1
    "font:Ranchers",                    # @expo-google-fonts/ranchers@0.4.1
    "font:Jacques Francois Shadow",     # @expo-google-fonts/jacques-francois-shadow@0.4.1
    "font:Rakkas",                      # @expo-google-fonts/rakkas@0.4.1
    "font:Sedgwick Ave Display",        # @expo-google-fonts/sedgwick-ave-display@0.4.1
    "font:Bakbak One",                  # @expo-google-fonts/bakbak-one@0.4.1
)

#: The thirty-second held-out group (made 2026-12-07 in the fortieth pass,
#: before the thirty-first group's read; it takes nothing from it): Google
#: Fonts from the npm registry, pinned ``@expo-google-fonts`` packages at
#: 0.4, none trained on, none read, none a clone or cousin of a trained or
#: read face (passed over: Fraunces and Young Serif, Inknut Antiqua's kin;
#: Great Vibes, whose J and I are one shape; Chakra Petch, Kanit's and
#: Orbitron's; Boogaloo and Jaro, the condensed gothics'; Borel, whose index
#: is a neat print, Comic Neue's; Grandstander and Madimi One, Fredoka's and
#: Varela Round's; Frank Ruhl Libre, Times'; Aref Ruqaa, Kings' and Rakkas';
#: Mystery Quest, Henny Penny's; Kalnia, Didot's; Jua, BM DoHyeon's; Song
#: Myung, the Batangs'; Gaegu, UnPilgi's; Atkinson Hyperlegible, B612's and
#: Tiresias'; Piedra, Gugi, Galada, Eczar and Kavoon, only 0.1 to 0.2 in the
#: registry; Lakki Reddy, not in it).  A quirky grotesque with ink traps
#: (Bricolage Grotesque), a heavy wedge serif drawn for Hebrew and Latin
#: (Suez One), a bouncy calligraphic face drawn after Kannada letters (Akaya
#: Kanadaka), a heavy display face with West African flourishes (Agbalumo),
#: a light calligraphic serif with broad-nib strokes (Kings), a rough Korean
#: brush hand (Dokdo) and a flared display face after 1950s lettering
#: (Risque).
#: READ ONCE, at the end of a pass (``--typefaces27``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE27_HELD_OUT = (
    "font:Bricolage Grotesque",         # @expo-google-fonts/bricolage-grotesque@0.4.1
    "font:Suez One",                    # @expo-google-fonts/suez-one@0.4.1
    "font:Akaya Kanadaka",              # @expo-google-fonts/akaya-kanadaka@0.4.1
    "font:Agbalumo",                    # @expo-google-fonts/agbalumo@0.4.1
    "font:Kings",                       # @expo-google-fonts/kings@0.4.2
    "font:Dokdo",                       # @expo-google-fonts/dokdo@0.4.1
    "font:Risque",                      # @expo-google-fonts/risque@0.4.1
)

#: The thirty-third held-out group (made 2026-12-07 in the forty-second
#: pass, before the thirty-second group's read; it takes nothing from it):
#: Google Fonts from the npm registry, pinned ``@expo-google-fonts``
#: packages at 0.4, none trained on, none read, none a clone or cousin of a
#: trained or read face (passed over:
#: Shadows Into Light, Architects Daughter and Nothing You Could Do,
#: Kimberly Geswein's hands as Gloria Hallelujah and Indie Flower are;
#: Galindo, Ranchers' kin; Coda, Varela Round's; Yomogi, Zen Kurenaido's
#: twin in kind; Kreon and Pridi, the slab serifs'; Oxanium, Quantico and
#: Zen Dots, Orbitron's; Krona One, Michroma's; Silkscreen, the pixel
#: faces'; Mochiy Pop One, Hachi Maru Pop's; Fontdiner Swanky, Risque's;
#: New Rocker, the blackletters'; MedievalSharp, Uncial Antiqua's; Chewy,
#: Luckiest Guy's; Sigmar, Titan One's; Tilt Warp, Tilt Prism's; Kurale,
#: Inika, Mansalva, Zeyada, Almendra, Rowdies and Kaisei Opti, only 0.1 to
#: 0.3 in the registry).
#: A sports script with swashed capitals (Playball), a book serif after
#: medieval manuscripts (Caudex), a heavy italic display sans (Sansita), a
#: heavy, rough-edged Japanese display face (Darumadrop One), a thin
#: brush-pen Japanese hand (Zen Kurenaido), an inflated Devanagari display
#: face whose counters close up (Modak) and a slanted Japanese casual hand
#: (Slackside One).
#: READ ONCE, at the end of a pass (``--typefaces28``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE28_HELD_OUT = (
    "font:Playball",               # @expo-google-fonts/playball@0.4.2
    "font:Caudex",                 # @expo-google-fonts/caudex@0.4.1
    "font:Sansita",                # @expo-google-fonts/sansita@0.4.1
    "font:Darumadrop One",         # @expo-google-fonts/darumadrop-one@0.4.2
    "font:Zen Kurenaido",          # @expo-google-fonts/zen-kurenaido@0.4.1
    "font:Modak",                  # @expo-google-fonts/modak@0.4.1
    "font:Slackside One",          # @expo-google-fonts/slackside-one@0.4.2
)

#: The thirty-fourth held-out group (made 2026-12-07 in the forty-fourth
#: pass, before the thirty-third group's read; it takes nothing from it):
#: Google Fonts from the npm registry, pinned ``@expo-google-fonts``
#: packages at 0.4, none trained on, none read, none a clone or cousin of a
#: trained or read face (passed over:
#: Saira Stencil One, Saira Extra Condensed's kin; Baloo 2, Varela
#: Round's; Alata and Lexend, the trained geometric sans'; Poller One, Nova
#: Square, Irish Grover, Vibur, Sail, Frijole, Gorditas, Ribeye and Rum
#: Raisin, only 0.1 to 0.3 in the registry; Wellfleet, Plaster, Sonsie One,
#: Tulpen One, Yesteryear and Hanalei, not there).
#: A very heavy grotesque with tight counters (Bowlby One), a brush display
#: script whose J hooks like a 7 (Sarina), a heavy upright script
#: (Oleo Script), a thin calligraphic script (Sofia), a condensed display
#: face with ball terminals (Trochut), a squarish Arabic-Latin sans (Changa)
#: and a casual semi-script (Merienda).
#: READ ONCE, at the end of a pass (``--typefaces29``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE29_HELD_OUT = (
    "font:Bowlby One",             # @expo-google-fonts/bowlby-one@0.4.1
    "font:Sarina",                 # @expo-google-fonts/sarina@0.4.1
    "font:Oleo Script",            # @expo-google-fonts/oleo-script@0.4.1
    "font:Sofia",                  # @expo-google-fonts/sofia@0.4.1
    "font:Trochut",                # @expo-google-fonts/trochut@0.4.1
    "font:Changa",                 # @expo-google-fonts/changa@0.4.2
    "font:Merienda",               # @expo-google-fonts/merienda@0.4.2
)

#: The thirty-fifth held-out group (made 2026-12-07 in the forty-sixth
#: pass, before the thirty-fourth group's read; it takes nothing from it):
#: Google Fonts from the npm registry, pinned ``@expo-google-fonts``
#: packages at 0.4, none trained on, none read, none a clone or cousin of a
#: trained or read face (passed over:
#: Gloock, a high-contrast serif like the Didones and Playfair passed over
#: before; Podkova, a plain slab serif like the trained ones; Margarine, a
#: casual rounded face like Fredoka, read; seen on their sheets).
#: A fat-face slab serif (Ultra), a round blackletter (Fruktur), a square
#: techno face (Iceland), a condensed marker hand (Just Another Hand), a thin
#: upright script (Euphoria Script), a heavy rounded bubble face (Coiny) and
#: a slanted heavy racing sans (Racing Sans One).
#: READ ONCE, at the end of a pass (``--typefaces30``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE30_HELD_OUT = (
    "font:Ultra",                  # @expo-google-fonts/ultra@0.4.0
    "font:Fruktur",                # @expo-google-fonts/fruktur@0.4.1
    "font:Iceland",                # @expo-google-fonts/iceland@0.4.0
    "font:Just Another Hand",      # @expo-google-fonts/just-another-hand@0.4.1
    "font:Euphoria Script",        # @expo-google-fonts/euphoria-script@0.4.1
    "font:Coiny",                  # @expo-google-fonts/coiny@0.4.1
    "font:Racing Sans One",        # @expo-google-fonts/racing-sans-one@0.4.1
)

#: The thirty-sixth held-out group (made 2026-12-07 in the forty-ninth
#: pass, before the thirty-fifth group's read; it takes nothing from it):
#: Google Fonts from the npm registry, pinned ``@expo-google-fonts``
#: packages at 0.4, none trained on, none read, none a clone or cousin of a
#: trained or read face (passed over:
#: Bigshot One, a fat-face Didone like the Didones passed over before;
#: Squada One, a square condensed sans like Iceland, of the thirty-fifth;
#: Delius, a casual rounded sans like Fredoka, read; seen on their sheets).
#: A formal swash script (Niconne), a thin tall handwriting (Sue Ellen
#: Francisco), a heavy geometric stencil-like display face (Keania One), a
#: calligraphic book face (Eagle Lake), a condensed art-deco face (Smythe),
#: a thin techno geometric sans (Offside) and a heavy casual marker hand
#: (Nerko One).
#: READ ONCE, at the end of a pass (``--typefaces31``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE31_HELD_OUT = (
    "font:Niconne",                 # @expo-google-fonts/niconne@0.4.1
    "font:Sue Ellen Francisco",     # @expo-google-fonts/sue-ellen-francisco@0.4.1
    "font:Keania One",              # @expo-google-fonts/keania-one@0.4.0
    "font:Eagle Lake",              # @expo-google-fonts/eagle-lake@0.4.0
    "font:Smythe",                  # @expo-google-fonts/smythe@0.4.1
    "font:Offside",                 # @expo-google-fonts/offside@0.4.2
    "font:Nerko One",               # @expo-google-fonts/nerko-one@0.4.1
)

#: The thirty-seventh held-out group (made 2026-12-07 in the fiftieth
#: pass, before the thirty-sixth group's read; it takes nothing from it):
#: Google Fonts from the npm registry, pinned ``@expo-google-fonts``
#: packages at 0.4, none trained on, none read, none a clone or cousin of a
#: trained, read or held-out face (passed over: Iceberg, a square techno
#: face like Iceland, of the thirty-fifth; Goblin One, a fat wide slab like
#: Ultra, of the thirty-fifth; Fondamento, a calligraphic book face like
#: Eagle Lake, of the thirty-sixth; seen on their sheets).
#: A spiky calligraphic hand (Jim Nightshade), an art-nouveau display face
#: (Oldenburg), a slanted casual script (Devonshire), a heavy casual
#: display face (Joti One), a quirky ink-trap display face (Passero One), a
#: rounded italic display face (Sofadi One) and a rough decorative face
#: (Flavors).
#: READ ONCE, at the end of a pass (``--typefaces32``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE32_HELD_OUT = (
    "font:Jim Nightshade",          # @expo-google-fonts/jim-nightshade@0.4.1
    "font:Oldenburg",               # @expo-google-fonts/oldenburg@0.4.1
    "font:Devonshire",              # @expo-google-fonts/devonshire@0.4.1
    "font:Joti One",                # @expo-google-fonts/joti-one@0.4.1
    "font:Passero One",             # @expo-google-fonts/passero-one@0.4.1
    "font:Sofadi One",              # @expo-google-fonts/sofadi-one@0.4.1
    "font:Flavors",                 # @expo-google-fonts/flavors@0.4.1
)

#: The thirty-eighth held-out group (made 2026-12-08 in the fifty-first
#: pass, before the thirty-seventh group's read; it takes nothing from it):
#: Google Fonts from the npm registry, pinned ``@expo-google-fonts``
#: packages at 0.4, none trained on, none read, none a clone or cousin of a
#: trained, read or held-out face (passed over on their sheets: Englebert,
#: a condensed art-deco face like the thirty-sixth group's Smythe; Pinyon
#: Script, a formal script like Euphoria Script, read; Princess Sofia, a
#: script by Sofia's designer and like it; Eater, a dripping horror face
#: like Butcherman; Hammersmith One, a plain sans like Tenor Sans).
#: A hairline high-contrast display face (Italiana), a decorative serif
#: (Lancelot), a swashed decorative serif (Milonga), a heavy calligraphic
#: slab (Marko One), a bold brush script (Mr Dafoe), an angular
#: Greek-lettering display face (Caesar Dressing) and a heavy brush display
#: face (Ruslan Display).
#: READ ONCE, at the end of a pass (``--typefaces33``); never tune, train or
#: choose anything on it.  Its cards are all standard.
TYPEFACE33_HELD_OUT = (
    "font:Italiana",                # @expo-google-fonts/italiana@0.4.1
    "font:Lancelot",                # @expo-google-fonts/lancelot@0.4.1
    "font:Milonga",                 # @expo-google-fonts/milonga@0.4.1
    "font:Marko One",               # @expo-google-fonts/marko-one@0.4.1
    "font:Mr Dafoe",                # @expo-google-fonts/mr-dafoe@0.4.1
    "font:Caesar Dressing",         # @expo-google-fonts/caesar-dressing@0.2.2
    "font:Ruslan Display",          # @expo-google-fonts/ruslan-display@0.2.3
)


def kde_missing() -> str | None:
    """The ``apt-get install`` line for KDE's decks if they are not installed."""
    return None if kdedeck.list_designs() else f"{kdedeck.install_line()}   # as root"


def require_kde(designs: tuple[str, ...]) -> None:
    """Exit (status 2) with the ``apt-get install`` line if a KDE deck is among
    ``designs`` and KDE's decks are not installed."""
    if not any(n.startswith(kdedeck.PREFIX) for n in designs):
        return
    line = kde_missing()
    if line:
        print(f"KDE card decks are not installed in {kdedeck.decks_dir()}\n"
              f"install them (as root): {line}", file=sys.stderr)
        raise SystemExit(2)


def npm_missing(designs: tuple[str, ...] = NPM_HELD_OUT) -> str | None:
    """The ``npm install`` line for the npm decks among ``designs`` whose
    package is not installed at its pinned version, else None."""
    wanted = tuple(n for n in designs if n.startswith(npmdeck.PREFIX))
    packages = npmdeck.missing(wanted)
    return npmdeck.install_line(packages) if packages else None


def require_npm(designs: tuple[str, ...]) -> None:
    """Exit (status 2) with the ``npm install`` line if an npm deck among
    ``designs`` lacks its package (a different version would be a different deck)."""
    line = npm_missing(designs)
    if line:
        print(f"npm card packages are not installed in {npmdeck.packages_dir()}\n"
              f"install them: {line}   # or: scripts/bench_fonts.sh", file=sys.stderr)
        raise SystemExit(2)


def bitmap_missing(designs: tuple[str, ...] = BITMAP_HELD_OUT) -> str | None:
    """The install line for the bitmap decks among ``designs`` whose package is
    not unpacked from its pinned file, else None."""
    wanted = tuple(n for n in designs if bitmapdeck.is_bitmap_deck(n))
    return bitmapdeck.install_line() if bitmapdeck.missing(wanted) else None


def require_bitmap(designs: tuple[str, ...]) -> None:
    """Exit (status 2) with the install line if a bitmap deck among ``designs``
    lacks its package (another version would be a different deck)."""
    line = bitmap_missing(designs)
    if line:
        print(f"bitmap card packages are not unpacked in {bitmapdeck.packages_dir()}\n"
              f"install them: {line}   # or: scripts/bench_fonts.sh", file=sys.stderr)
        raise SystemExit(2)


def open_design(name: str, width: int = 250) -> Deck:
    return open_deck(name, width=width)


def fresh_missing(designs: tuple[str, ...] = FRESH_HELD_OUT) -> tuple[list[str], list[str]]:
    """The font decks among ``designs`` whose font is not installed, and the
    Debian packages that provide them (checked with fc-list, without drawing)."""
    missing: list[str] = []
    packages: set[str] = set()
    for name in designs:
        if not name.startswith("font:"):
            continue
        family, bold = parse_name(name)
        try:
            find_font(family, bold=bold)
        except FontMissing:
            missing.append(name)
            packages.add(FONT_PACKAGES.get(family, f"<the package with {family}>"))
    return missing, sorted(packages)


def fresh_install_line(packages: list[str]) -> str:
    return f"apt-get install -y {' '.join(packages)}   # or: scripts/bench_fonts.sh"


def require_fonts(designs: tuple[str, ...]) -> None:
    """Exit (status 2) with the ``apt-get install`` line if a font deck among
    ``designs`` lacks its font: a substitute font would be a different deck."""
    missing, packages = fresh_missing(designs)
    if missing:
        print(f"fonts missing for: {', '.join(missing)}\ninstall them (as root): "
              f"{fresh_install_line(packages)}", file=sys.stderr)
        raise SystemExit(2)
    # (the twelfth group's first read stopped halfway at a face that drew no
    # "10"; a check before anything is read keeps a group's read whole)
    undrawn = [(n, label) for n in designs if n.startswith("font:")
               and (label := undrawn_label(_font_of(n))) is not None]
    if undrawn:
        print("these font decks cannot be drawn: " + ", ".join(
            f"{n} (cannot draw {label!r})" for n, label in undrawn), file=sys.stderr)
        raise SystemExit(2)


def _font_of(name: str) -> FontFile:
    family, bold = parse_name(name)
    return find_font(family, bold=bold)


def describe(designs: tuple[str, ...]) -> list[str]:
    """One line per design (font decks: the font file they are drawn from), for a
    dry run that draws and reads nothing."""
    out = []
    for name in designs:
        if name.startswith("font:"):
            family, bold = parse_name(name)
            out.append(f"  {name}: {find_font(family, bold=bold).file}")
        elif name.startswith(kdedeck.PREFIX):
            out.append(f"  {name}: {kdedeck.design_file(kdedeck.parse_name(name))}")
        elif name.startswith(npmdeck.PREFIX):
            entry = npmdeck.design(name)
            out.append(f"  {name}: {entry.package.spec} ({entry.package.licence}), "
                       f"{npmdeck.card_file(name, 'AS').parent}")
        elif bitmapdeck.is_bitmap_deck(name):
            package = bitmapdeck.design(name).package
            out.append(f"  {name}: {package.registry} {package.spec} "
                       f"({package.licence}), {bitmapdeck.card_file(name, 'AS').parent}")
        else:
            out.append(f"  {name}")
    return out


def is_standard(name: str, code: str) -> bool:
    if name.startswith(lowres.PREFIX):
        return is_standard(lowres.parse_name(name).inner, code)
    if name.startswith(("builtin", "font:", "layout:")):
        return True
    if name.startswith(kdedeck.PREFIX):
        return not kdedeck.must_be_unsure(name, code)
    if name.startswith(npmdeck.PREFIX):
        return not npmdeck.must_be_unsure(name, code)
    if bitmapdeck.is_bitmap_deck(name):
        return not bitmapdeck.must_be_unsure(name, code)
    return not must_be_unsure(name, code)


def standard_codes(name: str) -> list[str]:
    return [c for c in CARD_CODES if is_standard(name, c)]


def family(name: str) -> str:
    if name.startswith(lowres.PREFIX):
        return family(lowres.parse_name(name).inner)
    if name.startswith(kdedeck.PREFIX):
        return kdedeck.info(name).family
    if name.startswith(npmdeck.PREFIX):
        return npmdeck.info(name).family
    if bitmapdeck.is_bitmap_deck(name):
        return bitmapdeck.info(name).family
    return "builtin" if name.startswith("builtin") else info(name).family


#: Every group kept back for the reported figures, by the flag that reads it once.
HELD_OUT_GROUPS: dict[str, tuple[str, ...]] = {
    "--held-out": HELD_OUT + HELD_OUT_NEGATIVE,
    "--fresh": FRESH_HELD_OUT,
    "--kde": KDE_HELD_OUT + KDE_HELD_OUT_NEGATIVE,
    "--npm": NPM_HELD_OUT,
    "--bitmap": BITMAP_HELD_OUT,
    "--typefaces": TYPEFACE_HELD_OUT,
    "--typefaces2": TYPEFACE2_HELD_OUT,
    "--typefaces3": TYPEFACE3_HELD_OUT,
    "--typefaces4": TYPEFACE4_HELD_OUT,
    "--typefaces5": TYPEFACE5_HELD_OUT,
    "--typefaces6": TYPEFACE6_HELD_OUT,
    "--typefaces7": TYPEFACE7_HELD_OUT,
    "--typefaces8": TYPEFACE8_HELD_OUT,
    "--typefaces9": TYPEFACE9_HELD_OUT,
    "--typefaces10": TYPEFACE10_HELD_OUT,
    "--typefaces11": TYPEFACE11_HELD_OUT,
    "--typefaces12": TYPEFACE12_HELD_OUT,
    "--typefaces13": TYPEFACE13_HELD_OUT,
    "--typefaces14": TYPEFACE14_HELD_OUT,
    "--typefaces15": TYPEFACE15_HELD_OUT,
    "--typefaces16": TYPEFACE16_HELD_OUT,
    "--typefaces17": TYPEFACE17_HELD_OUT,
    "--typefaces18": TYPEFACE18_HELD_OUT,
    "--typefaces19": TYPEFACE19_HELD_OUT,
    "--typefaces20": TYPEFACE20_HELD_OUT,
    "--typefaces21": TYPEFACE21_HELD_OUT,
    "--typefaces22": TYPEFACE22_HELD_OUT,
    "--typefaces23": TYPEFACE23_HELD_OUT,
    "--typefaces24": TYPEFACE24_HELD_OUT,
    "--typefaces25": TYPEFACE25_HELD_OUT,
    "--typefaces26": TYPEFACE26_HELD_OUT,
    "--typefaces27": TYPEFACE27_HELD_OUT,
    "--typefaces28": TYPEFACE28_HELD_OUT,
    "--typefaces29": TYPEFACE29_HELD_OUT,
    "--typefaces30": TYPEFACE30_HELD_OUT,
    "--typefaces31": TYPEFACE31_HELD_OUT,
    "--typefaces32": TYPEFACE32_HELD_OUT,
    "--typefaces33": TYPEFACE33_HELD_OUT,
}


#: The later groups as both camera benchmarks read them (``--kde`` without its
#: negatives), each with its help line: one table, so a new group is one entry.
GROUP_FLAGS: dict[str, tuple[tuple[str, ...], str]] = {
    "--fresh": (FRESH_HELD_OUT, "the FRESH held-out font decks (FRESH_HELD_OUT, made "
                "2026-12-02); stops with the apt-get line if their fonts are missing"),
    "--kde": (KDE_HELD_OUT, "the KDE held-out decks (KDE_HELD_OUT, made 2026-12-02); stops "
              "with the apt-get line if kdegames-card-data-kf5 is missing"),
    "--npm": (NPM_HELD_OUT, "the npm held-out decks (NPM_HELD_OUT, made 2026-12-03); stops "
              "with the npm install line if their packages are missing"),
    "--bitmap": (BITMAP_HELD_OUT, "the bitmap held-out decks (BITMAP_HELD_OUT, made "
                 "2026-12-03); stops with the install line if their packages are not unpacked"),
    "--typefaces": (TYPEFACE_HELD_OUT, "the typeface held-out font decks (TYPEFACE_HELD_OUT, "
                    "made 2026-12-03); stops with the apt-get line if a font is missing"),
    "--typefaces2": (TYPEFACE2_HELD_OUT, "the second typeface held-out group "
                     "(TYPEFACE2_HELD_OUT, made 2026-12-03 after the thirteenth pass); stops "
                     "with the apt-get line if a font is missing"),
    "--typefaces3": (TYPEFACE3_HELD_OUT, "the third typeface held-out group "
                     "(TYPEFACE3_HELD_OUT, made 2026-12-03 in the fourteenth pass); stops "
                     "with the apt-get line if a font is missing"),
    "--typefaces4": (TYPEFACE4_HELD_OUT, "the fourth typeface held-out group "
                     "(TYPEFACE4_HELD_OUT, made 2026-12-04 after the fifteenth pass); stops "
                     "with the apt-get line if a font is missing"),
    "--typefaces5": (TYPEFACE5_HELD_OUT, "the fifth typeface held-out group "
                     "(TYPEFACE5_HELD_OUT, made 2026-12-04 after the sixteenth pass); stops "
                     "with the apt-get line if a font is missing"),
    "--typefaces6": (TYPEFACE6_HELD_OUT, "the sixth typeface held-out group "
                     "(TYPEFACE6_HELD_OUT, made 2026-12-04 after the seventeenth pass); "
                     "stops with the apt-get line if a font is missing"),
    "--typefaces7": (TYPEFACE7_HELD_OUT, "the seventh typeface held-out group "
                     "(TYPEFACE7_HELD_OUT, made 2026-12-05 after the eighteenth pass); "
                     "stops with the apt-get line if a font is missing"),
    "--typefaces8": (TYPEFACE8_HELD_OUT, "the eighth typeface held-out group "
                     "(TYPEFACE8_HELD_OUT, made 2026-12-05 after the nineteenth pass); "
                     "stops with the apt-get line if a font is missing"),
    "--typefaces9": (TYPEFACE9_HELD_OUT, "the ninth typeface held-out group "
                     "(TYPEFACE9_HELD_OUT, made 2026-12-05 before the twentieth pass's "
                     "first change); stops with the apt-get line if a font is missing"),
    "--typefaces10": (TYPEFACE10_HELD_OUT, "the tenth typeface held-out group "
                      "(TYPEFACE10_HELD_OUT, made 2026-12-05 before the twenty-first pass's "
                      "first change); stops with the apt-get line if a font is missing"),
    "--typefaces11": (TYPEFACE11_HELD_OUT, "the eleventh typeface held-out group "
                      "(TYPEFACE11_HELD_OUT, made 2026-12-05 after the fifteenth group's "
                      "read); stops with the apt-get line if a font is missing"),
    "--typefaces12": (TYPEFACE12_HELD_OUT, "the twelfth typeface held-out group "
                      "(TYPEFACE12_HELD_OUT, made 2026-12-05 after the sixteenth group's "
                      "read); stops with the apt-get line if a font is missing"),
    "--typefaces13": (TYPEFACE13_HELD_OUT, "the thirteenth typeface held-out group "
                      "(TYPEFACE13_HELD_OUT, made 2026-12-05 after the seventeenth group's "
                      "read); stops with the apt-get line if a font is missing"),
    "--typefaces14": (TYPEFACE14_HELD_OUT, "the fourteenth typeface held-out group "
                      "(TYPEFACE14_HELD_OUT, made 2026-12-05 before the eighteenth group's "
                      "read); stops with the apt-get line if a font is missing"),
    "--typefaces15": (TYPEFACE15_HELD_OUT, "the fifteenth typeface held-out group "
                      "(TYPEFACE15_HELD_OUT, made 2026-12-05 before the nineteenth group's "
                      "read); stops with the apt-get line if a font is missing"),
    "--typefaces16": (TYPEFACE16_HELD_OUT, "the sixteenth typeface held-out group "
                      "(TYPEFACE16_HELD_OUT, made 2026-12-05 before the twentieth group's "
                      "read); stops with the apt-get line if a font is missing"),
    "--typefaces17": (TYPEFACE17_HELD_OUT, "the seventeenth typeface held-out group "
                      "(TYPEFACE17_HELD_OUT, made 2026-12-05 before the twenty-first group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces18": (TYPEFACE18_HELD_OUT, "the eighteenth typeface held-out group "
                      "(TYPEFACE18_HELD_OUT, made 2026-12-06 before the twenty-second group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces19": (TYPEFACE19_HELD_OUT, "the nineteenth typeface held-out group "
                      "(TYPEFACE19_HELD_OUT, made 2026-12-06 before the twenty-third group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces20": (TYPEFACE20_HELD_OUT, "the twentieth typeface held-out group "
                      "(TYPEFACE20_HELD_OUT, made 2026-12-06 before the twenty-fourth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces21": (TYPEFACE21_HELD_OUT, "the twenty-first typeface held-out group "
                      "(TYPEFACE21_HELD_OUT, made 2026-12-06 before the twenty-fifth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces22": (TYPEFACE22_HELD_OUT, "the twenty-second typeface held-out group "
                      "(TYPEFACE22_HELD_OUT, made 2026-12-06 before the twenty-sixth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces23": (TYPEFACE23_HELD_OUT, "the twenty-third typeface held-out group "
                      "(TYPEFACE23_HELD_OUT, made 2026-12-06 before the twenty-seventh group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces24": (TYPEFACE24_HELD_OUT, "the twenty-fourth typeface held-out group "
                      "(TYPEFACE24_HELD_OUT, made 2026-12-06 before the twenty-eighth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces25": (TYPEFACE25_HELD_OUT, "the twenty-fifth typeface held-out group "
                      "(TYPEFACE25_HELD_OUT, made 2026-12-07 before the twenty-ninth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces26": (TYPEFACE26_HELD_OUT, "the twenty-sixth typeface held-out group "
                      "(TYPEFACE26_HELD_OUT, made 2026-12-07 before the thirtieth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces27": (TYPEFACE27_HELD_OUT, "the twenty-seventh typeface held-out group "
                      "(TYPEFACE27_HELD_OUT, made 2026-12-07 before the thirty-first group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces28": (TYPEFACE28_HELD_OUT, "the twenty-eighth typeface held-out group "
                      "(TYPEFACE28_HELD_OUT, made 2026-12-07 before the thirty-second group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces29": (TYPEFACE29_HELD_OUT, "the twenty-ninth typeface held-out group "
                      "(TYPEFACE29_HELD_OUT, made 2026-12-07 before the thirty-third group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces30": (TYPEFACE30_HELD_OUT, "the thirtieth typeface held-out group "
                      "(TYPEFACE30_HELD_OUT, made 2026-12-07 before the thirty-fourth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces31": (TYPEFACE31_HELD_OUT, "the thirty-first typeface held-out group "
                      "(TYPEFACE31_HELD_OUT, made 2026-12-07 before the thirty-fifth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces32": (TYPEFACE32_HELD_OUT, "the thirty-second typeface held-out group "
                      "(TYPEFACE32_HELD_OUT, made 2026-12-07 before the thirty-sixth group's "
                      "read, from npm); stops with the install line if a font is missing"),
    "--typefaces33": (TYPEFACE33_HELD_OUT, "the thirty-third typeface held-out group "
                      "(TYPEFACE33_HELD_OUT, made 2026-12-08 before the thirty-seventh group's "
                      "read, from npm); stops with the install line if a font is missing"),
}


def add_group_flags(which: argparse._MutuallyExclusiveGroup) -> None:
    """Add every ``GROUP_FLAGS`` flag to a benchmark's designs-or-group choice."""
    for flag, (_, text) in GROUP_FLAGS.items():
        which.add_argument(flag, action="store_true",
                           help=f"{text} (benchmarks/vision_split.py); read ONCE, at the end")


def group_designs(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The designs of the group flag given on the command line, None if none was."""
    for flag, (designs, _) in GROUP_FLAGS.items():
        if getattr(args, flag.removeprefix("--"), False):
            return designs
    return None


def held_out_flag(name: str) -> str | None:
    """The flag of the held-out group that ``name`` belongs to, else None.

    A design counts as held out when it is listed in a group, when it is the
    same art under another name (any ``kde:``, ``npm:``, ``pypi:`` or ``deb:``
    deck: their packages were kept back whole), or when it is a low-resolution
    print of such a design: reading any of them through ``--designs`` would be
    a look at a group that may be looked at once."""
    if name.startswith(lowres.PREFIX):
        return held_out_flag(lowres.parse_name(name).inner)
    if name.startswith(kdedeck.PREFIX):
        return "--kde"
    if name.startswith(npmdeck.PREFIX):
        return "--npm"
    if bitmapdeck.is_bitmap_deck(name):
        return "--bitmap"
    family = _font_family(name)
    return next((flag for flag, group in HELD_OUT_GROUPS.items()
                 if name in group or (family and family in map(_font_family, group))), None)


def _font_family(name: str) -> str:
    """A font deck's typeface family (another weight of a held-out face is the
    same face); "" for any other design."""
    return name.removeprefix("font:").split("/")[0] if name.startswith("font:") else ""


#: Groups read once and reported, whose designs a pass may name with
#: ``--designs`` as development data (``--read-groups``): their held-out figures
#: stand as taken, and nothing measured on them since is a held-out figure.  A
#: group joins only after its read is in docs/vision.md.
READ_GROUPS = ("--typefaces6", "--typefaces7", "--typefaces8", "--typefaces9",
               "--typefaces10", "--typefaces11", "--typefaces12", "--typefaces13",
               "--typefaces14", "--typefaces15", "--typefaces16", "--typefaces17",
               "--typefaces18", "--typefaces19", "--typefaces20", "--typefaces21",
               "--typefaces22", "--typefaces23", "--typefaces24", "--typefaces25",
               "--typefaces26", "--typefaces27", "--typefaces28", "--typefaces29",
               "--typefaces30", "--typefaces31", "--typefaces32")


def refuse_held_out(designs: tuple[str, ...], *, read_groups: bool = False) -> None:
    """Exit (status 2) naming the group if ``--designs`` lists a held-out
    design: a held-out group is read once, whole, with its own flag, so that
    no figure is chosen on part of it by accident.  ``read_groups``: designs
    of the groups in :data:`READ_GROUPS` are allowed (already read)."""
    allowed = READ_GROUPS if read_groups else ()
    named = [(n, flag) for n in designs
             if (flag := held_out_flag(n)) is not None and flag not in allowed]
    if named:
        listed = ", ".join(f"{n} ({flag})" for n, flag in named)
        print(f"--designs lists held-out designs: {listed}\n"
              "a held-out group is read once, at the end, with its own flag "
              "(docs/vision.md); tune and choose on the validation designs",
              file=sys.stderr)
        raise SystemExit(2)
