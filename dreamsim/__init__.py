"""dreamsim — a fast, rule-complete Midnighters (Полуночники) simulator.

    import dreamsim
    result = dreamsim.play_game(dreamsim.Rules(players=4), ["runner", "random", "random", "random"], seed=1)
    result.winner, result.stats["horror_won"]
"""
from .decisions import DECISIONS, Decision
from .engine.actions import (
    Allow,
    Cancel,
    Count,
    Discard,
    DutchExtra,
    DutchReduce,
    Give,
    Hold,
    Intercept,
    Mix,
    Pass,
    SetTrap,
    Spring,
    Star,
    Steal,
    StopTaking,
    Take,
    Target,
    To,
    TrapPartner,
    Vertigo,
    VertigoOp,
    Walk,
)
from .engine.cards import COMPOSITION, KIND_NAMES, LOCATION_NAMES, N_CARDS
from .engine.determinize import sample_state
from .engine.engine import IllegalActionError, State, apply_action, apply_legal, legal_actions, new_game
from .engine.log import event_lines
from .engine.observation import Observation, observe
from .game import RULES_VERSION, GameResult, play_game
from .knobs import KNOBS
from .policies.policies import (
    BALANCED,
    HORROR,
    POLICIES,
    RUNNER,
    SEARCH_BELIEFS,
    SEARCH_DEFAULT,
    SEARCH_VALUES,
    TRICKSTER,
    TUNING,
    HeuristicPolicy,
    RandomPolicy,
    Weights,
    with_params,
)
from .rules import DEFAULT_LAYOUT, Rules

__all__ = [
    "KNOBS", "DECISIONS", "Decision",
    "Rules", "DEFAULT_LAYOUT", "State", "new_game", "sample_state", "legal_actions", "apply_action", "apply_legal",
    "observe",
    "Observation", "play_game", "GameResult", "event_lines", "IllegalActionError", "RULES_VERSION",
    "POLICIES", "RandomPolicy", "HeuristicPolicy", "Weights", "RUNNER", "TRICKSTER", "HORROR", "BALANCED",
    "TUNING", "with_params", "SEARCH_DEFAULT", "SEARCH_VALUES", "SEARCH_BELIEFS",
    "COMPOSITION", "KIND_NAMES", "LOCATION_NAMES", "N_CARDS",
    "Walk", "Vertigo", "VertigoOp", "Star", "SetTrap", "TrapPartner", "DutchExtra", "DutchReduce", "Steal", "Pass",
    "Cancel", "Intercept", "Allow", "Spring", "Hold", "Target", "To", "Take", "StopTaking", "Discard", "Give",
    "Mix", "Count", "KERNEL",
]


def __getattr__(name):
    """`dreamsim.KERNEL`: the numba batch kernel (dreamsim/kernel/play_batch.py), imported on first use —
    importing numba takes about a second, which every `import dreamsim` (and every joblib
    worker playing Python games) would otherwise pay."""
    if name == "KERNEL":
        from .kernel.play_batch import KERNEL  # noqa: PLC0415 - numba is heavy; load it only when the kernel is used
        return KERNEL
    raise AttributeError(f"module 'dreamsim' has no attribute {name!r}")
