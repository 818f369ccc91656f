"""A bounded least-recently-used cache of finished pictures, keyed by what they show."""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict
from typing import Any


def picture_key(kind: str, view: Any, status: str) -> str:
    """Return a hash of the kind, the status and the view, pickled.

    Equal keys mean equal views: the pickle is the view's plain data (a view is pickled
    for the drawing process anyway). Views built alike (the same state, or a copy of a
    view) give equal keys; two equal views built differently (keys in another order)
    may not, which costs a drawing, never a wrong picture. The key is made on the
    event loop for every pictured board (``python -m bench.click_parts`` times it).
    """
    return hashlib.blake2b(pickle.dumps((kind, status, view), 5), digest_size=16).hexdigest()


class PictureCache:
    """An LRU map from picture keys to PNG bytes, safe to share between threads."""

    def __init__(self, size: int = 128) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        """Return the bytes stored under ``key`` (and mark them recent), or None."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: str, png: bytes) -> None:
        """Store ``png`` under ``key``, dropping the least recent entries beyond the size."""
        with self._lock:
            self._items[key] = png
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every picture and reset the counters."""
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)
