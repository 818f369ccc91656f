"""What Steam to Solar's board and its Rules & details say, against the state and the
rulings they describe."""

from __future__ import annotations

from bot.boards.layout import BoardSelect
from bot.games.steam.engine import ENGINE
from cogs.steam import RULES, SteamCog
from tests.games.test_steam_build import build, play
from tests.support import loaded


def test_a_select_offers_no_taking_from_an_empty_river() -> None:
    """Final round, the river empty, two trains that can run: the other moves' select
    does not say "Take cards"."""
    state = build(2, river=[], deck=[], half=2, turn=0, final=[0, 1],
                  trains=[[["Forest", "Sea"], ["Journey", "Savage"]], [["Ace of Knots"]]])
    game = loaded(ENGINE, state, seats=2, events=["x"])
    selects = [i for i in SteamCog(None).items(game) if isinstance(i, BoardSelect)]
    assert selects
    assert all("take" not in (s.placeholder or "").lower() for s in selects)


def test_the_rules_say_a_shipped_wave_card_covers_the_steam_burn() -> None:
    """S8: a shipped card with a Wave covers the burn of a steam run."""
    assert "unless a shipped card has a Wave" in dict(RULES)["Running a train"]


def test_the_trains_page_says_who_resigned_and_the_stack_they_hold() -> None:
    """A resigned player is marked so on the Trains page, not shown as a player with no
    points, and the Wave stack they keep (S10) is said."""
    state = build(3, river=["Ace of Moons", "Sea", "End", "Calamity"], turn=0, half=2,
                  two_stack=2, trains=[[["Forest"]], [["Savage"]], [["Journey", "Mill"]]])
    state, events = play(state, 2, "resign")
    game = loaded(ENGINE, state, seats=3, events=events)
    trains = next(s for s in SteamCog(None).card_sections(game) if s.key == "trains")
    name, _value = trains.fields[2]
    assert "🏳️ resigned" in name and name.endswith("holds 🎫2")


def test_the_river_page_button_names_the_river() -> None:
    """The "Rules & details" page of the river and the piles is called "River" on its
    button: "Table" read as the table of players."""
    state = build(3, river=["Forest"], deck=[], half=1, scores=[0, 0, 0], turn=0,
                  trains=[[["Savage"]], [["Mill"]], [["Journey"]]])
    sections = SteamCog(None).card_sections(loaded(ENGINE, state, seats=3, events=[]))
    assert [(s.label, s.title) for s in sections] == [
        ("River", "The river and the piles"), ("Trains", "Every player's trains")]


def _at_power_step(half: int) -> object:
    """The first state, over computer games of seeds 0 to 299, where a player running a
    train step by step chooses its power, in ``half`` and not holding the stack of two."""
    from bot.games.steam.state import Running

    for seed in range(300):
        state = ENGINE.new(seed, 3, {})
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)
            runs = [a.id for a in ENGINE.legal_actions(state, seat) if a.id.startswith("run:")]
            if state.half == half and runs:
                step = ENGINE.apply(state, seat, runs[0]).state
                if (isinstance(step.pending, Running) and step.pending.power is None
                        and step.two_stack != seat
                        and {"pw:steam", "pw:solar"} <= {a.id for a in
                                                         ENGINE.legal_actions(step, seat)}):
                    return step
            state = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat)).state
    raise AssertionError("no game chose a power step by step")


def test_the_power_step_says_what_each_power_does() -> None:
    """S8, S10: choosing the power of a run step by step, the buttons say only "🌊 Steam"
    and "☀️ Solar"; the board says what each does: steam burns a Wave card (and in the
    second half takes the stack of two), solar burns nothing. With the picture too."""
    for half, stack in ((1, False), (2, True)):
        state = _at_power_step(half)
        for pictured in (True, False):
            game = loaded(ENGINE, state, seats=3, events=["x"])
            game.pictured = pictured
            text = SteamCog(None).embed(game).description or ""
            assert "🌊 burns a Wave card" in text and "☀️ burns nothing" in text
            assert ("takes the stack of two" in text) is stack


def test_every_take_option_shows_its_cards_suits() -> None:
    """The take select's options have 100 letters: each names its cards with their suits,
    though a button's 40 would cut some (the engine's shortened label stays the
    button's); over many deals, every option of every first take menu."""
    marks = ("🌙", "☀", "🌊", "🍃", "🐉", "🪢")
    cut = 0
    for seed in range(40):
        game = loaded(ENGINE, ENGINE.new(seed, 2, {"names": ["Alice", "Bob"]}), seats=2)
        [take] = [i for i in SteamCog(None).items(game) if isinstance(i, BoardSelect)
                  and i.placeholder.startswith("Take cards")]
        assert all(any(m in o.label for m in marks) for o in take.options), take.options
        cut += sum(len(a.label) < len(a.option) for a in game.legal_actions(0))
    assert cut > 0  # some labels were cut for a button
