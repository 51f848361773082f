"""Tuned heuristics: search a parameterised heuristic's weights against a pool of opponents, then
confirm the best on fresh seeds.

    import analyses
    t = analyses.tune_policy("nightsim", start="greedy", budget=60, games_per_trial=600, seed=1)
    print(t)                         # best parameters, the confirmation table
    t.write("nightsim/data/tuned.json")   # the file nightsim loads as POLICIES["tuned"]

How it searches (optuna, as `analyses.rebalance` does: a seeded multivariate TPE sampler, a
successive-halving pruner, storage that lets a stopped search resume):

1. The search space is data the game declares beside its policy (`TUNING["space"]`: name, low,
   high, step or log, or choices; names as `with_params` takes them), or `space=` given here.
   The start policy's own point is the first trial.
2. A trial plays the candidate against each opponent of the pool: one candidate seat and the
   opponent in every other seat (`players`: 2 = head to head; Nerath 4 = 1-vs-3 with the
   opponent also as the candidate's ally), once with the candidate in each seat (seats rotated:
   in Nerath over the four realms), on the same deals. A game scores 1 when the candidate's seat
   (or its team) wins, 0 when it loses, the fair share (1/2 in a two-sided game) without a winner.
   The trial's value is the mean score over every game.
3. Common random numbers: rung k's deals are the same for every trial (seed stream k of `seed`),
   so trials are compared on the same cards and dice. Rung 0 plays `games_per_trial` games; a
   trial among the best 1/`reduction_factor` at a rung plays `reduction_factor` times as many
   (optuna's SuccessiveHalvingPruner).
4. The best trial that finished the last rung is biased upwards by selection, so a confirmation
   run on fresh seeds (`rebalance_search.fresh_seed`) plays it against the start policy
   (1-vs-(players-1), seats rotated) with the Python engine, and reports the win rate with its 95%
   interval, the deal as the unit (cluster-robust: the rotations of a deal share its luck). The
   target: win rate >= 55% and the interval's lower bound > 50%.

`Tuned.to_data()` is the data file a game package loads as its `tuned` policy (the parameters and
their provenance); `balancelab tune-policy GAME --out FILE` writes it.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import math
import numbers
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from . import clusters, frames
from .games import load_game, make_rules, with_parameter
from .plan import policy_key
from .rebalance_search import _optuna, fresh_seed, parse_budget
from .runner import ENGINES, simulate
from .tables import format_table

TARGET, TARGET_LOW = 0.55, 0.50
CONFIDENCE = 0.95
NOTE = ("the search score of the best trial is biased by selection (the best of many noisy estimates looks "
        "better than it is); only the confirmation run on fresh seeds decides")
PROVENANCE_KEYS = ("start", "pool", "players", "design", "rules", "rules_version", "search", "confirmation",
                   "optuna_version", "date", "command", "note")
SEARCH_KEYS = ("sampler", "pruner", "trials", "complete", "pruned", "games_per_trial", "rungs", "seed", "engine",
               "best_trial", "best_score", "start_score")
CONFIRM_KEYS = ("opponent", "seed", "games", "deals", "engine", "win_rate", "ci_low", "ci_high", "confidence",
                "unit", "target", "meets_target")
_SPACE_KEYS = {"name", "low", "high", "step", "log", "choices"}


@dataclasses.dataclass(frozen=True)
class Param:
    """One dimension of the search space: a number in [low, high] (on a `step` grid, or on a log
    scale), an integer (low, high and step all integers), or one of `choices`."""

    name: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    log: bool = False
    choices: tuple | None = None

    @property
    def integer(self) -> bool:
        return self.choices is None and all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                            for v in (self.low, self.high, 1 if self.step is None else self.step))

    def suggest(self, trial):
        if self.choices is not None:
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.integer:
            return trial.suggest_int(self.name, int(self.low), int(self.high), step=int(self.step or 1), log=self.log)
        return trial.suggest_float(self.name, float(self.low), float(self.high), step=self.step, log=self.log)

    def snap(self, value):
        """`value` moved onto this dimension (clipped to the range, rounded to the grid)."""
        if self.choices is not None:
            return value if value in self.choices else self.choices[0]
        value = min(max(float(value), float(self.low)), float(self.high))
        if self.step is not None:
            value = float(self.low) + round((value - float(self.low)) / float(self.step)) * float(self.step)
            value = min(value, float(self.high))
        return int(round(value)) if self.integer else round(value, 10)

    def around(self, value, radius: float) -> Param:
        """This dimension cut to `value` ± `radius` × its range (on its grid; choices unchanged): a
        trust region, for a search that improves a good start rather than exploring everything."""
        if self.choices is not None:
            return self
        half = radius * (float(self.high) - float(self.low))
        if self.log:
            low, high = max(float(self.low), value / (1 + radius * 10)), min(float(self.high), value * (1 + radius * 10))
        else:
            low, high = max(float(self.low), value - half), min(float(self.high), value + half)
        if self.step is not None:
            step, base = float(self.step), float(self.low)
            low = base + math.floor((low - base) / step + 1e-9) * step
            high = base + math.ceil((high - base) / step - 1e-9) * step
            low, high = max(low, float(self.low)), min(high, float(self.high))
            low = base + round((low - base) / step) * step
            high = low + math.floor((high - low) / step + 1e-9) * step
        low, high = (int(round(low)), int(round(high))) if self.integer else (round(low, 10), round(high, 10))
        if not low < high:
            return self
        return dataclasses.replace(self, low=low, high=high)

    def spec(self) -> dict:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None and v is not False}


def parse_space(space) -> list[Param]:
    """Check a search space (a list of dicts or Params) and return Params; bad input raises ValueError."""
    if isinstance(space, (str, bytes, dict)) or not hasattr(space, "__iter__"):
        raise ValueError(f"space must be a list of {{'name', 'low', 'high', 'step'|'log'}} or {{'name', 'choices'}} "
                         f"entries, got {space!r}")
    out, seen = [], set()
    for entry in space:
        if isinstance(entry, Param):
            entry = dataclasses.asdict(entry)
        if not isinstance(entry, dict):
            raise ValueError(f"space: each entry must be a dict with name/low/high or name/choices, got {entry!r}")
        unknown = set(entry) - _SPACE_KEYS
        if unknown:
            raise ValueError(f"space: unknown key(s) {', '.join(sorted(unknown))} in {entry!r}; "
                             f"allowed: {', '.join(sorted(_SPACE_KEYS))}")
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"space: every entry needs a name (a parameter of the policy), got {entry!r}")
        if name in seen:
            raise ValueError(f"space: parameter {name!r} is declared twice")
        seen.add(name)
        out.append(_param(entry, name))
    if not out:
        raise ValueError("space: declare at least one parameter")
    return out


def _param(entry: dict, name: str) -> Param:
    choices = entry.get("choices")
    if choices is not None:
        if isinstance(choices, (str, bytes)) or not hasattr(choices, "__iter__") or not list(choices):
            raise ValueError(f"space: {name}: choices must be a non-empty list, got {choices!r}")
        if any(k in entry for k in ("low", "high", "step")):
            raise ValueError(f"space: {name}: give either choices or low/high, not both")
        return Param(name, choices=tuple(choices))
    low, high, step, log = entry.get("low"), entry.get("high"), entry.get("step"), entry.get("log", False)
    for label, v in (("low", low), ("high", high)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise ValueError(f"space: {name}: {label} must be a finite number, got {v!r}")
    if not low < high:
        raise ValueError(f"space: {name}: low must be below high, got low={low!r} high={high!r}")
    if step is not None and (isinstance(step, bool) or not isinstance(step, numbers.Real) or not step > 0):
        raise ValueError(f"space: {name}: step must be a positive number, got {step!r}")
    if not isinstance(log, bool):
        raise ValueError(f"space: {name}: log must be True or False, got {log!r}")
    if log and step is not None:
        raise ValueError(f"space: {name}: give step or log=True, not both")
    if log and low <= 0:
        raise ValueError(f"space: {name}: a log scale needs low > 0, got {low!r}")
    return Param(name, low, high, step, log)


# --- policies ------------------------------------------------------------------------------

def apply_params(module, policy, params: dict, name: str | None = None):
    """`policy` with `params` set: the game's `with_params` when it has one, else dataclass fields
    by dotted path (`analyses.games.with_parameter`)."""
    hook = getattr(module, "with_params", None)
    if hook is not None:
        return hook(policy, params, name=name)
    for key, value in params.items():
        policy = with_parameter(policy, key, value)
    if name is not None and dataclasses.is_dataclass(policy) and "name" in {f.name for f in dataclasses.fields(policy)}:
        policy = dataclasses.replace(policy, name=name)
    return policy


def param_value(module, policy, name: str):
    """The current value of parameter `name` of `policy` (the game's `param_value`, else attributes)."""
    hook = getattr(module, "param_value", None)
    if hook is not None:
        return hook(policy, name)
    value = policy
    for part in name.split("."):
        value = getattr(value, part)
    return value


def _label(entry) -> str:
    return entry if isinstance(entry, str) else str(getattr(entry, "name", None) or repr(entry))


def resolve_start(module, start):
    """(label, policy object) of the start policy; ValueError for an unknown or non-policy entry."""
    tuning = getattr(module, "TUNING", {}) or {}
    if start is None:
        start = tuning.get("start")
        if start is None:
            raise ValueError(f"game {module.__name__!r} declares no start policy (TUNING['start']); give start=NAME")
    if isinstance(start, str):
        if start not in module.POLICIES:
            raise ValueError(f"unknown start policy {start!r} for {module.__name__}; known: "
                             f"{', '.join(module.POLICIES)}")
        return start, module.POLICIES[start]
    if not callable(start):
        raise ValueError(f"start policy {start!r} is neither a registered name nor a policy object")
    return _label(start), start


def default_pool(module, start_label: str, start) -> list:
    """The start policy plus every other shipped policy of its kind that plays differently
    (aliases such as nightsim's `heuristic` = `greedy`, `random` and `tuned` left out)."""
    pool, keys = [start_label if start_label in module.POLICIES else start], [policy_key(start)]
    for name, policy in module.POLICIES.items():
        if name in ("random", "tuned") or type(policy) is not type(start):
            continue
        if policy_key(policy) not in keys:
            pool.append(name)
            keys.append(policy_key(policy))
    return pool


def resolve_pool(module, pool, start_label: str, start) -> list:
    if pool is None:
        return default_pool(module, start_label, start)
    if isinstance(pool, str):
        pool = [p.strip() for p in pool.split(",") if p.strip()]
    elif callable(pool):
        pool = [pool]
    pool = list(pool)
    if not pool:
        raise ValueError("pool: give at least one opponent")
    for entry in pool:
        if isinstance(entry, str) and entry not in module.POLICIES:
            raise ValueError(f"pool: unknown policy {entry!r} for {module.__name__}; known: {', '.join(module.POLICIES)}")
        if not isinstance(entry, str) and not callable(entry):
            raise ValueError(f"pool: {entry!r} is neither a registered name nor a policy object")
    return pool


# --- games ---------------------------------------------------------------------------------

class Arena:
    """Plays a candidate against opponents, one candidate seat, rotated over every seat, on the
    deals of one seed (every rotation and opponent meets the same deals)."""

    def __init__(self, module, rules, players: int, n_jobs: int = 1, engine: str = "python"):
        self.module, self.rules, self.players, self.n_jobs, self.engine = module, rules, players, n_jobs, engine

    def scores(self, candidate, opponents, deals: int, seed: int, engine: str | None = None) -> pd.DataFrame:
        """One row per game: opponent, seat (the candidate's), deal, won, lost, score.

        An opponent that plays like the candidate (`plan.policy_key`) makes every rotation of a deal
        the same game: it is played once and each seat's row read from it (same rows, 1/players of
        the games)."""
        parts = []
        for opponent in opponents:
            same = policy_key(self._policy(opponent)) == policy_key(self._policy(candidate))
            df = None
            for seat in range(self.players):
                if df is None or not same:
                    lineup = [opponent] * self.players
                    lineup[seat] = candidate
                    df = simulate(self.module, deals, rules=self.rules, policies=lineup, seed=seed,
                                  seat_order="fixed", n_jobs=self.n_jobs, progress=False, engine=engine or self.engine,
                                  chunk_size=deals if self.n_jobs == 1 else None)   # in process: one chunk
                parts.append(_seat_scores(df, seat, self.players, _label(opponent)))
        return pd.concat(parts, ignore_index=True)

    def _policy(self, entry):
        return self.module.POLICIES.get(entry, entry) if isinstance(entry, str) else entry


def _seat_scores(df: pd.DataFrame, seat: int, players: int, opponent: str) -> pd.DataFrame:
    won = frames.seat_wins(df)
    decided = frames.decided(df).to_numpy() & ~won.all(axis=1)
    sides = 2 if decided.any() and (won[decided].sum(axis=1) > 1).any() else players
    mine = won[:, seat]
    score = np.where(decided, mine.astype(float), 1.0 / sides)
    return pd.DataFrame({"opponent": opponent, "seat": seat, "deal": np.arange(len(df)),
                         "won": decided & mine, "lost": decided & ~mine, "score": score})


def summary(games: pd.DataFrame, confidence: float = CONFIDENCE) -> dict:
    """Win rate (mean score) with its interval, the deal as the unit."""
    low, high = clusters.mean_interval(games["score"].to_numpy(), games["deal"].to_numpy(), confidence=confidence)
    return {"games": len(games), "deals": int(games["deal"].nunique()), "wins": int(games["won"].sum()),
            "losses": int(games["lost"].sum()), "no_winner": int((~games["won"] & ~games["lost"]).sum()),
            "win_rate": float(games["score"].mean()), "ci_low": float(low), "ci_high": float(high)}


def _segment_seed(seed: int, k: int) -> int:
    return int(np.random.SeedSequence([int(seed), 0x7E7E, k]).generate_state(1, np.uint64)[0] >> np.uint64(1))


# --- the search ------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Tuned:
    """The outcome of a search: the best parameters, every trial and the confirmation run."""

    game: str
    start: str
    pool: tuple
    params: dict                   # the best trial's parameters (every dimension of the space)
    start_params: dict             # the start policy's values of the same parameters
    trials: pd.DataFrame           # trial, state, games, score, one column per parameter
    confirmation: pd.DataFrame     # one row: vs the start policy on fresh seeds
    policy: object                 # the tuned policy object (name 'tuned')
    provenance: dict

    @property
    def win_rate(self) -> float:
        return float(self.confirmation["win_rate"].iloc[0])

    @property
    def meets(self) -> bool:
        return bool(self.confirmation["meets_target"].iloc[0])

    def to_data(self) -> dict:
        """The data file a game package loads as its `tuned` policy."""
        return {"name": "tuned", "game": self.game, "start": self.start, "params": self.params,
                "provenance": self.provenance}

    def write(self, path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_data(), indent=1, default=_plain) + "\n", encoding="utf-8")
        return path

    def to_text(self) -> str:
        search = self.provenance["search"]
        rows = [{"parameter": k, "start": self.start_params.get(k), "tuned": v,
                 "changed": v != self.start_params.get(k)} for k, v in self.params.items()]
        conf = self.confirmation
        verdict = "MEETS" if self.meets else "does NOT meet"
        return "\n".join([
            f"{self.game}: tuned from {self.start!r} against {', '.join(self.pool)}; {search['trials']} trials "
            f"({search['complete']} finished every rung, {search['pruned']} pruned)",
            f"best trial {search['best_trial']}: search score {search['best_score']:.4f} "
            f"(start: {search['start_score']:.4f}; {NOTE})", "",
            "best parameters:", format_table(pd.DataFrame(rows)), "",
            f"confirmation: tuned vs {self.start} on fresh seeds (seed {self.provenance['confirmation']['seed']}), "
            f"{self.provenance['design']}; {int(CONFIDENCE * 100)}% interval, the deal as the unit:",
            format_table(conf), "",
            f"verdict: tuned {verdict} the target (win rate >= {TARGET:.0%} and lower bound > {TARGET_LOW:.0%})"])

    def __str__(self) -> str:
        return self.to_text()


