"""The command line tells what there is and checks what it is given before playing a game:
`games`, `policies GAME`, `rules GAME`, examples per subcommand, values validated up front,
errors in the words of the flags, output paths checked, `report --from` never overwriting."""
import dataclasses
import shlex

import pytest

import analyses
import nerathsim
import nightsim
from analyses.games import load_game, make_rules, with_parameter
from analyses.study import PLANS, run_sizes
from balancelab import checks as cli_checks
from balancelab import info as cli_info
from balancelab import parser as cli_parser
from balancelab.cli import build_parser, main


@pytest.fixture
def no_games(monkeypatch):
    """Any attempt to play a game fails the test: the checks must refuse first."""
    def refuse(*a, **k):
        raise AssertionError("a game was played before the command line was checked")
    for target in ("balancelab.commands.simulate", "balancelab.commands.sweep", "balancelab.commands.simulate_to_file",
                   "balancelab.report.simulate_study"):
        monkeypatch.setattr(target, refuse)


# --- games, policies, rules ---------------------------------------------------------------------

def test_games_lists_every_game_with_players_default_policy_and_report_sizes(capsys, run):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert "nightsim (nightmarium) — Nightmarium" in out
    assert "players 2..5 (default 4); rules version " + nightsim.RULES_VERSION in out
    assert "command-line runs: greedy in every seat unless --policies says otherwise" in out   # the report's main policy
    assert "command-line runs: balanced in every seat" in out          # nerathsim.DEFAULT_POLICY
    nerath = run_sizes(PLANS["nerathsim"], 3000, nerathsim)
    flat = " ".join(out.split())                     # lines are wrapped at 100 columns
    assert (f"report: balanced in every seat of the main run ({nerath['main']:,} games at --games 3,000: "
            f"0.1 × --games, the game is slower)") in flat
    assert f"{sum(nerath.values()):,} games in all" in flat
    assert max(len(line) for line in out.splitlines()) <= 100


@pytest.mark.parametrize("game", list(PLANS))
def test_the_default_line_up_is_the_report_main_policy(game):
    assert cli_info.default_policy(load_game(game)) == PLANS[game].main
    assert f"{PLANS[game].main} for {game}" in cli_parser.default_policies_help()


def test_a_run_without_policies_plays_the_main_policy_whose_games_end(tmp_path, capsys):
    """Four random Midnighters players hit the turn cap in about half their games: not the default."""
    out = tmp_path / "d.parquet"
    assert main(["simulate", "dreamsim", "--games", "6", "--no-progress", "--out", str(out)]) == 0
    assert "line-up: heuristic in every seat" in capsys.readouterr().out
    df = analyses.read_results(out)
    assert df.attrs["policies"] == ["heuristic"] * 4 and not df["timed_out"].any()
    assert main(["simulate", "--help"]) == 0
    assert "heuristic for" in " ".join(capsys.readouterr().out.split())  # --help says what the default is


def test_policies_lists_each_policy_with_parameters_that_policy_param_accepts(capsys, run):
    code, out, _ = run(capsys, "policies", "nightsim")
    assert code == 0
    for name in nightsim.POLICIES:
        assert f"\n{name}: " in out
    assert "command-line runs put greedy in every seat" in out
    assert "the report plays greedy in every seat of its main run" in out
    params = cli_info.policy_parameters(nightsim.POLICIES["greedy"])
    assert ("weights.pure", nightsim.POLICIES["greedy"].weights.pure) in params
    for name, value in params:             # every listed name is one --policy-param --field accepts
        changed = with_parameter(nightsim.POLICIES["greedy"], name, str(value))
        assert changed == nightsim.POLICIES["greedy"]
    assert cli_info.policy_parameters(nightsim.POLICIES["random"]) == []


