"""Log lines never show the bot token or an interaction token, tracebacks included."""

import io
import json
import logging
import sys

import aiohttp
import discord
from yarl import URL

from bot.logs import HIDDEN, RedactSecrets, redact, setup_logging

BOT_TOKEN = "MTA5.bot-token.secret_part"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA-_x.y"
CALLBACK = f"https://discord.com/api/v10/interactions/1234567890/{INTERACTION_TOKEN}/callback"
FOLLOWUP = f"https://discord.com/api/v10/webhooks/987654321/{INTERACTION_TOKEN}/messages/@original"


def _record(msg, args=(), exc_info=None):
    return logging.LogRecord("discord.webhook.async_", logging.DEBUG, __file__, 1, msg, args,
                             exc_info)


def _emit(record, token=BOT_TOKEN):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets(token))
    handler.handle(record)
    return stream.getvalue()


def test_redact_hides_both_urls_and_keeps_the_rest():
    """The token part of callback and webhook URLs is hidden; ids and routes stay."""
    text = redact(f"POST {CALLBACK} then PATCH {FOLLOWUP}")
    assert INTERACTION_TOKEN not in text
    assert f"/interactions/1234567890/{HIDDEN}/callback" in text
    assert f"/webhooks/987654321/{HIDDEN}/messages/@original" in text


def test_redact_is_idempotent():
    """Redacting twice (two handlers) leaves the placeholder as it is."""
    once = redact(FOLLOWUP, BOT_TOKEN)
    assert redact(once, BOT_TOKEN) == once


def test_payload_token_fields_are_hidden():
    """A gateway payload's token, as JSON or as a dict's repr, is hidden."""
    as_json = json.dumps({"id": "1", "token": INTERACTION_TOKEN, "type": 3})
    as_repr = repr({"id": "1", "token": INTERACTION_TOKEN, "type": 3})
    for text in (as_json, as_repr):
        clean = redact(text)
        assert INTERACTION_TOKEN not in clean and HIDDEN in clean
        assert "type" in clean and "3}" in clean


def test_discord_py_debug_line_with_url_argument():
    """discord.py's DEBUG line ('%s %s with %s has returned %s') shows no token."""
    record = _record("%s %s with %s has returned %s", ("POST", CALLBACK, {"type": 7}, 200))
    line = _emit(record)
    assert INTERACTION_TOKEN not in line
    assert "has returned 200" in line and "/interactions/1234567890/" in line


def test_bot_token_still_hidden():
    """The bot token is hidden wherever it appears, as before."""
    line = _emit(_record("identify with %s", (BOT_TOKEN,)))
    assert BOT_TOKEN not in line and HIDDEN in line


def test_exception_text_and_traceback_are_redacted():
    """An exception whose message carries a webhook URL is logged without the token."""
    try:
        raise aiohttp.ClientResponseError(
            aiohttp.RequestInfo(URL(FOLLOWUP), "PATCH", {}, URL(FOLLOWUP)), (), status=500,
            message=f"failed {FOLLOWUP} with {BOT_TOKEN}",
        )
    except aiohttp.ClientResponseError:
        record = _record("edit failed", exc_info=sys.exc_info())
    line = _emit(record)
    assert "Traceback (most recent call last)" in line
    assert INTERACTION_TOKEN not in line and BOT_TOKEN not in line
    assert f"/webhooks/987654321/{HIDDEN}" in line


def test_stack_info_is_redacted():
    """A record's stack text (stack_info=True) is redacted as well."""
    record = _record("here")
    record.stack_info = f"Stack (most recent call last):\n  calling {CALLBACK}"
    line = _emit(record)
    assert INTERACTION_TOKEN not in line and "Stack" in line


def test_broken_format_is_reported_without_its_secrets(capsys):
    """A log call whose arguments do not fit its format does not make the filter raise;
    logging's own report of it prints the arguments, and those are redacted too."""
    record = _record("%s and %s", ("only one",))
    assert RedactSecrets(BOT_TOKEN).filter(record) is True
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("DEBUG", BOT_TOKEN)
        # two slips of a log call: one argument too few
        logging.getLogger("bot.boards").warning("edit of %s failed: %s", CALLBACK)  # noqa: PLE1206
        logging.getLogger("bot").info("connecting %s %s", BOT_TOKEN)  # noqa: PLE1206
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    err = capsys.readouterr().err
    assert err.count("Arguments:") == 2 and HIDDEN in err
    assert INTERACTION_TOKEN not in err and BOT_TOKEN not in err


def test_setup_logging_redacts_discord_py_loggers(capsys):
    """After setup_logging, a discord.py DEBUG line with a webhook URL is printed redacted."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("DEBUG", BOT_TOKEN)
        logging.getLogger("discord.webhook.async_").debug(
            "%s %s has received %s", "PATCH", FOLLOWUP, {"id": "5", "token": INTERACTION_TOKEN}
        )
        logging.getLogger("discord.http").debug("token %s", BOT_TOKEN)
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    err = capsys.readouterr().err
    assert "has received" in err and "token " in err
    assert INTERACTION_TOKEN not in err and BOT_TOKEN not in err


def test_real_webhook_route_url_is_redacted():
    """The URL discord.py builds for an interaction follow-up is hidden by the same rule."""
    route = discord.http.Route(
        "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        webhook_id=987654321, webhook_token=INTERACTION_TOKEN,
    )
    assert INTERACTION_TOKEN in route.url
    assert INTERACTION_TOKEN not in redact(route.url)
