// The players' screen: only what is face up at a real table (the server
// already removed every face-down card; this page could not show one).
"use strict";
(() => {
  const { el, cardImg, fmt, signed } = Table;
  const $ = (id) => document.getElementById(id);
  const STATUS_WORDS = { bust: "Bust", pontoon: "Pontoon!", five_card: "Five-card trick!", paid: "Paid" };

  function cardsOf(list) {
    return el("div", { class: "cards" }, (list || []).map((c) => cardImg({ card: c.code, up: c.face_up })));
  }

  function render(v) {
    $("title").textContent = v.table || "Pontoon";
    const d = v.deal || {};
    $("progress").replaceChildren("Deal ", el("b", {}, d.number || "–"), d.of ? ` of ${d.of}` : "");
    $("banker").replaceChildren("Bank: ", el("b", {}, d.banker || "–"));
    $("notice").replaceChildren(...(v.notice ? [el("div", { class: "notice" }, v.notice)] : []));
    let turn = "";
    if (v.game_over) turn = "Game over" + ((v.winners || []).length ? " — well played, " + v.winners.join(" & ") + "!" : "");
    else if (v.turn && v.turn.seat) turn = `${v.turn.seat}'s turn` + (v.turn.hand > 1 ? ` (hand ${v.turn.hand})` : "");
    else if (v.results) turn = "Deal settled";
    $("turn").textContent = turn;
    const b = v.bank || {};
    $("bank").replaceChildren(
      el("h2", {}, b.name === "house" ? "Dealer" : `Bank · ${b.name || ""}`,
        b.kitty !== undefined ? ` · kitty ${fmt(b.kitty)}` : "",
        b.total !== undefined ? el("span", { class: "muted" }, ` · ${fmt(b.total)}`) : ""),
      cardsOf(b.cards));
    const net = (v.results && v.results.net) || {};
    $("seats").replaceChildren(...(v.seats || []).filter((s) => !s.banker).map((s) => {
      const isTurn = v.turn && v.turn.seat === s.name;
      return el("article", { class: "seat" + (isTurn ? " turn" : ""), dataset: { seat: s.name } },
        el("h3", {}, el("span", {}, s.name), net[s.name] !== undefined
          ? el("span", { class: net[s.name] >= 0 ? "net-pos" : "net-neg" }, signed(net[s.name])) : ""),
        (s.hands || []).map((h) => el("div", { class: "hand" + (isTurn && v.turn.hand === h.hand ? " active" : "") },
          cardsOf(h.cards),
          el("div", { class: "facts" },
            el("span", {}, "Stake ", el("b", {}, fmt(h.stake))),
            h.shoot ? el("span", {}, "Shoot ", el("b", {}, fmt(h.shoot))) : null,
            h.total !== undefined ? el("span", {}, "Total ", el("b", {}, fmt(h.total))) : null,
            STATUS_WORDS[h.status] ? el("span", { class: "status-" + h.status }, STATUS_WORDS[h.status]) : null))));
    }));
    $("standings").replaceChildren(...(v.standings || []).map((s) =>
      el("li", {}, `${s.name} `, el("b", {}, fmt(s.balance)), " units")));
    $("results").replaceChildren(...((v.results && v.results.transfers) || []).map((t) => el("p", { class: "badge" }, t)));
  }

  Table.live("/ws/public", render);
})();
