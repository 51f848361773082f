"""One hand-built scenario per rule (card, location, trap, nightmare, reaction), asserting the
exact state afterwards. Board: dreamsim.DEFAULT_LAYOUT (top row first)

    Restaurant  Bridge    Town Hall  Forest
    Corridor 1  Square    Motel      Corridor 2
    Corridor 3  Corridor4 Corridor 5 Corridor 6
"""
import dataclasses
from collections import Counter

import numpy as np

import dreamsim
from dreamsim.engine import cards as C
from dreamsim.engine.actions import (
    ALLOW,
    CANCEL,
    COUNT,
    DISCARD,
    DUTCH_EXTRA,
    DUTCH_REDUCE,
    GIVE,
    HOLD,
    INTERCEPT,
    MIX,
    NO_MOVE,
    NO_TURN,
    PARTNER,
    PASS,
    SET_TRAP,
    SPRING,
    STAR,
    STEAL,
    STOP,
    TAKE,
    TARGET,
    TO,
    VERTIGO,
    VOP,
    WALK,
)
from dreamsim.engine.scenario import build_state, step
from dreamsim.game import timeout_cause

R2 = dreamsim.Rules(players=2)
R3 = dreamsim.Rules(players=3)
R4 = dreamsim.Rules(players=4)
W5 = ["walk"] * 5
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
SQ, MO, TH, BR, FO, RE = C.SQUARE, C.MOTEL, C.TOWN_HALL, C.BRIDGE, C.FOREST, C.RESTAURANT
C1, C2, C3, C4, C5, C6 = 0, 1, 2, 3, 4, 5


def S(rules=R2, **kw):
    kw.setdefault("deck", ["walk"] * 16)
    return build_state(rules, **kw)


def conserved(s):
    assert Counter(s.all_cards()) == Counter(C.director_cards() + list(C.NIGHTMARES))


# ------------------------------------------------------------------ components
def test_the_published_components():
    assert sum(C.COMPOSITION.values()) == 102 and len(C.director_cards()) == 96
    assert Counter(C.director_cards())[C.DREAMWALK] == 36
    assert [C.COMPOSITION[k] for k in (C.VERTIGO, C.STAR, C.DUTCH, C.CATCHER)] == [12, 12, 9, 9]
    assert all(C.COMPOSITION[C.SUSPENSE_OF[l]] == 3 for l in (FO, SQ, MO, RE, TH, BR))
    arrows = {C.LOCATION_NAMES[l]: C.ARROWS[l][0] for l in range(12)}
    assert arrows["Corridor 1"] == (UP, DOWN) and arrows["Forest"] == (UP, RIGHT, LEFT)
    assert arrows["Square"] == (RIGHT, DOWN, LEFT) and arrows["Motel"] == (UP, LEFT)
    assert arrows["Restaurant"] == (RIGHT, DOWN) and arrows["Town Hall"] == (RIGHT, LEFT)
    assert arrows["Bridge"] == (UP,)


def test_deal_hands_start_and_nightmares_after_deal():
    s = dreamsim.new_game(R4, 1)
    assert [len(h) for h in s.hands] == [5] * 4
    assert not any(k >= C.RED for h in s.hands for k in h)  # dealt before the nightmares go in
    assert s.where == [C4] * 4 and s.reserve == [] and sum(k >= C.RED for k in s.deck) == 6
    conserved(s)
    own = dreamsim.new_game(dataclasses.replace(R4, start="own_corridor"), 1)
    assert own.where == [C3, C4, C5, C6]


def test_nightmares_after_first_round_and_none():
    rules = dataclasses.replace(R2, nightmares="after_first_round")
    s = dreamsim.new_game(rules, 2)
    assert sorted(s.reserve) == list(C.NIGHTMARES)
    step(s, PASS, PASS)  # both seats had a turn
    assert s.reserve == [] and sum(k >= C.RED for k in s.deck + s.discard) == 6
    none = dreamsim.new_game(dataclasses.replace(R2, nightmares="none"), 2)
    step(none, PASS, PASS, PASS)
    assert sorted(none.reserve) == list(C.NIGHTMARES)


# ------------------------------------------------------------------ Dreamwalk
def test_dreamwalk_follows_the_arrows_of_your_location():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[W5, W5])
    assert [a for a in s.legal if type(a) is dreamsim.Walk] == [WALK[UP]]  # down leads off the board
    step(s, WALK[UP])
    assert s.where == [SQ, C1] and s.actions_left == 1 and len(s.hands[0]) == 5
    assert s.discard == [C.DREAMWALK]
    assert {a.direction for a in s.legal if type(a) is dreamsim.Walk} == {RIGHT, DOWN, LEFT}
    step(s, WALK[RIGHT])
    assert s.where[0] == MO and s.turn_player == 1


def test_dreamwalk_return_arrow_variant():
    s = S(dataclasses.replace(R2, dreamwalk_return_arrow=True), where=["Square", "Corridor 1"], hands=[W5, W5])
    # Motel has a left arrow back, Corridor 4 an up arrow; Corridor 1 (up/down) has none pointing right
    assert {a.direction for a in s.legal if type(a) is dreamsim.Walk} == {RIGHT, DOWN}


# ------------------------------------------------------------------ Vertigo
def test_vertigo_targets_your_or_an_adjacent_location():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["vertigo"] + W5[:4], W5])
    assert {a.location for a in s.legal if type(a) is dreamsim.Vertigo} == {C4, SQ, C3, C5}


def test_vertigo_move_swaps_cells_and_midnighters_travel_with_their_location():
    s = S(where=["Square", "Bridge"], hands=[["vertigo"] + W5[:4], W5])
    step(s, VERTIGO[SQ])
    assert s.legal == [VOP[RIGHT], VOP[DOWN], VOP[LEFT], VOP[UP]][:0] + [VOP[0], VOP[1], VOP[2], VOP[3], VOP[4], VOP[5], VOP[6]]
    step(s, VOP[UP])
    assert s.grid[1] == SQ and s.grid[5] == BR and s.cell_of[SQ] == 1 and s.cell_of[BR] == 5
    assert s.where == [SQ, BR]  # both travelled with their locations
    conserved(s)


