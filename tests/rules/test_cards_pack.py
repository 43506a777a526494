from __future__ import annotations

import pytest

from controller.rules import Card, Pack, PackError, hand_total, is_bust, is_pontoon, is_soft
from controller.rules.hands import is_five_card_trick


def cards(*names: str) -> list[Card]:
    return [Card.parse(n) for n in names]


def test_parse_and_print() -> None:
    assert str(Card.parse("10H")) == "TH"
    assert Card.parse("th") == Card.parse("TH")
    assert Card.parse("AS").is_ace and Card.parse("QD").value == 10
    for bad in ("1H", "AX", "", "10", "KHH"):
        with pytest.raises(ValueError, match="unknown card"):
            Card.parse(bad)


def test_totals_soft_hard_bust() -> None:
    assert hand_total(cards("AS", "6D")) == 17 and is_soft(cards("AS", "6D"))
    assert hand_total(cards("AS", "6D", "9C")) == 16 and not is_soft(cards("AS", "6D", "9C"))
    assert hand_total(cards("AS", "AD")) == 12
    assert hand_total(cards("KS", "QD", "5C")) == 25 and is_bust(cards("KS", "QD", "5C"))
    assert is_pontoon(cards("AS", "JD")) and not is_pontoon(cards("AS", "9D", "AC"))
    assert is_five_card_trick(cards("2C", "3D", "AH", "4S", "5C"))
    assert not is_five_card_trick(cards("9C", "3D", "AH", "4S", "5C"))


def test_stack_top_takes_cards_from_anywhere_and_keeps_the_rest() -> None:
    pack = Pack(1, seed=3)
    pack.shuffle()
    before = [c for c in pack.cards() if str(c) not in ("AS", "KD")]
    pack.stack_top(cards("KD", "AS"))
    assert [str(pack.draw()), str(pack.draw())] == ["KD", "AS"]
    assert pack.cards() == before


def test_stacking_a_card_twice_beyond_the_packs_is_refused_and_changes_nothing() -> None:
    pack = Pack(1)
    order = pack.cards()
    with pytest.raises(PackError, match="AS cannot be stacked 2 times"):
        pack.stack_top(cards("AS", "AS"))
    assert pack.cards() == order
    two = Pack(2)
    two.stack_top(cards("AS", "AS"))
    assert len(two) == 104


def test_shuffle_is_reproducible_from_seed_and_counter() -> None:
    a, b = Pack(1, seed=9), Pack(1, seed=9)
    a.shuffle()
    b.shuffle()
    assert a.cards() == b.cards()
    a.shuffle()
    assert a.cards() != b.cards()  # the counter moved on
    c = Pack.from_dict(a.to_dict())
    a.shuffle()
    c.shuffle()
    assert a.cards() == c.cards()
    assert sorted(a.cards()) == sorted(Pack(1).cards())


def test_used_cards_go_to_the_bottom_in_order() -> None:
    pack = Pack(1)
    first = [pack.draw() for _ in range(3)]
    pack.to_bottom(first)
    assert pack.cards()[-3:] == first
    p = Pack(1)
    p.take(Card.parse("AS"))
    with pytest.raises(PackError, match="already out"):
        p.take(Card.parse("AS"))
