/* The card picker: tap cards in a 4 × 13 grid, see them in a bar, and keep the
   text field (the form's real value) in step.  Without this script the text
   field alone works. */
(function () {
  "use strict";
  var SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
  var SUIT_OF = { "♠": "s", "♤": "s", "♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h" };
  var SUIT_ORDER = "scdh";
  var ORDERS = {
    tienlen: ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"],
    ace_low: ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
  };
  var TOKEN = /(JK|RJ|BJ)|(10|[2-9AJQKT])[\uFE0E\uFE0F]?([SCDH♠♤♣♧♦♢♥♡])|([♠♤♣♧♦♢♥♡])[\uFE0E\uFE0F]?(10|[2-9AJQKT])/iy;
  var SEP = /[\s,;]+/y;

  function canonRank(r) { r = r.toUpperCase(); return r === "T" ? "10" : r; }
  function canonSuit(s) { return SUIT_OF[s] || s.toLowerCase(); }

  /* Read the cards the text holds, skipping what is not a card (the server names it). */
  function parse(text) {
    var out = [], pos = 0, m;
    while (pos < text.length) {
      SEP.lastIndex = pos;
      if ((m = SEP.exec(text))) { pos = SEP.lastIndex; continue; }
      TOKEN.lastIndex = pos;
      m = TOKEN.exec(text);
      if (!m) { pos += 1; continue; }
      if (m[1]) out.push(m[1].toUpperCase());
      else if (m[2]) out.push(canonRank(m[2]) + canonSuit(m[3]));
      else out.push(canonRank(m[5]) + canonSuit(m[4]));
      pos = TOKEN.lastIndex;
    }
    return out;
  }
  function isJoker(code) { return code.length === 2 && /^(JK|RJ|BJ)$/.test(code); }
  function show(code) { return isJoker(code) ? code : code.slice(0, -1) + SUITS[code.slice(-1)]; }
  function isRed(code) { return code === "RJ" || (!isJoker(code) && "dh".indexOf(code.slice(-1)) >= 0); }
  function sortKey(order) {
    var ranks = ORDERS[order] || ORDERS.ace_low;
    return function (code) {
      if (isJoker(code)) return 1000 + ["JK", "RJ", "BJ"].indexOf(code);
      return ranks.indexOf(code.slice(0, -1)) * 4 + SUIT_ORDER.indexOf(code.slice(-1));
    };
  }

  /* Drafts: the cards in a picker are kept in the tab's session storage until they are
     sent, so a reload or a mis-tap on "back" does not lose them.  Sending clears the
     drafts; the server's answer then decides the field (refused cards come back typed). */
  var DRAFT = "thirteen-draft:";
  function draftKey(input) { return DRAFT + location.pathname + ":" + (input.id || input.name); }
  function saveDraft(input) {
    try {
      if (input.value) sessionStorage.setItem(draftKey(input), input.value);
      else sessionStorage.removeItem(draftKey(input));
    } catch (e) { /* storage off: nothing to keep */ }
  }
  function readDraft(input) {
    try { return sessionStorage.getItem(draftKey(input)) || ""; } catch (e) { return ""; }
  }
  function pickerInputs(scope) {
    return Array.prototype.slice.call((scope || document).querySelectorAll("[data-picker] .picker-text"));
  }
  function clearDrafts(scope) {
    pickerInputs(scope).forEach(function (input) {
      try { sessionStorage.removeItem(draftKey(input)); } catch (e) { /* nothing kept */ }
    });
  }
  function saveDrafts() { pickerInputs(document).forEach(saveDraft); }

  function setup(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = "1";
    var input = root.querySelector(".picker-text");
    if (!input.value) input.value = readDraft(input);
    saveDraft(input);
    var chosenBar = root.querySelector(".picker-chosen");
    var buttons = Array.prototype.slice.call(root.querySelectorAll(".card-btn"));
    var twins = parseInt(root.dataset.twins || "1", 10) || 1;
    var ordered = root.hasAttribute("data-ordered");
    var key = sortKey(root.dataset.order);
    var cards = parse(input.value);

    function counts() {
      var c = {};
      cards.forEach(function (code) { c[code] = (c[code] || 0) + 1; });
      return c;
    }
    function arranged() {
      if (ordered) return cards.slice();
      return cards.slice().sort(function (a, b) { return key(a) - key(b); });
    }
    function render() {
      var c = counts();
      buttons.forEach(function (b) {
        var n = c[b.dataset.card] || 0;
        b.setAttribute("aria-pressed", n > 0 ? "true" : "false");
        b.querySelector(".n").textContent = n > 1 ? "×" + n : "";
      });
      chosenBar.textContent = "";
      arranged().forEach(function (code) {
        var chip = document.createElement("button");
        chip.type = "button";
        chip.className = "chip " + (isRed(code) ? "red" : "black");
        chip.textContent = show(code);
        chip.setAttribute("aria-label", show(code) + " ✕");
        chip.addEventListener("click", function () {
          var i = cards.lastIndexOf(code);
          if (i >= 0) cards.splice(i, 1);
          commit();
        });
        chosenBar.appendChild(chip);
      });
    }
    function commit() {
      input.value = arranged().map(show).join(" ");
      saveDraft(input);
      render();
      input.dispatchEvent(new Event("change", { bubbles: true }));
      root.dispatchEvent(new CustomEvent("cards-changed", { bubbles: true }));
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        var code = b.dataset.card;
        var n = counts()[code] || 0;
        if (n >= twins) cards = cards.filter(function (x) { return x !== code; });
        else cards.push(code);
        commit();
      });
    });
    input.addEventListener("input", function () {
      cards = parse(input.value);
      saveDraft(input);
      render();
    });
    var clear = root.querySelector("[data-clear]");
    if (clear) clear.addEventListener("click", function () { cards = []; commit(); input.focus(); });
    render();
  }

  function scan(node) {
    if (!node || !node.querySelectorAll) return;
    if (node.matches && node.matches("[data-picker]")) setup(node);
    node.querySelectorAll("[data-picker]").forEach(setup);
  }
  /* Several pickers on one screen (a round's hands): opening one closes the others,
     so the page stays short on a phone.  Closed pickers still send their cards. */
  document.addEventListener("toggle", function (e) {
    var opened = e.target;
    if (!opened.matches || !opened.matches("details[data-one-open]") || !opened.open) return;
    var form = opened.closest("form") || document;
    form.querySelectorAll("details[data-one-open][open]").forEach(function (d) {
      if (d !== opened) d.open = false;
    });
  }, true);
  /* A poll (a GET) that brings a fresh table must not lose cards being tapped or typed:
     the cards in each picker are carried into the picker of the same name in the new
     content.  Actions (POSTs) are not touched: their answer decides the field. */
  var carried = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    carried = null;
    var cfg = e.detail.requestConfig;
    if (!cfg || cfg.verb !== "get" || !e.detail.shouldSwap) return;
    carried = {};
    document.querySelectorAll("[data-picker] .picker-text").forEach(function (input) {
      if (input.name && input.value) carried[input.name] = input.value;
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!carried) return;
    var keep = carried;
    carried = null;
    document.querySelectorAll("[data-picker] .picker-text").forEach(function (input) {
      if (keep[input.name] && input.value !== keep[input.name]) {
        input.value = keep[input.name];
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
  });
  document.addEventListener("submit", function (e) { clearDrafts(e.target); }, true);
  document.addEventListener("htmx:beforeRequest", function (e) {
    var cfg = e.detail.requestConfig;
    if (cfg && cfg.verb !== "get") clearDrafts(document);
  });
  document.addEventListener("htmx:afterSettle", saveDrafts);
  document.addEventListener("htmx:sendError", saveDrafts);
  document.addEventListener("htmx:responseError", saveDrafts);
  document.addEventListener("DOMContentLoaded", function () { scan(document); });
  document.addEventListener("htmx:load", function (e) { scan(e.detail.elt); });
  window.Thirteen = { parseCards: parse, setupPicker: setup };
})();
