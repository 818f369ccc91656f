"""Benchmark: the pieces of one board click, each timed on its own (no profiler overhead).

Plays a few clicks of one Tinker game on the real bot (fake Discord in-process: only
the pieces below are timed, on the game and board as they stand after those clicks),
then times each piece of the click path in a loop and prints the median microseconds
per call: discord.py's parsing of the interaction and of the callback's answer, the
bot's routing of the click to its game, load, engine, render and save, and
discord.py's building and encoding of the answer. Pieces that change the database
(the save) run on a copy of the game row, one version at a time, so each call is a
real compare-and-swap save.

Run from the repository root: ``python -m bench.click_parts [--repeat 2000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import json
import logging
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord.webhook.async_ import interaction_message_response_params

from bench.clicks import Backend, Bench, logged_in_bot, running_fake
from bench.common import machine, table
from bot.boards.layout import board_view, view_of
from bot.boards.render import BoardRenderer, picture_view
from bot.boards.routing import Click, read_click, route_click
from bot.pictures.cache import PictureCache, picture_key
from bot.pictures.drawing import PictureDrawer
from bot.table.loaded import LoadedGame
from bot.text.widths import clip_words
from cogs.footer import FOOTER_WIDTH


def per_call(function: Callable[[], object], repeat: int) -> float:
    """Return the median microseconds of ``function()`` over ``repeat`` calls (in 20 batches)."""
    batch = max(1, repeat // 20)
    samples = []
    for _ in range(20):
        began = time.perf_counter()
        for _ in range(batch):
            function()
        samples.append((time.perf_counter() - began) / batch)
    return statistics.median(samples) * 1e6


async def per_await(function: Callable[[], Awaitable[object]], repeat: int) -> float:
    """Return the median microseconds of ``await function()`` over ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        await function()
        samples.append(time.perf_counter() - began)
    return statistics.median(samples) * 1e6


async def pictured_render(drawing: BoardRenderer, game: LoadedGame,
                          repeat: int) -> list[tuple[str, float]]:
    """The event loop thread's CPU for a board's body without a picture and with one
    drawn in a worker process every time (no picture cache): what a picture costs the
    loop itself (its key, the hand-off to the worker, the alt text, the wake-ups)."""
    worker = PictureDrawer(PictureCache(0), processes=True)
    drawer, pictures_for = drawing.drawer, drawing.pictures_for
    drawing.drawer, drawing.pictures_for = worker, lambda guild_id: True
    found: list[tuple[str, float]] = []
    try:
        await drawing.render_async(game, edit=True)  # the worker started and warm
        for label, pictured in (("without a picture", False),
                                ("with a picture drawn in the worker", True)):
            began = time.thread_time()
            for _ in range(repeat):
                await drawing.render_async(game, edit=True, pictured=pictured)
            found.append((f"bot: render_async {label} (event loop thread CPU, mean)",
                          (time.thread_time() - began) / repeat * 1e6))
    finally:
        drawing.drawer, drawing.pictures_for = drawer, pictures_for
        await worker.close()
    return found


class NoBoards:
    """Takes a routed click and does nothing, so only the routing is timed."""

    async def handle_click(self, interaction: Any, game_id: int, version: int,
                           action_id: str) -> None:
        """Do nothing."""


