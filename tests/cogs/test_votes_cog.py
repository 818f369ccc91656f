"""Channel votes through the offline Discord (rulings C1, C4, C5), with Tinker and the toy."""

from __future__ import annotations

import asyncio

from bot.boards.render import TALLY
from bot.table import voters
from tests.support import (
    Clock,
    abandon,
    board_ids,
    button,
    every_page,
    make_bot,
)


def _answers(fake, result) -> list:
    """The requests that answered the interaction (its callback and follow-ups)."""
    marker = f"/interactions/{result.record.id}/"
    return [r for r in result.requests if r.path.startswith(marker)]


async def _vote_game(driver, fake, tmp_path, clock, users=("alice", "bob", "carol")):
    """Start a toy game by vote and make ``users`` its active players; return bot, board."""
    for name in users:
        if name not in fake.users:
            fake.add_user(name)
    bot = await driver.login(make_bot(tmp_path, clock=clock))
    start = await driver.slash("toy", "start", {"players": "vote"}, user=users[0])
    board = start.message
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game is not None and game.data.mode == "vote" and board_ids(board)
    first = await driver.click(board, button(board, "add1"), user=users[0])
    assert first.response_type == 7  # one active player: a move at once
    board = first.message
    # Everyone else votes, alternating, so no move gets a majority; the window closes.
    for index, name in enumerate(users[1:]):
        action = "add1" if index % 2 == 0 else "add2"
        vote = await driver.click(fake.get_message(board["id"]), button(board, action), user=name)
        assert vote.ephemeral and "Your vote" in vote.content, vote.content
    if len(users) > 2:
        clock.advance(31)
        await bot.deadlines.run_due()
        await driver.settle()
    board = fake.get_message(board["id"])
    game = await bot.tables.open_in_channel(fake.channel_id)
    return bot, board, game


async def test_c4_majority_of_three_through_discord(discord_driver, fake_discord, tmp_path):
    """C4: with three active players, two votes for a move make it happen at once."""
    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    version = game.row.version
    vote = await discord_driver.click(board, button(board, "add2"), user="carol")
    # Carol voted before in this game: the board's tally acknowledges her vote, quietly.
    assert vote.response_type == 6 and not vote.ephemeral and vote.followups == []
    board = fake_discord.get_message(board["id"])
    labels = [c.get("label") for row in board["components"] for c in row["components"]]
    assert f"Add 2{TALLY}1" in labels
    field = next(f for f in board["embeds"][0]["fields"] if "voting" in f["name"])
    assert field["value"].startswith("1 vote · 2 agreeing") and ":R>" in field["value"]
    move = await discord_driver.click(board, button(board, "add2"), user="bob")
    assert move.response_type == 7 and len(_answers(fake_discord, move)) == 1
    game = await bot.tables.load(game.id)
    assert game.row.version == version + 1
    assert "Carol and Bob chose: Add 2." in game.row.events


async def test_c4_window_closes_on_a_plurality_and_edits_the_board(discord_driver, fake_discord,
                                                                    tmp_path):
    """C4: without a majority the most-voted move happens when the window closes."""
    clock = Clock()
    users = ("alice", "bob", "carol", "dave")
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock, users)
    await discord_driver.click(board, button(board, "add2"), user="alice")
    await discord_driver.click(fake_discord.get_message(board["id"]), button(board, "add2"),
                               user="bob")
    await discord_driver.click(fake_discord.get_message(board["id"]), button(board, "add1"),
                               user="carol")
    assert (await bot.tables.load(game.id)).row.version == game.row.version
    clock.advance(31)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert "Alice and Bob chose: Add 2 (2 votes to 1)." in game.row.events
    board = fake_discord.get_message(board["id"])
    assert all(f":{game.row.version}:" in cid for cid in board_ids(board))
    assert "Alice and Bob chose" in str(board["embeds"][0])