def test_vertigo_rotation_and_quarter_variant():
    s = S(where=["Square", "Bridge"], hands=[["vertigo"] + W5[:4], W5])
    step(s, VERTIGO[SQ], VOP[4])
    assert s.rot[SQ] == 1 and C.ARROWS[SQ][1] == (UP, DOWN, LEFT)
    q = S(dataclasses.replace(R2, vertigo_rotation="quarter"), where=["Square", "Bridge"], hands=[["vertigo"] + W5[:4], W5])
    step(q, VERTIGO[SQ])
    assert [a.op for a in q.legal if a.op >= 4] == [4, 6]


def test_vertigo_move_into_a_gap():
    layout = ("R B T F .", "C S M C .", "C C* C C .")
    s = S(dataclasses.replace(R2, layout=layout), where=["Corridor 2", "Corridor 1"], hands=[["vertigo"] + W5[:4], W5])
    step(s, VERTIGO[C2], VOP[RIGHT])
    assert s.grid[9] == C2 and s.grid[8] == -1 and s.cell_of[C2] == 9


# ------------------------------------------------------------------ Midnight Star, Forest, Square, Motel, Restaurant
def test_corridors_cannot_be_activated():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["star"] + W5[:4], W5])
    assert STAR not in s.legal


def test_forest_teleports_anywhere():
    s = S(where=["Forest", "Corridor 1"], hands=[["star"] + W5[:4], W5])
    step(s, STAR)
    assert s.legal == [TO[l] for l in range(12) if l != FO]
    step(s, TO[BR])
    assert s.where == [BR, C1] and s.stats["activations"][0] == 1


def test_square_takes_up_to_three_from_the_discard_pile_nightmares_included():
    s = S(where=["Square", "Corridor 1"], hands=[["star", "walk", "walk", "walk", "blue"], W5],
          discard=["red", "walk", "star", "vertigo"])
    step(s, STAR)
    # the Star just played is on the pile too
    assert s.legal == [TAKE[C.DREAMWALK], TAKE[C.VERTIGO], TAKE[C.STAR], TAKE[C.RED], STOP]
    step(s, TAKE[C.STAR], TAKE[C.STAR], TAKE[C.RED])
    # 4 + 3 = 7 cards, one owed for the Star: keep 4, discard 3 (nightmares may go)
    assert s.decision == "surplus card" and DISCARD[C.BLUE] in s.legal and DISCARD[C.RED] in s.legal
    step(s, DISCARD[C.BLUE], DISCARD[C.RED], DISCARD[C.DREAMWALK])
    assert sorted(s.hands[0]) == sorted([C.DREAMWALK, C.DREAMWALK, C.STAR, C.STAR, C.DREAMWALK])  # + 1 drawn
    assert s.discard[-3:] == [C.BLUE, C.RED, C.DREAMWALK]
    conserved(s)


def test_motel_looks_takes_and_gives_back_but_never_from_the_horror():
    s = S(R3, where=["Motel", "Corridor 1", "Bridge"], hands=[["star", "red", "walk", "walk", "walk"],
                                                               ["star", "star", "vertigo"], ["black", "star"]],
          horror=2)
    step(s, STAR)
    assert s.legal == [TARGET[1]]  # not yourself, not the Midnight Horror
    step(s, TARGET[1])
    assert s.legal == [TAKE[C.VERTIGO], TAKE[C.STAR], STOP]
    step(s, TAKE[C.STAR], TAKE[C.STAR], STOP)
    assert GIVE[C.RED] in s.legal and DISCARD[C.RED] not in s.legal  # nightmares may be given, not discarded
    step(s, GIVE[C.RED], DISCARD[C.DREAMWALK])
    assert sorted(s.hands[1]) == [C.VERTIGO, C.RED]
    assert Counter(s.hands[0])[C.STAR] == 2 and C.RED not in s.hands[0]
    conserved(s)


def test_motel_cannot_take_prepared_traps():
    s = S(where=["Motel", "Corridor 1"], hands=[["star"] + W5[:4], ["vertigo"]], traps=[[], [("Bridge", "star")]])
    step(s, STAR, TARGET[1])
    assert s.legal == [TAKE[C.VERTIGO], STOP]  # the prepared trap is not in the hand
    step(s, TAKE[C.VERTIGO])
    assert s.traps[1] == [(BR, C.STAR)] and s.hands[1] == []


def test_restaurant_blind_discard_may_target_the_horror_but_never_its_black_nightmare():
    # "Нельзя спутать карты Полночному ужасу" forbids only mixing the Horror's cards
    s = S(R3, where=["Restaurant", "Bridge", "Town Hall"], hands=[["star"] + W5[:4], ["star", "vertigo", "red", "walk"],
                                                                  ["black", "star", "blue"]], horror=2)
    step(s, STAR)
    assert s.legal == [MIX, TARGET[0], TARGET[1], TARGET[2]]
    step(s, TARGET[2])
    assert s.legal == [COUNT[1], COUNT[2]]  # the Black Nightmare never leaves the hand
    step(s, COUNT[2])
    assert s.hands[2] == [C.BLACK] and Counter(s.discard) == Counter([C.STAR, C.STAR, C.BLUE])
    conserved(s)


