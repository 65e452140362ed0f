/* Bad Wi-Fi and no Wi-Fi at the table.  Everything here works from htmx's own events, for
   every form of every game; no template needs its own code.

   - The banner: a request that cannot reach the referee is said plainly, and cleared as
     soon as one gets through.
   - Sending: a write (a form with a `version` field) shows "Sending…" on its button; htmx
     disables its buttons until the answer comes (the form's hx-disabled-elt), so a slow
     network gets no second tap.
   - The outbox: a write whose fate is unknown (a play, a pass, a round, a correction, an
     undo that cannot reach the referee, or that gets no clear answer: a 500, a 502/503/504, a
     429, a dropped connection) is kept in localStorage with everything it carried, the version it
     was typed against included, and listed as "waiting to send".  It is sent by itself when
     the network is back (or when the page is opened again, even after the tab was closed),
     exactly as it was typed: if the game moved on meanwhile the referee answers 409 and the
     page shows the fresh game with the entry still typed in, never overwriting anyone.  An
     entry leaves the outbox only once the referee has answered it, and one identical to a
     waiting entry is never sent beside it.
   - Stale pages: a page shown from the phone's copy (the service worker, offline) or one
     whose live updates stop getting through says "offline: showing the sheet as of 21:14"
     and catches up by itself, as its polls go on.
   - A check (a verdict or a split) that could not be sent is asked again when the network
     is back.
   - Plain write forms (the round form) are sent through htmx (hx-boost in their template), so
     they get all of the above; without JavaScript they post as before. */
