"""Saying once that PostgreSQL is out of reach, and once that it is back.

While the server is down, asyncpg's pool tries to reconnect again and again and logs a
warning with a traceback each time ("Failed to restore the pool connection floor"), and
every request of the store fails. :class:`Outage` turns all of that into two lines: a
WARNING when the first failure is seen, an INFO line with how long it lasted when a
request succeeds again. The pool's own retry warnings are held back meanwhile (a
logging filter on ``asyncpg.pool``); the first one counts as the outage's start.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

#: The logger asyncpg's pool reports its reconnection attempts on.
POOL_LOGGER = "asyncpg.pool"


class Outage(logging.Filter):
    """Whether the server is out of reach now, and since when; logs its start and end."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        #: When the outage began (by ``clock``), or None while the server answers.
        self.since: float | None = None
        #: The failure that began it.
        self.reason = ""

    def failed(self, exc: BaseException) -> None:
        """Note a failure to reach the server; the first of an outage is logged."""
        if self.since is not None:
            return
        self.since = self._clock()
        self.reason = str(exc) or type(exc).__name__
        log.warning("PostgreSQL is out of reach (%s); requests fail until it is back",
                    self.reason)

    def answered(self) -> None:
        """Note a request the server answered; the end of an outage is logged."""
        if self.since is None:
            return
        lasted = self._clock() - self.since
        self.since = None
        log.info("PostgreSQL is back after %.1f s", lasted)

    def filter(self, record: logging.LogRecord) -> bool:
        """Hold back the pool's warning of each reconnection attempt (an outage's first
        one starts it); let every other record through."""
        if record.levelno != logging.WARNING or "pool connection" not in record.getMessage():
            return True
        error = record.exc_info[1] if record.exc_info else None
        self.failed(error if error is not None else ConnectionError(record.getMessage()))
        return False

    def watch_pool(self) -> None:
        """Start holding back the pool's reconnection warnings."""
        logging.getLogger(POOL_LOGGER).addFilter(self)

    def unwatch_pool(self) -> None:
        """Stop holding them back."""
        logging.getLogger(POOL_LOGGER).removeFilter(self)
