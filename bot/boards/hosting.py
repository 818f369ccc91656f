"""Answering the host's private controls of a lobby: opening them, keeping them current,
and inviting members.

The lobby board's "Host controls" button answers the host with the controls
(:mod:`bot.boards.host_panel`) privately and anyone else with who the host is; a
seated person whose host Discord says is no longer in the server, or whose host has
done nothing in the lobby for a while, takes the role (and the controls) instead:
nobody else could start or close the table. A choice
made on the controls is a lobby move like one on the board; its answer redraws the
controls for the lobby's new version (the board itself is edited through the channel).
An invitation changes no seat: it posts one message mentioning the invited member, once
per member and lobby (:class:`bot.boards.notices.LobbyInvitations` keeps it until they
join, or the lobby starts or closes).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.boards.actors import actor_of
from bot.boards.answer_clock import AnswerClock, edit_answer
from bot.boards.host_panel import panel_items, panel_text
from bot.boards.layout import view_of
from bot.boards.notices import MOST_INVITES, LobbyInvitations
from bot.boards.routing import NOT_VALID
from bot.boards.send_errors import (
    SEND_ERRORS,
    UNKNOWN_MEMBER,
    UNKNOWN_USER,
    passing_failure,
    tell_after_failure,
)
from bot.table.errors import Refusal, board_link
from bot.table.loaded import LoadedGame
from bot.table.lobby import LOBBY_INVITE, invite_refusal
from bot.table.service import Tables
from bot.text.names import first_shown, safe_name

log = logging.getLogger(__name__)


def is_host(game: LoadedGame, user_id: int) -> bool:
    """Whether ``user_id`` hosts ``game``'s lobby."""
    return game.row.status == "lobby" and game.host_id == user_id


def host_name(game: LoadedGame) -> str:
    """Return the host's name at the table."""
    return next((s.name for s in game.seats if s.holds(game.host_id)), "the host")


def only_the_host(game: LoadedGame, away_at: float | None = None) -> str:
    """Return the private answer to someone else pressing "Host controls" (``away_at``,
    for one seated at the table: when they may take the role of a host doing nothing)."""
    name = host_name(game)
    told = f"Only the host, {name}, can use the host controls."
    if away_at is None:
        return told
    return (f"{told} If {name} still does nothing here <t:{math.ceil(away_at)}:R>, press "
            "**Host controls** again to host the table yourself.")


def no_lobby(game: LoadedGame) -> str:
    """Return the private answer to "Host controls" on a lobby that is no more."""
    if game.row.is_open:
        return "The game has already started."
    if game.state is None and game.row.events:  # (not a game retention emptied)
        return "This table was closed before its game started."
    return "This game has ended."


def panel_body(game: LoadedGame, note: str = "") -> dict[str, Any]:
    """Return the private message holding the host's controls (content and view)."""
    return {"content": panel_text(game, note), "embed": None, "view": view_of(panel_items(game))}


def controls_body(game: LoadedGame, user_id: int, note: str) -> dict[str, Any]:
    """Return the controls redrawn after a choice ``user_id`` made on them: the controls
    while they still host, else what happened (the game started, the host role went to
    someone else)."""
    if is_host(game, user_id):
        return panel_body(game, note)
    return {"content": note or "Done.", "embed": None, "view": None}


def invited_member(interaction: discord.Interaction[Any],
                   user_id: int) -> tuple[str, bool, bool]:
    """Return the chosen member's name as boards show it (the server nickname, else the
    global name, made safe by :func:`bot.text.names.safe_name`, the account name
    standing in for a blank one), whether it is a bot and whether it can
    see the channel (View Channel among the permissions Discord sends with the choice;
    sees when Discord sends none), from the select's data."""
    data: Any = interaction.data or {}
    resolved = data.get("resolved") or {}
    user = (resolved.get("users") or {}).get(str(user_id)) or {}
    member = (resolved.get("members") or {}).get(str(user_id)) or {}
    # as boards name members: the server nickname, else the global name, else the account
    name = safe_name(first_shown(member.get("nick"), user.get("global_name"),
                                 user.get("username")))
    raw = member.get("permissions")
    sees = raw is None or discord.Permissions(int(raw)).view_channel
    return name, bool(user.get("bot")), sees


