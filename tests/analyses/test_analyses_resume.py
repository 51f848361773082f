"""simulate --out writes chunk by chunk; an interrupted run resumed equals an uninterrupted one."""
import pytest
from pandas.testing import assert_frame_equal

import analyses
from analyses import checkpoint
from analyses.checkpoint import parts_dir, simulate_to_file
from balancelab.cli import main

GAMES, CHUNK = 120, 10
ARGS = ["simulate", "toygame", "--games", str(GAMES), "--players", "3", "--policies", "strong,random,random",
        "--seed", "21", "--chunk-size", str(CHUNK), "--no-progress"]


def interrupt_after(monkeypatch, parts: int):
    """Make the run raise KeyboardInterrupt (as Ctrl-C would) once `parts` parts are on disk."""
    original, written = checkpoint.write_part, []

    def write_then_maybe_stop(folder, frame):
        path = original(folder, frame)
        written.append(path)
        if len(written) == parts:
            raise KeyboardInterrupt
        return path

    monkeypatch.setattr(checkpoint, "write_part", write_then_maybe_stop)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("full") / "run.parquet"
    assert main([*ARGS, "--out", str(out)]) == 0
    return out


def test_file_equals_in_memory_simulation(uninterrupted):
    expected = analyses.simulate("toygame", GAMES, rules={"players": 3}, policies="strong,random,random", seed=21,
                                 progress=False)
    df = analyses.read_results(uninterrupted)
    assert_frame_equal(df, expected)
    assert df.attrs == expected.attrs
    assert not parts_dir(uninterrupted).exists()


def test_interrupted_run_resumes_to_the_same_file(tmp_path, monkeypatch, capsys, played, uninterrupted):
    out = tmp_path / "run.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, parts=4)
        assert main([*ARGS, "--out", str(out)]) == 130
    assert "--resume" in capsys.readouterr().err
    assert not out.exists() and len(list(parts_dir(out).glob("part-*.parquet"))) == 4
    (parts_dir(out) / "part-000000000040-000000000050.parquet.tmp").write_bytes(b"half-written")
    played.clear()

    assert main([*ARGS, "--out", str(out), "--resume"]) == 0
    assert sorted(played) == [(a, a + CHUNK) for a in range(40, GAMES, CHUNK)]  # only the missing games
    assert out.read_bytes() == uninterrupted.read_bytes()
    assert not parts_dir(out).exists()


def test_a_lost_part_in_the_middle_is_replayed_alone(tmp_path, monkeypatch, played, uninterrupted):
    out = tmp_path / "run.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, parts=GAMES // CHUNK - 1)
        assert main([*ARGS, "--out", str(out)]) == 130
    (parts_dir(out) / "part-000000000030-000000000040.parquet").unlink()
    played.clear()
    assert main([*ARGS, "--out", str(out), "--resume"]) == 0
    assert sorted(played) == [(30, 40), (110, 120)]
    assert out.read_bytes() == uninterrupted.read_bytes()


def test_leftovers_need_resume_and_matching_settings(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, parts=2)
        assert main([*ARGS, "--out", str(out)]) == 130
    capsys.readouterr()
    assert main([*ARGS, "--out", str(out)]) == 2
    assert "unfinished run: pass --resume" in capsys.readouterr().err
    assert main([*ARGS, "--out", str(out), "--resume", "--seed", "22"]) == 2
    err = capsys.readouterr().err
    assert "cannot resume" in err and "its seed is 21, this run's is 22" in err


def test_resume_of_a_finished_run_plays_nothing(uninterrupted, played):
    df = simulate_to_file("toygame", GAMES, uninterrupted, rules={"players": 3}, policies="strong,random,random",
                          seed=21, resume=True, progress=False)
    assert played == [] and len(df) == GAMES
    with pytest.raises(ValueError, match="cannot resume"):
        simulate_to_file("toygame", GAMES + 1, uninterrupted, rules={"players": 3}, policies="strong,random,random",
                         seed=21, resume=True, progress=False)


def test_missing_ranges():
    assert checkpoint.missing_ranges([], 5) == [(0, 5)]
    assert checkpoint.missing_ranges([(0, 2), (4, 6)], 9) == [(2, 4), (6, 9)]
    assert checkpoint.missing_ranges([(0, 9)], 9) == []
