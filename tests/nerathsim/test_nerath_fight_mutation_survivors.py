"""One battle inside the game (nerathsim/engine/fight.py): behaviours that planted bugs (mutants, see
benchmarks/tools/mutation.py) slipped past — the luck figure of a battle with two defending realms, the gold lost
when warships sink with their cargo, the logged rolls of each battle round — each on a hand-built position
with dice that roll what the test says, so every figure is exact."""
import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from nerathsim import engine as E
from nerathsim.battle.rules import BattleRules
from nerathsim.engine import fight as F
from nerathsim.engine.state import IllegalActionError
from nerathsim.game_actions import Casualties, Hit
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, region, units_at

K, V, I, N = range(4)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)
ALLY = Rules(map="small", mode="alliance", events=False, dungeons=False)
ALLY_ORDER = dataclasses.replace(ALLY, casualty_choice="order")


class Dice(np.random.Generator):
    """A generator whose binomial draws (the battle's dice, one draw per side and kind of die) return the hits
    given, in order; it records what was rolled (count, hit chance). Any other draw is a real generator's."""

    def __init__(self, hits, seed=0):
        super().__init__(np.random.PCG64(seed))
        self.hits, self.calls = list(hits), []

    def binomial(self, n, p, size=None):
        self.calls.append((int(n), float(p)))
        return self.hits.pop(0)


def _two_defenders(rules, record=False):
    """Karkoth's 2 footsoldiers attack Vmarch, held by Vailin (a monster: 3 gold) with its ally Nerath
    (a footsoldier: 1 gold). Footsoldiers hit on a 6 of a d6 (1/6), the monster on 6+ of a d12 (7/12)."""
    s = build_state(rules, record=record,
                    units={"Vmarch": {"karkoth": "2 footsoldier", "vailin": "monster", "nerath": "footsoldier"}})
    F._start_battle(s, region(s, "Vmarch"))
    return s


# the first round of _two_defenders when Karkoth scores 1 hit, Vailin 0 and Nerath 1:
# Karkoth's hits: P(1) = 10/36, P(2) = 1/36; one hit goes to the region's holder Vailin (a tie in troops), two
# hit both: the defenders expect to lose 10/36 * 3 + 1/36 * 4 = 17/18 gold. The defenders' hits: P(1) = 40/72,
# P(2) = 7/72: Karkoth expects to lose 54/72 = 3/4. It lost 1 (a footsoldier) and destroyed 3 (the monster).
E_DEF, E_ATT = Fraction(17, 18), Fraction(3, 4)
SWING = (3 - E_DEF) - (1 - E_ATT)          # 65/36, shared by the defenders as their starting gold, 3 : 1


def _luck(swing):
    return [float(swing), float(-swing * Fraction(3, 4)), 0.0, float(-swing * Fraction(1, 4))]


def test_the_expected_losses_of_a_roll_against_two_defenders_follow_the_allied_split():
    s = _two_defenders(ALLY_ORDER)
    bt = s.battle
    assert [d.realm for d in bt.defs] == [V, N] and [d.start_gold for d in bt.defs] == [3, 1]
    pa = (25 / 36, 10 / 36, 1 / 36)
    pd = (25 / 72, 40 / 72, 7 / 72)
    assert F._expected_def_loss(s, pa) == pytest.approx(float(E_DEF), abs=1e-12)
    assert F._expected_att_loss(bt, pd) == pytest.approx(float(E_ATT), abs=1e-12)
    assert F._expected_def_loss(s, (1.0,)) == 0.0 and F._expected_att_loss(bt, (1.0,)) == 0.0
    assert F._defender_allot(s, 1) == [1, 0] and F._defender_allot(s, 2) == [1, 1]


