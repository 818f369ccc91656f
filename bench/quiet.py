"""Figures of a quiet table: what the players of one whole game see and do.

Plays one whole game of each through the offline fake Discord, with the real bot and
discord.py: Tinker, Sailor, Soldier, Spy and Tin Realm voted by three members, and Steam
to Solar at 2 seats (two people) and at 5 (three people and two computer players). The
players act like people: voters mostly agree on the move, sometimes pick another one,
now and then change their vote, and a voter who is a moment late clicks a board that has
already moved on; seated players act within a few seconds of their turn coming (at the
5-seat table one turn in ``--slow`` takes a minute, longer than the turn notices' grace
time). The clock is the tests' own, moved on by hand: the figures do not depend on the
machine. Per game it prints:

* **clicks**: every click a player made (votes, moves, the game's own buttons);
* **moves**: the decisions made (votes' outcomes, seated people's moves; computer
  players' moves are not counted);
* **wasted**: clicks that did nothing: refused, on a board that had moved on, or a vote
  repeated;
* **private**: private (ephemeral) replies the players got, and how many of them
  answered a wasted click;
* **pings**: notifications the bot's messages caused (each user a message notifies);
* **posted**: messages the bot posted (boards, turn notices; edits not counted);
* for Steam to Solar, the clicks per train run (from "Run train" to the shipment).

Beside them, the quiet-table targets: private replies per voted game at most the voters
plus the changed votes; no ping in a 2-seat game where both act within the grace time;
one click per run.

    python -m bench.quiet
    python -m bench.quiet --seed 7 --slow 10
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import random
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord

from bench.common import table
from bot.games.steam.state import Running
from bot.table.loaded import LoadedGame
from tests.fake_discord import payloads
from tests.fake_discord.driver import Driver, InteractionResult
from tests.fake_discord.server import FakeDiscord
from tests.support import Clock, choice, make_bot, pings_sent

#: The members who play, in seat order.
NAMES = ("alice", "bob", "carol", "dave", "erin")
#: Seconds a seated person takes to act (within the 45 s grace time), and a slow one.
BRISK = (3, 30)
SLOW = 60

_MESSAGES = re.compile(r"/channels/\d+/messages$")
_CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback$")
_FOLLOWUP = re.compile(r"/webhooks/\d+/[^/]+$")


@dataclass
class Figures:
    """What one game cost its players."""

    game: str
    clicks: int = 0
    wasted: int = 0
    voters: int = 0
    changed: int = 0
    runs: int = 0
    run_clicks: int = 0
    slow_turns: int = 0
    private: int = 0
    #: Private replies that answered a wasted click (a board that had moved on).
    wasted_private: int = 0
    pings: int = 0
    posted: int = 0
    moves: int = 0


class Table:
    """One game's bot, fake Discord and clock, and the figures it counts."""

    def __init__(self, fake: FakeDiscord, driver: Driver, bot: Any, clock: Clock,
                 figures: Figures) -> None:
        self.fake, self.driver, self.bot, self.clock = fake, driver, bot, clock
        self.figures = figures

    async def game(self) -> LoadedGame | None:
        """Return the channel's open game, if any."""
        game: LoadedGame | None = await self.bot.tables.open_in_channel(self.fake.channel_id)
        return game

    async def press(self, board: dict[str, Any], action: str, user: str, *,
                    stale: bool = False, opens: bool = False) -> InteractionResult:
        """Click ``action`` on ``board`` as ``user``; count it, and whether it did nothing.

        With ``stale``, ``board`` is the message as the player's phone still shows it,
        a version behind the one the fake stores. With ``opens``, the click opens a
        private panel (the host's controls): it changes no game and is not wasted.
        """
        game = await self.game()
        before = _mark(game)
        if not stale and f":ask.{action}" in str(board.get("components")):
            # a move that asks first (giving up): its button, then the private question's
            asked = await self.driver.click(board, choice(board, f"ask.{action}")[1],
                                            user=user)
            self.figures.clicks += 1
            if not asked.custom_ids:
                return asked
            board, action = asked.message, asked.custom_ids[0].rsplit(":", 1)[-1]
        kind, custom_id, value = choice(board, action)
        if stale:
            stored = self.fake.get_message(board["id"])
            assert stored is not None
            current = next(c for c in payloads.iter_components(stored.get("components") or [])
                           if "custom_id" in c and not c.get("disabled"))
            payload = self.fake.component_payload(
                stored, current["custom_id"], user=user,
                values=[current["options"][0]["value"]] if current["type"] == 3 else None)
            payload["data"]["custom_id"] = custom_id
            payload["data"]["component_type"] = 2 if kind == "button" else 3
            if kind == "button":
                payload["data"].pop("values", None)
            else:
                payload["data"]["values"] = [value]
            payload["message"] = board
            result = await self.driver.feed(payload)
        elif kind == "button":
            result = await self.driver.click(board, custom_id, user=user)
        else:
            result = await self.driver.select(board, custom_id, [value], user=user)
        await self.driver.settle()
        self.figures.clicks += 1
        if not opens and game is not None and _mark(
                await self.bot.tables.load(game.id)) == before:
            self.figures.wasted += 1
            self.figures.wasted_private += result.response_type == 4 and result.ephemeral
        return result

    def finish(self) -> Figures:
        """Count what the fake received: private replies, pings, messages posted."""
        figures = self.figures
        figures.pings = len(pings_sent(self.fake))
        for request in self.fake.requests:
            if request.method != "POST" or not 200 <= request.status < 300:
                continue
            body = request.json if isinstance(request.json, dict) else {}
            if _MESSAGES.search(request.path):
                figures.posted += 1
            elif _CALLBACK.search(request.path) and body.get("type") == 4:
                if _private(body.get("data") or {}):
                    figures.private += 1
                else:
                    figures.posted += 1
            elif _FOLLOWUP.search(request.path):
                if _private(body):
                    figures.private += 1
                else:
                    figures.posted += 1
        return figures


