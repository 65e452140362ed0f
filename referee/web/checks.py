"""The answers the phone can give by itself: the check screens and the Three Thirteen split.

Each function here reads a form (any mapping of field names to text) and returns an
:class:`Answer`: the fragment template that draws it, the values that template needs, the
status, and the house rules to keep on the phone.  Nothing here knows Flask: the server's
views call these functions and render the fragment with Flask's Jinja; the phone's engine
(:mod:`referee.web.phone`, Pyodide in a Web Worker) calls the very same functions and renders
the very same templates with the same catalogues.  Words come from :mod:`referee.web.words`,
so every sentence is worded once and the two answers are the same characters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import (
    AnyCard,
    Joker,
    NotationError,
    Rank,
    Suit,
    TooManyCopiesError,
    check_copies,
    parse_card,
    parse_cards,
)
from referee.switches import SwitchError, rules_from_mapping, rules_to_dict
from referee.three_thirteen import (
    Face,
    HandSizeError,
    Schedule,
    Split,
    ThreeThirteenRules,
    best_split,
    decks_for,
    split_hand,
)
from referee.three_thirteen_sheet import preview_hand as rules_preview_hand
from referee.tienlen import (
    Combination,
    Kind,
    NotACombinationError,
    TienLenRules,
    Verdict,
    check,
    table_combination,
)
from referee.trece import DemandError, EmptyPlayError, TreceRules, check_play
from referee.trece import Verdict as TreceVerdict
from referee.web.numbers import MAX_PLAYERS, whole_number
from referee.web.words import gettext, rank_plural, say


@dataclass
class Answer:
    """What a screen answers: ``fragment`` rendered with ``context`` (and ``status``);
    ``remember`` is the house rules to keep on this phone for next time (or ``None``)."""

    fragment: str
    context: dict[str, Any]
    status: int = 200
    remember: dict[str, Any] | None = None


def switches_from_form(form: Mapping[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    """The switches a form sent: a checkbox present is on; absent is off; others as given."""
    values: dict[str, Any] = {}
    for key in ids:
        if f"{key}__present" in form or key in form:
            values[key] = form.get(key, "off")
    return values


def read_cards(
    field: str, text: str, errors: dict[str, str], *, decks: int = 1, jokers: dict | None = None  # type: ignore[type-arg]
) -> tuple[AnyCard, ...]:
    """Parse a card field; a mistake goes into ``errors[field]`` (shown beside the field)."""
    try:
        cards = parse_cards(text or "")
        check_copies(cards, decks=decks, jokers=jokers)
    except (NotationError, TooManyCopiesError) as exc:
        errors[field] = say(exc)
        return ()
    return cards


# ---------------------------------------------------------------------------
# Tiến lên: may this play go on this table?

TIENLEN = "tienlen"
TIENLEN_SWITCHES: list[str] = list(TienLenRules.__dataclass_fields__)


def combo_name(combo: Combination) -> str:
    """The combination's name in the reader's language (English: ``Combination.name``)."""
    kind = combo.kind
    if kind is Kind.SINGLE:
        return gettext("single %(rank)s", rank=combo.rank.symbol)
    if kind is Kind.PAIR:
        return gettext("pair of %(ranks)s", ranks=rank_plural(combo.rank))
    if kind is Kind.TRIPLE:
        return gettext("three %(ranks)s", ranks=rank_plural(combo.rank))
    if kind is Kind.FOUR_OF_A_KIND:
        return gettext("four %(ranks)s", ranks=rank_plural(combo.rank))
    if kind is Kind.SEQUENCE:
        return gettext("sequence of %(count)s cards", count=combo.length)
    return gettext("double sequence of %(count)s pairs", count=combo.pairs)


def tienlen_rules_or_default(values: Mapping[str, Any]) -> TienLenRules:
    """Rules from a cookie: a stale or damaged switch falls back to its default, the rest count."""
    try:
        return TienLenRules.from_dict(values)
    except SwitchError:
        good: dict[str, Any] = {}
        for key, value in values.items():
            try:
                TienLenRules.from_dict({key: value})
            except SwitchError:
                continue
            good[key] = value
        return TienLenRules.from_dict(good)


def tienlen_check(form: Mapping[str, Any], remembered: Mapping[str, Any], *, oob: bool) -> Answer:
    """The Tiến lên check screen's verdict box (``oob``: field errors travel along for htmx)."""
    table_text = (form.get("table") or "").strip()
    play_text = (form.get("play") or "").strip()
    first_play = (form.get("first_play") or "").lower() in ("on", "1", "true", "yes")
    errors: dict[str, str] = {}

    sent = switches_from_form(form, TIENLEN_SWITCHES)
    rules = tienlen_rules_or_default(remembered)
    save_rules: dict[str, Any] | None = None
    if sent:
        try:
            rules = TienLenRules.from_dict({**rules.to_dict(), **sent})
            save_rules = rules.to_dict()
        except SwitchError as exc:
            errors["rules"] = say(exc)

    verdict: Verdict | None = None
    table_cards = read_cards("table", table_text, errors)
    play_cards = read_cards("play", play_text, errors)
    if table_cards and "table" not in errors:
        try:
            table_combination(table_cards, rules)
        except NotACombinationError as exc:
            errors["table"] = say(exc)
    if first_play and table_cards and "table" not in errors:
        errors["first_play"] = gettext(
            "The first play of the game is made on an empty table: clear the table or untick this box."
        )
    if play_cards and not errors:
        try:
            verdict = check(play_cards, table_cards, rules, first_play=first_play)
        except TooManyCopiesError as exc:  # a card both on the table and in the play
            errors["play"] = say(exc)

    return Answer(
        "tienlen/_verdict.html",
        {"table": table_text, "play": play_text, "first_play": first_play, "verdict": verdict,
         "errors": errors, "values": rules.to_dict(), "combo_name": combo_name, "say": say, "oob": oob},
        status=400 if errors else 200,
        remember=save_rules,
    )


