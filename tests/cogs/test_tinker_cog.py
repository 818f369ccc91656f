"""Tinker, Sailor, Soldier, Spy in Discord, through the offline fake."""


from datetime import UTC, datetime

import discord

from bot.table.daily import day_end
from cogs.footer import CHANNEL_VOTES
from tests.support import (
    Clock,
    abandon,
    board_ids,
    button,
    every_page,
    make_bot,
)

COGS = ("cogs.tinker",)


async def _game(bot, fake):
    return await bot.tables.open_in_channel(fake.channel_id)


async def _play_to_the_end(driver, fake, bot, board, *, restart_at=None, tmp_path=None):
    clicks = 0
    while True:
        game = await bot.tables.load(int(board_ids(board)[0].split(":")[1])) if board_ids(
            board) else None
        if game is None or not game.row.is_open:
            return board, clicks
        action = game.engine.computer_action(game.state, 0)
        if action == "give_up":  # Bob alone votes, so his click moves at once: asked (C4)
            asked = await driver.click(board, button(board, "ask.give_up"), user="bob")
            assert asked.ephemeral and asked.content.startswith("Give up the ")
            done = await driver.click(asked.message, asked.custom_ids[0], user="bob")
            assert done.response_type == 7, done.content
            board = fake.get_message(board["id"])
            clicks += 1
            continue
        result = await driver.click(board, button(board, action), user="bob")
        assert result.response_type == 7, result.content
        assert len(result.requests) == 1
        board = result.message
        clicks += 1
        if restart_at is not None and clicks == restart_at:
            bot = await driver.restart(make_bot(tmp_path, cogs=COGS))
            await driver.settle()  # the start shows the game's board again (one edit)


async def test_whole_game_by_clicks(discord_driver, fake_discord, tmp_path):
    """A whole game from /tinker start to its end by clicks, shared by its players (C5)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    start = await discord_driver.slash("tinker", "start", user="alice")
    board = start.message
    embed = board["embeds"][0]
    assert embed["title"] == "Tinker · round 1 · offer 1/11"  # T3: eleven offers
    assert embed["description"].startswith("**Choose your next challenge**")
    assert embed["footer"]["text"] == f"{CHANNEL_VOTES}\nAlice started the game."
    assert len(board_ids(board)) == 2
    board, clicks = await _play_to_the_end(discord_driver, fake_discord, bot, board)
    assert clicks > 11
    final = board["embeds"][0]
    assert final["title"].split(" · ")[0] in ("🏆 Victory", "💀 Defeat")
    assert final["color"] == (0x2ECC71 if "Victory" in final["title"] else 0x992D22)
    assert "Locations cleared" in final["description"]
    assert final["footer"]["text"]
    assert board_ids(board) == []
    results = await bot.store.results()
    assert sorted(r["user_id"] for r in results) == sorted(
        [fake_discord.user("alice").id, fake_discord.user("bob").id]
    )
    assert {r["kind"] for r in results} == {"tinker"}
    assert set(results[0]["detail"]) == {"locations_cleared", "chips_left"}


async def test_game_goes_on_after_restart(discord_driver, fake_discord, tmp_path):
    """The board keeps working across a restart in the middle of the game."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    board, clicks = await _play_to_the_end(
        discord_driver, fake_discord, bot, board, restart_at=5, tmp_path=tmp_path
    )
    assert clicks > 5 and board_ids(board) == []