def test_rules_lists_every_field_with_the_validators_allowed_values(toy):
    rows = {r["field"]: r for r in cli_info.rules_rows(nightsim)}
    assert list(rows) == [f.name for f in dataclasses.fields(nightsim.Rules)]
    assert rows["players"]["allowed"] == "2..5" and rows["players"]["default"] == "4"
    assert rows["penalty_timing"]["allowed"] == "before_abilities, after_abilities"
    assert rows["seals"]["allowed"] == "true or false" and rows["seals"]["default"] == "false"
    assert rows["creature_limit"]["allowed"] == "a whole number >= 5, or none"
    assert rows["cards"]["allowed"] == "set from Python only"
    assert rows["hand_size"]["note"] == '"deal five cards to each player"'
    toy_rows = {r["field"]: r for r in cli_info.rules_rows(toy)}
    assert toy_rows["players"]["allowed"] == "2..5" and toy_rows["bias"]["allowed"] == "a number"


@pytest.mark.parametrize("game", [nightsim, "dreamsim", nerathsim])
def test_every_listed_default_typed_after_rule_gives_the_default(game):
    """The listing's defaults are command-line text: --rule FIELD=<default> is the published game."""

    module = load_game(game)
    for r in cli_info.rules_rows(module):
        if r["python_only"]:
            continue
        rules = make_rules(module, {r["field"]: r["default"]})
        assert getattr(rules, r["field"]) == getattr(module.Rules(), r["field"]), r


def test_rules_command_prints_allowed_values(capsys, run):
    code, out, _ = run(capsys, "rules", "nerath")
    assert code == 0 and "--rule FIELD=VALUE" in out
    assert "allowed: alliance, free_for_all" in out and "allowed: short, medium, long" in out
    code, _, err = run(capsys, "rules", "chess")
    assert code == 2 and "unknown game 'chess'" in err


# --- examples -----------------------------------------------------------------------------------

