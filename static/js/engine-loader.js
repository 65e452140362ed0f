/* Brings the referee on the phone (static/js/engine.js, named by this script's data-engine,
   after static/js/answer-here.js, its data-seam)
   once the page has settled: at once where it was ready before (it is kept on the phone), else
   1.5 s after the page loaded.  A file of its own, linked from base.html: the content policy
   allows no inline script. */
(function () {
  "use strict";
  var me = document.currentScript;
  var src = me && me.getAttribute("data-engine");
  if (!src) return;
  function bring() {
    var kept = null;
    try { kept = localStorage.getItem("thirteen-engine"); } catch (err) { /* private mode */ }
    setTimeout(function () {
      /* The seam through which the engine answers htmx's requests (data-seam), then the engine's
         script: in that order (async false). */
      [me.getAttribute("data-seam"), src].forEach(function (url) {
        if (!url) return;
        var script = document.createElement("script");
        script.src = url;
        script.async = false;
        document.head.appendChild(script);
      });
    }, kept ? 0 : 1500);
  }
  if (document.readyState === "complete") bring();
  else addEventListener("load", bring);
})();
