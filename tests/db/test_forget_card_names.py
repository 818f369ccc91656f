"""/forget-me for a member whose name is also one of a game's words (a card, a place, an
item): only the places that hold a person's name are rewritten, so the games they
played can still be replayed and shared by the friends who played with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.table.lobby import LOBBY_COMPUTER, LOBBY_START
from bot.table.replay import frames, load_request
from bot.table.service import Actor
from bot.table.share import share_of
from db.forget import FORMER_PLAYER, scrub_logged, scrub_options, scrub_state
from tests.support import open_tables


@pytest.mark.parametrize("name", ["Savage", "Bard", "Merchant", "Ace", "Suns"])
async def test_forgetting_a_member_named_like_a_card_keeps_their_daily(tmp_path: Path,
                                                                       name: str) -> None:
    """A Tinker daily of a member named like a card (or a word of one) replays and
    shares the same after they are forgotten."""
    member = Actor(271828182845904523, name)
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("tinker", guild_id=1, channel_id=7, starter=member,
                                  daily=True)
        while game.row.is_open:
            action = game.engine.computer_action(game.state, 0)
            game = (await tables.act(game.id, game.row.version, member, action)).game
        request = await load_request(tables.store, game.id, sharing=True)
        shared, shown = share_of(request), len(frames(request))
        await tables.store.forget_player(member.user_id, FORMER_PLAYER)
        after = await load_request(tables.store, game.id, sharing=True)
        assert after.state == request.state and after.moves == request.moves
        assert len(frames(after)) == shown and share_of(after) == shared


async def test_forgetting_a_steam_player_named_like_a_card(tmp_path: Path) -> None:
    """A Steam to Solar table of a member named "Harvest" (a card of its deck) replays
    after they are forgotten, their seat in the state reading "a former player"."""
    harvest = Actor(314159265358979323, "Harvest")
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=8, host=harvest)
        version = (await tables.act(game.id, game.row.version, harvest,
                                    LOBBY_COMPUTER)).game.row.version
        game = (await tables.act(game.id, version, harvest, LOBBY_START)).game
        while game.row.is_open:
            seat = game.to_act()
            if game.row.seats[seat].get("computer"):
                game = (await tables.computer_move(game.id)).game
            else:
                action = game.engine.computer_action(game.state, seat)
                game = (await tables.act(game.id, game.row.version, harvest, action)).game
        shown = len(frames(await load_request(tables.store, game.id)))
        await tables.store.forget_player(harvest.user_id, FORMER_PLAYER)
        after = await load_request(tables.store, game.id)
        assert len(frames(after)) == shown
        assert after.state["players"][0]["name"] == FORMER_PLAYER
        assert "Harvest" in str(after.state["deck"] + after.state["river"]
                                + after.state["discard"] + after.state["sunny"]
                                + [c for p in after.state["players"]
                                   for t in p["trains"] for c in t])


def test_state_scrub_touches_only_name_fields_and_ids() -> None:
    """In a state, a ``name`` field holding the member's name is rewritten, as is their
    id anywhere; a card or sentence holding the name elsewhere stays."""
    member = 271828182845904523
    state = {"players": [{"name": "Savage", "score": 1}, {"name": "Bob"}],
             "river": ["Savage", "Ace of Suns"], "owner": member, "who": f"<@{member}>"}
    assert scrub_state(state, member, {"Savage", "Suns"}, FORMER_PLAYER) == {
        "players": [{"name": FORMER_PLAYER, "score": 1}, {"name": "Bob"}],
        "river": ["Savage", "Ace of Suns"], "owner": None, "who": FORMER_PLAYER}


def test_engine_moves_are_left_alone_and_table_moves_scrubbed() -> None:
    """An engine move of the log names nobody and is kept; a table move is scrubbed."""
    member = 271828182845904523
    move = '{"seat":0,"action":"p:Watchman:n"}'
    assert scrub_logged(move, member, {"Watchman"}, FORMER_PLAYER) is None
    vote = '{"by":"Watchman","id":"pass"}'
    assert scrub_logged(vote, member, {"Watchman"}, FORMER_PLAYER) == (
        '{"by":"a former player","id":"pass"}')


@pytest.mark.parametrize("preset", ["hard", "easy"])
async def test_forgetting_a_member_named_like_the_map_preset(tmp_path: Path,
                                                             preset: str) -> None:
    """A one-seat game is rebuilt from its start options: a Tin Realm journey on the
    "hard" map by a member called "hard" keeps its preset when they are forgotten, and
    still replays."""
    member = Actor(271828182845904523, preset)
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("tinrealm", guild_id=1, channel_id=7, starter=member,
                                  options={"preset": preset})
        while game.row.is_open:
            action = game.engine.computer_action(game.state, 0)
            game = (await tables.act(game.id, game.row.version, member, action)).game
        shown = len(frames(await load_request(tables.store, game.id)))
        await tables.store.forget_player(member.user_id, FORMER_PLAYER)
        after = await load_request(tables.store, game.id)
        assert after.options["preset"] == preset
        assert len(frames(after)) == shown


def test_only_the_names_option_loses_a_forgotten_name() -> None:
    """In the options, the players' names are scrubbed; an option value equal to the
    name, or holding it as a word, stays; the member's id and mentions still go."""
    user = 42
    options = {"names": ["Bob", "Alice"], "deck": "Bob", "note": "<@42>", "42": 1,
               "levels": [1, 2]}
    assert scrub_options(options, user, {"Bob"}, FORMER_PLAYER) == {
        "names": [FORMER_PLAYER, "Alice"], "deck": "Bob", "note": FORMER_PLAYER,
        "levels": [1, 2]}
