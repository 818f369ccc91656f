"""Who is behind an interaction, as the table service knows them."""

from __future__ import annotations

from typing import Any

import discord

from bot.table.loaded import Actor
from bot.text.names import member_name


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """Return the Actor behind an interaction (with Manage Messages if they have it).

    The name is made safe to show: markdown and mentions escaped, blank names replaced.
    """
    user = interaction.user
    perms = interaction.permissions
    return Actor(user.id, member_name(user), bool(perms.manage_messages))