async def test_c4_a_vote_after_the_window_closed_is_told_it_was_not_counted(
        discord_driver, fake_discord, tmp_path):
    """C4: a vote clicked after the window's end, before the deadline loop closed it,
    makes the window's decision without it; the voter is told so privately, and the
    click's answer is the new board."""
    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    await discord_driver.click(board, button(board, "add2"), user="alice")
    clock.advance(31)
    late = await discord_driver.click(fake_discord.get_message(board["id"]),
                                      button(board, "add1"), user="carol")
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version + 1
    assert "Alice chose: Add 2." in after.row.events
    assert late.response_type == 7
    (told,) = late.followups
    assert told["flags"] & 64 and told["content"].startswith(
        "The vote had closed just before your click, so your vote was not counted")


async def test_c4_stale_vote_says_what_was_chosen(discord_driver, fake_discord, tmp_path):
    """A vote that arrives after the decision is refused privately, naming the choice."""
    clock = Clock()
    _bot, board, _game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    old = fake_discord.get_message(board["id"])
    clicks = [fake_discord.component_payload(old, button(old, action), user=user)
              for user, action in (("carol", "add2"), ("bob", "add2"), ("alice", "add1"))]
    await discord_driver.feed(clicks[0])
    await discord_driver.feed(clicks[1])
    late = await discord_driver.feed(clicks[2])
    assert late.ephemeral
    assert late.content.startswith("That board is out of date: Carol and Bob chose: Add 2.")
    assert "https://" not in late.content  # the clicked message is the board itself


async def test_c4_a_late_vote_for_the_move_just_made_is_taken_quietly(
        discord_driver, fake_discord, tmp_path):
    """C4: Carol and Bob's votes make Add 2; Alice's vote for Add 2 on the same board
    arrives a moment later: she is not told her click did nothing (the board shows the
    move she wanted), and nothing more is done; Dave's late vote for Add 1 is told."""
    clock = Clock()
    users = ("alice", "bob", "carol", "dave")
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock, users)
    old = fake_discord.get_message(board["id"])
    clicks = [fake_discord.component_payload(old, button(old, action), user=user)
              for user, action in (("carol", "add2"), ("bob", "add2"), ("dave", "add2"),
                                   ("alice", "add2"), ("dave", "add1"))]
    for click in clicks[:3]:
        await discord_driver.feed(click)
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version + 1
    agreed = await discord_driver.feed(clicks[3])
    assert agreed.response_type == 6 and not agreed.followups  # acknowledged, no word
    assert (await bot.tables.load(game.id)).row.version == after.row.version
    other = await discord_driver.feed(clicks[4])
    assert other.ephemeral and other.content.startswith("That board is out of date:")