async def test_only_me_refuses_a_non_starter(discord_driver, fake_discord, tmp_path):
    """C1: "only me" refuses another member's click privately; nothing changes."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", {"players": "only me"},
                                        user="alice")).message
    rules = next(cid for cid in board_ids(board, table=True) if cid.endswith(":table.rules"))
    details = await discord_driver.click(board, rules, user="bob")
    assert details.ephemeral
    assert "only Alice plays" in str(await every_page(discord_driver, details, "bob"))
    result = await discord_driver.click(board, board_ids(board)[0], user="bob")
    assert result.ephemeral and "only me" in result.content
    assert (await _game(bot, fake_discord)).row.version == 0
    ok = await discord_driver.click(board, board_ids(board)[0], user="alice")
    assert ok.response_type == 7


async def test_chip_buttons_one_per_suit_disabled_at_zero(discord_driver, fake_discord, tmp_path):
    """During a challenge: six chip buttons with emoji, effect and count, give up in round 1.

    A chip whose suit is on the challenge card says "+1" and is the primary style; every
    chip button says how many chips of its suit are left ("×4").
    """
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    while not any(":chip:" in cid for cid in board_ids(board)):
        game = await _game(bot, fake_discord)
        action = game.engine.computer_action(game.state, 0)
        if action == "give_up":  # asked first (C4): play on instead
            action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")
        board = (await discord_driver.click(board, button(board, action), user="alice")).message
    game = await _game(bot, fake_discord)
    assert game.engine.view(game.state)["round"] == 1
    buttons = [c for row in board["components"] for c in row["components"]]
    chips = [b for b in buttons if ":chip:" in b["custom_id"]]
    assert [b["emoji"]["name"] for b in chips] == ["🌙", "☀️", "🌊", "🍃", "🐉", "🪢"]
    view = game.engine.view(game.state)
    counts, counting = view["chips"], set(view["challenge"]["suits"])
    for b, suit in zip(chips, ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"), strict=True):
        effect = "+1 " if suit in counting else ""
        assert b["label"] == f"{effect}×{counts[suit]}"
        assert b["style"] == (1 if suit in counting and counts[suit] else 2)
        assert bool(b.get("disabled")) == (counts[suit] == 0)
    assert any(b["custom_id"].endswith(":ask.give_up") for b in buttons)  # alone: asked (C4)
    needed = view["target"] - view["sum"]
    assert f"{view['sum']} of {view['target']}**, {needed} to go" in (
        board["embeds"][0]["description"])


async def test_rules_and_repost_and_abandon(discord_driver, fake_discord, tmp_path):
    """/tinker rules is private; /tinker board reposts; /tinker abandon ends the game."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    rules = await discord_driver.slash("tinker", "rules", user="bob")
    assert rules.ephemeral
    assert len([f for e in await every_page(discord_driver, rules, "bob")
                for f in e["fields"]]) >= 4
    missing = await discord_driver.slash("tinker", "board", user="bob")
    assert missing.ephemeral and "/tinker start" in missing.content
    first = (await discord_driver.slash("tinker", "start", user="alice")).message
    again = await discord_driver.slash("tinker", "board", user="bob")
    assert board_ids(again.message) and again.message["id"] != first["id"]
    ended = await abandon(discord_driver, "tinker", "alice")
    assert "abandoned" in ended.followups[0]["content"]
    board = fake_discord.get_message(again.message["id"])
    assert board_ids(board) == [] and "abandoned" in board["embeds"][0]["footer"]["text"]


def test_board_fits_discord_limits_at_every_step_of_many_games():
    """Every board of 150 complete games (embed and buttons) stays within Discord's limits."""
    from bot.games.tinker.engine import ENGINE
    from cogs.tinker import TinkerCog
    from tests.support import longest_board_within_limits

    states = [ENGINE.new(seed) for seed in range(150)]
    assert 0 < longest_board_within_limits(TinkerCog(None), ENGINE, states) <= 6000


