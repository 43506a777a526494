// The dealer's tablet: everything, including face-down cards, plus controls.
//
// The page is patched in place, never rebuilt: each part remembers the data it
// was drawn from (its "signature") and is redrawn only when that changes, and
// seats, decision rows and buttons are keyed, so a button the dealer has
// focused (or is about to tap) survives every update that does not change it.
"use strict";
(() => {
  const { el, fmt, signed, post } = Table;
  const $ = (id) => document.getElementById(id);
  let current = null;
  let lastHoldKey = null;

  // -- words -------------------------------------------------------------------
  const RANK_WORDS = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
  const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const STATUS_WORDS = { playing: "playing", stood: "stood", bust: "bust", pontoon: "pontoon",
                         five_card: "five-card trick", paid: "paid" };

  /** "7 of hearts" for "7H" (a card the dealer names, reads or hears). */
  function cardWords(code) {
    if (!code || code.length < 2) return "a card";
    const rank = code.slice(0, -1).replace("10", "T").toUpperCase();
    const suit = code.slice(-1).toUpperCase();
    return `${RANK_WORDS[rank] || rank} of ${SUIT_WORDS[suit] || suit}`;
  }

  function seatLabel(v, name) {
    const s = (v.seats || []).find((x) => x.name === name);
    return s && s.seat !== null && s.seat !== undefined ? `Seat ${s.seat} (${name})` : name;
  }

  /** The card the table waits for, from the engine's pending need:
      "Card for Seat 2 (Ben), hand 1, face down". */
  function cardNeedWords(v) {
    const p = v.pending || {};
    if (p.kind !== "card") return "";
    const face = p.face_up ? "face up" : "face down";
    if (p.purpose === "cut") return `Cut card for ${seatLabel(v, p.to || p.recipient)}, face up`;
    if (p.to_bank) return `Card for the bank (${p.recipient || p.to}), ${face}`;
    return `Card for ${seatLabel(v, p.to || p.recipient)}, hand ${p.hand || 1}, ${face}`;
  }

  function clock(t) {
    return t.toLocaleTimeString("en-GB", { hour12: false });
  }

  // -- messages ------------------------------------------------------------------
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
      Table.askForAccess(r.status === 401 ? "missing" : "refused", connect);
    }
    toast(Table.message(r), !r.ok);
    return r;
  }

  // -- patching helpers ------------------------------------------------------------
  /** Redraw ``node``'s children only when ``sig`` differs from the last drawing's. */
  function patch(node, sig, build) {
    const text = typeof sig === "string" ? sig : JSON.stringify(sig);
    if (node._sig === text) return false;
    // the signature is kept only once the build succeeded: a build that threw
    // must not leave the node empty and "up to date" for every later render
    node.replaceChildren(...[build()].flat().filter((c) => c !== null && c !== undefined && c !== false));
    node._sig = text;
    return true;
  }

  /** Keep ``container``'s children in the order of ``items``, one per key: a
      child whose signature is unchanged is left alone (and keeps focus). */
  function keyed(container, items, keyOf, sigOf, build) {
    const old = new Map();
    const wanted = new Set(items.map((item) => String(keyOf(item))));
    // Children no longer wanted go first: moving a node (even to where it
    // already is, after a removal) would take its focus away.
    for (const child of Array.from(container.children)) {
      if (wanted.has(child.dataset.key)) old.set(child.dataset.key, child);
      else child.remove();
    }
    let at = container.firstElementChild;
    for (const item of items) {
      const key = String(keyOf(item));
      const sig = JSON.stringify(sigOf(item));
      let node = old.get(key);
      if (!node || node._sig !== sig) {
        const fresh = build(item);
        fresh.dataset.key = key;
        fresh._sig = sig;
        if (node) {
          if (node === at) at = fresh;
          node.replaceWith(fresh);
        }
        node = fresh;
      }
      if (node !== at) container.insertBefore(node, at);
      at = node.nextElementSibling;
    }
  }

  // -- cards -----------------------------------------------------------------------
  function card(c) {
    const code = c.code || null;
    const up = !!c.face_up;
    const words = code ? cardWords(code) + (up ? ", face up" : ", face down") : "a face-down card";
    return el("img", { class: "card " + (up ? "up" : "down") + (code && !up ? " peek" : ""),
                       src: code ? `/cards/${code}.svg` : "/cards/back.svg", alt: words, title: words,
                       dataset: { card: code || "back" } });
  }

  function cardsOf(list) {
    return el("div", { class: "cards" }, (list || []).map(card));
  }

  function total(h) {
    if (!(h.cards || []).length) return null;
    return el("span", { class: "total" }, h.soft ? "soft " : "", el("b", {}, fmt(h.total)));
  }

  // -- the card picker (an unsure card, or each card on a hand-run table) -------------
  // Two taps: a rank, then a suit, sends the card.  The rank is forgotten as
  // soon as a suit is tapped, whatever the table answers: a refused card must
  // not leave a rank lit that is no longer chosen (it used to send "nullD").
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const pickers = [];

  function makePicker() {
    const picker = { rank: null, node: null };
    const rankButtons = RANKS.map((r) => el("button", {
      type: "button", dataset: { rank: r }, "aria-label": RANK_WORDS[r] || r, "aria-pressed": "false",
      onclick: () => choose(picker, r),
    }, r === "T" ? "10" : r));
    const suitButtons = Object.keys(SUIT_WORDS).map((s) => el("button", {
      type: "button", class: "suit suit-" + s, dataset: { suit: s }, "aria-label": SUIT_WORDS[s],
      disabled: true, onclick: () => send(picker, s),
    }, SUIT_SYMBOLS[s]));
    picker.node = el("div", { class: "picker-wrap" },
      el("div", { class: "picker ranks", role: "group", "aria-label": "Rank" }, rankButtons),
      el("div", { class: "picker suits", role: "group", "aria-label": "Suit" }, suitButtons));
    picker.sync = () => {
      for (const b of rankButtons) {
        const on = b.dataset.rank === picker.rank;
        b.classList.toggle("chosen", on);
        b.setAttribute("aria-pressed", String(on));
      }
      for (const b of suitButtons) b.disabled = !picker.rank;
    };
    pickers.push(picker);
    return picker;
  }

  function choose(picker, rank) {
    picker.rank = rank;
    picker.sync();
  }

  async function send(picker, suit) {
    if (!picker.rank) return;
    const code = picker.rank + suit;
    picker.rank = null;
    picker.sync();
    await command("/api/confirm-card", { code });
  }

  const entryPicker = makePicker();
  const holdPicker = makePicker();

  function visiblePicker() {
    if (!$("hold").hidden && holdPicker.node.isConnected) return holdPicker;
    if (!$("entry").hidden) return entryPicker;
    return null;
  }

  // -- the header ---------------------------------------------------------------------
  function renderHeader(v) {
    $("title").textContent = (v.table || "Table") + " · dealer";
    const d = v.deal || {};
    patch($("progress"), [d.number, d.counted, d.of, v.rules], () => {
      const counted = d.of
        ? `${d.counted || 0} of the game's ${d.of} counted deals played`
        : `${d.counted || 0} counted deals played, no limit`;
      return [d.number ? "Deal " : "", el("b", {}, d.number || "No deal yet"), " ",
              el("span", { class: "explain", title: "A void deal is not counted." }, "(" + counted + ")"),
              " · ", v.rules || ""];
    });
    patch($("banker"), [d.banker], () => ["Bank: ", el("b", {}, d.banker || "–")]);
    const p = v.pack || {};
    const shuffleDue = !!(v.settlement && v.settlement.shuffle);
    patch($("pack"), [p.left, shuffleDue], () => ["Pack: ", el("b", {}, p.left !== undefined ? `${p.left} left` : "–"),
      shuffleDue ? el("span", { class: "badge" }, "shuffle due") : null]);
  }

  // -- holds: one focused screen per reason ------------------------------------------
  const LINK_WORDS = {
    shoe: "the shoe", panels: "the seat panels",
  };

  /** What the hold screen says: a title, what happened, what to do, and the choices. */
  function holdInfo(v) {
    const alarm = (v.alarms || [])[0];
    const hold = v.hold;
    if (alarm) {
      const base = { key: "alarm:" + alarm.id, kind: alarm.kind, what: alarm.message,
                     choices: alarm.choices || [], path: "/api/misdeal", card: alarm.card };
      if (alarm.kind === "misdeal") {
        return Object.assign(base, { title: "Misdeal",
          todo: "Put that card back on top of the shoe and go on, or void the deal " +
                "(every stake of it is handed back)." });
      }
      if (alarm.kind === "jam") {
        return Object.assign(base, { title: "Jam at the shoe",
          todo: "Free the card stuck in the shoe's gate, then tell the table it is free." });
      }
      if (alarm.kind === "reboot") {
        return Object.assign(base, { title: "The shoe restarted",
          todo: "Compare the cards on the table with the seats on this screen. If they match, " +
                "say so; if not, void the deal." });
      }
      if (alarm.kind === "lost") {
        return Object.assign(base, { title: "Card events lost",
          todo: "Compare the cards on the table with the seats on this screen. If they match, " +
                "say so; if not, void the deal." });
      }
      if (alarm.kind === "pack") {
        return Object.assign(base, { title: "A pack was loaded mid-deal",
          todo: "Put the pack back as it was and go on, or void the deal." });
      }
      return Object.assign(base, { title: "The table needs you", todo: "Choose what to do." });
    }
    if (!hold) return null;
    if (hold.reason === "dealer") {
      return { key: "hold:dealer", kind: "dealer", title: "Paused", what: "You paused the table.",
               todo: "Nothing is dealt while the table is paused: the shoe's gate stays locked. " +
                     "Resume when ready.", choices: [], resume: true };
    }
    if (hold.reason === "unsure_card") {
      return { key: "hold:unsure:" + hold.message, kind: "unsure_card", title: "Name the card",
               what: hold.message.replace(/: confirm the card on the display$/, "."),
               todo: (hold.guesses || []).length
                 ? "Look at the card that came out: tap the camera's guess if it is right, " +
                   "or its rank, then its suit."
                 : "Look at the card that came out and tap it: its rank, then its suit.",
               // the snapshot's guesses are {card, p}: the buttons need the codes
               need: cardNeedWords(v), guesses: (hold.guesses || []).map((g) => g.card),
               choices: [], path: "/api/misdeal" };
    }
    if (hold.reason === "link_down") {
      const down = Object.entries(v.links || {}).filter(([, l]) => !l.up);
      const names = down.map(([n]) => LINK_WORDS[n] || n);
      const why = down.filter(([, l]) => l.reason).map(([n, l]) =>
        down.length > 1 ? `${LINK_WORDS[n] || n}: ${l.reason}` : l.reason);
      return { key: "hold:link:" + hold.message, kind: "link_down",
               title: names.length ? `Lost the link to ${names.join(" and ")}` : "Lost a device's link",
               what: why.length ? `The table cannot hear ${names.join(" or ")} (${why.join("; ")}).`
                                : hold.message,
               todo: "The table reconnects by itself and the game waits meanwhile. Check the " +
                     "device's cable and power. If the shoe restarts, the table asks you to check the cards.",
               choices: hold.choices || [], path: "/api/misdeal" };
    }
    return { key: "hold:" + hold.reason + ":" + hold.message, kind: hold.reason,
             title: "The table is held", what: hold.message, todo: "Deal with it, then the table goes on.",
             choices: hold.choices || [], path: "/api/misdeal" };
  }

  function renderHold(v) {
    const info = holdInfo(v);
    const box = $("hold");
    box.hidden = !info;
    $("normal").hidden = !!info;
    document.body.dataset.hold = info ? info.kind : "";
    if (!info) { box._sig = null; holdPicker.rank = null; lastHoldKey = null; return; }
    box.dataset.hold = info.kind;
    const fresh = patch(box, [info.key, info.need, info.guesses, info.choices, info.what], () => {
      const parts = [
        el("h2", { id: "hold-title" }, "⚠ " + info.title),
        el("p", { class: "what" }, info.what),
        info.card ? el("p", { class: "what" }, "The card: ", el("b", {}, cardWords(info.card))) : null,
        el("p", { class: "todo" }, info.todo),
      ];
      if (info.kind === "unsure_card") {
        parts.push(el("p", { class: "need", id: "card-need" }, info.need || "The card that came out"));
        if (info.guesses.length) {
          parts.push(el("div", { class: "controls guesses", role: "group", "aria-label": "The camera's guesses" },
            el("span", { class: "muted" }, "The camera's guesses:"),
            info.guesses.map((c) => el("button", { type: "button", class: "primary", dataset: { guess: c },
              onclick: () => command("/api/confirm-card", { code: c }) }, cardWords(c)))));
        }
        parts.push(holdPicker.node);
      }
      if (info.resume) {
        parts.push(el("div", { class: "controls" }, el("button", {
          type: "button", class: "primary", id: "btn-resume", "aria-keyshortcuts": "P",
          onclick: () => command("/api/resume") }, "Resume ", el("kbd", {}, "P"))));
      }
      if (info.choices.length) {
        parts.push(el("div", { class: "controls stack", id: "hold-choices" }, info.choices.map((c, i) =>
          el("button", { type: "button", class: "primary", dataset: { choice: c.id },
                         "aria-keyshortcuts": String(i + 1),
                         onclick: () => command(info.path, { choice: c.id }) },
            el("kbd", {}, String(i + 1)), " ", c.label))));
      }
      return parts;
    });
    if (fresh) holdPicker.sync();
    if (info.key !== lastHoldKey) {
      lastHoldKey = info.key;
      $("announce").textContent = info.title + ". " + info.what;
      if (info.kind !== "dealer") beep();
    }
  }

  // -- the common controls (Pause, the bank's two words, Next deal) -------------------
  function renderControls(v) {
    const legal = v.decisions || [];
    const bankWords = new Set(legal.map((l) => l.decision).filter((w) => w === "draw" || w === "stay"));
    const between = (v.pending && v.pending.kind === "between_deals") || v.phase === "settlement"
      || v.phase === "void_deal";
    const buttons = [
      { id: "btn-pause", cls: "quiet", label: "Pause", key: "P", path: "/api/pause" },
      bankWords.has("draw") ? { id: "btn-draw", cls: "primary", label: "Bank draws", key: "D", path: "/api/bank/draw" } : null,
      bankWords.has("stay") ? { id: "btn-stay", cls: "primary", label: "Bank stays", key: "S", path: "/api/bank/stay" } : null,
      between && !v.game_over ? { id: "btn-next-deal", cls: "primary", label: "Next deal", key: "N", path: "/api/next-deal" } : null,
    ].filter(Boolean);
    keyed($("controls"), buttons, (b) => b.id, (b) => b, (b) =>
      el("button", { type: "button", class: b.cls, id: b.id, "aria-keyshortcuts": b.key,
                     onclick: () => command(b.path) }, b.label, " ", el("kbd", {}, b.key)));
  }

  const DECISION_KEYS = { stick: "K", twist: "T", buy: "B", split: "V", double: "U" };

  // Decisions the engine allows now, per seat (several seats at once for stakes);
  // the dealer may enter them on a player's behalf.
  function renderDecisions(v) {
    const entries = (v.decisions || []).filter((l) => l.decision !== "draw" && l.decision !== "stay");
    const box = $("decisions-box");
    box.hidden = !entries.length;
    const bySeat = new Map();
    for (const l of entries) {
      const who = l.seat || (v.turn && v.turn.seat) || "";
      if (!bySeat.has(who)) bySeat.set(who, []);
      bySeat.get(who).push(l);
    }
    const rows = Array.from(bySeat, ([who, list]) => ({
      who, list, hand: v.turn && v.turn.seat === who && v.turn.hand ? v.turn.hand : null,
      turn: !!(v.turn && v.turn.seat === who),
    }));
    $("decisions-title").textContent = rows.some((r) => r.turn)
      ? "Decision (on the player's behalf)" : "Decisions (on the players' behalf)";
    keyed($("decisions"), rows, (r) => r.who, (r) => r, (r) =>
      el("div", { class: "decisions" + (r.turn ? " turn" : ""), dataset: { seat: r.who } },
        el("b", { class: "who" }, r.who + (r.hand ? `, hand ${r.hand}` : "")),
        r.list.map((l) => decisionButton(r.who, l, r.turn))));
  }

  function decisionButton(who, l, turn) {
    const label = l.decision.replace("_", " ");
    const key = turn ? DECISION_KEYS[l.decision] : null;
    const hint = key ? [" ", el("kbd", {}, key)] : [];
    if (l.min !== undefined && l.min !== l.max) {
      const input = el("input", { type: "number", min: l.min, max: l.max === null ? undefined : l.max,
                                  value: l.min, step: 1, class: "amount", "aria-label": `${who}: ${label} amount` });
      return el("span", { class: "controls amount-pair" },
        el("button", { type: "button", dataset: { decision: l.decision }, "aria-keyshortcuts": key,
                       onclick: () => command("/api/decide", { seat: who, decision: l.decision, amount: Number(input.value) }) },
          `${label} (${fmt(l.min)}–${l.max === null ? "…" : fmt(l.max)})`, hint), input);
    }
    // A fixed amount (plain buy, insurance) is the engine's to fill in.
    return el("button", { type: "button", dataset: { decision: l.decision }, "aria-keyshortcuts": key,
                          onclick: () => command("/api/decide", { seat: who, decision: l.decision, amount: null }) },
      label + (l.min !== undefined ? " " + fmt(l.min) : ""), hint);
  }

  // A hand-run table has no camera: the dealer enters each card as it is dealt.
  function renderEntry(v) {
    const box = $("entry");
    const due = !!(v.manual && !v.hold && v.pending && v.pending.kind === "card");
    box.hidden = !due;
    if (!due) { entryPicker.rank = null; entryPicker.sync(); box._sig = null; return; }
    if (patch(box, cardNeedWords(v), () => [
      el("h2", {}, "Enter the card dealt"),
      el("p", { class: "need" }, cardNeedWords(v)),
      entryPicker.node,
    ])) entryPicker.sync();
  }

  // -- the table: bank and seats ------------------------------------------------------
  function renderBank(v) {
    const b = v.bank;
    const due = !!(v.pending && v.pending.kind === "card" && v.pending.to_bank);
    $("bank").classList.toggle("due", due);
    patch($("bank"), [b], () => {
      if (!b) return [];
      return [
        el("h2", {}, b.name === "house" ? "Bank (the house)" : `Bank · ${b.name}`,
          b.kitty !== null && b.kitty !== undefined ? ` · kitty ${fmt(b.kitty)}` : ""),
        cardsOf(b.cards),
        b.cards && b.cards.length && b.total !== null && b.total !== undefined
          ? el("span", { class: "total" }, "Total ", el("b", {}, fmt(b.total))) : null,
        el("span", { class: "legend" }, el("i", {}), "face down"),
      ];
    });
  }

  /** The seat the next card goes to (the dealer's eyes go there while dealing). */
  function dueSeat(v) {
    const p = v.pending || {};
    return p.kind === "card" && !p.to_bank ? (p.to || p.recipient) : null;
  }

  function seatBox(s, v, turn, net, due) {
    return el("article", { class: "seat" + (turn ? " turn" : "") + (due ? " due" : ""), dataset: { seat: s.name },
                           "aria-current": turn ? "true" : null },
      el("h3", {},
        el("span", {}, s.seat !== null && s.seat !== undefined ? `${s.seat} · ` : "", s.name,
          s.banker ? el("span", { class: "badge" }, "BANK") : null),
        el("span", { class: "bal", title: "Balance" }, el("span", { class: "sr-only" }, "balance "),
          fmt(s.balance))),
      (s.hands || []).map((h) => el("div", {
        class: "hand" + (turn && v.turn.hand === h.hand ? " active" : ""), dataset: { hand: h.hand } },
        cardsOf(h.cards),
        el("div", { class: "facts" },
          total(h),
          el("span", {}, "Stake ", el("b", {}, fmt(h.stake))),
          h.shoot ? el("span", {}, "Shoot ", el("b", {}, fmt(h.shoot))) : null,
          h.status !== "playing" ? el("span", { class: "status-" + h.status }, STATUS_WORDS[h.status] || h.status) : null,
          (s.hands || []).length > 1 ? el("span", { class: "muted" }, "hand " + h.hand) : null))),
      net !== undefined ? el("div", { class: net >= 0 ? "net-pos" : "net-neg" }, "This deal " + signed(net)) : null);
  }

  function renderSeats(v) {
    const seats = (v.seats || []).filter((s) => !s.banker || (s.hands || []).length);
    const net = (v.settlement && v.settlement.net) || {};
    const box = $("seats");
    box.dataset.count = String(seats.length);
    const due = dueSeat(v);
    keyed(box, seats, (s) => s.name,
      (s) => [s, v.turn && v.turn.seat === s.name ? v.turn.hand : 0, net[s.name], due === s.name],
      (s) => seatBox(s, v, !!(v.turn && v.turn.seat === s.name), net[s.name], due === s.name));
  }

  function renderSide(v) {
    const pays = v.payouts || [];
    $("payouts-box").hidden = !pays.length;
    patch($("payouts"), pays, () => pays.map((p) => el("li", { class: "payout " + p.kind }, p.text)));
    patch($("transfers"), v.transfers || [], () => (v.transfers || []).map((t) => el("li", { class: "badge" }, t)));
    patch($("standings"), v.standings || [], () => (v.standings || []).map((s) =>
      el("li", {}, `${s.name} `, el("b", {}, fmt(s.balance)))));
    const names = (v.seats || []).filter((s) => !s.banker).map((s) => s.name);
    patch($("sell-to"), names, () => names.map((n) => el("option", { value: n }, n)));
  }

  // -- devices: each link as the bridge counts it -------------------------------------
  const COUNTER_WORDS = { out_of_window: "out of window", bad_bodies: "bad bodies" };

  function renderLinks(v) {
    const links = v.links || {};
    const entries = Object.entries(links);
    $("links-box").hidden = !entries.length;
    patch($("links"), links, () => entries.map(([name, l]) => {
      const counters = Object.entries(l.counters || {}).filter(([, n]) => typeof n === "number");
      return el("li", { class: "link " + (l.up ? "up" : "down"), dataset: { link: name } },
        el("b", {}, name), ": ",
        l.up ? el("span", { class: "ok" }, "up") : el("span", { class: "status-bust" }, "DOWN"),
        !l.up && l.reason ? ` (${l.reason})` : "",
        ` · ${Table.plural(l.reboots || 0, "reboot")} · ${Table.plural(l.drops || 0, "drop")}`,
        counters.length ? el("div", { class: "counters muted" }, counters.map(([k, n]) =>
          `${COUNTER_WORDS[k] || k.replaceAll("_", " ")} ${fmt(n)}`).join(" · ")) : null);
    }));
  }

  // -- the whole view ------------------------------------------------------------------
  function render(v) {
    current = v;
    renderHeader(v);
    renderHold(v);
    const held = !$("hold").hidden;
    $("next").hidden = held;  // the hold screen says it: the message is shown once
    $("next").textContent = v.game_over
      ? "Game over. " + ((v.winners || []).length ? "Winner: " + v.winners.join(", ") : "")
      : (v.next || "—");
    if (!held) {
      renderControls(v);
      renderEntry(v);
      renderDecisions(v);
    }
    renderBank(v);
    renderSeats(v);
    renderSide(v);
    renderLinks(v);
    $("updated").textContent = "Updated " + clock(new Date());
    fit();
    const active = document.querySelector("#seats .seat.turn, #seats .seat.due");
    if (active) active.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // -- fitting: the seats shrink until every one is in view -------------------------------
  function fit() {
    const seats = $("seats");
    const cards = seats.querySelectorAll(".hand").length;
    const count = seats.children.length;
    const sig = [count, cards, innerWidth, innerHeight, Math.max(0, ...Array.from(
      seats.querySelectorAll(".cards"), (c) => c.children.length)), $("hold").hidden, $("bank")._sig,
      seats.clientHeight, seats.clientWidth];
    const text = JSON.stringify(sig);
    const over = () => seats.scrollHeight > seats.clientHeight + 1 || seats.scrollWidth > seats.clientWidth + 1
      || Array.from(seats.querySelectorAll(".seat")).some((x) => x.scrollWidth > x.clientWidth + 1);
    if (fit.sig === text && !over()) return;
    fit.sig = text;
    let scale = 1.5;
    seats.style.setProperty("--s", String(scale));
    while (scale > 0.45 && over()) {
      scale = Math.round((scale - 0.05) * 100) / 100;
      seats.style.setProperty("--s", String(scale));
    }
    seats.dataset.scale = String(scale);
  }
  addEventListener("resize", () => { fit.sig = null; fit(); });

  // -- sound: an optional beep when the table stops for something --------------------------
  let audio = null;
  const SOUND_KEY = "pontoon-dealer-sound";
  function soundOn() { return localStorage.getItem(SOUND_KEY) === "on"; }
  function showSound() {
    const b = $("btn-sound");
    b.textContent = soundOn() ? "Sound on" : "Sound off";
    b.setAttribute("aria-pressed", String(soundOn()));
  }
  $("btn-sound").addEventListener("click", () => {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    showSound();
    if (soundOn()) beep();
  });
  showSound();
  function beep() {
    if (!soundOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.4);
      document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
    } catch (e) { /* no audio here: the screen still says it */ }
  }

  // -- panels: the rare commands (with an in-page confirmation) and the help ---------------
  let confirmAction = null;
  function openPanel(id, open) {
    const panel = $(id);
    const opener = $(id === "menu" ? "btn-menu" : "btn-help");
    const hadFocus = panel.contains(document.activeElement);
    panel.hidden = !open;
    opener.setAttribute("aria-expanded", String(open));
    if (!open) {
      askConfirm(null);
      if (hadFocus && !opener.disabled) opener.focus();  // back where the dealer was
      return;
    }
    for (const other of ["menu", "help"]) if (other !== id) openPanel(other, false);
    const first = panel.querySelector("button, select, input");
    if (first) first.focus();
  }

  function askConfirm(text, yesLabel, action) {
    confirmAction = action || null;
    $("confirm").hidden = !text;
    $("menu-items").hidden = !!text;
    if (!text) return;
    $("confirm-text").textContent = text;
    $("btn-confirm-yes").textContent = yesLabel;
    $("btn-confirm-no").focus();
  }

  $("btn-menu").addEventListener("click", () => openPanel("menu", $("menu").hidden));
  $("btn-help").addEventListener("click", () => openPanel("help", $("help").hidden));
  $("btn-menu-close").addEventListener("click", () => openPanel("menu", false));
  $("btn-help-close").addEventListener("click", () => openPanel("help", false));
  $("btn-confirm-no").addEventListener("click", () => askConfirm(null));
  $("btn-confirm-yes").addEventListener("click", async () => {
    const action = confirmAction;
    askConfirm(null);
    openPanel("menu", false);
    if (action) await action();
  });
  $("menu-void").addEventListener("click", () => askConfirm(
    "Void this deal? Every stake and payment of it is undone, and the cards go back.",
    "Yes, void the deal", () => command("/api/void-deal")));
  $("menu-new-game").addEventListener("click", () => askConfirm(
    "Start a new game? Every balance goes back to the start; this game ends now.",
    "Yes, start a new game", () => command("/api/new-game")));
  $("sell-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const to = $("sell-to").value;
    const price = $("sell-price").value || "0";
    askConfirm(`Sell the bank to ${to} for ${price} units?`, "Yes, sell the bank",
      () => command("/api/bank/sell", { to, price: Number(price) }));
  });

  // -- keyboard shortcuts ------------------------------------------------------------------
  function clickIfShown(id) {
    const b = $(id);
    if (b && b.isConnected && !b.disabled && b.offsetParent !== null) { b.click(); return true; }
    return false;
  }

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (document.body.dataset.token || document.body.dataset.conn === "down") return;
    const key = ev.key.length === 1 ? ev.key.toUpperCase() : ev.key;
    if (ev.key === "Escape") {
      for (const p of pickers) { p.rank = null; p.sync(); }
      if (!$("confirm").hidden) askConfirm(null);
      else { openPanel("menu", false); openPanel("help", false); }
      return;
    }
    if (key === "?") { openPanel("help", $("help").hidden); ev.preventDefault(); return; }
    if (!$("menu").hidden || !$("help").hidden) return;
    if (key === "M") { openPanel("menu", true); ev.preventDefault(); return; }
    // A card to name: the keys type it (rank, then suit).
    const picker = visiblePicker();
    if (picker) {
      const rank = key === "0" ? "T" : key;
      if (picker.rank && SUIT_WORDS[key]) { send(picker, key); ev.preventDefault(); return; }
      if (RANKS.includes(rank)) { choose(picker, rank); ev.preventDefault(); return; }
    }
    if (key === "P" && clickIfShown("btn-resume")) { ev.preventDefault(); return; }
    if (!$("hold").hidden) {
      const choice = $("hold").querySelectorAll("#hold-choices button")[Number(key) - 1];
      if (/^[1-9]$/.test(key) && choice) { choice.click(); ev.preventDefault(); }
      return;
    }
    const byKey = { P: ["btn-pause", "btn-resume"], N: ["btn-next-deal"], D: ["btn-draw"], S: ["btn-stay"] };
    if (byKey[key]) {
      if (byKey[key].some(clickIfShown)) ev.preventDefault();
      return;
    }
    const word = Object.keys(DECISION_KEYS).find((w) => DECISION_KEYS[w] === key);
    if (word) {
      const b = document.querySelector(`#decisions .decisions.turn [data-decision='${word}']`);
      if (b) { b.click(); ev.preventDefault(); }
    }
  }
  addEventListener("keydown", onKey);

  // -- the connection: a banner while it is lost, controls off until it is back ------------
  let lostSince = null;
  let lastUpdate = null;
  function connState() {
    const state = document.body.dataset.conn;
    const banner = $("lost");
    if (state === "down" && current) {
      lostSince = lostSince || new Date();
      banner.hidden = false;
      banner.textContent = `Connection lost since ${clock(lostSince)}, reconnecting. ` +
        `Last update ${lastUpdate ? clock(lastUpdate) : "never"}; the controls are off until the table is back.`;
      $("main").inert = true;
      for (const id of ["menu", "help"]) openPanel(id, false);
      $("btn-menu").disabled = true;
    } else if (state === "ok") {
      lostSince = null;
      banner.hidden = true;
      $("main").inert = false;
      $("btn-menu").disabled = false;
    }
  }
  new MutationObserver(connState).observe(document.body, { attributes: true, attributeFilter: ["data-conn"] });

  function onView(v) {
    lastUpdate = new Date();
    render(v);
  }

  // A tablet pairs with the code the dealer panel shows (its session is a
  // cookie); scripts and the setup screen use the token, from the address
  // (/dealer#token=...), this tab's storage or the in-page form.  A refused
  // socket brings the right form back with the reason; nothing is retried
  // until the dealer pairs again or enters another token.
  let link = null;
  function connect() {
    if (link) { link.reconnect(); return; }
    link = Table.live("/ws/dealer", onView, {
      hello: () => ({ token: Table.storedToken() || "" }),
      onAuthFail: () => Table.askForAccess(Table.storedToken() ? "refused" : "unpaired", connect),
    });
  }
  if (Table.token()) connect();
  else Table.sessionState().then((s) => (s.paired ? connect() : s.pairing
    ? Table.pairForm("missing", connect) : Table.tokenForm("missing", connect)));
})();
