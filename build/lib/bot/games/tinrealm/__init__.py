"""Tin Realm: a solo journey to Oakinshelm within 7 days (engine in :mod:`.engine`)."""
