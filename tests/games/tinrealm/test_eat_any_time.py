"""R7 "food may be eaten at any time": once the result card is face up the adventurer
sees what is coming (a trap, a harmful encounter, an enemy that strikes first), so the
game waits on a brace before a harm that could kill while eating or an item could still
help. When nothing could help, or the harm cannot kill (eating before or after it then
ends the same), the game flows on as it did."""

from __future__ import annotations

import pytest

from bot.games.protocol import BrokenState, IllegalAction
from bot.games.tinrealm import actions, heuristic, journey
from bot.games.tinrealm.engine import ENGINE

from .helpers import C, act, deciding, hero, ids, scripted


def trap_ahead(health: int, food: int, *items: str):
    """A Marshkin Pathfinder about to resolve Gullwater Bank (trap, water) against Cinder
    Pass's result side: a 2 health trap, then water."""
    state = deciding(hero("marshkin", "pathfinder"), "gullwater-bank", "cinder-pass")
    state.health, state.food, state.items = health, food, list(items)
    return state


def hound_ahead(health: int, food: int):
    """About to resolve Howling Scree (enemy, trap) against Cinder Pass: a Rust Hound,
    which strikes first, then a 2 health trap."""
    state = deciding(hero("marshkin", "pathfinder"), "howling-scree", "cinder-pass")
    state.health, state.food, state.items = health, food, []
    return state


def test_r7_a_deadly_trap_waits_on_a_brace_where_eating_saves_the_adventurer():
    """R7: the 2 health trap would kill at 2 health; the player is offered to eat first."""
    state, events = act(trap_ahead(2, 3), "resolve")
    assert state.waiting_for == "brace" and state.health == 2 and not state.end
    assert not any("trap" in e for e in events)
    go = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "go")
    assert go.label == "Go on: face a 2 health trap" and go.group == "brace"
    assert "it could kill you" in go.description
    assert ids(state) == ["go", "eat:health"]  # energy is full: no eating for energy
    # once eating has made the trap survivable, the brace goes on by itself: eating
    # before or after a harm that cannot kill ends the same
    state, events = act(state, "eat:health")
    assert not state.end and state.health == 1 and state.waiting_for != "brace"
    assert "Go on: face a 2 health trap: happened by itself (it can no longer kill)." \
        in events
    assert "A health trap: -2 health." in events


def test_r7_going_on_without_eating_takes_the_harm_as_before():
    """R7: "Go on" springs the trap; at 2 health it kills, as it always did."""
    state, events = act(trap_ahead(2, 3), "resolve", "go")
    assert state.end == "dead"
    assert "A health trap: -2 health." in events


def test_r7_an_any_time_item_may_be_used_at_the_brace():
    """R7 and the Salve Jar's "any time": with no food, a healing item alone is a reason to
    wait, and drinking it saves the adventurer."""
    state, _ = act(trap_ahead(2, 0, "salve-jar"), "resolve")
    assert state.waiting_for == "brace" and ids(state) == ["go", "use:salve-jar"]
    state, events = act(state, "use:salve-jar")  # then only going on is left: it happens
    assert "Go on: face a 2 health trap: happened by itself (the only choice)." in events
    assert not state.end and state.health == 3


def test_r7_bitterroot_before_a_deadly_poison_trap():
    """R7: a curing item counts too: Bitterroot before a poison trap that would kill."""
    state = deciding(hero("marshkin", "pathfinder"), "gullwater-bank", "mossy-ford")
    state.health, state.poison, state.food, state.items = 3, 2, 0, ["bitterroot"]
    state, _ = act(state, "resolve")
    assert state.waiting_for == "brace"
    assert "Go on: face a 2 poison trap" in [a.label for a in ENGINE.legal_actions(state, 0)]
    state, _ = act(state, "use:bitterroot")  # going on then happens by itself
    assert not state.end and state.poison == 2


