"""Computer players resumed after a restart: only the running games with a computer
player or an away seat are read, not every open seated game (bot/boards/computers.py)."""

import json

import pytest

from db.rows import NewGame
from db.store import Store
from tests.support import Clock, button, host_board, make_bot

COPIES = 200


async def test_resume_reads_only_games_a_computer_may_play(discord_driver, fake_discord,
                                                           tmp_path):
    """200 running tables of two people and one whose person to act is away: the resume
    after a restart reads that one game only, and its away seat moves."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = await host_board(discord_driver, board, "lobby.start")
    template = await bot.tables.open_in_channel(fake_discord.channel_id)
    cols = [r[1] for r in await bot.store.connection.execute_fetchall("PRAGMA table_info(games)")]
    other = [c for c in cols if c not in ("id", "channel_id")]
    await bot.store.connection.execute(
        f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
        f"INSERT INTO games (channel_id, {', '.join(other)}) "
        f"SELECT 1000000 + i, {', '.join(other)} FROM n, games WHERE games.id = ?",
        (COPIES, template.id))
    await bot.store.connection.commit()
    bot = await discord_driver.restart(make_bot(tmp_path))
    if bot.restart._redraw is not None:  # the start's board edits read games too: not counted
        await bot.restart._redraw
    newest = (await bot.store.connection.execute_fetchall("SELECT max(id) FROM games"))[0][0]
    game = await bot.tables.load(newest)
    seats = game.row.seats
    seats[0]["away"] = True  # Alice's seat, to act, is played by a computer now
    await bot.store.connection.execute(
        "UPDATE games SET seats = ?, updated_at = updated_at + 1 WHERE id = ?",
        (json.dumps(seats), newest))
    await bot.store.connection.commit()
    bot.store.kept.drop()
    read = []
    load = bot.tables.load

    async def counted(game_id, *args, **kwargs):
        read.append(game_id)
        return await load(game_id, *args, **kwargs)

    bot.tables.load = counted  # type: ignore[method-assign]
    assert await bot.boards.resume_computers() == 1
    assert read == [newest]
    bot.tables.load = load  # type: ignore[method-assign]
    await discord_driver.settle()
    assert (await bot.tables.load(newest)).row.version > game.row.version


@pytest.mark.parametrize("damaged", ['[{"user_id": 1, "computer": true', '"true"'],
                         ids=["not-json", "json-text"])
async def test_computer_seated_ids_on_both_backends(tmp_path, backend, damaged):
    """The games picked: running, several seats, a computer player or an away seat among
    them; a damaged row's seats count as none and do not fail the query."""
    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        def person(i, **extra):
            return {"user_id": 100 + i, "name": f"P{i}", "computer": False, **extra}

        computer = {"user_id": None, "name": "Ada", "computer": True, "level": "easy"}
        kinds = {
            "people": [person(0), person(1)],
            "computer": [person(0), computer],
            "away": [person(0), person(1, away=True)],
            "solo": [computer],
            "lobby": [person(0), computer],
            "damaged": [person(0), computer],
        }
        ids = {}
        for channel, (name, seats) in enumerate(kinds.items(), start=1):
            clock.advance(1)
            game = await store.create_game(NewGame(
                guild_id=1, channel_id=channel, kind="toy",
                status="lobby" if name == "lobby" else "active", starter_id=7, seats=seats,
                options={}, only_starter=False, state={"count": 0}, events=[]))
            ids[name] = game.id
        await store.connection.execute("UPDATE games SET seats = ? WHERE id = ?",
                                       (damaged, ids["damaged"]))
        # newest change first
        assert await store.computer_seated_ids() == [ids["away"], ids["computer"]]
    finally:
        await store.close()


async def test_computer_players_that_die_are_restarted_up_to_a_budget_an_hour(monkeypatch):
    """A hundred restarts an hour at most (an error that kills every computer player does
    not restart them for ever), but a bot running for months keeps restarting them: the
    budget comes back after the hour."""
    from bot.boards import computers

    now = [1000.0]
    monkeypatch.setattr(computers.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(computers, "COMPUTER_RETRY_SECONDS", 3600.0)  # none wakes here
    players = computers.ComputerPlayers(None, 0.0, None)  # type: ignore[arg-type]
    for game_id in range(computers.COMPUTER_RESTARTS + 5):
        players._restart(game_id)
    assert len(players._background) == computers.COMPUTER_RESTARTS
    now[0] += 3601
    players._restart(0)
    assert len(players._background) == computers.COMPUTER_RESTARTS + 1
    for task in players._background:
        task.cancel()
