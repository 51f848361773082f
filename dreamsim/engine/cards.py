"""The components: director cards, nightmare cards and location cards, as small integers.

Cards of one kind are interchangeable (the seed gives them no other property), so the engine
works on *kind codes*: a hand is a list of kind codes, the deck is a shuffled list of kind
codes, and "all cards" is a multiset of kinds (`COMPOSITION`, 102 cards).

Locations are ids 0..11: six Corridors (0..5), then Forest, Square, Motel, Restaurant,
Town Hall and Bridge. A Suspense card names a location: kind ``SUSPENSE_OF[loc]``.
"""
from __future__ import annotations

# --- card kinds -------------------------------------------------------------------------
DREAMWALK, VERTIGO, STAR, DUTCH, CATCHER = 0, 1, 2, 3, 4
SU_FOREST, SU_SQUARE, SU_MOTEL, SU_RESTAURANT, SU_TOWN_HALL, SU_BRIDGE = 5, 6, 7, 8, 9, 10
RED, BLUE, PURPLE, BLACK, MULTI, COLOURLESS = 11, 12, 13, 14, 15, 16
N_KINDS = 17

KIND_NAMES = (
    "Dreamwalk", "Vertigo", "Midnight Star", "Dutch Angle", "Dreamcatcher",
    "Suspense (Forest)", "Suspense (Square)", "Suspense (Motel)", "Suspense (Restaurant)",
    "Suspense (Town Hall)", "Suspense (Bridge)",
    "Red Nightmare", "Blue Nightmare", "Purple Nightmare", "Black Nightmare",
    "Multicoloured Nightmare", "Colourless Nightmare",
)

SUSPENSE_KINDS = frozenset(range(SU_FOREST, SU_BRIDGE + 1))
NIGHTMARES = (RED, BLUE, PURPLE, BLACK, MULTI, COLOURLESS)
IS_NIGHTMARE = tuple(k >= RED for k in range(N_KINDS))
IS_SUSPENSE = tuple(SU_FOREST <= k <= SU_BRIDGE for k in range(N_KINDS))
#: the five director cards that can be paired with a Suspense card in a trap
TRAP_PARTNERS = (DREAMWALK, VERTIGO, STAR, DUTCH, CATCHER)

#: the published deck: 96 director cards + 6 nightmares = 102
COMPOSITION = {
    DREAMWALK: 36, VERTIGO: 12, STAR: 12, DUTCH: 9, CATCHER: 9,
    SU_FOREST: 3, SU_SQUARE: 3, SU_MOTEL: 3, SU_RESTAURANT: 3, SU_TOWN_HALL: 3, SU_BRIDGE: 3,
    RED: 1, BLUE: 1, PURPLE: 1, BLACK: 1, MULTI: 1, COLOURLESS: 1,
}
N_DIRECTOR = 96
N_CARDS = 102


def director_cards() -> list[int]:
    return [k for k in range(SU_BRIDGE + 1) for _ in range(COMPOSITION[k])]


def nightmare_cards() -> list[int]:
    return list(NIGHTMARES)


# --- locations --------------------------------------------------------------------------
CORRIDORS = (0, 1, 2, 3, 4, 5)
FOREST, SQUARE, MOTEL, RESTAURANT, TOWN_HALL, BRIDGE = 6, 7, 8, 9, 10, 11
N_LOCATIONS = 12
LOCATION_NAMES = tuple(f"Corridor {i + 1}" for i in range(6)) + (
    "Forest", "Square", "Motel", "Restaurant", "Town Hall", "Bridge")
#: layout letters (Rules.layout) -> location type
LETTERS = {"C": "Corridor", "F": "Forest", "S": "Square", "M": "Motel", "R": "Restaurant",
           "T": "Town Hall", "B": "Bridge"}
LETTER_OF = {FOREST: "F", SQUARE: "S", MOTEL: "M", RESTAURANT: "R", TOWN_HALL: "T", BRIDGE: "B"}

# directions: 0 up, 1 right, 2 down, 3 left (a rotation r turns every arrow r quarter turns clockwise)
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
DIRECTION_NAMES = ("up", "right", "down", "left")
#: printed arrows (rotation 0)
BASE_ARROWS = {
    "Corridor": (UP, DOWN),
    "Forest": (UP, LEFT, RIGHT),
    "Square": (DOWN, LEFT, RIGHT),
    "Motel": (UP, LEFT),
    "Restaurant": (DOWN, RIGHT),
    "Town Hall": (LEFT, RIGHT),
    "Bridge": (UP,),
}


def location_type(loc: int) -> str:
    return "Corridor" if loc < 6 else LOCATION_NAMES[loc]


#: ARROWS[loc][rot] -> tuple of absolute directions
ARROWS = tuple(
    tuple(tuple(sorted((d + r) % 4 for d in BASE_ARROWS[location_type(loc)])) for r in range(4))
    for loc in range(N_LOCATIONS)
)
#: bit masks of the same
ARROW_MASK = tuple(tuple(sum(1 << d for d in ARROWS[loc][r]) for r in range(4)) for loc in range(N_LOCATIONS))

SUSPENSE_OF = {FOREST: SU_FOREST, SQUARE: SU_SQUARE, MOTEL: SU_MOTEL, RESTAURANT: SU_RESTAURANT,
               TOWN_HALL: SU_TOWN_HALL, BRIDGE: SU_BRIDGE}
LOCATION_OF_SUSPENSE = {k: loc for loc, k in SUSPENSE_OF.items()}
ACTIVATABLE = tuple(loc >= 6 for loc in range(N_LOCATIONS))
