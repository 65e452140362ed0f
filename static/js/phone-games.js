/* The games this phone opened or started, listed on the home page: kept on the phone only
   (localStorage "thirteen-games"), never sent to the server.

   - A followed game's page carries what the list shows in <script id="thirteen-game"> (its
     name, its players, the role of this link, its last change): each page of a game (the
     sheet, a round, the table) updates the one entry of that game, keyed by the part of the
     address up to its link (/<game>/g/<token>).  A page shown from the phone's copy adds
     nothing new.  A write this phone made moves "last change" to its time.
   - A game started offline (static/js/offline-start.js) is listed at once, "not sent yet";
     so is a game with a write waiting in the outbox (app.js).
   - The home page's <section id="phone-games"> (its words in its data attributes) lists them,
     newest first, each a link (one tap) and a "Remove" button; it is drawn on the phone, so it
     works offline (the home page is kept by the service worker).
   The list is window.Thirteen.games: list(), remember(entry), forget(link). */
(function () {
  "use strict";
  var KEY = "thirteen-games";
  var MOST = 40;

  function load() {
    try {
      var list = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (g) { return g && typeof g.link === "string"; }) : [];
    } catch (err) { return []; }
  }
  function save(list) {
    /* Newest first: the game this phone last opened or changed. */
    function recent(g) { return Math.max(g.changed || 0, g.opened || 0); }
    list.sort(function (a, b) { return recent(b) - recent(a); });
    try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MOST))); } catch (err) { /* storage full or off */ }
  }
  function gameOf(path) {
    var m = /^(.*?\/g\/[^\/?#]+)/.exec(path || "");
    return m ? m[1] : "";
  }
  /* Add or update one game: the fields given replace the kept ones. */
  function remember(entry) {
    if (!entry || !entry.link) return;
    var list = load();
    var kept = null;
    for (var i = 0; i < list.length; i++) if (list[i].link === entry.link) kept = list[i];
    if (!kept) { kept = { link: entry.link }; list.push(kept); }
    Object.keys(entry).forEach(function (k) { if (entry[k] !== undefined) kept[k] = entry[k]; });
    save(list);
    draw();
  }
  function forgetQuietly(link) { save(load().filter(function (g) { return g.link !== link; })); }
  function forget(link) {
    save(load().filter(function (g) { return g.link !== link; }));
    draw();
  }

  /* --- a game's page: its entry ---------------------------------------------------------- */
  function fromPage() {
    var holder = document.getElementById("thirteen-game");
    var link = gameOf(location.pathname);
    if (!holder || !link) return;
    var about = null;
    try { about = JSON.parse(holder.textContent); } catch (err) { about = null; }
    if (!about) return;
    var changed = Date.parse(about.updated || "");
    /* One entry a game, whichever of its links opened it (the watch link's token names it on
       both pages); the keeper's link stays the one listed once this phone kept the game. */
    var known = load().filter(function (g) { return g.link === link || (about.id && g.id === about.id); })[0];
    if (known && known.link !== link) {
      if (known.role === "keeper" && about.role !== "keeper") link = known.link;
      else { forgetQuietly(known.link); known = Object.assign({}, known, { link: link }); }
    }
    var entry = { id: about.id, name: about.name, what: about.what, players: about.players,
                  role: known && known.role === "keeper" ? "keeper" : about.role, pending: false, opened: Date.now() };
    /* The page's last change, unless this phone knows a later one (a write it made since). */
    if (!isNaN(changed) && (!known || !known.changed || known.changed < changed)) entry.changed = changed;
    if (!known && isNaN(changed)) entry.changed = Date.now();
    if (document.body.hasAttribute("data-from-cache") && known) {
      remember({ link: link, opened: Date.now(), changed: known.changed });  /* the phone's copy: nothing newer in it */
      return;
    }
    remember(Object.assign({ link: link }, entry));
  }
  document.addEventListener("htmx:afterRequest", function (e) {
    var d = e.detail || {};
    var cfg = d.requestConfig;
    if (!cfg || cfg.verb === "get" || !d.successful) return;
    var link = gameOf(location.pathname);
    if (link && load().some(function (g) { return g.link === link; })) remember({ link: link, changed: Date.now() });
  });

  /* --- the home page: the list ------------------------------------------------------------- */
  function waiting(link) {
    var outbox = [];
    try { outbox = JSON.parse(localStorage.getItem("thirteen-outbox") || "[]"); } catch (err) { outbox = []; }
    return Array.isArray(outbox) && outbox.some(function (w) { return w && (w.game === link || gameOf(w.page) === link); });
  }
  function when(ms) {
    var lang = document.documentElement.getAttribute("lang") || undefined;
    var d = new Date(ms);
    var today = new Date();
    try {
      return d.toDateString() === today.toDateString()
        ? d.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })
        : d.toLocaleString(lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    } catch (err) { return d.toISOString().slice(0, 16).replace("T", " "); }
  }
  function draw() {
    var box = document.getElementById("phone-games");
    if (!box) return;
    var list = load();
    var ul = box.querySelector("ul");
    ul.textContent = "";
    box.hidden = !list.length;
    var words = box.dataset;
    list.forEach(function (g) {
      var li = document.createElement("li");
      li.className = "phone-game";
      li.dataset.phoneGame = g.link;
      var a = document.createElement("a");
      a.href = g.link;
      a.className = "phone-game-open";
      var name = document.createElement("b");
      name.textContent = g.name + (g.what ? " · " + g.what : "");
      var players = document.createElement("span");
      players.className = "phone-game-players";
      players.textContent = (g.players || []).join(", ");
      var facts = document.createElement("span");
      facts.className = "phone-game-facts";
      var role = g.role === "keeper" ? words.keeper : words.watcher;
      facts.textContent = role + " · " + (words.changed || "{time}").replace("{time}", when(g.changed || g.opened || Date.now()));
      a.appendChild(name);
      a.appendChild(players);
      a.appendChild(facts);
      if (g.pending || waiting(g.link)) {
        var unsent = document.createElement("span");
        unsent.className = "phone-game-unsent";
        unsent.dataset.unsent = "1";
        unsent.textContent = words.unsent;
        a.appendChild(unsent);
      }
      li.appendChild(a);
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "phone-game-drop";
      drop.textContent = words.remove;
      drop.setAttribute("aria-label", words.remove + ": " + name.textContent + " — " + players.textContent);
      drop.addEventListener("click", function () {
        if (window.confirm(words.removeSure)) forget(g.link);
      });
      li.appendChild(drop);
      ul.appendChild(li);
    });
  }

  /* --- the pages kept for offline -------------------------------------------------------- */
  /* Once the page has settled (never before the first screen: the phone's idle time), the
     service worker is asked to keep this page and the screens it links to (templates/sw.js),
     so that a page opened once, and its round, check and rules pages, open without a network. */
  function links() {
    var seen = {};
    var out = [];
    document.querySelectorAll("a[href]").forEach(function (a) {
      if (a.hasAttribute("download") || a.target === "_blank") return;
      var url;
      try { url = new URL(a.getAttribute("href"), location.href); } catch (err) { return; }
      url.hash = "";
      if (url.origin !== location.origin || seen[url.href] || url.href === location.href) return;
      seen[url.href] = true;
      out.push(url.pathname + url.search);
    });
    return out;
  }
  function keepPages() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext || navigator.onLine === false) return;
    if (document.body.hasAttribute("data-from-cache")) return;  /* offline already: nothing to fetch */
    navigator.serviceWorker.ready.then(function (registration) {
      var idle = window.requestIdleCallback || function (f) { return window.setTimeout(f, 1000); };
      idle(function () {
        if (registration.active) registration.active.postMessage({ type: "keep", page: location.pathname + location.search, links: links() });
      }, { timeout: 5000 });
    }).catch(function () { /* no worker: pages need the network */ });
  }
  if (document.readyState === "complete") keepPages();
  else window.addEventListener("load", keepPages);
  document.addEventListener("htmx:pushedIntoHistory", keepPages);  /* a boosted link: a page of its own */

  window.Thirteen = window.Thirteen || {};
  window.Thirteen.games = { list: load, remember: remember, forget: forget, gameOf: gameOf };

  function init() { fromPage(); draw(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  window.addEventListener("storage", function (e) { if (e.key === KEY || e.key === "thirteen-outbox") draw(); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) draw(); });
})();
