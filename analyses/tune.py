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
   interval, the deal as the unit (cluster-robust: the rotations of a deal share its luck), beside
   the start policy's own score in the same seats on the same deals (the start in every seat). The
   target: the gain over the start >= 5 points and its interval's lower bound > 0 (paired by deal).
   With every seat rotated in a two-sided game the start's score is exactly 1/2, so this is a win
   rate >= 55% with the lower bound > 50%; with `seats` a subset, or three or more sides, the start's
   score is whatever that seat or that line-up gives it (a seat that wins 72% of self-play games
   does not make a candidate that plays like the start meet the target).

`Tuned.to_data()` is the data file a game package loads as its `tuned` policy (the parameters and
their provenance); `balancelab tune-policy GAME --out FILE` writes it.

The pieces: `analyses.tune_space` (the search space and the policies), `analyses.tune_study`
(the study, its trials and the provenance); this module plays the games (`Arena`), runs the
search and the confirmation, and re-exports their names.
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

from . import clusters, frames, safe_io
from .games import load_game, make_rules
from .plan import policy_key
from .rebalance_games import fresh_seed
from .rebalance_search import parse_budget
from .rebalance_study import _optuna
from .runner import ENGINES, simulate
from .tables import format_table
from .tune_space import (
    Param,
    _label,
    apply_params,
    param_value,
    parse_space,
    resolve_pool,
    resolve_start,
    warm_points,
)
from .tune_study import (
    _command_text,
    _open_study,
    _plain,
    _rules_changes,
    _trials_frame,
    check_provenance,
)

__all__ = [
    "CONFIDENCE", "NOTE", "TARGET", "TARGET_LOW", "Arena", "Param", "Tuned", "apply_params", "check_provenance",
    "confirm", "param_value", "parse_space", "resolve_pool", "resolve_start", "summary", "tune_policy", "warm_points",
    "_label", "_open_study", "_plain", "_trials_frame",
]

TARGET, TARGET_LOW = 0.55, 0.50            # two-sided, every seat rotated: the start scores exactly 1/2, so ...
TARGET_GAIN, TARGET_GAIN_LOW = TARGET - 0.5, TARGET_LOW - 0.5    # ... the gain over the start it must reach
CONFIDENCE = 0.95
NOTE = ("the search score of the best trial is biased by selection (the best of many noisy estimates looks "
        "better than it is); only the confirmation run on fresh seeds decides")


# --- games ---------------------------------------------------------------------------------

class Arena:
    """Plays a candidate against opponents, one candidate seat, rotated over every seat, on the
    deals of one seed (every rotation and opponent meets the same deals)."""

    def __init__(self, module, rules, players: int, n_jobs: int = 1, engine: str = "python", seats=None):
        self.module, self.rules, self.players, self.n_jobs, self.engine = module, rules, players, n_jobs, engine
        #: the candidate's seats (0-based), each once per deal: every seat by default
        self.seats = tuple(range(players)) if seats is None else tuple(seats)

    def scores(self, candidate, opponents, deals: int, seed: int, engine: str | None = None) -> pd.DataFrame:
        """One row per game: opponent, seat (the candidate's), deal, won, lost, score.

        An opponent that plays like the candidate (`plan.policy_key`) makes every rotation of a deal
        the same game: it is played once and each seat's row read from it (same rows, 1/players of
        the games)."""
        parts = []
        for opponent in opponents:
            same = policy_key(self._policy(opponent)) == policy_key(self._policy(candidate))
            df = None
            for seat in self.seats:
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


def differs(a, b) -> bool:
    """Does a tuned value differ from the start's? Numbers within rounding of each other do not."""
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, numbers.Real) or not isinstance(b, numbers.Real):
        return a != b
    return not math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


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


def confirm(arena: Arena, tuned, opponent, label: str, games: int, seed: int) -> tuple[dict, pd.DataFrame]:
    """The confirmation run: `tuned` against `opponent` (named `label`) on about `games` games of
    fresh deals (`seed`: a stream no search rung uses), one tuned seat rotated over the arena's seats
    of each deal, with the Python engine; its win rate with the 95% interval, the deal as the unit
    (`summary`); and `opponent`'s own score in the same seats on the same deals (`baseline`), the
    gain over it paired by deal (`gain`, `gain_low`, `gain_high`, `p_value`: the deal as the unit).
    The verdict: gain >= TARGET_GAIN and gain_low > TARGET_GAIN_LOW. Returns (the summary row with
    the verdict, the one-row confirmation table)."""
    deals = max(1, math.ceil(games / len(arena.seats)))
    scores = arena.scores(tuned, [opponent], deals, seed, engine="python")
    base = arena.scores(opponent, [opponent], deals, seed, engine="python")
    key = ["seat", "deal"]
    pairs = scores[key + ["score"]].merge(base[key + ["score"]], on=key, suffixes=("", "_base"), validate="1:1")
    gain = clusters.paired_difference(pairs["score"].to_numpy(), pairs["score_base"].to_numpy(),
                                      pairs["deal"].to_numpy())
    row = summary(scores)
    row.update({"opponent": label, "baseline": float(base["score"].mean()), "gain": gain["diff"],
                "gain_low": gain["ci_low"], "gain_high": gain["ci_high"], "p_value": gain["p_value"],
                "target_gain": TARGET_GAIN,
                "meets_target": bool(gain["diff"] >= TARGET_GAIN - 1e-12 and gain["ci_low"] > TARGET_GAIN_LOW)})
    table = pd.DataFrame([row])[["opponent", "games", "deals", "wins", "losses", "no_winner", "win_rate",
                                 "ci_low", "ci_high", "baseline", "gain", "gain_low", "gain_high", "p_value",
                                 "target_gain", "meets_target"]]
    return row, table


