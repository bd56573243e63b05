// Draft room: live refresh over the pod's websocket, tap-to-pick, sorting the picks.
(function () {
  "use strict";

  function trigger(selector, name) {
    document.querySelectorAll(selector).forEach(function (el) {
      if (window.htmx) { window.htmx.trigger(el, name); }
    });
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) { return decodeURIComponent(match[1]); }
    var field = document.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  // Packs pushed over the socket carry no CSRF field: every htmx request sends the header.
  document.addEventListener("htmx:configRequest", function (e) {
    e.detail.headers["X-CSRFToken"] = csrfToken();
  });

  // The newest pack the socket brought: {pick, html}. A pick's answer may say "waiting
  // for pick N" after the socket already brought pick N (the neighbour was faster than
  // the answer); then the pushed pack is shown again.
  var pushed = null;

  function packState() {
    var area = document.getElementById("pack-area");
    var state = area && area.querySelector(".pack-state");
    if (!state) { return null; }
    return { area: area, pick: Number(state.dataset.pick), hasPack: state.dataset.hasPack === "1" };
  }

  function showPushed() {
    var now = packState();
    if (!now || !pushed) { return; }
    // Newer than what is shown, or the very pick the page is waiting for.
    if (pushed.pick > now.pick || (pushed.pick === now.pick && !now.hasPack)) {
      now.area.innerHTML = pushed.html;
      if (window.htmx) { window.htmx.process(now.area); }
    }
  }

  // rows: [picks made, packs held, seat waited on (0-based) or null] per seat.
  // Each server process sends a pod's progress on its own schedule, so an older one can
  // arrive after a newer one: the pod's total of picks never goes down, so it tells.
  var progressTotal = -1;

  function showProgress(rows) {
    var total = rows.reduce(function (sum, row) { return sum + row[0]; }, 0);
    if (total < progressTotal) { return; }
    progressTotal = total;
    document.querySelectorAll("table.seats").forEach(function (table) {
      rows.forEach(function (row, number) {
        var tr = table.querySelector('tr[data-seat="' + number + '"]');
        if (!tr) { return; }
        var picks = tr.querySelector(".p-picks"), queue = tr.querySelector(".p-queue");
        var now = tr.querySelector(".p-now");
        if (picks) { picks.textContent = row[0]; }
        if (queue) { queue.textContent = row[1]; }
        if (now) {
          now.textContent = row[1] ? table.dataset.picking
            : (row[2] === null ? "" : table.dataset.waiting.replace("{n}", row[2] + 1));
        }
      });
    });
  }

  // While the socket is open, picks go over it (answered like the form's htmx answer);
  // without it the form posts as usual.
  var live = null;

  function showAnswer(data) {
    if (data.redirect) { location.href = data.redirect; return; }
    var area = document.getElementById("pack-area");
    if (!area) { return; }
    if (data.answer === undefined) {
      var p = document.createElement("p");
      p.className = "msg error";
      p.setAttribute("role", "alert");
      p.textContent = data.error || "";
      area.insertBefore(p, area.firstChild);
      return;
    }
    area.innerHTML = data.answer;
    if (window.htmx) { window.htmx.process(area); }
    var list = document.getElementById("pool-list");
    if (list && data.pool_item) { list.insertAdjacentHTML("beforeend", data.pool_item); }
    var head = document.getElementById("pool-head");
    if (head && data.pool_head) { head.outerHTML = data.pool_head; }
    sortPools(document);
    showPushed();
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches(".pick-form") || !live || live.readyState !== 1) { return; }
    var card = form.querySelector("input[name=card]:checked");
    if (!card) { return; }
    e.preventDefault();
    e.stopPropagation();  // capture phase: htmx does not post it as well
    if (form.dataset.sent) { return; }
    form.dataset.sent = "1";
    live.send(JSON.stringify({ pick: Number(form.querySelector("[name=pick]").value), card: card.value }));
  }, true);

  // A pack lost on the way (an overloaded server may drop a live message) must not
  // leave the page waiting: after WAIT_MS with no pack, it asks for its panel again.
  var WAIT_MS = 15000;
  setInterval(function () {
    var now = packState();
    if (!now) { return; }
    if (now.hasPack || !live) { delete now.area.dataset.waitingSince; return; }
    var since = Number(now.area.dataset.waitingSince || 0);
    if (!since) { now.area.dataset.waitingSince = String(Date.now()); return; }
    if (Date.now() - since > WAIT_MS) {
      now.area.dataset.waitingSince = String(Date.now());
      trigger("[data-live-seat]", "live-seat");
    }
  }, 1000);

  function connect(podId, attempt) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try {
      socket = new WebSocket(scheme + location.host + "/ws/draft/" + podId + "/");
    } catch (e) {
      return;
    }
    socket.onopen = function () {
      live = socket;
      document.body.dataset.live = "on";
      if (attempt > 0) {  // catch up on what happened while away
        trigger("[data-live-seat]", "live-seat");
        trigger("[data-live-pod]", "live-pod");
      }
      attempt = 0;
    };
    socket.onmessage = function (message) {
      var data = {};
      try { data = JSON.parse(message.data); } catch (e) { /* ignore */ }
      if (data.answer !== undefined || data.redirect || (data.error && !data.pack)) {
        showAnswer(data);  // a pick's answer, or the draft's end: on to deck building
      }
      else if (data.pack) {
        if (!pushed || data.pick >= pushed.pick) { pushed = { pick: data.pick, html: data.pack }; }
        showPushed();
      } else if (data.progress) { showProgress(data.progress); }
      else if (data.changed === "seat") { trigger("[data-live-seat]", "live-seat"); }
      else { trigger("[data-live-pod]", "live-pod"); }
    };
    socket.onclose = function () {
      if (live === socket) { live = null; }
      document.querySelectorAll(".pick-form[data-sent]").forEach(function (form) {
        delete form.dataset.sent;  // unanswered: the person may pick again (by the form)
      });
      document.body.dataset.live = "off";
      var delay = Math.min(30000, 1000 * Math.pow(2, attempt));
      setTimeout(function () { connect(podId, attempt + 1); }, delay);
    };
  }

  // Tapping a card selects it (and tells the server, so the timer takes it if time runs
  // out); tapping the selected card again, or "Pick this card", picks it.
  function highlight(input) {
    var form = input.form;
    if (!form || !form.dataset.highlightUrl) { return; }
    var body = new FormData();
    body.append("card", input.value);
    body.append("csrfmiddlewaretoken", csrfToken());
    fetch(form.dataset.highlightUrl, { method: "POST", body: body, credentials: "same-origin" })
      .catch(function () { /* the pick itself still works */ });
  }

  document.addEventListener("pointerdown", function (e) {
    var card = e.target.closest && e.target.closest(".pick-form .dcard");
    if (card) { card.dataset.wasChecked = card.querySelector("input").checked ? "1" : ""; }
  });
  document.addEventListener("click", function (e) {
    var card = e.target.closest && e.target.closest(".pick-form .dcard");
    if (!card || e.target.tagName === "INPUT") { return; }
    if (card.dataset.wasChecked === "1") {
      card.dataset.wasChecked = "";
      var form = card.closest("form");
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
  });
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches(".pick-form input[name=card]")) { highlight(e.target); }
  });

  var SORTS = {
    pick: function (el) { return [Number(el.dataset.pick)]; },
    colour: function (el) { return [el.dataset.colour, Number(el.dataset.cost), el.dataset.name]; },
    type: function (el) { return [Number(el.dataset.type), Number(el.dataset.cost), el.dataset.name]; },
    cost: function (el) { return [Number(el.dataset.cost), el.dataset.colour, el.dataset.name]; }
  };

  function compare(a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] < b[i]) { return -1; }
      if (a[i] > b[i]) { return 1; }
    }
    return 0;
  }

  function sortPools(root) {
    var how = localStorage.getItem("draft-sort") || "pick";
    var key = SORTS[how] || SORTS.pick;
    (root || document).querySelectorAll("[data-sortable]").forEach(function (list) {
      var items = Array.prototype.slice.call(list.children);
      items.sort(function (a, b) { return compare(key(a), key(b)); });
      items.forEach(function (item) { list.appendChild(item); });
    });
    document.querySelectorAll("[data-sort]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.dataset.sort === how ? "true" : "false");
    });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-sort]");
    if (!button) { return; }
    localStorage.setItem("draft-sort", button.dataset.sort);
    sortPools(document);
  });

  document.addEventListener("htmx:afterSwap", function () { sortPools(document); showPushed(); });

  // Review time (a new booster): the pack stays folded away while the player looks over
  // their pool, until the review countdown ends or they open it themselves.
  function endReview(review) {
    var state = review.closest(".pack-state");
    if (state) {
      var form = state.querySelector(".pick-form[hidden]");
      if (form) { form.hidden = false; }
      var timer = state.querySelector(".pick-timer[hidden]");  // the pick's own time, now running
      if (timer) { timer.hidden = false; }
    }
    review.remove();
  }

  function checkReviews() {
    document.querySelectorAll("[data-review-until]").forEach(function (review) {
      var end = Date.parse(review.dataset.reviewUntil);
      if (isNaN(end) || Date.now() >= end) { endReview(review); }
    });
  }
  setInterval(checkReviews, 500);

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-review-skip]");
    if (button) { endReview(button.closest("[data-review-until]")); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    sortPools(document);
    var head = document.querySelector("[data-pod-id]");
    if (head && "WebSocket" in window) { connect(head.dataset.podId, 0); }
  });
})();
