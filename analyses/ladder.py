"""The skill ladder: do a game's balance findings survive better players?

    import analyses
    ladder = analyses.skill_ladder("nightsim", n_jobs=2)       # the default ladder (see below)
    ladder.ratings, ladder.pairwise, ladder.findings, ladder.metadata
    ladder.save("runs/ladder-nightsim.json"); analyses.ladder.Ladder.load(...)

**Rungs.** `default_ladder(game)`: 'random', every other shipped policy of the game (its
heuristics, in `POLICIES` order), 'tuned' when the game's POLICIES has it, and `ismcts:N` at the
game's two budgets (`SEARCH_BUDGETS`) when an IS-MCTS spec resolves for the game (it needs
`sample_state`; Nerath's `ismcts:N` is its macro search). Any list of policy names,
`ismcts:N[:k=v]` specs or policy objects (with a `name`) may be given instead.

**Ratings.** A round-robin of 2-player games: every pair of rungs plays `games` games (whole
deals of two games, seats rotated) on the same deals (common random numbers: game i of every
pairing uses the seed of deal i // 2). Nerath at 2 players is one alliance against the other
(each seat plays both realms of its alliance), the natural one-against-one game, so its ratings
use 2 players as well. A pairing with a search rung (`is_search_rung`, or the labels in
`search_rungs`) plays at most `search_games` games (the game's `SEARCH_GAMES`: Nerath's search
costs 20-55 s of CPU per game against 0.1 s for its heuristics), deals 0.. of the same seeds,
and a search rung at most `search_findings_games` self-play games; the bootstrap then draws deals
within the groups of deals played by the same pairings (`ladder_stats.deal_counts`). Bradley–Terry ratings by maximum likelihood, on the Elo scale anchored at
'random' = 0 (else the lowest rung), with 95% intervals from a percentile bootstrap over deals
(`analyses.ladder_stats`); the skill depth is the rating span and the number of significantly
distinct levels (`ladder_stats.skill_depth`). Draws count half a win each.

**Findings by rung.** At each rung, `findings_games` games of self-play (that policy in every
seat, `findings_players` seats: 2 by default, the ratings' game, because search rungs at 4 seats
cost several times more; give 4 for the study's main line-up) re-measure the game's headline
balance measures with 95% intervals, the deal as the unit, on the same deals at every rung:
each seat's win rate minus its fair share (Holm-adjusted p over the seats; at 2 Nerath players a
seat is an alliance, labelled with its realms: the alliance balance; in a team game the
alliances' rows; a realm always wins with its alliance, so realm rates repeat the alliance's), and
for games whose study measures card impact (Nightmarium, Midnighters) the largest card or ability
effect: the non-outcome stat with the largest |difference| at the reference rung (the study's
main policy if it is a rung, else the top rung), re-measured at every rung (association, not
cause; chosen as the largest, so its reference-rung p-value is optimistic). Nerath's unit effects
come from exact battle calculators that do not depend on the players, so they are not included.
A finding is robust when it is significant with the same sign at the two top-rated rungs.
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import beta, binomtest

from . import frames, limits, safe_io
from . import ladder_stats as ls
from .card_impact import card_impact, split_outcomes
from .clusters import rates, score_pvalue
from .first_player import first_player_advantage
from .games import load_game, make_rules, resolve_policies
from .metadata import jsonable, package_version
from .options import LADDER_FINDINGS_GAMES as DEFAULT_FINDINGS_GAMES
from .options import LADDER_GAMES as DEFAULT_GAMES
from .options import LADDER_SEARCH_FINDINGS_GAMES as SEARCH_FINDINGS_GAMES
from .options import LADDER_SEARCH_GAMES as SEARCH_GAMES
from .runner import positive_int, progress_bar, simulate, simulate_runs
from .search import ISMCTSPolicy, MacroSearchPolicy
from .study import PLANS
from .tables import Tables, format_table
from .teams import is_team_game, teams

FORMAT = "balancelab-ladder-1"
#: IS-MCTS iterations per decision of the two search rungs of the default ladder ("default": the game's
#: `SEARCH_DEFAULT` spec, `ismcts:default`; Midnighters' plain ismcts:10 ranked below every heuristic in the
#: a measured ladder, its default search plays at `tuned`'s strength: dreamsim/README.md "Search").
#: Nerath's `ismcts:N` is the macro search over `tuned`'s plans (`nerathsim.SEARCH_DEFAULT` =
#: `ismcts:16:base=tuned`); in the ladder's 2-player game a search seat searches for both realms of its
#: alliance. Nerath's default ladder has one search rung, 4 rollouts a macro decision over the movement and
#: purchase plans (`steps=0`: press on or retreat stays the heuristic's, about half the rollouts; a tie keeps the
#: heuristic's choice, `margin=1e-9`), played 100 games a pairing (SEARCH_GAMES): ~6 CPU s a game, ~30 minutes
#: for its pairings on 2 cores (`benchmarks/speed/bench_nerath_search.py`). `ismcts:default` costs ~29 CPU s a
#: game; add it with `--ladder ...,ismcts:default`.
SEARCH_BUDGETS = {"nightsim": (25, 100), "dreamsim": (40, "default"), "nerathsim": ("4:base=tuned:steps=0:margin=1e-9",)}
FALLBACK_GAMES = 200
SEARCH_POLICIES = (ISMCTSPolicy, MacroSearchPolicy)
ALPHA = 0.05


@dataclasses.dataclass(frozen=True)
class Ladder(Tables):
    """A skill ladder's tables and what was played (`metadata`: game, rungs, games, depth, ...)."""

    ratings: pd.DataFrame    # one row per rung: elo [interval], level, games, score, rank
    pairwise: pd.DataFrame   # one row per pairing: score of `rung` against `opponent`, rating difference
    findings: pd.DataFrame   # one row per finding and rung, with the finding's `robust` verdict
    metadata: dict = dataclasses.field(default_factory=dict, metadata={"table": False})

    def to_text(self) -> str:
        m = self.metadata
        search = ""
        if m.get("search_rungs") and (m.get("search_games_per_pairing"), m.get("search_findings_games")) != (
                m.get("games_per_pairing"), m.get("findings_games")):
            search = (f"search rungs ({', '.join(m['search_rungs'])}): {m.get('search_games_per_pairing')} games per "
                      f"pairing, {m.get('search_findings_games')} self-play games; ")
        head = (f"{m.get('game')} ({m.get('rules_version')}) skill ladder: {len(self.ratings)} rungs, "
                f"{m.get('games_per_pairing')} games per pairing at {m.get('players')} players, "
                f"{m.get('findings_games')} self-play games per rung at {m.get('findings_players')} players; {search}"
                f"{m.get('games_played', 0):,} games, seed {m.get('seed')}, {m.get('seconds', 0):.0f} s\n"
                f"ratings: Bradley–Terry, Elo scale, {m.get('anchor')} = 0; 95% intervals: {m.get('interval_method')}\n"
                f"skill depth: span {m.get('span', math.nan):.0f} Elo [{m.get('span_low', math.nan):.0f}, "
                f"{m.get('span_high', math.nan):.0f}], {m.get('levels')} significantly distinct level(s): "
                f"{' < '.join(m.get('chain', []))}")
        ratings = self.ratings.drop(columns=[c for c in ("se_fisher",) if c in self.ratings])
        findings = self.findings[[c for c in FINDING_TEXT_COLUMNS if c in self.findings]]
        verdicts = ""
        if len(self.findings):
            first = self.findings.groupby("finding", sort=False)[["robust", "verdict"]].first()
            verdicts = "== robust? (top two rungs: " + ", ".join(m.get("top", [])) + ") ==\n" + "\n".join(
                f"{'ROBUST' if r.robust else 'not robust'}: {f} — {r.verdict}" for f, r in first.iterrows())
        return "\n\n".join([head, f"== ratings ==\n{format_table(ratings)}",
                            f"== pairwise ==\n{format_table(self.pairwise)}",
                            f"== findings by rung ==\n{format_table(findings)}" if len(findings) else "",
                            verdicts]).rstrip()

    def save(self, path) -> Path:
        """Write the ladder as one JSON file (tables in pandas' 'split' layout), read by `Ladder.load`."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "metadata": jsonable(self.metadata),
                **{name: json.loads(t.to_json(orient="split", index=False)) for name, t in self.tables().items()}}
        return safe_io.write_text(path, json.dumps(data, indent=1))

    @classmethod
    def load(cls, path) -> Ladder:
        """A ladder written by `save` (ValueError naming the file if it is not one)."""
        path = Path(path)
        data = limits.load_json(path, "ladder file")
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{str(path)!r} is not a skill ladder file (format {FORMAT}); "
                             "write one with `balancelab ladder GAME --out FILE`")
        tables = {name: pd.DataFrame(data[name]["data"], columns=data[name]["columns"])
                  for name in ("ratings", "pairwise", "findings")}
        if "robust" in tables["findings"]:
            tables["findings"]["robust"] = tables["findings"]["robust"].astype(bool)
        return cls(**tables, metadata=data.get("metadata", {}))


FINDING_COLUMNS = ["finding", "kind", "rung", "elo", "games", "estimate", "ci_low", "ci_high", "p_value", "p_holm",
                   "significant", "top", "robust", "verdict"]
FINDING_TEXT_COLUMNS = ("finding", "rung", "elo", "games", "estimate", "ci_low", "ci_high", "p_value",
                        "significant", "robust")


def default_ladder(game) -> list[str]:
    """The default rungs of `game`: random, its heuristics, tuned (if shipped), ismcts at two budgets."""
    module = load_game(game)
    names = list(module.POLICIES)
    rungs = (["random"] if "random" in names else []) + [p for p in names if p not in ("random", "tuned")]
    if "tuned" in names:
        rungs.append("tuned")
    for budget in SEARCH_BUDGETS.get(module.__name__, ()):
        try:
            resolve_policies(module, f"ismcts:{budget}", 1)
        except ValueError:  # no sample_state for this game: no search rung
            continue
        rungs.append(f"ismcts:{budget}")
    return rungs


def rung_name(entry) -> str:
    """The label of a rung: its name, or a policy object's `name`."""
    return entry if isinstance(entry, str) else str(getattr(entry, "name", "") or repr(entry))


