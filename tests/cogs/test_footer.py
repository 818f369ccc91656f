"""A board's footer: a line a turn since the player's own last turn, the table's events
whole, computer play for an away seat marked (ruling C6)."""

from __future__ import annotations

import copy
from dataclasses import replace

from bot.games.steam.engine import ENGINE as STEAM
from bot.games.tinker.engine import ENGINE as TINKER
from bot.table import turnlog
from bot.table.data import Poll, TurnLog, Vote
from bot.text.widths import clip_words, rows, shown_width
from cogs.footer import CHANNEL_VOTES, FOOTER_WIDTH, ONLY_STARTER, last_moves, turn_lines
from cogs.steam import SteamCog
from tests.cogs.test_steam_table import _play_turn, _table
from tests.support import ALICE, Clock, loaded, open_tables

TIMER = ("Bob's turn timer ran out twice: a computer plays their seat until they click "
         "again.")
FINAL = ("The river cannot be refilled: final round. Everyone takes one more turn, ending "
         "with Alice.")


def _steam_game(seats: int = 3):
    """A Steam table of ``seats`` named Alice, Bob, Carol, ... with an empty log."""
    game = loaded(STEAM, STEAM.new(1, seats, {"start_seat": 0}), seats=seats, events=[])
    names = ("Alice", "Bob", "Carol", "Dan", "Eve")
    game.seats = [replace(seat, name=name, computer=False)
                  for seat, name in zip(game.seats, names, strict=False)]
    return game


def test_clip_words_cuts_at_a_word_and_marks_it():
    """A long line is cut at the end of a word, never inside one, and ends with "…"."""
    text = "Bob takes Mill 🌊🍃 and Chance Meeting 🌙🪢 (pay 1) · puts Mill on train 2"
    cut = clip_words(text, FOOTER_WIDTH)
    assert shown_width(cut) <= FOOTER_WIDTH and cut.endswith("…")
    assert text.startswith(cut[:-1]) and text[len(cut) - 1] in " ·"


def test_one_line_a_turn_since_the_players_own_last_turn():
    """At a seated table the footer shows each other player's turn since the player to act
    last moved, one line each, the player's name said once."""
    game = _steam_game()
    data = game.data
    turnlog.note_move(data, 0, ["Alice takes Mill 🌊🍃 and Forest 🌙🍃 (free)."], ended=False)
    turnlog.note_move(data, 0, ["Alice puts Mill 🌊🍃 on a new train.",
                                "Alice puts Forest 🌙🍃 on train 1."], ended=True)
    turnlog.note_move(data, 1, ["Bob runs train 1 on steam 🌊, ships Market 🍃🪢 and "
                                "scores 2."], ended=True)
    turnlog.note_move(data, 2, ["Carol takes Sailor."], ended=False)
    turnlog.note_move(data, 2, ["Carol arranges their trains."], ended=True)
    game.state = STEAM.new(1, 3, {"start_seat": 0})  # Alice to act again
    lines = last_moves(game).split("\n")
    assert len(lines) == 2
    assert lines[0].startswith("Bob runs train 1") and lines[1].startswith("Carol takes")
    assert lines[1] == "Carol takes Sailor · arranges their trains"
    assert all(shown_width(line) <= FOOTER_WIDTH for line in lines)
    assert all(not line.endswith("…") or line[-2] != " " for line in lines)


def test_c6_table_events_and_announcements_are_never_cut():
    """C6: the timer running out and the final round stand whole on their own lines."""
    game = _steam_game(2)
    turnlog.note_move(game.data, 0, ["Alice takes Mill 🌊🍃 and Forest 🌙🍃 (free).", FINAL],
                      ended=False)
    turnlog.note_table(game.data, [TIMER])
    footer = SteamCog(None).embed(game).footer.text or ""
    assert TIMER in footer.split("\n") and FINAL in footer.split("\n")


def test_c6_computer_moves_for_an_away_player_are_marked():
    """C6: a move a computer made for away Bob reads "🤖 for Bob", in the events too."""
    events = turnlog.for_away("Bob", ("Bob takes Mill 🌊🍃 and Forest 🌙🍃 (free).",
                                      "Journey 🌙🌊 is burnt for steam."))
    assert events[0] == "🤖 for Bob: takes Mill 🌊🍃 and Forest 🌙🍃 (free)."
    assert events[1] == "Journey 🌙🌊 is burnt for steam."
    game = _steam_game(2)
    turnlog.note_move(game.data, 1, events, ended=True, by_computer=True)
    assert last_moves(game).startswith("🤖 for Bob: takes Mill")


