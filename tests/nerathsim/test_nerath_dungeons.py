"""Dungeons: who may enter, the heroes' fight against the guardians (exact odds and the engine's dice),
fleeing, the reward (gold, a treasure, its VP), the regroup after a victory, the switches, and the long
game's treasure win.

The board is the small test map: the Crypt (a dungeon) lies between Nmarch (Nerath) and Imarch (Iron
Circle). Fights whose dice matter are driven by `Dice`, a stand-in for the random generator that answers
each binomial draw from a script (or "every die hits" / "no die hits") and records what was rolled.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from nerathsim import dungeons as dg
from nerathsim import engine as E
from nerathsim.battle import ingame as gb
from nerathsim.battle.outcomes import ATTACKER_WINS, DRAW
from nerathsim.cards import Guardian
from nerathsim.game_actions import Pass, PlayCard, PressOn, RetreatTo
from nerathsim.rules import Rules
from nerathsim.scenario import act, action, build_state, card_id, guardian_id, region, units_at

K, V, I, N = range(4)
FFA = Rules(map="small", mode="free_for_all")


class Dice:
    """A generator stand-in: `binomial` answers from `script` (then `rest(n, p)`), clipped to n."""

    def __init__(self, script=(), rest=lambda n, p: 0):
        self.script, self.rest, self.calls = list(script), rest, []

    def binomial(self, n, p):
        self.calls.append((int(n), float(p)))
        v = self.script.pop(0) if self.script else self.rest(n, p)
        return min(int(v), int(n))

    def integers(self, k, *a, **kw):
        return 0

    def permutation(self, n):
        return np.arange(n)


ALL_HIT = dict(rest=lambda n, p: n)


def play(s, dice, kind, *args):
    a = action(s, kind, *args)
    assert E.is_legal(s, a), (a, E.legal_actions(s))
    E.apply_legal(s, a, dice)
    return a


def events(s, kind):
    return [e for e in (s.log or []) if e["event"] == kind]


def crypt(rules=FFA, heroes="fighter", guardians=("kobold_warband",), deck=("treasure_golden_idol",
                                                                           "treasure_vorpal_sword"), **kw):
    """Nerath with `heroes` in Nmarch next to the Crypt (a footsoldier at home keeps the movement phase open)."""
    kw.setdefault("units", {"Nmarch": {"nerath": heroes}, "Nera": {"nerath": "castle, footsoldier"}})
    return build_state(rules, realm="nerath", guardians={"Crypt": list(guardians)} if guardians else None,
                       treasure_deck=list(deck), record=True, **kw)


def enter(s, dice, heroes=("fighter",)):
    """Move the heroes into the Crypt and end the movement phase: the fight starts."""
    for h in heroes:
        c = s.units[region(s, "Nmarch")][N][s.tab.idx[h]]
        play(s, dice, "Move", "Nmarch", "Crypt", h, c)
    if s.phase == E.PH_MOVE:
        play(s, dice, "EndPhase")


def leave(s):
    """The hero goes back to Nmarch and the regroup ends (at once when nothing else may move)."""
    act(s, "Move", "Crypt", "Nmarch", "fighter", 1)
    if s.phase == E.PH_REGROUP:
        act(s, "EndPhase")
    assert s.phase != E.PH_REGROUP


def tokens(s):
    return len(s.supply) + sum(len(g) for g in s.guardians.values())


def G(key):
    return next(g for g in FFA.cards.guardians if g.key == key)


# ---------------------------------------------------------------------------------------------
# Who may enter
# ---------------------------------------------------------------------------------------------
def test_only_heroes_may_enter_a_dungeon():
    s = crypt(heroes="fighter, wizard, footsoldier, monster")
    crypt_r = region(s, "Crypt")
    for unit, ok in (("fighter", True), ("wizard", True), ("footsoldier", False), ("monster", False)):
        assert (crypt_r in E.destinations(s, region(s, "Nmarch"), unit)) is ok, unit
        assert E.is_legal(s, action(s, "Move", "Nmarch", "Crypt", unit, 1)) is ok, unit
    free = crypt(Rules(map="small", mode="free_for_all", dungeon_entry="all_land"), heroes="footsoldier")
    assert crypt_r in E.destinations(free, region(free, "Nmarch"), "footsoldier")


def test_with_all_land_entry_every_land_unit_fights_the_guardians():
    rules = Rules(map="small", mode="free_for_all", dungeon_entry="all_land")
    s = crypt(rules, heroes="footsoldier")
    enter(s, Dice(**ALL_HIT), heroes=("footsoldier",))            # both hit in the first round
    assert s.stats["dungeons_explored"][N] == 1 and s.stats["dungeons_won"][N] == 1
    assert units_at(s, "Crypt", "nerath") == {}                   # the footsoldier fell with the kobolds
    assert s.stats["units_lost"][N] == 1 and s.stats["treasures"][N] == 1
    assert dg.fight_chance(rules.battle, (G("kobold_warband"),), (("footsoldier", 1),)) == \
        pytest.approx(1 / 6 * 5 / 6 / (1 - 25 / 36) + 1 / 36 / (1 - 25 / 36))     # d6 against d6: win + both die


def test_setup_puts_one_face_down_guardian_on_each_dungeon():
    s = E.new_game(FFA, np.random.default_rng(3))
    crypt_r = region(s, "Crypt")
    assert list(s.guardians) == [crypt_r] and len(s.guardians[crypt_r]) == 1
    assert len(s.supply) == 25 and tokens(s) == 26 and s.revealed == set()
    assert sorted(s.treasure_deck) == sorted(FFA.cards.treasures) and len(s.treasure_deck) == 30
    two = E.new_game(Rules(map="small", mode="free_for_all", starting_guardians=2), np.random.default_rng(3))
    assert len(two.guardians[crypt_r]) == 2 and len(two.supply) == 24


# ---------------------------------------------------------------------------------------------
# The odds of a fight
# ---------------------------------------------------------------------------------------------
def test_fight_odds_match_hand_math():
    br = FFA.battle
    # one fighter (d10, wounds on 6+: 1/2) against one d6 die (1/6), both roll at once:
    # a round is won with 1/2*5/6, lost with 1/2*1/6, both die with 1/2*1/6, goes on with 1/2*5/6
    o = dg.fight_odds(br, {"fighter": 1}, [G("kobold_warband")])
    won, lost, both, on = Fraction(5, 12), Fraction(1, 12), Fraction(1, 12), Fraction(5, 12)
    assert o.attacker_wins == pytest.approx(float(won / (1 - on)), abs=1e-12)            # 5/7
    assert o.defender_wins == pytest.approx(float(lost / (1 - on)), abs=1e-12)           # 1/7
    assert o.draw == pytest.approx(float(both / (1 - on)), abs=1e-12)
    # 8+ to wound: the fighter hits 3/10 (win 3/10*5/6 = 1/4 a round, goes on 7/10*5/6 = 7/12): 3/5
    golem6 = Guardian("g8", "g8", 1, 6, False, 8, 0)
    assert dg.fight_odds(br, {"fighter": 1}, [golem6]).attacker_wins == pytest.approx(3 / 5, abs=1e-12)
    # first strike (Medusa: d12, 7/12): the hero only rolls if it survives; win 5/12*1/2 a round: 5/19
    assert dg.fight_odds(br, {"fighter": 1}, [G("medusa")]).attacker_wins == pytest.approx(5 / 19, abs=1e-12)
    assert dg.fight_odds(br, {"fighter": 1}, [G("medusa")]).draw == pytest.approx(0, abs=1e-12)
    # two dice need two hits: goblins (2 d6); P = sum over the paths (recursion by hand)
    p_h, p_g = Fraction(1, 2), Fraction(1, 6)

    def win(h, g):        # one hero, g guardian dice (each 1/6), simultaneous rolls
        if g == 0:
            return Fraction(1)
        stay = (1 - p_h) * (1 - p_g) ** g                     # nobody hits
        hero_only = p_h * (1 - p_g) ** g
        return hero_only * win(h, g - 1) / (1 - stay)
    assert dg.fight_odds(br, {"fighter": 1}, [G("goblin_raiders")]).attacker_wins == \
        pytest.approx(float(win(1, 2)), abs=1e-12)
    goblins = dg.fight_odds(br, {"fighter": 1}, [G("goblin_raiders")])
    # a policy's chance counts "both destroyed" too: the guardians are dead either way (gap D3)
    assert dg.fight_chance(br, (G("goblin_raiders"),), (("fighter", 1),)) == \
        pytest.approx(goblins.attacker_wins + goblins.draw)
    assert dg.fight_chance(br, (G("goblin_raiders"),), (("fighter", 1),),
                           (("guardian_goblin_raiders", 1),)) == pytest.approx(float(win(1, 1) + Fraction(1, 7)))  # 6/7


def test_dungeon_rules_count_a_roll_from_the_weakest_wound_value_and_the_strongest_variant_needs_the_highest():
    rules = dg.dungeon_rules(FFA.battle, (G("kobold_warband"), G("stone_golem")))
    assert rules.attacker_hit_threshold == 6 and rules.threshold("defender") == 6     # a 6 can wound the kobold
    strongest = replace(FFA.battle, guardian_wounds="strongest")
    rules = dg.dungeon_rules(strongest, (G("kobold_warband"), G("stone_golem")))
    assert rules.attacker_hit_threshold == 8 and rules.threshold("defender") == 6     # nerath-battles-2 (gap D1)
    assert set(rules.units.names) == {"fighter", "wizard", "guardian_kobold_warband", "guardian_stone_golem"}
    att, dfd = gb.side_table(rules, "attacker", False), gb.side_table(rules, "defender", False)
    names = rules.units.names
    assert att.p[names.index("fighter")] == pytest.approx(3 / 10)
    assert att.p[names.index("wizard")] == pytest.approx(3 / 10) and att.fs[names.index("wizard")]
    assert dfd.p[names.index("guardian_stone_golem")] == pytest.approx(15 / 20)        # d20 hits on 6+
    assert dfd.p[names.index("guardian_kobold_warband")] == pytest.approx(1 / 6)
    # the most dangerous dice go first (cheapest = strongest): the golem's d20 before the kobold's d6
    assert rules.units["guardian_stone_golem"].cost < rules.units["guardian_kobold_warband"].cost
    assert dg.guardian_army([G("goblin_raiders"), G("kobold_warband"), G("goblin_raiders")]) == \
        {"guardian_goblin_raiders": 4, "guardian_kobold_warband": 1}
    with pytest.raises(ValueError, match="not a hero"):
        dg.fight_odds(FFA.battle, {"footsoldier": 1}, [G("kobold_warband")])
    with pytest.raises(ValueError, match="guardian_wounds must be one of per_monster, strongest"):
        replace(FFA.battle, guardian_wounds="weakest")


# -- wound values are per monster ("kræver 7+ eller 8+ med terningen for at blive såret"; gap D1) ----------
A6 = Guardian("a6", "a6", 1, 6, False, 6, 0)       # one d6 die, wounded on 6+
B8 = Guardian("b8", "b8", 1, 8, False, 8, 0)       # one d8 die (more dangerous), wounded only on 8+


def test_hits_are_placed_weakest_level_first_each_on_the_most_dangerous_guardian_it_can_wound():
    levels, order = (6, 7, 8), ((4, 8), (2, 6), (3, 7))     # table index, wound value; most dangerous first
    assert dg.place_level_hits([0, 0, 1, 1, 1], [1, 0, 0], levels, order) == [0, 0, 0, 1, 1]  # a 6: only the 6+
    assert dg.place_level_hits([0, 0, 1, 1, 1], [0, 0, 1], levels, order) == [0, 0, 1, 1, 0]  # an 8: the 8+ first
    assert dg.place_level_hits([0, 0, 1, 1, 1], [1, 1, 1], levels, order) == [0, 0, 0, 0, 0]  # one each: all gone
    assert dg.place_level_hits([0, 0, 0, 1, 1], [2, 0, 0], levels, order) == [0, 0, 0, 1, 1]  # 6s wound nothing left
    assert dg.place_level_hits([0, 0, 2, 0, 1], [0, 1, 1], levels, order) == [0, 0, 1, 0, 0]  # the 7 takes a 6+ die


def test_a_hero_roll_of_six_or_seven_wounds_the_six_plus_guardian_but_not_the_eight_plus_one():
    s = crypt(guardians=("kobold_warband", "stone_golem"))
    # the fighter's d10: first "reached 8+?" (3/10) -> no; then "reached 6+ of the rest?" (2/7) -> yes; the
    # guardians (d6 kobold, then the golem's d20) miss
    dice = Dice(script=[0, 1, 0, 0])
    enter(s, dice)
    assert dice.calls == [(1, pytest.approx(3 / 10)), (1, pytest.approx(2 / 7)),
                          (1, pytest.approx(1 / 6)), (1, pytest.approx(15 / 20))]
    assert s.phase == E.PH_PRESS and s.battle.round == 1
    g = s.battle.defs[0]
    names = g.t.names
    assert gb.present(g.t, g.army)[names.index("guardian_kobold_warband")] == 0          # the 6 or 7 took the kobold
    assert gb.present(g.t, g.army)[names.index("guardian_stone_golem")] == 1
    assert g.health == 1 and units_at(s, "Nmarch", "nerath") == {}
    roll = [e for e in events(s, "roll") if e["dungeon"]][-1]
    assert roll["hits"] == {"nerath": 1, "guardians": 0} and roll["hits_by_wound"] == {"6": 1, "8": 0}


def test_an_eight_wounds_the_most_dangerous_guardian_and_the_strongest_variant_counts_only_eights():
    s = crypt(guardians=("kobold_warband", "stone_golem"))
    enter(s, Dice(script=[1, 0, 0]))                                 # the fighter rolls 8+; guardians miss
    g = s.battle.defs[0]
    names = g.t.names
    assert gb.present(g.t, g.army)[names.index("guardian_stone_golem")] == 0
    assert gb.present(g.t, g.army)[names.index("guardian_kobold_warband")] == 1
    old = crypt(rules=replace(FFA, battle=replace(FFA.battle, guardian_wounds="strongest")),
                guardians=("kobold_warband", "stone_golem"))
    dice = Dice(script=[0, 0, 0])
    enter(old, dice)                                                 # one draw at 8+ for the hero: a 6 is a miss
    assert dice.calls[0] == (1, pytest.approx(3 / 10)) and len(dice.calls) == 3
    assert old.battle.defs[0].health == 2


def test_fight_odds_with_per_monster_wound_values_match_hand_math():
    # one fighter (d10) against A (d6, 6+) and B (d8, 8+), all rolling at once. The fighter's roll: 8+
    # (3/10) wounds B first (more dangerous), else A; 6-7 (2/10) wounds only A; else a miss.
    F = Fraction
    hit = {A6: F(1, 6), B8: F(3, 8)}

    def end(a, b):                          # P(the guardians are all defeated: won or both destroyed)
        if not a and not b:
            return F(1)
        p_safe = (1 - hit[A6]) ** a * (1 - hit[B8]) ** b
        moves = {}                          # guardians left after the fighter's roll -> probability
        for p, (a2, b2) in ((F(3, 10), (a, 0) if b else (0, 0)), (F(2, 10), (0, b)), (F(5, 10), (a, b))):
            moves[(a2, b2)] = moves.get((a2, b2), 0) + p
        total = F(0)
        for (a2, b2), p in moves.items():
            if (a2, b2) == (a, b):
                continue
            total += p * p_safe * end(a2, b2) + p * (1 - p_safe) * (1 if not a2 and not b2 else 0)
        stay = moves.get((a, b), 0) * p_safe
        return total / (1 - stay)
    expected = end(1, 1)
    assert dg.fight_chance(FFA.battle, (A6, B8), (("fighter", 1),)) == pytest.approx(float(expected), abs=1e-12)
    odds = dg.fight_odds(FFA.battle, {"fighter": 1}, [A6, B8])
    assert odds.attacker_wins + odds.draw == pytest.approx(float(expected), abs=1e-12)
    assert odds.attacker_wins + odds.defender_wins + odds.draw + odds.pruned == pytest.approx(1, abs=1e-12)
    # the strongest variant (every die needs 8+) is the old ordinary battle, and worse for the hero
    old = dg.fight_odds(replace(FFA.battle, guardian_wounds="strongest"), {"fighter": 1}, [A6, B8])
    assert old.attacker_wins + old.draw < float(expected)


@pytest.mark.parametrize("heroes", [{"fighter": 1}, {"fighter": 2, "wizard": 1}])
@pytest.mark.parametrize("guardians", [("goblin_raiders",), ("medusa",), ("lich",), ("zombie_horde", "minotaur"),
                                       ("medusa", "ogre")])
def test_the_level_recursion_equals_the_exact_solver_when_every_guardian_has_one_wound_value(heroes, guardians):
    gs = tuple(G(k) for k in guardians)
    t = dg.level_fight(dg.dungeon_rules(FFA.battle, gs), gs, heroes, dg.guardian_army(gs))
    odds = dg.fight_odds(FFA.battle, heroes, gs)                  # one wound value: the generic exact solver
    assert t.prob[t.outcome == ATTACKER_WINS].sum() == pytest.approx(odds.attacker_wins, abs=1e-12)
    assert t.prob[t.outcome == DRAW].sum() == pytest.approx(odds.draw, abs=1e-12)
    assert t.expected_rounds == pytest.approx(odds.expected_rounds, abs=1e-9)


def test_the_engine_plays_the_wound_value_into_the_battle_table():
    s = crypt(guardians=("stone_golem",))
    enter(s, Dice())                                                  # nobody hits: the fight waits
    assert s.phase == E.PH_PRESS and s.battle.dungeon and s.battle.round == 1
    t, d = s.battle.att.t, s.battle.defs[0].t
    assert t.p[t.names.index("fighter")] == pytest.approx(0.3)
    assert d.p[d.names.index("guardian_stone_golem")] == pytest.approx(0.75)
    assert E.legal_actions(s) == [PressOn(), RetreatTo(region(s, "Nmarch"))]   # Imarch is enemy land
    assert s.revealed == {region(s, "Crypt")} and s.stats["dungeons_explored"][N] == 1


@pytest.mark.parametrize("heroes, guardians", [
    ({"fighter": 1, "wizard": 1}, ("troll", "kobold_warband")),          # 7+ and 6+: per-monster levels
    ({"fighter": 1}, ("kobold_warband", "stone_golem")),                # 6+ and 8+
    ({"fighter": 2}, ("lich",)),
    ({"fighter": 1}, ("goblin_raiders",)),
])
def test_engine_fights_agree_with_the_exact_odds(heroes, guardians):
    n = 1500
    spec = ", ".join(f"{c} {u}" for u, c in heroes.items())
    base = crypt(heroes=spec, guardians=guardians, deck=("treasure_cubic_gate",))
    base.log = None
    for u, c in heroes.items():
        act(base, "Move", "Nmarch", "Crypt", u, c)
    wins = 0
    for seed in range(n):
        s = base.clone()
        r = np.random.default_rng(seed)
        E.apply_action(s, E.END_PHASE, r)
        while s.phase == E.PH_PRESS:
            E.apply_action(s, E.PRESS_ON, r)
        wins += s.stats["dungeons_won"][N]
    odds = dg.fight_odds(FFA.battle, heroes, [G(k) for k in guardians])
    p = odds.attacker_wins + odds.draw             # both destroyed: the guardians are dead too (gap D3)
    se = math.sqrt(p * (1 - p) / n)
    assert abs(wins / n - p) < 4 * se, (wins / n, p, se)


# ---------------------------------------------------------------------------------------------
# The fight in the engine
# ---------------------------------------------------------------------------------------------
def test_a_first_strike_guardian_kills_before_the_hero_rolls():
    s = crypt(guardians=("medusa",))
    dice = Dice(**ALL_HIT)
    enter(s, dice)
    assert dice.calls == [(1, pytest.approx(7 / 12))]                # only Medusa rolled
    assert units_at(s, "Crypt", "nerath") == {}
    assert [e["heroes"] for e in events(s, "dungeon_lost")] == [{}]
    assert s.guardians[region(s, "Crypt")] == [guardian_id(s, "medusa")]
    assert s.stats["dungeons_won"][N] == 0 and s.hands[N] == [] and s.treasure_deck == [
        card_id(s, "treasure_golden_idol"), card_id(s, "treasure_vorpal_sword")]


def test_without_first_strike_both_roll_at_once():
    s = crypt(guardians=("ogre",))
    dice = Dice(script=[0, 1])                                        # hero misses, the ogre hits
    enter(s, dice)
    assert [n for n, _p in dice.calls] == [1, 1]
    assert dice.calls[0][1] == pytest.approx(0.5) and dice.calls[1][1] == pytest.approx(7 / 12)
    assert events(s, "dungeon_lost") and units_at(s, "Crypt", "nerath") == {}


def test_a_wizard_strikes_first_in_the_dungeon_too():
    s = crypt(heroes="wizard", guardians=("ogre",))
    dice = Dice(**ALL_HIT)
    enter(s, dice, heroes=("wizard",))
    assert [n for n, _p in dice.calls] == [1]                         # the ogre died before rolling
    assert s.stats["dungeons_won"][N] == 1 and units_at(s, "Crypt", "nerath") == {"wizard": 1}


def test_all_guardians_are_fought_at_once_and_each_die_takes_a_hit():
    s = crypt(heroes="2 fighter", guardians=("goblin_raiders", "kobold_warband"))
    dice = Dice(script=[1, 0, 0])                                    # round 1: one hero hit, no guardian hit
    enter(s, dice)
    assert s.phase == E.PH_PRESS
    g = s.battle.defs[0]
    # both fighters roll together; then every guardian die (2 goblin d6 + 1 kobold d6) in one throw
    assert dice.calls == [(2, pytest.approx(0.5)), (3, pytest.approx(1 / 6))]
    assert g.health == 2                                              # 3 dice - 1 hit
    dice.script, dice.rest = [2, 0, 0], (lambda n, p: 0)
    play(s, dice, "PressOn")
    assert s.stats["dungeons_won"][N] == 1 and s.gold[N] == 1        # goblins 1 gold, kobolds 0
    assert region(s, "Crypt") not in s.guardians
    assert tokens(s) == 26


def test_fleeing_leaves_the_guardians_in_place_healed():
    s = crypt(guardians=("goblin_raiders",))
    gid = guardian_id(s, "goblin_raiders")
    enter(s, Dice(script=[1, 0]))                                     # one goblin die lost
    assert s.battle.defs[0].health == 1
    play(s, Dice(), "RetreatTo", "Nmarch")
    crypt_r = region(s, "Crypt")
    assert units_at(s, "Nmarch", "nerath") == {"fighter": 1} and units_at(s, "Crypt", "nerath") == {}
    assert s.guardians[crypt_r] == [gid] and s.battle is None
    assert s.stats["dungeons_won"][N] == 0 and s.hands[N] == [] and s.explored == set()
    assert events(s, "dungeon_fled")[0]["units"] == {"fighter": 1}
    # the regroup may end at once and brings no new guardians; the token is whole for the next hero
    assert s.phase == E.PH_REGROUP and E.is_legal(s, E.END_PHASE)
    act(s, "EndPhase")
    assert s.guardians[crypt_r] == [gid] and tokens(s) == 26
    assert dg.guardian_army(s.cards.guardians[x] for x in s.guardians[crypt_r]) == {"guardian_goblin_raiders": 2}


def test_no_flight_without_an_adjacent_friendly_region():
    s = crypt(guardians=("goblin_raiders",), owner={"Nmarch": "iron_circle"},
              units={"Crypt": {"nerath": "fighter"}, "Nera": {"nerath": "footsoldier"}})
    dice = Dice(script=[0, 0, 0, 0, 1, 0, 1, 0])                     # two quiet rounds, then two hero hits
    play(s, dice, "EndPhase")
    assert s.stats["dungeons_won"][N] == 1 and not events(s, "press_on")


def test_a_hero_may_play_an_attack_card_in_the_dungeon_fight():
    s = crypt(guardians=("stone_golem",), hands={"nerath": ["treasure_vorpal_sword", "treasure_flame_tongue"]})
    enter(s, Dice())
    crypt_r = region(s, "Crypt")
    assert s.phase == E.PH_EVENT and s.window.view == ("combat", N, crypt_r, "attack") and s.battle.dungeon
    vorpal, flame = card_id(s, "treasure_vorpal_sword"), card_id(s, "treasure_flame_tongue")
    assert E.legal_actions(s) == [PlayCard(vorpal, crypt_r), PlayCard(flame, crypt_r), Pass()]
    play(s, Dice(), "PlayCard", vorpal, "Crypt")                     # +2 to hit: from 8+ to 6+
    play(s, Dice(), "PlayCard", flame, "Crypt")                      # +1 die
    assert s.phase == E.PH_PRESS and s.battle.round == 1             # one quiet round
    t = s.battle.att.t
    f = t.names.index("fighter")
    assert (t.dice[f], t.p[f]) == (2, pytest.approx(0.5))
    assert s.kept[N] == [vorpal, flame]


def test_a_victory_with_the_treasure_deck_empty_gives_only_the_gold():
    s = crypt(guardians=("troll",), deck=())
    enter(s, Dice(script=[1, 0]))
    assert s.gold[N] == 2 and s.hands[N] == [] and s.stats["treasures"][N] == 0
    assert events(s, "no_treasure") and s.explored == {region(s, "Crypt")}


# ---------------------------------------------------------------------------------------------
# Victory: gold, a treasure, VP; the regroup after it
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode, vp, gold", [("vp", 2, 2), ("gold", 0, 4), ("none", 0, 2)])
def test_victory_pays_the_gold_bonus_and_the_top_treasure(mode, vp, gold):
    rules = Rules(map="small", mode="free_for_all", treasure_vp=mode)
    s = crypt(rules, guardians=("troll",))                            # troll: 2 gold
    enter(s, Dice(script=[1, 0]))
    vorpal, idol = card_id(s, "treasure_vorpal_sword"), card_id(s, "treasure_golden_idol")
    assert s.hands[N] == [vorpal] and s.treasure_deck == [idol]      # the top (last) card, a kept one
    assert (s.vp[N], s.gold[N]) == (vp, gold)
    assert s.stats["treasures"][N] == 1 and s.stats["treasure_vp"][N] == vp
    assert s.stats["guardian_gold"][N] == 2 and s.stats["card_gold"][N] == gold - 2
    assert s.stats["dungeons_won"][N] == 1 and s.stats["dungeons_explored"][N] == 1
    assert [e["card"] for e in events(s, "treasure")] == ["treasure_vorpal_sword"]
    assert s.phase == E.PH_REGROUP


def test_an_immediate_treasure_is_played_at_once():
    s = crypt(guardians=("kobold_warband",), deck=("treasure_vorpal_sword", "treasure_crown_of_the_last_emperor"))
    enter(s, Dice(script=[1, 0]))
    crown = card_id(s, "treasure_crown_of_the_last_emperor")
    assert s.phase == E.PH_EVENT and s.window.kind == "immediate"
    assert E.legal_actions(s) == [PlayCard(crown)]                   # no Pass
    assert s.vp[N] == 2                                               # its VP count when it is gained
    act(s, "PlayCard", crown)
    assert s.gold[N] == 1 and s.kept[N] == [crown] and s.hands[N] == []
    assert s.stats["treasures_played"][N] == 1 and s.phase == E.PH_REGROUP


def test_after_a_victory_the_heroes_must_leave_and_two_new_guardians_come():
    s = crypt(guardians=("troll",))
    crypt_r = region(s, "Crypt")
    assert tokens(s) == 26
    enter(s, Dice(script=[1, 0]))
    assert s.explored == {crypt_r} and crypt_r not in s.guardians
    assert s.supply[0] == guardian_id(s, "troll") and tokens(s) == 26   # the troll is back in the supply
    assert s.phase == E.PH_REGROUP and not E.is_legal(s, E.END_PHASE)
    assert sorted(s.board.names[r] for r in E.destinations(s, crypt_r, "fighter")) == ["Nmarch"]
    expected = [s.supply[-1], s.supply[-2]]                          # drawn from the top of the supply
    leave(s)
    assert s.guardians[crypt_r] == expected and tokens(s) == 26
    assert crypt_r not in s.revealed                                  # face down
    assert [g.key for g in (s.cards.guardians[x] for x in expected)] == ["young_black_dragon", "lich"]


def test_the_number_of_new_guardians_is_a_rule():
    rules = Rules(map="small", mode="free_for_all", new_guardians=3)
    s = crypt(rules, guardians=("kobold_warband",))
    enter(s, Dice(script=[1, 0]))
    leave(s)
    assert len(s.guardians[region(s, "Crypt")]) == 3


def test_a_dungeon_gives_at_most_treasures_per_dungeon():
    rules = Rules(map="small", mode="free_for_all", treasures_per_dungeon=1)
    s = crypt(rules, guardians=("kobold_warband",))
    enter(s, Dice(script=[1, 0]))
    leave(s)
    crypt_r = region(s, "Crypt")
    assert crypt_r not in s.guardians and s.dungeon_given == {crypt_r: 1}
    assert events(s, "dungeon_closed")[0]["treasures"] == 1 and tokens(s) == 26


def test_an_empty_dungeon_holds_nothing():
    s = crypt(guardians=())
    enter(s, Dice())
    assert events(s, "dungeon_empty") and s.hands[N] == [] and s.stats["dungeons_explored"][N] == 0
    assert s.explored == set() and E.is_legal(s, E.END_PHASE)        # not explored: the hero may stay


def test_without_dungeons_heroes_find_nothing():
    rules = Rules(map="small", mode="free_for_all", dungeons=False)
    g = E.new_game(rules, np.random.default_rng(1))
    assert g.guardians == {} and g.supply == [] and g.treasure_deck == []
    s = crypt(rules, guardians=())
    assert s.guardians == {} and s.treasure_deck == [card_id(s, "treasure_golden_idol"),
                                                     card_id(s, "treasure_vorpal_sword")]
    s.guardians = {region(s, "Crypt"): [guardian_id(s, "kobold_warband")]}    # even a stray token is ignored
    enter(s, Dice(**ALL_HIT))
    assert events(s, "dungeon_empty") and not events(s, "dungeon")
    assert s.stats["treasures"][N] == 0 and s.hands[N] == []
    assert units_at(s, "Crypt", "nerath") == {"fighter": 1}


def test_a_guardian_killed_in_the_same_round_as_the_last_hero_is_gone():
    s = crypt(guardians=("ogre",))
    enter(s, Dice(**ALL_HIT))                                        # both roll at once and both hit
    assert units_at(s, "Crypt", "nerath") == {}
    assert region(s, "Crypt") not in s.guardians or s.phase != E.PH_REGROUP   # killed (gap D3) ...
    assert s.stats["dungeons_won"][N] == 1 and s.stats["treasures"][N] == 1   # ... so the dungeon is plundered


# ---------------------------------------------------------------------------------------------
# The long game: all capitals or the treasures
# ---------------------------------------------------------------------------------------------
def finish_round(s, limit=2000):
    """Play on with neutral choices until the round ends (or the game does)."""
    r = s.round
    for _ in range(limit):
        if s.is_terminal or s.round != r:
            return s
        legal = E.legal_actions(s)
        a = E.END_PHASE if E.END_PHASE in legal else (Pass() if Pass() in legal else legal[0])
        E.apply_action(s, a, np.random.default_rng(0))
    raise AssertionError("the round did not end")


def long_game(treasures, realm="karkoth", **kw):
    rules = Rules(map="small", game_length="long", events=False, **kw)
    s = build_state(rules, realm=realm, units={"Nera": {"nerath": "footsoldier"}}, record=True)
    for p, n in treasures.items():
        s.stats["treasures"][p] = n
    return s


def test_treasure_targets_follow_the_seed():
    assert Rules(game_length="long", mode="free_for_all").treasure_target == 8
    assert Rules(game_length="long").treasure_target == 12
    assert Rules(game_length="long", treasures_to_win=3).treasure_target == 3
    assert Rules(game_length="long").vp_target is None


def test_enough_treasures_win_the_long_game_at_the_end_of_the_round():
    s = long_game({N: 2}, mode="free_for_all", treasures_to_win=2)
    assert s.realm == N and not s.is_terminal                         # (the others had nothing to do)
    act(s, "Move", "Nera", "Nmarch", "footsoldier", 1)
    assert not s.is_terminal or s.round == 1                          # checked only when the round is over
    finish_round(s)
    assert s.is_terminal and s.winner == s.seat_of[N] and not s.timed_out
    assert events(s, "win")[0]["realms"] == ["nerath"]


def test_one_treasure_short_does_not_win():
    s = long_game({N: 1, K: 1}, mode="free_for_all", treasures_to_win=2)
    finish_round(s)
    assert not s.is_terminal and s.round == 1


def test_no_treasure_win_when_it_is_switched_off():
    for kw in ({"treasure_win": False}, {"dungeons": False}):
        s = long_game({N: 5}, mode="free_for_all", treasures_to_win=2, **kw)
        finish_round(s)
        assert not s.is_terminal, kw


def test_partners_add_their_treasures_and_a_tie_plays_on():
    s = long_game({V: 1, N: 2}, treasures_to_win=3)
    finish_round(s)
    assert s.is_terminal and s.winner == (s.seat_of[V], s.seat_of[N])
    tie = long_game({V: 1, N: 2, K: 3}, treasures_to_win=3)
    finish_round(tie)
    assert not tie.is_terminal and events(tie, "tie")
    more = long_game({V: 1, N: 3, K: 3}, treasures_to_win=3)
    finish_round(more)
    assert more.is_terminal and more.winner == (more.seat_of[V], more.seat_of[N])        # 4 beats 3


def test_treasure_win_counts_treasures_gained_in_play():
    rules = Rules(map="small", mode="free_for_all", game_length="long", treasures_to_win=1, events=False)
    s = build_state(rules, realm="nerath", units={"Nmarch": {"nerath": "fighter"}, "Nera": {"nerath": "footsoldier"}},
                    guardians={"Crypt": ["kobold_warband"]}, treasure_deck=["treasure_vorpal_sword"], record=True)
    enter(s, Dice(script=[1, 0]))
    assert s.stats["treasures"][N] == 1 and not s.is_terminal
    finish_round(s)
    assert s.is_terminal and s.winner == s.seat_of[N]


# ---------------------------------------------------------------------------------------------
# The attacker chooses the order of the fights, dungeons included
# ---------------------------------------------------------------------------------------------
def _crypt_and_imarch(rules):
    s = crypt(rules, units={"Nmarch": {"nerath": "fighter, footsoldier"}, "Imarch": {"iron_circle": "footsoldier"},
                            "Nera": {"nerath": "castle, footsoldier"}})
    act(s, "Move", "Nmarch", "Crypt", "fighter", 1)
    act(s, "Move", "Nmarch", "Imarch", "footsoldier", 1)
    act(s, "EndPhase")
    return s


def order_of_fights(s):
    return [(e["event"], s.board.names[e["region"]]) for e in s.log if e["event"] in ("battle", "dungeon")]


def test_the_attacker_may_fight_the_dungeon_before_a_land_battle():
    """Seed: "Angriberen vælger, i hvilken rækkefølge kampene afvikles" — a dungeon fight is one of them."""
    assert Rules().dungeon_fights_last is False
    s = _crypt_and_imarch(FFA)
    assert s.decision == "battle order"
    assert sorted(s.board.names[a.region] for a in E.legal_actions(s)) == ["Crypt", "Imarch"]
    act(s, "Fight", "Crypt")
    r = np.random.default_rng(0)
    while s.realm == N and s.phase not in (E.PH_REGROUP, E.PH_BUY):
        E.apply_action(s, PressOn() if s.phase == E.PH_PRESS else E.legal_actions(s)[0], r)
    assert order_of_fights(s) == [("dungeon", "Crypt"), ("battle", "Imarch")]


def test_dungeons_after_every_land_battle_variant():
    s = _crypt_and_imarch(dataclasses.replace(FFA, dungeon_fights_last=True))
    assert s.decision != "battle order"                   # one land battle: no choice; the Crypt waits
    r = np.random.default_rng(0)
    while s.realm == N and s.phase not in (E.PH_REGROUP, E.PH_BUY):
        E.apply_action(s, PressOn() if s.phase == E.PH_PRESS else E.legal_actions(s)[0], r)
    assert order_of_fights(s) == [("battle", "Imarch"), ("dungeon", "Crypt")]


class TopDice(Dice):
    """Dice whose `integers(k)` answers the highest value, k - 1."""

    def integers(self, k, *a, **kw):
        return k - 1


def test_a_defeated_guardian_may_go_back_anywhere_in_the_supply_on_top_too():
    s = crypt(guardians=("troll",))
    n = len(s.supply)
    enter(s, TopDice(script=[1, 0]))
    assert len(s.supply) == n + 1 and s.supply[-1] == guardian_id(s, "troll")   # position n of 0..n: the top
