"""Tinker, Sailor, Soldier, Spy: rulings T1-T11, the options and the edges."""

import json
import re

import pytest

from bot.games.decktet import DECK, SUITS, card
from bot.games.protocol import MAX_ACTION_ID, BrokenState, Engine, GameError, IllegalAction
from bot.games.registry import engine
from bot.games.tinker.engine import ENGINE
from bot.games.tinker.setup import arranged
from bot.games.tinker.state import ACES, COMPANY, EVENTS, LOCATIONS, PERSONALITIES, value

ID_PATTERN = re.compile(r"[A-Za-z0-9_.:+\-]+")


def ids(state):
    return [a.id for a in ENGINE.legal_actions(state, 0)]


def act(state, *action_ids):
    events = []
    for action_id in action_ids:
        step = ENGINE.apply(state, 0, action_id)
        state = step.state
        events.extend(step.events)
    return state, events


def names(cards):
    return [c["name"] for c in cards]


def merchant_example(**kwargs):
    """The T11 position: the Merchant on offer, Savage, Author, Painter on top of the deck."""
    return arranged(
        deck=["Savage", "Author", "Painter", *COMPANY],
        personalities=["Merchant"],
        events=["Journey"],
        **kwargs,
    )


def test_engine_satisfies_protocol_and_registry():
    """The engine is the registry's "tinker" and satisfies the protocol with 2 bool options."""
    assert isinstance(ENGINE, Engine)
    assert engine("tinker") is ENGINE
    assert (ENGINE.kind, ENGINE.title) == ("tinker", "Tinker, Sailor, Soldier, Spy")
    assert (ENGINE.min_seats, ENGINE.max_seats) == (1, 1)
    assert [(o.name, o.default) for o in ENGINE.options] == [
        ("classic_journey", False),
        ("harsh_defeat", False),
    ]


def test_t1_card_values():
    """T1: Excuse 0, Ace 1, numerals face value, Pawn 10, Court 11, Crown 12."""
    assert value(card("Excuse")) == 0
    assert value(card("Ace of Knots")) == 1
    assert [value(card(n)) for n in ("Author", "Journey", "Merchant")] == [2, 3, 9]
    assert value(card("Harvest")) == 10
    assert value(card("Island")) == 11
    assert value(card("Sea")) == 12
    assert sum(value(c) for c in DECK) == 6 + 3 * 44 + 40 + 44 + 72


def test_t2_setup_piles():
    """T2: company deck of 4, 11 personalities, 11 events, 6 Aces, 13 locations, 36 chips."""
    assert len(PERSONALITIES) == len(EVENTS) == 11
    assert "Market" in EVENTS
    assert {"Origin", "End"} <= set(LOCATIONS) and len(LOCATIONS) == 13
    state = ENGINE.new(7)
    assert sorted(c.name for c in state.deck) == sorted(COMPANY)
    assert sorted(c.name for c in state.aces) == sorted(ACES)
    assert sorted(c.name for c in state.locations) == sorted(LOCATIONS)
    offer = [c.name for c in state.offer]
    assert offer[0] in PERSONALITIES and offer[1] in EVENTS
    assert sorted([offer[0], *(c.name for c in state.personalities)]) == sorted(PERSONALITIES)
    assert sorted([offer[1], *(c.name for c in state.events)]) == sorted(EVENTS)
    view = ENGINE.view(state)
    assert view["chips"] == dict.fromkeys([s.value for s in SUITS], 6)
    assert (view["personalities_left"], view["events_left"], view["aces_left"]) == (10, 10, 6)


def test_t2_piles_are_shuffled_by_seed():
    """T2: different seeds deal different orders, the same seed the same order."""
    orders = {tuple(c.name for c in ENGINE.new(seed).locations) for seed in range(20)}
    assert len(orders) > 15
    assert ENGINE.dump(ENGINE.new(3)) == ENGINE.dump(ENGINE.new(3))


def test_t2_classic_journey_puts_origin_first_and_end_last():
    """T2 option classic_journey: Origin on top of the locations, End at the bottom."""
    for seed in range(10):
        state = ENGINE.new(seed, options={"classic_journey": True})
        assert state.locations[0].name == "Origin"
        assert state.locations[-1].name == "End"
    tops = {ENGINE.new(seed).locations[0].name for seed in range(30)}
    assert tops != {"Origin"}


