"""One cog per game: slash commands and board rendering over the generic table."""
