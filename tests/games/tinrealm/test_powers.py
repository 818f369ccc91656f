"""Every enemy power (R6): each carried out as its card says."""

from __future__ import annotations

from .helpers import C, act, fight


def test_strikes_first_rolls_before_the_player():
    """Rust Hound (strikes_first): it hits as the combat begins."""
    state, events = fight("rust-hound", 5, 2, klass="pathfinder")
    assert C.enemies["rust-hound"].power == "strikes_first"
    assert state.health == state.max_health - (3 + C.enemies["rust-hound"].attack)
    assert "rolls 5 and 2" in events[1]


def test_other_enemies_wait_for_the_first_strike():
    """An enemy without strikes_first does not roll when the combat begins."""
    state, events = fight("bog-crawler", klass="pathfinder")
    assert state.health == state.max_health and len(events) == 1


def test_poison_on_a_hit():
    """Bog Crawler (poison): each hit also gives poison; a miss does not."""
    amount = C.enemies["bog-crawler"].amount
    state, _ = fight("bog-crawler", 1, 1, 4, 1, 1, 1, 3, 3, klass="pathfinder")
    state, events = act(state, "strike:0")
    assert state.poison == amount
    assert "venom" in events[-1]
    state, _ = act(state, "strike:0")
    assert state.poison == amount


def test_drain_on_a_hit():
    """Lantern Wisp (drain): each hit also drains energy."""
    state, _ = fight("lantern-wisp", 1, 1, 4, 1, klass="pathfinder")
    energy = state.energy
    state, events = act(state, "strike:0")
    assert state.energy == energy - C.enemies["lantern-wisp"].amount
    assert "drains" in events[-1]


def test_drain_stops_at_zero_energy():
    """Lantern Wisp (drain): energy never drops below 0."""
    state, _ = fight("lantern-wisp", 4, 1, klass="pathfinder", energy=0)
    state, _ = act(state, "blow")
    assert state.energy == 0


def test_reroll_doubles():
    """Hollow Knight (reroll_doubles): its doubles are rolled again and the new roll counts."""
    state, _ = fight("hollow-knight", 1, 1, 2, 2, 6, 1, klass="pathfinder")
    health = state.health
    state, events = act(state, "strike:0")
    assert "rolls its doubles again" in events[-2]
    assert state.health == health - (5 + C.enemies["hollow-knight"].attack)
    assert state.dice == [6, 1]


def test_reroll_doubles_can_still_miss():
    """Hollow Knight (reroll_doubles): doubles on the reroll still miss."""
    state, _ = fight("hollow-knight", 1, 1, 2, 2, 4, 4, klass="pathfinder")
    health = state.health
    state, _ = act(state, "strike:0")
    assert state.health == health


def test_doubles_hit():
    """Gravel Ogre (doubles_hit): its doubles hit for the power's amount plus its attack."""
    ogre = C.enemies["gravel-ogre"]
    state, events = fight("gravel-ogre", 1, 1, 3, 3, klass="pathfinder")
    health = state.health
    state, events = act(state, "strike:0")
    assert state.health == health - (ogre.amount + ogre.attack)
    assert "hits for" in events[-1]


def test_regenerate_after_each_strike():
    """Moss Troll (regenerate): after each of its strikes it heals, up to its start health."""
    troll = C.enemies["moss-troll"]
    state, _ = fight("moss-troll", 6, 1, 1, 1, 1, 1, 1, 1, klass="pathfinder")
    start = state.fight.health
    state, events = act(state, "strike:0")
    dealt = 5 - troll.defense
    assert state.fight.health == start - dealt + troll.amount
    assert "regenerates" in events[-1]
    state, events = act(state, "strike:0")
    assert state.fight.health == min(start, start - dealt + 2 * troll.amount)


def test_regenerate_never_above_start():
    """Moss Troll (regenerate): at full health it does not grow."""
    state, events = fight("moss-troll", 1, 1, 1, 1, klass="pathfinder")
    start = state.fight.health
    state, events = act(state, "strike:0")
    assert state.fight.health == start
    assert not any("regenerates" in e for e in events)


def test_steal_food_on_a_hit():
    """Larder Goblin (steal_food): each hit also steals food; with none, nothing is stolen."""
    state, _ = fight("larder-goblin", 1, 1, 4, 1, 1, 1, 4, 1, klass="pathfinder", food=1)
    state, events = act(state, "strike:0")
    assert state.food == 0 and "steals 1 food" in events[-1]
    state, events = act(state, "strike:0")
    assert state.food == 0 and "no food" in events[-1]


def test_death_curse_poisons_when_it_falls():
    """Barrow Wight (death_curse): defeating it gives poison."""
    wight = C.enemies["barrow-wight"]
    state, _ = fight("barrow-wight", 6, 1, klass="pathfinder")
    state.fight.health = 2
    state, events = act(state, "strike:0")
    assert state.fight is None
    assert state.poison == wight.amount and state.favor == wight.favor
    assert "curse" in " ".join(events)


def test_death_curse_can_kill():
    """Barrow Wight (death_curse): the curse kills if it brings poison up to health."""
    state, _ = fight("barrow-wight", 6, 1, klass="pathfinder", health=1)
    state.fight.health = 2
    state, _ = act(state, "strike:0")
    assert state.end == "dead"


def test_enrage_at_half_health():
    """Ironhide Boar (enrage): once at half health or less it hits harder."""
    boar = C.enemies["ironhide-boar"]
    state, _ = fight("ironhide-boar", 1, 1, 4, 1, 1, 1, 4, 1, klass="pathfinder")
    state.fight.health = state.fight.start_health = 10
    health = state.health
    state, _ = act(state, "strike:0")
    assert state.health == health - (3 + boar.attack)
    state.fight.health = 5
    health = state.health
    state, _ = act(state, "strike:0")
    assert state.health == health - (3 + boar.attack + boar.amount)
