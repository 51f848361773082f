"""Load an engine `State` into the kernel's arrays, so both engines can be compared move by move.

    ks = load_state(state)             # any live State without seals (hand-built or mid-game)
    legal_actions(ks) == nightsim.legal_actions(state)     # same actions, same order
    apply(ks, action); view(ks) == engine_view(state_after)
    first_divergence(rules, lineup, seed)   # None, or where the kernel's game leaves play_game's

`tests/nightsim/test_nightsim_kernel.py` uses this on hand-built ability chains; when the
kernel's records differ from `play_game`'s (tests/nightsim/test_nightsim_kernel_equality.py),
`first_divergence` names the first decision where they part. Slow (Python glue around single
kernel calls): for tests and debugging only.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.stream import streams

from ..engine import engine
from ..engine.actions import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
)
from ..engine.creatures import (
    ACT_COMPLETION,
    Activation,
    DevourerTarget,
    ExecutionerTarget,
    HeraldPlacement,
    MockerPlay,
    ScavengerTarget,
)
from ..engine.observation import observe
from ..engine.penalty import Penalty
from ..engine.turn import Discard
from ..game import policy_name, resolve_policies
from .play_batch import STAT_COLUMNS, _core, _play, policy_row, tables

#: engine frames that hold only the deciding seat -> the kernel's frame kind
SIMPLE_FRAMES = {MockerPlay: lambda core: core.F_MOCKER, ExecutionerTarget: lambda core: core.F_EXEC,
                 ScavengerTarget: lambda core: core.F_SCAV}


@dataclass
class KernelState:
    """One game in the kernel's arrays (see nightsim/kernel/core.py for the layout)."""

    st: np.ndarray
    tb: np.ndarray
    rs: np.ndarray
    acts: np.ndarray
    ties: np.ndarray
    players: int

    @property
    def reshuffles(self) -> int:
        """How often the kernel shuffled its discard pile into a new deck."""
        return int(self.st[_core().G_RESHUFFLES])


def load_state(s: engine.State, seed: int = 0) -> KernelState:
    """The kernel's copy of engine state `s`; `seed` seeds the kernel's random streams."""
    core = _core()
    if s.rules.seals:
        raise ValueError("nightsim.kernel.bridge: the kernel has no seals (Rules.seals=True)")
    st, rs, acts, ties = _play().new_buffers()
    core.seed_streams(rs, np.uint64(seed))
    n = s.n
    ids = {}
    for p in range(n):
        for k, cr in enumerate(s.creatures[p]):
            ids[id(cr)] = len(ids)
            base = core.CRC + (p * core.LM + k) * core.CR_CARDS
            st[base:base + len(cr.cards)] = cr.cards
            st[core.CRLEN + p * core.LM + k] = len(cr.cards)
            st[core.CRID + p * core.LM + k] = ids[id(cr)]
        st[core.CRN + p] = len(s.creatures[p])
        st[core.HAND + p * core.NCM:core.HAND + p * core.NCM + len(s.hands[p])] = s.hands[p]
        st[core.HAND_N + p] = len(s.hands[p])
    st[core.DECK:core.DECK + len(s.deck)] = s.deck
    st[core.DISC:core.DISC + len(s.discard)] = s.discard
    gone = -1  # identity of a creature no longer in play (never matches)
    for i, f in enumerate(s.stack[1:]):  # the kernel's stack holds the frames above the turn frame
        row = core.FR + i * core.FW
        if isinstance(f, Discard):
            st[row + core.FR_KIND], st[row + core.FR_PLAYER] = core.F_DISCARD, f.seat
            st[core.PICKED:core.PICKED + len(f.picked)] = f.picked
            st[core.G_PICK_N] = len(f.picked)
        elif isinstance(f, Activation):
            if f.source != ACT_COMPLETION:
                raise ValueError("nightsim.kernel.bridge: seal re-activations are not in the kernel")
            st[row + core.FR_KIND], st[row + core.FR_PLAYER] = core.F_ACT, f.seat
            st[row + core.ACT_ID] = ids.get(id(f.creature), gone)
            st[row + core.ACT_Q:row + core.ACT_Q + len(f.queue)] = f.queue
            st[row + core.ACT_QN] = len(f.queue)
        elif isinstance(f, HeraldPlacement):
            st[row + core.FR_KIND], st[row + core.FR_PLAYER] = core.F_HERALD, f.seat
            st[row + core.HER_R:row + core.HER_R + len(f.revealed)] = f.revealed
            st[row + core.HER_N] = len(f.revealed)
        elif isinstance(f, DevourerTarget):
            st[row + core.FR_KIND], st[row + core.FR_PLAYER] = core.F_DEVOUR, f.seat
            st[row + core.DEV_SRC] = ids.get(id(f.source), gone)
        elif isinstance(f, Penalty):
            victims = f.victims
            st[row + core.FR_KIND], st[row + core.FR_PLAYER] = core.F_PENALTY, (victims[-1] + 1) % n if victims else 0
            st[row + core.PEN_LEGION] = f.legion
            st[row + core.PEN_LEFT] = f.count
            st[row + core.PEN_OF_LEGION] = int(f.same_legion)
            st[row + core.PEN_VN] = len(victims)
            st[row + core.PEN_V:row + core.PEN_V + len(victims)] = victims
        elif type(f) in SIMPLE_FRAMES:
            st[row + core.FR_KIND], st[row + core.FR_PLAYER] = SIMPLE_FRAMES[type(f)](core), f.seat
        else:
            raise ValueError(f"nightsim.kernel.bridge: frame {f!r} is not in the kernel")
    scalars = {core.G_TP: s.turn_player, core.G_CP: s.current_player, core.G_AL: s.actions_left,
               core.G_TL: s.turn_legion, core.G_WINNER: -1 if s.winner is None else s.winner,
               core.G_TERM: s.is_terminal, core.G_TIMEOUT: s.timed_out, core.G_TURNS: s.turns,
               core.G_DEC: s.decisions, core.G_DECK_N: len(s.deck), core.G_DISC_N: len(s.discard),
               core.G_FR_N: len(s.stack) - 1, core.G_NEXT_ID: len(ids)}
    for index, value in scalars.items():
        st[index] = int(value)
    for p in range(n):
        st[core.STATS + p * core.N_STATS:core.STATS + (p + 1) * core.N_STATS] = _engine_stats(s, p)
    return KernelState(st, tables(s.rules), rs, acts, ties, n)


