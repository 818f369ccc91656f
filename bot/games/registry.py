"""The games this bot hosts, by kind."""

from __future__ import annotations

from importlib import import_module

from bot.games.protocol import Engine

#: kind -> "module:attribute" of the engine object. Engines load on first use.
ENGINES: dict[str, str] = {
    "tinker": "bot.games.tinker.engine:ENGINE",
    "steam": "bot.games.steam.engine:ENGINE",
    "tinrealm": "bot.games.tinrealm.engine:ENGINE",
}


#: The engines loaded so far, by their "module:attribute".
_LOADED: dict[str, Engine] = {}


def engine(kind: str) -> Engine:
    """Return the engine for ``kind``; raise KeyError naming the kind if unknown."""
    try:
        target = ENGINES[kind]
    except KeyError:
        raise KeyError(f"unknown game {kind!r}; known: {', '.join(sorted(ENGINES))}") from None
    found = _LOADED.get(target)
    if found is None:
        module, attr = target.split(":")
        found = _LOADED[target] = getattr(import_module(module), attr)
    return found
