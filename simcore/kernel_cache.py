"""numba's on-disk cache of a batch kernel, kept fresh across ALL its source files, and the kernels'
inlining setting. Each game registers its own file list (`register`, in a few lines of its package's
`kernel_cache` module: nightsim, dreamsim, nerathsim.battle); this module imports no game.

numba (0.68 here) keeps a ``cache=True`` function's compiled code in ``__pycache__/*.nbi/nbc``
and reuses it while its *own* source file is unchanged (a hash of that one file plus the
function's bytecode). A kernel's game loop has the functions it calls from the other kernel files
compiled into it, so an edit of one of those alone (or an in-place upgrade of the package) left the
stale compiled loop in place and batches silently played the old rules.

`register(package_dir, kernel_files, claimed)` (a game's `kernel_cache` module calls it before its
kernel's first ``@njit``) puts a locator class at the front of numba's ``CacheImpl._locator_classes``.
It claims only functions defined in `claimed` (the game's own kernel files); where the cache lives it
leaves to numba's own locators (so NUMBA_CACHE_DIR, ``__pycache__`` and the user-wide fallback work as
before), and as the source stamp numba stores in the index it returns `source_stamp(kernel_files)`, a
sha256 of the contents of all the kernel's files, the shared ones it compiles in (simcore's random
streams) included: any edit of any of them invalidates every cached function of the kernel (one
recompilation). This was chosen over a cache directory per content hash, which would leave a stale
directory behind on every edit. Shared files are stamped but not claimed: their functions keep
numba's own locator (fresh against their own file), since several games' kernels call them and a
claim by each would make them trade stamps. tests/nightsim/test_nightsim_kernel_cache.py checks the
globals the compiled functions read come from the registered files.

If numba's private API is not as expected (another numba version), nothing is registered and
``cache=True`` is numba's default; the test above then fails. Setting the environment variable
NUMBA_CACHE_LOCATOR_CLASSES replaces numba's locator list, and with it these locators.
"""
from __future__ import annotations

import hashlib
import os

try:
    import numba as _numba
    from numba.core import caching as _caching
    from numba.core import types as _types
    from numba.core.registry import CPUDispatcher as _CPUDispatcher
except ImportError:  # pragma: no cover - numba is a dependency; keep the kernels importable anyway
    _numba = _caching = _types = None
    _CPUDispatcher = object

#: this package's folder: the shared kernel files a game's kernel compiles in live here
SIMCORE_DIR = os.path.dirname(os.path.abspath(__file__))
#: the random streams every kernel compiles in (stamped with each game's kernel, claimed by none)
STREAM_KERNEL = os.path.join(SIMCORE_DIR, "stream_kernel.py")

#: the environment variable that picks a kernel's inlining build ("always" or "never"; unset: the
#: game's shipped build, `inline_setting`)
INLINE_ENV = "BALANCELAB_KERNEL_INLINE"


def inline_setting(default: str) -> str:
    """A kernel's numba inlining of its hot decision functions (`@njit(inline=INLINE)`): "always"
    inlines them at numba's level into every caller (one compiled game loop), "never" compiles each
    as a function of its own (LLVM may still inline it where it pays), in about half the time. Each
    game ships the build it names as `default` (its `kernel_cache` module says why);
    BALANCELAB_KERNEL_INLINE picks the other. Both builds play the same games: inlining moves code
    and changes no operation (`benchmarks/tools/kernel_output_hashes.py` prints the same hashes under
    either; tests/nightsim/test_nightsim_kernel_cache.py compares Nightmarium's two builds)."""
    value = os.environ.get(INLINE_ENV, default)
    if value not in ("always", "never"):
        raise ValueError(f"{INLINE_ENV} must be 'always' or 'never', got {value!r}")
    return value


class CompiledOnly(_CPUDispatcher):
    """A function compiled by `njit` (``python_calls=False``) without numba's CPython wrapper: compiled
    code calls it, a call from Python raises (numba would jump to the missing wrapper and crash)."""

    def __call__(self, *args, **kws):
        raise TypeError(f"{self.py_func.__module__}.{self.py_func.__qualname__} is compiled for calls from "
                        "compiled code only (simcore.kernel_cache.njit(python_calls=False))")


