"""Mutation testing of the engines and the statistics: do the tests notice a planted bug?

A small AST-based runner of our own. Why not mutmut or cosmic-ray: mutmut 3 rewrites every
function into a trampoline inside a `mutants/` copy and expects one package with its tests
under it, and cosmic-ray needs a session database, a config file per run and an operator
plug-in layer — both also mutate log/message text we want to skip, and neither is installed.
What we need fits in one file: a seeded sample of single-point mutants per file, each run
against a chosen list of that package's tests, in a temporary copy of the tree.

Mutants (one change each, located by the AST and spliced into the original source, so every
other byte — and so every line number — stays as it was):
  comparison  <  <=  >  >=  ==  !=  in  not in  is  is not  flipped to its neighbour
  boolean     and <-> or;  `not x` -> `x`;  `if x` / `while x` / `a if x else b` -> `not x`
  arithmetic  + <-> -,  * -> /,  / -> *,  // -> /,  % -> //,  & <-> |,  << <-> >>,  ** -> *
              (also in `+=`-style updates);  `-x` -> `x`
  constant    integer n -> n + 1 and n - 1;  float x -> x + 1;  True <-> False
  statement   an assignment, update, call or raise dropped (-> pass);  `return x` -> `return None`;
              break <-> continue
Skipped (they cannot change a rule or a number): string constants and f-strings, docstrings,
type annotations, decorators, `__slots__`/`__all__`, `__repr__`/`__str__`, and every
statement that only writes the event log (`_event(...)`, `s.log is None or ...`, `.log`).

Each mutant runs `pytest -x` on the target's test list (most specific files first, so a
killed mutant dies fast) with a timeout of 3 x the unmutated run (a timeout counts as
killed: the mutant hangs a test). A warm worker process imports numpy/scipy/pandas/pytest
once and forks a fresh interpreter state per run, so a mutant pays only for our own code.
Hypothesis runs derandomized with no example database,
so a run is a function of (tree, --seed). Survivors judged equivalent (no behaviour can
tell them apart) are listed with the reason in `benchmarks/tools/mutation_equivalent.txt` and left
out of the kill rate.

Usage (from the repository root; the temporary copy is made from the current directory):
  PYTHONPATH=$PWD python benchmarks/tools/mutation.py                       # 60 per file, seed 20
  PYTHONPATH=$PWD python benchmarks/tools/mutation.py -n 10 --files analyses/stats.py
  PYTHONPATH=$PWD python benchmarks/tools/mutation.py --list dreamsim/engine/engine.py | grep _startrap
  PYTHONPATH=$PWD python benchmarks/tools/mutation.py --mutant dreamsim/engine/engine.py:123 --show
  PYTHONPATH=$PWD python benchmarks/tools/mutation.py --mutant dreamsim/engine/engine.py:123 \
      --tests tests/dreamsim/test_dreamsim_mutation_survivors.py               # does this test kill it?
"""
from __future__ import annotations

import argparse
import ast
import copy
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT_FILE = ROOT / "benchmarks" / "tools" / "mutation_equivalent.txt"

