"""The heuristics' board model (walk graphs, distances, caches) and their purpose: hand-built
positions where a sensible player has one clear plan, and line-ups that must not stall.

Board: dreamsim.DEFAULT_LAYOUT (top row first)

    Restaurant  Bridge    Town Hall  Forest
    Corridor 1  Square    Motel      Corridor 2
    Corridor 3  Corridor4 Corridor 5 Corridor 6
"""
import dataclasses

import numpy as np
import pytest

import dreamsim
from dreamsim.engine import cards as C
from dreamsim.engine import engine as E
from dreamsim.engine.actions import DISCARD, PASS, STAR, TO, WALK
from dreamsim.engine.board import WalkGraph, _forget_older_half, distances_to, walk_graph
from dreamsim.engine.scenario import build_state, step
from dreamsim.policies.policies import POLICIES, HeuristicPolicy, clear_caches

R2 = dreamsim.Rules(players=2)
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
SQ, MO, TH, BR, FO, RE = C.SQUARE, C.MOTEL, C.TOWN_HALL, C.BRIDGE, C.FOREST, C.RESTAURANT
C1, C2, C3, C4, C5, C6 = 0, 1, 2, 3, 4, 5
W5 = ["walk"] * 5


class Idle:
    """Passes, lets everything happen, takes the first choice otherwise."""

    name = "idle"

    def __call__(self, obs, legal, rng):
        for a in legal:
            if type(a) in (dreamsim.Pass, dreamsim.Allow, dreamsim.Hold):
                return a
        return legal[0]


def run(s, policies, decisions=300, seed=0):
    """Let `policies` (names or objects, one per seat) play on from state s; returns the actions
    taken as (seat, action)."""
    pols = [POLICIES[p] if isinstance(p, str) else p for p in policies]
    rng = np.random.default_rng(seed)
    taken = []
    for _ in range(decisions):
        if s.is_terminal:
            break
        p = s.current_player
        a = pols[p](dreamsim.observe(s, p), dreamsim.legal_actions(s), rng)
        taken.append((p, a))
        dreamsim.apply_action(s, a, rng)
    return taken


def S(rules=R2, **kw):
    kw.setdefault("deck", ["walk"] * 16)
    return build_state(rules, **kw)


# ------------------------------------------------------------------ the board model
def random_states(rules, seeds, most=300):
    for seed in seeds:
        rng = np.random.default_rng(seed)
        s = dreamsim.new_game(rules, rng)
        for _ in range(int(rng.integers(0, most))):
            if s.is_terminal:
                break
            legal = s.legal
            E.apply_legal(s, legal[int(rng.random() * len(legal))], rng)
        yield s


@pytest.mark.parametrize("rules", [dreamsim.Rules(), dreamsim.Rules(
    dreamwalk_return_arrow=True, layout=("R B T F .", "C S M C .", "C C* C C ."))])
def test_walk_graph_distances_and_vertigo_boards_match_the_engine(rules):
    for s in random_states(rules, range(25)):
        ret = rules.dreamwalk_return_arrow
        g = walk_graph(s.rows, s.cols, tuple(s.grid), tuple(s.rot), ret)
        for goal in range(12):
            assert list(g.dist_to(goal)) == distances_to(s.grid, s.cell_of, s.rot, s.nb, goal, ret)
        for loc in range(12):
            for op in range(7):
                if op < 4 and s.nb[s.cell_of[loc]][op] < 0:
                    continue
                s2 = s.clone()
                E._apply_vop(s2, loc, op)
                g2 = g.after(loc, op)
                assert g2.grid == tuple(s2.grid)
                assert list(g2.dist_to(BR)) == distances_to(s2.grid, s2.cell_of, s2.rot, s2.nb, BR, ret)


