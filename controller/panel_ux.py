"""What each button panel shows and what its buttons mean (pure).

A seat panel has a handful of buttons and a 2×16 text display, so a decision
with an amount is made in two steps: STAKE_UP / STAKE_DOWN move an amount
shown on the panel within the range the rules engine allows, then one press
uses it.  This module turns the engine's ``pending`` and ``legal_actions`` into
each panel's lamps and text, and a press into an engine action (or a refusal
worded for the player).  It keeps only the shown amounts; it never decides a
rule: a lamp is lit exactly when the engine lists the matching action.

Buttons and what they do:

=========================  ========================================================
need (engine)              buttons (seat of the player concerned)
=========================  ========================================================
initial stake              STAKE_UP / STAKE_DOWN set the amount, CONFIRM stakes it
shoot bet (before 2nd)     STAKE_UP / STAKE_DOWN set the amount (0 = none),
                           CONFIRM or SHOOT places it
a hand's decision          TWIST, STICK, SPLIT, DOUBLE, EVEN_MONEY: one press;
                           BUY and SHOOT use the amount dial (below);
                           INSURE insures for the amount the rules fix
banker's turn              the banker's own TWIST (draw) / STICK (stay), or the
                           dealer panel's DRAW / STAY
kitty                      the banker's STAKE_UP / STAKE_DOWN then CONFIRM
between deals              the dealer panel's NEXT starts the next deal; the banker
                           may add to the kitty with STAKE_UP / DOWN then CONFIRM
=========================  ========================================================

The amount dial of a hand's decision belongs to one word at a time, and the
panel says which: ``Buy 3? BUY`` or ``Shoot 2? SHOOT``, each with its own
range.  It belongs to BUY when a buy is open (else to SHOOT).  Pressing the
other word's button only moves the dial to that word (starting at its
least amount); STAKE_UP / STAKE_DOWN adjust it; pressing the word the dial
shows places that amount.  So a shoot while a buy is also open is SHOOT
(dial moves), UP/DOWN, SHOOT; BUY moves it back.  A press never uses an
amount the panel did not show for that word.

The dealer panel's PAUSE pauses or resumes the table; its CONFIRM answers the
table's question when one is open (handled by the table, not here).

Simulated people press buttons through :func:`presses_for`, which says which
presses turn the currently shown amount into a wanted action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from controller.rules import (
    Action,
    Amount,
    BankDecide,
    BankNeed,
    BetweenDeals,
    CardNeed,
    Decide,
    DecisionNeed,
    KittyNeed,
    LegalAction,
    Need,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    ShootNeed,
    StakeNeed,
    StartDeal,
)
from firmware_bridge.wire import Button, Light, button_light

#: the decision words of the engine and the seat-panel button for each
WORD_BUTTON: dict[str, Button] = {
    "twist": Button.TWIST,
    "stick": Button.STICK,
    "buy": Button.BUY,
    "split": Button.SPLIT,
    "double": Button.DOUBLE,
    "shoot": Button.SHOOT,
    "insurance": Button.INSURE,
    "even-money": Button.EVEN_MONEY,
}
BUTTON_WORD: dict[Button, str] = {b: w for w, b in WORD_BUTTON.items()}
#: words whose amount comes from the panel's shown amount
AMOUNT_WORDS = frozenset({"buy", "shoot"})
DEALER = "dealer"
TEXT_MAX = 32


@dataclass(frozen=True)
class PanelView:
    """One panel's wanted state: the lamp mask and the text."""

    lights: int
    text: str

    def buttons(self) -> list[str]:
        """Names of the lit buttons (for the snapshot)."""
        return [b.name for b in Button if self.lights & button_light(b)]


@dataclass(frozen=True)
class Press:
    """The outcome of one press: an action for the engine, a refusal, or neither."""

    action: Action | None = None
    refusal: str | None = None
    #: the press only changed what the panel shows (an amount step)
    changed: bool = False


@dataclass(frozen=True)
class AmountRange:
    minimum: Amount
    maximum: Amount | None
    step: Amount = 1

    def clamp(self, value: Amount) -> Amount:
        if value < self.minimum:
            return self.minimum
        if self.maximum is not None and value > self.maximum:
            return self.maximum
        return value


