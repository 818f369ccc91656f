"""Names as players see them: markdown and times escaped in /stats and the invite note,
blank-looking names replaced by the account name, emoji joined by a joiner and Persian
spelling kept whole, a right-to-left name isolated from the line around it, and a cut
name never splitting a flag or an emoji from its skin tone."""

from __future__ import annotations

import unicodedata
from typing import Any

from bot.boards.threads import thread_name
from bot.text.names import plain, safe_name, short_name
from bot.text.widths import clip_name, clip_words, shown_width
from tests.db.test_records_queries import add_results, tinker
from tests.support import button, host_panel, make_bot

#: Names Discord would read as markup in a message: a heading, a quote, italics, a
#: spoiler, a time.
MARKUP_NAMES = ("# big", "> quoted", "_under_", "||spoil||", "<t:0:R>")
#: A family of three: one emoji of three joined by U+200D.
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
#: Persian "I want", spelt with a zero-width non-joiner.
PERSIAN = "می\u200cخواهم"


def _flags(text: str) -> int:
    return sum(1 for ch in text if "\U0001F1E6" <= ch <= "\U0001F1FF")


async def test_stats_show_a_markup_name_as_written(discord_driver, fake_discord, tmp_path):
    """/stats about "# big" (or a spoiler, a quote, a time) names them as they are
    written, both in the line saying they have finished nothing and in the records'
    title: no heading, no hidden text, no clock."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.records", "cogs.tinker")))
    for raw in MARKUP_NAMES:
        who = fake_discord.add_user(raw)
        shown = raw.title()  # the fake's display name
        content = (await discord_driver.slash("stats", options={"member": who},
                                              user="alice")).content
        assert content == f"{safe_name(shown)} has not finished any game in this server yet."
        assert content.startswith("\\")
        await add_results(bot.store, [{**tinker(who.id, 13, 36),
                                       "guild_id": fake_discord.guild_id}])
        embed = (await discord_driver.slash("stats", options={"member": who},
                                            user="alice")).embeds[0]
        assert embed["title"] == f"📊 Records of {safe_name(shown)}"
        assert plain(safe_name(shown)) == shown


async def test_the_invite_note_shows_a_markup_name_as_written(discord_driver, fake_discord,
                                                            tmp_path):
    """The host invites "<t:0:R>": the controls say "Invited <t:0:R>." as written, not a
    time."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"),
                                        user="bob")).message
    fake_discord.add_user("<t:0:r>")
    panel = await host_panel(discord_driver, board)
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    invited = await discord_driver.pick_member(panel.message, select, "<t:0:r>", user="alice")
    assert invited.content.startswith("Invited \\<T:0:R>.")


def _texts(board: dict[str, Any]) -> list[str]:
    embed = board["embeds"][0]
    return [embed.get("title", ""), embed.get("description", ""), embed["footer"]["text"],
            *(f"{f['name']}\n{f['value']}" for f in embed.get("fields", []))]


async def _lobby_with(discord_driver, fake_discord, tmp_path, name: str) -> list[str]:
    """Seat ``name`` at a new Steam table; return the board's texts."""
    fake_discord.add_user(name)
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"),
                                        user=name)).message
    return _texts(board)


async def test_a_blank_looking_name_shows_as_a_name(discord_driver, fake_discord, tmp_path):
    """Someone named only Hangul fillers (which look like nothing) joins: the board
    names them by their account name, or "a player", never by a blank."""
    name = "\u3164\u3164"
    texts = await _lobby_with(discord_driver, fake_discord, tmp_path, name)
    assert not any(name in text for text in texts), texts
    assert any("a player joined." in text for text in texts), texts


def test_blank_looking_names_give_way_to_the_account_name():
    """A name of only blank-looking letters, spaces, marks or format characters is
    replaced by the account name, in boards and in a thread's name; one with a visible
    letter is kept."""
    for blank in ("\u3164", "\u115f\u1160", "\uffa0 \u2800", "\u200d\u200c", "\u0301",
                  "\u3000\u2800\u3164", "\ufe0f"):
        assert safe_name(blank, "ghost") == "ghost", repr(blank)
        assert safe_name(blank) == "a player"
        assert thread_name("Tinker", blank, 1_796_169_600.0, "ghost") == "Tinker · ghost · 2 Dec"
    assert safe_name("\u3164Bob", "ghost") == "\u3164Bob"


async def test_an_emoji_family_stays_one_emoji(discord_driver, fake_discord, tmp_path):
    """A player named "👨‍👩‍👧 dad" is shown as one family, not three people."""
    name = f"{FAMILY} dad"
    texts = await _lobby_with(discord_driver, fake_discord, tmp_path, name)
    assert any(name.title() in text for text in texts), texts


