/* Three Thirteen's round entry: one hand at a time, the count of cards live, and a draft
   of the whole round (cards, "went out" ticks, typed points) kept on the phone.

   The draft lives in localStorage under thirteen-round:<game>:<round>:<version>, so it
   outlives a reload and a closed tab.  It is dropped once the sheet shows the round saved
   (the sheet page names it in data-clear-drafts), and drafts made against an older
   version of the sheet are dropped when the round opens again. */
(function () {
  "use strict";
  function storage() { try { return window.localStorage; } catch (e) { return null; } }
  function dropDrafts(prefix, keep) {
    var ls = storage();
    if (!ls) return;
    var gone = [];
    for (var i = 0; i < ls.length; i += 1) {
      var k = ls.key(i);
      if (k && k.indexOf(prefix) === 0 && k !== keep) gone.push(k);
    }
    gone.forEach(function (k) { ls.removeItem(k); });
  }
  function parse(text) { return window.Thirteen && window.Thirteen.parseCards ? window.Thirteen.parseCards(text || "") : (text || "").split(/\s+/).filter(Boolean); }

  function setup(form) {
    if (form.dataset.roundReady) return;
    form.dataset.roundReady = "1";
    var key = form.dataset.draftKey;
    var steps = form.querySelector(".tt-steps");
    var hands = Array.prototype.slice.call(form.querySelectorAll("fieldset.tt-player"));
    var current = 0;

    function field(seat, name) { return form.querySelector("[name='" + name + "_" + seat + "']"); }
    function outBox(seat) { return form.querySelector("#out-" + seat); }
    function snapshot() {
      return {
        seat: current,
        hands: hands.map(function (h, seat) {
          return { cards: field(seat, "cards").value, points: field(seat, "points").value, out: outBox(seat).checked };
        })
      };
    }
    var timer = null;
    function save() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var ls = storage();
        /* A form swapped out meanwhile (its round saved, the sheet in its place) keeps no draft. */
        if (!ls || !form.isConnected) return;
        var data = snapshot();
        var empty = data.hands.every(function (h) { return !h.cards && !h.points && !h.out; });
        try {
          if (empty) ls.removeItem(key); else ls.setItem(key, JSON.stringify(data));
        } catch (e) { /* storage full or off: the form still holds it */ }
      }, 120);
    }
    function restore() {
      var ls = storage(), raw = null;
      try { raw = ls && ls.getItem(key); } catch (e) { raw = null; }
      if (!raw) return null;
      var data;
      try { data = JSON.parse(raw); } catch (e) { return null; }
      (data.hands || []).forEach(function (h, seat) {
        if (!hands[seat]) return;
        var cards = field(seat, "cards"), points = field(seat, "points"), out = outBox(seat);
        if (typeof h.cards === "string" && cards.value !== h.cards) {
          cards.value = h.cards;
          cards.dispatchEvent(new Event("input", { bubbles: true }));
          cards.dispatchEvent(new Event("change", { bubbles: true }));
        }
        if (typeof h.points === "string") points.value = h.points;
        if (out.checked !== !!h.out) {
          out.checked = !!h.out;
          out.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
      return data;
    }
    /* "1 point typed", "2 points typed": the page gives the sentence in each plural form of its
       language (data-points-forms, by CLDR category); Intl.PluralRules picks the one for this number. */
    function pointsTyped(pts) {
      var forms = {}, category = "other";
      try { forms = JSON.parse(form.dataset.pointsForms || "{}"); } catch (e) { forms = {}; }
      try { category = new Intl.PluralRules(document.documentElement.lang).select(Number(pts)); } catch (e) { category = "other"; }
      return (forms[category] || forms.other || "{n}").replace("{n}", pts);
    }
    function counts() {
      hands.forEach(function (h, seat) {
        var n = parse(field(seat, "cards").value).length;
        var pts = field(seat, "points").value;
        var live = h.querySelector("[data-live-count]");
        if (live) live.textContent = pts && !n ? pointsTyped(pts) : form.dataset.countTemplate.replace("{n}", n);
        if (live) live.classList.toggle("is-over", !pts && n > +form.dataset.dealt);
        var step = steps && steps.querySelector("[data-step='" + seat + "'] [data-step-count]");
        if (step) {
          var bad = step.parentNode.classList.contains("has-error");
          step.parentNode.classList.toggle("is-over", !pts && n > +form.dataset.dealt);
          step.textContent = (bad ? "! " : "") + (outBox(seat).checked ? "✓ " : "") + (pts && !n ? pts : n + "/" + form.dataset.dealt);
        }
      });
    }
    /* The Save button stands in the last hand's dock, where Next stands in the others: one
       button, never over the hand's own controls. */
    var saveButton = form.querySelector(".tt-save");
    var saveHome = saveButton && saveButton.nextSibling;
    function placeSave(seat) {
      if (!saveButton) return;
      var row = seat === hands.length - 1 && hands[seat].querySelector(".tt-dock-row");
      if (row && saveButton.parentNode !== row) row.appendChild(saveButton);
      else if (!row && saveButton.parentNode !== form) form.insertBefore(saveButton, saveHome);
    }
    function show(seat, keepPlace) {
      var legend = hands[current].querySelector("legend");
      var before = legend.getBoundingClientRect().top;
      current = seat;
      placeSave(seat);
      hands.forEach(function (h, i) {
        h.hidden = i !== seat;
        h.classList.toggle("is-current", i === seat);
      });
      if (steps) steps.querySelectorAll("[data-step]").forEach(function (b) {
        b.setAttribute("aria-pressed", String(+b.dataset.step === seat));
      });
      if (!keepPlace) return;
      var after = hands[seat].querySelector("legend").getBoundingClientRect().top;
      if (before >= 0 && before < window.innerHeight) window.scrollBy(0, after - before);
      else (steps || hands[seat]).scrollIntoView({ block: "start" });
    }

    if (!form.hasAttribute("data-posted")) {
      var data = restore();
      if (data && typeof data.seat === "number" && hands[data.seat]) current = data.seat;
    } else {
      save();
    }
    dropDrafts(form.dataset.draftPrefix, key);
    if (form.dataset.firstError) current = +form.dataset.firstError;
    if (steps && hands.length > 1) {
      steps.hidden = false;
      form.classList.add("one-hand");
      steps.addEventListener("click", function (e) {
        var b = e.target.closest("[data-step]");
        if (b) { show(+b.dataset.step, true); save(); }
      });
      form.querySelectorAll("[data-next]").forEach(function (b) {
        b.hidden = false;
        b.addEventListener("click", function () { show(+b.dataset.next, true); save(); });
      });
      show(current, false);
    }
    /* Where the player decides nothing, no gesture: a hand whose cards are all in moves on to
       the next hand still empty, once its split is shown (the tabs go back to it); a complete
       hand that scores nothing is the one that went out, when no hand is ticked yet. */
    function complete(seat) { return parse(field(seat, "cards").value).length === +form.dataset.dealt; }
    function empty(seat) { return !field(seat, "cards").value.trim() && !field(seat, "points").value.trim(); }
    var moveOn = null;
    /* A card tapped shows its split where the finger is: when what stands above the hand (a
       refused Save's reasons, the went-out warning) has pushed the hand's dock under the screen,
       the page moves up just enough to show it once the split the tap asked for is drawn, and
       again once it has settled (not for a split the page fetches for itself before any card is
       tapped, nor when the dock is already in view). */
    var reveal = -1;
    function inView(dock) {
      if (!dock || dock.closest("[hidden]")) return;
      /* a split whose first line shows is seen: a round that fits the screen is never moved */
      var split = dock.querySelector(".tt-preview"), s = split && split.getBoundingClientRect();
      if (!s || s.height < 2 || s.top <= window.innerHeight - Math.min(s.height, 44)) return;
      var r = dock.getBoundingClientRect(), under = r.bottom - window.innerHeight;
      if (under > 0) window.scrollBy({ top: Math.min(under + 4, Math.max(0, r.top)), behavior: "instant" });
    }
    form.addEventListener("cards-changed", function (e) {
      var hand = e.target.closest && e.target.closest("fieldset.tt-player");
      if (hand) reveal = +hand.dataset.seat;
    });
    function splitShown(e) {
      var box = (e.detail && e.detail.target) || e.target;
      var m = box && box.id && /^preview-(\d+)$/.exec(box.id);
      if (!m) return;
      var seat = +m[1];
      var split = box.querySelector(".tt-split");
      staleAuto(seat, split);
      if (seat === reveal) inView(hands[seat].querySelector(".tt-dock"));
      if (!complete(seat)) return;
      var anyOut = hands.some(function (h, s) { return outBox(s).checked; });
      if (split && split.dataset.points === "0" && !anyOut) {
        tick(seat, true, true);
        return;  /* the split comes again with the tick: the move on waits for it */
      }
      var next = seat + 1;
      if (seat !== current || !hands[next] || !empty(next) || !form.dataset.typedLast) return;
      clearTimeout(moveOn);
      moveOn = setTimeout(function () {
        if (current === seat && complete(seat) && empty(next)) { show(next, true); save(); }
      }, 450);
    }
    /* "Went out" is one player's: ticking one unticks the others (the boxes keep their
       name, "out", for the form).  A tick the page made by itself (a complete hand that
       scores nothing) is taken back when that hand changes and no longer does. */
    function tick(seat, on, auto) {
      var box = outBox(seat);
      if (!box || box.checked === on) return;
      box.checked = on;
      if (on && auto) box.dataset.auto = "1"; else delete box.dataset.auto;
      box.dispatchEvent(new Event("change", { bubbles: true }));
    }
    function oneOut(seat) {
      hands.forEach(function (h, s) { if (s !== seat) tick(s, false, false); });
    }
    function staleAuto(seat, split) {
      var box = outBox(seat);
      if (!box || !box.checked || !box.dataset.auto) return;
      if (!complete(seat) || (split && split.dataset.points !== "0")) tick(seat, false, false);
    }
    /* A player who went out enters the hand: points typed for them are refused at once,
       beside the field, not only when Save is pressed. */
    function outWithPoints() {
      hands.forEach(function (h, seat) {
        var warn = h.querySelector("[data-out-points]");
        var pts = field(seat, "points");
        if (!warn || !pts) return;
        var wrong = outBox(seat).checked && pts.value.trim() !== "";
        warn.hidden = !wrong;
        warn.textContent = wrong ? warn.dataset.outPoints : "";  /* the sentence only while it holds */
        if (wrong) pts.setAttribute("aria-invalid", "true"); else if (!h.classList.contains("has-error")) pts.removeAttribute("aria-invalid");
      });
    }
    hands.forEach(function (h, seat) {
      var box = outBox(seat);
      if (!box) return;
      box.addEventListener("change", function (e) {
        if (e.isTrusted) delete box.dataset.auto;  /* the player's own tick */
        if (box.checked) oneOut(seat);
        outWithPoints();
      });
      var cards = field(seat, "cards");
      if (cards) cards.addEventListener("change", function () { staleAuto(seat, null); });
    });
    form.addEventListener("htmx:afterSwap", splitShown);
    form.addEventListener("htmx:afterSettle", function (e) {
      var box = (e.detail && e.detail.target) || e.target;
      if (reveal >= 0 && box && box.id === "preview-" + reveal) inView(hands[reveal].querySelector(".tt-dock"));
    });
    form.addEventListener("thirteen:judged", splitShown);  /* answered by the phone's engine */
    /* Only cards given here move on by themselves (not a draft put back, not a tick). */
    form.addEventListener("cards-changed", function () { form.dataset.typedLast = "1"; });
    form.addEventListener("keydown", function (e) {
      if (e.target && /^cards_/.test(e.target.name || "")) form.dataset.typedLast = "1";
    }, true);
    counts();
    outWithPoints();
    form.addEventListener("input", function () { counts(); outWithPoints(); save(); });
    form.addEventListener("change", function () { counts(); outWithPoints(); save(); });
    var first = form.dataset.firstError !== undefined && (document.getElementById("error-" + form.dataset.firstError));
    /* After a swap htmx shows the top of the page once it settles: bring the reason in after it. */
    if (first) setTimeout(function () { first.scrollIntoView({ block: "center" }); },
      window.htmx ? window.htmx.config.defaultSettleDelay + 40 : 0);
  }

  /* On a page load, and on every page htmx swaps in (app.js sends the round form through
     htmx, so a saved round's sheet or a refused round arrives without a page load). */
  function init(scope) {
    var within = function (sel) {
      var found = Array.prototype.slice.call(scope.querySelectorAll(sel));
      if (scope.matches && scope.matches(sel)) found.unshift(scope);
      return found;
    };
    within("[data-clear-drafts]").forEach(function (el) { dropDrafts(el.dataset.clearDrafts, null); });
    within("form[data-round-form]").forEach(setup);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (e) { init(e.detail.elt); });
})();