def tune_policy(game, start=None, pool=None, budget=40, games_per_trial: int = 200, seed: int = 0,
                n_jobs: int = 1, space=None, players: int | None = None, rules=None, reduction_factor: int = 3,
                rungs: int = 2, confirm_games: int | None = None, radius: float | None = None,
                storage: str | None = None, warm_start=None,
                engine: str = "python", progress: bool = False, command: str | None = None) -> Tuned:
    """Search the weights of the heuristic `start` against `pool`; confirm the best on fresh seeds.

    start: a name from the game's POLICIES (default: the game's TUNING['start']) or a policy object.
    pool: opponents (names or objects; default: the start policy and the other shipped heuristics).
    budget: trials (int) or time ('30m', '90s'). games_per_trial: games of rung 0 (rounded up to whole
    deals: pool x players games each); rungs, reduction_factor: successive halving.
    space: the search space (default: the game's TUNING['space']); players: seats per game (default
    TUNING['players'], else 2). confirm_games: games of the confirmation run (default 4 x the last rung).
    radius: search only start ± radius × each numeric range (a trust region around the start), or None.
    storage: optuna storage (sqlite:///file.db, or a path ending .journal): the search resumes from it.
    warm_start: points to try right after the start's own (a data file `Tuned.write` wrote, its
    `params`, or a list of such files or {parameter: value} dicts); each is put on the space's grid,
    parameters it lacks keep the start's values. A previous result seeds a search of a wider space.
    engine: the engine of the search games ('auto' takes a batch kernel); the confirmation plays Python.
    """
    module = load_game(game)
    tuning = getattr(module, "TUNING", {}) or {}
    start_label, start_policy = resolve_start(module, start)
    if space is None:
        space = tuning.get("space")
        if space is None:
            raise ValueError(f"game {module.__name__!r} declares no search space (TUNING['space']); give space=[...]")
    dims = parse_space(space)
    start_params = {}
    for d in dims:
        try:
            start_params[d.name] = param_value(module, start_policy, d.name)
            apply_params(module, start_policy, {d.name: d.snap(start_params[d.name])})
        except (AttributeError, ValueError, TypeError) as exc:
            raise ValueError(f"start policy {start_label!r} has no tunable parameter {d.name!r} "
                             f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); start from a "
                             f"parameterised heuristic of {module.__name__}") from None
    if radius is not None:
        if isinstance(radius, bool) or not isinstance(radius, numbers.Real) or not 0 < radius <= 1:
            raise ValueError(f"radius must be a number in (0, 1], got {radius!r}")
        dims = [d.around(d.snap(start_params[d.name]), float(radius)) for d in dims]
    pool = resolve_pool(module, pool, start_label, start_policy)
    players = int(players or tuning.get("players", 2))
    base_rules = make_rules(module, rules, players=players)
    trials_budget, seconds = parse_budget(budget)
    for label, value in (("games_per_trial", games_per_trial), ("rungs", rungs),
                         ("reduction_factor", reduction_factor), ("n_jobs", n_jobs)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1 and label != "n_jobs":
            raise ValueError(f"{label} must be a positive integer, got {value!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    per_deal = len(pool) * players
    first = max(1, math.ceil(games_per_trial / per_deal))
    deals = [first * reduction_factor ** k for k in range(rungs)]     # cumulative deals per rung
    arena = Arena(module, base_rules, players, n_jobs, engine)
    warm, warm_sources = warm_points(warm_start, dims, start_params)
    spec = {"game": module.__name__, "start": start_label, "pool": [_label(p) for p in pool], "players": players,
            "space": [d.spec() for d in dims], "deals": deals, "seed": seed, "radius": radius, "rules": repr(base_rules)}
    if warm:
        spec["warm_start"] = warm
    optuna = _optuna()
    study = _open_study(optuna, storage, spec, seed, reduction_factor, deals[0] * per_deal)
    if not study.trials:
        for point in ({d.name: d.snap(start_params[d.name]) for d in dims}, *warm):
            study.enqueue_trial(point)

    def evaluate(trial) -> float:
        params = {d.name: d.suggest(trial) for d in dims}
        candidate = apply_params(module, start_policy, params, name="candidate")
        games = []
        for k, n in enumerate(deals):
            size = n - (deals[k - 1] if k else 0)
            games.append(arena.scores(candidate, pool, size, _segment_seed(seed, k)))
            score = float(pd.concat(games)["score"].mean())
            played = sum(len(g) for g in games)
            trial.set_user_attr("score", score)
            trial.set_user_attr("games", played)
            trial.report(score, step=played)
            if k < len(deals) - 1 and trial.should_prune():
                raise optuna.TrialPruned()
        if progress:
            print(f"trial {trial.number}: score {score:.4f} over {played} games", file=sys.stderr)
        return score

    done = len([t for t in study.trials if t.state.is_finished()])
    if trials_budget is not None:
        trials_budget = max(0, trials_budget - done)
    if trials_budget != 0:
        study.optimize(evaluate, n_trials=trials_budget, timeout=seconds, catch=())
    state = optuna.trial.TrialState
    complete = [t for t in study.trials if t.state == state.COMPLETE]
    if not complete:
        raise ValueError("no trial finished the last rung; raise the budget")
    best = max(complete, key=lambda t: (t.value, -t.number))
    params = {d.name: best.params[d.name] for d in dims}
    tuned = apply_params(module, start_policy, params, name="tuned")
    confirm_seed = fresh_seed(seed)
    confirm_games = confirm_games or 4 * deals[-1] * players
    confirm_deals = max(1, math.ceil(confirm_games / players))
    games = arena.scores(tuned, [start_label if start_label in module.POLICIES else start_policy], confirm_deals,
                         confirm_seed, engine="python")
    row = summary(games)
    row.update({"opponent": start_label, "target": TARGET,
                "meets_target": row["win_rate"] >= TARGET and row["ci_low"] > TARGET_LOW})
    confirmation = pd.DataFrame([row])[["opponent", "games", "deals", "wins", "losses", "no_winner", "win_rate",
                                        "ci_low", "ci_high", "target", "meets_target"]]
    first_trial = min(study.trials, key=lambda t: t.number)
    design = (f"{players} players: the candidate in one seat, the opponent in the other {players - 1}, seats rotated "
              f"(every seat once per deal)")
    provenance = {
        "start": start_label, "pool": [_label(p) for p in pool], "players": players, "design": design,
        "rules": {k: v for k, v in _rules_changes(module, base_rules).items()},
        "rules_version": module.RULES_VERSION,
        "search": {"sampler": f"optuna TPESampler(seed={seed}, multivariate=True)",
                   "pruner": f"SuccessiveHalvingPruner(reduction_factor={reduction_factor})",
                   "trials": len([t for t in study.trials if t.state.is_finished()]), "complete": len(complete),
                   "pruned": len([t for t in study.trials if t.state == state.PRUNED]),
                   "games_per_trial": deals[0] * per_deal, "rungs": [n * per_deal for n in deals], "seed": seed,
                   "budget": str(budget), "engine": engine, "radius": radius, "warm_start": [{"source": src, "params": point} for src, point in zip(warm_sources, warm)],
                   "best_trial": best.number,
                   "best_score": float(best.value),
                   "start_score": float(first_trial.user_attrs.get("score", math.nan)),
                   "space": [d.spec() for d in dims]},
        "confirmation": {"opponent": start_label, "seed": confirm_seed, "games": row["games"], "deals": row["deals"],
                         "engine": "python", "wins": row["wins"], "losses": row["losses"],
                         "no_winner": row["no_winner"], "win_rate": row["win_rate"], "ci_low": row["ci_low"],
                         "ci_high": row["ci_high"], "confidence": CONFIDENCE, "unit": "deal", "target": TARGET,
                         "meets_target": bool(row["meets_target"])},
        "optuna_version": optuna.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": command or _command_text(module, start_label, pool, budget, games_per_trial, seed, n_jobs,
                                            players, rungs, reduction_factor, confirm_games, engine, radius),
        "note": NOTE,
    }
    return Tuned(game=module.__name__, start=start_label, pool=tuple(_label(p) for p in pool), params=params,
                 start_params=start_params, trials=_trials_frame(study, dims), confirmation=confirmation,
                 policy=tuned, provenance=json.loads(json.dumps(provenance, default=_plain)))


def warm_points(warm_start, dims, start_params: dict) -> tuple[list[dict], list]:
    """(points on the space's grid, what each came from) for `tune_policy(warm_start=...)`."""
    if warm_start is None:
        return [], []
    entries = [warm_start] if isinstance(warm_start, (str, Path, dict)) else list(warm_start)
    points, sources = [], []
    for entry in entries:
        if isinstance(entry, (str, Path)):
            try:
                params = json.loads(Path(entry).read_text(encoding="utf-8"))["params"]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"warm_start: {entry} is not a tuned data file with 'params' ({exc}). Reproduce "
                                 f"with json.load(open({str(entry)!r}))['params']") from None
            sources.append(str(entry))
        elif isinstance(entry, dict):
            params = entry
            sources.append("params")
        else:
            raise ValueError(f"warm_start: give data file paths or {{parameter: value}} dicts, got {entry!r}")
        names = {d.name for d in dims}
        unknown = sorted(set(params) - names)
        if unknown:
            raise ValueError(f"warm_start: parameter(s) {', '.join(unknown)} are not in the search space")
        points.append({d.name: d.snap(params.get(d.name, start_params[d.name])) for d in dims})
    return points, sources


