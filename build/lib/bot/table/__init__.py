"""The game table, with no Discord in it: the service cogs and boards call, its channel
(vote) and turn (seat) policies composed around a shared core, and the table's own data."""
