"""One game played with its event log kept, for a designer to watch (`balancelab replay`).

    from analyses.replay import record_game, record_from_results
    from reports.replay import Replay
    Replay(record_game("nerath", seed=3))                    # in Jupyter: the replay page inline
    record = record_from_results("runs/main.parquet", 0)     # game 0 of a stored run, replayed
    Replay(record).write("game.html")

`record_game` plays one game with `play_game(..., record=True)` and returns a `GameRecord`: plain
values only (the log, the report's lines split by event, the static tables the board is drawn from,
the result), so `reports.replay` can turn it into board states and a page without importing a
simulator. `record_from_results` takes the rules, the seats' policies and the game's seed from a
results file (`df.attrs` and the row) and checks that the replayed game ends as the stored row says.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import pandas as pd

from .games import load_game, make_rules, resolve_policies
from .io import read_results
from .metadata import jsonable, rules_dict

TITLES = {"nightsim": "Nightmarium", "dreamsim": "Midnighters", "nerathsim": "D&D: Conquest of Nerath"}
#: the games a replay page can draw (each has a board reducer in reports.replay)
DRAWN = tuple(TITLES)


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One recorded game as plain values (JSON-able): what a replay page is built from."""

    game: str                 # module name: nightsim, dreamsim or nerathsim
    title: str
    rules_version: str
    rules: dict               # rules_dict(rules)
    seats: list               # the policy name of each seat
    seed: int
    source: str               # how the game was chosen, e.g. "seed 3" or "runs/main.parquet, game 0"
    log: list                 # the events (jsonable)
    lines: list               # the report's lines caused by each event (one list per event)
    context: dict             # static tables: card names, the board, the map
    result: dict              # winner, turns, decisions, timed_out, scores


