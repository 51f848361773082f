"""Rules that planted bugs (mutants, see benchmarks/tools/mutation.py) slipped past: one scenario
each, asserting the exact state. Board: dreamsim.DEFAULT_LAYOUT (top row first)

    Restaurant  Bridge    Town Hall  Forest
    Corridor 1  Square    Motel      Corridor 2
    Corridor 3  Corridor4 Corridor 5 Corridor 6
"""
import dataclasses

import pytest

import dreamsim
from dreamsim.engine import cards as C
from dreamsim.engine.actions import DISCARD, HOLD, PASS, SPRING, STAR, TO, WALK
from dreamsim.engine.scenario import build_state, step

R2, R3 = dreamsim.Rules(players=2), dreamsim.Rules(players=3)
W5 = ["walk"] * 5
UP = 0
BR, FO, TH = C.BRIDGE, C.FOREST, C.TOWN_HALL


def S(rules=R3, **kw):
    kw.setdefault("deck", ["walk"] * 16)
    return build_state(rules, **kw)


# ------------------------------------------------------------------ Midnight Star traps
def test_a_star_trap_owner_paralysed_by_red_is_not_offered_the_trap():
    s = S(where=["Bridge", "Corridor 1", "Corridor 2"], hands=[["star"] + W5[:4], W5, W5],
          traps=[[], [("Bridge", "star")], [("Forest", "star")]], red=0b010)
    step(s, STAR)
    assert s.is_terminal and s.winner == 0  # seat 1 (Red) may not spring; seat 2's trap is elsewhere


def test_every_star_trap_owner_is_asked_in_turn_when_the_first_holds():
    s = S(where=["Bridge", "Corridor 1", "Corridor 2"], hands=[["star"] + W5[:4], W5, W5],
          traps=[[], [("Bridge", "star")], [("Bridge", "star")]])
    step(s, STAR)
    assert s.current_player == 1 and s.legal == [SPRING[BR][C.STAR], HOLD]
    step(s, HOLD)
    assert s.current_player == 2 and s.legal == [SPRING[BR][C.STAR], HOLD]
    step(s, SPRING[BR][C.STAR])
    assert s.is_terminal and s.winner == 2 and s.traps[1] == [(BR, C.STAR)] and s.traps[2] == []


def test_all_star_trap_owners_holding_lets_the_activation_go_on():
    s = S(where=["Bridge", "Corridor 1", "Corridor 2"], hands=[["star"] + W5[:4], W5, W5],
          traps=[[], [("Bridge", "star")], [("Bridge", "star")]])
    step(s, STAR, HOLD, HOLD)
    assert s.is_terminal and s.winner == 0


def test_star_trap_eligibility_variant_only_limits_owners_who_cannot_benefit():
    rules = dataclasses.replace(R3, star_trap_needs_eligibility=True)
    # the Forest benefits everyone: the owner is asked although they hold a nightmare
    s = S(rules, where=["Forest", "Corridor 1", "Corridor 2"], hands=[["star"] + W5[:4], ["red"] + W5[:4], W5],
          traps=[[], [("Forest", "star")], []])
    step(s, STAR)
    assert s.current_player == 1 and s.legal == [SPRING[FO][C.STAR], HOLD]
    # the Bridge: an owner holding a nightmare cannot wake, so is not asked; a clean owner is
    b = S(rules, where=["Bridge", "Corridor 1", "Corridor 2"], hands=[["star"] + W5[:4], ["red"] + W5[:4], W5],
          traps=[[], [("Bridge", "star")], [("Bridge", "star")]])
    step(b, STAR)
    assert b.current_player == 2 and b.legal == [SPRING[BR][C.STAR], HOLD]
    # the Horror cannot wake either
    h = S(rules, where=["Bridge", "Corridor 1", "Corridor 2"], hands=[["star"] + W5[:4], ["black"] + W5[:4], W5],
          traps=[[], [("Bridge", "star")], []], horror=1)
    step(h, STAR)
    assert h.is_terminal and h.winner == 0


def test_by_default_a_star_trap_owner_who_cannot_benefit_may_still_spring_it():
    s = S(where=["Bridge", "Corridor 1", "Corridor 2"], hands=[["star"] + W5[:4], ["red"] + W5[:4], W5],
          traps=[[], [("Bridge", "star")], []])
    step(s, STAR)
    assert s.current_player == 1 and s.legal == [SPRING[BR][C.STAR], HOLD]
    step(s, SPRING[BR][C.STAR])
    assert not s.is_terminal and s.where[0] == BR and s.traps[1] == []  # nobody wakes


# ------------------------------------------------------------------ Town Hall Star traps
def test_every_town_hall_star_trap_owner_is_asked_when_a_nightmare_is_drawn():
    s = S(where=["Corridor 4", "Corridor 1", "Corridor 2"], hands=[W5, W5, W5],
          traps=[[], [("Town Hall", "star")], [("Town Hall", "star")]], deck=["blue"] + ["walk"] * 10)
    step(s, WALK[UP])
    assert s.decision == "Town Hall trap against a nightmare" and s.current_player == 1
    step(s, HOLD)
    assert s.decision == "Town Hall trap against a nightmare" and s.current_player == 2
    step(s, SPRING[TH][C.STAR])
    assert s.blue == 0 and C.BLUE in s.discard and s.traps == [[], [(TH, C.STAR)], []]


