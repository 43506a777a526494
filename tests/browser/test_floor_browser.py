"""The floor page in Chromium: the token, every table, alarms, leaderboard, live.

Six simulated tables (floor.sim_table.BotTable: the real table core and
journal, bots for the people) are ingested by a real Floor on SQLite; the
page is served by uvicorn in a thread.  Expected: what the floor's own API
says (the leaderboard), the words of the statuses the test sends (alarms),
and the layout bounds (nothing wider than the screen).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from browser_kit import free_port, shot

from floor.app import create_floor_app
from floor.ingest import Floor
from floor.messages import JournalEntry, TableStatus, encode_entry, encode_status, topic
from floor.publisher import status_from_snapshot
from floor.sim_table import BotTable
from floor.store import open_store

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
TOKEN = "floor-browser-token"
SIZES = {"wall": (1920, 1080), "laptop": (1024, 768), "phone": (390, 844)}
SEATS = [
    ("Ann", "Ben", "Cat", "Dan"),
    ("Eve", "Fay", "Gus"),
    ("Hal", "Ivy", "Jo", "Kim"),
    ("Lee", "Max"),
    ("Ned", "Oli", "Pam"),
    ("Quin", "Rae", "Sam", "Tia"),
]


def entries(path: Path, table: str) -> list[JournalEntry]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seq, game, kind, body, meta, at, hash FROM rows ORDER BY seq")
        out, prev = [], "0" * 64
        for seq, game, kind, body, meta, at, h in rows:
            out.append(JournalEntry(table, seq, game, kind, body, meta, at, prev, h))
            prev = h
    return out


@dataclass
class Served:
    base: str
    floor: Floor
    app: Any
    loop: asyncio.AbstractEventLoop

    def feed(self, messages: list[tuple[str, bytes]]) -> None:
        """Ingest on the server's loop, as the subscriber does, and cue the page."""

        async def go() -> None:
            self.floor.handle(messages)
            self.app.state.changed()

        asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("floor-page")
    floor = Floor(open_store(f"sqlite:///{folder / 'floor.db'}"))
    messages: list[tuple[str, bytes]] = []
    for k, players in enumerate(SEATS, start=1):
        table = f"table-{k}"
        bot = BotTable(
            folder / f"{table}.sqlite", name=f"Table {k}", seed=k, deals=3, players=players
        )
        for _ in range(25 + 9 * k):  # tables at different points of their game
            if not bot.step():
                break
        snapshot = bot.snapshot()
        rows = entries(folder / f"{table}.sqlite", table)
        messages += [(topic(table, "journal"), encode_entry(e)) for e in rows]
        status = status_from_snapshot(table, snapshot, game=1, last_seq=len(rows), at=1.0)
        status = replace(
            status,
            devices={"shoe": {"up": True}, "camera": {"up": True}, "seat panels": {"up": k != 3}},
        )
        if k == 3:
            status = replace(status, alarms=("Seat 2's panel does not answer",))
        if k == 5:
            status = replace(status, holds=("The camera is not sure of a card: show it again",))
        messages.append((topic(table, "status"), encode_status(status)))
        bot.close()
    messages.append((topic("table-7", "status"), encode_status(TableStatus("table-7", False))))
    floor.handle(messages)
    app = create_floor_app(floor, token=TOKEN, rounds={"Round 1": {"table-1": [1], "table-2": [1]}})
    port = free_port()
    loop = asyncio.new_event_loop()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    for _ in range(600):  # until uvicorn says it listens (or 30 s)
        if server.started or not thread.is_alive():
            break
        threading.Event().wait(0.05)
    assert server.started, "the floor page did not start"
    yield Served(f"http://127.0.0.1:{port}", floor, app, loop)
    server.should_exit = True
    thread.join(15)


def open_floor(browser: Any, served: Served, size: str, token: str | None = TOKEN) -> Any:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{served.base}/floor" + (f"#token={token}" if token else ""))
    return page


def no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def test_the_page_asks_for_the_token_and_refuses_a_wrong_one(browser: Any, served: Served) -> None:
    page = open_floor(browser, served, "laptop", token=None)
    form = page.locator("#token-form")
    sync_api.expect(form).to_be_visible()
    sync_api.expect(page.locator("#token-title")).to_have_text("The floor's token is needed")
    page.fill("#token-input", "wrong")
    page.click("#btn-token")
    sync_api.expect(page.locator("#token-title")).to_have_text("That token was refused")
    assert page.locator("[data-table]").count() == 0  # nothing shown without the token
    page.fill("#token-input", TOKEN)
    page.click("#btn-token")
    sync_api.expect(page.locator("#conn")).to_have_text("live")
    sync_api.expect(page.locator("article.table-card")).to_have_count(7)
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_every_table_alarms_and_the_leaderboard_fit_the_screen(
    browser: Any, served: Served, size: str, tmp_path: Path
) -> None:
    page = open_floor(browser, served, size)
    sync_api.expect(page.locator("#conn")).to_have_text("live")
    cards = page.locator("article.table-card")
    sync_api.expect(cards).to_have_count(7)
    sync_api.expect(page.locator("#online")).to_have_text("6 of 7")
    alarms = page.locator("#alarms li")
    texts = alarms.all_inner_texts()
    assert any("Seat 2's panel does not answer" in t for t in texts)
    assert any("On hold: The camera is not sure" in t for t in texts)
    assert any("table-7 is offline" in t for t in texts)
    view = served.floor.standings.leaderboard()
    names = page.locator("#leaderboard tbody th").all_inner_texts()
    assert names == [p["player"] for p in view]
    page.select_option("#round", "Round 1")
    round_one = served.floor.standings.leaderboard({"table-1": [1], "table-2": [1]})
    sync_api.expect(page.locator("#leaderboard tbody tr")).to_have_count(len(round_one))
    assert page.locator("#leaderboard tbody th").all_inner_texts() == [
        p["player"] for p in round_one
    ]
    page.select_option("#round", "")
    no_overflow(page)
    shot(page, tmp_path, f"floor-{size}")
    assert page.errors == []
    page.close()


def test_a_new_alarm_reaches_the_open_page_without_a_reload(browser: Any, served: Served) -> None:
    page = open_floor(browser, served, "laptop")
    sync_api.expect(page.locator("#conn")).to_have_text("live")
    status = TableStatus(
        "table-4",
        True,
        at=5.0,
        phase="deal",
        game=1,
        deal=2,
        last_seq=0,
        alarms=("The shoe's gate is forced open",),
    )
    served.feed([(topic("table-4", "status"), encode_status(status))])
    sync_api.expect(page.locator("#alarms li", has_text="gate is forced open")).to_have_count(1)
    card = page.locator('article[data-table="table-4"]')
    sync_api.expect(card.locator("li.alarm")).to_have_text("The shoe's gate is forced open")
    page.close()


@pytest.mark.slow
def test_axe_finds_nothing_serious_on_the_floor_page(browser: Any, served: Served) -> None:
    """axe-core's own rules (contrast, names, landmarks) on the page with its
    token form, then with every table, alarm and the leaderboard shown."""
    from axe_check import axe_violations, describe

    page = open_floor(browser, served, "wall", token=None)
    sync_api.expect(page.locator("#token-form")).to_be_visible()
    found = axe_violations(page)
    assert not found, f"the token form:\n{describe(found)}"
    page.fill("#token-input", TOKEN)
    page.click("#btn-token")
    sync_api.expect(page.locator("article.table-card")).to_have_count(7)
    found = axe_violations(page)
    assert not found, f"the floor:\n{describe(found)}"
    page.close()