def test_restaurant_discards_up_to_three_of_someone_near_the_bridge():
    s = S(dataclasses.replace(R3, restaurant_discard_horror=False), where=["Restaurant", "Bridge", "Town Hall"],
          hands=[["star"] + W5[:4], ["star", "vertigo", "red", "walk"], ["black", "star"]], horror=2)
    step(s, STAR)
    # the Restaurant is next to the Bridge, so seat 0 is within reach too; the variant spares the Horror
    assert s.legal == [MIX, TARGET[0], TARGET[1]]
    step(s, TARGET[1])
    assert s.legal == [COUNT[1], COUNT[2], COUNT[3]]
    step(s, COUNT[3])
    assert len(s.hands[1]) == 1 and len(s.discard) == 4  # 3 blind discards + the Star
    assert s.hands[2] == [C.STAR, C.BLACK]  # kind order
    conserved(s)


def test_restaurant_mix_shuffles_hands_near_the_bridge_not_traps_not_the_horror():
    s = S(R4, where=["Restaurant", "Bridge", "Town Hall", "Corridor 1"],
          hands=[["star", "walk", "walk", "walk", "walk"], ["red", "vertigo", "vertigo"], ["black"], ["vertigo"]],
          traps=[[], [("Forest", "walk")], [], []], horror=2)
    before = Counter(s.hands[0]) + Counter(s.hands[1])
    step(s, STAR, MIX)
    assert Counter(s.hands[0]) + Counter(s.hands[1]) - Counter({C.DREAMWALK: 1}) == before - Counter({C.STAR: 1})
    assert s.traps[1] == [(FO, C.DREAMWALK)] and s.hands[2] == [C.BLACK] and s.hands[3] == [C.VERTIGO]
    conserved(s)


def test_restaurant_needs_someone_near_the_bridge():
    s = S(R3, where=["Restaurant", "Corridor 6", "Corridor 5"], hands=[["star"] + W5[:4], W5, W5],
          grid=["Forest", "Bridge", "Town Hall", "Restaurant", "Corridor 1", "Square", "Motel", "Corridor 2",
                "Corridor 3", "Corridor 4", "Corridor 5", "Corridor 6"])
    step(s, STAR)
    assert s.decision == "turn action"  # nobody to mix or discard: the activation has no effect


# ------------------------------------------------------------------ Town Hall and Bridge
def test_town_hall_neutralises_nightmares_and_gets_rid_of_one():
    s = S(where=["Town Hall", "Corridor 1"], hands=[["star", "red", "blue", "walk", "walk"], W5],
          red=0b11, blue=0b10, speed=C.COLOURLESS, speed_mask=0b11)
    step(s, STAR)
    assert (s.red, s.blue, s.multi, s.slow) == (0, 0, 0, 0)
    assert s.legal == [DISCARD[C.RED], DISCARD[C.BLUE]]
    step(s, DISCARD[C.BLUE])
    assert C.RED in s.hands[0] and C.BLUE not in s.hands[0] and C.BLUE in s.discard
    all_rule = S(dataclasses.replace(R2, town_hall_discards="all"), where=["Town Hall", "Corridor 1"],
                 hands=[["star", "red", "blue", "walk", "walk"], W5])
    step(all_rule, STAR)
    assert not any(k >= C.RED for k in all_rule.hands[0])


def test_the_horror_activating_the_town_hall_wins():
    s = S(where=["Town Hall", "Corridor 1"], hands=[["black", "star"], W5], horror=0)
    step(s, STAR)
    assert s.is_terminal and s.winner == 0 and s.horror_won and s.woke == -1


def test_bridge_wakes_and_wins():
    s = S(where=["Bridge", "Corridor 1"], hands=[["star"] + W5[:4], W5])
    step(s, STAR)
    assert s.is_terminal and s.winner == 0 and s.woke == 0 and not s.horror_won


def test_bridge_not_with_a_nightmare_not_for_the_horror_and_blue_forbids():
    assert STAR not in S(where=["Bridge", "Corridor 1"], hands=[["star", "purple"], W5]).legal
    assert STAR not in S(where=["Bridge", "Corridor 1"], hands=[["star", "black"], W5], horror=0).legal
    assert STAR not in S(where=["Bridge", "Corridor 1"], hands=[["star"], W5], blue=0b01).legal
    assert STAR in S(where=["Town Hall", "Corridor 1"], hands=[["star"], W5], blue=0b01).legal  # except the Town Hall
    assert STAR in S(where=["Bridge", "Corridor 1"], hands=[["star"], W5], blue=0b10).legal  # only the affected


# ------------------------------------------------------------------ Suspense / traps
def test_setting_a_trap_takes_two_actions_and_refills_two_cards():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["su bridge", "star", "walk", "walk", "walk"], W5])
    step(s, SET_TRAP[BR])
    assert s.legal == [PARTNER[C.DREAMWALK], PARTNER[C.STAR]]
    step(s, PARTNER[C.STAR])
    assert s.traps[0] == [(BR, C.STAR)] and len(s.hands[0]) == 5 and s.turn_player == 1
    assert s.stats["traps_set"][0] == 1
    obs1, obs0 = dreamsim.observe(s, 1), dreamsim.observe(s, 0)
    assert obs1.trap_counts == (1, 0) and obs1.my_traps == () and obs0.my_traps == ((BR, C.STAR),)
    conserved(s)
    one = S(where=["Corridor 4", "Corridor 1"], hands=[["su bridge", "star"], W5], actions_left=1)
    assert SET_TRAP[BR] not in one.legal


def test_dreamwalk_trap_sends_a_midnighter_to_a_corridor_and_cannot_be_cancelled():
    s = S(where=["Corridor 4", "Square"], hands=[W5, ["dutch", "catcher"]], traps=[[("Square", "walk")], []])
    step(s, PASS)  # seat 1's turn starts: seat 0 may spring its trap (a trap fires any time)
    assert s.decision == "trap window" and s.current_player == 0 and s.legal == [SPRING[SQ][C.DREAMWALK], HOLD]
    step(s, SPRING[SQ][C.DREAMWALK])
    assert s.legal == [TARGET[1], TARGET[0]]
    step(s, TARGET[1])
    assert s.legal == [TO[c] for c in range(6)]
    step(s, TO[C6])
    assert s.where == [C4, C6] and s.decision == "turn action" and s.current_player == 1  # no reaction window
    assert s.discard[-2:] == [C.SU_SQUARE, C.DREAMWALK] and s.stats["traps_sprung"][0] == 1