def test_t3_choosing_trashes_the_other_card():
    """T3: the offer is the top personality and event; the one not chosen is trashed."""
    state = merchant_example()
    view = ENGINE.view(state)
    assert view["offer"]["personality"]["name"] == "Merchant"
    assert view["offer"]["event"]["name"] == "Journey"
    assert ids(state) == ["choose:personality", "choose:event"]
    after, _ = act(state, "choose:event")
    view = ENGINE.view(after)
    assert view["offer"] is None
    assert view["challenge"]["name"] == "Journey"
    assert names(view["trashed"]) == ["Merchant"]


def test_t4_card_sharing_two_suits_counts_once_and_chips_count_by_suit():
    """T4: a two-suit match counts once, a non-matching card or chip adds 0, a match chip 1."""
    state = arranged(deck=["Market", "Journey", "Ace of Moons", *COMPANY],
                     personalities=["Merchant"], events=["Pact"])
    state, events = act(state, "choose:personality")
    assert events[-1] == "Played Market 6 🍃🪢: 6 / 9"
    state, events = act(state, "chip:Moons")
    assert events == ["Paid a 🌙 chip: 6 / 9", "Played Journey 3 🌙🌊: 6 / 9"]
    state, events = act(state, "chip:Knots")
    assert events == ["Paid a 🪢 chip: 7 / 9", "Played Ace of Moons 1 🌙: 7 / 9"]
    assert ENGINE.view(state)["sum"] == 7


def test_t5_first_play_is_free_and_automatic():
    """T5: choosing plays the top card at once, without a chip."""
    state, events = act(merchant_example(), "choose:personality")
    view = ENGINE.view(state)
    assert names(view["played"]) == ["Savage"]
    assert sum(view["spent_chips"].values()) == 0
    assert events[-1] == "Played Savage 3 🍃🐉: 3 / 9"


def test_t5_each_further_play_costs_one_chip_of_any_suit():
    """T5: a chip of any held suit, matching or not, buys exactly one card."""
    state, _ = act(merchant_example(), "choose:personality")
    assert ids(state) == [f"chip:{s.value}" for s in SUITS] + ["give_up"]
    state, _ = act(state, "chip:Suns")
    view = ENGINE.view(state)
    assert names(view["played"]) == ["Savage", "Author"]
    assert view["chips"]["Suns"] == 5 and view["spent_chips"]["Suns"] == 1
    assert view["paid"] == ["Suns"]


def test_t5_chip_of_an_empty_suit_is_refused():
    """T5: a suit with no chips left has no action, and its id is refused."""
    state = arranged(deck=["Savage", "Author", "Painter", *COMPANY], personalities=["Merchant"],
                     chips={"Moons": 0, "Suns": 2})
    state, _ = act(state, "choose:personality")
    assert ids(state) == ["chip:Suns", "give_up"]
    with pytest.raises(IllegalAction, match="No 🌙 Moons chips left"):
        ENGINE.apply(state, 0, "chip:Moons")


def test_t6_won_the_moment_the_sum_reaches_the_target():
    """T6: reaching the target exactly wins; nothing more is played; all go to the discard."""
    state = arranged(deck=["Sailor", "Soldier", "Excuse", "Diplomat"],
                     personalities=["Merchant"])
    state, _ = act(state, "choose:personality")
    state, events = act(state, "chip:Wyrms")
    assert events[1:3] == ["Played Soldier 5 🐉🪢: 9 / 9", "Beat the Merchant!"]
    view = ENGINE.view(state)
    assert names(view["discard"]) == ["Merchant", "Sailor", "Soldier"]
    assert view["played"] == [] and view["challenge"] is None
    assert view["deck_count"] == 2
    assert view["offer"] is not None


def test_t6_first_free_play_can_win_and_the_game_moves_on():
    """T6: when the free play already wins, the next offer is revealed by itself."""
    state = arranged(deck=["Diplomat", *COMPANY[:3]], personalities=["Author"],
                     events=["Journey", "Pact"])
    state, events = act(state, "choose:personality")
    assert events[1:] == ["Played Diplomat 8 🌙☀️: 8 / 2", "Beat the Author!",
                          events[-1]]
    assert events[-1].startswith("On offer: ")
    assert ENGINE.view(state)["offer"]["event"]["name"] == "Pact"