def test_a_whole_round_with_two_defenders_shares_the_luck_by_starting_gold():
    s = _two_defenders(ALLY_ORDER)
    bt = s.battle
    dice = Dice([1, 0, 1])         # Karkoth, then Vailin, then Nerath
    F._fight_round(s, dice)
    assert dice.calls == [(2, pytest.approx(1 / 6)), (1, pytest.approx(7 / 12)), (1, pytest.approx(1 / 6))]
    assert bt.round == 1
    assert [d.health for d in bt.defs] == [0, 1] and bt.att.health == 1      # the monster and a footsoldier fell
    assert F._battle_over(s) is False
    assert bt.luck == pytest.approx(_luck(SWING), abs=1e-12)
    assert sum(bt.luck) == pytest.approx(0.0, abs=1e-12)


def test_a_second_round_against_the_ally_left_standing_adds_its_own_swing():
    s = _two_defenders(ALLY_ORDER)
    bt = s.battle
    F._fight_round(s, Dice([1, 0, 1]))
    # round 2: Karkoth's footsoldier against Nerath's (Vailin is wiped out but still shares the luck): both miss;
    # each side expected to destroy 1/6 gold, so Karkoth's swing is 0 - 1/6 - (0 - 1/6) = 0
    F._fight_round(s, Dice([0, 0]))
    assert bt.round == 2 and bt.luck == pytest.approx(_luck(SWING), abs=1e-12)
    # round 3: Karkoth hits and Nerath misses: 1 gold destroyed against 1/6 expected, 0 lost against 1/6: +1
    F._fight_round(s, Dice([1, 0]))
    extra = (1 - Fraction(1, 6)) - (0 - Fraction(1, 6))
    assert bt.round == 3 and F._battle_over(s)
    assert bt.luck == pytest.approx(_luck(SWING + extra), abs=1e-12)


def test_placing_hits_one_by_one_gives_the_same_luck_as_the_whole_round():
    s = _two_defenders(ALLY)
    assert s.rules.casualty_choice == "each_hit"
    bt = s.battle
    F._roll_step(s, Dice([]), True)            # no first strikers: nothing is rolled
    assert bt.luck_base is None and type(s.stack[-1]) is not F.HitsToPlace
    F._roll_step(s, Dice([1, 0, 1]), False)
    assert [(f.realm, f.hits) for f in s.stack[-3:]] == [(N, 0), (V, 1), (K, 1)]   # the attacker's on top
    assert bt.luck_base.e_def == pytest.approx(float(E_DEF)) and bt.luck_base.e_att == pytest.approx(float(E_ATT))
    assert F._place_hits(s) is False          # a single place for every hit: nobody is asked
    assert type(s.stack[-1]) is not F.HitsToPlace
    F._step_luck(s)
    assert bt.luck == pytest.approx(_luck(SWING), abs=1e-12) and bt.luck_base is None
    F._step_luck(s)                           # no roll waiting: nothing changes
    assert bt.luck == pytest.approx(_luck(SWING), abs=1e-12)


def test_a_realm_with_a_real_choice_is_asked_where_its_hit_goes_and_the_luck_follows_its_choice():
    s = build_state(FFA, units={"Vmarch": {"karkoth": "2 footsoldier", "vailin": "footsoldier, siege_engine"}})
    F._start_battle(s, region(s, "Vmarch"))
    bt = s.battle
    assert s.phase != E.PH_HIT
    F._roll_step(s, Dice([1, 0, 0]), False)        # Karkoth hits once; Vailin's footsoldier and siege engine miss
    assert F._place_hits(s) is True                # two places for one hit: Vailin is asked
    frame = s.stack[-1]
    assert (frame.realm, frame.hits) == (V, 1) and (s.phase, s.decider, s.current_player) == (E.PH_HIT, V, s.seat_of[V])
    assert F._battle_over(s) is False
    assert F._do_hit(s, frame, Hit("siege_engine")) is True        # its last hit: placed
    assert frame.hits == 0 and bt.defs[0].health == 1
    s.stack.pop()
    F._step_luck(s)
    # the yardstick is the cheapest plan: the defender expected to lose 10/36 * 1 + 1/36 * 3 = 13/36 gold and
    # chose to lose 2; Karkoth expected to lose 1/6 + 3/8 = 13/24 and lost nothing
    swing = (2 - Fraction(13, 36)) - (0 - Fraction(13, 24))
    assert bt.luck == pytest.approx([float(swing), float(-swing), 0.0, 0.0], abs=1e-12)


