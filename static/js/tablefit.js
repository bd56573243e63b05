// Layout of the shared table on a desktop (cards.css, ".tb-fit"): the bar at the bottom
// (.tb-dock: the prompt and the actions) is measured and its height given to the table as
// --tb-dock-h, so the viewer's hand can stay on screen just above the bar however tall the
// bar grows, the rest of the table scrolling under it. Measured again when the bar changes
// size (a card chosen, a window resized) and after every redraw (play.js, "play:redrawn").
(function () {
  "use strict";

  var watching = null;

  function fit() {
    var table = document.querySelector(".tb[data-table]");
    if (!table) { return; }
    var dock = table.querySelector(".tb-dock");
    function measure() {
      table.style.setProperty("--tb-dock-h", (dock ? dock.offsetHeight : 0) + "px");
    }
    measure();
    table.classList.add("tb-fit");
    if (watching) { watching.disconnect(); watching = null; }
    if (dock && window.ResizeObserver) {
      watching = new ResizeObserver(measure);
      watching.observe(dock);
    }
  }

  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("play:redrawn", fit);
})();
