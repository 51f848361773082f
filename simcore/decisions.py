"""A reading the lab chose where a rulebook is silent, as plain data (each game's `decisions.py` lists
its own): a `Rules` field whose default is the reading played, and the other values a designer may want
to try. A sensitivity analysis re-measures a finding under each alternative (`Rules` with that one
field changed). Each game subclasses `Decision` and names its `Rules` class (`RULES`), the published
game that `baseline()` and `variants()` start from when no rules are given."""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Decision:
    """One reading: `field` of `Rules` plays the default; `alternatives` are the other values."""

    id: str                 # the id in the game's RULES.md (D-...)
    field: str              # the Rules field
    alternatives: tuple     # the other readings (Rules values)
    summary: str            # one line: what the default reading is
    requires: tuple = ()    # (field, value) pairs without which the reading changes nothing
    evidence: str = ""      # where the default comes from, e.g. "text", "facts", "box" or "chosen"

    RULES = None            # the game's Rules class (a class attribute of each game's subclass)

    def baseline(self, rules=None):
        """`rules` (default: the published game) with the `requires` fields set: the default reading as
        the comparison plays it."""
        base = rules if rules is not None else type(self).RULES()
        return replace(base, **dict(self.requires)) if self.requires else base

    def variants(self, rules=None) -> list:
        """The baseline with this field set to each alternative."""
        base = self.baseline(rules)
        return [replace(base, **{self.field: alt}) for alt in self.alternatives]
