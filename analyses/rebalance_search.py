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

The pieces: `analyses.rebalance_games` plays the candidates (common random numbers, saved
segments), `analyses.rebalance_confirm` runs the confirmation, `analyses.rebalance_study` keeps
the study on disk; this module holds the search loop and re-exports their names.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import re
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from . import limits
from .games import load_game, make_rules, policy_repr, resolve_policies
from .knobs import Knob, resolve_knobs, set_values
from .objectives import (
    apply_condition,
    change_cost,
    check_objective_game,
    condition_label,
    conditions,
    make_objective,
    parity_starts,
    parts_of,
    price_limit_lines,
    price_limits,
    score_frames,
)
from .rebalance_confirm import (
    CONFIRM_DIR,
    CONFIRM_PRECISION,
    before_after,
    confirm,
    confirmation_size,
)
from .rebalance_games import FRAMES_DIR, _Runner, _tag
from .rebalance_study import (
    CONFIRM_FILE,
    MOVED,
    SPEC_FILE,
    STUDY_FILE,
    _optuna,
    open_study,
    save_confirmation,
    suggested_fixes,
    trials_frame,
)
from .tables import format_table

__all__ = [
    "BIAS_NOTE", "CONFIRM_DIR", "CONFIRM_FILE", "CONFIRM_PRECISION", "FRAMES_DIR", "GRID_LIMIT", "SPEC_FILE",
    "STUDY_FILE", "Rebalance", "before_after", "confirmation_size", "open_study", "parse_budget", "rebalance",
    "rung_sizes", "small_grid", "suggested_fixes", "trials_frame", "_Runner", "_optuna", "_tag",
]

BIAS_NOTE = ("search estimates are biased by selection (the best of many noisy candidates looks better than it "
             "is); only the confirmation run on fresh seeds decides")
GRID_LIMIT = 5000     # a discrete space this small is enumerated (smallest changes first), not sampled


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
                 + "".join(f"\n  Python instead of the kernel: {why}" for why in timing.get("engine_fallback", ()))
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


def parse_budget(budget) -> tuple[int | None, float | None]:
    """(trials, seconds): an int is a number of candidates, '30m' / '90s' / '1h' a time budget."""
    if isinstance(budget, bool):
        raise ValueError(f"budget must be a number of candidates or a time like '30m', got {budget!r}")
    if isinstance(budget, (int, np.integer)):
        if budget < 1:
            raise ValueError(f"budget must be at least 1 candidate, got {budget!r}")
        return limits.count(budget, "budget", limits.MAX_TRIALS, what="candidates"), None
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh])\s*", str(budget))
    if not m:
        m2 = re.fullmatch(r"\s*(\d+)\s*", str(budget))
        if m2 and int(m2.group(1)) > 0:
            return limits.count(int(m2.group(1)), "budget", limits.MAX_TRIALS, what="candidates"), None
        raise ValueError(f"budget must be a number of candidates or a time like '30m', '90s', '1h', got {budget!r}")
    seconds = float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2)]
    if seconds <= 0:
        raise ValueError(f"budget must be positive, got {budget!r}")
    if seconds > limits.MAX_BUDGET_SECONDS:
        raise limits.LimitError(f"budget {budget!r} is above the limit of {limits.MAX_BUDGET_SECONDS / 86400:g} days")
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
    check_objective_game(obj, module)
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
    if isinstance(cost_weight, bool) or not isinstance(cost_weight, (int, float)) or not 0 <= cost_weight < math.inf:
        raise ValueError(f"cost_weight must be a finite number >= 0, got {cost_weight!r}")
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
            "cost_weight": cost_weight, "max_knobs": max_knobs, "base_rules": repr(base), "engine": engine,
            "policy_reprs": [policy_repr(module, p) for p in lineup]}
    optuna = _optuna()
    study = open_study(store, resume, spec, seed, reduction_factor, sizes)
    published = {k.path: k.published for k in knob_list}
    reference = ({c: runs[c].frame(base_at[c], sizes[-1], tag=_tag(published)) for c in conds}
                 if obj.needs_games else None)
    obj = obj.bind(reference)
    grid = small_grid(knob_list, max_knobs)
    subsets = knob_subsets(knob_list, max_knobs)
    if not study.trials:      # the published game first, then any settings the objective knows are worth trying
        first = [published] + [v for v in parity_starts(module, base, knob_list, obj) if v != published and (
            max_knobs is None or sum(v[k.path] != k.published for k in knob_list) <= max_knobs)]
        for values in first + [v for v in grid if v not in first]:
            study.enqueue_trial({**values, MOVED: moved_label(knob_list, values)} if subsets else values)
    if grid:       # an enumerated space ends when every setting has raced (no resampling of known points)
        waiting = len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.WAITING,)))
        trials_budget = waiting if trials_budget is None else min(trials_budget, waiting)

    def evaluate(trial) -> float:
        if subsets:    # which knobs may move, then their values: every candidate keeps within max_knobs
            free = set(trial.suggest_categorical(MOVED, subsets).split(" + "))
            values = {k.path: _suggest(trial, k) if k.path in free else k.published for k in knob_list}
        else:
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
    if obj.needs_games:
        table, side, confirm_seed, confirm_games, confirm_sizes = confirm(
            module, obj, runs, conds, base_at, after_rules, proposed, published, reference, sizes, seed,
            confirm_games, confirm_precision, store)
    else:
        confirm_seed, confirm_games, confirm_sizes = None, 0, {}
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
    fallbacks = sorted(set().union(*(r.fallbacks for r in runs.values())))
    if fallbacks:   # loud: the candidates engine='auto' played with Python, and why
        timing["engine_fallback"] = fallbacks
    if store is not None:
        save_confirmation(store, proposal, meets, confirm_seed, confirm_games, confirm_sizes, table, side, timing,
                          notes)
    return Rebalance(game=module.__name__, objective=obj.label(), proposal=proposal, table=table, side_effects=side,
                     trials=trials_frame(study, knob_list), meets=meets,
                     search_score=float(best.user_attrs.get("score", best.value)),
                     confirm_seed=confirm_seed, confirm_games=confirm_games, timing=timing,
                     confirm_sizes=confirm_sizes, notes=notes)


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


def knob_subsets(knob_list, max_knobs) -> list[str] | None:
    """The choices of which knobs a candidate may move when `max_knobs` is below the number of knobs (each
    a label `moved_label` gives: "none", or the knobs' paths joined by " + "); None when every knob may move.
    Sampled first, so the sampler spends no candidate on a setting `max_knobs` forbids."""
    if max_knobs is None or max_knobs >= len(knob_list):
        return None
    return ["none"] + [" + ".join(k.path for k in combo) for r in range(1, max_knobs + 1)
                       for combo in itertools.combinations(knob_list, r)]


def moved_label(knob_list, values: dict) -> str:
    """The knobs `values` moves from the published game, as a choice of `knob_subsets`."""
    return " + ".join(k.path for k in knob_list if values[k.path] != k.published) or "none"


def _suggest(trial, k: Knob):
    if k.kind == "categorical":
        return trial.suggest_categorical(k.path, list(k.choices))
    if k.kind == "int":
        return trial.suggest_int(k.path, int(k.low), int(k.high), step=int(k.step))
    return trial.suggest_float(k.path, float(k.low), float(k.high), step=float(k.step))


def _at(module, rules, condition: tuple, obj):
    """`rules` under an objective term's condition; a bad condition is refused before any game."""
    try:
        return apply_condition(module, rules, condition)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"objective {obj.label()!r}: condition '@{condition_label(condition)}': "
                         f"{str(exc).splitlines()[0]}") from None
