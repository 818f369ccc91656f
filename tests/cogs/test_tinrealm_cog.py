"""Tin Realm in Discord, through the offline fake: a whole journey, restarts, limits."""

import re

import discord

from bot.boards.layout import BoardButton
from bot.games.tinrealm.engine import ENGINE
from cogs.tinrealm import RULING, TinRealmCog
from tests.support import (
    abandon,
    board_ids,
    button,
    every_page,
    longest_board_within_limits,
    make_bot,
    press,
)

COGS = ("cogs.tinrealm",)


async def _play(driver, fake, bot, board, *, restart_at=None, tmp_path=None):
    clicks = 0
    game_id = int(board_ids(board)[0].split(":")[1])
    while True:
        game = await bot.tables.load(game_id)
        if not game.row.is_open:
            return bot, board, clicks
        action = game.engine.computer_action(game.state, 0)
        result = await press(driver, board, action, "bob")
        assert result.response_type == 7, result.content
        assert len(result.requests) == 1
        board = result.message
        clicks += 1
        if restart_at is not None and clicks == restart_at:
            bot = await driver.restart(make_bot(tmp_path, cogs=COGS))
            await driver.settle()  # the start shows the game's board again (one edit)
        assert clicks < 1000


async def test_whole_journey_by_clicks(discord_driver, fake_discord, tmp_path):
    """A whole game from /tinrealm start to its end by clicks, shared by its players (C5);
    a deal the computer's choices carry well past the first days (a random one may end
    within ten clicks)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    bot.tables.core.seeds = lambda: 11
    board = (await discord_driver.slash("tinrealm", "start", user="alice")).message
    embed = board["embeds"][0]
    assert embed["title"] == "Tin Realm · day 1/7 · location 1/6"
    assert "race" in embed["description"]
    races = board["components"][0]["components"][0]
    assert races["type"] == 3 and len(races["options"]) == 3
    assert all(option["description"] for option in races["options"])
    bot, board, clicks = await _play(discord_driver, fake_discord, bot, board)
    assert clicks > 10
    final = board["embeds"][0]["description"]
    assert "Score" in final and "rank" in final
    assert board_ids(board) == []
    results = await bot.store.results()
    assert sorted((r["user_id"], r["kind"]) for r in results) == sorted([
        (fake_discord.user("alice").id, "tinrealm"), (fake_discord.user("bob").id, "tinrealm")
    ])
    assert results[0]["detail"]["rank"]


async def test_journey_goes_on_after_restart(discord_driver, fake_discord, tmp_path):
    """The board keeps working across a restart in the middle of the journey (on a deal
    that lasts past the restart's eighth click; a random one may end before it)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    bot.tables.core.seeds = lambda: 11
    board = (await discord_driver.slash("tinrealm", "start", {"map": "hard"},
                                        user="alice")).message
    bot, board, clicks = await _play(discord_driver, fake_discord, bot, board, restart_at=8,
                                     tmp_path=tmp_path)
    assert clicks > 8 and board_ids(board) == []


async def test_only_me_rules_daily(discord_driver, fake_discord, tmp_path):
    """Only-me refuses others; /tinrealm rules is private; the daily deal is marked."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinrealm", "start", {"players": "only me"},
                                        user="alice")).message
    races = board["components"][0]["components"][0]
    refused = await discord_driver.select(board, races["custom_id"],
                                          [races["options"][0]["value"]], user="bob")
    assert refused.ephemeral and "only me" in refused.content
    rules = await discord_driver.slash("tinrealm", "rules", user="bob")
    assert rules.ephemeral
    pages = await every_page(discord_driver, rules, "bob")
    assert len({f["name"].removesuffix(" (continued)") for e in pages for f in e["fields"]}) == 7
    await abandon(discord_driver, "tinrealm", "alice")
    daily = (await discord_driver.slash("tinrealm", "daily", user="bob")).message
    details = await discord_driver.click(daily, button(daily, "table.rules"), user="bob")
    assert "daily deal" in str(await every_page(discord_driver, details, "bob"))


def test_board_fits_discord_limits_at_every_step():
    """Every board of 60 journeys on both maps (embed and buttons) fits Discord's limits."""
    states = [ENGINE.new(seed, 1, {"preset": "hard" if seed % 2 else "easy"})
              for seed in range(60)]
    assert 0 < longest_board_within_limits(TinRealmCog(None), ENGINE, states) <= 6000


async def test_content_setting_reaches_the_game(discord_driver, fake_discord, tmp_path):
    """TINREALM_CONTENT: games started in Discord play with that content file."""
    import json

    from bot.games.tinrealm.content import DEFAULT_PATH

    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    data["races"][0]["name"] = "Tinfolk"
    custom = tmp_path / "my-content.json"
    custom.write_text(json.dumps(data), encoding="utf-8")
    await discord_driver.login(make_bot(tmp_path, cogs=COGS, TINREALM_CONTENT=custom))
    board = (await discord_driver.slash("tinrealm", "start", user="alice")).message
    labels = [o["label"] for row in board["components"] for c in row["components"]
              for o in c.get("options", [])]
    assert any(label.startswith("Tinfolk") for label in labels)


async def test_the_rules_page_quotes_the_content_files_numbers(discord_driver, fake_discord,
                                                              tmp_path):
    """TINREALM_CONTENT with another foraging race and a better helm: the rules page says
    their numbers ("the Reedling: 3-6", "minus 2 with a helm"), not the shipped cards'
    (the Marshkin, 1)."""
    import json

    from bot.games.tinrealm.content import DEFAULT_PATH
    from cogs.tinrealm import RULES

    shipped = dict(RULES)
    assert "(the Marshkin: 4-6)" in shipped["Camps, water and food"]
    assert "minus 1 with a helm" in shipped["Combat"]
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    marshkin = next(r for r in data["races"] if r["name"] == "Marshkin")
    marshkin["name"], marshkin["ability"]["amount"] = "Reedling", 3
    helm = next(x for x in data["loot"] if x["id"] == "dented-helm")
    helm["effect"]["amount"] = 2
    custom = tmp_path / "my-content.json"
    custom.write_text(json.dumps(data), encoding="utf-8")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, TINREALM_CONTENT=custom))
    rules = dict(bot.get_cog("TinRealmCog").rules_text)
    assert "(the Reedling: 3-6)" in rules["Camps, water and food"]
    assert "Marshkin" not in rules["Camps, water and food"]
    assert "minus 2 with a helm" in rules["Combat"]


