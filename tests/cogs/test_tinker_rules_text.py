"""What Tinker players read about the rules: the rules page and round 1's offer count
(rulings T3, T7, T8, T10)."""

from __future__ import annotations

from bot.games.tinker.engine import ENGINE
from bot.pictures.alt import describe
from cogs.details import paginate
from cogs.tinker import RULES, TinkerCog
from tests.support import loaded


def _rule(title: str) -> str:
    return next(text for name, text in RULES if name.startswith(title))


def test_t7_the_rules_say_a_given_up_challenge_keeps_the_played_cards():
    """T7: giving up trashes the challenge card; the cards played go to the discard pile
    (a channel vote asks no question before a give-up, so the rules must say it)."""
    round1 = _rule("Round 1")
    assert "played cards go to your discard pile" in round1[round1.index("give up"):]


def test_t7_t8_the_rules_say_every_lost_challenge_costs_a_chip_under_harsh_defeat():
    """T8: with nothing left to draw a round 1 challenge is lost as if given up; T7: under
    harsh defeat each lost challenge costs a chip, not only a give-up."""
    round1 = _rule("Round 1")
    assert "nothing left to draw" in round1
    assert "each lost challenge also costs a chip" in round1


def test_t8_t10_the_rules_say_when_an_ace_joins_and_how_the_score_counts():
    """T8: an Ace joins when a draw from an empty deck is needed; T10: the score."""
    assert "must draw from an empty deck" in _rule("Your deck")
    assert "100 a location cleared, plus chips left" in _rule("Round 2")


def test_the_rules_pages_split_no_rule_over_two_pages():
    """Each rule is read whole on one phone page ("(continued)" is never needed)."""
    pages = paginate(list(RULES))
    assert all("(continued)" not in name for page in pages for name, _ in page)
    assert sum(len(page) for page in pages) == len(RULES)


def test_t3_the_board_counts_round_ones_eleven_offers():
    """T3: eleven choices; the title, the piles page and the alt text say which this is."""
    state = ENGINE.new(7)
    for _ in range(3):  # three offers chosen and fought
        offer = ENGINE.view(state)["offer_number"]
        while ENGINE.view(state)["offer_number"] == offer:
            state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    view = ENGINE.view(state)
    assert view["offer_number"] == 4 and view["offers"] == 11
    game = loaded(ENGINE, state)
    cog = TinkerCog(None)  # type: ignore[arg-type]
    assert cog.embed(game).title == "Tinker · round 1 · offer 4/11"
    piles = dict(cog.card_sections(game)[0].fields)
    assert piles["Round 1 offers"] == "this is offer 4 of 11; 7 more to come"
    assert " board. Round 1, offer 4 of 11. " in describe("tinker", view, "active")


def test_t3_round_two_counts_no_offers():
    """T9: round 2 has no offers: the title says the round alone."""
    state = ENGINE.new(7)
    while ENGINE.view(state)["round"] == 1:
        state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    assert ENGINE.view(state)["offer_number"] is None
    assert TinkerCog(None).embed(loaded(ENGINE, state)).title == "Tinker · round 2"  # type: ignore[arg-type]


def test_the_text_board_shows_what_makes_the_sum() -> None:
    """Pictures off, a location under way: the board lists each played card with its value
    and suits, marks those that count (they share a suit with the location), and the
    chips paid with what they added, so its sum can be checked."""
    from bot.games.tinker.engine import ENGINE
    from bot.games.tinker.setup import arranged
    from cogs.tinker import TinkerCog
    from tests.support import loaded

    state = arranged(round=2, deck=["Excuse", "Sailor", "Soldier", "Diplomat"],
                     locations=["Sea"], chips={"Knots": 2, "Waves": 1})
    state = ENGINE.apply(state, 0, "chip:Knots").state
    game = loaded(ENGINE, state, events=[])
    game.pictured = False
    text = TinkerCog(None).embed(game).description or ""
    view = game.view()
    suits = set(view["challenge"]["suits"])
    played = next(line for line in text.split("\n") if line.startswith("Played (✓ counts): "))
    for card in view["played"]:
        counts = bool(suits & set(card["suits"]))
        assert (f"✓ {card['name']} " in played) is counts, (played, card)
    adds = sum(s in suits for s in view["paid"])
    assert f"Paid: 🪢 (+{adds})" in text, text
