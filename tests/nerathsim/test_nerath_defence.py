"""The heuristics guard their capital by the enemies' real reach and exact battle odds, and play battle cards
only where they take effect; `nerathsim.defence` counts exposed capitals and wasted cards (hand-built
positions on the small map: Kar - Kcoast - Ncoast - Nera is three land steps)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from nerathsim import battle_odds
from nerathsim import engine as E
from nerathsim.defence import capital_exposed, enemy_can_reach, play_measured, wasted_bonus
from nerathsim.game import LegalActions, play_game
from nerathsim.game_actions import Move, Pass, PlayCard
from nerathsim.observation import observe
from nerathsim.policies import BALANCED, TUNING
from nerathsim.policies.movement import MovementPlanner
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, card_id, region

K, V, I, N = range(4)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)


def _karkoth(enemy: dict, kar="castle, 3 footsoldier", ships=()):
    units = {"Kar": {"karkoth": kar}, "Kcoast": {"karkoth": "footsoldier"}, "Kmarch": {"karkoth": "footsoldier"},
             "Nera": {"nerath": "castle"}, **enemy}
    return build_state(FFA, units=units, ships=ships, realm="karkoth")


def _threats(s):
    pl = MovementPlanner(BALANCED, observe(s, s.current_player), np.random.default_rng(0))
    return pl, pl.threat_armies(region(s, "Kar"))


def test_threat_reach_counts_a_dragon_three_steps_away_and_not_a_fighter():
    t = E.tables(FFA)
    s = _karkoth({"Nmarch": {"nerath": "dragon"}, "Nera": {"nerath": "castle, fighter"}})
    _pl, armies = _threats(s)
    assert len(armies) == 1                                   # Nerath only
    army = armies[0]
    assert army[t.idx["dragon"]] == 1 and army[t.idx["fighter"]] == 0 and army[t.idx["castle"]] == 0
    assert enemy_can_reach(s, region(s, "Kar"), K)
    s2 = _karkoth({"Nera": {"nerath": "castle, fighter"}})
    assert _threats(s2)[1] == [] and not enemy_can_reach(s2, region(s2, "Kar"), K)


def test_threat_reach_counts_troops_a_warship_can_land():
    t = E.tables(FFA)
    s = _karkoth({"Nera": {"nerath": "castle, 2 footsoldier, monster"}}, ships=[("nerath", "South Sea", [])])
    _pl, armies = _threats(s)
    assert len(armies) == 1 and sum(armies[0]) == 2           # two aboard: the strongest attackers first
    assert armies[0][t.idx["monster"]] == 1 and armies[0][t.idx["footsoldier"]] == 1
    assert enemy_can_reach(s, region(s, "Kar"), K)
    s2 = _karkoth({"Nera": {"nerath": "castle, 2 footsoldier, monster"}})
    assert not enemy_can_reach(s2, region(s2, "Kar"), K)


def _moved_out_of_kar(pol, s) -> int:
    obs = observe(s, s.current_player)
    plan = MovementPlanner(pol, obs, np.random.default_rng(0)).movement()
    kar = region(s, "Kar")
    return sum(a.count for a in plan if isinstance(a, Move) and a.src == kar)


def test_the_capital_keeps_a_garrison_that_holds_against_a_dragon_in_reach():
    s = _karkoth({"Nmarch": {"nerath": "dragon"}})
    left = 3 - _moved_out_of_kar(BALANCED, s)
    assert left >= 1
    hold = 1 - battle_odds({"dragon": 1}, {"castle": 1, "footsoldier": left}).attacker_wins
    assert hold >= BALANCED.capital_hold
    # the same position without the threat, or a policy trading the capital away: the troops march off
    assert _moved_out_of_kar(BALANCED, _karkoth({})) == 3
    assert _moved_out_of_kar(dataclasses.replace(BALANCED, capital_hold=0.0), s) == 3


def test_a_capital_the_units_there_cannot_hold_draws_units_in():
    s = _karkoth({"Nmarch": {"nerath": "dragon"}, "Kmarch": {"karkoth": "3 footsoldier"}}, kar="castle")
    obs = observe(s, s.current_player)
    plan = MovementPlanner(BALANCED, obs, np.random.default_rng(0)).movement()
    kar = region(s, "Kar")
    came = sum(a.count for a in plan if isinstance(a, Move) and a.dst == kar)
    assert 1 <= came <= 2                                     # Kmarch keeps one (no castle there)
    hold = 1 - battle_odds({"dragon": 1}, {"castle": 1, "footsoldier": came}).attacker_wins
    assert hold >= BALANCED.capital_hold or came == 2


def test_hold_targets_are_tunable_parameters():
    names = {p["name"] for p in TUNING["space"]}
    assert {"capital_hold", "castle_hold"} <= names


def test_capital_exposed_counts_a_castle_alone_in_a_dragons_reach():
    s = _karkoth({"Nmarch": {"nerath": "dragon"}}, kar="castle")
    assert capital_exposed(s, K)
    assert not capital_exposed(_karkoth({"Nmarch": {"nerath": "dragon"}}), K)     # a garrison stands there
    assert not capital_exposed(_karkoth({"Nera": {"nerath": "castle, fighter"}}, kar="castle"), K)


# --- battle cards -------------------------------------------------------------------------------
CARDS = Rules(map="small", mode="free_for_all", dungeons=False, casualty_choice="order")


def _combat_window(hand):
    units = {"Nmarch": {"nerath": "2 footsoldier, fighter"}, "Imarch": {"iron_circle": "footsoldier"},
             "Nera": {"nerath": "castle"}}
    s = build_state(CARDS, realm="nerath", units=units, hands={"nerath": list(hand)})
    act(s, "Move", "Nmarch", "Imarch", "footsoldier", 2)
    act(s, "Move", "Nmarch", "Imarch", "fighter", 1)
    assert s.phase == E.PH_EVENT and s.window.view.kind == "combat"
    return s


def _choice(s):
    return BALANCED(observe(s, s.current_player), LegalActions(s), np.random.default_rng(0))


def test_a_battle_card_naming_a_unit_absent_from_the_battle_is_not_played():
    s = _combat_window(["nerath_dwarven_siege_train"])          # siege engines: none attack
    assert PlayCard(card_id(s, "nerath_dwarven_siege_train"), region(s, "Imarch")) in E.legal_actions(s)
    assert _choice(s) == Pass()
    assert wasted_bonus(s, PlayCard(card_id(s, "nerath_dwarven_siege_train"), region(s, "Imarch")))


def test_a_battle_card_naming_a_unit_in_the_battle_is_played():
    s = _combat_window(["nerath_dwarven_siege_train", "nerath_heroic_charge"])   # the fighter attacks
    choice = _choice(s)
    assert choice == PlayCard(card_id(s, "nerath_heroic_charge"), region(s, "Imarch"))
    assert not wasted_bonus(s, choice)


@pytest.mark.parametrize("seed", [3])
def test_play_measured_plays_the_same_game_as_play_game(seed):
    rules = Rules()
    res, st = play_measured(rules, ["balanced"] * 4, seed)
    assert res.to_record() == play_game(rules, ["balanced"] * 4, seed).to_record()
    assert sum(st.turns) == res.turns and all(0 <= e <= a <= t for e, a, t in zip(st.exposed, st.alone, st.turns))
    assert all(0 <= w <= c for w, c in zip(st.wasted_cards, st.battle_cards))


def test_a_warship_sails_to_idle_troops_and_lands_them_on_a_weak_enemy_coast():
    units = {"Iron": {"iron_circle": "castle"}, "Icoast": {"iron_circle": "3 monster"},
             "Nmarch": {"nerath": "5 footsoldier"}, "Ncoast": {"nerath": "footsoldier"},
             "Nera": {"nerath": "castle, 4 footsoldier"},
             **{x: {"vailin": "5 footsoldier"} for x in ("Vcoast", "Vmarch", "Isle")},
             **{x: {"karkoth": "5 footsoldier"} for x in ("Kmarch", "Kcoast")}}
    s = build_state(FFA, units=units, ships=[("iron_circle", "South Sea", [])], realm="iron_circle")
    plan = MovementPlanner(BALANCED, observe(s, s.current_player), np.random.default_rng(0)).movement()
    kinds = [(type(a).__name__, getattr(a, "dst", None)) for a in plan if type(a).__name__ in ("Sail", "Embark",
                                                                                                "Unload")]
    inner, ncoast = region(s, "Inner Sea"), region(s, "Ncoast")
    assert kinds == [("Sail", inner), ("Embark", None), ("Embark", None), ("Unload", ncoast)]
    for a in plan[:-1]:                                         # the plan is legal step by step
        if type(a).__name__ in ("Sail", "Embark", "Unload"):
            assert E.is_legal(s, a)
            E.apply_action(s, a, np.random.default_rng(0))


@pytest.mark.parametrize("gain, embarked", [(False, 2), (True, 1)])
def test_landing_gain_puts_one_unit_ashore_on_an_empty_coast_and_a_whole_load_on_a_held_one(gain, embarked):
    units = {"Iron": {"iron_circle": "castle"}, "Icoast": {"iron_circle": "3 monster"},
             "Nmarch": {"nerath": "5 footsoldier"}, "Nera": {"nerath": "castle, 4 footsoldier"},
             **{x: {"vailin": "5 footsoldier"} for x in ("Vcoast", "Vmarch", "Isle")},
             **{x: {"karkoth": "5 footsoldier"} for x in ("Kmarch", "Kcoast")}}
    pol = dataclasses.replace(BALANCED, landing_gain=gain)

    def landing(units):
        s = build_state(FFA, units=units, ships=[("iron_circle", "South Sea", [])], realm="iron_circle")
        plan = MovementPlanner(pol, observe(s, s.current_player), np.random.default_rng(0)).movement()
        return [(type(a).__name__, getattr(a, "dst", None)) for a in plan
                if type(a).__name__ in ("Sail", "Embark", "Unload")], s

    kinds, s = landing(units)                                   # Ncoast is Nerath's and empty: one monster takes it
    inner, ncoast = region(s, "Inner Sea"), region(s, "Ncoast")
    assert kinds == [("Sail", inner)] + [("Embark", None)] * embarked + [("Unload", ncoast)]
    kinds, _s = landing({**units, "Ncoast": {"nerath": "footsoldier"}})   # held: the whole load either way
    assert kinds == [("Sail", inner), ("Embark", None), ("Embark", None), ("Unload", ncoast)]