# ---------------------------------------------------------------------------
# Trece: may this play go on the pile?

TRECE = "trece"
TRECE_SWITCHES = ["run_after_joker"]
JOKER_CODES = ("RJ", "BJ")


def trece_rules_or_default(values: Mapping[str, Any]) -> TreceRules:
    try:
        return TreceRules.from_mapping(values)
    except (SwitchError, ValueError):
        return TreceRules()


def card_parts(card: AnyCard | None) -> tuple[str, str]:
    """The rank and suit letter a one-card chooser shows checked for ``card``."""
    if card is None:
        return "", ""
    if isinstance(card, Joker):
        return str(card), ""
    return card.rank.symbol, card.suit.letter


def read_one_card(
    form: Mapping[str, Any], name: str, errors: dict[str, str], *, jokers: bool
) -> tuple[AnyCard | None, str, str]:
    """Read a one-card chooser (``<name>_rank`` + ``<name>_suit`` radios, or a ``<name>`` text).

    Returns the card (or ``None`` when not chosen yet) and the rank and suit to show checked.
    """
    text = (form.get(name) or "").strip()
    rank = (form.get(f"{name}_rank") or "").strip()
    suit = (form.get(f"{name}_suit") or "").strip()
    if text:
        try:
            card = parse_card(text)
        except NotationError as exc:
            errors[name] = say(exc)
            return None, "", ""
    elif not rank:
        return None, "", suit
    elif rank.upper() in JOKER_CODES:
        card = parse_card(rank)
    elif not suit:
        return None, rank, ""
    else:
        try:
            card = parse_card(rank + suit)
        except NotationError as exc:
            errors[name] = say(exc)
            return None, rank, suit
    if isinstance(card, Joker) and (not jokers or str(card) not in JOKER_CODES):
        errors[name] = gettext("%(card)s cannot be here: choose a card with a suit", card=str(card))
        return None, "", ""
    shown_rank, shown_suit = card_parts(card)
    return card, shown_rank, shown_suit or suit


