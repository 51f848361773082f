"""Bad input gets a one-line ValueError (CLI: one line, exit 2).

6. A results file is validated on read: at least one row, a known game, the required
   columns, consistent seats, winners that are seats.
8. `until` and `policies` of the wrong shape are ValueErrors; a callable `until` needs a
   game budget; a budget under seat rotation finishes the deal; nightsim refuses hand_size=0.
"""
import pytest

import analyses
import nightsim
from analyses import frames
from analyses.io import read_results, validate_results, write_results
from balancelab.cli import main

TOY = dict(rules={"players": 3}, policies="strong,random,random", seed=4, progress=False)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A valid toy results table and a folder to write broken copies to."""
    df = analyses.simulate("toygame", 12, **TOY)
    return df, tmp_path_factory.mktemp("bad")


def written(results, name, change):
    df, folder = results
    broken = change(df.copy())
    broken.attrs = dict(broken.attrs or df.attrs)
    path = folder / f"{name}.parquet"
    write_results(broken, path)
    return path


def cli_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("balancelab: error: "), err
    return err


# --- item 6 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["fpa", "winrates", "length"])
def test_a_results_file_without_winner_is_a_one_line_error(results, capsys, command):
    path = written(results, "no_winner", lambda df: df.drop(columns=["winner"]))
    assert "lacks the column(s) winner" in cli_error(capsys, [command, "--in", str(path)])


@pytest.mark.parametrize("command", ["fpa", "winrates", "length"])
def test_a_zero_row_results_file_is_a_one_line_error(results, capsys, command):
    path = written(results, "empty", lambda df: df.iloc[:0])
    assert "holds no games (zero rows)" in cli_error(capsys, [command, "--in", str(path)])


def test_a_results_file_of_an_unknown_game_is_refused(results, capsys):
    def chess(df):
        df.attrs = {**results[0].attrs, "game": "chess"}
        return df
    path = written(results, "chess", chess)
    assert "is a run of game 'chess', which is not known here" in cli_error(capsys, ["fpa", "--in", str(path)])
    def nameless(df):
        df.attrs = {k: v for k, v in results[0].attrs.items() if k != "game"}
        return df
    with pytest.raises(ValueError, match="names no game"):
        read_results(written(results, "nameless", nameless))


def test_a_winner_seat_outside_the_seats_names_the_seat(results, capsys):
    path = written(results, "seat7", lambda df: df.assign(winner=df["winner"].astype("Int8").where(
        df["winner"].isna(), 7).astype("Int8")))
    err = cli_error(capsys, ["fpa", "--in", str(path)])
    assert "names seat 7 as its winner, outside its seats 0..2" in err
    team = written(results, "team", lambda df: df.assign(winner=["0+5"] + [str(w) for w in df["winner"].iloc[1:]]))
    assert "names seat 5 as its winner" in cli_error(capsys, ["winrates", "--in", str(team)])


def test_seat_wins_of_an_in_memory_table_names_a_winner_outside_the_seats(results):
    df = results[0].copy()
    df["winner"] = df["winner"].where(df["winner"].isna(), 9).astype("Int8")
    with pytest.raises(ValueError, match="winner seat 9 is outside the seats 0..2"):
        frames.seat_wins(df)


def test_seat_columns_must_run_from_seat0_and_match_the_metadata(results):
    with pytest.raises(ValueError, match="no seat1_policy"):
        read_results(written(results, "gap", lambda df: df.drop(columns=["seat1_policy"])))
    def four_policies(df):
        df.attrs = {**results[0].attrs, "policies": ["strong", "random", "random", "random"]}
        return df
    with pytest.raises(ValueError, match="lists 4 policies for 3 seats"):
        read_results(written(results, "meta", four_policies))


def test_a_valid_file_reads_back_unchanged(results):
    df, folder = results
    path = folder / "ok.parquet"
    write_results(df, path)
    back = read_results(path)
    assert back.equals(df) and back.attrs == df.attrs
    assert validate_results(df) is df


# --- item 8 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("until, message", [
    ({"foo": 1}, r"unknown key\(s\) 'foo'"),
    ({"ci_width": "narrow"}, r"ci_width must be in \(0, 1\), got 'narrow'"),
    ({"max_games": 10, "confidence": 95}, r"confidence must be in \(0, 1\), got 95"),
    (42, "until must be a dict"),
])
def test_a_bad_stopping_rule_is_a_value_error(until, message):
    with pytest.raises(ValueError, match=message):
        analyses.simulate("toygame", 3, until=until, **TOY)


def test_a_callable_stopping_rule_without_a_game_budget_is_refused_before_any_game():
    calls = []

    def never(df):  # never satisfied: without a cap the run would not stop
        calls.append(len(df))
        if len(calls) > 20:
            raise AssertionError("a stopping rule without a budget was run")
        return False
    with pytest.raises(ValueError, match="needs a game budget"):
        analyses.simulate("toygame", 3, until=never, **TOY)
    assert calls == []


def test_a_callable_stopping_rule_with_a_budget_stops_at_it():
    def never(df):
        return False
    never.max_games = 9
    df = analyses.simulate("toygame", 3, until=never, **TOY)
    assert len(df) == 9


@pytest.mark.parametrize("policies", [123, 4.5, b"strong", {"strong": 1}])
def test_policies_of_the_wrong_type_are_a_value_error(policies):
    with pytest.raises(ValueError, match="policies must be"):
        analyses.simulate("toygame", 3, rules={"players": 3}, policies=policies, progress=False)


def test_a_game_budget_under_rotation_finishes_the_last_deal():
    # three distinct rotations per deal: a budget of 10 plays 4 whole deals (12 games)
    df = analyses.simulate("toygame", 3, until={"max_games": 10}, **TOY)
    assert len(df) == 12 and df.groupby("deal").size().eq(3).all()
    assert df.equals(analyses.simulate("toygame", 12, **TOY))


def test_nightsim_refuses_a_hand_of_no_cards():
    with pytest.raises(ValueError, match=r"Rules.hand_size=0 is not allowed; allowed: >= 1"):
        nightsim.Rules(hand_size=0)
    assert nightsim.Rules(hand_size=1).hand_size == 1
