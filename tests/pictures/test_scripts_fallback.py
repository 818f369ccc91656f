"""A glyph FreeType cannot raster never breaks a picture (U+FDFD, ﷽, in bold Arabic)."""

from __future__ import annotations

import logging

import pytest

from bot.pictures import draw_picture, plain
from bot.pictures.endings import ending
from bot.pictures.fonts import chain_font, face_for, rasters
from bot.pictures.replay import draw_frames
from bot.pictures.script import REPLACEMENT, text_mask, width
from tests.pictures.conftest import image
from tests.pictures.widest import steam_view

BASMALA = "\ufdfd"
"""Noto Sans Arabic draws it, but not at weight 700: "raster overflow" at every size."""


def _over_view() -> dict:
    view = steam_view(3, ("Ann", BASMALA, "Bo"))
    return dict(view, over=True, turn=None, pending=None, result={"summary": "", "outcomes": [
        {"seat": 1, "outcome": "win", "score": 30}, {"seat": 0, "outcome": "loss", "score": 2},
        {"seat": 2, "outcome": "loss", "score": 1}]})


def test_the_bold_arabic_face_cannot_raster_the_basmala() -> None:
    """The fault the drawing works around (if FreeType learns to, this test says so)."""
    family = face_for(BASMALA)
    with pytest.raises(OSError):
        chain_font(family, 30, True).getmask(BASMALA)
    assert not rasters(family, 30, True, BASMALA)
    assert rasters(family, 30, False, BASMALA)


@pytest.mark.parametrize("size", [30, 36])
@pytest.mark.parametrize("words", [BASMALA, f"{BASMALA} wins with 30", f"محمد {BASMALA} علي"])
def test_words_with_a_glyph_that_cannot_raster_still_draw(words: str, size: int) -> None:
    drawn = text_mask(words, size, True, "mm")
    assert drawn.mask.getbbox() is not None
    # the stand-in (the regular weight) is drawn in the room the text measures
    assert drawn.mask.width <= width(words, size, True) + 2 * max(2, size // 6)
    regular = text_mask(words, size, False, "mm").mask
    assert drawn.mask.width >= regular.width * 0.8


def test_a_player_with_the_basmala_gets_the_whole_board(caplog) -> None:
    view = steam_view(3, ("Ann", BASMALA, "Bo"))  # the basmala's seat is placing: bold status
    with caplog.at_level(logging.ERROR):
        active = image(draw_picture("steam", view, "active"))
        over = image(draw_picture("steam", _over_view(), "over"))  # bold winner's banner
    assert caplog.records == []  # no board fell back to the plain picture
    assert active.height > 400 and over.height > 400


def test_a_replay_with_the_basmala_winning_can_be_drawn() -> None:
    view = steam_view(3, ("Ann", BASMALA, "Bo"))
    frames = draw_frames("steam", [(view, "active"), (_over_view(), "over")])
    assert [image(png).height > 400 for png in frames] == [True, True]


@pytest.mark.error_logs_expected
def test_the_plain_picture_never_fails_for_the_banner_that_broke_the_board(monkeypatch) -> None:
    """When a board's banner raises, the plain picture drew the same banner and raised
    again: now it shows the title alone."""
    from bot.pictures.canvas import Canvas

    def broken(*args: object, **kwargs: object) -> int:
        raise OSError("raster overflow")

    look = ending("steam", _over_view(), "over")
    assert look.headline
    monkeypatch.setattr(Canvas, "banner", broken)
    picture = image(plain("steam", look))
    assert picture.height < 120  # the title's line
    monkeypatch.setattr("bot.pictures.steam.draw", lambda view, look: broken())
    assert image(draw_picture("steam", _over_view(), "over")).height < 120


def test_a_character_no_face_can_raster_is_replaced_or_left_out(monkeypatch) -> None:
    """The stand-ins in order: the regular weight, a later family with the character,
    U+FFFD; with none, the character is left out and the words around it still draw."""
    from bot.pictures import script

    script.forget_words()
    monkeypatch.setattr(script, "rasters",
                        lambda family, size, bold, text: text == REPLACEMENT)
    replaced = script.text_mask(f"{BASMALA} Ann", 30, True, "la")
    monkeypatch.setattr(script, "rasters", lambda family, size, bold, text: False)
    script.forget_words()
    left_out = script.text_mask(f"{BASMALA} Ann", 30, True, "la")
    script.forget_words()
    ann = script.text_mask("Ann", 30, True, "la").mask
    assert replaced.mask.getbbox() is not None and left_out.mask.getbbox() is not None
    assert left_out.mask.width == ann.width  # only "Ann" is inked
    assert replaced.mask.width > ann.width + 15  # "Ann" and U+FFFD
    script.forget_words()


def test_a_name_wider_than_its_room_shows_an_ellipsis_not_nothing() -> None:
    """The basmala alone is some 330 px wide in bold: in a player's row it is cut to "…",
    so the row still shows that a name is there."""
    from bot.pictures.canvas import fit

    assert width(BASMALA, 30, True) > 300
    assert fit(BASMALA, 30, 180, True) == "…"
    assert fit("Bartholomew", 30, 60, True).endswith("…")
    assert fit(BASMALA, 30, 5, True) == ""  # not even the ellipsis fits