def _engine_stats(s: engine.State, p: int) -> list[int]:
    return [s.stats[k][p] for k in engine.STAT_NAMES] + list(s.abilities[p]) + list(s.legion_played[p])


def _action(core, row, st) -> object:
    kind, x, y = (int(v) for v in row[:core.A_Z])
    if kind == core.A_PLAY:   # the slot: the creature's card count (the kernel does not write A_Z)
        return Play(x, None if y < 0 else y, 0 if y < 0 else int(st[core.CRLEN + _decider(core, st) * core.LM + y]))
    return {core.A_DRAW: Draw(), core.A_START: StartDiscard(), core.A_STOP: StopDiscard(),
            core.A_DECLINE: Decline(), core.A_DCARD: DiscardCard(x), core.A_PEN: PenaltyDiscard(x),
            core.A_TAKE: Take(x, y), core.A_SCAV: Scavenge(x, y), core.A_DEVOUR: Devour(x)}[kind]


def _decider(core, st) -> int:
    """The seat whose creatures legal_actions places on: the turn's player, else the top frame's."""
    f = int(st[core.G_FR_N]) - 1
    return int(st[core.G_TP]) if f < 0 else int(st[core.FR + f * core.FW + core.FR_PLAYER])


def legal_actions(ks: KernelState) -> list:
    """The kernel's legal actions as engine action values, in the kernel's order."""
    core = _core()
    n = core.legal_actions(ks.st, ks.tb, ks.rs, ks.acts)
    return [_action(core, ks.acts[i], ks.st) for i in range(n)]


def apply(ks: KernelState, action) -> None:
    """Apply a legal action (an engine action value) and advance to the next decision."""
    core = _core()
    legal = legal_actions(ks)
    core.apply_action(ks.st, ks.tb, ks.rs, ks.acts, legal.index(action))


def scores(ks: KernelState, policy) -> list[float]:
    """The kernel's HeuristicPolicy scores of every legal action for the deciding seat."""
    core = _core()
    n = core.legal_actions(ks.st, ks.tb, ks.rs, ks.acts)
    _, w = policy_row(policy)
    q = int(ks.st[core.G_CP])
    return [float(_play().score_action(ks.st, ks.tb, ks.rs, ks.acts, i, q, w)) for i in range(n)]


