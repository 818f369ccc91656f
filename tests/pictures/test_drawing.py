"""The drawing worker: same bytes as drawing in-process, a clean close, a dead worker replaced."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal

import pytest

from bot.pictures import draw_picture
from bot.pictures.cache import PictureCache
from bot.pictures.drawing import WORKER_NICENESS, PictureDrawer
from tests.pictures.conftest import play
from tests.pictures.test_worker import raise_locked
from tests.pictures.widest import steam_view


async def test_worker_draws_the_same_bytes_as_in_process() -> None:
    drawer = PictureDrawer(PictureCache(8))
    try:
        game, state = play("tinker", 3, 20)
        for kind, view in (("steam", steam_view()), ("tinker", game.view(state))):
            png = await drawer.draw(kind, view, "active")
            assert png == draw_picture(kind, view, "active")
        pid = await drawer.worker_pid()
        assert drawer.in_process and pid is not None and pid != os.getpid()
    finally:
        await drawer.close()


async def test_the_worker_yields_the_processor_to_the_bot() -> None:
    drawer = PictureDrawer(PictureCache(8))
    try:
        await drawer.draw("tinker", {}, "active")
        pid = await drawer.worker_pid()
        assert pid is not None
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, ours + WORKER_NICENESS)
    finally:
        await drawer.close()


async def test_cache_is_kept_in_the_parent() -> None:
    cache = PictureCache(8)
    drawer = PictureDrawer(cache)
    try:
        first = await drawer.draw("steam", steam_view(2), "active")
        assert cache.misses == 1 and len(cache) == 1
        again = await drawer.draw("steam", steam_view(2), "active")
        assert again is first and cache.hits == 1
    finally:
        await drawer.close()


async def test_close_is_clean_and_final() -> None:
    drawer = PictureDrawer(PictureCache(8))
    await drawer.draw("tinker", {}, "active")
    pid = await drawer.worker_pid()
    assert pid is not None
    await drawer.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    with pytest.raises(RuntimeError):
        await drawer.draw("tinker", {}, "active")


async def test_a_dead_worker_is_replaced() -> None:
    drawer = PictureDrawer(PictureCache(8))
    try:
        await drawer.draw("tinker", {}, "active")
        pid = await drawer.worker_pid()
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        png = await drawer.draw("steam", steam_view(2), "active")
        assert png == draw_picture("steam", steam_view(2), "active")
        assert drawer.restarts == 1
        assert await drawer.worker_pid() not in (None, pid)
    finally:
        await drawer.close()


async def test_thread_fallback_draws_the_same() -> None:
    drawer = PictureDrawer(PictureCache(8), processes=False)
    try:
        png = await drawer.draw("steam", steam_view(3), "active")
        assert not drawer.in_process and await drawer.worker_pid() is None
        assert png == draw_picture("steam", steam_view(3), "active")
        assert await drawer.draw("chess", {}, "active") == b""
    finally:
        await drawer.close()


def slowly(answer: str, seconds: float) -> str:
    """Return ``answer`` after ``seconds`` (in the worker)."""
    import time

    time.sleep(seconds)
    return answer


def refuse(text: str) -> str:
    """Raise a ValueError saying ``text``."""
    raise ValueError(text)


async def test_a_caller_that_leaves_mid_drawing_does_not_mix_up_the_answers() -> None:
    drawer = PictureDrawer(PictureCache(8))
    try:
        assert await drawer.worker_pid() is not None
        left = asyncio.ensure_future(drawer.run(slowly, "first", 0.3))
        await asyncio.sleep(0.1)
        left.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await left
        # The worker is still drawing the first request; the second gets its own answer.
        assert await drawer.run(slowly, "second", 0.0) == "second"
        assert drawer.restarts == 0
    finally:
        await drawer.close()


async def test_close_stops_a_worker_that_hangs(monkeypatch) -> None:
    from bot.pictures import drawing

    monkeypatch.setattr(drawing, "STOP_SECONDS", 0.5)
    drawer = PictureDrawer(PictureCache(8))
    pid = await drawer.worker_pid()
    assert pid is not None
    hanging = asyncio.ensure_future(drawer.run(slowly, "never", 60.0))
    await asyncio.sleep(0.2)
    await asyncio.wait_for(drawer.close(), 5)
    with pytest.raises(ChildProcessError):  # killed and reaped
        os.waitpid(pid, os.WNOHANG)
    with pytest.raises(RuntimeError, match="closed"):
        await hanging
    assert drawer.restarts == 1
    with pytest.raises(RuntimeError, match="closed"):  # and no new worker is started
        await drawer.worker_pid()


async def test_what_the_work_raises_is_raised_in_the_bot() -> None:
    drawer = PictureDrawer(PictureCache(8))
    try:
        with pytest.raises(ValueError, match="no such board"):
            await drawer.run(refuse, "no such board")
        with pytest.raises(RuntimeError, match="Locked: held"):
            await drawer.run(raise_locked)
        assert await drawer.run(slowly, "still there", 0.0) == "still there"
        assert drawer.restarts == 0 and drawer.in_process
    finally:
        await drawer.close()


def die_in_worker(kind: str, view: dict, status: str) -> tuple[bytes, str | None]:
    """Exit at once in any process but the test's own (whose id the view carries)."""
    if view.get("parent") != os.getpid():
        os._exit(3)
    return draw_picture(kind, view, status), None


