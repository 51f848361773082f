"""Automatic re-balancing: the smallest rule change that fixes an imbalance, and a fresh run that proves it.

    import analyses
    r = analyses.rebalance("nightsim", "seat_balance", knobs="last_seat_extra_cards,hand_size",
                           policies="greedy", budget="30m", n_jobs=2, store="runs/rebalance-night")
    r.proposal, r.table, r.side_effects        # DataFrames; print(r) shows all three

How it searches (optuna; TPE handles noisy mixed integer/categorical spaces, and its
JournalStorage keeps the study in a file, so a stopped search resumes where it was):

1. Knobs (`analyses.knobs`) become optuna parameters; the published game is the first trial.
   A small discrete space (at most GRID_LIMIT settings) is enumerated instead of sampled, the
   smallest changes first (`small_grid`): every setting is raced once, in order of change cost;
   a larger space is sampled by TPE.
2. Each candidate plays rung 0 (`first_games` games), then, while it is among the best
   1/`reduction_factor` of the candidates at that rung (optuna's successive halving pruner),
   `reduction_factor` times more: few games for every candidate, many for promising ones.
3. Common random numbers: rung k's games of every candidate use the same seeds (segment k of
   the search seed), so candidates are compared on the same deals.
4. A candidate's value is the objective's score plus `cost_weight` × `change_cost` (knobs moved
   and how far), so of two equally good fixes the smaller wins; `max_knobs` caps the knobs moved.
5. The best candidate that reached the last rung is the proposal. Its search score is biased by
   selection (the best of many noisy estimates looks better than it is), so a confirmation run
   on fresh seeds plays the published game and the proposal (paired, `confirm_games` each) and
   the proposal *meets* the objective only if every measure's 95% interval lies inside its band.

Objectives that need no games (Nerath's `unit_value_parity`) are exact: no rungs, no confirmation
run (the exact table is the confirmation). Games run through `analyses.simulate` (joblib workers
or a dask cluster: `n_jobs`, `backend`, `scheduler`).
"""
from __future__ import annotations

import dataclasses
import hashlib
import inspect
import itertools
import json
import math
import re
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .games import load_game, make_rules, resolve_policies
from .io import read_results, write_results
from .knobs import Knob, resolve_knobs, set_values
from .objectives import (
    apply_condition,
    change_cost,
    condition_label,
    conditions,
    make_objective,
    parity_starts,
    parts_of,
    price_limit_lines,
    price_limits,
    restrict,
    score_frames,
    side_effect_objectives,
)
from .runner import simulate
from .tables import format_table
from .teams import is_team_game

BIAS_NOTE = ("search estimates are biased by selection (the best of many noisy candidates looks better than it "
             "is); only the confirmation run on fresh seeds decides")
STUDY_FILE, SPEC_FILE, CONFIRM_FILE, CONFIRM_DIR = "study.journal", "spec.json", "confirmation.json", "confirm"
FRAMES_DIR = "games"      # with a store, every search segment's games are saved here, so a resume replays none
CONFIRM_CHUNK = 1000      # with a store, the confirmation is played and saved in chunks of this many games
_CONFIRM_STREAM = 0xC0F1
GRID_LIMIT = 5000     # a discrete space this small is enumerated (smallest changes first), not sampled
CONFIRM_PRECISION = 0.4   # the confirmation's 95% half-width: at most this share of the band's half-width
CONFIRM_MAX = 200_000     # games per side at most, when the size comes from the standard error

