"""Win rates by faction (Nerath realms), the winrates --by option and DEFAULT_POLICY."""
import analyses
from balancelab.cli import main


def test_factions_from_recorded_seat_columns_for_any_player_count():
    df = analyses.simulate("nerathsim", 6, rules={"players": 2, "max_rounds": 6}, seed=2, progress=False)
    assert list(df.attrs["policies"]) == ["balanced", "balanced"]  # the game's DEFAULT_POLICY
    table = analyses.win_rates(df).by_faction
    assert sorted(table["faction"]) == sorted({df["seat0_faction"].iloc[0], df["seat1_faction"].iloc[0]})
    assert (table["games"] == 6).all()


def test_winrates_by_prints_only_the_chosen_tables(capsys):
    assert main(["winrates", "nerathsim", "--games", "4", "--rule", "max_rounds=4", "--by", "faction",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Win rate by faction" in out and "karkoth" in out and "Win rate by seat" not in out
    assert main(["winrates", "nerathsim", "--games", "4", "--by", "bogus", "--no-progress"]) == 2
    assert "unknown table(s) bogus" in capsys.readouterr().err


def test_fpa_reports_per_game_events_such_as_the_horror_winning(capsys):
    df = analyses.simulate("dreamsim", 60, policies="heuristic", seed=5, progress=False)
    events = analyses.first_player_advantage(df).events.set_index("event")
    assert events.loc["horror_won", "games_with"] == int(df["horror_won"].sum())
    assert events.loc["horror_won", "n"] == 60
    assert events.loc["horror_won", "ci_low"] <= events.loc["horror_won", "rate"] <= events.loc["horror_won", "ci_high"]
    assert main(["fpa", "dreamsim", "--games", "12", "--no-progress"]) == 0
    assert "horror won" in capsys.readouterr().out