# --- the search ------------------------------------------------------------------------------

def parse_seats(seats, players: int) -> tuple:
    """The candidate's seats as 0-based indices: every seat for None; else distinct seats in range."""
    if seats is None:
        return tuple(range(players))
    out = tuple(seats)
    if not out or any(isinstance(q, bool) or not isinstance(q, numbers.Integral) or not 0 <= q < players for q in out) \
            or len(set(out)) != len(out):
        raise ValueError(f"seats: distinct seat indices from 0 to {players - 1} (--seats counts from 1: 1 to "
                         f"{players}), got {seats!r}")
    return tuple(int(q) for q in out)


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
        return safe_io.write_text(path, json.dumps(self.to_data(), indent=1, default=_plain) + "\n")

    def to_text(self) -> str:
        search = self.provenance["search"]
        rows = [{"parameter": k, "start": self.start_params.get(k), "tuned": v,
                 "changed": differs(v, self.start_params.get(k))} for k, v in self.params.items()]
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
            f"verdict: tuned {verdict} the target (a gain over {self.start} in the same seats on the same deals "
            f">= {100 * TARGET_GAIN:.0f} points, its lower bound > {100 * TARGET_GAIN_LOW:.0f}; 'baseline' is "
            f"{self.start}'s own score there)"])

    def __str__(self) -> str:
        return self.to_text()


def tune_policy(game, start=None, pool=None, budget=40, games_per_trial: int = 200, seed: int = 0,
                n_jobs: int = 1, space=None, players: int | None = None, rules=None, reduction_factor: int = 3,
                rungs: int = 2, confirm_games: int | None = None, radius: float | None = None,
                storage: str | None = None, warm_start=None, seats=None,
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
    seats: the candidate's seats (0-based; default every seat, rotated): (1,) tunes the second seat's
    own weights, e.g. one Nerath realm's (`nerathsim.with_realm_params`); search and confirmation alike.
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
    seats = parse_seats(seats, players)
    per_deal = len(pool) * len(seats)
    first = max(1, math.ceil(games_per_trial / per_deal))
    deals = [first * reduction_factor ** k for k in range(rungs)]     # cumulative deals per rung
    arena = Arena(module, base_rules, players, n_jobs, engine, seats)
    warm, warm_sources = warm_points(warm_start, dims, start_params)
    spec = {"game": module.__name__, "start": start_label, "pool": [_label(p) for p in pool], "players": players,
            "space": [d.spec() for d in dims], "deals": deals, "seed": seed, "radius": radius, "rules": repr(base_rules)}
    if len(seats) != players:
        spec["seats"] = list(seats)
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
    params = {d.name: d.snap(best.params[d.name]) for d in dims}    # on the grid: 0.9, not 0.8999999999999999
    tuned = apply_params(module, start_policy, params, name="tuned")
    confirm_seed = fresh_seed(seed)
    confirm_games = confirm_games or 4 * deals[-1] * len(seats)
    row, confirmation = confirm(arena, tuned, start_label if start_label in module.POLICIES else start_policy,
                                start_label, confirm_games, confirm_seed)
    first_trial = min(study.trials, key=lambda t: t.number)
    design = (f"{players} players: the candidate in one seat, the opponent in the other {players - 1}, seats rotated "
              f"(every seat once per deal)") if len(seats) == players else (
        f"{players} players: the candidate in seat {', '.join(str(q + 1) for q in seats)} only (once per deal), the "
        f"opponent in the other {players - 1}")
    provenance = {
        "start": start_label, "pool": [_label(p) for p in pool], "players": players, "design": design,
        "seats": list(seats),
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
                         "ci_high": row["ci_high"], "confidence": CONFIDENCE, "unit": "deal",
                         "baseline": row["baseline"], "gain": row["gain"], "gain_low": row["gain_low"],
                         "gain_high": row["gain_high"], "p_value": row["p_value"],
                         "target": f"gain over the start in the same seats >= {TARGET_GAIN:.2f}, lower bound > {TARGET_GAIN_LOW:.2f}",
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
