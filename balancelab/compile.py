"""`balancelab compile`: compile the card games' batch kernels once (numba keeps them on disk), and
the report's background start of it on a machine where they are not compiled yet.

    balancelab compile                 # every game's kernel (about 2-3 minutes on a 2-core machine)
    balancelab compile nightsim        # one game's

`engine='auto'` plays a run shorter than compiling with the Python engine (the same games, record
for record), so nothing waits for this; once compiled, the report's card games play their kernels.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from analyses.kernels import cold_kernels, compile_kernels

#: set to 0 to keep `balancelab report` from compiling the kernels in the background (the tests do)
BACKGROUND_ENV = "BALANCELAB_BACKGROUND_COMPILE"
#: where the background compilation keeps its process id and its output
FOLDER = Path(tempfile.gettempdir())
PID_NAME, LOG_NAME = "balancelab-compile.pid", "balancelab-compile.log"


def run_compile(args) -> int:
    rows = compile_kernels(args.only or None)
    if not rows:
        print(f"no batch kernel to compile in {', '.join(args.only) if args.only else 'the installed games'}")
    return 0


def _running(pid_file: Path) -> bool:
    """True when the process named in `pid_file` is alive (a background compilation under way)."""
    try:
        pid = int(pid_file.read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def background_compile(games=None, env=None, folder: Path = FOLDER, popen=subprocess.Popen) -> str | None:
    """Start `balancelab compile` at the lowest priority in a process of its own when a kernel of
    `games` is not compiled; the note to print, or None when nothing was started (all compiled, one
    already running, BALANCELAB_BACKGROUND_COMPILE=0, or no POSIX priorities here)."""
    env = os.environ if env is None else env
    pid_file, log_file = Path(folder) / PID_NAME, Path(folder) / LOG_NAME
    if env.get(BACKGROUND_ENV, "1") == "0" or os.name != "posix" or _running(pid_file):
        return None
    cold = cold_kernels(games)
    if not cold:
        return None
    names = list(dict.fromkeys(game for game, _ in cold))
    with open(log_file, "w", encoding="utf-8") as log:
        process = popen([sys.executable, "-m", "balancelab", "compile", *names], stdout=log,
                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                        preexec_fn=_lowest_priority)  # noqa: PLW1509  (system calls only; no threads started yet)
    pid_file.write_text(str(process.pid))
    return (f"note: the {', '.join(names)} kernel(s) are not compiled yet: their runs here play the Python engine "
            f"(the same games), and `balancelab compile` is compiling them in the background at the lowest "
            f"priority (process {process.pid}, log {log_file}), so later reports play them")


def _lowest_priority() -> None:
    """The compiling process takes only CPU time nothing else wants: the idle scheduling class where the
    system has it, else nice 19. It stays in the report's session, since Linux shares CPU time between
    sessions before it weighs priorities (autogroups): in a session of its own, a nice 19 process took
    half the machine from the report. Its own process group keeps a Ctrl-C of the report from stopping it."""
    os.setpgrp()
    os.nice(19)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            pass            # not allowed here: nice 19 alone
