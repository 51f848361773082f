"""The engine's `State` in the kernel's array and back to comparable values: the kernel is kept
honest by putting it at the very positions the engine reaches (or a test builds with
`dreamsim.engine.scenario`) and comparing legal actions and the state after each step.

    M = bridge.from_state(s)                    # s: an engine State resting at a decision
    bridge.legal(M)                             # the kernel's legal actions, as engine actions
    bridge.apply(M, rs, action)                 # one step in the kernel
    bridge.snapshot_state(s) == bridge.snapshot_kernel(M)
    bridge.first_divergence(rules, policies, seed)   # where a kernel game leaves play_game's, or None
"""
from __future__ import annotations

import numpy as np

from simcore.stream import streams

from ..engine import actions as A
from ..engine.engine import FRAME_CODES, FRAME_TYPES, STAT_NAMES, State, apply_legal, new_game
from ..engine.observation import observe
from ..game import _seat_chooser, resolve_policies
from . import layout as K
from .play import apply_top, legal_top
from .play_batch import _params

#: kernel action code -> engine action (from the kernel's (a, b))
_TO_ENGINE = {
    K.A_WALK: lambda a, b: A.WALK[a], K.A_VERT: lambda a, b: A.VERTIGO[a], K.A_STAR: lambda a, b: A.STAR,
    K.A_SETTRAP: lambda a, b: A.SET_TRAP[a], K.A_DEXTRA: lambda a, b: A.DUTCH_EXTRA,
    K.A_DREDUCE: lambda a, b: A.DUTCH_REDUCE[a], K.A_DISCARD: lambda a, b: A.DISCARD[a],
    K.A_STEAL: lambda a, b: A.STEAL[a], K.A_PASS: lambda a, b: A.PASS, K.A_VOP: lambda a, b: A.VOP[a],
    K.A_PARTNER: lambda a, b: A.PARTNER[a], K.A_CANCEL: lambda a, b: A.CANCEL, K.A_INTERCEPT: lambda a, b: A.INTERCEPT,
    K.A_ALLOW: lambda a, b: A.ALLOW, K.A_SPRING: lambda a, b: A.SPRING[a][b], K.A_HOLD: lambda a, b: A.HOLD,
    K.A_TARGET: lambda a, b: A.TARGET[a], K.A_TO: lambda a, b: A.TO[a], K.A_TAKE: lambda a, b: A.TAKE[a],
    K.A_STOP: lambda a, b: A.STOP, K.A_GIVE: lambda a, b: A.GIVE[a], K.A_MIX: lambda a, b: A.MIX,
    K.A_COUNT: lambda a, b: A.COUNT[a],
}
#: engine action type -> (kernel code, a, b)
_FROM_ENGINE = {
    A.Walk: lambda x: (K.A_WALK, x.direction, 0), A.Vertigo: lambda x: (K.A_VERT, x.location, 0),
    A.Star: lambda x: (K.A_STAR, 0, 0), A.SetTrap: lambda x: (K.A_SETTRAP, x.location, 0),
    A.DutchExtra: lambda x: (K.A_DEXTRA, 0, 0), A.DutchReduce: lambda x: (K.A_DREDUCE, x.target, 0),
    A.Discard: lambda x: (K.A_DISCARD, x.kind, 0), A.Steal: lambda x: (K.A_STEAL, x.target, 0),
    A.Pass: lambda x: (K.A_PASS, 0, 0), A.VertigoOp: lambda x: (K.A_VOP, x.op, 0),
    A.TrapPartner: lambda x: (K.A_PARTNER, x.kind, 0), A.Cancel: lambda x: (K.A_CANCEL, 0, 0),
    A.Intercept: lambda x: (K.A_INTERCEPT, 0, 0), A.Allow: lambda x: (K.A_ALLOW, 0, 0),
    A.Spring: lambda x: (K.A_SPRING, x.location, x.kind), A.Hold: lambda x: (K.A_HOLD, 0, 0),
    A.Target: lambda x: (K.A_TARGET, x.seat, 0), A.To: lambda x: (K.A_TO, x.location, 0),
    A.Take: lambda x: (K.A_TAKE, x.kind, 0), A.StopTaking: lambda x: (K.A_STOP, 0, 0),
    A.Give: lambda x: (K.A_GIVE, x.kind, 0), A.Mix: lambda x: (K.A_MIX, 0, 0), A.Count: lambda x: (K.A_COUNT, x.n, 0),
}
#: frame kind -> {engine slot: kernel field} of the frames whose fields are plain ints (every slot); the
#: kernel keeps a frame's deciding `seat` in FR_DEC and the seat it is about (`actor`) in FR_SEAT
_PLAIN = {
    K.F_TURN: {"seat": K.FR_DEC},
    K.F_VOP: {"seat": K.FR_DEC, "actor": K.FR_SEAT, "location": K.VOP_LOC},
    K.F_PARTNER: {"seat": K.FR_DEC, "actor": K.FR_SEAT, "location": K.PARTNER_LOC},
    K.F_FOREST: {"seat": K.FR_DEC, "actor": K.FR_SEAT},
    K.F_SQUARE: {"seat": K.FR_DEC, "actor": K.FR_SEAT, "taken": K.SQUARE_TAKEN},
    K.F_MOTEL_T: {"seat": K.FR_DEC, "actor": K.FR_SEAT},
    K.F_MOTEL_TAKE: {"seat": K.FR_DEC, "actor": K.FR_SEAT, "target": K.MTAKE_TARGET, "taken": K.MTAKE_TAKEN},
    K.F_SURPLUS: {"seat": K.FR_DEC, "actor": K.FR_SEAT, "mode": K.SUR_MODE, "other": K.SUR_OTHER},
    K.F_REST: {"seat": K.FR_DEC, "actor": K.FR_SEAT},
    K.F_REST_N: {"seat": K.FR_DEC, "actor": K.FR_SEAT, "target": K.RESTN_TARGET},
    K.F_TH: {"seat": K.FR_DEC, "actor": K.FR_SEAT},
    K.F_WTRAP_T: {"seat": K.FR_DEC, "location": K.WTRAP_LOC},
    K.F_WTRAP_TO: {"seat": K.FR_DEC, "target": K.WTO_TARGET, "location": K.WTO_LOC},
    K.F_VTRAP: {"seat": K.FR_DEC, "location": K.VTRAP_LOC, "stage": K.VTRAP_STAGE},
    K.F_DTRAP: {"seat": K.FR_DEC, "location": K.DTRAP_LOC},
    K.F_NEXT: {},
    K.F_PLAYDONE: {"actor": K.PLAYDONE_P},
    K.F_ACT: {"location": K.ACT_LOC, "actor": K.ACT_B, "remote": K.ACT_REMOTE},
    K.F_REFILL: {"actor": K.REFILL_P},
}
#: the other frames: engine slot -> kernel field for their plain-int slots (lists are laid out below)
_NAMED = {
    K.F_REACT: {"seat": K.FR_DEC, "pos": K.REACT_POS},
    K.F_STARTRAP: {"seat": K.FR_DEC, "location": K.STRAP_LOC, "actor": K.STRAP_ACTOR, "pos": K.STRAP_POS},
    K.F_TRAPS: {"seat": K.FR_DEC, "pos": K.TRAPS_POS, "turn_start": K.TRAPS_TURN_START},
    K.F_NIGHT: {"seat": K.FR_DEC, "drawer": K.NIGHT_DRAWER, "kind": K.NIGHT_KIND, "pos": K.NIGHT_POS,
                "affected": K.NIGHT_AFFECTED},
    K.F_PLACE: {"seat": K.FR_DEC},
    K.F_RESOLVE: {"actor": K.RES_P, "kind": K.RES_TYPE, "arg": K.RES_A1, "arg2": K.RES_A2, "outcome": K.RES_STATUS},
}
# every slot of a plain frame is laid out, and every named field sits where the engine's positional
# layout (engine.frame_as_list) has it, as layout says
assert all(set(fields) == set(FRAME_TYPES[k].__slots__) for k, fields in _PLAIN.items())
assert all(i == FRAME_TYPES[k].__slots__.index(slot) + 1
           for table in (_PLAIN, _NAMED) for k, fields in table.items() for slot, i in fields.items())