@dataclasses.dataclass(frozen=True)
class Rebalance:
    """The outcome of a search: DataFrames and plain values (print() shows them as text)."""

    game: str
    objective: str
    proposal: pd.DataFrame          # knob, published, proposed, changed
    table: pd.DataFrame             # the objective's measures before/after (confirmation run or exact)
    side_effects: pd.DataFrame      # the other objectives, before/after
    trials: pd.DataFrame            # every candidate: its knob values, games, score, cost, value, state
    meets: bool                     # every measure's interval within its band after the change
    search_score: float             # the proposal's score in the search (biased by selection)
    confirm_seed: int | None
    confirm_games: int
    note: str = BIAS_NOTE
    timing: dict = dataclasses.field(default_factory=dict)   # wall/CPU seconds, budget, engine, games played
    confirm_sizes: dict = dataclasses.field(default_factory=dict)   # condition label ('' = as given) -> games per side
    notes: tuple = ()               # lines on what no setting of the knobs can meet (Nerath: a unit no price fixes)

    def tables(self) -> dict:
        return {"proposal": self.proposal, "table": self.table, "side_effects": self.side_effects,
                "trials": self.trials}

    def to_text(self) -> str:
        changed = self.proposal[self.proposal["changed"]]
        head = (f"{self.game}: {self.objective}; {len(self.trials)} candidates searched\n"
                f"proposal ({len(changed)} knob(s) changed; diff against the published game):")
        diff = "\n".join(f"  - {r.knob} = {r.published}\n  + {r.knob} = {r.proposed}" for r in changed.itertuples()) \
            or "  (no change: the published game is the best candidate found)"
        each = (f"{self.confirm_games:,} fresh games each" if len(self.confirm_sizes) < 2 else
                "fresh games each: " + ", ".join(f"{n:,} {'[' + c + ']' if c else 'as given'}"
                                                 for c, n in self.confirm_sizes.items()))
        where = (f"confirmation run: {each} (seed {self.confirm_seed}), "
                 f"published vs proposal, 95% intervals" if self.confirm_seed is not None else "exact (no games)")
        verdict = "MEETS the objective" if self.meets else "does NOT meet the objective"
        timing = self.timing
        spent = (f"time: {timing['wall_seconds']:.0f} s wall, {timing['cpu_seconds']:.0f} s CPU in this process "
                 f"(budget {timing['budget']}, engine {timing['engine']}, {timing['games']:,} games played)"
                 if timing else "")
        note = self.note if self.confirm_seed is not None else "exact: no sampling, so no selection bias"
        return "\n".join([head, diff, "", f"search score of the proposal: {self.search_score:.4f} ({note})",
                          "", f"before / after ({where}):", format_table(self.table), "",
                          f"verdict: the proposal {verdict} (every interval inside its band)", ""]
                         + [f"cannot be met by any price: {n}" for n in self.notes] + ([""] if self.notes else [])
                         + ["side effects on the other objectives:",
                            format_table(self.side_effects) if len(self.side_effects) else "(none measured)"]
                         + ([spent] if spent else []))

    def __str__(self) -> str:
        return self.to_text()


def _optuna():
    """optuna, imported on first use: it takes seconds to import, and every joblib worker imports
    `analyses` (which exports `rebalance`), so a module-level import would slow every run."""
    import optuna  # noqa: PLC0415 - heavy import (seconds), needed only by a search

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def parse_budget(budget) -> tuple[int | None, float | None]:
    """(trials, seconds): an int is a number of candidates, '30m' / '90s' / '1h' a time budget."""
    if isinstance(budget, bool):
        raise ValueError(f"budget must be a number of candidates or a time like '30m', got {budget!r}")
    if isinstance(budget, (int, np.integer)):
        if budget < 1:
            raise ValueError(f"budget must be at least 1 candidate, got {budget!r}")
        return int(budget), None
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh])\s*", str(budget))
    if not m:
        m2 = re.fullmatch(r"\s*(\d+)\s*", str(budget))
        if m2 and int(m2.group(1)) > 0:
            return int(m2.group(1)), None
        raise ValueError(f"budget must be a number of candidates or a time like '30m', '90s', '1h', got {budget!r}")
    seconds = float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2)]
    if seconds <= 0:
        raise ValueError(f"budget must be positive, got {budget!r}")
    return None, seconds


def rung_sizes(first_games: int, reduction_factor: int, rungs: int, per_deal: int) -> list[int]:
    """Cumulative games at each rung, whole deals: first, first*rf, first*rf^2, ..."""
    out = []
    for k in range(rungs):
        n = first_games * reduction_factor ** k
        out.append(int(math.ceil(n / per_deal) * per_deal))
    return out


