"""The kinds of decision a Conquest of Nerath game asks for, by name.

`Phase` is what `Observation.phase` answers: policies branch on `Phase.MOVE`, `Phase.HIT`, …
and never on the engine's own constants. Its values are the engine's phase numbers
(`engine.PH_MOVE` …), so `Phase(state.phase)` names any state's phase;
`test_the_phase_names_are_the_engines_phases` keeps the two in step.
"""
from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """The pending decision's kind (the rulebook's phases of a realm's turn, plus the answers asked
    out of turn inside them)."""

    MOVE = 0          # 2. movement: Move / Embark / Sail / Unload, or EndPhase
    COMBAT = 1        # 3. combat: which battle (or dungeon) to fight next (Fight)
    CASUALTY = 2      # the casualty-order variant (Rules.casualty_choice="order"): Casualties
    PRESS = 3         # after a round: PressOn or RetreatTo (in a dungeon: flee)
    AMOK = 4          # a won battle's monsters may run amok: Amok or Pass
    REGROUP = 5       # 4. regroup: Move, or EndPhase
    BUY = 6           # 5. reinforcements, buying: Buy, or EndPhase
    REINFORCE = 7     # 5. reinforcements, moving new units: Move / Embark / Sail / Unload, or EndPhase
    OVER = 8          # the game is over (no decision)
    EVENT = 9         # a card window or an answer to an enemy card: PlayCard or Pass
    HIT = 10          # place one hit (Rules.casualty_choice="hits", the default): Hit


#: Phase by number (a tuple index is cheaper than calling the enum)
PHASES = tuple(Phase)
