"""Steps 1, 2, 4 and 5 of one round of the seed's battle procedure (the reference
implementation; part 2 of 4, see `army`): the dice each side rolls, one round of steps 1–3
(`fight_round`, step 3 by `casualties`), the attacker's choice to press on or retreat
(`Retreat`, `press_or_retreat`) and the result (`battle_result`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .army import Army, BattleState, Situation, health, is_wiped_out
from .casualties import CasualtyChoice, CasualtyPlan, assign_hits
from .dice import hit_probability
from .rules import BattleRules


def dice_pool(army: Army, situation: Situation, first_strike: bool) -> dict[int, int]:
    """{die sides: number of dice} rolled by this side in the first-strike or the other-attacks step.

    Seed: wizards roll in step 1 ("De slår med terningerne før alle andre tropper"), all other
    units in step 2. A damaged dragon still rolls unless rules.damaged_units_fight is False;
    a silenced castle does not; in 'never_hit' mode a castle rolls only while other units
    of its side remain.
    """
    rules = situation.rules
    side_alive = None
    pool: dict[int, int] = {}
    for name, damage, count in army.groups:
        unit = situation.unit(name)
        if unit.first_strike != first_strike or not situation.fights(unit):
            continue
        if damage >= unit.hits_to_kill:
            continue
        if damage > 0 and not rules.damaged_units_fight:
            continue
        if unit.captured and rules.castle_mode == "never_hit":
            if side_alive is None:
                side_alive = health(army, situation) > 0
            if not side_alive:
                continue
        n = unit.dice(situation.role, situation.at_sea) * count
        if n:
            pool[unit.die] = pool.get(unit.die, 0) + n
    return pool


def roll_hits(army: Army, situation: Situation, rng: np.random.Generator, first_strike: bool) -> int:
    """Seed: "Man rammer ved at slå en 6'er eller mere med terningen" — hits of one step's roll.

    One binomial draw per die size, smallest die first (so a seed replays the same battle).
    """
    pool = dice_pool(army, situation, first_strike)
    threshold = situation.rules.threshold(situation.role)
    return sum(int(rng.binomial(pool[die], hit_probability(die, threshold))) for die in sorted(pool))


@dataclass(frozen=True)
class RoundReport:
    state: BattleState
    first_strike_hits: tuple[int, int]  # (scored by attacker, scored by defender)
    hits: tuple[int, int]               # step 2, same order


def fight_round(state: BattleState, rng: np.random.Generator, rules: BattleRules,
                casualties: tuple[CasualtyChoice, CasualtyChoice]) -> RoundReport:
    """Steps 1–3 of one round.

    1. First strike: "Hvis både forsvareren og angriberen har tropper med first strike, slår de
       samtidig", and "de tropper, de rammer, fjernes, inden de har mulighed for at slå tilbage".
    2. Roll other attacks: "Forsvareren og angriberen slår samtidig og tæller antallet af hits."
    3. Take damage: each owner assigns the hits it took (`casualties` = (attacker's, defender's)).
    """
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    a, d = state.attacker, state.defender
    fa = roll_hits(a, sa, rng, first_strike=True)
    fd = roll_hits(d, sd, rng, first_strike=True)
    a, d = _take(a, fd, casualties[0], sa), _take(d, fa, casualties[1], sd)
    ha = roll_hits(a, sa, rng, first_strike=False)
    hd = roll_hits(d, sd, rng, first_strike=False)
    a, d = _take(a, hd, casualties[0], sa), _take(d, ha, casualties[1], sd)
    new = BattleState(a, d, state.at_sea, state.round + 1, False)
    return RoundReport(new, (fa, fd), (ha, hd))


def _take(army: Army, hits: int, choice: CasualtyChoice, situation: Situation) -> Army:
    if hits == 0:
        return army
    if isinstance(choice, CasualtyPlan):
        return assign_hits(army, hits, choice, situation)
    before = health(army, situation)
    after_army = choice(army, hits, situation)
    after = health(after_army, situation)
    if after > max(0, before - hits) or after_army.size > army.size:
        raise ValueError(f"casualty choice did not assign {hits} hit(s) to {army}: got {after_army}")
    return after_army


@dataclass(frozen=True)
class Retreat:
    """Step 4, the attacker's rule for pressing on: retreat as soon as any trigger fires.

    after_rounds: retreat after this many rounds;
    below_win_chance: retreat when the attacker's exact chance of winning by fighting on to
      the end (from the current casualties) is below this;
    at_units: retreat when the attacker has this many units or fewer.
    All None = never retreat.
    """

    after_rounds: int | None = None
    below_win_chance: float | None = None
    at_units: int | None = None

    def __post_init__(self):
        for name in ("after_rounds", "at_units"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < (1 if name == "after_rounds" else 0)):
                low = 1 if name == "after_rounds" else 0
                raise ValueError(f"Retreat.{name} must be an integer >= {low} or None, got {v!r}")
        w = self.below_win_chance
        if w is not None and (isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 <= w <= 1):
            raise ValueError(f"Retreat.below_win_chance must be a probability in [0, 1] or None, got {w!r}")

    @classmethod
    def parse(cls, spec) -> Retreat:
        """None/'never', a Retreat, or text like 'after:3', 'below:0.4', 'units:2', 'after:3,units:1'."""
        if spec is None or isinstance(spec, Retreat):
            return spec or cls()
        if not isinstance(spec, str):
            raise ValueError(f"retreat must be None, a Retreat or text like 'after:3', got {spec!r}")
        if spec.strip().lower() in ("", "never", "none"):
            return cls()
        keys = {"after": "after_rounds", "below": "below_win_chance", "units": "at_units"}
        values = {}
        for part in spec.split(","):
            key, _, value = part.strip().partition(":")
            field_name = keys.get(key.strip().lower())
            if field_name is None or not value.strip():
                raise ValueError(f"cannot read retreat rule {part.strip()!r}; use after:N, below:P or units:K")
            try:
                values[field_name] = float(value) if field_name == "below_win_chance" else int(value)
            except ValueError:
                raise ValueError(f"cannot read retreat rule {part.strip()!r}: {value.strip()!r} is not a number") from None
        return cls(**values)

    @property
    def never(self) -> bool:
        return self.after_rounds is None and self.below_win_chance is None and self.at_units is None

    def triggered(self, state: BattleState, win_chance: Callable[[], float] | None = None) -> bool:
        """Does the attacker retreat now (after a round, both sides still standing)?"""
        if self.after_rounds is not None and state.round >= self.after_rounds:
            return True
        if self.at_units is not None and state.attacker.size <= self.at_units:
            return True
        if self.below_win_chance is not None:
            if win_chance is None:
                raise ValueError("Retreat.below_win_chance needs the attacker's win chance")
            return win_chance() < self.below_win_chance
        return False

    def __str__(self) -> str:
        if self.never:
            return "never"
        parts = []
        if self.after_rounds is not None:
            parts.append(f"after {self.after_rounds} round(s)")
        if self.below_win_chance is not None:
            parts.append(f"win chance < {self.below_win_chance:.0%}")
        if self.at_units is not None:
            parts.append(f"at {self.at_units} unit(s) or fewer")
        return " or ".join(parts)


def both_standing(state: BattleState, rules: BattleRules) -> bool:
    return not (is_wiped_out(state.attacker, state.situation("attacker", rules))
                or is_wiped_out(state.defender, state.situation("defender", rules)))


def press_or_retreat(state: BattleState, retreat: bool) -> BattleState:
    """Step 4: "Hvis begge sider fortsat har enheder tilbage ... bestemmer angriberen nu, om kampen
    fortsætter, eller om han trækker sig tilbage." (The caller asks only while both stand.)"""
    return BattleState(state.attacker, state.defender, state.at_sea, state.round, bool(retreat))


def battle_result(state: BattleState, rules: BattleRules) -> str | None:
    """Step 5, or None while the battle goes on.

    "Forsvareren vinder, hvis angriberen trækker sig, eller samtlige tropper på feltet er blevet
    udslettet. Angriberen vinder, hvis samtlige forsvarens tropper er blevet udslettet, og
    angriberen har mindst en trop tilbage." Both sides wiped out is reported as 'draw'.
    """
    if state.retreated:
        return "defender_wins"
    a_out = is_wiped_out(state.attacker, state.situation("attacker", rules))
    d_out = is_wiped_out(state.defender, state.situation("defender", rules))
    if a_out and d_out:
        return "draw"
    if d_out:
        return "attacker_wins"
    if a_out:
        return "defender_wins"
    return None
