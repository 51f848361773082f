"""The battles of Conquest of Nerath, organised by the rulebook's combat structure.

Seed, "3. Kamp": "Kampen er opdelt i en række faser: 1. First strike, 2. Roll other attacks,
3. Take damage, 4. Press attack or retreat, 5. Determine battle results."

| module | what it holds |
|---|---|
| `units` | `Unit`, `UnitTable`: the troops as data (prices, dice, hits to kill) |
| `rules` | `BattleRules`: every battle-rule knob, `RULES_VERSION` of the battle rules |
| `dice` | dice maths: the chance of a hit, hit distributions, alias samplers |
| `army` | the sides on the battlefield (`Army`, `Situation`, `BattleState`, `start_battle`) |
| `steps` | steps 1, 2, 4, 5 of a round (`dice_pool`, `fight_round`, `Retreat`, `battle_result`) |
| `casualties` | step 3, who takes the hits (`CasualtyOrder`, `CasualtyPlan`, `assign_hits`) |
| `combat` | a whole battle by the reference procedure (`resolve_battle`, `BattleReport`) |
| `exact` | the exact solver (probability propagation over casualty states) |
| `monte_carlo` | Monte Carlo battles vectorised with numpy (the reference sampler) |
| `kernel` | Monte Carlo compiled with numba (`monte_carlo_battle(..., engine="kernel")`; imported on demand) |
| `outcomes`, `odds` | the end-state table and the calculator (`battle_odds`, `BattleOdds`) |
| `ingame` | the full game's fast path: the same procedure on small integer lists |

Import order (no cycles): units ← rules ← army ← casualties ← steps ← exact ← combat;
dice is below all; monte_carlo and kernel use exact (for `Retreat.below_win_chance`); odds
uses both calculators.
"""
from .army import Army, BattleState, Situation, start_battle
from .casualties import CasualtyOrder, CasualtyPlan, assign_hits, default_plan
from .combat import BattleReport, resolve_battle
from .dice import hit_probability
from .exact import attacker_win_chance, exact_battle
from .monte_carlo import monte_carlo_battle
from .odds import BattleOdds, battle_odds
from .outcomes import EndTable
from .rules import CASTLE_MODES, RULES_VERSION, BattleRules
from .steps import Retreat, RoundReport, battle_result, fight_round, press_or_retreat
from .units import Unit, UnitTable, format_army

__all__ = [
    "Unit", "UnitTable", "BattleRules", "CASTLE_MODES", "RULES_VERSION", "hit_probability", "format_army",
    "Army", "BattleState", "Situation", "CasualtyOrder", "CasualtyPlan", "Retreat", "RoundReport", "BattleReport",
    "start_battle", "fight_round", "press_or_retreat", "battle_result", "resolve_battle", "assign_hits",
    "default_plan", "battle_odds", "BattleOdds", "EndTable", "exact_battle", "monte_carlo_battle",
    "attacker_win_chance",
]