def test_joiners_and_selectors_stay_and_controls_go():
    """Joiners (emoji, Persian and Indic spelling) and variation selectors stay in a
    name; bidi controls, line breaks and other control characters go."""
    assert safe_name(FAMILY) == FAMILY
    assert safe_name(PERSIAN) == f"\u2068{PERSIAN}\u2069"  # isolated: right to left
    assert safe_name("क्\u200dष") == "क्\u200dष"
    assert safe_name("\u2764\ufe0f") == "\u2764\ufe0f"
    assert safe_name("a\u202eb\u2066c\u2069\nd\x00e\u200bf") == "abc def"
    assert thread_name("Tinker", FAMILY, 1_796_169_600.0) == f"Tinker · {FAMILY} · 2 Dec"


def test_an_emoji_family_takes_one_emoji_of_room():
    """A family of three joined emoji, a flag and a thumbs-up with a skin tone each take
    the room of one emoji on a phone line."""
    assert shown_width(FAMILY) == shown_width("😀") == shown_width("🇫🇷")
    assert shown_width("👍🏽") == shown_width("😀")


def test_a_cut_name_never_splits_a_flag_or_a_skin_tone():
    """A long name cut to fit keeps whole flags, skin tones, accents and joined emoji."""
    from cogs.steam_words import LINE_ROOM
    cut = short_name(safe_name("🇫🇷" * 16), LINE_ROOM - shown_width(" 5"))
    assert _flags(cut) % 2 == 0, cut
    for room in range(2, 12):
        for name in ("🇫🇷" * 16, "a" + "🇫🇷" * 16, "👍🏽" * 16, "e\u0301" * 40, FAMILY * 16):
            for clipped in (clip_name(name, room), clip_words(name, room)):
                kept = clipped.removesuffix("…")
                assert name.startswith(kept) and _flags(kept) % 2 == 0, (name, room, clipped)
                assert not kept.endswith(("\u200d", "\U0001F3FB")) and (
                    kept == "" or not "\U0001F3FB" <= name[len(kept)] <= "\U0001F3FF"), clipped
                assert len(kept) == len(name) or name[len(kept)] not in "\u0301\u200d"
                assert shown_width(clipped) <= room
    long = safe_name("🇫🇷" * 40)
    assert len(long) <= 64 and _flags(long) % 2 == 0
    assert not safe_name("a" * 63 + "_b").endswith("\\")


#: An Arabic name, and the same name as a line shows it: isolated (FSI ... PDI).
ARABIC = "أحمد"
ISOLATED = f"\u2068{ARABIC}\u2069"


def test_a_right_to_left_name_is_isolated_and_a_left_to_right_one_is_not():
    """A name with Arabic or Hebrew letters is put between a first-strong isolate and its
    end, so "أحمد chose: Strike" does not turn its line right to left and "أحمد 5. 4"
    keeps its numbers out of the name's run; Latin, CJK and emoji names are unchanged.
    Isolates a player typed are taken out first, so a name never holds two."""
    assert safe_name(ARABIC) == ISOLATED
    assert safe_name("שרה") == "\u2068שרה\u2069"
    assert safe_name(f"Bob {ARABIC}") == f"\u2068Bob {ARABIC}\u2069"
    for name in ("Alice", "山田太郎", FAMILY, "Zoë"):
        assert safe_name(name) == name
    assert safe_name(f"\u2068{ARABIC}\u2069\u2069") == ISOLATED
    assert plain(safe_name(f"{ARABIC}_x")) == f"\u2068{ARABIC}_x\u2069"


def test_an_isolated_name_keeps_to_the_name_limit():
    """The isolate's two marks count in the 64 characters a name keeps, and a cut long
    name still ends its isolate."""
    from bot.text.names import NAME_LIMIT
    name = safe_name(ARABIC * 40)
    assert len(name) == NAME_LIMIT
    assert name.startswith("\u2068") and name.endswith("\u2069")


def test_a_cut_right_to_left_name_ends_its_isolate_before_what_follows():
    """Cut to fit a line, an isolated name is closed after its "…" (shown where the name
    was cut: at its left end, in a right-to-left name) and before the rest of the line,
    which would otherwise be read inside the name's right-to-left run."""
    long = safe_name(ARABIC * 12)
    cut = short_name(long, 10)
    assert cut.endswith("…\u2069") and cut.count("\u2068") == cut.count("\u2069") == 1
    assert clip_name(long, 8).endswith("…\u2069")
    line = clip_words(f"{long} chose: Strike with 3 energy", 20)
    assert line.count("\u2068") == line.count("\u2069") == 1, line
    assert shown_width(ISOLATED) == shown_width(ARABIC)


