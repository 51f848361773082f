"""`Rules`: every rule knob of Nightmarium; the defaults are the published game.

Each field that settles a gap of the seed names the gap in its comment; nightsim/RULES.md
gives the reasoning. Change a field with `dataclasses.replace(Rules(), field=value)`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from functools import cached_property

from simcore.rules import bool_fields, choice_fields, int_field

from .engine.cards import Card, CardTable, load_cards, make_seals

_CHOICES = {
    "penalty_timing": ("before_abilities", "after_abilities"),
    "win_timing": ("immediate", "end_of_action"),
    "seal_target": ("own", "any"),
    "immunity": ("all_other_creatures", "opponents_only"),
}


@dataclass(frozen=True)
class Rules:
    # --- the published game -------------------------------------------------------------
    players: int = 4                      # 2–5
    hand_size: int = 5                    # "deal five cards to each player"
    actions_per_turn: int = 2             # "you may take two actions"
    creatures_to_win: int = 5             # "five complete creatures" (6, 7 as variants)
    creature_limit: int | None = None     # None = creatures_to_win ("no more creatures than needed to win")
    seals: bool = False                   # Legions of Horrors expansion
    seals_per_legion: int = 3             # "12 extra cards, three for each legion"
    cards: tuple[Card, ...] | None = None  # None = the 108 published cards (package data)
    max_turns: int = 400                  # turn cap: reaching it ends the game as a timeout
    # --- gaps in the seed, decided (see RULES.md) -----------------------------------------
    penalty_timing: str = "before_abilities"  # pure-legion penalty before/after the abilities
    win_timing: str = "immediate"             # win the moment the 5th creature is complete
    scavenger_optional: bool = False          # G4: "må smide" read under "du skal udføre dem" (must)
    seal_reactivation_optional: bool = True   # G20: "Du må aktivere … en gang til" (may): a decision
    seal_target: str = "own"                  # seal on own completed creature only, or any
    immunity: str = "all_other_creatures"     # incarnated: immune to every other creature
    seal_counts_as_play: bool = True          # a seal is a played card for the legion restriction
    herald_plays_seals: bool = False          # a seal turned over by a Herald is discarded
    mocker_plays_seals: bool = False          # Mocker plays body parts only
    min_discard: int = 1                      # discard action needs at least this many cards
    # --- design variants (not in the published game) ---------------------------------------
    last_seat_extra_cards: int = 0            # cards dealt to the last seat after the deal (0 = the published deal)
    first_turn_fewer_actions: int = 0         # the starting player's first turn has this many fewer actions
                                              #   (0 = the published game; 1 = a reduced first turn for seat 0)
    reduced_first_turn_seats: int = 0         # the first k seats (from seat 0) each take one action fewer on their
                                              #   first turn (0 = the published game; 2 = seats 0 and 1)

    def __post_init__(self):
        _validate(self)

    @property
    def limit(self) -> int:
        """Creatures a player may have in play (complete or not)."""
        return self.creatures_to_win if self.creature_limit is None else self.creature_limit

    @cached_property
    def table(self) -> CardTable:
        body = self.cards if self.cards is not None else _published()
        deck = body + (make_seals(self.seals_per_legion, max(c.number for c in body) + 1) if self.seals else ())
        return CardTable.build(deck)

    def data_hashes(self) -> dict:
        """Content hash of every data input: {'cards': sha256 of the body deck in play} (published
        or custom), so a run's metadata tells two decks of the same size apart."""
        body = self.cards if self.cards is not None else _published()
        text = repr(tuple(tuple(c) for c in body))
        return {"cards": hashlib.sha256(text.encode("utf-8")).hexdigest()}

    def to_dict(self) -> dict:
        """Plain-value view for metadata (the deck is summarised by its size; `data_hashes` tells decks apart)."""
        d = {}
        for f in fields(self):
            v = getattr(self, f.name)
            d[f.name] = v if f.name != "cards" else (None if v is None else f"{len(v)} custom cards")
        return d


_PUBLISHED: tuple[Card, ...] | None = None


def _published() -> tuple[Card, ...]:
    global _PUBLISHED
    if _PUBLISHED is None:
        _PUBLISHED = load_cards()
    return _PUBLISHED


def _validate(rules: Rules) -> None:
    int_field(rules, "players", 2, 5)
    int_field(rules, "hand_size", 1)  # a game starts from dealt hands: five cards; no hand is no game
    int_field(rules, "actions_per_turn", 1)
    int_field(rules, "creatures_to_win", 1)
    if rules.creature_limit is not None:
        int_field(rules, "creature_limit", rules.creatures_to_win)
    int_field(rules, "seals_per_legion", 0)
    int_field(rules, "max_turns", 1)
    int_field(rules, "min_discard", 1)
    int_field(rules, "last_seat_extra_cards", 0)
    int_field(rules, "first_turn_fewer_actions", 0, rules.actions_per_turn - 1)
    int_field(rules, "reduced_first_turn_seats", 0, rules.players)
    if rules.first_turn_fewer_actions + (rules.reduced_first_turn_seats > 0) > rules.actions_per_turn - 1:
        raise ValueError(f"Rules.first_turn_fewer_actions={rules.first_turn_fewer_actions} with "
                         f"reduced_first_turn_seats={rules.reduced_first_turn_seats} leaves seat 0 no action on its "
                         f"first turn (actions_per_turn={rules.actions_per_turn}); the first turn keeps at least one")
    choice_fields(rules, _CHOICES)
    bool_fields(rules, ("seals", "scavenger_optional", "seal_reactivation_optional", "seal_counts_as_play",
                    "herald_plays_seals", "mocker_plays_seals"))
    if rules.cards is not None:
        if not isinstance(rules.cards, tuple) or not all(isinstance(c, Card) for c in rules.cards):
            raise ValueError("Rules.cards must be a tuple of nightsim.Card (use nightsim.load_cards(path) or parse_cards(rows))")
        if any(c.seal for c in rules.cards):
            raise ValueError("Rules.cards lists body cards only; seals come from Rules.seals")
    n_cards = len(rules.cards) if rules.cards is not None else len(_published())
    dealt = rules.players * rules.hand_size + rules.last_seat_extra_cards
    if n_cards < dealt:
        raise ValueError(
            f"Rules.cards: {n_cards} cards are too few to deal {rules.hand_size} to each of "
            f"{rules.players} players (need at least {dealt})"
        )
