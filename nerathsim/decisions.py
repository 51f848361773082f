"""The readings and setup choices a Conquest of Nerath balance finding rests on, as plain data.

Each `Decision` names a `Rules` field whose default is the reading we play (the text where the text
speaks, else the shipped reconstruction as it stands) and the other values a designer may want to
try; RULES.md gives the id (**D-…**), the quoted evidence and the reasoning (§6, "Decisions that can
move the balance"). The first group are setup choices of the reconstructed board (`setups.py`: the
real board's starting forces and gold are not public), the second the gaps of the rule text. A
sensitivity analysis (`balancelab sensitivity nerath`) re-measures a finding under each alternative
(`Rules` with that one field changed). Nothing here changes a default.
"""
from __future__ import annotations

from simcore.decisions import Decision as _Decision

from .rules import Rules


class Decision(_Decision):
    """A Conquest of Nerath reading (`simcore.decisions.Decision`), starting from this game's published `Rules`."""

    RULES = Rules


DECISIONS = (
    # --- the reconstructed board (no public source gives it: facts §8.1-8.2) ---------------------------
    Decision("D-map", "map", ("nerath_uncapped",),
             "the board is the reconstruction `nerath` within the box's pieces (G38, G38b)", evidence="chosen"),
    Decision("D-starting-gold", "starting_gold", ("equal",),
             "starting gold as on the map: Karkoth 10, Vailin 12, Iron Circle 10, Nerath 14 (G42)", evidence="chosen"),
    Decision("D-karkoth-start", "karkoth_start", ("capital",),
             "Karkoth starts with stacks on both fronts, the rulebook's aggressive start (G43)", evidence="facts"),
    Decision("D-iron-circle-monsters", "iron_circle_extra_monsters", (False,),
             "the Iron Circle starts with two monsters no text gives, at Hobgoblin March and Warcamp (G44)", evidence="chosen"),
    Decision("D-footsoldier-cap", "footsoldier_box_cap", (False,),
             "every realm starts with the box's 20 footsoldiers (G38b)", evidence="box"),
    # --- gaps of the rule text ------------------------------------------------------------------------
    Decision("D-flyer-capture", "flyers_capture", (False,),
             "a flyer alone takes the region it wins or walks into (G11)", evidence="text"),
    Decision("D-capital-vp", "capital_vp_stacks", (True,),
             "a capital gives 5 VP instead of the region's 1 (G6)", evidence="text"),
    Decision("D-vp-once", "vp_once_per_region", (True,),
             "every conquest of a region scores, not only the first (G7)", evidence="text"),
    Decision("D-amok-vp", "amok_scores_vp", (False,),
             "a run-amok conquest scores VP (G8)", evidence="text"),
    Decision("D-board-after-move", "board_after_move", (True,),
             "a unit that moved this turn may not board (G14)", evidence="text"),
    Decision("D-cargo-aboard", "cargo_may_stay_aboard", (True,),
             "land units still aboard when their turn ends are lost (G15)", evidence="text"),
    Decision("D-drowning", "drowning", ("pooled",),
             "a sunk warship's cargo drowns with it (G17)", evidence="text"),
    Decision("D-regroup-range", "regroup_move", ("remaining",),
             "flyers regroup with their full move value (G19)", evidence="text"),
    Decision("D-walk-in", "walk_in_attack", (False,),
             "an empty enemy region is an attack of the combat phase; its monsters may run amok (G23)", evidence="text"),
    Decision("D-casualties", "casualty_choice", ("order",),
             "each side places each hit it takes (G25)", evidence="text"),
    Decision("D-ally-damage", "ally_damage_split", ("region_owner_first",),
             "allies defending together split the hits equally (G27)", evidence="text"),
    Decision("D-castle-placement", "castle_placement", ("next_to_castle",),
             "a bought castle goes on any castle-less region held since the turn began (G30)", evidence="chosen"),
    Decision("D-income", "income_mode", ("value",),
             "income changes by one gold per region gained or lost (G33)", evidence="text"),
    Decision("D-dungeon-order", "dungeon_fights_last", (True,),
             "dungeon fights are land fights in the attacker's order (D5)", evidence="text"),
)

#: decision id -> Decision
BY_ID = {d.id: d for d in DECISIONS}
