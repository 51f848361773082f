"""Worker processes die with the run that started them; one run at a time writes a results file."""
import os
import signal
import subprocess
import sys
import time

import pytest
from pandas.testing import assert_frame_equal

import analyses
from analyses.checkpoint import lock_path, parts_dir, run_lock, simulate_to_file
from analyses.io import read_results
from analyses.worker import watch_parent
from balancelab.cli import main

psutil = pytest.importorskip("psutil")
posix = pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX only")


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def session_members(session: int) -> list[int]:
    found = []
    for p in psutil.process_iter(["pid"]):
        try:
            if os.getsid(p.info["pid"]) == session and alive(p.info["pid"]):
                found.append(p.info["pid"])
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return found


def wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@posix
def test_a_worker_whose_parent_is_already_gone_exits_at_once():
    child = os.fork()
    if child == 0:  # pragma: no cover - the forked child
        watch_parent(parent=os.getppid() + 1_000_000)  # not our parent: exits with 1 before returning
        os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 1


@posix
def test_a_worker_exits_when_its_parent_is_killed():
    # middle process: starts a watched grandchild, prints its pid, then dies by SIGKILL
    # (the parent's pid is taken before the fork, as the pool passes it: the middle process may be
    # gone before the grandchild first runs; the grandchild lets go of the output pipe at once)
    script = ("import os, signal, sys, time\n"
              "from analyses.worker import watch_parent\n"
              "parent = os.getpid()\n"
              "pid = os.fork()\n"
              "if pid == 0:\n"
              "    null = os.open(os.devnull, os.O_WRONLY)\n"
              "    os.dup2(null, 1)\n"
              "    os.dup2(null, 2)\n"
              "    watch_parent(parent, poll=0.05)\n"
              "    time.sleep(60)\n"
              "    os._exit(0)\n"
              "print(pid, flush=True)\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL
    grandchild = int(done.stdout.split()[0])
    assert wait_until(lambda: not alive(grandchild), 10), "the orphaned worker kept running"


@posix
def test_kill_9_of_a_two_worker_run_leaves_no_process_and_resume_finishes_it(tmp_path):
    """The command line killed with SIGKILL once a part is on disk: its loky workers (and resource
    trackers) exit by themselves, and --resume gives the frame of an uninterrupted run."""
    out = tmp_path / "run.parquet"
    args = ["simulate", "nightsim", "--games", "400", "--policies", "random", "--seed", "5", "--chunk-size", "10",
            "--no-progress", "--out", str(out)]
    process = subprocess.Popen([sys.executable, "-m", "balancelab", *args, "--jobs", "2"], start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started = wait_until(lambda: parts_dir(out).is_dir() and any(parts_dir(out).glob("part-*.parquet"))
                             or process.poll() is not None, 120)
        assert started and process.poll() is None, "the run finished (or failed) before it could be killed"
        assert len(session_members(process.pid)) >= 2  # the command and its workers
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert wait_until(lambda: not session_members(process.pid), 15), \
            f"processes outlived the killed run: {session_members(process.pid)}"
    finally:
        for pid in session_members(process.pid):  # only if the assertion above failed
            psutil.Process(pid).kill()
    assert not out.exists()
    assert main([*args, "--resume", "--jobs", "1"]) == 0
    expected = analyses.simulate("nightsim", 400, policies="random", seed=5, progress=False)
    df = read_results(out)
    assert_frame_equal(df, expected)
    assert df.attrs == expected.attrs


@posix
def test_a_second_run_of_the_same_out_is_refused_before_it_touches_anything(tmp_path):
    out = tmp_path / "run.parquet"
    with run_lock(out):
        assert lock_path(out).read_text().strip() == str(os.getpid())
        with pytest.raises(ValueError, match=rf"in use by process {os.getpid()}"):
            simulate_to_file("toygame", 30, out, policies="random", progress=False, resume=True)
        assert not parts_dir(out).exists() and not out.exists()
    assert not lock_path(out).exists()  # removed by the run that held it
    df = simulate_to_file("toygame", 30, out, policies="random", progress=False)
    assert len(df) == 30 and not lock_path(out).exists()


@posix
def test_the_lock_file_of_a_killed_run_does_not_block_the_next(tmp_path):
    out = tmp_path / "run.parquet"
    lock_path(out).write_text("999999\n")  # left by a run killed with SIGKILL: nobody holds it
    df = simulate_to_file("toygame", 20, out, policies="random", progress=False)
    assert len(df) == 20 and out.exists() and not lock_path(out).exists()