def skill_ladder(game, ladder=None, games: int | None = None, seed: int = 0, n_jobs: int = 1, rules=None,
                 players: int = 2, findings_games: int | None = None, findings_players: int | None = None,
                 bootstrap: int = ls.BOOTSTRAP, confidence: float = 0.95, impact: bool | None = None,
                 progress: bool = True, backend: str | None = None, search_games: int | None = None,
                 search_findings_games: int | None = None, search_rungs=None, scheduler: str | None = None,
                 engine: str = "auto") -> Ladder:
    """Round-robin ratings of the `ladder`'s rungs and the game's balance findings at every rung.

    ladder: rung names / `ismcts:N` specs / policy objects (None: `default_ladder(game)`), or a
        comma-separated string. games: per pairing (rounded up to whole deals of 2; None: the
        game's DEFAULT_GAMES). findings_games: self-play games per rung (0: no findings).
    search_games, search_findings_games: at most this many games for a pairing with a search rung and
        self-play games of a search rung (None: the game's SEARCH_GAMES / SEARCH_FINDINGS_GAMES, else
        `games` / `findings_games`); a pairing plays deals 0.. of the same seeds as every pairing, so
        its deals are a subset of the others'. search_rungs: labels of the rungs that count as search
        (None: the rungs that are search policies, `is_search_rung`).
    n_jobs, backend, scheduler: where the games run, as for `simulate` (scheduler: a dask scheduler's
        address for backend 'dask').
    engine: `simulate`'s for every run ('auto': a game's batch kernel for the pairings and self-play it can
        play, else Python; `metadata["engines"]` says which engine played each pairing and rung).
    rules: None or a dict of Rules fields (the published game); `players` seats for the ratings,
        `findings_players` (default `players`) for the findings. impact: measure the largest
        card effect (None: when the game's study measures card impact).
    Returns a `Ladder`; `metadata["games_played"]` counts every game played.
    """
    started = time.perf_counter()
    module = load_game(game)
    name = module.__name__
    entries = _rungs(module, default_ladder(module) if ladder is None else ladder)
    labels = [rung_name(e) for e in entries]
    games = positive_int(DEFAULT_GAMES.get(name, FALLBACK_GAMES) if games is None else games, "games")
    games = 2 * math.ceil(games / 2)
    findings_games = _count(DEFAULT_FINDINGS_GAMES.get(name, FALLBACK_GAMES) if findings_games is None
                            else findings_games, "findings_games")
    search_games = positive_int(SEARCH_GAMES.get(name, games) if search_games is None else search_games,
                                "search_games")
    search_games = min(games, 2 * math.ceil(search_games / 2))
    search_findings_games = min(findings_games, _count(SEARCH_FINDINGS_GAMES.get(name, findings_games)
                                                       if search_findings_games is None else search_findings_games,
                                                       "search_findings_games"))
    searching = _search_labels(entries, labels, search_rungs)
    pair_games = {(i, j): search_games if {labels[i], labels[j]} & searching else games
                  for i, j in itertools.combinations(range(len(entries)), 2)}
    rung_findings = [search_findings_games if label in searching else findings_games for label in labels]
    findings_players = players if findings_players is None else findings_players
    rating_rules = {**(rules or {}), "players": players}
    finding_rules = {**(rules or {}), "players": findings_players}
    make_rules(module, rating_rules), make_rules(module, finding_rules)  # bad rules fail before any game
    pairs = list(pair_games)
    total = sum(pair_games.values()) + sum(rung_findings)
    runs = {}
    with progress_bar(total, progress) as bar:
        if hasattr(bar, "set_description"):
            bar.set_description(f"{name} ladder")
        for i, j in pairs:
            if not {labels[i], labels[j]} & searching:
                runs[(i, j)] = play_pairing(module, entries[i], entries[j], pair_games[(i, j)] // 2, rating_rules,
                                            seed, n_jobs, backend, bar, scheduler, engine)
        selfplay = {}
        for i, entry in enumerate(entries):
            if rung_findings[i] and labels[i] not in searching:
                selfplay[labels[i]] = simulate(module, rung_findings[i], rules=finding_rules, policies=entry,
                                               seed=seed, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                                               progress=bar, engine=engine)
        searched_runs, searched_selfplay = play_search_games(
            module, [(i, j) for i, j in pairs if {labels[i], labels[j]} & searching], entries, pair_games,
            {i for i in range(len(entries)) if labels[i] in searching}, rung_findings,
            rating_rules, finding_rules, seed, n_jobs, backend, bar, scheduler, engine)
        runs = {pair: runs[pair] if pair in runs else searched_runs[pair] for pair in pairs}
        selfplay = {labels[i]: selfplay[labels[i]] if labels[i] in selfplay else searched_selfplay[i]
                    for i in range(len(entries)) if rung_findings[i]}
    record = pairing_records(runs, labels)
    deal_scores = deal_score_tensor(record, len(labels), int(record["deal"].max()) + 1)
    ratings, boot = ls.ladder_ratings(deal_scores, labels, bootstrap=bootstrap, seed=seed, confidence=confidence)
    depth = ls.skill_depth(ratings["elo"].to_numpy(), boot, confidence)
    ratings.insert(4, "level", depth["level"])
    pairwise = pairwise_table(record, labels, ratings["elo"].to_numpy(), boot, confidence)
    impact = PLANS[name].impact if impact is None and name in PLANS else bool(impact)
    top = list(ratings.sort_values("elo", ascending=False)["rung"].head(2))
    reference = PLANS[name].main if name in PLANS and PLANS[name].main in labels else top[0]
    findings = findings_by_rung(selfplay, ratings, top, reference, impact, confidence) if selfplay else pd.DataFrame()
    example = next(iter(runs.values()))
    metadata = {
        "game": name, "rules_version": str(module.RULES_VERSION), "rules": example.attrs.get("rules", {}),
        "ladder": labels, "policy_reprs": _reprs(runs, selfplay), "seed": int(seed), "players": players,
        "findings_players": findings_players, "games_per_pairing": games, "deals": games // 2,
        "findings_games": findings_games, "pairings": len(pairs),
        "search_rungs": [x for x in labels if x in searching], "search_games_per_pairing": search_games,
        "search_findings_games": search_findings_games,
        "pairing_games": {f"{labels[i]} vs {labels[j]}": n for (i, j), n in pair_games.items()},
        "games_played": int(sum(len(df) for df in runs.values()) + sum(len(df) for df in selfplay.values())),
        "rating_games": int(sum(len(df) for df in runs.values())),
        "findings_games_played": int(sum(len(df) for df in selfplay.values())),
        "anchor": ratings.attrs["anchor"], "bootstrap": bootstrap, "confidence": confidence,
        "interval_method": f"percentile bootstrap over deals ({bootstrap} replicates; a deal is played by every "
                           "pairing with seats rotated, common random numbers); draws count half",
        "pseudo_wins": ls.PSEUDO_WINS, "span": depth["span"], "span_low": depth["span_low"],
        "span_high": depth["span_high"], "levels": depth["levels"], "chain": [labels[i] for i in depth["chain"]],
        "top": top, "impact_reference": reference if impact else None, "n_jobs": n_jobs,
        "engine": engine, "engines": ladder_engines(runs, selfplay, labels),
        "seconds": time.perf_counter() - started, "balancelab_version": package_version(),
    }
    return Ladder(ratings=ratings, pairwise=pairwise, findings=findings, metadata=jsonable(metadata))