def test_t6_won_location_leaves_the_game():
    """T6: a cleared location goes to `cleared`, its played cards to the discard."""
    state = arranged(round=2, deck=["Excuse", "Soldier", "Sailor", "Diplomat"],
                     locations=["Desert", "Sea"])
    view = ENGINE.view(state)
    assert view["challenge"]["name"] == "Desert"
    state, events = act(state, "chip:Suns")
    view = ENGINE.view(state)
    assert names(view["cleared"]) == ["Desert"]
    assert names(view["discard"]) == ["Excuse", "Soldier"]
    assert events[-2:] == ["Location: Sea 12 🌊.", "Played Sailor 4 🌊🍃: 4 / 12"]


def test_t7_give_up_trashes_the_challenge_and_keeps_spent_chips_spent():
    """T7: giving up trashes the challenge, played cards go to the discard, chips stay spent."""
    state, _ = act(merchant_example(), "choose:personality", "chip:Moons")
    state, events = act(state, "give_up")
    view = ENGINE.view(state)
    assert events[0] == "Gave up the Merchant."
    assert names(view["trashed"]) == ["Journey", "Merchant"]
    assert names(view["discard"]) == ["Savage", "Author"]
    assert view["spent_chips"]["Moons"] == 1
    assert view["offer"] is not None


def test_t7_give_up_not_offered_before_the_first_card():
    """T7: while choosing (no card played yet) give_up is not an action and is refused."""
    state = merchant_example()
    assert "give_up" not in ids(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, "give_up")


def test_t7_give_up_happens_by_itself_without_chips():
    """T7: in round 1 with no chips left, giving up is the only choice: it happens by itself."""
    state = arranged(deck=["Savage", "Author", "Painter", *COMPANY], personalities=["Merchant"],
                     chips={})
    state, events = act(state, "choose:personality")
    assert "Give up the Merchant: happened by itself (the only choice)." in events
    assert "Merchant" in names(ENGINE.view(state)["trashed"])
    assert state.phase.value == "choose"


def test_t7_harsh_defeat_asks_which_chip_to_lose():
    """T7 option harsh_defeat: after giving up the player picks a chip to lose."""
    state = arranged(deck=["Savage", "Author", "Painter", *COMPANY], personalities=["Merchant"],
                     chips={"Waves": 1, "Knots": 3}, harsh_defeat=True)
    state, events = act(state, "choose:personality", "give_up")
    assert events[-1] == "Harsh defeat: choose a chip to lose."
    assert ENGINE.view(state)["offer"] is None
    assert ids(state) == ["lose:Waves", "lose:Knots"]
    with pytest.raises(IllegalAction, match="No 🌙 Moons chips left"):
        ENGINE.apply(state, 0, "lose:Moons")
    state, events = act(state, "lose:Waves")
    view = ENGINE.view(state)
    assert events[0] == "Lost a 🌊 chip with the fight."
    assert view["chips"]["Waves"] == 0 and view["spent_chips"]["Waves"] == 6
    assert view["offer"] is not None


def test_t7_harsh_defeat_without_chips_moves_on():
    """T7 option harsh_defeat: with no chip left there is nothing to lose and no pending choice."""
    state = arranged(deck=["Savage", "Author", "Painter", *COMPANY], personalities=["Merchant"],
                     chips={}, harsh_defeat=True)
    state, events = act(state, "choose:personality")
    assert "Give up the Merchant: happened by itself (the only choice)." in events
    assert ENGINE.view(state)["offer"] is not None


def test_t7_without_harsh_defeat_no_chip_is_lost():
    """T7: without the option, giving up costs no extra chip."""
    state, _ = act(merchant_example(), "choose:personality", "give_up")
    assert sum(ENGINE.view(state)["chips"].values()) == 36


def test_t8_empty_deck_adds_an_ace_and_reshuffles():
    """T8: drawing from an empty deck first puts the top Ace on the discard, then shuffles."""
    state = arranged(deck=["Excuse"], discard=["Sailor", "Soldier", "Diplomat"],
                     aces=["Ace of Wyrms"], personalities=["Merchant"])
    state, _ = act(state, "choose:personality")
    state, events = act(state, "chip:Moons")
    assert events[1:3] == ["Weariness: the Ace of Wyrms joins the discard pile.",
                           "Shuffled the discard pile into a new deck of 4."]
    view = ENGINE.view(state)
    assert view["aces_left"] == 5
    assert view["deck_count"] == 3 and view["discard"] == []
    assert len(view["played"]) == 2


