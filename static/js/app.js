/* Bad Wi-Fi at the table: say so plainly when a request cannot reach the referee, and
   clear the message as soon as one gets through.  Nothing typed is touched: a failed
   request swaps nothing, so the cards stay where they were. */
(function () {
  "use strict";
  var box = null;
  function banner() {
    if (!box) {
      box = document.createElement("div");
      box.id = "connection";
      box.className = "connection";
      box.setAttribute("role", "alert");
      box.hidden = true;
      document.body.appendChild(box);
    }
    return box;
  }
  function say(text) {
    var b = banner();
    b.textContent = text;
    b.hidden = false;
  }
  function clear() { if (box) box.hidden = true; }
  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) window.htmx.config.timeout = 15000;
  });
  document.addEventListener("htmx:sendError", function () {
    say(document.body.dataset.offline || "No connection to the referee. Nothing was sent; what you entered is still here.");
  });
  document.addEventListener("htmx:timeout", function () {
    say(document.body.dataset.offline || "No connection to the referee. Nothing was sent; what you entered is still here.");
  });
  /* The text of an error page or fragment the server sent (its .error-box), if any. */
  function reasonIn(xhr) {
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var p = doc.querySelector(".error-box p, .field-error");
      return p ? p.textContent.trim() : "";
    } catch (err) { return ""; }
  }
  document.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail.xhr;
    if (!xhr) return;
    if (xhr.status >= 500) {
      say(document.body.dataset.servererror || "The referee hit an error. Nothing was saved; try again.");
    } else {
      /* A refusal that is not swapped into the page (403, 404, 413…) is said in the banner. */
      say(reasonIn(xhr) || document.body.dataset.refused || "The referee refused this request.");
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful) clear();
  });
})();
