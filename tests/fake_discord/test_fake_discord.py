"""The offline fake Discord, proved with a small bot that real discord.py runs."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import Driver, FakeDiscord, limits
from tests.fake_discord.process import bot_process

# ---------------------------------------------------------------------------- the test bot


def board_embed(count: int) -> discord.Embed:
    """The counter board."""
    return discord.Embed(title="Counter", description=f"count is {count}")


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"t:count:(?P<n>\d+)"):
    """A button that survives restarts: its custom_id carries the count."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"+1 ({count})", custom_id=f"t:count:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        count = self.count + 1
        await interaction.response.edit_message(embed=board_embed(count), view=board_view(count))


def board_view(count: int) -> discord.ui.View:
    """The board's buttons: the counter and a plain link."""
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(count))
    view.add_item(discord.ui.Button(label="Rules", url="https://example.com/rules"))
    return view


class PickView(discord.ui.View):
    """A short-lived view with a select (a View with a timeout, stored in the View store)."""

    @discord.ui.select(custom_id="t:pick", options=[discord.SelectOption(label=x) for x in "abc"])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(
            content=f"picked {','.join(select.values)}", view=None
        )


class CounterBot(commands.Bot):
    """A bot with a command group, a guild command, and commands that misbehave on purpose."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.errors: list[Exception] = []
        self.setup_hook_ran = False

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        self.tree.add_command(game)
        for command in (ping, big, fragile, slow, boom, pick):
            self.tree.add_command(command)
        self.tree.add_command(admin, guild=discord.Object(self.guild_id))
        self.setup_hook_ran = True

    async def followup_later(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.01)  # some work that yields
        await interaction.followup.send("done thinking")


game = app_commands.Group(name="game", description="Counter games.")


@game.command(name="start", description="Start a counter.")
async def game_start(interaction: discord.Interaction, start: int = 0) -> None:
    await interaction.response.send_message(embed=board_embed(start), view=board_view(start))


@app_commands.command(description="Answer pong, ephemerally.")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong", ephemeral=True)


@app_commands.command(description="Send an embed Discord refuses.")
async def big(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, CounterBot)
    try:
        await interaction.response.send_message(embed=discord.Embed(title="x" * 300))
    except discord.HTTPException as error:
        bot.errors.append(error)


@app_commands.command(description="Answer, catching Discord's refusals.")
async def fragile(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, CounterBot)
    try:
        await interaction.response.send_message("hello")
    except discord.HTTPException as error:
        bot.errors.append(error)


@app_commands.command(description="Think, then answer from a task of the bot's own.")
async def slow(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, CounterBot)
    await interaction.response.defer(thinking=True)
    asyncio.get_running_loop().create_task(bot.followup_later(interaction))


@app_commands.command(description="Raise.")
async def boom(interaction: discord.Interaction) -> None:
    raise RuntimeError("boom")


@app_commands.command(description="Pick a letter.")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick one", view=PickView(timeout=60))


@app_commands.command(description="A guild-only command.")
async def admin(interaction: discord.Interaction) -> None:
    perms = interaction.permissions
    await interaction.response.send_message(
        f"manage_messages={perms.manage_messages}", ephemeral=True
    )


@pytest.fixture
async def bot(fake_discord: FakeDiscord, discord_driver: Driver) -> CounterBot:
    """The test bot, logged in to the fake."""
    client = CounterBot(fake_discord.guild_id)
    await discord_driver.login(client)
    return client


# ---------------------------------------------------------------------------- tests


async def test_login_runs_setup_hook_and_sync_stores_commands(
    fake_discord: FakeDiscord, bot: CounterBot
) -> None:
    """Login runs setup_hook; syncing bulk-overwrites the global and guild command lists."""
    assert bot.setup_hook_ran
    assert bot.user is not None and bot.user.id == fake_discord.application_id
    synced = await bot.tree.sync()
    await bot.tree.sync(guild=discord.Object(fake_discord.guild_id))
    assert {c.name for c in synced} == {"game", "ping", "big", "fragile", "slow", "boom", "pick"}
    stored = {c["name"]: c for c in fake_discord.commands}
    assert stored["game"]["options"][0]["name"] == "start"
    assert stored["game"]["options"][0]["type"] == 1
    assert [c["name"] for c in fake_discord.guild_commands[fake_discord.guild_id]] == ["admin"]
    assert [r.method for r in fake_discord.requests if "/commands" in r.path] == ["PUT", "PUT"]


async def test_slash_subcommand_answers_with_embed_and_buttons(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """/game start start:3 posts the board: an embed and the counter button in #games."""
    result = await discord_driver.slash("game", sub="start", options={"start": 3})
    assert result.response_type == 4
    assert not result.ephemeral
    assert result.embeds[0]["description"] == "count is 3"
    assert result.custom_ids == ["t:count:3"]
    assert result.message is not None
    assert [m["id"] for m in fake_discord.channel_messages()] == [result.message["id"]]


