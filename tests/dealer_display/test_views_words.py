"""The dealer's words and the public view, from hand-made snapshots.

Snapshots follow the shape in docs/controller.md; every expected line below is
worked out by hand from what the dealer must do (pay a player who won, collect
from one who lost, say who banks next) and from the redaction rules of
docs/display.md, not taken from the code's output.
"""

from __future__ import annotations

from typing import Any

from dealer_display.views import dealer_view, decisions, payouts, public_view, transfers


def _table(net: dict[str, Any] | None, banker: str = "Cat", **extra: Any) -> dict[str, Any]:
    seats = [
        {"name": "Ann", "seat": 1, "banker": False, "balance": 4, "hands": []},
        {"name": "Bob", "seat": 2, "banker": False, "balance": -2, "hands": []},
        {"name": "Cat", "seat": 3, "banker": banker == "Cat", "balance": 0, "hands": []},
    ]
    snap: dict[str, Any] = {
        "deal": {"number": 3, "counted": 2, "of": 8, "banker": banker},
        "seats": seats,
        "settlement": None if net is None else {"net": net},
    }
    snap.update(extra)
    return snap


# ----------------------------------------------------------------------------- payouts
def test_payouts_say_pay_collect_or_nothing_seat_by_seat_then_the_bank() -> None:
    """Ann won 5 (the dealer pays her 5), Bob lost 7.5 (collect 7.5), Cat banks
    and took 2.5 net: one line per seat in seat order, the bank last."""
    out = payouts(_table({"Ann": 5, "Bob": -7.5, "Cat": 2.5}))
    assert [(o["name"], o["kind"], o["amount"]) for o in out] == [
        ("Ann", "pay", 5),
        ("Bob", "collect", -7.5),
        ("Cat", "bank", 2.5),
    ]
    assert out[0]["text"] == "Pay Seat 1 (Ann): 5"
    assert out[0]["seat"] == 1
    assert out[1]["text"] == "Collect from Seat 2 (Bob): 7.5"
    assert out[2]["text"] == "The bank (Cat) wins 2.5"
    assert out[2]["seat"] is None


def test_a_zero_net_is_nothing_to_pay_and_a_bank_loss_says_loses() -> None:
    out = payouts(_table({"Ann": 0, "Bob": 3, "Cat": -3}))
    assert out[0]["kind"] == "none"
    assert out[0]["text"] == "Seat 1 (Ann): nothing to pay"
    assert out[-1]["text"] == "The bank (Cat) loses 3"


def test_the_bank_breaking_even_names_no_amount() -> None:
    out = payouts(_table({"Ann": 2, "Bob": -2, "Cat": 0}))
    assert out[-1]["kind"] == "bank"
    assert out[-1]["amount"] == 0
    assert out[-1]["text"] == "The bank (Cat) breaks even"


def test_the_house_dealer_is_called_the_house() -> None:
    """casino/ponton: the banker is "house" and has no seat."""
    snap = _table({"Ann": 1.5, "Bob": -1, "house": -0.5}, banker="house")
    out = payouts(snap)
    assert [o["name"] for o in out] == ["Ann", "Bob", "house"]
    assert out[0]["text"] == "Pay Seat 1 (Ann): 1.5"
    assert out[-1]["text"] == "The house loses 0.5"


def test_fraction_strings_and_whole_floats_are_shown_as_plain_numbers() -> None:
    """Amounts may come as "5/2" (docs/controller.md); the dealer reads 2.5, and 4.0 reads 4."""
    out = payouts(_table({"Ann": "5/2", "Bob": 4.0, "Cat": "-13/2"}))
    assert out[0]["amount"] == 2.5
    assert out[0]["text"] == "Pay Seat 1 (Ann): 2.5"
    assert out[1]["text"] == "Pay Seat 2 (Bob): 4"
    assert out[2]["text"] == "The bank (Cat) loses 6.5"


def test_a_seat_without_a_number_is_named_and_seats_without_a_net_are_skipped() -> None:
    snap = _table({"Ann": -1, "Cat": 1})
    del snap["seats"][0]["seat"]
    out = payouts(snap)
    assert [o["name"] for o in out] == ["Ann", "Cat"]  # Bob sat out this deal
    assert out[0]["text"] == "Collect from Ann: 1"


def test_no_settlement_no_payouts() -> None:
    assert payouts(_table(None)) == []
    assert payouts({}) == []


# ----------------------------------------------------------------------------- transfers
def test_transfers_announce_the_new_banker_and_the_shuffle() -> None:
    snap = _table({"Ann": 2, "Cat": -2})
    snap["settlement"].update({"next_banker": "Ann", "shuffle": True})
    assert transfers(snap) == [
        "The bank passes to Ann.",
        "Shuffle the pack before the next deal.",
    ]


def test_no_transfer_when_the_bank_stays_and_no_shuffle() -> None:
    snap = _table({"Ann": 2, "Cat": -2})
    snap["settlement"].update({"next_banker": "Cat", "shuffle": False})
    assert transfers(snap) == []
    assert transfers({}) == []


