"""The Steam to Solar picture: a train over five cards while rearranging (S6), and the
end's banner when goods left broke a tie on the score (S12)."""

from __future__ import annotations

import itertools
from typing import Any

from bot.games.steam.engine import ENGINE
from bot.pictures import describe, render_board
from bot.pictures import steam as steam_picture
from bot.pictures.canvas import MARGIN, WIDTH, Canvas
from bot.pictures.cards import MINI
from bot.pictures.endings import Ending, ending
from tests.games.test_steam_build import build, play
from tests.pictures.conftest import image

Box = tuple[float, float, float, float]
#: Five cards without a Moon: the train cannot run until the Ace of Moons joins it.
NO_MOON = ["Ace of Leaves", "Ace of Wyrms", "Ace of Knots", "Ace of Waves", "Savage"]
RIVER = ["Ace of Moons", "Sea", "End", "Calamity"]


def _arranging(second: list[str], *moves: str) -> dict[str, Any]:
    """The view after P0 takes the Ace of Moons (take one, S6) and makes ``moves``."""
    state = build(2, river=RIVER, trains=[[NO_MOON, second]])
    state, _ = play(state, 0, "t1:1", *moves)
    return ENGINE.view(state)


def _drawn(view: dict[str, Any]) -> Canvas:
    """Draw the board, checking nothing leaves it and no layer covers what was drawn."""
    c = steam_picture.board(view, Ending("active"))
    image(c.png(c.bottom))
    assert c.covered == []
    assert all(min(b[0], b[1]) >= 0 and b[2] <= c.width and b[3] <= c.height
               for _, b in c.boxes)
    return c


def _row(c: Canvas, what: str, top: float) -> list[Box]:
    """The boxes of kind ``what`` in the train row whose cards start at ``top``, left first."""
    return sorted(b for w, b in c.boxes if w == what and top - 8 <= b[1] <= top + 4)


def _first_row_cards(c: Canvas) -> list[Box]:
    top = min(b[1] for w, b in c.boxes if w == "card")
    return [b for b in _row(c, "card", top) if b[1] == top]


def test_s6_every_card_of_a_train_over_five_is_drawn_and_the_sixth_marked() -> None:
    """S6 (revised): a train holds six cards on the way; the picture draws all six, the
    sixth framed as over the limit (in red), and no green "can run" frame round it though
    it holds a Moon (over five cards it cannot run); the row keeps its width and height."""
    within = _drawn(_arranging(["Mill"], "mv:AMoons:2"))
    view = _arranging(["Mill"], "mv:AMoons:1")
    assert [len(t) for t in view["players"][0]["trains"]] == [6, 1]
    c = _drawn(view)
    cards = _first_row_cards(c)
    assert len(cards) == 7  # six on train 1, Mill on train 2
    assert c.bottom == within.bottom  # no taller
    assert cards[0][0] >= MARGIN + steam_picture.LEFT and cards[-1][2] <= WIDTH - MARGIN
    top = cards[0][1]
    frames = _row(c, "frame", top)
    sixth = cards[5]
    # dashed, told from a green "can run" frame by its shape as well as its colour
    assert _row(c, "dashed", top) == [sixth], "the sixth card has no dashed frame"
    green = [f for f in frames if f[0] < cards[0][0] and f[2] > sixth[2]]
    assert green == [], "train 1 (6 cards) is framed as able to run"
    picture = image(render_board("steam", view)).convert("RGB")
    edge = [picture.getpixel((round(sixth[0]) + 1, y))
            for y in range(round(sixth[1]), round(sixth[3]))]
    red = [r > g + 60 and r > b + 60 for r, g, b in edge]
    assert any(red), "the card past the fifth is not marked in red"
    assert not all(red), "the frame of the card past the fifth is not dashed"
    alt = describe("steam", view, "active")
    assert "train 1 Ace of Leaves, Ace of Wyrms, Ace of Knots, Ace of Waves, Savage (3, " \
           "Leaves, Wyrms), Ace of Moons, over the five-card limit;" in alt
    assert "runs on" not in alt


def test_s6_six_cards_and_five_fit_the_row_closer_together() -> None:
    """S6: with six cards on one train and five on the other (eleven cards) every card is
    drawn, the cards stand closer together and both trains stay right of the name column
    and inside the row."""
    view = _arranging(["Mill", "Journey", "Market", "Huntress", "Sailor"], "mv:AMoons:1")
    assert [len(t) for t in view["players"][0]["trains"]] == [6, 5]
    c = _drawn(view)
    cards = _first_row_cards(c)
    assert len(cards) == 11
    steps = {round(b[0] - a[0]) for a, b in itertools.pairwise(cards[:6])}
    assert steps and max(steps) < MINI.width + 4
    assert cards[0][0] >= MARGIN + steam_picture.LEFT and cards[-1][2] <= WIDTH - MARGIN
    assert cards[6][0] - cards[5][2] >= 20  # the gap between the trains stays


