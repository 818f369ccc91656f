"""A table where a computer plays is lost by its people when they end it unfinished
(abandoning it, or leaving it idle): a person alone against computers cannot take a game
they are losing off their record, as resigning (S10) would have put it there."""

from __future__ import annotations

from bot.table.lobby import LOBBY_COMPUTER, LOBBY_JOIN, LOBBY_START
from tests.support import ALICE, BOB, Actor, Clock, open_tables

CHANNEL = 5


async def _against_a_computer(tables, *, people=(), move: bool = True):
    """Alice (and ``people``) against one computer, Alice first; with ``move`` she has
    made her first move. Return the game."""
    game = await tables.open_lobby("steam", guild_id=1, channel_id=CHANNEL, host=ALICE,
                                   options={"start_seat": 0})
    version = game.row.version
    for person in people:
        version = (await tables.act(game.id, version, person, LOBBY_JOIN)).game.row.version
    version = (await tables.act(game.id, version, ALICE, LOBBY_COMPUTER)).game.row.version
    game = (await tables.act(game.id, version, ALICE, LOBBY_START)).game
    if move:
        action = game.engine.computer_action(game.state, 0)
        game = (await tables.act(game.id, game.row.version, ALICE, action)).game
    return game


async def _left_idle(tables, clock, game_id: int) -> str:
    """Let the idle sweep end the table ``game_id`` (ten seconds on); return its last
    line."""
    clock.advance(10)

    async def shown(_game) -> None:
        return None

    assert await tables.expire_idle({"solo": 0.0, "lobby": 0.0, "multi": clock.now},
                                    shown) == 1
    return (await tables.load(game_id)).row.events[-1]


async def _rated(tables) -> list[tuple[int, int]]:
    return [tuple(r) for r in await tables.store.query(
        "SELECT user_id, games FROM ratings ORDER BY user_id")]


async def test_abandoning_a_game_against_a_computer_is_a_rated_loss(tmp_path):
    """Alice, alone with a computer, has moved; abandoning ends it as her loss scoring 0,
    rated below the computer."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _against_a_computer(tables)
        assert tables.abandon_forfeits(game, ALICE)
        ended = await tables.abandon(CHANNEL, ALICE)
        assert ended.row.status == "abandoned"
        (result,) = await tables.store.results(ALICE.user_id)
        assert (result["outcome"], result["score"], result["detail"]) == (
            "loss", 0, {"left": True})
        assert await _rated(tables) == [(ALICE.user_id, 1)]


async def test_no_move_made_or_a_moderator_abandoning_gives_no_result(tmp_path):
    """Before any person moved, abandoning gives no result; nor does a moderator's
    abandon (the players did not leave it)."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _against_a_computer(tables, move=False)
        assert not tables.abandon_forfeits(game, ALICE)
        await tables.abandon(CHANNEL, ALICE)
        game = await _against_a_computer(tables)
        moderator = Actor(900, "Mod", can_manage=True)
        assert not tables.abandon_forfeits(game, moderator)
        await tables.abandon(CHANNEL, moderator)
        assert await tables.store.results(ALICE.user_id) == []
        assert await _rated(tables) == []


async def test_a_moderator_seated_at_the_table_loses_it_as_a_player_would(tmp_path):
    """Alice moderates the server and plays alone against a computer: her abandon ends
    the table at once, and as her loss (she is one of its players, not cleaning up
    others' game). At Alice, Bob and Carol's table with a computer, Bob asked to abandon
    and Alice, who moderates, ends it: Alice and Bob lose it; Carol, who did not ask,
    has no result."""
    moderator = Actor(ALICE.user_id, ALICE.name, can_manage=True)
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _against_a_computer(tables)
        assert tables.abandon_forfeits(game, moderator)
        assert (await tables.abandon(CHANNEL, moderator)).row.status == "abandoned"
        (result,) = await tables.store.results(ALICE.user_id)
        assert (result["outcome"], result["detail"]) == ("loss", {"left": True})
        carol = Actor(103, "Carol")
        await _against_a_computer(tables, people=(BOB, carol))
        assert (await tables.abandon(CHANNEL, BOB)).row.is_open  # an ask
        assert (await tables.abandon(CHANNEL, moderator)).row.status == "abandoned"
        assert len(await tables.store.results(ALICE.user_id)) == 2
        (bobs,) = await tables.store.results(BOB.user_id)
        assert bobs["detail"] == {"left": True}
        assert await tables.store.results(carol.user_id) == []


