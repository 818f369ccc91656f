"""Steam to Solar: the cards in play, the game state and the facts read off cards.

The state is plain data. Cards are ``decktet.Card`` objects; the deck, the river and the
discard pile are lists (the deck's top is its first card, river position 1 is the
river's first card). Multi-step actions live in ``pending`` so that nothing is lost
between two clicks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.games.decktet import DECK, Card, Rank, Suit, card
from bot.games.rng import SeededRandom

#: Version of the dumped state; bump it when the dump format changes. Schema 1 saves
#: (placing the taken card of a take one before rearranging) and schema 2 saves (before
#: the deck option and the computer levels: the Pawns, every seat Normal) still load.
SCHEMA_VERSION = 3

#: S1 (revised): the two decks a table may play: the 36 basic cards plus the 4 Pawns (the
#: default) or plus the 4 Courts (a table option). The Excuse is never used.
PAWNS = "pawns"
COURTS = "courts"
DECKS: tuple[str, ...] = (PAWNS, COURTS)
DEFAULT_DECK = PAWNS
#: The four three-suited cards of each deck.
THREE_SUITED: dict[str, tuple[Card, ...]] = {
    PAWNS: tuple(c for c in DECK if c.rank is Rank.PAWN),
    COURTS: tuple(c for c in DECK if c.rank is Rank.COURT),
}
#: How each deck reads on a board.
DECK_NAMES: dict[str, str] = {PAWNS: "the 4 Pawns", COURTS: "the 4 Courts"}

#: Every card either deck can hold (36 basic, 4 Pawns, 4 Courts), in the project's order.
ALL_CARDS: tuple[Card, ...] = tuple(
    c for c in DECK if c.is_basic or c.rank in (Rank.PAWN, Rank.COURT)
)
#: S1: the cards of each deck, in the project's order.
DECK_CARDS: dict[str, tuple[Card, ...]] = {
    kind: tuple(c for c in ALL_CARDS if c.is_basic or c in THREE_SUITED[kind]) for kind in DECKS
}
#: S2: the sunny cards of each deck (the Ace and Crown of Suns and the two three-suited
#: cards with a Sun), set aside for the first half.
DECK_SUNNY: dict[str, tuple[Card, ...]] = {
    PAWNS: tuple(card(n) for n in ("Ace of Suns", "Bard", "Harvest", "Light Keeper")),
    COURTS: tuple(card(n) for n in ("Ace of Suns", "Bard", "Island", "Window")),
}
#: The sunny cards of the default deck (S2).
SUNNY: tuple[Card, ...] = DECK_SUNNY[PAWNS]

#: The computer player's levels (stored per seat; people's seats keep the default).
EASY = "easy"
NORMAL = "normal"
HARD = "hard"
LEVELS: tuple[str, ...] = (EASY, NORMAL, HARD)
DEFAULT_LEVEL = NORMAL

#: S4: cost of each river position, position 1 first.
RIVER_COSTS: tuple[int, ...] = (0, 0, 1, 2)
RIVER_SIZE = len(RIVER_COSTS)
MAX_TRAIN_CARDS = 5
MAX_TRAINS = 2
#: A player's trains, each a list of cards.
Trains = list[list[Card]]
START_POINTS = 5

#: The goods suits, in the project's suit order.
GOODS: tuple[Suit, ...] = (Suit.LEAVES, Suit.WYRMS, Suit.KNOTS)

STEAM = "steam"
SOLAR = "solar"
#: The suit that gives each kind of power.
POWER_SUIT: dict[str, Suit] = {STEAM: Suit.WAVES, SOLAR: Suit.SUNS}
#: The one emoji of each kind of power, in labels, events, the view and the text board:
#: the emoji of the suit that gives it.
POWER_EMOJI: dict[str, str] = {kind: suit.emoji for kind, suit in POWER_SUIT.items()}


def _code(c: Card) -> str:
    return c.name.replace("Ace of ", "A").replace(" ", "")


_CODES: dict[str, str] = {c.name: _code(c) for c in ALL_CARDS}


def card_code(c: Card) -> str:
    """Return the card's short id for action ids, e.g. ``AMoons`` or ``ChanceMeeting``."""
    return _CODES[c.name]


#: Cards that can be in play (either deck) by their short id.
BY_CODE: dict[str, Card] = {_code(c): c for c in ALL_CARDS}

_LABELS: dict[str, str] = {c.name: c.label() for c in ALL_CARDS}


def label(c: Card) -> str:
    """Return the card's label with its suit emoji, e.g. ``Mill 🌊🍃``."""
    return _LABELS[c.name]


def goods_count(c: Card) -> int:
    """Return how many goods symbols (Leaf, Wyrm, Knot) the card bears."""
    return sum(1 for s in c.suits if s in GOODS)


def goods_points(cards: Iterable[Card]) -> int:
    """S8: score shipping ``cards``: n per good kind, plus 1 for each beyond the second."""
    total = 0
    for kind in GOODS:
        n = sum(1 for c in cards if kind in c.suits)
        total += n + max(0, n - 2)
    return total


def powers(train: list[Card]) -> list[str]:
    """Return the kinds of power the train has: ``steam`` (a Wave), ``solar`` (a Sun)."""
    return [kind for kind, suit in POWER_SUIT.items() if any(suit in c.suits for c in train)]


