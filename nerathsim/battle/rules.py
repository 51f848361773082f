"""`BattleRules`: every battle-rule knob of Conquest of Nerath; the defaults are the published game.

Fields that settle a gap of the seed name the gap in their comment; RULES.md gives the
reasoning. Change a field with ``dataclasses.replace(BattleRules(), castle_mode="never_hit")``.
The full game's `Rules` (a later issue) embeds a `BattleRules`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from .units import UnitTable

#: bumped whenever battle behaviour changes; printed by the calculators.
RULES_VERSION = "nerath-battles-3"

CASTLE_MODES = ("absorbs_hit", "never_hit")
GUARDIAN_WOUNDS = ("per_monster", "strongest")


@dataclass(frozen=True)
class BattleRules:
    # --- the published game ---------------------------------------------------------------
    units: UnitTable = field(default_factory=UnitTable.published)  # seed price table + facts §1.1
    hit_threshold: int = 6          # seed: "Man rammer ved at slå en 6'er eller mere"
    # --- gaps in the seed, decided (see RULES.md) ------------------------------------------
    castle_mode: str = "absorbs_hit"  # gap: how hits against a castle work
    damaged_units_fight: bool = True  # gap: does a dragon on its side still roll?
    # --- per-side thresholds (dungeon guardians "kræver 7+ eller 8+ for at blive såret") -------
    attacker_hit_threshold: int | None = None   # None = hit_threshold; the roll the attacker needs
    defender_hit_threshold: int | None = None   # None = hit_threshold; the roll the defender needs
    # --- dungeon guardians of different wound values in one fight (gap D1, RULES.md Part III) ----
    guardian_wounds: str = "per_monster"  # text: each monster "kræver 7+ eller 8+ … for at blive såret";
                                          # "strongest": every hero die needs the highest (nerath-battles-2)

    def __post_init__(self):
        if not isinstance(self.units, UnitTable):
            raise ValueError(f"BattleRules.units must be a UnitTable, got {self.units!r}")
        t = self.hit_threshold
        if isinstance(t, bool) or not isinstance(t, int) or t < 1:
            raise ValueError(f"BattleRules.hit_threshold must be a positive integer, got {t!r}")
        for name in ("attacker_hit_threshold", "defender_hit_threshold"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ValueError(f"BattleRules.{name} must be a positive integer or None, got {v!r}")
        if self.castle_mode not in CASTLE_MODES:
            raise ValueError(f"BattleRules.castle_mode must be one of {', '.join(CASTLE_MODES)}, "
                             f"got {self.castle_mode!r}")
        if self.guardian_wounds not in GUARDIAN_WOUNDS:
            raise ValueError(f"BattleRules.guardian_wounds must be one of {', '.join(GUARDIAN_WOUNDS)}, "
                             f"got {self.guardian_wounds!r}")
        if not isinstance(self.damaged_units_fight, bool):
            raise ValueError(f"BattleRules.damaged_units_fight must be True or False, got {self.damaged_units_fight!r}")

    def __hash__(self):
        """The dataclass hash (of the fields, in order), worked out once per object: the battle maths'
        caches (`dungeons.fight_chance`, ...) are keyed by the rules, whose unit table is slow to hash."""
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self):
        """Only the fields travel (the hash of strings differs between processes: it is worked out again)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)

    def threshold(self, role: str) -> int:
        """The roll a die of `role` ('attacker'/'defender') needs to hit."""
        v = self.attacker_hit_threshold if role == "attacker" else self.defender_hit_threshold
        return self.hit_threshold if v is None else v

    def p_hit(self, unit_name: str) -> float:
        """P(one die of this unit hits)."""
        return self.units[unit_name].hit_probability(self.hit_threshold)

    def to_dict(self) -> dict:
        """Plain-value view for metadata (the unit table as {name: {field: value}})."""
        return {
            "units": {u.name: {k: v for k, v in vars(u).items() if k != "name"} for u in self.units.units},
            "hit_threshold": self.hit_threshold,
            "castle_mode": self.castle_mode,
            "damaged_units_fight": self.damaged_units_fight,
            "guardian_wounds": self.guardian_wounds,
            **({"attacker_hit_threshold": self.attacker_hit_threshold}
               if self.attacker_hit_threshold is not None else {}),
            **({"defender_hit_threshold": self.defender_hit_threshold}
               if self.defender_hit_threshold is not None else {}),
        }
