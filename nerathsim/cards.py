"""Event cards, treasure cards and dungeon guardians as data: the loader and its validation.

Seed: "Hver spiller tager sin nations 20 event-kort" (each realm its own 20-card deck); "Kortet
fortæller, hvornår det kan bruges" (a treasure card says when it can be used); guardians have
dice ("Hvert hit fjerner en angrebsterning fra monstret"), first strike ("medusaer") and need
"7+ eller 8+ på terningen for at blive såret"; "Nogle monstre udløser også en guldbonus".

No public source lists the real cards or tiles (shared/data/nerath-facts.md §4, §8.4), so the
shipped files in `data/cards/` are the project's own (nerathsim/CONTENT.md gives the reasoning
behind every number). Users point `Rules(event_file=..., treasure_file=..., guardian_file=...)`
at their own files; every file is validated on load, and a bad one raises a ValueError that
names the file, the card and the field.

Effects are plain data (`Effect(kind, params)`); `nerathsim.effects` is the one module that
interprets them.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import pandas as pd

from .battle.units import UnitTable
from .maps import REALMS

#: effect kind -> {parameter: allowed values (tuple) or "int" (positive integer) or "unit"}
EFFECTS = {
    "gain_gold": {"amount": "int"},
    "gain_vp": {"amount": "int"},
    "place_units": {"unit": "unit", "count": "int",
                    "target": ("capital", "castle", "held_region", "front_region", "coast_sea")},
    "move_units": {"count": "int", "units": "unit|land|any", "range": "int", "target": ("held_region", "front_region")},
    "battle_bonus": {"bonus": ("extra_dice", "reroll_misses", "first_strike", "plus_to_hit"), "unit": "unit|any",
                     "amount": "int", "target": ("attack", "defence")},
    "cancel": {"what": ("event", "battle_bonus", "any")},
    "weaken": {"what": ("event", "battle_bonus", "any"), "amount": "int"},
    "draw_cards": {"count": "int"},
}
TIMINGS = ("immediate", "keep")
PHASES = ("movement", "combat", "reinforcements", "reaction")
#: which effects each phase (or "immediate") allows
_ALLOWED = {
    "immediate": ("gain_gold", "gain_vp", "place_units", "move_units", "draw_cards"),
    "movement": ("gain_gold", "gain_vp", "place_units", "move_units", "draw_cards"),
    "reinforcements": ("gain_gold", "gain_vp", "place_units", "move_units", "draw_cards"),
    "combat": ("battle_bonus",),
    "reaction": ("cancel", "weaken"),
}
DIES = (4, 6, 8, 10, 12, 20)
FORMATS = {"events": "nerath-events-1", "treasures": "nerath-treasures-1", "guardians": "nerath-guardians-1"}


@dataclass(frozen=True)
class Effect:
    kind: str
    params: tuple   # ((name, value), ...) in schema order

    def get(self, name: str, default=None):
        for k, v in self.params:
            if k == name:
                return v
        return default

    def __str__(self):
        return f"{self.kind}({', '.join(f'{k}={v}' for k, v in self.params)})"


@dataclass(frozen=True)
class Card:
    """One card (kind: 'event' or 'treasure'). `realm` is the deck's realm index (-1: treasure)."""

    key: str
    name: str
    kind: str
    realm: int
    timing: str
    phase: str | None
    effects: tuple
    vp: int = 0
    text: str = ""

    @property
    def reaction(self) -> bool:
        return self.phase == "reaction"

    @property
    def has_battle_bonus(self) -> bool:
        return any(e.kind == "battle_bonus" for e in self.effects)

    @property
    def bonus_target(self) -> str | None:
        for e in self.effects:
            if e.kind == "battle_bonus":
                return e.get("target")
        return None


@dataclass(frozen=True)
class Guardian:
    """A Dungeon Guardian token: `dice` attack dice (= hits to defeat it), `die`, first strike,
    the roll a hero needs to wound it (`wound_on`) and the gold bonus when it is defeated."""

    key: str
    name: str
    dice: int
    die: int
    first_strike: bool
    wound_on: int
    gold: int


