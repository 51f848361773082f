"""What the command line prints reads well: a newcomer's run of the README's commands gives compact
tables within 100 columns, seats numbered from 1, the line-up named (random play said so), the
full frames on request (--format), and a "did you mean" for a typo."""
import io
import json
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest

import nightsim
from analyses.games import resolve_policies
from analyses.suggest import did_you_mean
from balancelab import commands as cli_commands
from balancelab.cli import build_parser, command_list_parser, main
from balancelab.text import compact, text_table

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("runs") / "night.parquet"
    assert main(["simulate", "nightsim", "--games", "24", "--policies", "greedy,random,random,random",
                 "--no-progress", "--out", str(path)]) == 0
    return path


README_COMMANDS = [
    ["fpa", "nightsim", "--games", "24", "--no-progress"],
    ["winrates", "nightsim", "--games", "24", "--policies", "greedy,purist,aggressor,random", "--no-progress"],
    ["length", "nightsim", "--games", "24", "--no-progress"],
    ["sweep", "nightsim", "--field", "hand_size", "--values", "3,5,7", "--games", "12", "--no-progress"],
    ["policies", "nightsim"], ["rules", "nerath"], ["games"],
]


@pytest.mark.parametrize("argv", README_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_newcomers_readme_commands_print_within_100_columns(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    wide = [line for line in out.splitlines() if len(line) > 100]
    assert wide == []
    assert "p_holm" not in out and "games_to_detect" not in out and "ci_low" not in out


def test_stored_results_are_read_with_seats_from_1_and_the_line_up_named(capsys, stored):
    code, out, _ = run(capsys, "winrates", "--in", str(stored), "--by", "seat,policy")
    assert code == 0
    assert "line-up: seats 1 greedy, 2 random, 3 random, 4 random" in out
    seats = out.split("Win rate by seat")[1].split("\n\n")[0].splitlines()[2:]
    assert [line.split()[0] for line in seats] == ["1", "2", "3", "4"]
    assert max(len(line) for line in out.splitlines()) <= 100


def test_random_play_is_named_and_the_sweep_header_names_the_swept_field(capsys):
    _, out, _ = run(capsys, "fpa", "nightsim", "--games", "8", "--no-progress", "--policies", "random")
    assert "random play in every seat" in out
    _, out, _ = run(capsys, "fpa", "nightsim", "--games", "8", "--no-progress")  # the default: the main policy
    assert "line-up: greedy in every seat" in out and "random play" not in out
    _, out, _ = run(capsys, "sweep", "nightsim", "--field", "hand_size", "--values", "3,5", "--games", "8",
                    "--no-progress")
    rules = next(line for line in out.splitlines() if line.startswith("rules:"))
    assert "hand_size swept over 3, 5" in rules and "hand_size=3" not in out


def test_format_gives_every_column_for_machines(capsys, stored, tmp_path):
    _, out, _ = run(capsys, "fpa", "--in", str(stored), "--format", "csv")
    frame = pd.read_csv(io.StringIO(out))
    assert {"table", "seat", "p_holm", "ci_low"} <= set(frame.columns)
    assert sorted(frame.loc[frame["table"] == "seats", "seat"]) == [0, 1, 2, 3]    # the API's seats, from 0
    _, out, _ = run(capsys, "fpa", "--in", str(stored), "--format", "json")
    assert set(json.loads(out)) >= {"summary", "seats"}
    code, _, err = run(capsys, "fpa", "--in", str(stored), "--format", "parquet")
    assert code == 2 and "--out" in err
    target = tmp_path / "fpa.parquet"
    assert run(capsys, "fpa", "--in", str(stored), "--format", "parquet", "--out", str(target))[0] == 0
    assert len(pd.read_parquet(target)) == len(frame)


def test_a_typo_gets_a_did_you_mean(capsys):
    _, _, err = run(capsys, "fpa", "nightsim", "--rule", "hand_sise=3", "--games", "4")
    assert "did you mean 'hand_size'?" in err
    _, _, err = run(capsys, "fpa", "nightsim", "--policies", "greedi", "--games", "4")
    assert "did you mean 'greedy'?" in err and "ismcts:default" in err
    _, _, err = run(capsys, "fap", "nightsim")
    assert "did you mean 'fpa'?" in err
    assert did_you_mean("zzzz", ["fpa", "sweep"]) == ""


def test_plain_ismcts_is_the_default_budget_and_policies_lists_the_search_players(capsys):
    assert resolve_policies(nightsim, "ismcts", 2)[0].name == "ismcts:default"
    _, out, _ = run(capsys, "policies", "nightsim")
    assert "ismcts (= ismcts:default)" in out and "ismcts:N" in out and "default budget" in out


def test_compact_tables_shed_columns_to_fit_and_align_numbers():
    seats = pd.DataFrame({"players": 4, "lineup": "a", "seat": [0, 1], "games": [1000, 1000], "wins": [300, 200],
                          "win_rate": [0.3, 0.2], "ci_low": [0.27, 0.18], "ci_high": [0.33, 0.23],
                          "expected": 0.25, "effect_pp": [5.0, -5.0], "p_value": [0.0001, 0.002],
                          "method": "x" * 80, "p_holm": [0.0002, 0.002]})
    shown, left_out = compact(seats, "seats")
    assert list(shown["seat"]) == ["1", "2"] and "method" not in shown and "line-up" not in shown
    assert list(shown["win rate [95% CI]"]) == ["30.0% [27.0, 33.0]", "20.0% [18.0, 23.0]"]
    assert list(shown["p"]) == ["< 0.001", "0.002"] and left_out == []
    lines = text_table(shown).splitlines()
    assert len({len(line) for line in lines}) == 1             # numbers right-aligned to one width


def test_the_command_list_answers_help_without_the_commands_and_matches_the_full_parser(capsys):
    """`balancelab --help` is answered by the light command list (no pandas, numba or games imported:
    see benchmarks for the time); its text is the full parser's, so the two cannot drift apart."""
    light, full = command_list_parser().format_help(), build_parser().format_help()
    assert light == full
    code = subprocess.run([sys.executable, "-c", "import sys, balancelab.cli as c; c.main(['--help']); "
                           "print(sorted(m for m in ('pandas', 'numba', 'scipy', 'nightsim', 'nerathsim') "
                           "if m in sys.modules))"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert code.returncode == 0 and code.stdout.strip().endswith("[]"), code.stderr


def test_a_long_run_announces_its_duration_before_it_starts(monkeypatch):
    played = []
    monkeypatch.setattr(cli_commands, "simulate", lambda game, n, **kw: played.append((n, kw["seed"])))
    args = build_parser().parse_args(["fpa", "nightsim", "--games", "200", "--jobs", "2"])
    ticks = iter([0.0, 2.0])                        # one timed game of 2 s: slow enough to stop timing
    out = io.StringIO()
    estimate = cli_commands.announce_duration(args, 200, out=out, clock=lambda: next(ticks))
    assert estimate == pytest.approx(200.0) and played == [(1, 0)]    # 2 s x 200 games / 2 workers
    assert "about 3 minutes (200 games at about 2 s a game from 1 timed game(s), 2 worker(s))" in out.getvalue()
    ticks = iter([0.0, 0.01, 0.02, 0.03])           # three quick games: a short run starts without a word
    out = io.StringIO()
    assert cli_commands.announce_duration(args, 200, out=out, clock=lambda: next(ticks)) == pytest.approx(1.0)
    assert out.getvalue() == ""
    assert cli_commands.announce_duration(args, 10) is None          # too short to time


class FakeTime:
    """A clock the fake `simulate` moves: each call takes the seconds `cost(n_games)` says."""

    def __init__(self, cost):
        self.now, self.cost, self.calls = 0.0, cost, []

    def clock(self) -> float:
        return self.now

    def simulate(self, game, n, **kw):
        self.calls.append((n, kw["seed"], kw["n_jobs"]))
        self.now += self.cost(n, len(self.calls))


def test_a_long_kernel_run_times_batches_after_compiling(monkeypatch):
    """The first game compiles the kernel (40 s here) and is not timed as play; batches of 8, 32, 128, 512
    games follow until they took 0.5 s; 1 ms a game x 100,000 games / 2 workers = 50 s, announced."""
    fake = FakeTime(lambda n, call: 40.0 if call == 1 else n * 0.001)
    monkeypatch.setattr(cli_commands, "simulate", fake.simulate)
    monkeypatch.setattr(cli_commands, "run_engine", lambda args, n_games: "kernel")
    monkeypatch.setattr(cli_commands, "COMPILE_NOTE_AFTER", 600.0)     # no real-time note in this test
    args = build_parser().parse_args(["fpa", "nightsim", "--games", "100000", "--jobs", "2", "--engine", "kernel",
                                      "--seed", "5"])
    out = io.StringIO()
    estimate = cli_commands.announce_duration(args, 100_000, out=out, clock=fake.clock)
    assert estimate == pytest.approx(50.0)
    assert fake.calls == [(1, 5, 1), (8, 6, 1), (32, 14, 1), (128, 46, 1), (512, 174, 1)]   # fresh seeds, one worker
    text = out.getvalue()
    assert "about 50 s (100,000 games at about 1,000 games a second from 680 timed game(s)" in text
    assert "after 40 s compiling the kernel, 2 worker(s))" in text
    fake = FakeTime(lambda n, call: 0.1 if call == 1 else n * 1e-5)     # cached kernel, a short run: no word
    monkeypatch.setattr(cli_commands, "simulate", fake.simulate)
    out = io.StringIO()
    assert cli_commands.announce_duration(args, 2000, out=out, clock=fake.clock) == pytest.approx(0.01)
    assert out.getvalue() == "" and [n for n, _, _ in fake.calls] == [1, 8, 32, 128]   # at most 10% of 2,000


def test_a_kernel_still_compiling_says_so(monkeypatch):
    """When compiling takes longer than COMPILE_NOTE_AFTER, a line says so while it runs (the fake first
    game waits for that line instead of for a clock)."""
    said = threading.Event()

    class Out(io.StringIO):
        def write(self, text):
            said.set()
            return super().write(text)

    def simulate(game, n, **kw):
        if n == 1:
            assert said.wait(30), "no note while compiling"

    monkeypatch.setattr(cli_commands, "simulate", simulate)
    monkeypatch.setattr(cli_commands, "run_engine", lambda args, n_games: "kernel")
    monkeypatch.setattr(cli_commands, "COMPILE_NOTE_AFTER", 0.0)
    args = build_parser().parse_args(["fpa", "nightsim", "--games", "400", "--engine", "kernel"])
    out = Out()
    cli_commands.announce_duration(args, 400, out=out, clock=iter(range(10_000)).__next__)
    assert out.getvalue().startswith("balancelab: compiling the nightsim kernel first")


def test_the_engine_a_run_uses_is_resolved_as_the_run_resolves_it(toy):
    args = build_parser().parse_args(["fpa", "toygame", "--games", "100"])
    assert cli_commands.run_engine(args, 100) == "python"
    args = build_parser().parse_args(["fpa", "toygame", "--games", "100", "--engine", "auto"])
    assert cli_commands.run_engine(args, 100) == "python"         # the toy game has no kernel: auto plays Python
    args = build_parser().parse_args(["fpa", "toygame", "--games", "100", "--engine", "kernel"])
    with pytest.raises(ValueError, match="no batch kernel"):
        cli_commands.run_engine(args, 100)
