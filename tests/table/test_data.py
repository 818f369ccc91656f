"""The table's typed data reads rows written before it existed, and writes them back
as the same data."""

from __future__ import annotations

from bot.table.data import DEFAULT_WINDOW, NoticeDue, NoticeRef, Poll, TableData, TurnTimer, Vote

#: Table data exactly as the code before typed records wrote it (a voted Tinker game and
#: a seated Steam to Solar table).
OLD_CHANNEL = {
    "mode": "vote", "window": 45.0, "players": {"11": "Alice", "12": "Bob"},
    "recent": [[11], [11, 12]], "last": "Alice chose: 🌙 +1.",
    "poll": {"version": 7, "closes": 1_800_000_030.5, "order": ["b", "a"], "ballots": [
        {"user": 11, "name": "Alice", "action": "b", "label": "B", "at": 1_800_000_000.0},
        {"user": 12, "name": "Bob", "action": "a", "label": "A", "at": 1_800_000_001.0}]},
}
OLD_SEATED = {
    "turn_seconds": 120.0, "notices": False, "host": 12,
    "timer": {"seat": 1, "at": 1_800_000_120.0, "strikes": 1},
    "away_votes": {"13": [11]}, "notice": {"channel": 5, "message": 6},
}


def test_old_channel_data_reads_as_typed_records() -> None:
    data = TableData.from_json(OLD_CHANNEL)
    assert data.mode == "vote" and data.window == 45.0
    assert data.players == {"11": "Alice", "12": "Bob"}
    assert data.recent == [[11], [11, 12]] and data.last == "Alice chose: 🌙 +1."
    assert data.poll == Poll(7, 1_800_000_030.5, [
        Vote(11, "Alice", "b", "B", 1_800_000_000.0),
        Vote(12, "Bob", "a", "A", 1_800_000_001.0)], ["b", "a"])
    assert data.deadlines() == [1_800_000_030.5]


def test_old_seated_data_reads_as_typed_records() -> None:
    data = TableData.from_json(OLD_SEATED)
    assert data.turn_seconds == 120.0 and data.notices is False and data.host == 12
    assert data.timer == TurnTimer(1, 1_800_000_120.0, 1)
    assert data.away_votes == {"13": [11]}
    assert data.notice == NoticeRef(5, 6)
    assert data.deadlines() == [1_800_000_120.0]


def test_written_data_reads_back_the_same() -> None:
    for old in (OLD_CHANNEL, OLD_SEATED, {}):
        data = TableData.from_json(old)
        assert TableData.from_json(data.to_json()) == data
        # every value the old code stored is stored again (defaults may be left out)
        written = data.to_json()
        for key, value in old.items():
            assert written.get(key, value) == value, key


def test_missing_keys_take_their_one_default_and_unknown_keys_are_kept() -> None:
    data = TableData.from_json({"future": {"x": 1}})
    assert data.mode == "vote" and data.window == DEFAULT_WINDOW and data.notices
    assert data.poll is None and data.timer is None and data.host is None
    assert data.to_json() == {"future": {"x": 1}}


def test_a_games_own_thread_is_kept_only_when_it_has_one() -> None:
    """A game with its own thread stores the flag; other games store nothing for it."""
    assert TableData(thread=True).to_json() == {"thread": True}
    assert TableData.from_json({"thread": True}).thread is True
    assert "thread" not in TableData().to_json() and TableData.from_json({}).thread is False
def test_a_waiting_turn_notice_is_a_deadline_and_reads_back() -> None:
    """C6: a turn notice waiting for its grace time is stored with the game, counts among
    its deadlines (so the deadline loop sends it, after a restart too) and reads back; a
    notice reference keeps whom it was for, and one stored without reads as unknown (0)."""
    data = TableData(notice_due=NoticeDue(12, 1_800_000_045.0, "<@12>, it is your turn."),
                     notice=NoticeRef(5, 6, 12))
    stored = data.to_json()
    assert stored["notice_due"] == {"user": 12, "at": 1_800_000_045.0,
                                    "text": "<@12>, it is your turn."}
    again = TableData.from_json(stored)
    assert again.notice_due == data.notice_due and again.notice == NoticeRef(5, 6, 12)
    assert again.deadlines() == [1_800_000_045.0]
    assert TableData.from_json(OLD_SEATED).notice == NoticeRef(5, 6, 0)
    assert "notice_due" not in TableData().to_json()


def test_a_lobbys_invitations_are_kept_small_and_read_back() -> None:
    """A lobby's invitation lines are stored as (channel, message, member) triples and
    read back in order; a row stored without them reads as none and writes nothing for
    them, and an entry that is not a triple is left out."""
    data = TableData(invites=[NoticeRef(5, 6, 12), NoticeRef(5, 7, 13)])
    stored = data.to_json()
    assert stored == {"invites": [[5, 6, 12], [5, 7, 13]]}
    assert TableData.from_json(stored).invites == data.invites
    assert TableData.from_json(OLD_SEATED).invites == []
    assert "invites" not in TableData.from_json(OLD_SEATED).to_json()
    assert TableData.from_json({"invites": [[5, 6, 12], [1, 2], "x"]}).invites == [
        NoticeRef(5, 6, 12)]
