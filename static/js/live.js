/* Live at the table: a followed page follows its game's event stream (referee/web/live.py).

   The markup is htmx's own (base.html: hx-ext="sse" sse-connect="<page>/live"; the poll element
   of partials/followed.html: hx-trigger="every 3s, sse:version" sse-swap="fragment": the stream
   sends the fragment itself, or the version alone for the poll to ask).  This file adds:

   - one stream per visible page: a tab in the background closes its stream and follows by
     polling (a phone with many tabs never holds more than the few connections a browser allows
     a server over HTTP/1.1: 6), and opens it again when it comes back (sent the state first);
   - while the stream is open, the 3-second poll is let through only every 30 s (a safety net);
     where no stream can open (a proxy that does not pass them, a game started offline and
     answered on the phone), the poll goes on every 3 s as before;
   - an event whose version the page already shows asks nothing; one that came while the page
     was being swapped is asked for once the new poll element is in;
   - a stream that fails is not reported to htmx's extension (which logs each failure) but asked
     again here: by the browser itself after a dropped connection, after 2, 4 … 60 s after a
     refusal (a 404 for a game the server does not know yet); a phone offline drops it; a game
     started on this phone is not asked for while its start waits to be sent. */
(function () {
  "use strict";
  if (!window.htmx || !window.EventSource) return;
  var SAFETY_MS = 30000;
  var sources = {};  /* the stream of each address, as this page holds it */
  var asked = Date.now();  /* when the page last asked (it was just drawn) */

  function LiveSource(url) {
    var self = this;
    this.url = url;
    this.readyState = 0;
    this.onopen = null;
    this.onerror = null;
    this.listeners = {};
    this.forwarders = {};
    this.real = null;
    this.done = false;
    this.latest = null;
    this.wait = 0;
    this.visibility = function () { self.follow(); };
    document.addEventListener("visibilitychange", this.visibility);
    sources[url] = this;
    this.follow();
  }
  LiveSource.prototype.drop = function () {
    if (this.real) { this.real.close(); this.real = null; }
    this.readyState = 0;
  };
  LiveSource.prototype.follow = function () {
    if (this.done) return;
    if (document.visibilityState === "hidden" || navigator.onLine === false) {
      this.drop();
      return;
    }
    if (this.real) return;
    var self = this;
    /* A game started on this phone whose start still waits (static/js/engine.js draws it): the
       referee has no stream for it yet; asked once its start is answered. */
    var drawn = window.Thirteen && window.Thirteen.drawn;
    if (drawn && drawn.keptStart(new URL(this.url, location.href).pathname.replace(/\/live$/, ""))) {
      window.clearTimeout(this.later);
      this.later = window.setTimeout(function () { self.follow(); }, 2000);
      return;
    }
    var real = new EventSource(this.url, { withCredentials: true });
    this.real = real;
    real.onopen = function (e) {
      if (self.real !== real) return;
      self.readyState = 1;
      self.wait = 0;
      /* Back after being offline: one poll, whose answer says the page is fresh again (app.js). */
      if (document.documentElement.classList.contains("is-offline")) {
        Array.prototype.forEach.call(document.querySelectorAll(".poll"), function (poll) {
          window.htmx.trigger(poll, "sse:version", { data: "-1" });
        });
      }
      if (self.onopen) self.onopen(e);
    };
    real.onerror = function () {
      if (self.real !== real) return;
      self.readyState = 0;  /* not open: the page polls every 3 s meanwhile */
      if (real.readyState !== 2) return;  /* the browser reconnects by itself (the stream's retry) */
      /* Refused (a 404 for a game the server does not know yet, a 503, a proxy's answer): asked
         again later, more slowly each time, quietly (htmx's extension would log each failure). */
      real.close();
      self.real = null;
      self.wait = Math.min((self.wait || 1000) * 2, 60000);
      window.setTimeout(function () { self.follow(); }, self.wait);
    };
    Object.keys(this.listeners).forEach(function (type) { real.addEventListener(type, self.forwarder(type)); });
  };
  LiveSource.prototype.forwarder = function (type) {
    var self = this;
    if (!this.forwarders[type]) {
      this.forwarders[type] = function (e) {
        if (self.real !== e.target) return;
        if (type === "version" || type === "fragment") self.latest = Number(e.lastEventId);
        (self.listeners[type] || []).slice().forEach(function (fn) { fn.call(self, e); });
      };
    }
    return this.forwarders[type];
  };
  LiveSource.prototype.addEventListener = function (type, fn) {
    if (!this.listeners[type]) {
      this.listeners[type] = [];
      if (this.real) this.real.addEventListener(type, this.forwarder(type));
    }
    this.listeners[type].push(fn);
  };
  LiveSource.prototype.removeEventListener = function (type, fn) {
    var list = this.listeners[type] || [];
    var at = list.indexOf(fn);
    if (at >= 0) list.splice(at, 1);
  };
  LiveSource.prototype.finish = function () {
    this.done = true;
    document.removeEventListener("visibilitychange", this.visibility);
    if (sources[this.url] === this) delete sources[this.url];
  };
  LiveSource.prototype.close = function () {
    this.finish();
    if (this.real) { this.real.close(); this.real = null; }
    this.readyState = 2;
  };
  window.htmx.createEventSource = function (url) { return new LiveSource(url); };

  function sourceOf(elt) {
    var holder = elt.closest && elt.closest("[sse-connect]");
    return holder ? sources[holder.getAttribute("sse-connect")] : null;
  }
  function shown(poll) {
    var match = /[?&]since=(\d+)/.exec(poll.getAttribute("hx-get") || "");
    return match ? Number(match[1]) : null;
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.classList || !elt.classList.contains("poll")) return;
    if (underway) { e.preventDefault(); return; }  /* asked again once the page's own request is in */
    var ev = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent;
    var source = sourceOf(elt);
    if (ev && ev.type === "sse:version") {
      var said = ev.detail ? Number(ev.detail.data) : NaN;
      if (said === shown(elt)) { e.preventDefault(); return; }  /* the page shows it already */
    } else if (source && source.readyState === 1 && Date.now() - asked < SAFETY_MS) {
      e.preventDefault();  /* the stream is open: the timed poll is only a safety net */
      return;
    }
    asked = Date.now();
  });

  /* A phone that goes offline may keep a stream that will never say anything again: it is
     dropped, so the page polls (and says it is offline when the polls fail, app.js); taken again
     when the phone is back.  A poll that cannot reach the server says the same of its stream. */
  function each(fn) { Object.keys(sources).forEach(function (url) { fn(sources[url]); }); }
  window.addEventListener("offline", function () { each(function (s) { s.drop(); }); });
  window.addEventListener("online", function () { each(function (s) { s.follow(); }); });
  document.addEventListener("htmx:sendError", function (e) {
    var elt = e.detail && e.detail.elt;
    var source = elt && elt.classList && elt.classList.contains("poll") ? sourceOf(elt) : null;
    if (source) { source.drop(); source.follow(); }
  });

  /* While one of the page's own requests (a write, a boosted form, a check) is under way, nothing
     the stream says is swapped in: the swap could take out the very form whose answer is coming
     (htmx then loses the element and, with it, the boosted form's new address), and the answer
     brings the game as it is anyway.  Once every such request has ended and its answer is in,
     a poll still behind the stream's latest version asks for it. */
  var underway = 0;
  function catchUp() {
    if (underway) return;
    Array.prototype.forEach.call(document.querySelectorAll(".poll"), function (poll) {
      var source = sourceOf(poll);
      var since = shown(poll);
      if (source && source.latest !== null && since !== null && source.latest > since) {
        window.htmx.trigger(poll, "sse:version", { data: String(source.latest) });
      }
    });
  }
  document.addEventListener("htmx:beforeSend", function (e) {
    var elt = e.detail && e.detail.elt;
    var xhr = e.detail && e.detail.xhr;
    if (!xhr || (elt && elt.classList && elt.classList.contains("poll"))) return;
    underway++;
    xhr.addEventListener("loadend", function () {
      underway--;
      window.setTimeout(catchUp, 0);  /* after htmx has swapped this answer in */
    });
  });

  /* A fragment the page shows already (its own write's answer came first) is not swapped in. */
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    if (underway) { e.preventDefault(); return; }
    var elt = e.target;
    var id = Number(e.detail && e.detail.lastEventId);
    var since = elt && elt.classList && elt.classList.contains("poll") ? shown(elt) : null;
    if (since !== null && !isNaN(id) && id <= since) e.preventDefault();
    else asked = Date.now();
  });

  /* A version said while the page was being swapped: the new poll element asks for it. */
  document.addEventListener("htmx:load", function (e) {
    var root = e.detail && e.detail.elt;
    if (!root || !root.querySelectorAll) return;
    var polls = root.matches && root.matches(".poll") ? [root] : root.querySelectorAll(".poll");
    Array.prototype.forEach.call(polls, function (poll) {
      var source = sourceOf(poll);
      var since = shown(poll);
      if (source && source.latest !== null && since !== null && source.latest > since) {
        window.htmx.trigger(poll, "sse:version", { data: String(source.latest) });
      }
    });
  });
})();