def test_s6_eleven_cards_on_one_train_stay_inside() -> None:
    """S6: every card of both trains moved onto one (eleven cards) is drawn inside the row,
    the cards past the fifth framed together."""
    view = _arranging(["Mill", "Journey", "Market", "Huntress", "Sailor"], "mv:AMoons:1",
                      "mv:Mill:1", "mv:Journey:1", "mv:Market:1", "mv:Huntress:1",
                      "mv:Sailor:1")
    assert [len(t) for t in view["players"][0]["trains"]] == [11]
    c = _drawn(view)
    cards = _first_row_cards(c)
    assert len(cards) == 11 and cards[-1][2] <= WIDTH - MARGIN
    dashed = _row(c, "dashed", cards[0][1])
    assert (cards[5][0], cards[0][1], cards[10][2], cards[0][3]) in dashed


def test_within_the_limits_the_trains_are_drawn_as_before() -> None:
    """Five cards and fewer: five slots a train, 50 px apart, the second train 270 px on."""
    c = _drawn(_arranging(["Mill"], "mv:AMoons:2"))
    cards = _first_row_cards(c)
    assert [round(b[0] - cards[0][0]) for b in cards] == [0, 50, 100, 150, 200, 270, 320]


def _tied(scores: list[int], trains: list[list[list[str]]]) -> dict[str, Any]:
    state = build(len(scores), river=[], deck=[], half=2, final=[0], scores=scores,
                  trains=trains)
    state, _ = play(state, 0, "pass")
    return ENGINE.view(state)


def test_s12_banner_lists_places_and_says_goods_left_broke_the_tie() -> None:
    """S12: tied on the score, P1 wins on goods left: the banner says so, lists the
    players in their places (P1 first) and ends with the goods left."""
    view = _tied([7, 7, 5], [[["Ace of Knots"]], [["Savage", "Ace of Leaves"]], [["Market"]]])
    end = ending("steam", view, "over")
    assert (end.headline, end.detail) == ("P1 wins on goods left",
                                          "P1 7 · P0 7 · P2 5 · goods left 3 to 1")
    assert "P1 wins on goods left. P1 7 · P0 7 · P2 5 · goods left 3 to 1." in describe(
        "steam", view, "over")


def test_s12_a_shared_win_reads_as_shared() -> None:
    """S12: still tied on goods left, the win is shared, and the banner says so."""
    end = ending("steam", _tied([9, 9], [[["Sailor"]], [["Mill"]]]), "over")
    assert (end.headline, end.detail) == ("P0 and P1 share the win with 9", "P0 9 · P1 9")
    beaten = ending("steam", _tied([9, 9, 9], [[["Market"]], [["Merchant"]], [["Mill"]]]),
                    "over")
    assert beaten.headline == "P0 and P1 share the win on goods left"
    assert beaten.detail == "P0 9 · P1 9 · P2 9 · goods left 2 to 1"


def test_s12_a_view_without_places_lists_the_winners_first() -> None:
    """A view without the engine's places (read defensively) still lists the winner first,
    then by score and goods left."""
    view = _tied([7, 7, 5], [[["Ace of Knots"]], [["Savage", "Ace of Leaves"]], [["Market"]]])
    view["result"] = {k: v for k, v in view["result"].items() if k != "places"}
    assert ending("steam", view, "over").detail == "P1 7 · P0 7 · P2 5 · goods left 3 to 1"


def _tokens_by_row(c: Canvas) -> list[int]:
    """How many Wave token discs each player row holds, top row first."""
    rows = sorted(b for w, b in c.boxes if w == "panel" and b[2] - b[0] > WIDTH - 3 * MARGIN)
    return [sum(1 for w, b in c.boxes if w == "token" and row[1] <= b[1] and b[3] <= row[3])
            for row in rows]


