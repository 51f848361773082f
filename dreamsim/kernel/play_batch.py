"""A numba batch kernel for Midnighters: whole games of the rules it supports, for the built-in
`random` policy and every `HeuristicPolicy` (`heuristic`, `runner`, `trickster`, `horror`, `tuned`
and any other `Weights`), many games per call.

    from dreamsim.kernel.play_batch import KERNEL
    KERNEL.supports(rules, ["random"] * 4)             # -> True
    KERNEL.supports(rules, ["heuristic"] * 4)          # -> True
    records = KERNEL.play_batch(rules, ["random"] * 4, seeds=range(1000))
    records = KERNEL.play_batch(rules, [lineup_of_game_i, ...], seeds)   # one lineup per seed

`play_batch` returns one dict per seed equal to `dreamsim.play_game(rules, policies, seed).to_record()`:
the same game, record for record. The Python engine stays the reference: the kernel (`core`,
`frames`, `play`) mirrors `engine/engine.py` frame by frame, lists the legal actions in the
engine's order, and draws the same numbers from the same streams (`simcore.stream_kernel`, the twin of
the engine's `simcore.stream`): stream 0 of the seed for chance, stream 1 + i for seat i's policy.
`tests/dreamsim/test_dreamsim_kernel_equality.py` plays fixed seeds through both and compares the
records; `bridge` finds the first decision where the two part, should they ever.

The heuristic (`heur_board`, `heur`, `heur_score`, `heur_play`) is
`HeuristicPolicy` compiled: at the same position it gives every legal action the same score as the
Python policy and plays the same action, its tie-break among equal best scores included (one
`below(number of best)` from the seat's stream). Its weights are a float row (`weights_row`): the
`Weights` fields in order, then the card values and the mean value of a card drawn, as the Python
policy derives them.

Supported rules: `PARAMETERS` at any value `Rules` accepts (the numbers: players, max_turns, hand_size,
the action counts and prices, cancel_debt, the first-turn compensations; debt_carries_over,
discard_action, black_ignores_town_hall; start, stager, horror_hand_limit, paralysis, nightmares; any
`layout` of up to 64 cells), every other field at its default; anything else is refused by `supports`
(False) and `play_batch` (ValueError naming the field).
"""
from __future__ import annotations

import time
from dataclasses import fields
from types import SimpleNamespace

import numpy as np

from simcore.kernel_cache import is_cached
from simcore.stream import seed_int

from ..engine.engine import STAT_NAMES
from ..game import TIMEOUT_CAUSES, policy_name
from ..policies.policies import POLICIES, HeuristicPolicy, RandomPolicy, Weights
from ..rules import _CHOICES, Rules
from . import cache  # noqa: F401  (numba's cache of the kernel: fresh across all its source files)
from . import layout as K
from .heur_board import N_W, N_WEIGHT_FIELDS, W_CV, W_MEAN_DRAW
from .heur_play import POL_HEURISTIC, POL_RANDOM, play_games_policies
from .play import GAME_FIELDS, SEAT_FIELDS, play_games

#: Rules fields the kernel takes as parameters (every value `Rules` accepts); every other field must keep
#: its default. They include every field a rebalance knob (`knobs.KNOBS`) or a sensitivity reading
#: (`decisions.DECISIONS`) varies, except `refill`, `intercept_takes` and `town_hall_discards`.
PARAMETERS = ("players", "max_turns", "hand_size", "actions_per_turn", "multicolour_actions", "colourless_actions",
              "trap_actions", "dutch_angle_actions", "steal_actions", "cancel_debt", "debt_carries_over",
              "discard_action", "layout", "extra_first_turn_seats", "reduced_first_turn_last_seats", "start",
              "stager", "black_ignores_town_hall", "horror_hand_limit", "paralysis", "nightmares")
_DEFAULTS = Rules()
#: the heuristic's weights as the kernel reads them (heur_board.W_*): Weights fields in order
WEIGHT_FIELDS = tuple(f.name for f in fields(Weights))
assert len(WEIGHT_FIELDS) == N_WEIGHT_FIELDS and W_CV == N_WEIGHT_FIELDS