def test_half_turned_corridors_and_town_hall_are_the_same_board():
    rows, cols, grid, rot, _, _ = dreamsim.Rules().board
    a = walk_graph(rows, cols, tuple(grid), tuple(rot), False)
    turned = list(rot)
    turned[C4] = turned[TH] = 2  # up/down and left/right arrows look the same turned half round
    assert walk_graph(rows, cols, tuple(grid), tuple(turned), False) is a
    turned[SQ] = 2
    assert walk_graph(rows, cols, tuple(grid), tuple(turned), False) is not a


def test_relaxed_distances_count_the_turns_a_vertigo_would_make():
    rows, cols, grid, rot, _, _ = dreamsim.Rules().board
    g = WalkGraph(rows, cols, tuple(grid), tuple(rot), False)
    assert g.dist_to(BR)[C4] == 4  # Corridor 4 > Square > Motel > Town Hall > Bridge
    cost, turns = g.relaxed_to(BR)
    assert (cost[C4], turns[C4]) == (3, 1)  # to the Square, turn it up, walk onto the Bridge
    assert g.dist_to(TH)[BR] == 99  # the Bridge's only arrow leads off the board
    cost, turns = g.relaxed_to(TH)
    assert (cost[BR], turns[BR]) == (2, 1)


def test_caches_never_change_a_choice():
    rules = dreamsim.Rules()
    pols = ["runner", "trickster", "horror", "heuristic"]
    first = [dreamsim.play_game(rules, pols, seed) for seed in range(6)]
    clear_caches()
    cold = [dreamsim.play_game(rules, pols, seed) for seed in range(6)]
    for _ in range(2):
        _forget_older_half()
    again = [dreamsim.play_game(rules, pols, seed) for seed in range(6)]
    assert first == cold == again


def test_a_subclassed_heuristic_is_checked_like_any_policy():
    class Sloppy(HeuristicPolicy):
        def __call__(self, obs, legal, rng):
            return dreamsim.Mix()

    with pytest.raises(dreamsim.IllegalActionError, match="'sloppy'"):
        dreamsim.play_game(R2, [Sloppy(name="sloppy"), "random"], seed=1)


# ------------------------------------------------------------------ purposeful play
def test_runner_walks_the_shortest_route_and_wakes():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[["walk"] * 4 + ["star"], W5])
    run(s, ["runner", Idle()])
    walks = [e["to"] for e in s.log if e["event"] == "walk" and e["seat"] == 0]
    # 4 steps: by the Square, the Motel and the Town Hall, or the Square, Corridor 1 and the Restaurant
    assert len(walks) == 4 and walks[-1] == BR and s.winner == 0
    assert s.turns == 4  # seat 0's turns 0 and 2 walk, turn 4 wakes


def test_runner_sheds_a_nightmare_at_the_town_hall_before_the_bridge():
    s = S(where=["Town Hall", "Corridor 1"], hands=[["red", "star", "star", "walk", "walk"], W5])
    taken = run(s, ["runner", Idle()])
    assert taken[0] == (0, STAR) and taken[1] == (0, DISCARD[C.RED])  # the Town Hall takes it
    assert s.winner == 0 and C.RED in s.discard


def test_runner_turns_a_location_to_open_the_way():
    rot = [0] * 12
    rot[TH] = 1  # the Town Hall's arrows point up (off the board) and down: no way left to the Bridge
    s = S(where=["Town Hall", "Corridor 1"], rot=rot, hands=[["vertigo", "walk", "star", "su square", "su motel"], W5])
    taken = run(s, ["runner", Idle()])
    assert type(taken[0][1]) is dreamsim.Vertigo
    assert s.winner == 0 and s.turns <= 2


def test_the_horror_heads_for_the_town_hall():
    s = S(where=["Motel", "Corridor 1"], hands=[["black", "walk", "star", "walk", "walk"], W5], horror=0)
    taken = run(s, ["horror", Idle()])
    assert taken[:2] == [(0, WALK[UP]), (0, STAR)]
    assert s.horror_won and s.winner == 0 and s.turns == 0


