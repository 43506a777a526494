// Training: the trainee deals and settles; the server checks each action
// against the rules engine and keeps the score.
"use strict";
(() => {
  const { el, cardImg, fmt, post } = Table;
  const $ = (id) => document.getElementById(id);
  let session = null;

  function toast(text, bad) {
    const t = $("toast");
    t.textContent = text;
    t.className = "show" + (bad ? " bad" : "");
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.className = ""; }, 4000);
  }

  async function call(path, body) {
    const r = await post(path, body);
    if (r.status === 401 || r.status === 403) {
      Table.askToken("The dealer's token is needed for training. Dealer's token:");
      toast("Token refused: try again.", true);
      return null;
    }
    if (!r.ok) { toast(r.data.message || r.data.detail || "Refused", true); return null; }
    return r.data;
  }

  function cards(list) {
    return el("div", { class: "cards" }, (list || []).map((c) => cardImg({ card: c.code, up: c.face_up })));
  }

  function dealButtons(name) {
    return el("div", { class: "controls" },
      el("button", { class: "primary", dataset: { deal: name, face: "down" },
                     onclick: () => act("deal", { seat: name, face_up: false }) }, "Deal face down"),
      el("button", { dataset: { deal: name, face: "up" },
                     onclick: () => act("deal", { seat: name, face_up: true }) }, "Deal face up"));
  }

  async function act(what, body) {
    const v = await call(`/api/training/${session.id}/${what}`, body);
    if (v) render(v);
  }

  function render(v) {
    session = v;
    $("start-box").hidden = true;
    $("play").hidden = false;
    $("task").hidden = false;
    $("progress").replaceChildren("Deal ", el("b", {}, v.deal || "–"), " · ", v.rules);
    $("banker").replaceChildren("Bank: ", el("b", {}, v.banker || "–"));
    $("score").textContent = `${v.score}% (${v.mistakes} mistakes in ${v.checks} checks)`;
    $("task").textContent = v.phase === "settle" ? "The deal is over: settle it."
      : v.phase === "over" ? "Session over." : "Deal the next card, and expose any bust hand.";
    const dealing = v.phase === "deal";
    $("bank").replaceChildren(
      el("h2", {}, v.house_dealer ? "Dealer" : `Bank · ${v.banker}`,
        v.bank.total !== null ? el("span", { class: "muted" }, ` · ${v.bank.total}`) : ""),
      cards(v.bank.cards), dealing ? dealButtons(v.banker) : null);
    $("seats").replaceChildren(...v.seats.filter((s) => !s.banker).map((s) =>
      el("article", { class: "seat", dataset: { seat: s.name } },
        el("h3", {}, s.name),
        s.hands.map((h) => el("div", { class: "hand" },
          cards(h.cards),
          el("div", { class: "facts" }, el("span", {}, "Stake ", el("b", {}, fmt(h.stake))),
            h.cards.length ? el("span", {}, "Total ", el("b", {}, h.total)) : null,
            dealing && h.cards.length >= 2 ? el("button", { class: "quiet", dataset: { expose: s.name, hand: h.hand },
              onclick: () => act("expose", { seat: s.name, hand: h.hand }) }, "Expose bust") : null))),
        dealing ? dealButtons(s.name) : null)));
    const settling = v.phase === "settle";
    $("settle-box").hidden = !settling;
    if (settling && $("settle-rows").dataset.deal !== String(v.deal)) {
      $("settle-rows").dataset.deal = String(v.deal);
      $("settle-rows").replaceChildren(...v.players.map((p) =>
        el("label", {}, p + " ", el("input", { type: "number", step: "0.5", value: "0", size: 5,
                                              style: "width:6em", dataset: { payout: p } }))));
      $("next-banker").replaceChildren(...v.everyone.map((p) =>
        el("option", { value: p, selected: p === v.banker }, p)));
      $("next-banker-label").hidden = v.house_dealer;
    }
    $("feedback").replaceChildren(...v.feedback.slice().reverse().map((f) =>
      el("div", { class: f.ok ? "correct" : "mistake" },
        f.ok ? "✓ " + f.text : el("span", {}, el("b", {}, "✗ " + f.label), el("br"), "You: " + f.text,
          el("br"), "Correct: " + f.correct))));
    $("log").replaceChildren(...v.log.map((l) => el("li", {}, l)));
    if (v.phase === "over") showReport();
  }

  async function showReport() {
    const r = await fetch(`/api/training/${session.id}/report`).then((x) => x.json());
    $("report").hidden = false;
    $("report").replaceChildren(
      el("h2", {}, "Session report"),
      el("p", { class: "score" }, `${r.score}%`),
      el("p", {}, `${r.deals} deals · ${r.checks} checks · ${r.mistakes} mistakes`),
      el("table", { class: "report" },
        el("tr", {}, el("th", {}, "Mistake"), el("th", {}, "Count")),
        r.by_kind.map((k) => el("tr", { dataset: { kind: k.kind } }, el("td", {}, k.label), el("td", {}, k.count)))),
      el("p", {}, el("a", { href: `/api/training/${session.id}/report?format=csv`, style: "color:var(--accent)" }, "Download CSV"),
        " · ", el("a", { href: `/api/training/${session.id}/report`, style: "color:var(--accent)" }, "JSON")));
  }

  $("btn-start").addEventListener("click", async () => {
    const players = $("players").value.split(",").map((s) => s.trim()).filter(Boolean);
    const v = await call("/api/training", { rules: $("rules").value, players });
    if (v) render(v);
  });
  $("btn-settle").addEventListener("click", async () => {
    const payouts = {};
    for (const input of document.querySelectorAll("[data-payout]")) payouts[input.dataset.payout] = Number(input.value || 0);
    await act("settle", { payouts, next_banker: session.house_dealer ? null : $("next-banker").value });
  });
  $("btn-end").addEventListener("click", async () => {
    const r = await call(`/api/training/${session.id}/end`, {});
    if (r) { session.phase = "over"; showReport(); }
  });
  Table.token();
})();