def trece_verdict_view(verdict: TreceVerdict) -> dict[str, Any]:
    """What the verdict box shows."""
    return {
        "legal": verdict.legal,
        "reason": say(verdict.reason),
        "joker": verdict.joker,
        "demands": None if verdict.demands_suit is None else verdict.demands_suit.symbol,
        "demands_red": verdict.demands_suit is not None and verdict.demands_suit.is_red,
    }


def trece_check(form: Mapping[str, Any], remembered: Mapping[str, Any], *, posted: bool) -> Answer:
    """The Trece check screen's verdict box (``posted``: the form was sent, not opened by a link)."""
    errors: dict[str, str] = {}
    top, top_rank, top_suit = read_one_card(form, "top", errors, jokers=True)
    play_text = form.get("play", "") or ""
    play: tuple[AnyCard, ...] = ()
    try:
        play = parse_cards(play_text)
    except NotationError as exc:
        errors["play"] = say(exc)
    demand_raw = (form.get("must_follow") or "").strip()
    must_follow: Suit | None = None
    if demand_raw and isinstance(top, Joker):
        try:
            must_follow = Suit.parse(demand_raw)
        except ValueError as exc:
            errors["must_follow"] = say(exc)

    if posted or any(k in form or f"{k}__present" in form for k in TRECE_SWITCHES):
        try:
            rules = TreceRules.from_mapping(switches_from_form(form, TRECE_SWITCHES))
        except (SwitchError, ValueError) as exc:
            errors["rules"] = say(exc)
            rules = TreceRules()
    else:
        rules = trece_rules_or_default(remembered)

    verdict: dict[str, Any] | None = None
    waiting: str | None = None
    if not errors:
        if top is None:
            waiting = gettext("Choose the top card of the pile.")
        elif isinstance(top, Joker) and must_follow is None:
            waiting = gettext("A joker on top demands a suit: choose it.")
        elif not play:
            waiting = gettext("Tap the cards of the play, in the order they were played.")
        else:
            try:
                verdict = trece_verdict_view(check_play(top, play, must_follow, rules))
            except DemandError as exc:
                errors["must_follow"] = say(exc)
            except (TooManyCopiesError, EmptyPlayError) as exc:
                errors["play"] = say(exc)

    return Answer(
        "trece/_check_result.html",
        {"top_rank": top_rank, "top_suit": top_suit, "play": play_text, "must_follow": demand_raw,
         "errors": errors, "verdict": verdict, "waiting": waiting, "rules": rules.to_dict()},
        status=400 if errors else 200,
        remember=rules.to_dict() if posted and "rules" not in errors else None,
    )


# ---------------------------------------------------------------------------
# Three Thirteen: the split of a hand

THREE_THIRTEEN = "three_thirteen"
SCORE_SWITCHES = ["faces", "aces", "jokers", "longer_game"]
THREE_THIRTEEN_SWITCHES = ["faces", "decks", "aces", "jokers", "longer_game", "up_and_back", "doubles", "false_out"]


def rules_of(raw: Mapping[str, Any] | None) -> ThreeThirteenRules:
    return rules_from_mapping(ThreeThirteenRules, dict(raw or {}))


def stored_rules(rules: ThreeThirteenRules) -> dict[str, Any]:
    return rules_to_dict(rules)


def form_values(rules: ThreeThirteenRules) -> dict[str, Any]:
    values = stored_rules(rules)
    values["decks"] = "" if rules.decks is None else str(rules.decks)
    return values


def rules_from_form(form: Any, ids: Sequence[str] = THREE_THIRTEEN_SWITCHES) -> ThreeThirteenRules:
    values = switches_from_form(form, list(ids))
    if values.get("decks") in ("", None):
        values.pop("decks", None)
    return rules_of(values)


def card_view(card: AnyCard, stands_for: Face | None = None) -> dict[str, Any]:
    return {"text": str(card), "red": card.is_red, "as": str(stands_for) if stands_for is not None else None}


