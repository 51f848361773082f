"""Safe writes (analyses/safe_io.py): exclusive temporary files, no link followed, no overwrite without
--force, every output checked before any work, one writer per run."""
import multiprocessing
import os

import pytest

from analyses import safe_io
from analyses.tune_study import check_storage
from balancelab.cli import main


def _error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_a_link_at_the_old_temporary_name_is_never_followed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "victim").write_text("keep")
    os.symlink("victim", "out.parquet.tmp")
    assert main(["simulate", "nightsim", "--games", "8", "--out", "out.parquet", "--no-progress"]) == 0
    assert (tmp_path / "victim").read_text() == "keep"
    assert not os.path.lexists(tmp_path / "out.parquet.lock")
    assert oct((tmp_path / "out.parquet").stat().st_mode & 0o777) == oct(0o666 & ~safe_io._UMASK)


def test_atomic_write_replaces_a_link_itself_and_leaves_no_temporary(tmp_path):
    (tmp_path / "victim").write_text("keep")
    os.symlink("victim", tmp_path / "out.txt")
    safe_io.write_text(tmp_path / "out.txt", "new")
    assert (tmp_path / "victim").read_text() == "keep"
    assert not (tmp_path / "out.txt").is_symlink() and (tmp_path / "out.txt").read_text() == "new"
    with pytest.raises(RuntimeError):
        safe_io.atomic_write(tmp_path / "b.txt", lambda tmp: (tmp.write_text("half"), (_ for _ in ()).throw(RuntimeError())))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "victim"]


@pytest.mark.parametrize("argv, setup, words", [
    (["simulate", "nightsim", "--games", "8", "--out", "link.parquet"], {"link.parquet": "->victim"}, ["is a link"]),
    (["simulate", "nightsim", "--games", "8", "--csv", "--out", "x.csv"], {"x.meta.json": "{}"}, ["sidecar"]),
    (["tune-policy", "nightsim", "--trials", "1", "--out", "t.json"], {"t.json": "x"}, ["--out", "--force"]),
    (["tune-policy", "nightsim", "--trials", "1", "--out", "dangling.json"], {"dangling.json": "->nowhere"},
     ["is a link"]),
    (["tune-policy", "nightsim", "--trials", "1", "--storage", "mysql://host/db"], {}, ["--storage", "sqlite"]),
    (["tune-policy", "nightsim", "--trials", "1", "--storage", "sqlite:///victim"], {}, ["not an SQLite"]),
    (["tune-policy", "nightsim", "--trials", "1", "--storage", "victim"], {}, ["not an optuna journal"]),
    (["report", "--games", "10", "--save", "runs"], {"balance-report.html": "<html>"}, ["--out", "--force"]),
    (["report", "--games", "10", "--only", "nightsim"], {"balance-report.html": "<html>"}, ["--out", "--force"]),
    (["ladder", "nightsim", "--out", "l.json"], {"l.json": "x"}, ["--out", "--force"]),
])
def test_existing_outputs_are_refused_before_any_work(tmp_path, monkeypatch, capsys, argv, setup, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "victim").write_text("keep")
    for name, content in setup.items():
        if content.startswith("->"):
            os.symlink(content[2:], name)
        else:
            (tmp_path / name).write_text(content)
    before = {p.name: (p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    assert main(argv) == 2
    line = _error(capsys)
    for word in words:
        assert word in line, line
    after = {p.name: (p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    assert after == before


def test_check_storage_accepts_new_files_and_real_stores(tmp_path):
    check_storage(f"sqlite:///{tmp_path / 'new.db'}")
    check_storage(str(tmp_path / "new.journal"))
    (tmp_path / "db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    check_storage(f"sqlite:///{tmp_path / 'db'}")
    (tmp_path / "j.journal").write_text('{"op_code": 0}\n')
    check_storage(str(tmp_path / "j.journal"))
    with pytest.raises(ValueError, match="is a folder"):
        check_storage(f"sqlite:///{tmp_path}/")


def _hold(path, ready, release):
    with safe_io.run_lock(path):
        ready.set()
        release.wait(20)


def test_a_second_writer_is_told_which_process_holds_the_run(tmp_path, capsys):
    out = tmp_path / "run.parquet"
    ctx = multiprocessing.get_context("fork")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold, args=(out, ready, release))
    holder.start()
    try:
        assert ready.wait(20)
        with pytest.raises(ValueError, match=f"in use by process {holder.pid}"):
            with safe_io.run_lock(out):
                pass
        assert main(["simulate", "nightsim", "--games", "8", "--out", str(out), "--no-progress"]) == 2
        assert f"in use by process {holder.pid}" in _error(capsys)
        assert not os.path.lexists(str(out) + ".parts")
    finally:
        release.set()
        holder.join(20)
    with safe_io.run_lock(out):          # free again once the holder is gone
        pass
    assert not os.path.lexists(safe_io.lock_path(out))