def test_t8_empty_deck_without_aces_reshuffles_the_discard_only():
    """T8: with no Aces left the discard pile alone becomes the deck."""
    state = arranged(deck=["Excuse"], discard=["Sailor", "Soldier", "Diplomat"],
                     trashed=ACES, personalities=["Merchant"])
    state, _ = act(state, "choose:personality")
    state, events = act(state, "chip:Moons")
    assert events[1] == "Shuffled the discard pile into a new deck of 3."
    assert ENGINE.view(state)["deck_count"] == 2


def test_t8_nothing_to_draw_in_round_1_loses_the_challenge():
    """T8: round 1, no deck, no discard, no Ace: the challenge is lost as by giving up."""
    state = arranged(deck=["Excuse"], trashed=[*ACES, "Sailor", "Soldier", "Diplomat"],
                     personalities=["Merchant"], events=["Journey"], harsh_defeat=True)
    state, events = act(state, "choose:personality")
    assert events[-3:] == ["Nothing left to draw.", "Lost the Merchant.",
                           "Harsh defeat: choose a chip to lose."]
    view = ENGINE.view(state)
    assert "Merchant" in names(view["trashed"])
    assert names(view["discard"]) == ["Excuse"]
    assert sum(view["spent_chips"].values()) == 0


def test_t8_nothing_to_draw_for_the_free_play_in_round_1():
    """T8: round 1 with every card gone, even the free play fails and the challenge is lost."""
    state = arranged(deck=[], trashed=[*ACES, *COMPANY], personalities=["Merchant"])
    state, events = act(state, "choose:personality")
    assert events[1:3] == ["Nothing left to draw.", "Lost the Merchant."]
    assert ENGINE.view(state)["offer"] is not None


def test_t8_nothing_to_draw_in_round_2_loses_the_game():
    """T8/T9: round 2, nothing can be drawn for a location that still needs a card: lost."""
    state = arranged(round=2, deck=["Excuse"], trashed=[*ACES, "Sailor", "Soldier", "Diplomat"])
    assert ENGINE.is_over(state)
    assert ENGINE.result(state).outcomes[0].outcome == "loss"
    assert ENGINE.legal_actions(state, 0) == []
    assert ENGINE.to_act(state) is None
    summary = ENGINE.result(state).summary
    assert summary.startswith("The journey failed at the ") and summary.endswith(
        ": nothing left to draw, 36 chips left."), summary


def test_t8_round_2_draws_an_ace_when_the_deck_is_empty():
    """T8: in round 2 too an empty deck takes an Ace before the reshuffle."""
    state = arranged(round=2, deck=[], discard=["Sailor"], aces=["Ace of Suns"],
                     trashed=["Excuse", "Soldier", "Diplomat"], locations=["Desert"],
                     chips={"Moons": 1})
    view = ENGINE.view(state)
    assert view["aces_left"] == 5
    assert len(view["played"]) == 1
    assert not view["over"] and view["deck_count"] == 1


def test_t9_round_2_cannot_be_given_up():
    """T9: locations cannot be given up: no give_up action, and the id is refused."""
    state = arranged(round=2, deck=["Excuse", "Sailor", "Soldier", "Diplomat"],
                     locations=["Sea"])
    assert "give_up" not in ids(state)
    with pytest.raises(IllegalAction, match="Locations cannot be given up"):
        ENGINE.apply(state, 0, "give_up")


def test_t9_no_chip_left_for_a_location_loses_the_game():
    """T9: a location still needing a card with no chip left ends the game lost."""
    state = arranged(round=2, deck=["Excuse", "Sailor", "Soldier", "Diplomat"],
                     locations=["Sea"], chips={"Knots": 1})
    state, events = act(state, "chip:Knots")
    assert events[-2:] == ["No chip left to pay for the next card.", "The journey ends here."]
    result = ENGINE.result(state)
    assert result.outcomes[0].outcome == "loss"
    assert result.outcomes[0].detail == {"locations_cleared": 0, "chips_left": 0}
    assert result.summary == ("The journey failed at the Sea, 0 of 13 locations cleared: "
                              "no chip left to pay for a card.")


def test_t9_clearing_the_last_location_wins():
    """T9: clearing the 13th location wins the game."""
    others = [n for n in LOCATIONS if n != "Desert"]
    state = arranged(round=2, deck=["Diplomat", "Excuse", "Sailor", "Soldier"],
                     cleared=others, chips={"Moons": 4})
    assert ENGINE.is_over(state)
    assert ENGINE.view(state)["locations_left"] == 0
    assert ENGINE.result(state).outcomes[0].outcome == "win"


