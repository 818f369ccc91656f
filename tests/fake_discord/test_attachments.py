"""The fake Discord's files: multipart bodies from real discord.py, attachments kept or
replaced on edits, Discord's refusals (unknown ``attachment://``, 11 files, too big)."""

from __future__ import annotations

import io
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import Driver, FakeDiscord
from tests.fake_discord.attachments import image_size, png

BOARD = png(40, 30)
BIGGER_BOARD = png(64, 48)


def board_file(data: bytes = BOARD, name: str = "board.png") -> discord.File:
    """A discord.File over PNG bytes."""
    return discord.File(io.BytesIO(data), filename=name)


def board_embed(text: str, image: str = "board.png") -> discord.Embed:
    """An embed whose image is an attached file."""
    return discord.Embed(title="Board", description=text).set_image(url=f"attachment://{image}")


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"f:(?P<mode>\w+)"):
    """A button whose custom_id says how to edit the board: keep, replace, or add a file."""

    def __init__(self, mode: str) -> None:
        super().__init__(discord.ui.Button(label=mode, custom_id=f"f:{mode}"))
        self.mode = mode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardButton:
        return cls(match["mode"])

    async def callback(self, interaction: discord.Interaction) -> None:
        view = board_view()
        if self.mode == "keep":
            await interaction.response.edit_message(embed=board_embed("kept"), view=view)
        elif self.mode == "replace":
            await interaction.response.edit_message(
                embed=board_embed("replaced"), attachments=[board_file(BIGGER_BOARD)], view=view
            )
        else:
            message = interaction.message
            assert message is not None
            extra = discord.File(io.BytesIO(b"notes"), filename="notes.txt")
            await interaction.response.edit_message(
                attachments=[*message.attachments, extra], view=view
            )


def board_view() -> discord.ui.View:
    """The board's buttons."""
    view = discord.ui.View(timeout=None)
    for mode in ("keep", "replace", "add"):
        view.add_item(BoardButton(mode))
    return view


class FileBot(commands.Bot):
    """A bot whose commands answer with files, the way boards with pictures will."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.errors: list[discord.HTTPException] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(BoardButton)
        for command in (board, later, ghost, crowd, wordy):
            self.tree.add_command(command)


@app_commands.command(description="Post the board with its picture.")
async def board(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        embed=board_embed("fresh"), file=board_file(), view=board_view()
    )


@app_commands.command(description="Defer, then post the board as a follow-up and edit it.")
async def later(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    await interaction.followup.send(embed=board_embed("late"), file=board_file())
    await interaction.edit_original_response(
        embed=board_embed("edited", "small.png"),
        attachments=[board_file(png(8, 8), "small.png")],
    )


@app_commands.command(description="Answer with an embed naming a file that was not sent.")
async def ghost(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, FileBot)
    try:
        await interaction.response.send_message(
            embed=board_embed("ghost", "missing.png"), file=board_file()
        )
    except discord.HTTPException as error:
        bot.errors.append(error)


@app_commands.command(description="Answer with eleven files.")
async def crowd(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, FileBot)
    files = [board_file(name=f"f{i}.png") for i in range(11)]
    try:
        await interaction.response.send_message("many", files=files)
    except discord.HTTPException as error:
        bot.errors.append(error)


@app_commands.command(description="Answer with a picture whose alt text is too long.")
async def wordy(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, FileBot)
    picture = discord.File(io.BytesIO(BOARD), filename="board.png", description="x" * 1025)
    try:
        await interaction.response.send_message("described", file=picture)
    except discord.HTTPException as error:
        bot.errors.append(error)


@pytest.fixture
async def bot(fake_discord: FakeDiscord, discord_driver: Driver) -> FileBot:
    """The file bot, logged in to the fake."""
    client = FileBot()
    await discord_driver.login(client)
    return client


def channel(bot: FileBot, fake: FakeDiscord) -> discord.PartialMessageable:
    """#games as the bot sees it."""
    return bot.get_partial_messageable(fake.channel_id, guild_id=fake.guild_id)


# ---------------------------------------------------------------------------- interactions


