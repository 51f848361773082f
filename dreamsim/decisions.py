"""The readings we chose where the Midnighters text is silent or contradicts itself, as plain data.

Each `Decision` names a `Rules` field whose default is the reading we play and the other readings a
designer may want to try; RULES.md gives the id, the quoted evidence and the reasoning. These are
the decisions that can move a balance finding (who wins, how long a game lasts), so a sensitivity
analysis re-measures a finding under each alternative (`Rules` with that one field changed).
"""
from __future__ import annotations

from simcore.decisions import Decision as _Decision

from .rules import Rules


class Decision(_Decision):
    """A Midnighters reading (`simcore.decisions.Decision`), starting from this game's published `Rules`."""

    RULES = Rules


DECISIONS = (
    Decision("D-black-town-hall", "black_ignores_town_hall", (False,),
             "the Black Nightmare drawn in the Town Hall still makes the drawer the Horror"),
    Decision("D-paralysis", "paralysis", ("immediate",),
             "sleep paralysis is checked when a turn begins; the turn being played goes on"),
    Decision("D-start", "start", ("own_corridor",),
             "every Midnighter starts in the same Corridor"),
    Decision("D-discard-action", "discard_action", (False,),
             "a director card may be discarded for one action (not in the text; prevents deadlocks)"),
    Decision("D-horror-hand", "horror_hand_limit", ("black_free", "all_cards"),
             "nightmares do not count toward the Horror's hand size"),
    Decision("D-stager", "stager", ("first_seat", "chance"),
             "the last seat is the Stager (the Horror when there is one)"),
    Decision("D-refill", "refill", ("end_of_turn",),
             "hands are refilled after each own card play"),
    Decision("D-nightmares-in", "nightmares", ("after_first_round",),
             "the six nightmares are shuffled in right after the deal"),
    Decision("D-intercept", "intercept_takes", ("hand",),
             "the Dreamcatcher intercepts the card being played"),
    Decision("D-town-hall-discards", "town_hall_discards", ("all",),
             "the Town Hall gets rid of one nightmare card"),
)
