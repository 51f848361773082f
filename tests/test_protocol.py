"""One conformance suite for every game module (docs/GAME_PROTOCOL.md), in the spirit of pgx's
`api_test(env)` and scikit-learn's `parametrize_with_checks`: what it checks, every game obeys.

The three simulators are checked in full (play_game level and state level); the toy game of
the analyses tests (tests/analyses/toygame.py) implements only the play_game level that
`analyses` relies on, so it runs the checks of that level.
"""
from __future__ import annotations

import dataclasses
import gc
import re
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dreamsim
import nerathsim
import nightsim
from nerathsim.game_actions import Fight, Move
from nerathsim.scenario import build_state

import toygame  # the analyses tests' toy game, outside any package (on sys.path via tests/conftest.py)

FULL = [nightsim, dreamsim, nerathsim]
ALL = FULL + [toygame]
PLAIN = (bool, int, float, str, type(None))


def ids(module):
    return module.__name__


def default_policy(game) -> str:
    return getattr(game, "DEFAULT_POLICY", "random")


def small_rules(game):
    """Rules that give short games: Nerath on its small test map without the card decks."""
    if game is nerathsim:
        return nerathsim.Rules(map="small", events=False, dungeons=False)
    return game.Rules()


def line_up(game, rules=None):
    rules = rules or small_rules(game)
    return [default_policy(game)] * rules.players


# ---------------------------------------------------------------- play_game level (every game)

@pytest.mark.parametrize("game", ALL, ids=ids)
def test_a_game_module_exports_the_protocol(game):
    assert isinstance(game.RULES_VERSION, str) and game.RULES_VERSION
    assert dataclasses.is_dataclass(game.Rules) and game.Rules.__dataclass_params__.frozen
    assert isinstance(game.POLICIES, dict) and "random" in game.POLICIES
    assert callable(game.play_game)
    assert getattr(game, "DEFAULT_POLICY", "random") in game.POLICIES
    if game in FULL:
        for name in ("new_game", "legal_actions", "apply_action", "observe", "GameResult",
                     "IllegalActionError", "State", "Observation"):
            assert hasattr(game, name), f"{game.__name__} lacks {name}"
        assert issubclass(game.IllegalActionError, ValueError)


@pytest.mark.parametrize("game", ALL, ids=ids)
def test_default_rules_are_the_published_game_with_a_seat_count(game):
    rules = game.Rules()
    assert isinstance(rules.players, int) and 2 <= rules.players <= 6
    assert game.Rules() == rules and hash(game.Rules()) == hash(rules)
    assert small_rules(game) == small_rules(game) and hash(small_rules(game)) == hash(small_rules(game))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 3


@pytest.mark.parametrize("game", ALL, ids=ids)
def test_every_bad_rules_field_raises_value_error_naming_the_field(game):
    for f in dataclasses.fields(game.Rules):
        for bad in (object(), -7, "zz"):
            try:
                dataclasses.replace(game.Rules(), **{f.name: bad})
            except ValueError as e:
                assert f.name in str(e), f"{game.__name__}: Rules.{f.name}={bad!r}: {e}"
            else:
                pytest.fail(f"{game.__name__}: Rules.{f.name}={bad!r} was accepted")


@pytest.mark.parametrize("seed", ["abc", -1, 1.5, None, True, [1, 2]], ids=repr)
@pytest.mark.parametrize("game", ALL, ids=ids)
def test_a_bad_seed_raises_value_error_naming_the_seed(game, seed):
    with pytest.raises(ValueError, match="seed"):
        game.play_game(small_rules(game), line_up(game), seed=seed)


@pytest.mark.parametrize("game", ALL, ids=ids)
def test_an_int_numpy_int_and_seed_sequence_are_seeds(game):
    rules = small_rules(game)
    a = game.play_game(rules, line_up(game), seed=7).to_record()
    assert game.play_game(rules, line_up(game), seed=np.int64(7)).to_record() == a
    ss = game.play_game(rules, line_up(game), seed=np.random.SeedSequence(7))
    assert ss == game.play_game(rules, line_up(game), seed=np.random.SeedSequence(7))


