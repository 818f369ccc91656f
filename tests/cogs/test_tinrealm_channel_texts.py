"""Tin Realm as a channel lives it: the buttons, the ended board and the rules page say the
numbers the rules will use, during a vote and with pictures too."""

from __future__ import annotations

from bot.boards.layout import BoardButton
from bot.games.tinrealm.engine import ENGINE
from bot.games.tinrealm.state import TinState
from bot.table import polls
from cogs.tinrealm import RULES, TinRealmCog
from tests.games.tinrealm.helpers import C, ended_journey, fight, hero, placing
from tests.support import loaded


def _labels(state: TinState, *, vote: bool = False) -> dict[str, str]:
    """The board's buttons by action id, during a channel vote when ``vote``."""
    game = loaded(ENGINE, state)
    game.pictured = True
    if vote:
        poll = polls.new_poll(game.row.version)
        polls.cast(poll, 900, "Voter", "strike:1", "Strike", 1_800_000_000.0)
        game.data.mode = "vote"
        game.data.poll = poll
    items = TinRealmCog(None).items(game)
    return {item.custom_id.split(":", 3)[-1]: str(item.label) for item in items
            if isinstance(item, BoardButton) and item.custom_id}


def test_the_sure_blows_button_says_its_damage_while_the_channel_votes():
    """R6: a vote takes the fight legend's room, so the sure blow's button carries its
    damage: 2 for a Cinderfolk against the undead."""
    state, _ = fight("hollow-knight", race="cinderfolk", klass="warden")
    labels = _labels(state, vote=True)
    assert labels["blow"] == f"Sure {1 + C.races['cinderfolk'].amount}"
    assert len(labels["blow"]) <= 8


def test_the_strike_buttons_count_gear_and_the_undead_bonuses():
    """R6: a Cinderfolk Chanter with a Whetstone adds 6 to a 1-energy roll against the
    undead (chart 2, Whetstone 1, Blessed Chalk 2, bane 1); the button says "+6"."""
    state, _ = fight("hollow-knight", race="cinderfolk", klass="chanter")
    state.items.append("whetstone")
    labels = _labels(state)
    assert labels["strike:1"] == "⚡1 +6"
    assert labels["strike:0"] == "⚡0 +4"


def test_the_skull_placement_button_says_it_costs_half_your_health():
    """R4: skull meets skull loses half the current health and moves back 3 nodes; the
    button says both, short enough for three a row on a phone."""
    labels = _labels(placing(hero(), ["howling-scree"], "sunken-chapel"))
    skull = [label for label in labels.values() if "💀" in label]
    assert skull and all(label.endswith("💀 ½❤️ −3") for label in skull), skull
    assert all(len(label) <= 12 for label in skull)


def test_a_pictured_ended_board_gives_the_score_in_parts():
    """R10: the ended board always gives the score in parts (the picture's banner shows
    only the total); the adventurer's trackers are left to the picture."""
    for end in ("won", "time"):
        state = ended_journey(end)
        game = loaded(ENGINE, state, status="over")
        game.pictured = True
        text = TinRealmCog(None).embed(game).description or ""
        assert ENGINE.view(state)["score_words"] in text, text
        assert "❤️" not in text and "🗺️" not in text
        game.pictured = False
        assert "🗺️" in (TinRealmCog(None).embed(game).description or "")


def test_the_rules_page_says_how_the_enemy_strikes():
    """R6: the enemy's strike is two dice, doubles miss, else the difference plus its
    attack, minus 1 with a helm; the player strikes first unless a power says otherwise."""
    combat = dict(RULES)["Combat"]
    for words in ("doubles miss", "plus its attack value", "minus 1 with a helm",
                  "You strike first unless"):
        assert words in combat, (words, combat)
    assert len(combat) <= 1024


def test_the_details_page_gives_each_class_s_starting_items_in_full():
    """R1: the class select names both starting items; what each does is on the details
    page while the adventurer is chosen."""
    state = ENGINE.apply(ENGINE.new(1, 1, {}), 0, "race:cinderfolk").state
    game = loaded(ENGINE, state)
    fields = dict((name, value) for section in TinRealmCog(None).card_sections(game)
                  for name, value in section.fields)
    text = fields["Classes and their starting items"]
    for klass in C.classes.values():
        for item in klass.trappings:
            assert f"{C.items[item].name} ({C.items[item].text})" in text


def test_r4_a_skull_placing_button_is_said_in_words_on_the_board():
    """R4: "⬅️ 💀 ½❤️ −3" says in emoji alone what the costliest placing does; the board
    says it in words too, naming the end, with a picture and without, and says nothing
    of skulls when no end matches them."""
    from tests.cogs.board_messages import board_renderer, played

    seen = 0
    for pictured in (True, False):
        boards = board_renderer(pictured)
        for game in played("tinrealm", 30, 4):
            body = boards.drawing.render(game, picture=b"png" if pictured else b"")
            if body.get("view") is None or game.view()["waiting"] != "place":
                continue
            labels = [c.get("label", "") for row in body["view"].to_components()
                      for c in row["components"]]
            skulls = [label for label in labels if "💀" in label]
            said = [line for line in (body["embed"].description or "").split("\n")
                    if line.startswith("💀")]
            if not skulls:
                assert said == []
                continue
            seen += 1
            end = "left" if skulls[0].startswith("⬅️") else "right"
            assert said == [f"💀 At the {end} end, skull meets skull: you lose half your "
                            "health and go back 3 nodes."], (skulls, said)
    assert seen >= 2


def test_r7_a_brace_says_what_comes_and_that_eating_may_come_first():
    """R7: the board of a brace says the harm the result card shows, that it could kill,
    and that eating or an item may come first; its one button says what going on faces,
    beside the eat select."""
    from tests.games.tinrealm.helpers import act, deciding

    state = deciding(hero("marshkin", "pathfinder"), "gullwater-bank", "cinder-pass")
    state.health, state.food, state.items = 2, 3, []
    state, _ = act(state, "resolve")
    assert state.waiting_for == "brace"
    for pictured in (True, False):
        game = loaded(ENGINE, state)
        game.pictured = pictured
        embed = TinRealmCog(None).embed(game)
        assert (embed.description or "").split("\n")[0] == (
            "⚠️ The result card's 2 health trap springs next: it could kill you. Eat or "
            "use an item first, or go on.")
    labels = _labels(state)
    assert labels["go"] == "Go on: face a 2 health trap"
