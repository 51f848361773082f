"""Writing output files safely: exclusive temporary files, checked paths, no overwrite without --force,
one writer per run.

- `atomic_write(path, write)`: the data goes to a temporary file created exclusively (O_EXCL, a random
  name in the target's folder, so a link planted at a predictable name is never followed), then is
  renamed over `path` (a rename replaces a link at `path` itself, never the file it points to).
- `check_new_file(path, flag, force)`: before any work, `path` can be written (its folder exists or can
  be made, and we may write there) and it does not exist yet, unless `force`.
- `run_lock(path)`: an exclusive lock (flock) on `<path>.lock` held while a run writes `path` and its
  parts folder; a second writer gets "in use by process N". The kernel drops the lock when the process
  dies, so a killed run never leaves a stale lock behind.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()


def atomic_write(path, write: Callable[[Path], object]) -> Path:
    """Call `write(tmp)` on a fresh, exclusively created temporary file beside `path`, then rename it
    onto `path`; the temporary file is removed on any failure."""
    path = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.fchmod(fd, 0o666 & ~_UMASK)           # mkstemp's 0600, widened to what a plain open() would give
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def write_text(path, text: str) -> Path:
    """`text` (UTF-8) written to `path` atomically through an exclusive temporary file."""
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def exists(path) -> bool:
    """True for a file, a folder or a link (a dangling link too) at `path`."""
    return os.path.lexists(path)


def check_writable(path, flag: str) -> Path:
    """`path` can be created as a file: not a folder, and the first existing folder above it is one we
    may write in (ValueError naming `flag` otherwise)."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{flag} {path}: is a folder; give a file name")
    check_folder(path.parent, flag, path)
    return path


def check_folder(folder, flag: str, given) -> None:
    """The first existing folder at or above `folder` is a folder we may write in (ValueError naming
    `flag` and the path `given` otherwise)."""
    existing = Path(folder)
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{flag} {given}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{flag} {given}: no permission to write in {existing}")


def check_new_file(path, flag: str, force: bool = False, what: str = "") -> Path:
    """`check_writable`, and `path` does not exist unless `force` (it is then replaced at the end)."""
    path = check_writable(path, flag)
    if exists(path) and not force:
        kind = "is a link" if path.is_symlink() else "exists"
        raise ValueError(f"{flag} {path} {kind}{' (' + what + ')' if what else ''}; give another name, or add "
                         f"--force to replace it")
    return path


def lock_path(path) -> Path:
    path = Path(path)
    return path.with_name(path.name + ".lock")


@contextlib.contextmanager
def run_lock(path) -> Iterator[Path]:
    """Hold an exclusive lock on `path`'s run while the block runs (ValueError "in use by process N" when
    another process holds it). The lock file is removed at the end."""
    lock = lock_path(path)
    lock.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise ValueError(f"{str(path)!r} is in use by process {holder} (lock {lock.name}); wait for it to "
                             f"finish, or stop it") from None
        # the holder before us may have removed the file after we opened it: lock the file at the path
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(lock, follow_symlinks=False))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield lock
    finally:
        with contextlib.suppress(OSError):
            lock.unlink()
        os.close(fd)
