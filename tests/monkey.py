"""Random but plausible traffic through the fake Discord, with invariants checked after each step.

A :class:`Monkey` drives the real bot (every cog) for several members: slash commands of
the three games and the server's commands, the "Invite to Steam to Solar" user command,
clicks and selects on whatever the fake shows (current boards, old boards, private
answers, confirmation prompts, copies of a message as an out-of-date client still shows
it, members who are not seated), two or three interactions at once, advances of the
clock with the due deadlines run, sweeps, a moderator deleting a message, and restarts
(some with an interaction still in flight).

A run follows a *plan* from :func:`make_plan`: a list of steps, each a kind and its own
seed. A step looks at what the fake holds at that moment and chooses with its own
``random.Random``, so the same plan replays the same traffic, and a plan with some steps
removed replays the others unchanged.

After every step :meth:`Monkey.check` looks for faults: an interaction never answered or
left "thinking…", an ERROR logged by discord.py or the bot, a warning that data is
unreadable or damaged, a body Discord would refuse, a route the fake does not know, two
open games in one channel, and an open game whose stored board is missing or does not
show the game's current version.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.client import TableBot
from tests.fake_discord import Driver, FakeDiscord, FakeUser, payloads
from tests.fake_discord.server import InteractionRecord
from tests.support import Clock, make_bot

COGS = ("cogs.help", "cogs.records", "cogs.server", "cogs.tinker", "cogs.tinrealm", "cogs.steam")
"""The cogs the bot runs with: all of them."""

GAMES = ("tinker", "tinrealm", "steam")
"""The games' slash command groups."""

USERS = ("alice", "bob", "mod", "carol", "dave")
"""The members who act ("mod" can manage the server)."""

BOARD_TAGS = ("g1:", "s1:", "u1:")
"""How the custom_ids of a game's board begin (followed by game id and version)."""

WATCHED_LOGGERS = ("discord", "bot", "cogs", "db", "asyncio")
"""Loggers (and their children) whose ERROR records are faults."""

STEP_WEIGHTS = {
    "slash": 24,  # a slash command
    "click": 44,  # a click or a choice on a message as the fake shows it now
    "stale": 8,  # a click on an older version of a message
    "burst": 5,  # two or three clicks at once, anywhere
    "board_burst": 5,  # two or three actions at once on one game's board
    "clock": 9,  # the clock moves on and the due deadlines run
    "sweep": 1,  # the clock moves on and the bot's sweep runs
    "restart": 2,  # the bot restarts
    "restart_inflight": 1,  # the bot restarts while a click is being handled
    "delete": 1,  # a moderator deletes a message with components
    "user_command": 2,  # "Invite to Steam to Solar" on a member
    "real_wait": 2,  # a short real wait, so timers on the real clock fire
}
"""How often each kind of step comes up, relative to the others."""

Step = tuple[str, int]
"""One step of a plan: its kind (a key of STEP_WEIGHTS) and its own seed."""

_CLICKABLE_TYPES = (2, 3, 5)  # button, string select, user select


def make_plan(seed: int, steps: int) -> list[Step]:
    """Return ``steps`` steps drawn from ``seed``."""
    rng = random.Random(seed)
    kinds = list(STEP_WEIGHTS)
    weights = list(STEP_WEIGHTS.values())
    return [(rng.choices(kinds, weights)[0], rng.randrange(2**31)) for _ in range(steps)]


@dataclass
class Fault:
    """Something a check found wrong after a step."""

    step: int
    kind: str
    detail: str


@dataclass
class Outcome:
    """What a run did (``log``: step number and what happened) and what it found wrong."""

    seed: int
    plan: list[Step]
    faults: list[Fault] = field(default_factory=list)
    log: list[tuple[int, str]] = field(default_factory=list)

    def report(self, context: int = 6) -> str:
        """Describe the faults: the seed, the failing step and the steps leading to it."""
        if not self.faults:
            return f"seed {self.seed}: no faults"
        step = self.faults[0].step
        kind = self.plan[step][0] if 0 <= step < len(self.plan) else "start"
        lines = [f"seed {self.seed}, step {step} ({kind}):"]
        lines += [f"  {fault.kind}: {fault.detail}" for fault in self.faults]
        lines.append(f"steps {max(0, step - context)}..{step}:")
        lines += [f"  {n}: {text}" for n, text in self.log if step - context <= n <= step]
        return "\n".join(lines)


