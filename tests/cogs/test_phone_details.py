"""Phone first, the rest: the last move's events, the legend and "Rules & details"."""

from __future__ import annotations

import random
import re

import discord

from bot.games.tinker.engine import ENGINE as TINKER
from bot.games.tinrealm.engine import ENGINE as TINREALM
from cogs.tinker import TinkerCog
from cogs.tinrealm import TinRealmCog
from tests.cogs.test_phone_first import boards
from tests.support import detail_embeds, loaded

#: Characters boards use as punctuation, not as icons needing a legend.
PUNCTUATION = set("·…→×┃—•–’“”")


def _icons(text: str) -> set[str]:
    """Return the pictographs in ``text`` (emoji without their variation selectors)."""
    return {c for c in text if ord(c) > 0x2000 and c not in PUNCTUATION
            and c not in "\ufe0f\u200d"}


def _text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


def test_every_icon_on_the_boards_is_in_the_legend() -> None:
    """Every pictograph a board shows is explained by the cog's legend (Rules & details)."""
    for cog, engine, new in (
        (TinkerCog(None), TINKER, lambda s: TINKER.new(s)),
        (TinRealmCog(None), TINREALM,
         lambda s: TINREALM.new(s, 1, {"preset": "hard" if s % 2 else "easy"})),
    ):
        missing: set[str] = set()
        checked = 0
        for seed in range(40):
            for game in boards(engine, new(seed), random.Random(seed)):
                board = _text(cog.embed(game))
                legend = cog.legend(game)
                missing |= _icons(board) - _icons(legend)
                checked += 1
        assert checked > 100
        assert missing == set(), (cog.kind, missing)


def test_details_fit_discords_limits_and_list_the_piles() -> None:
    """"Rules & details" is at most 10 embeds of at most 6000 characters together."""
    for cog, engine, new, needle in (
        (TinkerCog(None), TINKER, lambda s: TINKER.new(s), "Deck:"),
        (TinRealmCog(None), TINREALM, lambda s: TINREALM.new(s, 1, {}), "Tableau"),
    ):
        for seed in range(15):
            for game in boards(engine, new(seed), random.Random(seed)):
                embeds = detail_embeds(cog, game)
                assert 4 <= len(embeds) <= 25
                for e in embeds:
                    assert len(e) <= 6000 and len(e.fields) <= 25
                    assert all(0 < len(f.value) <= 1024 for f in e.fields)
                names = [f.name for e in embeds for f in e.fields]
                assert any(n.startswith(needle) for n in names), names
                assert any("icons mean" in n for n in names)


def test_tinker_details_list_locations_and_the_deck_in_order_of_value() -> None:
    """Tinker's details: the deck sorted by value (its own order hidden), every location."""
    state = TINKER.new(3)
    for _ in range(30):
        state = TINKER.apply(state, 0, TINKER.computer_action(state, 0)).state
    embeds = detail_embeds(TinkerCog(None), loaded(TINKER, state))
    fields: dict[str, str] = {}
    for e in embeds:  # a long pile goes on over the next page
        for f in e.fields:
            name = f.name.split(":")[0].removesuffix(" (continued)")
            fields[name] = f"{fields[name]} {f.value}" if name in fields else f.value
    view = TINKER.view(state)
    deck = fields["Deck"]
    values = [int(v) for v in re.findall(r" (\d+)(?= |,|$)", deck)]
    assert values == sorted(values) and len(values) == view["deck_count"]
    assert fields["Locations ahead"] == (", ".join(view["locations"]["remaining"]) or "—")
