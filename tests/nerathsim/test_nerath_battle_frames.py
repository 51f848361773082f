"""A battle's queued decisions are frames on the one stack (ARCHITECTURE §6): the casualty
choices of every side (`Rules.casualty_choice` "order") are pushed when the battle starts and the hits each
realm places (each_hit) when a step is rolled, in the order they are resolved (the next on top, the
battle's card windows above them); each pops itself when done and the frame beneath resumes. Hand-built
battles on the small map where every die hits (`BattleRules(hit_threshold=1)`), so the boards are exact."""
from __future__ import annotations

import dataclasses

import numpy as np

from nerathsim import engine as E
from nerathsim.battle.rules import BattleRules
from nerathsim.game_actions import Casualties, Hit
from nerathsim.observation import observe
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, region, units_at

K, V, I, N = range(4)
SURE = BattleRules(hit_threshold=1)                 # every die hits: battles without luck
ALLY_SURE = Rules(map="small", mode="alliance", events=False, dungeons=False, battle=SURE)   # Vailin + Nerath allied
ORDER_CARDS = dataclasses.replace(ALLY_SURE, events=True, casualty_choice="order")


def _above_the_combat_phase(s) -> list:
    fr = s.stack
    i = max(i for i, f in enumerate(fr) if type(f) is E.BattleOrder)
    return fr[i + 1:]


def _everyone(s) -> dict:
    return {(r, q): units_at(s, r, q) for r in ("Kmarch", "Vmarch") for q in ("karkoth", "vailin", "nerath")
            if units_at(s, r, q)}


