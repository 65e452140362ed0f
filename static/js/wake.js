/* The screen stays on while a game's page is open at the table: players put the phone down
   between hands and should not come back to a dark, locked phone.  The Screen Wake Lock API
   where the browser offers it; the lock is let go by the browser when the page is hidden, so
   it is taken again when the page comes back into view.  Where the API is missing, or the
   browser refuses (low battery, no permission), nothing is said: the phone simply sleeps as
   it would.  A game's page is one whose head carries #thirteen-game (base.html); a boosted
   move to another page (htmx's head-support swaps the head) lets the lock go. */
(function () {
  "use strict";
  if (window.thirteenWake) return;  /* loaded again by a boosted page's head */
  var lock = null;
  var asking = false;
  function wanted() { return !!document.getElementById("thirteen-game"); }
  function take() {
    if (!("wakeLock" in navigator) || !navigator.wakeLock || lock || asking) return;
    if (document.visibilityState !== "visible" || !wanted()) return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      if (sentinel && sentinel.addEventListener) {
        sentinel.addEventListener("release", function () { if (lock === sentinel) lock = null; });
      }
      if (!wanted()) let_go();
    }, function () { asking = false; /* refused: the phone sleeps as it would */ });
  }
  function let_go() {
    var held = lock;
    lock = null;
    if (held && held.release) held.release().catch(function () { /* already released */ });
  }
  function update() { if (wanted()) take(); else let_go(); }
  window.thirteenWake = { update: update, held: function () { return !!lock; } };
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") take(); else lock = null;
  });
  document.addEventListener("htmx:afterSettle", update);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
})();
