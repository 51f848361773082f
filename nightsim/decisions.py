"""The readings we chose where the Nightmarium text is silent or contradicts itself, as plain data.

Each `Decision` names a `Rules` field whose default is the reading we play and the other readings a
designer may want to try; RULES.md (section (b), the **D-…** ids) gives the quoted evidence and the
reasoning. These are the gap decisions that can move a balance finding (who wins, how long a game
lasts), so a sensitivity analysis re-measures a finding under each alternative (`Rules` with that one
field changed). Nothing here changes a default.

A decision about the seals matters only with the Legions of Horrors expansion in play: its
`requires` holds the fields (``seals=True``) that both the default and the alternatives are played
with, so the comparison is the published expansion against the expansion read the other way.
"""
from __future__ import annotations

from simcore.decisions import Decision as _Decision

from .rules import Rules

SEALS = (("seals", True),)


class Decision(_Decision):
    """A Nightmarium reading (`simcore.decisions.Decision`), starting from this game's published `Rules`."""

    RULES = Rules


DECISIONS = (
    Decision("D-scavenger", "scavenger_optional", (True,),
             "the Scavenger must be carried out when it has a target (G4)"),
    Decision("D-win-timing", "win_timing", ("end_of_action",),
             "the fifth complete creature wins at once, before its abilities (G2)"),
    Decision("D-penalty-timing", "penalty_timing", ("after_abilities",),
             "the pure-legion penalty comes before the creature's abilities (G3)"),
    Decision("D-seal-reactivation", "seal_reactivation_optional", (False,),
             "a seal's re-activation may be declined (G20)", SEALS),
    Decision("D-seal-target", "seal_target", ("any",),
             "a seal goes on one of its player's own completed creatures (G5)", SEALS),
    Decision("D-immunity", "immunity", ("opponents_only",),
             "a sealed creature is immune to every other creature, its owner's included (G6)", SEALS),
    Decision("D-seal-play", "seal_counts_as_play", (False,),
             "a seal counts as a played card for the same-legion restriction (G16)", SEALS),
    Decision("D-herald-seals", "herald_plays_seals", (True,),
             "a seal turned over by a Herald is discarded (G14)", SEALS),
    Decision("D-mocker-seals", "mocker_plays_seals", (True,),
             "a Mocker plays body cards only, never a seal (G15)", SEALS),
)

#: decision id -> Decision
BY_ID = {d.id: d for d in DECISIONS}
