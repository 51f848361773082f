"""Hand-built positions: set up exactly the board and the turn you want to look at.

    from nerathsim import Rules
    from nerathsim.scenario import build_state, region, act

    rules = Rules(map="small", mode="free_for_all")
    s = build_state(
        rules,
        units={"Kmarch": {"karkoth": "3 footsoldier, 1 monster"},        # text or {unit: count}
               "Vmarch": {"vailin": {"footsoldier": 1}},
               "Kar": {"karkoth": "castle"}},
        ships=[("vailin", "Inner Sea", ["footsoldier", "fighter"])],     # (realm, sea, cargo)
        owner={"Isle": "karkoth"},                                       # changes to the starting owners
        gold={"karkoth": 7},
        realm="karkoth",                                                 # whose turn it is
    )
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2)                 # regions and units by name

Conventions:

* The board starts EMPTY (no units, no castles) unless `keep_start=True`; `owner` starts as the
  map's starting owners. Castles are units: give them as "castle" in `units`.
* The position is the start of `realm`'s movement phase (phase 1 is skipped: no card is drawn).
  "Held since the start of the turn" (placement) means held in the position you build.
  `phase="buy"` starts at the reinforcement phase instead (after an empty regroup).
* Event decks are the realms' decks of `rules.cards` in file order (the top card, drawn first, is the
  last); `hands` gives cards in hand by key (`{"nerath": ["nerath_dwarven_muster"]}`) — an immediate
  card there must be played at the start of the turn. `guardians={"Crypt": ["medusa"]}` puts guardian
  tokens (face down) on dungeons; `treasure_deck=[keys]` sets the treasure deck (last = drawn first),
  otherwise it is the shipped treasures in file order. A kept card playable in the movement phase
  makes the position start at that window (PH_EVENT; `act(s, "Pass")` goes on to the moves).
* Statistics start at zero; with `record=True` the log starts empty.
* `act(state, kind, *args, rng=...)` builds an action with region names and applies it through
  `apply_action` (so an illegal one raises IllegalActionError); it returns the action.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from simcore.frames import drive

from . import engine as E
from . import game_actions as A
from .engine.common import _new_ship
from .engine.movement import _start_regroup, _turn_windows
from .engine.reinforce import _start_buy
from .engine.setup import _blank_state
from .engine.turn import _ready_to_move, _turn_start_marks
from .maps import REALMS
from .rules import Rules

__all__ = ["build_state", "region", "realm_index", "act", "action", "units_at", "cargo_of", "card_id", "guardian_id"]


def realm_index(name) -> int:
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < 4:
        return name
    if isinstance(name, str) and name.strip().lower() in REALMS:
        return REALMS.index(name.strip().lower())
    raise ValueError(f"unknown realm {name!r}; realms: {', '.join(REALMS)}")


def region(rules_or_state, name) -> int:
    board = rules_or_state.board
    return board.region(name)


def _counts(rules: Rules, spec, label: str) -> list:
    t = E.tables(rules)
    out = [0] * t.U
    if isinstance(spec, str):
        parsed = rules.units.parse_army(spec, label)
    elif isinstance(spec, Mapping):
        parsed = rules.units.parse_army(dict(spec), label) if spec else {}
    else:
        raise ValueError(f"{label}: units must be text like '2 footsoldier, castle' or a dict, got {spec!r}")
    for name, c in parsed.items():
        out[t.idx[name]] = c
    return out


def build_state(rules: Rules, *, units=None, ships=(), owner=None, gold=None, vp=None, realm="karkoth",
                hands=None, phase: str = "movement", keep_start: bool = False, round: int = 0,
                record: bool = False, seed=0, guardians=None, treasure_deck=None) -> E.State:
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nerathsim Rules, got {type(rules).__name__}")
    rng = np.random.default_rng(seed)
    if keep_start:
        s = E.new_game(rules, rng, record=record)
        s.log = [] if record else None
    else:
        s = _blank_state(rules, record)
    b, t = s.board, s.tab
    cs = s.cards
    if not keep_start:
        for p in range(4):
            s.decks[p] = list(cs.decks[p]) if cs is not None and rules.events else []
            s.hands[p], s.must_play[p] = [], []
        if cs is not None and rules.dungeons:
            s.treasure_deck, s.supply, s.guardians = list(cs.treasures), list(cs.supply), {}
    if treasure_deck is not None:
        s.treasure_deck = [card_id(s, k) for k in treasure_deck]
    for name, keys in (guardians or {}).items():
        r = b.region(name)
        if not b.is_dungeon[r]:
            raise ValueError(f"guardians: {b.names[r]!r} is not a dungeon")
        gids = [guardian_id(s, k) for k in keys]
        s.guardians[r] = gids
        for g in gids:
            if g in s.supply:
                s.supply.remove(g)
        if not gids:
            del s.guardians[r]
    for name, who in (owner or {}).items():
        r = b.region(name)
        if b.is_sea[r] or b.is_dungeon[r]:
            raise ValueError(f"owner: {b.names[r]!r} is not a land region a realm can hold")
        s.owner[r] = realm_index(who)
    for name, per_realm in (units or {}).items():
        r = b.region(name)
        if not isinstance(per_realm, Mapping):
            raise ValueError(f"units[{name!r}] must map realms to units, e.g. {{'karkoth': '2 footsoldier'}}")
        for who, spec in per_realm.items():
            p = realm_index(who)
            counts = _counts(rules, spec, f"units[{name!r}][{who!r}]")
            for u, c in enumerate(counts):
                if not c:
                    continue
                if b.is_sea[r] and not t.flyer[u]:
                    raise ValueError(f"units[{name!r}]: {t.names[u]} at sea must be a warship or cargo — "
                                     f"use ships=[(realm, sea, cargo)]")
                if not b.is_sea[r] and t.ship[u]:
                    raise ValueError(f"units[{name!r}]: {t.names[u]} cannot stand on land")
                s.units[r][p][u] += c
                s._touched.append(r)
    for item in ships:
        if isinstance(item, Mapping):
            who, where, cargo = item["realm"], item["region"], item.get("cargo", ())
            kind = item.get("unit", None)
        else:
            who, where, cargo = item[0], item[1], item[2] if len(item) > 2 else ()
            kind = item[3] if len(item) > 3 else None
        p = realm_index(who)
        r = b.region(where)
        if not b.is_sea[r]:
            raise ValueError(f"ships: {b.names[r]!r} is not a sea region")
        su = t.idx[rules.units.canonical(kind)] if kind else next(u for u in range(t.U) if t.ship[u])
        cargo_u = [t.idx[rules.units.canonical(c)] for c in cargo]
        if len(cargo_u) > t.capacity[su]:
            raise ValueError(f"ships: a {t.names[su]} carries at most {t.capacity[su]} land units, got {list(cargo)}")
        for u in cargo_u:
            if not t.land[u]:
                raise ValueError(f"ships: {t.names[u]} cannot be cargo (land units only)")
        sh = _new_ship(s, p, su, r)
        sh.cargo = cargo_u
    for who, g in (gold or {}).items():
        s.gold[realm_index(who)] = int(g)
    for who, v in (vp or {}).items():
        s.vp[realm_index(who)] = int(v)
    for who, cards in (hands or {}).items():
        p = realm_index(who)
        ids = [card_id(s, c) for c in cards]
        s.hands[p] = ids
        s.must_play[p] = [c for c in ids if s.cards.cards[c].timing == "immediate"]
        for c in ids:
            if c in s.decks[p]:
                s.decks[p].remove(c)
    s.realm = realm_index(realm)
    s.turn_pos = rules.order.index(s.realm)
    s.round = round
    s.stats = {k: [0] * 4 for k in E.REALM_STATS}
    s.spent = [[0] * t.U for _ in range(4)]
    s.is_terminal, s.winner, s.timed_out = False, None, False
    _start_movement(s)
    if phase == "buy":
        _start_regroup(s)
        s.mob = {}
        s.stack = E.turn_plan(s.realm, s.seat_of[s.realm])[:3]     # income, moving the new units, buying (on top)
        _start_buy(s)
    elif phase == "movement":
        s.win_done = set()
        _turn_windows(s)
    else:
        raise ValueError(f"phase must be 'movement' or 'buy', got {phase!r}")
    s._legal = None
    drive(s, rng)
    return s


def _start_movement(s: E.State) -> None:
    """_start_turn without the card draw."""
    p = s.realm
    _turn_start_marks(s, p)
    s.current_player, s.decider = s.seat_of[p], p
    s.phase, s.mode = E.PH_MOVE, E.M_MOVE
    s.sites, s.battle = [], None
    s.stack = E.turn_plan(p, s.seat_of[p])
    _ready_to_move(s, p)


def card_id(state: E.State, key) -> int:
    """The id of a card given by key (or id)."""
    if isinstance(key, int) and not isinstance(key, bool) and state.cards is not None:
        return key
    return _key_id(state, key, "cards", "Rules.events and Rules.dungeons are off")


def guardian_id(state: E.State, key) -> int:
    return _key_id(state, key, "guardians", "Rules.dungeons is off")


def _key_id(state: E.State, key, what: str, off: str) -> int:
    """The index of the card or guardian (`what`: the CardSet's list) with this key."""
    if state.cards is None:
        raise ValueError(f"this game has no {what} ({off})")
    items = getattr(state.cards, what)
    for i, c in enumerate(items):
        if c.key == key:
            return i
    raise ValueError(f"unknown {what[:-1]} {key!r}; {what}: {', '.join(c.key for c in items)}")


_KINDS = {cls.__name__: cls for cls in A.ACTION_TYPES}


def action(state: E.State, kind: str, *args):
    """An action from region and unit names: action(s, "Move", "Kar", "Kmarch", "footsoldier", 2)."""
    cls = _KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown action kind {kind!r}; kinds: {', '.join(_KINDS)}")
    b = state.board
    fields = cls._fields
    vals = []
    for f, v in zip(fields, args):
        if f in ("src", "dst", "region", "at", "target", "source") and isinstance(v, str):
            v = b.region(v)
        elif f == "card" and isinstance(v, str):
            v = card_id(state, v)
        elif f == "unit" and isinstance(v, str):
            dmg = v.lower().startswith("damage:")          # Hit("damage:dragon"): a wound, not a kill
            v = ("damage:" if dmg else "") + state.rules.units.canonical(v[len("damage:"):] if dmg else v)
        vals.append(v)
    defaults = getattr(cls, "_field_defaults", {})
    while len(vals) < len(fields) and fields[len(vals)] in defaults:
        vals.append(defaults[fields[len(vals)]])
    if len(vals) != len(fields):
        raise ValueError(f"{kind} takes {', '.join(fields) or 'no arguments'}; got {args!r}")
    return cls(*vals)


def act(state: E.State, kind: str, *args, rng=None):
    """Build the action with names and apply it (validated); returns the action."""
    a = action(state, kind, *args)
    E.apply_action(state, a, rng if rng is not None else np.random.default_rng(0))
    return a


def units_at(state: E.State, name, realm) -> dict:
    """{unit: count} of `realm` standing at region `name` (cargo not included)."""
    r = state.board.region(name)
    p = realm_index(realm)
    t = state.tab
    return {t.names[u]: c for u, c in enumerate(state.units[r][p]) if c}


def cargo_of(state: E.State, ship_id: int) -> list:
    sh = state.ship(ship_id)
    return [] if sh is None else [state.tab.names[u] for u in sh.cargo]