async def test_daily_deal_is_marked_and_once_per_day(discord_driver, fake_discord, tmp_path):
    """/tinker daily: the board says it is the daily deal; a channel gets one per day."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "daily", user="alice")).message
    assert "daily deal" in board["embeds"][0]["footer"]["text"]
    await abandon(discord_driver, "tinker", "alice")
    again = await discord_driver.slash("tinker", "daily", user="bob")
    assert again.ephemeral and "already played today's daily" in again.content
    game = (await bot.store.get_game(1))
    assert game.daily is not None


def test_chip_button_of_an_empty_suit_is_disabled():
    """A suit with no chips left keeps its button, disabled, labelled "(0 left)"."""
    from bot.games.tinker.engine import ENGINE
    from cogs.tinker import TinkerCog
    from tests.support import loaded

    cog = TinkerCog(None)
    checked = 0
    for seed in range(40):
        state = ENGINE.new(seed)
        while not ENGINE.is_over(state):
            view = ENGINE.view(state)
            empty = [s for s, n in view["chips"].items() if n == 0]
            if view["challenge"] and not view["offer"] and empty:
                buttons = {b.custom_id.rsplit(":", 1)[1]: b
                           for b in cog.items(loaded(ENGINE, state))}
                for suit, count in view["chips"].items():
                    chip = buttons[suit]
                    assert chip.disabled == (count == 0)
                    assert chip.label.endswith(f"×{count}")
                    assert len(chip.label) <= 6
                checked += 1
            state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    assert checked > 0


async def test_repost_racing_a_click_shows_the_move(discord_driver, fake_discord, tmp_path):
    """/tinker board arriving together with a click posts a board that shows the move."""
    import asyncio

    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    click = fake_discord.component_payload(board, board_ids(board)[0], user="alice")
    repost = fake_discord.slash_payload("tinker", path=["board"], options=[], user="bob")
    before = asyncio.all_tasks()
    bot._connection.parse_interaction_create(click)
    bot._connection.parse_interaction_create(repost)
    await discord_driver.settle(before)
    game = await _game(bot, fake_discord)
    current = fake_discord.get_message(game.row.board_message_id)
    assert game.row.version == 1
    assert all(":1:" in cid for cid in board_ids(current))


def _losing_a_chip():
    """A harsh-defeat game given up until it asks for the chip to lose (T7)."""
    from bot.games.tinker.engine import ENGINE
    from tests.support import loaded

    state = ENGINE.new(5, 1, {"harsh_defeat": True})
    while ENGINE.view(state)["phase"] != "lose_chip":
        ids = [a.id for a in ENGINE.legal_actions(state, 0)]
        state = ENGINE.apply(state, 0, "give_up" if "give_up" in ids else ids[0]).state
    return state, loaded(ENGINE, state)


def test_harsh_defeat_asks_for_the_chip_to_lose():
    """After giving up with harsh defeat, the board asks for the chip; its buttons are red."""
    from bot.games.tinker.engine import ENGINE
    from cogs.tinker import TinkerCog

    cog = TinkerCog(None)
    state, game = _losing_a_chip()
    assert "choose the chip you lose" in cog.embed(game).description
    buttons = cog.items(game)
    assert len(buttons) == 6
    chips = ENGINE.view(state)["chips"]
    assert [b.label for b in buttons] == [f"×{chips[s]}" for s in
                                          ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")]
    assert all(b.style is discord.ButtonStyle.danger for b in buttons)


def test_the_legend_describes_the_chip_buttons_as_they_read():
    """The icons' legend explains the chip buttons in their own words: "+1 ×n" and "×n"."""
    import re

    from bot.games.tinker.engine import ENGINE
    from cogs.tinker import LEGEND, TinkerCog
    from tests.support import loaded

    state = ENGINE.new(2)
    while not ENGINE.view(state)["challenge"]:
        state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    labels = [b.label or "" for b in TinkerCog(None).items(loaded(ENGINE, state))
              if "chip:" in b.custom_id]
    assert labels and all(re.fullmatch(r"(\+1 )?×\d", label) for label in labels), labels
    assert "**+1 ×n**" in LEGEND and "**×n**" in LEGEND
    assert "draws**" not in LEGEND and "left)" not in LEGEND


def test_t7_the_harsh_defeat_option_says_what_the_rules_say():
    """The start command's help for harsh defeat names every lost fight (a round 1 fight
    lost for want of cards too, T8), as the engine's own option text does."""
    from bot.games.tinker.engine import ENGINE
    from cogs.tinker import TinkerCog

    start = TinkerCog.tinker.get_command("start")
    help_text = next(p.description for p in start.parameters if p.name == "harsh_defeat")
    spec = next(o for o in ENGINE.options if o.name == "harsh_defeat")
    assert help_text == spec.description
    assert "give up" not in help_text


def test_t2_the_classic_journey_lists_the_origin_first_and_the_end_last():
    """Classic journey: the details list the locations ahead with the Origin first (while
    it is ahead) and the End last, and say that only the rest is hidden."""
    from bot.games.tinker.engine import ENGINE
    from cogs.tinker import TinkerCog
    from tests.support import loaded

    state = ENGINE.new(4, 1, {"classic_journey": True})
    section = TinkerCog(None).card_sections(loaded(ENGINE, state))[0]
    name, value = next((n, v) for n, v in section.fields if n.startswith("Locations ahead"))
    names = value.split(", ")
    assert names[0] == "Origin" and names[-1] == "End"
    assert names[1:-1] == sorted(names[1:-1])
    assert name.endswith("(Origin first, End last, the rest hidden)")
    plain = TinkerCog(None).card_sections(loaded(ENGINE, ENGINE.new(4)))[0]
    assert any(n.endswith("(order hidden)") for n, _ in plain.fields)


