"""The dealer's tablet page (``/dealer``) in Debian's Chromium, at three screen sizes.

The display is served in this process (uvicorn on a thread) over a hand-run
:class:`~dealer_display.manual.ManualTable`: the real rules engine, the real
app, the real page.  A scripted dealer plays whole games on it (stakes at
the least, every card chosen by the script, one seat twisting low cards into
a five-card trick), and at sampled moments the page is measured as the
dealer's tablet shows it:

- nothing scrolls (``scrollHeight <= innerHeight``, the same for the width);
- the seat whose turn it is lies inside the viewport (on a tablet, every seat);
- a focused button survives an update of the page;
- a keyboard shortcut works; the rare commands ask before they act;
- the table's holds are focused screens: the unsure-card hold is reached the
  way the bridge and the camera reach it (a card-out the camera could not
  read, fed to the table as the bridge feeds it), and names the missing card
  from the engine's pending need, with Resume hidden; a misdeal, a jam and a
  lost link say what happened and offer the table's choices;
- the connection-lost banner appears when the server goes away.

Screenshots go to pytest's temporary directory (their paths are printed).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from browser_kit import free_port, shot

from controller.core import CardRead, LinkChanged
from controller.rules import Card
from dealer_display.app import create_app
from dealer_display.limits import MAX_WS_MESSAGE
from dealer_display.manual import ManualTable
from dealer_display.views import dealer_view
from firmware_bridge.host import CardOut, GateJammed

pytestmark = [pytest.mark.browser, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

TOKEN = "tablet-test-token"
SIZES = {"tablet": {"width": 1024, "height": 768}, "upright": {"width": 768, "height": 1024},
         "phone": {"width": 390, "height": 844}}
#: lowest cards first: what the script deals a seat it wants to see with five cards
LOW_FIRST = [r + s for r in "A23456789TJQK" for s in "CDHS"]


# -- the display, served on a thread --------------------------------------------------
class Served:
    """``create_app(table)`` under uvicorn on its own thread and event loop."""

    def __init__(self, table: ManualTable, port: int) -> None:
        self.table = table
        self.port = port
        self.app = create_app(table, token=TOKEN)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning",
                                lifespan="on", ws_max_size=MAX_WS_MESSAGE)
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError("the display did not start")
            time.sleep(0.02)  # uvicorn offers no event for "listening"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, make: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``make()`` on the server's loop (the table is not thread-safe) and wait."""
        return asyncio.run_coroutine_threadsafe(make(), self.loop).result(20)

    def command(self, name: str, args: dict[str, Any] | None = None) -> Any:
        return self.call(lambda: self.table.command(name, args))

    def feed(self, *events: Any) -> None:
        """Events as the bridge and the camera deliver them to the live table."""

        async def go() -> None:
            for event in events:
                self.table.feed(event)
            await asyncio.sleep(0)

        self.call(go)

    def version(self) -> int:
        """The dealer channel's version once every change so far is published."""

        async def settled() -> int:
            await asyncio.sleep(0)
            return int(self.app.state.hub["dealer"].version)

        return int(self.call(settled))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)


def serve(rules: str, players: list[str], banker: str | None = None, seed: int = 0) -> Served:
    return Served(ManualTable(rules=rules, players=players, banker=banker, seed=seed), free_port())


def open_dealer(browser: Any, served: Served, size: str) -> Any:
    page = browser.new_page(viewport=SIZES[size])
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{served.base}/dealer#token={TOKEN}")
    sync_api.expect(page.locator("#conn")).to_have_text("live")
    return page


def caught_up(page: Any, served: Served) -> None:
    """Wait until the page has drawn the table's latest published view."""
    version = served.version()
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)


# -- a scripted dealer ------------------------------------------------------------------
def pick_card(table: ManualTable, low: bool) -> str:
    """The pack's next card, or (for a seat meant to reach five cards) its lowest."""
    if low:
        for code in LOW_FIRST:
            if Card.parse(code) in table.state.pack:
                return code
    return str(table.next_card())