def sees_channel(member: discord.Member | discord.User) -> bool:
    """Whether ``member`` (from a command's options) can see the channel it was chosen in
    (Discord sends their permissions there; sees when it sends none)."""
    permissions = getattr(member, "resolved_permissions", None)
    return permissions is None or permissions.view_channel


def invitation(game: LoadedGame, user_id: int) -> dict[str, Any]:
    """Return the one message inviting ``user_id`` to ``game``'s lobby (it mentions them
    alone): its content and allowed mentions."""
    link = game.link
    where = f"[the table]({link})" if link else "the table"
    return {
        "content": f"<@{user_id}>, {host_name(game)} invites you to {game.engine.title}: "
                   f"press **Join** on {where}.",
        "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]),
    }


def why_not_invite(game: LoadedGame, asker: int, user_id: int, *, is_bot: bool,
                   sees: bool = True, name: str = "") -> str | None:
    """Return why ``asker`` cannot invite ``user_id`` (called ``name``, "" when not known)
    to ``game``, or None if they can; one invited already (by an invitation of its own,
    or the board's line) is pointed to their invitation. A lobby with
    :data:`MOST_INVITES` invitations out invites no more (one more would take down the
    oldest, and its member could be invited, and pinged, again and again)."""
    ref = LobbyInvitations.invitation_of(game, user_id)
    link = board_link(game.row.guild_id, ref.channel, ref.message) if ref else ""
    if not link and user_id in game.data.invited:  # the board's own "Invited:" line
        link = game.link
    refused = invite_refusal(game.seats, game.host_id, asker, user_id, is_bot=is_bot,
                             status=game.row.status,
                             full=len(game.seats) >= game.engine.max_seats, sees=sees,
                             invited=f"[their invitation]({link})." if link else "",
                             name=name)
    if refused is None and len(game.data.invites) >= MOST_INVITES:
        # a newer line would take down the oldest, whose member could then be pinged again
        return (f"This table has {MOST_INVITES} invitations out already: more would only "
                "fill the channel. Anyone who wants to play can press Join on the table.")
    return refused


async def left_server(interaction: discord.Interaction[Any], user_id: int) -> bool:
    """Whether Discord says ``user_id`` (a lobby's host, a player seated again) is no
    longer a member of the server the interaction came from: they left, or were kicked
    or banned (False when it does not say: an error, a rate limit)."""
    if interaction.guild_id is None:
        return False
    try:
        await interaction.client.http.get_member(interaction.guild_id, user_id)
    except discord.NotFound as exc:
        return exc.code in (UNKNOWN_MEMBER, UNKNOWN_USER)
    except SEND_ERRORS as exc:
        log.warning("could not ask whether member %s is still in server %s: %s", user_id,
                    interaction.guild_id, exc)
    return False