def _open_study(optuna, storage, spec: dict, seed: int, reduction_factor: int, min_resource: int):
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=8, multivariate=True)
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=max(1, min_resource),
                                                    reduction_factor=reduction_factor, min_early_stopping_rate=0)
    if storage is None:
        return optuna.create_study(direction="maximize", sampler=sampler, pruner=pruner)
    if not isinstance(storage, str) or not storage:
        raise ValueError(f"storage must be an optuna URL such as sqlite:///tune.db or a .journal path, got {storage!r}")
    if "://" not in storage:
        backend = optuna.storages.journal.JournalFileBackend(str(Path(storage)))
        storage = optuna.storages.JournalStorage(backend)
    name = f"tune-{spec['game']}-{spec['start']}-seed{seed}"
    study = optuna.create_study(storage=storage, study_name=name, direction="maximize", sampler=sampler,
                                pruner=pruner, load_if_exists=True)
    plain = json.loads(json.dumps(spec, default=_plain))
    stored = study.user_attrs.get("spec")
    if stored is None:
        study.set_user_attr("spec", plain)
    elif stored != plain:
        diff = sorted(k for k in set(stored) | set(plain) if stored.get(k) != plain.get(k))
        raise ValueError(f"storage holds study {name!r} with other settings ({', '.join(diff)}); use the same "
                         f"settings to resume it, or another storage")
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)   # killed mid-trial
    return study


