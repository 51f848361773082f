"""Hostile inputs: the corpus of command lines (tests/analyses/hostile.py) and generated ones, every
subcommand and the public API. A command line ends in its exit code with one line on stderr and no
traceback; the API raises the game's ValueError (IllegalActionError for an action), nothing else.
`benchmarks/tools/fuzz_campaign.py` runs the same checks for longer."""
import contextlib
import io
import json
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from analyses import limits
from analyses.io import META_KEY, read_results
from analyses.objectives import make_objective
from balancelab.cli import main

sys.path.insert(0, str(Path(__file__).parent))
import hostile  # noqa: E402


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return hostile.make_files(tmp_path_factory.mktemp("hostile"))


def run(argv, monkeypatch=None) -> tuple[int, str, str]:
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def assert_clean(code, err, expected):
    assert "Traceback" not in err, err
    assert code == expected, err
    if expected:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("balancelab"), err


@pytest.mark.parametrize("name, argv, expected", hostile.CASES, ids=[c[0] for c in hostile.CASES])
def test_corpus(files, tmp_path, monkeypatch, name, argv, expected):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BALANCELAB_CRASH_DIR", str(tmp_path / "crashes"))
    code, _, err = run([a.replace("{d}", str(files)) for a in argv])
    assert_clean(code, err, expected)
    assert not (tmp_path / "crashes").exists()


def test_an_unexpected_exception_is_one_line_and_a_saved_traceback(tmp_path, monkeypatch):
    monkeypatch.setenv("BALANCELAB_CRASH_DIR", str(tmp_path))

    def broken(args):
        raise KeyError("a bug")
    monkeypatch.setattr("balancelab.commands.run_fpa", broken)
    monkeypatch.setattr("balancelab.checks.validate", lambda args: None)
    parser_command = main.__globals__["build_parser"]().parse_args(["fpa", "nightsim"]).command
    assert parser_command.resolve() is broken
    code, _, err = run(["fpa", "nightsim"])
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "KeyError" in lines[0] and "Traceback" not in err
    saved = list(tmp_path.glob("crash-*.txt"))
    assert len(saved) == 1 and str(saved[0]) in lines[0]
    assert "Traceback" in saved[0].read_text() and "a bug" in saved[0].read_text()


SIZE_FLAGS = [("simulate", "--games", limits.MAX_GAMES), ("fpa", "--games", limits.MAX_GAMES),
              ("fpa", "--chunk-size", limits.MAX_GAMES), ("fpa", "--players", limits.MAX_PLAYERS),
              ("report", "--games", limits.MAX_GAMES), ("ladder", "--games", limits.MAX_GAMES),
              ("ladder", "--bootstrap", limits.MAX_BOOTSTRAP), ("tune-policy", "--trials", limits.MAX_TRIALS),
              ("rebalance", "--first-games", limits.MAX_GAMES), ("fpa", "--seed", limits.MAX_SEED)]


def _argv(command: str, flag: str, value: str, tmp: Path) -> list[str]:
    base = {"simulate": ["simulate", "nightsim", "--out", str(tmp / "o.parquet")], "fpa": ["fpa", "nightsim"],
            "report": ["report", "--out", str(tmp / "r.html")], "ladder": ["ladder", "nightsim"],
            "tune-policy": ["tune-policy", "nightsim"], "rebalance": ["rebalance", "nightsim"]}[command]
    return [*base, flag, value]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SIZE_FLAGS), st.one_of(st.integers(max_value=-1), st.integers(min_value=1)), st.data())
def test_sizes_outside_their_limits_are_refused(tmp_path, flag, value, data):
    command, name, limit = flag
    if 0 <= value <= limit or (name == "--seed" and value >= 0 and value <= limit):
        value = data.draw(st.integers(min_value=limit + 1, max_value=10**40))
    if name == "--seed" and value < 0:
        value = -value + limit
    text = str(value) if abs(value) < 10**4000 else "9" * 5000
    code, _, err = run(_argv(command, name, text, tmp_path))
    assert_clean(code, err, 2)
    assert name in err or "argument" in err, err


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
@example("-\r")                      # argparse quotes it back: the error must still be one line
@example("x\ny")
@example("--\u2028")
def test_random_policy_and_game_texts_never_crash(text):
    for argv in (["fpa", "nightsim", "--games", "2", "--no-progress", "--policies", text],
                 ["rules", text or "x"], ["battle", text or "1", "vs", "1 footsoldier", "--method", "exact"]):
        code, _, err = run(argv)
        assert "Traceback" not in err and code in (0, 2), err
        if code:
            assert len(err.strip().splitlines()) == 1, err


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60))
def test_objective_texts_are_parsed_or_refused_with_a_value_error(text):
    try:
        make_objective(text)
    except ValueError:
        pass


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["game", "rules", "policies", "seed", "n_games", "data_hashes", "seat_order", "format",
                            "rotations", "engine"]), value=_JSON)
def test_results_metadata_of_any_shape_is_read_or_refused(files, tmp_path, key, value):
    table = pq.read_table(files / "good.parquet")
    attrs = json.loads(table.schema.metadata[META_KEY])
    attrs[key] = value
    path = tmp_path / "m.parquet"
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, META_KEY: json.dumps(attrs)}), path)
    try:
        df = read_results(path)
    except ValueError as exc:
        assert str(path) in str(exc)
        return
    assert len(df) == 16


GAMES = ["nightsim", "dreamsim", "nerathsim"]


def _api(game):
    """(module, engine, observation): the engine's and the observation's names are the protocol's, at the
    package's top level (docs/GAME_PROTOCOL.md), wherever each game keeps them."""
    module = __import__(game)
    return module, module, module


@pytest.mark.parametrize("game", GAMES)
def test_api_refuses_os_entropy_and_foreign_seats(game):
    module, engine, observation = _api(game)
    with pytest.raises(ValueError, match="None"):
        engine.new_game(module.Rules(), None)
    s = engine.new_game(module.Rules(), 5)
    with pytest.raises(ValueError, match="None"):
        engine.apply_action(s, engine.legal_actions(s)[0], None)
    for seat in (-1, s.n, 10**9):
        with pytest.raises(ValueError, match="not a seat"):
            observation.observe(s, seat)
    a = engine.new_game(module.Rules(), np.random.default_rng(7))
    b = engine.new_game(module.Rules(), np.random.default_rng(7))
    assert engine.legal_actions(a) == engine.legal_actions(b)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_malformed_actions_raise_the_games_illegal_action_error(game, data):
    module, engine, _ = _api(game)
    s = engine.new_game(module.Rules(), 11)
    legal = engine.legal_actions(s)
    kind = type(data.draw(st.sampled_from(legal)))
    fields = getattr(kind, "_fields", ())
    values = [data.draw(st.one_of(st.integers(-10**6, 10**6), st.none(), st.text(max_size=3))) for _ in fields]
    try:
        action = kind(*values)
    except (TypeError, ValueError):
        return
    if action in legal:
        return
    with pytest.raises(module.IllegalActionError if hasattr(module, "IllegalActionError")
                       else engine.IllegalActionError):
        engine.apply_action(s, action, np.random.default_rng(0))
