/* The one seam through which the phone answers one of htmx's requests itself.

   htmx opens its XMLHttpRequest, says htmx:beforeSend, then sends it.  A script that knows the
   answer (static/js/engine.js: the phone's engine draws the fragment the server would) calls
   answer(xhr, produce, url) from htmx:beforeSend: that one request is then not sent; produce()
   is asked for {status, body, headers} and the request ends as if the server had answered
   that, at address url (or reply.url: the address a redirect led to).  htmx does the rest as for any answer (its response handling, swap,
   out-of-band swaps, history, HX-Trigger headers, events): no script redoes what htmx does.
   If produce() fails, the request is sent to the server after all, as it would have been.
   A request answered here carries xhr.answeredHere = true (app.js: such an answer says
   nothing about the network).

   A classic script in the page (window.Thirteen.answerHere) and a CommonJS module for Node's
   test runner (tests/js/answer-here.test.js). */
(function (root, make) {
  "use strict";
  var api = make();
  if (typeof module === "object" && module && module.exports) module.exports = api;
  else { root.Thirteen = root.Thirteen || {}; root.Thirteen.answerHere = api; }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  function define(xhr, name, value) {
    Object.defineProperty(xhr, name, { value: value, configurable: true, writable: true });
  }

  /* The header lines of headers ({name: value}), as getAllResponseHeaders says them. */
  function headerLines(headers) {
    return Object.keys(headers).map(function (name) { return name.toLowerCase() + ": " + headers[name] + "\r\n"; }).join("");
  }

  /* xhr as if the server had answered reply ({status, body, headers}) from url. */
  function respond(xhr, reply, url) {
    var headers = Object.assign({ "Content-Type": "text/html; charset=utf-8" }, reply.headers || {});
    var body = String(reply.body === undefined || reply.body === null ? "" : reply.body);
    define(xhr, "readyState", 4);
    define(xhr, "status", reply.status || 200);
    define(xhr, "statusText", "");
    define(xhr, "response", body);
    define(xhr, "responseText", body);
    define(xhr, "responseURL", url);
    define(xhr, "getResponseHeader", function (name) {
      var wanted = String(name).toLowerCase();
      var found = Object.keys(headers).filter(function (h) { return h.toLowerCase() === wanted; })[0];
      return found === undefined ? null : String(headers[found]);
    });
    define(xhr, "getAllResponseHeaders", function () { return headerLines(headers); });
    define(xhr, "answeredHere", true);
  }

  /* Answer xhr (opened, not sent yet) with what produce() resolves to, at url; then done(). */
  function answer(xhr, produce, url, done) {
    var send = xhr.send;
    define(xhr, "send", function (body) {
      function toServer() {
        delete xhr.send;  /* the server answers, as before */
        send.call(xhr, body);
      }
      Promise.resolve().then(function () { return produce(body); }).then(function (reply) {
        if (!reply) { toServer(); return; }
        respond(xhr, reply, reply.url || url);
        if (typeof xhr.onload === "function") xhr.onload({ type: "load", target: xhr });
        if (done) done(reply);
      }, toServer);
    });
  }

  return { answer: answer, respond: respond, headerLines: headerLines };
});
