"""The drawing process's side of the pipe: frames in, answers out, the end at the input's end."""

from __future__ import annotations

import io
import pickle

from bot.pictures.worker import HEADER, answer_of, frame, serve


def _answers(data: bytes) -> list[tuple[bool, object]]:
    found = []
    stream = io.BytesIO(data)
    while head := stream.read(HEADER.size):
        found.append(pickle.loads(stream.read(HEADER.unpack(head)[0])))
    return found


def test_each_request_gets_its_answer_in_order_until_the_input_ends() -> None:
    source = io.BytesIO(frame((max, (3, 9))) + frame((len, ("abcd",)))
                        + frame((int, ("x",))))
    sink = io.BytesIO()
    serve(source, sink)
    first, second, third = _answers(sink.getvalue())
    assert first == (True, 9) and second == (True, 4)
    assert third[0] is False and isinstance(third[1], ValueError)


def test_a_request_cut_short_ends_the_worker_without_an_answer() -> None:
    whole = frame((max, (1, 2)))
    sink = io.BytesIO()
    serve(io.BytesIO(whole + whole[:-3]), sink)  # the bot died while writing
    assert _answers(sink.getvalue()) == [(True, 2)]


class Locked(Exception):
    """An exception that does not pickle (it holds a lock)."""

    def __init__(self) -> None:
        import threading

        super().__init__("held")
        self.lock = threading.Lock()


def raise_locked() -> None:
    """Raise an exception that does not pickle (the worker's tests and the drawer's)."""
    raise Locked()


def _a_lock() -> object:
    import threading

    return threading.Lock()


def test_what_does_not_pickle_comes_back_as_an_error_with_its_text() -> None:
    ok, error = pickle.loads(answer_of(raise_locked, ())[HEADER.size:])
    assert ok is False and isinstance(error, RuntimeError) and str(error) == "Locked: held"
    ok, error = pickle.loads(answer_of(_a_lock, ())[HEADER.size:])  # a result, then
    assert ok is False and "pickle" in str(error)
