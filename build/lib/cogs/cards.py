"""Showing Decktet cards on boards: suit emoji and short labels from view data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.games.decktet import SUIT_EMOJI, Suit

EMOJI_BY_NAME: dict[str, str] = {suit.value: emoji for suit, emoji in SUIT_EMOJI.items()}


def suit_emoji(suits: Iterable[str]) -> str:
    """Return the emoji of suit names, in order (empty for the Excuse)."""
    return "".join(EMOJI_BY_NAME.get(s, "?") for s in suits)


def card_text(card: Mapping[str, Any], *, value: bool = True) -> str:
    """Return a card from view data as ``Name 9 🍃🪢`` (the value only when it has one)."""
    number = f" {card['value']}" if value and card.get("value") is not None else ""
    emoji = suit_emoji(card.get("suits", ()))
    return f"{card['name']}{number} {emoji}".rstrip()


def cards_text(cards: Iterable[Mapping[str, Any]], *, empty: str = "—", sep: str = ", ") -> str:
    """Return several cards joined by ``sep``."""
    text = sep.join(card_text(c) for c in cards)
    return text or empty


def clip(text: str, limit: int) -> str:
    """Shorten ``text`` to at most ``limit`` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


SUIT_ORDER: tuple[str, ...] = tuple(s.value for s in Suit)
