"""The Night Terror cards: legions, body parts, abilities, and the deck as package data.

Seed: "In the bottom left corner of the cards you can see which of the four legions a card
belongs to. It also shows there whether it is a leg, head or torso. A few cards let you choose
for yourself what kind of body part it is to be." — a card is (number, legion, slots, ability).

Cards are identified in the engine by their index in the deck tuple (0..len-1), so the hot
path works on small integers; `Card` records are only looked at when decoding or logging.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources
from typing import Iterable, NamedTuple

LEGIONS = ("Necronauts", "Homunculi", "Insektoids", "Chimeridae")
BODY_PARTS = ("legs", "torso", "head")  # slot 0, 1, 2 — also the build order
ABILITIES = ("Herald", "Weeper", "Mocker", "Executioner", "Scavenger", "Devourer")

LEGS, TORSO, HEAD = 0, 1, 2
NO_ABILITY = -1
HERALD, WEEPER, MOCKER, EXECUTIONER, SCAVENGER, DEVOURER = range(6)

_PART_ALIASES = {"legs": LEGS, "leg": LEGS, "feet": LEGS, "torso": TORSO, "head": HEAD}


class Card(NamedTuple):
    """One printed card. `slots` is a tuple of body-part indices (empty for a seal)."""

    number: int
    legion: int
    slots: tuple[int, ...]
    ability: int  # index into ABILITIES, or NO_ABILITY
    seal: bool = False

    def __repr__(self) -> str:
        if self.seal:
            return f"#{self.number} {LEGIONS[self.legion]} seal"
        parts = "|".join(BODY_PARTS[s] for s in self.slots)
        ab = f" {ABILITIES[self.ability]}" if self.ability >= 0 else ""
        return f"#{self.number} {LEGIONS[self.legion]} {parts}{ab}"


def _parse_legion(value: str, where: str) -> int:
    v = value.strip().lower()
    for i, name in enumerate(LEGIONS):
        if name.lower() == v:
            return i
    raise ValueError(f"{where}: unknown legion {value!r}; allowed: {', '.join(LEGIONS)}")


def _parse_slots(value: str, where: str) -> tuple[int, ...]:
    parts = [p.strip().lower() for p in value.split("|") if p.strip()]
    if not parts:
        raise ValueError(f"{where}: body_parts is empty; allowed: legs, torso, head joined by '|'")
    slots = set()
    for p in parts:
        if p not in _PART_ALIASES:
            raise ValueError(f"{where}: unknown body part {p!r}; allowed: legs, torso, head")
        slots.add(_PART_ALIASES[p])
    return tuple(sorted(slots))


def _parse_ability(value: str, where: str) -> int:
    v = (value or "").strip()
    if not v or v.lower() == "none":
        return NO_ABILITY
    for i, name in enumerate(ABILITIES):
        if name.lower() == v.lower():
            return i
    raise ValueError(f"{where}: unknown ability {value!r}; allowed: {', '.join(ABILITIES)} or empty")


def parse_cards(rows: Iterable[dict], source: str = "card list") -> tuple[Card, ...]:
    """Validate rows with keys number, legion, body_parts, ability into Card records.

    Raises ValueError naming the row and the field for anything unknown or malformed.
    """
    cards = []
    seen = set()
    for i, row in enumerate(rows, start=1):
        where = f"{source} row {i}"
        for key in ("number", "legion", "body_parts"):
            if key not in row or row[key] is None:
                raise ValueError(f"{where}: missing field {key!r}")
        try:
            number = int(row["number"])
        except (TypeError, ValueError):
            raise ValueError(f"{where}: number must be an integer, got {row['number']!r}") from None
        if number in seen:
            raise ValueError(f"{where}: duplicate card number {number}")
        seen.add(number)
        cards.append(
            Card(
                number,
                _parse_legion(str(row["legion"]), where),
                _parse_slots(str(row["body_parts"]), where),
                _parse_ability(str(row.get("ability") or ""), where),
            )
        )
    return tuple(cards)


def load_cards(path=None) -> tuple[Card, ...]:
    """The 108 published cards (package data), or a user's CSV file with the same columns."""
    if path is None:
        with resources.files("nightsim").joinpath("data/nightmarium-cards.csv").open(
            encoding="utf-8"
        ) as f:
            return parse_cards(csv.DictReader(f), "nightmarium-cards.csv")
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return parse_cards(csv.DictReader(f), str(path))
    except OSError as e:
        raise ValueError(f"cannot read card list {path}: {e.strerror}") from None


def make_seals(per_legion: int, first_number: int = 109) -> tuple[Card, ...]:
    """Legions of Horrors: "12 extra cards, three for each legion ... called seals"."""
    seals = []
    n = first_number
    for legion in range(len(LEGIONS)):
        for _ in range(per_legion):
            seals.append(Card(n, legion, (), NO_ABILITY, True))
            n += 1
    return tuple(seals)


@dataclass(frozen=True)
class CardTable:
    """Column arrays over the full deck (body cards then seals), indexed by card id."""

    cards: tuple[Card, ...]
    legion: tuple[int, ...]
    ability: tuple[int, ...]
    is_seal: tuple[bool, ...]
    fits: tuple[tuple[bool, bool, bool], ...]  # fits[c][slot]
    number: tuple[int, ...]

    @classmethod
    def build(cls, cards: tuple[Card, ...]) -> "CardTable":
        return cls(
            cards=cards,
            legion=tuple(c.legion for c in cards),
            ability=tuple(c.ability for c in cards),
            is_seal=tuple(c.seal for c in cards),
            fits=tuple(tuple(s in c.slots for s in range(3)) for c in cards),
            number=tuple(c.number for c in cards),
        )
