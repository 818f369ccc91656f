"""Alt text for board pictures: a plain summary of the position a screen reader can speak.

:func:`describe` reads the same view the picture is drawn from and says, in short
sentences, what the picture shows: the ending's headline first, then the game's state.
It never exceeds :data:`LIMIT` characters (Discord's limit for an attachment's
description); the least important sentences come last and are dropped first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.games.tinrealm.content import EDGE_WORDS
from bot.games.tinrealm.text import SPENT
from bot.pictures.endings import ending
from bot.pictures.script import LTR
from bot.pictures.steam import TRAIN_CARDS
from bot.pictures.trains import report
from bot.pictures.viewdata import items, mapping, mappings, number

LIMIT = 1024
"""The longest alt text Discord keeps."""

TITLES = {"tinker": "Tinker, Sailor, Soldier, Spy", "steam": "Steam to Solar",
          "tinrealm": "Tin Realm"}
"""Each game's title."""


def _card(card: Mapping[str, Any]) -> str:
    """A card as words: ``Mill (5, Waves and Leaves)``."""
    name = str(card.get("name") or "a card")
    suits = [str(s) for s in items(card.get("suits"))]
    value = card.get("value")
    rank = value if value is not None else card.get("rank")
    facts = [str(rank)] if rank not in (None, "") and str(rank) not in name else []
    facts += [suit for suit in suits if suit not in name]  # "Ace of Knots" says its suit
    return f"{name} ({', '.join(facts)})" if facts else name


def _cards(cards: list[Mapping[str, Any]]) -> str:
    return ", ".join(_card(c) for c in cards) or "none"


def _steam(view: Mapping[str, Any], *, brief: str = "") -> list[str]:
    """Describe a table: points, what is being done, the river, the half, then every
    player's trains, the player to act first; ``brief`` says less of the others' trains
    (for five long-named seats, so that every player's trains are said): ``counted``
    counts their cards instead of naming them, ``lengths`` gives only how long each
    train is."""
    players = mappings(view.get("players"))
    names = {p.get("seat"): str(p.get("name") or f"Seat {p.get('seat')}") for p in players}
    lines = []
    scores = []
    for p in players:
        # the total, Wave tokens included (S10, S12: 2 points each), as the picture and
        # the text board show it; a resigned player scores nothing
        state = [] if p.get("resigned") else [str(p.get("total", p.get("score", "?")))]
        tokens = number(p.get("tokens"))
        if tokens > 0 and not p.get("resigned"):
            state.append(f"{tokens} Wave token{'' if tokens == 1 else 's'} included")
        state += [word for word, flag in (("to play", p.get("seat") == view.get("turn")),
                                          ("away", p.get("away")),
                                          ("computer", p.get("computer")),
                                          ("resigned", p.get("resigned"))) if flag]
        scores.append(f"{names.get(p.get('seat'))} {', '.join(state)}")
    if scores:
        lines.append("Points: " + "; ".join(scores) + ".")
    pending = mapping(view.get("pending"))
    who = names.get(pending.get("seat"), "")
    if pending.get("kind") == "place":  # the buttons place the first card (S5)
        now, *then = (_card(c) for c in mappings(pending.get("cards")))
        lines.append(f"{who} is placing {now} now" + (f", then {', '.join(then)}." if then
                                                       else ".") if now else f"{who} is placing.")
    elif pending.get("kind") == "arrange":
        lines.append(f"{who} is rearranging trains.")
    elif pending.get("kind") == "run":  # the picture's "X runs train 1 on solar"
        power = f" on {pending['power']}" if pending.get("power") else ""
        lines.append(f"{who} is running train {pending.get('train', '?')}{power}.")
    if view.get("final_round") and not view.get("over"):  # as the picture's status line
        lines.append("Final round.")
    sunny = mappings(view.get("sunny_aside"))
    if sunny:  # as the picture's status line does (there, unless cards are being placed)
        lines.append(f"{len(sunny)} sunny card{'' if len(sunny) == 1 else 's'} aside.")
    river = mappings(view.get("river"))
    if river:
        lines.append("River: " + "; ".join(
            f"{_card(c)} costs {c.get('cost', '?')}" for c in river) + ".")
    elif "river" in view and not view.get("over"):  # as the picture says it
        lines.append("The river is empty.")
    half = number(view.get("half"))
    if half:
        lines.append(f"{'First' if half == 1 else 'Second'} half; deck "
                     f"{view.get('deck_count', '?')}, discard {view.get('discard_count', 0)}.")
    # The player to act decides by their own trains: theirs come first, with each card's
    # suits (what it carries and powers); the others' by name, or counted when brief.
    for p in sorted(players, key=lambda p: p.get("seat") != view.get("turn")):
        acting = p.get("seat") == view.get("turn")
        if brief == "lengths" and not acting:
            lengths = [len(mappings(t)) for t in items(p.get("trains"))]
            if lengths:
                lines.append(f"{names.get(p.get('seat'))}: "
                             f"{'a train' if len(lengths) == 1 else 'trains'} of "
                             f"{' and '.join(map(str, lengths))} "
                             f"card{'' if lengths == [1] else 's'}.")
            continue
        trains = _trains(p, suits=acting, counted=bool(brief) and not acting,
                         live=not view.get("ended"))
        if trains:
            lines.append(f"{names.get(p.get('seat'))}: {'; '.join(trains)}.")
    return lines


