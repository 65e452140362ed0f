/* At a followed table: after an action (a play, a pass, a draw, a call, an undo, a
   refusal) the answer replaces the table; bring its result and whose turn it is
   ([data-after-action]) into view, so a tap never seems to do nothing.  Polls (GETs)
   leave the page where it is. */
(function () {
  "use strict";
  document.addEventListener("htmx:afterSwap", function (e) {
    var cfg = e.detail.requestConfig;
    if (!cfg || cfg.verb === "get") return;
    var box = document.querySelector("[data-after-action]");
    if (!box) box = document.querySelector("[data-refusal], [role=status]");
    if (!box) return;
    var r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) box.scrollIntoView({ block: "nearest" });
  });
})();