def rebalance(game, objective="seat_balance", knobs=None, budget="30m", rules=None, policies=None, seed: int = 0,
              n_jobs: int = 1, backend: str | None = None, scheduler: str | None = None,
              seat_order: str = "rotate", first_games: int = 200, reduction_factor: int = 3, rungs: int = 3,
              confirm_games: int | None = None, cost_weight: float = 0.002, max_knobs: int | None = None,
              store=None, resume: bool = False, progress: bool = False, engine="auto",
              confirm_precision: float = CONFIRM_PRECISION) -> Rebalance:
    """Search `knobs` of `game` for the smallest change that meets `objective`; confirm on fresh seeds.

    rules: the published game to start from (None: the game's defaults; a dict or Rules).
    knobs: None (every knob the game declares), 'a=lo:hi:step,b', a list or a dict (`analyses.knobs`).
    budget: candidates (int) or time ('30m'). first_games, reduction_factor, rungs: successive halving.
    confirm_games: games per side of the confirmation run (default: sized from the standard error,
        `confirmation_size`, so every 95% half-width is at most `confirm_precision` × the band's
        half-width: about 20,000 games for a seat share of 25% within ±1.5 points).
    store: a folder holding the study (optuna journal + spec); resume=True continues it.
    engine: 'auto' (default: the game's batch kernel when it plays these rules and policies, else
        Python), 'python' or 'kernel' (`analyses.simulate`).
    """
    wall0, cpu0 = time.perf_counter(), time.process_time()
    module = load_game(game)
    base = make_rules(module, rules)
    knob_list = resolve_knobs(module, base, knobs)
    obj = make_objective(objective)
    lineup = tuple(resolve_policies(module, policies, base.players))
    trials_budget, seconds = parse_budget(budget)
    for name, value in (("first_games", first_games), ("reduction_factor", reduction_factor), ("rungs", rungs)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if max_knobs is not None and (isinstance(max_knobs, bool) or not isinstance(max_knobs, int) or max_knobs < 1):
        raise ValueError(f"max_knobs must be a positive integer or None, got {max_knobs!r}")
    if confirm_games is not None and (isinstance(confirm_games, bool) or not isinstance(confirm_games, (int, np.integer))
                                      or confirm_games < 1):
        raise ValueError(f"confirm_games must be a positive integer or None (sized from the standard error), "
                         f"got {confirm_games!r}")
    if not 0 < float(confirm_precision) <= 1:
        raise ValueError(f"confirm_precision must be in (0, 1], got {confirm_precision!r}")
    conds = conditions(obj)          # [()] unless terms are measured under conditions ('...@mode=free_for_all')
    base_at = {c: _at(module, base, c, obj) for c in conds}
    runs = {c: _Runner(module, lineup if base_at[c].players == base.players else
                       tuple(resolve_policies(module, policies, base_at[c].players)),
                       seed, n_jobs, backend, scheduler, seat_order, engine) for c in conds}
    for r in runs.values():
        r.folder = None if store is None else Path(store) / FRAMES_DIR
    per_deal = math.lcm(*(r.per_deal for r in runs.values()))
    sizes = rung_sizes(first_games, reduction_factor, rungs, per_deal) if obj.needs_games else [0]
    spec = {"game": module.__name__, "objective": obj.label(), "knobs": [k.spec() for k in knob_list],
            "policies": [str(p) for p in lineup], "seed": seed, "seat_order": seat_order, "rungs": sizes,
            "cost_weight": cost_weight, "max_knobs": max_knobs, "base_rules": repr(base), "engine": engine}
    optuna = _optuna()
    study = open_study(store, resume, spec, seed, reduction_factor, sizes)
    published = {k.path: k.published for k in knob_list}
    reference = ({c: runs[c].frame(base_at[c], sizes[-1], tag=_tag(published)) for c in conds}
                 if obj.needs_games else None)
    obj = obj.bind(reference)
    grid = small_grid(knob_list, max_knobs)
    if not study.trials:      # the published game first, then any settings the objective knows are worth trying
        first = [published] + [v for v in parity_starts(module, base, knob_list, obj) if v != published and (
            max_knobs is None or sum(v[k.path] != k.published for k in knob_list) <= max_knobs)]
        for values in first + [v for v in grid if v not in first]:
            study.enqueue_trial(values)
    if grid:       # an enumerated space ends when every setting has raced (no resampling of known points)
        waiting = len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.WAITING,)))
        trials_budget = waiting if trials_budget is None else min(trials_budget, waiting)

    def evaluate(trial) -> float:
        values = {k.path: _suggest(trial, k) for k in knob_list}
        moved = sum(1 for k in knob_list if values[k.path] != k.published)
        cost = change_cost(knob_list, values)
        trial.set_user_attr("cost", cost)
        if max_knobs is not None and moved > max_knobs:
            trial.set_user_attr("invalid", f"{moved} knobs moved > max_knobs {max_knobs}")
            raise optuna.TrialPruned()
        try:
            candidate = base if values == published else set_values(module, base, values)
            cand_at = {c: apply_condition(module, candidate, c) for c in conds}
        except (ValueError, TypeError) as exc:
            trial.set_user_attr("invalid", str(exc).splitlines()[0])
            raise optuna.TrialPruned() from None
        if not obj.needs_games:
            try:
                score = obj.score(rules=candidate)
            except ValueError as exc:          # e.g. a battle too large for the exact solver
                trial.set_user_attr("invalid", str(exc).splitlines()[0])
                raise optuna.TrialPruned() from None
            trial.set_user_attr("score", score)
            return score + cost_weight * cost
        for step, n in enumerate(sizes):
            frames = {c: runs[c].frame(cand_at[c], n, tag=_tag(values)) for c in conds}
            score = score_frames(obj, frames, cand_at)
            trial.set_user_attr("score", score)
            trial.set_user_attr("games", n)
            value = score + cost_weight * cost
            trial.report(value, step=n)
            if step < len(sizes) - 1 and trial.should_prune():
                raise optuna.TrialPruned()
        if progress:
            print(f"candidate {trial.number}: {values} score {score:.4f} cost {cost:.2f}", file=sys.stderr)
        return value

    if trials_budget != 0:
        study.optimize(evaluate, n_trials=trials_budget, timeout=seconds, catch=())
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if not complete:
        raise ValueError("no candidate finished the last rung; raise the budget")
    best = min(complete, key=lambda t: (t.value, t.number))
    proposed = {k.path: best.params.get(k.path, k.published) for k in knob_list}
    proposal = pd.DataFrame([{"knob": k.path, "published": k.published, "proposed": proposed[k.path],
                              "changed": proposed[k.path] != k.published,
                              "range": f"{k.low}..{k.high} step {k.step}" if k.kind != "categorical"
                              else "|".join(map(str, k.choices))} for k in knob_list])
    after_rules = set_values(module, base, proposed)
    sides = side_effect_objectives(module, obj)
    confirm_sizes = {}
    if obj.needs_games:
        confirm_seed = fresh_seed(seed)
        after_at = {c: apply_condition(module, after_rules, c) for c in conds}
        folder = None if store is None else Path(store) / CONFIRM_DIR
        tables, side_tables = [], []
        for c in conds:
            part, run = restrict(obj, c), runs[c]
            n_c = confirm_games or confirmation_size(part, run.frame(after_at[c], sizes[-1], tag=_tag(proposed)),
                                                     after_at[c],
                                                     confirm_precision, run.per_deal)
            before_df = run.confirm_frame(base_at[c], n_c, confirm_seed, folder, _tag(published))
            after_df = (before_df if proposed == published else
                        run.confirm_frame(after_at[c], n_c, confirm_seed, folder, _tag(proposed)))
            tables.append(before_after(part, before_df, after_df, base_at[c], after_at[c]))
            watch = [s.bind(reference) for s in sides if s.condition == c
                     and (s.name != "alliance_balance" or is_team_game(before_df))]
            side_tables.append(before_after_many(watch, before_df, after_df, base_at[c], after_at[c]))
            confirm_sizes[condition_label(c)] = n_c
        table = _stack(tables)
        side = _stack(side_tables)
        confirm_games = max(confirm_sizes.values())
    else:
        confirm_seed, confirm_games = None, 0
        table = before_after(obj, None, None, base, after_rules)
        side = pd.DataFrame()
    notes = tuple(line for p in parts_of(obj) if p.name == "unit_value_parity" and p.param("measure", "break_even")
                  == "break_even" for line in price_limit_lines(
                      price_limits(after_rules, float(p.param("band", 0.10)), p.param("units")),
                      float(p.param("band", 0.10))))
    meets = bool(len(table)) and bool(table["within_after"].all())
    engines = set().union(*(r.engines for r in runs.values()))
    timing = {"wall_seconds": time.perf_counter() - wall0, "cpu_seconds": time.process_time() - cpu0,
              "budget": str(budget), "engine": ",".join(sorted(engines)) or "none", "n_jobs": n_jobs,
              "games": sum(r.played for r in runs.values())}
    if store is not None:
        confirmation = {"proposal": proposal.astype(object).where(proposal.notna(), None).to_dict("records"),
                        "meets": meets, "confirm_seed": confirm_seed, "confirm_games": confirm_games,
                        "confirm_sizes": confirm_sizes,
                        "table": table.astype(object).where(table.notna(), None).to_dict("records"),
                        "side_effects": side.astype(object).where(side.notna(), None).to_dict("records"),
                        "timing": timing, "notes": list(notes)}
        (Path(store) / CONFIRM_FILE).write_text(json.dumps(confirmation, indent=1, default=_json), encoding="utf-8")
    return Rebalance(game=module.__name__, objective=obj.label(), proposal=proposal, table=table, side_effects=side,
                     trials=trials_frame(study, knob_list), meets=meets,
                     search_score=float(best.user_attrs.get("score", best.value)),
                     confirm_seed=confirm_seed, confirm_games=confirm_games, timing=timing,
                     confirm_sizes=confirm_sizes, notes=notes)