def test_dreamwalk_trap_moves_yourself_to_a_corridor():
    s = S(where=["Square", "Town Hall"], hands=[W5, W5], traps=[[("Bridge", "walk")], []])
    step(s, WALK[RIGHT])  # after the play, the trap window
    assert s.legal == [SPRING[BR][C.DREAMWALK], HOLD]
    step(s, SPRING[BR][C.DREAMWALK], TARGET[0], TO[C2])
    assert s.where[0] == C2


def test_vertigo_trap_moves_and_rotates_its_location():
    # "переместить локацию ловушки и повернуть её": both, neither may be left out
    s = S(where=["Corridor 4", "Bridge"], hands=[W5, W5], traps=[[("Bridge", "vertigo")], []])
    step(s, WALK[UP])
    step(s, SPRING[BR][C.VERTIGO])
    assert s.legal == [VOP[RIGHT], VOP[DOWN], VOP[LEFT]]
    step(s, VOP[DOWN])
    assert s.legal == [VOP[4], VOP[5], VOP[6]]
    step(s, VOP[5])
    assert s.cell_of[BR] == 5 and s.cell_of[SQ] == 1 and s.rot[BR] == 2 and s.where == [SQ, BR]


def test_vertigo_trap_optional_variant_may_leave_out_the_move_or_the_rotation():
    s = S(dataclasses.replace(R2, vertigo_trap_optional=True), where=["Corridor 4", "Bridge"], hands=[W5, W5],
          traps=[[("Bridge", "vertigo")], []])
    step(s, WALK[UP], SPRING[BR][C.VERTIGO])
    assert s.legal == [VOP[RIGHT], VOP[DOWN], VOP[LEFT], VOP[NO_MOVE]]
    step(s, VOP[NO_MOVE])
    assert s.legal == [VOP[4], VOP[5], VOP[6], VOP[NO_TURN]]
    step(s, VOP[NO_TURN])
    assert s.cell_of[BR] == 1 and s.rot[BR] == 0 and s.where == [SQ, BR]


def test_star_trap_steals_the_waking():
    s = S(where=["Bridge", "Corridor 1"], hands=[["star"] + W5[:4], W5], traps=[[], [("Bridge", "star")]])
    step(s, STAR)
    assert s.current_player == 1 and s.legal == [SPRING[BR][C.STAR], HOLD]
    step(s, SPRING[BR][C.STAR])
    assert s.is_terminal and s.winner == 1 and s.woke == 1


def test_star_trap_steals_the_forest_teleport():
    s = S(where=["Forest", "Corridor 1"], hands=[["star"] + W5[:4], W5], traps=[[], [("Forest", "star")]])
    step(s, STAR, SPRING[FO][C.STAR])
    assert s.current_player == 1 and s.decision == "Forest destination"
    step(s, TO[BR])
    assert s.where == [FO, BR]


def test_dutch_angle_trap_swaps_places():
    s = S(where=["Corridor 4", "Bridge"], hands=[W5, W5], traps=[[("Bridge", "dutch")], []])
    step(s, WALK[UP], SPRING[BR][C.DUTCH])
    assert s.legal == [TARGET[1]]
    step(s, TARGET[1])
    assert s.where == [BR, SQ]


def test_dreamcatcher_trap_plays_the_victims_turn():
    s = S(where=["Corridor 1", "Square"], hands=[W5, ["walk", "star", "walk", "walk", "walk"]],
          traps=[[("Square", "catcher")], []])
    step(s, PASS)
    assert s.turn_player == 1 and s.current_player == 0 and s.legal == [SPRING[SQ][C.CATCHER], HOLD]
    step(s, SPRING[SQ][C.CATCHER])
    assert s.controller == 0 and s.current_player == 0 and s.turn_player == 1
    obs = dreamsim.observe(s, 0)
    assert obs.hand == tuple(s.hands[1]) and obs.acting_for == 1
    step(s, WALK[DOWN])  # seat 0 walks seat 1's avatar away from the Bridge
    assert s.where[1] == C4 and s.hands[0] == [C.DREAMWALK] * 5
    step(s, PASS)
    assert s.turn_player == 0 and s.controller == -1


def test_red_forbids_suspense_and_traps_but_not_the_town_hall_star_trap():
    s = S(where=["Corridor 4", "Square"], hands=[["su bridge", "star", "walk", "walk", "walk"], W5],
          traps=[[("Square", "walk")], [("Town Hall", "star")]], red=0b11, deck=["blue"] + ["walk"] * 10)
    assert SET_TRAP[BR] not in s.legal
    step(s, WALK[UP])  # no trap window for seat 0 (Red); the Blue is drawn: the Town Hall trap may fire
    assert s.decision == "Town Hall trap against a nightmare" and s.current_player == 1
    step(s, SPRING[TH][C.STAR])
    assert s.blue == 0 and s.red == 0 and C.BLUE in s.discard and C.BLUE not in s.hands[0]
    assert len(s.hands[0]) == 5