def test_a_realm_placing_two_hits_is_asked_twice_and_its_frame_checks_its_actions():
    s = build_state(FFA, units={"Vmarch": {"karkoth": "2 footsoldier", "vailin": "2 footsoldier, siege_engine"}})
    F._start_battle(s, region(s, "Vmarch"))
    bt = s.battle
    F._roll_step(s, Dice([2, 0, 0]), False)
    assert F._place_hits(s) is True and bt.att.health == 2        # Karkoth's frame of no hits placed nothing
    frame = s.stack[-1]
    assert frame.legal(s) == F.hit_actions(s) == [Hit("footsoldier"), Hit("siege_engine")]
    assert frame.is_legal(s, Hit("siege_engine")) and not frame.is_legal(s, Hit("dragon"))
    assert not frame.is_legal(s, Casualties("cheapest"))
    with pytest.raises(IllegalActionError, match="unknown action"):
        frame.apply(s, Casualties("cheapest"), Dice([]))
    assert F._do_hit(s, frame, Hit("siege_engine")) is False and frame.hits == 1
    assert F._do_hit(s, frame, Hit("footsoldier")) is True and frame.hits == 0 and bt.defs[0].health == 1
    choice = F.CasualtyChoice(K, s.seat_of[K])
    assert choice.legal(s) == [Casualties("cheapest"), Casualties("weakest")]
    assert choice.is_legal(s, Casualties("cheapest")) and not choice.is_legal(s, Hit("footsoldier"))
    with pytest.raises(IllegalActionError, match="unknown action"):
        choice.apply(s, Hit("footsoldier"), Dice([]))


def test_hits_beyond_a_sides_health_are_lost_once_it_is_wiped_out():
    s = build_state(FFA, units={"Vmarch": {"karkoth": "3 footsoldier", "vailin": "footsoldier"}})
    F._start_battle(s, region(s, "Vmarch"))
    F._roll_step(s, Dice([3, 0]), False)
    assert F._place_hits(s) is False and s.battle.defs[0].health == 0 and s.battle.att.health == 3
    assert type(s.stack[-1]) is not F.HitsToPlace


def test_the_expected_loss_of_a_side_stops_at_its_last_unit():
    s = build_state(FFA, units={"Vmarch": {"karkoth": "footsoldier", "vailin": "2 footsoldier"}})
    F._start_battle(s, region(s, "Vmarch"))
    bt = s.battle
    # two dice against one footsoldier: it is lost to one hit or two
    assert F._expected_att_loss(bt, (25 / 36, 10 / 36, 1 / 36)) == pytest.approx(11 / 36, abs=1e-12)
    assert F._expected_def_loss(s, (0.5, 0.25, 0.25)) == pytest.approx(0.75, abs=1e-12)


def test_a_side_wiped_out_by_first_strikes_expects_to_lose_nothing_more_in_the_step_after():
    s = build_state(ALLY_ORDER, units={"Vmarch": {"karkoth": "footsoldier", "vailin": "wizard, footsoldier"}})
    F._start_battle(s, region(s, "Vmarch"))
    bt = s.battle
    dice = Dice([1, 0])             # step 1: Vailin's wizard (1/2) kills the footsoldier; step 2: its footsoldier misses
    F._fight_round(s, dice)
    assert dice.calls == [(1, 0.5), (1, pytest.approx(1 / 6))] and bt.att.health == 0
    assert F._expected_att_loss(bt, (0.5, 0.5)) == 0.0
    # step 1: Karkoth expected to lose 1/2 gold and lost 1; step 2 expected and cost nothing
    assert bt.luck == pytest.approx([-0.5, 0.5, 0.0, 0.0], abs=1e-12)


