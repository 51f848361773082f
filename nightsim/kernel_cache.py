"""numba's on-disk cache of the Nightmarium batch kernel, kept fresh across ALL its source files.

numba (0.68 here) keeps a ``cache=True`` function's compiled code in ``__pycache__/*.nbi/nbc``
and reuses it while its *own* source file is unchanged (a hash of that one file plus the
function's bytecode). `kernel_play.play_games` has the `kernel_core` functions it calls compiled
into it, so an edit of `kernel_core.py` alone (or an in-place upgrade of the package) left the
stale compiled loop in place and batches silently played the old rules.

Importing this module (the kernel modules do, before their first ``@njit``) puts a locator
class at the front of numba's ``CacheImpl._locator_classes``. It claims only functions defined
in KERNEL_FILES; where the cache lives it leaves to numba's own locators (so NUMBA_CACHE_DIR,
``__pycache__`` and the user-wide fallback work as before), and as the source stamp numba stores
in the index it returns `source_stamp()`, a sha256 of the contents of all KERNEL_FILES: any edit
of any of them invalidates every cached function of the kernel (one recompilation). This was
chosen over a cache directory per content hash, which would leave a stale directory behind on
every edit. KERNEL_FILES lists every file whose code or module-level constants are compiled
into the kernel, simcore/stream_kernel.py (the random streams) included
(tests/nightsim/test_nightsim_kernel_cache.py checks the globals the compiled functions read come
from these files).

If numba's private API is not as expected (another numba version), nothing is registered and
``cache=True`` is numba's default; the test above then fails. Setting the environment variable
NUMBA_CACHE_LOCATOR_CLASSES replaces numba's locator list, and with it this one.
(The same few lines are in dreamsim/kernel_cache.py and nerathsim/battle/kernel_cache.py: the
simulators share no code.)
"""
from __future__ import annotations

import hashlib
import os

try:
    from numba.core import caching as _caching
except ImportError:  # pragma: no cover - numba is a dependency; keep the kernels importable anyway
    _caching = None

HERE = os.path.dirname(os.path.abspath(__file__))
#: the kernel's files: the layout constants, the rules (draw, abilities, core), the policies and games
KERNEL_SOURCES = ("kernel_layout.py", "kernel_draw.py", "kernel_abilities.py", "kernel_core.py", "kernel_play.py")
#: the random streams, compiled into the kernel's functions from the shared package simcore
SHARED_FILES = (os.path.join(os.path.dirname(HERE), "simcore", "stream_kernel.py"),)
#: what the source stamp hashes: the kernel's own files and the shared ones its functions call
KERNEL_FILES = tuple(os.path.join(HERE, name) for name in KERNEL_SOURCES) + SHARED_FILES
#: the files whose functions this locator claims: only the kernel's own (simcore's functions keep
#: numba's own locator, fresh against their own file; another game's kernel calls them too)
OWN_FILES = KERNEL_FILES[:len(KERNEL_SOURCES)]


#: numba's inlining of a decision's functions into the compiled loops (`@njit(inline=INLINE)`):
#: "always", the shipped build (the loops run faster: see kernel_core's docstring), or "never", which
#: compiles about four times sooner. Read from the environment variable BALANCELAB_KERNEL_INLINE
#: (default "always"); the test suite picks "never" (tests/conftest.py). Both builds play the same
#: games: numba's inlining moves code and changes no operation (`benchmarks/tools/kernel_output_hashes.py`
#: prints the same hashes under either; tests/nightsim/test_nightsim_kernel_cache.py compares
#: Nightmarium's two builds). Each build keeps its compiled code in its own folder (`get_cache_path`),
#: so switching between them recompiles nothing that is cached.
INLINE = os.environ.get("BALANCELAB_KERNEL_INLINE", "always")
if INLINE not in ("always", "never"):
    raise ValueError(f"BALANCELAB_KERNEL_INLINE must be 'always' or 'never', got {INLINE!r}")


def source_stamp(files: tuple[str, ...] = KERNEL_FILES) -> str:
    """sha256 of the names and contents of `files`: changes when any of them changes."""
    digest = hashlib.sha256()
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        digest.update(f"{os.path.basename(path)}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(os.path.abspath(path)))


def _impl_class():
    """numba's CacheImpl (named _CacheImpl before numba 0.58), or None if not as expected."""
    impl = getattr(_caching, "CacheImpl", None) or getattr(_caching, "_CacheImpl", None)
    ok = (isinstance(getattr(impl, "_locator_classes", None), list)
          and isinstance(getattr(_caching, "_CacheLocator", None), type))
    return impl if ok else None


def _make_locator(impl, base):
    class KernelCacheLocator(base):
        """numba's own locator for where the cache lives; `source_stamp()` for its freshness."""

        kernel_package = HERE          # marks this package's locator (re-registration, recursion)
        files = KERNEL_FILES
        claimed = OWN_FILES

        def __init__(self, inner):
            self._inner = inner

        def ensure_cache_path(self):
            self._inner.ensure_cache_path()
            os.makedirs(self.get_cache_path(), exist_ok=True)

        def get_cache_path(self):
            """numba's own choice of folder; the "never"-inlined build in a folder of its own inside it."""
            path = self._inner.get_cache_path()
            return path if INLINE == "always" else os.path.join(path, f"inline-{INLINE}")

        def get_disambiguator(self):
            return self._inner.get_disambiguator()

        @property
        def _py_file(self):
            """The source file, as numba's own locators have it: numba's "cannot cache" warning
            (e.g. with NUMBA_OPT=0, whose code keeps its large arrays as dynamic globals) names it."""
            return getattr(self._inner, "_py_file", self.files[0])

        def get_source_stamp(self):
            return source_stamp(self.files)

        @classmethod
        def from_function(cls, py_func, py_file):
            if _real(py_file) not in {_real(f) for f in cls.claimed}:
                return None
            if not all(os.path.isfile(f) for f in cls.files):
                return None                # e.g. installed in a zip: numba's default
            for other in impl._locator_classes:
                if getattr(other, "kernel_package", None) is None:
                    inner = other.from_function(py_func, py_file)
                    if inner is not None:
                        return cls(inner)
            return None

    return KernelCacheLocator


def register():
    """Put this package's locator first in numba's list (once); return it, or None if unsupported."""
    impl = _impl_class()
    if impl is None:
        return None
    impl._locator_classes[:] = [c for c in impl._locator_classes
                                if getattr(c, "kernel_package", None) != HERE]
    locator = _make_locator(impl, _caching._CacheLocator)
    impl._locator_classes.insert(0, locator)
    return locator


LOCATOR = register()