def confirmation_size(obj, df: pd.DataFrame, rules, precision: float = CONFIRM_PRECISION, per_deal: int = 1,
                      cap: int = CONFIRM_MAX) -> int:
    """Games per side for a confirmation run that can decide the objective: from the intervals of
    `df` (the proposal's search games), the n at which every measure's 95% half-width is at most
    `precision` × its band's half-width (a half-width shrinks as 1/sqrt(n)); at least len(df), at
    most `cap`, whole deals. Seat balance at ±1.5 points, a 25% share: about 20,000 games."""
    table = obj.table(df, rules)
    n_have = max(1, len(df))
    need = n_have
    for row in table.itertuples(index=False):
        half, band = (row.ci_high - row.ci_low) / 2, (row.target_high - row.target_low) / 2
        if not (np.isfinite(half) and np.isfinite(band)) or half <= 0 or band <= 0:
            continue
        need = max(need, int(math.ceil(n_have * (half / (precision * band)) ** 2)))
    need = min(need, cap)
    return int(math.ceil(need / per_deal) * per_deal)


def small_grid(knob_list, max_knobs=None, limit: int = GRID_LIMIT) -> list[dict]:
    """Every setting of a small discrete space (at most `limit` points) with at most `max_knobs`
    knobs moved, the smallest changes first (published game first); [] for a larger space."""
    sizes = [len(k.values()) for k in knob_list]
    if math.prod(sizes) > limit:
        return []
    points = []
    for combo in itertools.product(*(k.values() for k in knob_list)):
        values = dict(zip((k.path for k in knob_list), combo))
        moved = sum(1 for k in knob_list if values[k.path] != k.published)
        if max_knobs is None or moved <= max_knobs:
            points.append((change_cost(knob_list, values), len(points), values))
    return [values for _, _, values in sorted(points, key=lambda p: p[:2])]


