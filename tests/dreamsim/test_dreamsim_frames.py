"""The engine's named frames and the one game loop that checks every choice.

Board: dreamsim.DEFAULT_LAYOUT (top row first)

    Restaurant  Bridge    Town Hall  Forest
    Corridor 1  Square    Motel      Corridor 2
    Corridor 3  Corridor4 Corridor 5 Corridor 6
"""
import numpy as np
import pytest

import dreamsim
import simcore.frames
from dreamsim.engine import cards as C
from dreamsim.engine.actions import ALLOW, CANCEL, WALK, Walk
from dreamsim.engine.engine import (
    DECISION_NAMES,
    FRAME_CODES,
    FRAME_TYPES,
    Frame,
    IllegalActionError,
    Play,
    ReactionWindow,
    Turn,
    apply_action,
    apply_legal,
    find_legal,
    frame_as_list,
    new_game,
)
from dreamsim.engine.observation import observe
from dreamsim.engine.scenario import build_state, step
from dreamsim.policies.policies import HeuristicPolicy

R2 = dreamsim.Rules(players=2)
W4 = ["walk"] * 4
UP = 0


def reaction_state():
    """Seat 0 walks up from Corridor 4; seat 1 holds a Dutch Angle: the reaction window is open."""
    s = build_state(R2, where=["Corridor 4", "Corridor 1"], hands=[["dutch"] + W4, ["dutch"] + W4],
                    deck=["walk"] * 16)
    step(s, WALK[UP])
    return s


def test_every_frame_is_a_slotted_class_with_named_fields():
    for t in FRAME_TYPES:
        assert issubclass(t, Frame) and "__dict__" not in dir(t), t
        assert issubclass(t, simcore.frames.Frame)
        assert t.decision is None or t.decision in DECISION_NAMES.values()
    assert len(FRAME_TYPES) == 25 and len(DECISION_NAMES) == 20


def test_a_reaction_window_names_the_play_it_answers_and_who_decides():
    s = reaction_state()
    top, below = s.stack[-1], s.stack[-2]
    assert type(top) is ReactionWindow and top.seat == 1 == s.current_player
    assert top.play is below and type(below) is Play
    assert (below.actor, below.arg, below.cards, below.outcome) == (0, UP, [C.DREAMWALK], 0)
    assert s.decision == "reaction" and s.legal == [CANCEL, ALLOW]
    step(s, CANCEL)
    assert top.chain == [(1, C.DUTCH)] and top.seat == 0


def test_a_clone_copies_frames_and_keeps_a_window_pointing_at_its_own_play():
    s = reaction_state()
    t = s.clone()
    assert type(t.stack[-1]) is ReactionWindow and t.stack[-1] is not s.stack[-1]
    assert t.stack[-1].play is t.stack[-2] and t.stack[-2] is not s.stack[-2]
    step(t, CANCEL, ALLOW)  # cancelled in the clone only
    assert t.where[0] == C.CORRIDORS[3] and t.discard == [C.DUTCH, C.DREAMWALK]
    assert s.stack[-1].chain == [] and s.stack[-2].outcome == 0
    step(s, ALLOW)
    assert s.where[0] == C.SQUARE


def test_an_equal_action_built_elsewhere_is_applied_as_the_engines_own_item():
    s = build_state(R2, where=["Corridor 4", "Corridor 1"], hands=[W4 + ["walk"], W4 + ["walk"]], deck=["walk"] * 16)
    assert type(s.stack[-1]) is Turn
    fresh = Walk(UP)
    assert fresh is not WALK[UP] and find_legal(s, fresh) is WALK[UP]
    apply_action(s, fresh, np.random.default_rng(0))
    assert s.where[0] == C.SQUARE
    with pytest.raises(IllegalActionError, match="Reproduce with"):
        apply_action(s, CANCEL, np.random.default_rng(0))


class Stubborn(HeuristicPolicy):
    """A built-in policy type that answers every decision with an action never legal there."""

    def __call__(self, obs, legal, rng):
        return CANCEL if type(legal[0]) is not type(CANCEL) else WALK[UP]


def test_play_game_checks_the_choices_of_built_in_policy_types_too():
    with pytest.raises(IllegalActionError, match=r"policy 'stubborn' \(seat 0\).*Reproduce with play_game"):
        dreamsim.play_game(R2, [Stubborn(name="stubborn"), "random"], seed=3)


def test_a_game_rests_only_at_decision_frames():
    s = new_game(dreamsim.Rules(players=4), 5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        if s.is_terminal:
            break
        f = s.stack[-1]
        assert f.decision is not None and f.seat == s.current_player and s.legal == f.legal(s)
        apply_action(s, s.legal[int(rng.random() * len(s.legal))], rng)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_resting_frame_follows_the_shared_frame_protocol(players):
    """Wherever a game rests, the top of `State.stack` is a `simcore.frames.Frame` whose `seat` is the
    seat asked and whose `decision` is the one the state and that seat's observation name."""
    rules = dreamsim.Rules(players=players)
    rests = 0
    for seed in range(4):
        s = new_game(rules, seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            f, p = s.stack[-1], s.current_player
            assert isinstance(f, simcore.frames.Frame) and f.seat == p, (seed, f)
            assert f.decision is not None and f.decision == s.decision == observe(s, p).decision
            assert DECISION_NAMES[type(f)] == f.decision
            rests += 1
            apply_legal(s, s.legal[int(rng.integers(len(s.legal)))], rng)
        assert s.legal == [] and s.decision == "game over"
    assert rests > 200


def test_frames_still_read_in_the_positional_layout_for_array_mirrors():
    s = reaction_state()
    window, play = s.stack[-1], s.stack[-2]
    assert FRAME_CODES[Turn] == 0 and FRAME_CODES[ReactionWindow] == 3 and FRAME_CODES[Play] == 21
    assert frame_as_list(play) == [21, 0, 0, UP, 0, [C.DREAMWALK], 0]  # actor, play kind (P_WALK), args, cards, outcome
    assert frame_as_list(window) == [3, 1, [], (1,), 0, frame_as_list(play)]
    assert frame_as_list(s.stack[0]) == [0, 0]