async def test_c4_giving_up_in_a_fast_game_asks_first(discord_driver, fake_discord, tmp_path):
    """In a fast game a click moves at once, so giving up a challenge (a move that needs
    confirming) asks privately first and changes nothing until confirmed (T7's cost
    named); confirming gives it up."""
    fake_discord.add_user("bob")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", {"players": "fast"},
                                        user="alice")).message
    asks: list[str] = []
    for _ in range(8):
        asks = [c for c in board_ids(board) if c.endswith(":ask.give_up")]
        if asks:
            break
        live = [c["custom_id"] for row in board["components"] for c in row["components"]
                if "custom_id" in c and not c.get("disabled") and ":table." not in c["custom_id"]]
        board = (await discord_driver.click(board, live[0], user="alice")).message
    assert asks and not [c for c in board_ids(board) if c.endswith(":give_up")
                         and ":ask." not in c]
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    asked = await discord_driver.click(board, asks[0], user="bob")
    assert asked.ephemeral and asked.content.startswith("Give up the ")
    assert "spent chips stay spent" in asked.content
    assert (await bot.tables.load(game.id)).row.version == game.row.version
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="bob")
    assert done.response_type == 7
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version + 1
    assert any("Give up" in event for event in after.row.events[-3:]), after.row.events


def test_t7_legend_says_red_chip_buttons_lose_a_chip() -> None:
    """T7: after a lost challenge with harsh defeat, the red "×n" buttons lose a chip of
    their suit and draw nothing; the legend says so."""
    from cogs.tinker import TinkerCog

    cog = TinkerCog(None)
    _state, game = _losing_a_chip()
    assert all((b.label or "").startswith("×") for b in cog.items(game))
    lines = cog.legend(game).split("\n")
    red = next(line for line in lines if line.startswith("Red **×n**"))
    assert "lose one chip of that suit" in red and "nothing is drawn" in red


def test_t7_giving_up_asks_saying_a_harsh_defeat_costs_a_chip():
    """T7 with the harsh defeat option: the question before giving up says a chip of the
    player's choice is lost too; without the option it does not."""
    from bot.games.tinker.engine import ENGINE as TINKER
    from cogs.tinker import TinkerCog
    from tests.support import loaded

    for harsh in (True, False):
        state = TINKER.new(3, 1, {"harsh_defeat": harsh})
        while "give_up" not in [a.id for a in TINKER.legal_actions(state, 0)]:
            state = TINKER.apply(state, 0, TINKER.computer_action(state, 0)).state
        asked = TinkerCog(None).confirm_question(loaded(TINKER, state), "give_up")
        assert asked.startswith("Give up the ")
        assert ("you lose one chip of your choice" in asked) is harsh


async def test_a_daily_beside_the_days_daily_still_going_points_to_it(
        discord_driver, fake_discord, tmp_path, backend):
    """Alice's daily is going here; Bob's /tinker daily is told the game is going and he
    can play along on its board (on both backends), not that the channel played today's
    deal and a normal game can start (it cannot: the channel has a game)."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "daily", user="alice")
    again = await discord_driver.slash("tinker", "daily", user="bob")
    assert again.ephemeral and again.content.startswith(
        "This channel already has a game of Tinker, Sailor, Soldier, Spy going")
    assert "anyone here can play along" in again.content


async def test_the_next_daily_deal_is_said_in_each_players_own_time(
        discord_driver, fake_discord, tmp_path):
    """Today's deal was played here; /tinker daily again says when the next one comes as
    a Discord timestamp, which each player's app shows in their own time zone (midnight
    UTC is 09:00 in Tokyo, 16:00 in Los Angeles)."""
    clock = Clock(datetime(2027, 1, 14, 20, 0, tzinfo=UTC).timestamp())
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.daily == "2027-01-14"
    await abandon(discord_driver, "tinker", "alice")
    refused = await discord_driver.slash("tinker", "daily", user="alice")
    comes = int(day_end("2027-01-14"))
    assert refused.ephemeral and "already played today's daily" in refused.content
    assert f"The next one comes <t:{comes}:R> (<t:{comes}:t> your time)" in refused.content


async def test_a_played_daily_beside_another_kinds_game_says_the_deal_was_played(
        discord_driver, fake_discord, tmp_path, backend):
    """Today's Tinker deal was played here, and Alice's Tin Realm game is open: her
    /tinker daily is told the deal was played (finishing the Tin Realm game would not let
    her play it), on both backends, whichever index the database names."""
    await discord_driver.login(make_bot(tmp_path, cogs=(*COGS, "cogs.tinrealm")))
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice")
    await abandon(discord_driver, "tinker", "alice")
    await discord_driver.slash("tinrealm", "start", {"players": "only me"}, user="alice")
    refused = await discord_driver.slash("tinker", "daily", user="alice")
    assert refused.ephemeral and "already played today's daily" in refused.content
