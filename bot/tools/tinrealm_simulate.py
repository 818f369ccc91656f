"""Balance simulation: many seeded games by a computer player, summed up.

``python -m bot.tools.tinrealm_balance 10000`` prints, for the easy and the hard map,
the win rate, the score distribution, the rank counts, the win rate of every possible
race and class pair (6 of them, ruling R1) and how often placements match edges. Game
``i`` uses seed ``seed + i`` and pair ``i`` modulo 6, so every pair gets the same share
of games and any run can be repeated exactly.

With ``--ablation`` it prints instead, for each pair, what every item, trapping and race
ability the adventurer can hold is worth: N games with it and the same N seeds without
it (a loot card found without it is an empty chest, a trapping is not carried, the race
ability counts 0). The same seeds on both sides keep the comparison sharp.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.games.rng import SeededRandom
from bot.games.tinrealm import actions, heuristic
from bot.games.tinrealm.content import Content
from bot.games.tinrealm.engine import ENGINE, TinRealmEngine
from bot.games.tinrealm.journey import edge_match
from bot.games.tinrealm.scoring import RANKS, TOP_RANK, rank, score
from bot.games.tinrealm.state import TinState

#: The ways a game can end.
ENDS = ("won", "dead", "time")
#: Score buckets for the distribution: (lowest, highest) inclusive.
BUCKETS = ((-99, 0), (1, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, 60), (61, 999))


@dataclass
class Report:
    """What a batch of games came to."""

    preset: str
    policy: str
    games: int = 0
    wins: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    scores: list[int] = field(default_factory=list)
    ranks: Counter[str] = field(default_factory=Counter)
    combos: dict[str, list[int]] = field(default_factory=dict)
    placements: int = 0
    advances: int = 0
    skulls: int = 0
    days_won: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """Share of games that reached Oakinshelm."""
        return self.wins / self.games if self.games else 0.0

    def combo_rate(self, combo: str) -> float:
        """Win rate of one "race+class" combination."""
        games, wins = self.combos[combo]
        return wins / games if games else 0.0

    def merge(self, other: Report) -> None:
        """Add another report's games to this one."""
        self.games += other.games
        self.wins += other.wins
        self.ends.update(other.ends)
        self.scores += other.scores
        self.ranks.update(other.ranks)
        for combo, (games, wins) in other.combos.items():
            mine = self.combos.setdefault(combo, [0, 0])
            mine[0] += games
            mine[1] += wins
        self.placements += other.placements
        self.advances += other.advances
        self.skulls += other.skulls
        self.days_won += other.days_won


def play(
    seed: int,
    preset: str,
    race: str,
    klass: str,
    policy: str,
    report: Report,
    engine: TinRealmEngine = ENGINE,
    without: frozenset[str] = frozenset(),
) -> TinState:
    """Play one game to its end, adding it to ``report``; return the final state.

    Items in ``without`` never stay in the pack (the ablation's "without it").
    """
    c = engine.content()
    state = engine.new(seed, options={"preset": preset})
    chooser = SeededRandom(seed)
    log: list[str] = []
    for action in (f"race:{race}", f"class:{klass}"):
        actions.carry_out(c, state, action, log)
    while state.queue:
        if without:
            state.items = [i for i in state.items if i not in without]
        legal = actions.legal(c, state)
        if policy == "random":
            action = chooser.choice(legal).id
        else:
            action = heuristic.choose(c, state, legal)
        if action.startswith("place:"):
            matched = edge_match(c, state.tableau, c.exploration[state.location or ""], action[6:])
            report.placements += 1
            report.advances += matched not in (None, "skull")
            report.skulls += matched == "skull"
        actions.carry_out(c, state, action, log)
        log.clear()
    points = score(state)
    report.games += 1
    report.wins += state.end == "won"
    report.ends[state.end] += 1
    report.scores.append(points)
    report.ranks[rank(points)] += 1
    entry = report.combos.setdefault(f"{race}+{klass}", [0, 0])
    entry[0] += 1
    entry[1] += state.end == "won"
    if state.end == "won":
        report.days_won.append(state.day)
    return state


def _batch(args: tuple[int, int, int, str, str]) -> Report:
    """Play games ``start``..``stop``-1 (a unit of work for a worker process)."""
    start, stop, seed, preset, policy = args
    combos = ENGINE.content().pairs()
    report = Report(preset, policy)
    for i in range(start, stop):
        race, klass = combos[i % len(combos)]
        play(seed + i, preset, race, klass, policy, report)
    return report


def simulate(
    n: int, seed: int = 0, preset: str = "easy", policy: str = "heuristic", workers: int = 1
) -> Report:
    """Play ``n`` games from ``seed`` on ``preset`` and return the report."""
    chunks = max(1, workers) * 4
    bounds = [n * i // chunks for i in range(chunks + 1)]
    jobs = [(bounds[i], bounds[i + 1], seed, preset, policy) for i in range(chunks)]
    report = Report(preset, policy)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_batch, jobs))
    else:
        parts = [_batch(job) for job in jobs]
    for part in parts:
        report.merge(part)
    return report