def test_t9_round_2_begins_after_the_eleventh_choice():
    """T9: when the offers run out the journey starts with the top location."""
    state = arranged(deck=["Diplomat", *COMPANY[:3]], personalities=PERSONALITIES[:1],
                     events=EVENTS[:1], trashed=[*PERSONALITIES[1:], *EVENTS[1:]],
                     locations=["Sea"])
    state, events = act(state, "choose:personality")
    assert "Round 2: the journey begins." in events
    view = ENGINE.view(state)
    assert view["round"] == 2 and view["challenge"]["name"] == "Sea"


def test_t10_result_and_score():
    """T10: win or loss, locations cleared and chips left; score = 100 * cleared + chips."""
    others = [n for n in LOCATIONS if n != "Desert"]
    state = arranged(round=2, deck=["Diplomat", *COMPANY[:3]], cleared=others,
                     chips={"Moons": 4, "Knots": 1})
    outcome = ENGINE.result(state).outcomes[0]
    assert (outcome.seat, outcome.outcome, outcome.score) == (0, "win", 1305)
    assert outcome.detail == {"locations_cleared": 13, "chips_left": 5}
    assert "13" in ENGINE.result(state).summary
    view = ENGINE.view(state)
    assert view["over"] and view["result"]["outcomes"][0]["score"] == 1305
    assert ENGINE.result(ENGINE.new(1)) is None


def test_t11_worked_example_merchant():
    """T11: Merchant 9 beaten by Savage 3, a chip, Author 2, a chip, Painter 3 = 10."""
    state, events = act(merchant_example(), "choose:personality")
    assert events[-1] == "Played Savage 3 🍃🐉: 3 / 9"
    state, events = act(state, "chip:Leaves")
    assert events == ["Paid a 🍃 chip: 4 / 9", "Played Author 2 🌙🪢: 6 / 9"]
    state, events = act(state, "chip:Knots")
    assert events[:3] == ["Paid a 🪢 chip: 7 / 9", "Played Painter 3 ☀️🪢: 10 / 9",
                          "Beat the Merchant!"]
    view = ENGINE.view(state)
    assert names(view["discard"]) == ["Merchant", "Savage", "Author", "Painter"]
    assert sum(view["spent_chips"].values()) == 2


def test_arranged_refuses_a_card_in_two_places():
    """The arranged() helper refuses a card placed twice or a card left out."""
    with pytest.raises(ValueError, match="twice: \\['Savage'\\]"):
        arranged(deck=["Savage", *COMPANY], discard=["Savage"])
    with pytest.raises(ValueError, match="missing: \\['Excuse'\\]"):
        arranged(deck=["Sailor", "Soldier", "Diplomat"])


def test_apply_does_not_mutate_and_unknown_id_changes_nothing():
    """apply() copies: the input state is unchanged, even when the id is refused."""
    state = merchant_example()
    before = ENGINE.dump(state)
    ENGINE.apply(state, 0, "choose:personality")
    assert ENGINE.dump(state) == before
    for bad in ("dance", "chip:Moons", "chip:Stars", "lose:Moons", ""):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, bad)
        assert ENGINE.dump(state) == before


def test_unknown_id_message_is_readable():
    """An unknown id is refused with a message naming it."""
    with pytest.raises(IllegalAction, match="Unknown action 'dance'"):
        ENGINE.apply(ENGINE.new(1), 0, "dance")


def test_other_seats_and_finished_games_have_no_actions():
    """Only seat 0 plays; a finished game refuses every action."""
    state = ENGINE.new(1)
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, "choose:event")
    over = arranged(round=2, deck=["Excuse"], trashed=[*ACES, "Sailor", "Soldier", "Diplomat"])
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(over, 0, "chip:Moons")
    with pytest.raises(IllegalAction):
        ENGINE.computer_action(over, 0)


def test_new_checks_seats_and_options():
    """new() refuses more than one seat, unknown options and non-bool values."""
    with pytest.raises(GameError):
        ENGINE.new(1, seats=2)
    with pytest.raises(GameError, match="no option"):
        ENGINE.new(1, options={"speed": True})
    with pytest.raises(GameError, match="true or false"):
        ENGINE.new(1, options={"harsh_defeat": "yes"})
    assert ENGINE.new(1, options={"harsh_defeat": True}).harsh_defeat


