"""Search policies written once against the game protocol (issue 17): IS-MCTS."""
from .ismcts import ISMCTSPolicy, default_rollout, parse_ismcts

__all__ = ["ISMCTSPolicy", "default_rollout", "parse_ismcts"]
