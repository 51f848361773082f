"""Results files are checked against the game they name when read (analyses/validate.py): real runs of
every game read back; a file of another game, a doubled game or an out-of-range count is refused naming
the file and the field."""
import json

import pyarrow.parquet as pq
import pytest

from analyses.io import META_KEY, read_results, write_results
from analyses.runner import simulate
from analyses.study import load_study_runs


@pytest.mark.parametrize("game, policies, engine", [("nightsim", "greedy,random,random,random", "python"),
                                                    ("dreamsim", None, "python"),
                                                    ("nerathsim", None, "python")])
def test_real_runs_read_back(tmp_path, game, policies, engine):
    df = simulate(game, 4, policies=policies, seed=2, progress=False, engine=engine)
    for suffix in (".parquet", ".csv"):
        back = read_results(write_results(df, tmp_path / f"run{suffix}"))
        assert len(back) == 4 and back.attrs["game"] == game


def _relabel(src, dst, **changes):
    table = pq.read_table(src)
    attrs = {**json.loads(table.schema.metadata[META_KEY]), **changes}
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, META_KEY: json.dumps(attrs)}), dst)


@pytest.mark.parametrize("other", ["nerathsim", "dreamsim"])
def test_a_file_of_another_game_is_refused(tmp_path, other):
    write_results(simulate("nightsim", 4, seed=1, progress=False), tmp_path / "n.parquet")
    _relabel(tmp_path / "n.parquet", tmp_path / "x.parquet", game=other)
    with pytest.raises(ValueError, match=r"x\.parquet.*'rules' are not rules of " + other):
        read_results(tmp_path / "x.parquet")


def test_a_study_file_in_another_games_folder_is_refused(tmp_path):
    (tmp_path / "dreamsim").mkdir()
    write_results(simulate("nightsim", 4, seed=1, progress=False), tmp_path / "dreamsim" / "main.parquet")
    with pytest.raises(ValueError, match="metadata field 'game' is 'nightsim'.*folder of dreamsim"):
        load_study_runs(tmp_path)
