"""Shared test helpers: a controllable clock, the toy engine registered, a table service."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.client import TableBot, create_bot
from bot.config import Settings, load_settings
from bot.games import registry
from bot.table.seats import seats_from_json
from bot.table.service import Actor, LoadedGame, Tables
from db.store import GameRow, Store

registry.ENGINES.setdefault("toy", "tests.toy:ENGINE")

ALICE = Actor(101, "Alice")
BOB = Actor(102, "Bob")
CAROL = Actor(103, "Carol")
MOD = Actor(199, "Mod", can_manage=True)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@asynccontextmanager
async def open_tables(path: Path, clock: Clock | None = None) -> AsyncIterator[Tables]:
    """Open a table service over a database file; close it afterwards."""
    clock = clock or Clock()
    store = await Store.open(path, clock)
    seeds = iter(range(1, 1_000_000))
    try:
        yield Tables(store, clock=clock, seeds=lambda: next(seeds))
    finally:
        await store.close()


def make_settings(tmp_path: Path, **overrides: object) -> Settings:
    """Return settings for a bot over a database in ``tmp_path``."""
    env = {"DISCORD_TOKEN": "fake-bot-token", "DATABASE_PATH": str(tmp_path / "bot.db"),
           "COMPUTER_DELAY_SECONDS": "0", "MAX_OPEN_GAMES": "0", "BOARD_EDIT_SECONDS": "0.01"}
    env.update({k: str(v) for k, v in overrides.items()})
    return load_settings(env)


def make_bot(tmp_path: Path, *, cogs: tuple[str, ...] = ("tests.toy",),
             clock: Clock | None = None, **overrides: object) -> TableBot:
    """Return a new bot instance (not logged in) over the database in ``tmp_path``."""
    return create_bot(make_settings(tmp_path, **overrides), cogs=cogs, clock=clock or Clock(),
                      picture_process=False)


def board_ids(message: dict, *, table: bool = False) -> list[str]:
    """Return the game's custom_ids on a stored message, in order.

    The buttons every board carries ("Rules & details", "Play again") are left out
    unless ``table`` is true.
    """
    return [
        c["custom_id"]
        for row in message.get("components") or []
        for c in row.get("components", [])
        if "custom_id" in c and (table or ":table." not in c["custom_id"])
    ]


def button(message: dict, action: str) -> str:
    """Return the custom_id of the button for ``action`` on a stored board."""
    matches = [cid for cid in board_ids(message, table=True) if cid.endswith(":" + action)]
    assert matches, f"no {action!r} button on the board: {board_ids(message)}"
    return matches[0]


def loaded(engine: object, state: object, *, version: int = 3, seats: int = 1,
           status: str = "active", events: list[str] | None = None) -> LoadedGame:
    """Return a LoadedGame around ``state`` without a database (for rendering tests)."""
    row = GameRow(
        id=42, guild_id=1, channel_id=2, kind=engine.kind, status=status,  # type: ignore[attr-defined]
        starter_id=ALICE.user_id,
        seats=[{"user_id": 100 + i, "name": f"Player {i + 1} with a rather long display name",
                "computer": i > 0} for i in range(seats)],
        options={}, only_starter=False, state=None, version=version,
        events=events if events is not None else ["An event line that is fairly long. " * 3] * 12,
        board_channel_id=2, board_message_id=3, board_posted_at=0.0, created_at=0.0,
        updated_at=0.0,
    )
    return LoadedGame(row, engine, state, seats=seats_from_json(row.seats))  # type: ignore[arg-type]


def body_problems(embed: object, items: list) -> list:
    """Return the Discord limit problems of a board made of ``embed`` and ``items``."""
    from bot.boards.layout import view_of
    from tests.fake_discord.limits import check_message

    view = view_of(items)
    body = {"embeds": [embed.to_dict()], "components": view.to_components()}  # type: ignore[attr-defined]
    return check_message(body)


def choice(message: dict, action: str) -> tuple[str, str, str | None]:
    """Find ``action`` on a board: ("button", custom_id, None) or ("select", custom_id, value)."""
    for row in message.get("components") or []:
        for c in row.get("components", []):
            if c.get("type") == 2 and c.get("custom_id", "").endswith(":" + action):
                return "button", c["custom_id"], None
            if c.get("type") == 3 and any(o["value"] == action for o in c.get("options", [])):
                return "select", c["custom_id"], action
    raise AssertionError(f"{action!r} is not offered on the board: {board_ids(message)}")


async def press(driver: object, message: dict, action: str, user: str) -> object:
    """Click the button or pick the select option that applies ``action``."""
    kind, custom_id, value = choice(message, action)
    if kind == "button":
        return await driver.click(message, custom_id, user=user)  # type: ignore[attr-defined]
    return await driver.select(message, custom_id, [value], user=user)  # type: ignore[attr-defined]


def longest_board_within_limits(cog: object, engine: object, states: list, seats: int = 1) -> int:
    """Play each state to its end with computer moves, checking every board against
    Discord's limits; return the longest embed seen."""
    longest = 0
    for state in states:
        while True:
            game = loaded(engine, state, seats=seats)
            embed = cog.embed(game)  # type: ignore[attr-defined]
            over = engine.is_over(state)  # type: ignore[attr-defined]
            items = [] if over else cog.items(game)  # type: ignore[attr-defined]
            assert body_problems(embed, items) == []
            longest = max(longest, len(embed))
            if over:
                break
            seat = engine.to_act(state)  # type: ignore[attr-defined]
            action = engine.computer_action(state, seat)  # type: ignore[attr-defined]
            state = engine.apply(state, seat, action).state  # type: ignore[attr-defined]
    return longest


