"""Game lookup, rules conversion and policy resolution (analyses.games)."""
import dataclasses
import types

import pytest

from analyses.games import load_game, make_rules, parse_value, resolve_policies, with_parameter


def test_load_game_by_module_path_and_object(toy):
    assert load_game("toygame") is toy
    assert load_game(toy) is toy


def test_aliases_resolve_to_the_registered_module(monkeypatch, toy):
    monkeypatch.setitem(__import__("sys").modules, "nightsim", toy)
    assert load_game("nightmarium") is toy
    assert load_game("NightSim") is toy


def test_unknown_game_lists_the_known_games():
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*nightsim \(nightmarium\).*dreamsim \(midnighters\)"):
        load_game("chess")


@pytest.mark.parametrize("name", ["dreamsim", "midnighters", "nerathsim", "nerath"])
def test_games_not_written_yet_give_a_clean_error(name):
    module = __import__("analyses.games", fromlist=["x"]).KNOWN_GAMES[name]
    try:
        load_game(name)
    except ValueError as exc:
        assert module in str(exc) or name in str(exc)
    else:  # the game has been written since: then it must follow the protocol
        assert hasattr(load_game(name), "play_game")


def test_module_without_the_protocol_is_refused():
    with pytest.raises(ValueError, match="lacks Rules, POLICIES, play_game, RULES_VERSION"):
        load_game(types.ModuleType("empty"))
    with pytest.raises(ValueError, match="not available"):
        load_game("json")


def test_broken_import_inside_a_game_is_not_hidden(tmp_path, monkeypatch):
    (tmp_path / "brokengame.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_xyz"):
        load_game("brokengame")


def test_make_rules_converts_strings_to_field_types(toy):
    rules = make_rules(toy, {"players": "3", "bias": "0.25", "teams": "false"})
    assert (rules.players, rules.bias, rules.teams) == (3, 0.25, False)
    assert make_rules(toy, rules, max_rounds=7).max_rounds == 7
    assert make_rules(toy) == toy.Rules()


def test_make_rules_errors_name_the_field(toy):
    with pytest.raises(ValueError, match=r"Rules.players expects int, got 'abc'"):
        make_rules(toy, {"players": "abc"})
    with pytest.raises(ValueError, match=r"unknown Rules field 'colour'; fields: players, base"):
        make_rules(toy, {"colour": "red"})
    with pytest.raises(ValueError, match=r"Rules.players=9 is not allowed"):
        make_rules(toy, {"players": "9"})


@pytest.mark.parametrize("hint, text, expected", [
    (bool, "yes", True), (bool, "0", False), (int, " 4 ", 4), (float, "1e-3", 0.001), (str, "x", "x"),
    (int | None, "none", None), (int | None, "5", 5), (tuple[int, ...], "(1, 2)", (1, 2)),
])
def test_parse_value(hint, text, expected):
    assert parse_value(hint, text, "f") == expected


def test_parse_value_rejects_wrong_types():
    with pytest.raises(ValueError, match="f expects bool"):
        parse_value(bool, "maybe", "f")
    with pytest.raises(ValueError, match="f expects int"):
        parse_value(int, "2.5", "f")


def test_resolve_policies(toy):
    assert resolve_policies(toy, "strong", 3) == ["strong"] * 3
    assert resolve_policies(toy, "strong, random", 2) == ["strong", "random"]
    assert resolve_policies(toy, None, 2) == ["random", "random"]
    custom = toy.StrongPolicy(lucky=0.3)
    assert resolve_policies(toy, [custom, "random"], 2) == [custom, "random"]
    with pytest.raises(ValueError, match=r"unknown policy 'bogus' for toygame; known: random, strong"):
        resolve_policies(toy, "random,bogus", 2)
    with pytest.raises(ValueError, match="3 given for 2 players"):
        resolve_policies(toy, ["random"] * 3, 2)


def test_with_parameter_converts_and_handles_nested_dataclasses(toy):
    assert with_parameter(toy.StrongPolicy(), "lucky", "0.25") == toy.StrongPolicy(lucky=0.25)

    @dataclasses.dataclass(frozen=True)
    class Outer:
        inner: toy.StrongPolicy = toy.StrongPolicy()

    assert with_parameter(Outer(), "inner.lucky", 0.5).inner.lucky == 0.5
    with pytest.raises(ValueError, match="has no parameter 'speed'"):
        with_parameter(toy.StrongPolicy(), "speed", 1)
