/* The referee in your pocket: verdicts judged on the phone, with no request and no network.

   The page loads this file once it has settled (static/js/engine-loader.js).  It asks
   /engine.json where the engine is, then starts static/js/engine-worker.js (Pyodide running
   the same rules library, the same screens and the same templates as the server: see
   referee/web/engine.py and referee/web/phone.py).  Not on a metered or save-data connection
   unless the player taps "Get it", nor twice: once the engine was ready on this phone it is
   started at once on every page (its files are kept by the service worker and the browser).
   Its state is said in the page's footer, in the page's language.

   Once ready, an htmx request from an element marked data-local="<kind>" (a check form, a
   score form, a round's live split) is answered here, through one seam
   (static/js/answer-here.js, brought before this file by engine-loader.js): at
   htmx:beforeSend the fields htmx sends go to the worker instead of the network, and its
   answer ends htmx's request as the server's would; htmx swaps it (its target, the
   out-of-band field errors), pushes its address (hx-push-url) and says its events itself.
   While the engine is not ready, or if it fails to answer, htmx's request goes to the server
   as before.  The house rules a phone keeps are in
   its rules_<game> cookie, which only the server reads (HttpOnly): the page carries them
   (data-local-kept, beside data-local-rules="<game>").  Rules changed while the phone answers
   are kept in localStorage (thirteen-rules-<game>, with the page's kept rules they were
   changed from) and put back over the page's on the next page, as long as the server still
   keeps what it kept then; the next request that reaches the server sends them with the form,
   and its answer keeps them in the cookie as before.
   A followed table's page carries its game (data-local-game) and the moves the phone judges
   there (data-local-moves: the last part of each move's address). */
