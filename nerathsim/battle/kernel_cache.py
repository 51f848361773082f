"""The Nerath battle kernel's files, registered with the shared numba cache locator
(`simcore.kernel_cache`: an edit of either recompiles the kernel). `kernel.py` imports this module
before its first ``@njit``. The kernel inlines nothing: it has one build."""
from __future__ import annotations

import os

from simcore.kernel_cache import register
from simcore.kernel_cache import source_stamp as _source_stamp

HERE = os.path.dirname(os.path.abspath(__file__))
#: the compiled functions (kernel.py) and the outcome codes they read (outcomes.py)
KERNEL_FILES = tuple(os.path.join(HERE, name) for name in ("kernel.py", "outcomes.py"))
__all__ = ("KERNEL_FILES", "LOCATOR", "source_stamp")


def source_stamp(files: tuple[str, ...] = KERNEL_FILES) -> str:
    """sha256 of the kernel's files (`simcore.kernel_cache.source_stamp`)."""
    return _source_stamp(files)


LOCATOR = register(HERE, KERNEL_FILES)
