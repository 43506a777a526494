"""Installed TrueType / OpenType fonts, found by family, and SVG rendered with
exactly those fonts.

Fontconfig never says "no such font": asked for a family it lacks, it hands
out the closest one it has (``fc-match "C059"`` gives DejaVu Sans on a
machine without ``fonts-urw-base35``), and ``rsvg-convert`` draws SVG text
with whatever it gets.  A deck or a training set "in C059" could then
silently be in DejaVu.  So a family is looked up in ``fc-list`` (which lists
only what is really there), and SVG is rendered under a private fontconfig
that holds only the chosen font files (:func:`isolated_fonts`): nothing can be
substituted, and fonts installed later can never creep in.

Example::

    from hardware_sim.cards.truetype import find_font, isolated_fonts, render_svg
    f = find_font("DejaVu Serif", bold=True)   # f.file: .../dejavu/DejaVuSerif-Bold.ttf
    with isolated_fonts([f.file]) as env:
        bgra = render_svg('<svg ...><text font-family="DejaVu Serif">A</text></svg>', env)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import cv2

from hardware_sim.cards._img import Image, u8

#: Debian packages that provide font families a deck or a benchmark may ask for
#: (names as ``fc-list`` spells them; from each package's file list)
FONT_PACKAGES: dict[str, str] = {
    **dict.fromkeys(("DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"), "fonts-dejavu-core"),
    **dict.fromkeys(("DejaVu Sans Condensed", "DejaVu Serif Condensed", "DejaVu Sans Light",
                     "DejaVu Math TeX Gyre"), "fonts-dejavu-extra"),
    **dict.fromkeys(("Liberation Sans", "Liberation Serif", "Liberation Mono",
                     "Liberation Sans Narrow"), "fonts-liberation"),
    **dict.fromkeys(("C059", "P052", "URW Bookman", "URW Gothic", "Nimbus Sans",
                     "Nimbus Sans Narrow", "Nimbus Roman", "Nimbus Mono PS", "Z003",
                     "D050000L", "Standard Symbols PS"), "fonts-urw-base35"),
    **dict.fromkeys(("FreeSerif", "FreeSans", "FreeMono"), "fonts-freefont-ttf"),
    **dict.fromkeys(("Noto Serif", "Noto Sans"), "fonts-noto-core"),
    "Open Sans": "fonts-open-sans",
    "Caladea": "fonts-crosextra-caladea",
    "Carlito": "fonts-crosextra-carlito",
    # the eleventh pass's --more-fonts training faces
    # (benchmarks/vision_fontdeck.py MORE_FONT_FAMILIES)
    "Yanone Kaffeesatz": "fonts-yanone-kaffeesatz",
    **dict.fromkeys(("PT Sans Narrow", "PT Sans", "PT Serif"), "fonts-paratype"),
    **dict.fromkeys(("Roboto Condensed", "Roboto"), "fonts-roboto-unhinted"),
    "Roboto Slab": "fonts-roboto-slab",
    "Dosis": "fonts-dosis",
    **dict.fromkeys(("Linux Libertine O", "Linux Biolinum O"), "fonts-linuxlibertine"),
    "EB Garamond": "fonts-ebgaramond",
    "Gentium Plus": "fonts-sil-gentiumplus",
    "Lato": "fonts-lato",
    "Cantarell": "fonts-cantarell",
    **dict.fromkeys(("Go", "Go Mono"), "fonts-go"),
    "Comfortaa": "fonts-comfortaa",
    "Cabin": "fonts-cabin",
    # the fifteenth pass's --extra-rank-fonts training faces
    # (benchmarks/vision_fontdeck.py EXTRA_FONT_FAMILIES)
    **dict.fromkeys(("League Mono Condensed", "League Mono Narrow"), "fonts-league-mono"),
    "osifont": "fonts-osifont",
    "Karla": "fonts-karla",
    "Quicksand": "fonts-quicksand",
    "Play": "fonts-play",
    "Courier Prime": "fonts-courier-prime",
    "Anonymous Pro": "fonts-anonymous-pro",
    # kept out of training: typeface stress decks (benchmarks/vision_split.py FONT_STRESS)
    "Bebas Neue": "fonts-bebas-neue",
    **dict.fromkeys(("Gillius ADF No2 Cond", "Gillius ADF Cond"), "fonts-adf-gillius"),
    "Jura": "fonts-jura",
    # the sixth held-out group: typefaces (benchmarks/vision_split.py TYPEFACE_HELD_OUT)
    "CMU Serif": "fonts-cmu",
    "Old Standard TT": "fonts-oldstandard",
    "Junicode Two Beta": "fonts-junicode",
    "League Spartan": "fonts-league-spartan",
    "Manrope": "fonts-manrope",
    "Andika": "fonts-sil-andika",
    "B612": "fonts-b612",
    "JetBrains Mono": "fonts-jetbrains-mono",
    # the seventh held-out group: typefaces (benchmarks/vision_split.py TYPEFACE2_HELD_OUT)
    "Inter": "fonts-inter",
    "Charis SIL": "fonts-sil-charis",
    "Fira Code": "fonts-firacode",
    "Quattrocento": "fonts-quattrocento",
    "Clear Sans": "fonts-clear-sans",
    "Tiresias Signfont": "fonts-tiresias",
    "GFS Didot": "fonts-gfs-didot",
    "OSP-DIN": "fonts-opendin",
    # the eighth held-out group: typefaces (benchmarks/vision_split.py TYPEFACE3_HELD_OUT)
    "Oxygen-Sans": "fonts-oxygen",
    "Junction": "fonts-junction",
    "Roadgeek 2014 Series C": "fonts-roadgeek",
    "Cardo": "fonts-cardo",
    "Yrsa": "fonts-yrsa-rasa",
    "Comic Neue": "fonts-comic-neue",
    "Tuffy": "fonts-tuffy",
    "Baskervald ADF Std": "fonts-adf-baskervald",
    # the ninth held-out group: typefaces (benchmarks/vision_split.py TYPEFACE4_HELD_OUT)
    "Accanthis ADF Std": "fonts-adf-accanthis",
    "Libris ADF Std": "fonts-adf-libris",
    "Universalis ADF Std": "fonts-adf-universalis",
    "Irianis ADF Std": "fonts-adf-irianis",
    "Prociono": "fonts-prociono",
    "GFS Neohellenic": "fonts-gfs-neohellenic",
    "BetecknaGSCondensed": "fonts-beteckna",
    "Berenis ADF Pro": "fonts-adf-berenis",
    # the tenth held-out group: typefaces (benchmarks/vision_split.py TYPEFACE5_HELD_OUT)
    "Tribun ADF Std": "fonts-adf-tribun",
    "Fanwood Text": "fonts-fanwood",
    "Goudy Bookletter 1911": "fonts-goudybookletter",
    "Verana Sans": "fonts-adf-verana",
    "Romande ADF Std": "fonts-adf-romande",
    "Averia Sans GWF": "fonts-averia-sans-gwf",
    "mononoki": "fonts-mononoki",
    "Ikarius ADF Std": "fonts-adf-ikarius",
    # the eleventh held-out group: typefaces (benchmarks/vision_split.py TYPEFACE6_HELD_OUT)
    "Oldania ADF Std": "fonts-adf-oldania",
    "ElstobD": "fonts-elstob",
    "Linden Hill": "fonts-lindenhill",
    "OCR B": "fonts-ocr-b",
    "Monoid": "fonts-monoid",
    "Fantasque Sans Mono": "fonts-fantasque-sans",
    "OpenDyslexic": "fonts-opendyslexic",
    "Humor Sans": "fonts-humor-sans",
    # the twelfth held-out group: typefaces (benchmarks/vision_split.py TYPEFACE7_HELD_OUT)
    **dict.fromkeys(("Dustismo", "Dustismo Roman"), "fonts-dustin"),
    "Mekanus ADF Std": "fonts-adf-mekanus",
    "Solothurn": "fonts-adf-solothurn",
    "Museum": "fonts-levien-museum",
    "Essays1743": "fonts-essays1743",
    "Hermit": "fonts-hermit",
    "monofur": "fonts-monofur",
    "Cherry Bomb": "fonts-cherrybomb",
    "Breip": "fonts-breip",
    "Delphine": "fonts-sjfonts",
    "TypoScript": "fonts-levien-typoscript",
    "MPH 2B Damase": "fonts-mph-2b-damase",
    "Quercus": "fonts-linex",
    "Inconsolata": "fonts-inconsolata",
    "IBM 3270": "fonts-3270",
    "Agave": "fonts-agave",
    "Vollkorn": "fonts-vollkorn",
    # the fourteenth held-out group (benchmarks/vision_split.py TYPEFACE9_HELD_OUT)
    "Berenika": "fonts-klaudia-berenika",
    "UnBatang": "fonts-unfonts-core",
    "Arapey": "fonts-arapey",
    "NanumGothic": "fonts-nanum",
    "BIZ UDGothic": "fonts-morisawa-bizud-gothic",
    "M PLUS 1": "fonts-mplus",
    "Garuda": "fonts-tlwg-garuda-ttf",
    "okolaks": "fonts-okolaks",
    # the fifteenth held-out group (benchmarks/vision_split.py TYPEFACE10_HELD_OUT)
    "IPAMincho": "fonts-ipafont-mincho",
    "Baekmuk Batang": "fonts-baekmuk",
    "GNUTypewriter": "fonts-gnutypewriter",
    "Sawarabi Gothic": "fonts-sawarabi-gothic",
    "Manjari": "fonts-smc-manjari",
    "Gayathri": "fonts-smc-gayathri",
    "Gemunu Libre": "fonts-gemunu-libre",
    "Meera Inimai": "fonts-meera-inimai",
    # the sixteenth held-out group (benchmarks/vision_split.py TYPEFACE11_HELD_OUT)
    "Klee One": "fonts-klee",
    "MotoyaLMaru": "fonts-motoya-l-maruberi",
    "Uroob": "fonts-smc-uroob",
    "AR PL UMing CN": "fonts-arphic-uming",
    "Dyuthi": "fonts-smc-dyuthi",
    "BM DoHyeon": "fonts-woowa-bm",
    "Oradano-mincho-GSRR": "fonts-oradano-mincho-gsrr",
    "cwTeXHeiBold": "fonts-cwtex-heib",
    # the seventeenth held-out group (TYPEFACE12_HELD_OUT)
    "Kinnari": "fonts-tlwg-kinnari-ttf",
    "D2Coding": "fonts-naver-d2coding",
    "Radis Sans": "fonts-radisnoir",
    "Solide Mirage": "fonts-solide-mirage",
    "Apropal": "fonts-apropal",
    "RocknRoll One": "fonts-rocknroll",
    "Konatu": "fonts-konatu",
    "TriodPostnaja": "fonts-triod-postnaja",
    # the eighteenth held-out group (TYPEFACE13_HELD_OUT)
    "Millimetre": "fonts-millimetre",
    "Blankenburg_UNZ1A": "fonts-blankenburg",
    "Campania": "fonts-campania",
    "DkgHandwriting": "fonts-dkg-handwriting",
    "Stick": "fonts-stick",
    "Yusei Magic": "fonts-yusei-magic",
    "Havana": "fonts-havana",
    "Reggae One": "fonts-reggae",
    # the nineteenth held-out group (TYPEFACE14_HELD_OUT)
    "Crystal": "fonts-povray",
    "GFS Theokritos": "fonts-gfs-theokritos",
    "IM FELL DW Pica": "fonts-cegui",
    "KouzanBrushFont": "fonts-kouzan-mouhitsu",
    "DSEG14 Classic": "fonts-dseg",
    "Jekyll BRK": "fonts-aenigma",
    "Larkspur BRK": "fonts-aenigma",
    "Aegean": "fonts-ancient-scripts",
    # the twentieth held-out group (TYPEFACE15_HELD_OUT)
    "Fantasma": "fonts-fantasma",
    "Purisa": "fonts-tlwg-purisa-ttf",
    "Jessen": "fonts-gotico-antiqua",
    "Nanum Brush Script": "fonts-nanum-extra",
    "UnPilgi": "fonts-unfonts-core",
    "Gidugu": "fonts-teluguvijayam",
    # the twenty-first held-out group (TYPEFACE16_HELD_OUT)
    "Ferrite Core DX": "fonts-ferrite-core",
    "BabelStone Modern": "fonts-babelstone-modern",
    "YOzS": "fonts-yozvox-yozfont-standard-kana",
    "Because We Learn": "fonts-bwht",
    "Because We Build": "fonts-bwht",
    "Unifont": "fonts-unifont",
    "MisakiGothic": "fonts-misaki",
    # the twentieth pass's training faces (vision_fontdeck.TWENTIETH_FONTS), found
    # again with apt-file for the twenty-ninth pass (they had gone unrecorded)
    "eurofurence": "fonts-eurofurence",
    "Routed Gothic": "fonts-routed-gothic",
    "Caslon": "fonts-georgewilliams",
    "Cupola": "fonts-georgewilliams",
    "GWMonospace": "fonts-georgewilliams",
    "STIXGeneral": "fonts-stix",
    "Isabella": "fonts-isabella",
    "femkeklaver": "fonts-femkeklaver",
    "Ecolier_court": "fonts-ecolier-court",
    "Tomson Talks": "fonts-tomsontalks",
    "Dancing Script": "fonts-dancingscript",
    "Kaushan Script": "fonts-kaushanscript",
    "StayPuft": "fonts-staypuft",
    "Rufscript": "fonts-rufscript",
    "Le Murmure": "fonts-le-murmure",
    "Compagnon": "fonts-compagnon",
    "Lemonada": "fonts-lemonada",
    "GFS Artemisia": "fonts-gfs-artemisia",
    "Summersby": "fonts-summersby",
    "Train One": "fonts-train",
    "Leckerli One": "fonts-leckerli-one",
    "National Park": "fonts-national-park",
    "Engadget": "fonts-engadget",
    # the twenty-second held-out group (TYPEFACE17_HELD_OUT): npm packages, which
    # scripts/bench_fonts.sh installs for the user
    "Merriweather": "npm:@expo-google-fonts/merriweather@0.4.2",
    "Zilla Slab": "npm:@expo-google-fonts/zilla-slab@0.4.1",
    "Archivo Black": "npm:@expo-google-fonts/archivo-black@0.4.1",
    "Josefin Sans": "npm:@expo-google-fonts/josefin-sans@0.4.2",
    "Cinzel": "npm:@expo-google-fonts/cinzel@0.4.2",
    "Caveat": "npm:@expo-google-fonts/caveat@0.4.2",
    "Amatic SC": "npm:@expo-google-fonts/amatic-sc@0.4.2",
    # the twenty-third held-out group (TYPEFACE18_HELD_OUT): npm packages, likewise
    "Bangers": "npm:@expo-google-fonts/bangers@0.4.1",
    "Orbitron": "npm:@expo-google-fonts/orbitron@0.4.2",
    "Indie Flower": "npm:@expo-google-fonts/indie-flower@0.4.1",
    "Black Ops One": "npm:@expo-google-fonts/black-ops-one@0.4.1",
    "Press Start 2P": "npm:@expo-google-fonts/press-start-2p@0.4.1",
    "Lora": "npm:@expo-google-fonts/lora@0.4.2",
    "Kalam": "npm:@expo-google-fonts/kalam@0.4.1",
    # the twenty-fourth held-out group (TYPEFACE19_HELD_OUT): npm packages, likewise
    "Alfa Slab One": "npm:@expo-google-fonts/alfa-slab-one@0.4.1",
    "Poiret One": "npm:@expo-google-fonts/poiret-one@0.4.1",
    "Uncial Antiqua": "npm:@expo-google-fonts/uncial-antiqua@0.4.1",
    "Bungee": "npm:@expo-google-fonts/bungee@0.4.1",
    "Gloria Hallelujah": "npm:@expo-google-fonts/gloria-hallelujah@0.4.1",
    "Limelight": "npm:@expo-google-fonts/limelight@0.4.1",
    "Syncopate": "npm:@expo-google-fonts/syncopate@0.4.1",
    # the twenty-fifth held-out group (TYPEFACE20_HELD_OUT): npm packages, likewise
    "Varela Round": "npm:@expo-google-fonts/varela-round@0.4.1",
    "Inknut Antiqua": "npm:@expo-google-fonts/inknut-antiqua@0.4.1",
    "Righteous": "npm:@expo-google-fonts/righteous@0.4.1",
    "Knewave": "npm:@expo-google-fonts/knewave@0.4.1",
    "Unbounded": "npm:@expo-google-fonts/unbounded@0.4.1",
    "Chicle": "npm:@expo-google-fonts/chicle@0.4.1",
    "Trade Winds": "npm:@expo-google-fonts/trade-winds@0.4.1",
    # the twenty-sixth held-out group (TYPEFACE21_HELD_OUT): npm packages, likewise
    "Tenor Sans": "npm:@expo-google-fonts/tenor-sans@0.4.1",
    "Spectral": "npm:@expo-google-fonts/spectral@0.4.1",
    "Courgette": "npm:@expo-google-fonts/courgette@0.4.1",
    "Lilita One": "npm:@expo-google-fonts/lilita-one@0.4.1",
    "Instrument Serif": "npm:@expo-google-fonts/instrument-serif@0.4.1",
    "Shrikhand": "npm:@expo-google-fonts/shrikhand@0.4.1",
    "Kanit": "npm:@expo-google-fonts/kanit@0.4.1",
    # the twenty-seventh held-out group (TYPEFACE22_HELD_OUT): npm packages, likewise
    "Finger Paint": "npm:@expo-google-fonts/finger-paint@0.4.1",
    "Henny Penny": "npm:@expo-google-fonts/henny-penny@0.4.1",
    "Stalinist One": "npm:@expo-google-fonts/stalinist-one@0.4.1",
    "Potta One": "npm:@expo-google-fonts/potta-one@0.4.1",
    "Londrina Solid": "npm:@expo-google-fonts/londrina-solid@0.4.1",
    "Macondo": "npm:@expo-google-fonts/macondo@0.4.1",
    "Hachi Maru Pop": "npm:@expo-google-fonts/hachi-maru-pop@0.4.1",
    # the twenty-eighth held-out group (TYPEFACE23_HELD_OUT): npm packages, likewise
    "Fredericka the Great": "npm:@expo-google-fonts/fredericka-the-great@0.4.1",
    "Mountains of Christmas": "npm:@expo-google-fonts/mountains-of-christmas@0.4.1",
    "Reenie Beanie": "npm:@expo-google-fonts/reenie-beanie@0.4.1",
    "Metal Mania": "npm:@expo-google-fonts/metal-mania@0.4.1",
    "Butcherman": "npm:@expo-google-fonts/butcherman@0.4.1",
    "Cherry Cream Soda": "npm:@expo-google-fonts/cherry-cream-soda@0.4.0",
    "Akronim": "npm:@expo-google-fonts/akronim@0.4.0",
    # the twenty-ninth held-out group (TYPEFACE24_HELD_OUT): npm packages, likewise
    "Domine": "npm:@expo-google-fonts/domine@0.4.2",
    "Carter One": "npm:@expo-google-fonts/carter-one@0.4.1",
    "Chango": "npm:@expo-google-fonts/chango@0.4.1",
    "Faster One": "npm:@expo-google-fonts/faster-one@0.4.1",
    "Homemade Apple": "npm:@expo-google-fonts/homemade-apple@0.4.1",
    "Black Han Sans": "npm:@expo-google-fonts/black-han-sans@0.4.1",
    "Emilys Candy": "npm:@expo-google-fonts/emilys-candy@0.4.1",
    # the thirtieth held-out group (TYPEFACE25_HELD_OUT): npm packages, likewise
    "Anton": "npm:@expo-google-fonts/anton@0.4.2",
    "Staatliches": "npm:@expo-google-fonts/staatliches@0.4.1",
    "Fredoka": "npm:@expo-google-fonts/fredoka@0.4.1",
    "Wallpoet": "npm:@expo-google-fonts/wallpoet@0.4.1",
    "Satisfy": "npm:@expo-google-fonts/satisfy@0.4.1",
    "Bevan": "npm:@expo-google-fonts/bevan@0.4.2",
    "VT323": "npm:@expo-google-fonts/vt323@0.4.1",
    # the thirty-first held-out group (TYPEFACE26_HELD_OUT): npm packages, likewise
    "Syne": "npm:@expo-google-fonts/syne@0.4.2",
    "Philosopher": "npm:@expo-google-fonts/philosopher@0.4.1",
    "Ranchers": "npm:@expo-google-fonts/ranchers@0.4.1",
    "Jacques Francois Shadow": "npm:@expo-google-fonts/jacques-francois-shadow@0.4.1",
    "Rakkas": "npm:@expo-google-fonts/rakkas@0.4.1",
    "Sedgwick Ave Display": "npm:@expo-google-fonts/sedgwick-ave-display@0.4.1",
    "Bakbak One": "npm:@expo-google-fonts/bakbak-one@0.4.1",
    # the thirty-second held-out group (TYPEFACE27_HELD_OUT): npm packages, likewise
    "Bricolage Grotesque": "npm:@expo-google-fonts/bricolage-grotesque@0.4.1",
    "Suez One": "npm:@expo-google-fonts/suez-one@0.4.1",
    "Akaya Kanadaka": "npm:@expo-google-fonts/akaya-kanadaka@0.4.1",
    "Agbalumo": "npm:@expo-google-fonts/agbalumo@0.4.1",
    "Kings": "npm:@expo-google-fonts/kings@0.4.2",
    "Dokdo": "npm:@expo-google-fonts/dokdo@0.4.1",
    "Risque": "npm:@expo-google-fonts/risque@0.4.1",
    # the thirty-third held-out group (TYPEFACE28_HELD_OUT): npm packages, likewise
    "Playball": "npm:@expo-google-fonts/playball@0.4.2",
    "Caudex": "npm:@expo-google-fonts/caudex@0.4.1",
    "Sansita": "npm:@expo-google-fonts/sansita@0.4.1",
    "Darumadrop One": "npm:@expo-google-fonts/darumadrop-one@0.4.2",
    "Zen Kurenaido": "npm:@expo-google-fonts/zen-kurenaido@0.4.1",
    "Modak": "npm:@expo-google-fonts/modak@0.4.1",
    "Slackside One": "npm:@expo-google-fonts/slackside-one@0.4.2",
    # the thirty-fourth held-out group (TYPEFACE29_HELD_OUT): npm packages, likewise
    "Bowlby One": "npm:@expo-google-fonts/bowlby-one@0.4.1",
    "Sarina": "npm:@expo-google-fonts/sarina@0.4.1",
    "Oleo Script": "npm:@expo-google-fonts/oleo-script@0.4.1",
    "Sofia": "npm:@expo-google-fonts/sofia@0.4.1",
    "Trochut": "npm:@expo-google-fonts/trochut@0.4.1",
    "Changa": "npm:@expo-google-fonts/changa@0.4.2",
    "Merienda": "npm:@expo-google-fonts/merienda@0.4.2",
    # the thirty-fifth held-out group (TYPEFACE30_HELD_OUT): npm packages, likewise
    "Ultra": "npm:@expo-google-fonts/ultra@0.4.0",
    "Fruktur": "npm:@expo-google-fonts/fruktur@0.4.1",
    "Iceland": "npm:@expo-google-fonts/iceland@0.4.0",
    "Just Another Hand": "npm:@expo-google-fonts/just-another-hand@0.4.1",
    "Euphoria Script": "npm:@expo-google-fonts/euphoria-script@0.4.1",
    "Coiny": "npm:@expo-google-fonts/coiny@0.4.1",
    "Racing Sans One": "npm:@expo-google-fonts/racing-sans-one@0.4.1",
    # the thirty-sixth held-out group (TYPEFACE31_HELD_OUT): npm packages, likewise
    "Niconne": "npm:@expo-google-fonts/niconne@0.4.1",
    "Sue Ellen Francisco": "npm:@expo-google-fonts/sue-ellen-francisco@0.4.1",
    "Keania One": "npm:@expo-google-fonts/keania-one@0.4.0",
    "Eagle Lake": "npm:@expo-google-fonts/eagle-lake@0.4.0",
    "Smythe": "npm:@expo-google-fonts/smythe@0.4.1",
    "Offside": "npm:@expo-google-fonts/offside@0.4.2",
    "Nerko One": "npm:@expo-google-fonts/nerko-one@0.4.1",
    # the thirty-seventh held-out group (TYPEFACE32_HELD_OUT): npm packages, likewise
    "Jim Nightshade": "npm:@expo-google-fonts/jim-nightshade@0.4.1",
    "Oldenburg": "npm:@expo-google-fonts/oldenburg@0.4.1",
    "Devonshire": "npm:@expo-google-fonts/devonshire@0.4.1",
    "Joti One": "npm:@expo-google-fonts/joti-one@0.4.1",
    "Passero One": "npm:@expo-google-fonts/passero-one@0.4.1",
    "Sofadi One": "npm:@expo-google-fonts/sofadi-one@0.4.1",
    "Flavors": "npm:@expo-google-fonts/flavors@0.4.1",
    # the thirty-eighth held-out group (TYPEFACE33_HELD_OUT): npm packages, likewise
    "Italiana": "npm:@expo-google-fonts/italiana@0.4.1",
    "Lancelot": "npm:@expo-google-fonts/lancelot@0.4.1",
    "Milonga": "npm:@expo-google-fonts/milonga@0.4.1",
    "Marko One": "npm:@expo-google-fonts/marko-one@0.4.1",
    "Mr Dafoe": "npm:@expo-google-fonts/mr-dafoe@0.4.1",
    "Caesar Dressing": "npm:@expo-google-fonts/caesar-dressing@0.2.2",
    "Ruslan Display": "npm:@expo-google-fonts/ruslan-display@0.2.3",
}
#: font formats Pango (hence rsvg-convert) draws; it skips Type 1 and bitmap files
#: even where fontconfig would pick them (``fonts-urw-base35`` installs both)
DRAWABLE_FORMATS = ("TrueType", "CFF")
#: fontconfig weights: regular is 80, bold 200; demibold (180) counts as bold, as
#: URW Bookman and URW Gothic call their bold "Demi"
BOLD_FROM = 180
REGULAR, BOLD = 80, 200
NORMAL_WIDTH = 100


class FontMissing(LookupError):
    """A font family (or its bold) is not installed; the message names the package."""


@dataclass(frozen=True)
class FontFile:
    """One installed font file as ``fc-list`` describes it."""

    family: str  # the family asked for
    style: str
    weight: int
    slant: int
    width: int
    fontformat: str
    file: str


def _fc(args: list[str]) -> str:
    exe = shutil.which(args[0])
    if exe is None:
        raise RuntimeError(f"{args[0]} not found: install the Debian package fontconfig")
    proc = subprocess.run([exe, *args[1:]], capture_output=True, text=True, timeout=60,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout


_FIELDS = "%{family}\t%{style}\t%{weight}\t%{slant}\t%{width}\t%{fontformat}\t%{file}\n"


def font_charset(path: str) -> set[int]:
    """The code points the font file maps (``fc-query``'s charset): a label
    with a character outside it is drawn as an empty box, not as ink."""
    return parse_charsets(_fc(["fc-query", "--format", "%{charset}\n", path]))


def parse_charsets(text: str) -> set[int]:
    """The code points of ``fc-query``'s charsets, one line per face: a font
    collection (``.ttc``) has several faces, whose charsets would otherwise
    run together ("...2fa1d" and "20-7f" as "2fa1d20-7f")."""
    out: set[int] = set()
    for part in text.split():
        lo, _, hi = part.partition("-")
        out.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return out


def font_files(family: str) -> list[FontFile]:
    """Every installed file whose family list names ``family`` (any style), from
    ``fc-list``; empty if none.  Fontconfig compares names ignoring case and spaces."""
    out = []
    for line in _fc(["fc-list", "--format", _FIELDS, f":family={family}"]).splitlines():
        parts = line.split("\t")
        if len(parts) != 7:
            continue
        _, style, weight, slant, width, fmt, path = parts
        out.append(FontFile(family, style.split(",")[0], _int(weight), _int(slant),
                            _int(width, NORMAL_WIDTH), fmt, path))
    return sorted(out, key=lambda f: f.file)


def _int(text: str, default: int = 0) -> int:
    """fontconfig prints a range (``[80 200]``) for variable fonts: take its start."""
    t = text.strip("[] ").split()
    try:
        return int(float(t[0])) if t else default
    except ValueError:
        return default


def substitute(family: str) -> str:
    """The family fontconfig would hand out for ``family`` (itself if installed)."""
    return _fc(["fc-match", "--format", "%{family}", family]).split(",")[0]


def install_hint(family: str) -> str:
    pkg = FONT_PACKAGES.get(family)
    if pkg and pkg.startswith("npm:"):
        return f"install it with: scripts/bench_fonts.sh (the npm package {pkg[4:]})"
    if pkg:
        return f"install it with: apt-get install -y {pkg}"
    return "install the Debian package that provides it (apt-cache search --names-only fonts-)"


def find_font(family: str, *, bold: bool = False) -> FontFile:
    """The upright file of ``family`` Pango can draw, regular or bold (nearest
    weight, normal width first); :class:`FontMissing` if there is none."""
    files = [f for f in font_files(family) if f.fontformat in DRAWABLE_FORMATS]
    if not files:
        raise FontMissing(
            f"font family {family!r} is not installed (fontconfig would silently draw "
            f"{substitute(family)!r} instead); {install_hint(family)}"
        )
    upright = [f for f in files if f.slant == 0 and (f.weight >= BOLD_FROM) == bold]
    if not upright:
        what = "bold" if bold else "regular"
        raise FontMissing(
            f"font family {family!r} has no upright {what} face installed "
            f"(found: {', '.join(sorted({f.style for f in files}))}); {install_hint(family)}"
        )
    target = BOLD if bold else REGULAR
    return min(upright, key=lambda f: (abs(f.width - NORMAL_WIDTH), abs(f.weight - target),
                                       f.file))


_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
  <include ignore_missing="yes">/etc/fonts/conf.d</include>
</fontconfig>
"""


@contextmanager
def isolated_fonts(files: Iterable[str]) -> Iterator[dict[str, str]]:
    """An environment for subprocesses whose fontconfig knows only ``files``
    (linked into a temporary folder; the system's rendering rules still apply)."""
    with tempfile.TemporaryDirectory(prefix="pontoon-fonts-") as tmp:
        fonts = Path(tmp) / "fonts"
        fonts.mkdir()
        for i, f in enumerate(sorted(set(files))):
            src = Path(f)
            if not src.is_file():
                raise FontMissing(f"font file {f} is not installed")
            (fonts / f"{i:03d}-{src.name}").symlink_to(src.resolve())
        conf = Path(tmp) / "fonts.conf"
        conf.write_text(_CONF.format(fonts=fonts, cache=Path(tmp) / "cache"), encoding="utf-8")
        yield {**os.environ, "FONTCONFIG_FILE": str(conf)}


def render_svg(svg: str, env: dict[str, str] | None = None) -> Image:
    """``svg`` drawn by ``rsvg-convert`` (Debian ``librsvg2-bin``) as BGRA, at the
    size the SVG states, under ``env`` (e.g. from :func:`isolated_fonts`)."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise RuntimeError("rsvg-convert not found: install the Debian package librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.svg", Path(tmp) / "out.png"
        src.write_text(svg, encoding="utf-8")
        proc = subprocess.run([exe, "-o", str(dst), str(src)], capture_output=True, text=True,
                              timeout=120, check=False, env=env)
        if proc.returncode != 0 or not dst.exists():
            raise RuntimeError(f"rsvg-convert failed: {proc.stderr.strip()}")
        img = cv2.imread(str(dst), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise RuntimeError("rsvg-convert gave no RGBA image")
    return u8(img)


__all__ = [
    "FONT_PACKAGES",
    "FontFile",
    "FontMissing",
    "find_font",
    "font_files",
    "install_hint",
    "isolated_fonts",
    "render_svg",
    "substitute",
]
