"""Drill: shards 0 and 1 of 2 in two bot processes over one database.

Tinker games (``players: fast``) in guilds of both shards are clicked through the fake
gateway, which sends each guild's events only to the sessions of the shard that owns it.
Every request the bot processes send names its process (``tests/drills/shard_bots.py``),
so the fake knows who answered each click and who edited each board.

1. both processes serve their own guilds' clicks;
2. the process of shard 1 is killed with SIGKILL in the middle of its clicks; shard 0's
   process keeps serving, and a click in a shard 1 guild reaches no one;
3. shard 1's process is started again and its boards work (one left behind is healed);
4. a deployment overlap: a new process for shard 0 starts while the old one still runs,
   so every shard 0 click is delivered to both (two sessions of one shard both receive
   the guild's events, as on Discord); the old one is then stopped with SIGTERM.

Afterwards, in the database: every action log complete, every state replays, every
logged move is one sent click (none applied twice, none invented), every acknowledged
move is there; at the fake: each click answered at most once, only ever by a process of
its guild's shard, and every board edit came from such a process.

PostgreSQL when it is installed (always in CI); otherwise one SQLite file shared by the
processes, and the output says so. Every wait is bounded and on something observable.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import discord.http
import pytest

from tests.ci import IN_CI
from tests.db.pg_server import find_bin
from tests.drills.shard_bots import (
    TAG_ENV,
    CallbackAttempt,
    StoredGame,
    TaggedFake,
    check_games,
    read_postgres,
    read_sqlite,
)
from tests.fake_discord.payloads import iter_components
from tests.fake_discord.process import BotProcess, bot_process

SHARDS = 2
GUILDS_PER_SHARD = 2
CHANNELS_PER_GUILD = 3
CLICKS_BEFORE_KILL = 16
"""Answered clicks per shard before shard 1's process is killed."""
CLICKS_DURING_OUTAGE = 16
"""Answered shard 0 clicks while shard 1 has no process."""
CLICKS_AFTER_RESTART = 16
"""Answered shard 1 clicks after its process started again."""
CLICKS_IN_OVERLAP = 24
"""Answered shard 0 clicks while the old and the new process both run shard 0."""
CLICKS_AFTER_OVERLAP = 8
"""Answered shard 0 clicks once the old process has gone."""
WAIT = 60.0
"""Longest wait for any one thing (the machine may be shared and slow)."""

FAST = [{"name": "players", "type": 3, "value": "fast"}]
CHANNEL_PATH = re.compile(r"^/channels/(\d+)/")
REFUSALS = {"restarting": "The bot is restarting", "out of date": "That board is out of date"}
"""The private refusals the drill tells apart, by how their text starts."""


@dataclass
class Database:
    """The one database every process uses."""

    kind: str
    """``postgresql`` or ``sqlite``."""
    env: dict[str, str]
    target: str

    async def games(self) -> list[StoredGame]:
        """Every game and its action log."""
        if self.kind == "postgresql":
            return await read_postgres(self.target)
        return read_sqlite(Path(self.target))


@pytest.fixture
def shared_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh PostgreSQL database (required in CI), else one SQLite file for all processes."""
    sqlite_path = str(tmp_path / "shared.db")
    sqlite_env = {"DATABASE_URL": "", "DATABASE_PATH": sqlite_path}
    if IN_CI or find_bin() is not None:
        try:
            url: str = request.getfixturevalue("pg_url")
        except pytest.skip.Exception as exc:  # never in CI: pg_server fails there instead
            print(f"\nPostgreSQL did not start ({exc}); using a shared SQLite file")
        else:
            env = {"DATABASE_URL": url, "DATABASE_PATH": str(tmp_path / "unused.db")}
            yield Database("postgresql", env, url)
            return
    yield Database("sqlite", sqlite_env, sqlite_path)


@pytest.fixture
async def fake() -> AsyncIterator[TaggedFake]:
    """A running :class:`TaggedFake`, checked for refused bodies and unknown routes after."""
    previous = discord.http.Route.BASE
    tagged = TaggedFake()
    await tagged.start()
    discord.http.Route.BASE = tagged.api_base
    try:
        yield tagged
    finally:
        discord.http.Route.BASE = previous
        await tagged.stop()
    assert not tagged.limit_violations, [str(v) for v in tagged.limit_violations]
    assert not tagged.unhandled, [f"{r.method} {r.path}" for r in tagged.unhandled]


@dataclass
class Game:
    """One Tinker game in one channel, and its player's choices."""

    channel_id: int
    shard: int
    chooser: random.Random
    board: int = 0
    """The board message id."""


