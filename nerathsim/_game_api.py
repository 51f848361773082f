"""The full game's public API, for `from ._game_api import *` in nerathsim/__init__.py.

    import nerathsim
    res = nerathsim.play_game(nerathsim.Rules(mode="free_for_all"), ["balanced"] * 4, seed=1)
    print(res.winner, res.scores, res.to_record()["seat0_faction"])
"""
from .engine import IllegalActionError, State, apply_action, legal_actions, new_game
from .cards import Card, CardSet, Effect, Guardian, cards_frame, load_cards
from .dungeons import fight_odds
from .game import FACTIONS, GameResult, LegalActions, play_game, seat_factions
from .game import RULES_VERSION as _GAME_VERSION
from .game_actions import (
    Amok, Buy, Casualties, Embark, EndPhase, Fight, Move, Pass, PlayCard, PressOn, RetreatTo, Sail, Unload,
)
from .game_battle import CASUALTY_ORDERS
from .game_rules import SEATING, TEAMS, TURN_ORDERS, Rules
from .maps import REALMS, Board, MapError, describe_map, load_map, parse_map
from .observation import Observation, observe
from .policies import AGGRESSIVE, BALANCED, DEFENSIVE, POLICIES, Purchase, RandomPolicy, WarPolicy
from .rules import RULES_VERSION as _BATTLE_VERSION

#: the game's version: the full game's and the battle rules' versions together
RULES_VERSION = f"{_GAME_VERSION}+{_BATTLE_VERSION}"

__all__ = [
    "Rules", "new_game", "legal_actions", "apply_action", "observe", "play_game", "POLICIES", "GameResult",
    "IllegalActionError", "RULES_VERSION", "FACTIONS", "State", "Observation", "LegalActions", "seat_factions",
    "REALMS", "SEATING", "TEAMS", "TURN_ORDERS", "Board", "MapError", "load_map", "parse_map", "describe_map",
    "WarPolicy", "Purchase", "RandomPolicy", "BALANCED", "AGGRESSIVE", "DEFENSIVE", "CASUALTY_ORDERS",
    "EndPhase", "Move", "Embark", "Sail", "Unload", "Fight", "Casualties", "PressOn", "RetreatTo", "Amok", "Pass",
    "Buy", "PlayCard", "Card", "CardSet", "Effect", "Guardian", "load_cards", "cards_frame", "fight_odds",
]
