"""The turn policy of a seated table (rulings C2, C6): returning players, turn timers,
absent seats handed to a computer, and whose turn it is after a move.

A person whose turn comes is pinged only if they have not acted within a grace time
(``TurnPolicy.notice_grace``): the waiting notice is a stored deadline of its game
(:class:`bot.table.data.NoticeDue`), fired by the deadline loop like a turn timer.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.table import downtime, polls, seating
from bot.table.core import SaveConflict, TableCore
from bot.table.data import GIVEN_BACK, NoticeDue, TurnTimer, new_nonce
from bot.table.errors import NotAllowed, Refusal, Unavailable
from bot.table.loaded import Actor, LoadedGame, Play

#: How long after Discord refused a turn notice it is posted again (seconds).
NOTICE_RETRY_SECONDS = 60.0
#: How long a person's turn must have waited for them before the others may hand their
#: seat to a computer (C6: an absent player, not one thinking over a move).
AWAY_WAIT_SECONDS = 60.0


class TurnPolicy:
    """Turns at a shared table, over the shared :class:`TableCore`."""

    def __init__(self, core: TableCore, *, notice_grace: float = 0.0) -> None:
        self.core = core
        #: The grace time of a server's turn notices, in seconds, by guild id (0: at
        #: once): how long a person whose turn came may take before they are pinged.
        self.notice_grace: Callable[[int | None], float] = lambda _guild: notice_grace
        #: The bot's recent outages (:mod:`bot.table.downtime`), set at start and when
        #: the store was out of reach: a turn timer does not run while the bot is down
        #: (the store's trouble and the pauses not yet handed on count too:
        #: ``core.unplayed``).
        self.outages: Sequence[downtime.Outage] = ()

    def turn_notice(self, game: LoadedGame, user: int, text: str) -> tuple[int, str] | None:
        """Tell ``user`` it is their turn: the notice to send now, or None when it waits
        for its grace time (stored with the game; the deadline loop sends it if they have
        not acted by then). A table with notices off sends none, nor does a turn whose
        timer's reminder comes in the last quarter of the turn after the grace time. A
        notice sent now is stored as owed until it is out (:func:`owed`)."""
        data = game.data
        data.notice_due = None
        if not data.notices:
            return None
        grace = self.notice_grace(game.row.guild_id)
        now = self.core.now()
        if grace <= 0:
            data.notice_due = owed(NoticeDue(user, now, text), now)
            return user, text
        if _reminder_says_it(game, user, now + grace):
            return None  # its timer's reminder, soon after, says it: one ping, not two
        data.notice_due = NoticeDue(user, now + grace, text, since=now)
        return None

    async def move(self, game: LoadedGame, seat: int, action_id: str,
                   actor_id: int | None) -> Play:
        """Apply a seated move (a person's or a computer's) and pass the turn on; a person
        who moves is plainly there, so asks to hand their seat to a computer are void."""
        if actor_id is not None:
            game.data.away_votes.pop(str(actor_id), None)
        return await self.core.apply(game, seat, action_id, actor_id,
                                     after_turn=self.after_turn)

    async def back(
        self, game: LoadedGame, seat: int, actor: Actor, action_id: str, *,
        fresh: bool = True,
    ) -> Play:
        """An away person clicked: they play their seat again, and their move is tried
        when it was made on the current board (``fresh``); the answer shows the board."""
        core = self.core
        game.seats[seat] = game.seats[seat].with_away(False)
        game.data.away_votes.pop(str(actor.user_id), None)  # there: the asks are void
        event = f"{game.seat_name(seat)} is back and plays their own seat again."
        to_act, timer = game.to_act(), game.data.timer
        if to_act == seat or timer is None or timer.seat != to_act:
            # Their turn (a computer held it, untimed); another's running timer and its
            # reminder stay as they are (C6). Another person's stopped timer ran out twice
            # while the table waited for them alone: they were reminded once already, so
            # when it runs out again a computer plays their seat.
            reminded = to_act != seat and timer is None
            waiting_since = game.data.turn_since
            seating.start_timer(game.data, to_act, game.seats, core.now())
            if to_act != seat:  # another's turn waits as long as it did (C6's away ask)
                game.data.turn_since = waiting_since
            if reminded and game.data.timer is not None:
                game.data.timer.strikes = 1
        back = await core.table_move(game, (event,), {"back": seat}, actor.user_id)
        if not fresh or action_id.startswith("lobby."):
            return Play(back, (event,), came_back=True)
        stored = copy.deepcopy(back.row)  # the return as stored, should the move's fail
        try:
            seat = core.seat_for(back, actor, action_id)
            play = await self.move(back, seat, action_id, actor.user_id)
        except (Unavailable, SaveConflict):
            # Their return is stored, their move is not, and the move changed the game
            # in hand before its save failed: the board shows the game as stored.
            return Play(core.wrap(stored), (event,), came_back=True, unmade=True)
        except Refusal:
            return Play(back, (event,), came_back=True)
        return Play(play.game, (event, *play.events), notice=play.notice)

    async def come_back(self, game_id: int, actor: Actor) -> Play | None:
        """An away person used a button that is not a move (the rules, a confirmation):
        they play their own seat again. Return the change, or None if they were not away."""
        async with self.core.hold(game_id):
            game = await self.core.load(game_id)
            row = game.row
            if row.status != "active" or game.broken or len(game.seats) < 2:
                return None
            seat = game.seat_of(actor.user_id)
            if seat is None or not game.seats[seat].away:
                return None
            return await self.back(game, seat, actor, "", fresh=False)

    async def still_here(self, game_id: int, actor: Actor) -> Play | None:
        """The person whose turn it is, reminded by its timer, used a button of the table
        that is not a move (its rules): they are here, so their turn runs whole again
        from now before their seat goes to a computer (C6: until the person clicks).
        Once a turn: opening the rules again does not put the computer off again.
        Return the change (the board shows the timer's new end), or None."""
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            if not reminded_to_act(game, actor.user_id):
                return None
            timer = game.data.timer
            assert timer is not None
            now = core.now()
            timer.strikes = GIVEN_BACK  # once a turn: opening the rules again gives no more
            timer.since, timer.at = now, now + game.data.turn_seconds
            await core.save_table(game)
            return Play(game, (), redraw=True)

    async def looking(self, game_id: int, actor: Actor) -> bool:
        """The person whose turn it is, their turn notice waiting for its grace time, used
        a button of the table that is not a move (its rules): they are at the table, so
        the notice's grace starts again (C6: no ping for someone reading the table).
        Return whether it did."""
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            due = game.data.notice_due
            if due is None or not notice_waits_for(game, actor.user_id):
                return False
            now = core.now()
            at = now + self.notice_grace(game.row.guild_id)
            # one ping, not two: a notice moved next to the timer's reminder goes
            game.data.notice_due = (None if _reminder_says_it(game, actor.user_id, at)
                                    else replace(due, at=at, since=now))
            await core.save_table(game)
            return True

    async def fire_timer(self, game_id: int) -> Play | None:
        """Handle a game's due turn deadline: a turn timer (C6: remind once, then let a
        computer play the seat) or a turn notice whose grace time has passed."""
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            row, data = game.row, game.data
            now = core.now()
            if not row.is_open or game.broken:
                return None
            timer, due = data.timer, data.notice_due
            # A reminder not yet out is posted before its timer can end again (C6).
            unsaid = due is not None and due.reminder and due.at <= now
            if timer is not None and timer.at <= now and not unsaid:
                if self._put_off(timer, data.turn_seconds, now):
                    await core.save_table(game)
                    return Play(game, (), redraw=True)  # the board shows the timer's new end
                return await self._timer_ran_out(game, now)
            if due is not None and due.at <= now and self._put_off_notice(game, now):
                await core.save_table(game)  # its grace ran while the bot was down
                return None
            if due is not None and due.at <= now:
                data.notice_due = None
                mine = game.person_to_act() == due.user
                if mine and not due.reminder and _reminder_says_it(game, due.user, now):
                    # come late (a restart, a slow store) into the turn's last quarter:
                    # the timer's reminder, soon, is the one ping
                    await core.save_table(game)
                    return None
                restarted = mine and due.reminder and timer is not None
                if restarted and timer is not None:
                    # reminded now: a whole turn from now, then the seat goes on
                    timer.strikes = 1
                    timer.since, timer.at = now, now + data.turn_seconds
                    data.notice_due = self._reminder_waits(data.turn_seconds, due.user,
                                                           due.text, now, due.nonce)
                elif mine:
                    data.notice_due = owed(due, now)
                await core.save_table(game)
                if not mine:
                    return None  # the turn moved on some other way
                return Play(game, (), notice=(due.user, due.text), reminder=due.reminder,
                            nonce=due.nonce if due.reminder else None,
                            redraw=restarted)
            if row.deadline is not None and row.deadline <= now:
                await core.save_table(game)  # a deadline nothing waits for any more
            return None

    @staticmethod
    def _reminder_waits(turn_seconds: float, user: int, text: str, now: float,
                        nonce: str | None = None) -> NoticeDue:
        """The reminder being posted, kept until it is out (the post stores that it is):
        a stop or a crash before then posts it after the start, well before the timer's
        next end (C6: a reminder counts as given once it is posted). ``nonce`` is
        the one its posts carry, if it was tried before (else a new one)."""
        return NoticeDue(user, now + min(NOTICE_RETRY_SECONDS, turn_seconds / 2), text,
                         reminder=True, since=now, nonce=nonce or new_nonce())

    async def notice_refused(self, game_id: int, version: int, user: int, text: str, *,
                             reminder: bool) -> None:
        """Discord refused a turn notice, made for the game at ``version``, for a while:
        post it again in :data:`NOTICE_RETRY_SECONDS`, while it is still ``user``'s turn
        and nothing was played since (a move on the way makes its own notice). A refused
        reminder is not counted as given (C6: a computer takes the seat only after the
        person was reminded), until it is posted."""
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            data = game.data
            if (not game.row.is_open or game.broken or game.row.version != version
                    or game.person_to_act() != user):
                return
            timer = data.timer
            if reminder and timer is not None:
                timer.strikes = 0
            now = core.now()
            # a post refused for a while may have been taken all the same: the next try
            # carries the same nonce, so that Discord gives it back rather than post twice
            prior = data.notice_due
            nonce = (prior.nonce if prior is not None and prior.user == user
                     and prior.reminder == reminder else None)
            data.notice_due = NoticeDue(user, now + NOTICE_RETRY_SECONDS, text, reminder,
                                        since=now, nonce=nonce)
            await core.save_table(game)

    async def put_off_timer(self, game_id: int,
                            away: Sequence[downtime.Outage] = ()) -> Play | None:
        """After a start, move the running turn timer of the game later by the time the bot
        was down since its run began, before it is due: the board then shows the end it
        really has; and so the grace time of its waiting turn notice (C6). Return the
        change of the timer (its board to show again), or None. ``away``: times the
        bot was away from the game's server (removed from it), counted as outages; the
        game is then saved in any case, so that its idle time counts from its return
        (nobody could play it meanwhile), and a lobby's host is not counted away for
        that time either."""
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            timer, now = game.data.timer, core.now()
            if not game.row.is_open or game.broken:
                return None
            # (a timer due while its server was away waited for its return)
            moved = (timer is not None and (timer.at > now or bool(away))
                     and self._put_off(timer, game.data.turn_seconds, now, away))
            if not self._put_off_notice(game, now, away) and not moved and not away:
                return None
            seen = game.data.host_seen
            if away and seen is not None:  # a lobby's host was no more away than anyone
                game.data.host_seen = seen + downtime.down_between(away, seen, now)
            await core.save_table(game)  # (back from away: its idle time counts from now)
            return Play(game, (), redraw=True) if moved else None

    def _put_off(self, timer: TurnTimer, turn_seconds: float, now: float,
                 away: Sequence[downtime.Outage] = ()) -> bool:
        """Move a turn timer's end later by the time the bot was down since its run began
        (nobody could click then); return whether it moved. Its run then counts from
        ``now``, so that outage is not counted twice."""
        since = timer.since if timer.since is not None else timer.at - turn_seconds
        at = self._later(since, timer.at, now, away)
        if at is None:
            return False
        timer.since, timer.at = now, at
        return True

    def _put_off_notice(self, game: LoadedGame, now: float,
                        away: Sequence[downtime.Outage] = ()) -> bool:
        """Move the end of the table's waiting turn notice later by the time the bot was
        down since its wait began (its grace time, C6); return whether it moved."""
        due = game.data.notice_due
        if due is None:
            return False
        since = due.since if due.since is not None else (
            due.at - self.notice_grace(game.row.guild_id))
        at = self._later(since, due.at, now, away)
        if at is None:
            return False
        game.data.notice_due = replace(due, since=now, at=at)
        return True

    def _later(self, since: float, at: float, now: float,
               away: Sequence[downtime.Outage] = ()) -> float | None:
        """The new end of a wait from ``since`` to ``at`` that the bot was down for a
        while of before ``now`` (that time is added to it, counted from ``now``), or None
        when it was not down then or the wait was over before."""
        down = downtime.down_between(
            [*self.outages, *self.core.unplayed(), *away], since, now)
        ran = now - since - down
        if ran >= at - since or down <= 0:
            return None
        return now + (at - since - ran)

    async def _timer_ran_out(self, game: LoadedGame, now: float) -> Play | None:
        """The turn timer ran out (the lock is held): remind, or hand the seat on."""
        core = self.core
        data = game.data
        timer = data.timer
        assert timer is not None
        seat = game.to_act()
        if seat != timer.seat or game.computer_to_act() or seat is None:
            seating.start_timer(data, None if game.computer_to_act() else seat,
                                game.seats, now)
            await core.save_table(game)
            return None
        name = game.seat_name(seat)
        user = game.seats[seat].user_id or 0
        data.notice_due = None  # the reminder says it, with a ping
        # An away seat is played only while another person plays (seating.played_by_
        # computer): with nobody else, the table waits for its one person instead.
        others = [s for s in seating.present_people(game.seats,
                                                    seating.resigned_seats(game.view()))
                  if s != seat]
        if not timer.strikes:
            timer.strikes = 1
            timer.since, timer.at = now, now + data.turn_seconds
            text = (f"⏰ <@{user}>, it is still your turn. If the timer runs out again, "
                    "a computer plays your seat until you click." if others else
                    f"⏰ <@{user}>, it is still your turn: the table waits for you.")
            data.notice_due = self._reminder_waits(data.turn_seconds, user, text, now)
            await core.save_table(game)
            # The board shows the timer's new end.
            return Play(game, (), notice=(user, text), redraw=True, reminder=True,
                        nonce=data.notice_due.nonce)
        if not others:
            data.timer = None
            event = (f"{name}'s turn timer ran out twice: with no one else playing, the "
                     "table waits for them.")
            await core.table_move(game, (event,), {"timer": "stopped"}, None)
            return Play(game, (event,))
        game.seats[seat] = game.seats[seat].with_away(True)
        data.timer = None
        if game.seats[seat].user_id is not None:  # handed on: the asks to do it are done
            data.away_votes.pop(str(game.seats[seat].user_id), None)
        event = (f"{name}'s turn timer ran out twice: a computer plays their seat "
                 "until they click again.")
        await core.table_move(game, (event,), {"away": seat}, None)
        return Play(game, (event,))

    async def hand_to_computer(self, channel_id: int, actor: Actor, absent_user: int) -> Play:
        """Vote to hand an absent player's seat to a computer; a majority of the others does.

        Only seated people who still play may vote (C6); the absent player gets the seat
        back by clicking any button of the table.
        """
        core = self.core
        found = await core.open_in_channel(channel_id)
        if found is None or len(found.seats) < 2 or found.row.status != "active":
            raise Refusal("There is no running table in this channel.")
        async with core.hold(found.id):
            game = await core.load(found.id)
            if game.row.status != "active" or game.broken:
                raise Refusal("There is no running table in this channel.")
            seats, data = game.seats, game.data
            resigned = seating.resigned_seats(game.view())
            mine = game.seat_of(actor.user_id)
            absent = game.seat_of(absent_user)
            present = seating.present_people(seats, resigned)
            if mine is not None and seats[mine].away and mine not in resigned:
                raise NotAllowed(seating.AWAY_REFUSAL)
            if mine is None or mine not in present:
                raise NotAllowed("Only people playing at this table can hand a seat on.")
            if absent is None or absent == mine:
                raise Refusal("Name another person seated at this table.")
            if absent in resigned:
                raise Refusal(f"{game.seat_name(absent)} has resigned: their seat plays no more.")
            if seats[absent].away:
                who = game.seat_name(absent)
                raise Refusal(f"A computer plays {who}'s seat already, until {who} clicks "
                              "again.")
            self._check_absent(game, absent)
            ballots = data.away_votes.setdefault(str(absent_user), [])
            needed = seating.away_votes_needed(seats, resigned, absent)
            ballots[:] = [u for u in ballots if game.seat_of(u) in present]
            if actor.user_id in ballots and len(ballots) < needed:  # the command again
                raise Refusal(f"You have asked to hand {game.seat_name(absent)}'s seat to a "
                              f"computer already ({len(ballots)} of {needed} needed).")
            if actor.user_id not in ballots:
                ballots.append(actor.user_id)
            if len(ballots) < needed:  # the board says so (its footer), until it lapses
                event = (f"{game.seat_name(mine)} asks to hand {game.seat_name(absent)}'s "
                         f"seat to a computer ({len(ballots)} of {needed} needed).")
                await core.table_note(game, (event,))
                return Play(game, (event,), redraw=True)
            names = polls.join_names(game.seat_name(game.seat_of(u)) for u in ballots)
            data.away_votes.pop(str(absent_user), None)
            seats[absent] = seats[absent].with_away(True)
            if game.to_act() == absent:
                data.timer = None
                data.notice_due = None
            who = game.seat_name(absent)
            event = f"{names} handed {who}'s seat to a computer until {who} clicks again."
            await core.table_move(game, (event,), {"away": absent}, actor.user_id)
            return Play(game, (event,))

    def _check_absent(self, game: LoadedGame, absent: int) -> None:
        """Refuse to hand ``absent``'s seat on unless they keep the table waiting: it is
        their turn, and it has waited :data:`AWAY_WAIT_SECONDS` for them while the bot
        ran (C6)."""
        who = game.seat_name(absent)
        if game.to_act() != absent:
            raise Refusal(f"{who} is not keeping the table waiting: once it is their turn "
                          f"and they have not played for a minute, ask again.")
        since, now = game.data.turn_since, self.core.now()
        # time the bot was down, or its database out of reach, nobody could play: it
        # does not count (as for a turn timer)
        down = 0.0 if since is None else downtime.down_between(
            [*self.outages, *self.core.unplayed()], since, now)
        left = 0.0 if since is None else since + down + AWAY_WAIT_SECONDS - now
        if left > 0:
            # (the minute counts from their turn's start or their last step, the bot up)
            raise Refusal(f"{who} has kept the table waiting less than a minute: give them "
                          f"time (ask again in {math.ceil(left)} s).")

    def after_turn(
        self, game: LoadedGame, state: Any, before: int | None, events: tuple[str, ...],
        mover: int,
    ) -> tuple[tuple[str, ...], tuple[int, str] | None]:
        """Restart the turn timer, end a table no person plays, and say whose turn it is.

        A move out of turn (another seat resigning) that leaves the same seat to act
        changes nothing of that turn: its timer, its reminder strike and a notice still
        waiting for its grace time stay as they were (C6); but when the last person
        playing for themselves resigns during an away person's turn, the computer stops
        playing it and the person is told the table waits for them."""
        row, seats = game.row, game.seats
        view = game.engine.view(state)
        resigned = seating.resigned_seats(view)
        if not any(s not in resigned for s in seating.person_seats(seats)):
            row.status = "abandoned"
            game.data.timer = None
            return (*events, "No person is left at the table, so the game ended."), None
        seat = game.engine.to_act(state)
        waits_now = (seat is not None and mover != seat
                     and seating.played_by_computer(seats, seat, resigned - {mover})
                     and not seating.played_by_computer(seats, seat, resigned))
        if seat == before and mover != before and not waits_now:
            return events, None
        timer, due = game.data.timer, game.data.notice_due
        # a step of a turn that goes on: its time starts again, and its reminder stays
        # given once it is out (reminded once a turn, C6)
        out = due is None or not due.reminder
        strikes = (timer.strikes if timer is not None and seat == before == timer.seat
                   and out else 0)
        seating.start_timer(game.data, seat, seats, self.core.now())
        if game.data.timer is not None:
            game.data.timer.strikes = strikes
        game.data.notice_due = None  # whoever was waited for has acted
        if (seat is None or (seat == before and not waits_now)
                or seating.played_by_computer(seats, seat, resigned)):
            return events, None
        user = seats[seat].user_id or 0
        if waits_now:
            name = game.seat_name(seat)
            return (*events, f"No one else is playing, so the table waits for {name}."), \
                self.turn_notice(game, user, f"<@{user}>, it is your turn at "
                                 f"{game.engine.title}: no one else is playing, so the "
                                 "table waits for you.")
        return events, self.turn_notice(
            game, user, f"<@{user}>, it is your turn at {game.engine.title}.")


def owed(due: NoticeDue, now: float) -> NoticeDue:
    """``due``, being posted from ``now``: kept with the table until the post is stored
    (a stop or a crash before then posts it after the start, in
    :data:`NOTICE_RETRY_SECONDS` counted without the time the bot was down)."""
    return replace(due, at=now + NOTICE_RETRY_SECONDS, since=now, owed=True,
                   nonce=due.nonce or new_nonce())  # (tried before: the same nonce)


def notice_waits_for(game: LoadedGame, user_id: int) -> bool:
    """Whether ``user_id``'s turn notice (not a reminder, nor one being posted) waits for
    its grace time at the running ``game``, whose turn is theirs."""
    due = game.data.notice_due
    return (due is not None and not due.reminder and not due.owed and due.user == user_id
            and game.row.status == "active" and not game.broken
            and game.person_to_act() == user_id)


def reminded_to_act(game: LoadedGame, user_id: int) -> bool:
    """Whether it is ``user_id``'s turn at the running ``game``, they play it themselves,
    its timer has reminded them once already, they have not had their turn given back
    since, and another person plays (so the timer's next end hands their seat to a
    computer, C6)."""
    timer = game.data.timer
    seat = game.seat_of(user_id)
    if not (game.row.status == "active" and not game.broken and len(game.seats) > 1
            and timer is not None and seat is not None and timer.seat == seat
            and timer.strikes == 1 and game.to_act() == seat and not game.seats[seat].away):
        return False
    # With nobody else playing the table waits for them: no computer takes the seat.
    present = seating.present_people(game.seats, seating.resigned_seats(game.view()))
    return any(other != seat for other in present)


def _reminder_says_it(game: LoadedGame, user: int, at: float) -> bool:
    """Whether a turn notice to ``user`` at ``at`` would come in the last quarter of
    their turn, just before their timer's reminder says the same (one ping, not two)."""
    timer, data = game.data.timer, game.data
    return (timer is not None and timer.seat == game.seat_of(user)
            and at >= timer.at - data.turn_seconds / 4)