def unsupported(rules, policies) -> str | None:
    """Why the kernel cannot play this set-up, or None when it can."""
    if not isinstance(rules, Rules):
        return f"rules must be a dreamsim.Rules, got {type(rules).__name__}"
    for f in fields(Rules):
        if f.name not in PARAMETERS and getattr(rules, f.name) != getattr(_DEFAULTS, f.name):
            return (f"the kernel implements Rules.{f.name}={getattr(_DEFAULTS, f.name)!r} only "
                    f"(got {getattr(rules, f.name)!r})")
    rows, cols = rules.board[0], rules.board[1]
    if rows * cols > K.MAX_CELLS:
        return f"the kernel takes layouts of at most {K.MAX_CELLS} cells (Rules.layout has {rows * cols})"
    if len(start_locations(rules)) < rules.players:
        return f"Rules.start={rules.start!r}: the layout has fewer Corridors than the {rules.players} players"
    if isinstance(policies, (str, bytes)) or not hasattr(policies, "__len__") or len(policies) != rules.players:
        return f"policies: give one per seat ({rules.players})"
    for p in policies:
        if _policy(p) is None:
            return (f"the kernel plays the built-in 'random' policy and HeuristicPolicy objects "
                    f"({', '.join(sorted(k for k, v in POLICIES.items() if _policy(v) is not None))}) only "
                    f"(got {policy_name(p)!r})")
    return None


def _require_kernel(rules, lineup) -> None:
    """Raise the kernel's clear error when `unsupported` names a reason it cannot play `lineup`."""
    why = unsupported(rules, lineup)
    if why is not None:
        raise ValueError(f"dreamsim kernel: {why}. Reproduce with dreamsim.kernel.play_batch.unsupported(rules, "
                         f"policies); play such games with dreamsim.play_game")


def _policy(p):
    """The policy object the kernel plays for a seat entry (a name or an object), or None."""
    if isinstance(p, str):
        p = POLICIES.get(p)
    if type(p) is RandomPolicy or type(p) is HeuristicPolicy:
        return p
    return None


def weights_row(policy: HeuristicPolicy) -> np.ndarray:
    """The kernel's weight row of a HeuristicPolicy: its Weights fields in order, then the card
    value of each kind and the mean value of a card drawn (Weights.card_values)."""
    w = policy.weights
    row = np.zeros(N_W, dtype=np.float64)
    row[:N_WEIGHT_FIELDS] = [float(getattr(w, name)) for name in WEIGHT_FIELDS]
    cv, mean_draw = w.card_values()
    row[W_CV:W_CV + len(cv)] = cv
    row[W_MEAN_DRAW] = mean_draw
    return row


