"""A command whose change is saved says so, whatever fails after the save: its answer
refused by Discord, a read after it failing, or a game of a kind this bot no longer has.
Nothing that happened is reported as "nothing was changed", and what follows the save
(the board's edit, a computer's move) is still done."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.steam.engine import ENGINE
from db.errors import StorageError
from tests.fake_discord import payloads
from tests.support import button, make_bot, press, seated_steam

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")


def _fail_once(monkeypatch: pytest.MonkeyPatch, store: Any, name: str) -> None:
    """Make ``store.<name>`` raise StorageError on its next call only."""
    original = getattr(store, name)
    calls = [0]

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise StorageError("database is locked")
        return await original(*args, **kwargs)

    monkeypatch.setattr(store, name, flaky)


async def _bobs_turn(driver: Any, fake: Any, tmp_path: Any) -> tuple[Any, Any]:
    """A Steam table of Alice, Bob and Carol, played on until it is Bob's turn."""
    bot, game = await seated_steam(driver, fake, tmp_path)
    while game.to_act() == 0:
        board = fake.get_message(game.row.board_message_id)
        await press(driver, board, ENGINE.computer_action(game.state, 0), "alice")
        await driver.settle()
        game = await bot.tables.open_in_channel(fake.channel_id)
    return bot, game


@pytest.mark.parametrize("lost", [False, True], ids=["answered", "answer-refused"])
async def test_away_hands_the_seat_on_though_its_answer_is_refused(
        discord_driver, fake_discord, tmp_path, lost):
    """C6: the vote that hands Bob's seat to a computer is saved; Discord refusing the
    command's answer (its token gone) does not stop the computer playing his turn."""
    bot, game = await _bobs_turn(discord_driver, fake_discord, tmp_path)
    bob = fake_discord.user("bob")
    await discord_driver.slash("steam", "away", {"player": bob}, user="alice")
    if lost:
        fake_discord.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 404, 10062)
    await discord_driver.slash("steam", "away", {"player": bob}, user="carol")
    await discord_driver.settle()
    after = await bot.tables.load(game.id)
    assert after.seats[1].away and after.to_act() != 1


async def test_settings_changed_say_so_when_the_read_after_fails(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """/tablehouse settings threads:on is stored; the read of the server's choices that
    followed failing no longer tells the admin "nothing was changed": the answer shows
    the settings as stored."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.server",)))
    fake_discord.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS
                          | payloads.MANAGE_GUILD)
    _fail_once(monkeypatch, bot.store, "server_settings")
    said = await discord_driver.slash("tablehouse", "settings", {"threads": "on"},
                                      user="admin")
    monkeypatch.undo()
    assert (await bot.store.server_settings(fake_discord.guild_id)).get("threads") is True
    assert said.ephemeral and not said.content
    (embed,) = said.message["embeds"]
    assert embed["title"] == "Server settings saved"
    assert "Each game in its own thread: on\n" in embed["description"]


async def test_a_board_posted_again_is_not_denied_by_a_failed_read(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """/tinker board posts the board; the read that looks for a move made meanwhile
    failing adds no "nothing was changed" after it."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    send_board = bot.boards.messages.send_board
    bot.store.kept.drop()

    async def posted(*args: Any, **kwargs: Any) -> Any:
        sent = await send_board(*args, **kwargs)
        _fail_once(monkeypatch, bot.store, "get_game")  # the read after the board is posted
        return sent

    monkeypatch.setattr(bot.boards.messages, "send_board", posted)
    result = await discord_driver.slash("tinker", "board", user="alice")
    assert result.message["components"]
    texts = [m.get("content") or "" for m in result.followups]
    assert not any("nothing was changed" in t for t in texts), texts


async def test_the_invite_menu_refuses_clearly_while_storage_fails(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Apps → Invite to Steam to Solar while the database is locked: the private "could
    not reach its game storage" every command gives."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    fake_discord.add_user("erin")
    real = bot.store.query

    async def locked(sql: str, *args: Any, **kwargs: Any) -> Any:
        if "starter_id" in sql:  # the member's own lobbies (the sweeps read on)
            raise StorageError("database is locked")
        return await real(sql, *args, **kwargs)

    monkeypatch.setattr(bot.store, "query", locked)
    result = await discord_driver.user_command("Invite to Steam to Solar", "erin",
                                               user="alice")
    assert result.ephemeral and "game storage" in result.content, result.content


async def test_an_invitation_posted_is_not_denied(discord_driver, fake_discord, tmp_path):
    """The invitation is posted but Discord does not give it back: Alice is not told
    "nothing was changed" (it stands, though it is no longer deleted with the lobby)."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    fake_discord.add_user("erin")
    await discord_driver.slash("steam", "new", user="alice")
    fake_discord.fail_next("GET", r"/webhooks/\d+/[^/]+/messages/@original", 404, 10015)
    result = await discord_driver.user_command("Invite to Steam to Solar", "erin",
                                               user="alice")
    assert "invites you" in (result.message.get("content") or "")
    texts = [m.get("content") or "" for m in result.followups]
    assert not any("nothing was changed" in t for t in texts), texts


def _with_id(fake: Any, board: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """A click of the board's "Rules & details" button given another custom id."""
    payload = fake.component_payload(board, button(board, "table.rules"))
    old = payload["data"]["custom_id"]
    payload["data"]["custom_id"] = custom_id
    for row in payload["message"]["components"]:
        for item in row["components"]:
            if item.get("custom_id") == old:
                item["custom_id"] = custom_id
    return payload


@pytest.mark.parametrize("action", ["table.rules", "table.rules.icons.0"])
async def test_details_of_a_game_of_a_kind_gone_say_it_is_damaged(
        discord_driver, fake_discord, tmp_path, action):
    """A game of a kind this bot no longer has: its "Rules & details" (and a page of
    them) say the game is damaged and how to end it, naming a command that exists."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        "UPDATE games SET kind = 'chess', updated_at = updated_at + 1 WHERE id = ?",
        (game.id,))
    bot.store.kept.drop()
    board = fake_discord.get_message(game.row.board_message_id)
    custom_id = button(board, "table.rules").replace("table.rules", action)
    shown = await discord_driver.feed(_with_id(fake_discord, board, custom_id))
    assert shown.ephemeral and "damaged" in shown.content, shown.content
    assert "/chess" not in shown.content and "abandon command of any game" in shown.content


async def test_a_command_answer_refused_for_a_while_is_no_fault_of_the_bot(
        discord_driver, fake_discord, tmp_path, caplog):
    """/stats whose answer Discord refuses (the interaction's token gone): a warning,
    not an error (the test would fail on one)."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.records",)))
    fake_discord.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 404, 10062)
    await discord_driver.slash("stats", user="alice")
    said = [r.getMessage() for r in caplog.records if r.name == "bot.command_tree"]
    assert any(m.startswith("could not answer command stats") for m in said), said


def test_what_counts_as_discord_failing_for_a_while():
    """A rate limit, Discord's own trouble and the connection (reset, timed out) pass; a
    request Discord can never take, a channel gone or a permission missing does not."""
    from types import SimpleNamespace

    import aiohttp
    import discord

    from bot.boards.send_errors import passing_failure

    def http(status: int) -> discord.HTTPException:
        return discord.HTTPException(SimpleNamespace(status=status, reason="x"), "x")

    for passing in (http(429), http(500), http(503), ConnectionResetError(), TimeoutError(),
                    aiohttp.ClientConnectionError()):
        assert passing_failure(passing), passing
    for lasting in (http(400), http(403), http(404), ValueError("bad")):
        assert not passing_failure(lasting), lasting