async def test_c1_c4_a_lone_voters_second_tap_is_told_it_did_nothing(
        discord_driver, fake_discord, tmp_path):
    """C1, C4: Alice, the only one playing a vote game, taps 🌙 twice on the same board
    (paying one chip: her first tap is a move); her second tap is told it did nothing, as
    in a fast game, not taken without a word for a late vote agreeing with her own."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",), clock=Clock()))
    bot.tables.core.seeds = lambda: 5
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    await discord_driver.click(board, board_ids(board)[0], user="alice")  # a challenge
    old = fake_discord.get_message(board["id"])
    taps = [fake_discord.component_payload(old, button(old, "chip:Moons"), user="alice")
            for _ in range(2)]
    first = await discord_driver.feed(taps[0])
    second = await discord_driver.feed(taps[1])
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.version == 2 and first.response_type == 7  # one chip paid
    assert second.ephemeral and second.content.startswith("That board is out of date:")
    assert "did nothing" in second.content


async def test_c4_a_late_agreeing_newcomer_is_told_how_voting_works_at_their_next_vote(
        discord_driver, fake_discord, tmp_path):
    """C4: Erin, new to the game, clicks the move Bob and Carol's votes made a moment
    before (taken without a word); at her next vote, which waits for the others, she is
    told once how voting works, as every first-time voter is."""
    clock = Clock()
    for name in ("alice", "bob", "carol", "erin"):
        if name not in fake_discord.users:
            fake_discord.add_user(name)
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    for user, action in (("bob", "add1"), ("carol", "add2")):
        await discord_driver.click(fake_discord.get_message(board["id"]),
                                   button(board, action), user=user)
    clock.advance(31)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    old = fake_discord.get_message(board["id"])  # Alice, Bob and Carol are active
    late = fake_discord.component_payload(old, button(old, "add2"), user="erin")
    for user in ("bob", "carol"):  # 2 of 3: Add 2 happens at once
        await discord_driver.feed(fake_discord.component_payload(old, button(old, "add2"),
                                                                  user=user))
    agreed = await discord_driver.feed(late)
    assert agreed.response_type == 6 and not agreed.followups  # taken without a word
    board = fake_discord.get_message(board["id"])
    vote = await discord_driver.click(board, button(board, "add1"), user="erin")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.data.poll is not None and game.data.poll.tally == {"add1": 1}  # waits
    assert vote.ephemeral and vote.content.startswith("Your vote: "), vote.content
    again = await discord_driver.click(board, button(board, "add2"), user="erin")
    assert again.content.startswith("You changed your vote")  # told how, once only


async def test_c4_c5_a_late_agreeing_vote_counts_its_newcomer_as_a_player(
        discord_driver, fake_discord, tmp_path):
    """C4, C5: Carol and Bob's votes make Add 2; Erin, who had not played, votes Add 2 on
    the same board a moment later. Her vote is taken quietly and she counts as she would
    have had it come in time: an active player (now four, so two votes are no longer a
    majority of the next decision) who shares the game's result. Alice's late vote, as an
    active player already, counts her no second time."""
    clock = Clock()
    fake_discord.add_user("erin")
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    old = fake_discord.get_message(board["id"])
    clicks = [fake_discord.component_payload(old, button(old, "add2"), user=user)
              for user in ("carol", "bob", "erin", "alice")]
    for click in clicks[:2]:
        await discord_driver.feed(click)
    for click in clicks[2:]:
        agreed = await discord_driver.feed(click)
        assert agreed.response_type == 6 and not agreed.followups
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version + 1
    assert after.data.recent_players == 4
    store = bot.tables.core.store
    assert fake_discord.user("erin").id in await voters.everyone(store, game.id, after.data)
    board = fake_discord.get_message(board["id"])
    for user in ("alice", "bob"):
        vote = await discord_driver.click(board, button(board, "add1"), user=user)
        assert vote.response_type != 7, vote.content  # a vote, not the move
    assert (await bot.tables.load(game.id)).row.version == after.row.version  # 2 of 4


async def test_c4_the_vote_under_way_shows_a_late_agreeing_newcomer(
        discord_driver, fake_discord, tmp_path):
    """C4: Carol and Bob make Add 2 and Alice votes on the next decision ("2 agreeing move
    now" of three players); then Erin's vote for Add 2 arrives on the old board: she is
    a fourth active player, and the board's vote line says 3 agreeing votes move now."""
    clock = Clock()
    fake_discord.add_user("erin")
    _bot, board, _game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    old = fake_discord.get_message(board["id"])
    late = fake_discord.component_payload(old, button(old, "add2"), user="erin")
    for user in ("carol", "bob"):
        await discord_driver.feed(fake_discord.component_payload(old, button(old, "add2"),
                                                                  user=user))
    board = fake_discord.get_message(board["id"])
    assert (await discord_driver.click(board, button(board, "add1"), user="alice")
            ).response_type != 7
    await discord_driver.settle()
    line = " ".join(f["value"] for f in fake_discord.get_message(board["id"])["embeds"][0]
                    ["fields"])
    assert "2 agreeing move now" in line
    assert (await discord_driver.feed(late)).response_type == 6
    await discord_driver.settle()
    line = " ".join(f["value"] for f in fake_discord.get_message(board["id"])["embeds"][0]
                    ["fields"])
    assert "3 agreeing move now" in line, line


async def test_c1_a_late_click_by_one_who_may_not_play_is_refused(discord_driver,
                                                                   fake_discord, tmp_path):
    """C1: Alice plays "only me" and moves; Bob's click for the same move on the same
    board, a moment late, is refused privately (he does not play this game), not taken
    quietly as an agreeing vote."""
    await discord_driver.login(make_bot(tmp_path, clock=Clock()))
    board = (await discord_driver.slash("toy", "start", {"players": "only me"},
                                        user="alice")).message
    old = fake_discord.get_message(board["id"])
    mine = fake_discord.component_payload(old, button(old, "add2"), user="alice")
    theirs = fake_discord.component_payload(old, button(old, "add2"), user="bob")
    assert (await discord_driver.feed(mine)).response_type == 7
    late = await discord_driver.feed(theirs)
    assert late.ephemeral and late.content.startswith("That board is out of date:")


async def test_c4_twenty_members_vote_at_once(discord_driver, fake_discord, tmp_path):
    """C4: 20 members vote at once: one move; every voter is answered with one request."""
    clock = Clock()
    users = tuple(f"m{i:02d}" for i in range(20))
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock, users)
    version = game.row.version
    assert game.data.recent_players == 20  # the active players
    cid = button(board, "add2")
    payloads = [fake_discord.component_payload(board, cid, user=u) for u in users]
    for payload in payloads:
        bot._connection.parse_interaction_create(payload)
    await discord_driver.settle()
    records = [fake_discord.interactions[int(p["id"])] for p in payloads]
    assert all(r.response_type in (4, 6, 7) for r in records)  # a private line, a quiet
    # acknowledgement (the board shows the tally), or the move
    answers = {
        int(p["id"]): [r for r in fake_discord.requests
                       if r.path.startswith(f"/interactions/{p['id']}/")
                       and 200 <= r.status < 300]
        for p in payloads
    }
    assert all(len(a) == 1 for a in answers.values()), answers
    game = await bot.tables.load(game.id)
    assert game.row.version == version + 1
    log = await bot.store.actions(game.id)
    assert [e["seq"] for e in log] == list(range(1, version + 2))


