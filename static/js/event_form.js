/* The create-event form shows only the fields that apply: each field wrapper with
   data-applies holds a list of conditions (any one of them; each names fields and the
   values they must have). Without this script every field shows; the server checks all. */
(function () {
  "use strict";

  function valueOf(form, name) {
    var field = form.elements[name];
    if (!field) return "";
    if (field.type === "checkbox") return field.checked ? "on" : "";
    return field.value;
  }

  function applies(form, conditions) {
    return conditions.some(function (condition) {
      return Object.keys(condition).every(function (name) {
        return condition[name].indexOf(valueOf(form, name)) !== -1;
      });
    });
  }

  // Only the chosen game's formats are offered (the game's select lists them by game).
  function limitFormats(form) {
    var game = form.elements.game_system, format = form.elements.format, byGame;
    if (!game || !format || !game.getAttribute("data-formats")) return;
    try {
      byGame = JSON.parse(game.getAttribute("data-formats"));
    } catch (e) {
      return;
    }
    var allowed = byGame[game.value];
    if (!allowed || !allowed.length) return;
    Array.prototype.forEach.call(format.options, function (option) {
      var offered = allowed.indexOf(option.value) !== -1;
      option.hidden = !offered;
      option.disabled = !offered;
    });
    if (allowed.indexOf(format.value) === -1) format.value = allowed[0];
  }

  function update(form) {
    limitFormats(form);
    form.querySelectorAll("[data-applies]").forEach(function (wrapper) {
      var conditions;
      try {
        conditions = JSON.parse(wrapper.getAttribute("data-applies"));
      } catch (e) {
        return;
      }
      wrapper.hidden = !applies(form, conditions);
    });
    // Hidden, players per game is 2: the only count the other formats allow.
    var seats = form.elements.players_per_game;
    if (seats && seats.closest("[data-applies]") && seats.closest("[data-applies]").hidden) {
      seats.value = "2";
    }
  }

  function start() {
    document.querySelectorAll("form[data-event-form]").forEach(function (form) {
      form.addEventListener("change", function () { update(form); });
      update(form);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