def test_town_hall_star_trap_owners_all_holding_let_the_nightmare_act():
    s = S(where=["Corridor 4", "Corridor 1", "Town Hall"], hands=[W5, W5, W5],
          traps=[[], [("Town Hall", "star")], [("Town Hall", "star")]], deck=["blue"] + ["walk"] * 10)
    step(s, WALK[UP], HOLD, HOLD)
    assert s.blue == 0b011 and C.BLUE in s.hands[0]  # seat 2 stands in the Town Hall


# ------------------------------------------------------------------ the board
def test_location_at_reads_the_grid_by_row_and_column():
    s = S(R2, where=["Corridor 1", "Corridor 2"], hands=[W5, W5])
    assert [s.location_at(0, c) for c in range(4)] == [C.RESTAURANT, BR, TH, FO]
    assert s.location_at(1, 1) == C.SQUARE and s.location_at(2, 3) == 5  # Corridor 6


@pytest.mark.parametrize("seed", range(12))
def test_shuffled_layout_starts_seats_on_its_corridors_bottom_row_first(seed):
    rules = dreamsim.Rules(players=6, hand_size=5, shuffle_layout=True, start="own_corridor")
    s = dreamsim.new_game(rules, seed)
    corridor_cells = sorted((c for c in range(len(s.grid)) if 0 <= s.grid[c] < 6),
                            key=lambda c: (-(c // s.cols), c % s.cols))
    assert len(corridor_cells) == 6 and sorted(s.grid[c] for c in corridor_cells) == list(range(6))
    assert s.where == [s.grid[c] for c in corridor_cells]
    same = dreamsim.new_game(dataclasses.replace(rules, start="same_corridor"), seed)
    last = max(c for c in range(len(same.grid)) if 0 <= same.grid[c] < 6)
    assert same.where == [same.grid[last]] * 6


def test_shuffled_layouts_put_corridor_1_on_every_kind_of_cell():
    """Location 0 (Corridor 1) is a Corridor like the others: with 6 seats someone starts there."""
    rules = dreamsim.Rules(players=6, hand_size=5, shuffle_layout=True, start="own_corridor")
    for seed in range(6):
        s = dreamsim.new_game(rules, seed)
        assert 0 in s.where and sorted(s.where) == list(range(6))


# ------------------------------------------------------------------ the deal and its log
def test_a_game_dealt_without_record_keeps_no_event_log():
    assert dreamsim.new_game(R3, 1).log is None
    assert dreamsim.new_game(R3, 1, record=True).log != []


def test_the_log_of_a_deal_comes_before_turn_0_nightmares_shuffled_in_first():
    s = dreamsim.new_game(R3, 1, record=True)
    assert [(e["event"], e["turn"]) for e in s.log[:3]] == [("nightmares_in", -1), ("deal", -1), ("turn", 0)]
    assert s.log[0]["deck"] == len(C.director_cards()) - 3 * R3.hand_size + len(C.nightmare_cards())


# ------------------------------------------------------------------ decisions taken for another seat
def test_a_dreamcatcher_owner_chooses_the_town_hall_discard_from_the_victims_hand():
    s = S(R2, where=["Corridor 1", "Town Hall"], hands=[W5, ["star", "red", "blue", "walk", "walk"]],
          traps=[[("Town Hall", "catcher")], []])
    step(s, PASS, SPRING[TH][C.CATCHER], STAR)
    assert s.decision == "Town Hall: nightmare to get rid of" and s.current_player == 0 and s.turn_player == 1
    assert s.legal == [DISCARD[C.RED], DISCARD[C.BLUE]]
    step(s, DISCARD[C.RED])
    assert s.hands == [[C.DREAMWALK] * 5, [C.DREAMWALK] * 4 + [C.BLUE]]  # kind order
    assert s.discard[-1] == C.RED


# ------------------------------------------------------------------ the Colourless Nightmare
def test_with_no_horror_the_last_seat_places_the_midnighters_hit_by_the_colourless_nightmare():
    s = S(where=["Corridor 4", "Corridor 1", "Corridor 2"], hands=[W5, W5, W5], deck=["colourless"] + ["walk"] * 16)
    step(s, WALK[UP])
    assert s.decision == "Colourless placement" and s.current_player == 2
    assert s.legal == [TO[c] for c in C.CORRIDORS]
    first = S(dataclasses.replace(R3, stager="first_seat"), where=["Corridor 4", "Corridor 1", "Corridor 2"],
              hands=[W5, W5, W5], deck=["colourless"] + ["walk"] * 16)
    step(first, WALK[UP])
    assert first.decision == "Colourless placement" and first.current_player == 0


def test_placement_by_chance_reaches_every_corridor():
    rules = dataclasses.replace(R3, stager="chance")
    seen = set()
    for seed in range(30):  # 90 placements: each Corridor is missed with chance (5/6)^90 < 1e-7
        s = S(rules, where=["Corridor 4", "Corridor 1", "Corridor 2"], hands=[W5, W5, W5],
              deck=["colourless"] + ["walk"] * 16)
        step(s, WALK[UP], seed=seed)
        assert s.decision == "turn action" and all(w in C.CORRIDORS for w in s.where)
        seen.update(s.where)
    assert seen == set(C.CORRIDORS)
