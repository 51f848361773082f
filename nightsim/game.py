"""`play_game`, the only game loop, and `GameResult`, its plain-data record."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np

from .cards import ABILITIES, LEGIONS
from .creatures import ExecutionerTarget, ScavengerTarget
from .engine import IllegalActionError, apply_legal, new_game
from .log import format_events
from .observation import observe, seat_views
from .policies import POLICIES, HeuristicPolicy, RandomPolicy
from .random_loop import UNIFORM_BLOCK, play_random  # UNIFORM_BLOCK: uniforms a built-in seat draws at a time
from .rules import Rules
from .seeding import spawn_generators
from .state import _open_entry
from .turn import TURN

RULES_VERSION = "nightsim-1.4"  # 1.4: variant reduced_first_turn_seats (kernel plays the reduced first turns);
#                                1.3: variant first_turn_fewer_actions; 1.2: variant last_seat_extra_cards,
#                                hand_size >= 1 (published game unchanged by both)


@dataclass(frozen=True)
class GameResult:
    """One finished game. `winner` is the winning seat, or None on a timeout."""

    winner: int | None
    seats: tuple[str, ...]
    turns: int                       # turns played, the winning turn included (= the log's last "turn N")
    decisions: int
    timed_out: bool
    scores: tuple[int, ...]          # complete creatures per seat at the end
    stats: dict = field(default_factory=dict)  # name -> tuple per seat
    seed: object = None
    log: tuple | None = field(default=None, repr=False, compare=False)
    rules: Rules | None = field(default=None, repr=False, compare=False)  # kept with the log only

    def to_record(self) -> dict:
        """One flat row: winner, turns, decisions, timed_out, seat{i}_policy/score/<stat>."""
        row = {"winner": self.winner, "turns": self.turns, "decisions": self.decisions,
               "timed_out": self.timed_out}
        for i, name in enumerate(self.seats):
            row[f"seat{i}_policy"] = name
            row[f"seat{i}_score"] = self.scores[i]
        for stat, values in self.stats.items():
            for i, v in enumerate(values):
                row[f"seat{i}_{stat}"] = v
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


_ABILITY_STATS = tuple(f"ability_{ab.lower()}" for ab in ABILITIES)
_LEGION_STATS = tuple(f"played_{lg.lower()}" for lg in LEGIONS)
FIRST_TIE_BLOCK = 16  # a HeuristicPolicy seat's first block: ~8 tie-breaks a seat in a 4 x greedy game


class Uniforms:
    """`random()` of a seat's Generator, drawn in blocks (`FIRST_TIE_BLOCK` numbers, then
    `UNIFORM_BLOCK` at a time): the same numbers in the same order as calling `generator.random()`
    each time (what a built-in `HeuristicPolicy` calls to break ties), without numpy's per-call cost."""

    __slots__ = ("generator", "_buf", "_block")

    def __init__(self, generator: np.random.Generator):
        self.generator, self._buf, self._block = generator, [], FIRST_TIE_BLOCK

    def random(self) -> float:
        buf = self._buf
        if not buf:
            buf = self._buf = self.generator.random(self._block).tolist()[::-1]
            self._block = UNIFORM_BLOCK
        return buf.pop()


