/* A group's "Start tonight's" forms: each person is one tap, in seat order (referee/web/groups).
   Without this script the seats are plain name fields (a list of the group's people offered). */
(function () {
  "use strict";

  function seats(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[data-seat]"));
  }

  function mark(form) {
    var fields = seats(form);
    var seated = fields.map(function (f) { return f.value.trim().toLowerCase(); });
    form.querySelectorAll("button[data-person]").forEach(function (chip) {
      var at = seated.indexOf(chip.dataset.person.toLowerCase());
      chip.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      var no = chip.querySelector(".seat-no");
      if (at >= 0) {
        if (!no) {
          no = document.createElement("span");
          no.className = "seat-no";
          chip.insertBefore(no, chip.firstChild);
        }
        no.textContent = String(at + 1);
      } else if (no) {
        no.remove();
      }
    });
  }

  function tap(form, chip) {
    var fields = seats(form);
    var name = chip.dataset.person;
    var at = fields.findIndex(function (f) { return f.value.trim().toLowerCase() === name.toLowerCase(); });
    if (at >= 0) {  // out again: the players after move up a seat
      for (var i = at; i < fields.length - 1; i += 1) fields[i].value = fields[i + 1].value;
      fields[fields.length - 1].value = "";
    } else {
      var free = fields.find(function (f) { return !f.value.trim(); });
      if (!free) return;
      free.value = name;
    }
    mark(form);
  }

  function wire(root) {
    (root || document).querySelectorAll("form[data-group-start]").forEach(function (form) {
      if (form.dataset.wired) return;
      form.dataset.wired = "1";
      var pick = form.querySelector("[data-pick]");
      if (pick) pick.hidden = false;
      form.addEventListener("click", function (event) {
        var chip = event.target.closest("button[data-person]");
        if (chip && form.contains(chip)) {
          event.preventDefault();
          tap(form, chip);
        }
      });
      form.addEventListener("input", function () { mark(form); });
      mark(form);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { wire(document); });
  document.addEventListener("htmx:afterSwap", function (event) { wire(event.target); });
  if (document.readyState !== "loading") wire(document);
})();
