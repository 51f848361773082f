"""nerathsim — Conquest of Nerath: the full game, and its battles (the seed's combat procedure,
exact and Monte Carlo odds).

    import nerathsim
    res = nerathsim.play_game(nerathsim.Rules(mode="free_for_all"), ["balanced"] * 4, seed=1)
    print(res.winner, res.scores, res.to_record()["seat0_faction"])

    odds = nerathsim.battle_odds({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})
    print(odds)                      # a calculator summary like TripleA's
    odds.to_frame()                  # how the battle can end, with probabilities

The battles live in the `nerathsim.battle` package. See README.md for the public functions and
RULES.md for every rule -> code -> test.
"""
from .battle import (
    CASTLE_MODES,
    Army,
    BattleOdds,
    BattleReport,
    BattleRules,
    BattleState,
    CasualtyOrder,
    CasualtyPlan,
    EndTable,
    Retreat,
    RoundReport,
    Situation,
    Unit,
    UnitTable,
    assign_hits,
    attacker_win_chance,
    battle_odds,
    battle_result,
    default_plan,
    exact_battle,
    fight_round,
    format_army,
    hit_probability,
    monte_carlo_battle,
    press_or_retreat,
    resolve_battle,
    start_battle,
)
from .battle.ingame import CASUALTY_ORDERS
from .battle.rules import RULES_VERSION as _BATTLE_VERSION
from .cards import Card, CardSet, Effect, Guardian, cards_frame, load_cards
from .decisions import DECISIONS, Decision
from .determinize import sample_state
from .dungeons import fight_odds
from .engine import IllegalActionError, State, apply_action, legal_actions, new_game
from .game import FACTIONS, GameResult, LegalActions, play_game, seat_factions
from .game import RULES_VERSION as _GAME_VERSION
from .game_actions import (
    Amok,
    Buy,
    Casualties,
    Embark,
    EndPhase,
    Fight,
    Move,
    Pass,
    PlayCard,
    PressOn,
    RetreatTo,
    Sail,
    Unload,
)
from .knobs import KNOBS
from .log import event_lines
from .macro import MacroChoice, commit_in_state, commit_macro, macro_candidates, playout, standing
from .maps import REALMS, Board, MapError, describe_map, load_map, parse_map
from .observation import Observation, observe
from .policies import (
    AGGRESSIVE,
    BALANCED,
    DEFENSIVE,
    POLICIES,
    SEARCH_DEFAULT,
    TUNING,
    Purchase,
    RandomPolicy,
    WarPolicy,
    param_value,
    with_params,
    with_realm_params,
)
from .rules import SEATING, TEAMS, TURN_ORDERS, Rules

#: the game's version: the full game's and the battle rules' versions together
RULES_VERSION = f"{_GAME_VERSION}+{_BATTLE_VERSION}"

#: said first wherever results of this game are shown (the report's Nerath section): what the board is
SETUP_NOTE = ("The board and the starting forces are a reconstruction, not the printed game: no public source "
              "gives the board's regions, adjacency, gold values, the realms' starting troops or starting gold. "
              "The rules, unit table, costs, dice, turn order and victory targets follow the rule text and "
              "public facts; the map, starting forces and gold are the project's own choices (nerathsim/RULES.md "
              "§1 lists what is known and what is chosen; the choices that move the balance are rule decisions "
              "D-map, D-starting-gold, D-karkoth-start, D-iron-circle-monsters, D-footsoldier-cap). Win rates by "
              "realm and alliance describe this reconstruction, not the published game.")

#: the policy analyses use when none is given: 'random' never finishes a Nerath game (round cap)
DEFAULT_POLICY = "balanced"

__all__ = [
    "KNOBS", "DECISIONS", "Decision", "SETUP_NOTE",
    # the battles (nerathsim.battle)
    "Unit", "UnitTable", "BattleRules", "CASTLE_MODES", "RULES_VERSION", "hit_probability", "format_army",
    "Army", "BattleState", "Situation", "CasualtyOrder", "CasualtyPlan", "Retreat", "RoundReport", "BattleReport",
    "start_battle", "fight_round", "press_or_retreat", "battle_result", "resolve_battle", "assign_hits",
    "default_plan", "battle_odds", "BattleOdds", "EndTable", "exact_battle", "monte_carlo_battle",
    "attacker_win_chance",
    # the full game
    "Rules", "new_game", "legal_actions", "apply_action", "observe", "sample_state", "play_game", "POLICIES", "GameResult", "event_lines",
    "IllegalActionError", "FACTIONS", "State", "Observation", "LegalActions", "seat_factions",
    "REALMS", "SEATING", "TEAMS", "TURN_ORDERS", "Board", "MapError", "load_map", "parse_map", "describe_map",
    "WarPolicy", "Purchase", "RandomPolicy", "BALANCED", "AGGRESSIVE", "DEFENSIVE", "CASUALTY_ORDERS", "TUNING",
    "SEARCH_DEFAULT",
    "with_params", "with_realm_params", "param_value",
    "EndPhase", "Move", "Embark", "Sail", "Unload", "Fight", "Casualties", "PressOn", "RetreatTo", "Amok", "Pass",
    "Buy", "PlayCard",
    # search: determinisation and macro decisions
    "MacroChoice", "macro_candidates", "commit_macro", "commit_in_state", "playout", "standing",
    "Card", "CardSet", "Effect", "Guardian", "load_cards", "cards_frame", "fight_odds",
]
