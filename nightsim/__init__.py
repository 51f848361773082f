"""nightsim — a fast, rule-complete Nightmarium simulator (base game + Legions of Horrors).

    import nightsim
    result = nightsim.play_game(nightsim.Rules(players=4), ["greedy", "random", "random", "random"], seed=1)
"""
from .decisions import DECISIONS, Decision
from .engine.actions import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    PlaySeal,
    Reactivate,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
)
from .engine.cards import ABILITIES, BODY_PARTS, LEGIONS, Card, load_cards, parse_cards
from .engine.determinize import sample_state
from .engine.engine import Creature, IllegalActionError, State, apply_action, legal_actions, new_game
from .engine.log import event_lines
from .engine.observation import Observation, observe
from .game import RULES_VERSION, GameResult, play_game
from .kernel.play_batch import KERNEL  # the optional batch-kernel hook of docs/GAME_PROTOCOL.md (numba loads lazily)
from .knobs import KNOBS
from .policies.heuristic import (
    AGGRESSOR,
    GREEDY,
    POLICIES,
    PURIST,
    TUNING,
    HeuristicPolicy,
    RandomPolicy,
    Weights,
    with_params,
)
from .rules import Rules

__all__ = [
    "KNOBS", "DECISIONS", "Decision",
    "Rules", "Card", "load_cards", "parse_cards", "LEGIONS", "BODY_PARTS", "ABILITIES",
    "State", "Creature", "new_game", "sample_state", "legal_actions", "apply_action", "observe", "Observation",
    "play_game", "GameResult", "event_lines", "IllegalActionError", "RULES_VERSION", "KERNEL",
    "POLICIES", "RandomPolicy", "HeuristicPolicy", "Weights", "GREEDY", "PURIST", "AGGRESSOR", "TUNING", "with_params",
    "Draw", "StartDiscard", "DiscardCard", "StopDiscard", "Play", "PlaySeal", "Take", "Scavenge",
    "Devour", "Decline", "PenaltyDiscard", "Reactivate",
]