def _trains(player: Mapping[str, Any], *, suits: bool, counted: bool = False,
            live: bool = True) -> list[str]:
    """A player's trains in words: their cards (with their ``suits``, by name, or
    ``counted``) and, while the game is ``live``, what each can run on and for how
    much."""
    trains = []
    for i, train in enumerate(items(player.get("trains")), start=1):
        cards = mappings(train)
        rep = report(cards)
        can = (f", runs on {' or '.join(rep.powers)} for {rep.points}"
               if live and rep.runnable and len(cards) <= TRAIN_CARDS  # S6: more must wait
               else ", over the five-card limit" if len(cards) > TRAIN_CARDS else "")
        words = (f"of {len(cards)} card{'' if len(cards) == 1 else 's'}" if counted
                 else ", ".join(_card(c) if suits else str(c.get("name")) for c in cards))
        trains.append(f"train {i} {words}{can}")
    return trains


def _tinker(view: Mapping[str, Any]) -> list[str]:
    number = view.get("offer_number")
    lines = [f"Round {view.get('round', '?')}"
             + (f", offer {number} of {view.get('offers', 11)}." if number else ".")]
    offer = mapping(view.get("offer"))
    if offer:
        lines.append("Offered: " + " and ".join(
            f"{label} {_card(mapping(offer.get(label)))}"
            for label in ("personality", "event") if offer.get(label)) + ".")
    challenge = mapping(view.get("challenge"))
    if challenge:
        lines.append(f"Challenge {_card(challenge)}: sum {view.get('sum', 0)} of target "
                     f"{view.get('target', '?')}.")
        if not view.get("over"):  # the buttons are a suit, "×" the chips of it held
            lines.append("Each suit's button pays a chip of that suit to draw a card; "
                         "× is how many are held, +1 that the suit counts.")
        lines.append(f"Played: {_cards(mappings(view.get('played')))}.")
    elif view.get("phase") == "lose_chip" and not view.get("over"):
        # T7 harsh defeat: no challenge is left, and the same buttons now cost a chip
        lines.append("Harsh defeat: each suit's button loses one chip of that suit; "
                     "nothing is drawn.")
    paid = [p for p in items(view.get("paid")) if isinstance(p, str)]
    if paid:  # the chips drawn under the played cards
        lines.append(f"Paid: {', '.join(paid)}.")
    chips = mapping(view.get("chips"))
    if chips:
        lines.append("Chips left: " + ", ".join(f"{k} {v}" for k, v in chips.items()) + ".")
    cleared = mappings(view.get("cleared"))
    lines.append(f"Journey: {len(cleared)} of 13 locations cleared; deck "
                 f"{view.get('deck_count', '?')}, discard {len(mappings(view.get('discard')))}, "
                 f"aces {view.get('aces_left', '?')}.")
    return lines


