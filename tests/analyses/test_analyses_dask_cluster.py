"""A real dask cluster: a `dask scheduler` and two `dask worker` processes on 127.0.0.1 (ports chosen by the
scheduler), reached by address. simulate, sweep, ladder and rebalance give through it exactly what they give
in process, and a worker killed mid-run loses no game."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from pandas.testing import assert_frame_equal

import analyses
from balancelab.cli import main

distributed = pytest.importorskip("distributed")

LAUNCH = ("import os, sys\n"
          "from analyses.worker import watch_parent\n"
          "watch_parent(os.getppid())\n"
          "from dask.cli import run_cli\n"
          "sys.argv[0] = 'dask'\n"
          "run_cli()\n")
RUN = {"policies": "greedy,random,random", "rules": {"players": 3}, "seed": 4, "progress": False}


def wait_until(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"dask test cluster: {what} after {seconds:.0f} s")
        time.sleep(0.1)


def _address(path):
    """The scheduler's address from its file, or None while the file is missing or half written."""
    try:
        return json.loads(path.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None


class Cluster:
    """The scheduler and worker processes of the test, and a client to watch them."""

    def __init__(self, folder):
        self.folder, self.processes, self.workers = folder, [], {}
        self.file = folder / "scheduler.json"
        self.log = open(folder / "cluster.log", "w")

    def start(self, *args) -> subprocess.Popen:
        # the `dask` command, watching its parent as a loky worker does: a test run killed outright
        # (no finalizer) takes its cluster with it
        process = subprocess.Popen([sys.executable, "-c", LAUNCH, *args], cwd=self.folder, stdout=self.log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(process)
        return process

    def up(self, n_workers: int = 2):
        self.start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                   "--scheduler-file", str(self.file))
        # the scheduler writes its file in place: wait until it holds the whole JSON, not just until it exists
        wait_until(lambda: _address(self.file) is not None, 60, "no complete scheduler file")
        self.address = _address(self.file)
        for _ in range(n_workers):
            # no nanny: the worker process is the one to kill; one thread, as a joblib worker
            self.start("worker", "--scheduler-file", str(self.file), "--host", "127.0.0.1", "--nthreads", "1",
                       "--no-nanny", "--no-dashboard", "--local-directory", str(self.folder))
        self.client = distributed.Client(self.address, timeout=60, set_as_default=False)
        self.client.wait_for_workers(n_workers, timeout=60)
        self.workers = self.client.run(os.getpid)  # address -> pid of the worker process
        return self

    def down(self):
        if getattr(self, "client", None) is not None:
            self.client.close()
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, request):
    running = Cluster(tmp_path_factory.mktemp("dask-cluster"))
    request.addfinalizer(running.down)
    return running.up()


def test_simulate_on_the_cluster_equals_one_process(cluster):
    expected = analyses.simulate("nightsim", 90, **RUN)
    assert_frame_equal(analyses.simulate("nightsim", 90, scheduler=cluster.address, chunk_size=7, **RUN), expected)
    assert_frame_equal(analyses.simulate("nightsim", 90, backend="dask", scheduler=cluster.address, **RUN), expected)


def test_sweep_on_the_cluster_equals_one_process(cluster):
    options = {**RUN, "rules": None, "policies": "greedy"}
    local = analyses.sweep("nightsim", "players", [2, 3], 60, **options)
    remote = analyses.sweep("nightsim", "players", [2, 3], 60, scheduler=cluster.address, **options)
    assert_frame_equal(remote.effects, local.effects)
    for value in local.runs:
        assert_frame_equal(remote.runs[value], local.runs[value])


def test_ladder_on_the_cluster_equals_one_process(cluster):
    options = {"ladder": "random,greedy", "games": 12, "findings_games": 8, "bootstrap": 50, "progress": False}
    local = analyses.skill_ladder("nightsim", **options)
    remote = analyses.skill_ladder("nightsim", backend="dask", scheduler=cluster.address, **options)
    for name in ("ratings", "pairwise", "findings"):
        assert_frame_equal(getattr(remote, name), getattr(local, name))


def test_rebalance_on_the_cluster_equals_one_process(cluster):
    options = {"knobs": "last_seat_extra_cards=0:1:1", "budget": 2, "policies": "greedy", "first_games": 24,
               "rungs": 1, "confirm_games": 24, "engine": "python", "seed": 3}
    local = analyses.rebalance("nightsim", **options)
    remote = analyses.rebalance("nightsim", scheduler=cluster.address, **options)
    for name in ("proposal", "table", "side_effects"):
        assert_frame_equal(getattr(remote, name), getattr(local, name))
    columns = [c for c in local.trials.columns if c not in ("seconds", "datetime_start", "datetime_complete")]
    assert_frame_equal(remote.trials[columns], local.trials[columns])


def test_the_command_line_takes_the_scheduler_address(cluster, tmp_path, capsys):
    out = tmp_path / "run.parquet"
    args = ["simulate", "nightsim", "--games", "60", "--players", "3", "--policies", "greedy,random,random",
            "--seed", "4", "--no-progress", "--out", str(out)]
    assert main([*args, "--scheduler", cluster.address]) == 0
    assert_frame_equal(analyses.read_results(out), analyses.simulate("nightsim", 60, **RUN))
    assert main([*args, "--force", "--backend", "threading", "--scheduler", cluster.address]) == 2
    assert "use it with backend 'dask'" in capsys.readouterr().err


class KillWorkerOnFirstChunk:
    """A progress 'bar' that kills a worker (SIGKILL) when the first chunk comes back, while that
    worker still has chunks in hand."""

    def __init__(self, cluster):
        self.cluster, self.killed, self.in_hand = cluster, None, 0

    def update(self, n):
        if self.killed is not None:
            return
        processing = self.cluster.client.processing()
        address = max(self.cluster.workers, key=lambda a: len(processing.get(a, ())))
        self.in_hand = len(processing.get(address, ()))
        self.killed = address
        os.kill(self.cluster.workers[address], signal.SIGKILL)


def test_a_worker_killed_mid_run_loses_no_game(cluster):
    """Last in this file: it leaves the cluster with one worker."""
    options = {**RUN, "policies": "random", "seed": 9}
    expected = analyses.simulate("nightsim", 400, **options)
    killer = KillWorkerOnFirstChunk(cluster)
    df = analyses.simulate("nightsim", 400, scheduler=cluster.address, chunk_size=5, **{**options, "progress": killer})
    assert killer.killed is not None and killer.in_hand > 0  # it died with chunks to play
    wait_until(lambda: killer.killed not in cluster.client.scheduler_info()["workers"], 30, "the killed worker is listed")
    assert_frame_equal(df, expected)