def test_a_one_seat_game_shows_its_last_decisions():
    """A fast game's footer shows its last two decisions, a line each."""
    game = loaded(TINKER, TINKER.new(3), events=[])
    game.data.mode = "fast"
    for n in range(3):
        turnlog.note_move(game.data, 0, [f"Alice chose: move {n}.", "Played Savage 3: 3 / 9"],
                          ended=True)
    lines = last_moves(game).split("\n")
    assert lines == ["Alice chose: move 1 · Played Savage 3: 3 / 9",
                     "Alice chose: move 2 · Played Savage 3: 3 / 9"]


def test_a_game_with_no_log_shows_its_last_event_cut_at_a_word():
    """Rows saved before the log existed show their last event, cut at a word."""
    game = loaded(TINKER, TINKER.new(3), events=[TIMER])
    game.data.mode = "fast"
    footer = last_moves(game)
    assert footer.endswith("…") and TIMER.startswith(footer[:-1].rstrip())
    assert shown_width(footer) <= FOOTER_WIDTH


async def test_c6_board_marks_the_computer_moves_for_an_away_seat(
    discord_driver, fake_discord, tmp_path
):
    """C6 through the offline Discord: after Alice's timer ran out twice, the board says
    so in full, and the computer's moves for her read "🤖 for Alice"."""
    clock = Clock()
    bot, _board = await _table(discord_driver, fake_discord, tmp_path, clock=clock,
                               options={"turn_timer": "2 min"})
    for _ in range(2):
        clock.advance(121)
        assert await bot.deadlines.run_due() == 1
        await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    while game.to_act() != 1:
        await discord_driver.settle()
        game = await bot.tables.load(game.id)
    board = fake_discord.get_message(game.row.board_message_id)
    footer = board["embeds"][0]["footer"]["text"]
    lines = footer.split("\n")
    assert any(line.startswith("Alice's turn timer ran out twice") and line.endswith("again.")
               for line in lines), footer
    assert any(line.startswith("🤖 for Alice: ") for line in lines), footer
    assert any(e.startswith("🤖 for Alice: ") for e in game.row.events)
    await _play_turn(discord_driver, fake_discord, bot, {0: "alice", 1: "bob"})
    game = await bot.tables.load(game.id)
    assert copy.deepcopy(game.data.turns)[-1].seat in (0, 1)


async def test_a_one_seat_game_played_at_the_table_shows_its_latest_decisions(
        tmp_path) -> None:
    """Through the table itself, each move of a one-seat game is a decision of its own:
    the footer shows the latest (and the one before when the latest takes one line),
    not the game's first kept in one turn."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = (await tables.start("tinker", guild_id=1, channel_id=5, starter=ALICE,
                                   mode="fast"))
        labels = []
        for version in range(5):
            action = game.legal_actions(0)[-1]
            labels.append(action.label)
            game = (await tables.act(game.id, version, ALICE, action.id)).game
        lines = last_moves(game).split("\n")
        assert labels[-1][:12] in lines[-1], (labels, lines)
        assert len(lines) == 2 or rows(lines[0], FOOTER_WIDTH) == 2, lines
        if len(lines) == 2:
            assert labels[-2][:12] in lines[0], (labels, lines)
        # a turn a decision, only those the footer shows kept
        assert len(game.data.turns) == turnlog.KEPT_DECISIONS == 2
        assert all(turn.ended and turn.seat == 0 for turn in game.data.turns)
        assert [turn.events[0] for turn in game.data.turns] == [
            f"Alice chose: {label}." for label in labels[-2:]]


async def test_a_solo_log_from_before_starts_a_new_turn_at_the_next_move(tmp_path) -> None:
    """A one-seat game saved when its moves shared one open turn: the next move is a
    decision of its own, so the footer shows it at once."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("tinker", guild_id=1, channel_id=5, starter=ALICE,
                                  mode="fast")
        game = (await tables.act(game.id, 0, ALICE, game.legal_actions(0)[0].id)).game
        old = ["Alice chose: an old move.", "Played Savage 3: 3 / 9"]
        game.data.turns = [TurnLog(0, list(old), ended=False)]
        await tables.core.save_table(game)
        action = game.legal_actions(0)[-1]
        game = (await tables.act(game.id, 1, ALICE, action.id)).game
        assert [turn.events[:1] for turn in game.data.turns] == [
            old[:1], [f"Alice chose: {action.label}."]]
        assert last_moves(game).split("\n")[-1].startswith("Alice chose: ")
        assert action.label[:10] in last_moves(game).split("\n")[-1]