def test_a_fleets_loads_list_its_carrying_warships_at_that_sea_in_sinking_order():
    s, t = _three_ships("per_ship")
    fs, se, fi = t.idx["footsoldier"], t.idx["siege_engine"], t.idx["fighter"]
    sea = region(s, "Inner Sea")
    s.ships[2].region = region(s, "South Sea")          # the empty warship elsewhere: carrying or not, not listed
    one, three = [0] * t.U, [0] * t.U
    one[fs] = 1
    three[se], three[fi] = 1, 1
    assert F._fleet_loads(s, sea, K) == (tuple(one), tuple(three))       # the cheaper cargo sinks first
    assert F._fleet_loads(s, sea, V) == ()


def test_allied_defenders_at_sea_split_an_odd_hit_to_the_first_listed_when_nobody_holds_the_region():
    s = build_state(ALLY, ships=[("vailin", "Inner Sea"), ("nerath", "Inner Sea")],
                    units={"Inner Sea": {"karkoth": "dragon"}})
    F._start_battle(s, region(s, "Inner Sea"))
    assert [d.realm for d in s.battle.defs] == [V, N] and s.battle.owner0 == -1
    assert F._defender_allot(s, 1) == [1, 0] and F._defender_allot(s, 3) == [1, 1]


def test_a_battle_counts_every_realm_that_fights_it_and_one_attack():
    s = _two_defenders(ALLY_ORDER)
    assert s.stats["battles_fought"] == [1, 1, 0, 1] and s.stats["attacks"] == [1, 0, 0, 0]
    bt = s.battle
    assert (bt.region, bt.at_sea, bt.attacker, bt.round, bt.retreated, bt.owner0) == (region(s, "Vmarch"), False, K, 0,
                                                                                        False, V)
    assert [(w.realm, w.role) for w in bt.windows] == [(K, "attack"), (V, "defence"), (N, "defence")]


def test_the_battles_card_windows_are_offered_in_order_until_one_opens(monkeypatch):
    s = _two_defenders(ALLY)
    r, calls = region(s, "Vmarch"), []

    def open_window(s, kind, realm, where, role):
        calls.append((kind, realm, where, role))
        return realm == V                     # only Vailin has a card to play

    monkeypatch.setattr(F, "_open_window", open_window)
    assert F._offer_windows(s) is True
    assert calls == [("combat", K, r, "attack"), ("combat", V, r, "defence")]
    assert [(w.realm, w.role) for w in s.battle.windows] == [(N, "defence")]
    assert F._offer_windows(s) is False and calls[-1] == ("combat", N, r, "defence") and s.battle.windows == []


def test_a_casualty_order_is_asked_only_of_a_side_with_two_kinds_of_units():
    s = build_state(ALLY_ORDER, units={"Vmarch": {"karkoth": "2 footsoldier, fighter", "vailin": "monster",
                                                  "nerath": "footsoldier, siege_engine"}})
    F._start_battle(s, region(s, "Vmarch"))
    choices = [f.realm for f in s.stack if type(f) is F.CasualtyChoice]
    assert choices == [N, K]                  # pushed reversed: the attacker's on top
    s = build_state(ALLY, units={"Vmarch": {"karkoth": "2 footsoldier, fighter", "vailin": "monster"}})
    F._start_battle(s, region(s, "Vmarch"))
    assert not any(type(f) is F.CasualtyChoice for f in s.stack)   # each_hit: no order to choose


