"""`play_game`, the only game loop, and `GameResult`, its plain-data record."""
from __future__ import annotations

import gc
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from . import engine as E
from .log import format_events
from .maps import REALMS
from .observation import Observation, battle_view
from .phases import PHASES, Phase
from .policies import POLICIES
from .policies.war import PLANNED, WarPolicy
from .public_copy import SeatCaches, public_state
from .rules import Rules

#: bumped whenever the full game's behaviour changes
RULES_VERSION = "nerath-game-1.7"
#: the young-generation threshold of the garbage collector while a game is played (`quiet_gc`)
GAME_GC_THRESHOLD = 20_000
#: seat -> realm in the four-player game (the seed's table); `seat_factions(rules)` for 2 and 3 players
FACTIONS = REALMS


def seat_factions(rules: Rules) -> tuple[str, ...]:
    """Faction name per seat: 'karkoth', or 'karkoth+iron_circle' for a seat playing two realms."""
    return tuple("+".join(REALMS[p] for p in realms) for realms in rules.seating)


class LegalActions(Sequence):
    """The legal actions of the current decision, listed only when asked.

    `action in legal` is answered by the engine's rule check (no list is built), so a policy that
    plans its moves pays nothing for the hundreds of move actions it does not look at;
    `len`, indexing and iteration list them (`engine.legal_actions`).

    It answers from the deciding seat's public copy of the state (`public_copy.public_state`: what
    is legal depends on nothing the seat may not know), never from the live State, so a policy
    cannot reach the game through it (`test_the_legal_actions_a_policy_gets_hold_no_reference_to_the_state`).
    `play_game` shares the copy the seat's Observation already holds (`LegalActions.of`). An action
    it has already found legal (an `in` answered True, or the very object it listed) is not checked a
    second time by `play_game` (`confirms`).
    """

    __slots__ = ("_s", "_list", "_yes")

    def __init__(self, state: E.State):
        self._s = public_state(state, state.current_player)
        self._list = None
        self._yes = None

    @classmethod
    def of(cls, obs: Observation) -> "LegalActions":
        """The legal actions of the decision `obs` was made at (the seat deciding), from its public copy."""
        legal = cls.__new__(cls)
        legal._s = obs._s
        legal._list = None
        legal._yes = None
        return legal

    def confirms(self, a) -> bool:
        """True when `a` is this very object found legal here: the last action `in` answered True for,
        or an item of the list it gave (by identity; the legal actions are immutable values)."""
        if a is self._yes and a is not None:
            return True
        lst = self._list
        return type(lst) is list and any(x is a for x in lst)

    def _get(self) -> list:
        if self._list is None:
            copy = self._s
            self._list = E.legal_actions(copy)
            copy._legal = None      # the list's moves refer to the copy: no reference cycle through it
        return self._list

    def __len__(self):
        return len(self._get())

    def __getitem__(self, i):
        return self._get()[i]

    def __iter__(self):
        return iter(self._get())

    def __contains__(self, a):
        if E.is_legal(self._s, a):
            self._yes = a
            return True
        return False

    def by_kind(self) -> list:
        """The actions grouped by kind (EndPhase, Move, Buy, ...), kinds in order of first appearance,
        each group in listing order; moves are decoded on demand."""
        if self._list is not None:
            kinds: dict = {}
            for a in self._list:
                kinds.setdefault(type(a), []).append(a)
            return list(kinds.values())
        return E.legal_by_kind(self._s)

    def __repr__(self):
        return repr(self._get())