def _trials_frame(study, dims) -> pd.DataFrame:
    rows = []
    for t in study.trials:
        if t.state.name == "WAITING":
            continue
        row = {"trial": t.number, "state": t.state.name.lower(), "games": t.user_attrs.get("games", 0),
               "score": t.user_attrs.get("score")}
        row.update({d.name: t.params.get(d.name) for d in dims})
        rows.append(row)
    return pd.DataFrame(rows)


def _rules_changes(module, rules) -> dict:
    published = module.Rules()
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
            if getattr(rules, f.name) != getattr(published, f.name)}


def _command_text(module, start, pool, budget, games_per_trial, seed, n_jobs, players, rungs, rf, confirm, engine,
                  radius):
    return (f"analyses.tune_policy({module.__name__!r}, start={start!r}, pool={[_label(p) for p in pool]!r}, "
            f"budget={budget!r}, games_per_trial={games_per_trial}, seed={seed}, n_jobs={n_jobs}, players={players}, "
            f"rungs={rungs}, reduction_factor={rf}, confirm_games={confirm}, engine={engine!r}, radius={radius!r})")


def check_provenance(data: dict) -> list[str]:
    """The keys missing (or empty) in a stored `tuned` data file; [] when it is complete."""
    missing = [k for k in ("name", "game", "start", "params", "provenance") if data.get(k) in (None, "", {})]
    prov = data.get("provenance") or {}
    missing += [f"provenance.{k}" for k in PROVENANCE_KEYS if k not in prov or prov[k] in (None, "")]
    missing += [f"provenance.search.{k}" for k in SEARCH_KEYS if k not in (prov.get("search") or {})]
    missing += [f"provenance.confirmation.{k}" for k in CONFIRM_KEYS if k not in (prov.get("confirmation") or {})]
    return missing


def _plain(value):
    if isinstance(value, (np.bool_,)):
        return bool(value)
    return value.item() if hasattr(value, "item") else str(value)
