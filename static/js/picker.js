/* The card picker: tap or swipe cards in a grid, keep each text field (the form's real
   value) in step.  One grid may fill several fields (the table and the play): a target
   button says which.  Without this script the text fields alone work.

   Gestures on the grid (pointer events, so touch, pen and mouse alike):
   - a tap chooses a card, a second tap takes it back (with several decks, taps add
     copies up to the number of decks, then take them all back);
   - a swipe along one suit chooses the run it crosses, a swipe along one rank chooses
     those cards of the rank.  A swipe only adds: over a card already chosen it adds a
     twin where the decks allow one, and otherwise leaves it. */
(function () {
  "use strict";
  var SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
  var SUIT_OF = { "♠": "s", "♤": "s", "♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h" };
  /* A game's rank order comes with its picker (data-ranks, from the game's registry entry). */
  var ACE_LOW = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
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
  function isJoker(code) { return /^(JK|RJ|BJ)$/.test(code); }
  function rankOf(code) { return isJoker(code) ? null : code.slice(0, -1); }
  function suitOf(code) { return isJoker(code) ? null : code.slice(-1); }
  function show(code) { return isJoker(code) ? code : rankOf(code) + SUITS[suitOf(code)]; }
  function isRed(code) { return code === "RJ" || (!isJoker(code) && "dh".indexOf(suitOf(code)) >= 0); }

  /* Drafts: the cards in a field are kept in the tab's session storage until they are
     sent, so a reload or a mis-tap on "back" does not lose them.  Sending clears the
     drafts; the server's answer then decides the field (refused cards come back typed).
     Fields marked data-nodraft are kept by their form instead (a round's drafts). */
  var DRAFT = "thirteen-draft:";
  function draftKey(input) { return DRAFT + location.pathname + ":" + (input.id || input.name); }
  function keeps(input) { return !input.closest("[data-nodraft]"); }
  function saveDraft(input) {
    if (!keeps(input)) return;
    try {
      if (input.value) sessionStorage.setItem(draftKey(input), input.value);
      else sessionStorage.removeItem(draftKey(input));
    } catch (e) { /* storage off: nothing to keep */ }
  }
  function readDraft(input) {
    if (!keeps(input)) return "";
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

  /* A one-card field can stand for a pair of radio groups (<name>_rank, <name>_suit) that
     the form sends: the picker reads and sets them. */
  function fromRadios(scope, name) {
    var r = scope.querySelector("input[name='" + name + "_rank']:checked");
    var s = scope.querySelector("input[name='" + name + "_suit']:checked");
    if (!r) return "";
    if (isJoker(r.value)) return r.value;
    return s ? show(r.value + s.value) : "";
  }
  function toRadios(scope, name, code) {
    var pick = function (group, value) {
      scope.querySelectorAll("input[name='" + group + "']").forEach(function (i) {
        var on = value !== null && i.value === value;
        if (i.checked !== on) { i.checked = on; }
      });
    };
    pick(name + "_rank", code ? (isJoker(code) ? code : rankOf(code)) : null);
    pick(name + "_suit", code && !isJoker(code) ? suitOf(code) : null);
  }

  function setup(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = "1";
    var ranks = root.dataset.ranks ? root.dataset.ranks.split(" ") : ACE_LOW;
    var suits = root.dataset.suits || "shcd";
    var grid = root.querySelector(".picker-grid");
    var buttons = Array.prototype.slice.call(root.querySelectorAll(".card-btn"));
    var byCode = {};
    buttons.forEach(function (b) { byCode[b.dataset.card] = b; b.dataset.label = b.getAttribute("aria-label"); });
    var fields = Array.prototype.slice.call(root.querySelectorAll(".picker-field")).map(makeField);
    var active = fields[0];

    function sortKey(code) {
      if (isJoker(code)) return 1000 + ["JK", "RJ", "BJ"].indexOf(code);
      return ranks.indexOf(rankOf(code)) * 4 + suits.indexOf(suitOf(code));
    }

    function makeField(el) {
      var f = {
        el: el,
        input: el.querySelector(".picker-text"),
        chips: el.querySelector(".picker-chosen"),
        target: el.querySelector("[data-target]"),
        twins: parseInt(el.dataset.twins || "1", 10) || 1,
        ordered: el.hasAttribute("data-ordered"),
        max: parseInt(el.dataset.max || "0", 10) || 0,
        label: (el.querySelector("[data-target]") || el.querySelector(".picker-label") || {}).textContent || "",
        radios: el.dataset.radios || "",
        cards: []
      };
      if (f.radios && !f.input.value) f.input.value = fromRadios(root.closest("form") || document, f.radios);
      if (!f.input.value) f.input.value = readDraft(f.input);
      saveDraft(f.input);
      f.cards = parse(f.input.value);
      return f;
    }
    function count(f, code) {
      var n = 0;
      f.cards.forEach(function (c) { if (c === code) n += 1; });
      return n;
    }
    function arranged(f) {
      if (f.ordered) return f.cards.slice();
      return f.cards.slice().sort(function (a, b) { return sortKey(a) - sortKey(b); });
    }
    function owner(code) {
      /* With one deck, a card in one field cannot also be in another. */
      for (var i = 0; i < fields.length; i += 1) {
        if (fields[i] !== active && fields[i].twins === 1 && count(fields[i], code) > 0) return fields[i];
      }
      return null;
    }
    function render() {
      buttons.forEach(function (b) {
        var code = b.dataset.card;
        var n = count(active, code);
        var other = fields.length > 1 ? owner(code) : null;
        b.setAttribute("aria-pressed", n > 0 ? "true" : "false");
        b.querySelector(".n").textContent = n > 1 ? "×" + n : (other ? other.el.dataset.field.charAt(0).toUpperCase() : "");
        b.classList.toggle("elsewhere", !!other);
        var label = b.dataset.label + (n > 1 ? " ×" + n : "") + (other ? " (" + other.label.trim() + ")" : "");
        if (b.getAttribute("aria-label") !== label) b.setAttribute("aria-label", label);
      });
      fields.forEach(function (f) {
        var on = f === active;
        f.el.classList.toggle("is-active", on);
        if (f.target) f.target.setAttribute("aria-pressed", on ? "true" : "false");
        if (!f.chips) return;
        f.chips.textContent = "";
        arranged(f).forEach(function (code) {
          var chip = document.createElement("button");
          chip.type = "button";
          chip.className = "chip " + (isRed(code) ? "red" : "black");
          chip.textContent = show(code);
          chip.setAttribute("aria-label", show(code) + " ✕");
          chip.addEventListener("click", function () {
            var i = f.cards.lastIndexOf(code);
            if (i >= 0) f.cards.splice(i, 1);
            commit(f);
          });
          f.chips.appendChild(chip);
        });
      });
      if (grid) grid.setAttribute("aria-label", active.label.trim());
    }
    function commit(f) {
      f.input.value = arranged(f).map(show).join(" ");
      if (f.radios) toRadios(root.closest("form") || document, f.radios, f.cards[0]);
      saveDraft(f.input);
      f.input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    function changed(list) {
      render();
      list.forEach(commit);
      root.dispatchEvent(new CustomEvent("cards-changed", { bubbles: true }));
    }
    /* Put one copy of `code` into the active field (a move, if another field held it). */
    function add(code) {
      var touched = [active];
      var other = fields.length > 1 ? owner(code) : null;
      if (other) {
        other.cards = other.cards.filter(function (x) { return x !== code; });
        touched.push(other);
      }
      if (active.max === 1) active.cards = [code];
      else if (active.max && active.cards.length >= active.max) return touched;
      else active.cards.push(code);
      return touched;
    }
    /* Whether `code` could belong with the cards of `f`: the same rank (a pair, a triple,
       four of a kind) or a rank next to one of them (a sequence growing). */
    function fits(f, code) {
      if (isJoker(code)) return true;
      var at = ranks.indexOf(rankOf(code));
      return f.cards.some(function (c) {
        var d = Math.abs(ranks.indexOf(rankOf(c)) - at);
        return d <= 1;
      });
    }
    function tap(code) {
      /* A field marked data-advance (the table) hands over to the next one (the play) when
         a card is tapped that cannot belong with its cards: that card starts the play. */
      var next = fields[fields.indexOf(active) + 1];
      if (next && active.el.hasAttribute("data-advance") && active.cards.length && !count(active, code) && !fits(active, code)) {
        active = next;
      }
      var n = count(active, code);
      var touched;
      if (n >= active.twins || (active.max === 1 && n > 0)) {
        active.cards = active.cards.filter(function (x) { return x !== code; });
        touched = [active];
      } else {
        touched = add(code);
        /* A one-card field (the top of the pile) is full: the grid moves on to the next. */
        next = fields[fields.indexOf(active) + 1];
        if (active.max === 1 && next) active = next;
      }
      changed(touched);
    }
    /* The cards a swipe from `from` to `to` crosses: a run along a suit, a set along a rank. */
    function line(from, to) {
      if (isJoker(from) || isJoker(to) || from === to) return null;
      var out = [], i, a, b, step;
      if (suitOf(from) === suitOf(to)) {
        a = ranks.indexOf(rankOf(from)); b = ranks.indexOf(rankOf(to)); step = a < b ? 1 : -1;
        for (i = a; i !== b + step; i += step) out.push(ranks[i] + suitOf(from));
        return { kind: "run", cards: out };
      }
      if (rankOf(from) === rankOf(to)) {
        a = suits.indexOf(suitOf(from)); b = suits.indexOf(suitOf(to)); step = a < b ? 1 : -1;
        for (i = a; i !== b + step; i += step) out.push(rankOf(from) + suits.charAt(i));
        return { kind: "set", cards: out };
      }
      return null;
    }
    function swipe(cards) {
      var touched = [active];
      cards.forEach(function (code) {
        var n = count(active, code);
        if (n > 0 && n >= active.twins) return; /* chosen, and no twin allowed: leave it */
        add(code).forEach(function (f) { if (touched.indexOf(f) < 0) touched.push(f); });
      });
      changed(touched);
    }

    /* Pointer tracking: a gesture that stays on its first card is a tap (the click);
       one that reaches another card of the same suit or rank is a swipe. */
    var gesture = null, swallowClick = null;
    function cardAt(x, y) {
      var el = document.elementFromPoint(x, y);
      var b = el && el.closest && el.closest(".card-btn");
      return b && grid.contains(b) ? b.dataset.card : null;
    }
    function mark(cards) {
      buttons.forEach(function (b) { b.classList.toggle("swiping", !!cards && cards.indexOf(b.dataset.card) >= 0); });
    }
    if (grid && active.max !== 1) {
      grid.addEventListener("pointerdown", function (e) {
        var b = e.target.closest(".card-btn");
        if (!b || (e.pointerType === "mouse" && e.button !== 0)) return;
        gesture = { id: e.pointerId, start: b.dataset.card, line: null };
      });
      grid.addEventListener("pointermove", function (e) {
        if (!gesture || e.pointerId !== gesture.id) return;
        var code = cardAt(e.clientX, e.clientY);
        if (!code || code === gesture.start) return;
        var l = line(gesture.start, code);
        if (l && (!gesture.line || gesture.line.kind === l.kind)) { gesture.line = l; mark(l.cards); }
      });
      var end = function (e) {
        if (!gesture || e.pointerId !== gesture.id) return;
        var g = gesture;
        gesture = null;
        mark(null);
        if (e.type === "pointerup" && g.line) {
          /* The browser may still send a click to the card the swipe began on: not a tap. */
          swallowClick = { code: g.start, at: Date.now() };
          swipe(g.line.cards);
        }
      };
      grid.addEventListener("pointerup", end);
      grid.addEventListener("pointercancel", end);
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        var swallow = swallowClick;
        swallowClick = null;
        if (swallow && swallow.code === b.dataset.card && Date.now() - swallow.at < 500) return;
        tap(b.dataset.card);
      });
    });
    fields.forEach(function (f) {
      f.input.addEventListener("input", function () {
        f.cards = parse(f.input.value);
        if (f.radios) toRadios(root.closest("form") || document, f.radios, f.cards[0]);
        saveDraft(f.input);
        render();
      });
      f.input.addEventListener("focus", function () { if (active !== f) { active = f; render(); } });
      if (f.target) f.target.addEventListener("click", function () { active = f; render(); });
      var clear = f.el.querySelector("[data-clear]");
      if (clear) clear.addEventListener("click", function () {
        active = f;
        f.cards = [];
        changed([f]);
      });
    });
    /* A field named in data-start (or the first empty one after a filled one) starts active. */
    var start = root.dataset.start && fields.filter(function (f) { return f.el.dataset.field === root.dataset.start; })[0];
    if (start) active = start;
    else if (fields.length > 1 && fields[0].cards.length && !fields[1].cards.length) active = fields[1];
    render();
  }

  function scan(node) {
    if (!node || !node.querySelectorAll) return;
    if (node.matches && node.matches("[data-picker]")) setup(node);
    node.querySelectorAll("[data-picker]").forEach(setup);
  }

  /* While cards are being chosen the verdict is provisional: boxes marked data-settle in
     the same form carry data-building until the taps pause. */
  var SETTLE_MS = 1200;
  document.addEventListener("cards-changed", function (e) {
    var scope = e.target.closest("form") || document;
    var boxes = scope.querySelectorAll("[data-settle]");
    if (!boxes.length) boxes = document.querySelectorAll("[data-settle]");
    boxes.forEach(function (box) {
      box.setAttribute("data-building", "");
      clearTimeout(box._settle);
      box._settle = setTimeout(function () { box.removeAttribute("data-building"); }, SETTLE_MS);
    });
  });

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
  /* Any load order: app.js and round.js add to the same object. */
  window.Thirteen = window.Thirteen || {};
  window.Thirteen.parseCards = parse;
  window.Thirteen.setupPicker = setup;
})();
