"""The players' view (``/table``) on a phone, 390x844, with eight seats.

A TV fits the whole table into one screen by shrinking it; a phone did the
same and drew the eight seats in 9 px text, with the side column over the
board.  On a phone the page scrolls instead: one column, and no text below
12 px (the bound measured here on every visible element that holds text,
with the table mid-deal: 8 stakes placed, 17 cards dealt by hand).

Screenshots (the whole page) go to pytest's temporary directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_dealer_tablet import serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")

#: the smallest font size of a visible element holding text of its own, and which
SMALLEST = """() => {
  let worst = [999, ""];
  for (const n of document.querySelectorAll("body *")) {
    const own = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    const r = n.getBoundingClientRect();
    if (!own || r.width === 0 || r.height === 0 || !n.checkVisibility()) continue;
    const size = parseFloat(getComputedStyle(n).fontSize);
    if (size < worst[0]) worst = [size, n.tagName + " " + n.textContent.trim().slice(0, 30)];
  }
  return worst;
}"""


def test_eight_seats_on_a_phone_are_read_at_12_px_or_more(browser: Any, tmp_path: Path) -> None:
    served = serve("casino", [f"P{i}" for i in range(1, 9)], seed=1)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        assert served.command("next_deal").ok
        for i in range(1, 9):
            assert served.command("decide", {"seat": f"P{i}", "decision": "stake", "amount": 1}).ok
        for _ in range(17):  # every seat's first two cards and the dealer's first
            assert served.command("confirm_card", {"code": str(served.table.next_card())}).ok
        page.goto(f"{served.base}/table")
        sync_api.expect(page.locator("#conn")).to_have_text("live")
        sync_api.expect(page.locator(".seat")).to_have_count(8)
        page.wait_for_function("document.body.dataset.scale !== undefined")
        size, where = page.evaluate(SMALLEST)
        assert size >= 12, (size, where)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        # the side column no longer lies over the board: the sign comes after the seats
        seats = page.locator("#seats").bounding_box()
        side = page.locator(".side").bounding_box()
        assert side["y"] >= seats["y"] + seats["height"] - 1, (seats, side)
        path = tmp_path / "table-phone-8-seats.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"screenshot: {path}")
    finally:
        page.close()
        served.stop()