def test_r7_a_first_striking_enemy_waits_until_the_player_had_the_chance_to_eat():
    """R7: the Rust Hound strikes before the first strike, for up to 5 + 1 damage; at 3
    health the game waits before the combat begins, and no die has been rolled."""
    state, _ = act(hound_ahead(3, 3), "resolve")
    assert state.waiting_for == "brace" and state.fight is None and state.dice == []
    assert state.queue[1] == "fight:rust-hound"
    go = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "go")
    assert go.label == "Go on: the Rust Hound strikes first"
    assert "up to 6 damage" in go.description
    state, _ = act(state, "eat:health", "eat:health")
    state.rng = scripted(5, 2)  # the hound's opening strike: 3 + attack 1 = 4
    state, events = act(state, "go")
    assert not state.end and state.health == 1 and state.waiting_for == "fight:rust-hound"
    assert any("Rust Hound rolls 5 and 2" in e for e in events)


def test_r7_a_harmful_encounter_waits_on_a_brace():
    """R7: the Rockslide (lose 2 health) at 2 health waits for the player to eat."""
    state = deciding(hero("marshkin", "pathfinder"), "old-toll-bridge", "lantern-marsh")
    state.health, state.food, state.items = 2, 1, []
    state, events = act(state, "resolve")
    assert state.waiting_for == "brace" and state.queue[1] == "icon:encounter"
    assert "Go on: face the Rockslide" in [a.label for a in ENGINE.legal_actions(state, 0)]
    state, events = act(state, "eat:health")
    # the last food is eaten: only going on is left, and it happens by itself
    assert "Go on: face the Rockslide: happened by itself (the only choice)." in events
    assert not state.end and state.health == 1


def test_r7_a_trap_after_a_fight_waits_once_the_fight_is_won():
    """R7: icons resolve left to right; a deadly trap after a fight braces after it."""
    state = hound_ahead(9, 0)
    state.rng = scripted(1, 1)  # the hound's opening strike: doubles miss
    state, _ = act(state, "resolve")
    assert state.waiting_for == "fight:rust-hound"
    state.fight.health, state.health, state.food = 1, 2, 2
    state, _ = act(state, "blow")
    assert state.fight is None and state.waiting_for == "brace"
    assert state.queue[1] == "icon:trap"


@pytest.mark.parametrize(
    ("health", "food", "items"),
    [
        (2, 0, ()),  # nothing to eat or use
        (5, 3, ()),  # the 2 health trap cannot kill
        (2, 0, ("spark-tonic",)),  # energy does not save health
        (2, 3, ("grapple-line",)),  # the trap guard cancels the trap
    ],
)
def test_r7_no_brace_when_nothing_could_help_or_nothing_could_kill(health, food, items):
    """R7: the game flows as it did: same events, same state, no extra choice."""
    state, events = act(trap_ahead(health, food, *items), "resolve")
    assert state.waiting_for != "brace"
    assert not any("Go on" in e for e in events)
    assert any("trap" in e for e in events)


def test_r7_no_brace_for_an_energy_trap_or_a_fight_the_player_opens():
    """R7: eating energy before an energy trap never does better than after, and in a
    fight the player strikes first, the strike choice already offers food."""
    state = deciding(hero("marshkin", "pathfinder"), "briar-hollow", "hollow-oak")
    state.health, state.energy, state.food = 1, 1, 3
    state, events = act(state, "resolve")
    assert "An energy trap: -1 energy." in events and state.waiting_for != "brace"
    state = deciding(hero("marshkin", "pathfinder"), "cinder-pass", "howling-scree")
    state.health, state.food = 1, 3
    state, _ = act(state, "resolve")
    assert state.waiting_for == "fight:gravel-ogre" and "eat:health" in ids(state)


