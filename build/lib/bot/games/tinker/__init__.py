"""Tinker, Sailor, Soldier, Spy: the solo Decktet adventure (engine in :mod:`.engine`)."""