@pytest.mark.parametrize("game", ALL, ids=ids)
def test_bad_policy_lists_raise_value_error_naming_the_policies(game):
    rules = small_rules(game)
    n = rules.players
    for bad in ("random", 123, None, ["random"] * (n + 1), ["no-such-policy"] * n, [42] * n):
        with pytest.raises(ValueError, match="polic"):
            game.play_game(rules, bad, seed=1)


@pytest.mark.parametrize("game", ALL, ids=ids)
def test_bad_rules_objects_raise_value_error(game):
    with pytest.raises(ValueError, match="rules"):
        game.play_game({"players": 2}, ["random", "random"], seed=1)


#: a mixed line-up per game (truncated to the seat count) and the rule variants to draw from
MIXED = {nightsim: ["greedy", "random", "purist", "aggressor", "random"],
         dreamsim: ["runner", "random", "trickster", "horror", "heuristic", "random"],
         nerathsim: ["balanced", "random", "aggressive", "defensive"],
         toygame: ["strong", "random", "random", "strong", "random"]}
VARIANTS = {nightsim: st.fixed_dictionaries({"players": st.integers(2, 5), "seals": st.booleans()}),
            dreamsim: st.fixed_dictionaries({"players": st.integers(2, 6), "max_turns": st.just(150)}),
            nerathsim: st.fixed_dictionaries({"players": st.sampled_from([2, 3, 4]), "max_rounds": st.just(6)}),
            toygame: st.fixed_dictionaries({"players": st.integers(2, 5)})}


@pytest.mark.parametrize("game", ALL, ids=ids)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_same_seed_gives_the_same_record_and_log(game, seed, data):
    rules = dataclasses.replace(small_rules(game), **data.draw(VARIANTS[game], label="rules"))
    policies = MIXED[game][:rules.players]
    a = game.play_game(rules, policies, seed=seed, record=True)
    b = game.play_game(rules, policies, seed=seed, record=True)
    assert a == b
    assert a.to_record() == b.to_record()
    assert a.log == b.log
    if hasattr(a, "format_log"):
        assert a.format_log() == b.format_log()


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_another_seed_gives_another_game(game):
    rules = small_rules(game)
    policies = MIXED[game][:rules.players]
    assert game.play_game(rules, policies, 7).to_record() != game.play_game(rules, policies, 8).to_record()


@pytest.mark.parametrize("game", ALL, ids=ids)
def test_the_record_is_one_flat_row_of_plain_values(game):
    r = game.play_game(small_rules(game), line_up(game), seed=5)
    row = r.to_record()
    assert {"winner", "turns", "decisions", "timed_out"} <= set(row)
    for key, value in row.items():
        assert isinstance(key, str)
        assert isinstance(value, PLAIN + (np.integer, np.floating, np.bool_)), (key, type(value))
    for i in range(small_rules(game).players):
        assert f"seat{i}_policy" in row and f"seat{i}_score" in row
    w = row["winner"]
    assert w is None or isinstance(w, (int, np.integer, str))


# ---------------------------------------------------------------- state level (the simulators)

