/* At a followed table whose page loads this script: after an action (a play, a draw, a
   call, an undo, a refusal) the answer replaces the table; bring the dock ([data-after-action]:
   the result and whose turn it is, beside Play; once the hand is over, the answer's own result)
   into view when it is not, so a tap never seems to do nothing.  Polls (GETs) leave the page
   where it is, and nothing outside the answer (the engine's status line in the footer) is ever
   scrolled to.  A table whose answers are swapped with htmx's show:window:top needs none of it. */
(function () {
  "use strict";
  document.addEventListener("htmx:afterSwap", function (e) {
    var cfg = e.detail.requestConfig;
    if (!cfg || cfg.verb === "get") return;
    var box = document.querySelector("[data-after-action]") ||
      document.querySelector("main [data-live] [data-refusal], main [data-live] [role=status]");
    if (!box) return;
    var r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) box.scrollIntoView({ block: "nearest" });
  });
})();
