"""The starter of a game whose board Discord refused (a 4xx other than a permission or
a rate limit: AutoMod blocking a name, a locked thread) is told what to do next, with
the error's number, not Discord's own words for developers."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.boards.threads import not_posted_text


def _refused(status: int, code: int, text: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="Bad Request")
    return discord.HTTPException(response, {"code": code, "message": text})  # type: ignore[arg-type]


def test_a_refused_board_says_what_to_do_next() -> None:
    words = not_posted_text(_refused(400, 200000, "Message was blocked by AutoMod"),
                            thread=False, where="in this channel")
    assert words.startswith("The game was called off: the bot could not post its board in "
                            "this channel: Discord refused it (error 200000).")
    assert "Start the game again" in words and "AutoMod" in words
    assert "Message was blocked" not in words


def test_a_refusal_without_a_code_gives_its_status() -> None:
    words = not_posted_text(_refused(413, 0, ""), thread=True, where="in its thread")
    assert "(error 413)" in words and "(error 0)" not in words
