// Shared by the three pages: the live socket, the reconnect banner, the
// dealer's token and drawing cards.  Plain browser JavaScript, no build step.
"use strict";

const Table = (() => {
  const TOKEN_KEY = "pontoon-dealer-token";

  // The dealer opens /dealer#token=... (the simulator prints that address);
  // the token moves to sessionStorage and leaves the address bar at once.
  function token() {
    const m = location.hash.match(/token=([^&]+)/);
    if (m) {
      let t = m[1];
      try { t = decodeURIComponent(t); } catch (e) { /* not %-encoded: use it as it is */ }
      sessionStorage.setItem(TOKEN_KEY, t);
      history.replaceState(null, "", location.pathname + location.search);
    }
    return sessionStorage.getItem(TOKEN_KEY);
  }

  const TOKEN_WORDS = {
    missing: ["The dealer's token is needed",
              "This page changes the table, so it needs the dealer's token. The table prints " +
              "the dealer's address with the token in it when it starts (scan its QR code on a " +
              "tablet); a configured table keeps it in its configuration file."],
    refused: ["That token was refused",
              "The table did not accept that dealer's token. Check it against the one the " +
              "table printed when it started, and try again."],
  };

  // Ask for the dealer's token on the page itself (never a prompt(): a
  // cancelled prompt used to ask again in a loop).  ``reason`` is "missing" or
  // "refused"; ``onToken`` runs once the dealer has entered one.
  function tokenForm(reason, onToken) {
    let form = document.getElementById("token-form");
    if (!form) {
      const input = el("input", { id: "token-input", type: "password", autocomplete: "off",
                                  spellcheck: "false", required: true, "aria-describedby": "token-why" });
      form = el("form", { id: "token-form", class: "box token-form", "aria-labelledby": "token-title" },
        el("h2", { id: "token-title" }),
        el("p", { id: "token-why" }),
        el("div", { class: "controls" },
          el("label", { for: "token-input" }, "Dealer's token"), input,
          el("button", { class: "primary", type: "submit", id: "btn-token" }, "Connect")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const t = input.value.trim();
        if (!t) return;
        sessionStorage.setItem(TOKEN_KEY, t);
        input.value = "";
        form.hidden = true;
        delete document.body.dataset.token;
        const banner = document.getElementById("conn");
        if (banner && form.savedBanner) [banner.textContent, banner.className] = form.savedBanner;
        if (form.tokenCallback) form.tokenCallback(t);
      });
      (document.querySelector("main") || document.body).prepend(form);
    }
    const [title, why] = TOKEN_WORDS[reason] || TOKEN_WORDS.missing;
    form.querySelector("#token-title").textContent = title;
    form.querySelector("#token-why").textContent = why;
    form.dataset.reason = reason;
    form.tokenCallback = onToken;
    const banner = document.getElementById("conn");
    if (banner) {
      if (form.hidden || !form.savedBanner) form.savedBanner = [banner.textContent, banner.className];
      banner.textContent = reason === "refused" ? "Token refused" : "Token needed";
      banner.className = "conn bad";
    }
    form.hidden = false;
    document.body.dataset.token = reason;
    form.querySelector("input").focus();
  }

  // -- pairing a tablet with the code the dealer panel shows ---------------------------
  // The session is an HttpOnly cookie the server sets: no script here ever sees it.
  async function sessionState() {
    try {
      const res = await fetch("/api/session", { headers: authHeaders() });
      if (res.ok) return await res.json();
    } catch (e) { /* offline: ask for a code; the socket retries by itself */ }
    return { paired: false, pairing: true };
  }

  const PAIR_WORDS = {
    missing: "Pair this tablet with the table",
    unpaired: "This tablet was unpaired",
    refused: "Pair this tablet with the table",
  };

  // The six-digit form.  ``reason``: "missing" (never paired), "unpaired" (the
  // dealer panel ended the session) or "refused"; ``onPaired`` runs after a pairing.
  function pairForm(reason, onPaired) {
    let form = document.getElementById("pair-form");
    if (!form) {
      const input = el("input", {
        id: "pair-code", name: "code", inputmode: "numeric", autocomplete: "one-time-code",
        pattern: "[0-9 ]{6,7}", maxlength: "7", required: true, spellcheck: "false",
        "aria-describedby": "pair-steps pair-error", enterkeyhint: "go",
      });
      const error = el("p", { id: "pair-error", class: "pair-error", role: "alert" });
      form = el("form", { id: "pair-form", class: "box pair-form", "aria-labelledby": "pair-title" },
        el("h2", { id: "pair-title" }),
        el("ol", { id: "pair-steps" },
          el("li", {}, "On the dealer panel at the table, press ", el("b", {}, "CONFIRM"),
             " three times, quickly."),
          el("li", {}, "The panel shows a six-digit code for 60 seconds. Type it here.")),
        el("label", { for: "pair-code" }, "Code from the dealer panel"),
        el("div", { class: "pair-row" }, input,
          el("button", { class: "primary", type: "submit", id: "btn-pair" }, "Pair")),
        error,
        el("p", { class: "muted small" },
          "Scripts and the setup screen can use the dealer's token instead. ",
          el("button", { type: "button", class: "quiet small", id: "btn-use-token" },
             "Use the token")));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const code = input.value.replace(/\D/g, "");
        if (code.length !== 6) { error.textContent = "The code is six digits."; input.focus(); return; }
        const button = form.querySelector("#btn-pair");
        button.disabled = true;
        error.textContent = "";
        const r = await post("/api/pair", { code });
        button.disabled = false;
        if (!r.ok) {
          error.textContent = message(r, "That code was refused.");
          input.select();
          return;
        }
        input.value = "";
        form.hidden = true;
        delete document.body.dataset.pair;
        if (form.pairedCallback) form.pairedCallback();
      });
      form.querySelector("#btn-use-token").addEventListener("click", () => {
        form.hidden = true;
        delete document.body.dataset.pair;
        tokenForm("missing", form.pairedCallback || (() => {}));
      });
      (document.querySelector("main") || document.body).prepend(form);
    }
    form.querySelector("#pair-title").textContent = PAIR_WORDS[reason] || PAIR_WORDS.missing;
    form.querySelector("#pair-error").textContent = reason === "unpaired"
      ? "The dealer panel ended this tablet's session. Pair it again with a new code." : "";
    form.pairedCallback = onPaired;
    const banner = document.getElementById("conn");
    if (banner) { banner.textContent = "Not paired"; banner.className = "conn bad"; }
    form.hidden = false;
    document.body.dataset.pair = reason;
    form.querySelector("input").focus();
  }

  // Not paired and no token: the pairing form (a table without a dealer
  // panel has only the token).
  function askForAccess(reason, onAccess) {
    if (storedToken()) { tokenForm(reason === "missing" ? "missing" : "refused", onAccess); return; }
    pairForm(reason, onAccess);
  }

  function authHeaders() {
    const t = sessionStorage.getItem(TOKEN_KEY);
    return t ? { Authorization: "Bearer " + t } : {};
  }

  // A refusal as one plain sentence, whatever the server sent: the table's
  // own message, an HTTP error's detail, never a JSON dump.
  function message(r, fallback) {
    const d = (r && r.data) || {};
    for (const text of [d.message, d.detail]) {
      if (typeof text === "string" && text.trim()) return text.trim();
    }
    if (r && r.ok) return fallback || "Done";
    return fallback || "The table refused that request.";
  }

  // "1 mistake", "2 mistakes"
  function plural(n, word) {
    return `${fmt(n)} ${word}${n === 1 ? "" : "s"}`;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c.nodeType ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  // A card is {card: "TH", up: true} or, face down, {up: false} and maybe a
  // card the dealer may see.  Public payloads never carry a face-down name.
  function cardImg(c, size) {
    const name = c.card || null;
    const src = name ? `/cards/${name}.svg` : "/cards/back.svg";
    const cls = ["card", size || "", c.up ? "up" : "down", name && !c.up ? "peek" : ""].join(" ");
    const label = name ? (c.up ? name : name + " (face down)") : "face-down card";
    return el("img", { class: cls, src, alt: label, title: label, dataset: { card: name || "back" } });
  }

  function fmt(n) {
    if (n === null || n === undefined) return "";
    return Number.isInteger(n) ? String(n) : n.toFixed(1).replace(/\.0$/, "");
  }

  function signed(n) {
    return (n > 0 ? "+" : n < 0 ? "−" : "±") + fmt(Math.abs(n));
  }

  // Live view over a WebSocket: snapshot first, then patches of top-level keys.
  // Reconnects by itself with a growing delay, showing a banner meanwhile.
  function live(path, onView, opts) {
    opts = opts || {};
    const banner = document.getElementById("conn");
    let view = null, version = 0, delay = 500, ws = null, refused = false;
    function show(text, cls) {
      if (!banner) return;
      banner.textContent = text;
      banner.className = "conn " + cls;
      document.body.dataset.conn = cls;
    }
    function connect() {
      const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
      ws = new WebSocket(url);
      ws.onopen = () => {
        if (opts.hello) ws.send(JSON.stringify(opts.hello()));
      };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.type === "snapshot") {
          view = msg.view; version = msg.version;
        } else if (msg.type === "patch") {
          if (!view || msg.version !== version + 1) { ws.close(); return; }
          for (const [k, v] of Object.entries(msg.set)) view[k] = v;
          for (const k of msg.remove) delete view[k];
          version = msg.version;
        } else if (msg.type === "error") {
          if (opts.onError) opts.onError(msg);
          return;
        } else return;
        delay = 500;
        show("live", "ok");
        document.body.dataset.version = String(version);
        onView(view, version);
      };
      ws.onclose = (ev) => {
        if (ev.code === 4401 || ev.code === 4403) {
          refused = true;
          show("The dealer's token was refused.", "bad");
          if (opts.onAuthFail) opts.onAuthFail(ev);
          return;
        }
        show("Reconnecting…", "down");
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 8000);
      };
      ws.onerror = () => ws.close();
    }
    show("Connecting…", "down");
    connect();
    // reconnect(): start again (e.g. with a new token); a refused socket is not retried by itself.
    return {
      close: () => ws && ws.close(),
      reconnect: () => {
        if (refused) { refused = false; delay = 500; show("Connecting…", "down"); connect(); }
        else if (ws) ws.close();
      },
    };
  }

  // A POST carrying the dealer's token; resolves to {ok, data}.
  async function post(path, body) {
    const headers = { "Content-Type": "application/json" };
    const t = sessionStorage.getItem(TOKEN_KEY);
    if (t) headers.Authorization = "Bearer " + t;
    let res;
    try {
      res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
    } catch (e) {
      return { ok: false, data: { detail: "The table cannot be reached. Check the network." } };
    }
    let data = {};
    try { data = await res.json(); } catch (e) { /* empty body */ }
    return { ok: res.ok, status: res.status, data };
  }

  function storedToken() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  return { token, storedToken, tokenForm, pairForm, askForAccess, sessionState, message, plural,
           el, cardImg, fmt, signed, live, post, TOKEN_KEY };
})();
