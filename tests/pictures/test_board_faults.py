"""What the pictures claim matches the position: a Steam train over five cards is not
framed as able to run, a finished board drops "final round", the ending banner and its alt
text name the winners, Tin Realm's tableau title and bars read whole, and the alt text says
what the picture shows (the next card, the dice, the chips paid, the discard pile)."""

from __future__ import annotations

from typing import Any

from bot.pictures import describe
from bot.pictures import steam as steam_picture
from bot.pictures import tinrealm as tinrealm_picture
from bot.pictures.canvas import BANNER_ROOM, HEADLINE, Canvas
from bot.pictures.endings import Ending, ending
from bot.pictures.script import width
from tests.pictures.conftest import play
from tests.pictures.test_steam_board_picture import _arranging, _first_row_cards, _row, _tied


def _texts(c: Canvas) -> list[str]:
    """Every line of text drawn on ``c``."""
    return [what[5:] for what, _ in c.boxes if what.startswith("text:")]


def test_only_a_train_of_five_or_fewer_is_framed_as_able_to_run() -> None:
    """S6: the train of six with a Moon gets no green frame; once the sixth card moves to
    the other train, the five left (Moon, Waves, goods) are framed green."""
    six = steam_picture.board(_arranging(["Mill"], "mv:AMoons:1"), Ending("active"))
    cards = _first_row_cards(six)
    assert not [f for f in _row(six, "frame", cards[0][1]) if f[0] < cards[0][0]]
    five = steam_picture.board(_arranging(["Mill"], "mv:Savage:2", "mv:AMoons:1"),
                               Ending("active"))
    cards = _first_row_cards(five)
    assert [f for f in _row(five, "frame", cards[0][1]) if f[0] < cards[0][0]]


def test_a_finished_board_does_not_say_final_round() -> None:
    """The game ended in the final round: the view still flags it, but neither the
    finished picture nor its alt text calls it the final round."""
    view = _tied([9, 9], [[["Sailor"]], [["Mill"]]])
    assert view["final_round"] and view["over"]
    c = steam_picture.board(view, ending("steam", view, "over"))
    assert not [t for t in _texts(c) if "final round" in t.lower()]
    assert "Final round" not in describe("steam", view, "over")


def _shared(names: list[str]) -> dict[str, Any]:
    """A finished game every player wins with 32."""
    return {"over": True,
            "players": [{"seat": seat, "name": name} for seat, name in enumerate(names)],
            "result": {"outcomes": [{"seat": seat, "score": 32, "outcome": "win"}
                                    for seat in range(len(names))],
                       "places": [{"seat": seat, "total": 32, "goods_left": 0}
                                  for seat in range(len(names))]}}


def test_a_shared_win_with_long_names_says_shared_and_the_alt_text_names_everyone() -> None:
    """Two winners whose names do not fit the headline whole: the banner says "Shared win
    with 32" (no stubs of names), the line below names them whole, and the alt text gives
    every name whole."""
    view = _shared(["Alice Wonderland", "Bob the Builder"])
    end = ending("steam", view, "over")
    assert end.headline == "Shared win with 32"
    assert end.detail == "Alice Wonderland 32 · Bob the Builder 32"
    assert width(end.headline, HEADLINE, True) <= BANNER_ROOM
    alt = describe("steam", view, "over")
    assert "Alice Wonderland and Bob the Builder share the win with 32." in alt
    assert "…" not in alt
    drawn = _texts(steam_picture.board(view, end))
    assert end.headline in drawn and end.detail in drawn


def test_cut_names_in_the_banner_stay_whole_in_the_alt_text() -> None:
    """Five long names: the banner cuts them to fit, the alt text never does."""
    names = ["Alice Wonderland", "Bob the Builder", "Carol of the Bells",
             "Dave from Accounts", "Eve the Eavesdropper"]
    scores = [20, 25, 32, 10, 5]
    order = [2, 1, 0, 3, 4]
    view = {"over": True,
            "players": [{"seat": seat, "name": name} for seat, name in enumerate(names)],
            "result": {"outcomes": [{"seat": seat, "score": score,
                                     "outcome": "win" if seat == 2 else "loss"}
                                    for seat, score in enumerate(scores)],
                       "places": [{"seat": seat, "total": scores[seat], "goods_left": 0}
                                  for seat in order]}}
    end = ending("steam", view, "over")
    assert "…" in end.detail
    alt = describe("steam", view, "over")
    assert "Carol of the Bells wins with 32." in alt
    assert " · ".join(f"{names[seat]} {scores[seat]}" for seat in order) in alt