def is_search_rung(entry) -> bool:
    """Whether a rung is a search policy (IS-MCTS or Nerath's macro search: its games cost far more)."""
    return isinstance(entry, SEARCH_POLICIES)


def _search_labels(entries: list, labels: list, search_rungs) -> set:
    if search_rungs is None:
        return {label for entry, label in zip(entries, labels) if is_search_rung(entry)}
    chosen = [search_rungs] if isinstance(search_rungs, str) else list(search_rungs)
    unknown = [x for x in chosen if x not in labels]
    if unknown:
        raise ValueError(f"search_rungs: {', '.join(map(str, unknown))} not a rung of the ladder ({', '.join(labels)})")
    return set(chosen)


def _count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    return value


def _rungs(module, ladder) -> list:
    if isinstance(ladder, str):
        ladder = [p.strip() for p in ladder.split(",") if p.strip()]
    entries = resolve_policies(module, list(ladder), len(ladder)) if len(ladder) > 1 else list(ladder)
    if len(entries) < 2:
        raise ValueError(f"ladder: give at least two rungs, got {len(entries)}")
    labels = [rung_name(e) for e in entries]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise ValueError(f"ladder: rung {', '.join(twice)} given twice; every rung needs its own name")
    return entries


def _reprs(runs: dict, selfplay: dict) -> dict:
    out = {}
    for df in [*runs.values(), *selfplay.values()]:
        out.update(zip(df.attrs.get("policies", []), df.attrs.get("policy_reprs", [])))
    return out


