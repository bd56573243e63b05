// Draft room: live refresh over the pod's websocket, tap-to-pick, sorting the picks.
(function () {
  "use strict";

  function trigger(selector, name) {
    document.querySelectorAll(selector).forEach(function (el) {
      if (window.htmx) { window.htmx.trigger(el, name); }
    });
  }

  function connect(podId, attempt) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try {
      socket = new WebSocket(scheme + location.host + "/ws/draft/" + podId + "/");
    } catch (e) {
      return;
    }
    socket.onopen = function () {
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
      if (data.changed === "seat") { trigger("[data-live-seat]", "live-seat"); }
      else { trigger("[data-live-pod]", "live-pod"); }
    };
    socket.onclose = function () {
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
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
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

  document.addEventListener("htmx:afterSwap", function () { sortPools(document); });

  document.addEventListener("DOMContentLoaded", function () {
    sortPools(document);
    var head = document.querySelector("[data-pod-id]");
    if (head && "WebSocket" in window) { connect(head.dataset.podId, 0); }
  });
})();