async def test_a_right_to_left_name_reads_isolated_on_the_board(discord_driver, fake_discord,
                                                                tmp_path):
    """"أحمد" joins a Steam table: the board's line "أحمد joined." holds the name
    isolated, so a phone shows it left to right with the name as one word."""
    texts = await _lobby_with(discord_driver, fake_discord, tmp_path, ARABIC)
    assert any(f"{ISOLATED} joined." in text for text in texts), texts
    assert not any(f"{ARABIC} joined" in text for text in texts), texts


#: Emoji of Unicode 15 (pink heart, goose, shaking face): newer than the Unicode tables
#: of Python 3.11, which takes them for unassigned characters.
NEW_EMOJI = ("\U0001FA77", "\U0001FABF", "\U0001FAE8")


def test_a_name_keeps_emoji_newer_than_python():
    """"Mia 🩷" stays "Mia 🩷" on boards and in a thread's name, a name of new emoji
    alone is not taken for a blank one, and a picture draws them (the emoji font has
    them); noncharacters still go."""
    from bot.pictures.script import fold
    for emoji in NEW_EMOJI:
        assert safe_name(f"Mia {emoji}") == f"Mia {emoji}"
        assert safe_name(emoji * 3, "mia_account") == emoji * 3
        assert thread_name("Tinker", f"Mia {emoji}", 1_796_169_600.0) == (
            f"Tinker · Mia {emoji} · 2 Dec")
        assert fold(f"Mia {emoji}") == f"Mia {emoji}"
    assert safe_name("a\ufffeb\ufdd0c\U0001FFFF") == "abc"
    assert safe_name("\ue000x") == "x"  # private use: drawn as nothing anywhere


async def test_a_new_emoji_shows_on_the_board(discord_driver, fake_discord, tmp_path):
    """A player named "Mia 🩷" joins a Steam table as "Mia 🩷"."""
    name = f"Mia {NEW_EMOJI[0]}"
    texts = await _lobby_with(discord_driver, fake_discord, tmp_path, name)
    assert any(f"{name} joined." in text for text in texts), texts


def test_a_thread_name_isolates_a_right_to_left_starter():
    """A thread started by "أحمد" is "Tinker · ⁨أحمد⁩ · 2 Dec": the name isolated, so
    the day does not join its right-to-left run; a long one is cut within the 100
    characters with its isolate closed."""
    assert thread_name("Tinker", ARABIC, 1_796_169_600.0) == f"Tinker · {ISOLATED} · 2 Dec"
    long = thread_name("Tinker", ARABIC * 40, 1_796_169_600.0)
    assert len(long) <= 100 and long.endswith("…\u2069 · 2 Dec")
    assert long.count("\u2068") == long.count("\u2069") == 1


#: Names whose syllables a cut must keep whole: Hindi (a virama joins two consonants),
#: Thai (a vowel written before its consonant), Khmer (a coeng), and Tamil (spacing marks).
SYLLABLES = ("राहुल क्षत्रिय शर्मा प्रसाद", "श्रीकृष्ण द्विवेदी", "สมชาย เกียรติศักดิ์ เจริญสุข",
             "ស្រីពៅ ច័ន្ទ", "கார்த்திகேயன் சுப்பிரமணியம்")


def test_a_cut_name_keeps_its_syllables_whole():
    """A Hindi, Thai, Khmer or Tamil name cut to a line never ends on a virama, a coeng
    or a prepended vowel (but at a word's end), nor leaves a spacing vowel sign for the
    next line; a picture's cut keeps them whole too."""
    from bot.pictures.canvas import fit
    dangling = "\u094d\u17d2\u0bcd\u0e40\u0e41\u0e42\u0e43\u0e44"
    for name in SYLLABLES:
        for halves in range(4, 60):
            kept = clip_name(name, halves / 2).removesuffix("…")
            assert kept in ("", name) or kept[-1] not in dangling or name[len(kept)] == " ", kept
            if kept != name:
                assert unicodedata.category(name[len(kept)]) not in ("Mc", "Mn"), kept
        for room in range(20, 200, 7):
            cut = fit(name, 24, room).removesuffix("…")
            assert cut in ("", name) or cut[-1] not in dangling or name[len(cut)] == " ", cut
        long = safe_name(name + " " + name)
        assert not any("\u094d…" in short_name(long, h / 2) for h in range(8, 60))