def test_r7_a_map_item_that_reaches_a_campsite_is_a_reason_to_wait():
    """R7: a Trail Chart one node from a campsite can save the adventurer (rest first)."""
    nodes = C.nodes([3, 3, 3, 3])
    camp = nodes.index("campsite")
    state = trap_ahead(2, 0, "trail-chart")
    state.node = state.furthest = camp - 1
    state, _ = act(state, "resolve")
    assert state.waiting_for == "brace"
    state, _ = act(state, "use:trail-chart")
    assert state.queue[:3] == ["camp", "brace", "icon:trap"]
    state, events = act(state, "camp:rest")  # nothing left to use: going on is forced
    assert "Go on: face a 2 health trap: happened by itself (the only choice)." in events
    assert not state.end and state.health == 2
    far = trap_ahead(2, 0, "trail-chart")
    far.node = far.furthest = next(i for i in range(len(nodes) - 1)
                                   if nodes[i + 1] not in ("campsite", "F"))
    assert act(far, "resolve")[0].end == "dead"


def test_r7_r11_a_brace_draws_nothing_and_replays_exactly():
    """R7/R11: waiting on a brace draws no die; the same seed and actions give the same
    game, and a braced state dumps and loads unchanged."""
    state = trap_ahead(2, 3)
    draws = state.rng.draws
    braced, _ = act(state, "resolve")
    assert braced.rng.draws == draws
    again, _ = act(trap_ahead(2, 3), "resolve")
    assert ENGINE.dump(again) == ENGINE.dump(braced)
    assert ENGINE.dump(ENGINE.load(ENGINE.dump(braced))) == ENGINE.dump(braced)


def test_r7_a_game_saved_before_braces_still_plays():
    """R7: a state saved mid-location without any brace (as older releases saved it)
    loads, and braces when it reaches the deadly trap."""
    state = hound_ahead(9, 0)
    state.rng = scripted(1, 1)
    state, _ = act(state, "resolve")
    data = ENGINE.dump(state)
    assert data["queue"][:2] == ["fight:rust-hound", "icon:trap"]
    loaded = ENGINE.load(data)
    loaded.fight.health, loaded.health, loaded.food = 1, 2, 2
    loaded, _ = act(loaded, "blow")
    assert loaded.queue[:2] == ["brace", "icon:trap"]


@pytest.mark.parametrize("queue", [["brace"], ["brace", "place"], ["brace", "brace", "icon:trap"]])
def test_r7_load_refuses_a_brace_before_nothing_to_face(queue):
    """A brace always comes just before an icon or a combat."""
    data = ENGINE.dump(act(trap_ahead(2, 3), "resolve")[0])
    data["queue"] = queue
    with pytest.raises(BrokenState):
        ENGINE.load(data)


def test_r7_heuristic_eats_while_the_harm_could_kill_then_goes_on():
    """R7: braced before a Rust Hound that could deal 6 to 6 health, the computer player
    eats until the opening strike cannot kill, and would then go on (the game does it by
    itself)."""
    state, _ = act(hound_ahead(6, 2), "resolve")
    c = ENGINE.content()
    assert state.waiting_for == "brace"
    assert ENGINE.computer_action(state, 0) == "eat:health"
    before = state.copy()
    before.food, before.health = before.food - 1, before.health + 1  # as eating leaves it
    assert journey.threat(c, before, before.queue[1]).deadly is False
    assert heuristic.choose(c, before, actions.legal(c, before)) == "go"
    state, events = act(state, "eat:health")  # and the game goes on by itself
    assert state.waiting_for != "brace" and any("happened by itself" in e for e in events)


def test_r7_heuristic_reaches_for_a_once_a_day_item_before_food():
    """R7: Prayer Beads (once a day) before food, food before a Salve Jar (used up)."""
    state = hound_ahead(8, 2)
    state.poison, state.items = 2, ["salve-jar", "prayer-beads"]
    state, _ = act(state, "resolve")
    assert ENGINE.computer_action(state, 0) == "use:prayer-beads"
    state = hound_ahead(8, 2)
    state.poison, state.items = 2, ["salve-jar"]
    state, _ = act(state, "resolve")
    assert ENGINE.computer_action(state, 0) == "eat:health"


