"""Steam to Solar: the railroad game for 2 to 5 seats (engine in :mod:`.engine`)."""