def _tinrealm(view: Mapping[str, Any]) -> list[str]:
    """Describe a journey: who, the day and the node (counted past S, as the board counts
    them: Oakinshelm is the last), the trackers, the fight, the location, tableau and pack."""
    who = " ".join(str(view.get(k)) for k in ("race", "class") if view.get(k))
    day, last = view.get("day", "?"), view.get("last_day", 7)
    night = isinstance(day, int) and isinstance(last, int) and (
        day > last or bool(view.get("night")))  # ended at a supper: the day before is over
    when = (f"day {min(day - 1, last)} of {last} is over" if night and isinstance(day, int)
            else f"day {day} of {last}")
    total = view.get("nodes_total")
    nodes = total - 1 if isinstance(total, int) else "?"
    here = number(view.get("node")) or 0
    furthest = number(view.get("furthest")) or 0
    reached = f" (furthest reached: {furthest})" if furthest > here else ""  # as drawn
    lines = [f"{who or 'An adventurer'}, {when}, at node {here} of {nodes}{reached}."]
    trackers = [f"{word} {view.get(key, '?')} of {view.get(top, '?')}"
                for word, key, top in (("Health", "health", "max_health"),
                                       ("energy", "energy", "max_energy"))
                if view.get(top) != 0]  # no maximum yet: the picture's bar reads "–"
    trackers += [f"{key} {view.get(key, '?')}" for key in ("food", "poison", "favor")]
    lines.append(", ".join(trackers)[:1].upper() + ", ".join(trackers)[1:] + ".")
    fight = mapping(view.get("combat"))
    if fight:
        lines.append(f"Fighting {fight.get('name', 'an enemy')}: health "
                     f"{fight.get('health', '?')} of {fight.get('max_health', '?')}, attack "
                     f"{fight.get('attack', '?')}, defense {fight.get('defense', '?')}.")
        lines.append(f"The ⚡ buttons strike with that much energy, + the bonus damage; "
                     f"Sure deals {fight.get('sure_blow', 1)} damage with no roll.")
    location = mapping(view.get("location"))
    if location:
        lines.append(f"Here: {_card_words(location)}.")
    top_card = mapping(view.get("top_card"))
    if top_card:  # the card drawn beside the tableau, labelled "top card"
        lines.append(f"Top card: {_card_words(top_card)}.")
    dice = [str(d) for d in items(view.get("dice")) if isinstance(d, int)]
    if dice:
        lines.append(f"Dice: {', '.join(dice)}.")
    tableau = mappings(view.get("tableau"))
    if tableau:
        lines.append("Today's tableau: " + ", ".join(str(c.get("name")) for c in tableau) + ".")
        left = items(tableau[0].get("edges"))
        right = items(tableau[-1].get("edges"))
        if len(left) == 2 and len(right) == 2:  # where a card placed at either end meets
            lines.append(f"Its ends: {EDGE_WORDS.get(str(left[0]), str(left[0]))} on the "
                         f"left, {EDGE_WORDS.get(str(right[1]), str(right[1]))} on the right.")
    lines.append(_map_words(view))
    pack = mappings(view.get("items"))
    if pack:
        lines.append("Pack: " + ", ".join(str(i.get("name")) + ("" if i.get("ready", True)
                                                                 else SPENT)
                                          for i in pack) + ".")
    return lines


#: A map node's mark in words, plural (the start and Oakinshelm are said apart).
NODE_WORDS = {"campsite": "campsites", "water": "water"}


def _map_words(view: Mapping[str, Any]) -> str:
    """The map as the picture draws it, by node number (S is node 0, Oakinshelm the
    last): where the campsites and the water are ("Map: campsites at nodes 4 and 9;
    water at 2 and 7; Oakinshelm at 11.")."""
    marks: list[str] = [str(m) for card in mappings(view.get("map")) for m in
                        items(card.get("nodes"))]
    if not marks:
        return ""
    said = []
    for mark, words in NODE_WORDS.items():
        at = [str(i) for i, m in enumerate(marks) if m == mark]
        if at:
            listed = at[0] if len(at) == 1 else f"{', '.join(at[:-1])} and {at[-1]}"
            said.append(f"{words} at {'node' if len(at) == 1 else 'nodes'} {listed}")
    said.append(f"Oakinshelm at {len(marks) - 1}")
    return "Map: " + "; ".join(said) + "."


