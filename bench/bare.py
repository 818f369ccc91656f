"""Benchmark: our board click against a bare discord.py bot sending the same board (#16).

``python -m bench.bare [--games 1000] [--clicks 300] [--seconds 2] [--rounds 1]``, from
the repository root.

The bare bot is a plain ``discord.Client`` with one ``on_interaction`` listener that
answers every component click with ``InteractionResponse.edit_message`` and a board built
before the clicks: the boards our bot answered with in the same round (their embeds and
components), in the order ours sent them, one per click in turn (so it sends the same
boards in the same proportions: a board's weight, its buttons and their emoji, changes
with the game), and (boards with their picture, the default) a Tinker board picture
drawn once, attached anew to every answer as ``board.png``. It has no database, no
engine, no rendering, no locks and no DynamicItems. It is measured exactly as our bot in
``bench/clicks.py`` (same fake Discord in its own process, same interactions fed to
discord.py's parser, same probes): one click at a time (median, p99, CPU of this process
per click) and every board clicking at once (clicks per second and per CPU-second).

Each round runs our bot (move clicks: each click is a move and answers with the edited
board), then the bare bot, each with a fresh fake; rounds alternate to show the noise.
Printed: both, and our click median ÷ the bare one (target at most 1.6x) and our clicks
per CPU-second ÷ the bare one (target at least 0.6x).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import logging
import os
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import aiohttp
import discord
from discord.components import _component_factory
from discord.ui.view import _component_to_item

from bench.clicks import Bench, Measure, Probe, SizeResult, ms, run_size, running_fake
from bench.common import add_collector_option, apply_collector, machine, percentile, table
from bot.games import registry
from bot.pictures import FILENAME, render_board

#: A prebuilt board: its embed and its (stopped) view.
Board = tuple[discord.Embed, discord.ui.View]


class BareBot(discord.Client):
    """A minimal bot: each component click is answered with the next prebuilt board."""

    def __init__(self, boards: Sequence[Board], picture: bytes) -> None:
        super().__init__(intents=discord.Intents.none() | discord.Intents(guilds=True))
        assert boards, "a bare bot needs a board to answer with"
        self.boards = list(boards)
        #: How many answers were sent: the next one is ``boards[turn % len(boards)]``.
        self.turn = 0
        self.picture = picture

    def next_board(self) -> Board:
        """Return the board the next answer sends (in turn, from the first again at the
        end)."""
        board = self.boards[self.turn % len(self.boards)]
        self.turn += 1
        return board

    def files(self) -> list[discord.File]:
        """Return the board's picture as a fresh attachment (none without a picture)."""
        if not self.picture:
            return []
        return [discord.File(io.BytesIO(self.picture), filename=FILENAME)]

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a component click with the board (UPDATE_MESSAGE), and a start command
        (a board with no move left is started again, as with ours) with a new one."""
        if interaction.type is discord.InteractionType.application_command:
            embed, view = next((b for b in self.boards if _playable(b)), self.boards[0])
            await interaction.response.send_message(embed=embed, view=view,
                                                    files=self.files())
            return
        embed, view = self.next_board()
        if interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(embed=embed, view=view,
                                                    attachments=self.files())


def _playable(board: Board) -> bool:
    """Whether a board offers a move (not only the table's own buttons, as an ended one)."""
    return any(":table." not in (getattr(item, "custom_id", None) or ":table.")
               for item in board[1].children)


def prebuilt(bodies: Sequence[dict[str, Any]], with_picture: bool) -> tuple[
        list[Board], bytes]:
    """Return the boards of the board bodies we sent, and the picture they carry."""
    picture = b""
    if with_picture:
        engine = registry.engine("tinker")
        state = engine.new(1, 1, {})
        picture = render_board("tinker", engine.view(state), status="active")
    return [_board(body, with_picture) for body in bodies], picture


def _board(body: dict[str, Any], with_picture: bool) -> Board:
    """Return the embed and the (stopped) view of one board body we sent."""
    data = body["data"]
    embed = discord.Embed.from_dict(data["embeds"][0])
    view = discord.ui.View(timeout=None)
    for row, action_row in enumerate(data.get("components") or []):
        for component in action_row.get("components", []):
            made = _component_factory(component)
            assert made is not None, component
            item = _component_to_item(made)
            item.row = row
            view.add_item(item)
    view.stop()  # as our boards: discord.py keeps no stopped view
    embed.set_image(url=f"attachment://{FILENAME}" if with_picture else None)
    return embed, view


BotMaker = Callable[[Sequence[Board], bytes], "BareBot"]
"""Makes the bot to measure from the prebuilt boards (the bare bot, or one built on it)."""


async def run_bare(games: int, alone: int, seconds: float, seed: int,
                   bodies: Sequence[dict[str, Any]], with_picture: bool, *,
                   make: BotMaker | None = None, measure: Measure | None = None) -> SizeResult:
    """Measure the bare bot with ``games`` boards, as ``bench.clicks`` measures ours.

    ``bodies`` are the board bodies our bot answered with, in order (the bare bot
    answers with them in turn, from the first once its warm-up is done); ``make``
    builds another bot on the bare one's boards (:class:`BareBot` by default);
    ``measure``, as for :func:`bench.clicks.run_size`, replaces the measured phases.
    """
    async with contextlib.AsyncExitStack() as stack:
        fake = await stack.enter_async_context(running_fake(False))
        session = await stack.enter_async_context(aiohttp.ClientSession())
        world = await fake.call(session, "GET", "/bench/world")
        channels = await fake.call(session, "POST", "/bench/channels", {"count": games})
        previous = discord.http.Route.BASE
        discord.http.Route.BASE = fake.api_base
        stack.callback(setattr, discord.http.Route, "BASE", previous)
        client = (make or BareBot)(*prebuilt(bodies, with_picture))
        probe = Probe()
        client.http.http_trace = probe.trace()
        await client.login(world["token"])
        stack.push_async_callback(client.close)
        probe.install(client)
        stack.callback(probe.close)
        bench = Bench(client, probe, world, channels, seed)
        for channel_id in bench.channels:
            embed, view = client.next_board()
            with discord.http.handle_message_parameters(
                embed=embed, view=view, files=client.files() or discord.utils.MISSING,
            ) as params:
                bench.boards[channel_id] = await client.http.send_message(
                    channel_id, params=params)
        await bench.alone(max(200, games))  # warm-up, as for our bot
        client.turn = 0  # the measured clicks answer with ours' boards from the first
        bench.result = result = SizeResult(games, kind="bare", backend="none")
        bench.bodies.clear()
        if measure is None:
            await bench.alone(alone)
            await bench.loaded(seconds)
        else:
            await measure(bench, fake)
        result.bodies = list(bench.bodies)
        return result


def row(name: str, r: SizeResult) -> list[object]:
    """Return one result's row of the comparison table."""
    return [name, r.games, len(r.alone), ms(statistics.median(r.alone)),
            ms(percentile(r.alone, 0.99)), ms(r.alone_cpu / len(r.alone)), r.load_clicks,
            f"{r.load_clicks / r.load_seconds:.0f}", f"{r.load_clicks / r.load_cpu:.0f}",
            f"{r.updates / max(r.clicks, 1):.2f}"]


def main(argv: list[str] | None = None) -> int:
    """Run our bot and the bare one in alternating rounds; print both and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="boards clicked, one per channel (default 1000)")
    parser.add_argument("--clicks", type=int, default=300,
                        help="clicks measured one at a time (default 300)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="seconds of every board clicking at once (default 2)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of ours then the bare one (default 1)")
    parser.add_argument("--images", choices=("on", "off"), default="on",
                        help="boards with their picture (default on; the bare bot attaches"
                             " one drawn beforehand)")
    parser.add_argument("--seed", type=int, default=1)
    add_collector_option(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    collector = apply_collector(args.gc)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings
    images = args.images == "on"
    print(f"Our click against a bare discord.py bot, {args.games} boards, fake Discord in its"
          f" own process; boards {'with' if images else 'without'} their picture.")
    print(f"{machine()}; discord.py {discord.__version__}; {collector}; "
          f"load average before: {os.getloadavg()[0]:.2f}\n")
    rows, ratios = [], []
    for round_no in range(1, args.rounds + 1):
        ours = asyncio.run(run_size(args.games, args.clicks, args.seconds, args.seed, None,
                                    False, kind="move", images=images))
        assert ours.bodies, "our bot sent no board"
        bare = asyncio.run(run_bare(args.games, args.clicks, args.seconds, args.seed,
                                    ours.bodies, images))
        rows += [row(f"ours, round {round_no}", ours), row(f"bare, round {round_no}", bare)]
        median = statistics.median(ours.alone) / statistics.median(bare.alone)
        cpu = (ours.load_clicks / ours.load_cpu) / (bare.load_clicks / bare.load_cpu)
        alone_cpu = (ours.alone_cpu / len(ours.alone)) / (bare.alone_cpu / len(bare.alone))
        ratios.append([round_no, f"{median:.2f}x", "yes" if median <= 1.6 else "**no**",
                      f"{cpu:.2f}x", "yes" if cpu >= 0.6 else "**no**", f"{alone_cpu:.2f}x"])
    print(table(["bot", "boards", "clicks", "click median ms", "click p99 ms",
                 "CPU ms per click, one at a time", "clicks at once", "clicks/s",
                 "clicks per CPU-second", "board edits per click"], rows))
    print()
    print(table(["round", "our median ÷ bare (target ≤ 1.6x)", "met?",
                 "our clicks per CPU-second ÷ bare (target ≥ 0.6x)", "met?",
                 "our CPU per click ÷ bare, one at a time"], ratios))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}; {time.strftime('%Y-%m-%d %H:%M')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
