"""Board components, byte for byte: what every kind of board sends to Discord.

Boards of the three games are rendered the way the table renders them
(``Boards.render``: the game's own components, the lobby, "Rules & details", "Play
again", a vote's tally, a computer player's turn) and the components Discord gets are
taken from discord.py's own request building (``handle_message_parameters``, as for a
new message or an edit, and ``interaction_message_response_params``, as for a click's
answer). Seeded games of Tinker, Sailor, Soldier, Spy, of Tin Realm and of Steam to Solar
with 2 to 5 seats (their lobbies too) are played to their end, and the boards of
finished, abandoned and expired games are rendered as well.

The constant below is the sha256 of those components as JSON. A change that should not
change what Discord gets (a faster way to build the components) keeps it; a deliberate
change of the boards updates it: print the new one with
``python -m tests.boards.test_layout_dicts``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params

from bot.boards.layout import (
    BoardOption,
    BoardSelect,
    BoardUserSelect,
    BoardView,
    PanelItem,
    action_button,
    action_select,
    board_view,
    default_items,
    view_of,
)
from bot.boards.service import Boards
from bot.games.protocol import Action
from bot.games.steam.engine import ENGINE as STEAM
from bot.games.tinker.engine import ENGINE as TINKER
from bot.games.tinrealm.engine import ENGINE as TINREALM
from bot.table import polls
from bot.table.loaded import LoadedGame
from cogs.steam import SteamCog
from cogs.tinker import TinkerCog
from cogs.tinrealm import TinRealmCog
from tests.support import (
    board_ids,
    button,
    host_board,
    loaded,
    make_bot,
    press,
)

#: Seeded games of each kind played to their end.
TINKER_GAMES = 40
TINREALM_GAMES = 12
STEAM_GAMES = 40

#: sha256 of the components of every board below (see the module docstring).
COMPONENTS_DIGEST = "975862cc6b9055abb6d9026a25b8db5beed32fc8382458beab23e54f9a147eff"

ENDED = ("abandoned", "expired")


def _boards() -> Boards:
    boards = Boards(None, None, images=False)  # type: ignore[arg-type]
    for cog in (TinkerCog(None), SteamCog(None), TinRealmCog(None)):
        boards.register(cog)  # type: ignore[arg-type]
    return boards


def _vote(game: LoadedGame, rng: random.Random) -> None:
    """Put a vote under way on ``game``'s board (its tally shows on the components)."""
    seat = game.to_act()
    actions = [] if seat is None else game.legal_actions(seat)
    if not actions:
        return
    poll = polls.new_poll(game.row.version)
    for voter in range(rng.randint(1, 4)):
        chosen = rng.choice(actions)
        polls.cast(poll, 500 + voter, f"Voter {voter}", chosen.id, chosen.label,
                   1_800_000_000.0 + voter)
    if rng.random() < 0.5:
        poll.closes = 1_800_000_030.0
    game.data.poll = poll


def _solo(engine: Any, states: Iterator[Any], rng: random.Random) -> Iterator[LoadedGame]:
    """Yield every board of one-seat games, some voting, then the ends they could have."""
    for state in states:
        version = rng.randint(0, 5)
        while True:
            over = engine.is_over(state)
            game = loaded(engine, state, version=version, status="over" if over else "active",
                          events=["Alice started the game."])
            if not over and rng.random() < 0.3:
                _vote(game, rng)
            yield game
            if over:
                break
            if rng.random() < 0.05:
                yield loaded(engine, state, version=version, status=rng.choice(ENDED))
            actions = engine.legal_actions(state, 0)
            action = (engine.computer_action(state, 0) if rng.random() < 0.5
                      else rng.choice(actions).id)
            state = engine.apply(state, 0, action).state
            version += 1


def _seat(game: LoadedGame, computers: set[int], away: set[int]) -> LoadedGame:
    game.seats = [replace(seat, computer=index in computers,
                          user_id=None if index in computers else 100 + index,
                          away=index in away)
                  for index, seat in enumerate(game.seats)]
    return game


def _lobbies(rng: random.Random) -> Iterator[LoadedGame]:
    """Yield Steam to Solar lobbies: 1 to 5 seats, people and computer players, hosts."""
    for seats in range(1, STEAM.max_seats + 1):
        for _ in range(4):
            computers = {i for i in range(1, seats) if rng.random() < 0.5}
            game = _seat(loaded(STEAM, None, seats=seats, status="lobby",
                                version=rng.randint(0, 9)), computers, set())
            people = [i for i in range(seats) if i not in computers]
            if rng.random() < 0.3:
                game.data.host = 100 + rng.choice(people)
            yield game
    yield loaded(STEAM, None, seats=2, status="abandoned")


