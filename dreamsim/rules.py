"""`Rules`: every rule knob of Midnighters; the defaults are our reading of the published game.

The seed (../shared/seeds/midnighters.ru.txt) gives every card but not the hand size, the
turn structure, the board or many timings. Each field that settles such a gap names it in
its comment; dreamsim/RULES.md gives the reasoning. Change a field with
`dataclasses.replace(Rules(), field=value)`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property

from simcore.rules import bool_fields, choice_fields, int_field

from .engine.board import neighbours, parse_layout

#: the default board, top row first (see RULES.md, "Board"): the Bridge at the top, the
#: Corridors at the bottom, every Midnighter starts in the Corridor marked '*'.
DEFAULT_LAYOUT = (
    "R B T F",
    "C S M C",
    "C C* C C",
)

_CHOICES = {
    "start": ("same_corridor", "own_corridor"),
    "refill": ("after_play", "end_of_turn"),
    "deck_exhaustion": ("reshuffle", "stop"),
    "nightmares": ("after_deal", "after_first_round", "none"),
    "stager": ("last_seat", "first_seat", "chance"),
    "vertigo_rotation": ("any", "quarter"),
    "intercept_takes": ("played", "hand"),
    "town_hall_discards": ("one", "all"),
    "dreamwalk_trap_self": ("corridor", "trap_location"),
    "horror_hand_limit": ("nightmares_free", "black_free", "all_cards"),
    "paralysis": ("turn_start", "immediate"),
}
_BOOLS = ("shuffle_layout", "dreamwalk_return_arrow", "debt_carries_over", "cancel_trap_setting",
          "black_ignores_town_hall", "effect_ends_with_card", "horror_remote_town_hall_wins",
          "star_trap_needs_eligibility", "discard_action", "speed_cancel_shielded",
          "intercept_own_turn", "restaurant_discard_horror", "vertigo_trap_optional")


@dataclass(frozen=True)
class Rules:
    # --- table --------------------------------------------------------------------------
    players: int = 4                       # 2..6 (six Corridors; the seed gives no range)
    max_turns: int = 400                   # turn cap (seat-turns): reaching it ends the game as a timeout
    # --- gaps in the seed, decided (see RULES.md) -----------------------------------------
    hand_size: int = 5                     # no hand size in the seed; "surplus" cards imply one
    refill: str = "after_play"             # draw back to hand_size after each own play ("draw the missing 2 cards")
    actions_per_turn: int = 2              # implied by Multicoloured (3) / Colourless (1)
    multicolour_actions: int = 3           # seed: "increase to 3 actions per turn"
    colourless_actions: int = 1            # seed: "decrease to 1 action per turn"
    trap_actions: int = 2                  # seed: "setting it equals 2 actions"
    dutch_angle_actions: int = 0           # a Dutch Angle's price is next turn's action, not an action now
    steal_actions: int = 1                 # Dreamcatcher "blindly take 1 card" on your turn is one action
    cancel_debt: int = 1                   # Dutch Angle cancel out of turn costs 1 action of your next turn
    debt_carries_over: bool = True         # reductions beyond a turn's actions carry to the following turn
    layout: tuple = DEFAULT_LAYOUT         # the Stager's board; see board.parse_layout
    shuffle_layout: bool = False           # True: chance deals the 12 locations onto the layout's cells
    start: str = "same_corridor"           # all in the '*' Corridor, or seat i in the i-th Corridor
    dreamwalk_return_arrow: bool = False   # does the target need an arrow pointing back?
    vertigo_rotation: str = "any"          # "any" new orientation, or a "quarter" turn either way
    deck_exhaustion: str = "reshuffle"     # shuffle the discard pile into a new deck, or "stop" drawing
    nightmares: str = "after_deal"         # when the 6 nightmares are shuffled into the deck
    stager: str = "last_seat"              # who places Midnighters after the Colourless Nightmare
    intercept_takes: str = "played"        # Dreamcatcher intercepts the card being played (TN 4)
    cancel_trap_setting: bool = True       # setting a trap is a card play that can be cancelled/intercepted
    black_ignores_town_hall: bool = True   # "the Black Nightmare cannot be cancelled" beats Town Hall (TN 12)
    town_hall_discards: str = "one"        # Town Hall gets rid of "the nightmare card": one of yours (TN 9)
    effect_ends_with_card: bool = False    # does getting rid of a nightmare card end its lasting effect?
    dreamwalk_trap_self: str = "corridor"  # "or move yourself" - to any Corridor (TN 16)
    horror_remote_town_hall_wins: bool = True   # the Horror's Town Hall Star trap "activates the Town Hall":
                                                # the Horror wins (False: it only neutralises, dreamsim-1.0)
    intercept_own_turn: bool = False       # Dreamcatcher intercepts "не в свой ход": the turn player may not
                                           # intercept an interception (True: it may, dreamsim-1.0)
    restaurant_discard_horror: bool = True  # only mixing spares the Horror ("Нельзя спутать карты Полночному
                                            # ужасу"); the blind discard may target it (False: dreamsim-1.0)
    vertigo_trap_optional: bool = False    # Vertigo trap: "переместить ... и повернуть" - move and rotate
                                           # (True: either may be left out, dreamsim-1.0)
    star_trap_needs_eligibility: bool = False   # may a Star trap be sprung by an owner who cannot benefit?
    speed_cancel_shielded: bool = False    # Multicoloured/Colourless "cancels" the other one: only on the seats it
                                           # reaches (False), or also on those sheltering in the Town Hall (True)
    horror_hand_limit: str = "nightmares_free"  # gap: nightmares do not affect the Horror, so none counts toward
                                           # its hand size ("black_free": only the Black does not; "all_cards":
                                           # dreamsim-1.0, where a Horror with Black + 4 nightmares froze for good)
    discard_action: bool = True            # 1 action: discard a director card (replaced at the refill);
                                           # without it a hand with no usable card can deadlock the game
    paralysis: str = "turn_start"          # "всегда пропускают ход" (always skip their turn): checked when a turn
                                           # begins; "immediate": standing with the Horror also ends the turn
                                           # being played, before its next action (RULES.md D-paralysis)
    # --- design variants: per-seat compensation (not in the published game; RULES.md, "Design variants") ---
    extra_first_turn_seats: int = 0        # the first k seats (from seat 0) each take one action more on their first turn
    reduced_first_turn_last_seats: int = 0  # the last k seats (up to seat players-1) each take one action fewer on
                                            # their first turn (0 = the published game for both)

    def __post_init__(self):
        _validate(self)

    @cached_property
    def board(self):
        """(rows, cols, grid, rot, start_cell, neighbours) of the starting layout."""
        rows, cols, grid, rot, start = parse_layout(self.layout)
        return rows, cols, grid, rot, start, neighbours(rows, cols)

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _validate(rules: Rules) -> None:
    int_field(rules, "players", 2, 6)
    int_field(rules, "max_turns", 1)
    int_field(rules, "hand_size", 1, 12)
    int_field(rules, "actions_per_turn", 1, 10)
    int_field(rules, "multicolour_actions", 1, 10)
    int_field(rules, "colourless_actions", 1, 10)
    int_field(rules, "trap_actions", 1, 10)
    int_field(rules, "dutch_angle_actions", 0, 10)
    int_field(rules, "steal_actions", 0, 10)
    int_field(rules, "cancel_debt", 0, 10)
    int_field(rules, "extra_first_turn_seats", 0, rules.players)
    int_field(rules, "reduced_first_turn_last_seats", 0, rules.players)
    if rules.reduced_first_turn_last_seats and rules.actions_per_turn < 2:
        raise ValueError(f"Rules.reduced_first_turn_last_seats={rules.reduced_first_turn_last_seats} with "
                         f"actions_per_turn={rules.actions_per_turn} leaves the last seats no action on their first "
                         f"turn; allowed: 0, or actions_per_turn >= 2")
    choice_fields(rules, _CHOICES)
    bool_fields(rules, _BOOLS)
    rows, cols, grid, rot, start = parse_layout(rules.layout)
    if rules.players * rules.hand_size > 96 - 20:
        raise ValueError(f"Rules.hand_size: {rules.hand_size} cards for {rules.players} players leaves too small a deck")