async def test_dynamic_item_click_updates_the_board_with_one_request(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """A click on the DynamicItem answers with exactly one UPDATE_MESSAGE that edits the board."""
    board = (await discord_driver.slash("game", sub="start")).message
    assert board is not None
    result = await discord_driver.click(board, "t:count:0", user="bob")
    assert [r.path.split("/")[1] for r in result.requests] == ["interactions"]
    assert result.response_type == 7
    assert result.message is not None and result.message["id"] == board["id"]
    assert result.embeds[0]["description"] == "count is 1"
    assert fake_discord.get_message(board["id"])["components"][0]["components"][0]["custom_id"] == (
        "t:count:1"
    )
    again = await discord_driver.click(board, "t:count:1")
    assert again.embeds[0]["description"] == "count is 2"


async def test_concurrent_clicks_are_not_serialised(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """Two clicks on the same stale board both run: nothing in discord.py serialises them."""
    board = (await discord_driver.slash("game", sub="start")).message
    assert board is not None
    first, second = await asyncio.gather(
        discord_driver.click(board, "t:count:0", user="alice"),
        discord_driver.click(board, "t:count:0", user="bob"),
    )
    assert first.response_type == second.response_type == 7
    assert fake_discord.get_message(board["id"])["embeds"][0]["description"] == "count is 1"


async def test_select_in_a_timed_view_updates_the_message(
    discord_driver: Driver, bot: CounterBot
) -> None:
    """A select in a View with a timeout routes through the View store and edits the message."""
    message = (await discord_driver.slash("pick")).message
    assert message is not None
    result = await discord_driver.select(message, "t:pick", ["b"])
    assert result.response_type == 7
    assert result.content == "picked b"
    assert result.message is not None and result.message["components"] == []


async def test_click_after_restart_is_routed_by_the_new_client(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """A new bot instance over the same fake handles clicks on the old board."""
    board = (await discord_driver.slash("game", sub="start", options={"start": 5})).message
    await discord_driver.restart(CounterBot(fake_discord.guild_id))
    assert bot.is_closed()
    result = await discord_driver.click(board, "t:count:5")
    assert result.embeds[0]["description"] == "count is 6"


async def test_guild_command_sees_member_permissions(
    discord_driver: Driver, bot: CounterBot
) -> None:
    """A guild-scoped command is found by data.guild_id and sees the member's permissions."""
    plain = await discord_driver.slash("admin")
    moderator = await discord_driver.slash("admin", user="mod")
    assert plain.payload["data"]["guild_id"] == str(discord_driver.fake.guild_id)
    assert plain.ephemeral
    assert plain.content == "manage_messages=False"
    assert moderator.content == "manage_messages=True"


async def test_ephemeral_reply_is_recorded_per_interaction(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """An ephemeral reply is kept with its interaction, not in the channel."""
    result = await discord_driver.slash("ping")
    assert result.ephemeral
    assert [m["content"] for m in fake_discord.ephemeral[result.record.id]] == ["pong"]
    assert fake_discord.channel_messages() == []


@pytest.mark.limits_expected
async def test_over_limit_embed_is_refused_with_50035(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """A 300-character embed title gets 400/50035 and is recorded as a limit violation."""
    result = await discord_driver.slash("big")
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException)
    assert (error.status, error.code) == (400, 50035)
    assert "embeds.0.title" in str(error)
    assert result.response_type is None
    [violation] = fake_discord.limit_violations
    assert [p.dotted for p in violation.problems] == ["data.embeds.0.title"]


async def test_rate_limited_callback_is_retried(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """An injected 429 on the callback is waited out and retried by discord.py."""
    fake_discord.fail_next("POST", r"/callback$", 429, retry_after=0.05)
    result = await discord_driver.slash("fragile")
    assert [r.status for r in result.requests] == [429, 200]
    assert result.content == "hello"
    assert bot.errors == []


async def test_rate_limited_channel_message_is_retried(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """A 429 on the bot-token REST path (with bucket headers) is retried too."""
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=0.05)
    channel = await bot.fetch_channel(fake_discord.channel_id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("posted")
    assert [r.status for r in fake_discord.requests if r.method == "POST"] == [429, 200]
    assert fake_discord.get_message(message.id)["content"] == "posted"


@pytest.mark.limits_expected
async def test_a_post_with_the_nonce_of_a_recent_one_returns_it(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """discord.py enforces a nonce it sends: a second post with it returns the first
    message (no new one, no second ping), or Unknown Message once that was deleted; other
    nonces and none make new ones; a nonce over 25 characters is refused."""
    channel = bot.get_partial_messageable(fake_discord.channel_id)
    first = await channel.send("one", nonce="a" * 25)
    again = await channel.send("two", nonce="a" * 25)
    other = await channel.send("three", nonce="b")
    plain = [await channel.send("four"), await channel.send("four")]
    assert again.id == first.id and again.content == "one"
    assert len({first.id, other.id, *(m.id for m in plain)}) == 4
    assert [m["content"] for m in fake_discord.channel_messages()] == [
        "one", "three", "four", "four"]
    await other.delete()
    with pytest.raises(discord.NotFound) as gone:
        await channel.send("three again", nonce="b")
    assert gone.value.code == 10008
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("five", nonce="c" * 26)
    assert refused.value.code == 50035
    [violation] = fake_discord.limit_violations
    assert [p.dotted for p in violation.problems] == ["nonce"]


async def test_server_error_is_retried(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """An injected 500 on the callback is retried (after discord.py's 1 s back-off)."""
    fake_discord.fail_next("POST", r"/callback$", 500)
    result = await discord_driver.slash("fragile")
    assert [r.status for r in result.requests] == [500, 200]
    assert result.content == "hello"


@pytest.mark.parametrize(
    ("status", "code", "error_type"),
    [(404, 10062, discord.NotFound), (400, 40060, discord.HTTPException)],
)
async def test_refused_callback_surfaces_in_the_handler(
    discord_driver: Driver,
    bot: CounterBot,
    fake_discord: FakeDiscord,
    status: int,
    code: int,
    error_type: type[Exception],
) -> None:
    """10062 (answered too late) and 40060 (already acknowledged) reach the handler as errors."""
    fake_discord.fail_next("POST", r"/callback$", status, code=code)
    result = await discord_driver.slash("fragile")
    [error] = bot.errors
    assert type(error) is error_type
    assert isinstance(error, discord.HTTPException) and error.code == code
    assert result.response_type is None


async def test_deleted_board_answers_10008(
    discord_driver: Driver, bot: CounterBot, fake_discord: FakeDiscord
) -> None:
    """After the board is deleted, editing it through the channel raises NotFound/10008."""
    board = (await discord_driver.slash("game", sub="start")).message
    assert board is not None
    fake_discord.delete_message(fake_discord.channel_id, board["id"])
    channel = bot.get_partial_messageable(fake_discord.channel_id)
    with pytest.raises(discord.NotFound) as raised:
        await channel.get_partial_message(int(board["id"])).edit(content="gone?")
    assert raised.value.code == 10008
    with pytest.raises(LookupError):
        await discord_driver.click(board, "t:count:0")


async def test_driver_waits_for_tasks_the_bot_spawned(
    discord_driver: Driver, bot: CounterBot
) -> None:
    """A deferred command answered from a bot task: the follow-up replaces the thinking message."""
    result = await discord_driver.slash("slow")
    assert result.response_type == 5
    assert result.content == "done thinking"
    assert result.message is not None and not result.message["flags"] & 128


@pytest.mark.error_logs_expected
async def test_handler_exceptions_are_logged_as_errors(
    discord_driver: Driver, bot: CounterBot, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py logs a failing command at ERROR: what the autouse fixture turns into failures."""
    await discord_driver.slash("boom")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and errors[0].name.startswith("discord")


def test_limits_catch_component_and_command_problems() -> None:
    """Rows, buttons, custom_ids, select options and command shapes are checked."""
    button = {"type": 2, "style": 1, "label": "x", "custom_id": "a"}
    six_buttons = [{**button, "custom_id": str(i)} for i in range(6)]
    body = {
        "components": [
            {"type": 1, "components": six_buttons},
            {"type": 1, "components": [button, button]},
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": "s",
                        "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                    }
                ],
            },
        ]
        + [{"type": 1, "components": [{**button, "custom_id": f"r{i}"}]} for i in range(3)],
        "content": "y" * 2001,
    }
    paths = {p.dotted for p in limits.check_message(body)}
    assert paths == {
        "content",
        "components",
        "components.0.components",
        "components.1.components.1.custom_id",
        "components.2.components.0.options",
    }
    command = {
        "name": "Bad Name",
        "description": "",
        "options": [
            {
                "name": "n",
                "description": "d",
                "type": 3,
                "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
            }
        ],
    }
    paths = {p.dotted for p in limits.check_commands([command])}
    assert paths == {"0.name", "0.description", "0.options.0.choices"}
    assert limits.embed_size({"title": "ab", "fields": [{"name": "c", "value": "de"}]}) == 5


async def test_gateway_bot_process_answers_a_dispatched_interaction(
    fake_discord: FakeDiscord,
) -> None:
    """A bot process connects through the fake gateway and answers INTERACTION_CREATE."""
    async with bot_process(fake_discord, "-m", "tests.fake_discord.sample_bot") as proc:
        try:
            await fake_discord.gateway.wait_for_sessions(1, timeout=15)
        except TimeoutError:
            pytest.fail("the bot never identified:\n" + proc.text)
        payload = fake_discord.slash_payload("ping")
        assert await fake_discord.dispatch_interaction(payload) == 1
        await fake_discord.wait_for_request("POST", rf"/interactions/{payload['id']}/")
        record = fake_discord.interactions[int(payload["id"])]
        assert record.response_type == 4
        reply = fake_discord.get_message(record.original_message_id or 0)
        assert reply is not None and reply["content"].startswith("pong from ")

        await fake_discord.gateway.request_reconnect()
        await fake_discord.wait_until(
            lambda: any(s.resumes for s in fake_discord.gateway.connected), timeout=10
        )
        second = fake_discord.slash_payload("ping")
        assert await fake_discord.dispatch_interaction(second) == 1
        await fake_discord.wait_for_request("POST", rf"/interactions/{second['id']}/")
    assert "Traceback" not in proc.text, proc.text


async def test_a_request_the_fake_itself_fails_on_is_kept_to_fail_the_test(
        fake_discord: FakeDiscord) -> None:
    """A body one of the fake's handlers cannot take (a message's flags not a number)
    is answered 500, as a server fault, and kept, so the test that sent it fails (the
    bot takes a 500 for a passing fault, where Discord would have refused the body)."""
    import aiohttp

    url = f"{fake_discord.api_base}/channels/{fake_discord.channel_id}/messages"
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as session:
        posted = await (await session.post(url, json={"content": "hi"}, headers=headers)).json()
        patch = await session.patch(f"{url}/{posted['id']}", json={"flags": "not a number"},
                                    headers=headers)
    assert patch.status == 500
    [(record, why)] = fake_discord.crashes
    assert record.method == "PATCH" and why.startswith("ValueError")
    fake_discord.crashes.clear()  # kept: the fixture would fail this test for it
