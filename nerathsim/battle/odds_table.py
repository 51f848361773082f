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
kept on disk between processes with `SHARED.save(path)` and `SHARED.load(path)` (JSON; entries of
another table version are ignored, floats round-trip exactly), e.g. to start worker processes warm.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from . import exact
from . import ingame as gb
from .army import start_battle
from .casualties import resolve_casualties
from .outcomes import ATTACKER_WINS
from .rules import RULES_VERSION, BattleRules
from .steps import Retreat

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
    same end-state table, the same sum), without the BattleOdds figures nobody asked for
    (`test_the_odds_table_answers_exactly_what_the_battle_calculator_says`)."""
    names = brules.units.names
    a = {names[u]: c for u, c in enumerate(att) if c}
    d = {names[u]: c for u, c in enumerate(dfd) if c}
    try:
        state = start_battle(a, d, at_sea, brules)
        table = exact.solve(state, brules, resolve_casualties(None, state, brules), Retreat.parse(None),
                            exact.DEFAULT_PRUNE)
    except ValueError:
        return UNSOLVABLE
    return float(table.prob[table.outcome == ATTACKER_WINS].sum())


class OddsTable:
    """Solved odds by (rules key, attacker counts, defender counts, at sea); `solves` counts the exact
    solves it made (its misses)."""

    __slots__ = ("entries", "max_size", "solves")

    def __init__(self, max_size: int = 100_000):
        self.entries: dict = {}
        self.max_size = max_size
        self.solves = 0

    def attacker_wins(self, brules: BattleRules, att: tuple, dfd: tuple, at_sea: bool) -> float | None:
        """P(attacker wins) (exact), solved on the first ask; UNSOLVABLE for armies the solver refuses."""
        key = (rules_key(brules), att, dfd, at_sea)
        entries = self.entries
        if key in entries:
            return entries[key]
        p = solve(brules, att, dfd, at_sea)
        self.solves += 1
        if len(entries) >= self.max_size:
            entries.clear()
        entries[key] = p
        return p

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)

    def save(self, path) -> None:
        """Write every entry to `path` (JSON), atomically."""
        path = Path(path)
        rows = [[k, list(a), list(d), s, p] for (k, a, d, s), p in self.entries.items()]
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"table_version": TABLE_VERSION, "entries": rows}))
        tmp.replace(path)

    def load(self, path) -> int:
        """Add the entries stored at `path` (written by `save`); returns how many were added (0 for a
        file of another table version)."""
        data = json.loads(Path(path).read_text())
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
        return added

    def __repr__(self):
        return f"OddsTable({len(self.entries)} entries, {self.solves} exact solves)"


#: the process-wide table every caller shares (see the module docstring)
SHARED = OddsTable()


def solved_attacker_wins(brules: BattleRules, att: tuple, dfd: tuple, at_sea: bool) -> float | None:
    """P(attacker wins) (exact) from the shared table: `SHARED.attacker_wins`."""
    return SHARED.attacker_wins(brules, att, dfd, at_sea)
