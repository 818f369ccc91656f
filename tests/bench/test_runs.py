"""The benchmarks that play through the real bot run to their end at their smallest size:
a change of the bot's rules for clicks (a game's own channel, a move that asks first)
shows here, not only when someone next measures."""

from __future__ import annotations

from bench import quiet, startup


async def test_a_quiet_table_plays_every_game_to_its_end() -> None:
    """``python -m bench.quiet``: the four games are played out, each with its moves."""
    figures = await quiet.main(23, 10)
    assert len(figures) == 4 and all(f.moves > 0 and f.clicks >= f.moves for f in figures)
    assert "| Tinker (3 voters) |" in quiet.report(figures)


async def test_the_start_up_benchmark_clicks_a_stored_game() -> None:
    """``python -m bench.startup --games 10``: the click on a stored game's board is
    answered with the board, after a first start and a restart."""
    rows = await startup.run([10])
    assert [row[3] for row in rows] == ["first start", "restart"]
    assert all(row[4] != "—" for row in rows)
