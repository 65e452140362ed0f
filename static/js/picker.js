/* The card picker: tap or swipe cards in a grid, keep each text field (the form's real
   value) in step.  One grid may fill several fields (the table and the play): a target
   button says which, and the grid fills that one until another target is tapped (a
   one-card field, the top of the pile, hands over to the next once it holds its card).
   Without this script the text fields alone work.

   Gestures on the grid (pointer events, so touch, pen and mouse alike; the grid takes
   every gesture, the page does not scroll under it):
   - a tap chooses a card; a tap on a chosen card takes one copy back (one tap undoes a
     mistaken card, with any number of decks);
   - holding a card (or its context-menu key) adds a twin, where the decks allow one;
   - a swipe chooses exactly the cards the finger crosses along one suit (a run) or one
     rank (a set); it only adds: a card already chosen stays as it is.  A run that goes on
     from one half of a wide grid to the other (6♥ … 9♥ across the split after the 7) takes
     the ranks between as well: one swipe, as on a grid without a split.
   A page loads this script only where it draws a card grid (base.html); a page swapped in
   by htmx may bring it again: it sets itself up once. */
(function () {
  "use strict";
  if (window.Thirteen && window.Thirteen.setupPicker) return;
  var SUITS = { s: "♠", c: "♣", d: "♦", h: "♥" };
  /* A game's rank order comes with its picker (data-ranks, from the game's registry entry). */
  var ACE_LOW = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  /* The notation typed cards are read in is the referee's own: referee.cards writes it here when
     the release is built (referee.web.assets, NOTATION_MARK); compiled once. */
  var GRAMMAR = /*thirteen:card-notation*/{};
  var NOTATION = {
    token: new RegExp(GRAMMAR.token || "(?!)", (GRAMMAR.flags || "") + "y"),
    sep: new RegExp(GRAMMAR.separators || "\\s+", "y"),
    suits: GRAMMAR.suits || {}, ranks: GRAMMAR.ranks || {}, jokers: GRAMMAR.jokers || {}
  };
  /* A spelling the notation lists, else the text itself in the case the notation writes it in. */
  function canon(map, text, lower) { return map[text] || map[text.toUpperCase()] || (lower ? text.toLowerCase() : text.toUpperCase()); }

  /* Read the cards the text holds, skipping what is not a card (the server names it). */
  function parse(text) {
    var out = [], pos = 0, m, n = NOTATION;
    while (pos < text.length) {
      n.sep.lastIndex = pos;
      if ((m = n.sep.exec(text))) { pos = n.sep.lastIndex; continue; }
      n.token.lastIndex = pos;
      m = n.token.exec(text);
      if (!m) { pos += 1; continue; }
      if (m[1]) out.push(canon(n.jokers, m[1]));
      else if (m[2]) out.push(canon(n.ranks, m[2]) + canon(n.suits, m[3], true));
      else out.push(canon(n.ranks, m[5]) + canon(n.suits, m[4], true));
      pos = n.token.lastIndex;
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
      root.setAttribute("data-filling", active.el.dataset.field);
      fields.forEach(function (f, i) {
        var on = f === active;
        f.el.classList.toggle("is-active", on);
        if (f.target) f.target.setAttribute("aria-pressed", on ? "true" : "false");
        /* The next field to fill, once the one before it holds cards: a nudge, never a move. */
        var before = fields[i - 1];
        f.el.classList.toggle("is-next", !on && !!before && before === active && before.cards.length > 0 && !f.cards.length);
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
    /* A field shows every card it holds: a long line is set smaller until it fits, a pixel at a
       time down to 11 px, by a class (fit-15 … fit-11 in app.css: the content policy allows no
       inline style, and htmx copies an element's attributes when it swaps). */
    var FIT_SIZES = [15, 14, 13, 12, 11];
    function fit(f) {
      var input = f.input;
      FIT_SIZES.forEach(function (px) { input.classList.remove("fit-" + px); });
      if (!input.value || input.scrollWidth <= input.clientWidth) return;
      var size = parseFloat(getComputedStyle(input).fontSize);
      var shown = "";
      for (var i = 0; i < FIT_SIZES.length && input.scrollWidth > input.clientWidth; i++) {
        if (FIT_SIZES[i] >= size) continue;
        if (shown) input.classList.remove(shown);
        shown = "fit-" + FIT_SIZES[i];
        input.classList.add(shown);
      }
    }
    function commit(f) {
      f.input.value = arranged(f).map(show).join(" ");
      fit(f);
      if (f.radios) toRadios(root.closest("form") || document, f.radios, f.cards[0]);
      saveDraft(f.input);
      f.input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    function changed(list) {
      render();
      /* Said before the fields change, so the request their change sends answers it. */
      root.dispatchEvent(new CustomEvent("cards-changed", { bubbles: true }));
      list.forEach(commit);
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
    function tap(code) {
      var n = count(active, code);
      var touched;
      if (n > 0) {
        /* A chosen card: one tap takes one copy back. */
        active.cards.splice(active.cards.lastIndexOf(code), 1);
        touched = [active];
      } else {
        touched = add(code);
        /* A one-card field (the top of the pile) is full: the grid moves on to the next. */
        var next = fields[fields.indexOf(active) + 1];
        if (active.max === 1 && next) active = next;
      }
      changed(touched);
    }
    /* A twin: one more copy of a chosen card, where the decks allow it. */
    function twin(code) {
      var n = count(active, code);
      if (active.twins < 2 || n >= active.twins || (active.max && active.cards.length >= active.max)) return false;
      changed(add(code));
      return true;
    }
    function swipe(cards) {
      var touched = [active];
      cards.forEach(function (code) {
        if (count(active, code) > 0) return; /* chosen already: a swipe leaves it */
        add(code).forEach(function (f) { if (touched.indexOf(f) < 0) touched.push(f); });
      });
      changed(touched);
    }

    /* Pointer tracking.  A gesture that stays on its first card is a tap (the click), or a
       hold when it stays there long enough (a twin).  One that reaches another card of the
       same suit (a run) or the same rank (a set) is a swipe: it takes the cards of that
       suit or rank the finger crosses, in the order crossed, and nothing else.  A finger
       that rests on its first card and then slides on is still a swipe, however long it
       rested: a hold that added nothing (one deck) does not end the gesture, and a twin the
       hold added goes back once the finger crosses a card (on a busy phone the hold's timer
       may even run before moves already made are handled). */
    var HOLD_MS = 550;
    var gesture = null, swallowClick = null;
    function cardAt(x, y) {
      var el = document.elementFromPoint(x, y);
      var b = el && el.closest && el.closest(".card-btn");
      return b && grid.contains(b) ? b.dataset.card : null;
    }
    function mark(cards) {
      buttons.forEach(function (b) { b.classList.toggle("swiping", !!cards && cards.indexOf(b.dataset.card) >= 0); });
    }
    function kindOf(from, to) {
      if (isJoker(from) || isJoker(to) || from === to) return null;
      if (suitOf(from) === suitOf(to)) return "run";
      if (rankOf(from) === rankOf(to)) return "set";
      return null;
    }
    /* A run that ends in the other half of a wide grid (the halves split the ranks after the
       seventh): the finger could not go along the suit's row, so the run is every rank from
       the card it began on to the card it ends on, whatever it crossed on the way. */
    var wide = !!grid && grid.classList.contains("layout-wide");
    function half(code) { return ranks.indexOf(rankOf(code)) < 7 ? 0 : 1; }
    function runAcross(g) {
      var last = cardAt(g.x, g.y);
      if (!wide || !last || isJoker(last) || isJoker(g.start) || suitOf(last) !== suitOf(g.start) || half(last) === half(g.start)) return null;
      var a = ranks.indexOf(rankOf(g.start)), b = ranks.indexOf(rankOf(last)), step = b > a ? 1 : -1, out = [];
      for (var k = a; ; k += step) {
        var code = ranks[k] + suitOf(g.start);
        if (grid.querySelector("[data-card='" + code + "']")) out.push(code);
        if (k === b) return out;
      }
    }
    function crossed(g, code) {
      if (!code || g.seen.indexOf(code) >= 0) return;
      if (!g.kind) {
        g.kind = kindOf(g.start, code);
        if (!g.kind) return;
      } else if (kindOf(g.start, code) !== g.kind) return;
      g.seen.push(code);
    }
    function follow(g, x, y) {
      /* Every point of the way from the last position, a few pixels apart: a quick finger
         still crosses each card it passes over, and only those. */
      var dx = x - g.x, dy = y - g.y, steps = Math.max(1, Math.ceil(Math.sqrt(dx * dx + dy * dy) / 6));
      for (var i = 1; i <= steps; i += 1) crossed(g, cardAt(g.x + dx * i / steps, g.y + dy * i / steps));
      g.x = x; g.y = y;
      if (g.seen.length > 1) mark(g.seen);
    }
    function holdNow(g) {
      if (gesture !== g || g.seen.length > 1 || g.pressed) return;
      clearTimeout(g.timer);
      if (cardAt(g.x, g.y) !== g.start) return;  /* the finger has left its card: no hold */
      g.pressed = true;
      if (twin(g.start)) { g.twinned = true; g.button.classList.add("held"); }
    }
    /* The hold became a swipe: its twin goes back, the swipe decides the cards. */
    function untwin(g) {
      g.twinned = false;
      g.button.classList.remove("held");
      var i = active.cards.lastIndexOf(g.start);
      if (i >= 0) active.cards.splice(i, 1);
      changed([active]);
    }
    if (grid) {
      grid.addEventListener("pointerdown", function (e) {
        var b = e.target.closest(".card-btn");
        if (!b || (e.pointerType === "mouse" && e.button !== 0)) return;
        clearTimeout(gesture && gesture.timer);
        var g = { id: e.pointerId, start: b.dataset.card, seen: [b.dataset.card], kind: null, x: e.clientX, y: e.clientY, pressed: false, twinned: false };
        g.button = b;
        g.timer = setTimeout(function () { holdNow(g); }, HOLD_MS);
        gesture = g;
      });
      grid.addEventListener("pointermove", function (e) {
        if (!gesture || e.pointerId !== gesture.id || active.max === 1) return;
        follow(gesture, e.clientX, e.clientY);
        if (gesture.twinned && gesture.seen.length > 1) untwin(gesture);
      });
      var end = function (e) {
        if (!gesture || e.pointerId !== gesture.id) return;
        var g = gesture;
        gesture = null;
        clearTimeout(g.timer);
        mark(null);
        buttons.forEach(function (b) { b.classList.remove("held"); });
        if (e.type === "pointerup" && g.seen.length > 1) {
          /* The browser may still send a click to the card the gesture began on: not a tap. */
          swallowClick = { code: g.start, at: Date.now() };
          swipe(runAcross(g) || g.seen);
        } else if (g.pressed) {
          swallowClick = { code: g.start, at: Date.now() };  /* a hold, not a tap */
        }
      };
      grid.addEventListener("pointerup", end);
      grid.addEventListener("pointercancel", end);
      /* A long press must not open the phone's menu; the context-menu key adds a twin. */
      grid.addEventListener("contextmenu", function (e) {
        var b = e.target.closest && e.target.closest(".card-btn");
        if (!b) return;
        e.preventDefault();
        if (gesture) { holdNow(gesture); return; }  /* the phone's long press: a hold */
        if (swallowClick && Date.now() - swallowClick.at < 800) return;  /* that hold did it */
        twin(b.dataset.card);
      });
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        var swallow = swallowClick;
        swallowClick = null;
        if (swallow && swallow.code === b.dataset.card && Date.now() - swallow.at < 800) return;
        tap(b.dataset.card);
      });
    });
    fields.forEach(function (f) {
      f.input.addEventListener("input", function () {
        f.cards = parse(f.input.value);
        if (f.radios) toRadios(root.closest("form") || document, f.radios, f.cards[0]);
        saveDraft(f.input);
        fit(f);
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
    fields.forEach(fit);
  }

  function scan(node) {
    if (!node || !node.querySelectorAll) return;
    if (node.matches && node.matches("[data-picker]")) setup(node);
    node.querySelectorAll("[data-picker]").forEach(setup);
  }

  /* While cards are being chosen the verdict is provisional: boxes marked data-settle in
     the same form carry data-building from a change of cards until the answer to the
     form as it then stood is swapped in, and not a moment longer. */
  function settleBoxes(scope) {
    var boxes = (scope || document).querySelectorAll("[data-settle]");
    return boxes.length ? Array.prototype.slice.call(boxes) : Array.prototype.slice.call(document.querySelectorAll("[data-settle]"));
  }
  document.addEventListener("cards-changed", function (e) {
    settleBoxes(e.target.closest("form")).forEach(function (box) {
      box._changes = (box._changes || 0) + 1;
      box.setAttribute("data-building", "");
    });
  });
  /* Each request remembers how many changes it carries (a queued request is sent later,
     with the form as it is by then). */
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form");
    if (!form || !e.detail.xhr) return;
    e.detail.xhr._thirteenAsked = settleBoxes(form).map(function (box) { return [box, box._changes || 0]; });
  });
  function settled(e) {
    var asked = e.detail.xhr && e.detail.xhr._thirteenAsked;
    var target = e.detail.target || e.detail.elt;
    var box = target && target.closest && target.closest("[data-settle]");
    if (!asked) {
      /* An answer from elsewhere (not one of our requests): it is the latest one. */
      if (box) box.removeAttribute("data-building");
      return;
    }
    asked.forEach(function (pair) {
      if ((pair[0]._changes || 0) === pair[1]) pair[0].removeAttribute("data-building");
    });
  }
  document.addEventListener("htmx:afterSwap", settled);
  /* No answer (offline, a server gone): the cards are kept, the box says why no verdict came. */
  function unanswered(e) {
    var asked = e.detail.xhr && e.detail.xhr._thirteenAsked;
    if (!asked) return;
    asked.forEach(function (pair) {
      var box = pair[0], note = box.querySelector("template[data-offline]");
      box.removeAttribute("data-building");
      var slot = box.querySelector("[aria-live]");
      if (note && slot && (pair[0]._changes || 0) === pair[1]) slot.innerHTML = note.innerHTML;
    });
  }
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:timeout", unanswered);

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
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { scan(document); });
  else scan(document);  /* brought by a page htmx swapped in */
  document.addEventListener("htmx:load", function (e) { scan(e.detail.elt); });
  /* Any load order: app.js and the games' own scripts add to the same object. */
  window.Thirteen = window.Thirteen || {};
  window.Thirteen.parseCards = parse;
  window.Thirteen.setupPicker = setup;
})();