async def test_c4_open_window_survives_a_restart(discord_driver, fake_discord, tmp_path):
    """C4: after a restart the stored window closes when due, and the move happens once."""
    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    await discord_driver.click(board, button(board, "add2"), user="carol")
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    clock.advance(40)
    assert await bot.deadlines.run_due() == 1
    assert await bot.deadlines.run_due() == 0
    await discord_driver.settle()
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version + 1
    assert "Carol chose: Add 2." in after.row.events


async def test_deadline_loop_wakes_and_fires_by_itself(discord_driver, fake_discord, tmp_path):
    """The one deadline loop closes a due window without being called by the test."""
    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    await discord_driver.click(board, button(board, "add1"), user="carol")
    clock.advance(31)
    bot.deadlines.wake(None)
    for _ in range(200):
        if (await bot.tables.load(game.id)).row.version > game.row.version:
            break
        await discord_driver.settle()
        await asyncio.sleep(0.02)
    assert (await bot.tables.load(game.id)).row.version == game.row.version + 1
    assert bot.deadlines.fired >= 1


async def test_tinker_start_offers_the_three_ways_to_play(discord_driver, fake_discord, tmp_path):
    """/tinker start: vote by default (with its window), fast, and only me, on the board."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", {"vote_seconds": 45},
                                        user="alice")).message
    details = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    assert "the channel votes (45 s)" in str(await every_page(discord_driver, details, "bob"))
    await abandon(discord_driver, "tinker", "alice")
    fast = (await discord_driver.slash("tinker", "start", {"players": "fast"},
                                       user="alice")).message
    details = await discord_driver.click(fast, button(fast, "table.rules"), user="bob")
    assert "anyone's click moves" in str(await every_page(discord_driver, details, "bob"))
    rules = await discord_driver.slash("tinker", "rules", user="bob")
    pages = await every_page(discord_driver, rules, "bob")
    who = next(f for e in pages for f in e["fields"] if f["name"] == "Who plays")
    assert "vote" in who["value"] and "majority" in who["value"] and "fast" in who["value"]


async def test_a_vote_edit_keeps_the_picture_without_sending_it_again(discord_driver,
                                                                     fake_discord, tmp_path):
    """A vote changes only the text: the board keeps its picture and no file is re-sent."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    moved = await discord_driver.click(board, board_ids(board)[0], user="alice")
    assert moved.response_type == 7
    assert [u.filename for r in moved.requests for u in r.uploads] == ["board.png"]
    board = moved.message
    vote = await discord_driver.click(board, board_ids(board)[0], user="bob")
    assert vote.ephemeral and "Your vote" in vote.content
    edits = [r for r in vote.requests if r.method == "PATCH"]
    assert len(edits) == 1 and edits[0].uploads == []
    stored = fake_discord.get_message(board["id"])
    assert fake_discord.embed_attachment(stored) is not None
    assert "voting" in str(stored["embeds"][0])


