"""nerathsim — Conquest of Nerath: units and battles (the seed's combat procedure, exact and Monte Carlo odds).

    import nerathsim
    odds = nerathsim.battle_odds({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})
    print(odds)                      # a calculator summary like TripleA's
    odds.to_frame()                  # how the battle can end, with probabilities

See README.md for the public functions and RULES.md for every rule -> code -> test.
"""
from .combat import (
    Army, BattleReport, BattleState, CasualtyOrder, CasualtyPlan, Retreat, RoundReport, Situation, assign_hits,
    battle_result, default_plan, fight_round, press_or_retreat, resolve_battle, start_battle,
)
from .battle_exact import attacker_win_chance, exact_battle
from .battle_mc import monte_carlo_battle
from .odds import BattleOdds, battle_odds
from .outcomes import EndTable
from .rules import CASTLE_MODES, RULES_VERSION, BattleRules
from .units import Unit, UnitTable, format_army, hit_probability

__all__ = [
    "Unit", "UnitTable", "BattleRules", "CASTLE_MODES", "RULES_VERSION", "hit_probability", "format_army",
    "Army", "BattleState", "Situation", "CasualtyOrder", "CasualtyPlan", "Retreat", "RoundReport", "BattleReport",
    "start_battle", "fight_round", "press_or_retreat", "battle_result", "resolve_battle", "assign_hits",
    "default_plan", "battle_odds", "BattleOdds", "EndTable", "exact_battle", "monte_carlo_battle",
    "attacker_win_chance",
]

from ._game_api import *  # noqa: E402,F401,F403  — the full game (issue 5)
from ._game_api import __all__ as _game_all  # noqa: E402

__all__ = __all__ + [n for n in _game_all if n not in __all__]

#: the policy analyses use when none is given: 'random' never finishes a Nerath game (round cap)
DEFAULT_POLICY = "balanced"