@dataclass
class PanelUx:
    """Shown amounts per person; everything else is computed from the engine."""

    #: amount each person's panel shows, for the amount being chosen now
    shown: dict[str, Amount] = field(default_factory=dict)
    #: the last stake each player confirmed (a good starting amount next deal)
    last_stake: dict[str, Amount] = field(default_factory=dict)
    #: key of the question each shown amount belongs to; a new question resets it
    _topic: dict[str, tuple[object, ...]] = field(default_factory=dict)
    #: the word a player moved their decision dial to (until the table moves on)
    _dial: dict[str, str] = field(default_factory=dict)

    # -- what is being asked of whom ----------------------------------------------

    def amount_choice(
        self, person: str, need: Need, legal: Sequence[LegalAction], banker: str | None
    ) -> tuple[str, AmountRange] | None:
        """The amount ``person`` is choosing now (what it is for, and its range)."""
        if isinstance(need, StakeNeed):
            family = _find(legal, PlaceStake, player=person)
            return None if family is None else ("stake", _range(family))
        if isinstance(need, ShootNeed) and need.player == person:
            family = _find(legal, PlaceShoot, player=person)
            return None if family is None else ("shoot", _range(family))
        if isinstance(need, DecisionNeed) and need.player == person:
            spans = self.dial_words(person, legal)
            if not spans:
                return None
            word = self._dial.get(person, "")
            if word not in spans:
                word = next(iter(spans))  # BUY's when a buy is open
            return word, spans[word]
        if isinstance(need, KittyNeed | BetweenDeals) and person == banker:
            family = _find(legal, PutKitty)
            return None if family is None else ("kitty", _range(family))
        return None

    @staticmethod
    def dial_words(person: str, legal: Sequence[LegalAction]) -> dict[str, AmountRange]:
        """The amount words open to ``person`` now, each with its own range (BUY first)."""
        spans: dict[str, AmountRange] = {}
        for word in ("buy", "shoot"):
            family = _find(legal, Decide, player=person, word=word)
            if family is not None and family.minimum is not None:
                spans[word] = _range(family)
        return spans

    def shown_amount(
        self, person: str, need: Need, legal: Sequence[LegalAction], banker: str | None
    ) -> Amount | None:
        choice = self.amount_choice(person, need, legal, banker)
        if choice is None:
            return None
        what, span = choice
        topic = (what, type(need).__name__, getattr(need, "hand", None), span.minimum, span.maximum)
        if self._topic.get(person) != topic:
            self._topic[person] = topic
            start: Amount = span.minimum
            if what == "stake" and person in self.last_stake:
                start = span.clamp(self.last_stake[person])
            elif what == "kitty" and isinstance(need, BetweenDeals):
                # Adding is optional between deals: start at 0 (CONFIRM adds nothing),
                # so after a put the panel visibly goes back to 0.
                start = 0
            self.shown[person] = start
        return self.shown.get(person, span.minimum)

    # -- lamps and text ---------------------------------------------------------

    def seat_view(
        self,
        person: str,
        need: Need,
        legal: Sequence[LegalAction],
        *,
        banker: str | None,
        summary: str = "",
    ) -> PanelView:
        """Lamps and text of ``person``'s seat panel."""
        buttons: set[Button] = set()
        amount = self.shown_amount(person, need, legal, banker)
        choice = self.amount_choice(person, need, legal, banker)
        line2 = ""
        if isinstance(need, StakeNeed) and choice is not None:
            buttons |= {Button.STAKE_UP, Button.STAKE_DOWN, Button.CONFIRM}
            line2 = f"Stake {_fmt(amount)}? CONFIRM"
        elif isinstance(need, ShootNeed) and choice is not None:
            buttons |= {Button.STAKE_UP, Button.STAKE_DOWN, Button.CONFIRM, Button.SHOOT}
            line2 = f"Shoot {_fmt(amount)}? CONFIRM"
        elif isinstance(need, DecisionNeed) and need.player == person:
            words = [w for w in need.words if _find(legal, Decide, player=person, word=w)]
            buttons |= {WORD_BUTTON[w] for w in words if w in WORD_BUTTON}
            if choice is not None:
                buttons |= {Button.STAKE_UP, Button.STAKE_DOWN}
                line2 = f"{choice[0].capitalize()} {_fmt(amount)}? {choice[0].upper()}"
            else:
                line2 = "Your turn"
        elif isinstance(need, BankNeed) and person == banker:
            if _find(legal, BankDecide, word="draw"):
                buttons.add(Button.TWIST)
            if _find(legal, BankDecide, word="stay"):
                buttons.add(Button.STICK)
            line2 = "Bank: TWIST/STICK"
        elif isinstance(need, KittyNeed | BetweenDeals) and person == banker and choice:
            # between deals (shoot) the banker may add to the kitty before NEXT
            buttons |= {Button.STAKE_UP, Button.STAKE_DOWN, Button.CONFIRM}
            line2 = f"Kitty {_fmt(amount)}? CONFIRM"
        elif isinstance(need, CardNeed) and need.recipient == person and not need.to_bank:
            line2 = "Card coming"
        lights = 0
        for button in buttons:
            lights |= button_light(button)
        lights |= int(Light.READY) if buttons else int(Light.WAIT)
        return PanelView(lights, _text(summary or person, line2))

    def dealer_view(self, need: Need, legal: Sequence[LegalAction], *, holding: bool) -> PanelView:
        """Lamps and text of the dealer panel."""
        buttons: set[Button] = {Button.PAUSE}
        text = ""
        if holding:
            buttons.add(Button.CONFIRM)
            text = "Table held:\nsee display"
        elif isinstance(need, BankNeed):
            if _find(legal, BankDecide, word="draw"):
                buttons.add(Button.DRAW)
            if _find(legal, BankDecide, word="stay"):
                buttons.add(Button.STAY)
            text = f"Bank {need.banker[:11]}\nDRAW or STAY"
        elif isinstance(need, BetweenDeals) and _find(legal, StartDeal):
            buttons.add(Button.NEXT)
            text = f"Deal {need.next_deal}: NEXT"
        elif isinstance(need, CardNeed):
            text = _card_words(need)
        lights = 0
        for button in buttons:
            lights |= button_light(button)
        lights |= int(Light.ALARM) if holding else int(Light.READY)
        return PanelView(lights, text[:TEXT_MAX])

    # -- presses ------------------------------------------------------------------

    def press(
        self,
        person: str,
        button: Button,
        need: Need,
        legal: Sequence[LegalAction],
        *,
        banker: str | None,
    ) -> Press:
        """What a press on ``person``'s seat panel (or the dealer panel) means now."""
        if person == DEALER:
            return self._dealer_press(button, need, legal)
        amount = self.shown_amount(person, need, legal, banker)
        choice = self.amount_choice(person, need, legal, banker)
        if button in (Button.STAKE_UP, Button.STAKE_DOWN):
            if choice is None or amount is None:
                return Press(refusal="No amount to choose now")
            span = choice[1]
            step = span.step if button is Button.STAKE_UP else -span.step
            new = span.clamp(amount + step)
            if new == amount:
                # the refusal takes the dial's line: keep the amount on it, or
                # the player is left not knowing what a press would put
                limit = "max" if button is Button.STAKE_UP else "min"
                return Press(refusal=f"{choice[0].capitalize()} {_fmt(amount)}: {limit}")
            self.shown[person] = new
            return Press(changed=True)
        if isinstance(need, StakeNeed) and button is Button.CONFIRM and amount is not None:
            self.last_stake[person] = amount
            return Press(PlaceStake(person, amount))
        shooting = isinstance(need, ShootNeed) and need.player == person
        if shooting and button in (Button.CONFIRM, Button.SHOOT) and amount is not None:
            return Press(PlaceShoot(person, amount))
        kitty = isinstance(need, KittyNeed | BetweenDeals) and person == banker
        if kitty and button is Button.CONFIRM and amount is not None and amount > 0:
            return Press(PutKitty(amount))
        if isinstance(need, BankNeed) and person == banker:
            word = {Button.TWIST: "draw", Button.STICK: "stay"}.get(button)
            if word is not None:
                return self._bank(word, legal)
        if isinstance(need, DecisionNeed) and need.player == person and button in BUTTON_WORD:
            word = BUTTON_WORD[button]
            family = _find(legal, Decide, player=person, word=word)
            if family is None:
                return Press(refusal=_not_now(word, need.words))
            value: Amount | None = None
            if word in AMOUNT_WORDS and family.minimum is not None:
                # The dial shows one word's amount; the other word's button moves the
                # dial to it (so nobody buys or shoots an amount shown for the other).
                if choice is not None and choice[0] != word:
                    self._dial[person] = word
                    return Press(changed=True)
                value = amount if choice is not None and amount is not None else family.minimum
            elif family.minimum is not None and family.minimum == family.maximum:
                value = family.minimum
            return Press(Decide(person, word, value))
        return Press(refusal=_not_your_turn(person, need, button))

    def _dealer_press(self, button: Button, need: Need, legal: Sequence[LegalAction]) -> Press:
        if button in (Button.DRAW, Button.STAY) and isinstance(need, BankNeed):
            return self._bank("draw" if button is Button.DRAW else "stay", legal)
        if button is Button.NEXT and isinstance(need, BetweenDeals):
            if _find(legal, StartDeal):
                return Press(StartDeal())
            return Press(refusal="The next deal cannot start yet")
        return Press(refusal=f"{button.name} does nothing now")

    def _bank(self, word: str, legal: Sequence[LegalAction]) -> Press:
        if _find(legal, BankDecide, word=word) is None:
            return Press(refusal=f"The bank cannot {word} now")
        return Press(BankDecide(word))

    def plan(
        self,
        person: str,
        action: Action,
        need: Need,
        legal: Sequence[LegalAction],
        *,
        banker: str | None,
    ) -> list[Button]:
        """Every press from what ``person``'s panel shows now to ``action`` (no state change)."""
        choice = self.amount_choice(person, need, legal, banker)
        shown = self.shown_amount(person, need, legal, banker)
        dial = choice[0] if choice is not None else None
        presses = presses_for(action, shown, dial)
        if isinstance(action, Decide) and dial is not None and dial != action.word:
            span = self.dial_words(person, legal).get(action.word)
            if span is not None:
                presses += presses_for(action, span.minimum, action.word)
        return presses

    def confirmed(self, action: Action) -> None:
        """Remember what a confirmed action chose (a stake starts there next deal).

        Every recorded action ends the decision a dial was moved for, so the
        dials go back to their default word; the one who acted starts their
        next amount afresh (a banker who put 3 in the kitty between deals sees
        ``Kitty 0`` again, not the same ``Kitty 3``, so the panel shows the
        press was taken).
        """
        self._dial.clear()
        actor = getattr(action, "player", None)
        for person, topic in list(self._topic.items()):
            if person == actor or (isinstance(action, PutKitty) and topic[:1] == ("kitty",)):
                del self._topic[person]
        if isinstance(action, PlaceStake):
            self.last_stake[action.player] = action.amount


