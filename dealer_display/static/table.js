// The TV at the table (/table): the whole table on one screen, read from 3 m.
// Only what is face up at a real table: the server already removed every
// face-down card from the public feed; this page could not show one.
// Nothing here decides the game: turns, totals, statuses and nets come from
// the public view; the page only chooses words and sizes.
"use strict";
(() => {
  const { el, cardImg, fmt, signed } = Table;
  const $ = (id) => document.getElementById(id);
  const STATUS_WORDS = { bust: "Bust", pontoon: "Pontoon!", five_card: "Five-card trick!", stood: "Stands" };
  const KEEP = 6;  // deals in the strip of results
  const history = new Map();  // deal number -> {void, net}, what this screen has seen announced

  function cardsOf(list) {
    return el("div", { class: "cards" }, (list || []).map((c) => cardImg({ card: c.code, up: c.face_up })));
  }

  function bankWord(v) {
    const b = v.bank || {};
    if (b.name === "house") return "The dealer";
    const who = b.name || (v.deal || {}).banker;
    return who ? `The bank (${who})` : "The bank";
  }

  function seatOf(v, name) {
    return (v.seats || []).find((s) => s.name === name) || {};
  }

  // The line that says whose turn it is; between deals it says what comes next.
  function turnLine(v) {
    const d = v.deal || {};
    if (v.game_over) {
      return "Game over" + ((v.winners || []).length ? " — well played, " + v.winners.join(" & ") + "!" : "");
    }
    if (v.turn && v.turn.seat) {
      const stakes = v.phase === "stakes" || v.phase === "shoot_bets";
      if (stakes) return `Place your stakes — ${v.turn.seat} next`;
      if (v.turn.seat === d.banker) return `${v.turn.seat}'s turn — the bank plays`;
      return `${v.turn.seat}'s turn` + (v.turn.hand > 1 ? ` (hand ${v.turn.hand})` : "");
    }
    const next = d.of && d.counted >= d.of ? "the last deals are done" : `next: deal ${(d.number || 0) + 1}`;
    switch (v.phase) {
      case "setup": return "Waiting for the first deal";
      case "cut": return "Cutting for the bank: the highest card banks";
      case "kitty": return `${bankWord(v)} puts up the kitty`;
      case "first_card": return `Deal ${d.number || ""}: the first cards`.replace("  ", " ");
      case "stakes": case "shoot_bets": return "Place your stakes";
      case "second_card": return "Dealing the second cards";
      case "player_turn": return "Dealing a card";
      case "bank_pontoon_check": return `${bankWord(v)} looks for pontoon`;
      case "insurance": return "Insurance: the dealer shows an ace";
      case "banker_turn": case "dealer_turn": return `${bankWord(v)} plays`;
      case "void_deal": return `Deal ${d.number || ""} is void; ${next}`;
      case "settlement": case "between_deals":
        if (!d.number) return "Waiting for the first deal";
        return `Deal ${d.number} settled — ${next}`;
      default: return "Waiting for the dealer";
    }
  }

  function remember(v) {
    const last = v.last_deal;
    if (last && last.number) history.set(last.number, { void: last.void, net: last.net || {} });
    const d = v.deal || {};
    if (v.results && d.number && !history.has(d.number)) history.set(d.number, { void: false, net: v.results.net || {} });
    while (history.size > 40) history.delete(Math.min(...history.keys()));
  }

  function renderStrip(v) {
    const numbers = [...history.keys()].sort((a, b) => b - a).slice(0, KEEP);
    $("strip").replaceChildren(...numbers.map((n) => {
      const h = history.get(n);
      const parts = h.void ? [el("span", { class: "muted" }, "void")]
        : Object.entries(h.net).map(([name, amount]) =>
          el("span", { class: "chip " + (amount > 0 ? "net-pos" : amount < 0 ? "net-neg" : "") },
            `${name === "house" ? "Dealer" : name} ${signed(amount)}`));
      return el("li", { dataset: { deal: n } }, el("b", {}, `Deal ${n}`), parts);
    }));
    if (!numbers.length) $("strip").replaceChildren(el("li", { class: "muted" }, "No deal settled yet"));
  }

  function renderSign(v) {
    const s = v.sign;
    if (!s) { $("sign-body").replaceChildren(el("p", {}, `Rules: ${v.rules || ""}`)); return; }
    $("sign-body").replaceChildren(
      el("p", { class: "limits" }, "Stakes ", el("b", {}, `${fmt(s.min_stake)} to ${fmt(s.max_stake)}`)),
      el("ul", { class: "plain pays" }, (s.pays || []).map((p) => el("li", {}, p))),
      el("p", { class: "muted" }, s.ties, ` · ${v.rules} rules`));
  }

  function render(v) {
    remember(v);
    $("title").textContent = v.table || "Pontoon";
    const d = v.deal || {};
    $("progress").replaceChildren("Deal ", el("b", {}, d.number || "–"), d.of ? ` of ${d.of}` : "");
    $("banker").replaceChildren(d.banker === "house" ? "Dealer" : "Bank: ", el("b", {}, d.banker === "house" ? "" : d.banker || "–"));
    $("notice").replaceChildren(...(v.notice ? [el("div", { class: "notice" }, v.notice)] : []));
    const line = turnLine(v);
    $("turn").textContent = line || "Waiting for the dealer";
    const settled = !!v.results;
    document.body.dataset.phase = v.phase || "";
    document.body.classList.toggle("stakes", v.phase === "stakes" || v.phase === "shoot_bets");

    const net = (v.results && v.results.net) || {};
    const b = v.bank || {};
    const bankName = b.name === "house" ? "Dealer" : `Bank · ${b.name || d.banker || ""}`;
    const bankNet = net[b.name];
    const bankTurn = v.phase === "banker_turn" || v.phase === "dealer_turn"
      || !!(v.turn && v.turn.seat && v.turn.seat === d.banker);
    $("bank").className = "box bank" + (bankTurn ? " turn" : "") + (settled && bankNet !== undefined ? (bankNet > 0 ? " win" : bankNet < 0 ? " lose" : "") : "");
    $("bank").replaceChildren(
      el("div", { class: "bank-head" },
        el("h2", {}, bankName),
        b.total !== undefined && b.total !== null ? el("span", { class: "total" }, "Total ", el("b", {}, fmt(b.total))) : null,
        b.kitty !== undefined ? el("span", { class: "kitty" }, "Kitty ", el("b", {}, fmt(b.kitty))) : null,
        bankNet !== undefined ? el("span", { class: bankNet >= 0 ? "net net-pos" : "net net-neg" }, signed(bankNet)) : null),
      cardsOf(b.cards));

    const players = (v.seats || []).filter((s) => !s.banker);
    const seats = $("seats");
    const cols = players.length <= 4 ? Math.max(players.length, 1) : Math.ceil(players.length / 2);
    seats.style.setProperty("--cols", String(cols));
    seats.replaceChildren(...players.map((s) => {
      const isTurn = v.turn && v.turn.seat === s.name;
      const n = net[s.name];
      const outcome = settled && n !== undefined ? (n > 0 ? " win" : n < 0 ? " lose" : " push") : "";
      return el("article", { class: "seat" + (isTurn ? " turn" : "") + outcome, dataset: { seat: s.name },
                             "aria-label": `Seat ${s.seat ?? ""}, ${s.name}` },
        el("h3", {},
          el("span", { class: "who" }, s.seat !== null && s.seat !== undefined ? el("span", { class: "num" }, String(s.seat)) : null, s.name),
          n !== undefined ? el("span", { class: n >= 0 ? "net-pos" : "net-neg" }, signed(n)) : ""),
        (s.hands || []).map((h) => el("div", { class: "hand" + (isTurn && v.turn.hand === h.hand ? " active" : "") },
          cardsOf(h.cards),
          el("div", { class: "facts" },
            h.stake ? el("span", {}, "Stake ", el("b", {}, fmt(h.stake))) : el("span", {}, "No stake yet"),
            h.shoot ? el("span", {}, "Shoot ", el("b", {}, fmt(h.shoot))) : null,
            h.total !== undefined ? el("span", {}, "Total ", el("b", {}, fmt(h.total))) : null,
            STATUS_WORDS[h.status] ? el("span", { class: "status-" + h.status }, STATUS_WORDS[h.status]) : null))));
    }));
    const banker = d.banker;
    $("standings").replaceChildren(...(v.standings || []).map((s) =>
      el("li", {}, `${s.name} `, el("b", {}, fmt(s.balance)), s.balance === 1 ? " unit" : " units", s.name === banker ? el("span", { class: "muted" }, " · bank") : null)));
    $("results").replaceChildren(...((v.results && v.results.transfers) || []).map((t) => el("p", { class: "badge" }, t)));
    renderSign(v);
    renderStrip(v);
    fit();
  }

  // -- fitting: the table shrinks until every seat and card is in view -------------------
  const root = document.documentElement;
  // A phone scrolls instead: its text must stay readable (style.css, max-width 600px).
  const phone = matchMedia("(max-width: 600px)");
  const PHONE_LEAST = 33;  // scale 1.65: the smallest text is 12.3 px
  function over() {
    if (root.scrollWidth > innerWidth) return true;
    if (!phone.matches) {
      if (root.scrollHeight > innerHeight) return true;
      const board = $("board");
      if (board.scrollHeight > board.clientHeight + 1) return true;
    }
    for (const c of document.querySelectorAll("body.table .cards")) {
      if (c.scrollWidth > c.clientWidth + 1) return true;
    }
    return false;
  }
  function fit() {
    // the largest scale (in steps of 0.05, from 0.3 to 2.2) at which nothing overflows;
    // a binary search keeps it to a few layouts per update
    const set = (k) => root.style.setProperty("--s", String(k / 20));
    let lo = phone.matches ? PHONE_LEAST : 6, hi = 44;
    set(hi);
    if (over()) {
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        set(mid);
        if (over()) hi = mid; else lo = mid;
      }
      set(lo);
      hi = lo;
    }
    document.body.dataset.scale = String(hi / 20);
  }
  addEventListener("resize", fit);
  // a card's image may change the layout once loaded; fit again then
  document.addEventListener("load", (ev) => { if (ev.target.tagName === "IMG") fit(); }, true);

  Table.live("/ws/public", render);
})();
