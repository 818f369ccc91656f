"""The store: SQLite through aiosqlite, numbered migrations, the queries the tables need."""