@dataclass(frozen=True)
class CardSet:
    """Everything the engine needs: card ids index `cards` (events of each realm, then treasures)."""

    cards: tuple                  # Card per id
    decks: tuple                  # per realm: tuple of event card ids (copies repeated)
    treasures: tuple              # treasure card ids (copies repeated)
    guardians: tuple              # Guardian per guardian id
    supply: tuple                 # guardian ids (tiles repeated)
    sources: tuple = field(default=())

    def card(self, cid: int) -> Card:
        return self.cards[cid]


def _fail(src: str, where: str, msg: str):
    raise ValueError(f"{src}: {where}: {msg}")


def read_text(path, kind: str) -> str:
    """The text of a content file: kind 'events', 'treasures' or 'guardians'; path None = the shipped one."""
    return _source(path, kind)[1]


def _source(path, kind: str) -> tuple[str, str]:
    if path is None:
        name = {"events": "events.json", "treasures": "treasures.json", "guardians": "guardians.json"}[kind]
        ref = resources.files("nerathsim").joinpath("data", "cards", name)
        return f"shipped {kind} file data/cards/{name}", ref.read_text(encoding="utf-8")
    field = {"events": "event_file", "treasures": "treasure_file", "guardians": "guardian_file"}[kind]
    src = f"{kind} file {os.fspath(path)!r} (Rules.{field})"
    try:
        with open(path, encoding="utf-8") as fh:
            return src, fh.read()
    except OSError as exc:
        raise ValueError(f"{src}: cannot be read ({exc.strerror or exc})") from None


def _read(path, kind: str):
    src, text = _source(path, kind)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{src}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        _fail(src, "top level", "must be a JSON object")
    if data.get("format") != FORMATS[kind]:
        _fail(src, "format", f"must be {FORMATS[kind]!r}, got {data.get('format')!r}")
    return data, src


def _int(src, where, v, lo=1, hi=None):
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        _fail(src, where, f"must be an integer {rng}, got {v!r}")
    return v


def parse_effect(src: str, where: str, raw, units) -> Effect:
    if not isinstance(raw, dict) or "effect" not in raw:
        _fail(src, where, f"an effect must be an object with an 'effect' key, got {raw!r}")
    kind = raw["effect"]
    if kind not in EFFECTS:
        _fail(src, where, f"unknown effect {kind!r}; known: {', '.join(EFFECTS)}")
    spec = EFFECTS[kind]
    extra = sorted(set(raw) - set(spec) - {"effect"})
    if extra:
        _fail(src, where, f"effect {kind!r} has unknown field(s) {', '.join(extra)}; fields: {', '.join(spec)}")
    params = []
    for name, allowed in spec.items():
        if name not in raw:
            _fail(src, where, f"effect {kind!r} needs the field {name!r}")
        v = raw[name]
        w = f"{where}.{name}"
        if allowed == "int":
            _int(src, w, v, 1, 99)
        elif isinstance(allowed, tuple):
            if v not in allowed:
                label = "target" if name == "target" else name
                _fail(src, w, f"unknown {label} {v!r} for {kind}; allowed: {', '.join(allowed)}")
        else:   # unit names, possibly with keywords
            words = allowed.split("|")[1:]
            if v not in words:
                if not isinstance(v, str) or v not in units:
                    _fail(src, w, f"unknown unit {v!r}; units: {', '.join(units.names)}"
                          + (f", or {', '.join(words)}" if words else ""))
                v = units.canonical(v)
                if kind == "place_units" and units[v].places_units:
                    _fail(src, w, "a card cannot place a castle")
        params.append((name, v))
    eff = Effect(kind, tuple(params))
    if kind == "place_units":
        u = units[eff.get("unit")]
        at_sea = eff.get("target") == "coast_sea"
        if at_sea and u.domain == "land":
            _fail(src, where, f"place_units target 'coast_sea' needs a warship or a flyer, not {u.name}")
        if not at_sea and u.domain == "sea":
            _fail(src, where, f"place_units of {u.name} needs target 'coast_sea'")
    if kind == "move_units" and eff.get("range") > 3:
        _fail(src, f"{where}.range", f"must be 1..3, got {eff.get('range')}")
    if kind == "battle_bonus" and eff.get("bonus") in ("reroll_misses", "first_strike") and eff.get("amount") != 1:
        _fail(src, f"{where}.amount", f"{eff.get('bonus')} takes amount 1, got {eff.get('amount')}")
    return eff


