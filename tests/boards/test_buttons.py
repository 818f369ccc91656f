"""Board custom_ids are parsed strictly; a forged one gets a private "not valid" answer."""

import pytest

from bot.boards.custom_ids import (
    MAX_NUMBER,
    BoardId,
    button_id,
    is_action_id,
    parse_button_id,
    parse_select_id,
    select_id,
)
from bot.boards.routing import NOT_VALID
from tests.support import button, make_bot

FORGED_BUTTONS = [
    "g1:１２:0:add1",  # fullwidth digits: int() and \d accept them
    "g1:1:٣:add1",  # Arabic-Indic digit as the version
    f"g1:{2**63}:0:add1",  # 19 digits, one past 63 bits
    f"g1:1:{2**64 + 5}:add1",  # a 64-bit overflow
    "g1:" + "9" * 40 + ":0:add1",
    "g1:01:0:add1",  # a leading zero: never drawn
    "g1:-1:0:add1",
    "g1:1:0:",
    "g1:1:0:add 1",
    "g1:1:0:" + "a" * 41,
    "g1:1:0:add1\n",
    "g1:",
]


def test_drawn_ids_parse_back():
    """Every custom_id the bot draws parses to the same game, version and action."""
    assert parse_button_id(button_id(42, 7, "play.3:x")) == BoardId(42, 7, "play.3:x")
    top = button_id(MAX_NUMBER, MAX_NUMBER, "a")
    assert parse_button_id(top) == BoardId(MAX_NUMBER, MAX_NUMBER, "a")
    assert parse_select_id(select_id(5, 0, "cards")) == BoardId(5, 0, "cards")
    assert parse_button_id("g1:0:0:a") == BoardId(0, 0, "a")


@pytest.mark.parametrize("custom_id", FORGED_BUTTONS)
def test_forged_button_ids_do_not_parse(custom_id):
    """Non-ASCII digits, numbers past 63 bits, leading zeros and bad actions are refused."""
    assert parse_button_id(custom_id) is None


@pytest.mark.parametrize("custom_id", ["s1:１:0:cards", f"s1:1:{2**63}:cards", "s1:1:0:a:b"])
def test_forged_select_ids_do_not_parse(custom_id):
    """A select's custom_id is parsed as strictly (its group has no colon)."""
    assert parse_select_id(custom_id) is None


def test_action_values():
    """A select's chosen value must look like an action id."""
    assert is_action_id("take.2")
    assert not is_action_id("take２")
    assert not is_action_id("")
    assert not is_action_id("x" * 41)


def _forged_board(fake, component):
    return fake.post_message({
        "content": "a board",
        "components": [{"type": 1, "components": [component]}],
    })


@pytest.mark.parametrize("custom_id", FORGED_BUTTONS[:6])
async def test_forged_button_click_is_refused_privately(discord_driver, fake_discord, tmp_path,
                                                        custom_id):
    """A click on a forged board button: one private "not valid" answer, nothing logged."""
    await discord_driver.login(make_bot(tmp_path))
    forged = _forged_board(
        fake_discord, {"type": 2, "style": 2, "label": "Add 1", "custom_id": custom_id}
    )
    result = await discord_driver.click(forged, custom_id, user="alice")
    assert result.response_type == 4
    assert result.ephemeral and result.content == NOT_VALID
    assert len(result.requests) == 1


async def test_fullwidth_id_does_not_reach_a_real_game(discord_driver, fake_discord, tmp_path):
    """A forged id spelling a real game's id in fullwidth digits leaves that game alone."""
    bot = await discord_driver.login(make_bot(tmp_path))
    started = await discord_driver.slash("toy", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    real = button(started.message, "add1")
    fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in str(game.id))
    forged_id = real.replace(f"g1:{game.id}:", f"g1:{fullwidth}:", 1)
    forged = _forged_board(
        fake_discord, {"type": 2, "style": 2, "label": "Add 1", "custom_id": forged_id}
    )
    result = await discord_driver.click(forged, forged_id, user="alice")
    assert result.ephemeral and result.content == NOT_VALID
    assert (await bot.tables.open_in_channel(fake_discord.channel_id)).row.version == 0


@pytest.mark.parametrize(
    ("custom_id", "value"),
    [("s1:１:0:cards", "add1"), (f"s1:1:{2**63}:cards", "add1"), ("s1:1:0:cards", "add１")],
)
async def test_forged_select_is_refused_privately(discord_driver, fake_discord, tmp_path,
                                                  custom_id, value):
    """A forged select, or a forged chosen value, gets the same private answer."""
    await discord_driver.login(make_bot(tmp_path))
    forged = _forged_board(fake_discord, {
        "type": 3, "custom_id": custom_id,
        "options": [{"label": "Add 1", "value": value}],
    })
    result = await discord_driver.select(forged, custom_id, [value], user="alice")
    assert result.response_type == 4
    assert result.ephemeral and result.content == NOT_VALID
