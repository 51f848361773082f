"""The Conquest of Nerath engine: state, legal actions, and the six phases of a realm's turn.

One decision = one step (OpenSpiel style). Everything that needs no choice (drawing the event
card, rolling dice, capturing empty regions, collecting income, the victory check) runs inside
`apply_action`; the state then rests at the next decision, whose owner is
`state.current_player` — the seat of the realm that decides, which is the defender choosing
its casualty order out of turn at the start of a battle.

A realm's turn (seed, "Runder i Conquest of Nerath"):
  1 draw an event card (automatic)           4 regroup: Move (heroes, flyers), EndPhase
  2 movement: Move, Embark, Sail, Unload,     5 reinforcements: Buy ..., EndPhase, then
    EndPhase                                    Move/Embark/Sail/Unload of the new units, EndPhase
  3 combat: Fight (order), Casualties,        6 collect income (automatic)
    PressOn / RetreatTo, Amok / Pass
After the last realm of the turn order the round is complete and the victory check runs.

Every pending decision is a frame in the lab's frame protocol (`simcore.frames`: a small slotted
class with named fields: who decides, `seat` and the `realm` it plays; the `decision`; what is legal,
how it applies, what resumes after it) on one stack, `State.stack`; the top is the decision the state
rests at, and `simcore.frames.drive` is the one loop that steps the top frame until one rests. One
module per part of the turn, each defining its frames (imports go downwards only: state < common <
terrain < windows < fight < dungeons < movement < combat < reinforce < turn < dispatch < setup):

  state      constants, Tables, Ship, ArmyChain, Battle, the `Frame` base, State
  common     the event log, named counts, warships, who stands where
  terrain    terrain and reach for the realm whose turn it is; unit bookkeeping (`mob`)
  windows    card draws; CardWindow and PendingCard (PH_EVENT)
  fight      one battle: set-up, rounds, hits, luck, survivors; CasualtyChoice (PH_CASUALTY), HitsToPlace (PH_HIT)
  dungeons   guardians, the fight in a dungeon, victory and flight
  movement   movement, regroup and the new units' moves; Movement, Regroup, Reinforcements
  combat     the combat phase; BattleOrder (PH_COMBAT), PressOrRetreat (PH_PRESS), AmokFrame (PH_AMOK)
  reinforce  placement and buying; BuyUnits (PH_BUY)
  turn       turn start (phase 1, the turn's plan of frames) and Income (phase 6: next realm, victory check)
  dispatch   current_frame, legal_actions, is_legal, apply_legal / apply_action, describe_action
  setup      new_game, deal
"""
from .combat import AmokFrame, BattleOrder, PressOrRetreat, amok_targets, retreat_options
from .dispatch import (
    FRAME_TYPES,
    FRAMES,
    apply_action,
    apply_legal,
    current_frame,
    describe_action,
    is_legal,
    legal_actions,
    legal_by_kind,
)
from .fight import CasualtyChoice, HitsToPlace, hit_actions
from .movement import Movement, Regroup, Reinforcements
from .reinforce import BuyUnits, placement_spots
from .setup import deal, new_game
from .state import (
    C_FLY,
    C_LAND,
    C_SHIP,
    DECISION_NAMES,
    END_PHASE,
    M_MOVE,
    M_REGROUP,
    PH_AMOK,
    PH_BUY,
    PH_CASUALTY,
    PH_COMBAT,
    PH_EVENT,
    PH_HIT,
    PH_MOVE,
    PH_OVER,
    PH_PRESS,
    PH_REGROUP,
    PH_REINFORCE,
    PRESS_ON,
    REALM_STATS,
    ArmyChain,
    Battle,
    Frame,
    IllegalActionError,
    LuckBase,
    Ship,
    State,
    Tables,
    WindowView,
    copy_stack,
    tables,
)
from .terrain import destinations, ship_reach, turn_reach
from .turn import Income, group_vp, income, turn_plan
from .windows import CardWindow, PendingCard

__all__ = [
    "new_game", "deal", "legal_actions", "legal_by_kind", "is_legal", "apply_action", "apply_legal",
    "describe_action", "current_frame", "State", "IllegalActionError", "Tables", "tables", "Ship", "ArmyChain", "Battle",
    "Frame", "CardWindow", "PendingCard", "CasualtyChoice", "HitsToPlace",
    "LuckBase", "AmokFrame", "WindowView", "Movement", "BattleOrder", "PressOrRetreat", "Regroup", "BuyUnits",
    "Reinforcements", "Income", "turn_plan", "copy_stack", "FRAMES", "FRAME_TYPES", "DECISION_NAMES", "REALM_STATS",
    "destinations", "ship_reach", "turn_reach", "income", "group_vp", "placement_spots", "retreat_options",
    "amok_targets", "hit_actions",
    "PH_MOVE", "PH_COMBAT", "PH_CASUALTY", "PH_PRESS", "PH_AMOK", "PH_REGROUP", "PH_BUY", "PH_REINFORCE",
    "PH_OVER", "PH_EVENT", "PH_HIT", "M_MOVE", "M_REGROUP",
    "C_LAND", "C_FLY", "C_SHIP", "END_PHASE", "PRESS_ON",
]