def parse_card(src: str, raw, kind: str, realm: int, units, keys: set) -> tuple[Card, int]:
    if not isinstance(raw, dict):
        _fail(src, "card", f"must be an object, got {raw!r}")
    key = raw.get("key")
    if not isinstance(key, str) or not key:
        _fail(src, f"card {raw.get('name', '?')!r}", "needs a non-empty string 'key'")
    where = f"card {key!r}"
    if key in keys:
        _fail(src, where, "duplicate key")
    keys.add(key)
    known = {"key", "name", "copies", "timing", "phase", "effects", "text", "why"} | ({"vp"} if kind == "treasure" else set())
    extra = sorted(set(raw) - known)
    if extra:
        _fail(src, where, f"unknown field(s) {', '.join(extra)}; fields: {', '.join(sorted(known))}")
    copies = _int(src, f"{where}.copies", raw.get("copies", 1), 1, 40)
    timing = raw.get("timing")
    if timing not in TIMINGS:
        _fail(src, f"{where}.timing", f"unknown timing {timing!r}; allowed: {', '.join(TIMINGS)}")
    phase = raw.get("phase")
    if timing == "keep":
        if phase not in PHASES:
            _fail(src, f"{where}.phase", f"unknown phase {phase!r} for a kept card; allowed: {', '.join(PHASES)}")
    elif phase is not None:
        _fail(src, f"{where}.phase", "an immediate card has no phase (it is played at once when drawn)")
    effs = raw.get("effects")
    if not isinstance(effs, list) or not effs:
        _fail(src, f"{where}.effects", "must be a non-empty list")
    effects = tuple(parse_effect(src, f"{where}.effects[{i}]", e, units) for i, e in enumerate(effs))
    slot = phase if timing == "keep" else "immediate"
    for e in effects:
        if e.kind not in _ALLOWED[slot]:
            _fail(src, f"{where}.effects", f"effect {e.kind!r} cannot be used by a card played "
                  f"{'at once' if slot == 'immediate' else 'in phase ' + repr(slot)}; allowed there: "
                  f"{', '.join(_ALLOWED[slot])}")
    if slot == "reaction" and len(effects) != 1:
        _fail(src, f"{where}.effects", "a reaction card has exactly one effect")
    targets = {e.get("target") for e in effects if e.kind == "battle_bonus"}
    if len(targets) > 1:
        _fail(src, f"{where}.effects", "the battle bonuses of one card must share one target (attack or defence)")
    vp = _int(src, f"{where}.vp", raw.get("vp", 0), 0, 20) if kind == "treasure" else 0
    name = raw.get("name", key)
    if not isinstance(name, str):
        _fail(src, f"{where}.name", "must be a string")
    return Card(key, name, kind, realm, timing, phase if timing == "keep" else None, effects, vp,
                str(raw.get("text", ""))), copies


def parse_guardian(src: str, raw, keys: set) -> tuple[Guardian, int]:
    if not isinstance(raw, dict):
        _fail(src, "guardian", f"must be an object, got {raw!r}")
    key = raw.get("key")
    if not isinstance(key, str) or not key:
        _fail(src, f"guardian {raw.get('name', '?')!r}", "needs a non-empty string 'key'")
    where = f"guardian {key!r}"
    if key in keys:
        _fail(src, where, "duplicate key")
    keys.add(key)
    known = {"key", "name", "tiles", "dice", "die", "first_strike", "wound_on", "gold", "why"}
    extra = sorted(set(raw) - known)
    if extra:
        _fail(src, where, f"unknown field(s) {', '.join(extra)}; fields: {', '.join(sorted(known))}")
    tiles = _int(src, f"{where}.tiles", raw.get("tiles", 1), 1, 40)
    dice = _int(src, f"{where}.dice", raw.get("dice"), 1, 10)
    die = raw.get("die")
    if die not in DIES:
        _fail(src, f"{where}.die", f"must be one of {', '.join(map(str, DIES))}, got {die!r}")
    fs = raw.get("first_strike", False)
    if not isinstance(fs, bool):
        _fail(src, f"{where}.first_strike", f"must be true or false, got {fs!r}")
    wound = _int(src, f"{where}.wound_on", raw.get("wound_on", 6), 2, 20)
    gold = _int(src, f"{where}.gold", raw.get("gold", 0), 0, 20)
    name = raw.get("name", key)
    return Guardian(key, str(name), dice, die, fs, wound, gold), tiles