def _frame(M: np.ndarray, f, base: int) -> None:
    """Engine frame `f` into the kernel frame at M[base:base + FRAME_W]."""
    k = FRAME_CODES[type(f)]
    M[base + K.FR_KIND] = k
    if k in _PLAIN:
        for slot, i in _PLAIN[k].items():
            M[base + i] = int(getattr(f, slot))
        return
    if k not in _NAMED:
        raise AssertionError(f"unknown frame {f!r}")
    for slot, i in _NAMED[k].items():
        M[base + i] = int(getattr(f, slot))
    if k == K.F_REACT:
        ask = f.ask
        M[K.G_CHAIN_N] = len(f.chain)
        for i, (q, kind) in enumerate(f.chain):
            M[K.O_CHAIN + K.CHAIN_W * i + K.CH_SEAT] = q
            M[K.O_CHAIN + K.CHAIN_W * i + K.CH_KIND] = kind
    elif k == K.F_TRAPS:
        ask = f.ask or []
        M[base + K.TRAPS_LISTED] = f.ask is not None
    elif k == K.F_PLACE:
        M[base + K.PLACE_VICTIMS] = sum(1 << q for q in f.victims)
        return
    elif k == K.F_RESOLVE:
        M[base + K.RES_NC] = len(f.cards)
        M[base + K.RES_C0:base + K.RES_C0 + len(f.cards)] = f.cards
        return
    else:  # F_STARTRAP, F_NIGHT
        ask = f.ask
    M[base + K.FR_ASK_N] = len(ask)
    M[base + K.FR_ASK:base + K.FR_ASK + len(ask)] = ask


