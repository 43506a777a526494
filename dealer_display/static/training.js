// Training: the trainee deals and settles; the server checks each action
// against the rules engine and keeps the score.
"use strict";
(() => {
  const { el, cardImg, fmt, plural, post } = Table;
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
      Table.tokenForm(r.status === 401 ? "missing" : "refused",
                      () => toast("Token saved: try again."));
      return null;
    }
    if (!r.ok) { toast(Table.message(r), true); return null; }
    return r.data;
  }

  function cards(list) {
    return el("div", { class: "cards" }, (list || []).map((c) => cardImg({ card: c.code, up: c.face_up })));
  }

  // A hand's standing in words, from the engine's flags.
  function standing(h) {
    if (h.bust) return el("span", { class: "status-bust" }, "bust");
    if (h.pontoon) return el("span", { class: "status-pontoon" }, "pontoon");
    if (h.five_card_trick) return el("span", { class: "status-five_card" }, "five-card trick");
    return null;
  }

  function dealButtons(name) {
    return el("div", { class: "controls" },
      el("button", { class: "primary", dataset: { deal: name, face: "down" },
                     onclick: () => act("deal", { seat: name, face_up: false }) }, "Deal face down"),
      el("button", { dataset: { deal: name, face: "up" },
                     onclick: () => act("deal", { seat: name, face_up: true }) }, "Deal face up"));
  }

  async function act(what, body) {
    if (!session || session.phase === "over") return;
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
    $("score").textContent = `${v.score}% (${plural(v.mistakes, "mistake")} in ${plural(v.checks, "check")})`;
    $("task").textContent = v.task;
    const dealing = v.phase === "deal";
    const b = v.bank;
    // Element.replaceChildren writes a null as the text "null": only nodes and strings here.
    $("bank").replaceChildren(...[
      el("h2", {}, v.house_dealer ? "Dealer" : `Bank · ${v.banker}`,
        b.total !== null ? el("span", { class: "muted" }, ` · ${b.total}`) : null),
      cards(b.cards),
      el("div", { class: "facts", id: "bank-standing" }, standing(b)),
      dealing ? dealButtons(v.banker) : null,
    ].filter(Boolean));
    $("seats").replaceChildren(...v.seats.filter((s) => !s.banker).map((s) =>
      el("article", { class: "seat", dataset: { seat: s.name } },
        el("h3", {}, s.name),
        s.hands.map((h) => el("div", { class: "hand" },
          cards(h.cards),
          el("div", { class: "facts" }, el("span", {}, "Stake ", el("b", {}, fmt(h.stake))),
            h.cards.length ? el("span", {}, "Total ", el("b", {}, h.total)) : null,
            standing(h),
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
    $("btn-end").disabled = v.phase === "over";
    if (v.phase === "over") showReport();
  }

  // The report goes at the top of the page, in view: the session is over and
  // the deal controls are gone.
  async function showReport() {
    const res = await fetch(`/api/training/${session.id}/report`);
    if (!res.ok) { toast("The report could not be loaded.", true); return; }
    const r = await res.json();
    const box = $("report");
    box.hidden = false;
    box.replaceChildren(
      el("h2", { id: "report-title", tabindex: "-1" }, "Session report"),
      el("p", { class: "score" }, `${r.score}%`),
      el("p", {}, `${plural(r.deals, "deal")} · ${plural(r.checks, "check")} · ${plural(r.mistakes, "mistake")}`),
      r.by_kind.length
        ? el("table", { class: "report" },
          el("tr", {}, el("th", {}, "Mistake"), el("th", {}, "Count")),
          r.by_kind.map((k) => el("tr", { dataset: { kind: k.kind } }, el("td", {}, k.label), el("td", {}, k.count))))
        : el("p", {}, "No mistakes."),
      el("p", { class: "controls" },
        el("a", { href: `/api/training/${session.id}/report?format=csv`, style: "color:var(--accent)" }, "Download CSV"),
        el("a", { href: `/api/training/${session.id}/report`, style: "color:var(--accent)" }, "JSON"),
        el("button", { class: "primary", id: "btn-again", onclick: () => location.reload() }, "New session")));
    window.scrollTo({ top: 0 });  // the report is the first thing under the header
    $("report-title").focus({ preventScroll: true });
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
    if (!session || session.phase === "over") return;  // nothing started, or already over
    const r = await call(`/api/training/${session.id}/end`, {});
    if (!r) return;
    const res = await fetch(`/api/training/${session.id}`);
    if (res.ok) render(await res.json());
  });
  if (!Table.token()) Table.tokenForm("missing", () => {});
})();