def _card_words(card: Mapping[str, Any]) -> str:
    """An exploration card in words, as a player decides by it: its name, what it holds
    and where its two edges lead ("Briar Hollow: trap, loot · forest on the left, water
    on the right")."""
    icons = [str(i) for i in items(card.get("icons"))]
    edges = [EDGE_WORDS.get(str(e), str(e)) for e in items(card.get("edges"))]
    words = str(card.get("name", "?"))
    if icons:
        words += ": " + ", ".join(icons)
    if len(edges) == 2:
        words += f" · {edges[0]} on the left, {edges[1]} on the right"
    return words


def _lobby(view: Mapping[str, Any]) -> list[str]:
    for key in ("players", "seats", "names"):
        found = items(view.get(key))
        if found:
            names = [str(v.get("name") or "?") if isinstance(v, Mapping) else str(v)
                     for v in found]
            return [f"Table open, {len(names)} seated: {', '.join(names)}."]
    return ["Table open, no one seated yet."]


def _join(lines: list[str], limit: int, size: Callable[[str], int] = len) -> str:
    """Join sentences, dropping whole sentences from the end to fit ``limit``; of the
    first sentence that does not fit, as many whole clauses (parted by "; ") as fit are
    kept, marked "…" (a sentence of one clause is cut between words; one of which
    nothing fits leaves the "…" alone). ``size`` measures a text as it will be read."""
    text = ""
    for line in lines:
        if not line:
            continue
        candidate = f"{text} {line}".strip()
        if size(candidate) > limit:
            room = limit - size(text) - (2 if text else 1)
            clauses = line.split("; ")
            kept = ""
            for clause in clauses:
                more = f"{kept}; {clause}" if kept else clause
                if size(more) > room:
                    break
                kept = more
            if not kept and not text:  # one clause too long alone: cut between words
                kept = line[:room].rsplit(" ", 1)[0]
            if kept:
                return f"{text} {kept}…".strip()
            # nothing of it fits: the "…" still says that something was left out
            return f"{text} …" if size(text) + 2 <= limit else f"{text[:limit - 1]}…"
        text = candidate
    return text


def _stop(sentence: str) -> str:
    """``sentence`` ending with a full stop, unless it already ends a sentence (the
    engine's summary of an ending is one: "... with 7 chips left.")."""
    sentence = sentence.rstrip()
    return sentence if sentence.endswith((".", "!", "?", "…")) else sentence + "."


def describe(kind: str, view: Mapping[str, Any], status: str, limit: int = LIMIT,
             size: Callable[[str], int] = len) -> str:
    """Return alt text for the board of ``kind`` (at most ``limit`` characters: less
    than :data:`LIMIT` where words go before it, as a replay's do). ``size`` measures a
    text as it will be read (names escaped for markdown in the view are read without
    their escapes)."""
    view = view if isinstance(view, Mapping) else {}
    title = TITLES.get(kind, kind)
    if status == "lobby":
        return _join([f"{title}.", *_lobby(view)], limit, size)
    look = ending(kind, view, status, drawn=False)
    lines = [f"{title} board."]
    headline, detail = look.spoken  # every name whole, though the banner cuts them
    if headline:
        lines.append(_stop(headline) + (f" {_stop(detail)}" if detail else ""))
    body = {"steam": _steam, "tinker": _tinker, "tinrealm": _tinrealm}.get(kind)
    if kind == "steam" and look.mood != "active":  # as the picture: no turn under way
        view = {**view, "turn": None, "pending": None, "ended": True}
    try:
        said = lines + (body(view) if body is not None else [])
        # the others' cards counted, not named; then only their trains' lengths: every
        # player's trains are said, five long-named seats too
        for brief in ("counted", "lengths"):
            if kind != "steam" or size(" ".join(filter(None, said))) <= limit:
                break
            said = lines + _steam(view, brief=brief)
    except (TypeError, ValueError, AttributeError):
        said = [*lines, "The position could not be read."]
    return _join([line.replace(LTR, "") for line in said], limit, size)  # read, not drawn