def _steam(rng: random.Random) -> Iterator[LoadedGame]:
    """Yield every board of Steam to Solar games of 2 to 5 seats, to their end."""
    for seed in range(STEAM_GAMES):
        seats = 2 + seed % 4
        computers = {i for i in range(1, seats) if rng.random() < 0.5}
        away = {i for i in range(seats) if i not in computers and rng.random() < 0.1}
        names = [f"Player {i + 1}" for i in range(seats)]
        state = STEAM.new(seed, seats, {"names": names})
        version = 0
        while True:
            over = STEAM.is_over(state)
            game = _seat(loaded(STEAM, state, seats=seats, version=version,
                                status="over" if over else "active"), computers, away)
            if not over and rng.random() < 0.1:
                _vote(game, rng)
            yield game
            if over:
                break
            if rng.random() < 0.02:
                yield _seat(loaded(STEAM, state, seats=seats, version=version,
                                   status=rng.choice(ENDED)), computers, away)
            seat = STEAM.to_act(state)
            actions = STEAM.legal_actions(state, seat)
            action = (STEAM.computer_action(state, seat) if rng.random() < 0.7
                      else rng.choice(actions).id)
            state = STEAM.apply(state, seat, action).state
            version += 1


def every_board() -> Iterator[LoadedGame]:
    """Yield the boards the digest covers, always the same ones."""
    rng = random.Random(11)
    yield from _solo(TINKER, (TINKER.new(seed, 1, {"harsh_defeat": seed % 2 == 0})
                              for seed in range(TINKER_GAMES)), rng)
    yield from _solo(TINREALM, (TINREALM.new(seed, 1, {"preset": ("easy", "hard")[seed % 2]})
                                for seed in range(TINREALM_GAMES)), rng)
    yield from _lobbies(rng)
    yield from _steam(rng)


def sent_components(view: discord.ui.View | None) -> list[Any]:
    """Return the components discord.py sends for ``view``: as a message (a new one or an
    edit) and as a click's answer, checking that both say the same and set no flags."""
    with handle_message_parameters(embed=None, view=view) as params:
        message = params.payload
    answer = interaction_message_response_params(type=7, embed=None, view=view).payload
    assert answer is not None
    assert "flags" not in message and "flags" not in answer["data"]
    assert answer["data"]["components"] == message["components"]
    return message["components"]


def confirmations() -> Iterator[discord.ui.View]:
    """Yield the private "Are you sure?" answers' views (one red button each)."""
    for game_id, version, action in ((42, 0, "give_up"), (9, 12, "resign"),
                                     (2**63 - 1, 2**63 - 1, "a" * 40)):
        yes = action_button(game_id, version, Action(action, "Yes, I am sure"),
                            style=discord.ButtonStyle.danger)
        yield view_of([yes])


def _actions(group: str, count: int, **extra: Any) -> list[Action]:
    return [Action(f"{group}{i}", f"{group.title()} number {i} " * (1 + i % 9), group,
                   description=f"What {group} {i} does. " * (i % 12), **extra)
            for i in range(count)]


def layout_items() -> Iterator[list[PanelItem]]:
    """Yield layouts no game above happens to make: selects of many parts, every group
    as a select, custom emoji, disabled selects, long labels and placeholders."""
    style = discord.ButtonStyle
    yield default_items(7, 1, [*_actions("a", 3), *_actions("b", 30), *_actions("c", 5)],
                        placeholders={"b": "Pick a b " * 30})
    yield default_items(7, 2, [a for g in "abcdef" for a in _actions(g, 2)])
    yield default_items(7, 3, [a for g in "abcdef" for a in _actions(g, 9)])
    yield default_items(7, 4, _actions("x", 1, primary=True) + _actions("", 26))
    emoji = ("🚂", "<:gear:123456789012345678>", "<a:spin:1234567890123>", "cog:98765432109876",
             "a:wheel:12345678901234567", ":not:12", "<:bad name:123456789012345678>")
    yield [action_button(8, 0, Action(f"e{i}", f"With {e}"), emoji=e, row=i // 5,
                         style=(style.primary, style.success)[i % 2], disabled=i % 3 == 0)
           for i, e in enumerate(emoji)]
    yield [action_button(8, 1, Action("empty", ""), emoji="🎲"),
           action_button(8, 1, Action("auto", "Auto " * 30)),
           action_select(8, 1, "", _actions("s", 4), row=2),
           action_select(8, 1, "pick", _actions("t", 25), placeholder="Pick", row=3, part=2)]
    disabled = action_select(8, 2, "z", _actions("z", 3), row=0)
    disabled.disabled = True
    yield [disabled]
    # rows left to discord.py's placing, among rows given
    yield [action_button(9, 0, Action(f"p{i}", f"P{i}"), row=None if i % 2 else i % 3)
           for i in range(11)]
    yield [BoardUserSelect("u1:9:0:invite", "Invite someone"),
           action_button(9, 0, Action("go", "Go"))]


def layouts() -> Iterator[discord.ui.View]:
    """Yield :func:`layout_items` as discord.py's own views."""
    for items in list(layout_items())[:7]:  # the digest's layouts
        yield view_of(items)


def components_digest() -> tuple[str, int]:
    """Return the sha256 of every board's components, and how many boards."""
    digest = hashlib.sha256()
    boards = _boards()
    count = 0
    for game in every_board():
        components = sent_components(boards.drawing.render(game)["view"])
        digest.update(json.dumps(components, ensure_ascii=False, separators=(",", ":"))
                      .encode())
        digest.update(b"\n")
        count += 1
    for view in [*confirmations(), *layouts()]:
        digest.update(json.dumps(sent_components(view), separators=(",", ":")).encode())
        count += 1
    return digest.hexdigest(), count