def presses_for(
    action: Action, shown: Amount | None, dial: str | None = None
) -> list[Button]:
    """The seat-panel presses that turn the shown amount into ``action``.

    For people (simulated or in a tutorial): e.g. staking 3 while the panel
    shows 1 is STAKE_UP, STAKE_UP, CONFIRM.  A banker's decision is given with
    the seat panel's TWIST/STICK.  ``dial`` is the word the shown amount is
    for (``"buy"`` in ``Buy 3? BUY``): when a BUY/SHOOT is wanted and the dial
    shows the other word, the only press is that word's button, which moves
    the dial; read the panel again for the rest (the new amount is the
    word's least; :meth:`PanelUx.plan` knows it).
    """
    if (
        isinstance(action, Decide)
        and action.word in AMOUNT_WORDS
        and dial in AMOUNT_WORDS
        and dial != action.word
    ):
        return [WORD_BUTTON[action.word]]
    if isinstance(action, PlaceStake | PlaceShoot | PutKitty):
        final = Button.CONFIRM
        target: Amount | None = action.amount
    elif isinstance(action, Decide):
        final = WORD_BUTTON[action.word]
        target = action.amount if action.word in AMOUNT_WORDS else None
    elif isinstance(action, BankDecide):
        return [Button.TWIST if action.word == "draw" else Button.STICK]
    else:
        raise ValueError(f"{type(action).__name__} is not made on a seat panel")
    presses: list[Button] = []
    if target is not None and shown is not None and target != shown:
        diff = Fraction(target) - Fraction(shown)
        step = Fraction(1, 2) if diff.denominator != 1 else Fraction(1)
        count = int(abs(diff) / step)
        presses += [Button.STAKE_UP if diff > 0 else Button.STAKE_DOWN] * count
    presses.append(final)
    return presses