def test_the_invite_note_names_the_member_as_boards_do():
    """The host's "Invited …" uses the member's server nickname, as "Bobby joined." will
    a moment later; without one the global name, then the account name."""
    from types import SimpleNamespace

    from bot.boards.hosting import invited_member

    def invited(member: dict[str, Any], user: dict[str, Any]) -> str:
        data = {"resolved": {"users": {"42": {"id": "42", **user}},
                             "members": {"42": {"roles": [], **member}}}}
        return invited_member(SimpleNamespace(data=data), 42)[0]  # type: ignore[arg-type]

    account = {"username": "rob_s", "global_name": "Robert Smith"}
    assert invited({"nick": "Bobby"}, account) == "Bobby"
    assert invited({"nick": "\u3164"}, account) == "Robert Smith"
    assert invited({}, account) == "Robert Smith"
    assert invited({}, {"username": "rob_s"}) == "rob\\_s"  # made safe for markdown


def test_a_web_address_in_a_name_is_no_link():
    """A name holding a web address ("see https://discord.gg/x") shows it as text: no
    link, no invite's preview; places that show text as it is get it back whole."""
    shown = safe_name("see https://discord.gg/x")
    assert "://" not in shown and shown.replace("\u200b", "") == "see https://discord.gg/x"
    assert plain(shown) == "see https://discord.gg/x"


def test_a_name_cut_to_a_line_stays_safe():
    """Cut to fit a line, a name keeps its mentions, markup and web addresses escaped."""
    for raw in ("@everyone " * 8, "**bold** https://x.io " * 5):
        cut = short_name(safe_name(raw), 12)
        assert cut != plain(cut) and "@everyone" not in cut and "://" not in cut, cut


def test_a_name_of_characters_drawn_as_nothing_gives_way_to_the_account_name():
    """Characters kept for ones a phone draws as nothing (unassigned yet, or tags past
    the flags' letters) make no name: the account name stands in."""
    for blank_looking in ("\u2065\ufff0", "\U000e0080\U000e0100\U000e0fff"):
        assert safe_name(blank_looking, "mia_account") == "mia\\_account"


def test_a_web_address_in_a_name_keeps_its_markdown_escaped():
    """A name holding a web address is made no link, so its ``**`` and ``__`` are escaped
    like any other's (left as they were they bolded the rest of the Steam board), and a
    place that shows names plain shows it as typed."""
    safe = safe_name("https://__x__**y")
    assert safe == "https:\u200b//\\_\\_x\\_\\_\\*\\*y"
    assert plain(safe) == "https://__x__**y"
    assert plain(safe_name("http://a\\_b")) == "http://a\\_b"


def test_names_that_look_the_same_are_told_apart() -> None:
    """Two people whose names read the same are numbered at the table ("Zoë (2)") even
    when the names differ underneath: composed otherwise (NFD), with a Cyrillic letter,
    with an unseen joiner or selector, in another case, after a letter that shows as
    nothing (a Hangul filler, a blank Braille pattern) or a space at the end. Their
    records keep the name."""
    import unicodedata

    from bot.table.lobby import distinct_name
    from bot.table.results import own_name
    from bot.table.seats import Seat

    pairs = [(unicodedata.normalize("NFC", "Zoë"), unicodedata.normalize("NFD", "Zoë")),
             ("Ana", "\u0410na"), ("Ana", "Ana\u200d"), ("Bob", "\u0412ob"),
             ("Sam", "SAM"), ("Nico", "Nico\ufe0f"), ("Ｓam", "Sam"),
             ("Alice", "Alice\u3164"), ("Alice", "Alice\u2800"), ("Alice", "\u2800Alice"),
             ("Alice", "Alice\u2002"), ("Al ice", "Al  ice"), ("Ann Lee", "Ann\u3164Lee")]
    for first, second in pairs:
        seats = [Seat(1, first)]
        name = distinct_name(second, seats)
        assert name == f"{second} (2)", (first, second, name)
        seats.append(Seat(2, name))
        assert own_name(seats, seats[1]) == second
    assert distinct_name("Anna", [Seat(1, "Ana")]) == "Anna"  # only look-alikes
    assert distinct_name("Олег", [Seat(1, "Oleg")]) == "Олег"
    # a letter that shows as nothing inside a name shows as a gap, not as nothing
    assert distinct_name("Ann\u3164Lee", [Seat(1, "AnnLee")]) == "Ann\u3164Lee"


