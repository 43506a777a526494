"""Which card designs vision may be tuned on, and which are held out.

Whole design *families* (designs sharing drawings, per
``hardware_sim.cards.gnome.DESIGNS``) are either tuning or held out, so the
held-out figures say what a deck nobody looked at would get.  The built-in
OpenCV styles are tuning designs too, except ``four_color`` (its font, Hershey
COMPLEX, and its blue/green inks are kept out of the generic model's training).
"""

from __future__ import annotations

from hardware_sim.cards import CARD_CODES, Deck, open_deck
from hardware_sim.cards.gnome import info, must_be_unsure

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


def open_design(name: str, width: int = 250) -> Deck:
    return open_deck(name, width=width)


def is_standard(name: str, code: str) -> bool:
    if name.startswith("builtin"):
        return True
    return not must_be_unsure(name, code)


def standard_codes(name: str) -> list[str]:
    return [c for c in CARD_CODES if is_standard(name, c)]


def family(name: str) -> str:
    return "builtin" if name.startswith("builtin") else info(name).family
