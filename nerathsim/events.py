"""Event decks and dungeons: what exists in this version, and the extension points for their effects.

EVENT CARDS. Seed (setup): "Hver spiller tager sin nations 20 event-kort, blander dem ... trækker
hver spiller to kort"; phase 1: "Træk et event kort ... Du må have et ubegrænset antal event kort
på hånden ... Hvis den løber tør for kort, blander du blot de brugte kort". The decks, the
starting hand, the draw of phase 1, the unlimited hand and the reshuffle of used cards are
modelled. The cards themselves are PLACEHOLDERS: no public source lists them (nerath-facts §4.3,
§8.4), so every card is `EventCard(realm, number)` with timing "keep" and no effect, and no card
is ever played. The next issue fills in `EVENT_EFFECTS` (card -> effect) and `playable_events`;
the engine already calls `playable_events` (an empty list today) and moves played cards to the
used pile through `play_event`.

DUNGEONS. Dungeon entrances are regions of the map (`"dungeon": true`): land and flying units
stop when they enter (flyers may fly over but not end there), only heroes may enter
(`Rules.dungeon_entry`), and heroes who explored must leave in the regroup phase. Guardian
tokens, guardian battles and treasure cards are the next issue: `explore_dungeon` is called in
the combat phase for every dungeon holding the current realm's heroes and today finds no
guardian (the dungeon counts as explored, nothing is won).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EventCard:
    realm: int          # index into maps.REALMS
    number: int         # 1..deck size
    timing: str = "keep"   # "keep" (play later) or "immediate" — placeholders are all "keep"

    @property
    def name(self) -> str:
        from .maps import REALMS
        return f"{REALMS[self.realm]} event {self.number} (placeholder)"


#: card id -> effect callable(state, realm, rng); empty until the event-card issue
EVENT_EFFECTS: dict = {}


def event_card(card_id: int, deck_size: int) -> EventCard:
    """Card ids are realm * deck_size + (number - 1)."""
    return EventCard(card_id // deck_size, card_id % deck_size + 1)


def playable_events(state, realm: int) -> list:
    """Cards of `realm`'s hand that may be played now (none: placeholders have no effect)."""
    return [c for c in state.hands[realm] if c in EVENT_EFFECTS]


def play_event(state, realm: int, card: int, rng) -> None:
    """Play a card: its effect, then it goes to the used pile (seed: "placeres ved siden af")."""
    state.hands[realm].remove(card)
    EVENT_EFFECTS[card](state, realm, rng)
    state.used[realm].append(card)


def explore_dungeon(state, region: int, realm: int, rng) -> dict:
    """Combat phase, heroes in a dungeon. Today: no guardian tokens, so nothing to fight and no treasure.

    Returns {"explored": True, "treasure": None, "gold": 0}. The dungeon issue replaces this with
    the guardian battle (seed: "I kampfasen kæmper din helt mod monstret på brikken").
    """
    return {"explored": True, "treasure": None, "gold": 0}
