"""A policy sees only its observation and the legal actions.

The policies import nothing from the engine and branch on `Observation.phase` (a `Phase`); the
Observation's methods call no private engine function; the legal actions answer from the seat's
public copy exactly as the engine does on the live state, and no State is reachable through them;
the heuristics' exact-odds cache belongs to each policy object, not to a module.
"""
from __future__ import annotations

import ast
import dataclasses
import gc
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

import nerathsim.policies as P
from nerathsim import engine as E
from nerathsim.battle.odds import battle_odds
from nerathsim.engine.common import _army_counts
from nerathsim.engine.terrain import _reach
from nerathsim.game import LegalActions, play_game
from nerathsim.game_actions import EndPhase, Move, Pass, PressOn
from nerathsim.observation import observe
from nerathsim.phases import Phase
from nerathsim.policies import BALANCED, POLICIES, OddsCache, exact_odds
from nerathsim.rules import Rules

PKG = Path(P.__file__).resolve().parent
OBSERVATION = PKG.parent / "observation.py"


def test_the_phase_names_are_the_engines_phases():
    engine_phases = {name[3:]: v for name, v in vars(E).items() if name.startswith("PH_")}
    assert {m.name: m.value for m in Phase} == engine_phases
    s = E.new_game(Rules(), 4)
    o = observe(s, s.current_player)
    assert type(o.phase) is Phase and o.phase is Phase(s.phase) and o.phase == s.phase


def _imports(tree) -> set:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            out.add(base)
            out.update(f"{base}.{a.name}" if node.module else f"{base}{a.name}" for a in node.names)
    return out


def test_the_policies_import_nothing_from_the_engine_and_name_no_engine_constant():
    files = sorted(PKG.glob("*.py"))
    assert len(files) >= 5
    for f in files:
        tree = ast.parse(f.read_text(encoding="utf-8"))
        engine = [m for m in _imports(tree) if "engine" in m.split(".")]
        assert not engine, (f.name, engine)
        names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert not [n for n in names if n.startswith("PH_")], f.name


