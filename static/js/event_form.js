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

  function update(form) {
    form.querySelectorAll("[data-applies]").forEach(function (wrapper) {
      var conditions;
      try {
        conditions = JSON.parse(wrapper.getAttribute("data-applies"));
      } catch (e) {
        return;
      }
      wrapper.hidden = !applies(form, conditions);
    });
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
