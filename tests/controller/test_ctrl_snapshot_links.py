"""A published snapshot keeps the links as they were when it was built.

The core keeps one record per device link and updates it in place; the
snapshot used to hand out that very dict, so the display's last view changed
with the core, its comparison with the next view found no difference, and a
link going down never reached the dealer's devices panel.
"""

from __future__ import annotations

from controller.core import LinkChanged
from dealer_display.hub import diff
from dealer_display.manual import ManualTable
from dealer_display.views import dealer_view


def test_a_snapshot_does_not_change_after_it_is_built() -> None:
    table = ManualTable(rules="house", players=["Ann", "Dan"], banker="Dan")
    table.feed(LinkChanged("shoe", True))
    before = table.snapshot()
    assert before["links"]["shoe"]["up"] is True
    table.feed(LinkChanged("shoe", False, reason="no answer"))
    assert before["links"]["shoe"]["up"] is True
    shoe = dict(table.snapshot()["links"]["shoe"])
    assert set(shoe.pop("counters").values()) == {0}  # no driver has reported any
    assert shoe == {"up": False, "reboots": 0, "drops": 1, "reason": "no answer"}


def test_the_dealer_channel_sends_a_link_going_down() -> None:
    """The hub sends only the keys whose value changed: ``links`` must be one."""
    table = ManualTable(rules="house", players=["Ann", "Dan"], banker="Dan")
    table.feed(LinkChanged("shoe", True))
    old = dealer_view(table.snapshot())
    table.feed(LinkChanged("shoe", False, reason="no answer"))
    changed, _ = diff(old, dealer_view(table.snapshot()))
    assert changed.get("links", {}).get("shoe", {}).get("up") is False, changed.keys()
