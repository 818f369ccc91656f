"""Refusals: why a command or click was not carried out, in words a player reads.

Every refusal becomes an ephemeral reply saying why and what to do; nothing changes.
"""

from __future__ import annotations


def board_link(guild_id: int | None, channel_id: int | None, message_id: int | None) -> str:
    """Return a jump link to a board message ("" when the board is unknown)."""
    if channel_id is None or message_id is None:
        return ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class Refusal(Exception):
    """A request that is refused; ``str(refusal)`` is the reply to the player."""


class NoSuchGame(Refusal):
    """The game a button points at does not exist (any more)."""

    def __init__(self) -> None:
        super().__init__("That game no longer exists. Start a new one with /tinker start, "
                         "/tinrealm start or /steam new (see /help).")


class AnsweredElsewhere(Refusal):
    """Another process of the bot took this start (a deploy's overlap, when both processes
    of a shard get every interaction): it answers the member; this one says nothing."""

    def __init__(self) -> None:
        super().__init__("Another process of the bot is starting this game.")


class GameEnded(Refusal):
    """The game has already ended."""

    def __init__(self, status: str) -> None:
        why = {
            "over": "is over",
            "abandoned": "was abandoned",
            "expired": "was ended after being idle too long",
        }.get(status, "has ended")
        super().__init__(f"This game {why}, so its buttons do nothing now. Start a new one!")


class StaleBoard(Refusal):
    """The clicked board is older than the game: someone moved first.

    ``last`` says what the move was and who made it ("Alice chose: X."), when known.
    """

    def __init__(self, link: str, last: str = "") -> None:
        self.link = link
        self.last = last
        super().__init__(self.text(show_link=True))

    def text(self, *, show_link: bool) -> str:
        """Return the reply; the link is left out when the clicked message is the board."""
        where = f" The current board is here: {self.link}" if show_link and self.link else (
            " The board now shows the new position." if not show_link else "")
        if self.last:
            return f"That board is out of date: {self.last} Your click did nothing.{where}"
        return ("That board is out of date: the game moved on before your click arrived, "
                f"so nothing was done.{where}")


class StartedMeanwhile(StaleBoard):
    """A Join or Leave on a lobby's board that reached the bot after its host started the
    game: ``said`` tells the member where they stand (the board is stale all the same,
    and brought up to date if it was left behind)."""

    def __init__(self, link: str, said: str) -> None:
        self.said = said
        super().__init__(link)

    def text(self, *, show_link: bool) -> str:
        """Return the reply: what ``said`` tells (the board shows the game)."""
        return self.said


class NotAllowed(Refusal):
    """The player may not act in this game (C1: the starter chose "only me")."""


class NotYourTurn(Refusal):
    """The player is seated but it is someone else's turn (C2)."""


class ChannelOccupied(Refusal):
    """The channel already has an open game (C3), told as the asker stands at it: ``open``
    is how (:data:`OPEN_GAMES`; "" for a game they may finish or abandon), ``starter``
    the name of the one who started it."""

    def __init__(self, title: str, link: str, kind: str = "", open: str = "",
                 starter: str = "") -> None:
        # The command that posts the board again, beside the link to its message (which a
        # moderator may have deleted: the bot is not told) or alone, with no message.
        again = f"/{kind} board shows it" if kind else ""
        where = (f" ({link}, or {again} if it is gone)" if link and again
                 else f" ({link or again})" if link or again else "")
        going = f"This channel already has a game of {title} going{where}"
        elsewhere = "start one in another channel or a thread."
        told = {
            "lobby": f"A {title} table is open in this channel{where}: press **Join** on it "
                     "to play, or start a game in another channel or a thread.",
            "host": f"Your {title} table is open in this channel{where}: start it, or close "
                    "it, from its **Host controls**.",
            "seated": f"You are seated at the {title} table open in this channel{where}: "
                      "its host starts it.",
            "full": f"A {title} table is open in this channel{where}, and every seat is "
                    "taken: start a game in another channel or a thread.",
            "shared": f"{going}: anyone here can play along on its board. To start another "
                      f"here, finish it first, or {elsewhere}",
            "theirs": f"{going}, which only {starter or 'its starter'} plays: {elsewhere}",
            "watched": f"{going}, played by the people seated at it: {elsewhere}",
        }
        super().__init__(told.get(open) or f"{going}. Finish or abandon it first, or "
                                           f"{elsewhere}")


#: How an open game stands for a member asking to start another beside it (the ``open``
#: of :class:`ChannelOccupied`): a lobby they can join, host, sit at or find full; a
#: channel game anyone plays along in, one only its starter plays, a running table
#: they are not playing at.
OPEN_GAMES = ("lobby", "host", "seated", "full", "shared", "theirs", "watched")


class BrokenGame(Refusal):
    """The game's saved state cannot be read: ``kind``'s abandon command ends it (None: a
    kind this bot no longer has, which any game's abandon command here ends)."""

    def __init__(self, kind: str | None) -> None:
        command = f"/{kind} abandon" if kind else "the abandon command of any game here"
        super().__init__(
            "This game's saved state is damaged and it cannot go on. "
            f"Use {command} to end it; every other game is unaffected."
        )


class Unavailable(Refusal):
    """The database could not be written or read; nothing changed."""

    def __init__(self) -> None:
        super().__init__(
            "The bot could not reach its game storage just now, so nothing was changed. "
            "Please try again in a moment."
        )
