"""simcore.kernel_cache.njit: one compiled version per argument types, whatever constants callers pass."""
from __future__ import annotations

import sys

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

import dreamsim
import nightsim
from simcore.kernel_cache import njit


@njit(cache=False)
def _scale(x, k, flag):
    return x * k if flag else x - k


@njit(cache=False)
def _calls_with_constants(x):
    return _scale(x, 2, True) + _scale(x, 3, False) + _scale(x, 4, True) + _scale(x, 2, False)


def test_constants_passed_by_a_compiled_caller_share_one_compiled_version():
    assert _calls_with_constants(5) == 10 + 2 + 20 + 3
    assert len(_scale.overloads) == 1
    (sig,) = _scale.overloads
    assert [str(t) for t in sig] == ["int64", "int64", "bool"]


def test_a_decorated_function_still_runs_from_python_with_its_own_types():
    assert _scale(1.5, 2, True) == 3.0
    assert _scale(np.int64(7), 2, False) == 5


@njit
def _bare(x):
    return x + 1


def test_the_bare_decorator_and_bad_arguments():
    assert _bare(1) == 2
    assert isinstance(_bare, CPUDispatcher)
    with pytest.raises(TypeError, match="no signatures"):
        njit("int64(int64)")


def _kernel_dispatchers(prefixes):
    for name, module in list(sys.modules.items()):
        if name.startswith(prefixes):
            for attr, value in vars(module).items():
                if isinstance(value, CPUDispatcher) and value.__module__ == name:
                    yield f"{name}.{attr}", value


def test_every_kernel_function_holds_one_compiled_version_after_each_line_up():
    """Every function of the card-game kernels is compiled once (not once per constant a caller passes,
    which took the Midnighters heuristic kernel's compilation from about 60 to 157 CPU s)."""
    for module, policies in ((dreamsim, ("random", "heuristic")), (nightsim, ("random", "greedy"))):
        for policy in policies:
            module.KERNEL.play_batch(module.Rules(players=4), [(policy,) * 4] * 2, [1, 2])
    found = dict(_kernel_dispatchers(("dreamsim.kernel.", "nightsim.kernel.", "simcore.stream_kernel")))
    assert len(found) > 100
    many = {name: [str(s) for s in d.overloads] for name, d in found.items() if len(d.overloads) > 1}
    assert many == {}