def test_a_long_turn_marks_the_events_it_leaves_out():
    """A turn of more events than the log keeps keeps its first and latest ones and marks
    the gap between them, so the footer never reads as if one led to the next."""
    game = _steam_game()
    events = [f"Alice does thing {n}." for n in range(1, 12)]
    turnlog.note_move(game.data, 0, events, ended=True)
    kept = game.data.turns[-1].events
    assert len(kept) == turnlog.KEPT_EVENTS
    assert kept[0] == events[0] and kept[1] == turnlog.GAP
    assert kept[2:] == events[-(turnlog.KEPT_EVENTS - 2):]
    game.state = STEAM.new(1, 3, {"start_seat": 1})  # Bob to act: Alice's turn is shown
    footer = last_moves(game)
    assert footer.startswith("Alice does thing 1 · …")
    turnlog.note_move(game.data, 1, ["Bob does one thing."], ended=True)
    assert game.data.turns[-2].events.count(turnlog.GAP) == 1


def test_a_long_name_leaves_room_for_the_move_it_chose():
    """A player called "Maximilian Alexander Wolfenstein" chooses a people: the footer
    shortens the name, not the move, so the player reads what was chosen."""
    who = "Maximilian Alexander Wolfenstein"
    turn = TurnLog(0, [f"{who} chose: Stoneborn (health 6, energy 2, food 0)."], ended=True)
    [line] = turn_lines(turn, who, lambda _: False)
    assert line.startswith("Maximilian Alex") and "… chose: Stoneborn (health" in line
    assert shown_width(line) <= FOOTER_WIDTH
    voters = TurnLog(0, [f"{who} and Bob chose: Cinderfolk (2 votes to 1)."], ended=True)
    [line] = turn_lines(voters, "Table", lambda _: False)
    assert "… chose: Cinderfolk (2 votes" in line, line
    short = TurnLog(0, ["Alice chose: Stoneborn (health 6, energy 2, food 0)."], ended=True)
    assert turn_lines(short, "Alice", lambda _: False) == [
        "Alice chose: Stoneborn (health 6, energy 2, food 0)"]


def test_a_tie_names_the_move_whatever_the_first_voters_name():
    """A tie broken by the first vote of "Maximilian Alexander Wolfenstein": the footer
    shortens the name, so the players read which move happened."""
    who = "Maximilian Alexander Wolfenstein"
    turn = TurnLog(0, [f"Tie 2–2–1: {who} voted first, so Skip Howling Scree happened."],
                   ended=True)
    [line] = turn_lines(turn, "Table", lambda _: False)
    assert line.startswith("Tie 2–2–1: Max") and "… voted first, so Skip Howling" in line
    assert shown_width(line) <= FOOTER_WIDTH


def test_the_footer_gives_a_line_to_the_channels_vote():
    """While the channel votes on a one-seat game, the board shows the vote and its
    footer the latest decision only, so the board still fits a phone screen; between
    votes that line says the channel votes (C1), so a member arriving late knows a
    click is a vote before anyone has cast one."""
    game = loaded(TINKER, TINKER.new(3), events=[])
    assert game.data.mode == "vote"
    turnlog.note_move(game.data, 0, ["Alice chose: Stoneborn."], ended=True)
    turnlog.note_move(game.data, 0, ["Bob chose: Skip the market."], ended=True)
    assert last_moves(game).split("\n") == [CHANNEL_VOTES, "Bob chose: Skip the market"]
    game.data.poll = Poll(game.row.version, ballots=[Vote(7, "Carol", "go", "Go on", 0.0)])
    assert last_moves(game) == "Bob chose: Skip the market"


def test_c1_a_one_seat_board_says_who_may_press_it():
    """C1: an "only me" game's footer names the one player who may press its buttons
    (a long name cut so the line stays one phone line), a fast game's says nothing of
    it (any click moves, as the buttons look), and an ended game's says nothing."""
    game = loaded(TINKER, TINKER.new(3), events=["Alice started the game."])
    game.row.only_starter = True
    game.seats = [replace(game.seats[0], name="Alice")]
    assert last_moves(game).split("\n") == [ONLY_STARTER.format(name="Alice"),
                                             "Alice started the game."]
    turnlog.note_move(game.data, 0, ["Alice chose: Stoneborn."], ended=True)
    turnlog.note_move(game.data, 0, ["Alice chose: Skip the market."], ended=True)
    assert last_moves(game).split("\n") == [ONLY_STARTER.format(name="Alice"),
                                             "Alice chose: Skip the market"]
    long = "Maximilian Alexander von Wolfenstein-Habsburg"
    game.seats = [replace(game.seats[0], name=long)]
    who = last_moves(game).split("\n")[0]
    assert who.startswith("Only Maximilian") and "…" in who and who.endswith("this game.")
    assert rows(who, FOOTER_WIDTH) == 1
    game.row.only_starter = False
    game.data.mode = "fast"
    assert last_moves(game).split("\n") == ["Alice chose: Stoneborn",
                                             "Alice chose: Skip the market"]
    game.row.only_starter = True
    game.row.status = "over"
    assert ONLY_STARTER.format(name="")[:4] not in last_moves(game)


