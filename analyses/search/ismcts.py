"""Single-observer information-set MCTS (SO-ISMCTS), written once against the game protocol.

Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search". Each
iteration draws a determinisation, a full state consistent with what the deciding seat knows
(`game.sample_state(observation, rng)`), and walks one tree of actions with it: every seat's
decisions live in the same tree, keyed by the action. Selection is UCT where a child's
exploration term counts the iterations in which its action was *available* (legal in that
determinisation) rather than the parent's visits. Chance (draws, shuffles) happens inside
`game.apply_action` with the policy's own generator. A rollout plays on with a policy of the
game (the game's parameterised `heuristic` by default) to the end, or for `cutoff` decisions
after which `value(state)` (default: 1/n for every seat) estimates each seat's reward. A win
is worth 1 to the winning seat (or every seat of the winning team), 0 to the others; a game
without a winner (timeout) 1/n to each.

The policy sees only its observation and the legal actions: it never reads the real state.
With `iterations` it is deterministic for a given generator; `seconds` (a time budget per
decision) makes the number of iterations depend on the machine.

    from analyses.search import ISMCTSPolicy
    nightsim.play_game(rules, [ISMCTSPolicy("nightsim", iterations=200), "greedy"], seed=1)
"""
from __future__ import annotations

import dataclasses
import importlib
import math
import time
import types
from typing import Any, Callable

import numpy as np

from .. import limits

__all__ = ["ISMCTSPolicy", "BeliefChooser", "CappedChooser", "parse_ismcts", "default_rollout", "default_spec", "DEFAULT_ITERATIONS"]

#: iterations per decision when none is given (`ISMCTSPolicy`, and `ismcts:default` for a game without its own)
DEFAULT_ITERATIONS = 100


def _module(game) -> types.ModuleType:
    return game if isinstance(game, types.ModuleType) else importlib.import_module(game)


def default_spec(game) -> str:
    """The game's default search, what `ismcts:default` means: the spec string the game declares as
    `SEARCH_DEFAULT` (data in the simulator, e.g. dreamsim's, chosen by a paired benchmark), else
    `ismcts:DEFAULT_ITERATIONS` (the ISMCTSPolicy defaults)."""
    module = _module(game)
    spec = getattr(module, "SEARCH_DEFAULT", None)
    return spec if spec else f"ismcts:{DEFAULT_ITERATIONS}"


def default_rollout(module) -> str:
    """The game's parameterised heuristic ('heuristic'), else its DEFAULT_POLICY, else 'random'."""
    if "heuristic" in module.POLICIES:
        return "heuristic"
    return getattr(module, "DEFAULT_POLICY", None) or "random"


class _Node:
    __slots__ = ("children", "visits", "avail", "reward", "hint")

    def __init__(self):
        self.hint = None
        self.children = {}   # action -> _Node
        self.visits = 0
        self.avail = 0
        self.reward = 0.0    # summed reward of the seat that chose the action leading here


def _rewards(state, n: int) -> list:
    w = state.winner
    if w is None:
        return [1.0 / n] * n
    seats = w if isinstance(w, tuple) else (w,)
    return [1.0 if q in seats else 0.0 for q in range(n)]


def _play_out(module, s, policy, observes: bool, rng, n: int, cutoff, value) -> list:
    """Play `s` on with `policy` for every seat to the end, or for `cutoff` decisions; the reward
    of each seat (`_rewards` at the end, else `value(s)`, or 1/n each without one)."""
    legal_actions, apply_action, observe = module.legal_actions, module.apply_action, module.observe
    steps = 0
    while not s.is_terminal and (cutoff is None or steps < cutoff):
        legal = legal_actions(s)
        p = s.current_player
        a = legal[0] if len(legal) == 1 else policy(observe(s, p) if observes else None, legal, rng)
        apply_action(s, a, rng)
        steps += 1
    if s.is_terminal:
        return _rewards(s, n)
    return [1.0 / n] * n if value is None else list(value(s))


