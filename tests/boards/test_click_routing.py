"""Board clicks are routed by the bot's ``on_interaction``, through real discord.py dispatch.

Every board component (``g1:`` buttons, ``s1:`` selects) is read from its custom_id and
handed to ``Boards.handle_click`` once, with no per-message state (so after a restart
too, sharded or not), without discord.py rebuilding the message as a ``View``; forged
ids and empty selects are refused privately; a failing click is logged and answered.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

from bot.boards.custom_ids import button_id, select_id
from bot.boards.layout import action_select, view_of
from bot.boards.routing import FAILED, NOT_VALID, NOTHING_CHOSEN, Click, read_click
from bot.client import ShardedTableBot, TableBot
from bot.games.protocol import Action
from tests.support import button, make_bot

SHARDING = pytest.mark.parametrize(
    "overrides", [{}, {"SHARD_COUNT": 2}], ids=["one process", "sharded"]
)


def _callbacks(result: Any) -> list[Any]:
    """The interaction callbacks the bot sent for ``result`` (Discord takes only one)."""
    marker = f"/interactions/{result.record.id}/"
    return [r for r in result.requests
            if r.path.startswith(marker) and r.path.endswith("/callback")]


def _select_board(fake: Any, game_id: int, version: int) -> dict[str, Any]:
    """A board of ``game_id`` at ``version`` drawn with a select (as the bot draws one)."""
    select = action_select(game_id, version, "add",
                           [Action("add1", "Add 1", "add"), Action("add2", "Add 2", "add")])
    components = view_of([select]).to_components()
    return fake.post_message({"content": "a board", "components": components})


def _forged(fake: Any, component: dict[str, Any]) -> dict[str, Any]:
    return fake.post_message({"content": "a board",
                              "components": [{"type": 1, "components": [component]}]})


class Spy:
    """Wraps a bot's ``boards.handle_click``: counts the calls, optionally fails them."""

    def __init__(self, bot: TableBot, fail: BaseException | None = None,
                 defer: bool = False) -> None:
        self.real = bot.boards.handle_click
        self.calls: list[tuple[int, int, str]] = []
        self.fail = fail
        self.defer = defer
        bot.boards.handle_click = self  # type: ignore[method-assign]

    async def __call__(self, interaction: discord.Interaction[Any], game_id: int, version: int,
                       action: str) -> None:
        self.calls.append((game_id, version, action))
        if self.defer:
            await interaction.response.defer()
        if self.fail is not None:
            raise self.fail
        await self.real(interaction, game_id, version, action)


# -- reading the custom_id ----------------------------------------------------------------


def test_read_click():
    """Board ids become clicks; other tags are not the boards'; bad ones get their answer."""
    assert read_click({"custom_id": button_id(5, 2, "add1"), "component_type": 2}) == Click(
        5, 2, "add1")
    select = select_id(5, 2, "add")
    assert read_click({"custom_id": select, "component_type": 3, "values": ["add2"]}) == Click(
        5, 2, "add2")
    assert read_click({"custom_id": select, "component_type": 3, "values": []}) == NOTHING_CHOSEN
    assert read_click({"custom_id": select, "component_type": 3}) == NOTHING_CHOSEN
    assert read_click({"custom_id": select, "component_type": 3, "values": ["add２"]}) == NOT_VALID
    assert read_click({"custom_id": select, "component_type": 3, "values": [7]}) == NOT_VALID
    assert read_click({"custom_id": "g1:01:2:add1", "component_type": 2}) == NOT_VALID
    assert read_click({"custom_id": "s1:", "component_type": 3, "values": ["a"]}) == NOT_VALID
    # A button's tag on a select (or the other way round) is never drawn.
    assert read_click({"custom_id": button_id(5, 2, "add1"), "component_type": 3,
                       "values": ["add1"]}) == NOT_VALID
    assert read_click({"custom_id": select, "component_type": 2}) == NOT_VALID
    for other in ("records:forget:1", "g2:1:0:add1", "G1:1:0:add1", "xg1:1:0:add1", ""):
        assert read_click({"custom_id": other, "component_type": 2}) is None
    assert read_click({}) is None