def split_view(split: Split, factor: int = 1) -> dict[str, Any]:
    """A split ready for a template: melds as card groups, wild cards with what they stand for."""
    melds = []
    for meld in split.melds:
        cards = [card_view(c, f if c != f else None) for c, f in zip(meld.cards, meld.faces, strict=True)]
        melds.append({"kind": meld.kind, "cards": cards})
    return {
        "melds": melds,
        "leftover": [card_view(c) for c in split.leftover],
        "points": split.points,
        "score": split.points * factor,
        "out": split.is_out,
    }


def _bounded(raw: str | None, default: int, low: int, high: int) -> int:
    value = whole_number(raw or str(default))
    return default if value is None else min(max(value, low), high)


def three_thirteen_score(args: Mapping[str, Any]) -> Answer:
    """The score page's split of one hand (the fragment under the form)."""
    ctx: dict[str, Any] = {"error": None, "result": None}
    try:
        rules = rules_from_form(args, SCORE_SWITCHES)
    except (SwitchError, ValueError) as exc:
        rules = ThreeThirteenRules()
        ctx["error"] = say(exc)
    schedule = Schedule(rules)
    round_number = _bounded(args.get("round"), 4, 1, schedule.rounds)
    players = _bounded(args.get("players"), 4, 2, MAX_PLAYERS)
    wild_text = args.get("wild", "")
    hand_text = args.get("hand", "")
    decks = decks_for(players, rules)
    ctx.update(
        values=form_values(rules), rounds=[Schedule(rules).wild_rank(n) for n in range(1, schedule.rounds + 1)],
        deals=schedule.deals, round_number=round_number, players=players, wild_text=wild_text, hand=hand_text,
        decks=decks, jokers=("JK",) if rules.jokers else (), ranks=list(Rank),
    )
    wild = Rank.parse(wild_text) if wild_text in {r.symbol for r in Rank} else schedule.wild_rank(round_number)
    ctx["wild"] = wild
    if hand_text.strip() and not ctx["error"]:
        try:
            cards = parse_cards(hand_text)
            if wild_text:
                split = best_split(cards, wild, rules, decks=decks)
            else:
                split = split_hand(cards, round_number, rules, decks=decks)
            factor = 2 if not wild_text and schedule.is_doubled(round_number) else 1
            ctx["result"] = split_view(split, factor)
        except HandSizeError as exc:
            ctx["error"] = say(exc)
            ctx["count"] = len(exc.hand)
        except (NotationError, TooManyCopiesError) as exc:
            ctx["error"] = say(exc)
    return Answer("three_thirteen/_score_result.html", ctx)


def preview_hand(
    rules: ThreeThirteenRules, players: int, round_number: int, text: str, *, out: bool
) -> dict[str, Any]:
    """The split of one hand while it is being tapped in (or why there is none yet)."""
    preview = rules_preview_hand(rules, players, round_number, text, out=out)
    result: dict[str, Any] = {"dealt": preview.dealt, "count": preview.count}
    if preview.split is not None:
        result["split"] = split_view(preview.split, preview.factor)
    if preview.problem is not None:
        result["error"] = say(preview.problem)
    if preview.warning is not None:
        result["warning"] = say(preview.warning)
    return result


def three_thirteen_preview(setup: Mapping[str, Any], seat: int, form: Mapping[str, Any]) -> Answer:
    """The round entry's live count and split of one hand; ``setup`` is the sheet's ``rules``,
    ``players`` and round ``number`` (the round page carries them for the phone)."""
    text = str(form.get(f"cards_{seat}", ""))[:400]
    out = str(seat) in _all(form, "out")
    result = preview_hand(rules_of(setup["rules"]), int(setup["players"]), int(setup["number"]), text, out=out)
    return Answer("three_thirteen/_preview.html", {"p": result, "seat": seat})


def _all(form: Mapping[str, Any], key: str) -> list[str]:
    getlist = getattr(form, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(key)]
    value = form.get(key)
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