async def test_a_journey_on_an_earlier_content_file_reads_it_before_serving(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A journey started with a content file that TINREALM_CONTENT no longer names: after
    a restart its file is read before the bot serves, off the event loop, so its next
    move reads no file; a content file unreadable or gone since then is logged and its
    journey shows as damaged, and the bot starts all the same."""
    import json

    from bot.games.tinrealm import engine as engines
    from bot.games.tinrealm.content import DEFAULT_PATH
    from bot.games.tinrealm.engine import ENGINE as TINREALM
    from tests.support import press

    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    data["races"][0]["name"] = "Tinfolk"
    custom = tmp_path / "earlier-content.json"
    custom.write_text(json.dumps(data), encoding="utf-8")
    await discord_driver.login(make_bot(tmp_path, cogs=COGS, TINREALM_CONTENT=custom))
    await discord_driver.slash("tinrealm", "start", {"players": "only me"}, user="alice")
    monkeypatch.setattr(TINREALM, "_loaded", {})  # a new process: nothing read yet
    read: list[object] = []
    real = engines.load_content
    monkeypatch.setattr(engines, "load_content",
                        lambda path=None: read.append(path) or real(path))
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    assert read == [str(custom)] and str(custom) in TINREALM._loaded
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    board = fake_discord.get_message(game.row.board_message_id)
    first = TINREALM.legal_actions(game.state, 0)[0].id
    moved = await press(discord_driver, board, first, "alice")
    assert moved.response_type == 7 and read == [str(custom)]

    for damage in ("utf-16", "gone"):
        if damage == "gone":
            custom.unlink()
        else:
            custom.write_bytes(b"\xff\xfe{\x00}\x00")  # saved again as UTF-16
        monkeypatch.setattr(TINREALM, "_loaded", {})
        read.clear()
        bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))  # starts anyway
        for _ in range(2):  # the unusable file was read once, before serving
            damaged = await bot.tables.load(game.id)
            assert damaged.broken and "content file" in damaged.broken
        assert read == [str(custom)]


async def test_an_ended_journey_on_an_earlier_content_file_is_read_before_serving(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A journey played to its end, or abandoned, on a content file TINREALM_CONTENT no
    longer names: its file too is read before the bot serves, so a look at its board
    (Rules & details, Replay) reads no file on the event loop."""
    import threading

    from bot.games.tinrealm import engine as engines
    from bot.games.tinrealm.content import DEFAULT_PATH
    from bot.games.tinrealm.engine import ENGINE as TINREALM
    from tests.support import abandon, button

    custom = tmp_path / "earlier-content.json"
    custom.write_text(DEFAULT_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    await discord_driver.login(make_bot(tmp_path, cogs=COGS, TINREALM_CONTENT=custom))
    await discord_driver.slash("tinrealm", "start", {"players": "only me"}, user="alice")
    await abandon(discord_driver, "tinrealm", "alice")
    monkeypatch.setattr(TINREALM, "_loaded", {})  # a new process: nothing read yet
    on_loop: list[object] = []
    real = engines.load_content

    def spy(path: object = None) -> object:
        if threading.current_thread() is threading.main_thread():
            on_loop.append(path)
        return real(path)

    monkeypatch.setattr(engines, "load_content", spy)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    rows = await bot.store.query("SELECT board_message_id FROM games WHERE kind = 'tinrealm'")
    board = fake_discord.get_message(rows[0][0])
    answer = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    assert answer.response_type == 4 and "Tin Realm" in str(answer.callback)
    assert on_loop == [] and str(custom) in TINREALM._loaded


def _ends(count: int = 200) -> dict[str, object]:
    """Return one ended journey of each kind (won, dead, time) among ``count`` seeds."""
    found: dict[str, object] = {}
    for seed in range(count):
        state = ENGINE.new(seed, 1, {"preset": "easy"})
        while not ENGINE.is_over(state):
            state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[
                seed % len(ENGINE.legal_actions(state, 0))].id).state
        found.setdefault(ENGINE.view(state)["end"], state)
        if len(found) == 3:
            break
    return found


def test_endings_look_different_and_give_the_score_in_words():
    """Won, died and out of time: each its headline; won is green, the others dark red."""
    from tests.support import loaded

    cog = TinRealmCog(None)
    ends = _ends()
    assert "dead" in ends
    heads = {"won": "🏆 Victory · Tin Realm", "dead": "💀 Defeat · Tin Realm",
             "time": "⌛ Defeat · Tin Realm"}  # one phone line; the first words say how
    for end, state in ends.items():
        embed = cog.embed(loaded(ENGINE, state, status="over"))
        view = ENGINE.view(state)
        assert embed.title == heads[end]
        assert embed.colour.value == (0x2ECC71 if end == "won" else 0x992D22)
        assert view["end_text"] in embed.description
        assert view["score_words"] in embed.description
        assert f"Score **{view['score']}**, rank **{view['rank']}**" in embed.description


def test_buttons_fit_a_phone_the_decision_is_primary_selects_explain():
    """Button labels are at most 14 characters; the decision is primary (or only the
    engine's primary choice is); select options carry the actions' descriptions, without
    the rules' ids."""
    from tests.support import loaded

    cog = TinRealmCog(None)
    checked = {"primary": 0, "described": 0, "strike": 0}
    for seed in range(30):
        state = ENGINE.new(seed, 1, {"preset": "hard" if seed % 2 else "easy"})
        while not ENGINE.is_over(state):
            actions = {a.id: a for a in ENGINE.legal_actions(state, 0)}
            marked = any(a.primary for a in actions.values())
            for item in cog.items(loaded(ENGINE, state)):
                if isinstance(item, BoardButton):
                    action = actions[item.custom_id.split(":", 3)[-1]]
                    assert len(item.label) <= 14, item.label
                    primary = action.primary if marked else action.group not in ("eat", "item")
                    assert (item.style is discord.ButtonStyle.primary) == primary
                    checked["primary"] += primary
                    checked["strike"] += item.label.startswith("⚡")
                else:
                    for option in item.options:
                        text = RULING.sub("", actions[option.value].description)
                        assert option.description == (text if len(text) <= 100
                                                      else text[:99] + "…")
                        assert not re.search(r"\bR\d", option.description)
                        checked["described"] += bool(option.description)
            state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    assert checked["primary"] and checked["strike"]


def test_a_placement_that_matches_nothing_says_no_match():
    """The engine's "Left: no match" (two real edges that differ) reads "no match" on its
    button; "no path" names a blank edge in the legend, not this."""
    from cogs.tinrealm import _place_label

    assert _place_label("Left: no match") == "⬅️ no match"
    assert _place_label("Right: skull meets skull!") == "➡️ 💀 ½❤️ −3"
    assert _place_label("Left: water match, advance").endswith("+1")


def test_an_offer_says_what_is_offered():
    """An encounter's offer (the Altar, the Peddler) says its terms on the board, in the
    card's words, with pictures on or off: the buttons only say Accept or Walk on."""
    from tests.support import loaded

    seen = 0
    for seed in range(30):
        state = ENGINE.new(seed, 1, {})
        for _ in range(300):
            if ENGINE.is_over(state):
                break
            actions = {a.id: a for a in ENGINE.legal_actions(state, 0)}
            if "offer:no" in actions:
                game = loaded(ENGINE, state)
                for pictured in (True, False):
                    game.pictured = pictured
                    text = TinRealmCog(None).embed(game).description or ""
                    assert "Something is offered" not in text
                    if "offer:yes" in actions:
                        assert actions["offer:yes"].description in text
                seen += 1
            state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    assert seen > 3


def test_the_rules_page_names_a_forager_that_needs_more_than_the_usual_roll(tmp_path):
    """A content file's foraging race may need a 6, or never find food at water (the
    loader takes 1 to 9): the rules page says so rather than leaving it out."""
    import json

    from bot.games.tinrealm.content import DEFAULT_PATH, load_content
    from cogs.tinrealm import rules_of

    for amount, said in ((6, "(the Marshkin: 6)"), (8, "(the Marshkin: none)"),
                         (3, "(the Marshkin: 3-6)")):
        data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
        next(r for r in data["races"] if r["name"] == "Marshkin")["ability"]["amount"] = amount
        path = tmp_path / f"content-{amount}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        water = dict(rules_of(load_content(path)))["Camps, water and food"]
        assert f"Water: roll one die; 5-6 finds 1 food {said}." in water, water


async def test_a_journey_that_cannot_go_on_shows_as_damaged(discord_driver, fake_discord,
                                                             tmp_path):
    """A stored journey whose fields each read well but whose task queue disagrees with
    its cards (an automatic task first) is damaged: a click is told so privately, with
    how to end it, not "something went wrong"; its board says it cannot be shown; and
    /tinrealm abandon ends it."""
    import json

    from bot.games.tinrealm.engine import ENGINE as TINREALM
    from tests.support import abandon, press

    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinrealm", "start", {"players": "only me"},
                                        user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    data = TINREALM.dump(game.state)
    data["queue"] = ["discard", *data["queue"][1:]]
    await bot.store.connection.execute(
        "UPDATE games SET state = ?, updated_at = updated_at + 1 WHERE id = ?",
        (json.dumps(data), game.id))
    bot.store.kept.drop()
    first = TINREALM.legal_actions(game.state, 0)[0].id
    clicked = await press(discord_driver, board, first, "alice")
    assert clicked.ephemeral and "/tinrealm abandon" in clicked.content, clicked.content
    shown = await discord_driver.slash("tinrealm", "board", user="alice")
    await discord_driver.settle()
    assert "cannot be shown" in json.dumps(shown.message), shown.content
    await abandon(discord_driver, "tinrealm", "alice")
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
