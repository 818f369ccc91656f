"""Invitations to a Steam to Solar lobby through the offline Discord: one line per
invited member and lobby, gone from the channel once they join, and when the lobby
starts or closes.
"""

from __future__ import annotations

import asyncio

import discord

from bot.boards.notices import MOST_INVITES
from tests.support import (
    button,
    drop_first_answer,
    host_board,
    host_panel,
    make_bot,
    pings_sent,
)

COGS = ("cogs.steam",)


async def _lobby_with_bob(driver, fake, tmp_path):
    """Open a table as Alice with Bob seated; return the bot and the board."""
    for name in ("bob", "carol", "erin"):
        if name not in fake.users:
            fake.add_user(name)
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await driver.slash("steam", "new", user="alice")).message
    return bot, (await driver.click(board, button(board, "lobby.join"), user="bob")).message


async def _invite(driver, fake, board, name: str):
    """As the host, pick ``name`` in the controls' member select; return the answer."""
    panel = await host_panel(driver, fake.get_message(board["id"]))
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    answer = await driver.pick_member(panel.message, select, name, user="alice")
    await driver.settle()
    return answer


def _invitations(fake) -> list[dict]:
    """The invitation lines the channel shows now."""
    return [m for m in fake.channel_messages() if "invites you to" in (m.get("content") or "")]


async def test_a_member_is_invited_once_and_the_line_goes_when_they_join(
        discord_driver, fake_discord, tmp_path):
    """The channel shows one invitation line per invited member, pinging them once: the
    host picking Erin again and again is told privately that she is invited already
    (pointing to that line) and nothing is posted. Once Erin joins, her line is deleted;
    Carol's stays until the game starts, which deletes it too."""
    fake = fake_discord
    _bot, board = await _lobby_with_bob(discord_driver, fake, tmp_path)
    erin, carol = fake.user("erin").id, fake.user("carol").id
    first = await _invite(discord_driver, fake, board, "erin")
    assert first.response_type == 7 and first.content.startswith("Invited Erin.")
    [line] = _invitations(fake)
    for _ in range(2):
        again = await _invite(discord_driver, fake, board, "erin")
        assert again.ephemeral and again.content.startswith("Erin is invited already: ")
        assert f"/{line['id']})" in again.content
    assert pings_sent(fake).count(erin) == 1 and _invitations(fake) == [line]
    await _invite(discord_driver, fake, board, "carol")
    assert len(_invitations(fake)) == 2

    board = fake.get_message(board["id"])
    await discord_driver.click(board, button(board, "lobby.join"), user="erin")
    await discord_driver.settle()
    assert fake.get_message(line["id"]) is None
    assert [fake.pings(m) for m in _invitations(fake)] == [{carol}]

    await host_board(discord_driver, fake.get_message(board["id"]), "lobby.start")
    await discord_driver.settle()
    assert _invitations(fake) == [] and pings_sent(fake).count(erin) == 1


async def test_closing_the_lobby_deletes_its_invitations(discord_driver, fake_discord, tmp_path):
    """Closing the table from the host controls deletes the invitation lines it left in
    the channel; the closed lobby keeps none."""
    fake = fake_discord
    bot, board = await _lobby_with_bob(discord_driver, fake, tmp_path)
    await _invite(discord_driver, fake, board, "carol")
    await _invite(discord_driver, fake, board, "erin")
    assert len(_invitations(fake)) == 2
    await host_board(discord_driver, fake.get_message(board["id"]), "lobby.cancel")
    await discord_driver.settle()
    assert _invitations(fake) == []
    game = await bot.tables.load(int(button(board, "lobby.join").split(":")[1]))
    assert game.row.status == "abandoned" and game.data.invites == []


async def test_an_invitation_from_the_member_menu_goes_when_they_join(
        discord_driver, fake_discord, tmp_path):
    """Apps → "Invite to Steam to Solar" on Erin, with Alice's lobby open here: one line
    pings her; a second pick is answered privately; her line goes once she joins."""
    from tests.support import button, make_bot

    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    erin = fake_discord.add_user("erin")
    menu = await discord_driver.user_command("Invite to Steam to Solar", "erin", user="alice")
    assert not menu.ephemeral and erin.id in fake_discord.pings(menu.message)
    again = await discord_driver.user_command("Invite to Steam to Solar", "erin", user="alice")
    assert again.ephemeral and "invited already" in again.content
    line = menu.message["id"]
    assert any(m["id"] == line for m in fake_discord.channel_messages())
    board = fake_discord.get_message(board["id"])
    await discord_driver.click(board, button(board, "lobby.join"), user="erin")
    await discord_driver.settle()
    assert not any(m["id"] == line for m in fake_discord.channel_messages())


