// The hex board of the Ascension Tactics table (templates/play/tactics/table.html).
// Choosing a champion (on the board, or "Bring in" in the reserve) shows its layer: the
// cells it may enter, move to or attack, each attack with its line of sight. A click (or
// Enter) on a highlighted cell copies that cell's action into the table's hidden act form
// and submits it, so play.js posts it like any other button. The listeners sit on the
// document: the table is redrawn after every move and they stay valid.
(function () {
  "use strict";

  function table() { return document.querySelector(".tx.play-table"); }

  function select(fig) {
    var t = table();
    if (!t) { return; }
    t.querySelectorAll(".tx-layer, .tx-selbar").forEach(function (el) {
      var on = fig !== null && el.dataset.for === String(fig);
      if (el.dataset.for === "pending") { return; }
      el.classList.toggle("on", on);
    });
    t.querySelectorAll(".tx-piece").forEach(function (p) {
      p.classList.toggle("chosen", fig !== null && p.dataset.fig === String(fig));
    });
  }

  // "Bring in" sits in the reserve, below the board on a phone: the portals it lights up
  // and the bar that says what to do are brought on screen, or the tap seems to do nothing.
  function reveal() {
    var t = table(), bar = t && t.querySelector(".tx-selbar.on"), wrap = t && t.querySelector(".tx-boardwrap");
    if (!bar || !wrap) { return; }
    var r = bar.getBoundingClientRect(), b = wrap.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight || b.top < -b.height / 2) { wrap.scrollIntoView({ block: "nearest" }); }
  }

  function post(action) {
    var t = table();
    var form = t && t.querySelector("form.tx-post");
    if (!form) { return; }
    form.querySelector("input[name=action]").value = action;
    t.querySelectorAll(".tx-go").forEach(function (g) { g.classList.add("sent"); });
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  function activate(target) {
    var go = target.closest(".tx-go[data-action]");
    if (go) { post(go.getAttribute("data-action")); return true; }
    var piece = target.closest(".tx-piece.selectable");
    if (piece) {
      select(piece.classList.contains("chosen") && !piece.classList.contains("commanded") ? null : piece.dataset.fig);
      return true;
    }
    var pick = target.closest(".tx-pick[data-fig]");
    if (pick) { select(pick.dataset.fig); reveal(); return true; }
    if (target.closest(".tx-unsel")) { select(null); return true; }
    return false;
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest(".tx.play-table")) { return; }
    if (activate(e.target)) { e.preventDefault(); }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") { return; }
    if (!e.target.closest || !e.target.closest(".tx-board")) { return; }
    if (activate(e.target)) { e.preventDefault(); }
  });
})();
