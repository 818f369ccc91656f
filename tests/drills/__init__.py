"""Fault drills: the bot killed, Discord failing, interactions lost, stored games damaged."""