def _suggest(trial, k: Knob):
    if k.kind == "categorical":
        return trial.suggest_categorical(k.path, list(k.choices))
    if k.kind == "int":
        return trial.suggest_int(k.path, int(k.low), int(k.high), step=int(k.step))
    return trial.suggest_float(k.path, float(k.low), float(k.high), step=float(k.step))


def fresh_seed(seed: int) -> int:
    """A confirmation seed no search rung uses (a different SeedSequence stream of `seed`)."""
    state = np.random.SeedSequence([int(seed), _CONFIRM_STREAM]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


def _at(module, rules, condition: tuple, obj):
    """`rules` under an objective term's condition; a bad condition is refused before any game."""
    try:
        return apply_condition(module, rules, condition)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"objective {obj.label()!r}: condition '@{condition_label(condition)}': "
                         f"{str(exc).splitlines()[0]}") from None


def _tag(values: dict) -> str:
    """The knob values of a candidate as text (part of its cache key)."""
    return json.dumps({k: _json(v) if hasattr(v, "item") else v for k, v in sorted(values.items())}, default=str)


def _stack(tables: list) -> pd.DataFrame:
    tables = [t for t in tables if len(t)]
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


class _Runner:
    """Plays candidates through `analyses.simulate`: rung segment k uses seed stream k of the search
    seed (the same for every candidate: common random numbers), and a candidate's frames are kept
    so a promoted candidate only plays the games it has not played yet."""

    def __init__(self, module, lineup, seed, n_jobs, backend, scheduler, seat_order, engine):
        self.module, self.lineup, self.seed = module, lineup, seed
        self.options = {"n_jobs": n_jobs, "backend": backend, "scheduler": scheduler, "seat_order": seat_order,
                        "progress": False}
        if engine is not None:
            if "engine" not in inspect.signature(simulate).parameters:
                raise ValueError("engine=: this version of analyses.simulate has no engines")
            self.options["engine"] = engine
        distinct = len({repr(p) for p in lineup})
        self.per_deal = len(lineup) if seat_order == "rotate" and distinct > 1 else 1
        self.cache: dict = {}
        self.played, self.engines = 0, set()
        self.folder: Path | None = None     # with a store: the search's games are saved there (a resume replays none)

    def _key(self, rules, seed: int, tag: str) -> str:
        # the game's RULES_VERSION too: games saved by another version of the engine are never reused
        return hashlib.sha256(repr((repr(rules), tag, [repr(p) for p in self.lineup], self.options.get("engine"),
                                    self.options["seat_order"], int(seed), str(getattr(self.module, "RULES_VERSION", ""))
                                    )).encode()).hexdigest()[:16]

    def _saved(self, path_of, k: int):
        """The saved segment k (any size: a segment of n games is a prefix of a longer one), or None."""
        found = sorted(self.folder.glob(path_of(k, "*"))) if self.folder is not None else []
        if not found:
            return None
        df = read_results(found[-1])
        self.engines.add(str(df.attrs.get("engine", "python")))
        return df

    def _simulate(self, rules, n: int, seed: int) -> pd.DataFrame:
        df = simulate(self.module, n, rules=rules, policies=list(self.lineup), seed=seed, **self.options)
        self.played += len(df)
        self.engines.add(str(df.attrs.get("engine", "python")))
        return df

    def confirm_frame(self, rules, n: int, seed: int, folder: Path | None, tag: str = "") -> pd.DataFrame:
        """The confirmation's `n` games of `rules` on the fresh `seed`. With a folder (the store), they
        are played in chunks of CONFIRM_CHUNK games (chunk k: seed stream k of `seed`), each saved
        there as soon as it is played, so a stopped confirmation resumes at its last chunk."""
        if folder is None:
            return self._simulate(rules, n, seed)
        key = self._key(rules, seed, tag)
        chunk = int(math.ceil(CONFIRM_CHUNK / self.per_deal) * self.per_deal)
        parts, have, k = [], 0, 0
        while have < n:
            size = min(chunk, n - have)
            path = folder / f"{key}-{k:04d}-{size}.parquet"
            if path.exists():
                df = read_results(path)
                self.engines.add(str(df.attrs.get("engine", "python")))
            else:
                chunk_seed = int(np.random.SeedSequence([int(seed), k]).generate_state(1, np.uint64)[0] >> np.uint64(1))
                df = self._simulate(rules, size, chunk_seed)
                write_results(df, path)
            parts.append(df)
            have, k = have + len(df), k + 1
        return _concat(parts)

    def frame(self, rules, n: int, seed: int | None = None, tag: str = "") -> pd.DataFrame:
        """`n` games of `rules` (at least), segment k on seed stream k of the search seed. `tag` names
        the knob values: the cache key is the rules' repr AND the tag, because a repr may summarise
        data (Nerath's Board prints only its name and size, whatever its realm gold)."""
        if seed is not None:
            return self._simulate(rules, n, seed)
        key = repr(rules) + "|" + tag
        parts = self.cache.setdefault(key, [])
        have = sum(len(p) for p in parts)
        k = len(parts)
        disk = self._key(rules, self.seed, tag) if self.folder is not None else ""

        def path_of(i, size):
            return f"{disk}-{i:04d}-{size}.parquet"

        while have < n:
            size = n - have
            df = self._saved(path_of, k)
            if df is None:
                segment_seed = int(np.random.SeedSequence([int(self.seed), k]).generate_state(1, np.uint64)[0]
                                   >> np.uint64(1))
                df = self._simulate(rules, size, segment_seed)
                if self.folder is not None:
                    write_results(df, self.folder / path_of(k, f"{len(df):06d}"))
            parts.append(df)
            have, k = have + len(df), k + 1
        if len(self.cache) > 64:
            self.cache.pop(next(iter(self.cache)))
        return _concat(parts)


