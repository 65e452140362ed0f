/* The games this phone opened or started, listed on the home page: kept on the phone only
   (localStorage "thirteen-games"), never sent to the server.

   - A followed game's page carries what the list shows in <script id="thirteen-game"> (its
     name, its players, the role of this link, its last change): each page of a game (the
     sheet, a round, the table) updates the one entry of that game, keyed by the part of the
     address up to its link (/<game>/g/<token>).  A page shown from the phone's copy adds
     nothing new.  A write this phone made moves "last change" to its time.
   - A game started offline (static/js/offline-start.js) is listed at once, "not sent yet";
     so is a game with a write waiting in the outbox (app.js).
   - The home page lists them (static/js/home-games.js).
   This file comes once the page has settled and the service worker is ready (app.js), from
   the worker's cache: none of it weighs on the first screen.
   - Once a page has settled, the service worker is asked to keep it and the screens it links
     to (templates/sw.js), so they open offline from the first visit on.
   The list is window.Thirteen.games: list(), remember(entry), forget(link). */
(function () {
  "use strict";
  var KEY = "thirteen-games";
  var MOST = 40;

  var stored = window.Thirteen.storedList(KEY);  /* static/js/app.js */
  function load() {
    return stored.load().filter(function (g) { return g && typeof g.link === "string"; });
  }
  function save(list) {
    /* Newest first: the game this phone last opened or changed. */
    function recent(g) { return Math.max(g.changed || 0, g.opened || 0); }
    list.sort(function (a, b) { return recent(b) - recent(a); });
    stored.save(list.slice(0, MOST));
  }
  function gameOf(path) {
    var m = /^(.*?\/g\/[^\/?#]+)/.exec(path || "");
    return m ? m[1] : "";
  }
  /* Another tab's write at the same moment may drop the game this page kept: put back
     (window.Thirteen.keptByThisTab, static/js/app.js, which always runs before this file),
     unless the player removed it from the list meanwhile. */
  var thisTab = window.Thirteen && window.Thirteen.keptByThisTab ? window.Thirteen.keptByThisTab(KEY, "link")
    : { kept: function () {}, done: function () {}, putBack: function () { return false; } };
  /* Add or update one game: the fields given replace the kept ones. */
  function remember(entry) {
    if (!entry || !entry.link) return;
    var list = load();
    var kept = null;
    for (var i = 0; i < list.length; i++) if (list[i].link === entry.link) kept = list[i];
    if (!kept) { kept = { link: entry.link }; list.push(kept); }
    Object.keys(entry).forEach(function (k) { if (entry[k] !== undefined) kept[k] = entry[k]; });
    save(list);
    thisTab.kept(kept);
    if (window.Thirteen.drawGames) window.Thirteen.drawGames();
  }
  window.addEventListener("storage", function (e) {
    if (e.key !== KEY) return;
    var list = load();
    if (!thisTab.putBack(list)) return;
    save(list);
    if (window.Thirteen.drawGames) window.Thirteen.drawGames();
  });
  window.Thirteen = window.Thirteen || {};
  function forgetQuietly(link) {
    thisTab.done(link);
    save(load().filter(function (g) { return g.link !== link; }));
  }
  function forget(link) {
    forgetQuietly(link);
    if (window.Thirteen.drawGames) window.Thirteen.drawGames();
  }

  /* --- a game's page: its entry ---------------------------------------------------------- */
  function fromPage() {
    var holder = document.getElementById("thirteen-game");
    if (holder) fromGame(location.pathname, holder.textContent, Date.now(), document.body.hasAttribute("data-from-cache"));
  }
  /* The pages of games left before this file came (app.js noted them): listed now. */
  function fromNotes() {
    var notes = window.Thirteen.storedList("thirteen-games-seen");
    var seen = notes.load();
    if (!seen.length) return;
    /* only the notes read: one another tab wrote meanwhile stays for the next page */
    function read(n) { return seen.some(function (s) { return s && n && s.path === n.path && s.at === n.at; }); }
    notes.save(notes.load().filter(function (n) { return !read(n); }));
    seen.forEach(function (s) { if (s && typeof s.path === "string") fromGame(s.path, String(s.about), s.at || Date.now(), false); });
  }
  function fromGame(path, json, opened, fromCache) {
    var link = gameOf(path);
    if (!link) return;
    var about = null;
    try { about = JSON.parse(json); } catch (err) { about = null; }
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
                  role: known && known.role === "keeper" ? "keeper" : about.role, pending: false, opened: opened };
    /* The page's last change, unless this phone knows a later one (a write it made since). */
    if (!isNaN(changed) && (!known || !known.changed || known.changed < changed)) entry.changed = changed;
    if (!known && isNaN(changed)) entry.changed = opened;
    if (fromCache && known) {
      remember({ link: link, opened: opened, changed: known.changed });  /* the phone's copy: nothing newer in it */
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
  if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("message", function (e) {
    if (e.data && e.data.type === "kept") document.documentElement.dataset.kept = "1";  /* this page and its screens */
  });
  if (document.readyState === "complete") keepPages();
  else window.addEventListener("load", keepPages);
  document.addEventListener("htmx:pushedIntoHistory", keepPages);  /* a boosted link: a page of its own */

  /* --- the other parts, where the page needs them ----------------------------------------- */
  /* static/js/offline-start.js where a form starts a game, or while a start waits on this
     phone (to send it); static/js/home-games.js where the list is shown.  From the service
     worker's cache, like this file. */
  function bring(src) {
    if (!src || document.querySelector("script[src='" + src + "']")) return;
    var script = document.createElement("script");
    script.src = src;
    document.head.appendChild(script);
  }
  function bringParts() {
    var waiting = false;
    try { waiting = JSON.parse(localStorage.getItem("thirteen-starts") || "[]").length > 0; } catch (err) { waiting = false; }
    var form = Array.prototype.filter.call(document.querySelectorAll("form input[data-write-id][data-script]"), function (input) {
      return !/\/g\//.test(new URL(input.form.action, location.href).pathname);
    })[0];
    var list = document.getElementById("phone-games");
    var starts = null;
    try { starts = localStorage.getItem("thirteen-starts-script"); } catch (err) { starts = null; }
    if (form) bring(form.getAttribute("data-script"));
    else if (waiting) bring((list && list.getAttribute("data-starts")) || starts);
    if (list) bring(list.getAttribute("data-script"));
  }

  window.Thirteen = window.Thirteen || {};
  window.Thirteen.games = { list: load, remember: remember, forget: forget, gameOf: gameOf };

  function init() { fromNotes(); fromPage(); bringParts(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