def move(served: Served, twister: str | None) -> bool:
    """One move of a dealer who stakes the least, deals as the script says and lets
    ``twister`` twist (or buy) while it can; everyone else sticks.  False at game over."""
    table = served.table
    snap = table.snapshot()
    if snap["game_over"]:
        return False
    pending = snap["pending"]
    kind = pending["kind"]
    if kind == "card":
        low = pending.get("to") == twister and not pending.get("to_bank")
        result = served.command("confirm_card", {"code": pick_card(table, low)})
    elif kind == "between_deals":
        result = served.command("next_deal")
    else:
        legal = dealer_view(snap)["decisions"]
        words = {d["decision"]: d for d in legal}
        if "stay" in words or "draw" in words:
            result = served.command("bank_stay" if "stay" in words else "bank_draw")
        else:
            seat = legal[0]["seat"]
            mine = [d for d in legal if d["seat"] == seat]
            order = ["twist", "buy", "stick"] if seat == twister else ["stick"]
            choice = next((d for w in order for d in mine if d["decision"] == w), mine[0])
            amount = None
            if "min" in choice and choice["min"] != choice["max"]:
                amount = int(-(-choice["min"] // 1))
            result = served.command(
                "decide", {"seat": seat, "decision": choice["decision"], "amount": amount})
    assert result.ok, result.message
    return True


def measure(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const de = document.documentElement;
          const inView = (e) => { const r = e.getBoundingClientRect();
            return r.top >= 0 && r.left >= 0
              && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; };
          const turn = document.querySelector('#seats .seat.turn, #seats .seat.due');
          return { sh: de.scrollHeight, sw: de.scrollWidth, h: innerHeight, w: innerWidth,
                   turn: turn ? turn.dataset.seat : null, turnInView: turn ? inView(turn) : true,
                   seatsOut: Array.from(document.querySelectorAll('#seats .seat'))
                     .filter((e) => !inView(e)).map((e) => e.dataset.seat),
                   fiveCards: document.querySelectorAll(
                     '#seats .cards:has(> :nth-child(5))').length,
                   hold: document.body.dataset.hold,
                   settled: !document.getElementById('payouts-box').hidden,
                   totals: Object.fromEntries(Array.from(document.querySelectorAll('#seats .seat'),
                     (e) => [e.dataset.seat, Array.from(e.querySelectorAll('.hand'),
                       (h) => (h.querySelector('.total') || {}).textContent || '')])),
                   progress: document.getElementById('progress').textContent,
                   sideFits: (() => { const e = document.getElementById('side');
                     return e.scrollHeight <= e.clientHeight + 1; })() };
        }"""
    )


def check_words(snap: Any, m: dict[str, Any], where: str) -> None:
    """Totals read as the engine's hands say ("soft 17" when its ``soft`` flag is
    set), and the deal count is put in words from the engine's ``deal``."""
    for seat in snap["seats"]:
        if seat["name"] not in m["totals"]:
            continue
        want = [("soft " if h["soft"] else "") + str(h["total"]) if h["cards"] else ""
                for h in seat["hands"]]
        assert m["totals"][seat["name"]] == want, where
    deal = snap["deal"]
    words = (f"{deal['counted']} of the game's {deal['of']} counted deals played"
             if deal["of"] else f"{deal['counted']} counted deals played, no limit")
    assert words in m["progress"], where


GAMES = [
    # (rules, players, banker, seed, the seat that twists low cards, moves)
    ("casino", [f"P{i}" for i in range(1, 9)], None, 5, "P3", 120),
    ("house", ["Ann", "Ben", "Cat", "Dan"], "Dan", 11, "Ben", 80),
    ("shoot", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], "Fay", 2, "Cat", 90),
]


@pytest.mark.parametrize("size", list(SIZES))
def test_whole_games_fit_the_screen(browser: Any, size: str, tmp_path: Path) -> None:
    """At every sampled moment of three scripted games (8 seats with a house bank,
    4 seats, the shoot preset with its kitty), the dealer page does not scroll and
    the active seat is in view; on the two tablet sizes every seat is, and the
    side with the controls and decisions needs no scrolling of its own."""
    five_seen = False
    for rules, players, banker, seed, twister, moves in GAMES:
        served = serve(rules, players, banker, seed)
        try:
            page = open_dealer(browser, served, size)
            five_shot = settled_shot = False
            for n in range(moves):
                if not move(served, twister):
                    break
                if n % 4:
                    continue
                caught_up(page, served)
                m = measure(page)
                where = f"{rules} {size} move {n}: {m}"
                assert m["sh"] <= m["h"] and m["sw"] <= m["w"], where
                assert m["turnInView"], where
                if size != "phone":
                    assert not m["seatsOut"], where
                    assert m["sideFits"], where  # what to do needs no scrolling either
                check_words(served.table.snapshot(), m, where)
                if m["settled"] and not settled_shot:
                    settled_shot = True
                    shot(page, tmp_path, f"{size}-{rules}-{len(players)}seats-settled")
                if m["fiveCards"] and not five_shot:
                    five_shot = True
                    shot(page, tmp_path, f"{size}-{rules}-{len(players)}seats-five-cards")
                five_seen = five_seen or m["fiveCards"] > 0
                if n in (8, 40, 72):
                    shot(page, tmp_path, f"{size}-{rules}-{len(players)}seats-move{n}")
            assert not page.errors, page.errors
            page.close()
        finally:
            served.stop()
    assert five_seen, "no five-card hand was ever shown"


