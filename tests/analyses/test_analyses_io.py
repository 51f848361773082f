"""Results files keep their metadata; foreign files are refused with a clear message."""
import json

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import analyses
from analyses.io import read_results, sidecar_path, write_results


@pytest.fixture(scope="module")
def results():
    return analyses.simulate("toygame", 90, rules={"max_rounds": 3}, policies="strong,random,random,random",
                             seed=8, progress=False)


@pytest.fixture(scope="module")
def team_results():
    return analyses.simulate("toygame", 40, rules={"teams": True}, seed=8, progress=False)


@pytest.mark.parametrize("name", ["results", "team_results"])
@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_round_trip_keeps_rows_dtypes_and_attrs(tmp_path, request, name, suffix):
    df = request.getfixturevalue(name)
    path = write_results(df, tmp_path / f"run{suffix}")
    back = read_results(path)
    assert_frame_equal(back, df)
    assert back.attrs == df.attrs
    assert sorted(p.name for p in tmp_path.iterdir()) == (["run.csv", "run.meta.json"] if suffix == ".csv"
                                                           else ["run.parquet"])


def test_csv_on_request_and_sidecar_content(tmp_path, results):
    path = write_results(results, tmp_path / "run.data", csv=True)
    meta = json.loads(sidecar_path(path).read_text())
    assert meta["attrs"]["game"] == "toygame" and meta["dtypes"]["winner"] == "Int8"


def test_foreign_parquet_is_refused(tmp_path):
    path = tmp_path / "other.parquet"
    pd.DataFrame({"a": [1, 2]}).to_parquet(path)
    with pytest.raises(ValueError, match="is not a balancelab results file"):
        read_results(path)


def test_unreadable_files_are_refused(tmp_path):
    junk = tmp_path / "junk.parquet"
    junk.write_text("hello")
    with pytest.raises(ValueError, match="not a Parquet file"):
        read_results(junk)
    with pytest.raises(ValueError, match="no such file"):
        read_results(tmp_path / "missing.parquet")
    lonely = tmp_path / "lonely.csv"
    lonely.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="missing or bad lonely.meta.json"):
        read_results(lonely)