def ladder_engines(runs: dict, selfplay: dict, labels: list) -> dict:
    """{pairing 'a vs b' or 'self-play a': the engine that played it} from the runs' metadata, with
    the kernel's refusal when engine='auto' fell back to Python ('python (why)')."""
    def said(df):
        engine = str(df.attrs.get("engine", "python"))
        fallback = df.attrs.get("engine_fallback")
        return f"{engine} ({fallback})" if fallback else engine
    out = {f"{labels[i]} vs {labels[j]}": said(df) for (i, j), df in runs.items()}
    out.update({f"self-play {label}": said(df) for label, df in selfplay.items()})
    return out


def play_pairing(module, a, b, deals: int, rules: dict, seed: int, n_jobs: int, backend, bar,
                 scheduler: str | None = None, engine: str = "auto") -> pd.DataFrame:
    """Deals 0..deals-1 played twice, `a` in seat 0 then `b` in seat 0 (seat order 'fixed', so game d of
    each order is deal d with the seed of deal d: the same deals in every pairing and in the self-play
    runs). Rotation is not left to `simulate`: two rungs with equal parameters (Nightmarium's
    `heuristic` and `greedy`) would be merged into one seat order."""
    parts = [simulate(module, deals, rules=rules, policies=lineup, seed=seed, n_jobs=n_jobs, backend=backend,
                      scheduler=scheduler, seat_order="fixed", progress=bar, engine=engine)
             for lineup in ([a, b], [b, a])]
    df = pd.concat(parts, ignore_index=True)
    df.attrs = parts[0].attrs
    return df