@dataclass(frozen=True)
class GameResult:
    """One finished game.

    winner: the winning seat; a tuple of seats when a team of several seats wins (alliance play
    with 3 or 4 players); None on a timeout. scores: VP per seat. stats: per-seat tuples (the sum
    over the seat's realms) and per-game numbers, including every per-realm figure as
    '<realm>_<stat>' (e.g. 'karkoth_vp', 'nerath_luck', 'vailin_spent_dragon')."""

    winner: int | tuple | None
    seats: tuple[str, ...]
    turns: int
    decisions: int
    timed_out: bool
    scores: tuple[int, ...]
    factions: tuple[str, ...] = ()
    stats: dict = field(default_factory=dict)
    realm_stats: dict = field(default_factory=dict)   # stat -> (karkoth, vailin, iron_circle, nerath)
    seed: object = None
    log: tuple | None = field(default=None, repr=False, compare=False)
    rules: Rules | None = field(default=None, repr=False, compare=False)

    def to_record(self) -> dict:
        """One flat row: winner ("0+2" for a team), turns, decisions, timed_out, seat{i}_policy,
        seat{i}_faction, seat{i}_score, seat{i}_<stat>, and the per-game / per-realm numbers."""
        w = self.winner
        if isinstance(w, tuple):
            w = "+".join(str(x) for x in w)
        row = {"winner": w, "turns": self.turns, "decisions": self.decisions, "timed_out": self.timed_out}
        for i, name in enumerate(self.seats):
            row[f"seat{i}_policy"] = name
            row[f"seat{i}_faction"] = self.factions[i] if self.factions else ""
            row[f"seat{i}_score"] = self.scores[i]
        for stat, values in self.stats.items():
            if isinstance(values, tuple):
                for i, v in enumerate(values):
                    row[f"seat{i}_{stat}"] = v
            else:
                row[stat] = values
        return row

    def format_log(self, rules: Rules | None = None) -> str:
        """The event log as text a person can follow turn by turn (needs record=True)."""
        if self.log is None:
            raise ValueError("this GameResult has no log; play it with record=True")
        return format_events(self.log, rules or self.rules, self.seats)


def resolve_policies(policies, players: int) -> list:
    """Names from POLICIES or policy objects, one per seat."""
    if isinstance(policies, (str, bytes)) or not hasattr(policies, "__len__"):
        raise ValueError("policies must be a list with one policy (name or object) per seat")
    if len(policies) != players:
        raise ValueError(f"policies: {len(policies)} given for {players} players; give exactly one per seat")
    out = []
    for p in policies:
        if isinstance(p, str):
            if p not in POLICIES:
                raise ValueError(f"policies: unknown policy {p!r}; known: {', '.join(sorted(POLICIES))}")
            out.append(POLICIES[p])
        elif callable(p):
            out.append(p)
        else:
            raise ValueError(f"policies: {p!r} is neither a policy name nor callable")
    return out


def policy_name(p) -> str:
    return getattr(p, "name", None) or repr(p)