def test_r7_no_brace_when_the_only_help_is_a_campsite_at_full_health():
    """R7: at full health, high poison and no food, a map item that reaches a campsite
    does not help (its rest heals nothing at full health): the deadly trap springs with
    no brace, rather than after a click that changes nothing. Hurt, the same item is a
    reason to wait."""
    state = deciding(hero("marshkin", "pathfinder"), "gullwater-bank", "cinder-pass")
    assert C.nodes(state.sides)[4] == "campsite"
    state.node = state.furthest = 3
    state.health, state.poison, state.food = state.max_health, state.max_health - 2, 0
    state.items = ["lodestone"]
    assert not journey.can_help(C, state)
    state.health = state.max_health - 1
    state.poison = state.health - 2
    assert journey.can_help(C, state)


def test_r7_a_log_from_before_braces_replays_through_them():
    """A game logged before braces existed went on by itself where a brace now waits:
    read back from its log (``apply_logged``), a move found at a brace goes on first, and
    a log that ends there (the harm ended the journey) goes on at its end
    (``settle_logged``). Either way the game comes out as it was played."""
    # mid-log: the Rust Hound struck first by itself, then the player struck
    state, _ = act(hound_ahead(5, 2), "resolve")
    assert state.waiting_for == "brace"
    strike = next(a.id for a in ENGINE.legal_actions(ENGINE.apply(state, 0, "go").state, 0)
                  if a.id.startswith("strike:"))
    played = ENGINE.apply(ENGINE.apply(state, 0, "go").state, 0, strike).state
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, strike)  # a live click is held to the brace
    assert ENGINE.dump(ENGINE.apply_logged(state, 0, strike).state) == ENGINE.dump(played)
    # the log's end: the 2 health trap took the journey
    state, _ = act(trap_ahead(2, 3), "resolve")
    assert state.waiting_for == "brace"
    ended = ENGINE.settle_logged(state)
    assert ended.end == "dead" and ENGINE.dump(ended) == ENGINE.dump(
        ENGINE.apply(state, 0, "go").state)
    assert ENGINE.settle_logged(ended) is ended  # a game that ended is left as it is


def test_r7_a_whole_game_logged_without_its_braces_rebuilds(tmp_path):
    """Seeded journeys played through braces (going on at each), their logs stripped of
    every "go" (as an older release logged them): the replay rebuilds each to the same
    end, a journey the brace's harm ended included."""
    from bot.table.replay import ReplayRequest, rebuild

    rebuilt = 0
    for seed in range(300):
        state = ENGINE.new(seed, 1, {})
        moves: list[str] = []
        while not ENGINE.is_over(state):  # a player who never eats: braces come often
            ids_now = [a.id for a in ENGINE.legal_actions(state, 0)]
            action = "go" if "go" in ids_now else ENGINE.computer_action(state, 0)
            if action.startswith(("eat:", "use:")):
                action = next(i for i in ids_now if not i.startswith(("eat:", "use:")))
            moves.append(action)
            state = ENGINE.apply(state, 0, action).state
        if "go" not in moves:
            continue
        request = ReplayRequest(game_id=seed, kind="tinrealm", state=ENGINE.dump(state),
                                seats=1, options={}, status="over",
                                moves=tuple((0, m) for m in moves if m != "go"))
        assert ENGINE.dump(rebuild(request)[-1]) == ENGINE.dump(state)
        rebuilt += 1
        if rebuilt == 3:
            break
    assert rebuilt == 3