def test_focus_shortcuts_and_the_rare_commands_menu(browser: Any, tmp_path: Path) -> None:
    """Focus survives updates; P pauses and resumes, N deals on; void asks first."""
    expect = sync_api.expect
    served = serve("house", ["Ann", "Ben", "Cat", "Dan"], "Dan", 3)
    try:
        page = open_dealer(browser, served, "tablet")
        sent: list[str] = []
        page.on("request", lambda r: sent.append(r.url.rsplit("/api/", 1)[-1])
                if "/api/" in r.url else None)
        # N: the next deal starts from the keyboard.
        page.keyboard.press("n")
        expect(page.locator("#next")).to_contain_text("Seat 1 (Ann), hand 1")
        for _ in range(4):  # each seat's first card, the bank's too
            move(served, None)
        caught_up(page, served)
        expect(page.locator("#decisions [data-seat='Cat'] [data-decision='stake']")).to_be_visible()

        # Focus on Pause, then on Cat's stake button: other seats' stakes redraw the page
        # around them, and each keeps its focus (the same element, not a copy).
        page.focus("#btn-pause")
        page.evaluate("document.activeElement.dataset.mark = 'kept'")
        served.command("decide", {"seat": "Ann", "decision": "stake", "amount": 1})
        caught_up(page, served)
        assert page.evaluate("document.activeElement.dataset.mark") == "kept"
        assert page.evaluate("document.activeElement.id") == "btn-pause"
        cat = "#decisions [data-seat='Cat'] [data-decision='stake']"
        page.focus(cat)
        page.evaluate("document.activeElement.dataset.mark = 'cat'")
        served.command("decide", {"seat": "Ben", "decision": "stake", "amount": 1})
        caught_up(page, served)
        expect(page.locator("#decisions [data-seat='Ben']")).to_have_count(0)
        assert page.evaluate("document.activeElement.dataset.mark") == "cat"

        # P pauses (a hold screen with Resume), P again resumes.
        page.keyboard.press("p")
        expect(page.locator("#hold[data-hold='dealer']")).to_be_visible()
        expect(page.locator("#btn-resume")).to_be_visible()
        shot(page, tmp_path, "tablet-paused")
        page.keyboard.press("p")
        expect(page.locator("#hold")).to_be_hidden()
        assert sent[-2:] == ["pause", "resume"], sent

        # Void and New game are not beside Pause; from the menu they ask first.
        expect(page.locator("#controls")).not_to_contain_text("Void")
        expect(page.locator("#controls")).not_to_contain_text("New game")
        page.keyboard.press("?")
        expect(page.locator("#help")).to_be_visible()
        expect(page.locator("#help")).to_contain_text("Pause")
        shot(page, tmp_path, "tablet-help")
        page.keyboard.press("Escape")
        page.click("#btn-menu")
        page.click("#menu-void")
        expect(page.locator("#confirm")).to_be_visible()
        expect(page.locator("#confirm")).to_contain_text("Void this deal?")
        shot(page, tmp_path, "tablet-confirm-void")
        page.click("#btn-confirm-no")
        expect(page.locator("#confirm")).to_be_hidden()
        assert "void-deal" not in sent
        page.click("#menu-void")
        page.click("#btn-confirm-yes")
        expect(page.locator("#next")).to_contain_text("Deal void")
        assert sent.count("void-deal") == 1, sent
        assert not page.errors, page.errors
    finally:
        served.stop()