async def test_a_voted_game_whispers_only_first_votes_and_changes(discord_driver, fake_discord,
                                                                  tmp_path):
    """Three voters over many decisions: each gets one private line for their first vote
    and one per changed vote; every other vote is acknowledged by the board alone."""
    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    private = quiet = changes = 0
    for decision in range(6):
        board = fake_discord.get_message(board["id"])
        for name in ("bob", "alice") if decision == 2 else ("alice", "bob"):
            if decision == 2 and name == "bob":  # Bob votes one way, then changes his mind
                vote = await discord_driver.click(board, button(board, "add2"), user="bob")
                private += vote.ephemeral
                quiet += vote.response_type == 6
                board = fake_discord.get_message(board["id"])
                changes += 1
            vote = await discord_driver.click(board, button(board, "add1"), user=name)
            private += vote.ephemeral
            quiet += vote.response_type == 6
            board = fake_discord.get_message(board["id"])
    # bob and carol voted before (in _vote_game), alice only alone: her first vote that
    # waits for others is told how voting works, then only Bob's change is told
    assert changes == 1 and private == 2
    assert quiet >= 5
    game = await bot.tables.load(game.id)
    assert game.state.count > 6  # the decisions were made all the same


async def test_c4_a_tie_is_told_on_the_board(discord_driver, fake_discord, tmp_path):
    """C4 through Discord: while voting, the vote line says a tie goes to the first vote;
    after a 1–1 split the board says it was a tie and who voted first."""
    clock = Clock()
    fake_discord.add_user("bob")
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"}, user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    await discord_driver.click(board, button(board, "add2"), user="bob")
    await discord_driver.settle()
    board = fake_discord.get_message(board["id"])
    field = next(f for f in board["embeds"][0]["fields"] if "voting" in f["name"])
    assert "tie: first vote" in field["value"]
    await discord_driver.click(board, button(board, "add1"), user="carol")
    clock.advance(31)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    board = fake_discord.get_message(board["id"])
    assert "Tie 1–1: Bob voted first, so Add 2 happened." in str(board["embeds"][0])