# ----------------------------------------------------------------------------- decisions
def test_decisions_list_the_words_a_person_says_with_amount_ranges() -> None:
    """Dealing, starting, voiding and selling have their own controls; the
    bank's draw/stay and the kitty belong to the banker."""
    snap = _table(
        None,
        turn={"seat": "Bob", "hand": 1},
        legal=[
            {"decision": "card"},
            {"action": "StartDeal"},
            {"action": "VoidDeal"},
            {"action": "SellBank", "min": 0},
            {"action": "Decide", "decision": "twist", "player": "Bob"},
            {"action": "Decide", "decision": "buy", "player": "Bob", "min": 2, "max": 4},
            {"action": "PlaceStake", "player": "Ann", "min": 1, "max": 5},
            {"action": "BankDecide", "decision": "draw"},
            {"action": "PutKitty", "min": 1, "max": 10},
            {"action": "Decide", "decision": "stick"},
        ],
    )
    assert decisions(snap) == [
        {"seat": "Bob", "decision": "twist"},
        {"seat": "Bob", "decision": "buy", "min": 2, "max": 4},
        {"seat": "Ann", "decision": "stake", "min": 1, "max": 5},
        {"seat": "Cat", "decision": "draw"},
        {"seat": "Cat", "decision": "kitty", "min": 1, "max": 10},
        {"seat": "Bob", "decision": "stick"},  # no player named: the seat whose turn it is
    ]


def test_a_shoot_bet_is_the_players_word() -> None:
    snap = _table(None, legal=[{"action": "PlaceShoot", "player": "Ann", "min": 0, "max": 3}])
    assert decisions(snap) == [{"seat": "Ann", "decision": "shoot", "min": 0, "max": 3}]


def test_the_dealer_view_adds_words_and_drops_the_version() -> None:
    snap = _table({"Ann": 5, "Cat": -5}, version=41, legal=[])
    snap["settlement"]["next_banker"] = "Ann"
    view = dealer_view(snap)
    assert "version" not in view
    assert view["payouts"][0]["text"] == "Pay Seat 1 (Ann): 5"
    assert view["transfers"] == ["The bank passes to Ann."]
    assert view["decisions"] == []
    assert view["seats"] == snap["seats"]  # the dealer sees everything


# ----------------------------------------------------------------------------- public view
def _card(code: str, up: bool) -> dict[str, Any]:
    return {"code": code, "face_up": up}


def test_public_view_copies_what_a_player_at_the_table_may_see() -> None:
    snap = _table(
        {"Ann": "5/2", "Cat": -2.5},
        table="Table 1",
        rules="house",
        phase="settled",
        turn={"seat": "Ann", "hand": 2, "extra": "x"},
        standings=[{"name": "Ann", "balance": "9/2", "secret": 1}],
        game_over=True,
        winners=["Ann"],
        bank={"name": "Cat", "cards": [_card("TC", True), _card("7D", True)], "total": 17,
              "kitty": "3/2"},
    )
    snap["seats"][0]["hands"] = [
        {"hand": 1, "stake": "5/2", "total": 18, "status": "stood", "shoot": 2,
         "cards": [_card("8C", True), _card("TD", True)]},
    ]
    snap["seats"][1]["balance"] = "-3/2"
    snap["settlement"].update({"next_banker": "Ann", "shuffle": False})
    view = public_view(snap)
    assert view["table"] == "Table 1"
    assert view["rules"] == "house"
    assert view["phase"] == "settled"
    assert view["paused"] is False
    assert view["notice"] is None
    assert view["turn"] == {"seat": "Ann", "hand": 2}
    assert view["deal"] == {"number": 3, "counted": 2, "of": 8, "banker": "Cat"}
    assert view["standings"] == [{"name": "Ann", "balance": 4.5}]
    assert view["game_over"] is True
    assert view["winners"] == ["Ann"]
    assert view["results"] == {"net": {"Ann": 2.5, "Cat": -2.5},
                               "transfers": ["The bank passes to Ann."]}
    assert view["bank"] == {"name": "Cat", "cards": [_card("TC", True), _card("7D", True)],
                            "total": 17, "kitty": 1.5}
    ann, bob, cat = view["seats"]
    assert ann == {"name": "Ann", "seat": 1, "banker": False, "balance": 4, "hands": [
        {"hand": 1, "stake": 2.5, "status": "stood", "total": 18, "shoot": 2,
         "cards": [_card("8C", True), _card("TD", True)]}]}
    assert bob["balance"] == -1.5
    assert cat["banker"] is True