def play_search_games(module, pairs: list, entries: list, pair_games: dict, search: set, rung_findings: list,
                      rating_rules: dict, finding_rules: dict, seed: int, n_jobs: int, backend, bar,
                      scheduler: str | None = None, engine: str = "auto") -> tuple[dict, dict]:
    """The search rungs' games (`search`: their indices; the pairings with a search rung, the search
    rungs' self-play) in one pool,
    one game per task (`runner.simulate_runs`): the same frames as `play_pairing` and `simulate` run by
    run, but a search game takes 20-55 s (Nerath) and a run of two of them left one worker idle for
    most of the slower; interleaved, both workers stay busy. The most costly runs go first (self-play
    of a search rung, then pairings of two search rungs), so the pool ends on short games."""
    runs = {}
    rungs = [i for i in sorted(search) if rung_findings[i]]
    for i in rungs:
        runs[("self", i)] = {"n_games": rung_findings[i], "rules": finding_rules, "policies": entries[i], "seed": seed,
                             "engine": engine}
    both = [p for p in pairs if set(p) <= search]
    for i, j in both + [p for p in pairs if p not in both]:
        for order, lineup in enumerate(([entries[i], entries[j]], [entries[j], entries[i]])):
            runs[(i, j, order)] = {"n_games": pair_games[(i, j)] // 2, "rules": rating_rules, "policies": lineup,
                                   "seed": seed, "seat_order": "fixed", "engine": engine}
    played = simulate_runs(module, runs, n_jobs=n_jobs, backend=backend, progress=bar, scheduler=scheduler)
    pairings = {}
    for i, j in pairs:
        parts = [played[(i, j, 0)], played[(i, j, 1)]]
        pairings[(i, j)] = pd.concat(parts, ignore_index=True)
        pairings[(i, j)].attrs = parts[0].attrs
    return pairings, {i: played[("self", i)] for i in rungs}