def test_a_masked_link_in_a_name_leaves_no_markdown_between_its_brackets() -> None:
    """A name shaped like a masked link ("[a](b) **x** `y`") is no link, and the bold
    and code after its first bracket are escaped like the rest of any name (escaping
    only the first bracket left them live: bold and code on every board, flipping the
    bold of the line it stood in)."""
    name = "[a](b) **HACK** `x` ||(c)||"
    safe = safe_name(name)
    assert safe == "\\[a\\](b) \\*\\*HACK\\*\\* \\`x\\` \\|\\|(c)\\|\\|"
    assert plain(safe) == name
    assert short_name(safe_name(name * 2), 12).startswith("\\[a\\](b)")


async def test_a_masked_link_name_shows_as_written_in_the_lobby(discord_driver, fake_discord,
                                                                 tmp_path) -> None:
    """The lobby's seat list names a member called "[a](b) **HACK**" with every markdown
    character escaped."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    fake_discord.add_user("[a](b) **hack**")
    board = (await discord_driver.click(board, button(board, "lobby.join"),
                                        user="[a](b) **hack**")).message
    seated = board["embeds"][0]["fields"][0]["value"]
    assert "\\[A\\](B) \\*\\*Hack\\*\\*" in seated, seated


def test_a_numbered_list_marker_in_a_name_is_escaped() -> None:
    """A member called "1. Bob" opens lines ("1. Bob started the game…"): the dot after
    the number is escaped, so Discord shows the name, not a numbered list's item; a
    number not followed by a space, or later in the name, is left alone."""
    assert safe_name("1. Bob") == "1\\. Bob"
    assert safe_name("  12. Bob") == "12\\. Bob"  # one_line trims the spaces first
    assert plain(safe_name("1. Bob")) == "1. Bob"
    assert safe_name("2024.") == "2024\\."  # a line goes on after the name
    assert safe_name("1.5 Bob") == "1.5 Bob"
    assert safe_name("Bob 1. Al") == "Bob 1. Al"


async def test_lines_opened_by_a_numbered_name_are_no_list(discord_driver, fake_discord,
                                                          tmp_path, monkeypatch) -> None:
    """A Steam table's start and a request to abandon it, posted in the channel, open
    with the name of a member whose global name is "1. Bob": neither is sent as a
    numbered list's item."""
    from tests.fake_discord import payloads
    from tests.support import abandon, host_board
    real = payloads.user

    def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        data = real(user_id, name, bot=bot)
        if name == "bob":
            data["global_name"] = "1. Bob"
        return data

    monkeypatch.setattr(payloads, "user", user)
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="bob")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="alice")).message
    await host_board(discord_driver, board, "lobby.start", user="bob")
    await discord_driver.settle()
    await abandon(discord_driver, "steam", "bob")
    await discord_driver.settle()
    contents = [str(r.json.get("data", r.json).get("content") or "")
                for r in fake_discord.requests
                if r.method in ("POST", "PATCH") and isinstance(r.json, dict)]
    opened = [c for c in contents if "Bob" in c.split(" ", 2)[:2] or c.startswith("1")]
    assert any(c.startswith("1\\. Bob started the game") for c in opened), opened
    assert any(c.startswith("1\\. Bob asks to abandon") for c in opened), opened
    assert not any(c.startswith("1. Bob") for c in contents), opened


async def test_a_blank_nickname_gives_way_to_the_global_name(discord_driver, fake_discord,
                                                             tmp_path, monkeypatch) -> None:
    """Bob's server nickname is only U+3164 (it shows as nothing); his global name is
    "Robert Smith". The host's invite note names him so, and so does the seat he takes:
    the nickname, else the global name, else the account name, everywhere."""
    from tests.fake_discord import payloads
    real_user, real_member = payloads.user, payloads.member

    def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        data = real_user(user_id, name, bot=bot)
        if name == "bob":
            data["global_name"] = "Robert Smith"
        return data

    def member(user_data: dict[str, Any], role_ids: Any, **options: Any) -> dict[str, Any]:
        data = real_member(user_data, role_ids, **options)
        if user_data.get("username") == "bob":
            data["nick"] = "\u3164"
        return data

    monkeypatch.setattr(payloads, "user", user)
    monkeypatch.setattr(payloads, "member", member)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    panel = await host_panel(discord_driver, board)
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    invited = await discord_driver.pick_member(panel.message, select, "bob", user="alice")
    assert "Robert Smith" in invited.content, invited.content
    board = fake_discord.get_message(board["id"])
    await discord_driver.click(board, button(board, "lobby.join"), user="bob")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s.name for s in game.seats] == ["Alice", "Robert Smith"]