(function () {
  "use strict";
  var KEY = "thirteen-engine";  /* the engine that was once ready on this phone */
  var ASKED = "thirteen-engine-asked";  /* the player asked for it on a metered connection */
  var root = document.documentElement;
  var worker = null;
  var config = null;
  var ready = false;
  var pending = {};
  var next = 1;
  var line = null;

  function stored(key) { try { return localStorage.getItem(key); } catch (err) { return null; } }
  function store(key, value) { try { localStorage.setItem(key, value); } catch (err) { /* private mode */ } }

  /* --- the state, in words ------------------------------------------------------------ */
  function say(state, text, action) {
    var changed = root.dataset.engine !== state;
    root.dataset.engine = state;
    if (changed) document.dispatchEvent(new CustomEvent("thirteen:engine", { detail: { state: state } }));
    if (!line || !line.isConnected) {
      line = document.createElement("p");
      line.className = "engine-state";
      line.setAttribute("role", "status");
      (document.querySelector("footer.foot") || document.body).appendChild(line);
    }
    line.textContent = text;
    if (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "engine-get";
      button.textContent = action.label;
      button.addEventListener("click", function () { store(ASKED, "1"); action.run(); });
      line.appendChild(document.createTextNode(" "));
      line.appendChild(button);
    }
  }
  function words(key) { return (config && config.words && config.words[key]) || ""; }

  function metered() {
    var c = navigator.connection;
    return !!(c && (c.saveData || c.type === "cellular" || /(^|-)2g$/.test(c.effectiveType || "")));
  }

  /* --- the worker ----------------------------------------------------------------------- */
  function begin() {
    if (worker) return;
    var started = performance.now();
    try {
      worker = new Worker(config.worker);
    } catch (err) {
      say("failed", words("failed"));
      return;
    }
    say("loading", words("loading").replace("{percent}", "0"));
    worker.onmessage = function (event) {
      var m = event.data || {};
      if (m.type === "progress") {
        say("loading", words("loading").replace("{percent}", String(Math.floor(100 * m.got / Math.max(m.total, 1)))));
      } else if (m.type === "starting") {
        say("starting", words("starting"));
      } else if (m.type === "ready") {
        ready = true;
        store(KEY, config.id);
        window.Thirteen.engine.readyMs = Math.round(performance.now() - started);
        window.Thirteen.engine.timings = m.ms;
        say("ready", words("ready"));
        answerWaiting();
      } else if (m.type === "pages") {
        pagesReady = true;
        window.Thirteen.engine.pagesMs = m.ms;
        document.dispatchEvent(new CustomEvent("thirteen:pages", { detail: { ms: m.ms } }));
        boostKeptGames(document.body);
        /* The "No connection" page in the place of a kept game's page (a reload, a link typed,
           the home page's list): the phone draws that page instead. */
        if (document.querySelector("[data-no-copy]") && keptStart(location.pathname)) openKept(location.pathname + location.search);
      } else if (m.type === "failed") {
        fail();
      } else if (m.type === "answer" && pending[m.id]) {
        var p = pending[m.id];
        delete pending[m.id];
        if (m.answer) p.resolve(m.answer); else p.reject(new Error(m.error || "no answer"));
      }
    };
    worker.onerror = function () { fail(); };
    worker.postMessage({ type: "start", config: config });
  }
  function fail() {
    ready = false;
    say("failed", words("failed"));
    Object.keys(pending).forEach(function (id) { pending[id].reject(new Error("failed")); delete pending[id]; });
    if (worker) { worker.terminate(); worker = null; }
  }
  function ask(request, type) {
    return new Promise(function (resolve, reject) {
      var id = next++;
      pending[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ type: type || "ask", id: id, request: request });
    });
  }

  function settle() {
    fetch("/engine.json", { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (found) {
      if (!found || !window.Worker || typeof WebAssembly !== "object") return;
      config = found;
      if (stored(KEY) !== config.id && metered() && !stored(ASKED)) {
        say("metered", words("metered"), {
          label: words("get").replace("{size}", (config.transfer / 1e6).toFixed(1)), run: begin
        });
        return;
      }
      begin();
    }).catch(function () { /* no network and no kept copy: the server answers when it can */ });
  }

  /* The download goes on while the page's own requests go (a verdict the server answers, a
     write): see engine-worker.js for why it is never cut off. */

  /* --- answering htmx's requests on the phone ---------------------------------------- */
  function language() {
    var lang = (root.getAttribute("lang") || "en").toLowerCase().split("-")[0];
    return lang || "en";
  }
  /* The rules the page was drawn with (data-local-kept) and those changed on this phone since
     (kept in localStorage while the server still keeps what the page says). */
  function keptOnPage(elt) { return elt.getAttribute("data-local-kept") || "{}"; }
  function object(raw) {
    try {
      var value = JSON.parse(raw || "null");
      return value && typeof value === "object" && !Array.isArray(value) ? value : null;
    } catch (err) { return null; }
  }
  function changedHere(elt) {
    var game = elt.getAttribute("data-local-rules");
    var mine = game && object(stored("thirteen-rules-" + game));
    if (!mine) return null;
    if (mine.over !== keptOnPage(elt) || !object(JSON.stringify(mine.rules))) {
      /* the server has kept other rules since (a request reached it): its own stand */
      try { localStorage.removeItem("thirteen-rules-" + game); } catch (err) { /* private mode */ }
      return null;
    }
    return mine.rules;
  }
  function rememberedRules(elt) {
    if (!elt.getAttribute("data-local-rules")) return {};
    return Object.assign({}, object(keptOnPage(elt)) || {}, changedHere(elt) || {});
  }
  function keepRules(elt, rules) {
    var game = elt.getAttribute("data-local-rules");
    if (!game || !rules) return;
    store("thirteen-rules-" + game, JSON.stringify({ over: keptOnPage(elt), rules: rules }));
  }
  /* The switches of a page drawn before its rules were changed on this phone show the rules
     changed here (a form sends them to the server as the player set them). */
  function showChangedRules() {
    document.querySelectorAll("form[data-local-rules]").forEach(function (form) {
      var rules = changedHere(form);
      if (!rules) return;
      Object.keys(rules).forEach(function (name) {
        Array.prototype.forEach.call(form.elements, function (input) {
          if (input.name !== name) return;
          if (input.type === "checkbox") input.checked = rules[name] === true || rules[name] === "on";
          else if (input.type === "radio") input.checked = input.value === String(rules[name]);
          else if (input.type !== "hidden") input.value = String(rules[name]);
        });
      });
    });
  }
  function pairs(values) {
    var out = [];
    Object.keys(values).forEach(function (name) {
      var v = values[name];
      (Array.isArray(v) ? v : [v]).forEach(function (one) {
        if (one !== null && one !== undefined && typeof one !== "object") out.push([name, String(one)]);
      });
    });
    return out;
  }

  /* --- a followed table: the next move judged here, the moves waiting to be sent applied --- */
  /* The element that holds a table's game, and the move an address is (its last part, when the
     table judges that move here: data-local-moves), else null.  A table is the page's live
     section (data-live); in its dock (data-after-action) the answer's lines go before the
     buttons (data-dock-keep), which stay. */
  function gameHolder(elt) {
    var form = elt.closest("form") || elt;
    var table = form.closest("[data-live]");
    return form.closest("[data-local-game]") || (table && table.querySelector("[data-local-game]"));
  }
  function moveOf(holder, path) {
    var last = String(path || "").split("?")[0].split("/").pop();
    var moves = (holder.getAttribute("data-local-moves") || "").split(/\s+/);
    return moves.indexOf(last) >= 0 ? last : null;
  }
  function waitingMoves(holder) {
    var outbox = window.Thirteen.outbox;
    var list = outbox ? outbox.list().filter(function (w) { return w.page === location.pathname; }) : [];
    if (list.some(function (w) { return !moveOf(holder, w.path); })) return null;  /* an undo waits: the server judges */
    return list.map(function (w) { return { action: moveOf(holder, w.path), form: w.params }; });
  }
  function tableOf(form) { return form.closest("[data-live]") || document; }
  function showDock(form, html) {
    var dock = tableOf(form).querySelector("[data-after-action]");
    if (!dock) return;
    var keep = dock.querySelector("[data-dock-keep]");  /* the buttons stay */
    Array.prototype.slice.call(dock.children).forEach(function (child) { if (child !== keep) child.remove(); });
    var box = document.createElement("div");
    box.innerHTML = html;
    Array.prototype.slice.call(box.children).forEach(function (child) { dock.insertBefore(child, keep); });
  }
  var judgedMoves = new WeakMap();  /* form -> the phone's answer to the move on its way */
  function tableMove(e, d, elt, kind) {
    var form = elt.closest("form");
    var holder = gameHolder(elt);
    var move = holder && moveOf(holder, d.path);
    var game = null;
    try { game = JSON.parse((holder && holder.getAttribute("data-local-game")) || "null"); } catch (err) { game = null; }
    var pending = holder && waitingMoves(holder);
    if (!move || !game || !pending) return;
    e.preventDefault();
    var tapped = performance.now();
    ask({ kind: kind, language: language(), form: pairs(window.htmx.values(elt, "post")), remembered: {},
          setup: { game: game, pending: pending, action: move } })
      .then(function (answer) {
        showDock(form, answer.html);
        window.Thirteen.engine.last = { kind: kind, ms: performance.now() - tapped, status: answer.status };
        if (answer.status === 422) return;  /* refused by the rules, as the server would: nothing to send */
        judgedMoves.set(form, answer);
        d.issueRequest(true);  /* a write goes to the referee (or waits on the phone, offline) */
      }, function () { d.issueRequest(true); });
  }
  /* Offline, app.js keeps the move in its outbox; the table then stands as if it were played:
     the next move carries the next version, the next seat, and no cards picked. */
  document.addEventListener("htmx:sendError", function (e) {
    var elt = e.detail && e.detail.elt;
    var form = elt && elt.closest && elt.closest("form");
    var answer = form && judgedMoves.get(form);
    if (!answer) return;
    judgedMoves.delete(form);
    tableOf(form).querySelectorAll("input[name=version]").forEach(function (input) {
      input.value = String((parseInt(input.value, 10) || 0) + 1);
    });
    var seat = form.querySelector("input[name=seat]");
    if (seat && answer.turn !== null && answer.turn !== undefined) seat.value = String(answer.turn);
    tableOf(form).querySelectorAll("form[data-local] .picker-text").forEach(function (input) {
      input.value = "";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    showDock(form, answer.html);
    form.dataset.waiting = String((parseInt(form.dataset.waiting || "0", 10) || 0) + 1);
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    var form = elt && elt.closest && elt.closest("form");
    if (form && e.detail.xhr && e.detail.xhr.status) judgedMoves.delete(form);  /* the referee answered */
  });

  /* A question the page could not send (offline, before the engine was ready: a round's split,
     a check) is asked again as soon as the engine is ready, with no new tap: its event is told
     again (htmx asks, the phone answers). */
  var unanswered = new Map();  /* elt -> {type, target} of the event that asked */
  document.addEventListener("htmx:sendError", function (e) {
    var d = e.detail || {};
    var elt = d.elt;
    var cfg = d.requestConfig;
    var ev = cfg && cfg.triggeringEvent;
    if (!elt || !elt.getAttribute || !elt.getAttribute("data-local") || !cfg || gameHolder(elt)) return;
    if (cfg.verb !== "get" && elt.querySelector && elt.querySelector("input[name=version]")) return;  /* a write */
    unanswered.set(elt, { type: (ev && ev.type) || "submit", target: (ev && ev.target) || elt });
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail && e.detail.xhr && e.detail.xhr.status) unanswered.delete(e.detail.elt);
  });
  function answerWaiting() {
    unanswered.forEach(function (r, elt) {
      if (!elt.isConnected) return;
      var target = r.target && r.target.isConnected ? r.target : elt;
      if (r.type === "submit" && target.requestSubmit) target.requestSubmit();
      else target.dispatchEvent(new Event(r.type, { bubbles: true }));
    });
    unanswered.clear();
  }

  /* The one seam (static/js/answer-here.js): once the engine is ready, htmx's request from an
     element marked data-local="<kind>" (a check form, a score form, a round's live split) is
     answered by the engine instead of the server, with the fields htmx sends; htmx swaps it,
     pushes its address and says its events as for the server's answer.  If the engine cannot
     answer, the request goes to the server.  (A followed table's moves are judged at
     htmx:confirm above, then sent to the referee.) */
  function sentPairs(cfg) {
    var out = [];
    if (cfg && cfg.formData && cfg.formData.forEach) cfg.formData.forEach(function (value, name) {
      if (typeof value === "string") out.push([name, value]);
    });
    return out;
  }
  document.addEventListener("htmx:beforeSend", function (e) {
    var d = e.detail || {};
    var elt = d.elt;
    var kind = elt && elt.getAttribute && elt.getAttribute("data-local");
    var seam = window.Thirteen.answerHere;
    if (!kind || !ready || !worker || !seam || !d.xhr || !d.requestConfig || gameHolder(elt)) return;
    var tapped = performance.now();
    var setup = null;
    try { setup = JSON.parse(elt.getAttribute("data-local-setup") || "null"); } catch (err) { setup = null; }
    var request = { kind: kind, language: language(), form: sentPairs(d.requestConfig), remembered: rememberedRules(elt), setup: setup };
    var path = (d.pathInfo && d.pathInfo.finalRequestPath) || d.requestConfig.path;
    seam.answer(d.xhr, function () {
      return ask(request).then(function (answer) {
        keepRules(elt, answer.remember);
        return { status: answer.status || 200, body: answer.html };
      });
    }, new URL(path, location.href).href, function (reply) {
      window.Thirteen.engine.last = { kind: kind, ms: performance.now() - tapped, status: reply.status };
      elt.dispatchEvent(new CustomEvent("thirteen:judged", { bubbles: true, detail: { kind: kind, local: true } }));
    });
  });

  /* --- a game started on this phone, drawn here until the referee has it -------------
     A game started offline (static/js/offline-start.js keeps it in localStorage
     "thirteen-starts", with the links the phone made) has no page on the referee yet.  Once
     the engine's pages are ready (pages.zip, fetched after the engine), htmx's requests for that
     game's addresses are answered here through the same seam (answer-here.js): the worker
     draws the page with the server's templates and Python (referee.web.phone_pages.draw) from
     the phone's records of the game (its start form, then its writes waiting in the outbox,
     in order); a write the referee would store is kept in the outbox as any write typed
     offline (app.js), and sent, after the start, once the network is back.  Links to the
     game's pages are boosted (htmx asks for them, so they are answered here and pushed into
     the history); the start opens its game the same way. */
  var pagesReady = false;
  var STARTS = "thirteen-starts";
  function starts() {
    try { var list = JSON.parse(localStorage.getItem(STARTS) || "[]"); return Array.isArray(list) ? list : []; } catch (err) { return []; }
  }
  function valueOf(params, name) {
    for (var i = 0; i < params.length; i++) if (params[i][0] === name) return params[i][1];
    return "";
  }
  /* The kept start whose game ``path`` is an address of (its keeper or its watch link), or null. */
  function keptStart(path) {
    var found = null;
    starts().forEach(function (s) {
      var watch = s.prefix + "/g/" + valueOf(s.params || [], "watch_token");
      [s.link, watch].forEach(function (link) {
        if (path === link || path.indexOf(link + "/") === 0) found = s;
      });
    });
    return found;
  }
  function records(start) {
    var outbox = window.Thirteen.outbox;
    var writes = (outbox ? outbox.list() : []).filter(function (w) { return w.game === start.link; });
    return {
      start: { action: start.action, params: start.params, at: start.at },
      writes: writes.map(function (w) { return { path: w.path, params: w.params, id: w.id, at: w.at }; })
    };
  }
  function draw(request) { return ask(request, "draw"); }
  window.Thirteen.drawn = { keptStart: keptStart };  /* live.js asks no stream of such a game */
  document.addEventListener("htmx:beforeSend", function (e) {
    var d = e.detail || {};
    var cfg = d.requestConfig;
    var seam = window.Thirteen.answerHere;
    if (!pagesReady || !worker || !seam || !d.xhr || !cfg) return;
    if (d.elt && d.elt.getAttribute && d.elt.getAttribute("data-local") && !gameHolder(d.elt)) return;  /* answered above, as any check */
    if (cfg.headers && cfg.headers["X-Thirteen-Replay"]) return;  /* sent to the referee: the start was answered */
    var url = new URL((d.pathInfo && d.pathInfo.finalRequestPath) || cfg.path, location.href);
    if (url.origin !== location.origin) return;
    var start = keptStart(url.pathname);
    if (!start) return;
    var tapped = performance.now();
    var headers = cfg.headers || {};
    var request = {
      method: cfg.verb.toUpperCase(), path: url.pathname + url.search, form: cfg.verb === "get" ? [] : sentPairs(cfg),
      htmx: true, boosted: !!cfg.boosted || headers["HX-Boosted"] === "true", language: language(),
      write: headers["X-Thirteen-Write"] || "", share: config.share, at: Date.now(), game: records(start)
    };
    seam.answer(d.xhr, function () {
      return draw(request).then(function (answer) {
        if (!answer || !answer.status) return null;  /* not a page the phone draws: the network's */
        if (answer.stored && !(window.Thirteen.outbox && window.Thirteen.outbox.keep(d, { drawn: true }))) return null;
        var reply = { status: answer.status, body: answer.html, headers: answer.headers || {}, workerMs: answer.ms };
        if (answer.url) reply.url = new URL(answer.url, location.href).href;
        return reply;
      }).catch(function (err) { console.warn("thirteen: the phone could not draw " + request.path + ": " + err); return null; });
    }, url.href, function (reply) {
      window.Thirteen.engine.last = { kind: "page", ms: performance.now() - tapped, status: reply.status,
                                      workerMs: reply.workerMs };
      document.dispatchEvent(new CustomEvent("thirteen:drawn", { detail: { path: request.path, status: reply.status,
                                                                           ms: performance.now() - tapped } }));
    });
  });
  /* The links to a kept game's pages, boosted: htmx asks for them (answered above). */
  function boostKeptGames(root) {
    if (!pagesReady || !root || !root.querySelectorAll || !window.htmx) return;
    root.querySelectorAll("a[href]").forEach(function (a) {
      var url = new URL(a.href, location.href);
      if (url.origin !== location.origin || a.hasAttribute("download") || a.hasAttribute("hx-boost")) return;
      if (!keptStart(url.pathname)) return;
      a.setAttribute("hx-boost", "true");
      window.htmx.process(a);
    });
    /* Its plain forms the phone draws the answer of (data-phone-draws: a sheet's end of the
       evening): htmx sends them, answered above.  (Other plain forms still ask the network.) */
    root.querySelectorAll("form[data-phone-draws]").forEach(function (form) {
      var url = new URL(form.action, location.href);
      if (url.origin !== location.origin || form.hasAttribute("hx-boost") || !keptStart(url.pathname)) return;
      form.setAttribute("hx-boost", "true");
      window.htmx.process(form);
    });
  }
  document.addEventListener("htmx:load", function (e) { boostKeptGames(e.detail && e.detail.elt); });
  /* Open a kept game's page (the start just kept, a game of the home page's list): as a boosted
     link htmx asks for, answered here.  Whether it could be (else the page stays). */
  function openKept(link) {
    if (!pagesReady || !worker || !window.htmx || !keptStart(new URL(link, location.href).pathname)) return false;
    var a = document.createElement("a");
    a.href = link;
    a.hidden = true;
    a.setAttribute("hx-boost", "true");
    document.body.appendChild(a);
    window.htmx.process(a);
    a.click();  /* the answer replaces the body, this link with it */
    return true;
  }

  /* A form that waits after a change before it asks (hx-trigger "change delay:…", so that
     quick taps make one request to the server) needs no wait with the engine ready: htmx is
     asked at once (htmx.ajax from the form: its target, swap and push-url), the seam answers
     it, and the request htmx makes after its wait, with the same values, is not made. */
  var answeredEarly = new WeakMap();  /* form -> the values it was asked with at the change */
  function signature(elt, verb) { return JSON.stringify(pairs(window.htmx.values(elt, verb))); }
  document.addEventListener("change", function (e) {
    var elt = e.target && e.target.closest && e.target.closest("form[data-local]");
    if (!elt || !ready || !worker || !window.htmx || gameHolder(elt)) return;
    if (!/\bchange delay:/.test(elt.getAttribute("hx-trigger") || "")) return;
    var verb = elt.getAttribute("hx-get") ? "get" : "post";
    var path = elt.getAttribute("hx-" + verb);
    if (!path) return;
    answeredEarly.set(elt, signature(elt, verb));
    window.htmx.ajax(verb.toUpperCase(), path, { source: elt });
  }, true);

  document.addEventListener("htmx:confirm", function (e) {
    var d = e.detail;
    var elt = d && d.elt;
    var kind = elt && elt.getAttribute && elt.getAttribute("data-local");
    if (!kind || !ready || !worker || !window.htmx) return;
    if (gameHolder(elt)) {
      /* A table started on this phone: the move is drawn whole below (its refusal too). */
      if (!(pagesReady && keptStart(location.pathname))) tableMove(e, d, elt, kind);
      return;
    }
    var early = answeredEarly.get(elt);
    if (early === undefined) return;
    if (!d.triggeringEvent) return;  /* htmx.ajax's own request, at the change */
    answeredEarly.delete(elt);
    if (early === signature(elt, d.verb)) e.preventDefault();  /* answered at the change: not again after the wait */
  });

  /* A form marked data-local-offline="<kind>" (a round's entry) that could not be sent waits in
     the outbox (app.js); with the engine ready, what the referee will make of it is shown at
     once above the form, drawn as the server draws it. */
  document.addEventListener("htmx:sendError", function (e) {
    var elt = e.detail && e.detail.elt;
    var form = elt && elt.closest && elt.closest("form[data-local-offline]");
    if (!form || !ready || !worker || !window.htmx) return;
    var kind = form.getAttribute("data-local-offline");
    var tapped = performance.now();
    var setup = null;
    try { setup = JSON.parse(form.getAttribute("data-local-setup") || "null"); } catch (err) { setup = null; }
    ask({ kind: kind, language: language(), form: pairs(window.htmx.values(form, "post")), remembered: {}, setup: setup })
      .then(function (answer) {
        var shown = form.previousElementSibling;
        if (!shown || !shown.hasAttribute("data-local-shown")) {
          shown = document.createElement("div");
          shown.setAttribute("data-local-shown", kind);
          form.parentNode.insertBefore(shown, form);
        }
        shown.innerHTML = answer.html;
        window.Thirteen.engine.last = { kind: kind, ms: performance.now() - tapped, status: answer.status };
        shown.scrollIntoView({ block: "start" });
      }, function () { /* the outbox still says it waits: the referee judges it when it is sent */ });
  });

  window.Thirteen = window.Thirteen || {};
  window.Thirteen.engine = { isReady: function () { return ready; }, start: function () { if (config) begin(); },
                             drawsPages: function () { return pagesReady; }, openKept: openKept };

  showChangedRules();
  if (document.readyState === "complete") settle();
  else window.addEventListener("load", settle);
})();
