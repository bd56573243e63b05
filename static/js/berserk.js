// The Berserk table's card popover: the full text of an open card (its ``.bt-info`` in the
// table's ``.bt-lib``, rendered by the server in the page's language) shown beside the card
// while a mouse points at it, or pinned on a tap or click (at the bottom of a phone's
// screen). A card that may act is selected by a tap; the ⓘ in its caption opens its text.
// The names of cards in the stack and fight lines (``.bt-ref[data-iid]``) open it alike.
// The table is redrawn by play.js ("play:redrawn"): a pinned card is shown again from the
// new table if it is still open to this viewer, else the popover closes.
(function () {
  "use strict";

  var pinned = null;  // the instance whose text is pinned, or null
  var hovered = null;  // the card element the mouse is over
  var mouse = window.matchMedia ? window.matchMedia("(hover: hover) and (pointer: fine)") : null;

  function table() { return document.querySelector(".bt.play-table"); }

  function cardOf(node) {
    var el = node && node.closest ? node.closest("[data-iid]") : null;
    return el && el.closest(".bt.play-table") && !el.closest(".bt-lib, .bt-pop") ? el : null;
  }

  function infoOf(iid) {
    var t = table();
    return t ? t.querySelector(".bt-lib [data-info='" + String(iid).replace(/[^0-9]/g, "") + "']") : null;
  }

  function place(pop, anchor) {
    if (!anchor || window.innerWidth <= 600) {  // a phone: the sheet at the bottom (CSS)
      pop.style.left = pop.style.top = "";
      return;
    }
    var r = anchor.getBoundingClientRect(), w = pop.offsetWidth, h = pop.offsetHeight, gap = 8;
    var left = r.right + gap;
    if (left + w > window.innerWidth - gap) { left = r.left - w - gap; }
    if (left < gap) { left = Math.max(gap, Math.min(window.innerWidth - w - gap, r.left)); }
    var top = Math.max(gap, Math.min(window.innerHeight - h - gap, r.top));
    pop.style.left = left + "px";
    pop.style.top = top + "px";
  }

  function show(iid, anchor, pin) {
    var t = table(), info = infoOf(iid);
    var pop = t && t.querySelector(".bt-pop");
    if (!pop || !info) { return false; }
    var body = pop.querySelector(".bt-pop-body");
    body.replaceChildren(info.cloneNode(true));
    pop.dataset.iid = String(iid);
    pop.classList.toggle("pinned", !!pin);
    pop.hidden = false;
    place(pop, anchor);
    if (pin) { pinned = String(iid); }
    return true;
  }

  function hide(all) {
    var t = table(), pop = t && t.querySelector(".bt-pop");
    if (all) { pinned = null; }
    if (!pop) { return; }
    if (pinned !== null && pop.dataset.iid === pinned && !all) { return; }
    pop.hidden = true;
    pop.classList.remove("pinned");
  }

  function anchorOf(iid) {
    var t = table();
    return t && t.querySelector(".bt-piece[data-iid='" + iid + "'], .bt-chip[data-iid='" + iid + "'], .bt-ref[data-iid='" + iid + "']");
  }

  document.addEventListener("mouseover", function (e) {
    if (!mouse || !mouse.matches || pinned !== null) { return; }
    var el = cardOf(e.target);
    if (el === hovered) { return; }
    hovered = el;
    if (!el) { hide(false); return; }
    if (el.hasAttribute("title")) {  // the popover replaces the browser's own tooltip
      el.dataset.title = el.getAttribute("title");
      el.removeAttribute("title");
    }
    if (!show(el.dataset.iid, el, false)) { hide(false); }
  });

  document.addEventListener("click", function (e) {
    var t = table();
    if (!t) { return; }
    var button = e.target.closest ? e.target.closest(".bt-ibtn") : null;
    if (button && t.contains(button)) {
      e.preventDefault();
      show(button.dataset.show, anchorOf(button.dataset.show) || button, true);
      return;
    }
    if (e.target.closest(".bt-pop-x")) { hide(true); return; }
    if (e.target.closest(".bt-pop")) { return; }
    var el = cardOf(e.target);
    // A tap on a card that selects it (its label) or on one of its buttons only acts.
    if (el && !e.target.closest("label, form, button")) {
      if (pinned === el.dataset.iid) { hide(true); return; }
      if (show(el.dataset.iid, el, true)) { return; }
    }
    if (pinned !== null) { hide(true); }
  });

  window.addEventListener("scroll", function () {
    var t = table(), pop = t && t.querySelector(".bt-pop");
    if (pop && !pop.hidden) { place(pop, anchorOf(pop.dataset.iid)); }
  }, { passive: true });

  document.addEventListener("focusin", function (e) {  // a keyboard reaches a card
    var el = cardOf(e.target);
    if (el && pinned === null && el === e.target) { show(el.dataset.iid, el, false); }
  });

  document.addEventListener("focusout", function (e) {
    if (pinned === null && cardOf(e.target) && !hovered) { hide(false); }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { hide(true); return; }
    var el = cardOf(e.target);
    if (el && el === e.target && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      show(el.dataset.iid, el, true);
    }
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

  document.addEventListener("play:redrawn", function () {
    aim();
    hovered = null;
    if (pinned === null) { return; }
    var iid = pinned;
    pinned = null;
    if (!show(iid, anchorOf(iid), true)) { hide(true); }
  });
})();