class DyingDrawer(PictureDrawer):
    work = staticmethod(die_in_worker)


@pytest.mark.error_logs_expected
async def test_a_worker_that_keeps_dying_gives_way_to_a_thread(caplog) -> None:
    drawer = DyingDrawer(PictureCache(8))
    try:
        view = {"parent": os.getpid()}
        png = await drawer.draw("tinker", view, "active")
        assert png == draw_picture("tinker", view, "active")
        assert drawer.restarts == 2
        assert not drawer.in_process and await drawer.worker_pid() is None
        assert "drawing in a thread" in caplog.text
    finally:
        await drawer.close()


def test_a_worker_ends_when_the_bot_process_is_killed(tmp_path) -> None:
    """A bot killed with SIGKILL leaves no drawing process behind."""
    import subprocess
    import sys
    import time

    script = tmp_path / "drawing_bot.py"
    script.write_text(
        "import asyncio, os\n"
        "from bot.pictures.drawing import WORKER_NICENESS, PictureDrawer\n"
        "async def main():\n"
        "    drawer = PictureDrawer()\n"
        "    await drawer.draw('tinker', {}, 'active')\n"
        "    print(await drawer.worker_pid(), flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n")
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        os.kill(worker, 0)  # the worker is alive while the bot is
        bot.kill()
        bot.wait(10)
        for _ in range(100):
            try:
                os.kill(worker, 0)
            except ProcessLookupError:
                break
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker, os.WNOHANG)
            time.sleep(0.1)
        else:
            raise AssertionError("the drawing process outlived the bot")
    finally:
        bot.kill()


@pytest.mark.error_logs_expected
async def test_workers_that_died_are_reaped_before_the_drawer_goes_on(monkeypatch) -> None:
    """Each worker that died is reaped, its input closed, before the drawer starts another
    or falls back to a thread: none is left for the garbage collector to close, perhaps
    after its event loop has closed (which fails whatever runs at that moment)."""
    from bot.pictures import drawing

    started: list[drawing.DrawingProcess] = []
    start = drawing.DrawingProcess.start.__func__  # type: ignore[attr-defined]

    async def recorded(cls: type[drawing.DrawingProcess]) -> drawing.DrawingProcess:
        process = await start(cls)
        started.append(process)
        return process

    monkeypatch.setattr(drawing.DrawingProcess, "start", classmethod(recorded))
    drawer = DyingDrawer(PictureCache(8))
    try:
        await drawer.draw("tinker", {"parent": os.getpid()}, "active")
        assert len(started) == 2
        assert all(p.process.returncode is not None for p in started)
        assert all(p.process.stdin is None or p.process.stdin.is_closing() for p in started)
    finally:
        await drawer.close()


@pytest.mark.error_logs_expected
async def test_a_board_the_worker_cannot_draw_is_logged_by_the_bot_naming_its_game(
        caplog, capfd) -> None:
    """A Tinker view with one odd value makes its drawer raise in the drawing process:
    the bot gets a plain picture, and its own log (formatted, redacted) has one error
    naming the game, with the worker's traceback; the worker writes nothing itself."""
    from bot.games.registry import engine

    tinker = engine("tinker")
    view = tinker.view(tinker.new(5, 1))
    view["offer"]["personality"]["suits"] = 5
    drawer = PictureDrawer(PictureCache(4), processes=True)
    try:
        png = await drawer.draw("tinker", view, "active", what="game 42")
        assert drawer.in_process and await drawer.worker_pid() is not None
    finally:
        await drawer.close()
    assert png.startswith(b"\x89PNG")
    (error,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert error.name == "bot.pictures.drawing"
    assert "tinker board of game 42 could not be drawn" in error.getMessage()
    assert "Traceback (most recent call last)" in error.getMessage()
    assert "could not be drawn" not in capfd.readouterr().err