def from_state(s: State) -> np.ndarray:
    """The kernel array M of an engine state (rules as in `kernel.supports`)."""
    M = _params(s.rules)
    n = s.n
    scalars = {K.G_TP: s.turn_player, K.G_CTRL: s.controller, K.G_CUR: s.current_player, K.G_AL: s.actions_left,
               K.G_HORROR: s.horror, K.G_RED: s.red, K.G_BLUE: s.blue, K.G_MULTI: s.multi, K.G_SLOW: s.slow,
               K.G_WINNER: -1 if s.winner is None else s.winner, K.G_WOKE: s.woke, K.G_HWON: int(s.horror_won),
               K.G_TERM: int(s.is_terminal), K.G_TIMEOUT: int(s.timed_out), K.G_TURNS: s.turns,
               K.G_DECS: s.decisions, K.G_DECK_N: len(s.deck), K.G_DISC_N: len(s.discard), K.G_NTRAPS: s.n_traps,
               K.G_SP: len(s.stack), K.G_RESERVE: int(bool(s.reserve))}
    for i, v in scalars.items():
        M[i] = v
    M[K.O_GRID:K.O_GRID + len(s.grid)] = s.grid
    M[K.O_CELL_OF:K.O_CELL_OF + K.N_LOC] = s.cell_of
    M[K.O_ROT:K.O_ROT + K.N_LOC] = s.rot
    M[K.O_WHERE:K.O_WHERE + n] = s.where
    M[K.O_DECK:K.O_DECK + len(s.deck)] = s.deck
    for k in s.discard:
        M[K.O_DISC + k] += 1
    for p in range(n):
        for k in s.hands[p]:
            M[K.O_HAND + p * K.N_KINDS + k] += 1
        M[K.O_HSIZE + p] = len(s.hands[p])
        for loc, kind in s.traps[p]:
            M[K.O_TRAPS + (p * K.N_LOC + loc) * K.N_PARTNERS + kind] += 1
        M[K.O_TRAPN + p] = len(s.traps[p])
        M[K.O_DEBT + p], M[K.O_OWED + p] = s.debt[p], s.owed[p]
        for j, name in enumerate(STAT_NAMES):
            M[K.O_STATS + j * K.MAX_SEATS + p] = s.stats[name][p]
    for d, f in enumerate(s.stack):
        _frame(M, f, K.O_STACK + d * K.FRAME_W)
    return M


def legal(M: np.ndarray) -> list:
    """The kernel's legal actions at M's decision, as engine actions."""
    n = legal_top(M)
    acts = M[K.O_ACTS:K.O_ACTS + K.ACTS_W * n].reshape(n, K.ACTS_W)
    return [_TO_ENGINE[int(row[K.AC_CODE])](int(row[K.AC_A]), int(row[K.AC_B])) for row in acts]


def apply(M: np.ndarray, rs: np.ndarray, action) -> int:
    """Apply an engine action in the kernel and advance to the next decision; the number of
    random draws the kernel made (0: the step was deterministic)."""
    before = int(M[K.G_RNG_CALLS])
    legal_top(M)  # a decision frame's legal pass sets who decides, as the engine's did
    code, a, b = _FROM_ENGINE[type(action)](action)
    apply_top(M, rs, code, a, b)
    return int(M[K.G_RNG_CALLS]) - before