#: file -> its tests, most specific first (globs; a file is run once, at its first match).
TARGETS: dict[str, list[str]] = {
    # the shared core: its own tests first, then the games that build on it
    "simcore/result.py": ["tests/simcore/test_simcore_result.py", "tests/test_protocol.py"],
    "simcore/policies.py": ["tests/simcore/test_simcore_policies.py", "tests/analyses/test_analyses_tune.py"],
    "simcore/equality.py": ["tests/simcore/test_simcore_equality.py"],
    "simcore/rules.py": ["tests/simcore/test_simcore_rules.py", "tests/test_protocol.py"],
    "simcore/stream.py": ["tests/simcore/test_simcore_stream.py", "tests/simcore/test_simcore_chance_stream.py"],
    "simcore/deal.py": ["tests/simcore/test_simcore_deal.py"],
    "nerathsim/parity.py": ["tests/nerathsim/test_nerath_parity.py"],
    "nerathsim/policies/war.py": ["tests/nerathsim/test_nerath_realm_policy.py", "tests/nerathsim/test_nerath_policy_boundary.py",
                                  "tests/nerathsim/test_nerath_defence.py"],
    "analyses/search/macro.py": ["tests/analyses/test_analyses_macro_skip.py", "tests/analyses/test_analyses_macro_search.py",
                                 "tests/analyses/test_analyses_macro_default.py"],
    "nightsim/engine/engine.py": ["tests/nightsim/test_nightsim_rules.py", "tests/nightsim/test_*.py"],
    "nightsim/engine/state.py": ["tests/nightsim/test_nightsim_rules.py", "tests/nightsim/test_*.py"],
    "nightsim/engine/turn.py": ["tests/nightsim/test_nightsim_rules.py", "tests/nightsim/test_*.py"],
    "nightsim/engine/creatures.py": ["tests/nightsim/test_nightsim_rules.py", "tests/nightsim/test_*.py"],
    "nightsim/engine/penalty.py": ["tests/nightsim/test_nightsim_rules.py", "tests/nightsim/test_*.py"],
    "dreamsim/engine/engine.py": ["tests/dreamsim/test_dreamsim_rules.py", "tests/dreamsim/test_*mutation*.py",
                                  "tests/dreamsim/test_*.py"],
    # the Midnighters rules core: the turn, a card play to its resolution, the hand topped up
    "dreamsim/engine/turn.py": ["tests/dreamsim/test_dreamsim_rules.py", "tests/dreamsim/test_*mutation*.py",
                                "tests/dreamsim/test_*.py"],
    # the engine package, module by module: the full-game tests, cards and dungeons (the battle-maths files never
    # import it; the slow hypothesis file test_nerath_cards_properties.py is left out: a shorter list can only
    # under-count kills)
    **{f"nerathsim/engine/{m}.py": ["tests/nerathsim/test_nerath_game_rules_config.py",
                                    "tests/nerathsim/test_nerath_game_movement.py", "tests/nerathsim/test_nerath_game_phases.py",
                                    "tests/nerathsim/test_nerath_game_combat.py", "tests/nerathsim/test_nerath_game_*.py",
                                    "tests/nerathsim/test_*mutation*.py", "tests/nerathsim/test_nerath_cards.py",
                                    "tests/nerathsim/test_nerath_dungeons.py"]
       for m in ("state", "common", "terrain", "windows", "turn", "movement", "fight", "dungeons", "combat",
                 "reinforce", "dispatch", "setup")},
    # one battle: its own hand-built battles with rigged dice first (the luck figure, drowning, the logged rolls)
    "nerathsim/engine/fight.py": ["tests/nerathsim/test_nerath_fight_mutation_survivors.py",
                                  "tests/nerathsim/test_nerath_game_combat.py", "tests/nerathsim/test_nerath_game_*.py",
                                  "tests/nerathsim/test_*mutation*.py", "tests/nerathsim/test_nerath_cards.py",
                                  "tests/nerathsim/test_nerath_dungeons.py"],
    # the reference battle procedure, split along the seed's steps
    "nerathsim/battle/army.py": ["tests/nerathsim/test_nerath_combat.py", "tests/nerathsim/test_nerath_mc.py",
                                 "tests/nerathsim/test_nerath_exact.py", "tests/nerathsim/test_*mutation*.py",
                                 "tests/nerathsim/test_*.py"],
    "nerathsim/battle/steps.py": ["tests/nerathsim/test_nerath_combat.py", "tests/nerathsim/test_nerath_mc.py",
                                  "tests/nerathsim/test_nerath_exact.py", "tests/nerathsim/test_*mutation*.py",
                                  "tests/nerathsim/test_*.py"],
    "nerathsim/battle/casualties.py": ["tests/nerathsim/test_nerath_combat.py", "tests/nerathsim/test_nerath_mc.py",
                                       "tests/nerathsim/test_nerath_exact.py", "tests/nerathsim/test_*mutation*.py",
                                       "tests/nerathsim/test_*.py"],
    "nerathsim/battle/combat.py": ["tests/nerathsim/test_nerath_combat.py", "tests/nerathsim/test_nerath_mc.py",
                                   "tests/nerathsim/test_nerath_exact.py", "tests/nerathsim/test_*mutation*.py",
                                   "tests/nerathsim/test_*.py"],
    # the battle maths: the files that exercise it (the full nerathsim suite takes 2 minutes under load, these
    # 25 s; a shorter list can only under-count kills); test_nerath_limits.py holds the size check's boundary
    "nerathsim/battle/exact.py": ["tests/nerathsim/test_nerath_exact.py", "tests/nerathsim/test_nerath_exact_plan_chain.py",
                                  "tests/nerathsim/test_nerath_limits.py",
                                  "tests/nerathsim/test_nerath_odds.py", "tests/nerathsim/test_nerath_shortcuts_odds_sum_reachers.py",
                                  "tests/nerathsim/test_*mutation*.py", "tests/nerathsim/test_nerath_mc.py",
                                  "tests/nerathsim/test_nerath_combat.py", "tests/nerathsim/test_nerath_game_combat.py"],
    # the search: tiny hand-built games with exact visit counts first, then the searches of real positions
    "analyses/search/ismcts.py": ["tests/analyses/test_analyses_ismcts_mutation_survivors.py",
                                  "tests/analyses/test_analyses_ismcts.py", "tests/analyses/test_analyses_ismcts_options.py",
                                  "tests/analyses/test_analyses_ismcts_default.py"],
    "analyses/stats.py": ["tests/analyses/test_analyses_stats.py", "tests/analyses/test_analyses_bradley_terry_exact.py",
                          "tests/analyses/test_*mutation*.py",
                          "tests/analyses/test_analyses_questions.py", "tests/analyses/test_analyses_card_impact.py",
                          "tests/analyses/test_analyses_coverage.py"],
    # the deal-as-the-unit statistics: exact hand-built values first, then the coverage simulations
    "analyses/clusters.py": ["tests/analyses/test_analyses_clusters_exact.py", "tests/analyses/test_analyses_paired_designs.py",
                             "tests/analyses/test_analyses_card_impact.py", "tests/analyses/test_analyses_opening_impact.py"],
    "analyses/rebalance_confirm.py": ["tests/analyses/test_analyses_rebalance_confirm_exact.py",
                                      "tests/analyses/test_analyses_rebalance_confirm.py",
                                      "tests/analyses/test_analyses_confirm_coverage.py"],
    # which findings a report states and in what order: hand-built tables with exact sentences, selection and
    # order first, then the confirmation runs and the report's words
    **{f"analyses/{m}.py": ["tests/analyses/test_analyses_findings*mutation*.py",
                            "tests/analyses/test_analyses_findings_cards.py",
                            "tests/analyses/test_analyses_findings_confirm.py", "tests/reports/test_reports_findings.py",
                            "tests/reports/test_reports_words.py", "tests/analyses/test_analyses_assumptions.py"]
       for m in ("findings", "findings_confirm", "findings_format")},
    # a claim's robustness line: luck, the skill ladder and the readings of the rules
    "analyses/robustness.py": ["tests/analyses/test_analyses_findings*mutation*.py",
                               "tests/analyses/test_analyses_assumptions.py",
                               "tests/analyses/test_analyses_findings_confirm.py"],
}

