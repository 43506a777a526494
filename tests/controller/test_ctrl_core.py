"""The pure table core: scenarios, holds, refusals and rebuilding from the journal."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctrl_drive import SCENARIOS, Driver, Refused, drive, expected, new_core

from controller.core import CardRead, LinkChanged, TableCore
from controller.journal import Journal
from controller.rules import CardNeed, DecisionNeed
from controller.snapshot import build_snapshot
from dealer_display.views import public_view
from firmware_bridge.host import ButtonPressed, CardOut, GateJammed, ShoeEmpty, UnknownEvent
from firmware_bridge.wire import ADDRESS_DEALER, Button, button_light

HOUSE = next(p for p in SCENARIOS if p.name == "house-split-transfer.json")


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_gives_replays_result(path: Path) -> None:
    want = expected(path)
    core = new_core(path)
    if "exit" in want:
        with pytest.raises(Refused):
            drive(core, path)
    else:
        assert drive(core, path) == want


def started(path: Path = HOUSE, rows: int = 12) -> TableCore:
    """A core part-way into the first deal (``rows`` journal rows written)."""
    core = new_core(path)
    drive(core, path, stop_after=rows)
    return core


def test_unsure_card_holds_until_the_dealer_confirms() -> None:
    core = started(rows=5)
    need = core.need()
    assert isinstance(need, CardNeed)
    card = str(core.state.pack.peek())
    head = core.journal.head
    core.handle(CardOut(100, 0))
    core.handle(CardRead(100, None, "glare"))
    assert core.machine.hold_state == "unsure_card"
    assert core.journal.head == head, "an unsure card is never guessed"
    assert core.gate_locked()
    snap = build_snapshot(core)
    assert snap["hold"]["reason"] == "unsure_card"
    assert "glare" in snap["hold"]["message"]
    assert not core.confirm_card("ZZ").ok
    refused = core.confirm_card(_card_out_of_pack(core))
    assert not refused.ok and "not in the shoe" in refused.message
    assert core.confirm_card(card).ok
    assert core.machine.running
    assert core.journal.head == head + 1
    assert core.journal.actions()[-1] == {"type": "DealCard", "card": card}
    assert next(r for r in reversed(list(core.journal.rows()))).meta["source"] == "dealer"


def _card_out_of_pack(core: TableCore) -> str:
    from controller.rules import CARDS

    return next(str(c) for c in CARDS if c not in core.state.pack)


def test_an_unsure_card_offers_the_cameras_guesses_to_the_dealer_only() -> None:
    """The guesses given in the CardRead (written here by hand) reach the
    dealer's hold unchanged, and the players' view shows none of them."""
    core = started(rows=5)
    core.handle(CardOut(101, 0))
    core.handle(CardRead(101, None, "corners disagree", (("6H", 0.41), ("9H", 0.33))))
    snap = build_snapshot(core)
    assert snap["hold"] is not None
    assert snap["hold"]["guesses"] == [{"card": "6H", "p": 0.41}, {"card": "9H", "p": 0.33}]
    public = repr(public_view(snap))
    assert "guesses" not in public and "0.41" not in public
    assert core.confirm_card(str(core.state.pack.peek())).ok
    assert build_snapshot(core)["hold"] is None


def test_an_unsure_card_says_whose_it_is_and_which_of_those_out() -> None:
    """Two cards left the shoe before the camera answered for the first: the
    dealer holds two face-down cards and must know which to turn over.  The
    recipient is the core's own need for the first card, taken before either
    card was dealt; the count is the two CardOut events sent here."""
    core = started(rows=5)
    need = core.need()
    assert isinstance(need, CardNeed) and not need.to_bank
    core.handle(CardOut(200, 0))
    core.handle(CardOut(201, 0))
    core.handle(CardRead(201, None, "glare"))
    assert core.machine.running, "the second card waits for the first"
    core.handle(CardRead(200, None, "no index visible"))
    message = build_snapshot(core)["hold"]["message"]
    assert f"could not read {need.recipient}'s card for hand {need.hand}" in message
    assert "the first of the 2 cards out of the shoe" in message


def test_a_lone_unsure_card_does_not_count_the_cards_out() -> None:
    core = started(rows=5)
    core.handle(CardOut(210, 0))
    core.handle(CardRead(210, None, "glare"))
    assert "cards out of the shoe" not in build_snapshot(core)["hold"]["message"]


def test_impossible_reading_asks_the_dealer() -> None:
    core = started(rows=5)
    gone = _card_out_of_pack(core)
    core.handle(CardOut(7, 0))
    core.handle(CardRead(7, gone))
    assert core.machine.hold_state == "unsure_card"
    assert f"{gone} is not in the shoe" in build_snapshot(core)["hold"]["message"]


def test_a_card_nobody_is_due_raises_a_misdeal_with_choices() -> None:
    core = new_core(HOUSE)
    Driver(core, HOUSE).until(lambda c: isinstance(c.need(), DecisionNeed))
    assert core.gate_locked(), "no card is due during a decision: the gate is locked"
    head = core.journal.head
    core.handle(CardOut(500, 0))
    core.handle(CardRead(500, str(core.state.pack.peek())))
    assert core.machine.hold_state == "misdeal"
    alarm = build_snapshot(core)["alarms"][0]
    assert {c["id"] for c in alarm["choices"]} == {"return", "void"}
    assert core.journal.head == head
    assert not core.misdeal("burn").ok
    assert core.misdeal("return").ok
    assert core.machine.running
    assert isinstance(core.need(), DecisionNeed)


def test_misdeal_void_voids_the_deal() -> None:
    core = started(rows=5)
    core.handle(ButtonPressed(Button.PAUSE, address=ADDRESS_DEALER))
    core.handle(CardOut(9, 0))
    core.handle(CardRead(9, str(core.state.pack.peek())))
    assert "misdeal" in core.machine.holds
    core.handle(ButtonPressed(Button.PAUSE, address=ADDRESS_DEALER))  # the dealer's pause ends
    assert core.misdeal("void").ok
    assert core.state.results[-1]["void"] is True
    assert core.phase() == "void_deal"


def test_each_alarm_holds_under_its_own_name_and_is_released_on_its_own() -> None:
    """A card nobody was due, then a jammed gate: two alarms, two holds, and
    the worse one (the jam) is the hold shown, in the public words too.
    Alarms are answered in the order they came: the misdeal's answer releases
    only the misdeal's hold; the jam holds the table until it is answered."""
    core = new_core(HOUSE)
    Driver(core, HOUSE).until(lambda c: isinstance(c.need(), DecisionNeed))
    core.handle(CardOut(500, 0))
    core.handle(CardRead(500, str(core.state.pack.peek())))
    assert core.machine.hold_state == "misdeal"
    core.handle(GateJammed(1, 0))
    assert set(core.machine.holds) == {"gate_jammed", "misdeal"}
    snapshot = build_snapshot(core)
    assert [a["kind"] for a in snapshot["alarms"]] == ["misdeal", "jam"]
    assert snapshot["hold"]["reason"] == "gate_jammed"
    assert public_view(snapshot)["notice"] == "One moment: the dealer is freeing the shoe."
    assert core.misdeal("return").ok
    assert set(core.machine.holds) == {"gate_jammed"}
    assert core.misdeal("continue").ok
    assert core.machine.running


