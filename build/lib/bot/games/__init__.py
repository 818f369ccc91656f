"""The game engines: pure rules with no Discord, database or clock.

Every engine follows the protocol in :mod:`bot.games.protocol`; the registry in
:mod:`bot.games.registry` names them.
"""