def test_every_board_sends_the_same_components() -> None:
    """Boards of the three games, lobbies and ends: components hash to the recorded digest."""
    found, count = components_digest()
    assert count > 3000
    assert found == COMPONENTS_DIGEST



# -- discord.py's own view, never kept ------------------------------------------------------


async def test_a_board_view_is_a_stopped_discord_ui_view() -> None:
    """A board's view is discord.py's own, stopped, with no timeout: sent, never kept; items
    that do not fit are refused as discord.ui refuses them."""
    items = [action_button(1, 2, Action("go", "Go")), action_select(1, 2, "g", [Action("a", "A")],
                                                                    row=1)]
    view = view_of(items)
    assert type(view) is discord.ui.View
    assert view.is_finished() and view.timeout is None and not view.has_components_v2()
    assert [c.custom_id for c in view.children] == [i.custom_id for i in items]
    assert [row["components"][0]["custom_id"] for row in view.to_components()] == [
        "g1:1:2:go", "s1:1:2:g"]
    with pytest.raises(ValueError):
        view_of([BoardSelect(f"s1:1:1:g{i}", [BoardOption("One", "one")]) for i in range(6)])


def test_a_board_view_sends_what_discord_py_s_own_view_sends() -> None:
    """Every board above, and every layout, built without discord.ui items: the same
    components as discord.py's own view of the same items, byte for byte."""
    boards = _boards()
    for game in every_board():
        view = boards.drawing.render(game)["view"]
        if view is None:  # an abandoned lobby: no components
            continue
        assert isinstance(view, BoardView)
        assert sent_components(view) == sent_components(view_of(view.items))
    for items in layout_items():
        assert sent_components(board_view(items)) == sent_components(view_of(items))


async def test_a_board_view_refuses_what_discord_py_refuses() -> None:
    """Items that do not fit are refused as discord.ui refuses them; the view is stopped,
    keeps nothing to dispatch, and takes no more items."""
    select = [BoardOption("One", "one")]
    too_many = [
        [BoardSelect(f"s1:1:1:g{i}", select) for i in range(6)],
        [action_button(1, 1, Action(f"a{i}", "A"), row=0) for i in range(6)],
        [action_button(1, 1, Action(f"a{i}", "A")) for i in range(26)],
        [action_button(1, 1, Action(f"a{i}", "A"), row=i % 5) for i in range(26)],
        [action_button(1, 1, Action("a", "A"), row=2), BoardSelect("s1:1:1:g", select, row=2)],
        [action_button(1, 1, Action("a", "A"), row=-1)],
        [action_button(1, 1, Action("a", "A"), row=5)],
        [*(action_button(1, 1, Action(f"a{i}", "A")) for i in range(25)),
         action_button(1, 1, Action("b", "B"), row=7)],
    ]
    for items in too_many:
        with pytest.raises(ValueError) as theirs:
            view_of(items)
        with pytest.raises(ValueError) as ours:
            board_view(items)
        assert str(ours.value) == str(theirs.value)
    view = board_view([action_button(1, 2, Action("go", "Go"))])
    assert isinstance(view, discord.ui.View)
    assert view.is_finished() and view.timeout is None and not view.is_dispatchable()
    assert not view.has_components_v2() and [i.custom_id for i in view.items] == ["g1:1:2:go"]
    with pytest.raises(TypeError):
        view.add_item(discord.ui.Button(label="More"))


async def test_no_board_view_is_stored_by_discord_py(discord_driver, fake_discord, tmp_path):
    """A table from its lobby to its end, with a confirmation: discord.py stores no view,
    and every board and the confirmation carry the components the bot drew."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    stored: list[Any] = []
    real = bot._connection.store_view
    bot._connection.store_view = lambda *args, **kw: (stored.append(args), real(*args, **kw))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = await host_board(discord_driver, board, "lobby.start")
    for _ in range(3):
        game = await bot.tables.open_in_channel(fake_discord.channel_id)
        seat = game.to_act()
        action = game.engine.computer_action(game.state, seat)
        board = (await press(discord_driver, board, action, ("alice", "bob")[seat])).message
        assert board_ids(board)
    ask = await discord_driver.click(board, button(board, "ask.resign"), user="bob")
    assert ask.ephemeral and ask.custom_ids == [button(board, "ask.resign").replace("ask.", "")]
    done = await discord_driver.click(ask.message, ask.custom_ids[0], user="bob")
    assert done.response_type == 7
    final = fake_discord.get_message(board["id"])
    assert [cid.rsplit(":", 1)[1] for cid in board_ids(final, table=True)] == [
        "table.again", "table.replay", "table.rules"]
    store = bot._connection._view_store
    assert stored == [] and store._views == {} and store._synced_message_views == {}

if __name__ == "__main__":
    found, count = components_digest()
    print(f"COMPONENTS_DIGEST = {found!r}  # {count} boards")
