"""The engine's named decision frames and the layout of the `nerathsim/engine/` package
(item 3): every pending decision (the turn's parts, battle order, press or retreat, a card window, a
pending card, a casualty choice, the hits a realm still places, running amok) is a small slotted class
with named fields (who decides, what is legal, how it applies) on one stack, `State.stack`, where the
frame beneath resumes after it; a clone owns its own frames, and the engine's modules import downwards
only. Positions are built on the small map with the shipped cards."""
from __future__ import annotations

import ast
import dataclasses
import pickle
from pathlib import Path

import numpy as np
import pytest

import simcore.frames
from nerathsim import engine as E
from nerathsim.battle.rules import BattleRules
from nerathsim.game_actions import Hit, Pass, PlayCard
from nerathsim.observation import observe
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, card_id
from simcore.frames import drive

K, V, I, N = range(4)
CARDS = Rules(map="small", mode="free_for_all")                 # the shipped event decks, treasures, guardians
CARDS_ORDER = dataclasses.replace(CARDS, casualty_choice="order")
SURE = dataclasses.replace(Rules(map="small", mode="free_for_all", events=False, dungeons=False),
                           battle=BattleRules(hit_threshold=1))  # every die hits
NERATH_CASTLE = {"Nera": {"nerath": "castle, footsoldier"}, "Nmarch": {"nerath": "footsoldier"}}
ENGINE = Path(E.__file__).parent
#: the engine's modules, lowest first: a module imports only modules before it
LAYERS = ["state", "common", "terrain", "windows", "fight", "dungeons", "movement", "combat", "reinforce", "turn",
          "dispatch", "setup"]


def test_the_reinforcements_window_is_a_card_window_frame_that_resumes_with_buying():
    s = build_state(CARDS, realm="nerath", phase="buy", units=NERATH_CASTLE, gold={"nerath": 10},
                    hands={"nerath": ["nerath_royal_treasury"]})
    w = s.window
    assert isinstance(w, E.CardWindow) and s.phase == E.PH_EVENT
    assert (w.kind, w.realm, w.region, w.role, w.decider) == ("reinforcements", N, -1, None, N)
    assert s.stack[-1] is w and isinstance(s.stack[-2], E.BuyUnits) and s.decider == N    # buying resumes after it
    assert E.legal_actions(s) == [PlayCard(card_id(s, "nerath_royal_treasury")), Pass()]
    act(s, "Pass")
    assert s.window is None and s.phase == E.PH_BUY and s.decider == N and s.gold[N] == 10


def test_a_card_window_is_an_immutable_slotted_frame_a_clone_shares_and_the_observation_shows_by_name():
    s = build_state(CARDS, realm="nerath", phase="buy", units=NERATH_CASTLE, gold={"nerath": 10},
                    hands={"nerath": ["nerath_royal_treasury"]})
    w = s.window
    assert not hasattr(w, "__dict__") and not isinstance(w, tuple)
    with pytest.raises(AttributeError):
        w.realm = K
    assert s.clone().window is w and w.realm == N
    back = pickle.loads(pickle.dumps(w))
    assert (back.kind, back.realm, back.region, back.role) == (w.kind, w.realm, w.region, w.role)
    v = observe(s, s.seat_of[N]).window
    assert isinstance(v, E.WindowView) and v == w.view == ("reinforcements", N, -1, None)
    assert (w.view.kind, w.view.realm, w.view.region, w.view.role) == ("reinforcements", N, -1, None)