def can_run(train: list[Card]) -> bool:
    """S8: whether the train has a Moon, some power and at least one goods symbol."""
    return (
        any(Suit.MOONS in c.suits for c in train)
        and bool(powers(train))
        and any(goods_count(c) for c in train)
    )


def fits(trains: list[list[Card]]) -> bool:
    """Whether trains respect the limits: at most 2 trains of 1 to 5 cards."""
    return len(trains) <= MAX_TRAINS and all(0 < len(t) <= MAX_TRAIN_CARDS for t in trains)


def room(trains: list[list[Card]]) -> int:
    """Return how many more cards the trains can take (free places plus new trains)."""
    free = sum(MAX_TRAIN_CARDS - len(t) for t in trains)
    return free + MAX_TRAIN_CARDS * (MAX_TRAINS - len(trains))


@dataclass(slots=True)
class Placing:
    """Take two (S5): taken cards waiting to be placed, first card first."""

    cards: list[Card]


@dataclass(slots=True)
class Arranging:
    """Take one (S6): the taken card in ``hand`` until placed; cards move freely until done.

    While arranging, a train may hold more than 5 cards; done needs the limits again.
    """

    hand: list[Card] = field(default_factory=list)


@dataclass(slots=True)
class Running:
    """A run under way: the train (0-based), the power, the cards toggled to ship.

    ``confirmed`` means the shipment is settled and a Wave card must be picked for steam.
    """

    train: int
    power: str | None
    ship: list[Card] = field(default_factory=list)
    confirmed: bool = False


Pending = Placing | Arranging | Running


@dataclass(slots=True)
class Player:
    """One seat: name, points (also their money), what they paid and scored, trains.

    ``level`` is how the computer plays this seat (``easy``, ``normal`` or ``hard``)
    whenever a computer plays it: a computer seat, or a person's seat handed to a computer
    (C6), which keeps the default, ``normal``.
    """

    name: str
    score: int = START_POINTS
    paid: int = 0
    scored: int = 0
    trains: list[list[Card]] = field(default_factory=list)
    resigned: bool = False
    level: str = DEFAULT_LEVEL
    #: A person's seat (option ``people``), not a computer player's: once every person
    #: has resigned the game ends.
    person: bool = True

    def copy(self) -> Player:
        """Return an independent copy."""
        return Player(
            self.name, self.score, self.paid, self.scored,
            [list(t) for t in self.trains], self.resigned, self.level, self.person,
        )

    def train_cards(self) -> list[Card]:
        """Return every card on the player's trains, train 1 first."""
        return [c for t in self.trains for c in t]

    def goods_left(self) -> int:
        """S12: the goods symbols still on the player's trains (the tie-break)."""
        return sum(goods_count(c) for c in self.train_cards())


@dataclass(slots=True)
class SteamState:
    """A whole game of Steam to Solar.

    ``final`` is None until the end is triggered (S11), then the seats still owed their
    last turn, in turn order. ``two_stack`` and ``one_stack`` hold the seat holding each
    stack of Wave tokens (S10), or None while it is in the middle of the table. ``deck_kind``
    is the deck the table plays (S1: ``pawns`` or ``courts``).
    """

    rng: SeededRandom
    players: list[Player]
    deck: list[Card]
    river: list[Card]
    discard: list[Card]
    sunny: list[Card]
    start: int
    turn: int
    half: int = 1
    final: list[int] | None = None
    two_stack: int | None = None
    one_stack: int | None = None
    pending: Pending | None = None
    over: bool = False
    deck_kind: str = DEFAULT_DECK

    def copy(self) -> SteamState:
        """Return an independent copy (apply never changes the state it is given)."""
        pending = self.pending
        if isinstance(pending, Placing):
            pending = Placing(list(pending.cards))
        elif isinstance(pending, Arranging):
            pending = Arranging(list(pending.hand))
        elif isinstance(pending, Running):
            pending = Running(pending.train, pending.power, list(pending.ship), pending.confirmed)
        return SteamState(
            rng=SeededRandom(self.rng.seed, self.rng.draws),
            players=[p.copy() for p in self.players],
            deck=list(self.deck),
            river=list(self.river),
            discard=list(self.discard),
            sunny=list(self.sunny),
            start=self.start,
            turn=self.turn,
            half=self.half,
            final=None if self.final is None else list(self.final),
            two_stack=self.two_stack,
            one_stack=self.one_stack,
            pending=pending,
            over=self.over,
            deck_kind=self.deck_kind,
        )

    @property
    def cards(self) -> tuple[Card, ...]:
        """S1: the 40 cards of the deck this table plays."""
        return DECK_CARDS[self.deck_kind]

    def tokens(self, seat: int) -> int:
        """S10: how many Wave tokens ``seat`` holds (2 for the stack of two, 1 for one)."""
        return 2 * (self.two_stack == seat) + (self.one_stack == seat)

    def in_hand(self) -> list[Card]:
        """Return the taken cards not yet on a train (placing or arranging)."""
        if isinstance(self.pending, Placing):
            return self.pending.cards
        if isinstance(self.pending, Arranging):
            return self.pending.hand
        return []

    def active(self) -> list[int]:
        """Return the seats still playing (not resigned), in seat order."""
        return [i for i, p in enumerate(self.players) if not p.resigned]

    def seats_after(self, seat: int) -> list[int]:
        """Return the active seats in turn order after ``seat``, ending with ``seat``."""
        n = len(self.players)
        order = [(seat + k) % n for k in range(1, n + 1)]
        return [i for i in order if not self.players[i].resigned]