PYTEST_ARGS = ["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-m", "not slow", "--no-header",
               "-W", "ignore::DeprecationWarning"]
LOG_CALLS = {"_event", "_log", "log_event"}
TEXT_FUNCS = {"__repr__", "__str__", "__format__", "format_log", "describe", "_event"}
SKIP_NAMES = {"__slots__", "__all__", "__version__"}

_CMP_FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
             ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BIN_FLIP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
             ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift,
             ast.RShift: ast.LShift, ast.Pow: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    file: str
    index: int          # position in the file's full list of candidates (source order)
    line: int
    function: str       # enclosing def (qualified), "" at module level
    kind: str
    start: tuple        # (lineno, col_offset) of the replaced node (col in UTF-8 bytes)
    end: tuple
    original: str
    replacement: str
    context: str        # the source line the mutant starts on

    @property
    def key(self) -> str:
        """Identity without line numbers (they drift as the code changes):
        file::function::source line::before -> after."""
        return (f"{self.file}::{self.function}::{_squash(self.context)}::{_squash(self.original)} -> "
                f"{_squash(self.replacement)}")

    def describe(self, width: int = 110) -> str:
        text = f"{_squash(self.original)}  ->  {_squash(self.replacement)}"
        if len(text) > width:
            text = text[:width - 1] + "…"
        return f"{self.file}:{self.line} [{self.kind}] in {self.function or '<module>'}: {text}"


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ----------------------------------------------------------------------------------------
# Finding mutants
# ----------------------------------------------------------------------------------------
class _Collector(ast.NodeVisitor):
    def __init__(self, source: str):
        self.source = source
        self.found: list[tuple] = []   # (node, kind, replacement source, function)
        self.scope: list[str] = []

    # -- helpers ---------------------------------------------------------------------------
    def _add(self, node, kind: str, new_node_or_text) -> None:
        text = new_node_or_text if isinstance(new_node_or_text, str) else ast.unparse(new_node_or_text)
        if not isinstance(new_node_or_text, str) and isinstance(node, ast.expr):
            text = f"({text})"
        self.found.append((node, kind, text, ".".join(self.scope)))

    def _is_log(self, node) -> bool:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                f = sub.func
                name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else None)
                if name in LOG_CALLS:
                    return True
            if isinstance(sub, ast.Attribute) and sub.attr == "log":
                return True
        return False

    def _drop(self, stmt) -> None:
        self._add(stmt, "drop", "pass")

    # -- scopes ----------------------------------------------------------------------------
    def _function(self, node) -> None:
        if node.name in TEXT_FUNCS:
            return
        self.scope.append(node.name)
        for arg_default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(arg_default)
        self._body(node.body)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node) -> None:
        self.scope.append(node.name)
        self._body(node.body)
        self.scope.pop()

    def visit_Module(self, node) -> None:
        self._body(node.body)

    def _body(self, body) -> None:
        for i, stmt in enumerate(body):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                continue  # docstring
            self.visit(stmt)

    # -- statements ------------------------------------------------------------------------
    def visit_Import(self, node) -> None:
        return

    visit_ImportFrom = visit_Global = visit_Nonlocal = visit_Import

    def visit_If(self, node) -> None:
        if self._is_log(node.test):
            return
        if isinstance(node.test, ast.Compare) and ast.unparse(node.test) == "__name__ == '__main__'":
            return
        self._negate(node.test)
        self.visit(node.test)
        self._body(node.body)
        self._body(node.orelse)

    def visit_While(self, node) -> None:
        self._negate(node.test)
        self.visit(node.test)
        self._body(node.body)
        self._body(node.orelse)

    def visit_For(self, node) -> None:
        self.visit(node.iter)
        self._body(node.body)
        self._body(node.orelse)

    def visit_With(self, node) -> None:
        for item in node.items:
            self.visit(item.context_expr)
        self._body(node.body)

    def visit_Try(self, node) -> None:
        self._body(node.body)
        for h in node.handlers:
            self._body(h.body)
        self._body(node.orelse)
        self._body(node.finalbody)

    def _negate(self, test) -> None:
        if isinstance(test, (ast.Compare, ast.BoolOp)) or (isinstance(test, ast.UnaryOp)
                                                           and isinstance(test.op, ast.Not)):
            return  # those have their own mutants
        self._add(test, "negate", ast.UnaryOp(ast.Not(), copy.deepcopy(test)))

    def _simple(self, node, *children) -> bool:
        if self._is_log(node):
            return False
        self._drop(node)
        for c in children:
            if c is not None:
                self.visit(c)
        return True

    def visit_Assign(self, node) -> None:
        if any(isinstance(t, ast.Name) and t.id in SKIP_NAMES for t in node.targets):
            return
        self._simple(node, node.value, *[t for t in node.targets if not isinstance(t, ast.Name)])

    def visit_AnnAssign(self, node) -> None:
        if node.value is not None:
            self._simple(node, node.value)

    def visit_AugAssign(self, node) -> None:
        if self._is_log(node):
            return
        self._drop(node)
        flip = _BIN_FLIP.get(type(node.op))
        if flip:
            new = copy.deepcopy(node)
            new.op = flip()
            self._add(node, "arith", ast.unparse(new))
        self.visit(node.value)

    def visit_Expr(self, node) -> None:
        if isinstance(node.value, ast.Constant):
            return
        if isinstance(node.value, ast.Call):
            self._simple(node, node.value)
        elif not self._is_log(node):
            self.visit(node.value)

    def visit_Raise(self, node) -> None:
        self._drop(node)  # the message itself is text: not mutated

    def visit_Assert(self, node) -> None:
        self._drop(node)
        self.visit(node.test)

    def visit_Return(self, node) -> None:
        if node.value is None:
            return
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            self._add(node, "return", "return None")
        self.visit(node.value)

    def visit_Break(self, node) -> None:
        self._add(node, "flow", "continue")

    def visit_Continue(self, node) -> None:
        self._add(node, "flow", "break")

    # -- expressions -----------------------------------------------------------------------
    def visit_JoinedStr(self, node) -> None:
        return  # message text

    def visit_Lambda(self, node) -> None:
        self.visit(node.body)

    def visit_Compare(self, node) -> None:
        for i, op in enumerate(node.ops):
            flip = _CMP_FLIP.get(type(op))
            if flip:
                new = copy.deepcopy(node)
                new.ops[i] = flip()
                self._add(node, "compare", new)
        self.generic_visit(node)

    def visit_BoolOp(self, node) -> None:
        if self._is_log(node):
            return
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self._add(node, "boolean", new)
        self.generic_visit(node)

    def visit_UnaryOp(self, node) -> None:
        if isinstance(node.op, (ast.Not, ast.USub)):
            self._add(node, "unary", copy.deepcopy(node.operand))
        self.generic_visit(node)

    def visit_IfExp(self, node) -> None:
        self._negate(node.test)
        self.generic_visit(node)

    def visit_BinOp(self, node) -> None:
        flip = _BIN_FLIP.get(type(node.op))
        if flip and not (isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant)):  # "%" formatting
            new = copy.deepcopy(node)
            new.op = flip()
            self._add(node, "arith", new)
        self.generic_visit(node)

    def visit_Constant(self, node) -> None:
        v = node.value
        if isinstance(v, bool):
            self._add(node, "constant", ast.Constant(not v))
        elif isinstance(v, int):
            self._add(node, "constant", ast.Constant(v + 1))
            self._add(node, "constant", ast.Constant(v - 1))
        elif isinstance(v, float):
            self._add(node, "constant", ast.Constant(v + 1.0))


