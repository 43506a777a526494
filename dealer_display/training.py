"""Training sessions: a trainee deals and settles, the engine marks the work.

The trainee plays the dealer of a real engine game whose players are simulated
(they pick among the decisions the engine allows).  Each of the trainee's
actions is checked against the engine before the engine's own answer is
applied, so a mistake is scored and corrected and the game goes on:

- dealing: who gets the next card (wrong seat) and whether face up or down;
- a bust hand must be exposed before the next card is dealt;
- settlement: each player's net for the deal, with the common errors told
  apart (paying a tie, paying a five-card trick single), and the next banker.

The session ends with a report of mistakes by kind, as JSON or CSV.
"""

from __future__ import annotations

import csv
import io
import random
import secrets
from collections import Counter, OrderedDict
from dataclasses import asdict, dataclass
from typing import Any

from controller.rules import (
    BankDecide,
    BankNeed,
    BetweenDeals,
    Card,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
    GameState,
    HandOutcome,
    HandView,
    KittyNeed,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    RulesetError,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)
from controller.rules import IllegalAction as EngineRefusal
from controller.rules.actions import Action

from .manual import money

KINDS: dict[str, str] = {
    "wrong_seat": "Dealt to the wrong seat",
    "wrong_face": "Dealt face up instead of face down (or the reverse)",
    "bust_not_exposed": "Did not expose a bust hand",
    "wrong_exposure": "Exposed a hand that is not bust",
    "wrong_payout": "Wrong payout amount",
    "paid_tie": "Paid a tie (ties go to the bank)",
    "five_card_single": "Paid a five-card trick single instead of double",
    "wrong_next_banker": "Wrong next banker",
}
MAX_SESSIONS = 32
MAX_DEALS = 8


class TrainingError(ValueError):
    """A request the training desk cannot do; the message is for the trainee."""


class UnknownSession(TrainingError):
    """No such session (never started, or dropped as the oldest)."""


@dataclass(frozen=True)
class Mistake:
    deal: int
    kind: str
    did: str
    correct: str

    @property
    def label(self) -> str:
        return KINDS[self.kind]


def _who(name: str, banker: str | None) -> str:
    if name == banker:
        return "the dealer" if name == "house" else f"the bank ({name})"
    return name


def _capital(text: str) -> str:
    """Upper-case the first letter only (``str.capitalize`` lowers the names after it)."""
    return text[:1].upper() + text[1:]


