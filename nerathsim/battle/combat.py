"""A whole battle by the seed's procedure, step by step (the reference implementation; part 4
of 4, see `army`).

The full game reuses the pieces: `army.start_battle` checks the armies, `steps.fight_round` plays
steps 1–3 with a `numpy.random.Generator` passed in, `steps.press_or_retreat` is step 4 and
`steps.battle_result` step 5. Who takes the hits (`casualties.CasualtyOrder` or any callable) and
whether to retreat (`steps.Retreat` or any callable) are pluggable. `resolve_battle` plays a whole
battle.

The calculators (`exact`, `monte_carlo`, `kernel`) implement the same rules for many battles at
once; the tests check them against each other.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .army import ROLES, Army, BattleState, is_wiped_out, start_battle
from .casualties import resolve_casualties
from .exact import attacker_win_chance
from .rules import BattleRules
from .steps import Retreat, battle_result, both_standing, fight_round, press_or_retreat
from .units import UnitTable


@dataclass(frozen=True)
class BattleReport:
    """The end of one battle: outcome, rounds and the armies left afterwards (healed)."""

    outcome: str
    rounds: int
    retreated: bool
    attacker: dict          # survivors {unit: count}, healed
    defender: dict          # survivors still the defender's
    captured: dict          # defender's units taken over by the attacker (castles)
    state: BattleState      # the final state, damage still marked
    log: tuple = ()         # RoundReports when record=True
    start: BattleState | None = None   # the state before round 1

    def gold_lost(self, role: str, rules: BattleRules) -> int:
        """Price of the side's army before the battle minus that of what it still has (a captured
        castle is the defender's loss; healed dragons cost nothing)."""
        if role not in ROLES:
            raise ValueError(f"role must be 'attacker' or 'defender', got {role!r}")
        table = rules.units
        before = table.cost(self.start.army(role).counts())
        return before - table.cost(self.attacker if role == "attacker" else self.defender)


def end_of_battle(state: BattleState, outcome: str, rules: BattleRules) -> tuple[dict, dict, dict]:
    """Survivors after the battle: dragons heal, silenced castles are repaired, and a castle
    whose defenders lost is captured (seed: "Modstanderen kan erobre dem")."""
    table = rules.units
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    attacker = {} if is_wiped_out(state.attacker, sa) else _present(state.attacker, table)
    defender = _present(state.defender, table, keep_captured=True)
    if is_wiped_out(state.defender, sd):
        defender = {n: c for n, c in defender.items() if table[n].captured}
    captured = {}
    if outcome == "attacker_wins":
        captured = {n: c for n, c in defender.items() if table[n].captured}
        defender = {}
    return attacker, defender, captured


def _present(army: Army, table: UnitTable, keep_captured: bool = False) -> dict:
    out = {}
    for n in table.names:
        c = sum(cnt for name, d, cnt in army.groups if name == n and (d < table[n].hits_to_kill or keep_captured))
        if c:
            out[n] = c
    return out


def resolve_battle(attacker, defender, rng: np.random.Generator, *, at_sea: bool = False,
                   rules: BattleRules | None = None, casualty_order=None, retreat=None,
                   record: bool = False, max_rounds: int = 100_000) -> BattleReport:
    """Play one whole battle: rounds of steps 1–4 until step 5 gives a result.

    retreat: None (never), a `Retreat`, text like 'after:3', or a callable(state) -> bool.
    Randomness only from `rng`.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    rules = rules or BattleRules()
    state = start = start_battle(attacker, defender, at_sea, rules)
    choices = resolve_casualties(casualty_order, state, rules)
    if retreat is None or isinstance(retreat, (str, Retreat)):
        rule = Retreat.parse(retreat)
        plans = choices

        def decide(s: BattleState) -> bool:
            def chance() -> float:
                return attacker_win_chance(s, rules, plans)
            return rule.triggered(s, chance)
    elif callable(retreat):
        decide = retreat
    else:
        raise ValueError(f"retreat must be None, a Retreat, text like 'after:3' or a callable, got {retreat!r}")
    log = []
    outcome = battle_result(state, rules)
    while outcome is None:
        if state.round >= max_rounds:
            raise RuntimeError(f"battle still undecided after {max_rounds} rounds")
        report = fight_round(state, rng, rules, choices)
        state = report.state
        if record:
            log.append(report)
        if both_standing(state, rules):
            state = press_or_retreat(state, decide(state))
        outcome = battle_result(state, rules)
    a, d, captured = end_of_battle(state, outcome, rules)
    return BattleReport(outcome, state.round, state.retreated, a, d, captured, state, tuple(log), start)