def choose(ks: KernelState, policy) -> object:
    """The action the kernel's version of `policy` picks now (uses the kernel's random stream)."""
    core = _core()
    n = core.legal_actions(ks.st, ks.tb, ks.rs, ks.acts)
    kind, w = policy_row(policy)
    i = _play().choose(ks.st, ks.tb, ks.rs, ks.acts, n, int(ks.st[core.G_CP]), kind, w, ks.ties)
    return _action(core, ks.acts[i], ks.st)


def view(ks: KernelState) -> dict:
    """Everything the rules track, as plain values (compare with `engine_view`)."""
    core = _core()
    st, n = ks.st, ks.players
    hands = [st[core.HAND + p * core.NCM:core.HAND + p * core.NCM + st[core.HAND_N + p]].tolist() for p in range(n)]
    creatures = [[st[core.CRC + (p * core.LM + k) * core.CR_CARDS:core.CRC + (p * core.LM + k) * core.CR_CARDS
                     + st[core.CRLEN + p * core.LM + k]].tolist() for k in range(st[core.CRN + p])] for p in range(n)]
    winner = int(st[core.G_WINNER])
    return {
        "deck": st[core.DECK:core.DECK + st[core.G_DECK_N]].tolist(),
        "discard": st[core.DISC:core.DISC + st[core.G_DISC_N]].tolist(),
        "hands": hands, "creatures": creatures,
        "turn_player": int(st[core.G_TP]), "current_player": int(st[core.G_CP]),
        "actions_left": int(st[core.G_AL]), "turn_legion": int(st[core.G_TL]),
        "winner": None if winner < 0 else winner, "is_terminal": bool(st[core.G_TERM]),
        "timed_out": bool(st[core.G_TIMEOUT]), "turns": int(st[core.G_TURNS]), "decisions": int(st[core.G_DEC]),
        "stack_depth": int(st[core.G_FR_N]),
        "stats": [dict(zip(STAT_COLUMNS, st[core.STATS + p * core.N_STATS:core.STATS + (p + 1) * core.N_STATS]
                           .tolist())) for p in range(n)],
    }


def engine_view(s: engine.State) -> dict:
    """The same view of an engine state."""
    return {
        "deck": list(s.deck), "discard": list(s.discard), "hands": [list(h) for h in s.hands],
        "creatures": [[list(c.cards) for c in crs] for crs in s.creatures],
        "turn_player": s.turn_player, "current_player": s.current_player, "actions_left": s.actions_left,
        "turn_legion": s.turn_legion, "winner": s.winner, "is_terminal": s.is_terminal, "timed_out": s.timed_out,
        "turns": s.turns, "decisions": s.decisions, "stack_depth": len(s.stack) - 1,
        "stats": [dict(zip(STAT_COLUMNS, _engine_stats(s, p))) for p in range(s.n)],
    }


def first_divergence(rules, lineup, seed: int) -> str | None:
    """Where the kernel's game of (rules, lineup, seed) first leaves `play_game`'s, or None if it never
    does: both play in lockstep from the same streams (the kernel's `rs` holds the engine's stream
    states), and at every decision the legal actions, the policy's choice and the state after it are
    compared. A description of the first difference: the decision, the seat and what differs."""
    pols = resolve_policies(list(lineup), rules.players)
    chance, *rngs = streams(seed, 1 + rules.players)
    s = engine.new_game(rules, chance)
    ks = load_state(s)
    ks.rs[:1 + rules.players] = [chance.state, *(r.state for r in rngs)]
    while not s.is_terminal:
        where = f"seed {seed}, decision #{s.decisions} (turn {s.turns}, seat {s.current_player}, {s.decision})"
        legal = engine.legal_actions(s)
        mine = legal_actions(ks)
        if mine != legal:
            return f"{where}: legal actions differ: engine {legal!r}, kernel {mine!r}"
        p = s.current_player
        a = pols[p](observe(s, p), tuple(legal), rngs[p])
        b = choose(ks, pols[p])
        if a != b:
            return f"{where}: the policy {policy_name(pols[p])!r} chose {a!r} in the engine, {b!r} in the kernel"
        apply(ks, a)
        engine.apply_legal(s, a, chance)
        if view(ks) != engine_view(s):
            diff = {k: (v, view(ks)[k]) for k, v in engine_view(s).items() if view(ks)[k] != v}
            return f"{where}: after {a!r} the states differ (field: (engine, kernel)): {diff!r}"
    return None
