"""simulate(): reproducibility across workers, chunks and backends; seeds; seat orders; until."""
import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import analyses
from analyses.plan import RunSpec, distinct_rotations
from analyses.runner import MAX_CHUNK, TASKS_PER_WORKER, auto_chunk_size

LINEUP = "strong,random,random"
RULES = {"players": 3, "max_rounds": 4}  # ~6% timeouts, so timeouts are exercised


def run(n_games=240, **options):
    options = {"rules": RULES, "policies": LINEUP, "seed": 11, "progress": False, **options}
    return analyses.simulate("toygame", n_games, **options)


@pytest.fixture(scope="module")
def reference():
    return run()


@pytest.mark.parametrize("options", [
    {"n_jobs": 2},
    {"n_jobs": 2, "backend": "loky", "chunk_size": 7},
    {"n_jobs": 2, "backend": "threading", "chunk_size": 13},
    {"n_jobs": 1, "chunk_size": 2},
    {"n_jobs": -1, "chunk_size": 100},
])
def test_same_dataframe_for_any_workers_chunks_and_backend(reference, options):
    assert_frame_equal(run(**options), reference)


def test_same_dataframe_on_dask(reference):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster):
            assert_frame_equal(run(backend="dask", chunk_size=30), reference)
        # a scheduler address (what --scheduler gives for a remote cluster)
        assert_frame_equal(run(backend="dask", scheduler=cluster.scheduler_address, chunk_size=50), reference)