def format_report(report: Report) -> str:
    """Return the report as readable text."""
    total = report.games or 1
    lines = [
        f"== preset {report.preset}, {report.policy} player, {report.games} games ==",
        f"win rate {report.win_rate:.1%}  ("
        + ", ".join(f"{end} {report.ends[end] / total:.1%}" for end in ENDS)
        + ")",
    ]
    if report.days_won:
        lines.append(f"mean day of a win {statistics.mean(report.days_won):.2f}")
    if report.scores:
        quartiles = statistics.quantiles(report.scores, n=4)
        lines.append(
            f"score mean {statistics.mean(report.scores):.1f}, quartiles "
            + " / ".join(f"{q:g}" for q in quartiles)
            + f", min {min(report.scores)}, max {max(report.scores)}"
        )
    counts = Counter(
        next(f"{lo}..{hi}" for lo, hi in BUCKETS if lo <= p <= hi) for p in report.scores
    )
    lines.append(
        "scores: " + ", ".join(f"{lo}..{hi}: {counts[f'{lo}..{hi}']}" for lo, hi in BUCKETS)
    )
    names = [name for _, name in RANKS] + [TOP_RANK]
    lines.append("ranks: " + ", ".join(f"{name} {report.ranks[name]}" for name in names))
    placed = report.placements or 1
    lines.append(
        f"placements {report.placements}: advancing matches "
        f"{report.advances / placed:.1%}, skull matches {report.skulls / placed:.2%}"
    )
    lines.append("race+class                  games   wins   rate  x overall")
    for combo in sorted(report.combos):
        games, wins = report.combos[combo]
        ratio = report.combo_rate(combo) / report.win_rate if report.win_rate else 0.0
        lines.append(
            f"{combo:<26} {games:>6} {wins:>6} {report.combo_rate(combo):>6.1%} {ratio:>6.2f}"
        )
    return "\n".join(lines)


def holdable(c: Content, race: str, klass: str) -> list[str]:
    """What a race+class adventurer can hold: every loot card, its two trappings, and
    its race ability (as ``ability:<race>``)."""
    return [*c.loot, *c.classes[klass].trappings, f"ability:{race}"]


def _without_ability(c: Content, race: str) -> Content:
    """The content with ``race``'s ability worth nothing (amount 0)."""
    races = dict(c.races)
    races[race] = dataclasses.replace(races[race], amount=0)
    return dataclasses.replace(c, races=races)


def _ablation_batch(args: tuple[str, str, str, str, int, int]) -> tuple[str, str, str, int]:
    """Wins of one pair over seeds ``start``..``stop``-1 without ``thing`` ("" for none)."""
    race, klass, thing, preset, start, stop = args
    engine, without = ENGINE, frozenset[str]()
    if thing.startswith("ability:"):
        engine = TinRealmEngine(_without_ability(ENGINE.content(), race))
    elif thing:
        without = frozenset({thing})
    report = Report(preset, "heuristic")
    for seed in range(start, stop):
        play(seed, preset, race, klass, "heuristic", report, engine, without)
    return race + "+" + klass, thing, preset, report.wins


def ablation(n: int, seed: int = 0, preset: str = "easy", workers: int = 1) -> list[str]:
    """Play ``n`` games per pair with everything, and the same seeds without each thing it
    can hold; return the table as lines (one per pair and thing)."""
    c = ENGINE.content()
    jobs = [
        (race, klass, thing, preset, seed, seed + n)
        for race, klass in c.pairs()
        for thing in ("", *holdable(c, race, klass))
    ]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_ablation_batch, jobs))
    else:
        results = [_ablation_batch(job) for job in jobs]
    wins = {(pair, thing): won for pair, thing, _, won in results}
    lines = [
        f"== ablation, preset {preset}, {n} games per pair and thing (same seeds) ==",
        "race+class            thing removed          with  without  change",
    ]
    worthless = 0
    for race, klass in c.pairs():
        pair = f"{race}+{klass}"
        base = wins[(pair, "")]
        for thing in holdable(c, race, klass):
            lost = wins[(pair, thing)]
            name = c.items[thing].name if thing in c.items else f"{c.races[race].name} ability"
            worthless += lost >= base
            change = (lost - base) / n
            lines.append(
                f"{pair:<21} {name:<20} {base / n:>6.1%} {lost / n:>7.1%} {change:>+7.1%}"
                + ("" if lost < base else "  NOT WORTH ANYTHING")
            )
    lines.append(f"things worth nothing to someone who holds them: {worthless}")
    return lines
