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
      sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
      history.replaceState(null, "", location.pathname + location.search);
    }
    return sessionStorage.getItem(TOKEN_KEY);
  }

  function askToken(message) {
    const t = prompt(message || "Dealer's token:");
    if (t) sessionStorage.setItem(TOKEN_KEY, t.trim());
    return sessionStorage.getItem(TOKEN_KEY);
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
    let view = null, version = 0, delay = 500, ws = null;
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
    return { close: () => ws && ws.close() };
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

  return { token, askToken, el, cardImg, fmt, signed, live, post, TOKEN_KEY };
})();
