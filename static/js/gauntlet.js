// Gauntlet pages: live refresh over a websocket, and the round clock.
(function () {
  "use strict";

  // A redrawn part (a game table, a replay step) brings its own stylesheets. A link drawn
  // afresh loads its sheet again, and until it has the part shows unstyled (for a few
  // frames on each redraw): a copy of each in the head, made at the first sight of it,
  // keeps it applied across redraws (static/js/play.js, static/js/replay.js).
  window.gauntletKeepStyles = function (root) {
    root.querySelectorAll('link[rel="stylesheet"]').forEach(function (link) {
      var href = link.getAttribute("href");
      var kept = false;
      document.head.querySelectorAll('link[rel="stylesheet"]').forEach(function (l) {
        if (l.getAttribute("href") === href) { kept = true; }
      });
      if (!kept) { document.head.appendChild(link.cloneNode(false)); }
    });
  };

  // A part marked data-live-unless-focused is not redrawn while the person types in it.
  function refreshLive() {
    document.querySelectorAll("[data-live]").forEach(function (el) {
      if (el.hasAttribute("data-live-unless-focused") && el.contains(document.activeElement)) { return; }
      if (window.htmx) { window.htmx.trigger(el, "live"); }
    });
  }

  function connect(eventId, attempt) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try {
      socket = new WebSocket(scheme + location.host + "/ws/events/" + eventId + "/");
    } catch (e) {
      return;
    }
    socket.onopen = function () {
      document.body.dataset.live = "on";
      if (attempt > 0) { refreshLive(); }  // catch up on what happened while away
      attempt = 0;
    };
    socket.onmessage = function () { refreshLive(); };
    socket.onclose = function () {
      document.body.dataset.live = "off";
      var delay = Math.min(30000, 1000 * Math.pow(2, attempt));
      setTimeout(function () { connect(eventId, attempt + 1); }, delay);
    };
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tickClocks() {
    document.querySelectorAll(".timer[data-ends-at]").forEach(function (el) {
      var end = Date.parse(el.dataset.endsAt);
      var clock = el.querySelector(".clock");
      if (!clock || isNaN(end)) { return; }
      var left = Math.round((end - Date.now()) / 1000);
      var text;
      if (left <= 0) {
        text = el.dataset.done || "0:00";
        el.classList.add("over");
      } else {
        var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
        text = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
      }
      // Written only when it changes: each write is a change the observer below sees.
      if (clock.textContent !== text) { clock.textContent = text; }
      if (left <= 0) { return; }
      el.classList.toggle("low", left < 300);
    });
  }

  // Highlight the viewer's own row (the table itself is cached for everybody).
  function markMe(root) {
    (root || document).querySelectorAll("table[data-me]").forEach(function (table) {
      var me = table.dataset.me;
      if (!me) { return; }
      var row = table.querySelector('tr[data-player="' + me + '"]');
      if (row) { row.classList.add("me"); }
    });
  }

  document.addEventListener("htmx:afterSwap", function (e) { markMe(e.target); });

  // What inline handlers (onchange=, onsubmit=, onclick=) used to do: the
  // Content-Security-Policy runs no script written into the page.
  document.addEventListener("change", function (e) {
    var el = e.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) { el.form.submit(); }
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var question = form.getAttribute && form.getAttribute("data-confirm-submit");
    if (question && !window.confirm(question)) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);  // capture: before any other handler posts the form
  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest("[data-select-on-click]");
    if (el && el.select) { el.select(); }
  });
  // A panel marked data-poll-when-visible asks nothing while its tab is in the background.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var el = e.detail && e.detail.elt;
    if (document.visibilityState !== "visible" && el && el.closest && el.closest("[data-poll-when-visible]")) {
      e.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    markMe(document);
    var head = document.querySelector("[data-event-id]");
    if (head && "WebSocket" in window) { connect(head.dataset.eventId, 0); }
    tickClocks();
    setInterval(tickClocks, 1000);
    // A clock drawn by a swap or a push (a new pack, a redrawn table) shows its time at
    // once, not "--:--" until the next tick.
    var pending = false;
    new MutationObserver(function (changes) {
      if (pending) { return; }
      var added = changes.some(function (c) {
        return c.addedNodes.length > 0 && !(c.target.closest && c.target.closest(".clock"));
      });
      if (!added) { return; }
      pending = true;
      window.requestAnimationFrame(function () { pending = false; tickClocks(); });
    }).observe(document.body, { childList: true, subtree: true });
  });
})();
