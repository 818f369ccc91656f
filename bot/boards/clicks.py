"""Board clicks: a move, a vote, a question asked before a move, the table's buttons
(Rules & details, its pages, Play again, Replay, Share) and the host's controls, each
answered with one request, or refused privately.

A click on a board left behind (its edit lost, the bot restarted, a backup restored) is
answered with the board as the game is now; a click that reaches a process on its way
out claims nothing. :class:`bot.boards.service.Boards` hands every click here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.boards.actors import actor_of
from bot.boards.answer_clock import AnswerClock, edit_answer
from bot.boards.computers import ComputerPlayers
from bot.boards.custom_ids import parse_button_id, parse_select_id
from bot.boards.hosting import HostControls
from bot.boards.layout import ASK_PREFIX, action_button, view_of
from bot.boards.messages import BoardMessages
from bot.boards.pings import choice_button
from bot.boards.presence import Announce, NotBack, Presence, back_text
from bot.boards.render import (
    END_BUTTONS,
    RULES_PAGE,
    TABLE_AGAIN,
    TABLE_REPLAY,
    TABLE_RULES,
    TABLE_SHARE,
    Renderer,
)
from bot.boards.replay import Replays
from bot.boards.send_errors import (
    SEND_ERRORS,
    acknowledge,
    answer_lost,
    tell_after_failure,
    tell_privately,
)
from bot.boards.threads import in_forum, locked_out_text
from bot.games.protocol import Action
from bot.pictures import FILENAME
from bot.table.errors import (
    AnsweredElsewhere,
    BrokenGame,
    GameEnded,
    NotYourTurn,
    Refusal,
    StaleBoard,
    StartedMeanwhile,
)
from bot.table.lobby import LOBBY_INVITE, LOBBY_PANEL, LOBBY_PREFIX
from bot.table.service import LoadedGame, Tables

log = logging.getLogger(__name__)

#: Told privately to a player whose click met a board older than the game (nothing done).
HEALED = ("The board had changed before your click, so nothing was done: it shows the game "
          "as it is now.")
#: Told privately to a voter whose vote came after the voting window had closed (C4).
LATE_VOTE = ("The vote had closed just before your click, so your vote was not counted: the "
             "board shows the move the channel chose.")


def board_deleted(game: LoadedGame) -> str:
    """Told privately to a player whose click was carried out on a board deleted as they
    clicked it: where the board is now."""
    if game.row.status == "lobby":
        return "Done, but the table's board was deleted as you clicked it: it is posted below."
    if not game.row.is_open:
        return ("The move was made and the game is over, but the board was deleted as you "
                "clicked it: the result is on a new board below.")
    return ("The move was made, but the board was deleted as you clicked it: the game goes "
            "on on a new board below.")


#: The word to a member whose vote came a moment after the others' votes made that very
#: move, the one that ended the game (C4, C5).
AGREED_LAST = ("Your vote came a moment after the others' votes made that move, which "
               "ended the game: you share its result.")


class BoardClicks:
    """Answers board clicks, with the parts of :class:`bot.boards.service.Boards` it is
    handed: the board messages, the computer players, the host's controls, the replays,
    the renderers, how a board is drawn and how a turn is announced."""

    def __init__(
        self,
        bot: discord.Client,
        tables: Tables,
        *,
        messages: BoardMessages,
        computers: ComputerPlayers,
        hosting: HostControls,
        replays: Replays,
        renderers: dict[str, Renderer],
        render: Callable[..., Awaitable[dict[str, Any]]],
        announce: Announce,
    ) -> None:
        self.bot = bot
        self.tables = tables
        self.messages = messages
        self.computers = computers
        self.hosting = hosting
        self.replays = replays
        self.renderers = renderers
        self._render = render
        self._announce = announce
        #: Away players coming back, and players to act reading the table.
        self.presence = Presence(tables, messages, computers, announce)

    async def handle_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action_id: str
    ) -> None:
        """Apply a board click and answer it with one UPDATE_MESSAGE, or refuse privately."""
        with self.tables.busy():  # a clean shutdown waits for the answer too
            await self._click(interaction, game_id, version, action_id)

    async def _click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action_id: str
    ) -> None:
        if self.tables.closing:
            await self._closing(interaction)
            return
        if action_id == TABLE_REPLAY:
            await self.replays.replay(interaction, game_id)
            return
        if action_id == TABLE_SHARE:
            await self.replays.share(interaction, game_id)
            return
        if action_id == LOBBY_PANEL:
            await self.hosting.open(interaction, game_id)
            return
        if action_id.startswith(LOBBY_INVITE):
            await self.hosting.invite(interaction, game_id, action_id)
            return
        async with AnswerClock(interaction, game_id) as clock:
            if action_id.startswith(ASK_PREFIX):
                await self._ask(interaction, clock, game_id, version,
                                action_id.removeprefix(ASK_PREFIX))
            elif action_id in (TABLE_RULES, TABLE_AGAIN):
                await self._table_button(interaction, clock, game_id, version, action_id)
            elif action_id.startswith(RULES_PAGE):
                await self._rules_page(interaction, clock, game_id,
                                       action_id.removeprefix(RULES_PAGE))
            else:
                await self._move(interaction, clock, game_id, version, action_id)

    async def _move(self, interaction: discord.Interaction[Any], clock: AnswerClock,
                    game_id: int, version: int, action_id: str) -> None:
        """Apply a move click and answer it; ``clock`` defers it if the answer is late.

        The clock runs until the answer leaves, the board's drawing included: under a
        burst of clicks, or with a slow picture, a saved move is never shown as failed.
        """
        try:
            play = await self.tables.act(game_id, version, actor_of(interaction), action_id,
                                         channel_id=interaction.channel_id)
        except Refusal as refusal:
            if isinstance(refusal, StaleBoard | GameEnded) and await self._agreed(
                interaction, game_id, version, action_id, clock
            ):
                return
            if isinstance(refusal, StaleBoard | GameEnded) and await self._heal(
                interaction, game_id, clock,
                refusal.said if isinstance(refusal, StartedMeanwhile)
                else HEALED if isinstance(refusal, StaleBoard)
                else str(refusal)
            ):
                return
            if isinstance(refusal, StaleBoard) and await self._stale_panel(
                interaction, game_id, clock
            ):
                return
            text = str(refusal)
            if isinstance(refusal, StaleBoard) and interaction.message is not None:
                on_board = refusal.link.endswith(f"/{interaction.message.id}")
                text = refusal.text(show_link=not on_board)
            await clock.settle()
            await self._refuse(interaction, text)
            if isinstance(refusal, NotYourTurn):
                await self.computers.wake(game_id)
            return
        except Exception:
            log.exception("click %r on game %s failed", action_id, game_id)
            await clock.settle()
            await self._refuse(
                interaction, "Something went wrong on our side; the game was not changed."
            )
            return
        game = play.game
        message = interaction.message
        if play.ballot is not None:
            await clock.settle()
            ballot = play.ballot
            if message is not None and message.flags.ephemeral:
                # A private question (Give up: are you sure?) answered by a vote: it
                # says so in place of the question.
                majority = (f" (it needs a majority: {ballot.needed} of {ballot.active})"
                            if ballot.needs_majority else "")
                said = (ballot.text() if ballot.worth_telling else
                        f"Your vote: {ballot.label}{majority}. The board shows the tally.")
                try:
                    await edit_answer(interaction, content=said, embed=None, view=None)
                except SEND_ERRORS as exc:
                    log.warning("could not answer a vote on game %s: %r", game.id, exc)
                    await tell_after_failure(interaction, said, exc)  # the vote counts
            elif game.id in self.messages.locked_out and message is not None:
                # the bot's own edits are refused: the tally shows through this answer
                await self._show_vote(interaction, game)
                if ballot.worth_telling:
                    await tell_privately(interaction, ballot.text())
            elif ballot.worth_telling:  # the vote is cast: said again if the answer fails
                await tell_privately(interaction, ballot.text(), done=True)
            else:  # the board's tally acknowledges it (a deferred update, no message)
                await acknowledge(interaction)
            await self._tell_locked_out(interaction, game)
            self.messages.update_soon(game.id, game)
            return
        try:
            if message is not None and message.flags.ephemeral:
                await clock.settle()
                said = " ".join(play.events) or "Done."
                if action_id.startswith(LOBBY_PREFIX):
                    await self.hosting.redraw(interaction, game, said)
                else:
                    await edit_answer(interaction, content=said, embed=None, view=None)
                await self.messages.show(game)
            else:
                # Known as shown before the answer leaves, so a click racing this one is
                # refused as stale rather than taken for a board left behind.
                self.messages.mark_shown(game)
                body = await self._render(game, edit=True)
                await clock.settle()
                await edit_answer(interaction, **body)
                if message is not None:
                    await self.messages.answered_on(game, message)
                if game.row.is_open and self.messages.shown.get(game.id) != game.row.version:
                    # A newer board (a later move, the game's end) was shown while this
                    # answer waited on Discord: this older one must not stay on show.
                    self.messages.update_soon(game.id)
        except SEND_ERRORS as exc:
            log.warning("could not answer a click on game %s (%s); editing the board instead",
                        game.id, exc)
            self.messages.shown.pop(game.id, None)  # not shown after all, unless refresh manages
            # the move was made: the click is acknowledged (the board's edit through the
            # channel shows it), never left to read "This interaction failed"
            if isinstance(exc, discord.NotFound) and not answer_lost(exc):
                # the board was deleted as it was clicked: nothing to acknowledge on
                await tell_privately(interaction, board_deleted(game))
            elif not answer_lost(exc):
                await acknowledge(interaction)
            await self.messages.show(game)
        if play.came_back:
            await tell_privately(interaction, back_text(game, interaction.user.id,
                                                      unmade=play.unmade))
        await self._tell_locked_out(interaction, game)
        if play.late:
            again = "" if play.finished else " Vote again on the next move."
            await tell_privately(interaction, LATE_VOTE + again)
        await self._announce(game, play.notice)
        self.computers.schedule(game)

    async def _stale_panel(self, interaction: discord.Interaction[Any], game_id: int,
                           clock: AnswerClock) -> bool:
        """Redraw the host's controls drawn for an older lobby (someone joined since);
        return whether the click was answered so."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return False
        try:
            game = await self.tables.load(game_id)
        except Refusal:
            return False
        if game.row.status != "lobby" or game.host_id != interaction.user.id:
            return False
        await clock.settle()
        try:
            await self.hosting.redraw(
                interaction, game, "The table changed meanwhile: here it is now; choose again.")
        except SEND_ERRORS as exc:
            log.warning("could not redraw the host controls of game %s: %s", game_id, exc)
        return True

    async def _closing(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click that reaches a process on its way out.

        During a deployment overlap the new process may be applying this very click, so
        the answer claims nothing: a silent acknowledgement, then a private word that the
        click may need repeating if the board did not change.
        """
        try:
            await interaction.response.defer()
            await interaction.followup.send(
                "The bot is restarting: if the board did not change, press again in a few "
                "seconds.", ephemeral=True,
            )
        except SEND_ERRORS as exc:
            log.warning("could not answer a click while stopping: %r", exc)

    async def _agreed(self, interaction: discord.Interaction[Any], game_id: int,
                      version: int, action_id: str, clock: AnswerClock) -> bool:
        """Answer a vote a moment late, on a channel game's board one version old, that
        asked for the very move that made the current version (a vote for the move the
        others' votes just made, C4; in a ``fast`` game a click is a move of its own,
        told it did nothing): it is acknowledged without a word (the board is
        brought up to date if it was left behind), not refused as doing nothing. When
        that move ended the game, the member shares its result and is told so. Return
        whether it was such a click."""
        try:
            game = await self.tables.load(game_id)
        except Refusal:
            return False
        message = interaction.message
        if (len(game.seats) > 1 or game.data.mode != "vote"
                or game.row.version != version + 1
                or message is None or message.id != game.row.board_message_id):
            return False  # (a click that is a move, not a vote, is told it did nothing;
            # so is one on another message than the board, which shows nothing new)
        try:  # one who may not play it ("only me") is refused as before
            self.tables.core.seat_for(game, actor_of(interaction), action_id)
        except Refusal:
            return False
        logged, mover = await self.tables.find.logged_action(game_id, game.row.version)
        if logged != action_id or mover == interaction.user.id:
            return False  # another move; or their own, tapped twice: it did nothing
        credited = False
        try:
            if not game.row.is_open:  # the move ended the game: its result is shared
                credited = await self.tables.channel.agreed_last(
                    game_id, version, actor_of(interaction), action_id)
                if not credited:
                    return False  # (told the game is over, as any click on it)
            elif await self.tables.channel.agreed_late(game_id, version,
                                                       actor_of(interaction), action_id):
                self.messages.update_soon(game_id)  # the vote under way needs one more
        except Refusal as exc:  # the click did nothing all the same (a database error)
            log.warning("could not count a late vote in game %s: %s", game_id, exc)
            if not game.row.is_open:
                return False
        if not await self._catch_up(interaction, game, clock):
            await clock.settle()
            await acknowledge(interaction)
        if credited:
            await tell_privately(interaction, AGREED_LAST)
        return True

    async def _heal(self, interaction: discord.Interaction[Any], game_id: int,
                    clock: AnswerClock, said: str) -> bool:
        """Bring a board left behind (the bot stopped before answering, or its edit is
        still on the way) up to date.

        A stale click on the game's current board message, when this process has not
        shown the current version on it, means the answer to the last move was lost: the
        click is answered with the current board instead of a refusal, and the clicker
        is told privately (``said``) that their click did nothing. Nothing is applied.
        """
        try:
            game = await self.tables.load(game_id)
        except Refusal:
            return False
        if not await self._catch_up(interaction, game, clock):
            return False
        await tell_privately(interaction, said)
        await self._tell_locked_out(interaction, game)
        return True

    async def _show_vote(self, interaction: discord.Interaction[Any],
                         game: LoadedGame) -> None:
        """Answer a vote on the public board by editing it to show the tally (its picture
        kept: the position is the same; a board shown without one gets it: Discord
        refuses to keep a picture the message does not have); a failure is logged, and
        the vote acknowledged."""
        shown = interaction.message
        keep = shown is None or any(a.filename == FILENAME for a in shown.attachments)
        try:
            await edit_answer(interaction, **await self._render(game, edit=True, keep=keep))
            self.messages.mark_shown(game)
        except SEND_ERRORS as exc:
            log.warning("could not show the vote on game %s: %r", game.id, exc)
            await acknowledge(interaction)

    async def _tell_locked_out(self, interaction: discord.Interaction[Any],
                               game: LoadedGame) -> None:
        """Tell the clicker privately, once, that Discord refuses the bot's own edits of
        this board (the bot lost access to the channel): what an admin can do."""
        locked_out = self.messages.locked_out
        if locked_out.get(game.id) is False:
            locked_out[game.id] = True
            parent = game.data.parent
            thread = game.data.thread or parent is not None
            forum = in_forum(interaction.channel) or isinstance(
                self.bot.get_channel(parent or 0), discord.ForumChannel)
            await tell_privately(interaction, locked_out_text(thread=thread,
                                                              forum=thread and forum))

    async def _catch_up(self, interaction: discord.Interaction[Any], game: LoadedGame,
                        clock: AnswerClock) -> bool:
        """Answer a click on the game's board message, left behind (its edit lost, or
        refused: the bot may no longer see the channel), with the current board; return
        whether it did. A board this process showed as it is now is left as it is (a
        click made before that edit landed, such as a double click, is refused as stale),
        unless the message clicked was edited since, back to an older version, by another
        process (a deploy's overlap). A board showing a newer version than the store holds
        (a backup restored, or the last commits lost with the machine) is brought back to
        the stored position, as nothing else would ever redraw it. A game retention
        emptied keeps the board it has."""
        message = interaction.message
        if message is None:
            return False
        if not game.row.is_open and game.row.state is None and not game.row.events:
            return False  # emptied by retention: nothing left to draw its board from
        clicked = _shown_version(message)
        shown = self.messages.shown.get(game.id, -1)
        if clicked is not None and clicked > game.row.version:
            shown = -1  # moves are saved before they are shown: the store went back
        if shown >= game.row.version and clicked is not None and clicked < game.row.version:
            since = self.messages.shown_at.get(game.id)
            edited = message.edited_at
            if since is not None and edited is not None and edited.timestamp() > since:
                shown = -1  # drawn back after this process showed it: catch it up
        if (
            message.id != game.row.board_message_id
            or shown >= game.row.version
            or clicked == game.row.version
            or (not game.row.is_open and _shows_the_end(message))
        ):
            return False  # (shown as it is: a move raced this click)
        self.messages.mark_shown(game)
        try:
            body = await self._render(game, edit=True)
            await clock.settle()
            await edit_answer(interaction, **body)
        except SEND_ERRORS as exc:
            log.warning("could not bring the board of game %s up to date: %s", game.id, exc)
            self.messages.shown.pop(game.id, None)
            return False
        if game.row.is_open and self.messages.behind(game):
            # a move was shown while this answer was drawn: this older one must not stay
            self.messages.update_soon(game.id)
        return True

    async def _ask(self, interaction: discord.Interaction[Any], clock: AnswerClock,
                   game_id: int, version: int, action_id: str) -> None:
        """Ask privately to confirm ``action_id``, with a button that applies it.

        A player who could not take the action is refused at once instead. An away
        player who asks is back first (C6), and told so with the question; if the board
        they clicked was the current one, the question is about the board as their coming
        back left it.
        """
        welcome = ""
        try:
            before = await self.tables.load(game_id)
            back = await self.presence.come_back(interaction, before)
            if back is not None:
                welcome = f"{back_text(back, interaction.user.id)}\n"
                if version == before.row.version:
                    version = back.row.version  # coming back moved the board on
        except Refusal as refusal:  # the game is gone, or their return was not saved
            welcome = f"{refusal}\n" if isinstance(refusal, NotBack) else ""
        try:
            await self.tables.check(game_id, version, actor_of(interaction), action_id,
                                    channel_id=interaction.channel_id)
        except Refusal as refusal:
            if isinstance(refusal, StaleBoard) and await self._stale_panel(
                interaction, game_id, clock
            ):
                return  # host controls drawn for an older lobby: drawn again
            await clock.tell(f"{welcome}{refusal}")
            return
        except Exception:
            log.exception("checking %r on game %s failed", action_id, game_id)
            await clock.tell("Something went wrong on our side; nothing changed.")
            return
        yes = action_button(game_id, version, Action(action_id, "Yes, I am sure"),
                            style=discord.ButtonStyle.danger)
        try:
            game = await self.tables.load(game_id)
            question = self._renderer_of(game).confirm_question(game, action_id)
            await clock.send(content=f"{welcome}{question}", view=view_of([yes]), ephemeral=True)
        except Refusal as refusal:
            await clock.tell(str(refusal))
        except SEND_ERRORS as exc:
            log.warning("could not ask to confirm %r on game %s: %s", action_id, game_id, exc)
            if welcome:  # they are back all the same: said again, without the question
                await tell_after_failure(interaction, welcome.strip(), exc)

    async def _table_button(self, interaction: discord.Interaction[Any], clock: AnswerClock,
                            game_id: int, version: int, action_id: str) -> None:
        """Answer "Rules & details" privately (a board left behind the game, at an older
        ``version``, is brought up to date), or start the same game again (on the same
        ``clock``)."""
        welcome = ""  # an away player is back (C6): said again if the answer is lost
        try:
            game = await self.tables.load_here(game_id, interaction.channel_id)
            renderer = self._renderer_of(game)
            if action_id == TABLE_RULES:
                back = await self.presence.come_back(interaction, game)
                if back is None and version != game.row.version:
                    # (coming back redraws the board anyway)
                    await self._catch_up(interaction, game, clock)
                body = _details_body(renderer, game)
                if back:
                    body["content"] = welcome = back_text(back, interaction.user.id)
                elif (here := await self.presence.still_here(interaction, game)) is not None:
                    body["content"] = here
                await clock.send(**body, ephemeral=True)
                await self._tell_locked_out(interaction, game)
                self.computers.schedule(game)  # a stalled computer player moves on
                return
            if game.row.is_open:
                raise Refusal("This game is still going: finish or abandon it first.")
            after = await self.tables.open_in_channel(game.row.channel_id)
            if after is not None and after.row.kind == game.row.kind and after.id > game.id:
                # Someone pressed Play again first: point to what they opened.
                raise Refusal(_opened_already(after, interaction.user.id))
            await renderer.play_again(interaction, game)
        except AnsweredElsewhere:
            pass  # the process that took the start answers
        except Refusal as refusal:
            await clock.tell(str(refusal))
        except SEND_ERRORS as exc:
            log.warning("could not answer %s on game %s: %s", action_id, game_id, exc)
            if welcome:
                await tell_after_failure(interaction, welcome, exc)

    async def _rules_page(self, interaction: discord.Interaction[Any], clock: AnswerClock,
                          game_id: int, page: str) -> None:
        """Show another page of "Rules & details" in the private message clicked; an away
        player turning a page is back (C6: any button of the table)."""
        welcome = ""  # said again if the answer is lost
        try:
            game = await self.tables.load_here(game_id, interaction.channel_id)
            back = await self.presence.come_back(interaction, game)
            body = _details_body(self._renderer_of(game), back or game, page)
            if back:
                body["content"] = welcome = back_text(back, interaction.user.id)
            else:
                await self.presence.looking(interaction, game)
            message = interaction.message
            if message is not None and not message.flags.ephemeral:
                # a page is turned in its private message; one clicked on the public
                # board (forged) is shown privately, the board left as it is
                await clock.send(**body, ephemeral=True)
            else:
                await clock.edit(**body)
        except Refusal as refusal:
            await clock.tell(str(refusal))
        except SEND_ERRORS as exc:
            log.warning("could not show a page of the details of game %s: %s", game_id, exc)
            if welcome:
                await tell_after_failure(interaction, welcome, exc)

    def _renderer_of(self, game: LoadedGame) -> Renderer:
        """Return the game's renderer; refuse a game of a kind this bot no longer has."""
        renderer = self.renderers.get(game.row.kind)
        if renderer is None:
            raise BrokenGame(None)
        return renderer

    async def _refuse(self, interaction: discord.Interaction[Any], text: str) -> None:
        await tell_privately(interaction, text)


def _opened_already(after: LoadedGame, user_id: int) -> str:
    """What "Play again" answers once someone opened the next game (``after``) first:
    where it is, and whether the presser has a seat there already."""
    if after.row.status != "lobby":
        return f"A new {after.engine.title} game is going already: {after.link}"
    if user_id == after.host_id:
        return f"You opened a new table already: {after.link}"
    host = after.seat_name(after.seat_of(after.host_id))
    if after.seat_of(user_id) is not None:
        return (f"{host} opened a new table and seated you already: {after.link}. "
                f"Press **Leave** there if you'd rather not play.")
    return f"{host} opened a new table already: press **Join** on it ({after.link})."


def _details_body(renderer: Renderer, game: LoadedGame, page: str = "") -> dict[str, Any]:
    """Return a page of "Rules & details"; at a seated table the member's choice of turn
    pings is on every page, a click away."""
    body = renderer.details(game, page)
    if len(game.seats) > 1:
        pings = choice_button()
        # after the page buttons, three a row as they are laid out
        pings.row = len(body["view"].children) // 3
        body["view"].add_item(pings)
    return body


def _custom_ids(message: discord.Message) -> list[str]:
    """Return the custom ids of a message's buttons and menus ("" for a link button)."""
    return [getattr(child, "custom_id", None) or "" for row in message.components
            for child in getattr(row, "children", ())]


def _shown_version(message: discord.Message) -> int | None:
    """Return the newest board version a message's buttons and menus carry, or None
    when it carries none."""
    parsed = (parse_button_id(i) or parse_select_id(i) for i in _custom_ids(message))
    return max((p.version for p in parsed if p is not None), default=None)


def _shows_the_end(message: discord.Message) -> bool:
    """Whether a board message already shows its game's end (only the table's buttons)."""
    return all(i.endswith(tuple(f":{b}" for b in END_BUTTONS)) for i in _custom_ids(message))