class TrainingSession:
    def __init__(
        self, sid: str, rules: str, players: list[str], seed: int, top: list[str] | None = None
    ) -> None:
        try:
            ruleset = load_ruleset(rules, {})
        except RulesetError as exc:
            raise TrainingError(str(exc)) from None
        banker = None if ruleset.house_dealer else players[-1]
        try:
            self.state: GameState = new_game(ruleset, players, banker=banker, seed=seed)
        except EngineRefusal as exc:
            raise TrainingError(str(exc)) from None
        self.id = sid
        self.rng = random.Random(seed)
        self.checks = 0
        self.mistakes: list[Mistake] = []
        self.feedback: list[dict[str, Any]] = []
        self.log: list[str] = []
        self.unexposed: set[tuple[str, int]] = set()
        self.exposed: set[tuple[str, int]] = set()
        self.phase = "deal"
        self.ended = False
        if top:
            try:
                apply(self.state, StackTop(tuple(Card.parse(c) for c in top)))
            except (ValueError, EngineRefusal) as exc:
                raise TrainingError(f"Cannot stack those cards: {exc}") from None
        self._start_deal()

    def _start_deal(self) -> None:
        """Open the next deal; a banker owing a kitty (shoot rules) puts it up first."""
        need = pending(self.state)
        if isinstance(need, KittyNeed):
            self.log.append(f"{need.banker} puts up a kitty of {money(need.minimum)}")
            apply(self.state, PutKitty(need.minimum))
        apply(self.state, StartDeal())
        self._run_people()

    # -- the simulated people ------------------------------------------------------
    def _run_people(self) -> None:
        """Let the simulated people act until a card is due or the deal is over."""
        for _ in range(200):
            need = pending(self.state)
            action: Action | None = None
            if isinstance(need, CardNeed):
                return
            if isinstance(need, StakeNeed):
                action = PlaceStake(need.player, self.rng.randint(int(need.minimum),
                                                                  int(need.maximum)))
                self.log.append(f"{need.player} stakes {action.amount}")
            elif isinstance(need, ShootNeed):
                action = PlaceShoot(need.player, 0)
            elif isinstance(need, KittyNeed):
                action = PutKitty(need.minimum)
                self.log.append(f"{need.banker} puts up a kitty of {money(need.minimum)}")
            elif isinstance(need, DecisionNeed):
                action = self._player_choice(need)
            elif isinstance(need, BankNeed):
                total = (self.state.bank_view() or _no_hand()).total
                word = "draw" if "draw" in need.words and total < 17 else "stay"
                action = BankDecide(word)
                self.log.append(f"{_capital(_who(need.banker, need.banker))} {word}s")
            elif isinstance(need, BetweenDeals | GameOver):
                if self.phase == "deal" and self.state.results:
                    self.phase = "settle"
                return
            if action is not None:
                apply(self.state, action)
        raise AssertionError("the simulated people did not reach a card or the end")

    def _player_choice(self, need: DecisionNeed) -> Action:
        hand = next(
            h for h in self.state.hand_views() if h.player == need.player and h.hand == need.hand
        )
        words = [w for w in need.words if w in ("stick", "twist", "buy", "split", "double")]
        if "stick" in words and hand.total >= 17:
            word = "stick"
        else:
            drawing = [w for w in words if w != "stick"] or words
            word = self.rng.choice(drawing)
        amount = None
        for family in legal_actions(self.state):
            if family.kind is Decide and family.word == word and family.minimum is not None:
                amount = family.minimum
        self.log.append(f"{need.player} (hand {need.hand}): {word}")
        return Decide(need.player, word, amount)

    # -- the trainee's actions -----------------------------------------------------
    def _check(self, ok: bool, kind: str, did: str, correct: str) -> None:
        self.checks += 1
        deal = self.state.deal_number or 0
        if ok:
            self.feedback.append({"ok": True, "text": did})
        else:
            mistake = Mistake(deal, kind, did, correct)
            self.mistakes.append(mistake)
            self.feedback.append(
                {"ok": False, "kind": kind, "label": mistake.label, "text": did, "correct": correct}
            )
        del self.feedback[:-12]

    def _require(self, phase: str) -> None:
        if self.ended:
            raise TrainingError("This session has ended; start a new one.")
        if self.phase != phase:
            raise TrainingError(
                "Settle the deal first." if self.phase == "settle" else "Deal the cards first."
            )

    def deal(self, seat: str, face_up: bool) -> dict[str, Any]:
        self._require("deal")
        need = pending(self.state)
        assert isinstance(need, CardNeed)
        for player, hand in sorted(self.unexposed):
            self._check(False, "bust_not_exposed", f"dealt on without exposing {player}'s bust "
                        f"hand {hand}", f"Turn {player}'s hand {hand} face up and take the stake")
        self.unexposed.clear()
        banker = self.state.deal.banker if self.state.deal else None
        target = _who(need.recipient, banker)
        face = "face up" if need.face_up else "face down"
        if need.purpose == "cut" or need.to_bank:
            right_seat = seat in (need.recipient, "bank", "house")
        else:
            right_seat = seat == need.recipient
        your_face = "face up" if face_up else "face down"
        given = banker if seat in ("bank", "house") and banker else seat
        self._check(right_seat, "wrong_seat", f"dealt to {_who(given, banker)}",
                    f"The card goes to {target}" + (f", hand {need.hand}" if need.hand else ""))
        if right_seat:
            self._check(face_up == need.face_up, "wrong_face", f"dealt {your_face}",
                        f"That card is dealt {face}")
        before = {(h.player, h.hand) for h in self.state.hand_views() if h.bust}
        card = self.state.pack.peek()
        apply(self.state, DealCard(card))
        busts = {(h.player, h.hand) for h in self.state.hand_views() if h.bust}
        for key in busts - before:
            if key[0] != banker:
                self.unexposed.add(key)
        self._run_people()
        return self.view()

    def expose(self, seat: str, hand: int) -> dict[str, Any]:
        self._require("deal")
        key = (seat, hand)
        views = {(h.player, h.hand): h for h in self.state.hand_views()}
        if key not in views:
            raise TrainingError(f"{seat} has no hand {hand}.")
        if key in self.unexposed:
            self.unexposed.discard(key)
            self.exposed.add(key)
            self._check(True, "bust_not_exposed", f"exposed {seat}'s bust hand {hand}", "")
        elif key in self.exposed:
            raise TrainingError(f"{seat}'s hand {hand} is already exposed.")
        else:
            self._check(False, "wrong_exposure", f"exposed {seat}'s hand {hand}",
                        f"{seat}'s hand {hand} is not bust ({views[key].total}): leave it down")
        return self.view()

    def settle(self, payouts: dict[str, float], next_banker: str | None) -> dict[str, Any]:
        self._require("settle")
        result = self.state.last_result()
        assert result is not None
        banker = result["banker"]
        hands = [h for h in self.state.hand_views()]
        bank = self.state.bank_view() or _no_hand()
        outcomes = self.state.outcomes()
        house = self.state.rules.house_dealer
        for player, expected in result["net"].items():
            if player == banker:
                continue
            given = float(payouts.get(player, 0) or 0)
            why = explain(player, outcomes, bank, house)
            if abs(given - float(expected)) < 1e-9:
                self._check(True, "wrong_payout", f"{player}: {_signed(given)} ({why})", "")
                continue
            kind = self._payout_kind(player, given, float(expected), hands, bank)
            self._check(False, kind, f"{player}: {_signed(given)}",
                        f"{player}: {_signed(float(expected))} ({why})")
        if not self.state.rules.house_dealer:
            right = result["next_banker"]
            self._check(next_banker == right, "wrong_next_banker",
                        f"next banker {next_banker or '(none given)'}", f"{right} banks next")
        self.exposed.clear()
        self.unexposed.clear()
        if pending(self.state).__class__ is GameOver or len(self.state.results) >= MAX_DEALS:
            self.phase = "over"
            self.ended = True
        else:
            self.phase = "deal"
            self._start_deal()
        return self.view()

    def _payout_kind(
        self, player: str, given: float, expected: float, hands: list[HandView], bank: HandView
    ) -> str:
        mine = [h for h in hands if h.player == player and not h.bust]
        ordinary = [h for h in mine if not (h.pontoon or h.five_card_trick)]
        bank_plain = not (bank.bust or bank.pontoon or bank.five_card_trick)
        if given > expected and bank_plain and any(h.total == bank.total for h in ordinary):
            return "paid_tie"
        fives = [h for h in mine if h.five_card_trick]
        if fives and given < expected and given > 0:
            return "five_card_single"
        return "wrong_payout"

    def end(self) -> dict[str, Any]:
        self.ended = True
        self.phase = "over"
        return self.report()

    # -- what the page shows -------------------------------------------------------
    def view(self) -> dict[str, Any]:
        s = self.state
        banker = s.deal.banker if s.deal else s.banker
        seats: dict[str, list[dict[str, Any]]] = {p: [] for p in s.players}
        for h in s.hand_views():
            seats.setdefault(h.player, []).append(
                {
                    "hand": h.hand,
                    "stake": money(h.stake),
                    "total": h.total,
                    "bust": h.bust,
                    "pontoon": h.pontoon,
                    "five_card_trick": h.five_card_trick,
                    "cards": [{"code": str(c.card), "face_up": c.face_up} for c in h.cards],
                }
            )
        bank = s.bank_view()
        return {
            "id": self.id,
            "rules": s.rules.preset,
            "phase": self.phase,
            "deal": s.deal_number,
            "banker": banker,
            "house_dealer": s.rules.house_dealer,
            "players": [p for p in s.players if p != banker],
            "everyone": list(s.players),
            "seats": [{"name": p, "banker": p == banker, "hands": seats[p]} for p in s.players],
            "task": self.task(),
            "bank": {
                "name": banker,
                "total": bank.total if bank and bank.cards else None,
                "bust": bool(bank and bank.bust),
                "pontoon": bool(bank and bank.cards and bank.pontoon),
                "five_card_trick": bool(bank and bank.five_card_trick),
                "cards": [{"code": str(c.card), "face_up": c.face_up} for c in bank.cards]
                if bank
                else [],
            },
            "log": self.log[-8:],
            "feedback": self.feedback,
            "checks": self.checks,
            "mistakes": len(self.mistakes),
            "score": self.score(),
            "by_kind": self.by_kind(),
        }

    def task(self) -> str:
        """The line that tells the trainee what to do now, naming who gets the next card."""
        if self.phase == "over":
            return "Session over: your report is at the top of the page."
        if self.phase == "settle":
            if self.state.rules.house_dealer:
                return "The deal is over: settle each player's net."
            return "The deal is over: settle each player's net and name the next banker."
        need = pending(self.state)
        if not isinstance(need, CardNeed):
            return "Wait for the players."
        banker = self.state.deal.banker if self.state.deal else None
        who = _who(banker, banker) if need.to_bank and banker else _who(need.recipient, banker)
        hands = sum(1 for h in self.state.hand_views() if h.player == need.recipient)
        hand = f", hand {need.hand}" if need.hand and hands > 1 else ""
        return f"Next card to {who}{hand}. Expose any bust hand before you deal it."

    def score(self) -> int:
        if not self.checks:
            return 100
        return round(100 * (self.checks - len(self.mistakes)) / self.checks)

    def by_kind(self) -> dict[str, int]:
        counts = Counter(m.kind for m in self.mistakes)
        return {kind: counts[kind] for kind in KINDS if counts[kind]}

    def report(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rules": self.state.rules.preset,
            "deals": len(self.state.results),
            "checks": self.checks,
            "mistakes": len(self.mistakes),
            "score": self.score(),
            "by_kind": [
                {"kind": k, "label": KINDS[k], "count": n} for k, n in self.by_kind().items()
            ],
            "details": [dict(asdict(m), label=m.label) for m in self.mistakes],
        }

    def report_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["deal", "kind", "label", "what you did", "correct answer"])
        for m in self.mistakes:
            writer.writerow([m.deal, m.kind, m.label, m.did, m.correct])
        writer.writerow([])
        writer.writerow(
            ["checks", self.checks, "mistakes", len(self.mistakes), "score", self.score()]
        )
        return out.getvalue()