def _concat(parts: list) -> pd.DataFrame:
    if len(parts) == 1:
        return parts[0]
    df = pd.concat(parts, ignore_index=True)
    df.attrs = dict(parts[0].attrs)
    return df


def before_after(obj, before_df, after_df, before_rules, after_rules) -> pd.DataFrame:
    """One row per measure: before and after, each with its interval, the band and whether it is inside."""
    b = obj.table(before_df, before_rules)
    a = obj.table(after_df, after_rules)
    if not len(a):
        return pd.DataFrame()
    out = a[["objective", "measure", "target_low", "target_high"]].copy()
    b = b.set_index("measure").reindex(a["measure"])
    out["before"], out["before_low"], out["before_high"] = (b["value"].to_numpy(), b["ci_low"].to_numpy(),
                                                            b["ci_high"].to_numpy())
    out["after"], out["after_low"], out["after_high"] = a["value"], a["ci_low"], a["ci_high"]
    out["n"] = a["n"]
    out["within_before"] = b["within"].fillna(False).astype(bool).to_numpy()
    out["within_after"] = a["within"].astype(bool)
    return out.reset_index(drop=True)


def before_after_many(objs, before_df, after_df, before_rules, after_rules) -> pd.DataFrame:
    tables = [before_after(o, before_df, after_df, before_rules, after_rules) for o in objs]
    tables = [t for t in tables if len(t)]
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