@dataclass
class Click:
    """One click the drill sent."""

    interaction_id: int
    game: Game
    version: int
    action: str
    phase: str
    delivered: int
    """How many gateway sessions the fake sent it to."""


@dataclass
class Drill:
    """The fake, the games, the clicks, and the players clicking them."""

    fake: TaggedFake
    games: list[Game]
    phase: str = "start"
    clicks: list[Click] = field(default_factory=list)
    answered: Counter[int] = field(default_factory=Counter)
    """Answered clicks by shard."""
    players: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    stopping: set[int] = field(default_factory=set)
    """Shards whose players send no new click."""

    def moves(self, game: Game) -> list[tuple[str, list[str] | None, int, str]]:
        """Enabled game moves on the board as stored: custom_id, values, version, action."""
        message = self.fake.get_message(game.board) or {}
        found: list[tuple[str, list[str] | None, int, str]] = []
        for c in iter_components(message.get("components") or []):
            custom_id = str(c.get("custom_id", ""))
            if c.get("disabled") or not custom_id.startswith(("g1:", "s1:")):
                continue
            _, _, version, action = custom_id.split(":", 3)
            if c.get("type") == 2 and not action.startswith(("ask.", "table.")):
                found.append((custom_id, None, int(version), action))
            elif c.get("type") == 3:
                for option in c.get("options") or []:
                    value = str(option["value"])
                    if not value.startswith(("ask.", "table.")):
                        found.append((custom_id, [value], int(version), value))
        return found

    async def click(self, game: Game) -> Click | None:
        """Click a random move on the game's board; None when it has none (the game ended)."""
        moves = self.moves(game)
        if not moves:
            return None
        custom_id, values, version, action = game.chooser.choice(moves)
        payload = self.fake.component_payload(game.board, custom_id, values=values, user="bob")
        click = Click(int(payload["id"]), game, version, action, self.phase, 0)
        self.clicks.append(click)
        click.delivered = await self.fake.dispatch_interaction(payload)
        return click

    async def play(self, game: Game) -> None:
        """Click the game's board again as soon as each click is answered, until stopped."""
        while game.shard not in self.stopping:
            click = await self.click(game)
            if click is None:
                return
            record = self.fake.interactions[click.interaction_id]
            try:
                await self.fake.wait_until(lambda r=record: r.response_type is not None, WAIT)
            except TimeoutError:
                raise AssertionError(f"{click} was not answered within {WAIT} s") from None
            self.answered[game.shard] += 1
            if self.phase == "old stopping":
                # A stopping process answers at once without moving: pace the players so
                # the games last until the new process is alone.
                await asyncio.sleep(0.02)

    def start_players(self, shard: int) -> None:
        """Let the players of every game of ``shard`` click."""
        self.stopping.discard(shard)
        for game in self.games:
            if game.shard == shard:
                self.players[game.channel_id] = asyncio.create_task(self.play(game))

    async def stop_players(self, shard: int, *, cancel: bool = False) -> None:
        """Stop the players of ``shard`` once their click in flight is answered (or at once)."""
        self.stopping.add(shard)
        tasks = [self.players.pop(g.channel_id) for g in self.games
                 if g.shard == shard and g.channel_id in self.players]
        for task in tasks:
            if cancel:
                task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, WAIT)

    async def until(self, shard: int, count: int, what: str) -> None:
        """Wait until ``count`` clicks of ``shard`` have been answered (players must run)."""
        def reached() -> bool:
            if self.answered[shard] >= count:
                return True
            ended = all(self.players[g.channel_id].done() for g in self.games
                        if g.shard == shard and g.channel_id in self.players)
            assert not ended, f"every game of shard {shard} ended before {what}"
            return False

        await self.wait(reached, what)

    async def wait(self, condition: Callable[[], bool], what: str) -> None:
        """Poll ``condition`` (also things the fake does not announce), bounded by WAIT."""
        deadline = time.monotonic() + WAIT
        while True:
            for task in self.players.values():
                if task.done():
                    task.result()  # a player that failed fails the drill
            if condition():
                return
            assert time.monotonic() < deadline, f"{what} did not happen within {WAIT} s"
            await asyncio.sleep(0.01)


