// A logged-in user's notices: the unread count in the header, and a live notice on
// whatever page is open when something happens (/ws/notifications/, the user's own group).
(function () {
  "use strict";

  var MAX_SHOWN = 3;
  var unread = 0;

  function showCount() {
    document.querySelectorAll("[data-notice-count]").forEach(function (el) {
      el.textContent = unread > 99 ? "99+" : String(unread);
      el.hidden = unread <= 0;
    });
  }

  function show(area, notice) {
    var item = document.createElement("div");
    item.className = "live-notice";
    item.setAttribute("role", "status");
    item.dataset.noticeId = String(notice.id);
    var title = document.createElement(notice.url ? "a" : "strong");
    title.className = "live-notice-title";
    title.textContent = notice.title || "";
    if (notice.url) { title.href = notice.url; }
    item.appendChild(title);
    if (notice.body) {
      var body = document.createElement("p");
      body.textContent = notice.body;
      item.appendChild(body);
    }
    var close = document.createElement("button");
    close.type = "button";
    close.className = "live-notice-close";
    close.setAttribute("aria-label", area.dataset.close || "Close");
    close.textContent = "\u00d7";
    close.addEventListener("click", function () { item.remove(); });
    item.appendChild(close);
    area.insertBefore(item, area.firstChild);
    while (area.children.length > MAX_SHOWN) { area.removeChild(area.lastChild); }
  }

  function connect(area, attempt) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var lang = encodeURIComponent(area.dataset.lang || "");
    var socket;
    try {
      socket = new WebSocket(scheme + location.host + "/ws/notifications/?lang=" + lang);
    } catch (e) {
      return;
    }
    socket.onopen = function () { attempt = 0; area.dataset.connected = "on"; };
    socket.onmessage = function (e) {
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      if (typeof data.unread === "number") { unread = data.unread; showCount(); }
      if (data.notice) {
        unread += 1;
        showCount();
        show(area, data.notice);
      }
    };
    socket.onclose = function (e) {
      area.dataset.connected = "off";
      if (e.code === 4401) { return; }  // logged out: nothing to listen for
      var delay = Math.min(30000, 1000 * Math.pow(2, attempt));
      setTimeout(function () { connect(area, attempt + 1); }, delay);
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    var area = document.querySelector("[data-live-notices]");
    if (area && "WebSocket" in window) { connect(area, 0); }
  });
})();
