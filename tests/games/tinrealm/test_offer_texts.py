"""What an offer says before it is accepted (R1, R5: maxima always apply): when food's cap
or having no poison cuts what an offer gives, its description (and so the board's offer
line) says what accepting gives now, within a select option's 100 letters."""

from __future__ import annotations

from bot.games.protocol import Action
from bot.games.tinrealm import actions
from bot.games.tinrealm.engine import ENGINE
from bot.games.tinrealm.state import FOOD_CAP, TinState
from cogs.tinrealm import TinRealmCog
from tests.support import loaded

from .helpers import C, act, hero
from .test_revisions import meet_offer

#: The room of a select option's description on Discord.
OPTION_ROOM = 100


def _accept(state: TinState) -> Action:
    """The offer's accept action."""
    (yes,) = [a for a in actions.legal(C, state) if a.id == "offer:yes"]
    return yes


def _met(encounter: str, **stats: int) -> TinState:
    """A hero with ``stats`` set, waiting on the offer ``encounter``."""
    state = hero()
    for name, value in stats.items():
        setattr(state, name, value)
    meet_offer(state, encounter)
    assert state.waiting_for == f"offer:{encounter}"
    return state


def test_r1_the_peddler_at_4_food_says_it_gives_1_food():
    """R1: food is capped at 5, so at 4 food the Peddler's 2 favor buy 1 food; the offer
    and the board's offer line say so, and accepting gives exactly that."""
    state = _met("peddler", favor=2, food=FOOD_CAP - 1)
    text = _accept(state).description
    assert text == (f"{C.encounters['peddler'].text} "
                    "Now: 2 favor for 1 food (food stops at 5).")
    assert len(text) <= OPTION_ROOM
    line = TinRealmCog(None).embed(loaded(ENGINE, state)).description or ""
    assert "Now: 2 favor for 1 food (food stops at 5)." in line, line
    after, events = act(state, "offer:yes")
    assert (after.favor, after.food) == (0, FOOD_CAP)
    assert "You pay 2 favor and gain 1 food." in events


def test_r1_the_peddler_at_5_food_says_it_gives_nothing():
    """R1: at the cap the Peddler gives nothing; the offer says so and promises no food."""
    state = _met("peddler", favor=2, food=FOOD_CAP)
    text = _accept(state).description
    assert text.endswith("accepting would gain you nothing.") and "Now:" not in text, text
    assert len(text) <= OPTION_ROOM


def test_r5_the_altar_at_0_poison_says_it_removes_none():
    """R5 (maxima apply): with no poison the Altar's 1 food buys 2 favor and no less
    poison; the offer says so within the option's room, and accepting gives that."""
    state = _met("altar", food=2, poison=0, favor=0)
    text = _accept(state).description
    assert text == (f"{C.encounters['altar'].text} "
                    "Now: 1 food for 2 favor (poison stops at 0).")
    assert len(text) <= OPTION_ROOM
    after, events = act(state, "offer:yes")
    assert (after.food, after.favor, after.poison) == (1, 2, 0)
    assert "You pay 1 food and gain 2 favor." in events


def test_an_offer_given_whole_keeps_the_cards_words():
    """Below the cap and with poison to lose, each offer says the card's text alone."""
    peddler = _met("peddler", favor=2, food=1)
    assert _accept(peddler).description == C.encounters["peddler"].text
    altar = _met("altar", food=2, poison=1)
    assert _accept(altar).description == C.encounters["altar"].text
    line = TinRealmCog(None).embed(loaded(ENGINE, altar)).description or ""
    assert "Now:" not in line and C.encounters["altar"].text in line
