"""A table of solved battle odds, keyed by value: the battle rules' fingerprint and the two armies.

`solved_attacker_wins(brules, att, dfd, at_sea)` is P(attacker wins) of `odds.battle_odds` (exact,
the default casualty orders, no retreat) for per-unit count tuples in the unit table's order. It is
a pure function of its arguments: the table only remembers answers, so whoever asks first (a
policy, another policy, an earlier game) changes no answer, only the time it takes. That is why
it may live at module level (docs/ARCHITECTURE.md §6 item 3: module-level caches are keyed by
value and hold maths only); the policies never write to it, they call the function.

The key is `(rules_key(brules), att, dfd, at_sea)`: `rules_key` hashes the battle rules'
fingerprint (`ingame.fingerprint`: every unit's numbers and every battle-rule knob) together with
the battles' `RULES_VERSION`, so a changed unit price, hit threshold or castle mode, or a new
version of the battle rules, never reads another rule set's odds.

The process-wide table is `SHARED` (bounded: emptied when it reaches `max_size` entries). It can be
kept on disk between processes with `SHARED.save(path)` and `SHARED.load(path)` (JSON, gzipped when
the name ends in .gz; entries of another table version are ignored, floats round-trip exactly), e.g.
to start worker processes warm.

The table also keeps the dungeon fights' solved chances (`fight`: `dungeons.fight_chance`, keyed by
`fight_key`: the battle rules' key, every number of the guardians, the heroes and the guardians' dice
left), so that one file holds every exact answer a game's policies ask for.

The package ships such a file, `SHIPPED` (nerathsim/data/odds/solved.json.gz, made by
`nerathsim/data/odds/build_odds.py` from seeded games whose seeds no benchmark plays): `SHARED` reads
it on its first miss, so a fresh process makes no exact solve for the armies those games met. Its
entries are keyed like every other (rules key included): other battle rules never read them, and a new
battle `RULES_VERSION` or `TABLE_VERSION` makes them unreachable until the file is rebuilt
(`test_the_shipped_table_answers_what_the_solvers_say` re-solves a sample of them).
"""
from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
from pathlib import Path

from . import exact
from . import ingame as gb
from .army import start_battle
from .casualties import resolve_casualties
from .rules import RULES_VERSION, BattleRules

#: bumped when the meaning of a stored entry changes (the solver's settings, the key's layout)
TABLE_VERSION = 1
#: a stored answer for armies the exact solver refuses (`battle_odds` raised ValueError)
UNSOLVABLE = None


def rules_key(brules: BattleRules) -> str:
    """16 hex digits naming these battle rules (fingerprint + battle RULES_VERSION); equal for equal rules."""
    fp = gb.fingerprint(brules)
    got = _RULES_KEYS.get(fp)
    if got is None:
        got = _RULES_KEYS[fp] = hashlib.sha256(f"{RULES_VERSION}\n{fp}".encode()).hexdigest()[:16]
    return got


_RULES_KEYS: dict = {}     # fingerprint text -> its hash (keyed by value; a few rule sets per process)


def solve(brules: BattleRules, att: tuple, dfd: tuple, at_sea: bool) -> float | None:
    """P(attacker wins) from the exact solver, or UNSOLVABLE when it refuses these armies.

    `battle_odds(a, d, at_sea=at_sea, rules=brules).attacker_wins` to the last bit (the same set-up, the
    same chain, the same sum of the won end states: `exact.attacker_wins_sum`), without the BattleOdds
    figures nobody asked for (`test_the_odds_table_answers_exactly_what_the_battle_calculator_says`,
    `test_nerath_shortcuts_odds_sum_reachers.py`)."""
    names = brules.units.names
    a = {names[u]: c for u, c in enumerate(att) if c}
    d = {names[u]: c for u, c in enumerate(dfd) if c}
    try:
        state = start_battle(a, d, at_sea, brules)
        return exact.attacker_wins_sum(state, brules, resolve_casualties(None, state, brules), exact.DEFAULT_PRUNE)
    except ValueError:
        return UNSOLVABLE


def fight_key(brules: BattleRules, guardians: tuple, heroes: tuple, guardian_dice: tuple | None) -> tuple:
    """The table's key of a dungeon fight (`dungeons.fight_chance`'s arguments as plain values): the
    battle rules' key, every field of each guardian, the heroes and the guardians' dice left."""
    return (rules_key(brules), tuple(dataclasses.astuple(g) for g in guardians), heroes, guardian_dice)