def trials_frame(study, knob_list) -> pd.DataFrame:
    rows = []
    for t in study.trials:
        if t.state.name == "WAITING":        # queued settings not played yet (a resumed search plays them)
            continue
        row = {"candidate": t.number, "state": t.state.name.lower()}
        row.update({k.path: t.params.get(k.path) for k in knob_list})
        row.update({"games": t.user_attrs.get("games", 0), "score": t.user_attrs.get("score"),
                    "cost": t.user_attrs.get("cost"), "value": t.value, "invalid": t.user_attrs.get("invalid", "")})
        rows.append(row)
    return pd.DataFrame(rows)


# --- the study on disk ---------------------------------------------------------------------

def open_study(store, resume: bool, spec: dict, seed: int, reduction_factor: int, sizes: list):
    """An in-memory study (store None), a new one in `store`, or the stored one (resume=True)."""
    optuna = _optuna()
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=8, multivariate=True)
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=max(1, sizes[0]), reduction_factor=reduction_factor,
                                                    min_early_stopping_rate=0)
    if store is None:
        if resume:
            raise ValueError("resume=True needs store= (the folder holding the study)")
        return optuna.create_study(direction="minimize", sampler=sampler, pruner=pruner)
    folder = Path(store)
    spec_path, journal = folder / SPEC_FILE, folder / STUDY_FILE
    plain = json.loads(json.dumps(spec, default=str))
    if spec_path.exists():
        if not resume:
            raise ValueError(f"store {str(folder)!r} already holds a study; add --resume (resume=True) to continue it, "
                             f"or give another folder")
        stored = json.loads(spec_path.read_text(encoding="utf-8"))
        if stored != plain:
            diff = sorted(k for k in set(stored) | set(plain) if stored.get(k) != plain.get(k))
            raise ValueError(f"store {str(folder)!r} holds a study with other settings ({', '.join(diff)}); "
                             f"use the same settings to resume, or another folder")
    elif resume:
        raise ValueError(f"nothing to resume: {str(folder)!r} holds no study ({SPEC_FILE} missing)")
    folder.mkdir(parents=True, exist_ok=True)
    if not spec_path.exists():
        spec_path.write_text(json.dumps(plain, indent=1), encoding="utf-8")
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(journal)))
    # a trial left RUNNING by a killed search is failed, so the resumed search does not wait for it,
    study = optuna.create_study(storage=storage, study_name="rebalance", direction="minimize", sampler=sampler,
                                pruner=pruner, load_if_exists=True)
    # and its setting is queued again (an enumerated grid would otherwise never play it)
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
        fixed = t.system_attrs.get("fixed_params") or t.params
        if fixed:
            study.enqueue_trial(dict(fixed), skip_if_exists=False)
    return study


