"""`play_game`, the only game loop, and `GameResult`, its plain-data record."""
from __future__ import annotations

from dataclasses import dataclass

import simcore.policies
import simcore.result
from simcore.policies import policy_name
from simcore.result import seed_repr
from simcore.stream import streams

from .engine.board import distances_to
from .engine.cards import BRIDGE, RED
from .engine.engine import IllegalActionError, apply_legal, has_nightmare, new_game
from .engine.log import format_events
from .engine.observation import observe
from .policies.policies import POLICIES
from .rules import Rules

RULES_VERSION = "dreamsim-1.6"


@dataclass(frozen=True)
class GameResult(simcore.result.GameResult):
    """One finished game (`simcore.result.GameResult`).

    `winner` is the seat that woke on the Bridge, or the Horror's seat when the Midnight
    Horror activated the Town Hall (every Midnighter loses), or None on a timeout.
    `scores` is 1 for the winner and 0 for every other seat. `stats` maps a name to a tuple
    (one value per seat) or to a plain value (per game): `woke` (seat or -1), `horror_won`,
    `horror_seat` (-1: nobody became the Horror).
    """

    format_events = staticmethod(format_events)

    @property
    def woke(self) -> int:
        return self.stats.get("woke", -1)

    @property
    def horror_won(self) -> bool:
        return bool(self.stats.get("horror_won", False))


def resolve_policies(policies, players: int) -> list:
    """Names from POLICIES or policy objects, one per seat (`simcore.policies.resolve_policies`)."""
    return simcore.policies.resolve_policies(policies, players, POLICIES)


def play_game(rules: Rules, policies, seed, record: bool = False) -> GameResult:
    """Play one game. A pure function of (rules, policies, seed).

    The seed (an int in 0..2**64-1 or a SeedSequence, read by `simcore.stream.seed_int`) gives
    `1 + players` SplitMix64 streams (`simcore.stream.streams`): stream 0 for chance (shuffles,
    draws, blind picks), stream 1 + i for seat i's policy, so changing one seat's policy never
    changes the cards the others are dealt. The batch kernel (`dreamsim.kernel.play_batch`) draws the same
    numbers from the same streams and plays the very same game.

    A policy gets the legal actions as a tuple of its own: nothing it does to them reaches the
    engine's list or the check of its choice. A seat's chooser (`for_game`) that has a
    `watch(observation)` method is shown that seat's observation at every other seat's decision
    too (what a player watching the table sees; e.g. a search keeping a belief, `belief=` of ismcts).
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a dreamsim.Rules, got {type(rules).__name__}")
    pols = resolve_policies(policies, rules.players)
    chance, *prngs = streams(seed, 1 + rules.players)
    s = new_game(rules, chance, record=record)
    choose, observes = zip(*[_seat_chooser(q, r) for q, r in zip(pols, prngs)])
    # a chooser with `watch` (a search keeping a belief) sees its own observation at the other seats' decisions too
    watchers = [(q, c.watch) for q, c in enumerate(choose) if getattr(c, "watch", None) is not None]
    while not s.is_terminal:
        p = s.current_player
        for q, watch in watchers:
            if q != p:
                watch(observe(s, q))
        legal = tuple(s.legal)  # the policy's own immutable copy of the engine's list (interned values)
        a = choose[p](observe(s, p) if observes[p] else None, legal)  # a copy of what seat p may know
        for x in legal:  # every choice is checked: identity finds the engine's own items cheaply
            if x is a:
                break
        else:
            a = _equal_legal(a, legal, s, pols[p], p, seed)
        apply_legal(s, a, chance)
    return _result(s, rules, pols, seed, record)


def _result(s, rules: Rules, pols, seed, record: bool) -> GameResult:
    """The GameResult of the finished game in state `s`."""
    stats = {k: tuple(v) for k, v in s.stats.items()}
    stats["bridge_distance"] = _bridge_distances(s)
    stats["woke"] = s.woke
    stats["horror_won"] = s.horror_won
    stats["horror_seat"] = s.horror
    stats["timeout_cause"] = timeout_cause(s) if s.timed_out else ""
    return GameResult(
        winner=s.winner,
        seats=tuple(policy_name(p) for p in pols),
        turns=s.turns if s.timed_out else s.turns + 1,   # turns played, the winning turn included (1.4)
        decisions=s.decisions,
        timed_out=s.timed_out,
        scores=tuple(int(s.winner == i) for i in range(s.n)),
        stats=stats,
        seed=seed_repr(seed),
        log=tuple(s.log) if record else None,
        rules=rules if record else None,
    )


def _seat_chooser(policy, rng):
    """(choose(obs, legal) -> action, whether choose reads the observation) for one seat and game:
    the policy's own `for_game(rng)` if it has one, else a call of policy(obs, legal, rng)."""
    observes = getattr(policy, "observes", True) is not False
    for_game = getattr(policy, "for_game", None)
    if for_game is not None:
        return for_game(rng), observes
    return (lambda obs, legal: policy(obs, legal, rng)), observes


def _equal_legal(a, legal, s, policy, p, seed):
    """The legal item equal to `a` (a value built by the policy rather than taken from the
    list), or IllegalActionError naming the policy, the decision and the seed."""
    for x in legal:
        if x == a:
            return x
    raise IllegalActionError(
        f"policy {policy_name(policy)!r} (seat {p}) chose {a!r} at decision {s.decision!r} "
        f"(turn {s.turns}, decision #{s.decisions}); legal: {legal!r}. "
        f"Reproduce with play_game(rules, policies, seed={seed_repr(seed)})"
    )


#: the stalls a timed-out game is put down to, first match wins (RULES.md, "Stalls")
TIMEOUT_CAUSES = ("frozen_horror", "paralysed", "blue_everyone", "nightmare_everyone", "no_director_card", "other")


def timeout_cause(s) -> str:
    """Why the game in state `s` (at the turn cap) stalls, as one of TIMEOUT_CAUSES:
    frozen_horror: the Midnight Horror holds no director card, so it can never act again;
    paralysed: every Midnighter stands with the Horror (sleep paralysis for good);
    blue_everyone: the Blue Nightmare is on every Midnighter (only the Town Hall can be activated);
    nightmare_everyone: every Midnighter holds a nightmare (nobody may wake);
    no_director_card: some Midnighter holds no director card (a full hand of nightmares never draws);
    other: none of these (e.g. random play that never strings a win together)."""
    n, horror = s.n, s.horror
    mids = [q for q in range(n) if q != horror]
    if horror >= 0 and not any(k < RED for k in s.hands[horror]):
        return "frozen_horror"
    if horror >= 0 and all(s.where[q] == s.where[horror] for q in mids):
        return "paralysed"
    if mids and all((s.blue >> q) & 1 for q in mids):
        return "blue_everyone"
    if mids and all(has_nightmare(s.hands[q]) for q in mids):
        return "nightmare_everyone"
    if any(not any(k < RED for k in s.hands[q]) for q in mids):
        return "no_director_card"
    return "other"


def _bridge_distances(s) -> tuple[int, ...]:
    """Dreamwalk steps from each avatar to the Bridge on the final board (99: no route)."""
    dist = distances_to(s.grid, s.cell_of, s.rot, s.nb, BRIDGE, s.rules.dreamwalk_return_arrow)
    return tuple(dist[loc] for loc in s.where)