def test_observation_methods_call_no_private_engine_function():
    """Private engine helpers only while the observation is made (public_state, __init__), never
    in the methods a policy calls."""
    tree = ast.parse(OBSERVATION.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Observation")
    for fn in cls.body:
        if not isinstance(fn, ast.FunctionDef) or fn.name == "__init__":
            continue
        private = [n.attr for n in ast.walk(fn) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                   and n.value.id == "E" and n.attr.startswith("_")]
        assert not private, (fn.name, private)


def test_the_policy_modules_hold_no_mutable_module_state():
    """Caches and counters live on policy objects: no module of the package holds a dict, list or set
    (but the POLICIES registry and __all__)."""
    for f in sorted(PKG.glob("*.py")):
        name = "nerathsim.policies" if f.stem == "__init__" else f"nerathsim.policies.{f.stem}"
        mod = sys.modules[name]
        mutable = [k for k, v in vars(mod).items() if isinstance(v, (dict, list, set, bytearray))
                   and not k.startswith("__") and k != "POLICIES"]
        assert not mutable, (name, mutable)


def test_each_war_policy_keeps_its_own_odds_cache_which_is_no_part_of_its_identity():
    caches = {id(p.odds_cache) for p in POLICIES.values() if isinstance(p, P.WarPolicy)}
    assert len(caches) == 4            # balanced, aggressive, defensive and tuned (data/tuned.json)
    other = dataclasses.replace(BALANCED, attack_threshold=0.7)
    assert other.odds_cache is not BALANCED.odds_cache and len(other.odds_cache) == 0
    assert "odds_cache" not in {f.name for f in dataclasses.fields(P.WarPolicy)}
    assert dataclasses.replace(BALANCED) == BALANCED and hash(dataclasses.replace(BALANCED)) == hash(BALANCED)
    BALANCED.odds_cache.table[("x",)] = 0.5
    twin = pickle.loads(pickle.dumps(BALANCED))
    assert twin == BALANCED and len(twin.odds_cache) == 0 and twin.odds_cache is not BALANCED.odds_cache
    del BALANCED.odds_cache.table[("x",)]


def test_exact_odds_are_remembered_in_the_cache_given_and_equal_the_solver():
    br = Rules().battle
    t = br.units
    att, dfd = [0] * len(t.names), [0] * len(t.names)
    att[t.index("footsoldier")], dfd[t.index("footsoldier")] = 4, 3
    cache = OddsCache(max_size=2)
    p = exact_odds(br, att, dfd, False, cache)
    assert p == pytest.approx(battle_odds({"footsoldier": 4}, {"footsoldier": 3}, rules=br).attacker_wins)
    assert exact_odds(br, att, dfd, False, cache) == p and cache.calls == 1 and len(cache) == 1
    assert exact_odds(br, att, dfd, False) == p and cache.calls == 1      # no cache given: none kept
    dfd[t.index("footsoldier")] = 2
    exact_odds(br, att, dfd, False, cache)
    dfd[t.index("footsoldier")] = 1
    exact_odds(br, att, dfd, False, cache)            # the third entry: the full cache was emptied first
    assert cache.calls == 3 and len(cache) == 1


def test_a_policy_with_an_empty_cache_plays_the_same_game():
    rules = Rules(mode="free_for_all")
    warm = play_game(rules, ["balanced"] * 4, seed=7).to_record()
    cold = dataclasses.replace(BALANCED)
    again = play_game(rules, [cold] * 4, seed=7).to_record()
    assert again == warm


def _reaches(root, target, limit=200_000) -> bool:
    seen, stack = set(), [root]
    while stack and len(seen) < limit:
        x = stack.pop()
        if x is target:
            return True
        if id(x) in seen or isinstance(x, (type, type(sys), str, bytes, int, float)):
            continue
        seen.add(id(x))
        stack.extend(gc.get_referents(x))
    return False


def _illegal_probes(s) -> list:
    """Actions near the legal ones that are not legal (a count too many, a wrong kind)."""
    out = [Pass(), PressOn(), EndPhase(), "nonsense", Move(-1, 0, "footsoldier", 1)]
    for a in E.legal_actions(s)[:40]:
        if type(a) is Move:
            out.append(Move(a.src, a.dst, a.unit, a.count + 50))
    return out


def check_legal(s):
    legal = LegalActions(s)
    shared = LegalActions.of(observe(s, s.current_player))
    live = E.legal_actions(s)[:]
    for la in (legal, shared):
        assert not _reaches(la, s)
        assert list(la) == live and len(la) == len(live)
        assert [a for group in la.by_kind() for a in group] == live
        assert all(a in la for a in live)
        for a in _illegal_probes(s):
            assert (a in la) == E.is_legal(s, a), a


def test_the_legal_actions_answer_from_the_public_copy_as_the_engine_does_on_the_live_state():
    kids = np.random.SeedSequence(1).spawn(2)
    chance, prng = np.random.default_rng(kids[0]), np.random.default_rng(kids[1])
    s = E.new_game(Rules(), chance)
    seen, pending = set(), 0
    while not s.is_terminal:
        if s.pending is not None or s.phase not in (E.PH_MOVE, E.PH_REINFORCE) or s.decisions % 7 == 0:
            check_legal(s)
            seen.add(Phase(s.phase))
            pending += s.pending is not None
        p = s.current_player
        E.apply_action(s, POLICIES["balanced"](observe(s, p), LegalActions(s), prng), chance)
    assert pending >= 1 and {Phase.MOVE, Phase.COMBAT, Phase.HIT, Phase.EVENT, Phase.BUY} <= seen


def test_army_and_ship_reach_in_the_observation_are_the_engines():
    kids = np.random.SeedSequence(2).spawn(2)
    chance, prng = np.random.default_rng(kids[0]), np.random.default_rng(kids[1])
    s = E.new_game(Rules(mode="free_for_all"), chance)
    at_sea = ships = 0
    while not s.is_terminal and s.decisions < 400:
        p = s.current_player
        o = observe(s, p)
        if s.decisions % 5 == 0:
            for r in range(s.board.n):
                for q in range(4):
                    assert o.army(r, q) == _army_counts(s, r, q)
                    at_sea += s.board.is_sea[r] and o.army(r, q) != o.units(r, q)
            for sh in s.ships:
                want = {} if sh.moves <= 0 or sh.unloaded or sh.owner != s.realm else {
                    dst: (c, st) for dst, c, st in _reach(s, sh.region, E.C_SHIP, sh.moves, s.mode)}
                assert o.ship_destinations(sh.id) == want
                ships += bool(want)
        E.apply_action(s, POLICIES["balanced"](o, LegalActions(s), prng), chance)
    assert at_sea and ships