def test_tin_realm_tableau_title_is_never_cut() -> None:
    """Today's tableau beside a "here" card: the title reads whole (shorter where the
    label leaves it less room), never cut with "…"."""
    game, state = play("tinrealm", 0, 12)
    view = game.view(state)
    assert view.get("location") and view.get("tableau")
    titles = [t for t in _texts(tinrealm_picture.board(view, Ending("active")))
              if t.startswith("Today")]
    assert titles == [f"Today · {view['location_in_day']} of 6"]


def test_tin_realm_bars_without_a_maximum_read_a_dash() -> None:
    """Before the adventurer is chosen, health and energy (and poison, counted against
    health) have no maximum: they read "–", not "0/0"; the alt text leaves them out."""
    game, state = play("tinrealm", 0, 0)
    view = game.view(state)
    assert view["max_health"] == 0
    drawn = _texts(tinrealm_picture.board(view, Ending("active")))
    assert "0/0" not in drawn and drawn.count("–") == 3
    alt = describe("tinrealm", view, "active")
    assert "of 0" not in alt and "Food 0, poison 0, favor 0." in alt


def test_alt_text_says_the_top_card_and_the_dice() -> None:
    """Tin Realm: the card labelled "next" (what it holds and where its edges lead, as a
    player decides whether to resolve or skip it) and the dice drawn are in the alt
    text."""
    game, state = play("tinrealm", 1, 25)
    view = game.view(state)
    alt = describe("tinrealm", view, "active")
    top = view["top_card"]
    icons = f": {', '.join(top['icons'])}" if top["icons"] else ""
    assert f"Top card: {top['name']}{icons} · " in alt
    assert " on the left, " in alt.split("Top card: ")[1]
    assert f"Dice: {', '.join(str(d) for d in view['dice'])}." in alt


def test_alt_text_says_the_chips_paid_and_the_discard_pile() -> None:
    """Tinker: the chips paid (drawn under the played cards) and the discard pile's count
    (in the header) are in the alt text."""
    game, state = play("tinker", 1, 12)
    view = game.view(state)
    alt = describe("tinker", view, "active")
    assert "Paid: Leaves, Knots, Leaves." in alt
    assert f"discard {len(view['discard'])}," in alt


def test_a_long_name_cut_in_the_final_round_still_says_final_round() -> None:
    """A player with a long name places cards in the final round: the status line cuts
    the name, not "final round" after it; a short name is drawn whole beside it."""
    game, state = play("steam", 3, 60, seats=5)
    view = game.view(state)
    cards = [c for p in view["players"] for t in p["trains"] for c in t] + view["river"]
    assert len(cards) >= 4
    view = {**view, "final_round": True, "over": False, "turn": 0,
            "pending": {"seat": 0, "kind": "place", "cards": cards[:4]}}
    for name, whole in (("Wolfgang Amadeus Mozart", False), ("Ann", True)):
        view["players"] = [{**p, "name": name if p["seat"] == 0 else p["name"]}
                           for p in view["players"]]
        lines = [t for t in _texts(steam_picture.board(view, ending("steam", view, "active")))
                 if "places" in t]
        assert len(lines) == 1 and lines[0].endswith("places · final round"), lines
        assert lines[0].startswith(f"{name} places") == whole, lines


def test_alt_text_keeps_a_backslash_of_a_name() -> None:
    """A name's own backslash ("¯\\_(ツ)_/¯", "\\o/") stays in the alt text of a board and
    of a replay: the names are kept escaped, as the engine holds them, until the whole
    text is made plain once."""
    from bot.boards.render import BoardRenderer
    from bot.boards.replay import replay_alt
    from bot.games.steam.engine import ENGINE
    from bot.table.replay import Frame
    from bot.text.names import safe_name
    from tests.support import loaded

    shrug, cheer = "¯\\_(ツ)_/¯", "\\o/ yay"
    state = ENGINE.new(1, 2, {"names": [safe_name(shrug), safe_name(cheer)]})
    alt = BoardRenderer.alt_text(loaded(ENGINE, state, seats=2))
    assert shrug in alt and cheer in alt, alt
    replayed = replay_alt("steam", Frame(ENGINE.view(state), "active"), 3)
    assert shrug in replayed and cheer in replayed, replayed