def test_dask_without_a_client_starts_a_loopback_cluster(reference, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    monkeypatch.delenv(analyses.runner.SCHEDULER_ENV, raising=False)
    with pytest.raises(ValueError):
        distributed.get_client()  # no client around: simulate makes (and closes) its own cluster
    assert_frame_equal(run(backend="dask", n_jobs=1, chunk_size=40), reference)


def test_dask_scheduler_from_the_environment(reference, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        monkeypatch.setenv(analyses.runner.SCHEDULER_ENV, cluster.scheduler_address)
        assert_frame_equal(run(backend="dask", chunk_size=60), reference)


def test_one_row_per_game_with_compact_dtypes(reference):
    df = reference
    assert df["game"].tolist() == list(range(240))
    assert df.columns[:7].tolist() == ["game", "deal", "game_seed", "winner", "turns", "decisions", "timed_out"]
    assert {"seat0_policy", "seat2_score", "seat1_lucky", "rounds"} <= set(df.columns)
    assert str(df["winner"].dtype) == "Int8"
    assert isinstance(df["seat0_policy"].dtype, pd.CategoricalDtype)
    assert df["seat0_lucky"].dtype == np.int16 and df["turns"].dtype == np.int32
    assert df["timed_out"].any() and df.loc[df["timed_out"], "winner"].isna().all()


def test_every_game_replays_from_its_recorded_seed(reference, toy):
    rules = toy.Rules(**RULES)
    for row in reference.sample(12, random_state=0).itertuples():
        seats = [getattr(row, f"seat{s}_policy") for s in range(3)]
        record = toy.play_game(rules, seats, seed=int(row.game_seed)).to_record()
        assert record["turns"] == row.turns and record["decisions"] == row.decisions
        assert record["winner"] == (None if pd.isna(row.winner) else row.winner)


def test_rotate_pairs_games_and_balances_seats(reference):
    df = reference
    assert df["deal"].tolist() == [i // 3 for i in range(240)]
    assert (df.groupby("deal")["game_seed"].nunique() == 1).all()
    assert df["game_seed"].nunique() == 80
    for seat in range(3):  # 'strong' sits in every seat equally often
        assert (df[f"seat{seat}_policy"] == "strong").sum() == 80
    first_deal = df[df["deal"] == 0]
    assert [row.index("strong") for row in first_deal[["seat0_policy", "seat1_policy", "seat2_policy"]]
            .astype(str).values.tolist()] == [0, 1, 2]


def test_rotation_of_identical_policies_is_not_replayed():
    df = run(policies="random", n_games=30)
    assert df.attrs["rotations"] == 1
    assert df["game_seed"].nunique() == 30
    assert distinct_rotations(("a", "b", "a", "b")) == 2


def test_fixed_and_random_seat_orders():
    fixed = run(seat_order="fixed", n_games=60)
    assert (fixed["seat0_policy"] == "strong").all() and fixed["game_seed"].nunique() == 60
    shuffled = run(seat_order="random", n_games=300)
    counts = (shuffled[["seat0_policy", "seat1_policy", "seat2_policy"]] == "strong").sum()
    assert counts.sum() == 300 and counts.min() > 70
    assert_frame_equal(run(seat_order="random", n_games=300, n_jobs=2, chunk_size=17), shuffled)


def test_game_seeds_do_not_depend_on_the_run_length():
    short, long = run(n_games=30, chunk_size=1), run(n_games=90)
    assert_frame_equal(short, long.iloc[:30])
    assert not run(n_games=30, seed=12)["game_seed"].equals(short["game_seed"])


def test_metadata_in_attrs(reference, toy):
    attrs = reference.attrs
    assert attrs["game"] == "toygame" and attrs["rules_version"] == toy.RULES_VERSION
    assert attrs["rules"] == {"players": 3, "base": 0.1, "edge": 0.5, "bias": 0.0, "max_rounds": 4, "teams": False,
                             "seat_luck": 0.0}
    assert attrs["policies"] == ["strong", "random", "random"]
    assert attrs["policy_reprs"][0] == "StrongPolicy(lucky=1.0, name='strong')"
    assert (attrs["seed"], attrs["n_games"], attrs["seat_order"]) == (11, 240, "rotate")
    assert attrs["balancelab_version"] and {"numpy", "pandas", "scipy", "joblib"} <= set(attrs["versions"])


def test_policy_objects_are_passed_to_workers(toy):
    custom = toy.StrongPolicy(lucky=0.0)
    df = run(policies=[custom, "random", "random"], n_jobs=2, n_games=60)
    assert df.attrs["policy_reprs"][0] == "StrongPolicy(lucky=0.0, name='strong')"
    assert df["seat0_lucky"].where(df["seat0_policy"] == "strong").fillna(0).sum() == 0


def test_team_winners_are_strings(toy):
    df = analyses.simulate("toygame", 40, rules={"teams": True}, progress=False)
    assert set(df["winner"].dropna()) <= {"0+2", "1+3"}


def test_until_stops_on_interval_width_and_is_a_prefix():
    df = run(n_games=100, until={"ci_width": 0.2, "max_games": 10**6})
    assert len(df) % 3 == 0 and 100 <= len(df) < 1000
    assert analyses.runner.headline_width(df) < 0.2
    assert_frame_equal(df, run(n_games=len(df)))


def test_until_respects_the_game_budget_and_callables():
    df = run(n_games=50, until=analyses.StopWhen(ci_width=0.001, max_games=130))
    # the budget is rounded up to whole deals: 130 games end inside deal 43 of 3 rotations
    assert len(df) == 132 and df["game"].tolist() == list(range(132)) and df.attrs["rotations"] == 3
    calls = []

    def enough(frame):
        calls.append(len(frame))
        return len(frame) >= 120
    enough.max_games = 10**6  # a callable rule needs a game budget

    assert len(run(n_games=60, until=enough)) == 120 and calls == [60, 120]


@pytest.mark.parametrize("kwargs, message", [
    ({"n_games": 0}, "n_games must be a positive integer"),
    ({"seat_order": "sideways"}, "seat_order must be one of"),
    ({"seed": -1}, "seed must be a non-negative integer"),
    ({"backend": "spark"}, "backend must be one of"),
    ({"n_jobs": 0}, "n_jobs must be a non-zero integer"),
    ({"chunk_size": 0}, "chunk_size must be a positive integer"),
    ({"until": {"ci_width": 2}}, "ci_width must be in"),
    ({"policies": "random,bogus,random"}, "unknown policy 'bogus'"),
    ({"rules": {"players": "x"}}, "Rules.players expects int"),
])
def test_bad_arguments_raise_value_errors(kwargs, message):
    options = {"n_games": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        run(**options)


def test_errors_inside_workers_keep_their_type_and_message(toy):
    with pytest.raises(ValueError, match="policy exploded at seat"):
        run(policies=["random", toy.ExplodingPolicy(), "random"], n_jobs=2, chunk_size=5, n_games=20)


def test_runspec_is_a_pure_function_of_seed_and_index(toy):
    spec = RunSpec("toygame", toy.Rules(players=3), ("strong", "random", "random"), 5, "random")
    assert [spec.seats(i) for i in range(20)] == [spec.seats(i) for i in range(20)]
    assert spec.game_seed(7) == RunSpec("toygame", toy.Rules(), ("random",) * 4, 5, "fixed").game_seed(7)


def test_one_worker_without_a_progress_bar_plays_the_run_as_one_chunk():
    assert auto_chunk_size(80, 1, progress=False) == 80                    # nothing to balance or report
    assert auto_chunk_size(5 * MAX_CHUNK, 1, progress=False) == MAX_CHUNK
    assert auto_chunk_size(80, 1, progress=True) == 80 // TASKS_PER_WORKER   # the bar moves 8 times
    assert auto_chunk_size(160, 2, progress=False) == 160 // (2 * TASKS_PER_WORKER)   # two workers balanced
