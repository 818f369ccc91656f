"""The side-by-side benchmark's floor bot and CPU clocks (``bench/floor.py``, ``bench/cpu.py``).

The floor is only a fair floor if every click it answers is a durable save in our
store's file, and the CPU figures only mean something if the clocks count the threads
they say; both are checked here against the offline fake Discord. Nothing is timed.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from bench.bare import BareBot, Board, run_bare
from bench.clicks import run_size
from bench.cpu import CpuClock
from bench.floor import Figures, FloorBot, measurer


async def test_every_floor_click_is_saved_in_a_migrated_file(tmp_path: Path) -> None:
    """Each click the floor bot answers is one stored action of its channel's game."""
    ours = await run_size(3, 3, 0, 1, None, False, kind="move", images=False,
                          measure=measurer(Figures("ours"), 3, 2, 1))
    assert ours.bodies
    made: list[FloorBot] = []

    def make(boards: Sequence[Board], picture: bytes) -> BareBot:
        made.append(FloorBot(boards, picture, tmp_path / "floor.db"))
        return made[-1]

    floor = Figures("floor")
    result = await run_bare(3, 3, 0, 1, ours.bodies, False, make=make,
                            measure=measurer(floor, 3, 2, 1))
    warm_up = 200  # run_bare clicks max(200, boards) times before measuring
    assert len(floor.alone) == 3 and floor.burst_clicks == 3
    assert made[0].saves == warm_up + 3 + 3 + 3  # one at a time, the burst, its lateness
    assert floor.stored == (3, made[0].saves)
    assert result.errors == 0 and floor.errors == 0
    # The floor answers with ours' boards, in ours' order, one per click in turn.
    sent = [(b["data"]["embeds"], b["data"]["components"]) for b in result.bodies]
    theirs = [(b["data"]["embeds"], b["data"]["components"]) for b in ours.bodies]
    assert len(sent) == 9 and len(theirs) == 9 and sent == theirs


def test_cpu_clock_counts_another_thread_apart_from_the_loop_thread() -> None:
    """A thread's work is counted under the other threads, not the clock's own."""
    clock = CpuClock()
    clock.start()
    worked, done = threading.Event(), threading.Event()

    def work() -> None:
        sum(range(3_000_000))
        worked.set()
        done.wait()

    worker = threading.Thread(target=work)
    worker.start()
    try:
        worked.wait()
        spent = clock.spent()  # while the thread lives: an ended thread is not counted
    finally:
        done.set()
        worker.join()
    assert spent.threads > 0
    assert spent.total == spent.loop + spent.threads + spent.processes