def pairing_records(runs: dict, labels: list) -> pd.DataFrame:
    """One row per rating game: a, b (rung indices), deal, a_seat, score of a (1, 0.5 draw, 0)."""
    parts = []
    for (i, j), df in runs.items():
        seat0 = df["seat0_policy"].astype(str).to_numpy()
        a_seat = np.where(seat0 == labels[i], 0, 1)
        other = df["seat1_policy"].astype(str).to_numpy()
        if not np.all(np.where(a_seat == 0, other, seat0) == labels[j]):
            raise ValueError(f"ladder: the results do not name rungs {labels[i]!r} and {labels[j]!r} in their seats "
                             "(a policy object's `name` must be what the game records). "
                             f"Reproduce with analyses.simulate({df.attrs.get('game')!r}, 2, policies=[...])")
        won = frames.seat_wins(df)[:, :2]
        decided = frames.decided(df).to_numpy()
        a_won = won[np.arange(len(df)), a_seat]
        score = np.where(decided, a_won.astype(float), 0.5)
        parts.append(pd.DataFrame({"a": i, "b": j, "deal": df["deal"].to_numpy(np.int64), "a_seat": a_seat,
                                   "score": score, "decided": decided}))
    return pd.concat(parts, ignore_index=True)


def deal_score_tensor(record: pd.DataFrame, k: int, deals: int) -> np.ndarray:
    """(deals, k, k): score of rung i against rung j in each deal (both seat orders summed)."""
    d = np.zeros((deals, k, k))
    np.add.at(d, (record["deal"], record["a"], record["b"]), record["score"])
    np.add.at(d, (record["deal"], record["b"], record["a"]), 1 - record["score"])
    return d