@dataclasses.dataclass(frozen=True)
class ISMCTSPolicy:
    """SO-ISMCTS for one game (module or its name), callable as policy(observation, legal, rng).

    iterations: determinised iterations per decision (>= 1); seconds: optional time budget per
    decision instead (the iterations are then a cap as well; a budget spent before the first
    iteration plays the rollout policy's own choice); rollout: a policy name of the
    game or a policy object (None: `default_rollout`); c: UCT exploration constant (rewards
    are in [0, 1]); cutoff: stop a rollout after this many decisions and use `value`;
    value: callable(state) -> reward per seat (None: 1/n each); bias: progressive bias towards
    the rollout policy's own choice at the root (+bias / (1 + visits) in its UCT score, and it
    wins ties in the final choice), so that a small budget plays at least like that policy;
    0 turns it off; paired: instead of growing a tree, compare the root's legal actions on common
    random numbers (one-step rollout improvement of the rollout policy, Tesauro & Galperin 1996):
    each determinisation is played once after every root action with the same rollout random
    stream, `iterations` counts rollouts (so about iterations / len(legal) determinisations),
    and the rollout policy's own choice is kept unless another action's paired mean advantage
    exceeds `z` standard errors (z: the margin; 0 takes the best mean);
    topk: consider at the root only the rollout policy's k best-scored actions (its
    `action_scores(observation, legal)`, e.g. dreamsim's HeuristicPolicy; its own choice always
    among them), so the budget is spent on fewer candidates (0: every legal action);
    eps: in rollouts, play a uniformly random legal action with this probability instead of the
    rollout policy's (epsilon noise: more varied rollouts; 0: the policy alone);
    belief: a factory of a belief model (e.g. dreamsim's `SEARCH_BELIEFS["reactions"]`), an object with
    `see(observation)` (the seat's observation at every decision of the game), `acted(observation,
    action)` and `sample_state(observation, rng)`: the determinisations are drawn from it instead of
    the game's uniform `sample_state`. It lives in the chooser `for_game(rng)` makes, one per game;
    a game loop that calls a chooser's `watch(observation)` at the other seats' decisions (dreamsim's
    `play_game`) feeds it the whole observation history. None: the uniform `sample_state`;
    orollout: the rollout policy of the OTHER seats (a policy name of the game or a policy object; an
    opponent model: the searching seat's rollouts play `rollout` for itself and this for the others;
    None: `rollout` for every seat). Needs observing policies (the seat is read from the observation);
    gamecap: searched decisions per game and seat (decisions with more than one legal action); after them the
    seat plays the rollout policy's own choice, so that a very long game costs no more than a bounded search
    (kept by the chooser `for_game` makes; 0: no cap; a bare call of the policy is never capped).
    """

    game: str
    iterations: int = DEFAULT_ITERATIONS  # <= 10 s per 2-player Nightmarium game (benchmarks/studies/bench_ismcts.py)
    rollout: Any = None
    c: float = 0.7
    cutoff: int | None = None
    seconds: float | None = None
    value: Callable | None = None
    bias: float = 1.0
    paired: bool = False
    z: float = 1.0
    topk: int = 0
    eps: float = 0.0
    belief: Callable | None = None
    orollout: Any = None
    gamecap: int = 0
    name: str = ""

    def __post_init__(self):
        module = _module(self.game)
        if isinstance(self.game, types.ModuleType):
            object.__setattr__(self, "game", module.__name__)
        for attr in ("sample_state", "legal_actions", "apply_action", "observe"):
            if not hasattr(module, attr):
                raise ValueError(f"ismcts: game {module.__name__!r} lacks {attr} (docs/GAME_PROTOCOL.md)")
        if isinstance(self.iterations, bool) or not isinstance(self.iterations, int) or self.iterations < 1:
            raise ValueError(f"ismcts: iterations must be a positive integer, got {self.iterations!r}")
        limits.ismcts_iterations(self.iterations, f"ismcts:{self.iterations}")
        if self.cutoff is not None and (isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int)
                                        or self.cutoff < 0):
            raise ValueError(f"ismcts: cutoff must be None or a non-negative integer, got {self.cutoff!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"ismcts: seconds must be positive, got {self.seconds!r}")
        limits.ismcts_seconds(self.seconds, "ismcts")
        if not self.c >= 0:
            raise ValueError(f"ismcts: c must be >= 0, got {self.c!r}")
        if not self.bias >= 0:
            raise ValueError(f"ismcts: bias must be >= 0, got {self.bias!r}")
        if not self.z >= 0:
            raise ValueError(f"ismcts: z must be >= 0, got {self.z!r}")
        if isinstance(self.topk, bool) or not isinstance(self.topk, int) or self.topk < 0:
            raise ValueError(f"ismcts: topk must be a non-negative integer (0: every action), got {self.topk!r}")
        if not 0 <= self.eps <= 1:
            raise ValueError(f"ismcts: eps must be in [0, 1], got {self.eps!r}")
        if self.belief is not None and not callable(self.belief):
            raise ValueError(f"ismcts: belief must be a factory of belief models (callable) or None, got {self.belief!r}")
        rollout = default_rollout(module) if self.rollout is None else self.rollout
        if isinstance(rollout, str) and rollout not in module.POLICIES:
            raise ValueError(f"ismcts: unknown rollout policy {rollout!r} for {module.__name__}; "
                             f"known: {', '.join(module.POLICIES)}")
        if not isinstance(rollout, str) and not callable(rollout):
            raise ValueError(f"ismcts: rollout {rollout!r} is neither a policy name nor callable")
        object.__setattr__(self, "rollout", rollout)
        orollout = self.orollout
        if orollout is not None:
            if isinstance(orollout, str) and orollout not in module.POLICIES:
                raise ValueError(f"ismcts: unknown orollout policy {orollout!r} for {module.__name__}; "
                                 f"known: {', '.join(module.POLICIES)}")
            if not isinstance(orollout, str) and not callable(orollout):
                raise ValueError(f"ismcts: orollout {orollout!r} is neither a policy name nor callable")
        if isinstance(self.gamecap, bool) or not isinstance(self.gamecap, int) or self.gamecap < 0:
            raise ValueError(f"ismcts: gamecap must be a non-negative integer (0: no cap), got {self.gamecap!r}")
        if self.topk:
            policy = module.POLICIES[rollout] if isinstance(rollout, str) else rollout
            if not callable(getattr(policy, "action_scores", None)):
                raise ValueError(f"ismcts: topk needs a rollout policy with action_scores(observation, legal); "
                                 f"{rollout!r} of {module.__name__} has none (use topk=0)")
        if not self.name:
            object.__setattr__(self, "name", f"ismcts:{self.iterations}")

    def __repr__(self):
        parts = [f"game={self.game!r}", f"iterations={self.iterations}", f"rollout={self.rollout!r}",
                 f"c={self.c}", f"cutoff={self.cutoff}", f"seconds={self.seconds}", f"bias={self.bias}"]
        if self.paired:
            parts += ["paired=True", f"z={self.z}"]
        if self.topk:
            parts.append(f"topk={self.topk}")
        if self.eps:
            parts.append(f"eps={self.eps}")
        if self.value is not None:
            parts.append(f"value={getattr(self.value, '__name__', repr(self.value))}")
        if self.belief is not None:
            parts.append(f"belief={getattr(self.belief, '__name__', repr(self.belief))}")
        if self.orollout is not None:
            parts.append(f"orollout={self.orollout!r}")
        if self.gamecap:
            parts.append(f"gamecap={self.gamecap}")
        return f"ISMCTSPolicy({', '.join(parts)})"

    # --- the policy ------------------------------------------------------------------------
    def _rollout_policy(self, module, me=None):
        """(policy, observes): the rollout policy (with `orollout`, the seat `me` plays `rollout` and the others
        `orollout`), wrapped with epsilon noise when eps > 0."""
        policy = module.POLICIES[self.rollout] if isinstance(self.rollout, str) else self.rollout
        observes = getattr(policy, "observes", True) is not False
        if self.orollout is not None and me is not None:
            other = module.POLICIES[self.orollout] if isinstance(self.orollout, str) else self.orollout
            if not observes or getattr(other, "observes", True) is False:
                raise ValueError("ismcts: orollout needs rollout policies that read the observation")
            mine = policy

            def policy(obs, legal, rng):
                return (mine if obs.player == me else other)(obs, legal, rng)
        eps = self.eps
        if eps > 0:
            base = policy

            def policy(obs, legal, rng):
                if rng.random() < eps:
                    return legal[int(rng.integers(len(legal)))]
                return base(obs, legal, rng)
        return policy, observes

    def candidates(self, observation, legal, hint=None) -> list:
        """The root actions the search considers: all of `legal`, or with topk the rollout policy's
        k best-scored ones (in `legal`'s order; `hint`, its own choice, always among them)."""
        legal = list(legal)
        if not self.topk or len(legal) <= self.topk:
            return legal
        module = _module(self.game)
        policy = module.POLICIES[self.rollout] if isinstance(self.rollout, str) else self.rollout
        scores = policy.action_scores(observation, tuple(legal))
        order = sorted(range(len(legal)), key=lambda i: (-scores[i], i))
        keep = set(order[:self.topk])
        if hint is not None and hint in legal and legal.index(hint) not in keep:
            keep.discard(order[self.topk - 1])
            keep.add(legal.index(hint))
        return [a for i, a in enumerate(legal) if i in keep]

    def for_game(self, rng):
        """The chooser(observation, legal) of one seat for one game: with a belief, a `BeliefChooser`
        (its own belief object, fed by `watch`); with only a `gamecap`, a `CappedChooser`; else a plain
        call of this policy with `rng`."""
        if self.belief is not None:
            return BeliefChooser(self, self.belief(), rng)
        if self.gamecap:
            return CappedChooser(self, rng)
        return lambda observation, legal: self(observation, legal, rng)

    def own_choice(self, observation, legal, rng):
        """The rollout policy's own choice (what the seat plays once its `gamecap` is spent)."""
        module = _module(self.game)
        policy = module.POLICIES[self.rollout] if isinstance(self.rollout, str) else self.rollout
        return policy(observation if getattr(policy, "observes", True) is not False else None, legal, rng)

    def __call__(self, observation, legal, rng, sample=None):
        """The search's choice; sample(observation, rng): the determinisation (None: the game's sample_state)."""
        if len(legal) == 1:
            return legal[0]
        if self.paired:
            return self.choose_paired(observation, rng, legal, sample)[0]
        root = self.search(observation, rng, legal, sample)
        if root.visits == 0:  # no iteration ran (a time budget spent before the first): the rollout policy's choice
            return root.hint if root.hint is not None else self.own_choice(observation, legal, rng)
        best, best_visits = root.hint if root.hint is not None else legal[0], -1
        if best in root.children:
            best_visits = root.children[best].visits
        for a in legal:  # the most visited of the real legal actions (ties: the hint, else the first listed)
            child = root.children.get(a)
            v = child.visits if child is not None else 0
            if v > best_visits:
                best, best_visits = a, v
        return best

    def search(self, observation, rng, legal=None, sample=None) -> _Node:
        """The root of the search tree after this decision's iterations (`root.hint`: the
        rollout policy's choice among `legal`, when given and bias > 0)."""
        module = _module(self.game)
        legal_actions, apply_action = module.legal_actions, module.apply_action
        sample = module.sample_state if sample is None else sample
        policy, observes = self._rollout_policy(module, getattr(observation, "player", None))
        base = module.POLICIES[self.rollout] if isinstance(self.rollout, str) else self.rollout
        n = observation.n_players if hasattr(observation, "n_players") else len(observation.hand_sizes)
        c, cutoff, value = self.c, self.cutoff, self.value
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        root = _Node()
        hint = root.hint = None
        bias = self.bias
        if legal is not None and (bias > 0 or self.topk):
            hint = root.hint = base(observation if observes else None, legal, rng)
        allowed = None
        if legal is not None and self.topk:
            allowed = frozenset(self.candidates(observation, legal, hint))
        for _ in range(self.iterations):
            if deadline is not None and time.perf_counter() > deadline:
                break
            s = sample(observation, rng)
            node, path = root, []  # path: (node, seat that chose the action into it)
            # selection and expansion
            while not s.is_terminal:
                legal = legal_actions(s)
                if node is root and allowed is not None:
                    legal = [a for a in legal if a in allowed] or legal
                p = s.current_player
                children = node.children
                untried = []
                best, best_score = None, -1.0
                for a in legal:
                    child = children.get(a)
                    if child is None:
                        untried.append(a)
                        continue
                    child.avail += 1
                    score = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                    if node is root and a == hint and bias > 0:
                        score += bias / (1 + child.visits)
                    if score > best_score:
                        best, best_score = a, score
                if untried:
                    if node is root and hint in untried and bias > 0:  # the rollout policy's choice first
                        a = hint
                    else:
                        a = untried[int(rng.integers(len(untried)))]
                    child = children[a] = _Node()
                    child.avail = 1
                    apply_action(s, a, rng)
                    path.append((child, p))
                    break
                child = children[best]
                apply_action(s, best, rng)
                path.append((child, p))
                node = child
            reward = _play_out(module, s, policy, observes, rng, n, cutoff, value)
            for child, p in path:
                child.visits += 1
                child.reward += reward[p]
            root.visits += 1
        return root


    def choose_paired(self, observation, rng, legal, sample=None):
        """(action, table): the rollout policy's choice unless another root action beats it on
        common random numbers (see `paired`). table: per legal action, its mean reward for the
        deciding seat and the number of determinisations it was played on."""
        module = _module(self.game)
        apply_action = module.apply_action
        sample = module.sample_state if sample is None else sample
        policy, observes = self._rollout_policy(module, getattr(observation, "player", None))
        base = module.POLICIES[self.rollout] if isinstance(self.rollout, str) else self.rollout
        n = observation.n_players if hasattr(observation, "n_players") else len(observation.hand_sizes)
        hint = base(observation if observes else None, legal, rng)
        legal = self.candidates(observation, legal, hint)
        k = len(legal)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        rewards = [[] for _ in range(k)]
        for j in range(max(1, self.iterations // k)):
            if j and deadline is not None and time.perf_counter() > deadline:
                break  # (the first determinisation always runs: every action gets a mean)
            s0 = sample(observation, rng)
            me = s0.current_player
            seed = int(rng.integers(2**63))
            for i, a in enumerate(legal):
                s = s0.clone()
                r = np.random.default_rng(seed)
                apply_action(s, a, r)
                rewards[i].append(_play_out(module, s, policy, observes, r, n, self.cutoff, self.value)[me])
        means = [sum(x) / len(x) for x in rewards]
        h = legal.index(hint)
        best = max(range(k), key=lambda i: (means[i], i == h))
        if best != h and self.z > 0:
            diffs = [x - y for x, y in zip(rewards[best], rewards[h])]
            d = len(diffs)
            mean = sum(diffs) / d
            var = sum((x - mean) ** 2 for x in diffs) / (d - 1) if d > 1 else float("inf")
            if not mean > self.z * math.sqrt(var / d):
                best = h
        table = [(a, means[i], len(rewards[i])) for i, a in enumerate(legal)]
        return legal[best], table


class CappedChooser:
    """One seat's chooser for one game that counts its searched decisions (`searched`): after the policy's
    `gamecap` of them it plays the rollout policy's own choice."""

    __slots__ = ("policy", "rng", "searched")

    def __init__(self, policy: ISMCTSPolicy, rng):
        self.policy, self.rng, self.searched = policy, rng, 0

    def choose(self, observation, legal, sample=None):
        policy = self.policy
        if len(legal) > 1:
            if policy.gamecap and self.searched >= policy.gamecap:
                return policy.own_choice(observation, legal, self.rng)
            self.searched += 1
        return policy(observation, legal, self.rng, sample)

    def __call__(self, observation, legal):
        return self.choose(observation, legal)


class BeliefChooser(CappedChooser):
    """One seat's chooser for one game with a belief model: `watch(observation)` at the other seats'
    decisions and the call at its own keep the belief up to date; the search samples from it."""

    __slots__ = ("belief",)

    def __init__(self, policy: ISMCTSPolicy, belief, rng):
        super().__init__(policy, rng)
        self.belief = belief

    def watch(self, observation) -> None:
        self.belief.see(observation)

    def __call__(self, observation, legal):
        b = self.belief
        b.see(observation)
        action = self.choose(observation, legal, b.sample_state)
        b.acted(observation, action)
        return action


_KEYS = {"rollout": str, "c": float, "cutoff": int, "seconds": float, "bias": float, "paired": int, "z": float,
         "topk": int, "eps": float, "value": str, "belief": str, "orollout": str, "gamecap": int}


def parse_ismcts(module, spec: str) -> ISMCTSPolicy:
    """`ismcts:N` or `ismcts:N:key=value:...` (keys: rollout, c, cutoff, seconds, bias, paired, z, topk, eps,
    value: a name in the game's `SEARCH_VALUES`, a factory of value estimates, e.g. dreamsim's `plan`;
    belief: a name in the game's `SEARCH_BELIEFS`, a factory of belief models, e.g. dreamsim's `reactions`;
    orollout: the other seats' rollout policy, an opponent model; gamecap: searched decisions per game and seat)
    for `module`; `ismcts:default[:key=value...]` is the game's `default_spec` (its options overridden
    by the ones given), named as given.

    >>> parse_ismcts(importlib.import_module("nightsim"), "ismcts:50:rollout=random").iterations
    50
    """
    head, *rest = spec.strip().split(":")
    if head.strip().lower() != "ismcts" or not rest:
        raise ValueError(f"policy {spec!r}: expected 'ismcts:N' or 'ismcts:N:key=value' (N iterations per decision)")
    if rest[0].strip().lower() == "default":
        base = default_spec(module)
        policy = parse_ismcts(module, ":".join([base, *rest[1:]]))
        return dataclasses.replace(policy, name=spec.strip())
    count = rest[0].strip()
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"policy {spec!r}: the iterations N in 'ismcts:N' must be a positive integer, "
                         f"got {count!r}")
    limits.ismcts_iterations(int(count), f"policy {spec.strip()!r}")
    kwargs = spec_options(spec, rest[1:], _KEYS)
    if "paired" in kwargs:
        if kwargs["paired"] not in (0, 1):
            raise ValueError(f"policy {spec!r}: option paired expects 0 or 1, got {kwargs['paired']!r}")
        kwargs["paired"] = bool(kwargs["paired"])
    if "value" in kwargs:
        values = getattr(module, "SEARCH_VALUES", {})
        if kwargs["value"] not in values:
            raise ValueError(f"policy {spec!r}: unknown value estimate {kwargs['value']!r} for {module.__name__}; "
                             f"known: {', '.join(values) or 'none'}")
        kwargs["value"] = values[kwargs["value"]]()   # a fresh estimate: its caches belong to this policy
    if "belief" in kwargs:
        beliefs = getattr(module, "SEARCH_BELIEFS", {})
        if kwargs["belief"] not in beliefs:
            raise ValueError(f"policy {spec!r}: unknown belief {kwargs['belief']!r} for {module.__name__}; "
                             f"known: {', '.join(beliefs) or 'none'}")
        kwargs["belief"] = beliefs[kwargs["belief"]]   # the factory: every game gets a fresh belief
    return ISMCTSPolicy(module.__name__, iterations=int(count), name=spec.strip(), **kwargs)


def spec_options(spec: str, parts: list, keys: dict, options: str = "options") -> dict:
    """The 'key=value' parts of a search spec, each converted by its type in `keys`."""
    kwargs = {}
    for part in parts:
        key, eq, text = part.partition("=")
        key = key.strip()
        if not eq or key not in keys:
            raise ValueError(f"policy {spec!r}: bad option {part!r}; {options}: "
                             f"{', '.join(k + '=...' for k in keys)}")
        try:
            kwargs[key] = keys[key](text.strip())
        except ValueError:
            raise ValueError(f"policy {spec!r}: option {key} expects {keys[key].__name__}, got {text!r}") from None
    return kwargs