def _tuples(x):
    return tuple(_tuples(v) for v in x) if type(x) is list else x


class OddsTable:
    """Solved odds by (rules key, attacker counts, defender counts, at sea), and solved dungeon fights by
    `fight_key` (`fights`); `solves` counts the exact solves it made (its misses). `shipped`: a file of
    entries (`save`'s format) read on the first miss (`SHIPPED` for the process-wide table)."""

    __slots__ = ("entries", "fights", "max_size", "solves", "shipped")

    def __init__(self, max_size: int = 100_000, shipped: Path | None = None):
        self.entries: dict = {}
        self.fights: dict = {}
        self.max_size = max_size
        self.solves = 0
        self.shipped = shipped

    def _read_shipped(self) -> bool:
        """Read the shipped file once (True when it added something to look up again)."""
        path, self.shipped = self.shipped, None
        return path is not None and path.exists() and self.load(path) > 0

    def attacker_wins(self, brules: BattleRules, att: tuple, dfd: tuple, at_sea: bool) -> float | None:
        """P(attacker wins) (exact), solved on the first ask; UNSOLVABLE for armies the solver refuses."""
        key = (rules_key(brules), att, dfd, at_sea)
        entries = self.entries
        if key in entries:
            return entries[key]
        if self.shipped is not None and self._read_shipped() and key in entries:
            return entries[key]
        p = solve(brules, att, dfd, at_sea)
        self.solves += 1
        if len(entries) >= self.max_size:
            entries.clear()
        entries[key] = p
        return p

    def fight(self, key: tuple, solve_fight) -> float:
        """The dungeon fight's chance stored under `key` (`fight_key`), or `solve_fight()` stored there."""
        fights = self.fights
        got = fights.get(key)
        if got is not None:
            return got
        if self.shipped is not None and self._read_shipped():
            got = fights.get(key)
            if got is not None:
                return got
        p = solve_fight()
        self.solves += 1
        if len(fights) >= self.max_size:
            fights.clear()
        fights[key] = p
        return p

    def clear(self) -> None:
        self.entries.clear()
        self.fights.clear()

    def __len__(self) -> int:
        return len(self.entries)

    def save(self, path) -> None:
        """Write every entry to `path` (JSON; gzipped when the name ends in .gz), atomically."""
        path = Path(path)
        rows = [[k, list(a), list(d), s, p] for (k, a, d, s), p in self.entries.items()]
        fights = [[k, [list(g) for g in gs], [list(h) for h in heroes], None if dice is None else [list(x) for x in dice], p]
                  for (k, gs, heroes, dice), p in self.fights.items()]
        text = json.dumps({"table_version": TABLE_VERSION, "entries": rows, "fights": fights})
        tmp = path.with_name(path.name + ".tmp")
        if path.name.endswith(".gz"):
            tmp.write_bytes(gzip.compress(text.encode(), mtime=0))
        else:
            tmp.write_text(text)
        tmp.replace(path)

    def load(self, path) -> int:
        """Add the entries stored at `path` (written by `save`); returns how many were added (0 for a
        file of another table version)."""
        path = Path(path)
        raw = path.read_bytes()
        data = json.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)
        if data.get("table_version") != TABLE_VERSION:
            return 0
        added = 0
        for k, a, d, s, p in data["entries"]:
            if len(self.entries) >= self.max_size:
                break
            key = (k, tuple(a), tuple(d), bool(s))
            if key not in self.entries:
                self.entries[key] = None if p is None else float(p)
                added += 1
        for k, gs, heroes, dice, p in data.get("fights", ()):
            if len(self.fights) >= self.max_size:
                break
            key = (k, _tuples(gs), _tuples(heroes), None if dice is None else _tuples(dice))
            if key not in self.fights:
                self.fights[key] = float(p)
                added += 1
        return added

    def __repr__(self):
        return f"OddsTable({len(self.entries)} entries, {len(self.fights)} fights, {self.solves} exact solves)"


#: the table of solved odds shipped with the package (see the module docstring)
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "odds" / "solved.json.gz"
#: the process-wide table every caller shares (see the module docstring)
SHARED = OddsTable(shipped=SHIPPED)


def solved_attacker_wins(brules: BattleRules, att: tuple, dfd: tuple, at_sea: bool) -> float | None:
    """P(attacker wins) (exact) from the shared table: `SHARED.attacker_wins`."""
    return SHARED.attacker_wins(brules, att, dfd, at_sea)
