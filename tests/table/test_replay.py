"""Which games a replay is made of: the channel's last ended game, its engine moves, and
the games that cannot be replayed (still going, pruned, damaged)."""

from __future__ import annotations

import pytest

from bot.table.replay import NoReplay, frames, last_finished, load_request, moves_of
from tests.support import ALICE, open_tables

CHANNEL = 555


async def _played(tables, *, channel: int = CHANNEL):
    game = await tables.start("tinker", guild_id=1, channel_id=channel, starter=ALICE)
    moves = 0
    while game.row.is_open:
        action = game.engine.computer_action(game.state, 0)
        game = (await tables.act(game.id, game.row.version, ALICE, action)).game
        moves += 1
    return game, moves


def test_only_engine_moves_are_replayed():
    """Lobby steps, away and back, and the end of a game are table moves, left out."""
    log = [{"action": {"lobby": "start"}}, {"action": {"seat": 0, "action": "a"}},
           {"action": {"away": 1}}, {"action": {"seat": 1, "action": "b"}},
           {"action": {"end": "abandoned"}}]
    assert moves_of(log) == ((0, "a"), (1, "b"))


async def test_the_last_ended_game_of_the_channel(tmp_path):
    """The channel's most recently ended game of the kind, not a game going nor another
    channel's; its moves are the log's and its frames one more."""
    async with open_tables(tmp_path / "t.db") as tables:
        store = tables.core.store
        assert await last_finished(store, CHANNEL, "tinker") is None
        first, _ = await _played(tables)
        second, moves = await _played(tables)
        await _played(tables, channel=CHANNEL + 1)
        going = await tables.start("tinker", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        assert await last_finished(store, CHANNEL, "tinker") == second.id != first.id
        assert await last_finished(store, CHANNEL, "tinrealm") is None
        request = await load_request(store, second.id)
        assert len(request.moves) == moves and request.status == "over"
        assert len(frames(request)) == moves + 1
        with pytest.raises(NoReplay, match="not over yet"):
            await load_request(store, going.id)


async def test_pruned_damaged_and_missing_games_are_refused(tmp_path):
    """A pruned game is too old, a damaged one says so, a missing one no longer exists."""
    async with open_tables(tmp_path / "t.db") as tables:
        store = tables.core.store
        pruned, _ = await _played(tables)
        assert await store.prune_finished(before=pruned.row.updated_at + 1) == 1
        with pytest.raises(NoReplay, match="too old"):
            await load_request(store, pruned.id)
        damaged, _ = await _played(tables)
        await store.connection.execute(
            "UPDATE games SET state = '{broken' WHERE id = ?", (damaged.id,))
        with pytest.raises(NoReplay, match="damaged"):
            await load_request(store, damaged.id)
        with pytest.raises(NoReplay, match="no longer exists"):
            await load_request(store, 999)


def test_a_journey_saved_without_a_field_kept_since_still_replays():
    """R9: a Tin Realm journey saved before ``supper`` was kept (it ended at a supper, so
    its moves now give ``supper`` true) still replays: a field the saved state lacks is
    not compared, every other field is."""
    from bot.games.tinrealm.engine import ENGINE
    from bot.table.replay import ReplayRequest, rebuild

    for seed in range(400):
        state, moves = ENGINE.new(seed, 1, {"preset": "easy"}), []
        while not ENGINE.is_over(state):
            action = ENGINE.computer_action(state, 0)
            moves.append((0, action))
            state = ENGINE.apply(state, 0, action).state
        if state.supper:
            break
    else:
        raise AssertionError("no easy journey of 400 ended at a supper")
    saved = ENGINE.dump(state)
    del saved["supper"]
    request = ReplayRequest(1, "tinrealm", saved, 1, {"preset": "easy"}, tuple(moves), "over")
    assert len(rebuild(request, ENGINE)) == len(moves) + 1
    saved["stats"] = [s + 1 for s in saved["stats"]]  # a field it has still counts
    with pytest.raises(NoReplay):
        rebuild(ReplayRequest(1, "tinrealm", saved, 1, {"preset": "easy"}, tuple(moves),
                              "over"), ENGINE)


def test_c6_frames_mark_a_seat_away_from_its_hand_to_a_computer_until_its_person_is_back():
    """The log's table moves hand Bob's seat to a computer after the third move and give
    it back after the seventh: the frames between mark him away, as the board did."""
    from bot.games.steam.engine import ENGINE as STEAM
    from bot.table.replay import ReplayRequest, aways_of

    names = ["Alice", "Bob", "Carol"]
    state = STEAM.new(7, 3, {"names": names, "levels": ["normal"] * 3, "start_seat": None})
    moves = []
    for _ in range(10):
        seat = STEAM.to_act(state)
        action = STEAM.computer_action(state, seat)
        moves.append((seat, action))
        state = STEAM.apply(state, seat, action).state
    log = [{"action": {"seat": s, "action": a}} for s, a in moves]
    log.insert(3, {"action": {"away": 1}})
    log.insert(8, {"action": {"back": 1}})
    assert aways_of(log) == ((3, 1, True), (7, 1, False))
    seats = tuple({"user_id": i + 1, "name": n} for i, n in enumerate(names))
    request = ReplayRequest(1, "steam", STEAM.dump(state), 3, {}, tuple(moves), "over",
                            seat_rows=seats, aways=aways_of(log))
    shown = [f.view["players"][1]["away"] for f in frames(request)]
    assert shown == [False] * 3 + [True] * 4 + [False] * 4
    assert not any(f.view["players"][0]["away"] for f in frames(request))


def _steam_ended_mid_arrangement():
    """Two computers play a real Steam to Solar game until the seat to act, holding a
    five-card train, takes one and moves it onto that train; return (moves, state, the
    other seat), the other seat about to resign and so end the game."""
    from bot.games.steam.engine import ENGINE as STEAM
    from bot.games.steam.state import Arranging

    options = {"names": ["Alice", "Bob"], "levels": ["normal"] * 2, "start_seat": None}
    for seed in range(50):
        state, moves = STEAM.new(seed, 2, options), []
        while not state.over:
            seat = STEAM.to_act(state)
            legal = [a.id for a in STEAM.legal_actions(state, seat)]
            full = [i for i, t in enumerate(state.players[seat].trains, 1) if len(t) == 5]
            takes = [a for a in legal if a.startswith("t1:")]
            if state.pending is None and full and takes:
                after = STEAM.apply(state, seat, takes[0]).state
                onto = [a.id for a in STEAM.legal_actions(after, seat)
                        if a.id.startswith("mv:") and a.id.endswith(f":{full[0]}")]
                if isinstance(after.pending, Arranging) and onto:
                    moves += [(seat, takes[0]), (seat, onto[0])]
                    return moves, STEAM.apply(after, seat, onto[0]).state, 1 - seat
            action = STEAM.computer_action(state, seat)
            moves.append((seat, action))
            state = STEAM.apply(state, seat, action).state
    raise AssertionError("no such game in 50 seeds")


def test_s6_a_steam_game_an_older_release_ended_mid_arrangement_still_replays():
    """Before an arrangement left unfinished was fitted at the end (S6), such a game
    ended with a six-card train: its log still replays to how it ended (an older
    reading), and a game ended so today replays to its fitted end."""
    from bot.games.steam.engine import ENGINE as STEAM
    from bot.table.replay import ReplayRequest, rebuild

    moves, state, other = _steam_ended_mid_arrangement()
    moves = (*moves, (other, "resign"))
    today = STEAM.apply(state, other, "resign").state
    older = STEAM.apply_unfitted(state, other, "resign")
    arranger = 1 - other
    assert [len(t) for t in state.players[arranger].trains] != [
        len(t) for t in today.players[arranger].trains]
    assert older.state.players[arranger].trains == state.players[arranger].trains
    assert not any("did not fit" in e for e in older.events)
    for final in (today, older.state):
        request = ReplayRequest(1, "steam", STEAM.dump(final), 2, {}, moves, "over")
        assert STEAM.dump(rebuild(request)[-1]) == STEAM.dump(final)
