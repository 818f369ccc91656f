"""Steam to Solar's "Rules & details": "Last turns" holds every turn the table's log
keeps, each under who played it (the footer cuts each turn to one line, and at four or
five seats keeps only the newest ones), and a lobby's pages speak of seats, not of the
channel's votes."""

from __future__ import annotations

from dataclasses import replace

from bot.games.steam.engine import ENGINE
from bot.table.data import TurnLog
from bot.table.turnlog import COMPUTER_MARK, note_move, note_table
from cogs.steam import SteamCog
from tests.support import detail_embeds, loaded

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve"]


def _table(seats: int = 5):
    state = ENGINE.new(3, seats, {"names": NAMES[:seats]}) if seats > 1 else None
    game = loaded(ENGINE, state, seats=seats, events=["Old event."] * 12,
                  status="active" if seats > 1 else "lobby")
    game.seats = [replace(seat, name=NAMES[i]) for i, seat in enumerate(game.seats)]
    return game


def _text(embeds) -> str:
    return "\n".join(f"{f['name']}\n{f['value']}" for e in embeds
                     for f in e.to_dict().get("fields", []))


def test_every_kept_turn_is_on_the_last_turns_pages() -> None:
    """A round of five long turns, a table event and a computer playing an away seat:
    every event of every kept turn is on some "Last turns" page, under its player."""
    game = _table()
    for round_ in range(2):
        for seat, name in enumerate(NAMES):
            events = [f"{name} takes card {n} of round {round_} and places it in train "
                      f"{n % 3 + 1}." for n in range(6)]
            note_move(game.data, seat, events, ended=True, by_computer=seat == 3, seats=5)
        note_table(game.data, [f"The river runs dry in round {round_}."], seats=5)
    assert len(game.data.turns) == 12  # the log keeps twelve: the oldest went
    embeds = [e for e in detail_embeds(SteamCog(None), game)
              if (e.title or "").startswith("The last turns")]
    text = _text(embeds)
    assert len(embeds) > 1  # more than one phone page
    kept: list[TurnLog] = game.data.turns
    for turn in kept:  # each under its player's name, which it does not repeat
        for event in turn.events:
            name = NAMES[turn.seat] if turn.seat is not None else ""
            shown = event.removeprefix(f"{name} ").capitalize() if name else event
            assert f"• {shown}" in text, event
    assert f"{COMPUTER_MARK} Dave\n• Takes card 0 of round 1" in text
    # newest first, as each page's title says: the first opens with the table's last event
    assert all((e.title or "").startswith("The last turns, newest first") for e in embeds)
    first = embeds[0].to_dict()["fields"][0]
    assert (first["name"], first["value"]) == ("The table", "• The river runs dry in round 1.")
    assert text.index("round 1") < text.index("round 0")
    assert "Old event." not in text  # a seated table's log, not the game's last events


def test_a_lobby_speaks_of_seats_not_of_votes() -> None:
    """A new table's lobby has one seat taken: its pages do not describe the channel's
    votes of the one-seat games (only the seated player to act moves, C2)."""
    game = _table(1)
    text = _text(detail_embeds(SteamCog(None), game))
    assert "Ways to play" not in text and "channel votes" not in text