async def test_an_invitation_discord_refuses_is_not_said_to_be_sent(
        discord_driver, fake_discord, tmp_path):
    """Discord refuses the invitation's message (a 403: the bot may not post here): the
    host's controls, which said "Invited Erin." as it went, say she was not, nobody is
    pinged, and she can be invited again."""
    fake = fake_discord
    _bot, board = await _lobby_with_bob(discord_driver, fake, tmp_path)
    fake.fail_next("POST", r"/webhooks/\d+/[^/]+$", 403, 50013)
    answer = await _invite(discord_driver, fake, board, "erin")
    assert _invitations(fake) == [] and not pings_sent(fake)
    assert answer.content.startswith("Erin was not invited: Discord refused"), answer.content
    await _invite(discord_driver, fake, board, "erin")
    assert len(_invitations(fake)) == 1


async def test_an_invitation_whose_answer_is_lost_says_it_may_not_have_gone(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The connection drops under the invitation's message: the controls no longer say
    "Invited Erin." but that she may not be, and to invite her again if no invitation
    shows."""
    fake = fake_discord
    _bot, board = await _lobby_with_bob(discord_driver, fake, tmp_path)
    drop_first_answer(monkeypatch, "send", owner=discord.Webhook)
    answer = await _invite(discord_driver, fake, board, "erin")
    assert _invitations(fake) == []
    assert answer.content.startswith("Erin may not have been invited"), answer.content
    assert "invite them again" in answer.content


async def test_an_invitation_discord_fails_under_is_not_said_to_be_refused(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Discord answers the invitation's message with server errors (a 5xx, which it may
    give for a message it took and shows): the controls say she may not have been invited and
    to look for the invitation before inviting again, never that it was refused."""
    import discord.webhook.async_ as webhook_async
    fake = fake_discord
    _bot, board = await _lobby_with_bob(discord_driver, fake, tmp_path)
    real_sleep = asyncio.sleep
    monkeypatch.setattr(webhook_async.asyncio, "sleep", lambda _s: real_sleep(0))
    fake.fail_next("POST", r"/webhooks/\d+/[^/]+$", 503, times=5)
    answer = await _invite(discord_driver, fake, board, "erin")
    assert answer.content.startswith("Erin may not have been invited"), answer.content


async def test_an_invitation_discord_fails_to_delete_is_deleted_at_a_later_try(
        discord_driver, fake_discord, tmp_path):
    """Erin joins while Discord fails the delete of her invitation (a 503): the line goes
    at the next try, not never."""
    fake = fake_discord
    bot, board = await _lobby_with_bob(discord_driver, fake, tmp_path)
    bot.boards.leftovers.retry_seconds = (0.05,)
    await _invite(discord_driver, fake, board, "erin")
    [line] = _invitations(fake)
    fake.fail_next("DELETE", rf"/messages/{line['id']}$", 503)
    board = fake.get_message(board["id"])
    await discord_driver.click(board, button(board, "lobby.join"), user="erin")
    await discord_driver.settle()
    assert fake.get_message(line["id"]) is not None  # the delete failed
    for _ in range(100):
        if fake.get_message(line["id"]) is None:
            break
        await asyncio.sleep(0.01)
    assert _invitations(fake) == [] and bot.boards.leftovers.waiting == 0


def _departed(fake, target: str) -> dict:
    """The member menu's command on ``target`` as Discord sends it once they have left
    the server (right-clicking their name on an old message): their user, no member."""
    payload = fake.user_command_payload("Invite to Steam to Solar", target, user="alice")
    payload["data"]["resolved"].pop("members")
    return payload


async def test_the_member_menu_on_someone_who_left_opens_nothing(discord_driver, fake_discord,
                                                                 tmp_path):
    """As the invite option of /steam new does: a user who is no longer a member is
    refused privately, no table opens and no invitation is posted."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    refused = await discord_driver.feed(_departed(fake_discord, "bob"))
    assert refused.ephemeral and "is not a member of this server now" in refused.content
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    await discord_driver.slash("steam", "new", user="alice")
    again = await discord_driver.feed(_departed(fake_discord, "bob"))
    await discord_driver.settle()
    assert again.ephemeral and "is not a member of this server now" in again.content
    assert _invitations(fake_discord) == [] and pings_sent(fake_discord) == []


async def test_a_bot_named_in_the_invite_option_is_not_invited_with_a_word_why(
        discord_driver, fake_discord, tmp_path):
    """A host who picks a bot (a music bot) to invite opens the table all the same and is
    told privately that bots cannot take a seat."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    helper = fake_discord.add_user("helperbot")
    member = {k: v for k, v in helper.member_payload().items() if k != "user"}
    payload = fake_discord.slash_payload(
        "steam", path=["new"], user="alice",
        options=[{"name": "invite", "type": 6, "value": str(helper.id)}],
        resolved={"users": {str(helper.id): {**helper.user_payload, "bot": True}},
                  "members": {str(helper.id): member}})
    opened = await discord_driver.feed(payload)
    await discord_driver.settle()
    said = [f.get("content") or "" for f in opened.followups]
    assert said == ["Not invited: Helperbot. Bots cannot take a seat; add a computer "
                    "player instead."]
    assert "Helperbot" not in str(opened.embeds)


async def test_the_member_menu_in_a_forum_asks_for_a_post(discord_driver, fake_discord,
                                                          tmp_path):
    """The member menu used while a forum is open (its list of posts, where no message
    can be posted): refused privately, pointing to its posts; nothing is stored."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    forum = fake_discord.add_channel("lfg-forum")
    fake_discord.channels[forum].update(
        type=15, available_tags=[], default_reaction_emoji=None,
        default_thread_rate_limit_per_user=0, default_sort_order=None, default_forum_layout=0)
    refused = await discord_driver.user_command("Invite to Steam to Solar", "bob", user="alice",
                                                channel=forum)
    assert refused.ephemeral and "forum's posts" in refused.content
    assert await bot.tables.open_in_channel(forum) is None


async def test_a_pick_arriving_twice_pings_the_member_once(discord_driver, fake_discord,
                                                           tmp_path):
    """The host's pick of Carol reaches the bot twice at once (a double pick, a retry):
    one invitation is posted and Carol is pinged once; the second pick is told she is
    being invited already."""
    fake = fake_discord
    fake.add_user("carol")
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    panel = await host_panel(discord_driver, board)
    select = next(c for c in panel.custom_ids if c.startswith("u1:"))
    carol = fake.user("carol")
    picks = [fake.component_payload(panel.message, select, values=[str(carol.id)],
                                    user="alice") for _ in range(2)]
    answers = await asyncio.gather(*(discord_driver.feed(p) for p in picks))
    await discord_driver.settle()
    assert pings_sent(fake) == [carol.id]
    assert len(_invitations(fake)) == 1
    assert any(a.content == "Carol is being invited already." for a in answers), \
        [a.content for a in answers]


async def test_a_lobby_with_25_invitations_out_invites_nobody_more(
        discord_driver, fake_discord, tmp_path):
    """A host inviting member after member: at MOST_INVITES lines out the next pick is
    refused privately (one more line would take down the oldest, whose member could then
    be invited, and pinged, again); picking them all again pings nobody twice."""
    fake = fake_discord
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("steam", "new", user="alice")
    names = [f"m{i}" for i in range(MOST_INVITES + 1)]
    for name in names:
        fake.add_user(name)
    for name in names[:MOST_INVITES]:
        answer = await discord_driver.user_command("Invite to Steam to Solar", name,
                                                   user="alice")
        assert not answer.ephemeral, answer.content
    await discord_driver.settle()
    refused = await discord_driver.user_command("Invite to Steam to Solar", names[-1],
                                                user="alice")
    assert refused.ephemeral and f"{MOST_INVITES} invitations out" in refused.content
    for name in names:
        await discord_driver.user_command("Invite to Steam to Solar", name, user="alice")
    await discord_driver.settle()
    sent = pings_sent(fake)
    assert [sent.count(fake.user(name).id) for name in names] == [1] * MOST_INVITES + [0]
    assert len(_invitations(fake)) == MOST_INVITES
