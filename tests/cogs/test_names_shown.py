"""Names with markdown in them: escaped where Discord reads markdown, plain where it does not.

A member shown as ``Cool_Guy`` must read "Cool_Guy" everywhere: in an embed's description
the name carries its escape (``Cool\\_Guy`` renders as "Cool_Guy"), but a footer, a
button or option label and a picture's alt text show text as it is, so there the escape
would show as a backslash.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.boards.render import picture_view
from bot.text.names import plain, plain_players, safe_name, short_name
from tests.support import button, host_board, host_panel, make_bot

NAME = "cool_guy"
#: How the fake Discord shows that member (their display name).
SHOWN = "Cool_Guy"


def _option_labels(message: dict) -> list[str]:
    return [option["label"] for row in message["components"] for item in row["components"]
            for option in item.get("options", [])]


def _button_labels(message: dict) -> list[str]:
    return [item.get("label", "") for row in message["components"]
            for item in row["components"]]


async def test_a_name_with_markdown_shows_plain_where_discord_shows_text_as_it_is(
        discord_driver, fake_discord, tmp_path) -> None:
    fake_discord.add_user(NAME)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"),
                                        user=NAME)).message
    lobby = board["embeds"][0]
    assert SHOWN in lobby["footer"]["text"] and "\\" not in lobby["footer"]["text"]
    markdown = "\n".join([lobby.get("description", ""),
                          *(field["value"] for field in lobby.get("fields", []))])
    assert "Cool\\_Guy" in markdown  # the seats: there the escape renders as "_"

    panel = (await host_panel(discord_driver, board)).message
    labels = _option_labels(panel) + _button_labels(panel)
    assert any(SHOWN in label for label in labels), labels
    assert not any("\\" in label for label in labels), labels

    board = await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    shown = board["embeds"][0]
    assert "\\" not in shown["footer"]["text"]
    alt = [attachment.get("description") or "" for attachment in board["attachments"]]
    assert alt and any(SHOWN in text for text in alt), alt
    assert not any("\\" in text for text in alt), alt

    # The picture draws the names plain; the engine's view, which the embed's text
    # comes from, keeps the escape.
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None
    drawn = [player["name"] for player in picture_view(game)["players"]]
    assert SHOWN in drawn and not any("\\" in name for name in drawn)
    assert safe_name(SHOWN) in [player["name"] for player in game.view()["players"]]


@given(st.text(alphabet="ab _*~|`<>#-[]()\\@ \u3000\u200b\n漢😀", max_size=25))
def test_plain_undoes_what_safe_name_escaped(name: str) -> None:
    one_line = " ".join("".join(ch for ch in name
                                if ch.isprintable() or ch.isspace()).split())
    safe = safe_name(name)
    if one_line and len(safe) < 64:  # a name cut at 64 may end inside an escape
        assert plain(safe) == one_line


def test_plain_players_leaves_the_view_as_it_was() -> None:
    view = {"players": [{"seat": 0, "name": "cool\\_guy"}, {"seat": 1, "name": "Bob"}]}
    shown = plain_players(view)
    assert [p["name"] for p in shown["players"]] == ["cool_guy", "Bob"]
    assert view["players"][0]["name"] == "cool\\_guy"
    plain_view = {"players": [{"seat": 0, "name": "Bob"}]}
    assert plain_players(plain_view) is plain_view


def test_a_long_name_is_cut_for_a_title_without_splitting_an_escape() -> None:
    name = safe_name("Bartholomew_Fitzgerald-Smythe the Third")
    short = short_name(name, 20)
    assert plain(short) == "Bartholomew_Fitzg…"  # capitals and "_" take more room
    assert short == "Bartholomew\\_Fitzg…"  # still safe where markdown is read
    assert short_name(safe_name("Cool_Guy"), 20) == safe_name("Cool_Guy")
    cut_at_escape = short_name(safe_name("a" * 18 + "__b"), 20.5)
    assert plain(cut_at_escape) == "a" * 18 + "_…" and not cut_at_escape.endswith("\\…")