def pairwise_table(record: pd.DataFrame, labels: list, elo, boot, confidence: float = 0.95) -> pd.DataFrame:
    """Per pairing: the first rung's score against the second (wins + draws/2 over games) with its
    95% interval and p-value against 50%, and the rating difference with its bootstrap interval;
    `separated` when that interval excludes 0.

    The unit of the score's interval (`unit`) is the deal (both seat orders of one seed, clustered)
    when the pairing played at least `ladder_stats.MIN_STRATUM_DEALS` deals, else the game (`exact_score`:
    Clopper–Pearson over games): a clustered variance from 2 deals is no estimate at all (two deals that
    each split 1–1 give the interval [0.5, 0.5]), and at 4 games even Wilson's interval covers 50% only
    7 times in 8. With seats swapped inside a deal, a deal that favours one seat makes its two games'
    scores negatively correlated, so counting games as independent errs wide rather than narrow;
    `test_a_pairing_of_two_deals_gets_a_game_level_interval` checks the coverage under that design."""
    rows = []
    for (i, j), games in record.groupby(["a", "b"], sort=True):
        score = games["score"].to_numpy()
        deals = games["deal"].to_numpy()
        by_deal = len(np.unique(deals)) >= ls.MIN_STRATUM_DEALS
        if by_deal:
            table = rates(score[:, None], np.ones((len(games), 1)), deals, expected=0.5, confidence=confidence).iloc[0]
        else:
            table = exact_score(score, confidence)
        diff, low, high, p = ls.pairwise_elo(boot, elo, int(i), int(j), confidence)
        rows.append({"rung": labels[i], "opponent": labels[j], "games": len(games),
                     "wins": int((score == 1).sum()), "losses": int((score == 0).sum()),
                     "draws": int((~games["decided"]).sum()), "score": table["rate"], "ci_low": table["ci_low"],
                     "ci_high": table["ci_high"], "p_value": table["p_value"], "elo_diff": diff,
                     "elo_diff_low": low, "elo_diff_high": high, "separated": bool(low > 0 or high < 0),
                     "unit": "deal" if by_deal else "game"})
    return pd.DataFrame(rows)


def exact_score(score, confidence: float = 0.95) -> dict:
    """Score rate over games (1 win, 0.5 draw, 0 loss) with the Clopper–Pearson interval (beta quantiles,
    so k = wins + draws / 2 may be fractional) and the two-sided exact binomial p-value against 50%
    (draws: the score test); guaranteed coverage at any number of games."""
    score = np.asarray(score, dtype=float)
    n, k = len(score), float(score.sum())
    tail = (1 - confidence) / 2
    low = 0.0 if k == 0 else float(beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(1 - tail, k + 1, n - k))
    if k == round(k):
        p = float(binomtest(int(k), n, 0.5).pvalue)
    else:
        p = float(score_pvalue(k / n, 0.5, n))
    return {"rate": k / n, "ci_low": low, "ci_high": high, "p_value": p}