def load_cards(event_file=None, treasure_file=None, guardian_file=None, units=None, deck_size: int | None = None
               ) -> CardSet:
    """Read and validate the three content files (None = the shipped ones)."""
    paths = (None if p is None else os.fspath(p) for p in (event_file, treasure_file, guardian_file))
    return _load(*paths, units or UnitTable.published(), deck_size)


@lru_cache(maxsize=32)
def _load(event_file, treasure_file, guardian_file, units, deck_size) -> CardSet:
    """load_cards on plain path strings (cached: every Rules with the same files shares one CardSet)."""
    cards, keys = [], set()
    ev, src = _read(event_file, "events")
    decks_raw = ev.get("decks")
    if not isinstance(decks_raw, dict):
        _fail(src, "decks", "must be an object {realm: [cards]}")
    unknown = sorted(set(decks_raw) - set(REALMS))
    if unknown:
        _fail(src, "decks", f"unknown realm(s) {', '.join(unknown)}; realms: {', '.join(REALMS)}")
    decks = []
    for p, realm in enumerate(REALMS):
        raw = decks_raw.get(realm)
        if not isinstance(raw, list) or not raw:
            _fail(src, f"decks.{realm}", "missing or empty (every realm needs its deck)")
        deck = []
        for c in raw:
            card, copies = parse_card(src, c, "event", p, units, keys)
            cid = len(cards)
            cards.append(card)
            deck += [cid] * copies
        if deck_size is not None and len(deck) != deck_size:
            _fail(src, f"decks.{realm}", f"holds {len(deck)} cards (copies counted), Rules.event_deck_size is "
                  f"{deck_size} (seed: 20 per realm); set Rules.event_deck_size=None to take the file's size")
        decks.append(tuple(deck))
    tr, src = _read(treasure_file, "treasures")
    raw = tr.get("cards")
    if not isinstance(raw, list) or not raw:
        _fail(src, "cards", "must be a non-empty list")
    treasures = []
    for c in raw:
        card, copies = parse_card(src, c, "treasure", -1, units, keys)
        cid = len(cards)
        cards.append(card)
        treasures += [cid] * copies
    gd, src = _read(guardian_file, "guardians")
    raw = gd.get("guardians")
    if not isinstance(raw, list) or not raw:
        _fail(src, "guardians", "must be a non-empty list")
    guardians, supply, gkeys = [], [], set()
    for g in raw:
        guardian, tiles = parse_guardian(src, g, gkeys)
        gid = len(guardians)
        guardians.append(guardian)
        supply += [gid] * tiles
    return CardSet(tuple(cards), tuple(decks), tuple(treasures), tuple(guardians), tuple(supply),
                   (event_file, treasure_file, guardian_file))


def cards_frame(cardset: CardSet | None = None):
    """The cards as a pandas DataFrame (one row per distinct card) for a notebook."""
    cs = cardset or load_cards()
    rows = []
    for cid, c in enumerate(cs.cards):
        copies = sum(1 for d in cs.decks for x in d if x == cid) + sum(1 for x in cs.treasures if x == cid)
        rows.append({"key": c.key, "name": c.name, "kind": c.kind, "realm": REALMS[c.realm] if c.realm >= 0 else "",
                     "copies": copies, "timing": c.timing, "phase": c.phase or "", "vp": c.vp,
                     "effects": "; ".join(map(str, c.effects))})
    return pd.DataFrame(rows)