def test_s10_wave_tokens_stand_after_their_holders_points() -> None:
    """S10, S12: in the second half the picture shows who holds the stack of two and the
    stack of one (2 points a token at the end), as the text board's totals do: two discs
    for the stack of two, one for the stack of one, inside the name column; nothing for a
    player holding none. The alt text says the same."""
    state = build(3, half=2, river=RIVER, trains=[[["Mill"]], [["Forest"]], [["Savage"]]],
                  scores=[13, 27, 8], two_stack=2, one_stack=0)
    view = ENGINE.view(state)
    c = _drawn(view)
    assert _tokens_by_row(c) == [1, 0, 2]
    tokens = [b for w, b in c.boxes if w == "token"]
    assert all(b[2] <= steam_picture.TAG_RIGHT for b in tokens)
    text = describe("steam", view, "active")
    # the totals, tokens included, as the picture's rows show them
    assert ("Points: P0 15, 1 Wave token included, to play; P1 27; P2 12, 2 Wave tokens "
            "included.") in text
    assert [p["total"] for p in view["players"]] == [15, 27, 12]


def test_s10_a_resigned_holder_shows_no_tokens_and_the_first_half_none() -> None:
    """S10: a resigned player keeps holding a stack but scores nothing; the row shows its
    "resigned" tag and no discs. The first half has no tokens at all."""
    state = build(2, half=2, river=RIVER, trains=[[["Mill"]], [["Forest"]]], two_stack=1)
    state, _ = play(state, 1, "resign")
    view = ENGINE.view(state)
    assert view["players"][1]["resigned"] and view["players"][1]["tokens"] == 2
    assert _tokens_by_row(_drawn(view)) == [0, 0]
    # the alt text says the same: no score, no tokens, only that they resigned
    status = "over" if view["over"] else "active"
    assert "; P1 resigned." in describe("steam", view, status)
    first = ENGINE.view(build(2, river=RIVER, trains=[[["Mill"]], [["Forest"]]]))
    assert _tokens_by_row(_drawn(first)) == [0, 0]


def test_a_court_in_the_river_is_marked_c_as_a_pawn_is_p(monkeypatch: Any) -> None:
    """S1: with the Courts deck, a Court in the river strip is marked "C", as on a train
    (and as a Pawn is "P"), leaving its name the room a Pawn's has."""
    def words(river: list[str], deck_kind: str) -> list[str]:
        said: list[str] = []
        real = Canvas.text

        def spy(self: Canvas, x: float, y: float, text: str, *args: Any, **kw: Any) -> float:
            said.append(text)
            return real(self, x, y, text, *args, **kw)

        monkeypatch.setattr(Canvas, "text", spy)
        view = ENGINE.view(build(2, river=river, deck_kind=deck_kind, half=2))
        steam_picture.board(view, Ending("active"))
        monkeypatch.undo()
        return said

    assert "P" in words(["Watchman", "Borderland", "Sea", "Mill"], "pawns")
    courts = words(["Consul", "Rite", "Sea", "Mill"], "courts")
    assert courts.count("C") == 2 and "Court" not in courts


def _mid_game() -> dict[str, Any]:
    """A three-seat game 40 computer moves in (seed 5): someone is placing cards, and
    some train can run."""
    state = ENGINE.new(5, 3, {"names": ["Alice", "Bob", "Carol"]})
    for _ in range(40):
        seat = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat)).state
    return ENGINE.view(state)


def test_an_ended_board_shows_no_turn_under_way() -> None:
    """A game abandoned or left idle keeps its position in the picture, but nothing of a
    turn under way: no line of what the player to act was doing ("Bob runs train 1"), no
    green frame for a train that could run. The running board has both."""
    view = _mid_game()
    who = next(p["name"] for p in view["players"] if p["seat"] == view["pending"]["seat"])
    for status, live in (("active", True), ("abandoned", False), ("expired", False)):
        c = steam_picture.board(view, ending("steam", view, status))
        words = [what for what, _ in c.boxes if what.startswith("text:")]
        frames = [box for what, box in c.boxes if what == "frame" and box[2] - box[0] > 200]
        assert any(w.startswith(f"text:{who} ") for w in words) is live, status
        assert bool(frames) is live, status


def test_an_ended_boards_alt_text_says_no_turn_under_way() -> None:
    """As the picture: the alt text of a board abandoned or left idle says nobody is "to
    play", not what the player to act was doing, nor what a train could run for; the
    running board's does."""
    view = _mid_game()
    who = next(p["name"] for p in view["players"] if p["seat"] == view["pending"]["seat"])
    for status, live in (("active", True), ("abandoned", False), ("expired", False)):
        alt = describe("steam", view, status)
        assert ("to play" in alt) is live, status
        assert (f"{who} is " in alt) is live, status
        assert (", runs on " in alt) is live, status