def test_the_horror_springing_its_town_hall_star_trap_activates_the_town_hall_and_wins():
    # the trap "позволяет Вам дистанционно активировать Ратушу"; the Horror activating it: all lose
    s = S(where=["Corridor 4", "Square"], hands=[W5, ["black", "walk"]], horror=1,
          traps=[[], [("Town Hall", "star")]], deck=["blue"] + ["walk"] * 10)
    step(s, WALK[UP])
    assert s.decision == "Town Hall trap against a nightmare" and s.current_player == 1
    step(s, SPRING[TH][C.STAR])
    assert s.is_terminal and s.winner == 1 and s.horror_won and s.woke == -1
    old = S(dataclasses.replace(R2, horror_remote_town_hall_wins=False), where=["Corridor 4", "Square"],
            hands=[W5, ["black", "walk"]], horror=1, traps=[[], [("Town Hall", "star")]], deck=["blue"] + ["walk"] * 10)
    step(old, WALK[UP], SPRING[TH][C.STAR])
    assert not old.is_terminal and old.blue == 0 and C.BLUE in old.discard


# ------------------------------------------------------------------ Dutch Angle and Dreamcatcher
def test_dutch_angle_extra_action_now_one_fewer_next_turn():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["dutch"] + W5[:4], W5])
    step(s, DUTCH_EXTRA)
    assert s.actions_left == 3 and s.debt == [1, 0]
    step(s, PASS, PASS)
    assert s.turn_player == 0 and s.actions_left == 1 and s.debt == [0, 0]


def test_dutch_angle_reduces_anyones_next_turn_and_your_own():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["dutch"] + W5[:4], W5])
    step(s, DUTCH_REDUCE[1])
    assert s.debt == [1, 1] and s.actions_left == 2
    step(s, PASS)
    assert s.turn_player == 1 and s.actions_left == 1


def test_debt_carries_over():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[W5, W5], debt=[0, 3])
    step(s, PASS)  # seat 1's turn has 2 - 3 < 0 actions: it passes at once, 1 action still owed
    assert s.turn_player == 0 and s.debt == [0, 1] and s.turns == 2
    no_carry = S(dataclasses.replace(R2, debt_carries_over=False), where=["Corridor 4", "Corridor 1"],
                 hands=[W5, W5], debt=[0, 3])
    step(no_carry, PASS)
    assert no_carry.debt == [0, 0]


def test_dutch_angle_cancels_out_of_turn_and_can_be_cancelled_back():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["dutch"] + W5[:4], ["dutch"] + W5[:4]])
    step(s, WALK[UP])
    assert s.current_player == 1 and s.legal == [CANCEL, ALLOW]
    step(s, CANCEL)
    assert s.current_player == 0 and s.legal == [CANCEL, ALLOW]  # the turn player may answer
    step(s, ALLOW)
    assert s.where[0] == C4 and s.actions_left == 1 and s.debt == [0, 1]
    assert s.discard == [C.DUTCH, C.DREAMWALK] and s.stats["cancels"][1] == 1
    t = S(where=["Corridor 4", "Corridor 1"], hands=[["dutch"] + W5[:4], ["dutch"] + W5[:4]])
    step(t, WALK[UP], CANCEL, CANCEL)
    assert t.where[0] == SQ and t.debt == [1, 1]
    conserved(t)


def test_dreamcatcher_intercepts_the_card_being_played():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[W5, ["catcher"] + W5[:4]])
    step(s, WALK[UP])
    assert s.legal == [INTERCEPT, ALLOW]
    step(s, INTERCEPT)
    # seat 1 took the Dreamwalk: 5 cards with one owed -> discard the surplus card
    assert s.current_player == 1 and s.decision == "surplus card" and s.legal == [DISCARD[C.DREAMWALK]]
    step(s, DISCARD[C.DREAMWALK])
    assert s.where[0] == C4 and s.debt == [0, 1] and len(s.hands[1]) == 5
    assert s.discard == [C.CATCHER, C.DREAMWALK] and s.stats["intercepts"][1] == 1


def test_dreamcatcher_can_be_intercepted_by_another_but_not_by_the_turn_player():
    # a Dreamcatcher intercepts "не в свой ход": seat 0, whose turn it is, is never offered one
    s = S(R3, where=["Corridor 4", "Corridor 1", "Corridor 2"],
          hands=[["catcher"] + W5[:4], ["catcher"] + W5[:4], ["catcher"] + W5[:4]])
    step(s, WALK[UP])
    assert s.current_player == 1 and s.legal == [INTERCEPT, ALLOW]
    step(s, INTERCEPT)
    assert s.current_player == 2 and s.legal == [INTERCEPT, ALLOW]
    step(s, INTERCEPT)
    # seat 0 holds a Dreamcatcher but is not asked; seat 2 takes seat 1's Dreamcatcher, the walk goes ahead
    assert s.current_player == 2 and s.decision == "surplus card"
    assert s.legal == [DISCARD[C.DREAMWALK], DISCARD[C.CATCHER]]
    step(s, DISCARD[C.DREAMWALK])
    assert s.where[0] == SQ and C.CATCHER in s.hands[0] and s.hands[2].count(C.CATCHER) == 1
    assert s.debt == [0, 1, 1] and s.stats["intercepts"] == [0, 1, 1]
    conserved(s)


def test_intercept_own_turn_variant_lets_the_turn_player_intercept_back():
    s = S(dataclasses.replace(R2, intercept_own_turn=True), where=["Corridor 4", "Corridor 1"],
          hands=[["catcher"] + W5[:4], ["catcher"] + W5[:4]])
    step(s, WALK[UP], INTERCEPT)
    assert s.current_player == 0 and s.legal == [INTERCEPT, ALLOW]
    step(s, INTERCEPT)
    # seat 0 takes seat 1's Dreamcatcher; having played two cards it keeps 3 and discards one
    assert s.decision == "surplus card" and s.legal == [DISCARD[C.DREAMWALK], DISCARD[C.CATCHER]]
    step(s, DISCARD[C.DREAMWALK])
    assert s.where[0] == SQ and C.CATCHER in s.hands[0] and s.debt == [1, 1]
    conserved(s)