def record_game(game, seed: int = 0, policies=None, rules=None, source: str | None = None) -> GameRecord:
    """Play one game with its log kept. `policies`: one name for every seat, a comma-separated
    string or a list (default: the game's default policy); `rules`: None, a dict or a Rules."""
    module = load_game(game)
    if module.__name__ not in DRAWN:
        raise ValueError(f"game {module.__name__!r} has no replay board; replays exist for {', '.join(DRAWN)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    rules = make_rules(module, rules)
    lineup = resolve_policies(module, policies, rules.players)
    result = module.play_game(rules, list(lineup), seed, record=True)
    log = list(result.log)
    lines = module.event_lines(log, result.rules, result.seats)
    return GameRecord(
        game=module.__name__, title=TITLES[module.__name__], rules_version=str(module.RULES_VERSION),
        rules=rules_dict(rules), seats=[str(s) for s in result.seats], seed=int(seed),
        source=source or f"seed {seed}", log=jsonable(log), lines=lines,
        context=jsonable(CONTEXT[module.__name__](rules, result)),
        result=jsonable({"winner": result.winner, "turns": result.turns, "decisions": result.decisions,
                         "timed_out": result.timed_out, "scores": list(result.scores),
                         "row": {k: result.to_record()[k] for k in ("winner", "turns", "decisions")}}))


def record_from_results(results, index: int) -> GameRecord:
    """Replay game `index` of a results file (or table read by `read_results`): its rules from the
    run's metadata, its seats' policies and its seed from the row. ValueError when the run cannot be
    replayed (another rules version, rules the metadata cannot restore) or when the replayed game does
    not end as the stored row says. A run of a batch kernel replays like any other: the game is played
    again by the Python engine from the row's seed (the card games' kernels play the same games), and
    the same check says when a kernel's game is not the Python engine's."""
    df = results if isinstance(results, pd.DataFrame) else read_results(results)
    where = "the results" if isinstance(results, pd.DataFrame) else repr(str(results))
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(df):
        raise ValueError(f"--game-index must be a row of {where}: 0..{len(df) - 1}, got {index!r}")
    attrs = df.attrs
    module = load_game(attrs["game"])
    if attrs.get("rules_version") != module.RULES_VERSION:
        raise ValueError(f"{where} was played under {attrs.get('rules_version')}, this {module.__name__} is "
                         f"{module.RULES_VERSION}: its games cannot be replayed")
    row = df.iloc[index]
    seats = [row[f"seat{i}_policy"] for i in range(len(attrs.get("policies", []))) if pd.notna(row[f"seat{i}_policy"])]
    rules = restore_rules(module, attrs.get("rules", {}))
    name = (Path(str(results)).name if not isinstance(results, pd.DataFrame)
            else f"{attrs['study_run']} run" if attrs.get("study_run") else "the results")
    record = record_game(module, int(row["game_seed"]), seats, rules,
                         source=f"{name}, game {int(row['game'])} (row {index}, seed {int(row['game_seed'])})")
    stored = {k: (None if pd.isna(row[k]) else row[k].item() if hasattr(row[k], "item") else row[k])
              for k in ("winner", "turns", "decisions")}
    played = record.result["row"]
    same = all(str(v) == str(played[k]) for k, v in stored.items())
    if not same:
        cause = (f"the {module.__name__} batch kernel that played the run does not play the Python engine's game for "
                 "this seed" if attrs.get("engine", "python") != "python" else "the game's code has changed since the run")
        raise ValueError(f"game {index} of {where} replays differently (stored {stored}, replayed {played}): {cause}")
    return record


def restore_rules(module, stored: dict):
    """The Rules whose `rules_dict` is `stored` (a run's attrs['rules']): the published rules with
    every plain field that differs set from the metadata. ValueError when that does not give back the
    stored rules (a custom deck, map file or unit table is summarised there, not kept)."""
    base = module.Rules()
    published = rules_dict(base)
    changes = {}
    for name, value in stored.items():
        if published.get(name) == value:
            continue
        if isinstance(value, dict):
            raise ValueError(f"Rules.{name} of the run differs from the published one and cannot be restored "
                             "from the metadata")
        changes[name] = tuple(_tupled(v) for v in value) if isinstance(value, list) else value
    try:
        rules = make_rules(module, base, **changes) if changes else base
    except ValueError as exc:
        raise ValueError(f"the run's rules cannot be restored from its metadata ({exc})") from None
    if rules_dict(rules) != jsonable(stored):
        raise ValueError("the run's rules cannot be restored from its metadata (a custom deck, map or unit table)")
    return rules


def _tupled(value):
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def example_replays(runs: dict) -> tuple[dict, dict]:
    """({game: GameRecord} of the first game of each game's main run, {game: why there is none}): the
    report's "Watch a game" links. A main run that cannot be replayed (another rules version, a game
    that replays differently) is left out with its reason, never failing the report."""
    out, missing = {}, {}
    for name, game_runs in runs.items():
        main = game_runs.get("main")
        if main is None or load_game(name).__name__ not in DRAWN:
            continue
        try:
            out[name] = record_from_results(main, 0)
        except ValueError as exc:
            missing[name] = str(exc)
    return out, missing


# --- the static tables each game's board is drawn from -------------------------------------

def _nightsim_context(rules, result) -> dict:
    cards = importlib.import_module("nightsim.engine.cards")
    return {"cards": [{"name": repr(c), "number": c.number, "legion": cards.LEGIONS[c.legion],
                       "slots": list(c.slots), "seal": bool(c.seal),
                       "ability": cards.ABILITIES[c.ability] if c.ability >= 0 else None}
                      for c in rules.table.cards],
            "players": rules.players, "to_win": rules.creatures_to_win}


def _dreamsim_context(rules, result) -> dict:
    cards = importlib.import_module("dreamsim.engine.cards")
    rows, cols = rules.board[0], rules.board[1]
    return {"kinds": list(cards.KIND_NAMES), "locations": list(cards.LOCATION_NAMES), "rows": rows, "cols": cols,
            "neighbours": [list(n) for n in rules.board[5]],
            "arrows": [[list(a) for a in per_rot] for per_rot in cards.ARROWS],
            "suspense": {str(loc): cards.KIND_NAMES[k] for loc, k in cards.SUSPENSE_OF.items()},
            "star": cards.KIND_NAMES[cards.STAR], "town_hall": cards.TOWN_HALL, "players": rules.players}


def _nerathsim_context(rules, result) -> dict:
    maps = importlib.import_module("nerathsim.maps")
    b = rules.board
    units = rules.units.units
    return {"realms": list(maps.REALMS), "names": list(b.names), "is_sea": list(b.is_sea),
            "is_dungeon": list(b.is_dungeon), "owner": list(b.owner), "capital_of": list(b.capital_of),
            "gold": list(b.gold), "adj": [list(a) for a in b.adj], "unit_names": list(rules.units.names),
            "domain": {u.name: u.domain for u in units},
            "castle": next(u.name for u in units if u.places_units),
            "layout": _map_layout(maps, b), "seat_of": list(getattr(result, "factions", []) or [])}


def _map_layout(maps, board) -> list | None:
    """The map's grid of cells as rows of region indices (-1: none), when its file has a 'layout':
    the cells name regions by the map builder's codes (nerathsim/data/maps/build_maps.py, NAMES)."""
    try:
        data = json.loads(maps.map_path(board.name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    layout = data.get("layout")
    builder = maps.map_path(board.name).parent / "build_maps.py"
    if not layout or not builder.is_file():
        return None
    spec = importlib.util.spec_from_file_location("_nerath_map_builder", builder)
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)
    names = getattr(code, "NAMES", {})
    index = {n: i for i, n in enumerate(board.names)}
    grid = [[index.get(names.get(cell, cell), -1) for cell in row.split()] for row in layout]
    return grid if any(i >= 0 for row in grid for i in row) else None


CONTEXT = {"nightsim": _nightsim_context, "dreamsim": _dreamsim_context, "nerathsim": _nerathsim_context}