async def test_c4_the_tally_shows_every_vote_when_their_answers_cross(discord_driver,
                                                                     fake_discord, tmp_path):
    """Two votes on one decision, the first saved answered more slowly (a private "Your
    vote" line for a first-time voter; a silent acknowledgement for a returning one):
    the board's edit after both shows both votes, as stored, not the older tally."""
    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    fake_discord.add_user("erin")
    slow_id: list[str] = []
    answer = fake_discord._answer

    async def slow_answer(request, path, record):
        if slow_id and path.startswith(f"/interactions/{slow_id[0]}/"):
            await asyncio.sleep(0.3)  # network latency on this one answer
        return await answer(request, path, record)

    fake_discord._answer = slow_answer
    # Erin's first vote (saved first; answered with a private line, slowly) ...
    p1 = fake_discord.component_payload(board, button(board, "add2"), user="erin")
    slow_id.append(str(p1["id"]))
    bot._connection.parse_interaction_create(p1)
    for _ in range(100):
        g = await bot.tables.load(game.id)
        if g.data.poll is not None and sum(g.data.poll.tally.values()) == 1:
            break
        await asyncio.sleep(0.01)
    # ... then Carol's vote (answered quickly with a defer).
    p2 = fake_discord.component_payload(board, button(board, "add1"), user="carol")
    bot._connection.parse_interaction_create(p2)
    await asyncio.sleep(0.6)
    await discord_driver.settle()
    await asyncio.sleep(0.1)
    await discord_driver.settle()
    stored = await bot.tables.load(game.id)
    assert stored.row.version == game.row.version  # no move: 2 of 4, no majority
    assert stored.data.poll.tally == {"add2": 1, "add1": 1}
    shown = fake_discord.get_message(board["id"])
    field = next(f for f in shown["embeds"][0]["fields"] if "voting" in f["name"])
    labels = [c.get("label") for row in shown["components"] for c in row["components"]]
    assert field["value"].startswith("2 votes"), (field["value"], labels)
    assert f"Add 1{TALLY}1" in labels and f"Add 2{TALLY}1" in labels, labels


async def test_only_a_game_that_can_be_given_up_says_giving_up_needs_a_majority(
        discord_driver, fake_discord, tmp_path):
    """Tinker's rules and Rules & details say giving up needs a majority; Tin Realm's, a
    journey that cannot be given up, say nothing of giving up."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker", "cogs.tinrealm")))
    said = {}
    for kind in ("tinker", "tinrealm"):
        rules = await every_page(discord_driver,
                                 await discord_driver.slash(kind, "rules", user="bob"), "bob")
        board = (await discord_driver.slash(kind, "start", user="alice")).message
        details = await every_page(discord_driver, await discord_driver.click(
            board, button(board, "table.rules"), user="bob"), "bob")
        # each source's words on who plays (a long field may go on over two pages)
        said[kind] = [" ".join(f["value"] for e in pages for f in e["fields"]
                               if f["name"] in ("Who plays", "Ways to play"))
                      for pages in (rules, details)]
        await abandon(discord_driver, kind, "alice")
    assert len(said["tinker"]) >= 2 and len(said["tinrealm"]) >= 2
    assert all("giving up needs a majority" in text for text in said["tinker"])
    assert not any("giving up" in text for text in said["tinrealm"])
    assert all("the channel votes" in text for text in said["tinrealm"])


async def test_the_starter_who_played_alone_is_told_once_how_voting_works(
        discord_driver, fake_discord, tmp_path):
    """Alice plays alone (each click moves at once); Bob arrives and votes. Alice's next
    click is only a vote: she is told privately how voting works, as Bob was, once."""
    clock = Clock()
    fake_discord.add_user("bob")
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"},
                                        user="alice")).message
    for _ in range(2):
        moved = await discord_driver.click(board, button(board, "add1"), user="alice")
        assert moved.response_type == 7
        board = moved.message
    bob = await discord_driver.click(board, button(board, "add2"), user="bob")
    assert bob.ephemeral and bob.content.startswith("Your vote"), bob.content
    alice = await discord_driver.click(fake_discord.get_message(board["id"]),
                                       button(board, "add1"), user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.data.poll is not None and game.data.poll.tally == {"add2": 1, "add1": 1}
    assert alice.ephemeral and alice.content.startswith("Your vote: Add 1"), alice.content
    assert game.data.untold == []
    clock.advance(31)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    board = fake_discord.get_message(board["id"])
    again = await discord_driver.click(board, button(board, "add1"), user="alice")
    assert again.response_type == 6 and not again.ephemeral  # told once only


async def test_rules_and_details_say_who_plays_once(discord_driver, fake_discord, tmp_path):
    """Tinker's and Tin Realm's Rules & details carry "Who plays" on the rules page; the
    icons page no longer repeats the same words as "Ways to play"."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker", "cogs.tinrealm")))
    for kind in ("tinker", "tinrealm"):
        board = (await discord_driver.slash(kind, "start", user="alice")).message
        pages = await every_page(discord_driver, await discord_driver.click(
            board, button(board, "table.rules"), user="bob"), "bob")
        names = [f["name"] for e in pages for f in e["fields"]]
        assert names.count("Who plays") == 1 and "Ways to play" not in names, names
        await abandon(discord_driver, kind, "alice")


