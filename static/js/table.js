// The shared card-game table (templates/play/components/): the chosen card, its targets,
// the X stepper and the card text popover.
//
// * Choosing: a card that may act holds a label for its radio in the bar at the bottom
//   (the bar shows while the radio is checked, also without this script; play.js keeps
//   the choice across a redraw while the game has not moved on). Here: the buttons aimed
//   at players or Tactics for that card (``.tb-aim[data-for]``) show, their places are
//   marked, and a button there submits the card's own form (``data-form``), so every
//   action is still posted by exactly one form. A tap on the chosen card lets it go.
// * The stepper: − and + move the checked radio of its form within the legal values.
// * The card's text (``.gc-body`` inside each card) is shown beside the card while a mouse
//   points at it, or pinned by a tap (a sheet at the bottom of a phone): cardtext.js, as
//   for the Berserk table; the ⓘ in the bar opens the chosen card's text.
// * Long names: a card's name with a long word (``.tb-name.long``) wraps at syllables
//   (``hyphens: auto`` in the page's language, cards.css); for a browser without a Russian
//   dictionary the syllables of a long Russian word are marked here with soft hyphens.
// The listeners sit on the document: the table is redrawn after every move.
(function () {
  "use strict";

  document.documentElement.classList.add("tb-js");

  function table() { return document.querySelector(".tb[data-table]"); }

  function chosen() {
    var t = table(), input = t && t.querySelector("input.tb-sel:checked");
    return input && input.id !== "tb-sel-none" ? input.id.replace("tb-sel-", "") : null;
  }

  // -- long Russian words: soft hyphens between syllables (the usual simple rules: after
  // й, ъ, ь; between vowels; in a run of consonants after the first one or two), never
  // leaving fewer than two letters on either side.
  var RU_A = "[абвгдеёжзийклмнопрстуфхцчшщъыьэюя]", RU_V = "[аеёиоуыэюя]", RU_C = "[бвгджзклмнпрстфхцчшщ]";
  var RU_BREAKS = [
    new RegExp("[йъь](?=" + RU_A + RU_A + ")", "gi"),
    new RegExp(RU_V + "(?=" + RU_V + RU_A + ")", "gi"),
    new RegExp(RU_V + RU_C + "(?=" + RU_C + RU_V + ")", "gi"),
    new RegExp(RU_C + RU_V + "(?=" + RU_C + RU_V + ")", "gi"),
    new RegExp(RU_V + RU_C + "(?=" + RU_C + RU_C + RU_V + ")", "gi"),
    new RegExp(RU_V + RU_C + RU_C + "(?=" + RU_C + RU_C + RU_V + ")", "gi")
  ];

  function syllables(word) {
    var at = {}, out = "";
    RU_BREAKS.forEach(function (re) {
      word.replace(re, function (m, offset) { at[offset + m.length] = true; return m; });
    });
    for (var i = 0; i < word.length; i++) {
      if (at[i] && i >= 2 && word.length - i >= 2) { out += "\u00ad"; }
      out += word[i];
    }
    return out;
  }

  function hyphenate(t) {
    t.querySelectorAll(".tb-name.long:not([data-hy])").forEach(function (el) {
      el.dataset.hy = "";
      var lang = el.closest("[lang]");
      if (lang && /^ru/i.test(lang.getAttribute("lang"))) {
        el.textContent = el.textContent.replace(/[а-яё]{8,}/gi, syllables);
      }
    });
  }

  function sync() {
    var t = table();
    if (!t) { return; }
    hyphenate(t);
    var iid = chosen();
    t.querySelectorAll(".tb-aim").forEach(function (b) { b.classList.toggle("on", iid !== null && b.dataset.for === iid); });
    t.querySelectorAll("[data-aims]").forEach(function (el) {
      el.classList.toggle("tb-target", !!el.querySelector(".tb-aim.on"));
    });
    t.querySelectorAll(".tb-card.can-sel").forEach(function (c) {
      c.classList.toggle("chosen", iid !== null && c.dataset.iid === iid);
    });
    t.querySelectorAll("form.tb-step").forEach(step);
  }

  function step(form, by) {
    var radios = Array.prototype.slice.call(form.querySelectorAll("input[type=radio][name=action]"));
    if (!radios.length) { return; }
    var at = radios.findIndex(function (r) { return r.checked; });
    if (at < 0) { at = 0; }
    if (by) { at = Math.max(0, Math.min(radios.length - 1, at + by)); }
    radios[at].checked = true;
    var out = form.querySelector(".tb-xv");
    if (out) { out.textContent = radios[at].dataset.x; }
    var minus = form.querySelector(".tb-minus"), plus = form.querySelector(".tb-plus");
    if (minus) { minus.disabled = at === 0; }
    if (plus) { plus.disabled = at === radios.length - 1; }
  }

  // -- the card's text ------------------------------------------------------------------
  function cardOf(node) {
    var el = node && node.closest ? node.closest(".tb-card[data-iid], .tb-card[data-card], .tb-chip[data-iid]") : null;
    return el && el.closest(".tb[data-table]") && !el.closest(".tb-pop") ? el : null;
  }

  function bodyOf(el) {
    var own = el.querySelector(".gc-body");
    if (own) { return own; }
    var t = table();
    return t && el.dataset.iid ? t.querySelector(".tb-card[data-iid='" + el.dataset.iid.replace(/[^0-9]/g, "") + "'] .gc-body") : null;
  }

  function cardByIid(iid) {
    var t = table();
    return t ? t.querySelector(".tb-card[data-iid='" + String(iid).replace(/[^0-9]/g, "") + "']") : null;
  }

  // The table's own clicks, before a tap on a card shows its text (cardtext.js): an aimed
  // button, the stepper, the ⓘ in the bar, the chosen card's label.
  function click(e, t) {
    var aim = e.target.closest(".tb-aim[data-form]");
    if (aim && t.contains(aim)) {
      var form = document.getElementById(aim.dataset.form);
      if (form) { if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); } }
      return true;
    }
    var stepper = e.target.closest(".tb-minus, .tb-plus");
    if (stepper && t.contains(stepper)) {
      step(stepper.closest("form"), stepper.classList.contains("tb-plus") ? 1 : -1);
      return true;
    }
    var info = e.target.closest(".tb-info[data-iid]");
    if (info && t.contains(info)) { text.showCard(cardByIid(info.dataset.iid), true); return true; }
    var pick = e.target.closest("label.tb-pick");  // never inside the popover
    if (pick && t.contains(pick)) {
      var input = document.getElementById(pick.htmlFor);
      if (input && input.checked) {  // the chosen card again: let it go
        e.preventDefault();
        var none = document.getElementById("tb-sel-none");
        if (none) { none.checked = true; }
        sync();
      }
      text.hide(true);
      return true;
    }
    return false;
  }

  var text = window.gauntletCardText({
    table: ".tb[data-table]",
    pop: "tb-pop",
    card: cardOf,
    key: function (el) { return el.dataset.iid || null; },
    text: function (iid, el) { return el ? bodyOf(el) : null; },
    find: cardByIid,
    point: function (el, target) { return !target.closest("button, form"); },
    click: click,
    enter: function (el) {  // a card that may act is chosen, as by a tap on its label
      var pick = el.querySelector("label.tb-pick");
      if (pick) { pick.click(); }
      return !!pick;
    },
    redrawn: sync
  });

  document.addEventListener("change", function (e) {
    if (e.target.classList && e.target.classList.contains("tb-sel")) { sync(); }
  });

  document.addEventListener("DOMContentLoaded", sync);
})();