def test_an_event_kind_the_table_does_not_handle_changes_nothing() -> None:
    """A newer device's unknown event, a button code this host does not know and
    a shoe-empty notice (which only informs): none moves the game or holds it."""
    core = started(rows=5)
    before = build_snapshot(core)
    core.handle(UnknownEvent(kind=99, arg=1, event_no=1, device_ms=0))
    core.handle(ButtonPressed(200, address=1))
    assert build_snapshot(core) == before
    core.handle(ShoeEmpty(2, 0))
    after = build_snapshot(core)
    assert after["notice"] == {"seat": "", "message": "The shoe is empty"}
    assert {k: v for k, v in after.items() if k != "notice"} == {
        k: v for k, v in before.items() if k != "notice"
    }


def test_link_down_holds_and_resumes_without_losing_the_card() -> None:
    core = started(rows=5)
    card = str(core.state.pack.peek())
    core.handle(LinkChanged("shoe", False, reason="unplugged"))
    assert core.machine.hold_state == "link_down"
    assert core.gate_locked()
    assert all(
        not (view.lights & button_light(Button.TWIST)) for view in core.outputs().panels.values()
    )
    assert build_snapshot(core)["hold"]["message"].startswith("Lost the link to shoe")
    assert core.journal.head == 5
    core.handle(LinkChanged("shoe", True))
    assert core.machine.running
    assert not core.gate_locked()
    # the card pulled while the link was down arrives after the reconnect, once
    core.handle(CardOut(3, 0))
    core.handle(CardRead(3, card))
    assert core.journal.head == 6
    assert core.journal.actions()[-1]["card"] == card
    assert core.counters["link_drops"] == 1