def njit(*args, **options):
    """``numba.njit`` for the kernels' functions, compiling each once per argument *types*, not once
    per constant a caller passes. numba types a literal argument of a call between compiled functions
    as its value (``Literal[int](2)``, a tuple holding one) and compiles the callee anew for each such
    value; the Midnighters heuristic kernel held 225 compiled versions of 102 functions that way (e.g.
    24 of one path-finding helper) and took 157 CPU s to compile on a quiet machine, 72 s without the
    copies. A function decorated here has its callers' argument types stripped of their values
    (``types.unliteral``) before numba picks or compiles a version. Constants still reach the code
    LLVM optimises where it inlines a callee; no operation changes, so the games are the same (the
    kernel equality tests play them record for record). No C function wrapper is built
    (``no_cfunc_wrapper``): it serves only a function passed as a first-class value, which no kernel
    does, and cost about 3 s of the heuristic kernel's compilation.

    ``python_calls=False``: a function that only compiled code calls is built without numba's CPython
    wrapper (``no_cpython_wrapper``: the unboxing of its arguments, compiled and optimised with each
    function), about 2 CPU s of the Midnighters heuristic kernel's compilation; called from Python it
    raises TypeError (`CompiledOnly`) instead of jumping to the wrapper it lacks."""
    if len(args) > 1 or (args and not callable(args[0])):
        raise TypeError("simcore.kernel_cache.njit takes the function alone (@njit) or options only "
                        "(@njit(cache=True, ...)); no signatures")
    options.setdefault("no_cfunc_wrapper", True)
    python_calls = options.pop("python_calls", True)
    if not python_calls:
        options["no_cpython_wrapper"] = True

    def decorate(func):
        dispatcher = _numba.njit(**options)(func)
        original = dispatcher.get_call_template

        def get_call_template(call_args, kws):
            return original(tuple(_types.unliteral(a) for a in call_args),
                            {k: _types.unliteral(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        if not python_calls:
            dispatcher.__class__ = CompiledOnly
        return dispatcher

    return decorate(args[0]) if args else decorate


def is_cached(dispatcher) -> bool:
    """True when numba's cache holds compiled code of `dispatcher` (an ``@njit(cache=True)`` function)
    that this process can load for this machine, source and bytecode: its first call then loads the
    code instead of compiling it. Reads the cache index only (no compilation); False when the cache
    cannot be read (another numba version: the caller then assumes compiling is needed)."""
    try:
        cache = dispatcher._cache
        index = cache._cache_file._load_index()
        codegen = dispatcher.targetctx.codegen()
        return any(cache._index_key(key[0], codegen) == key for key in index)
    except (AttributeError, TypeError, IndexError, OSError, EOFError, ValueError):
        return False


def source_stamp(files: tuple[str, ...]) -> str:
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


def _make_locator(impl, base, package_dir, kernel_files, claimed, build_folder):
    claimed_real = frozenset(_real(f) for f in claimed)

    class KernelCacheLocator(base):
        """numba's own locator for where the cache lives; `source_stamp(files)` for its freshness."""

        kernel_package = package_dir   # marks a package's locator (re-registration, recursion)
        files = kernel_files
        claimed_files = claimed

        def __init__(self, inner):
            self._inner = inner

        def ensure_cache_path(self):
            self._inner.ensure_cache_path()
            os.makedirs(self.get_cache_path(), exist_ok=True)

        def get_cache_path(self):
            """numba's own choice of folder, or `build_folder` inside it (a build other than the shipped one)."""
            path = self._inner.get_cache_path()
            return os.path.join(path, build_folder) if build_folder else path

        def get_disambiguator(self):
            return self._inner.get_disambiguator()

        @property
        def _py_file(self):
            """The source file, as numba's own locators have it: numba's "cannot cache" warning
            (e.g. with NUMBA_OPT=0, whose code keeps its large arrays as dynamic globals) names it."""
            return getattr(self._inner, "_py_file", self.claimed_files[0])

        def get_source_stamp(self):
            return source_stamp(self.files)

        @classmethod
        def from_function(cls, py_func, py_file):
            if _real(py_file) not in claimed_real:
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


def register(package_dir: str, kernel_files: tuple[str, ...], claimed: tuple[str, ...] | None = None,
             build_folder: str = ""):
    """Put a locator for the kernel of the package in `package_dir` first in numba's list (replacing
    the package's earlier one); return it, or None if numba's API is not as expected.

    `kernel_files`: every file whose code or module-level constants are compiled into the kernel
    (the source stamp); `claimed`: the files whose functions the locator serves (default: all of
    `kernel_files`); `build_folder`: a sub-folder of numba's cache folder for a build other than
    the shipped one (so switching builds recompiles nothing that is cached)."""
    claimed = tuple(kernel_files if claimed is None else claimed)
    if not claimed or not set(map(_real, claimed)) <= set(map(_real, kernel_files)):
        raise ValueError("kernel_cache.register: claimed files must be some of kernel_files")
    impl = _impl_class()
    if impl is None:
        return None
    impl._locator_classes[:] = [c for c in impl._locator_classes
                                if getattr(c, "kernel_package", None) != package_dir]
    locator = _make_locator(impl, _caching._CacheLocator, package_dir, tuple(kernel_files), claimed,
                            build_folder)
    impl._locator_classes.insert(0, locator)
    return locator