def test_each_round_logs_its_rolls_with_the_battle_round_step_dice_and_hits():
    s = build_state(ALLY_ORDER, record=True,
                    units={"Vmarch": {"karkoth": "2 footsoldier, wizard", "vailin": "monster", "nerath": "footsoldier"}})
    s.log.clear()
    F._start_battle(s, region(s, "Vmarch"))
    dice = Dice([0, 1, 0, 1, 0, 0, 0])   # round 1: the wizard strikes first and misses, then one hit each way;
    F._fight_round(s, dice)              # round 2: everybody misses (Vailin's monster fell: it rolls no more)
    F._fight_round(s, dice)
    assert dice.hits == [] and len(dice.calls) == 7
    rolls = [e for e in s.log if e["event"] == "roll"]
    assert [(e["battle_round"], e["step"]) for e in rolls] == [(1, "first_strike"), (1, "other"), (2, "first_strike"),
                                                               (2, "other")]
    first, other = rolls[0], rolls[1]
    assert first["realm"] == "karkoth" and first["region"] == region(s, "Vmarch") and first["dungeon"] is False
    assert first["dice"] == {"karkoth": {"wizard": 1}, "vailin": {}, "nerath": {}}
    assert first["hits"] == {"karkoth": 0, "vailin": 0, "nerath": 0}
    assert other["dice"] == {"karkoth": {"footsoldier": 2}, "vailin": {"monster": 1},
                             "nerath": {"footsoldier": 1}}
    assert other["hits"] == {"karkoth": 1, "vailin": 0, "nerath": 1}
    assert rolls[3]["dice"] == {"karkoth": {"footsoldier": 1}, "vailin": {}, "nerath": {"footsoldier": 1}}


# --- warships sunk with their cargo ---------------------------------------------------------------------------
def _three_ships(drowning):
    """Karkoth at the Inner Sea: a warship with a siege engine (2 gold) and a fighter (2), one with a footsoldier
    (1), an empty one, and a dragon (5). After the battle one warship and no dragon are left."""
    s = build_state(dataclasses.replace(FFA, drowning=drowning),
                    ships=[("karkoth", "Inner Sea", ["siege_engine", "fighter"]), ("karkoth", "Inner Sea", ["footsoldier"]),
                           ("karkoth", "Inner Sea", [])], units={"Inner Sea": {"karkoth": "dragon"}})
    return s, s.tab


def test_per_ship_drowning_sinks_the_least_laden_warships_with_their_cargo_and_counts_the_gold():
    s, t = _three_ships("per_ship")
    surv = [0] * t.U
    surv[t.idx["warship"]], surv[t.idx["siege_engine"]] = 1, 1      # the fighter was hit
    F._apply_survivors(s, region(s, "Inner Sea"), K, surv, True)
    assert [(sh.id, [t.names[u] for u in sh.cargo]) for sh in s.ships] == [(0, ["siege_engine"])]
    # lost: two warships (4 gold), the footsoldier drowned with its ship (1), the fighter (2), the dragon (5)
    assert s.stats["units_lost"][K] == 5 and s.stats["gold_lost"][K] == 12
    assert units_at(s, "Inner Sea", "karkoth") == {}


def test_per_ship_drowning_takes_only_the_heroes_hit_from_a_warship_afloat():
    s = build_state(FFA, ships=[("karkoth", "Inner Sea", ["fighter", "fighter"])])
    t = s.tab
    surv = [0] * t.U
    surv[t.idx["warship"]], surv[t.idx["fighter"]] = 1, 1            # one of the two fighters was hit
    F._apply_survivors(s, region(s, "Inner Sea"), K, surv, True)
    assert [[t.names[u] for u in sh.cargo] for sh in s.ships] == [["fighter"]]
    assert s.stats["units_lost"][K] == 1 and s.stats["gold_lost"][K] == 2


def test_pooled_drowning_keeps_the_most_laden_warship_and_puts_the_surviving_cargo_aboard():
    s, t = _three_ships("pooled")
    surv = [0] * t.U
    surv[t.idx["warship"]], surv[t.idx["siege_engine"]], surv[t.idx["footsoldier"]] = 1, 1, 1
    F._apply_survivors(s, region(s, "Inner Sea"), K, surv, True)
    assert [(sh.id, [t.names[u] for u in sh.cargo]) for sh in s.ships] == [(0, ["siege_engine", "footsoldier"])]
    # lost: two warships (4 gold), the fighter (2), the dragon (5)
    assert s.stats["units_lost"][K] == 4 and s.stats["gold_lost"][K] == 11