async def set_read_only(store: object, on: bool) -> None:
    """Make the store's database refuse (or accept again) every write, as a read-only file
    would: ``PRAGMA query_only`` on each of its connections (SQLite's writing
    connection too; on PostgreSQL the test console understands the same pragma)."""
    pragma = f"PRAGMA query_only = {'ON' if on else 'OFF'}"
    await store.connection.execute(pragma)  # type: ignore[attr-defined]
    writer = getattr(store, "writer", None)
    if writer is not None:
        await writer.run(lambda conn: conn.execute(pragma))


def stored_versions(path: Path) -> dict[int, int]:
    """Return each game's version as another connection reads it from the SQLite file."""
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT id, version FROM games"))


def logged_actions(path: Path) -> int:
    """Return how many action-log entries another connection reads from the SQLite file."""
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])


def pings_sent(fake: object) -> list[int]:
    """Return every user id notified by a message the bot created, one entry per ping
    (edits notify nobody), in the order sent: deleted messages count too."""
    return [user for record in fake.mention_log  # type: ignore[attr-defined]
            if record.method == "POST" for user in sorted(record.pinged)]


async def steam_with_bob(driver: Any, fake: Any, tmp_path: Path, *,
                         cogs: tuple[str, ...] = ("cogs.steam",),
                         **options: str) -> tuple[Any, LoadedGame]:
    """Open a Steam to Solar table as Alice with ``options`` on a bot of ``cogs``, seat
    Bob and start it; return the bot and the game."""
    bot = await driver.login(make_bot(tmp_path, cogs=cogs))
    board = (await driver.slash("steam", "new", options, user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game is not None
    return bot, game


async def resign(driver: Any, board: dict, user: str) -> None:
    """Press Resign on a table's ``board`` as ``user`` and confirm it; wait for what
    follows."""
    asked = await driver.click(board, button(board, "ask.resign"), user=user)
    await driver.click(asked.message, asked.custom_ids[0], user=user)
    await driver.settle()


async def abandon(driver: object, kind: str, user: str, **where: object) -> object:
    """Use ``/<kind> abandon`` as ``user`` and confirm it; return the confirmation's result
    (the line said in the channel is its first follow-up), or the refusal."""
    asked = await driver.slash(kind, "abandon", user=user, **where)  # type: ignore[attr-defined]
    if not asked.custom_ids:
        return asked
    return await driver.click(asked.message, asked.custom_ids[0], user=user)  # type: ignore[attr-defined]


async def host_panel(driver: object, board: dict, user: str = "alice") -> object:
    """Press "Host controls" on a lobby board as ``user``; return the private answer."""
    return await driver.click(board, button(board, "lobby.panel"), user=user)  # type: ignore[attr-defined]


async def host_does(driver: object, board: dict, action: str, user: str = "alice") -> object:
    """As ``user``, open the lobby's host controls and choose ``action`` there; return the
    answer on the controls."""
    panel = await host_panel(driver, board, user)
    if action == "lobby.cancel":  # "Close the table" asks first: the answer is "Yes"
        asked = await press(driver, panel.message, "ask." + action, user)
        result = await driver.click(asked.message, asked.custom_ids[0], user=user)  # type: ignore[attr-defined]
    else:
        result = await press(driver, panel.message, action, user)
    await driver.settle()  # type: ignore[attr-defined]
    return result


async def host_board(driver: object, board: dict, action: str, user: str = "alice") -> dict:
    """Like :func:`host_does`; return the lobby's board message as the channel shows it after."""
    await host_does(driver, board, action, user)
    stored = driver.fake.get_message(board["id"])  # type: ignore[attr-defined]
    assert stored is not None
    return stored


async def seated_steam(driver: Any, fake: Any, tmp_path: Path, *, clock: Clock | None = None,
                       seed: int | None = None, settings: dict[str, Any] | None = None,
                       **options: str) -> tuple[Any, LoadedGame]:
    """Open a Steam to Solar table with ``options`` (Alice, its host, first to play), seat
    Bob and Carol and start it (dealt from ``seed`` when given) on a bot made with
    ``settings``; return the bot and the game."""
    fake.add_user("carol")
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock,
                                      **(settings or {})))
    if seed is not None:
        bot.tables.core.seeds = lambda: seed
    board = (await driver.slash("steam", "new", {"first": "me (the host)", **options},
                                user="alice")).message
    for name in ("bob", "carol"):
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game is not None
    return bot, game