# -- helpers -------------------------------------------------------------------------


def _find(
    legal: Sequence[LegalAction],
    kind: type[object],
    *,
    player: str | None = None,
    word: str | None = None,
) -> LegalAction | None:
    for family in legal:
        if family.kind is not kind:
            continue
        if player is not None and family.player not in (None, player):
            continue
        if word is not None and family.word not in (None, word):
            continue
        return family
    return None


def _range(family: LegalAction) -> AmountRange:
    minimum = family.minimum if family.minimum is not None else 0
    step: Amount = Fraction(1, 2) if family.halves else 1
    return AmountRange(minimum, family.maximum, step)


def _fmt(amount: Amount | None) -> str:
    if amount is None:
        return "-"
    if isinstance(amount, Fraction) and amount.denominator != 1:
        return f"{float(amount):g}"
    return str(int(amount))


def _text(line1: str, line2: str) -> str:
    return f"{line1[:16]}\n{line2[:16]}" if line2 else line1[:16]


def _card_words(need: CardNeed) -> str:
    face = "up" if need.face_up else "down"
    who = "bank" if need.to_bank else f"{need.recipient[:8]} H{need.hand}"
    return f"Card {face} to\n{who}"


def _not_now(word: str, words: Sequence[str]) -> str:
    if words:
        return f"No {word}: " + "/".join(w.upper() for w in words)
    return f"No {word} now"


def _not_your_turn(person: str, need: Need, button: Button) -> str:
    if isinstance(need, DecisionNeed) and need.player != person:
        return f"Wait: {need.player}'s turn"
    if isinstance(need, CardNeed):
        return "Wait: dealing"
    return f"{button.name} does nothing now"


def seat_of(players: Mapping[str, int], address: int) -> str | None:
    """The player whose panel has bus address ``address``."""
    for name, addr in players.items():
        if addr == address:
            return name
    return None