def play_game(rules: Rules, policies, seed, record: bool = False, watch=None) -> GameResult:
    """Play one game. A pure function of (rules, policies, seed).

    The seed (int or SeedSequence) is split into one stream for chance (event decks, dice) and one
    per seat for that seat's policy, so changing one seat's policy never changes the others' dice
    streams at the start of the game. `watch`: an optional `watch(state, action, apply)` that applies
    every action itself by calling `apply()` (to measure the game without changing it: `defence.py`).
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nerathsim Rules, got {type(rules).__name__}")
    pols = resolve_policies(policies, rules.players)
    if isinstance(seed, np.random.SeedSequence):
        ss = seed
    else:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer or a numpy SeedSequence, got {seed!r}")
        ss = np.random.SeedSequence(int(seed))
    children = ss.spawn(1 + rules.players)
    chance = np.random.default_rng(children[0])
    prngs = [np.random.default_rng(c) for c in children[1:]]
    with quiet_gc():
        return _play(rules, pols, seed, record, chance, prngs, watch)


def _play(rules: Rules, pols: list, seed, record: bool, chance, prngs: list, watch=None) -> GameResult:
    """`play_game`'s game, under its raised collector threshold. A function of its own so that the game's
    state, the seats' caches and the last public copy (its locals) are freed as it returns, before the
    caller's threshold comes back: a young collection run then (the first allocation after it triggers
    one when the game made more than the young threshold of net allocations) would otherwise walk and
    promote the whole game state that is about to be freed (tests/nerathsim/test_nerath_game_gc.py)."""
    s = E.new_game(rules, chance, record=record)
    run(s, pols, chance, prngs, seed=seed, watch=watch)
    return _result(s, rules, pols, seed, record)


def run(s: E.State, pols: list, chance, prngs: list, until_round: int | None = None, seed=None,
        watch=None) -> E.State:
    """The game loop: play `s` on in place, seat p's decisions by `pols[p]` with its generator `prngs[p]`,
    chance from `chance`, until the game ends or, with `until_round`, until `s.round` reaches it (rounds
    completed). Every answer is checked against the rules (an illegal one raises, naming the policy, the
    decision and `seed`). The one loop of `play_game` and of the search's rollouts (`macro.playout`).
    watch: None, or `watch(s, a, apply)` called for every action instead of applying it; it must call
    `apply()` exactly once (what it reads before and after is its own business)."""
    caches = [SeatCaches() for _ in range(len(pols))]      # each seat's own reach tables
    if watch is not None:
        apply_legal = E.apply_legal

        def step(s, a, chance):
            watch(s, a, lambda: apply_legal(s, a, chance))
    else:
        step = E.apply_legal
    while not s.is_terminal and (until_round is None or s.round < until_round):
        p = s.current_player
        pol = pols[p]
        if type(pol) is WarPolicy:
            if pol.by_realm:
                pol = pol.for_realm(s.decider)
            ph = PHASES[s.phase]
            a = _planned(pol, s, p) if ph in PLANNED else _answered(pol, s, ph)
            if a is not None:           # the engine's own check found it legal, or it is one the engine listed
                step(s, a, chance)
                continue
        a, legal = _ask(pol, s, p, prngs[p], caches[p])
        if not legal.confirms(a) and not E.is_legal(s, a):
            raise E.IllegalActionError(
                f"policy {policy_name(pols[p])!r} (seat {p}, {REALMS[s.decider]}) chose {a!r} at decision "
                f"{s.decision!r} (round {s.round + 1}, decision #{s.decisions}); legal: {E.legal_actions(s)!r}. "
                f"Reproduce with play_game(rules, policies, seed={_seed_repr(seed)})"
            )
        step(s, a, chance)                   # logs the decision (record=True)
    return s


class _QuietGC:
    """`with quiet_gc():` raises the garbage collector's young-generation threshold to `GAME_GC_THRESHOLD`
    while a game is played, and restores the caller's thresholds when the last game under way ends
    (nested and concurrent games counted under a lock, so the caller's settings always come back).

    Why: a game allocates many short-lived containers (a public copy of the state per decision) and
    makes no cyclic garbage, so the default threshold (700) runs young collections that free nothing
    and promote the game's own state (which lives until the game ends) to the old generation; those
    promotions are what trigger full collections, which in a process holding a large heap (a batch
    worker, numba kernels, pandas) cost tens of milliseconds each. With the raised threshold a
    game's temporaries are freed by reference counting before any collection runs; cyclic garbage,
    if a policy makes some, is still collected (at the latest after 20,000 net allocations, or once
    the game is over). The collector is never disabled and nothing is frozen."""

    __slots__ = ()
    _lock = threading.Lock()
    _depth = 0
    _saved = None

    def __enter__(self):
        cls = type(self)
        with cls._lock:
            if cls._depth == 0:
                cls._saved = gc.get_threshold()
                t0, *rest = cls._saved
                if 0 < t0 < GAME_GC_THRESHOLD:        # 0: the caller turned automatic collection off
                    gc.set_threshold(GAME_GC_THRESHOLD, *rest)
            cls._depth += 1
        return self

    def __exit__(self, *exc):
        cls = type(self)
        with cls._lock:
            cls._depth -= 1
            if cls._depth == 0:
                gc.set_threshold(*cls._saved)
        return False


def quiet_gc() -> _QuietGC:
    """A context manager: the garbage collector's young threshold raised while games are played (see `_QuietGC`)."""
    return _QuietGC()


def _ask(policy, s: E.State, p: int, rng, caches=None):
    """Seat p's choice and the legal actions it was given: its observation and the legal actions share
    one public copy of the state, freed as soon as the loop has checked the answer (`caches`: the
    seat's own reach tables)."""
    obs = Observation(s, p, caches)
    legal = LegalActions.of(obs)
    return policy(obs, legal, rng), legal


def _planned(policy: WarPolicy, s: E.State, p: int):
    """The built-in war heuristic's answer at a later decision of a phase it has planned (its next planned
    action that is legal, `WarPolicy.planned`), worked out without an observation: the plan is in the
    seat's own notebook, the plan's key (turn, phase, deciding realm) is public, and each action is
    checked by the engine's rule check on the live state (what `action in legal` answers on the seat's
    public copy; tests/nerathsim/test_nerath_planned_path.py). None when the policy must be asked (its
    first decision of the phase, or its plan used up): then nothing was changed but the used-up plan's
    queue, which `__call__` would have emptied too. Only for this exact class: a subclass may decide
    otherwise."""
    return policy.planned(s.memo[p], (s.turns, PHASES[s.phase], s.decider), partial(E.is_legal, s))


def _answered(policy: WarPolicy, s: E.State, ph: Phase):
    """The built-in war heuristic's answer at a one-step decision it answers from a few public values (where
    its next hit goes, `WarPolicy.hit`; press on or retreat in a battle, `WarPolicy.press`; the next fight of
    the combat phase, `WarPolicy.fight`), worked out without an observation: the battle as
    `observation.battle_view` shows it (fresh values), the legal actions the engine lists (a fresh list of
    immutable actions, in the order the seat's public copy lists them), the deciding realm's units at a
    retreat destination, the unit counts at the fights' regions (fresh tuples) and the regions of enemy
    warships; the same answer as the policy gives from its observation
    (tests/nerathsim/test_nerath_answered_path.py). None when the policy must be asked (any other decision,
    or a dungeon fight's flee-or-fight). Only for this exact class."""
    if ph is Phase.HIT:
        return policy.hit(s.rules.battle, s.decider, battle_view(s), E.hit_actions(s))
    if ph is Phase.COMBAT:
        fights = E.legal_actions(s)[:]
        units, friends = s.units, s.friends[s.decider]
        counts = {a.region: tuple([tuple(row) for row in units[a.region]]) for a in fights}
        return policy.fight(s.board, friends, counts, {sh.region for sh in s.ships if sh.owner not in friends}, fights)
    if ph is Phase.PRESS and not s.battle.dungeon:
        units, me = s.units, s.decider
        return policy.press(s.rules.battle, s.tab, battle_view(s), list(E.legal_actions(s)),
                            lambda dst: sum(units[dst][me]))
    return None


def _result(s: E.State, rules: Rules, pols: list, seed, record: bool) -> GameResult:
    t = s.tab
    realm_stats = {"vp": tuple(s.vp), "regions": tuple(s.regions_held(p) for p in range(4)),
                   "gold": tuple(s.gold)}
    for k, v in s.stats.items():
        realm_stats[k] = tuple(round(x, 6) if isinstance(x, float) else x for x in v)
    realm_stats["units_left"] = tuple(sum(s.total_units(p)) - s.total_units(p)[t.castle_u] for p in range(4))
    for u in range(t.U):
        realm_stats[f"spent_{t.names[u]}"] = tuple(s.spent[p][u] for p in range(4))
    seating = rules.seating
    stats: dict = {}
    for k, v in realm_stats.items():
        stats[k] = tuple(type(v[0])(sum(v[p] for p in realms)) if not isinstance(v[0], float)
                         else round(sum(v[p] for p in realms), 6) for realms in seating)
    for k, v in realm_stats.items():
        for p, name in enumerate(REALMS):
            stats[f"{name}_{k}"] = v[p]
    stats["rounds"] = s.round if s.is_terminal else s.round + 1
    if s.cards is not None:                     # how often each card was played (events: by their realm)
        for cid, card in enumerate(s.cards.cards):
            stats[f"played_{card.key}"] = s.card_plays[cid]
    return GameResult(
        winner=s.winner,
        seats=tuple(policy_name(p) for p in pols),
        turns=s.turns,
        decisions=s.decisions,
        timed_out=s.timed_out,
        scores=tuple(sum(s.vp[p] for p in realms) for realms in seating),
        factions=seat_factions(rules),
        stats=stats,
        realm_stats=realm_stats,
        seed=_seed_repr(seed),
        log=tuple(s.log) if record else None,
        rules=rules if record else None,
    )


def _seed_repr(seed):
    if isinstance(seed, np.random.SeedSequence):
        return f"SeedSequence(entropy={seed.entropy}, spawn_key={seed.spawn_key})"
    return seed
