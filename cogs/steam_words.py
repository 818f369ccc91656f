"""What the Steam to Solar board says: the lobby, the position and status lines, and the
labels fitted to a phone."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.boards.layout import BoardButton, BoardItem, phone_lines
from bot.games.protocol import Action
from bot.games.steam.state import ALL_CARDS, POWER_EMOJI, can_run, goods_points, powers
from bot.table import seating
from bot.table.seats import Seat
from bot.table.service import LoadedGame
from bot.text.names import plain, short_name
from bot.text.widths import shown_width
from cogs.base import last_line, seat_list
from cogs.cards import card_text

#: The game's name: the board's title.
TITLE = "Steam to Solar"
#: The longest description Discord shows under a select's option.
MAX_OPTION_DESCRIPTION = 100
#: The group of each train's usual run in one go (run, power, ship all: one click); the
#: other runs in one go are in group ``other``.
WHOLE_RUN = "whole"
#: Every card either deck holds (S1: the Pawns or the Courts), by its name, to read a
#: plan's trains.
CARD_BY_NAME = {c.name: c for c in ALL_CARDS}
#: The room of the board's title on one phone line, in letters (:mod:`bot.text.widths`;
#: measured with the preview tool): "🚂 Name to play" is cut to it at the name (the
#: picture and "Rules & details" have the name whole).
TITLE_ROOM = 31
#: The room of a line of the board's description on one phone line, in letters
#: (:mod:`bot.text.widths`), with room left for a bold name being wider than plain text: a
#: player's line and the final round's line cut names to keep to it.
LINE_ROOM = 34
#: What the title adds when a computer plays the seat to act for an away player.
AWAY_MARK = " 💤 away"
#: The fewest letters of a name the final round's line shows (more names are counted).
NAME_LEAST = 8
#: The controls' labels on a phone. The shipment's confirm keeps the engine's label,
#: which says what it ships and scores (:func:`fit_ship`).
CONTROL_LABELS = {"done": "Done", "cancel": "Cancel", "pass": "Pass"}
#: How the event of the game's end begins ("Game over. Bob wins with 16.").
GAME_OVER = "Game over"
#: How the table-wide events of a game begin: a new half, the final round, the end. The
#: footer shows them whole.
ANNOUNCEMENTS = ("The first half is over", "The river cannot be refilled", GAME_OVER)


def timer_running(game: LoadedGame) -> bool:
    """Whether the board shows a running turn timer: the seat to act's."""
    timer = game.data.timer
    return timer is not None and timer.seat == game.to_act()


def announced(event: str) -> bool:
    """Whether ``event`` is one the whole table needs to read in full."""
    return event.startswith(ANNOUNCEMENTS)


def train_text(train: list[dict[str, Any]]) -> str:
    """Return a train as its cards, with what it can do marked."""
    suits = {s for c in train for s in c["suits"]}
    power = " ".join(p for p, s in ((POWER_EMOJI["steam"], "Waves"),
                                    (POWER_EMOJI["solar"], "Suns")) if s in suits)
    ready = "Moons" in suits and power and suits & {"Leaves", "Wyrms", "Knots"}
    cards = ", ".join(card_text(c, value=False) for c in train)
    mark = f" ✅{power}" if ready else ""
    return f"{cards}{mark}"


def lobby(game: LoadedGame) -> discord.Embed:
    """Return the lobby: how to join, the seats, the timer; the last event in the footer."""
    state = "table open" if game.row.status == "lobby" else "table closed"
    embed = discord.Embed(title=f"{TITLE} · {state}", colour=0x2B8A3E)
    notices = "on" if game.data.notices else "off"
    deck = "Courts" if game.row.options.get("deck") == "courts" else "Pawns"
    how = ("This table closed before its game began.\n" if game.row.status != "lobby" else
           "The table is full: the host starts from **Host controls** (someone seated may "
           "leave to free a seat).\n" if len(game.seats) >= game.engine.max_seats else
           "Press **Join** to take a seat (2 to 5 players); anyone seated can add computer "
           "players; the host starts from **Host controls**.\n")
    embed.description = how + (
        f"⏰ Turn timer {seating.timer_name(game.data.turn_seconds)}"
        f" · turn notices {notices} · {deck} deck"
    )
    embed.add_field(name=f"Seated ({len(game.seats)}/5)", value=seat_list(game),
                    inline=False)
    embed.set_footer(text=last_line(game, announced))
    return embed