def test_holds_are_focused_screens(browser: Any, tmp_path: Path) -> None:
    """The unsure card, a misdeal, a jam, a lost link and a restarted shoe, each fed
    to the table as the bridge and the camera report them."""
    expect = sync_api.expect
    served = serve("house", ["Ann", "Ben", "Cat", "Dan"], "Dan", 3)
    try:
        page = open_dealer(browser, served, "tablet")
        hold = page.locator("#hold")
        # The optional sound: off by default, a beep on each new hold once it is on.
        expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "false")
        page.click("#btn-sound")
        expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("body")).to_have_attribute("data-beeps", "1")  # the toggle's sample
        served.command("next_deal")
        # A card leaves the shoe; the camera cannot read it.  The engine waits for
        # Ann's first card (face down), so that is the card the screen asks for.
        served.feed(CardOut(event_no=1, device_ms=10), CardRead(1, None, "glare"))
        expect(hold).to_have_attribute("data-hold", "unsure_card")
        expect(hold.locator("#card-need")).to_have_text("Card for Seat 1 (Ann), hand 1, face down")
        expect(page.locator("#btn-resume")).to_have_count(0)
        expect(page.locator("#btn-pause")).to_be_hidden()
        expect(page.locator("#next")).to_be_hidden()
        # The camera's message is shown once (the next line, which repeats it, is hidden).
        assert page.inner_text("main").count("could not read") == 1
        expect(hold.locator("[data-suit='H']")).to_have_attribute("aria-label", "hearts")
        expect(page.locator("#announce")).to_contain_text("Name the card")
        expect(page.locator("body")).to_have_attribute("data-beeps", "2")
        shot(page, tmp_path, "tablet-hold-unsure-card")
        page.set_viewport_size(SIZES["phone"])
        m = measure(page)
        assert m["sh"] <= m["h"] and m["sw"] <= m["w"], m
        shot(page, tmp_path, "phone-hold-unsure-card")
        page.set_viewport_size(SIZES["tablet"])
        # Named from the keyboard: 7, then H.
        page.keyboard.press("7")
        page.keyboard.press("h")
        expect(hold).to_be_hidden()
        expect(page.locator("[data-seat='Ann'] img.card")).to_have_attribute(
            "alt", "7 of hearts, face down")

        for _ in range(3):
            move(served, None)
        caught_up(page, served)  # stakes now: no card is due
        served.feed(CardOut(event_no=2, device_ms=20), CardRead(2, "5H"))
        expect(hold).to_have_attribute("data-hold", "misdeal")
        expect(hold).to_contain_text("Misdeal")
        expect(hold).to_contain_text("5 of hearts")
        expect(hold.locator("[data-choice='return']")).to_be_visible()
        expect(hold.locator("[data-choice='void']")).to_be_visible()
        shot(page, tmp_path, "tablet-hold-misdeal")
        page.keyboard.press("1")  # the first choice: the card is back, go on
        expect(hold).to_be_hidden()

        served.feed(GateJammed(event_no=3, device_ms=30))
        expect(hold).to_have_attribute("data-hold", "jam")
        expect(hold).to_contain_text("jammed")
        shot(page, tmp_path, "tablet-hold-jam")
        hold.locator("[data-choice='continue']").click()
        expect(hold).to_be_hidden()

        served.feed(LinkChanged("shoe", False, reason="no answer to 3 polls"))
        expect(hold).to_have_attribute("data-hold", "link_down")
        expect(hold).to_contain_text("Lost the link to the shoe")
        expect(page.locator("#links [data-link='shoe']")).to_contain_text("DOWN")
        shot(page, tmp_path, "tablet-hold-link-down")
        served.feed(LinkChanged("shoe", True, rebooted=True, events_lost=2))
        expect(hold).to_have_attribute("data-hold", "reboot")
        expect(hold.locator("h2")).to_have_text("⚠ The shoe restarted")
        expect(hold).to_contain_text("2 card event(s) are known lost")
        expect(page.locator("#links [data-link='shoe']")).to_contain_text("1 reboot · 1 drop")
        shot(page, tmp_path, "tablet-hold-shoe-restarted")
        hold.locator("[data-choice='continue']").click()
        expect(hold).to_be_hidden()
        assert not page.errors, page.errors
    finally:
        served.stop()


def test_the_cameras_guesses_are_one_tap_buttons(browser: Any, tmp_path: Path) -> None:
    """When the camera is unsure but has likely cards (a ``CardRead`` carrying
    guesses, as the table's reader sends it; the snapshot gives them as
    ``{"card", "p"}``), each is a button named in words, and tapping one names the
    card. (The page once took the guesses for bare codes: the sim's dealer page
    threw and showed an empty hold screen.)"""
    expect = sync_api.expect
    served = serve("house", ["Ann", "Ben", "Dan"], "Dan", 3)
    try:
        page = browser.new_page(viewport=SIZES["tablet"])
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{served.base}/dealer#token={TOKEN}")
        expect(page.locator("#conn")).to_have_text("live")
        served.command("next_deal")
        served.feed(CardOut(event_no=1, device_ms=10),
                    CardRead(1, None, "glare", guesses=(("7H", 0.61), ("7D", 0.3))))
        guess = page.locator("#hold [data-guess='7H']")
        expect(guess).to_have_text("7 of hearts")
        expect(page.locator("#hold [data-guess='7D']")).to_have_text("7 of diamonds")
        shot(page, tmp_path, "tablet-hold-unsure-guesses")
        guess.click()
        expect(page.locator("#hold")).to_be_hidden()
        expect(page.locator("[data-seat='Ann'] img.card")).to_have_attribute("data-card", "7H")
        assert not errors, errors
    finally:
        served.stop()