def test_action_ids_and_labels():
    """Ids are short ASCII from the allowed set; labels name the chip and count."""
    state, _ = act(merchant_example(), "choose:personality")
    for action in ENGINE.legal_actions(state, 0):
        assert ID_PATTERN.fullmatch(action.id) and len(action.id) <= MAX_ACTION_ID
    labels = {a.id: a.label for a in ENGINE.legal_actions(state, 0)}
    assert labels["chip:Moons"] == "🌙 draws"
    assert labels["chip:Leaves"] == "🍃 +1, draws"
    assert labels["give_up"] == "Give up the Merchant"
    described = {a.id: a.description for a in ENGINE.legal_actions(state, 0)}
    assert "6 left" in described["chip:Moons"] and "+0" in described["chip:Moons"]
    choose = {a.id: a for a in ENGINE.legal_actions(merchant_example(), 0)}
    assert choose["choose:personality"].label == "Challenge Merchant 9 🍃🪢"
    assert "Journey is trashed" in choose["choose:personality"].description


def test_view_fields_and_cards():
    """The view has every documented field, cards as name/rank/value/suits, and is JSON."""
    state, _ = act(merchant_example(), "choose:personality")
    view = ENGINE.view(state)
    for key in ("round", "offer", "challenge", "target", "played", "sum", "chips",
                "spent_chips", "deck_count", "discard", "aces_left", "personalities_left",
                "events_left", "locations_left", "cleared", "trashed", "over", "result"):
        assert key in view
    assert list(view["chips"]) == [s.value for s in SUITS]
    assert view["challenge"] == {"name": "Merchant", "rank": "9", "value": 9,
                                 "suits": ["Leaves", "Knots"]}
    assert view["target"] == 9 and view["sum"] == 3
    assert view["over"] is False and view["result"] is None
    assert json.loads(json.dumps(view)) == view


def test_dump_is_compact_and_load_round_trips():
    """dump() names cards and carries the schema; load() gives back the same game."""
    state, _ = act(merchant_example(), "choose:personality", "chip:Moons")
    data = ENGINE.dump(state)
    assert data["schema"] == ENGINE.schema_version
    assert data["played"] == ["Savage", "Author"]
    loaded = ENGINE.load(json.loads(json.dumps(data)))
    assert ENGINE.dump(loaded) == data
    assert ENGINE.view(loaded) == ENGINE.view(state)


@pytest.mark.parametrize(
    "change",
    [
        {"schema": 99},
        {"schema": None},
        {"deck": ["Excuse", "Excuse"]},
        {"deck": ["Joker"]},
        {"chips": [7, 6, 6, 6, 6, 6]},
        {"chips": [6, 6]},
        {"phase": "dancing"},
        {"round": 3},
        {"won": True},
        {"offer": []},
        {"rng": "seed"},
    ],
)
def test_load_refuses_broken_data(change):
    """load() raises BrokenState for an unknown schema or inconsistent data."""
    data = {**ENGINE.dump(ENGINE.new(5)), **change}
    with pytest.raises(BrokenState):
        ENGINE.load(data)


def test_load_refuses_missing_keys_and_non_objects():
    """load() raises BrokenState for missing keys or data that is not an object."""
    data = ENGINE.dump(ENGINE.new(5))
    del data["aces"]
    with pytest.raises(BrokenState):
        ENGINE.load(data)
    with pytest.raises(BrokenState):
        ENGINE.load(["not", "a", "game"])


def test_render_text_shows_the_board():
    """render_text() names the challenge, the sum, the chips and the piles."""
    state, _ = act(merchant_example(), "choose:personality")
    text = ENGINE.render_text(state)
    assert "Challenge: Merchant 9 🍃🪢   sum 3 / 9" in text
    assert "Played: Savage 3 🍃🐉" in text
    assert "🌙 6" in text and "Locations: 13" in text
    assert "On offer: Merchant" in ENGINE.render_text(merchant_example())


def test_computer_prefers_the_card_it_can_beat():
    """The heuristic takes an easy, useful card over one the deck cannot reach cheaply."""
    state = arranged(deck=list(COMPANY), personalities=["Huntress"], events=["Harvest"])
    assert ENGINE.computer_action(state, 0) == "choose:event"


def test_computer_pays_a_matching_chip_when_holdings_are_equal():
    """With one chip in each of two suits, the heuristic pays the one that counts now."""
    state = arranged(round=2, deck=["Excuse", "Sailor", "Soldier", "Diplomat"],
                     locations=["Sea"], chips={"Waves": 1, "Suns": 1})
    assert ENGINE.computer_action(state, 0) == "chip:Waves"