def damaged(game: LoadedGame) -> discord.Embed:
    """Return the board of a table whose saved data cannot be read: the game's title, that
    it cannot be shown, and who is seated (Tinker's and Tin Realm's say the same); no
    lobby text, since nobody can join or start it."""
    embed = discord.Embed(title=TITLE, description="This game cannot be shown.",
                          colour=0x2B8A3E)
    embed.add_field(name=f"Seated ({len(game.seats)})", value=seat_list(game), inline=False)
    embed.set_footer(text=last_line(game, announced))
    return embed


def stacks(player: dict[str, Any]) -> str:
    """Say the Wave stacks a resigned player still holds (S10: they keep them, though
    their points count for nothing): " · holds 🎫2", or ""."""
    tokens = int(player.get("tokens") or 0)
    return f" · holds 🎫{tokens}" if tokens else ""


def total(player: dict[str, Any]) -> str:
    """Return a player's total as shown, saying the Wave tokens in it and so which stack
    they hold (S10, S12: 2 a token; the stack of two, of one, or both): "17 (🎫2)"."""
    total = player.get("total", player["score"])
    tokens = int(player.get("tokens") or 0)
    return f"{total} (🎫{tokens})" if tokens and not player.get("resigned") else str(total)


def position(game: LoadedGame, view: dict[str, Any]) -> list[str]:
    """Return what the picture shows, as text: the river, then a line per player."""
    if view["over"]:
        return []
    river = " · ".join(f"{i}. {card_text(c, value=False)} ({c['cost']})"
                       for i, c in enumerate(view["river"], start=1)) or "empty"
    lines = [f"**River** {river} · deck {view['deck_count']}"]
    for player in view["players"]:
        seat = game.seats[player["seat"]] if player["seat"] < len(game.seats) else Seat()
        marks = "".join(m for m, on in (
            ("▶️", view["turn"] == player["seat"]),
            ("🤖", seat.computer),
            ("💤", game.shown_away(player["seat"])),
            ("🏳️", bool(player["resigned"])),
        ) if on)
        after = f" {total(player)}"
        if view["turn"] != player["seat"]:
            ready = sum(1 for t in player["trains"] if "✅" in train_text(t))
            count = len(player["trains"])
            after += (f" · {count} train{'' if count == 1 else 's'}"
                      + (f", {ready} can run" if ready else ""))
        name = short_name(player["name"], LINE_ROOM - shown_width(marks + after))
        lines.append(f"{marks}**{name}**{after}")
        if view["turn"] == player["seat"]:
            lines += [f"{i}. {train_text(t)}" for i, t in enumerate(player["trains"], 1)]
    return lines


def _final_round(still: list[str]) -> str:
    """Return the final round's line on one phone line: who is still to play, as many as
    fit with at least :data:`NAME_LEAST` letters each (a short name whole, the room left
    shared among the long ones, each cut to it), the rest counted ("+2")."""
    head = "⏳ Final round · to play: "
    if not still:
        return f"{head}nobody."
    room = LINE_ROOM - shown_width(head + ".")
    for shown in range(len(still), 0, -1):
        more = f" +{len(still) - shown}" if shown < len(still) else ""
        cap = _cap([shown_width(plain(n)) for n in still[:shown]],
                   room - shown_width(more) - shown_width(", ") * (shown - 1))
        if cap >= NAME_LEAST or shown == 1:
            names = ", ".join(short_name(name, cap) for name in still[:shown])
            return f"{head}{names}{more}."
    raise AssertionError("unreachable: one name is always shown")


def _cap(widths: list[float], room: float) -> float:
    """Return the most room each name may take so that all of ``widths`` fit ``room``:
    names narrower than their share keep their width and leave the rest to the others
    (infinite when every name fits whole)."""
    left, count = room, len(widths)
    for width in sorted(widths):
        share = left / count
        if width > share:
            return share
        left, count = left - width, count - 1
    return float("inf")


