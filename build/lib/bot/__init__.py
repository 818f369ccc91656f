"""A Discord bot that hosts card games played together in a channel."""
