"""A game command used where the channel's game is of another kind, or of a kind this bot
no longer has: the reply names that game in words and points to a command that works."""

from __future__ import annotations

from db.errors import ChannelBusy
from tests.support import button, make_bot


async def test_board_of_another_kind_names_the_channels_game(discord_driver, fake_discord,
                                                            tmp_path):
    """/tinker board where a Steam table is open points to /steam board, not to
    /tinker start (which the busy channel would refuse)."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker", "cogs.steam")))
    await discord_driver.slash("steam", "new", user="alice")
    hint = await discord_driver.slash("tinker", "board", user="bob")
    assert hint.ephemeral and hint.content == (
        "This channel's game is Steam to Solar, not Tinker, Sailor, Soldier, Spy: "
        "/steam board shows it.")


async def test_abandon_of_another_kind_points_to_the_channels_abandon(
        discord_driver, fake_discord, tmp_path):
    """/tinrealm abandon or /steam abandon where a Tinker game is open points to /tinker
    abandon, the command that does what was asked; /steam away, which Tinker has not, to
    /tinker board."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker", "cogs.tinrealm",
                                                        "cogs.steam")))
    await discord_driver.slash("tinker", "start", user="alice")
    for kind, title in (("tinrealm", "Tin Realm"), ("steam", "Steam to Solar")):
        said = await discord_driver.slash(kind, "abandon", user="alice")
        assert said.ephemeral and said.content == (
            f"This channel's game is Tinker, Sailor, Soldier, Spy, not {title}: "
            "/tinker abandon is the one for it."), said.content
    away = await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                                      user="alice")
    assert away.content.endswith("/tinker board shows it."), away.content


async def test_a_kind_no_longer_on_the_bot_reads_as_a_name(discord_driver, fake_discord,
                                                           tmp_path):
    """A game whose kind was removed from the bot is named by its kind in the busy
    channel's refusal (no command of it is offered) and in the abandon question."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker", "cogs.tinrealm")))
    await discord_driver.slash("tinker", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    fake_discord.delete_message(fake_discord.channel_id, game.row.board_message_id)
    await bot.store.connection.execute(
        "UPDATE games SET kind = 'chess', board_message_id = NULL, "
        "updated_at = updated_at + 1 WHERE id = ?", (game.id,))
    bot.store.kept.drop()
    busy = await discord_driver.slash("tinrealm", "start", user="bob")
    assert busy.content.startswith(
        "This channel already has a game of chess (no longer on this bot) going. Finish")
    asked = await discord_driver.slash("tinker", "abandon", user="alice")
    assert asked.content.startswith("Abandon this chess (no longer on this bot) game?")


async def test_a_game_of_this_kind_in_a_thread_is_pointed_to_first(discord_driver,
                                                                  fake_discord, tmp_path):
    """A Tin Realm journey in a thread of its own, a Tinker game in the channel itself:
    /tinrealm board in the channel points to the journey's thread."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker", "cogs.tinrealm")))
    await discord_driver.slash("tinrealm", "start", {"thread": "yes"}, user="alice")
    (thread,) = fake_discord.threads_under()
    await discord_driver.slash("tinker", "start", user="bob")
    answer = await discord_driver.slash("tinrealm", "board", user="alice")
    assert answer.ephemeral and f"<#{thread['id']}>" in answer.content
    assert "Tinker" not in answer.content


async def test_a_game_that_ends_as_another_starts_is_said_to_have_ended(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The channel's lobby of two is closed in the moment between a new start's insert
    (refused: the channel had an open game) and its read of that game: the starter is
    told it ended just then, to start again (not a failure, nor "already has a game")."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    await discord_driver.click(board, button(board, "lobby.join"), user="bob")
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        "UPDATE games SET status = 'abandoned', updated_at = updated_at + 1 WHERE id = ?",
        (lobby.id,))
    bot.store.kept.drop()

    async def busy(*_args, **_kwargs):
        raise ChannelBusy(lobby.id)

    monkeypatch.setattr(bot.store, "create_game", busy)
    said = await discord_driver.slash("steam", "new", user="alice")
    assert said.ephemeral and said.content == (
        "The game in this channel ended just as you started yours: start it again.")
