// Online game page: the seat's own view arrives over a websocket; the table is then
// re-fetched from the server (which renders only what this viewer may see). Moves are
// posted with fetch; an illegal move's message comes back over the socket. A push can be
// lost (a server restart, a full channel): while the socket is open, a page that has heard
// nothing for SILENCE_MS, or nothing within MOVE_MS of its own accepted move, re-fetches.
(function () {
  "use strict";

  var SILENCE_MS = 20000, MOVE_MS = 4000;
  var root, errorBox, socket, pollTimer, attempt = 0, heard = Date.now(), moveTimer = null;
  var drawn = null, pressing = false, pending = null;
  // Fetches of the table, numbered as asked, and the last one whose answer was taken:
  // two may be under way at once, and the answer of the earlier may come last.
  var asked = 0, taken = 0;

  function csrf(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function showError(text) {
    if (!errorBox) { return; }
    errorBox.textContent = text || "";
    errorBox.hidden = !text;
  }

  function refresh() {
    var number = ++asked;
    fetch(root.dataset.tableUrl, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      // The server out of reach (a restart): nothing to draw; the next push, poll or move
      // fetches again.
      .catch(function () { return null; })
      .then(function (html) {
        // An answer overtaken by a later fetch's is an older table: never drawn over it.
        if (html === null || number < taken) { return; }
        taken = number;
        if (html === drawn) { return; }
        // A redraw between a press and its release would swallow the click: it waits
        // for the release (and the click it makes) to finish.
        if (pressing) { pending = html; return; }
        redraw(html);
      });
  }

  function release() {
    pressing = false;
    if (pending !== null) {
      var html = pending;
      pending = null;
      setTimeout(function () { if (!pressing) { redraw(html); } else { pending = html; } }, 0);
    }
  }


  function redraw(html) {
    drawn = html;
    // Card details and zone lists the player opened stay open across the redraw. A
    // choice marked data-keep (a card chosen on a board) stays made while the game has
    // not moved on; once it has, the table's own default comes back.
    var opened = {}, kept = [], seq = root.dataset.seq;
    root.querySelectorAll("details[data-key][open]").forEach(function (d) { opened[d.dataset.key] = true; });
    root.querySelectorAll("input[data-keep]:checked").forEach(function (i) { kept.push(i.id); });
    root.innerHTML = html;
    window.gauntletKeepStyles(root);
    root.querySelectorAll("details[data-key]").forEach(function (d) { if (opened[d.dataset.key]) { d.open = true; } });
    var panel = root.querySelector(".play-panel");
    if (panel) {
      root.dataset.seq = panel.dataset.seq;
      root.dataset.status = panel.dataset.status;
    }
    if (panel && panel.dataset.seq === seq) {
      kept.forEach(function (id) {
        var input = id && document.getElementById(id);
        if (input && input.hasAttribute("data-keep") && root.contains(input)) { input.checked = true; }
      });
    }
    root.dispatchEvent(new CustomEvent("play:redrawn", { bubbles: true, detail: { changed: !panel || panel.dataset.seq !== seq } }));
  }

  function watch() {
    // The safety net while the socket is open: polling covers the time it is closed.
    setInterval(function () {
      if (socket && socket.readyState === 1 && root.dataset.status === "running" &&
          Date.now() - heard > (Number(root.dataset.silenceMs) || SILENCE_MS)) {
        heard = Date.now();
        refresh();
      }
    }, 5000);
  }

  function onMessage(event) {
    heard = Date.now();
    if (moveTimer) { clearTimeout(moveTimer); moveTimer = null; }
    var msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    var data = msg.data || {};
    if (msg.type === "error") {
      if (String(data.seq) === root.dataset.seq || data.seq === undefined) { showError(data.error); }
      return;
    }
    // A push older than the table drawn (sent before the page loaded or redrew, and
    // delivered late) has nothing new: fetching on it would redraw the same table under
    // the player's hands. A later move, or a change of status, is fetched.
    var seq = Number(data.seq), drawnSeq = Number(root.dataset.seq);
    if (!(seq < drawnSeq) && (seq !== drawnSeq || data.status !== root.dataset.status)) {
      showError("");
      refresh();
    }
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try { socket = new WebSocket(scheme + location.host + root.dataset.ws); } catch (e) { return poll(); }
    socket.onopen = function () { attempt = 0; document.body.dataset.live = "on"; stopPolling(); };
    socket.onmessage = onMessage;
    socket.onclose = function () {
      document.body.dataset.live = "off";
      poll();
      var delay = Math.min(30000, 1000 * Math.pow(2, attempt++));
      setTimeout(connect, delay);
    };
  }

  function poll() {
    if (!pollTimer) { pollTimer = setInterval(refresh, 3000); }
  }

  function stopPolling() {
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  }

  function submit(e) {
    var form = e.target;
    if (form.classList.contains("concede")) {
      if (!window.confirm(form.dataset.confirm || "?")) { e.preventDefault(); }
      return;  // concede is an ordinary post: the page reloads with the result
    }
    if (!form.classList.contains("act")) { return; }
    e.preventDefault();
    root.querySelectorAll("form.act button").forEach(function (b) { b.disabled = true; });
    drawn = null;  // the buttons now differ from the last drawing: the next one redraws
    // form.action would be the hidden input named "action", not the URL.
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(form), "X-Requested-With": "fetch", "Accept": "application/json" }
    }).then(function (r) {
      return r.json().then(function (body) { return { ok: r.ok, body: body }; });
    }).then(function (res) {
      if (!res.ok) { showError(res.body.error); refresh(); }
      else if (!socket || socket.readyState !== 1) { setTimeout(refresh, 500); }
      else if (!moveTimer) { moveTimer = setTimeout(function () { moveTimer = null; refresh(); }, MOVE_MS); }
    }).catch(function () { refresh(); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("play");
    errorBox = document.getElementById("play-error");
    if (!root) { return; }
    window.gauntletKeepStyles(root);
    root.addEventListener("submit", submit);
    root.addEventListener("pointerdown", function () { pressing = true; });
    document.addEventListener("pointerup", release);
    document.addEventListener("pointercancel", release);
    if ("WebSocket" in window) { connect(); watch(); } else { poll(); }
  });
})();