class HostControls:
    """The host's private controls: answers to "Host controls" and to invitations."""

    def __init__(self, tables: Tables, invitations: LobbyInvitations,
                 show: Callable[[LoadedGame], Awaitable[None]]) -> None:
        self.tables = tables
        #: The lobbies' invitation messages, kept until they are to be deleted.
        self.invitations = invitations
        #: Shows a lobby's board as it is now (after a host who left was replaced).
        self.show = show

    async def open(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Answer "Host controls": the controls for the host (noted as here), or for a
        seated person taking the role of a host who left the server or is away; who
        the host is for others
        (privately, on the answer clock: reading the game, or asking Discord about the
        host, may be slow)."""
        async with AnswerClock.of(interaction, game_id) as clock:
            game = await self._load(clock, game_id)
            if game is None:
                return
            if game.row.status != "lobby":
                await clock.tell(no_lobby(game))
                return
            note = ""
            if is_host(game, interaction.user.id):
                await self._here(game_id, interaction.user.id)
            else:
                if game.seat_of(interaction.user.id) is None:
                    await clock.tell(only_the_host(game))
                    return
                departed = (game.host_id if await left_server(interaction, game.host_id)
                            else None)
                away_at = self.tables.host_away_at(game)
                if departed is None and self.tables.core.now() < away_at:
                    await clock.tell(only_the_host(game, away_at))
                    return
                try:  # a host who left or is away would keep the table from starting
                    play = await self.tables.claim_host(game_id, actor_of(interaction),
                                                        departed)
                    game, note = play.game, " ".join(play.events)
                except Refusal as refusal:
                    # their own other click took the role a moment ago: the controls
                    now = await self._load(clock, game_id)
                    if now is None or not (now.row.status == "lobby"
                                           and is_host(now, interaction.user.id)):
                        if now is not None:
                            await clock.tell(str(refusal))
                        return
                    game = now
            try:
                await clock.send(**panel_body(game, note), ephemeral=True)
            except SEND_ERRORS as exc:
                log.warning("could not open the host controls of game %s: %s", game_id, exc)
                if note:  # the host role is theirs now: said again
                    await tell_after_failure(interaction, note, exc)
            if note:
                await self.show(game)

    async def _here(self, game_id: int, user_id: int) -> None:
        """Note that the host is here (opening the controls): nobody takes the role for a
        while. A failure to note it is logged; the controls open all the same."""
        try:
            await self.tables.host_here(game_id, user_id)
        except Refusal as refusal:
            log.warning("could not note the host of game %s as here: %s", game_id, refusal)

    async def _load(self, clock: AnswerClock, game_id: int) -> LoadedGame | None:
        """Return the game, or None once the refusal to read it is told privately."""
        try:
            return await self.tables.load_here(game_id, clock.interaction.channel_id)
        except Refusal as refusal:
            await clock.tell(str(refusal))
            return None

    async def redraw(self, interaction: discord.Interaction[Any], game: LoadedGame,
                     note: str) -> None:
        """Answer a choice made on the controls by redrawing them (see
        :func:`controls_body`); may raise one of :data:`SEND_ERRORS`."""
        await edit_answer(interaction, **controls_body(game, interaction.user.id, note))

    async def invite(self, interaction: discord.Interaction[Any], game_id: int,
                     action_id: str) -> None:
        """Invite the member chosen on the controls: one message in the channel mentions
        them (and no one else), kept until they join or the lobby starts or closes; the
        controls say so (on the answer clock: reading the game may be slow). A member
        invited already is not invited again: the host is told so privately."""
        raw = action_id.removeprefix(LOBBY_INVITE)
        async with AnswerClock.of(interaction, game_id) as clock:
            game = await self._load(clock, game_id)
            if game is None:
                return
            if not (raw.isascii() and raw.isdigit()):  # a forged button: no member id
                await clock.tell(NOT_VALID)
                return
            user_id = int(raw)
            name, bot, sees = invited_member(interaction, user_id)
            why = why_not_invite(game, interaction.user.id, user_id, is_bot=bot, sees=sees,
                                 name=name)
            if why is not None:
                await clock.tell(why)
                return
            with self.invitations.posting(game_id, user_id) as free:
                if not free:  # a double pick: the first one's invitation is on its way
                    await clock.tell(f"{name} is being invited already.")
                    return
                posted = await self._post_invitation(clock, game, user_id, name)
                if posted is not None:
                    await self.invitations.keep(game_id, user_id, posted)

    async def _post_invitation(self, clock: AnswerClock, game: LoadedGame, user_id: int,
                               name: str) -> discord.Message | None:
        """Say on the controls that ``name`` is invited, then post their invitation in
        the channel; return it, or None when it could not go (the controls then say so)."""
        interaction = clock.interaction
        try:
            await clock.edit(**controls_body(game, interaction.user.id, f"Invited {name}."))
        except SEND_ERRORS as exc:
            log.warning("could not answer an invitation to game %s: %s", game.id, exc)
            return None
        try:
            return await interaction.followup.send(**invitation(game, user_id), wait=True)
        except SEND_ERRORS as exc:
            log.warning("could not invite a member to game %s: %s", game.id, exc)
            await self._invitation_failed(interaction, game, name, exc)
            return None

    @staticmethod
    async def _invitation_failed(interaction: discord.Interaction[Any], game: LoadedGame,
                                 name: str, error: BaseException) -> None:
        """Put right the controls' "Invited …" after the invitation's message failed
        with ``error``: refused, it did not go; with no answer, or Discord failing (a
        5xx, which it may give for a message it took), it may have."""
        if isinstance(error, discord.HTTPException) and not passing_failure(error):
            note = f"{name} was not invited: Discord refused the message. Try again."
        else:
            note = (f"{name} may not have been invited: Discord did not answer. If no "
                    "invitation shows in the channel, invite them again.")
        try:
            await interaction.edit_original_response(
                **controls_body(game, interaction.user.id, note))
        except SEND_ERRORS as exc:
            log.warning("could not say an invitation to game %s failed: %s", game.id, exc)
