"""Logging set-up: one format, and the token never written to any line."""

from __future__ import annotations

import logging


class RedactToken(logging.Filter):
    """Replace the bot token with a placeholder in every record."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message if it contains the token."""
        if self.token and self.token in record.getMessage():
            record.msg = record.getMessage().replace(self.token, "[token hidden]")
            record.args = None
        return True


def setup_logging(level: str, token: str) -> None:
    """Log to stderr at ``level``; hide ``token`` from every line."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    handler.addFilter(RedactToken(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