def test_every_sides_casualty_choice_waits_on_the_stack_beneath_the_card_window_in_resolution_order():
    s = build_state(ORDER_CARDS, record=True, hands={"nerath": ["nerath_shield_wall"]},
                    units={"Kmarch": {"karkoth": "3 footsoldier, dragon"},
                           "Vmarch": {"vailin": "footsoldier, dragon", "nerath": "footsoldier, dragon"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 3)
    act(s, "Move", "Kmarch", "Vmarch", "dragon", 1)
    act(s, "EndPhase")
    # Nerath's defence window opens first, above the three casualty choices (attacker's next, then the defenders')
    above = _above_the_combat_phase(s)
    assert [(type(f), f.realm) for f in above] == [(E.CasualtyChoice, N), (E.CasualtyChoice, V),
                                                  (E.CasualtyChoice, K), (E.CardWindow, N)]
    assert s.window is above[-1] and s.decider == N and s.phase == E.PH_EVENT
    assert s.battle.queue == above[2::-1] and s.battle.hits == [] and s.battle.due == []
    act(s, "PlayCard", "nerath_shield_wall", "Vmarch")
    # Nerath has no card left: the window closed and the casualty choice beneath it is asked, then each one
    # beneath that
    assert s.window is None and _above_the_combat_phase(s) == above[:3]
    for realm, order in ((K, "weakest"), (V, "cheapest"), (N, "weakest")):
        assert E.current_frame(s) is s.battle.next_casualty_choice is s.stack[-1]
        assert (s.decider, s.current_player, s.decision) == (realm, s.seat_of[realm], "casualty order")
        assert observe(s, s.seat_of[realm]).battle.hits_to_place == 0
        assert E.legal_actions(s) == [Casualties("cheapest"), Casualties("weakest")]
        c = s.clone()
        assert c.battle.queue == c.stack[len(c.stack) - len(s.battle.queue):][::-1]    # the clone's own stack
        act(s, "Casualties", order)
    assert [type(f) for f in _above_the_combat_phase(s)] == [E.PressOrRetreat] and s.battle.queue == []
    # round 1 (every die hits): Karkoth's 4 hits split 2 + 2 between the allies; the defenders'
    # 4 hits take Karkoth's three footsoldiers ("weakest") and wound its dragon; Vailin ("cheapest") wounds
    # its dragon and loses its footsoldier, Nerath ("weakest") loses its footsoldier and its dragon is wounded
    assert [e["order"] for e in s.log if e["event"] == "casualty_order"] == ["weakest", "cheapest", "weakest"]
    act(s, "PressOn")
    # round 2: Karkoth's dragon hits Vailin's wounded dragon (the holder takes the odd hit); the two
    # defending dragons kill Karkoth's wounded dragon. Nerath's dragon heals. (Karkoth's turn ends: nothing
    # left to regroup or buy with.)
    assert s.battle is None and [e["outcome"] for e in s.log if e["event"] == "battle_end"] == ["defender_wins"]
    assert _everyone(s) == {("Vmarch", "nerath"): {"dragon": 1}}
    assert s.owner[region(s, "Vmarch")] == V and s.vp == [0, 0, 0, 0]


def test_the_hits_of_every_side_wait_on_the_stack_attacker_first_and_each_owner_places_its_own():
    s = build_state(ALLY_SURE, record=True, units={"Kmarch": {"karkoth": "2 footsoldier, 2 dragon"},
                                                   "Vmarch": {"vailin": "2 footsoldier, fighter, monster",
                                                              "nerath": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2)
    act(s, "Move", "Kmarch", "Vmarch", "dragon", 2)
    act(s, "EndPhase")
    # one step (no first strike): the defenders' 5 hits on Karkoth, Karkoth's 4 hits split 3 to Vailin
    # (more troops) and 1 to Nerath; all three wait on the stack, Karkoth's on top
    above = _above_the_combat_phase(s)
    assert [(type(f), f.realm, f.hits) for f in above] == [(E.HitsToPlace, N, 1), (E.HitsToPlace, V, 3),
                                                          (E.HitsToPlace, K, 5)]
    assert s.battle.hits == above[::-1] and s.battle.due == [[K, 5], [V, 3], [N, 1]]
    assert observe(s, s.seat_of[K]).battle.hits_to_place == 5
    placed = [(K, "footsoldier", 5), (K, "damage:dragon", 4), (K, "damage:dragon", 3), (K, "footsoldier", 2),
              (V, "monster", 3), (V, "footsoldier", 2), (V, "fighter", 1)]
    for realm, unit, due in placed:
        top = s.stack[-1]
        assert type(top) is E.HitsToPlace and (top.realm, top.hits) == (realm, due) and top is s.battle.next_hits
        assert (s.decider, s.current_player, s.decision) == (realm, s.seat_of[realm], "take a hit")
        assert observe(s, s.seat_of[realm]).battle.hits_to_place == due
        assert Hit(unit) in E.legal_actions(s)
        act(s, "Hit", unit)
    # Karkoth's last hit could only kill a wounded dragon and Nerath's could only take its footsoldier:
    # placed without asking; the step is over and the attacker presses on or retreats
    assert [type(f) for f in _above_the_combat_phase(s)] == [E.PressOrRetreat] and s.battle.due == []
    hits = [(e["realm"], e["unit"], e["chosen"]) for e in s.log if e["event"] == "hit"]
    assert hits == [("karkoth", "footsoldier", True), ("karkoth", "damage:dragon", True),
                    ("karkoth", "damage:dragon", True), ("karkoth", "footsoldier", True),
                    ("karkoth", "dragon", False), ("vailin", "monster", True), ("vailin", "footsoldier", True),
                    ("vailin", "fighter", True), ("nerath", "footsoldier", False)]
    act(s, "RetreatTo", "Kmarch")
    assert s.battle is None and s.phase == E.PH_REGROUP
    assert _everyone(s) == {("Kmarch", "karkoth"): {"dragon": 1}, ("Vmarch", "vailin"): {"footsoldier": 1}}
    assert s.owner[region(s, "Vmarch")] == V


def test_a_clone_taken_while_hits_wait_places_them_on_its_own_stack():
    s = build_state(ALLY_SURE, units={"Kmarch": {"karkoth": "2 footsoldier, 2 dragon"},
                                      "Vmarch": {"vailin": "2 footsoldier, fighter, monster", "nerath": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2)
    act(s, "Move", "Kmarch", "Vmarch", "dragon", 2)
    act(s, "EndPhase")
    c = s.clone()
    assert [f is g for f, g in zip(s.stack, c.stack)][-3:] == [False, False, False]    # HitsToPlace change
    assert c.battle.hits == c.stack[-1:-4:-1] and c.battle.stack is c.stack
    rng = np.random.default_rng(0)
    for a in ("footsoldier", "footsoldier", "damage:dragon"):   # (the other two hits: one place each, not asked)
        E.apply_action(c, Hit(a), rng)
    assert c.decider == V and c.battle.due == [[V, 3], [N, 1]]
    assert s.decider == K and s.battle.due == [[K, 5], [V, 3], [N, 1]]          # the original is untouched


def test_every_step_s_luck_is_taken_once_its_hits_are_placed_even_when_the_last_hit_is_chosen():
    """Luck sums every roll (RULES.md, "Statistics"): once a step's hits are all placed — the last one by
    its owner's choice or not — the step's luck is in the figure before the battle goes on."""
    rules = Rules(map="small", events=False)
    rng = np.random.default_rng(7)
    chosen_last = 0
    for seed in range(6):
        s = E.new_game(rules, seed)
        while not s.is_terminal:
            top = s.stack[-1]
            if type(top) is not E.HitsToPlace and s.battle is not None:
                assert s.battle.luck_base is None, f"seed {seed}: a step's luck was not taken"
            legal = E.legal_actions(s)
            a = legal[int(rng.integers(len(legal)))]
            last = type(top) is E.HitsToPlace and top.hits == 1 and len(s.stack) > 1 \
                and type(s.stack[-2]) is not E.HitsToPlace
            E.apply_action(s, a, rng)
            chosen_last += last
    assert chosen_last > 10            # the case happened: a step's last hit chosen by its owner