async def steam_against_computer(driver: Any, tmp_path: Path, *,
                                 cogs: tuple[str, ...] = ("cogs.steam",),
                                 **settings: Any) -> tuple[Any, LoadedGame]:
    """Open a Steam to Solar table as Alice (first to play) with one computer player and
    start it, on a bot of ``cogs`` made with ``settings``; return the bot and the game."""
    bot = await driver.login(make_bot(tmp_path, cogs=cogs, **settings))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"},
                                user="alice")).message
    board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(driver.fake.channel_id)
    assert game is not None
    return bot, game


async def shard_down(driver: Any, tmp_path: Path, clock: Clock, down: int,
                     seconds: float) -> tuple[Any, float]:
    """Start the processes of both shards of a two-shard bot, stop shard ``down``'s and
    keep it down ``seconds`` while the other runs (noting it is alive); return the other
    process's bot and when shard ``down`` went down."""
    bots = [await driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=i))
            for i in (0, 1)]
    await driver.close_client(bots[down])
    went = clock()
    clock.advance(seconds)
    await bots[1 - down].alive.note_alive()
    return bots[1 - down], went


async def every_page(driver: object, result: object, user: str) -> list[dict]:
    """Click through a private answer in pages ("Rules & details", ``/<game> rules``) as
    ``user``; return every page's embeds, each page once, the first page first.

    On each page the last page button not pressed yet is pressed (a section's next page
    comes last), until every page button seen has been pressed; other buttons on the
    pages (the choice of turn pings) are left alone.
    """
    from tests.fake_discord import payloads

    first = result.embeds  # type: ignore[attr-defined]
    pages = {first[0]["title"]: first}
    message = result.message  # type: ignore[attr-defined]
    pressed: set[str] = set()
    while True:
        enabled = [c["custom_id"] for c in payloads.iter_components(message["components"])
                   if "custom_id" in c and not c.get("disabled")
                   and (":table.rules." in c["custom_id"] or c["custom_id"].startswith("rp1:"))]
        todo = [c for c in enabled if c not in pressed]
        if not todo:
            break
        pressed.add(todo[-1])
        shown = await driver.click(message, todo[-1], user=user)  # type: ignore[attr-defined]
        message = shown.message
        pages.setdefault(shown.embeds[0]["title"], shown.embeds)
    return [embed for embeds in pages.values() for embed in embeds]


def detail_embeds(cog: object, game: LoadedGame) -> list[object]:
    """Return the embeds of every page of ``game``'s "Rules & details", in order."""
    from cogs.details import page_keys

    sections = cog.sections(game)  # type: ignore[attr-defined]
    return [embed for key, index, _count in page_keys(sections)
            for embed in cog.details(game, f"{key}.{index}")["embeds"]]  # type: ignore[attr-defined]


async def table_names(store: Store) -> list[str]:
    """Return the names of every table of ``store``'s database (SQLite or PostgreSQL)."""
    if store.backend == "sqlite":
        rows = await store.query("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = await store.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
    return [r[0] for r in rows]


def steam_until(reached: Callable[[Any], bool], seats: int, wander: float = 0.2) -> Any:
    """Return the first Steam to Solar state, over games of seeds 0 to 199 played by the
    computer players (a random non-resigning move now and then, ``wander`` of them), that
    ``reached`` accepts before its game is over; fail if none does."""
    from bot.games.steam.engine import ENGINE

    for seed in range(200):
        state = ENGINE.new(seed, seats, {})
        rng = random.Random(seed)
        while not ENGINE.is_over(state) and not reached(state):
            seat = ENGINE.to_act(state)
            legal = [a.id for a in ENGINE.legal_actions(state, seat) if a.id != "resign"]
            action = (rng.choice(legal) if rng.random() < wander
                      else ENGINE.computer_action(state, seat))
            state = ENGINE.apply(state, seat, action).state
        if not ENGINE.is_over(state):
            return state
    raise AssertionError("no game reached the state asked for")


async def play_out_and_share(driver: Any, fake: Any, bot: Any, game: LoadedGame,
                             user: str = "alice") -> Any:
    """Play a one-seat game to its end as ``user`` (the computer's choices), show its
    ended board, and press Share on it; return the answer to the press."""
    who = fake.user(user)
    while game.row.is_open:
        game = (await bot.tables.act(game.id, game.row.version, Actor(who.id, who.name),
                                     game.engine.computer_action(game.state, 0))).game
    await bot.boards.messages.refresh(game)
    await driver.settle()
    board = fake.get_message(game.row.board_message_id)
    shared = await driver.click(board, button(board, "table.share"), user=user)
    await driver.settle()
    return shared


def drop_first_answer(monkeypatch: Any, name: str,
                      owner: type = discord.InteractionResponse) -> None:
    """Make the first call of ``owner.<name>`` (an interaction's ``send_message`` or
    ``edit_message``; a follow-up's ``discord.Webhook.send``) lose its answer: the
    connection drops (aiohttp's ServerDisconnectedError, which discord.py does not
    retry)."""
    real = getattr(owner, name)
    calls = 0

    async def first_dropped(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise aiohttp.ServerDisconnectedError()
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, first_dropped)
