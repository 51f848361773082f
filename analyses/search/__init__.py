"""Search policies: IS-MCTS written once against the game protocol, and the macro
search over a heuristic's candidate plans (Nerath)."""
from .ismcts import ISMCTSPolicy, parse_ismcts
from .macro import MacroSearchPolicy, parse_macro

__all__ = ["ISMCTSPolicy", "parse_ismcts", "MacroSearchPolicy", "parse_macro"]