async def test_people_who_abandon_together_all_lose_to_the_computer(tmp_path):
    """Alice and Bob with a computer: Bob asks, Alice's ask makes the majority; both
    lose, rated."""
    async with open_tables(tmp_path / "t.db") as tables:
        await _against_a_computer(tables, people=(BOB,))
        asked = await tables.abandon(CHANNEL, BOB)
        assert asked.row.is_open
        await tables.abandon(CHANNEL, ALICE)
        for person in (ALICE, BOB):
            (result,) = await tables.store.results(person.user_id)
            assert result["outcome"] == "loss" and result["detail"] == {"left": True}
        assert await _rated(tables) == sorted([(ALICE.user_id, 1), (BOB.user_id, 1)])


async def test_an_ask_made_when_abandoning_gave_no_result_keeps_those_terms(tmp_path):
    """Bob asks to abandon before anyone moved (he is told nobody gets a result); play
    goes on, and Alice's ask after her move makes the majority: she loses, as she was
    told, and Bob gets no result, as he was told."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _against_a_computer(tables, people=(BOB,), move=False)
        assert not tables.abandon_forfeits(game, BOB)
        asked = await tables.abandon(CHANNEL, BOB)
        assert asked.row.is_open and asked.data.abandon_free == [BOB.user_id]
        game = await tables.load(game.id)
        action = game.engine.computer_action(game.state, 0)
        game = (await tables.act(game.id, game.row.version, ALICE, action)).game
        assert tables.abandon_forfeits(game, ALICE)
        await tables.abandon(CHANNEL, ALICE)
        (result,) = await tables.store.results(ALICE.user_id)
        assert result["outcome"] == "loss"
        assert await tables.store.results(BOB.user_id) == []
        assert await _rated(tables) == [(ALICE.user_id, 1)]


async def test_a_confirmation_that_said_no_result_is_refused_once_it_would_lose(tmp_path):
    """Bob is asked before anyone moved (no result); Alice moves; his "Yes" then would
    count as a loss, so it is refused, nothing recorded; asked again, he agrees to it."""
    from bot.table.abandoning import TERMS_CHANGED
    from bot.table.errors import Refusal
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _against_a_computer(tables, people=(BOB,), move=False)
        assert not tables.abandon_forfeits(game, BOB)
        action = game.engine.computer_action(game.state, 0)
        game = (await tables.act(game.id, game.row.version, ALICE, action)).game
        try:
            await tables.abandon(CHANNEL, BOB, game_id=game.id, as_a_loss=False)
        except Refusal as refusal:
            assert str(refusal) == TERMS_CHANGED.format(kind="steam")
        else:
            raise AssertionError("the confirmation was taken on terms it no longer had")
        assert (await tables.load(game.id)).data.abandon_votes == []
        asked = await tables.abandon(CHANNEL, BOB, game_id=game.id, as_a_loss=True)
        assert asked.data.abandon_votes == [BOB.user_id] and asked.data.abandon_free == []


async def test_an_ask_dropped_with_its_seat_does_not_keep_its_terms(tmp_path, away_at_once):
    """Bob asks before anyone moved (no result); Alice moves; Bob's seat goes to a
    computer, which drops his ask. Back, he asks again, told it counts as a loss, and
    his ask with Carol's ends the table: both lose, Bob's old terms gone with his ask."""
    from tests.support import CAROL
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _against_a_computer(tables, people=(BOB, CAROL), move=False)
        await tables.abandon(CHANNEL, BOB)
        game = await tables.load(game.id)
        assert game.data.abandon_free == [BOB.user_id]
        action = game.engine.computer_action(game.state, 0)
        game = (await tables.act(game.id, game.row.version, ALICE, action)).game
        await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        await tables.hand_to_computer(CHANNEL, CAROL, BOB.user_id)
        assert (await tables.load(game.id)).seats[1].away
        await tables.abandon(CHANNEL, CAROL)
        await tables.come_back(game.id, BOB)
        game = await tables.load(game.id)
        assert not game.seats[1].away and tables.abandon_forfeits(game, BOB)
        ended = await tables.abandon(CHANNEL, BOB)
        assert ended.row.status == "abandoned"
        for person in (BOB, CAROL):
            (result,) = await tables.store.results(person.user_id)
            assert result["outcome"] == "loss", person
        assert await tables.store.results(ALICE.user_id) == []


async def test_an_idle_table_says_who_loses_when_it_waited_for_someone_who_never_came(
        tmp_path):
    """Play again seats Bob for Alice; he never comes. Alice plays her turn and resigns,
    and the table is left idle on Bob's turn: Bob gets no result, Alice (who resigned)
    her loss, and the last line says so rather than that it counts for nobody."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=CHANNEL, host=ALICE,
                                       options={"start_seat": 0},
                                       people=[(BOB.user_id, "Bob")])
        version = (await tables.act(game.id, game.row.version, ALICE,
                                    LOBBY_COMPUTER)).game.row.version
        game = (await tables.act(game.id, version, ALICE, LOBBY_START)).game
        while game.to_act() == 0:
            action = game.engine.computer_action(game.state, 0)
            game = (await tables.act(game.id, game.row.version, ALICE, action)).game
        game = (await tables.act(game.id, game.row.version, ALICE, "resign")).game
        assert game.row.is_open and game.person_to_act() == BOB.user_id
        said = await _left_idle(tables, clock, game.id)
        assert said == ("The game was idle too long and ended: it waited for Bob, who never "
                        "came to this table; it counts only as a loss for Alice, who left it "
                        "(a computer plays here)."), said
        (result,) = await tables.store.results(ALICE.user_id)
        assert result["outcome"] == "loss"
        assert await tables.store.results(BOB.user_id) == []