def test_devices_panel_shows_the_bridges_counters(browser: Any) -> None:
    """Whatever counters the bridge keeps per link are listed by name (set here on
    the table's link record as the bridge would, then published)."""
    expect = sync_api.expect
    served = serve("house", ["Ann", "Dan"], "Dan", 1)
    try:

        async def counted() -> None:
            core = served.table.core
            core.links["panels"] = {"up": True, "reboots": 0, "drops": 2}
            core.note_link_counts("panels", {"crc_errors": 3, "out_of_window": 1})
            served.table.refresh()

        served.call(counted)
        page = open_dealer(browser, served, "tablet")
        row = page.locator("#links [data-link='panels']")
        expect(row).to_contain_text("up · 0 reboots · 2 drops")
        expect(row).to_contain_text("crc errors 3")
        expect(row).to_contain_text("out of window 1")
    finally:
        served.stop()


def test_connection_lost_banner(browser: Any, tmp_path: Path) -> None:
    """The server goes away: a banner says since when, the controls are off; it
    comes back: the banner goes and the controls work again."""
    expect = sync_api.expect
    served = serve("house", ["Ann", "Ben", "Dan"], "Dan", 4)
    port = served.port
    table = served.table
    try:
        page = open_dealer(browser, served, "tablet")
        expect(page.locator("#updated")).to_contain_text(re.compile(r"Updated \d\d:\d\d:\d\d"))
        served.stop()
        banner = page.locator("#lost")
        expect(banner).to_be_visible(timeout=10_000)
        expect(banner).to_contain_text(
            re.compile(r"Connection lost since \d\d:\d\d:\d\d, reconnecting"))
        expect(banner).to_contain_text("Last update")
        assert page.evaluate("document.getElementById('main').inert")
        shot(page, tmp_path, "tablet-connection-lost")
        served = Served(table, port)
        expect(banner).to_be_hidden(timeout=20_000)
        assert not page.evaluate("document.getElementById('main').inert")
        page.click("#btn-next-deal")
        expect(page.locator("#next")).to_contain_text("Seat 1 (Ann)")
    finally:
        served.stop()


def test_sim_dealer_mistakes_bring_up_a_hold_screen(browser: Any, tmp_path: Path) -> None:
    """``pontoon-table sim --dealer-mistakes``: the bot table's dealer pulls cards past
    the locked gate; the table stops for it (a misdeal, or a card the camera cannot
    place: both were seen with this seed), and the dealer page shows that hold's
    focused screen, fitting the tablet."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", "--port", str(port), "--token", TOKEN,
         "--pace", "0.05", "--seed", "2", "--no-qr",
         "--dealer-mistakes", "draw_while_locked=0.3,force_gate=1"],
        cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        end = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"sim exited with {proc.returncode}"
            try:
                with urllib.request.urlopen(base + "/api/public", timeout=1):
                    break
            except OSError:
                assert time.monotonic() < end, "sim did not come up"
                time.sleep(0.2)  # the server's port is not open yet: nothing to wait on
        page = browser.new_page(viewport=SIZES["tablet"])
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/dealer#token={TOKEN}")
        # The hold screen is read in one go, in the page, while it is shown: the
        # bot table's dealer resolves a hold soon after (an unsure card is
        # confirmed), and a run once saw the screen gone between two checks.
        seen = page.wait_for_function(
            """() => {
              const box = document.querySelector(
                "#hold:is([data-hold='misdeal'], [data-hold='unsure_card'])");
              if (!box || box.hidden) return null;
              const need = box.querySelector('#card-need');
              const de = document.documentElement;
              return { kind: box.dataset.hold, text: box.textContent,
                       need: need ? need.textContent : null,
                       returnChoice: !!box.querySelector("[data-choice='return']"),
                       resume: !!document.getElementById('btn-resume'),
                       sh: de.scrollHeight, sw: de.scrollWidth, h: innerHeight, w: innerWidth };
            }""",
            timeout=90_000,
        ).json_value()
        shot(page, tmp_path, "tablet-sim-dealer-mistake")
        assert not errors, errors
        assert seen["sh"] <= seen["h"] and seen["sw"] <= seen["w"], seen
        if seen["kind"] == "misdeal":
            assert "left the shoe while none was due" in seen["text"], seen
            assert seen["returnChoice"], seen
        else:
            need = r"^Card for (Seat \d \(\w+\), hand \d|the bank \(\w+\)), face (up|down)$"
            assert re.match(need, seen["need"] or ""), seen
            assert not seen["resume"], seen
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
