"""Which seats a finished game rates and how they rank (bot/table/ratings.py)."""

from __future__ import annotations

from bot.games.protocol import Outcome
from bot.table.lobby import COMPUTER_LEVELS, computer_seat
from bot.table.ratings import COMPUTER_RATINGS, rated_seats, seat_ranks
from bot.table.results import seat_results
from bot.table.seats import Seat
from db.ratings import Rating, new_ratings
from db.rows import RatedSeat


def _out(seat: int, outcome: str, score: int, resigned: bool = False,
         goods: int = 0) -> Outcome:
    return Outcome(seat, outcome, score, {"resigned": resigned, "goods_left": goods})


def _person(user: int, name: str = "P") -> Seat:
    return Seat.person(user, name)


def test_winners_first_then_score_ties_share_and_resigned_rank_last() -> None:
    """Two winners share rank 1; the next is 3; equal scores share; a resigned player
    ranks last even with the highest score."""
    ranks = seat_ranks([_out(0, "loss", 40), _out(1, "win", 50), _out(2, "win", 50),
                        _out(3, "loss", 90, resigned=True), _out(4, "loss", 40)])
    assert ranks == {1: 1, 2: 1, 0: 3, 4: 3, 3: 5}


def test_goods_left_break_equal_scores_and_the_resigned_share_last() -> None:
    """As the end board places them (S12): equal scores go to more goods left; everyone
    who resigned shares the last rank whatever their goods."""
    ranks = seat_ranks([_out(0, "win", 50, goods=3), _out(1, "loss", 50, goods=1),
                        _out(2, "loss", 50, goods=1), _out(3, "loss", 0, True, goods=4),
                        _out(4, "loss", 0, True, goods=0)])
    assert ranks == {0: 1, 1: 2, 2: 2, 3: 4, 4: 4}


def test_every_computer_level_has_a_fixed_rating() -> None:
    """Easy < Normal < Hard, each with a small sigma, for every level the lobby offers."""
    assert set(COMPUTER_RATINGS) == set(COMPUTER_LEVELS)
    easy, normal, hard = (COMPUTER_RATINGS[k] for k in ("easy", "normal", "hard"))
    assert easy[0] < normal[0] < hard[0]
    assert all(sigma <= 2.0 for _, sigma in COMPUTER_RATINGS.values())


def test_a_person_against_computers_carries_their_levels() -> None:
    """A computer's seat brings its level's fixed rating and no user id."""
    seats = [_person(11), computer_seat("Ada (computer)", "hard")]
    rated = rated_seats("steam", seats, [_out(0, "win", 60), _out(1, "loss", 30)])
    assert rated == [RatedSeat(1, 11), RatedSeat(2, None, *COMPUTER_RATINGS["hard"])]


def test_a_person_named_like_a_computer_is_rated_as_a_person() -> None:
    """Seats say what they are; a display name never decides it."""
    seats = [_person(11, "Ada (Computer)"), _person(12)]
    rated = rated_seats("steam", seats, [_out(0, "win", 60), _out(1, "loss", 30)])
    assert [s.user_id for s in rated] == [11, 12]


def test_games_that_are_not_rated() -> None:
    """Another game, a single seat, or computers only: nothing is rated."""
    two = [_out(0, "win", 60), _out(1, "loss", 30)]
    assert rated_seats("tinker", [_person(1), _person(2)], two) == []
    assert rated_seats("steam", [_person(1)], two[:1]) == []
    computers = [computer_seat("A"), computer_seat("B")]
    assert rated_seats("steam", computers, two) == []


def test_a_computer_counts_but_is_never_rated() -> None:
    """Losing to a Hard computer costs less than losing to an Easy one."""
    hard = new_ratings({}, [RatedSeat(1, None, 30.0, 2.0), RatedSeat(2, 7)])
    easy = new_ratings({}, [RatedSeat(1, None, 20.0, 2.0), RatedSeat(2, 7)])
    assert list(hard) == [7] and hard[7].mu > easy[7].mu
    assert hard[7].games == 1 and new_ratings({7: Rating(games=4)}, [
        RatedSeat(1, 7), RatedSeat(2, 8)])[7].games == 5


def test_ranks_agree_with_the_end_boards_places() -> None:
    """Whole Steam to Solar games between computer players: each seat's rank is its
    place on the end board (no one resigned, so every place counts)."""
    from bot.games.steam.engine import ENGINE

    for seed in range(3):
        state = ENGINE.new(seed, 3, {"levels": ["easy"] * 3})
        while not ENGINE.is_over(state):
            seat = state.turn
            state = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat)).state
        result = ENGINE.result(state)
        assert result is not None
        places = {p["seat"]: p["place"] for p in ENGINE.view(state)["result"]["places"]}
        assert seat_ranks(result.outcomes) == places


def test_a_person_whose_seat_a_computer_played_at_the_end_ranks_last_and_loses() -> None:
    """Bob walked away and a computer won his seat's game: he ranks last, below the
    person who played, and his result is a loss scoring 0 marked away: the computer's
    70 points are kept in its detail, so they lift none of his averages or best scores
    above Alice's own 40."""
    seats = [_person(11), _person(12).with_away(True)]
    outcomes = [_out(0, "loss", 40), _out(1, "win", 70)]
    assert [(s.rank, s.user_id) for s in rated_seats("steam", seats, outcomes)] == [
        (1, 11), (2, 12)]
    rows = seat_results(seats, outcomes)
    assert [(r.user_id, r.outcome, r.score, r.detail.get("away"),
             r.detail.get("computer_score")) for r in rows] == [
        (11, "loss", 40, None, None), (12, "loss", 0, True, 70)]