def _no_hand() -> HandView:
    return HandView("", 0, (), 0, False, 0, 0, 0, False, False, False, False, False)


def _signed(x: float) -> str:
    if not x:
        return "nothing"
    return ("pay " if x > 0 else "collect ") + f"{abs(x):g}"


def _num(x: Any) -> str:
    """An amount or a multiple as a dealer says it: 6, 1.5."""
    return f"{float(x):g}"


def _standing(kind: str, total: int) -> str:
    return {"pontoon": "pontoon", "five_card": "five-card trick"}.get(kind, str(total))


def _hand_words(o: HandOutcome, bank: HandView, house: bool) -> str:
    """How one hand's stake was settled, from the engine's own verdict (``o.why``)."""
    bank_word = "the dealer's" if house else "the bank's"
    bank_kind = "pontoon" if bank.pontoon else "five_card" if bank.five_card_trick else "total"
    theirs = f"{bank_word} {_standing(bank_kind, bank.total)}"
    mine = _standing(o.kind, o.total)
    stake = f"stake {_num(o.stake)}"
    times = f"{stake} × {_num(o.multiple)}" if abs(o.multiple) != 1 else stake
    paid_for = {"pontoon": " for a pontoon", "five_card": " for a five-card trick"}.get(o.kind, "")
    words = {
        "bust": f"{stake} lost, bust",
        "bank_bust": f"{times}{paid_for if o.multiple != 1 else ''}, "
        f"{'the dealer' if house else 'the bank'} is bust",
        "higher": f"{times}{paid_for}" if o.multiple != 1 else f"{stake}, {mine} beats {theirs}",
        "lower": f"{stake} lost, {mine} against {theirs}",
        "tie": f"{stake} lost, a tie at {mine} goes to {'the dealer' if house else 'the bank'}",
        "push": f"{stake} returned, a tie at {mine}",
        "bank_pontoon": f"{times} lost to {bank_word} pontoon",
        "bank_five_card": f"{times} lost to {bank_word} five-card trick",
        "beats_bank_five_card": f"{times} for a pontoon, the only hand that beats "
        f"{bank_word} five-card trick",
        "five_card_always": f"{times} for a five-card trick, which always wins",
        "even_money": f"{stake} paid at even money for a pontoon",
        "three_of_a_kind": f"{times} for three of a kind",
    }
    text = words.get(o.why, f"{stake}, net {_num(o.net)}")
    if o.shoot:
        won = o.multiple > 0 and o.why != "bust"
        text += f", shoot {_num(o.shoot)} {'won' if won else 'lost'}"
    if o.insurance:
        text += f", insurance {_num(o.insurance)} " + (
            f"pays {_num(o.insurance_net)}" if o.insurance_net > 0 else "lost"
        )
    return text


