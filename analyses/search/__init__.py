"""Search policies: IS-MCTS written once against the game protocol, and the macro
search over a heuristic's candidate plans (Nerath)."""
from .ismcts import ISMCTSPolicy, default_rollout, parse_ismcts
from .macro import MACRO_HOOKS, MacroSearchPolicy, parse_macro

__all__ = ["ISMCTSPolicy", "default_rollout", "parse_ismcts", "MacroSearchPolicy", "parse_macro", "MACRO_HOOKS"]