def find_mutants(file: str, root: Path = ROOT) -> list[Mutant]:
    """Every candidate mutant of `file` (relative to root), in source order."""
    data = (root / file).read_bytes()
    source = data.decode("utf-8")
    collector = _Collector(source)
    collector.visit(ast.parse(source))
    starts = _line_starts(data)
    out = []
    for i, (node, kind, text, func) in enumerate(collector.found):
        a = starts[node.lineno - 1] + node.col_offset
        b = starts[node.end_lineno - 1] + node.end_col_offset
        original = data[a:b].decode("utf-8")
        line = data[starts[node.lineno - 1]:starts[node.lineno]].decode("utf-8")
        out.append(Mutant(file, i, node.lineno, func, kind, (node.lineno, node.col_offset),
                          (node.end_lineno, node.end_col_offset), original, text, line))
    return out


def _line_starts(data: bytes) -> list[int]:
    """Byte offset of each line's start (AST columns are UTF-8 byte offsets)."""
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def mutated_source(m: Mutant, root: Path = ROOT) -> bytes:
    data = (root / m.file).read_bytes()
    starts = _line_starts(data)
    a = starts[m.start[0] - 1] + m.start[1]
    b = starts[m.end[0] - 1] + m.end[1]
    return data[:a] + m.replacement.encode("utf-8") + data[b:]