def short_label(action: Action, game: LoadedGame) -> Action:
    """Return ``action`` labelled short enough for three buttons a row on a phone; a plan
    is named by its letter and what it leads to (:func:`_plan_label`)."""
    label = action.label
    if action.group == "plan":
        moves = _plan_moves(action, game)
        if moves:
            return Action(action.id, _plan_label(action), action.group, moves, action.primary)
        label = _plan_label(action)
    elif action.id in CONTROL_LABELS:
        label = CONTROL_LABELS[action.id]
    elif action.group == "power":
        label = "☀️ Solar" if "solar" in label else "🌊 Steam"
    elif action.id.startswith("go:"):
        group = WHOLE_RUN if action.primary else "other"
        return Action(action.id, label, group, action.description, action.primary)
    elif action.group == "run":
        label = f"Run train {action.id.removeprefix('run:')} step by step: choose what to ship"
    elif action.group == "place" and " → " in label:
        label = label.rsplit(" → ", 1)[1].replace("a new train", "new train").capitalize()
    if label == action.label:
        return action
    return Action(action.id, label, action.group, action.description, action.primary)


def burn_option(action: Action) -> str:
    """Return a Wave card's option in the select as its card ("Burn Journey 🌙🌊"): the
    option's description says what burning it loses (other actions keep their label)."""
    if action.group != "wave":
        return action.label
    return action.label.split(", losing ", 1)[0]


def fit_ship(items: list[BoardItem], game: LoadedGame) -> str | None:
    """S8: return the shipment's confirm in short ("Ship 2 · 4 pts") when the engine's
    label ("Ship 2 cards for 4") would wrap its row of buttons on a phone, else None."""
    ship = next((i for i in items if isinstance(i, BoardButton)
                 and i.custom_id.endswith(":ship")), None)
    if ship is None:
        return None
    row = [i for i in items if isinstance(i, BoardButton) and i.row == ship.row]
    if phone_lines(row) <= 1:
        return None
    pending = game.view().get("pending") or {}
    points = pending.get("points", 0)
    return f"Ship {len(pending.get('ship') or [])} · {points} pt{'' if points == 1 else 's'}"


def _shipment(pending: dict[str, Any], *, suits: bool = True) -> str:
    """Return the cards chosen to ship (``Savage 🍃🐉``; without ``suits``, ``Savage``),
    or "" before any is chosen; the confirm's label says how many and their points."""
    return ", ".join(card_text(c, value=False) if suits else str(c["name"])
                     for c in pending.get("ship") or [])


def _plan_trains(action: Action) -> list[list[str]]:
    """The card names of each train a plan leads to, from its description (S6)."""
    listing = action.description.removeprefix("Arrange as ").rstrip(".")
    return [part.split(": ", 1)[-1].split(", ") for part in listing.split(" · ")]


def _plan_moves(action: Action, game: LoadedGame) -> str | None:
    """Return a plan's description as the cards it moves ("Mill, Sea to train 2 · Forest
    to a new train"), which a select shows whole, or None when that would not fit
    Discord's 100 letters (the whole listing, cut, is shown instead)."""
    view = game.view()
    seat = view.get("turn")
    if seat is None:
        return None
    now = [{str(card.get("name")) for card in train}
           for train in view["players"][seat]["trains"]]
    parts = []
    for number, train in enumerate(_plan_trains(action), 1):
        moved = [name for name in train if number > len(now) or name not in now[number - 1]]
        where = f"train {number}" if number <= len(now) else "a new train"
        if moved:
            parts.append(f"{', '.join(moved)} to {where}")
    text = f"Moves {' · '.join(parts)}." if parts else ""
    return text if 0 < len(text) <= MAX_OPTION_DESCRIPTION else None


def _plan_label(action: Action) -> str:
    """Return a plan named by its letter and its result: the train that can run, its
    power and points ("Plan B · Train 1 runs on steam for 7 · 3 + 2 cards"). Two plans
    may lead to the same result: the letter tells them apart, the option's description
    says which cards each moves."""
    trains = [[CARD_BY_NAME[n] for n in names if n in CARD_BY_NAME]
              for names in _plan_trains(action)]
    sizes = " + ".join(str(len(t)) for t in trains)
    letter = re.match(r"Plan \w+", action.label)
    name = f"{letter.group(0)} · " if letter else ""
    best = max(((goods_points(t), k, t) for k, t in enumerate(trains, 1) if can_run(t)),
               default=None, key=lambda x: (x[0], -x[1]))
    if best is None:
        return f"{name}No train can run yet · {sizes} cards"
    points, number, train = best
    power = " or ".join(powers(train))
    return f"{name}Train {number} runs on {power} for {points} · {sizes} cards"


