"""The drawing process: ``python -m bot.pictures.worker`` runs picture work sent down a pipe.

The bot starts one (:class:`bot.pictures.drawing.PictureDrawer`) and talks to it over the
process's standard input and output, one request at a time. Each message is a frame: a
4-byte big-endian length, then a pickle. A request is ``(function, args)``, with a
module-level function and plain data (both pickle); the answer is ``(True, result)`` or
``(False, exception)``. The process lowers its own priority
(:data:`WORKER_NICENESS`), so where the bot and it want the same processor the event
loop answering clicks goes first, and ends when its input ends: when the bot closes it,
or when the bot is gone (even killed), since nothing else holds the pipe.

There are no threads on the bot's side: the frames are written and read by the event
loop itself, so a picture costs the bot's process only its pickles and two pipe
operations, and never hands its GIL to a helper thread.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import sys
from typing import Any, BinaryIO

#: How much lower the worker's scheduling priority is than the bot's.
WORKER_NICENESS = 5
#: The environment variable the bot gives the worker its log level in.
WORKER_LOG_LEVEL = "TABLEHOUSE_WORKER_LOG_LEVEL"
#: A frame's length prefix: 4 bytes, big-endian.
HEADER = struct.Struct(">I")


def frame(message: Any) -> bytes:
    """Return ``message`` pickled, with its length in front."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def answer_of(work: Any, args: tuple[Any, ...]) -> bytes:
    """Run ``work(*args)``; return the answer's frame (an exception that does not pickle
    is sent as a RuntimeError with its text)."""
    try:
        return frame((True, work(*args)))
    except Exception as exc:  # every failure goes back to the bot
        try:
            return frame((False, exc))
        except Exception:  # an exception that does not pickle
            return frame((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


def _read(source: BinaryIO, size: int) -> bytes | None:
    """Read exactly ``size`` bytes, or None at the end of the input."""
    data = source.read(size)
    return data if len(data) == size else None


def serve(source: BinaryIO, sink: BinaryIO) -> None:
    """Answer requests from ``source`` on ``sink`` until ``source`` ends."""
    while True:
        head = _read(source, HEADER.size)
        if head is None:
            return
        body = _read(source, HEADER.unpack(head)[0])
        if body is None:
            return
        work, args = pickle.loads(body)
        sink.write(answer_of(work, args))
        sink.flush()


def main() -> None:
    """Lower the priority, load the drawing code and fonts, then serve the bot."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    # Ctrl-C in the bot's terminal reaches the whole group: the bot stops the worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not break the frames
    from bot.logs import setup_logging
    from bot.pictures import draw_picture

    # what it logs (a replay's frame it cannot draw) reads as the bot's own lines do
    setup_logging(os.environ.get(WORKER_LOG_LEVEL, "WARNING"), "")
    draw_picture("tinker", {}, "active")  # fonts and icons loaded before the first board
    serve(source, sink)


if __name__ == "__main__":
    main()
