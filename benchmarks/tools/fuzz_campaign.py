"""A longer campaign of hostile inputs against the `balancelab` command line and the games' API.

    nice -n 5 python benchmarks/tools/fuzz_campaign.py --minutes 5 --seed 0

Each command line runs in its own process (`python -m balancelab ...`) with a 60 s timeout: the hostile
corpus of tests/analyses/hostile.py, then command lines made from it at random (numbers replaced by huge,
negative, fractional or text values, texts by random bytes, results files by mutated copies: another
game's name, doubled rows, edited metadata). Every output path given exists beforehand with known bytes.
Between processes, the API is fuzzed in this process (random seats and malformed actions for each game).
Prints: inputs tried, tracebacks, hangs over 60 s, files overwritten without --force, wrong-game files
accepted (all four should be 0).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "analyses"))
import hostile  # noqa: E402

from analyses.io import META_KEY  # noqa: E402

TIMEOUT = 60            # CPU seconds of one command line: more is a hang
WALL_TIMEOUT = 600      # wall seconds before a command line is killed (a shared machine may be slow)
SENTINEL = b"sentinel: must survive without --force\n"
NUMBERS = ["0", "-1", "-99999999999999999999", "1e9", "1.5", "nan", "inf", hostile.HUGE, "2**64", "", "0x10",
           "18446744073709551616", "9" * 5000]
TEXTS = ["", " ", "\x00", "../../etc/passwd", "a" * 10_000, "ismcts:0", "ismcts:1:c=-1", "random,", ",,,",
         "seat_balance(tolerance=nan)", "{}", "[]", "€", "players=0", "=", "a=b=c"]


def mutate(argv: list[str], rng: np.random.Generator) -> list[str]:
    """One argument of `argv` replaced by a hostile value (numbers by numbers, others by texts)."""
    argv = list(argv)
    if not argv:
        return argv
    i = int(rng.integers(len(argv)))
    pool = NUMBERS if argv[i].lstrip("-").replace(".", "").isdigit() else TEXTS + NUMBERS
    argv[i] = pool[int(rng.integers(len(pool)))]
    return argv


def mutated_results(folder: Path, rng: np.random.Generator, k: int) -> Path:
    """A copy of the good results file that is not a valid run of the game it names."""
    table = pq.read_table(folder / "good.parquet")
    attrs = json.loads(table.schema.metadata[META_KEY])
    choice = int(rng.integers(6))
    if choice == 0:
        attrs["game"] = ["nerathsim", "dreamsim"][int(rng.integers(2))]
    elif choice == 1:
        attrs["rules"] = {**attrs["rules"], "players": int(rng.choice([1, 2, 3, 5, 6]))}
    elif choice == 2:
        attrs["data_hashes"] = {k_: "f" * 64 for k_ in attrs.get("data_hashes", {"cards": 0})}
    elif choice == 3:
        table = pa.concat_tables([table, table.slice(0, int(rng.integers(1, 4)))])
    elif choice == 4:
        frame = table.to_pandas()
        frame.loc[int(rng.integers(len(frame))), "turns"] = -int(rng.integers(1, 100))
        table = pa.Table.from_pandas(frame, preserve_index=False)
    else:
        frame = table.to_pandas().drop(columns=[f"seat{int(rng.integers(4))}_score"])
        table = pa.Table.from_pandas(frame, preserve_index=False)
    path = folder / f"mutant-{k}.parquet"
    pq.write_table(table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: json.dumps(attrs)}), path)
    return path


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cli(argv: list[str], cwd: Path) -> tuple[int | None, str, float]:
    """(exit code or None when killed or over TIMEOUT CPU seconds, stderr, CPU seconds of the process)."""
    cpu = _child_cpu()
    env = {**os.environ, "BALANCELAB_CRASH_DIR": str(cwd / "crashes")}
    try:
        done = subprocess.run([sys.executable, "-m", "balancelab", *argv], cwd=cwd, capture_output=True, text=True,
                              timeout=WALL_TIMEOUT, env=env, errors="replace")
        used = _child_cpu() - cpu
        return (None if used > TIMEOUT else done.returncode), done.stderr, used
    except subprocess.TimeoutExpired:
        return None, "", _child_cpu() - cpu
    except ValueError:     # an argument with a NUL byte cannot even be passed to a process
        return 2, "balancelab: (argument not passable)", 0.0


def fuzz_api(rng: np.random.Generator) -> tuple[int, int]:
    """(inputs, unexpected exceptions): random seats for observe, malformed actions for apply_action."""
    tried = bad = 0
    for game in ("nightsim", "dreamsim", "nerathsim"):
        module = __import__(game)
        engine = observation = module     # the protocol's names, at each package's top level
        s = engine.new_game(module.Rules(), int(rng.integers(1000)))
        legal = engine.legal_actions(s)
        for _ in range(20):
            tried += 1
            seat = int(rng.choice([-1, -5, s.n, 10**6, int(rng.integers(s.n))]))
            try:
                observation.observe(s, seat)
            except ValueError:
                pass
            except Exception:  # noqa: BLE001
                bad += 1
            tried += 1
            kind = type(legal[int(rng.integers(len(legal)))])
            values = [rng.choice([-1, 10**6, None, "x", 0]) for _ in getattr(kind, "_fields", ())]
            try:
                action = kind(*[v.item() if hasattr(v, "item") else v for v in values])
            except (TypeError, ValueError):
                continue
            if action in legal:
                continue
            try:
                engine.apply_action(s, action, np.random.default_rng(0))
                bad += 1                      # a malformed action must not be applied
            except ValueError:
                pass
            except Exception:  # noqa: BLE001
                bad += 1
        for seed in (None,):
            tried += 1
            try:
                engine.new_game(module.Rules(), seed)
                bad += 1
            except ValueError:
                pass
    return tried, bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    deadline = time.perf_counter() + args.minutes * 60
    work = Path(tempfile.mkdtemp(prefix="balancelab-fuzz-"))
    files = hostile.make_files(work / "files")
    tried = tracebacks = hangs = overwritten = wrong_game = slowest = 0
    api_tried = api_bad = 0
    k = 0
    while time.perf_counter() < deadline:
        name, argv, _ = hostile.CASES[k % len(hostile.CASES)]
        argv = [a.replace("{d}", str(files)) for a in argv]
        if k >= len(hostile.CASES):
            argv = mutate(argv, rng)
        wrong = None
        if k % 5 == 4:               # a results file that is not a valid run of its game
            wrong = mutated_results(files, rng, k)
            argv = [["winrates", "fpa", "length"][k % 3], "--in", str(wrong)]
        cwd = work / f"case-{k}"
        cwd.mkdir()
        outs = [cwd / "out.parquet", cwd / "out.csv", cwd / "out.meta.json", cwd / "balance-report.html",
                cwd / "out.json"]
        argv = [str(outs[0]) if a.endswith("x.parquet") else a for a in argv]
        if "--out" not in argv and argv and argv[0] in ("simulate", "report", "tune-policy", "ladder"):
            argv += ["--out", str(outs[4] if argv[0] in ("tune-policy", "ladder") else outs[3]
                                  if argv[0] == "report" else outs[0])]
        for out in outs:
            out.write_bytes(SENTINEL)
        code, err, seconds = run_cli(argv, cwd)
        tried += 1
        slowest = max(slowest, seconds)
        if code is None:
            hangs += 1
            print(f"hang: {argv}", file=sys.stderr)
        elif code == 1 or "Traceback" in err:
            tracebacks += 1
            print(f"traceback ({code}): {argv}\n  {err.strip().splitlines()[-1:]}", file=sys.stderr)
        if "--force" not in argv and any(out.read_bytes() != SENTINEL for out in outs if out.exists()):
            overwritten += 1
            print(f"overwritten: {argv}", file=sys.stderr)
        if wrong is not None and code == 0:
            wrong_game += 1
            print(f"accepted: {wrong}", file=sys.stderr)
        a, b = fuzz_api(rng)
        api_tried, api_bad = api_tried + a, api_bad + b
        k += 1
    print(f"command lines tried: {tried} (corpus {min(tried, len(hostile.CASES))}, generated "
          f"{max(0, tried - len(hostile.CASES))}); API calls tried: {api_tried}")
    print(f"inputs tried: {tried + api_tried}")
    print(f"tracebacks: {tracebacks + api_bad}")
    print(f"hangs over {TIMEOUT} s: {hangs} (CPU seconds of one command line; the slowest took {slowest:.1f} s)")
    print(f"files overwritten without --force: {overwritten}")
    print(f"wrong-game files accepted: {wrong_game}")


if __name__ == "__main__":
    main()
