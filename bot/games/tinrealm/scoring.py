"""Scoring and ranks at the end of the journey (R10)."""

from __future__ import annotations

from bot.games.tinrealm.state import TinState

#: Points for reaching Oakinshelm.
OAKINSHELM_POINTS = 10
#: Points per map node reached beyond S.
NODE_POINTS = 2
#: Points lost per day ended.
DAY_PENALTY = 2
#: Highest score of each rank, lowest rank first; above the last is Mayor (R10).
RANKS: tuple[tuple[int, str], ...] = (
    (20, "Ratcatcher"),
    (30, "Laborer"),
    (40, "Guard"),
    (50, "Performer"),
    (60, "Merchant"),
)
TOP_RANK = "Mayor"


def score_parts(s: TinState) -> dict[str, int]:
    """Return each part of the score, named, with its sign."""
    return {
        "oakinshelm": OAKINSHELM_POINTS if s.end == "won" else 0,
        "health": s.health,
        "energy": s.energy,
        "food": s.food,
        "favor": s.favor,
        "nodes": NODE_POINTS * s.furthest,
        "poison": -s.poison,
        "days": -DAY_PENALTY * (s.day - 1),
    }


def score_words(s: TinState) -> str:
    """Return the score as R10 adds it up, in words: "Reached Oakinshelm +10, ... = 37"."""
    parts = score_parts(s)
    days = s.day - 1
    words = [
        f"Reached Oakinshelm +{parts['oakinshelm']}"
        if s.end == "won"
        else "Oakinshelm not reached +0",
        f"health +{parts['health']}",
        f"energy +{parts['energy']}",
        f"food +{parts['food']}",
        f"favor +{parts['favor']}",
        f"{s.furthest} node{'s' if s.furthest != 1 else ''} reached +{parts['nodes']}",
        f"poison -{s.poison}" if s.poison else "poison 0",
        f"{days} day{'s' if days != 1 else ''} ended "
        + (f"-{DAY_PENALTY * days}" if days else "0"),
    ]
    return ", ".join(words) + f" = {score(s)}"


def end_words(s: TinState) -> str:
    """Say how the journey ended, telling death (and from what) from time running out."""
    if s.end == "won":
        return f"Reached Oakinshelm on day {s.day}"
    # Starving at supper (R9: the sundial advances first) belongs to the night after the
    # day that ended, the last night included.
    when = f"the night after day {s.day - 1}" if s.at_night else f"day {s.day}"
    if s.end == "dead" and s.health <= 0:
        return f"Died on {when}: health ran out"
    if s.end == "dead":
        return f"Died on {when}: the poison ({s.poison}) reached your health ({s.health})"
    if s.end == "time":
        return "Time ran out: the seventh day ended on the road"
    return "The journey goes on"


def score(s: TinState) -> int:
    """Return the score: the sum of its parts."""
    return sum(score_parts(s).values())


def rank(points: int) -> str:
    """Return the rank a score earns."""
    for highest, name in RANKS:
        if points <= highest:
            return name
    return TOP_RANK