async def measure(repeat: int) -> list[tuple[str, float]]:
    """Set up one game a few clicks in and time every piece; return (piece, µs) pairs."""
    rows: list[tuple[str, float]] = []
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-parts-"))
        fake = await stack.enter_async_context(running_fake(same_process=True))
        assert fake.local is not None
        world = json.loads(json.dumps({
            "token": fake.local.token, "guild_id": str(fake.local.guild_id),
            "application_id": str(fake.local.application_id),
            "members": {n: {"id": str(u.id), "member": u.member_payload()}
                        for n, u in fake.local.users.items()},
        }))
        channel = fake.local.channels[fake.local.add_channel("table")]
        bot, probe = await logged_in_bot(stack, fake.api_base, world["token"],
                                         Backend("sqlite", Path(tmp) / "bot.db"))
        bench = Bench(bot, probe, world, [channel], seed=3)
        channel_id = int(channel["id"])
        await bench.start_game(channel_id)
        for _ in range(4):
            await bench.click(channel_id)
            await bench.handlers_done()
        state = bot._connection
        board = bench.boards[channel_id]
        payload = bench.next_click(channel_id)
        assert payload is not None
        game_id = next(iter(bot.boards.messages.shown))
        tables, boards = bot.tables, bot.boards
        game = await tables.load(game_id)
        renderer = boards.renderers[game.row.kind]
        engine = game.engine
        assert game.row.state is not None
        stored = game.row.state
        interaction: discord.Interaction[Any] = discord.Interaction(data=payload, state=state)
        assert interaction.message is not None
        answer_channel = interaction.channel

        rows.append(("discord.py: Interaction(payload) (with its Message)",
                     per_call(lambda: discord.Interaction(data=payload, state=state), repeat)))
        no_boards = NoBoards()
        assert isinstance(read_click(payload["data"]), Click)  # a board click, routed in full
        rows.append(("bot: route_click (reads the custom_id; handle_click a no-op)",
                     await per_await(lambda: route_click(no_boards, interaction), repeat)))
        rows.append(("discord.py: Message(answer's message) (InteractionCallbackResponse)",
                     per_call(lambda: discord.Message(state=state, channel=answer_channel,
                                                      data=board), repeat)))
        rows.append(("bot: tables.load (one read: SELECT, JSON, engine.load)",
                     await per_await(lambda: tables.load(game_id), repeat)))
        rows.append(("bot: engine.load(state JSON)",
                     per_call(lambda: engine.load(stored), repeat)))
        rows.append(("bot: engine.dump(state)",
                     per_call(lambda: engine.dump(game.state), repeat)))
        action = engine.legal_actions(game.state, 0)[0].id
        rows.append((f"bot: engine.apply ({action})",
                     per_call(lambda: engine.apply(game.state, 0, action), repeat)))
        rows.append(("bot: engine.view(state)", per_call(lambda: engine.view(game.state), repeat)))
        rows.append(("bot: renderer.embed(game)", per_call(lambda: renderer.embed(game), repeat)))
        rows.append(("bot: renderer.items(game)", per_call(lambda: renderer.items(game), repeat)))
        line = "Ada chose: " + " · ".join(["Take the Sailor and move on to the sea"] * 3)
        rows.append((f"bot: clip_words of a {len(line)}-letter footer line",
                     per_call(lambda: clip_words(line, FOOTER_WIDTH), repeat)))
        rows.append(("bot: view_of(items) (discord.py's own view and items; panels)",
                     per_call(lambda: view_of(renderer.items(game)), repeat)
                     - per_call(lambda: renderer.items(game), repeat)))
        rows.append(("bot: board_view(items) (a board's view: its components as plain data)",
                     per_call(lambda: board_view(renderer.items(game)), repeat)
                     - per_call(lambda: renderer.items(game), repeat)))
        rows.append(("bot: boards.drawing.render(game) (all of the above three)",
                     per_call(lambda: boards.drawing.render(game), repeat)))
        view = picture_view(game)
        rows.append(("bot: picture_key(kind, picture view, status) (the picture cache's key)",
                     per_call(lambda: picture_key(game.row.kind, view, game.row.status),
                              repeat)))
        rows += await pictured_render(boards.drawing, game, min(repeat, 300))
        body = boards.drawing.render(game)

        def params() -> Any:
            return interaction_message_response_params(type=7, embed=body["embed"],
                                                       view=body["view"])

        rows.append(("discord.py: callback params (embed.to_dict, view.to_components)",
                     per_call(params, repeat)))
        encoded = params().payload
        rows.append((f"discord.py: encode the callback body ({len(discord.utils._to_json(encoded))}"
                     " bytes)", per_call(lambda: discord.utils._to_json(encoded), repeat)))
        answer = {"interaction": {"id": "1", "type": 3}, "resource": {"type": 7,
                                                                       "message": board}}
        raw = json.dumps(answer)
        rows.append(("discord.py: decode the callback answer",
                     per_call(lambda: discord.utils._from_json(raw), repeat)))

        def loaded_again() -> None:
            kept = tables.store.kept_game(game_id)
            assert kept is not None
            tables.core.wrap(kept).legal_actions(0)

        rows.append(("bot: a click starts on a kept game: kept row (its state's engine"
                     " object kept with it), legal actions",
                     per_call(loaded_again, repeat)))
        row = copy.deepcopy(game.row)

        async def save() -> None:
            expected = row.version
            row.version += 1
            await tables.store.save_game(row, expected, action={"seat": 0, "action": action},
                                         actor_id=1)

        rows.append(("bot: store.save_game (one transaction: UPDATE, INSERT, COMMIT)",
                     await per_await(save, min(repeat, 500))))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Time the pieces of a click and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000,
                        help="calls of each piece (default 2000)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    json_library = "orjson" if discord.utils.HAS_ORJSON else "json"
    print(f"The pieces of one Tinker click, each alone.\n{machine()}; discord.py "
          f"{discord.__version__} with {json_library}\n")
    rows = asyncio.run(measure(args.repeat))
    print(table(["piece", "µs per call (median)"], [[name, f"{us:.0f}"] for name, us in rows]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