def _powers_line(game: LoadedGame, seat: int) -> str:
    """Return what running on each power the train can run on does (S8, S10), on two
    phone lines at most: the board's buttons say only "🌊 Steam" and "☀️ Solar"."""
    said = []
    for action in game.engine.legal_actions(game.state, seat):
        if action.id == "pw:steam":
            stack = ", takes the stack of two" if "stack of two" in action.description else ""
            said.append(f"🌊 burns a Wave card{stack}")
        elif action.id == "pw:solar":
            said.append("☀️ burns nothing")
    return " · ".join(said)


def _walked_away(name: str, came: bool = True) -> str:
    """Return the end board's line for a person whose seat a computer was playing at the
    end: their records count the game as a loss, whatever the seat scored (C6); one who
    never ``came`` (seated for them, they took no part) has no result from it."""
    if not came:
        return f"💤 {short_name(name, TITLE_ROOM)} never came: no result for them."
    return f"💤 {short_name(name, TITLE_ROOM)} was away at the end: it counts as a loss."


def status(game: LoadedGame, view: dict[str, Any]) -> str:
    """Return whose turn it is and what they are doing, or the places at the end."""
    players = view["players"]
    if view["over"]:
        result = view["result"]
        lines = [f"🏁 **{result['summary']}**"]
        places = result.get("places") or []
        away = {i for i, seat in enumerate(game.seats) if seat.away and not seat.computer}
        lines += [_walked_away(players[i]["name"], i not in game.data.absent)
                  for i in sorted(away) if i < len(players)]
        if game.pictured:  # the picture has the places and scores in full
            return "\n".join(lines)
        for place in places:
            crown = ("🏆 " if place["place"] == 1 and not place["resigned"]
                     and place["seat"] not in away else "")
            lines.append(f"{crown}**{place['ordinal']}** {place['name']}: {place['total']}"
                         f" — {place['breakdown']}")
        return "\n".join(lines)
    seat = view["turn"]
    # Marked only while a computer plays the seat: with no one else playing, the table
    # waits for its person.
    mark = AWAY_MARK if game.shown_away(seat) else ""
    name = short_name(players[seat]["name"], TITLE_ROOM - shown_width(f"🚂  to play{mark}"))
    lines = [f"🚂 **{name}** to play{mark}"]
    timer = game.data.timer
    if timer is not None and timer_running(game):
        lines.append(f"⏰ turn timer <t:{int(timer.at)}:R>")
    pending = view["pending"]
    if pending and pending.get("step") == "power":  # the buttons name the powers only
        lines.append(_powers_line(game, seat))
    if game.pictured:  # the picture shows the final round and the cards in hand
        doing = pending or {}
        problem = doing.get("problem")
        if problem:
            lines.append(f"{problem[0].upper()}{problem[1:]}.")
        # the picture shows the train running, not the goods cards chosen so far
        shipment = _shipment(doing, suits=False) if doing.get("step") == "ship" else ""
        if shipment:
            lines.append(f"Shipping: {shipment}.")
        return "\n".join(lines)
    if view["final_round"]:
        lines.append(_final_round(view.get("still_to_play") or []))
    if pending:
        if pending["kind"] == "place":  # the buttons place the first card (S5)
            now, *then = (card_text(c, value=False) for c in pending["cards"])
            lines.append(f"Placing: **{now}**" + (f" now, then {', '.join(then)}."
                                                  if then else ""))
        elif pending["kind"] == "arrange":
            problem = pending.get("problem")
            lines.append("Rearrange, then **Done**" + (f": {problem}" if problem else "."))
        elif pending["kind"] == "run":
            power = f" on {pending['power']}" if pending.get("power") else ""
            lines.append(f"Running train {pending['train']}{power}. Shipping: "
                         f"{_shipment(pending) or '—'}")
    return "\n".join(lines)