def _watched(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in WATCHED_LOGGERS)


def _owner(message: Mapping[str, Any], users: Mapping[int, str]) -> str | None:
    """The member an ephemeral message was shown to (None for a public message)."""
    if not message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL:
        return None
    meta = message.get("interaction_metadata") or {}
    return users.get(int((meta.get("user") or {}).get("id", 0)))


def _enabled(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The message's components a member could use."""
    return [
        c
        for c in payloads.iter_components(message.get("components") or [])
        if "custom_id" in c and not c.get("disabled") and c.get("type") in _CLICKABLE_TYPES
    ]


def _interaction_name(record: InteractionRecord) -> str:
    data = record.payload.get("data") or {}
    return str(data.get("custom_id") or data.get("name"))


class Monkey:
    """Drives one bot over ``fake`` through a plan and checks it after every step.

    ``records`` is a list a logging handler fills with the WARNING and higher records
    (pytest's ``caplog.records``); the run reads the ones added during each step.
    """

    def __init__(
        self,
        seed: int,
        fake: FakeDiscord,
        driver: Driver,
        tmp_path: Path,
        records: list[logging.LogRecord],
        *,
        pictures: bool = False,
    ) -> None:
        self.seed = seed
        self.fake = fake
        self.driver = driver
        self.tmp_path = tmp_path
        self.records = records
        self.pictures = pictures
        self.clock = Clock()
        self.bot: TableBot | None = None
        self.favourite = GAMES[seed % len(GAMES)]
        self._game_seeds = iter(range(seed * 100_000 + 1, 10**9))
        self._versions: dict[int, list[dict[str, Any]]] = {}  # message id -> recent versions
        self._deleted: set[int] = set()
        self._seen_records = 0
        self._seen_violations = 0
        self._step = -1
        self.outcome = Outcome(seed, [])

    # ----------------------------------------------------------------- running

    async def run(self, plan: list[Step]) -> Outcome:
        """Start the bot and run ``plan``, stopping after the first step with a fault."""
        self.outcome = Outcome(self.seed, plan)
        for name in USERS:
            if name not in self.fake.users:
                self.fake.add_user(name)
        await self._start_bot(restart=False)
        await self.driver.settle()
        await self.check([])
        for number, (kind, step_seed) in enumerate(plan):
            if self.outcome.faults:
                break
            self._step = number
            try:
                records = await self.run_step(kind, random.Random(step_seed))
                await self.driver.settle()
            except Exception as exc:
                self._fault(f"exception {type(exc).__name__}", traceback.format_exc()[-2000:])
                break
            await self.check(records)
            self._remember_versions()
        return self.outcome

    async def run_step(self, kind: str, rng: random.Random) -> list[InteractionRecord]:
        """Do one step of ``kind``; return the interactions it sent."""
        bot = self._bot()
        if kind == "slash":
            return [await self._slash(rng)]
        if kind == "user_command":
            user, target = rng.choice(USERS), rng.choice(USERS)
            channel = rng.choice(self._channels())
            self._log(f"Invite to Steam to Solar on {target} by {user} in {channel}")
            result = await self.driver.user_command(
                "Invite to Steam to Solar", target, user=user, channel=channel
            )
            return [result.record]
        if kind in ("click", "stale", "burst"):
            count = rng.randint(2, 3) if kind == "burst" else 1
            clicks = []
            for _ in range(count):
                stale = kind == "stale" or (kind == "burst" and rng.random() < 0.3)
                click = await self._pick_click(rng, stale=stale)
                if click is not None:
                    clicks.append(click)
            if not clicks:
                self._log("nothing to click")
            return await self._feed_together(clicks)
        if kind == "board_burst":
            return await self._feed_together(await self._board_burst(rng))
        if kind == "restart_inflight":
            click = await self._pick_click(rng, stale=False)
            records = []
            if click is not None:
                records.append(self.fake.interactions[int(click["id"])])
                self._parse(click)
                await asyncio.sleep(0)
            self._log("restart while that is handled")
            await self._start_bot(restart=True)
            return records
        if kind == "clock":
            seconds = rng.choice(
                [1, 5, 11, 31, 46, 61, 121, 301, 601, 3601, 7201, 86401, 3 * 86400]
            )
            self.clock.advance(seconds)
            fired = await bot.deadlines.run_due()
            self._log(f"clock +{seconds}s, {fired} deadlines run")
        elif kind == "sweep":
            self.clock.advance(rng.choice([3601, 86401, 8 * 86400]))
            ended = await bot.sweep_once()
            self._log(f"sweep ended {ended}")
        elif kind == "restart":
            self._log("restart")
            await self._start_bot(restart=True)
        elif kind == "delete":
            messages = [m for m in self.fake.channel_messages() if m.get("components")]
            if messages:
                message = rng.choice(messages)
                self._log(f"mod deletes message {message['id']}")
                self._deleted.add(int(message["id"]))
                self.fake.delete_message(int(message["channel_id"]), message["id"])
        elif kind == "real_wait":
            self._log("short real wait")
            await asyncio.sleep(0.05)
        else:
            raise ValueError(f"unknown step kind {kind!r}")
        return []

    # ----------------------------------------------------------------- checks

    async def check(self, records: list[InteractionRecord]) -> None:
        """Record a fault for everything wrong after the current step.

        ``records`` are the interactions the step sent; each must have been answered and
        must not still show "thinking…".
        """
        for record in records:
            if record.response_type is None:
                self._fault("unanswered", f"interaction {_interaction_name(record)}")
            elif record.response_type == 5 and record.original_message_id is not None:
                message = self.fake.get_message(record.original_message_id)
                if message is not None and message["flags"] & payloads.MESSAGE_FLAG_LOADING:
                    self._fault("thinking forever", f"interaction {_interaction_name(record)}")
        for log in self.records[self._seen_records:]:
            if not _watched(log.name):
                continue
            text = log.getMessage()
            if log.levelno >= logging.ERROR:
                exc = "".join(traceback.format_exception(*log.exc_info)) if log.exc_info else ""
                self._fault(f"{log.name} logged an error", f"{text}\n{exc[-1500:]}")
            elif "unreadable" in text or "damaged" in text:
                self._fault(f"{log.name} warned", text)
        self._seen_records = len(self.records)
        for violation in self.fake.limit_violations[self._seen_violations:]:
            self._fault("Discord would refuse the body", str(violation)[:1500])
        self._seen_violations = len(self.fake.limit_violations)
        for request in self.fake.unhandled:
            self._fault("the fake has no route", f"{request.method} {request.path}")
        await self._check_games()

    async def _check_games(self) -> None:
        store = self._bot().store
        rows = await store.query(
            "SELECT channel_id, count(*) FROM games WHERE status IN ('lobby','active') "
            "GROUP BY channel_id HAVING count(*) > 1"
        )
        for channel_id, count in rows:
            self._fault("two open games", f"channel {channel_id} has {count} open games")
        rows = await store.query(
            "SELECT id, status, version, board_message_id FROM games "
            "WHERE status IN ('lobby','active')"
        )
        for game_id, status, version, board_id in rows:
            game = f"game {game_id} ({status}, version {version})"
            if board_id is None:
                self._fault("no board", f"{game} has no board message")
                continue
            message = self.fake.get_message(board_id)
            if message is None:
                if int(board_id) not in self._deleted:
                    self._fault("board missing", f"{game}: board {board_id} does not exist")
                continue
            custom_ids = [
                str(c["custom_id"])
                for c in payloads.iter_components(message.get("components") or [])
                if str(c.get("custom_id", "")).startswith(BOARD_TAGS)
            ]
            if not custom_ids:
                self._fault("board without actions", f"{game}: board {board_id}")
            current = [f"{game_id}", f"{version}"]
            behind = [cid for cid in custom_ids if cid.split(":")[1:3] != current]
            if behind:
                self._fault("board behind", f"{game}: board {board_id} shows {behind[:4]}")

    # ----------------------------------------------------------------- helpers

    def _bot(self) -> TableBot:
        assert self.bot is not None, "the run has not started"
        return self.bot

    def _log(self, text: str) -> None:
        self.outcome.log.append((self._step, text))

    def _fault(self, kind: str, detail: str) -> None:
        self.outcome.faults.append(Fault(self._step, kind, detail))

    async def _start_bot(self, *, restart: bool) -> None:
        bot = make_bot(
            self.tmp_path, cogs=COGS, clock=self.clock, BOARD_IMAGES=int(self.pictures)
        )
        if restart:
            await self.driver.restart(bot)
        else:
            await self.driver.login(bot)
        bot.tables.core.seeds = lambda: next(self._game_seeds)  # deals follow the seed
        self.bot = bot

    def _users_by_id(self) -> dict[int, str]:
        return {user.id: name for name, user in self.fake.users.items()}

    def _channels(self) -> list[int]:
        """Where commands are sent: mostly the main channel, also #general and open threads."""
        ids = [self.fake.channel_id] * 4
        for channel_id, data in self.fake.channels.items():
            archived = (data.get("thread_metadata") or {}).get("archived")
            if data.get("name") == "general" or (data.get("type") in (10, 11, 12) and not archived):
                ids.append(channel_id)
        return ids

    def _commands(self) -> list[tuple[str, str | None, app_commands.Command[Any, Any, Any]]]:
        """Every slash command the bot has: (name, subcommand or None, command)."""
        tree = self._bot().tree
        guild = discord.Object(self.fake.guild_id)
        found: dict[str, app_commands.Command[Any, Any, Any] | app_commands.Group] = {}
        for command in [*tree.get_commands(), *tree.get_commands(guild=guild)]:
            if isinstance(command, app_commands.Command | app_commands.Group):
                found.setdefault(command.name, command)
        out: list[tuple[str, str | None, app_commands.Command[Any, Any, Any]]] = []
        for name, command in found.items():
            if isinstance(command, app_commands.Group):
                out += [
                    (name, sub.name, sub)
                    for sub in command.commands
                    if isinstance(sub, app_commands.Command)
                ]
            else:
                out.append((name, None, command))
        return out

    def _command_weight(self, name: str, sub: str | None) -> float:
        if name in GAMES:
            weight = {"start": 3, "new": 4, "board": 2, "abandon": 1, "away": 1.5,
                      "daily": 0.7, "rules": 0.5, "replay": 0.7}.get(sub or "", 1.0)
            return weight * 3 if name == self.favourite else weight
        if name in ("help", "stats", "leaderboard", "forget-me"):
            return 0.4
        return 1.0

    def _options(
        self, rng: random.Random, command: app_commands.Command[Any, Any, Any]
    ) -> dict[str, Any]:
        """Values for the command's required options and for some of its optional ones."""
        options: dict[str, Any] = {}
        kinds = discord.AppCommandOptionType
        for parameter in command.parameters:
            if not parameter.required and rng.random() < 0.65:
                continue
            kind = parameter.type
            if parameter.choices:
                options[parameter.name] = rng.choice(parameter.choices).value
            elif kind == kinds.boolean:
                options[parameter.name] = rng.random() < 0.5
            elif kind == kinds.integer:
                low = int(parameter.min_value if parameter.min_value is not None else 0)
                high = int(parameter.max_value if parameter.max_value is not None else 100)
                options[parameter.name] = rng.choice([low, high, rng.randint(low, high)])
            elif kind in (kinds.user, kinds.mentionable):
                options[parameter.name] = self.fake.user(rng.choice(USERS))
            elif kind == kinds.string and parameter.name == "sides":
                options[parameter.name] = rng.choice([
                    ",".join(rng.choice("34") for _ in range(rng.randint(1, 9))),
                    "3,4,3,4,3,4", "x", "4 4 4 4 4 4"])
            elif kind == kinds.string:
                options[parameter.name] = "abc"
        return options

    async def _slash(self, rng: random.Random) -> InteractionRecord:
        commands = self._commands()
        weights = [self._command_weight(name, sub) for name, sub, _ in commands]
        name, sub, command = rng.choices(commands, weights)[0]
        options = self._options(rng, command)
        user = "mod" if name == "tablehouse" else rng.choice(USERS)
        channel = rng.choice(self._channels())
        shown = {k: v.name if isinstance(v, FakeUser) else v for k, v in options.items()}
        self._log(f"/{name} {sub or ''} {shown} by {user} in {channel}")
        result = await self.driver.slash(name, sub, options, user=user, channel=channel)
        return result.record

    def _parse(self, payload: Mapping[str, Any]) -> None:
        """Hand an interaction to the client without waiting for it."""
        client = self.driver.client
        assert client is not None
        client._connection.parse_interaction_create(copy.deepcopy(dict(payload)))  # type: ignore[arg-type]

    async def _feed_together(self, interactions: list[dict[str, Any]]) -> list[InteractionRecord]:
        """Send the (registered) interactions at once and wait until all are handled."""
        if len(interactions) == 1:
            return [(await self.driver.feed(interactions[0])).record]
        before = asyncio.all_tasks()
        for payload in interactions:
            self._parse(payload)
        await self.driver.settle(before)
        return [self.fake.interactions[int(p["id"])] for p in interactions]

    async def _open_games(self) -> dict[int, tuple[list[int], int | None]]:
        """Open games: game id -> (seated people, the one to act counted thrice; board id)."""
        bot = self._bot()
        rows = await bot.store.query(
            "SELECT id, seats, board_message_id FROM games WHERE status IN ('lobby','active')"
        )
        games = {}
        for game_id, seats_json, board_id in rows:
            seats = json.loads(seats_json) if isinstance(seats_json, str) else seats_json or []
            people = [
                int(s["user_id"]) for s in seats if s.get("user_id") and not s.get("computer")
            ]
            game = await bot.tables.load(int(game_id))
            seat = game.to_act() if game.state is not None else None
            if seat is not None and 0 <= seat < len(seats) and seats[seat].get("user_id"):
                people = [int(seats[seat]["user_id"])] * 3 + people
            games[int(game_id)] = (people, int(board_id) if board_id else None)
        return games

    def _click_weight(
        self,
        message: Mapping[str, Any],
        component: Mapping[str, Any],
        owner: str | None,
        games: dict[int, tuple[list[int], int | None]],
    ) -> float:
        """Mostly the current boards' actions; the table buttons and pings rarely."""
        custom_id = str(component["custom_id"])
        if custom_id.startswith(BOARD_TAGS):
            if ":table." in custom_id:
                return 0.3
            part = custom_id.split(":")[1]
            game_id = int(part) if part.isdigit() else -1
            if game_id in games and games[game_id][1] == int(message["id"]):
                return 30.0
            return 6.0 if owner else 3.0
        if custom_id.startswith(("pings:", "rp1:")):
            return 0.4
        return 4.0

    def _clicker(
        self,
        rng: random.Random,
        component: Mapping[str, Any],
        owner: str | None,
        games: dict[int, tuple[list[int], int | None]],
    ) -> str:
        """Who clicks: the one the message was shown to, mostly a seated player on a board."""
        if owner:
            return owner
        parts = str(component["custom_id"]).split(":")
        if component["custom_id"].startswith(BOARD_TAGS) and parts[1].isdigit():
            users = self._users_by_id()
            people = games.get(int(parts[1]), ([], None))[0]
            names = [users[p] for p in people if p in users]
            if names and rng.random() < 0.8:
                return rng.choice(names)
        return rng.choice(USERS)

    def _values(self, rng: random.Random, component: Mapping[str, Any]) -> list[str] | None:
        """Values for a select (None for a button); [] when there is nothing to choose."""
        if component["type"] == 2:
            return None
        low = component.get("min_values", 1)
        if component["type"] == 5:
            high = component.get("max_values", 1)
            count = rng.randint(max(low, 1), max(low, 1, min(high, 3)))
            return [str(self.fake.user(name).id) for name in rng.sample(USERS, count)]
        options = component.get("options") or []
        high = min(component.get("max_values", 1), len(options))
        if not options:
            return []
        return [o["value"] for o in rng.sample(options, rng.randint(min(low, high), high))]

    def _interaction_on(
        self,
        message: dict[str, Any],
        component: Mapping[str, Any],
        values: list[str] | None,
        user: str,
    ) -> dict[str, Any]:
        """A registered interaction on ``message``, a version the fake may no longer hold."""
        message_id = int(message["id"])
        stored = self.fake.messages[message_id]
        self.fake.messages[message_id] = message
        try:
            return self.fake.component_payload(
                message_id, component["custom_id"], values=values, user=user
            )
        finally:
            self.fake.messages[message_id] = stored

    def _remember_versions(self) -> None:
        """Keep the last versions of every message with components, for stale clicks."""
        for message_id, message in self.fake.messages.items():
            components = message.get("components")
            if not components:
                continue
            versions = self._versions.setdefault(message_id, [])
            if not versions or versions[-1].get("components") != components:
                versions.append(copy.deepcopy(message))
                del versions[:-6]

    def _click_options(
        self, stale: bool
    ) -> list[tuple[dict[str, Any], Mapping[str, Any], str | None]]:
        """(message version, component, member it was shown to) for everything clickable."""
        users = self._users_by_id()
        if stale:
            messages = [
                old
                for message_id, versions in self._versions.items()
                if message_id in self.fake.messages
                for old in versions[:-1]
            ]
        else:
            messages = [
                m
                for m in self.fake.messages.values()
                if not m["flags"] & payloads.MESSAGE_FLAG_LOADING
            ]
        out = []
        for message in messages:
            owner = _owner(message, users)
            if message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL and owner is None:
                continue
            out += [(message, c, owner) for c in _enabled(message)]
        return out

    async def _pick_click(self, rng: random.Random, *, stale: bool) -> dict[str, Any] | None:
        """A registered click or choice on a message (an older version if ``stale``)."""
        games = await self._open_games()
        # No await from here until the payload is built: the bot may edit messages whenever
        # it gets to run, and the click must be on a version the fake shows (or showed).
        options = self._click_options(stale)
        if not options:
            return None
        weights = [self._click_weight(m, c, owner, games) for m, c, owner in options]
        message, component, owner = rng.choices(options, weights)[0]
        user = self._clicker(rng, component, owner, games)
        values = self._values(rng, component)
        if values == []:
            return None
        self._log(
            f"{'stale ' if stale else ''}click {component['custom_id']} {values or ''} on "
            f"{'ephemeral ' if owner else ''}message {message['id']} by {user}"
        )
        return self._interaction_on(message, component, values, user)

    async def _board_burst(self, rng: random.Random) -> list[dict[str, Any]]:
        """Two or three actions on one open game's board, maybe with ``/<game> board``."""
        games = await self._open_games()
        boards = [
            (game_id, message)
            for game_id, (_, board_id) in games.items()
            if board_id and (message := self.fake.get_message(board_id))
        ]
        if not boards:
            self._log("no board to act on")
            return []
        game_id, message = rng.choice(boards)
        actions = [
            c
            for c in _enabled(message)
            if str(c["custom_id"]).startswith(BOARD_TAGS) and ":table." not in c["custom_id"]
        ]
        if not actions:
            self._log(f"board {message['id']} has no actions")
            return []
        interactions = []
        for _ in range(rng.randint(2, 3)):
            component = rng.choice(actions)
            user = self._clicker(rng, component, None, games)
            values = self._values(rng, component)
            if values == []:
                continue
            self._log(f"at once: {component['custom_id']} {values or ''} by {user}")
            interactions.append(self._interaction_on(message, component, values, user))
        if rng.random() < 0.4:
            rows = await self._bot().store.query(
                "SELECT kind, channel_id FROM games WHERE id = :g", {"g": game_id}
            )
            game_kind, channel_id = rows[0]
            user = rng.choice(USERS)
            self._log(f"at once: /{game_kind} board by {user}")
            interactions.append(self.fake.slash_payload(
                game_kind, path=["board"], user=user, channel_id=int(channel_id),
                guild_scoped=False))
        return interactions
