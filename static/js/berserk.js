// The Berserk table's card popover (cardtext.js): the full text of an open card (its
// ``.bt-info`` in the table's ``.bt-lib``, rendered by the server in the page's language)
// shown beside the card while a mouse points at it, or pinned on a tap or click (at the
// bottom of a phone's screen). A card that may act is selected by a tap; the ⓘ in its
// caption opens its text. The names of cards in the stack and fight lines
// (``.bt-ref[data-iid]``) open it alike. A pinned card is shown again from the redrawn
// table if it is still open to this viewer, else the popover closes.
(function () {
  "use strict";

  function table() { return document.querySelector(".bt.play-table"); }

  function cardOf(node) {
    var el = node && node.closest ? node.closest("[data-iid]") : null;
    return el && el.closest(".bt.play-table") && !el.closest(".bt-lib, .bt-pop") ? el : null;
  }

  function infoOf(iid) {
    var t = table();
    return t ? t.querySelector(".bt-lib [data-info='" + String(iid).replace(/[^0-9]/g, "") + "']") : null;
  }

  function anchorOf(iid) {
    var t = table();
    return t && t.querySelector(".bt-piece[data-iid='" + iid + "'], .bt-chip[data-iid='" + iid + "'], .bt-ref[data-iid='" + iid + "']");
  }

  var text = window.gauntletCardText({
    table: ".bt.play-table",
    pop: "bt-pop",
    card: cardOf,
    key: function (el) { return el.dataset.iid; },
    text: function (iid) { return infoOf(iid); },
    find: anchorOf,
    point: function (el) {
      if (el.hasAttribute("title")) {  // the popover replaces the browser's own tooltip
        el.dataset.title = el.getAttribute("title");
        el.removeAttribute("title");
      }
      return true;
    },
    click: function (e, t) {  // the ⓘ in a chosen card's caption
      var button = e.target.closest(".bt-ibtn");
      if (!button || !t.contains(button)) { return false; }
      e.preventDefault();
      text.show(button.dataset.show, anchorOf(button.dataset.show) || button, true);
      return true;
    },
    redrawn: function () { aim(); },
    blur: true
  });

  // The cards in the Additional Zones that the chosen card may act on (their buttons are
  // in the caption above the board) are marked, as the cells on the board are.
  function aim() {
    var t = table();
    if (!t) { return; }
    t.querySelectorAll(".bt-aim").forEach(function (el) { el.classList.remove("bt-aim"); });
    var chosen = t.querySelector("input.bt-sel:checked");
    var layer = chosen && chosen.nextElementSibling;
    if (!layer || !layer.classList.contains("bt-layer")) { return; }
    layer.querySelectorAll(".bt-offs button[data-action]").forEach(function (b) {
      var action;
      try { action = JSON.parse(b.dataset.action); } catch (e) { return; }
      if (action && action.target !== undefined) {
        t.querySelectorAll(".bt-az .bt-piece[data-iid='" + Number(action.target) + "']").forEach(function (el) {
          el.classList.add("bt-aim");
        });
      }
    });
  }

  document.addEventListener("change", function (e) {
    if (e.target.classList && e.target.classList.contains("bt-sel")) { aim(); }
  });

  // A Resurrection's or Redistribution's menu on the board (``details.bt-menu``): one open
  // at a time; the choice pointed at marks the card it would wound (``to``) on the board.
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.classList || !d.classList.contains("bt-menu") || !d.open) { return; }
    var t = table();
    if (t) {
      t.querySelectorAll("details.bt-menu[open]").forEach(function (o) { if (o !== d) { o.open = false; } });
    }
  }, true);

  function mark(button, on) {
    var t = table(), action;
    if (!t) { return; }
    t.querySelectorAll(".bt-piece.bt-mark").forEach(function (el) { el.classList.remove("bt-mark"); });
    if (!on || !button) { return; }
    try { action = JSON.parse(button.dataset.action); } catch (err) { return; }
    if (action && action.to !== undefined) {
      t.querySelectorAll(".bt-piece[data-iid='" + Number(action.to) + "']").forEach(function (el) {
        el.classList.add("bt-mark");
      });
    }
  }

  ["mouseover", "focusin"].forEach(function (kind) {
    document.addEventListener(kind, function (e) {
      var b = e.target.closest ? e.target.closest(".bt-menu-list button[data-action]") : null;
      mark(b, !!b);
    });
  });
  document.addEventListener("DOMContentLoaded", aim);
})();
