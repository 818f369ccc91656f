"""Logging set-up: one format, and no secret written to any line.

Secrets are the bot token and interaction tokens. discord.py's DEBUG lines show the
URLs it calls (``/interactions/<id>/<token>/callback``, ``/webhooks/<app>/<token>/...``)
and the gateway payloads (``"token": "..."``); an exception's text and traceback may
carry the same URLs. :class:`RedactSecrets` rewrites all of them.
"""

from __future__ import annotations

import logging
import re

#: What replaces a secret in a log line.
HIDDEN = "[token hidden]"

_SECRET_PATTERNS = (
    # An interaction's callback or an interaction webhook: the part after the id.
    re.compile(r"(/interactions/[0-9]+/)[A-Za-z0-9_.\-]+"),
    # A webhook (interaction follow-ups use the application id and the interaction token).
    re.compile(r"(/webhooks/[0-9]+/)[A-Za-z0-9_.\-]+"),
    # A payload's token field, as JSON or as a Python dict's repr.
    re.compile(r"""(["']token["']\s*:\s*["'])[^"']+"""),
)


def redact(text: str, token: str = "") -> str:
    """Return ``text`` with the bot ``token`` and every interaction token hidden."""
    if token:
        text = text.replace(token, HIDDEN)
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(rf"\g<1>{HIDDEN}", text)
    return text


class RedactSecrets(logging.Filter):
    """Hide the bot token and interaction tokens in every record: message, exception, stack."""

    def __init__(self, token: str = "") -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message, exception text and stack text; keep the record."""
        try:
            message = record.getMessage()
        except Exception:  # a broken format: the handler reports it with its arguments,
            # so those are redacted one by one (the report prints them as they are)
            record.msg = redact(str(record.msg), self.token)
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(redact(str(a), self.token) for a in args)
        else:
            clean = redact(message, self.token)
            if clean != message:
                record.msg = clean
                record.args = None
        if record.exc_info and not record.exc_text:
            # Format the traceback now so that the redacted text is what handlers print.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.token)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.token)
        return True


def setup_logging(level: str, token: str) -> None:
    """Log to stderr at ``level``; hide ``token`` and interaction tokens from every line."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    handler.addFilter(RedactSecrets(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