def sample(mutants: list[Mutant], n: int, seed: int, file: str) -> list[Mutant]:
    """`n` mutants drawn without replacement; the draw depends on (seed, file name) only."""
    if n >= len(mutants):
        return list(mutants)
    rng = np.random.default_rng(np.random.SeedSequence([seed, zlib.crc32(file.encode())]))
    picked = sorted(rng.choice(len(mutants), size=n, replace=False).tolist())
    return [mutants[i] for i in picked]


def load_equivalent(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """key -> reason, from lines `key  # reason` (blank lines and lines starting with # ignored)."""
    out = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, reason = line.partition("  # ")
            out[_squash(key)] = reason.strip()
    return out


# ----------------------------------------------------------------------------------------
# Running
# ----------------------------------------------------------------------------------------
def test_files(file: str, root: Path, override: list[str] | None = None) -> list[str]:
    out: list[str] = []
    for pattern in override or TARGETS[file]:
        for path in sorted(glob.glob(str(root / pattern))) or ([str(root / pattern)] if override else []):
            rel = os.path.relpath(path, root)
            if rel not in out and not rel.endswith(("conftest.py",)) and os.path.basename(rel).startswith("test"):
                out.append(rel)
    return out


def copy_tree(src: Path) -> Path:
    dst = Path(tempfile.mkdtemp(prefix="balancelab-mutation-")) / "tree"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info", "*.pyc", "build", "dist", ".venv"))
    return dst


class Worker:
    """A warm pytest runner: a child interpreter that imports the heavy libraries (numpy,
    scipy, pandas, pytest, Hypothesis) once and then forks a fresh process per test run, so
    each mutant pays for importing only our own (mutated) code. One tree copy per worker."""

    def __init__(self, tree: Path):
        self.tree = tree
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
                   OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve"], cwd=tree, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, tests: list[str], timeout: float) -> tuple[str, float, str]:
        """('passed' | 'failed' | 'error' | 'timeout', seconds, last output line)."""
        self.proc.stdin.write(json.dumps(dict(tests=tests, timeout=timeout)) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        return reply["status"], reply["seconds"], reply["last"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def serve() -> int:
    """The worker loop (`--serve`): one JSON request per line on stdin, one reply per line."""
    # lazy: only the --serve worker preloads these, once, for every test run it forks
    import pandas  # noqa: F401, PLC0415
    import pytest  # noqa: PLC0415
    import scipy.optimize  # noqa: F401, PLC0415
    import scipy.stats  # noqa: F401, PLC0415
    from hypothesis import settings  # noqa: PLC0415
    settings.register_profile("mutation", derandomize=True, database=None, print_blob=False)
    settings.load_profile("mutation")
    sys.path.insert(0, os.getcwd())
    reply_to = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        log = tempfile.TemporaryFile()
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # the child: pytest on the tree as it is now, output to the log file
            os.setsid()
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            code = 3
            try:
                code = int(pytest.main([*PYTEST_ARGS, *req["tests"]]))
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        status = None
        while status is None:
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(raw)
                status = {0: "passed", 1: "failed", 2: "failed"}.get(code, "error")  # 2: import/collection broke
            elif time.perf_counter() - t0 > req["timeout"]:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                status = "timeout"
            else:
                time.sleep(0.02)
        log.seek(0)
        lines = [ln for ln in log.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        log.close()
        reply_to.write(json.dumps(dict(status=status, seconds=time.perf_counter() - t0,
                                       last=lines[-1] if lines else "")) + "\n")
        reply_to.flush()
    return 0


def run_mutant(m: Mutant, worker: Worker, tests: list[str], timeout: float) -> dict:
    tree = worker.tree
    target = tree / m.file
    original = target.read_bytes()
    new = mutated_source(m, tree)
    try:
        compile(new, m.file, "exec")
    except SyntaxError:
        return dict(status="invalid", seconds=0.0, last="")
    try:
        target.write_bytes(new)
        status, seconds, last = worker.run(tests, timeout)
    finally:
        target.write_bytes(original)
    return dict(status=status, seconds=seconds, last=last)


def _verdict(status: str) -> str:
    return {"failed": "killed", "timeout": "killed", "passed": "survived"}.get(status, status)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", "--per-file", type=int, default=60, help="mutants sampled per file (default 60)")
    ap.add_argument("--seed", type=int, default=20, help="sampling seed (default 20)")
    ap.add_argument("--files", nargs="*", default=list(TARGETS), help="files to mutate (default: all targets)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once (one tree copy each)")
    ap.add_argument("--timeout-factor", type=float, default=3.0)
    ap.add_argument("--list", metavar="FILE", help="list every candidate mutant of FILE and exit")
    ap.add_argument("--mutant", action="append", metavar="FILE:INDEX", help="run these mutants (index from --list)")
    ap.add_argument("--show", action="store_true", help="with --mutant: print the mutated lines, do not run")
    ap.add_argument("--tests", nargs="*", help="test files/globs to run instead of the target's list")
    ap.add_argument("--json", metavar="PATH", help="write every mutant's record to PATH")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        return serve()
    root = Path.cwd()

    if args.list:
        for m in find_mutants(args.list, root):
            print(f"{m.index:5d}  {m.describe()}")
        return 0
    if args.mutant:
        chosen: dict[str, list[Mutant]] = {}
        found: dict[str, list[Mutant]] = {}
        for spec in args.mutant:
            file, _, idx = spec.rpartition(":")
            if file not in found:
                found[file] = find_mutants(file, root)
            chosen.setdefault(file, []).append(found[file][int(idx)])
        if args.show:
            for ms in chosen.values():
                for m in ms:
                    print(m.describe(10_000))
                    new = mutated_source(m, root).decode().splitlines()
                    print("\n".join(f"    {i + 1:5d}| {new[i]}" for i in range(m.line - 1, min(len(new), m.end[0]))))
            return 0
    else:
        for file in args.files:
            if file not in TARGETS and not args.tests:
                ap.error(f"{file} is not a target ({', '.join(TARGETS)}); give --tests for it")
        chosen = {f: sample(find_mutants(f, root), args.per_file, args.seed, f) for f in args.files}

    equivalent = load_equivalent(root / "benchmarks" / "tools" / "mutation_equivalent.txt")
    workers = [Worker(copy_tree(root)) for _ in range(max(1, args.jobs))]
    records, summary = [], []
    print(f"mutation run: seed {args.seed}, {args.per_file} per file, jobs {args.jobs}, tree {root}", flush=True)
    try:
        for file, mutants in chosen.items():
            tests = test_files(file, workers[0].tree, args.tests)
            status, base, last = workers[0].run(tests, timeout=1800)
            if status != "passed":
                print(f"{file}: the unmutated tests do not pass ({last}); skipped", flush=True)
                continue
            timeout = max(30.0, args.timeout_factor * base + 10)
            print(f"\n{file}: {len(mutants)} mutants, {len(tests)} test files, clean run {base:.1f} s, "
                  f"timeout {timeout:.0f} s", flush=True)
            free = list(workers)

            def job(m):
                worker = free.pop()
                try:
                    return m, run_mutant(m, worker, tests, timeout)
                finally:
                    free.append(worker)

            counts = dict(killed=0, survived=0, equivalent=0, invalid=0, error=0)
            survivors = []
            with ThreadPoolExecutor(max_workers=len(workers)) as pool:
                for m, res in pool.map(job, mutants):
                    verdict = _verdict(res["status"])
                    if verdict == "survived" and m.key in equivalent:
                        verdict = "equivalent"
                    counts[verdict] = counts.get(verdict, 0) + 1
                    records.append(dict(asdict(m), key=m.key, verdict=verdict, **res))
                    if verdict == "survived":
                        survivors.append(m)
                    mark = {"killed": ".", "survived": "S", "equivalent": "e", "invalid": "i"}.get(verdict, "E")
                    print(mark, end="", flush=True)
            judged = counts["killed"] + counts["survived"]
            rate = counts["killed"] / judged if judged else float("nan")
            summary.append((file, len(mutants), counts, rate))
            print(f"\n{file}: killed {counts['killed']}/{judged} non-equivalent = {100 * rate:.1f}% "
                  f"(equivalent {counts['equivalent']}, invalid {counts['invalid']}, error {counts['error']})")
            for m in survivors:
                print(f"  SURVIVED #{m.index}: {m.describe()}")
    finally:
        for worker in workers:
            worker.close()
            shutil.rmtree(worker.tree.parent, ignore_errors=True)

    print("\nfile                         sampled  killed  survived  equivalent  kill rate (non-equivalent)")
    for file, n, c, rate in summary:
        print(f"{file:28s} {n:7d} {c['killed']:7d} {c['survived']:9d} {c['equivalent']:11d}  {100 * rate:6.1f}%")
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