def test_a_pending_card_frame_waits_for_the_enemy_holding_an_answer_then_resolves():
    s = build_state(CARDS, realm="nerath", phase="buy", units=NERATH_CASTLE, gold={"nerath": 10},
                    hands={"nerath": ["nerath_royal_treasury"], "iron_circle": ["iron_circle_treachery"]})
    act(s, "PlayCard", "nerath_royal_treasury")
    p = s.pending
    assert isinstance(p, E.PendingCard) and s.phase == E.PH_EVENT
    assert (p.realm, p.play, p.reactors, p.decider) == (N, PlayCard(card_id(s, "nerath_royal_treasury")), [I], I)
    assert s.decider == I and s.current_player == s.seat_of[I]
    assert E.legal_actions(s) == [PlayCard(card_id(s, "iron_circle_treachery")), Pass()]
    act(s, "Pass")                                                   # Iron Circle lets the card through
    assert s.pending is None and s.window is None and s.phase == E.PH_BUY and s.gold[N] == 13


def test_hits_to_place_are_frames_and_a_clone_places_its_own():
    s = build_state(SURE, ships=[("karkoth", "Inner Sea", ["fighter", "wizard"]), ("vailin", "North Sea")],
                    units={"North Sea": {"vailin": "dragon"}})
    act(s, "Sail", s.ships[0].id, "North Sea")
    act(s, "EndPhase")
    act(s, "Hit", "damage:dragon")                                   # Vailin placed the first strike's hit
    frames = s.battle.hits
    assert all(isinstance(h, E.HitsToPlace) for h in frames)
    assert s.battle.next_hits is frames[0] and E.current_frame(s) is frames[0]
    assert [(h.realm, h.hits) for h in frames] == [(K, 2), (V, 2)] and s.decider == K
    c = s.clone()
    E.apply_action(c, Hit("fighter"), np.random.default_rng(0))
    assert [(h.realm, h.hits) for h in c.battle.hits] == [(K, 1), (V, 2)]
    assert [(h.realm, h.hits) for h in s.battle.hits] == [(K, 2), (V, 2)]      # the original is untouched


def _engine_imports(path: Path) -> set:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out |= {node.module} if node.module else {a.name for a in node.names}
    return out


def test_the_engine_modules_import_downwards_only_and_stay_small():
    found = {p.stem for p in ENGINE.glob("*.py")} - {"__init__"}
    assert found == set(LAYERS)
    for name in LAYERS:
        path = ENGINE / f"{name}.py"
        lower = set(LAYERS[:LAYERS.index(name)])
        assert _engine_imports(path) <= lower, (name, _engine_imports(path) - lower)
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 600, name


def test_every_decision_kind_has_one_owner_and_endphase_goes_on_to_the_next_part_of_the_turn():
    kinds = set(E.DECISION_NAMES) - {E.PH_OVER}
    assert set(E.FRAMES) == kinds
    ends = {cls.phase for cls in E.FRAME_TYPES if cls.finish is not E.Frame.finish}
    assert ends == {E.PH_MOVE, E.PH_REGROUP, E.PH_BUY, E.PH_REINFORCE}
    plan = E.turn_plan(K, 0)                                        # the parts of a turn, the first on top
    assert [type(f) for f in reversed(plan)] == [E.Movement, E.BattleOrder, E.Regroup, E.BuyUnits, E.Reinforcements,
                                                 E.Income]


def test_at_every_decision_of_random_games_the_frame_names_who_decides():
    """Random play with the shipped cards and guardians (each hit placed by its owner, or one casualty
    order per side): whenever the state
    rests at a frame (a card window, a pending card, a casualty choice, hits to place, running amok), the
    frame's `decider` is the realm deciding and its seat is the seat to move."""
    seen = set()
    for rules, seed in [(CARDS, 0), (CARDS, 1), (CARDS, 2), (CARDS_ORDER, 3), (CARDS_ORDER, 4)]:
        rng = np.random.default_rng(seed)
        s = E.new_game(rules, seed)
        for _ in range(1500):
            if s.is_terminal:
                break
            f = E.current_frame(s)
            if f is not None:
                seen.add(type(f).__name__)
                assert f.decider == s.decider and s.current_player == s.seat_of[f.decider]
                assert f is s.stack[-1] and f.phase == s.phase
            else:
                assert s.phase in (E.PH_MOVE, E.PH_COMBAT, E.PH_PRESS, E.PH_REGROUP, E.PH_BUY, E.PH_REINFORCE)
            legal = E.legal_actions(s)
            E.apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
    assert {"CardWindow", "PendingCard", "HitsToPlace", "CasualtyChoice"} <= seen, seen


