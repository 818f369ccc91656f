"""Away players and the turn they hold (C2, C6), at the table's level.

A computer plays an away person's seat only while some person plays for themselves: when
the last of them resigns during the away person's turn, the table waits for that person
and tells them so. A person reminded once in a turn is not reminded again in it when
another player comes back. An away person using a command only people playing may use
is told how to play their seat again, and a resigned player is told whose turn it is.
"""

from __future__ import annotations

import pytest

from bot.boards.presence import back_text
from bot.boards.render import picture_view
from bot.table.errors import NotAllowed
from bot.table.lobby import LOBBY_COMPUTER, LOBBY_JOIN, LOBBY_START
from bot.table.seating import AWAY_REFUSAL
from bot.table.service import Tables
from cogs.base import seat_list
from cogs.steam_words import AWAY_MARK, position, status
from tests.support import ALICE, BOB, CAROL, Actor, Clock, open_tables

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")

CHANNEL = 5


async def _table(tables: Tables, people: tuple[Actor, ...], computers: int = 0,
                 turn_seconds: int = 0) -> int:
    """Open and start a Steam to Solar table hosted by Alice (seat 0 plays first);
    return the game's id."""
    game = await tables.open_lobby("steam", guild_id=1, channel_id=CHANNEL, host=ALICE,
                                   options={"start_seat": 0}, turn_seconds=turn_seconds)
    version = game.row.version
    for person in people:
        version = (await tables.act(game.id, version, person, LOBBY_JOIN)).game.row.version
    for _ in range(computers):
        version = (await tables.act(game.id, version, ALICE, LOBBY_COMPUTER)).game.row.version
    await tables.act(game.id, version, ALICE, LOBBY_START)
    return game.id


async def test_c6_the_last_person_playing_resigns_in_an_away_turn(tmp_path) -> None:
    """Alice is away (a computer plays her turn); Bob resigns out of turn, from a
    confirmation opened earlier: nobody plays for themselves, so the table waits for
    Alice, pings her, and the board no longer marks her seat as played by a computer."""
    async with open_tables(tmp_path / "t.db") as tables:
        game_id = await _table(tables, (BOB,), computers=1)
        await tables.hand_to_computer(CHANNEL, BOB, ALICE.user_id)
        game = await tables.load(game_id)
        assert game.to_act() == 0 and game.computer_to_act() and game.shown_away(0)
        assert status(game, game.view()).startswith(f"🚂 **Alice** to play{AWAY_MARK}")
        assert "💤" in seat_list(game) and picture_view(game)["players"][0]["away"] is True
        play = await tables.act(game_id, game.row.version, BOB, "resign")
        game = await tables.load(game_id)
        assert game.row.status == "active" and not game.computer_to_act()
        assert game.person_to_act() == ALICE.user_id
        told = play.notice or (game.data.notice_due and (game.data.notice_due.user,
                                                         game.data.notice_due.text))
        assert told == (ALICE.user_id, f"<@{ALICE.user_id}>, it is your turn at Steam to "
                        "Solar: no one else is playing, so the table waits for you.")
        assert play.events[-1] == "No one else is playing, so the table waits for Alice."
        head = status(game, game.view()).split("\n")[0]
        assert head == "🚂 **Alice** to play"
        # marked away nowhere: the legend's 💤 says a computer plays the seat
        assert not game.shown_away(0) and game.seats[0].away
        assert not any("💤" in line for line in position(game, game.view()))
        assert "💤" not in seat_list(game)
        assert picture_view(game)["players"][0]["away"] is False


async def test_c6_an_out_of_turn_resign_leaves_a_computer_played_turn_alone(tmp_path) -> None:
    """The same resignation with another person still playing: the computer goes on
    playing Alice's turn and nobody is pinged (a guard beside the fix)."""
    async with open_tables(tmp_path / "t.db") as tables:
        game_id = await _table(tables, (BOB, CAROL))
        await tables.hand_to_computer(CHANNEL, BOB, ALICE.user_id)
        await tables.hand_to_computer(CHANNEL, CAROL, ALICE.user_id)
        game = await tables.load(game_id)
        assert game.seats[0].away and game.computer_to_act()
        play = await tables.act(game_id, game.row.version, BOB, "resign")
        game = await tables.load(game_id)
        assert game.computer_to_act() and play.notice is None
        assert game.data.notice_due is None


async def test_c6_a_return_does_not_remind_a_reminded_player_again(tmp_path) -> None:
    """Bob is away and Alice plays alone: her timer runs out (one reminder), then again
    (the table waits for her, the timer stops). Bob comes back in the same turn: the
    timer runs again without a second reminder, and when it runs out a computer plays
    Alice's seat."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables, (BOB,), turn_seconds=120)
        await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        reminders = []
        for _ in range(2):
            clock.advance(121)
            play = await tables.fire_timer(game_id)
            if play is not None and play.reminder:
                reminders.append(play)  # posted, as the boards then store:
                await tables.remember_notice(game_id, None, seen_to=ALICE.user_id)
        game = await tables.load(game_id)
        assert len(reminders) == 1 and game.data.timer is None and game.to_act() == 0
        await tables.come_back(game_id, BOB)
        game = await tables.load(game_id)
        assert game.data.timer is not None and game.data.timer.strikes == 1
        clock.advance(121)
        play = await tables.fire_timer(game_id)
        assert play is not None and not play.reminder
        game = await tables.load(game_id)
        assert game.seats[0].away and game.computer_to_act()


async def test_c6_a_return_on_ones_own_turn_starts_a_fresh_timer(tmp_path) -> None:
    """Alice comes back on her own turn, which a computer held untimed: her timer starts
    fresh, with its reminder still to come (a guard beside the fix)."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables, (BOB,), turn_seconds=120)
        await tables.hand_to_computer(CHANNEL, BOB, ALICE.user_id)
        game = await tables.load(game_id)
        assert game.to_act() == 0 and game.data.timer is None
        await tables.come_back(game_id, ALICE)
        game = await tables.load(game_id)
        assert game.data.timer is not None and game.data.timer.strikes == 0
        assert game.data.timer.at == pytest.approx(clock() + 120, abs=0.01)


