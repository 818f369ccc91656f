"""The "Rules & details" pages of a seated table keep three buttons a row on a phone,
the member's turn pings choice included, on every page a click leads to."""

from __future__ import annotations

from tests.cogs.test_replays import _steam_table
from tests.support import button


def _rows(message: dict) -> list[list[str]]:
    return [[c.get("label") or "" for c in row.get("components", [])]
            for row in message.get("components") or []]


async def test_steam_details_pages_keep_three_buttons_a_row(discord_driver, fake_discord,
                                                            tmp_path) -> None:
    """Steam to Solar has five sections and a page button on its first page (rules 1/3):
    the pings button goes on a row of its own there, and joins a short row elsewhere."""
    _bot, game = await _steam_table(discord_driver, fake_discord, tmp_path,
                                   "lobby.computer", "alice")
    board = fake_discord.get_message(game.row.board_message_id)
    page = (await discord_driver.click(board, button(board, "table.rules"),
                                       user="alice")).message
    seen = {page["embeds"][0]["title"]: _rows(page)}
    clicked: set[str] = set()
    while True:  # every page: each section's button, then its "Page N of M" buttons
        here = [c["custom_id"] for row in page["components"] for c in row["components"]
                if ":table.rules." in (c.get("custom_id") or "") and not c.get("disabled")]
        todo = [i for i in here if i.rsplit(":", 1)[-1] not in clicked]
        if not todo:
            break
        clicked.add(todo[0].rsplit(":", 1)[-1])
        page = (await discord_driver.click(page, todo[0], user="alice")).message
        seen[page["embeds"][0]["title"]] = _rows(page)
    assert len(seen) >= 5
    for title, rows in seen.items():
        assert all(len(row) <= 3 for row in rows), (title, rows)
        assert sum(row.count("🔔 Turn pings") for row in rows) == 1, (title, rows)
    first = seen["Steam to Solar: how to play (1/3)"]
    assert first[-1] == ["🔔 Turn pings"] and len(first) == 3