def test_dreamcatcher_blindly_takes_a_card_on_your_turn():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["catcher"] + W5[:4], ["vertigo"]])
    assert s.legal[-2:] == [STEAL[1], PASS]
    step(s, STEAL[1])
    assert s.hands[1] == [] and C.VERTIGO in s.hands[0] and s.actions_left == 1
    assert s.decision == "surplus card"


def test_nothing_can_take_the_black_nightmare():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["catcher"] + W5[:4], ["black"]], horror=1)
    assert STEAL[1] not in s.legal


# ------------------------------------------------------------------ nightmares
def test_town_hall_shields_those_in_it_and_a_drawer_in_it_triggers_nothing():
    s = S(where=["Corridor 4", "Town Hall"], hands=[W5, W5], deck=["colourless"] + ["walk"] * 9)
    step(s, WALK[UP])
    assert s.decision == "Colourless placement" and s.current_player == 1  # the Stager: the last seat
    step(s, TO[C1])
    assert s.where == [C1, TH] and s.slow == 0b01 and s.multi == 0
    u = S(where=["Town Hall", "Corridor 1"], hands=[["vertigo"] + W5[:4], W5], deck=["colourless"] + ["walk"] * 9)
    step(u, VERTIGO[TH], VOP[4])  # stays in the Town Hall and draws the Colourless Nightmare
    assert u.slow == u.multi == 0 and u.where == [TH, C1] and C.COLOURLESS in u.hands[0]
    assert u.stats["nightmares_drawn"][0] == 1


def test_red_and_blue_affect_everyone_outside_the_town_hall():
    s = S(R3, where=["Corridor 4", "Town Hall", "Corridor 1"], hands=[W5[:4], W5, W5], deck=["red", "blue"] + ["walk"] * 9)
    step(s, WALK[UP])
    assert s.red == 0b101 and s.blue == 0b101


def test_purple_passes_hands_and_traps_counter_clockwise():
    s = S(R4, where=["Corridor 4", "Corridor 1", "Corridor 2", "Town Hall"],
          hands=[W5, ["star"], ["vertigo"], ["su motel"]], traps=[[], [("Forest", "walk")], [], [("Motel", "walk")]],
          deck=["purple"] + ["walk"] * 9)
    step(s, WALK[UP])
    # seats 0-2 pass to their counter-clockwise neighbour (seat 1 -> seat 0); seat 3 is in the Town Hall.
    # Seat 0 then goes on drawing up to 5.
    assert s.hands[0] == sorted([C.STAR] + [C.DREAMWALK] * 4) and s.hands[1] == [C.VERTIGO] and s.hands[3] == [C.SU_MOTEL]
    assert s.hands[2] == sorted([C.DREAMWALK] * 4 + [C.PURPLE]) and s.traps[0] == [(FO, C.DREAMWALK)] and s.traps[3] == [(MO, C.DREAMWALK)]
    conserved(s)


def test_the_trap_window_after_a_play_asks_the_new_owner_of_a_trap_the_purple_just_moved():
    # the refill draws the Purple Nightmare,
    # seat 2's Dreamwalk trap on the Square passes to seat 1, who is asked before seat 0 acts again
    s = S(R3, where=["Corridor 4", "Corridor 1", "Corridor 2"], hands=[W5, ["star"] * 5, ["vertigo"] * 5],
          traps=[[], [], [("Square", "walk")]], deck=["purple"] + ["walk"] * 9)
    step(s, WALK[UP])
    assert s.where[0] == SQ and s.traps == [[], [(SQ, C.DREAMWALK)], []]
    assert s.hands[0] == [C.STAR] * 5 and s.hands[1] == [C.VERTIGO] * 5
    assert s.decision == "trap window" and s.current_player == 1
    assert s.legal == [SPRING[SQ][C.DREAMWALK], HOLD]
    step(s, SPRING[SQ][C.DREAMWALK], TARGET[0], TO[C3])
    assert s.where[0] == C3 and s.traps[1] == [] and s.current_player == 0 and s.actions_left == 1


def test_black_makes_the_drawer_the_horror_who_paralyses():
    s = S(R3, where=["Corridor 4", "Square", "Corridor 1"], hands=[W5, W5, W5], deck=["black"] + ["walk"] * 9)
    step(s, WALK[UP])
    assert s.horror == 0 and C.BLACK in s.hands[0] and s.where[0] == SQ
    step(s, PASS)
    # seat 1 stands with the Horror: paralysed, skips its turn
    assert s.turn_player == 2 and s.stats["turns_skipped"] == [0, 1, 0]


def test_black_triggers_even_in_the_town_hall_by_default():
    s = S(where=["Town Hall", "Corridor 1"], hands=[["vertigo"] + W5[:4], W5], deck=["black"] + ["walk"] * 9)
    step(s, VERTIGO[TH], VOP[4])
    assert s.horror == 0
    t = S(dataclasses.replace(R2, black_ignores_town_hall=False), where=["Town Hall", "Corridor 1"],
          hands=[["vertigo"] + W5[:4], W5], deck=["black"] + ["walk"] * 9)
    step(t, VERTIGO[TH], VOP[4])
    assert t.horror == -1


def test_horror_is_immune_to_nightmares_and_the_town_hall_keeps_the_horror():
    s = S(R3, where=["Town Hall", "Corridor 1", "Corridor 2"], hands=[["star", "red"] + W5[:3], ["black"], W5],
          horror=1, red=0b101)
    step(s, STAR, DISCARD[C.RED])
    assert s.horror == 1 and s.red == 0