def findings_by_rung(selfplay: dict, ratings: pd.DataFrame, top: list, reference: str, impact: bool,
                     confidence: float = 0.95) -> pd.DataFrame:
    """One row per finding and rung (seat/alliance balance, the largest card effect), marked robust."""
    elo = dict(zip(ratings["rung"], ratings["elo"]))
    rows = []
    for rung, df in selfplay.items():
        rows += [{**r, "rung": rung, "elo": elo[rung], "games": len(df)} for r in balance_rows(df, confidence)]
    if impact and reference in selfplay:
        stat = largest_effect(selfplay[reference])
        for rung, df in selfplay.items() if stat else ():
            row = effect_row(df, stat)
            if row is not None:
                rows.append({**row, "rung": rung, "elo": elo[rung], "games": len(df)})
    if not rows:
        return pd.DataFrame()
    table = pd.DataFrame(rows)
    table["significant"] = table["p_holm"].fillna(table["p_value"]) < ALPHA
    table = ls.mark_robust(table, top)
    first_seen = {f: k for k, f in enumerate(dict.fromkeys(table["finding"]))}
    table = table.assign(_f=table["finding"].map(first_seen)).sort_values(["_f", "elo"], kind="stable")
    return table[FINDING_COLUMNS].reset_index(drop=True)


def balance_rows(df: pd.DataFrame, confidence: float = 0.95) -> list[dict]:
    """Each seat's (in a team game each alliance's) win rate minus its fair share, in points."""
    if is_team_game(df):
        table = teams(df, confidence)
        return [{"finding": f"alliance {str(r['team']).replace('_', ' ')}: win rate − fair share", "kind": "alliance",
                 "estimate": r["effect_pp"], "ci_low": 100 * (r["ci_low"] - r["expected"]),
                 "ci_high": 100 * (r["ci_high"] - r["expected"]), "p_value": r["p_value"], "p_holm": r["p_holm"]}
                for _, r in table.iterrows()]
    seats = first_player_advantage(df, confidence=confidence).seats
    out = []
    for _, r in seats.iterrows():
        seat = int(r["seat"])
        column = f"seat{seat}_faction"
        who = f" ({str(df[column].mode().iloc[0]).replace('+', ' + ').replace('_', ' ')})" if column in df else ""
        kind = "alliance" if "+" in who else "seat"
        out.append({"finding": f"seat {seat + 1}{who}: win rate − fair share", "kind": kind,
                    "estimate": r["effect_pp"], "ci_low": 100 * (r["ci_low"] - r["expected"]),
                    "ci_high": 100 * (r["ci_high"] - r["expected"]), "p_value": r["p_value"], "p_holm": r["p_holm"]})
    return out


def largest_effect(df: pd.DataFrame) -> str | None:
    """The card/ability stat with the largest |win-rate difference| (outcome-like stats left out)."""
    impact, _ = split_outcomes(card_impact(df).impact)
    impact = impact.dropna(subset=["diff_pp"])
    if not len(impact):
        return None
    return str(impact.loc[impact["diff_pp"].abs().idxmax(), "stat"])


def effect_row(df: pd.DataFrame, stat: str) -> dict | None:
    impact = card_impact(df).impact
    hit = impact[impact["stat"] == stat]
    if not len(hit):
        return None
    r = hit.iloc[0]
    return {"finding": f"{stat.replace('_', ' ')}: win rate with − without", "kind": "impact",
            "estimate": r["diff_pp"], "ci_low": r["diff_low"], "ci_high": r["diff_high"], "p_value": r["p_value"],
            "p_holm": np.nan}


def load_ladders(path) -> dict:
    """{game: Ladder} from one ladder file or a folder of them (`*.json`, the last one per game wins)."""
    path = Path(path)
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    if not files:
        raise ValueError(f"{str(path)!r} holds no ladder files (*.json written by `balancelab ladder --out`)")
    ladders = {}
    for f in files:
        ladder = Ladder.load(f)
        ladders[ladder.metadata.get("game", f.stem)] = ladder
    return ladders