def test_pooled_drowning_of_more_cargo_than_the_warships_left_can_carry():
    s, t = _three_ships("pooled")
    surv = [0] * t.U
    surv[t.idx["warship"]], surv[t.idx["dragon"]] = 2, 1
    surv[t.idx["siege_engine"]], surv[t.idx["fighter"]], surv[t.idx["footsoldier"]] = 1, 1, 1
    F._apply_survivors(s, region(s, "Inner Sea"), K, surv, True)
    assert sorted((sh.id, tuple(t.names[u] for u in sh.cargo)) for sh in s.ships) == [
        (0, ("siege_engine", "fighter")), (1, ("footsoldier",))]
    assert s.stats["units_lost"][K] == 1 and s.stats["gold_lost"][K] == 2       # the empty warship
    assert units_at(s, "Inner Sea", "karkoth") == {"dragon": 1}


def test_a_battle_fought_hit_by_hit_through_the_game_asks_the_owner_and_adds_each_steps_luck(default_action):
    s = build_state(FFA, record=True, units={"Kmarch": {"karkoth": "2 footsoldier"},
                                             "Vmarch": {"vailin": "footsoldier, siege_engine"}})
    dice = Dice([1, 0, 0, 2, 0])     # round 1: Karkoth hits once, Vailin misses; round 2: Karkoth hits twice
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2, rng=dice)      # the only attack: the battle begins
    asked = []
    while not s.stats["battles_fought"][K] or s.battle is not None:       # until the battle is over
        if s.phase == E.PH_HIT:
            asked.append((s.decider, E.legal_actions(s)))
            a = Hit("siege_engine")           # not the cheapest: the luck figure counts it against the yardstick
        else:
            a = default_action(s)
        E.apply_action(s, a, dice)
    assert dice.hits == [] and asked == [(V, [Hit("footsoldier"), Hit("siege_engine")])]
    # round 1: the defender expected to lose 13/36 gold and lost 2, Karkoth expected 13/24 and lost 0;
    # round 2: Vailin's last footsoldier (expected 11/36), Karkoth expected 1/6 and lost 0
    swing = (2 - Fraction(13, 36)) + Fraction(13, 24) + (1 - Fraction(11, 36)) + Fraction(1, 6)
    assert s.stats["luck"] == pytest.approx([float(swing), float(-swing), 0.0, 0.0], abs=1e-12)
    assert s.stats["gold_lost"][V] == 3 and s.stats["units_lost"][V] == 2 and s.stats["units_lost"][K] == 0
    rolls = [e for e in s.log if e["event"] == "roll"]
    assert [(e["battle_round"], e["step"], e["hits"]) for e in rolls] == [
        (1, "other", {"karkoth": 1, "vailin": 0}), (2, "other", {"karkoth": 2, "vailin": 0})]
    assert units_at(s, "Vmarch", "karkoth") == {"footsoldier": 2} and s.owner[region(s, "Vmarch")] == K


def test_a_round_without_first_strikers_logs_one_roll():
    s = _two_defenders(ALLY_ORDER, record=True)
    F._fight_round(s, Dice([1, 0, 1]))
    assert [(e["battle_round"], e["step"]) for e in s.log if e["event"] == "roll"] == [(1, "other")]


@pytest.mark.parametrize("drowning", ["per_ship", "pooled"])
def test_a_warship_sunk_in_battle_drowns_its_cargo_and_its_owner_loses_their_gold(drowning, drive):
    # every die hits: Karkoth's dragon sinks Vailin's warship, which carried two siege engines (2 gold each)
    rules = dataclasses.replace(FFA, drowning=drowning, battle=BattleRules(hit_threshold=1))
    s = build_state(rules, ships=[("vailin", "Inner Sea", ["siege_engine", "siege_engine"])],
                    units={"Kcoast": {"karkoth": "dragon"}})
    act(s, "Move", "Kcoast", "Inner Sea", "dragon", 1)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert not [sh for sh in s.ships if sh.owner == V]
    assert s.stats["units_lost"][V] == 3 and s.stats["gold_lost"][V] == 6
    assert s.stats["units_lost"][K] == 0 and units_at(s, "Inner Sea", "karkoth") == {"dragon": 1}
