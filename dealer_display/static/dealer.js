// The dealer's tablet: everything, including face-down cards, plus controls.
"use strict";
(() => {
  const { el, cardImg, fmt, signed, post } = Table;
  const $ = (id) => document.getElementById(id);
  let current = null;
  let pickedRank = null;

  function toast(text, bad) {
    const t = $("toast");
    t.textContent = text;
    t.className = "show" + (bad ? " bad" : "");
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.className = ""; }, bad ? 6000 : 2500);
  }

  async function command(path, body) {
    const r = await post(path, body);
    if (r.status === 401 || r.status === 403) {
      Table.tokenForm(r.status === 401 ? "missing" : "refused", connect);
    }
    toast(Table.message(r), !r.ok);
    return r;
  }

  function cardsOf(list) {
    return el("div", { class: "cards" },
      (list || []).map((c) => cardImg({ card: c.code, up: c.face_up })));
  }

  const STATUS_WORDS = { playing: "playing", stood: "stood", bust: "bust", pontoon: "pontoon",
                         five_card: "five-card trick", paid: "paid" };

  function hand(h, active) {
    const facts = [
      (h.cards || []).length ? el("span", {}, "Total ", el("b", {}, fmt(h.total))) : null,
      el("span", {}, "Stake ", el("b", {}, fmt(h.stake))),
      h.shoot ? el("span", {}, "Shoot ", el("b", {}, fmt(h.shoot))) : null,
      el("span", { class: "status-" + h.status }, STATUS_WORDS[h.status] || h.status),
    ];
    return el("div", { class: "hand" + (active ? " active" : ""), dataset: { hand: h.hand } },
      el("div", { class: "muted" }, "Hand " + h.hand),
      cardsOf(h.cards),
      el("div", { class: "facts" }, facts));
  }

  function seatBox(s, v) {
    const turn = v.turn && v.turn.seat === s.name;
    const net = v.settlement && v.settlement.net ? v.settlement.net[s.name] : undefined;
    return el("article", { class: "seat" + (turn ? " turn" : ""), dataset: { seat: s.name } },
      el("h3", {},
        el("span", {}, `Seat ${s.seat} · ${s.name} `, s.banker ? el("span", { class: "badge" }, "BANK") : null),
        el("span", { class: "muted" }, "Balance ", el("b", {}, fmt(s.balance)))),
      (s.hands || []).map((h) => hand(h, turn && v.turn.hand === h.hand)),
      net !== undefined ? el("div", { class: net >= 0 ? "net-pos" : "net-neg" }, "This deal " + signed(net)) : null,
      s.text ? el("div", { class: "muted" }, "Panel: " + s.text) : null);
  }

  function renderAlarms(v) {
    const box = $("alarms");
    box.replaceChildren();
    for (const a of v.alarms || []) {
      box.append(el("div", { class: "alarm", dataset: { alarm: a.kind } },
        el("h2", {}, "⚠ " + a.message),
        el("div", { class: "controls" }, (a.choices || []).map((c) =>
          el("button", { class: "primary", onclick: () => command("/api/misdeal", { choice: c.id }) }, c.label)))));
    }
  }

  // Two taps: a rank, then a suit, sends the card.  The rank is forgotten as
  // soon as a suit is tapped, and the picker redrawn at once, whatever the
  // table answers: a refused card must not leave a rank lit that is no longer
  // chosen (a second suit tap used to send "nullD").
  function cardPicker(prompt) {
    const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    const suits = [["C", "♣"], ["D", "♦"], ["H", "♥"], ["S", "♠"]];
    return [
      el("div", { class: "muted" }, prompt),
      el("div", { class: "picker", id: "rank-picker" }, ranks.map((r) =>
        el("button", { class: pickedRank === r ? "chosen" : "", dataset: { rank: r },
                       onclick: () => { pickedRank = r; render(current); } }, r === "T" ? "10" : r))),
      el("div", { class: "picker", id: "suit-picker" }, suits.map(([s, sym]) =>
        el("button", { disabled: !pickedRank, dataset: { suit: s }, "aria-label": s,
                       style: "color:" + ("DH".includes(s) ? "#c8102e" : "#1a1a1a"),
                       onclick: async () => {
                         if (!pickedRank) return;
                         const code = pickedRank + s;
                         pickedRank = null;
                         render(current);
                         await command("/api/confirm-card", { code });
                       } }, sym))),
    ];
  }

  // A hand-run table has no camera: the dealer enters each card as it is dealt.
  function renderEntry(v) {
    const box = $("entry");
    const due = v.manual && !v.hold && v.pending && v.pending.kind === "card";
    box.hidden = !due;
    if (due) box.replaceChildren(el("h2", {}, "Enter the card dealt"), ...cardPicker("Tap the rank, then the suit."));
  }

  function renderHold(v) {
    const box = $("hold");
    box.replaceChildren();
    const hold = v.hold;
    if (!hold) return;
    const parts = [el("h2", {}, (hold.reason === "dealer" ? "Paused: " : "Holding: ") + hold.message)];
    if (hold.reason === "unsure_card") {
      parts.push(...cardPicker("Which card is it? Tap the rank, then the suit."));
      if (hold.candidates && hold.candidates.length) {
        parts.push(el("div", { class: "controls" }, el("span", { class: "muted" }, "Camera's guesses:"),
          hold.candidates.map((c) => el("button", { class: "quiet",
            onclick: () => command("/api/confirm-card", { code: c }) }, c))));
      }
    }
    const choices = (hold.choices || []).filter(() => !(v.alarms || []).length);
    if (choices.length) {
      parts.push(el("div", { class: "controls" }, choices.map((c) =>
        el("button", { class: "primary", onclick: () => command("/api/misdeal", { choice: c.id }) }, c.label))));
    }
    box.append(el("div", { class: "hold", dataset: { hold: hold.reason } }, parts));
  }

  function renderControls(v) {
    const legal = v.decisions || [];
    const bankWords = new Set(legal.map((l) => l.decision).filter((w) => w === "draw" || w === "stay"));
    const between = (v.pending && v.pending.kind === "between_deals") || v.phase === "settlement";
    const buttons = [
      v.paused
        ? el("button", { class: "primary", id: "btn-resume", onclick: () => command("/api/resume") }, "Resume")
        : el("button", { class: "quiet", id: "btn-pause", onclick: () => command("/api/pause") }, "Pause"),
      bankWords.has("draw") ? el("button", { class: "primary", id: "btn-draw", onclick: () => command("/api/bank/draw") }, "Bank draws") : null,
      bankWords.has("stay") ? el("button", { class: "primary", id: "btn-stay", onclick: () => command("/api/bank/stay") }, "Bank stays") : null,
      between ? el("button", { class: "primary", id: "btn-next-deal", onclick: () => command("/api/next-deal") }, "Next deal") : null,
      el("button", { class: "quiet", id: "btn-void", onclick: () => {
        if (confirm("Void this deal? Every stake and payment of it is undone.")) command("/api/void-deal");
      } }, "Void deal"),
      el("button", { class: "quiet", id: "btn-new-game", onclick: () => {
        if (confirm("Start a new game?")) command("/api/new-game");
      } }, "New game"),
    ];
    $("controls").replaceChildren(...buttons.filter(Boolean));
  }

  // Decisions the engine allows now, per seat (several seats at once for stakes);
  // the dealer may enter them on a player's behalf.
  function renderDecisions(v) {
    const entries = (v.decisions || []).filter((l) => l.decision !== "draw" && l.decision !== "stay");
    const box = $("decisions-box");
    if (!entries.length) { box.hidden = true; return; }
    box.hidden = false;
    const bySeat = new Map();
    for (const l of entries) {
      const who = l.seat || (v.turn && v.turn.seat) || "";
      if (!bySeat.has(who)) bySeat.set(who, []);
      bySeat.get(who).push(l);
    }
    $("decisions-title").textContent = "Decisions (on a player's behalf)";
    const rows = [];
    for (const [who, list] of bySeat) {
      const hand = v.turn && v.turn.seat === who && v.turn.hand ? `, hand ${v.turn.hand}` : "";
      rows.push(el("div", { class: "decisions", dataset: { seat: who } },
        el("b", { style: "min-width:7em" }, who + hand),
        list.map((l) => decisionButton(who, l))));
    }
    $("decisions").replaceChildren(...rows);
  }

  function decisionButton(who, l) {
    const label = l.decision.replace("_", " ");
    if (l.min !== undefined && l.min !== l.max) {
      const input = el("input", { type: "number", min: l.min, max: l.max === null ? undefined : l.max,
                                  value: l.min, step: 1, style: "width:5em", "aria-label": `${who} ${label} amount` });
      return el("span", { class: "controls" },
        el("button", { dataset: { decision: l.decision },
                       onclick: () => command("/api/decide", { seat: who, decision: l.decision, amount: Number(input.value) }) },
          `${label} (${fmt(l.min)}–${l.max === null ? "…" : fmt(l.max)})`), input);
    }
    // A fixed amount (plain buy, insurance) is the engine's to fill in.
    return el("button", { dataset: { decision: l.decision },
                          onclick: () => command("/api/decide", { seat: who, decision: l.decision, amount: null }) },
      label + (l.min !== undefined ? " " + fmt(l.min) : ""));
  }

  function render(v) {
    current = v;
    $("title").textContent = (v.table || "Table") + " · dealer";
    const d = v.deal || {};
    $("progress").replaceChildren("Deal ", el("b", {}, d.number || "–"),
      d.of ? ` (${d.counted || 0} of ${d.of} counted)` : "", " · ", (v.rules || ""));
    $("banker").replaceChildren("Bank: ", el("b", {}, d.banker || "–"));
    const p = v.pack || {};
    const shuffleDue = v.settlement && v.settlement.shuffle;
    $("pack").replaceChildren("Pack: ", el("b", {}, p.left !== undefined ? `${p.left} left` : "–"),
      shuffleDue ? el("span", { class: "badge" }, "shuffle due") : "");
    $("phase").textContent = (v.phase || "").replaceAll("_", " ");
    renderAlarms(v);
    renderHold(v);
    renderEntry(v);
    $("next").textContent = v.game_over
      ? "Game over. " + ((v.winners || []).length ? "Winner: " + v.winners.join(", ") : "")
      : (v.next || "—");
    renderControls(v);
    renderDecisions(v);
    const b = v.bank || {};
    $("bank").replaceChildren(
      el("h2", {}, `Bank · ${b.name || ""}`, b.kitty !== null && b.kitty !== undefined ? ` · kitty ${fmt(b.kitty)}` : ""),
      cardsOf(b.cards),
      el("div", { class: "muted" }, b.cards && b.cards.length ? "Total " + fmt(b.total) : ""));
    $("seats").replaceChildren(...(v.seats || []).filter((s) => !s.banker || (s.hands || []).length).map((s) => seatBox(s, v)));
    const pays = v.payouts || [];
    $("payouts-box").hidden = !pays.length;
    $("payouts").replaceChildren(...pays.map((p) => el("li", { class: "payout " + p.kind }, p.text)));
    $("transfers").replaceChildren(...(v.transfers || []).map((t) => el("li", { class: "badge" }, t)));
    $("standings").replaceChildren(...(v.standings || []).map((s) =>
      el("li", {}, `${s.name} `, el("b", {}, fmt(s.balance)))));
    const links = v.links || {};
    $("links-box").hidden = !Object.keys(links).length;
    $("links").replaceChildren(...Object.entries(links).map(([name, l]) =>
      el("li", { class: l.up ? "" : "status-bust" }, `${name}: ${l.up ? "up" : "DOWN"}` + (l.reboots ? ` (${l.reboots} reboots)` : ""))));
  }

  // The token comes from the address (/dealer#token=...), from this tab's
  // storage, or from the in-page form; a refused one brings the form back
  // with the reason, and nothing is retried until the dealer enters another.
  let link = null;
  function connect() {
    if (link) { link.reconnect(); return; }
    link = Table.live("/ws/dealer", render, {
      hello: () => ({ token: Table.storedToken() || "" }),
      onAuthFail: () => Table.tokenForm("refused", connect),
    });
  }
  if (Table.token()) connect();
  else Table.tokenForm("missing", connect);
})();