def start_locations(rules: Rules) -> list:
    """Each seat's starting location, as engine.new_game places them (Rules.start on the layout)."""
    rows, cols, grid, rot, start, nb = rules.board
    if rules.start == "same_corridor":
        return [grid[start]] * rules.players
    order = sorted((c for c in range(len(grid)) if 0 <= grid[c] < K.N_CORRIDORS), key=lambda c: (-(c // cols), c % cols))
    return [grid[c] for c in order[:rules.players]]


def _choice(rules: Rules, field: str) -> int:
    """The code of a categorical Rules field (its index among the values Rules accepts)."""
    return _CHOICES[field].index(getattr(rules, field))


def supports(rules, policies) -> bool:
    """True when `play_batch` can play these rules and policies."""
    return unsupported(rules, policies) is None


def _params(rules: Rules) -> np.ndarray:
    """The state array M holding the rules (the game part is filled by each deal)."""
    M = np.zeros(K.M_SIZE, dtype=np.int64)
    rows, cols, grid, rot, start, nb = rules.board
    M[K.G_N] = rules.players
    M[K.G_ROWS], M[K.G_COLS], M[K.G_NCELLS] = rows, cols, rows * cols
    M[K.R_MAX_TURNS] = rules.max_turns
    M[K.R_HAND] = rules.hand_size
    M[K.R_APT] = rules.actions_per_turn
    M[K.R_MULTI_A] = rules.multicolour_actions
    M[K.R_SLOW_A] = rules.colourless_actions
    M[K.R_TRAP_A] = rules.trap_actions
    M[K.R_DUTCH_A] = rules.dutch_angle_actions
    M[K.R_STEAL_A] = rules.steal_actions
    M[K.R_CANCEL_DEBT] = rules.cancel_debt
    M[K.R_DEBT_CARRY] = int(rules.debt_carries_over)
    M[K.R_DISCARD_ACTION] = int(rules.discard_action)
    M[K.R_START_CELL] = start
    M[K.R_EXTRA_FIRST] = rules.extra_first_turn_seats
    M[K.R_REDUCED_LAST] = rules.reduced_first_turn_last_seats
    M[K.R_STAGER] = _choice(rules, "stager")
    M[K.R_BLACK_TH] = int(rules.black_ignores_town_hall)
    M[K.R_HORROR_LIMIT] = _choice(rules, "horror_hand_limit")
    M[K.R_PARALYSIS_NOW] = int(rules.paralysis == "immediate")
    M[K.R_NIGHTMARES] = _choice(rules, "nightmares")
    locs = start_locations(rules)
    M[K.R_START_LOC:K.R_START_LOC + len(locs)] = locs
    M[K.O_INIT_GRID:K.O_INIT_GRID + len(grid)] = grid
    M[K.O_INIT_ROT:K.O_INIT_ROT + K.N_LOC] = rot
    M[K.O_NB:K.O_NB + K.N_DIRS * len(nb)] = np.asarray(nb, dtype=np.int64).ravel()
    return M


def seed_array(seeds) -> np.ndarray:
    """Per-game seeds as uint64, read as `play_game` reads them (`simcore.stream.seed_int`: an int in
    0..2**64-1 as it is, a SeedSequence through its first 64-bit word)."""
    out = []
    for s in seeds:
        try:
            out.append(seed_int(s))
        except ValueError as e:
            raise ValueError(f"{e}. Reproduce with dreamsim.kernel.play_batch.seed_array([{s!r}])") from None
    return np.array(out, dtype=np.uint64)


def play_arrays(rules: Rules, policies, seeds) -> tuple[np.ndarray, np.ndarray]:
    """(per game [games, GAME_FIELDS], per seat [games, players, SEAT_FIELDS]) int64 arrays.

    `policies`: one lineup for every game, or one lineup per seed (as `play_batch`)."""
    seeds = seed_array(seeds)
    lineups = _lineups(policies, len(seeds))
    rows, seats_of, kinds, weights, lineup_rows = {}, {}, [], [], []
    for lineup in lineups:
        key = id(lineup)
        if key not in seats_of:
            _require_kernel(rules, lineup)
            seats = []
            for entry in lineup:
                p = _policy(entry)
                pkey = (type(p), getattr(p, "weights", None))
                if pkey not in rows:
                    rows[pkey] = len(kinds)
                    heuristic = type(p) is HeuristicPolicy
                    kinds.append(POL_HEURISTIC if heuristic else POL_RANDOM)
                    weights.append(weights_row(p) if heuristic else np.zeros(N_W))
                seats.append(rows[pkey])
            seats_of[key] = seats
        lineup_rows.append(seats_of[key])
    out_game = np.zeros((len(seeds), len(GAME_FIELDS)), dtype=np.int64)
    out_seat = np.zeros((len(seeds), rules.players, SEAT_FIELDS), dtype=np.int64)
    if len(seeds):
        M = _params(rules)
        if all(kind == POL_RANDOM for kind in kinds):  # the random kernel's own loop (its streams unchanged)
            play_games(M, seeds, out_game, out_seat)
        else:
            play_games_policies(M, seeds, np.array(kinds, dtype=np.int64), np.array(weights, dtype=np.float64),
                                np.array(lineup_rows, dtype=np.int64).reshape(len(seeds), rules.players),
                                out_game, out_seat)
        if M[K.G_ERROR]:
            raise RuntimeError("dreamsim kernel: the frame stack overflowed. Reproduce with "
                               "dreamsim.kernel.play_batch.play_arrays(rules, policies, seeds) on the seeds one by one")
    return out_game, out_seat


def _lineups(policies, n_games: int) -> list:
    """One lineup per game: `policies` is one lineup for every game, or a list of lineups (the
    analyses hook, docs/GAME_PROTOCOL.md: lineups[i] is the seats of game i)."""
    if isinstance(policies, (list, tuple)) and policies and all(isinstance(x, (list, tuple)) for x in policies):
        if len(policies) != n_games:
            raise ValueError(f"lineups: {len(policies)} given for {n_games} seeds; give one per seed. "
                             f"Reproduce with dreamsim.kernel.play_batch.play_batch(rules, lineups, seeds)")
        return list(policies)
    return [policies] * n_games


def play_columns(rules: Rules, policies, seeds) -> dict:
    """The games as columns named and ordered like `GameResult.to_record()` (the analyses hook,
    docs/GAME_PROTOCOL.md): numpy arrays, except `winner` (a list, None when timed out), the
    `seat{i}_policy` names and `timeout_cause` (lists). `play_batch` gives the same as rows.

    `policies`: one lineup (a name or policy object per seat) for every game, or one lineup per
    seed (`lineups[i]` plays `seeds[i]`)."""
    seeds = seed_array(seeds)
    lineups = _lineups(policies, len(seeds))
    names_of = {}
    names = []
    for lineup in lineups:
        key = id(lineup)
        if key not in names_of:
            _require_kernel(rules, lineup)
            names_of[key] = tuple(p if isinstance(p, str) else policy_name(p) for p in lineup)
        names.append(names_of[key])
    out_game, out_seat = play_arrays(rules, lineups, seeds)
    n = rules.players
    column = {name: out_game[:, j] for j, name in enumerate(GAME_FIELDS)}
    timed_out = column["timed_out"].astype(bool)
    winner = column["winner"]
    columns = {"winner": [None if t else w for w, t in zip(winner.tolist(), timed_out.tolist())],
               "turns": column["turns"], "decisions": column["decisions"], "timed_out": timed_out}
    for i in range(n):
        columns[f"seat{i}_policy"] = [seat_names[i] for seat_names in names]
        columns[f"seat{i}_score"] = ((winner == i) & ~timed_out).astype(np.int64)
    for j, stat in enumerate(STAT_NAMES + ("bridge_distance",)):
        for i in range(n):
            columns[f"seat{i}_{stat}"] = out_seat[:, i, j]
    columns["woke"] = column["woke"]
    columns["horror_won"] = column["horror_won"].astype(bool)
    columns["horror_seat"] = column["horror_seat"]
    columns["timeout_cause"] = [TIMEOUT_CAUSES[c - 1] if c else "" for c in column["timeout_cause"].tolist()]
    return columns


def play_batch(rules: Rules, policies, seeds) -> list[dict]:
    """One `GameResult.to_record()`-shaped dict per seed (same keys, plain Python types): the rows
    of `play_columns`.

    `policies`: one lineup (a name or policy object per seat) for every game, or one lineup per
    seed (`lineups[i]` plays `seeds[i]`)."""
    columns = {k: v if isinstance(v, list) else v.tolist() for k, v in play_columns(rules, policies, seeds).items()}
    return [dict(zip(columns, row)) for row in zip(*columns.values())]


#: about how many 4-player games the Python engine plays while a compiled loop of the kernel compiles,
#: quiet 2-core machine, default rules: the random loop ~38 CPU s against ~130 games a CPU second, the
#: policies' loop (heuristic seats) ~62 CPU s against ~155. Both scale with the machine, so the ratio
#: travels; `analyses` plays a shorter run of an uncompiled kernel in Python
COMPILE_COST_GAMES = {"random": 5_000, "policies": 10_000}
#: line-ups whose first batches together compile the whole kernel (its two game loops)
WARM_LINEUPS = (("random", "random"), ("heuristic", "heuristic"))


def _loop(policies):
    """Which compiled game loop plays a line-up: "random" (every seat random) or "policies"."""
    return "random" if all(type(_policy(p)) is RandomPolicy for p in policies) else "policies"


def compiled(rules, policies) -> bool:
    """True when numba's cache holds the game loop that plays `policies`, so a batch loads it and
    compiles nothing."""
    return is_cached(play_games if _loop(policies) == "random" else play_games_policies)


def compile_cost_games(rules, policies) -> int:
    """About how many games the Python engine plays while the loop for `policies` compiles."""
    return COMPILE_COST_GAMES[_loop(policies)]


def warm_up(policies=("random", "random")) -> float:
    """Compile (or load from numba's cache) and play one short game; the seconds it took."""
    t0 = time.perf_counter()
    play_arrays(Rules(players=len(policies), max_turns=4), list(policies), [0])
    return time.perf_counter() - t0


assert [_CHOICES["stager"].index(v) for v in ("last_seat", "first_seat", "chance")] == [
    K.STAGER_LAST, K.STAGER_FIRST, K.STAGER_CHANCE]
assert [_CHOICES["horror_hand_limit"].index(v) for v in ("nightmares_free", "black_free", "all_cards")] == [
    K.HL_NIGHTMARES_FREE, K.HL_BLACK_FREE, K.HL_ALL_CARDS]
assert [_CHOICES["nightmares"].index(v) for v in ("after_deal", "after_first_round", "none")] == [
    K.NM_AFTER_DEAL, K.NM_AFTER_FIRST_ROUND, K.NM_NONE]

#: the hook analyses looks for (docs/GAME_PROTOCOL.md): supports / refusal / play_batch / play_columns
KERNEL = SimpleNamespace(name="dreamsim.kernel.play_batch", supports=supports, refusal=unsupported, play_batch=play_batch,
                         play_columns=play_columns, unsupported=unsupported, play_arrays=play_arrays,
                         warm_up=warm_up, compiled=compiled, compile_cost_games=compile_cost_games,
                         warm_lineups=WARM_LINEUPS)