async def test_c6_an_away_person_is_told_how_to_play_again(tmp_path) -> None:
    """An away Bob asking to abandon the table or to hand Carol's seat on is told he is
    marked away and how to play his seat again."""
    async with open_tables(tmp_path / "t.db") as tables:
        await _table(tables, (BOB, CAROL))
        await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        await tables.hand_to_computer(CHANNEL, CAROL, BOB.user_id)
        with pytest.raises(NotAllowed) as abandon:
            await tables.may_abandon(CHANNEL, BOB)
        with pytest.raises(NotAllowed) as hand_on:
            await tables.hand_to_computer(CHANNEL, BOB, CAROL.user_id)
        assert str(abandon.value) == str(hand_on.value) == AWAY_REFUSAL


async def test_c2_a_resigned_player_is_told_whose_turn_it_is(tmp_path) -> None:
    """Bob resigned; a game button he presses is refused, naming whose turn it is."""
    async with open_tables(tmp_path / "t.db") as tables:
        game_id = await _table(tables, (BOB, CAROL))
        game = await tables.load(game_id)
        await tables.act(game_id, game.row.version, BOB, "resign")
        game = await tables.load(game_id)
        with pytest.raises(NotAllowed) as refused:
            await tables.act(game_id, game.row.version, BOB, game.legal_actions(0)[0].id)
        assert str(refused.value) == ("You resigned from this game, so you cannot act in "
                                      "it. It is Alice's turn.")


async def test_c6_the_welcome_back_says_your_turn_to_the_one_whose_turn_it_is(
        tmp_path) -> None:
    """Alice comes back by a click that moved nothing on her own turn: she is told it is
    her turn, not "Alice's turn"; anyone else is told whose turn it is."""
    async with open_tables(tmp_path / "t.db") as tables:
        game_id = await _table(tables, (BOB,))
        await tables.hand_to_computer(CHANNEL, BOB, ALICE.user_id)
        play = await tables.come_back(game_id, ALICE)
        assert play is not None
        assert back_text(play.game, ALICE.user_id) == (
            "Welcome back: you play your own seat again. It is your turn now.")
        assert back_text(play.game, BOB.user_id).endswith("It is Alice's turn now.")


async def _play_turn(tables: Tables, game_id: int, people: tuple[Actor, ...]) -> None:
    """Play out the current turn as its seat's person (or computer) would."""
    game = await tables.load(game_id)
    seat = game.to_act()
    while game.to_act() == seat and game.row.status == "active":
        if game.computer_to_act():
            await tables.computer_move(game_id)
        else:
            await tables.act(game_id, game.row.version, people[seat],
                             game.engine.computer_action(game.state, seat))
        game = await tables.load(game_id)


async def test_c6_an_ask_to_hand_a_seat_on_ends_when_the_timer_hands_it_on(
        tmp_path) -> None:
    """Four people, a turn timer: Bob asks to hand Alice's seat on (1 of 2 needed); her
    timer hands it on; she comes back (she opens the rules). In a later turn of hers,
    Carol's single ask is again 1 of 2, not a majority made with Bob's old ask."""
    dave = Actor(104, "Dave")
    people = (ALICE, BOB, CAROL, dave)
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables, (BOB, CAROL, dave), turn_seconds=120)
        play = await tables.hand_to_computer(CHANNEL, BOB, ALICE.user_id)
        assert "1 of 2" in play.events[0]
        for wait in (120, 121):  # reminded, then handed on
            clock.advance(wait)
            await tables.fire_deadline(game_id)
            await tables.remember_notice(game_id, None, seen_to=ALICE.user_id)
        assert (await tables.load(game_id)).seats[0].away
        await _play_turn(tables, game_id, people)  # a computer plays her turn
        back = await tables.come_back(game_id, ALICE)
        assert back is not None and not back.game.seats[0].away
        while (await tables.load(game_id)).to_act() != 0:
            await _play_turn(tables, game_id, people)
        play = await tables.hand_to_computer(CHANNEL, CAROL, ALICE.user_id)
        assert "1 of 2" in play.events[0], play.events


async def test_c6_reading_the_rules_never_brings_the_notice_next_to_the_reminder(
        tmp_path) -> None:
    """A server's notices wait 60 s, the turn timer is 2 minutes: Alice opens the rules
    at 59 s, which would move her notice to 119 s, a second before the timer's
    reminder. The notice goes instead: she is pinged once, by the reminder."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        tables.notice_grace = lambda _guild: 60.0
        game_id = await _table(tables, (BOB, CAROL), turn_seconds=120)
        clock.advance(59)
        assert await tables.looking(game_id, ALICE)
        pings = []
        for wait in (60, 1):  # to 119 s, then 120 s
            clock.advance(wait)
            play = await tables.fire_deadline(game_id)
            if play is not None and play.notice:
                pings.append(play.notice[1])
        assert len(pings) == 1 and pings[0].startswith("⏰"), pings