def test_every_resting_state_tops_its_stack_with_a_protocol_frame_naming_its_seat_and_decision():
    """Random games with the shipped cards, four seats and two or three (a seat playing two realms): at
    every state at rest the top of `State.stack` is a `simcore.frames.Frame` whose `seat` is the seat to
    move (the seat of the realm it decides for, which differs from the realm's index when a seat plays
    two realms) and whose `decision` is what the state and the deciding seat's observation name."""
    kinds, two_realm_seats = set(), 0
    for rules, seed in [(CARDS, 7), (CARDS_ORDER, 8), (dataclasses.replace(CARDS, mode="alliance", players=2), 9),
                        (dataclasses.replace(CARDS_ORDER, mode="alliance", players=3), 10)]:
        rng = np.random.default_rng(seed)
        s = E.new_game(rules, seed)
        for _ in range(700):
            if s.is_terminal:
                break
            top = s.stack[-1]
            assert isinstance(top, simcore.frames.Frame) and top is E.current_frame(s)
            assert top.seat == s.current_player == s.seat_of[top.decider] and top.decider == s.decider, top
            assert top.decision == s.decision == observe(s, s.current_player).decision, top
            assert top.step(s, rng) is True                     # at rest: the driver's hook keeps it there
            kinds.add(type(top).__name__)
            two_realm_seats += top.seat != top.decider
            legal = E.legal_actions(s)
            E.apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
    assert {"Movement", "BattleOrder", "BuyUnits", "CardWindow", "HitsToPlace", "CasualtyChoice"} <= kinds, kinds
    assert two_realm_seats > 0


def test_a_frame_answers_legal_is_legal_and_apply_itself():
    """Random play with the shipped cards: at every frame the state rests at, the frame's `legal(s)` is
    the legal listing, `is_legal` accepts each listed action, and applying through the frame (then the
    lab's driver, `simcore.frames.drive`) leaves the same state as the dispatcher's `apply_legal` from a
    clone. Every decision frame class answers with its own methods (no delegation to a table bound at
    import) and names its decision as the state does."""
    for cls in E.FRAME_TYPES:
        if cls.phase is not None:
            assert all(getattr(cls, m) is not getattr(E.Frame, m) for m in ("legal", "is_legal", "apply")), cls
        assert cls.decision == (None if cls.phase is None else E.DECISION_NAMES[cls.phase]), cls
        assert all("__slots__" in vars(c) for c in cls.__mro__[:-1]), cls   # slotted
    seen = set()
    for rules, seed in [(CARDS, 5), (CARDS_ORDER, 6)]:
        rng = np.random.default_rng(seed)
        s = E.new_game(rules, seed)
        for _ in range(800):
            if s.is_terminal:
                break
            legal = E.legal_actions(s)
            a = legal[int(rng.integers(len(legal)))]
            f = E.current_frame(s)
            if f is not None:
                seen.add(type(f).__name__)
                assert f.legal(s) == legal and all(f.is_legal(s, b) for b in legal)
                c = s.clone()
                E.apply_legal(c, a, np.random.default_rng(seed))
                d = s.clone()
                f2 = E.current_frame(d)
                f2.apply(d, a, np.random.default_rng(seed))
                drive(d, np.random.default_rng(seed))
                assert (d.phase, d.decider, d.gold, d.vp, d.units) == (c.phase, c.decider, c.gold, c.vp, c.units)
            E.apply_legal(s, a, rng)
    assert {"CardWindow", "CasualtyChoice"} <= seen, seen
