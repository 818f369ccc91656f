"""The mark of a computer's move for an away seat (bot/table/turnlog.py ``for_away``):
only events that are the away player's own are marked "🤖 for NAME: …"; an event of
another seat whose name starts with the away name, or of a seat with the very same name,
is never claimed for the away seat."""

from __future__ import annotations

from bot.table.turnlog import for_away


def test_the_away_players_own_events_are_marked() -> None:
    """With Bob away next to Alice, Bob's events are marked; the table's are not."""
    events = for_away("Bob", ("Bob takes Mill 🌊🍃 and Forest 🌙🍃 (free).",
                              "Journey 🌙🌊 is burnt for steam."), ["Alice"])
    assert events == ("🤖 for Bob: takes Mill 🌊🍃 and Forest 🌙🍃 (free).",
                      "Journey 🌙🌊 is burnt for steam.")


def test_a_longer_name_starting_with_the_away_name_is_not_claimed() -> None:
    """With Sam away and Sam Lee seated, Sam Lee's event stays whole and Sam's are
    marked."""
    events = ("Sam runs train 1 on steam 🌊, ships Mill for 1 and scores 1.",
              "Sam Lee takes the Wave token stack of one.",
              "Sam takes the Wave token stack of two.")
    out = for_away("Sam", events, ["Sam Lee", "Alice"])
    assert out == ("🤖 for Sam: runs train 1 on steam 🌊, ships Mill for 1 and scores 1.",
                   "Sam Lee takes the Wave token stack of one.",
                   "🤖 for Sam: takes the Wave token stack of two.")


def test_the_away_seat_with_the_longer_name_is_still_marked() -> None:
    """With Sam Lee away and Sam seated, Sam Lee's events are marked whole."""
    out = for_away("Sam Lee", ("Sam Lee takes the Wave token stack of one.",
                               "Sam takes the Wave token stack of two."), ["Sam"])
    assert out == ("🤖 for Sam Lee: takes the Wave token stack of one.",
                   "Sam takes the Wave token stack of two.")


def test_two_seats_with_the_same_name_are_not_told_apart_so_nothing_is_claimed() -> None:
    """With two seats called Sam, an event led by "Sam" may be either's: none is marked."""
    events = ("Sam takes the Wave token stack of two.",
              "Sam takes the Wave token stack of one.",
              "The river runs dry.")
    assert for_away("Sam", events, ["Sam", "Alice"]) == events