def test_nightmares_do_not_count_toward_the_horrors_hand_size_so_it_never_freezes():
    # gap: with the Black and four nightmares a Horror had no card to play and,
    # its hand full, never drew again; now only its director cards count toward the hand size
    hand = ["black", "red", "blue", "purple", "multi"]
    s = S(where=["Square", "Square"], hands=[hand, W5], horror=0)
    assert s.legal == [PASS]
    step(s, PASS)
    assert s.hands[0] == sorted([C.BLACK, C.RED, C.BLUE, C.PURPLE, C.MULTI] + [C.DREAMWALK] * 5)  # kind order
    assert s.turn_player == 0 and s.stats["turns_skipped"] == [0, 1]  # seat 1 stands with the Horror
    black = S(dataclasses.replace(R2, horror_hand_limit="black_free"), where=["Square", "Square"],
              hands=[hand, W5], horror=0)
    step(black, PASS)
    assert black.hands[0] == sorted([C.BLACK, C.RED, C.BLUE, C.PURPLE, C.MULTI, C.DREAMWALK])
    frozen = S(dataclasses.replace(R2, horror_hand_limit="all_cards"), where=["Square", "Square"],
               hands=[hand, W5], horror=0)
    step(frozen, PASS)
    assert frozen.hands[0] == sorted([C.BLACK, C.RED, C.BLUE, C.PURPLE, C.MULTI]) and frozen.legal == [PASS]


def test_multicoloured_gathers_everyone_and_gives_three_actions_cancelling_colourless():
    s = S(R3, where=["Corridor 2", "Corridor 1", "Town Hall"], hands=[W5, W5, W5], deck=["multi"] + ["walk"] * 9,
          speed=C.COLOURLESS, speed_mask=0b111)
    step(s, WALK[UP])  # to the Forest, then draws the Multicoloured Nightmare
    assert s.where == [FO, FO, TH] and s.multi == 0b011 and s.slow == 0b100
    step(s, PASS)
    assert s.turn_player == 1 and s.actions_left == 3
    step(s, PASS)  # the Multicoloured does not reach the Town Hall: seat 2 keeps its Colourless
    assert s.turn_player == 2 and s.actions_left == 1


def test_colourless_sends_everyone_to_the_corridors_placed_by_the_horror_one_action():
    s = S(R3, where=["Corridor 4", "Bridge", "Forest"], hands=[W5, W5, ["black"]], horror=2,
          deck=["colourless"] + ["walk"] * 9, speed=C.MULTI, speed_mask=0b11)
    step(s, WALK[UP])
    assert s.decision == "Colourless placement" and s.current_player == 2  # the Horror places
    assert s.legal == [TO[c] for c in range(6)]
    step(s, TO[C6], TO[C3])
    assert s.where == [C6, C3, FO] and s.slow == 0b011 and s.multi == 0
    step(s, PASS)
    assert s.turn_player == 1 and s.actions_left == 1
    step(s, PASS)
    assert s.turn_player == 2 and s.actions_left == 2  # not the Horror


def test_a_speed_effect_is_kept_per_seat_so_the_town_hall_shelters_from_a_redrawn_one():
    # seat 1 has Multicoloured from before and shelters in the Town Hall;
    # seat 0 draws the Multicoloured again: seat 1 keeps its 3 actions
    s = S(R3, where=["Corridor 2", "Town Hall", "Corridor 1"], hands=[W5, W5, W5], deck=["multi"] + ["walk"] * 9,
          multi=0b111)
    step(s, WALK[UP])
    assert s.where == [FO, TH, FO] and s.multi == 0b111 and s.slow == 0
    step(s, PASS)
    assert s.turn_player == 1 and s.actions_left == 3
    # the Colourless drawn while seat 1 shelters: seats 0 and 2 slow down, seat 1 keeps 3 actions
    c = S(R3, where=["Corridor 4", "Town Hall", "Corridor 1"], hands=[W5, W5, W5],
          deck=["colourless"] + ["walk"] * 9, multi=0b111)
    step(c, WALK[UP], TO[C1], TO[C1])
    assert c.multi == 0b010 and c.slow == 0b101
    step(c, PASS)
    assert c.turn_player == 1 and c.actions_left == 3


def test_speed_cancel_shielded_variant_lets_the_cancelling_reach_the_town_hall():
    rules = dataclasses.replace(R3, speed_cancel_shielded=True)
    c = S(rules, where=["Corridor 4", "Town Hall", "Corridor 1"], hands=[W5, W5, W5],
          deck=["colourless"] + ["walk"] * 9, multi=0b111)
    step(c, WALK[UP], TO[C1], TO[C1])
    assert c.multi == 0 and c.slow == 0b101
    step(c, PASS)
    assert c.turn_player == 1 and c.actions_left == 2  # neither effect on the sheltered seat


def test_colourless_by_chance_when_no_stager():
    s = S(dataclasses.replace(R2, stager="chance"), where=["Corridor 4", "Bridge"], hands=[W5, W5],
          deck=["colourless"] + ["walk"] * 9)
    step(s, WALK[UP])
    assert s.decision == "turn action" and all(w < 6 for w in s.where)


def test_nightmares_stay_in_hand_outside_square_motel_restaurant_town_hall():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["catcher", "red", "blue", "walk", "walk"], ["walk"]])
    step(s, STEAL[1])
    assert s.legal == [DISCARD[C.DREAMWALK]]  # the nightmares cannot be discarded as surplus


def test_effect_ends_with_card_variant():
    s = S(dataclasses.replace(R2, effect_ends_with_card=True), where=["Square", "Corridor 1"],
          hands=[["star", "red", "walk", "walk", "walk"], W5], red=0b11, discard=["walk"])
    step(s, STAR, TAKE[C.DREAMWALK], STOP, DISCARD[C.RED])
    assert s.red == 0


# ------------------------------------------------------------------ deck, turns
def test_deck_runs_out_reshuffle_or_stop():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[W5, W5], discard=[])
    s.discard, s.deck = s.deck[:-1], s.deck[-1:]
    step(s, WALK[UP], WALK[RIGHT])  # second refill needs the reshuffled pile
    assert len(s.hands[0]) == 5 and s.stats["played_dreamwalk"][0] == 2
    t = S(dataclasses.replace(R2, deck_exhaustion="stop"), where=["Corridor 4", "Corridor 1"], hands=[W5, W5])
    t.discard, t.deck = t.deck, []
    step(t, WALK[UP])
    assert len(t.hands[0]) == 4