def _private(data: dict[str, Any]) -> bool:
    return bool(int(data.get("flags") or 0) & payloads.MESSAGE_FLAG_EPHEMERAL)


def _mark(game: LoadedGame | None) -> tuple[Any, ...]:
    """What a click that did something changes: the version, or the votes standing."""
    if game is None:
        return ()
    poll = game.data.poll
    ballots = (poll.cast, tuple(sorted(poll.tally.items()))) if poll else ()
    return game.row.version, game.row.status, ballots


async def _open(fake: FakeDiscord, driver: Driver, tmp: Path, name: str, cogs: Sequence[str],
                clock: Clock, rng: random.Random) -> Table:
    bot = await driver.login(make_bot(tmp, cogs=tuple(cogs), clock=clock))
    deal = rng.randrange(2**31)
    bot.tables.core.seeds = lambda: deal  # the same deal for the same --seed
    return Table(fake, driver, bot, clock, Figures(name))


async def voted_game(fake: FakeDiscord, driver: Driver, tmp: Path, kind: str, title: str,
                     rng: random.Random) -> Figures:
    """One whole solo game voted by three members."""
    clock = Clock()
    table_ = await _open(fake, driver, tmp, title, (f"cogs.{kind}",), clock, rng)
    voters = list(NAMES[:3])
    table_.figures.voters = len(voters)
    start = await driver.slash(kind, "start", {"players": "vote"}, user=voters[0])
    board_id = start.message["id"] if start.message else None
    assert board_id is not None
    while (game := await table_.game()) is not None and table_.figures.moves < 2000:
        version = game.row.version
        best = game.engine.computer_action(game.state, 0)
        others = [a.id for a in game.legal_actions(0) if a.id != best and a.id != "give_up"]
        rng.shuffle(voters)
        shown = copy.deepcopy(fake.get_message(board_id))  # the board as the voters saw it
        assert shown is not None
        for index, name in enumerate(voters):
            board = fake.get_message(board_id)
            assert board is not None
            now = await table_.game()
            late = now is None or now.row.version != version
            if late and rng.random() > 0.15:
                break  # the board moved on before this voter clicked: most do not click
            pick = best if rng.random() < 0.8 or not others else rng.choice(others)
            await table_.press(shown if late else board, pick, name, stale=late)
            if index == 0 and others and rng.random() < 0.08 and not late:
                board = fake.get_message(board_id)
                current = await table_.game()
                if current is not None and current.row.version == version:
                    other = rng.choice(others) if pick == best else best
                    await table_.press(board, other, name)  # a change of mind
                    table_.figures.changed += 1
        current = await table_.game()
        if current is not None and current.row.version == version:
            clock.advance(31)  # no majority: the window closes
            await table_.bot.deadlines.run_due()
            await driver.settle()
            current = await table_.game()
            if current is not None and current.row.version == version:
                # only a give-up had votes: the others join it
                for name in voters:
                    board = fake.get_message(board_id)
                    assert board is not None
                    if (await table_.game()) is None or (
                            await table_.game()).row.version != version:
                        break
                    await table_.press(board, best, name)
        table_.figures.moves += 1
    return table_.finish()