async def _session(fake: TaggedFake, proc: BotProcess, known: set[str]) -> str:
    """Wait until a gateway session not in ``known`` is connected; return its id."""
    def fresh() -> list[str]:
        return [s.session_id for s in fake.gateway.connected if s.session_id not in known]

    try:
        await fake.wait_until(lambda: bool(fresh()), WAIT)
    except TimeoutError:
        raise AssertionError(f"the bot never connected:\n{proc.text}") from None
    (session,) = fresh()
    return session


def _clean(proc: BotProcess) -> None:
    assert "Traceback" not in proc.text and " ERROR " not in proc.text, proc.text


async def test_two_shard_processes_kill_restart_and_overlap(
    fake: TaggedFake, shared_database: Database, tmp_path: Path
) -> None:
    """Shards in two processes: each serves only its guilds, survives the other's SIGKILL,
    restarts, and a deployment overlap applies every click exactly once."""
    began = time.monotonic()
    fake.response_deadline = None  # about processes and shards, not Discord's 3 s deadline
    games = []
    for shard in range(SHARDS):
        for g in range(GUILDS_PER_SHARD):
            names = [f"table-{i}" for i in range(CHANNELS_PER_GUILD)]
            guild = fake.add_guild(f"shard {shard} guild {g}", shard=shard, shard_count=SHARDS,
                                   channels=names)
            for channel_id in guild.channel_ids:
                games.append(Game(channel_id, shard, random.Random(len(games))))
    drill = Drill(fake, games)
    shard_of_tag: dict[str, int] = {}
    session_of_tag: dict[str, str] = {}

    @contextlib.asynccontextmanager
    async def process(shard: int, tag: str) -> AsyncIterator[BotProcess]:
        env = {
            **shared_database.env,
            "SHARD_COUNT": str(SHARDS),
            "SHARD_IDS": str(shard),
            "BOARD_IMAGES": "off",
            "LOG_LEVEL": "INFO",
            "HEALTH_FILE": str(tmp_path / f"{tag}.health.json"),
            TAG_ENV: tag,
        }
        shard_of_tag[tag] = shard
        known = set(fake.gateway.sessions)
        async with bot_process(fake, "-m", "tests.drills.shard_bots", env=env) as proc:
            session_of_tag[tag] = await _session(fake, proc, known)
            yield proc

    async with contextlib.AsyncExitStack() as stack:
        old0 = await stack.enter_async_context(process(0, "shard0-old"))
        first1 = await stack.enter_async_context(process(1, "shard1-first"))

        # Start every game in its own channel.
        starts = []
        for game in games:
            payload = fake.slash_payload("tinker", path=("start",), options=FAST, user="alice",
                                         channel_id=game.channel_id)
            starts.append((game, fake.interactions[int(payload["id"])]))
            await fake.dispatch_interaction(payload)
        for game, record in starts:
            await fake.wait_until(lambda r=record: r.response_type is not None, WAIT)
            # at once, or on a loaded machine "thinking…" and then the board
            assert record.response_type in (4, 5) and record.original_message_id, record
            game.board = record.original_message_id
            await fake.wait_until(lambda g=game: bool(drill.moves(g)), WAIT)

        # 1. Both shards clicked; 2. shard 1's process killed while its clicks are in flight.
        drill.phase = "both"
        drill.start_players(0)
        drill.start_players(1)
        await drill.until(0, CLICKS_BEFORE_KILL, "shard 0 clicks before the kill")
        await drill.until(1, CLICKS_BEFORE_KILL, "shard 1 clicks before the kill")
        drill.stopping.add(1)  # no new shard 1 click; those sent stay in flight
        first1.process.send_signal(signal.SIGKILL)
        await first1.process.wait()
        drill.phase = "outage"
        # Until the fake has read everything the dead process sent, boards may still change.
        await drill.wait(lambda: not fake.open_ports_of("shard1-first")
                         and session_of_tag["shard1-first"] not in
                         {s.session_id for s in fake.gateway.connected},
                         "the fake closing the killed process's connections")
        await drill.stop_players(1, cancel=True)
        in_flight = [c for c in drill.clicks if c.game.shard == 1
                     and fake.interactions[c.interaction_id].response_type is None]
        unserved = await drill.click(next(g for g in games if g.shard == 1))
        assert unserved is not None and unserved.delivered == 0  # no session has shard 1
        outage_start = drill.answered[0]
        await drill.until(0, outage_start + CLICKS_DURING_OUTAGE, "shard 0 clicks in the outage")
        await drill.stop_players(0)

        # 3. Shard 1 started again.
        drill.phase = "restarted"
        again1 = await stack.enter_async_context(process(1, "shard1-again"))
        restart_start = drill.answered[1]
        drill.start_players(1)
        await drill.until(1, restart_start + CLICKS_AFTER_RESTART, "shard 1 clicks after restart")
        await drill.stop_players(1)

        # 4. Deployment overlap: a new shard 0 process beside the old one, then the old stops.
        new0 = await stack.enter_async_context(process(0, "shard0-new"))
        drill.phase = "overlap"
        overlap_start = drill.answered[0]
        drill.start_players(0)
        await drill.until(0, overlap_start + CLICKS_IN_OVERLAP, "shard 0 clicks in the overlap")
        drill.phase = "old stopping"
        old0.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(old0.process.wait(), WAIT)
        old_session = session_of_tag["shard0-old"]
        await drill.wait(lambda: old_session not in {s.session_id for s in fake.gateway.connected},
                         "the old shard 0 session closing")
        drill.phase = "new alone"
        alone_start = drill.answered[0]
        await drill.until(0, alone_start + CLICKS_AFTER_OVERLAP, "shard 0 clicks after overlap")
        await drill.stop_players(0)
        assert old0.process.returncode == 0, old0.text
        assert "stopped" in old0.text
    processes = time.monotonic() - began
    for proc in (old0, first1, again1, new0):
        _clean(proc)

    stored = await shared_database.games()
    check_games(stored)
    _verify(drill, stored, shard_of_tag, session_of_tag, in_flight, unserved, shared_database,
            processes)