def random_walk(game, rules, seed, steps):
    """A state reached by `steps` uniformly random legal actions (or the end of the game)."""
    rng = np.random.default_rng(seed)
    s = game.new_game(rules, seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        legal = game.legal_actions(s)
        game.apply_action(s, legal[int(rng.integers(len(legal)))], rng)
    return s, rng


#: memo tables keyed by everything they depend on (Nerath's reach tables, keyed by the terrain):
#: clones share them by design, so they are no part of a state's identity
MEMO_FIELDS = {"reach", "reach_land", "reach_store"}


def state_fields(s) -> dict:
    """Every data attribute of a State (slots or __dict__), the log and memo tables left out."""
    names = set(getattr(s, "__dict__", {}))
    for cls in type(s).__mro__:
        names.update(getattr(cls, "__slots__", ()))
    out = {}
    for name in sorted(names):
        if name in MEMO_FIELDS or name in ("log", "__dict__", "__weakref__") or name.startswith("_") \
                or not hasattr(s, name):
            continue
        value = getattr(s, name)
        if not callable(value):
            out[name] = repr(value)
    return out


def fingerprint(game, s):
    """The whole state, what every seat observes, and what is legal: equal states, equal prints."""
    players = s.rules.players
    obs = tuple(repr(game.observe(s, p)) for p in range(players))
    legal = tuple(map(repr, game.legal_actions(s))) if not s.is_terminal else ()
    return s.current_player, s.is_terminal, legal, obs, state_fields(s)


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_the_illegal_action_error_names_the_policy_the_decision_and_the_seed(game):
    class Cheat:
        name = "cheat"

        def __call__(self, obs, legal, rng):
            return "nonsense"

    rules = small_rules(game)
    with pytest.raises(game.IllegalActionError) as err:
        game.play_game(rules, [Cheat()] * rules.players, seed=1234)
    msg = str(err.value)
    assert "'cheat'" in msg and "decision" in msg and "'nonsense'" in msg
    assert "Reproduce with" in msg and "seed=1234" in msg


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_apply_action_refuses_an_illegal_action_and_leaves_the_state(game):
    s, rng = random_walk(game, small_rules(game), 3, 5)
    before = fingerprint(game, s)
    with pytest.raises(ValueError):
        game.apply_action(s, "nonsense", rng)
    assert fingerprint(game, s) == before


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_changing_one_seats_policy_never_changes_the_deal(game):
    rules = small_rules(game)
    base = line_up(game, rules)
    other = list(base)
    other[-1] = "random" if base[-1] != "random" else sorted(game.POLICIES)[-1]
    a = game.play_game(rules, base, seed=21, record=True)
    b = game.play_game(rules, other, seed=21, record=True)
    assert a.log[0] == b.log[0]   # the first event is the deal (or the first draw of it)


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_new_game_is_a_function_of_rules_and_seed(game):
    rules = small_rules(game)
    assert fingerprint(game, game.new_game(rules, 8)) == fingerprint(game, game.new_game(rules, 8))


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_a_clone_is_independent_of_the_original(game):
    rules = small_rules(game)
    s, rng = random_walk(game, rules, 17, 12)
    assert not s.is_terminal
    before = fingerprint(game, s)
    c = s.clone()
    assert fingerprint(game, c) == before
    crng = np.random.default_rng(99)
    for _ in range(3000):                       # to the end of the game (or far into it)
        if c.is_terminal:
            break
        legal = game.legal_actions(c)
        game.apply_action(c, legal[int(crng.integers(len(legal)))], crng)
    assert fingerprint(game, s) == before       # playing on the clone left the original alone
    legal = game.legal_actions(s)
    game.apply_action(s, legal[0], rng)          # and the original still plays


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_a_state_that_is_not_over_always_has_a_legal_action(game):
    rules = small_rules(game)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        s = game.new_game(rules, seed)
        for _ in range(3000):
            if s.is_terminal:
                break
            legal = game.legal_actions(s)
            assert legal, f"{game.__name__} seed {seed}: no legal action in a live state"
            assert 0 <= s.current_player < rules.players
            game.apply_action(s, legal[int(rng.integers(len(legal)))], rng)


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_format_log_reads_as_text_and_needs_a_record(game):
    rules = small_rules(game)
    r = game.play_game(rules, line_up(game), seed=2, record=True)
    text = r.format_log()
    assert isinstance(text, str) and len(text.splitlines()) > 5
    assert "()" not in text   # words, not Allow()/Draw() code objects
    with pytest.raises(ValueError, match="record=True"):
        game.play_game(rules, line_up(game), seed=2).format_log()


def _reaches(root, target, limit=200_000) -> bool:
    """Whether `target` is reachable from `root` through object references (modules and types skipped)."""
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


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_an_observation_is_a_value_holding_no_reference_to_the_state(game):
    rules = small_rules(game)
    s, rng = random_walk(game, rules, 5, 20)
    for p in range(rules.players):
        obs = game.observe(s, p)
        assert not _reaches(obs, s), f"{game.__name__}: observe(state, {p}) reaches the live State"
        for name in ("hands", "deck", "units", "stack"):
            live = getattr(s, name, None)
            if isinstance(live, (list, dict)) and live:
                assert not _reaches(obs, live), f"{game.__name__}: observe(state, {p}) reaches state.{name}"


def _spy_new_game(game, monkeypatch) -> list:
    """The States `play_game` makes: its module's `new_game` (or its engine's, for a game module that
    calls `engine.new_game`), wrapped to keep what it returns."""
    mod = sys.modules[f"{game.__name__}.game"]
    owner = mod if "new_game" in vars(mod) else sys.modules[f"{game.__name__}.engine"]
    made, real = [], owner.new_game

    def new_game(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]
    monkeypatch.setattr(owner, "new_game", new_game)
    return made


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_the_legal_actions_a_policy_gets_hold_no_reference_to_the_state(game, monkeypatch):
    rules = small_rules(game)
    made = _spy_new_game(game, monkeypatch)
    inner = game.POLICIES[default_policy(game)]
    kept = []

    def spy(obs, legal, rng):
        if len(kept) < 25 and rng.random() < 0.2:
            kept.append(legal)
        return inner(obs, legal, rng)
    game.play_game(rules, [spy] * rules.players, seed=6)
    assert len(made) == 1 and kept
    for legal in kept:
        assert not _reaches(legal, made[0]), f"{game.__name__}: the legal actions reach the live State"


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_an_observation_handed_out_is_read_only_and_the_game_going_on_leaves_it(game):
    rules = small_rules(game)
    s, rng = random_walk(game, rules, 6, 10)
    obs = game.observe(s, s.current_player)
    before = repr(obs)
    with pytest.raises(AttributeError):
        obs.hand = ()
    for _ in range(20):
        if s.is_terminal:
            break
        legal = game.legal_actions(s)
        game.apply_action(s, legal[int(rng.integers(len(legal)))], rng)
    assert repr(obs) == before


class RecordingRandom:
    """A random policy that records every number it draws from its seat's stream."""

    name = "recording"

    def __init__(self):
        self.draws = []

    def __call__(self, obs, legal, rng):
        u = float(rng.random())
        self.draws.append(u)
        return legal[int(u * len(legal))]


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_each_seat_draws_from_its_own_random_stream(game):
    """Seat 0's policy draws the same numbers whatever another seat plays: the seats' streams are
    independent (the games themselves part ways once the other seat's choices differ)."""
    rules = small_rules(game)
    draws = []
    for last in ("random", MIXED[game][1] if MIXED[game][1] != "random" else MIXED[game][0]):
        seat0 = RecordingRandom()
        game.play_game(rules, [seat0] + [default_policy(game)] * (rules.players - 2) + [last], seed=31)
        draws.append(seat0.draws)
    n = min(map(len, draws))
    assert n >= 5 and draws[0][:n] == draws[1][:n]


def _attempt(change) -> None:
    """Try to change the legal actions a policy was handed (an immutable value refuses)."""
    try:
        change()
    except (AttributeError, TypeError):
        pass


class Vandal(RecordingRandom):
    """RecordingRandom's choice, after which it reverses and empties the legal actions it was handed."""

    name = "vandal"

    def __call__(self, obs, legal, rng):
        a = super().__call__(obs, legal, rng)
        _attempt(lambda: legal.reverse())
        _attempt(lambda: legal.clear())
        return a


class Smuggler:
    """Slips an action of its own into the legal actions it was handed, and plays it."""

    name = "smuggler"

    def __call__(self, obs, legal, rng):
        _attempt(lambda: legal.append("nonsense"))
        return "nonsense"


def _without_names(record: dict) -> dict:
    return {k: v for k, v in record.items() if not k.endswith("_policy")}


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_a_policy_that_changes_its_legal_actions_cannot_change_the_game(game):
    """What a policy does to the legal actions it is handed reaches neither the engine nor the check
    of its choice: the game is the one a policy making the same choices without touching them plays."""
    rules = small_rules(game)
    vandals, plain = [Vandal() for _ in range(rules.players)], [RecordingRandom() for _ in range(rules.players)]
    a = game.play_game(rules, vandals, seed=44, record=True)
    b = game.play_game(rules, plain, seed=44, record=True)
    assert _without_names(a.to_record()) == _without_names(b.to_record())
    assert a.log == b.log
    assert [v.draws for v in vandals] == [p.draws for p in plain] and len(plain[0].draws) >= 5


@pytest.mark.parametrize("game", FULL, ids=ids)
def test_a_policy_cannot_make_its_own_action_legal_by_adding_it_to_the_legal_actions(game):
    rules = small_rules(game)
    with pytest.raises(game.IllegalActionError, match="'smuggler'"):
        game.play_game(rules, [Smuggler()] * rules.players, seed=45)


# ---------------------------------------------------------------- each game's own messages
# (folded from the per-game api/rules tests: the conformance suite holds every validation case)

BAD_RULES = [  # (game, fields changed from small_rules(game), what the ValueError must say)
    *[(nightsim, kwargs, rf"Rules\.{field}") for kwargs, field in [
        (dict(players=1), "players"), (dict(players=6), "players"), (dict(hand_size=-1), "hand_size"),
        (dict(hand_size=0), "hand_size"), (dict(actions_per_turn=0), "actions_per_turn"),
        (dict(max_turns=0), "max_turns"), (dict(penalty_timing="later"), "penalty_timing"),
        (dict(players="4"), "players"), (dict(seals="yes"), "seals"), (dict(creature_limit=2), "creature_limit")]],
    *[(dreamsim, kwargs, rf"Rules\.{field}") for kwargs, field in [
        (dict(players=1), "players"), (dict(players=7), "players"), (dict(players="4"), "players"),
        (dict(hand_size=0), "hand_size"), (dict(actions_per_turn=0), "actions_per_turn"),
        (dict(max_turns=0), "max_turns"), (dict(refill="sometimes"), "refill"), (dict(nightmares="later"), "nightmares"),
        (dict(stager="me"), "stager"), (dict(start="bridge"), "start"), (dict(deck_exhaustion="x"), "deck_exhaustion"),
        (dict(vertigo_rotation="half"), "vertigo_rotation"), (dict(intercept_takes="all"), "intercept_takes"),
        (dict(town_hall_discards="two"), "town_hall_discards"),
        (dict(dreamwalk_trap_self="bridge"), "dreamwalk_trap_self"),
        (dict(shuffle_layout="yes"), "shuffle_layout"), (dict(discard_action=1), "discard_action"),
        (dict(layout=("C C C", "F S M")), "layout"), (dict(layout="R B T F"), "layout"),
        (dict(layout=("R B T X", "C S M C", "C C C C")), "layout"),
        (dict(layout=("R B T F", "C S M C", "C C C")), "layout"),
        (dict(layout=("R B T F", "C S M C", "C C* C* C")), "layout"),
        (dict(layout=("R B T F", "C S M C", "C C C4 C")), "layout"),
        (dict(cancel_debt=-1), "cancel_debt"), (dict(multicolour_actions=0), "multicolour_actions"),
        (dict(hand_size=13), "hand_size")]],
    *[(nerathsim, {field: value}, re.escape(message)) for field, value, message in [
        ("players", 5, "Rules.players=5 is not allowed"),
        ("players", "4", "Rules.players must be an integer"),
        ("mode", "chaos", "Rules.mode='chaos' is not allowed"),
        ("game_length", "epic", "Rules.game_length='epic'"),
        ("turn_order", ("karkoth", "karkoth", "vailin", "nerath"), "Rules.turn_order must name each realm once"),
        ("turn_order", "backwards", "Rules.turn_order must name each realm once"),
        ("vp_to_win", 0, "Rules.vp_to_win=0"),
        ("max_rounds", 0, "Rules.max_rounds=0"),
        ("placement_limit", 0, "Rules.placement_limit=0"),
        ("flyers_ending_at_sea", ("footsoldier",), "Rules.flyers_ending_at_sea: footsoldier is not a flying unit"),
        ("flyers_ending_at_sea", ("balrog",), "Rules.flyers_ending_at_sea: unknown unit 'balrog'"),
        ("dungeon_entry", "everyone", "Rules.dungeon_entry="),
        ("regroup_move", "half", "Rules.regroup_move="),
        ("income_mode", "tax", "Rules.income_mode="),
        ("capital_vp_stacks", 1, "Rules.capital_vp_stacks must be True or False"),
        ("map", "atlantis", "Rules.map: map 'atlantis': cannot read"),
        ("map", 3, "Rules.map must be a map name"),
        ("battle", "dice", "Rules.battle must be a nerathsim.BattleRules")]],
]


def _case_id(case) -> str:
    game, *rest = case
    return f"{game.__name__}-{rest[0]!r}"[:80]


@pytest.mark.parametrize("case", BAD_RULES, ids=_case_id)
def test_a_bad_rules_value_raises_the_games_own_message(case):
    game, fields, message = case
    base = game.Rules(map="small") if game is nerathsim else game.Rules()
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(base, **fields)


NERATH_SMALL = nerathsim.Rules(map="small", mode="free_for_all", events=False, dungeons=False, max_rounds=6)
BAD_CALLS = [  # (game, rules, policies, seed, what the ValueError must say)
    (nightsim, nightsim.Rules(players=3), ["smart", "random", "random"], 0, "unknown policy 'smart'.*known: aggressor"),
    (nightsim, nightsim.Rules(players=3), ["random", "random"], 0, "2 given for 3 players"),
    (dreamsim, dreamsim.Rules(players=3), ["smart", "random", "random"], 0, "unknown policy 'smart'.*known: heuristic"),
    (dreamsim, dreamsim.Rules(players=3), ["random", "random"], 0, "2 given for 3 players"),
    (dreamsim, dreamsim.Rules(players=3), ["random"] * 3, "x", "seed"),
    (dreamsim, {}, ["random"] * 3, 0, "rules must be a dreamsim.Rules"),
    (nerathsim, NERATH_SMALL, ["random"] * 3, 0, "3 given for 4 players"),
    (nerathsim, NERATH_SMALL, "random", 0, "one policy"),
    (nerathsim, NERATH_SMALL, ["random"] * 3 + ["nobody"], 0, "unknown policy 'nobody'"),
    (nerathsim, NERATH_SMALL, ["random"] * 3 + [42], 0, "neither a policy name nor callable"),
    (nerathsim, {"players": 4}, ["random"] * 4, 0, "rules must be a nerathsim Rules"),
    (nerathsim, NERATH_SMALL, ["random"] * 4, -1, "seed must be"),
]


@pytest.mark.parametrize("case", BAD_CALLS, ids=lambda c: f"{c[0].__name__}-{c[4]}")
def test_a_bad_play_game_call_raises_the_games_own_message(case):
    game, rules, policies, seed, message = case
    with pytest.raises(ValueError, match=message):
        game.play_game(rules, policies, seed)


def _cheat(name, choose):
    def policy(obs, legal, rng):
        return choose(obs)
    policy.name = name
    return policy


ILLEGAL_CHOICES = [  # (game, rules, the cheat's choice, its seat-mates, seed, what the message must say)
    (nightsim, nightsim.Rules(players=2), lambda obs: nightsim.Play(card=obs.hand[0], creature=3, slot=2),
     ["random"], 77, ["'cheater'", "turn action", "seed=77"]),
    (dreamsim, dreamsim.Rules(players=2), lambda obs: dreamsim.Star(), ["random"], 77,
     ["'cheater'", "turn action", "seed=77"]),
    (nerathsim, NERATH_SMALL, lambda obs: Fight(0), ["random"] * 3, 5,
     [r"policy 'cheater' \(seat 0, karkoth\) chose Fight\(region=0\) at decision 'movement'.*seed=5"]),
]


@pytest.mark.parametrize("case", ILLEGAL_CHOICES, ids=lambda c: c[0].__name__)
def test_an_illegal_choice_of_a_plausible_action_names_the_policy_the_decision_and_the_seed(case):
    game, rules, choose, others, seed, expected = case
    with pytest.raises(game.IllegalActionError) as err:
        game.play_game(rules, [_cheat("cheater", choose)] + others, seed)
    for pattern in expected:
        assert re.search(pattern, str(err.value)), (pattern, str(err.value))


ILLEGAL_APPLIED = [  # (game, a position, an action not legal there, what the message must say)
    (nightsim, lambda: nightsim.new_game(nightsim.Rules(players=2), 3), nightsim.StopDiscard(),
     "illegal action StopDiscard"),
    (nerathsim, lambda: build_state(nerathsim.Rules(map="small", mode="free_for_all", events=False, dungeons=False),
                                    units={"Kar": {"karkoth": "footsoldier"}}),
     Move(0, 5, "footsoldier", 1), "illegal action"),
]


@pytest.mark.parametrize("case", ILLEGAL_APPLIED, ids=lambda c: c[0].__name__)
def test_apply_action_names_a_plausible_illegal_action_and_leaves_the_state(case):
    game, position, action, message = case
    s = position()
    before = fingerprint(game, s)
    with pytest.raises(game.IllegalActionError, match=message):
        game.apply_action(s, action, np.random.default_rng(0))
    assert fingerprint(game, s) == before