def test_both_bot_classes_route_board_clicks():
    """The sharded client routes clicks with the same handler; no board DynamicItem is left."""
    assert ShardedTableBot.on_interaction is TableBot.on_interaction
    assert issubclass(ShardedTableBot, discord.AutoShardedClient)


# -- through discord.py -------------------------------------------------------------------


@SHARDING
async def test_button_and_select_clicks_are_applied_after_a_restart(
    discord_driver, fake_discord, tmp_path, overrides
):
    """A new bot process (no state per message) applies a board's button and select."""
    bot = await discord_driver.login(make_bot(tmp_path, **overrides))
    started = await discord_driver.slash("toy", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    bot = await discord_driver.restart(make_bot(tmp_path, **overrides))
    assert isinstance(bot, ShardedTableBot) == bool(overrides)
    assert not any(
        pattern.pattern.startswith(("(?s)g1", "(?s)s1"))
        for pattern in bot._connection._view_store._dynamic_items
    )
    spy = Spy(bot)

    pressed = await discord_driver.click(started.message, button(started.message, "add1"),
                                         user="alice")
    assert pressed.response_type == 7 and not pressed.ephemeral
    assert "Count: **1**" in str((pressed.callback or {}).get("data"))  # the answer
    assert len(_callbacks(pressed)) == 1
    assert (await bot.tables.load(game.id)).row.version == 1
    await discord_driver.settle()  # the start's own redraw of the board, if it raced
    shown = fake_discord.get_message(started.message["id"])
    assert "Count: **1**" in str(shown["embeds"])

    board = _select_board(fake_discord, game.id, 1)
    chosen = await discord_driver.select(board, select_id(game.id, 1, "add"), ["add2"],
                                         user="alice")
    assert chosen.response_type == 7 and not chosen.ephemeral
    assert "Count: **3**" in str(chosen.embeds)
    assert len(_callbacks(chosen)) == 1
    assert (await bot.tables.load(game.id)).row.version == 2
    assert spy.calls == [(game.id, 0, "add1"), (game.id, 1, "add2")]


@pytest.mark.parametrize(
    ("component", "values"),
    [
        ({"type": 2, "style": 2, "label": "Add 1", "custom_id": "g1:{fullwidth}:0:add1"}, None),
        ({"type": 2, "style": 2, "label": "Add 1", "custom_id": "g1:{game}:0:add 1"}, None),
        ({"type": 3, "custom_id": "s1:{fullwidth}:0:add",
          "options": [{"label": "Add 1", "value": "add1"}]}, ["add1"]),
        ({"type": 3, "custom_id": "s1:{game}:0:add",
          "options": [{"label": "Add 1", "value": "add1 "}]}, ["add1 "]),
        ({"type": 3, "custom_id": "g1:{game}:0:add1",
          "options": [{"label": "Add 1", "value": "add1"}]}, ["add1"]),
    ],
    ids=["button fullwidth game", "button bad action", "select fullwidth game",
         "select bad value", "button id on a select"],
)
async def test_forged_ids_are_refused_privately_and_change_nothing(
    discord_driver, fake_discord, tmp_path, component, values
):
    """A forged ``g1:``/``s1:`` id (or value) never reaches the game: one private NOT_VALID."""
    bot = await discord_driver.login(make_bot(tmp_path))
    await discord_driver.slash("toy", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    spy = Spy(bot)
    fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in str(game.id))
    component = dict(component, custom_id=component["custom_id"].format(
        game=game.id, fullwidth=fullwidth))
    forged = _forged(fake_discord, component)
    if values is None:
        result = await discord_driver.click(forged, component["custom_id"], user="alice")
    else:
        result = await discord_driver.select(forged, component["custom_id"], values, user="alice")
    assert result.response_type == 4
    assert result.ephemeral and result.content == NOT_VALID
    assert len(result.requests) == 1 and len(_callbacks(result)) == 1
    assert spy.calls == []
    assert (await bot.tables.load(game.id)).row.version == 0


async def test_a_select_with_nothing_chosen(discord_driver, fake_discord, tmp_path):
    """A board select sent with no value: a private "Nothing was chosen.", the game untouched."""
    bot = await discord_driver.login(make_bot(tmp_path))
    await discord_driver.slash("toy", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    spy = Spy(bot)
    board = _select_board(fake_discord, game.id, 0)
    result = await discord_driver.select(board, select_id(game.id, 0, "add"), [], user="alice")
    assert result.response_type == 4
    assert result.ephemeral and result.content == NOTHING_CHOSEN
    assert len(_callbacks(result)) == 1
    assert spy.calls == []
    assert (await bot.tables.load(game.id)).row.version == 0


@pytest.mark.error_logs_expected
@pytest.mark.parametrize("defer", [False, True], ids=["unanswered", "deferred"])
async def test_a_failing_click_is_logged_and_answered_and_the_next_one_works(
    discord_driver, fake_discord, tmp_path, caplog, defer
):
    """A handler that raises: logged with its traceback, answered privately, bot unharmed."""
    bot = await discord_driver.login(make_bot(tmp_path))
    started = await discord_driver.slash("toy", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    custom_id = button(started.message, "add1")
    spy = Spy(bot, fail=RuntimeError("the engine broke"), defer=defer)
    with caplog.at_level(logging.ERROR):
        failed = await discord_driver.click(started.message, custom_id, user="alice")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert errors[0].name == "bot.boards.routing" and custom_id in errors[0].getMessage()
    assert errors[0].exc_info is not None and "the engine broke" in str(errors[0].exc_info[1])
    if defer:
        assert failed.response_type == 6
        assert [m["content"] for m in failed.followups] == [FAILED]
    else:
        assert failed.response_type == 4
        assert failed.ephemeral and failed.content == FAILED
    assert len(_callbacks(failed)) == 1
    assert spy.calls == [(game.id, 0, "add1")]
    assert not bot.is_closed()

    spy.fail = None
    spy.defer = False
    caplog.clear()
    pressed = await discord_driver.click(started.message, custom_id, user="alice")
    assert pressed.response_type == 7 and len(_callbacks(pressed)) == 1
    assert (await bot.tables.load(game.id)).row.version == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_board_clicks_do_not_rebuild_the_message_as_a_view(
    discord_driver, fake_discord, tmp_path, monkeypatch
):
    """discord.py's ``View.from_message`` is not called for a button or a select click."""
    bot = await discord_driver.login(make_bot(tmp_path))
    started = await discord_driver.slash("toy", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    rebuilt: list[Any] = []

    def from_message(cls: Any, message: Any, /, **kwargs: Any) -> Any:
        rebuilt.append(message)
        raise AssertionError("View.from_message called for a board click")

    monkeypatch.setattr(discord.ui.View, "from_message", classmethod(from_message))
    monkeypatch.setattr(discord.ui.LayoutView, "from_message", classmethod(from_message))
    pressed = await discord_driver.click(started.message, button(started.message, "add1"),
                                         user="alice")
    assert pressed.response_type == 7
    board = _select_board(fake_discord, game.id, 1)
    chosen = await discord_driver.select(board, select_id(game.id, 1, "add"), ["add1"],
                                         user="alice")
    assert chosen.response_type == 7
    assert rebuilt == []
    assert (await bot.tables.load(game.id)).row.version == 2


async def test_each_click_is_handled_once(discord_driver, fake_discord, tmp_path):
    """Moves and a stale board's click: one handler call and one callback per click."""
    bot = await discord_driver.login(make_bot(tmp_path))
    started = await discord_driver.slash("toy", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    spy = Spy(bot)
    first = button(started.message, "add1")
    for expected in range(1, 4):
        board = fake_discord.get_message(started.message["id"])
        pressed = await discord_driver.click(board, button(board, "add1"), user="alice")
        assert pressed.response_type == 7 and len(_callbacks(pressed)) == 1
        assert len(spy.calls) == expected
    stale_board = _forged(fake_discord, {"type": 2, "style": 2, "label": "Add 1",
                                         "custom_id": first})
    stale = await discord_driver.click(stale_board, first, user="alice")
    assert len(_callbacks(stale)) == 1
    assert spy.calls[-1] == (game.id, 0, "add1") and len(spy.calls) == 4
    assert (await bot.tables.load(game.id)).row.version == 3
