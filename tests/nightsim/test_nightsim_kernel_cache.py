"""numba's on-disk cache of the batch kernels is keyed on ALL of a kernel's source files.

numba validates a ``cache=True`` function only against its own file, so `kernel_play.play_games`
kept its stale compiled `kernel.core` code after an edit of `nightsim/kernel/core.py` alone. Each kernel
package's `kernel.cache` module registers its files with the shared locator of
simcore/kernel_cache.py, whose source stamp is a hash of all the kernel's KERNEL_FILES. Covers the
three simulators' kernels (nightsim, dreamsim, nerathsim.battle); the real kernels are never
compiled here, except Nightmarium's in the comparison of its two inlining builds.
"""
from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from numba.core import caching
from numba.core.registry import CPUDispatcher

import dreamsim.kernel.cache
import dreamsim.kernel.core
import dreamsim.kernel.frames
import dreamsim.kernel.heur
import dreamsim.kernel.heur_board
import dreamsim.kernel.heur_play
import dreamsim.kernel.heur_score
import dreamsim.kernel.play
import dreamsim.kernel.turn
import nerathsim.battle.kernel
import nerathsim.battle.kernel_cache
import nightsim.kernel.abilities
import nightsim.kernel.cache
import nightsim.kernel.core
import nightsim.kernel.draw
import nightsim.kernel.play
import simcore.kernel_cache
import simcore.stream_kernel

KERNELS = {   # the kernel_cache module of a package -> the modules holding its compiled functions
    "nightsim": (nightsim.kernel.cache, (nightsim.kernel.draw, nightsim.kernel.abilities, nightsim.kernel.core,
                                         nightsim.kernel.play)),
    "dreamsim": (dreamsim.kernel.cache, (dreamsim.kernel.core, dreamsim.kernel.turn, dreamsim.kernel.frames,
                                         dreamsim.kernel.play, dreamsim.kernel.heur_board, dreamsim.kernel.heur,
                                         dreamsim.kernel.heur_score, dreamsim.kernel.heur_play)),
    "nerathsim.battle": (nerathsim.battle.kernel_cache, (nerathsim.battle.kernel,)),
}
FILE_CASES = [(name, i) for name, (cache, _) in KERNELS.items() for i in range(len(cache.KERNEL_FILES))]


def real(path) -> str:
    return os.path.normcase(os.path.realpath(path))


def dispatchers(module: types.ModuleType) -> list[CPUDispatcher]:
    return [v for v in vars(module).values()
            if isinstance(v, CPUDispatcher) and v.py_func.__module__ == module.__name__]


@pytest.mark.parametrize("name", KERNELS)
def test_the_locator_claims_every_compiled_function_of_the_kernel(name):
    cache, modules = KERNELS[name]
    assert cache.LOCATOR is not None, "numba's caching API changed: kernel caches would go stale"
    assert cache.LOCATOR in caching.CacheImpl._locator_classes
    stamp = cache.source_stamp()
    functions = [d for m in modules for d in dispatchers(m)]
    assert len(functions) >= len(modules)
    for d in functions:
        locator = d._cache._impl.locator
        assert isinstance(locator, cache.LOCATOR), d.py_func.__qualname__
        assert locator.get_source_stamp() == stamp
        # where the cache lives is numba's own choice (here the package's __pycache__)
        default = caching.InTreeCacheLocator.from_function(d.py_func, d.py_func.__code__.co_filename)
        # (a build other than the shipped one in a folder of its own inside it)
        expected = default.get_cache_path()
        inline = getattr(cache, "INLINE", None)   # (Nerath's battle kernel inlines nothing)
        if inline != getattr(cache, "DEFAULT_INLINE", None):
            expected = os.path.join(expected, f"inline-{inline}")
        assert locator.get_cache_path() == expected
        assert locator.get_disambiguator() == default.get_disambiguator()
        # numba's "cannot cache" warning (code it may not store, e.g. compiled with NUMBA_OPT=0) reads
        # the locator's _py_file: it names the function's own file, not an AttributeError
        assert real(locator._py_file) == real(d.py_func.__code__.co_filename)


@pytest.mark.parametrize("name", KERNELS)
def test_the_locator_claims_no_other_file(name):
    cache, _ = KERNELS[name]
    assert cache.LOCATOR.from_function(real, __file__) is None