def test_a_midnighter_crosses_the_horrors_place_when_it_wakes_there_at_once():
    # the Horror holds nothing but nightmares (it can never move); walking onto its Bridge is
    # fine when the Star follows in the same turn (paralysis strikes at the start of a turn)
    s = S(where=["Town Hall", "Bridge"], hands=[["walk", "star", "walk", "walk", "walk"],
                                                ["black", "red", "blue", "purple", "multi"]], horror=1)
    taken = run(s, ["runner", Idle()])
    assert taken == [(0, WALK[LEFT]), (0, STAR)] and s.winner == 0


def test_a_stuck_hand_digs_instead_of_passing():
    # the Horror on the dead-end Bridge needs a Vertigo it lacks; passing would never change that
    s = S(where=["Bridge", "Corridor 1"], hands=[["black", "star", "walk", "red", "multi"], W5], horror=0)
    taken = run(s, ["horror", Idle()], decisions=1)
    assert type(taken[0][1]) is dreamsim.Discard


def test_heuristic_line_ups_rarely_time_out():
    """Measured on seeds 1000-1299 (benchmarks/speed/bench_dreamsim.py --quality 300): 0-1% of the
    4 x runner / 4 x heuristic games and of the heuristic-vs-random duels time out. Floor here:
    at most 1 timeout in 40 games each."""
    r4 = dreamsim.Rules()
    for pols in (["runner"] * 4, ["heuristic"] * 4):
        assert sum(dreamsim.play_game(r4, pols, seed).timed_out for seed in range(1000, 1040)) <= 1
    duels = [dreamsim.play_game(R2, ["heuristic", "random"][::1 - 2 * (seed % 2)], seed) for seed in range(1000, 1040)]
    assert sum(r.timed_out for r in duels) <= 1


# ------------------------------------------------------------------ engine fast paths
def test_a_nightmare_drawn_while_refilling_after_a_discard_action_pauses_the_refill():
    s = S(dreamsim.Rules(players=3), where=["Corridor 4", "Bridge", "Forest"],
          hands=[["walk", "walk", "su square"], W5, W5], deck=["colourless"] + ["walk"] * 9)
    step(s, DISCARD[C.SU_SQUARE])
    assert s.decision == "Colourless placement" and s.current_player == 2  # the Stager places
    step(s, TO[C1], TO[C2], TO[C3])
    assert s.hands[0] == [C.DREAMWALK] * 4 + [C.COLOURLESS]  # kept in kind order
    assert len(s.hands[0]) == 5 and s.decision == "turn action" and s.turn_player == 0 and s.actions_left == 1


def test_a_nightmare_drawn_at_the_end_of_turn_refill_comes_before_the_next_turn():
    rules = dataclasses.replace(dreamsim.Rules(players=3), refill="end_of_turn")
    s = S(rules, where=["Corridor 4", "Bridge", "Forest"], hands=[["walk"] * 5, W5, W5],
          deck=["colourless"] + ["walk"] * 9)
    step(s, WALK[UP], PASS)
    assert s.decision == "Colourless placement" and s.turn_player == 0
    step(s, TO[C1], TO[C2], TO[C3])
    assert len(s.hands[0]) == 5 and s.turn_player == 1 and s.decision == "turn action"


def test_without_the_discard_action_a_stuck_heuristic_digs_by_playing_a_card():
    # seed 1002 (2 x runner, discard_action=False) stalled: both on the dead-end Bridge without a
    # Midnight Star, passing forever; a hand that lacks its plan's card now plays its least useful card
    rules = dataclasses.replace(dreamsim.Rules(players=2), discard_action=False)
    s = build_state(rules, where=["Bridge", "Bridge"], deck=["walk"] * 16,
                    hands=[["walk", "walk", "walk", "su motel", "vertigo"], ["walk", "vertigo", "walk", "su forest", "walk"]])
    a = dreamsim.POLICIES["runner"](dreamsim.observe(s, 0), dreamsim.legal_actions(s), np.random.default_rng(0))
    assert a == dreamsim.Vertigo(C.BRIDGE)  # a Vertigo played for nothing but the card it brings
