"""A Tin Realm fight board with its picture: the foe's power and undead mark are in words.

The picture draws the enemy's name, health, attack and defense, not its power nor whether it
is undead; both decide the fight (regeneration, enrage, the bonuses against the undead), so
the embed says them in one short line. The board heights are measured in
``test_board_heights``.
"""

from __future__ import annotations

from bot.games.tinrealm.engine import ENGINE
from bot.table import polls
from cogs.tinrealm import TinRealmCog
from tests.games.tinrealm.helpers import C, act, fight
from tests.support import loaded


def _board(enemy: str, *rolls: int, pictured: bool, strikes: int = 0, **who: str):
    """The embed of a fight with ``enemy``, after ``strikes`` sure blows."""
    state, events = fight(enemy, *rolls, **who)
    for _ in range(strikes):
        state, events = act(state, "blow")
    assert state.fight is not None
    game = loaded(ENGINE, state, events=events)
    game.pictured = pictured
    return game, TinRealmCog(None).embed(game)


def test_a_pictured_fight_says_the_foes_power_after_its_first_event_is_gone():
    """With a picture, a living foe's power is a line of the board, after strikes too
    (when the fight's opening event, which quoted it, has left the footer)."""
    power = C.enemies["moss-troll"].text
    _, embed = _board("moss-troll", 1, 1, 1, 1, 1, 1, pictured=True, strikes=2,
                      race="marshkin", klass="chanter")
    lines = (embed.description or "").split("\n")
    assert lines[0] == f"👹 {power}"
    assert "Undead" not in (embed.description or "")
    assert lines[1].endswith("⚡n: strike with n energy (+ bonus damage).")


def test_a_pictured_fight_marks_an_undead_foe_and_the_sure_blow_says_its_damage():
    """With a picture, an undead foe is marked as such beside its power, and a Cinderfolk's
    legend gives the sure blow's 2 damage against it (the race's bane)."""
    power = C.enemies["hollow-knight"].text
    _, embed = _board("hollow-knight", pictured=True, race="cinderfolk", klass="warden")
    lines = (embed.description or "").split("\n")
    assert lines[0] == f"👹 Undead · {power}"
    sure = 1 + C.races["cinderfolk"].amount
    assert lines[1].startswith(f"Sure: {sure} damage, no roll;")


def test_the_power_line_stays_while_a_vote_takes_the_legends_room():
    """A vote under way takes the legend's room, never the foe's power."""
    game, _ = _board("barrow-wight", pictured=True)
    poll = polls.new_poll(game.row.version)
    polls.cast(poll, 900, "Voter", "blow", "Sure", 1_800_000_000.0)
    game.data.poll = poll
    embed = TinRealmCog(None).embed(game)
    assert embed.description == f"👹 Undead · {C.enemies['barrow-wight'].text}"


def test_a_fight_without_a_picture_says_the_power_once():
    """Without a picture the position lines say the foe in full (undead and power); the
    short line is not added twice."""
    power = C.enemies["hollow-knight"].text
    _, embed = _board("hollow-knight", pictured=False, race="cinderfolk", klass="warden")
    text = embed.description or ""
    assert text.count(power) == 1 and "(undead)" in text
    assert "👹 Undead ·" not in text


def test_r6_the_fights_buttons_stay_in_place_as_energy_runs_low():
    """R6: the sure blow comes first and the strikes after it, ⚡0 up: a strike the
    adventurer can no longer pay for goes from the end, so between two boards of a fight
    no button ever takes another's place (the sure blow used to slide into a strike's)."""
    from tests.cogs.board_messages import board_renderer, message, played

    boards = board_renderer(False)
    before: list[str] | None = None
    fights = 0
    for game in played("tinrealm", 20, 2):
        slots = [c["custom_id"].split(":", 3)[-1]
                 for row in message(boards, game).json["components"]
                 for c in row["components"]
                 if c["type"] == 2 and ":table." not in c["custom_id"]]
        fighting = "blow" in slots
        if fighting:
            fights += 1
            assert slots[0] == "blow", slots
            if before is not None:
                assert all(a == b for a, b in zip(before, slots, strict=False)
                           if a.startswith("strike") or a == "blow"), (before, slots)
        before = slots if fighting else None
    assert fights > 50
