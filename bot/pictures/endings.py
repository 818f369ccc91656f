"""How a board ends: which theme it wears and the headline drawn across it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.pictures.canvas import BANNER_ROOM, HEADLINE, MIN_TEXT, fit
from bot.pictures.palette import THEMES, Theme
from bot.pictures.script import fold, sentence, width
from bot.pictures.viewdata import mapping, mappings, number


@dataclass(frozen=True, slots=True)
class Ending:
    """The look of a board: ``mood`` (active, won, lost, ended) and its headline, if any.

    ``headline`` and ``detail`` are the banner's lines as drawn, names cut to fit;
    ``whole_headline`` and ``whole_detail`` say the same with every name whole (for alt
    text), empty where they are the drawn lines."""

    mood: str
    headline: str = ""
    detail: str = ""
    whole_headline: str = ""
    whole_detail: str = ""

    @property
    def spoken(self) -> tuple[str, str]:
        """The headline and detail with every name whole."""
        return self.whole_headline or self.headline, self.whole_detail or self.detail

    @property
    def theme(self) -> Theme:
        """The colours for this mood."""
        return THEMES[self.mood]


STATUS_WORDS = {"abandoned": "Game abandoned", "expired": "Game ended: idle too long"}


def _outcomes(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    result = view.get("result")
    if not isinstance(result, Mapping):
        return []
    outcomes = result.get("outcomes")
    return [o for o in outcomes if isinstance(o, Mapping)] if isinstance(outcomes, list) else []


def _summary(view: Mapping[str, Any]) -> str:
    result = view.get("result")
    return str(result.get("summary") or "") if isinstance(result, Mapping) else ""


def _tinker(view: Mapping[str, Any], drawn: bool) -> Ending:
    """The result (T10) under the headline, in one line the banner holds (where
    ``drawn``): locations cleared, chips left and the score ("Locations 13/13 · chips left
    3 · score 1303")."""
    outcomes = _outcomes(view)
    if not outcomes:
        return Ending("ended", "Game over", _summary(view))
    won = outcomes[0].get("outcome") == "win"
    score = outcomes[0].get("score")
    result = mapping(outcomes[0].get("detail"))
    parts = []
    if "locations_cleared" in result:
        parts.append(f"Locations {number(result.get('locations_cleared'))}/13")
    if "chips_left" in result:
        parts.append(f"chips left {number(result.get('chips_left'))}")
    if score is not None:
        parts.append(f"score {score}")
    detail = " · ".join(parts) or _summary(view)
    # said aloud as words, not as a fraction or a date ("6/13")
    said = ", ".join(parts).replace("/13", " of 13") if parts else ""
    if drawn:
        detail = fit(detail, MIN_TEXT, BANNER_ROOM)
    if won:
        return Ending("won", "The world is saved!", detail, whole_detail=said)
    return Ending("lost", "The journey failed", detail, whole_detail=said)


def _standings(view: Mapping[str, Any]) -> list[tuple[Any, Any, int, bool]]:
    """Every seat from first place to last as (seat, score, goods left, resigned): the
    engine's places where the view has them, else its outcomes, winners first, then by
    score and goods left (S12)."""
    result = mapping(view.get("result"))
    places = mappings(result.get("places"))
    if places:
        return [(p.get("seat"), p.get("total", "?"), number(p.get("goods_left")),
                 bool(p.get("resigned"))) for p in places]
    rows = []
    for o in _outcomes(view):
        detail = mapping(o.get("detail"))
        rows.append((o.get("seat"), o.get("score", "?"), number(detail.get("goods_left")),
                     bool(detail.get("resigned")), o.get("outcome") == "win"))
    rows.sort(key=lambda r: (not r[4], -number(r[1]), -r[2]))
    return [r[:4] for r in rows]


def short_names(names: list[str], line: Callable[[list[str]], str], size: int,
                bold: bool = False, room: float = BANNER_ROOM) -> str:
    """Return ``line(names)``, its names cut with "…" to one widest width when the whole
    line is wider than ``room`` at ``size``: the widest that lets the rest of the line
    (a score, "wins with 12") show whole."""
    whole = line(names)
    if not names or width(whole, size, bold) <= room:
        return whole
    low, high = 0, max(width(name, size, bold) for name in names)
    while low < high:  # the widest cut the line fits with
        cap = (low + high + 1) // 2
        if width(line([fit(name, size, cap, bold) for name in names]), size, bold) <= room:
            low = cap
        else:
            high = cap - 1
    return line([fit(name, size, low, bold) for name in names])


def _steam(view: Mapping[str, Any], drawn: bool) -> Ending:
    """The winners, and every score in place order; where goods left broke a tie on the
    score (S12), the headline says so and the scores end with the goods left. Where
    ``drawn``, each name is folded on its own as it is drawn (a name no font draws any of
    reads "?", not nothing) and cut to the banner's width (measured with the fonts)."""
    names = {p.get("seat"): str(p.get("name") or f"Seat {p.get('seat')}")
             for p in mappings(view.get("players"))}
    winners = [o for o in _outcomes(view) if o.get("outcome") == "win"]
    if not winners:
        return Ending("ended", "Game over", _summary(view))
    who = [names.get(o.get("seat"), f"Seat {o.get('seat')}") for o in winners]
    verb = "share the win" if len(winners) > 1 else "wins"
    top = winners[0].get("score", "?")
    seats = {o.get("seat") for o in winners}
    ranked = _standings(view)
    goods = [left for seat, _, left, _ in ranked if seat in seats]
    beaten = [left for seat, score, left, out in ranked
              if seat not in seats and not out and score == top]
    tie = goods and beaten  # a tie on the score, broken by goods left
    won = f"{verb} on goods left" if tie else f"{verb} with {top}"
    left = f" · goods left {goods[0]} to {max(beaten)}" if tie else ""

    def headline(shown: list[str]) -> str:
        return sentence(f"{' and '.join(shown)} {won}")

    def listed(rows: list[tuple[Any, Any, int, bool]], tail: str) -> Callable[[list[str]], str]:
        """The scores of ``rows`` in place order, then ``tail``, for the names shown."""
        return lambda shown: sentence(" · ".join(
            f"{name} {score}" for name, (_, score, _, _) in zip(shown, rows, strict=True))
            + tail)

    everyone = [names.get(seat, "?") for seat, _, _, _ in ranked]
    scores = listed(ranked, left)
    said, said_scores = headline(who), scores(everyone)
    if not drawn:  # spoken: every name whole, nothing measured
        return Ending("won", said, said_scores)
    # Each name as drawn on its own: a line folded whole would leave out a name of
    # symbols no font has, and read "wins with 9".
    who, everyone = [fold(name) for name in who], [fold(name) for name in everyone]
    whole, shown = headline(who), short_names(who, headline, HEADLINE, bold=True)
    if len(who) > 1 and shown != whole:  # cut names: the detail line names the winners
        shown = sentence(f"Shared win {'on goods left' if tie else f'with {top}'}")
    detail = short_names(everyone, scores, MIN_TEXT)
    if detail != scores(everyone) and len(ranked) > 2:
        # Names cut on one line: the places go on two (the first half, then the rest), so
        # names that start alike ("Sam…") can still be told apart.
        half = (len(ranked) + 1) // 2
        detail = "\n".join((short_names(everyone[:half], listed(ranked[:half], ""), MIN_TEXT),
                            short_names(everyone[half:], listed(ranked[half:], left),
                                        MIN_TEXT)))
    return Ending("won", shown, detail, said if shown != said else "",
                  said_scores if detail != said_scores else "")


def _tinrealm(view: Mapping[str, Any]) -> Ending:
    end = view.get("end")
    score = view.get("score")
    rank = view.get("rank")
    detail = "" if score is None else f"Score {score}" + (f" · {rank}" if rank else "")
    if end == "won":
        return Ending("won", "Oakinshelm reached!", detail)
    if end == "time":
        return Ending("lost", "Out of time: day 7 is over", detail)
    if end == "dead":
        return Ending("lost", "Died on the road", detail)
    return Ending("ended", "Game over", detail)


def ending(kind: str, view: Mapping[str, Any], status: str, *, drawn: bool = True) -> Ending:
    """Return how the board of ``kind`` looks for this view and game status; with
    ``drawn`` false, its words only, every name whole (for alt text: no font is loaded
    or measured, so it costs the event loop nothing much)."""
    if status in STATUS_WORDS:
        return Ending("ended", STATUS_WORDS[status], _summary(view))
    if not view.get("over") and status != "over":
        return Ending("active")
    if kind == "tinker":
        return _tinker(view, drawn)
    if kind == "steam":
        return _steam(view, drawn)
    if kind == "tinrealm":
        return _tinrealm(view)
    return Ending("ended", "Game over")