def explain(player: str, outcomes: list[HandOutcome], bank: HandView, house: bool) -> str:
    """Why ``player``'s net for the deal is what it is, hand by hand.

    Every figure and verdict comes from the engine's settlement
    (:meth:`GameState.outcomes`); this only puts it into words, e.g.
    "stake 3 × 2 for a five-card trick".
    """
    mine = [o for o in outcomes if o.player == player]
    if not mine:
        return "no hand this deal"
    if len(mine) == 1:
        return _hand_words(mine[0], bank, house)
    return "; ".join(f"hand {o.hand}: {_hand_words(o, bank, house)}" for o in mine)


class TrainingDesk:
    """The open sessions, oldest dropped first beyond MAX_SESSIONS."""

    def __init__(self) -> None:
        self.sessions: OrderedDict[str, TrainingSession] = OrderedDict()

    def start(
        self, rules: str, players: list[str], seed: int | None, top: list[str] | None = None
    ) -> dict[str, Any]:
        players = [p.strip() for p in players if p.strip()]
        if len(players) < 2:
            raise TrainingError("A training table needs at least two people.")
        sid = secrets.token_hex(4)
        session = TrainingSession(sid, rules, players, seed if seed is not None else
                                  secrets.randbelow(2**31), top)
        self.sessions[sid] = session
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.popitem(last=False)
        return session.view()

    def get(self, sid: str) -> TrainingSession:
        session = self.sessions.get(sid)
        if session is None:
            raise UnknownSession(f"There is no training session {sid!r} (it may have expired).")
        return session