async def steam_game(fake: FakeDiscord, driver: Driver, tmp: Path, people: int,
                     computers: int, rng: random.Random, slow_every: int) -> Figures:
    """One whole Steam to Solar game; people act within the grace time but one turn in
    ``slow_every`` (0: never)."""
    clock = Clock()
    seats = people + computers
    table_ = await _open(fake, driver, tmp, f"Steam to Solar, {seats} seats",
                         ("cogs.steam",), clock, rng)
    names = NAMES[:people]
    for name in names:
        if name not in fake.users:
            fake.add_user(name)
    result = await driver.slash("steam", "new", {"first": "me (the host)"}, user=names[0])
    board = result.message
    assert board is not None
    for name in names[1:]:
        board = (await table_.press(board, "lobby.join", name)).message
    for _ in range(computers):
        board = (await table_.press(board, "lobby.computer", names[0])).message
    panel = await table_.press(board, "lobby.panel", names[0], opens=True)
    await table_.press(panel.message, "lobby.start", names[0])
    turn_user: int | None = None
    running = False
    while (game := await table_.game()) is not None and table_.figures.moves < 3000:
        user = game.person_to_act()
        if user is None:
            clock.advance(2)
            await table_.bot.deadlines.run_due()
            await driver.settle()
            if (again := await table_.game()) is not None and again.row.version == game.row.version:
                await table_.bot.boards.resume_computers()
                await driver.settle()
            continue
        if user != turn_user:  # a new turn: the person takes a moment
            turn_user = user
            slow = slow_every and rng.randrange(slow_every) == 0
            table_.figures.slow_turns += bool(slow)
            wait = SLOW if slow else rng.randint(*BRISK)
            for _ in range(wait // 5):
                clock.advance(5)
                await table_.bot.deadlines.run_due()
            await driver.settle()
        game = await table_.game()
        if game is None:
            break
        seat = game.to_act()
        assert seat is not None
        action = game.engine.computer_action(game.state, seat)
        name = next(n for n in names if fake.user(n).id == user)
        if action.startswith("run:"):  # a person takes the train's one-click run if offered
            train = action.split(":")[1]
            action = next((a.id for a in game.legal_actions(seat)
                           if a.id.startswith(f"go:{train}:")), action)
        if action.startswith(("run:", "go:")):
            table_.figures.runs += 1
            running = True
        if running:
            table_.figures.run_clicks += 1
        board = fake.get_message(game.row.board_message_id)
        assert board is not None
        await table_.press(board, action, name)
        after = await table_.game()
        running = after is not None and isinstance(after.state.pending, Running)
        table_.figures.moves += 1
        if after is not None and after.person_to_act() != user:
            turn_user = None
    return table_.finish()


async def main(seed: int, slow_every: int) -> list[Figures]:
    """Play the four games; return their figures."""
    rng = random.Random(seed)
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        games = (
            ("voted", "tinker", "Tinker (3 voters)"),
            ("voted", "tinrealm", "Tin Realm (3 voters)"),
            ("steam", 2, 0),
            ("steam", 3, 2),
        )
        for what, a, b in games:
            (tmp / str(len(figures))).mkdir()
            fake = FakeDiscord()
            await fake.start()
            previous = discord.http.Route.BASE
            discord.http.Route.BASE = fake.api_base
            for name in NAMES:
                if name not in fake.users:
                    fake.add_user(name)
            driver = Driver(fake)
            try:
                place = tmp / str(len(figures))
                if what == "voted":
                    figures.append(await voted_game(fake, driver, place, str(a), str(b), rng))
                else:
                    figures.append(await steam_game(
                        fake, driver, place, int(a), int(b), rng,
                        slow_every if int(a) + int(b) > 2 else 0))
                if fake.limit_violations:
                    raise SystemExit(f"Discord would refuse: {fake.limit_violations[0]}")
            finally:
                await driver.close()
                discord.http.Route.BASE = previous
                await fake.stop()
    return figures


def report(figures: list[Figures]) -> str:
    """Return the figures as a table, with the targets beside them."""
    rows = []
    for f in figures:
        if f.voters:
            target = (f"private replies to votes ≤ {f.voters + f.changed} (voters + changed "
                      "votes)")
            met = f.private - f.wasted_private <= f.voters + f.changed
        elif "2 seats" in f.game:
            target = "pings 0 (both act within the grace time)"
            met = f.pings == 0
        else:
            target = f"pings ≤ {f.slow_turns} (turns slower than the grace time)"
            met = f.pings <= f.slow_turns
        per_run = f"{f.run_clicks / f.runs:.1f} (target 1)" if f.runs else "—"
        rows.append([f.game, str(f.moves), str(f.clicks), str(f.wasted),
                     f"{f.private} ({f.wasted_private})", str(f.pings), str(f.posted),
                     per_run, f"{target}: {'met' if met else 'NOT met'}"])
    return table(["game", "moves", "clicks", "wasted", "private (to wasted clicks)",
                  "pings", "posted", "clicks per run", "target"], rows)


def run() -> None:
    """Parse the arguments, play, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=23, help="the players' choices (default 23)")
    parser.add_argument("--slow", type=int, default=10,
                        help="at the 5-seat table one turn in this many is slower than the "
                             "grace time (0: none; default 10)")
    args = parser.parse_args()
    print(report(asyncio.run(main(args.seed, args.slow))))


if __name__ == "__main__":
    run()