async def test_an_idle_line_names_no_one_else_who_never_came(tmp_path):
    """Play again seats Bob, Carol and Dave for Alice; Bob and Carol never come. Bob's
    seat goes to a computer, and the table is left idle on Carol's turn: nobody who
    never came (Bob, away, or Carol) is named as losing, nor gets a result."""
    from tests.support import CAROL
    dave = Actor(104, "Dave")
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=CHANNEL, host=ALICE,
                                       options={"start_seat": 0},
                                       people=[(BOB.user_id, "Bob"), (CAROL.user_id, "Carol"),
                                               (dave.user_id, "Dave")])
        game = (await tables.act(game.id, game.row.version, ALICE, LOBBY_START)).game
        while game.to_act() == 0:
            action = game.engine.computer_action(game.state, 0)
            game = (await tables.act(game.id, game.row.version, ALICE, action)).game
        clock.advance(120)
        await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        await tables.hand_to_computer(CHANNEL, dave, BOB.user_id)
        while (await tables.computer_move(game.id)) is not None:
            pass
        game = await tables.load(game.id)
        assert game.seats[1].away and game.person_to_act() == CAROL.user_id
        said = await _left_idle(tables, clock, game.id)
        assert said.endswith("it waited for Carol, who never came to this table, so it "
                             "counts for nobody."), said
        for person in (ALICE, BOB, CAROL, dave):
            assert await tables.store.results(person.user_id) == [], person


async def test_a_table_against_a_computer_left_idle_is_lost(tmp_path):
    """Walking away until the sweep ends the table is a loss too."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await _against_a_computer(tables)
        clock.advance(10)

        async def shown(_game) -> None:
            return None

        assert await tables.expire_idle(
            {"solo": 0.0, "lobby": 0.0, "multi": clock.now}, shown) == 1
        assert (await tables.load(game.id)).row.status == "expired"
        (result,) = await tables.store.results(ALICE.user_id)
        assert result["outcome"] == "loss"


async def test_s10_a_resigned_person_stays_resigned_in_a_forfeit(tmp_path):
    """S10: Bob resigned, then Alice, the one person still playing, abandons: both lose;
    Bob's result still says he resigned, so he ranks last."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _against_a_computer(tables, people=(BOB,))
        game = (await tables.act(game.id, game.row.version, BOB, "resign")).game
        assert game.row.is_open
        await tables.abandon(CHANNEL, ALICE)
        (bob,) = await tables.store.results(BOB.user_id)
        assert bob["detail"] == {"left": True, "resigned": True}
        (alice,) = await tables.store.results(ALICE.user_id)
        assert alice["detail"] == {"left": True}


async def test_an_idle_table_is_lost_by_the_person_it_waited_for_only(tmp_path):
    """Alice played her turn; the table then waited for Bob until the sweep ended it:
    Bob loses it (the board's last line says so), Alice gets no result."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await _against_a_computer(tables, people=(BOB,))
        while game.to_act() == 0:  # the rest of Alice's turn; then it is Bob's
            action = game.engine.computer_action(game.state, 0)
            game = (await tables.act(game.id, game.row.version, ALICE, action)).game
        assert game.to_act() == 1
        clock.advance(10)

        async def shown(_game) -> None:
            return None

        assert await tables.expire_idle(
            {"solo": 0.0, "lobby": 0.0, "multi": clock.now}, shown) == 1
        assert await tables.store.results(ALICE.user_id) == []
        (bob,) = await tables.store.results(BOB.user_id)
        assert bob["outcome"] == "loss"
        ended = await tables.load(game.id)
        assert ended.row.events[-1] == ("The game was idle too long and ended: Bob's turn "
                                        "waited, so it counts as their loss (a computer "
                                        "plays here).")
