/* The home page's list of the games this phone opened or started (kept by
   static/js/phone-games.js in localStorage "thirteen-games", on the phone only): its
   <section id="phone-games"> (its words in its data attributes) lists them newest first, each a
   link (one tap) and a "Remove" button.  Drawn on the phone, so it works offline (the home
   page is kept by the service worker).  A game started offline and not sent yet opens its form
   page until the referee has it. */
(function () {
  "use strict";
  function load() { return window.Thirteen && window.Thirteen.games ? window.Thirteen.games.list() : []; }
  function gameOf(path) { return window.Thirteen.games.gameOf(path); }
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
      a.href = g.pending && g.form ? g.form : g.link;
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
        if (window.confirm(words.removeSure)) window.Thirteen.games.forget(g.link);
      });
      li.appendChild(drop);
      ul.appendChild(li);
    });
  }


  window.Thirteen = window.Thirteen || {};
  window.Thirteen.drawGames = draw;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw);
  else draw();
  window.addEventListener("storage", function (e) {
    if (e.key === "thirteen-games" || e.key === "thirteen-outbox" || e.key === "thirteen-starts") draw();
  });
  window.addEventListener("pageshow", function (e) { if (e.persisted) draw(); });
})();