def load_stored(store) -> tuple[dict, pd.DataFrame]:
    """(spec, trials) of a stored study, for reports: no games are played."""
    folder = Path(store)
    spec_path = folder / SPEC_FILE
    if not spec_path.exists():
        raise ValueError(f"{str(folder)!r} holds no re-balancing study ({SPEC_FILE} missing)")
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    optuna = _optuna()
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(folder / STUDY_FILE)))
    study = optuna.load_study(study_name="rebalance", storage=storage)
    knob_list = [Knob(k["path"], k["kind"], k["low"], k["high"], k["step"], tuple(k["choices"]), k["published"])
                 for k in spec["knobs"]]
    return spec, trials_frame(study, knob_list)


def _json(value):
    return value.item() if hasattr(value, "item") else str(value)


def suggested_fixes(store, top: int = 5) -> pd.DataFrame:
    """The best settings of a stored study (no games played): one row per distinct setting that
    finished the last rung, best first, with its change against the published game, the search
    score (biased by selection) and, for the proposal, the confirmation run's verdict."""
    spec, trials = load_stored(store)
    done = trials[trials["state"] == "complete"].sort_values(["value", "candidate"])
    paths = [k["path"] for k in spec["knobs"]]
    published = {k["path"]: k["published"] for k in spec["knobs"]}
    confirm_path = Path(store) / CONFIRM_FILE
    confirmed = json.loads(confirm_path.read_text(encoding="utf-8")) if confirm_path.exists() else None
    proposed = {r["knob"]: r["proposed"] for r in confirmed["proposal"]} if confirmed else None
    rows, seen = [], set()
    for t in done.to_dict("records"):      # records, not itertuples: knob paths are dotted ('map.realm_gold.x')
        values = {p: t.get(p) for p in paths}
        values = {p: (v.item() if hasattr(v, "item") else v) for p, v in values.items()}
        key = tuple(values.values())
        if key in seen:
            continue
        seen.add(key)
        change = "; ".join(f"{p}: {published[p]} → {v}" for p, v in values.items() if v != published[p])
        verdict = ""
        if proposed is not None and all(proposed.get(p) == v for p, v in values.items()):
            verdict = (f"proposal; confirmation run ({confirmed['confirm_games']:,} fresh games): "
                       + ("meets the objective" if confirmed["meets"] else "does not meet the objective")
                       if confirmed["confirm_seed"] is not None else
                       "proposal; exact: " + ("meets the objective" if confirmed["meets"] else "does not meet it"))
        rows.append({"change": change or "(none: the published game)", "knobs_moved": sum(
            1 for p, v in values.items() if v != published[p]), "search_score": t["score"], "games": t["games"],
                     "verdict": verdict})
        if len(rows) >= top:
            break
    table = pd.DataFrame(rows, columns=["change", "knobs_moved", "search_score", "games", "verdict"])
    table.attrs["objective"] = spec["objective"]
    return table