def _examples(command):
    text = cli_parser.COMMAND_EXAMPLES[command].split("\n\n")[0].replace("\\\n", " ")
    return [shlex.split(line.split("   #")[0]) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("command", sorted(cli_parser.COMMAND_EXAMPLES))
def test_each_subcommand_shows_its_own_examples_and_they_parse(capsys, command, run):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "examples:" in out
    examples = _examples(command)
    assert examples
    parser = build_parser()
    for words in examples:
        assert words[:2] == ["balancelab", command]
        assert cli_parser.COMMAND_EXAMPLES[command].splitlines()[0].strip() in out
        parser.parse_args(words[1:])       # raises SystemExit on a bad example


def test_sweep_help_no_longer_shows_the_simulate_examples(capsys, run):
    _, out, _ = run(capsys, "sweep", "--help")
    assert "balancelab sweep nightsim --field players" in out and "--resume   # after Ctrl-C" not in out


# --- checked before any game is played, in the words of the flags ----------------------------

@pytest.mark.parametrize("argv, message", [
    (["sweep", "toygame", "--field", "bias", "--values", "0,x"], "--values x: Rules.bias expects float, got 'x'"),
    (["sweep", "toygame", "--field", "colour", "--values", "0,1"], "--field: unknown Rules field 'colour'"),
    (["sweep", "toygame", "--field", "bias", "--values", "0,0.0"], "are the same setting of bias"),
    (["sweep", "toygame", "--field", "players", "--values", "2,3", "--policies", "strong,random,random"],
     "--policies: 3 given for 2 players"),
    (["sweep", "toygame", "--policy-param", "strong", "--field", "lucky", "--values", "0,x", "--policies", "strong"],
     "--values x: StrongPolicy.lucky expects float, got 'x'"),
    (["sweep", "toygame", "--policy-param", "strong", "--field", "luck", "--values", "0,1", "--policies", "strong"],
     "--field luck: the strong policy has no parameter 'luck'"),
    (["sweep", "toygame", "--policy-param", "strong", "--field", "lucky", "--values", "0,1"],
     "--policy-param strong is not among the --policies"),
    (["fpa", "toygame", "--rule", "players=abc"], "--rule players=abc: Rules.players expects int, got 'abc'"),
    (["fpa", "toygame", "--players", "9"], "--players 9: Rules.players=9 is not allowed; allowed: 2..5"),
    (["fpa", "toygame", "--players", "3", "--rule", "teams=true"],
     "--rule teams=true --players 3: Rules.teams needs an even number of players"),
    (["fpa", "toygame", "--policies", "strong,random"], "--policies: 2 given for 4 players"),
    (["report", "--only", "nightsim,chess"], "--only: no standard study for chess"),
    (["report", "--jobs", "0"], "--jobs must be a positive number"),
])
def test_bad_values_are_refused_before_any_game_naming_the_flag(capsys, no_games, argv, message, run):
    code, _, err = run(capsys, *argv, "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert message in err, err


def test_library_messages_name_flags_not_python_arguments(capsys, run):
    code, _, err = run(capsys, "battle", "2 warship", "vs", "1 warship")
    assert code == 2 and "add --sea for a sea battle" in err and "at_sea" not in err
    code, _, err = run(capsys, "battle", "2 footsoldier", "vs", "1 footsoldier", "--method", "guess")
    assert code == 2 and "--method must be one of exact, monte_carlo" in err
    assert cli_checks.flag_words("policy_param 'x' is not among the policies a, b") == \
        "--policy-param x is not among the --policies a, b"


def test_a_refused_output_path_names_the_users_path(capsys, no_games, tmp_path, run):
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    out = blocker / "runs" / "x.parquet"
    code, _, err = run(capsys, "simulate", "toygame", "--games", "5", "--out", str(out))
    assert code == 2 and f"--out {out}: {blocker} is a file, not a folder" in err and ".parts" not in err
    code, _, err = run(capsys, "simulate", "toygame", "--games", "5", "--out", str(tmp_path))
    assert code == 2 and f"--out {tmp_path}: is a folder" in err
    code, _, err = run(capsys, "report", "--out", str(blocker / "r.html"))
    assert code == 2 and f"--out {blocker / 'r.html'}: {blocker} is a file" in err
    code, _, err = run(capsys, "report", "--save", str(blocker))
    assert code == 2 and f"--save {blocker}: is a file, not a folder" in err


# --- report --from / --save never overwrite without --force ---------------------------------------

@pytest.fixture(scope="module")
def stored_study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    assert main(["report", "--games", "8", "--only", "nightsim", "--jobs", "1", "--no-progress",
                 "--save", str(folder / "runs"), "--out", str(folder / "first.html")]) == 0
    return folder


def test_report_from_refuses_to_overwrite_without_force(capsys, stored_study, run):
    first = stored_study / "first.html"
    before = first.read_text(encoding="utf-8")
    code, _, err = run(capsys, "report", "--from", str(stored_study / "runs"), "--out", str(first))
    assert code == 2 and f"--out {first} exists" in err and "--force" in err
    assert first.read_text(encoding="utf-8") == before
    code, out, _ = run(capsys, "report", "--from", str(stored_study / "runs"), "--out", str(first), "--force")
    assert code == 0 and f"wrote {first}" in out
    code, _, _ = run(capsys, "report", "--from", str(stored_study / "runs"), "--out", str(stored_study / "new.html"))
    assert code == 0 and (stored_study / "new.html").exists()


def test_report_save_refuses_a_folder_with_results_without_force(capsys, stored_study, no_games, run):
    code, _, err = run(capsys, "report", "--games", "8", "--only", "nightsim", "--save", str(stored_study / "runs"),
                       "--out", str(stored_study / "other.html"))
    assert code == 2 and "already holds study results" in err and "--force" in err
    code, _, err = run(capsys, "report", "--from", str(stored_study / "runs"), "--save", str(stored_study / "x"))
    assert code == 2 and "--from and --save do not go together" in err