def snapshot_kernel(M: np.ndarray) -> dict:
    """Everything a game state is made of, as plain comparable values (hands as counts)."""
    n = int(M[K.G_N])
    sp = int(M[K.G_SP])
    hands = M[K.O_HAND:K.O_HAND + n * K.N_KINDS].reshape(n, K.N_KINDS)
    traps = M[K.O_TRAPS:K.O_TRAPS + n * K.N_LOC * K.N_PARTNERS].reshape(n, K.N_LOC, K.N_PARTNERS)
    out = {name: int(M[i]) for name, i in (
        ("turn_player", K.G_TP), ("controller", K.G_CTRL), ("actions_left", K.G_AL), ("horror", K.G_HORROR),
        ("red", K.G_RED), ("blue", K.G_BLUE), ("multi", K.G_MULTI), ("slow", K.G_SLOW), ("winner", K.G_WINNER),
        ("woke", K.G_WOKE), ("horror_won", K.G_HWON), ("terminal", K.G_TERM), ("timed_out", K.G_TIMEOUT),
        ("turns", K.G_TURNS), ("decisions", K.G_DECS), ("n_traps", K.G_NTRAPS))}
    if not out["terminal"]:
        out["current_player"] = int(M[K.G_CUR])
        out["stack"] = M[K.O_STACK:K.O_STACK + sp * K.FRAME_W].reshape(sp, K.FRAME_W).tolist()
    ncells = int(M[K.G_NCELLS])
    out.update(grid=M[K.O_GRID:K.O_GRID + ncells].tolist(), cell_of=M[K.O_CELL_OF:K.O_CELL_OF + K.N_LOC].tolist(),
               rot=M[K.O_ROT:K.O_ROT + K.N_LOC].tolist(), where=M[K.O_WHERE:K.O_WHERE + n].tolist(),
               deck=M[K.O_DECK:K.O_DECK + M[K.G_DECK_N]].tolist(), discard=M[K.O_DISC:K.O_DISC + K.N_KINDS].tolist(),
               hands=hands.tolist(), traps=traps.tolist(), debt=M[K.O_DEBT:K.O_DEBT + n].tolist(),
               owed=M[K.O_OWED:K.O_OWED + n].tolist(),
               stats=M[K.O_STATS:K.O_STATS + len(STAT_NAMES) * K.MAX_SEATS].reshape(-1, K.MAX_SEATS)[:, :n].tolist())
    return out


def snapshot_state(s: State) -> dict:
    """`snapshot_kernel` of the engine state (through `from_state`)."""
    return snapshot_kernel(from_state(s))


def new_rng(seed: int = 0) -> np.ndarray:
    """The kernel's random streams of a seed for `apply` (rs[0] chance, rs[1 + i] seat i's policy): the
    starting states of `simcore.stream.streams(seed, 1 + K.MAX_SEATS)`."""
    return np.array([s.state for s in streams(seed, 1 + K.MAX_SEATS)], dtype=np.uint64)



def first_divergence(rules, policies, seed) -> str | None:
    """Where the kernel and the engine part on `play_game(rules, policies, seed)`, or None: plays the
    engine game and puts the kernel at every decision of it (from the same chance stream), comparing the
    legal actions in order, then the whole state and the chance stream after the engine's choice.
    The tool for a record of `kernel.play_batch` that differs from `play_game`'s; it does not replay
    the kernel's own policies (their choice is the engine's at the same position and stream)."""
    pols = resolve_policies(policies, rules.players)
    chance, *prngs = streams(seed, 1 + rules.players)
    s = new_game(rules, chance)
    choose = [_seat_chooser(q, r)[0] for q, r in zip(pols, prngs)]
    rs = np.zeros(1 + K.MAX_SEATS, dtype=np.uint64)
    while not s.is_terminal:
        M = from_state(s)
        where = f"seed {seed}, decision #{s.decisions} ({s.decision}, turn {s.turns})"
        kernel_legal = legal(M)
        if kernel_legal != list(s.legal):
            return f"{where}: legal actions, engine {list(s.legal)!r}, kernel {kernel_legal!r}"
        p = s.current_player
        a = choose[p](observe(s, p), tuple(s.legal))
        rs[0] = chance.state
        apply(M, rs, a)
        apply_legal(s, a, chance)
        if int(rs[0]) != chance.state:
            return f"{where}: after {a!r} the kernel drew other chance numbers than the engine"
        want, got = snapshot_state(s), snapshot_kernel(M)
        if want != got:
            diff = {k: (want[k], got.get(k)) for k in want if want[k] != got.get(k)}
            return f"{where}: after {a!r} the states differ (engine, kernel): {diff}"
    return None
