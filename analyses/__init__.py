"""analyses: reproducible batch simulation and honest balance statistics for any game module.

    import analyses
    df = analyses.simulate("nightsim", 4000, policies="greedy,random,random,random", n_jobs=2)
    analyses.first_player_advantage(df).seats
    analyses.win_rates(df).by_policy

Works with every module that follows docs/GAME_PROTOCOL.md; see analyses/README.md.
"""
from .checkpoint import simulate_to_file
from .first_player import FirstPlayerAdvantage, first_player_advantage
from .game_length import GameLength, game_length
from .games import KNOWN_GAMES, load_game
from .io import read_results, write_results
from .knobs import Knob
from .objectives import make_objective
from .rebalance_search import Rebalance, rebalance
from .runner import StopWhen, simulate
from .sweep import Sweep, sweep
from .win_rates import WinRates, win_rates

__all__ = [
    "simulate", "simulate_to_file", "StopWhen", "load_game", "KNOWN_GAMES",
    "read_results", "write_results",
    "win_rates", "WinRates", "first_player_advantage", "FirstPlayerAdvantage",
    "game_length", "GameLength", "sweep", "Sweep",
    "rebalance", "Rebalance", "Knob", "make_objective",
]
