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
  // arrive after a newer one, even after the page was drawn from a newer state: the pod's
  // total of picks never goes down, so the table's own total tells which is older.
  function shownTotal() {
    var total = -1;
    document.querySelectorAll("table.seats").forEach(function (table) {
      var sum = 0;
      table.querySelectorAll(".p-picks").forEach(function (cell) {
        sum += Number(cell.textContent) || 0;
      });
      total = Math.max(total, sum);
    });
    return total;
  }

  // One wording of a waited-on seat everywhere: its name (from the seats table) and number.
  function seatWords(template, number) {
    var tr = document.querySelector('table.seats tr[data-seat="' + number + '"]');
    var name = tr ? tr.dataset.name : "";
    return template.replace("{name}", name).replace("{n}", number + 1);
  }

  function showProgress(rows) {
    var total = rows.reduce(function (sum, row) { return sum + row[0]; }, 0);
    if (total < shownTotal()) { return; }
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
            : (row[2] === null ? "" : seatWords(table.dataset.waiting, row[2]));
        }
      });
    });
    // The pack area's "waiting for" names the same seat as the table.
    var waiting = document.querySelector("#pack-area .waiting[data-seat]");
    if (waiting) {
      var mine = rows[Number(waiting.dataset.seat)];
      if (mine && !mine[1]) {
        // No seat named: no pack reaches this one again before the next booster.
        waiting.textContent = mine[2] === null ? waiting.dataset.idle
          : seatWords(waiting.dataset.waiting, mine[2]);
      }
    }
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
  // The highlight waits a moment: a double click picks the card instead, and then no
  // highlight is sent at all (the server also shrugs off one that comes after the pick).
  var HIGHLIGHT_MS = 400;
  var pendingHighlight = null;

  function highlight(input) {
    var form = input.form;
    if (!form || !form.dataset.highlightUrl) { return; }
    if (pendingHighlight) { clearTimeout(pendingHighlight); }
    pendingHighlight = setTimeout(function () {
      pendingHighlight = null;
      if (form.dataset.sent || !form.isConnected || !input.checked) { return; }
      var body = new FormData();
      body.append("card", input.value);
      body.append("pick", form.querySelector("[name=pick]").value);
      body.append("csrfmiddlewaretoken", csrfToken());
      fetch(form.dataset.highlightUrl, { method: "POST", body: body, credentials: "same-origin" })
        .catch(function () { /* the pick itself still works */ });
    }, HIGHLIGHT_MS);
  }

  document.addEventListener("submit", function (e) {
    if (e.target.matches && e.target.matches(".pick-form") && pendingHighlight) {
      clearTimeout(pendingHighlight);
      pendingHighlight = null;
    }
  }, true);

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

  // Deck builder: a tap moves a card between the deck and the sideboard (into the part of
  // the deck its game puts it first), a drag drops it into any column, and each card's menu
  // (the whole form without script) puts it anywhere. The menu's change is what htmx posts
  // to check the deck, so every way of moving a card ends in one.
  function recount(form) {
    form.querySelectorAll(".deck-column").forEach(function (column) {
      var count = column.querySelector("[data-count]");
      if (count) { count.textContent = column.querySelectorAll(".deck-pool > li").length; }
    });
  }

  function placeCard(li, key) {
    var form = li.closest("[data-deck-builder]");
    var list = form && form.querySelector('.deck-column[data-section="' + key + '"] .deck-pool');
    if (!list) { return; }
    var order = Number(li.dataset.order);
    var before = null;
    for (var i = 0; i < list.children.length; i++) {
      var other = list.children[i];
      if (other !== li && Number(other.dataset.order) > order) { before = other; break; }
    }
    if (li.parentNode !== list || li.nextElementSibling !== before) { list.insertBefore(li, before); }
    recount(form);
  }

  function moveCard(li, key) {
    var select = li.querySelector("select");
    if (!select || select.value === key) { return; }
    select.value = key;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("change", function (e) {
    var select = e.target;
    if (!select.matches || !select.matches("[data-deck-builder] .deck-pool select")) { return; }
    placeCard(select.closest("li"), select.value);
  });

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-deck-builder] [data-move]");
    if (!button) { return; }
    var li = button.closest("li");
    var select = li.querySelector("select");
    moveCard(li, select.value === "" ? li.dataset.home : "");
    button.focus();
  });

  var dragged = null;
  document.addEventListener("dragstart", function (e) {
    var li = e.target.closest && e.target.closest("[data-deck-builder] .deck-pool > li");
    if (!li) { return; }
    dragged = li;
    li.classList.add("dragging");
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", li.dataset.card || "");
  });
  document.addEventListener("dragend", function () {
    if (dragged) { dragged.classList.remove("dragging"); }
    dragged = null;
    document.querySelectorAll(".deck-column.drop-here").forEach(function (c) { c.classList.remove("drop-here"); });
  });
  document.addEventListener("dragover", function (e) {
    var column = dragged && e.target.closest && e.target.closest(".deck-column");
    if (!column) { return; }
    e.preventDefault();
    document.querySelectorAll(".deck-column.drop-here").forEach(function (c) {
      if (c !== column) { c.classList.remove("drop-here"); }
    });
    column.classList.add("drop-here");
  });
  document.addEventListener("drop", function (e) {
    var column = dragged && e.target.closest && e.target.closest(".deck-column");
    if (!column) { return; }
    e.preventDefault();
    column.classList.remove("drop-here");
    moveCard(dragged, column.dataset.section);
  });

  // A finger drags a card too (pointer events; the mouse keeps the native drag above).
  // The card is held still for a moment first, so a swipe over the cards still scrolls
  // the page; once held, the page stops scrolling, the card follows the finger and drops
  // into the column under it. A tap still moves it (the button's click, as before).
  var HOLD_MS = 250;
  var SLOP_PX = 8;
  var held = null;
  var swallowClickUntil = 0;

  function columnAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest("[data-deck-builder] .deck-column") : null;
  }
  function markDrop(column) {
    document.querySelectorAll(".deck-column.drop-here").forEach(function (c) {
      if (c !== column) { c.classList.remove("drop-here"); }
    });
    if (column) { column.classList.add("drop-here"); }
  }
  function release() {
    if (!held) { return; }
    clearTimeout(held.timer);
    var li = held.li;
    li.classList.remove("dragging", "touch-dragging");
    li.style.transform = li.style.position = li.style.zIndex = li.style.pointerEvents = "";
    markDrop(null);
    held = null;
  }
  document.addEventListener("pointerdown", function (e) {
    if (e.pointerType === "mouse" || held || !e.isPrimary) { return; }
    var li = e.target.closest && e.target.closest("[data-deck-builder] .deck-pool > li");
    if (!li || e.target.closest("select")) { return; }
    held = { li: li, id: e.pointerId, x: e.clientX, y: e.clientY, active: false, moved: false };
    held.timer = setTimeout(function () {
      if (!held) { return; }
      held.active = true;
      li.classList.add("dragging", "touch-dragging");
      li.style.position = "relative";
      li.style.zIndex = "10";
      li.style.pointerEvents = "none"; // the column under the finger, not the card, is hit
      if (navigator.vibrate) { navigator.vibrate(15); }
    }, HOLD_MS);
  });
  document.addEventListener("pointermove", function (e) {
    if (!held || e.pointerId !== held.id) { return; }
    var dx = e.clientX - held.x, dy = e.clientY - held.y;
    if (!held.active) {
      if (Math.abs(dx) > SLOP_PX || Math.abs(dy) > SLOP_PX) { release(); } // a swipe: scroll
      return;
    }
    e.preventDefault();
    if (Math.abs(dx) > SLOP_PX || Math.abs(dy) > SLOP_PX) { held.moved = true; }
    held.li.style.transform = "translate(" + dx + "px, " + dy + "px)";
    markDrop(columnAt(e.clientX, e.clientY));
  });
  // Once a card is held, the finger's moves drag it instead of scrolling the page.
  document.addEventListener("touchmove", function (e) {
    if (held && held.active && e.cancelable) { e.preventDefault(); }
  }, { passive: false });
  document.addEventListener("pointerup", function (e) {
    if (!held || e.pointerId !== held.id) { return; }
    var li = held.li, dragged = held.active && held.moved;
    var column = dragged ? columnAt(e.clientX, e.clientY) : null;
    release();
    if (!dragged) { return; } // a tap, however slow: its click moves the card
    swallowClickUntil = Date.now() + 500;
    if (column) { moveCard(li, column.dataset.section); }
  });
  document.addEventListener("pointercancel", release);
  document.addEventListener("dragstart", release, true); // the browser's own drag took over
  document.addEventListener("contextmenu", function (e) {
    if (held && held.active) { e.preventDefault(); }
  });
  document.addEventListener("click", function (e) {
    if (Date.now() < swallowClickUntil && e.target.closest && e.target.closest("[data-deck-builder]")) {
      swallowClickUntil = 0;
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);

  document.addEventListener("DOMContentLoaded", function () {
    sortPools(document);
    var head = document.querySelector("[data-pod-id]");
    if (head && "WebSocket" in window) { connect(head.dataset.podId, 0); }
  });
})();
