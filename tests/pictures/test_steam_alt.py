"""Steam to Solar's alt text, what a blind player hears instead of the picture: what the
player to act decides by comes first, with each card's suits, and the empty river is
said as the picture says it."""

from __future__ import annotations

from bot.boards.render import BoardRenderer, picture_view
from bot.boards.replay import replay_alt
from bot.games.steam.engine import ENGINE
from bot.pictures.alt import LIMIT, describe
from bot.table.replay import Frame
from bot.text.names import plain, safe_name
from tests.games.test_steam_build import build
from tests.support import loaded

NAMES = ["Alexandra Wonderland-Smythe", "Bartholomew the Builder", "Carolina of the Bells",
         "David from Accounting", "Evelyn the Eavesdropper"]
TRAINS = [[["Author", "Journey", "Savage", "Sailor", "Battle"],
           ["Forest", "Discovery", "Soldier", "Market", "Cave"]],
          [["Lunatic", "Penitent", "Chance Meeting", "Castle", "Mill"],
           ["Diplomat", "Betrayal", "Pact", "Darkness", "Merchant"]],
          [["Mountain", "Desert", "Origin", "Painter"],
           ["Watchman", "Borderland", "Ace of Waves"]],
          [["Ace of Leaves", "Ace of Wyrms"], ["Ace of Knots", "Huntress"]],
          [["Windfall", "Harvest", "Light Keeper"], ["Ace of Suns", "Bard"]]]


def _five_long_named_seats() -> str:
    """The alt text of five seats late in the game, long names, the last seat to act."""
    state = build(5, river=["Ace of Moons", "Sea", "End", "Calamity"], turn=4, half=2,
                  two_stack=1, one_stack=0, trains=TRAINS, final=[4, 0, 1, 2, 3])
    for player, name in zip(state.players, NAMES, strict=True):
        player.name = name
    return describe("steam", ENGINE.view(state), "active")


def test_the_trains_of_the_player_to_act_are_kept_at_five_seats() -> None:
    """Five seats late in the game, long names, the last seat to act: the text is cut to
    its limit from the other players' trains, never the acting player's own."""
    text = _five_long_named_seats()
    assert len(text) <= LIMIT
    assert "Evelyn the Eavesdropper: train 1 Windfall (" in text
    assert "Light Keeper (" in text and "Bard (" in text


def test_every_player_s_trains_are_said_at_five_long_named_seats() -> None:
    """Where naming every card would not fit, the other players' cards are counted: the
    last players in the order are not dropped from the text."""
    text = _five_long_named_seats()
    assert len(text) <= LIMIT
    assert "Carolina of the Bells: train 1 of 4 cards, runs on" in text
    assert "David from Accounting: train 1 of 2 cards; train 2 of 2 cards." in text
    assert "Windfall (Crown, Knots)" in text  # the player to act: still every card


def test_the_others_cards_are_named_where_they_fit() -> None:
    """At a small table the others' trains are said card by card."""
    state = build(2, river=["Sea"], turn=0, trains=[[["Author", "Savage"]], [["Forest"]]])
    assert ": train 1 Forest" in describe("steam", ENGINE.view(state), "active")


def test_the_acting_player_s_train_cards_are_said_with_their_suits() -> None:
    """As the river's cards are ("Sea (Crown, Waves)"): a blind player hears what their
    train carries and whether it has a Moon and power."""
    state = build(2, river=["Ace of Moons", "Sea", "End", "Calamity"], turn=0,
                  trains=[[["Author", "Savage"]], [["Forest"]]])
    text = describe("steam", ENGINE.view(state), "active")
    train = text[text.index("P0: train 1"):]
    assert "Knots" in train and "Leaves" in train, train


def test_an_empty_river_is_said() -> None:
    """The picture says "The river is empty" (why the player can only run or pass); so
    does the alt text."""
    state = build(3, river=[], deck=[], half=2, turn=1, final=[1, 2, 0], two_stack=2,
                  trains=[[["Ace of Knots"]], [["Savage", "Ace of Leaves"]],
                          [["Forest", "Sea"]]])
    assert "The river is empty." in describe("steam", ENGINE.view(state), "active")


#: Display names of 31-32 letters, the most Discord allows.
LONGEST = ("Alexandra Wonderland-Smythe III", "Bartholomew the Master Builder",
           "Carolina of the Christmas Bells", "David from Accounts Receivable",
           "Evelyn the Eavesdropper Supreme")


def _played(seed: int, names: tuple[str, ...], moves: int | None = None) -> object:
    """Five seats played by computers for ``moves`` moves (to the end when None)."""
    state = ENGINE.new(seed, 5, {"names": list(names)})
    done = 0
    while not ENGINE.is_over(state) and (moves is None or done < moves):
        seat = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat)).state
        done += 1
    return state


def test_no_player_s_trains_are_left_out_at_five_seats_through_a_game() -> None:
    """Every board of two five-seat games with the longest names says every player's
    trains (the others' only by their lengths where counting their cards does not fit),
    or marks with "…" that something is left out; never a player dropped in silence."""
    for seed in (0, 1):
        state = ENGINE.new(seed, 5, {"names": list(LONGEST)})
        while not ENGINE.is_over(state):
            view = ENGINE.view(state)
            said = describe("steam", view, "active")
            assert len(said) <= LIMIT
            for player in view["players"]:
                if player["trains"]:
                    assert f"{player['name']}: " in said or said.endswith("…"), said
            seat = ENGINE.to_act(state)
            state = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat)).state


def test_a_replay_s_alt_text_ends_with_a_whole_clause() -> None:
    """The words before a replay's final position leave it room: it is fitted to what is
    left, so the last player's trains are not cut inside a card's name."""
    state = _played(1, LONGEST)
    said = replay_alt("steam", Frame(ENGINE.view(state), "over"), 61)
    assert len(said) <= LIMIT and said.endswith((".", "…")), said[-60:]


def test_names_escaped_for_markdown_are_measured_as_they_are_read() -> None:
    """Names with markdown characters are held escaped ("xX\\_\\_Dark…"); the alt text is
    read without the escapes, so it is fitted to 1,024 as read: a player's trains are not
    dropped, nor counted, for their names' backslashes (on a board and on a replay)."""
    names = ("xX__Dark_Knight_of_the_Moon__Xx", "__Bartholomew_Master_Builder__",
             "~~Carolina_of_Christmas_Bells~~", "||David_Accounts_Receivable||",
             "**Evelyn_the_Eavesdropper**")
    state = ENGINE.new(0, 5, {"names": [safe_name(n) for n in names]})
    for _ in range(28):
        seat = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat)).state
    game = loaded(ENGINE, state, seats=5)
    as_read = describe("steam", picture_view(game), "active")  # the names plain
    assert BoardRenderer.alt_text(game) == as_read and len(as_read) <= LIMIT
    assert "**Evelyn_the_Eavesdropper**: trains of" in as_read
    state = _played(1, tuple(safe_name(n) for n in names))
    view = ENGINE.view(state)
    plain_view = {**view, "players": [{**p, "name": plain(p["name"])} for p in view["players"]]}
    assert (replay_alt("steam", Frame(view, "over"), 61)
            == replay_alt("steam", Frame(plain_view, "over"), 61))
