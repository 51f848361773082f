"""engine='auto' on a machine where a kernel is not compiled yet: a run shorter than compiling plays
the Python engine (the same games; `engine_fallback` says why), a longer one compiles; `balancelab
compile` compiles the kernels ahead, and the report starts it in the background."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
import types

import pandas as pd
import pytest

import analyses
import balancelab.compile as bc
import nightsim
from analyses.kernels import cold_kernels
from analyses.runner import AUTO_COMPILE_ENV, engine_choice, planned_workers
from balancelab.cli import main
from simcore.kernel_cache import is_cached


class FakeKernel:
    def __init__(self, compiled: bool, cost: int = 1000):
        self.is_compiled, self.cost = compiled, cost

    def supports(self, rules, lineup):
        return True

    def compiled(self, rules, lineup):
        return self.is_compiled

    def compile_cost_games(self, rules, lineup):
        return self.cost


def fake_game(compiled: bool):
    return types.SimpleNamespace(__name__="fakegame", KERNEL=FakeKernel(compiled))


@pytest.fixture
def weigh(monkeypatch):
    """The rule as users get it (the test suite's own default is BALANCELAB_AUTO_COMPILE=always)."""
    monkeypatch.delenv(AUTO_COMPILE_ENV, raising=False)


def test_a_numba_functions_cache_is_read_without_compiling(tmp_path, monkeypatch):
    (tmp_path / "cachedmod_for_test.py").write_text(
        "import numba\n\n@numba.njit(cache=True)\ndef add(a, b):\n    return a + b\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("cachedmod_for_test")
    assert not is_cached(module.add)
    assert module.add(1, 2) == 3                       # compiles and writes the cache
    assert is_cached(module.add)
    sys.modules.pop("cachedmod_for_test")
    again = importlib.import_module("cachedmod_for_test")   # a fresh dispatcher, as in a new process
    assert is_cached(again.add) and len(again.add.overloads) == 0
    (tmp_path / "cachedmod_for_test.py").write_text(
        "import numba\n\n@numba.njit(cache=True)\ndef add(a, b):\n    return a - b\n")
    sys.modules.pop("cachedmod_for_test")
    os.utime(tmp_path / "cachedmod_for_test.py", (1, 1))  # numba stamps a source by its time and size
    edited = importlib.import_module("cachedmod_for_test")
    assert not is_cached(edited.add)                   # the edited source needs compiling again
    assert not is_cached(object())                     # not a numba function: nothing to load


def test_auto_plays_python_for_a_run_shorter_than_compiling(weigh):
    cold = fake_game(compiled=False)
    engine, why = engine_choice(cold, None, ("a",), "auto", 999, 1)
    assert engine == "python" and "not compiled yet" in why and "999 games" in why
    assert engine_choice(cold, None, ("a",), "auto", 1000, 1) == ("kernel", None)
    assert engine_choice(cold, None, ("a",), "auto", 1999, 2)[0] == "python"   # each worker compiles
    assert engine_choice(cold, None, ("a",), "auto", 2000, 2) == ("kernel", None)
    assert engine_choice(cold, None, ("a",), "auto") == ("kernel", None)       # size unknown: as before
    assert engine_choice(cold, None, ("a",), "kernel", 1, 1) == ("kernel", None)   # 'kernel' insists
    assert engine_choice(fake_game(compiled=True), None, ("a",), "auto", 1, 1) == ("kernel", None)


def test_the_test_suites_setting_compiles_whatever_the_size(monkeypatch):
    monkeypatch.setenv(AUTO_COMPILE_ENV, "always")
    assert engine_choice(fake_game(compiled=False), None, ("a",), "auto", 1, 1) == ("kernel", None)


def test_workers_are_counted_as_joblib_counts_them():
    assert planned_workers(1) == 1 and planned_workers(3) == 3
    assert planned_workers(-1) == (os.cpu_count() or 1)
    assert planned_workers(4, backend="dask") == 1 and planned_workers(4, scheduler="tcp://x:1") == 1
    assert planned_workers("2") == 1


def test_a_cold_kernels_short_run_gives_the_same_frame_on_python(weigh, monkeypatch):
    monkeypatch.setattr(nightsim.KERNEL, "compiled", lambda rules, policies: False)
    run = dict(policies="greedy,random,random,random", seed=5, progress=False)
    cold = analyses.simulate("nightsim", 12, engine="auto", **run)
    assert cold.attrs["engine"] == "python" and "not compiled yet" in cold.attrs["engine_fallback"]
    python = analyses.simulate("nightsim", 12, engine="python", **run)
    pd.testing.assert_frame_equal(cold, python)
    monkeypatch.setattr(nightsim.KERNEL, "compiled", lambda rules, policies: True)
    warm = analyses.simulate("nightsim", 12, engine="auto", **run)
    assert warm.attrs["engine"] == "kernel" and "engine_fallback" not in warm.attrs
    pd.testing.assert_frame_equal(warm, python)


def test_cold_kernels_lists_each_uncompiled_loop(monkeypatch):
    monkeypatch.setattr(nightsim.KERNEL, "compiled", lambda rules, policies: False)
    assert ("nightsim", ("random", "random")) in cold_kernels(["nightsim"])
    monkeypatch.setattr(nightsim.KERNEL, "compiled", lambda rules, policies: True)
    assert cold_kernels(["nightsim"]) == []
    assert cold_kernels(["nerath"]) == []              # no batch kernel


def test_balancelab_compile_compiles_what_is_not_compiled(monkeypatch, capsys):
    played = []
    monkeypatch.setattr(nightsim.KERNEL, "compiled", lambda rules, policies: False)
    monkeypatch.setattr(nightsim.KERNEL, "warm_up", lambda lineup: played.append(lineup) or 0.0)
    assert main(["compile", "nightsim"]) == 0
    assert played == [("random", "random")]
    assert "nightsim kernel (random seats): compiled in 0 s" in capsys.readouterr().out
    monkeypatch.setattr(nightsim.KERNEL, "compiled", lambda rules, policies: True)
    assert main(["compile", "nightsim"]) == 0
    assert "already compiled" in capsys.readouterr().out
    assert main(["compile", "nerath"]) == 0
    assert "no batch kernel to compile in nerath" in capsys.readouterr().out
    assert main(["compile", "nosuchgame"]) == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err


class FakePopen:
    calls: list = []

    def __init__(self, command, **options):
        FakePopen.calls.append((command, options))
        self.pid = 424242


def test_the_report_starts_compiling_in_the_background_only_when_a_kernel_is_cold(tmp_path, monkeypatch):
    FakePopen.calls = []
    start = dict(env={}, folder=tmp_path, popen=FakePopen)
    monkeypatch.setattr(bc, "cold_kernels", lambda games: [])
    assert bc.background_compile(**start) is None and FakePopen.calls == []
    monkeypatch.setattr(bc, "cold_kernels", lambda games: [("dreamsim", ("random", "random")),
                                                            ("dreamsim", ("heuristic", "heuristic"))])
    assert bc.background_compile(**{**start, "env": {bc.BACKGROUND_ENV: "0"}}) is None and FakePopen.calls == []
    note = bc.background_compile(**start)
    (command, options), = FakePopen.calls
    assert command[-3:] == ["balancelab", "compile", "dreamsim"] and command[0] == sys.executable
    assert options["preexec_fn"] is bc._lowest_priority and not options.get("start_new_session")
    assert "process 424242" in note and str(tmp_path / bc.LOG_NAME) in note
    assert (tmp_path / bc.PID_NAME).read_text() == "424242"
    (tmp_path / bc.PID_NAME).write_text(str(os.getpid()))     # one still running: no second one
    assert bc.background_compile(**start) is None and len(FakePopen.calls) == 1


@pytest.mark.skipif(os.name != "posix", reason="POSIX priorities")
def test_the_background_process_takes_only_idle_cpu_and_its_own_process_group():
    probe = ("import os; print(os.nice(0), os.getpgrp() == os.getpid(), os.getsid(0) == os.getsid(os.getppid()), "
             "getattr(os, 'sched_getscheduler', lambda pid: -1)(0))")
    out = subprocess.run([sys.executable, "-c", probe], preexec_fn=bc._lowest_priority,  # noqa: PLW1509
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[:3] == ["19", "True", "True"]       # nice 19, its own group, the report's session
    if hasattr(os, "SCHED_IDLE"):
        assert int(out[3]) == os.SCHED_IDLE            # any process may lower itself to the idle class