def test_turn_cap_ends_the_game_as_a_timeout():
    r = dreamsim.play_game(dataclasses.replace(R4, max_turns=5), ["random"] * 4, seed=1)
    assert r.timed_out and r.winner is None and r.turns == 5


def test_a_timeout_is_put_down_to_the_stall_that_holds_the_game():
    frozen = S(dataclasses.replace(R2, horror_hand_limit="all_cards"), where=["Square", "Square"],
               hands=[["black", "red", "blue", "purple", "multi"], W5], horror=0)
    assert timeout_cause(frozen) == "frozen_horror"
    assert timeout_cause(S(where=["Town Hall", "Town Hall"], hands=[["black", "star"], W5], horror=0)) == "paralysed"
    assert timeout_cause(S(R3, where=["Bridge", "Forest", "Corridor 1"], hands=[W5, W5, W5], blue=0b111)) == "blue_everyone"
    assert timeout_cause(S(where=["Bridge", "Forest"], hands=[["red"] + W5[:4], ["blue"] + W5[:4]])) == "nightmare_everyone"
    assert timeout_cause(S(where=["Bridge", "Forest"], hands=[W5, W5])) == "other"


def test_a_seat_that_becomes_the_horror_during_its_refill_draws_up_to_five_other_cards():
    # RULES.md, the Horror's hand size: nightmares do not count toward it, whenever the refill made it the
    # Horror. Seat 0 plays its Dreamwalk (one card owed) and draws the Black Nightmare: it now owes one more
    # director card, and draws it at once.
    s = S(where=["Square", "Corridor 1"], hands=[W5, W5], deck=["black", "vertigo", "star"])
    step(s, WALK[RIGHT])  # Square -> Motel, then the refill
    assert s.horror == 0
    assert sorted(s.hands[0]) == sorted([C.DREAMWALK] * 4 + [C.BLACK, C.VERTIGO])
    assert sum(k < C.RED for k in s.hands[0]) == 5 and s.owed[0] == 0


def test_a_horror_that_draws_another_nightmare_in_its_refill_keeps_drawing_to_five_other_cards():
    s = S(where=["Square", "Corridor 1"], hands=[["black"] + W5, W5], horror=0, deck=["red", "vertigo", "star"])
    step(s, WALK[RIGHT])
    assert sorted(s.hands[0]) == sorted([C.BLACK, C.RED, C.VERTIGO] + [C.DREAMWALK] * 4)
    assert sum(k < C.RED for k in s.hands[0]) == 5
    # under "black_free" only the Black is spared: the Red counts, so nothing more is drawn after it
    t = S(dataclasses.replace(R2, horror_hand_limit="black_free"), where=["Square", "Corridor 1"],
          hands=[["black"] + W5, W5], horror=0, deck=["red", "vertigo", "star"])
    step(t, WALK[RIGHT])
    assert sorted(t.hands[0]) == sorted([C.BLACK, C.RED] + [C.DREAMWALK] * 4)


def test_whoever_becomes_the_horror_in_play_ends_that_step_with_a_full_hand_of_other_cards():
    # in random games (3 players: seed 2 once ended a refill with the Black and 4 other cards), each step
    # that makes a seat the Horror leaves it, once its refill is done, with hand_size director cards
    seen = 0
    for seed in range(12):
        s = dreamsim.new_game(R3, seed)
        rng, pick = np.random.default_rng(seed), np.random.default_rng(1000 + seed)
        while not s.is_terminal:
            before = s.horror
            legal = dreamsim.legal_actions(s)
            dreamsim.apply_action(s, legal[int(pick.integers(len(legal)))], rng)
            h = s.horror
            if h != before and h >= 0 and s.owed[h] == 0 and (s.deck or s.discard):
                seen += 1
                assert sum(k < C.RED for k in s.hands[h]) == R3.hand_size, (seed, s.turns)
    assert seen >= 3


def test_paralysis_is_checked_when_a_turn_begins_so_the_turn_being_played_goes_on():
    # D-paralysis: «всегда пропускают ход» - the turn is skipped when it comes round, not cut short
    s = S(where=["Square", "Motel"], hands=[W5, ["black"] + W5], horror=1)
    step(s, WALK[RIGHT])  # Square -> Motel, into the Horror's location, one action left
    assert s.where[0] == MO and s.turn_player == 0 and s.actions_left == 1
    assert WALK[LEFT] in s.legal


def test_immediate_paralysis_variant_ends_the_turn_at_once():
    s = S(dataclasses.replace(R2, paralysis="immediate"), where=["Square", "Motel"], hands=[W5, ["black"] + W5],
          horror=1)
    step(s, WALK[RIGHT])
    assert s.where[0] == MO and s.turn_player == 1 and s.current_player == 1  # the Horror's turn
    cut = [e for e in s.log if e["event"] == "paralysed_now"]
    assert cut == [{"event": "paralysed_now", "turn": 0, "player": 0, "seat": 0, "actions_lost": 1}]
    assert len(s.hands[0]) == 5  # the end of the turn still refills
    step(s, PASS)  # the Horror passes: seat 0, still with it, skips its next turn as in the default
    assert s.turn_player == 1 and s.stats["turns_skipped"] == [1, 0]
    # a turn that begins away from the Horror is not touched by the variant
    t = S(dataclasses.replace(R2, paralysis="immediate"), where=["Square", "Forest"], hands=[W5, ["black"] + W5],
          horror=1)
    step(t, WALK[RIGHT])
    assert t.turn_player == 0 and t.actions_left == 1