def play_game(rules: Rules, policies, seed, record: bool = False) -> GameResult:
    """Play one game. A pure function of (rules, policies, seed).

    The seed (int or SeedSequence) is split into one stream for chance (shuffles, draws)
    and one per seat for that seat's policy, so changing one seat's policy never changes
    the cards the others are dealt.

    Every decision is checked against the legal actions before it is applied, except the
    choice of a built-in `RandomPolicy` seat, which the loop makes itself as
    `legal[int(u * len(legal))]` — legal by construction, and the same choice the policy
    makes: `u` is the seat generator's next `random()`, drawn `UNIFORM_BLOCK` at a time
    (`Generator.random(k)` yields the numbers of k calls of `random()`, in order). That seat's
    observation is not built, since the policy never reads it. A built-in `HeuristicPolicy`
    (which calls only `rng.random()`, to break ties) gets its seat's numbers the same way,
    through `Uniforms`; its choice, one of the listed actions by construction, is not checked
    again (it is handed the engine's list, which it never changes); at a turn action of a game
    without seals it picks without the list (`HeuristicPolicy.choose_turn`: the placements the
    listing would give, in its order, the same choice and draws), and so at an Executioner or a
    Scavenger target (`HeuristicPolicy.choose_victim`). Any other policy gets the
    legal actions as a tuple of its own: nothing it does to them reaches the check of its choice.

    For an int seed the generators are built by `seeding.spawn_generators` (the streams of
    `SeedSequence(seed).spawn(1 + players)`, bit for bit, without numpy's per-call costs); a seat
    whose policy is not built in gets numpy's own child generator (it may spawn from it). Without
    `record`, each decision is applied by `engine.apply_legal`'s body, inlined; when every seat is
    the built-in `RandomPolicy`, `random_loop.play_random` plays the same game in one fused loop.
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nightsim.Rules, got {type(rules).__name__}")
    pols = resolve_policies(policies, rules.players)
    if isinstance(seed, np.random.SeedSequence):
        children = seed.spawn(1 + rules.players)
        chance, *prngs = [np.random.default_rng(c) for c in children]
    else:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer or a numpy SeedSequence, got {seed!r}")
        # the generators of SeedSequence(seed).spawn(1 + players), built without numpy's per-call costs;
        # a seat whose policy is not built in gets numpy's own child (it may spawn from it)
        chance, *prngs = spawn_generators(int(seed), 1 + rules.players)
        for i, pol in enumerate(pols):
            if type(pol) is not RandomPolicy and type(pol) is not HeuristicPolicy:
                prngs[i] = np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(1 + i,)))
    if not record and all(type(pol) is RandomPolicy for pol in pols):
        s = new_game(rules, chance)
        play_random(s, chance, prngs)  # the loop below, fused for random seats (random_loop.py)
        return _result(s, rules, pols, seed, record)
    uniforms = [[] if type(pol) is RandomPolicy else None for pol in pols]  # buffers, newest last
    heuristic = [type(pol) is HeuristicPolicy for pol in pols]
    rngs = [Uniforms(g) if h else g for h, g in zip(heuristic, prngs)]
    s = new_game(rules, chance, record=record)
    stack = s.stack
    table = rules.table
    # a built-in HeuristicPolicy without context features chooses from the public creatures
    # (HeuristicPolicy.choose), and gets its seat's observation only as a function to call if it needs it
    lean = [partial(observe, s, i) if h and not pol._extras else None for i, (h, pol) in enumerate(zip(heuristic, pols))]
    choose = [pol.choose if f is not None else None for pol, f in zip(pols, lean)]
    # and, at a turn action without seals, picks from what the turn's listing reads, without the list
    choose_turn = [None if f is None or rules.seals else pol.choose_turn for pol, f in zip(pols, lean)]
    # and, at an Executioner or a Scavenger target, scores the targets from the creatures, without their list
    choose_victim = [None if f is None else pol.choose_victim for pol, f in zip(pols, lean)]
    victims = {ExecutionerTarget: (s._acts.take, True, False),   # (targets, take, decline): choose_victim's
               ScavengerTarget: (s._acts.scavenge, False, rules.scavenger_optional)}
    hands, plays, min_discard = s.hands, s._acts.plays, rules.min_discard
    while not s.is_terminal:
        p = s.current_player
        top = stack[-1] if stack else TURN  # the frame deciding (the policy never changes the state)
        f = choose[p]
        if f is not None:  # a built-in HeuristicPolicy without context features: legal by construction, unchecked
            if top is TURN and (g := choose_turn[p]) is not None:
                hand = hands[p]  # (p is the turn player, as at every turn action)
                mine = s._seat_views[p]
                a = g(seat_views(s)[p] if mine is None else mine, hand, s.turn_legion,
                      s._open[p] or _open_entry(s, p), len(hand) >= min_discard, table, plays, rngs[p])
            elif (v := victims.get(type(top))) is not None:
                targets, take, decline = v
                views = s._seat_views  # observation.seat_views, its common case inlined
                a = choose_victim[p](views if None not in views else seat_views(s), p, targets, take, decline, rngs[p])
            else:
                legal = top.legal(s)
                if len(legal) == 1:
                    a = legal[0]
                else:
                    views = s._seat_views  # observation.seat_views, its common case inlined
                    a = f(views if None not in views else seat_views(s), p, table, legal, rngs[p], lean[p])
        else:
            legal = top.legal(s)
            if (buf := uniforms[p]) is not None:
                if not buf:
                    buf += prngs[p].random(UNIFORM_BLOCK).tolist()[::-1]
                a = legal[int(buf.pop() * len(legal))]
            elif heuristic[p]:
                # a built-in HeuristicPolicy returns one of the listed values (legal by construction);
                # with one action legal it returns it at once, without looking or drawing
                a = legal[0] if len(legal) == 1 else pols[p](observe(s, p), legal, rngs[p])
            else:
                a = pols[p](observe(s, p), tuple(legal), rngs[p])  # a copy: the check below reads `legal`
                for x in legal:  # the policy's choice is one of the listed values (identity first: cheap)
                    if x is a:
                        break
                else:
                    if a in legal:  # an equal value built by the policy
                        apply_legal(s, a, chance)
                        continue
                    raise IllegalActionError(
                        f"policy {policy_name(pols[p])!r} (seat {p}) chose {a!r} at decision {s.decision!r} "
                        f"(turn {s.turns}, decision #{s.decisions}); legal: {legal!r}. "
                        f"Reproduce with play_game(rules, policies, seed={_seed_repr(seed)})"
                    )
        if record:
            apply_legal(s, a, chance)  # logs the decision
            continue
        s.decisions += 1  # engine.apply_legal without the log, inlined (one call less per decision)
        if not top.apply(s, a, chance):
            while not s.is_terminal and not (stack[-1] if stack else TURN).advance(s, chance):
                pass
    return _result(s, rules, pols, seed, record)


def _result(s, rules: Rules, pols, seed, record: bool) -> GameResult:
    """The GameResult of the finished game in state `s`."""
    stats = {k: tuple(v) for k, v in s.stats.items()}
    stats.update(zip(_ABILITY_STATS, zip(*s.abilities)))       # ability_<name>: per seat
    stats.update(zip(_LEGION_STATS, zip(*s.legion_played)))    # played_<legion>: per seat
    return GameResult(
        winner=s.winner,
        seats=tuple(policy_name(p) for p in pols),
        turns=turns_played(s),
        decisions=s.decisions,
        timed_out=s.timed_out,
        scores=tuple(s.complete_count(p) for p in range(s.n)),
        stats=stats,
        seed=_seed_repr(seed),
        log=tuple(s.log) if record else None,
        rules=rules if record else None,
    )


def turns_played(s) -> int:
    """Turns played: the completed turns, plus the turn in which the game was won."""
    return s.turns + (1 if s.winner is not None else 0)


def _seed_repr(seed):
    if isinstance(seed, np.random.SeedSequence):
        return f"SeedSequence(entropy={seed.entropy}, spawn_key={seed.spawn_key})"
    return seed