async def test_interaction_response_with_file_stores_an_attachment_object(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """CHANNEL_MESSAGE_WITH_SOURCE in multipart: the PNG becomes a full attachment object."""
    result = await discord_driver.slash("board")
    assert result.response_type == 4
    [request] = [r for r in result.requests if "/callback" in r.path]
    assert request.files == ["board.png"]
    assert request.json["data"]["attachments"] == [{"id": 0, "filename": "board.png"}]
    assert result.message is not None
    [attachment] = fake_discord.message_attachments(result.message)
    assert attachment["filename"] == "board.png"
    assert attachment["size"] == len(BOARD)
    assert attachment["content_type"] == "image/png"
    assert (attachment["width"], attachment["height"]) == (40, 30)
    assert attachment["url"].startswith(
        f"https://cdn.discordapp.com/attachments/{fake_discord.channel_id}/{attachment['id']}/"
        "board.png?"
    )
    assert attachment["proxy_url"].startswith("https://media.discordapp.net/attachments/")
    assert fake_discord.attachment_bytes(result.message["id"], "board.png") == BOARD
    image = result.embeds[0]["image"]
    assert image["url"] == attachment["url"]
    assert (image["width"], image["height"]) == (40, 30)
    assert fake_discord.embed_attachment(result.message) == attachment


async def test_update_message_without_attachments_keeps_the_picture(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """edit_message(embed=, view=) sends JSON with no attachments key: Discord keeps them."""
    posted = (await discord_driver.slash("board")).message
    assert posted is not None
    before = fake_discord.message_attachments(posted)
    result = await discord_driver.click(posted, "f:keep")
    assert result.response_type == 7
    [request] = result.requests
    assert request.files == []
    assert "attachments" not in request.json["data"]
    assert request.json["data"]["embeds"][0]["image"]["url"] == "attachment://board.png"
    assert fake_discord.message_attachments(posted) == before
    assert result.embeds[0]["description"] == "kept"
    assert fake_discord.embed_attachment(posted) == before[0]


async def test_update_message_with_attachments_replaces_the_picture(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """edit_message(attachments=[file]) lists only the new file: the old one is gone."""
    posted = (await discord_driver.slash("board")).message
    assert posted is not None
    [old] = fake_discord.message_attachments(posted)
    result = await discord_driver.click(posted, "f:replace")
    [request] = result.requests
    assert request.files == ["board.png"]
    assert request.json["data"]["attachments"] == [{"id": 0, "filename": "board.png"}]
    [new] = fake_discord.message_attachments(posted)
    assert new["id"] != old["id"]
    assert (new["width"], new["height"]) == (64, 48)
    assert fake_discord.attachment_bytes(posted, "board.png") == BIGGER_BOARD
    assert int(old["id"]) not in fake_discord.files


async def test_edit_keeps_listed_attachments_by_id_and_adds_new_ones(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """attachments=[*message.attachments, file]: the kept one by id, the new one by index."""
    posted = (await discord_driver.slash("board")).message
    assert posted is not None
    [old] = fake_discord.message_attachments(posted)
    result = await discord_driver.click(posted, "f:add")
    [request] = result.requests
    entries = request.json["data"]["attachments"]
    assert [str(e["id"]) for e in entries] == [old["id"], "0"]
    kept, notes = fake_discord.message_attachments(posted)
    assert kept == old
    assert notes["filename"] == "notes.txt"
    assert notes["content_type"] == "text/plain; charset=utf-8"
    assert "width" not in notes
    assert fake_discord.attachment_bytes(posted, "notes.txt") == b"notes"


async def test_followup_and_original_edit_carry_files(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """A follow-up after a defer and an @original edit both go through the webhook as
    multipart; the edit with attachments replaces the picture the embed names."""
    result = await discord_driver.slash("later")
    assert result.response_type == 5
    webhook = [r for r in result.requests if r.path.startswith("/webhooks/")]
    assert [(r.method, r.files) for r in webhook] == [
        ("POST", ["board.png"]),
        ("PATCH", ["small.png"]),
    ]
    assert result.message is not None
    [attachment] = fake_discord.message_attachments(result.message)
    assert attachment["filename"] == "small.png"
    assert (attachment["width"], attachment["height"]) == (8, 8)
    assert fake_discord.embed_attachment(result.message) == attachment


@pytest.mark.limits_expected
async def test_unknown_attachment_reference_is_refused(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """An embed naming attachment://missing.png with only board.png sent: 400/50035."""
    result = await discord_driver.slash("ghost")
    [error] = bot.errors
    assert (error.status, error.code) == (400, 50035)
    assert "data.embeds.0.image.url" in str(error)
    assert result.response_type is None
    [violation] = fake_discord.limit_violations
    assert [p.dotted for p in violation.problems] == ["data.embeds.0.image.url"]
    assert fake_discord.files == {}


@pytest.mark.limits_expected
async def test_eleven_files_are_refused(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """discord.py sends 11 files without complaint; Discord refuses more than 10."""
    result = await discord_driver.slash("crowd")
    [error] = bot.errors
    assert (error.status, error.code) == (400, 50035)
    assert result.response_type is None
    [violation] = fake_discord.limit_violations
    assert [p.dotted for p in violation.problems] == ["data.attachments"]


@pytest.mark.limits_expected
async def test_alt_text_over_1024_characters_is_refused(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """A picture's alt text (the attachment's description) is at most 1024 characters."""
    await discord_driver.slash("wordy")
    [error] = bot.errors
    assert (error.status, error.code) == (400, 50035)
    [violation] = fake_discord.limit_violations
    assert [p.dotted for p in violation.problems] == ["data.attachments.0.description"]


# ---------------------------------------------------------------------------- channel messages


async def test_channel_message_with_file_then_edits(
    bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """POST with a file, PATCH without attachments (kept), add_files (kept + new), and
    attachments=[] (all removed); discord.py's Message sees what the fake stored."""
    sent = await channel(bot, fake_discord).send(embed=board_embed("posted"), file=board_file())
    [attachment] = sent.attachments
    assert (attachment.filename, attachment.size, attachment.width) == ("board.png", len(BOARD), 40)
    assert attachment.content_type == "image/png"
    assert sent.embeds[0].image.url == attachment.url

    kept = await sent.edit(embed=board_embed("edited"))
    assert [a.id for a in kept.attachments] == [attachment.id]
    assert "attachments" not in fake_discord.requests[-1].json

    grown = await kept.add_files(discord.File(io.BytesIO(b"x" * 5), filename="log.txt"))
    assert [a.filename for a in grown.attachments] == ["board.png", "log.txt"]
    assert fake_discord.attachment_bytes(sent.id, "log.txt") == b"xxxxx"

    bare = await grown.edit(attachments=[], embed=None)
    assert bare.attachments == []
    assert fake_discord.message_attachments(sent.id) == []
    assert fake_discord.files == {}


async def test_edit_may_reference_a_kept_attachment(
    bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """An edit with a new embed naming attachment://board.png and no files resolves
    against the attachment the message keeps."""
    sent = await channel(bot, fake_discord).send(file=board_file())
    edited = await sent.edit(embed=board_embed("now with an embed"))
    assert edited.embeds[0].image.url == sent.attachments[0].url
    assert edited.embeds[0].image.width == 40


@pytest.mark.limits_expected
async def test_channel_edit_naming_a_removed_attachment_is_refused(
    bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """attachments=[] together with an embed still naming board.png: 400/50035."""
    sent = await channel(bot, fake_discord).send(file=board_file())
    with pytest.raises(discord.HTTPException) as raised:
        await sent.edit(attachments=[], embed=board_embed("gone"))
    assert (raised.value.status, raised.value.code) == (400, 50035)
    assert "embeds.0.image.url" in str(raised.value)
    assert len(fake_discord.message_attachments(sent.id)) == 1


@pytest.mark.limits_expected
async def test_file_over_the_default_upload_limit_is_refused(
    bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """A file of 10 MiB + 1 byte: 413 / 40005, nothing stored."""
    big = png(2, 2, padding=10 * 1024 * 1024)
    assert len(big) > 10 * 1024 * 1024
    with pytest.raises(discord.HTTPException) as raised:
        await channel(bot, fake_discord).send(file=board_file(big))
    assert (raised.value.status, raised.value.code) == (413, 40005)
    [violation] = fake_discord.limit_violations
    assert [p.dotted for p in violation.problems] == ["files.0"]
    assert fake_discord.channel_messages() == []


@pytest.mark.limits_expected
@pytest.mark.error_logs_expected
async def test_upload_limit_follows_the_interaction_payload(
    discord_driver: Driver, bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """A lower ``upload_limit`` is what interactions report and what the fake enforces."""
    fake_discord.upload_limit = 20
    assert len(BOARD) > 20
    payload = fake_discord.slash_payload("board")
    assert payload["attachment_size_limit"] == 20
    result = await discord_driver.feed(payload)
    assert result.response_type is None
    assert [r.status for r in result.requests] == [413]
    [violation] = fake_discord.limit_violations
    assert violation.problems[0].code == "FILE_TOO_LARGE"


def test_png_header_gives_the_size() -> None:
    """The PNG builder writes a header the reader understands; other bytes have no size."""
    assert image_size(png(3, 7)) == (3, 7)
    assert image_size(b"GIF89a\x05\x00\x06\x00") == (5, 6)
    assert image_size(b"plain text") is None


# ---------------------------------------------------------------------------- deleting


async def test_deleting_a_channel_message_and_then_again(
    bot: FileBot, fake_discord: FakeDiscord
) -> None:
    """DELETE removes the message and its files; a second DELETE answers 10008."""
    sent = await channel(bot, fake_discord).send("turn notice", file=board_file())
    await sent.delete()
    assert fake_discord.get_message(sent.id) is None
    assert fake_discord.files == {}
    with pytest.raises(discord.NotFound) as raised:
        await sent.delete()
    assert raised.value.code == 10008
    assert [r.status for r in fake_discord.requests if r.method == "DELETE"] == [204, 404]