def test_r7_a_brace_goes_on_by_itself_once_nothing_left_could_help():
    """Braced before the Rust Hound (up to 6) at 3 health with 1 food and a Waybread Tin,
    which gives energy only: eating the last food leaves the strike deadly and nothing
    that could help, so the game goes on by itself rather than wait (in a vote, a whole
    window) for "Go on"."""
    state = deciding(hero("marshkin", "pathfinder"), "howling-scree", "cinder-pass")
    state.health, state.food, state.items = 3, 1, ["waybread-tin"]
    state.energy = state.max_energy - 1  # the tin could be used: it does not help
    state, _ = act(state, "resolve")
    assert state.waiting_for == "brace" and "use:waybread-tin" in ids(state)
    state, events = act(state, "eat:health")
    assert state.waiting_for != "brace"
    assert any(e.endswith("happened by itself (nothing left could help).") for e in events)


def test_r7_the_brace_line_quotes_the_result_card_and_reads_as_a_sentence():
    """The Rockslide's text is quoted without its full stop ("…comes next (Lose 2
    health): it could kill you."); a Stoneborn's ward is said beside the card's own trap
    ("The result card's 2 health trap (1 for you)"), not in its place."""
    state = deciding(hero("marshkin", "pathfinder"), "old-toll-bridge", "lantern-marsh")
    state.health, state.food, state.items = 2, 2, []
    state, _ = act(state, "resolve")
    go = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "go")
    assert go.description.startswith("The Rockslide comes next (Lose 2 health): it could "
                                     "kill you."), go.description
    state = deciding(hero("stoneborn", "warden"), "gullwater-bank", "cinder-pass")
    state.health, state.food = 1, 1
    state, _ = act(state, "resolve")
    go = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "go")
    assert go.label == "Go on: face a 1 health trap"
    assert go.description.startswith(
        "The result card's 2 health trap (1 for you) springs next: it could kill you.")


def test_r7_a_game_ended_while_waiting_on_a_brace_replays_as_it_stood():
    """A channel stops voting at a brace and the table ends idle: the replay rebuilds the
    game as it stood, waiting on the brace (a log as this release writes it is read as
    it is first; the older reading, which goes on from braces, only after)."""
    from bot.table.replay import ReplayRequest, rebuild

    for seed in range(300):
        state = ENGINE.new(seed, 1, {})
        moves: list[str] = []
        while not ENGINE.is_over(state) and state.waiting_for != "brace":
            ids_now = [a.id for a in ENGINE.legal_actions(state, 0)]
            action = ENGINE.computer_action(state, 0)
            if action.startswith(("eat:", "use:")):  # never eats: braces come often
                action = next(i for i in ids_now if not i.startswith(("eat:", "use:")))
            moves.append(action)
            state = ENGINE.apply(state, 0, action).state
        if state.waiting_for == "brace":
            break
    assert state.waiting_for == "brace"
    request = ReplayRequest(game_id=1, kind="tinrealm", state=ENGINE.dump(state), seats=1,
                            options={}, status="expired",
                            moves=tuple((0, m) for m in moves))
    assert ENGINE.dump(rebuild(request)[-1]) == ENGINE.dump(state)


def test_r7_a_log_from_before_braces_uses_an_item_after_the_harm_it_followed():
    """Logged before braces: the Rust Hound struck first by itself, then the Salve Jar
    (+3) was drunk in the fight. Read back, the brace goes on first and the jar comes
    after the strike, as played (drunk before it, its +3 would be cut at the maximum)."""
    state = deciding(hero("marshkin", "pathfinder"), "howling-scree", "cinder-pass")
    state.health = state.max_health - 1
    state.poison = state.health - 6  # the hound's worst (6) could kill: a brace waits
    state.food, state.items = 0, ["salve-jar"]
    state.rng = scripted(5, 2)  # the opening strike: 3 + its attack
    braced, _ = act(state, "resolve")
    assert braced.waiting_for == "brace"
    played = ENGINE.apply(ENGINE.apply(braced, 0, "go").state, 0, "use:salve-jar").state
    braced.rng = scripted(5, 2)
    replayed = ENGINE.apply_logged(braced, 0, "use:salve-jar").state
    assert (replayed.health, replayed.items) == (played.health, played.items)
