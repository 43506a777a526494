// The event floor page: every table, the alarm board and the leaderboard,
// live over /ws/floor (snapshot, then patches).  Everything needs the floor's
// token: from the address (/floor#token=...) or typed in, kept in this tab.
"use strict";

(() => {
  const KEY = "pontoon-floor-token";
  const { el, fmt, signed } = Table;
  let view = null, skew = 0, socket = null;

  function token() {
    const m = location.hash.match(/token=([^&]+)/);
    if (m) {
      let t = m[1];
      try { t = decodeURIComponent(t); } catch (e) { /* use it as it is */ }
      sessionStorage.setItem(KEY, t);
      history.replaceState(null, "", location.pathname + location.search);
    }
    return sessionStorage.getItem(KEY);
  }

  function tokenForm(reason) {
    let form = document.getElementById("token-form");
    if (!form) {
      const input = el("input", { id: "token-input", type: "password", autocomplete: "off",
                                  spellcheck: "false", required: true, "aria-describedby": "token-why" });
      form = el("form", { id: "token-form", class: "box token-form", "aria-labelledby": "token-title" },
        el("h2", { id: "token-title" }), el("p", { id: "token-why" }),
        el("div", { class: "controls" },
          el("label", { for: "token-input" }, "Floor token"), input,
          el("button", { class: "primary", type: "submit", id: "btn-token" }, "Connect")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const t = input.value.trim();
        if (!t) return;
        sessionStorage.setItem(KEY, t);
        input.value = "";
        form.hidden = true;
        delete document.body.dataset.token;
        connect();
      });
      document.querySelector("main").before(form);
    }
    form.querySelector("#token-title").textContent =
      reason === "refused" ? "That token was refused" : "The floor's token is needed";
    form.querySelector("#token-why").textContent = reason === "refused"
      ? "The floor did not accept that token. Check it against the one `pontoon-table floor` printed when it started."
      : "This page shows every table and the players' money, so it needs the floor's token. " +
        "`pontoon-table floor` prints the page's address with the token in it when it starts.";
    form.hidden = false;
    document.body.dataset.token = reason;
    const banner = document.getElementById("conn");
    banner.textContent = reason === "refused" ? "Token refused" : "Token needed";
    banner.className = "conn bad";
    form.querySelector("input").focus();
  }

  function ago(at) {
    if (!at) return "never";
    const s = Math.max(0, Math.round(Date.now() / 1000 + skew - at));
    if (s < 60) return `${s} s ago`;
    if (s < 3600) return `${Math.floor(s / 60)} min ago`;
    return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min ago`;
  }

  function since(at) {
    const s = Math.max(0, Math.round(Date.now() / 1000 + skew - at));
    if (s < 60) return `for ${s} s`;
    if (s < 3600) return `for ${Math.floor(s / 60)} min`;
    return `for ${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  }

  async function download(table, format) {
    const res = await fetch(`/api/tables/${encodeURIComponent(table)}/history?format=${format}`,
                            { headers: { Authorization: "Bearer " + (sessionStorage.getItem(KEY) || "") } });
    if (!res.ok) {
      let why = "The floor could not export that game.";
      try { why = (await res.json()).detail || why; } catch (e) { /* not JSON */ }
      alertBox(why);
      return;
    }
    const name = (res.headers.get("content-disposition") || "").match(/filename="([^"]+)"/);
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", { href: url, download: name ? name[1] : `${table}.${format}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function alertBox(text) {
    const banner = document.getElementById("conn");
    banner.textContent = text;
    banner.className = "conn bad";
  }

  function phaseWords(t) {
    if (!t.last_heard) return "not heard from yet";
    if (!t.online) return "offline";
    return t.phase ? t.phase.replace(/_/g, " ") : "waiting";
  }

  function tableCard(t) {
    const cls = ["table-card", t.online ? "" : "offline",
                 t.holds.length || t.alarms.length ? "attention" : "",
                 t.refused ? "refused" : ""].join(" ");
    const words = [...t.holds.map((h) => el("li", { class: "hold" }, "On hold: " + h)),
                   ...t.alarms.map((a) => el("li", { class: "alarm" }, a))];
    return el("article", { class: cls, dataset: { table: t.table }, "aria-label": "Table " + t.table },
      el("h3", {}, t.table,
        el("span", { class: "badge " + (t.online ? "on" : "off") }, t.online ? "online" : "offline")),
      el("div", { class: "line" }, el("b", {}, phaseWords(t)),
        t.game ? ` · game ${t.game}` : "", t.deal ? `, deal ${t.deal}` : ""),
      words.length ? el("ul", { class: "words" }, words) : null,
      t.devices.length ? el("ul", { class: "devices", "aria-label": "devices" },
        t.devices.map((d) => el("li", { class: d.up ? "up" : "down", title: d.words || "" },
          d.name + (d.up ? "" : " down")))) : null,
      el("div", { class: "line" }, "heard ", el("b", { class: "heard", dataset: { at: t.last_heard } },
        ago(t.last_heard)), ` · ${fmt(t.stored)} rows stored`,
        t.duplicates ? ` · ${fmt(t.duplicates)} repeats` : "",
        t.refused ? el("b", {}, ` · ${fmt(t.refused)} refused`) : ""),
      t.stored ? el("div", { class: "exports" },
        el("button", { class: "quiet", type: "button", onclick: () => download(t.table, "json"),
                       "aria-label": `Export JSON of ${t.table}'s last game` }, "Export JSON"),
        el("button", { class: "quiet", type: "button", onclick: () => download(t.table, "csv"),
                       "aria-label": `Export CSV of ${t.table}'s last game` }, "Export CSV")) : null);
  }

  function renderBoard() {
    const select = document.getElementById("round");
    const rounds = view.rounds || [];
    const wanted = ["", ...rounds.map((r) => r.name)];
    const have = [...select.options].map((o) => o.value);
    if (wanted.join("\n") !== have.join("\n")) {
      const keep = select.value;
      select.replaceChildren(el("option", { value: "" }, "every game"),
        ...rounds.map((r) => el("option", { value: r.name }, r.name)));
      select.value = wanted.includes(keep) ? keep : "";
    }
    const chosen = rounds.find((r) => r.name === select.value);
    const rows = chosen ? chosen.leaderboard : view.leaderboard;
    document.getElementById("no-players").hidden = rows.length > 0;
    document.querySelector("#leaderboard tbody").replaceChildren(...rows.map((p) =>
      el("tr", { dataset: { player: p.player } },
        el("td", {}, String(p.rank)), el("th", { scope: "row" }, p.player),
        el("td", { class: "num " + (p.units > 0 ? "plus" : p.units < 0 ? "minus" : "") }, signed(p.units)),
        el("td", { class: "num" }, String(p.games)), el("td", {}, p.tables.join(", ")))));
  }

  function render() {
    if (!view) return;
    const tables = view.tables || [];
    document.getElementById("online").textContent =
      `${tables.filter((t) => t.online).length} of ${tables.length}`;
    document.getElementById("stored").textContent = fmt(tables.reduce((n, t) => n + t.stored, 0));
    document.getElementById("alarm-count").textContent = String(view.alarms.length);
    document.getElementById("no-tables").hidden = tables.length > 0;
    document.getElementById("tables").replaceChildren(...tables.map(tableCard));
    document.getElementById("no-alarms").hidden = view.alarms.length > 0;
    document.getElementById("alarms").replaceChildren(...view.alarms.map((a) =>
      el("li", { class: a.source, dataset: { table: a.table } },
        el("b", {}, a.table), ": ", el("span", { class: "what" }, a.text), " ",
        el("span", { class: "age", dataset: { since: a.since } }, since(a.since)))));
    renderBoard();
  }

  function tick() {
    for (const node of document.querySelectorAll(".heard")) node.textContent = ago(Number(node.dataset.at));
    for (const node of document.querySelectorAll(".age")) node.textContent = since(Number(node.dataset.since));
  }

  function connect() {
    if (socket) { socket.reconnect(); return; }
    socket = Table.live("/ws/floor", (v) => {
      view = v;
      if (typeof v.now === "number") skew = v.now - Date.now() / 1000;
      render();
    }, {
      hello: () => ({ token: sessionStorage.getItem(KEY) || "" }),
      onAuthFail: () => tokenForm("refused"),
    });
  }

  document.getElementById("round").addEventListener("change", () => view && renderBoard());
  setInterval(tick, 1000);
  if (token()) connect();
  else tokenForm("missing");
})();
