"""Replays: every frame of the animated picture is the board the engine gives at that step."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.games.registry import engine
from bot.pictures import draw_picture
from bot.pictures.replay import LAST_MS, STEP_MS, animate, delays, draw_frames
from bot.table.replay import NoReplay, ReplayRequest, frames

GAMES = [("tinker", 1, {}), ("tinrealm", 1, {}), ("steam", 3, {}), ("steam", 5, {}),
         ("steam", 2, {"start_seat": 1, "deck": "courts"})]


def random_game(kind: str, seats: int, options: dict[str, Any],
                seed: int) -> tuple[list[Any], list[tuple[int, str]]]:
    """Play a random legal game to its end: every state and the moves made."""
    game = engine(kind)
    states = [game.new(seed, seats, options)]
    chooser = random.Random(seed)
    moves = []
    while not game.is_over(states[-1]):
        seat = game.to_act(states[-1])
        assert seat is not None
        legal = [a.id for a in game.legal_actions(states[-1], seat)
                 if a.id != "resign" and not a.id.startswith("ask.")]
        action = chooser.choice(legal) if legal else game.computer_action(states[-1], seat)
        moves.append((seat, action))
        states.append(game.apply(states[-1], seat, action).state)
        assert len(moves) < 3000
    return states, moves


def request_for(kind: str, seats: int, state: Any, moves: list[tuple[int, str]],
                options: dict[str, Any], status: str = "over") -> ReplayRequest:
    """The replay request the table would make of a game that ended in ``state``."""
    return ReplayRequest(1, kind, engine(kind).dump(state), seats,
                         options if seats == 1 else {}, tuple(moves), status)


def positions(request: ReplayRequest) -> list[tuple[dict[str, Any], str]]:
    """The (view, status) of every position of the rebuilt game."""
    return [(f.view, f.status) for f in frames(request)]


def replay_gif(request: ReplayRequest) -> bytes:
    """Rebuild, draw and animate a whole game in the calling thread."""
    return animate(draw_frames(request.kind, positions(request)))


def gif_frames(gif: bytes) -> list[Image.Image]:
    """The GIF's frames as RGB, one per position (a frame the writer merged with the one
    before it, being identical, counts as many times as its duration says)."""
    image = Image.open(io.BytesIO(gif))
    shown: list[Image.Image] = []
    for index in range(image.n_frames):
        image.seek(index)
        duration = int(image.info.get("duration", STEP_MS))
        rgb = image.convert("RGB")
        last = index == image.n_frames - 1
        repeats = 1 if last else max(1, round(duration / STEP_MS))
        shown += [rgb] * repeats
    return shown


def same_board(frame: Image.Image, png: bytes) -> bool:
    """Whether ``frame`` shows exactly the board ``png`` at its top left, background around."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    if ImageChops.difference(frame.crop((0, 0, *board.size)), board).getbbox():
        return False
    ground = board.getpixel((0, 0))
    fill = Image.new("RGB", frame.size, ground)
    fill.paste(board, (0, 0))
    return ImageChops.difference(frame, fill).getbbox() is None


@pytest.mark.parametrize(("kind", "seats", "options"), GAMES)
def test_every_frame_is_the_board_at_that_step(kind, seats, options):
    """A random legal game replays from its seed and moves, one frame per decision, each
    frame the board drawn fresh from the engine's view at that step (the last as ended)."""
    states, moves = random_game(kind, seats, options, seed=11 + seats)
    game = engine(kind)
    request = request_for(kind, seats, states[-1], moves, options)
    gif = replay_gif(request)
    shown = gif_frames(gif)
    assert len(shown) == len(states) == len(moves) + 1
    for i, state in enumerate(states):
        status = "over" if i == len(states) - 1 else "active"
        fresh = draw_picture(kind, game.view(state), status)
        assert same_board(shown[i], fresh), f"frame {i} of {len(states)}"
    assert Image.open(io.BytesIO(gif)).info.get("loop") == 0


def test_the_frames_are_the_views_of_the_rebuilt_game():
    """The rebuilt positions are the engine's own, the last one with the game's status."""
    states, moves = random_game("tinker", 1, {}, seed=4)
    request = request_for("tinker", 1, states[-1], moves, {}, status="abandoned")
    shown = frames(request)
    game = engine("tinker")
    assert [f.view for f in shown] == [game.view(s) for s in states]
    assert [f.status for f in shown] == ["active"] * (len(states) - 1) + ["abandoned"]


def test_a_log_that_does_not_lead_to_the_end_is_refused():
    """Moves that do not reproduce the stored final state give a readable refusal."""
    states, moves = random_game("tinrealm", 1, {}, seed=6)
    request = request_for("tinrealm", 1, states[-1], moves[:-1], {})
    with pytest.raises(NoReplay, match="cannot be replayed"):
        frames(request)


def test_the_last_frame_lingers():
    """Each position shows for the same time; the final one several times longer."""
    assert delays(3) == [STEP_MS, STEP_MS, LAST_MS]
    assert delays(0) == []
    assert animate([]) == b""
    pngs = draw_frames("tinker", positions(request_for("tinker", 1, *_short_game())))
    image = Image.open(io.BytesIO(animate(pngs)))
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == LAST_MS


def _short_game() -> tuple[Any, list[tuple[int, str]], dict[str, Any]]:
    states, moves = random_game("tinker", 1, {}, seed=8)
    return states[-1], moves, {}


async def test_the_worker_process_draws_the_same_replay():
    """Rebuilt, drawn and animated in the drawing process, a replay is byte for byte the
    one drawn in the calling thread (the request and frames cross the pipe intact)."""
    from bot.pictures.cache import PictureCache
    from bot.pictures.drawing import PictureDrawer

    request = request_for("tinker", 1, *_short_game())
    drawer = PictureDrawer(PictureCache(1))
    try:
        assert await drawer.worker_pid() is not None
        shown = await drawer.run(frames, request)
        assert shown == frames(request)
        pngs = await drawer.run(draw_frames, "tinker", [(f.view, f.status) for f in shown])
        assert await drawer.run(animate, pngs) == replay_gif(request)
    finally:
        await drawer.close()
    with pytest.raises(RuntimeError, match="closed"):
        await drawer.run(frames, request)