async def test_c4_c5_a_late_agreeing_vote_on_the_last_move_shares_the_result(
        discord_driver, fake_discord, tmp_path):
    """C4, C5: Bob and Carol's votes make the move that ends the game; Erin's vote for the
    same move on the same board arrives a moment later. She shares the game's result as
    if her vote had come in time, and is told so; Bob's own late click writes him no
    second result, and Dave's late vote for another move is told the game is over."""
    clock = Clock()
    for name in ("carol", "erin", "dave"):
        fake_discord.add_user(name)
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"},
                                        user="alice")).message
    for _ in range(4):  # Alice alone: each click is a move (count 8)
        board = (await discord_driver.click(board, button(board, "add2"), user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.version == 4
    old = fake_discord.get_message(board["id"])
    clicks = [fake_discord.component_payload(old, button(old, action), user=user)
              for user, action in (("bob", "add2"), ("carol", "add2"), ("erin", "add2"),
                                   ("bob", "add2"), ("dave", "add1"))]
    for click in clicks[:2]:
        await discord_driver.feed(click)
    ended = await bot.tables.load(game.id)
    assert ended.row.status == "over" and ended.row.version == 5
    store = bot.tables.core.store

    async def results_of(user: str) -> list:
        return [r for r in await store.results(fake_discord.user(user).id)
                if r["game_id"] == game.id]

    assert await results_of("erin") == []
    erin = await discord_driver.feed(clicks[2])
    assert erin.response_type in (6, 7)
    assert any("you share its result" in (m.get("content") or "") for m in erin.followups)
    (mine,) = await results_of("erin")
    (carols,) = await results_of("carol")
    assert (mine["outcome"], mine["score"]) == (carols["outcome"], carols["score"])
    assert len(await results_of("alice")) == 1  # the starter: no second result
    bob = await discord_driver.feed(clicks[3])
    assert len(await results_of("bob")) == 1
    assert not any("share its result" in (m.get("content") or "") for m in bob.followups)
    dave = await discord_driver.feed(clicks[4])
    told = [dave.content or "", *(m.get("content") or "" for m in dave.followups)]
    assert any(t.startswith("This game is over") for t in told), told
    assert await results_of("dave") == []
    assert (await bot.tables.load(game.id)).row.version == 5


async def test_c4_a_late_agreeing_vote_redraws_give_up_as_a_vote(
        discord_driver, fake_discord, tmp_path):
    """C4: Alice and Bob tap the same first challenge; Alice's tap moves at once (she
    is the only active player) and Bob's, a moment late, counts as one of its voters.
    Two players are active now, so the board is drawn again: Give up no longer asks
    first, it is a vote needing a majority like any move."""
    from bot.table import polls
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",), clock=Clock()))
    bot.tables.core.seeds = lambda: 5
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    first = board_ids(board)[0]
    alice = fake_discord.component_payload(board, first, user="alice")
    bob = fake_discord.component_payload(board, first, user="bob")
    await discord_driver.feed(alice)
    await discord_driver.feed(bob)
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert polls.active_on(game.data, game.row.version) == 2
    shown = board_ids(fake_discord.get_message(game.row.board_message_id))
    assert any(c.endswith(":give_up") for c in shown), shown
    assert not any(c.endswith(":ask.give_up") for c in shown), shown