@pytest.mark.parametrize("lost", [0, 2])
def test_a_shoe_reboot_mid_deal_is_an_alarm_the_dealer_answers(lost: int) -> None:
    """docs/protocol.md 5.3: a shoe reboot reported during a deal is an alarm
    the dealer answers, "raised even when events_lost is 0"; the gate stays
    locked until the answer, and the card due is then dealt as usual."""
    core = started(rows=5)
    assert isinstance(core.need(), CardNeed) and not core.gate_locked()
    card = str(core.state.pack.peek())
    core.handle(LinkChanged("shoe", False, reason="the shoe has lost the session"))
    core.handle(LinkChanged("shoe", True, rebooted=True, events_lost=lost))
    (alarm,) = core.alarms.values()
    assert alarm.kind == "reboot" and "restarted during the deal" in alarm.message
    assert ("2 card event(s)" in alarm.message) == (lost == 2)
    assert {c["id"] for c in alarm.choices} == {"continue", "void"}
    assert core.machine.hold_state == "shoe_rebooted"
    assert build_snapshot(core)["hold"]["reason"] == "shoe_rebooted"
    assert core.gate_locked()
    assert core.counters["reboots"] == 1
    assert core.command("misdeal", {"choice": "continue"}).ok
    assert core.machine.running and not core.alarms
    assert not core.gate_locked()
    core.handle(CardOut(1, 0))
    core.handle(CardRead(1, card))
    assert core.journal.actions()[-1] == {"type": "DealCard", "card": card}


def test_a_shoe_reboot_between_deals_is_only_counted() -> None:
    core = new_core(HOUSE)
    assert core.state.phase != "deal"
    core.handle(LinkChanged("shoe", True, rebooted=True))
    assert not core.alarms and core.counters["reboots"] == 1


def test_illegal_press_is_refused_on_that_panel() -> None:
    core = new_core(HOUSE)
    Driver(core, HOUSE).until(lambda c: isinstance(c.need(), DecisionNeed))
    need = core.need()
    assert isinstance(need, DecisionNeed)
    address = core.addresses[need.player]
    other = next(a for n, a in core.addresses.items() if n not in (need.player, core.state.banker))
    head = core.journal.head
    core.handle(ButtonPressed(Button.TWIST, address=other))
    assert core.journal.head == head
    assert "turn" in core.outputs().panels[other].text
    lit = core.outputs().panels[address].lights
    for word in need.words:
        from controller.panel_ux import WORD_BUTTON

        assert lit & button_light(WORD_BUTTON[word]), f"{word} is legal and must be lit"
    unlit = [b for b in (Button.DOUBLE, Button.INSURE) if not lit & button_light(b)]
    assert unlit, "buttons the rules do not allow stay dark"


@pytest.mark.parametrize("path", [*SCENARIOS[:4], HOUSE], ids=lambda p: p.stem)
def test_rebuild_from_the_journal_resumes_at_every_point(path: Path, tmp_path: Path) -> None:
    """Cut at a spread of points, rebuilt from the journal file: the rebuilt
    table is the one that was cut, and a table that plays the whole scenario
    ends with the scenario's expected result."""
    total = new_core(path)
    assert drive(total, path) == expected(path)
    rows = total.journal.head
    for cut in range(1, rows, max(1, rows // 9)):
        journal_path = tmp_path / f"j{cut}.sqlite"
        first = new_core(path, Journal(journal_path))
        people = Driver(first, path)
        people.run(cut)
        snapshot = build_snapshot(first)
        first.journal.close()
        again = new_core(path, Journal(journal_path))
        assert again.state == first.state
        assert again.phase() == first.phase()
        assert build_snapshot(again)["seats"] == snapshot["seats"]
        people.core = again  # the same people play on at the rebuilt table
        assert people.run() == expected(path)
        again.journal.close()


def test_a_pack_loaded_between_deals_is_a_notice_and_mid_deal_an_alarm() -> None:
    """docs/protocol.md section 12: between deals (or before the deal's first
    card) a new pack is a notice; once cards of the deal have left the shoe
    it is an alarm the dealer answers (back as it was, or void)."""
    from firmware_bridge.host import PackLoaded

    core = new_core(HOUSE)
    core.handle(PackLoaded(1, 0))
    assert not core.alarms
    assert core.notice == {"seat": "", "message": "A pack was loaded into the shoe"}
    core = started(rows=12)
    assert core.state.deal is not None and core.state.deal.dealt, "cards of the deal are out"
    core.handle(PackLoaded(9, 0))
    (alarm,) = core.alarms.values()
    assert alarm.kind == "pack" and {c["id"] for c in alarm.choices} == {"continue", "void"}
    assert core.machine.hold_state == "pack_loaded" and core.gate_locked()
    assert core.command("misdeal", {"choice": "continue"}).ok
    assert not core.alarms
