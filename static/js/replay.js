// Replay page: the controls step through the recorded game without reloading the page.
// Each step is the server's fragment of the table after k moves (public view only);
// without this script every control is an ordinary link or form to ?step=k.
(function () {
  "use strict";

  var PLAY_MS = 1200;
  var root, controls, slider, output, playButton, submitButton;
  var step = 0, total = 0, timer = null, busy = false, wanted = null;

  function clamp(k) { return Math.max(0, Math.min(total, k)); }

  function pageUrl(k) { return root.dataset.replayUrl + "?step=" + k; }

  function setLink(name, k, enabled) {
    var link = controls.querySelector("[data-go=" + name + "]");
    if (!link) { return; }
    link.setAttribute("href", pageUrl(k));
    if (enabled) { link.removeAttribute("aria-disabled"); } else { link.setAttribute("aria-disabled", "true"); }
  }

  function update() {
    setLink("first", 0, step > 0);
    setLink("back", clamp(step - 1), step > 0);
    setLink("forward", clamp(step + 1), step < total);
    setLink("last", total, step < total);
    // A slider being dragged or keyed keeps what the person chose; the step follows it.
    if (slider && document.activeElement !== slider) { slider.value = String(step); }
    if (output) { output.textContent = (slider ? slider.value : step) + " / " + total; }
    if (playButton) {
      playButton.classList.toggle("is-playing", !!timer);
      playButton.setAttribute("aria-pressed", timer ? "true" : "false");
    }
  }


  function show(k) {
    k = clamp(k);
    if (busy) { wanted = k; return; }
    busy = true;
    var opened = {};
    root.querySelectorAll("details[data-key]").forEach(function (d) { opened[d.dataset.key] = d.open; });
    fetch(root.dataset.fragmentUrl + "?step=" + k, {
      credentials: "same-origin", headers: { "X-Requested-With": "fetch" }
    }).then(function (r) {
      if (!r.ok) { throw new Error("step " + k + ": " + r.status); }
      return r.text();
    }).then(function (html) {
      root.innerHTML = html;
      window.gauntletKeepStyles(root);
      root.querySelectorAll("details[data-key]").forEach(function (d) {
        if (Object.prototype.hasOwnProperty.call(opened, d.dataset.key)) { d.open = opened[d.dataset.key]; }
      });
      step = k;
      root.dataset.step = String(k);
      history.replaceState(null, "", pageUrl(k));
      // The language switch comes back to the step shown, not to the one first opened.
      document.querySelectorAll("form.lang input[name=next]").forEach(function (i) { i.value = pageUrl(k); });
      update();
      root.dispatchEvent(new CustomEvent("play:redrawn", { bubbles: true, detail: { changed: true } }));
      busy = false;
      if (wanted !== null) { var next = wanted; wanted = null; if (next !== step) { show(next); } }
    }).catch(function () {
      location.href = pageUrl(k);  // the page itself says what went wrong
    });
  }

  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    update();
  }

  function play() {
    if (timer) { stop(); return; }
    if (step >= total) { show(0); }
    timer = setInterval(function () {
      if (busy) { return; }
      if (step >= total) { stop(); return; }
      show(step + 1);
    }, PLAY_MS);
    update();
  }

  function seek(k) {
    // Read before stopping: stopping redraws the controls from the step shown.
    if (timer) { clearInterval(timer); timer = null; }
    show(k);
  }

  function go(name) {
    stop();
    if (name === "first") { show(0); }
    else if (name === "back") { show(step - 1); }
    else if (name === "forward") { show(step + 1); }
    else if (name === "last") { show(total); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("replay");
    controls = document.querySelector("[data-replay-controls]");
    if (!root || !controls || !window.fetch) { return; }
    window.gauntletKeepStyles(root);
    step = Number(root.dataset.step) || 0;
    total = Number(root.dataset.total) || 0;
    slider = controls.querySelector("input[type=range]");
    output = controls.querySelector("[data-step-out]");
    playButton = controls.querySelector("[data-play]");
    submitButton = controls.querySelector("[data-go-submit]");
    if (submitButton) { submitButton.hidden = true; }
    if (playButton) { playButton.hidden = false; playButton.addEventListener("click", play); }
    controls.addEventListener("click", function (e) {
      var link = e.target.closest ? e.target.closest("[data-go]") : null;
      if (!link || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
      e.preventDefault();
      if (link.getAttribute("aria-disabled") === "true") { return; }
      go(link.dataset.go);
    });
    if (slider) {
      var scrub = null;
      slider.addEventListener("input", function () {
        if (output) { output.textContent = slider.value + " / " + total; }
        if (scrub) { clearTimeout(scrub); }
        scrub = setTimeout(function () { scrub = null; seek(Number(slider.value)); }, 150);
      });
      slider.addEventListener("change", function () {
        if (scrub) { clearTimeout(scrub); scrub = null; }
        seek(Number(slider.value));
      });
      slider.form.addEventListener("submit", function (e) { e.preventDefault(); seek(Number(slider.value)); });
    }
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      if (e.altKey || e.ctrlKey || e.metaKey || (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
      if (e.key === "ArrowLeft") { e.preventDefault(); go("back"); }
      else if (e.key === "ArrowRight") { e.preventDefault(); go("forward"); }
    });
    update();
  });
})();
