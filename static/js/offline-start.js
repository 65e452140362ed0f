/* Starting a game with no network: every new-game form (a form with the starting id of
   partials/starting_id.html whose address is not a game's own) works in airplane mode.

   - The phone makes the game's identity itself: its keeper and watch tokens (24 random bytes,
     32 URL-safe characters, as long as the server's) in the form's keeper_token and
     watch_token fields, beside the form's write id (the starting id).  The server takes the
     game with those tokens (FollowedGame.start): the same form sent twice makes one game; a
     token already another game's is a 409, and the phone picks others and says so.
   - The form is sent by this script (fetch), every field as typed (a group's hidden field
     too).  Answered with the game's page (a redirect) the phone opens it.  A refusal (the
     names, a rule) is shown as the server draws it (the form sent as a plain form).
   - No answer (no network, a 5xx, a timeout): the start is kept on the phone
     (localStorage "thirteen-starts"), the form stays as typed, the page says what happens next,
     and the home page's list (phone-games.js) shows the game "not sent yet".  It is sent by
     itself, in order, once the referee can be reached (from any page of the app); the phone
     then opens the game if the player is still on the form.
   window.Thirteen.starts: list(), flush(). */
(function () {
  "use strict";
  if (window.Thirteen && window.Thirteen.starts) return;  /* brought twice (two forms on a page) */
  var KEY = "thirteen-starts";
  /* Where this file is (its name changes with each release), for a page that has no start
     form but must send a start kept here (phone-games.js brings it then). */
  var SELF = document.currentScript && document.currentScript.src;
  var CLAIM_MS = 20000;
  /* The words, from the form's starting id (partials/starting_id.html: data-kept, data-taken,
     data-refused); a page without such a form says nothing itself (the home page's list does). */
  function word(key, fallback) {
    var input = document.querySelector("input[data-write-id][data-" + key + "]");
    return input ? input.getAttribute("data-" + key) : (key === "offline" ? document.body.dataset.offline || fallback : "");
  }

  /* The starts kept (window.Thirteen.storedList: load, save), and another tab's write at the same
     moment may drop a start this tab kept: put back (window.Thirteen.keptByThisTab); both from
     static/js/app.js, which always runs before this file. */
  var stored = window.Thirteen.storedList(KEY);
  var load = stored.load;
  var save = stored.save;
  var thisTab = window.Thirteen && window.Thirteen.keptByThisTab ? window.Thirteen.keptByThisTab(KEY)
    : { kept: function () {}, changed: function () {}, done: function () {}, putBack: function () { return false; } };
  function update(id, change) {
    var list = load();
    list.forEach(function (s) {
      if (s.id !== id) return;
      change(s);
      thisTab.changed(s);
    });
    save(list);
  }
  function drop(id) {
    thisTab.done(id);
    save(load().filter(function (s) { return s.id !== id; }));
  }

  /* 24 random bytes in URL-safe base64: 32 characters, as models.new_token makes them, drawn
     again in the rare case of fewer than 16 different characters (the server takes no weaker
     token: store.strong_token). */
  function token() {
    var bytes = new Uint8Array(24);
    var made;
    do {
      window.crypto.getRandomValues(bytes);
      made = btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
    } while (new Set(made.split("")).size < 16);
    return made;
  }
  /* A starting id as app.js makes them: the time, then 24 random letters and digits. */
  function startingId() {
    var bytes = new Uint8Array(24);
    window.crypto.getRandomValues(bytes);
    return Date.now().toString(36) + Array.prototype.map.call(bytes, function (b) { return (b % 36).toString(36); }).join("");
  }
  function startForm(form) {
    if (!form || form.tagName !== "FORM" || (form.getAttribute("method") || "").toLowerCase() !== "post") return false;
    var action = new URL(form.action, location.href);
    return action.origin === location.origin && !!form.querySelector("input[data-write-id]") && !/\/g\//.test(action.pathname);
  }
  /* The game's address: the form's (…/new) without its last part. */
  function prefixOf(path) { return path.replace(/\/[^\/]*$/, ""); }
  function hidden(form, name, value) {
    var input = form.querySelector("input[type=hidden][name='" + name + "']");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }
  function pairsOf(form, submitter) {
    var pairs = [];
    var data = null;
    try { data = new FormData(form, submitter || undefined); } catch (err) { data = new FormData(form); }
    data.forEach(function (value, key) { if (typeof value === "string") pairs.push([key, value]); });
    return pairs;
  }
  function value(pairs, name) {
    for (var i = 0; i < pairs.length; i++) if (pairs[i][0] === name) return pairs[i][1];
    return "";
  }
  function setValue(pairs, name, v) { pairs.forEach(function (p) { if (p[0] === name) p[1] = v; }); }
  function players(pairs) {
    return pairs.filter(function (p) { return /^names?\d*$/.test(p[0]) && p[1].trim(); }).map(function (p) { return p[1].trim(); });
  }

  /* --- what the page says ------------------------------------------------------------------ */
  function note(text, good) {
    if (!text) return null;
    var box = document.getElementById("offline-start");
    if (!box) box = window.Thirteen.noticeBox("offline-start");
    box.classList.toggle("ok", !!good);
    box.textContent = "";
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    box.hidden = false;
    return box;
  }
  function showKept() {
    var mine = load().filter(function (s) { return s.page === location.pathname; });
    if (!mine.length) return;
    var last = mine[mine.length - 1];
    note(word("kept", "No connection: the game of {players} is kept on this phone, not sent yet. It is started by itself when the referee can be reached, and its page opens then; nothing you typed is lost.")
      .replace("{players}", last.players.join(", ")));
    /* The form as it was typed (a reload, a tab opened again). */
    var form = document.querySelector("form[action='" + last.action + "']");
    if (!form) return;
    var seen = {};
    last.params.forEach(function (p) {
      var inputs = Array.prototype.filter.call(form.elements, function (e) { return e.name === p[0]; });
      var at = seen[p[0]] || 0;
      seen[p[0]] = at + 1;
      inputs.forEach(function (input, n) {
        if (input.type === "checkbox" || input.type === "radio") { if (input.value === p[1]) input.checked = true; }
        else if (n === at && input.type !== "hidden") input.value = p[1];
      });
    });
  }
  function remember(start) {
    var games = window.Thirteen && window.Thirteen.games;
    if (games) games.remember({ link: start.link, name: start.name, players: start.players, role: "keeper",
                                pending: true, form: start.page, changed: start.at, opened: start.at });
  }

  /* --- sending ---------------------------------------------------------------------------- */
  function send(start) {
    var body = new URLSearchParams();
    start.params.forEach(function (p) { body.append(p[0], p[1]); });
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? window.setTimeout(function () { abort.abort(); }, 15000) : 0;
    return fetch(start.action, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { "X-Thirteen-Write": value(start.params, "write") }, signal: abort ? abort.signal : undefined
    }).then(function (response) {
      window.clearTimeout(timer);
      return response;
    }, function (err) { window.clearTimeout(timer); throw err; });
  }
  /* The referee's answer: "started" (it has the game at the phone's link), "taken" (a token is
     another game's: others picked), "refused" (a 4xx with its reason), or "unknown" (kept). */
  function outcome(response) {
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) return "started";
    if (response.status === 409) return "taken";
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) return "refused";
    return "unknown";
  }
  function freshTokens(start) {
    var keeper = token();
    var watch = token();
    setValue(start.params, "keeper_token", keeper);
    setValue(start.params, "watch_token", watch);
    var old = start.link;
    start.link = start.prefix + "/g/" + keeper;
    var games = window.Thirteen && window.Thirteen.games;
    if (games && old !== start.link) games.forget(old);
    return start;
  }

  var sending = false;
  var toOpen = "";  /* a game sent from the home page's list, opened once no other start waits */
  /* A page shown from the phone's copy (the network failed just now) sends nothing before the
     referee answers it once (/healthz) or the browser says the network is back. */
  var fromCopy = document.body.hasAttribute("data-from-cache");
  function reachable() {
    return fetch("/healthz", { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      if (r.ok) fromCopy = false;
      return r.ok;
    }, function () { return false; });
  }
  /* Send the oldest kept start (unless another tab is on it), then the next. */
  function flush() {
    if (sending || navigator.onLine === false) return;
    if (fromCopy) { reachable().then(function (ok) { if (ok) flush(); }); return; }
    var list = load();
    var now = Date.now();
    var start = null;
    for (var i = 0; i < list.length; i++) {
      if (list[i].claim && now - list[i].claim < CLAIM_MS) return;
      start = list[i];
      break;
    }
    if (!start) {
      /* All sent: on the home page, where they were listed "not sent yet", the last one opens
         (the note on its form said its page opens once the referee has it). */
      if (toOpen && !list.length) { var link = toOpen; toOpen = ""; location.assign(link); }
      return;
    }
    sending = true;
    update(start.id, function (s) { s.claim = now; });
    send(start).then(function (response) {
      sending = false;
      var what = outcome(response);
      if (what === "started") {
        drop(start.id);
        var games = window.Thirteen && window.Thirteen.games;
        if (games) games.remember({ link: start.link, pending: false, changed: Date.now() });
        if (location.pathname === start.page || location.pathname === start.link) {
          location.assign(start.link);  /* the player waits on the form: the game opens */
          return;
        }
        if (document.getElementById("phone-games")) toOpen = start.link;
        flush();
      } else if (what === "taken") {
        update(start.id, function (s) { freshTokens(s); delete s.claim; });
        remember(load().filter(function (s) { return s.id === start.id; })[0] || start);
        note(word("taken", "The link this phone made for the game was already another game's: it picked another and sends the game again."));
        window.setTimeout(flush, 0);
      } else if (what === "refused") {
        drop(start.id);
        var kept = window.Thirteen && window.Thirteen.games;
        if (kept) kept.forget(start.link);
        response.text().then(function (html) {
          var reason = "";
          try {
            var p = new DOMParser().parseFromString(html, "text/html").querySelector(".error-box p, .field-error");
            reason = p ? p.textContent.trim() : "";
          } catch (err) { reason = ""; }
          note(word("refused", "The referee did not start the game typed on this phone: {reason}").replace("{reason}", reason || response.status));
        });
      } else {
        update(start.id, function (s) { delete s.claim; });
      }
    }, function () {
      sending = false;
      update(start.id, function (s) { delete s.claim; });
    });
  }

  /* --- the form ----------------------------------------------------------------------------- */
  /* Taken in the capture phase, before htmx (a boosted form) or anything else sends it. */
  function busy(form, on) {
    form.classList.toggle("is-sending", on);
    if (on) form.setAttribute("aria-busy", "true"); else form.removeAttribute("aria-busy");
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (e.defaultPrevented || !startForm(form) || !window.fetch || !window.crypto) return;
    e.preventDefault();
    e.stopPropagation();
    var submitter = e.submitter || null;
    if (form.dataset.starting) return;  /* on its way already: no second game from a second tap */
    form.dataset.starting = "1";
    busy(form, true);
    hidden(form, "keeper_token", token());
    hidden(form, "watch_token", token());
    var pairs = pairsOf(form, submitter);
    var action = new URL(form.action, location.href).pathname;
    var prefix = prefixOf(action);
    var start = {
      id: value(pairs, "write") || startingId(), action: action, prefix: prefix, params: pairs, page: location.pathname,
      link: prefix + "/g/" + value(pairs, "keeper_token"), players: players(pairs),
      name: document.title.split(" · ")[0], at: Date.now()
    };
    function keepIt() {
      delete form.dataset.starting;
      busy(form, false);
      var list = load().filter(function (s) { return s.id !== start.id; });
      list.push(start);
      try { if (SELF) localStorage.setItem(KEY + "-script", new URL(SELF).pathname); } catch (err) { /* private mode */ }
      if (!save(list)) {
        note(word("offline", "No connection to the referee. Nothing was sent; what you entered is still here."));
        return;
      }
      thisTab.kept(start);
      remember(start);
      showKept();
      /* The next tap is another game: a fresh id and fresh links. */
      var id = form.querySelector("input[data-write-id]");
      if (id) id.value = startingId();
      /* The phone draws this game's pages itself (static/js/engine.js, once its engine is
         ready): the game opens now, played on the phone until the referee has it. */
      var engine = window.Thirteen.engine;
      if (engine && engine.openKept) engine.openKept(start.link);
    }
    if (navigator.onLine === false) { keepIt(); return; }
    send(start).then(function (response) {
      var what = outcome(response);
      if (what === "started") { location.assign(start.link); return; }
      if (what === "taken") {  /* picked by chance by another game: others, sent again at once */
        delete form.dataset.starting;
        busy(form, false);
        hidden(form, "keeper_token", "");
        form.requestSubmit ? form.requestSubmit(submitter || undefined) : form.submit();
        return;
      }
      if (what === "refused" || response.ok) {
        /* The referee's refusal, drawn as it draws it: the same form sent as a plain form (its
           write id makes no game; a refused form stores nothing). */
        delete form.dataset.starting;
        busy(form, false);
        HTMLFormElement.prototype.submit.call(form);
        return;
      }
      keepIt();  /* a 5xx, a timeout: its fate unknown; its id makes a resend safe */
    }, keepIt);
  }, true);

  window.Thirteen.starts = { list: load, flush: flush };

  function init() {
    showKept();
    window.setTimeout(flush, 0);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  window.addEventListener("online", function () { fromCopy = false; flush(); });
  window.setInterval(function () { if (load().length) flush(); }, 4000);
  window.addEventListener("storage", function (e) { if (e.key !== KEY) return;
    var list = load();
    if (thisTab.putBack(list)) save(list);
    showKept();
  });
})();