def test_face_down_cards_hide_their_code_the_total_and_a_final_status() -> None:
    """docs/display.md: a code only when face up, a total only when every card is."""
    snap = _table(None, bank={"name": "Cat", "cards": [_card("AS", False), _card("KD", True)],
                              "total": 21})
    snap["seats"][0]["hands"] = [
        {"hand": 1, "stake": 2, "total": 21, "status": "pontoon",
         "cards": [_card("AC", False), _card("QH", True)]},
        {"hand": 2, "stake": 2, "total": 12, "status": "playing",
         "cards": [_card("2C", False), _card("QS", True)]},
    ]
    view = public_view(snap)
    bank = view["bank"]
    assert bank["cards"] == [{"face_up": False}, _card("KD", True)]
    assert "total" not in bank
    assert "kitty" not in bank
    first, second = view["seats"][0]["hands"]
    assert first["cards"] == [{"face_up": False}, _card("QH", True)]
    assert "total" not in first
    assert first["status"] == "hidden"  # "pontoon" would give the face-down ace away
    assert "total" not in second
    # every hand with a card face down looks the same (docs/display.md): whose
    # hand is in play is public through the view's ``turn``, not the status
    assert second["status"] == "hidden"
    assert "AS" not in repr(view) and "AC" not in repr(view) and "2C" not in repr(view)


def test_a_card_without_a_code_is_shown_face_down() -> None:
    snap = _table(None, bank={"name": "Cat", "cards": [{"face_up": True}]})
    assert public_view(snap)["bank"]["cards"] == [{"face_up": False}]


def test_a_hold_gives_the_players_a_calm_notice_and_never_the_details() -> None:
    words = {
        "link_down": "One moment: the table is reconnecting a device.",
        "unsure_card": "One moment: the dealer is checking a card.",
        "misdeal": "One moment: the dealer is correcting the deal.",
        "dealer": "The table is paused.",
        "something_new": "The table is paused.",
    }
    for reason, text in words.items():
        view = public_view(_table(None, hold={"reason": reason, "message": "Shoe link lost"},
                                  paused=True))
        assert view["notice"] == text
        assert view["paused"] is True
        assert "Shoe link lost" not in repr(view)
    assert public_view(_table(None, paused=True))["notice"] == "The table is paused."


def test_an_empty_snapshot_gives_an_empty_public_view() -> None:
    view = public_view({})
    assert view["seats"] == [] and view["bank"] == {"name": None, "cards": []}
    assert view["results"] is None and view["turn"] is None and view["standings"] == []
    assert view["paused"] is False and view["game_over"] is False and view["winners"] == []


def test_half_units_are_paid_collected_and_won_too() -> None:
    """Insurance and 3:2 payouts leave halves: 0.5 is money like any other."""
    out = payouts(_table({"Ann": 0.5, "Bob": -1, "Cat": 0.5}))
    assert out[0]["kind"] == "pay" and out[0]["text"] == "Pay Seat 1 (Ann): 0.5"
    assert out[-1]["text"] == "The bank (Cat) wins 0.5"


def test_the_bankers_own_seat_is_skipped_wherever_it_sits() -> None:
    out = payouts(_table({"Ann": -4, "Bob": 1, "Cat": 3}, banker="Ann"))
    assert [(o["name"], o["kind"]) for o in out] == [("Bob", "pay"), ("Cat", "pay"),
                                                      ("Ann", "bank")]
    assert out[-1]["text"] == "The bank (Ann) loses 4"


def test_breaking_even_says_no_more() -> None:
    out = payouts(_table({"Ann": 2, "Bob": -2, "Cat": 0}))
    assert out[-1]["text"] == "The bank (Cat) breaks even"  # no stray comma


def test_a_hand_that_stood_looks_like_any_hand_with_a_card_face_down() -> None:
    """A hand that stood, one that ended by itself (a pontoon, 21 on a face-down
    buy) and one still in play must look alike while a card is face down, or
    "stood" against "done" gives the hidden card away (docs/display.md)."""
    snap = _table(None)
    snap["seats"][1]["hands"] = [
        {"hand": 1, "stake": 2, "total": 19, "status": "stood",
         "cards": [_card("9C", False), _card("KH", True)]},
    ]
    (hand,) = public_view(snap)["seats"][1]["hands"]
    assert hand["status"] == "hidden" and "total" not in hand


def test_the_dealer_view_of_a_snapshot_without_a_version() -> None:
    view = dealer_view(_table(None))
    assert "version" not in view and view["payouts"] == []


# ------------------------------------------------------------------- the last deal on the TV
def test_the_public_view_carries_the_last_deals_number_void_flag_and_nets() -> None:
    """The finished deal's nets were announced at its settlement, so the TV
    may keep showing them: deal 3 voided (nets 0), then deal 4 with Ann up
    5/2 units (2.5 on the screen, as every amount) and Bob down 3."""
    voided = public_view(_table(None, last_deal={"number": 3, "void": True, "net": {}}))
    assert voided["last_deal"] == {"number": 3, "void": True, "net": {}}
    played = public_view(
        _table(None, last_deal={"number": 4, "void": False, "net": {"Ann": "5/2", "Bob": -3}})
    )
    assert played["last_deal"] == {"number": 4, "void": False, "net": {"Ann": 2.5, "Bob": -3}}
    # before any deal has finished there is none (null, not an empty text)
    assert public_view(_table(None))["last_deal"] is None