(function () {
  "use strict";
  var WORDS = {};
  try { WORDS = JSON.parse(document.getElementById("thirteen-words").textContent); } catch (err) { WORDS = {}; }
  try { Object.assign(WORDS, JSON.parse(document.getElementById("thirteen-words-game").textContent)); } catch (err) { /* not a game's page */ }
  function word(key, fallback) { return WORDS[key] || fallback; }
  /* A time of day as the reader's language writes it (Intl, the page's lang): the same format
     as the home page's list of games (home-games.js), never "01:50 AM" beside "01:49". */
  function clock(ms) {
    var d = new Date(ms);
    try {
      return d.toLocaleTimeString(document.documentElement.getAttribute("lang") || undefined, { hour: "2-digit", minute: "2-digit" });
    } catch (err) {
      return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
    }
  }
  function offlineWords() {
    return document.body.dataset.offline || word("offline", "No connection to the referee. Nothing was sent; what you entered is still here.");
  }

  /* --- the banner ------------------------------------------------------------------- */
  var box = null;
  function banner() {
    if (!box || !box.isConnected) {  /* a whole-page answer (boosted) replaces the body */
      box = document.createElement("div");
      box.id = "connection";
      box.className = "connection";
      box.setAttribute("role", "alert");
      box.hidden = true;
      document.body.appendChild(box);
    }
    return box;
  }
  /* ``offline``: the banner says the referee cannot be reached (cleared as soon as it can). */
  function say(text, good, offline) {
    var b = banner();
    b.textContent = text;
    b.classList.toggle("ok", !!good);
    if (offline) b.dataset.offline = "1"; else delete b.dataset.offline;
    b.hidden = false;
  }
  function sayOffline() { say(offlineWords(), false, true); }
  function clear() { if (box) box.hidden = true; }

  /* The text of an error page or fragment the server sent (its .error-box), if any. */
  function reasonIn(xhr) {
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var p = doc.querySelector(".error-box p, .field-error");
      return p ? p.textContent.trim() : "";
    } catch (err) { return ""; }
  }

  /* --- writes: forms that carry the game version ------------------------------------- */
  function writeForm(elt) {
    if (!elt || !elt.closest) return null;
    var form = elt.tagName === "FORM" ? elt : elt.closest("form");
    return form && form.querySelector("input[name=version]") ? form : null;
  }
  function isWrite(detail) {
    var cfg = detail.requestConfig;
    return !!(cfg && cfg.verb !== "get" && writeForm(detail.elt));
  }
  function replayId(detail) {
    var cfg = detail.requestConfig;
    return (cfg && cfg.headers && cfg.headers["X-Thirteen-Replay"]) || "";
  }

  /* Sending: htmx disables the form's buttons while it is sent (the form's hx-disabled-elt, in
     the template) and marks it .htmx-request; the tapped button says so (app.css). */
  function submitterOf(detail) {
    var ev = detail.requestConfig && detail.requestConfig.triggeringEvent;
    if (ev && ev.submitter) return ev.submitter;
    if (detail.elt && detail.elt.tagName === "BUTTON") return detail.elt;
    var form = writeForm(detail.elt);
    return form ? form.querySelector("button[type=submit], button:not([type])") : null;
  }
  function markSending(detail) {
    var button = submitterOf(detail);
    if (button) button.dataset.sending = word("sending", "Sending…");
  }
  function unmarkSending(detail) {
    var form = writeForm(detail.elt);
    if (form) form.querySelectorAll("button[data-sending]").forEach(function (b) { delete b.dataset.sending; });
  }

  /* --- the outbox --------------------------------------------------------------------- */
  var KEY = "thirteen-outbox";
  var TAB = Math.random().toString(36).slice(2);
  var CLAIM_MS = 16000;  /* longer than htmx's timeout: a claim older than that is a dead tab's */
  /* A list this phone keeps in localStorage under ``key`` (the outbox here; the games started
     offline, static/js/offline-start.js; the phone's games, static/js/phone-games.js): load() reads it (anything but a JSON list reads as
     empty), save(list) writes it and says whether the phone kept it (false: storage full or off). */
  function storedList(key) {
    return {
      load: function () {
        try {
          var list = JSON.parse(localStorage.getItem(key) || "[]");
          return Array.isArray(list) ? list : [];
        } catch (err) { return []; }
      },
      save: function (list) {
        try { localStorage.setItem(key, JSON.stringify(list)); return true; } catch (err) { return false; }
      }
    };
  }
  var stored = storedList(KEY);
  var load = stored.load;
  function save(list) {
    stored.save(list);
    render();
  }
  function pairsOf(formData) {
    var pairs = [];
    if (formData && formData.forEach) formData.forEach(function (value, key) {
      if (typeof value === "string") pairs.push([key, value]);
    });
    return pairs;
  }
  function sameWrite(a, b) { return a.path === b.path && JSON.stringify(a.params) === JSON.stringify(b.params); }
  function describe(detail, pairs) {
    var button = submitterOf(detail);
    var what = button ? button.textContent.trim().replace(/\s+/g, " ") : "";
    var cards = pairs.filter(function (p) { return /^cards/.test(p[0]) && p[1]; }).map(function (p) { return p[1]; });
    if (cards.length && cards.length <= 2) what += " · " + cards.join(" / ");
    return (document.title.split(" · ")[0] + " — " + what).slice(0, 140);
  }
  function swapOf(detail) {
    var elt = detail.elt;
    var holder = elt && elt.closest && elt.closest("[hx-swap]");
    return detail.requestConfig.boosted ? "innerHTML" : ((holder && holder.getAttribute("hx-swap")) || "innerHTML");
  }
  function keep(detail, extra) {
    var cfg = detail.requestConfig;
    var pairs = pairsOf(cfg.formData);
    var version = "";
    pairs.forEach(function (p) { if (p[0] === "version") version = p[1]; });
    var target = detail.target && detail.target.id ? "#" + detail.target.id : "body";
    var entry = {
      id: (cfg.headers && cfg.headers["X-Thirteen-Write"]) || newId(),
      page: location.pathname, game: gameOf(location.pathname), path: cfg.path, params: pairs, version: version,
      target: cfg.boosted ? "body" : target, swap: swapOf(detail), boosted: !!cfg.boosted,
      label: describe(detail, pairs), at: Date.now()
    };
    Object.assign(entry, extra || {});
    var list = load();
    if (list.some(function (e) { return sameWrite(e, entry); })) { render(); return true; }
    list.push(entry);
    save(list);
    thisTab.kept(entry);
    return load().some(function (e) { return e.id === entry.id; });  /* false: storage full or off */
  }
  /* The pages of one game share the part of the address up to its link: /<game>/g/<token>. */
  function gameOf(path) {
    var m = /^(.*?\/g\/[^\/]+)/.exec(path);
    return m ? m[1] : path;
  }
  function sendableHere(e) {
    return e.page === location.pathname || gameOf(location.pathname) === (e.game || e.page);
  }
  /* A write of a game started on this phone waits for its start (static/js/offline-start.js,
     "thirteen-starts") to be answered: the referee has no game to take it before. */
  function startWaits(e) {
    return storedList("thirteen-starts").load().some(function (s) { return s.link === (e.game || gameOf(e.page)); });
  }
  /* An answer that does not say what became of a write: none at all, a server error (500, or a
     proxy's 502/503/504), too many requests, a timeout.  Only a clear answer (2xx/3xx done; a 4xx
     with its reason: 400, 403, 404, 409 stale, 422 refused) takes an entry out of the outbox. */
  function fateUnknown(status) { return !status || status >= 500 || status === 429 || status === 408; }
  /* A list in localStorage that several tabs of this phone write (the outbox here; the games
     started offline, static/js/offline-start.js; the phone's games, static/js/phone-games.js):
     two tabs writing at the same moment may each read it before the other's write has reached
     them, and the later write would drop an entry the other had just kept.  So a tab remembers
     the entries it kept (kept) and puts one back when another tab's write (the storage event)
     left it out (putBack), unless it was answered or removed meanwhile (done: its id in
     "<key>-done", written by whichever tab did that; kept again, it is live again).  Entries
     are told apart by their ``id`` field (``name``: another).  The referee applies a write, or
     starts a form, sent twice once: an entry put back in error costs nothing. */
  function keptByThisTab(key, name) {
    var field = name || "id";
    var mine = {};
    var done = storedList(key + "-done");
    var gone = done.load;
    function write(ids) { done.save(ids.slice(-100)); }
    return {
      kept: function (entry) {
        var id = entry[field];
        mine[id] = JSON.parse(JSON.stringify(entry));
        delete mine[id].claim;
        var ids = gone();
        if (ids.indexOf(id) >= 0) write(ids.filter(function (i) { return i !== id; }));
      },
      changed: function (entry) { if (mine[entry[field]]) this.kept(entry); },
      done: function (id) {
        delete mine[id];
        write(gone().concat([id]));
      },
      /* The entries of this tab that ``list`` lacks, added to it; whether there were any. */
      putBack: function (list) {
        var ids = Object.keys(mine);
        if (!ids.length) return false;
        var answered = gone();
        var back = false;
        ids.forEach(function (id) {
          if (answered.indexOf(id) >= 0) { delete mine[id]; return; }
          if (!list.some(function (e) { return e[field] === id; })) { list.push(mine[id]); back = true; }
        });
        return back;
      }
    };
  }
  window.Thirteen = window.Thirteen || {};
  window.Thirteen.keptByThisTab = keptByThisTab;
  window.Thirteen.storedList = storedList;
  var thisTab = keptByThisTab(KEY);
  function forget(id) {
    thisTab.done(id);
    save(load().filter(function (e) { return e.id !== id; }));
  }

  /* A box of news said at the top of the page (read out when it changes): the outbox's list
     here, what happened to a start (static/js/offline-start.js). */
  function noticeBox(id) {
    var box = document.createElement("section");
    box.id = id;
    box.className = "outbox";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    var main = document.getElementById("main") || document.body;
    main.insertBefore(box, main.firstChild);
    return box;
  }
  window.Thirteen.noticeBox = noticeBox;

  var outbox = null;
  function render() {
    var list = load();
    if (outbox && !outbox.isConnected) outbox = null;
    if (!outbox) {
      if (!list.length) return;
      outbox = noticeBox("outbox");
    }
    outbox.hidden = !list.length;
    outbox.textContent = "";
    if (!list.length) return;
    /* A game started on this phone, played here while its start waited (static/js/engine.js,
       entries marked "drawn"): what waits is said under the page, not above its own controls. */
    var main = document.getElementById("main") || document.body;
    if (list.every(function (e) { return e.drawn || startWaits(e); })) { if (outbox !== main.lastElementChild) main.appendChild(outbox); }
    else if (outbox !== main.firstElementChild) main.insertBefore(outbox, main.firstChild);
    var head = document.createElement("p");
    head.innerHTML = "<b></b> <span></span>";
    head.firstChild.textContent = word("waiting", "Waiting to send");
    head.lastChild.textContent = word("waiting_why", "No connection: this is kept on the phone and sent by itself when the referee can be reached.");
    outbox.appendChild(head);
    var ul = document.createElement("ul");
    list.forEach(function (e) {
      var li = document.createElement("li");
      li.dataset.outbox = e.id;
      li.dataset.version = e.version;
      var text = document.createElement("span");
      text.textContent = e.label + " · " + word("typed_at", "typed at {time}").replace("{time}", clock(e.at));
      li.appendChild(text);
      if (!sendableHere(e)) {
        var a = document.createElement("a");
        a.href = e.page;
        a.textContent = word("elsewhere", "Open its page to send it");
        li.appendChild(document.createTextNode(" "));
        li.appendChild(a);
      }
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "outbox-drop";
      drop.textContent = word("discard", "Discard");
      drop.addEventListener("click", function () {
        if (window.confirm(word("discard_sure", "Throw away this entry? It was never sent."))) forget(e.id);
      });
      li.appendChild(drop);
      ul.appendChild(li);
    });
    outbox.appendChild(ul);
  }

  var sendingId = "";
  var leaving = false;  /* the tab is going away: start nothing it could not see answered */
  /* Send the oldest entry typed on this page, unless another tab is sending it. */
  function flush() {
    /* navigator.onLine is false only when there is surely no network (true may be wrong). */
    if (sendingId || leaving || !window.htmx || navigator.onLine === false) return;
    var list = load();
    var now = Date.now();
    var entry = null;
    for (var i = 0; i < list.length; i++) {
      if (!sendableHere(list[i]) || startWaits(list[i])) continue;
      if (list[i].claim && now - list[i].claim.at < CLAIM_MS) return;  /* on its way from a tab */
      entry = list[i];
      break;
    }
    if (!entry) return;
    /* On another page of the same game (the tab was closed, the sheet opened instead of the
       round): the answer is asked as a whole page and takes the place of this one. */
    var target = document.querySelector(entry.target);
    var whole = entry.boosted || !target;
    if (whole) target = document.body;
    entry.claim = { tab: TAB, at: now };
    save(list);
    sendingId = entry.id;
    var values = new FormData();
    entry.params.forEach(function (p) { values.append(p[0], p[1]); });
    var headers = { "X-Thirteen-Replay": entry.id };
    if (whole) headers["HX-Boosted"] = "true";
    var sent = window.htmx.ajax("POST", entry.path, {
      source: target, target: whole ? "body" : entry.target, swap: whole ? "innerHTML" : entry.swap,
      values: values, headers: headers
    });
    /* Not answered: the promise is refused; the events above have kept the entry. */
    if (sent && sent.catch) sent.catch(function () {});
  }
  function replayDone(detail) {
    var id = replayId(detail);
    var xhr = detail.xhr;
    sendingId = "";
    if (!xhr || fateUnknown(xhr.status)) {  /* still no network, no database, no clear answer: keep it, unclaimed */
      var list = load();
      list.forEach(function (e) { if (e.id === id) delete e.claim; });
      save(list);
      return;
    }
    forget(id);  /* the referee answered: it has the entry, or says why not (shown on the page) */
    if (xhr.responseURL) {
      var url = new URL(xhr.responseURL);
      if (url.origin === location.origin && url.pathname + url.search !== location.pathname + location.search) {
        history.replaceState(null, "", url.pathname + url.search);
      }
    }
    if (xhr.status >= 200 && xhr.status < 300) say(word("sent", "Sent: what was kept on this phone has reached the referee."), true);
    else say(word("unsent_refused", "The referee did not take what was kept on this phone; it is shown below."));
    window.setTimeout(flush, 50);
  }

  /* --- stale pages --------------------------------------------------------------------- */
  var fresh = Date.now();
  var stale = false;
  /* The part of the page that follows a game carries data-live="table" or "sheet" (what the
     notice calls it), written by every followed game's template from its registry entry. */
  function liveSection() { return document.querySelector("[data-live]"); }
  /* A screen that answers by itself: no followed game on it, its checks answered by the
     phone's engine (static/js/engine.js), which was ready on this phone once and has not
     failed on this page.  Offline it shows the same answers as online: no "as of" line. */
  function answersHere() {
    if (liveSection() || !document.querySelector("[data-local]")) return false;
    var kept = null;
    try { kept = localStorage.getItem("thirteen-engine"); } catch (err) { kept = null; }
    var state = document.documentElement.dataset.engine || "";
    return state === "ready" || (!!kept && state !== "failed" && state !== "metered");
  }
  function markStale() {
    var section = liveSection();
    var key = section ? (section.dataset.live === "sheet" ? "stale_sheet" : "stale_table") : "stale";
    var bar = document.getElementById("freshness");
    if (!bar) {
      bar = document.createElement("p");
      bar.id = "freshness";
      bar.className = "freshness";
      bar.setAttribute("role", "status");
      var main = document.getElementById("main") || document.body;
      main.insertBefore(bar, main.firstChild);
    }
    bar.textContent = word(key, "Offline: showing the page as of {time}. It catches up by itself when the connection is back.")
      .replace("{time}", clock(fresh));
    bar.dataset.asOf = clock(fresh);
    bar.hidden = answersHere();
    if (section) section.dataset.stale = "1";
    document.documentElement.classList.add("is-offline");
    stale = true;
  }
  /* The engine's state changed (it failed, or became ready): the line follows. */
  document.addEventListener("thirteen:engine", function () {
    var bar = document.getElementById("freshness");
    if (stale && bar) bar.hidden = answersHere();
  });
  function markFresh() {
    fresh = Date.now();
    if (!stale) return;
    stale = false;
    var bar = document.getElementById("freshness");
    if (bar) bar.hidden = true;
    document.querySelectorAll("[data-stale]").forEach(function (s) { delete s.dataset.stale; });
    document.documentElement.classList.remove("is-offline");
  }

  /* --- checks to ask again ----------------------------------------------------------- */
  var retry = null;
  function rememberRetry(detail) {
    var ev = detail.requestConfig && detail.requestConfig.triggeringEvent;
    if (!ev || !ev.type || isWrite(detail) || !ev.target) return;
    retry = { type: ev.type, target: ev.target };
  }
  function askAgain() {
    if (!retry) return;
    var r = retry;
    retry = null;
    if (!r.target.isConnected) return;
    if (r.type === "submit" && r.target.requestSubmit) r.target.requestSubmit();
    else r.target.dispatchEvent(new Event(r.type, { bubbles: true }));
  }

  function reconnect() {
    askAgain();
    flush();
  }

  /* --- the network is back -------------------------------------------------------------- */
  /* Told by the browser ("online", not always told) or not: while something says offline (the
     "as of" line, the banner, the page with no copy), the referee is asked whether it answers
     (/healthz, never from a cache).  Once it does, the offline words go at once, what waits is
     sent, and a page that had no copy is opened again (the network-first worker brings it). */
  var NO_COPY = "thirteen-no-copy";  /* sessionStorage: how many times the page with no copy was opened again */
  function noCopyPage() { return !!document.querySelector("[data-no-copy]"); }
  function saysOffline() { return stale || noCopyPage() || !!(box && !box.hidden && box.dataset.offline); }
  var probing = false;
  function probe() {
    if (probing || navigator.onLine === false || !window.fetch) return;
    probing = true;
    fetch("/healthz", { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      probing = false;
      if (r.ok) reachable();
    }, function () { probing = false; });
  }
  function reachable() {
    if (noCopyPage()) { openAgain(); return; }
    try { sessionStorage.removeItem(NO_COPY); } catch (err) { /* storage off */ }
    if (box && box.dataset.offline) clear();
    var wasStale = stale;
    markFresh();
    document.body.removeAttribute("data-from-cache");
    if (wasStale) reconnect(); else flush();
    document.dispatchEvent(new CustomEvent("thirteen:reachable"));
  }
  /* The page with no copy, opened again (its address is the page asked for).  Should the
     worker still find no network (the phone's parts come back one after the other), the next
     try waits longer each time: 0.5 s, 1 s, 2 s… up to 8 s. */
  function openAgain() {
    var n = 0;
    try { n = parseInt(sessionStorage.getItem(NO_COPY) || "0", 10) || 0; sessionStorage.setItem(NO_COPY, String(n + 1)); } catch (err) { n = 0; }
    window.setTimeout(function () { location.reload(); }, n ? Math.min(500 * Math.pow(2, n - 1), 8000) : 0);
  }

  /* --- htmx's events -------------------------------------------------------------------- */
  /* Every write carries an id of its own, kept with it in the outbox: if the referee stored it
     but the answer was lost on the way back, the same entry sent again is recognised there
     (and answered with the game as it is), never stored twice nor called stale. */
  /* The time, then 24 random letters and digits: long enough that no phone guesses another's
     (a form that starts a game answers its keeper link when its id is sent again). */
  function newId() {
    var bytes = new Uint8Array(24);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Date.now().toString(36) + Array.prototype.map.call(bytes, function (b) { return (b % 36).toString(36); }).join("");
  }
  /* A form that starts a game carries an id of its own, fresh on every showing of the page
     (one kept in the browser's history or the phone's copy must not open an earlier game). */
  function freshStartingIds(scope) {
    if (!scope || !scope.querySelectorAll) return;
    scope.querySelectorAll("input[data-write-id]").forEach(function (input) { input.value = newId(); });
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var d = e.detail;
    if (!d || d.verb === "get" || !d.headers) return;
    if (d.headers["X-Thirteen-Replay"]) d.headers["X-Thirteen-Write"] = d.headers["X-Thirteen-Replay"];
    else if (writeForm(d.elt)) d.headers["X-Thirteen-Write"] = newId();
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var d = e.detail;
    if (isWrite(d) && !replayId(d)) {
      /* The same write already waits to be sent: send that one, not a second. */
      var entry = { path: d.requestConfig.path, params: pairsOf(d.requestConfig.formData) };
      if (load().some(function (w) { return w.page === location.pathname && sameWrite(w, entry); })) {
        e.preventDefault();
        flush();
        return;
      }
    }
    if (isWrite(d)) markSending(d);
  });
  function lost(e) {
    var d = e.detail;
    if (liveSection()) markStale();
    if (replayId(d)) { sayOffline(); replayDone(d); return; }
    if (isWrite(d)) {
      unmarkSending(d);
      /* Kept in the outbox, which says it waits and is sent by itself: the banner's "Nothing
         was sent" would contradict it beside it.  Said only when the phone could not keep it. */
      if (keep(d)) clear(); else sayOffline();
      return;
    }
    sayOffline();
    rememberRetry(d);
  }
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  document.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail.xhr;
    if (!xhr || xhr.answeredHere) return;
    if (isWrite(e.detail) && !replayId(e.detail) && fateUnknown(xhr.status)) {
      /* A 503 (the database not answering), a 500, a gateway's 502/504, a 429: the write may or
         may not be stored.  It waits in the outbox and is sent again with the same write id,
         which the referee recognises: never stored twice, never said to be unsaved. */
      say(keep(e.detail) && xhr.status !== 503 ? word("unsure", offlineWords()) : reasonIn(xhr) || offlineWords());
    } else if (xhr.status === 503) {
      say(reasonIn(xhr) || offlineWords());
    } else if (xhr.status >= 500) {
      say(document.body.dataset.servererror || "The referee hit an error. Nothing was saved; try again.");
    } else {
      /* A refusal that is not swapped into the page (403, 404, 413…) is said in the banner. */
      say(reasonIn(xhr) || document.body.dataset.refused || "The referee refused this request.");
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var d = e.detail;
    if (isWrite(d)) unmarkSending(d);
    if (!d.xhr || !d.xhr.status) return;  /* not answered: handled by sendError/timeout */
    if (d.xhr.answeredHere) return;  /* answered on the phone (static/js/answer-here.js): says nothing of the network */
    var wasStale = stale;
    markFresh();
    if (replayId(d)) { replayDone(d); return; }
    if (d.successful && !sendingId) clear();
    if (wasStale) reconnect();
  });
  document.addEventListener("htmx:load", function (e) { freshStartingIds(e.detail.elt); render(); });
  window.addEventListener("online", function () { reconnect(); probe(); });
  window.addEventListener("pageshow", function (e) {
    leaving = false;
    if (e.persisted) { freshStartingIds(document); flush(); }
  });
  /* A tab that goes away lets the others send what it was sending. */
  window.addEventListener("pagehide", function () {
    leaving = true;
    var list = load();
    list.forEach(function (e) { if (e.claim && e.claim.tab === TAB) delete e.claim; });
    stored.save(list);  /* not save: nothing to draw on a page going away */
  });
  window.addEventListener("storage", function (e) { if (e.key !== KEY) return;
    var list = load();
    if (thisTab.putBack(list)) save(list); else render();
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) window.htmx.config.timeout = 15000;
    freshStartingIds(document);
    var rendered = Date.parse(document.body.dataset.rendered || "");
    if (document.body.hasAttribute("data-from-cache")) {
      /* Opened from the phone's copy: say how old it is until a poll gets through. */
      fresh = isNaN(rendered) ? Date.now() : rendered;
      markStale();
    }
    render();
    window.setTimeout(flush, 0);
    if (noCopyPage()) probe();  /* the network may be back already (the worker was not told yet) */
    /* Keep trying while entries wait: "online" events are not always told. */
    window.setInterval(function () {
      if (retry && navigator.onLine) askAgain();
      if (load().some(sendableHere)) flush();
    }, 4000);
    window.setInterval(function () { if (saysOffline()) probe(); }, 1500);
  });

  /* --- the service worker: the app opens without a network ----------------------------- */
  window.addEventListener("load", function () {
    var sw = "serviceWorker" in navigator && window.isSecureContext;
    if (sw && navigator.onLine !== false) {
      navigator.serviceWorker.register("/sw.js").then(function (r) {
        if (!r || !(r.installing || r.waiting || r.active)) bring();  /* a worker that will never run */
      }, function () { bring(); /* no worker: pages need the network */ });
    }
    /* The phone's own parts (static/js/phone-games.js: the games it keeps, the pages kept for
       offline, games started offline): once the worker controls the page, from its cache;
       never before the first screen, and no bytes of the first visit. */
    var src = document.body.dataset.phoneGames;
    function bring() {
      if (!src) return;
      var script = document.createElement("script");
      script.src = src;
      src = "";
      document.head.appendChild(script);
    }
    if (!sw) return bring();
    /* A game's page left before that file came (a first visit: the worker not in control yet)
       is noted, so the list still gets it: phone-games.js takes the notes on the next page. */
    window.addEventListener("pagehide", function () {
      var about = document.getElementById("thirteen-game");
      if (!src || !about) return;
      var seen = storedList("thirteen-games-seen");
      seen.save(seen.load().slice(-9).concat([{ path: location.pathname, about: about.textContent, at: Date.now() }]));
    });
    if (navigator.serviceWorker.controller) bring();
    else navigator.serviceWorker.addEventListener("controllerchange", bring);
    window.setTimeout(bring, 10000);  /* a worker that never takes over (no Workbox on this server) */
  });
  /* An evening's "until" is read on the table's clock: a form says the phone's time zone. */
  function clockOffsets(root) {
    var fields = (root && root.querySelectorAll) ? root.querySelectorAll("[data-utc-offset]") : [];
    for (var i = 0; i < fields.length; i++) fields[i].value = String(-new Date().getTimezoneOffset());
    /* A group's evenings are its local days: the phone's time zone (an IANA name) where asked. */
    var zones = (root && root.querySelectorAll) ? root.querySelectorAll("[data-time-zone]") : [];
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
    for (var j = 0; j < zones.length; j++) {
      if (zones[j].tagName === "INPUT" && zone) zones[j].value = zone;
      else if (zone) zones[j].setAttribute("data-phone-zone", zone);
    }
  }
  /* "This phone's time zone" on a group's page: puts the phone's zone in the zone field. */
  document.addEventListener("click", function (e) {
    var button = e.target && e.target.closest ? e.target.closest("[data-use-phone-zone]") : null;
    if (!button) return;
    var field = button.form && button.form.querySelector("input[name=zone]");
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (err) { zone = ""; }
    if (field && zone) { field.value = zone; e.preventDefault(); }
  });
  document.addEventListener("DOMContentLoaded", function () { clockOffsets(document); });
  document.addEventListener("htmx:load", function (e) { clockOffsets(e.target); });
  /* Back to a screen whose answer follows its fields (a check: hx-trigger on change, nothing
     written): the browser puts the cards and choices back but the answer drawn by the server is
     for empty fields ("WAITING" over restored cards).  Such a form is asked again at once, so
     the verdict matches the cards shown, and the next tap adds to a play the screen judges. */
  function refilled(form) {
    return Array.prototype.some.call(form.elements, function (f) {
      if (f.type === "radio" || f.type === "checkbox") return f.checked !== f.defaultChecked;
      if (f.tagName === "SELECT") return Array.prototype.some.call(f.options, function (o) { return o.selected !== o.defaultSelected; });
      return (f.type === "text" || f.type === "search" || f.tagName === "TEXTAREA") && f.value !== f.defaultValue;
    });
  }
  /* A check asked while its cards are still being tapped in (a change, not the Check button)
     says so (live=1): a table that is no combination yet is answered as unfinished (200), so
     the console logs no failed request for every card on the way to a whole one. */
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail && e.detail.elt, ev = e.detail && e.detail.triggeringEvent;
    if (!elt || elt.tagName !== "FORM" || !ev || ev.type === "submit") return;
    if (!/\bchange\b/.test(elt.getAttribute("hx-trigger") || "") || elt.querySelector("input[name=version]")) return;
    e.detail.parameters.live = "1";
  });
  window.addEventListener("pageshow", function (e) {
    if (e.persisted || !window.htmx) return;  /* kept whole by the browser: the answer is still its own */
    document.querySelectorAll("form[hx-post][hx-trigger*='change']").forEach(function (form) {
      if (form.querySelector("input[name=version]") || !refilled(form)) return;
      /* the cards put back are a change of cards: the verdict box is provisional
         (data-building, picker.js) until the answer to them is in */
      form.dispatchEvent(new CustomEvent("cards-changed", { bubbles: true }));
      window.htmx.trigger(form, "change");
    });
  });
  /* The result of a write said in view: a notice it brought ([data-show]: "Undone: …" with its
     Redo, "Redone: …") is scrolled to where the eye is and takes the focus, wherever the page
     was scrolled when the button was tapped. */
  document.addEventListener("htmx:afterSettle", function (e) {
    var d = e.detail || {};
    if (!d.requestConfig || String(d.requestConfig.verb).toLowerCase() !== "post") return;
    var shown = document.querySelector("[data-show]");
    if (!shown) return;
    var r = shown.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) shown.scrollIntoView({ block: "center" });
    if (shown.hasAttribute("tabindex")) shown.focus({ preventScroll: true });
  });
  /* The share box's links: a tap selects the whole link, ready to copy. */
  document.addEventListener("focusin", function (e) {
    if (e.target && e.target.hasAttribute && e.target.hasAttribute("data-select-on-focus")) e.target.select();
  });

  /* keep(htmx's detail, fields): a write answered on this phone (a game it started offline,
     static/js/engine.js) is kept as one that could not reach the referee; whether it was. */
  window.Thirteen.outbox = { list: load, flush: flush, keep: keep };
})();

/* The screen stays on while a game's page is open at the table: players put the phone down
   between hands and should not come back to a dark, locked phone.  The Screen Wake Lock API
   where the browser offers it; the lock is let go by the browser when the page is hidden, so
   it is taken again when the page comes back into view.  Where the API is missing, or the
   browser refuses (low battery, no permission), nothing is said: the phone simply sleeps as
   it would.  A game's page is one whose head carries #thirteen-game (base.html); a boosted
   move to another page (htmx's head-support swaps the head) lets the lock go. */
(function () {
  "use strict";
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