def _verify(
    drill: Drill,
    stored: list[StoredGame],
    shard_of_tag: dict[str, int],
    session_of_tag: dict[str, str],
    in_flight: list[Click],
    unserved: Click,
    database: Database,
    seconds: float,
) -> None:
    """Check the clicks against the database and the fake; print the figures."""
    fake = drill.fake
    by_channel = {game.channel_id: game for game in stored}
    assert set(by_channel) == {g.channel_id for g in drill.games}
    guild_shard = {
        channel_id: shard
        for shard in range(SHARDS)
        for guild in fake.guilds.values() if guild.shard(SHARDS) == shard
        for channel_id in guild.channel_ids
    }

    # Nothing served by a process of the wrong shard: answers and every channel request.
    for record in fake.requests:
        tag = fake.tag_of(record)
        match = CHANNEL_PATH.match(record.path)
        if match and int(match.group(1)) in guild_shard:
            assert shard_of_tag[tag] == guild_shard[int(match.group(1))], (tag, record.path)
    for attempt in fake.attempts:
        channel_id = fake.interactions[attempt.interaction_id].channel_id
        assert shard_of_tag[attempt.tag] == guild_shard[channel_id], attempt

    # Who was sent each click, and who answered it.
    expected_servers = {
        ("both", 0): {"shard0-old"}, ("both", 1): {"shard1-first"},
        ("outage", 0): {"shard0-old"}, ("outage", 1): set(),
        ("restarted", 1): {"shard1-again"},
        ("overlap", 0): {"shard0-old", "shard0-new"},
        ("old stopping", 0): {"shard0-old", "shard0-new"},
        ("new alone", 0): {"shard0-new"},
    }
    tag_of_session = {session: tag for tag, session in session_of_tag.items()}
    answered_by: Counter[str] = Counter()
    second_answers = 0
    refused: Counter[str] = Counter()
    clicks_at: dict[tuple[int, int], list[Click]] = {}
    for click in drill.clicks:
        servers = expected_servers[(click.phase, click.game.shard)]
        given = {tag_of_session[s] for s in fake.sessions_given(click.interaction_id)}
        if click.phase == "old stopping":  # the old session may close as a click is sent
            assert "shard0-new" in given and given <= servers, (click, given)
        else:
            assert given == servers, (click, given)
        assert click.delivered == len(given)
        if click.delivered:
            clicks_at.setdefault((click.game.channel_id, click.version), []).append(click)
        attempts = fake.answers(click.interaction_id)
        accepted = [a for a in attempts if a.status < 300]
        assert len(accepted) <= 1, attempts  # the fake takes one answer per interaction
        assert all(a.tag in servers for a in attempts), (click, attempts)
        second_answers += sum(1 for a in attempts if a.code == 40060)
        if not accepted:
            # Only clicks nobody could answer: in flight at the kill, or sent to no one.
            assert click in in_flight or click is unserved, (click, attempts)
            continue
        answer = accepted[0]
        answered_by[answer.tag] += 1
        if answer.response_type != 7:
            replies = fake.ephemeral.get(click.interaction_id, [])
            text = " ".join(str(m.get("content")) for m in replies)
            refused[next((k for k, v in REFUSALS.items() if text.startswith(v)), "other")] += 1

    # Every logged move is one click sent on the board it was made from; none twice.
    applied = 0
    for game in drill.games:
        row = by_channel[game.channel_id]
        for seq, action in row.moves().items():
            candidates = clicks_at.get((game.channel_id, seq - 1), [])
            assert action in {c.action for c in candidates}, (game, seq, action)
            applied += 1
        assert len(row.moves()) == row.version, row  # no entry that no click made

    # Every acknowledged move is kept; the overlap applied every click exactly once.
    acknowledged = overlap_applied = 0
    overlap = [c for c in drill.clicks if c.phase in ("overlap", "old stopping", "new alone")]
    for click in drill.clicks:
        accepted_answers: list[CallbackAttempt] = [
            a for a in fake.answers(click.interaction_id) if a.status < 300
        ]
        if not accepted_answers or accepted_answers[0].shown_version is None:
            continue
        shown = accepted_answers[0].shown_version
        row = by_channel[click.game.channel_id]
        if shown > click.version:
            acknowledged += 1
            assert row.version > click.version, (click, row.version)
            moves = {c.action for c in clicks_at[(click.game.channel_id, click.version)]}
            assert row.moves()[click.version + 1] in moves, click
    # The overlap: every board version clicked was moved exactly once, whichever process
    # answered. A click sent to both processes is applied by one of them: the other's
    # save fails the compare-and-swap (a stale board) or its answer is refused (40060).
    misleading = 0
    for channel_id, version in sorted({(c.game.channel_id, c.version) for c in overlap}):
        group = clicks_at[(channel_id, version)]
        move = by_channel[channel_id].moves().get(version + 1)
        assert move in {c.action for c in group}, (channel_id, version, group)
        overlap_applied += 1
        first = [a for a in fake.answers(group[0].interaction_id) if a.status < 300]
        if first and first[0].response_type == 4 and group[0].action == move:
            misleading += 1  # told "restarting, try again" while the other process applied it
    healed = sum(
        1 for c in drill.clicks if c.phase == "restarted"
        and by_channel[c.game.channel_id].moves().get(c.version + 1) != c.action
    )
    overlap_delivered = Counter(c.delivered for c in overlap if c.phase == "overlap")
    assert overlap_delivered == Counter({2: len([c for c in overlap if c.phase == "overlap"])})

    label = {"postgresql": "one PostgreSQL database",
             "sqlite": "one shared SQLite file (PostgreSQL is not installed here)"}
    answered = sum(answered_by.values())
    print(f"\nshard processes on {label[database.kind]}: {len(drill.games)} games in "
          f"{len(drill.games) // CHANNELS_PER_GUILD} guilds, {SHARDS} shards")
    print(f"  clicks {len(drill.clicks)}, answered {answered}, applied {applied}, "
          f"refused {sum(refused.values())} ("
          + ", ".join(f"{why} {n}" for why, n in sorted(refused.items()))
          + f"), not answered {len(drill.clicks) - answered} "
          f"({len(in_flight)} in flight at the SIGKILL, 1 sent while shard 1 had no process)")
    print("  answered by: " + ", ".join(f"{t} {n}" for t, n in sorted(answered_by.items())))
    print(f"  acknowledged moves {acknowledged}, all kept; clicks after the restart not applied "
          f"(boards brought up to date) {healed}")
    print(f"  overlap: {len(overlap)} shard 0 clicks ({sum(overlap_delivered.values())} while "
          f"both ran, each sent to both sessions), {overlap_applied} board versions each moved "
          f"exactly once, {second_answers} second answers refused by Discord (40060), "
          f"{misleading} moves answered \"restarting, try again\" by the stopping process "
          "though the other applied them")
    print(f"  time {seconds:.1f} s")
