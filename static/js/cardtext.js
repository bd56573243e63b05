// A table's card text popover (berserk.js, table.js): an open card's full text beside it
// while a mouse points at it or a keyboard reaches it, pinned by a tap, click or Enter (a
// sheet at the bottom of a phone: the table's CSS); a tap on it or elsewhere, ✕ or Escape
// closes it. After a redraw (play.js, "play:redrawn") a pinned text is shown again if its
// card is still there. ``window.gauntletCardText(parts)`` gives ``show(key, anchor, pin)``,
// ``showCard(el, pin)`` and ``hide(all)``; a card is known by its key (its instance):
//   table, pop: the table's selector, the popover's class (``-body``, ``-x``: its parts);
//   card(node): the card a node is in, or null; key(el): its key; find(key): the card now;
//   text(key, el): what is copied into the popover, or null;
//   point(el, target): optional, false when pointing at ``target`` shows nothing;
//   click(event, table), enter(el): optional, true when the table's own click or Enter
//   on a card handled it; redrawn(): optional, run first on a redraw;
//   blur: an unpinned text closes when the focus leaves its card (no mouse on one).
(function () {
  "use strict";

  window.gauntletCardText = function (o) {
    var pinned = null;  // the key whose text is pinned, or null
    var hovered = null;  // the card element the mouse is over
    var mouse = window.matchMedia ? window.matchMedia("(hover: hover) and (pointer: fine)") : null;

    function table() { return document.querySelector(o.table); }
    function popOf(t) { return t && t.querySelector("." + o.pop); }

    function place(pop, anchor) {
      if (!anchor || window.innerWidth <= 600) {  // a phone: the sheet at the bottom (CSS)
        pop.style.left = pop.style.top = "";
        return;
      }
      var r = anchor.getBoundingClientRect(), w = pop.offsetWidth, h = pop.offsetHeight, gap = 8;
      var left = r.right + gap;
      if (left + w > window.innerWidth - gap) { left = r.left - w - gap; }
      if (left < gap) { left = Math.max(gap, Math.min(window.innerWidth - w - gap, r.left)); }
      pop.style.left = left + "px";
      pop.style.top = Math.max(gap, Math.min(window.innerHeight - h - gap, r.top)) + "px";
    }

    function show(key, anchor, pin) {
      var pop = popOf(table()), body = pop && o.text(key, anchor);
      if (!body) { return false; }
      pop.querySelector("." + o.pop + "-body").replaceChildren(body.cloneNode(true));
      pop.dataset.iid = key === null ? "" : String(key);
      pop.classList.toggle("pinned", !!pin);
      pop.hidden = false;
      place(pop, anchor);
      if (pin) { pinned = key === null ? null : String(key); }
      return true;
    }

    function showCard(el, pin) { return show(el ? o.key(el) : null, el, pin); }

    function hide(all) {
      var pop = popOf(table());
      if (all) { pinned = null; }
      if (!pop) { return; }
      if (pinned !== null && pop.dataset.iid === pinned && !all) { return; }
      pop.hidden = true;
      pop.classList.remove("pinned");
    }

    document.addEventListener("mouseover", function (e) {
      if (!mouse || !mouse.matches || pinned !== null) { return; }
      var el = o.card(e.target);
      if (el === hovered) { return; }
      hovered = el;
      if (!el || (o.point && !o.point(el, e.target))) { hide(false); return; }
      if (!showCard(el, false)) { hide(false); }
    });

    document.addEventListener("click", function (e) {
      var t = table();
      if (!t || !e.target.closest) { return; }
      if (o.click && o.click(e, t)) { return; }
      if (e.target.closest("." + o.pop + "-x")) { hide(true); return; }
      if (e.target.closest("." + o.pop)) { return; }
      var el = o.card(e.target);
      // A tap on a card that selects it (its label) or on one of its buttons only acts.
      if (el && !e.target.closest("label, form, button")) {
        var key = o.key(el);
        if (pinned !== null && pinned === key) { hide(true); return; }
        if (showCard(el, true)) { return; }
      }
      if (pinned !== null) { hide(true); }
    });

    window.addEventListener("scroll", function () {
      var pop = popOf(table());
      if (pop && !pop.hidden && pop.dataset.iid) { place(pop, o.find(pop.dataset.iid)); }
    }, { passive: true });

    document.addEventListener("focusin", function (e) {  // a keyboard reaches a card
      var el = o.card(e.target);
      if (el && pinned === null && el === e.target) { showCard(el, false); }
    });

    if (o.blur) {
      document.addEventListener("focusout", function (e) {
        if (pinned === null && o.card(e.target) && !hovered) { hide(false); }
      });
    }

    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { hide(true); return; }
      var el = o.card(e.target);
      if (el && el === e.target && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        if (!(o.enter && o.enter(el))) { showCard(el, true); }
      }
    });

    document.addEventListener("play:redrawn", function () {
      if (o.redrawn) { o.redrawn(); }
      hovered = null;
      if (pinned === null) { return; }
      var key = pinned;
      pinned = null;
      if (!show(key, o.find(key), true)) { hide(true); }
    });

    return { show: show, showCard: showCard, hide: hide };
  };
})();