@pytest.mark.parametrize("name", ["nightsim", "dreamsim"])
def test_the_shared_random_streams_are_stamped_but_not_claimed(name):
    """simcore/stream_kernel.py is compiled into the card games' kernels: an edit of it must recompile
    each (it is in KERNEL_FILES), while its own functions keep numba's locator (both kernels call
    them, and a claim by each would make them trade stamps)."""
    cache = KERNELS[name][0]
    assert real(simcore.stream_kernel.__file__) in {real(f) for f in cache.KERNEL_FILES}
    below = simcore.stream_kernel.below
    assert cache.LOCATOR.from_function(below.py_func, simcore.stream_kernel.__file__) is None
    assert not isinstance(below._cache._impl.locator, cache.LOCATOR)


@pytest.mark.parametrize("name, index", FILE_CASES)
def test_the_stamp_changes_when_any_kernel_file_changes_and_only_then(name, index, tmp_path):
    cache, _ = KERNELS[name]
    copies = []
    for path in cache.KERNEL_FILES:
        copies.append(tmp_path / os.path.basename(path))
        shutil.copyfile(path, copies[-1])
    copies = tuple(str(c) for c in copies)
    stamp = cache.source_stamp(copies)
    assert stamp == cache.source_stamp(copies) == cache.source_stamp()    # content, not path or time
    os.utime(copies[index], (1, 1))
    assert cache.source_stamp(copies) == stamp
    with open(copies[index], "a") as f:
        f.write("# an edit\n")
    changed = cache.source_stamp(copies)
    assert changed != stamp
    assert cache.source_stamp(copies) == changed


def imported_from(module: types.ModuleType) -> dict[str, str]:
    """name -> file of the module it is imported from: the package's own (`from .x import name`,
    `from . import x`) and the shared core's (`from simcore.x import name`)."""
    tree = ast.parse(Path(module.__file__).read_text())
    out = {}
    for node in tree.body:
        shared = isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("simcore")
        if isinstance(node, ast.ImportFrom) and (node.level > 0 or shared):
            base = importlib.import_module("." * node.level + (node.module or ""), module.__package__)
            for alias in node.names:
                target = getattr(base, alias.name)
                source = target if isinstance(target, types.ModuleType) else base
                out[alias.asname or alias.name] = source.__file__
    return out


def global_names(code) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= global_names(const)
    return names


@pytest.mark.parametrize("name", KERNELS)
def test_compiled_functions_read_globals_only_from_the_kernel_files(name):
    """A constant or function compiled into the kernel from a file outside KERNEL_FILES would be
    frozen into the cache and missed by the stamp."""
    cache, modules = KERNELS[name]
    files = {real(f) for f in cache.KERNEL_FILES}
    for module in modules:
        assert real(module.__file__) in files
        origins = imported_from(module)
        for d in dispatchers(module):
            for g in global_names(d.py_func.__code__) & set(origins):
                value = d.py_func.__globals__[g]
                if g in ("cache", "kernel_cache") or isinstance(value, type):
                    continue      # the registration import; classes are Python-side only
                assert real(origins[g]) in files, (f"{module.__name__}.{d.py_func.__name__} reads {g} "
                                                   f"from {origins[g]}, not in {name}.kernel_cache.KERNEL_FILES")


TINY_CACHE = ("import os\nfrom simcore.kernel_cache import register\n\n"
              "HERE = os.path.dirname(os.path.abspath(__file__))\n"
              "LOCATOR = register(HERE, tuple(os.path.join(HERE, n) for n in ('core.py', 'play.py')))\n")
TINY_CORE = "from numba import njit\nfrom . import kernel_cache\n\n\n@njit(cache=True)\ndef rule():\n    return {}\n"
TINY_PLAY = ("from numba import njit\nfrom . import kernel_cache\nfrom .core import rule\n\n\n"
             "@njit(cache=True)\ndef play():\n    return rule() + 10\n")


