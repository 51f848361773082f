"""What a joblib worker runs: play a chunk of games and send back plain columns.

This is the only analyses module a worker process imports to play games (with the package's
`__init__`, which imports nothing eagerly, and `games` and `plan`): numpy and the game module,
never pandas, scipy, pyarrow or matplotlib. A worker therefore starts in a fraction of a second
instead of spending seconds on the parent's statistics stack before its first game; the parent
turns the columns into the compact DataFrame (`frames.chunk_frame`). Keep it that way:
`tests/analyses/test_analyses_worker_imports.py` checks it in a fresh process.
"""
from __future__ import annotations

from .games import load_game
from .plan import RunSpec, deal_seed

INDEX_COLUMNS = ("game", "deal", "game_seed")


def play_chunk(spec: RunSpec, start: int, stop: int) -> dict[str, list]:
    """Play games `start` .. `stop - 1` of a run and return their rows as columns: the index
    columns (game, deal, game_seed) then the games' `to_record()` fields, one list per column."""
    module = load_game(spec.game)
    games = range(start, stop)
    deals = [spec.deal(i) for i in games]
    seeds_by_deal = {deal: deal_seed(int(spec.seed), deal) for deal in dict.fromkeys(deals)}
    seeds = [seeds_by_deal[deal] for deal in deals]
    records = [module.play_game(spec.rules, list(spec.seats(i)), seed).to_record() for i, seed in zip(games, seeds)]
    return {"game": list(games), "deal": deals, "game_seed": seeds, **record_columns(records)}


def record_columns(records: list[dict]) -> dict[str, list]:
    """The games' `to_record()` rows as columns (a field some rows lack is None there)."""
    names = list(dict.fromkeys(name for record in records[:1] for name in record))
    if any(record.keys() != records[0].keys() for record in records):  # rare: rows with different stats
        names = list(dict.fromkeys(name for record in records for name in record))
    return {name: [record.get(name) for record in records] for name in names}
