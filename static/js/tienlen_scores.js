/* The Tiến lên score sheet's by-hand form: as many chop rows as the game had bombs.
   The form comes with its rows (a correction with every chop of the game, and one more);
   "Another chop" adds an empty row from the page's <template>, numbered after the last. */
(function () {
  "use strict";
  function setup(button) {
    if (button.dataset.ready) return;
    button.dataset.ready = "1";
    var form = button.closest("form");
    var template = form && form.querySelector("template#ts-chop-row");
    var rows = form && form.querySelector(".ts-chop-rows");
    if (!template || !rows) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var next = rows.querySelectorAll("[data-chop-row]").length;
      var html = template.innerHTML.split("__ROW__").join(String(next));
      rows.insertAdjacentHTML("beforeend", html);
      var added = rows.lastElementChild;
      var first = added && added.querySelector("select");
      if (first) first.focus();
    });
  }
  function init(scope) {
    var found = Array.prototype.slice.call(scope.querySelectorAll("[data-action='add-chop-row']"));
    if (scope.matches && scope.matches("[data-action='add-chop-row']")) found.unshift(scope);
    found.forEach(setup);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (e) { init(e.detail.elt); });
})();