def test_an_edit_of_the_core_file_alone_reaches_the_cached_caller(tmp_path):
    """End to end in fresh interpreters: a tiny kernel package whose `play` calls `core.rule`."""
    pkg = tmp_path / "tinykernel"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kernel_cache.py").write_text(TINY_CACHE)
    (pkg / "play.py").write_text(TINY_PLAY)

    def run(rule_value: int) -> int:
        (pkg / "core.py").write_text(TINY_CORE.format(rule_value))
        done = subprocess.run([sys.executable, "-c", "from tinykernel.play import play; print(play())"],
                              capture_output=True, text=True, cwd=tmp_path, check=True,
                              env={**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": ""})
        return int(done.stdout.split()[-1])

    assert run(1) == 11
    assert list((pkg / "__pycache__").glob("play.play-*.nbi"))       # play's compiled code is cached
    assert run(2) == 12
    assert run(2) == 12
    assert run(1) == 11


ARRAYS_HASH = """
import hashlib, sys
import numpy as np
import nightsim
from nightsim.kernel import play_batch as kernel
lineups = [("random", "greedy", "random", "greedy"), ("greedy",) * 4, ("random",) * 4] * 40
arrays = kernel.play_arrays(nightsim.Rules(players=4), lineups, range(500, 500 + len(lineups)))
digest = hashlib.sha256()
for key in sorted(arrays):
    digest.update(key.encode())
    digest.update(np.ascontiguousarray(arrays[key]).tobytes())
print(nightsim.kernel.cache.INLINE, digest.hexdigest())
"""


def test_the_inlined_and_the_not_inlined_builds_play_the_same_games():
    """Nightmarium ships its "always"-inlined build, Midnighters its "never" one (the environment's
    BALANCELAB_KERNEL_INLINE picks the other): numba's inlining moves code and changes no operation,
    so both builds give the same arrays for the same games (random and greedy seats, 120 games)."""
    out = {}
    for inline in ("always", "never"):
        done = subprocess.run([sys.executable, "-c", ARRAYS_HASH], capture_output=True, text=True, check=True,
                              env={**os.environ, "BALANCELAB_KERNEL_INLINE": inline})
        build, digest = done.stdout.split()
        assert build == inline
        out[inline] = digest
    assert out["always"] == out["never"]


def test_an_unknown_inlining_setting_is_refused_by_name():
    done = subprocess.run([sys.executable, "-c", "import nightsim.kernel.cache"], capture_output=True, text=True,
                          env={**os.environ, "BALANCELAB_KERNEL_INLINE": "sometimes"})
    assert done.returncode != 0 and "BALANCELAB_KERNEL_INLINE must be 'always' or 'never'" in done.stderr


def test_a_claimed_file_outside_the_kernel_files_is_refused(tmp_path):
    """The locator serves only functions whose file the stamp covers: a claim beyond it is an error."""
    stamped, other = str(tmp_path / "play.py"), str(tmp_path / "core.py")
    with pytest.raises(ValueError, match="claimed files must be some of kernel_files"):
        simcore.kernel_cache.register(str(tmp_path), (stamped,), (stamped, other))


def test_the_games_ship_their_named_build_and_the_environment_picks_the_other(monkeypatch):
    monkeypatch.delenv(simcore.kernel_cache.INLINE_ENV, raising=False)
    assert simcore.kernel_cache.inline_setting("always") == "always"
    assert simcore.kernel_cache.inline_setting("never") == "never"
    monkeypatch.setenv(simcore.kernel_cache.INLINE_ENV, "never")
    assert simcore.kernel_cache.inline_setting("always") == "never"
    assert (nightsim.kernel.cache.DEFAULT_INLINE, dreamsim.kernel.cache.DEFAULT_INLINE) == ("always", "never")


def test_each_game_registers_one_locator_and_re_registering_replaces_it():
    before = list(caching.CacheImpl._locator_classes)
    for name, (cache, _) in KERNELS.items():
        mine = [c for c in before if getattr(c, "kernel_package", None) == cache.HERE]
        assert mine == [cache.LOCATOR], name
    try:
        again = simcore.kernel_cache.register(nightsim.kernel.cache.HERE, nightsim.kernel.cache.KERNEL_FILES,
                                              nightsim.kernel.cache.OWN_FILES)
        now = caching.CacheImpl._locator_classes
        assert again in now and nightsim.kernel.cache.LOCATOR not in now
        assert len(now) == len(before)
    finally:
        caching.CacheImpl._locator_classes[:] = before