def test_a_long_seat_name_leaves_room_for_the_move_it_made():
    """A seated player called "Maximilian Alexander Wolfenstein" runs a train: the footer
    cuts the name, not the move, so the table reads what was done; a computer playing the
    seat of someone so named is cut the same way."""
    who = "Maximilian Alexander Wolfenstein"
    turn = TurnLog(0, [f"{who} runs train 1 on steam 🌊, ships Market 🍃🪢 and scores 2."],
                   ended=True)
    [line] = turn_lines(turn, who, lambda _: False)
    assert line.startswith("Maximilian Alex") and "… runs train 1 on steam" in line, line
    assert shown_width(line) <= FOOTER_WIDTH
    events = turnlog.for_away(who, (f"{who} takes Mill 🌊🍃 and Forest 🌙🍃 (free).",))
    away = TurnLog(0, list(events), ended=True, by_computer=True)
    [line] = turn_lines(away, who, lambda _: False)
    assert line.startswith("🤖 for Maximilian") and "…: takes Mill 🌊🍃" in line, line
    assert shown_width(line) <= FOOTER_WIDTH
    numbered = TurnLog(0, [f"{who} (2) takes Sailor."], ended=True)
    [line] = turn_lines(numbered, f"{who} (2)", lambda _: False)
    assert "… (2) takes Sailor" in line, line


def test_the_latest_decision_keeps_what_it_did_over_the_one_before() -> None:
    """A one-seat game's footer has two phone lines: a decision whose results need both
    (a strike: the roll, the damage, the foe's blow) takes them, so the board says what
    the dice did; a short one leaves the line above to the decision before. While the
    channel votes, it has one line."""
    game = loaded(TINKER, TINKER.new(3), events=[])
    game.data.mode = "fast"
    turnlog.note_move(game.data, 0, ["Alice chose: Skip the market."], ended=True)
    strike = ["Alice chose: Strike with 3 energy (+5).",
              "You roll 4 and 6: 15 damage.", "The Larder Goblin falls. +3 favor."]
    turnlog.note_move(game.data, 0, strike, ended=True)
    [line] = last_moves(game).split("\n")
    assert "You roll 4 and 6: 15 damage" in line and rows(line, FOOTER_WIDTH) == 2, line
    turnlog.note_move(game.data, 0, ["Bob chose: Rest."], ended=True)
    assert last_moves(game).split("\n")[1] == "Bob chose: Rest"
    game.data.poll = Poll(game.row.version, ballots=[Vote(7, "Carol", "go", "Go on", 0.0)])
    assert last_moves(game) == "Bob chose: Rest"


def test_a_cut_right_after_left_out_events_ends_in_one_mark() -> None:
    """A long turn's gap mark ("…") where the line is cut: one "…", not "· ……"."""
    events = ["Alice Wonderland chose: 🐉 +1, draws.", turnlog.GAP,
              *[f"Paid a 🐉 chip: {n} / 9, a long enough event to be cut here." for n in range(3)]]
    [line] = turn_lines(TurnLog(0, events, ended=True), "Alice Wonderland", lambda _: False)
    assert not line.endswith("……") and "· …" not in line, line


def test_a_long_name_in_a_line_the_table_says_is_cut_and_the_line_kept_whole() -> None:
    """A table-wide announcement stands whole on its own line, but a long player name in
    it is cut, so it stays within a line or two on a phone; a short name is left so."""
    from bot.text.widths import shown_width
    from cogs.footer import ANNOUNCED_NAME_ROOM, said_whole

    long = "🚂🚂 Captain Locomotive 🚂🚂 Junior"
    said = said_whole(f"The deck is out; {long} starts the second half.", [long, "Bob"])
    assert said.startswith("The deck is out; ") and said.endswith("… starts the second half.")
    cut = said.removeprefix("The deck is out; ").removesuffix(" starts the second half.")
    assert shown_width(cut) <= ANNOUNCED_NAME_ROOM
    assert said_whole("Bob starts the second half.", [long, "Bob"]) == (
        "Bob starts the second half.")
